"""The payee registry's three lists (issue 36): payees, one payee's destinations, and the
changes of where money goes (a payee's history, or the team's changes waiting for approval).
Kept in one module: they are read together by one tab and share its words."""

from __future__ import annotations

from collections.abc import Mapping
from enum import IntEnum
from typing import Any

from treasury_app.domain.money import format_brl
from treasury_app.domain.payees import Destination, Payee, RegistryChange
from treasury_app.ledger.journal import Entry
from treasury_app.ui.models.rows_model import RowsTableModel
from treasury_app.ui.payee_words import (
    action_word,
    destination_text,
    document_text,
    kind_word,
    outcome_word,
    payment_state_word,
    state_word,
)
from treasury_app.ui.times import instant_or_empty

__all__ = ["ChangesModel", "DestinationsModel", "PayeePaymentsModel", "PayeesModel"]


class PayeeColumn(IntEnum):
    NAME = 0
    DOCUMENT = 1
    TAGS = 2


class PayeesModel(RowsTableModel[Payee]):
    def headers(self) -> Mapping[Any, str]:
        return {
            PayeeColumn.NAME: self.tr("Name"),
            PayeeColumn.DOCUMENT: self.tr("CPF / CNPJ"),
            PayeeColumn.TAGS: self.tr("Tags"),
        }

    def key(self, row: Payee) -> Any:
        return row.id

    def text(self, row: Payee, column: Any) -> str:
        if column == PayeeColumn.NAME:
            return row.name
        if column == PayeeColumn.DOCUMENT:
            return document_text(row.document)
        return ", ".join(row.tags)


class DestinationColumn(IntEnum):
    KIND = 0
    DETAIL = 1
    STATE = 2
    CHANGED = 3


class DestinationsModel(RowsTableModel[Destination]):
    def headers(self) -> Mapping[Any, str]:
        return {
            DestinationColumn.KIND: self.tr("Kind"),
            DestinationColumn.DETAIL: self.tr("Key or account"),
            DestinationColumn.STATE: self.tr("State"),
            DestinationColumn.CHANGED: self.tr("Last change"),
        }

    def key(self, row: Destination) -> Any:
        return row.id

    def text(self, row: Destination, column: Any) -> str:
        if column == DestinationColumn.KIND:
            return kind_word(row.kind.value)
        if column == DestinationColumn.DETAIL:
            return destination_text(row)
        if column == DestinationColumn.STATE:
            return state_word(row.state.value)
        if row.changed_at is None:
            return ""
        by = row.changed_by + (f" / {row.approved_by}" if row.approved_by else "")
        return f"{instant_or_empty(row.changed_at)} ({by})"


class ChangeColumn(IntEnum):
    WHAT = 0
    DETAIL = 1
    BY = 2
    AT = 3
    OUTCOME = 4


class ChangesModel(RowsTableModel[RegistryChange]):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.payee_names: dict[int, str] = {}
        self.destination_details: dict[int, str] = {}
        """Destination id → its key or account: what a change that proposes nothing (the
        bank's verification, a mismatch, a block) was about."""

    def headers(self) -> Mapping[Any, str]:
        return {
            ChangeColumn.WHAT: self.tr("Change"),
            ChangeColumn.DETAIL: self.tr("Payee and destination"),
            ChangeColumn.BY: self.tr("By"),
            ChangeColumn.AT: self.tr("When"),
            ChangeColumn.OUTCOME: self.tr("Outcome"),
        }

    def key(self, row: RegistryChange) -> Any:
        return row.id

    def text(self, row: RegistryChange, column: Any) -> str:
        if column == ChangeColumn.WHAT:
            return action_word(row.action)
        if column == ChangeColumn.DETAIL:
            if row.proposed is not None:
                detail = row.proposed.detail
            else:
                detail = self.destination_details.get(row.destination_id or -1, "")
            name = self.payee_names.get(row.payee_id, "")
            return f"{name} — {detail}" if name else detail
        if column == ChangeColumn.BY:
            return row.prepared_by
        if column == ChangeColumn.AT:
            return instant_or_empty(row.prepared_at)
        word = outcome_word(row.outcome)
        return f"{word} ({row.decided_by})" if row.decided_by and row.outcome != "DONE" else word


class PaymentColumn(IntEnum):
    WHEN = 0
    AMOUNT = 1
    DETAIL = 2
    STATE = 3
    DESCRIPTION = 4


class PayeePaymentsModel(RowsTableModel[Entry]):
    """A payee's payments, newest first (their history, their statement of account)."""

    right_aligned = (PaymentColumn.AMOUNT,)

    def headers(self) -> Mapping[Any, str]:
        return {
            PaymentColumn.WHEN: self.tr("When"),
            PaymentColumn.AMOUNT: self.tr("Amount"),
            PaymentColumn.DETAIL: self.tr("Paid to"),
            PaymentColumn.STATE: self.tr("State"),
            PaymentColumn.DESCRIPTION: self.tr("Description"),
        }

    def key(self, row: Entry) -> Any:
        return row.id

    def text(self, row: Entry, column: Any) -> str:
        if column == PaymentColumn.WHEN:
            return instant_or_empty(row.created_at)
        if column == PaymentColumn.AMOUNT:
            return format_brl(row.amount)
        if column == PaymentColumn.DETAIL:
            return row.payee_detail
        if column == PaymentColumn.STATE:
            return payment_state_word(row)
        return row.description
