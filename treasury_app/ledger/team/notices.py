"""A desktop's side of what the webhook receiver writes (schema 3,
:mod:`treasury_app.ledger.team.receiver_schema`): naming what is ours and reading the
receivers' heartbeats (what it applied is read by the bank events feed,
:mod:`treasury_app.ledger.team.bank_events`).

* :meth:`TeamNotices.add_refs` inserts into ``treasury.our_refs`` the txids and idRecs this
  desktop creates and the company's Pix keys it registers webhooks for (trust but match: the
  receiver applies only notifications about these);
* :meth:`TeamNotices.receivers` reads ``treasury.receivers`` against the database's own clock
  (:data:`RECEIVERS_SQL`, also run by the bank events feed on its own connection).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from treasury_app.ledger.team.store import TeamDatabase

__all__ = ["RECEIVERS_SQL", "ReceiversSeen", "RefKind", "TeamNotices"]

RefKind = Literal["key", "txid", "idrec"]
"""What makes a notification ours: a Pix key, a txid or an idRec (``treasury.our_refs``)."""

RECEIVERS_SQL = """
SELECT now() AS now, count(*) AS receivers, max(seen_at) AS seen_at,
       max(last_item_at) AS last_item_at,
       (SELECT url FROM treasury.receivers WHERE url <> '' ORDER BY seen_at DESC LIMIT 1) AS url
  FROM treasury.receivers
"""
"""Every receiver's heartbeat at once, with the database's ``now()``: whether one is live is
measured on the clock that stamped the heartbeats, never on this computer's."""


@dataclass(frozen=True)
class ReceiversSeen:
    """The receivers' heartbeats as the database had them at ``now``."""

    now: datetime
    receivers: int
    """How many receivers ever reported to this database (0: none has ever run)."""
    seen_at: datetime | None
    """The latest heartbeat of any receiver."""
    last_item_at: datetime | None
    """When a receiver last stored a notification."""
    url: str
    """The public webhook URL the most recently seen receiver announces ('' if none)."""

    @classmethod
    def of(cls, row: Mapping[str, Any]) -> ReceiversSeen:
        return cls(
            now=row["now"],
            receivers=int(row["receivers"] or 0),
            seen_at=row["seen_at"],
            last_item_at=row["last_item_at"],
            url=str(row["url"] or ""),
        )


class TeamNotices:
    """Our references and the receivers' heartbeats, over the ledger's pool."""

    def __init__(self, db: TeamDatabase) -> None:
        self._db = db

    async def add_refs(self, kind: RefKind, refs: Iterable[str]) -> int:
        """Name ``refs`` as ours (those named already stay as they are); how many were new.
        Raises :class:`~treasury_app.ledger.team.store.TeamDatabaseOffline` (nothing named)
        or :class:`~treasury_app.ledger.team.store.TeamDatabaseRefused` (a viewer's login)."""
        wanted = sorted({str(ref) for ref in refs if ref})
        if not wanted:
            return 0
        async with self._db.transaction() as cursor:
            await cursor.execute(
                "INSERT INTO treasury.our_refs (kind, ref) SELECT %s, unnest(%s::text[])"
                " ON CONFLICT DO NOTHING",
                (kind, wanted),
            )
            return max(cursor.rowcount, 0)

    async def has_refs(self, kind: RefKind, refs: Iterable[str]) -> set[str]:
        """Which of ``refs`` are named as ours."""
        rows = await self._db.rows(
            "SELECT ref FROM treasury.our_refs WHERE kind = %s AND ref = ANY(%s)",
            (kind, sorted(set(refs))),
        )
        return {str(row["ref"]) for row in rows}

    async def receivers(self) -> ReceiversSeen:
        """The receivers' heartbeats, now."""
        row = await self._db.row(RECEIVERS_SQL)
        assert row is not None  # an aggregate always answers one row
        return ReceiversSeen.of(row)
