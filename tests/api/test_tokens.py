"""Token sessions against the sandbox: both request formats, caching, renewal before expiry
(moving the sandbox clock, not sleeping), single flight, 401 recovery and the client-side
limit of 10 token requests a minute."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterator

import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import CLOCK_START, Api
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.errors import BadRequest, RateLimited, Unauthorized
from treasury_app.api.tokens import Secret, TokenSession
from treasury_app.api.transport import ApiTransport, redact_headers

BALANCES = "/api/v2/accounts/balances"


class FakeClock:
    """The app's monotonic clock, moved by the test together with the sandbox's clock."""

    def __init__(self) -> None:
        self.now = 10_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def private(make_sandbox: Callable[..., RunningSandbox]) -> Iterator[tuple[RunningSandbox, Api]]:
    """A sandbox of the test's own, so that its clock and token limits are the test's."""
    running = make_sandbox("--clock-start", CLOCK_START)
    control = Api(running, "accounts")
    yield running, control
    control.close()  # an open keep-alive connection would hold up the sandbox's shutdown


async def _cob_list(transport: ApiTransport) -> object:
    return await transport.request_json(
        "GET", "/cob", params={"inicio": "2026-11-01T00:00:00Z", "fim": "2026-12-01T00:00:00Z"}
    )


@pytest.mark.parametrize("api", ["qrcodes", "accounts"])
async def test_each_api_gets_its_token_in_its_own_format(sandbox: RunningSandbox, api: str) -> None:
    async with ApiTransport(api_config(sandbox, api)) as transport:
        token = await transport.tokens.token(transport.http)
        again = await transport.tokens.token(transport.http)
    assert token == again  # cached
    state = transport.tokens.state
    assert state.requests == 1 and state.issued == 1 and state.last_error is None
    assert state.valid_until is not None and state.scope
    assert ("cob.write" in state.scope) == (api == "qrcodes")
    assert ("billets.write" in state.scope) == (api == "accounts")


async def test_requested_scopes_limit_the_token(sandbox: RunningSandbox) -> None:
    config = api_config(sandbox, "qrcodes", scopes=("cob.read",))
    async with ApiTransport(config) as transport:
        await _cob_list(transport)
    assert transport.tokens.state.scope == "cob.read"


async def test_wrong_secret_is_unauthorized_without_leaking_it(
    sandbox: RunningSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "definitely-not-the-secret-42"
    config = api_config(sandbox, "accounts", client_secret=Secret(secret))
    caplog.set_level(logging.DEBUG)
    async with ApiTransport(config) as transport:
        with pytest.raises(Unauthorized) as error:
            await transport.request("GET", BALANCES)
    assert transport.tokens.state.requests == 1  # wrong credentials: not asked again
    assert secret not in str(error.value) and secret not in caplog.text
    assert transport.tokens.state.last_error and secret not in transport.tokens.state.last_error


async def test_unknown_client_id_is_a_bad_request(sandbox: RunningSandbox) -> None:
    config = api_config(sandbox, "qrcodes", client_id="nobody")
    async with ApiTransport(config) as transport:
        with pytest.raises(BadRequest):
            await transport.request("GET", "/cob/whatever")


async def test_renewal_happens_before_expiry_not_after_a_401(
    private: tuple[RunningSandbox, Api],
) -> None:
    running, control = private
    clock = FakeClock()
    async with ApiTransport(api_config(running, "qrcodes"), clock=clock) as transport:
        await _cob_list(transport)
        first = await transport.tokens.token(transport.http)
        # 200 s later the 300 s token is still used as is ...
        control.advance(200)
        clock.now += 200
        await _cob_list(transport)
        assert transport.tokens.state.requests == 1
        # ... and 275 s after issue (inside the 30-60 s margin) it is renewed beforehand.
        control.advance(75)
        clock.now += 75
        await _cob_list(transport)
        assert transport.tokens.state.requests == 2
        assert await transport.tokens.token(transport.http) != first
    assert transport.stats.unauthorized_recoveries == 0


async def test_a_401_renews_once_and_repeats_the_call(private: tuple[RunningSandbox, Api]) -> None:
    running, control = private
    async with ApiTransport(api_config(running, "accounts")) as transport:
        await transport.request_json("GET", BALANCES)
        control.advance(3601)  # the bank expires the token; our cache still thinks it's good
        body = await transport.request_json("GET", BALANCES)
    assert body["data"][0]["balanceAmount"]["currency"] == "BRL"
    assert transport.stats.unauthorized_recoveries == 1
    assert transport.tokens.state.requests == 2
    assert transport.stats.requests == 3  # first call, the 401, the repeat


async def test_fifty_concurrent_calls_share_one_token_request(sandbox: RunningSandbox) -> None:
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        results = await asyncio.gather(
            *(transport.request_json("GET", BALANCES) for _ in range(50))
        )
    assert len(results) == 50
    assert transport.tokens.state.requests == 1
    assert transport.stats.requests == 50


async def test_fifty_concurrent_401s_lead_to_one_renewal(
    private: tuple[RunningSandbox, Api],
) -> None:
    running, control = private
    async with ApiTransport(api_config(running, "accounts")) as transport:
        await transport.request_json("GET", BALANCES)
        control.advance(3601)
        await asyncio.gather(*(transport.request_json("GET", BALANCES) for _ in range(50)))
    assert transport.tokens.state.requests == 2


async def test_never_more_than_ten_token_requests_a_minute(
    private: tuple[RunningSandbox, Api],
) -> None:
    running, control = private
    clock = FakeClock()
    waits: list[float] = []

    async def sleep(seconds: float) -> None:  # time passes for the app and the bank alike
        waits.append(seconds)
        clock.now += seconds
        control.advance(seconds)

    async with ApiTransport(api_config(running, "qrcodes"), clock=clock, sleep=sleep) as transport:
        for _ in range(12):
            transport.tokens.invalidate()
            await _cob_list(transport)
    assert transport.tokens.state.requests == 12  # none refused with 429
    assert len(waits) == 1 and 60.0 <= waits[0] <= 61.0


async def test_without_the_client_limit_the_bank_answers_429(
    private: tuple[RunningSandbox, Api],
) -> None:
    """The control of the test above: the 11th request in a minute is refused by the bank."""
    running, _ = private
    config = api_config(running, "qrcodes")
    naive = TokenSession(
        "qrcodes", config.client_id, config.client_secret, limit=1000, sleep=_no_sleep
    )
    async with ApiTransport(config, tokens=naive) as transport:
        for _ in range(10):
            naive.invalidate()
            await naive.token(transport.http)
        naive.invalidate()
        with pytest.raises(RateLimited) as error:
            await naive.token(transport.http)
    assert error.value.retry_after is not None and error.value.retry_after > 0


async def _no_sleep(seconds: float) -> None:
    return None


def test_secrets_are_redacted_and_never_shown() -> None:
    secret = Secret("client-secret-value")
    assert "client-secret-value" not in repr(secret) and "client-secret-value" not in str(secret)
    assert secret.reveal() == "client-secret-value"
    headers = redact_headers({"Authorization": "Bearer abc.def", "Accept": "application/json"})
    assert headers == {"Authorization": "********", "Accept": "application/json"}


async def test_logs_carry_no_token_secret_or_password(
    sandbox: RunningSandbox, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    config = api_config(sandbox, "accounts")
    async with ApiTransport(config) as transport:
        await transport.request_json("GET", BALANCES)
        token = await transport.tokens.token(transport.http)
    cred = sandbox.credentials["accounts"]
    assert "GET /api/v2/accounts/balances -> 200" in caplog.text
    for secret in (token, cred["client_secret"], cred["pfx_password"]):
        assert secret not in caplog.text
    assert cred["client_secret"] not in repr(config)
