"""The "Recurrences" tab (Pix Automático): recurrences and their recurring charges, the
new-recurrence wizard, and the recurrence locations (locrec).

The list (with its detail dialog, where recurring charges are created and followed) and the
locations panel are widgets of their own; this tab lays them out and opens the wizard.
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from treasury_app.services.workspace import Workspace
from treasury_app.ui.dialogs.recurrence_wizard import RecurrenceWizard
from treasury_app.ui.tabs.sectioned_tab import SectionedTab
from treasury_app.ui.widgets.locations_panel import LocationsPanel
from treasury_app.ui.widgets.recurrences_list import RecurrencesList


class RecurrencesTab(SectionedTab):
    """Recurrences and recurrence locations; "New recurrence…" opens the wizard (the last one
    opened is :attr:`wizard`)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__("recurrences", parent)
        self.workspace = workspace
        self.wizard: RecurrenceWizard | None = None
        self.intro.setText(
            self.tr(
                "Pix Automático: payers authorise the company once, then each recurring charge "
                "is debited on its date."
            )
        )
        self.new_button = self.action_button
        self.new_button.setText(self.tr("New recurrence…"))
        self.new_button.setToolTip(
            self.tr("Agree a Pix Automático recurrence with a payer (four journeys)")
        )
        self.new_button.clicked.connect(self.open_wizard)
        self.recurrences = RecurrencesList(workspace, self)
        self.locations = LocationsPanel(workspace, kind="rec", parent=self)
        self.sections.addTab(self.recurrences, self.tr("Recurrences"))
        self.sections.addTab(self.locations, self.tr("Recurrence locations"))

    def open_wizard(self) -> RecurrenceWizard:
        """Open the new-recurrence wizard; the list reloads once a recurrence was created."""
        wizard = RecurrenceWizard(self.workspace, self)
        wizard.recurrence_created.connect(lambda _id_rec: self.reload_section(self.recurrences))
        self.wizard = wizard
        wizard.open()
        return wizard
