"""Who is being paid: the name behind a Pix key is known only from the bank's answers. Once the
bank names the creditor, the payments list and the detail show it beside the key, the review
of a later payment to the same key says whom it went to last time, and a key whose payments
went to a different name than before is flagged."""

from __future__ import annotations

import re
import secrets
from decimal import Decimal

import pytest

from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.ui.dialogs.payout_review_dialog import PayoutReviewDialog
from treasury_app.ui.widgets.payments_list import PaymentsList


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


def test_the_banks_name_is_shown_and_remembered(qtbot, run, settle, workspace) -> None:
    key = f"nome{secrets.token_hex(3)}@empresa.com.br"
    payouts = workspace.payouts
    first_review = run(payouts.prepare_key(key, "10,00"))
    assert first_review.last_paid is None  # never paid: nobody named yet
    entry = run(payouts.send(first_review))
    assert entry.state == EntryState.ACCEPTED and entry.creditor_name  # the bank named them

    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    assert settle(widget.refresh_task) is True  # read in the background
    row = widget.model.row_of(entry.id)
    assert widget.model.index(row, 1).data() == f"{entry.creditor_name} ({key})"
    widget.select_entry(entry.id)
    assert widget.details["payee"].text() == f"{entry.creditor_name} ({key})"

    later = run(payouts.prepare_key(key, "20,00"))
    assert later.last_paid is not None and later.last_paid.id == entry.id
    dialog = PayoutReviewDialog(later)
    qtbot.addWidget(dialog)
    shown = dialog.fields["last-paid"].text()
    assert re.fullmatch(rf"{re.escape(entry.creditor_name)} on \d\d/\d\d/\d{{4}}", shown), shown


def test_a_key_paid_to_another_name_is_flagged(qtbot, run, settle, workspace) -> None:
    key = f"troca{secrets.token_hex(3)}@empresa.com.br"
    journal = workspace.ledger.journal
    ids = []
    for name in ("Gráfica Expressa EIRELI", "Gráfica Expressa EIRELI", "Outra Pessoa Ltda"):
        created = run(
            journal.create(
                NewEntry(
                    kind=EntryKind.PIX_KEY,
                    amount=Decimal("5.00"),
                    idempotency_key=secrets.token_hex(10),
                    request={},
                    payee_detail=key,
                )
            )
        )
        # Final and failed (no receipt to fetch), so that the shared ledger's other tests
        # never meet these hand-made rows.
        run(
            journal.update(
                created.id,
                EntryState.ACCEPTED,
                bank_status="CANCELED",
                final=True,
                creditor_name=name,
            )
        )
        ids.append(created.id)
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    assert settle(widget.refresh_task) is True
    model = widget.model
    texts = [model.index(model.row_of(i), 1).data() for i in ids]
    assert texts[0] == texts[1] == f"Gráfica Expressa EIRELI ({key})"
    assert texts[2] == f"⚠ Outra Pessoa Ltda ({key})"
    tip = model.index(model.row_of(ids[2]), 1).data(3)  # ToolTipRole
    assert "Gráfica Expressa EIRELI before" in tip and "went to Outra Pessoa Ltda" in tip
