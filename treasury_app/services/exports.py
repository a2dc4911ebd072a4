"""The two formats of the lists' CSV exports (statement, payments, charges): one a Brazilian
Excel opens as it is, one for programs; how each writes amounts, instants and text cells.

* :attr:`ExportFormat.EXCEL` — UTF-8 with a byte-order mark (Excel then reads the accents as
  UTF-8), ``;`` between fields (the list separator of Windows set up for Brazil), amounts with
  a decimal comma and no grouping (``-1234,56``: Excel pt-BR reads a number, LibreOffice too),
  instants as ``dd/mm/aaaa hh:mm`` in Brasília time (Excel reads a date and time), dates as
  ``dd/mm/aaaa``. A text of
  digits that Excel would turn into a number and change (a leading zero, or 12 digits and
  more, shown as ``1,12E+13`` and rounded past 15) is written as ``="0123"``, which Excel keeps
  as text.
* :attr:`ExportFormat.MACHINE` — UTF-8 without a mark, ``;`` between fields, amounts with a
  dot (``-1234.56``), instants as ISO-8601 with Brasília's offset
  (``2026-11-18T10:00:00-03:00``: a program reads the instant, a person reading the file the
  same time as on screen), dates as ISO-8601 (``2026-11-18``).

Both end lines with CRLF and quote a field only when it needs it. In both, third-party text
that starts like a formula is defused (:func:`spreadsheet_text`); amounts are never altered.
Amounts are written from ``Decimal`` digits, never through ``float``.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Container, Iterable, Sequence
from decimal import Decimal
from enum import StrEnum

from treasury_app.domain.clock import InstantForm, format_date, format_instant, to_brasilia

__all__ = [
    "CSV_DELIMITER",
    "ExportFormat",
    "amount_cell",
    "csv_bytes",
    "date_cell",
    "datetime_cell",
    "encode",
    "spreadsheet_text",
    "table_text",
    "text_cell",
]

CSV_DELIMITER = ";"
"""Both formats: ``;`` is what a pt-BR Excel splits on, and what the statement always used."""

_CENT = Decimal("0.01")
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Digits Excel would store as a number and show otherwise: a leading zero is dropped, and from
# 12 digits on the General format shows scientific notation (and rounds past 15 digits).
_MANGLED_DIGITS = re.compile(r"0[0-9]+|[0-9]{12,}")


class ExportFormat(StrEnum):
    """How a CSV export is written (see the module's notes)."""

    EXCEL = "excel"
    MACHINE = "machine"


def spreadsheet_text(value: str | None) -> str:
    """Third-party text, defused for spreadsheets: a leading ``=``, ``+``, ``-``, ``@``, tab or
    carriage return gets a ``'`` before it, so that no spreadsheet runs it as a formula (CSV
    injection). ``None`` is empty."""
    if not value:
        return ""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def text_cell(value: str | None, export_format: ExportFormat) -> str:
    """A text cell: defused and, for Excel, digits kept as they are (``="0123"``)."""
    text = spreadsheet_text(value)
    if export_format == ExportFormat.EXCEL and _MANGLED_DIGITS.fullmatch(text):
        # Our own formula, of digits only: Excel shows the text, leading zeros and all.
        return f'="{text}"'
    return text


def amount_cell(value: Decimal | None, export_format: ExportFormat) -> str:
    """Two places, no grouping, no exponent: ``-1234.56`` or, for Excel, ``-1234,56``; empty
    for ``None``; never ``-0.00``."""
    if value is None:
        return ""
    text = f"{value.quantize(_CENT):f}"
    if text == "-0.00":
        text = "0.00"
    return text.replace(".", ",") if export_format == ExportFormat.EXCEL else text


def datetime_cell(moment: dt.datetime | str | None, export_format: ExportFormat) -> str:
    """An instant (aware, or an ISO-8601 stamp with its offset) as ``18/11/2026 10:00`` in
    Brasília for Excel (:func:`format_instant`, as on screen), else ISO-8601 with Brasília's
    offset. A stamp that cannot be read is written as is;
    a naive instant is refused (``ValueError``), not guessed."""
    if moment is None or moment == "":
        return ""
    if isinstance(moment, str):
        try:
            parsed = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
        except ValueError:
            return spreadsheet_text(moment)
        if parsed.tzinfo is None:
            return spreadsheet_text(moment)
        moment = parsed
    if export_format == ExportFormat.EXCEL:
        return format_instant(moment, InstantForm.MINUTES)
    if moment.tzinfo is None:
        raise ValueError("an exported instant must carry its time zone")
    return to_brasilia(moment).isoformat()


def date_cell(day: dt.date | None, export_format: ExportFormat) -> str:
    """A calendar date (a due date): ``18/11/2026`` for Excel, else ``2026-11-18``."""
    if day is None:
        return ""
    return format_date(day) if export_format == ExportFormat.EXCEL else day.isoformat()


def table_text(header: Sequence[str], rows: Iterable[Sequence[str]]) -> tuple[str, int]:
    """A header and rows of cells already written as cells (see above) as CSV text, and how
    many rows (the header not counted)."""
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, delimiter=CSV_DELIMITER, lineterminator="\r\n")
    writer.writerow(header)
    count = 0
    for row in rows:
        writer.writerow(row)
        count += 1
    return buffer.getvalue(), count


def encode(text: str, export_format: ExportFormat) -> bytes:
    """The file's bytes: UTF-8, with a byte-order mark for Excel."""
    return text.encode("utf-8-sig" if export_format == ExportFormat.EXCEL else "utf-8")


def csv_bytes(
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    export_format: ExportFormat,
    *,
    raw_columns: Container[int] = (),
) -> tuple[bytes, int]:
    """A table as the file's bytes in ``export_format``, and how many rows (the header not
    counted). Every cell is text made a text cell (:func:`text_cell`), except the columns whose
    indexes are in ``raw_columns`` (amounts and instants already written by
    :func:`amount_cell` and :func:`datetime_cell`), which are written as given."""

    def cells(row: Sequence[str]) -> list[str]:
        return [
            cell if index in raw_columns else text_cell(cell, export_format)
            for index, cell in enumerate(row)
        ]

    text, count = table_text(header, (cells(row) for row in rows))
    return encode(text, export_format), count
