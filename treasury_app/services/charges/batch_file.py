"""The batch file of charges with a due date: :func:`parse_batch_csv` reads it, row by row.

One charge with a due date (``cobv``) per row, in these columns::

    nome;cpf_cnpj;valor;vencimento;descricao

* ``nome`` — the debtor's name (required, at most 200 characters).
* ``cpf_cnpj`` — the debtor's CPF or CNPJ, with or without its mask; check digits are checked.
* ``valor`` — the amount in reais, greater than zero: ``1.234,56``, ``1234,56`` or ``1234.56``
  (with ``,`` as separator, an amount with a comma must be quoted: ``"1.234,56"``).
* ``vencimento`` — the due date, ``DD/MM/YYYY`` or ``YYYY-MM-DD``.
* ``descricao`` — optional text shown to the payer (at most 140 characters).

The separator is ``;`` when the first line has one, else a tab when it has one, else ``,``.
A first line naming the columns (``nome;cpf_cnpj;valor;vencimento[;descricao]``, in any order;
``documento``, ``cpf``, ``cnpj`` and ``cpf/cnpj`` also name the document column) is a header;
without one the columns are read in the order above. Blank lines are skipped; a UTF-8 byte
order mark is ignored. Every row is read before anything is reported: the result lists every
bad row with its line number (1-based, as a text editor counts) and its column.

The lines themselves come from :mod:`treasury_app.services.csv_input`; sending the rows as a
batch is :mod:`.batches`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from treasury_app.domain import identifiers
from treasury_app.domain.documents import normalize_document
from treasury_app.domain.errors import DomainError, Reason, RuleError
from treasury_app.domain.money import parse_brl, to_api_string
from treasury_app.services.charges.checks import MAX_DESCRIPTION, MAX_NAME
from treasury_app.services.csv_input import (
    MAX_LINE_ERRORS,
    TOO_MANY_ERRORS,
    CsvLineError,
    ReadControl,
    csv_records,
)

__all__ = [
    "BATCH_COLUMNS",
    "MAX_BATCH_MEMBERS",
    "BatchParseResult",
    "BatchRow",
    "BatchRowError",
    "check_batch_txids",
    "parse_batch_csv",
]

MAX_BATCH_MEMBERS = 5000

_BR_DATE_RE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")
_ISO_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_SPLIT_UNITS_RE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})*")
_SPLIT_CENTS_RE = re.compile(r"[0-9]{1,2}")

BATCH_COLUMNS = ("nome", "cpf_cnpj", "valor", "vencimento", "descricao")
_REQUIRED_COLUMNS = BATCH_COLUMNS[:4]
_COLUMN_ALIASES = {
    "nome": "nome",
    "cpf_cnpj": "cpf_cnpj",
    "cpfcnpj": "cpf_cnpj",
    "documento": "cpf_cnpj",
    "cpf": "cpf_cnpj",
    "cnpj": "cpf_cnpj",
    "valor": "valor",
    "vencimento": "vencimento",
    "data_de_vencimento": "vencimento",
    "data_vencimento": "vencimento",
    "descricao": "descricao",
}


@dataclass(frozen=True)
class BatchRow:
    """One good row of a batch file: a charge with a due date to create."""

    line: int
    name: str
    document: str
    amount: Decimal
    due_date: date
    description: str | None = None


@dataclass(frozen=True)
class BatchRowError:
    """Why one cell (or one row, when ``column`` is empty) of a batch file was refused.
    ``column_number`` is 1-based (0 when the row as a whole is at fault). ``whole_file``: the
    error refuses the file as a whole (too many charges or errors, a quote left open): no
    line may be left out to send the others."""

    line: int
    column: str
    reason: Reason
    column_number: int = 0
    whole_file: bool = False

    def __str__(self) -> str:  # for logs: the reason's code, never a sentence
        where = f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"
        return f"{where}: {self.reason}"


@dataclass(frozen=True)
class BatchParseResult:
    """Every good row and every error of a batch file."""

    rows: tuple[BatchRow, ...]
    errors: tuple[BatchRowError, ...]
    separator: str
    has_header: bool

    @property
    def ok(self) -> bool:
        """Whether the file can be sent: rows and no error."""
        return bool(self.rows) and not self.errors

    @property
    def total(self) -> Decimal:
        """The sum of the good rows' amounts."""
        return sum((row.amount for row in self.rows), Decimal("0.00"))

    @property
    def bad_lines(self) -> tuple[int, ...]:
        """The line numbers with at least one error, in order."""
        return tuple(sorted({error.line for error in self.errors}))


def _column_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.strip().lower())
    ascii_text = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "_", ascii_text).strip("_")


