"""One way to run a service call from the UI (after Anki's CollectionOp/QueryOp).

:func:`run_operation` awaits a service coroutine while the control that started it is
disabled and a busy cursor shows; a failure goes to the tab's :class:`ErrorBanner` (with the
fields it names marked) instead of escaping; a change announces itself through
:data:`events` so that balance, statement and payment lists refresh.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Awaitable, Iterable, Mapping
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QWidget

from treasury_app.ui.user_errors import USER_ERRORS
from treasury_app.ui.widgets.error_banner import ErrorBanner

T = TypeVar("T")
log = logging.getLogger("treasury_app.ui.operation")


class AppEvents(QObject):
    """App-wide notifications: views listen, operations announce."""

    ledger_changed = Signal()  # a payment, charge or configuration changed
    busy_changed = Signal(bool)


events = AppEvents()

# What a person can fix or retry: shown in the banner. Anything else is a bug: it propagates
# to the task's exception hook, which logs it and shows it as an unexpected error.
EXPECTED_ERRORS: tuple[type[BaseException], ...] = USER_ERRORS

_unwatched: set[asyncio.Task[Any]] = set()  # changes whose window went while they ran


async def run_operation(
    work: Awaitable[T],
    *,
    controls: Iterable[QWidget | QAction] = (),
    banner: ErrorBanner | None = None,
    fields: Mapping[str, QWidget] | None = None,
    changes_ledger: bool = False,
) -> T | None:
    """Await ``work`` with ``controls`` disabled; ``None`` when it failed (shown in ``banner``).

    A change (``changes_ledger``) is shielded: when the task awaiting it is cancelled (its
    widget went, see :func:`~treasury_app.ui.async_tools.spawn_for`), the change still runs
    to its end (the journal and the lists have its outcome); only what the widget would have
    done next is dropped."""
    disabled = [c for c in controls if c.isEnabled()]
    for control in disabled:
        control.setEnabled(False)
    QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
    events.busy_changed.emit(True)
    try:
        result = await (_shielded(work) if changes_ledger else work)
    except EXPECTED_ERRORS as error:
        log.info("operation failed: %s", error)
        if banner is None:
            raise
        if shiboken6.isValid(banner):
            banner.show_error(error, fields)
        return None
    finally:
        QGuiApplication.restoreOverrideCursor()
        events.busy_changed.emit(False)
        for control in disabled:
            if shiboken6.isValid(control):  # its window may be gone (locked meanwhile)
                control.setEnabled(True)
    if banner is not None and shiboken6.isValid(banner):
        banner.clear()
    if changes_ledger:
        events.ledger_changed.emit()
    return result


def running_changes() -> int:
    """How many changes are still running after the window that started them went."""
    return len(_unwatched)


async def _shielded(work: Awaitable[T]) -> T:
    change = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(change)
    except asyncio.CancelledError:
        if not change.done():
            _unwatched.add(change)
            change.add_done_callback(_finished_unwatched)
        raise


def _finished_unwatched(change: asyncio.Task[Any]) -> None:
    """A change that outlived its window: the lists refresh; a failure is logged (a person's
    error was theirs to see in a window that is gone), a bug goes to the exception hook."""
    _unwatched.discard(change)
    events.ledger_changed.emit()
    if change.cancelled():
        return
    error = change.exception()
    if error is None:
        return
    if isinstance(error, EXPECTED_ERRORS):
        log.warning("a change whose window was closed failed: %s", error)
        return
    sys.excepthook(type(error), error, error.__traceback__)
