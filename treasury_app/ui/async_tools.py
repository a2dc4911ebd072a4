"""asyncio inside Qt (qasync), the safe way: dialogs awaited without nested loops, background
tasks kept alive until they finish."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

import sniffio
from PySide6.QtWidgets import QDialog

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
            import sys

            sys.excepthook(type(error), error, error.__traceback__)

    task.add_done_callback(forget)
    return task


def running_tasks() -> int:
    return len(_tasks)
