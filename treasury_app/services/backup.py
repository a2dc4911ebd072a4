"""Backups that survive the PC: the profile's ledger and receipts, copied to a folder the
person or the machine's policy chooses (another disk, a network share), kept N days, and a
restore that checks what it restores before anything is replaced.

A backup is a folder ``treasury-backup-<profile>-<yyyymmdd>-<hhmmss>`` (Brasília time):

* ``ledger.sqlite3``: the journal of payments, the audit, the receipts index and the batches,
  as one instant's snapshot taken with SQLite's online backup API (the app keeps writing
  meanwhile; never a file copy of a live database);
* ``receipts/<aa>/<sha256>.pdf``: the receipt PDFs;
* ``manifest.json``, written last: the SHA-256 and size of every file, the app's version, the
  ledger's schema version, how many payments and receipts, when (Brasília time) and why.

It is written under a hidden temporary name (``.treasury-backup-….partial-…``) in the target
folder and renamed when complete: a folder without its manifest, or under its temporary name,
is never taken for a backup (not listed, not restored, not pruned as a good one). Pruning
removes only this computer's backups of this profile older than N days whose manifest still
verifies, and only the files that manifest lists; nothing else in the folder is touched.

A team database is the record of a shared desk (its administrator backs it up); a desktop in
team mode backs up its local cache (the receipts it keeps) only, and refuses to restore one.

Everything here is plain files and :mod:`pathlib` (a Windows share is ``\\\\server\\share\\…``);
SQLite never opens a file on the share: the snapshot is taken on this computer and streamed
there, and a restore first copies the backup here, where it is checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hashlib
import json
import logging
import os
import platform
import re
import secrets
import shutil
import sqlite3
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, TypeVar

from treasury_app import __version__
from treasury_app.domain.clock import Clock, brasilia_date, brasilia_now, brasilia_today
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.backup import (
    BackupError,
    ledger_facts,
    replace_contents,
    snapshot_connection,
    snapshot_file,
    upgrade_copy,
)
from treasury_app.ledger.db import SCHEMA_VERSION

if TYPE_CHECKING:
    from treasury_app.ledger import Ledger

log = logging.getLogger("treasury_app.services.backup")

T = TypeVar("T")

FORMAT = "treasury-backup"
FORMAT_VERSION = 1
MANIFEST = "manifest.json"
LEDGER_FILE = "ledger.sqlite3"
RECEIPTS = "receipts"
PREFIX = "treasury-backup-"
PARTIAL = ".partial-"
DEFAULT_KEEP_DAYS = 30
MAX_KEEP_DAYS = 3650
STALE_PARTIAL = dt.timedelta(days=1)
"""A temporary folder of ours older than this was left by a backup that died (a killed
process, a computer turned off): removed by the next backup. A younger one may be another
desktop's backup under way in the same folder."""
DAILY_RETRY = dt.timedelta(hours=1)
"""After a daily backup failed (the share offline), the next attempt waits this long."""
CHUNK = 1024 * 1024
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation

_NAME = re.compile(r"^treasury-backup-(?P<profile>[\w\- ]+)-(?P<stamp>\d{8}-\d{6})(?:-\d+)?$")
_PARTIAL_NAME = re.compile(r"^\.treasury-backup-.+\.partial-[0-9a-f]+$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")


class BackupRefused(RuleError):
    """A backup or a restore was refused or failed; its code says why, and nothing was
    changed (a backup under way is removed, the live ledger is left as it was)."""


class BackupCancelled(Exception):
    """The backup was abandoned (the app closing could not wait for it); its temporary folder
    is removed."""


# -- settings --------------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupPolicy:
    """What the machine's policy says of backups (``None`` fields: the person chooses). The
    policy reader builds one; the app hands it to :func:`effective_settings`."""

    folder: Path | None = None
    keep_days: int | None = None
    locked: bool = False
    """The person cannot change what the policy sets."""


@dataclass(frozen=True)
class BackupSettings:
    """Where automatic backups go (``None``: nowhere chosen, none made) and for how long they
    are kept; ``locked``: set by the machine's policy, not editable in Settings."""

    folder: Path | None = None
    keep_days: int = DEFAULT_KEEP_DAYS
    locked: bool = False


