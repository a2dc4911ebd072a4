"""People come and go, and no one's session stalls another's (issue 32): ``treasury-admin``
disables, enables, removes a login and resets its password (each audited); ``add-user`` and
``migrate`` give logins a connection limit and session defaults; ``status`` lists receivers
and the connections; ``policy set`` refuses what the approvers cannot satisfy and is no new
version when nothing changes; ``policy limit`` is for approvers only.

Each command runs as the administrator would run it (``main`` with arguments, stdin for a
password) against the suite's PostgreSQL, and a person's side is checked with raw psycopg and
their own login, as ``psql`` would. Logins are cluster-wide: each test makes its own (unique
names) and a test that runs ``migrate`` puts every other login back as it was.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import uuid
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from tests.ledger_backends import TeamDatabases
from tests.pg_server import PASSWORD_LOGIN_ROLE
from treasury_app.ledger.team.admin import (
    PERSON_CONNECTIONS,
    RECEIVER_CONNECTIONS,
    VIEWER_CONNECTIONS,
    main,
)
from treasury_app.ledger.team.codes_schema import read_coded
from treasury_app.ledger.team.migrations import SESSION_DEFAULTS
from treasury_app.ledger.team.schema import APPROVER, MAKER, OWNER
from treasury_app.ledger.team.settings import TeamDatabase

pytestmark = pytest.mark.usefixtures("team_databases")


def admin(*args: str, stdin: str = "") -> tuple[int, str, str]:
    """``treasury-admin ARGS`` in this process: exit code, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    saved_stdin, saved_env = sys.stdin, os.environ.pop("TREASURY_DB", None)
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(list(args))
    finally:
        sys.stdin = saved_stdin
        if saved_env is not None:
            os.environ["TREASURY_DB"] = saved_env
    return code, out.getvalue(), err.getvalue()


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:6]}"


def superuser(team: TeamDatabases, database: str) -> psycopg.Connection[dict[str, Any]]:
    return psycopg.connect(team.server.url(database), autocommit=True, row_factory=dict_row)


def rows(team: TeamDatabases, database: str, query: str, *params: Any) -> list[dict[str, Any]]:
    with superuser(team, database) as conn:
        return conn.execute(query, params).fetchall()


def audit(team: TeamDatabases, database: str, action: str) -> list[dict[str, Any]]:
    return rows(
        team, database, "SELECT * FROM treasury.audit WHERE action = %s ORDER BY seq", action
    )


def role(team: TeamDatabases, name: str) -> dict[str, Any] | None:
    found = rows(
        team,
        "postgres",
        "SELECT rolcanlogin, rolconnlimit, coalesce(rolconfig, '{}') AS config FROM pg_roles"
        " WHERE rolname = %s",
        name,
    )
    return found[0] if found else None


def with_password(team: TeamDatabases, name: str) -> None:
    """Make ``name`` log in with its password (the test server's scram-sha-256 group)."""
    with superuser(team, "postgres") as conn:
        conn.execute(
            sql.SQL("GRANT {} TO {}").format(
                sql.Identifier(PASSWORD_LOGIN_ROLE), sql.Identifier(name)
            )
        )


def log_in(
    team: TeamDatabases, database: str, user: str, password: str | None = None
) -> psycopg.Connection[Any]:
    return psycopg.connect(team.server.url(database, user=user, password=password), autocommit=True)


def refused(team: TeamDatabases, database: str, user: str, password: str | None = None) -> str:
    """The server's reason for refusing ``user``'s login (fails if it lets them in)."""
    with pytest.raises(psycopg.OperationalError) as raised:
        log_in(team, database, user, password).close()
    return str(raised.value)


def add(url: str, name: str, *roles: str, extra: tuple[str, ...] = (), password: str = "") -> None:
    args = ["--db", url, "add-user", name]
    for group in roles:
        args += ["--role", group]
    if password:
        args.append("--password-stdin")
    code, _, err = admin(*args, *extra, stdin=password + "\n" if password else "")
    assert code == 0, err


# -- connections and session defaults -----------------------------------------------------------


