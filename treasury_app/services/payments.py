"""Exactly-once payments: journal first, send with the journal's idempotency key, resolve
every unknown outcome by asking the bank before anything is sent again.

The rules (docs/architecture.md, "Exactly-once sends"):

1. :meth:`PaymentEngine.submit` journals the intent (``PREPARED``, committed) — or finds the
   intent already journaled under the same idempotency key (a double click, a second send of
   the same review) — and only then sends it.
2. The entry is marked ``SENT`` before the request leaves. The bank's answer makes it
   ``ACCEPTED`` (with its status and identifiers) or ``REJECTED`` (a 4xx: nothing happened).
3. No usable answer (timeout, reset, 5xx, 429 after the retries, an unreadable body, a crash
   of the app) leaves it ``UNKNOWN``/``SENT``. :meth:`PaymentEngine.resolve` then asks the bank
   by idempotency key: found → track it; not found → send again *with the same key*; 412 (the
   bank got the key meanwhile) → ask again.
4. :meth:`PaymentEngine.resolve_pending` runs that over every unresolved entry; the session
   calls it at start-up.
5. A lost answer is followed up at once: the engine asks the bank by key a few times, with
   backoff (:data:`FOLLOW_UP_DELAYS`), so "checking with the bank…" becomes the final status
   within seconds when the bank is reachable.
6. A lookup never pays twice and runs by itself at any time. A **resend** does not: an intent
   older than the resend window (:data:`RESEND_WINDOW`, 15 minutes) that the bank says it does
   not have is *held* (:meth:`PaymentEngine.is_held`) until a person chooses
   :meth:`~PaymentEngine.send_held` or :meth:`~PaymentEngine.cancel_held`. The whole guarantee
   rests on the bank remembering idempotency keys, and a bank may forget them after some
   time; meanwhile a person may also have paid it through the bank's console.

One lock per idempotency key serialises everything that touches one intent, so concurrent
sends of the same review produce one request at a time and one payment; and, on a team
database, one claim per entry across desktops (:meth:`JournalStore.claim
<treasury_app.ledger.stores.JournalStore.claim>`): while another desktop sends or resolves an
entry, this one leaves the bank alone and shows the entry as the journal has it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager, suppress
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import (
    BilletPayment,
    BilletPaymentRequest,
    PixKeyPaymentRequest,
    PixManualPaymentRequest,
    PixPayment,
    PixQrCodePaymentRequest,
    is_failed_status,
    is_final_status,
    is_success_status,
)
from treasury_app.api.errors import (
    ApiError,
    ApiFailure,
    IdempotencyKeyReused,
    NotFound,
    RateLimited,
    ServerError,
)
from treasury_app.domain.clock import Clock, brasilia_today, system_clock
from treasury_app.domain.errors import RuleError
from treasury_app.domain.payees import DestinationState
from treasury_app.domain.schedule import DEFAULT_SEND_TIME, is_due
from treasury_app.ledger import Ledger
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import (
    DuplicateIntent,
    Entry,
    EntryKind,
    EntryState,
    NewEntry,
)
from treasury_app.ledger.payees import same_payee
from treasury_app.services.bank_refusals import refusal_note

if TYPE_CHECKING:
    from treasury_app.services.profiles import ReleaseMode

log = logging.getLogger("treasury_app.services.payments")

RESOLVE_ROUNDS = 5
RESEND_WINDOW = timedelta(minutes=15)
"""How old an intent may be for the engine to send it again by itself (measured from when it
was journaled, on the journal's clock)."""
FOLLOW_UP_DELAYS: tuple[float, ...] = (0.5, 1.0, 2.0)
"""Seconds before each lookup that follows a lost answer at once."""
HELD_NOTE = "resend held for a person"
CHECKING_NOTE = "checking with the bank"
EntryListener = Callable[[Entry], None]


class HeldPaymentError(RuleError):
    """A held payment's decision cannot be carried out (the code says why)."""


class DestinationBlocked(RuleError):
    """``registry.blocked``: the payment was journaled (prepared, approved, scheduled) before
    its key or account was blocked in the payee registry; it is not sent, and stays as it is
    until the destination is unblocked (a team: by two people) or the payment is cancelled."""


BLOCKABLE_KINDS = frozenset({EntryKind.PIX_KEY, EntryKind.PIX_MANU, EntryKind.PIX_QRC})
"""The payments whose destination the payee registry may know (a key or an account)."""


def _outcome_unknown(error: ApiFailure) -> bool:
    """Whether an exception leaves the bank's side unknown (rather than a clear refusal)."""
    if isinstance(error, ApiError):
        return isinstance(error, ServerError | RateLimited | IdempotencyKeyReused) or (
            error.status in (408, 409, 425)
        )
    return True  # TransportFailure, ResponseFormatError


RequestModel = (
    PixKeyPaymentRequest | PixQrCodePaymentRequest | PixManualPaymentRequest | BilletPaymentRequest
)


def _request_model(entry: Entry) -> RequestModel:
    body: dict[str, Any] = entry.request()
    if entry.kind == EntryKind.PIX_KEY:
        return PixKeyPaymentRequest.model_validate(body)
    if entry.kind == EntryKind.PIX_QRC:
        return PixQrCodePaymentRequest.model_validate(body)
    if entry.kind == EntryKind.PIX_MANU:
        return PixManualPaymentRequest.model_validate(body)
    return BilletPaymentRequest.model_validate(body)


def _request_problem(entry: Entry) -> str | None:
    """Why the journaled body must not be sent (``None``: it is what was reviewed): its
    amount, or its Pix key, differs from the entry's (on a shared journal a body could have
    been written by hand)."""
    try:
        request = _request_model(entry)
    except ValueError as error:
        return f"the journaled request is not valid ({str(error).splitlines()[0]})"
    payment = getattr(request, "payment", None)
    if payment is not None and payment.amount != entry.amount:
        return f"the journaled request pays {payment.amount}, the reviewed amount is {entry.amount}"
    if (
        isinstance(request, PixKeyPaymentRequest)
        and entry.payee_detail
        and request.pix_key != entry.payee_detail
    ):
        return "the journaled request pays another Pix key than the one reviewed"
    return None


def _audit_action(entry: Entry) -> str:
    return "billet.pay" if entry.kind == EntryKind.BILLET else "payout.send"


class PaymentEngine:
    """Sends journaled payment intents exactly once and resolves unknown outcomes."""

    def __init__(
        self,
        accounts: AccountsClient,
        ledger: Ledger,
        *,
        clock: Clock | None = None,
        resend_window: timedelta = RESEND_WINDOW,
        follow_up: Sequence[float] = FOLLOW_UP_DELAYS,
    ) -> None:
        """``clock`` is the journal's (by default the ledger's, whose stamps entries carry:
        the computer's for the file, the database server's for a team database), used for an
        intent's age; ``follow_up`` the delays of the lookups after a lost answer (empty:
        leave it to the tracker)."""
        self.accounts = accounts
        self.ledger = ledger
        self.clock: Clock = clock or ledger.clock
        self.resend_window = resend_window
        self.follow_up = tuple(follow_up)
        self._locks: dict[str, asyncio.Lock] = {}
        self._listeners: list[EntryListener] = []
        self.read_only = False
        """A login that may read the journal but not write it (a team database's viewer):
        nothing is sent or resolved."""
        self.release_mode: ReleaseMode = "mine"
        """Which approved intents this desktop sends (see :meth:`releases`)."""
        self.business_clock: Clock = system_clock
        """The bank's clock, whose Brasília date a scheduled intent's pay date is compared
        with (the workspace sets it: the sandbox's against the sandbox)."""
        self.send_time = DEFAULT_SEND_TIME
        self.mismatch_listeners: list[Callable[[Entry, str, str], None]] = []
        """Told of a settled payment whose creditor is not the registered payee (the entry,
        the creditor's name and document as the bank gave them): the desk is alerted."""
        """When, on its pay date, a scheduled intent leaves (Brasília)."""

    # -- listeners ---------------------------------------------------------------------------

    def subscribe(self, listener: EntryListener) -> Callable[[], None]:
        """Call ``listener(entry)`` on every change of a journal entry; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

    def announce(self, entry: Entry) -> Entry:
        """``entry`` changed elsewhere (another desktop on the team database): tell the
        listeners as of any change made here."""
        return self._changed(entry)

    def _changed(self, entry: Entry) -> Entry:
        for listener in list(self._listeners):
            try:
                listener(entry)
            except Exception:  # a listener's bug must not break a payment
                log.exception("payment listener failed")
        return entry

    def _lock(self, key: str) -> asyncio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    @asynccontextmanager
    async def _current(self, entry: Entry) -> AsyncIterator[tuple[Entry, bool]]:
        """``(entry, mine)``: ``entry`` as the journal has it now, under the lock of its
        idempotency key (which everything that touches one intent holds) and the journal's
        claim on it. ``mine`` is False while another desktop holds the claim (it is sending or
        resolving this entry): the caller must not touch the bank and returns ``entry``."""
        journal = self.ledger.journal
        async with self._lock(entry.idempotency_key):
            before = await journal.get(entry.id)
            if not self._may_send(before):  # not ours: no claim, that would hold its sender up
                yield before, False
                return
            async with journal.claim(entry.id) as mine:
                current = await journal.get(entry.id)
                yield current, mine and self._may_send(current)

    def _may_send(self, entry: Entry) -> bool:
        """Whether this desktop may touch the bank for ``entry``: never for a read-only
        login; on a team database, an intent still ``PREPARED`` only once approved, and only
        by the desktop that releases it (:attr:`releases`; the database refuses anyone's
        ``PREPARED → SENT`` without the approvals too)."""
        if self.read_only:
            return False
        if entry.state == EntryState.PREPARED and self.ledger.backend == "team":
            return self.releases(entry)
        return True

    def releases(self, entry: Entry) -> bool:
        """Whether this desktop sends the ``PREPARED`` team intent ``entry``: without dual
        control (no approvals needed) its maker's desktop; with it, once approved, the
        approver's who completed the approvals (:attr:`release_mode` ``mine``) or a releasing
        desktop's (``all``)."""
        me = self.ledger.context.os_user
        if entry.approval is None:  # journaled before dual control existed
            return entry.created_by == me
        if entry.approval != "APPROVED":
            return False
        if entry.approvals_needed == 0:
            return entry.created_by == me
        if self.release_mode == "all":
            return True
        return self.release_mode == "mine" and entry.approved_by == me

    def waits_for_its_day(self, entry: Entry) -> bool:
        """A scheduled intent not sent yet whose send time has not come (it stays journaled,
        ``PREPARED``; the due sender sends it then), or whose day passed (it is held for a
        person: never sent days late by itself)."""
        if entry.state != EntryState.PREPARED or entry.pay_date is None:
            return False
        now = self.business_clock()
        late = entry.pay_date < brasilia_today(lambda: now)
        return late or not is_due(entry.pay_date, now, self.send_time)

    # -- public ------------------------------------------------------------------------------

    async def submit(self, new: NewEntry) -> Entry:
        """Journal ``new`` (or find it journaled already) and send it exactly once. A
        scheduled intent (``pay_date``) is only journaled: the due sender sends it on its day,
        after the day's checks (``services/schedule.py``), today's too."""
        try:
            entry = await self.ledger.journal.create(new)
            self._changed(entry)
        except DuplicateIntent as duplicate:
            entry = duplicate.entry
        if entry.state == EntryState.PREPARED and entry.pay_date is not None:
            return entry
        return await self.send(entry)

    async def send(self, entry: Entry, *, late_confirmed: bool = False) -> Entry:
        """Send a ``PREPARED`` entry; an entry already sent is resolved, never sent blind. A
        scheduled one waits for its day (:meth:`waits_for_its_day`); one whose day passed
        leaves only when a person confirms it (``late_confirmed``)."""
        if self._waits(entry, late_confirmed):
            return entry
        async with self._current(entry) as (entry, mine):
            if not mine:
                return entry  # another desktop is sending or resolving it
            if self._waits(entry, late_confirmed):
                return entry
            if entry.state == EntryState.PREPARED:
                return await self._transmit(entry)
            if entry.state in (EntryState.SENT, EntryState.UNKNOWN):
                return await self._resolve_locked(entry)
            return entry  # ACCEPTED or REJECTED: nothing to do

    def _waits(self, entry: Entry, late_confirmed: bool) -> bool:
        if not self.waits_for_its_day(entry):
            return False
        if late_confirmed and entry.pay_date is not None:
            return entry.pay_date > brasilia_today(self.business_clock)
        return True

    async def resolve(self, entry: Entry) -> Entry:
        """Find out what became of an unresolved entry (asking before any resend). A
        scheduled intent not sent yet is not a lost answer: it is left to the due sender."""
        if entry.state == EntryState.PREPARED and entry.pay_date is not None:
            return entry
        async with self._current(entry) as (entry, mine):
            if not mine or not entry.unresolved:
                return entry
            if entry.state == EntryState.PREPARED and entry.pay_date is not None:
                return entry
            return await self._resolve_locked(entry)

    async def resolve_pending(self) -> list[Entry]:
        """Resolve every entry whose outcome is unknown (run at session start); an entry
        another desktop holds the claim of is skipped (that desktop resolves it)."""
        results = []
        for entry in await self.ledger.journal.unresolved():
            if not self._may_send(entry):  # waiting for approval, or another desktop's to send
                continue
            if entry.state == EntryState.PREPARED and entry.pay_date is not None:
                continue  # scheduled: the due sender's (services/schedule.py), on its day
            async with self._current(entry) as (current, mine):
                if not mine:
                    continue
                if current.state == EntryState.PREPARED and current.approvals_needed > 0:
                    # Approved and never sent (journal first): released now, whatever its age;
                    # not to a destination blocked since (it waits, as it is).
                    with suppress(DestinationBlocked):
                        results.append(await self._transmit(current))
                    continue
                results.append(
                    await self._resolve_locked(current) if current.unresolved else current
                )
        if results:
            await self.ledger.audit.record(
                "payment.resolve_pending",
                "ok",
                details={
                    "entries": len(results),
                    "states": sorted({r.state.value for r in results}),
                },
            )
        return results

    async def refresh(self, entry: Entry) -> Entry:
        """Ask the bank for an accepted entry's current status and journal any change."""
        async with self._current(entry) as (entry, mine):
            if not mine or entry.state != EntryState.ACCEPTED or entry.final:
                return entry
            payment = await self._query(entry)
            if payment is None:
                return entry
            return await self._accept(entry, payment, note="status", lookup=True)

    async def verify(self, entry: Entry) -> Entry:
        """Ask the bank about a decided outcome another login's desktop recorded and the bank
        has not confirmed yet (:meth:`JournalStore.unconfirmed
        <treasury_app.ledger.stores.JournalStore.unconfirmed>`): the team database confirms
        it when the bank says the same, and lets the bank's word overrule it otherwise (a
        payment it does not have is unknown again: resolved as any). A lookup that fails
        changes nothing."""
        async with self._current(entry) as (entry, mine):
            if not mine or not entry.final or entry.confirmed_by is not None:
                return entry
            if (entry.outcome_by or entry.created_by) == self.ledger.context.os_user:
                return entry  # one's own word confirms nothing
            found = await self._query(entry)
            if found is not None:
                status = str(found.status)
                updated = await self._journal_accepted(
                    entry,
                    status,
                    note="asked the bank again",
                    lookup=True,
                    end_to_end_id=getattr(found, "end_to_end_id", None),
                    bank_id=None if found.id is None else str(found.id),
                )
            elif entry.state == EntryState.REJECTED:
                updated = await self.ledger.journal.update(
                    entry.id,
                    EntryState.REJECTED,
                    final=True,
                    error=entry.error or "The bank has no payment under this key.",
                    note="asked the bank again",
                    lookup=True,
                )
            else:
                updated = await self.ledger.journal.update(
                    entry.id,
                    EntryState.UNKNOWN,
                    error="The bank has no payment under this key.",
                    note="asked the bank again: not found",
                    lookup=True,
                )
            if updated.overruled_at != entry.overruled_at:
                log.warning(
                    "payment %s: the bank overruled %s's %s",
                    entry.id,
                    entry.outcome_by,
                    entry.bank_status or entry.state.value,
                )
            return self._changed(updated)

    async def apply_status(self, entry: Entry, status: str, *, note: str = "webhook") -> Entry:
        """Journal a status the bank notified (webhooks feed the same path as polling)."""
        entry = await self.ledger.journal.get(entry.id)
        if entry.final or entry.bank_status == status:
            return entry
        return self._changed(await self._journal_accepted(entry, status, note=note))

    # -- internals ---------------------------------------------------------------------------

    async def _transmit(self, entry: Entry) -> Entry:
        if (problem := _request_problem(entry)) is not None:
            return await self._refuse(entry, problem)
        await self._refuse_if_blocked(entry)  # read right before it leaves, whoever sends it
        entry = self._changed(
            await self.ledger.journal.update(entry.id, EntryState.SENT, note="sending")
        )
        if entry.state != EntryState.SENT:  # the bank's word came meanwhile: nothing to send
            return entry
        try:
            payment = await self._post(entry)
        except ApiFailure as error:
            if isinstance(error, IdempotencyKeyReused) or _outcome_unknown(error):
                entry = await self._unknown(entry, error)
                if isinstance(error, IdempotencyKeyReused):
                    return await self._resolve_locked(entry)
                return await self._follow_up(entry)
            return await self._reject(entry, error)
        return await self._accept(entry, payment, note="accepted")

    async def _refuse_if_blocked(self, entry: Entry) -> None:
        """Raise :class:`DestinationBlocked` when ``entry`` pays a key or account blocked in
        the payee registry since it was journaled (an approval, the due sender, a release at
        start: every first send comes through here)."""
        payees = getattr(self.ledger, "payees", None)
        if entry.kind not in BLOCKABLE_KINDS or not entry.payee_detail or payees is None:
            return
        destination = (await payees.by_details([entry.payee_detail])).get(entry.payee_detail)
        if destination is None or destination.state is not DestinationState.BLOCKED:
            return
        owner = await payees.payee(destination.payee_id)
        log.warning("payment %s not sent: its destination is blocked", entry.id)
        raise DestinationBlocked(
            "registry.blocked",
            field="key" if entry.kind is not EntryKind.PIX_MANU else "account",
            detail=entry.payee_detail,
            owner=owner.name if owner is not None else "",
        )

    async def _follow_up(self, entry: Entry) -> Entry:
        """After a lost answer: ask the bank by key at once, a few times with backoff."""
        for delay in self.follow_up:
            self._changed(
                await self.ledger.journal.update(
                    entry.id, EntryState.UNKNOWN, error=entry.error, note=CHECKING_NOTE
                )
            )
            await asyncio.sleep(delay)
            entry = await self._resolve_locked(await self.ledger.journal.get(entry.id))
            if not entry.unresolved or await self.is_held(entry):
                break
        return entry

    # -- held resends --------------------------------------------------------------------------

    def age(self, entry: Entry) -> timedelta:
        """How long ago ``entry`` was journaled, on the engine's clock."""
        created = datetime.fromisoformat(entry.created_at.replace("Z", "+00:00"))
        return self.clock() - created

    def resend_allowed(self, entry: Entry) -> bool:
        """Whether the engine may send ``entry`` again by itself (it is recent enough)."""
        return self.age(entry) <= self.resend_window

    async def is_held(self, entry: Entry) -> bool:
        """An unresolved intent the bank says it does not have, too old to send by itself:
        it waits for a person (:meth:`send_held` or :meth:`cancel_held`)."""
        if not entry.unresolved:
            return False
        history = await self.ledger.journal.history(entry.id)
        return bool(history) and history[-1].note == HELD_NOTE

    async def send_held(self, entry: Entry) -> Entry:
        """A person chose "Send now" for a held intent: ask the bank once more (it may have
        arrived meanwhile), then send with the same key and body."""
        async with self._current(entry) as (entry, mine):
            if not mine or not entry.unresolved:
                return entry
            answered = await self._look_up(entry)
            if answered is not None:
                return answered
            await self._audit(
                "payment.resend_confirmed",
                "ok",
                entry,
                {
                    "entry": entry.id,
                    "age_minutes": int(self.age(entry).total_seconds() // 60),
                },
            )
            resent = await self._resend(entry, note="resending (confirmed by a person)")
            if resent is None:  # it arrived meanwhile: follow what the bank has
                return await self._resolve_locked(await self.ledger.journal.get(entry.id))
            return resent

    async def cancel_held(self, entry: Entry) -> Entry:
        """A person chose "Cancel payment" for an unresolved intent. Only once the bank says it
        does not have it (a lookup that fails refuses, :class:`HeldPaymentError`); found, it is
        followed as any payment. A cancelled intent is final and its key is never sent again."""
        async with self._current(entry) as (entry, mine):
            if not mine or not entry.unresolved:
                return entry
            try:
                found = await self._query(entry)
            except ApiFailure as error:
                raise HeldPaymentError("payment.cancel_unconfirmed", detail=str(error)) from None
            if found is not None:
                return await self._found(entry, found)
            updated = await self.ledger.journal.update(
                entry.id,
                EntryState.REJECTED,
                final=True,
                error="Cancelled by a person: the bank had not received it.",
                note="cancelled by a person",
            )
            await self._audit(
                "payment.cancel",
                "ok",
                entry,
                {"entry": entry.id, "kind": entry.kind.value},
            )
            return self._changed(updated)

    # -- resolving -----------------------------------------------------------------------------

    async def _audit(
        self, action: str, outcome: str, entry: Entry, details: dict[str, Any]
    ) -> None:
        """One audit row about ``entry``: its idempotency key as reference, its amount."""
        await self.ledger.audit.record(
            action,
            outcome,
            reference=entry.idempotency_key,
            amount=entry.amount,
            details=details,
        )

    async def _found(self, entry: Entry, found: PixPayment | BilletPayment) -> Entry:
        resolved = await self._accept(entry, found, note="found by idempotency key", lookup=True)
        await self._audit(
            "payment.resolve",
            "found",
            entry,
            {"entry": entry.id, "bank_status": resolved.bank_status},
        )
        return resolved

    async def _hold(self, entry: Entry) -> Entry:
        if await self.is_held(entry):
            return entry
        updated = await self.ledger.journal.update(
            entry.id,
            EntryState.UNKNOWN,
            error="Not confirmed by the bank: a person decides whether to send it again.",
            note=HELD_NOTE,
        )
        await self._audit(
            "payment.resend_held",
            "held",
            entry,
            {
                "entry": entry.id,
                "kind": entry.kind.value,
                "journaled_at": entry.created_at,
            },
        )
        log.warning("payment %s not found at the bank and too old to resend: held", entry.id)
        return self._changed(updated)

    async def _resend(self, entry: Entry, *, note: str) -> Entry | None:
        """Send the intent again with its own key and body. ``None`` when the bank answers
        that it holds the key already (it arrived meanwhile): the caller asks again."""
        if (problem := _request_problem(entry)) is not None:
            return await self._refuse(entry, problem)
        sent = self._changed(await self.ledger.journal.update(entry.id, EntryState.SENT, note=note))
        if sent.state != EntryState.SENT:  # the bank's word came meanwhile: nothing to send
            return sent
        try:
            payment = await self._post(entry)
        except IdempotencyKeyReused:
            return None
        except ApiFailure as error:
            if _outcome_unknown(error):
                return await self._unknown(entry, error)
            return await self._reject(entry, error)
        await self._audit(
            "payment.resolve",
            "resent",
            entry,
            {"entry": entry.id},
        )
        return await self._accept(entry, payment, note="accepted on resend")

    async def _resolve_locked(self, entry: Entry) -> Entry:
        for _ in range(RESOLVE_ROUNDS):
            answered = await self._look_up(entry)
            if answered is not None:
                return answered
            # The bank never got it. Recent: send again, with the same key and the same body.
            # Older than the resend window: a person decides (the bank may have forgotten the
            # key, or someone paid it another way meanwhile).
            if not self.resend_allowed(entry):
                return await self._hold(entry)
            resent = await self._resend(entry, note="resending (not found)")
            if resent is not None:
                return resent
        return await self._unknown(entry, None, note="still unknown after asking")

    async def _look_up(self, entry: Entry) -> Entry | None:
        """Ask the bank for the intent by key: the entry journaled as found, or left unknown
        when the lookup fails; ``None`` when the bank answers that it does not have it."""
        try:
            found = await self._query(entry)
        except ApiFailure as error:
            return await self._unknown(entry, error, note="lookup failed")
        return None if found is None else await self._found(entry, found)

    async def _query(self, entry: Entry) -> PixPayment | BilletPayment | None:
        """The bank's record of this intent, by idempotency key (None: it has none)."""
        key = entry.idempotency_key
        if entry.kind == EntryKind.BILLET:
            page = await self.accounts.list_billets(idempotency_key=key, per_page=10)
            matches = [p for p in page.items if p.idempotency_key == key]
            return matches[0] if matches else None
        try:
            return await self.accounts.get_pix_payment_by_idempotency_key(key)
        except NotFound:
            return None

    async def _post(self, entry: Entry) -> PixPayment | BilletPayment:
        request = _request_model(entry)
        key = entry.idempotency_key
        if isinstance(request, PixKeyPaymentRequest):
            return await self.accounts.pay_pix_dict(request, idempotency_key=key)
        if isinstance(request, PixQrCodePaymentRequest):
            return await self.accounts.pay_pix_qrc(request, idempotency_key=key)
        if isinstance(request, PixManualPaymentRequest):
            return await self.accounts.pay_pix_manu(request, idempotency_key=key)
        return await self.accounts.pay_billet(request, idempotency_key=key)

    async def _refuse(self, entry: Entry, problem: str) -> Entry:
        """Never send a journaled body that is not what was reviewed: final, audited."""
        log.error("payment %s not sent: %s", entry.id, problem)
        updated = await self.ledger.journal.update(
            entry.id,
            EntryState.REJECTED,
            final=True,
            error=f"Not sent: {problem}",
            note="refused before sending",
        )
        await self._audit(
            _audit_action(entry),
            "refused",
            entry,
            {"entry": entry.id, "kind": entry.kind.value, "error": problem},
        )
        return self._changed(updated)

    async def _accept(
        self,
        entry: Entry,
        payment: PixPayment | BilletPayment,
        *,
        note: str,
        lookup: bool = False,
    ) -> Entry:
        """Journal the bank's record of the payment (``lookup``: found by asking, rather than
        its answer to this send)."""
        status = str(payment.status)
        e2e = getattr(payment, "end_to_end_id", None)
        bank_id = None if payment.id is None else str(payment.id)
        creditor = payment.creditor_account.name if payment.creditor_account else None
        creditor = (creditor or "").strip()[:200] or None
        changed = (
            entry.state != EntryState.ACCEPTED
            or entry.bank_status != status
            or (creditor is not None and creditor != entry.creditor_name)
        )
        if not changed:
            return entry
        updated = await self._journal_accepted(
            entry,
            status,
            note=note,
            lookup=lookup,
            error=payment.error_code if is_failed_status(status) else None,
            end_to_end_id=e2e,
            bank_id=bank_id,
            creditor_name=creditor,
        )
        if entry.state != EntryState.ACCEPTED:
            await self._audit(
                _audit_action(entry),
                "accepted",
                entry,
                {
                    "entry": entry.id,
                    "kind": entry.kind.value,
                    "payee": entry.payee_name or entry.payee_detail,
                    "bank_status": status,
                    "end_to_end_id": e2e,
                    "bank_id": bank_id,
                },
            )
        await self._verify_destination(updated, payment)
        return self._changed(updated)

    async def _verify_destination(self, entry: Entry, payment: PixPayment | BilletPayment) -> None:
        """A settled payment whose bank answer names its creditor tells the payee registry
        whether the destination is the registered payee's (issue 36): the same document
        verifies it, another marks it changed (audited, shown)."""
        if entry.kind == EntryKind.BILLET or not entry.final:
            return
        if not is_success_status(entry.bank_status or ""):
            return
        creditor = getattr(payment, "creditor_account", None)
        if creditor is None or not (creditor.document or "").strip():
            return
        try:
            destination = await self.ledger.payees.settled(
                entry.payee_detail, entry.id, creditor.name or "", creditor.document or ""
            )
            payee = (
                None
                if destination is None
                else await self.ledger.payees.payee(destination.payee_id)
            )
        except LedgerRefused as error:  # the registry's word waits for the next answer
            log.warning("the payee registry did not take entry %s's creditor: %s", entry.id, error)
            return
        if payee is not None and not same_payee(payee, creditor.document or ""):
            log.warning("entry %s was paid to someone the registry does not name", entry.id)
            for listener in list(self.mismatch_listeners):
                listener(entry, creditor.name or "", creditor.document or "")

    async def _journal_accepted(
        self,
        entry: Entry,
        status: str,
        note: str,
        *,
        lookup: bool = False,
        error: str | None = None,
        **ids: str | None,
    ) -> Entry:
        """Journal ``entry`` as accepted with the bank's ``status`` (final once the status is)
        and the identifiers the bank gave: ``end_to_end_id``, ``bank_id``, ``creditor_name``
        (one left out or ``None`` stays as the journal has it). ``error``: the bank's code of
        why a payment it accepted then failed (``errorCode``: ``AM04``, ``EXPIRED``...)."""
        final = is_final_status(status)
        return await self.ledger.journal.update(
            entry.id,
            EntryState.ACCEPTED,
            bank_status=status,
            final=final,
            error=error,
            note=note,
            lookup=lookup,
            **ids,
        )

    async def _reject(self, entry: Entry, error: ApiFailure) -> Entry:
        message = str(error)
        updated = await self.ledger.journal.update(
            entry.id,
            EntryState.REJECTED,
            final=True,
            error=refusal_note(entry, error),  # coded: the UI reads what it was by its code
            note="refused by the bank",
        )
        await self._audit(
            _audit_action(entry),
            "rejected",
            entry,
            {
                "entry": entry.id,
                "kind": entry.kind.value,
                "status": getattr(error, "status", None),
                "error": message,
            },
        )
        return self._changed(updated)

    async def _unknown(
        self, entry: Entry, error: ApiFailure | None, *, note: str = "no answer"
    ) -> Entry:
        message = str(error) if error is not None else note
        current = await self.ledger.journal.get(entry.id)
        if await self.is_held(current):  # a held payment stays held until a person decides
            log.info("held payment %s: %s", entry.id, message)
            return current
        was_unknown = current.state == EntryState.UNKNOWN
        updated = await self.ledger.journal.update(
            entry.id, EntryState.UNKNOWN, error=message, note=note
        )
        if was_unknown:  # the audit repeats a row only when the outcome changes
            log.info("payment %s still unknown: %s", entry.id, message)
            return self._changed(updated)
        await self._audit(
            _audit_action(entry),
            "unknown",
            entry,
            {"entry": entry.id, "kind": entry.kind.value, "error": message},
        )
        log.warning("payment %s outcome unknown: %s", entry.id, message)
        return self._changed(updated)
