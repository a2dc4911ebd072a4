"""The line under a payment form about the payment just sent: how it stands (sent, paid,
refused), every status it went through, how much and to whom, following the entry as it
changes."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from treasury_app.api.accounts.models import is_success_status
from treasury_app.domain.clock import format_date
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.ui.models.paid_slips_model import entry_status
from treasury_app.ui.refusals import is_refused, refusal_words
from treasury_app.ui.status_words import status_word

__all__ = ["PaymentStatusLabel"]


class PaymentStatusLabel(QLabel):
    """Follows :attr:`entry`, the payment last sent (:meth:`follow`, then
    :meth:`entry_changed` with every change of any entry); ``show_error`` adds why a refused
    payment was refused, in words."""

    def __init__(self, parent: QWidget, name: str, *, show_error: bool) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.setWordWrap(True)
        self.entry: Entry | None = None
        self._statuses: list[str] = []
        self._show_error = show_error

    def sending(self, text: str) -> None:
        """A new payment is on its way (``text`` says so): its statuses start afresh."""
        self.setText(text)
        self._statuses = []

    def follow(self, entry: Entry) -> None:
        self.entry = entry
        if entry.pay_date is not None and entry.state == EntryState.PREPARED:
            # Journaled for its day: nothing was sent yet.
            self.setText(
                self.tr("Scheduled for %1: %2 to %3")
                .replace("%1", format_date(entry.pay_date))
                .replace("%2", format_brl(entry.amount))
                .replace("%3", entry.payee_name or entry.payee_detail)
            )
            return
        status = entry_status(entry)
        if not self._statuses or self._statuses[-1] != status:
            self._statuses.append(status)
        refused = is_refused(entry)
        if refused:
            prefix = self.tr("Refused")
        elif entry.bank_status and is_success_status(entry.bank_status):
            prefix = self.tr("Paid")
        else:
            prefix = self.tr("Sent")
        text = self.tr("%1: %2 (%3 to %4)")
        for mark, value in (
            ("%1", prefix),
            ("%2", " → ".join(status_word(s) for s in self._statuses)),
            ("%3", format_brl(entry.amount)),
            ("%4", entry.payee_name or entry.payee_detail),
        ):
            text = text.replace(mark, value)
        if self._show_error and refused:
            text += " — " + refusal_words(entry)  # the bank's reason, never its raw message
        self.setText(text)

    def entry_changed(self, entry: Entry) -> None:
        """Any entry changed: the line follows it if it is the payment last sent."""
        if self.entry is not None and entry.id == self.entry.id:
            self.follow(entry)
