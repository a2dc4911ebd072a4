"""Receipt PDFs kept locally, so a receipt opens without asking the bank again.

Files are content-addressed: ``<receipts dir>/<sha256[:2]>/<sha256>.pdf`` (written to a
temporary name, then renamed: never a half-written PDF). The ``receipts`` table indexes them
by payment (kind and bank id), journal entry, payee, amount and date.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

from treasury_app.domain.errors import RuleError
from treasury_app.ledger.db import now_iso
from treasury_app.private_files import make_private_dir, make_private_file


class ReceiptError(RuleError):
    """A receipt cannot be kept or read (a rule's code: ``receipt.not_pdf``, a stored copy
    ``receipt.damaged`` or ``receipt.missing``, with ``receipt`` the start of its digest)."""


@dataclass(frozen=True)
class Receipt:
    id: int
    sha256: str
    kind: str
    bank_id: str
    entry_id: int | None
    payee_name: str
    amount: Decimal | None
    paid_on: str | None
    saved_at: str
    size: int
    path: Path
    saved_by: str = ""
    """Who stored it (a team database; "" in a desktop's own file)."""
    confirmed_by: str | None = None
    """Another login whose desktop fetched the same bytes from the bank (a team database)."""
    disputed_by: str | None = None
    """Another login whose desktop fetched *other* bytes from the bank for the same payment:
    the receipt stored first is in doubt (``disputed_sha256``: the other file)."""
    disputed_sha256: str | None = None
    disputed_at: str | None = None

    @property
    def disputed(self) -> bool:
        return self.disputed_by is not None


class Receipts:
    def __init__(self, conn: sqlite3.Connection, directory: Path) -> None:
        self._conn = conn
        self.directory = directory

    def path_for(self, sha256: str) -> Path:
        return receipt_path(self.directory, sha256)

    def save(
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
        """Store a receipt (idempotent: the same payment's receipt is stored once)."""
        sha = pdf_digest(pdf)
        target = self.path_for(sha)
        if not target.exists():
            for folder in (self.directory, target.parent):  # mkdir's mode spares the parents
                make_private_dir(folder)
            fd, temporary = tempfile.mkstemp(dir=target.parent, suffix=".part")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(pdf)
                    handle.flush()
                    os.fsync(handle.fileno())
                os.replace(temporary, target)
                make_private_file(target)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        self._conn.execute(
            "INSERT INTO receipts (sha256, kind, bank_id, entry_id, payee_name, amount, paid_on,"
            " saved_at, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (kind, bank_id) DO UPDATE SET"  # the first receipt stays (as on a
            " entry_id = COALESCE(excluded.entry_id, entry_id)",  # team database)
            (
                sha,
                kind,
                bank_id,
                entry_id,
                payee_name,
                None if amount is None else str(amount),
                paid_on,
                now_iso(),
                len(pdf),
            ),
        )
        found = self.find(kind, bank_id)
        assert found is not None
        return found

    def find(self, kind: str, bank_id: str) -> Receipt | None:
        row = self._conn.execute(
            "SELECT * FROM receipts WHERE kind = ? AND bank_id = ?", (kind, bank_id)
        ).fetchone()
        return self._receipt(row) if row else None

    def for_entry(self, entry_id: int) -> Receipt | None:
        row = self._conn.execute(
            "SELECT * FROM receipts WHERE entry_id = ? ORDER BY id DESC", (entry_id,)
        ).fetchone()
        return self._receipt(row) if row else None

    def read(self, receipt: Receipt) -> bytes:
        try:
            data = receipt.path.read_bytes()
        except FileNotFoundError:
            raise ReceiptError("receipt.missing", receipt=receipt.sha256[:12]) from None
        if hashlib.sha256(data).hexdigest() != receipt.sha256:
            raise ReceiptError("receipt.damaged", receipt=receipt.sha256[:12])
        return data

    def all(self, limit: int = 1000) -> list[Receipt]:
        rows = self._conn.execute("SELECT * FROM receipts ORDER BY id DESC LIMIT ?", (limit,))
        return [self._receipt(row) for row in rows]

    def _receipt(self, row: sqlite3.Row) -> Receipt:
        return receipt_from_row(row, self.path_for(row["sha256"]))


def pdf_digest(pdf: bytes) -> str:
    """The SHA-256 (hex) a receipt is stored under; :class:`ReceiptError` if not a PDF."""
    if not pdf.startswith(b"%PDF"):
        raise ReceiptError("receipt.not_pdf")
    return hashlib.sha256(pdf).hexdigest()


def receipt_path(directory: Path, sha256: str) -> Path:
    """Where a receipt's PDF lives (or is saved) under ``directory``."""
    return directory / sha256[:2] / f"{sha256}.pdf"


def receipt_from_row(row: sqlite3.Row | Mapping[str, Any], path: Path) -> Receipt:
    """A receipts index row (either backend's) as a :class:`Receipt` at ``path``."""
    return Receipt(
        id=int(row["id"]),
        sha256=row["sha256"],
        kind=row["kind"],
        bank_id=row["bank_id"],
        entry_id=row["entry_id"],
        payee_name=row["payee_name"],
        amount=None if row["amount"] is None else Decimal(row["amount"]),
        paid_on=row["paid_on"],
        saved_at=row["saved_at"],
        size=int(row["size"]),
        path=path,
        **{
            name: row[name]
            for name in (
                "saved_by",
                "confirmed_by",
                "disputed_by",
                "disputed_sha256",
                "disputed_at",
            )
            if name in row.keys() and row[name] is not None  # noqa: SIM118 (sqlite3.Row)
        },
    )
