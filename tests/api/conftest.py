"""Fixtures of the API client tests: a real sandbox bank over real mutual TLS on 127.0.0.1,
and our own ``ApiTransport`` for each of its APIs.

The shared sandbox's clock starts on a Wednesday at 10:00 Brasília time
(2026-11-18T13:00:00Z); tests move it only forward and only as far as they need.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.conftest import CLOCK_START, Api, Sandboxes, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.api.tls import Trust, load_pfx
from treasury_app.api.tokens import ApiName, Secret
from treasury_app.api.transport import ApiConfig, ApiTransport, RetryPolicy


def api_config(sandbox: RunningSandbox, api: ApiName, **overrides: Any) -> ApiConfig:
    """The configuration our app would build for one API of ``sandbox``."""
    cred = sandbox.credentials[api]
    values: dict[str, Any] = {
        "api": api,
        "base_url": sandbox.urls[api],
        "client_id": cred["client_id"],
        "client_secret": Secret(cred["client_secret"]),
        "identity": load_pfx(Path(cred["pfx"]), cred["pfx_password"]),
        "trust": Trust.bundle(sandbox.ready["ca_file"]),
        # Short backoff so that retry tests stay fast; Retry-After is still honoured.
        "retry": RetryPolicy(base_delay=0.01, max_delay=0.05),
    }
    values.update(overrides)
    return ApiConfig(**values)


@pytest.fixture(scope="session")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    running = start_sandbox(tmp_path_factory.mktemp("api-shared"), "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


@pytest.fixture(scope="session")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    """The control surface (and plain httpx access) of the shared sandbox's Accounts API."""
    api = Api(sandbox, "accounts")
    yield api
    api.close()


@pytest.fixture(autouse=True)
def _fresh_token_window(request: pytest.FixtureRequest) -> None:
    """Tests open many transports (one token each) within one sandbox minute: start every
    test with the sandbox's token-rate window empty, as a new desktop session would."""
    if "sandbox" in request.fixturenames:
        request.getfixturevalue("control").reset_token_limits()


@pytest.fixture(scope="session")
def make_config() -> Callable[..., ApiConfig]:
    return api_config


@pytest.fixture(scope="session")
async def qr_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "qrcodes")) as transport:
        yield transport


@pytest.fixture(scope="session")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        yield transport


@pytest.fixture
def make_sandbox(
    tmp_path_factory: pytest.TempPathFactory, sandbox: RunningSandbox
) -> Iterator[Callable[..., RunningSandbox]]:
    """Short-lived sandboxes (own clock, faults, limits), stopped when the test ends."""
    sandboxes = Sandboxes(tmp_path_factory, sandbox)
    try:
        yield sandboxes.start
    finally:
        sandboxes.stop_all()