def _separator(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    if ";" in first:
        return ";"
    if "\t" in first:
        return "\t"
    return ","


def _parse_due_date(text: str) -> date:
    match = _BR_DATE_RE.fullmatch(text)
    if match:
        day, month, year = (int(part) for part in match.groups())
    else:
        match = _ISO_DATE_RE.fullmatch(text)
        if not match:
            raise RuleError("charge_batch.due_date_format")
        year, month, day = (int(part) for part in match.groups())
    try:
        return date(year, month, day)
    except ValueError:
        raise RuleError("charge_batch.not_a_date", text=text) from None


def _parse_row(
    line: int,
    cells: Mapping[str, tuple[int, str]],
    today: date | None,
    errors: list[BatchRowError],
) -> BatchRow | None:
    """One row's cells by column name -> a row, or errors (every bad cell, not the first)."""
    found = len(errors)

    def fail(column: str, code: str, **params: Any) -> None:
        errors.append(BatchRowError(line, column, Reason(code, params), cells[column][0]))

    def refused(column: str, error: RuleError) -> None:
        fail(column, error.code, **error.params)

    name = cells["nome"][1]
    if not name:
        fail("nome", "charge_batch.name_missing")
    elif len(name) > MAX_NAME:
        fail("nome", "charge_batch.name_too_long", max=MAX_NAME)
    document = ""
    try:
        document = normalize_document(cells["cpf_cnpj"][1])
    except DomainError as error:
        refused("cpf_cnpj", error)
    amount = Decimal(0)
    try:
        amount = parse_brl(cells["valor"][1])
        to_api_string(amount)
        if amount <= 0:
            fail("valor", "charge_batch.amount_not_positive")
    except DomainError as error:
        refused("valor", error)
    due = date.min
    raw_due = cells["vencimento"][1]
    if not raw_due:
        fail("vencimento", "charge_batch.due_date_missing")
    else:
        try:
            due = _parse_due_date(raw_due)
            if today is not None and due < today:
                fail("vencimento", "charge_batch.due_date_passed", due=due)
        except RuleError as error:
            refused("vencimento", error)
    description = cells["descricao"][1] if "descricao" in cells else ""
    if len(description) > MAX_DESCRIPTION:
        fail("descricao", "charge_batch.description_too_long", max=MAX_DESCRIPTION)
    if len(errors) > found:
        return None
    return BatchRow(line, name, document, amount, due, description or None)


def _read_header(line: int, cells: list[str], errors: list[BatchRowError]) -> dict[str, int] | None:
    """Column name -> index from a header row, or ``None`` (and errors) if unusable."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(cells):
        key = _COLUMN_ALIASES.get(_column_key(cell))
        if key is None:
            if cell.strip():
                reason = Reason(
                    "charge_batch.unknown_column",
                    {"column": cell.strip(), "columns": ";".join(BATCH_COLUMNS)},
                )
                errors.append(BatchRowError(line, cell.strip(), reason, index + 1))
        elif key in columns:
            reason = Reason("charge_batch.column_twice")
            errors.append(BatchRowError(line, key, reason, index + 1))
        else:
            columns[key] = index
    for name in _REQUIRED_COLUMNS:
        if name not in columns:
            errors.append(BatchRowError(line, name, Reason("charge_batch.column_missing")))
    return None if errors else columns


def _looks_like_header(cells: list[str]) -> bool:
    return sum(1 for cell in cells if _column_key(cell) in _COLUMN_ALIASES) >= 2


def parse_batch_csv(
    text: str, *, today: date | None = None, control: ReadControl | None = None
) -> BatchParseResult:
    """Read a batch file (format in the module's docstring): every row, every error.

    With ``today``, a due date before it is an error. Never raises for bad content: a
    result with errors says what to fix, line by line and column by column (a line that is
    not CSV, or has a control character, is an error of its own and the reading goes on).
    ``control`` reports progress and takes a Cancel
    (:class:`~treasury_app.services.csv_input.ReadCancelled`); any thread may call this.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_batch_csv expects str, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    separator = _separator(text)
    rows: list[BatchRow] = []
    errors: list[BatchRowError] = []
    columns: dict[str, int] | None = None
    has_header = False
    data_rows = 0
    first = True
    previous_line = 0
    bad_lines = 0
    checked = 0  # errors counted in bad_lines
    for record in csv_records(text, separator, control=control):
        if len(errors) > checked:  # the line before had errors
            bad_lines += 1
            if bad_lines > MAX_LINE_ERRORS:
                return _too_many_errors(errors, checked, separator, has_header)
            checked = len(errors)
        previous_line = record.line
        if isinstance(record, CsvLineError):
            if record.whole_file:  # a quote left open swallowed the lines after it
                error = BatchRowError(record.line, "", record.reason, whole_file=True)
                return BatchParseResult((), (error,), separator, has_header)
            errors.append(BatchRowError(record.line, "", record.reason))
            if not first:
                data_rows += 1  # counted: the cap bounds the errors too
                if data_rows > MAX_BATCH_MEMBERS:
                    errors[-1] = _over_cap(record.line)
                    break
            continue
        line = record.line
        cells = [cell.strip() for cell in record.cells]
        if not any(cells):
            continue
        if first:
            first = False
            if _looks_like_header(cells):
                has_header = True
                columns = _read_header(line, cells, errors)
                if columns is None:
                    break
                continue
            columns = {name: index for index, name in enumerate(BATCH_COLUMNS)}
        assert columns is not None
        data_rows += 1
        if data_rows > MAX_BATCH_MEMBERS:
            errors.append(_over_cap(line))
            break
        row = _row_cells(line, cells, columns, separator, errors)
        if row is not None:
            parsed = _parse_row(line, row, today, errors)
            if parsed is not None:
                rows.append(parsed)
    if len(errors) > checked:
        bad_lines += 1
        if bad_lines > MAX_LINE_ERRORS:
            return _too_many_errors(errors, checked, separator, has_header)
    if first and not errors:
        errors.append(BatchRowError(1, "", Reason("charge_batch.no_charges")))
    elif not rows and not errors:
        errors.append(BatchRowError(max(previous_line, 1), "", Reason("charge_batch.no_charges")))
    return BatchParseResult(tuple(rows), tuple(errors), separator, has_header)


def check_batch_txids(txids: Mapping[int, str], column: str = "txid") -> tuple[BatchRowError, ...]:
    """The errors of the txids a batch file chooses, by line (in ``column``): each must be a
    txid of ours (the domain's rule: ``txid.length``, ``txid.characters``) and appear once in
    the batch (``charge_batch.txid_repeated``, naming the line it is first on)."""
    errors = []
    first_line: dict[str, int] = {}
    for line, txid in sorted(txids.items()):
        try:
            identifiers.check_txid(txid)
        except DomainError as error:
            errors.append(BatchRowError(line, column, error.reason))
            continue
        if txid in first_line:
            reason = Reason("charge_batch.txid_repeated", {"line": first_line[txid]})
            errors.append(BatchRowError(line, column, reason))
        else:
            first_line[txid] = line
    return tuple(errors)


def _over_cap(line: int) -> BatchRowError:
    reason = Reason("charge_batch.too_many_charges", {"max": MAX_BATCH_MEMBERS})
    return BatchRowError(line, "", reason, whole_file=True)


def _too_many_errors(
    errors: list[BatchRowError], kept: int, separator: str, has_header: bool
) -> BatchParseResult:
    """The file refused whole: the errors of its first lines with errors, and why the list
    stops there (no row: nothing may be left out and sent)."""
    last = BatchRowError(errors[kept].line, "", TOO_MANY_ERRORS, whole_file=True)
    return BatchParseResult((), (*errors[:kept], last), separator, has_header)


def _row_cells(
    line: int,
    cells: list[str],
    columns: Mapping[str, int],
    separator: str,
    errors: list[BatchRowError],
) -> dict[str, tuple[int, str]] | None:
    """The cells of one row by column name, or ``None`` (and errors) if columns are missing
    or extra."""
    width = max(columns.values()) + 1
    found = len(errors)
    for name in _REQUIRED_COLUMNS:
        index = columns[name]
        if index >= len(cells):
            reason = Reason("charge_batch.cell_missing")
            errors.append(BatchRowError(line, name, reason, index + 1))
    if len(cells) > width and any(cells[width:]):
        code = (
            "charge_batch.too_many_cells_comma"
            if separator == ","
            else "charge_batch.too_many_cells"
        )
        reason = Reason(code, {"found": len(cells), "max": width})
        errors.append(BatchRowError(line, "", reason, width + 1))
    value_index = columns["valor"]
    if (
        separator == ","
        and len(errors) == found
        and value_index + 1 < len(cells)
        and _SPLIT_CENTS_RE.fullmatch(cells[value_index + 1])
        and _SPLIT_UNITS_RE.fullmatch(cells[value_index])
    ):
        errors.append(
            BatchRowError(
                line,
                "valor",
                Reason("charge_batch.amount_cut_in_two"),
                value_index + 1,
            )
        )
    if len(errors) > found:
        return None
    return {
        name: (index + 1, cells[index] if index < len(cells) else "")
        for name, index in columns.items()
    }
