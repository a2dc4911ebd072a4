"""What every pending asyncio task awaits, written out shortly before a test's time limit.

pytest-timeout names the threads of a test that outlived its limit, not the coroutines: a
test stalled on the event loop shows only ``select()``. :func:`arm` starts a timer thread
that, a little before the limit, writes the stack of every task not done (found among the
live objects, whatever loop runs them) to the test's captured error output, where the
failure report shows it. A diagnosis aid: it changes nothing the test does.
"""

from __future__ import annotations

import asyncio
import gc
import io
import sys
import threading
from collections.abc import Callable
from typing import TextIO

MARGIN = 20.0
"""Seconds before the limit the tasks are written out (a tenth of it for short limits)."""


def pending_task_stacks(limit: int = 12) -> str:
    """The stacks of the asyncio tasks not done, one block per task ("" when none)."""
    blocks = []
    for obj in gc.get_objects():
        if isinstance(obj, asyncio.Task) and not obj.done():
            out = io.StringIO()
            try:
                obj.print_stack(limit=limit, file=out)
            except Exception as error:  # a frame changing under us: say so, go on
                out.write(f"{obj!r}: stack not readable ({error!r})\n")
            blocks.append(out.getvalue())
    return "\n".join(blocks)


def arm(seconds: float, write: Callable[[str], object] | None = None) -> threading.Timer:
    """A started daemon timer that writes :func:`pending_task_stacks` after ``seconds``
    minus the margin; cancel it when the test ends."""
    when = max(seconds - MARGIN, seconds * 0.9)

    def dump() -> None:
        stream: TextIO = sys.stderr
        text = pending_task_stacks()
        message = f"\n==== asyncio tasks pending {when:.0f} s into the test ====\n" + (
            text or "(no pending task)\n"
        )
        (write or stream.write)(message)

    timer = threading.Timer(when, dump)
    timer.daemon = True
    timer.start()
    return timer
