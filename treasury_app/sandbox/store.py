"""The sandbox's durable state in SQLite: JSON documents by kind, the account's ledger of
entries (the statement), used idempotency keys and counters. Survives restarts."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

from treasury_app.domain.money import dumps_json, loads_json
from treasury_app.private_files import make_private_dir, make_private_file

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS docs (
    kind TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, created TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
CREATE INDEX IF NOT EXISTS docs_created ON docs (kind, created);
CREATE TABLE IF NOT EXISTS idempotency (
    key TEXT PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL, created TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    day TEXT NOT NULL,
    credit_debit TEXT NOT NULL,
    type TEXT NOT NULL,
    amount TEXT NOT NULL,
    balance_after TEXT NOT NULL,
    body TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_day ON entries (day);
"""


class Store:
    """Thin typed access to the sandbox database (one connection, one event loop)."""

    def __init__(self, path: Path) -> None:
        make_private_dir(path.parent)
        self.path = path
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        make_private_file(path)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Everything inside commits together or not at all."""
        if self.db.in_transaction:
            yield
            return
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # meta -------------------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    def next_id(self, name: str, start: int = 1) -> int:
        with self.transaction():
            value = int(self.meta(f"seq:{name}", str(start - 1)) or 0) + 1
            self.set_meta(f"seq:{name}", str(value))
        return value

    # documents --------------------------------------------------------------------------
    def get(self, kind: str, doc_id: str) -> dict[str, Any] | None:
        row = self.db.execute(
            "SELECT body FROM docs WHERE kind = ? AND id = ?", (kind, doc_id)
        ).fetchone()
        return _load(row[0]) if row else None

    def put(self, kind: str, doc_id: str, body: dict[str, Any], created: str) -> None:
        self.db.execute(
            "INSERT INTO docs (kind, id, body, created) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (kind, id) DO UPDATE SET body = excluded.body",
            (kind, doc_id, dumps_json(body), created),
        )

    def delete(self, kind: str, doc_id: str) -> bool:
        cursor = self.db.execute("DELETE FROM docs WHERE kind = ? AND id = ?", (kind, doc_id))
        return cursor.rowcount > 0

    def all(self, kind: str) -> list[dict[str, Any]]:
        rows = self.db.execute(
            "SELECT body FROM docs WHERE kind = ? ORDER BY created, id", (kind,)
        ).fetchall()
        return [_load(r[0]) for r in rows]

    def count(self, kind: str) -> int:
        return int(
            self.db.execute("SELECT COUNT(*) FROM docs WHERE kind = ?", (kind,)).fetchone()[0]
        )

    # idempotency keys -------------------------------------------------------------------
    def idempotency_ref(self, key: str) -> tuple[str, str] | None:
        row = self.db.execute("SELECT kind, ref FROM idempotency WHERE key = ?", (key,)).fetchone()
        return (row[0], row[1]) if row else None

    def remember_idempotency(self, key: str, kind: str, ref: str, created: str) -> None:
        self.db.execute(
            "INSERT INTO idempotency (key, kind, ref, created) VALUES (?, ?, ?, ?)",
            (key, kind, ref, created),
        )

    # statement entries ------------------------------------------------------------------
    def balance(self) -> Decimal:
        return Decimal(self.meta("balance", "0.00") or "0.00")

    def add_entry(
        self,
        *,
        created: str,
        day: str,
        credit_debit: str,
        type_: str,
        amount: Decimal,
        body: dict[str, Any],
    ) -> dict[str, Any]:
        """Post one entry and move the balance, atomically; returns the stored entry."""
        with self.transaction():
            signed = amount if credit_debit == "CREDIT" else -amount
            balance = self.balance() + signed
            cursor = self.db.execute(
                "INSERT INTO entries"
                " (created, day, credit_debit, type, amount, balance_after, body)"
                " VALUES (?, ?, ?, ?, ?, ?, '{}')",
                (created, day, credit_debit, type_, str(amount), str(balance)),
            )
            entry_id = int(cursor.lastrowid or 0)
            entry = {
                "id": entry_id,
                "createdAt": created,
                "creditDebitType": credit_debit,
                "transactionType": type_,
                "amount": amount,
                "balanceAfter": balance,
                **body,
            }
            self.db.execute(
                "UPDATE entries SET body = ? WHERE id = ?", (dumps_json(entry), entry_id)
            )
            self.set_meta("balance", str(balance))
        return entry

    def entry(self, entry_id: int) -> dict[str, Any] | None:
        row = self.db.execute("SELECT body FROM entries WHERE id = ?", (entry_id,)).fetchone()
        return _load(row[0]) if row else None

    def entries(
        self,
        *,
        start_day: str,
        end_day: str,
        credit_debit: str | None,
        type_: str | None,
        offset: int,
        limit: int,
    ) -> tuple[list[dict[str, Any]], int]:
        where = ["day BETWEEN ? AND ?"]
        args: list[Any] = [start_day, end_day]
        if credit_debit:
            where.append("credit_debit = ?")
            args.append(credit_debit)
        if type_:
            where.append("type = ?")
            args.append(type_)
        clause = " AND ".join(where)
        total = int(
            self.db.execute(f"SELECT COUNT(*) FROM entries WHERE {clause}", args).fetchone()[0]
        )
        rows = self.db.execute(
            f"SELECT body FROM entries WHERE {clause} ORDER BY created DESC, id DESC"
            " LIMIT ? OFFSET ?",
            [*args, limit, offset],
        ).fetchall()
        return [_load(r[0]) for r in rows], total


def _load(text: str) -> dict[str, Any]:
    value = loads_json(text)
    if not isinstance(value, dict):
        raise ValueError("corrupt sandbox document")
    return value


def as_json(value: Any) -> str:
    """For debugging output only."""
    return json.dumps(value, default=str)
