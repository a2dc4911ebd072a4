"""The event loop the team database needs: psycopg's async mode refuses Windows'
``ProactorEventLoop`` (qasync's default ``QIOCPEventLoop`` there is one), so the app runs
qasync's ``QSelectorEventLoop`` on every OS (:func:`loop_factory`)."""

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
