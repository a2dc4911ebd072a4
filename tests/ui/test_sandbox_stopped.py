"""The embedded sandbox bank dies while the app is open: the app says so and offers to start
it again; restarting brings the profile back (unlocked again, on the new bank's ports) instead
of leaving a dead bank behind Lock/Unlock."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtWidgets import QMessageBox

from tests.ui.test_app_flow import unlock_with
from tests.waiting import LONG_WAIT_SECONDS, qt_wait_until
from treasury_app.config import AppPaths
from treasury_app.services.profiles import sandbox_profile
from treasury_app.ui import controller as controller_module
from treasury_app.ui.controller import StartOptions
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog


@pytest.fixture
def own_app(tmp_path, start_app: Any, monkeypatch) -> Any:
    """An app with a sandbox bank of its own (started by the app, as ``make run`` does)."""
    monkeypatch.setattr(controller_module, "SANDBOX_WATCH_MS", 200)
    QSettings().clear()
    paths = AppPaths.default(tmp_path / "app")
    paths.ensure()
    return start_app(
        paths, StartOptions(sandbox=True, sandbox_args=("--clock-start", "2026-11-18T13:00:00Z"))
    )


def unlock(qtbot, app) -> None:
    """Unlock ``app``'s own unlock dialog (the sandbox it started is up once it shows)."""

    def its_dialog() -> Any:
        if app.window is None or app.sandbox is None:
            return None
        return next((d for d in app.window.findChildren(UnlockDialog) if d.isVisible()), None)

    qt_wait_until(qtbot, its_dialog, "the app's unlock dialog", timeout=LONG_WAIT_SECONDS)
    _, secrets = sandbox_profile(app.sandbox.ready_file)
    unlock_with(qtbot, its_dialog(), dict(secrets.pfx_passwords))
    qt_wait_until(qtbot, lambda: app.workspace is not None, "the profile unlocked")


def test_a_dead_sandbox_is_reported_and_restarted(qtbot, own_app, run) -> None:
    app = own_app
    unlock(qtbot, app)
    first = app.sandbox
    assert first.started_here and first.alive()
    pid = first.process.pid

    first.process.kill()  # the bank dies under the open window
    first.process.wait()
    qt_wait_until(
        qtbot,
        lambda: app.sandbox_box is not None and app.sandbox_box.isVisible(),
        "the sandbox-stopped box",
    )
    box: QMessageBox = app.sandbox_box
    assert "not running any more" in box.text() and "sandbox.log" in box.text()
    restart = next(b for b in box.buttons() if b.text() == "Restart the sandbox bank")
    qtbot.mouseClick(restart, Qt.MouseButton.LeftButton)

    qt_wait_until(qtbot, lambda: app.workspace is None, "app.workspace is None")
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
    qt_wait_until(qtbot, lambda: app.sandbox_box is not None, "app.sandbox_box is not None")
    later = next(b for b in app.sandbox_box.buttons() if b.text() == "Not now")
    qtbot.mouseClick(later, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: "not running" in app.window.statusBar().currentMessage(),
        "'not running' in app.window.statusBar().currentMessage()",
    )
    app.window.lock_action.trigger()
    qt_wait_until(qtbot, lambda: app.workspace is None, "app.workspace is None")
    unlock(qtbot, app)
    assert app.sandbox is not first and app.sandbox.alive()
    assert run(app.workspace.statement.balance()).available is not None


def test_a_quit_while_the_sandbox_bank_restarts_ends_the_app(qtbot, own_app) -> None:
    """Quit while the restarted bank is starting: kept, and once it is up the app stops it and
    ends, instead of asking to unlock again."""
    app = own_app
    unlock(qtbot, app)
    first = app.sandbox
    first.process.kill()
    first.process.wait()
    qt_wait_until(
        qtbot,
        lambda: app.sandbox_box is not None and app.sandbox_box.isVisible(),
        "the sandbox-stopped box",
    )
    steps: list[str] = []

    def on_stage(stage: str) -> None:
        steps.append(stage)
        if stage == "sandbox":  # the new bank starting, in its thread
            QTimer.singleShot(0, app.window.quit_requested.emit)

    app.stage_reached.connect(on_stage)
    restart = next(b for b in app.sandbox_box.buttons() if b.text() == "Restart the sandbox bank")
    qtbot.mouseClick(restart, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, app.run_task.done, "the app to end after the quit")
    app.run_task.result()
    assert steps == ["sandbox"]  # no unlock after it
    assert app.workspace is None and not app.window.isVisible()
    assert app.sandbox is not first and not app.sandbox.alive()  # the new bank, stopped
