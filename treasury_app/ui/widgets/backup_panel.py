"""Settings → Backups: where the automatic backups go (a folder the person chooses, or the
machine's policy sets and locks), how many days they are kept, "Back up now", "Restore…" (with
the review of what would be restored) and the last outcome, in words."""

from __future__ import annotations

import asyncio
from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_instant
from treasury_app.services.backup import (
    MAX_KEEP_DAYS,
    BackupCancelled,
    BackupInfo,
    BackupRefused,
    RestoreResult,
    list_backups,
)
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.backups import current_settings, save_settings
from treasury_app.ui.operation import events
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style


class BackupPanel(QWidget):
    """The backup settings and actions of the open profile."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("backup-panel")
        self.workspace = workspace
        self.service = workspace.backups
        self.task: asyncio.Task[object] | None = None
        self.folder_dialog: QFileDialog | None = None
        self.restore_dialog: QDialog | None = None
        settings = current_settings()

        box = QGroupBox(self.tr("Backups"), self)
        form = QFormLayout(box)
        self.explanation = QLabel(self.explanation_text(), box)
        self.explanation.setObjectName("backup-explanation")
        self.explanation.setWordWrap(True)
        form.addRow(self.explanation)
        self.folder_edit = QLineEdit(box)
        self.folder_edit.setObjectName("backup-folder")
        self.folder_edit.setPlaceholderText(self.tr("e.g. \\\\server\\share\\treasury-backups"))
        self.folder_edit.setText("" if settings.folder is None else str(settings.folder))
        self.folder_edit.editingFinished.connect(self.save)
        self.choose_button = QPushButton(self.tr("Choose…"), box)
        self.choose_button.setObjectName("backup-choose-folder")
        self.choose_button.clicked.connect(
            lambda: self._start(self.choose_folder(), "backup-choose-folder")
        )
        folder_row = QHBoxLayout()
        folder_row.addWidget(self.folder_edit, 1)
        folder_row.addWidget(self.choose_button)
        form.addRow(self.tr("Folder"), folder_row)
        self.keep_spin = QSpinBox(box)
        self.keep_spin.setObjectName("backup-keep-days")
        self.keep_spin.setRange(1, MAX_KEEP_DAYS)
        self.keep_spin.setValue(settings.keep_days)
        self.keep_spin.setSuffix(self.tr(" days"))
        self.keep_spin.valueChanged.connect(lambda _value: self.save())
        form.addRow(self.tr("Keep"), self.keep_spin)
        self.policy_label = QLabel(
            self.tr("Set by your organisation's policy: it cannot be changed here."), box
        )
        self.policy_label.setObjectName("backup-policy")
        self.policy_label.setWordWrap(True)
        form.addRow(self.policy_label)
        self.backup_button = QPushButton(self.tr("Back up now"), box)
        self.backup_button.setObjectName("backup-now")
        self.backup_button.clicked.connect(lambda: self._start(self.back_up_now(), "backup-now"))
        self.restore_button = QPushButton(self.tr("Restore…"), box)
        self.restore_button.setObjectName("backup-restore")
        self.restore_button.setEnabled(not self.service.team)
        self.restore_button.clicked.connect(lambda: self._start(self.restore(), "backup-restore"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.backup_button)
        buttons.addWidget(self.restore_button)
        buttons.addStretch(1)
        form.addRow(buttons)
        self.last_label = QLabel("", box)
        self.last_label.setObjectName("backup-last")
        self.last_label.setWordWrap(True)
        form.addRow(self.tr("Last backup"), self.last_label)
        self.status = QLabel("", box)
        self.status.setObjectName("backup-status")
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.status)
        layout = QVBoxLayout(self)
        layout.addWidget(box)
        layout.addStretch(1)
        self.apply_lock()

    def explanation_text(self) -> str:
        if self.service.team:
            return self.tr(
                "This profile's record is the team database (PostgreSQL): it is the real record "
                "of a shared desk, backed up by its administrator. Backups here hold only this "
                "desktop's local cache (the receipts it keeps)."
            )
        return self.tr(
            "Copies of this profile's ledger (payments, audit) and receipts, made every day and "
            "when the app closes, and kept for the days below. Choose another disk or a network "
            "share, not this computer: a reimaged PC loses its own disk. For a desk several "
            "people share, the team database is the real answer."
        )

    def apply_lock(self) -> None:
        """The machine's policy, when it locks the settings, shows them read-only."""
        locked = current_settings().locked
        self.folder_edit.setReadOnly(locked)
        self.choose_button.setEnabled(not locked)
        self.keep_spin.setEnabled(not locked)
        self.policy_label.setVisible(locked)

    # -- settings --------------------------------------------------------------------------------

    def save(self) -> None:
        text = self.folder_edit.text().strip()
        folder = Path(text) if text else None
        if save_settings(folder, self.keep_spin.value()):
            return
        settings = current_settings()  # locked: shown as the policy has it
        self.folder_edit.setText("" if settings.folder is None else str(settings.folder))
        self.keep_spin.setValue(settings.keep_days)

    async def choose_folder(self) -> Path | None:
        dialog = QFileDialog(self, self.tr("Folder for the backups"))
        dialog.setObjectName("backup-folder-dialog")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        current = current_settings().folder
        if current is not None:
            dialog.setDirectory(str(current))
        self.folder_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
                return None
            chosen = Path(dialog.selectedFiles()[0])
        finally:
            self.folder_dialog = None
            dispose(dialog)
        self.folder_edit.setText(str(chosen))
        self.save()
        return chosen

    # -- actions ---------------------------------------------------------------------------------

    def _start(self, coro: object, name: str) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, coro, name=name)  # type: ignore[arg-type]
        else:
            coro.close()  # type: ignore[attr-defined]

    def _say(self, text: str, *, error: bool = False) -> None:
        if shiboken6.isValid(self.status):
            self.status.setStyleSheet(text_style("error", self) if error else "")
            self.status.setText(text)

    async def back_up_now(self) -> BackupInfo | None:
        """A backup into the folder now (older ones pruned as every day); said when done."""
        if self.workspace.session.closed:
            return None
        self.save()
        settings = current_settings()
        self.backup_button.setEnabled(False)
        self._say(self.tr("Backing up…"))
        try:
            info = await self.service.back_up(
                settings.folder, reason="manual", keep_days=settings.keep_days
            )
        except BackupRefused as refused:
            self._say(
                self.tr("No backup was made: %1").replace("%1", rule_text(refused)), error=True
            )
            return None
        except BackupCancelled:
            return None
        finally:
            if shiboken6.isValid(self.backup_button):
                self.backup_button.setEnabled(True)
        events.ledger_changed.emit()  # the audit log shows the row
        self._say(self.done_text(info))
        self.show_last(info)
        return info

    def done_text(self, info: BackupInfo) -> str:
        return (
            self.tr("Backed up at %1: %2 payments, %3 receipts, in %4")
            .replace("%1", format_instant(info.created_at))
            .replace("%2", "—" if info.payments is None else str(info.payments))
            .replace("%3", str(info.receipts))
            .replace("%4", str(info.path))
        )

    def show_last(self, info: BackupInfo | None) -> None:
        if shiboken6.isValid(self.last_label):
            self.last_label.setText(
                self.tr("none in this folder")
                if info is None
                else format_instant(info.created_at) + f" · {info.path.name}"
            )

    async def reload(self) -> None:
        """The last backup in the folder (Settings shows this page)."""
        folder = current_settings().folder
        if folder is None:
            if shiboken6.isValid(self.last_label):
                self.last_label.setText(self.tr("No folder chosen: automatic backups are off."))
            return
        try:
            found = await asyncio.to_thread(
                list_backups, folder, profile=self.service.source.profile
            )
        except BackupRefused as refused:
            if shiboken6.isValid(self.last_label):
                self.last_label.setText(rule_text(refused))
            return
        self.show_last(found[0] if found else None)

    async def restore(self) -> RestoreResult | None:
        """Restore…: the dialog checks, shows and restores; the outcome is said here."""
        from treasury_app.ui.dialogs.restore_dialog import RestoreDialog

        if self.service.team or self.workspace.session.closed:
            return None
        dialog = RestoreDialog(self.service, current_settings().folder, self)
        self.restore_dialog = dialog
        try:
            spawn_for(dialog, dialog.load(), name="restore-list")
            await ask(dialog)
            result = dialog.result_restore
        finally:
            self.restore_dialog = None
            dispose(dialog)
        if result is None:
            return None
        events.ledger_changed.emit()  # every list reads the restored ledger
        self._say(
            self.tr(
                "Restored the backup of %1: %2 payments, %3 receipts. The data it replaced is "
                "kept in %4."
            )
            .replace("%1", format_instant(result.backup.created_at))
            .replace("%2", str(result.payments))
            .replace("%3", str(result.receipts))
            .replace("%4", str(result.set_aside))
        )
        return result

    def shutdown(self) -> None:
        for dialog in (self.folder_dialog, self.restore_dialog):
            if dialog is not None and shiboken6.isValid(dialog):
                dialog.reject()
