"""Local durable state in SQLite: the payment journal, the audit and the receipts index.

One ledger file per profile (``<data dir>/ledgers/<profile>.sqlite3``, WAL), receipts as PDF
files beside it. :func:`open_ledger` opens (creating and migrating) one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from treasury_app.ledger.audit import Audit
from treasury_app.ledger.batches import Batches
from treasury_app.ledger.db import LedgerContext, LedgerVersionError, connect, os_user
from treasury_app.ledger.journal import Journal
from treasury_app.ledger.location import LedgerLocationError, check_ledger_location
from treasury_app.ledger.receipts import Receipts

__all__ = ["Ledger", "LedgerLocationError", "LedgerVersionError", "open_ledger"]


class Ledger:
    """The journal, audit and receipts of one profile, on one SQLite connection."""

    def __init__(self, conn: sqlite3.Connection, path: Path, context: LedgerContext) -> None:
        self.conn = conn
        self.path = path
        self.context = context
        self.journal = Journal(conn, context)
        self.audit = Audit(conn, context)
        self.batches = Batches(conn, context)
        self.receipts = Receipts(conn, path.parent / f"{path.stem}-receipts")

    def close(self) -> None:
        self.conn.close()


def open_ledger(path: Path, *, profile: str, user: str | None = None) -> Ledger:
    """Open the ledger file at ``path`` for ``profile`` (creating and migrating it); a ledger
    on a network folder is refused (:class:`LedgerLocationError`) before anything is written."""
    check_ledger_location(path)
    context = LedgerContext(profile=profile, os_user=user or os_user())
    return Ledger(connect(path), path, context)
