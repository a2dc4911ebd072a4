"""CSV files of the batch dialogs and the lists' exports: the pickers, writing files that
spreadsheets open with their accents, and the text helpers of the lists' searches. (Reading a
file is :mod:`treasury_app.services.csv_input`, in a worker thread behind
:class:`~treasury_app.ui.widgets.csv_reading.CsvReadingBar`.)"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from decimal import Decimal
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget

from treasury_app.domain.money import format_brl
from treasury_app.services.statement import spreadsheet_text


def _tr(text: str) -> str:
    return QCoreApplication.translate("CsvFiles", text)


def open_csv_dialog(parent: QWidget, title: str, chosen: Callable[[str], None]) -> QFileDialog:
    """A window-modal picker of an existing CSV file (no nested event loop); ``chosen`` gets
    the path."""
    dialog = QFileDialog(parent, title)
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters([_tr("CSV files (*.csv)"), _tr("All files (*)")])
    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def save_csv_dialog(
    parent: QWidget, title: str, suggested: str, chosen: Callable[[str], None]
) -> QFileDialog:
    """A window-modal picker of where to save a CSV file, ``suggested`` as its name."""
    dialog = QFileDialog(parent, title)
    dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    dialog.setDefaultSuffix("csv")
    dialog.setNameFilter(_tr("CSV files (*.csv)"))
    dialog.selectFile(suggested)
    dialog.fileSelected.connect(chosen)
    dialog.open()
    return dialog


def write_csv_text(path: str | Path, text: str) -> None:
    """Write ``text`` with a BOM, so that spreadsheets read the accents as UTF-8."""
    Path(path).write_text(text, encoding="utf-8-sig")


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


def export_with_dialog(
    parent: QWidget,
    title: str,
    suggested: str,
    export: Callable[[str], int],
    done: Callable[[str, int], None],
    failed: Callable[[OSError], None],
) -> QFileDialog:
    """Ask where to save, then ``export(path)``; ``done(path, rows)`` or ``failed(error)``."""

    def chosen(path: str) -> None:
        try:
            count = export(path)
        except OSError as error:
            failed(error)
            return
        done(path, count)

    return save_csv_dialog(parent, title, suggested, chosen)


def fold(text: str) -> str:
    """Lower case without accents, for searches that ignore both."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return folded.lower()


def amount_texts(amount: Decimal) -> str:
    """An amount as people type it: ``R$ 1.234,56``, ``1234,56`` and ``1234.56``."""
    shown = format_brl(amount)
    return f"{shown} {shown.replace('.', '').replace('R$ ', '')} {amount}"
