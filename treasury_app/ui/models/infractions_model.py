"""The infractions reported against the account as a Qt table (:class:`InfractionsModel`,
deadlines that are near or passed highlighted) and :class:`InfractionsFilter`, which narrows it
to one status."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from enum import IntEnum, StrEnum
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QBrush, QPalette

from treasury_app.api.accounts.models import Infraction
from treasury_app.domain.money import format_brl
from treasury_app.services.infractions import DEFENSE_STATUSES
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.rows_model import (
    ROW_ROLE,
    Index,
    RowsFilter,
    RowsTableModel,
)
from treasury_app.ui.theme import Tinted, tint
from treasury_app.ui.times import deadline_text, instant_or_empty

__all__ = [
    "INFRACTION_ROLE",
    "NEAR_DEADLINE",
    "Column",
    "InfractionsFilter",
    "InfractionsModel",
    "Urgency",
    "urgency",
]

_BASE = QPalette.ColorRole.Base  # rows are painted on the view's base colour

INFRACTION_ROLE = ROW_ROLE
NEAR_DEADLINE = dt.timedelta(days=2)
"""An infraction still open whose deadline is closer than this is highlighted."""


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


class InfractionsModel(RowsTableModel[Infraction]):
    """Infractions in the order given (the bank's: newest first). ``clock`` (aware) decides
    which deadlines are near or passed."""

    right_aligned = (Column.AMOUNT,)

    def __init__(self, clock: Callable[[], dt.datetime], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._clock = clock

    def headers(self) -> dict[Column, str]:
        return {
            Column.ID: self.tr("Infraction"),
            Column.CREATED: self.tr("Reported"),
            Column.REASON: self.tr("Reason"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
            Column.DEADLINE: self.tr("Defense deadline"),
        }

    def key(self, row: Infraction) -> str:
        return row.id

    def set_infractions(self, items: Iterable[Infraction]) -> None:
        self.reset_rows(items)

    def infraction(self, row: int) -> Infraction:
        return self.row_at(row)

    def role_data(self, item: Infraction, column: Column, role: int) -> Any:
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

    def text(self, item: Infraction, column: Column) -> str:
        if column == Column.ID:
            return item.id
        if column == Column.CREATED:
            return instant_or_empty(item.created_at)
        if column == Column.REASON:
            return code_word(Family.INFRACTION_REASON, item.reason)
        if column == Column.AMOUNT:
            return format_brl(item.amount) if item.amount is not None else ""
        if column == Column.STATUS:
            return code_word(Family.INFRACTION_STATUS, item.status)
        text = deadline_text(item.defense_deadline)
        state = urgency(item, self._clock())
        if state is Urgency.PASSED:
            text += " " + self.tr("(passed)")
        elif state is Urgency.NEAR:
            text += " " + self.tr("(soon)")
        return text


class InfractionsFilter(RowsFilter[Infraction]):
    """Rows of one status (``None``: every status)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._status: str | None = None

    def set_status(self, status: str | None) -> None:
        self.refilter("_status", status)

    def infraction(self, row: int) -> Infraction:
        return self.row_value(row)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if self._status is None:
            return True
        item = self.source_value(source_row, source_parent)
        return item is not None and str(item.status) == self._status
