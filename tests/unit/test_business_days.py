"""Tests of treasury_app.domain.business_days: holidays and business-day arithmetic."""

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.business_days import (
    add_business_days,
    business_days_between,
    earliest_cobr_due_date,
    easter,
    holidays,
    is_business_day,
    is_holiday,
    is_valid_cobr_lead_time,
    next_business_day,
)

D = dt.date


@pytest.mark.parametrize(
    ("year", "expected"),
    [
        (1900, D(1900, 4, 15)),
        (2000, D(2000, 4, 23)),
        (2019, D(2019, 4, 21)),
        (2024, D(2024, 3, 31)),
        (2025, D(2025, 4, 20)),
        (2026, D(2026, 4, 5)),
        (2038, D(2038, 4, 25)),
        (2199, D(2199, 4, 14)),
    ],
)
def test_easter(year, expected):
    assert easter(year) == expected


@given(st.integers(min_value=1583, max_value=9999))
def test_easter_is_a_sunday_in_its_window(year):
    sunday = easter(year)
    assert sunday.weekday() == 6
    assert D(year, 3, 22) <= sunday <= D(year, 4, 25)


def test_holidays_2026():
    table = holidays(2026)
    assert table == {
        D(2026, 1, 1): "Confraternização Universal",
        D(2026, 2, 16): "Carnaval (segunda-feira)",
        D(2026, 2, 17): "Carnaval (terça-feira)",
        D(2026, 4, 3): "Sexta-feira Santa",
        D(2026, 4, 21): "Tiradentes",
        D(2026, 5, 1): "Dia do Trabalho",
        D(2026, 6, 4): "Corpus Christi",
        D(2026, 9, 7): "Independência do Brasil",
        D(2026, 10, 12): "Nossa Senhora Aparecida",
        D(2026, 11, 2): "Finados",
        D(2026, 11, 15): "Proclamação da República",
        D(2026, 11, 20): "Dia Nacional de Zumbi e da Consciência Negra",
        D(2026, 12, 25): "Natal",
    }
    assert list(table) == sorted(table)


def test_holidays_returns_a_fresh_dict():
    holidays(2026).clear()
    assert len(holidays(2026)) == 13


def test_consciencia_negra_only_from_2024():
    assert D(2023, 11, 20) not in holidays(2023)
    assert D(2024, 11, 20) in holidays(2024)
    assert is_holiday(D(2026, 11, 20))
    assert D(2026, 11, 20).weekday() == 4  # a Friday
    assert not is_business_day(D(2026, 11, 20))
    assert is_business_day(D(2023, 11, 20))  # a Monday, not yet a national holiday


def test_good_friday_on_tiradentes_keeps_both_names():
    assert holidays(2000)[D(2000, 4, 21)] == "Tiradentes / Sexta-feira Santa"
    assert len(holidays(2000)) == 11


@pytest.mark.parametrize("year", [1, 1900, 2024, 2199, 9999])
def test_holidays_for_any_year(year):
    table = holidays(year)
    assert all(day.year == year for day in table)
    assert len(table) == (13 if year >= 2024 else 12)


def test_holidays_rejects_bad_years():
    with pytest.raises(ValueError):
        holidays(0)
    with pytest.raises(TypeError):
        holidays("2026")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("day", "expected"),
    [
        (D(2026, 2, 13), True),  # Friday before Carnival
        (D(2026, 2, 16), False),  # Carnival Monday
        (D(2026, 2, 17), False),  # Carnival Tuesday
        (D(2026, 2, 18), True),  # Ash Wednesday: banks open (late)
        (D(2026, 4, 3), False),  # Good Friday
        (D(2026, 6, 4), False),  # Corpus Christi
        (D(2026, 6, 6), False),  # Saturday
        (D(2026, 6, 7), False),  # Sunday
        (D(2026, 6, 8), True),
        (D(2026, 12, 25), False),
    ],
)
def test_is_business_day(day, expected):
    assert is_business_day(day) is expected


def test_datetime_is_rejected():
    with pytest.raises(TypeError):
        is_business_day(dt.datetime(2026, 4, 3, 12, 0))


