"""Fixtures of the service tests that drive a sandbox bank of their own.

Each test module that asks for ``sandbox`` gets its own (module scope: its clock, balance and
faults are its own), started on a business-day morning. ``clean_sandbox`` resets the token
window before a test and removes its faults after it; modules opt in with
``pytestmark = pytest.mark.usefixtures("clean_sandbox")``. The ledger is the shared
``ledger`` fixture (:mod:`tests.ledger_backends`: a real ledger on every backend in turn).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import CLOCK_START, Api, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from tests.services.accounts_fixtures import sandbox_now
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import Clock


def module_sandbox(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[RunningSandbox]:
    """A sandbox bank of one module's own, started on a business-day morning."""
    running = start_sandbox(tmp_path_factory.mktemp(name), "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[RunningSandbox]:
    yield from module_sandbox(tmp_path_factory, request.module.__name__.rsplit(".", 1)[-1])


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    """The module sandbox's control surface (and plain httpx access to its Accounts API)."""
    api = Api(sandbox, "accounts")
    yield api
    api.close()


@pytest.fixture
def clean_sandbox(control: Api) -> Iterator[None]:
    control.reset_token_limits()
    yield
    control.control("DELETE", "/sandbox/faults")


@pytest.fixture(scope="module")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        yield transport


@pytest.fixture(scope="module")
async def qr_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "qrcodes")) as transport:
        yield transport


@pytest.fixture
def bank_clock(control: Api) -> Clock:
    """The module sandbox's clock, read from its control surface at every call: the clock of
    every service under test (never the machine's, so no test depends on the day it runs)."""
    return lambda: sandbox_now(control)
