"""A supplier's statement of account (issue 36): every payment to a registered payee's keys
and accounts over a period, as one ``.zip`` a treasury desk sends to the supplier's
accountant — a CSV written as the app's other exports are (:mod:`treasury_app.services.
exports`: Excel's dialect, Brasília times) with the payee and the period on its first lines
and the totals on its last, and the receipt PDFs the ledger kept for those payments beside it.

The words of the file (its headers, a payment's state) are the UI's: :class:`StatementWords`
carries them in; this module only decides what goes where. The payments are
:meth:`~treasury_app.services.payees.PayeeService.payments_of`'s, so a refused payment (no
money moved) is not in a statement, as it is not in the payee's history.
"""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import re
import unicodedata
import zipfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

from treasury_app.api.accounts.models import is_failed_status
from treasury_app.domain.clock import brasilia_date, parse_instant
from treasury_app.domain.documents import format_cnpj, format_cpf
from treasury_app.domain.errors import RuleError
from treasury_app.domain.payees import Payee
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.ledger.receipts import Receipt, ReceiptError
from treasury_app.services.exports import (
    ExportFormat,
    amount_cell,
    date_cell,
    datetime_cell,
    encode,
    table_text,
    text_cell,
)
from treasury_app.services.files import replace_file
from treasury_app.services.payees import PayeeService

__all__ = [
    "COLUMNS",
    "LABELS",
    "PayeeStatement",
    "StatementLine",
    "StatementWords",
    "StatementWritten",
    "read_statement",
    "safe_file_name",
    "statement_csv",
    "statement_name",
    "write_statement",
]

COLUMNS = (
    "date",
    "amount",
    "destination",
    "state",
    "description",
    "end_to_end_id",
    "reference",
    "receipt",
)
"""The payments table's columns, in order (:attr:`StatementWords.columns` words them)."""
LABELS = (
    "title",
    "payee",
    "document",
    "period",
    "made_at",
    "payments",
    "settled",
    "on_its_way",
    "receipts",
)
"""The first and last lines' labels (:attr:`StatementWords.labels` words them)."""

_RESERVED = re.compile(r"(CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(\..*)?", re.IGNORECASE)
MAX_NAME = 60


@dataclass(frozen=True)
class StatementLine:
    entry: Entry
    receipt: Receipt | None
    receipt_name: str  # its file's name in the statement, "" when the ledger kept none


@dataclass(frozen=True)
class PayeeStatement:
    """What a statement holds: the payee, the period (``None``: open on that side), the
    payments in it oldest first (a statement reads down in time) and their totals."""

    payee: Payee
    start: date | None
    end: date | None
    made_at: datetime
    lines: tuple[StatementLine, ...]

    @property
    def settled(self) -> Decimal:
        """Paid: accepted, and final at the bank with a success."""
        return sum(
            (line.entry.amount for line in self.lines if _settled(line.entry)), Decimal("0.00")
        )

    @property
    def on_its_way(self) -> Decimal:
        """Sent and not final yet (the bank has not said the last word)."""
        return sum(
            (line.entry.amount for line in self.lines if not line.entry.final), Decimal("0.00")
        )

    @property
    def receipts(self) -> int:
        return sum(1 for line in self.lines if line.receipt is not None)


@dataclass(frozen=True)
class StatementWords:
    """The statement's words in the person's language: a word for each of :data:`COLUMNS`
    and :data:`LABELS`, and how a payment's state, a destination and the period read."""

    columns: Mapping[str, str]
    labels: Mapping[str, str]
    state: Callable[[Entry], str]
    destination: Callable[[str], str]
    period: Callable[[date | None, date | None], str]


@dataclass(frozen=True)
class StatementWritten:
    path: Path
    payments: int
    receipts: int
    missing: tuple[int, ...]  # journal entries whose kept receipt could not be read


async def read_statement(
    service: PayeeService, payee_id: int, start: date | None = None, end: date | None = None
) -> PayeeStatement:
    """The payee's payments made (in Brasília) from ``start`` to ``end``, both included,
    with the receipts the ledger kept for them."""
    if start is not None and end is not None and start > end:
        raise RuleError("statement.period_reversed", field="start", start=start, end=end)
    found = await service.payments_of(payee_id)
    assert found.payee is not None  # payments_of refuses an unknown payee
    lines: list[StatementLine] = []
    for entry in sorted(found.payments, key=lambda e: (payment_day(e), e.created_at, e.id)):
        if not _moved_money(entry):
            continue
        day = payment_day(entry)
        if (start is not None and day < start) or (end is not None and day > end):
            continue
        receipt = await service.ledger.receipts.for_entry(entry.id)
        name = "" if receipt is None else receipt_file_name(entry, day)
        lines.append(StatementLine(entry, receipt, name))
    return PayeeStatement(found.payee, start, end, service.clock(), tuple(lines))


def payment_day(entry: Entry) -> date:
    """The Brasília day a payment left: a scheduled one's pay date (it was journaled weeks
    before), else the day it was journaled and sent."""
    if entry.pay_date is not None:
        return entry.pay_date
    return brasilia_date(parse_instant(entry.created_at))


def _moved_money(entry: Entry) -> bool:
    """Whether ``entry`` is a payment on the statement: sent, and neither refused nor failed
    at the bank (a scheduled payment or one waiting for approval has not left yet)."""
    if entry.state in (EntryState.PREPARED, EntryState.REJECTED):
        return False
    return not (entry.bank_status and is_failed_status(entry.bank_status))


