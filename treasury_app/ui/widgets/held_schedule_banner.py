"""The banner of a tab with scheduled payments held for a person, like the held resends'
(:mod:`treasury_app.ui.widgets.unconfirmed_banner`): a payment whose day passed while nothing
was open to send it ("Was due on 05/12 — R$ 1.250,00 to Gráfica Ribeirão"), or one a check on
its day stopped (a slip's amount changed, the day's balance short...). Nothing goes out late by
itself: each row offers "Send now…", "Move to…" and "Cancel…"; the engine
(:class:`~treasury_app.services.schedule.ScheduleService`) does the rest and audits it."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Collection
from typing import Any

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QGridLayout,
    QInputDialog,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_date
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryKind
from treasury_app.services.schedule import HeldPayment
from treasury_app.ui.async_tools import ask, dispose, spawn_for, spawn_unless_busy
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.widgets.date_edits import to_qdate
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["HeldScheduleBanner"]


class HeldScheduleBanner(QFrame):
    """Hidden while no scheduled payment of ``kinds`` is held. Tests await :attr:`load_task`
    and :attr:`task` and answer :attr:`move_dialog` / :attr:`reason_dialog`."""

    decided = Signal(object)  # the entry a person's decision moved

    def __init__(
        self, workspace: Any, kinds: Collection[EntryKind], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.kinds = frozenset(kinds)
        self.held: list[HeldPayment] = []
        self.task: asyncio.Task[Any] | None = None
        self.load_task: asyncio.Task[bool] | None = None
        self.move_dialog: QDialog | None = None
        self.reason_dialog: QInputDialog | None = None
        self.buttons: dict[tuple[int, str], QPushButton] = {}
        self._closed = False
        self.setObjectName("held-schedule-banner")
        self.setStyleSheet(
            f"#held-schedule-banner {{ {banner_style('warning', self, border=2)} }}"
            f" #held-schedule-banner QLabel {{ {text_style('warning', self)} }}"
        )
        layout = QVBoxLayout(self)
        self.title = QLabel(self)
        self.title.setObjectName("held-schedule-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.rows = QGridLayout()
        layout.addLayout(self.rows)
        self.errors = ErrorBanner(self)
        layout.addWidget(self.errors)
        self.hide()
        self.refresh()

    # -- what is shown -------------------------------------------------------------------------

    def refresh(self) -> asyncio.Task[bool] | None:
        if self._closed or not shiboken6.isValid(self):
            return None
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()
        self.load_task = spawn_for(self, self.load(), name="held-schedule-load")
        return self.load_task

    async def load(self) -> bool:
        held = await self.workspace.schedule.held_now()
        if self._closed:
            return False
        self.held = [h for h in held if h.entry.kind in self.kinds]
        self._show()
        return True

    def row_text(self, item: HeldPayment) -> str:
        entry = item.entry
        due = format_date(entry.pay_date) if entry.pay_date else ""
        return (
            self.tr("Was due on %1 — %2 to %3")
            .replace("%1", due)
            .replace("%2", format_brl(entry.amount))
            .replace("%3", entry.creditor_name or entry.payee_name or entry.payee_detail)
        )

    def _show(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        if not self.held:
            self.hide()
            return
        self.title.setText(
            self.tr(
                "%1 scheduled payment(s) wait for your decision: none leaves by itself."
            ).replace("%1", str(len(self.held)))
        )
        busy = self.task is not None and not self.task.done()
        for row, item in enumerate(self.held):
            entry = item.entry
            label = QLabel(self.row_text(item) + "\n" + rule_text(item.hold.reason), self)
            label.setObjectName(f"held-schedule-{entry.id}")
            label.setWordWrap(True)
            self.rows.addWidget(label, row, 0)
            actions = (
                ("send", self.tr("Send now"), self.send_now),
                ("move", self.tr("Move to…"), self.ask_move),
                ("cancel", self.tr("Cancel…"), self.ask_cancel),
            )
            for column, (name, text, act) in enumerate(actions, 1):
                button = QPushButton(text, self)
                button.setObjectName(f"held-schedule-{name}-{entry.id}")
                button.setAutoDefault(False)
                button.setEnabled(not busy)
                button.clicked.connect(lambda _c=False, a=act, e=entry: self._start(a(e)))
                self.rows.addWidget(button, row, column)
                self.buttons[(entry.id, name)] = button
        self.rows.setColumnStretch(0, 1)
        self.show()

    # -- decisions -------------------------------------------------------------------------------

    def _start(self, work: Any) -> None:
        task = spawn_unless_busy(self.task, work, name="held-schedule", owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(lambda _t: self._enable())

    def _enable(self) -> None:
        """A decision ended: the rows (rebuilt while it ran, disabled) may be decided again."""
        if self._closed or not shiboken6.isValid(self):
            return
        for button in self.buttons.values():
            if shiboken6.isValid(button):
                button.setEnabled(True)

    async def send_now(self, entry: Entry) -> Entry | None:
        """Sent today with its own key (a team database still asks for valid approvals)."""
        return await self._decide(entry, self.workspace.schedule.send_now(entry.id))

    async def ask_move(self, entry: Entry) -> Entry | None:
        from treasury_app.ui.tabs.calendar_tab import MoveDialog

        payee = entry.creditor_name or entry.payee_name or entry.payee_detail
        dialog = MoveDialog(payee, entry.pay_date or self.workspace.schedule.today(), self)
        dialog.setObjectName("held-schedule-move")
        dialog.date.setDate(to_qdate(self.workspace.schedule.today()))
        self.move_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            new_date: dt.date = dialog.chosen()
        finally:
            self.move_dialog = None
            dispose(dialog)
        return await self._decide(entry, self.workspace.schedule.move(entry.id, new_date))

    async def ask_cancel(self, entry: Entry) -> Entry | None:
        dialog = QInputDialog(self)
        dialog.setObjectName("held-schedule-cancel-reason")
        dialog.setWindowTitle(self.tr("Cancel the payment"))
        dialog.setLabelText(
            self.tr("Why is the payment to %1 of %2 cancelled? (kept in the audit)")
            .replace("%1", entry.creditor_name or entry.payee_name or entry.payee_detail)
            .replace("%2", format_brl(entry.amount))
        )
        self.reason_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            reason = " ".join(dialog.textValue().split())
        finally:
            self.reason_dialog = None
            dispose(dialog)
        if not reason:
            self.errors.show_message(self.tr("Cancel the payment"), self.tr("Say why."))
            return None
        return await self._decide(entry, self.workspace.schedule.cancel(entry.id, reason))

    async def _decide(self, entry: Entry, work: Any) -> Entry | None:
        self.errors.clear()
        controls = [
            button
            for (entry_id, _name), button in self.buttons.items()
            if entry_id == entry.id and shiboken6.isValid(button)
        ]
        result: Entry | None = await run_operation(
            work, controls=controls, banner=self.errors, changes_ledger=True
        )
        if result is not None:
            self.decided.emit(result)
            self.workspace.tracker.sent()
        task = self.refresh()
        if task is not None:
            await asyncio.wait({task})
        return result

    def shutdown(self) -> None:
        self._closed = True
        for task in (self.load_task, self.task):
            if task is not None and not task.done():
                task.cancel()
        for dialog in (self.move_dialog, self.reason_dialog):
            if dialog is not None:
                dialog.reject()
