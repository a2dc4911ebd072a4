"""Scheduled and recurring payments in the team database (schema 8,
:mod:`~treasury_app.ledger.team.schedule_schema`): reads, and writes through its functions,
which check who may (``session_user``) and keep the pay date's rules."""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from typing import Any

from treasury_app.domain.money import dumps_json
from treasury_app.ledger.db import LedgerContext
from treasury_app.ledger.journal import Entry, _entry
from treasury_app.ledger.schedule import Hold, SeriesRecord, _series
from treasury_app.ledger.team.store import TeamDatabase


def _hold(row: Mapping[str, Any]) -> Hold:
    params = row["params"]
    return Hold(
        row["entry_id"],
        row["code"],
        json.loads(params) if isinstance(params, str) else dict(params),
        str(row["at"]),
        row["held_by"],
    )


SERIES = (
    "s.id, s.rule::text AS rule, s.template::text AS template, s.created_by, s.created_at,"
    " s.updated_at, s.ended_at"
)
"""A series' columns, its JSON as text: read with exact decimals, never through float."""


class TeamSchedule:
    def __init__(self, db: TeamDatabase, context: LedgerContext) -> None:
        self._db = db
        self._context = context

    async def between(self, start: date, end: date) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE pay_date BETWEEN %s AND %s ORDER BY pay_date, id",
            (start, end),
        )
        return [_entry(row) for row in rows]

    async def waiting(self) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE pay_date IS NOT NULL AND state = 'PREPARED'"
            " ORDER BY pay_date, id"
        )
        return [_entry(row) for row in rows]

    async def move(self, entry_id: int, new_date: date) -> Entry:
        return _entry(
            await self._db.call(
                "SELECT * FROM treasury.move_scheduled(%s, %s)", (entry_id, new_date)
            )
        )

    async def cancel(self, entry_id: int, reason: str) -> Entry:
        return _entry(
            await self._db.call(
                "SELECT * FROM treasury.cancel_scheduled(%s, %s)", (entry_id, reason)
            )
        )

    async def edit(
        self, entry_id: int, amount: Decimal, description: str, request: Mapping[str, Any]
    ) -> Entry:
        return _entry(
            await self._db.call(
                "SELECT * FROM treasury.edit(%s, %s, %s, %s)",
                (entry_id, amount, description, dumps_json(dict(request))),
            )
        )

    async def hold(self, entry_id: int, code: str, params: Mapping[str, Any]) -> Hold:
        text = json.dumps(dict(params), default=str, sort_keys=True)
        return _hold(
            await self._db.call(
                "SELECT * FROM treasury.hold_scheduled(%s, %s, %s::jsonb)",
                (entry_id, code, text),
            )
        )

    async def clear_hold(self, entry_id: int, outcome: str) -> None:
        await self._db.call("SELECT treasury.clear_hold(%s, %s) AS cleared", (entry_id, outcome))

    async def holds(self) -> dict[int, Hold]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.schedule_holds WHERE cleared_at IS NULL ORDER BY id"
        )
        return {row["entry_id"]: _hold(row) for row in rows}

    async def save_series(
        self, series_id: str, rule: Mapping[str, Any], template: Mapping[str, Any]
    ) -> SeriesRecord:
        return _series(
            await self._db.call(
                f"SELECT {SERIES} FROM treasury.save_series(%s, %s::jsonb, %s::jsonb, %s) s",
                (
                    series_id,
                    dumps_json(dict(rule)),
                    dumps_json(dict(template)),
                    self._context.profile,
                ),
            )
        )

    async def series(self, series_id: str) -> SeriesRecord | None:
        row = await self._db.row(
            f"SELECT {SERIES} FROM treasury.series s WHERE id = %s", (series_id,)
        )
        return _series(row) if row else None

    async def active_series(self) -> list[SeriesRecord]:
        rows = await self._db.rows(
            f"SELECT {SERIES} FROM treasury.series s WHERE ended_at IS NULL ORDER BY id"
        )
        return [_series(row) for row in rows]

    async def end_series(self, series_id: str) -> SeriesRecord:
        return _series(
            await self._db.call(f"SELECT {SERIES} FROM treasury.end_series(%s) s", (series_id,))
        )

    async def of_series(self, series_id: str) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE series_id = %s ORDER BY series_seq, id",
            (series_id,),
        )
        return [_entry(row) for row in rows]

    async def today(self) -> date | None:
        row = await self._db.row("SELECT treasury.schedule_today() AS today")
        return None if row is None else row["today"]
