"""Live bank events across desktops: ``LISTEN treasury_bank_events`` wakes this desktop, which
then reads what the webhook receiver applied from the receiver's tables; on the same connection,
the receivers' heartbeats every few seconds.

``NOTIFY`` is a wake-up, never the data, and never trusted: PostgreSQL has no privilege on
``NOTIFY``, so any login that can connect (a person's, with ``psql``) may send any payload on
this channel. The payload is not read. A wake-up makes one reading of the receiver's tables
(``charge_states``, ``received_pix``, ``recurrence_states``, ``cobr_states``,
``account_events``; only the receiver's login writes them), at most one per :data:`READ_EVERY`
seconds: a flood of notifications is a few readings of the database that find nothing new, and
nothing else. What the subscribers are told (:class:`BankChanges`) are the rows the receiver
wrote since the last reading.

The receiver's rows carry the instant they were written (``clock_timestamp()``), not the
instant they were committed: a row written before the last reading may commit after it. The
reading fences itself on the database's snapshots (:class:`ChangesReader`): the instant below
which everything was read advances only once every transaction in progress at an earlier
reading has ended.

Like the journal's :class:`~treasury_app.ledger.team.changes.ChangeFeed`, the feed holds a
direct connection of its own (not the pool: a pooler in transaction mode would drop a
``LISTEN``) and reconnects with backoff (0.5 s doubling to 30 s) when it is lost. The heartbeat
query doubles as the link's probe. After a reconnect (notifications sent meanwhile are lost to
this listener) subscribers are told to read everything again (:data:`EVERYTHING`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import psycopg
from psycopg.rows import dict_row

from treasury_app.ledger.team.changes import ListenerTask
from treasury_app.ledger.team.notices import RECEIVERS_SQL, ReceiversSeen
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL

log = logging.getLogger("treasury_app.ledger.team.bank_events")

BACKOFF_FIRST = 0.5
BACKOFF_MAX = 30.0
APPLICATION_NAME = "treasury-bank-events"
CHECK_EVERY = 5.0
"""Seconds between two readings of the receivers' heartbeats (they beat every 5 s)."""
READ_DELAY = 0.1
"""Seconds a wake-up waits before the reading: the rest of a burst comes with it."""
READ_EVERY = 0.5
"""Seconds at least between two readings of the receiver's tables, however many wake-ups."""
PRIME_LOOKBACK = timedelta(minutes=1)
"""At connection, rows written this long before are taken as read (the lists load on their
own), so that a transaction in progress then is still seen when it commits."""
MAX_LAG = timedelta(minutes=10)
"""The fence waits at most this long for a transaction in progress (anywhere in the cluster)
to end; past it, rows written before are taken as read."""


@dataclass(frozen=True)
class BankChanges:
    """What the receiver applied since the last reading: the charges (txids) whose state it
    wrote, the received Pix and credits or refunds of the account (endToEndIds), the
    recurrences (idRecs) whose state or recurring charges it wrote; or :attr:`everything`:
    what changed is unknown (the link was lost), read everything again."""

    charges: frozenset[str] = frozenset()
    received: frozenset[str] = frozenset()
    recurrences: frozenset[str] = frozenset()
    everything: bool = False

    def __bool__(self) -> bool:
        return self.everything or bool(self.charges or self.received or self.recurrences)


EVERYTHING = BankChanges(everything=True)
"""Read everything again: the link to the database was lost and is back."""

