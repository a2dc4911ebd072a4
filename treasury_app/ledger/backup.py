"""A consistent copy of a ledger file, taken with SQLite's backup API while the app keeps
writing it: one read transaction's snapshot, written beside the destination and renamed into
place, so the destination is never a half-written file.

:func:`copy_ledger` opens its own (query-only) connection, so it may run in a worker thread (a
copy to a network share does not freeze the window); :func:`record_backup` writes the audit
row on the ledger's own connection. :func:`backup_ledger` does both, in the caller's thread.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from treasury_app.ledger.db import current_version, migrate
from treasury_app.ledger.stores import AuditStore

if TYPE_CHECKING:
    from treasury_app.ledger import Ledger

SIDECARS = ("-wal", "-shm", "-journal")


class BackupError(Exception):
    """The copy was refused or could not be made; the destination was left as it was."""


def copy_ledger(source: Path, destination: Path) -> Path:
    """Copy the ledger at ``source`` to ``destination`` (replaced if it exists) and return the
    destination's absolute path. Refuses a destination that is the live ledger, one of its
    WAL files, or in the live ledgers' folder. The copy is a single file (no WAL beside it),
    checked with ``PRAGMA quick_check`` before it takes the destination's name."""
    source = source.resolve()
    destination = destination.expanduser().absolute()
    _refuse_live(source, destination)
    if not source.is_file():
        raise BackupError(f"There is no ledger file at {source}.")
    if not destination.parent.is_dir():
        raise BackupError(f"The folder {destination.parent} does not exist.")
    # mkstemp's file is its owner's only (0600), and the rename keeps that.
    handle, name = tempfile.mkstemp(
        dir=destination.parent, prefix=f".{destination.name}.", suffix=".part"
    )
    os.close(handle)
    temporary = Path(name)
    try:
        snapshot_file(source, temporary)
        os.replace(temporary, destination)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
    return destination


async def record_backup(
    audit: AuditStore, destination: Path, error: BaseException | None = None
) -> int:
    """The ``ledger.backup`` audit row: where the copy went, or why it was not made."""
    if error is None:
        return await audit.record("ledger.backup", "ok", reference=str(destination))
    return await audit.record(
        "ledger.backup",
        "failed",
        reference=str(destination),
        details={"error": f"{type(error).__name__}: {error}"},
    )


async def backup_ledger(ledger: Ledger, destination: Path) -> Path:
    """Copy ``ledger``'s file to ``destination`` and audit it (failures too), on the caller's
    thread. A team database has no file here: its administrator backs it up (pg_dump)."""
    if ledger.path is None:
        raise BackupError(
            "This profile's ledger is a team database: its administrator backs it up with "
            "pg_dump (docs/team-mode.md)."
        )
    try:
        copied = copy_ledger(ledger.path, destination)
    except (BackupError, OSError, sqlite3.Error) as error:
        await record_backup(ledger.audit, destination, error)
        raise
    await record_backup(ledger.audit, copied)
    return copied


def _refuse_live(source: Path, destination: Path) -> None:
    live = {source, *(source.with_name(source.name + suffix) for suffix in SIDECARS)}
    target = destination.resolve()  # through a symbolic link to the live file, too
    same = target in live or (target.exists() and os.path.samefile(target, source))
    if same:
        raise BackupError(
            f"{destination} is the ledger the app is using: choose another file for the copy."
        )
    if target.parent == source.parent:
        raise BackupError(
            f"{destination.parent} is the app's own ledgers folder: choose a folder outside it "
            "(another disk or a network share) for the copy."
        )


def snapshot_file(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into the empty file ``target``, in one step (one
    read transaction: writers in WAL mode are not blocked, and the copy is one instant's)."""
    # Not a ``mode=ro`` URI: SQLite refuses a URI with a host, which a ledger on a network
    # share (``\\server\share``) would be. ``query_only``: this connection never writes.
    reader = sqlite3.connect(source, timeout=10)
    try:
        reader.execute("PRAGMA query_only=ON")
        writer = sqlite3.connect(target, isolation_level=None)
        try:
            reader.backup(writer)
            writer.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = writer.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"The copy does not check out ({check}); it was not kept.")
        finally:
            writer.close()
    finally:
        reader.close()
    with open(target, "rb+") as written:  # on disk before it takes the destination's name
        os.fsync(written.fileno())


def snapshot_connection(conn: sqlite3.Connection, target: Path) -> None:
    """SQLite's online backup of the database open on ``conn`` into the new file ``target``
    (one step, on ``conn``'s own thread: nothing else can write through ``conn`` meanwhile),
    made a self-contained file and synced to disk."""
    writer = sqlite3.connect(target, isolation_level=None)
    try:
        conn.backup(writer)
        writer.execute("PRAGMA journal_mode=DELETE")
    finally:
        writer.close()
    with open(target, "rb+") as written:
        os.fsync(written.fileno())


@dataclass(frozen=True)
class LedgerFacts:
    """What a ledger file holds, read from a copy (never the live file)."""

    check: str
    """``PRAGMA integrity_check``'s first line: ``ok`` for a sound file."""
    schema_version: int
    payments: int
    receipts: int


def ledger_facts(path: Path) -> LedgerFacts:
    """Check the ledger copy at ``path`` (``PRAGMA integrity_check``) and count what it holds.
    A file that is not a database at all says so in :attr:`LedgerFacts.check`."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA query_only=ON")
        try:
            check = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        except sqlite3.DatabaseError as error:
            return LedgerFacts(
                check=f"{type(error).__name__}: {error}", schema_version=0, payments=0, receipts=0
            )
        if check != "ok":
            return LedgerFacts(check=check, schema_version=0, payments=0, receipts=0)
        version = current_version(conn)
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
        }
        payments = (
            int(conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0])
            if "journal" in tables
            else 0
        )
        receipts = (
            int(conn.execute("SELECT COUNT(*) FROM receipts").fetchone()[0])
            if "receipts" in tables
            else 0
        )
        return LedgerFacts(check, version, payments, receipts)
    finally:
        conn.close()


def upgrade_copy(path: Path) -> None:
    """Bring the ledger copy at ``path`` (an older schema) to this version's schema."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        migrate(conn, path)
    finally:
        conn.close()


def replace_contents(conn: sqlite3.Connection, source: Path) -> None:
    """Write the ledger file ``source`` over the database open on ``conn``, in one step
    through ``conn`` itself (SQLite's backup API: the live file keeps its WAL mode, and every
    connection sees the old contents or the new ones, never a mixture). Refused while ``conn``
    has a transaction open."""
    if conn.in_transaction:
        raise BackupError("The ledger is in the middle of a change; try again in a moment.")
    reader = sqlite3.connect(source, isolation_level=None)
    try:
        reader.backup(conn)
    finally:
        reader.close()
