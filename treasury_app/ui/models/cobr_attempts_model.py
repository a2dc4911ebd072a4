"""The settlement attempts (``tentativas``) of one recurring charge (``cobr``) as a Qt table:
the scheduled one (AGND) and the retries (NTAG), with their status, settlement date and the
endToEndId of the Pix that settled them."""

from __future__ import annotations

import contextlib
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from treasury_app.api.qrcodes.automatico_models import Tentativa

__all__ = ["ATTEMPT_ROLE", "AttemptColumn", "CobrAttemptsModel"]

ATTEMPT_ROLE = Qt.ItemDataRole.UserRole
_Index = QModelIndex | QPersistentModelIndex


class AttemptColumn(IntEnum):
    TYPE = 0
    STATUS = 1
    SETTLEMENT_DATE = 2
    END_TO_END_ID = 3


def _wire(value: Any) -> str:
    return "" if value is None else str(getattr(value, "value", value))


class CobrAttemptsModel(QAbstractTableModel):
    """The attempts in the bank's order (the first is the scheduled one)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._attempts: list[Tentativa] = []
        self._headers = {
            AttemptColumn.TYPE: self.tr("Type"),
            AttemptColumn.STATUS: self.tr("Status"),
            AttemptColumn.SETTLEMENT_DATE: self.tr("Settlement date"),
            AttemptColumn.END_TO_END_ID: self.tr("endToEndId"),
        }

    def set_attempts(self, attempts: list[Tentativa]) -> None:
        self.beginResetModel()
        self._attempts = list(attempts)
        self.endResetModel()

    def attempt(self, row: int) -> Tentativa | None:
        return self._attempts[row] if 0 <= row < len(self._attempts) else None

    def text(self, attempt: Tentativa, column: AttemptColumn) -> str:
        if column == AttemptColumn.TYPE:
            kind = _wire(attempt.tipo)
            names = {"AGND": self.tr("scheduled"), "NTAG": self.tr("retry")}
            return f"{kind} ({names[kind]})" if kind in names else kind
        if column == AttemptColumn.STATUS:
            return _wire(attempt.status)
        if column == AttemptColumn.SETTLEMENT_DATE:
            return f"{attempt.data_liquidacao:%d/%m/%Y}"
        return attempt.end_to_end_id or ""

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(self._attempts)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(AttemptColumn)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            with contextlib.suppress(ValueError):
                return self._headers[AttemptColumn(section)]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        attempt = self.attempt(index.row()) if index.isValid() else None
        if attempt is None:
            return None
        column = AttemptColumn(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self.text(attempt, column)
        if role == Qt.ItemDataRole.ToolTipRole and attempt.rejeicao is not None:
            rejection = attempt.rejeicao
            return " ".join(part for part in (rejection.codigo, rejection.descricao) if part)
        if role == ATTEMPT_ROLE:
            return attempt
        return None