CHANGES_SQL = """
WITH s AS (SELECT pg_snapshot_xmin(pg_current_snapshot())::text::numeric AS xmin,
                  pg_snapshot_xmax(pg_current_snapshot())::text::numeric AS xmax,
                  statement_timestamp() AS at,
                  coalesce(%(floor)s::timestamptz,
                           statement_timestamp() - %(lookback)s::interval) AS floor)
SELECT s.xmin, s.xmax, s.at, c.kind, c.ref, c.key, c.changed_at
  FROM s LEFT JOIN (
        SELECT 'charge' AS kind, txid AS ref, 'charge:' || txid AS key, updated_at AS changed_at
          FROM treasury.charge_states, s WHERE updated_at > s.floor
        UNION ALL
        SELECT 'received', end_to_end_id, 'pix:' || end_to_end_id, updated_at
          FROM treasury.received_pix, s WHERE updated_at > s.floor
        UNION ALL
        SELECT 'recurrence', id_rec, 'rec:' || id_rec, updated_at
          FROM treasury.recurrence_states, s WHERE updated_at > s.floor
        UNION ALL
        SELECT 'recurrence', id_rec, 'cobr:' || txid, updated_at
          FROM treasury.cobr_states, s WHERE updated_at > s.floor
        UNION ALL
        SELECT 'received', coalesce(end_to_end_id, ''), 'account:' || event_key, received_at
          FROM treasury.account_events, s WHERE received_at > s.floor
       ) AS c ON true
 ORDER BY c.changed_at
"""
"""What the receiver wrote after ``floor`` (``NULL``: ``lookback`` before now), each row a
version (``key``, ``changed_at``), with the statement's snapshot (``xmin``, ``xmax``) and
instant (``at``). One statement: one snapshot for all of it."""


class ChangesReader:
    """The receiver's rows written since the last reading, each version told once.

    ``floor``: everything written at or before it has been read. A reading at snapshot S reads
    the rows written after ``floor``; the rows of the transactions in progress at S (some
    written before S's instant) are not visible yet, so S's instant becomes the floor only at
    a later reading whose snapshot has no transaction older than S's ``xmax`` left (all of them
    ended, and their rows are visible to it). Transactions that start after S write after it.
    Versions above the floor are remembered (``seen``), so a row read twice is told once."""

    def __init__(self) -> None:
        self.floor: datetime | None = None
        self._seen: dict[str, datetime] = {}
        self._pending: deque[tuple[int, datetime]] = deque()

    def reset(self) -> None:
        """A new connection: the next reading only primes (nothing told)."""
        self.floor = None
        self._seen.clear()
        self._pending.clear()

    def take(self, rows: Iterable[Mapping[str, Any]]) -> BankChanges:
        """The rows of one :data:`CHANGES_SQL` reading: what is new in them (nothing on the
        first reading after :meth:`reset`, which only primes)."""
        rows = list(rows)
        if not rows:  # the statement always answers its snapshot's row
            return BankChanges()
        at: datetime = rows[0]["at"]
        priming = self.floor is None
        if self.floor is None:
            self.floor = at - PRIME_LOOKBACK  # as the priming statement read
        found: dict[str, set[str]] = {"charge": set(), "received": set(), "recurrence": set()}
        for row in rows:
            key, changed = row["key"], row["changed_at"]
            if key is None or changed is None or self._seen.get(key) == changed:
                continue
            self._seen[key] = changed
            if row["ref"]:
                found[row["kind"]].add(str(row["ref"]))
        self._advance(int(rows[0]["xmin"]), int(rows[0]["xmax"]), at)
        if priming:
            return BankChanges()
        return BankChanges(
            charges=frozenset(found["charge"]),
            received=frozenset(found["received"]),
            recurrences=frozenset(found["recurrence"]),
        )

    def _advance(self, xmin: int, xmax: int, at: datetime) -> None:
        assert self.floor is not None
        self._pending.append((xmax, at))
        while self._pending and self._pending[0][0] <= xmin:
            self.floor = max(self.floor, self._pending.popleft()[1])
        if at - self.floor > MAX_LAG:  # a transaction left open somewhere: stop waiting for it
            self.floor = at - MAX_LAG
            while self._pending and self._pending[0][1] <= self.floor:
                self._pending.popleft()
        floor = self.floor
        self._seen = {key: changed for key, changed in self._seen.items() if changed > floor}


ChangesListener = Callable[[BankChanges], None]
ReceiversListener = Callable[[ReceiversSeen | None, str], None]
"""Called after each reading: the heartbeats, or ``None`` and why the database is offline."""


