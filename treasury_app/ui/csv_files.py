"""CSV files of the batch dialogs (payouts, due-date charges): the pickers, reading a file as
spreadsheets save it, and writing a template that spreadsheets open with its accents."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QFileDialog, QWidget


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


def read_csv_text(path: str | Path) -> str:
    """The file's text: UTF-8 (with or without BOM), else Windows-1252, which older
    spreadsheets save. Raises :class:`OSError` when it cannot be read."""
    return read_csv_file(path)[0]


def read_csv_file(path: str | Path) -> tuple[str, str]:
    """The file's text (as :func:`read_csv_text` reads it) and the SHA-256 of its bytes, from
    one read. Raises :class:`OSError` when it cannot be read."""
    raw = Path(path).read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = raw.decode("cp1252", errors="replace")
    return text, hashlib.sha256(raw).hexdigest()


def write_csv_text(path: str | Path, text: str) -> None:
    """Write ``text`` with a BOM, so that spreadsheets read the accents as UTF-8."""
    Path(path).write_text(text, encoding="utf-8-sig")
