"""The Pix payments of the journal as a Qt table (:class:`PaymentsModel`, newest first, kept
live by :meth:`PaymentsModel.upsert`) and :class:`PaymentsFilter`, which narrows it by status
group and by the day the payment was made."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from enum import IntEnum, StrEnum
from typing import Any

from PySide6.QtCore import QDate, QObject, QSortFilterProxyModel, Qt

from treasury_app.api.accounts.models import is_failed_status, is_success_status
from treasury_app.domain.clock import brasilia_date, format_date
from treasury_app.domain.money import format_brl
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.services.payments import HELD_NOTE
from treasury_app.services.schedule import schedule_state
from treasury_app.ui.bank_names import detail_cell
from treasury_app.ui.csv_files import amount_texts, fold
from treasury_app.ui.models.calendar_model import state_word
from treasury_app.ui.models.journal_model import JournalEntriesModel
from treasury_app.ui.models.rows_model import ROW_ROLE, Index, RowsFilter
from treasury_app.ui.status_words import approval_word, status_word
from treasury_app.ui.times import InstantForm, instant_or_empty

__all__ = [
    "ENTRY_ROLE",
    "PIX_KINDS",
    "Column",
    "PaymentsFilter",
    "PaymentsModel",
    "StatusGroup",
    "status_group",
    "to_date",
]

PIX_KINDS = (EntryKind.PIX_KEY, EntryKind.PIX_QRC, EntryKind.PIX_MANU)
ENTRY_ROLE = ROW_ROLE


class Column(IntEnum):
    DATE = 0
    PAYEE = 1
    KIND = 2
    AMOUNT = 3
    STATUS = 4
    PAY_DATE = 5  # a scheduled payment's day (issue 35); empty for one sent at once
    SCHEDULE = 6  # where a scheduled payment stands, in the calendar's words


class StatusGroup(StrEnum):
    ALL = "all"
    IN_PROGRESS = "in_progress"
    SETTLED = "settled"
    FAILED = "failed"


def status_group(entry: Entry) -> StatusGroup:
    """Where a payment stands: refused or cancelled, paid, or anything still open (unknown
    outcomes included: they are being checked with the bank)."""
    if entry.state == EntryState.REJECTED:
        return StatusGroup.FAILED
    if entry.state == EntryState.ACCEPTED and entry.bank_status:
        if is_success_status(entry.bank_status):
            return StatusGroup.SETTLED
        if is_failed_status(entry.bank_status):
            return StatusGroup.FAILED
    return StatusGroup.IN_PROGRESS


def entry_day(iso: str) -> dt.date | None:
    """The Brasília date of a journal timestamp (``None`` if it cannot be read)."""
    try:
        return brasilia_date(dt.datetime.fromisoformat(iso.replace("Z", "+00:00")))
    except ValueError:
        return None


def _search_text(entry: Entry, held: bool = False) -> str:
    return fold(
        " ".join(
            part or ""
            for part in (
                *_schedule_words(entry, held),
                entry.payee_name,
                entry.payee_detail,
                detail_cell(entry) if entry.kind == EntryKind.PIX_MANU else "",
                entry.creditor_name,
                entry.description,
                entry.end_to_end_id,
                entry.batch,
                amount_texts(entry.amount),
            )
        )
    )


def _schedule_words(entry: Entry, held: bool) -> tuple[str, ...]:
    """What a search finds a scheduled payment by: its day (``05/12/2026``, ``2026-12-05``)
    and its state in words."""
    if entry.pay_date is None:
        return ()
    state = state_word(schedule_state(entry, held).value)
    return (format_date(entry.pay_date), entry.pay_date.isoformat(), state)


def to_date(day: QDate) -> dt.date:
    return dt.date(day.year(), day.month(), day.day())


class PaymentsModel(JournalEntriesModel):
    """The PIX_KEY, PIX_QRC and PIX_MANU journal entries, newest first."""

    kinds = PIX_KINDS
    limit = 1000
    right_aligned = (Column.AMOUNT,)
    status_column = Column.STATUS

    def __init__(self, ledger: Ledger, parent: QObject | None = None) -> None:
        super().__init__(ledger, parent)
        self._names: dict[int, Entry] | None = None  # entry id -> earlier, other name
        self._schedule_holds: set[int] = set()  # scheduled payments waiting for a person

    def headers(self) -> dict[Column, str]:
        return {
            Column.DATE: self.tr("Date"),
            Column.PAYEE: self.tr("Payee"),
            Column.KIND: self.tr("Kind"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
            Column.PAY_DATE: self.tr("Pay on"),
            Column.SCHEDULE: self.tr("Schedule"),
        }

    # -- texts -----------------------------------------------------------------------------------

    def kind_text(self, kind: EntryKind) -> str:
        return {
            EntryKind.PIX_KEY: self.tr("Key"),
            EntryKind.PIX_QRC: self.tr("QR Code"),
            EntryKind.PIX_MANU: self.tr("Bank data"),
        }.get(kind, kind.value)

    def payee_text(self, entry: Entry) -> str:
        """Who was paid: the name the bank gave beside the key (or account), once it has."""
        shown = entry.payee_name or entry.payee_detail
        if entry.creditor_name and entry.creditor_name != entry.payee_name:
            shown = f"{entry.creditor_name} ({detail_cell(entry)})"
        return f"⚠ {shown}" if self.earlier_name(entry) else shown

    def earlier_name(self, entry: Entry) -> Entry | None:
        """The previous payment to the same key whose creditor the bank named differently:
        the key may have changed hands (a flag in the list, never a silent change)."""
        if not entry.creditor_name:
            return None
        if self._names is None:
            self._names = {}
            latest: dict[str, Entry] = {}
            for item in sorted(self._rows, key=lambda e: e.id):
                if not item.creditor_name:
                    continue
                before = latest.get(item.payee_detail)
                if before is not None and before.creditor_name != item.creditor_name:
                    self._names[item.id] = before
                latest[item.payee_detail] = item
        return self._names.get(entry.id)

    async def marked(self, entries: Sequence[Entry]) -> set[int]:
        """The payments among ``entries`` held for a person (read with the rows and when one
        changes, never while painting)."""
        held = set()
        for item in entries:
            if item.unresolved:
                history = await self.ledger.journal.history(item.id)
                if history and history[-1].note == HELD_NOTE:
                    held.add(item.id)
        if any(item.pay_date is not None for item in entries):
            holds = await self.ledger.schedule.holds()
            for item in entries:
                if (item.id in holds) == (item.id in self._schedule_holds):
                    continue
                if item.id in holds:
                    self._schedule_holds.add(item.id)
                else:
                    self._schedule_holds.discard(item.id)
                row = self.row_of(item.id)
                if row is not None:  # held or let go meanwhile: its words change
                    self.row_changed(row)
        return held

    def schedule_held(self, entry: Entry) -> bool:
        """Whether ``entry`` is a scheduled payment held for a person (read with the rows)."""
        return entry.id in self._schedule_holds

    def schedule_text(self, entry: Entry) -> str:
        """A scheduled payment's state as the calendar words it (empty for one sent at once)."""
        if entry.pay_date is None:
            return ""
        return state_word(schedule_state(entry, self.schedule_held(entry)).value)

    def sort_key(self, entry: Entry, column: Column) -> Any:
        """What a column sorts by: instants and days, amounts as numbers, words folded; ties
        by the journal's order."""
        if column == Column.DATE:
            return (entry.created_at, entry.id)
        if column == Column.AMOUNT:
            return (entry.amount, entry.id)
        if column == Column.PAY_DATE:  # payments sent at once after every scheduled one
            return (entry.pay_date is None, entry.pay_date or dt.date.min, entry.id)
        return (fold(self.text(entry, column)), entry.id)

    def reset_rows(self, rows: Iterable[Entry]) -> None:
        self._names = None
        super().reset_rows(rows)

    def upsert(self, entry: Entry) -> None:
        self._names = None
        super().upsert(entry)

    def status_text(self, entry: Entry) -> str:
        """The bank's status once it has one; the local state while the outcome is not known;
        an intent's approval state while dual control decides it."""
        words = approval_word(entry)
        if words:
            return words
        if entry.state == EntryState.REJECTED:
            return status_word(EntryState.REJECTED.value)
        if entry.bank_status:
            return status_word(entry.bank_status)
        if entry.state == EntryState.PREPARED and entry.pay_date is not None:
            return self.schedule_text(entry)  # waits for its day: nothing asked of the bank
        if entry.unresolved:
            if self.is_marked(entry.id):
                return self.tr("Not confirmed by the bank — waiting for you")
            return self.tr("UNKNOWN — checking with the bank")
        return status_word(entry.state.value)

    def role_data(self, entry: Entry, column: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.PAYEE:
            earlier = self.earlier_name(entry)
            if earlier is not None:
                return (
                    self.tr("This key was paid to %1 before (%2); this payment went to %3.")
                    .replace("%1", earlier.creditor_name or "")
                    .replace("%2", instant_or_empty(earlier.created_at, InstantForm.DATE))
                    .replace("%3", entry.creditor_name or "")
                )
        return super().role_data(entry, column, role)

    def text(self, entry: Entry, column: Column) -> str:
        if column == Column.DATE:
            return instant_or_empty(entry.created_at)
        if column == Column.PAYEE:
            return self.payee_text(entry)
        if column == Column.KIND:
            return self.kind_text(entry.kind)
        if column == Column.AMOUNT:
            return format_brl(entry.amount)
        if column == Column.PAY_DATE:
            return format_date(entry.pay_date) if entry.pay_date is not None else ""
        if column == Column.SCHEDULE:
            return self.schedule_text(entry)
        return self.status_text(entry)


class PaymentsFilter(RowsFilter[Entry]):
    """Rows of a :class:`PaymentsModel` in one status group and between two days (local time,
    both included; ``None`` leaves that end open). Re-filters as entries change."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._group = StatusGroup.ALL
        self._start: dt.date | None = None
        self._end: dt.date | None = None
        self._words: tuple[str, ...] = ()
        self._batch: str | None = None

    @property
    def group(self) -> StatusGroup:
        return self._group

    def set_status_group(self, group: StatusGroup | str) -> None:
        self.refilter("_group", StatusGroup(group))

    def set_text(self, text: str) -> None:
        """Rows whose payee, key, name, amount, description or endToEndId contain every word
        of ``text`` (case and accents ignored; ``1.234,56`` and ``1234.56`` both match)."""
        self.refilter("_words", tuple(fold(word) for word in text.split() if word.strip()))

    def set_batch(self, batch: str | None) -> None:
        """Only the rows of one batch (``None``: every row)."""
        self.refilter("_batch", batch or None)

    def set_date_range(self, start: dt.date | None, end: dt.date | None) -> None:
        self.beginFilterChange()
        self._start, self._end = start, end
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def entry(self, row: int) -> Entry:
        return self.row_value(row)

    def lessThan(self, left: Index, right: Index) -> bool:  # noqa: N802 - Qt's name
        source = self.sourceModel()
        assert isinstance(source, PaymentsModel)
        column = source.column_at(left.column())
        a = source.row_at(left.row())
        b = source.row_at(right.row())
        result: bool = source.sort_key(a, column) < source.sort_key(b, column)
        return result

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        entry = self.source_value(source_row, source_parent)
        if entry is None:
            return False
        if self._group != StatusGroup.ALL and status_group(entry) != self._group:
            return False
        if self._batch is not None and entry.batch != self._batch:
            return False
        if self._words:
            source = self.sourceModel()
            held = isinstance(source, PaymentsModel) and source.schedule_held(entry)
            haystack = _search_text(entry, held)
            if not all(word in haystack for word in self._words):
                return False
        if self._start is None and self._end is None:
            return True
        day = entry_day(entry.created_at)
        if day is None:
            return False
        if self._start is not None and day < self._start:
            return False
        return self._end is None or day <= self._end