class BankEventFeed(ListenerTask):
    """``on_changes``: what the receiver applied (read after a wake-up, never taken from a
    payload); ``on_receivers``: each reading of the heartbeats; ``on_reconnect``: the link is
    back after being lost (not on the first connection): what was notified meanwhile never
    reached this listener.

    :attr:`heard` counts the notifications heard, :attr:`reads` the readings of the receiver's
    tables they caused (at most one per :attr:`read_every` seconds)."""

    TASK_NAME = "bank-events"

    def __init__(
        self,
        conninfo: str,
        *,
        on_changes: ChangesListener,
        on_receivers: ReceiversListener,
        on_reconnect: Callable[[], None] | None = None,
        check_every: float = CHECK_EVERY,
        read_delay: float = READ_DELAY,
        read_every: float = READ_EVERY,
    ) -> None:
        self._conninfo = conninfo
        self._on_changes = on_changes
        self._on_receivers = on_receivers
        self._on_reconnect = on_reconnect
        self.check_every = check_every
        self.read_delay = read_delay
        self.read_every = read_every
        self.connected = False
        self.heard = 0
        self.reads = 0
        self.reader = ChangesReader()
        self._woken_at: float | None = None  # the first wake-up not read yet
        self._ever_connected = False
        self._check_now = asyncio.Event()
        self._task = None

    def check_soon(self) -> None:
        """Read the heartbeats at the end of the current wait (a test, a dialog opening)."""
        self._check_now.set()

    async def _run(self) -> None:
        delay = BACKOFF_FIRST
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self._conninfo,
                    autocommit=True,
                    row_factory=dict_row,
                    application_name=APPLICATION_NAME,  # what pg_stat_activity shows
                ) as conn:
                    await conn.execute(f"LISTEN {EVENTS_CHANNEL}")  # listen first
                    self.reader.reset()
                    await self._read(conn)  # then prime: what is there now is not news
                    self.connected = True
                    if self._ever_connected and self._on_reconnect is not None:
                        self._call(self._on_reconnect)
                    self._ever_connected = True
                    delay = BACKOFF_FIRST
                    await self._listen(conn)
            except asyncio.CancelledError:
                raise
            except (psycopg.Error, OSError) as error:
                self.connected = False
                detail = str(error).strip().splitlines()[0] if str(error).strip() else "lost"
                log.warning("bank events feed offline: %s (retry in %.1f s)", detail, delay)
                self._call(self._on_receivers, None, detail)
                await asyncio.sleep(delay)
                delay = min(delay * 2, BACKOFF_MAX)

    @property
    def wake_pending(self) -> bool:
        """Whether a wake-up waits for its reading."""
        return self._woken_at is not None

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        next_check = 0.0
        last_read = float("-inf")
        self._woken_at = None
        while True:
            now = time.monotonic()
            if self._check_now.is_set() or now >= next_check:
                self._check_now.clear()
                await self._check(conn)  # the heartbeats, and the link's probe
                next_check = time.monotonic() + self.check_every
                continue
            due = float("inf")
            if self._woken_at is not None:
                due = max(self._woken_at + self.read_delay, last_read + self.read_every)
                if now >= due:
                    last_read = now
                    self.reads += 1
                    self._woken_at = None
                    await self._read(conn)
                    continue
            # Short rounds, so that check_soon() is honoured within a quarter second. Until a
            # wake-up, the round ends with the first notification (and those that came with
            # it); after one, the rest are only counted until the reading is due.
            wait = max(0.0, min(due, next_check, now + 0.25) - now)
            first = None if self._woken_at is not None else 1
            async with contextlib.aclosing(conn.notifies(timeout=wait, stop_after=first)) as got:
                async for _notify in got:  # a wake-up: its payload is not read
                    self.heard += 1
                    if self._woken_at is None:
                        self._woken_at = time.monotonic()

    async def _read(self, conn: psycopg.AsyncConnection[Any]) -> None:
        cursor = await conn.execute(
            CHANGES_SQL, {"floor": self.reader.floor, "lookback": PRIME_LOOKBACK}
        )
        changes = self.reader.take(await cursor.fetchall())
        if changes:
            self._call(self._on_changes, changes)

    async def _check(self, conn: psycopg.AsyncConnection[Any]) -> None:
        cursor = await conn.execute(RECEIVERS_SQL)
        row = await cursor.fetchone()
        assert row is not None
        self._call(self._on_receivers, ReceiversSeen.of(row), "")

    @staticmethod
    def _call(listener: Callable[..., None], *args: Any) -> None:
        try:
            listener(*args)
        except Exception:
            log.exception("bank events listener failed")
