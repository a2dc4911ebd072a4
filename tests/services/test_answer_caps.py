"""Any answer, any size: a bank answer larger than the transport accepts (counted after gzip)
is refused with a typed error before it is held whole. A gzip bomb (292 KB that inflates to
300 MB) on a read, a payment (UNKNOWN, then found by its key) and a receipt download; the
memory it costs stays near the limit; answers under the limit still arrive whole."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import AsyncIterator
from decimal import Decimal

import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.test_payments_exactly_once import PIX_DICT, intent
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.errors import AnswerTooLargeError, ResponseFormatError
from treasury_app.api.transport import AnswerLimits, ApiTransport, MiB
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import PaymentEngine

pytestmark = pytest.mark.usefixtures("clean_sandbox")

BALANCES = "/api/v2/accounts/balances"
RECEIPTS = "/api/v2/pix/payments/receipt/*"
BOMB_MB = 300


async def accounts_client(sandbox: RunningSandbox, **overrides: object) -> AccountsClient:
    transport = ApiTransport(api_config(sandbox, "accounts", **overrides))
    await transport.tokens.token(transport.http)  # fetched before any fault
    return AccountsClient(transport)


@pytest.fixture
async def client(sandbox: RunningSandbox, control: Api) -> AsyncIterator[AccountsClient]:
    control.reset_token_limits()
    accounts = await accounts_client(sandbox)
    try:
        yield accounts
    finally:
        await accounts.transport.aclose()


def bomb(control: Api, path: str, megabytes: int = BOMB_MB) -> None:
    control.control("POST", "/sandbox/faults", {"path": path, "gzip_bomb_mb": megabytes})


async def test_a_bombed_read_is_refused_with_a_typed_error(
    client: AccountsClient, control: Api
) -> None:
    bomb(control, BALANCES)
    with pytest.raises(AnswerTooLargeError) as error:
        await client.get_balances()
    assert error.value.limit == AnswerLimits().json == 16 * MiB
    assert error.value.announced is None  # 292 KB announced: refused while inflating
    assert str(error.value) == (
        "The bank's answer is larger than the 16 MiB accepted for a JSON answer; it was "
        "refused before it was read whole [GET /api/v2/accounts/balances]"
    )
    assert client.transport.stats.requests == 1  # not retried: it would be as large again
    control.control("DELETE", "/sandbox/faults")
    assert await client.get_balances()  # the same connection pool still works


async def test_memory_stays_near_the_limit_not_the_bomb(
    client: AccountsClient, control: Api
) -> None:
    bomb(control, BALANCES)
    gc.collect()
    tracemalloc.start()
    try:
        with pytest.raises(ResponseFormatError):  # AnswerTooLargeError, or unreadable whole
            await client.get_balances()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    # The limit (16 MiB) plus one step of inflating and change; never the 300 MB it inflates to.
    assert peak < 24 * MiB, f"peak {peak / MiB:.1f} MiB"


async def test_a_bombed_payment_is_unknown_then_found(
    client: AccountsClient, ledger: Ledger, control: Api
) -> None:
    engine = PaymentEngine(client, ledger, follow_up=())
    before = control.balance()
    bomb(control, PIX_DICT)
    entry = await engine.submit(intent(Decimal("6.68"), tag="bomb"))
    # Sent and answered, but unreadable: the bank may have it; never a refusal, never resent.
    assert entry.state == EntryState.UNKNOWN
    assert "refused before it was read whole" in (entry.error or "")
    control.control("DELETE", "/sandbox/faults")
    (resolved,) = await engine.resolve_pending()
    assert resolved.state == EntryState.ACCEPTED  # the bank had it: found, never paid twice
    assert control.balance() == before - Decimal("6.68")


async def test_a_bombed_receipt_is_refused_under_the_document_limit(
    client: AccountsClient, control: Api
) -> None:
    paid = control.paid(Decimal("6.69"))
    control.settle(paid["endToEndId"])
    bomb(control, RECEIPTS)
    with pytest.raises(AnswerTooLargeError, match="the 32 MiB accepted for a document answer"):
        await client.get_pix_receipt(paid["endToEndId"])
    control.control("DELETE", "/sandbox/faults")
    assert (await client.get_pix_receipt(paid["endToEndId"])).startswith(b"%PDF")


async def test_a_receipt_is_bounded_by_the_document_limit_not_the_json_one(
    sandbox: RunningSandbox, control: Api
) -> None:
    paid = control.paid(Decimal("6.70"))
    control.settle(paid["endToEndId"])
    client = await accounts_client(sandbox, limits=AnswerLimits(json=1024, document=MiB))
    try:
        assert (await client.get_pix_receipt(paid["endToEndId"])).startswith(b"%PDF")
        with pytest.raises(AnswerTooLargeError, match="the 1 KiB accepted for a JSON answer"):
            await client.list_transactions(per_page=100)
    finally:
        await client.transport.aclose()


async def test_a_large_gzip_answer_under_the_limit_arrives_whole(
    client: AccountsClient, control: Api
) -> None:
    bomb(control, BALANCES, megabytes=12)  # 12 MB of JSON: more than a maximal page's 2 MB
    body = await client.transport.request_json("GET", BALANCES)
    assert body == {"a": "0" * (12_000_000 - 8)}


async def test_an_announced_length_over_the_limit_is_refused_unread(
    sandbox: RunningSandbox, control: Api
) -> None:
    client = await accounts_client(sandbox, limits=AnswerLimits(json=64 * 1024))
    try:
        bomb(control, BALANCES)  # Content-Length: 291,619 (its gzip)
        with pytest.raises(AnswerTooLargeError) as error:
            await client.get_balances()
    finally:
        await client.transport.aclose()
    assert error.value.announced == 291_619
    assert str(error.value) == (
        "The bank's answer announces 284.8 KiB, more than the 64 KiB accepted for a JSON "
        "answer; it was refused unread [GET /api/v2/accounts/balances]"
    )
