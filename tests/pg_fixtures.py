"""pytest fixtures for a throwaway PostgreSQL server (see ``tests/pg_server.py``).

Import them in a conftest (``from tests.pg_fixtures import pg_server, pg_database,
pg_database_factory``). The server starts only when a test asks for one of them, once per
session, and is stopped and deleted at the end of the session (also after failures or
Ctrl-C: an atexit hook backs the fixture's finaliser up). No pytest-xdist needed or assumed.
"""

from __future__ import annotations

import itertools
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.pg_server import PgServer, start_server

DatabaseFactory = Callable[..., str]

_counter = itertools.count(1)


def unique_database_name(prefix: str = "test") -> str:
    """A database name no other test (nor another pytest run on this server) uses."""
    return f"{prefix}_{os.getpid()}_{next(_counter)}_{uuid.uuid4().hex[:8]}"


@pytest.fixture(scope="session")
def pg_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PgServer]:
    """A running PostgreSQL server for the whole session (Debian's, else the embedded wheel)."""
    server = start_server(Path(tmp_path_factory.mktemp("pg")))
    try:
        yield server
    finally:
        server.close()


@pytest.fixture(scope="session")
def pg_database_factory(pg_server: PgServer) -> Iterator[DatabaseFactory]:
    """``make(template=None) -> name``: a new database (empty, or a copy of ``template``).

    Every database made goes with the session's cluster, deleted at its end.
    """

    def make(template: str | None = None) -> str:
        name = unique_database_name()
        if not pg_server.running:  # an "offline" test stopped it and did not restart it
            pg_server.start()
        pg_server.create_database(name, template=template)
        return name

    yield make  # no drops at the end: the session's cluster is deleted with all of them


@pytest.fixture
def pg_database(pg_server: PgServer, pg_database_factory: DatabaseFactory) -> Iterator[str]:
    """The name of a fresh empty database for this test, dropped afterwards."""
    name = pg_database_factory()
    yield name
    if not pg_server.running:  # a test stopped the server ("offline" tests): bring it back
        pg_server.start()
    pg_server.drop_database(name)
