"""The members of a batch of charges with a due date (``lotecobv``) as a Qt table: every line of
the file with its errors marked in place before sending, each member's status and ``problema``
after; and :class:`BatchListModel`, the batches created in a date range."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import IntEnum
from typing import Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QBrush, QPalette

from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import BatchRowError, BatchStatus
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.rows_model import (
    ROW_ROLE,
    Index,
    RowsFilter,
    RowsTableModel,
)
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import tint, tinted_text
from treasury_app.ui.times import format_date, instant_or_empty

__all__ = [
    "MEMBER_ROLE",
    "BatchListModel",
    "ChargeBatchModel",
    "Column",
    "ErrorsOnlyFilter",
    "MemberRow",
]

_BASE = QPalette.ColorRole.Base  # rows are painted on the view's base colour

MEMBER_ROLE = ROW_ROLE
_REFUSED = "NEGADA"


class Column(IntEnum):
    LINE = 0
    TXID = 1
    NAME = 2
    DOCUMENT = 3
    AMOUNT = 4
    DUE_DATE = 5
    DESCRIPTION = 6
    STATUS = 7
    PROBLEM = 8


# The file's column each table column shows: an error on that file column marks that cell.
_FILE_COLUMNS = {
    "txid": Column.TXID,
    "nome": Column.NAME,
    "cpf_cnpj": Column.DOCUMENT,
    "valor": Column.AMOUNT,
    "vencimento": Column.DUE_DATE,
    "descricao": Column.DESCRIPTION,
}


@dataclass(frozen=True)
class MemberRow:
    """One line of a batch file, or one member of a batch read from the bank.

    ``cells`` holds the text as typed (shown for a line that could not be read); ``errors`` are
    the local checks' complaints (nothing is sent while any line has one); ``status`` and
    ``problema`` are the bank's, once the batch exists."""

    txid: str = ""
    line: int | None = None
    name: str = ""
    document: str = ""
    amount: Decimal | None = None
    due_date: dt.date | None = None
    description: str | None = None
    cells: Mapping[str, str] | None = None
    errors: tuple[BatchRowError, ...] = ()
    status: str | None = None
    problema: str | None = None

    @property
    def bad(self) -> bool:
        return bool(self.errors) or self.status == _REFUSED

    def error_for(self, column: Column) -> str | None:
        messages = [
            rule_text(e.reason)
            for e in self.errors
            if _FILE_COLUMNS.get(e.column) == column
            or (column == Column.PROBLEM and e.column not in _FILE_COLUMNS)
        ]
        return "\n".join(messages) or None


def _masked(document: str) -> str:
    with contextlib.suppress(DomainError):
        return mask_document(document)
    return document


