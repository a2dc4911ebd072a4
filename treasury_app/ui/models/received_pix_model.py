"""The Pix received in a date range as a Qt table (:class:`ReceivedPixModel`), with what was
refunded of each so far, and :class:`ReceivedPixFilter` for free-text search and sorting."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from treasury_app.api.qrcodes.cashin_models import Devolucao, DevolucaoStatus, Pix
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ui.models.charges_model import format_moment

__all__ = [
    "PIX_ROLE",
    "Column",
    "Payer",
    "PixRow",
    "ReceivedPixFilter",
    "ReceivedPixModel",
    "payer_of",
    "payer_text",
    "refund_status_text",
    "refunded_amount",
]

PIX_ROLE = Qt.ItemDataRole.UserRole
_Index = QModelIndex | QPersistentModelIndex


class Column(IntEnum):
    TIME = 0
    END_TO_END_ID = 1
    TXID = 2
    PAYER = 3
    AMOUNT = 4
    REFUNDED = 5
    REFUND_STATUS = 6


def refunded_amount(pix: Pix) -> Decimal:
    """What was refunded or is being refunded (the bank counts both against the Pix)."""
    return sum(
        (d.valor for d in pix.devolucoes if d.status != DevolucaoStatus.NAO_REALIZADO),
        Decimal("0.00"),
    )


def refund_status_text(status: str) -> str:
    labels: dict[str, str] = {
        DevolucaoStatus.EM_PROCESSAMENTO: QCoreApplication.translate("RefundStatus", "Processing"),
        DevolucaoStatus.DEVOLVIDO: QCoreApplication.translate("RefundStatus", "Refunded"),
        DevolucaoStatus.NAO_REALIZADO: QCoreApplication.translate("RefundStatus", "Not done"),
    }
    return labels.get(str(status), str(status))


@dataclass(frozen=True)
class Payer:
    """Who sent a Pix, from the account's statement (BCB's ``Pix`` names no payer)."""

    name: str = ""
    document: str = ""

    def text(self) -> str:
        """Name and document, a CPF half hidden ("" when neither is known)."""
        document = self.document
        if document:
            with contextlib.suppress(DomainError, TypeError):
                document = mask_document(document)
        return " — ".join(part for part in (self.name, document) if part)


def payer_of(pix: Pix) -> Payer | None:
    """The payer a bank may add to a ``Pix`` (``pagador`` with ``nome``/``name`` and
    ``cpf``/``cnpj``/``document``), else ``None``."""
    payer = (pix.model_extra or {}).get("pagador")
    if not isinstance(payer, dict):
        return None
    name = payer.get("nome") or payer.get("name") or ""
    document = payer.get("cpf") or payer.get("cnpj") or payer.get("document") or ""
    return Payer(str(name), str(document))


def payer_text(pix: Pix, payer: Payer | None = None) -> str:
    """Who paid ``pix``: ``payer`` (from the statement) or what the bank added to the Pix;
    "" when unknown."""
    known = payer or payer_of(pix)
    return known.text() if known is not None else ""


@dataclass(frozen=True)
class PixRow:
    pix: Pix
    payer: Payer | None = None

    @property
    def payer_text(self) -> str:
        return payer_text(self.pix, self.payer)

    @property
    def end_to_end_id(self) -> str:
        return self.pix.end_to_end_id

    @property
    def refunded(self) -> Decimal:
        return refunded_amount(self.pix)

    @property
    def left(self) -> Decimal:
        """What can still be refunded."""
        return max(self.pix.valor - self.refunded, Decimal("0.00"))

    @property
    def last_refund(self) -> Devolucao | None:
        return self.pix.devolucoes[-1] if self.pix.devolucoes else None

    def sort_key(self, column: Column) -> Any:
        if column == Column.TIME:
            return self.pix.horario
        if column == Column.AMOUNT:
            return self.pix.valor
        if column == Column.REFUNDED:
            return self.refunded
        if column == Column.TXID:
            return self.pix.txid or ""
        if column == Column.PAYER:
            return self.payer_text.casefold()
        if column == Column.REFUND_STATUS:
            last = self.last_refund
            return str(last.status) if last is not None else ""
        return self.end_to_end_id


class ReceivedPixModel(QAbstractTableModel):
    """The Pix of one load, newest first; :meth:`upsert` replaces one after a refund."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[PixRow] = []
        self._headers = {
            Column.TIME: self.tr("Received"),
            Column.END_TO_END_ID: self.tr("endToEndId"),
            Column.TXID: self.tr("txid"),
            Column.PAYER: self.tr("Payer"),
            Column.AMOUNT: self.tr("Amount"),
            Column.REFUNDED: self.tr("Refunded"),
            Column.REFUND_STATUS: self.tr("Last refund"),
        }

    def set_pix(self, items: list[Pix], payers: Mapping[str, Payer] | None = None) -> None:
        """Show ``items``; ``payers`` maps an endToEndId to who sent it."""
        payers = payers or {}
        rows = (PixRow(p, payers.get(p.end_to_end_id)) for p in items)
        self.beginResetModel()
        self._rows = sorted(rows, key=lambda r: r.pix.horario, reverse=True)
        self.endResetModel()

    def upsert(self, pix: Pix) -> None:
        """Replace the row of ``pix`` (keeping its payer) or add it first."""
        found = self.row_of(pix.end_to_end_id)
        if found is None:
            self.beginInsertRows(QModelIndex(), 0, 0)
            self._rows.insert(0, PixRow(pix))
            self.endInsertRows()
            return
        self._rows[found] = PixRow(pix, self._rows[found].payer)
        self.dataChanged.emit(self.index(found, 0), self.index(found, len(Column) - 1))

    def row_at(self, row: int) -> PixRow:
        return self._rows[row]

    def row_of(self, end_to_end_id: str) -> int | None:
        for number, row in enumerate(self._rows):
            if row.end_to_end_id == end_to_end_id:
                return number
        return None

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's API
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's API
        return 0 if parent.isValid() else len(Column)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers.get(Column(section)) if 0 <= section < len(Column) else None
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = Column(index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, column)
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            Column.AMOUNT,
            Column.REFUNDED,
        ):
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.PAYER:
            return row.pix.info_pagador
        if role == PIX_ROLE:
            return row
        return None

    def _text(self, row: PixRow, column: Column) -> str:
        pix = row.pix
        if column == Column.TIME:
            return format_moment(pix.horario, "%d/%m/%Y %H:%M:%S")
        if column == Column.END_TO_END_ID:
            return pix.end_to_end_id
        if column == Column.TXID:
            return pix.txid or ""
        if column == Column.PAYER:
            return row.payer_text
        if column == Column.AMOUNT:
            return format_brl(pix.valor)
        if column == Column.REFUNDED:
            return format_brl(row.refunded) if pix.devolucoes else ""
        last = row.last_refund
        return refund_status_text(str(last.status)) if last is not None else ""


