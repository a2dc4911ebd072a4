"""The Pix charges (``cob`` and ``cobv``) of a date range as a Qt table (:class:`ChargesModel`)
and :class:`ChargesFilter`, which narrows it by status, kind, debtor CPF/CNPJ and free text
without asking the bank again."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import Any, Literal

from PySide6.QtCore import (
    QAbstractTableModel,
    QCoreApplication,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from treasury_app.api.qrcodes.cashin_models import CobCompleta, CobStatus, CobVCompleta
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import masked_debtor

__all__ = [
    "CHARGE_ROLE",
    "ChargeKind",
    "ChargeRow",
    "ChargesFilter",
    "ChargesModel",
    "Column",
    "format_moment",
    "status_text",
]

ChargeKind = Literal["cob", "cobv"]
CHARGE_ROLE = Qt.ItemDataRole.UserRole
_Index = QModelIndex | QPersistentModelIndex
_NOT_DOCUMENT = re.compile(r"[^0-9A-Za-z]")


class Column(IntEnum):
    CREATED = 0
    TXID = 1
    KIND = 2
    DEBTOR = 3
    AMOUNT = 4
    STATUS = 5


def status_text(status: str) -> str:
    """A charge's status as a person reads it; an unknown status as the bank sent it."""
    labels: dict[str, str] = {
        CobStatus.ATIVA: QCoreApplication.translate("ChargeStatus", "Active"),
        CobStatus.CONCLUIDA: QCoreApplication.translate("ChargeStatus", "Paid"),
        CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR: QCoreApplication.translate(
            "ChargeStatus", "Removed by us"
        ),
        CobStatus.REMOVIDA_PELO_PSP: QCoreApplication.translate(
            "ChargeStatus", "Removed by the bank"
        ),
    }
    return labels.get(str(status), str(status))


def format_moment(moment: dt.datetime | None, pattern: str = "%d/%m/%Y %H:%M") -> str:
    """An instant in the computer's time zone ("" when unknown)."""
    return moment.astimezone().strftime(pattern) if moment is not None else ""


@dataclass(frozen=True)
class ChargeRow:
    """One charge of the list: its kind and the bank's answer for it."""

    kind: ChargeKind
    charge: CobCompleta | CobVCompleta

    @property
    def txid(self) -> str:
        return self.charge.txid

    @property
    def status(self) -> str:
        return str(self.charge.status)

    @property
    def active(self) -> bool:
        return self.status == CobStatus.ATIVA

    @property
    def created(self) -> dt.datetime | None:
        return self.charge.calendario.criacao

    @property
    def amount(self) -> Decimal:
        return self.charge.valor.original

    @property
    def debtor_name(self) -> str:
        devedor = self.charge.devedor
        return (devedor.nome or "") if devedor is not None else ""

    @property
    def debtor_document(self) -> str:
        """The bare CPF/CNPJ ("" when the charge names no debtor)."""
        devedor = self.charge.devedor
        return (devedor.cpf or devedor.cnpj or "") if devedor is not None else ""

    @property
    def debtor_text(self) -> str:
        """Name and document masked as the service masks it for review screens."""
        masked = masked_debtor(self.charge.devedor) or ""
        return " — ".join(part for part in (self.debtor_name, masked) if part)

    def sort_key(self, column: Column) -> Any:
        if column == Column.CREATED:
            return self.created or dt.datetime.min.replace(tzinfo=dt.UTC)
        if column == Column.AMOUNT:
            return self.amount
        if column == Column.KIND:
            return self.kind
        if column == Column.DEBTOR:
            return self.debtor_name.casefold()
        if column == Column.STATUS:
            return self.status
        return self.txid


