"""The qasync plumbing: dialogs awaited without exec(), background tasks kept alive."""

from __future__ import annotations

import asyncio

from PySide6.QtWidgets import QDialog

from tests.waiting import qt_wait_until
from treasury_app.ui.async_tools import ask, running_tasks, spawn


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