def test_add_user_gives_a_connection_limit_and_session_defaults(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    viewer, maker, receiver = unique("cv_view"), unique("cv_make"), unique("cv_recv")
    add(url, viewer, "treasury_viewer")
    add(url, maker, MAKER, APPROVER)
    add(url, receiver, "treasury_receiver")
    defaults = sorted(f"{name}={value}" for name, value in SESSION_DEFAULTS)
    for name, limit in (
        (viewer, VIEWER_CONNECTIONS),
        (maker, PERSON_CONNECTIONS),
        (receiver, RECEIVER_CONNECTIONS),
    ):
        found = role(team_databases, name)
        assert found is not None
        assert found["rolconnlimit"] == limit and sorted(found["config"]) == defaults, name
    assert (VIEWER_CONNECTIONS, PERSON_CONNECTIONS, RECEIVER_CONNECTIONS) == (12, 29, 42)
    (row,) = [
        r for r in audit(team_databases, database, "admin.add_user") if r["reference"] == viewer
    ]
    assert json.loads(row["details"])["connection_limit"] == VIEWER_CONNECTIONS

    # psql (no options) gets the defaults; the desktop's own settings override them.
    with log_in(team_databases, database, viewer) as conn:
        shown = {name: conn.execute(f"SHOW {name}").fetchone()[0] for name, _ in SESSION_DEFAULTS}
    assert shown == {
        "statement_timeout": "1min",
        "lock_timeout": "10s",
        "idle_in_transaction_session_timeout": "1min",
    }
    desktop = team_databases.settings(database, viewer)
    assert isinstance(desktop, TeamDatabase)
    with psycopg.connect(desktop.conninfo()) as conn:
        assert conn.execute("SHOW idle_in_transaction_session_timeout").fetchone() == ("0",)
        assert conn.execute("SHOW statement_timeout").fetchone() == ("1min",)

    # Given again, with a limit of its own: the limit changes, the roles add up.
    add(url, viewer, MAKER, extra=("--connection-limit", "40"))
    found = role(team_databases, viewer)
    assert found is not None and found["rolconnlimit"] == 40
    add(url, viewer, APPROVER)  # no limit given: the larger of its own and the default stays
    found = role(team_databases, viewer)
    assert found is not None and found["rolconnlimit"] == 40
    for bad in ("0", "-1", "100001"):
        code, _, err = admin(
            "--db", url, "add-user", unique("cv_bad"), "--role", MAKER, "--connection-limit", bad
        )
        assert code == 2 and "connection limit is a number of connections" in err, bad


def test_a_login_past_its_connection_limit_is_refused_and_an_approver_still_logs_in(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    viewer, approver = unique("cl_view"), unique("cl_appr")
    add(url, viewer, "treasury_viewer", extra=("--connection-limit", "3"))
    add(url, approver, APPROVER)
    with contextlib.ExitStack() as held:
        for _ in range(3):
            held.enter_context(log_in(team_databases, database, viewer))
        # The viewer tries to take every free connection: the fourth is refused...
        assert "too many connections for role" in refused(team_databases, database, viewer)
        # ...and the approver still logs in, and works.
        with log_in(team_databases, database, approver) as conn:
            assert conn.execute("SELECT session_user").fetchone() == (approver,)
    code, out, err = admin("--db", url, "status")
    assert code == 0, err
    assert f"  {viewer}: treasury_viewer; at most 3 connections" in out
    assert "Connections: the enabled logins may hold " in out
    assert "max_connections 200 - superuser_reserved_connections 3" in out


@pytest.fixture
def logins_put_back(team_databases: TeamDatabases) -> Iterator[None]:
    """Every role's connection limit and session defaults as they were (``migrate`` gives
    every team login of the cluster theirs)."""

    def snapshot() -> dict[str, tuple[int, list[str]]]:
        return {
            r["rolname"]: (r["rolconnlimit"], sorted(r["config"]))
            for r in rows(
                team_databases,
                "postgres",
                "SELECT rolname, rolconnlimit, coalesce(rolconfig, '{}') AS config FROM pg_roles",
            )
        }

    before = snapshot()
    yield
    after = snapshot()
    with superuser(team_databases, "postgres") as conn:
        for name, (limit, config) in before.items():
            if name not in after or after[name] == (limit, config):
                continue
            who = sql.Identifier(name)
            conn.execute(sql.SQL("ALTER ROLE {} CONNECTION LIMIT {}").format(who, limit))
            conn.execute(sql.SQL("ALTER ROLE {} RESET ALL").format(who))
            for item in config:
                key, value = item.split("=", 1)
                conn.execute(
                    sql.SQL("ALTER ROLE {} SET {} = {}").format(
                        who, sql.Identifier(key), sql.Literal(value)
                    )
                )


@pytest.mark.usefixtures("logins_put_back")
def test_migrate_gives_existing_logins_a_limit_and_the_session_defaults(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    old_maker = team_databases.person(unique("mg_make"), MAKER)  # made before this version
    old_viewer = team_databases.person(unique("mg_view"), "treasury_viewer")
    tuned = team_databases.person(unique("mg_tuned"), APPROVER)
    with superuser(team_databases, "postgres") as conn:
        conn.execute(sql.SQL("ALTER ROLE {} CONNECTION LIMIT 5").format(sql.Identifier(tuned)))
        conn.execute(sql.SQL("ALTER ROLE {} SET lock_timeout = '3s'").format(sql.Identifier(tuned)))
    code, out, err = admin("--db", url, "status")
    assert f"{old_maker}: treasury_maker; NO connection limit" in out
    assert "WARNING: " in out and "may open every free connection" in out

    code, out, err = admin("--db", url, "migrate")
    assert code == 0, err
    assert f"{old_maker}: at most {PERSON_CONNECTIONS} connections; statement_timeout=60s" in out
    maker_role, viewer_role, tuned_role = (
        role(team_databases, name) for name in (old_maker, old_viewer, tuned)
    )
    assert maker_role is not None and viewer_role is not None and tuned_role is not None
    assert maker_role["rolconnlimit"] == PERSON_CONNECTIONS
    assert viewer_role["rolconnlimit"] == VIEWER_CONNECTIONS
    assert tuned_role["rolconnlimit"] == 5  # set by hand: kept
    assert "lock_timeout=3s" in tuned_role["config"]
    assert "statement_timeout=60s" in tuned_role["config"]  # what it lacked
    (row,) = audit(team_databases, database, "admin.session_limits")
    given = json.loads(row["details"])
    assert given[old_maker]["connection_limit"] == PERSON_CONNECTIONS
    assert given[tuned] == {
        "statement_timeout": "60s",
        "idle_in_transaction_session_timeout": "1min",
    }
    code, out, err = admin("--db", url, "migrate")  # nothing missing: nothing done
    assert code == 0 and old_maker not in out
    assert len(audit(team_databases, database, "admin.session_limits")) == 1
    code, out, _ = admin("--db", url, "status")
    assert "may open every free connection" not in out
    assert f"  {tuned}: treasury_approver; at most 5 connections; lock_timeout=3s (not 10s)" in out


# -- disable, enable, reset a password ----------------------------------------------------------


def test_a_disabled_person_cannot_log_in_and_an_enabled_one_can(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    name = unique("dis_ana")
    add(url, name, MAKER, password="first horse")
    with_password(team_databases, name)
    session = log_in(team_databases, database, name, "first horse")

    code, out, err = admin("--db", url, "disable-user", name)
    assert code == 0, err
    assert f"{name}: disabled (no new logins); 1 open session(s) ended." in out
    with pytest.raises(psycopg.OperationalError):
        session.execute("SELECT 1")  # the open session was ended
    session.close()
    assert "not permitted to log in" in refused(team_databases, database, name, "first horse")
    code, out, _ = admin("--db", url, "disable-user", name)
    assert code == 0 and "disabled already" in out
    code, out, _ = admin("--db", url, "status")
    assert f"{name} (disabled)" in out and f"  {name}: treasury_maker; disabled" in out

    code, out, err = admin("--db", url, "enable-user", name)
    assert code == 0 and f"{name}: enabled" in out, err
    with log_in(team_databases, database, name, "first horse") as conn:
        assert conn.execute("SELECT session_user").fetchone() == (name,)
    assert admin("--db", url, "enable-user", name)[1].endswith("enabled already (may log in).\n")

    (disabled,) = audit(team_databases, database, "admin.disable_user")
    (enabled,) = audit(team_databases, database, "admin.enable_user")
    assert disabled["reference"] == enabled["reference"] == name
    assert disabled["actor"] == team_databases.server.superuser
    assert json.loads(disabled["details"]) == {"groups": [MAKER], "open_sessions": 1}

    plain = unique("dis_plain")  # a role of the cluster that is no one of the team
    with superuser(team_databases, "postgres") as conn:
        conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(plain)))
    for who, message in (
        ("nobody_" + uuid.uuid4().hex[:6], "There is no login"),
        (team_databases.server.superuser, "is an administrator's role"),
        (plain, "is not one of the team's logins"),
        (MAKER, "cannot be a person's login name"),
        (OWNER, "cannot be a person's login name"),
    ):
        for command in ("disable-user", "enable-user"):
            code, _, err = admin("--db", url, command, who)
            assert code == 2 and message in err and err.count("\n") == 1, (command, who, err)
    assert role(team_databases, plain) == {"rolcanlogin": True, "rolconnlimit": -1, "config": []}


def test_a_reset_password_works_and_the_old_one_fails(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    name = unique("pw_bia")
    add(url, name, APPROVER, password="old horse")
    with_password(team_databases, name)
    before = log_in(team_databases, database, name, "old horse")

    code, out, err = admin(
        "--db", url, "reset-password", name, "--password-stdin", stdin="new cart\n"
    )
    assert code == 0, err
    assert "password reset. 1 session(s) opened with the old one go on" in out
    assert before.execute("SELECT 1").fetchone() == (1,)
    with log_in(team_databases, database, name, "new cart") as conn:
        assert conn.execute("SELECT session_user").fetchone() == (name,)
    assert "password authentication failed" in refused(team_databases, database, name, "old horse")

    code, out, err = admin(
        "--db", url, "reset-password", name, "--password-stdin", "--end-sessions",
        stdin="third lamp\n",
    )  # fmt: skip
    assert code == 0 and "1 session(s) opened before ended" in out, err
    with pytest.raises(psycopg.OperationalError):
        before.execute("SELECT 1")
    before.close()
    assert "password authentication failed" in refused(team_databases, database, name, "new cart")

    resets = audit(team_databases, database, "admin.reset_password")
    assert [r["reference"] for r in resets] == [name, name]
    assert all("cart" not in r["details"] and "lamp" not in r["details"] for r in resets)
    (row,) = rows(
        team_databases, "postgres", "SELECT rolpassword FROM pg_authid WHERE rolname = %s", name
    )
    assert row["rolpassword"].startswith("SCRAM-SHA-256$")

    code, _, err = admin("--db", url, "reset-password", name, "--password-stdin", stdin="\n")
    assert code == 2 and "empty password" in err
    code, _, err = admin("--db", url, "reset-password", name)  # stdin is no terminal
    assert code == 2 and "pass --password-stdin" in err
    code, _, err = admin("--db", url, "reset-password", "nobody_here", "--password-stdin")
    assert code == 2 and "There is no login 'nobody_here'" in err
    with log_in(team_databases, database, name, "third lamp"):
        pass
    assert len(audit(team_databases, database, "admin.reset_password")) == 2


# -- remove ------------------------------------------------------------------------------------


def prepare(conn: psycopg.Connection[Any], amount: str, payee: str) -> dict[str, Any]:
    cursor = conn.cursor(row_factory=dict_row)
    row = cursor.execute(
        "SELECT * FROM treasury.prepare('PIX_KEY', 'Fornecedor', '', %s, %s, '', 'INSTANT',"
        " %s, '{}', 'p', NULL)",
        (payee, Decimal(amount), str(uuid.uuid4())),
    ).fetchone()
    assert row is not None
    return row


def test_remove_user_refuses_while_intents_wait_then_withdraws_them_and_keeps_the_rows(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database(policy={})  # one approval, +1 for a new payee
    url = team_databases.server.url(database)
    leaving, staying = unique("rm_make"), unique("rm_make2")
    approver, other = unique("rm_appr"), unique("rm_appr2")
    add(url, leaving, MAKER)
    add(url, staying, MAKER)
    add(url, approver, APPROVER)
    add(url, other, APPROVER)
    with log_in(team_databases, database, leaving) as conn:
        mine = prepare(conn, "10.00", f"{leaving}@example.com")
        conn.execute("INSERT INTO treasury.audit (at, profile, action, outcome) VALUES"
                     " ('', 'p', 'session.open', 'ok')")  # fmt: skip
    with log_in(team_databases, database, staying) as conn:
        theirs = prepare(conn, "20.00", f"{staying}@example.com")  # needs 2 (new payee)
    with log_in(team_databases, database, approver) as conn:
        conn.execute("SELECT treasury.approve(%s, %s)", (theirs["id"], theirs["content_hash"]))
    with superuser(team_databases, database) as conn:
        conn.execute(
            "INSERT INTO treasury.person_limits (login, payment_limit, daily_limit, set_at)"
            " VALUES (%s, 100, NULL, '')",
            (approver,),
        )

    code, _, err = admin("--db", url, "remove-user", leaving)
    assert code == 2 and err.count("\n") == 1
    assert f"1 intent(s) they prepared wait (#{mine['id']})" in err and "--withdraw-waiting" in err
    code, _, err = admin("--db", url, "remove-user", approver)
    assert code == 2 and f"their approval stands on 1 waiting intent(s) (#{theirs['id']})" in err
    for name in (leaving, approver):  # refused: nothing changed
        found = role(team_databases, name)
        assert found is not None and found["rolcanlogin"]
    assert audit(team_databases, database, "admin.remove_user") == []

    code, out, err = admin("--db", url, "remove-user", leaving, "--withdraw-waiting")
    assert code == 0, err
    assert f"Withdrawn (person removed): #{mine['id']}." in out
    assert role(team_databases, leaving) is None
    (entry,) = rows(
        team_databases, database, "SELECT * FROM treasury.journal WHERE id = %s", mine["id"]
    )
    assert entry["state"] == "REJECTED" and entry["final"] and entry["approval"] == "WITHDRAWN"
    assert entry["decision_reason"] == "person removed" and entry["created_by"] == leaving
    history = rows(
        team_databases,
        database,
        "SELECT note, actor, at FROM treasury.journal_history WHERE entry_id = %s ORDER BY id",
        mine["id"],
    )
    admin_login = team_databases.server.superuser
    removed_code = ("removed_withdrawn", {"login": leaving, "by": admin_login})
    assert history[0]["note"] == "journaled" and len(history) == 2
    assert read_coded(history[-1]["note"]) == removed_code  # a code, not English
    assert read_coded(entry["error"]) == removed_code
    assert history[-1]["actor"] == admin_login and history[-1]["at"]
    (withdrawn,) = audit(team_databases, database, "approval.withdraw")
    assert withdrawn["reference"] == mine["idempotency_key"] and withdrawn["at"]
    assert json.loads(withdrawn["details"])["reason"] == "person removed"
    (removed,) = audit(team_databases, database, "admin.remove_user")
    assert removed["reference"] == leaving
    assert json.loads(removed["details"])["withdrawn"] == [mine["id"]]
    assert [r["reference"] for r in audit(team_databases, database, "admin.disable_user")] == [
        leaving
    ]
    # Every row they wrote keeps their name.
    assert [r["actor"] for r in audit(team_databases, database, "session.open")] == [leaving]
    changes = rows(
        team_databases, database, "SELECT entry_id FROM treasury.changes WHERE entry_id = %s",
        mine["id"],
    )  # fmt: skip
    assert len(changes) >= 2  # the desktops hear of the withdrawal

    code, out, err = admin("--db", url, "remove-user", approver, "--withdraw-waiting")
    assert code == 0, err
    assert f"Their approval void on: #{theirs['id']}. Their approval limits removed." in out
    (entry,) = rows(
        team_databases, database, "SELECT * FROM treasury.journal WHERE id = %s", theirs["id"]
    )
    assert entry["state"] == "PREPARED" and entry["approval"] == "WAITING"
    assert entry["approvals_given"] == 0 and entry["approvals_expire_at"] is None
    (approval,) = rows(
        team_databases, database, "SELECT * FROM treasury.approvals WHERE entry_id = %s",
        theirs["id"],
    )  # fmt: skip
    assert approval["approver"] == approver and approval["void_reason"] == "person removed"
    (note,) = rows(
        team_databases, database,
        "SELECT note FROM treasury.journal_history WHERE entry_id = %s ORDER BY id DESC LIMIT 1",
        theirs["id"],
    )  # fmt: skip
    assert read_coded(note["note"]) == (
        "removed_void",
        {"approver": approver, "given": 0, "needed": entry["approvals_needed"]},
    )
    assert [r["reference"] for r in audit(team_databases, database, "approval.void")] == [
        theirs["idempotency_key"]
    ]
    assert rows(team_databases, database, "SELECT * FROM treasury.person_limits") == []

    code, out, err = admin("--db", url, "verify-audit")  # the chain holds with them all
    assert code == 0 and "Audit chain whole" in out, err

    # The name is not given to someone else.
    code, _, err = admin("--db", url, "add-user", leaving, "--role", MAKER)
    assert code == 2 and "was removed from this team" in err
    # Nobody to remove, or not one of the team.
    code, _, err = admin("--db", url, "remove-user", leaving)
    assert code == 2 and "There is no login" in err
    code, _, err = admin("--db", url, "remove-user", team_databases.server.superuser)
    assert code == 2 and "administrator's role" in err


def test_remove_user_without_waiting_intents_needs_no_flag(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    name = unique("rm_view")
    add(url, name, "treasury_viewer")
    session = log_in(team_databases, database, name)
    code, out, err = admin("--db", url, "remove-user", name)
    assert code == 0 and f"{name}: removed" in out, err
    with pytest.raises(psycopg.OperationalError):
        session.execute("SELECT 1")
    session.close()
    assert role(team_databases, name) is None
    assert "does not exist" in refused(team_databases, database, name)


# -- status, policy ----------------------------------------------------------------------------


def test_status_lists_receiver_logins_beside_people(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    receiver, person = unique("st_recv"), unique("st_make")
    add(url, receiver, "treasury_receiver")
    add(url, person, MAKER)
    assert admin("--db", url, "disable-user", person)[0] == 0
    code, out, err = admin("--db", url, "status")
    assert code == 0, err
    (line,) = [line for line in out.splitlines() if line.startswith("treasury_receiver: ")]
    assert receiver in line
    (line,) = [line for line in out.splitlines() if line.startswith("treasury_maker: ")]
    assert f"{person} (disabled)" in line
    assert f"  {receiver}: treasury_receiver; at most {RECEIVER_CONNECTIONS} connections" in out


def enabled_approvers(team: TeamDatabases) -> list[dict[str, Any]]:
    """The cluster's enabled approvers (as treasury.eligible_approvers counts them): ``login``,
    and whether they prepare intents too (``maker``), by login."""
    return rows(
        team,
        "postgres",
        "SELECT r.rolname::text AS login, pg_has_role(r.oid, %s, 'MEMBER') AS maker"
        " FROM pg_roles r WHERE r.rolcanlogin AND NOT r.rolsuper"
        " AND pg_has_role(r.oid, %s, 'MEMBER') AND NOT pg_has_role(r.oid, %s, 'MEMBER')"
        " ORDER BY 1",
        MAKER,
        APPROVER,
        OWNER,
    )


@contextlib.contextmanager
def only_approvers(team: TeamDatabases, *names: str) -> Iterator[None]:
    """Every other enabled approver of the cluster disabled (``NOLOGIN``) meanwhile, enabled
    again after. Logins are cluster-wide: the tests that ran before (any module, any order)
    leave approvers of their own, more than a policy can ask (9 + 9), so a test that counts
    the team's approvers makes the team what it counts. Each pytest process (each xdist
    worker) has a cluster of its own, and its tests run one at a time."""
    others = [row["login"] for row in enabled_approvers(team) if row["login"] not in names]
    with superuser(team, "postgres") as conn:
        for name in others:
            conn.execute(sql.SQL("ALTER ROLE {} NOLOGIN").format(sql.Identifier(name)))
    try:
        yield
    finally:
        with superuser(team, "postgres") as conn:
            for name in others:
                conn.execute(sql.SQL("ALTER ROLE {} LOGIN").format(sql.Identifier(name)))


def test_policy_set_refuses_what_the_approvers_cannot_satisfy(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database(policy={})
    url = team_databases.server.url(database)
    approvers = sorted(unique("pol_appr") for _ in range(3))
    both = unique("pol_both")
    for name in approvers:
        add(url, name, APPROVER)
    add(url, both, MAKER, APPROVER)
    with only_approvers(team_databases, *approvers, both):
        team = enabled_approvers(team_databases)
        assert [row["login"] for row in team] == sorted((*approvers, both))
        count, available = len(team), len(team) - 1  # an intent of `both` has 3 approvers
        needed, above = available + 1, available
        extra = needed - above
        versions = len(rows(team_databases, database, "SELECT * FROM treasury.policies"))
        wanted = ("--approvals", "1", "--threshold", "10000", "--approvals-above", str(above),
                  "--new-payee-extra", str(extra))  # fmt: skip
        code, _, err = admin("--db", url, "policy", "set", *wanted)
        assert code == 2 and err.count("\n") == 1, err
        assert err.startswith("treasury-admin: The policy was not changed: ")
        assert (
            f"{above} approval(s) above R$ 10.000,00 + {extra} for a payee never paid ="
            f" {needed} distinct approvers other than the intent's maker" in err
        )
        listed = ", ".join(sorted((*approvers, both)))
        assert f"the team has {count} enabled approver(s) ({listed})" in err
        assert f"and {both} prepare(s) intents too" in err
        assert f"{needed} needed, {available} available" in err and "--force" in err
        assert len(rows(team_databases, database, "SELECT * FROM treasury.policies")) == versions

        code, out, err = admin("--db", url, "policy", "set", *wanted, "--force")
        assert code == 0 and f"Policy version {versions + 1} in force" in out
        assert "Warning: set with --force" in err
        (forced,) = audit(team_databases, database, "admin.policy_forced")
        assert forced["reference"] == f"policy {versions + 1}"

        # The same policy again is no new version (and no audit row).
        policy_rows = len(audit(team_databases, database, "admin.policy"))
        code, out, err = admin("--db", url, "policy", "set", *wanted)
        assert code == 0 and f"Policy unchanged: version {versions + 1} stays in force." in out, err
        assert (
            len(rows(team_databases, database, "SELECT * FROM treasury.policies")) == versions + 1
        )
        assert len(audit(team_databases, database, "admin.policy")) == policy_rows

        # One the approvers can satisfy is set without --force.
        code, out, err = admin(
            "--db", url, "policy", "set", "--approvals-above", "1", "--new-payee-extra", "0"
        )
        assert code == 0 and err == "" and f"Policy version {versions + 2} in force" in out


def test_policy_limit_is_for_approvers_only(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database(policy={})
    url = team_databases.server.url(database)
    maker, viewer, approver = unique("lim_make"), unique("lim_view"), unique("lim_appr")
    add(url, maker, MAKER)
    add(url, viewer, "treasury_viewer")
    add(url, approver, APPROVER)
    for who in (maker, viewer, team_databases.server.superuser):
        code, _, err = admin("--db", url, "policy", "limit", who, "--per-payment", "100")
        assert code == 2 and "is not an approver" in err and err.count("\n") == 1, (who, err)
    assert rows(team_databases, database, "SELECT * FROM treasury.person_limits") == []
    code, out, err = admin("--db", url, "policy", "limit", approver, "--per-payment", "100")
    assert code == 0 and f"limits of {approver}: R$ 100,00 per payment" in out, err
