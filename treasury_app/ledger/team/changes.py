"""Live across desktops: which journal entries changed, read from the durable ``changes``
table after the last one this desktop has seen, woken by ``NOTIFY treasury_changes``.

The feed ``LISTEN``s on a direct connection of its own (not the pool: a pooler in transaction
mode would drop it), catches up first and then after every wake-up, and probes the link with
``SELECT 1`` when nothing arrives for a while (a silently dropped connection is found within
``probe_every`` seconds). Losing the database turns the state to offline and reconnects with
backoff (0.5 s doubling to 30 s); the catch-up after a reconnect delivers everything that
changed meanwhile, so a missed notification loses nothing: ``NOTIFY`` only wakes the reader,
the ``changes`` rows are the truth.

The feed's position is a snapshot, not a number (schema 5,
:mod:`~treasury_app.ledger.team.feed_schema`): ``changes.seq`` is handed out at insert, so a
row committed late can carry a lower ``seq`` than one read already. Each row records its
transaction (``txid``); a read returns the rows whose transaction the previous read's snapshot
did not see and this read's does — the rows committed in between, each exactly once, a late
one at the first read after its commit — and keeps this read's snapshot as the next position.
Nobody's open transaction holds a reader back: it delays only its own rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg.rows import dict_row

from treasury_app.ledger.team.schema import CHANNEL

log = logging.getLogger("treasury_app.ledger.team.changes")

CATCH_UP_LIMIT = 5000

CHANGES_SQL = """
SELECT seq, entry_id FROM treasury.changes
 WHERE txid >= pg_snapshot_xmin(%(after)s::pg_snapshot)
   AND NOT pg_visible_in_snapshot(txid, %(after)s::pg_snapshot)
   AND txid < pg_snapshot_xmax(pg_current_snapshot())
   AND seq > %(from_seq)s
 ORDER BY seq LIMIT %(limit)s
"""
"""The changes committed after the position ``after`` and visible now, from ``from_seq`` on
(a page); the ``txid`` bounds keep to this server's history (a row restored from another
server's dump, with a transaction id from its future, waits until this server's ids pass it).
"""
BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
DEBOUNCE_SECONDS = 0.2
"""After a read woken by NOTIFY: notifications within this long are one more read."""


@dataclass(frozen=True)
class FeedState:
    online: bool
    detail: str = ""
    position: str = ""
    """Where the feed has read up to (a snapshot of the team database, as text)."""


ChangesListener = Callable[[list[int]], None]
"""Called with the ids of the entries that changed (each once, in the order of their last
change)."""
StateListener = Callable[[FeedState], None]


class ListenerTask:
    """A listener's one background task: :meth:`start` it (again after it ended), :meth:`stop`
    it (cancelled and awaited). Subclasses give ``_run`` and ``TASK_NAME``."""

    TASK_NAME = "listener"
    _task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        raise NotImplementedError

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self.TASK_NAME)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


class ChangeFeed(ListenerTask):
    TASK_NAME = "change-feed"

    def __init__(
        self,
        conninfo: str,
        *,
        on_changes: ChangesListener,
        on_state: StateListener | None = None,
        position: str | None = None,
        probe_every: float = 15.0,
    ) -> None:
        """``position``: read the changes committed after it (:meth:`~treasury_app.ledger.
        team.TeamLedger.feed_position`, or a feed's :attr:`position`); ``None``: from when
        the feed first connects (nothing to replay)."""
        self._conninfo = conninfo
        self._on_changes = on_changes
        self._on_state = on_state
        self.position = position
        self.probe_every = probe_every
        self.state = FeedState(False, "connecting")
        self._task = None

    def _set_state(self, state: FeedState) -> None:
        if state == self.state:
            return
        self.state = state
        if self._on_state is not None:
            try:
                self._on_state(state)
            except Exception:
                log.exception("change feed state listener failed")

    async def _run(self) -> None:
        delay = BACKOFF_FIRST
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True, row_factory=dict_row
                ) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")  # 1. listen first
                    await self._catch_up(conn)  # 2. then read what was missed
                    self._set_state(FeedState(True, "", self.position or ""))
                    delay = BACKOFF_FIRST
                    while True:  # 3. then wait, probing the link
                        woken = False
                        async for _ in conn.notifies(timeout=self.probe_every, stop_after=1):
                            woken = True
                        if woken:
                            await self._catch_up(conn)
                            # Any login may NOTIFY this channel (PostgreSQL has no privilege
                            # for it): what comes within the next moment is one more read, so
                            # a flood costs a few reads a second, never one read a message.
                            while await self._woken_within(conn, DEBOUNCE_SECONDS):
                                await self._catch_up(conn)
                        else:
                            await conn.execute("SELECT 1")
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as error:
                detail = str(error).strip().splitlines()[0] if str(error).strip() else "lost"
                log.warning("team database feed offline: %s (retry in %.1f s)", detail, delay)
                self._set_state(FeedState(False, detail, self.position or ""))
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)

    @staticmethod
    async def _woken_within(conn: psycopg.AsyncConnection[Any], seconds: float) -> bool:
        """Take every notification that comes within ``seconds``: whether there was one."""
        woken = False
        async for _ in conn.notifies(timeout=seconds):
            woken = True
        return woken

    async def _catch_up(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Read what committed since :attr:`position`, a page at a time, in one read-only
        snapshot (REPEATABLE READ), and move the position to that snapshot."""
        async with conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            cursor = await conn.execute(
                "SELECT pg_current_snapshot()::text AS now,"
                " pg_snapshot_xmax(pg_current_snapshot()) < pg_snapshot_xmax(%s::pg_snapshot)"
                " AS ahead",
                (self.position or "1:1:",),
            )
            found = await cursor.fetchone()
            assert found is not None
            now = str(found["now"])
            if self.position is None or found["ahead"]:
                if self.position is not None:  # not this server's history (a restored dump)
                    log.warning("change feed position %s is ahead of the database", self.position)
                self.position = now
                return
            from_seq = 0
            while True:
                cursor = await conn.execute(
                    CHANGES_SQL,
                    {"after": self.position, "from_seq": from_seq, "limit": CATCH_UP_LIMIT},
                )
                rows = await cursor.fetchall()
                if rows:
                    from_seq = int(rows[-1]["seq"])
                    ordered: dict[int, None] = {}
                    for row in rows:
                        ordered.pop(int(row["entry_id"]), None)
                        ordered[int(row["entry_id"])] = None
                    try:
                        self._on_changes(list(ordered))
                    except Exception:
                        log.exception("change feed listener failed")
                if len(rows) < CATCH_UP_LIMIT:
                    break
        self.position = now
