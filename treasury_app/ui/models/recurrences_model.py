"""The recurrences (Pix Automático ``rec``) the bank lists as a Qt table
(:class:`RecurrencesModel`), the quick text filter over it (:class:`RecurrencesFilter`) and
:class:`RecQuery`, the filters of ``GET /rec`` the list asks the bank with."""

from __future__ import annotations

import contextlib
import datetime as dt
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Qt

from treasury_app.api.qrcodes.automatico_models import Encerramento, RecCompleta
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
    "closing_note",
    "closing_text",
    "debtor_document",
    "enum_text",
    "journey_text",
    "status_and_closing",
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


_BANKS_WORDS = QT_TRANSLATE_NOOP("RecurrencesModel", "The bank's description: %1")


def closing_text(encerramento: Encerramento | None, *, charge: bool = False) -> str:
    """Why a recurrence (a recurring charge or one of its attempts with ``charge``) ended, in
    words: its rejection (``AP13``: "Refused by the payer") or its cancellation with who asked
    for it ("At the receiver's request (cancelled by us)"); ``""`` while it has not ended."""
    if encerramento is None:
        return ""
    rejection, cancellation = encerramento.rejeicao, encerramento.cancelamento
    if rejection is not None and rejection.codigo:
        return code_word(
            Family.COBR_REJECTION if charge else Family.REC_REJECTION, rejection.codigo
        )
    if cancellation is None or not cancellation.codigo:
        return ""
    family = Family.COBR_CANCELLATION if charge else Family.REC_CANCELLATION
    reason = code_word(family, cancellation.codigo)
    if not cancellation.solicitante:
        return reason
    return f"{reason} ({code_word(Family.CANCELLATION_REQUESTER, cancellation.solicitante)})"


def closing_note(encerramento: Encerramento | None) -> str:
    """The bank's own description of the ending (free text, in the bank's language), for a
    tooltip next to :func:`closing_text`; ``""`` when it gave none."""
    if encerramento is None:
        return ""
    ended = encerramento.rejeicao or encerramento.cancelamento
    description = (ended.descricao or "").strip() if ended is not None else ""
    if not description:
        return ""
    return QCoreApplication.translate("RecurrencesModel", _BANKS_WORDS).replace("%1", description)


def status_and_closing(status: str, closing: str) -> str:
    """A status word followed by why it ended ("Cancelled — At the receiver's request (...)"),
    the status alone when the reason says nothing more."""
    return f"{status} — {closing}" if closing and closing != status else status


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

    def role_data(self, rec: RecCompleta, column: Column, role: int) -> Any:
        # Why an ended recurrence ended, where its status is read.
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.STATUS:
            closing = closing_text(rec.encerramento)
            return closing or None
        return None


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
