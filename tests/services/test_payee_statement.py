"""A supplier's statement of account (issue 36): one .zip with a CSV of every payment to the
payee's keys and accounts (none of another payee's, none refused), its totals, its times in
Brasília whatever the computer's zone, a period of Brasília days, and the receipts' PDFs
byte for byte as the ledger kept them; a file name any Windows takes; no file replaced
unless the person said so."""

from __future__ import annotations

import csv
import datetime as dt
import io
import time
import uuid
import zipfile
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from treasury_app.domain.errors import RuleError
from treasury_app.ledger import FileLedger, open_ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.payee_statement import (
    COLUMNS,
    LABELS,
    StatementWords,
    read_statement,
    safe_file_name,
    statement_name,
    write_statement,
)
from treasury_app.services.payees import PayeeService

KEY = "pix@papelaria.com.br"
OTHER_KEY = "+5511987654321"  # the same payee's second destination
NOW = dt.datetime(2026, 12, 7, 15, 0, tzinfo=dt.UTC)
PDF = b"%PDF-1.4\n% a receipt of the sandbox bank\n%%EOF\n"
WORDS = StatementWords(
    columns={code: code.upper() for code in COLUMNS},
    labels={code: code.upper() for code in LABELS},
    state=lambda entry: {"ACCEPTED": "Settled", "SENT": "Sending"}.get(entry.state.value, "?"),
    destination=lambda detail: f"to {detail}",
    period=lambda start, end: f"{start} .. {end}",
)
FORBIDDEN = set('<>:"/\\|?*') | {chr(code) for code in range(32)}


def paid_at(
    ledger: FileLedger,
    detail: str,
    amount: str,
    state: EntryState,
    at: str,
    note: str = "",
) -> Entry:
    """A payment by key to ``detail`` journaled at ``at`` (UTC, as the journal writes it),
    brought to ``state`` (an accepted one with its end-to-end id)."""
    entry = ledger.journal.sync.create(
        NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal(amount),
            idempotency_key=str(uuid.uuid4()),
            request={"pixKey": detail},
            payee_detail=detail,
            description=note,
        )
    )
    if state is not EntryState.PREPARED:
        final = state in (EntryState.ACCEPTED, EntryState.REJECTED)
        e2e = f"E{entry.id:031d}" if state is EntryState.ACCEPTED else None
        ledger.journal.sync.update(entry.id, state, final=final, end_to_end_id=e2e)
    ledger.conn.execute("UPDATE journal SET created_at = ? WHERE id = ?", (at, entry.id))
    return ledger.journal.sync.get(entry.id)


class Desk:
    def __init__(self, ledger: FileLedger, service: PayeeService, payee_id: int) -> None:
        self.ledger, self.service, self.payee_id = ledger, service, payee_id
        self.settled: Entry | None = None


