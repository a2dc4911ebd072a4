"""Banks by name: the Pix participants' table (ISPB, COMPE code, short and long name) the app
ships, looked up by ISPB, by COMPE code or by a piece of a name; and the reader of the central
bank's list it is refreshed from ("Participantes do STR", ``ParticipantesSTRport.csv``).

A table may be partial or old: a bank missing from it is not a refusal (the ISPB stays valid
as typed), only a bank whose name the app cannot show.
"""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import functools
import io
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

TABLE_FORMAT = 1
"""The version of the packaged table's JSON layout."""

_ISPB = re.compile(r"[0-9A-Z]{8}")
_NO_CODE = frozenset({"", "n/a", "na", "-", "--"})

KNOWN_AS: Mapping[str, tuple[str, ...]] = {
    "18236120": ("Nubank",),
    "92702067": ("Banrisul",),
    "00360305": ("Caixa", "CEF"),
    "00000000": ("BB",),
    "02038232": ("Sicoob", "Bancoob"),
    "31872495": ("C6 Bank",),
}
"""Names people search by that the central bank's list does not carry (by ISPB)."""


def fold(text: str) -> str:
    """``text`` for matching: lower case, accents and punctuation dropped, spaces collapsed
    (``"Itaú Unibanco S.A."`` → ``"itau unibanco s a"``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^0-9a-z]+", " ", plain).split())


@dataclasses.dataclass(frozen=True)
class Bank:
    """One participant: its ISPB (8 characters), its 3-digit COMPE code (``None`` for a
    participant without one) and its names as the central bank writes them."""

    ispb: str
    compe: str | None
    short_name: str
    long_name: str

    @property
    def name(self) -> str:
        """The name shown to people: the long one (mixed case in the list), else the short."""
        return self.long_name or self.short_name

    # Computed once per bank (a list has some 1,500): searching folds the query, not the list.
    @functools.cached_property
    def folded_name(self) -> str:
        return fold(self.name)

    @functools.cached_property
    def search_text(self) -> str:
        """What a search matches: the folded names (and :data:`KNOWN_AS`), code and ISPB."""
        names = (self.short_name, self.long_name, *KNOWN_AS.get(self.ispb, ()))
        return " ".join([fold(" ".join(names)), self.compe or "", self.ispb.lower()])


@dataclasses.dataclass(frozen=True)
class BankTable:
    """The table of participants (in ISPB order), as of ``as_of`` (the list's date), read from
    ``source``. ``partial`` marks a hand-made seed rather than the central bank's whole list."""

    banks: tuple[Bank, ...]
    as_of: dt.date
    source: str
    partial: bool = False
    note: str = ""
    _by_ispb: dict[str, Bank] = dataclasses.field(init=False, repr=False, compare=False)
    _by_compe: dict[str, Bank] = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "banks", tuple(sorted(self.banks, key=lambda b: b.ispb)))
        object.__setattr__(self, "_by_ispb", {bank.ispb: bank for bank in self.banks})
        by_compe: dict[str, Bank] = {}
        for bank in self.banks:
            if bank.compe is not None:
                by_compe.setdefault(bank.compe, bank)
        object.__setattr__(self, "_by_compe", by_compe)

    def by_ispb(self, ispb: str) -> Bank | None:
        """The participant with this ISPB; ``None`` when the table does not know it."""
        return self._by_ispb.get(ispb.strip().upper())

    def by_compe(self, code: str) -> Bank | None:
        """The participant with this COMPE code (``"1"``, ``"01"`` and ``"001"`` alike)."""
        code = code.strip()
        if not (code.isascii() and code.isdigit()) or len(code) > 3:
            return None
        return self._by_compe.get(code.zfill(3))

    def search(self, text: str, limit: int = 50) -> list[Bank]:
        """Participants matching every word of ``text`` (a piece of a name, accents and case
        ignored, a COMPE code or an ISPB): exact codes first, then names that start with the
        text, then names that hold it, then the rest, each in alphabetical order."""
        words = fold(text).split()
        if not words:
            return []
        exact = [b for b in (self.by_compe(text), self.by_ispb(text)) if b is not None]
        found = [
            bank
            for bank in self.banks
            if bank not in exact and all(w in bank.search_text for w in words)
        ]
        phrase = " ".join(words)

        def rank(bank: Bank) -> tuple[int, str]:
            name = bank.folded_name
            return (0 if name.startswith(phrase) else 1 if phrase in name else 2, name)

        found.sort(key=rank)
        return (exact + found)[:limit]


# -- the packaged table's JSON ----------------------------------------------------------------


class BankTableFormatError(Exception):
    """The packaged table is not a table this version reads (a broken install). Caught where
    the table is read: never a person's mistake to show."""


def table_to_json(table: BankTable) -> str:
    """The table as the packaged JSON: a header, then one bank per line (diffs stay short)."""
    head = (
        ("format", TABLE_FORMAT),
        ("as_of", table.as_of.isoformat()),
        ("source", table.source),
        ("partial", table.partial),
        ("note", table.note),
    )
    fields = [f' "{key}": {json.dumps(value, ensure_ascii=False)}' for key, value in head]
    rows = [
        "  "
        + json.dumps(
            {
                "ispb": b.ispb,
                "compe": b.compe,
                "short_name": b.short_name,
                "long_name": b.long_name,
            },
            ensure_ascii=False,
        )
        for b in table.banks
    ]
    return "{\n" + ",\n".join(fields) + ',\n "banks": [\n' + ",\n".join(rows) + "\n ]\n}\n"