def test_add_business_days_over_holiday_weekends():
    # Easter 2026: Good Friday Apr 3, weekend Apr 4-5.
    assert add_business_days(D(2026, 4, 2), 1) == D(2026, 4, 6)
    assert add_business_days(D(2026, 4, 6), -1) == D(2026, 4, 2)
    # Carnival 2026: Friday Feb 13, weekend, Monday 16 and Tuesday 17 closed.
    assert add_business_days(D(2026, 2, 13), 1) == D(2026, 2, 18)
    assert add_business_days(D(2026, 2, 13), 2) == D(2026, 2, 19)
    # Consciência Negra 2026 on a Friday: Thursday 19 + 1 is Monday 23.
    assert add_business_days(D(2026, 11, 19), 1) == D(2026, 11, 23)
    # Starting on a non-business day does not count the start.
    assert add_business_days(D(2026, 4, 4), 1) == D(2026, 4, 6)
    assert add_business_days(D(2026, 4, 4), -1) == D(2026, 4, 2)


def test_add_zero_business_days_returns_the_date():
    assert add_business_days(D(2026, 4, 4), 0) == D(2026, 4, 4)
    assert add_business_days(D(2026, 4, 6), 0) == D(2026, 4, 6)


def test_add_business_days_across_years():
    assert add_business_days(D(2025, 12, 31), 1) == D(2026, 1, 2)
    assert add_business_days(D(2026, 1, 2), -1) == D(2025, 12, 31)


def test_next_business_day():
    assert next_business_day(D(2026, 4, 3)) == D(2026, 4, 6)
    assert next_business_day(D(2026, 4, 6)) == D(2026, 4, 6)
    assert next_business_day(D(2026, 2, 14)) == D(2026, 2, 18)


def test_business_days_between():
    assert business_days_between(D(2026, 4, 2), D(2026, 4, 6)) == 1
    assert business_days_between(D(2026, 4, 6), D(2026, 4, 2)) == -1
    assert business_days_between(D(2026, 4, 6), D(2026, 4, 6)) == 0
    assert business_days_between(D(2026, 4, 3), D(2026, 4, 5)) == 0
    # June 2026: 22 weekdays, minus Corpus Christi (Thursday 4).
    assert business_days_between(D(2026, 5, 31), D(2026, 6, 30)) == 21
    # 2026 has 261 weekdays.
    weekday_holidays = sum(1 for day in holidays(2026) if day.weekday() < 5)
    assert business_days_between(D(2025, 12, 31), D(2026, 12, 31)) == 261 - weekday_holidays


def test_cobr_lead_time():
    # Created Thursday before Good Friday: 2 business days later is Tuesday Apr 7.
    today = D(2026, 4, 2)
    assert earliest_cobr_due_date(today) == D(2026, 4, 7)
    assert is_valid_cobr_lead_time(today, D(2026, 4, 7))
    assert not is_valid_cobr_lead_time(today, D(2026, 4, 6))
    assert not is_valid_cobr_lead_time(today, today)
    assert not is_valid_cobr_lead_time(today, D(2026, 3, 1))
    # A due date on a weekend after the lead time is fine.
    assert is_valid_cobr_lead_time(today, D(2026, 4, 11))


dates = st.dates(min_value=D(1900, 1, 1), max_value=D(2199, 12, 31))


@given(dates, st.integers(min_value=1, max_value=400))
def test_add_business_days_forward(day, n):
    result = add_business_days(day, n)
    assert result > day
    assert is_business_day(result)
    assert business_days_between(day, result) == n


@given(dates, st.integers(min_value=-400, max_value=-1))
def test_add_business_days_backward(day, n):
    result = add_business_days(day, n)
    assert result < day
    assert is_business_day(result)
    # (result, day] holds -n business days when day counts itself, one fewer otherwise.
    expected = n if is_business_day(day) else n + 1
    assert business_days_between(day, result) == expected


@given(dates, dates)
def test_business_days_between_matches_day_by_day_count(a, b):
    if abs((b - a).days) > 800:
        b = a + dt.timedelta(days=(b - a).days % 800)
    lo, hi = min(a, b), max(a, b)
    count = sum(
        1 for k in range(1, (hi - lo).days + 1) if is_business_day(lo + dt.timedelta(days=k))
    )
    assert business_days_between(a, b) == (count if b >= a else -count)
    assert business_days_between(b, a) == -business_days_between(a, b)


@given(dates)
def test_next_business_day_and_cobr(day):
    nxt = next_business_day(day)
    assert is_business_day(nxt)
    assert business_days_between(day, nxt) in (0, 1)
    due = earliest_cobr_due_date(day)
    assert is_valid_cobr_lead_time(day, due)
    assert not is_valid_cobr_lead_time(day, due - dt.timedelta(days=1))
