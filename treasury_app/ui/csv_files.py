"""CSV files of the batch dialogs and the lists' exports: the pickers (the export's picker
also asks for the format, :mod:`treasury_app.services.exports`), writing files that
spreadsheets open with their accents, the words for a file that could not be written, and the
text helpers of the lists' searches. (Reading a file is
:mod:`treasury_app.services.csv_input`, in a worker thread behind
:class:`~treasury_app.ui.widgets.csv_reading.CsvReadingBar`.)"""

from __future__ import annotations

import csv
import io
import os
import unicodedata
from collections.abc import Callable, Container, Iterable, Sequence
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QLocale
from PySide6.QtWidgets import QFileDialog, QWidget

from treasury_app.domain.money import format_brl
from treasury_app.services.exports import ExportFormat, csv_bytes, spreadsheet_text
from treasury_app.services.files import (
    FileInUseError,
    FileReadOnlyError,
    FileWriteError,
    FolderNotWritableError,
    replace_file,
)
from treasury_app.services.statement import CSV_COLUMNS
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.failure_words import failure_words


def open_csv_dialog(parent: QWidget, title: str, chosen: Callable[[str], None]) -> QFileDialog:
    """A window-modal picker of an existing CSV file (no nested event loop); ``chosen`` gets
    the path."""
    dialog = QFileDialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(
        [
            QCoreApplication.translate("CsvFiles", "CSV files (*.csv)"),
            QCoreApplication.translate("CsvFiles", "All files (*)"),
        ]
    )
    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def open_file_picker(
    parent: QWidget,
    title: str,
    directory: str,
    name_filter: str,
    chosen: Callable[[str], object],
    name: str,
) -> QFileDialog:
    """A window-modal picker of an existing file (``open()``: no nested event loop), named
    ``name``, starting in ``directory``; ``chosen`` gets the path; deleted once closed."""
    picker = QFileDialog(parent, title, directory, name_filter)
    picker.setObjectName(name)
    picker.setFileMode(QFileDialog.FileMode.ExistingFile)
    picker.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
    picker.fileSelected.connect(chosen)
    picker.finished.connect(picker.deleteLater)
    picker.open()
    return picker


def save_csv_dialog(
    parent: QWidget, title: str, suggested: str, chosen: Callable[[str], None]
) -> QFileDialog:
    """A window-modal picker of where to save a CSV file, ``suggested`` as its name."""
    dialog = QFileDialog(parent, title)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("csv")
    dialog.setNameFilter(QCoreApplication.translate("CsvFiles", "CSV files (*.csv)"))
    dialog.selectFile(suggested)
    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def export_format_filters() -> dict[ExportFormat, str]:
    """The export dialog's name filters, one per format: where the person chooses it."""
    return {
        ExportFormat.EXCEL: QCoreApplication.translate("CsvFiles", "CSV for Excel (*.csv)"),
        ExportFormat.MACHINE: QCoreApplication.translate(
            "CsvFiles", "CSV, machine-readable (*.csv)"
        ),
    }


def default_export_format() -> ExportFormat:
    """For Excel when the app speaks Portuguese (a pt-BR Excel is then the likely reader),
    else machine-readable."""
    if QLocale().language() == QLocale.Language.Portuguese:
        return ExportFormat.EXCEL
    return ExportFormat.MACHINE


def export_dialog(
    parent: QWidget, title: str, suggested: str, directory: str | os.PathLike[str] = ""
) -> QFileDialog:
    """A save dialog whose name filters choose the format (see :func:`chosen_format`), the
    default one selected, ``suggested`` as the file's name (in ``directory`` if given); not
    opened yet."""
    filters = export_format_filters()
    dialog = QFileDialog(parent, title, str(directory))
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("csv")
    dialog.setNameFilters(list(filters.values()))
    dialog.selectNameFilter(filters[default_export_format()])
    dialog.selectFile(suggested)
    return dialog


