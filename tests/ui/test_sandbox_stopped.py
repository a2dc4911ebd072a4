"""The embedded sandbox bank dies while the app is open: the app says so and offers to start
it again; restarting brings the profile back (unlocked again, on the new bank's ports) instead
of leaving a dead bank behind Lock/Unlock."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QMessageBox

from tests.ui.test_app_flow import dialog_of, unlock_with
from treasury_app.config import AppPaths
from treasury_app.services.profiles import sandbox_profile
from treasury_app.ui import controller as controller_module
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.controller import AppController, StartOptions
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog


@pytest.fixture
def own_app(tmp_path, qasync_loop: Any, qtbot: Any, monkeypatch) -> Any:
    """An app with a sandbox bank of its own (started by the app, as ``make run`` does)."""
    monkeypatch.setattr(controller_module, "SANDBOX_WATCH_MS", 200)
    QSettings().clear()
    paths = AppPaths.default(tmp_path / "app")
    paths.ensure()
    app = AppController(
        paths,
        StartOptions(sandbox=True, sandbox_args=("--clock-start", "2026-11-18T13:00:00Z")),
    )
    task = qasync_loop.create_task(app.run())
    yield app
    if not task.done():
        app.window.quit_requested.emit()
        qtbot.waitUntil(task.done, timeout=15_000)
    qtbot.waitUntil(lambda: running_tasks() == 0, timeout=10_000)
    if app.sandbox is not None:
        app.sandbox.stop()


def unlock(qtbot, app) -> None:
    qtbot.waitUntil(lambda: dialog_of(UnlockDialog) is not None, timeout=20_000)
    _, secrets = sandbox_profile(app.sandbox.ready_file)
    unlock_with(qtbot, dialog_of(UnlockDialog), dict(secrets.pfx_passwords))
    qtbot.waitUntil(lambda: app.workspace is not None, timeout=20_000)


def test_a_dead_sandbox_is_reported_and_restarted(qtbot, own_app, run) -> None:
    app = own_app
    unlock(qtbot, app)
    first = app.sandbox
    assert first.started_here and first.alive()
    pid = first.process.pid

    first.process.kill()  # the bank dies under the open window
    first.process.wait()
    qtbot.waitUntil(
        lambda: app.sandbox_box is not None and app.sandbox_box.isVisible(), timeout=10_000
    )
    box: QMessageBox = app.sandbox_box
    assert "not running any more" in box.text() and "sandbox.log" in box.text()
    restart = next(b for b in box.buttons() if b.text() == "Restart the sandbox bank")
    qtbot.mouseClick(restart, Qt.MouseButton.LeftButton)

    qtbot.waitUntil(lambda: app.workspace is None, timeout=10_000)
    unlock(qtbot, app)  # the profile comes back on the new bank
    assert app.sandbox is not first and app.sandbox.alive()
    assert app.sandbox.process.pid != pid
    balance = run(app.workspace.statement.balance())
    assert balance.available is not None  # the new bank answers, over mutual TLS


def test_lock_and_unlock_brings_a_dead_sandbox_back(qtbot, own_app, run) -> None:
    app = own_app
    unlock(qtbot, app)
    first = app.sandbox
    first.process.kill()
    first.process.wait()
    qtbot.waitUntil(lambda: app.sandbox_box is not None, timeout=10_000)
    later = next(b for b in app.sandbox_box.buttons() if b.text() == "Not now")
    qtbot.mouseClick(later, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "not running" in app.window.statusBar().currentMessage(), timeout=5_000)
    app.window.lock_action.trigger()
    qtbot.waitUntil(lambda: app.workspace is None, timeout=10_000)
    unlock(qtbot, app)
    assert app.sandbox is not first and app.sandbox.alive()
    assert run(app.workspace.statement.balance()).available is not None
