"""The slip payments: every boleto payment of the journal, newest first, with its status
(the bank's, or the local state while unresolved; a refused one says so, and why), due date
and receipt."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from enum import IntEnum

from treasury_app.domain import boleto
from treasury_app.domain.clock import brasilia_date
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ui.models.journal_model import JournalEntriesModel
from treasury_app.ui.refusals import is_refused, refusal_reason_words
from treasury_app.ui.status_words import status_word
from treasury_app.ui.times import date_or_empty, instant_or_empty


def entry_status(entry: Entry) -> str:
    """The bank's status once it has one, else the local state; UNKNOWN while the outcome of
    sending is being resolved."""
    if entry.bank_status:
        return entry.bank_status
    if entry.unresolved:
        return EntryState.UNKNOWN.value
    return entry.state.value


def _due_date(entry: Entry) -> dt.date | None:
    """The due date encoded in the slip's barcode (the journal keeps the barcode), its factor
    read in the cycle of the day the slip was paid (Brasília)."""
    try:
        paid = brasilia_date(dt.datetime.fromisoformat(entry.created_at.replace("Z", "+00:00")))
        return boleto.parse(entry.payee_detail, today=paid).due_date
    except (DomainError, TypeError, ValueError):
        return None


class Column(IntEnum):
    DATE = 0
    BENEFICIARY = 1
    DUE_DATE = 2
    PAY_DATE = 3  # a scheduled payment's day (issue 35); empty for one paid at once
    AMOUNT = 4
    STATUS = 5
    RECEIPT = 6


class PaidSlipsModel(JournalEntriesModel):
    """The BILLET journal entries, newest first; :meth:`upsert` applies one entry's change."""

    kinds = (EntryKind.BILLET,)
    limit = 500
    right_aligned = (Column.AMOUNT,)
    status_column = Column.STATUS

    def headers(self) -> dict[Column, str]:
        return {
            Column.DATE: self.tr("Date"),
            Column.BENEFICIARY: self.tr("Beneficiary"),
            Column.DUE_DATE: self.tr("Due date"),
            Column.PAY_DATE: self.tr("Pay on"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
            Column.RECEIPT: self.tr("Receipt"),
        }

    async def marked(self, entries: Sequence[Entry]) -> set[int]:
        """The slips among ``entries`` whose receipt is in the archive, read with the rows and
        again when one changes (``data()`` cannot wait for the ledger). Only a slip the bank
        identified can have one."""
        archived = set()
        for entry in entries:
            if entry.bank_id and await self.ledger.receipts.for_entry(entry.id) is not None:
                archived.add(entry.id)
        return archived

    def receipt_changed(self, entry_id: int) -> None:
        """The receipt of ``entry_id`` was just archived."""
        self.set_marked(entry_id)

    def text(self, entry: Entry, column: Column) -> str:
        if column == Column.DATE:
            return instant_or_empty(entry.created_at)
        if column == Column.BENEFICIARY:
            return entry.payee_name or entry.payee_detail
        if column == Column.DUE_DATE:
            return date_or_empty(_due_date(entry))
        if column == Column.PAY_DATE:
            return date_or_empty(entry.pay_date)
        if column == Column.AMOUNT:
            return format_brl(entry.amount)
        if column == Column.STATUS:
            if is_refused(entry):  # not paid: says so, with the bank's reason
                reason = refusal_reason_words(entry)
                refused = self.tr("Refused")
                return (
                    self.tr("%1: %2").replace("%1", refused).replace("%2", reason)
                    if reason
                    else refused
                )
            return status_word(entry_status(entry))
        return self.tr("Archived") if self.is_marked(entry.id) else ""
