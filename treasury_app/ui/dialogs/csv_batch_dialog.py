"""The base of the batch dialogs (charges with a due date, Pix payouts): the error banner and
the file row on top, a chosen file read in a worker thread while the window stays responsive,
and that reading cancelled when the dialog is closed."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, ClassVar

from PySide6.QtWidgets import QDialog, QFileDialog, QVBoxLayout, QWidget

from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.widgets.csv_reading import CsvFileRow
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["CsvBatchDialog"]


class CsvBatchDialog(QDialog):
    """A subclass builds its window under :meth:`build_top` and reads a file in
    :meth:`read_file`; :attr:`read_name` names that task."""

    read_name: ClassVar[str]

    def __init__(self, workspace: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.load_task: asyncio.Task[None] | None = None
        self._sending = False

    def build_top(self, layout: QVBoxLayout, **file_row: str) -> None:
        """The banner and the file row (``file_row``: :class:`CsvFileRow`'s texts)."""
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        self.file_row = CsvFileRow(self.banner, parent=self, **file_row)
        self.file_row.chosen.connect(self.load_file)
        self.open_button = self.file_row.open_button
        self.template_button = self.file_row.template_button
        self.source_label = self.file_row.source_label
        self.reader = self.file_row.reader
        layout.addWidget(self.file_row)

    @property
    def file_dialog(self) -> QFileDialog | None:
        """The picker last opened (a file to read, or where to save the template)."""
        return self.file_row.file_dialog

    def write_template(self, path: str | Path) -> None:
        """The columns the dialog reads, with example lines."""
        self.file_row.write_template(path)

    def can_open(self) -> bool:
        """Whether a file may be read now (not while sending, not two at once)."""
        return not self._sending and not self.reader.reading

    def load_file(self, path: str | Path) -> asyncio.Task[None] | None:
        """Read, decode and check the file in a worker thread (the window stays responsive,
        with a progress bar and Cancel); the batch shown is replaced only when it succeeds."""
        if not self.can_open():
            return None
        self.load_task = spawn_for(self, self.read_file(Path(path)), name=self.read_name)
        return self.load_task

    def read_file(self, path: Path) -> Coroutine[Any, Any, None]:
        raise NotImplementedError

    def reject(self) -> None:
        # A file being read stops being read (the worker at its next check; the task now).
        self.reader.cancel()
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()
        super().reject()