class ChargesModel(QAbstractTableModel):
    """The charges of one load, newest first. :meth:`set_rows` replaces them all (one reset,
    never one signal per row); :meth:`upsert` replaces or adds one after a change."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[ChargeRow] = []
        self._headers = {
            Column.CREATED: self.tr("Created"),
            Column.TXID: self.tr("txid"),
            Column.KIND: self.tr("Kind"),
            Column.DEBTOR: self.tr("Debtor"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
        }

    # -- content ---------------------------------------------------------------------------------

    def set_rows(self, rows: list[ChargeRow]) -> None:
        self.beginResetModel()
        self._rows = sorted(rows, key=lambda r: r.sort_key(Column.CREATED), reverse=True)
        self.endResetModel()

    def upsert(self, row: ChargeRow) -> None:
        found = self.row_of(row.txid)
        if found is None:
            self.beginInsertRows(QModelIndex(), 0, 0)
            self._rows.insert(0, row)
            self.endInsertRows()
            return
        self._rows[found] = row
        self.dataChanged.emit(self.index(found, 0), self.index(found, len(Column) - 1))

    def row_at(self, row: int) -> ChargeRow:
        return self._rows[row]

    def row_of(self, txid: str) -> int | None:
        for number, row in enumerate(self._rows):
            if row.txid == txid:
                return number
        return None

    def rows(self) -> list[ChargeRow]:
        return list(self._rows)

    def kind_text(self, kind: str) -> str:
        return self.tr("Immediate (cob)") if kind == "cob" else self.tr("Due date (cobv)")

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008
        return 0 if parent.isValid() else len(Column)

    def headerData(  # noqa: N802
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
        if role == Qt.ItemDataRole.TextAlignmentRole and column == Column.AMOUNT:
            return Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.STATUS:
            return row.status
        if role == CHARGE_ROLE:
            return row
        return None

    def _text(self, row: ChargeRow, column: Column) -> str:
        if column == Column.CREATED:
            return format_moment(row.created)
        if column == Column.TXID:
            return row.txid
        if column == Column.KIND:
            return self.kind_text(row.kind)
        if column == Column.DEBTOR:
            return row.debtor_text
        if column == Column.AMOUNT:
            return format_brl(row.amount)
        return status_text(row.status)


class ChargesFilter(QSortFilterProxyModel):
    """Rows of a :class:`ChargesModel` of one status and kind (``None``: any), whose debtor's
    CPF/CNPJ contains the digits typed, and whose txid, debtor, text for the payer or amount
    contains the free text. Sorts by the values themselves (dates, ``Decimal`` amounts)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setDynamicSortFilter(True)
        self._status: str | None = None
        self._kind: str | None = None
        self._document = ""
        self._text = ""

    def set_status(self, status: str | None) -> None:
        self._refilter("_status", status or None)

    def set_kind(self, kind: str | None) -> None:
        self._refilter("_kind", kind or None)

    def set_document(self, document: str) -> None:
        self._refilter("_document", _NOT_DOCUMENT.sub("", document or ""))

    def set_text(self, text: str) -> None:
        self._refilter("_text", (text or "").strip().casefold())

    def _refilter(self, name: str, value: Any) -> None:
        self.beginFilterChange()
        setattr(self, name, value)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def charge(self, row: int) -> ChargeRow:
        charge: ChargeRow = self.index(row, 0).data(CHARGE_ROLE)
        return charge

    def row_of(self, txid: str) -> int | None:
        for row in range(self.rowCount()):
            if self.charge(row).txid == txid:
                return row
        return None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:  # noqa: N802
        row: ChargeRow | None = (
            self.sourceModel().index(source_row, 0, source_parent).data(CHARGE_ROLE)
        )
        if row is None:
            return False
        if self._status is not None and row.status != self._status:
            return False
        if self._kind is not None and row.kind != self._kind:
            return False
        if self._document and self._document not in row.debtor_document:
            return False
        return not self._text or self._text in _searchable(row)

    def lessThan(self, left: _Index, right: _Index) -> bool:  # noqa: N802
        column = Column(left.column())
        a: ChargeRow = self.sourceModel().index(left.row(), 0).data(CHARGE_ROLE)
        b: ChargeRow = self.sourceModel().index(right.row(), 0).data(CHARGE_ROLE)
        result: bool = a.sort_key(column) < b.sort_key(column)
        return result


def _searchable(row: ChargeRow) -> str:
    parts = (
        row.txid,
        row.debtor_name,
        row.charge.solicitacao_pagador or "",
        format_brl(row.amount),
    )
    return " ".join(parts).casefold()
