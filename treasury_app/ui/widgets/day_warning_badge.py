"""The status bar's warning about a day whose scheduled payments the balance does not cover
(issue 35): shown from the business day before (``ScheduleService.day_warnings``), short in
the bar ("⚠ Short on 09/12"), the whole sentence of each day in the tooltip. Read again after
every change of the ledger, right after the sandbox's clock moved (another day is "tomorrow")
and every few minutes (the balance moves with the statement)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QLabel, QWidget

from treasury_app.domain.clock import format_day_month
from treasury_app.services.schedule import DayWarning
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.operation import events
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style

__all__ = ["DayWarningBadge"]

log = logging.getLogger("treasury_app.ui.widgets.day_warning_badge")

REFRESH_MS = 5 * 60 * 1000


class DayWarningBadge(QLabel):
    """Hidden while no day is short. Tests await :meth:`refresh` (or :attr:`task`)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.setObjectName("day-warning-badge")
        self.setStyleSheet(f"{text_style('error', self)} font-weight: bold;")
        self.hide()
        self.warnings: list[DayWarning] = []
        self.task: asyncio.Task[Any] | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.start_refresh)
        self.timer.start()
        events.ledger_changed.connect(self.start_refresh)  # let go when the label goes
        stop_following = workspace.follow_clock(self.start_refresh)
        self.destroyed.connect(lambda *_args: stop_following())

    def start_refresh(self) -> None:
        """Read the warnings again in the background (one read at a time)."""
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.refresh(), name="day-warnings")

    async def refresh(self) -> list[DayWarning]:
        """Read today's and the next business day's warnings and show them; a bank away
        leaves the badge as it was (the statement says what failed)."""
        try:
            warnings = await self.workspace.schedule.day_warnings()
        except Exception as error:  # a convenience: never an error of its own
            log.info("day warnings not read: %s", type(error).__name__)
            return self.warnings
        self.show_warnings(warnings)
        return warnings

    def show_warnings(self, warnings: list[DayWarning]) -> None:
        self.warnings = warnings
        if not warnings:
            self.clear()
            self.setToolTip("")
            self.hide()
            return
        first = format_day_month(warnings[0].day)
        text = self.tr("⚠ Short on %1").replace("%1", first)
        if len(warnings) > 1:
            text += f" +{len(warnings) - 1}"
        self.setText(text)
        self.setToolTip(
            "\n".join(
                rule_text(warning.reason)
                + " "
                + self.tr("Held on the day unless money comes in: move or cancel some.")
                for warning in warnings
            )
        )
        self.show()