def effective_settings(
    folder: Path | None, keep_days: int | None, policy: BackupPolicy | None = None
) -> BackupSettings:
    """The person's choice (``folder``, ``keep_days``; ``None``: not chosen) under the
    machine's ``policy``: a locked policy decides (an empty field of it stays empty or the
    default); an unlocked one only fills what the person has not chosen."""
    if policy is not None and policy.locked:
        folder, keep_days = policy.folder, policy.keep_days
    elif policy is not None:
        folder = folder if folder is not None else policy.folder
        keep_days = keep_days if keep_days is not None else policy.keep_days
    days = DEFAULT_KEEP_DAYS if keep_days is None else int(keep_days)
    return BackupSettings(
        folder=folder,
        keep_days=min(max(days, 1), MAX_KEEP_DAYS),
        locked=bool(policy and policy.locked),
    )


# -- what a backup is ------------------------------------------------------------------------


@dataclass(frozen=True)
class BackupFile:
    sha256: str
    size: int


@dataclass(frozen=True)
class BackupInfo:
    """A backup as its manifest describes it."""

    path: Path
    profile: str
    created_at: dt.datetime
    """When it was taken, Brasília time (aware)."""
    reason: str
    """``manual``, ``daily``, ``close`` or ``before-restore``."""
    computer: str
    app_version: str
    backend: str
    """``file`` (the ledger and its receipts) or ``team`` (the receipts cache only)."""
    schema_version: int | None
    payments: int | None
    receipts: int
    files: Mapping[str, BackupFile] = field(default_factory=dict)

    @property
    def day(self) -> dt.date:
        """Its Brasília date."""
        return brasilia_date(self.created_at)

    @property
    def size(self) -> int:
        return sum(entry.size for entry in self.files.values())


@dataclass(frozen=True)
class BackupSource:
    """What one profile's backup is made of, and where this computer keeps it."""

    profile: str
    ledger_path: Path | None
    """The ledger file (``None``: a team database, whose local cache only is backed up)."""
    receipts_dir: Path
    work_dir: Path
    """A folder on this computer for the snapshot and a restore's staging (the ledgers
    folder: same disk, the owner's only)."""

    @property
    def set_aside_dir(self) -> Path:
        """Where a restore keeps the data it replaces, as a backup of its own."""
        return self.work_dir / f"{self.profile}-set-aside"


def this_computer() -> str:
    return platform.node() or "unknown"


# -- writing ---------------------------------------------------------------------------------


def _check_cancel(cancel: threading.Event | None) -> None:
    if cancel is not None and cancel.is_set():
        raise BackupCancelled


def copy_hashing(source: Path, target: Path, cancel: threading.Event | None = None) -> BackupFile:
    """Copy ``source`` to the new file ``target`` and return the SHA-256 and size of what was
    copied; synced to disk before it returns."""
    digest = hashlib.sha256()
    size = 0
    # The owner's only where the file system has modes (a share applies its own ACL).
    handle = os.open(target, os.O_CREAT | os.O_EXCL | os.O_WRONLY | _BINARY, 0o600)
    with open(source, "rb") as reader, open(handle, "wb") as writer:
        while chunk := reader.read(CHUNK):
            _check_cancel(cancel)
            digest.update(chunk)
            writer.write(chunk)
            size += len(chunk)
        writer.flush()
        os.fsync(writer.fileno())
    return BackupFile(digest.hexdigest(), size)


def file_digest(path: Path) -> BackupFile:
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as reader:
        while chunk := reader.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return BackupFile(digest.hexdigest(), size)


def _stamp(moment: dt.datetime) -> str:
    # Digit by digit: strftime follows the C library's locale (see domain/clock.py).
    return (
        f"{moment.year:04d}{moment.month:02d}{moment.day:02d}-"
        f"{moment.hour:02d}{moment.minute:02d}{moment.second:02d}"
    )


def _receipt_files(receipts_dir: Path) -> Iterator[tuple[str, Path]]:
    """``(name in the backup, file)`` of every receipt PDF (``receipts/aa/<sha>.pdf``)."""
    if not receipts_dir.is_dir():
        return
    for path in sorted(receipts_dir.rglob("*.pdf")):
        if path.is_file() and not path.name.startswith("."):
            relative = PurePosixPath(*path.relative_to(receipts_dir).parts)
            yield f"{RECEIPTS}/{relative}", path


