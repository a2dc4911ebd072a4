"""Pay dates, send times and recurring series of scheduled payments (issue 35): pure rules.

A **pay date** is a Brasília business date. A date a person asks for that is not one (a
weekend, a national holiday of :mod:`~treasury_app.domain.business_days`, or one of the
*extra* non-business dates a team or a profile adds) rolls forward to the next business day,
and :class:`PayDate` says why (a :class:`~treasury_app.domain.errors.Reason`), so that the
review can say so. A slip due on a non-business day may be paid on the next business day
without fine or interest, so its default pay date rolls forward too
(:func:`slip_pay_date`); a person may still pick an earlier date.

A payment leaves at the **send time** of its pay date (default 08:00 Brasília,
:data:`DEFAULT_SEND_TIME`): :func:`send_instant`, :func:`is_due`.

A **series** (:class:`SeriesRule`) repeats a payment weekly (every N weeks), monthly on day N
(or on the last business day of the month) or every N days, until a date or for N times (or
without end). Occurrence ``k`` (0, 1, 2...) has a nominal date that depends only on ``k``
and the rule, so the same occurrence is found again whatever window is asked
(:func:`occurrences`); its pay date is the nominal date rolled forward.

Broken rules raise :class:`ScheduleError` with a ``schedule.*`` code.
"""

from __future__ import annotations

import calendar
import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum

from treasury_app.domain import business_days
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.errors import DomainError, Reason

__all__ = [
    "DEFAULT_HORIZON_DAYS",
    "DEFAULT_SEND_TIME",
    "MAX_OCCURRENCES",
    "SERIES_CHANGED",
    "BusinessCalendar",
    "Frequency",
    "Occurrence",
    "PayDate",
    "ScheduleError",
    "SeriesRule",
    "check_series",
    "in_rule",
    "is_due",
    "occurrences",
    "pay_date",
    "same_dates",
    "send_instant",
    "slip_pay_date",
]

DEFAULT_SEND_TIME = dt.time(8, 0)
"""When a scheduled payment leaves on its pay date, Brasília time, unless configured."""
DEFAULT_HORIZON_DAYS = 35
"""How far ahead the occurrences of a series become intents of their own."""
MAX_OCCURRENCES = 1000
"""The most occurrences a series may be given (``count``)."""
MAX_INTERVAL = 366
"""The longest step of a series, in its unit (days, weeks)."""

SERIES_CHANGED = "schedule.series_changed"
"""The reason kept for an occurrence cancelled by an edit of its series (no longer on its
dates), in place of a reason typed: the UI words it."""

ROLLED_WEEKEND = "pay_date.weekend"
ROLLED_HOLIDAY = "pay_date.holiday"
ROLLED_EXTRA = "pay_date.extra"
ROLLED = frozenset({ROLLED_WEEKEND, ROLLED_HOLIDAY, ROLLED_EXTRA})
"""The reasons a pay date moved, with ``asked`` (the date asked), ``to`` (the pay date) and,
for a holiday, ``holiday`` (its name)."""


class ScheduleError(DomainError):
    """A pay date, a send time or a series' rule is not valid (the code says why)."""


@dataclass(frozen=True)
class BusinessCalendar:
    """Brasília business days: the national calendar plus ``extra`` non-business dates (a
    city's holiday, a team's day off) added by a team or a profile."""

    extra: frozenset[dt.date] = field(default_factory=frozenset)

    @classmethod
    def with_extra(cls, dates: Iterable[dt.date]) -> BusinessCalendar:
        return cls(frozenset(dates))

    def is_business_day(self, day: dt.date) -> bool:
        return business_days.is_business_day(day) and day not in self.extra

    def next_business_day(self, day: dt.date) -> dt.date:
        """``day`` if it is a business day, else the next one."""
        while not self.is_business_day(day):
            day += dt.timedelta(days=1)
        return day

    def previous_business_day(self, day: dt.date) -> dt.date:
        """``day`` if it is a business day, else the one before it."""
        while not self.is_business_day(day):
            day -= dt.timedelta(days=1)
        return day

    def why_not(self, day: dt.date) -> Reason | None:
        """Why ``day`` is not a business day (``None``: it is one)."""
        if self.is_business_day(day):
            return None
        to = self.next_business_day(day)
        if day.weekday() >= 5:
            return Reason(ROLLED_WEEKEND, {"asked": day, "to": to}, "pay_date")
        if day in self.extra:
            return Reason(ROLLED_EXTRA, {"asked": day, "to": to}, "pay_date")
        name = business_days.holidays(day.year).get(day, "")
        return Reason(ROLLED_HOLIDAY, {"asked": day, "to": to, "holiday": name}, "pay_date")


