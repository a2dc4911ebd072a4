"""The ledger on this computer: the SQLite file of :mod:`treasury_app.ledger.db`, behind the
coroutine interface of :mod:`treasury_app.ledger.stores`.

The file answers in well under a millisecond, so its coroutines run the query at once on the
caller's thread (no thread hop, as before the team backend existed). Only one desktop writes
a file, so :meth:`FileJournal.claim` always grants the claim.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

from treasury_app.ledger.audit import Audit, AuditEntry
from treasury_app.ledger.batches import Batches, BatchRecord
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, HistoryItem, Journal, NewEntry
from treasury_app.ledger.receipts import Receipt, Receipts


class FileJournal:
    def __init__(self, journal: Journal) -> None:
        self.sync = journal

    async def create(self, new: NewEntry) -> Entry:
        return self.sync.create(new)

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
        del lookup  # one desktop: whatever the bank said, it said to this one
        return self.sync.update(
            entry_id,
            state,
            bank_status=bank_status,
            final=final,
            end_to_end_id=end_to_end_id,
            bank_id=bank_id,
            error=error,
            note=note,
            creditor_name=creditor_name,
        )

    async def get(self, entry_id: int) -> Entry:
        return self.sync.get(entry_id)

    async def by_key(self, idempotency_key: str) -> Entry | None:
        return self.sync.by_key(idempotency_key)

    async def unresolved(self) -> list[Entry]:
        return self.sync.unresolved()

    async def open_entries(self) -> list[Entry]:
        return self.sync.open_entries()

    async def recent(
        self,
        *,
        limit: int = 500,
        kinds: Iterable[EntryKind] | None = None,
        batch: str | None = None,
    ) -> list[Entry]:
        return self.sync.recent(limit=limit, kinds=kinds, batch=batch)

    async def same_payee_since(
        self, payee_detail: str, amount: Decimal, since: datetime | None = None
    ) -> list[Entry]:
        return self.sync.same_payee_since(payee_detail, amount, since)

    async def named_payments(self, payee_detail: str, *, limit: int = 20) -> list[Entry]:
        return self.sync.named_payments(payee_detail, limit=limit)

    async def payees_since(self, payee_details: Iterable[str], since: datetime) -> list[Entry]:
        return self.sync.payees_since(payee_details, since)

    async def last_named(self, payee_details: Iterable[str]) -> dict[str, Entry]:
        return self.sync.last_named(payee_details)

    async def final_without_receipt(
        self, statuses: Iterable[str], *, limit: int = 1000
    ) -> list[Entry]:
        return self.sync.final_without_receipt(statuses, limit=limit)

    async def unconfirmed(self, *, since: datetime, limit: int = 200) -> list[Entry]:
        return []  # one desktop records every outcome of the file: nobody else to confirm it

    async def history(self, entry_id: int) -> list[HistoryItem]:
        return self.sync.history(entry_id)

    async def counts(self) -> dict[str, int]:
        return self.sync.counts()

    @asynccontextmanager
    async def claim(self, entry_id: int) -> AsyncIterator[bool]:
        yield True


class FileAudit:
    def __init__(self, audit: Audit) -> None:
        self.sync = audit

    async def record(
        self,
        action: str,
        outcome: str,
        *,
        reference: str = "",
        amount: Decimal | None = None,
        details: dict[str, Any] | None = None,
    ) -> int:
        return self.sync.record(
            action, outcome, reference=reference, amount=amount, details=details
        )

    async def entries(
        self, *, action: str | None = None, reference: str | None = None, limit: int = 1000
    ) -> list[AuditEntry]:
        return self.sync.entries(action=action, reference=reference, limit=limit)

    async def search(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
        offset: int = 0,
        limit: int = 200,
    ) -> list[AuditEntry]:
        return self.sync.search(
            since=since, until=until, action=action, text=text, offset=offset, limit=limit
        )

    async def count(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
    ) -> int:
        return self.sync.count(since=since, until=until, action=action, text=text)

    async def actions(self) -> list[str]:
        return self.sync.actions()


class FileReceipts:
    def __init__(self, receipts: Receipts) -> None:
        self.sync = receipts

    @property
    def directory(self) -> Path:
        return self.sync.directory

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
    ) -> Receipt:
        return self.sync.save(
            pdf,
            kind=kind,
            bank_id=bank_id,
            entry_id=entry_id,
            payee_name=payee_name,
            amount=amount,
            paid_on=paid_on,
        )

    async def find(self, kind: str, bank_id: str) -> Receipt | None:
        return self.sync.find(kind, bank_id)

    async def for_entry(self, entry_id: int) -> Receipt | None:
        return self.sync.for_entry(entry_id)

    async def read(self, receipt: Receipt) -> bytes:
        return self.sync.read(receipt)

    async def all(self, limit: int = 1000) -> list[Receipt]:
        return self.sync.all(limit)

    async def unchecked(self, limit: int = 100) -> list[Receipt]:
        """None: one desktop's own receipts have no second opinion to wait for."""
        del limit
        return []


class FileBatches:
    def __init__(self, batches: Batches) -> None:
        self.sync = batches

    async def record(
        self,
        batch_id: str,
        *,
        signature: str,
        rows: int,
        total: Decimal,
        file_sha256: str | None = None,
        label: str = "",
    ) -> BatchRecord:
        return self.sync.record(
            batch_id,
            signature=signature,
            rows=rows,
            total=total,
            file_sha256=file_sha256,
            label=label,
        )

    async def get(self, batch_id: str) -> BatchRecord | None:
        return self.sync.get(batch_id)

    async def matching(
        self, *, signature: str, file_sha256: str | None, since: datetime
    ) -> list[BatchRecord]:
        return self.sync.matching(signature=signature, file_sha256=file_sha256, since=since)
