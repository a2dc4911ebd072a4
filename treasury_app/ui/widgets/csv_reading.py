"""Reading a CSV file without freezing the window: the file is read, decoded and checked in a
worker thread while this bar shows how far it got, with a Cancel button; and
:class:`CsvFileRow`, the top of a batch dialog built around it.

The worker touches no widget and no journal: it shares only a
:class:`~treasury_app.services.csv_input.ReadControl` with the window (the share read, written
by the worker; the cancel request, set by the window), and a timer on the window's side moves
the bar."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import shiboken6
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.services.csv_input import (
    CsvFileError,
    ReadCancelled,
    ReadControl,
    read_csv_path,
)
from treasury_app.ui.csv_files import open_csv_dialog, save_csv_dialog, write_csv_text
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.widgets.error_banner import ErrorBanner

T = TypeVar("T")

__all__ = ["CsvFileRow", "CsvReadingBar"]


class CsvReadingBar(QWidget):
    """Hidden until :meth:`read`; then "Reading <file>…", a progress bar and Cancel."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("csv-reading")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(self)
        self.bar = QProgressBar(self)
        self.bar.setObjectName("csv-reading-progress")
        self.bar.setRange(0, 100)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("csv-reading-cancel")
        self.cancel_button.setAutoDefault(False)
        self.cancel_button.clicked.connect(self.cancel)
        layout.addWidget(self.label)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.cancel_button)
        self.control: ReadControl | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(50)
        self.timer.timeout.connect(self._show_progress)
        self.hide()

    @property
    def reading(self) -> bool:
        return self.control is not None

    def cancel(self) -> None:
        """Ask the worker to stop at its next check (within a few hundred lines)."""
        if self.control is not None:
            self.control.cancel.set()
            self.cancel_button.setEnabled(False)
            self.label.setText(self.tr("Cancelling…"))

    async def read(self, path: str | Path, parse: Callable[[str, ReadControl], T]) -> tuple[T, str]:
        """``parse(text, control)`` of the file's text, in a worker thread, and the SHA-256 of
        its bytes. Raises what reading raises: :class:`OSError`,
        :class:`~treasury_app.services.csv_input.CsvFileError`,
        :class:`~treasury_app.services.csv_input.ReadCancelled`."""
        if self.control is not None:
            raise RuntimeError("A file is being read already.")
        control = self.control = ReadControl()
        self.label.setText(self.tr("Reading %1…").replace("%1", Path(path).name))
        self.bar.setValue(0)
        self.cancel_button.setEnabled(True)
        self.show()
        self.timer.start()
        try:
            return await asyncio.to_thread(_read_and_parse, Path(path), parse, control)
        except asyncio.CancelledError:  # the window closed: the worker stops at its next check
            control.cancel.set()
            raise
        finally:
            self.control = None
            if shiboken6.isValid(self):  # the window may have been closed and deleted meanwhile
                self.timer.stop()
                self.hide()

    def _show_progress(self) -> None:
        if self.control is not None:
            self.bar.setValue(round(self.control.fraction * 100))


class CsvFileRow(QWidget):
    """The top of a batch dialog: "Open CSV…", the template button and which file is shown,
    with the reading bar in the label's place while a file is read (:meth:`read`). What goes
    wrong is told on ``banner``; the dialog decides what a file means and when one may be
    opened (:attr:`chosen` gives it the path picked)."""

    chosen = Signal(str)

    def __init__(
        self,
        banner: ErrorBanner,
        *,
        open_title: str,
        template_label: str,
        template_name: str,
        template: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.banner = banner
        self._open_title = open_title
        self._template_name = template_name
        self._template = template
        self.file_dialog: QFileDialog | None = None  # the picker last opened
        self.open_button = QPushButton(self.tr("Open CSV…"), self)
        self.open_button.clicked.connect(self.choose_file)
        self.template_button = QPushButton(template_label, self)
        self.template_button.clicked.connect(self.choose_template_path)
        self.source_label = QLabel(self.tr("No file opened."), self)
        self.reader = CsvReadingBar(self)
        files = QHBoxLayout()
        files.addWidget(self.open_button)
        files.addWidget(self.template_button)
        files.addWidget(self.source_label, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(files)
        layout.addWidget(self.reader)

    def choose_file(self) -> None:
        self.file_dialog = open_csv_dialog(self.window(), self._open_title, self.chosen.emit)

    def choose_template_path(self) -> None:
        self.file_dialog = save_csv_dialog(
            self.window(),
            self.tr("Save a batch template"),
            self._template_name,
            self.write_template,
        )

    def write_template(self, path: str | Path) -> None:
        """The columns the dialog reads, with example lines."""
        try:
            write_csv_text(path, self._template)
        except OSError as error:
            self.banner.show_error(error)
            return
        self.source_label.setText(self.tr("Template saved to %1").replace("%1", str(path)))

    async def read(
        self, path: Path, parse: Callable[[str, ReadControl], T]
    ) -> tuple[T, str] | None:
        """:meth:`CsvReadingBar.read`, or ``None`` once the banner says why nothing was read
        (cancelled, not a CSV file the app reads, not readable at all)."""
        self.source_label.hide()  # the reading bar says which file
        try:
            result = await self.reader.read(path, parse)
        except (ReadCancelled, CsvFileError, OSError) as error:
            if shiboken6.isValid(self) and shiboken6.isValid(self.banner):
                self._tell(path, error)
            return None
        finally:
            if shiboken6.isValid(self):  # the window may have been closed and deleted meanwhile
                self.source_label.show()
        return result if shiboken6.isValid(self) else None

    def _tell(self, path: Path, error: Exception) -> None:
        if isinstance(error, ReadCancelled):
            self.banner.show_message(
                self.tr("Reading cancelled"),
                self.tr("Nothing was loaded from %1.").replace("%1", path.name),
            )
        elif isinstance(error, CsvFileError):
            self.banner.show_message(self.tr("This file cannot be read"), rule_text(error))
        else:
            self.banner.show_error(error)


def _read_and_parse(
    path: Path, parse: Callable[[str, ReadControl], T], control: ReadControl
) -> tuple[T, str]:
    text, sha256 = read_csv_path(path)
    control.check()
    return parse(text, control), sha256
