"""The "Charges & batches" tab: issue Pix charges (cob, cobv) and follow them, the Pix received
and their refunds, batches of due-date charges, and reusable payload locations.

Each section is its own widget (``ui/widgets``); this tab lays them out and opens the
new-charge form (:class:`~treasury_app.ui.tabs.sectioned_tab.SectionedTab` loads a section the
first time it is shown).
"""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from treasury_app.services.workspace import Workspace
from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog
from treasury_app.ui.tabs.sectioned_tab import SectionedTab
from treasury_app.ui.widgets.charge_batches import ChargeBatches
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.locations_panel import LocationsPanel
from treasury_app.ui.widgets.received_pix_list import ReceivedPixList


class ChargesTab(SectionedTab):
    """Charges, received Pix, batches and locations; "New charge…" opens the form (the last
    one opened is :attr:`form_dialog`)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__("charges", parent)
        self.workspace = workspace
        self.form_dialog: ChargeFormDialog | None = None
        self.intro.setText(self.tr("Charges the company issues by Pix, and what was received."))
        self.new_button = self.action_button
        self.new_button.setText(self.tr("New charge…"))
        self.new_button.setToolTip(
            self.tr("Issue an immediate charge or one with a due date, and show its QR Code")
        )
        self.new_button.clicked.connect(self.open_new_charge)
        self.charges = ChargesList(workspace, self)
        self.received = ReceivedPixList(workspace, self)
        self.batches = ChargeBatches(workspace, self)
        self.locations = LocationsPanel(workspace, kind="cob", parent=self)
        self.sections.addTab(self.charges, self.tr("Charges"))
        self.sections.addTab(self.received, self.tr("Received Pix"))
        self.sections.addTab(self.batches, self.tr("Batches"))
        self.sections.addTab(self.locations, self.tr("Locations"))

    def open_new_charge(self) -> ChargeFormDialog:
        """Open the charge form; the list reloads once a charge was created."""
        dialog = ChargeFormDialog(self.workspace, self)
        dialog.charge_created.connect(lambda _charge: self.reload_section(self.charges))
        self.form_dialog = dialog
        dialog.open()
        return dialog
