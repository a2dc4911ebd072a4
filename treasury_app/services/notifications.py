"""Whether the bank's notifications reach this desktop, and what they say as they arrive.

A desktop is not reachable from the internet: on a team database, the webhook receiver (a
service next to the database) stores what the bank notifies and wakes the desktops. This
module is the desktop's side of it:

* :class:`ReceiverStatus`: live when some receiver's heartbeat is within :data:`LIVE_WITHIN`
  of the database's ``now()``, with the age of the last notification stored; otherwise why
  not (no receiver has ever run on this database, the receiver has been silent since …, the
  team database is offline). The file ledger has no receiver: no status, polling as always.
* :class:`BankNotifications`: woken by ``NOTIFY treasury_bank_events`` on a direct connection
  of its own (:class:`~treasury_app.ledger.team.bank_events.BankEventFeed`), reads what the
  receiver applied from its tables (never from the notification's payload, which any login can
  send) and passes it as :class:`BankChanges` to its subscribers (the charges, received Pix
  and recurrences lists); after the link was lost they get :data:`EVERYTHING` (read
  everything again: what was notified meanwhile never reached this listener). Payments need
  none of this: the receiver moves them in the journal, whose change feed already updates
  every list of payments; and
* the lists read what those changes name again from the bank through a
  :class:`~treasury_app.services.refresh_queue.RefreshQueue`: each reference once however
  often it is named, paced (never a burst of bank calls).

The payment tracker asks :meth:`BankNotifications.live` to choose between fast polling and a
slow safety poll (:mod:`treasury_app.services.tracker`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING

from treasury_app.ledger.errors import LedgerRefused, LedgerUnavailable
from treasury_app.ledger.team.bank_events import EVERYTHING, BankChanges, BankEventFeed
from treasury_app.ledger.team.notices import ReceiversSeen

if TYPE_CHECKING:
    from treasury_app.ledger.team.notices import TeamNotices

__all__ = [
    "EVERYTHING",
    "LIVE_WITHIN",
    "BankChanges",
    "BankNotifications",
    "ReceiverState",
    "ReceiverStatus",
    "receiver_status",
]

log = logging.getLogger("treasury_app.services.notifications")

LIVE_WITHIN = timedelta(seconds=30)
"""A receiver is live while its last heartbeat (every 5 s) is at most this old."""


class ReceiverState(StrEnum):
    CHECKING = "checking"
    """Not read yet (the desktop just unlocked)."""
    LIVE = "live"
    NEVER = "never"
    """No receiver has ever run on this team database."""
    SILENT = "silent"
    """The receiver has been silent since :attr:`ReceiverStatus.seen_at`."""
    OFFLINE = "offline"
    """The team database is offline (:attr:`ReceiverStatus.detail` says why)."""


@dataclass(frozen=True)
class ReceiverStatus:
    """The receivers as last read. Instants are the database's; ``observed`` is when this
    computer read them (``time.monotonic()``), so that an age keeps growing between two
    readings without trusting this computer's clock."""

    state: ReceiverState
    checked_at: datetime | None = None
    """The database's ``now()`` at the reading."""
    seen_at: datetime | None = None
    """The latest heartbeat of any receiver."""
    last_item_at: datetime | None = None
    """When a receiver last stored a notification (``None``: never)."""
    url: str = ""
    """The public webhook URL the receiver announces (what desktops register at the bank)."""
    detail: str = ""
    """Why the database is offline."""
    observed: float = 0.0

    @property
    def live(self) -> bool:
        return self.state is ReceiverState.LIVE

    def last_item_age(self, now: float | None = None) -> timedelta | None:
        """How long ago the last notification was stored, at ``now`` (``time.monotonic()``)."""
        if self.last_item_at is None or self.checked_at is None:
            return None
        since_reading = max(0.0, (time.monotonic() if now is None else now) - self.observed)
        age = self.checked_at - self.last_item_at + timedelta(seconds=since_reading)
        return max(age, timedelta(0))

    def why_not(self) -> str:
        """Why the bank's notifications do not reach this desktop now ('' when live)."""
        if self.state is ReceiverState.NEVER:
            return "No webhook receiver has ever run on this team database."
        if self.state is ReceiverState.SILENT:
            return f"The webhook receiver has been silent since {self.seen_at:%Y-%m-%d %H:%M}."
        if self.state is ReceiverState.OFFLINE:
            return f"The team database is offline ({self.detail or 'not reachable'})."
        if self.state is ReceiverState.CHECKING:
            return "The webhook receiver has not been checked yet."
        return ""


