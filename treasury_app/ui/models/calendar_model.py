"""The payables calendar's two models: the grid of 13 weeks (a row a week, a column a weekday;
each day its totals out and in and its projected balance, tinted when warned) and the list of
one day's payments and receipts."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QFont, QPalette

from treasury_app.domain.clock import format_date
from treasury_app.domain.money import format_brl
from treasury_app.services.calendar import (
    CalendarDay,
    DayWarning,
    ExpectedInflow,
    Outflow,
    Projection,
    Weight,
)
from treasury_app.ui.code_words import unknown_word
from treasury_app.ui.models.rows_model import RowsTableModel
from treasury_app.ui.status_words import status_word
from treasury_app.ui.theme import Tinted, muted_color, tint, tone_color

__all__ = [
    "CELL_ROLE",
    "DAY_ROLE",
    "CalendarGridModel",
    "DayItem",
    "DayItemsModel",
    "ItemColumn",
    "kind_word",
    "state_word",
    "warning_word",
    "weight_word",
]

DAY_ROLE = Qt.ItemDataRole.UserRole
CELL_ROLE = Qt.ItemDataRole.UserRole + 1
"""A day cell's lines, background, foreground and font, as one tuple (the grid paints it)."""
"""The :class:`CalendarDay` of a cell (``None``: before today)."""
Index = QModelIndex | QPersistentModelIndex

_CONTEXT = "CalendarWords"
_KINDS: dict[str, str] = {
    # what leaves (the journal's EntryKind values, in lower case)
    "pix_key": QT_TRANSLATE_NOOP("CalendarWords", "Pix by key"),
    "pix_qrc": QT_TRANSLATE_NOOP("CalendarWords", "Pix by QR Code"),
    "pix_manu": QT_TRANSLATE_NOOP("CalendarWords", "Pix by bank data"),
    "billet": QT_TRANSLATE_NOOP("CalendarWords", "Boleto"),
    "payout_batch": QT_TRANSLATE_NOOP("CalendarWords", "Pix batch"),
    # what comes in
    "cobv": QT_TRANSLATE_NOOP("CalendarWords", "Due-date charge"),
    "batch": QT_TRANSLATE_NOOP("CalendarWords", "Charge of a batch"),
    "cobr": QT_TRANSLATE_NOOP("CalendarWords", "Pix Automático charge"),
}
_STATES: dict[str, str] = {
    # the engine's ScheduleState values
    "scheduled": QT_TRANSLATE_NOOP("CalendarWords", "Scheduled"),
    "waiting_approval": QT_TRANSLATE_NOOP("CalendarWords", "Waiting for approval"),
    "held": QT_TRANSLATE_NOOP("CalendarWords", "Held: a person decides"),
    "sending": QT_TRANSLATE_NOOP("CalendarWords", "Sending"),
    "paid": QT_TRANSLATE_NOOP("CalendarWords", "Paid"),
    "failed": QT_TRANSLATE_NOOP("CalendarWords", "Failed at the bank"),
    "cancelled": QT_TRANSLATE_NOOP("CalendarWords", "Cancelled"),
    "planned": QT_TRANSLATE_NOOP("CalendarWords", "Planned: next in its series, not journaled yet"),
}
_WARNINGS: dict[str, str] = {
    DayWarning.BELOW_ZERO: QT_TRANSLATE_NOOP("CalendarWords", "Projected balance below zero"),
    DayWarning.OVER_BALANCE: QT_TRANSLATE_NOOP(
        "CalendarWords",
        "The day's payments exceed today's balance: held on the day unless money comes in",
    ),
    DayWarning.BELOW_THRESHOLD: QT_TRANSLATE_NOOP(
        "CalendarWords", "Projected balance below your threshold of %1"
    ),
}
_WEIGHTS: dict[str, str] = {
    "payer": QT_TRANSLATE_NOOP("CalendarWords", "%1 (this payer paid %2 of %3)"),
    "kind": QT_TRANSLATE_NOOP("CalendarWords", "%1 (charges of this kind: %2 of %3 paid)"),
    "none": QT_TRANSLATE_NOOP("CalendarWords", "%1 (no history yet)"),
}


def _tr(source: str) -> str:
    return QCoreApplication.translate(_CONTEXT, source)


