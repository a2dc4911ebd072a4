"""The one clock the whole sandbox reads: real time plus an offset that tests can move."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from treasury_app.domain.clock import BRASILIA, brasilia_date

__all__ = ["BRASILIA", "SandboxClock", "iso"]


class SandboxClock:
    """Monotonic-enough wall clock with a movable offset; never goes backwards on advance."""

    def __init__(self, offset: dt.timedelta = dt.timedelta(0)) -> None:
        self._offset = offset
        self._listeners: list[Callable[[], None]] = []

    @property
    def offset(self) -> dt.timedelta:
        return self._offset

    def now(self) -> dt.datetime:
        """The sandbox's current instant, timezone-aware UTC."""
        return dt.datetime.now(dt.UTC) + self._offset

    def now_brasilia(self) -> dt.datetime:
        return self.now().astimezone(BRASILIA)

    def today(self) -> dt.date:
        """Today's date in Brasília, the date banks use for due dates and cut-offs."""
        return brasilia_date(self.now())

    def advance(self, seconds: float) -> dt.datetime:
        """Move the clock forward (only forward: money states never run backwards)."""
        if seconds < 0:
            raise ValueError("the sandbox clock only moves forward")
        self._offset += dt.timedelta(seconds=seconds)
        self._changed()
        return self.now()

    def set(self, instant: dt.datetime) -> dt.datetime:
        """Jump to ``instant`` (used at start-up and by tests that need a given hour)."""
        if instant.tzinfo is None:
            raise ValueError("the instant must carry a timezone")
        self._offset = instant - dt.datetime.now(dt.UTC)
        self._changed()
        return self.now()

    def on_change(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in self._listeners:
            listener()


def iso(instant: dt.datetime) -> str:
    """RFC 3339 in UTC with milliseconds and a Z, as the BCB examples write timestamps."""
    return instant.astimezone(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
