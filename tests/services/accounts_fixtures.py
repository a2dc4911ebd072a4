"""Helpers of the statement, webhook and infraction service tests: a real sandbox bank per
test module (over real mutual TLS), our own transports and clients for it. The ledger is the
shared ``ledger`` fixture (:mod:`tests.ledger_backends`: every backend in turn).

Each test module wraps these in its own module-scoped fixtures, so a module's clock moves and
registrations never leak into another module.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

from tests.api.conftest import api_config
from tests.sandbox.conftest import CLOCK_START, Api, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.api.tokens import ApiName
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import brasilia_date
from treasury_app.ledger import Ledger


@contextlib.contextmanager
def running_bank(data_dir: Path) -> Iterator[RunningSandbox]:
    """A fresh sandbox bank whose clock starts on a business-day morning, stopped (and
    checked to have exited cleanly, without a traceback) afterwards."""
    running = start_sandbox(data_dir, "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


@contextlib.contextmanager
def control_of(sandbox: RunningSandbox) -> Iterator[Api]:
    """The control surface (and a plain mTLS client) of the sandbox's Accounts API."""
    api = Api(sandbox, "accounts")
    try:
        yield api
    finally:
        api.close()


@contextlib.asynccontextmanager
async def transport(
    sandbox: RunningSandbox, api: ApiName, control: Api, **overrides: Any
) -> AsyncIterator[ApiTransport]:
    """Our app's transport for one API of ``sandbox`` (token window reset first)."""
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, api, **overrides)) as opened:
        yield opened


def sandbox_now(control: Api) -> dt.datetime:
    """The sandbox clock (it is not the machine's)."""
    return dt.datetime.fromisoformat(control.now().replace("Z", "+00:00"))


def sandbox_today(control: Api) -> dt.date:
    """The sandbox's date in Brasília."""
    return brasilia_date(sandbox_now(control))


def sent(*transports: ApiTransport) -> int:
    """Requests sent so far through ``transports`` (token requests excluded)."""
    return sum(t.stats.requests for t in transports)


async def audit_text(ledger: Ledger) -> str:
    """Everything the audit holds, every column of every row, oldest first, as one string
    (to look for secrets in it)."""
    rows = reversed(await ledger.audit.entries(limit=1_000_000))
    return "\n".join(
        "|".join(
            str(value)
            for value in (
                row.id,
                row.at,
                row.os_user,
                row.profile,
                row.action,
                row.outcome,
                row.reference,
                row.amount,
                json.dumps(row.details, ensure_ascii=False, sort_keys=True),
            )
        )
        for row in rows
    )
