"""Brazilian banking business days: national holidays, business-day arithmetic and the lead
time of Pix Automático recurring charges (cobr)."""

from __future__ import annotations

import datetime as dt
from functools import lru_cache

__all__ = [
    "COBR_MIN_LEAD_BUSINESS_DAYS",
    "add_business_days",
    "business_days_between",
    "earliest_cobr_due_date",
    "easter",
    "holidays",
    "is_business_day",
    "is_holiday",
    "is_valid_cobr_lead_time",
    "next_business_day",
]

# A recurring charge is created at least 2 business days before its due date.
COBR_MIN_LEAD_BUSINESS_DAYS = 2

# Year in which Nov 20 (Zumbi e Consciência Negra) became a national holiday (Law 14.759/2023).
_CONSCIENCIA_NEGRA_SINCE = 2024

_FIXED_HOLIDAYS: tuple[tuple[int, int, str], ...] = (
    (1, 1, "Confraternização Universal"),
    (4, 21, "Tiradentes"),
    (5, 1, "Dia do Trabalho"),
    (9, 7, "Independência do Brasil"),
    (10, 12, "Nossa Senhora Aparecida"),
    (11, 2, "Finados"),
    (11, 15, "Proclamação da República"),
    (12, 25, "Natal"),
)

_EASTER_OFFSETS: tuple[tuple[int, str], ...] = (
    (-48, "Carnaval (segunda-feira)"),
    (-47, "Carnaval (terça-feira)"),
    (-2, "Sexta-feira Santa"),
    (60, "Corpus Christi"),
)


def easter(year: int) -> dt.date:
    """Easter Sunday of ``year`` (Gregorian calendar, anonymous Gregorian algorithm)."""
    a = year % 19
    b, c = divmod(year, 100)
    d, e = divmod(b, 4)
    f = (b + 8) // 25
    g = (b - f + 1) // 3
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l = (32 + 2 * e + 2 * i - h - k) % 7  # noqa: E741 - the algorithm's customary name
    m = (a + 11 * h + 22 * l) // 451
    month, day = divmod(h + l - 7 * m + 114, 31)
    return dt.date(year, month, day + 1)


@lru_cache(maxsize=512)
def _holiday_table(year: int) -> tuple[tuple[dt.date, str], ...]:
    table = [(dt.date(year, month, day), name) for month, day, name in _FIXED_HOLIDAYS]
    if year >= _CONSCIENCIA_NEGRA_SINCE:
        table.append((dt.date(year, 11, 20), "Dia Nacional de Zumbi e da Consciência Negra"))
    sunday = easter(year)
    table.extend((sunday + dt.timedelta(days=offset), name) for offset, name in _EASTER_OFFSETS)
    # Good Friday falls on Tiradentes in some years (2000, 2079): one day, both names.
    merged: dict[dt.date, str] = {}
    for day, name in table:
        merged[day] = f"{merged[day]} / {name}" if day in merged else name
    return tuple(sorted(merged.items()))


@lru_cache(maxsize=512)
def _holiday_dates(year: int) -> frozenset[dt.date]:
    return frozenset(day for day, _name in _holiday_table(year))


def holidays(year: int) -> dict[dt.date, str]:
    """The days without bank settlement in ``year`` other than weekends, with their names.

    National holidays: Jan 1, Apr 21, May 1, Sep 7, Oct 12, Nov 2, Nov 15, Nov 20 (from 2024,
    Law 14.759/2023), Dec 25 and Good Friday. Carnival Monday and Tuesday and Corpus Christi are
    only "pontos facultativos" nationally, but banks do not settle on them (FEBRABAN calendar),
    so they are included. The current list is applied to every year; holidays of past decades
    that no longer exist (or did not yet) are not modelled. State and municipal holidays are not
    included.
    """
    return dict(_holiday_table(_check_year(year)))


def _check_year(year: int) -> int:
    if isinstance(year, bool) or not isinstance(year, int):
        raise TypeError(f"year must be an int, not {type(year).__name__}")
    if not dt.MINYEAR <= year <= dt.MAXYEAR:
        raise ValueError(f"year must be between {dt.MINYEAR} and {dt.MAXYEAR}")
    return year


def _check_date(d: dt.date) -> dt.date:
    # A datetime never equals the date of the same day, so it would miss every holiday.
    if isinstance(d, dt.datetime) or not isinstance(d, dt.date):
        raise TypeError(f"expected a date (not a datetime), got {type(d).__name__}")
    return d


def is_holiday(d: dt.date) -> bool:
    """Whether ``d`` is one of :func:`holidays` of its year (weekends do not count)."""
    return _check_date(d) in _holiday_dates(d.year)


def is_business_day(d: dt.date) -> bool:
    """Whether banks settle on ``d``: not a Saturday, Sunday or holiday."""
    return _check_date(d).weekday() < 5 and d not in _holiday_dates(d.year)


def next_business_day(d: dt.date) -> dt.date:
    """``d`` if it is a business day, otherwise the next business day (as ``ajusteDiaUtil``)."""
    _check_date(d)
    while not is_business_day(d):
        d += dt.timedelta(days=1)
    return d


def add_business_days(d: dt.date, n: int) -> dt.date:
    """Move ``n`` business days from ``d``: forward when ``n > 0``, backward when ``n < 0``.

    ``d`` itself is never counted, so ``d`` need not be a business day and the result always
    is one when ``n != 0``. ``n == 0`` returns ``d`` unchanged (use :func:`next_business_day`
    to roll a date forward).
    """
    _check_date(d)
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"n must be an int, not {type(n).__name__}")
    step = dt.timedelta(days=1 if n > 0 else -1)
    remaining = abs(n)
    while remaining:
        d += step
        if is_business_day(d):
            remaining -= 1
    return d


def business_days_between(a: dt.date, b: dt.date) -> int:
    """The number of business days in the half-open interval ``(a, b]`` when ``b > a``.

    When ``b < a`` it is minus the count in ``(b, a]`` (so swapping the arguments flips the
    sign); when ``a == b`` it is 0. Thus ``business_days_between(d, add_business_days(d, n))``
    is ``n`` for every ``n >= 0``, and for ``n < 0`` when ``d`` itself is a business day.
    """
    _check_date(a)
    _check_date(b)
    if b < a:
        return -business_days_between(b, a)
    # Whole weeks contain 5 weekdays each; only the holidays in them need a lookup.
    span = (b - a).days
    weeks, rest = divmod(span, 7)
    count = weeks * 5
    for offset in range(1, rest + 1):
        if (a + dt.timedelta(days=offset)).weekday() < 5:
            count += 1
    for year in range(a.year, b.year + 1):
        count -= sum(1 for h in _holiday_dates(year) if a < h <= b and h.weekday() < 5)
    return count


def earliest_cobr_due_date(today: dt.date) -> dt.date:
    """The earliest due date a recurring charge (cobr) created ``today`` may have: 2 business
    days after ``today``."""
    return add_business_days(today, COBR_MIN_LEAD_BUSINESS_DAYS)


def is_valid_cobr_lead_time(today: dt.date, due: dt.date) -> bool:
    """Whether a cobr created ``today`` may fall due on ``due``: at least 2 business days in
    ``(today, due]``."""
    return business_days_between(today, due) >= COBR_MIN_LEAD_BUSINESS_DAYS
