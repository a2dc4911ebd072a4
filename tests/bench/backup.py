"""Backups of a big ledger: how long a backup takes, how big it is, and how long a restore's
check (copy back, every SHA-256, ``PRAGMA integrity_check``) takes.

The ledger has ``--payments`` journal entries (10,000 by default: each with its history row)
and ``--receipts`` receipt PDFs of ~60 KB; the backup goes to another folder of the same disk
(a network share adds its own transfer time on top).

Prints: the ledger's size, the backup's time and size (ledger and receipts), the time to
verify it, and the time to prepare its restore.

Run: ``.venv/bin/python tests/bench/backup.py [--payments 10000] [--receipts 200]``;
``--smoke``: 200 payments and 5 receipts, and exits 1 unless the backup verifies and its
restore is prepared with every payment and receipt.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from treasury_app.domain.clock import system_clock  # noqa: E402
from treasury_app.ledger import FileLedger, open_ledger  # noqa: E402
from treasury_app.ledger.journal import EntryKind, NewEntry  # noqa: E402
from treasury_app.services.backup import (  # noqa: E402
    BackupSource,
    discard_restore,
    prepare_restore,
    verify_files,
    write_backup,
)


async def fill(ledger: FileLedger, payments: int, receipts: int) -> None:
    """``payments`` entries (one through the journal, the rest copied from it in one
    transaction: the bench measures the backup, not 10,000 fsyncs) and ``receipts`` PDFs."""
    first = await ledger.journal.create(
        NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal("1234.56"),
            idempotency_key="BENCH-0",
            request={"pixKey": "fornecedor@empresa.com.br", "payment": {"amount": "1234.56"}},
            payee_name="Fornecedor Exemplo Ltda",
            payee_detail="fornecedor@empresa.com.br",
            description="Nota fiscal 12345",
        )
    )
    conn = ledger.conn
    columns = [row[1] for row in conn.execute("PRAGMA table_info(journal)") if row[1] != "id"]
    copied = ", ".join(
        "'BENCH-' || n" if column == "idempotency_key" else column for column in columns
    )
    conn.execute("BEGIN")
    conn.execute(
        f"WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ?) "
        f"INSERT INTO journal ({', '.join(columns)}) SELECT {copied} FROM journal, seq "
        f"WHERE journal.id = ?",
        (payments - 1, first.id),
    )
    conn.execute(
        "INSERT INTO journal_history (entry_id, at, state, bank_status, note) "
        "SELECT id, created_at, state, bank_status, '' FROM journal"
    )
    conn.execute("COMMIT")
    for number in range(receipts):
        pdf = b"%PDF-1.4\n" + os.urandom(60_000) + f"\n% {number}\n%%EOF\n".encode()
        await ledger.receipts.save(pdf, kind="PIX", bank_id=f"E{number:032d}")


def megabytes(size: int) -> str:
    return f"{size / 1_000_000:.1f} MB"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--payments", type=int, default=10_000)
    parser.add_argument("--receipts", type=int, default=200)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.payments, args.receipts = 200, 5
    with tempfile.TemporaryDirectory(prefix="bench-backup-") as tmp:
        root = Path(tmp)
        ledger = open_ledger(root / "data" / "ledgers" / "Bench.sqlite3", profile="Bench")
        asyncio.run(fill(ledger, args.payments, args.receipts))
        assert ledger.path is not None
        source = BackupSource("Bench", ledger.path, ledger.receipts.directory, ledger.path.parent)
        share = root / "share"
        share.mkdir()
        started = time.perf_counter()
        info = write_backup(source, share, clock=system_clock, reason="manual")
        took = time.perf_counter() - started
        ledger_size = info.files["ledger.sqlite3"].size
        print(f"ledger: {args.payments} payments, {args.receipts} receipts")
        print(
            f"backup: {took * 1000:.0f} ms, {megabytes(info.size)} "
            f"(ledger {megabytes(ledger_size)}, {info.receipts} receipts "
            f"{megabytes(info.size - ledger_size)})"
        )
        started = time.perf_counter()
        verify_files(info)
        print(f"verify (every SHA-256): {(time.perf_counter() - started) * 1000:.0f} ms")
        started = time.perf_counter()
        prepared = prepare_restore(info.path, source)
        print(
            f"restore check (copy back, SHA-256, integrity_check): "
            f"{(time.perf_counter() - started) * 1000:.0f} ms"
        )
        ok = (prepared.payments, prepared.receipts) == (args.payments, args.receipts)
        discard_restore(prepared)
        ledger.close_now()
    if not ok:
        print("the backup does not hold every payment and receipt", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
