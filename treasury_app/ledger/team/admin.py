"""``treasury-admin``: the team database's administration (schema, people, audit, imports).

Every command takes the database as ``--db URL`` (a libpq URL) or from ``TREASURY_DB``, and
exits non-zero on failure with one clear line on stderr:

* ``init`` — the roles ``treasury_owner`` (NOLOGIN), ``treasury_maker``,
  ``treasury_approver``, ``treasury_viewer``, the schema and every migration;
* ``add-user NAME --role ROLE [--role ROLE] [--password-stdin] [--connection-limit N]`` — a
  person's (or the webhook receiver's) login role, with a connection limit (by default what
  one desktop, or two receivers, may open) and the session defaults
  (:data:`~treasury_app.ledger.team.migrations.SESSION_DEFAULTS`); again for an existing login,
  it adds roles and sets the limit;
* ``disable-user NAME`` / ``enable-user NAME`` — no more logins (the open sessions are ended),
  or logins again;
* ``remove-user NAME [--withdraw-waiting]`` — drop the login (disabled first); the rows it wrote
  keep its name, and the name is not given again. Refused while an intent it prepared waits, or
  its approval stands on one that waits; ``--withdraw-waiting`` withdraws those intents
  ("person removed") and voids those approvals, each audited;
* ``reset-password NAME [--password-stdin] [--end-sessions]`` — a new password;
* ``migrate`` — bring the schema to this app's version (a newer schema is refused), and give
  every team login without a connection limit or session defaults the default ones;
* ``verify-audit [--anchor SEQ:HASH ...] [--anchor-file FILE]`` — chain what waits to be
  chained, walk the hash chain, name the first broken row, check heads kept outside the
  database, print the head to keep (and who holds the chain's head, if rows still wait);
* ``import-ledger FILE`` — move one desktop's SQLite ledger (journal, history, audit,
  receipts, batches) in, once, keeping dates and authors and chaining the audit (the file
  records no author per history row: each takes its entry's author);
* ``status`` — schema, server, people and receivers (disabled, connection limits, session
  defaults), whether the server's connections cover every login's limit, counts, the audit
  head;
* ``policy show`` — the approval policy in force, its versions and the people's limits;
* ``policy set [--approvals N] [--threshold AMOUNT|none] [--approvals-above N]
  [--new-payee-extra N] [--expiry-hours H|end-of-day] [--force]`` — a new policy version (it
  applies to intents prepared from then on); the same policy again is no new version, and one
  the team's enabled approvers cannot satisfy is refused (``--force`` sets it anyway);
* ``policy limit LOGIN [--per-payment AMOUNT|none] [--per-day AMOUNT|none]`` — what one
  approver (only an approver) may approve per payment and per Brasília day;
* ``notifications [--failed] [--unmatched] [--limit N]`` — what the webhook receivers stored:
  items by source and outcome (last 24 h and overall), dead letters, each receiver's
  heartbeat; ``--failed``: the dead letters (unreadable bodies, answered 400) and the items
  that could not be applied; ``--unmatched``: the items about someone else's key, txid or
  payment (stored, changing nothing). Text the bank sent is printed escaped.

Each change of schema, people or imports is itself an audit row.
"""

from __future__ import annotations

import argparse
import datetime as dt
import getpass
import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
from psycopg.rows import dict_row

from treasury_app.domain.money import format_brl
from treasury_app.ledger.db import SCHEMA_VERSION as FILE_SCHEMA_VERSION
from treasury_app.ledger.db import LedgerVersionError
from treasury_app.ledger.team import CLAIMS_MAX, POOL_MAX, migrations, receiver_schema
from treasury_app.ledger.team.chain import Anchor, verify_chain
from treasury_app.ledger.team.migrations import SESSION_DEFAULTS, TEAM_GROUPS, TeamSchemaError
from treasury_app.ledger.team.receiver_schema import RECEIVER
from treasury_app.ledger.team.schema import (
    APPROVER,
    MAKER,
    MIGRATIONS,
    OWNER,
    PERSON_ROLES,
    SCHEMA_VERSION,
)

ENV = "TREASURY_DB"

DESKTOP_SPARE = 2
"""Connections a login may hold beyond what one desktop opens at most: a reconnection while the
connection it replaces is still going away."""
VIEWER_CONNECTIONS = POOL_MAX + 2 + DESKTOP_SPARE
"""A read-only desktop: the journal's pool, the live changes and the bank events listeners."""
PERSON_CONNECTIONS = VIEWER_CONNECTIONS + CLAIMS_MAX + 1
"""A desktop that sends or approves: also the claims' pool (a connection per payment being
sent) and the password asked again at an approval (``approve_password``)."""
RECEIVER_POOL = 20
"""The webhook receiver's ``database.pool_size`` by default (docs/receiver.md)."""
RECEIVER_CONNECTIONS = 2 * (RECEIVER_POOL + 1)
"""Two receiver instances on one login (docs/receiver.md allows it), each its pool and a
``check``."""


def default_connection_limit(groups: Sequence[str]) -> int:
    """The connection limit ``treasury-admin`` gives a login of ``groups`` by default."""
    if RECEIVER in groups:
        return RECEIVER_CONNECTIONS
    if MAKER in groups or APPROVER in groups:
        return PERSON_CONNECTIONS
    return VIEWER_CONNECTIONS


