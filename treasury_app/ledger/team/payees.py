"""The payee registry in the team database (schema 9,
:mod:`~treasury_app.ledger.team.registry_schema`): reads, and writes through its functions,
which check who may (``session_user``): a change of where money goes waits for another
person's approval."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from typing import Any, TypeVar

import psycopg
from psycopg.rows import tuple_row

from treasury_app.domain.payees import (
    Destination,
    DestinationDraft,
    Payee,
    PayeeDraft,
    RegistryChange,
    RegistryPolicy,
)
from treasury_app.ledger.payees import _change, _destination, _payee
from treasury_app.ledger.team.store import TeamDatabase

__all__ = ["TeamPayees"]

T = TypeVar("T")

CHUNK = 2_000
"""Rows of the registry fetched between two turns of the event loop (a few milliseconds)."""


class TeamPayees:
    def __init__(self, db: TeamDatabase) -> None:
        self._db = db

    async def save_payee(self, draft: PayeeDraft, payee_id: int | None = None) -> Payee:
        return _payee(
            await self._db.call(
                "SELECT * FROM treasury.save_payee(%s, %s, %s, %s)",
                (payee_id, draft.name, draft.document, list(draft.tags)),
            )
        )

    async def payee(self, payee_id: int) -> Payee | None:
        row = await self._db.row("SELECT * FROM treasury.payees WHERE id = %s", (payee_id,))
        return _payee(row) if row else None

    async def payee_of_document(self, document: str) -> Payee | None:
        row = await self._db.row(
            "SELECT * FROM treasury.payees WHERE document = %s ORDER BY id LIMIT 1", (document,)
        )
        return _payee(row) if row else None

    async def payees(self) -> list[Payee]:
        return [_payee(r) for r in await self._db.rows("SELECT * FROM treasury.payees ORDER BY id")]

    async def payees_of(self, payee_ids: Iterable[int]) -> dict[int, Payee]:
        wanted = list(dict.fromkeys(payee_ids))
        if not wanted:
            return {}
        rows = await self._db.rows("SELECT * FROM treasury.payees WHERE id = ANY(%s)", (wanted,))
        return {int(row["id"]): _payee(row) for row in rows}

    async def registry(self) -> tuple[list[Payee], list[Destination]]:
        """Every payee and destination, in one read-only snapshot: the rows are fetched as
        plain tuples a :data:`CHUNK` at a time (the loop runs between two chunks) and made
        into payees and destinations in a worker thread (170,000 rows are a second of work
        that would otherwise freeze the window)."""
        async with self._db.connection() as conn, conn.transaction():
            await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            payees = await _fetched(conn, "SELECT * FROM treasury.payees ORDER BY id")
            destinations = await _fetched(conn, "SELECT * FROM treasury.destinations ORDER BY id")
        return await asyncio.to_thread(_registry_of, payees, destinations)

    async def destinations(self, payee_id: int | None = None) -> list[Destination]:
        if payee_id is None:
            rows = await self._db.rows("SELECT * FROM treasury.destinations ORDER BY id")
        else:
            rows = await self._db.rows(
                "SELECT * FROM treasury.destinations WHERE payee_id = %s ORDER BY id",
                (payee_id,),
            )
        return [_destination(row) for row in rows]

    async def by_details(self, details: Iterable[str]) -> dict[str, Destination]:
        wanted = list(dict.fromkeys(details))
        if not wanted:
            return {}
        rows = await self._db.rows(
            "SELECT * FROM treasury.destinations WHERE detail = ANY(%s)", (wanted,)
        )
        return {row["detail"]: _destination(row) for row in rows}

    async def propose(
        self,
        payee_id: int,
        action: str,
        draft: DestinationDraft | None = None,
        destination_id: int | None = None,
    ) -> RegistryChange:
        proposed = None if draft is None else json.dumps(draft.as_dict())
        return _change(
            await self._db.call(
                "SELECT * FROM treasury.propose_destination(%s, %s, %s::jsonb, %s)",
                (payee_id, action, proposed, destination_id),
            )
        )

    async def decide(self, change_id: int, outcome: str, reason: str = "") -> RegistryChange:
        return _change(
            await self._db.call(
                "SELECT * FROM treasury.decide_destination(%s, %s, %s)",
                (change_id, outcome, reason),
            )
        )

    async def block(self, destination_id: int, reason: str) -> Destination:
        return _destination(
            await self._db.call(
                "SELECT * FROM treasury.block_destination(%s, %s)", (destination_id, reason)
            )
        )

    async def pending(self) -> list[RegistryChange]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.destination_changes WHERE outcome = 'WAITING' ORDER BY id"
        )
        return [_change(row) for row in rows]

    async def history(self, payee_id: int) -> list[RegistryChange]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.destination_changes WHERE payee_id = %s ORDER BY id",
            (payee_id,),
        )
        return [_change(row) for row in rows]

    async def settled(
        self, detail: str, entry_id: int, creditor_name: str, creditor_document: str
    ) -> Destination | None:
        row: dict[str, Any] = await self._db.call(
            "SELECT * FROM treasury.destination_settled(%s, %s, %s)",
            (entry_id, creditor_name, creditor_document),
        )
        return None if row.get("id") is None else _destination(row)

    async def policy(self) -> RegistryPolicy:
        row = await self._db.row("SELECT * FROM treasury.registry_policy")
        if row is None:
            return RegistryPolicy()
        return RegistryPolicy(timedelta(hours=row["cooling_hours"]), bool(row["registry_only"]))

    async def now(self) -> datetime:
        row = await self._db.row("SELECT treasury.registry_now() AS now")
        assert row is not None
        moment: datetime = row["now"]
        return moment


Fetched = tuple[list[str], list[tuple[Any, ...]]]


async def _fetched(conn: psycopg.AsyncConnection[Any], query: str) -> Fetched:
    """The column names and rows (tuples, nothing more made of them) of ``query``."""
    async with conn.cursor(row_factory=tuple_row) as cursor:
        await cursor.execute(query)
        names = [column.name for column in cursor.description or ()]
        rows: list[tuple[Any, ...]] = []
        while chunk := await cursor.fetchmany(CHUNK):
            rows.extend(chunk)
            await asyncio.sleep(0)
    return names, rows


def _registry_of(payees: Fetched, destinations: Fetched) -> tuple[list[Payee], list[Destination]]:
    """Payees and destinations of fetched rows (in a worker thread)."""
    return _made(_payee, payees), _made(_destination, destinations)


def _made(make: Callable[[dict[str, Any]], T], fetched: Fetched) -> list[T]:
    """``make`` of each fetched row; the interpreter let go every few hundred rows, so that
    the loop's thread never waits the 5 ms switch interval for it."""
    names, rows = fetched
    made: list[T] = []
    for start in range(0, len(rows), 500):
        made.extend(make(dict(zip(names, row, strict=True))) for row in rows[start : start + 500])
        time.sleep(0)
    return made