def _settled(entry: Entry) -> bool:
    """Accepted and final at the bank (a failure is not on the statement at all)."""
    return entry.state is EntryState.ACCEPTED and entry.final


def receipt_file_name(entry: Entry, day: date) -> str:
    """A receipt's name in the statement: its day, amount and journal number (two payments of
    one day and amount still get two files): ``comprovante-2026-11-03-1000,00-n17.pdf``."""
    amount = amount_cell(entry.amount, ExportFormat.EXCEL)
    return f"comprovante-{day.isoformat()}-{amount}-n{entry.id}.pdf"


def safe_file_name(text: str, fallback: str = "favorecido") -> str:
    """``text`` as a part of a file name that every system takes (Windows first): accents
    folded, what is not a letter or digit a hyphen (``/:*?"<>|\\`` and control characters
    among them), no reserved device name (``CON``, ``NUL``…), at most :data:`MAX_NAME`
    characters; ``fallback`` when nothing is left."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")[:MAX_NAME].strip("-")
    if not slug:
        return fallback
    return f"{slug}-" if _RESERVED.fullmatch(slug) else slug


def statement_name(statement: PayeeStatement, suffix: str = ".zip") -> str:
    """The file's suggested name: ``extrato-papelaria-central-2026-11-01-a-2026-11-30.zip``."""
    parts = ["extrato", safe_file_name(statement.payee.name)]
    if statement.start is not None:
        parts.append(statement.start.isoformat())
    if statement.end is not None:
        parts += ["a", statement.end.isoformat()]
    return "-".join(parts) + suffix


def _document(document: str) -> str:
    try:
        return format_cpf(document) if len(document) == 11 else format_cnpj(document)
    except ValueError:
        return document


def statement_csv(
    statement: PayeeStatement,
    words: StatementWords,
    export_format: ExportFormat = ExportFormat.EXCEL,
) -> bytes:
    """The statement's CSV: who and which period on the first lines, then one row per
    payment, then the totals — cells written by the exports' helpers, in ``export_format``."""

    def text(value: str) -> str:
        return text_cell(value, export_format)

    label = words.labels
    head: list[Sequence[str]] = [
        [text(label["payee"]), text(statement.payee.name)],
        [text(label["document"]), text(_document(statement.payee.document))],
        [text(label["period"]), text(words.period(statement.start, statement.end))],
        [text(label["made_at"]), datetime_cell(statement.made_at, export_format)],
        [],
        [text(words.columns[column]) for column in COLUMNS],
    ]
    rows = [
        [
            (
                date_cell(line.entry.pay_date, export_format)
                if line.entry.pay_date is not None
                else datetime_cell(line.entry.created_at, export_format)
            ),
            amount_cell(line.entry.amount, export_format),
            text(words.destination(line.entry.payee_detail)),
            text(words.state(line.entry)),
            text(line.entry.description),
            text(line.entry.end_to_end_id or ""),
            text(line.entry.idempotency_key),
            text(line.receipt_name),
        ]
        for line in statement.lines
    ]
    totals: list[Sequence[str]] = [
        [],
        [text(label["payments"]), str(len(statement.lines))],
        [text(label["settled"]), amount_cell(statement.settled, export_format)],
        [text(label["on_its_way"]), amount_cell(statement.on_its_way, export_format)],
        [text(label["receipts"]), str(statement.receipts)],
    ]
    body, _count = table_text([text(label["title"])], [*head, *rows, *totals])
    return encode(body, export_format)


async def write_statement(
    service: PayeeService,
    statement: PayeeStatement,
    words: StatementWords,
    path: str | os.PathLike[str],
    *,
    replace: bool = False,
    export_format: ExportFormat = ExportFormat.EXCEL,
) -> StatementWritten:
    """Write ``statement`` as one ``.zip`` at ``path``: the CSV and the receipts' PDFs, as the
    ledger kept them. An existing file is replaced only when ``replace`` (the person said so
    in the save dialog), else :class:`RuleError` ``statement.file_exists``; the file appears
    whole or not at all (:func:`~treasury_app.services.files.replace_file`)."""
    target = Path(path)
    if not replace and target.exists():
        raise RuleError("statement.file_exists", field="path", file=str(target))
    pdfs: list[tuple[str, bytes]] = []
    missing: list[int] = []
    lines: list[StatementLine] = []
    for line in statement.lines:
        if line.receipt is not None:
            try:
                pdfs.append((line.receipt_name, await service.ledger.receipts.read(line.receipt)))
            except ReceiptError:  # gone or damaged: the row says no receipt, the caller why
                missing.append(line.entry.id)
                line = dataclasses.replace(line, receipt=None, receipt_name="")
        lines.append(line)
    statement = dataclasses.replace(statement, lines=tuple(lines))
    csv_data = statement_csv(statement, words, export_format)
    csv_name = Path(statement_name(statement, ".csv")).name
    await asyncio.to_thread(_write_zip, target, csv_name, csv_data, pdfs)
    return StatementWritten(target, len(statement.lines), len(pdfs), tuple(missing))


def _write_zip(target: Path, csv_name: str, csv_data: bytes, pdfs: list[tuple[str, bytes]]) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(csv_name, csv_data)
        for name, pdf in pdfs:
            archive.writestr(name, pdf)
    replace_file(target, buffer.getvalue())
