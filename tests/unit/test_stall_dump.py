"""The stall dump names the coroutine a pending task waits in."""

from __future__ import annotations

import asyncio

from tests.stall_dump import MARGIN, arm, pending_task_stacks

NAME = "bank-wait-" + "7f3"  # built, so no source line the stacks quote holds it


async def _waits_for_the_bank(event: asyncio.Event) -> None:
    await event.wait()


async def test_a_pending_task_is_named_with_the_line_it_waits_on() -> None:
    event = asyncio.Event()
    task = asyncio.create_task(_waits_for_the_bank(event), name=NAME)
    await asyncio.sleep(0)  # let it start and park on the event
    try:
        stacks = pending_task_stacks()
        assert NAME in stacks and "in _waits_for_the_bank" in stacks
    finally:
        event.set()
        await task
    assert NAME not in pending_task_stacks()


async def test_the_timer_is_set_before_the_limit_and_writes_the_stacks() -> None:
    """Armed a margin before the limit (a tenth of a short one), as a daemon thread; what it
    runs when it fires writes the pending tasks. (It is run here, not waited for: the +400
    days run's faked clock never lets a thread's timed wait end.)"""
    event = asyncio.Event()
    task = asyncio.create_task(_waits_for_the_bank(event), name=NAME)
    await asyncio.sleep(0)
    written: list[str] = []
    timer = arm(600.0, written.append)
    short = arm(10.0, written.append)
    try:
        assert timer.daemon and timer.interval == 600.0 - MARGIN
        assert short.interval == 9.0
        timer.function()
    finally:
        timer.cancel()
        short.cancel()
        event.set()
        await task
    [text] = written
    assert "asyncio tasks pending 580 s into the test" in text and NAME in text
