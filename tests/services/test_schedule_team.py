"""Scheduled payments on a team database, against a sandbox bank of their own (issue 35):
approvals given ahead still release on the pay date, and two releasing desktops at the send
time pay each scheduled payment once (the database's claims decide). The bank's clock and the
database's business date are moved together, never waited for."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from tests.ledger.test_approvals_db import give_exactly
from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.sandbox.conftest import Api
from tests.services.accounts_fixtures import sandbox_now
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import BRASILIA, brasilia_date
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger import Ledger
from treasury_app.ledger.errors import LedgerRefused
from treasury_app.ledger.journal import EntryState
from treasury_app.ledger.team.demo_clock import DEMO_OWNER_URL_ENV, team_demo_clock
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.services.calendar import CalendarService, outflow_source
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutsService
from treasury_app.services.schedule import ScheduleService
from treasury_app.ui.status_words import decision_reason_word

pytestmark = pytest.mark.usefixtures("clean_sandbox", "team_databases")

PEOPLE = {"sara": (MAKER,), "tito": (APPROVER,), "ugo": (APPROVER,)}


@pytest.fixture(scope="module")
def people(team_databases: TeamDatabases) -> dict[str, tuple[str, ...]]:
    return give_exactly(team_databases, PEOPLE)


@dataclasses.dataclass
class Desk:
    ledger: Ledger
    engine: PaymentEngine
    payouts: PayoutsService
    schedule: ScheduleService


@asynccontextmanager
async def team_desks(
    databases: TeamDatabases,
    database: str,
    tmp_path: Path,
    transport: ApiTransport,
    control: Api,
    *names: str,
) -> AsyncIterator[list[Desk]]:
    def clock() -> dt.datetime:
        return sandbox_now(control)

    async with AsyncExitStack() as stack:
        desks = []
        for name in names:
            ledger = await stack.enter_async_context(
                opened_ledger("team", tmp_path / name, user=name, database=database)
            )
            engine = PaymentEngine(AccountsClient(transport), ledger, follow_up=())
            engine.release_mode = "all"  # every approver's desktop releases
            schedule = ScheduleService(engine, ledger, engine.accounts, clock=clock)
            desks.append(Desk(ledger, engine, PayoutsService(engine, ledger), schedule))
        yield desks


def align(databases: TeamDatabases, database: str, control: Api) -> None:
    with psycopg.connect(databases.server.url(database), autocommit=True) as conn:
        conn.execute(
            "UPDATE treasury.schedule_clock SET shift = %s::timestamptz - clock_timestamp()",
            (sandbox_now(control),),
        )


def move_to(databases: TeamDatabases, database: str, control: Api, day: dt.date) -> None:
    """The bank's clock to 08:00 (Brasília) on ``day``, the database's date with it."""
    target = dt.datetime.combine(day, dt.time(8, 0), BRASILIA)
    control.advance((target - sandbox_now(control)).total_seconds())
    align(databases, database, control)


def business_days_ahead(day: dt.date, n: int) -> dt.date:
    while n:
        day += dt.timedelta(days=1)
        n -= is_business_day(day)
    return day


@pytest.mark.usefixtures("people")
async def test_approved_ahead_released_on_the_day_and_two_desktops_pay_once(
    team_databases: TeamDatabases, tmp_path: Path, accounts_transport: ApiTransport, control: Api
) -> None:
    database = team_databases.new_database(policy={"new_payee_extra": 0})
    align(team_databases, database, control)
    async with team_desks(
        team_databases, database, tmp_path, accounts_transport, control, "sara", "tito", "ugo"
    ) as (sara, tito, ugo):
        monday = brasilia_date(sandbox_now(control))
        friday = business_days_ahead(monday, 4)
        entries = []
        for n in range(8):
            review = await sara.payouts.prepare_key(
                "fornecedor@empresa.com.br", f"{100 + n}.00", description=f"nota {n}"
            )
            entries.append(await sara.payouts.send(sara.schedule.schedule_payout(review, friday)))
        assert {e.approval for e in entries} == {"WAITING"}
        approved: list[Any] = []
        for entry in entries:  # approved on Monday
            assert tito.ledger.approvals is not None
            approved.append(await tito.ledger.approvals.approve(entry.id, entry.content_hash or ""))
        assert {e.approval for e in approved} == {"APPROVED"}
        assert await asyncio.gather(tito.schedule.send_due(), ugo.schedule.send_due()) == [[], []]

        move_to(team_databases, database, control, friday)  # Friday, 08:00
        before = control.balance()
        sent_t, sent_u = await asyncio.gather(tito.schedule.send_due(), ugo.schedule.send_due())
        for desk in (tito, ugo):  # whatever one left to the other is sent by then
            await desk.schedule.send_due()
        final = [await sara.ledger.journal.get(e.id) for e in entries]
        assert {e.state for e in final} == {EntryState.ACCEPTED}
        assert {e.released_by for e in final} <= {"tito", "ugo"}
        assert len(sent_t) + len(sent_u) >= len(entries)
        total = sum((e.amount for e in entries), Decimal("0"))
        assert before - control.balance() == total  # each paid once
        for entry in entries:
            response = control.get(f"/api/v2/pix/payments/idempotencyKey/{entry.idempotency_key}")
            assert response.status_code == 200


@pytest.mark.usefixtures("people")
async def test_moved_from_the_calendar_its_approvals_are_void(
    team_databases: TeamDatabases, tmp_path: Path, accounts_transport: ApiTransport, control: Api
) -> None:
    """Approved ahead, then moved from the calendar by its maker: the approval is void (the
    date is content), the payment waits again on its new day."""
    database = team_databases.new_database(policy={"new_payee_extra": 0})
    align(team_databases, database, control)
    async with team_desks(
        team_databases, database, tmp_path, accounts_transport, control, "sara", "tito"
    ) as (sara, tito):
        today = brasilia_date(sandbox_now(control))
        day, later = business_days_ahead(today, 2), business_days_ahead(today, 3)
        review = await sara.payouts.prepare_key("fornecedor@empresa.com.br", "450.00")
        entry = await sara.payouts.send(sara.schedule.schedule_payout(review, day))
        assert tito.ledger.approvals is not None
        approved = await tito.ledger.approvals.approve(entry.id, entry.content_hash or "")
        assert approved.approval == "APPROVED"

        async def balance() -> Decimal:
            return (await sara.engine.accounts.get_balances())[0].available

        calendar = CalendarService(
            SimpleNamespace(ledger=sara.ledger, schedule=sara.schedule),
            outflows=outflow_source(),
            inflows=None,
            balance=balance,
            clock=lambda: sandbox_now(control),
        )
        [shown] = (await calendar.load()).day(day).outflows  # type: ignore[union-attr]
        assert shown.state == "scheduled"  # approved: it only waits for its day
        await calendar.move(str(entry.id), later)
        moved = await sara.ledger.journal.get(entry.id)
        assert (moved.pay_date, moved.approval, moved.approvals_given) == (later, "WAITING", 0)
        [again] = (await calendar.load()).day(later).outflows  # type: ignore[union-attr]
        assert again.state == "waiting_approval"


async def test_the_demo_clock_moves_the_team_databases_date(
    team_databases: TeamDatabases,
) -> None:
    """``make run-team`` hands its desktops the demo database's owner: a sandbox profile on a
    team ledger moves the database's business date with the bank's clock; nothing else can."""
    database = team_databases.new_database()
    owner_url = team_databases.server.url(database)
    clock = team_demo_clock("sandbox", "team", {DEMO_OWNER_URL_ENV: owner_url})
    assert clock is not None
    target = dt.datetime(2031, 3, 14, 8, 0, tzinfo=BRASILIA)
    assert await clock.align(target)
    with psycopg.connect(owner_url) as conn:
        row = conn.execute("SELECT treasury.schedule_today()").fetchone()
    assert row is not None and row[0] == dt.date(2031, 3, 14)
    env = {DEMO_OWNER_URL_ENV: owner_url}
    assert team_demo_clock("production", "team", env) is None  # a real bank: never
    assert team_demo_clock("sandbox", "file", env) is None
    assert team_demo_clock("sandbox", "team", {}) is None  # not the demo: no owner given


@pytest.mark.usefixtures("people")
async def test_a_series_edited_by_its_maker_keeps_approved_occurrences_and_voids_partial_ones(
    team_databases: TeamDatabases, tmp_path: Path, accounts_transport: ApiTransport, control: Api
) -> None:
    """Two approvals needed: an occurrence approved ahead stays as it is, one with a single
    approval is changed and that approval is void (the database's edit), an approver may not
    edit the maker's series but may end it (what is approved stays)."""
    database = team_databases.new_database(policy={"approvals": 2, "new_payee_extra": 0})
    align(team_databases, database, control)
    async with team_desks(
        team_databases, database, tmp_path, accounts_transport, control, "sara", "tito", "ugo"
    ) as (sara, tito, ugo):
        today = brasilia_date(sandbox_now(control))
        review = await sara.payouts.prepare_key("aluguel@empresa.com.br", "900.00")
        rule = SeriesRule(Frequency.WEEKLY, business_days_ahead(today, 1), count=6)
        series_id, made = await sara.schedule.create_series(review, rule)
        assert len(made) >= 3 and {e.approval for e in made} == {"WAITING"}
        assert tito.ledger.approvals is not None and ugo.ledger.approvals is not None
        await tito.ledger.approvals.approve(made[0].id, made[0].content_hash or "")
        approved = await ugo.ledger.approvals.approve(made[0].id, made[0].content_hash or "")
        assert approved.approval == "APPROVED"
        partly = await tito.ledger.approvals.approve(made[1].id, made[1].content_hash or "")
        assert (partly.approval, partly.approvals_given) == ("WAITING", 1)

        with pytest.raises(LedgerRefused) as refused:  # not the approver's to change
            await tito.schedule.change_series(series_id, Decimal("950.00"), "", rule)
        assert refused.value.reason.code == "team.not_a_maker"

        plan = await sara.schedule.review_series_edit(series_id, Decimal("950.00"), "", rule)
        assert [e.id for e in plan.kept] == [made[0].id]
        assert [e.id for e in plan.changed] == [e.id for e in made[1:]]
        done = await sara.schedule.change_series(series_id, Decimal("950.00"), "", rule)
        assert [e.id for e in done.changed] == [e.id for e in made[1:]]
        kept = await sara.ledger.journal.get(made[0].id)
        assert (kept.amount, kept.approval) == (Decimal("900.00"), "APPROVED")
        voided = await sara.ledger.journal.get(made[1].id)
        assert (voided.amount, voided.approval, voided.approvals_given) == (
            Decimal("950.00"),
            "WAITING",
            0,
        )
        with psycopg.connect(team_databases.server.url(database)) as conn:
            actions = [
                row[0]
                for row in conn.execute(
                    "SELECT action FROM treasury.audit WHERE reference = %s"
                    " OR details LIKE %s ORDER BY id",
                    (series_id, f'%"entry": {made[1].id}%'),
                )
            ]
        assert "schedule.series" in actions

        # Other dates: what is not approved is withdrawn (its reason in words), the new
        # rule's occurrences wait for their approvals.
        later = SeriesRule(
            Frequency.EVERY_N_DAYS, made[0].pay_date + dt.timedelta(days=1), interval=10, count=3
        )
        moved = await sara.schedule.change_series(series_id, Decimal("950.00"), "", later)
        assert [e.id for e in moved.cancelled] == [e.id for e in made[1:]]
        assert {e.approval for e in moved.cancelled} == {"WITHDRAWN"}
        assert decision_reason_word(moved.cancelled[0]) == (
            "its recurring payment was changed to other dates"
        )
        fresh = [
            e
            for e in await sara.ledger.schedule.of_series(series_id)
            if e.id not in {m.id for m in made}
        ]
        assert fresh and {e.approval for e in fresh} == {"WAITING"}

        cancelled = await tito.schedule.end_series(series_id, "contrato encerrado")
        assert [e.id for e in cancelled] == [e.id for e in fresh]
        assert {e.approval for e in cancelled} == {"REJECTED"}  # an approver's rejection
        assert (await sara.ledger.journal.get(made[0].id)).state == EntryState.PREPARED
