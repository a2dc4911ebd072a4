"""The status bar's "Short on …" follows a move of the sandbox's clock at once (issue 35): a
day over the balance two business days ahead is not warned yet; the clock moved a day (by the
sandbox's own control, as the calendar's buttons and the console do), it is tomorrow, and the
badge says so without a change of the ledger nor its five-minute timer. A sandbox of its own
(Wednesday 18/11/2026 10:00; Friday 20/11 a holiday)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from tests.ui.test_day_warning import _schedule_over
from tests.waiting import qt_wait_until
from treasury_app.domain.clock import brasilia_today
from treasury_app.services.calendar import SandboxClockControl
from treasury_app.ui.widgets.day_warning_badge import DayWarningBadge


@pytest.fixture
def workspace(own_workspace: Any) -> Any:
    return own_workspace


def test_the_day_warning_follows_a_move_of_the_sandbox_clock(
    workspace: Any, qtbot: Any, run: Any, settle: Any
) -> None:
    assert brasilia_today(workspace.clock) == dt.date(2026, 11, 18)
    monday = dt.date(2026, 11, 23)  # after Thursday 19/11 and the holiday on Friday 20/11
    balance = Decimal(run(workspace.statement.balance()).available)
    _schedule_over(run, workspace, monday, balance)
    badge = DayWarningBadge(workspace)
    qtbot.addWidget(badge)
    assert run(badge.refresh()) == [] and badge.isHidden()  # two business days ahead: not yet

    badge.timer.stop()  # (nor its five minutes: the clock's move alone)
    control = SandboxClockControl(workspace.sandbox, workspace.clock, workspace.sync_clock)
    run(control.advance(dt.timedelta(days=1)))  # Thursday 19/11: Monday is the next one
    assert brasilia_today(workspace.clock) == dt.date(2026, 11, 19)
    qt_wait_until(qtbot, lambda: not badge.isHidden(), "the badge shown after the clock moved")
    assert badge.text() == "⚠ Short on 23/11"
    assert [w.day for w in badge.warnings] == [monday]
