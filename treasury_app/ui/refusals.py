"""Why a payment did not happen, in the person's words: the bank's explanation of a refusal
without its HTTP status or the API's path, or a bank error code (``AM04``) as words; and the
bank's problem answer (:func:`problem_words`): words for its type, the fields it names in
words, and the bank's own ``detail`` as a secondary line.

The journal keeps the whole technical message (and the audit the request's path); a person
reads this."""

from __future__ import annotations

import re

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.api.accounts.models import is_failed_status
from treasury_app.api.errors import ApiError, error_class, refusal_reason
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import Reason
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, PendingDuplicate
from treasury_app.services.bank_refusals import CREDITOR_MISMATCH, read_refusal
from treasury_app.ui.code_words import problem_field_word, problem_title
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.status_words import status_word, team_error_word
from treasury_app.ui.times import instant_or_empty

__all__ = [
    "creditor_mismatch",
    "error_words",
    "is_refused",
    "ledger_refusal_words",
    "pending_duplicate_words",
    "problem_words",
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


# What the journal keeps of a refusal with neither a title nor a detail of the bank's: the
# client's English name of its status ("Business rule violated"), which says no reason.
_STATUS_NAMES = frozenset(
    error_class(status).default_title for status in (400, 401, 403, 404, 409, 412, 422, 429, 500)
)
_NO_ANSWER = QT_TRANSLATE_NOOP(
    "Refusals",
    "No answer came from the bank: the payment is looked up by its key before anything is "
    "sent again.",
)


_VIOLATIONS = re.compile(r" \(([^()]*)\)$")
"""The violations :class:`ApiError` appends to its message: ``(propriedade: razao; ...)``."""


def _violation_words(item: str) -> str:
    name, colon, why = item.partition(": ")
    field = problem_field_word(name) if colon and " " not in name else ""
    if field:
        return f"{field}: {why}"
    return why if colon and " " not in name else item


def _bank_reason(message: str) -> str:
    """The bank's explanation in a journal's message, the fields it names in words; "" when
    it gave none."""
    reason = refusal_reason(message)
    if reason in _STATUS_NAMES:
        return ""
    found = _VIOLATIONS.search(reason)
    if found is None:
        return reason
    items = [_violation_words(item) for item in found.group(1).split("; ") if item]
    return reason[: found.start()] + " (" + "; ".join(items) + ")"


def _bank_message(entry: Entry) -> str:
    """The client's message of the bank's answer the journal keeps for ``entry`` (the coded
    note's ``message``, or the text of an entry journaled before refusals were coded)."""
    refusal = read_refusal(entry.error)
    return refusal.message if refusal is not None else entry.error or ""


def _ended_word(entry: Entry) -> str:
    """A team database's word of a person who ended ``entry`` ("" for the bank's refusal)."""
    return "" if read_refusal(entry.error) is not None else team_error_word(entry.error)


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
        return _ended_word(entry) or _bank_reason(_bank_message(entry))
    code = (entry.error or "").strip()
    if not code:
        return ""
    words = _BANK_CODES.get(code)
    if words:
        return QCoreApplication.translate(CONTEXT, words)
    return QCoreApplication.translate("Refusals", "the bank's code %1").replace("%1", code)


def creditor_mismatch(entry: Entry) -> Reason | None:
    """A key payment the bank refused because the key is not the registered payee's: it was
    sent with a ``creditorDocument`` (the registry's, issue 36) and the bank's refusal is
    coded ``bank.creditor_mismatch`` (a 422 whose violation names ``creditorDocument``). The
    bank's own sentence is in the journal; a person reads this."""
    if entry.kind != EntryKind.PIX_KEY or entry.state != EntryState.REJECTED:
        return None
    refusal = read_refusal(entry.error)
    if refusal is not None:
        if refusal.code != CREDITOR_MISMATCH:
            return None
    elif not _uncoded_mismatch((entry.error or "").strip()):
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


def _uncoded_mismatch(error: str) -> bool:
    """A refusal journaled as text only (before refusals were coded: the journal has no other
    place for a code, so old entries are read from the client's message): a 422 whose
    violations, when it names any, include ``creditorDocument``; else one about a document,
    as the bank then answered a key that is not the document's."""
    if not error.startswith("422"):
        return False
    found = _VIOLATIONS.search(refusal_reason(error))
    if found is not None:
        fields = {item.partition(": ")[0] for item in found.group(1).split("; ")}
        return "creditorDocument" in fields
    return "document" in error.lower()


def refusal_words(entry: Entry) -> str:
    """Why ``entry`` was refused, as a sentence for the person ("" when it was not)."""
    if not is_refused(entry):
        return ""
    mismatch = creditor_mismatch(entry)
    if mismatch is not None:
        return rule_text(mismatch)
    reason = refusal_reason_words(entry)
    if entry.state == EntryState.REJECTED:
        ended = _ended_word(entry)
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
    if entry.state == EntryState.UNKNOWN:  # the client's English of a lost answer: never shown
        return QCoreApplication.translate(CONTEXT, _NO_ANSWER)
    return _bank_reason(_bank_message(entry))


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


def pending_duplicate_words(error: PendingDuplicate) -> str:
    """Who prepared the same payment that waits for approval already, and when (never the
    journal's English sentence)."""
    waiting: Entry = error.entry
    return (
        QCoreApplication.translate(
            "ApprovalDialog",
            "%1 prepared the same payee and amount on %2 (intent #%3), still waiting for "
            "approval. A deliberate second payment needs a different description.",
        )
        .replace("%1", waiting.created_by)
        .replace("%2", instant_or_empty(waiting.created_at))
        .replace("%3", str(waiting.id))
    )


_BANK_SAYS = QT_TRANSLATE_NOOP("Refusals", "The bank says: %1")
_FIELD_REFUSED = QT_TRANSLATE_NOOP("Refusals", "%1: not accepted by the bank")
_STATUS_ONLY = re.compile(r"^[1-5][0-9]{2}\b")


def _bank_text(text: str, error: ApiError) -> str:
    """A sentence of the bank's fit to show as it is: "" for markup (a proxy's page), an
    address, the API's path or a bare status."""
    text = " ".join(text.split())
    if not text or "<" in text or "://" in text or "urn:" in text or _STATUS_ONLY.match(text):
        return ""
    if any(path and path in text for path in (error.path, error.instance)):
        return ""
    return text if len(text) <= 300 else text[:299] + "…"


def problem_words(error: ApiError) -> tuple[str, str]:
    """The bank's problem answer as (title, detail) in the person's language: the title is the
    words for its type (by its HTTP status when the type is not known); the detail, one line
    per field its ``violacoes`` name (the field in words where known, then the bank's reason)
    and, last, the bank's own ``detail``, marked as the bank's. Never the ``type`` URI, the
    status number nor the API's path."""
    title = problem_title(error.type_name, error.status)
    lines: list[str] = []
    for violation in error.violacoes:
        field = problem_field_word(violation.propriedade)
        reason = _bank_text(violation.razao, error)
        if field and reason:
            lines.append(f"{field}: {reason}")
        elif field:
            lines.append(QCoreApplication.translate(CONTEXT, _FIELD_REFUSED).replace("%1", field))
        elif reason:
            lines.append(reason)
    detail = _bank_text(error.detail, error)
    repeated = detail.rstrip(".").casefold() == title.rstrip(".").casefold() or any(
        detail in line for line in lines
    )
    if detail and not repeated:
        lines.append(QCoreApplication.translate(CONTEXT, _BANK_SAYS).replace("%1", detail))
    return title, "\n".join(lines)
