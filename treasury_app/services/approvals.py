"""The approval desk: dual control (maker-checker) on a team database.

A maker's :meth:`PaymentEngine.submit <treasury_app.services.payments.PaymentEngine.submit>`
journals the intent through the database's ``prepare``; with approvals to give, nothing is
sent. Approvers review it here (what will be sent, who prepared it, the policy, the
approvals so far) and approve by typing its amount; the database checks every rule against
the login (:mod:`treasury_app.ledger.team.approvals`). When the last approval is given, the
desktop that releases it (by default the approver who completed the approvals; a profile may
name a releasing desktop instead) sends it through the payment engine: journal first, one
payment per intent, unknown outcomes resolved by key.

``Session.approvals`` is ``None`` on the file ledger: dual control needs a team database.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import timedelta
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from treasury_app.domain import brcode
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.domain.money import dumps_json
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ledger.team.approvals import (
    Approval,
    PersonLimits,
    Policy,
    TeamApprovals,
    batch_hash,
    entry_content_hash,
)
from treasury_app.ledger.team.schema import APPROVER
from treasury_app.ledger.team.store import ApprovalRefused
from treasury_app.services.payments import DestinationBlocked

if TYPE_CHECKING:
    from treasury_app.services.payments import PaymentEngine

log = logging.getLogger("treasury_app.services.approvals")


class ApprovalInputError(RuleError):
    """A decision asked with what it needs missing or wrong (the amount typed, a reason):
    the rule's code and the field."""


"""Which approved intents this desktop sends: those whose approvals it completed
(``mine``, the default), every approved one (``all``: the team's releasing desktop), or none
(another desktop releases)."""

BATCH_CONCURRENCY = 4
"""Rows of an approved batch sent at once (as a payout batch is sent today)."""


@dataclass(frozen=True)
class ApprovalLists:
    waiting_for_me: list[Entry]
    prepared_by_me: list[Entry]
    decided: list[Entry]


class NobodyReason(StrEnum):
    """Why nobody can approve an intent now (its eligible approvers are none)."""

    NO_OTHER_APPROVER = "no_other_approver"
    """The team has no approver but the intent's maker (who may not approve it)."""
    ALL_APPROVED = "all_approved"
    """Every approver but the maker has approved it already."""
    LIMITS = "limits"
    """Approvers are left, but their limits (per payment, per day) do not cover it."""


def nobody_reason(
    maker: str, eligible: Sequence[str], approvers: Iterable[str], approved: Iterable[str]
) -> NobodyReason | None:
    """Why none of ``approvers`` (the team's approvers' logins) can approve an intent of
    ``maker`` that ``approved`` have approved already (``None``: someone is ``eligible``)."""
    if eligible:
        return None
    others = set(approvers) - {maker}
    if not others:
        return NobodyReason.NO_OTHER_APPROVER
    if others <= set(approved):
        return NobodyReason.ALL_APPROVED
    return NobodyReason.LIMITS


@dataclass(frozen=True)
class ApprovalDetail:
    """Everything the approval dialog shows about one intent."""

    entry: Entry
    approvals: list[Approval]
    policy: Policy | None
    """The policy version the intent was prepared under."""
    eligible: list[str]
    """Approvers whose limits cover it and who have not approved it yet."""
    recent_same_payee: list[Entry]
    """Other intents to the same payee in the last 24 hours (the duplicate warning)."""
    request: dict[str, Any]
    brcode: dict[str, str] | None = None
    """A QR payment's decoded BR Code (field → value)."""
    content_matches: bool = True
    """Whether this desktop's own hash of what it shows equals the database's."""
    nobody: NobodyReason | None = None
    """Why :attr:`eligible` is empty (``None`` when it is not)."""
    over_limit: tuple[str, ...] = ()
    """Approvers who could approve it (not its maker, not approved yet) but for their
    limits."""

    @property
    def new_payee(self) -> bool:
        return self.entry.new_payee

    @property
    def approvals_left(self) -> int:
        """Approvals it still needs."""
        return max(0, self.entry.approvals_needed - self.entry.approvals_given)

    @property
    def short_of_approvers(self) -> int:
        """Approvals it still needs that no eligible approver is left to give (0: enough
        approvers can still approve it)."""
        return max(0, self.approvals_left - len(self.eligible)) if self.eligible else 0