class ReceivedPixFilter(QSortFilterProxyModel):
    """Free-text search over endToEndId, txid, payer and amount; sorts by the values."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(True)
        self._text = ""

    def set_text(self, text: str) -> None:
        self.beginFilterChange()
        self._text = (text or "").strip().casefold()
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def pix_row(self, row: int) -> PixRow:
        found: PixRow = self.index(row, 0).data(PIX_ROLE)
        return found

    def row_of(self, end_to_end_id: str) -> int | None:
        for row in range(self.rowCount()):
            if self.pix_row(row).end_to_end_id == end_to_end_id:
                return row
        return None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:  # noqa: N802
        row: PixRow | None = self.sourceModel().index(source_row, 0, source_parent).data(PIX_ROLE)
        if row is None:
            return False
        if not self._text:
            return True
        pix = row.pix
        haystack = " ".join(
            (pix.end_to_end_id, pix.txid or "", row.payer_text, format_brl(pix.valor))
        )
        return self._text in haystack.casefold()

    def lessThan(self, left: _Index, right: _Index) -> bool:  # noqa: N802
        column = Column(left.column())
        a: PixRow = self.sourceModel().index(left.row(), 0).data(PIX_ROLE)
        b: PixRow = self.sourceModel().index(right.row(), 0).data(PIX_ROLE)
        result: bool = a.sort_key(column) < b.sort_key(column)
        return result
