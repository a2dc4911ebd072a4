"""The Settings tab, in seven pages: the profile, where its ledger lives and both certificates,
the webhooks registered
at the bank (both APIs), the infractions reported against the account, how scheduled payments
leave (send time, tolerance, retries, extra non-business days), the audit log, the
backups (folder, days kept, back up now, restore), and about and support (the log folder,
diagnostics, the ledger backup)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QLabel,
    QTableWidget,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app import logging_setup
from treasury_app.services.profiles import API_LABELS
from treasury_app.services.secret_store import SecretStore
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import api_title
from treasury_app.ui.operation import events
from treasury_app.ui.policy_view import ManagedSettingsPanel, policy_mark
from treasury_app.ui.times import InstantForm, format_instant
from treasury_app.ui.widgets.audit_panel import AuditPanel
from treasury_app.ui.widgets.backup_panel import BackupPanel
from treasury_app.ui.widgets.infractions_panel import InfractionsPanel
from treasury_app.ui.widgets.ledger_panel import LedgerPanel
from treasury_app.ui.widgets.schedule_settings_panel import ScheduleSettingsPanel
from treasury_app.ui.widgets.support_panel import SupportPanel
from treasury_app.ui.widgets.webhooks_panel import WebhooksPanel


class SettingsTab(QWidget):
    """Profile and certificates, webhooks, infractions and the audit log, as sub-tabs. The
    webhooks and infractions pages ask the bank the first time they are shown (and again on
    :meth:`refresh`)."""

    def __init__(self, workspace: Workspace | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("settings-tab")
        self.workspace = workspace
        self.webhooks_panel: WebhooksPanel | None = None
        self.infractions_panel: InfractionsPanel | None = None
        self.ledger_panel: LedgerPanel | None = None
        self._loaded: set[int] = set()
        self._tasks: list[asyncio.Task[Any]] = []

        self.pages = QTabWidget(self)
        self.pages.setObjectName("settings-pages")
        self.pages.addTab(
            self._build_profile(), self.tr("Profile & certificates").replace("&", "&&")
        )
        if workspace is not None:
            self.webhooks_panel = WebhooksPanel(workspace, self.pages)
            self.pages.addTab(self.webhooks_panel, self.tr("Webhooks"))
            self.infractions_panel = InfractionsPanel(workspace, self.pages)
            self.pages.addTab(self.infractions_panel, self.tr("Infractions"))
        self.schedule_panel: ScheduleSettingsPanel | None = None
        if workspace is not None:
            self.schedule_panel = ScheduleSettingsPanel(workspace, self.pages)
            self.pages.addTab(self.schedule_panel, self.tr("Scheduled payments"))
        self.pages.addTab(self._build_audit(), self.tr("Audit log"))
        self.backup_panel: BackupPanel | None = None
        if workspace is not None:
            self.backup_panel = BackupPanel(workspace, self.pages)
            self.pages.addTab(self.backup_panel, self.tr("Backups"))
        self.support_panel = self._build_support()
        self.pages.addTab(self.support_panel, self.tr("About & support").replace("&", "&&"))
        # What the IT department set on this computer (the machine policy), when it sets any.
        self.managed_panel: ManagedSettingsPanel | None = None
        if workspace is not None and not workspace.policy.is_empty:
            self.managed_panel = ManagedSettingsPanel(workspace.policy, self.pages)
            self.pages.addTab(self.managed_panel, self.tr("Managed by your organisation"))
        self.pages.currentChanged.connect(lambda _index: self._load_shown())
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        self.refresh_audit()
        events.ledger_changed.connect(self.refresh_audit)
        self._listening = True

    # -- building --------------------------------------------------------------------------------

    def _build_profile(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        profile_box = QGroupBox(self.tr("Profile"), page)
        profile_form = QFormLayout(profile_box)
        certificates_box = QGroupBox(self.tr("Certificates"), page)
        certificates_form = QFormLayout(certificates_box)
        if self.workspace is not None:
            session = self.workspace.session
            profile = session.profile
            profile_form.addRow(self.tr("Name"), QLabel(profile.name))
            if self.workspace.policy.preset(profile.name) is not None:
                profile_form.addRow("", policy_mark(page))
            profile_form.addRow(self.tr("Environment"), QLabel(profile.environment))
            store = SecretStore()
            reason = store.unavailable_reason
            if reason is None:
                text = self.tr("Kept in the system keyring (%1).").replace("%1", store.backend_name)
            elif "plain-text" in reason:
                text = self.tr(
                    "The keyring backend (%1) stores secrets in a plain-text file: client secrets "
                    "are asked for at each unlock instead."
                ).replace("%1", store.backend_name)
            else:
                text = self.tr(
                    "No system keyring was found: client secrets are asked for at each unlock."
                )
            self.secrets_label = QLabel(text, self)
            self.secrets_label.setObjectName("settings-secrets")
            self.secrets_label.setWordWrap(True)
            profile_form.addRow(self.tr("Client secrets"), self.secrets_label)
            for api in API_LABELS:
                api_profile = getattr(profile, api)
                profile_form.addRow(api_title(api), QLabel(str(api_profile.base_url)))
                info = session.certificates[api]
                text = f"{info.subject}\n" + self.tr("valid until %1").replace(
                    "%1", format_instant(info.not_after, InstantForm.DATE)
                )
                if info.expiry_warning:
                    text += f"\n⚠ {info.expiry_warning}"
                certificates_form.addRow(api_title(api), QLabel(text))
            # The profile's proxy setting, then where each API's requests really go.
            setting = profile.proxy
            lines = [
                self.tr("This proxy: %1").replace("%1", setting.describe())
                if setting.mode == "url"
                else self.tr("No proxy (direct)")
                if setting.mode == "none"
                else self.tr("The system's proxy")
            ]
            direct = {
                "loopback": self.tr("direct (this computer)"),
                "bypass": self.tr("direct (bypass list)"),
                "no-system-proxy": self.tr("direct (no system proxy)"),
            }
            for api in API_LABELS:
                route = session.transports[api].proxy_route
                shown = (
                    self.tr("through %1").replace("%1", route.shown)
                    if route.proxy
                    else direct.get(route.reason, self.tr("direct"))
                )
                lines.append(self.tr("%1: %2").replace("%1", api_title(api)).replace("%2", shown))
            self.proxy_label = QLabel("\n".join(lines), self)
            self.proxy_label.setObjectName("settings-proxy")
            profile_form.addRow(self.tr("Proxy"), self.proxy_label)
        layout.addWidget(profile_box)
        if self.workspace is not None:
            self.ledger_panel = LedgerPanel(self.workspace.session, page)
            # The audit anchor's warning first on the page, above everything else.
            layout.insertWidget(0, self.ledger_panel.anchor_banner)
            layout.addWidget(self.ledger_panel)
        layout.addWidget(certificates_box)
        layout.addStretch(1)
        return page

    def _build_audit(self) -> QWidget:
        audit_box = QGroupBox(self.tr("Audit log (newest first)"), self)
        audit_layout = QVBoxLayout(audit_box)
        self.audit_panel: AuditPanel | None = None
        if self.workspace is not None:
            self.audit_panel = AuditPanel(self.workspace.ledger, audit_box)
            self.audit_table = self.audit_panel.table
            audit_layout.addWidget(self.audit_panel)
        return audit_box

    def _build_support(self) -> SupportPanel:
        return SupportPanel(self.workspace, logging_setup.log_folder(), self.pages)

    # -- compatibility with the single-page tab --------------------------------------------------

    @property
    def webhooks_table(self) -> QTableWidget | None:
        return self.webhooks_panel.table if self.webhooks_panel is not None else None

    async def load_webhooks(self) -> None:
        """Ask both APIs which webhooks are registered (header values are never shown)."""
        if self.webhooks_panel is not None:
            await self.webhooks_panel.reload()

    # -- loading ---------------------------------------------------------------------------------

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._load_shown()

    def _load_shown(self, *, again: bool = False) -> None:
        """Spawn the reload of the page shown, the first time it is shown (or ``again``)."""
        if self.workspace is None or self.workspace.session.closed or not self.isVisible():
            return
        index = self.pages.currentIndex()
        panel = self.pages.widget(index)
        reload = getattr(panel, "reload", None)
        if not callable(reload) or (index in self._loaded and not again):
            return
        self._loaded.add(index)
        self._tasks = [task for task in self._tasks if not task.done()]
        self._tasks.append(spawn_for(panel, reload(), name=f"settings-page-{index}"))

    def refresh(self) -> None:
        """The View menu's Refresh: the audit log, and the page shown is read again."""
        self.refresh_audit()
        self._load_shown(again=True)

    def shutdown(self) -> None:
        """Before the session closes: stop listening, close dialogs, cancel the pages'
        requests."""
        if self._listening:  # shutdown may run twice (lock, then the window's close)
            self._listening = False
            with contextlib.suppress(RuntimeError):
                events.ledger_changed.disconnect(self.refresh_audit)
        for panel in (self.webhooks_panel, self.infractions_panel):
            if panel is not None:
                panel.shutdown()
        self.support_panel.shutdown()
        if self.backup_panel is not None:
            self.backup_panel.shutdown()
        if self.ledger_panel is not None:
            self.ledger_panel.shutdown()
        if self.audit_panel is not None:
            self.audit_panel.shutdown()
        for task in self._tasks:
            if not task.done():
                task.cancel()
        self._tasks.clear()

    def refresh_audit(self) -> None:
        """Reload the audit log (its filters kept, back to its newest page)."""
        if self.workspace is None or self.workspace.session.closed or self.audit_panel is None:
            return
        self.audit_panel.reload()
