"""Pay dates, send times and series (treasury_app.domain.schedule): examples and properties."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.schedule import (
    BusinessCalendar,
    Frequency,
    ScheduleError,
    SeriesRule,
    check_series,
    is_due,
    occurrences,
    pay_date,
    send_instant,
    slip_pay_date,
)

D = dt.date
days = st.dates(min_value=D(2000, 1, 1), max_value=D(2099, 12, 31))
extras = st.frozensets(days, max_size=20).map(BusinessCalendar)


def test_a_holiday_rolls_to_the_next_business_day_and_says_why():
    # Tiradentes 2027 is a Wednesday.
    rolled = pay_date(D(2027, 4, 21), today=D(2027, 4, 1))
    assert rolled.date == D(2027, 4, 22) and rolled.rolled
    assert rolled.reason is not None and rolled.reason.code == "pay_date.holiday"
    assert rolled.reason.params == {
        "asked": D(2027, 4, 21),
        "to": D(2027, 4, 22),
        "holiday": "Tiradentes",
    }


def test_a_weekend_and_an_extra_date_roll_forward():
    saturday = pay_date(D(2027, 3, 6), today=D(2027, 3, 1))
    assert saturday.date == D(2027, 3, 8) and saturday.reason.code == "pay_date.weekend"
    city = BusinessCalendar.with_extra([D(2027, 3, 8)])
    both = pay_date(D(2027, 3, 6), today=D(2027, 3, 1), calendar=city)
    assert both.date == D(2027, 3, 9)
    extra = pay_date(D(2027, 3, 8), today=D(2027, 3, 1), calendar=city)
    assert extra.reason.code == "pay_date.extra" and extra.date == D(2027, 3, 9)


def test_a_business_day_stays_and_the_past_is_refused():
    kept = pay_date(D(2027, 3, 3), today=D(2027, 3, 3))
    assert kept.date == D(2027, 3, 3) and kept.reason is None and not kept.rolled
    with pytest.raises(ScheduleError) as refused:
        pay_date(D(2027, 3, 2), today=D(2027, 3, 3))
    assert refused.value.code == "schedule.past" and refused.value.field == "pay_date"


def test_a_slip_defaults_to_its_due_date_rolled_forward_unless_a_date_is_chosen():
    # Due on Sunday 07/03/2027: paid Monday, without fine.
    assert slip_pay_date(D(2027, 3, 7), today=D(2027, 3, 1)).date == D(2027, 3, 8)
    earlier = slip_pay_date(D(2027, 3, 7), today=D(2027, 3, 1), chosen=D(2027, 3, 5))
    assert earlier.date == D(2027, 3, 5)
    assert slip_pay_date(None, today=D(2027, 3, 6)).date == D(2027, 3, 8)
    assert slip_pay_date(D(2027, 2, 1), today=D(2027, 3, 3)).date == D(2027, 3, 3)


def test_the_send_time_is_brasilia_time():
    at = send_instant(D(2027, 3, 3))
    assert at == dt.datetime(2027, 3, 3, 11, 0, tzinfo=dt.UTC)
    assert not is_due(D(2027, 3, 3), dt.datetime(2027, 3, 3, 10, 59, tzinfo=dt.UTC))
    assert is_due(D(2027, 3, 3), dt.datetime(2027, 3, 3, 8, 0, tzinfo=BRASILIA))
    assert is_due(D(2027, 3, 3), dt.datetime(2027, 3, 3, 7, 30, tzinfo=BRASILIA), dt.time(7, 30))
    with pytest.raises(ScheduleError):
        send_instant(D(2027, 3, 3), dt.time(8, 0, tzinfo=dt.UTC))


@given(days, extras)
def test_rolling_gives_the_first_business_day_not_before_the_date(day, calendar):
    rolled = pay_date(day, today=day, calendar=calendar)
    assert rolled.date >= day and calendar.is_business_day(rolled.date)
    between = [day + dt.timedelta(days=n) for n in range((rolled.date - day).days)]
    assert not any(calendar.is_business_day(d) for d in between)
    assert (rolled.reason is None) == (rolled.date == day)
    assert pay_date(rolled.date, today=day, calendar=calendar).date == rolled.date


# -- series -------------------------------------------------------------------------------------


def test_monthly_on_day_31_and_the_last_business_day():
    rule = SeriesRule(Frequency.MONTHLY, D(2027, 1, 15), day_of_month=31, count=3)
    found = occurrences(rule, D(2027, 1, 1), D(2027, 12, 31))
    assert [o.nominal for o in found] == [D(2027, 1, 31), D(2027, 2, 28), D(2027, 3, 31)]
    # 31/01/2027 is a Sunday, 28/02/2027 a Sunday: both leave on Monday.
    assert [o.pay.date for o in found] == [D(2027, 2, 1), D(2027, 3, 1), D(2027, 3, 31)]
    last = SeriesRule(Frequency.MONTHLY, D(2027, 4, 1), last_business_day=True, count=2)
    assert [o.pay.date for o in occurrences(last, D(2027, 4, 1), D(2027, 6, 1))] == [
        D(2027, 4, 30),
        D(2027, 5, 31),
    ]


def test_weekly_and_every_n_days_until_a_date():
    weekly = SeriesRule(Frequency.WEEKLY, D(2027, 3, 3), interval=2, until=D(2027, 4, 14))
    got = [o.nominal for o in occurrences(weekly, D(2027, 1, 1), D(2027, 12, 31))]
    assert got == [D(2027, 3, 3), D(2027, 3, 17), D(2027, 3, 31), D(2027, 4, 14)]
    daily = SeriesRule(Frequency.EVERY_N_DAYS, D(2027, 3, 5), interval=1, count=3)
    found = occurrences(daily, D(2027, 3, 1), D(2027, 3, 31))
    assert [o.index for o in found] == [0, 1, 2]
    assert [o.pay.date for o in found] == [D(2027, 3, 5), D(2027, 3, 8), D(2027, 3, 8)]


@pytest.mark.parametrize(
    ("rule", "code"),
    [
        (SeriesRule(Frequency.WEEKLY, D(2027, 1, 1), interval=0), "schedule.series_interval"),
        (SeriesRule(Frequency.MONTHLY, D(2027, 1, 1)), "schedule.series_day"),
        (SeriesRule(Frequency.MONTHLY, D(2027, 1, 1), day_of_month=32), "schedule.series_day"),
        (
            SeriesRule(Frequency.MONTHLY, D(2027, 1, 1), day_of_month=5, last_business_day=True),
            "schedule.series_day",
        ),
        (SeriesRule(Frequency.WEEKLY, D(2027, 1, 1), day_of_month=5), "schedule.series_day_unused"),
        (
            SeriesRule(Frequency.WEEKLY, D(2027, 1, 1), until=D(2027, 2, 1), count=2),
            "schedule.series_end_twice",
        ),
        (
            SeriesRule(Frequency.WEEKLY, D(2027, 1, 1), until=D(2026, 2, 1)),
            "schedule.series_until_before_start",
        ),
        (SeriesRule(Frequency.WEEKLY, D(2027, 1, 1), count=0), "schedule.series_count"),
    ],
)
def test_a_bad_series_is_refused_with_a_code(rule, code):
    with pytest.raises(ScheduleError) as refused:
        check_series(rule)
    assert refused.value.code == code


series = st.builds(
    lambda frequency, start, interval, day, last, count: SeriesRule(
        frequency,
        start,
        interval=interval,
        day_of_month=None if frequency is not Frequency.MONTHLY or last else day,
        last_business_day=frequency is Frequency.MONTHLY and last,
        count=count,
    ),
    st.sampled_from(Frequency),
    days,
    st.integers(1, 40),
    st.integers(1, 31),
    st.booleans(),
    st.one_of(st.none(), st.integers(1, 60)),
)


@given(series, days, st.integers(0, 400), extras)
def test_occurrences_are_ordered_bounded_and_the_same_in_any_window(rule, start, span, calendar):
    end = start + dt.timedelta(days=span)
    found = occurrences(rule, start, end, calendar=calendar)
    indexes = [o.index for o in found]
    assert indexes == sorted(set(indexes))
    for occurrence in found:
        assert start <= occurrence.pay.date <= end
        assert calendar.is_business_day(occurrence.pay.date)
        assert occurrence.pay.date >= occurrence.nominal >= rule.start
        if rule.count is not None:
            assert occurrence.index < rule.count
        if rule.last_business_day:
            assert occurrence.nominal == occurrence.pay.date
            nxt = occurrence.nominal + dt.timedelta(days=1)
            while nxt.month == occurrence.nominal.month:
                assert not calendar.is_business_day(nxt)
                nxt += dt.timedelta(days=1)
        elif rule.frequency is Frequency.MONTHLY:
            assert occurrence.nominal.day == min(
                rule.day_of_month,
                (occurrence.nominal.replace(day=28) + dt.timedelta(days=4))
                .replace(day=1)
                .__sub__(dt.timedelta(days=1))
                .day,
            )
    # splitting the window finds the same occurrences (an occurrence is fixed by its index)
    middle = start + dt.timedelta(days=span // 2)
    halves = occurrences(rule, start, middle, calendar=calendar) + occurrences(
        rule, middle + dt.timedelta(days=1), end, calendar=calendar
    )
    assert halves == found
