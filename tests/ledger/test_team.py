"""The team database itself: identity written by the database, the audit's hash chain and
its anchors, privileges a person's own login cannot get around, the changes feed (commit
order, missed notifications), claims across desktops, schema versions and logins, offline.

Behaviour shared with the file (journal, audit, receipts, batches) is tested on both backends
in ``test_ledger.py``; this module is about what only a shared database has.
"""

from __future__ import annotations

import asyncio
import uuid
from decimal import Decimal
from pathlib import Path

import psycopg
import psycopg.errors
import pytest
from psycopg.rows import dict_row

from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.waiting import await_until
from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger
from treasury_app.ledger.db import LedgerVersionError
from treasury_app.ledger.journal import DuplicateIntent, EntryKind, EntryState, NewEntry
from treasury_app.ledger.stores import LedgerRefused
from treasury_app.ledger.team import (
    TeamDatabaseOffline,
    TeamLoginError,
    TeamSchemaError,
    open_team_ledger,
)
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.admin import main as admin_main
from treasury_app.ledger.team.chain import Anchor, verify_chain
from treasury_app.ledger.team.changes import CHANGES_SQL, ChangeFeed
from treasury_app.ledger.team.schema import SCHEMA_VERSION, VIEWER

pytestmark = pytest.mark.usefixtures("team_databases")


def new_entry(amount: str = "10.00", detail: str = "ana@example.com") -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=str(uuid.uuid4()),
        request={"amount": Decimal(amount), "pixKey": detail},
        payee_detail=detail,
        payee_name="Ana",
    )


async def settled(ledger: Ledger, e2e: str) -> int:
    """An intent journaled, sent and settled by ``ledger``'s desktop: its id."""
    entry = await ledger.journal.create(new_entry())
    await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="SETTLED", end_to_end_id=e2e, note="accepted"
    )
    return entry.id


def superuser(team: TeamDatabases, database: str) -> psycopg.Connection:
    return psycopg.connect(team.server.url(database), autocommit=True, row_factory=dict_row)


def as_person(team: TeamDatabases, database: str, user: str) -> psycopg.Connection:
    return psycopg.connect(team.server.url(database, user=user), autocommit=True)


# -- identity --------------------------------------------------------------------------------


