"""Backups as a person meets them (issue 34): Settings → Backups (folder, days kept, Back up
now, Restore… with its review), the machine's policy locking them, the daily backup's timer
driven by a test clock, and the backup before closing, which never holds Quit for long."""

from __future__ import annotations

import datetime as dt
import sqlite3
import threading
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt

import treasury_app.services.backup as backup_module
from tests.waiting import qt_wait_until
from treasury_app.domain.clock import FixedClock
from treasury_app.ledger import open_ledger
from treasury_app.ledger.journal import EntryKind, NewEntry
from treasury_app.services.backup import (
    LEDGER_FILE,
    BackupCancelled,
    BackupPolicy,
    BackupService,
    BackupSource,
    list_backups,
)
from treasury_app.ui import backups as ui_backups
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.controller import AppController, StartOptions
from treasury_app.ui.dialogs.restore_dialog import RestoreDialog
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.widgets.backup_panel import BackupPanel

PROFILE = "Empresa"
NOON = dt.datetime(2026, 11, 18, 15, 0, tzinfo=dt.UTC)  # 12:00 in Brasília


@pytest.fixture(autouse=True)
def _no_backup_settings() -> Iterator[None]:
    for key in (ui_backups.FOLDER_KEY, ui_backups.KEEP_DAYS_KEY):
        QSettings().remove(key)
    ui_backups.set_backup_policy(None)
    yield
    for key in (ui_backups.FOLDER_KEY, ui_backups.KEEP_DAYS_KEY):
        QSettings().remove(key)
    ui_backups.set_backup_policy(None)


@pytest.fixture
def share(tmp_path: Path) -> Path:
    folder = tmp_path / "share" / "backups"
    folder.mkdir(parents=True)
    return folder


def entry(key: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal("10.50"),
        idempotency_key=key,
        request={"pixKey": "a@b.com.br", "payment": {"amount": Decimal("10.50")}},
        payee_detail="a@b.com.br",
    )


@pytest.fixture
def desk(tmp_path: Path, run: Any) -> Iterator[SimpleNamespace]:
    """A profile of its own (its ledger in ``tmp_path``, 12 payments, 2 receipts), as the
    Backups page sees a workspace: its backup service and whether the session is closed."""
    ledger = open_ledger(tmp_path / "data" / "ledgers" / f"{PROFILE}.sqlite3", profile=PROFILE)
    for number in range(12):
        made = run(ledger.journal.create(entry(f"K{number}")))
        if number < 2:
            run(
                ledger.receipts.save(
                    b"%PDF-1.4 receipt " + bytes([48 + number]),
                    kind="PIX",
                    bank_id=f"E{number}",
                    entry_id=made.id,
                )
            )
    assert ledger.path is not None
    source = BackupSource(PROFILE, ledger.path, ledger.receipts.directory, ledger.path.parent)
    service = BackupService(ledger, source, clock=FixedClock(NOON), computer="PC-1")
    yield SimpleNamespace(backups=service, ledger=ledger, session=SimpleNamespace(closed=False))
    ledger.close_now()


