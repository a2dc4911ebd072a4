"""The account's balance and statement: what the statement tab shows and exports.

:class:`StatementService` reads the Accounts API (``/accounts/balances`` and
``/accounts/transactions``). The statement comes page by page (:meth:`StatementService.pages`)
so that a lazy Qt model can ask for more rows only when the view scrolls; the same entries
can be summed (:func:`summarize`) and written as CSV (:func:`export_csv`).

CSV format (one header line, then one line per entry, in the order given), in either of the
two formats of :mod:`treasury_app.services.exports` (machine-readable unless asked otherwise):

* Lines ended by CRLF as RFC 4180 says, fields separated by ``;`` (the list separator of
  spreadsheets set up for Brazil). A field holding ``;``, quotes or line breaks is quoted by
  the ``csv`` module, so any description survives the round trip.
* Machine-readable: UTF-8 (optionally with a byte-order mark), ``created_at`` as ISO-8601 with
  Brasília's offset (``2026-11-18T10:00:00-03:00``), amounts with a dot and exactly two places
  (``1234.56``, ``-0.99``). For Excel: UTF-8 with a byte-order mark, ``created_at`` as
  ``18/11/2026 10:00`` in Brasília time, amounts with a decimal comma (``1234,56``), long digit
  strings kept as text.
* ``credit_debit``: ``CREDIT`` or ``DEBIT``; ``amount``: the amount as the bank reports it
  (never negative); ``signed_amount``: the same amount with the sign of its effect on the
  balance (debits negative), so a spreadsheet can simply sum the column. Amounts are written
  from ``Decimal`` digits, never through ``float``. ``balance_after``: the balance after the
  entry (empty when the bank did not send it).
* Text written by third parties (description, counterparty name) that starts with ``=``,
  ``+``, ``-``, ``@``, a tab or a carriage return is prefixed with ``'`` so that a spreadsheet
  does not run it as a formula (CSV injection). Numeric columns are never altered.
* The header and the codes (``CREDIT``, ``PIX``) are these names for programs; the UI gives a
  file for people (its Excel format) a header and the codes in words of its language
  (``header`` and ``word`` of :func:`export_csv`): this layer has no words.
"""

from __future__ import annotations

import codecs
import datetime as dt
import os
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import IO

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import CreditDebitType, Transaction, TransactionType
from treasury_app.api.errors import ResponseFormatError
from treasury_app.domain.errors import RuleError
from treasury_app.services.exports import (
    CSV_DELIMITER,
    ExportFormat,
    amount_cell,
    datetime_cell,
    spreadsheet_text,
    table_text,
    text_cell,
)
from treasury_app.services.files import replace_file

__all__ = [
    "CODE_COLUMNS",
    "CSV_COLUMNS",
    "CSV_DELIMITER",
    "MAX_PAGE_SIZE",
    "BalanceView",
    "StatementService",
    "StatementSummary",
    "csv_text",
    "export_csv",
    "spreadsheet_text",
    "summarize",
]

MAX_PAGE_SIZE = 1000
"""The largest ``perPage`` the Accounts API accepts."""
DEFAULT_PAGE_SIZE = 100
MAX_PAGES = 100_000
"""A bank answering nonsense page counts must not make the iteration endless."""

CSV_COLUMNS = (
    "id",
    "created_at",
    "credit_debit",
    "transaction_type",
    "amount",
    "signed_amount",
    "balance_after",
    "description",
    "counterparty_name",
    "counterparty_document",
    "end_to_end_id",
)
"""The header line of :func:`export_csv`, in order."""

CODE_COLUMNS = ("credit_debit", "transaction_type")
"""The columns of :data:`CSV_COLUMNS` that hold one of the bank's codes."""

CodeWord = Callable[[str, str], str]
"""``word(column, code)``: a code of one of :data:`CODE_COLUMNS` as a person reads it."""

_ZERO = Decimal("0.00")


@dataclass(frozen=True)
class BalanceView:
    """The account's balance: amounts in reais, ``updated_at`` in UTC (``None`` if unknown).

    ``blocked`` and ``overdraft`` are zero when the bank does not report them."""

    available: Decimal
    blocked: Decimal
    overdraft: Decimal
    updated_at: dt.datetime | None
    currency: str = "BRL"
    branch: str | None = None  # the account itself, as the bank reports it with the balance
    account_number: str | None = None


@dataclass(frozen=True)
class StatementSummary:
    """Totals of a set of statement entries; ``debits`` is a positive total.

    ``net`` is ``credits - debits``. Entries whose direction the app does not know (a value
    the bank may add one day) are counted in ``unclassified`` and left out of the totals."""

    credits: Decimal
    debits: Decimal
    credit_count: int
    debit_count: int
    unclassified: int = 0

    @property
    def net(self) -> Decimal:
        """Credits minus debits: the change of the balance over the entries."""
        return self.credits - self.debits

    @property
    def count(self) -> int:
        """How many entries were summed (unclassified included)."""
        return self.credit_count + self.debit_count + self.unclassified