NATIONAL = BusinessCalendar()


@dataclass(frozen=True)
class PayDate:
    """The date a person asked for and the business day the payment leaves on."""

    asked: dt.date
    date: dt.date
    reason: Reason | None = None
    """Why ``date`` is not ``asked`` (a code of :data:`ROLLED`), ``None`` when it is."""

    @property
    def rolled(self) -> bool:
        return self.date != self.asked


def _check_day(day: object, name: str) -> dt.date:
    if isinstance(day, dt.datetime) or not isinstance(day, dt.date):
        raise ScheduleError("schedule.not_a_date", field=name)
    return day


def pay_date(asked: dt.date, *, today: dt.date, calendar: BusinessCalendar = NATIONAL) -> PayDate:
    """The pay date of a payment asked for ``asked``: rolled forward to a business day, never
    before ``today`` (``schedule.past``)."""
    _check_day(asked, "pay_date")
    if asked < today:
        raise ScheduleError("schedule.past", field="pay_date", asked=asked, today=today)
    return PayDate(asked, calendar.next_business_day(asked), calendar.why_not(asked))


def slip_pay_date(
    due: dt.date | None,
    *,
    today: dt.date,
    chosen: dt.date | None = None,
    calendar: BusinessCalendar = NATIONAL,
) -> PayDate:
    """A slip's pay date: ``chosen`` when the person picked one (rolled forward like any), else
    its due date — rolled forward, since a slip due on a non-business day is paid on the next
    business day without fine or interest. A slip without due date (or already due) is paid
    on ``today``'s next business day."""
    if chosen is not None:
        return pay_date(chosen, today=today, calendar=calendar)
    if due is None or due < today:
        return pay_date(today, today=today, calendar=calendar)
    return pay_date(due, today=today, calendar=calendar)


def send_instant(day: dt.date, send_time: dt.time = DEFAULT_SEND_TIME) -> dt.datetime:
    """The instant a payment of pay date ``day`` leaves: ``send_time`` on ``day``, Brasília."""
    _check_day(day, "pay_date")
    if send_time.tzinfo is not None:
        raise ScheduleError("schedule.send_time_zone", field="send_time")
    return dt.datetime.combine(day, send_time, tzinfo=BRASILIA)


def is_due(day: dt.date, now: dt.datetime, send_time: dt.time = DEFAULT_SEND_TIME) -> bool:
    """Whether a payment of pay date ``day`` may leave at ``now`` (aware): its send time came."""
    return now >= send_instant(day, send_time)


# -- series -------------------------------------------------------------------------------------


class Frequency(StrEnum):
    WEEKLY = "weekly"
    """Every ``interval`` weeks from the start date (its weekday)."""
    MONTHLY = "monthly"
    """Every month on ``day_of_month`` (the month's last day when shorter), or on the last
    business day of the month (``last_business_day``)."""
    EVERY_N_DAYS = "every_n_days"
    """Every ``interval`` days from the start date."""


@dataclass(frozen=True)
class SeriesRule:
    frequency: Frequency
    start: dt.date
    interval: int = 1
    day_of_month: int | None = None
    last_business_day: bool = False
    until: dt.date | None = None
    count: int | None = None


@dataclass(frozen=True)
class Occurrence:
    index: int
    """0 for the first occurrence of the series, then 1, 2...: fixed by the rule alone."""
    nominal: dt.date
    pay: PayDate


