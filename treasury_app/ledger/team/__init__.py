"""The ledger on a team database: PostgreSQL shared by every desktop of a treasury team.

:func:`open_team_ledger` logs in with the person's own role, checks the schema version (an
older app refuses a newer schema, as it refuses a newer file) and returns a
:class:`TeamLedger` whose stores (:mod:`treasury_app.ledger.team.store`) run on the app's
event loop through a small psycopg connection pool. psycopg's async mode needs a selector
event loop: on Windows the app runs qasync's ``QSelectorEventLoop`` (see
:mod:`treasury_app.event_loop`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from treasury_app.domain.errors import Reason
from treasury_app.event_loop import check_loop
from treasury_app.ledger import Backend, Ledger
from treasury_app.ledger.db import LedgerContext, LedgerVersionError, utc_now
from treasury_app.ledger.errors import LedgerOpenError, LedgerRefused, LedgerUnavailable
from treasury_app.ledger.team.anchor import AnchorCheck, anchor_path, read_anchor, write_anchor
from treasury_app.ledger.team.approvals import TeamApprovals
from treasury_app.ledger.team.chain import Anchor
from treasury_app.ledger.team.migrations import TeamSchemaError
from treasury_app.ledger.team.notices import TeamNotices
from treasury_app.ledger.team.payees import TeamPayees
from treasury_app.ledger.team.schedule import TeamSchedule
from treasury_app.ledger.team.schema import APPROVER, MAKER, SCHEMA_VERSION, VIEWER
from treasury_app.ledger.team.settings import TeamDatabase as TeamDatabaseSettings
from treasury_app.ledger.team.store import (
    TeamAudit,
    TeamBatches,
    TeamDatabase,
    TeamDatabaseOffline,
    TeamJournal,
    TeamReceipts,
    offline_kind,
)

__all__ = [
    "TeamDatabaseOffline",
    "TeamDatabaseSettings",
    "TeamIdentity",
    "TeamLedger",
    "TeamLoginError",
    "TeamSchemaError",
    "open_team_ledger",
]

log = logging.getLogger("treasury_app.ledger.team")

POOL_MAX = 8
"""Connections per desktop for the journal's reads and writes."""
CLAIMS_MAX = 16
"""Connections per desktop for claims: each payment being sent or resolved holds one (a batch
sends 4 at a time); more wait for one (up to :data:`CLAIM_WAIT` seconds)."""
CLAIM_WAIT = 60.0


class TeamLoginError(LedgerOpenError):
    """The team database refused this login (the message says why and what to do)."""


@dataclass(frozen=True)
class TeamIdentity:
    """Who this desktop is on the team database, as the database says."""

    user: str
    roles: tuple[str, ...]
    server_version: str

    @property
    def can_write(self) -> bool:
        return MAKER in self.roles or APPROVER in self.roles


