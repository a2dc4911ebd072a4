"""The payee registry's words (issue 36): a destination's state, a change's action and
outcome, a batch row's status against the registry — one catalogue, context ``PayeeWords``."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.banks import BankTable
from treasury_app.domain.documents import format_cnpj, format_cpf
from treasury_app.domain.payees import Destination, DestinationKind
from treasury_app.ui.bank_names import account_text

__all__ = [
    "action_word",
    "destination_text",
    "document_text",
    "kind_word",
    "outcome_word",
    "row_status_word",
    "state_word",
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
