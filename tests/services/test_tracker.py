"""PaymentTracker against a sandbox bank of its own (real mutual TLS): a pass moves settled and
liquidated payments to final and archives their receipts (also when the bank fails to hand a
receipt over, and however many payments settle at once), resolves an unknown outcome without
paying twice, tells its subscribers every change; ``run()`` backs off, wakes up, and stops."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import sandbox_now
from tests.services.conftest import module_sandbox
from tests.waiting import LONG_WAIT_SECONDS, WAIT_SECONDS
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import PaymentFlow
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.billets import BilletsService
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutsService
from treasury_app.services.tracker import PaymentTracker

SUPPLIER = "fornecedor@empresa.com.br"
PIX_DICT = "/api/v2/pix/payments/dict"
BY_KEY = "/api/v2/pix/payments/idempotencyKey/*"
PIX_RECEIPT = "/api/v2/pix/payments/receipt/*"

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: the tests pay its slips and move its clock."""
    yield from module_sandbox(tmp_path_factory, f"{Path(__file__).stem}-{ledger_backend}")


@pytest.fixture
def engine(accounts_transport: ApiTransport, ledger: Ledger) -> PaymentEngine:
    # No follow-up of its own: the tracker's rounds resolve what is left unknown.
    return PaymentEngine(AccountsClient(accounts_transport), ledger, follow_up=())


@pytest.fixture
def payouts(engine: PaymentEngine, ledger: Ledger) -> PayoutsService:
    return PayoutsService(engine, ledger)


@pytest.fixture
def tracker(engine: PaymentEngine) -> PaymentTracker:
    return PaymentTracker(engine)


async def pay(payouts: PayoutsService, amount: str, **options: object) -> Entry:
    entry = await payouts.send(await payouts.prepare_key(SUPPLIER, amount, **options))  # type: ignore[arg-type]
    assert entry.state == EntryState.ACCEPTED, entry.error
    return entry


# --------------------------------------------------------------------------------------------
# poll_once


async def test_a_pass_moves_settled_and_liquidated_payments_to_final_with_receipts(
    tracker: PaymentTracker,
    payouts: PayoutsService,
    engine: PaymentEngine,
    ledger: Ledger,
    control: Api,
) -> None:
    pix = await pay(payouts, "11,11")
    slip = control.slips()["Energia elétrica"]
    billets = BilletsService(engine, engine.accounts, ledger, clock=lambda: sandbox_now(control))
    boleto = await billets.pay(await billets.lookup(slip["digitableCode"]))
    assert boleto.state == EntryState.ACCEPTED and boleto.bank_status == "ON_QUEUE"
    assert {e.id for e in await ledger.journal.open_entries()} == {pix.id, boleto.id}

    assert await tracker.poll_once() == []  # nothing moved on the bank's clock yet
    control.advance(1.5)
    moved = {e.id: e.bank_status for e in await tracker.poll_once()}
    assert moved == {pix.id: "PROCESSING", boleto.id: "PROCESSING"}
    assert await ledger.receipts.all() == []
    control.advance(3.0)
    moved = {e.id: (e.bank_status, e.final) for e in await tracker.poll_once()}
    assert moved == {pix.id: ("SETTLED", True), boleto.id: ("LIQUIDATED", True)}
    assert await ledger.journal.open_entries() == []

    receipts = {r.entry_id: r for r in await ledger.receipts.all()}
    assert set(receipts) == {pix.id, boleto.id}
    assert (receipts[pix.id].kind, receipts[pix.id].bank_id) == ("PIX", pix.end_to_end_id)
    assert (receipts[boleto.id].kind, receipts[boleto.id].bank_id) == ("BILLET", boleto.bank_id)
    for receipt in receipts.values():
        assert (await ledger.receipts.read(receipt)).startswith(b"%PDF")
    assert receipts[pix.id].amount == Decimal("11.11")
    named = (await ledger.journal.get(pix.id)).creditor_name
    assert named and receipts[pix.id].payee_name == named  # the name the bank gave, not the key
    # Nothing is open and every receipt is archived: a pass asks the bank nothing.
    requests = engine.accounts.transport.stats.requests
    assert await tracker.poll_once() == []
    assert engine.accounts.transport.stats.requests == requests
    assert len(await ledger.receipts.all()) == 2
    assert await tracker.receipt(await ledger.journal.get(pix.id)) == receipts[pix.id]
    assert engine.accounts.transport.stats.requests == requests


