"""The Settings tab: the profile, both certificates, the webhooks registered at the bank and
the audit log."""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.money import format_brl
from treasury_app.services.profiles import API_LABELS
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.operation import events, run_operation
from treasury_app.ui.widgets.error_banner import ErrorBanner


class SettingsTab(QWidget):
    """Profile, certificates and the audit log (webhooks arrive with their own issue)."""

    def __init__(self, workspace: Workspace | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settings-tab")
        self.workspace = workspace
        layout = QVBoxLayout(self)
        profile_box = QGroupBox(self.tr("Profile"), self)
        profile_form = QFormLayout(profile_box)
        certificates_box = QGroupBox(self.tr("Certificates"), self)
        certificates_form = QFormLayout(certificates_box)
        if workspace is not None:
            session = workspace.session
            profile = session.profile
            profile_form.addRow(self.tr("Name"), QLabel(profile.name))
            profile_form.addRow(self.tr("Environment"), QLabel(profile.environment))
            for api, label in API_LABELS.items():
                api_profile = getattr(profile, api)
                profile_form.addRow(
                    self.tr("%1 API").replace("%1", label), QLabel(str(api_profile.base_url))
                )
                info = session.certificates[api]
                text = f"{info.subject}\n" + self.tr("valid until %1").replace(
                    "%1", info.not_after.strftime("%Y-%m-%d")
                )
                if info.expiry_warning:
                    text += f"\n⚠ {info.expiry_warning}"
                certificates_form.addRow(self.tr("%1 API").replace("%1", label), QLabel(text))
        layout.addWidget(profile_box)
        layout.addWidget(certificates_box)
        webhooks_box = QGroupBox(self.tr("Webhooks registered at the bank"), self)
        webhooks_layout = QVBoxLayout(webhooks_box)
        self.banner = ErrorBanner(webhooks_box)
        webhooks_layout.addWidget(self.banner)
        self.webhooks_table = QTableWidget(0, 3, webhooks_box)
        self.webhooks_table.setObjectName("webhooks-table")
        self.webhooks_table.setHorizontalHeaderLabels(
            [self.tr("Kind"), self.tr("Pix key"), self.tr("Address")]
        )
        self.webhooks_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.webhooks_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.webhooks_table.setMaximumHeight(170)
        webhooks_layout.addWidget(self.webhooks_table)
        self.webhooks_button = QPushButton(self.tr("Check webhooks"), webhooks_box)
        self.webhooks_button.setObjectName("check-webhooks")
        self.webhooks_button.clicked.connect(lambda: spawn(self.load_webhooks()))
        self.webhooks_button.setEnabled(workspace is not None)
        webhooks_layout.addWidget(self.webhooks_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(webhooks_box)
        audit_box = QGroupBox(self.tr("Audit log (newest first)"), self)
        audit_layout = QVBoxLayout(audit_box)
        self.audit_table = QTableWidget(0, 6, audit_box)
        self.audit_table.setObjectName("audit-table")
        self.audit_table.setHorizontalHeaderLabels(
            [
                self.tr("When (UTC)"),
                self.tr("User"),
                self.tr("Action"),
                self.tr("Outcome"),
                self.tr("Reference"),
                self.tr("Amount"),
            ]
        )
        self.audit_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.audit_table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        audit_layout.addWidget(self.audit_table)
        layout.addWidget(audit_box, 1)
        self.refresh()
        events.ledger_changed.connect(self.refresh)

    async def load_webhooks(self) -> None:
        """Ask both APIs which webhooks are registered (header values are never shown)."""
        if self.workspace is None:
            return
        views = await run_operation(
            self.workspace.webhooks.overview(),
            controls=[self.webhooks_button],
            banner=self.banner,
        )
        if views is None or not shiboken6.isValid(self.webhooks_table):
            return
        self.webhooks_table.setRowCount(len(views))
        for index, view in enumerate(views):
            values = [
                str(getattr(view.kind, "value", view.kind)),
                view.key or "",
                view.url or self.tr("(not registered)"),
            ]
            for column, value in enumerate(values):
                self.webhooks_table.setItem(index, column, QTableWidgetItem(value))

    def refresh(self) -> None:
        """Reload the newest 200 audit rows (a bounded list: a table widget is fine here)."""
        if self.workspace is None or self.workspace.session.closed:
            return
        rows = self.workspace.ledger.audit.entries(limit=200)
        self.audit_table.setRowCount(len(rows))
        for index, row in enumerate(rows):
            values = [
                row.at.replace("T", " ")[:19],
                row.os_user,
                row.action,
                row.outcome,
                row.reference,
                format_brl(row.amount) if row.amount is not None else "",
            ]
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column == 5:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.audit_table.setItem(index, column, item)