def keys(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [row[0] for row in conn.execute("SELECT idempotency_key FROM journal ORDER BY id")]
    finally:
        conn.close()


# -- Settings → Backups ----------------------------------------------------------------------


def test_back_up_now_into_the_chosen_folder_says_what_it_made(
    desk: SimpleNamespace, share: Path, qtbot: Any, settle: Any
) -> None:
    panel = BackupPanel(desk, None)
    qtbot.addWidget(panel)
    assert panel.policy_label.isHidden()
    panel.folder_edit.setText(str(share))
    panel.folder_edit.editingFinished.emit()
    panel.keep_spin.setValue(7)
    assert ui_backups.current_settings() == ui_backups.effective_settings(share, 7)
    qtbot.mouseClick(panel.backup_button, Qt.MouseButton.LeftButton)
    info = settle(panel.task)
    assert info is not None and info.path.parent == share
    assert panel.status.text() == (
        f"Backed up at 18/11/2026 12:00: 12 payments, 2 receipts, in {info.path}"
    )
    assert panel.backup_button.isEnabled()
    settle(_reload(panel))
    assert panel.last_label.text() == f"18/11/2026 12:00 · {info.path.name}"


def _reload(panel: BackupPanel) -> Any:
    from treasury_app.ui.async_tools import spawn_for

    return spawn_for(panel, panel.reload(), name="reload")


def test_no_folder_no_backup_and_it_is_said(desk: SimpleNamespace, qtbot: Any, settle: Any) -> None:
    panel = BackupPanel(desk, None)
    qtbot.addWidget(panel)
    settle(_reload(panel))
    assert panel.last_label.text() == "No folder chosen: automatic backups are off."
    qtbot.mouseClick(panel.backup_button, Qt.MouseButton.LeftButton)
    assert settle(panel.task) is None
    assert panel.status.text() == (
        "No backup was made: Choose a folder for the backups first (Settings → Backups)."
    )


def test_a_folder_set_and_locked_by_policy_cannot_be_changed(
    desk: SimpleNamespace, share: Path, tmp_path: Path, qtbot: Any
) -> None:
    QSettings().setValue(ui_backups.FOLDER_KEY, str(tmp_path / "mine"))
    ui_backups.set_backup_policy(BackupPolicy(folder=share, keep_days=90, locked=True))
    panel = BackupPanel(desk, None)
    qtbot.addWidget(panel)
    assert panel.folder_edit.text() == str(share) and panel.folder_edit.isReadOnly()
    assert panel.keep_spin.value() == 90 and not panel.keep_spin.isEnabled()
    assert not panel.choose_button.isEnabled()
    assert not panel.policy_label.isHidden()
    panel.folder_edit.setText(str(tmp_path / "elsewhere"))  # (as code could)
    panel.save()
    assert panel.folder_edit.text() == str(share)  # shown as the policy has it
    assert ui_backups.current_settings().folder == share
    assert QSettings().value(ui_backups.FOLDER_KEY) == str(tmp_path / "mine")  # untouched


def test_restore_reviews_what_it_will_bring_back_then_restores_and_keeps_the_old_aside(
    desk: SimpleNamespace, share: Path, qtbot: Any, run: Any, settle: Any
) -> None:
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    taken = run(desk.backups.back_up(share, reason="daily"))
    for number in range(3):
        run(desk.ledger.journal.create(entry(f"LATER{number}")))
    panel = BackupPanel(desk, None)
    qtbot.addWidget(panel)
    qtbot.mouseClick(panel.restore_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: panel.restore_dialog is not None and panel.restore_dialog.list.count() == 1,
        "the restore dialog listing the backup",
    )
    dialog = panel.restore_dialog
    assert isinstance(dialog, RestoreDialog)
    assert dialog.list.item(0).text() == "18/11/2026 12:00 · daily · computer PC-1"
    assert not dialog.restore_button.isEnabled()  # nothing checked yet
    dialog.list.setCurrentRow(0)
    qtbot.mouseClick(dialog.check_button, Qt.MouseButton.LeftButton)
    settle(dialog.task)
    review = dialog.review.text()
    assert "Backup of 18/11/2026 12:00:00, daily · computer PC-1" in review
    assert "It holds 12 payments and 2 receipts." in review
    assert str(desk.backups.source.set_aside_dir) in review
    assert len(keys(desk.ledger.path)) == 15  # reviewed: nothing replaced yet
    assert dialog.restore_button.isEnabled()
    qtbot.mouseClick(dialog.restore_button, Qt.MouseButton.LeftButton)
    result = settle(panel.task)
    assert result is not None and result.backup.path == taken.path
    assert keys(desk.ledger.path) == [f"K{n}" for n in range(12)]
    (aside,) = list_backups(desk.backups.source.set_aside_dir)
    assert aside.payments == 15 and "LATER2" in keys(aside.path / LEDGER_FILE)
    assert panel.status.text() == (
        f"Restored the backup of 18/11/2026 12:00: 12 payments, 2 receipts. The data it "
        f"replaced is kept in {aside.path}."
    )


def test_restore_refuses_a_tampered_backup_in_words_and_changes_nothing(
    desk: SimpleNamespace, share: Path, qtbot: Any, run: Any, settle: Any
) -> None:
    taken = run(desk.backups.back_up(share, reason="daily"))
    run(desk.ledger.journal.create(entry("LATER")))
    ledger_copy = taken.path / LEDGER_FILE
    data = bytearray(ledger_copy.read_bytes())
    data[3000] ^= 0x01  # one byte
    ledger_copy.write_bytes(bytes(data))
    before = keys(desk.ledger.path)
    dialog = RestoreDialog(desk.backups, share)
    qtbot.addWidget(dialog)
    settle(_spawn(dialog, dialog.load()))
    assert run(dialog.check(taken.path)) is None
    assert dialog.review.text() == (
        "This backup cannot be restored: The file ledger.sqlite3 of this backup is not the one "
        "that was backed up (its SHA-256 differs): the backup is damaged."
    )
    assert not dialog.restore_button.isEnabled()
    assert keys(desk.ledger.path) == before
    assert not desk.backups.source.set_aside_dir.exists()


def _spawn(owner: Any, coro: Any) -> Any:
    from treasury_app.ui.async_tools import spawn_for

    return spawn_for(owner, coro, name="test")


# -- the daily backup and the one before closing -----------------------------------------------


def test_the_daily_timer_backs_up_once_a_brasilia_day(
    open_workspace: Any, share: Path, qtbot: Any, settle: Any
) -> None:
    workspace = open_workspace()
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    runner = window.backups
    assert runner is not None and runner.timer.isActive()  # started with the session
    clock = FixedClock(dt.datetime(2026, 11, 19, 2, 0, tzinfo=dt.UTC))  # 23:00, 18/11
    runner.service.clock = clock
    first = settle(runner.check_daily())
    assert first is not None and first.reason == "daily"
    assert runner.check_daily() is None  # today's is made
    clock.advance(dt.timedelta(minutes=59))  # 23:59 in Brasília (already 19/11 in UTC)
    assert runner.check_daily() is None
    clock.advance(dt.timedelta(minutes=2))  # 00:01, 19/11
    second = settle(runner.check_daily())
    assert second is not None and second.day == dt.date(2026, 11, 19)
    assert [info.day for info in list_backups(share)] == [
        dt.date(2026, 11, 19),
        dt.date(2026, 11, 18),
    ]
    assert runner.timer.isActive()  # and it keeps asking
    window.set_workspace(None)
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "running_tasks() == 0")