def check_series(rule: SeriesRule) -> SeriesRule:
    """``rule`` when it is valid, else :class:`ScheduleError` (the first rule broken)."""
    _check_day(rule.start, "start")
    if not isinstance(rule.frequency, Frequency):
        raise ScheduleError("schedule.series_frequency", field="frequency")
    if isinstance(rule.interval, bool) or not isinstance(rule.interval, int):
        raise ScheduleError("schedule.series_interval", field="interval", maximum=MAX_INTERVAL)
    if not 1 <= rule.interval <= MAX_INTERVAL:
        raise ScheduleError("schedule.series_interval", field="interval", maximum=MAX_INTERVAL)
    if rule.frequency is Frequency.MONTHLY:
        if rule.last_business_day == (rule.day_of_month is not None):
            raise ScheduleError("schedule.series_day", field="day_of_month")
        if rule.day_of_month is not None and not 1 <= rule.day_of_month <= 31:
            raise ScheduleError("schedule.series_day", field="day_of_month")
    elif rule.day_of_month is not None or rule.last_business_day:
        raise ScheduleError("schedule.series_day_unused", field="day_of_month")
    if rule.until is not None and rule.count is not None:
        raise ScheduleError("schedule.series_end_twice", field="until")
    if rule.until is not None:
        _check_day(rule.until, "until")
        if rule.until < rule.start:
            raise ScheduleError("schedule.series_until_before_start", field="until")
    if rule.count is not None and (
        isinstance(rule.count, bool)
        or not isinstance(rule.count, int)
        or not 1 <= rule.count <= MAX_OCCURRENCES
    ):
        raise ScheduleError("schedule.series_count", field="count", maximum=MAX_OCCURRENCES)
    return rule


def _month(start: dt.date, k: int) -> tuple[int, int]:
    months = start.year * 12 + start.month - 1 + k
    return divmod(months, 12)[0], divmod(months, 12)[1] + 1


def _nominal(rule: SeriesRule, k: int, calendar: BusinessCalendar) -> dt.date | None:
    """Occurrence ``k``'s nominal date (``None`` past the calendar's end)."""
    try:
        if rule.frequency is Frequency.WEEKLY:
            return rule.start + dt.timedelta(weeks=rule.interval * k)
        if rule.frequency is Frequency.EVERY_N_DAYS:
            return rule.start + dt.timedelta(days=rule.interval * k)
        # monthly: occurrence 0 is the first month whose date is not before the start
        first = 0 if _monthly_date(rule, *_month(rule.start, 0), calendar) >= rule.start else 1
        year, month = _month(rule.start, first + k * rule.interval)
        if year > dt.MAXYEAR - 1:
            return None
        return _monthly_date(rule, year, month, calendar)
    except OverflowError:
        return None


def _monthly_date(rule: SeriesRule, year: int, month: int, calendar: BusinessCalendar) -> dt.date:
    last = calendar_last_day(year, month)
    if rule.last_business_day:
        return calendar.previous_business_day(last)
    assert rule.day_of_month is not None
    return dt.date(year, month, min(rule.day_of_month, last.day))


def calendar_last_day(year: int, month: int) -> dt.date:
    return dt.date(year, month, calendar.monthrange(year, month)[1])


def _all(rule: SeriesRule, calendar: BusinessCalendar) -> Iterator[Occurrence]:
    k = 0
    while rule.count is None or k < rule.count:
        nominal = _nominal(rule, k, calendar)
        if nominal is None or (rule.until is not None and nominal > rule.until):
            return
        rolled = calendar.next_business_day(nominal)
        yield Occurrence(k, nominal, PayDate(nominal, rolled, calendar.why_not(nominal)))
        k += 1


def occurrences(
    rule: SeriesRule,
    start: dt.date,
    end: dt.date,
    *,
    calendar: BusinessCalendar = NATIONAL,
) -> list[Occurrence]:
    """The occurrences of ``rule`` whose pay date falls in ``[start, end]``, in order."""
    check_series(rule)
    found: list[Occurrence] = []
    for occurrence in _all(rule, calendar):
        if occurrence.nominal > end:
            break
        if start <= occurrence.pay.date <= end:
            found.append(occurrence)
    return found


def same_dates(a: SeriesRule, b: SeriesRule) -> bool:
    """Whether ``a`` and ``b`` put their occurrences on the same dates (they may end
    differently): occurrence ``k`` of one is occurrence ``k`` of the other."""
    return (a.frequency, a.start, a.interval, a.day_of_month, a.last_business_day) == (
        b.frequency,
        b.start,
        b.interval,
        b.day_of_month,
        b.last_business_day,
    )


def in_rule(rule: SeriesRule, index: int, *, calendar: BusinessCalendar = NATIONAL) -> bool:
    """Whether occurrence ``index`` is one of ``rule``'s (before its end)."""
    if index < 0 or (rule.count is not None and index >= rule.count):
        return False
    nominal = _nominal(rule, index, calendar)
    return nominal is not None and (rule.until is None or nominal <= rule.until)
