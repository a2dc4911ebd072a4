"""The settlement attempts (``tentativas``) of one recurring charge (``cobr``) as a Qt table:
the scheduled one (AGND) and the retries (NTAG), with their status, settlement date and the
endToEndId of the Pix that settled them."""

from __future__ import annotations

from enum import IntEnum
from typing import Any

from PySide6.QtCore import Qt

from treasury_app.api.qrcodes.automatico_models import Encerramento, Tentativa
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.recurrences_model import closing_note, closing_text
from treasury_app.ui.models.rows_model import ROW_ROLE, RowsTableModel
from treasury_app.ui.times import format_date

__all__ = ["ATTEMPT_ROLE", "AttemptColumn", "CobrAttemptsModel"]

ATTEMPT_ROLE = ROW_ROLE


class AttemptColumn(IntEnum):
    TYPE = 0
    STATUS = 1
    SETTLEMENT_DATE = 2
    END_TO_END_ID = 3


class CobrAttemptsModel(RowsTableModel[Tentativa]):
    """The attempts in the bank's order (the first is the scheduled one)."""

    def headers(self) -> dict[AttemptColumn, str]:
        return {
            AttemptColumn.TYPE: self.tr("Type"),
            AttemptColumn.STATUS: self.tr("Status"),
            AttemptColumn.SETTLEMENT_DATE: self.tr("Settlement date"),
            AttemptColumn.END_TO_END_ID: self.tr("endToEndId"),
        }

    def set_attempts(self, attempts: list[Tentativa]) -> None:
        self.reset_rows(attempts)

    def attempt(self, row: int) -> Tentativa | None:
        return self.row_or_none(row)

    def text(self, attempt: Tentativa, column: AttemptColumn) -> str:
        if column == AttemptColumn.TYPE:
            return code_word(Family.ATTEMPT_KIND, attempt.tipo)
        if column == AttemptColumn.STATUS:
            return code_word(Family.ATTEMPT_STATUS, attempt.status)
        if column == AttemptColumn.SETTLEMENT_DATE:
            return format_date(attempt.data_liquidacao)
        return attempt.end_to_end_id or ""

    def role_data(self, attempt: Tentativa, column: AttemptColumn, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and attempt.rejeicao is not None:
            ended = Encerramento(rejeicao=attempt.rejeicao)  # why it was refused, in words
            return "\n".join(
                text for text in (closing_text(ended, charge=True), closing_note(ended)) if text
            )
        return None
