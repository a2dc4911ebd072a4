"""``send_batch(should_stop=...)`` against a sandbox bank of its own: once the stop is asked,
rows not started are skipped and never journaled, rows already on their way finish and are
returned, and the balance moves by exactly what was sent."""

from __future__ import annotations

from decimal import Decimal

import pytest

from tests.sandbox.conftest import Api
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutsService

pytestmark = pytest.mark.usefixtures("clean_sandbox")

ROWS = 40


def batch_text(rows: int) -> str:
    lines = ["chave;valor"] + [f"parar{i}@empresa.com.br;1,{i:02d}" for i in range(rows)]
    return "\n".join(lines) + "\n"


async def test_stop_skips_rows_not_started_and_keeps_those_sent(
    accounts_transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    payouts = PayoutsService(PaymentEngine(AccountsClient(accounts_transport), ledger), ledger)
    batch = await payouts.parse_batch_csv(batch_text(ROWS))
    assert batch.valid and len(batch.rows) == ROWS
    before = control.balance()
    seen: list[Entry] = []
    asked = 0

    def should_stop() -> bool:
        nonlocal asked
        asked += 1
        return len(seen) >= 5

    entries = await payouts.send_batch(
        batch,
        concurrency=3,
        progress=lambda done, total, entry: seen.append(entry),
        should_stop=should_stop,
    )
    # The rows in flight when the fifth finished still finish (at most concurrency - 1 more).
    assert 5 <= len(entries) <= 7 and len(entries) == len(seen)
    assert asked == ROWS  # every row asked when its turn came
    assert all(e.state == EntryState.ACCEPTED for e in entries)
    journaled = await ledger.journal.recent(batch=batch.batch_id, limit=1000)
    assert sorted(e.id for e in journaled) == sorted(e.id for e in entries)
    assert all(not e.unresolved for e in journaled)
    sent_total = sum((e.amount for e in entries), Decimal("0.00"))
    assert control.balance() == before - sent_total
    last = (await ledger.audit.entries(action="payout.batch"))[0]  # newest first
    assert last.outcome == "stopped" and last.details["skipped"] == ROWS - len(entries)
    assert last.amount == sent_total


async def test_a_stop_asked_before_the_first_row_sends_nothing(
    accounts_transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    payouts = PayoutsService(PaymentEngine(AccountsClient(accounts_transport), ledger), ledger)
    batch = await payouts.parse_batch_csv(batch_text(4))
    before = control.balance()
    entries = await payouts.send_batch(batch, should_stop=lambda: True)
    assert entries == [] and await ledger.journal.recent(batch=batch.batch_id) == []
    assert control.balance() == before


async def test_a_stop_never_asked_sends_everything(
    accounts_transport: ApiTransport, ledger: Ledger
) -> None:
    payouts = PayoutsService(PaymentEngine(AccountsClient(accounts_transport), ledger), ledger)
    batch = await payouts.parse_batch_csv(batch_text(6))
    entries = await payouts.send_batch(batch, should_stop=lambda: False)
    assert len(entries) == 6 and all(e.state == EntryState.ACCEPTED for e in entries)
    assert (await ledger.audit.entries(action="payout.batch"))[0]  # newest first.outcome == "sent"
