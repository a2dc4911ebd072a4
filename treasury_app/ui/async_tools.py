"""asyncio inside Qt (qasync), the safe way: dialogs awaited without nested loops, background
tasks kept alive until they finish, and a widget's tasks cancelled when the widget goes."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

import shiboken6
import sniffio
from PySide6.QtCore import QObject
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
        if shiboken6.isValid(dialog):  # gone with its parent when the owner's task is cancelled
            dialog.finished.disconnect(finished)


def dispose(obj: QObject) -> None:
    """``obj.deleteLater()``, unless it is gone already: for the ``finally`` of a coroutine
    that asked a dialog of its widget, which goes with the widget when the task is cancelled
    (see :func:`spawn_for`)."""
    if shiboken6.isValid(obj):
        obj.deleteLater()


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
        dispose(box)


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


def spawn_for(
    owner: QObject, coro: Coroutine[Any, Any, T], *, name: str | None = None
) -> asyncio.Task[T]:
    """:func:`spawn` ``coro`` as ``owner``'s task: cancelled when ``owner`` is destroyed (a
    dialog closed, a tab torn down when the app locks).

    The cancellation lands before the coroutine runs again, so after every ``await`` either
    ``owner`` still exists or the coroutine stops there with :class:`asyncio.CancelledError`:
    it never touches a deleted widget, and needs no ``shiboken6.isValid(self)`` of its own
    (its ``finally`` clauses must not touch the widget either). What must finish whatever
    happens to the window (a payment, a charge) is shielded by
    :func:`treasury_app.ui.operation.run_operation`."""
    task = spawn(coro, name=name)

    def cancel(*_: object) -> None:
        task.cancel()

    owner.destroyed.connect(cancel)

    def disconnect(_finished: asyncio.Task[T]) -> None:
        if shiboken6.isValid(owner):  # the one place that asks: owner outlived its task
            owner.destroyed.disconnect(cancel)

    task.add_done_callback(disconnect)
    return task


def spawn_unless_busy(
    running: asyncio.Task[Any] | None,
    coro: Coroutine[Any, Any, T],
    *,
    name: str,
    owner: QObject | None = None,
) -> asyncio.Task[T] | None:
    """:func:`spawn` ``coro`` (as ``owner``'s task, see :func:`spawn_for`), unless ``running``
    has not finished: then ``coro`` is closed unstarted and ``None`` returned (one action of a
    window at a time)."""
    if running is not None and not running.done():
        coro.close()
        return None
    if owner is not None:
        return spawn_for(owner, coro, name=name)
    return spawn(coro, name=name)


def running_tasks() -> int:
    return len(_tasks)
