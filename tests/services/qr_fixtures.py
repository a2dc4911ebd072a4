"""Helpers of the charges and recurrences service tests: a real sandbox bank per test module
(over real mutual TLS on 127.0.0.1), our own QR Codes API transport and client for it, and a
real ledger per test (the shared ``ledger`` fixture, :mod:`tests.ledger_backends`).

Each test module wraps :func:`qr_bank` in a module-scoped fixture of its own, so that one
module's clock moves never reach another module.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.api.conftest import api_config
from tests.sandbox.conftest import Api, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from tests.services.accounts_fixtures import audit_text  # noqa: F401  (re-exported)
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import brasilia_date
from treasury_app.domain.documents import cpf_check_digits
from treasury_app.ledger import Ledger
from treasury_app.ledger.audit import AuditEntry

CLOCK_START = "2026-11-18T13:00:00Z"  # Wednesday 10:00 in Brasília, a business day
CHAVE = "11222333000181"  # the sandbox company's CNPJ key
EMAIL_KEY = "financeiro@empresasandbox.com.br"
PAYER_CPF = "40364478829"


@dataclass
class QrBank:
    """A running sandbox, its control surface and our QR Codes API client for it."""

    sandbox: RunningSandbox
    control: Api
    transport: ApiTransport
    client: QrCodesClient

    def now(self) -> dt.datetime:
        """The sandbox clock (it is not the machine's): the services' clock in these tests."""
        return dt.datetime.fromisoformat(self.control.now().replace("Z", "+00:00"))

    def today(self) -> dt.date:
        """The sandbox's date in Brasília."""
        return brasilia_date(self.now())

    def sent(self) -> int:
        """Requests our client has sent to the bank so far (token requests excluded)."""
        return self.transport.stats.requests

    def set_clock(self, instant: str) -> None:
        """Move the sandbox clock to ``instant`` (RFC 3339); every state machine follows."""
        self.control.control("POST", "/sandbox/clock", {"set": instant})

    def pay(self, txid: str, **extra: Any) -> dict[str, Any]:
        """A payer pays the charge ``txid`` (the sandbox's control surface)."""
        payer = {"name": "Pagador da Silva", "cpf": PAYER_CPF}
        body = {"txid": txid, "payer": payer, **extra}
        return dict(self.control.control("POST", "/sandbox/cashin/pay", body))

    def approve(self, id_rec: str) -> dict[str, Any]:
        """The payer approves the recurrence ``id_rec``."""
        return dict(self.control.control("POST", f"/sandbox/automatico/rec/{id_rec}/approve"))


@contextlib.asynccontextmanager
async def qr_bank(data_dir: Path) -> AsyncIterator[QrBank]:
    """Start a fresh sandbox (clock at :data:`CLOCK_START`) and open our client to it; stop
    it afterwards, checking it exited cleanly without a traceback."""
    running = start_sandbox(data_dir, "--clock-start", CLOCK_START)
    output = _drain_output(running)
    control = Api(running, "accounts")
    try:
        control.reset_token_limits()
        async with ApiTransport(api_config(running, "qrcodes")) as transport:
            yield QrBank(running, control, transport, QrCodesClient(transport))
    finally:
        control.close()
        _stop_cleanly(running, output)


def new_cpf() -> str:
    """A valid random CPF (list filters then see only one test's charges)."""
    first9 = f"{secrets.randbelow(10**9):09d}"
    return first9 + cpf_check_digits(first9)


async def audit_of(ledger: Ledger, action: str, reference: str | None = None) -> list[AuditEntry]:
    """The audit rows of ``action`` (exactly, not as a prefix), oldest first."""
    rows = await ledger.audit.entries(action=action, reference=reference)
    return [row for row in reversed(rows) if row.action == action]


def secrets_of(bank: QrBank) -> list[str]:
    """The credentials of the sandbox's QR Codes API client (never to be seen in the audit)."""
    cred = bank.sandbox.credentials["qrcodes"]
    return [cred["client_secret"], cred["pfx_password"]]