def chosen_format(dialog: QFileDialog) -> ExportFormat:
    """The format whose name filter is selected in an :func:`export_dialog`."""
    selected = dialog.selectedNameFilter()
    for export_format, name_filter in export_format_filters().items():
        if name_filter == selected:
            return export_format
    return default_export_format()


def file_error(error: OSError, path: str | os.PathLike[str] | None = None) -> FileWriteError:
    """``error`` (raised writing ``path``) as a :class:`FileWriteError` whose title and
    message are in the person's language and name the file, never a ``WinError``: what a
    banner shows."""
    target = getattr(error, "path", None) or str(path or error.filename or "")
    named = target
    reason = error.reason if isinstance(error, FileWriteError) else (error.strerror or "")
    if isinstance(error, FileInUseError):
        text = QCoreApplication.translate(
            "CsvFiles", "The file %1 is open in another program (Excel?): close it and try again."
        )
    elif isinstance(error, FileReadOnlyError):
        text = QCoreApplication.translate(
            "CsvFiles", "The file %1 is read-only: save under another name."
        )
    elif isinstance(error, FolderNotWritableError):
        text = QCoreApplication.translate(
            "CsvFiles", "The folder %1 cannot be written to: choose another folder."
        )
        named = str(Path(target).parent)
    elif isinstance(system := _system_error(error), OSError):  # by its kind, not its English
        text = failure_words(system, file=target)
    else:
        text = QCoreApplication.translate("CsvFiles", "Could not write the file %1.")
    kind = type(error) if isinstance(error, FileWriteError) else FileWriteError
    shown = kind(target, text.replace("%1", named), reason=reason)
    shown.title = QCoreApplication.translate("CsvFiles", "Could not save the file")
    shown.__cause__ = _system_error(error)  # passed on, it gives the same words again
    return shown


def _system_error(error: OSError) -> OSError | None:
    """The operating system's own error behind ``error`` (``None``: there is none)."""
    if not isinstance(error, FileWriteError):
        return error
    cause = error.__cause__
    return cause if isinstance(cause, OSError) and not isinstance(cause, FileWriteError) else None


def save_file(path: str | os.PathLike[str], data: bytes) -> None:
    """Write a file the person chose (see :func:`~treasury_app.services.files.replace_file`);
    a failure is a :func:`file_error`."""
    try:
        replace_file(path, data)
    except OSError as error:
        raise file_error(error, path) from error


def write_csv_text(path: str | Path, text: str) -> None:
    """Write ``text`` with a BOM, so that spreadsheets read the accents as UTF-8."""
    save_file(path, text.encode("utf-8-sig"))


def write_table(
    path: str | Path,
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    amounts: Sequence[str] = (),
) -> int:
    """Rows as a pt-BR spreadsheet opens them: ``;``-separated, CRLF, UTF-8 with a BOM (the
    amounts already written with a decimal comma). Every text cell is defused against formula
    injection; the columns named in ``amounts`` (ours, numbers) are left as numbers. How many
    rows, the header not counted."""
    numeric = {index for index, name in enumerate(header) if name in amounts}
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    writer.writerow(header)
    count = 0
    for row in rows:
        writer.writerow(
            [cell if index in numeric else spreadsheet_text(cell) for index, cell in enumerate(row)]
        )
        count += 1
    write_csv_text(path, buffer.getvalue())
    return count


