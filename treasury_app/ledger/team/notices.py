"""A desktop's side of what the webhook receiver writes (schema 3,
:mod:`treasury_app.ledger.team.receiver_schema`): naming what is ours, reading the receivers'
heartbeats, and finding which charge or recurrence a bank event is about.

* :meth:`TeamNotices.add_refs` inserts into ``treasury.our_refs`` the txids and idRecs this
  desktop creates and the company's Pix keys it registers webhooks for (trust but match: the
  receiver applies only notifications about these);
* :meth:`TeamNotices.receivers` reads ``treasury.receivers`` against the database's own clock
  (:data:`RECEIVERS_SQL`, also run by the bank events feed on its own connection);
* :meth:`TeamNotices.charge_txids` and :meth:`TeamNotices.cobr_recurrence` turn the ``ref`` of
  a ``NOTIFY treasury_bank_events`` into the txid or idRec a list shows.
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

    async def charge_txids(self, ref: str) -> list[str]:
        """The txids of the charges a ``pix:<ref>`` event is about: ``ref`` is the Pix's
        endToEndId (what the receiver announces) or a txid."""
        rows = await self._db.rows(
            "SELECT txid FROM treasury.charge_states WHERE txid = %s OR end_to_end_id = %s"
            " UNION SELECT txid FROM treasury.received_pix"
            " WHERE end_to_end_id = %s AND txid IS NOT NULL",
            (ref, ref, ref),
        )
        return sorted({str(row["txid"]) for row in rows})

    async def cobr_recurrence(self, txid: str) -> str | None:
        """The idRec of the recurring charge ``txid``, as the bank notified it."""
        row = await self._db.row("SELECT id_rec FROM treasury.cobr_states WHERE txid = %s", (txid,))
        return str(row["id_rec"]) if row else None
