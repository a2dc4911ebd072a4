"""Keep a list up to date with what changes elsewhere in the app: on ``events.ledger_changed``
it reloads after a short pause (several changes, one reload) when shown, or when next shown;
never two reloads at once. :class:`JournalFeed` is what the views of journal entries listen to,
:class:`BankEventsFeed` what the lists of charges and recurrences listen to (the bank's
notifications, through the team's webhook receiver)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QWidget

from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.operation import events

if TYPE_CHECKING:
    from treasury_app.services.notifications import BankNotifications

REFRESH_DELAY_MS = 400


class _Tracker(Protocol):
    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]: ...


class JournalFeed:
    """The tracker's notifications of changed journal entries to ``on_entry`` (a signal's
    ``emit``, so that they arrive on the GUI thread) and, when given, ``events.ledger_changed``
    to ``on_ledger``; :meth:`close` stops both, once."""

    def __init__(
        self,
        tracker: _Tracker,
        on_entry: Callable[[Any], None],
        on_ledger: Callable[[], None] | None = None,
    ) -> None:
        self._unsubscribe: Callable[[], None] | None = tracker.subscribe(on_entry)
        self._on_ledger = on_ledger
        if on_ledger is not None:
            events.ledger_changed.connect(on_ledger)

    def close(self) -> None:
        if self._unsubscribe is not None:
            with contextlib.suppress(ValueError):
                self._unsubscribe()
            self._unsubscribe = None
        if self._on_ledger is not None:
            with contextlib.suppress(RuntimeError):
                events.ledger_changed.disconnect(self._on_ledger)
            self._on_ledger = None


class BankEventsFeed:
    """What the receiver applied, for a team session (``session.notifications``), to
    ``on_changes(changes)`` (a signal's ``emit``, so that it arrives on the GUI thread): a
    :class:`~treasury_app.services.notifications.BankChanges` read from the database, never a
    notification's payload; ``changes.everything`` means "read everything again". Nothing on
    the file ledger (:attr:`active` is false); :meth:`close` stops, once."""

    def __init__(self, session: Any, on_changes: Callable[[Any], None]) -> None:
        self.notifications: BankNotifications | None = getattr(session, "notifications", None)
        self._unsubscribe: Callable[[], None] | None = None
        if self.notifications is not None:
            self._unsubscribe = self.notifications.subscribe_changes(on_changes)

    @property
    def active(self) -> bool:
        return self._unsubscribe is not None

    def close(self) -> None:
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()


class LiveReload(QObject):
    """Reloads ``owner`` through ``reload`` (a coroutine function); the owner's reload calls
    :meth:`started` first, and its ``shutdown`` calls :meth:`stop`."""

    def __init__(
        self,
        owner: QWidget,
        reload: Callable[[], Coroutine[Any, Any, Any]],
        *,
        name: str,
        delay_ms: int = REFRESH_DELAY_MS,
    ) -> None:
        super().__init__(owner)
        self._owner = owner
        self._reload = reload
        self._name = name
        self._stale = False
        self.task: asyncio.Task[Any] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(delay_ms)
        self._timer.timeout.connect(self.now)
        owner.installEventFilter(self)
        events.ledger_changed.connect(self.schedule)
        self._listening = True

    def schedule(self) -> None:
        """Something changed somewhere: reload soon if shown, else when next shown."""
        if not shiboken6.isValid(self._owner):
            return
        if self._owner.isVisible():
            self._timer.start()
        else:
            self._stale = True

    def now(self) -> None:
        """Reload at once, unless a reload is already on its way."""
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self._reload(), name=self._name)

    def started(self) -> None:
        """A reload began (whoever started it): nothing is pending any more."""
        self._timer.stop()
        self._stale = False

    def stop(self) -> None:
        """Stop listening and cancel the reload on its way."""
        self._timer.stop()
        if self._listening:  # stop may run twice (a tab's hide, then its shutdown)
            self._listening = False
            with contextlib.suppress(RuntimeError, TypeError):
                events.ledger_changed.disconnect(self.schedule)
        if self.task is not None and not self.task.done():
            self.task.cancel()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Show and self._stale:
            self._timer.start()
        return False