def start(qtbot: Any, qasync_loop: Any, paths: Any) -> tuple[AppController, Any]:
    QSettings().clear()
    window = MainWindow()
    qtbot.addWidget(window)
    controller = AppController(
        paths, StartOptions(sandbox=True, unlock_sandbox=True), window=window
    )
    return controller, qasync_loop.create_task(controller.run())


def test_closing_the_window_backs_up_before_the_app_ends(
    ui_paths: Any, ui_sandbox: Any, qasync_loop: Any, qtbot: Any, share: Path
) -> None:
    controller, task = start(qtbot, qasync_loop, ui_paths)
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    qt_wait_until(qtbot, lambda: controller.workspace is not None, "the session")
    qt_wait_until(qtbot, lambda: controller.window.backups is not None, "the main window")
    said: list[str] = []
    controller.window.backups.said.connect(said.append)
    assert list_backups(share) == []
    controller.window.close()  # the window's close button
    qt_wait_until(qtbot, task.done, "the run to end after the close")
    task.result()
    (made,) = list_backups(share)
    assert made.reason == "close" and made.profile == "Sandbox"
    assert said == ["Backing up before closing (at most 15 s; Quit again to close now)…"]
    assert not controller.window.isVisible()
    assert controller.workspace is None
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "every background task to end")


