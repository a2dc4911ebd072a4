"""Backups that survive the PC (issue 34): real ledger files in ``tmp_path``, the clock driven
by the test (never slept on). A backup is one instant's ledger, its receipts and a manifest
that verifies; it is complete or absent; pruning keeps N Brasília days and nothing else is
touched; the daily backup comes at most once a Brasília day; a restore checks before it
replaces anything, and keeps the replaced data aside."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import os
import sqlite3
import threading
from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import pytest

import treasury_app.services.backup as backup_module
from tests.waiting import wait_until
from treasury_app.domain.clock import BRASILIA, FixedClock
from treasury_app.ledger import FileLedger, open_ledger
from treasury_app.ledger.db import SCHEMA_VERSION
from treasury_app.ledger.journal import EntryKind, NewEntry
from treasury_app.services.backup import (
    LEDGER_FILE,
    MANIFEST,
    BackupCancelled,
    BackupPolicy,
    BackupRefused,
    BackupService,
    BackupSettings,
    BackupSource,
    effective_settings,
    list_backups,
    prune,
    read_manifest,
    verify_files,
    write_backup,
)

PROFILE = "Empresa"
# 23:50 in Brasília on 18/11/2026 is already 19/11 in UTC: the Brasília date decides.
LATE_EVENING = dt.datetime(2026, 11, 19, 2, 50, tzinfo=dt.UTC)


def new(key: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.50"),
        idempotency_key=key,
        request={"pixKey": "a@b.com.br", "payment": {"amount": Decimal("10.50")}},
        payee_detail="a@b.com.br",
    )


def pdf(number: int) -> bytes:
    return b"%PDF-1.4\n% receipt " + str(number).encode() + b"\n%%EOF\n"


def journal_keys(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT idempotency_key FROM journal ORDER BY id")]
    finally:
        conn.close()


def source_of(ledger: FileLedger) -> BackupSource:
    assert ledger.path is not None
    return BackupSource(PROFILE, ledger.path, ledger.receipts.directory, ledger.path.parent)


@pytest.fixture
async def ledger(tmp_path: Path) -> AsyncIterator[FileLedger]:
    opened = open_ledger(tmp_path / "data" / "ledgers" / f"{PROFILE}.sqlite3", profile=PROFILE)
    for number in range(20):
        entry = await opened.journal.create(new(f"K{number}"))
        if number < 3:
            await opened.receipts.save(
                pdf(number), kind="PIX", bank_id=f"E{number}", entry_id=entry.id
            )
    yield opened
    await opened.close()


@pytest.fixture
def share(tmp_path: Path) -> Path:
    folder = tmp_path / "share" / "backups"  # what \\server\share\backups is on Windows
    folder.mkdir(parents=True)
    return folder


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock(LATE_EVENING)


def names(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


# -- a backup --------------------------------------------------------------------------------


def test_a_backup_is_the_ledger_and_receipts_with_a_manifest_that_verifies(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    info = write_backup(source_of(ledger), share, clock=clock, reason="manual", computer="PC-1")
    assert names(share) == [f"treasury-backup-{PROFILE}-20261118-235000"]  # Brasília time
    assert info.path == share / names(share)[0]
    manifest = json.loads((info.path / MANIFEST).read_text("utf-8"))
    assert manifest["created_at"] == "2026-11-18T23:50:00-03:00"
    assert (manifest["profile"], manifest["computer"], manifest["reason"]) == (
        PROFILE,
        "PC-1",
        "manual",
    )
    assert manifest["schema_version"] == SCHEMA_VERSION and manifest["app_version"]
    assert (manifest["payments"], manifest["receipts"]) == (20, 3)
    receipts = sorted(name for name in manifest["files"] if name.startswith("receipts/"))
    assert len(receipts) == 3 and all(name.count("/") == 2 for name in receipts)  # a/b/c
    assert LEDGER_FILE in manifest["files"]
    verify_files(read_manifest(info.path))  # every sha256 and size as written
    assert journal_keys(info.path / LEDGER_FILE) == journal_keys(ledger.path)
    conn = sqlite3.connect(info.path / LEDGER_FILE)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no WAL
    conn.close()
    assert [found.path for found in list_backups(share, profile=PROFILE)] == [info.path]
    # Nothing left behind on this computer either (the snapshot is taken beside the ledger).
    assert not [p for p in ledger.path.parent.iterdir() if ".partial-" in p.name]


def test_a_backup_while_another_connection_writes_is_one_instant(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    stop = threading.Event()
    written: list[int] = []

    async def writer() -> None:
        other = open_ledger(ledger.path, profile=PROFILE)  # its own connection and thread
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
    backups = []
    try:
        for number in range(4):
            wait_until(
                lambda n=(number + 1) * 20: len(written) >= n or not thread.is_alive(),
                "the other connection writing",
            )
            assert thread.is_alive(), "the writer stopped"
            clock.advance(dt.timedelta(seconds=1))
            backups.append(write_backup(source_of(ledger), share, clock=clock, reason="manual"))
    finally:
        stop.set()
        thread.join()
    final = journal_keys(ledger.path)
    sizes = []
    for info in backups:
        verify_files(info)
        keys = journal_keys(info.path / LEDGER_FILE)
        assert keys == final[: len(keys)]  # every row whole, none missing before the last
        assert info.payments == len(keys)  # the manifest counts the snapshot it holds
        conn = sqlite3.connect(info.path / LEDGER_FILE)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        conn.close()
        sizes.append(len(keys))
    assert sizes == sorted(sizes) and sizes[0] >= 20 + 20  # taken while rows kept coming


def test_a_backup_that_fails_midway_leaves_nothing(
    ledger: FileLedger, share: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_copy = backup_module.copy_hashing
    calls: list[Path] = []

    def failing_copy(source: Path, target: Path, cancel: object = None) -> object:
        calls.append(target)
        if len(calls) == 3:  # the ledger and one receipt copied: the share goes away
            raise OSError(112, "There is not enough space on the disk")
        return real_copy(source, target, cancel)  # type: ignore[arg-type]

    monkeypatch.setattr(backup_module, "copy_hashing", failing_copy)
    with pytest.raises(BackupRefused) as refused:
        write_backup(source_of(ledger), share, clock=clock, reason="daily")
    assert refused.value.code == "backup.failed"
    assert names(share) == []  # no manifest, no folder: absent, not half there
    assert list_backups(share) == []


def test_an_abandoned_backup_leaves_nothing(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(BackupCancelled):
        write_backup(source_of(ledger), share, clock=clock, reason="close", cancel=cancel)
    assert names(share) == []


def test_a_backup_cut_short_is_never_listed_nor_pruned_as_a_good_one(
    ledger: FileLedger, share: Path, clock: FixedClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies mid-way (nothing cleans up): its folder keeps its temporary name and has
    no manifest; it is not a backup, and only a day later is it taken for litter of ours."""
    good = write_backup(source_of(ledger), share, clock=clock, reason="daily", computer="PC-1")
    monkeypatch.setattr(backup_module, "_remove_partial", lambda _path: None)  # killed
    monkeypatch.setattr(
        backup_module, "_write_manifest", lambda *_args: (_ for _ in ()).throw(OSError("gone"))
    )
    clock.advance(dt.timedelta(minutes=5))
    with pytest.raises(BackupRefused):
        write_backup(source_of(ledger), share, clock=clock, reason="close", computer="PC-1")
    monkeypatch.undo()
    (cut_short,) = [name for name in names(share) if name.startswith(".")]
    assert ".partial-" in cut_short and not (share / cut_short / MANIFEST).exists()
    assert [info.path for info in list_backups(share)] == [good.path]
    # A day on, another backup prunes: the cut-short folder is ours and stale, it goes.
    prune(share, profile=PROFILE, keep_days=30, clock=clock, computer="PC-1")
    assert cut_short in names(share)  # still young: maybe another desktop's under way
    old = clock().timestamp() - dt.timedelta(days=2).total_seconds()
    os.utime(share / cut_short, (old, old))
    prune(share, profile=PROFILE, keep_days=30, clock=clock, computer="PC-1")
    assert names(share) == [good.path.name]


