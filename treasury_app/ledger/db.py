"""The ledger file: one SQLite database per profile (WAL), with versioned migrations.

``schema_version`` holds one row. Opening a file of an older version applies the missing
migrations in one transaction each; a file written by a newer build is refused with
:class:`LedgerVersionError` (never half-read).
"""

from __future__ import annotations

import getpass
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from treasury_app.domain.clock import system_clock
from treasury_app.domain.errors import Reason
from treasury_app.ledger.errors import LedgerOpenError
from treasury_app.private_files import make_private_dir, make_private_file

MIGRATIONS: tuple[str, ...] = (
    # 1: journal, its history, audit
    """
    CREATE TABLE journal (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,                -- PIX_KEY, PIX_QRC, PIX_MANU, BILLET
        payee_name TEXT NOT NULL DEFAULT '',
        payee_document TEXT NOT NULL DEFAULT '',
        payee_detail TEXT NOT NULL DEFAULT '',  -- key, bank data, digitable line
        amount TEXT NOT NULL,              -- the Decimal's text
        description TEXT NOT NULL DEFAULT '',
        payment_flow TEXT NOT NULL DEFAULT 'INSTANT',
        idempotency_key TEXT NOT NULL UNIQUE,
        request_json TEXT NOT NULL,        -- the exact body sent (and re-sent) to the bank
        state TEXT NOT NULL,
        bank_status TEXT,
        final INTEGER NOT NULL DEFAULT 0,
        end_to_end_id TEXT,
        bank_id TEXT,
        error TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        profile TEXT NOT NULL,
        batch TEXT
    );
    CREATE INDEX journal_open ON journal (final, state);
    CREATE INDEX journal_payee ON journal (payee_detail, amount, created_at);
    CREATE TABLE journal_history (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES journal (id),
        at TEXT NOT NULL,
        state TEXT NOT NULL,
        bank_status TEXT,
        note TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX journal_history_entry ON journal_history (entry_id);
    CREATE TABLE audit (
        id INTEGER PRIMARY KEY,
        at TEXT NOT NULL,
        os_user TEXT NOT NULL,
        profile TEXT NOT NULL,
        action TEXT NOT NULL,
        outcome TEXT NOT NULL,
        reference TEXT NOT NULL DEFAULT '',
        amount TEXT,
        details TEXT NOT NULL DEFAULT '{}'
    );
    CREATE TRIGGER audit_append_only_update BEFORE UPDATE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit is append-only'); END;
    CREATE TRIGGER audit_append_only_delete BEFORE DELETE ON audit
        BEGIN SELECT RAISE(ABORT, 'the audit is append-only'); END;
    """,
    # 2: receipts index (the PDFs live in files named by their SHA-256)
    """
    CREATE TABLE receipts (
        id INTEGER PRIMARY KEY,
        sha256 TEXT NOT NULL,
        kind TEXT NOT NULL,                -- PIX, BILLET
        bank_id TEXT NOT NULL,             -- endToEndId or billet payment id
        entry_id INTEGER REFERENCES journal (id),
        payee_name TEXT NOT NULL DEFAULT '',
        amount TEXT,
        paid_on TEXT,
        saved_at TEXT NOT NULL,
        size INTEGER NOT NULL,
        UNIQUE (kind, bank_id)
    );
    CREATE INDEX receipts_sha ON receipts (sha256);
    """,
    # 3: payout batches as sent (the same batch twice is recognised)
    """
    CREATE TABLE batches (
        id TEXT PRIMARY KEY,
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        profile TEXT NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        file_sha256 TEXT,                  -- the file as read; NULL for pasted text
        signature TEXT NOT NULL,           -- SHA-256 of the sorted payee and amount rows
        rows INTEGER NOT NULL,
        total TEXT NOT NULL
    );
    CREATE INDEX batches_signature ON batches (signature, created_at);
    CREATE INDEX batches_file ON batches (file_sha256, created_at);
    """,
    # 4: the creditor's name as the bank reports it (a Pix key names nobody until then)
    """
    ALTER TABLE journal ADD COLUMN creditor_name TEXT;
    """,
    # 5: scheduled and recurring payments (issue 35): a pay date, the series, held ones
    """
    ALTER TABLE journal ADD COLUMN pay_date TEXT;      -- ISO Brasília date; NULL: sent now
    ALTER TABLE journal ADD COLUMN series_id TEXT;
    ALTER TABLE journal ADD COLUMN series_seq INTEGER;
    CREATE INDEX journal_pay_date ON journal (pay_date) WHERE pay_date IS NOT NULL;
    CREATE UNIQUE INDEX journal_series_seq ON journal (series_id, series_seq)
        WHERE series_id IS NOT NULL;
    CREATE TABLE schedule_holds (
        id INTEGER PRIMARY KEY,
        entry_id INTEGER NOT NULL REFERENCES journal (id),
        at TEXT NOT NULL,
        held_by TEXT NOT NULL,
        code TEXT NOT NULL,                -- why it waits for a person (schedule.*)
        params TEXT NOT NULL DEFAULT '{}',
        cleared_at TEXT,
        cleared_by TEXT
    );
    CREATE UNIQUE INDEX schedule_holds_open ON schedule_holds (entry_id) WHERE cleared_at IS NULL;
    CREATE TABLE series (
        id TEXT PRIMARY KEY,
        rule TEXT NOT NULL,                -- the SeriesRule, JSON
        template TEXT NOT NULL,            -- what each occurrence pays, JSON
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        profile TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        ended_at TEXT,
        ended_by TEXT
    );
    """,
    # 6: the payee registry (issue 36): payees, their destinations with a state, the changes
    """
    CREATE TABLE payees (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        document TEXT NOT NULL,            -- bare CPF or CNPJ
        tags TEXT NOT NULL DEFAULT '[]',   -- JSON list
        created_at TEXT NOT NULL,
        created_by TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX payees_document ON payees (document);
    CREATE TABLE destinations (
        id INTEGER PRIMARY KEY,
        payee_id INTEGER NOT NULL REFERENCES payees (id),
        kind TEXT NOT NULL,                -- PIX_KEY, ACCOUNT
        detail TEXT NOT NULL,              -- as a payout journals its payee_detail
        key_type TEXT,
        ispb TEXT,
        branch TEXT,
        account TEXT,
        account_type TEXT,
        state TEXT NOT NULL,               -- new, verified, changed, blocked
        changed_at TEXT,                   -- when its last change took effect (UTC ISO)
        action TEXT NOT NULL,              -- added, changed, unblocked
        changed_by TEXT NOT NULL,
        approved_by TEXT NOT NULL DEFAULT ''
    );
    CREATE UNIQUE INDEX destinations_detail ON destinations (detail);
    CREATE INDEX destinations_payee ON destinations (payee_id);
    CREATE TABLE destination_changes (
        id INTEGER PRIMARY KEY,
        payee_id INTEGER NOT NULL REFERENCES payees (id),
        destination_id INTEGER REFERENCES destinations (id),
        action TEXT NOT NULL,              -- add, change, unblock, block, verified, mismatch
        proposed TEXT,                     -- the destination asked for, JSON
        prepared_by TEXT NOT NULL,
        prepared_at TEXT NOT NULL,
        outcome TEXT NOT NULL,             -- DONE (one desktop: at once)
        decided_by TEXT,
        decided_at TEXT,
        reason TEXT NOT NULL DEFAULT '',
        params TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX destination_changes_payee ON destination_changes (payee_id);
    CREATE TABLE registry_policy (
        one INTEGER PRIMARY KEY CHECK (one = 1),
        cooling_hours INTEGER NOT NULL DEFAULT 24,
        registry_only INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO registry_policy (one) VALUES (1);
    """,
)

