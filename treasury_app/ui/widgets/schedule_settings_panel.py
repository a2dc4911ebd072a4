"""Settings › Scheduled payments: when they leave (the send time), how much a slip's amount may
move by its day, how often a payment the balance does not cover is tried and until when, and
the company's own non-business dates. Read strictly by ``services.schedule.read_schedule_form``
(its refusals in words, on their field), kept in the profile (audited) and applied at once.

Per profile, also in team mode: the team database's rules (approvals, nothing before its
date) do not depend on these; each releasing desktop sends at its own profile's time."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_date, format_time_of_day
from treasury_app.domain.money import format_brl
from treasury_app.services.profiles import Profile, ScheduleProfile
from treasury_app.services.schedule import read_schedule_form
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.operation import run_operation
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["ScheduleSettingsPanel"]


class ScheduleSettingsPanel(QWidget):
    """Tests await :meth:`save` (or :attr:`task`, the Save button's)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("schedule-settings")
        self.workspace = workspace
        self.task: asyncio.Task[Any] | None = None
        self.banner = ErrorBanner(self)
        box = QGroupBox(self.tr("Scheduled payments"), self)
        form = QFormLayout(box)
        note = QLabel(
            self.tr(
                "Kept in this profile. In a team, each releasing desktop sends at its own "
                "profile's time; the team database still lets nothing leave before its date."
            ),
            box,
        )
        note.setWordWrap(True)
        form.addRow(note)
        self.send_time = self._line(box, "schedule-send-time", self.tr("HH:MM, e.g. 08:00"))
        form.addRow(self.tr("Send at (Brasília)"), self.send_time)
        self.tolerance = self._line(box, "schedule-slip-tolerance", self.tr("e.g. 5,00"))
        form.addRow(self.tr("A slip's amount may change by"), self.tolerance)
        self.retries = self._line(box, "schedule-funds-retries", self.tr("1 to 10"))
        form.addRow(self.tr("Tries when the balance is short"), self.retries)
        self.cutoff = self._line(box, "schedule-funds-cutoff", self.tr("HH:MM, e.g. 17:00"))
        form.addRow(self.tr("Hold for a person after (Brasília)"), self.cutoff)
        self.extra_dates = QPlainTextEdit(box)
        self.extra_dates.setObjectName("schedule-extra-dates")
        self.extra_dates.setPlaceholderText(
            self.tr("dd/mm/yyyy, one per line: the city's holidays, the company's days off")
        )
        self.extra_dates.setMaximumHeight(self.fontMetrics().height() * 6)
        form.addRow(self.tr("Other non-business days"), self.extra_dates)
        self.save_button = QPushButton(self.tr("Save"), box)
        self.save_button.setObjectName("schedule-save")
        self.save_button.clicked.connect(self._save_clicked)
        self.status = QLabel(box)
        self.status.setObjectName("schedule-settings-status")
        self.status.setWordWrap(True)
        row = QHBoxLayout()
        row.addWidget(self.status, 1)
        row.addWidget(self.save_button)
        form.addRow(row)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(box)
        layout.addStretch(1)
        self.show_settings(workspace.session.profile.schedule)

    def _line(self, parent: QWidget, name: str, hint: str) -> QLineEdit:
        edit = QLineEdit(parent)
        edit.setObjectName(name)
        edit.setPlaceholderText(hint)
        edit.setMaxLength(20)
        return edit

    def show_settings(self, settings: ScheduleProfile) -> None:
        self.send_time.setText(format_time_of_day(settings.send_time))
        self.tolerance.setText(format_brl(settings.slip_tolerance).replace("R$", "").strip())
        self.retries.setText(str(settings.funds_retries))
        self.cutoff.setText(format_time_of_day(settings.funds_cutoff))
        self.extra_dates.setPlainText("\n".join(format_date(d) for d in settings.extra_dates))

    def _save_clicked(self) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.save(), name="schedule-settings")

    async def save(self) -> Profile | None:
        """Read the fields, keep them in the profile and apply them (``None``: refused, the
        reason on its field)."""
        self.status.clear()

        async def read_and_save() -> Profile:
            settings = read_schedule_form(
                self.send_time.text(),
                self.tolerance.text(),
                self.retries.text(),
                self.cutoff.text(),
                self.extra_dates.toPlainText(),
            )
            return await self.workspace.save_schedule_settings(settings)

        saved = await run_operation(
            read_and_save(),
            controls=[self.save_button],
            banner=self.banner,
            fields={
                "send_time": self.send_time,
                "slip_tolerance": self.tolerance,
                "funds_retries": self.retries,
                "funds_cutoff": self.cutoff,
                "extra_dates": self.extra_dates,
            },
            changes_ledger=True,
        )
        if saved is not None:
            self.show_settings(saved.schedule)
            self.status.setText(self.tr("Saved: scheduled payments follow these from now on."))
        return saved
