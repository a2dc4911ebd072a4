"""Business time: the one place that says what "now" and "today" mean for the bank.

Due dates, cut-offs, business days and defense deadlines are **Brasília dates**
(``America/Sao_Paulo``), whatever the time zone of the computer the app runs on: at 23:30 in
Brasília the UTC date is already tomorrow, and at 00:30 UTC it is still yesterday in Brasília.

A :data:`Clock` is any callable giving the current instant, timezone-aware. Every service that
computes a business date takes one as a dependency: :func:`system_clock` against a real bank,
the sandbox bank's own clock against the sandbox (and in every test), :class:`FixedClock` where
a test needs a given hour. Nothing in the product reads the machine's date any other way.

Every instant a person sees, exports or prints is written by :func:`format_instant` (and every
calendar date by :func:`format_date`), in Brasília time, whatever the computer's zone: the same
``28/11/2026 05:26`` in a list, a detail, an export and a receipt. The format is the same in
both languages of the app (day first, 24-hour clock): its English is for people who read
Brazilian due dates all day, and a month-first ``11/28/26`` next to them would mislead. A date
a person types is read by :func:`parse_date`, strictly: ``09/01/26`` is not a date.

The zone comes from :mod:`zoneinfo`; the ``tzdata`` package is a dependency so that Windows,
which ships no IANA database, has it too.
"""

from __future__ import annotations

import datetime as dt
import enum
import re
from collections.abc import Callable
from typing import Final
from zoneinfo import ZoneInfo

__all__ = [
    "BRASILIA",
    "Clock",
    "FixedClock",
    "InstantForm",
    "brasilia_date",
    "brasilia_now",
    "brasilia_today",
    "format_date",
    "format_instant",
    "parse_date",
    "parse_instant",
    "system_clock",
    "to_brasilia",
]

BRASILIA: Final = ZoneInfo("America/Sao_Paulo")
"""The bank's time zone. No daylight saving time since 2019, but the IANA rules say so, not
a fixed offset here (and past instants, before 2019, keep their summer hour)."""

Clock = Callable[[], dt.datetime]
"""Gives the current instant, timezone-aware."""


def system_clock() -> dt.datetime:
    """The computer's clock, in UTC: the clock of a profile that talks to a real bank."""
    return dt.datetime.now(dt.UTC)


def to_brasilia(instant: dt.datetime) -> dt.datetime:
    """``instant`` (aware) as Brasília wall time; a naive instant is refused, not guessed."""
    if instant.tzinfo is None or instant.utcoffset() is None:
        raise ValueError("a business instant must carry its time zone")
    return instant.astimezone(BRASILIA)


def brasilia_date(instant: dt.datetime) -> dt.date:
    """The Brasília calendar date of ``instant`` (aware)."""
    return to_brasilia(instant).date()


def brasilia_now(clock: Clock) -> dt.datetime:
    """The current instant of ``clock`` as Brasília wall time."""
    return to_brasilia(clock())


def brasilia_today(clock: Clock) -> dt.date:
    """Today's business date: the Brasília date of ``clock``'s current instant."""
    return brasilia_date(clock())


class FixedClock:
    """A clock that reads one given instant until moved: for tests and for previews."""

    def __init__(self, instant: dt.datetime) -> None:
        to_brasilia(instant)  # refuses a naive instant
        self._instant = instant

    def __call__(self) -> dt.datetime:
        return self._instant

    def set(self, instant: dt.datetime) -> None:
        to_brasilia(instant)
        self._instant = instant

    def advance(self, delta: dt.timedelta) -> None:
        self._instant += delta

    def __repr__(self) -> str:
        return f"FixedClock({self._instant.isoformat()})"


# -- how people read and write time ------------------------------------------------------------


class InstantForm(enum.Enum):
    """How much of an instant is written."""

    MINUTES = "%d/%m/%Y %H:%M"
    """``28/11/2026 05:26``: lists, details, exports, receipts."""
    SECONDS = "%d/%m/%Y %H:%M:%S"
    """``28/11/2026 05:26:49``: the audit, a payment's history, a Pix received."""
    DATE = "%d/%m/%Y"
    """``28/11/2026``: the Brasília day of an instant."""
    TIME = "%H:%M"
    """``05:26``: "read at", "last change at" (the day is today's)."""


def parse_instant(stamp: str) -> dt.datetime:
    """An ISO-8601 stamp with its offset (``Z`` allowed), as the ledger and the bank write
    them; ``ValueError`` for a stamp without a zone or that is not one."""
    moment = dt.datetime.fromisoformat(stamp.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"{stamp!r} carries no time zone")
    return moment


def format_instant(instant: dt.datetime | str, form: InstantForm = InstantForm.MINUTES) -> str:
    """``instant`` (aware, or an ISO-8601 stamp with its offset) in Brasília time, the one way
    the app writes an instant for a person. A naive instant is refused, not guessed.

    Written digit by digit rather than through ``strftime``, whose month and day names and
    whose behaviour on Windows follow the C library's locale."""
    moment = to_brasilia(parse_instant(instant) if isinstance(instant, str) else instant)
    day = f"{moment.day:02d}/{moment.month:02d}/{moment.year:04d}"
    time = f"{moment.hour:02d}:{moment.minute:02d}"
    if form is InstantForm.DATE:
        return day
    if form is InstantForm.TIME:
        return time
    if form is InstantForm.SECONDS:
        return f"{day} {time}:{moment.second:02d}"
    return f"{day} {time}"


def format_date(day: dt.date) -> str:
    """A calendar date (a due date, a business day) as ``28/11/2026``."""
    if isinstance(day, dt.datetime):
        raise TypeError("an instant is written by format_instant, in Brasília time")
    return f"{day.day:02d}/{day.month:02d}/{day.year:04d}"


def format_day_month(day: dt.date) -> str:
    """A date in a short space (the status bar's warning) as ``09/12``."""
    if isinstance(day, dt.datetime):
        raise TypeError("an instant is written by format_instant, in Brasília time")
    return f"{day.day:02d}/{day.month:02d}"


def format_time_of_day(moment: dt.time) -> str:
    """A time of day in Brasília (a send time, a cut-off) as ``08:00``."""
    return f"{moment.hour:02d}:{moment.minute:02d}"


_TYPED_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def parse_date(text: str) -> dt.date:
    """A date a person typed, ``dd/mm/yyyy`` (``1/2/2027`` too), strictly: a two-digit year,
    another order or a day that does not exist is a ``ValueError``, never a guess."""
    found = _TYPED_DATE.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"{text!r} is not a date written dd/mm/yyyy")
    day, month, year = (int(part) for part in found.groups())
    return dt.date(year, month, day)  # ValueError for 31/02/2027
