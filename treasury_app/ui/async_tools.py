"""asyncio inside Qt (qasync), the safe way: dialogs awaited without nested loops, background
tasks kept alive until they finish."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

import shiboken6
import sniffio
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from treasury_app.ledger.errors import LedgerUnavailable

# The UI thread runs asyncio only (through qasync). httpcore asks sniffio which library is
# running; sniffio looks for a current asyncio task, and qasync runs some clean-up (a
# cancelled load closing its connection) outside any task, where sniffio would give up.
sniffio.thread_local.name = "asyncio"

T = TypeVar("T")
log = logging.getLogger("treasury_app.ui")

_tasks: set[asyncio.Task[Any]] = set()


async def ask(dialog: QDialog) -> int:
    """Show ``dialog`` (window-modal) and wait for its result without ``exec()``: a nested
    event loop would re-enter asyncio under qasync."""
    loop = asyncio.get_event_loop()
    done: asyncio.Future[int] = loop.create_future()

    def finished(result: int) -> None:
        if not done.done():
            done.set_result(result)

    dialog.finished.connect(finished)
    dialog.open()
    try:
        return await done
    finally:
        dialog.finished.disconnect(finished)


def yes_no_box(
    parent: QWidget, icon: QMessageBox.Icon, title: str, text: str, name: str
) -> QMessageBox:
    """A question answered Yes or No, No (the safe answer) by default; ask it with
    :func:`ask_yes`."""
    box = QMessageBox(icon, title, text, parent=parent)
    box.setObjectName(name)
    box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
    box.setDefaultButton(QMessageBox.StandardButton.No)
    return box


async def ask_yes(box: QMessageBox) -> bool:
    """:func:`ask` ``box``, then delete it: whether the answer was Yes."""
    try:
        return await ask(box) == QMessageBox.StandardButton.Yes
    finally:
        if shiboken6.isValid(box):
            box.deleteLater()


def spawn(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Start a background task and keep a strong reference until it is done (the loop only
    keeps weak ones). Its exception, if any, goes to ``sys.excepthook`` via the log."""
    task = asyncio.ensure_future(coro)
    if name:
        task.set_name(name)
    _tasks.add(task)

    def forget(finished: asyncio.Task[T]) -> None:
        _tasks.discard(finished)
        if not finished.cancelled() and finished.exception() is not None:
            error = finished.exception()
            assert error is not None
            if isinstance(error, LedgerUnavailable):
                # The team database offline: the status bar says so, what is on screen
                # stays, and the change feed reloads what changed once it is back.
                logging.getLogger("treasury_app.ui").warning("background load: %s", error)
                return
            import sys

            sys.excepthook(type(error), error, error.__traceback__)

    task.add_done_callback(forget)
    return task


def spawn_unless_busy(
    running: asyncio.Task[Any] | None, coro: Coroutine[Any, Any, T], *, name: str
) -> asyncio.Task[T] | None:
    """:func:`spawn` ``coro``, unless ``running`` has not finished: then ``coro`` is closed
    unstarted and ``None`` returned (one action of a window at a time)."""
    if running is not None and not running.done():
        coro.close()
        return None
    return spawn(coro, name=name)


def running_tasks() -> int:
    return len(_tasks)
