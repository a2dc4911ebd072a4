"""No call hangs: a bank that drips its answer one byte at a time (the per-read timeout
restarts at every byte) meets the overall deadline of the call, for a read, a payment and a
receipt download. A payment cut off so goes to UNKNOWN and is resolved by its key.

What ended the call is told by its error ("overall deadline", raised only when the call's own
deadline runs out) and by the transport's count of requests: one attempt, not one deadline per
attempt of a retried read. No stopwatch from above; a read is shown not to give up before its
deadline (a bound from below, which a slow machine cannot break). The bank drips a byte every
50 ms against a 1 s per-read timeout: only a stall of most of a second could end a read early.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from decimal import Decimal

import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.test_payments_exactly_once import PIX_DICT, intent
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.errors import TransportFailure
from treasury_app.api.transport import ApiTransport, Timeouts
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import PaymentEngine

pytestmark = pytest.mark.usefixtures("clean_sandbox")

DEADLINE = 2.0


@pytest.fixture
async def client(sandbox: RunningSandbox, control: Api) -> AsyncIterator[AccountsClient]:
    control.reset_token_limits()
    config = api_config(sandbox, "accounts", timeouts=Timeouts(read=1.0, total=DEADLINE))
    async with ApiTransport(config) as transport:
        await transport.tokens.token(transport.http)  # fetched before any fault
        yield AccountsClient(transport)


def drip(control: Api, path: str) -> None:
    control.control("POST", "/sandbox/faults", {"path": path, "drip_ms": 50})


async def test_a_dripping_read_meets_the_deadline(client: AccountsClient, control: Api) -> None:
    drip(control, "/api/v2/accounts/balances")
    requests = client.transport.stats.requests
    started = time.monotonic()
    with pytest.raises(TransportFailure, match="overall deadline") as error:
        await client.get_balances()
    assert time.monotonic() - started >= DEADLINE  # not given up before its deadline
    assert client.transport.stats.requests - requests == 1  # not 4 attempts of it
    assert error.value.request_sent


async def test_a_dripping_payment_is_unknown_then_found(
    client: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(client, ledger, follow_up=())
    before = control.balance()
    drip(control, PIX_DICT)
    requests = client.transport.stats.requests
    entry = await engine.submit(intent(Decimal("6.66"), tag="drip"))
    assert client.transport.stats.requests - requests == 1
    assert entry.state == EntryState.UNKNOWN and "overall deadline" in (entry.error or "")
    control.control("DELETE", "/sandbox/faults")
    (resolved,) = await engine.resolve_pending()
    assert resolved.state == EntryState.ACCEPTED  # the bank had it: found, never paid twice
    assert control.balance() == before - Decimal("6.66")


async def test_a_dripping_receipt_meets_the_deadline(client: AccountsClient, control: Api) -> None:
    paid = control.paid(Decimal("6.67"))
    control.settle(paid["endToEndId"])
    drip(control, "/api/v2/pix/payments/receipt/*")
    requests = client.transport.stats.requests
    with pytest.raises(TransportFailure, match="overall deadline"):
        await client.get_pix_receipt(paid["endToEndId"])
    assert client.transport.stats.requests - requests == 1
    control.control("DELETE", "/sandbox/faults")
    assert (await client.get_pix_receipt(paid["endToEndId"])).startswith(b"%PDF")
