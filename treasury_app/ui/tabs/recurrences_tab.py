"""The "Recurrences" tab (Pix Automático): recurrences and their recurring charges, the
new-recurrence wizard, and the recurrence locations (locrec).

The list (with its detail dialog, where recurring charges are created and followed) and the
locations panel are widgets of their own; this tab lays them out and opens the wizard.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.dialogs.recurrence_wizard import RecurrenceWizard
from treasury_app.ui.widgets.locations_panel import LocationsPanel
from treasury_app.ui.widgets.recurrences_list import RecurrencesList


class RecurrencesTab(QWidget):
    """Recurrences and recurrence locations, one sub-tab each, and the "New recurrence…" wizard.

    Tests await :attr:`load_task` and find the last wizard opened in :attr:`wizard`.
    """

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("recurrences-tab")
        self.workspace = workspace
        self.wizard: RecurrenceWizard | None = None
        self.load_task: asyncio.Task[Any] | None = None
        self._loaded: set[int] = set()
        self._tasks: list[asyncio.Task[Any]] = []
        self._closed = False  # after shutdown: the window shows other tabs while removing these

        self.new_button = QPushButton(self.tr("New recurrence…"), self)
        self.new_button.setObjectName("new-recurrence")
        self.new_button.setToolTip(
            self.tr("Agree a Pix Automático recurrence with a payer (four journeys)")
        )
        self.new_button.clicked.connect(self.open_wizard)

        self.recurrences = RecurrencesList(workspace, self)
        self.locations = LocationsPanel(workspace, kind="rec", parent=self)
        self.sections = QTabWidget(self)
        self.sections.setObjectName("recurrences-sections")
        self.sections.addTab(self.recurrences, self.tr("Recurrences"))
        self.sections.addTab(self.locations, self.tr("Recurrence locations"))
        self.sections.currentChanged.connect(self._section_shown)

        header = QHBoxLayout()
        intro = QLabel(
            self.tr(
                "Pix Automático: payers authorise the company once, then each recurring charge "
                "is debited on its date."
            ),
            self,
        )
        intro.setWordWrap(True)
        header.addWidget(intro, 1)
        header.addWidget(self.new_button)
        layout = QVBoxLayout(self)
        layout.addLayout(header)
        layout.addWidget(self.sections, 1)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """Load the current section the first time the tab is seen (not at unlock)."""
        super().showEvent(event)
        self._section_shown(self.sections.currentIndex())

    def open_wizard(self) -> RecurrenceWizard:
        """Open the new-recurrence wizard; the list reloads once a recurrence was created."""
        wizard = RecurrenceWizard(self.workspace, self)
        wizard.recurrence_created.connect(self._recurrence_created)
        self.wizard = wizard
        wizard.open()
        return wizard

    def _recurrence_created(self, _id_rec: str) -> None:
        self.sections.setCurrentWidget(self.recurrences)
        self._track(spawn(self.recurrences.reload()))

    def _section_shown(self, index: int) -> None:
        if self._closed or index < 0 or index in self._loaded:
            return
        self._loaded.add(index)
        section: Any = self.sections.widget(index)
        self._track(spawn(section.reload()))

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
