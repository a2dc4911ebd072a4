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

from PySide6.QtCore import QObject, Qt

from treasury_app.api.qrcodes.cashin_models import CobCompleta, CobStatus, CobVCompleta
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import masked_debtor
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.rows_model import (
    ROW_ROLE,
    Index,
    RowsTableModel,
    SortKeyFilter,
)
from treasury_app.ui.times import instant_or_empty

__all__ = [
    "CHARGE_ROLE",
    "ChargeKind",
    "ChargeRow",
    "ChargesFilter",
    "ChargesModel",
    "Column",
    "status_text",
]

ChargeKind = Literal["cob", "cobv"]
CHARGE_ROLE = ROW_ROLE
_NOT_DOCUMENT = re.compile(r"[^0-9A-Za-z]")


class Column(IntEnum):
    CREATED = 0
    TXID = 1
    KIND = 2
    DEBTOR = 3
    AMOUNT = 4
    STATUS = 5


def status_text(status: str) -> str:
    """A charge's status as a person reads it (:mod:`treasury_app.ui.code_words`)."""
    return code_word(Family.COB_STATUS, status)


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


class ChargesModel(RowsTableModel[ChargeRow]):
    """The charges of one load, newest first. :meth:`set_rows` replaces them all (one reset,
    never one signal per row); :meth:`upsert` replaces or adds one after a change."""

    right_aligned = (Column.AMOUNT,)

    def headers(self) -> dict[Column, str]:
        return {
            Column.CREATED: self.tr("Created"),
            Column.TXID: self.tr("txid"),
            Column.KIND: self.tr("Kind"),
            Column.DEBTOR: self.tr("Debtor"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
        }

    def key(self, row: ChargeRow) -> str:
        return row.txid

    def set_rows(self, rows: list[ChargeRow]) -> None:
        self.reset_rows(sorted(rows, key=lambda r: r.sort_key(Column.CREATED), reverse=True))

    def kind_text(self, kind: str) -> str:
        return self.tr("Immediate (cob)") if kind == "cob" else self.tr("Due date (cobv)")

    def text(self, row: ChargeRow, column: Column) -> str:
        if column == Column.CREATED:
            return instant_or_empty(row.created)
        if column == Column.TXID:
            return row.txid
        if column == Column.KIND:
            return self.kind_text(row.kind)
        if column == Column.DEBTOR:
            return row.debtor_text
        if column == Column.AMOUNT:
            return format_brl(row.amount)
        return status_text(row.status)

    def role_data(self, row: ChargeRow, column: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.STATUS:
            return row.status
        return None


class ChargesFilter(SortKeyFilter[ChargeRow]):
    """Rows of a :class:`ChargesModel` of one status and kind (``None``: any), whose debtor's
    CPF/CNPJ contains the digits typed, and whose txid, debtor, text for the payer or amount
    contains the free text. Sorts by the values themselves (dates, ``Decimal`` amounts)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._status: str | None = None
        self._kind: str | None = None
        self._document = ""
        self._text = ""

    def set_status(self, status: str | None) -> None:
        self.refilter("_status", status or None)

    def set_kind(self, kind: str | None) -> None:
        self.refilter("_kind", kind or None)

    def set_document(self, document: str) -> None:
        self.refilter("_document", _NOT_DOCUMENT.sub("", document or ""))

    def set_text(self, text: str) -> None:
        self.refilter("_text", (text or "").strip().casefold())

    def charge(self, row: int) -> ChargeRow:
        return self.row_value(row)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        row = self.source_value(source_row, source_parent)
        if row is None:
            return False
        if self._status is not None and row.status != self._status:
            return False
        if self._kind is not None and row.kind != self._kind:
            return False
        if self._document and self._document not in row.debtor_document:
            return False
        return not self._text or self._text in _searchable(row)


def _searchable(row: ChargeRow) -> str:
    parts = (
        row.txid,
        row.debtor_name,
        row.charge.solicitacao_pagador or "",
        format_brl(row.amount),
    )
    return " ".join(parts).casefold()
