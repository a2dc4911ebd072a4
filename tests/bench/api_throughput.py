"""Throughput of our QR Codes API client against the sandbox bank on loopback (mutual TLS).

One run, 1,000 ``GET /cob/{txid}`` calls each way:

(a) sequential, our ``QrCodesClient`` (typed models, token session, retry policy);
(b) 32 at a time, our client;
(c) the floor: bare ``httpx.AsyncClient`` keep-alive GETs with a fixed token, no parsing;
(d) the common SDK pattern: a new ``httpx`` client (so a new connection and TLS handshake)
    per call, with a cached token.

Prints calls per second, the ratios (a)/(c), (a)/(d), (b)/(a), TLS handshakes and token
requests. Targets: (a) >= 0.8 x (c), (a) >= 3 x (d), one token request per API.
Not a test: it prints figures (``make bench``). ``--calls N``: another number of calls each
way; ``--smoke`` (``make bench-smoke``): 100 (every call is still checked: a failed one ends the
run with an error).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.sandbox_harness import RunningSandbox, running_sandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models import CobSolicitada
from treasury_app.api.tls import Trust, load_pfx
from treasury_app.api.tokens import ApiName, Secret
from treasury_app.api.transport import ApiConfig, ApiTransport

CALLS = 1000
SMOKE_CALLS = 100
CONCURRENCY = 32
KEY = "financeiro@empresasandbox.com.br"


def config_for(sandbox: RunningSandbox, api: ApiName) -> ApiConfig:
    cred = sandbox.credentials[api]
    return ApiConfig(
        api=api,
        base_url=sandbox.urls[api],
        client_id=cred["client_id"],
        client_secret=Secret(cred["client_secret"]),
        identity=load_pfx(Path(cred["pfx"]), cred["pfx_password"]),
        trust=Trust.bundle(sandbox.ready["ca_file"]),
    )


class Handshakes:
    """Counts TLS handshakes of bare httpx clients through httpcore's trace extension."""

    def __init__(self) -> None:
        self.count = 0

    async def trace(self, event: str, info: dict[str, Any]) -> None:
        if event.endswith("start_tls.complete"):
            self.count += 1


ROUNDS = 10  # variants interleaved in rounds of calls / ROUNDS calls, to share any noise


class Variant:
    def __init__(self, label: str, run: Callable[[int], Awaitable[None]]) -> None:
        self.label = label
        self.run = run
        self.rates: list[float] = []
        self.calls = 0
        self.seconds = 0.0

    async def round(self, calls: int) -> None:
        started = time.perf_counter()
        await self.run(calls)
        elapsed = time.perf_counter() - started
        self.rates.append(calls / elapsed)
        self.calls += calls
        self.seconds += elapsed

    @property
    def rate(self) -> float:
        """The median of the rounds' rates (robust to a round disturbed by other work)."""
        return statistics.median(self.rates)

    def report(self) -> None:
        print(
            f"{self.label:<60} {self.rate:7.0f} calls/s median "
            f"(rounds {min(self.rates):.0f}-{max(self.rates):.0f}; "
            f"{self.calls} calls in {self.seconds:.2f} s)"
        )


