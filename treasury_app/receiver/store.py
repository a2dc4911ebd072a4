"""The receiver's side of the team database: each item stored under its dedupe key and
applied in the same transaction, then ``NOTIFY``, then the commit — the answer comes after.

``INSERT … ON CONFLICT (dedupe_key) DO NOTHING`` decides what is new: a second receiver
delivering the same item at once waits on the first one's row and then finds it taken, so an
item is applied once however many receivers and redeliveries there are. Each item is applied
inside a savepoint: an item that cannot be applied is kept with outcome ``failed`` and the
reason, and the others of the body still apply.

Trust but match: an item changes something only when it is about this account — a Pix key of
ours or a txid we created (``/pix``), an idRec we created (``/rec``, ``/cobr``), an
idempotency key or endToEndId of our journal (transfer, cashout). Receive and refund events
come with the Accounts API's secret header, set by us on our own registration: they are ours.
Anything else is stored as ``unmatched`` and changes nothing.
"""

from __future__ import annotations

import datetime as dt
import json
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
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL
from treasury_app.receiver.items import Item

log = logging.getLogger("treasury_app.receiver.store")

Outcome = str
"""``applied``, ``unchanged``, ``unmatched``, ``failed`` or ``duplicate`` (already stored)."""
MAX_DEAD_LETTER = 2 * 1024 * 1024
"""Bytes of a bad body kept (a body is capped before it is read: this is a second fence)."""


class DatabaseUnavailable(RuntimeError):
    """The team database cannot be reached: the bank is told to retry (503)."""


@dataclass(frozen=True)
class Applied:
    """What became of one item."""

    dedupe_key: str
    outcome: Outcome
    entry_id: int | None = None
    detail: str = ""


def _jsonable(raw: dict[str, Any]) -> Jsonb:
    return Jsonb(json.loads(dumps_json_bytes(raw)))


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
            check=AsyncConnectionPool.check_connection,
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
        """Store and apply ``items`` in one transaction; what became of each."""
        try:
            async with self.pool.connection() as conn, conn.transaction():
                cursor = conn.cursor(row_factory=dict_row)
                results = [await self._one(cursor, item, via) for item in items]
            return results
        except (psycopg.OperationalError, PoolTimeout) as error:
            raise DatabaseUnavailable(_short(error)) from None

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
        await cursor.execute(
            "INSERT INTO treasury.notifications (dedupe_key, source, via, ref, outcome, item)"
            " VALUES (%s, %s, %s, %s, 'unmatched', %s)"
            " ON CONFLICT (dedupe_key) DO NOTHING RETURNING id",
            (item.dedupe_key, item.source, via, item.ref[:200], _jsonable(item.raw)),
        )
        row = await cursor.fetchone()
        rematch = row is None
        if rematch:
            # Stored before. Stored as not ours, it may be ours now: the notice of a
            # recurrence can come before the desktop that created it named its idRec (the
            # bank chose it), and the reconciler's copy has the same key. Applied once.
            await cursor.execute(
                "SELECT id, outcome FROM treasury.notifications WHERE dedupe_key = %s FOR UPDATE",
                (item.dedupe_key,),
            )
            row = await cursor.fetchone()
            if row is None or row["outcome"] != "unmatched":
                return Applied(item.dedupe_key, "duplicate")
        notification_id = row["id"]
        try:
            async with cursor.connection.transaction():  # a savepoint
                applied = await _APPLY[item.source](cursor, item, via)
        except psycopg.Error as error:
            if cursor.connection.broken or cursor.connection.closed:
                raise  # the database is away: DatabaseUnavailable, the bank retries
            log.warning("notification %s could not be applied: %s", item.dedupe_key, error)
            applied = Applied(item.dedupe_key, "failed", detail=_short(error))
        if rematch and applied.outcome != "applied":
            return Applied(item.dedupe_key, "duplicate")
        await cursor.execute(
            "UPDATE treasury.notifications SET outcome = %s, entry_id = %s, detail = %s"
            " WHERE id = %s",
            (applied.outcome, applied.entry_id, applied.detail[:500], notification_id),
        )
        if applied.outcome == "applied":
            await cursor.execute(
                "SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, f"{item.source}:{item.ref}"[:500])
            )
        return applied


async def _ours(cursor: psycopg.AsyncCursor[Any], pairs: Sequence[tuple[str, str | None]]) -> bool:
    wanted = [(kind, ref) for kind, ref in pairs if ref]
    if not wanted:
        return False
    await cursor.execute(
        "SELECT 1 FROM treasury.our_refs WHERE (kind, ref) IN ("
        + ", ".join(["(%s, %s)"] * len(wanted))
        + ") LIMIT 1",
        [value for pair in wanted for value in pair],
    )
    return await cursor.fetchone() is not None


