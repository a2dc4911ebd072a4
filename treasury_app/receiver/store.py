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

import datetime as dt
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

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


class DatabaseUnavailable(RuntimeError):
    """The team database cannot be reached: the bank is told to retry (503)."""


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
    """A connection pool on the team database, logged in as a ``treasury_receiver``."""

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

    async def open(self, *, wait: bool = False) -> None:
        await self.pool.open(wait=wait)

    async def close(self) -> None:
        await self.pool.close()

    async def ping(self) -> None:
        """``SELECT 1`` through the pool, or :class:`DatabaseUnavailable`."""
        try:
            async with self.pool.connection() as conn:
                await conn.execute("SELECT 1")
        except (psycopg.OperationalError, PoolTimeout) as error:
            raise DatabaseUnavailable(str(error).splitlines()[0] if str(error) else "") from None

    async def deliver(self, items: Sequence[Item], *, via: str = "webhook") -> list[Applied]:
        """Store and apply ``items`` in one transaction; what became of each.

        The pool does not probe a connection before lending it (a round trip per request):
        one found broken (the server restarted since) is dropped and the delivery tried once
        more on a fresh one — nothing of the failed attempt was committed."""
        for attempt in (1, 2):
            try:
                async with self.pool.connection() as conn:
                    try:
                        cursor = conn.cursor(row_factory=dict_row)
                        if len(items) == 1:  # one statement, its own transaction: one trip
                            return [await self._one(cursor, items[0], via)]
                        async with conn.transaction():  # several: one commit
                            return [await self._one(cursor, item, via) for item in items]
                    except psycopg.OperationalError:
                        if attempt == 1 and (conn.broken or conn.closed):
                            raise _Stale from None
                        raise
            except _Stale:
                continue
            except (psycopg.OperationalError, PoolTimeout) as error:
                raise DatabaseUnavailable(_short(error)) from None
        raise DatabaseUnavailable("the team database dropped the connection twice")

    async def dead_letter(self, route: str, peer: str, reason: str, body: bytes) -> None:
        """Keep a body that could not be read, with the reason (``treasury-admin notifications
        --failed`` shows it)."""
        try:
            async with self.pool.connection() as conn:
                await conn.execute(
                    "INSERT INTO treasury.dead_letters (route, peer, reason, size, body)"
                    " VALUES (%s, %s, %s, %s, %s)",
                    (route, peer, reason[:1000], len(body), body[:MAX_DEAD_LETTER]),
                )
        except (psycopg.OperationalError, PoolTimeout) as error:
            raise DatabaseUnavailable(_short(error)) from None

    async def beat(
        self, name: str, started: dt.datetime, last_item: dt.datetime | None, url: str
    ) -> None:
        async with self.pool.connection() as conn:
            await conn.execute(
                "SELECT treasury.receiver_beat(%s, %s, %s, %s)", (name, started, last_item, url)
            )

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
