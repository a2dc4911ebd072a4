"""A tab made of sections (sub-tabs) under a header with one sentence and one action button:
each section loads the first time it is shown, and everything stops on lock.

The "Charges & batches" and "Recurrences" tabs are built on it; a section is any widget with
``async def reload()`` and, optionally, ``shutdown()``.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from treasury_app.ui.async_tools import spawn_for


class SectionedTab(QWidget):
    """Header (``intro`` and :attr:`action_button`) over :attr:`sections`.

    Tests await :attr:`load_task`, the last load started.
    """

    def __init__(self, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"{name}-tab")
        self.load_task: asyncio.Task[Any] | None = None
        self._loaded: set[int] = set()
        self._tasks: list[asyncio.Task[Any]] = []
        self._closed = False  # after shutdown: the window shows other tabs while removing these
        self.intro = QLabel(self)
        self.intro.setWordWrap(True)
        self.action_button = QPushButton(self)
        self.action_button.setObjectName(f"new-{name.removesuffix('s')}")
        self.sections = QTabWidget(self)
        self.sections.setObjectName(f"{name}-sections")
        self.sections.currentChanged.connect(self._section_shown)
        header = QHBoxLayout()
        header.addWidget(self.intro, 1)
        header.addWidget(self.action_button)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.sections, 1)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """Load the current section the first time the tab is seen (not at unlock)."""
        super().showEvent(event)
        self._section_shown(self.sections.currentIndex())

    def reload_section(self, section: Any) -> None:
        """Show ``section`` and load it again (after the action created something in it)."""
        self.sections.setCurrentWidget(section)
        self._track(spawn_for(section, section.reload()))

    def _section_shown(self, index: int) -> None:
        if self._closed or index < 0 or index in self._loaded or not self.isVisible():
            return  # (adding the first section makes it current: not a reason to load)
        self._loaded.add(index)
        section: Any = self.sections.widget(index)
        self._track(spawn_for(section, section.reload()))

    def _track(self, task: asyncio.Task[Any]) -> None:
        self.load_task = task
        self._tasks = [t for t in self._tasks if not t.done()] + [task]

    def shutdown(self) -> None:
        """Before the session closes (lock, switch): cancel the loads and stop every section."""
        self._closed = True
        for task in self._tasks:
            task.cancel()
        for index in range(self.sections.count()):
            stop = getattr(self.sections.widget(index), "shutdown", None)
            if callable(stop):
                stop()
