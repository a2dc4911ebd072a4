"""One desktop of a treasury team, in a process of its own (its own event loop, its own login
to the team database, its own connection to the sandbox bank), for
``tests/services/test_team_exactly_once.py``.

    python -m tests.services.team_desktop --ready READY_JSON --work DIR --name NAME \\
        --host H --port P --dbname D --user U [--read-timeout S] [--resolve-timeout S] \\
        [--no-follow-up] [--parallel N] STEP [STEP ...]

A step is ``submit:FILE`` (send the intents of ``FILE``, a JSON list of ``{"key", "amount",
"tag"}``, ``--parallel`` at a time, with the bank's read timeout ``--read-timeout``) or
``resolve`` (``resolve_pending()``, with ``--resolve-timeout``: resolving runs once the faults
are gone, and a busy machine must not leave an outcome unknown for a slow answer). The desktop
logs in, warms its bank connection up, prints ``{"name", "event": "ready"}`` and then runs
each step once the file ``WORK_DIR/go.NAME.<step>`` exists, printing ``{"name", "event":
"go", "go": step}`` as it starts one, a JSON line ``{"name", "step", "action", "states":
{key: state}, "seconds"}`` after it, and at the end ``{"name", "event": "done"}``. Every line
is flushed at once: the test reads them while the desktop runs (and may kill it at any time).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.waiting import LONG_WAIT_SECONDS, await_until
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger.journal import EntryKind, NewEntry


def intent(amount: Decimal, *, key: str | None = None, tag: str = "") -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=amount,
        idempotency_key=key or new_idempotency_key(),
        request={
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": amount},
            "description": f"team exactly-once {tag}",
        },
        payee_detail="fornecedor@empresa.com.br",
        description=f"team exactly-once {tag}",
    )


def say(**line: Any) -> None:
    print(json.dumps(line, sort_keys=True), flush=True)


async def run(args: argparse.Namespace) -> None:
    # Imported here: the test module imports intent() from this module without them.
    from tests.api.conftest import api_config
    from tests.sandbox_harness import RunningSandbox
    from treasury_app.api.accounts.client import AccountsClient
    from treasury_app.api.errors import NotFound
    from treasury_app.api.transport import ApiTransport, RetryPolicy, Timeouts
    from treasury_app.ledger.team import TeamDatabaseSettings, open_team_ledger
    from treasury_app.services.payments import FOLLOW_UP_DELAYS, PaymentEngine

    ready_file = Path(args.ready)
    ready = json.loads(ready_file.read_text())
    credentials = json.loads(Path(ready["credentials_file"]).read_text())
    process: Any = None  # not this process's child
    sandbox = RunningSandbox(process, ready_file.parent, ready, credentials, 0.0)
    work = Path(args.work)
    settings = TeamDatabaseSettings(
        host=args.host,
        port=args.port,
        dbname=args.dbname,
        user=args.user,
        sslmode="disable",
        connect_timeout=5,
    )
    ledger = await open_team_ledger(
        settings, profile="test", password=None, receipts_dir=work / f"{args.name}-receipts"
    )
    follow_up = () if args.no_follow_up else FOLLOW_UP_DELAYS
    try:
        engines: dict[str, PaymentEngine] = {}
        async with contextlib.AsyncExitStack() as stack:
            for action, read in (("submit", args.read_timeout), ("resolve", args.resolve_timeout)):
                config = api_config(
                    sandbox,
                    "accounts",
                    timeouts=Timeouts(read=read),
                    retry=RetryPolicy(base_delay=0.01, max_delay=0.02),
                )
                accounts = AccountsClient(await stack.enter_async_context(ApiTransport(config)))
                with contextlib.suppress(NotFound):  # the token and the TLS connection, first
                    await accounts.get_pix_payment_by_idempotency_key(new_idempotency_key())
                engines[action] = PaymentEngine(accounts, ledger, follow_up=follow_up)
            say(name=args.name, event="ready")
            for step, action in enumerate(args.steps):
                go = work / f"go.{args.name}.{step}"
                # a desktop left waiting gives up (the test died)
                await await_until(go.exists, go.name, timeout=LONG_WAIT_SECONDS)
                say(name=args.name, event="go", go=step)
                started = time.monotonic()
                if action == "resolve":
                    entries = await engines["resolve"].resolve_pending()
                else:
                    verb, _, file = action.partition(":")
                    assert verb == "submit" and file, action
                    items = json.loads(Path(file).read_text())
                    entries = await submit_all(engines["submit"], items, args.parallel)
                say(
                    name=args.name,
                    step=step,
                    action=action.partition(":")[0],
                    states={e.idempotency_key: e.state.value for e in entries},
                    seconds=round(time.monotonic() - started, 3),
                )
    finally:
        await ledger.close()
    say(name=args.name, event="done")


async def submit_all(engine: Any, items: list[dict[str, str]], parallel: int) -> list[Any]:
    gate = asyncio.Semaphore(parallel)

    async def one(item: dict[str, str]) -> Any:
        async with gate:
            new = intent(Decimal(item["amount"]), key=item["key"], tag=item.get("tag", ""))
            return await engine.submit(new)

    return list(await asyncio.gather(*(one(item) for item in items)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="team_desktop")
    parser.add_argument("--ready", required=True, help="the sandbox's ready.json")
    parser.add_argument("--work", required=True, help="the folder of the go files")
    parser.add_argument("--name", required=True)
    parser.add_argument("--host", required=True)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--dbname", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--read-timeout", type=float, default=0.3, help="when submitting")
    parser.add_argument(
        "--resolve-timeout", type=float, default=5.0, help="when resolving (faults gone)"
    )
    parser.add_argument("--no-follow-up", action="store_true")
    parser.add_argument("--parallel", type=int, default=4)
    parser.add_argument("steps", nargs="+", help="submit:FILE or resolve")
    args = parser.parse_args(argv)
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
