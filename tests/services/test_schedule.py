"""Scheduled and recurring payments against a sandbox bank of their own (real mutual TLS), on
both ledgers (issue 35). The bank's clock is moved, never waited for; on the team database its
business date is moved with it (``schedule_clock``, the owner's knob), so the database's own
refusal of an early send follows the same day as the app.

What is proved: a payment scheduled for a holiday rolls and leaves once on the next business
day, at the send time; a series journals its occurrences ahead and an edit touches only those
not sent yet; a payment whose day passed while the app was closed is held at the next start;
a slip whose updated amount changed is held; a day whose total exceeds the balance is warned
the day before and held; a payment the balance does not cover is tried again, then held."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import psycopg
import pytest

from tests.ledger_backends import team
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import sandbox_now
from tests.services.conftest import module_sandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import holidays, is_business_day
from treasury_app.domain.clock import BRASILIA, Clock, brasilia_date
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.billets import BilletsService
from treasury_app.services.calendar import CalendarService, horizon, outflow_source
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutsService
from treasury_app.services.sandbox_samples import add_samples_to, sample_schedule
from treasury_app.services.schedule import (
    ScheduleError,
    ScheduleService,
    ScheduleSettings,
    scheduled_between,
)

LATE_SLIP = "Vencido há 10 dias (com multa)"  # its interest grows every day

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: its clock only moves forward."""
    yield from module_sandbox(tmp_path_factory, f"{Path(__file__).stem}-{ledger_backend}")


class Desk:
    """One desktop's services on the test's ledger, with the bank's clock, and the clock's
    moves (the team database's business date moved along)."""

    def __init__(self, transport: ApiTransport, ledger: Ledger, control: Api) -> None:
        self.control = control
        self.ledger = ledger
        self.clock: Clock = lambda: sandbox_now(control)
        self.engine = PaymentEngine(AccountsClient(transport), ledger, follow_up=())
        self.payouts = PayoutsService(self.engine, ledger)
        self.billets = BilletsService(self.engine, self.engine.accounts, ledger, clock=self.clock)
        self.schedule = self.restart()
        self.align()

    def restart(self, **settings: Any) -> ScheduleService:
        """The schedule service as a fresh start of the app makes it."""
        self.schedule = ScheduleService(
            self.engine,
            self.ledger,
            self.engine.accounts,
            clock=self.clock,
            settings=ScheduleSettings(**settings),
        )
        return self.schedule

    def today(self) -> dt.date:
        return brasilia_date(self.clock())

    def align(self) -> None:
        if self.ledger.backend != "team":
            return
        name = self.ledger.settings.dbname  # type: ignore[attr-defined]
        with psycopg.connect(team().server.url(name), autocommit=True) as conn:
            conn.execute(
                "UPDATE treasury.schedule_clock SET shift = %s::timestamptz - clock_timestamp()",
                (self.clock(),),
            )

    def move_to(self, day: dt.date, at: dt.time) -> None:
        """The bank's clock (and the team database's date) to ``at`` on ``day``, Brasília."""
        target = dt.datetime.combine(day, at, BRASILIA)
        seconds = (target - self.clock()).total_seconds()
        assert seconds >= 0, "the sandbox clock only moves forward"
        self.control.advance(seconds)
        self.align()

    def set_balance(self, target: Decimal) -> None:
        """The account's available balance to ``target`` (paying out or receiving)."""
        balance = self.control.balance()
        while balance - target > 0:
            self.control.paid(min(balance - target, Decimal("1000000.00")))
            balance = self.control.balance()
        if target > balance:
            self.control.control("POST", "/sandbox/incoming-pix", {"amount": target - balance})
        assert self.control.balance() == target


@pytest.fixture
def desk(accounts_transport: ApiTransport, ledger: Ledger, control: Api) -> Desk:
    return Desk(accounts_transport, ledger, control)


def next_weekday_holiday(after: dt.date) -> dt.date:
    for year in (after.year, after.year + 1):
        for day in sorted(holidays(year)):
            if day > after + dt.timedelta(days=1) and day.weekday() < 5:
                return day
    raise AssertionError("no holiday ahead")


