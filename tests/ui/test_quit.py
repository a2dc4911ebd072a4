"""Quit is never lost: a quit that comes at any step of the start-up (the profile opening, the
sandbox bank starting, the unlock, the session opening, the main window) ends the run at the
next safe point; nothing is left on screen or pending, and the window's state is saved."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QDialog

from tests.waiting import qt_wait_until
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.controller import STAGES, AppController, StartOptions
from treasury_app.ui.main_window import SETTINGS_GROUP, MainWindow


def start(
    qtbot: Any, qasync_loop: Any, paths: Any, **options: Any
) -> tuple[AppController, Any, list[str]]:
    QSettings().clear()
    window = MainWindow()
    qtbot.addWidget(window)
    controller = AppController(paths, StartOptions(sandbox=True, **options), window=window)
    seen: list[str] = []
    controller.stage_reached.connect(seen.append)
    return controller, qasync_loop.create_task(controller.run()), seen


def quit_during(controller: AppController, stage: str) -> None:
    """Quit once ``stage`` has begun: on the next turn of the loop, while the step is under
    way (the sandbox starting in its thread, the session opening over the network)."""

    def on_stage(reached: str) -> None:
        if reached == stage:
            QTimer.singleShot(0, controller.window.quit_requested.emit)

    controller.stage_reached.connect(on_stage)


def assert_ended(qtbot: Any, controller: AppController, task: Any) -> None:
    qt_wait_until(qtbot, task.done, "the run to end after the quit")
    task.result()  # no error
    assert controller.workspace is None  # the session, if one opened, is closed
    assert not controller.window.isVisible()
    assert not [d for d in controller.window.findChildren(QDialog) if d.isVisible()]
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "every background task to end")
    settings = QSettings()
    assert settings.value(f"{SETTINGS_GROUP}/geometry") is not None  # saved, window alive


@pytest.mark.parametrize("stage", STAGES)
def test_a_quit_during_each_start_up_step_ends_the_run(
    stage: str, ui_paths: Any, ui_sandbox: Any, qasync_loop: Any, qtbot: Any
) -> None:
    controller, task, seen = start(qtbot, qasync_loop, ui_paths, unlock_sandbox=True)
    quit_during(controller, stage)
    assert_ended(qtbot, controller, task)
    assert stage in seen
    # The quit comes on the loop's next turn: the step under way may have begun its next part
    # (the profile step starts the sandbox bank at once), nothing beyond.
    later = STAGES[STAGES.index(stage) + 2 :]
    assert not set(seen) & set(later), seen
    assert ui_sandbox.alive()  # a bank the app did not start is left running


def test_a_quit_before_the_unlock_dialog_opens_never_shows_it(
    ui_paths: Any, ui_sandbox: Any, qasync_loop: Any, qtbot: Any
) -> None:
    """The person asked to quit while the sandbox bank was starting: the unlock dialog that
    would come next is not shown for nobody to answer."""
    controller, task, seen = start(qtbot, qasync_loop, ui_paths)
    opened: list[QDialog] = []
    original_ask = controller._ask

    async def recording_ask(dialog: QDialog) -> int:
        opened.append(dialog)
        return await original_ask(dialog)

    controller._ask = recording_ask  # type: ignore[method-assign]
    quit_during(controller, "sandbox")
    assert_ended(qtbot, controller, task)
    assert "session" not in seen
    assert all(not dialog.isVisible() for dialog in opened)


def test_a_quit_with_the_unlock_dialog_open_rejects_it(
    ui_paths: Any, ui_sandbox: Any, qasync_loop: Any, qtbot: Any
) -> None:
    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

    controller, task, seen = start(qtbot, qasync_loop, ui_paths)

    def unlock_dialog() -> Any:
        return next(
            (d for d in controller.window.findChildren(UnlockDialog) if d.isVisible()), None
        )

    qt_wait_until(qtbot, unlock_dialog, "the unlock dialog")
    controller.window.quit_requested.emit()
    assert_ended(qtbot, controller, task)
    assert "session" not in seen
