"""The main window: one tab per area of work, menus, and the status bar.

Tabs that later work fills show their empty state. The window knows nothing of start-up: the
:class:`~treasury_app.ui.controller.AppController` gives it a workspace and listens to its
``lock_requested`` / ``switch_profile_requested`` / ``quit_requested`` signals.
"""

from __future__ import annotations

import contextlib
import platform
from collections.abc import Callable

import httpx
import pydantic
import PySide6
import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, QByteArray, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QLabel,
    QMainWindow,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app import __version__
from treasury_app.domain.money import format_brl
from treasury_app.services.profiles import API_LABELS
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.operation import events, run_operation
from treasury_app.ui.widgets.api_status import StatusPanel
from treasury_app.ui.widgets.error_banner import ErrorBanner

# Tab titles in the order the treasury staff see them (marked for lupdate; translated in
# the MainWindow context when shown).
TAB_TITLES: tuple[str, ...] = (
    QT_TRANSLATE_NOOP("MainWindow", "Balance & statement"),
    QT_TRANSLATE_NOOP("MainWindow", "Pix payouts"),
    QT_TRANSLATE_NOOP("MainWindow", "Boletos"),
    QT_TRANSLATE_NOOP("MainWindow", "Charges & batches"),
    QT_TRANSLATE_NOOP("MainWindow", "Recurrences"),
    QT_TRANSLATE_NOOP("MainWindow", "Settings"),
)
SETTINGS_GROUP = "main-window"


class EmptyStateTab(QWidget):
    """A tab that has nothing to show yet, saying so instead of appearing broken."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(f"empty-state:{title}")
        layout = QVBoxLayout(self)
        message = QLabel(self.tr("%1 arrives in a coming version.").replace("%1", title), self)
        message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        message.setWordWrap(True)
        layout.addWidget(message)


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


def _statement_tab(workspace: Workspace, parent: QWidget) -> QWidget:
    from treasury_app.ui.tabs.statement_tab import StatementTab

    return StatementTab(workspace, parent)


class MainWindow(QMainWindow):
    """Top-level window holding the tabs, the menus and the status bar."""

    lock_requested = Signal()
    switch_profile_requested = Signal()
    edit_profile_requested = Signal()
    quit_requested = Signal()

    def __init__(self, workspace: Workspace | None = None) -> None:
        super().__init__()
        self.workspace = workspace
        title = self.tr("Treasury") + f" {__version__}"
        if workspace is not None:
            profile = workspace.session.profile
            title += f" — {profile.name}"
            if profile.environment == "sandbox":
                title += " " + self.tr("(SANDBOX)")
        self.setWindowTitle(title)
        self.resize(1100, 720)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        factories: dict[str, Callable[[Workspace, QWidget], QWidget]] = {
            "Balance & statement": _statement_tab,
        }
        for name in TAB_TITLES:
            factory = factories.get(name)
            if name == "Settings":
                widget: QWidget = SettingsTab(workspace, self.tabs)
            elif workspace is not None and factory is not None:
                widget = factory(workspace, self.tabs)
            else:
                widget = EmptyStateTab(self.tr(name), self.tabs)
            # "&" marks a keyboard mnemonic in Qt labels; "&&" shows a literal ampersand.
            self.tabs.addTab(widget, self.tr(name).replace("&", "&&"))
        self.setCentralWidget(self.tabs)
        self.status_panel = StatusPanel(workspace.session if workspace else None, self)
        self.statusBar().addPermanentWidget(self.status_panel)
        self.statusBar().showMessage(
            self.tr("Ready") if workspace is not None else self.tr("Not connected")
        )
        self._build_menus()
        self._restore()

    # -- menus ---------------------------------------------------------------------------------

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        self.switch_action = file_menu.addAction(self.tr("&Switch profile…"))
        self.switch_action.triggered.connect(self.switch_profile_requested)
        self.edit_profile_action = file_menu.addAction(self.tr("&Edit profile…"))
        self.edit_profile_action.triggered.connect(self.edit_profile_requested)
        self.lock_action = file_menu.addAction(self.tr("&Lock"))
        self.lock_action.setShortcut(QKeySequence("Ctrl+L"))
        self.lock_action.triggered.connect(self.lock_requested)
        file_menu.addSeparator()
        quit_action = file_menu.addAction(self.tr("&Quit"))
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.quit_requested)

        view_menu = self.menuBar().addMenu(self.tr("&View"))
        self.refresh_action = view_menu.addAction(self.tr("&Refresh"))
        self.refresh_action.setShortcut(QKeySequence.StandardKey.Refresh)
        self.refresh_action.triggered.connect(self.refresh_current)
        view_menu.addSeparator()
        for index, name in enumerate(TAB_TITLES):
            action = QAction(self.tr(name).replace("&", "&&"), self)
            action.setShortcut(QKeySequence(f"Ctrl+{index + 1}"))
            action.triggered.connect(lambda _=False, i=index: self.tabs.setCurrentIndex(i))
            view_menu.addAction(action)

        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        about = help_menu.addAction(self.tr("&About Treasury"))
        about.triggered.connect(self.show_about)

    def shutdown(self) -> None:
        """Before the session closes: every tab stops its timers and cancels its loads."""
        self.status_panel.timer.stop()
        for index in range(self.tabs.count()):
            stop = getattr(self.tabs.widget(index), "shutdown", None)
            if callable(stop):
                stop()

    def refresh_current(self) -> None:
        widget = self.tabs.currentWidget()
        refresh = getattr(widget, "refresh", None)
        if callable(refresh):
            refresh()
        self.status_panel.refresh()

    def about_text(self) -> str:
        return (
            self.tr(
                "Treasury %1\n\nPix payouts, boletos, charges and Pix Automático over mutual TLS."
                "\n\nPython %2 · PySide6 %3 · Qt %4 · httpx %5 · pydantic %6"
            )
            .replace("%1", __version__)
            .replace("%2", platform.python_version())
            .replace("%3", PySide6.__version__)
            .replace("%4", PySide6.QtCore.qVersion())
            .replace("%5", httpx.__version__)
            .replace("%6", pydantic.VERSION)
        )

    def show_about(self) -> None:
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("About Treasury"), "", parent=self)
        box.setText(self.about_text())
        box.setObjectName("about-box")
        box.open()  # never exec(): the loop is shared with asyncio

    # -- persistence -------------------------------------------------------------------------

    def _restore(self) -> None:
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        geometry = settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        tab = settings.value("tab", 0)
        with contextlib.suppress(TypeError, ValueError):
            self.tabs.setCurrentIndex(int(tab))  # type: ignore[arg-type]
        settings.endGroup()

    def save_state(self) -> None:
        settings = QSettings()
        settings.beginGroup(SETTINGS_GROUP)
        settings.setValue("geometry", self.saveGeometry())
        settings.setValue("tab", self.tabs.currentIndex())
        settings.endGroup()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt's name
        self.save_state()
        self.status_panel.timer.stop()
        super().closeEvent(event)
        self.quit_requested.emit()
