"""The bank table the app names banks from (the one shipped with it, read once), and its
refresh from the central bank's list of participants (a file, or its address)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import email.utils
import functools
import os
import tempfile
from pathlib import Path

import httpx

from treasury_app.domain.banks import (
    BadRow,
    Bank,
    BankTable,
    BankTableFormatError,
    StrListError,
    decode_list,
    parse_str_list,
    table_changes,
    table_from_json,
    table_to_json,
)
from treasury_app.domain.clock import brasilia_date, brasilia_today, system_clock
from treasury_app.resources import bank_table_path

__all__ = [
    "RefreshError",
    "RefreshReport",
    "load_table",
    "packaged_table",
    "read_source",
    "refresh",
]

SOURCE_NAME = "Banco Central do Brasil, Participantes do STR"
DROP_LIMIT = 0.5
"""A refresh that would drop more than this share of a whole (not partial) table's banks is
refused without ``force``: more likely a cut file than half the banks gone."""


def load_table(path: Path) -> BankTable:
    """The table in ``path`` (:class:`BankTableFormatError` when it is not one)."""
    return table_from_json(path.read_text("utf-8"))


@functools.cache
def packaged_table() -> BankTable:
    """The table shipped with the app; an empty one if it is missing or broken (no name is
    then shown, and no payment is refused for it)."""
    try:
        return load_table(bank_table_path())
    except (OSError, BankTableFormatError):
        return BankTable(banks=(), as_of=dt.date.min, source="", partial=True)


class RefreshError(Exception):
    """Nothing was written: ``code`` says why (``unreadable``, ``not_a_list``, ``empty``,
    ``too_many_dropped``), ``detail`` says more (for the command's output)."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(f"{code}: {detail}")
        self.code = code
        self.detail = detail


@dataclasses.dataclass(frozen=True)
class RefreshReport:
    """What a refresh read and changed."""

    table: BankTable
    bad_rows: tuple[BadRow, ...]
    added: list[Bank]
    dropped: list[Bank]
    written: bool


def _is_url(source: str) -> bool:
    return source.startswith(("https://", "http://"))


def read_source(source: str, timeout: float = 30.0) -> tuple[bytes, dt.date | None]:
    """The list's bytes from a file or an address, with the date it carries (a file's
    modification date, an answer's ``Last-Modified``; Brasília dates), if any."""
    try:
        if _is_url(source):
            answer = httpx.get(source, timeout=timeout, follow_redirects=True)
            answer.raise_for_status()
            modified = answer.headers.get("last-modified")
            when = email.utils.parsedate_to_datetime(modified) if modified else None
            return answer.content, brasilia_date(when) if when and when.tzinfo else None
        path = Path(source)
        stamp = dt.datetime.fromtimestamp(path.stat().st_mtime, dt.UTC)
        return path.read_bytes(), brasilia_date(stamp)
    except (OSError, httpx.HTTPError, ValueError) as error:
        raise RefreshError("unreadable", f"{source}: {error}") from error


def refresh(
    source: str,
    output: Path,
    *,
    as_of: dt.date | None = None,
    force: bool = False,
    dry_run: bool = False,
) -> RefreshReport:
    """Read the central bank's list from ``source`` and write it as the table in ``output``
    (atomically). The rows that could not be read are in the report, never silently dropped;
    nothing is written when the file is not the list, has no participant, or would drop most
    of a whole table's banks (unless ``force``)."""
    data, dated = read_source(source)
    try:
        read = parse_str_list(decode_list(data))
    except StrListError as error:
        raise RefreshError("not_a_list", str(error)) from error
    if not read.banks:
        raise RefreshError("empty", f"no participant could be read ({len(read.bad_rows)} rows)")
    name = source if _is_url(source) else Path(source).name
    table = BankTable(
        banks=read.banks,
        as_of=as_of or dated or brasilia_today(system_clock),
        source=f"{SOURCE_NAME} ({name})",
    )
    old = load_table(output) if output.exists() else None
    added, dropped = table_changes(old.banks if old else (), table.banks)
    if old and not old.partial and not force and len(dropped) > DROP_LIMIT * len(old.banks):
        raise RefreshError(
            "too_many_dropped",
            f"{len(dropped)} of the table's {len(old.banks)} banks are not in this list",
        )
    if not dry_run:
        _write_atomically(output, table_to_json(table))
    return RefreshReport(table, read.bad_rows, added, dropped, written=not dry_run)


def _write_atomically(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".banks-", suffix=".json", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
        os.chmod(temporary, 0o644)  # a shipped file, readable by all (mkstemp makes it 0600)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
