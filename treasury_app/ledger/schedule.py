"""Scheduled and recurring payments in the ledger (issue 35): what waits for its pay date,
what a person must decide (a *hold*), and the rules of recurring series.

A scheduled payment is a journal entry with a ``pay_date`` (:class:`~treasury_app.ledger.
journal.NewEntry`): journaled when it is prepared, with its idempotency key fixed then, and
``PREPARED`` until its day. Moving its date, cancelling it, editing an occurrence that is
not approved yet, holding it for a person and clearing that hold go through
:class:`ScheduleStore`: the file on this computer (:class:`FileSchedule`, below) or the team
database (:mod:`treasury_app.ledger.team.schedule`, whose functions check who may).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from treasury_app.domain.errors import Reason
from treasury_app.domain.money import dumps_json, loads_json
from treasury_app.ledger.audit import Audit
from treasury_app.ledger.db import LedgerContext, now_iso
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import Entry, EntryState, Journal, _entry

__all__ = ["FileSchedule", "Hold", "ScheduleRefused", "ScheduleStore", "SeriesRecord"]


class ScheduleRefused(LedgerRefused):
    """A scheduled payment cannot be moved, cancelled or edited now (``code`` says why:
    ``scheduled.not_scheduled``, ``scheduled.not_waiting``)."""

    def __init__(self, code: str, entry_id: int) -> None:
        super().__init__(f"{code}: entry {entry_id}", reason=Reason(code, {"entry": entry_id}))
        self.code = code
        self.entry_id = entry_id


@dataclass(frozen=True)
class Hold:
    """A scheduled payment that waits for a person: why (``code``, ``params``), since when."""

    entry_id: int
    code: str
    params: Mapping[str, Any]
    at: str
    held_by: str

    @property
    def reason(self) -> Reason:
        """Why, with its parameters typed again (stored as JSON text: a date is ISO text, an
        amount a decimal string): the UI words dates and amounts as everywhere else."""
        return Reason(self.code, {key: _typed(key, value) for key, value in self.params.items()})


_AMOUNTS = frozenset({"amount", "scheduled", "now", "total", "balance"})


def _typed(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key in _AMOUNTS:
        try:
            return Decimal(value)
        except ArithmeticError:
            return value
    try:
        return date.fromisoformat(value) if len(value) == 10 else value
    except ValueError:
        return value


@dataclass(frozen=True)
class SeriesRecord:
    """A recurring series as stored: its rule and what each occurrence pays (both JSON
    objects the services write and read), who made it, and whether it ended."""

    id: str
    rule: Mapping[str, Any]
    template: Mapping[str, Any]
    created_by: str
    created_at: str
    updated_at: str
    ended_at: str | None = None

    @property
    def active(self) -> bool:
        return self.ended_at is None


class ScheduleStore(Protocol):
    async def between(self, start: date, end: date) -> list[Entry]:
        """Entries whose pay date is in ``[start, end]``, any state, by date then id."""
        ...

    async def waiting(self) -> list[Entry]:
        """Scheduled entries not sent yet (``PREPARED`` with a pay date), by date then id."""
        ...

    async def move(self, entry_id: int, new_date: date) -> Entry:
        """Give a scheduled entry not sent yet another pay date; on a team database its
        approvals are void (they were bound to the date)."""
        ...

    async def cancel(self, entry_id: int, reason: str) -> Entry:
        """End a scheduled entry not sent yet: it is never sent."""
        ...

    async def edit(
        self, entry_id: int, amount: Decimal, description: str, request: Mapping[str, Any]
    ) -> Entry:
        """Change what an occurrence not approved nor sent yet pays (its key stays)."""
        ...

    async def hold(self, entry_id: int, code: str, params: Mapping[str, Any]) -> Hold:
        """Hold a scheduled entry for a person (one hold at a time: the first stays)."""
        ...

    async def clear_hold(self, entry_id: int, outcome: str) -> None:
        """A person decided (``outcome``: ``send``, ``move``, ``cancel``)."""
        ...

    async def holds(self) -> dict[int, Hold]:
        """The holds not cleared, by entry."""
        ...

    async def save_series(
        self, series_id: str, rule: Mapping[str, Any], template: Mapping[str, Any]
    ) -> SeriesRecord: ...

    async def series(self, series_id: str) -> SeriesRecord | None: ...

    async def active_series(self) -> list[SeriesRecord]: ...

    async def end_series(self, series_id: str) -> SeriesRecord: ...

    async def of_series(self, series_id: str) -> list[Entry]:
        """The occurrences of a series journaled so far, by occurrence."""
        ...

    async def today(self) -> date | None:
        """The ledger's own Brasília business date when it keeps one (a team database,
        which enforces pay dates on its clock); ``None``: the app's clock decides."""
        ...


