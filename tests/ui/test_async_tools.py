"""The qasync plumbing: dialogs awaited without exec(), background tasks kept alive, a
widget's tasks cancelled when it goes, and only a person's errors shown as theirs."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from PySide6.QtWidgets import QDialog

from tests.waiting import qt_turn, qt_wait_until
from treasury_app.ui.async_tools import ask, running_tasks, spawn, spawn_for


def test_ask_returns_the_dialog_result_without_a_nested_loop(qtbot, run, qasync_loop) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    assert not asked.done()
    dialog.accept()
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted


def test_spawned_tasks_are_kept_until_done(qtbot, run) -> None:
    async def later() -> int:
        await asyncio.sleep(0.05)
        return 7

    task = spawn(later())
    assert running_tasks() >= 1
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() == 7
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "running_tasks() == 0")


def test_a_coroutine_runs_on_the_qt_loop(run) -> None:
    async def work() -> str:
        await asyncio.sleep(0.01)
        return "ok"

    assert run(work()) == "ok"


def test_a_background_load_offline_is_logged_not_shown(qtbot, run, monkeypatch, caplog) -> None:
    import sys

    from treasury_app.ledger.errors import LedgerUnavailable

    shown: list[BaseException] = []
    monkeypatch.setattr(sys, "excepthook", lambda kind, error, tb: shown.append(error))

    async def offline() -> None:
        raise LedgerUnavailable("The team database cannot be reached (refused).")

    async def broken() -> None:
        raise RuntimeError("a bug")

    first, second = spawn(offline()), spawn(broken())
    qt_wait_until(qtbot, lambda: first.done() and second.done(), "first.done() and second.done()")
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "running_tasks() == 0")
    assert [type(error) for error in shown] == [RuntimeError]  # only the bug is shown
    assert "cannot be reached" in caplog.text


def test_a_widgets_task_is_cancelled_when_the_widget_is_destroyed(qtbot, run) -> None:
    """The coroutine waits for an answer; the answer comes and the widget goes before the
    coroutine runs on: it stops where it waited and never touches the deleted widget."""
    import shiboken6
    from PySide6.QtWidgets import QLabel

    label = QLabel("waiting")
    answer: asyncio.Future[str] = asyncio.get_event_loop().create_future()
    reached: list[str] = []

    async def show_answer() -> None:
        text = await answer
        reached.append("after the await")
        label.setText(text)  # on a deleted label: RuntimeError, the bug the helper prevents

    task = spawn_for(label, show_answer(), name="show-answer")
    qt_turn(qtbot)
    assert not task.done()
    # The closest race: the answer is in (the coroutine's next step is scheduled), then the
    # widget is deleted before that step runs.
    answer.set_result("the bank's answer")
    shiboken6.delete(label)
    qt_wait_until(qtbot, task.done, "the task to end")
    assert task.cancelled()
    assert reached == []


def test_a_task_that_ends_first_leaves_its_widget_alone(qtbot, run) -> None:
    from PySide6.QtWidgets import QLabel

    label = QLabel("waiting")
    qtbot.addWidget(label)

    async def show() -> str:
        await asyncio.sleep(0)
        label.setText("done")
        return label.text()

    label.destroyed.connect(lambda: None)  # PySide's own receiver is in from the first one
    listening = label.receivers("2destroyed(QObject*)")
    task = spawn_for(label, show())
    assert label.receivers("2destroyed(QObject*)") == listening + 1
    qt_wait_until(qtbot, task.done, "the task to end")
    assert task.result() == "done"
    qt_turn(qtbot)  # its done callbacks ran: nothing is left connected to cancel a done task
    assert label.receivers("2destroyed(QObject*)") == listening


def test_a_change_runs_to_its_end_when_its_window_goes(qtbot, run) -> None:
    """A change (a payment, say) started from a dialog that is then destroyed: the dialog's
    task stops, the change does not."""
    from PySide6.QtWidgets import QDialog, QPushButton

    from treasury_app.ui.operation import events, run_operation

    dialog = QDialog()
    button = QPushButton("Send", dialog)
    bank: asyncio.Future[str] = asyncio.get_event_loop().create_future()
    finished: list[str] = []
    changed: list[bool] = []
    events.ledger_changed.connect(lambda: changed.append(True))

    async def send() -> str:
        outcome = await bank
        finished.append(outcome)  # the journal would record it here
        return outcome

    async def send_from_dialog() -> None:
        await run_operation(send(), controls=[button], changes_ledger=True)
        button.setText("Sent")  # the dialog's follow-up: dropped once it is gone

    task = spawn_for(dialog, send_from_dialog())
    qt_wait_until(qtbot, lambda: not button.isEnabled(), "the button disabled while sending")
    dialog.deleteLater()
    qt_wait_until(qtbot, task.done, "the dialog's task to end")
    assert task.cancelled() and finished == []
    bank.set_result("ACCEPTED")
    qt_wait_until(qtbot, lambda: finished and changed, "the change to finish on its own")
    assert finished == ["ACCEPTED"]


def test_a_bug_in_an_operation_is_an_unexpected_error_not_the_persons(
    qtbot, run, monkeypatch, caplog
) -> None:
    """A ValueError from a bug does not say "please check the form" in the banner: it goes
    to the exception hook, which logs it and shows the unexpected-error box."""
    from PySide6.QtWidgets import QApplication, QMessageBox, QWidget

    from treasury_app.app import _install_excepthook
    from treasury_app.services.approvals import ApprovalInputError
    from treasury_app.ui.operation import run_operation
    from treasury_app.ui.widgets.error_banner import ErrorBanner

    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # put back after the test
    _install_excepthook()
    window = QWidget()
    qtbot.addWidget(window)
    banner = ErrorBanner(window)

    async def buggy() -> None:
        int("R$ 10,00")  # ValueError: a bug of the code, not of what was typed

    async def refused() -> None:
        raise ApprovalInputError("Say why it is rejected.")

    async def operate(work: Any) -> None:
        await run_operation(work, banner=banner)

    run(operate(refused()))  # the person's mistake: in the banner, in their words
    assert banner.isVisibleTo(window) and "Say why" in banner.detail.text()
    banner.clear()

    task = spawn_for(window, operate(buggy()))
    qt_wait_until(qtbot, task.done, "the operation to end")
    assert isinstance(task.exception(), ValueError)
    boxes: list[QMessageBox] = []

    def unexpected_box_shown() -> bool:
        boxes[:] = [
            box
            for box in QApplication.topLevelWidgets()
            if isinstance(box, QMessageBox) and box.objectName() == "unexpected-error"
        ]
        return bool(boxes)

    qt_wait_until(qtbot, unexpected_box_shown, "the unexpected-error box")
    assert "Unexpected error" in boxes[0].text()
    assert not banner.isVisibleTo(window)  # not shown as the person's mistake
    assert "Unhandled error" in caplog.text and "invalid literal for int()" in caplog.text
    for box in boxes:
        box.done(0)
