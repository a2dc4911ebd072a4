"""Creating and migrating the team database (the admin's side: ``treasury-admin``).

Run by an administrator's login (a superuser, or a role with ``CREATEROLE`` that is a member of
``treasury_owner``) with a plain synchronous connection. Objects are created as
``treasury_owner`` (``SET LOCAL ROLE``), so desktops' roles own nothing and hold only the
privileges of :data:`~treasury_app.ledger.team.schema.PRIVILEGES_SQL`.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import psycopg
import psycopg.errors
from psycopg import sql
from psycopg.rows import dict_row, tuple_row

from treasury_app.ledger.db import LedgerVersionError
from treasury_app.ledger.errors import LedgerOpenError
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


def add_user(
    conn: psycopg.Connection[Any],
    name: str,
    roles: tuple[str, ...],
    *,
    password: str | None = None,
) -> None:
    """Create (or complete) the login role ``name`` as a member of ``roles`` (audited)."""
    unknown = [role for role in roles if role not in (*PERSON_ROLES, RECEIVER)]
    if unknown or not roles:
        raise ValueError(
            f"A person's role is one of {', '.join(PERSON_ROLES)}, or {RECEIVER} for the "
            f"webhook receiver's login (got {', '.join(roles) or 'none'})."
        )
    if RECEIVER in roles and len(roles) > 1:
        raise ValueError(f"The webhook receiver's login holds {RECEIVER} alone, no person's role.")
    if not name or len(name) > 63 or name.startswith("pg_") or name.startswith("treasury_"):
        raise ValueError(f"{name!r} cannot be a person's login name.")
    with conn.transaction():
        exists = conn.execute(
            "SELECT rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls OR rolreplication"
            " OR pg_has_role(rolname, %s, 'MEMBER') FROM pg_roles WHERE rolname = %s",
            (OWNER, name),
        ).fetchone()
        if exists and next(iter(exists.values() if isinstance(exists, dict) else exists)):
            raise ValueError(
                f"{name!r} is an administrator's role (superuser, creates roles or databases, "
                "or owns the treasury schema): it cannot be a person's login."
            )
        if not exists:
            statement = sql.SQL("CREATE ROLE {} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE").format(
                sql.Identifier(name)
            )
            conn.execute(statement)
        if password is not None:
            # Hashed here (SCRAM-SHA-256, as libpq's \password does): the password itself
            # never reaches the server's logs or statistics.
            verifier = conn.pgconn.encrypt_password(
                password.encode("utf-8"), name.encode("utf-8"), b"scram-sha-256"
            )
            conn.execute(
                sql.SQL("ALTER ROLE {} PASSWORD {}").format(
                    sql.Identifier(name), sql.Literal(verifier.decode("ascii"))
                )
            )
        for role in roles:
            conn.execute(
                sql.SQL("GRANT {} TO {}").format(sql.Identifier(role), sql.Identifier(name))
            )
        _admin_audit(
            conn,
            "admin.add_user",
            "ok",
            reference=name,
            details={"roles": list(roles), "password_set": password is not None},
        )


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
