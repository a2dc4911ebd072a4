"""Durable state: the payment journal, the audit, the receipts and the batches.

Two backends behind one interface (:mod:`treasury_app.ledger.stores`, all coroutines):

* **this computer** (the default): one SQLite file per profile
  (``<data dir>/ledgers/<profile>.sqlite3``, WAL), receipts as PDF files beside it —
  :func:`open_ledger`;
* **team database**: a PostgreSQL database the whole team shares, receipts inside it —
  :func:`treasury_app.ledger.team.open_team_ledger`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from treasury_app.domain.clock import Clock
from treasury_app.ledger.audit import Audit
from treasury_app.ledger.batches import Batches
from treasury_app.ledger.db import LedgerContext, LedgerVersionError, connect, os_user, utc_now
from treasury_app.ledger.file_backend import FileAudit, FileBatches, FileJournal, FileReceipts
from treasury_app.ledger.journal import Journal
from treasury_app.ledger.location import LedgerLocationError, check_ledger_location
from treasury_app.ledger.payees import FilePayees, PayeeStore
from treasury_app.ledger.receipts import Receipts
from treasury_app.ledger.schedule import FileSchedule, ScheduleStore
from treasury_app.ledger.stores import AuditStore, BatchStore, JournalStore, ReceiptStore

if TYPE_CHECKING:
    from treasury_app.ledger.team.approvals import TeamApprovals
    from treasury_app.ledger.team.notices import TeamNotices

__all__ = [
    "FileLedger",
    "Ledger",
    "LedgerLocationError",
    "LedgerVersionError",
    "open_ledger",
]

Backend = Literal["file", "team"]


class Ledger:
    """The journal, audit, receipts and batches of one profile, on one backend."""

    backend: Backend
    journal: JournalStore
    audit: AuditStore
    receipts: ReceiptStore
    batches: BatchStore
    schedule: ScheduleStore
    """Scheduled and recurring payments (issue 35)."""
    payees: PayeeStore
    """The payee registry (issue 36)."""
    context: LedgerContext
    path: Path | None
    """The ledger file (the file backend); ``None`` for a team database."""
    approvals: TeamApprovals | None = None
    """Dual control (a team database only; the file ledger has none)."""
    notices: TeamNotices | None = None
    """What the webhook receiver writes and what makes a notification ours (a team database
    only: the file ledger has no receiver, its payments are polled)."""
    clock: Clock
    """The clock the ledger's stamps come from (the computer's for the file, the database
    server's for a team database): an entry's age is measured on it."""

    def describe(self) -> str:
        """Where the ledger lives, for people (Settings, diagnostics)."""
        raise NotImplementedError

    async def close(self) -> None:
        raise NotImplementedError


class FileLedger(Ledger):
    """The ledger in one SQLite file on this computer."""

    backend: Backend = "file"

    def __init__(self, conn: sqlite3.Connection, path: Path, context: LedgerContext) -> None:
        self.conn = conn
        self.path = path
        self.context = context
        self.clock = utc_now
        self.journal = FileJournal(Journal(conn, context))
        self.audit = FileAudit(Audit(conn, context))
        self.schedule = FileSchedule(conn, context, self.journal.sync, self.audit.sync)
        self.payees = FilePayees(conn, context, self.audit.sync, lambda: self.clock(), path)
        self.batches = FileBatches(Batches(conn, context))
        self.receipts = FileReceipts(Receipts(conn, path.parent / f"{path.stem}-receipts"))

    def describe(self) -> str:
        return str(self.path)

    async def close(self) -> None:
        self.close_now()

    def close_now(self) -> None:
        """Close the file at once (no event loop needed)."""
        self.conn.close()


def open_ledger(path: Path, *, profile: str, user: str | None = None) -> FileLedger:
    """Open the ledger file at ``path`` for ``profile`` (creating and migrating it); a ledger
    on a network folder is refused (:class:`LedgerLocationError`) before anything is written."""
    check_ledger_location(path)
    context = LedgerContext(profile=profile, os_user=user or os_user())
    return FileLedger(connect(path), path, context)
