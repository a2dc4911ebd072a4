"""Why a payment did not happen, in the person's words: the bank's explanation of a refusal
without its HTTP status or the API's path, or a bank error code (``AM04``) as words.

The journal keeps the whole technical message (and the audit the request's path); a person
reads this."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.api.accounts.models import is_failed_status
from treasury_app.api.errors import refusal_reason
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import Reason
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.status_words import status_word, team_error_word

__all__ = [
    "creditor_mismatch",
    "error_words",
    "is_refused",
    "ledger_refusal_words",
    "refusal_reason_words",
    "refusal_words",
]

CONTEXT = "Refusals"

_BANK_CODES: dict[str, str] = {  # the bank's errorCode of a payment it accepted, then failed
    "AM04": QT_TRANSLATE_NOOP("Refusals", "insufficient funds"),
    "EXPIRED": QT_TRANSLATE_NOOP(
        "Refusals", "nobody approved it in the bank's console before it expired"
    ),
    "REJECTED_BY_APPROVER": QT_TRANSLATE_NOOP("Refusals", "rejected in the bank's console"),
}


def is_refused(entry: Entry) -> bool:
    """Whether the payment did not happen: refused when sent, or failed at the bank after."""
    return entry.state == EntryState.REJECTED or bool(
        entry.bank_status and is_failed_status(entry.bank_status)
    )


def refusal_reason_words(entry: Entry) -> str:
    """Only the reason ``entry`` was refused, in words ("" when it was not, or when the bank
    gave none): the bank's explanation, or its error code as words."""
    if not is_refused(entry):
        return ""
    if entry.state == EntryState.REJECTED:
        return team_error_word(entry.error) or refusal_reason(entry.error or "")
    code = (entry.error or "").strip()
    if not code:
        return ""
    words = _BANK_CODES.get(code)
    if words:
        return QCoreApplication.translate(CONTEXT, words)
    return QCoreApplication.translate("Refusals", "the bank's code %1").replace("%1", code)


def creditor_mismatch(entry: Entry) -> Reason | None:
    """A key payment the bank refused because the key is not the registered payee's: it was
    sent with a ``creditorDocument`` (the registry's, issue 36) and the bank answered 422
    about the document. The bank's own sentence is in the journal; a person reads this."""
    if entry.kind != EntryKind.PIX_KEY or entry.state != EntryState.REJECTED:
        return None
    error = (entry.error or "").strip()
    if not error.startswith("422") or "document" not in error.lower():
        return None
    try:
        document = str(entry.request().get("creditorDocument") or "")
    except (AssertionError, ValueError):
        return None
    if not document:
        return None
    try:
        shown = mask_document(document)
    except ValueError:
        shown = document
    return Reason("payout.creditor_mismatch", {"key": entry.payee_detail, "document": shown})


def refusal_words(entry: Entry) -> str:
    """Why ``entry`` was refused, as a sentence for the person ("" when it was not)."""
    if not is_refused(entry):
        return ""
    mismatch = creditor_mismatch(entry)
    if mismatch is not None:
        return rule_text(mismatch)
    reason = refusal_reason_words(entry)
    if entry.state == EntryState.REJECTED:
        ended = team_error_word(entry.error)
        if ended:  # a person ended it (a team database): the bank never saw it
            return ended
        if not reason:
            return QCoreApplication.translate("Refusals", "The bank refused it and gave no reason.")
        return QCoreApplication.translate("Refusals", "The bank refused it: %1").replace(
            "%1", reason
        )
    if not reason:
        return QCoreApplication.translate(
            "Refusals", "The bank did not carry it out and gave no reason."
        )
    return QCoreApplication.translate("Refusals", "The bank did not carry it out: %1.").replace(
        "%1", reason
    )


def error_words(entry: Entry) -> str:
    """What went wrong with ``entry`` for a person: why it was refused, else the journal's
    error (an answer not received, say) without the API's method and path."""
    if is_refused(entry):
        return refusal_words(entry)
    return refusal_reason(entry.error or "")


_NO_LIMIT = QT_TRANSLATE_NOOP("Refusals", "no limit")
_HIGHER_LIMIT = QT_TRANSLATE_NOOP("Refusals", "an approver with a higher limit")
_ENDED: dict[str, str] = {  # an intent's approval when it no longer waits
    "REJECTED": QT_TRANSLATE_NOOP("Refusals", "rejected"),
    "WITHDRAWN": QT_TRANSLATE_NOOP("Refusals", "withdrawn"),
    "RELEASED": QT_TRANSLATE_NOOP("Refusals", "released to the bank"),
}


def ledger_refusal_words(error: LedgerRefused) -> str:
    """What the ledger refused, in the person's words: the rule of its :attr:`reason`
    (``team.over_limit``...), its parameters in words, never the database's English."""
    reason = error.reason
    params = dict(reason.params)
    for name in ("payment_limit", "daily_limit"):
        if name in params and params[name] is None:
            params[name] = QCoreApplication.translate(CONTEXT, _NO_LIMIT)
    if "others" in params and not params["others"]:
        params["others"] = QCoreApplication.translate(CONTEXT, _HIGHER_LIMIT)
    state = params.get("state")
    if isinstance(state, str):
        ended = _ENDED.get(state)
        params["state"] = (
            QCoreApplication.translate(CONTEXT, ended) if ended else status_word(state).lower()
        )
    return rule_text(Reason(reason.code, params, reason.field))