def kind_word(kind: str) -> str:
    """A payment's or a receipt's kind in words (an unknown code shown as it is, marked)."""
    source = _KINDS.get(kind.lower())
    return _tr(source) if source else unknown_word("calendar kind", kind)


def state_word(state: str) -> str:
    """A scheduled payment's state in words (the journal's and the bank's words otherwise)."""
    source = _STATES.get(state.lower())
    return _tr(source) if source else status_word(state.upper())


def warning_word(warning: str | None, threshold: Decimal | None) -> str:
    if warning is None:
        return ""
    text = _tr(_WARNINGS[warning])
    return text.replace("%1", format_brl(threshold)) if threshold is not None else text


def weight_word(weight: Weight) -> str:
    """``82% (this payer paid 9 of 11)``: how much of a receipt the projection counts, and why."""
    percent = f"{round(weight.fraction * 100)}%"
    text = _tr(_WEIGHTS[weight.basis]).replace("%1", percent)
    return text.replace("%2", str(weight.paid)).replace("%3", str(weight.settled))


class CalendarGridModel(QAbstractTableModel):
    """The weeks of a :class:`Projection`: row ``w`` is the ``w``-th week (Monday first),
    column ``d`` its weekday; a day before today is an empty cell."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.projection: Projection | None = None
        self._cells: dict[tuple[int, int], dict[int, Any]] = {}
        self._monday = dt.date.min
        self._weeks = 0
        self._weekdays = [
            self.tr("Mon"),
            self.tr("Tue"),
            self.tr("Wed"),
            self.tr("Thu"),
            self.tr("Fri"),
            self.tr("Sat"),
            self.tr("Sun"),
        ]

    def set_projection(self, projection: Projection | None) -> None:
        self.beginResetModel()
        self.projection = projection
        self._cells = {}
        if projection is None or not projection.days:
            self._weeks = 0
        else:
            today = projection.today
            self._monday = today - dt.timedelta(days=today.weekday())
            self._weeks = ((projection.days[-1].day - self._monday).days + 1 + 6) // 7
        self.endResetModel()

    def day_at(self, row: int, column: int) -> CalendarDay | None:
        if self.projection is None:
            return None
        return self.projection.day(self._monday + dt.timedelta(days=7 * row + column))

    def index_of(self, day: dt.date) -> QModelIndex:
        offset = (day - self._monday).days
        if self.projection is None or offset < 0:
            return QModelIndex()
        return self.index(offset // 7, offset % 7)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else self._weeks

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else 7

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._weekdays[section] if 0 <= section < 7 else None
        monday = self._monday + dt.timedelta(days=7 * section)
        return format_date(monday)[:5]

    def flags(self, index: Index) -> Qt.ItemFlag:
        if self.data(index, DAY_ROLE) is None:
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        place = (index.row(), index.column())
        cell = self._cells.get(place)
        if cell is None:
            day = self.day_at(*place)
            if day is None:
                return None
            cell = self._cells[place] = self._cell(day)
        return cell.get(role)

    def _cell(self, day: CalendarDay) -> dict[int, Any]:
        """Every role of a day's cell, made once per projection: a paint asks each cell for a
        dozen roles, a few dozen cells at a time."""
        text = self.cell_text(day)
        roles: dict[int, Any] = {Qt.ItemDataRole.DisplayRole: text, DAY_ROLE: day}
        tips = []
        if day.warning is not None:
            tone: Tinted = "error" if day.warning == DayWarning.BELOW_ZERO else "warning"
            roles[Qt.ItemDataRole.BackgroundRole] = tint(
                tone, on=QPalette.ColorRole.Base, amount=0.35
            )
            threshold = self.projection.threshold if self.projection else None
            tips.append(warning_word(day.warning, threshold))
        planned = sum(1 for out in day.outflows if out.planned)
        if planned:
            tips.append(
                self.tr("%1 planned occurrence(s) of a series, not journaled yet").replace(
                    "%1", str(planned)
                )
            )
        if tips:
            roles[Qt.ItemDataRole.ToolTipRole] = "\n".join(tips)
        if not day.business_day:
            roles[Qt.ItemDataRole.ForegroundRole] = muted_color()
        if self.projection is not None and day.day == self.projection.today:
            font = QFont()
            font.setBold(True)
            roles[Qt.ItemDataRole.FontRole] = font
        # What the grid's painter needs, in one answer (ui/widgets/calendar_cells.py).
        roles[CELL_ROLE] = (
            tuple(text.split("\n")),
            roles.get(Qt.ItemDataRole.BackgroundRole),
            roles.get(Qt.ItemDataRole.ForegroundRole),
            roles.get(Qt.ItemDataRole.FontRole),
        )
        return roles

    def cell_text(self, day: CalendarDay) -> str:
        lines = [format_date(day.day)[:5]]
        if day.outflows:
            lines.append(f"− {format_brl(day.out_total)}")
        if day.inflows:
            lines.append(f"+ {format_brl(day.in_weighted)}")
        lines.append(f"= {format_brl(day.balance)}")
        return "\n".join(lines)


class ItemColumn(IntEnum):
    DIRECTION = 0
    KIND = 1
    NAME = 2
    AMOUNT = 3
    COUNTED = 4
    NOTE = 5


@dataclass(frozen=True)
class DayItem:
    """A row of a day's list: a payment leaving (``outflow``) or a receipt expected."""

    outflow: Outflow | None = None
    inflow: ExpectedInflow | None = None

    @property
    def key(self) -> str:
        return f"out:{self.outflow.entry_id}" if self.outflow else f"in:{self.inflow_().txid}"

    def inflow_(self) -> ExpectedInflow:
        assert self.inflow is not None
        return self.inflow


