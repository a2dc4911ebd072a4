"""One way to run a service call from the UI (after Anki's CollectionOp/QueryOp).

:func:`run_operation` awaits a service coroutine while the control that started it is
disabled and a busy cursor shows; a failure goes to the tab's :class:`ErrorBanner` (with the
fields it names marked) instead of escaping; a change announces itself through
:data:`events` so that balance, statement and payment lists refresh.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Iterable, Mapping
from typing import TypeVar

import shiboken6
from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QWidget

from treasury_app.api.errors import ApiFailure
from treasury_app.ledger.stores import LedgerRefused, LedgerUnavailable
from treasury_app.ui.widgets.error_banner import ErrorBanner

T = TypeVar("T")
log = logging.getLogger("treasury_app.ui.operation")


class AppEvents(QObject):
    """App-wide notifications: views listen, operations announce."""

    ledger_changed = Signal()  # a payment, charge or configuration changed
    busy_changed = Signal(bool)


events = AppEvents()

# What a person can fix or retry: shown in the banner. Anything else is a bug: excepthook.
EXPECTED_ERRORS: tuple[type[BaseException], ...] = (
    ApiFailure,
    ValueError,
    LookupError,
    LedgerUnavailable,  # the team database offline: nothing was sent
    LedgerRefused,  # the team database's roles do not allow it
)


async def run_operation(
    work: Awaitable[T],
    *,
    controls: Iterable[QWidget | QAction] = (),
    banner: ErrorBanner | None = None,
    fields: Mapping[str, QWidget] | None = None,
    changes_ledger: bool = False,
) -> T | None:
    """Await ``work`` with ``controls`` disabled; ``None`` when it failed (shown in ``banner``)."""
    disabled = [c for c in controls if c.isEnabled()]
    for control in disabled:
        control.setEnabled(False)
    QGuiApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
    events.busy_changed.emit(True)
    try:
        result = await work
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
