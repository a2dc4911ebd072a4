"""Trust but match, the desktop's half: what this desktop creates at the bank (txids of
charges, idRecs of recurrences) and the Pix keys it registers webhooks for are named in the
team database (``treasury.our_refs``), so that the webhook receiver applies the bank's
notifications about them and stores any other as unmatched. The file ledger has no receiver:
nothing is named there.

A txid is named *before* the request that creates it (a notification may arrive before the
answer); an idRec, which the bank chooses, right after the answer. A team database that
cannot be reached stops a creation before anything is sent (as it stops a payment); a login
that may not name references (a viewer) only leaves its notifications unmatched, so the
creation goes on and the log says so.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING

from treasury_app.ledger import Ledger
from treasury_app.ledger.errors import LedgerRefused, LedgerUnavailable

if TYPE_CHECKING:
    from treasury_app.ledger.team.notices import RefKind

__all__ = ["name_ours", "name_ours_after"]

log = logging.getLogger("treasury_app.services.our_refs")


async def name_ours(ledger: Ledger, kind: RefKind, refs: Iterable[str]) -> None:
    """Name ``refs`` as ours on a team ledger (nothing on the file ledger). Raises
    :class:`~treasury_app.ledger.errors.LedgerUnavailable` when the team database cannot be
    reached: call it before sending, and nothing is sent."""
    notices = ledger.notices
    if notices is None:
        return
    try:
        await notices.add_refs(kind, refs)
    except LedgerRefused as error:
        log.warning("%s not named as ours (%s): its notifications stay unmatched", kind, error)


async def name_ours_after(ledger: Ledger, kind: RefKind, refs: Iterable[str]) -> None:
    """:func:`name_ours` once the bank has answered (an idRec it chose): the creation is done,
    so a database that cannot be reached now is logged, not raised."""
    try:
        await name_ours(ledger, kind, refs)
    except LedgerUnavailable as error:
        log.warning("%s not named as ours (%s): its notifications stay unmatched", kind, error)
