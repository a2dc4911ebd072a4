"""``treasury-banks``: the table of banks the app names (ISPB, COMPE code, names), for support
staff and whoever prepares a release.

* ``treasury-banks refresh FILE_OR_URL`` reads the central bank's list of participants
  ("Participantes do STR", ``ParticipantesSTRport.csv``, as downloaded from its site) and
  writes the table the app ships (``--output`` elsewhere, ``--dry-run`` to only check it);
* ``treasury-banks show`` tells the table's date, source and size; ``treasury-banks find TEXT``
  looks a bank up by a piece of its name, its code or its ISPB.

Exit status: 0 — done; 1 — written, but rows of the list could not be read (each listed on
standard error, with its line and cells), or no bank found; 2 — nothing written (wrong usage,
not the list, a file that cannot be read, or one that would drop most banks: ``--force``
writes it anyway).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from treasury_app.domain.banks import Bank, BankTable, BankTableFormatError
from treasury_app.domain.clock import format_date, parse_date
from treasury_app.resources import bank_table_path
from treasury_app.services.bank_list import RefreshError, RefreshReport, load_table, refresh

EXIT_OK, EXIT_ROWS_LEFT_OUT, EXIT_NOTHING_WRITTEN = 0, 1, 2


def _bank_line(bank: Bank) -> str:
    return f"{bank.ispb}  {bank.compe or '---'}  {bank.name}"


def _table_lines(table: BankTable, path: Path) -> list[str]:
    kind = "partial seed" if table.partial else "whole list"
    return [
        f"table:   {path}",
        f"date:    {format_date(table.as_of)} ({kind}, {len(table.banks)} banks)",
        f"source:  {table.source}",
        *([f"note:    {table.note}"] if table.note else []),
    ]


def _report(report: RefreshReport, output: Path) -> int:
    for bad in report.bad_rows:
        cells = ";".join(bad.cells)
        print(f"line {bad.line}: left out ({bad.reason}): {cells}", file=sys.stderr)
    verb = "written" if report.written else "checked (not written)"
    print(f"{verb}: {len(report.table.banks)} banks", *_table_lines(report.table, output), sep="\n")
    print(f"added {len(report.added)}, dropped {len(report.dropped)}")
    for bank in report.dropped[:20]:
        print(f"  dropped: {_bank_line(bank)}")
    if report.bad_rows:
        print(f"{len(report.bad_rows)} rows left out (listed on standard error)", file=sys.stderr)
        return EXIT_ROWS_LEFT_OUT
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="treasury-banks",
        description="The table of banks (Pix participants) the app names.",
    )
    parser.add_argument(
        "--table", type=Path, default=None, help="the table file (default: the one shipped)"
    )
    commands = parser.add_subparsers(dest="command", required=True)
    update = commands.add_parser(
        "refresh", help="write the table from the central bank's list of STR participants"
    )
    update.add_argument("source", help="ParticipantesSTRport.csv, or its https:// address")
    update.add_argument("--output", type=Path, default=None, help="default: the table (--table)")
    update.add_argument(
        "--as-of", default=None, help="the list's date, dd/mm/yyyy (default: the file's)"
    )
    update.add_argument("--dry-run", action="store_true", help="read and report, write nothing")
    update.add_argument("--force", action="store_true", help="write even if most banks drop")
    commands.add_parser("show", help="the table's date, source and size")
    find = commands.add_parser("find", help="banks by a piece of name, COMPE code or ISPB")
    find.add_argument("text")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    table_path: Path = args.table or bank_table_path()
    try:
        if args.command == "refresh":
            as_of = parse_date(args.as_of) if args.as_of else None
            output: Path = args.output or table_path
            report = refresh(
                args.source, output, as_of=as_of, force=args.force, dry_run=args.dry_run
            )
            return _report(report, output)
        table = load_table(table_path)
        if args.command == "show":
            print(*_table_lines(table, table_path), sep="\n")
        else:
            found = table.search(args.text)
            print(*(_bank_line(bank) for bank in found), sep="\n")
            return EXIT_OK if found else EXIT_ROWS_LEFT_OUT
    except RefreshError as error:
        print(f"nothing written: {error.code}: {error.detail}", file=sys.stderr)
        return EXIT_NOTHING_WRITTEN
    except (OSError, ValueError, BankTableFormatError) as error:  # a wrong date, a broken table
        print(f"error: {error}", file=sys.stderr)
        return EXIT_NOTHING_WRITTEN
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
