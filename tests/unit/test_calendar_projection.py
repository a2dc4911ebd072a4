"""The payables calendar's projection (pure): the projected balance is today's balance plus the
scheduled and expected amounts, receipts weighted by how often their payers (or their kind)
paid; warnings below zero and below the person's threshold; the horizon; late payments."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import pytest

from treasury_app.domain.errors import RuleError
from treasury_app.services.calendar import (
    DEFAULT_WEIGHT,
    DayWarning,
    ExpectedInflow,
    Outcome,
    WeightBook,
    check_threshold,
    horizon,
    next_business_morning,
    project,
    with_threshold,
)

TODAY = dt.date(2026, 11, 18)  # a Wednesday
ACME = "11222333000181"
BETA = "40364478829"


@dataclass(frozen=True)
class Scheduled:
    entry_id: str
    pay_date: dt.date
    amount: Decimal
    payee: str = "Fornecedor"
    kind: str = "pix_key"
    state: str = "SCHEDULED"
    series_id: str | None = None
    series_seq: int | None = None


def inflow(
    txid: str, day: dt.date, amount: str, document: str, kind: str = "cobv"
) -> ExpectedInflow:
    return ExpectedInflow(txid, day, Decimal(amount), f"Payer {document[-2:]}", document, kind)


def test_the_horizon_runs_from_today_to_the_sunday_of_the_thirteenth_week() -> None:
    first, last = horizon(TODAY)
    assert first == TODAY
    assert last == dt.date(2027, 2, 14) and last.weekday() == 6
    assert (last - dt.date(2026, 11, 16)).days + 1 == 13 * 7


def test_the_projected_balance_is_todays_plus_scheduled_and_weighted_expected() -> None:
    scheduled = [
        Scheduled("1", dt.date(2026, 11, 20), Decimal("1500.00")),
        Scheduled("2", dt.date(2026, 12, 4), Decimal("333.33"), series_id="s1"),
        Scheduled("3", dt.date(2026, 12, 4), Decimal("0.01"), kind="billet"),
    ]
    expected = [
        inflow("a", dt.date(2026, 11, 25), "1000.00", ACME),  # payer: 2 of 3 paid
        inflow("b", dt.date(2026, 12, 4), "100.00", BETA, "cobr"),  # kind cobr: 1 of 4
        inflow("c", dt.date(2026, 12, 10), "77.77", "99999999000191", "batch"),  # kind cobv
    ]
    history = [
        Outcome(ACME, "cobv", True),
        Outcome(ACME, "batch", True),
        Outcome(ACME, "cobv", False),
        Outcome("12345678909", "cobr", True),
        *[Outcome("12345678909", "cobr", False)] * 3,
        Outcome("55566677000100", "cobv", False),
    ]
    projection = project(TODAY, Decimal("2000.00"), scheduled, expected, history)

    a, b, c = (projection.day(item.day).inflows[0] for item in expected)  # type: ignore[union-attr]
    assert (a.weight.basis, a.weight.fraction) == ("payer", Fraction(2, 3))
    assert (b.weight.basis, b.weight.fraction) == ("kind", Fraction(1, 4))
    # a batch's members count as due-date charges: ACME's 3 and the other payer's 1
    assert (c.weight.basis, c.weight.fraction) == ("kind", Fraction(2, 4))
    assert a.weighted == Decimal("666.67") and b.weighted == Decimal("25.00")
    assert c.weighted == Decimal("38.88")  # 38.885 half to even

    weighted = {"a": Decimal("666.67"), "b": Decimal("25.00"), "c": Decimal("38.88")}
    for day in projection.days:
        outs = sum((s.amount for s in scheduled if s.pay_date <= day.day), Decimal(0))
        ins = sum((weighted[i.txid] for i in expected if i.day <= day.day), Decimal(0))
        assert day.balance == Decimal("2000.00") - outs + ins
    assert projection.day(dt.date(2026, 12, 4)).out_total == Decimal("333.34")  # type: ignore[union-attr]
    assert projection.days[-1].balance == Decimal("897.21")  # 2000 - 1833.34 + 730.55
    assert projection.day(dt.date(2026, 12, 4)).in_total == Decimal("100.00")  # type: ignore[union-attr]


def test_without_any_history_a_receipt_counts_for_the_default_weight() -> None:
    projection = project(TODAY, Decimal("0.00"), [], [inflow("a", TODAY, "10.01", ACME)])
    day = projection.days[0]
    assert day.inflows[0].weight.basis == "none"
    assert day.inflows[0].weight.fraction == DEFAULT_WEIGHT
    assert day.in_weighted == Decimal("5.00")  # 5.005, half to even
    assert day.balance == Decimal("5.00")


def test_a_payer_who_never_paid_counts_for_nothing_whatever_the_kind_says() -> None:
    history = [Outcome(ACME, "cobv", False), Outcome(BETA, "cobv", True)]
    book = WeightBook.of(history)
    assert book.weight(ACME, "cobv").fraction == 0
    assert book.weight("00000000191", "batch").fraction == Fraction(1, 2)


def test_days_below_zero_and_below_the_threshold_are_warned() -> None:
    scheduled = [
        Scheduled("1", dt.date(2026, 11, 19), Decimal("600.00")),
        Scheduled("2", dt.date(2026, 11, 20), Decimal("500.00")),
    ]
    projection = project(
        TODAY, Decimal("1000.00"), scheduled, [], threshold=check_threshold(Decimal("500"))
    )
    assert projection.day(TODAY).warning is None  # type: ignore[union-attr]
    assert projection.day(dt.date(2026, 11, 19)).warning == DayWarning.BELOW_THRESHOLD  # type: ignore[union-attr]
    assert projection.day(dt.date(2026, 11, 20)).warning == DayWarning.BELOW_ZERO  # type: ignore[union-attr]
    assert [d.day for d in projection.warned][:2] == [dt.date(2026, 11, 19), dt.date(2026, 11, 20)]
    without = project(TODAY, Decimal("1000.00"), scheduled[:1], [])
    assert without.warned == ()


def test_a_payment_whose_day_passed_is_counted_today_and_sent_ones_not_at_all() -> None:
    scheduled = [
        Scheduled("late", dt.date(2026, 11, 16), Decimal("10.00"), state="held"),
        Scheduled("paid", dt.date(2026, 11, 18), Decimal("20.00"), state="paid"),
        Scheduled("sending", dt.date(2026, 11, 18), Decimal("20.00"), state="sending"),
        Scheduled("failed", dt.date(2026, 11, 18), Decimal("20.00"), state="failed"),
        Scheduled("gone", dt.date(2026, 11, 25), Decimal("30.00"), state="cancelled"),
        Scheduled("waits", dt.date(2026, 11, 26), Decimal("5.00"), state="waiting_approval"),
        Scheduled("far", dt.date(2027, 2, 15), Decimal("40.00")),
    ]
    projection = project(TODAY, Decimal("100.00"), scheduled, [])
    today = projection.days[0]
    assert [o.entry_id for o in today.outflows] == ["late"] and today.outflows[0].late
    assert projection.items == 2
    assert projection.days[-1].balance == Decimal("85.00")


def test_a_planned_occurrence_counts_unless_journaled_under_the_same_series_and_number() -> None:
    """The occurrences of a series not journaled yet are counted on their day, marked planned;
    one journaled meanwhile (the same series and number, in any state: sent, cancelled, moved
    to another day) counts once, as journaled; one past the horizon not at all."""
    scheduled = [
        Scheduled("7", dt.date(2026, 12, 7), Decimal("100.00"), series_id="s1", series_seq=0),
        Scheduled("8", dt.date(2026, 12, 9), Decimal("100.00"), series_id="s1", series_seq=1),
        Scheduled(
            "9",
            dt.date(2026, 12, 14),
            Decimal("100.00"),
            "x",
            "pix_key",
            "cancelled",
            series_id="s1",
            series_seq=2,
        ),
    ]
    planned = [
        Scheduled(
            "planned:s1:1",
            dt.date(2026, 12, 7),
            Decimal("100.00"),
            state="planned",
            series_id="s1",
            series_seq=1,
        ),  # journaled and moved to 09/12
        Scheduled(
            "planned:s1:2",
            dt.date(2026, 12, 14),
            Decimal("100.00"),
            state="planned",
            series_id="s1",
            series_seq=2,
        ),  # journaled and cancelled
        Scheduled(
            "planned:s1:3",
            dt.date(2026, 12, 21),
            Decimal("150.00"),
            state="planned",
            series_id="s1",
            series_seq=3,
        ),
        Scheduled(
            "planned:s2:3",
            dt.date(2026, 12, 21),
            Decimal("40.00"),
            state="planned",
            series_id="s2",
            series_seq=3,
        ),  # another series, the same number
        Scheduled(
            "planned:s1:4",
            dt.date(2027, 2, 15),
            Decimal("150.00"),
            state="planned",
            series_id="s1",
            series_seq=4,
        ),  # past the horizon
    ]
    projection = project(TODAY, Decimal("1000.00"), scheduled, [], planned=planned)
    day = projection.day(dt.date(2026, 12, 21))
    assert day is not None
    assert [(o.entry_id, o.planned, o.series_seq) for o in day.outflows] == [
        ("planned:s1:3", True, 3),
        ("planned:s2:3", True, 3),
    ]
    assert day.out_total == day.out_planned == Decimal("190.00")
    assert [o.entry_id for o in projection.day(dt.date(2026, 12, 7)).outflows] == ["7"]  # type: ignore[union-attr]
    assert projection.day(dt.date(2026, 12, 14)).outflows == ()  # type: ignore[union-attr]
    assert (projection.items, projection.planned) == (4, 2)
    assert projection.days[-1].balance == Decimal("610.00")  # 1000 - 100 - 100 - 190


def test_the_calendar_speaks_the_engines_vocabulary() -> None:
    """Every state the engine gives is either gone or leaves on its day; the source is the
    engine itself."""
    from treasury_app.services import schedule
    from treasury_app.services.calendar import GONE_STATES, outflow_source
    from treasury_app.services.schedule import ScheduleState

    assert outflow_source() is schedule
    assert set(ScheduleState) >= GONE_STATES
    assert {s.value for s in ScheduleState} - GONE_STATES == {
        "scheduled",
        "waiting_approval",
        "held",
        "planned",  # an occurrence of a series not journaled yet: leaves on its day
    }


def test_weekends_and_holidays_are_marked_not_business_days() -> None:
    projection = project(TODAY, Decimal("0"), [], [])
    assert not projection.day(dt.date(2026, 11, 20)).business_day  # type: ignore[union-attr]
    assert not projection.day(dt.date(2026, 11, 21)).business_day  # type: ignore[union-attr]
    assert projection.day(dt.date(2026, 11, 19)).business_day  # type: ignore[union-attr]


def test_the_threshold_is_an_amount_not_below_zero() -> None:
    assert check_threshold(None) is None
    assert check_threshold(Decimal("10")) == Decimal("10.00")
    with pytest.raises(RuleError) as refused:
        check_threshold(Decimal("-1"))
    assert refused.value.reason.code == "calendar.threshold_negative"


def test_the_next_business_morning_skips_weekends_and_holidays() -> None:
    friday_noon = dt.datetime(2026, 11, 19, 15, 0, tzinfo=dt.UTC)  # Thursday 12:00 Brasília
    moved = next_business_morning(friday_noon)
    assert moved.date() == dt.date(2026, 11, 23)  # Friday 20/11 is a holiday, then a weekend
    assert (moved.hour, moved.minute) == (8, 0)


def test_a_day_whose_payments_exceed_todays_balance_is_warned_even_if_receipts_cover_it() -> None:
    """The due sender reads the balance before the day's first send (receipts come later):
    a day over today's balance is held whole, so the calendar says so on that day."""
    day = dt.date(2026, 11, 20)
    scheduled = [
        Scheduled("1", day, Decimal("700.00")),
        Scheduled("2", day, Decimal("400.00")),
        Scheduled("3", dt.date(2026, 11, 23), Decimal("1200.00"), state="held"),
    ]
    history = [Outcome(ACME, "cobv", True)] * 3
    expected = [inflow("a", day, "500.00", ACME), inflow("b", day, "900.00", ACME)]
    projection = project(TODAY, Decimal("1000.00"), scheduled, expected, history)
    warned = projection.day(day)
    assert warned is not None and warned.balance == Decimal("1300.00")  # receipts cover it
    assert warned.over_balance and warned.warning == DayWarning.OVER_BALANCE
    held = projection.day(dt.date(2026, 11, 23))  # a held payment leaves only by a person
    assert held is not None and not held.over_balance and held.warning is None
    assert with_threshold(projection, Decimal("0.00")).day(day).warning == DayWarning.OVER_BALANCE  # type: ignore[union-attr]
    below = project(TODAY, Decimal("1000.00"), scheduled[:2], [])
    assert below.day(day).warning == DayWarning.BELOW_ZERO  # type: ignore[union-attr]