def _series(row: sqlite3.Row | Mapping[str, Any]) -> SeriesRecord:
    rule, template = loads_json(row["rule"]), loads_json(row["template"])  # amounts exact
    assert isinstance(rule, dict) and isinstance(template, dict)
    return SeriesRecord(
        id=row["id"],
        rule=rule,
        template=template,
        created_by=row["created_by"],
        created_at=str(row["created_at"]),
        updated_at=str(row["updated_at"]),
        ended_at=None if row["ended_at"] is None else str(row["ended_at"]),
    )


class FileSchedule:
    """The schedule in the ledger file (one desktop: no approvals, the app's clock)."""

    def __init__(
        self, conn: sqlite3.Connection, context: LedgerContext, journal: Journal, audit: Audit
    ) -> None:
        self._conn = conn
        self._context = context
        self._journal = journal
        self._audit = audit

    async def between(self, start: date, end: date) -> list[Entry]:
        rows = self._conn.execute(
            "SELECT * FROM journal WHERE pay_date BETWEEN ? AND ? ORDER BY pay_date, id",
            (start.isoformat(), end.isoformat()),
        )
        return [_entry(row) for row in rows]

    async def waiting(self) -> list[Entry]:
        rows = self._conn.execute(
            "SELECT * FROM journal WHERE pay_date IS NOT NULL AND state = ? ORDER BY pay_date, id",
            (EntryState.PREPARED.value,),
        )
        return [_entry(row) for row in rows]

    def _waiting(self, entry_id: int) -> Entry:
        entry = self._journal.get(entry_id)
        if entry.pay_date is None:
            raise ScheduleRefused("scheduled.not_scheduled", entry_id)
        if entry.state != EntryState.PREPARED:
            raise ScheduleRefused("scheduled.not_waiting", entry_id)
        return entry

    def _write(self, entry_id: int, sql: str, args: tuple[Any, ...], note: str) -> Entry:
        at = now_iso()
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(sql, args)
            self._conn.execute(
                "INSERT INTO journal_history (entry_id, at, state, bank_status, note)"
                " VALUES (?, ?, ?, NULL, ?)",
                (entry_id, at, EntryState.PREPARED.value, note),
            )
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return self._journal.get(entry_id)

    async def move(self, entry_id: int, new_date: date) -> Entry:
        before = self._waiting(entry_id)
        moved = self._write(
            entry_id,
            "UPDATE journal SET pay_date = ?, updated_at = ? WHERE id = ?",
            (new_date.isoformat(), now_iso(), entry_id),
            f"moved to {new_date.isoformat()}",
        )
        self._audit.record(
            "schedule.move",
            "ok",
            reference=before.idempotency_key,
            amount=before.amount,
            details={
                "entry": entry_id,
                "from": str(before.pay_date),
                "to": new_date.isoformat(),
            },
        )
        return moved

    async def cancel(self, entry_id: int, reason: str) -> Entry:
        before = self._waiting(entry_id)
        cancelled = self._journal.update(
            entry_id,
            EntryState.REJECTED,
            final=True,
            error="Cancelled by a person before its pay date: never sent.",
            note="scheduled payment cancelled",
        )
        self._audit.record(
            "schedule.cancel",
            "cancelled",
            reference=before.idempotency_key,
            amount=before.amount,
            details={"entry": entry_id, "pay_date": str(before.pay_date), "reason": reason},
        )
        await self.clear_hold(entry_id, "cancel")
        return cancelled

    async def edit(
        self, entry_id: int, amount: Decimal, description: str, request: Mapping[str, Any]
    ) -> Entry:
        before = self._waiting(entry_id)
        edited = self._write(
            entry_id,
            "UPDATE journal SET amount = ?, description = ?, request_json = ?, updated_at = ?"
            " WHERE id = ?",
            (str(amount), description, dumps_json(dict(request)), now_iso(), entry_id),
            "changed",
        )
        self._audit.record(
            "schedule.edit",
            "changed",
            reference=before.idempotency_key,
            amount=amount,
            details={"entry": entry_id, "amount_before": str(before.amount)},
        )
        return edited

    async def hold(self, entry_id: int, code: str, params: Mapping[str, Any]) -> Hold:
        existing = (await self.holds()).get(entry_id)
        if existing is not None:
            return existing
        entry = self._waiting(entry_id)
        text = json.dumps(dict(params), default=str, sort_keys=True)
        at = now_iso()
        self._conn.execute(
            "INSERT INTO schedule_holds (entry_id, at, held_by, code, params) VALUES (?,?,?,?,?)",
            (entry_id, at, self._context.os_user, code, text),
        )
        self._audit.record(
            "schedule.hold",
            "held",
            reference=entry.idempotency_key,
            amount=entry.amount,
            details={"entry": entry_id, "code": code, **json.loads(text)},
        )
        return Hold(entry_id, code, json.loads(text), at, self._context.os_user)

    async def clear_hold(self, entry_id: int, outcome: str) -> None:
        cursor = self._conn.execute(
            "UPDATE schedule_holds SET cleared_at = ?, cleared_by = ?"
            " WHERE entry_id = ? AND cleared_at IS NULL",
            (now_iso(), self._context.os_user, entry_id),
        )
        if cursor.rowcount:
            entry = self._journal.get(entry_id)
            self._audit.record(
                "schedule.decide",
                outcome,
                reference=entry.idempotency_key,
                amount=entry.amount,
                details={"entry": entry_id},
            )

    async def holds(self) -> dict[int, Hold]:
        rows = self._conn.execute(
            "SELECT * FROM schedule_holds WHERE cleared_at IS NULL ORDER BY id"
        )
        return {
            row["entry_id"]: Hold(
                row["entry_id"], row["code"], json.loads(row["params"]), row["at"], row["held_by"]
            )
            for row in rows
        }

    async def save_series(
        self, series_id: str, rule: Mapping[str, Any], template: Mapping[str, Any]
    ) -> SeriesRecord:
        at = now_iso()
        rule_text, template_text = dumps_json(dict(rule)), dumps_json(dict(template))
        self._conn.execute(
            "INSERT INTO series (id, rule, template, created_at, created_by, profile, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET rule = excluded.rule,"
            " template = excluded.template, updated_at = excluded.updated_at",
            (
                series_id,
                rule_text,
                template_text,
                at,
                self._context.os_user,
                self._context.profile,
                at,
            ),
        )
        self._audit.record("schedule.series", "saved", reference=series_id, details=dict(rule))
        saved = await self.series(series_id)
        assert saved is not None
        return saved

    async def series(self, series_id: str) -> SeriesRecord | None:
        row = self._conn.execute("SELECT * FROM series WHERE id = ?", (series_id,)).fetchone()
        return _series(row) if row else None

    async def active_series(self) -> list[SeriesRecord]:
        rows = self._conn.execute("SELECT * FROM series WHERE ended_at IS NULL ORDER BY id")
        return [_series(row) for row in rows]

    async def end_series(self, series_id: str) -> SeriesRecord:
        self._conn.execute(
            "UPDATE series SET ended_at = ?, ended_by = ? WHERE id = ? AND ended_at IS NULL",
            (now_iso(), self._context.os_user, series_id),
        )
        self._audit.record("schedule.series", "ended", reference=series_id)
        ended = await self.series(series_id)
        assert ended is not None
        return ended

    async def of_series(self, series_id: str) -> list[Entry]:
        rows = self._conn.execute(
            "SELECT * FROM journal WHERE series_id = ? ORDER BY series_seq, id", (series_id,)
        )
        return [_entry(row) for row in rows]

    async def today(self) -> date | None:
        return None
