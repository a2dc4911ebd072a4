"""The ledger: the journal's states and history, the scrubbed audit and its search,
content-addressed receipts and batches on every backend (the shared ``ledger`` fixture and
:func:`~tests.ledger_backends.opened_ledger`); what only the SQLite file has (migrations of the
file, WAL, file modes, the append-only triggers, receipt files) on real SQLite files."""

from __future__ import annotations

import sqlite3
import sys
from datetime import timedelta
from decimal import Decimal
from pathlib import Path

import pytest

from tests.ledger_backends import opened_ledger
from treasury_app.ledger import Ledger, LedgerVersionError, open_ledger
from treasury_app.ledger.audit import REDACTED
from treasury_app.ledger.db import MIGRATIONS, SCHEMA_VERSION, connect, migrate
from treasury_app.ledger.journal import DuplicateIntent, EntryKind, EntryState, NewEntry
from treasury_app.ledger.receipts import ReceiptError

POSIX_MODES = sys.platform != "win32"  # Windows ignores modes: ACLs (test_private_files.py)

PDF = b"%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"


def new(key: str = "K1", amount: str = "10.50", payee: str = "a@b.com.br") -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=key,
        request={"pixKey": payee, "payment": {"currency": "BRL", "amount": Decimal(amount)}},
        payee_detail=payee,
    )


async def settled(ledger: Ledger, e2e: str, amount: str = "1.00") -> int:
    """A payment journaled, sent and settled (the bank's ``e2e``): its entry's id."""
    entry = await ledger.journal.create(new(key=f"K-{e2e}", amount=amount, payee=f"{e2e}@b.com.br"))
    await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, end_to_end_id=e2e
    )
    return entry.id


def test_a_new_file_is_at_the_current_version_wal_and_private(tmp_path: Path) -> None:
    ledger = open_ledger(tmp_path / "p.sqlite3", profile="p")
    version = ledger.conn.execute("SELECT version FROM schema_version").fetchone()[0]
    mode = ledger.conn.execute("PRAGMA journal_mode").fetchone()[0]
    ledger.close_now()
    assert version == SCHEMA_VERSION == len(MIGRATIONS)
    assert mode == "wal"
    if POSIX_MODES:
        assert (tmp_path / "p.sqlite3").stat().st_mode & 0o777 == 0o600


async def test_a_version_1_file_is_upgraded_keeping_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, path, target=1)  # a file written by the first release
    conn.execute(
        "INSERT INTO journal (kind, amount, idempotency_key, request_json, state, created_at,"
        " updated_at, created_by, profile) VALUES ('PIX_KEY', '5.00', 'OLD1', '{}', 'ACCEPTED',"
        " 't', 't', 'u', 'p')"
    )
    assert conn.execute("SELECT version FROM schema_version").fetchone()[0] == 1
    conn.close()
    ledger = open_ledger(path, profile="p")
    try:
        version = ledger.conn.execute("SELECT version FROM schema_version").fetchone()[0]
        assert version == SCHEMA_VERSION  # every migration since version 1 ran
        assert await ledger.journal.by_key("OLD1") is not None
        assert await ledger.receipts.all() == []  # the table version 2 added is there
        assert await ledger.batches.get("B1") is None  # and the one version 3 added
        old = await ledger.journal.by_key("OLD1")
        assert old is not None and old.creditor_name is None  # the column version 4 added
        await ledger.journal.update(old.id, EntryState.ACCEPTED, creditor_name="Fulano Ltda")
        assert (await ledger.journal.named_payments(old.payee_detail))[
            0
        ].creditor_name == "Fulano Ltda"
    finally:
        await ledger.close()


async def test_batches_are_kept_and_matched_by_rows_or_file(
    ledger_backend: str, tmp_path: Path
) -> None:
    async with opened_ledger(ledger_backend, tmp_path, profile="p", user="maria") as ledger:
        first = await ledger.batches.record(
            "B1", signature="rows-a", rows=5, total=Decimal("4260.40"), file_sha256="file-1"
        )
        assert (first.created_by, first.rows, first.total) == ("maria", 5, Decimal("4260.40"))
        again = await ledger.batches.record("B1", signature="other", rows=1, total=Decimal("1.00"))
        assert again == first  # the first record stays
        await ledger.batches.record("B2", signature="rows-b", rows=2, total=Decimal("10.00"))
        hour_ago = ledger.clock() - timedelta(hours=1)
        by_rows = await ledger.batches.matching(
            signature="rows-a", file_sha256=None, since=hour_ago
        )
        by_file = await ledger.batches.matching(signature="x", file_sha256="file-1", since=hour_ago)
        assert [b.id for b in by_rows] == [b.id for b in by_file] == ["B1"]
        assert await ledger.batches.matching(signature="x", file_sha256=None, since=hour_ago) == []
        future = ledger.clock() + timedelta(hours=1)
        assert (
            await ledger.batches.matching(signature="rows-a", file_sha256=None, since=future) == []
        )


