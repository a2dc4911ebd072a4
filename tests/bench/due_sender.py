"""500 scheduled payments due at the same minute, sent once by the due sender (issue 35):
time to the last ACCEPTED and sends per second, against the sandbox bank (mutual TLS on
loopback) with the file ledger.

The payments are journaled for the next business day; the sandbox's clock is moved to 08:00
Brasília of that day (never waited for) and one pass of ``ScheduleService.send_due`` sends
them: the day's balance check, each payment checked and sent through the engine (claims,
journal first). A second pass must send nothing, and the bank must hold each payment exactly
once (asked by idempotency key).

Not a test: it prints figures (``make bench``). ``--payments N``; ``--smoke``
(``make bench-smoke``): 50 payments (every one still checked: a payment missing or sent twice
ends the run with an error).
"""

# ruff: noqa: E402 - the imports below come after sys.path is set
from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import sys
import tempfile
import time
from pathlib import Path

# Run as a script, this file's folder leads sys.path, where its "calendar" bench would hide
# the standard library's: the repository's root replaces it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parents[1]))

from tests.bench.api_throughput import config_for
from tests.sandbox.conftest import Api
from tests.sandbox_harness import running_sandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import BRASILIA, brasilia_date, system_clock
from treasury_app.domain.schedule import NATIONAL
from treasury_app.ledger import open_ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutsService
from treasury_app.services.schedule import ScheduleService

PAYMENTS = 500
SMOKE_PAYMENTS = 50
START = "2026-11-18T13:00:00Z"  # a Wednesday, 10:00 in Brasília


class SandboxClock:
    """The sandbox's clock as an offset of this computer's (read again after each move): no
    request per reading."""

    def __init__(self, control: Api) -> None:
        self.control = control
        self.offset = dt.timedelta(0)
        self.sync()

    def sync(self) -> None:
        bank = dt.datetime.fromisoformat(self.control.now().replace("Z", "+00:00"))
        self.offset = bank - system_clock()

    def __call__(self) -> dt.datetime:
        return system_clock() + self.offset


async def bench(control: Api, transport: ApiTransport, folder: Path, count: int) -> int:
    clock = SandboxClock(control)
    ledger = open_ledger(folder / "ledger.sqlite3", profile="bench", user="bench")
    try:
        engine = PaymentEngine(AccountsClient(transport), ledger, follow_up=())
        payouts = PayoutsService(engine, ledger)
        schedule = ScheduleService(engine, ledger, engine.accounts, clock=clock)
        day = NATIONAL.next_business_day(brasilia_date(clock()) + dt.timedelta(days=1))
        started = time.perf_counter()
        keys = []
        for n in range(count):
            review = await payouts.prepare_key(
                f"fornecedor{n}@empresa.com.br", f"{1 + n % 50},{n % 100:02d}"
            )
            entry = await payouts.send(schedule.schedule_payout(review, day))
            assert entry.state == EntryState.PREPARED
            keys.append(entry.idempotency_key)
        journaled = time.perf_counter() - started
        at = dt.datetime.combine(day, dt.time(8, 0), BRASILIA)
        control.advance((at - clock()).total_seconds())
        clock.sync()

        started = time.perf_counter()
        sent = await schedule.send_due()
        took = time.perf_counter() - started
        accepted = [e for e in sent if e.state == EntryState.ACCEPTED]
        again = await schedule.send_due()
        at_bank = sum(
            1
            for key in keys
            if control.get(f"/api/v2/pix/payments/idempotencyKey/{key}").status_code == 200
        )
        held = await schedule.held()
    finally:
        await ledger.close()
    print(f"due sender: {count} payments due at 08:00 of {day:%d/%m/%Y}, file ledger")
    print(f"journaled ahead          {journaled:6.2f} s")
    print(f"time to the last ACCEPTED {took:6.2f} s   {len(accepted) / took:6.1f} sends/s")
    print(
        f"accepted {len(accepted)}, second pass sent {len(again)}, at the bank {at_bank}, "
        f"held {len(held)}"
    )
    if len(accepted) != count or again or at_bank != count or held:
        print("FAILED: every payment must be sent once, on its day")
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--payments", type=int, default=PAYMENTS)
    parser.add_argument("--smoke", action="store_true", help=f"{SMOKE_PAYMENTS} payments")
    args = parser.parse_args()
    count = SMOKE_PAYMENTS if args.smoke else args.payments
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        with running_sandbox(root / "sandbox", "--clock-start", START) as sandbox:
            control = Api(sandbox, "accounts")
            try:

                async def run() -> int:
                    async with ApiTransport(config_for(sandbox, "accounts")) as transport:
                        return await bench(control, transport, root, count)

                return asyncio.run(run())
            finally:
                control.close()


if __name__ == "__main__":
    sys.exit(main())
