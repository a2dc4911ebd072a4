"""Ledger backends side by side: the file on this computer (SQLite) and a team database
(PostgreSQL over the local socket), both durable (SQLite ``synchronous=FULL``, PostgreSQL
``fsync=on``, ``synchronous_commit=on``).

Prints:

* journal intents written and moved through their states per second (create, SENT,
  ACCEPTED, final: four commits per intent, as a payment makes them), one writer and 8
  concurrent writers;
* desktop-to-desktop change latency: from desktop A journaling an entry until desktop B's
  team link has read it back and told B's listeners (the payments list redraws from them),
  p50/p99 over ``--changes`` changes (goal: p99 < 250 ms).

Run: ``.venv/bin/python tests/bench/ledger_backends.py [--intents 300] [--changes 1000]``.
Start-up with a team profile against the file profile is measured by
``tests/bench/startup.py --team``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import uuid
from decimal import Decimal
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.pg_server import start_server  # noqa: E402
from treasury_app.ledger import Ledger, open_ledger  # noqa: E402
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry  # noqa: E402
from treasury_app.ledger.team import (  # noqa: E402
    TeamDatabaseSettings,
    migrations,
    open_team_ledger,
)
from treasury_app.services.team_link import TeamLink  # noqa: E402


def new_entry(number: int) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.00") + number,
        idempotency_key=str(uuid.uuid4()),
        request={"amount": Decimal("10.00"), "pixKey": f"payee{number}@example.com"},
        payee_detail=f"payee{number}@example.com",
    )


async def lifecycle(ledger: Ledger, number: int) -> None:
    entry = await ledger.journal.create(new_entry(number))
    await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="ON_QUEUE", note="accepted"
    )
    await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, note="status"
    )


async def intents_per_second(ledger: Ledger, count: int, writers: int) -> float:
    started = time.perf_counter()
    if writers == 1:
        for number in range(count):
            await lifecycle(ledger, number)
    else:

        async def writer(offset: int) -> None:
            for number in range(offset, count, writers):
                await lifecycle(ledger, number)

        await asyncio.gather(*(writer(offset) for offset in range(writers)))
    return count / (time.perf_counter() - started)


async def change_latency(
    a: Ledger, b: Ledger, settings: TeamDatabaseSettings, count: int
) -> tuple[float, float, float]:
    """Desktop A journals an entry; desktop B's team link reads it back from its own pool
    and announces it to B's listeners (what the payments list redraws from). Measured from
    A's call to B's announcement."""
    arrived: dict[int, float] = {}
    event = asyncio.Event()

    class Listeners:  # B's engine, as the team link sees it
        def announce(self, entry: object) -> None:
            arrived.setdefault(entry.id, time.perf_counter())  # type: ignore[attr-defined]
            event.set()

    link = TeamLink(b, Listeners(), settings.conninfo())  # type: ignore[arg-type]
    link.start()
    while not link.state.online:
        await asyncio.sleep(0.01)
    latencies = []
    for number in range(count):
        started = time.perf_counter()
        entry = await a.journal.create(new_entry(number))
        while entry.id not in arrived:
            event.clear()
            await asyncio.wait_for(event.wait(), 5)
        latencies.append((arrived[entry.id] - started) * 1000)
        await asyncio.sleep(0.002)  # changes a few ms apart, as people make them
    await link.close()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return statistics.median(latencies), p99, latencies[-1]


async def main(args: argparse.Namespace) -> None:
    base = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    server = start_server(base)
    try:
        with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET fsync = on")
            conn.execute("ALTER SYSTEM SET synchronous_commit = on")
            conn.execute("ALTER SYSTEM SET full_page_writes = on")
            conn.execute("SELECT pg_reload_conf()")
            conn.execute("DROP ROLE IF EXISTS bench_desk")
            conn.execute("CREATE ROLE bench_desk LOGIN")
        server.create_database("bench")
        with psycopg.connect(server.url("bench"), autocommit=True) as conn:
            migrations.init(conn)
            conn.execute("GRANT treasury_maker TO bench_desk")
        settings = TeamDatabaseSettings(
            host=server.host, port=server.port, dbname="bench", user="bench_desk", sslmode="disable"
        )
        print(f"PostgreSQL {server.version} ({server.flavour}), fsync on; SQLite synchronous=FULL")
        file_ledger = open_ledger(base / "bench.sqlite3", profile="bench")
        team_ledger = await open_team_ledger(
            settings, profile="bench", password=None, receipts_dir=base / "r"
        )
        try:
            for writers in (1, 8):
                file_rate = await intents_per_second(file_ledger, args.intents, writers)
                team_rate = await intents_per_second(team_ledger, args.intents, writers)
                print(
                    f"intents/s ({writers} writer{'s' if writers > 1 else ''}, 4 commits each):"
                    f" SQLite {file_rate:7.1f}  PostgreSQL {team_rate:7.1f}"
                    f"  (ratio {file_rate / team_rate:.2f})"
                )
            desk_b = await open_team_ledger(
                settings, profile="bench", password=None, receipts_dir=base / "rb"
            )
            try:
                p50, p99, worst = await change_latency(team_ledger, desk_b, settings, args.changes)
            finally:
                await desk_b.close()
            print(
                f"change latency A journals -> B's list told, over {args.changes} changes:"
                f" p50 {p50:.2f} ms  p99 {p99:.2f} ms  max {worst:.2f} ms (goal p99 < 250 ms)"
            )
        finally:
            await file_ledger.close()
            await team_ledger.close()
    finally:
        server.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--intents", type=int, default=300)
    parser.add_argument("--changes", type=int, default=1000)
    asyncio.run(main(parser.parse_args()))