# -- keeping N days --------------------------------------------------------------------------


def test_pruning_keeps_n_days_and_never_touches_anything_else(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    source = source_of(ledger)
    made = []
    for back in range(5, -1, -1):  # one a day, 13/11 … 18/11 (Brasília), the last one now
        clock.set(LATE_EVENING - dt.timedelta(days=back))
        made.append(write_backup(source, share, clock=clock, reason="daily", computer="PC-1"))
    made.reverse()  # newest first
    assert [info.day for info in made] == [dt.date(2026, 11, 18 - n) for n in range(6)]
    # Beside them: files of people, a folder named like ours without a manifest, another
    # computer's and another profile's old backups, and an old one of ours now damaged.
    clock.advance(dt.timedelta(days=-10))
    other_pc = write_backup(source, share, clock=clock, reason="daily", computer="PC-2")
    other_profile = write_backup(
        BackupSource("Outra", ledger.path, source.receipts_dir, source.work_dir),
        share,
        clock=clock,
        reason="daily",
        computer="PC-1",
    )
    clock.advance(dt.timedelta(seconds=1))
    damaged = write_backup(source, share, clock=clock, reason="daily", computer="PC-1")
    receipt = next(damaged.path.joinpath("receipts").rglob("*.pdf"))
    receipt.write_bytes(receipt.read_bytes().replace(b"receipt", b"RECEIPT"))
    clock.set(LATE_EVENING)
    (share / "leia-me.txt").write_text("backups da tesouraria")
    lookalike = share / f"treasury-backup-{PROFILE}-20250101-000000"
    lookalike.mkdir()
    (lookalike / LEDGER_FILE).write_bytes(b"someone else's")
    mine_with_extra = made[4].path / "notes.txt"  # a person put a file inside an old backup
    mine_with_extra.write_text("checked on 15/11")

    removed = prune(share, profile=PROFILE, keep_days=3, clock=clock, computer="PC-1")

    assert sorted(removed) == sorted(info.path for info in made[3:])  # 15/11 and before
    kept = {info.path for info in list_backups(share)}
    assert kept == {*(info.path for info in made[:3]), other_pc.path, other_profile.path,
                    damaged.path}  # fmt: skip
    assert (share / "leia-me.txt").read_text() == "backups da tesouraria"
    assert (lookalike / LEDGER_FILE).read_bytes() == b"someone else's"
    # Only the files its manifest listed went: the person's note is still there.
    (left,) = [p for p in share.iterdir() if p.name.startswith(f".{made[4].path.name}")]
    assert [p.name for p in left.rglob("*") if p.is_file()] == ["notes.txt"]
    with pytest.raises(BackupRefused) as refused:
        verify_files(read_manifest(damaged.path))
    assert refused.value.code == "backup.file_changed"


def test_the_newest_backup_is_kept_however_old(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    only = write_backup(source_of(ledger), share, clock=clock, reason="daily", computer="PC-1")
    clock.advance(dt.timedelta(days=90))
    assert prune(share, profile=PROFILE, keep_days=7, clock=clock, computer="PC-1") == []
    assert [info.path for info in list_backups(share)] == [only.path]


# -- daily -----------------------------------------------------------------------------------


async def test_the_daily_backup_comes_at_most_once_a_brasilia_day(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    settings = BackupSettings(folder=share, keep_days=30)
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    first = await service.run_daily(settings)
    assert first is not None and first.reason == "daily" and first.day == dt.date(2026, 11, 18)
    assert await service.run_daily(settings) is None
    clock.advance(dt.timedelta(minutes=9))  # 23:59 in Brasília: the same day (UTC's is not)
    assert not service.daily_due(settings)
    assert await service.run_daily(settings) is None
    # A new session (the app started again) on the same day reads the folder: none either.
    again = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    assert await again.run_daily(settings) is None
    clock.advance(dt.timedelta(minutes=2))  # 00:01 in Brasília: a new day
    assert service.daily_due(settings)
    second = await service.run_daily(settings)
    assert second is not None and second.day == dt.date(2026, 11, 19)
    assert await service.run_daily(settings) is None
    assert len(list_backups(share)) == 2
    rows = await ledger.audit.entries(action="ledger.backup")
    assert [(row.outcome, row.details["reason"]) for row in rows] == [("ok", "daily")] * 2


async def test_a_daily_backup_that_fails_is_tried_again_an_hour_later(
    ledger: FileLedger, tmp_path: Path, clock: FixedClock
) -> None:
    offline = tmp_path / "offline-share"
    settings = BackupSettings(folder=offline, keep_days=30)
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    assert await service.run_daily(settings) is None  # the share is not there
    assert not service.daily_due(settings)
    offline.mkdir()
    clock.advance(dt.timedelta(minutes=59))
    assert await service.run_daily(settings) is None
    clock.advance(dt.timedelta(minutes=2))
    made = await service.run_daily(settings)
    assert made is not None and made.path.parent == offline


async def test_a_second_backup_asked_while_one_runs_waits_for_it(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    first = asyncio.ensure_future(service.back_up(share, reason="manual"))
    await asyncio.sleep(0)  # the first has started its thread
    assert service.busy
    second = await service.back_up(share, reason="close")
    assert second == await first
    assert len(list_backups(share)) == 1
    assert await service.wait(timeout=0)


# -- settings --------------------------------------------------------------------------------


def test_the_machine_policy_wins_over_the_persons_choice(tmp_path: Path) -> None:
    mine, theirs = tmp_path / "mine", Path(r"\\server\share\tesouraria")
    assert effective_settings(mine, 10) == BackupSettings(mine, 10, locked=False)
    assert effective_settings(None, None) == BackupSettings(None, 30, locked=False)
    locked = BackupPolicy(folder=theirs, keep_days=60, locked=True)
    assert effective_settings(mine, 10, locked) == BackupSettings(theirs, 60, locked=True)
    # Locked without a number of days: the default, not the person's.
    assert effective_settings(mine, 10, BackupPolicy(folder=theirs, locked=True)).keep_days == 30
    # Not locked: the policy fills only what the person has not chosen.
    suggested = BackupPolicy(folder=theirs, keep_days=14)
    assert effective_settings(None, None, suggested) == BackupSettings(theirs, 14)
    assert effective_settings(mine, 10, suggested) == BackupSettings(mine, 10)
    assert effective_settings(mine, 0).keep_days == 1


# -- restore ---------------------------------------------------------------------------------


async def add_later_payments(ledger: FileLedger) -> None:
    for number in range(5):
        await ledger.journal.create(new(f"LATER{number}"))
    await ledger.receipts.save(pdf(99), kind="PIX", bank_id="E99")


async def test_a_restore_brings_back_payments_and_receipts_and_keeps_the_old_data_aside(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    taken = await service.back_up(share, reason="manual")
    before_keys = journal_keys(ledger.path)
    await add_later_payments(ledger)
    # The PC is reimaged: the receipts folder is lost (the ledger file here is the new one).
    for path in sorted(ledger.receipts.directory.rglob("*.pdf")):
        path.unlink()
    clock.advance(dt.timedelta(hours=1))

    prepared = await service.prepare_restore(taken.path)
    assert (prepared.payments, prepared.receipts) == (20, 3)
    assert prepared.backup.created_at == dt.datetime(2026, 11, 18, 23, 50, tzinfo=BRASILIA)
    assert len(journal_keys(ledger.path)) == 25  # checked, nothing replaced yet
    result = await service.restore(prepared)

    assert journal_keys(ledger.path) == before_keys
    assert len(await ledger.journal.recent(limit=1000)) == 20  # the open ledger reads it
    receipts = await ledger.receipts.all()
    assert len(receipts) == 3
    assert [await ledger.receipts.read(r) for r in sorted(receipts, key=lambda r: r.bank_id)] == [
        pdf(0),
        pdf(1),
        pdf(2),
    ]
    # The data it replaced is a backup of its own, checked, restorable in its turn.
    aside = read_manifest(result.set_aside)
    verify_files(aside)
    assert result.set_aside.parent == source_of(ledger).set_aside_dir
    assert aside.reason == "before-restore" and aside.payments == 25
    assert "LATER4" in journal_keys(result.set_aside / LEDGER_FILE)
    assert not [p for p in ledger.path.parent.iterdir() if p.name.startswith(".restore-")]
    conn = sqlite3.connect(ledger.path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    row = (await ledger.audit.entries(action="ledger.restore"))[0]
    assert (row.outcome, row.reference) == ("ok", str(taken.path))
    assert row.details["set_aside"] == str(result.set_aside)


def flip_one_byte(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("which", ["ledger", "receipt"])
async def test_a_tampered_backup_is_refused_and_nothing_changes(
    which: str, ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    taken = await service.back_up(share, reason="manual")
    await add_later_payments(ledger)
    before = journal_keys(ledger.path)
    receipts_before = sorted(p.name for p in ledger.receipts.directory.rglob("*.pdf"))
    if which == "ledger":
        name = LEDGER_FILE
        flip_one_byte(taken.path / LEDGER_FILE, 5000)
    else:
        name = next(n for n in taken.files if n.startswith("receipts/"))
        flip_one_byte(taken.path.joinpath(*name.split("/")), 10)

    with pytest.raises(BackupRefused) as refused:
        await service.prepare_restore(taken.path)

    assert refused.value.code == "backup.file_changed"
    assert refused.value.params == {"file": name}
    assert journal_keys(ledger.path) == before
    assert sorted(p.name for p in ledger.receipts.directory.rglob("*.pdf")) == receipts_before
    assert not source_of(ledger).set_aside_dir.exists()
    assert not [p for p in ledger.path.parent.iterdir() if p.name.startswith(".restore-")]
    assert await ledger.audit.entries(action="ledger.restore") == []


def rewrite_manifest(info_path: Path) -> None:
    """The ledger changed on purpose and its manifest made to match (a checksum passes)."""
    manifest = json.loads((info_path / MANIFEST).read_text("utf-8"))
    digest = backup_module.file_digest(info_path / LEDGER_FILE)
    manifest["files"][LEDGER_FILE] = {"sha256": digest.sha256, "size": digest.size}
    (info_path / MANIFEST).write_text(json.dumps(manifest), "utf-8")


async def test_a_ledger_of_a_newer_version_is_refused(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    taken = await service.back_up(share, reason="manual")
    conn = sqlite3.connect(taken.path / LEDGER_FILE)
    conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    rewrite_manifest(taken.path)
    with pytest.raises(BackupRefused) as refused:
        await service.prepare_restore(taken.path)
    assert refused.value.code == "restore.newer_schema"
    assert refused.value.params == {"schema": SCHEMA_VERSION + 1, "supported": SCHEMA_VERSION}


async def test_a_damaged_ledger_fails_its_integrity_check(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    taken = await service.back_up(share, reason="manual")
    path = taken.path / LEDGER_FILE
    data = bytearray(path.read_bytes())
    page = 4096
    data[page * 2 : page * 3] = b"\xff" * page  # a b-tree page turned to garbage
    path.write_bytes(bytes(data))
    rewrite_manifest(taken.path)
    with pytest.raises(BackupRefused) as refused:
        await service.prepare_restore(taken.path)
    assert refused.value.code == "backup.ledger_damaged"
    assert journal_keys(ledger.path)[:1] == ["K0"]


async def test_another_profiles_backup_and_an_incomplete_one_are_refused(
    ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    other = BackupSource("Outra", ledger.path, ledger.receipts.directory, ledger.path.parent)
    theirs = write_backup(other, share, clock=clock, reason="manual")
    service = BackupService(ledger, source_of(ledger), clock=clock, computer="PC-1")
    with pytest.raises(BackupRefused) as refused:
        await service.prepare_restore(theirs.path)
    assert (refused.value.code, refused.value.params) == (
        "restore.other_profile",
        {"profile": "Outra"},
    )
    (theirs.path / MANIFEST).unlink()
    with pytest.raises(BackupRefused) as refused:
        await service.prepare_restore(theirs.path)
    assert refused.value.code == "backup.incomplete"


@pytest.mark.parametrize("name", ["../outside.pdf", "receipts/../../x.pdf", "C:/x", "a\\b"])
async def test_a_manifest_naming_a_file_outside_the_backup_is_refused(
    name: str, ledger: FileLedger, share: Path, clock: FixedClock
) -> None:
    taken = write_backup(source_of(ledger), share, clock=clock, reason="manual")
    manifest = json.loads((taken.path / MANIFEST).read_text("utf-8"))
    manifest["files"][name] = {"sha256": "0" * 64, "size": 1}
    (taken.path / MANIFEST).write_text(json.dumps(manifest), "utf-8")
    with pytest.raises(BackupRefused) as refused:
        read_manifest(taken.path)
    assert refused.value.code == "backup.manifest_unreadable"
    assert list_backups(share) == []
