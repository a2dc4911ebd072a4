"""Business time: the one place that says what "now" and "today" mean for the bank.

Due dates, cut-offs, business days and defense deadlines are **Brasília dates**
(``America/Sao_Paulo``), whatever the time zone of the computer the app runs on: at 23:30 in
Brasília the UTC date is already tomorrow, and at 00:30 UTC it is still yesterday in Brasília.

A :data:`Clock` is any callable giving the current instant, timezone-aware. Every service that
computes a business date takes one as a dependency: :func:`system_clock` against a real bank,
the sandbox bank's own clock against the sandbox (and in every test), :class:`FixedClock` where
a test needs a given hour. Nothing in the product reads the machine's date any other way.

The zone comes from :mod:`zoneinfo`; the ``tzdata`` package is a dependency so that Windows,
which ships no IANA database, has it too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Final
from zoneinfo import ZoneInfo

__all__ = [
    "BRASILIA",
    "Clock",
    "FixedClock",
    "brasilia_date",
    "brasilia_now",
    "brasilia_today",
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