async def test_a_statement_lines_receipt_is_the_archived_one_else_the_banks(
    tracker: PaymentTracker,
    payouts: PayoutsService,
    engine: PaymentEngine,
    ledger: Ledger,
    control: Api,
) -> None:
    """The statement's "receipt of this line" is the tracker's rule (one home): the archived
    receipt without asking the bank, else the bank's, and nothing while the bank has none."""
    pix = await pay(payouts, "13,13")
    assert pix.end_to_end_id
    assert await tracker.pix_receipt(pix.end_to_end_id) is None  # not settled: no receipt yet
    control.advance(3.5)
    fetched = await tracker.pix_receipt(pix.end_to_end_id)  # settled, not archived: the bank's
    assert fetched is not None and fetched.startswith(b"%PDF")
    assert await ledger.receipts.all() == []  # reading a line archives nothing
    await tracker.poll_once()
    (archived,) = await ledger.receipts.all()
    requests = engine.accounts.transport.stats.requests
    assert await tracker.pix_receipt(pix.end_to_end_id) == await ledger.receipts.read(archived)
    assert engine.accounts.transport.stats.requests == requests  # the archive: no bank call


async def test_a_receipt_the_bank_fails_to_hand_over_is_fetched_on_the_next_pass(
    tracker: PaymentTracker, payouts: PayoutsService, ledger: Ledger, control: Api
) -> None:
    pix = await pay(payouts, "12,12")
    control.advance(3.5)
    with control.faults({"path": PIX_RECEIPT, "rate_503": 1, "retry_after": 0}):
        (moved,) = await tracker.poll_once()  # the bank fails: the pass does not
    assert moved.id == pix.id and moved.final
    assert await ledger.receipts.all() == []
    assert await tracker.poll_once() == []
    (receipt,) = await ledger.receipts.all()
    assert receipt.entry_id == pix.id


async def test_every_payment_settling_in_one_pass_gets_its_receipt(
    tracker: PaymentTracker, payouts: PayoutsService, ledger: Ledger, control: Api
) -> None:
    """A receipt is fetched when its payment settles, however much was journaled after it
    (a large batch settles in one pass)."""
    pix = await pay(payouts, "13,13")
    for _ in range(210):  # later entries (refused ones: nothing to follow)
        later = await ledger.journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal("1.00"),
                idempotency_key=new_idempotency_key(),
                request={},
            )
        )
        await ledger.journal.update(
            later.id, EntryState.REJECTED, final=True, error="Not sent: a test row"
        )
    control.advance(3.5)
    (moved,) = await tracker.poll_once()
    assert moved.id == pix.id and moved.bank_status == "SETTLED"
    assert await ledger.receipts.for_entry(pix.id) is not None


async def test_a_pass_resolves_an_unknown_outcome_without_paying_twice(
    tracker: PaymentTracker, engine: PaymentEngine, ledger: Ledger, control: Api
) -> None:
    payouts = PayoutsService(engine, ledger)
    before = control.balance()
    control.control(
        "POST", "/sandbox/faults", {"path": PIX_DICT, "drop_after_commit": 1, "times": 1}
    )
    lost = await payouts.send(await payouts.prepare_key(SUPPLIER, "14,14"))
    assert lost.state == EntryState.UNKNOWN and lost.end_to_end_id is None
    control.control(
        "POST",
        "/sandbox/faults",
        {"path": PIX_DICT, "rate_503": 1, "retry_after": 0, "times": 4},
    )
    never_arrived = await payouts.send(await payouts.prepare_key(SUPPLIER, "15,15"))
    assert never_arrived.state == EntryState.UNKNOWN
    assert control.balance() == before - Decimal("14.14")  # the bank has only the first

    moved = {e.id: e for e in await tracker.poll_once()}
    assert set(moved) == {lost.id, never_arrived.id}
    assert all(e.state == EntryState.ACCEPTED and e.end_to_end_id for e in moved.values())
    assert await ledger.journal.unresolved() == []
    outcomes = {
        a.reference: a.outcome for a in await ledger.audit.entries(action="payment.resolve")
    }
    assert outcomes == {lost.idempotency_key: "found", never_arrived.idempotency_key: "resent"}
    assert control.balance() == before - Decimal("14.14") - Decimal("15.15")
    for entry in moved.values():
        bank = await engine.accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
        assert bank.end_to_end_id == entry.end_to_end_id
    control.advance(3.5)
    assert {e.bank_status for e in await tracker.poll_once()} == {"SETTLED"}
    assert control.balance() == before - Decimal("14.14") - Decimal("15.15")