def table_from_json(text: str) -> BankTable:
    """The table written by :func:`table_to_json`; :class:`BankTableFormatError` otherwise."""
    try:
        data: Any = json.loads(text)
        if data.get("format") != TABLE_FORMAT:
            raise BankTableFormatError(f"bank table format {data.get('format')!r}")
        banks = tuple(
            Bank(
                ispb=str(row["ispb"]),
                compe=None if row.get("compe") is None else str(row["compe"]),
                short_name=str(row.get("short_name") or ""),
                long_name=str(row.get("long_name") or ""),
            )
            for row in data["banks"]
        )
        return BankTable(
            banks=banks,
            as_of=dt.date.fromisoformat(data["as_of"]),
            source=str(data.get("source") or ""),
            partial=bool(data.get("partial")),
            note=str(data.get("note") or ""),
        )
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        if isinstance(error, BankTableFormatError):
            raise
        raise BankTableFormatError(f"not a bank table: {error}") from error


# -- the central bank's list ------------------------------------------------------------------


class StrListError(Exception):
    """The file is not the central bank's participants list (no header with an ISPB column,
    no name column): nothing is read from it."""


@dataclasses.dataclass(frozen=True)
class BadRow:
    """A row of the list left out of the table: its line, why (``columns``, ``ispb``,
    ``name``, ``compe``, ``duplicate``) and its cells as read, so nothing is lost unseen."""

    line: int
    reason: str
    cells: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class StrList:
    """What was read from the list: the participants, and the rows left out."""

    banks: tuple[Bank, ...]
    bad_rows: tuple[BadRow, ...]


_HEADERS = {
    "ispb": "ispb",
    "nome reduzido": "short_name",
    "numero codigo": "compe",
    "numero do codigo": "compe",
    "codigo": "compe",
    "nome extenso": "long_name",
}


def decode_list(data: bytes) -> str:
    """The list's bytes as text: UTF-8 (with or without a BOM), else Windows-1252 (the
    central bank's older files, and any file saved again by Excel on Windows)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _header_line(lines: Sequence[str]) -> int:
    for number, line in enumerate(lines):
        cells = [fold(cell) for cell in re.split(r"[;,\t]", line)]
        if "ispb" in cells:
            return number
    raise StrListError("no header line with an ISPB column")


def _delimiter(header: str) -> str:
    counts = {sep: header.count(sep) for sep in (";", ",", "\t")}
    return max(counts, key=lambda sep: counts[sep])


def parse_str_list(text: str) -> StrList:
    """The participants of the central bank's list (``ParticipantesSTRport.csv``): columns
    found by name (``ISPB``, ``Nome_Reduzido``, ``Número_Código``, ``Nome_Extenso``; any order,
    accents or not), separator ``,`` ``;`` or tab, quoted cells, title lines above the header,
    names padded with spaces. An ISPB or code whose leading zeros a spreadsheet dropped is
    padded back; a code ``n/a`` is no code. Every other row that cannot be read is a
    :class:`BadRow`."""
    lines = text.lstrip("\ufeff").splitlines()
    start = _header_line(lines)
    reader = csv.reader(io.StringIO("\n".join(lines[start:])), delimiter=_delimiter(lines[start]))
    banks: dict[str, Bank] = {}
    bad: list[BadRow] = []
    try:
        columns = _columns(next(reader))
        for cells in reader:
            line = start + reader.line_num
            if not any(cell.strip() for cell in cells):
                continue
            read = _read_row(cells, columns)
            if isinstance(read, str):
                bad.append(BadRow(line, read, tuple(cells)))
            elif read.ispb in banks:
                bad.append(BadRow(line, "duplicate", tuple(cells)))
            else:
                banks[read.ispb] = read
    except csv.Error as error:  # a NUL byte, a cell past the csv module's size limit
        raise StrListError(f"line {start + reader.line_num}: {error}") from error
    return StrList(tuple(banks.values()), tuple(bad))


def _columns(header: Sequence[str]) -> dict[str, int]:
    """Where each field is, from the header's titles."""
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        field = _HEADERS.get(fold(title))
        if field is not None and field not in columns:
            columns[field] = index
    if "short_name" not in columns and "long_name" not in columns:
        raise StrListError("no name column (Nome_Reduzido or Nome_Extenso)")
    return columns


def _read_row(cells: Sequence[str], columns: Mapping[str, int]) -> Bank | str:
    """The row's participant, or the reason it cannot be read."""
    if len(cells) <= max(columns.values()):
        return "columns"

    def cell(field: str) -> str:
        return " ".join(cells[columns[field]].split()) if field in columns else ""

    ispb = cell("ispb").upper()
    if ispb.isascii() and ispb.isdigit() and len(ispb) < 8:
        ispb = ispb.zfill(8)
    if not _ISPB.fullmatch(ispb):
        return "ispb"
    short_name, long_name = cell("short_name"), cell("long_name")
    if not short_name and not long_name:
        return "name"
    code = cell("compe")
    compe: str | None = None
    if code.lower() not in _NO_CODE:
        if not (code.isascii() and code.isdigit()) or len(code) > 3:
            return "compe"
        compe = code.zfill(3) if int(code) else None
    return Bank(ispb, compe, short_name or long_name, long_name)


def table_changes(old: Iterable[Bank], new: Iterable[Bank]) -> tuple[list[Bank], list[Bank]]:
    """The banks ``new`` adds to ``old`` and those it drops (by ISPB)."""
    before = {bank.ispb: bank for bank in old}
    after = {bank.ispb: bank for bank in new}
    added = [bank for ispb, bank in sorted(after.items()) if ispb not in before]
    dropped = [bank for ispb, bank in sorted(before.items()) if ispb not in after]
    return added, dropped