def write_backup(
    source: BackupSource,
    folder: Path,
    *,
    clock: Clock,
    reason: str,
    cancel: threading.Event | None = None,
    computer: str | None = None,
    snapshot: Path | None = None,
) -> BackupInfo:
    """Write one complete backup of ``source`` into ``folder`` and return it. Runs in any
    thread (its own SQLite connection). ``snapshot``: a ledger copy already taken (a restore's
    set-aside), used instead of a new one. Any failure removes what was written
    (:class:`BackupRefused` ``backup.failed`` for the disk's or the share's errors)."""
    if not folder.is_dir():
        raise BackupRefused("backup.folder_missing", field="folder", folder=str(folder))
    _refuse_own_folders(source, folder)
    now = brasilia_now(clock)
    name = f"{PREFIX}{source.profile}-{_stamp(now)}"
    partial = folder / f".{name}{PARTIAL}{secrets.token_hex(4)}"
    local: Path | None = None
    try:
        partial.mkdir(mode=0o700)
        files: dict[str, BackupFile] = {}
        schema = payments = None
        receipts = 0
        if source.ledger_path is not None:
            local = snapshot
            if local is None:
                local = source.work_dir / f".{name}{PARTIAL}{secrets.token_hex(4)}.sqlite3"
                os.close(os.open(local, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
                snapshot_file(source.ledger_path, local)
            facts = ledger_facts(local)
            if facts.check != "ok":
                raise BackupRefused("backup.ledger_damaged", check=facts.check)
            schema, payments, receipts = facts.schema_version, facts.payments, facts.receipts
            _check_cancel(cancel)
            files[LEDGER_FILE] = copy_hashing(local, partial / LEDGER_FILE, cancel)
        for relative, path in _receipt_files(source.receipts_dir):
            _check_cancel(cancel)
            target = partial.joinpath(*PurePosixPath(relative).parts)
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            files[relative] = copy_hashing(path, target, cancel)
        if source.ledger_path is None:
            receipts = sum(1 for name_ in files if name_.startswith(f"{RECEIPTS}/"))
        manifest = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "profile": source.profile,
            "created_at": now.isoformat(timespec="seconds"),
            "reason": reason,
            "computer": computer or this_computer(),
            "app_version": __version__,
            "backend": "file" if source.ledger_path is not None else "team",
            "schema_version": schema,
            "payments": payments,
            "receipts": receipts,
            "files": {
                key: {"sha256": value.sha256, "size": value.size}
                for key, value in sorted(files.items())
            },
        }
        _check_cancel(cancel)
        _write_manifest(partial / MANIFEST, manifest)
        final = _free_name(folder, name)
        partial.rename(final)  # complete, or not there: never half a backup under its name
    except BackupCancelled:
        _remove_partial(partial)
        raise
    except OSError as error:
        _remove_partial(partial)
        raise BackupRefused(
            "backup.failed", folder=str(folder), error=f"{type(error).__name__}: {error}"
        ) from error
    except BaseException:
        _remove_partial(partial)
        raise
    finally:
        if local is not None and snapshot is None:
            local.unlink(missing_ok=True)
    return read_manifest(final)


def _refuse_own_folders(source: BackupSource, folder: Path) -> None:
    """A backup beside the ledger, or among the receipts, would be lost with them."""
    with contextlib.suppress(OSError):
        target = folder.resolve()
        own = (source.work_dir.resolve(), source.receipts_dir.resolve())
        if target == own[0] or target == own[1] or own[1] in target.parents:
            raise BackupRefused("backup.inside_ledgers", field="folder", folder=str(folder))


def _write_manifest(path: Path, manifest: Mapping[str, Any]) -> None:
    with open(path, "x", encoding="utf-8") as out:
        json.dump(manifest, out, ensure_ascii=False, indent=2)
        out.write("\n")
        out.flush()
        os.fsync(out.fileno())


def _free_name(folder: Path, name: str) -> Path:
    candidate = folder / name
    number = 2
    while candidate.exists():
        candidate = folder / f"{name}-{number}"
        number += 1
    return candidate


def _remove_partial(partial: Path) -> None:
    """Remove one of our own temporary folders (only ever a ``.…partial-…`` name)."""
    if _PARTIAL_NAME.match(partial.name):
        shutil.rmtree(partial, ignore_errors=True)


# -- reading ---------------------------------------------------------------------------------


def _safe_relative(name: str) -> PurePosixPath:
    """A file name from a manifest, refused if it would lead outside the backup."""
    relative = PurePosixPath(name)
    parts = relative.parts
    if (
        not parts
        or relative.is_absolute()
        or any(part in ("", ".", "..") or ":" in part or "\\" in part for part in parts)
        or (parts[0] != RECEIPTS and name != LEDGER_FILE)
    ):
        raise BackupRefused("backup.manifest_unreadable", file=name)
    return relative


def read_manifest(path: Path) -> BackupInfo:
    """The backup in folder ``path`` as its manifest says (files not checked yet):
    ``backup.incomplete`` without a manifest, ``backup.manifest_unreadable`` for one that is
    not ours or not whole."""
    manifest_path = path / MANIFEST
    if not manifest_path.is_file():
        raise BackupRefused("backup.incomplete", folder=str(path))
    try:
        data = json.loads(manifest_path.read_text("utf-8"))
        if data.get("format") != FORMAT or not isinstance(data.get("files"), dict):
            raise ValueError("not a treasury backup")
        if int(data.get("format_version", 0)) > FORMAT_VERSION:
            raise BackupRefused("backup.newer_format", folder=str(path))
        files = {}
        for name, entry in data["files"].items():
            _safe_relative(name)
            sha, size = str(entry["sha256"]), int(entry["size"])
            if not _SHA256.match(sha) or size < 0:
                raise ValueError(f"bad entry for {name}")
            files[name] = BackupFile(sha, size)
        created = dt.datetime.fromisoformat(str(data["created_at"]))
        brasilia_date(created)  # refuses a naive stamp
        schema = data.get("schema_version")
        payments = data.get("payments")
        return BackupInfo(
            path=path,
            profile=str(data["profile"]),
            created_at=created,
            reason=str(data.get("reason", "")),
            computer=str(data.get("computer", "")),
            app_version=str(data.get("app_version", "")),
            backend=str(data.get("backend", "file")),
            schema_version=None if schema is None else int(schema),
            payments=None if payments is None else int(payments),
            receipts=int(data.get("receipts", 0)),
            files=files,
        )
    except BackupRefused:
        raise
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
        log.info("backup manifest %s not readable: %s", manifest_path, error)
        raise BackupRefused("backup.manifest_unreadable", folder=str(path)) from error


def list_backups(folder: Path, *, profile: str | None = None) -> list[BackupInfo]:
    """The complete backups in ``folder`` (of ``profile``, if given), newest first. A folder
    under a temporary name, without a manifest or with one that is not ours is left out."""
    found: list[BackupInfo] = []
    try:
        children = list(folder.iterdir())
    except OSError as error:
        raise BackupRefused("backup.folder_missing", field="folder", folder=str(folder)) from error
    for child in children:
        if not _NAME.match(child.name) or not child.is_dir():
            continue
        try:
            info = read_manifest(child)
        except BackupRefused:
            continue
        if profile is None or info.profile == profile:
            found.append(info)
    found.sort(key=lambda info: (info.created_at, info.path.name), reverse=True)
    return found


def verify_files(info: BackupInfo, cancel: threading.Event | None = None) -> None:
    """Every file of ``info`` there, with the size and SHA-256 its manifest says
    (``backup.file_missing`` / ``backup.file_changed``)."""
    for name, entry in info.files.items():
        _check_cancel(cancel)
        path = info.path.joinpath(*_safe_relative(name).parts)
        if not path.is_file():
            raise BackupRefused("backup.file_missing", file=name)
        if file_digest(path) != entry:
            raise BackupRefused("backup.file_changed", file=name)


# -- keeping N days --------------------------------------------------------------------------


def prune(
    folder: Path,
    *,
    profile: str,
    keep_days: int,
    clock: Clock,
    computer: str | None = None,
) -> list[Path]:
    """Remove this computer's backups of ``profile`` older than ``keep_days`` Brasília days
    (today is one of them) whose manifest verifies; the newest backup always stays. Only the
    files a manifest lists go (a folder left with anything else in it stays). Returns the
    backups removed."""
    computer = computer or this_computer()
    oldest_kept = brasilia_today(clock) - dt.timedelta(days=max(keep_days, 1) - 1)
    backups = list_backups(folder, profile=profile)
    removed: list[Path] = []
    for info in backups[1:]:
        if info.computer != computer or info.day >= oldest_kept:
            continue
        try:
            verify_files(info)
        except BackupRefused as refused:
            log.warning("backup %s not pruned: %s", info.path, refused)
            continue
        _remove_backup(info)
        removed.append(info.path)
    _remove_stale_partials(folder, profile, clock)
    return removed


def _remove_backup(info: BackupInfo) -> None:
    # Under a temporary name first: a removal cut short leaves no half backup under its name.
    doomed = info.path.with_name(f".{info.path.name}{PARTIAL}{secrets.token_hex(4)}")
    info.path.rename(doomed)
    for name in info.files:
        doomed.joinpath(*_safe_relative(name).parts).unlink(missing_ok=True)
    (doomed / MANIFEST).unlink(missing_ok=True)
    for directory in sorted(
        (path for path in doomed.rglob("*") if path.is_dir()),
        key=lambda path: len(path.parts),
        reverse=True,
    ):
        with contextlib.suppress(OSError):  # not empty: something not ours is in it
            directory.rmdir()
    with contextlib.suppress(OSError):
        doomed.rmdir()


def _remove_stale_partials(folder: Path, profile: str, clock: Clock) -> None:
    """Our own temporary folders of ``profile`` left by a backup that died long ago."""
    limit = clock().timestamp() - STALE_PARTIAL.total_seconds()
    for child in folder.iterdir():
        if (
            _PARTIAL_NAME.match(child.name)
            and child.name.startswith(f".{PREFIX}{profile}-")
            and child.is_dir()
        ):
            with contextlib.suppress(OSError):
                if child.stat().st_mtime < limit:
                    _remove_partial(child)


def latest_day(folder: Path, *, profile: str, computer: str | None = None) -> dt.date | None:
    """The Brasília date of this computer's newest backup of ``profile`` in ``folder``."""
    computer = computer or this_computer()
    for info in list_backups(folder, profile=profile):
        if info.computer == computer:
            return info.day
    return None


# -- restoring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PreparedRestore:
    """A backup copied to this computer and checked: what a restore will bring back."""

    backup: BackupInfo
    staged: Path
    payments: int
    receipts: int
    schema_version: int


@dataclass(frozen=True)
class RestoreResult:
    backup: BackupInfo
    set_aside: Path
    """The data that was replaced, kept as a backup of its own."""
    payments: int
    receipts: int


def prepare_restore(
    path: Path, source: BackupSource, cancel: threading.Event | None = None
) -> PreparedRestore:
    """Copy the backup in ``path`` to this computer and check it: every file's SHA-256
    against its manifest, ``PRAGMA integrity_check`` of its ledger, a schema this version
    reads, the same profile. Nothing live is touched; a refusal leaves no copy behind."""
    info = read_manifest(path)
    if info.backend != "file" or LEDGER_FILE not in info.files or source.ledger_path is None:
        raise BackupRefused("restore.team_database")
    if info.profile != source.profile:
        raise BackupRefused("restore.other_profile", profile=info.profile)
    staged = source.work_dir / f".restore-{source.profile}{PARTIAL}{secrets.token_hex(4)}"
    staged.mkdir(parents=True, mode=0o700)
    try:
        for name, entry in info.files.items():
            _check_cancel(cancel)
            relative = _safe_relative(name)
            origin = path.joinpath(*relative.parts)
            if not origin.is_file():
                raise BackupRefused("backup.file_missing", file=name)
            target = staged.joinpath(*relative.parts)
            target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            if copy_hashing(origin, target, cancel) != entry:
                raise BackupRefused("backup.file_changed", file=name)
        facts = ledger_facts(staged / LEDGER_FILE)
        if facts.check != "ok":
            raise BackupRefused("backup.ledger_damaged", check=facts.check)
        if facts.schema_version > SCHEMA_VERSION:
            raise BackupRefused(
                "restore.newer_schema", schema=facts.schema_version, supported=SCHEMA_VERSION
            )
        if facts.schema_version < SCHEMA_VERSION:
            upgrade_copy(staged / LEDGER_FILE)
    except OSError as error:
        shutil.rmtree(staged, ignore_errors=True)
        raise BackupRefused(
            "backup.failed", folder=str(path), error=f"{type(error).__name__}: {error}"
        ) from error
    except BaseException:
        shutil.rmtree(staged, ignore_errors=True)
        raise
    return PreparedRestore(info, staged, facts.payments, facts.receipts, facts.schema_version)


def discard_restore(prepared: PreparedRestore) -> None:
    shutil.rmtree(prepared.staged, ignore_errors=True)


def _add_receipts(prepared: PreparedRestore, receipts_dir: Path) -> int:
    """The backup's receipts missing here, moved in from the staged copy (receipts are named
    by their content: one already here is the same file). How many were added."""
    added = 0
    for name in prepared.backup.files:
        if not name.startswith(f"{RECEIPTS}/"):
            continue
        parts = _safe_relative(name).parts[1:]
        target = receipts_dir.joinpath(*parts)
        if target.exists():
            continue
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.replace(prepared.staged.joinpath(RECEIPTS, *parts), target)
        added += 1
    return added


# -- the service the UI calls ------------------------------------------------------------------


def _in_daemon_thread(work: Callable[[], T], name: str) -> asyncio.Future[T]:
    """Run ``work`` in a daemon thread: a backup the app closing cannot wait for does not keep
    the process alive (its temporary folder is left, and removed by a later backup)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(outcome: Callable[[], None]) -> None:
        if not future.done():
            outcome()

    def run() -> None:
        try:
            result = work()
        except BaseException as error:  # delivered to the awaiting coroutine
            failure = error
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(deliver, lambda: future.set_exception(failure))
        else:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(deliver, lambda: future.set_result(result))

    threading.Thread(target=run, name=name, daemon=True).start()
    return future


class BackupService:
    """Backups and restores of one open profile. One backup at a time: :attr:`running` is the
    one under way, which the app closing waits for (:meth:`wait`)."""

    def __init__(
        self,
        ledger: Ledger,
        source: BackupSource,
        *,
        clock: Clock,
        computer: str | None = None,
    ) -> None:
        self.ledger = ledger
        self.source = source
        self.clock = clock
        self.computer = computer or this_computer()
        self.running: asyncio.Future[BackupInfo] | None = None
        self._cancel = threading.Event()
        self._last_day: dict[Path, dt.date | None] = {}
        self._retry_after: dt.datetime | None = None

    @classmethod
    def for_ledger(cls, ledger: Ledger, receipts_dir: Path, *, profile: str) -> BackupService:
        """The service of an open profile: the file ledger's snapshot is made beside it."""
        work_dir = ledger.path.parent if ledger.path is not None else receipts_dir.parent
        source = BackupSource(profile, ledger.path, receipts_dir, work_dir)
        return cls(ledger, source, clock=ledger.clock)

    @property
    def team(self) -> bool:
        return self.source.ledger_path is None

    @property
    def busy(self) -> bool:
        return self.running is not None and not self.running.done()

    async def back_up(
        self, folder: Path | None, *, reason: str, keep_days: int | None = None
    ) -> BackupInfo:
        """One backup into ``folder`` (in a worker thread; the window keeps answering), then
        the backups older than ``keep_days`` pruned (``None``: none). Audited. A backup
        already under way is waited for instead of starting a second one."""
        if folder is None:
            raise BackupRefused("backup.no_folder", field="folder")
        if self.busy:
            assert self.running is not None
            return await asyncio.shield(self.running)
        self._cancel = threading.Event()
        cancel = self._cancel

        def work() -> BackupInfo:
            info = write_backup(
                self.source,
                folder,
                clock=self.clock,
                reason=reason,
                cancel=cancel,
                computer=self.computer,
            )
            if keep_days is not None:
                try:
                    prune(
                        folder,
                        profile=self.source.profile,
                        keep_days=keep_days,
                        clock=self.clock,
                        computer=self.computer,
                    )
                except (OSError, BackupRefused) as error:  # the backup itself is made
                    log.warning("backups in %s not pruned: %s", folder, error)
            return info

        self.running = _in_daemon_thread(work, name=f"backup-{reason}")
        try:
            info = await asyncio.shield(self.running)
        except BackupRefused as refused:
            await self._audit("failed", folder, reason, {"code": refused.code})
            raise
        self._last_day[folder] = info.day
        await self._audit(
            "ok",
            info.path,
            reason,
            {"payments": info.payments, "receipts": info.receipts, "size": info.size},
        )
        return info

    async def _audit(self, outcome: str, where: Path, reason: str, details: dict[str, Any]) -> None:
        if self.team or getattr(self.ledger, "conn", None) is None:
            return  # the team database's audit is the team's: a desktop's cache is not news
        with contextlib.suppress(Exception):  # closed meanwhile (the app quitting)
            await self.ledger.audit.record(
                "ledger.backup",
                outcome,
                reference=str(where),
                details={"reason": reason, **details},
            )

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for the backup under way; whether it ended."""
        running = self.running
        if running is None or running.done():
            return True
        done, _pending = await asyncio.wait({running}, timeout=timeout)
        return bool(done)

    def abandon(self) -> None:
        """Stop the backup under way at its next file (its temporary folder is removed)."""
        self._cancel.set()

    # -- daily ---------------------------------------------------------------------------------

    def daily_due(self, settings: BackupSettings) -> bool:
        """Whether today's (Brasília) backup is still to be made, as far as this session knows
        (:meth:`run_daily` asks the folder the first time)."""
        if settings.folder is None or self.busy:
            return False
        if self._retry_after is not None and self.clock() < self._retry_after:
            return False
        last = self._last_day.get(settings.folder)
        return last is None or last < brasilia_today(self.clock)

    async def run_daily(self, settings: BackupSettings) -> BackupInfo | None:
        """Today's backup, unless one of this computer's is already in the folder for today
        (at most one a Brasília day). ``None``: nothing to do."""
        folder = settings.folder
        if folder is None or not self.daily_due(settings):
            return None
        if folder not in self._last_day:
            try:
                self._last_day[folder] = await asyncio.to_thread(
                    latest_day, folder, profile=self.source.profile, computer=self.computer
                )
            except (OSError, BackupRefused) as error:
                log.warning("daily backup: %s not readable: %s", folder, error)
                self._retry_after = self.clock() + DAILY_RETRY
                return None
            if not self.daily_due(settings):
                return None
        try:
            info = await self.back_up(folder, reason="daily", keep_days=settings.keep_days)
        except BackupCancelled:  # the app closing could not wait for it
            return None
        except BackupRefused as refused:
            log.warning("daily backup to %s failed: %s", folder, refused)
            self._retry_after = self.clock() + DAILY_RETRY
            return None
        self._retry_after = None
        return info

    # -- restore -------------------------------------------------------------------------------

    async def prepare_restore(self, path: Path) -> PreparedRestore:
        """Copy the backup here and check it (a worker thread); nothing is replaced yet."""
        if self.team:
            raise BackupRefused("restore.team_database")
        return await asyncio.to_thread(prepare_restore, path, self.source)

    async def discard(self, prepared: PreparedRestore) -> None:
        await asyncio.to_thread(discard_restore, prepared)

    async def restore(self, prepared: PreparedRestore) -> RestoreResult:
        """Replace the open ledger with the checked copy, the current one first set aside as a
        backup of its own (:attr:`BackupSource.set_aside_dir`); then the backup's receipts that
        are missing here are added. Audited in the restored ledger."""
        conn = getattr(self.ledger, "conn", None)
        if self.team or conn is None:
            raise BackupRefused("restore.team_database")
        if self.busy:
            raise BackupRefused("restore.busy")
        aside_dir = self.source.set_aside_dir
        aside_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        aside_file = aside_dir / f".set-aside{PARTIAL}{secrets.token_hex(4)}.sqlite3"
        # The set-aside snapshot and the replacement in one go on the ledger's own thread:
        # no change of the app's can fall between them.
        try:
            snapshot_connection(conn, aside_file)
            replace_contents(conn, prepared.staged / LEDGER_FILE)
        except (BackupError, OSError, sqlite3.Error) as error:
            aside_file.unlink(missing_ok=True)
            code = "restore.busy" if isinstance(error, BackupError) else "restore.failed"
            raise BackupRefused(code, error=f"{type(error).__name__}: {error}") from error
        try:
            aside = await asyncio.to_thread(
                write_backup,
                self.source,
                aside_dir,
                clock=self.clock,
                reason="before-restore",
                computer=self.computer,
                snapshot=aside_file,
            )
            aside_file.unlink(missing_ok=True)
            aside_path = aside.path
        except BackupRefused as refused:  # the loose snapshot stays: it is the old data
            log.error("the set-aside backup was not completed: %s (kept: %s)", refused, aside_file)
            aside_path = aside_file
        await asyncio.to_thread(_add_receipts, prepared, self.source.receipts_dir)
        await asyncio.to_thread(discard_restore, prepared)
        await self.ledger.audit.record(
            "ledger.restore",
            "ok",
            reference=str(prepared.backup.path),
            details={
                "taken_at": prepared.backup.created_at.isoformat(),
                "payments": prepared.payments,
                "receipts": prepared.receipts,
                "set_aside": str(aside_path),
            },
        )
        return RestoreResult(prepared.backup, aside_path, prepared.payments, prepared.receipts)
