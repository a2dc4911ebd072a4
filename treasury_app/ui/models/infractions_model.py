"""The infractions reported against the account as a Qt table (:class:`InfractionsModel`,
deadlines that are near or passed highlighted) and :class:`InfractionsFilter`, which narrows it
to one status."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from enum import IntEnum, StrEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QBrush, QPalette

from treasury_app.api.accounts.models import Infraction
from treasury_app.domain.money import format_brl
from treasury_app.services.infractions import DEFENSE_STATUSES
from treasury_app.ui.theme import Tinted, tint

__all__ = [
    "INFRACTION_ROLE",
    "NEAR_DEADLINE",
    "Column",
    "InfractionsFilter",
    "InfractionsModel",
    "Urgency",
    "format_moment",
    "urgency",
]

_BASE = QPalette.ColorRole.Base  # rows are painted on the view's base colour

INFRACTION_ROLE = Qt.ItemDataRole.UserRole
NEAR_DEADLINE = dt.timedelta(days=2)
"""An infraction still open whose deadline is closer than this is highlighted."""
_Index = QModelIndex | QPersistentModelIndex


class Column(IntEnum):
    ID = 0
    CREATED = 1
    REASON = 2
    AMOUNT = 3
    STATUS = 4
    DEADLINE = 5


class Urgency(StrEnum):
    NONE = "none"
    NEAR = "near"
    PASSED = "passed"


def urgency(infraction: Infraction, now: dt.datetime) -> Urgency:
    """How pressing the deadline is: only an infraction that still takes a defense can be
    late; a closed one never is."""
    deadline = infraction.defense_deadline
    if infraction.status not in DEFENSE_STATUSES or deadline is None:
        return Urgency.NONE
    if now > deadline:
        return Urgency.PASSED
    if deadline - now <= NEAR_DEADLINE:
        return Urgency.NEAR
    return Urgency.NONE


def format_moment(moment: dt.datetime | None) -> str:
    """``dd/mm/yyyy hh:mm`` in the computer's time zone; empty when unknown."""
    if moment is None:
        return ""
    return moment.astimezone().strftime("%d/%m/%Y %H:%M")


class InfractionsModel(QAbstractTableModel):
    """Infractions in the order given (the bank's: newest first). ``clock`` (aware) decides
    which deadlines are near or passed."""

    def __init__(self, clock: Callable[[], dt.datetime], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clock = clock
        self._items: list[Infraction] = []
        self._headers = {
            Column.ID: self.tr("Infraction"),
            Column.CREATED: self.tr("Reported"),
            Column.REASON: self.tr("Reason"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
            Column.DEADLINE: self.tr("Defense deadline"),
        }

    # -- content ---------------------------------------------------------------------------------

    def set_infractions(self, items: Iterable[Infraction]) -> None:
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def upsert(self, infraction: Infraction) -> None:
        """Replace the row of the same id (after a defense, the status changes) or add it."""
        for row, item in enumerate(self._items):
            if item.id == infraction.id:
                self._items[row] = infraction
                self.dataChanged.emit(self.index(row, 0), self.index(row, len(Column) - 1))
                return
        self.beginInsertRows(QModelIndex(), 0, 0)
        self._items.insert(0, infraction)
        self.endInsertRows()

    def infraction(self, row: int) -> Infraction:
        return self._items[row]

    def row_of(self, infraction_id: str) -> int | None:
        for row, item in enumerate(self._items):
            if item.id == infraction_id:
                return row
        return None

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(Column)

    def headerData(  # noqa: N802
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self._headers.get(Column(section))
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._items):
            return None
        item = self._items[index.row()]
        column = Column(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(item, column)
        if role == INFRACTION_ROLE:
            return item
        if role == Qt.ItemDataRole.TextAlignmentRole and column == Column.AMOUNT:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        state = urgency(item, self._clock())
        if role == Qt.ItemDataRole.BackgroundRole and state is not Urgency.NONE:
            tone: Tinted = "error" if state is Urgency.PASSED else "warning"
            return QBrush(tint(tone, on=_BASE, amount=0.25))
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.DEADLINE:
            if state is Urgency.PASSED:
                return self.tr("The deadline to defend has passed.")
            if state is Urgency.NEAR:
                return self.tr("The deadline to defend is near.")
        return None

    def _text(self, item: Infraction, column: Column) -> str:
        if column == Column.ID:
            return item.id
        if column == Column.CREATED:
            return format_moment(item.created_at)
        if column == Column.REASON:
            return str(item.reason or "")
        if column == Column.AMOUNT:
            return format_brl(item.amount) if item.amount is not None else ""
        if column == Column.STATUS:
            return str(item.status)
        text = format_moment(item.defense_deadline)
        state = urgency(item, self._clock())
        if state is Urgency.PASSED:
            text += " " + self.tr("(passed)")
        elif state is Urgency.NEAR:
            text += " " + self.tr("(soon)")
        return text


class InfractionsFilter(QSortFilterProxyModel):
    """Rows of one status (``None``: every status)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(True)
        self._status: str | None = None

    def set_status(self, status: str | None) -> None:
        self.beginFilterChange()
        self._status = status
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def infraction(self, row: int) -> Infraction:
        item: Infraction = self.index(row, 0).data(INFRACTION_ROLE)
        return item

    def row_of(self, infraction_id: str) -> int | None:
        for row in range(self.rowCount()):
            if self.infraction(row).id == infraction_id:
                return row
        return None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:  # noqa: N802
        if self._status is None:
            return True
        item = self.sourceModel().index(source_row, 0, source_parent).data(INFRACTION_ROLE)
        return item is not None and str(item.status) == self._status
