"""Exactly-once payments: journal first, send with the journal's idempotency key, resolve
every unknown outcome by asking the bank before anything is sent again.

The rules (DESIGN.md, "Exactly-once payments"):

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

One lock per idempotency key serialises everything that touches one intent, so concurrent
sends of the same review produce one request at a time and one payment.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import (
    BilletPayment,
    BilletPaymentRequest,
    PixKeyPaymentRequest,
    PixManualPaymentRequest,
    PixPayment,
    PixQrCodePaymentRequest,
    is_final_status,
)
from treasury_app.api.errors import (
    ApiError,
    ApiFailure,
    IdempotencyKeyReused,
    NotFound,
    RateLimited,
    ServerError,
)
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import (
    DuplicateIntent,
    Entry,
    EntryKind,
    EntryState,
    NewEntry,
)

log = logging.getLogger("treasury_app.services.payments")

RESOLVE_ROUNDS = 5
EntryListener = Callable[[Entry], None]


def _outcome_unknown(error: ApiFailure) -> bool:
    """Whether an exception leaves the bank's side unknown (rather than a clear refusal)."""
    if isinstance(error, ApiError):
        return isinstance(error, ServerError | RateLimited | IdempotencyKeyReused) or (
            error.status in (408, 409, 425)
        )
    return True  # TransportFailure, ResponseFormatError


def _audit_action(entry: Entry) -> str:
    return "billet.pay" if entry.kind == EntryKind.BILLET else "payout.send"


