"""The Calendar tab on a real sandbox bank: it opens with the bank's balance and its clock,
and its sandbox buttons move the bank's clock — the app's dates follow, and the calendar
starts on the new day. (Its own sandbox: the clock moves by days.)"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt

from treasury_app.domain.clock import brasilia_today
from treasury_app.ui.tabs.calendar_tab import CalendarTab


@pytest.fixture
def workspace(own_workspace: Any) -> Any:
    return own_workspace


def test_the_sandbox_clock_buttons_move_the_bank_and_the_calendar(
    workspace: Any, qtbot: Any, settle: Callable[..., Any]
) -> None:
    tab = CalendarTab(workspace)
    qtbot.addWidget(tab)
    first = settle(tab.task)
    assert first is not None, tab.banner.detail.text()
    assert first.today == dt.date(2026, 11, 18) == brasilia_today(workspace.clock)
    assert tab.clock_label.text() == "Sandbox clock: 18/11/2026 10:00"
    assert tab.balance_label.text().startswith("Today's balance: R$ ")

    qtbot.mouseClick(tab.clock_buttons[1], Qt.MouseButton.LeftButton)  # +1 day
    assert settle(tab.task) is True, tab.banner.detail.text()
    assert brasilia_today(workspace.clock) == dt.date(2026, 11, 19)  # the app's dates followed
    assert tab.projection is not None and tab.projection.today == dt.date(2026, 11, 19)
    assert tab.clock_label.text().startswith("Sandbox clock: 19/11/2026 10:0")

    qtbot.mouseClick(tab.clock_buttons[2], Qt.MouseButton.LeftButton)  # next business morning
    assert settle(tab.task) is True, tab.banner.detail.text()
    assert tab.clock_label.text() == "Sandbox clock: 23/11/2026 08:00"  # 20/11 a holiday
    assert tab.projection.today == dt.date(2026, 11, 23)
