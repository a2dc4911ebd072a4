"""After a lost answer: the engine follows up at once (lookups by key, with backoff), and a
resend of an intent older than the resend window waits for a person ("Send now" / "Cancel
payment") instead of going out by itself; the other half of the crash test (the bank commits,
the app dies before reading the answer: recovery finds the payment, never sends it again).

Against a sandbox of this module's own, over real mutual TLS."""

from __future__ import annotations

import datetime as dt
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
from tests.services.test_payments_exactly_once import PIX_DICT, REPO, intent
from tests.waiting import await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport, RetryPolicy, Timeouts
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import (
    CHECKING_NOTE,
    HELD_NOTE,
    HeldPaymentError,
    PaymentEngine,
)

pytestmark = pytest.mark.usefixtures("clean_sandbox")

FAST = (0.05, 0.1, 0.2)


@pytest.fixture(scope="module")
async def transport(sandbox: RunningSandbox) -> AsyncIterator[ApiTransport]:
    config = api_config(
        sandbox,
        "accounts",
        timeouts=Timeouts(read=0.3),
        retry=RetryPolicy(base_delay=0.01, max_delay=0.02),
    )
    async with ApiTransport(config) as opened:
        yield opened


@pytest.fixture
def accounts(transport: ApiTransport) -> AccountsClient:
    return AccountsClient(transport)


def later(ledger: Ledger, minutes: int):
    """The journal's clock (the one its stamps come from), ``minutes`` on: what the engine
    sees at a later session."""
    return lambda: ledger.clock() + dt.timedelta(minutes=minutes)


def posts(transport: ApiTransport) -> int:
    return transport.stats.requests


async def test_a_lost_answer_is_followed_up_at_once(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger, follow_up=FAST)
    before = control.balance()
    control.control(
        "POST", "/sandbox/faults", {"path": PIX_DICT, "drop_after_commit": 1, "times": 1}
    )
    entry = await engine.submit(intent(Decimal("7.01"), tag="follow-up"))
    # within submit(): found, not re-sent, and not left to a later tracker round
    assert entry.state == EntryState.ACCEPTED and entry.end_to_end_id
    notes = [item.note for item in await ledger.journal.history(entry.id)]
    assert "no answer" in notes and CHECKING_NOTE in notes
    assert "found by idempotency key" in notes
    assert not any(note.startswith("resending") for note in notes)
    assert control.balance() == before - Decimal("7.01")
    outcomes = [a.outcome for a in await ledger.audit.entries(action="payment.resolve")]
    assert outcomes == ["found"]


