"""Ledgers for tests, on every backend: the file on this computer and the team database.

``ledger_backend`` is parametrized over :data:`LEDGER_BACKENDS`, so a test that asks for
``ledger`` (or opens one with :func:`opened_ledger`) runs once per backend and the two cannot
drift. The team backend's database is a fresh copy, per ledger, of a template migrated once
per session on the suite's own PostgreSQL (``tests/pg_server.py``); its login is a role of the
test's choosing, member of ``treasury_maker`` and ``treasury_approver``.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from tests.pg_fixtures import pg_database_factory, pg_server  # noqa: F401  (fixtures)
from tests.pg_server import PgServer
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.ledger.team import TeamDatabaseSettings, open_team_ledger
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.schema import APPROVER, MAKER

LEDGER_BACKENDS: tuple[str, ...] = ("file", "team")
SOLO_POLICY: dict[str, Any] = {"approvals": 0, "approvals_above": 0, "new_payee_extra": 0}
DEFAULT_POLICY: dict[str, Any] = {
    "approvals": 1,
    "threshold": Decimal("10000"),
    "approvals_above": 2,
    "new_payee_extra": 1,
    "expiry_hours": None,
}


class SpareDatabases:
    """Copies of the template made ahead, on a thread of their own, while tests run.

    A ``CREATE DATABASE`` costs some 0.2 s whatever the server's settings (measured: the same
    with fsync off, WAL_LOG or FILE_COPY), and hundreds of tests want a fresh team database:
    made ahead, most of that time is spent while the test before waits on the bank. A copy that
    failed (the server stopped by an "offline" test) is made again when it is asked for."""

    def __init__(self, make: Callable[..., str], ahead: int = 2) -> None:
        self._make = make
        self._ahead = ahead
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="spare-databases")
        self._made: deque[Future[str]] = deque()

    def take(self) -> str:
        while len(self._made) < self._ahead + 1:
            self._made.append(self._pool.submit(self._make))
        made = self._made.popleft()
        self._made.append(self._pool.submit(self._make))
        try:
            return made.result()
        except Exception:
            return self._make(start=True)  # its error, if it fails again, is the test's

    def close(self) -> None:
        for made in self._made:
            made.cancel()
        self._pool.shutdown(wait=True)


@dataclass
class TeamDatabases:
    """The session's team databases: a migrated template and copies of it."""

    server: PgServer
    template: str
    roles: set[str] = field(default_factory=set)
    counter: int = 0
    spares: SpareDatabases | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def new_database(self, *, policy: dict[str, Any] | None = None) -> str:
        """A fresh migrated team database (database-level privileges applied), without dual
        control unless ``policy`` (settings of ``set_policy``; ``{}``: the default policy)."""
        spares = self.spares
        name = spares.take() if spares is not None else self.copy_of_template(start=True)
        if policy is not None:
            with psycopg.connect(self.server.url(name), autocommit=True) as conn:
                team_migrations.set_policy(conn, **(DEFAULT_POLICY | policy))
        return name

    def copy_of_template(self, *, start: bool = False) -> str:
        """A new copy of the template, its database-level privileges applied. ``start``: start
        the server first if an "offline" test left it stopped (never from the spares' thread,
        which would start it under a test that stopped it)."""
        with self._lock:
            self.counter += 1
            name = f"team_{self.counter}_{id(self) % 100000}"
        if start and not self.server.running:
            self.server.start()
        self.server.create_database(name, template=self.template)
        with psycopg.connect(self.server.url(name), autocommit=True) as conn:
            team_migrations.harden_database(conn)
        return name

    def person(self, name: str, *roles: str) -> str:
        """A login role ``name`` (members of ``roles``; by default maker and approver)."""
        wanted = roles or (MAKER, APPROVER)
        with psycopg.connect(self.server.url("postgres"), autocommit=True) as conn:
            exists = conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (name,)).fetchone()
            if not exists:
                conn.execute(sql.SQL("CREATE ROLE {} LOGIN").format(sql.Identifier(name)))
            for role in wanted:
                conn.execute(
                    sql.SQL("GRANT {} TO {}").format(sql.Identifier(role), sql.Identifier(name))
                )
        self.roles.add(name)
        return name

    def settings(self, database: str, user: str) -> TeamDatabaseSettings:
        return TeamDatabaseSettings(
            host=self.server.host,
            port=self.server.port,
            dbname=database,
            user=user,
            sslmode="disable",
            connect_timeout=2,  # "offline" within 2 s when a test stops the server
        )


_team: TeamDatabases | None = None


@pytest.fixture(scope="session")
def team_databases(pg_server: PgServer) -> Iterator[TeamDatabases]:
    global _team
    template = "treasury_template"
    pg_server.create_database(template)
    with psycopg.connect(pg_server.url(template), autocommit=True) as conn:
        team_migrations.init(conn)
        # Part 1's tests (one person journals and sends) run without dual control; the
        # approval tests set a policy of their own (`new_database(policy=...)`).
        team_migrations.set_policy(conn, **SOLO_POLICY)
    _team = TeamDatabases(pg_server, template)
    _team.spares = SpareDatabases(_team.copy_of_template)
    try:
        yield _team
    finally:
        _team.spares.close()
        _team = None


def team() -> TeamDatabases:
    if _team is None:
        raise RuntimeError("the team databases are not set up: ask for `team_databases`")
    return _team


@asynccontextmanager
async def opened_ledger(
    backend: str,
    folder: Path,
    *,
    profile: str = "test",
    user: str = "tester",
    database: str | None = None,
) -> AsyncIterator[Ledger]:
    """A real, migrated ledger of ``backend`` for ``profile`` (closed afterwards): empty, or
    on the team backend the existing ``database`` (two desktops sharing one)."""
    ledger: Ledger
    if backend == "file":
        ledger = open_ledger(folder / "ledger.sqlite3", profile=profile, user=user)
    elif backend == "team":
        databases = team()
        name = database or databases.new_database()
        if user not in databases.roles:
            databases.person(user)
        ledger = await open_team_ledger(
            databases.settings(name, user),
            profile=profile,
            password=None,
            receipts_dir=folder / "receipts",
        )
    else:
        raise ValueError(f"unknown ledger backend {backend!r}")
    try:
        yield ledger
    finally:
        await ledger.close()


@pytest.fixture(scope="module", params=LEDGER_BACKENDS)
def ledger_backend(request: pytest.FixtureRequest) -> str:
    """Module-scoped, so a module's tests run grouped by backend and a module fixture that
    keeps state of its own (a sandbox bank whose slips get paid) can take one per backend."""
    if request.param == "team":
        request.getfixturevalue("team_databases")
    return str(request.param)


@pytest.fixture
async def ledger(ledger_backend: str, tmp_path: Path) -> AsyncIterator[Ledger]:
    """A real ledger of the test's own, on each backend in turn."""
    async with opened_ledger(ledger_backend, tmp_path) as opened:
        yield opened
