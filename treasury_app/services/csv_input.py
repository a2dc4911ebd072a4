"""CSV files from outside (payout and charge batches), read as hostile until checked.

- **Size**: at most :data:`MAX_FILE_BYTES` are read; a larger file is refused before it is
  held in memory.
- **Encoding**: a byte-order mark decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE); without one,
  UTF-16 is recognised by its zero bytes, then UTF-8 is tried, then Windows-1252 (what a pt-BR
  Excel saves as "CSV (separado por vírgulas)"). Bytes that are none of these, or a workbook
  saved under a ``.csv`` name, are refused with a message that says how to save the file.
- **Line ends**: CRLF, LF and CR alone are all line ends; line numbers are the file's.
- **Lines**: :func:`csv_records` yields each record with the number of the line it starts on,
  or a :class:`CsvLineError` for a line that cannot be read (a cell over the csv module's size
  limit, a quote opened and never closed, a NUL or another control character in a cell), and
  goes on with the next line: one bad line never hides the others.
- **Long files**: reading reports its progress and stops when asked (:class:`ReadControl`),
  so that a window can read in a worker thread with a progress bar and a Cancel button.

Nothing here knows Qt: the functions run in any thread.
"""

from __future__ import annotations

import codecs
import csv
import hashlib
import io
import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from treasury_app.domain.errors import Reason, RuleError

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_LINE_ERRORS",
    "MAX_ROWS",
    "TOO_MANY_ERRORS",
    "CsvFileError",
    "CsvLineError",
    "CsvRecord",
    "ReadCancelled",
    "ReadControl",
    "csv_records",
    "decode_csv",
    "read_csv_bytes",
    "read_csv_path",
]

MAX_FILE_BYTES = 20 * 1024 * 1024
"""The largest CSV file read (20 MiB: some 150,000 payout lines, far above :data:`MAX_ROWS`)."""

MAX_ROWS = 10_000
"""The most data rows a payout batch file may have."""

MAX_LINE_ERRORS = 1_000
"""The most line errors a batch file's reading collects; past them the file is refused whole
(:data:`TOO_MANY_ERRORS` ends the list, and no row is kept)."""

TOO_MANY_ERRORS = Reason("csv.too_many_errors", {"max": MAX_LINE_ERRORS})
"""Why a file's list of bad lines stops: more than :data:`MAX_LINE_ERRORS` of them."""

_FIELD_LIMIT = csv.field_size_limit()
_PROGRESS_EVERY = 256  # records between two progress reports (and cancellation checks)

# Control characters refused in a cell: C0 and C1 controls but the tab (line ends are a quote
# left open), and the Unicode direction overrides and isolates, which can make a payee's name
# read other than it is.
_CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


class CsvFileError(RuleError):
    """The file as a whole cannot be read (too large, not text, an unknown encoding)."""


class ReadCancelled(Exception):
    """The person cancelled the reading; nothing was loaded."""


@dataclass
class ReadControl:
    """Shared between a reading thread and the window: the share read so far (0 to 1, written
    by the reader) and the request to stop (set by the window)."""

    fraction: float = 0.0
    cancel: threading.Event = field(default_factory=threading.Event)

    def check(self) -> None:
        """Raise :class:`ReadCancelled` when a stop was asked."""
        if self.cancel.is_set():
            raise ReadCancelled


@dataclass(frozen=True)
class CsvRecord:
    """The cells of one record and the file's line it starts on (1-based)."""

    line: int
    cells: list[str]


@dataclass(frozen=True)
class CsvLineError:
    """Why the record starting on ``line`` cannot be read; the reading went on after it.

    ``whole_file``: the error makes the whole file unusable (a quoted cell ran over several
    lines: a quote left open swallowed what follows, so the rows after it cannot be trusted,
    and no "leave the bad rows out" may send the others)."""

    line: int
    reason: Reason
    whole_file: bool = False


# -- bytes and text ---------------------------------------------------------------------------