class ChargeBatchModel(RowsTableModel[MemberRow]):
    """Members of one batch (or lines of one file), in file order. Replaced as a whole by
    :meth:`set_members`; the bank's answers update rows in place (:meth:`apply_status`)."""

    right_aligned = (Column.LINE, Column.AMOUNT)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._by_txid: dict[str, int] = {}

    def headers(self) -> dict[Column, str]:
        return {
            Column.LINE: self.tr("Line"),
            Column.TXID: self.tr("txid"),
            Column.NAME: self.tr("Debtor"),
            Column.DOCUMENT: self.tr("CPF/CNPJ"),
            Column.AMOUNT: self.tr("Amount"),
            Column.DUE_DATE: self.tr("Due date"),
            Column.DESCRIPTION: self.tr("Description"),
            Column.STATUS: self.tr("Status"),
            Column.PROBLEM: self.tr("Problem"),
        }

    # -- content ---------------------------------------------------------------------------------

    @property
    def members(self) -> tuple[MemberRow, ...]:
        return tuple(self._rows)

    def member(self, row: int) -> MemberRow:
        return self._rows[row]

    def key(self, row: MemberRow) -> str:
        return row.txid

    def row_of(self, txid: str) -> int | None:
        return self._by_txid.get(txid)

    def set_members(self, members: Iterable[MemberRow]) -> None:
        self.beginResetModel()
        self._rows = list(members)
        self._index_txids()
        self.endResetModel()

    def set_txids(self, txids: Mapping[int, str]) -> None:
        """Show the txid chosen for each file line (``{line: txid}``)."""
        self._rows = [
            replace(r, txid=txids[r.line]) if r.line is not None and r.line in txids else r
            for r in self._rows
        ]
        self._index_txids()
        self._changed_all()

    def apply_status(self, status: BatchStatus) -> None:
        """Each member's status, ``problema``, amount and debtor from the bank's answer; a
        member the table does not have yet is added at the end."""
        added: list[MemberRow] = []
        for member in status.members:
            row = self._by_txid.get(member.txid)
            if row is None:
                added.append(
                    MemberRow(
                        txid=member.txid,
                        line=member.line,
                        name=member.debtor_name or "",
                        amount=member.amount,
                        status=member.status,
                        problema=member.problema,
                    )
                )
                continue
            current = self._rows[row]
            self._rows[row] = replace(
                current,
                status=member.status,
                problema=member.problema,
                amount=member.amount if member.amount is not None else current.amount,
                name=member.debtor_name or current.name,
            )
        if added:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(added) - 1)
            self._rows.extend(added)
            self._index_txids()
            self.endInsertRows()
        self._changed_all()

    def update_member(self, txid: str, **changes: Any) -> None:
        """Change one member's shown fields (``due_date=``, ``amount=``, ``document=``…)."""
        row = self._by_txid.get(txid)
        if row is None:
            return
        self._rows[row] = replace(self._rows[row], **changes)
        self.row_changed(row)

    def bad_rows(self) -> list[int]:
        return [i for i, r in enumerate(self._rows) if r.bad]

    def _index_txids(self) -> None:
        self._by_txid = {r.txid: i for i, r in enumerate(self._rows) if r.txid}

    def _changed_all(self) -> None:
        if self._rows:
            last = self.index(len(self._rows) - 1, len(Column) - 1)
            self.dataChanged.emit(self.index(0, 0), last)

    # -- texts -----------------------------------------------------------------------------------

    def text(self, member: MemberRow, column: Column) -> str:
        cells = member.cells or {}
        if column == Column.LINE:
            return "" if member.line is None else str(member.line)
        if column == Column.TXID:
            if member.txid:
                return member.txid
            return cells.get("txid", "") or ("" if member.errors else self.tr("(generated)"))
        if column == Column.NAME:
            return member.name or cells.get("nome", "")
        if column == Column.DOCUMENT:
            return _masked(member.document) if member.document else cells.get("cpf_cnpj", "")
        if column == Column.AMOUNT:
            return (
                format_brl(member.amount) if member.amount is not None else cells.get("valor", "")
            )
        if column == Column.DUE_DATE:
            if member.due_date is not None:
                return format_date(member.due_date)
            return cells.get("vencimento", "")
        if column == Column.DESCRIPTION:
            return member.description or cells.get("descricao", "")
        if column == Column.STATUS:
            if member.status:
                return code_word(Family.BATCH_MEMBER_STATUS, member.status)
            return self.tr("Error") if member.errors else self.tr("OK")
        if member.errors:
            return "; ".join(
                f"{e.column}: {rule_text(e.reason)}" if e.column else rule_text(e.reason)
                for e in member.errors
            )
        return member.problema or ""

    def role_data(self, member: MemberRow, column: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == Column.PROBLEM:
            return self.text(member, column) or None  # the whole reason, however narrow
        if not member.bad:
            return None
        error = member.error_for(column)
        if role == Qt.ItemDataRole.BackgroundRole:
            return QBrush(tint("error", on=_BASE, amount=0.32 if error else 0.14))
        if role == Qt.ItemDataRole.ForegroundRole and (error or column == Column.PROBLEM):
            return QBrush(tinted_text("error", on=_BASE, amount=0.32))
        if role == Qt.ItemDataRole.ToolTipRole:
            return error or member.problema
        return None


class ErrorsOnlyFilter(RowsFilter[MemberRow]):
    """All rows, or (:meth:`set_errors_only`) only the lines with errors and refused members:
    in a file of 1,000 lines, the handful to fix."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._errors_only = False

    @property
    def errors_only(self) -> bool:
        return self._errors_only

    def set_errors_only(self, on: bool) -> None:
        self.refilter("_errors_only", on)

    def member(self, row: int) -> MemberRow:
        return self.row_value(row)

    def filterAcceptsRow(self, source_row: int, source_parent: Index) -> bool:  # noqa: N802
        if not self._errors_only:
            return True
        member = self.source_value(source_row, source_parent)
        return member is not None and member.bad


@dataclass(frozen=True)
class BatchSummary:
    """One batch of a list: its id, description, creation and number of charges."""

    batch_id: str
    description: str | None
    created_at: dt.datetime | None
    count: int | None


class _BatchColumn(IntEnum):
    ID = 0
    CREATED = 1
    COUNT = 2
    DESCRIPTION = 3


class BatchListModel(RowsTableModel[BatchSummary]):
    """The batches of a date range, newest first."""

    def headers(self) -> dict[_BatchColumn, str]:
        return {
            _BatchColumn.ID: self.tr("Batch id"),
            _BatchColumn.CREATED: self.tr("Created"),
            _BatchColumn.COUNT: self.tr("Charges"),
            _BatchColumn.DESCRIPTION: self.tr("Description"),
        }

    def key(self, row: BatchSummary) -> str:
        return row.batch_id

    def set_batches(self, batches: Sequence[BatchSummary]) -> None:
        self.reset_rows(
            sorted(
                batches,
                key=lambda b: b.created_at or dt.datetime.min.replace(tzinfo=dt.UTC),
                reverse=True,
            )
        )

    def batch(self, row: int) -> BatchSummary:
        return self.row_at(row)

    def text(self, summary: BatchSummary, column: _BatchColumn) -> str:
        if column == _BatchColumn.ID:
            return summary.batch_id
        if column == _BatchColumn.CREATED:
            return instant_or_empty(summary.created_at)
        if column == _BatchColumn.COUNT:
            return "" if summary.count is None else str(summary.count)
        return summary.description or ""
