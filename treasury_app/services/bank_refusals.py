"""How the bank's refusal of a payment is kept in the journal's ``error``: a coded note (the
team database's convention of schema 7, ``{"code": ..., ...}`` as text) with the refusal's
code, HTTP status, problem type, the fields its violations name and the client's whole
message — so that the UI decides what the refusal was by its code, never by the bank's
sentence (issue 36: a key that is not the payee's the payment names).

Entries journaled before this were refused with the message alone (:func:`read_refusal`
gives ``None`` for them); the journal has no other column to carry a code, so the UI keeps
reading those as text."""

from __future__ import annotations

import json
from dataclasses import dataclass

from treasury_app.api.errors import ApiError, ApiFailure
from treasury_app.ledger.journal import Entry, EntryKind

__all__ = [
    "BANK_REFUSED",
    "CREDITOR_MISMATCH",
    "BankRefusal",
    "read_refusal",
    "refusal_note",
]

BANK_REFUSED = "bank.refused"
"""The bank refused the payment (its reason in ``message`` and ``fields``)."""
CREDITOR_MISMATCH = "bank.creditor_mismatch"
"""The bank refused a payment by key because the key's owner is not the ``creditorDocument``
it was sent with (a 422 whose violation names ``creditorDocument``)."""
CODES = frozenset({BANK_REFUSED, CREDITOR_MISMATCH})


@dataclass(frozen=True)
class BankRefusal:
    code: str
    status: int | None
    type_name: str
    fields: tuple[str, ...]
    message: str


def refusal_code(entry: Entry, error: ApiError) -> str:
    """What the bank's refusal of ``entry`` was, as a code."""
    if (
        entry.kind == EntryKind.PIX_KEY
        and error.status == 422
        and "creditorDocument" in error.properties
    ):
        return CREDITOR_MISMATCH
    return BANK_REFUSED


def refusal_note(entry: Entry, error: ApiFailure) -> str:
    """The journal's ``error`` of ``entry`` refused by ``error``: a coded note for the bank's
    answer (a problem), the message for anything else."""
    if not isinstance(error, ApiError):
        return str(error)
    note = {
        "code": refusal_code(entry, error),
        "status": error.status,
        "type": error.type_name,
        "fields": sorted(error.properties),
        "message": str(error),
    }
    return json.dumps(note, ensure_ascii=False, sort_keys=True)


def read_refusal(error: str | None) -> BankRefusal | None:
    """The bank's refusal a journal's ``error`` keeps as a coded note; ``None`` for any other
    text (an entry refused before refusals were coded, a person's decision, a lost answer)."""
    if not error or not error.startswith("{"):
        return None
    try:
        value = json.loads(error)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("code") not in CODES:
        return None
    status = value.get("status")
    fields = value.get("fields")
    return BankRefusal(
        code=value["code"],
        status=status if isinstance(status, int) else None,
        type_name=str(value.get("type") or ""),
        fields=tuple(str(f) for f in fields) if isinstance(fields, list) else (),
        message=str(value.get("message") or ""),
    )
