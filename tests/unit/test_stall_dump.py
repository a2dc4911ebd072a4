"""The stall dump names the coroutine a pending task waits in."""

from __future__ import annotations

import asyncio
import threading

from tests.stall_dump import arm, pending_task_stacks

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


async def test_the_timer_writes_the_stacks_before_the_limit() -> None:
    event = asyncio.Event()
    task = asyncio.create_task(_waits_for_the_bank(event))
    await asyncio.sleep(0)
    written: list[str] = []
    done = threading.Event()

    def write(text: str) -> None:
        written.append(text)
        done.set()

    timer = arm(0.01, write)
    try:
        assert await asyncio.to_thread(done.wait, 60)
    finally:
        timer.cancel()
        event.set()
        await task
    assert "asyncio tasks pending" in written[0] and "_waits_for_the_bank" in written[0]
