"""The Pix received in a date range as a Qt table (:class:`ReceivedPixModel`), with what was
refunded of each so far, and :class:`ReceivedPixFilter` for free-text search and sorting."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QObject, Qt

from treasury_app.api.qrcodes.cashin_models import Devolucao, DevolucaoStatus, Pix
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.rows_model import (
    ROW_ROLE,
    Index,
    RowsTableModel,
    SortKeyFilter,
)
from treasury_app.ui.times import InstantForm, instant_or_empty

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

PIX_ROLE = ROW_ROLE


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
    """A refund's status as a person reads it (:mod:`treasury_app.ui.code_words`)."""
    return code_word(Family.REFUND_STATUS, status)


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


class ReceivedPixModel(RowsTableModel[PixRow]):
    """The Pix of one load, newest first; :meth:`upsert` replaces one after a refund."""

    right_aligned = (Column.AMOUNT, Column.REFUNDED)

    def headers(self) -> dict[Column, str]:
        return {
            Column.TIME: self.tr("Received"),
            Column.END_TO_END_ID: self.tr("endToEndId"),
            Column.TXID: self.tr("txid"),
            Column.PAYER: self.tr("Payer"),
            Column.AMOUNT: self.tr("Amount"),
            Column.REFUNDED: self.tr("Refunded"),
            Column.REFUND_STATUS: self.tr("Last refund"),
        }

    def key(self, row: PixRow) -> str:
        return row.end_to_end_id

    def set_pix(self, items: list[Pix], payers: Mapping[str, Payer] | None = None) -> None:
        """Show ``items``; ``payers`` maps an endToEndId to who sent it."""
        payers = payers or {}
        rows = (PixRow(p, payers.get(p.end_to_end_id)) for p in items)
        self.reset_rows(sorted(rows, key=lambda r: r.pix.horario, reverse=True))

    def upsert(self, pix: Pix) -> None:  # type: ignore[override]
        """Replace the row of ``pix`` (keeping its payer) or add it first."""
        found = self.row_of(pix.end_to_end_id)
        super().upsert(PixRow(pix, self._rows[found].payer if found is not None else None))

    def text(self, row: PixRow, column: Column) -> str:
        pix = row.pix
        if column == Column.TIME:
            return instant_or_empty(pix.horario, InstantForm.SECONDS)
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

    def role_data(self, row: PixRow, column: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.PAYER:
            return row.pix.info_pagador
        return None


class ReceivedPixFilter(SortKeyFilter[PixRow]):
    """Free-text search over endToEndId, txid, payer and amount; sorts by the values."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text = ""

    def set_text(self, text: str) -> None:
        self.refilter("_text", (text or "").strip().casefold())

    def pix_row(self, row: int) -> PixRow:
        return self.row_value(row)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        row = self.source_value(source_row, source_parent)
        if row is None:
            return False
        if not self._text:
            return True
        pix = row.pix
        haystack = " ".join(
            (pix.end_to_end_id, pix.txid or "", row.payer_text, format_brl(pix.valor))
        )
        return self._text in haystack.casefold()