async def test_follow_up_resends_a_recent_intent_the_bank_never_got(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(accounts, ledger, follow_up=FAST)
    before = control.balance()
    control.control(
        "POST",
        "/sandbox/faults",
        {"path": PIX_DICT, "method": "POST", "rate_503": 1, "retry_after": 0, "times": 4},
    )
    entry = await engine.submit(intent(Decimal("7.02"), tag="follow-up 503"))
    assert entry.state == EntryState.ACCEPTED  # within the window: sent again, same key
    assert control.balance() == before - Decimal("7.02")
    found = await accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
    assert found.end_to_end_id == entry.end_to_end_id


async def _unknown_and_never_received(
    accounts: AccountsClient, ledger: Ledger, control: Api, amount: str
):
    """An intent whose every attempt met a 503: the bank never got it, the outcome is
    unknown here."""
    engine = PaymentEngine(accounts, ledger, follow_up=())
    control.control(
        "POST",
        "/sandbox/faults",
        {"path": PIX_DICT, "method": "POST", "rate_503": 1, "retry_after": 0, "times": 4},
    )
    entry = await engine.submit(intent(Decimal(amount), tag="held"))
    control.control("DELETE", "/sandbox/faults")
    assert entry.state == EntryState.UNKNOWN
    return entry


async def test_an_old_intent_is_held_not_resent(
    accounts: AccountsClient, transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    before = control.balance()
    entry = await _unknown_and_never_received(accounts, ledger, control, "77.00")
    next_day = PaymentEngine(accounts, ledger, clock=later(ledger, 24 * 60), follow_up=())
    assert not next_day.resend_allowed(entry)
    for _ in range(3):  # every tracker round, every session start: looked up, never sent
        (held,) = await next_day.resolve_pending()
        assert held.state == EntryState.UNKNOWN and await next_day.is_held(held)
    assert control.balance() == before
    assert (await ledger.journal.history(entry.id))[-1].note == HELD_NOTE
    assert len(await ledger.audit.entries(action="payment.resend_held")) == 1  # once, not per round
    # The bank away while held: still held, still nothing sent.
    control.control("POST", "/sandbox/faults", {"path": "/api/v2/pix/payments/*", "rate_503": 1})
    try:
        still = await next_day.resolve(held)
    finally:
        control.control("DELETE", "/sandbox/faults")
    assert await next_day.is_held(still)
    # A recent intent is still resent by the engine itself.
    same_day = PaymentEngine(accounts, ledger, clock=later(ledger, 5), follow_up=())
    assert same_day.resend_allowed(entry)


async def test_send_now_on_a_held_payment_pays_it_once(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    before = control.balance()
    entry = await _unknown_and_never_received(accounts, ledger, control, "77.01")
    engine = PaymentEngine(accounts, ledger, clock=later(ledger, 120), follow_up=())
    held = (await engine.resolve_pending())[0]
    assert await engine.is_held(held)
    sent = await engine.send_held(held)
    assert sent.state == EntryState.ACCEPTED
    assert control.balance() == before - Decimal("77.01")
    again = await engine.send_held(sent)  # a second click: nothing more
    assert again.end_to_end_id == sent.end_to_end_id
    assert control.balance() == before - Decimal("77.01")
    (confirmed,) = await ledger.audit.entries(action="payment.resend_confirmed")
    assert confirmed.reference == entry.idempotency_key


async def test_cancel_a_held_payment_never_sends_it(
    accounts: AccountsClient, transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    before = control.balance()
    entry = await _unknown_and_never_received(accounts, ledger, control, "77.02")
    engine = PaymentEngine(accounts, ledger, clock=later(ledger, 120), follow_up=())
    held = (await engine.resolve_pending())[0]
    # The bank away: a cancellation needs the bank to say it does not have the payment.
    control.control("POST", "/sandbox/faults", {"path": "/api/v2/pix/payments/*", "rate_503": 1})
    try:
        with pytest.raises(HeldPaymentError, match=r"payment\.cancel_unconfirmed"):
            await engine.cancel_held(held)
    finally:
        control.control("DELETE", "/sandbox/faults")
    assert (await ledger.journal.get(entry.id)).unresolved
    cancelled = await engine.cancel_held(held)
    assert cancelled.state == EntryState.REJECTED and cancelled.final
    assert "Cancelled" in (cancelled.error or "")
    sent = posts(transport)
    assert await engine.resolve_pending() == []  # final: never looked at, never sent again
    assert await engine.send(cancelled) == cancelled
    assert posts(transport) == sent
    assert control.balance() == before
    assert [a.outcome for a in await ledger.audit.entries(action="payment.cancel")] == ["ok"]


async def test_cancel_finds_a_payment_made_meanwhile(
    accounts: AccountsClient, ledger: Ledger, control: Api
) -> None:
    """The bank got it after all (a late request, or the same key from elsewhere): cancel
    follows it as paid instead of pretending it was cancelled."""
    entry = await _unknown_and_never_received(accounts, ledger, control, "77.03")
    engine = PaymentEngine(accounts, ledger, clock=later(ledger, 120), follow_up=())
    response = control.pay_dict(Decimal("77.03"), idem=entry.idempotency_key)
    assert response.status_code == 202, response.text
    result = await engine.cancel_held(await ledger.journal.get(entry.id))
    assert result.state == EntryState.ACCEPTED
    assert await ledger.audit.entries(action="payment.cancel") == []


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
    runs = int(sys.argv[3])
    config = api_config(
        sandbox, "accounts", timeouts=Timeouts(read=60), max_connections=runs
    )
    async with ApiTransport(config) as transport:
        engine = PaymentEngine(AccountsClient(transport), ledger)
        amounts = [Decimal("8.00") + Decimal(i) / 100 for i in range(runs)]
        await asyncio.gather(*(engine.submit(intent(a, tag="committed")) for a in amounts))
    print("finished without being killed", flush=True)

asyncio.run(main())
"""


async def test_app_killed_after_the_bank_committed(
    accounts: AccountsClient, sandbox: RunningSandbox, control: Api, tmp_path: Path
) -> None:
    """The bank commits each payment at once but holds its answer (it drips it, a byte every
    ten seconds: never read whole while the test runs, and dropped as soon as the app hangs
    up); the app dies (SIGKILL) before reading any. After restart every payment is found by
    its key: none sent again."""
    runs = 10
    before = control.balance()
    total = sum((Decimal("8.00") + Decimal(i) / 100 for i in range(runs)), Decimal("0.00"))
    path = tmp_path / "committed.sqlite3"
    control.control("POST", "/sandbox/faults", {"path": PIX_DICT, "drip_ms": 10_000})
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(sandbox.data_dir / "ready.json"), str(path), str(runs)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        await await_until(
            lambda: control.balance() == before - total, "every payment committed by the bank"
        )
        assert child.poll() is None  # still waiting for the answers
        with sqlite3.connect(path, timeout=1) as probe:
            states = {row[0] for row in probe.execute("SELECT state FROM journal")}
        assert states == {"SENT"}
        kill_hard(child)
    finally:
        if child.poll() is None:
            child.kill()
    assert was_killed_hard(child)
    control.control("DELETE", "/sandbox/faults")
    restarted = open_ledger(path, profile="test")
    try:
        engine = PaymentEngine(accounts, restarted)
        resolved = await engine.resolve_pending()
        assert len(resolved) == runs
        assert {e.state for e in resolved} == {EntryState.ACCEPTED}
        outcomes = [a.outcome for a in await restarted.audit.entries(action="payment.resolve")]
        assert outcomes == ["found"] * runs  # found by key; "resent" would pay twice
        for entry in resolved:
            found = await accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
            assert found.end_to_end_id == entry.end_to_end_id
    finally:
        await restarted.close()
    assert control.balance() == before - total  # each debited exactly once
