"""The red banner of a tab with payments the bank has not confirmed.

While a payment's outcome is unknown it says so ("checking with the bank…"); the engine keeps
looking it up by its idempotency key by itself (a lookup never pays twice). A payment older
than the resend window that the bank says it does not have is *held*: it is not sent again by
itself (the bank may have forgotten the key, or someone may have paid it another way
meanwhile), and the banner offers "Send now…" and "Cancel payment…", each after a review with
the payee, the amount and when it was first sent. The banner stays until every payment of the
tab is resolved.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, spawn_for, spawn_unless_busy
from treasury_app.ui.live_reload import JournalFeed
from treasury_app.ui.operation import run_operation
from treasury_app.ui.status_words import status_word
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.times import format_instant
from treasury_app.ui.widgets.error_banner import ErrorBanner

PIX_KINDS = frozenset({EntryKind.PIX_KEY, EntryKind.PIX_QRC, EntryKind.PIX_MANU})
BILLET_KINDS = frozenset({EntryKind.BILLET})


def since_text(entry: Entry) -> str:
    """When the payment was journaled, ``dd/mm/yyyy hh:mm`` in Brasília."""
    return format_instant(entry.created_at)


class UnconfirmedBanner(QFrame):
    """Hidden while every payment of ``kinds`` is resolved. Tests await :attr:`task` (a
    decision) and :attr:`load_task` (what is unresolved, read again) and answer
    :attr:`confirm_box`."""

    entry_changed = Signal(object)  # the tracker's notifications, on the GUI thread
    resolved = Signal(object)  # an entry a person's decision moved (its new state)

    def __init__(
        self, workspace: Workspace, kinds: Collection[EntryKind], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.kinds = frozenset(kinds)
        self.entries: list[Entry] = []
        self.held: list[Entry] = []
        self.task: asyncio.Task[Any] | None = None
        self.load_task: asyncio.Task[bool] | None = None
        self._generation = 0
        self._closed = False
        self.confirm_box: QMessageBox | None = None
        self.buttons: dict[tuple[int, str], QPushButton] = {}
        self.setObjectName("unconfirmed-banner")
        self.setStyleSheet(
            f"#unconfirmed-banner {{ {banner_style('error', self, border=2)} }}"
            f" #unconfirmed-banner QLabel {{ {text_style('error', self)} }}"
        )
        layout = QVBoxLayout(self)
        self.title = QLabel(self)
        self.title.setObjectName("unconfirmed-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.rows = QGridLayout()
        layout.addLayout(self.rows)
        self.note = QLabel(self)
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        self.status = QLabel(self)
        self.status.setObjectName("unconfirmed-status")
        self.status.setWordWrap(True)
        self.dismiss_button = QPushButton(self.tr("Dismiss"), self)
        self.dismiss_button.setObjectName("unconfirmed-dismiss")
        self.dismiss_button.setAutoDefault(False)
        self.dismiss_button.clicked.connect(self.dismiss)
        status_row = QHBoxLayout()
        status_row.addWidget(self.status, 1)
        status_row.addWidget(self.dismiss_button)
        layout.addLayout(status_row)
        self.errors = ErrorBanner(self)
        layout.addWidget(self.errors)
        self.entry_changed.connect(lambda _entry: self.refresh())
        self._feed = JournalFeed(workspace.tracker, self.entry_changed.emit, self.refresh)
        self.hide()  # until the journal says there is something to show
        self.refresh()

    # -- what is shown -----------------------------------------------------------------------

    def refresh(self) -> asyncio.Task[bool] | None:
        """Read what is unresolved again, in the background (:attr:`load_task`); the banner
        shows what it had until the answer arrives. A read on its way is overtaken."""
        if self._closed or not shiboken6.isValid(self):
            return None
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()
        self.load_task = spawn_for(self, self.load(), name="unconfirmed-load")
        return self.load_task

    async def load(self) -> bool:
        """The unresolved payments of this tab and which of them are held, then shown;
        ``False`` when the answer came too late (a newer read, the banner closed)."""
        self._generation += 1
        generation = self._generation
        engine = self.workspace.engine
        unresolved = await self.workspace.ledger.journal.unresolved()
        entries = [
            e
            for e in unresolved
            if e.kind in self.kinds and not e.waiting_approval and not _waits_for_its_day(e)
        ]
        held = [e for e in entries if await engine.is_held(e)]
        if self._closed or generation != self._generation:
            return False
        self.entries, self.held = entries, held
        self._show()
        return True

    async def loaded(self) -> None:
        """Wait until the latest read (if any) has been shown or dropped."""
        while self.load_task is not None and not self.load_task.done():
            task = self.load_task
            await asyncio.wait({task})
            if task is self.load_task:
                return

    def _show(self) -> None:
        while self.rows.count():
            item = self.rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        self.buttons = {}
        if not self.entries:
            # Nothing left to decide: only the outcome of the last decision stays, until
            # dismissed.
            self.title.clear()
            self.note.hide()
            self.setVisible(bool(self.status.text()))
            return
        checking = len(self.entries) - len(self.held)
        parts = []
        if self.held:
            parts.append(
                self.tr("%1 payment(s) not confirmed by the bank wait for your decision.").replace(
                    "%1", str(len(self.held))
                )
            )
        if checking:
            parts.append(
                self.tr(
                    "%1 payment(s) not confirmed by the bank yet: checking with the bank…"
                ).replace("%1", str(checking))
            )
        self.title.setText(" ".join(parts))
        busy = self.task is not None and not self.task.done()
        for row, entry in enumerate(self.entries):
            held = entry in self.held
            text = (
                self.tr("Not confirmed by the bank since %1 — %2 to %3")
                if held
                else self.tr("Checking with the bank since %1 — %2 to %3")
            )
            label = QLabel(
                text.replace("%1", since_text(entry))
                .replace("%2", format_brl(entry.amount))
                .replace("%3", entry.payee_name or entry.payee_detail),
                self,
            )
            label.setObjectName(f"unconfirmed-{entry.id}")
            label.setWordWrap(True)
            label.setToolTip(entry.error or "")
            self.rows.addWidget(label, row, 0)
            if held:
                send = QPushButton(self.tr("Send now…"), self)
                send.setObjectName(f"unconfirmed-send-{entry.id}")
                send.clicked.connect(lambda _c=False, e=entry: self._start(self.send_now(e)))
                cancel = QPushButton(self.tr("Cancel payment…"), self)
                cancel.setObjectName(f"unconfirmed-cancel-{entry.id}")
                cancel.clicked.connect(lambda _c=False, e=entry: self._start(self.cancel(e)))
                for column, button in ((1, send), (2, cancel)):
                    button.setAutoDefault(False)
                    button.setEnabled(not busy)
                    self.rows.addWidget(button, row, column)
                self.buttons[(entry.id, "send")] = send
                self.buttons[(entry.id, "cancel")] = cancel
        self.rows.setColumnStretch(0, 1)
        self.note.setText(
            self.tr(
                "A payment held here is not sent again by itself: the bank may have forgotten "
                "it after some time, and someone may have paid it another way meanwhile. Check "
                "the bank's statement, then send it now or cancel it."
            )
            if self.held
            else ""
        )
        self.note.setVisible(bool(self.held))
        self.dismiss_button.setVisible(bool(self.status.text()))
        self.show()

    def dismiss(self) -> None:
        """Forget the outcome of the last decision (what is still unresolved stays)."""
        self.status.clear()
        self.refresh()

    # -- decisions -----------------------------------------------------------------------------

    def _start(self, work: Any) -> None:
        self.task = (
            spawn_unless_busy(self.task, work, name="unconfirmed-decision", owner=self) or self.task
        )

    async def _confirm(self, entry: Entry, title: str, text: str, action: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, title, text, parent=self)
        box.setInformativeText(
            self.tr("Payee: %1\nAmount: %2\nFirst sent: %3 (Brasília)")
            .replace("%1", entry.payee_name or entry.payee_detail)
            .replace("%2", format_brl(entry.amount))
            .replace("%3", since_text(entry))
        )
        go = box.addButton(action, QMessageBox.ButtonRole.AcceptRole)
        keep = box.addButton(self.tr("Not now"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(keep)  # the safe choice
        box.setEscapeButton(keep)
        self.confirm_box = box
        try:
            await ask(box)
        finally:
            self.confirm_box = None
        return box.clickedButton() is go

    async def send_now(self, entry: Entry) -> Entry | None:
        """Review, then ask the bank once more and send the payment with its own key."""
        if not await self._confirm(
            entry,
            self.tr("Send the payment now"),
            self.tr(
                "The bank has no record of this payment. Send it now, with the same "
                "identification (the bank refuses it if it has it after all)?"
            ),
            self.tr("Send %1 now").replace("%1", format_brl(entry.amount)),
        ):
            return None
        return await self._decide(entry, self.workspace.engine.send_held(entry))

    async def cancel(self, entry: Entry) -> Entry | None:
        """Review, then cancel once the bank confirms it does not have the payment."""
        if not await self._confirm(
            entry,
            self.tr("Cancel the payment"),
            self.tr(
                "Cancel this payment? It will never be sent. The bank is asked first: if it has "
                "the payment after all, it is followed as paid instead."
            ),
            self.tr("Cancel the payment"),
        ):
            return None
        return await self._decide(entry, self._cancel_held(entry))

    async def _cancel_held(self, entry: Entry) -> Entry:
        # A HeldPaymentError is a rule's code: the banner puts it in the UI's language.
        return await self.workspace.engine.cancel_held(entry)

    async def _decide(self, entry: Entry, work: Any) -> Entry | None:
        self.errors.clear()
        self.status.clear()
        controls = [
            button
            for (entry_id, _kind), button in self.buttons.items()
            if entry_id == entry.id and shiboken6.isValid(button)
        ]
        result: Entry | None = await run_operation(
            work, controls=controls, banner=self.errors, changes_ledger=True
        )
        if result is None:
            return result
        self.status.setText(self.final_text(result))
        self.resolved.emit(result)
        self.workspace.tracker.sent()
        self.refresh()
        await self.loaded()  # the decided payment leaves the list before the task ends
        self.dismiss_button.setVisible(True)
        return result

    def final_text(self, entry: Entry) -> str:
        amount = format_brl(entry.amount)
        payee = entry.payee_name or entry.payee_detail
        if entry.state == EntryState.ACCEPTED:
            return (
                self.tr("%1 to %2: accepted by the bank (%3).")
                .replace("%1", amount)
                .replace("%2", payee)
                .replace("%3", status_word(entry.bank_status))
            )
        if entry.state == EntryState.REJECTED:
            return (
                self.tr("%1 to %2: cancelled, it will not be sent.")
                .replace("%1", amount)
                .replace("%2", payee)
                if entry.error and entry.error.startswith("Cancelled")
                else self.tr("%1 to %2: refused by the bank.")
                .replace("%1", amount)
                .replace("%2", payee)
            )
        return (
            self.tr("%1 to %2: still not confirmed by the bank.")
            .replace("%1", amount)
            .replace("%2", payee)
        )

    def shutdown(self) -> None:
        self._closed = True
        self._feed.close()
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()
        if self.confirm_box is not None:
            self.confirm_box.reject()
        if self.task is not None and not self.task.done():
            self.task.cancel()


def _waits_for_its_day(entry: Entry) -> bool:
    """A scheduled payment journaled for its day (never sent): nothing to confirm with the
    bank; the held-schedule banner and the calendar speak of it."""
    return entry.state == EntryState.PREPARED and entry.pay_date is not None