class TeamLedger(Ledger):
    backend: Backend = "team"
    journal: TeamJournal
    audit: TeamAudit
    notices: TeamNotices

    def __init__(
        self,
        pool: AsyncConnectionPool,
        claims_pool: AsyncConnectionPool,
        settings: TeamDatabaseSettings,
        context: LedgerContext,
        identity: TeamIdentity,
        receipts_dir: Path,
        clock_offset: timedelta = timedelta(0),
    ) -> None:
        self.pool = pool
        self.claims_pool = claims_pool
        self.settings = settings
        self.context = context
        self.identity = identity
        self.path = None
        self.clock_offset = clock_offset
        self.clock = self._server_clock
        self.db = TeamDatabase(pool)
        self.journal = TeamJournal(self.db, context, TeamDatabase(claims_pool))
        self.journal.clock = self._server_clock
        self.audit = TeamAudit(self.db, context)
        self.schedule = TeamSchedule(self.db, context)
        self.payees = TeamPayees(self.db)
        self.batches = TeamBatches(self.db, context)
        self.receipts = TeamReceipts(self.db, receipts_dir)
        self.approvals = TeamApprovals(self.db)
        self.notices = TeamNotices(self.db)

    def describe(self) -> str:
        return self.settings.describe()

    def _server_clock(self) -> datetime:
        """The database server's clock (which stamps every row), from this computer's and
        the difference measured at login: an entry's age is the same on every desktop."""
        return utc_now() + self.clock_offset

    async def close(self) -> None:
        if self.audit.pending:  # a row of ours was left unsealed: chain it (best effort)
            try:
                await self.audit.seal()
            except (LedgerUnavailable, LedgerRefused) as error:
                log.info("audit left to the next sealer: %s", error)
        await self.claims_pool.close()
        await self.pool.close()

    async def feed_position(self) -> str:
        """Now, as a position of the change feed: a feed started from it reads every change
        committed after now (:class:`~treasury_app.ledger.team.changes.ChangeFeed`)."""
        row = await self.db.row("SELECT pg_current_snapshot()::text AS now")
        assert row is not None
        return str(row["now"])

    async def check_anchor(self, folder: Path) -> AnchorCheck:
        """Check the audit head this desktop kept in ``folder`` against the chain, then keep
        the current head (unless the chain no longer holds the kept one: that stays kept, so
        the warning repeats until someone looks)."""
        path = anchor_path(folder, self.describe())
        kept = read_anchor(path)
        seq, digest = await self.audit.head()
        head = Anchor(seq, digest)
        ok = kept is None or (
            kept.seq <= head.seq and await self.audit.link_at(kept.seq) == kept.hash
        )
        if ok:
            write_anchor(path, head, self.describe())
        else:
            log.error("team audit anchor %s is not in the chain any more", kept)
        return AnchorCheck(ok, kept, head)


def _pool_kwargs() -> dict[str, Any]:
    # No server-side prepared statements: they break behind PgBouncer in transaction mode.
    return {"autocommit": True, "row_factory": dict_row, "prepare_threshold": None}


async def open_team_ledger(
    settings: TeamDatabaseSettings,
    *,
    profile: str,
    password: str | None,
    receipts_dir: Path,
) -> TeamLedger:
    """Log in to the team database and check it; raises :class:`TeamLoginError`,
    :class:`TeamSchemaError`, :class:`LedgerVersionError` or :class:`TeamDatabaseOffline`."""
    check_loop()
    conninfo = settings.conninfo(password)
    try:
        probe = await psycopg.AsyncConnection.connect(conninfo, **_pool_kwargs())
    except psycopg.OperationalError as error:
        raise _login_error(settings, error) from None
    async with probe:
        identity, version = await _identify(probe)
        asked = utc_now()
        cursor = await probe.execute("SELECT clock_timestamp() AS now")
        answered = utc_now()
        row = await cursor.fetchone()
        assert row is not None
        clock_offset = row["now"] - (asked + (answered - asked) / 2)
    if not identity.roles:
        raise TeamLoginError(
            f"The login {identity.user!r} is not a member of a treasury role "
            f"({MAKER}, {APPROVER} or {VIEWER}): ask the administrator "
            "(`treasury-admin add-user`).",
            reason=Reason("team.login_no_role", {"user": identity.user}),
        )
    if version is None:
        raise TeamSchemaError(
            f"{settings.describe()} is not a treasury team database yet: its administrator "
            "runs `treasury-admin init`.",
            reason=Reason("team.not_prepared", {"where": settings.describe()}),
        )
    if version > SCHEMA_VERSION:
        raise LedgerVersionError(
            f"The team database has schema {version}; this version of the app reads up to "
            f"{SCHEMA_VERSION}. Update the app; nothing was changed.",
            reason=Reason("team.newer_schema", {"schema": version, "supported": SCHEMA_VERSION}),
        )
    if version < SCHEMA_VERSION:
        raise TeamSchemaError(
            f"The team database has schema {version}; this app needs {SCHEMA_VERSION}. Its "
            "administrator runs `treasury-admin migrate`.",
            reason=Reason("team.older_schema", {"schema": version, "needed": SCHEMA_VERSION}),
        )
    pool = AsyncConnectionPool(
        conninfo,
        min_size=1,
        max_size=POOL_MAX,
        open=False,
        timeout=settings.connect_timeout,
        max_lifetime=1800,
        reconnect_timeout=0,
        check=AsyncConnectionPool.check_connection,
        kwargs=_pool_kwargs(),
        name=f"treasury-{profile}",
    )
    claims_pool = AsyncConnectionPool(
        conninfo,
        min_size=0,
        max_size=CLAIMS_MAX,
        open=False,
        timeout=CLAIM_WAIT,
        max_lifetime=1800,
        reconnect_timeout=0,
        check=AsyncConnectionPool.check_connection,
        kwargs=_pool_kwargs(),
        name=f"treasury-{profile}-claims",
    )
    try:
        await pool.open(wait=True, timeout=settings.connect_timeout + 5)
        await claims_pool.open()
    except PoolTimeout as error:
        await pool.close()
        await claims_pool.close()
        raise TeamDatabaseOffline(
            str(error), kind="timeout", host=settings.host, port=settings.port
        ) from None
    context = LedgerContext(profile=profile, os_user=identity.user)
    log.info("team ledger %s open as %s %s", settings.describe(), identity.user, identity.roles)
    if abs(clock_offset) > timedelta(minutes=2):
        log.warning("this computer's clock differs from the team database's by %s", clock_offset)
    return TeamLedger(
        pool, claims_pool, settings, context, identity, receipts_dir, clock_offset=clock_offset
    )


