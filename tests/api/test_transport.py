"""The transport against the sandbox's injected faults: which calls are retried (and how
long it waits), which never are, problem+json mapped to typed errors, the payment whose
answer is lost after the bank committed it, and answers inflated a bounded step at a time."""

from __future__ import annotations

import zlib
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal

import httpx
import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.answers import DECODE_STEP, Inflater, read_capped
from treasury_app.api.errors import (
    AnswerTooLargeError,
    ApiError,
    BadRequest,
    BusinessRuleViolation,
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    RateLimited,
    ResponseFormatError,
    ServerError,
    TransportFailure,
    Violation,
    error_from_response,
)
from treasury_app.api.transport import (
    USER_AGENT,
    ApiTransport,
    MiB,
    RetryPolicy,
    Timeouts,
    encode_params,
)
from treasury_app.domain.identifiers import new_idempotency_key, new_txid

BALANCES = "/api/v2/accounts/balances"
PIX_DICT = "/api/v2/pix/payments/dict"
KEY = "financeiro@empresasandbox.com.br"


class Sleeps:
    """An injected ``sleep`` that records the waits instead of waiting."""

    def __init__(self) -> None:
        self.waits: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.waits.append(seconds)


@pytest.fixture
def sleeps() -> Sleeps:
    return Sleeps()


@pytest.fixture
def faults(control: Api) -> Iterator[Api]:
    """The control surface; every fault added in a test is cleared afterwards."""
    try:
        yield control
    finally:
        control.control("DELETE", "/sandbox/faults")


def _add(control: Api, **rule: object) -> None:
    control.control("POST", "/sandbox/faults", rule)


def _cob_body(amount: str = "10.00") -> dict[str, object]:
    return {"calendario": {"expiracao": 3600}, "valor": {"original": amount}, "chave": KEY}


def _pix_body(amount: Decimal) -> dict[str, object]:
    return {
        "pixKey": "fornecedor@empresa.com.br",
        "pixKeyType": "EMAIL",
        "payment": {"currency": "BRL", "amount": amount},
        "description": "Teste do transporte",
    }


async def test_user_agent_and_keep_alive(sandbox: RunningSandbox, control: Api) -> None:
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        for _ in range(5):
            await transport.request_json("GET", BALANCES)
    assert transport.http.headers["user-agent"] == USER_AGENT
    assert USER_AGENT.startswith("TreasuryApp/")
    assert transport.stats.tls_handshakes == 1  # token and five calls on one connection


