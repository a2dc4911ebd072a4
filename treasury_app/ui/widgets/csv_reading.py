"""Reading a CSV file without freezing the window: the file is read, decoded and checked in a
worker thread while this bar shows how far it got, with a Cancel button.

The worker touches no widget and no journal: it shares only a
:class:`~treasury_app.services.csv_input.ReadControl` with the window (the share read, written
by the worker; the cancel request, set by the window), and a timer on the window's side moves
the bar."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from treasury_app.services.csv_input import ReadControl, read_csv_path

T = TypeVar("T")

__all__ = ["CsvReadingBar"]


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
            self.timer.stop()
            self.control = None
            self.hide()

    def _show_progress(self) -> None:
        if self.control is not None:
            self.bar.setValue(round(self.control.fraction * 100))


def _read_and_parse(
    path: Path, parse: Callable[[str, ReadControl], T], control: ReadControl
) -> tuple[T, str]:
    text, sha256 = read_csv_path(path)
    control.check()
    return parse(text, control), sha256
