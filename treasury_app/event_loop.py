"""The app's one event loop: qasync's ``QSelectorEventLoop`` on every operating system.

qasync's default on Windows is ``QIOCPEventLoop``, a ``ProactorEventLoop``, which psycopg's
async mode (the team database) refuses; Python 3.11's ``asyncio.run`` has no ``loop_factory``,
so :func:`treasury_app.app.main` runs the loop through ``asyncio.Runner(loop_factory=...)``.
A selector loop on Windows cannot start asyncio subprocesses; the desktop starts none.
Imports nothing heavy (the app's start-up imports it)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


def loop_factory(app: Any) -> Callable[[], asyncio.AbstractEventLoop]:
    """For ``asyncio.Runner(loop_factory=...)``: qasync's selector loop on ``app``."""
    import qasync

    return lambda: qasync.QSelectorEventLoop(app)


def check_loop() -> None:
    """Refuse, with a clear message, a running loop psycopg cannot use (a Proactor loop)."""
    loop = asyncio.get_running_loop()
    if isinstance(loop, getattr(asyncio, "ProactorEventLoop", ())):
        raise RuntimeError(
            f"The team database needs a selector event loop; this one is "
            f"{type(loop).__name__}. Start the app through treasury_app.app.main."
        )
