"""The recurrences (Pix Automático ``rec``) the bank lists as a Qt table
(:class:`RecurrencesModel`), the quick text filter over it (:class:`RecurrencesFilter`) and
:class:`RecQuery`, the filters of ``GET /rec`` the list asks the bank with."""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QObject

from treasury_app.api.qrcodes.automatico_models import RecCompleta
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.rows_model import ROW_ROLE, Index, RowsFilter, RowsTableModel

__all__ = [
    "REC_ROLE",
    "Column",
    "RecQuery",
    "RecurrencesFilter",
    "RecurrencesModel",
    "amount_text",
    "debtor_document",
    "enum_text",
    "journey_text",
]

REC_ROLE = ROW_ROLE


class Column(IntEnum):
    ID_REC = 0
    DEBTOR = 1
    CONTRACT = 2
    PERIODICITY = 3
    AMOUNT = 4
    STATUS = 5
    JOURNEY = 6


@dataclass(frozen=True)
class RecQuery:
    """The filters of ``GET /rec``: created between ``start`` and ``end`` (whole days in
    Brasília), optionally one status, one debtor's CPF or CNPJ (the bank takes one or the
    other), one ``convenio``, with or without a location."""

    start: dt.date
    end: dt.date
    status: str | None = None
    document: str | None = None
    convenio: str | None = None
    location_present: bool | None = None

    def as_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`RecurrencesService.iter_recs`."""
        return {
            "start": self.start,
            "end": self.end,
            "status": self.status,
            "document": self.document,
            "convenio": self.convenio,
            "location_present": self.location_present,
        }


def enum_text(value: Any) -> str:
    """An enum the bank answered (or a plain string it added later) as its wire value."""
    if value is None:
        return ""
    return str(getattr(value, "value", value))


def debtor_document(rec: RecCompleta) -> str:
    """The debtor's CPF or CNPJ, masked the way the app shows documents."""
    devedor = rec.vinculo.devedor
    document = devedor.cpf or devedor.cnpj or ""
    if not document:
        return ""
    with contextlib.suppress(DomainError):
        return mask_document(document)
    return document


def amount_text(rec: RecCompleta, minimum_label: str = "min.", free_label: str = "free") -> str:
    """The fixed amount (``valorRec``), the minimum (``valorMinimoRecebedor``) or neither."""
    valor = rec.valor
    if valor is not None and valor.valor_rec is not None:
        return format_brl(valor.valor_rec)
    if valor is not None and valor.valor_minimo_recebedor is not None:
        return f"{minimum_label} {format_brl(valor.valor_minimo_recebedor)}"
    return free_label


def journey_text(rec: RecCompleta) -> str:
    """The journey (``JORNADA_1`` … ``JORNADA_4``, ``AGUARDANDO_DEFINICAO`` until the bank
    knows) in words."""
    ativacao = rec.ativacao
    return code_word(Family.JOURNEY, ativacao.tipo_jornada) if ativacao is not None else ""


class RecurrencesModel(RowsTableModel[RecCompleta]):
    """Recurrences as the bank answered them, in the order given (``set_recs``); one row is
    replaced in place by :meth:`upsert` after a change."""

    right_aligned = (Column.AMOUNT,)

    def headers(self) -> dict[Column, str]:
        return {
            Column.ID_REC: self.tr("idRec"),
            Column.DEBTOR: self.tr("Debtor"),
            Column.CONTRACT: self.tr("Object / contract"),
            Column.PERIODICITY: self.tr("Periodicity"),
            Column.AMOUNT: self.tr("Amount"),
            Column.STATUS: self.tr("Status"),
            Column.JOURNEY: self.tr("Journey"),
        }

    def key(self, row: RecCompleta) -> str:
        return row.id_rec

    def set_recs(self, recs: list[RecCompleta]) -> None:
        self.reset_rows(recs)

    def rec(self, row: int) -> RecCompleta | None:
        return self.row_or_none(row)

    def recs(self) -> list[RecCompleta]:
        return self.rows()

    def text(self, rec: RecCompleta, column: Column) -> str:
        if column == Column.ID_REC:
            return rec.id_rec
        if column == Column.DEBTOR:
            document = debtor_document(rec)
            name = rec.vinculo.devedor.nome or ""
            return f"{name} ({document})" if document else name
        if column == Column.CONTRACT:
            objeto = rec.vinculo.objeto
            return f"{objeto} / {rec.vinculo.contrato}" if objeto else rec.vinculo.contrato
        if column == Column.PERIODICITY:
            return code_word(Family.PERIODICITY, rec.calendario.periodicidade)
        if column == Column.AMOUNT:
            return amount_text(rec, self.tr("min."), self.tr("free"))
        if column == Column.STATUS:
            return code_word(Family.REC_STATUS, rec.status)
        return journey_text(rec)


class RecurrencesFilter(RowsFilter[RecCompleta]):
    """Narrows the loaded recurrences by a text found in the idRec, the debtor or the
    object/contract (the bank's own filters are :class:`RecQuery`)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._text = ""

    def set_text(self, text: str) -> None:
        self.refilter("_text", text.strip().casefold())

    def rec(self, row: int) -> RecCompleta | None:
        index = self.index(row, 0)
        return self.data(index, REC_ROLE) if index.isValid() else None

    def row_of(self, id_rec: str) -> int | None:
        source = self.sourceModel()
        if not isinstance(source, RecurrencesModel):
            return None
        row = source.row_of(id_rec)
        if row is None:
            return None
        mapped = self.mapFromSource(source.index(row, 0))
        return mapped.row() if mapped.isValid() else None

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if not self._text:
            return True
        source = self.sourceModel()
        if not isinstance(source, RecurrencesModel):
            return True
        rec = source.rec(source_row)
        if rec is None:
            return False
        haystack = " ".join(
            source.text(rec, column) for column in (Column.ID_REC, Column.DEBTOR, Column.CONTRACT)
        )
        return self._text in haystack.casefold()