async def test_subscribers_receive_every_change(
    tracker: PaymentTracker, payouts: PayoutsService, ledger: Ledger, control: Api
) -> None:
    seen: list[tuple[int, EntryState, str | None]] = []
    unsubscribe = tracker.subscribe(lambda e: seen.append((e.id, e.state, e.bank_status)))
    other: list[Entry] = []
    tracker.subscribe(lambda e: 1 / 0)  # a broken listener changes nothing for the others
    tracker.subscribe(other.append)
    pix = await pay(payouts, "16,16")
    refused = await payouts.send(
        await payouts.prepare_key("00000000-0000-0000-0000-000000000000", "1")
    )
    control.advance(1.5)
    await tracker.poll_once()
    control.advance(3.0)
    await tracker.poll_once()
    for entry in (pix, refused):
        history = [
            (entry.id, h.state, h.bank_status) for h in await ledger.journal.history(entry.id)
        ]
        assert [s for s in seen if s[0] == entry.id] == history
    assert [s[1:] for s in seen if s[0] == pix.id] == [
        (EntryState.PREPARED, None),
        (EntryState.SENT, None),
        (EntryState.ACCEPTED, "ON_QUEUE"),
        (EntryState.ACCEPTED, "PROCESSING"),
        (EntryState.ACCEPTED, "SETTLED"),
    ]
    assert [s[1] for s in seen if s[0] == refused.id][-1] == EntryState.REJECTED
    assert len(other) == len(seen)
    unsubscribe()
    count = len(seen)
    await pay(payouts, "17,17")
    assert len(seen) == count and len(other) == count + 3


# --------------------------------------------------------------------------------------------
# run()


async def test_run_backs_off_and_stops_on_stop(
    engine: PaymentEngine, payouts: PayoutsService, ledger: Ledger, control: Api
) -> None:
    waits: list[float] = []
    tracker: PaymentTracker

    async def fake_sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 1:
            control.advance(3.5)  # the payment settles while the tracker waits
        if len(waits) == 3:
            tracker.stop()
        await asyncio.sleep(0)

    tracker = PaymentTracker(engine, backoff=(1, 2, 3, 60), sleep=fake_sleep)
    pix = await pay(payouts, "18,18")
    task = asyncio.create_task(tracker.run())
    await asyncio.wait_for(task, timeout=WAIT_SECONDS)
    # Pass 1: nothing changed (2 s); pass 2: settled and nothing open (idle: 60 s); pass 3:
    # still idle (60 s), then stopped.
    assert waits == [2, 60, 60]
    entry = await ledger.journal.get(pix.id)
    assert entry.bank_status == "SETTLED" and entry.final
    assert await ledger.receipts.for_entry(pix.id) is not None


async def test_run_survives_a_failing_pass(engine: PaymentEngine) -> None:
    passes = 0
    tracker: PaymentTracker

    async def failing_pass() -> list[Entry]:
        nonlocal passes
        passes += 1
        if passes == 3:
            tracker.stop()
        raise RuntimeError("a bug in one pass")

    async def no_sleep(seconds: float) -> None:
        await asyncio.sleep(0)

    tracker = PaymentTracker(engine, sleep=no_sleep)
    tracker.poll_once = failing_pass  # type: ignore[method-assign]
    await asyncio.wait_for(tracker.run(), timeout=WAIT_SECONDS)
    assert passes == 3