async def test_429_with_retry_after_is_waited_for_then_succeeds(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    async with ApiTransport(api_config(sandbox, "accounts"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=BALANCES, rate_429=1, retry_after=2, times=2)
        body = await transport.request_json("GET", BALANCES)
    assert body["data"][0]["balanceAmount"]["currency"] == "BRL"
    assert sleeps.waits == [2.0, 2.0]
    assert transport.stats.retries == 2


async def test_a_retry_after_beyond_the_policy_is_raised_not_waited(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    async with ApiTransport(api_config(sandbox, "accounts"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=BALANCES, rate_429=1, retry_after=120, times=1)
        with pytest.raises(RateLimited) as error:
            await transport.request("GET", BALANCES)
    assert error.value.retry_after == 120
    assert sleeps.waits == []


async def test_504_is_retried_with_jittered_backoff_503_after_its_retry_after(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    policy = RetryPolicy(base_delay=0.5, max_delay=8.0)
    config = api_config(sandbox, "accounts", retry=policy)
    async with ApiTransport(config, sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=BALANCES, rate_504=1, times=3)
        await transport.request_json("GET", BALANCES)
        assert len(sleeps.waits) == 3
        for attempt, wait in enumerate(sleeps.waits, start=1):
            assert 0 <= wait <= 0.5 * 2 ** (attempt - 1)  # full jitter under the exponential cap
        assert len(set(sleeps.waits)) == 3  # drawn, not fixed
        _add(faults, path=BALANCES, rate_503=1, retry_after=3, times=1)
        await transport.request_json("GET", BALANCES)
    assert sleeps.waits[3:] == [3.0]


async def test_retries_stop_after_four_attempts(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    async with ApiTransport(api_config(sandbox, "accounts"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=BALANCES, rate_500=1, times=10)
        with pytest.raises(ServerError) as error:
            await transport.request("GET", BALANCES)
    assert error.value.status == 500
    assert transport.stats.requests == 4 and len(sleeps.waits) == 3


async def test_an_unsafe_post_is_never_retried(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    async with ApiTransport(api_config(sandbox, "qrcodes"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path="/cob", method="POST", rate_503=1, times=1)
        with pytest.raises(ServerError):
            await transport.request("POST", "/cob", json=_cob_body())
        assert transport.stats.requests == 1 and sleeps.waits == []
        created = await transport.request_json("POST", "/cob", json=_cob_body())  # rule used up
    assert created["status"] == "ATIVA"


async def test_a_patch_is_not_retried_but_a_put_with_our_txid_is(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    txid = new_txid()
    async with ApiTransport(api_config(sandbox, "qrcodes"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=f"/cob/{txid}", method="PUT", rate_503=1, times=1)
        created = await transport.request_json("PUT", f"/cob/{txid}", json=_cob_body())
        assert created["txid"] == txid and len(sleeps.waits) == 1
        _add(faults, path=f"/cob/{txid}", method="PATCH", rate_503=1, times=1)
        with pytest.raises(ServerError):
            await transport.request("PATCH", f"/cob/{txid}", json={"valor": {"original": "11.00"}})
    assert len(sleeps.waits) == 1


async def test_a_payment_post_with_its_key_is_retried_with_the_same_key(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    key = new_idempotency_key()
    async with ApiTransport(api_config(sandbox, "accounts"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=PIX_DICT, rate_503=1, times=1)
        accepted = await transport.request_json(
            "POST", PIX_DICT, json=_pix_body(Decimal("1.23")), idempotency_key=key
        )
    assert accepted["data"]["idempotencyKey"] == key
    assert accepted["data"]["payment"]["amount"] == Decimal("1.23")
    assert len(sleeps.waits) == 1


async def test_a_lost_answer_after_commit_is_a_transport_failure_and_paid_once(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    key = new_idempotency_key()
    amount = Decimal("7.77")
    before = faults.balance()
    async with ApiTransport(api_config(sandbox, "accounts"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=PIX_DICT, drop_after_commit=1, times=1)
        with pytest.raises(TransportFailure) as error:
            await transport.request("POST", PIX_DICT, json=_pix_body(amount), idempotency_key=key)
        assert error.value.outcome_unknown
        assert isinstance(error.value.__cause__, IdempotencyKeyReused)  # the retry met 412
        found = await transport.request_json("GET", f"/api/v2/pix/payments/idempotencyKey/{key}")
    assert found["data"]["payment"]["amount"] == amount  # it was committed ...
    assert faults.balance() == before - amount  # ... exactly once


async def test_a_lost_answer_to_a_put_whose_retry_is_refused_is_a_transport_failure(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    """The first PUT created the charge, its answer was lost; the retry meets "txid already
    used" (400). That is no refusal of the charge: the outcome is unknown until it is read."""
    txid = new_txid()
    body = _cob_body("12.34")
    async with ApiTransport(api_config(sandbox, "qrcodes"), sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path=f"*/cob/{txid}", method="PUT", drop_after_commit=1, times=1)
        with pytest.raises(TransportFailure) as error:
            await transport.request("PUT", f"/cob/{txid}", json=body)
        assert error.value.outcome_unknown
        assert isinstance(error.value.__cause__, ApiError)
        assert error.value.__cause__.status == 400  # the retry's answer, kept as the cause
        found = await transport.request_json("GET", f"/cob/{txid}")
    assert found["txid"] == txid and found["valor"]["original"] == "12.34"  # created once
    assert len(sleeps.waits) == 1


async def test_a_read_timeout_is_retried_for_a_get_only(
    sandbox: RunningSandbox, faults: Api, sleeps: Sleeps
) -> None:
    config = api_config(sandbox, "qrcodes", timeouts=Timeouts(read=0.3))
    async with ApiTransport(config, sleep=sleeps) as transport:
        await transport.tokens.token(transport.http)
        _add(faults, path="/cob", method="GET", latency_ms=1200, times=1)
        await transport.request_json(
            "GET", "/cob", params={"inicio": "2026-11-01T00:00:00Z", "fim": "2026-12-01T00:00:00Z"}
        )
        assert transport.stats.retries == 1
        _add(faults, path="/cob", method="POST", latency_ms=1200, times=1)
        with pytest.raises(TransportFailure, match="in time") as error:
            await transport.request("POST", "/cob", json=_cob_body())
    assert error.value.request_sent and transport.stats.retries == 1


async def test_nothing_listening_is_a_failure_known_not_sent(
    sandbox: RunningSandbox, sleeps: Sleeps
) -> None:
    config = api_config(sandbox, "accounts", base_url="https://127.0.0.1:9")
    async with ApiTransport(config, sleep=sleeps) as transport:
        with pytest.raises(TransportFailure) as error:
            await transport.request("GET", BALANCES)
    assert error.value.request_sent is False and not error.value.outcome_unknown


async def test_problem_json_becomes_typed_errors_with_violacoes(
    sandbox: RunningSandbox, control: Api
) -> None:
    txid = new_txid()
    async with ApiTransport(api_config(sandbox, "qrcodes")) as transport:
        with pytest.raises(BadRequest) as bad:
            await transport.request("PUT", f"/cob/{txid}", json=_cob_body("dez reais"))
        with pytest.raises(NotFound) as missing:
            await transport.request("GET", f"/cob/{txid}")
    problem = bad.value
    assert problem.status == 400 and problem.type.startswith("https://pix.bcb.gov.br/api/v2/error/")
    assert problem.title and problem.detail and problem.instance == f"/cob/{txid}"
    assert problem.violacoes and all(isinstance(v, Violation) for v in problem.violacoes)
    assert any("valor" in p for p in problem.properties)
    assert missing.value.status == 404 and missing.value.instance == f"/cob/{txid}"


async def test_scope_missing_is_forbidden_and_business_rules_are_422(
    sandbox: RunningSandbox, control: Api
) -> None:
    config = api_config(sandbox, "qrcodes", scopes=("cob.read",))
    async with ApiTransport(config) as transport:
        with pytest.raises(Forbidden):
            await transport.request("PUT", f"/cob/{new_txid()}", json=_cob_body())
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        with pytest.raises(BusinessRuleViolation) as error:
            await transport.request(
                "POST",
                PIX_DICT,
                json=_pix_body(Decimal("1000000.01")),
                idempotency_key=new_idempotency_key(),
            )
    assert error.value.status == 422


async def test_a_reused_key_is_412_when_no_answer_was_lost(
    sandbox: RunningSandbox, control: Api
) -> None:
    key = new_idempotency_key()
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        await transport.request(
            "POST", PIX_DICT, json=_pix_body(Decimal("0.50")), idempotency_key=key
        )
        with pytest.raises(IdempotencyKeyReused):
            await transport.request(
                "POST", PIX_DICT, json=_pix_body(Decimal("0.50")), idempotency_key=key
            )


async def test_a_malformed_idempotency_key_is_refused_before_sending(
    sandbox: RunningSandbox,
) -> None:
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        with pytest.raises(ValueError, match="idempotency key"):
            await transport.request("POST", PIX_DICT, json={}, idempotency_key="has-dashes")
    assert transport.stats.requests == 0


def test_params_are_encoded_for_the_wire() -> None:
    import datetime as dt

    encoded = encode_params(
        {
            "inicio": dt.datetime(2026, 11, 18, 10, 0, tzinfo=dt.timezone(dt.timedelta(hours=-3))),
            "dia": dt.date(2026, 11, 18),
            "locationPresente": False,
            "paginacao.paginaAtual": 0,
            "cpf": None,
        }
    )
    assert encoded == {
        "inicio": "2026-11-18T13:00:00.000Z",
        "dia": "2026-11-18",
        "locationPresente": "false",
        "paginacao.paginaAtual": "0",
    }
    with pytest.raises(ValueError, match="time zone"):
        encode_params({"fim": dt.datetime(2026, 11, 18)})


def test_an_error_without_a_problem_body_still_maps_by_status() -> None:
    request = httpx.Request("GET", "https://bank.example/api/v2/x")
    response = httpx.Response(
        503, text="upstream down", request=request, headers={"retry-after": "3"}
    )
    error = error_from_response(response)
    assert isinstance(error, ServerError) and isinstance(error, ApiError)
    assert error.retry_after == 3 and "upstream down" in error.detail
    assert error.instance == "/api/v2/x" and error.violacoes == []


def _compressed(data: bytes, wbits: int) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    return compressor.compress(data) + compressor.flush()


def _chunks(data: bytes, size: int = 64 * 1024) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)]


class _Stream(httpx.AsyncByteStream):
    """An answer body arriving in network-sized chunks; counts the chunks read."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.read = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            self.read += 1
            yield chunk


def _streamed(stream: _Stream, **headers: str) -> httpx.Response:
    request = httpx.Request("GET", "https://bank.example/api/v2/accounts/balances?x=1")
    return httpx.Response(200, headers=headers, stream=stream, request=request)


def test_inflating_never_yields_more_than_a_step_at_once() -> None:
    data = b'{"a":"' + b"0" * (20 * MiB) + b'"}'
    for coding, wbits in (("gzip", 31), ("deflate", 15), ("deflate", -15), ("identity", 0)):
        wire = _compressed(data, wbits) if wbits else data
        inflater = Inflater(coding)
        pieces = [p for chunk in _chunks(wire) for p in inflater.decode(chunk)]
        pieces += inflater.flush()
        assert max(len(p) for p in pieces) <= DECODE_STEP, coding  # httpx: 64 MB at once
        assert b"".join(pieces) == data, coding
    with pytest.raises(ValueError, match="'br' was not asked for"):
        Inflater("br")


async def test_a_capped_read_stops_reading_at_the_limit() -> None:
    bomb = _compressed(b"0" * (100 * MiB), 31)  # about 100 KB
    stream = _Stream(_chunks(bomb, 4096))
    with pytest.raises(AnswerTooLargeError) as error:
        await read_capped(_streamed(stream, **{"content-encoding": "gzip"}), MiB, "JSON")
    assert str(error.value) == (
        "The bank's answer is larger than the 1 MiB accepted for a JSON answer; it was "
        "refused before it was read whole [GET /api/v2/accounts/balances]"
    )
    # The first 4 KiB inflate past 1 MiB; the other 24 chunks are never read.
    assert (stream.read, len(stream.chunks)) == (1, 25)


async def test_a_capped_read_of_an_answer_within_the_limit_and_a_broken_one() -> None:
    data = b'{"data": []}' * 1000
    stream = _Stream(_chunks(_compressed(data, 31), 100))
    assert await read_capped(_streamed(stream, **{"content-encoding": "gzip"}), MiB, "JSON") == data
    assert await read_capped(_streamed(_Stream([data]), **{"content-length": "12000"}), 12000, "X")
    with pytest.raises(ResponseFormatError, match="is not valid gzip"):
        await read_capped(_streamed(_Stream([data]), **{"content-encoding": "gzip"}), MiB, "JSON")
    with pytest.raises(ResponseFormatError, match="'br' was not asked for"):
        await read_capped(_streamed(_Stream([data]), **{"content-encoding": "br"}), MiB, "JSON")