SCHEMA_VERSION = len(MIGRATIONS)


class LedgerVersionError(LedgerOpenError):
    """The ledger file was written by a newer version of the app."""


def utc_now() -> datetime:
    """The ledger's clock: the computer's, in UTC. Its stamps are instants (who did what
    when), never business dates; the one place the ledger reads the machine's clock."""
    return system_clock()


def now_iso() -> str:
    return utc_now().isoformat(timespec="milliseconds").replace("+00:00", "Z")


def os_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (containers)
        return "unknown"


@dataclass(frozen=True)
class LedgerContext:
    """Who acts through this ledger: written into every journal and audit row."""

    profile: str
    os_user: str


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) and migrate a ledger file."""
    make_private_dir(path.parent)
    conn = sqlite3.connect(path, isolation_level=None, timeout=10)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")  # a journaled payment must survive a power cut
    conn.execute("PRAGMA foreign_keys=ON")
    migrate(conn, path)
    make_private_file(path)
    return conn


def current_version(conn: sqlite3.Connection) -> int:
    has_table = conn.execute(
        "SELECT 1 FROM sqlite_master WHERE type='table' AND name='schema_version'"
    ).fetchone()
    if not has_table:
        return 0
    row = conn.execute("SELECT version FROM schema_version").fetchone()
    return int(row[0]) if row else 0


def migrate(conn: sqlite3.Connection, path: Path, *, target: int = SCHEMA_VERSION) -> None:
    version = current_version(conn)
    if version > SCHEMA_VERSION:
        raise LedgerVersionError(
            f"{path.name} was written by a newer version of the app (schema {version}; this "
            f"version reads up to {SCHEMA_VERSION}). Update the app; the file was not changed.",
            reason=Reason(
                "ledger.newer_schema",
                {"file": path.name, "schema": version, "supported": SCHEMA_VERSION},
            ),
        )
    for number in range(version + 1, target + 1):
        conn.execute("BEGIN IMMEDIATE")
        try:
            if number == 1:
                conn.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                conn.execute("INSERT INTO schema_version VALUES (0)")
            for statement in _statements(MIGRATIONS[number - 1]):
                conn.execute(statement)
            conn.execute("UPDATE schema_version SET version = ?", (number,))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise


def _statements(script: str) -> list[str]:
    """Split a migration into statements (triggers keep their inner ``;``)."""
    statements: list[str] = []
    buffer = ""
    for line in script.strip().splitlines():
        stripped = line.split("--", 1)[0].rstrip()
        if not stripped:
            continue
        buffer += stripped + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        statements.append(buffer.strip())
    return statements
