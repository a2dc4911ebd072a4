"""The receiver's side of the team database: each item stored under its dedupe key and
applied in the same transaction, then ``NOTIFY``, then the commit — the answer comes after.
All of it is one database function, ``treasury.receive`` (schema 3): one round trip an item.

``INSERT … ON CONFLICT (dedupe_key) DO NOTHING`` decides what is new: a second receiver
delivering the same item at once waits on the first one's row and then finds it taken, so an
item is applied once however many receivers and redeliveries there are. Each item is applied
inside a subtransaction: an item that cannot be applied is kept with outcome ``failed`` and the
reason, and the others of the body still apply.

Trust but match: an item changes something only when it is about this account — a Pix key of
ours or a txid we created (``/pix``), an idRec we created (``/rec``, ``/cobr``), an
idempotency key or endToEndId of our journal (transfer, cashout). Receive and refund events
come with the Accounts API's secret header, set by us on our own registration: they are ours.
Anything else is stored as ``unmatched`` and changes nothing.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any, TypeVar

import psycopg
from psycopg.rows import dict_row
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from treasury_app.domain.money import dumps_json_bytes
from treasury_app.receiver.items import Item

log = logging.getLogger("treasury_app.receiver.store")

Outcome = str
"""``applied``, ``unchanged``, ``unmatched``, ``failed`` or ``duplicate`` (already stored)."""
MAX_DEAD_LETTER = 2 * 1024 * 1024
"""Bytes of a bad body kept (a body is capped before it is read: this is a second fence)."""


STALE_ATTEMPTS = 3
"""Tries of one piece of work when the pooled connections it is given are found broken."""

T = TypeVar("T")
Connection = psycopg.AsyncConnection[Any]


class DatabaseUnavailable(RuntimeError):
    """The team database cannot be reached: the bank is told to retry (503)."""


class PoolExhausted(DatabaseUnavailable):
    """Every pooled connection was busy (lent to other deliveries) for the pool's whole wait:
    the database may be fine, this receiver is saturated. Also a 503, counted on its own."""


class _Stale(Exception):
    """A pooled connection was found broken: try again on a fresh one."""


@dataclass(frozen=True)
class Applied:
    """What became of one item."""

    dedupe_key: str
    outcome: Outcome
    entry_id: int | None = None
    detail: str = ""


class ReceiverStore:
    """A connection pool on the team database, logged in as a ``treasury_receiver``.

    Every use goes through :meth:`_run`, which retries on a fresh connection what a stale one
    failed, and :meth:`connection`, which tells a full pool from a database away."""

    def __init__(
        self, conninfo: str, *, min_size: int = 2, max_size: int = 20, timeout: float = 5.0
    ) -> None:
        self.pool = AsyncConnectionPool(
            conninfo,
            min_size=min_size,
            max_size=max_size,
            timeout=timeout,
            open=False,
            kwargs={"autocommit": True},
        )
        self.lent = 0
        """Connections lent out of the pool now (this event loop's: no lock needed)."""

    async def open(self, *, wait: bool = False) -> None:
        await self.pool.open(wait=wait)

    async def close(self) -> None:
        await self.pool.close()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """A pooled connection, within the pool's wait (``timeout``). None in time:
        :class:`PoolExhausted` when every connection the pool may hold was lent out all
        along (the receiver is saturated), else :class:`DatabaseUnavailable` (the pool could
        not connect: the database is away)."""
        try:
            conn = await self.pool.getconn()
        except PoolTimeout as error:
            if self.lent >= self.pool.max_size:
                raise PoolExhausted(
                    f"pool exhausted: all {self.lent} connections to the team database were"
                    f" busy for {self.pool.timeout:.2f} s"
                ) from None
            raise DatabaseUnavailable(_short(error)) from None
        self.lent += 1
        try:
            yield conn
        finally:
            self.lent -= 1
            await self.pool.putconn(conn)

    async def _run(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """``work`` on a pooled connection, its errors as :class:`DatabaseUnavailable`.

        The pool does not probe a connection before lending it (a round trip per request).
        One found broken — the server restarted, or ended it, since it was pooled — is
        dropped, the pool's idle connections are checked (after a restart they are all from
        before it: without this the retry would be handed the next dead one) and ``work`` is
        tried again on another connection. Nothing of a failed attempt was committed (or, if
        the connection broke just after a commit, the retry finds the dedupe key taken)."""
        for attempt in range(1, STALE_ATTEMPTS + 1):
            try:
                async with self.connection() as conn:
                    try:
                        return await work(conn)
                    except psycopg.OperationalError:
                        if conn.broken or conn.closed:
                            raise _Stale from None
                        raise
            except _Stale:
                if attempt == STALE_ATTEMPTS:
                    break
                log.info(
                    "a pooled connection to the team database was broken (the server"
                    " restarted?): checking the idle ones, trying again"
                )
                await self.pool.check()
            except psycopg.OperationalError as error:
                raise DatabaseUnavailable(_short(error)) from None
        raise DatabaseUnavailable(
            f"the team database dropped the connection {STALE_ATTEMPTS} times in a row"
        )

    async def ping(self) -> None:
        """``SELECT 1`` through the pool, or :class:`DatabaseUnavailable`."""

        async def select_one(conn: Connection) -> None:
            await conn.execute("SELECT 1")

        await self._run(select_one)

    async def rows(self, query: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
        """The rows of one read, as dicts."""

        async def read(conn: Connection) -> list[dict[str, Any]]:
            cursor = conn.cursor(row_factory=dict_row)
            await cursor.execute(query, params)
            return await cursor.fetchall()

        return await self._run(read)

    async def deliver(self, items: Sequence[Item], *, via: str = "webhook") -> list[Applied]:
        """Store and apply ``items`` in one transaction; what became of each."""

        async def store(conn: Connection) -> list[Applied]:
            cursor = conn.cursor(row_factory=dict_row)
            if len(items) == 1:  # one statement, its own transaction: one trip
                return [await self._one(cursor, items[0], via)]
            async with conn.transaction():  # several: one commit
                return [await self._one(cursor, item, via) for item in items]

        return await self._run(store)

    async def dead_letter(self, route: str, peer: str, reason: str, body: bytes) -> None:
        """Keep a body that could not be read, with the reason (``treasury-admin notifications
        --failed`` shows it)."""

        async def insert(conn: Connection) -> None:
            await conn.execute(
                "INSERT INTO treasury.dead_letters (route, peer, reason, size, body)"
                " VALUES (%s, %s, %s, %s, %s)",
                (route, peer, reason[:1000], len(body), body[:MAX_DEAD_LETTER]),
            )

        await self._run(insert)

    async def beat(
        self, name: str, started: dt.datetime, last_item: dt.datetime | None, url: str
    ) -> None:
        async def beat(conn: Connection) -> None:
            await conn.execute(
                "SELECT treasury.receiver_beat(%s, %s, %s, %s)", (name, started, last_item, url)
            )
            # The audit rows left unsealed while someone held the chain's head (a desktop's
            # audit row, an overrule's) are chained here too, in a short transaction of its
            # own: the receiver runs when no desktop does.
            await conn.execute("SELECT treasury.seal_audit(false)")

        await self._run(beat)

    # -- one item --------------------------------------------------------------------------

    async def _one(self, cursor: psycopg.AsyncCursor[Any], item: Item, via: str) -> Applied:
        """One round trip: ``treasury.receive`` stores, matches, applies and notifies."""
        await cursor.execute(
            "SELECT outcome, entry_id, detail FROM treasury.receive(%s, %s, %s, %s, %s, %s)",
            (
                item.dedupe_key,
                item.source,
                via,
                item.ref,
                Jsonb(item.raw, dumps=_dumps),
                Jsonb(fields_of(item), dumps=_dumps),
            ),
        )
        row = await cursor.fetchone()
        if row is None:  # pragma: no cover - the function always answers one row
            raise psycopg.DataError("treasury.receive answered nothing")
        if row["outcome"] == "failed":
            log.warning("notification %s could not be applied: %s", item.dedupe_key, row["detail"])
        return Applied(item.dedupe_key, row["outcome"], row["entry_id"], row["detail"] or "")


def _dumps(value: Any) -> str:
    return dumps_json_bytes(value).decode("utf-8")


def fields_of(item: Item) -> dict[str, Any]:
    """What ``treasury.apply_notice`` reads of an item (its ``a`` argument)."""
    data = item.data
    if item.source == "pix":
        return {
            "e2e": data.end_to_end_id,
            "txid": data.txid,
            "chave": data.chave,
            "valor": str(data.valor),
            "horario": data.horario.isoformat(),
            "refunds": [
                {"id": d.id, "status": str(d.status), "valor": str(d.valor)}
                for d in data.devolucoes
            ],
        }
    if item.source == "rec":
        return {"id_rec": data.id_rec, "status": str(data.status)}
    if item.source == "cobr":
        return {
            "txid": data.txid,
            "id_rec": data.id_rec,
            "status": str(data.status),
            "attempts": len(data.tentativas),
        }
    if item.source in ("transfer", "cashout"):
        bank_id = getattr(data, "id", None)
        return {
            "idempotency_key": data.idempotency_key,
            "e2e": data.end_to_end_id,
            "status": item.status or "",
            "final": item.final,
            "bank_id": None if bank_id is None else str(bank_id),
        }
    amount: Decimal | None = data.value
    return {
        "e2e": data.end_to_end_id,
        "amount": None if amount is None else str(amount),
        "tx_id": data.tx_id,
    }


def _short(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__