def test_a_file_from_a_newer_version_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    connect(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE schema_version SET version = 99")
    before = path.read_bytes()
    with pytest.raises(LedgerVersionError, match="newer version"):
        open_ledger(path, profile="p")
    assert path.read_bytes() == before


async def test_journal_states_history_and_duplicates(ledger_backend: str, tmp_path: Path) -> None:
    async with opened_ledger(ledger_backend, tmp_path, profile="p", user="maria") as ledger:
        await _journal_states_history_and_duplicates(ledger)


async def _journal_states_history_and_duplicates(ledger: Ledger) -> None:
    entry = await ledger.journal.create(new())
    assert entry.state == EntryState.PREPARED and entry.unresolved
    assert entry.created_by == "maria" and entry.profile == "p"
    assert entry.request()["payment"]["amount"] == Decimal("10.50")
    with pytest.raises(DuplicateIntent) as duplicate:
        await ledger.journal.create(new())
    assert duplicate.value.entry.id == entry.id
    await ledger.journal.update(entry.id, EntryState.SENT)
    await ledger.journal.update(entry.id, EntryState.UNKNOWN, error="timeout")
    assert [e.id for e in await ledger.journal.unresolved()] == [entry.id]
    done = await ledger.journal.update(
        entry.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, end_to_end_id="E1"
    )
    assert done.final and done.end_to_end_id == "E1" and done.error is None
    assert await ledger.journal.unresolved() == [] and await ledger.journal.open_entries() == []
    states = [h.state for h in await ledger.journal.history(entry.id)]
    assert states == [
        EntryState.PREPARED,
        EntryState.SENT,
        EntryState.UNKNOWN,
        EntryState.ACCEPTED,
    ]
    assert [
        e.id for e in await ledger.journal.same_payee_since("a@b.com.br", Decimal("10.50"))
    ] == [entry.id]
    assert await ledger.journal.same_payee_since("a@b.com.br", Decimal("10.51")) == []


async def test_a_journaled_entry_survives_a_crash_of_the_process(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    ledger = open_ledger(path, profile="p")
    await ledger.journal.create(new("K2"))
    # no close(): another process (the restarted app) reads it at once
    other = open_ledger(path, profile="p")
    assert await other.journal.by_key("K2") is not None
    await other.close()
    await ledger.close()


SECRET_DETAILS = {
    "client_secret": "s3cr3t-value",
    "nested": {"pfx_password": "pw-value", "url": "https://x"},
    "headers": [{"Authorization": "Bearer tok-value"}],
}


async def test_the_audit_scrubs_secrets(ledger_backend: str, tmp_path: Path) -> None:
    async with opened_ledger(ledger_backend, tmp_path, profile="p", user="joao") as ledger:
        await ledger.audit.record("profile.save", "ok", details=SECRET_DETAILS)
        (row,) = await ledger.audit.entries(action="profile")
    assert row.os_user == "joao" and row.profile == "p"
    assert row.details == {
        "client_secret": REDACTED,
        "nested": {"pfx_password": REDACTED, "url": "https://x"},
        "headers": [{"Authorization": REDACTED}],
    }


async def test_the_audit_file_is_append_only_and_holds_no_secret(tmp_path: Path) -> None:
    ledger = open_ledger(tmp_path / "a.sqlite3", profile="p", user="joao")
    await ledger.audit.record("profile.save", "ok", details=SECRET_DETAILS)
    (row,) = await ledger.audit.entries(action="profile")
    assert row.os_user == "joao" and row.profile == "p"
    assert row.details["nested"]["url"] == "https://x"
    raw = (tmp_path / "a.sqlite3").read_bytes() + (tmp_path / "a.sqlite3-wal").read_bytes()
    for secret in (b"s3cr3t-value", b"pw-value", b"tok-value"):
        assert secret not in raw
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        ledger.conn.execute("UPDATE audit SET outcome = 'x'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        ledger.conn.execute("DELETE FROM audit")
    await ledger.close()


async def test_receipts_are_stored_once_by_content_and_checked_on_read(ledger: Ledger) -> None:
    e1, e2, e3 = [await settled(ledger, e2e) for e2e in ("E1", "E2", "E3")]
    first = await ledger.receipts.save(
        PDF, kind="PIX", bank_id="E1", entry_id=e1, amount=Decimal("1.00")
    )
    again = await ledger.receipts.save(PDF, kind="PIX", bank_id="E1", entry_id=e1)
    other = await ledger.receipts.save(PDF, kind="PIX", bank_id="E2", entry_id=e2)
    assert first.id == again.id and first.id != other.id  # the same payment's receipt once
    assert first.sha256 == other.sha256  # equal content
    assert (first.amount, first.size) == (Decimal("1.00"), len(PDF))
    assert await ledger.receipts.find("PIX", "E1") == first
    assert await ledger.receipts.read(first) == PDF
    assert await ledger.receipts.read(other) == PDF
    with pytest.raises(ReceiptError, match=r"^receipt\.not_pdf$"):
        await ledger.receipts.save(b"<html>", kind="PIX", bank_id="E3", entry_id=e3)
    assert await ledger.receipts.find("PIX", "E3") is None


async def test_receipt_files_are_one_per_content_and_checked_on_read(tmp_path: Path) -> None:
    ledger = open_ledger(tmp_path / "r.sqlite3", profile="p")
    first = await ledger.receipts.save(PDF, kind="PIX", bank_id="E1", amount=Decimal("1.00"))
    again = await ledger.receipts.save(PDF, kind="PIX", bank_id="E1")
    other = await ledger.receipts.save(PDF, kind="PIX", bank_id="E2")
    assert first.id == again.id and first.path == other.path  # one file for equal content
    assert len(list((tmp_path / "r-receipts").rglob("*.pdf"))) == 1
    assert await ledger.receipts.read(first) == PDF
    first.path.write_bytes(PDF + b"tampered")
    with pytest.raises(ReceiptError) as damaged:
        await ledger.receipts.read(first)
    assert (damaged.value.code, damaged.value.params) == (
        "receipt.damaged",
        {"receipt": first.sha256[:12]},
    )
    first.path.unlink()
    with pytest.raises(ReceiptError) as missing:
        await ledger.receipts.read(first)
    assert (missing.value.code, missing.value.params) == (
        "receipt.missing",
        {"receipt": first.sha256[:12]},
    )
    with pytest.raises(ReceiptError, match=r"^receipt\.not_pdf$"):
        await ledger.receipts.save(b"<html>", kind="PIX", bank_id="E3")
    await ledger.close()


async def test_the_audit_is_searched_by_period_action_and_text_and_paged(ledger: Ledger) -> None:
    audit = ledger.audit
    # What a new ledger holds already (a team database: the row of its creation).
    existing = await audit.search(limit=1000)
    start = ledger.clock() - timedelta(milliseconds=100)  # before every row of this test
    for i in range(450):
        await audit.record(
            "payout.send" if i % 3 else "billet.pay",
            "accepted",
            reference=f"KEY{i:04d}",
            amount=Decimal("1.00") + i,
            details={"payee": "Gráfica Expressa" if i == 7 else "outro"},
        )
    total = 450 + len(existing)
    assert await audit.count() == total and await audit.count(action="billet") == 150
    assert await audit.actions() == sorted(
        {"billet.pay", "payout.send", *(row.action for row in existing)}
    )
    pages = [await audit.search(offset=o, limit=200) for o in (0, 200, 400)]
    assert [len(p) for p in pages] == [200, 200, total - 400]
    ids = [row.id for page in pages for row in page]
    assert ids == sorted(ids, reverse=True) and len(set(ids)) == total
    (found,) = await audit.search(text="gráfica expressa")
    assert found.reference == "KEY0007"
    assert await audit.count(text="KEY0042 accepted") == 1
    assert await audit.count(since=start) == 450
    assert await audit.count(until=start) == len(existing)
    assert await audit.count(since=ledger.clock() + timedelta(minutes=5)) == 0


@pytest.mark.skipif(not POSIX_MODES, reason="POSIX modes")
async def test_receipts_are_private(tmp_path: Path) -> None:
    import os
    import stat

    old = os.umask(0o022)  # a usual desktop umask: folders 755 and files 644 by default
    try:
        ledger = open_ledger(tmp_path / "r.sqlite3", profile="p")
        receipt = await ledger.receipts.save(b"%PDF-1.4 receipt", kind="PIX", bank_id="E1")
    finally:
        os.umask(old)
    try:
        assert stat.S_IMODE(ledger.receipts.directory.stat().st_mode) == 0o700
        assert stat.S_IMODE(receipt.path.parent.stat().st_mode) == 0o700
        assert stat.S_IMODE(receipt.path.stat().st_mode) == 0o600
    finally:
        await ledger.close()


async def test_audit_search_words_match_literally_on_both_backends(ledger: Ledger) -> None:
    await ledger.audit.record("payout.send", "ok", reference="100%_paid")
    await ledger.audit.record("payout.send", "ok", reference="100 percent paid")
    await ledger.audit.record("payoutXsend", "ok", reference="not under payout")
    found = await ledger.audit.search(text="100%_")
    assert [row.reference for row in found] == ["100%_paid"]
    assert await ledger.audit.count(text="%") == 1
    assert {row.action for row in await ledger.audit.search(action="payout")} == {"payout.send"}
    assert {row.action for row in await ledger.audit.entries(action="payout")} == {"payout.send"}


async def test_a_payments_receipt_stays_as_first_saved_on_both_backends(ledger: Ledger) -> None:
    paid = await settled(ledger, "E77")
    first = await ledger.receipts.save(
        b"%PDF-1.4 first\n", kind="PIX", bank_id="E77", entry_id=paid
    )
    again = await ledger.receipts.save(
        b"%PDF-1.4 fetched again\n", kind="PIX", bank_id="E77", entry_id=paid
    )
    assert again.sha256 == first.sha256
    assert await ledger.receipts.read(again) == b"%PDF-1.4 first\n"