OPEN_APPROVALS = ("WAITING", "APPROVED")
"""The approval states of an intent still before its release."""


def approve_blocker(detail: ApprovalDetail, me: str, *, can_approve: bool) -> Reason | None:
    """Why ``me`` (whose role approves when ``can_approve``) cannot approve ``detail``'s
    intent now, or ``None`` when they can: the maker never approves their own payment, an
    approver approves once, and only what the team database fingerprinted as shown."""
    entry = detail.entry
    if entry.approval not in OPEN_APPROVALS or entry.state != EntryState.PREPARED:
        return Reason("approval.not_waiting", {"approval": entry.approval or ""})
    if entry.created_by == me:
        return Reason("approval.own_payment")
    if not can_approve:
        return Reason("approval.not_an_approver")
    if not detail.content_matches:
        return Reason("approval.content_differs")
    if any(approval.approver == me and approval.valid for approval in detail.approvals):
        return Reason("approval.approved_already")
    if entry.approval == "APPROVED":
        return Reason("approval.being_released")
    return None


def _open(entry: Entry) -> bool:
    return entry.approval in OPEN_APPROVALS and entry.state == EntryState.PREPARED


def reject_blocker(entry: Entry, me: str, *, can_approve: bool) -> Reason | None:
    """Why ``me`` cannot reject ``entry``'s intent now, or ``None`` when they can: only an
    approver rejects, never the maker (who withdraws it instead), and only an open intent."""
    if not _open(entry):
        return Reason("approval.not_waiting", {"approval": entry.approval or ""})
    if entry.created_by == me:
        return Reason("approval.own_payment_withdraw")
    if not can_approve:
        return Reason("approval.not_an_approver")
    return None


def maker_blocker(entry: Entry, me: str) -> Reason | None:
    """Why ``me`` cannot withdraw or edit ``entry``'s intent now, or ``None`` when they can:
    only its maker does, and only while it is open."""
    if not _open(entry):
        return Reason("approval.not_waiting", {"approval": entry.approval or ""})
    if entry.created_by != me:
        return Reason("approval.not_the_maker")
    return None


def batch_blocker(
    rows: Sequence[Entry], me: str, *, can_approve: bool, reject_reasons: Iterable[str] = ()
) -> Reason | None:
    """Why ``me`` cannot decide a batch whose rows are ``rows`` (rejecting some with
    ``reject_reasons``), or ``None`` when they can: some row still waits, not every waiting
    row is theirs (a maker never approves their own), their role approves, and each rejected
    row says why."""
    waiting = [row for row in rows if row.waiting_approval]
    if not waiting:
        return Reason("approval.batch_not_waiting")
    if all(row.created_by == me for row in waiting):
        return Reason("approval.own_batch")
    if not can_approve:
        return Reason("approval.not_an_approver")
    if any(not reason.strip() for reason in reject_reasons):
        return Reason("approval.reject_reasons_missing", field="reason")
    return None


