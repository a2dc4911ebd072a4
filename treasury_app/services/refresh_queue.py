"""What the bank's notifications ask a list to read again from the bank, paced: each reference
once however often it is named, and never a burst of bank calls (no Qt, no database: the lists
of charges and recurrences hold one each)."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable

__all__ = ["PACE_READS", "PACE_WINDOW", "RefreshQueue"]

PACE_READS = 5
PACE_WINDOW = 1.0
"""A list reads at most :data:`PACE_READS` references again from the bank in any
:data:`PACE_WINDOW` seconds, however many the receiver applied."""


class RefreshQueue:
    """References (txids, idRecs) a list reads again from the bank because the receiver
    applied something about them. One consumer takes them in turn (:meth:`next`): a
    reference named again while it waits is read once; at most ``per_window`` turns are given
    in any ``window`` seconds, so a flood of genuine notifications is a paced trickle of bank
    calls, never a burst. :attr:`given` counts the turns given."""

    def __init__(
        self,
        *,
        per_window: int = PACE_READS,
        window: float = PACE_WINDOW,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[object]] = asyncio.sleep,
    ) -> None:
        self.per_window = per_window
        self.window = window
        self._clock = clock
        self._sleep = sleep
        self.given = 0
        self._waiting: dict[str, None] = {}
        self._turns: deque[float] = deque()

    def add(self, refs: Iterable[str]) -> None:
        for ref in refs:
            if ref:
                self._waiting[ref] = None

    def __len__(self) -> int:
        return len(self._waiting)

    def clear(self) -> None:
        self._waiting.clear()

    async def next(self) -> str | None:
        """The next reference to read, once its turn has come (``None``: none waits)."""
        while self._waiting:
            now = self._clock()
            while self._turns and self._turns[0] <= now - self.window:
                self._turns.popleft()
            if len(self._turns) < self.per_window:
                self._turns.append(now)
                ref = next(iter(self._waiting))
                del self._waiting[ref]
                self.given += 1
                return ref
            await self._sleep(self._turns[0] + self.window - now)  # pacing: the next turn
        return None
