"""The audit of every write to the bank: :func:`audited_call` records what was asked and what
the bank answered, or that the answer was lost.

Outcomes: the bank's status on success, ``rejected`` when it refused, ``unknown`` when the
answer was lost (the request may have gone through), ``failed`` when it certainly was not
sent. Shared by the Cash In use cases and the recurrences service.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from decimal import Decimal
from typing import Any, TypeVar

from treasury_app.api.errors import ApiError, ApiFailure, ServerError, TransportFailure
from treasury_app.ledger import Ledger

__all__ = ["audited_call", "status_of"]

T = TypeVar("T")


def _failure(error: BaseException) -> tuple[str, dict[str, Any]]:
    """The audit outcome and details of a call that raised (no secret: bodies are not kept)."""
    if isinstance(error, ApiError):
        outcome = "unknown" if isinstance(error, ServerError) else "rejected"
        return outcome, {
            "http_status": error.status,
            "type": error.type,
            "title": error.title,
            "detail": error.detail,
            "violacoes": [str(v) for v in error.violacoes],
        }
    if isinstance(error, TransportFailure):
        return ("unknown" if error.outcome_unknown else "failed"), {"error": str(error)}
    if isinstance(error, asyncio.CancelledError):
        return "unknown", {"error": "cancelled while waiting for the bank"}
    return "unknown", {"error": str(error)}


async def audited_call(
    ledger: Ledger,
    action: str,
    call: Awaitable[T],
    *,
    reference: str = "",
    amount: Decimal | None = None,
    details: Mapping[str, Any] | None = None,
    outcome: Callable[[T], str] = lambda _answer: "accepted",
    answered: Callable[[T], Mapping[str, Any]] | None = None,
    reference_of: Callable[[T], str] | None = None,
    amount_of: Callable[[T], Decimal | None] | None = None,
) -> T:
    """Await ``call`` (a write to the bank) and record it in the audit either way.

    On success the row's outcome is ``outcome(answer)`` (the bank's status); ``answered`` adds
    details from the answer, ``reference_of`` and ``amount_of`` take the reference and amount
    from it (an id the bank chose, the amount of a charge being cancelled). A failure of the
    call (:class:`ApiFailure`, or the task being cancelled) is recorded as ``rejected``,
    ``unknown`` or ``failed`` and raised again.
    """
    base = dict(details or {})
    try:
        answer = await call
    except (ApiFailure, asyncio.CancelledError) as error:
        result, extra = _failure(error)
        await ledger.audit.record(
            action, result, reference=reference, amount=amount, details={**base, **extra}
        )
        raise
    extra = dict(answered(answer)) if answered else {}
    await ledger.audit.record(
        action,
        outcome(answer),
        reference=reference_of(answer) if reference_of else reference,
        amount=amount_of(answer) if amount_of else amount,
        details={**base, **extra},
    )
    return answer


def status_of(answer: Any) -> str:
    """The bank's status in an answer (its ``status``), as the audit outcome."""
    status = getattr(answer, "status", None)
    return str(getattr(status, "value", status) or "accepted")
