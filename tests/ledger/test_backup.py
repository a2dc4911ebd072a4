"""Backing up a ledger: a consistent, openable single-file copy even while another connection
writes; the live ledger (or its WAL) is never written over; each backup is an audit row."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from decimal import Decimal
from pathlib import Path

import pytest

from tests.waiting import wait_until
from treasury_app.ledger import open_ledger
from treasury_app.ledger.backup import BackupError, backup_ledger, copy_ledger
from treasury_app.ledger.journal import EntryKind, NewEntry


def new(key: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.50"),
        idempotency_key=key,
        request={"pixKey": "a@b.com.br", "payment": {"amount": Decimal("10.50")}},
        payee_detail="a@b.com.br",
    )


def journal_rows(path: Path) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT * FROM journal ORDER BY id").fetchall()
    finally:
        conn.close()


@pytest.fixture
async def ledger(tmp_path: Path):
    opened = open_ledger(tmp_path / "data" / "ledgers" / "Empresa.sqlite3", profile="Empresa")
    for number in range(50):
        await opened.journal.create(new(f"K{number}"))
    yield opened
    await opened.close()


async def test_the_copy_is_one_openable_file_with_the_same_journal(ledger, tmp_path: Path) -> None:
    target = tmp_path / "backups" / "ledger-Empresa-2026-11-18.sqlite3"
    target.parent.mkdir()
    copied = await backup_ledger(ledger, target)
    assert copied == target
    assert journal_rows(target) == journal_rows(ledger.path)
    conn = sqlite3.connect(target)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # no WAL needed
    conn.close()
    assert sorted(p.name for p in target.parent.iterdir()) == [target.name]  # no temp left
    assert target.stat().st_mode & 0o777 == 0o600
    row = (await ledger.audit.entries(action="ledger.backup"))[0]
    assert (row.outcome, row.reference) == ("ok", str(target))
    # Opened by the app, the copy is a ledger like any other.
    again = open_ledger(target, profile="Empresa")
    assert await again.journal.by_key("K49") is not None
    await again.close()


def test_a_backup_while_another_connection_writes_is_one_instant(ledger, tmp_path: Path) -> None:
    stop = threading.Event()
    written: list[int] = []

    async def writer() -> None:
        other = open_ledger(ledger.path, profile="Empresa")  # its own connection, thread, loop
        try:
            number = 0
            while not stop.is_set():
                await other.journal.create(new(f"W{number}"))
                written.append(number)
                number += 1
        finally:
            await other.close()

    thread = threading.Thread(target=lambda: asyncio.run(writer()))
    thread.start()
    try:
        copies = []
        for number in range(5):
            wait_until(  # the writer is busy meanwhile (its sleeps are relative: libfaketime)
                lambda n=(number + 1) * 20: len(written) >= n or not thread.is_alive(),
                "the other connection writing",
            )
            assert thread.is_alive(), "the writer stopped"
            target = tmp_path / f"copy-{number}.sqlite3"
            copies.append(copy_ledger(ledger.path, target))
    finally:
        stop.set()
        thread.join()
    final = journal_rows(ledger.path)
    sizes = []
    for target in copies:
        rows = journal_rows(target)
        # A prefix of the live journal: every row whole, none missing before the last one.
        assert rows == final[: len(rows)]
        conn = sqlite3.connect(target)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        sizes.append(len(rows))
    assert sizes == sorted(sizes) and sizes[0] >= 50 + 20  # taken while the rows kept coming


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
async def test_the_live_ledger_and_its_wal_are_never_written_over(ledger, suffix: str) -> None:
    live = ledger.path.with_name(ledger.path.name + suffix)
    before = journal_rows(ledger.path)
    with pytest.raises(BackupError, match="the app is using"):
        await backup_ledger(ledger, live)
    assert journal_rows(ledger.path) == before
    assert (await ledger.audit.entries(action="ledger.backup"))[0].outcome == "failed"
    assert sorted(p.name for p in ledger.path.parent.glob(".*.part")) == []


def test_a_link_to_the_live_ledger_is_refused_too(ledger, tmp_path: Path) -> None:
    link = tmp_path / "looks-like-a-backup.sqlite3"
    link.symlink_to(ledger.path)
    with pytest.raises(BackupError, match="the app is using"):
        copy_ledger(ledger.path, link)
    assert link.resolve() == ledger.path.resolve()


def test_the_ledgers_folder_is_refused(ledger) -> None:
    other_profile = ledger.path.with_name("Outra.sqlite3")
    with pytest.raises(BackupError, match="ledgers folder"):
        copy_ledger(ledger.path, other_profile)
    assert not other_profile.exists()


def test_an_existing_backup_is_replaced_whole(ledger, tmp_path: Path) -> None:
    target = tmp_path / "ledger.sqlite3"
    target.write_bytes(b"an older backup, or anything")
    copy_ledger(ledger.path, target)
    assert len(journal_rows(target)) == 50


async def test_a_missing_folder_is_said(ledger, tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="does not exist"):
        await backup_ledger(ledger, tmp_path / "nowhere" / "ledger.sqlite3")
