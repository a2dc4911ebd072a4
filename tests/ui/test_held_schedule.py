"""The late-hold prompt: a scheduled Pix whose day passed while the app was closed is held at
the next start, and the Pix tab says so like a held resend ("Was due on 19/11/2026 — ..."),
with "Send now", "Move to…" and "Cancel…" (its own sandbox: the clock moves by days)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from tests.ui.conftest import workspace_on
from tests.waiting import qt_wait_until
from treasury_app.domain.clock import BRASILIA, brasilia_today
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.tabs.payouts_tab import PayoutsTab
from treasury_app.ui.widgets.date_edits import to_qdate


def test_a_payment_late_at_start_is_held_and_a_person_moves_or_sends_it(
    qtbot: Any, run: Callable[..., Any], own_bank: tuple[Any, Any, Any]
) -> None:
    workspace = workspace_on(run, *own_bank)
    try:
        today = brasilia_today(workspace.clock)  # Wednesday 18/11/2026
        assert today == dt.date(2026, 11, 18)
        day = dt.date(2026, 11, 19)
        entries = []
        for amount in ("1250.00", "80.00"):
            review = run(workspace.payouts.prepare_key("fornecedor@empresa.com.br", amount))
            entries.append(
                run(workspace.payouts.send(workspace.schedule.schedule_payout(review, day)))
            )
        # Closed over the 19th: the next start is on Monday the 23rd (the 20th is a holiday).
        run(workspace.sandbox.set_clock(dt.datetime(2026, 11, 23, 9, 0, tzinfo=BRASILIA)))
        tab = PayoutsTab(workspace)
        qtbot.addWidget(tab)
        tab.resize(1000, 800)
        tab.show()
        qtbot.waitExposed(tab)
        banner = tab.held_schedule
        qt_wait_until(
            qtbot, lambda: banner.load_task is not None and banner.load_task.done(), "load"
        )
        assert banner.isVisibleTo(tab)
        assert banner.title.text().startswith("2 scheduled payment(s) wait for your decision")
        first, second = entries
        text = banner.findChild(type(banner.title), f"held-schedule-{first.id}").text()
        assert text.startswith("Was due on 19/11/2026 — R$ 1.250,00 to fornecedor@empresa.com.br")
        assert "Was due on 19/11/2026 and was not sent" in text  # the hold's date, worded
        assert run(workspace.ledger.journal.get(first.id)).state == EntryState.PREPARED

        qtbot.mouseClick(banner.buttons[(first.id, "move")], Qt.MouseButton.LeftButton)
        qt_wait_until(qtbot, lambda: banner.move_dialog is not None, "the move dialog")
        assert banner.move_dialog is not None
        banner.move_dialog.date.setDate(to_qdate(dt.date(2026, 11, 25)))
        banner.move_dialog.done(QDialog.DialogCode.Accepted)
        qt_wait_until(qtbot, lambda: banner.task is not None and banner.task.done(), "decided")
        moved = run(workspace.ledger.journal.get(first.id))
        assert moved.pay_date == dt.date(2026, 11, 25) and moved.state == EntryState.PREPARED
        assert [h.entry.id for h in banner.held] == [second.id]

        send = banner.buttons[(second.id, "send")]
        qt_wait_until(qtbot, send.isVisible, "the rebuilt row")
        moving = banner.task
        qtbot.mouseClick(send, Qt.MouseButton.LeftButton)
        assert banner.task is not moving
        qt_wait_until(qtbot, lambda: banner.task is not None and banner.task.done(), "decided")
        sent = run(workspace.ledger.journal.get(second.id))
        assert sent.state == EntryState.ACCEPTED and sent.amount == Decimal("80.00")
        assert banner.held == [] and not banner.isVisibleTo(tab)
        tab.shutdown()
    finally:
        run(workspace.close())
