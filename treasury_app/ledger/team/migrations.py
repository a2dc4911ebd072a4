"""Creating and migrating the team database (the admin's side: ``treasury-admin``).

Run by an administrator's login (a superuser, or a role with ``CREATEROLE`` that is a member of
``treasury_owner``) with a plain synchronous connection. Objects are created as
``treasury_owner`` (``SET LOCAL ROLE``), so desktops' roles own nothing and hold only the
privileges of :data:`~treasury_app.ledger.team.schema.PRIVILEGES_SQL`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import Any

import psycopg
import psycopg.errors
from psycopg import sql
from psycopg.rows import dict_row, tuple_row

from treasury_app.ledger.db import LedgerVersionError
from treasury_app.ledger.errors import LedgerOpenError
from treasury_app.ledger.team.codes_schema import REMOVED_VOID, REMOVED_WITHDRAWN, coded
from treasury_app.ledger.team.receiver_schema import RECEIVER
from treasury_app.ledger.team.schema import (
    APPROVER,
    MAKER,
    MIGRATIONS,
    OWNER,
    PERSON_ROLES,
    PRIVILEGES_SQL,
    ROLES_SQL,
    SCHEMA_VERSION,
    VIEWER,
)
from treasury_app.ledger.team.trust_schema import STALE_AFTER_MAX_MINUTES

MIGRATION_LOCK = 0x7472_6561_7375_7279  # "treasury": one admin migrates at a time


class TeamSchemaError(LedgerOpenError):
    """The database is not a treasury team database, or not at this app's schema."""