class StatementQueryError(RuleError):
    """A statement asked for in a way a person can correct (a range that ends before it
    starts, an entry without its id)."""


def _credit_debit(value: CreditDebitType | str | None) -> CreditDebitType | None:
    if value is None:
        return None
    try:
        return CreditDebitType(str(value).upper())
    except ValueError:
        raise ValueError(
            f"Unknown credit/debit filter {value!r}; expected CREDIT or DEBIT."
        ) from None


def _transaction_type(value: TransactionType | str | None) -> TransactionType | None:
    if value is None:
        return None
    try:
        return TransactionType(str(value).upper())
    except ValueError:
        allowed = ", ".join(t.value for t in TransactionType)
        raise ValueError(f"Unknown entry type {value!r}; expected one of {allowed}.") from None


def _check_range(start: dt.date, end: dt.date) -> None:
    for name, value in (("start", start), ("end", end)):
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
            raise TypeError(f"The statement's {name} is a date, not {type(value).__name__}.")
    if end < start:
        raise StatementQueryError("statement.range_reversed", field="end", start=start, end=end)


def _check_page_size(page_size: int) -> None:
    if isinstance(page_size, bool) or not isinstance(page_size, int):
        raise TypeError("The page size is a whole number.")
    if not 1 <= page_size <= MAX_PAGE_SIZE:
        raise ValueError(f"The page size must be between 1 and {MAX_PAGE_SIZE}, not {page_size}.")


class StatementService:
    """Balance and statement of the company's account through the Accounts API."""

    def __init__(self, accounts: AccountsClient) -> None:
        self._accounts = accounts

    async def balance(self) -> BalanceView:
        """The account's current balance (the first item of ``/accounts/balances``)."""
        balances = await self._accounts.get_balances()
        if not balances:
            raise ResponseFormatError("The bank reported no balance for the account.")
        first = balances[0]
        amounts = first.balance_amount
        return BalanceView(
            available=amounts.available,
            blocked=amounts.blocked if amounts.blocked is not None else _ZERO,
            overdraft=amounts.overdraft if amounts.overdraft is not None else _ZERO,
            updated_at=first.updated_at,
            currency=amounts.currency,
            branch=first.branch,
            account_number=first.account_number,
        )

    async def pages(
        self,
        start: dt.date,
        end: dt.date,
        page_size: int = DEFAULT_PAGE_SIZE,
        *,
        credit_debit: CreditDebitType | str | None = None,
        transaction_type: TransactionType | str | None = None,
    ) -> AsyncIterator[list[Transaction]]:
        """The statement from ``start`` to ``end`` (dates, both included), newest first, one
        list per page of the bank; each page is fetched only when the iteration asks for it.

        ``credit_debit`` keeps only credits or debits, ``transaction_type`` one type of entry
        (both filtered by the bank). Arguments are checked before anything is sent
        (``ValueError``/``TypeError``). An entry already yielded is never yielded again: one
        posted while paging pushes older entries one place down, so a page may repeat the
        last entry of the page before; such repeats are dropped (a page may then be shorter
        than ``page_size``, and a page made only of repeats is skipped). Bank refusals raise
        the typed :class:`~treasury_app.api.errors.ApiError` of the answer.
        """
        _check_range(start, end)
        _check_page_size(page_size)
        direction = _credit_debit(credit_debit)
        kind = _transaction_type(transaction_type)
        seen: set[int | str] = set()
        page = 1
        total_pages = 1
        while page <= total_pages and page <= MAX_PAGES:
            result = await self._accounts.list_transactions(
                start_date=start,
                end_date=end,
                page=page,
                per_page=page_size,
                credit_debit_type=direction,
                transaction_type=kind,
            )
            if not result.items:
                return
            total_pages = result.total_pages  # the statement may grow while we read it
            fresh = [entry for entry in result.items if entry.id not in seen]
            seen.update(entry.id for entry in fresh)
            if fresh:
                yield fresh
            page += 1

    async def entries(
        self,
        start: dt.date,
        end: dt.date,
        *,
        page_size: int = MAX_PAGE_SIZE,
        credit_debit: CreditDebitType | str | None = None,
        transaction_type: TransactionType | str | None = None,
    ) -> list[Transaction]:
        """Every entry of :meth:`pages` in one list (for exports and totals)."""
        result: list[Transaction] = []
        async for page in self.pages(
            start,
            end,
            page_size,
            credit_debit=credit_debit,
            transaction_type=transaction_type,
        ):
            result.extend(page)
        return result

    async def entry(self, transaction_id: int | str) -> Transaction:
        """One statement entry by its id (``NotFound`` if the bank has none)."""
        if isinstance(transaction_id, str) and not transaction_id.strip():
            raise StatementQueryError("statement.entry_id_missing", field="transaction_id")
        return await self._accounts.get_transaction(transaction_id)

    @staticmethod
    def summary(entries: Iterable[Transaction]) -> StatementSummary:
        """Totals of credits and debits of ``entries`` (see :func:`summarize`)."""
        return summarize(entries)

    @staticmethod
    def export_csv(
        entries: Iterable[Transaction],
        destination: str | os.PathLike[str] | IO[str],
        *,
        bom: bool = False,
        export_format: ExportFormat = ExportFormat.MACHINE,
    ) -> int:
        """Write ``entries`` as CSV to a path or a text stream (see :func:`export_csv`)."""
        return export_csv(entries, destination, bom=bom, export_format=export_format)


