"""Ledger backends side by side: the file on this computer (SQLite) and a team database
(PostgreSQL over the local socket), both durable (SQLite ``synchronous=FULL``, PostgreSQL
``fsync=on``, ``synchronous_commit=on``).

Every write goes through the ledger's own API, as the app makes it; on the team database that
is its functions (``treasury.prepare``, ``treasury.approve``, ``treasury.record``), whose
approval check refuses to send an intent without the approvals its policy asks for. So the
team database is set up twice:

* **dual control off** (``treasury-admin policy set --approvals 0 --approvals-above 0
  --new-payee-extra 0``: each maker sends their own payments), the side by side with the file,
  which has no dual control: the same four commits an intent on both (journaled, SENT,
  ACCEPTED, final);
* **dual control on** (one approval, no new-payee extra: every payee here is new), the team's
  own lifecycle: a maker's login prepares, another person's login (an approver) approves the
  content it reviewed and releases it (SENT), then ACCEPTED and final: five commits, two
  logins.

Prints:

* journal intents written and moved through their states per second, one writer and 8
  concurrent writers (a writer under dual control is a maker and an approver);
* desktop-to-desktop change latency (dual control off): from desktop A journaling an entry
  until desktop B's team link has read it back and told B's listeners (the payments list
  redraws from them), p50/p99 over ``--changes`` changes (goal: p99 < 250 ms).

Run: ``.venv/bin/python tests/bench/ledger_backends.py [--intents 300] [--changes 1000]``;
``--smoke`` (``make bench-smoke``): 16 intents and 20 changes, and exits 1 unless every
intent ended ``ACCEPTED`` and final on every backend and every change reached desktop B.
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
from collections.abc import Awaitable, Callable
from decimal import Decimal
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.pg_server import PgServer, start_server  # noqa: E402
from treasury_app.ledger import Ledger, open_ledger  # noqa: E402
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry  # noqa: E402
from treasury_app.ledger.team import (  # noqa: E402
    TeamDatabaseSettings,
    migrations,
    open_team_ledger,
)
from treasury_app.ledger.team.schema import APPROVER, MAKER  # noqa: E402
from treasury_app.services.team_link import TeamLink, TeamState  # noqa: E402

SOLO_POLICY = {"approvals": 0, "approvals_above": 0, "new_payee_extra": 0}
DUAL_POLICY = {"approvals": 1, "approvals_above": 1, "new_payee_extra": 0}
DESK = "bench_desk"  # dual control off: makes and sends
MAKER_LOGIN = "bench_ana"  # dual control on: prepares
APPROVER_LOGIN = "bench_bruno"  # ... approves and releases


def new_entry(number: int) -> NewEntry:
    """Each its own payee, amount and key: no two wait with the same content."""
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.00") + number,
        idempotency_key=str(uuid.uuid4()),
        request={"amount": Decimal("10.00"), "pixKey": f"payee{number}@example.com"},
        payee_detail=f"payee{number}@example.com",
    )


async def send(ledger: Ledger, entry: Entry) -> Entry:
    """Released to the bank and its answers recorded, as the payment engine records them."""
    await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="ON_QUEUE", note="accepted"
    )
    return await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, note="status"
    )


async def lifecycle(ledger: Ledger, number: int) -> Entry:
    """Without dual control: journaled and sent by one person, four commits."""
    entry = await ledger.journal.create(new_entry(number))
    return await send(ledger, entry)


class DualControl:
    """With dual control: the maker's ledger prepares, the approver's approves the content it
    reviewed, then releases and records it: five commits."""

    def __init__(self, maker: Ledger, approver: Ledger) -> None:
        self.maker = maker
        self.approver = approver

    async def __call__(self, _ledger: Ledger, number: int) -> Entry:
        entry = await self.maker.journal.create(new_entry(number))
        if entry.state != EntryState.PREPARED or entry.approvals_needed != 1:
            raise RuntimeError(f"intent {entry.id} is not waiting for one approval: {entry}")
        approvals = self.approver.approvals
        assert approvals is not None and entry.content_hash is not None
        approved = await approvals.approve(entry.id, entry.content_hash)
        return await send(self.approver, approved)


Lifecycle = Callable[[Ledger, int], Awaitable[Entry]]


async def intents_per_second(
    ledger: Ledger, count: int, writers: int, run: Lifecycle = lifecycle
) -> tuple[float, list[Entry]]:
    """Intents through ``run`` per second, and where each ended."""
    ended: list[Entry] = []
    started = time.perf_counter()
    if writers == 1:
        for number in range(count):
            ended.append(await run(ledger, number))
    else:

        async def writer(offset: int) -> None:
            for number in range(offset, count, writers):
                ended.append(await run(ledger, number))

        await asyncio.gather(*(writer(offset) for offset in range(writers)))
    return count / (time.perf_counter() - started), ended


def not_sent(ended: list[Entry], count: int) -> int:
    """How many of ``count`` intents did not end ``ACCEPTED`` and final."""
    return count - sum(1 for e in ended if e.state == EntryState.ACCEPTED and e.final)


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
    online = asyncio.Event()

    def state_changed(state: TeamState) -> None:
        if state.online:
            online.set()

    link.subscribe(state_changed)
    link.start()
    latencies = []
    try:
        await asyncio.wait_for(online.wait(), 30)
        for number in range(count):
            started = time.perf_counter()
            entry = await a.journal.create(new_entry(number))
            while entry.id not in arrived:
                event.clear()
                await asyncio.wait_for(event.wait(), 5)
            latencies.append((arrived[entry.id] - started) * 1000)
            await asyncio.sleep(0.002)  # changes a few ms apart, as people make them
    finally:
        await link.close()
    latencies.sort()
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return statistics.median(latencies), p99, latencies[-1]


def team_database(server: PgServer, name: str, policy: dict[str, int]) -> None:
    """A migrated team database under ``policy`` (``treasury-admin init`` and ``policy set``)."""
    server.create_database(name)
    with psycopg.connect(server.url(name), autocommit=True) as conn:
        migrations.init(conn)
        migrations.set_policy(conn, **policy)


async def main(args: argparse.Namespace) -> list[str]:
    """Prints the figures; what did not happen as it should (empty: all did)."""
    problems: list[str] = []
    base = Path(tempfile.mkdtemp(prefix="ledger-bench-"))
    server = start_server(base)
    try:
        with psycopg.connect(server.url("postgres"), autocommit=True) as conn:
            conn.execute("ALTER SYSTEM SET fsync = on")
            conn.execute("ALTER SYSTEM SET synchronous_commit = on")
            conn.execute("ALTER SYSTEM SET full_page_writes = on")
            conn.execute("SELECT pg_reload_conf()")
        team_database(server, "bench", SOLO_POLICY)
        team_database(server, "bench_dual", DUAL_POLICY)
        with psycopg.connect(server.url("bench"), autocommit=True) as conn:
            migrations.add_user(conn, DESK, (MAKER,))
            migrations.add_user(conn, MAKER_LOGIN, (MAKER,))
            migrations.add_user(conn, APPROVER_LOGIN, (APPROVER,))

        def settings(database: str, user: str) -> TeamDatabaseSettings:
            return TeamDatabaseSettings(
                host=server.host, port=server.port, dbname=database, user=user, sslmode="disable"
            )

        async def team_ledger_of(database: str, user: str) -> Ledger:
            return await open_team_ledger(
                settings(database, user),
                profile="bench",
                password=None,
                receipts_dir=base / f"receipts-{database}-{user}",
            )

        print(f"PostgreSQL {server.version} ({server.flavour}), fsync on; SQLite synchronous=FULL")
        file_ledger = open_ledger(base / "bench.sqlite3", profile="bench")
        team_ledger = await team_ledger_of("bench", DESK)
        maker = await team_ledger_of("bench_dual", MAKER_LOGIN)
        approver = await team_ledger_of("bench_dual", APPROVER_LOGIN)
        dual = DualControl(maker, approver)
        try:
            print(f"{args.intents} intents a run; dual control off unless said")
            for writers in (1, 8):
                file_rate, file_ended = await intents_per_second(file_ledger, args.intents, writers)
                team_rate, team_ended = await intents_per_second(team_ledger, args.intents, writers)
                dual_rate, dual_ended = await intents_per_second(maker, args.intents, writers, dual)
                print(
                    f"intents/s ({writers} writer{'s' if writers > 1 else ''}, 4 commits each):"
                    f" SQLite {file_rate:7.1f}  PostgreSQL {team_rate:7.1f}"
                    f"  (ratio {file_rate / team_rate:.2f}); PostgreSQL with dual control"
                    f" (5 commits, 2 logins) {dual_rate:7.1f}"
                )
                for backend, ended in (
                    ("SQLite", file_ended),
                    ("PostgreSQL", team_ended),
                    ("PostgreSQL with dual control", dual_ended),
                ):
                    missing = not_sent(ended, args.intents)
                    if missing:
                        problems.append(
                            f"{backend}, {writers} writer(s): {missing} of {args.intents} "
                            "intents did not end ACCEPTED and final"
                        )
            desk_b = await team_ledger_of("bench", DESK)
            try:
                p50, p99, worst = await change_latency(
                    team_ledger, desk_b, settings("bench", DESK), args.changes
                )
            finally:
                await desk_b.close()
            print(
                f"change latency A journals -> B's list told, over {args.changes} changes:"
                f" p50 {p50:.2f} ms  p99 {p99:.2f} ms  max {worst:.2f} ms (goal p99 < 250 ms)"
            )
        finally:
            for ledger in (file_ledger, team_ledger, maker, approver):
                await ledger.close()
    finally:
        server.close()
    for problem in problems:
        print(f"NOT AS IT SHOULD BE: {problem}")
    return problems


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--intents", type=int, default=300)
    parser.add_argument("--changes", type=int, default=1000)
    parser.add_argument(
        "--smoke", action="store_true", help="16 intents, 20 changes; exit 1 if one went amiss"
    )
    arguments = parser.parse_args()
    if arguments.smoke:
        arguments.intents, arguments.changes = 16, 20
    sys.exit(1 if asyncio.run(main(arguments)) and arguments.smoke else 0)