class PaymentEngine:
    """Sends journaled payment intents exactly once and resolves unknown outcomes."""

    def __init__(self, accounts: AccountsClient, ledger: Ledger) -> None:
        self.accounts = accounts
        self.ledger = ledger
        self._locks: dict[str, asyncio.Lock] = {}
        self._listeners: list[EntryListener] = []

    # -- listeners ---------------------------------------------------------------------------

    def subscribe(self, listener: EntryListener) -> Callable[[], None]:
        """Call ``listener(entry)`` on every change of a journal entry; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener)

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

    # -- public ------------------------------------------------------------------------------

    async def submit(self, new: NewEntry) -> Entry:
        """Journal ``new`` (or find it journaled already) and send it exactly once."""
        try:
            entry = self.ledger.journal.create(new)
            self._changed(entry)
        except DuplicateIntent as duplicate:
            entry = duplicate.entry
        return await self.send(entry)

    async def send(self, entry: Entry) -> Entry:
        """Send a ``PREPARED`` entry; an entry already sent is resolved, never sent blind."""
        async with self._lock(entry.idempotency_key):
            entry = self.ledger.journal.get(entry.id)
            if entry.state == EntryState.PREPARED:
                return await self._transmit(entry)
            if entry.state in (EntryState.SENT, EntryState.UNKNOWN):
                return await self._resolve_locked(entry)
            return entry  # ACCEPTED or REJECTED: nothing to do

    async def resolve(self, entry: Entry) -> Entry:
        """Find out what became of an unresolved entry (asking before any resend)."""
        async with self._lock(entry.idempotency_key):
            entry = self.ledger.journal.get(entry.id)
            if not entry.unresolved:
                return entry
            return await self._resolve_locked(entry)

    async def resolve_pending(self) -> list[Entry]:
        """Resolve every entry whose outcome is unknown (run at session start)."""
        results = []
        for entry in self.ledger.journal.unresolved():
            results.append(await self.resolve(entry))
        if results:
            self.ledger.audit.record(
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
        async with self._lock(entry.idempotency_key):
            entry = self.ledger.journal.get(entry.id)
            if entry.state != EntryState.ACCEPTED or entry.final:
                return entry
            payment = await self._query(entry)
            if payment is None:
                return entry
            return self._accept(entry, payment, note="status")

    def apply_status(self, entry: Entry, status: str, *, note: str = "webhook") -> Entry:
        """Journal a status the bank notified (webhooks feed the same path as polling)."""
        entry = self.ledger.journal.get(entry.id)
        if entry.final or entry.bank_status == status:
            return entry
        updated = self.ledger.journal.update(
            entry.id,
            EntryState.ACCEPTED,
            bank_status=status,
            final=is_final_status(status),
            note=note,
        )
        return self._changed(updated)

    # -- internals ---------------------------------------------------------------------------

    async def _transmit(self, entry: Entry) -> Entry:
        entry = self._changed(self.ledger.journal.update(entry.id, EntryState.SENT, note="sending"))
        try:
            payment = await self._post(entry)
        except ApiFailure as error:
            if isinstance(error, IdempotencyKeyReused) or _outcome_unknown(error):
                entry = self._unknown(entry, error)
                if isinstance(error, IdempotencyKeyReused):
                    return await self._resolve_locked(entry)
                return entry
            return self._reject(entry, error)
        return self._accept(entry, payment, note="accepted")

    async def _resolve_locked(self, entry: Entry) -> Entry:
        for _ in range(RESOLVE_ROUNDS):
            try:
                found = await self._query(entry)
            except ApiFailure as error:
                return self._unknown(entry, error, note="lookup failed")
            if found is not None:
                resolved = self._accept(entry, found, note="found by idempotency key")
                self.ledger.audit.record(
                    "payment.resolve",
                    "found",
                    reference=entry.idempotency_key,
                    amount=entry.amount,
                    details={"entry": entry.id, "bank_status": resolved.bank_status},
                )
                return resolved
            # The bank never got it: send again, with the same key and the same body.
            self._changed(
                self.ledger.journal.update(entry.id, EntryState.SENT, note="resending (not found)")
            )
            try:
                payment = await self._post(entry)
            except IdempotencyKeyReused:
                continue  # it arrived meanwhile: ask again
            except ApiFailure as error:
                if _outcome_unknown(error):
                    return self._unknown(entry, error)
                return self._reject(entry, error)
            self.ledger.audit.record(
                "payment.resolve",
                "resent",
                reference=entry.idempotency_key,
                amount=entry.amount,
                details={"entry": entry.id},
            )
            return self._accept(entry, payment, note="accepted on resend")
        return self._unknown(entry, None, note="still unknown after asking")

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
        body: dict[str, Any] = entry.request()
        key = entry.idempotency_key
        if entry.kind == EntryKind.PIX_KEY:
            return await self.accounts.pay_pix_dict(
                PixKeyPaymentRequest.model_validate(body), idempotency_key=key
            )
        if entry.kind == EntryKind.PIX_QRC:
            return await self.accounts.pay_pix_qrc(
                PixQrCodePaymentRequest.model_validate(body), idempotency_key=key
            )
        if entry.kind == EntryKind.PIX_MANU:
            return await self.accounts.pay_pix_manu(
                PixManualPaymentRequest.model_validate(body), idempotency_key=key
            )
        return await self.accounts.pay_billet(
            BilletPaymentRequest.model_validate(body), idempotency_key=key
        )

    def _accept(self, entry: Entry, payment: PixPayment | BilletPayment, *, note: str) -> Entry:
        status = str(payment.status)
        e2e = getattr(payment, "end_to_end_id", None)
        bank_id = None if payment.id is None else str(payment.id)
        changed = entry.state != EntryState.ACCEPTED or entry.bank_status != status
        if not changed:
            return entry
        updated = self.ledger.journal.update(
            entry.id,
            EntryState.ACCEPTED,
            bank_status=status,
            final=is_final_status(status),
            end_to_end_id=e2e,
            bank_id=bank_id,
            note=note,
        )
        if entry.state != EntryState.ACCEPTED:
            self.ledger.audit.record(
                _audit_action(entry),
                "accepted",
                reference=entry.idempotency_key,
                amount=entry.amount,
                details={
                    "entry": entry.id,
                    "kind": entry.kind.value,
                    "payee": entry.payee_name or entry.payee_detail,
                    "bank_status": status,
                    "end_to_end_id": e2e,
                    "bank_id": bank_id,
                },
            )
        return self._changed(updated)

    def _reject(self, entry: Entry, error: ApiFailure) -> Entry:
        message = str(error)
        updated = self.ledger.journal.update(
            entry.id, EntryState.REJECTED, final=True, error=message, note="refused by the bank"
        )
        self.ledger.audit.record(
            _audit_action(entry),
            "rejected",
            reference=entry.idempotency_key,
            amount=entry.amount,
            details={
                "entry": entry.id,
                "kind": entry.kind.value,
                "status": getattr(error, "status", None),
                "error": message,
            },
        )
        return self._changed(updated)

    def _unknown(self, entry: Entry, error: ApiFailure | None, *, note: str = "no answer") -> Entry:
        message = str(error) if error is not None else note
        updated = self.ledger.journal.update(entry.id, EntryState.UNKNOWN, error=message, note=note)
        self.ledger.audit.record(
            _audit_action(entry),
            "unknown",
            reference=entry.idempotency_key,
            amount=entry.amount,
            details={"entry": entry.id, "kind": entry.kind.value, "error": message},
        )
        log.warning("payment %s outcome unknown: %s", entry.id, message)
        return self._changed(updated)