def summarize(entries: Iterable[Transaction]) -> StatementSummary:
    """Totals of credits and of debits of ``entries``, exactly (``Decimal``)."""
    credits = debits = _ZERO
    credit_count = debit_count = unclassified = 0
    for entry in entries:
        if entry.credit_debit_type == CreditDebitType.CREDIT:
            credits += entry.amount
            credit_count += 1
        elif entry.credit_debit_type == CreditDebitType.DEBIT:
            debits += entry.amount
            debit_count += 1
        else:
            unclassified += 1
    return StatementSummary(credits, debits, credit_count, debit_count, unclassified)


def _signed(entry: Transaction) -> Decimal | None:
    if entry.credit_debit_type == CreditDebitType.DEBIT:
        return -entry.amount
    if entry.credit_debit_type == CreditDebitType.CREDIT:
        return entry.amount
    return None


def _row(
    entry: Transaction, export_format: ExportFormat, word: CodeWord | None = None
) -> list[str]:
    counterparty = entry.counterparty

    def text(value: str | None) -> str:
        return text_cell(value, export_format)

    def money(value: Decimal | None) -> str:
        return amount_cell(value, export_format)

    def code(column: str, value: object) -> str:
        raw = str(getattr(value, "value", value)) if value is not None else ""
        return text(word(column, raw) if word is not None and raw else raw)

    # Every text column is defused, the bank's identifiers and types included: a hostile or
    # broken answer must not become a spreadsheet formula.
    return [
        text(str(entry.id)),
        datetime_cell(entry.created_at, export_format),
        code("credit_debit", entry.credit_debit_type),
        code("transaction_type", entry.transaction_type),
        money(entry.amount),
        money(_signed(entry)),
        money(entry.balance_after),
        text(entry.description),
        text(counterparty.name if counterparty else None),
        text(counterparty.document if counterparty else None),
        text(entry.end_to_end_id),
    ]


def _text(
    entries: Iterable[Transaction],
    export_format: ExportFormat,
    header: Sequence[str] | None = None,
    word: CodeWord | None = None,
) -> tuple[str, int]:
    """The CSV text of ``entries`` and how many they were."""
    if header is not None and len(header) != len(CSV_COLUMNS):
        raise ValueError(f"a statement header has {len(CSV_COLUMNS)} columns")
    rows = (_row(entry, export_format, word) for entry in entries)
    return table_text(CSV_COLUMNS if header is None else header, rows)


def export_csv(
    entries: Iterable[Transaction],
    destination: str | os.PathLike[str] | IO[str],
    *,
    bom: bool = False,
    export_format: ExportFormat = ExportFormat.MACHINE,
    header: Sequence[str] | None = None,
    word: CodeWord | None = None,
) -> int:
    """Write ``entries`` as CSV (format in the module's notes) and return how many were
    written. ``header`` replaces :data:`CSV_COLUMNS` (same columns, same order) and ``word``
    writes the codes of :data:`CODE_COLUMNS` as words: a file for people.

    ``destination`` is a path (the file is replaced if it exists, and only appears complete:
    see :func:`~treasury_app.services.files.replace_file`, which also says when another
    program holds it open) or an open text stream (opened with ``newline=""``; it is not
    closed). ``bom`` starts a machine-readable file with the UTF-8 byte-order mark; a file for
    Excel always has one.
    """
    text, count = _text(entries, export_format, header, word)
    bom = bom or export_format == ExportFormat.EXCEL
    if isinstance(destination, str | os.PathLike):
        replace_file(destination, text.encode("utf-8-sig" if bom else "utf-8"))
        return count
    if bom:
        destination.write(codecs.BOM_UTF8.decode("utf-8"))
    destination.write(text)
    return count


def csv_text(
    entries: Iterable[Transaction], export_format: ExportFormat = ExportFormat.MACHINE
) -> str:
    """The CSV of ``entries`` as one string (for the clipboard)."""
    return _text(entries, export_format)[0]
