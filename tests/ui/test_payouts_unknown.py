"""A Pix whose answer is lost after the bank committed it: the app never guesses; it checks
with the bank at once (by idempotency key) and shows the payment it finds, within seconds,
followed to one settled payment."""

from __future__ import annotations

from decimal import Decimal

from tests.ui.test_payouts_tab import (
    _confirm_and_send,
    _review_key,
    tab_and_workspace,  # noqa: F401 - the Pix tab fixture
)
from tests.waiting import qt_wait_until
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import CHECKING_NOTE

PIX_DICT = "/api/v2/pix/payments/dict"


def test_a_lost_answer_shows_unknown_then_one_settled_payment(
    qtbot, run, tab_and_workspace
) -> None:
    tab, workspace = tab_and_workspace
    http = workspace.session.accounts.transport.http
    amount = Decimal("41.17")
    before = run(workspace.statement.balance()).available
    rule = {"path": PIX_DICT, "drop_after_commit": 1, "times": 1}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        _review_key(qtbot, tab, "lost.answer@empresa.com.br", "41,17")
        entry = _confirm_and_send(qtbot, tab, amount)
    finally:
        run(http.delete("/sandbox/faults"))
    # The answer was lost; the engine asked the bank by key right away and found it.
    notes = [item.note for item in run(workspace.ledger.journal.history(entry.id))]
    assert notes[notes.index("no answer") + 1] == CHECKING_NOTE
    assert "found by idempotency key" in notes
    assert not any(note.startswith("resending") for note in notes)
    resolved = run(workspace.ledger.journal.get(entry.id))
    assert entry.state == resolved.state == EntryState.ACCEPTED and resolved.end_to_end_id
    model = tab.payments_list.model
    qt_wait_until(
        qtbot, lambda: model.row_of(entry.id) is not None, "model.row_of(entry.id) is not None"
    )
    assert "Not confirmed" not in model.status_text(model.entry(model.row_of(entry.id)))
    run(http.post("/sandbox/clock", json={"advance": 3.5}))
    run(workspace.tracker.poll_once())
    qt_wait_until(
        qtbot,
        lambda: model.status_text(model.entry(model.row_of(entry.id))) == "Settled",
        'model.status_text(model.entry(model.row_of(entry.id))) == "Settled"',
    )
    found = run(
        workspace.session.accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
    )
    assert found.end_to_end_id == resolved.end_to_end_id
    assert run(workspace.statement.balance()).available == before - amount  # paid once
