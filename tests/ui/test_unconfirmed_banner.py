"""The Pix tab with a payment the bank has not confirmed, end to end against the sandbox:
a red banner while the outcome is unknown; a payment older than the resend window is held
("Not confirmed by the bank since 14:02 — Send now / Cancel payment"), never re-sent by itself;
"Send now" and "Cancel payment" each go through a review with payee and amount and end in a
visible final status."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from PySide6.QtCore import Qt

from tests.ui.test_payouts_tab import (
    _confirm_and_send,
    _review_key,
    tab_and_workspace,  # noqa: F401 - the Pix tab fixture
)
from tests.waiting import qt_wait_until
from treasury_app.domain.clock import system_clock
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.widgets.unconfirmed_banner import since_text

PIX_DICT = "/api/v2/pix/payments/dict"
NEVER = {"path": PIX_DICT, "method": "POST", "rate_503": 1, "retry_after": 0, "times": 4}


def _never_arrived(qtbot, run, tab, workspace, key: str, amount: str):
    """A Pix whose every attempt met a 503: unknown here, unknown to the bank."""
    http = workspace.session.accounts.transport.http
    workspace.engine.follow_up = ()  # leave it unknown (no follow-up lookups)
    assert run(http.post("/sandbox/faults", json=NEVER)).status_code in (200, 201)
    try:
        _review_key(qtbot, tab, key, amount)
        entry = _confirm_and_send(qtbot, tab, Decimal(amount.replace(",", ".")))
    finally:
        run(http.delete("/sandbox/faults"))
    assert entry.state == EntryState.UNKNOWN
    return entry


def _hold(run, workspace, entry):
    """The next day: the tracker's round finds the bank without it and holds it."""
    workspace.engine.clock = lambda: system_clock() + dt.timedelta(days=1)
    run(workspace.tracker.poll_once())
    assert run(workspace.engine.is_held(run(workspace.ledger.journal.get(entry.id))))


def _answer(qtbot, banner, accept: bool) -> None:
    qt_wait_until(
        qtbot,
        lambda: banner.confirm_box is not None and banner.confirm_box.isVisible(),
        "banner.confirm_box shown",
    )
    box = banner.confirm_box
    assert box.defaultButton().text() == "Not now"  # the safe default
    wanted = next(b for b in box.buttons() if (b is box.defaultButton()) != accept)
    qtbot.mouseClick(wanted, Qt.MouseButton.LeftButton)


def test_unknown_then_held_then_sent_now_once(qtbot, run, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    banner = tab.unconfirmed
    before = run(workspace.statement.balance()).available
    entry = _never_arrived(qtbot, run, tab, workspace, "held.send@empresa.com.br", "77,00")
    qt_wait_until(
        qtbot,
        lambda: banner.isVisible() and entry.id in {e.id for e in banner.entries},
        "banner.isVisible() and entry.id in {e.id for e in banner.entries}",
    )
    assert "checking with the bank" in banner.title.text()
    assert (entry.id, "send") not in banner.buttons  # recent: the engine decides alone

    _hold(run, workspace, entry)
    qt_wait_until(
        qtbot, lambda: (entry.id, "send") in banner.buttons, '(entry.id, "send") in banner.buttons'
    )
    line = banner.findChild(type(banner.title), f"unconfirmed-{entry.id}").text()
    assert line == (
        f"Not confirmed by the bank since {since_text(entry)} — R$ 77,00 to "
        "held.send@empresa.com.br"
    )
    assert "wait for your decision" in banner.title.text()
    model = tab.payments_list.model
    qt_wait_until(
        qtbot, lambda: model.row_of(entry.id) is not None, "model.row_of(entry.id) is not None"
    )
    held = "Not confirmed by the bank — waiting for you"  # read with the row, in the background
    qt_wait_until(
        qtbot,
        lambda: model.status_text(model.entry(model.row_of(entry.id))) == held,
        "model.status_text(model.entry(model.row_of(entry.id))) == held",
    )
    run(workspace.tracker.poll_once())  # more rounds: still held, nothing sent
    assert run(workspace.statement.balance()).available == before

    send = banner.buttons[(entry.id, "send")]
    qtbot.mouseClick(send, Qt.MouseButton.LeftButton)
    _answer(qtbot, banner, accept=False)  # "Not now": nothing happens
    qt_wait_until(qtbot, banner.task.done, "banner.task done")
    assert banner.task.result() is None
    assert run(workspace.ledger.journal.get(entry.id)).state == EntryState.UNKNOWN

    qtbot.mouseClick(banner.buttons[(entry.id, "send")], Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, lambda: banner.confirm_box is not None, "banner.confirm_box is not None")
    info = banner.confirm_box.informativeText()
    assert "held.send@empresa.com.br" in info and format_brl(Decimal("77.00")) in info
    _answer(qtbot, banner, accept=True)
    qt_wait_until(qtbot, banner.task.done, "banner.task done")
    sent = banner.task.result()
    assert sent.state == EntryState.ACCEPTED
    assert banner.status.text().startswith("R$ 77,00 to held.send@empresa.com.br: accepted")
    assert banner.isVisible() and entry.id not in {e.id for e in banner.entries}
    assert run(workspace.statement.balance()).available == before - Decimal("77.00")
    qtbot.mouseClick(banner.dismiss_button, Qt.MouseButton.LeftButton)
    assert not banner.status.text()


def test_a_held_payment_cancelled_is_never_sent(qtbot, run, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    banner = tab.unconfirmed
    before = run(workspace.statement.balance()).available
    entry = _never_arrived(qtbot, run, tab, workspace, "held.cancel@empresa.com.br", "78,00")
    _hold(run, workspace, entry)
    qt_wait_until(
        qtbot,
        lambda: (entry.id, "cancel") in banner.buttons,
        '(entry.id, "cancel") in banner.buttons',
    )
    qtbot.mouseClick(banner.buttons[(entry.id, "cancel")], Qt.MouseButton.LeftButton)
    _answer(qtbot, banner, accept=True)
    qt_wait_until(qtbot, banner.task.done, "banner.task done")
    cancelled = banner.task.result()
    assert cancelled.state == EntryState.REJECTED and cancelled.final
    assert "cancelled, it will not be sent" in banner.status.text()
    run(workspace.tracker.poll_once())
    assert run(workspace.statement.balance()).available == before
    model = tab.payments_list.model
    qt_wait_until(
        qtbot, lambda: model.row_of(entry.id) is not None, "model.row_of(entry.id) is not None"
    )
    assert model.status_text(model.entry(model.row_of(entry.id))) == "Rejected"


def test_the_banner_goes_once_the_bank_confirms(qtbot, run, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    banner = tab.unconfirmed
    entry = _never_arrived(qtbot, run, tab, workspace, "late.ok@empresa.com.br", "79,00")
    qt_wait_until(
        qtbot,
        lambda: entry.id in {e.id for e in banner.entries},
        "entry.id in {e.id for e in banner.entries}",
    )
    run(workspace.tracker.poll_once())  # recent: looked up, not found, sent with its key
    assert run(workspace.ledger.journal.get(entry.id)).state == EntryState.ACCEPTED
    qt_wait_until(
        qtbot,
        lambda: entry.id not in {e.id for e in banner.entries},
        "entry.id not in {e.id for e in banner.entries}",
    )
