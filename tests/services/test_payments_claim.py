"""Exactly once across desktops: the engine sends or resolves an entry only while it holds the
journal's claim on it. While another desktop holds the claim (it is sending or resolving that
entry on a team database), ``send``, ``resolve``, ``refresh``, ``send_held`` and
``cancel_held`` leave the bank alone and return the entry as the journal has it, and
``resolve_pending`` skips it. Runs on every ledger backend, with a bank that records each
call (and fails the test if a held entry reaches it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest

from treasury_app.api.errors import TransportFailure
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.payments import HELD_NOTE, PaymentEngine


class ClaimedElsewhere:
    """The ledger's journal, as seen while another desktop holds the claim of the entries in
    ``held``; records which entries this desktop holds a claim on right now."""

    def __init__(self, journal: Any) -> None:
        self._journal = journal
        self.held: set[int] = set()
        self.active: set[int] = set()
        self.asked: list[int] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._journal, name)

    @asynccontextmanager
    async def claim(self, entry_id: int) -> AsyncIterator[bool]:
        self.asked.append(entry_id)
        if entry_id in self.held:
            yield False
            return
        async with self._journal.claim(entry_id) as mine:
            self.active.add(entry_id)
            try:
                yield mine
            finally:
                self.active.discard(entry_id)


class RecordingBank:
    """Answers every request with a lost answer (the outcome stays unknown), after checking
    that this desktop holds the claim of the entry the request is about."""

    def __init__(self, journal: ClaimedElsewhere, ledger: Ledger) -> None:
        self.journal = journal
        self.ledger = ledger
        self.calls: list[tuple[str, str]] = []

    def _call(self, name: str) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, idempotency_key: str | None = None, **kwargs: Any) -> Any:
            key = idempotency_key if idempotency_key is not None else args[0]
            entry = await self.ledger.journal.by_key(key)
            assert entry is not None and entry.id not in self.journal.held, "a held entry"
            assert entry.id in self.journal.active, "the bank was asked without the claim"
            self.calls.append((name, key))
            raise TransportFailure("lost", method="POST", path=name, request_sent=True)

        return call

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        return self._call(name)


@pytest.fixture
def journal(ledger: Ledger) -> ClaimedElsewhere:
    wrapped = ClaimedElsewhere(ledger.journal)
    ledger.journal = wrapped  # type: ignore[misc]
    return wrapped


@pytest.fixture
def bank(journal: ClaimedElsewhere, ledger: Ledger) -> RecordingBank:
    return RecordingBank(journal, ledger)


@pytest.fixture
def engine(bank: RecordingBank, ledger: Ledger) -> PaymentEngine:
    return PaymentEngine(bank, ledger, follow_up=())  # type: ignore[arg-type]


def intent(amount: str = "12.34") -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
        },
        payee_detail="fornecedor@empresa.com.br",
    )


async def journaled(ledger: Ledger, state: EntryState, **changes: Any) -> Entry:
    """An intent journaled and moved to ``state`` as the engine moves it (sent first)."""
    entry = await ledger.journal.create(intent())
    if state != EntryState.PREPARED:
        entry = await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    if state not in (EntryState.PREPARED, EntryState.SENT):
        entry = await ledger.journal.update(entry.id, state, **changes)
    return entry


async def snapshot(ledger: Ledger, entry: Entry) -> tuple[Entry, int, int]:
    """The entry as journaled, its history's length and the audit's length."""
    current = await ledger.journal.get(entry.id)
    return current, len(await ledger.journal.history(entry.id)), await ledger.audit.count()


async def test_an_entry_another_desktop_holds_is_left_alone_by_every_operation(
    engine: PaymentEngine, journal: ClaimedElsewhere, bank: RecordingBank, ledger: Ledger
) -> None:
    prepared = await journaled(ledger, EntryState.PREPARED)
    unknown = await journaled(ledger, EntryState.UNKNOWN, error="timeout")
    accepted = await journaled(ledger, EntryState.ACCEPTED, bank_status="PROCESSING")
    held = await journaled(ledger, EntryState.UNKNOWN, error="not found", note=HELD_NOTE)
    journal.held = {prepared.id, unknown.id, accepted.id, held.id}
    operations = [
        (engine.send, prepared),
        (engine.send, unknown),  # an unresolved entry: send resolves it
        (engine.resolve, unknown),
        (engine.refresh, accepted),
        (engine.send_held, held),
        (engine.cancel_held, held),
    ]
    for operation, entry in operations:
        before = await snapshot(ledger, entry)
        returned = await operation(entry)
        assert returned == before[0]  # the entry as the journal has it now
        assert await snapshot(ledger, entry) == before  # nothing journaled, nothing audited
        assert journal.asked[-1] == entry.id  # the claim was asked for
    assert bank.calls == []
    assert await engine.is_held(await ledger.journal.get(held.id))


async def test_the_journal_as_it_is_now_is_returned_not_the_callers_copy(
    engine: PaymentEngine, journal: ClaimedElsewhere, ledger: Ledger
) -> None:
    stale = await journaled(ledger, EntryState.PREPARED)
    # The other desktop sent it meanwhile, and still holds the claim (it is resolving it).
    await ledger.journal.update(stale.id, EntryState.SENT, note="sending")
    journal.held = {stale.id}
    returned = await engine.send(stale)
    assert returned.state == EntryState.SENT and returned == await ledger.journal.get(stale.id)


async def test_resolve_pending_resolves_what_it_can_claim_and_skips_the_rest(
    engine: PaymentEngine, journal: ClaimedElsewhere, bank: RecordingBank, ledger: Ledger
) -> None:
    engine.resend_window = timedelta(hours=1)
    mine = await journaled(ledger, EntryState.UNKNOWN, error="timeout")
    theirs = await journaled(ledger, EntryState.SENT)
    journal.held = {theirs.id}
    theirs_before = await ledger.journal.history(theirs.id)
    resolved = await engine.resolve_pending()
    assert [entry.id for entry in resolved] == [mine.id]  # the held one is not in the result
    assert resolved[0] == await ledger.journal.get(mine.id)
    assert bank.calls and {key for _, key in bank.calls} == {mine.idempotency_key}
    assert await ledger.journal.get(theirs.id) == theirs  # untouched
    assert await ledger.journal.history(theirs.id) == theirs_before
    assert set(journal.asked) == {mine.id, theirs.id}
    (row,) = await ledger.audit.entries(action="payment.resolve_pending")
    assert row.details["entries"] == 1


async def test_a_claimed_entry_is_sent_while_the_claim_is_held(
    engine: PaymentEngine, journal: ClaimedElsewhere, bank: RecordingBank, ledger: Ledger
) -> None:
    entry = await engine.submit(intent())
    # The bank saw the request while this desktop held the claim (RecordingBank checks it).
    assert bank.calls == [("pay_pix_dict", entry.idempotency_key)]
    assert entry.state == EntryState.UNKNOWN  # a lost answer: never a guess
    assert journal.active == set()  # the claim ends with the operation