def next_business_day(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def bank_payments(control: Api, key: str) -> int:
    response = control.get(f"/api/v2/pix/payments/idempotencyKey/{key}")
    return 1 if response.status_code == 200 else 0


async def test_a_payment_for_a_holiday_rolls_and_leaves_once_on_the_next_business_day(
    desk: Desk,
) -> None:
    holiday = next_weekday_holiday(desk.today())
    after = next_business_day(holiday)
    review = await desk.payouts.prepare_key("fornecedor@empresa.com.br", "123.45")
    review = desk.schedule.schedule_payout(review, holiday)
    assert review.pay is not None and review.pay.date == after
    assert review.pay.reason is not None and review.pay.reason.code == "pay_date.holiday"
    entry = await desk.payouts.send(review)
    assert entry.state == EntryState.PREPARED and entry.pay_date == after
    assert await desk.payouts.send(review) == entry  # the same review again: the same intent
    assert await desk.schedule.send_due() == []
    assert await desk.engine.resolve_pending() == []  # a start-up does not send it either

    desk.move_to(after, dt.time(7, 59))
    assert await desk.schedule.send_due() == []  # its day, not its time yet
    assert (await desk.ledger.journal.get(entry.id)).state == EntryState.PREPARED
    desk.move_to(after, dt.time(8, 0))
    [sent] = await desk.schedule.send_due()
    assert sent.id == entry.id and sent.state == EntryState.ACCEPTED
    assert await desk.schedule.send_due() == []
    assert bank_payments(desk.control, entry.idempotency_key) == 1


async def test_a_series_journals_its_occurrences_ahead_and_an_edit_touches_only_future_ones(
    desk: Desk,
) -> None:
    today = desk.today()
    start = next_business_day(today)
    review = await desk.payouts.prepare_key("aluguel@empresa.com.br", "800.00")
    rule = SeriesRule(Frequency.WEEKLY, start, count=8)
    series_id, made = await desk.schedule.create_series(review, rule)
    horizon = today + dt.timedelta(days=35)
    assert [e.series_seq for e in made] == list(range(len(made)))
    assert 4 <= len(made) <= 6 and all(today < e.pay_date <= horizon for e in made)
    assert len({e.idempotency_key for e in made}) == len(made)
    assert await desk.schedule.top_up() == []  # journaled once

    desk.move_to(made[0].pay_date, dt.time(8, 0))
    [first] = await desk.schedule.send_due()
    assert first.state == EntryState.ACCEPTED
    journaled = await desk.ledger.schedule.of_series(series_id)  # the horizon moved on too
    assert len(journaled) >= len(made)
    changed = await desk.schedule.edit_series(series_id, Decimal("850.00"))
    assert [e.id for e in changed] == [e.id for e in journaled[1:]]
    occurrences = await desk.ledger.schedule.of_series(series_id)
    assert occurrences[0].amount == Decimal("800.00")  # sent: as it was
    assert {e.amount for e in occurrences[1:]} == {Decimal("850.00")}
    assert [e.idempotency_key for e in occurrences] == [e.idempotency_key for e in journaled]
    assert occurrences[1].request()["payment"]["amount"] == Decimal("850.00")

    cancelled = await desk.schedule.end_series(series_id, "contrato encerrado")
    assert [e.id for e in cancelled] == [e.id for e in journaled[1:]]
    assert all(e.state == EntryState.REJECTED for e in cancelled)
    assert await desk.schedule.top_up() == []
    with pytest.raises(ScheduleError) as ended:  # ended: no edit brings it back
        await desk.schedule.edit_series(series_id, Decimal("900.00"))
    assert ended.value.code == "scheduled.series_ended"


async def test_a_series_edited_to_other_dates_cancels_only_what_is_not_sent_and_ends_earlier(
    desk: Desk,
) -> None:
    """The repeat rule and the end edited: sent occurrences stay, those not sent yet are
    cancelled and the new rule's own are journaled with keys never given before; an earlier
    end cancels only the occurrences past it."""
    today = desk.today()
    start = next_business_day(today)
    review = await desk.payouts.prepare_key("limpeza@empresa.com.br", "300.00", description="a")
    series_id, made = await desk.schedule.create_series(
        review, SeriesRule(Frequency.WEEKLY, start, count=10)
    )
    desk.move_to(made[0].pay_date, dt.time(8, 0))
    [first] = await desk.schedule.send_due()
    journaled = await desk.ledger.schedule.of_series(series_id)
    waiting = [e for e in journaled if e.id != first.id]

    terms = await desk.schedule.series_terms(series_id)
    assert (terms.amount, terms.description, terms.rule.count) == (Decimal("300.00"), "a", 10)
    too_soon = SeriesRule(Frequency.EVERY_N_DAYS, first.pay_date, interval=14, count=4)
    with pytest.raises(ScheduleError) as refused:  # would pay again on the day sent
        await desk.schedule.review_series_edit(series_id, Decimal("320.00"), "b", too_soon)
    assert refused.value.code == "scheduled.series_before_kept"
    rule = SeriesRule(
        Frequency.EVERY_N_DAYS, first.pay_date + dt.timedelta(days=1), interval=14, count=4
    )
    review_ = await desk.schedule.review_series_edit(series_id, Decimal("320.00"), "b", rule)
    assert [e.id for e in review_.kept] == [first.id]  # sent: stays as it was
    assert [e.id for e in review_.cancelled] == [e.id for e in waiting]
    assert review_.changed == () and review_.new_dates
    done = await desk.schedule.change_series(series_id, Decimal("320.00"), "b", rule)
    assert [e.id for e in done.cancelled] == [e.id for e in waiting]
    assert {e.state for e in done.cancelled} == {EntryState.REJECTED}
    after = await desk.ledger.schedule.of_series(series_id)
    fresh = [e for e in after if e.id not in {x.id for x in journaled}]
    assert [e.pay_date for e in fresh] == list(done.new_dates) == list(review_.new_dates)
    assert min(e.series_seq or 0 for e in fresh) > max(e.series_seq or 0 for e in journaled)
    assert not {e.idempotency_key for e in fresh} & {e.idempotency_key for e in journaled}
    assert {(e.amount, e.description) for e in fresh} == {(Decimal("320.00"), "b")}
    assert (await desk.ledger.journal.get(first.id)).amount == Decimal("300.00")
    assert await desk.schedule.top_up() == []  # the new rule's occurrences, journaled once

    # Only the end: the first of the new rule's occurrences stays, the others past it end.
    shorter = dataclasses.replace(rule, count=1)
    ended = await desk.schedule.change_series(series_id, Decimal("320.00"), "b", shorter)
    assert [e.id for e in ended.cancelled] == [e.id for e in fresh[1:]]
    assert ended.changed == () and ended.new_dates == ()
    assert (await desk.ledger.journal.get(fresh[0].id)).state == EntryState.PREPARED


async def test_a_payment_whose_day_passed_while_the_app_was_closed_is_held_at_the_next_start(
    desk: Desk,
) -> None:
    day = next_business_day(desk.today())
    review = desk.schedule.schedule_payout(
        await desk.payouts.prepare_key("fornecedor@empresa.com.br", "77.70"), day
    )
    entry = await desk.payouts.send(review)
    desk.move_to(next_business_day(day), dt.time(9, 0))  # the app was closed all that day
    restarted = desk.restart()
    assert await desk.engine.resolve_pending() == []
    assert await restarted.send_due() == []
    [held] = await restarted.held()
    assert held.entry.id == entry.id and held.hold.code == "scheduled.late"
    assert held.hold.params["due"] in (day, day.isoformat())
    assert bank_payments(desk.control, entry.idempotency_key) == 0
    assert (await desk.ledger.journal.get(entry.id)).state == EntryState.PREPARED

    sent = await restarted.send_now(entry.id)  # a person chose "Send now"
    assert sent.state == EntryState.ACCEPTED and await restarted.held() == []
    assert bank_payments(desk.control, entry.idempotency_key) == 1


async def test_a_slip_whose_updated_amount_changed_is_held_on_its_day(desk: Desk) -> None:
    slip = desk.control.slips()[LATE_SLIP]
    review = await desk.billets.lookup(slip["barcode"])
    day = next_business_day(desk.today())
    review = desk.schedule.schedule_billet(review, chosen=day)
    assert review.pay is not None and review.pay.date == day
    entry = await desk.billets.pay(review)
    assert entry.state == EntryState.PREPARED and entry.kind.value == "BILLET"
    desk.move_to(day, dt.time(8, 0))  # a day's more interest
    assert await desk.schedule.send_due() == []
    [held] = await desk.schedule.held()
    assert held.hold.code == "scheduled.slip_amount_changed"
    assert Decimal(str(held.hold.params["scheduled"])) == entry.amount
    assert Decimal(str(held.hold.params["now"])) > entry.amount
    assert (await desk.ledger.journal.get(entry.id)).state == EntryState.PREPARED
    await desk.schedule.cancel(entry.id, "valor mudou")


async def test_a_day_over_the_balance_is_warned_the_day_before_and_held(desk: Desk) -> None:
    desk.set_balance(Decimal("1000.00"))
    day = next_business_day(desk.today())
    entries = []
    for amount in ("600.00", "600.00"):
        review = await desk.payouts.prepare_key(
            "fornecedor@empresa.com.br", amount, description=f"parcela {len(entries)}"
        )
        entries.append(await desk.payouts.send(desk.schedule.schedule_payout(review, day)))
    [warning] = await desk.schedule.day_warnings()
    assert (warning.day, warning.total, warning.balance) == (
        day,
        Decimal("1200.00"),
        Decimal("1000.00"),
    )
    assert warning.reason.code == "scheduled.day_short"
    desk.move_to(day, dt.time(8, 0))
    assert await desk.schedule.send_due() == []
    held = await desk.schedule.held()
    assert {h.entry.id for h in held} == {e.id for e in entries}
    assert {h.hold.code for h in held} == {"scheduled.balance_short"}
    assert desk.control.balance() == Decimal("1000.00")  # not half-sent
    for entry in entries:
        await desk.schedule.cancel(entry.id, "sem saldo")


async def test_a_payment_the_balance_does_not_cover_is_tried_again_then_held(desk: Desk) -> None:
    desk.set_balance(Decimal("500.00"))
    day = next_business_day(desk.today())
    desk.move_to(day, dt.time(8, 0))
    schedule = desk.restart(funds_retries=3)
    first = await desk.payouts.send(
        schedule.schedule_payout(
            await desk.payouts.prepare_key("fornecedor@empresa.com.br", "100.00"), day
        )
    )
    [sent] = await schedule.send_due()  # the day fits: checked once, sent
    assert sent.id == first.id and sent.state == EntryState.ACCEPTED
    big = await desk.payouts.send(
        schedule.schedule_payout(
            await desk.payouts.prepare_key("outro@empresa.com.br", "450.00"), day
        )
    )
    for _ in range(2):  # tried, left for the next pass
        assert await schedule.send_due() == []
        assert await schedule.held() == []
    assert await schedule.send_due() == []
    [held] = await schedule.held()
    assert held.entry.id == big.id and held.hold.code == "scheduled.insufficient_funds"
    assert bank_payments(desk.control, big.idempotency_key) == 0
    desk.set_balance(Decimal("1000.00"))  # money came in: a person sends it
    assert (await schedule.send_now(big.id)).state == EntryState.ACCEPTED


async def test_a_payment_scheduled_shows_on_its_day_in_the_calendar_and_moves_from_there(
    desk: Desk,
) -> None:
    """The calendar reads the engine itself (both ledgers): the payment on its day, the
    projected balance without it before and with it from then on; moved from the calendar,
    the journal's pay date moves."""
    desk.set_balance(Decimal("5000.00"))
    today = desk.today()
    day = next_business_day(today)
    later = next_business_day(day)
    review = await desk.payouts.prepare_key("fornecedor@empresa.com.br", "1234.56")
    entry = await desk.payouts.send(desk.schedule.schedule_payout(review, day))

    async def balance() -> Decimal:
        return (await desk.engine.accounts.get_balances())[0].available

    calendar = CalendarService(
        SimpleNamespace(ledger=desk.ledger, schedule=desk.schedule),
        outflows=outflow_source(),
        inflows=None,
        balance=balance,
        clock=desk.clock,
    )
    projection = await calendar.load()
    assert projection.opening == Decimal("5000.00")
    [out] = projection.day(day).outflows  # type: ignore[union-attr]
    assert (out.entry_id, out.amount, out.state) == (str(entry.id), Decimal("1234.56"), "scheduled")
    assert out.payee == "fornecedor@empresa.com.br" and out.kind == "PIX_KEY"
    assert projection.day(day - dt.timedelta(days=1)).balance == Decimal("5000.00")  # type: ignore[union-attr]
    assert projection.day(day).balance == Decimal("3765.44")  # type: ignore[union-attr]
    assert projection.days[-1].balance == Decimal("3765.44")

    await calendar.move(str(entry.id), later)
    moved = await calendar.load()
    assert moved.day(day).outflows == ()  # type: ignore[union-attr]
    assert [o.entry_id for o in moved.day(later).outflows] == [str(entry.id)]  # type: ignore[union-attr]
    assert moved.day(day).balance == Decimal("5000.00")  # type: ignore[union-attr]
    assert (await desk.ledger.journal.get(entry.id)).pay_date == later

    await calendar.cancel(str(entry.id), "pago em dinheiro")
    assert (await calendar.load()).items == 0  # cancelled: gone from the calendar


async def test_the_sandbox_samples_are_scheduled_once_through_the_engine(desk: Desk) -> None:
    """`make run`'s samples: journaled by the engine (a series for each repeating one), on
    the calendar by their payees' names; a second start adds nothing."""
    workspace = SimpleNamespace(
        session=SimpleNamespace(profile=SimpleNamespace(environment="sandbox")),
        payouts=desk.payouts,
        schedule=desk.schedule,
        ledger=desk.ledger,
        clock=desk.clock,
    )
    made = await add_samples_to(workspace)
    samples = sample_schedule(desk.today())
    assert len(made) == len(samples)
    assert [m.startswith("S") for m in made] == [s.repeat is not None for s in samples]
    shown = await scheduled_between(workspace, desk.today(), desk.today() + dt.timedelta(days=60))
    assert {s.payee_name for s in samples} == {p.payee for p in shown}
    first = next(p for p in shown if p.payee == samples[0].payee_name)
    assert (first.pay_date, first.amount, first.state) == (
        samples[0].pay_date,
        samples[0].amount,
        "scheduled",
    )
    assert await add_samples_to(workspace) == []


# -- the calendar projects what the series will journal ------------------------------------------

OPENING = Decimal("100000.00")


def calendar_of(desk: Desk, source: Any = None) -> CalendarService:
    """The calendar on the desk's ledger and schedule (the balance: a fixed amount)."""

    async def balance() -> Decimal:
        return OPENING

    return CalendarService(
        SimpleNamespace(ledger=desk.ledger, schedule=desk.schedule),
        outflows=source or outflow_source(),
        inflows=None,
        balance=balance,
        clock=desk.clock,
    )


def rolled(day: dt.date) -> dt.date:
    """``day``, or the next business day (worked out here, not by the series' rule)."""
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def month_after(day: dt.date, months: int) -> tuple[int, int]:
    year, month = divmod(day.year * 12 + day.month - 1 + months, 12)
    return year, month + 1


def monthly_from_next_month(today: dt.date) -> tuple[SeriesRule, list[dt.date]]:
    """Six times monthly from the 1st of next month, on a day of the month that puts one of
    its occurrences past the top-up's 35 days but within the calendar on a weekend or a
    holiday; with the pay dates (rolled forward) of its occurrences within the calendar."""
    _first, last = horizon(today)
    start = dt.date(*month_after(today, 1), 1)
    for day_of_month in range(1, 29):
        nominal = [dt.date(*month_after(start, k), day_of_month) for k in range(6)]
        shown = [rolled(d) for d in nominal if rolled(d) <= last]
        planned = [d for d in nominal if today + dt.timedelta(days=35) < rolled(d) <= last]
        if any(not is_business_day(d) for d in planned):
            rule = SeriesRule(Frequency.MONTHLY, start, day_of_month=day_of_month, count=6)
            return rule, shown
    raise AssertionError("no day of the month falls on a weekend within the calendar")


def of_series(projection: Any, series_id: str) -> list[Any]:
    return [o for day in projection.days for o in day.outflows if o.series_id == series_id]


async def test_a_monthly_series_shows_all_its_occurrences_within_the_calendar(
    desk: Desk,
) -> None:
    """Six times monthly from next month: the top-up journals the next 35 days, the calendar
    shows every occurrence of its 13 weeks on its rolled date (those not journaled yet as
    planned), and its projected balance at the end is today's less all of them. A desk whose
    horizon reaches the calendar's end journals exactly the occurrences planned."""
    today = desk.today()
    rule, dates = monthly_from_next_month(today)
    review = await desk.payouts.prepare_key("aluguel@empresa.com.br", "4800.00")
    series_id, made = await desk.schedule.create_series(review, rule)

    projection = await calendar_of(desk).load()
    shown = of_series(projection, series_id)
    assert [o.day for o in shown] == dates and len(dates) < 6  # the last ones: past 13 weeks
    assert [o.series_seq for o in shown] == list(range(len(dates)))
    assert [o.entry_id for o in shown if not o.planned] == [str(e.id) for e in made]
    planned = [o for o in shown if o.planned]
    assert planned and all(o.day > today + dt.timedelta(days=35) for o in planned)
    assert {(o.amount, o.state, o.payee, o.kind) for o in planned} == {
        (Decimal("4800.00"), "planned", "aluguel@empresa.com.br", "PIX_KEY")
    }
    assert projection.days[-1].balance == OPENING - Decimal("4800.00") * len(dates)
    first_planned = projection.day(planned[0].day)
    assert first_planned is not None and first_planned.out_planned == Decimal("4800.00")

    further = ScheduleService(
        desk.engine,
        desk.ledger,
        desk.engine.accounts,
        clock=desk.clock,
        settings=ScheduleSettings(horizon_days=(horizon(today)[1] - today).days),
    )
    journaled = await further.top_up()
    assert [(e.pay_date, e.series_seq) for e in journaled] == [
        (o.day, o.series_seq) for o in planned
    ]
    again = await calendar_of(desk).load()
    assert [(o.day, o.planned) for o in of_series(again, series_id)] == [
        (day, False) for day in dates
    ]
    assert again.days[-1].balance == projection.days[-1].balance


async def test_a_series_edited_projects_its_new_terms_and_an_ended_one_nothing(
    desk: Desk,
) -> None:
    """An edit of the amount: the occurrences not journaled yet are projected with it, as
    the journaled ones not sent are changed; an edit of the dates: the new rule's; ended:
    nothing more of it on the calendar."""
    today = desk.today()
    rule, dates = monthly_from_next_month(today)
    review = await desk.payouts.prepare_key("limpeza@empresa.com.br", "300.00")
    series_id, _made = await desk.schedule.create_series(review, rule)
    await desk.schedule.edit_series(series_id, Decimal("350.00"))

    projection = await calendar_of(desk).load()
    shown = of_series(projection, series_id)
    assert [o.day for o in shown] == dates and any(o.planned for o in shown)
    assert {o.amount for o in shown} == {Decimal("350.00")}
    assert projection.days[-1].balance == OPENING - Decimal("350.00") * len(dates)

    other_day = rule.day_of_month % 28 + 1  # type: ignore[operator]
    moved = dataclasses.replace(rule, day_of_month=other_day)
    await desk.schedule.change_series(series_id, Decimal("360.00"), "", moved)
    _first, last = horizon(today)
    new_dates = [
        rolled(dt.date(*month_after(rule.start, k), other_day))
        for k in range(6)
        if rolled(dt.date(*month_after(rule.start, k), other_day)) <= last
    ]
    changed = of_series(await calendar_of(desk).load(), series_id)
    assert [(o.day, o.amount) for o in changed] == [(d, Decimal("360.00")) for d in new_dates]
    assert any(o.planned for o in changed)

    # Its end's review names what it stops: the journaled ones cancelled, and the dates of
    # those not journaled yet within the calendar (and that there are more after them).
    review_end = await desk.schedule.review_series_end(series_id)
    journaled = [o.day for o in changed if not o.planned]
    assert [e.pay_date for e in review_end.cancelled] == journaled
    assert list(review_end.planned) == [o.day for o in changed if o.planned]
    assert review_end.more_planned == (len(new_dates) < 6)
    await desk.schedule.end_series(series_id, "contrato encerrado")
    assert (await desk.schedule.review_series_end(series_id)).planned == ()
    ended = await calendar_of(desk).load()
    assert of_series(ended, series_id) == []
    assert ended.days[-1].balance == OPENING


class TopUpBetweenReads:
    """The schedule's functions, with another desktop's top-up (a horizon reaching the
    calendar's end) landing between the calendar's two reads: what it journals was read as
    planned, and then as journaled."""

    def __init__(self, top_up: Any) -> None:
        self.top_up = top_up
        self.planned: list[Any] = []

    async def planned_between(self, workspace: Any, start: dt.date, end: dt.date) -> list[Any]:
        self.planned = await outflow_source().planned_between(workspace, start, end)
        await self.top_up()
        return self.planned

    def __getattr__(self, name: str) -> Any:
        return getattr(outflow_source(), name)


async def test_an_occurrence_journaled_and_planned_at_once_counts_once(desk: Desk) -> None:
    today = desk.today()
    rule, dates = monthly_from_next_month(today)
    review = await desk.payouts.prepare_key("frete@empresa.com.br", "1000.00")
    series_id, _made = await desk.schedule.create_series(review, rule)
    further = ScheduleService(
        desk.engine,
        desk.ledger,
        desk.engine.accounts,
        clock=desk.clock,
        settings=ScheduleSettings(horizon_days=(horizon(today)[1] - today).days),
    )
    source = TopUpBetweenReads(further.top_up)
    projection = await calendar_of(desk, source).load()
    assert source.planned  # read as planned, then journaled
    shown = of_series(projection, series_id)
    assert [(o.day, o.planned) for o in shown] == [(day, False) for day in dates]
    assert projection.days[-1].balance == OPENING - Decimal("1000.00") * len(dates)
