"""One place that follows every payment until it is final.

:class:`PaymentTracker` polls the bank for every journal entry that can still change —
resolving unknown outcomes first (through the engine: ask before any resend) — with a
backoff that starts at a second and grows to a minute while nothing changes, journals each
new status, fetches and archives the receipt of every successful payment, and tells its
subscribers (the UI).

On a team database with a live webhook receiver (``receiver_live``), the bank's
notifications bring each new status (through the journal's change feed) and the tracker
stops polling fast: one pass at start-up (the reconciliation) and a slow safety pass every
:data:`SAFETY_POLL_SECONDS`, for whatever a notification missed. When the receiver stops
being live, :meth:`PaymentTracker.receiver_changed` brings the normal polling back at once.

On a team database each pass also asks the bank, once, about every decided outcome another
login's desktop recorded and the bank has not confirmed yet (:meth:`PaymentTracker.
verify_outcomes`): the bank's word confirms it or overrules it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from datetime import timedelta

from treasury_app.api.accounts.models import SUCCESS_STATUSES, is_success_status
from treasury_app.api.errors import ApiFailure, BusinessRuleViolation, NotFound
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.errors import LedgerUnavailable
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ledger.receipts import Receipt, ReceiptError, receipt_path
from treasury_app.services.payments import PaymentEngine

log = logging.getLogger("treasury_app.services.tracker")

BACKOFF_SECONDS: tuple[float, ...] = (1, 2, 3, 5, 10, 20, 30, 60)
VERIFY_WINDOW = timedelta(days=1)
"""How recent an outcome another login recorded must be for this desktop to ask the bank about
it (older ones were asked about by the desktops running then; a bank may forget old keys)."""
SAFETY_POLL_SECONDS = 300.0
"""With a live webhook receiver: seconds between two safety passes (notifications carry the
news; this only catches one the bank failed to deliver)."""


class ReceiptNotIssued(ReceiptError, RuleError):
    """A receipt asked for before the bank gave the payment its identifier (a rule's code:
    still a :class:`ReceiptError` to whoever catches those)."""


class PaymentTracker:
    def __init__(
        self,
        engine: PaymentEngine,
        *,
        fetch_receipts: bool = True,
        backoff: Sequence[float] = BACKOFF_SECONDS,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        receiver_live: Callable[[], bool] | None = None,
        safety_poll: float = SAFETY_POLL_SECONDS,
    ) -> None:
        """``receiver_live`` says whether a webhook receiver brings the bank's notifications
        now (``None``: never, as on the file ledger); ``sleep`` replaces the waits (tests)."""
        self.engine = engine
        self.ledger = engine.ledger
        self.fetch_receipts = fetch_receipts
        self.backoff = tuple(backoff)
        self.safety_poll = safety_poll
        self.receiver_live: Callable[[], bool] = receiver_live or (lambda: False)
        self._sleep = sleep
        self._wake = asyncio.Event()
        self._stopped = False
        self._was_live = False
        self._verified: set[int] = set()
        self._receipts_checked: set[int] = set()

    def subscribe(self, listener: Callable[[Entry], None]) -> Callable[[], None]:
        """Listen to every change of every entry (the engine's notifications)."""
        return self.engine.subscribe(listener)

    def wake(self) -> None:
        """Poll now (the user asked for a refresh, or the receiver stopped being live)."""
        self._wake.set()

    def sent(self) -> None:
        """A payment was just sent: follow it now, unless a live receiver brings its news
        (then only the safety passes ask the bank)."""
        if not self.slow:
            self._wake.set()

    @property
    def slow(self) -> bool:
        """Whether only the safety passes run (a live receiver brings the news)."""
        return self.receiver_live()

    def receiver_changed(self) -> None:
        """The receiver's state changed: when it stopped being live, poll now and go back to
        the normal backoff (a notification may have been lost meanwhile)."""
        live = self.receiver_live()
        if self._was_live and not live:
            log.info("webhook receiver not live: back to polling")
            self.wake()
        self._was_live = live

    async def poll_once(self) -> list[Entry]:
        """One pass over every open entry; returns the entries whose state changed."""
        changed: list[Entry] = []
        for entry in await self.ledger.journal.open_entries():
            try:
                if entry.unresolved:
                    updated = await self.engine.resolve(entry)
                else:
                    updated = await self.engine.refresh(entry)
            except ApiFailure as error:  # the next pass tries again
                log.info("tracking entry %s: %s", entry.id, error)
                continue
            if (updated.state, updated.bank_status) != (entry.state, entry.bank_status):
                changed.append(updated)
        changed.extend(await self.verify_outcomes())
        if self.fetch_receipts:
            await self.fetch_missing_receipts(changed)
            await self.check_receipts()
        return changed

    async def verify_outcomes(self) -> list[Entry]:
        """Ask the bank, once per run, about each decided outcome another login's desktop
        recorded (in :data:`VERIFY_WINDOW`) that the bank has not confirmed yet; returns the
        entries the bank's word moved. A lookup that fails is tried again next pass."""
        since = self.engine.clock() - VERIFY_WINDOW
        moved: list[Entry] = []
        for entry in await self.ledger.journal.unconfirmed(since=since):
            if entry.id in self._verified:
                continue
            self._verified.add(entry.id)
            try:
                updated = await self.engine.verify(entry)
            except ApiFailure as error:
                self._verified.discard(entry.id)
                log.info("asking the bank about entry %s: %s", entry.id, error)
                continue
            if (updated.state, updated.bank_status) != (entry.state, entry.bank_status):
                moved.append(updated)
        return moved

    async def fetch_missing_receipts(self, also: Sequence[Entry] = ()) -> list[Receipt]:
        """Archive the receipt of every successful payment that has none yet: those of ``also``
        (the entries that just changed, however many: a whole batch settles in one pass) and
        every final successful entry the archive lacks. A receipt that cannot be fetched now
        (not issued yet, the network, the bank failing) is tried again on the next pass."""
        candidates = {entry.id: entry for entry in also}
        for entry in await self.ledger.journal.final_without_receipt(
            [str(status) for status in SUCCESS_STATUSES]
        ):
            candidates.setdefault(entry.id, entry)
        saved = []
        for entry in candidates.values():
            if (
                entry.state == EntryState.ACCEPTED
                and entry.final
                and entry.bank_status is not None
                and is_success_status(entry.bank_status)
                and _bank_id(entry) is not None  # a receipt is asked for by it
                and await self.ledger.receipts.for_entry(entry.id) is None
            ):
                try:
                    saved.append(await self.receipt(entry))
                except BusinessRuleViolation:  # not issued yet
                    continue
                except (ApiFailure, ReceiptError) as error:
                    log.info("receipt of entry %s: %s", entry.id, error)
        return saved

    async def receipt(self, entry: Entry) -> Receipt:
        """The receipt of a settled payment, from the archive or fetched once and archived."""
        kind = "BILLET" if entry.kind == EntryKind.BILLET else "PIX"
        bank_id = _bank_id(entry)
        if bank_id is None:
            raise ReceiptNotIssued("receipt.no_bank_id")
        stored = await self.ledger.receipts.find(kind, bank_id)
        if stored is not None and not self._second_opinion_due(stored):
            return self._as_fetched_here(stored)
        accounts = self.engine.accounts
        pdf = (
            await accounts.get_billet_receipt(bank_id)
            if kind == "BILLET"
            else await accounts.get_pix_receipt(bank_id)
        )
        if stored is not None:
            return await self._compare_receipt(entry, stored, pdf)
        receipt = await self.ledger.receipts.save(
            pdf,
            kind=kind,
            bank_id=bank_id,
            entry_id=entry.id,
            # The name the bank gave (a Pix key names nobody until then), else what was typed.
            payee_name=entry.creditor_name or entry.payee_name or entry.payee_detail,
            amount=entry.amount,
            paid_on=entry.updated_at[:10],
        )
        await self.ledger.audit.record(
            "receipt.save",
            "ok",
            reference=bank_id,
            amount=entry.amount,
            details={"entry": entry.id, "kind": kind, "sha256": receipt.sha256},
        )
        return receipt

    async def pix_receipt(self, end_to_end_id: str) -> bytes | None:
        """The PDF receipt of the Pix ``end_to_end_id`` (a statement line): the archived one
        (as this desktop got it from the bank, when its copy disputed another's), else the
        bank's; ``None`` while the bank has none."""
        receipts = self.ledger.receipts
        archived = await receipts.find("PIX", end_to_end_id)
        if archived is not None:
            return await receipts.read(self._as_fetched_here(archived))
        try:
            return await self.engine.accounts.get_pix_receipt(end_to_end_id)
        except (NotFound, BusinessRuleViolation):
            return None

    def _second_opinion_due(self, stored: Receipt) -> bool:
        """Whether this desktop compares ``stored`` with the bank's own copy: stored by
        another login (a team database) and compared by nobody yet."""
        me = self.ledger.context.os_user
        return (
            bool(stored.saved_by)
            and stored.saved_by != me
            and stored.confirmed_by is None
            and not stored.disputed
        )

    async def _compare_receipt(self, entry: Entry, stored: Receipt, pdf: bytes) -> Receipt:
        """Store the bank's copy ``pdf`` beside ``stored`` (another login's): the database
        confirms the receipt when the bytes are the same and marks it disputed when not
        (audited either way). The receipt returned is the bank's copy as this desktop got
        it: ``stored`` confirmed, or the same row pointing at this desktop's copy."""
        checked = await self.ledger.receipts.save(
            pdf,
            kind=stored.kind,
            bank_id=stored.bank_id,
            entry_id=entry.id,
            payee_name=stored.payee_name,
            paid_on=stored.paid_on,
        )
        if checked.disputed:
            log.warning(
                "receipt of entry %s: the bank's copy differs from the one %s stored",
                entry.id,
                checked.saved_by,
            )
        return self._as_fetched_here(checked)

    def _as_fetched_here(self, stored: Receipt) -> Receipt:
        """``stored``, or — when this login's fetch disputed it — the copy this desktop got
        from the bank (the same row, pointing at that file)."""
        if not stored.disputed or stored.disputed_by != self.ledger.context.os_user:
            return stored
        mine = stored.disputed_sha256 or stored.sha256
        return replace(stored, sha256=mine, path=receipt_path(stored.path.parent.parent, mine))

    async def check_receipts(self) -> list[Receipt]:
        """Compare, once per run, each receipt another login stored and nobody compared yet
        with the bank's own copy (a team database): a planted PDF is disputed at the next
        desktop that asks the bank. Returns the receipts found disputed."""
        disputed = []
        for stored in await self.ledger.receipts.unchecked():
            if stored.id in self._receipts_checked or stored.entry_id is None:
                continue
            self._receipts_checked.add(stored.id)
            try:
                entry = await self.ledger.journal.get(stored.entry_id)
                checked = await self.receipt(entry)
            except (ApiFailure, BusinessRuleViolation, ReceiptError, LookupError) as error:
                self._receipts_checked.discard(stored.id)
                log.info("comparing the receipt of entry %s: %s", stored.entry_id, error)
                continue
            if checked.disputed:
                disputed.append(checked)
        return disputed

    async def run(self) -> None:
        """Poll until :meth:`stop`: quickly after a change or a wake-up, slower when idle;
        with a live receiver, every :attr:`safety_poll` seconds only (the first pass, the
        reconciliation at start-up, always runs).

        A wake-up that arrives while a pass is running is not lost (the next pass starts at
        once), :meth:`stop` during a pass ends the loop when the pass ends, and a pass that
        fails does not end the tracking."""
        step = 0
        while not self._stopped:
            self._wake.clear()  # from here on, a wake-up (even during the pass) counts
            try:
                changed = await self.poll_once()
            except Exception:
                log.exception("payment tracking pass failed; trying again later")
                changed = []
            if self._stopped:
                break
            step = 0 if changed else min(step + 1, len(self.backoff) - 1)
            if not await self._anything_open():
                step = len(self.backoff) - 1
            self._was_live = self.slow
            if self._wake.is_set():  # woken during the pass: poll again now
                step = 0
                continue
            wait = self.safety_poll if self._was_live else self.backoff[step]
            if self._sleep is not None:
                await self._sleep(wait)
            else:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
            if self._wake.is_set():
                step = 0

    async def _anything_open(self) -> bool:
        try:
            return bool(await self.ledger.journal.open_entries())
        except LedgerUnavailable:  # the team database away: the next pass tries again
            return True

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()


def _bank_id(entry: Entry) -> str | None:
    """What the bank files ``entry``'s receipt under: a slip's payment id, a Pix's endToEndId
    (``None`` until the bank has named it: no receipt can be asked for then)."""
    return entry.bank_id if entry.kind == EntryKind.BILLET else entry.end_to_end_id
