"""The intents of the Approvals tab as a Qt table (team mode): payee, amount, maker, approvals
given of those needed, age and expiry, one list per :class:`ApprovalsModel`.

A desk may hold 10,000 intents waiting: the rows are plain journal entries, replaced in one
reset, and every cell is worded only when painted. Sorting happens in the model (one Python
sort on a key per row, not a comparison call back from Qt for each pair), so a click on a
header of a long list stays quick.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from decimal import Decimal
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QObject, Qt

from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryKind
from treasury_app.ui.bank_names import detail_cell
from treasury_app.ui.models.rows_model import RowsTableModel
from treasury_app.ui.status_words import approval_word, decision_reason_word, status_word
from treasury_app.ui.times import instant_or_empty

__all__ = ["ApprovalsModel", "Column", "parse_stamp"]


class Column(IntEnum):
    PAYEE = 0
    AMOUNT = 1
    MAKER = 2
    APPROVALS = 3
    AGE = 4
    EXPIRY = 5
    STATE = 6


def parse_stamp(stamp: str | None) -> dt.datetime | None:
    """A journal stamp (ISO, UTC, ``Z``) as an aware datetime; ``None`` when there is none."""
    if not stamp:
        return None
    try:
        moment = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=dt.UTC)


class ApprovalsModel(RowsTableModel[Entry]):
    """One list of intents. ``clock`` is the ledger's (a team database stamps by its server's
    clock, so ages are measured on it); :meth:`tick` repaints the ages."""

    right_aligned = (Column.AMOUNT, Column.APPROVALS, Column.AGE)

    def __init__(self, clock: Callable[[], dt.datetime], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.clock = clock
        self._now = clock()
        self._sorted: tuple[int, Qt.SortOrder] | None = None

    def headers(self) -> dict[Column, str]:
        return {
            Column.PAYEE: self.tr("Payee"),
            Column.AMOUNT: self.tr("Amount"),
            Column.MAKER: self.tr("Prepared by"),
            Column.APPROVALS: self.tr("Approvals"),
            Column.AGE: self.tr("Age"),
            Column.EXPIRY: self.tr("Approvals expire"),
            Column.STATE: self.tr("State"),
        }

    def key(self, row: Entry) -> int:
        return row.id

    # -- content ---------------------------------------------------------------------------------

    def reset_rows(self, rows: Iterable[Entry]) -> None:
        """Replace every row (in the order last chosen by a click on a header, if any)."""
        self._now = self.clock()
        rows = list(rows)
        if self._sorted is not None:
            column, order = self._sorted
            rows.sort(key=self._sort_key(column), reverse=order == Qt.SortOrder.DescendingOrder)
        super().reset_rows(rows)

    def total(self) -> Decimal:
        return sum((entry.amount for entry in self._rows), Decimal("0.00"))

    def tick(self) -> None:
        """A minute went by: the ages (and expiries passed) are worded again."""
        self._now = self.clock()
        if self._rows:
            self.dataChanged.emit(
                self.index(0, 0), self.index(len(self._rows) - 1, self.columnCount() - 1)
            )

    # -- words -----------------------------------------------------------------------------------

    def payee_text(self, entry: Entry) -> str:
        name = entry.creditor_name or entry.payee_name
        if entry.kind == EntryKind.BILLET:
            return name or self.tr("Slip %1").replace("%1", entry.payee_detail[:12] + "…")
        if name and entry.payee_detail and name != entry.payee_detail:
            return f"{name} ({detail_cell(entry)})"
        return name or detail_cell(entry)

    def approvals_text(self, entry: Entry) -> str:
        return f"{entry.approvals_given} / {entry.approvals_needed}"

    def age_text(self, seconds: float) -> str:
        """How long ago, in the largest whole unit: "45 s", "12 min", "3 h", "2 d"."""
        whole = max(0, int(seconds))
        if whole >= 86_400:
            return self.tr("%1 d").replace("%1", str(whole // 86_400))
        if whole >= 3_600:
            return self.tr("%1 h").replace("%1", str(whole // 3_600))
        if whole >= 60:
            return self.tr("%1 min").replace("%1", str(whole // 60))
        return self.tr("%1 s").replace("%1", str(whole))

    def age_seconds(self, entry: Entry) -> float:
        created = parse_stamp(entry.created_at)
        return (self._now - created).total_seconds() if created is not None else 0.0

    def expiry_text(self, entry: Entry) -> str:
        stamp = entry.approvals_expire_at or ""
        expires = parse_stamp(stamp)
        if expires is None or entry.approval not in ("WAITING", "APPROVED"):
            return ""
        if expires <= self._now:
            return self.tr("expired %1").replace("%1", instant_or_empty(stamp))
        return instant_or_empty(stamp)

    def state_text(self, entry: Entry) -> str:
        words = approval_word(entry, released=True)
        if entry.approval == "RELEASED":
            status = entry.bank_status or entry.state.value
            return f"{words} · {status_word(status)}"
        return words or status_word(entry.state.value)

    def text(self, entry: Entry, column: Column) -> str:
        if column == Column.PAYEE:
            return self.payee_text(entry)
        if column == Column.AMOUNT:
            return format_brl(entry.amount)
        if column == Column.MAKER:
            return entry.created_by
        if column == Column.APPROVALS:
            return self.approvals_text(entry)
        if column == Column.AGE:
            return self.age_text(self.age_seconds(entry))
        if column == Column.EXPIRY:
            return self.expiry_text(entry)
        return self.state_text(entry)

    def role_data(self, entry: Entry, column: Column, role: int) -> Any:
        if role != Qt.ItemDataRole.ToolTipRole:
            return None
        if column == Column.STATE and entry.decision_reason:
            return decision_reason_word(entry)
        if column == Column.AGE:
            return instant_or_empty(entry.created_at)
        if column == Column.PAYEE and entry.description:
            return entry.description
        if column == Column.APPROVALS and entry.new_payee:
            return self.tr("A new payee: one approval more than the amount alone needs.")
        return None

    # -- sorting ---------------------------------------------------------------------------------

    def _sort_key(self, column: int) -> Callable[[Entry], Any]:
        keys: dict[int, Callable[[Entry], Any]] = {
            Column.PAYEE: lambda e: self.payee_text(e).casefold(),
            Column.AMOUNT: lambda e: e.amount,
            Column.MAKER: lambda e: e.created_by.casefold(),
            Column.APPROVALS: lambda e: (e.approvals_needed - e.approvals_given, e.id),
            Column.AGE: lambda e: -_epoch(e.created_at),  # youngest first when ascending
            Column.EXPIRY: lambda e: _epoch(e.approvals_expire_at, missing=float("inf")),
            Column.STATE: lambda e: self.state_text(e),
        }
        return keys.get(column, lambda e: e.id)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Qt's header click: the rows sorted in place; the views' selection follows its rows."""
        if not 0 <= column < self.columnCount():
            return
        self._sorted = (self.column_at(column), order)
        self.layoutAboutToBeChanged.emit()
        persistent = self.persistentIndexList()
        held = [self._rows[index.row()].id for index in persistent]
        self._rows.sort(
            key=self._sort_key(self.column_at(column)),
            reverse=order == Qt.SortOrder.DescendingOrder,
        )
        where = {entry.id: row for row, entry in enumerate(self._rows)}
        self.changePersistentIndexList(
            persistent,
            [
                self.index(where[key], index.column())
                for key, index in zip(held, persistent, strict=True)
            ],
        )
        self.layoutChanged.emit()


def _epoch(stamp: str | None, *, missing: float = 0.0) -> float:
    moment = parse_stamp(stamp)
    return moment.timestamp() if moment is not None else missing
