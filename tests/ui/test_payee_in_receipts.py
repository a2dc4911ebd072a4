"""Receipts and exports name the registered payee (issue 36): the receipt viewer's header and
its file name, and the payments export's payee column, say the name the payee registry knows
for the key or account paid, not the text typed (nor the bank's spelling)."""

from __future__ import annotations

import csv
import io
import secrets
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.ui.test_receipt_viewer import sandbox_receipt  # noqa: F401 (fixture)
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.sandbox import seed
from treasury_app.services.exports import ExportFormat
from treasury_app.ui.dialogs.receipt_viewer import open_receipt_viewer
from treasury_app.ui.widgets.payments_list import PaymentsList


def test_the_receipt_viewer_names_the_registered_payee(
    qtbot: Any,
    run: Any,
    sandbox_receipt: Any,
) -> None:
    workspace, entry, _receipt, _pdf = sandbox_receipt
    service = workspace.payees
    # The key's own owner at the sandbox bank: later payments to it (other tests share this
    # ledger) carry the registered document as creditorDocument, and the bank accepts them.
    owner = seed.document_for(entry.payee_detail)
    payee = run(service.save_payee(f"Fornecedor {secrets.token_hex(3)} Ltda", owner))
    run(service.add(payee.id, service.key(entry.payee_detail)))
    viewer = run(open_receipt_viewer(workspace.tracker, entry, None))
    qtbot.addWidget(viewer)
    assert viewer.windowTitle() == f"Receipt — {payee.name}"
    assert payee.name.split()[1] in viewer.suggested_name
    viewer.close()


def test_the_payments_export_names_the_registered_payee(
    qtbot: Any, run: Any, settle: Any, open_workspace: Any, tmp_path: Path
) -> None:
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.show()
    tag = "k" + secrets.token_hex(4)
    key = f"{tag}@papelaria.com.br"
    service = workspace.payees
    payee = run(service.save_payee("Papelaria Central", "12.ABC.345/01DE-35"))
    run(service.add(payee.id, service.key(key)))
    typed = run(
        workspace.ledger.journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal("10.00"),
                idempotency_key=secrets.token_hex(8),
                request={},
                payee_name="papelaria (digitado)",
                payee_detail=key,
            )
        )
    )
    run(workspace.ledger.journal.update(typed.id, EntryState.REJECTED, final=True))
    assert settle(widget.refresh()) is True
    widget.search_edit.setText(tag)
    assert [e.id for e in widget.shown_entries()] == [typed.id]
    target = tmp_path / "pagamentos.csv"
    assert widget.export_csv(target, ExportFormat.MACHINE) == 1
    text = target.read_bytes().decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    rows = [row for row in rows if row]
    assert rows[1][1:3] == ["Papelaria Central", key], rows
    widget.shutdown()