_STATEMENT_TITLES: dict[str, str] = {
    "id": QT_TRANSLATE_NOOP("CsvFiles", "Id"),
    "created_at": QT_TRANSLATE_NOOP("CsvFiles", "Date and time"),
    "credit_debit": QT_TRANSLATE_NOOP("CsvFiles", "Credit or debit"),
    "transaction_type": QT_TRANSLATE_NOOP("CsvFiles", "Type"),
    "amount": QT_TRANSLATE_NOOP("CsvFiles", "Amount"),
    "signed_amount": QT_TRANSLATE_NOOP("CsvFiles", "Amount with its sign"),
    "balance_after": QT_TRANSLATE_NOOP("CsvFiles", "Balance after"),
    "description": QT_TRANSLATE_NOOP("CsvFiles", "Description"),
    "counterparty_name": QT_TRANSLATE_NOOP("CsvFiles", "Counterparty"),
    "counterparty_document": QT_TRANSLATE_NOOP("CsvFiles", "Counterparty's CPF/CNPJ"),
    "end_to_end_id": QT_TRANSLATE_NOOP("CsvFiles", "endToEndId"),
}
_STATEMENT_CODES = {
    "credit_debit": Family.CREDIT_DEBIT,
    "transaction_type": Family.TRANSACTION_TYPE,
}


def statement_header() -> list[str]:
    """The statement's CSV header for people (the Excel format), in the UI language; the
    machine-readable file keeps :data:`~treasury_app.services.statement.CSV_COLUMNS`."""
    return [QCoreApplication.translate("CsvFiles", _STATEMENT_TITLES[c]) for c in CSV_COLUMNS]


def statement_code_word(column: str, code: str) -> str:
    """A code of the statement's CSV (``DEBIT``, ``PIX``) as a word in the UI language."""
    return code_word(_STATEMENT_CODES[column], code)


def write_export(
    path: str | Path,
    header: Sequence[str],
    rows: Iterable[Sequence[str]],
    export_format: ExportFormat,
    *,
    raw_columns: Container[int] = (),
) -> int:
    """A list's export in ``export_format`` (see :func:`~treasury_app.services.exports.csv_bytes`:
    ``raw_columns`` are the amounts and instants, already written for the format). How many
    rows, the header not counted."""
    data, count = csv_bytes(header, rows, export_format, raw_columns=raw_columns)
    save_file(path, data)
    return count


def _run_export(
    export: Callable[[], int],
    path: str,
    done: Callable[[str, int], None],
    failed: Callable[[OSError], object],
) -> None:
    try:
        count = export()
    except OSError as error:
        failed(file_error(error, path))
        return
    done(path, count)


def export_with_dialog(
    parent: QWidget,
    title: str,
    suggested: str,
    export: Callable[[str], int],
    done: Callable[[str, int], None],
    failed: Callable[[OSError], object],
) -> QFileDialog:
    """Ask where to save, then ``export(path)``; ``done(path, rows)`` or ``failed(error)``
    (a :func:`file_error`, for the banner)."""
    return save_csv_dialog(
        parent, title, suggested, lambda path: _run_export(lambda: export(path), path, done, failed)
    )


def export_choosing_format(
    parent: QWidget,
    title: str,
    suggested: str,
    export: Callable[[str, ExportFormat], int],
    done: Callable[[str, int], None],
    failed: Callable[[OSError], object],
) -> QFileDialog:
    """Ask where to save and in which format (:func:`export_dialog`, window-modal, no nested
    event loop), then ``export(path, format)``; ``done(path, rows)`` or ``failed(error)`` (a
    :func:`file_error`, for the banner)."""
    dialog = export_dialog(parent, title, suggested)

    def chosen(path: str) -> None:
        export_format = chosen_format(dialog)
        _run_export(lambda: export(path, export_format), path, done, failed)

    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def saved_count(text: str, show: Callable[[str], object]) -> Callable[[str, int], None]:
    """An export's ``done``: ``show`` the caller's ``text`` with the rows written in place of
    ``%1`` and the file in place of ``%2``."""
    return lambda path, count: show(text.replace("%1", str(count)).replace("%2", path))


def fold(text: str) -> str:
    """Lower case without accents, for searches that ignore both."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return folded.lower()


def amount_texts(amount: Decimal) -> str:
    """An amount as people type it: ``R$ 1.234,56``, ``1234,56`` and ``1234.56``."""
    shown = format_brl(amount)
    return f"{shown} {shown.replace('.', '').replace('R$ ', '')} {amount}"