async def _identify(conn: psycopg.AsyncConnection[Any]) -> tuple[TeamIdentity, int | None]:
    cursor = await conn.execute(
        "SELECT session_user AS who, current_setting('server_version') AS version,"
        " EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'treasury') AS has_schema"
    )
    row = await cursor.fetchone()
    assert row is not None
    roles: list[str] = []
    for role in (MAKER, APPROVER, VIEWER):
        cursor = await conn.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = %s)"
            " AND pg_has_role(session_user, %s, 'MEMBER') AS member",
            (role, role),
        )
        found = await cursor.fetchone()
        if found and found["member"]:
            roles.append(role)
    version: int | None = None
    if row["has_schema"]:
        try:
            cursor = await conn.execute("SELECT version FROM treasury.schema_version")
            found = await cursor.fetchone()
            version = int(found["version"]) if found else 0
        except psycopg.errors.InsufficientPrivilege:
            version = None
    return TeamIdentity(str(row["who"]), tuple(roles), str(row["version"])), version


def _login_error(settings: TeamDatabaseSettings, error: psycopg.OperationalError) -> Exception:
    text = str(error).strip()
    lowered = text.lower()
    where = settings.describe()
    state = getattr(error, "sqlstate", None)
    if (
        state == "28P01"
        or "password authentication failed" in lowered
        or "no password supplied" in lowered
    ):
        return TeamLoginError(
            f"The team database refused the password of {where}.",
            reason=Reason("team.login_password", {"where": where}),
        )
    if "does not exist" in lowered and "role" in lowered:
        return TeamLoginError(
            f"The team database has no login {settings.user!r}: ask the administrator "
            "(`treasury-admin add-user`).",
            reason=Reason("team.login_unknown", {"user": settings.user}),
        )
    if state == "3D000" or ("does not exist" in lowered and "database" in lowered):
        return TeamLoginError(
            f"The server has no database {settings.dbname!r}.",
            reason=Reason("team.login_no_database", {"dbname": settings.dbname}),
        )
    if "certificate" in lowered or "ssl" in lowered:
        return TeamLoginError(
            f"The secure connection to {where} failed: {text.splitlines()[0]}",
            reason=Reason("team.login_tls", {"where": where}),
        )
    if state == "42501" or "permission denied" in lowered:
        return TeamLoginError(
            f"{where}: {text.splitlines()[0]}",
            reason=Reason("team.login_denied", {"where": where}),
        )
    return TeamDatabaseOffline(
        text.splitlines()[0] if text else type(error).__name__,
        kind=offline_kind(error),
        host=settings.host,
        port=settings.port,
    )
