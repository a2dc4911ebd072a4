"""Exactly-once payments against the sandbox under faults: a response lost after the bank
committed, timeouts, 503s on every attempt, the app killed (SIGKILL) between journal and
answer, double clicks. Each fault runs 20 times; afterwards the bank holds exactly one
payment per intent and the balance moved once."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.api.conftest import api_config
from tests.processes import kill_hard, was_killed_hard
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.waiting import WAIT_SECONDS, await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport, RetryPolicy, Timeouts
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.services.payments import PaymentEngine

REPO = Path(__file__).resolve().parents[2]
PIX_DICT = "/api/v2/pix/payments/dict"
RUNS = 20

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture(scope="module")
async def accounts(sandbox: RunningSandbox) -> AsyncIterator[AccountsClient]:
    config = api_config(
        sandbox,
        "accounts",
        timeouts=Timeouts(read=0.3),
        retry=RetryPolicy(base_delay=0.01, max_delay=0.02),
    )
    async with ApiTransport(config) as transport:
        yield AccountsClient(transport)


def intent(amount: Decimal, *, key: str | None = None, tag: str = "") -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=amount,
        idempotency_key=key or new_idempotency_key(),
        request={
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": amount},
            "description": f"exactly-once {tag}",
        },
        payee_detail="fornecedor@empresa.com.br",
        description=f"exactly-once {tag}",
    )


def amounts(base: str) -> list[Decimal]:
    """Distinct amounts, so that a duplicate payment would show in the balance."""
    return [Decimal(base) + Decimal(i) / 100 for i in range(RUNS)]


async def assert_each_paid_once(
    engine: PaymentEngine, control: Api, keys: list[str], total: Decimal, before: Decimal
) -> None:
    for entry in await engine.resolve_pending():
        assert entry.state == EntryState.ACCEPTED, (entry.state, entry.error)
    for key in keys:
        entry = await engine.ledger.journal.by_key(key)
        assert entry is not None and entry.state == EntryState.ACCEPTED, entry
        found = await engine.accounts.get_pix_payment_by_idempotency_key(key)
        assert found.end_to_end_id == entry.end_to_end_id
        assert found.amount == entry.amount
    assert control.balance() == before - total  # every intent debited exactly once


async def test_lost_answers_after_commit_resolve_to_one_payment_each(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger, follow_up=())  # left to the resolver
    before = control.balance()
    keys = []
    for amount in amounts("1.00"):
        control.control(
            "POST", "/sandbox/faults", {"path": PIX_DICT, "drop_after_commit": 1, "times": 1}
        )
        entry = await engine.submit(intent(amount, tag="drop"))
        assert entry.state == EntryState.UNKNOWN  # the answer was lost: never a guess
        keys.append(entry.idempotency_key)
    await assert_each_paid_once(engine, control, keys, sum(amounts("1.00")), before)
    resolved = await ledger.audit.entries(action="payment.resolve")
    assert len([a for a in resolved if a.outcome == "found"]) == RUNS


async def test_timeouts_resolve_to_one_payment_each(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger, follow_up=())  # left to the resolver
    before = control.balance()
    keys = []
    outcomes = set()
    for run, amount in enumerate(amounts("2.00")):
        # Slower than the client's 0.3 s read timeout: every attempt of one run in four (the
        # outcome stays unknown), only the first attempt of the others (a retry overtakes it).
        times = 4 if run % 4 == 0 else 1
        control.control(
            "POST", "/sandbox/faults", {"path": PIX_DICT, "latency_ms": 450, "times": times}
        )
        entry = await engine.submit(intent(amount, tag="timeout"))
        outcomes.add(entry.state)
        keys.append(entry.idempotency_key)
        control.control("DELETE", "/sandbox/faults")
    assert outcomes == {EntryState.UNKNOWN, EntryState.ACCEPTED}
    # An attempt given up on is never paid later: the client closed its connection, and the
    # bank, done waiting, finds nobody there to read the body from. Nothing to wait for.
    await assert_each_paid_once(engine, control, keys, sum(amounts("2.00")), before)


async def test_503_on_every_attempt_then_resolution_resends_with_the_same_key(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger, follow_up=())  # left to the resolver
    before = control.balance()
    keys = []
    for amount in amounts("3.00"):
        control.control(
            "POST",
            "/sandbox/faults",
            {"path": PIX_DICT, "rate_503": 1, "retry_after": 0, "times": 4},
        )
        entry = await engine.submit(intent(amount, tag="503"))
        assert entry.state == EntryState.UNKNOWN
        keys.append(entry.idempotency_key)
    assert control.balance() == before  # nothing reached the bank's ledger yet
    await assert_each_paid_once(engine, control, keys, sum(amounts("3.00")), before)
    resent = [
        a for a in await ledger.audit.entries(action="payment.resolve") if a.outcome == "resent"
    ]
    assert len(resent) == RUNS


async def test_a_refusal_is_final_and_never_resent(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger)
    before = control.balance()
    entry = await engine.submit(intent(Decimal("1000000.01"), tag="too much"))
    assert entry.state == EntryState.REJECTED and entry.final and "422" in (entry.error or "")
    assert await engine.resolve_pending() == []
    assert control.balance() == before
    assert (await ledger.audit.entries(action="payout.send"))[0].outcome == "rejected"


async def test_double_click_and_concurrent_sends_make_one_payment(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger)
    before = control.balance()
    same = intent(Decimal("4.44"), tag="double")
    results = await asyncio.gather(*(engine.submit(same) for _ in range(10)))
    assert {r.id for r in results} == {results[0].id}
    entry = await ledger.journal.get(results[0].id)
    assert entry.state == EntryState.ACCEPTED
    again = await engine.send(entry)  # a later click on the same review
    assert again.id == entry.id and again.end_to_end_id == entry.end_to_end_id
    assert control.balance() == before - Decimal("4.44")


CHILD = """
import asyncio, json, sys
from decimal import Decimal
from pathlib import Path
from tests.api.conftest import api_config
from tests.sandbox_harness import RunningSandbox
from tests.services.test_payments_exactly_once import intent
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport, Timeouts
from treasury_app.ledger import open_ledger
from treasury_app.services.payments import PaymentEngine

