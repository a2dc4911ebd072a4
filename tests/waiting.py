"""The suite's one way to wait: for a condition, never for the clock.

A test waits for what it needs (a row, a file, a status, a lock seen in ``pg_locks``) with
:func:`wait_until` (plain code), :func:`await_until` (a coroutine) or :func:`qt_wait_until`
(Qt keeps processing events), and a wait that runs out fails with what it was waiting for and
the last value it saw. :func:`wait_until_blocked` waits for another PostgreSQL session to be
seen waiting for a lock; :func:`qt_turn` for the loop to have run what is already scheduled
(the "and nothing more happened" of a check, instead of a short wait). Never ``sleep`` as
synchronisation, never a wall-clock assertion: speed is measured by ``tests/bench/``.

The timeouts are here, in one place, generous enough for a machine whose two cores are busy
with other work; ``TREASURY_TEST_WAIT_SCALE`` multiplies them all (a slower machine, a
debugger)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

T = TypeVar("T")

SCALE = float(os.environ.get("TREASURY_TEST_WAIT_SCALE", "1") or "1")
WAIT_SECONDS = 60.0 * SCALE  # a condition that should come at once, on a loaded machine
LONG_WAIT_SECONDS = 180.0 * SCALE  # a process that starts, a cluster that initialises
WAIT_MS = int(WAIT_SECONDS * 1000)  # the same, for what counts in ms (Qt, the UI ``run``)
LONG_WAIT_MS = int(LONG_WAIT_SECONDS * 1000)
POLL_SECONDS = 0.02


class WaitTimeout(AssertionError):
    """A condition never came: says which, and the last value seen."""


def _failure(what: str, timeout: float, last: object, error: BaseException | None) -> WaitTimeout:
    detail = f"; last error: {error!r}" if error is not None else f"; last value: {last!r}"
    return WaitTimeout(f"timed out after {timeout:g} s waiting for {what}{detail}")


def wait_until(
    condition: Callable[[], T],
    what: str,
    *,
    timeout: float | None = None,
    interval: float = POLL_SECONDS,
    retry: tuple[type[BaseException], ...] = (),
) -> T:
    """Call ``condition`` until it returns something true and return that. ``retry``: errors
    that mean "not yet" (a server still starting). Fails with ``what`` after ``timeout``."""
    limit = WAIT_SECONDS if timeout is None else timeout
    deadline = time.monotonic() + limit
    last: object = None
    error: BaseException | None = None
    while True:
        try:
            last = condition()
            error = None
        except retry as caught:
            error = caught
        else:
            if last:
                return last  # type: ignore[return-value]
        if time.monotonic() > deadline:
            raise _failure(what, limit, last, error)
        time.sleep(interval)


async def await_until(
    condition: Callable[[], T | Awaitable[T]],
    what: str,
    *,
    timeout: float | None = None,
    interval: float = POLL_SECONDS,
    retry: tuple[type[BaseException], ...] = (),
) -> T:
    """:func:`wait_until` for coroutines: ``condition`` may be a plain function or return an
    awaitable; the loop runs between tries."""
    limit = WAIT_SECONDS if timeout is None else timeout
    deadline = time.monotonic() + limit
    last: Any = None
    error: BaseException | None = None
    while True:
        try:
            last = condition()
            if asyncio.iscoroutine(last) or isinstance(last, asyncio.Future):
                last = await last
            error = None
        except retry as caught:
            error = caught
        else:
            if last:
                return last  # type: ignore[no-any-return]
        if time.monotonic() > deadline:
            raise _failure(what, limit, last, error)
        await asyncio.sleep(interval)


def qt_wait_until(
    qtbot: Any, condition: Callable[[], object], what: str, *, timeout: float | None = None
) -> None:
    """``qtbot.waitUntil`` with the suite's timeout and a message that says what was awaited
    (Qt, and so the qasync loop, keep running meanwhile). A task seen done has not had its
    done callbacks run yet (a button enabled again): wait for what the next step needs."""
    _qt_wait(qtbot, condition, what, timeout=timeout)


def _qt_wait(
    qtbot: Any, condition: Callable[[], object], what: str, *, timeout: float | None = None
) -> None:
    limit = WAIT_SECONDS if timeout is None else timeout
    last: list[object] = [None]

    def check() -> bool:
        last[0] = condition()
        return bool(last[0])

    try:
        qtbot.waitUntil(check, timeout=int(limit * 1000))
    except AssertionError:  # pytest-qt's TimeoutError is an AssertionError
        raise _failure(what, limit, last[0], None) from None


def wait_until_blocked(
    conn: Any, pid: int, *, by: int | None = None, timeout: float | None = None
) -> None:
    """Wait until PostgreSQL shows backend ``pid`` waiting for a lock (``by``: a lock that
    backend holds), as ``pg_stat_activity`` and ``pg_blocking_pids`` see it: "the other
    transaction is now blocked", never a pause. ``conn``: a psycopg connection in autocommit
    (any row factory) to the same cluster."""
    from psycopg.rows import tuple_row

    seen: list[object] = [None]

    def blocked() -> bool:
        with conn.cursor(row_factory=tuple_row) as cursor:
            row = cursor.execute(
                "SELECT wait_event_type, wait_event, pg_blocking_pids(pid), left(query, 120)"
                " FROM pg_stat_activity WHERE pid = %s",
                (pid,),
            ).fetchone()
        seen[0] = row
        return row is not None and row[0] == "Lock" and (by is None or by in row[2])

    what = f"backend {pid} waiting for a lock" + ("" if by is None else f" held by backend {by}")
    try:
        wait_until(blocked, what, timeout=timeout)
    except WaitTimeout as timed_out:
        raise WaitTimeout(f"{timed_out}; pg_stat_activity: {seen[0]!r}") from None


def qt_turn(qtbot: Any) -> None:
    """Wait until the qasync loop has run every callback already scheduled on it (``call_soon``
    is first in, first out: a marker scheduled now runs after them) and Qt its posted events
    (deferred deletions included): what is already on its way has happened. For "and then
    nothing more happened" checks, instead of a short wait."""
    from PySide6.QtCore import QCoreApplication

    loop = asyncio.get_event_loop()
    turned: list[bool] = []
    loop.call_soon(turned.append, True)
    _qt_wait(qtbot, lambda: turned, "the event loop to run what was already scheduled")
    QCoreApplication.processEvents()  # and what those callbacks posted
