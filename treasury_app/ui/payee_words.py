"""The payee registry's words (issue 36): a destination's state, a change's action and
outcome, a batch row's status against the registry — one catalogue, context ``PayeeWords``."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.banks import BankTable
from treasury_app.domain.clock import format_date
from treasury_app.domain.documents import format_cnpj, format_cpf
from treasury_app.domain.payees import Destination, DestinationKind
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.services.payee_statement import StatementWords
from treasury_app.ui.bank_names import account_text
from treasury_app.ui.status_words import status_word

__all__ = [
    "action_word",
    "destination_text",
    "document_text",
    "kind_word",
    "outcome_word",
    "payment_state_word",
    "row_status_word",
    "state_word",
    "statement_words",
]

CONTEXT = "PayeeWords"

STATES = {
    "new": QT_TRANSLATE_NOOP("PayeeWords", "New"),
    "verified": QT_TRANSLATE_NOOP("PayeeWords", "Verified"),
    "changed": QT_TRANSLATE_NOOP("PayeeWords", "Changed"),
    "blocked": QT_TRANSLATE_NOOP("PayeeWords", "Blocked"),
}
ACTIONS = {
    "add": QT_TRANSLATE_NOOP("PayeeWords", "Destination added"),
    "change": QT_TRANSLATE_NOOP("PayeeWords", "Destination changed"),
    "unblock": QT_TRANSLATE_NOOP("PayeeWords", "Destination unblocked"),
    "block": QT_TRANSLATE_NOOP("PayeeWords", "Destination blocked"),
    "verified": QT_TRANSLATE_NOOP("PayeeWords", "Confirmed by the bank"),
    "mismatch": QT_TRANSLATE_NOOP("PayeeWords", "The bank named someone else"),
}
OUTCOMES = {
    "WAITING": QT_TRANSLATE_NOOP("PayeeWords", "Waiting for approval"),
    "APPROVED": QT_TRANSLATE_NOOP("PayeeWords", "Approved"),
    "REJECTED": QT_TRANSLATE_NOOP("PayeeWords", "Rejected"),
    "WITHDRAWN": QT_TRANSLATE_NOOP("PayeeWords", "Withdrawn"),
    "DONE": QT_TRANSLATE_NOOP("PayeeWords", "Done"),
}
ROW_STATUSES = {
    "verified": QT_TRANSLATE_NOOP("PayeeWords", "Known and verified"),
    "new": QT_TRANSLATE_NOOP("PayeeWords", "New destination"),
    "changed": QT_TRANSLATE_NOOP("PayeeWords", "Changed since confirmed"),
    "recent": QT_TRANSLATE_NOOP("PayeeWords", "Changed recently"),
    "blocked": QT_TRANSLATE_NOOP("PayeeWords", "Blocked"),
    "other": QT_TRANSLATE_NOOP("PayeeWords", "Registered to another payee"),
    "unknown": QT_TRANSLATE_NOOP("PayeeWords", "Unknown"),
}
KINDS = {
    "PIX_KEY": QT_TRANSLATE_NOOP("PayeeWords", "Pix key"),
    "ACCOUNT": QT_TRANSLATE_NOOP("PayeeWords", "Bank account"),
}


def _tr(source: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(source))


def state_word(state: str) -> str:
    return _tr(STATES.get(state, state))


def action_word(action: str) -> str:
    return _tr(ACTIONS.get(action, action))


def outcome_word(outcome: str) -> str:
    return _tr(OUTCOMES.get(outcome, outcome))


def row_status_word(status: str) -> str:
    return _tr(ROW_STATUSES.get(status, status))


def kind_word(kind: str) -> str:
    return _tr(KINDS.get(kind, kind))


def document_text(document: str) -> str:
    """A payee's CPF or CNPJ as people write it."""
    try:
        return format_cpf(document) if len(document) == 11 else format_cnpj(document)
    except ValueError:
        return document


def destination_text(destination: Destination, table: BankTable | None = None) -> str:
    """A key as it is; an account with its bank's name, branch and number."""
    draft = destination.draft
    if draft.kind is DestinationKind.ACCOUNT and draft.ispb:
        return account_text(draft.ispb, draft.branch or "", draft.account or "")
    return draft.detail


def payment_state_word(entry: Entry) -> str:
    """A payment's state in the payee's history and statement: the bank's word once it
    answered, "Settled" once the payment is."""
    if entry.state is EntryState.ACCEPTED or not entry.bank_status:
        return status_word(entry.state.value)
    return status_word(entry.bank_status)


STATEMENT_COLUMNS = {
    "date": QT_TRANSLATE_NOOP("PayeeWords", "Date and time"),
    "amount": QT_TRANSLATE_NOOP("PayeeWords", "Amount"),
    "destination": QT_TRANSLATE_NOOP("PayeeWords", "Paid to"),
    "state": QT_TRANSLATE_NOOP("PayeeWords", "State"),
    "description": QT_TRANSLATE_NOOP("PayeeWords", "Description"),
    "end_to_end_id": QT_TRANSLATE_NOOP("PayeeWords", "endToEndId"),
    "reference": QT_TRANSLATE_NOOP("PayeeWords", "Our reference"),
    "receipt": QT_TRANSLATE_NOOP("PayeeWords", "Receipt"),
}
STATEMENT_LABELS = {
    "title": QT_TRANSLATE_NOOP("PayeeWords", "Statement of account"),
    "payee": QT_TRANSLATE_NOOP("PayeeWords", "Payee"),
    "document": QT_TRANSLATE_NOOP("PayeeWords", "CPF/CNPJ"),
    "period": QT_TRANSLATE_NOOP("PayeeWords", "Period"),
    "made_at": QT_TRANSLATE_NOOP("PayeeWords", "Made on"),
    "payments": QT_TRANSLATE_NOOP("PayeeWords", "Payments"),
    "settled": QT_TRANSLATE_NOOP("PayeeWords", "Total settled"),
    "on_its_way": QT_TRANSLATE_NOOP("PayeeWords", "Total on its way"),
    "receipts": QT_TRANSLATE_NOOP("PayeeWords", "Receipts"),
}


PERIODS = {
    "between": QT_TRANSLATE_NOOP("PayeeWords", "%1 to %2"),
    "from": QT_TRANSLATE_NOOP("PayeeWords", "from %1"),
    "until": QT_TRANSLATE_NOOP("PayeeWords", "until %1"),
    "every": QT_TRANSLATE_NOOP("PayeeWords", "every payment"),
}


def period_text(start: dt.date | None, end: dt.date | None) -> str:
    """A statement's period: "01/11/2026 to 30/11/2026", "from …", "until …", "every"."""
    if start is not None and end is not None:
        text = _tr(PERIODS["between"]).replace("%2", format_date(end))
    elif start is not None:
        text = _tr(PERIODS["from"])
    elif end is not None:
        return _tr(PERIODS["until"]).replace("%1", format_date(end))
    else:
        return _tr(PERIODS["every"])
    return text.replace("%1", format_date(start))


def statement_words(
    destinations: Iterable[Destination], table: BankTable | None = None
) -> StatementWords:
    """The words of a statement of account's file, in the UI's language; an account paid is
    written as the registry words it (its bank's name, branch, account)."""
    known = {d.detail: destination_text(d, table) for d in destinations}
    return StatementWords(
        columns={code: _tr(source) for code, source in STATEMENT_COLUMNS.items()},
        labels={code: _tr(source) for code, source in STATEMENT_LABELS.items()},
        state=payment_state_word,
        destination=lambda detail: known.get(detail, detail),
        period=period_text,
    )
