"""Restore a backup: choose one (this profile's, in the backup folder, or any folder), have it
checked (every file's SHA-256, the ledger's integrity, its schema), read what it holds, and
only then replace the ledger; the current data is first kept aside as a backup of its own."""

from __future__ import annotations

import asyncio
from pathlib import Path

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import InstantForm, format_instant
from treasury_app.services.backup import (
    BackupInfo,
    BackupRefused,
    BackupService,
    PreparedRestore,
    RestoreResult,
    list_backups,
)
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style

PATH_ROLE = Qt.ItemDataRole.UserRole


class RestoreDialog(QDialog):
    """Pick, check, review, restore. :attr:`result_restore` holds what was restored."""

    def __init__(
        self, service: BackupService, folder: Path | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("restore-dialog")
        self.setWindowTitle(self.tr("Restore a backup"))
        self.service = service
        self.folder = folder
        self.prepared: PreparedRestore | None = None
        self.result_restore: RestoreResult | None = None
        self.task: asyncio.Task[object] | None = None
        self.folder_dialog: QFileDialog | None = None

        intro = QLabel(
            self.tr(
                "Choose a backup. It is checked before anything is replaced: every file against "
                "its manifest, the ledger's integrity and its version."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setObjectName("restore-list")
        self.list.itemSelectionChanged.connect(self._selection_changed)
        self.other_button = QPushButton(self.tr("Other folder…"), self)
        self.other_button.setObjectName("restore-other-folder")
        self.other_button.clicked.connect(
            lambda: self._start(self.check_other_folder(), "restore-other")
        )
        self.check_button = QPushButton(self.tr("Check this backup"), self)
        self.check_button.setObjectName("restore-check")
        self.check_button.setEnabled(False)
        self.check_button.clicked.connect(self._check_selected)
        self.review = QLabel("", self)
        self.review.setObjectName("restore-review")
        self.review.setWordWrap(True)
        self.review.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.restore_button = self.buttons.addButton(
            self.tr("Restore"), QDialogButtonBox.ButtonRole.AcceptRole
        )
        self.restore_button.setObjectName("restore-confirm")
        self.restore_button.setEnabled(False)
        self.restore_button.clicked.connect(
            lambda: self._start(self.restore_checked(), "restore-apply")
        )
        self.buttons.rejected.connect(self.reject)

        row = QHBoxLayout()
        row.addWidget(self.check_button)
        row.addWidget(self.other_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.list, 1)
        layout.addLayout(row)
        layout.addWidget(self.review)
        layout.addWidget(self.buttons)
        self.resize(620, 460)

    # -- listing ---------------------------------------------------------------------------------

    async def load(self) -> list[BackupInfo]:
        """The profile's backups in the backup folder, newest first."""
        self.list.clear()
        if self.folder is None:
            self.review.setText(self.tr("No backup folder is chosen: use “Other folder…”."))
            return []
        try:
            found = await asyncio.to_thread(
                list_backups, self.folder, profile=self.service.source.profile
            )
        except BackupRefused as refused:
            self._refused(refused)
            return []
        for info in found:
            item = QListWidgetItem(self.describe(info), self.list)
            item.setData(PATH_ROLE, str(info.path))
        if not found:
            self.review.setText(
                self.tr("No backup of this profile in %1.").replace("%1", str(self.folder))
            )
        return found

    def describe(self, info: BackupInfo) -> str:
        reasons = {
            "daily": self.tr("daily"),
            "close": self.tr("on closing"),
            "manual": self.tr("made by hand"),
            "before-restore": self.tr("set aside by a restore"),
        }
        return (
            self.tr("%1 · %2 · computer %3")
            .replace("%1", format_instant(info.created_at))
            .replace("%2", reasons.get(info.reason, info.reason))
            .replace("%3", info.computer)
        )

    def _selection_changed(self) -> None:
        self.check_button.setEnabled(bool(self.list.selectedItems()))

    def _check_selected(self) -> None:
        items = self.list.selectedItems()
        if items:
            self._start(self.check(Path(str(items[0].data(PATH_ROLE)))), "restore-check")

    def _start(self, coro: object, name: str) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, coro, name=name)  # type: ignore[arg-type]
        else:
            coro.close()  # type: ignore[attr-defined]

    # -- checking --------------------------------------------------------------------------------

    async def check_other_folder(self) -> PreparedRestore | None:
        dialog = QFileDialog(self, self.tr("Choose the backup's folder"))
        dialog.setObjectName("restore-folder-dialog")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        if self.folder is not None:
            dialog.setDirectory(str(self.folder))
        self.folder_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted or not dialog.selectedFiles():
                return None
            chosen = Path(dialog.selectedFiles()[0])
        finally:
            self.folder_dialog = None
            dispose(dialog)
        return await self.check(chosen)

    async def check(self, path: Path) -> PreparedRestore | None:
        """Copy the backup here and check it; show what it holds. Nothing is replaced."""
        await self._discard()
        self._busy(True)
        self.review.setStyleSheet("")
        self.review.setText(self.tr("Checking the backup…"))
        try:
            prepared = await self.service.prepare_restore(path)
        except BackupRefused as refused:
            self._refused(refused)
            return None
        finally:
            self._busy(False)
        if not shiboken6.isValid(self):
            await self.service.discard(prepared)
            return None
        self.prepared = prepared
        self.review.setText(self.review_text(prepared))
        self.restore_button.setEnabled(True)
        return prepared

    def review_text(self, prepared: PreparedRestore) -> str:
        info = prepared.backup
        return "\n".join(
            [
                self.tr("Backup of %1, %2, app %3: checked, sound.")
                .replace("%1", format_instant(info.created_at, InstantForm.SECONDS))
                .replace("%2", self.describe(info).split(" · ", 1)[1])
                .replace("%3", info.app_version),
                self.tr("It holds %1 payments and %2 receipts.")
                .replace("%1", str(prepared.payments))
                .replace("%2", str(prepared.receipts)),
                self.tr(
                    "Restoring replaces this profile's ledger with it: payments made after it "
                    "will not be in the ledger. The current data is first kept aside, as a "
                    "backup of its own, in %1."
                ).replace("%1", str(self.service.source.set_aside_dir)),
            ]
        )

    # -- restoring -------------------------------------------------------------------------------

    async def restore_checked(self) -> RestoreResult | None:
        prepared = self.prepared
        if prepared is None:
            return None
        self._busy(True)
        try:
            result = await self.service.restore(prepared)
        except BackupRefused as refused:
            self._refused(refused)
            return None
        finally:
            if shiboken6.isValid(self):
                self._busy(False)
        self.prepared = None
        self.result_restore = result
        if shiboken6.isValid(self):
            self.accept()
        return result

    async def _discard(self) -> None:
        prepared, self.prepared = self.prepared, None
        if prepared is not None:
            await self.service.discard(prepared)
        if shiboken6.isValid(self):
            self.restore_button.setEnabled(False)

    def done(self, result: int) -> None:
        """Closing: a checked copy not restored is removed."""
        if self.prepared is not None:
            prepared, self.prepared = self.prepared, None
            spawn_for(self.parent() or self, self.service.discard(prepared), name="restore-discard")
        super().done(result)

    def _busy(self, busy: bool) -> None:
        self.other_button.setEnabled(not busy)
        self.check_button.setEnabled(not busy and bool(self.list.selectedItems()))
        self.restore_button.setEnabled(not busy and self.prepared is not None)

    def _refused(self, refused: BackupRefused) -> None:
        if shiboken6.isValid(self.review):
            self.review.setStyleSheet(text_style("error", self))
            self.review.setText(
                self.tr("This backup cannot be restored: %1").replace("%1", rule_text(refused))
            )