@pytest.fixture
def computer_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The computer in Tokyo (UTC+9): a time taken from it would be the next day."""
    if hasattr(time, "tzset"):
        monkeypatch.setenv("TZ", "Asia/Tokyo")
        time.tzset()
    try:
        yield
    finally:
        monkeypatch.undo()
        if hasattr(time, "tzset"):
            time.tzset()


@pytest.fixture
async def desk(tmp_path: Path, computer_zone: None) -> AsyncIterator[Desk]:
    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="ana")
    assert isinstance(ledger, FileLedger)
    service = PayeeService(ledger, clock=lambda: NOW)
    payee = await service.save_payee("Papelaria Central", "11.222.333/0001-81")
    await service.add(payee.id, service.key(KEY))
    await service.add(payee.id, service.key(OTHER_KEY))
    other = await service.save_payee("Gráfica Expressa", "12.ABC.345/01DE-35")
    await service.add(other.id, service.key("pix@grafica.com.br"))
    found = Desk(ledger, service, payee.id)
    paid_at(ledger, KEY, "70.00", EntryState.ACCEPTED, "2026-10-31T12:00:00.000Z", "NF 11")
    found.settled = paid_at(
        ledger, KEY, "1000.00", EntryState.ACCEPTED, "2026-11-03T12:00:00.000Z", "NF 12"
    )
    paid_at(ledger, OTHER_KEY, "99.00", EntryState.REJECTED, "2026-11-21T12:00:00.000Z", "NF 13")
    # 02:00 UTC on 1 December: 23:00 on 30 November in Brasília (and 11:00 on the 1st in Tokyo)
    paid_at(ledger, OTHER_KEY, "500.00", EntryState.SENT, "2026-12-01T02:00:00.000Z", "NF 14")
    paid_at(ledger, "pix@grafica.com.br", "5.00", EntryState.ACCEPTED, "2026-11-22T12:00:00.000Z")
    await ledger.receipts.save(
        PDF, kind="PIX", bank_id=found.settled.end_to_end_id or "", entry_id=found.settled.id
    )
    yield found
    ledger.close_now()


def _rows(archive: zipfile.ZipFile) -> list[list[str]]:
    [name] = [n for n in archive.namelist() if n.endswith(".csv")]
    data = archive.read(name)
    assert data.startswith(b"\xef\xbb\xbf")  # Excel reads the accents as UTF-8
    text = data.decode("utf-8-sig")
    assert "\r\n" in text
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))


def _payments(rows: list[list[str]]) -> list[list[str]]:
    start = rows.index([WORDS.columns[c] for c in COLUMNS]) + 1
    end = rows.index([], start)
    return rows[start:end]


def _totals(rows: list[list[str]]) -> dict[str, str]:
    return {row[0]: row[1] for row in rows if len(row) == 2}


async def test_the_zip_holds_this_payees_payments_their_totals_and_receipts(
    desk: Desk, tmp_path: Path
) -> None:
    statement = await read_statement(desk.service, desk.payee_id)
    target = tmp_path / statement_name(statement)
    written = await write_statement(desk.service, statement, WORDS, target)
    assert (written.payments, written.receipts, written.missing) == (3, 1, ())
    assert target.name == "extrato-papelaria-central.zip"
    with zipfile.ZipFile(target) as archive:
        rows = _rows(archive)
        assert desk.settled is not None
        receipt_name = f"comprovante-2026-11-03-1000,00-n{desk.settled.id}.pdf"
        assert sorted(archive.namelist()) == sorted(["extrato-papelaria-central.csv", receipt_name])
        assert archive.read(receipt_name) == PDF  # the bytes the ledger kept
    assert rows[0] == ["TITLE"]
    assert rows[1] == ["PAYEE", "Papelaria Central"]
    assert rows[2] == ["DOCUMENT", "11.222.333/0001-81"]
    assert rows[3] == ["PERIOD", "None .. None"]
    assert rows[4] == ["MADE_AT", "07/12/2026 12:00"]  # Brasília, not Tokyo's 08/12 00:00
    payments = _payments(rows)
    # Oldest first; the refused NF 13 and the other payee's payment are not in it.
    assert [(p[0], p[1], p[2], p[3], p[4]) for p in payments] == [
        ("31/10/2026 09:00", "70,00", f"to {KEY}", "Settled", "NF 11"),
        ("03/11/2026 09:00", "1000,00", f"to {KEY}", "Settled", "NF 12"),
        ("30/11/2026 23:00", "500,00", f"to {OTHER_KEY}", "Sending", "NF 14"),
    ]
    assert payments[1][5] == desk.settled.end_to_end_id
    assert payments[1][6] == desk.settled.idempotency_key
    assert [p[7] for p in payments] == ["", receipt_name, ""]
    assert _totals(rows) == {
        "PAYEE": "Papelaria Central",
        "DOCUMENT": "11.222.333/0001-81",
        "PERIOD": "None .. None",
        "MADE_AT": "07/12/2026 12:00",
        "PAYMENTS": "3",
        "SETTLED": "1070,00",
        "ON_ITS_WAY": "500,00",
        "RECEIPTS": "1",
    }


async def test_the_period_is_of_brasilia_days_both_included(desk: Desk, tmp_path: Path) -> None:
    november = await read_statement(
        desk.service, desk.payee_id, dt.date(2026, 11, 1), dt.date(2026, 11, 30)
    )
    assert [line.entry.amount for line in november.lines] == [Decimal("1000.00"), Decimal("500.00")]
    assert (november.settled, november.on_its_way, november.receipts) == (
        Decimal("1000.00"),
        Decimal("500.00"),
        1,
    )
    assert statement_name(november) == "extrato-papelaria-central-2026-11-01-a-2026-11-30.zip"
    december = await read_statement(desk.service, desk.payee_id, dt.date(2026, 12, 1), None)
    assert december.lines == ()  # 02:00 UTC on the 1st was still 30 November in Brasília
    october = await read_statement(desk.service, desk.payee_id, None, dt.date(2026, 10, 31))
    assert [line.entry.amount for line in october.lines] == [Decimal("70.00")]
    assert october.receipts == 0
    written = await write_statement(desk.service, november, WORDS, tmp_path / "nov.zip")
    with zipfile.ZipFile(written.path) as archive:
        rows = _rows(archive)
        assert len([n for n in archive.namelist() if n.endswith(".pdf")]) == 1
    assert rows[3] == ["PERIOD", "2026-11-01 .. 2026-11-30"]
    assert [p[1] for p in _payments(rows)] == ["1000,00", "500,00"]
    with pytest.raises(RuleError) as refused:
        await read_statement(
            desk.service, desk.payee_id, dt.date(2026, 12, 1), dt.date(2026, 11, 1)
        )
    assert refused.value.code == "statement.period_reversed"


async def test_an_existing_file_is_replaced_only_when_the_person_said_so(
    desk: Desk, tmp_path: Path
) -> None:
    statement = await read_statement(desk.service, desk.payee_id)
    target = tmp_path / "extrato.zip"
    target.write_bytes(b"the accountant's earlier file")
    with pytest.raises(RuleError) as refused:
        await write_statement(desk.service, statement, WORDS, target)
    assert refused.value.code == "statement.file_exists"
    assert target.read_bytes() == b"the accountant's earlier file"
    await write_statement(desk.service, statement, WORDS, target, replace=True)
    assert zipfile.is_zipfile(target)
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no leftovers


async def test_a_receipt_gone_from_the_ledger_is_said_not_listed(
    desk: Desk, tmp_path: Path
) -> None:
    statement = await read_statement(desk.service, desk.payee_id)
    [kept] = [line.receipt for line in statement.lines if line.receipt is not None]
    kept.path.unlink()
    written = await write_statement(desk.service, statement, WORDS, tmp_path / "x.zip")
    assert desk.settled is not None
    assert (written.receipts, written.missing) == (0, (desk.settled.id,))
    with zipfile.ZipFile(written.path) as archive:
        assert [p[7] for p in _payments(_rows(archive))] == ["", "", ""]
        assert _totals(_rows(archive))["RECEIPTS"] == "0"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ('Papelaria "Central"/Filial: 2*?<>|\\', "papelaria-central-filial-2"),
        ("Ação & Cia. Ltda.", "acao-cia-ltda"),
        ("CON", "con-"),
        ("nul", "nul-"),
        ("COM1", "com1-"),
        ("/:*?", "favorecido"),
        ("x" * 200, "x" * 60),
    ],
)
def test_a_payees_name_makes_a_file_name_windows_takes(name: str, expected: str) -> None:
    made = safe_file_name(name)
    assert made == expected
    assert not FORBIDDEN & set(made)
    assert not made.endswith((".", " "))


async def test_a_name_with_reserved_characters_still_gives_a_file(
    desk: Desk, tmp_path: Path
) -> None:
    await desk.service.save_payee(
        'Papelaria "Central"/Filial: 2*?', "11.222.333/0001-81", payee_id=desk.payee_id
    )
    statement = await read_statement(desk.service, desk.payee_id)
    name = statement_name(statement)
    assert name == "extrato-papelaria-central-filial-2.zip"
    assert not FORBIDDEN & set(name)
    written = await write_statement(desk.service, statement, WORDS, tmp_path / name)
    with zipfile.ZipFile(written.path) as archive:
        assert "extrato-papelaria-central-filial-2.csv" in archive.namelist()
        assert _rows(archive)[1] == ["PAYEE", 'Papelaria "Central"/Filial: 2*?']


async def test_only_money_that_moved_is_on_the_statement_each_once(desk: Desk) -> None:
    """Accepted and not final yet: on its way, not settled too. Accepted, then failed at the
    bank: not on it (nothing was debited). Scheduled and not sent: not on it yet. Scheduled
    and sent: on its pay date, not on the day it was journaled weeks before."""
    ledger = desk.ledger
    moving = paid_at(ledger, KEY, "300.00", EntryState.SENT, "2026-11-10T12:00:00.000Z", "NF 20")
    ledger.journal.sync.update(moving.id, EntryState.ACCEPTED, bank_status="PROCESSING")
    failed = paid_at(ledger, KEY, "400.00", EntryState.SENT, "2026-11-11T12:00:00.000Z", "NF 21")
    ledger.journal.sync.update(failed.id, EntryState.ACCEPTED, bank_status="CANCELED", final=True)
    waiting = paid_at(ledger, KEY, "600.00", EntryState.PREPARED, "2026-11-12T12:00:00.000Z")
    scheduled = paid_at(ledger, KEY, "250.00", EntryState.ACCEPTED, "2026-10-20T12:00:00.000Z")
    for entry, day in ((waiting, "2026-12-05"), (scheduled, "2026-11-05")):
        ledger.conn.execute("UPDATE journal SET pay_date = ? WHERE id = ?", (day, entry.id))

    november = await read_statement(
        desk.service, desk.payee_id, dt.date(2026, 11, 1), dt.date(2026, 11, 30)
    )
    shown = {line.entry.id for line in november.lines}
    assert moving.id in shown and scheduled.id in shown
    assert failed.id not in shown and waiting.id not in shown
    # settled: NF 12 (1000,00) and the scheduled one (250,00); on its way: NF 20 and NF 14
    assert november.settled == Decimal("1250.00")
    assert november.on_its_way == Decimal("800.00")