async def test_rows_carry_the_login_role_written_by_the_database(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with (
        opened_ledger("team", tmp_path / "a", user="ana_team", database=database) as ana,
        opened_ledger("team", tmp_path / "b", user="bruno_team", database=database) as bruno,
    ):
        entry = await ana.journal.create(new_entry())
        with pytest.raises(LedgerRefused, match="only they send it"):
            await bruno.journal.update(entry.id, EntryState.SENT, note="sending")
        await ana.journal.update(entry.id, EntryState.SENT, note="sending")
        await bruno.journal.update(entry.id, EntryState.UNKNOWN, note="no answer")
        await bruno.audit.record("payout.send", "ok", reference=entry.idempotency_key)
        assert (await bruno.journal.get(entry.id)).created_by == "ana_team"
        assert (await ana.audit.entries(action="payout"))[0].os_user == "bruno_team"
    with as_person(team_databases, database, "ana_team") as conn:
        conn.execute(
            "INSERT INTO treasury.audit (at, profile, action, outcome)"
            " VALUES ('x', 'p', 'forged', 'ok')"
        )
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(
                "INSERT INTO treasury.audit (at, actor, profile, action, outcome)"
                " VALUES ('x', 'bruno_team', 'p', 'forged', 'ok')"
            )
    with superuser(team_databases, database) as conn:
        forged = conn.execute("SELECT actor FROM treasury.audit WHERE action = 'forged'").fetchall()
        history = conn.execute("SELECT actor FROM treasury.journal_history ORDER BY id").fetchall()
    assert [row["actor"] for row in forged] == ["ana_team"]
    assert [row["actor"] for row in history] == ["ana_team", "ana_team", "bruno_team"]


async def test_the_same_intent_from_two_desktops_is_one_entry(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    new = new_entry()
    async with (
        opened_ledger("team", tmp_path / "a", database=database) as one,
        opened_ledger("team", tmp_path / "b", database=database) as two,
    ):
        results = await asyncio.gather(
            one.journal.create(new), two.journal.create(new), return_exceptions=True
        )
        created = [r for r in results if not isinstance(r, BaseException)]
        duplicates = [r for r in results if isinstance(r, DuplicateIntent)]
        assert len(created) == 1 and len(duplicates) == 1
        assert duplicates[0].entry.id == created[0].id
        assert await one.journal.counts() == {"PREPARED": 1}


# -- privileges ------------------------------------------------------------------------------


async def test_a_makers_own_login_cannot_rewrite_or_remove_the_audit(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with opened_ledger("team", tmp_path, user="maker_mia", database=database) as ledger:
        await ledger.audit.record("payout.send", "ok")
        entry = await ledger.journal.create(new_entry())
    with as_person(team_databases, database, "maker_mia") as conn:
        for statement in (
            "UPDATE treasury.audit SET outcome = 'rejected'",
            "DELETE FROM treasury.audit",
            "TRUNCATE treasury.audit",
            "UPDATE treasury.audit_head SET seq = 0",
            "DELETE FROM treasury.journal_history",
            f"DELETE FROM treasury.journal WHERE id = {entry.id}",
            f"UPDATE treasury.journal SET created_by = 'someone' WHERE id = {entry.id}",
            "ALTER TABLE treasury.audit DISABLE TRIGGER audit_append_only",
            "CREATE TABLE public.notes (text text)",
            "CREATE TEMP TABLE notes (text text)",
            "SET session_replication_role = replica",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    with superuser(team_databases, database) as conn:
        rows = conn.execute("SELECT * FROM treasury.audit ORDER BY seq").fetchall()
    assert verify_chain(rows).ok


async def test_a_viewer_reads_but_writes_nothing(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    team_databases.person("viewer_vic", VIEWER)
    async with opened_ledger("team", tmp_path / "m", database=database) as maker:
        await maker.journal.create(new_entry())
    settings = team_databases.settings(database, "viewer_vic")
    viewer = await open_team_ledger(settings, profile="p", password=None, receipts_dir=tmp_path)
    try:
        assert viewer.identity.roles == (VIEWER,) and not viewer.identity.can_write
        assert len(await viewer.journal.recent()) == 1
        with pytest.raises(LedgerRefused, match="does not allow your login"):
            await viewer.journal.create(new_entry())
        seq = await viewer.audit.record("session.open", "ok")  # its own rows only
        assert (await viewer.audit.entries(limit=1))[0].id == seq
        assert (await viewer.audit.entries(limit=1))[0].os_user == "viewer_vic"
        entry = (await viewer.journal.recent())[0]
        with pytest.raises(LedgerRefused):
            await viewer.journal.update(entry.id, EntryState.SENT)
    finally:
        await viewer.close()


# -- the audit chain ---------------------------------------------------------------------------


def verify(team: TeamDatabases, database: str, *args: str) -> tuple[int, str, str]:
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = admin_main(["--db", team.server.url(database), "verify-audit", *args])
    return code, out.getvalue(), err.getvalue()


async def test_verify_audit_names_the_first_edited_or_removed_row(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        for number in range(6):
            await ledger.audit.record("payout.send", "ok", amount=Decimal(f"{number}.10"))
    code, out, _ = verify(team_databases, database)
    assert code == 0 and "whole: 8 row(s)" in out  # 6 + the template's migrate and policy
    head = out.strip().splitlines()[-1].split()[-1]
    assert Anchor.parse(head).seq == 8
    with superuser(team_databases, database) as conn:
        conn.execute("ALTER TABLE treasury.audit DISABLE TRIGGER audit_append_only")
        conn.execute("UPDATE treasury.audit SET amount = '9999.10' WHERE seq = 4")
    code, _, err = verify(team_databases, database)
    assert code == 1 and "row 4" in err and "changed" in err
    with superuser(team_databases, database) as conn:
        conn.execute("UPDATE treasury.audit SET amount = '1.10' WHERE seq = 4")  # put back
        assert verify(team_databases, database)[0] == 0
        conn.execute("DELETE FROM treasury.audit WHERE seq = 3")
    code, _, err = verify(team_databases, database)
    assert code == 1 and "row 3 is missing" in err


async def test_a_chain_rewritten_and_rehashed_by_the_owner_is_caught_by_the_anchor(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    data = tmp_path / "desktop-data"
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        await ledger.audit.record("payout.send", "accepted", amount=Decimal("500.00"))
        first = await ledger.check_anchor(data)  # type: ignore[attr-defined]
        assert first.ok and first.kept is None
        kept = first.head
    # A superuser rewrites row 2 and re-hashes every row after it: the chain verifies again.
    with superuser(team_databases, database) as conn:
        conn.execute("ALTER TABLE treasury.audit DISABLE TRIGGER audit_append_only")
        conn.execute("UPDATE treasury.audit SET amount = '5.00' WHERE seq = 2")
        rows = conn.execute("SELECT * FROM treasury.audit ORDER BY seq").fetchall()
        prev = rows[0]["hash"]
        from treasury_app.ledger.team.chain import link

        for row in rows[1:]:
            digest = link(prev, row)
            conn.execute(
                "UPDATE treasury.audit SET prev_hash = %s, hash = %s WHERE seq = %s",
                (prev, digest, row["seq"]),
            )
            prev = digest
        conn.execute("UPDATE treasury.audit_head SET hash = %s", (prev,))
    assert verify(team_databases, database)[0] == 0  # the chain alone cannot tell
    code, _, err = verify(team_databases, database, "--anchor", str(kept))
    assert code == 1 and "REWRITTEN" in err
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        check = await ledger.check_anchor(data)  # type: ignore[attr-defined]
        assert not check.ok and check.kept == kept and "rewritten" in check.message()
        again = await ledger.check_anchor(data)  # type: ignore[attr-defined]
        assert not again.ok  # the old anchor stays until someone looks


async def test_concurrent_writers_keep_one_walkable_chain(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with opened_ledger("team", tmp_path, database=database) as ledger:

        async def writer(number: int) -> None:
            for row in range(15):
                await ledger.audit.record("test.write", "ok", reference=f"{number}-{row}")

        await asyncio.gather(*(writer(n) for n in range(8)))
    with superuser(team_databases, database) as conn:
        rows = conn.execute("SELECT * FROM treasury.audit ORDER BY seq").fetchall()
    report = verify_chain(rows)
    assert report.ok and report.rows == 122
    assert [row["seq"] for row in rows] == list(range(1, 123))


# -- the changes feed ------------------------------------------------------------------------


def test_changes_committed_out_of_order_are_all_read(team_databases: TeamDatabases) -> None:
    """T1 changes entry A and stays open; T2 changes entry B and commits without waiting for
    T1 (no head is locked to commit). A reader fenced on snapshots reads B, then A once T1
    commits: nothing is skipped, though A's ``seq`` is lower than B's."""
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as setup:
        ids = []
        for key in ("a", "b"):
            row = setup.execute(
                "INSERT INTO treasury.journal (kind, amount, idempotency_key, request_json,"
                " state, created_at, updated_at, profile) VALUES"
                " ('PIX_KEY', 1, %s, '{}', 'PREPARED', 'x', 'x', 'p') RETURNING id",
                (key,),
            ).fetchone()
            ids.append(row["id"])
        position = setup.execute("SELECT pg_current_snapshot()::text AS now").fetchone()["now"]
    t1 = psycopg.connect(url)
    t1.execute("UPDATE treasury.journal SET state = 'SENT' WHERE id = %s", (ids[0],))
    with psycopg.connect(url, autocommit=True) as t2:  # commits at once: nothing to wait for
        t2.execute("UPDATE treasury.journal SET state = 'SENT' WHERE id = %s", (ids[1],))
    with psycopg.connect(url, autocommit=True, row_factory=dict_row) as reader:

        def read_after(after: str) -> tuple[list[dict], str]:
            with reader.transaction():
                reader.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                rows = reader.execute(
                    CHANGES_SQL, {"after": after, "from_seq": 0, "limit": 100}
                ).fetchall()
                now = reader.execute("SELECT pg_current_snapshot()::text AS now").fetchone()
            return rows, now["now"]

        first, position = read_after(position)
        t1.commit()
        second, _ = read_after(position)
    t1.close()
    assert [row["entry_id"] for row in first] == [ids[1]]  # B, committed first
    assert [row["entry_id"] for row in second] == [ids[0]]  # then A, not skipped
    assert second[0]["seq"] < first[0]["seq"]  # numbered before B, committed after


async def test_the_feed_wakes_at_once_and_catches_up_after_missing_notifications(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    """The feed reads the changes table only when it connects and when a NOTIFY wakes it (its
    probe is a bare ``SELECT 1``): a change seen while it stays connected came by the
    notification, not by a later poll."""
    database = team_databases.new_database()
    settings = team_databases.settings(database, "tester")
    seen: list[int] = []
    states: list[bool] = []
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        feed = ChangeFeed(
            settings.conninfo(),
            on_changes=seen.extend,
            on_state=lambda state: states.append(state.online),
        )
        feed.start()
        await await_until(lambda: feed.state.online, "the feed online")
        entry = await ledger.journal.create(new_entry())
        await await_until(lambda: entry.id in seen, "the new entry read by the feed")
        assert states == [True]  # woken by the NOTIFY: no reconnection read it
        last = feed.position
        await feed.stop()
        # Changes while this desktop is away: no one is listening, the NOTIFYs are lost.
        await ledger.journal.update(entry.id, EntryState.SENT)
        other = await ledger.journal.create(new_entry("20.00"))
        seen.clear()
        feed = ChangeFeed(settings.conninfo(), on_changes=seen.extend, position=last)
        feed.start()
        await await_until(lambda: feed.state.online, "the feed online again")
        await feed.stop()
    assert seen == [entry.id, other.id]


# -- claims --------------------------------------------------------------------------------------


async def test_one_desktop_at_a_time_claims_an_entry_and_a_dead_one_lets_go(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with (
        opened_ledger("team", tmp_path / "a", database=database) as one,
        opened_ledger("team", tmp_path / "b", database=database) as two,
    ):
        entry = await one.journal.create(new_entry())
        async with one.journal.claim(entry.id) as mine:
            assert mine
            async with two.journal.claim(entry.id) as theirs:
                assert not theirs
            # the claimer's own journal writes go through meanwhile
            await one.journal.update(entry.id, EntryState.SENT, note="sending")
        async with two.journal.claim(entry.id) as theirs:
            assert theirs
    # A desktop that dies while holding a claim: its connection ends, and so does the claim.
    url = team_databases.server.url(database, user="tester")
    holder = psycopg.connect(url)
    holder.execute("SELECT treasury.claim(%s)", (entry.id,))
    async with opened_ledger("team", tmp_path / "c", database=database) as three:
        async with three.journal.claim(entry.id) as mine:
            assert not mine
        with superuser(team_databases, database) as conn:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid = %s",
                (holder.info.backend_pid,),
            )

        async def claimed() -> bool:
            async with three.journal.claim(entry.id) as mine:
                return mine

        # pg_terminate_backend returns before the backend is gone
        await await_until(claimed, "the dead desktop's claim released")
    holder.close()


# -- schema versions and logins ------------------------------------------------------------------


async def test_a_newer_or_older_schema_or_none_is_refused_with_what_to_do(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    newer = team_databases.new_database()
    with superuser(team_databases, newer) as conn:
        conn.execute("UPDATE treasury.schema_version SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(LedgerVersionError, match="Update the app") as refused:
        async with opened_ledger("team", tmp_path, database=newer):
            pass
    assert refused.value.reason.code == "team.newer_schema"  # what a person reads, in words
    assert dict(refused.value.reason.params) == {
        "schema": SCHEMA_VERSION + 1,
        "supported": SCHEMA_VERSION,
    }
    with superuser(team_databases, newer) as conn:
        conn.execute("UPDATE treasury.schema_version SET version = 0")
    with pytest.raises(TeamSchemaError, match="treasury-admin migrate") as older:
        async with opened_ledger("team", tmp_path, database=newer):
            pass
    assert older.value.reason.code == "team.older_schema"
    empty = "empty_" + uuid.uuid4().hex[:8]
    team_databases.server.create_database(empty)
    with pytest.raises(TeamSchemaError, match="treasury-admin init") as none:
        async with opened_ledger("team", tmp_path, database=empty):
            pass
    assert none.value.reason.code == "team.not_prepared"


async def test_logins_refused_say_why(team_databases: TeamDatabases, tmp_path: Path) -> None:
    database = team_databases.new_database()
    base = team_databases.settings(database, "nobody_here")
    with pytest.raises(TeamLoginError, match="no login 'nobody_here'") as unknown:
        await open_team_ledger(base, profile="p", password=None, receipts_dir=tmp_path)
    assert unknown.value.reason == Reason("team.login_unknown", {"user": "nobody_here"})
    with superuser(team_databases, "postgres") as conn:
        conn.execute("DROP ROLE IF EXISTS outsider")
        conn.execute("CREATE ROLE outsider LOGIN")
        conn.execute(f'GRANT CONNECT ON DATABASE "{database}" TO outsider')
    with pytest.raises(TeamLoginError, match="not a member of a treasury role") as outsider:
        await open_team_ledger(
            base.with_user("outsider"), profile="p", password=None, receipts_dir=tmp_path
        )
    assert outsider.value.reason == Reason("team.login_no_role", {"user": "outsider"})
    team_databases.person("pat_password")
    with superuser(team_databases, "postgres") as conn:
        conn.execute("ALTER ROLE pat_password PASSWORD 'right horse battery'")
        conn.execute("GRANT treasury_password_login TO pat_password")
    settings = base.with_user("pat_password")
    with pytest.raises(TeamLoginError, match="refused the password") as wrong:
        await open_team_ledger(settings, profile="p", password="wrong", receipts_dir=tmp_path)
    assert wrong.value.reason.code == "team.login_password"
    ledger = await open_team_ledger(
        settings, profile="p", password="right horse battery", receipts_dir=tmp_path
    )
    try:
        assert ledger.identity.user == "pat_password"
        assert "right horse" not in ledger.describe()
    finally:
        await ledger.close()


async def test_verify_full_tls_with_a_client_certificate(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    server = team_databases.server
    if not server.ssl:
        pytest.skip("this PostgreSQL build has no SSL (the embedded wheel): Debian's has")
    database = team_databases.new_database()
    team_databases.person("tls_tina")
    with superuser(team_databases, "postgres") as conn:
        conn.execute("GRANT treasury_cert_login TO tls_tina")
    cert, key = server.client_cert("tls_tina")
    from dataclasses import replace

    settings = replace(
        team_databases.settings(database, "tls_tina"),
        sslmode="verify-full",
        ca_file=server.ca_cert,
        cert_file=cert,
        key_file=key,
        host="localhost",
    )
    ledger = await open_team_ledger(settings, profile="p", password=None, receipts_dir=tmp_path)
    try:
        entry = await ledger.journal.create(new_entry())
        assert entry.created_by == "tls_tina"
        row = await ledger.db.row("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
        assert row is not None and row["ssl"] is True
    finally:
        await ledger.close()
    stranger = tmp_path / "other-ca.pem"
    stranger.write_bytes(cert.read_bytes())  # a certificate is not the CA that signed the server
    with pytest.raises(TeamLoginError, match="secure connection"):
        await open_team_ledger(
            replace(settings, ca_file=stranger), profile="p", password=None, receipts_dir=tmp_path
        )
    with pytest.raises((TeamLoginError, TeamDatabaseOffline)):
        await open_team_ledger(
            replace(settings, cert_file=None, key_file=None),
            profile="p",
            password=None,
            receipts_dir=tmp_path,
        )


# -- receipts --------------------------------------------------------------------------------------


async def test_a_receipt_saved_on_one_desktop_opens_on_another(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    pdf = b"%PDF-1.4 receipt of payment 1\n%%EOF\n"
    async with (
        opened_ledger("team", tmp_path / "a", database=database) as one,
        opened_ledger("team", tmp_path / "b", database=database) as two,
    ):
        paid = await settled(one, "E123")
        saved = await one.receipts.save(pdf, kind="PIX", bank_id="E123", entry_id=paid)
        found = await two.receipts.find("PIX", "E123")
        assert found is not None and found.sha256 == saved.sha256
        assert await two.receipts.read(found) == pdf
    assert not list((tmp_path / "b").rglob("*.pdf"))  # nothing on the other desktop's disk


# -- offline --------------------------------------------------------------------------------------


async def test_the_server_stopped_mid_session_writes_nothing_and_recovers(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database()
    server = team_databases.server
    states: list[bool] = []
    seen: list[int] = []
    async with opened_ledger("team", tmp_path, database=database) as ledger:
        entry = await ledger.journal.create(new_entry())
        feed = ChangeFeed(
            team_databases.settings(database, "tester").conninfo(),
            on_changes=seen.extend,
            on_state=lambda state: states.append(state.online),
            probe_every=0.5,
        )
        feed.start()
        await await_until(lambda: feed.state.online, "the feed online")
        server.stop()
        try:
            stopped = "Nothing is sent while the journal"
            with pytest.raises(TeamDatabaseOffline, match=stopped) as off:
                await ledger.journal.update(entry.id, EntryState.SENT)
            # In words: the server's address and why (stopped: nothing listens, or the
            # connection it had was cut), never psycopg's English.
            assert off.value.reason.code in (
                "team.offline_refused",
                "team.offline_lost",
                "team.offline_starting",
                "team.offline_timeout",
            ), off.value.detail
            assert off.value.reason.params["host"] == team_databases.server.host
            with pytest.raises(TeamDatabaseOffline):
                await ledger.journal.create(new_entry("2.00"))
            await await_until(lambda: not feed.state.online, "the feed offline")
        finally:
            server.start()

        async def updated() -> bool:
            await ledger.journal.update(entry.id, EntryState.SENT, note="after restart")
            return True

        # the pool reconnects on its own
        await await_until(
            updated, "a journal write after the restart", retry=(TeamDatabaseOffline,)
        )
        await await_until(
            lambda: feed.state.online and entry.id in seen, "the feed back with the change"
        )
        await feed.stop()
        assert states[:2] == [True, False] and states[-1] is True
        assert entry.id in seen  # the change made after the restart reached the feed
        assert [h.note for h in await ledger.journal.history(entry.id)] == [
            "journaled",
            "after restart",
        ]
        assert await ledger.journal.counts() == {"SENT": 1}


# -- the loop --------------------------------------------------------------------------------------


def test_the_app_runs_a_selector_loop_psycopg_accepts(qapp: object) -> None:
    import qasync

    from treasury_app.event_loop import loop_factory

    loop = loop_factory(qapp)()
    try:
        assert isinstance(loop, qasync.QSelectorEventLoop)
        assert isinstance(loop, asyncio.SelectorEventLoop)
    finally:
        loop.close()


def test_a_proactor_loop_is_refused_with_a_clear_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from treasury_app.event_loop import check_loop

    class FakeProactor(asyncio.SelectorEventLoop):
        pass

    monkeypatch.setattr(asyncio, "ProactorEventLoop", FakeProactor, raising=False)
    loop = FakeProactor()
    try:
        with pytest.raises(RuntimeError, match="selector event loop; this one is FakeProactor"):
            loop.run_until_complete(_check(check_loop))
    finally:
        loop.close()


async def _check(check: object) -> None:
    check()  # type: ignore[operator]


def test_migrations_are_idempotent_and_audited(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database()
    with superuser(team_databases, database) as conn:
        assert team_migrations.init(conn) == SCHEMA_VERSION
        assert team_migrations.migrate(conn) == SCHEMA_VERSION
        actions = [
            r["action"] for r in conn.execute("SELECT action FROM treasury.audit").fetchall()
        ]
    assert actions == ["admin.migrate", "admin.policy"]  # the template's migration and policy


async def test_a_hand_written_row_cannot_skip_the_journals_rules(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    """With psql and their own login, a maker cannot journal an intent as already sent, move
    someone else's intent, or replace a receipt."""
    database = team_databases.new_database()
    team_databases.person("maker_max")
    async with opened_ledger("team", tmp_path / "b", user="maker_nia", database=database) as theirs:
        paid = await settled(theirs, "E1")
        await theirs.receipts.save(
            b"%PDF-1.4 the bank's receipt\n", kind="PIX", bank_id="E1", entry_id=paid
        )
    with as_person(team_databases, database, "maker_max") as conn:
        for statement in (
            "INSERT INTO treasury.journal (kind, amount, idempotency_key, request_json, state,"
            " created_at, updated_at, profile) VALUES ('PIX_KEY', 10, 'forged', '{}',"
            " 'UNKNOWN', '2099-01-01T00:00:00.000Z', 'x', 'p')",
            "UPDATE treasury.journal SET state = 'ACCEPTED'",
            "INSERT INTO treasury.journal_history (entry_id, at, state) VALUES (1, 'x', 'SENT')",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement)  # the journal is written through its functions only
        conn.execute(
            "SELECT treasury.prepare('PIX_KEY', '', '', 'k', 10, '', 'INSTANT', 'forged', '{}',"
            " 'p', NULL)"
        )
        forged = b"%PDF-1.4 a forged receipt\n"
        import hashlib

        digest = hashlib.sha256(forged).hexdigest()
        for statement, args in (  # receipts are kept through treasury.store_receipt only
            (
                "INSERT INTO treasury.receipt_files VALUES (%s, %s, %s)",
                (digest, forged, len(forged)),
            ),
            ("UPDATE treasury.receipts SET sha256 = %s", (digest,)),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege), conn.transaction():
                conn.execute(statement, args)
        kept = conn.execute(
            "SELECT sha256 FROM treasury.store_receipt(%s, 'PIX', 'E1', %s, '', NULL)",
            (paid, forged),
        ).fetchone()
        assert kept is not None and kept[0] != digest  # the first receipt stays
    with superuser(team_databases, database) as conn:
        row = conn.execute(
            "SELECT state, created_by FROM treasury.journal WHERE idempotency_key = 'forged'"
        ).fetchone()
        stamped = conn.execute(
            "SELECT abs(extract(epoch FROM clock_timestamp() - created_at::timestamptz)) AS s"
            " FROM treasury.journal WHERE idempotency_key = 'forged'"
        ).fetchone()
        assert stamped is not None and stamped["s"] < 60  # the server's clock, not 2099
        receipt = conn.execute("SELECT saved_by FROM treasury.receipts").fetchone()
    assert row == {"state": "PREPARED", "created_by": "maker_max"}  # only an intent, and his
    assert receipt == {"saved_by": "maker_nia"}
    async with opened_ledger("team", tmp_path / "b", user="maker_nia", database=database) as nia:
        (entry,) = [e for e in await nia.journal.recent() if e.idempotency_key == "forged"]
        with pytest.raises(LedgerRefused, match="only they send it"):
            await nia.journal.update(entry.id, EntryState.SENT)
