"""The team database's business date moved with the sandbox bank's clock, in the team demo
(``make run-team``) only.

The database says which day it is for scheduled payments (``treasury.schedule_today()``: its
own clock plus the shift of ``treasury.schedule_clock``, which only the schema's owner writes;
``0`` in production). When a newcomer moves the sandbox bank's clock from a desktop, the
database's date must follow, or it would refuse to let a payment leave on the day the bank
and the app both see. A person's login cannot write that shift — that is the point — so the
demo's launcher hands its desktops the owner's connection string in
:data:`DEMO_OWNER_URL_ENV` (a throwaway server on loopback), and a desktop uses it only for a
sandbox profile. A production desktop has neither: a real bank is never a sandbox, and no
desktop is ever given the owner's credentials.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Mapping

__all__ = ["DEMO_OWNER_URL_ENV", "TeamDemoClock", "team_demo_clock"]

log = logging.getLogger("treasury_app.ledger.team.demo_clock")

DEMO_OWNER_URL_ENV = "TREASURY_TEAM_DEMO_OWNER_URL"
"""Set by ``make run-team`` for its desktops: the demo database's owner (superuser) URL."""

ALIGN_SQL = "UPDATE treasury.schedule_clock SET shift = %s::timestamptz - clock_timestamp()"


class TeamDemoClock:
    """Moves the demo team database's business date to a given instant (the sandbox bank's)."""

    def __init__(self, owner_url: str) -> None:
        self._owner_url = owner_url

    async def align(self, now: dt.datetime) -> bool:
        """The database's schedule clock to ``now``; ``False`` (logged) when it cannot."""
        import psycopg  # only a team profile loads it

        try:
            async with await psycopg.AsyncConnection.connect(
                self._owner_url, autocommit=True, connect_timeout=5
            ) as conn:
                await conn.execute(ALIGN_SQL, (now,))
        except psycopg.Error as error:
            log.warning("the demo team database's clock was not moved (%s)", type(error).__name__)
            return False
        return True


def team_demo_clock(
    environment: str, ledger_backend: str, environ: Mapping[str, str] | None = None
) -> TeamDemoClock | None:
    """The demo clock of a sandbox profile on a team database started by ``make run-team``;
    ``None`` anywhere else (a real bank, the file ledger, no owner URL given)."""
    if environment != "sandbox" or ledger_backend != "team":
        return None
    url = (os.environ if environ is None else environ).get(DEMO_OWNER_URL_ENV, "").strip()
    return TeamDemoClock(url) if url else None