def test_quit_again_while_a_backup_runs_closes_at_once_and_leaves_no_half_backup(
    ui_paths: Any,
    ui_sandbox: Any,
    qasync_loop: Any,
    qtbot: Any,
    share: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started, release = threading.Event(), threading.Event()
    real_write = backup_module.write_backup

    def slow_write(*args: Any, cancel: threading.Event | None = None, **kwargs: Any) -> Any:
        started.set()
        release.wait()  # a share that answers slowly (the test releases it)
        if cancel is not None and cancel.is_set():
            raise BackupCancelled
        return real_write(*args, cancel=cancel, **kwargs)

    monkeypatch.setattr(backup_module, "write_backup", slow_write)
    controller, task = start(qtbot, qasync_loop, ui_paths)
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    qt_wait_until(qtbot, lambda: controller.window.backups is not None, "the main window")
    runner = controller.window.backups
    said: list[str] = []
    runner.said.connect(said.append)
    runner.check_daily()  # the daily backup starts, and hangs on the share
    qt_wait_until(qtbot, started.is_set, "the daily backup under way")
    try:
        controller.window.close()
        qt_wait_until(qtbot, lambda: len(said) == 1, "the window saying it waits")
        assert said[0] == (
            "Waiting for the backup under way before closing (at most 15 s; Quit again to close "
            "now)…"
        )
        assert controller.window.isVisible() and not task.done()
        controller.window.close()  # closed again: now
        qt_wait_until(qtbot, task.done, "the run to end after the second close")
        task.result()
        assert said[-1] == (
            "The backup was abandoned so that the app could close; none was left half made."
        )
        assert not controller.window.isVisible()
    finally:
        release.set()
    qt_wait_until(qtbot, lambda: runner.service.running.done(), "the abandoned backup to stop")
    assert list(share.iterdir()) == []  # nothing, not half a backup
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "every background task to end")


def test_closing_waits_a_bounded_time_for_a_stuck_backup(
    desk: SimpleNamespace, share: Path, run: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def stuck(*_args: Any, cancel: threading.Event | None = None, **_kwargs: Any) -> Any:
        release.wait()
        raise BackupCancelled

    monkeypatch.setattr(backup_module, "write_backup", stuck)
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    runner = ui_backups.BackupRunner(desk.backups)
    said: list[str] = []
    runner.said.connect(said.append)
    try:
        assert run(runner.before_closing(timeout=0.2)) is None  # the bound, not the backup
        assert desk.backups._cancel.is_set()  # told to stop at its next file
        assert said[-1].startswith("The backup was abandoned")
    finally:
        release.set()
        runner.deleteLater()


def test_closing_waits_for_the_backup_under_way_and_counts_it(
    desk: SimpleNamespace, share: Path, run: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release = threading.Event(), threading.Event()
    real_write = backup_module.write_backup

    def held(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait()
        return real_write(*args, **kwargs)

    monkeypatch.setattr(backup_module, "write_backup", held)
    QSettings().setValue(ui_backups.FOLDER_KEY, str(share))
    runner = ui_backups.BackupRunner(desk.backups)
    said: list[str] = []
    runner.said.connect(lambda text: (said.append(text), release.set()))  # it says, then ends
    try:
        daily = runner.check_daily()
        qt_wait_until(qtbot, started.is_set, "the daily backup under way")
        made = run(runner.before_closing())
        assert said == [
            "Waiting for the backup under way before closing (at most 15 s; Quit again to close "
            "now)…"
        ]
        assert made is not None and made.reason == "daily"  # no second backup seconds later
        assert [info.path for info in list_backups(share)] == [made.path]
        assert run(_awaited(daily)) == made
    finally:
        release.set()
        runner.deleteLater()


async def _awaited(task: Any) -> Any:
    return await task
