"""Live bank events across desktops: ``LISTEN treasury_bank_events`` (the webhook receiver's
``NOTIFY <source>:<ref>`` after each notification it applied) and, on the same connection, the
receivers' heartbeats every few seconds.

Like the journal's :class:`~treasury_app.ledger.team.changes.ChangeFeed`, the feed holds a
direct connection of its own (not the pool: a pooler in transaction mode would drop a
``LISTEN``) and reconnects with backoff (0.5 s doubling to 30 s) when it is lost. The heartbeat
query doubles as the link's probe. ``NOTIFY`` only wakes: what the bank said is in the
receiver's tables, so after a reconnect (notifications sent meanwhile are lost to this
listener) subscribers are told to read everything again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
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


@dataclass(frozen=True)
class BankEvent:
    """One ``NOTIFY treasury_bank_events``: ``source`` (pix, rec, cobr, transfer, receive,
    refund, cashout) and ``ref`` (the endToEndId, txid, idRec or idempotency key)."""

    source: str
    ref: str

    @classmethod
    def parse(cls, payload: str) -> BankEvent:
        source, _, ref = payload.partition(":")
        return cls(source.strip().lower(), ref.strip())


EventsListener = Callable[[BankEvent], None]
ReceiversListener = Callable[[ReceiversSeen | None, str], None]
"""Called after each reading: the heartbeats, or ``None`` and why the database is offline."""


class BankEventFeed(ListenerTask):
    TASK_NAME = "bank-events"

    def __init__(
        self,
        conninfo: str,
        *,
        on_event: EventsListener,
        on_receivers: ReceiversListener,
        on_reconnect: Callable[[], None] | None = None,
        check_every: float = CHECK_EVERY,
    ) -> None:
        """``on_reconnect``: called each time the link is back after being lost (not on the
        first connection): what was notified meanwhile never reached this listener."""
        self._conninfo = conninfo
        self._on_event = on_event
        self._on_receivers = on_receivers
        self._on_reconnect = on_reconnect
        self.check_every = check_every
        self.connected = False
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

    async def _listen(self, conn: psycopg.AsyncConnection[Any]) -> None:
        while True:
            self._check_now.clear()
            await self._check(conn)  # the heartbeats, and the link's probe
            deadline = time.monotonic() + self.check_every
            while not self._check_now.is_set():
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    break
                # Short rounds, so that check_soon() is honoured within a quarter second.
                async for notify in conn.notifies(timeout=min(remaining, 0.25)):
                    self._call(self._on_event, BankEvent.parse(notify.payload))

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