class AdminError(RuntimeError):
    """A command failed in a way the administrator can act on (one line); ``code``: the exit
    code (2: usage, refused input; 3: the database refused, or only part was done)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def connect(url: str | None) -> psycopg.Connection[dict[str, Any]]:
    url = url or os.environ.get(ENV)
    if not url:
        raise AdminError(f"No database: pass --db postgresql://... or set {ENV}.")
    if not url.startswith(("postgresql://", "postgres://")) and "=" not in url:
        raise AdminError(
            "--db takes a libpq URL such as postgresql://admin@db.example.com/treasury"
        )
    try:
        return psycopg.connect(url, autocommit=True, row_factory=dict_row, connect_timeout=10)
    except psycopg.ProgrammingError as error:
        raise AdminError(f"The database URL is not valid: {_first_line(error)}") from None
    except psycopg.OperationalError as error:
        raise AdminError(f"Cannot connect: {_first_line(error)}") from None


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _ready(conn: psycopg.Connection[Any]) -> int:
    version = migrations.current_version(conn)
    if version is None:
        raise AdminError("This database has no treasury schema: run `treasury-admin init`.")
    if version > SCHEMA_VERSION:
        raise AdminError(
            f"The team database has schema {version}, newer than this treasury-admin knows "
            f"({SCHEMA_VERSION}): use a newer version."
        )
    return version


# -- commands ----------------------------------------------------------------------------------


def cmd_init(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    version = migrations.init(conn)
    print(f"Team database ready: schema {version}, roles {OWNER}, {', '.join(PERSON_ROLES)}.")
    return 0


def cmd_migrate(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    before = _ready(conn)
    after = migrations.migrate(conn)
    print(f"Schema {before} -> {after}." if after != before else f"Schema {after}: up to date.")
    given = migrations.give_session_limits(conn, default_connection_limit)
    for name, got in given.items():
        what = []
        if "connection_limit" in got:
            what.append(f"at most {got['connection_limit']} connections")
        defaults = [f"{key}={value}" for key, value in got.items() if key != "connection_limit"]
        if defaults:
            what.append(", ".join(defaults))
        print(f"{name}: {'; '.join(what)}.")
    return 0


def _read_password(args: argparse.Namespace, *, required: bool) -> str | None:
    """The password from stdin (``--password-stdin``: its first line), else asked twice on a
    terminal when ``required``."""
    if args.password_stdin:
        password = sys.stdin.readline().rstrip("\r\n")
        if not password:
            raise AdminError("--password-stdin read an empty password.")
        return password
    if not required:
        return None
    if not sys.stdin.isatty():
        raise AdminError("No password: pass --password-stdin and write it to stdin.")
    password = getpass.getpass("New password: ")
    if not password:
        raise AdminError("The password cannot be empty.")
    if getpass.getpass("Again: ") != password:
        raise AdminError("The two passwords differ; nothing was changed.")
    return password


def _person(conn: psycopg.Connection[Any], name: str) -> dict[str, Any]:
    try:
        return migrations.person_of(conn, name)
    except ValueError as error:
        raise AdminError(str(error)) from None


def cmd_add_user(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    password = _read_password(args, required=False)
    existing = migrations.login_of(conn, args.name)
    limit = args.connection_limit
    if limit is None:  # the default of all its roles, or more if it had more
        groups = {*args.role, *(existing["groups"] if existing else ())}
        limit = default_connection_limit(sorted(groups))
        if existing is not None and existing["connection_limit"] > limit:
            limit = int(existing["connection_limit"])
    try:
        migrations.add_user(
            conn, args.name, tuple(args.role), password=password, connection_limit=limit
        )
    except ValueError as error:
        raise AdminError(str(error)) from None
    disabled = existing is not None and not existing["can_login"]
    print(
        f"{args.name}: {', '.join(args.role)}"
        + (" (password set)" if password else "")
        + f"; at most {limit} connections"
        + ("; disabled (enable-user lets them in)" if disabled else "")
    )
    return 0


def _end_sessions(conn: psycopg.Connection[Any], name: str, done: str) -> int:
    """End ``name``'s open sessions; ``done`` says what was done already if that is refused."""
    try:
        return migrations.end_sessions(conn, name)
    except psycopg.errors.InsufficientPrivilege as error:
        open_now = migrations.open_sessions(conn, name)
        raise AdminError(
            f"{done}, but {open_now} open session(s) of {name} could not be ended "
            f"({_first_line(error)}): a superuser (or a member of pg_signal_backend) ends them "
            f"with SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = "
            f"'{name}'.",
            code=3,
        ) from None


def _warn_policy(conn: psycopg.Connection[Any], what: str) -> None:
    """Warn when the policy in force asks more approvers than the team now has."""
    current = conn.execute("SELECT * FROM treasury.current_policy()").fetchone()
    if current is None:
        return
    shortfall = _policy_shortfall(conn, current)
    if shortfall is not None:
        print(
            f"Warning: {what}, the policy in force (version {current['version']}) cannot be "
            f"satisfied: {shortfall}: {ADD_APPROVERS}.",
            file=sys.stderr,
        )


