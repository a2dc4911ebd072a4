"""Infractions (MED, the Pix special return mechanism) reported about the account's Pix, and
the company's defenses.

A participant reports a Pix of the account (fraud suspected, refund requested); the company
may answer with a defense until the infraction's ``defenseDeadline``. :class:`InfractionsService`
lists them (:meth:`~InfractionsService.infractions`), shows one
(:meth:`~InfractionsService.infraction`), submits a defense
(:meth:`~InfractionsService.submit_defense`) and follows it
(:meth:`~InfractionsService.defenses`).

A defense is checked here before it is sent (:class:`DefenseError`): a description of 1 to
2000 characters, attachment names that are not blank, and an infraction that still accepts
one — status ``OPEN`` or ``UNDER_REVIEW`` (the bank accepts further defenses while it
analyses; a ``CLOSED`` infraction or a status the app does not know does not) and the
deadline not passed. Every defense that reaches the bank is audited
(``infraction.defense``), accepted or not.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Sequence
from typing import Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import (
    Defense,
    DefenseAttachment,
    DefenseRequest,
    Infraction,
    InfractionStatus,
)
from treasury_app.api.errors import ApiError, TransportFailure
from treasury_app.domain.clock import Clock
from treasury_app.domain.errors import RuleError
from treasury_app.ledger import Ledger

__all__ = [
    "DEFENSE_STATUSES",
    "MAX_DEFENSE_LENGTH",
    "DefenseError",
    "InfractionsService",
    "defense_problem",
]

MAX_DEFENSE_LENGTH = 2000
"""Longest defense description the bank accepts, in characters."""
MAX_ATTACHMENT_NAME_LENGTH = 255
MAX_PAGE_SIZE = 1000
DEFENSE_STATUSES = frozenset({InfractionStatus.OPEN, InfractionStatus.UNDER_REVIEW})
"""Statuses in which an infraction accepts a defense."""


class DefenseError(RuleError):
    """A defense that cannot be sent (checked locally; the bank was not asked to take it).

    ``field`` names what is at fault: ``description``, ``attachments``, ``infraction``,
    ``status`` or ``deadline``."""


def defense_problem(infraction: Infraction, now: dt.datetime) -> DefenseError | None:
    """Why ``infraction`` cannot take a defense at ``now`` (aware), or ``None`` if it can.

    For the UI to disable the button and say why before the user writes anything."""
    if infraction.status not in DEFENSE_STATUSES:
        if infraction.status == InfractionStatus.CLOSED:
            return DefenseError("defense.infraction_closed", field="status", id=infraction.id)
        status = str(getattr(infraction.status, "value", infraction.status))
        return DefenseError("defense.not_open", field="status", id=infraction.id, status=status)
    deadline = infraction.defense_deadline
    if deadline is not None and now > deadline:
        return DefenseError(
            "defense.deadline_passed", field="deadline", id=infraction.id, deadline=deadline
        )
    return None


def _description(text: str) -> str:
    if not isinstance(text, str):
        raise DefenseError("defense.not_text", field="description")
    body = text.strip()
    if not body:
        raise DefenseError("defense.empty", field="description")
    if len(body) > MAX_DEFENSE_LENGTH:
        raise DefenseError(
            "defense.too_long", field="description", length=len(body), max=MAX_DEFENSE_LENGTH
        )
    return body


def _attachments(names: Sequence[str]) -> list[DefenseAttachment] | None:
    if isinstance(names, str):
        raise DefenseError("defense.attachments_list", field="attachments")
    result: list[DefenseAttachment] = []
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise DefenseError("defense.attachment_unnamed", field="attachments")
        if len(name.strip()) > MAX_ATTACHMENT_NAME_LENGTH:
            raise DefenseError(
                "defense.attachment_name_too_long",
                field="attachments",
                max=MAX_ATTACHMENT_NAME_LENGTH,
            )
        result.append(DefenseAttachment(name=name.strip()))
    return result or None


def _infraction_id(infraction_id: str) -> str:
    if not isinstance(infraction_id, str) or not infraction_id.strip():
        raise DefenseError("defense.infraction_missing", field="infraction")
    return infraction_id.strip()


def _status(status: InfractionStatus | str | None) -> InfractionStatus | None:
    if status is None:
        return None
    try:
        return InfractionStatus(str(status).upper())
    except ValueError:
        allowed = ", ".join(s.value for s in InfractionStatus)
        raise ValueError(f"Unknown infraction status {status!r}; expected {allowed}.") from None


class InfractionsService:
    """Infractions reported against the account and the company's defenses, audited.

    ``clock`` gives the current time (aware), compared with each infraction's deadline: the
    bank's clock (the sandbox's against the sandbox), never a default."""

    def __init__(
        self,
        accounts: AccountsClient,
        ledger: Ledger,
        *,
        clock: Clock,
    ) -> None:
        self._accounts = accounts
        self._ledger = ledger
        self._clock = clock

    async def infractions(
        self, status: InfractionStatus | str | None = None, *, page_size: int = 50
    ) -> AsyncIterator[Infraction]:
        """Every infraction (newest first), optionally of one ``status``; pages are fetched
        as the iteration reaches them. Arguments are checked before sending (``ValueError``)."""
        wanted = _status(status)
        if isinstance(page_size, bool) or not isinstance(page_size, int):
            raise TypeError("The page size is a whole number.")
        if not 1 <= page_size <= MAX_PAGE_SIZE:
            raise ValueError(f"The page size must be between 1 and {MAX_PAGE_SIZE}.")
        seen: set[str] = set()
        async for item in self._accounts.iter_infractions(status=wanted, per_page=page_size):
            if item.id not in seen:  # a new report shifts the pages: never show one twice
                seen.add(item.id)
                yield item

    async def awaiting_defense(self) -> list[Infraction]:
        """Open infractions whose defense deadline has not passed (on the bank's clock),
        nearest deadline first: what the desk has to answer."""
        now = self._clock()
        waiting = [
            item
            async for item in self.infractions(InfractionStatus.OPEN, page_size=MAX_PAGE_SIZE)
            if item.defense_deadline is None or item.defense_deadline > now
        ]
        far = dt.datetime.max.replace(tzinfo=dt.UTC)
        return sorted(waiting, key=lambda item: item.defense_deadline or far)

    def days_left(self, infraction: Infraction) -> int | None:
        """Whole days until the defense deadline (0 on its last day, negative once passed;
        ``None`` without a deadline)."""
        if infraction.defense_deadline is None:
            return None
        return (infraction.defense_deadline - self._clock()).days

    async def infraction(self, infraction_id: str) -> Infraction:
        """One infraction with its defenses (``NotFound`` if the bank has none)."""
        return await self._accounts.get_infraction(_infraction_id(infraction_id))

    async def defenses(self, infraction_id: str) -> list[Defense]:
        """The defenses submitted so far for one infraction, oldest first."""
        return await self._accounts.list_defenses(_infraction_id(infraction_id))

    def defense_problem(self, infraction: Infraction) -> DefenseError | None:
        """Why ``infraction`` cannot take a defense now, or ``None`` (see
        :func:`defense_problem`)."""
        return defense_problem(infraction, self._clock())

    async def submit_defense(
        self,
        infraction: Infraction | str,
        description: str,
        attachments: Sequence[str] = (),
    ) -> Defense:
        """Submit a defense and return it as the bank recorded it (status ``SUBMITTED``).

        ``infraction`` is the infraction as last read (no request is made to check it) or its
        id (it is read from the bank first, to check its current status and deadline). The
        description (trimmed) and attachment names are checked before anything is sent;
        :class:`DefenseError` says what is wrong. The defense is audited as
        ``infraction.defense`` (outcome ``ok``, ``rejected`` with the bank's status, or
        ``unknown`` when the answer was lost), then the bank's typed error is re-raised.
        """
        body = DefenseRequest(
            description=_description(description), attachments=_attachments(attachments)
        )
        if isinstance(infraction, str):
            infraction = await self.infraction(infraction)
        problem = defense_problem(infraction, self._clock())
        if problem is not None:
            raise problem
        details: dict[str, Any] = {
            "infraction_status": infraction.status,
            "end_to_end_id": infraction.end_to_end_id,
            "description": body.description,
            "attachments": [a.name for a in body.attachments or []],
        }
        audit = self._ledger.audit
        try:
            defense = await self._accounts.post_defense(infraction.id, body)
        except ApiError as error:
            await audit.record(
                "infraction.defense",
                "rejected",
                reference=infraction.id,
                amount=infraction.amount,
                details={
                    **details,
                    "status": error.status,
                    "error": error.title,
                    "detail": error.detail,
                },
            )
            raise
        except TransportFailure as error:
            await audit.record(
                "infraction.defense",
                "unknown" if error.outcome_unknown else "failed",
                reference=infraction.id,
                amount=infraction.amount,
                details={**details, "error": str(error)},
            )
            raise
        await audit.record(
            "infraction.defense",
            "ok",
            reference=infraction.id,
            amount=infraction.amount,
            details={**details, "defense_id": defense.id, "defense_status": defense.status},
        )
        return defense
