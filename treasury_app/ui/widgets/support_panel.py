"""Settings → About and support: where the log file is (opened in the file manager), "Copy
diagnostics" for the support desk (versions, system, profile kind; never a secret), and "Back
up ledger…" (a consistent copy of the open profile's ledger, made while the app runs)."""

from __future__ import annotations

import asyncio
import platform
import sys
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit

import shiboken6
from PySide6.QtCore import QLocale, QSettings, QStandardPaths, Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app import __version__
from treasury_app.services.backup import BackupRefused
from treasury_app.services.profiles import API_LABELS
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.operation import events
from treasury_app.ui.rule_words import rule_text

BACKUP_FOLDER_KEY = "support/backup-folder"
NOT_RUN = "not run in this session"


def diagnostics_text(
    workspace: Workspace | None, log_dir: Path | None, *, self_test: str | None = None
) -> str:
    """What the support desk needs first, as plain lines. English on purpose: the desk reads
    the same words whatever the interface language. Profile hosts, never their credentials;
    no secret of any kind (nothing here reads one). ``self_test``: the one-line result of a
    self-test run in this process, if any (``--self-test`` runs as a process of its own)."""
    import PySide6

    from treasury_app.services.secret_store import SecretStore

    store = SecretStore()
    try:
        reason = store.unavailable_reason
        keyring = (
            f"available ({store.backend_name})" if reason is None else f"not available: {reason}"
        )
    except Exception as error:  # a broken keyring backend must not stop the copy
        keyring = f"unknown ({type(error).__name__})"
    lines = [
        "Treasury diagnostics",
        f"App: treasury-app {__version__} ({'installed build' if _frozen() else 'from source'})",
        f"Python: {platform.python_version()} ({platform.python_implementation()})",
        f"OS: {platform.platform()}",
        f"Qt: {qVersion()}; PySide6 {PySide6.__version__}",
        f"Profile: {_profile_line(workspace)}",
        f"Keyring: {keyring}",
        f"Self-test: {self_test or NOT_RUN}",
        f"Log folder: {log_dir if log_dir is not None else 'no log file in this run'}",
        f"Settings file: {QSettings().fileName()}",
        f"Language: {QLocale().name()}",
        f"Copied at: {datetime.now(UTC):%Y-%m-%d %H:%M:%S} UTC",
    ]
    return "\n".join(lines) + "\n"


def _frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def _profile_line(workspace: Workspace | None) -> str:
    if workspace is None:
        return "none open (locked)"
    profile = workspace.session.profile
    hosts = [
        f"{label} {urlsplit(str(getattr(profile, api).base_url)).hostname or '?'}"
        for api, label in API_LABELS.items()
    ]
    return f"{profile.environment} ({', '.join(hosts)})"