async def _apply_pix(cursor: psycopg.AsyncCursor[Any], item: Item, via: str = "webhook") -> Applied:
    pix = item.data
    if not await _ours(cursor, [("key", pix.chave), ("txid", pix.txid)]):
        return Applied(item.dedupe_key, "unmatched", detail="neither a key nor a txid of ours")
    refunds = [{"id": d.id, "status": str(d.status), "valor": str(d.valor)} for d in pix.devolucoes]
    await cursor.execute(
        "INSERT INTO treasury.received_pix (end_to_end_id, txid, chave, valor, horario, refunds,"
        " item) VALUES (%s, %s, %s, %s, %s, %s, %s) ON CONFLICT (end_to_end_id) DO UPDATE SET"
        " refunds = EXCLUDED.refunds, item = EXCLUDED.item, updated_at = clock_timestamp()",
        (
            pix.end_to_end_id,
            pix.txid,
            pix.chave,
            pix.valor,
            pix.horario.isoformat(),
            Jsonb(refunds),
            _jsonable(item.raw),
        ),
    )
    if pix.txid:
        await cursor.execute(
            "INSERT INTO treasury.charge_states (txid, status, end_to_end_id)"
            " VALUES (%s, 'CONCLUIDA', %s) ON CONFLICT (txid) DO UPDATE SET status = 'CONCLUIDA',"
            " end_to_end_id = EXCLUDED.end_to_end_id, updated_at = clock_timestamp()",
            (pix.txid, pix.end_to_end_id),
        )
    return Applied(item.dedupe_key, "applied")


async def _apply_rec(cursor: psycopg.AsyncCursor[Any], item: Item, via: str = "webhook") -> Applied:
    rec = item.data
    if not await _ours(cursor, [("idrec", rec.id_rec)]):
        return Applied(item.dedupe_key, "unmatched", detail="not an idRec of ours")
    await cursor.execute(
        "INSERT INTO treasury.recurrence_states (id_rec, status, item) VALUES (%s, %s, %s)"
        " ON CONFLICT (id_rec) DO UPDATE SET status = EXCLUDED.status, item = EXCLUDED.item,"
        " updated_at = clock_timestamp()",
        (rec.id_rec, str(rec.status), _jsonable(item.raw)),
    )
    return Applied(item.dedupe_key, "applied")


async def _apply_cobr(
    cursor: psycopg.AsyncCursor[Any], item: Item, via: str = "webhook"
) -> Applied:
    cobr = item.data
    if not await _ours(cursor, [("idrec", cobr.id_rec), ("txid", cobr.txid)]):
        return Applied(item.dedupe_key, "unmatched", detail="neither an idRec nor a txid of ours")
    await cursor.execute(
        "INSERT INTO treasury.cobr_states (txid, id_rec, status, attempts, item)"
        " VALUES (%s, %s, %s, %s, %s) ON CONFLICT (txid) DO UPDATE SET status = EXCLUDED.status,"
        " attempts = EXCLUDED.attempts, item = EXCLUDED.item, updated_at = clock_timestamp()",
        (cobr.txid, cobr.id_rec, str(cobr.status), len(cobr.tentativas), _jsonable(item.raw)),
    )
    return Applied(item.dedupe_key, "applied")


async def _apply_payment(
    cursor: psycopg.AsyncCursor[Any], item: Item, via: str = "webhook"
) -> Applied:
    """A transfer or cashout event: the bank's status of one of our payments, through
    ``treasury.notified_status`` (as ``PaymentEngine.apply_status`` would journal it)."""
    data = item.data
    await cursor.execute(
        "SELECT id, state, bank_status, final FROM treasury.journal"
        " WHERE idempotency_key = %s OR (end_to_end_id IS NOT NULL AND end_to_end_id = %s)"
        " ORDER BY id LIMIT 1",
        (data.idempotency_key or "", data.end_to_end_id or ""),
    )
    before = await cursor.fetchone()
    if before is None:
        return Applied(item.dedupe_key, "unmatched", detail="no payment of our journal")
    status = item.status or ""
    bank_id = getattr(data, "id", None)
    await cursor.execute(
        "SELECT id, state, bank_status, final FROM treasury.notified_status(%s, %s, %s, %s, %s,"
        " %s)",
        (
            before["id"],
            status,
            item.final,
            data.end_to_end_id,
            None if bank_id is None else str(bank_id),
            f"{via}: {item.source}",
        ),
    )
    after = await cursor.fetchone()
    changed = after is not None and (
        after["state"] != before["state"]
        or after["bank_status"] != before["bank_status"]
        or after["final"] != before["final"]
    )
    return Applied(
        item.dedupe_key,
        "applied" if changed else "unchanged",
        entry_id=before["id"],
        detail="" if changed else f"already {before['bank_status'] or before['state']}",
    )


async def _apply_account(
    cursor: psycopg.AsyncCursor[Any], item: Item, via: str = "webhook"
) -> Applied:
    """A receive or refund event: a credit on our account (the secret header made it ours)."""
    data = item.data
    amount: Decimal | None = data.value
    await cursor.execute(
        "INSERT INTO treasury.account_events (event_key, kind, end_to_end_id, amount, status,"
        " item) VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (event_key) DO NOTHING",
        (item.dedupe_key, item.source, data.end_to_end_id, amount, None, _jsonable(item.raw)),
    )
    if data.tx_id and await _ours(cursor, [("txid", data.tx_id)]):
        await cursor.execute(
            "INSERT INTO treasury.charge_states (txid, status, end_to_end_id)"
            " VALUES (%s, 'CONCLUIDA', %s) ON CONFLICT (txid) DO UPDATE SET status = 'CONCLUIDA',"
            " updated_at = clock_timestamp()",
            (data.tx_id, data.end_to_end_id),
        )
    return Applied(item.dedupe_key, "applied")


_APPLY = {
    "pix": _apply_pix,
    "rec": _apply_rec,
    "cobr": _apply_cobr,
    "transfer": _apply_payment,
    "cashout": _apply_payment,
    "receive": _apply_account,
    "refund": _apply_account,
}


def _short(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__