FOREVER = 10 * LONG_WAIT_SECONDS
"""A wait between passes that no test outlives: a pass that starts, or a run that ends, within
a test's wait did so because it was woken or stopped, not because the wait ran out."""


class ObservedTracker(PaymentTracker):
    """Counts its passes and signals when each one starts and when, the pass over, the
    tracker goes on to wait (its real wait, :data:`FOREVER` long)."""

    def __init__(self, engine: PaymentEngine) -> None:
        super().__init__(engine, backoff=(FOREVER,))
        self.passes = 0
        self.started = asyncio.Event()
        self.waiting = asyncio.Event()

    async def poll_once(self) -> list[Entry]:
        self.passes += 1
        self.waiting.clear()
        self.started.set()
        return await super().poll_once()

    async def _anything_open(self) -> bool:
        # the last thing run() asks before it waits (nothing awaited in between)
        anything = await super()._anything_open()
        self.waiting.set()
        return anything

    async def next_pass(self) -> None:
        self.started.clear()
        await asyncio.wait_for(self.started.wait(), WAIT_SECONDS)

    async def until_waiting(self) -> None:
        await asyncio.wait_for(self.waiting.wait(), WAIT_SECONDS)


async def held_payment(payouts: PayoutsService) -> Entry:
    """A payment waiting for approval: open, and it will not change by itself."""
    entry = await pay(payouts, "19,19", flow=PaymentFlow.APPROVAL_REQUIRED)
    assert entry.bank_status == "WAITING_APPROVAL"
    return entry


async def test_stop_ends_run_at_once_while_it_waits_or_polls(
    engine: PaymentEngine, payouts: PayoutsService, control: Api
) -> None:
    await held_payment(payouts)
    tracker = ObservedTracker(engine)
    task = asyncio.create_task(tracker.run())
    await tracker.next_pass()
    await tracker.until_waiting()  # the pass is over: waiting (FOREVER)
    tracker.stop()
    await asyncio.wait_for(task, timeout=WAIT_SECONDS)  # at once, not when the wait ends
    assert tracker.passes == 1

    with control.faults({"path": BY_KEY, "latency_ms": 300}):
        tracker = ObservedTracker(engine)
        task = asyncio.create_task(tracker.run())
        await tracker.next_pass()
        tracker.stop()  # during the (slow) pass
        await asyncio.wait_for(task, timeout=WAIT_SECONDS)
    assert tracker.passes == 1


async def test_wake_starts_a_pass_now_even_when_it_comes_during_a_pass(
    engine: PaymentEngine, payouts: PayoutsService, control: Api
) -> None:
    await held_payment(payouts)
    tracker = ObservedTracker(engine)
    task = asyncio.create_task(tracker.run())
    try:
        await tracker.next_pass()
        await tracker.until_waiting()  # waiting (FOREVER)
        pending = asyncio.ensure_future(tracker.next_pass())
        tracker.wake()
        await pending
        assert tracker.passes == 2
        with control.faults({"path": BY_KEY, "latency_ms": 300}):
            pending = asyncio.ensure_future(tracker.next_pass())
            tracker.wake()
            await pending  # pass 3 has started and is slow
            tracker.wake()  # a payment was just sent: follow it without waiting
            await tracker.next_pass()
        assert tracker.passes == 4
    finally:
        tracker.stop()
        await asyncio.wait_for(task, timeout=WAIT_SECONDS)


async def test_a_settled_payment_the_bank_never_named_is_skipped_not_a_crash(
    tracker: PaymentTracker, ledger: Ledger
) -> None:
    """A payment settled with no endToEndId yet (an answer that lacked it): no receipt can be
    asked for, and the pass goes on (it raised ValueError, ending every later pass)."""
    new = NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("3.21"),
        idempotency_key=new_idempotency_key(),
        request={"amount": "3.21"},
        payee_detail=SUPPLIER,
    )
    entry = await ledger.journal.create(new)
    await ledger.journal.update(entry.id, EntryState.SENT)
    await ledger.journal.update(entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True)
    assert await tracker.fetch_missing_receipts() == []
    assert await ledger.receipts.all() == []