@dataclass
class ApprovalDesk:
    """One session's approvals (a team database with dual control)."""

    store: TeamApprovals
    engine: PaymentEngine
    me: str
    roles: frozenset[str]
    password_required: bool = False
    password_check: Callable[[str], Any] | None = None
    """Coroutine function checking a typed password against the team database."""
    policy_at_unlock: Policy | None = None
    """The policy in force when the session opened (Settings shows it)."""
    _listeners: list[Callable[[], None]] = field(default_factory=list)

    @property
    def can_approve(self) -> bool:
        return "treasury_approver" in self.roles

    @property
    def can_prepare(self) -> bool:
        return "treasury_maker" in self.roles

    # -- following changes ---------------------------------------------------------------------

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """Call ``listener()`` when an intent's approval may have changed (any desktop)."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def changed(self, entry: Entry | None = None) -> None:
        """An entry changed (the engine's listener: this desktop's changes and, through the
        team link, every other desktop's)."""
        if entry is not None and entry.approval is None:
            return
        for listener in list(self._listeners):
            try:
                listener()
            except Exception:
                log.exception("approvals listener failed")
        if (
            entry is not None
            and self.engine.release_mode == "all"
            and entry.approved_by != self.me  # what this desktop approves, it sends itself
            and self._releases(entry)
        ):
            asyncio.get_running_loop().create_task(self._release_quietly(entry))

    # -- reads ---------------------------------------------------------------------------------

    async def lists(self, *, waiting_limit: int = 10_000) -> ApprovalLists:
        await self.store.expire_due()
        return ApprovalLists(
            waiting_for_me=(
                await self.store.waiting_for(self.me, limit=waiting_limit)
                if self.can_approve
                else []
            ),
            prepared_by_me=await self.store.prepared_by(self.me),
            decided=await self.store.decided(),
        )

    async def waiting_count(self) -> int:
        return await self.store.waiting_count(self.me) if self.can_approve else 0

    async def policy(self) -> Policy:
        return await self.store.policy()

    async def detail(self, entry: Entry) -> ApprovalDetail:
        entry = await self.engine.ledger.journal.get(entry.id)
        since = self.engine.clock() - _DAY
        recent = [
            other
            for other in await self.engine.ledger.journal.payees_since([entry.payee_detail], since)
            if other.id != entry.id
        ]
        request = entry.request()
        approvals = await self.store.approvals(entry.id)
        eligible = await self.store.eligible_approvers(entry.id)
        approvers = _approvers(await self.store.people()) if not eligible else []
        approved = [approval.approver for approval in approvals if approval.valid]
        return ApprovalDetail(
            entry=entry,
            approvals=approvals,
            policy=(
                await self.store.policy_version(entry.policy_version)
                if entry.policy_version is not None
                else None
            ),
            eligible=eligible,
            recent_same_payee=recent,
            request=request,
            brcode=_decoded(entry, request),
            content_matches=entry.content_hash == entry_content_hash(entry),
            nobody=nobody_reason(entry.created_by, eligible, approvers, approved),
            over_limit=tuple(
                sorted(set(approvers) - {entry.created_by} - set(approved) - set(eligible))
            ),
        )

    async def batch_rows(self, batch_id: str) -> list[Entry]:
        return await self.store.batch_rows(batch_id)

    # -- decisions -----------------------------------------------------------------------------

    async def approve(
        self, entry: Entry, typed_amount: Decimal, *, password: str | None = None
    ) -> Entry:
        """Approve ``entry`` as reviewed (``typed_amount`` must be its amount); when that
        completes its approvals and this desktop releases it, send it and return the entry
        after sending."""
        if typed_amount != entry.amount:
            raise ApprovalInputError("approval.amount_differs", field="amount")
        await self._check_password(password)
        if entry.content_hash is None or entry.content_hash != entry_content_hash(entry):
            raise ApprovalRefused(
                "What this desktop shows does not match the journal's content: review it again.",
                reason=Reason("approval.content_differs"),
            )
        approved = self.engine.announce(await self.store.approve(entry.id, entry.content_hash))
        if self._releases(approved):
            return await self.engine.send(approved)
        return approved

    async def reject(self, entry: Entry, reason: str) -> Entry:
        if not reason.strip():
            raise ApprovalInputError("approval.reject_reason_missing", field="reason")
        return self.engine.announce(await self.store.reject(entry.id, reason.strip()))

    async def withdraw(self, entry: Entry, reason: str) -> Entry:
        """Withdraw a waiting intent (its maker): every end of an intent has a reason."""
        if not reason.strip():
            raise ApprovalInputError("approval.withdraw_reason_missing", field="reason")
        return self.engine.announce(await self.store.withdraw(entry.id, reason.strip()))

    async def edit(self, entry: Entry, *, amount: Decimal, description: str) -> Entry:
        """Change a waiting intent's amount and description (its maker): the body to send
        changes with them, and the approvals given so far are void."""
        request = _edited_request(entry, amount, description)
        return self.engine.announce(
            await self.store.edit(
                entry.id, amount=amount, description=description, request_json=request
            )
        )

    async def approve_batch(
        self,
        batch_id: str,
        rejects: Mapping[int, str],
        *,
        reviewed: list[Entry],
        password: str | None = None,
    ) -> list[Entry]:
        """Approve the batch's waiting rows as ``reviewed`` (one decision), rejecting
        ``rejects`` (entry id → reason); the rows this desktop releases are then sent,
        :data:`BATCH_CONCURRENCY` at a time."""
        if any(not reason.strip() for reason in rejects.values()):
            raise ApprovalInputError("approval.reject_reasons_missing", field="reason")
        await self._check_password(password)
        waiting = [row for row in reviewed if row.waiting_approval]
        for row in waiting:
            if row.content_hash != entry_content_hash(row):
                raise ApprovalRefused(
                    f"Row {row.id} shown here does not match the journal: review it again.",
                    reason=Reason("approval.batch_row_differs", {"entry": row.id}),
                )
        decided = await self.store.approve_batch(batch_id, batch_hash(waiting), rejects)
        for row in decided:
            self.engine.announce(row)
        limit = asyncio.Semaphore(BATCH_CONCURRENCY)

        async def send(row: Entry) -> Entry:
            async with limit:
                try:
                    return await self.engine.send(row)
                except DestinationBlocked:  # approved, not sent: its key was blocked since
                    return row

        released = [row for row in decided if self._releases(row)]
        sent = {row.id: row for row in await asyncio.gather(*(send(row) for row in released))}
        return [sent.get(row.id, row) for row in decided]

    # -- internals -----------------------------------------------------------------------------

    def _releases(self, entry: Entry) -> bool:
        return entry.approvals_needed > 0 and self.engine.releases(entry)

    async def _release_quietly(self, entry: Entry) -> None:
        try:
            await self.engine.send(entry)
        except Exception:
            log.exception("releasing approved payment %s failed", entry.id)

    async def _check_password(self, password: str | None) -> None:
        if not self.password_required:
            return
        if not password or self.password_check is None:
            raise ApprovalRefused(
                "Type your team database password to approve.",
                reason=Reason("approval.password_missing"),
            )
        try:
            await self.password_check(password)
        except Exception:
            raise ApprovalRefused(
                "That is not your team database password.",
                reason=Reason("approval.password_wrong"),
            ) from None


_DAY = timedelta(hours=24)


def _approvers(people: Iterable[PersonLimits]) -> list[str]:
    """The logins of the team's approvers."""
    return [person.login for person in people if APPROVER in person.roles]


def _decoded(entry: Entry, request: Mapping[str, Any]) -> dict[str, str] | None:
    if entry.kind != EntryKind.PIX_QRC:
        return None
    payload = str(request.get("qrCode") or request.get("qr_code") or "")
    try:
        code = brcode.parse(payload)
    except ValueError as error:
        return {"error": str(error)}
    fields = {
        "merchant_name": code.merchant_name,
        "merchant_city": code.merchant_city,
        "key": code.key,
        "url": code.url,
        "info": code.info,
        "amount": None if code.amount is None else str(code.amount),
        "txid": code.txid,
    }
    return {name: value for name, value in fields.items() if value}


def _edited_request(entry: Entry, amount: Decimal, description: str) -> str:
    """The body to send after an edit: the same, with the new amount and description."""
    body = entry.request()
    payment = body.get("payment")
    if isinstance(payment, dict) and "amount" in payment:
        payment["amount"] = amount
    elif "amount" in body:
        body["amount"] = amount
    else:
        raise ApprovalInputError("approval.amount_fixed", field="amount")
    if "description" in body or description:
        body["description"] = description
    return dumps_json(body)
