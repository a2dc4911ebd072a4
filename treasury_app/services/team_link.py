"""A session's live link to its team database: what other desktops change, and whether the
database is reachable.

The link follows the database's change feed (:class:`~treasury_app.ledger.team.changes.
ChangeFeed`): each batch of changed entry ids is read back and announced through the
payment engine's listeners, exactly as this desktop's own changes are, so every list that
follows payments updates with no polling of its own. The link's state (online, or offline
and why) is for the status bar; while offline nothing is lost: on reconnecting the feed reads
every change made meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from treasury_app.domain.clock import Clock, system_clock
from treasury_app.ledger.errors import LedgerUnavailable

if TYPE_CHECKING:
    from treasury_app.ledger.team import TeamLedger
    from treasury_app.ledger.team.changes import FeedState
    from treasury_app.services.payments import PaymentEngine

log = logging.getLogger("treasury_app.services.team_link")


@dataclass(frozen=True)
class TeamState:
    """What the status bar says of the team database."""

    online: bool
    detail: str
    last_change: datetime | None
    """When the last change from the feed arrived (``None``: none yet)."""
    database: str


TeamStateListener = Callable[[TeamState], None]


class TeamLink:
    def __init__(
        self,
        ledger: TeamLedger,
        engine: PaymentEngine,
        conninfo: str,
        *,
        clock: Clock = system_clock,
        probe_every: float = 15.0,
        position: str | None = None,
    ) -> None:
        """``position``: the change feed's position when the session's lists were loaded
        (from then on, nothing is missed); ``None``: from when the feed first connects."""
        from treasury_app.ledger.team.changes import ChangeFeed

        self.ledger = ledger
        self.engine = engine
        self.clock = clock
        self.feed = ChangeFeed(
            conninfo,
            on_changes=self._on_changes,
            on_state=self._on_state,
            probe_every=probe_every,
            position=position,
        )
        self.state = TeamState(False, "connecting", None, ledger.describe())
        self._listeners: list[TeamStateListener] = []
        self._pending: set[int] = set()
        self._reader: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.feed.start()

    async def close(self) -> None:
        await self.feed.stop()
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await reader

    def subscribe(self, listener: TeamStateListener) -> Callable[[], None]:
        """Call ``listener(state)`` on every change of the link's state; returns unsubscribe."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _set(self, state: TeamState) -> None:
        self.state = state
        for listener in list(self._listeners):
            try:
                listener(state)
            except Exception:
                log.exception("team state listener failed")

    def _on_state(self, feed_state: FeedState) -> None:
        self._set(
            TeamState(
                feed_state.online, feed_state.detail, self.state.last_change, self.state.database
            )
        )
        if feed_state.online and self._pending:  # what could not be read back while offline
            self._read_back()

    def _on_changes(self, entry_ids: list[int]) -> None:
        self._pending.update(entry_ids)
        self._set(TeamState(True, "", self.clock(), self.state.database))
        self._read_back()

    def _read_back(self) -> None:
        if self._reader is None or self._reader.done():
            self._reader = asyncio.get_running_loop().create_task(
                self._announce(), name="team-changes"
            )

    async def _announce(self) -> None:
        """Read the changed entries back (a burst at a time) and announce each one."""
        while self._pending:
            ids, self._pending = sorted(self._pending), set()
            try:
                entries = await self.ledger.journal.get_many(ids)
            except LedgerUnavailable as error:
                log.info("team changes not read (%s): the feed catches up later", error)
                self._pending.update(ids)
                return
            for entry in entries:
                self.engine.announce(entry)
