"""Payout batches as they were sent: when, by whom, which file (its SHA-256), which rows (a
signature of their payees and amounts) and their total.

Kept so that the same batch is not paid twice by accident: opening the same CSV again, or
another file with the same payees and amounts, is recognised (:meth:`Batches.matching`) and
the review says when the earlier one went out and for how much.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from treasury_app.ledger.db import LedgerContext, now_iso


@dataclass(frozen=True)
class BatchRecord:
    id: str
    created_at: str
    created_by: str
    label: str
    file_sha256: str | None
    signature: str
    rows: int
    total: Decimal


def batch_from_row(row: sqlite3.Row | Mapping[str, Any]) -> BatchRecord:
    """A batches row (either backend's) as a :class:`BatchRecord`."""
    return BatchRecord(
        id=row["id"],
        created_at=row["created_at"],
        created_by=row["created_by"],
        label=row["label"],
        file_sha256=row["file_sha256"],
        signature=row["signature"],
        rows=int(row["rows"]),
        total=Decimal(row["total"]),
    )


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Batches:
    def __init__(self, conn: sqlite3.Connection, context: LedgerContext) -> None:
        self._conn = conn
        self._context = context

    def record(
        self,
        batch_id: str,
        *,
        signature: str,
        rows: int,
        total: Decimal,
        file_sha256: str | None = None,
        label: str = "",
    ) -> BatchRecord:
        """Keep a batch about to be sent (committed before its first row is journaled); the
        same id twice (a batch resumed) keeps the first record."""
        self._conn.execute(
            "INSERT OR IGNORE INTO batches (id, created_at, created_by, profile, label,"
            " file_sha256, signature, rows, total) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                batch_id,
                now_iso(),
                self._context.os_user,
                self._context.profile,
                label,
                file_sha256,
                signature,
                rows,
                str(total),
            ),
        )
        found = self.get(batch_id)
        assert found is not None
        return found

    def get(self, batch_id: str) -> BatchRecord | None:
        row = self._conn.execute("SELECT * FROM batches WHERE id = ?", (batch_id,)).fetchone()
        return batch_from_row(row) if row else None

    def matching(
        self, *, signature: str, file_sha256: str | None, since: datetime
    ) -> list[BatchRecord]:
        """Batches sent since ``since`` with the same rows or from the same file, newest
        first."""
        rows = self._conn.execute(
            "SELECT * FROM batches WHERE created_at >= ?"
            " AND (signature = ? OR (? IS NOT NULL AND file_sha256 = ?))"
            " ORDER BY created_at DESC, id",
            (_stamp(since), signature, file_sha256, file_sha256),
        )
        return [batch_from_row(row) for row in rows]