def current_version(conn: psycopg.Connection[Any]) -> int | None:
    """The schema version, ``None`` when the database has no treasury schema at all."""
    cursor = conn.cursor(row_factory=tuple_row)
    row = cursor.execute("SELECT to_regclass('treasury.schema_version') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return None
    found = cursor.execute("SELECT version FROM treasury.schema_version").fetchone()
    return int(found[0]) if found else 0


def init(conn: psycopg.Connection[Any]) -> int:
    """Create the roles, the schema and every migration (idempotent); the version reached."""
    with conn.transaction():
        conn.execute(ROLES_SQL)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        if current_version(conn) is None:
            conn.execute(f"CREATE SCHEMA IF NOT EXISTS treasury AUTHORIZATION {OWNER}")
            conn.execute(f"SET LOCAL ROLE {OWNER}")
            conn.execute("CREATE TABLE treasury.schema_version (version integer NOT NULL)")
            conn.execute("INSERT INTO treasury.schema_version VALUES (0)")
            conn.execute("RESET ROLE")
    version = migrate(conn)
    harden_database(conn)
    return version


def migrate(conn: psycopg.Connection[Any], *, target: int = SCHEMA_VERSION) -> int:
    """Apply the missing migrations in one transaction; a newer schema is refused."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        version = current_version(conn)
        if version is None:
            raise TeamSchemaError(
                "This database has no treasury schema yet: run `treasury-admin init` first."
            )
        if version > SCHEMA_VERSION:
            raise LedgerVersionError(
                f"The team database has schema {version}; this version of the app knows up "
                f"to {SCHEMA_VERSION}. Update the app; nothing was changed."
            )
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        for number in range(version + 1, target + 1):
            conn.execute(MIGRATIONS[number - 1])
            conn.execute("UPDATE treasury.schema_version SET version = %s", (number,))
        conn.execute(PRIVILEGES_SQL)
        conn.execute("RESET ROLE")
        if target > version:
            _admin_audit(conn, "admin.migrate", "ok", details={"from": version, "to": target})
    return max(version, target)


def harden_database(conn: psycopg.Connection[Any]) -> None:
    """Database-level privileges (not copied by ``CREATE DATABASE ... TEMPLATE``): only the
    treasury roles connect; nobody creates objects in ``public`` or temporary tables."""
    name = conn.info.dbname
    with conn.transaction():
        conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        conn.execute(
            sql.SQL("REVOKE TEMPORARY, CONNECT ON DATABASE {} FROM PUBLIC").format(
                sql.Identifier(name)
            )
        )
        conn.execute(
            sql.SQL("GRANT CONNECT ON DATABASE {} TO {}, {}, {}, {}").format(
                sql.Identifier(name),
                sql.Identifier(MAKER),
                sql.Identifier(APPROVER),
                sql.Identifier(VIEWER),
                sql.Identifier(RECEIVER),
            )
        )
        conn.execute(
            f"ALTER DEFAULT PRIVILEGES FOR ROLE {OWNER} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC"
        )


TEAM_GROUPS = (*PERSON_ROLES, RECEIVER)
"""The group roles a team login is a member of: people's and the webhook receiver's."""

SESSION_DEFAULTS: tuple[tuple[str, str], ...] = (
    ("statement_timeout", "60s"),
    ("lock_timeout", "10s"),
    ("idle_in_transaction_session_timeout", "1min"),
)
"""Every team login's session defaults (``ALTER ROLE ... SET``): a statement, a wait for a lock
and a transaction left idle end by themselves, so that a session forgotten in ``psql`` does
not hold the others up. The first two are the desktop's own values
(:meth:`~treasury_app.ledger.team.settings.TeamDatabase.conninfo`); the desktop sends
``idle_in_transaction_session_timeout=0`` when it connects (a claim is a transaction open for as
long as its payment is sent), and what a client sends at connection overrides a role's
default: the minute applies to other clients (``psql``, the webhook receiver). They are
defaults: a session may still ``SET`` them otherwise; the connection limit it cannot change."""

CONNECTION_LIMIT_MAX = 10000

WAITING_SQL = (
    "state = 'PREPARED' AND NOT final AND coalesce(approval, 'WAITING') IN ('WAITING', 'APPROVED')"
)
"""A journal entry that waits (for approvals, or for its maker's desktop to send it): nothing
of it has reached the bank (an entry is journaled ``SENT`` before any byte is sent)."""

REMOVED_REASON = "person removed"


def _valid_login_name(name: str) -> None:
    if not name or len(name) > 63 or name.startswith("pg_") or name.startswith("treasury_"):
        raise ValueError(f"{name!r} cannot be a person's login name.")


def _check_connection_limit(limit: int) -> None:
    if not 1 <= limit <= CONNECTION_LIMIT_MAX:
        raise ValueError(
            f"A connection limit is a number of connections from 1 to {CONNECTION_LIMIT_MAX} "
            f"(got {limit}); to keep a person out, disable them instead."
        )


def login_of(conn: psycopg.Connection[Any], name: str) -> dict[str, Any] | None:
    """What the server says of the role ``name`` (``None``: no such role): ``can_login``,
    ``connection_limit`` (-1: none), ``administrator`` (superuser, creates roles or databases,
    or a member of the owner), ``groups`` (the team groups it is a direct member of),
    ``settings`` (its session defaults, ``name=value``)."""
    cursor = conn.cursor(row_factory=dict_row)
    return cursor.execute(
        "SELECT r.rolname::text AS name, r.rolcanlogin AS can_login,"
        " r.rolconnlimit AS connection_limit, r.rolsuper OR r.rolcreaterole OR r.rolcreatedb"
        " OR r.rolbypassrls OR r.rolreplication OR pg_has_role(r.oid, %s, 'MEMBER')"
        " AS administrator, ARRAY(SELECT g.rolname::text FROM pg_auth_members m"
        " JOIN pg_roles g ON g.oid = m.roleid WHERE m.member = r.oid"
        " AND g.rolname = ANY(%s) ORDER BY 1) AS groups,"
        " coalesce(r.rolconfig, '{}') AS settings FROM pg_roles r WHERE r.rolname = %s",
        (OWNER, list(TEAM_GROUPS), name),
    ).fetchone()


def team_logins(conn: psycopg.Connection[Any]) -> list[dict[str, Any]]:
    """Every team login (a direct member of a team group, not an administrator's role), as
    :func:`login_of` describes it, by name."""
    cursor = conn.cursor(row_factory=tuple_row)
    names = cursor.execute(
        "SELECT DISTINCT m.rolname::text FROM pg_auth_members a"
        " JOIN pg_roles g ON g.oid = a.roleid JOIN pg_roles m ON m.oid = a.member"
        " WHERE g.rolname = ANY(%s) ORDER BY 1",
        (list(TEAM_GROUPS),),
    ).fetchall()
    found = [login_of(conn, str(row[0])) for row in names]
    return [login for login in found if login is not None and not login["administrator"]]


def person_of(conn: psycopg.Connection[Any], name: str) -> dict[str, Any]:
    """:func:`login_of` a team login ``name``; ``ValueError`` (saying why) for any other."""
    _valid_login_name(name)
    login = login_of(conn, name)
    if login is None:
        raise ValueError(f"There is no login {name!r}.")
    if login["administrator"]:
        raise ValueError(
            f"{name!r} is an administrator's role (superuser, creates roles or databases, or "
            "owns the treasury schema): treasury-admin does not manage it."
        )
    if not login["groups"]:
        raise ValueError(
            f"{name!r} is not one of the team's logins (a member of {', '.join(TEAM_GROUPS)}):"
            " treasury-admin manages only those."
        )
    return login


def _set_password(conn: psycopg.Connection[Any], name: str, password: str) -> None:
    # Hashed here (SCRAM-SHA-256, as libpq's \password does): the password itself never
    # reaches the server's logs or statistics.
    verifier = conn.pgconn.encrypt_password(
        password.encode("utf-8"), name.encode("utf-8"), b"scram-sha-256"
    )
    conn.execute(
        sql.SQL("ALTER ROLE {} PASSWORD {}").format(
            sql.Identifier(name), sql.Literal(verifier.decode("ascii"))
        )
    )


def _set_session_limits(conn: psycopg.Connection[Any], name: str, connection_limit: int) -> None:
    conn.execute(
        sql.SQL("ALTER ROLE {} CONNECTION LIMIT {}").format(
            sql.Identifier(name), sql.Literal(connection_limit)
        )
    )
    for setting, value in SESSION_DEFAULTS:
        conn.execute(
            sql.SQL("ALTER ROLE {} SET {} = {}").format(
                sql.Identifier(name), sql.Identifier(setting), sql.Literal(value)
            )
        )


def _removed_at(conn: psycopg.Connection[Any], name: str) -> str | None:
    """When login ``name`` was removed from this team database (``None``: never)."""
    cursor = conn.cursor(row_factory=tuple_row)
    found = cursor.execute(
        "SELECT at FROM treasury.audit WHERE action = 'admin.remove_user' AND reference = %s"
        " ORDER BY seq DESC LIMIT 1",
        (name,),
    ).fetchone()
    return None if found is None else str(found[0])


def add_user(
    conn: psycopg.Connection[Any],
    name: str,
    roles: tuple[str, ...],
    *,
    password: str | None = None,
    connection_limit: int | None = None,
) -> None:
    """Create (or complete) the login role ``name`` as a member of ``roles`` (audited).

    ``connection_limit``: the most connections the login may hold at once
    (``ALTER ROLE ... CONNECTION LIMIT``), set with the :data:`SESSION_DEFAULTS`
    (``treasury-admin add-user`` always gives both; ``None`` leaves the role's as they are).
    The name of a person removed from this database is not given again: their rows keep it."""
    unknown = [role for role in roles if role not in TEAM_GROUPS]
    if unknown or not roles:
        raise ValueError(
            f"A person's role is one of {', '.join(PERSON_ROLES)}, or {RECEIVER} for the "
            f"webhook receiver's login (got {', '.join(roles) or 'none'})."
        )
    if RECEIVER in roles and len(roles) > 1:
        raise ValueError(f"The webhook receiver's login holds {RECEIVER} alone, no person's role.")
    _valid_login_name(name)
    if connection_limit is not None:
        _check_connection_limit(connection_limit)
    with conn.transaction():
        login = login_of(conn, name)
        if login is not None and login["administrator"]:
            raise ValueError(
                f"{name!r} is an administrator's role (superuser, creates roles or databases, "
                "or owns the treasury schema): it cannot be a person's login."
            )
        if login is None:
            removed = _removed_at(conn, name)
            if removed is not None:
                raise ValueError(
                    f"{name!r} was removed from this team on {removed}: their journal and audit"
                    " rows keep that name, so a new person takes a login name of their own."
                )
            statement = sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
                sql.Identifier(name)
            )
            conn.execute(statement)
        if password is not None:
            _set_password(conn, name, password)
        if connection_limit is not None:
            _set_session_limits(conn, name, connection_limit)
        for role in roles:
            conn.execute(
                sql.SQL("GRANT {} TO {}").format(sql.Identifier(role), sql.Identifier(name))
            )
        _admin_audit(
            conn,
            "admin.add_user",
            "ok",
            reference=name,
            details={
                "roles": list(roles),
                "password_set": password is not None,
                "connection_limit": connection_limit,
            },
        )


def give_session_limits(
    conn: psycopg.Connection[Any], limit_for: Callable[[Sequence[str]], int]
) -> dict[str, dict[str, Any]]:
    """Give every team login without a connection limit ``limit_for(its groups)``, and the
    :data:`SESSION_DEFAULTS` it has no value of (a value set before, by hand, stays); one audit
    row names what each got. Returns that (empty: nothing was missing)."""
    given: dict[str, dict[str, Any]] = {}
    with conn.transaction():
        for login in team_logins(conn):
            name = login["name"]
            got: dict[str, Any] = {}
            if login["connection_limit"] < 0:
                got["connection_limit"] = limit_for(login["groups"])
                conn.execute(
                    sql.SQL("ALTER ROLE {} CONNECTION LIMIT {}").format(
                        sql.Identifier(name), sql.Literal(got["connection_limit"])
                    )
                )
            present = {str(item).split("=", 1)[0] for item in login["settings"]}
            for setting, value in SESSION_DEFAULTS:
                if setting not in present:
                    got[setting] = value
                    conn.execute(
                        sql.SQL("ALTER ROLE {} SET {} = {}").format(
                            sql.Identifier(name), sql.Identifier(setting), sql.Literal(value)
                        )
                    )
            if got:
                given[name] = got
        if given:
            _admin_audit(conn, "admin.session_limits", "ok", details=given)
    return given


def open_sessions(conn: psycopg.Connection[Any], name: str) -> int:
    """The server's sessions of login ``name`` (other than this one)."""
    cursor = conn.cursor(row_factory=tuple_row)
    found = cursor.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE usename = %s AND pid <> pg_backend_pid()",
        (name,),
    ).fetchone()
    return int(found[0]) if found else 0


def end_sessions(conn: psycopg.Connection[Any], name: str) -> int:
    """End the sessions of login ``name`` (waiting up to 5 s each for it to go); how many.
    ``psycopg.errors.InsufficientPrivilege`` when this login may not (it needs to be a
    superuser or hold ``pg_signal_backend``)."""
    cursor = conn.cursor(row_factory=tuple_row)
    found = cursor.execute(
        "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000)) FROM pg_stat_activity"
        " WHERE usename = %s AND pid <> pg_backend_pid()",
        (name,),
    ).fetchone()
    return int(found[0]) if found else 0


def set_login_enabled(conn: psycopg.Connection[Any], name: str, enabled: bool) -> bool:
    """Let team login ``name`` log in again, or no more (``ALTER ROLE ... [NO]LOGIN``;
    audited, with its sessions then open). Whether that changed anything. Sessions already
    open go on: :func:`end_sessions` ends them."""
    with conn.transaction():
        login = person_of(conn, name)
        if login["can_login"] == enabled:
            return False
        conn.execute(
            sql.SQL("ALTER ROLE {} " + ("LOGIN" if enabled else "NOLOGIN")).format(
                sql.Identifier(name)
            )
        )
        _admin_audit(
            conn,
            "admin.enable_user" if enabled else "admin.disable_user",
            "ok",
            reference=name,
            details={"groups": list(login["groups"]), "open_sessions": open_sessions(conn, name)},
        )
    return True


def reset_password(conn: psycopg.Connection[Any], name: str, password: str) -> None:
    """Give team login ``name`` a new password (hashed here; audited, without it)."""
    if not password:
        raise ValueError("A password cannot be empty.")
    with conn.transaction():
        person_of(conn, name)
        _set_password(conn, name, password)
        _admin_audit(
            conn,
            "admin.reset_password",
            "ok",
            reference=name,
            details={"open_sessions": open_sessions(conn, name)},
        )


def waiting_of(conn: psycopg.Connection[Any], name: str) -> tuple[list[int], list[int]]:
    """What removing ``name`` would leave hanging: the entries they prepared that wait, and
    the others' waiting entries their approval stands on (ids)."""
    cursor = conn.cursor(row_factory=tuple_row)
    intents = cursor.execute(
        f"SELECT id FROM treasury.journal WHERE created_by = %s AND {WAITING_SQL} ORDER BY id",
        (name,),
    ).fetchall()
    approved = cursor.execute(
        f"SELECT j.id FROM treasury.journal j WHERE j.created_by <> %s AND {WAITING_SQL}"
        " AND EXISTS (SELECT 1 FROM treasury.approvals a WHERE a.entry_id = j.id"
        " AND a.approver = %s AND a.void_reason IS NULL) ORDER BY j.id",
        (name, name),
    ).fetchall()
    return [int(row[0]) for row in intents], [int(row[0]) for row in approved]


class StillWaiting(ValueError):
    """A person cannot be removed while what they prepared or approved waits."""

    def __init__(self, name: str, intents: list[int], approved: list[int]) -> None:
        parts = []
        if intents:
            parts.append(f"{len(intents)} intent(s) they prepared wait ({_ids(intents)})")
        if approved:
            parts.append(
                f"their approval stands on {len(approved)} waiting intent(s) ({_ids(approved)})"
            )
        super().__init__(
            f"{name} was not removed: {' and '.join(parts)}. Let them be decided (the maker "
            "withdraws, an approver rejects) or remove with --withdraw-waiting: their intents "
            f"are withdrawn ({REMOVED_REASON!r}) and their approvals void."
        )
        self.intents = intents
        self.approved = approved


def _ids(ids: list[int]) -> str:
    shown = ", ".join(f"#{number}" for number in ids[:10])
    return shown + (f" and {len(ids) - 10} more" if len(ids) > 10 else "")


def remove_user(
    conn: psycopg.Connection[Any], name: str, *, withdraw_waiting: bool = False
) -> dict[str, Any]:
    """Drop the team login ``name`` (``DROP ROLE``), keeping every row that names it; audited.

    Refused (:class:`StillWaiting`) while an intent they prepared waits or their approval
    stands on one that waits; with ``withdraw_waiting`` their waiting intents are withdrawn
    (the reason :data:`REMOVED_REASON`: history, a change for the desktops, an
    ``approval.withdraw`` audit row each) and their approvals of others' waiting intents are
    void (each intent then needs another approval; ``approval.void``). Their approval limits
    go with them. The login must be disabled with no session open (:func:`set_login_enabled`,
    :func:`end_sessions`) first: a session could prepare meanwhile. Returns what was done."""
    with conn.transaction():
        login = person_of(conn, name)
        if login["can_login"] or open_sessions(conn, name):
            raise ValueError(f"{name} can still log in or has sessions open: disable them first.")
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        cursor = conn.cursor(row_factory=tuple_row)
        cursor.execute(
            f"SELECT id FROM treasury.journal WHERE {WAITING_SQL} AND (created_by = %s OR"
            " EXISTS (SELECT 1 FROM treasury.approvals a WHERE a.entry_id = journal.id"
            " AND a.approver = %s AND a.void_reason IS NULL)) ORDER BY id FOR UPDATE",
            (name, name),
        )
        intents, approved = waiting_of(conn, name)
        if (intents or approved) and not withdraw_waiting:
            raise StillWaiting(name, intents, approved)
        for entry in intents:
            _withdraw(conn, entry, name)
        for entry in approved:
            _void_approval(conn, entry, name)
        limits = conn.execute(
            "DELETE FROM treasury.person_limits WHERE login = %s RETURNING login", (name,)
        ).fetchone()
        conn.execute("RESET ROLE")
        done = {
            "groups": list(login["groups"]),
            "withdrawn": intents,
            "approvals_void": approved,
            "limits_removed": limits is not None,
        }
        _admin_audit(conn, "admin.remove_user", "ok", reference=name, details=done)
        conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(name)))
    return done


def _entry_audit(
    conn: psycopg.Connection[Any], entry: int, action: str, outcome: str, extra: dict[str, Any]
) -> None:
    """An audit row about journal entry ``entry`` as the approval functions write them."""
    conn.execute(
        "INSERT INTO treasury.audit (at, profile, action, outcome, reference, amount, details)"
        " SELECT treasury.stamp(), j.profile, %s, %s, j.idempotency_key, j.amount::text,"
        " (jsonb_build_object('entry', j.id, 'content_hash', j.content_hash, 'maker',"
        " j.created_by, 'payee', j.payee_name, 'approvals', j.approvals_given, 'needed',"
        " j.approvals_needed) || %s::jsonb)::text FROM treasury.journal j WHERE j.id = %s",
        (action, outcome, json.dumps(extra, ensure_ascii=False, sort_keys=True), entry),
    )


def _history(conn: psycopg.Connection[Any], entry: int, note: str) -> None:
    conn.execute(
        "INSERT INTO treasury.journal_history (entry_id, at, state, bank_status, note)"
        " SELECT id, treasury.stamp(), state, bank_status, %s FROM treasury.journal"
        " WHERE id = %s",
        (note, entry),
    )


def _session_user(conn: psycopg.Connection[Any]) -> str:
    found = conn.cursor(row_factory=tuple_row).execute("SELECT session_user::text").fetchone()
    return str(found[0]) if found else ""


def _withdraw(conn: psycopg.Connection[Any], entry: int, name: str) -> None:
    note = coded(REMOVED_WITHDRAWN, login=name, by=_session_user(conn))  # note and error
    conn.execute(
        "UPDATE treasury.journal SET state = 'REJECTED', final = true, approval = 'WITHDRAWN',"
        " decided_by = session_user, decision_reason = %s, error = %s,"
        " updated_at = treasury.stamp(), updated_by = session_user WHERE id = %s",
        (REMOVED_REASON, note, entry),
    )
    _history(conn, entry, note)
    _entry_audit(
        conn, entry, "approval.withdraw", "withdrawn", {"reason": REMOVED_REASON, "removed": name}
    )


def _void_approval(conn: psycopg.Connection[Any], entry: int, name: str) -> None:
    conn.execute(
        "UPDATE treasury.approvals SET void_reason = %s, voided_at = treasury.stamp()"
        " WHERE entry_id = %s AND approver = %s AND void_reason IS NULL",
        (REMOVED_REASON, entry, name),
    )
    cursor = conn.cursor(row_factory=tuple_row)
    found = cursor.execute(
        "UPDATE treasury.journal j SET approvals_given = v.given,"
        " approval = CASE WHEN v.given >= j.approvals_needed THEN 'APPROVED' ELSE 'WAITING' END,"
        " approved_by = CASE WHEN v.given >= j.approvals_needed THEN j.approved_by END,"
        " approvals_expire_at = CASE WHEN v.given > 0 THEN j.approvals_expire_at END,"
        " updated_at = treasury.stamp(), updated_by = session_user"
        " FROM (SELECT treasury.valid_approvals(x) AS given FROM treasury.journal x"
        " WHERE x.id = %s) v WHERE j.id = %s RETURNING j.approvals_given, j.approvals_needed",
        (entry, entry),
    ).fetchone()
    given, needed = (int(found[0]), int(found[1])) if found else (0, 0)
    _history(conn, entry, coded(REMOVED_VOID, approver=name, given=given, needed=needed))
    _entry_audit(conn, entry, "approval.void", "void", {"reason": REMOVED_REASON, "approver": name})


POLICY_FIELDS = ("approvals", "threshold", "approvals_above", "new_payee_extra", "expiry_hours")


def set_policy(conn: psycopg.Connection[Any], **changes: Any) -> int:
    """A new version of the approval policy: the current one with ``changes`` (any of
    :data:`POLICY_FIELDS`; ``threshold``/``expiry_hours`` ``None`` to clear). It applies to
    intents prepared from now on (audited); the new version."""
    unknown = sorted(set(changes) - set(POLICY_FIELDS))
    if unknown:
        raise ValueError(f"Unknown policy setting(s): {', '.join(unknown)}.")
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        cursor = conn.cursor(row_factory=dict_row)
        current = cursor.execute("SELECT * FROM treasury.current_policy()").fetchone()
        assert current is not None
        wanted = {name: current[name] for name in POLICY_FIELDS} | changes
        version = int(current["version"]) + 1
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        try:
            conn.execute(
                "INSERT INTO treasury.policies (version, approvals, threshold, approvals_above,"
                " new_payee_extra, expiry_hours, set_at, set_by)"
                " VALUES (%s, %s, %s, %s, %s, %s, treasury.stamp(), session_user)",
                (version, *(wanted[name] for name in POLICY_FIELDS)),
            )
        except psycopg.errors.CheckViolation as error:
            raise ValueError(f"The policy was not changed: {error.diag.message_primary}.") from None
        conn.execute("RESET ROLE")
        _admin_audit(
            conn,
            "admin.policy",
            "ok",
            reference=f"policy {version}",
            details={name: _plain(wanted[name]) for name in POLICY_FIELDS},
        )
    return version


def set_limits(
    conn: psycopg.Connection[Any],
    login: str,
    *,
    payment_limit: Decimal | None,
    daily_limit: Decimal | None,
) -> None:
    """A person's approval limits (per payment, per Brasília day; ``None``: no limit)."""
    with conn.transaction():
        found = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (login,)).fetchone()
        if not found:
            raise ValueError(f"There is no login {login!r}.")
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        try:
            conn.execute(
                "INSERT INTO treasury.person_limits (login, payment_limit, daily_limit, set_at,"
                " set_by) VALUES (%s, %s, %s, treasury.stamp(), session_user)"
                " ON CONFLICT (login) DO UPDATE SET payment_limit = EXCLUDED.payment_limit,"
                " daily_limit = EXCLUDED.daily_limit, set_at = EXCLUDED.set_at,"
                " set_by = EXCLUDED.set_by",
                (login, payment_limit, daily_limit),
            )
        except psycopg.errors.CheckViolation:
            raise ValueError("A limit must be more than zero (or none).") from None
        conn.execute("RESET ROLE")
        _admin_audit(
            conn,
            "admin.limits",
            "ok",
            reference=login,
            details={"payment_limit": _plain(payment_limit), "daily_limit": _plain(daily_limit)},
        )


