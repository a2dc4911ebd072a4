"""Scheduled payments in the ledger (issue 35): on both backends, and on the team database
the rules it enforces itself — nothing scheduled is claimed or sent before its pay date
(whoever asks, ``psql`` included), approvals stand until the pay date and are bound to it,
moving the date voids them. The database's clock is moved (``schedule_clock``), never
waited for; every date is taken from the database's own business date."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest

from tests.ledger.test_approvals_db import (
    RELEASE_SQL,
    approvals,
    as_person,
    desks,
    give_exactly,
    intent,
    request,
    superuser,
)
from tests.ledger_backends import TeamDatabases, opened_ledger
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.money import dumps_json
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState, NewEntry
from treasury_app.ledger.schedule import ScheduleRefused
from treasury_app.ledger.team.approvals import entry_content_hash
from treasury_app.ledger.team.codes_schema import read_coded
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.ledger.team.store import ApprovalRefused

FILE_TODAY = dt.date(2030, 1, 7)  # the file ledger keeps no business date of its own


async def today_of(ledger: Ledger) -> dt.date:
    return await ledger.schedule.today() or FILE_TODAY


def scheduled(new: NewEntry, day: dt.date, **series: Any) -> NewEntry:
    return dataclasses.replace(new, pay_date=day, **series)


async def test_a_scheduled_intent_keeps_its_date_key_and_waits(
    ledger_backend: str, tmp_path: Path
) -> None:
    async with opened_ledger(ledger_backend, tmp_path, user="ana") as ledger:
        today = await today_of(ledger)
        friday = today + dt.timedelta(days=4)
        entry = await ledger.journal.create(scheduled(intent("150.00"), friday))
        assert entry.pay_date == friday and entry.scheduled and entry.state == EntryState.PREPARED
        later = await ledger.journal.create(
            scheduled(intent("10.00"), today + dt.timedelta(days=40), series_id="S1", series_seq=0)
        )
        now = await ledger.journal.create(intent("5.00"))
        assert now.pay_date is None and not now.scheduled
        window = await ledger.schedule.between(today, today + dt.timedelta(days=10))
        assert [e.id for e in window] == [entry.id]
        assert [e.id for e in await ledger.schedule.waiting()] == [entry.id, later.id]
        assert [e.id for e in await ledger.schedule.of_series("S1")] == [later.id]

        moved = await ledger.schedule.move(entry.id, today + dt.timedelta(days=6))
        assert moved.pay_date == today + dt.timedelta(days=6)
        assert moved.idempotency_key == entry.idempotency_key  # fixed when it was created
        edited = await ledger.schedule.edit(
            later.id, Decimal("12.00"), "", request("12.00", later.payee_detail)
        )
        assert edited.amount == Decimal("12.00") and edited.pay_date == later.pay_date

        hold = await ledger.schedule.hold(entry.id, "scheduled.late", {"due": "2030-01-01"})
        again = await ledger.schedule.hold(entry.id, "scheduled.balance_short", {})
        assert again.code == hold.code == "scheduled.late"  # the first hold stays
        assert list(await ledger.schedule.holds()) == [entry.id]
        await ledger.schedule.clear_hold(entry.id, "move")
        assert await ledger.schedule.holds() == {}

        cancelled = await ledger.schedule.cancel(entry.id, "not needed")
        assert cancelled.state == EntryState.REJECTED and cancelled.final
        with pytest.raises(ScheduleRefused if ledger_backend == "file" else ApprovalRefused):
            await ledger.schedule.move(cancelled.id, today + dt.timedelta(days=8))
        with pytest.raises(ScheduleRefused if ledger_backend == "file" else ApprovalRefused):
            await ledger.schedule.move(now.id, today + dt.timedelta(days=8))
        actions = {a.action for a in await ledger.audit.entries(action="schedule")}
        assert {"schedule.move", "schedule.cancel", "schedule.hold"} <= actions


async def test_a_series_is_kept_and_ended(ledger_backend: str, tmp_path: Path) -> None:
    async with opened_ledger(ledger_backend, tmp_path, user="ana") as ledger:
        rule = {"frequency": "monthly", "start": "2030-01-05", "day_of_month": 5}
        saved = await ledger.schedule.save_series("S9", rule, {"amount": "10.00"})
        assert saved.rule == rule and saved.active and saved.created_by == "ana"
        assert [s.id for s in await ledger.schedule.active_series()] == ["S9"]
        ended = await ledger.schedule.end_series("S9")
        assert not ended.active and await ledger.schedule.active_series() == []


# -- the team database's own rules ------------------------------------------------------------

PEOPLE = {"ana": (MAKER,), "bruno": (APPROVER,), "carla": (APPROVER,)}
ONE_APPROVAL: dict[str, Any] = {"new_payee_extra": 0}


@pytest.fixture(scope="module")
def people(team_databases: TeamDatabases) -> dict[str, tuple[str, ...]]:
    return give_exactly(team_databases, PEOPLE)


def shift_clock(team: TeamDatabases, database: str, days: int) -> None:
    """Move the team database's business date (its owner's knob: what the tests and the
    sandbox move instead of waiting)."""
    with superuser(team, database) as conn:
        conn.execute("UPDATE treasury.schedule_clock SET shift = %s", (dt.timedelta(days=days),))


def db_today(conn: psycopg.Connection[dict[str, Any]]) -> dt.date:
    row = conn.execute("SELECT treasury.schedule_today() AS today").fetchone()
    assert row is not None
    return row["today"]


def prepare_scheduled(
    conn: psycopg.Connection[dict[str, Any]], amount: str, day: dt.date
) -> dict[str, Any]:
    detail = f"{uuid.uuid4().hex[:10]}@example.com"
    row = conn.execute(
        "SELECT * FROM treasury.prepare_scheduled('PIX_KEY', 'Fornecedor', '', %s, %s, '',"
        " 'INSTANT', %s, %s, 'p', NULL, %s, NULL, NULL)",
        (detail, Decimal(amount), str(uuid.uuid4()), dumps_json(request(amount, detail)), day),
    ).fetchone()
    assert row is not None
    return row


def refusal_code(error: psycopg.Error) -> str | None:
    coded = read_coded(error.diag.message_detail)
    return None if coded is None else coded[0]


@pytest.mark.usefixtures("people")
def test_a_maker_cannot_make_a_scheduled_intent_leave_early_with_psql(
    team_databases: TeamDatabases,
) -> None:
    database = team_databases.new_database()  # no dual control: its maker sends it
    with as_person(team_databases, database, "ana") as ana:
        today = db_today(ana)
        with pytest.raises(psycopg.errors.CheckViolation) as past:
            prepare_scheduled(ana, "100.00", today - dt.timedelta(days=1))
        assert refusal_code(past.value) == "pay_date_past"
        row = prepare_scheduled(ana, "100.00", today + dt.timedelta(days=3))
        entry_id = row["id"]
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as early:
            ana.execute("SELECT treasury.claim(%s)", (entry_id,))
        assert refusal_code(early.value) == "not_due"
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ana.execute(RELEASE_SQL, (entry_id,))
        attempts = [
            ("UPDATE treasury.journal SET state = 'SENT' WHERE id = %s", (entry_id,)),
            ("UPDATE treasury.journal SET pay_date = %s WHERE id = %s", (today, entry_id)),
            ("UPDATE treasury.schedule_clock SET shift = interval '3 days'", ()),
            (
                "INSERT INTO treasury.schedule_holds (entry_id, at, held_by, code)"
                " VALUES (%s, '', 'x', 'y')",
                (entry_id,),
            ),
            (
                "SELECT treasury.record(%s, '1:1', 'SENT', NULL, NULL, NULL, NULL, 'x', NULL,"
                " 'answer')",
                (entry_id,),
            ),
        ]
        for statement, args in attempts:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                ana.execute(statement, args)
        ana.execute("SET TIME ZONE 'Pacific/Kiritimati'")  # her session's zone changes nothing
        ana.execute("SET DateStyle = 'German'")
        assert db_today(ana) == today
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ana.execute("SELECT treasury.claim(%s)", (entry_id,))
        with pytest.raises(psycopg.errors.CheckViolation):
            ana.execute(
                "SELECT * FROM treasury.move_scheduled(%s, %s)",
                (entry_id, today - dt.timedelta(days=1)),
            )
    # the owner's own update: refused too
    with (
        superuser(team_databases, database) as owner,
        pytest.raises(psycopg.errors.InsufficientPrivilege),
    ):
        owner.execute("UPDATE treasury.journal SET state = 'SENT' WHERE id = %s", (entry_id,))
    shift_clock(team_databases, database, 3)  # its day came
    with as_person(team_databases, database, "ana") as ana:
        token = ana.execute(RELEASE_SQL, (entry_id,)).fetchone()
        assert token is not None and token["state"] == "SENT"


@pytest.mark.usefixtures("people")
async def test_approvals_given_ahead_stand_until_the_pay_date_and_moving_voids_them(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "bruno") as (ana, bruno):
        monday = await ana.schedule.today()
        assert monday is not None
        friday = monday + dt.timedelta(days=4)
        entry = await ana.journal.create(scheduled(intent("900.00"), friday))
        assert entry.approval == "WAITING" and entry.content_hash == entry_content_hash(entry)
        approved = await approvals(bruno).approve(entry.id, entry.content_hash or "")
        assert approved.approval == "APPROVED"
        # The policy's expiry (end of the Brasília day) counts from the pay date.
        end_of_friday = dt.datetime.combine(friday + dt.timedelta(days=1), dt.time(), BRASILIA)
        assert approved.approvals_expire_at == end_of_friday.astimezone(dt.UTC).isoformat(
            timespec="milliseconds"
        ).replace("+00:00", "Z")
        with as_person(team_databases, database, "bruno") as raw:
            with pytest.raises(psycopg.errors.InsufficientPrivilege) as early:
                raw.execute(RELEASE_SQL, (entry.id,))
            assert refusal_code(early.value) == "not_due"
        # Only its maker moves it; moving binds a new date and voids the approval.
        with pytest.raises(ApprovalRefused) as not_maker:
            await bruno.schedule.move(entry.id, friday + dt.timedelta(days=1))
        assert not_maker.value.reason.code == "team.not_a_maker"
        moved = await ana.schedule.move(entry.id, friday + dt.timedelta(days=3))
        assert moved.approval == "WAITING" and moved.approvals_given == 0
        assert moved.content_hash != approved.content_hash
        assert moved.content_hash == entry_content_hash(moved)
        with superuser(team_databases, database) as owner:
            voids = owner.execute(
                "SELECT void_reason FROM treasury.approvals WHERE entry_id = %s", (entry.id,)
            ).fetchall()
        assert [v["void_reason"] for v in voids] == ["content changed"]
        with pytest.raises(ApprovalRefused):  # approved what it was, not what it is
            await approvals(bruno).approve(entry.id, approved.content_hash or "")
        again = await approvals(bruno).approve(entry.id, moved.content_hash or "")
        assert again.approval == "APPROVED"
        shift_clock(team_databases, database, 7)  # its (new) Friday came
        with as_person(team_databases, database, "bruno") as raw:
            sent = raw.execute(RELEASE_SQL, (entry.id,)).fetchone()
        assert sent is not None and sent["state"] == "SENT"
        audit = await ana.audit.entries(action="schedule.move")
        assert len(audit) == 1 and audit[0].os_user == "ana"
        assert audit[0].details["from"] == friday.isoformat()


@pytest.mark.usefixtures("people")
async def test_a_series_occurrence_is_not_a_twin_of_the_next_one(
    team_databases: TeamDatabases, tmp_path: Path
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "carla") as (ana, carla):
        today = await ana.schedule.today()
        assert today is not None
        first = intent("300.00", detail="aluguel@example.com")
        one = await ana.journal.create(scheduled(first, today + dt.timedelta(days=5)))
        two = await ana.journal.create(
            scheduled(
                dataclasses.replace(first, idempotency_key=str(uuid.uuid4())),
                today + dt.timedelta(days=35),
            )
        )
        assert one.id != two.id
        # cancelling: its maker withdraws, an approver rejects; both audited
        await carla.schedule.cancel(two.id, "contrato encerrado")
        gone = await ana.journal.get(two.id)
        assert gone.approval == "REJECTED" and gone.decided_by == "carla"
        with pytest.raises(ApprovalRefused) as no_reason:
            await ana.schedule.cancel(one.id, " ")
        assert no_reason.value.reason.code.startswith("team.")
        rows = await ana.audit.entries(action="schedule.cancel")
        assert [json.dumps(r.details["reason"]) for r in rows] == ['"contrato encerrado"']
