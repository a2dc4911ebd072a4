"""No person's open transaction stalls a colleague (issue 32, schema 5).

Up to schema 4 every audit row locked the chain's one-row head (``audit_head``) and every
change of a journal entry the feed's (``change_head``), each until its transaction's commit:
a viewer who inserted an audit row in ``psql`` and kept the transaction open made everyone's
prepares and approvals fail at the lock timeout. Here the people act with their own logins —
the insider with raw psycopg, as ``psql`` would, the colleagues through their desktops'
ledgers or raw connections that give up after a few seconds — and:

* a viewer holding an audit row open, or a maker holding a prepare open, stalls nobody;
* nobody can hold an approver's or a content's lock (schema 4's limits) by hand;
* the change feed reads a change committed late (numbered before one read already);
* the audit chain stays whole after concurrent writers and a session holding its head, and
  ``treasury-admin verify-audit`` names that session while it holds it;
* a desktop's write that times out waiting for a lock says who holds it (login,
  application, state, since), in English and in Brazilian Portuguese.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from tests.ledger.test_approvals_db import (  # noqa: F401  (people: a fixture)
    ONE_APPROVAL,
    approvals,
    as_person,
    desks,
    intent,
    payee,
    people,
    prepare_raw,
    superuser,
)
from tests.ledger_backends import TeamDatabases
from tests.waiting import WAIT_SECONDS, await_until, wait_until_blocked
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.admin import main as admin_main
from treasury_app.ledger.team.approvals import TeamApprovals
from treasury_app.ledger.team.chain import verify_chain
from treasury_app.ledger.team.changes import DEBOUNCE_SECONDS, ChangeFeed
from treasury_app.ledger.team.integrity_schema import APPROVER_LOCKS, CONTENT_LOCKS
from treasury_app.ledger.team.schema import SCHEMA_VERSION, VIEWER
from treasury_app.ledger.team.store import TeamDatabase

pytestmark = pytest.mark.usefixtures("team_databases")

GIVE_UP = "5s"
"""The colleagues' raw connections give up waiting for a lock after this (up to schema 4 they
waited for the insider; now they never wait)."""


def viewer(team: TeamDatabases) -> str:
    """``vic``, a viewer only."""
    return team.person("vic", VIEWER)


def colleague(team: TeamDatabases, database: str, user: str) -> psycopg.Connection[Any]:
    """A raw connection of ``user`` that gives up on a lock after :data:`GIVE_UP`."""
    conn = as_person(team, database, user)
    conn.execute(f"SET lock_timeout = '{GIVE_UP}'")
    return conn


def audit_insert(conn: psycopg.Connection[Any], action: str) -> dict[str, Any]:
    row = conn.execute(
        "INSERT INTO treasury.audit (at, profile, action, outcome) VALUES ('', 'p', %s, 'ok')"
        " RETURNING *",
        (action,),
    ).fetchone()
    assert row is not None
    return row


def chain(team: TeamDatabases, database: str) -> tuple[list[dict[str, Any]], int]:
    """The chained audit rows in chain order, and how many wait to be chained."""
    with superuser(team, database) as conn:
        rows = conn.execute(
            "SELECT * FROM treasury.audit WHERE seq IS NOT NULL ORDER BY seq"
        ).fetchall()
        waiting = conn.execute("SELECT count(*) AS n FROM treasury.audit WHERE seq IS NULL")
        found = waiting.fetchone()
    assert found is not None
    return rows, int(found["n"])


def verify(team: TeamDatabases, database: str, *args: str) -> tuple[int, str, str]:
    """``treasury-admin verify-audit``: exit code, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = admin_main(["--db", team.server.url(database), "verify-audit", *args])
    return code, out.getvalue(), err.getvalue()


# -- 1. an insider's open transaction --------------------------------------------------------