def _plain(value: Any) -> Any:
    return str(value) if isinstance(value, Decimal) else value


def _admin_audit(
    conn: psycopg.Connection[Any],
    action: str,
    outcome: str,
    *,
    reference: str = "",
    details: dict[str, Any] | None = None,
) -> None:
    conn.execute(
        "INSERT INTO treasury.audit (at, profile, action, outcome, reference, details)"
        " VALUES (treasury.stamp(), %s, %s, %s, %s, %s)",  # the server's clock, as for all
        (
            "treasury-admin",
            action,
            outcome,
            reference,
            json.dumps(details or {}, ensure_ascii=False, sort_keys=True),
        ),
    )


def stale_after(conn: psycopg.Connection[Any]) -> int:
    """The minutes after which a person's open transaction is stale (schema 6)."""
    row = conn.execute(
        "SELECT (extract(epoch FROM stale_after) / 60)::integer AS minutes"
        " FROM treasury.session_rules"
    ).fetchone()
    if row is None:
        raise TeamSchemaError("This database has no session rules: run `treasury-admin migrate`.")
    return int(row["minutes"] if isinstance(row, dict) else row[0])


def set_stale_after(conn: psycopg.Connection[Any], minutes: int) -> int:
    """Set the minutes after which a person's open transaction is stale (audited); they."""
    if not 1 <= minutes <= STALE_AFTER_MAX_MINUTES:
        raise ValueError(
            f"A person's transaction may be open from 1 to {STALE_AFTER_MAX_MINUTES} minutes "
            f"before it is stale, not {minutes}."
        )
    with conn.transaction():
        before = stale_after(conn)
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        conn.execute(
            "UPDATE treasury.session_rules SET stale_after = make_interval(mins => %s)",
            (minutes,),
        )
        conn.execute("RESET ROLE")
        _admin_audit(
            conn,
            "admin.stale_after",
            "ok",
            details={"minutes": minutes, "before": before},
        )
    return minutes