class SupportPanel(QWidget):
    """The log folder, "Copy diagnostics" and "Back up ledger…"."""

    def __init__(
        self, workspace: Workspace | None, log_dir: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("support-panel")
        self.workspace = workspace
        self.log_dir = log_dir
        self.backup_task: asyncio.Task[Path | None] | None = None
        self.backup_dialog: QFileDialog | None = None  # while open (tests fill it in)

        about_box = QGroupBox(self.tr("About and support"), self)
        form = QFormLayout(about_box)
        form.addRow(self.tr("Version"), QLabel(f"treasury-app {__version__}", about_box))
        self.log_label = QLabel(
            str(log_dir) if log_dir is not None else self.tr("No log file in this run."), about_box
        )
        self.log_label.setObjectName("support-log-folder")
        self.log_label.setWordWrap(True)
        self.log_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.open_logs_button = QPushButton(self.tr("Open folder"), about_box)
        self.open_logs_button.setObjectName("support-open-logs")
        self.open_logs_button.setEnabled(log_dir is not None)
        self.open_logs_button.clicked.connect(self.open_log_folder)
        log_row = QHBoxLayout()
        log_row.addWidget(self.log_label, 1)
        log_row.addWidget(self.open_logs_button)
        form.addRow(self.tr("Log folder"), log_row)
        self.copy_button = QPushButton(self.tr("Copy diagnostics"), about_box)
        self.copy_button.setObjectName("support-copy-diagnostics")
        self.copy_button.setToolTip(
            self.tr(
                "Versions, system, profile kind and the log folder, for the support desk. "
                "No password, secret or token is ever included."
            )
        )
        self.copy_button.clicked.connect(self.copy_diagnostics)
        self.copy_status = QLabel("", about_box)
        self.copy_status.setObjectName("support-copy-status")
        copy_row = QHBoxLayout()
        copy_row.addWidget(self.copy_button)
        copy_row.addWidget(self.copy_status, 1)
        form.addRow(copy_row)

        backup_box = QGroupBox(self.tr("Ledger backup"), self)
        backup_layout = QVBoxLayout(backup_box)
        explanation = QLabel(
            self.tr(
                "A complete backup of this profile's ledger (payments, audit) and receipts as "
                "they are now, made while the app keeps working, into a folder you choose. "
                "Automatic backups and restoring one: the Backups page."
            ),
            backup_box,
        )
        explanation.setWordWrap(True)
        self.backup_button = QPushButton(self.tr("Back up ledger…"), backup_box)
        self.backup_button.setObjectName("support-backup")
        self.backup_button.setEnabled(workspace is not None)
        self.backup_button.clicked.connect(self._start_backup)
        if workspace is not None and workspace.ledger.path is None:
            # A team database is not a file this desktop can copy.
            explanation.setText(self.team_backup_text())
            self.backup_button.setToolTip(self.team_backup_text())  # and says so when clicked
        self.backup_status = QLabel("", backup_box)
        self.backup_status.setObjectName("support-backup-status")
        self.backup_status.setWordWrap(True)
        self.backup_status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        backup_row = QHBoxLayout()
        backup_row.addWidget(self.backup_button)
        backup_row.addStretch(1)
        backup_layout.addWidget(explanation)
        backup_layout.addLayout(backup_row)
        backup_layout.addWidget(self.backup_status)

        layout = QVBoxLayout(self)
        layout.addWidget(about_box)
        layout.addWidget(backup_box)
        layout.addStretch(1)

    # -- the log folder and diagnostics --------------------------------------------------------

    def open_log_folder(self) -> bool:
        if self.log_dir is None:
            return False
        return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.log_dir))))

    def copy_diagnostics(self) -> str:
        text = diagnostics_text(self.workspace, self.log_dir)
        QGuiApplication.clipboard().setText(text)
        self.copy_status.setText(self.tr("Copied to the clipboard."))
        return text

    # -- the ledger backup ---------------------------------------------------------------------

    def team_backup_text(self) -> str:
        return self.tr(
            "This profile keeps its ledger in a team database: its administrator backs it up "
            "(with pg_dump), not this desktop."
        )

    def _start_backup(self) -> None:
        if self.backup_task is None or self.backup_task.done():
            self.backup_task = spawn_for(self, self.back_up_ledger(), name="ledger-backup")

    async def back_up_ledger(self) -> Path | None:
        """Ask which folder, then :meth:`back_up_to` there."""
        if self.workspace is None or self.workspace.session.closed:
            return None
        if self.workspace.ledger.path is None:
            self._say(self.team_backup_text())
            return None
        policy = self.workspace.policy
        if policy.backup_dir is not None and policy.is_locked("BackupDir"):
            # The IT department's folder, no other: no file dialog to choose one.
            return await self.back_up_to(policy.backup_dir)
        folder = await self._ask_backup_folder()
        return None if folder is None else await self.back_up_to(folder)

    async def back_up_to(self, folder: Path) -> Path | None:
        """A complete backup (ledger, receipts, manifest) into ``folder``, through the backup
        service (a worker thread; the window keeps answering; audited); said when done."""
        workspace = self.workspace
        if workspace is None or workspace.session.closed:
            return None
        if workspace.ledger.path is None:
            self._say(self.team_backup_text())
            return None
        self.backup_button.setEnabled(False)
        self.backup_status.setText(self.tr("Backing up the ledger…"))
        try:
            info = await workspace.backups.back_up(folder, reason="manual")
        except BackupRefused as refused:
            events.ledger_changed.emit()
            self._say(self.tr("The ledger was not backed up: %1").replace("%1", rule_text(refused)))
            return None
        finally:
            if shiboken6.isValid(self.backup_button):
                self.backup_button.setEnabled(True)
        events.ledger_changed.emit()  # the audit log shows the row
        QSettings().setValue(BACKUP_FOLDER_KEY, str(folder))
        self._say(self.tr("Ledger backed up to %1").replace("%1", str(info.path)))
        return info.path

    async def _ask_backup_folder(self) -> Path | None:
        folder = QSettings().value(BACKUP_FOLDER_KEY)
        suggested = self.workspace.policy.backup_dir if self.workspace is not None else None
        if suggested is not None and suggested.is_dir():  # the IT department's folder first
            folder = str(suggested)
        if not isinstance(folder, str) or not Path(folder).is_dir():
            documents = QStandardPaths.writableLocation(
                QStandardPaths.StandardLocation.DocumentsLocation
            )
            folder = documents if documents and Path(documents).is_dir() else str(Path.home())
        dialog = QFileDialog(self, self.tr("Back up ledger"), folder)
        dialog.setObjectName("support-backup-dialog")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        self.backup_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            files = dialog.selectedFiles()
            return Path(files[0]) if files else None
        finally:
            self.backup_dialog = None
            dispose(dialog)

    def _say(self, text: str) -> None:
        if shiboken6.isValid(self.backup_status):
            self.backup_status.setText(text)

    def shutdown(self) -> None:
        """Before the session closes: close the picker (a copy under way finishes on its own)."""
        if self.backup_dialog is not None:
            self.backup_dialog.reject()