ready = json.loads(Path(sys.argv[1]).read_text())
credentials = json.loads(Path(ready["credentials_file"]).read_text())
sandbox = RunningSandbox(None, Path(sys.argv[1]).parent, ready, credentials, 0.0)

async def main():
    ledger = open_ledger(Path(sys.argv[2]), profile="test")
    config = api_config(
        sandbox, "accounts", timeouts=Timeouts(read=60), max_connections=int(sys.argv[4])
    )
    async with ApiTransport(config) as transport:
        engine = PaymentEngine(AccountsClient(transport), ledger)
        amounts = [Decimal("5.00") + Decimal(i) / 100 for i in range(int(sys.argv[3]))]
        await asyncio.gather(*(engine.submit(intent(a, tag="kill")) for a in amounts))
    print("finished without being killed", flush=True)

asyncio.run(main())
"""


def journaled_sent(path: Path) -> int:
    """Entries SENT in the child's journal (0 while it is being created)."""
    if not path.exists():
        return 0
    try:  # the child may be creating or migrating the file right now
        with sqlite3.connect(path, timeout=1) as probe:
            return int(
                probe.execute("SELECT COUNT(*) FROM journal WHERE state = 'SENT'").fetchone()[0]
            )
    except sqlite3.OperationalError:
        return 0


ON_THE_WIRE = 4
"""The child's connections to the bank: as many requests in flight, the others waiting."""
SLOW = 1000
"""``times`` of the latency rule: what is left of it tells how many requests the bank got."""


async def test_app_killed_between_journal_and_answer(
    accounts: AccountsClient, sandbox: RunningSandbox, control: Api, tmp_path: Path
) -> None:
    """20 payments journaled, 4 of them on the wire, when the app dies (SIGKILL): after
    restart, one each. The 4 the bank got are held 1.5 s before it reads them; the app is
    killed as soon as the bank has them all, and a request whose client is gone is never
    paid (the bank finds nobody to read it from): resolving sends them again, once."""
    before = control.balance()
    path = tmp_path / "killed.sqlite3"
    control.control(
        "POST", "/sandbox/faults", {"path": PIX_DICT, "latency_ms": 1500, "times": SLOW}
    )

    def arrived() -> int:
        rules = control.control("GET", "/sandbox/faults")["rules"]
        return SLOW - (rules[0]["times"] if rules else 0)

    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            str(sandbox.data_dir / "ready.json"),
            str(path),
            str(RUNS),
            str(ON_THE_WIRE),
        ],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:

        def all_sent() -> bool:
            if child.poll() is not None:
                raise AssertionError(child.communicate(timeout=WAIT_SECONDS)[0])
            return journaled_sent(path) == RUNS

        await await_until(all_sent, f"{RUNS} entries SENT in the app's journal")
        await await_until(lambda: arrived() >= ON_THE_WIRE, f"{ON_THE_WIRE} requests at the bank")
        kill_hard(child)
    finally:
        if child.poll() is None:
            child.kill()
    assert was_killed_hard(child)
    control.control("DELETE", "/sandbox/faults")
    restarted = open_ledger(path, profile="test")
    try:
        entries = await restarted.journal.recent()
        assert len(entries) == RUNS and all(e.state == EntryState.SENT for e in entries)
        engine = PaymentEngine(accounts, restarted)
        keys = [e.idempotency_key for e in entries]
        total = sum((e.amount for e in entries), Decimal("0.00"))
        await assert_each_paid_once(engine, control, keys, total, before)
    finally:
        await restarted.close()


async def test_a_body_that_is_not_what_was_reviewed_is_never_sent(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    """On a shared journal a row could be written by hand: the body sent must be the one
    reviewed (its amount and key), or nothing is sent."""
    from dataclasses import replace

    engine = PaymentEngine(accounts, ledger)
    before = control.balance()
    other_amount = replace(intent(Decimal("900.00"), tag="forged"), amount=Decimal("9.00"))
    entry = await engine.submit(other_amount)
    assert entry.state == EntryState.REJECTED and entry.final
    assert "pays 900.00, the reviewed amount is 9.00" in (entry.error or "")
    other_key = replace(intent(Decimal("8.00"), tag="forged key"), payee_detail="me@mallory.com")
    entry = await engine.submit(other_key)
    assert entry.state == EntryState.REJECTED and "another Pix key" in (entry.error or "")
    assert control.balance() == before  # nothing reached the bank
    refused = await ledger.audit.entries(action="payout.send")
    assert [row.outcome for row in refused] == ["refused", "refused"]