async def test_a_viewer_holding_an_audit_row_open_stalls_no_one(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    """The attack of issue 32: the viewer's open insert held the chain's head, and every
    prepare and approval of everyone failed at the lock timeout while he held it."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    viewer(team_databases)
    with as_person(team_databases, database, "vic") as vic, vic.transaction():
        held = audit_insert(vic, "session.open")
        async with desks(team_databases, tmp_path, database, "ana", "bruno") as (ana, bruno):
            entry = await ana.journal.create(intent("500.00"))
            approved = await approvals(bruno).approve(entry.id, entry.content_hash or "")
            assert approved.approval == "APPROVED"
            await bruno.audit.record("test.colleague", "ok")
            with colleague(team_databases, database, "eva") as eva:
                raw = prepare_raw(eva, "700.00")  # a raw prepare neither waits
            assert raw["approval"] == "WAITING"
        assert vic.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
        rows, waiting = chain(team_databases, database)
        # vic's transaction holds the chain's head: the others' rows wait to be chained
        assert held["seq"] is not None and waiting == 4
        assert {row["actor"] for row in rows}.isdisjoint({"ana", "bruno", "eva"})
    rows, waiting = chain(team_databases, database)
    assert waiting == 4  # nobody wrote since: they wait for the next writer or sealer
    code, out, _ = verify(team_databases, database)  # seals them, then walks the chain
    assert code == 0 and "not chained yet" not in out
    rows, waiting = chain(team_databases, database)
    assert waiting == 0 and verify_chain(rows).ok
    actions = [row["action"] for row in rows]
    assert actions.index("session.open") < actions.index("approval.prepare")
    assert actions[-4:] == [
        "approval.prepare",
        "approval.approve",
        "test.colleague",
        "approval.prepare",
    ]
    assert [row["actor"] for row in rows[-5:]] == ["vic", "ana", "bruno", "bruno", "eva"]


async def test_a_maker_holding_a_prepare_open_stalls_no_one(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with as_person(team_databases, database, "ana") as ana, ana.transaction():
        held = prepare_raw(ana, "300.00")  # a journal row, its change and its audit row
        async with desks(team_databases, tmp_path, database, "eva", "bruno") as (eva, bruno):
            entry = await eva.journal.create(intent("400.00"))
            approved = await approvals(bruno).approve(entry.id, entry.content_hash or "")
            assert approved.approval == "APPROVED"
            assert held["id"] not in {e.id for e in await bruno.journal.recent()}  # not yet
            rejected = await approvals(bruno).reject(
                (await eva.journal.create(intent("410.00"))).id, "not this one"
            )
            assert rejected.approval == "REJECTED"
    code, _, _ = verify(team_databases, database)
    rows, waiting = chain(team_databases, database)
    assert code == 0 and waiting == 0 and verify_chain(rows).ok
    makers = [(row["action"], row["actor"]) for row in rows if row["action"].startswith("appr")]
    assert ("approval.prepare", "ana") in makers and ("approval.approve", "bruno") in makers


OLD_APPROVER_KEY = 29811
OLD_CONTENT_KEY = 29812
"""The advisory keys schema 4 serialized an approver's approvals and a content's prepares on,
before they became rows of owner-only tables."""
LOCKING_CLAUSES = ("", "FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE")
TABLE_LOCK_MODES = ("ACCESS SHARE", "ROW SHARE", "ROW EXCLUSIVE", "SHARE", "ACCESS EXCLUSIVE")


def test_nobody_holds_an_approvers_or_a_contents_lock_by_hand(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """eva (maker and approver) takes, in psql, the advisory keys schema 4 used to serialize
    bruno's approvals and the prepares of one content, tries to read, lock or fill the rows
    that serialize them now (refused: she holds no privilege on them), and keeps a
    transaction open in which she approved and prepared herself: meanwhile bruno's approval
    and ana's prepare of that very content go through at once; only eva's own other session
    waits to approve, until her transaction ends."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    with as_person(team_databases, database, "ana") as ana:
        evas, later, brunos = (prepare_raw(ana, f"{n}00.00") for n in (1, 2, 3))
    with (
        as_person(team_databases, database, "eva") as eva,
        as_person(team_databases, database, "eva") as eva_again,
        superuser(team_databases, database) as observer,
        ThreadPoolExecutor(1) as pool,
    ):
        taken = eva.execute(
            "SELECT pg_try_advisory_lock(%s, hashtext('bruno')) AS approver,"
            " pg_try_advisory_lock(%s, hashtext(treasury.lp('PIX_KEY') || treasury.lp(%s)"
            " || treasury.lp('') || treasury.lp('700.00') || treasury.lp('')"
            " || treasury.lp('INSTANT'))) AS content",
            (OLD_APPROVER_KEY, OLD_CONTENT_KEY, detail),
        ).fetchone()
        assert taken == {"approver": True, "content": True}
        for table, key in ((APPROVER_LOCKS, "bruno"), (CONTENT_LOCKS, "0" * 64)):
            for clause in LOCKING_CLAUSES:
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    eva.execute(f"SELECT * FROM {table} {clause}")
            for mode in TABLE_LOCK_MODES:
                with pytest.raises(psycopg.errors.InsufficientPrivilege), eva.transaction():
                    eva.execute(f"LOCK TABLE {table} IN {mode} MODE")
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                eva.execute(f"INSERT INTO {table} VALUES (%s)", (key,))
        with eva.transaction():
            eva.execute(
                "SELECT * FROM treasury.approve(%s, %s)", (evas["id"], evas["content_hash"])
            )
            prepare_raw(eva, "300.00")
            with (
                colleague(team_databases, database, "bruno") as bruno,
                colleague(team_databases, database, "ana") as ana,
            ):
                approved = bruno.execute(
                    "SELECT * FROM treasury.approve(%s, %s)",
                    (brunos["id"], brunos["content_hash"]),
                ).fetchone()
                made = prepare_raw(ana, "700.00", detail=detail)  # the content of eva's key
            held = observer.execute(
                "SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND granted"
                " AND pid = %s",
                (eva.info.backend_pid,),
            ).fetchone()
            assert held == {"n": 2}  # eva held both old keys all along
            again = pool.submit(
                lambda: eva_again.execute(
                    "SELECT approval FROM treasury.approve(%s, %s)",
                    (later["id"], later["content_hash"]),
                ).fetchone()
            )
            wait_until_blocked(observer, eva_again.info.backend_pid, by=eva.info.backend_pid)
        assert again.result(timeout=WAIT_SECONDS) == {"approval": "APPROVED"}
        eva.execute("SELECT pg_advisory_unlock_all()")
    assert approved is not None and approved["approval"] == "APPROVED"
    assert made["approval"] == "WAITING" and made["payee_detail"] == detail


# -- 2. the change feed ------------------------------------------------------------------------


async def test_the_feed_reads_a_change_committed_after_a_later_one(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """Writer A takes the earlier number and stays open; writer B commits a later one; the
    reader reads B. Then A commits: the reader still gets A's change."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    seen: list[int] = []
    feed = ChangeFeed(
        team_databases.settings(database, "bruno").conninfo(),
        on_changes=seen.extend,
        probe_every=WAIT_SECONDS,  # woken by NOTIFY only: every read below is a catch-up
    )
    feed.start()
    try:
        await await_until(lambda: feed.state.online, "the feed online")
        with as_person(team_databases, database, "ana") as writer_a:
            with writer_a.transaction():
                first = prepare_raw(writer_a, "100.00")  # A: the earlier number, open
                with colleague(team_databases, database, "eva") as writer_b:
                    second = prepare_raw(writer_b, "200.00")  # B: a later one, committed
                await await_until(lambda: second["id"] in seen, "B's change read")
                assert first["id"] not in seen  # A's is not committed yet
            await await_until(lambda: first["id"] in seen, "A's change read once committed")
    finally:
        await feed.stop()
    assert seen == [second["id"], first["id"]]
    with superuser(team_databases, database) as conn:
        numbers = {
            row["entry_id"]: row["seq"]
            for row in conn.execute(
                "SELECT entry_id, seq FROM treasury.changes WHERE entry_id = ANY(%s)",
                ([first["id"], second["id"]],),
            )
        }
    assert numbers[first["id"]] < numbers[second["id"]]  # numbered first, committed last


async def test_a_feed_started_from_a_position_reads_what_committed_after_it(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    """A desktop's position (taken when it loads its lists) misses neither a change that was
    open then and commits later, nor one made while its feed was not connected."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "bruno") as (bruno,):
        with as_person(team_databases, database, "ana") as ana:
            with ana.transaction():
                open_then = prepare_raw(ana, "100.00")
                position = await bruno.feed_position()  # type: ignore[attr-defined]
            later = prepare_raw(ana, "200.00")
        seen: list[int] = []
        feed = ChangeFeed(
            team_databases.settings(database, "bruno").conninfo(),
            on_changes=seen.extend,
            position=position,
        )
        feed.start()
        try:
            await await_until(lambda: feed.state.online, "the feed online")
        finally:
            await feed.stop()
    assert seen == [open_then["id"], later["id"]]


# -- 3. the audit chain ------------------------------------------------------------------------


async def test_verify_audit_after_concurrent_writers_and_a_held_head(
    team_databases: TeamDatabases,
    people: dict[str, tuple[str, ...]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Six logins write audit rows (and prepare) at once from threads and two desktops, while
    carla holds the chain's head in an open transaction (she called the sealer in it): nobody
    waits; verify-audit names her meanwhile; once she commits, one chain holds every row."""
    from treasury_app.ledger.team import admin

    monkeypatch.setattr(admin, "SEAL_WAIT", "1s")
    database = team_databases.new_database(policy=ONE_APPROVAL)
    viewer(team_databases)
    rounds = 8
    holder = psycopg.connect(
        team_databases.server.url(database, user="carla", application_name="psql"),
        autocommit=True,
        row_factory=dict_row,
    )
    holder.execute("BEGIN")
    head = holder.execute("SELECT treasury.seal_audit() AS head").fetchone()
    assert head is not None and head["head"] is not None  # she holds the head now

    def writer(user: str) -> list[int]:
        written = []
        with colleague(team_databases, database, user) as conn:
            for number in range(rounds):
                written.append(audit_insert(conn, f"test.{user}.{number}")["id"])
                if user in ("ana", "eva"):
                    prepare_raw(conn, f"{number + 1}.{len(user)}0")
        return written

    async with desks(team_databases, tmp_path, database, "bruno", "dora") as (bruno, dora):
        with ThreadPoolExecutor(4) as pool:
            threads = [pool.submit(writer, user) for user in ("ana", "eva", "vic", "carla")]
            for number in range(rounds):
                await bruno.audit.record("test.desk", "ok", reference=f"bruno-{number}")
                await dora.audit.record("test.desk", "ok", reference=f"dora-{number}")
            written = [id_ for thread in threads for id_ in thread.result(WAIT_SECONDS)]
        assert len(written) == 4 * rounds
        code, out, err = verify(team_databases, database)
        assert code == 0, err
        assert "not chained yet: the chain's head is held by carla (psql" in out
        assert "idle in transaction since" in out
        holder.execute("COMMIT")
        holder.close()
    code, out, err = verify(team_databases, database)
    rows, waiting = chain(team_databases, database)
    assert code == 0 and "not chained yet" not in out, err
    expected = 4 * rounds + 2 * rounds + 2 * rounds  # rows, desks' rows, prepares' rows
    assert waiting == 0 and verify_chain(rows).ok
    assert [row["seq"] for row in rows] == list(range(1, len(rows) + 1))
    assert sum(1 for row in rows if row["action"].startswith(("test.", "approval."))) == expected
    assert f"Head (keep it outside the database): {len(rows)}:" in out


def test_an_existing_chain_stays_whole_across_the_migration(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """A database at schema 4 with an audit and a feed migrates to 5: verify-audit passes
    before and after, the rows keep their place, and new rows chain after them."""
    name = f"pre5_{uuid.uuid4().hex[:8]}"
    team_databases.server.create_database(name)
    with psycopg.connect(team_databases.server.url(name), autocommit=True) as conn:
        with conn.transaction():  # what `treasury-admin init` does, then migrations 1 to 4
            conn.execute("CREATE SCHEMA treasury AUTHORIZATION treasury_owner")
            conn.execute("SET LOCAL ROLE treasury_owner")
            conn.execute("CREATE TABLE treasury.schema_version (version integer NOT NULL)")
            conn.execute("INSERT INTO treasury.schema_version VALUES (0)")
        assert team_migrations.migrate(conn, target=4) == 4
        team_migrations.harden_database(conn)
        team_migrations.set_policy(conn, approvals=1, new_payee_extra=0)
    with (
        as_person(team_databases, name, "ana") as ana,
        as_person(team_databases, name, "bruno") as bruno,
    ):
        for number in range(3):
            entry = prepare_raw(ana, f"{number + 1}.00")
            bruno.execute(
                "SELECT * FROM treasury.approve(%s, %s)", (entry["id"], entry["content_hash"])
            )
            audit_insert(bruno, f"test.before.{number}")
    code, out, err = verify(team_databases, name)
    assert code == 0, err
    before = out.strip().splitlines()[-1].split()[-1]
    before_rows, _ = chain(team_databases, name)
    with psycopg.connect(team_databases.server.url(name), autocommit=True) as conn:
        assert team_migrations.migrate(conn) == SCHEMA_VERSION
    code, out, err = verify(team_databases, name)
    assert code == 0, err
    rows, waiting = chain(team_databases, name)
    assert waiting == 0 and verify_chain(rows).ok
    kept = {row["seq"]: (row["id"], row["hash"]) for row in rows}
    assert all(kept[row["seq"]] == (row["seq"], row["hash"]) for row in before_rows)
    assert rows[len(before_rows)]["action"] == "admin.migrate"  # chained after them
    code, _, err = verify(team_databases, name, "--anchor", before)
    assert code == 0, err  # the head kept before the migration is still in the chain
    with as_person(team_databases, name, "bruno") as bruno:
        after = audit_insert(bruno, "test.after")
    assert after["seq"] == len(rows) + 1 and after["id"] > max(r["id"] for r in rows)


# -- 4. who blocks a write -------------------------------------------------------------------


async def test_a_write_that_times_out_on_a_lock_names_who_holds_it(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """bruno approves an intent in psql and leaves the transaction open (the entry's row
    stays locked); carla's desktop approving the same intent waits until its lock timeout,
    and the error names bruno, his application, his session's state and since when."""
    from treasury_app.ledger.errors import LedgerBlocked

    database = team_databases.new_database(policy={"approvals": 2, "new_payee_extra": 0})
    with as_person(team_databases, database, "ana") as ana:
        entry = prepare_raw(ana, "500.00")
    holder = psycopg.connect(
        team_databases.server.url(database, user="bruno", application_name="psql"),
        autocommit=True,
        row_factory=dict_row,
    )
    holder.execute("BEGIN")
    holder.execute("SELECT * FROM treasury.approve(%s, %s)", (entry["id"], entry["content_hash"]))
    started = holder.execute("SELECT now() AS at").fetchone()
    assert started is not None
    settings = team_databases.settings(database, "carla")
    pool = AsyncConnectionPool(
        settings.conninfo(options="-c lock_timeout=3s"),  # the desktop's 10 s, shorter
        min_size=1,
        max_size=4,
        open=False,
        kwargs={"autocommit": True, "row_factory": dict_row, "prepare_threshold": None},
    )
    await pool.open(wait=True)
    try:
        db = TeamDatabase(pool, watch_every=0.1)
        with pytest.raises(LedgerBlocked) as caught:
            await TeamApprovals(db).approve(entry["id"], entry["content_hash"])
    finally:
        await pool.close()
        holder.execute("ROLLBACK")
        holder.close()
    (blocking,) = caught.value.holders
    assert (blocking.login, blocking.application, blocking.state) == (
        "bruno",
        "psql",
        "idle in transaction",
    )
    assert blocking.since == started["at"]
    assert "bruno (psql), idle in transaction since" in str(caught.value)
    assert "Nothing was changed" in str(caught.value)


def test_the_blocked_message_names_the_holder_in_the_ui_language(qapp: Any) -> None:
    from PySide6.QtCore import QTranslator

    from treasury_app.ledger.errors import BlockingSession, LedgerBlocked
    from treasury_app.resources import translations_dir
    from treasury_app.ui.widgets.error_banner import friendly_message

    since = datetime(2026, 11, 19, 2, 30, 5, tzinfo=UTC)  # 23:30:05 of the 18th in Brasília
    error = LedgerBlocked((BlockingSession("bruno", "psql", "idle in transaction", since, 42),))
    title, detail = friendly_message(error)
    assert title == "Held up by another session"
    assert "bruno (psql), with a transaction left open since 18/11/2026 23:30:05" in detail
    translator = QTranslator()
    assert translator.load("treasury_pt_BR", str(translations_dir()))
    assert qapp.installTranslator(translator)
    try:
        title, detail = friendly_message(error)
        unknown, vague = friendly_message(LedgerBlocked(()))
    finally:
        qapp.removeTranslator(translator)
    assert title == "Bloqueado por outra sessão"
    assert "bruno (psql), com uma transação deixada aberta desde 18/11/2026 23:30:05" in detail
    assert detail.startswith("Nada foi alterado")
    assert unknown == title and vague.startswith("Nada foi alterado")


# -- 5. isolation levels ---------------------------------------------------------------------


def test_a_writer_in_repeatable_read_neither_waits_nor_breaks_the_chain(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """A session in REPEATABLE READ whose snapshot predates the head's last move leaves its
    rows to the next sealer (it can neither lock the head nor see the rows sealed since);
    one whose snapshot is current seals as in READ COMMITTED (a server whose default is
    REPEATABLE READ still chains)."""
    database = team_databases.new_database()
    with as_person(team_databases, database, "ana") as ana:
        with ana.transaction():
            ana.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            ana.execute("SELECT 1")  # the snapshot is taken
            with colleague(team_databases, database, "bruno") as bruno:
                assert audit_insert(bruno, "test.moved")["seq"] is not None  # head moves on
            assert audit_insert(ana, "test.repeatable")["seq"] is None
            sealed = ana.execute("SELECT treasury.seal_audit() AS head").fetchone()
            assert sealed == {"head": None}
        assert chain(team_databases, database)[1] == 1
        with ana.transaction():
            ana.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
            sealed = ana.execute("SELECT treasury.seal_audit() AS head").fetchone()
            assert sealed is not None and sealed["head"] is not None
    rows, waiting = chain(team_databases, database)
    assert waiting == 0 and verify_chain(rows).ok
    assert [row["action"] for row in rows[-2:]] == ["test.moved", "test.repeatable"]


async def test_a_flood_of_spoofed_change_notifications_is_a_few_reads(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """Any login may NOTIFY the change feed's channel (PostgreSQL has no privilege for it): a
    viewer's stream of notifications, one every few milliseconds, is at most one read of the
    feed per DEBOUNCE_SECONDS (a bound that follows from the feed's own rule, whatever the
    machine's speed), not one read a notification; a real change after it still arrives."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    seen: list[int] = []
    feed = ChangeFeed(
        team_databases.settings(database, "bruno").conninfo(),
        on_changes=seen.extend,
        probe_every=WAIT_SECONDS,  # woken by NOTIFY only
    )
    reads: list[float] = []
    catch_up = feed._catch_up

    async def counted(conn: Any) -> None:
        reads.append(time.monotonic())
        await catch_up(conn)

    feed._catch_up = counted  # type: ignore[method-assign]
    feed.start()
    try:
        await await_until(lambda: feed.state.online, "the feed online")

        def flood() -> float:
            started = time.monotonic()
            with as_person(team_databases, database, viewer(team_databases)) as vic:
                vic.autocommit = True
                for number in range(120):
                    vic.execute("SELECT pg_notify('treasury_changes', %s)", (f"spoof {number}",))
                    time.sleep(0.005)  # the attacker's pace: each one alone on the wire
            return time.monotonic() - started

        before = len(reads)
        seconds = await asyncio.to_thread(flood)
        with as_person(team_databases, database, "ana") as ana:
            real = prepare_raw(ana, "300.00")
        await await_until(lambda: real["id"] in seen, "the real change read")
    finally:
        await feed.stop()
    flood_reads = len(reads) - before - 1  # the real change's own read
    assert flood_reads <= seconds / DEBOUNCE_SECONDS + 3, (flood_reads, seconds)
    assert flood_reads < 60  # not one read a notification