def read_csv_path(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> tuple[str, str]:
    """The text of a CSV file (see :func:`decode_csv`) and the SHA-256 of its bytes.

    Raises :class:`OSError` when the file cannot be read and :class:`CsvFileError` when it is
    too large or not text."""
    raw = read_csv_bytes(path, max_bytes=max_bytes)
    return decode_csv(raw), hashlib.sha256(raw).hexdigest()


def read_csv_bytes(path: str | Path, *, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The file's bytes, refused (:class:`CsvFileError`) past ``max_bytes`` without reading
    more than one byte beyond it (a file growing while read is caught too)."""
    with Path(path).open("rb") as stream:
        raw = stream.read(max_bytes + 1)
    if len(raw) > max_bytes:
        raise CsvFileError("csv.too_large", megabytes=round(max_bytes / (1024 * 1024)))
    return raw


_BOMS = (  # the longest first: a UTF-32 LE mark begins like a UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le", "UTF-32"),
    (codecs.BOM_UTF32_BE, "utf-32-be", "UTF-32"),
    (codecs.BOM_UTF8, "utf-8", "UTF-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le", "UTF-16"),
    (codecs.BOM_UTF16_BE, "utf-16-be", "UTF-16"),
)


def decode_csv(raw: bytes) -> str:
    """The text of a CSV file's bytes, without its byte-order mark.

    Raises :class:`CsvFileError` for a workbook or another binary file, and for bytes that
    are not text in the encoding their mark announces, nor UTF-8, nor Windows-1252."""
    for bom, encoding, name in _BOMS:
        if raw.startswith(bom):
            return _decode(raw[len(bom) :], encoding, name)
    if raw.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0")):
        raise CsvFileError("csv.workbook")
    if raw.startswith(b"%PDF"):
        raise CsvFileError("csv.pdf")
    utf16 = _utf16_without_mark(raw[:4096])
    if utf16 is not None:
        return _decode(raw, utf16, "UTF-16")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise CsvFileError("csv.not_text", line=line, byte=f"0x{raw[error.start]:02X}") from None


def _decode(raw: bytes, encoding: str, name: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as error:
        text = raw[: error.start].decode(encoding, errors="replace")
        line = text.count("\n") + 1
        raise CsvFileError("csv.not_its_encoding", encoding=name, line=line) from None


def _utf16_without_mark(head: bytes) -> str | None:
    """UTF-16 without a byte-order mark: mostly-ASCII text has a zero byte in every pair."""
    pairs = len(head) // 2
    if pairs < 2:
        return None
    even = sum(1 for i in range(0, pairs * 2, 2) if head[i] == 0)
    odd = sum(1 for i in range(1, pairs * 2, 2) if head[i] == 0)
    if odd >= 0.9 * pairs and even == 0:
        return "utf-16-le"
    if even >= 0.9 * pairs and odd == 0:
        return "utf-16-be"
    return None


# -- records ------------------------------------------------------------------------------------


def csv_records(
    text: str, delimiter: str, *, control: ReadControl | None = None
) -> Iterator[CsvRecord | CsvLineError]:
    """Every record of ``text`` (cells as written, not stripped), or why its line cannot be
    read, in the file's order, blank lines included (as empty records)."""
    total_lines = max(1, text.count("\n") or text.count("\r"))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=False)
    previous = 0
    count = 0
    while True:
        count += 1
        if control is not None and count % _PROGRESS_EVERY == 0:
            control.check()
            control.fraction = min(1.0, previous / total_lines)
        line = previous + 1
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            previous = reader.line_num
            # A record read over several lines: a quote left open swallowed them.
            yield CsvLineError(line, _csv_problem(str(error)), whole_file=previous > line)
            continue
        previous = reader.line_num
        problem = _cells_problem(cells, line, previous)
        if problem is None:
            yield CsvRecord(line, cells)
        else:
            yield CsvLineError(line, problem, whole_file=_runs_over_lines(cells))
    if control is not None:
        control.fraction = 1.0


def _csv_problem(reason: str) -> Reason:
    if "field larger than field limit" in reason:
        return Reason("csv.cell_too_long", {"limit": _FIELD_LIMIT})
    if "NUL" in reason:
        return Reason("csv.nul_character")
    return Reason("csv.unreadable_line", {"detail": reason})  # the csv module's words: logs


def _runs_over_lines(cells: list[str]) -> bool:
    return any("\n" in cell or "\r" in cell for cell in cells)


def _cells_problem(cells: list[str], line: int, last_line: int) -> Reason | None:
    for number, cell in enumerate(cells, start=1):
        found = _CONTROL.search(cell)
        if found is None:
            continue
        if "\n" in cell or "\r" in cell:
            if last_line > line:
                return Reason("csv.cell_over_lines", {"column": number, "last_line": last_line})
            return Reason("csv.cell_to_end_of_file", {"column": number})
        character = f"U+{ord(found.group()):04X}"
        return Reason("csv.control_character", {"column": number, "character": character})
    return None
