"""The boletos tab against the app's own sandbox bank (clock 2026-11-18 10:00 in Brasília,
before the 20:00 cut-off), driven as a person would: type the line, look it up, review, type
the amount again, pay, follow it to LIQUIDATED, open the receipt."""

from __future__ import annotations

import unicodedata
from decimal import Decimal

import pytest
from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QPushButton, QTableWidget

from tests.ui.test_receipt_viewer import non_white_pixels
from tests.waiting import qt_wait_until
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryKind
from treasury_app.ui.dialogs.receipt_viewer import on_white
from treasury_app.ui.tabs import billets_tab
from treasury_app.ui.tabs.billets_tab import BilletsTab, Column

DUE_TODAY = "Energia elétrica"
OVERDUE = "Vencido há 10 dias (com multa)"
FREE_VALUE = "Valor livre (doação)"


@pytest.fixture
def tab_and_workspace(qtbot, run, open_workspace):
    workspace = open_workspace()
    tab = BilletsTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1000, 650)
    tab.show()
    qtbot.waitExposed(tab)
    qt_wait_until(
        qtbot, tab.model.load_task.done, "tab.model.load_task done"
    )  # the paid slips, read in the background
    yield tab, workspace
    tab.shutdown()
    for task in (tab.lookup_task, tab.receipt_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")


@pytest.fixture
def slips(run, tab_and_workspace):
    _tab, workspace = tab_and_workspace
    response = run(workspace.session.accounts.transport.http.get("/sandbox/slips"))
    response.raise_for_status()
    return {slip["label"]: slip for slip in response.json()["data"]}


def _billet_entries(run, workspace):
    return run(workspace.ledger.journal.recent(kinds=[EntryKind.BILLET], limit=5000))


def _look_up(qtbot, tab: BilletsTab, line: str) -> None:
    tab.code_edit.clear()
    qtbot.keyClicks(tab.code_edit, line)
    assert tab.lookup_button.isEnabled(), tab.feedback.text()
    qtbot.mouseClick(tab.lookup_button, Qt.MouseButton.LeftButton)
    assert tab.lookup_task is not None


def _wait_for_review(qtbot, tab: BilletsTab):
    qt_wait_until(
        qtbot,
        lambda: (
            (tab.review_dialog is not None and tab.review_dialog.isVisible())
            or tab.lookup_task.done()
        ),
        "(tab.review_dialog is not None and tab.review_dialog.isVisible()) or ...",
    )
    assert tab.review_dialog is not None, tab.banner.detail.text()
    return tab.review_dialog


def test_an_invalid_line_is_explained_at_once_and_never_sent(
    qtbot, tab_and_workspace, slips, monkeypatch
) -> None:
    tab, workspace = tab_and_workspace
    sent = []
    original = workspace.session.accounts.get_billet_info

    async def counting(*args, **kwargs):
        sent.append(args)
        return await original(*args, **kwargs)

    monkeypatch.setattr(workspace.session.accounts, "get_billet_info", counting)
    line = slips[DUE_TODAY]["digitableCode"]
    wrong = line[:12] + str((int(line[12]) + 1) % 10) + line[13:]  # a typo in block 2
    qtbot.keyClicks(tab.code_edit, wrong)

    assert tab.feedback.text().startswith("Invalid")
    assert "Block 2" in tab.feedback.text() and "check digit" in tab.feedback.text()
    assert not tab.lookup_button.isEnabled()
    qtbot.mouseClick(tab.lookup_button, Qt.MouseButton.LeftButton)
    qtbot.keyClick(tab.code_edit, Qt.Key.Key_Return)
    assert tab.lookup_task is None and sent == []

    tab.code_edit.clear()
    qtbot.keyClicks(tab.code_edit, "1234")
    assert "has 4 digits" in tab.feedback.text()


def test_look_up_review_pay_once_follow_and_receipt(
    qtbot, run, tab_and_workspace, slips, monkeypatch
) -> None:
    tab, workspace = tab_and_workspace
    slip = slips[DUE_TODAY]
    info = run(workspace.session.accounts.get_billet_info(slip["barcode"]))
    amount = info.total_updated
    assert amount == Decimal("845.32")  # due today: no charges
    before = run(workspace.statement.balance()).available
    entries_before = {e.id for e in _billet_entries(run, workspace)}
    pays = []
    original_pay = workspace.billets.pay

    async def counting_pay(review):
        pays.append(review)
        return await original_pay(review)

    monkeypatch.setattr(workspace.billets, "pay", counting_pay)

    qtbot.keyClicks(tab.code_edit, slip["digitableCode"])
    feedback = tab.feedback.text()
    assert feedback.startswith("Valid bank slip")
    assert format_brl(amount) in feedback and "18/11/2026" in feedback

    qtbot.mouseClick(tab.lookup_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["beneficiary"].text() == info.beneficiary.name
    assert dialog.fields["due_date"].text() == "18/11/2026"
    assert dialog.amount.text() == format_brl(amount)
    assert not dialog.pay_button.isEnabled()

    qtbot.keyClicks(dialog.confirm_edit, "845,23")
    assert not dialog.pay_button.isEnabled()
    assert "not the amount" in dialog.confirm_hint.text()
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, "R$ 845,32")
    assert dialog.pay_button.isEnabled()

    qtbot.mouseClick(dialog.pay_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.pay_button, Qt.MouseButton.LeftButton)  # the double click
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    entry = tab.lookup_task.result()
    assert entry is not None, tab.banner.detail.text()

    assert len(pays) == 1
    new = [e for e in _billet_entries(run, workspace) if e.id not in entries_before]
    assert [e.id for e in new] == [entry.id]
    assert run(workspace.statement.balance()).available == before - amount
    assert "Sent: Queued" in tab.payment_status.text()
    assert tab.code_edit.text() == ""
    row = tab.model.row_of(entry.id)
    assert row == 0
    assert tab.model.index(row, Column.BENEFICIARY).data() == info.beneficiary.name
    assert tab.model.index(row, Column.AMOUNT).data() == format_brl(amount)

    http = workspace.session.accounts.transport.http
    run(http.post("/sandbox/clock", json={"advance": 4.5}))
    run(workspace.tracker.poll_once())
    assert tab.model.index(row, Column.STATUS).data() == "Paid"
    assert "Paid: Queued → Paid" in tab.payment_status.text()
    assert tab.payment_status.text().startswith("Paid:")

    assert not tab.receipt_button.isEnabled()  # nothing selected yet
    tab.view.selectRow(row)
    assert tab.receipt_button.isEnabled()
    monkeypatch.setattr(billets_tab, "receipt_viewer_class", lambda: None)
    qtbot.mouseClick(tab.receipt_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.receipt_task.done, "tab.receipt_task done")
    pdf = tab.receipt_task.result()
    assert pdf is not None and pdf.startswith(b"%PDF")
    assert tab.model.index(row, Column.RECEIPT).data() == "Archived"
    paid_on = tab.model.entry(row).updated_at[:10]
    slug = "-".join(
        unicodedata.normalize("NFKD", info.beneficiary.name)
        .encode("ascii", "ignore")
        .decode()
        .lower()
        .replace(".", " ")
        .split()
    )
    saved = workspace.ledger.receipts.directory / (
        f"comprovante-boleto-{paid_on}-{slug}-R$845,32.pdf"
    )  # the beneficiary's name, as the bank gave it
    assert saved.read_bytes() == pdf
    assert str(saved) in tab.receipt_status.text()

    monkeypatch.undo()  # now through the receipt viewer
    assert billets_tab.receipt_viewer_class() is not None
    first = tab.receipt_task
    # The button comes back once the first task's end has been handled (a turn of the loop
    # later): a click before that is ignored, as a person's would be.
    qt_wait_until(qtbot, tab.receipt_button.isEnabled, "the receipt button enabled again")
    qtbot.mouseClick(tab.receipt_button, Qt.MouseButton.LeftButton)
    assert tab.receipt_task is not first
    qt_wait_until(qtbot, tab.receipt_task.done, "tab.receipt_task done")
    assert tab.receipt_task.result() == pdf  # from the archive this time
    viewer = tab.receipt_viewer
    assert viewer is not None and viewer.isVisible()
    assert info.beneficiary.name in viewer.windowTitle()
    assert viewer.suggested_name == saved.name
    assert viewer.folder.is_dir()  # "Open folder" works: the archive's folder of this PDF
    assert workspace.ledger.receipts.directory in viewer.folder.parents
    assert viewer.folder_button.isEnabled()
    assert viewer.page_count() >= 1
    page = on_white(viewer.document.render(0, QSize(300, 420)))
    assert non_white_pixels(page) > 50  # the rendered page is not blank
    viewer.close()

    # The same slip again: a hard stop, not a review to click through; the earlier payment
    # is selected with its receipt one click away.
    tab.view.clearSelection()
    tab.view.setCurrentIndex(tab.model.index(-1, 0))
    _look_up(qtbot, tab, slip["digitableCode"])
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    assert tab.lookup_task.result() is None and tab.review_dialog is None
    assert tab.banner.isVisible()
    assert "already paid on" in tab.banner.detail.text()
    assert tab.banner.title.text() == "Slip already paid"
    assert "R$ 845,32" in tab.banner.detail.text()
    assert tab.selected_entry().id == entry.id and tab.receipt_button.isEnabled()
    assert run(workspace.statement.balance()).available == before - amount


def test_an_overdue_slip_explains_its_charges(qtbot, run, tab_and_workspace, slips) -> None:
    tab, workspace = tab_and_workspace
    slip = slips[OVERDUE]
    entries_before = len(_billet_entries(run, workspace))
    _look_up(qtbot, tab, slip["digitableCode"])
    dialog = _wait_for_review(qtbot, tab)

    info = dialog.review.info
    late = info.fine + info.interest
    assert late > 0 and dialog.review.amount == info.original_amount + late
    due = dialog.review.due_date
    charges = dialog.fields["charges"].text()
    assert f"{format_brl(late)} of fine and interest since {due:%d/%m}" in charges
    assert dialog.amount.text() == format_brl(dialog.review.amount)
    assert dialog.warnings.isVisible()
    assert f"Overdue since {due:%d/%m/%Y}" in dialog.warnings.text()

    qtbot.mouseClick(dialog.cancel_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    assert tab.lookup_task.result() is None
    assert len(_billet_entries(run, workspace)) == entries_before


def test_a_free_value_slip_is_refused_in_the_banner(qtbot, tab_and_workspace, slips) -> None:
    tab, _workspace = tab_and_workspace
    _look_up(qtbot, tab, slips[FREE_VALUE]["digitableCode"])
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    assert tab.review_dialog is None and tab.lookup_task.result() is None
    assert tab.banner.isVisible()
    assert "choose the amount" in tab.banner.detail.text()
    assert tab.code_edit.property("invalid") is True
    assert tab.lookup_button.isEnabled()  # the line itself is fine: it may be tried again


def test_sample_slips_of_the_sandbox_fill_the_line(qtbot, run, tab_and_workspace, slips) -> None:
    tab, _workspace = tab_and_workspace
    assert tab.samples_button.isVisible()  # a sandbox profile
    qtbot.mouseClick(tab.samples_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: tab.samples_dialog is not None and tab.samples_dialog.isVisible(),
        "tab.samples_dialog shown",
    )
    dialog = tab.samples_dialog
    table = dialog.findChild(QTableWidget, "sample-slips-table")
    labels = [table.item(r, 0).text() for r in range(table.rowCount())]
    assert set(labels) == set(slips)
    row = labels.index(OVERDUE)
    assert table.item(row, 2).text() == format_brl(Decimal(slips[OVERDUE]["amount"]))
    assert table.item(row, 1).text().count("/") == 2  # a due date, dd/mm/yyyy
    table.selectRow(row)
    qtbot.mouseClick(dialog.findChild(QPushButton, "sample-use"), Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.samples_task.done, "tab.samples_task done")
    assert tab.code_edit.text() == slips[OVERDUE]["digitableCode"]
    assert tab.lookup_button.isEnabled() and tab.feedback.text().startswith("Valid bank slip")


def test_sample_slips_are_refused_outside_the_sandbox(run, tab_and_workspace) -> None:
    from treasury_app.services.sandbox_samples import SandboxOnlyError, sample_slips

    _tab, workspace = tab_and_workspace
    session = workspace.session
    real = session.profile.model_copy(update={"environment": "production"})
    original = session.profile
    session.profile = real
    try:
        with pytest.raises(SandboxOnlyError, match=r"sandbox\.samples_only_in_sandbox"):
            run(sample_slips(session))
    finally:
        session.profile = original


def test_paid_slips_are_searched_and_exported(qtbot, run, tab_and_workspace, slips, tmp_path):
    import csv
    import io

    tab, workspace = tab_and_workspace
    slip = slips["Assinatura de software"]
    review = run(workspace.billets.lookup(slip["digitableCode"]))
    entry = run(workspace.billets.pay(review))
    refreshed = tab.refresh()
    qt_wait_until(qtbot, refreshed.done, "refreshed done")
    assert refreshed.result() is True
    beneficiary = review.beneficiary_name
    for text in (beneficiary.split()[0].upper(), "99,99", "99.99", slip["barcode"][:20]):
        tab.search_edit.setText(text)
        assert entry.id in {e.id for e in tab.shown_entries()}, text
    tab.search_edit.setText("nothing-like-this")
    assert tab.shown_entries() == []
    tab.search_edit.setText("99,99")
    path = tmp_path / "boletos.csv"
    assert tab.export_csv(path) == len(tab.shown_entries()) >= 1
    rows = list(csv.reader(io.StringIO(path.read_text("utf-8-sig")), delimiter=";"))
    assert rows[0][:2] == ["Date", "Beneficiary"]
    assert any(r[2] == entry.payee_detail and r[3] == "99,99" for r in rows[1:])


def test_a_refused_slip_is_listed_as_refused_with_the_reason(
    qtbot, run, tab_and_workspace, slips
) -> None:
    tab, _workspace = tab_and_workspace
    slip = slips["Vencido além do prazo"]
    _look_up(qtbot, tab, slip["digitableCode"])
    dialog = _wait_for_review(qtbot, tab)
    qtbot.keyClicks(dialog.confirm_edit, dialog.amount.text())
    qtbot.mouseClick(dialog.pay_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    entry = tab.lookup_task.result()
    assert entry is not None and entry.error and "/api/v2/" in entry.error
    assert tab.view.parent().title() == "Slip payments"  # not "Paid slips"
    qt_wait_until(qtbot, lambda: tab.model.row_of(entry.id) is not None, "the slip listed")
    status = tab.model.index(tab.model.row_of(entry.id), Column.STATUS).data()
    assert status.startswith("Refused: ") and "prazo de pagamento" in status  # the bank's why
    assert "Paid" not in status and "422" not in status and "/api/" not in status
    line = tab.payment_status.text()
    assert line.startswith("Refused") and "prazo de pagamento" in line and "/api/" not in line
