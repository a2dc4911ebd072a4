"""No call hangs: a bank that drips its answer one byte at a time (the per-read timeout
restarts at every byte) meets the overall deadline of the call, for a read, a payment and a
receipt download. A payment cut off so goes to UNKNOWN and is resolved by its key."""

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

DEADLINE = 1.5


@pytest.fixture
async def client(sandbox: RunningSandbox, control: Api) -> AsyncIterator[AccountsClient]:
    control.reset_token_limits()
    config = api_config(sandbox, "accounts", timeouts=Timeouts(read=0.5, total=DEADLINE))
    async with ApiTransport(config) as transport:
        await transport.tokens.token(transport.http)  # fetched before any fault
        yield AccountsClient(transport)


def drip(control: Api, path: str) -> None:
    control.control("POST", "/sandbox/faults", {"path": path, "drip_ms": 200})


async def test_a_dripping_read_meets_the_deadline(client: AccountsClient, control: Api) -> None:
    drip(control, "/api/v2/accounts/balances")
    started = time.monotonic()
    with pytest.raises(TransportFailure, match="overall deadline") as error:
        await client.get_balances()
    elapsed = time.monotonic() - started
    assert DEADLINE <= elapsed < DEADLINE + 1.0  # not 4 attempts of it, not forever
    assert error.value.request_sent


async def test_a_dripping_payment_is_unknown_then_found(
    client: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(client, ledger, follow_up=())
    before = control.balance()
    drip(control, PIX_DICT)
    started = time.monotonic()
    entry = await engine.submit(intent(Decimal("6.66"), tag="drip"))
    assert time.monotonic() - started < DEADLINE + 1.0
    assert entry.state == EntryState.UNKNOWN and "overall deadline" in (entry.error or "")
    control.control("DELETE", "/sandbox/faults")
    (resolved,) = await engine.resolve_pending()
    assert resolved.state == EntryState.ACCEPTED  # the bank had it: found, never paid twice
    assert control.balance() == before - Decimal("6.66")


async def test_a_dripping_receipt_meets_the_deadline(client: AccountsClient, control: Api) -> None:
    paid = control.paid(Decimal("6.67"))
    control.settle(paid["endToEndId"])
    drip(control, "/api/v2/pix/payments/receipt/*")
    started = time.monotonic()
    with pytest.raises(TransportFailure, match="overall deadline"):
        await client.get_pix_receipt(paid["endToEndId"])
    assert time.monotonic() - started < DEADLINE + 1.0
    control.control("DELETE", "/sandbox/faults")
    assert (await client.get_pix_receipt(paid["endToEndId"])).startswith(b"%PDF")
