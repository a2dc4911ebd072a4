"""The Payees tab's "Statement of account…" (issue 36), as a person uses it: the selected
payee's last payments shown, the period asked (the button disabled meanwhile), the .zip
written where they chose (a path given here instead of the save dialog), what was written
said; a file already there is not replaced. Against the sandbox bank, the receipt in the zip
is the very PDF the bank gave for the payment."""

from __future__ import annotations

import asyncio
import datetime as dt
import zipfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.services.test_payee_statement import KEY, OTHER_KEY, PDF, paid_at
from tests.ui.test_payees_tab import answer, gone
from tests.ui.test_receipt_viewer import sandbox_receipt  # noqa: F401 (fixture)
from tests.waiting import qt_wait_until
from treasury_app.ledger import FileLedger, open_ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.sandbox import seed
from treasury_app.services.payees import PayeeService
from treasury_app.ui.dialogs.statement_dialog import StatementDialog
from treasury_app.ui.tabs.payees_tab import PayeesTab
from treasury_app.ui.widgets.date_edits import to_qdate

NOW = dt.datetime(2026, 12, 7, 15, 0, tzinfo=dt.UTC)


def _tab(qtbot: Any, workspace: Any) -> PayeesTab:
    tab = PayeesTab(workspace, None)
    qtbot.addWidget(tab)
    tab.resize(1366, 700)
    tab.show()
    return tab


def _select(qtbot: Any, tab: PayeesTab, name: str) -> None:
    tab.search.setText(name)
    qt_wait_until(
        qtbot,
        lambda: tab.detail is not None and tab.detail.payee.name == name,
        f"{name} selected",
    )


def _export(qtbot: Any, tab: PayeesTab, path: Path, fill: Callable[[Any], None]) -> Any:
    exporting = asyncio.ensure_future(tab.export_statement(path))

    def chosen(dialog: StatementDialog) -> None:
        assert not tab.statement_button.isEnabled()  # one statement at a time
        fill(dialog)

    answer(qtbot, StatementDialog, chosen)
    qt_wait_until(qtbot, exporting.done, "the statement written")
    assert tab.statement_button.isEnabled()
    return exporting.result()


def test_the_tab_exports_the_selected_payees_statement(
    qtbot: Any, run: Callable[..., Any], tmp_path: Path
) -> None:
    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="ana")
    assert isinstance(ledger, FileLedger)
    service = PayeeService(ledger, clock=lambda: NOW)
    payee = run(service.save_payee("Papelaria Central", "11.222.333/0001-81"))
    run(service.add(payee.id, service.key(KEY)))
    run(service.add(payee.id, service.key(OTHER_KEY)))
    settled = paid_at(ledger, KEY, "1000.00", EntryState.ACCEPTED, "2026-11-03T12:00:00.000Z")
    paid_at(ledger, OTHER_KEY, "99.00", EntryState.REJECTED, "2026-11-21T12:00:00.000Z")
    paid_at(ledger, OTHER_KEY, "500.00", EntryState.SENT, "2026-12-01T02:00:00.000Z")
    paid_at(ledger, KEY, "70.00", EntryState.ACCEPTED, "2026-10-31T12:00:00.000Z")
    run(ledger.receipts.save(PDF, kind="PIX", bank_id="E1", entry_id=settled.id))
    tab = _tab(qtbot, SimpleNamespace(ledger=ledger, payees=service))
    try:
        _select(qtbot, tab, "Papelaria Central")
        qt_wait_until(qtbot, lambda: tab.payments_model.rowCount() == 3, "the last payments")
        assert tab.payments_title.text() == (
            "Last payments (3 of 3). Since 01/12/2026: R$ 0,00 paid, R$ 0,00 on its way."
        )
        first = [tab.payments_model.data(tab.payments_model.index(0, c), 0) for c in range(4)]
        assert first == ["30/11/2026 23:00", "R$ 500,00", OTHER_KEY, "Sending"]

        def november(dialog: StatementDialog) -> None:
            assert dialog.end.date().toPython() == dt.date(2026, 12, 7)  # Brasília's today
            dialog.start.setDate(to_qdate(dt.date(2026, 11, 1)))
            dialog.end.setDate(to_qdate(dt.date(2026, 11, 30)))

        target = tmp_path / "extrato.zip"
        written = _export(qtbot, tab, target, november)
        assert (written.payments, written.receipts) == (2, 1)
        status = f"2 payment(s) and 1 receipt(s) exported to {target}"
        assert tab.banner.isVisible() and tab.banner.detail.text() == status
        assert tab.banner.title.text() == "Statement of account saved"
        with zipfile.ZipFile(target) as archive:
            pdfs = [n for n in archive.namelist() if n.endswith(".pdf")]
            assert [archive.read(n) for n in pdfs] == [PDF]
            [name] = [n for n in archive.namelist() if n.endswith(".csv")]
            text = archive.read(name).decode("utf-8-sig")
        assert name == "extrato-papelaria-central-2026-11-01-a-2026-11-30.csv"
        assert "Period;01/11/2026 to 30/11/2026" in text
        # a phone key starts like a formula: defused, as every export does
        assert "30/11/2026 23:00;500,00;'+5511987654321;Sending" in text
        assert "Total settled;1000,00" in text

        # The same name again: refused in words, the first file kept.
        before = target.read_bytes()
        assert _export(qtbot, tab, target, lambda d: d.every.setChecked(True)) is None
        assert "exists already" in tab.banner.detail.text()
        assert target.read_bytes() == before
    finally:
        gone(qtbot, tab)
        ledger.close_now()


def test_the_sandbox_banks_receipt_is_in_the_statement(
    qtbot: Any,
    run: Callable[..., Any],
    sandbox_receipt: Any,
    tmp_path: Path,
) -> None:
    workspace, entry, _receipt, pdf = sandbox_receipt
    service = workspace.payees
    found = run(service.owner(entry.payee_detail))  # another test may have registered it
    if found is None:
        payee = run(
            service.save_payee("Fornecedor do Extrato", seed.document_for(entry.payee_detail))
        )
        run(service.add(payee.id, service.key(entry.payee_detail)))
    else:
        payee = found[0]
    tab = _tab(qtbot, workspace)
    try:
        _select(qtbot, tab, payee.name)
        target = tmp_path / "extrato.zip"
        written = _export(qtbot, tab, target, lambda d: d.every.setChecked(True))
        assert written is not None and written.missing == ()
        with zipfile.ZipFile(target) as archive:
            mine = [n for n in archive.namelist() if n.endswith(f"-n{entry.id}.pdf")]
            assert len(mine) == 1
            assert archive.read(mine[0]) == pdf  # the bank's PDF, byte for byte
            [name] = [n for n in archive.namelist() if n.endswith(".csv")]
            text = archive.read(name).decode("utf-8-sig")
        assert entry.end_to_end_id and entry.end_to_end_id in text
        assert mine[0] in text
    finally:
        gone(qtbot, tab)
