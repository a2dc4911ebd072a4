"""What every ledger backend offers: the journal, the audit, the receipts and the batches,
as coroutines.

Two backends implement it: the file on this computer (SQLite, :mod:`treasury_app.ledger.
file_backend`, the default) and a team database (PostgreSQL, :mod:`treasury_app.ledger.team`).
Callers see one behaviour; every method is a coroutine so that no backend ever blocks the
window's thread (the file's answer comes back at once, the team database's over the network).
"""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import AbstractAsyncContextManager
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

from treasury_app.ledger.audit import AuditEntry
from treasury_app.ledger.batches import BatchRecord
from treasury_app.ledger.errors import LedgerOpenError, LedgerRefused, LedgerUnavailable
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, HistoryItem, NewEntry
from treasury_app.ledger.receipts import Receipt

__all__ = [
    "AuditStore",
    "BatchStore",
    "JournalStore",
    "LedgerOpenError",
    "LedgerRefused",
    "LedgerUnavailable",
    "ReceiptStore",
]


class JournalStore(Protocol):
    """The payment journal (see :mod:`treasury_app.ledger.journal` for the states)."""

    async def create(self, new: NewEntry) -> Entry: ...

    async def update(
        self,
        entry_id: int,
        state: EntryState,
        *,
        bank_status: str | None = None,
        final: bool = False,
        end_to_end_id: str | None = None,
        bank_id: str | None = None,
        error: str | None = None,
        note: str = "",
        creditor_name: str | None = None,
        lookup: bool = False,
    ) -> Entry:
        """Move an entry (what the bank answered; ``lookup``: what it said when asked about
        the payment, rather than its answer to a send). A team database allows only the
        payment engine's moves, under this desktop's claim, and decides ``final`` itself."""
        ...

    async def get(self, entry_id: int) -> Entry: ...

    async def by_key(self, idempotency_key: str) -> Entry | None: ...

    async def unresolved(self) -> list[Entry]: ...

    async def open_entries(self) -> list[Entry]: ...

    async def recent(
        self,
        *,
        limit: int = 500,
        kinds: Iterable[EntryKind] | None = None,
        batch: str | None = None,
    ) -> list[Entry]: ...

    async def same_payee_since(
        self, payee_detail: str, amount: Decimal, since: datetime | None = None
    ) -> list[Entry]: ...

    async def named_payments(self, payee_detail: str, *, limit: int = 20) -> list[Entry]: ...

    async def payees_since(self, payee_details: Iterable[str], since: datetime) -> list[Entry]: ...

    async def last_named(self, payee_details: Iterable[str]) -> dict[str, Entry]: ...

    async def final_without_receipt(
        self, statuses: Iterable[str], *, limit: int = 1000
    ) -> list[Entry]: ...

    async def unconfirmed(self, *, since: datetime, limit: int = 200) -> list[Entry]:
        """Decided outcomes recorded since ``since`` by another login's desktop that the bank
        has not confirmed yet (a team database; the file has none)."""
        ...

    async def history(self, entry_id: int) -> list[HistoryItem]: ...

    async def counts(self) -> dict[str, int]: ...

    def claim(self, entry_id: int) -> AbstractAsyncContextManager[bool]:
        """Hold the right to send or resolve one entry: ``True`` when this desktop has it
        (until the block ends), ``False`` when another desktop holds it now (it is sending or
        resolving this entry: leave it alone). The file backend always answers ``True``."""
        ...


class AuditStore(Protocol):
    async def record(
        self,
        action: str,
        outcome: str,
        *,
        reference: str = "",
        amount: Decimal | None = None,
        details: dict[str, Any] | None = None,
    ) -> int: ...

    async def entries(
        self, *, action: str | None = None, reference: str | None = None, limit: int = 1000
    ) -> list[AuditEntry]: ...

    async def search(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
        offset: int = 0,
        limit: int = 200,
    ) -> list[AuditEntry]: ...

    async def count(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
    ) -> int: ...

    async def actions(self) -> list[str]: ...


class ReceiptStore(Protocol):
    @property
    def directory(self) -> Path: ...

    async def save(
        self,
        pdf: bytes,
        *,
        kind: str,
        bank_id: str,
        entry_id: int | None = None,
        payee_name: str = "",
        amount: Decimal | None = None,
        paid_on: str | None = None,
    ) -> Receipt: ...

    async def find(self, kind: str, bank_id: str) -> Receipt | None: ...

    async def for_entry(self, entry_id: int) -> Receipt | None: ...

    async def read(self, receipt: Receipt) -> bytes: ...

    async def all(self, limit: int = 1000) -> list[Receipt]: ...

    async def unchecked(self, limit: int = 100) -> list[Receipt]:
        """Receipts another login stored that no second login has compared with the bank's
        yet (a team database; none in a desktop's own file)."""
        ...


class BatchStore(Protocol):
    async def record(
        self,
        batch_id: str,
        *,
        signature: str,
        rows: int,
        total: Decimal,
        file_sha256: str | None = None,
        label: str = "",
    ) -> BatchRecord: ...

    async def get(self, batch_id: str) -> BatchRecord | None: ...

    async def matching(
        self, *, signature: str, file_sha256: str | None, since: datetime
    ) -> list[BatchRecord]: ...
