"""The "Charges & batches" tab: issue Pix charges (cob, cobv) and follow them, the Pix received
and their refunds, batches of due-date charges, and reusable payload locations.

Each section is its own widget (``ui/widgets``); this tab lays them out, opens the new-charge
form, and loads a section the first time it is shown (none does I/O when built).
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTabWidget, QVBoxLayout, QWidget

from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog
from treasury_app.ui.widgets.charge_batches import ChargeBatches
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.locations_panel import LocationsPanel
from treasury_app.ui.widgets.received_pix_list import ReceivedPixList


class ChargesTab(QWidget):
    """Charges, received Pix, batches and locations, one sub-tab each.

    Tests await :attr:`load_task` (the current section's first load) and find the last form
    opened in :attr:`form_dialog`.
    """

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("charges-tab")
        self.workspace = workspace
        self.form_dialog: ChargeFormDialog | None = None
        self.load_task: asyncio.Task[Any] | None = None
        self._loaded: set[int] = set()
        self._tasks: list[asyncio.Task[Any]] = []
        self._closed = False  # after shutdown: the window shows other tabs while removing these

        self.new_button = QPushButton(self.tr("New charge…"), self)
        self.new_button.setObjectName("new-charge")
        self.new_button.setToolTip(
            self.tr("Issue an immediate charge or one with a due date, and show its QR Code")
        )
        self.new_button.clicked.connect(self.open_new_charge)

        self.charges = ChargesList(workspace, self)
        self.received = ReceivedPixList(workspace, self)
        self.batches = ChargeBatches(workspace, self)
        self.locations = LocationsPanel(workspace, kind="cob", parent=self)
        self.sections = QTabWidget(self)
        self.sections.setObjectName("charges-sections")
        self.sections.addTab(self.charges, self.tr("Charges"))
        self.sections.addTab(self.received, self.tr("Received Pix"))
        self.sections.addTab(self.batches, self.tr("Batches"))
        self.sections.addTab(self.locations, self.tr("Locations"))
        self.sections.currentChanged.connect(self._section_shown)

        header = QHBoxLayout()
        intro = QLabel(self.tr("Charges the company issues by Pix, and what was received."), self)
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

    def open_new_charge(self) -> ChargeFormDialog:
        """Open the charge form; the list reloads once a charge was created."""
        dialog = ChargeFormDialog(self.workspace, self)
        dialog.charge_created.connect(self._charge_created)
        self.form_dialog = dialog
        dialog.open()
        return dialog

    def _charge_created(self, _charge: object) -> None:
        self.sections.setCurrentWidget(self.charges)
        self._track(spawn(self.charges.reload()))

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