def receiver_status(
    seen: ReceiversSeen | None, detail: str = "", *, observed: float | None = None
) -> ReceiverStatus:
    """The status of a reading of the heartbeats (``None``: the database is offline)."""
    moment = time.monotonic() if observed is None else observed
    if seen is None:
        return ReceiverStatus(ReceiverState.OFFLINE, detail=detail, observed=moment)
    if seen.receivers == 0 or seen.seen_at is None:
        state = ReceiverState.NEVER
    elif seen.now - seen.seen_at <= LIVE_WITHIN:
        state = ReceiverState.LIVE
    else:
        state = ReceiverState.SILENT
    return ReceiverStatus(
        state,
        checked_at=seen.now,
        seen_at=seen.seen_at,
        last_item_at=seen.last_item_at,
        url=seen.url,
        observed=moment,
    )


StatusListener = Callable[[ReceiverStatus], None]
ChangesListener = Callable[[BankChanges], None]


class BankNotifications:
    """The receiver's status and the bank events of one team database, for one desktop.

    :meth:`start` follows the database (``conninfo``: a direct connection of its own);
    :meth:`close` stops. ``notices`` reads the receivers' heartbeats on demand."""

    def __init__(self, notices: TeamNotices, conninfo: str) -> None:
        self.notices = notices
        self.status = ReceiverStatus(ReceiverState.CHECKING, observed=time.monotonic())
        self._status_listeners: list[StatusListener] = []
        self._changes_listeners: list[ChangesListener] = []
        self.feed = BankEventFeed(
            conninfo,
            on_changes=self._changes,
            on_receivers=self._receivers,
            on_reconnect=lambda: self._changes(EVERYTHING),
        )

    def start(self) -> None:
        self.feed.start()

    async def close(self) -> None:
        await self.feed.stop()
        self._status_listeners.clear()
        self._changes_listeners.clear()

    # -- the receiver's status ---------------------------------------------------------------

    def live(self) -> bool:
        """Whether a receiver brings the bank's notifications now."""
        return self.status.live

    def subscribe(self, listener: StatusListener) -> Callable[[], None]:
        """Call ``listener(status)`` after each reading (every few seconds); returns
        unsubscribe."""
        return _add(self._status_listeners, listener)

    async def check(self) -> ReceiverStatus:
        """Read the receivers now (through the ledger's pool) and tell the subscribers."""
        try:
            seen: ReceiversSeen | None = await self.notices.receivers()
            detail = ""
        except (LedgerUnavailable, LedgerRefused) as error:  # the feed keeps trying
            seen, detail = None, getattr(error, "detail", "") or str(error)
        self._receivers(seen, detail)
        return self.status

    def _receivers(self, seen: ReceiversSeen | None, detail: str) -> None:
        status = receiver_status(seen, detail)
        if seen is None:
            status = replace(status, url=self.status.url)  # as last read, for the dialog
        if status.state is not self.status.state:
            log.info("webhook receiver: %s", status.state.value)
        self.status = status
        _tell(self._status_listeners, status)

    # -- what the receiver applied ----------------------------------------------------------

    def subscribe_changes(self, listener: ChangesListener) -> Callable[[], None]:
        """Call ``listener(changes)`` after each reading that found something the receiver
        applied (and with :data:`EVERYTHING` after the link was lost); returns unsubscribe."""
        return _add(self._changes_listeners, listener)

    def _changes(self, changes: BankChanges) -> None:
        _tell(self._changes_listeners, changes)


def _add(listeners: list[Callable[..., None]], listener: Callable[..., None]) -> Callable[[], None]:
    listeners.append(listener)

    def unsubscribe() -> None:
        if listener in listeners:
            listeners.remove(listener)

    return unsubscribe


def _tell(listeners: list[Callable[..., None]], value: object) -> None:
    for listener in list(listeners):
        try:
            listener(value)
        except Exception:
            log.exception("notifications listener failed")