def registry_policy(conn: psycopg.Connection[Any]) -> tuple[int, bool]:
    """The payee registry's policy (schema 9): the cooling-off hours after a destination is
    added, changed or unblocked, and whether payouts go only to registered destinations."""
    row = conn.execute(
        "SELECT cooling_hours, registry_only FROM treasury.registry_policy"
    ).fetchone()
    if row is None:
        raise TeamSchemaError("This database has no payee registry: run `treasury-admin migrate`.")
    if isinstance(row, dict):
        return int(row["cooling_hours"]), bool(row["registry_only"])
    return int(row[0]), bool(row[1])


def set_registry_policy(
    conn: psycopg.Connection[Any],
    *,
    cooling_hours: int | None = None,
    registry_only: bool | None = None,
) -> tuple[int, bool]:
    """Change the payee registry's policy (audited ``admin.registry_policy``); it now."""
    if cooling_hours is not None and not 0 <= cooling_hours <= 720:
        raise ValueError(f"The cooling-off is 0 to 720 hours, not {cooling_hours}.")
    with conn.transaction():
        before = registry_policy(conn)
        wanted = (
            before[0] if cooling_hours is None else cooling_hours,
            before[1] if registry_only is None else registry_only,
        )
        conn.execute(f"SET LOCAL ROLE {OWNER}")
        conn.execute(
            "UPDATE treasury.registry_policy SET cooling_hours = %s, registry_only = %s", wanted
        )
        conn.execute("RESET ROLE")
        _admin_audit(
            conn,
            "admin.registry_policy",
            "ok",
            details={
                "cooling_hours": wanted[0],
                "registry_only": wanted[1],
                "before": {"cooling_hours": before[0], "registry_only": before[1]},
            },
        )
    return wanted