async def bench(sandbox: RunningSandbox, calls: int) -> None:
    qr_config = config_for(sandbox, "qrcodes")
    async with (
        ApiTransport(qr_config) as qr_transport,
        ApiTransport(config_for(sandbox, "accounts")) as accounts_transport,
    ):
        client = QrCodesClient(qr_transport)
        accounts = AccountsClient(accounts_transport)
        created = await client.create_cob(
            CobSolicitada.model_validate(
                {
                    "calendario": {"expiracao": 3600},
                    "valor": {"original": "123.45"},
                    "chave": KEY,
                    "solicitacaoPagador": "Benchmark",
                }
            )
        )
        txid = created.txid
        path = f"/cob/{txid}"
        for _ in range(20):  # warm-up of both sides
            await client.get_cob(txid)

        async def ours_sequential(calls: int) -> None:
            for _ in range(calls):
                cob = await client.get_cob(txid)
                assert cob.txid == txid

        async def ours_concurrent(calls: int) -> None:
            semaphore = asyncio.Semaphore(CONCURRENCY)

            async def one() -> None:
                async with semaphore:
                    cob = await client.get_cob(txid)
                    assert cob.txid == txid

            await asyncio.gather(*(one() for _ in range(calls)))

        token = await qr_transport.tokens.token(qr_transport.http)
        headers = {"authorization": f"Bearer {token}"}
        context = qr_config.identity.ssl_context(qr_config.trust)
        floor_shakes = Handshakes()

        bare = httpx.AsyncClient(base_url=qr_config.base_url, verify=context)

        async def floor(calls: int) -> None:
            for _ in range(calls):
                response = await bare.get(
                    path, headers=headers, extensions={"trace": floor_shakes.trace}
                )
                assert response.status_code == 200

        per_call_shakes = Handshakes()

        async def per_call_connection(calls: int) -> None:
            for _ in range(calls):
                async with httpx.AsyncClient(base_url=qr_config.base_url, verify=context) as c:
                    response = await c.get(
                        path, headers=headers, extensions={"trace": per_call_shakes.trace}
                    )
                    assert response.status_code == 200

        async def accounts_sequential(calls: int) -> None:
            for _ in range(calls):
                balances = await accounts.get_balances()
                assert balances

        a = Variant("(a) our QrCodesClient, sequential", ours_sequential)
        b = Variant(f"(b) our QrCodesClient, {CONCURRENCY} at a time", ours_concurrent)
        c = Variant("(c) floor: bare httpx keep-alive, fixed token, no parsing", floor)
        d = Variant("(d) SDK pattern: new connection per call, cached token", per_call_connection)
        e = Variant("(e) our AccountsClient, sequential GET balances", accounts_sequential)
        handshakes_before = qr_transport.stats.tls_handshakes
        order = random.Random(20261121)
        for _ in range(ROUNDS):  # a new order each round: no variant always follows another
            variants = [a, b, c, d, e]
            order.shuffle(variants)
            for variant in variants:
                await variant.round(calls // ROUNDS)
        ours_handshakes = qr_transport.stats.tls_handshakes - handshakes_before
        await bare.aclose()
        for variant in (a, b, c, d, e):
            variant.report()
        rate_a, rate_b, rate_c, rate_d, rate_e = a.rate, b.rate, c.rate, d.rate, e.rate
        print()
        print(f"(a)/(c) = {rate_a / rate_c:.2f}   target >= 0.80")
        print(f"(a)/(d) = {rate_a / rate_d:.2f}   target >= 3.00")
        print(f"(b)/(a) = {rate_b / rate_a:.2f}")
        print(f"(e) Accounts API sequential: {rate_e:.0f} calls/s")
        print(
            f"TLS handshakes: ours {ours_handshakes} for {2 * calls} calls, "
            f"floor {floor_shakes.count}, per-call pattern {per_call_shakes.count}"
        )
        print(
            f"token requests: QR Codes API {qr_transport.tokens.state.requests}, "
            f"Accounts API {accounts_transport.tokens.state.requests} (target: 1 each)"
        )
        print(
            f"retries: {qr_transport.stats.retries + accounts_transport.stats.retries}, "
            f"401 recoveries: {qr_transport.stats.unauthorized_recoveries}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=CALLS, help="calls each way")
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_CALLS} calls each way")
    args = parser.parse_args()
    calls = max(ROUNDS, SMOKE_CALLS if args.smoke else args.calls)
    with (
        tempfile.TemporaryDirectory() as tmp,
        running_sandbox(Path(tmp), "--clock-start", "2026-11-18T13:00:00Z") as sandbox,
    ):
        if sandbox.process.stdout is not None:  # keep the sandbox's log pipe from filling
            import threading

            threading.Thread(target=sandbox.process.stdout.read, daemon=True).start()
        asyncio.run(bench(sandbox, calls))


if __name__ == "__main__":
    main()