def cmd_disable_user(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    try:
        changed = migrations.set_login_enabled(conn, args.name, False)
    except ValueError as error:
        raise AdminError(str(error)) from None
    ended = _end_sessions(conn, args.name, f"{args.name} is disabled")
    print(
        f"{args.name}: {'disabled' if changed else 'disabled already'} (no new logins); "
        f"{ended} open session(s) ended."
    )
    _warn_policy(conn, f"with {args.name} disabled")
    return 0


def cmd_enable_user(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    try:
        changed = migrations.set_login_enabled(conn, args.name, True)
    except ValueError as error:
        raise AdminError(str(error)) from None
    print(f"{args.name}: {'enabled' if changed else 'enabled already'} (may log in).")
    return 0


def cmd_stale_after(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    if args.minutes is None:
        minutes = migrations.stale_after(conn)
    else:
        try:
            minutes = migrations.set_stale_after(conn, args.minutes)
        except ValueError as error:
            raise AdminError(str(error)) from None
    print(
        f"A person's transaction open for more than {minutes} minute(s) is stale: a colleague"
        " whose desktop it holds up ends it (audited)."
    )
    return 0


def cmd_registry_policy(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    only = None if args.registry_only is None else args.registry_only == "yes"
    try:
        if args.cooling_hours is None and only is None:
            hours, only = migrations.registry_policy(conn)
        else:
            hours, only = migrations.set_registry_policy(
                conn, cooling_hours=args.cooling_hours, registry_only=only
            )
    except ValueError as error:
        raise AdminError(str(error)) from None
    print(
        f"A payment to a destination added, changed or unblocked less than {hours} hour(s) ago"
        " needs one approval more; payouts "
        + ("go only to registered destinations." if only else "may go outside the registry.")
    )
    return 0


def cmd_reset_password(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    _person(conn, args.name)
    password = _read_password(args, required=True)
    assert password is not None
    try:
        migrations.reset_password(conn, args.name, password)
    except ValueError as error:
        raise AdminError(str(error)) from None
    if args.end_sessions:
        ended = _end_sessions(conn, args.name, f"{args.name}'s password is reset")
        print(f"{args.name}: password reset; {ended} session(s) opened before ended.")
    else:
        still = migrations.open_sessions(conn, args.name)
        print(
            f"{args.name}: password reset."
            + (
                f" {still} session(s) opened with the old one go on (--end-sessions ends them)."
                if still
                else ""
            )
        )
    return 0


def cmd_remove_user(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    version = _ready(conn)
    if version < SCHEMA_VERSION:
        raise AdminError(
            f"The team database has schema {version}: run `treasury-admin migrate` first."
        )
    name = args.name
    _person(conn, name)
    intents, approved = migrations.waiting_of(conn, name)
    if (intents or approved) and not args.withdraw_waiting:
        raise AdminError(str(migrations.StillWaiting(name, intents, approved)))
    migrations.set_login_enabled(conn, name, False)
    _end_sessions(conn, name, f"{name} is disabled and was not removed")
    try:
        done = migrations.remove_user(conn, name, withdraw_waiting=args.withdraw_waiting)
    except ValueError as error:  # prepared or approved meanwhile, or logged in again
        raise AdminError(f"{error} ({name} stays disabled.)") from None
    except psycopg.errors.DependentObjectsStillExist as error:
        detail = (error.diag.message_detail or "").replace("\n", "; ")
        raise AdminError(
            f"{name} is disabled but was not removed: {_first_line(error)}"
            + (f" ({detail})" if detail else "")
            + ". Drop or reassign those (REASSIGN OWNED, DROP OWNED in that database), then "
            "run remove-user again.",
            code=3,
        ) from None
    withdrawn = done["withdrawn"]
    void = done["approvals_void"]
    print(
        f"{name}: removed; the journal and audit rows they wrote keep their name."
        + (f" Withdrawn ({migrations.REMOVED_REASON}): {_id_list(withdrawn)}." if withdrawn else "")
        + (f" Their approval void on: {_id_list(void)}." if void else "")
        + (" Their approval limits removed." if done["limits_removed"] else "")
    )
    _warn_policy(conn, f"with {name} removed")
    return 0


def _id_list(ids: Sequence[int]) -> str:
    return ", ".join(f"#{number}" for number in ids)


SEAL_WAIT = "5s"
"""How long ``verify-audit`` waits for the audit chain's head when another session holds it."""


def seal_audit(conn: psycopg.Connection[Any]) -> str:
    """Chain the audit rows written but not sealed yet (schema 5), waiting up to
    :data:`SEAL_WAIT` for the chain's head: ``""`` once done (or nothing to do: a schema
    before 5 chains every row as it is written), else who holds the head."""
    sealer = conn.execute(
        "SELECT to_regprocedure('treasury.seal_audit(boolean)') IS NOT NULL AS here"
    ).fetchone()
    if not sealer or not sealer["here"]:
        return ""
    try:
        with conn.transaction():
            conn.execute(f"SET LOCAL lock_timeout = '{SEAL_WAIT}'")
            conn.execute("SELECT treasury.seal_audit(true)")
    except psycopg.errors.LockNotAvailable:
        holder = conn.execute(
            "SELECT a.usename, a.application_name, a.state, a.xact_start, a.pid"
            " FROM treasury.audit_head h JOIN pg_locks l ON l.locktype = 'transactionid'"
            " AND l.transactionid = h.xmax AND l.granted JOIN pg_stat_activity a ON a.pid = l.pid"
        ).fetchone()
        if holder is None:
            return "another session"
        since = holder["xact_start"]
        return (
            f"{holder['usename']} ({holder['application_name'] or 'unknown application'}, "
            f"backend {holder['pid']}), {holder['state'] or 'state unknown'}"
            + (f" since {since.astimezone(dt.UTC):%Y-%m-%d %H:%M:%S} UTC" if since else "")
        )
    return ""


def audit_rows(conn: psycopg.Connection[Any]) -> tuple[list[dict[str, Any]], Anchor]:
    """The chained (sealed) audit rows in chain order, and the chain's head."""
    rows = conn.execute(
        "SELECT * FROM treasury.audit WHERE seq IS NOT NULL ORDER BY seq"
    ).fetchall()
    head = conn.execute("SELECT seq, hash FROM treasury.audit_head").fetchone()
    assert head is not None
    return rows, Anchor(int(head["seq"]), str(head["hash"]))


def unsealed_rows(conn: psycopg.Connection[Any]) -> int:
    """How many audit rows wait to be chained."""
    row = conn.execute("SELECT count(*) AS n FROM treasury.audit WHERE seq IS NULL").fetchone()
    return int(row["n"]) if row else 0


def cmd_verify_audit(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    anchors: list[Anchor] = []
    try:
        anchors += [Anchor.parse(text) for text in args.anchor or ()]
        if args.anchor_file:
            for line in Path(args.anchor_file).read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.lstrip().startswith("#"):
                    anchors.append(Anchor.parse(line.split()[0]))
    except (OSError, ValueError) as error:
        raise AdminError(str(error)) from None
    holder = seal_audit(conn)
    rows, head = audit_rows(conn)
    waiting = unsealed_rows(conn)
    report = verify_chain(rows, head=head, anchors=anchors)
    if report.broken_at is not None:
        row = next((r for r in rows if int(r["seq"]) == report.broken_at), None)
        what = f" ({row['at']}, {row['actor']}, {row['action']})" if row is not None else ""
        print(
            f"AUDIT BROKEN at row {report.broken_at}{what}: {report.reason}. "
            f"{report.rows} row(s) before it verify.",
            file=sys.stderr,
        )
        return 1
    for anchor in report.anchors_missing:
        print(
            f"AUDIT REWRITTEN: the head {anchor} kept outside the database is not in the "
            "chain any more.",
            file=sys.stderr,
        )
    if report.anchors_missing:
        return 1
    print(f"Audit chain whole: {report.rows} row(s).")
    if waiting:
        print(
            f"{waiting} more row(s) written but not chained yet: "
            + (
                f"the chain's head is held by {holder} (they are chained once it lets go)."
                if holder
                else "written while this ran (the next writer chains them)."
            )
        )
    print(f"Head (keep it outside the database): {report.head}")
    return 0


def cmd_status(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    version = migrations.current_version(conn)
    server = conn.execute("SHOW server_version").fetchone()
    print(f"Server: PostgreSQL {server['server_version'] if server else '?'}")
    print(f"Database: {conn.info.dbname} on {conn.info.host}:{conn.info.port}")
    if version is None:
        print("Schema: none (run `treasury-admin init`)")
        return 1
    print(f"Schema: {version} (this treasury-admin: {SCHEMA_VERSION})")
    for role in TEAM_GROUPS:
        members = conn.execute(
            "SELECT m.rolname, m.rolcanlogin FROM pg_auth_members a"
            " JOIN pg_roles r ON r.oid = a.roleid JOIN pg_roles m ON m.oid = a.member"
            " WHERE r.rolname = %s ORDER BY 1",
            (role,),
        ).fetchall()
        names = [r["rolname"] + ("" if r["rolcanlogin"] else " (disabled)") for r in members]
        print(f"{role}: {', '.join(names) or '(nobody)'}")
    _logins(conn)
    counts = conn.execute(
        "SELECT state, COUNT(*) AS n FROM treasury.journal GROUP BY state ORDER BY state"
    ).fetchall()
    print("Journal: " + (", ".join(f"{r['state']} {r['n']}" for r in counts) or "empty"))
    head = conn.execute("SELECT seq, hash FROM treasury.audit_head").fetchone()
    assert head is not None
    waiting = unsealed_rows(conn)
    print(
        f"Audit: {head['seq']} row(s)"
        + (f" and {waiting} not chained yet" if waiting else "")
        + f", head {head['seq']}:{head['hash']}"
    )
    changes = conn.execute("SELECT coalesce(max(seq), 0) AS n FROM treasury.changes").fetchone()
    print(f"Changes: {changes['n'] if changes else 0}")
    imports = conn.execute("SELECT COUNT(*) AS n FROM treasury.imports").fetchone()
    print(f"Imported desktop ledgers: {imports['n'] if imports else 0}")
    return 0 if version == SCHEMA_VERSION else 1


def _logins(conn: psycopg.Connection[Any]) -> None:
    """Each team login's state, and whether the server's connections cover their limits."""
    logins = migrations.team_logins(conn)
    if not logins:
        return
    print("Logins:")
    total = 0
    unlimited = []
    for login in logins:
        what = [", ".join(login["groups"])]
        if not login["can_login"]:
            what.append("disabled")
        elif login["connection_limit"] < 0:
            what.append("NO connection limit")
            unlimited.append(login["name"])
        else:
            what.append(f"at most {login['connection_limit']} connections")
            total += int(login["connection_limit"])
        settings = dict(str(item).split("=", 1) for item in login["settings"])
        missing = [name for name, _ in SESSION_DEFAULTS if name not in settings]
        changed = [
            f"{name}={settings[name]} (not {value})"
            for name, value in SESSION_DEFAULTS
            if name in settings and settings[name] != value
        ]
        if missing:
            what.append(f"no default {', '.join(missing)}")
        what += changed
        print(f"  {login['name']}: {'; '.join(what)}")
    found = conn.execute(
        "SELECT current_setting('max_connections')::int AS most,"
        " current_setting('superuser_reserved_connections')::int AS superusers,"
        " coalesce(current_setting('reserved_connections', true), '0')::int AS reserved"
    ).fetchone()
    assert found is not None
    room = found["most"] - found["superusers"] - found["reserved"]
    print(
        f"Connections: the enabled logins may hold {total} together (their limits); the server "
        f"lets non-superusers open {room} (max_connections {found['most']} - "
        f"superuser_reserved_connections {found['superusers']} - reserved_connections "
        f"{found['reserved']})."
    )
    if unlimited:
        print(
            f"WARNING: {', '.join(unlimited)} may open every free connection (no connection "
            "limit): `treasury-admin migrate` gives them the default one."
        )
    elif total > room:
        print(
            f"WARNING: the logins' limits add up to more than the server allows: one person "
            f"filling theirs can keep another out. Raise max_connections to at least "
            f"{total + found['superusers'] + found['reserved']} (plus other applications' "
            "connections) or lower limits (add-user NAME --role ROLE --connection-limit N)."
        )


# -- import-ledger ---------------------------------------------------------------------------


def _file_source(db: sqlite3.Connection, path: Path) -> str:
    """A stable identity of one desktop's ledger file: its first journal and audit rows."""
    first_audit = db.execute(
        "SELECT at, os_user, profile FROM audit ORDER BY id LIMIT 1"
    ).fetchone()
    first_entry = db.execute(
        "SELECT idempotency_key, created_at FROM journal ORDER BY id LIMIT 1"
    ).fetchone()
    basis = json.dumps(
        [
            path.name,
            list(first_audit) if first_audit else None,
            list(first_entry) if first_entry else None,
        ]
    )
    return hashlib.sha256(basis.encode()).hexdigest()


def import_ledger(conn: psycopg.Connection[Any], path: Path) -> dict[str, int]:
    """Copy a desktop's ledger file into the team database in one transaction (see module
    docstring); returns the counts."""
    if not path.is_file():
        raise AdminError(f"No ledger file at {path}.")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        db.row_factory = sqlite3.Row
        version_row = db.execute("SELECT version FROM schema_version").fetchone()
    except sqlite3.DatabaseError as error:
        raise AdminError(f"{path.name} is not a treasury ledger file ({error}).") from None
    file_version = int(version_row[0]) if version_row else 0
    if file_version > FILE_SCHEMA_VERSION:
        raise AdminError(
            f"{path.name} has schema {file_version}; this treasury-admin reads up to "
            f"{FILE_SCHEMA_VERSION}: use a newer version."
        )
    if file_version < FILE_SCHEMA_VERSION:
        raise AdminError(
            f"{path.name} has an older schema ({file_version}): open it once with the app "
            "(it migrates the file), then import it."
        )
    source = _file_source(db, path)
    receipts_dir = path.parent / f"{path.stem}-receipts"
    counts = {"journal": 0, "history": 0, "audit": 0, "receipts": 0, "batches": 0, "skipped": 0}
    profile = ""
    with conn.transaction():
        done = conn.execute(
            "SELECT imported_at, imported_by FROM treasury.imports WHERE source = %s", (source,)
        ).fetchone()
        if done:
            raise AdminError(
                f"{path.name} was imported already ({done['imported_at']:%Y-%m-%d %H:%M} UTC "
                f"by {done['imported_by']}); nothing was changed."
            )
        ids: dict[int, int] = {}  # file id -> team id of the entries imported
        linked: dict[int, int] = {}  # file id -> team id of those already there
        for row in db.execute("SELECT * FROM journal ORDER BY id"):
            profile = profile or row["profile"]
            cursor = conn.execute(
                "INSERT INTO treasury.journal (kind, payee_name, payee_document, payee_detail,"
                " amount, description, payment_flow, idempotency_key, request_json, state,"
                " bank_status, final, end_to_end_id, bank_id, error, created_at, updated_at,"
                " created_by, updated_by, profile, batch, creditor_name) VALUES (%s, %s, %s,"
                " %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
                (
                    row["kind"],
                    row["payee_name"],
                    row["payee_document"],
                    row["payee_detail"],
                    row["amount"],
                    row["description"],
                    row["payment_flow"],
                    row["idempotency_key"],
                    row["request_json"],
                    row["state"],
                    row["bank_status"],
                    bool(row["final"]),
                    row["end_to_end_id"],
                    row["bank_id"],
                    row["error"],
                    row["created_at"],
                    row["updated_at"],
                    row["created_by"],
                    row["created_by"],
                    row["profile"],
                    row["batch"],
                    row["creditor_name"],
                ),
            )
            inserted = cursor.fetchone()
            if inserted is None:  # the same intent is in the team journal already: its
                # history there is the truth; this file's receipt of it links to it
                existing = conn.execute(
                    "SELECT id FROM treasury.journal WHERE idempotency_key = %s",
                    (row["idempotency_key"],),
                ).fetchone()
                if existing is not None:
                    linked[int(row["id"])] = int(existing["id"])
                counts["skipped"] += 1
                continue
            ids[int(row["id"])] = int(inserted["id"])
            counts["journal"] += 1
        for row in db.execute("SELECT * FROM journal_history ORDER BY id"):
            entry = ids.get(int(row["entry_id"]))
            if entry is None:
                continue
            author = db.execute(
                "SELECT created_by FROM journal WHERE id = ?", (row["entry_id"],)
            ).fetchone()
            conn.execute(
                "INSERT INTO treasury.journal_history (entry_id, at, state, bank_status, note,"
                " actor) VALUES (%s, %s, %s, %s, %s, %s)",
                (
                    entry,
                    row["at"],
                    row["state"],
                    row["bank_status"],
                    row["note"],
                    author[0] if author else "unknown",
                ),
            )
            counts["history"] += 1
        for row in db.execute("SELECT * FROM audit ORDER BY id"):
            profile = profile or row["profile"]
            conn.execute(
                "INSERT INTO treasury.audit (at, actor, profile, action, outcome, reference,"
                " amount, details) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    row["at"],
                    row["os_user"],
                    row["profile"],
                    row["action"],
                    row["outcome"],
                    row["reference"],
                    row["amount"],
                    row["details"],
                ),
            )
            counts["audit"] += 1
        for row in db.execute("SELECT * FROM batches ORDER BY created_at"):
            cursor = conn.execute(
                "INSERT INTO treasury.batches (id, created_at, created_by, profile, label,"
                " file_sha256, signature, rows, total) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                " %s) ON CONFLICT (id) DO NOTHING RETURNING id",
                tuple(
                    row[name]
                    for name in (
                        "id",
                        "created_at",
                        "created_by",
                        "profile",
                        "label",
                        "file_sha256",
                        "signature",
                        "rows",
                        "total",
                    )
                ),
            )
            counts["batches"] += cursor.fetchone() is not None
        for row in db.execute("SELECT * FROM receipts ORDER BY id"):
            file = receipts_dir / row["sha256"][:2] / f"{row['sha256']}.pdf"
            try:
                pdf = file.read_bytes()
            except OSError as error:
                raise AdminError(
                    f"Receipt {file} cannot be read ({error}); nothing imported."
                ) from None
            if hashlib.sha256(pdf).hexdigest() != row["sha256"]:
                raise AdminError(f"Receipt {file} is damaged; nothing was imported.")
            conn.execute(
                "INSERT INTO treasury.receipt_files (sha256, pdf, size) VALUES (%s, %s, %s)"
                " ON CONFLICT (sha256) DO NOTHING",
                (row["sha256"], pdf, len(pdf)),
            )
            file_entry = None if row["entry_id"] is None else int(row["entry_id"])
            entry_id = None if file_entry is None else ids.get(file_entry, linked.get(file_entry))
            cursor = conn.execute(
                "INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, payee_name,"
                " amount, paid_on, saved_at, size) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (kind, bank_id) DO NOTHING RETURNING id",
                (
                    row["sha256"],
                    row["kind"],
                    row["bank_id"],
                    entry_id,
                    row["payee_name"],
                    row["amount"],
                    row["paid_on"],
                    row["saved_at"],
                    row["size"],
                ),
            )
            counts["receipts"] += cursor.fetchone() is not None
        conn.execute(
            "INSERT INTO treasury.imports (source, file_name, profile, journal_rows, audit_rows,"
            " receipts) VALUES (%s, %s, %s, %s, %s, %s)",
            (
                source,
                path.name,
                profile or path.stem,
                counts["journal"],
                counts["audit"],
                counts["receipts"],
            ),
        )
        migrations._admin_audit(
            conn, "admin.import_ledger", "ok", reference=path.name, details=dict(counts)
        )
    db.close()
    return counts


def cmd_import_ledger(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    counts = import_ledger(conn, Path(args.file))
    print(
        f"Imported {args.file}: {counts['journal']} payment(s) ({counts['skipped']} already "
        f"there), {counts['history']} history row(s), {counts['audit']} audit row(s), "
        f"{counts['receipts']} receipt(s), {counts['batches']} batch(es)."
    )
    return 0


def _amount(text: str) -> Decimal | None:
    if text.strip().lower() in ("none", "no", "off", ""):
        return None
    try:
        value = Decimal(text.strip().replace(",", "."))
    except InvalidOperation:
        raise AdminError(f"{text!r} is not an amount (write 10000.00, or none).") from None
    if not value.is_finite() or value <= 0:
        raise AdminError(f"{text!r} is not an amount more than zero (or none).")
    return value


def _hours(text: str) -> Decimal | None:
    if text.strip().lower() in ("end-of-day", "eod", "none"):
        return None
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        raise AdminError(f"{text!r} is not a number of hours (or end-of-day).") from None
    if not value.is_finite() or value <= 0:
        raise AdminError("Approvals must last more than zero hours.")
    return value


def _limit(value: Any) -> str:
    return "no limit" if value is None else format_brl(Decimal(value))


def _policy_shortfall(conn: psycopg.Connection[Any], policy: dict[str, Any]) -> str | None:
    """Why the team's enabled approvers cannot give every approval ``policy`` may ask (the
    arithmetic, in words), ``None`` when they can."""
    base = policy["approvals"]
    base_text = f"{base} approval(s) per intent"
    if policy["threshold"] is not None and policy["approvals_above"] > base:
        base = policy["approvals_above"]
        base_text = f"{base} approval(s) above {format_brl(Decimal(policy['threshold']))}"
    most = base + policy["new_payee_extra"]
    if most == 0:
        return None
    people = conn.execute(
        "SELECT r.rolname::text AS login, pg_has_role(r.oid, %s, 'MEMBER') AS approver,"
        " pg_has_role(r.oid, %s, 'MEMBER') AS maker FROM pg_roles r WHERE r.rolcanlogin"
        " AND NOT r.rolsuper AND NOT pg_has_role(r.oid, %s, 'MEMBER') ORDER BY 1",
        (APPROVER, MAKER, OWNER),
    ).fetchall()
    approvers = [row["login"] for row in people if row["approver"]]
    both = [row["login"] for row in people if row["approver"] and row["maker"]]
    available = len(approvers) - (1 if both else 0)
    if available >= most:
        return None
    if policy["new_payee_extra"]:
        arithmetic = (
            f"{base_text} + {policy['new_payee_extra']} for a payee never paid = {most} "
            "distinct approvers other than the intent's maker"
        )
    else:
        arithmetic = f"{base_text} = {most} distinct approvers other than the intent's maker"
    team = f"the team has {len(approvers)} enabled approver(s)" + (
        f" ({', '.join(approvers)})" if approvers else ""
    )
    if both:
        team += (
            f", and {', '.join(both)} prepare(s) intents too, so an intent of theirs has "
            f"{available} approver(s) other than its maker"
        )
    return f"{arithmetic}; {team}: {most} needed, {available} available"


ADD_APPROVERS = (
    f"add approvers (treasury-admin add-user NAME --role {APPROVER}, or enable-user) or ask "
    "fewer approvals"
)


def _set_policy(conn: psycopg.Connection[Any], changes: dict[str, Any], *, force: bool) -> None:
    with conn.transaction():
        current = conn.execute("SELECT * FROM treasury.current_policy()").fetchone()
        assert current is not None
        wanted = {name: current[name] for name in migrations.POLICY_FIELDS} | changes
        if all(wanted[name] == current[name] for name in migrations.POLICY_FIELDS):
            print(f"Policy unchanged: version {current['version']} stays in force.")
            return
        shortfall = _policy_shortfall(conn, wanted)
        if shortfall is not None and not force:
            raise AdminError(
                f"The policy was not changed: {shortfall}. To go on, {ADD_APPROVERS}, or pass "
                "--force to set it anyway."
            )
        try:
            version = migrations.set_policy(conn, **changes)
        except ValueError as error:
            raise AdminError(str(error)) from None
        if shortfall is not None:
            migrations._admin_audit(
                conn,
                "admin.policy_forced",
                "unsatisfiable",
                reference=f"policy {version}",
                details={"why": shortfall},
            )
            print(
                f"Warning: set with --force, though {shortfall}: {ADD_APPROVERS}.",
                file=sys.stderr,
            )
    print(f"Policy version {version} in force for intents prepared from now on.")


def cmd_policy(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    _ready(conn)
    if args.action == "set":
        changes: dict[str, Any] = {}
        if args.approvals is not None:
            changes["approvals"] = args.approvals
        if args.threshold is not None:
            changes["threshold"] = _amount(args.threshold)
        if args.approvals_above is not None:
            changes["approvals_above"] = args.approvals_above
        if args.new_payee_extra is not None:
            changes["new_payee_extra"] = args.new_payee_extra
        if args.expiry_hours is not None:
            changes["expiry_hours"] = _hours(args.expiry_hours)
        if not changes:
            raise AdminError("Nothing to change: give at least one setting.")
        _set_policy(conn, changes, force=args.force)
    elif args.action == "limit":
        if args.login is None:
            raise AdminError("policy limit needs the person's login.")
        login = migrations.login_of(conn, args.login)
        if login is None:
            raise AdminError(f"There is no login {args.login!r}.")
        approver = conn.execute(
            "SELECT pg_has_role(%s, %s, 'MEMBER') AS yes", (args.login, APPROVER)
        ).fetchone()
        if login["administrator"] or not (approver and approver["yes"]):
            raise AdminError(
                f"{args.login} is not an approver (a member of {APPROVER}): limits cap what an "
                f"approver approves. Make them one first (add-user {args.login} --role "
                f"{APPROVER}); nothing was changed."
            )
        try:
            migrations.set_limits(
                conn,
                args.login,
                payment_limit=_amount(args.per_payment or "none"),
                daily_limit=_amount(args.per_day or "none"),
            )
        except ValueError as error:
            raise AdminError(str(error)) from None
        print(
            f"{args.login}: per payment {args.per_payment or 'none'}, per day "
            f"{args.per_day or 'none'}."
        )
    for row in conn.execute("SELECT * FROM treasury.policies ORDER BY version").fetchall():
        threshold = "none" if row["threshold"] is None else format_brl(row["threshold"])
        expiry = (
            "end of the Brasília day of the first approval"
            if row["expiry_hours"] is None
            else f"{row['expiry_hours']} h after the first approval"
        )
        print(
            f"version {row['version']} (set {row['set_at']} by {row['set_by']}): "
            f"{row['approvals']} approval(s); {row['approvals_above']} above {threshold}; "
            f"+{row['new_payee_extra']} for a new payee; expire at {expiry}"
        )
    for row in conn.execute("SELECT * FROM treasury.person_limits ORDER BY login").fetchall():
        print(
            f"limits of {row['login']}: {_limit(row['payment_limit'])} per payment, "
            f"{_limit(row['daily_limit'])} per day"
        )
    return 0


# -- notifications -----------------------------------------------------------------------------

NOTIFICATIONS_SCHEMA = MIGRATIONS.index(receiver_schema.MIGRATION_SQL) + 1
"""The first schema with the receiver's tables."""
SOURCES = ("pix", "rec", "cobr", "transfer", "receive", "refund", "cashout")
"""The receiver's routes, in its order (others, if any, follow alphabetically)."""
OUTCOMES = ("applied", "unchanged", "unmatched", "failed")
STALE_SECONDS = 30
"""A receiver beats every 5 s: one not seen for this long is not running, or cannot reach the
database (the desktops' status bar says "receiver silent" after as long)."""
PREVIEW_CHARS = 80
"""Characters of a dead letter's body shown (escaped)."""


def _escaped(text: str, limit: int | None = None) -> str:
    """``text`` safe for a terminal: control and other unprintable characters as escapes
    (what the bank sent is shown, never interpreted); at most ``limit`` characters + ``…``."""
    out: list[str] = []
    size = 0
    for char in text:
        piece = char if char.isprintable() else char.encode("unicode_escape").decode("ascii")
        if limit is not None and size + len(piece) > limit:
            out.append("…")
            break
        out.append(piece)
        size += len(piece)
    return "".join(out)


def _utc(value: dt.datetime | None) -> str:
    return "never" if value is None else f"{value.astimezone(dt.UTC):%Y-%m-%d %H:%M:%S} UTC"


def _ago(seconds: Any) -> str:
    value = max(0, int(seconds))
    if value < 120:
        return f"{value} s ago"
    if value < 7200:
        return f"{value // 60} min ago"
    if value < 172800:
        return f"{value // 3600} h ago"
    return f"{value // 86400} days ago"


def _source_order(source: str) -> tuple[int, str]:
    return (SOURCES.index(source) if source in SOURCES else len(SOURCES), source)


def _summary(conn: psycopg.Connection[Any]) -> None:
    counts = conn.execute(
        "SELECT source, outcome, count(*) FILTER (WHERE received_at > now() - interval"
        " '24 hours') AS day, count(*) AS total FROM treasury.notifications"
        " GROUP BY source, outcome"
    ).fetchall()
    if not counts:
        print("Notifications: none stored yet.")
    else:
        table: dict[str, dict[str, tuple[int, int]]] = {}
        for row in counts:
            table.setdefault(row["source"], {})[row["outcome"]] = (row["day"], row["total"])
        print("Notifications (items), last 24 h / overall:")
        print(f"  {'source':<10}" + "".join(f"{o:>16}" for o in (*OUTCOMES, "total")))
        sums = {outcome: [0, 0] for outcome in (*OUTCOMES, "total")}
        for source in sorted(table, key=_source_order):
            cells = []
            day_sum = total_sum = 0
            for outcome in OUTCOMES:
                day, total = table[source].get(outcome, (0, 0))
                cells.append(f"{day} / {total}")
                day_sum, total_sum = day_sum + day, total_sum + total
                sums[outcome][0] += day
                sums[outcome][1] += total
            cells.append(f"{day_sum} / {total_sum}")
            sums["total"][0] += day_sum
            sums["total"][1] += total_sum
            print(f"  {_escaped(source, 10):<10}" + "".join(f"{c:>16}" for c in cells))
        if len(table) > 1:
            print(f"  {'all':<10}" + "".join(f"{f'{d} / {t}':>16}" for d, t in sums.values()))
        found = conn.execute(
            "SELECT count(*) FILTER (WHERE received_at > now() - interval '24 hours') AS day,"
            " count(*) AS total FROM treasury.notifications WHERE via = 'reconciler'"
        ).fetchone()
        assert found is not None
        print(
            "Found by the reconciler (no notification came), last 24 h / overall: "
            f"{found['day']} / {found['total']}"
        )
    dead = conn.execute(
        "SELECT count(*) FILTER (WHERE received_at > now() - interval '24 hours') AS day,"
        " count(*) AS total FROM treasury.dead_letters"
    ).fetchone()
    assert dead is not None
    print(
        f"Dead letters (unreadable bodies, answered 400), last 24 h / overall: "
        f"{dead['day']} / {dead['total']}" + ("  (see --failed)" if dead["total"] else "")
    )
    receivers = conn.execute(
        "SELECT name, login, url, last_item_at, extract(epoch FROM now() - seen_at) AS seen,"
        " extract(epoch FROM now() - last_item_at) AS item_age FROM treasury.receivers"
        " ORDER BY name"
    ).fetchall()
    if not receivers:
        print("Receivers: none has run against this database.")
        return
    print("Receivers:")
    for row in receivers:
        state = "" if row["seen"] < STALE_SECONDS else "  NOT RUNNING?"
        last = _utc(row["last_item_at"])
        if row["item_age"] is not None:
            last += f" ({_ago(row['item_age'])})"
        print(
            f"  {_escaped(row['name'])} (login {row['login']}): seen {_ago(row['seen'])}, "
            f"last item {last}, url {_escaped(row['url']) or '(none set)'}{state}"
        )


def _dead_letters(conn: psycopg.Connection[Any], limit: int) -> None:
    total = conn.execute("SELECT count(*) AS n FROM treasury.dead_letters").fetchone()
    assert total is not None
    rows = conn.execute(
        "SELECT received_at, receiver, route, peer, size, reason,"
        " substring(body FROM 1 FOR %s) AS head FROM treasury.dead_letters"
        " ORDER BY id DESC LIMIT %s",
        (PREVIEW_CHARS * 4, limit),
    ).fetchall()
    print(f"Dead letters (unreadable bodies, answered 400): {_shown(len(rows), total['n'])}")
    for row in rows:
        peer = _escaped(row["peer"]) or "?"
        print(
            f"  {_utc(row['received_at'])}  /{_escaped(row['route'])} from {peer} via "
            f"{row['receiver']}, {row['size']:,} bytes: {_escaped(row['reason'])}"
        )
        head = bytes(row["head"])
        preview = _escaped(head.decode("utf-8", errors="backslashreplace"), PREVIEW_CHARS)
        if row["size"] > len(head) and not preview.endswith("…"):
            preview += "…"
        print(f"      body: {preview or '(empty)'}")


def _items(conn: psycopg.Connection[Any], outcome: str, title: str, limit: int) -> None:
    total = conn.execute(
        "SELECT count(*) AS n FROM treasury.notifications WHERE outcome = %s", (outcome,)
    ).fetchone()
    assert total is not None
    rows = conn.execute(
        "SELECT received_at, receiver, source, ref, detail, item->>'chave' AS chave,"
        " item->>'txid' AS txid, item->>'idRec' AS id_rec FROM treasury.notifications"
        " WHERE outcome = %s ORDER BY id DESC LIMIT %s",
        (outcome, limit),
    ).fetchall()
    print(f"{title}: {_shown(len(rows), total['n'])}")
    for row in rows:
        about = "".join(
            f" {name}={_escaped(str(row[column]), 80)}"
            for name, column in (("key", "chave"), ("txid", "txid"), ("idRec", "id_rec"))
            if row[column]
        )
        print(
            f"  {_utc(row['received_at'])}  {_escaped(row['source'])} "
            f"{_escaped(row['ref'], 80) or '-'}{about} via {row['receiver']}: "
            f"{_escaped(row['detail']) or '(no detail)'}"
        )


def _shown(shown: int, total: int) -> str:
    if total == 0:
        return "none"
    return f"{total}" if shown == total else f"{total} (the newest {shown} shown)"


def cmd_notifications(conn: psycopg.Connection[Any], args: argparse.Namespace) -> int:
    version = _ready(conn)
    if version < NOTIFICATIONS_SCHEMA:
        raise AdminError(
            f"The team database has schema {version}, without the webhook receiver's tables: "
            "run `treasury-admin migrate`."
        )
    if args.limit < 1:
        raise AdminError("--limit takes a number of rows, 1 or more.")
    if not (args.failed or args.unmatched):
        _summary(conn)
        return 0
    if args.failed:
        _dead_letters(conn, args.limit)
        _items(conn, "failed", "Items that could not be applied", args.limit)
    if args.unmatched:
        _items(
            conn,
            "unmatched",
            "Unmatched items (not about this account; nothing changed)",
            args.limit,
        )
    return 0


# -- entry point -------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    main_parser = argparse.ArgumentParser(
        prog="treasury-admin", description="Administer a treasury team database."
    )
    main_parser.add_argument("--db", help=f"libpq URL of the team database (or ${ENV})")
    commands = main_parser.add_subparsers(dest="command", required=True)
    commands.add_parser("init", help="create roles, schema and migrations")
    commands.add_parser("migrate", help="bring the schema to this version")
    add = commands.add_parser("add-user", help="create a person's login role")
    add.add_argument("name")
    add.add_argument("--role", action="append", required=True, choices=(*PERSON_ROLES, RECEIVER))
    add.add_argument("--password-stdin", action="store_true", help="read a password from stdin")
    add.add_argument(
        "--connection-limit",
        type=int,
        help=f"most connections at once (default: {VIEWER_CONNECTIONS} for a viewer, "
        f"{PERSON_CONNECTIONS} for a maker or approver, {RECEIVER_CONNECTIONS} for a receiver)",
    )
    disable = commands.add_parser("disable-user", help="no more logins; end open sessions")
    disable.add_argument("name")
    enable = commands.add_parser("enable-user", help="let a disabled login in again")
    enable.add_argument("name")
    remove = commands.add_parser("remove-user", help="drop a login (its rows keep its name)")
    remove.add_argument("name")
    remove.add_argument(
        "--withdraw-waiting",
        action="store_true",
        help="withdraw their waiting intents and void their approvals of waiting ones",
    )
    reset = commands.add_parser("reset-password", help="give a login a new password")
    reset.add_argument("name")
    reset.add_argument("--password-stdin", action="store_true", help="read it from stdin")
    reset.add_argument("--end-sessions", action="store_true", help="end the sessions opened before")
    verify = commands.add_parser("verify-audit", help="check the audit's hash chain")
    verify.add_argument("--anchor", action="append", help="a head kept before: SEQ:HASH")
    verify.add_argument("--anchor-file", help="a file of heads kept before, one per line")
    imp = commands.add_parser("import-ledger", help="move a desktop's ledger file in (once)")
    imp.add_argument("file")
    commands.add_parser("status", help="schema, people, counts and the audit head")
    policy = commands.add_parser("policy", help="the approval policy and people's limits")
    policy.add_argument("action", choices=("show", "set", "limit"))
    policy.add_argument("login", nargs="?", help="the person (policy limit)")
    policy.add_argument("--approvals", type=int, help="approvals an intent needs")
    policy.add_argument("--threshold", help="above this amount (or none)...")
    policy.add_argument("--approvals-above", type=int, help="...this many approvals")
    policy.add_argument("--new-payee-extra", type=int, help="more for a payee never paid")
    policy.add_argument("--expiry-hours", help="approvals last H hours (or end-of-day)")
    policy.add_argument("--per-payment", help="policy limit: largest payment (or none)")
    policy.add_argument("--per-day", help="policy limit: total per Brasília day (or none)")
    policy.add_argument(
        "--force", action="store_true", help="policy set: even if the approvers cannot satisfy it"
    )
    stale = commands.add_parser(
        "stale-after",
        help="how long a person's transaction may stay open before a colleague"
        " it holds up may end it",
    )
    stale.add_argument("minutes", nargs="?", type=int, help="minutes (show it when left out)")
    registry = commands.add_parser(
        "registry-policy",
        help="the payee registry: cooling-off hours, payouts only to registered destinations",
    )
    registry.add_argument("--cooling-hours", type=int, help="0 to 720 (default 24)")
    registry.add_argument("--registry-only", choices=("yes", "no"))
    notes = commands.add_parser("notifications", help="what the webhook receivers stored")
    notes.add_argument(
        "--failed", action="store_true", help="dead letters and items that could not be applied"
    )
    notes.add_argument("--unmatched", action="store_true", help="items about someone else")
    notes.add_argument("--limit", type=int, default=50, help="newest N rows of each list")
    return main_parser


COMMANDS = {
    "init": cmd_init,
    "migrate": cmd_migrate,
    "add-user": cmd_add_user,
    "stale-after": cmd_stale_after,
    "registry-policy": cmd_registry_policy,
    "disable-user": cmd_disable_user,
    "enable-user": cmd_enable_user,
    "remove-user": cmd_remove_user,
    "reset-password": cmd_reset_password,
    "verify-audit": cmd_verify_audit,
    "import-ledger": cmd_import_ledger,
    "status": cmd_status,
    "policy": cmd_policy,
    "notifications": cmd_notifications,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        with connect(args.db) as conn:
            return COMMANDS[args.command](conn, args)
    except AdminError as error:
        print(f"treasury-admin: {error}", file=sys.stderr)
        return error.code
    except (TeamSchemaError, LedgerVersionError) as error:
        print(f"treasury-admin: {error}", file=sys.stderr)
        return 2
    except psycopg.errors.InsufficientPrivilege as error:
        print(
            f"treasury-admin: permission denied ({_first_line(error)}): run it with an "
            "administrator's login.",
            file=sys.stderr,
        )
        return 3
    except psycopg.Error as error:
        print(f"treasury-admin: database error: {_first_line(error)}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