def day_items(day: CalendarDay | None) -> list[DayItem]:
    if day is None:
        return []
    return [DayItem(outflow=o) for o in day.outflows] + [DayItem(inflow=i) for i in day.inflows]


class DayItemsModel(RowsTableModel[DayItem]):
    """One day's payments (first) and receipts."""

    right_aligned = (ItemColumn.AMOUNT, ItemColumn.COUNTED)
    _texts: dict[str, tuple[str, ...]] = {}  # noqa: RUF012 - replaced per reset

    def headers(self) -> dict[ItemColumn, str]:
        return {
            ItemColumn.DIRECTION: self.tr("Out or in"),
            ItemColumn.KIND: self.tr("Kind"),
            ItemColumn.NAME: self.tr("Payee or payer"),
            ItemColumn.AMOUNT: self.tr("Amount"),
            ItemColumn.COUNTED: self.tr("Counted"),
            ItemColumn.NOTE: self.tr("Status or weight"),
        }

    def key(self, row: DayItem) -> str:
        return row.key

    def reset_rows(self, rows: Iterable[DayItem]) -> None:
        self._texts = {}
        super().reset_rows(rows)

    def text(self, row: DayItem, column: Any) -> str:
        texts = self._texts.get(row.key)
        if texts is None:
            texts = self._texts[row.key] = self.row_texts(row)
        return texts[column]

    def row_texts(self, row: DayItem) -> tuple[str, ...]:
        """The row's text in each column (:class:`ItemColumn` order), made once per row."""
        out = row.outflow
        if out is not None:
            return (
                self.tr("Out"),
                kind_word(out.kind),
                out.payee,
                format_brl(out.amount),
                format_brl(-out.amount),
                self.outflow_note(out),
            )
        inflow = row.inflow_()
        return (
            self.tr("In"),
            kind_word(inflow.kind),
            inflow.payer,
            format_brl(inflow.amount),
            format_brl(inflow.weighted),
            weight_word(inflow.weight),
        )

    def outflow_note(self, out: Outflow) -> str:
        state = state_word(out.state)
        if out.late:
            return self.tr("%1, was due earlier").replace("%1", state)
        return state

    def role_data(self, row: DayItem, column: Any, role: int) -> Any:
        out = row.outflow
        if role == Qt.ItemDataRole.ForegroundRole and out is not None and out.late:
            return tone_color("error", on=QPalette.ColorRole.Base)
        if out is not None and out.planned:  # not a payment yet: set apart, read-only
            if role == Qt.ItemDataRole.ForegroundRole:
                return muted_color()
            if role == Qt.ItemDataRole.FontRole:
                font = QFont()
                font.setItalic(True)
                return font
        return None
