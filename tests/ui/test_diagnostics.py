"""Settings → About & support: the log folder, "Copy diagnostics" (what the support desk needs,
no secret of the session), and "Back up ledger…" (a picker opened without a nested loop, a
dated default name, the copy, the message and the audit row)."""

from __future__ import annotations

import logging
import platform
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import PySide6
import pytest
from PySide6.QtCore import QObject, QSettings, Qt, QUrl, Slot, qVersion
from PySide6.QtGui import QDesktopServices, QGuiApplication
from PySide6.QtWidgets import QFileDialog

from tests.ui.test_log_file import sandbox_secrets, session_tokens
from tests.waiting import qt_wait_until
from treasury_app import __version__, logging_setup
from treasury_app.services.backup import read_manifest, verify_files
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.tabs.settings_tab import SettingsTab
from treasury_app.ui.widgets.support_panel import BACKUP_FOLDER_KEY, NOT_RUN, SupportPanel


@pytest.fixture
def settings_tab(open_workspace, qtbot, run, tmp_path: Path) -> Iterator[tuple[SettingsTab, Any]]:
    """The Settings tab of an unlocked sandbox workspace, the log file in ``tmp_path/logs``,
    both tokens obtained."""
    workspace = open_workspace()
    run(workspace.session.check_connection())
    logging_setup.attach_log_file(tmp_path / "logs")
    tab = SettingsTab(workspace)
    qtbot.addWidget(tab)
    try:
        yield tab, workspace
    finally:
        tab.shutdown()
        logging_setup.remove()
        qt_wait_until(qtbot, lambda: running_tasks() == 0, "running_tasks() == 0")


def support_page(tab: SettingsTab) -> SupportPanel:
    index = tab.pages.count() - 1
    assert tab.pages.tabText(index) == "About && support"
    page = tab.pages.widget(index)
    assert isinstance(page, SupportPanel)
    return page


def test_copy_diagnostics_says_what_support_needs_and_no_secret(
    settings_tab, ui_sandbox, tmp_path: Path, qtbot
) -> None:
    tab, workspace = settings_tab
    panel = support_page(tab)
    assert panel.log_label.text() == str(tmp_path / "logs")
    assert panel.open_logs_button.isEnabled()
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(panel.copy_button, Qt.MouseButton.LeftButton)
    text = QGuiApplication.clipboard().text()
    assert panel.copy_status.text() == "Copied to the clipboard."
    for expected in (
        f"treasury-app {__version__}",
        f"Python: {platform.python_version()}",
        f"OS: {platform.platform()}",
        f"Qt: {qVersion()}; PySide6 {PySide6.__version__}",
        "Profile: sandbox (QR Codes 127.0.0.1, Accounts 127.0.0.1)",
        "Keyring: ",
        f"Self-test: {NOT_RUN}",
        f"Log folder: {tmp_path / 'logs'}",
        f"Settings file: {QSettings().fileName()}",
    ):
        assert expected in text
    profile = workspace.session.profile
    secrets = sandbox_secrets(ui_sandbox.ready_file) | session_tokens(workspace)
    assert len(session_tokens(workspace)) == 2
    assert [secret for secret in secrets if secret in text] == []
    assert profile.qrcodes.client_id not in text and profile.accounts.client_id not in text
    assert str(profile.accounts.base_url).rstrip("/") not in text  # hosts only, no ports
    assert "-----BEGIN" not in text


class UrlCatcher(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[QUrl] = []

    @Slot(QUrl)
    def open(self, url: QUrl) -> None:
        self.urls.append(url)


def test_open_folder_opens_the_log_folder(settings_tab, tmp_path: Path, qtbot) -> None:
    tab, _workspace = settings_tab
    panel = support_page(tab)
    catcher = UrlCatcher()
    QDesktopServices.setUrlHandler("file", catcher, "open")  # instead of the file manager
    try:
        qtbot.mouseClick(panel.open_logs_button, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert [Path(url.toLocalFile()) for url in catcher.urls] == [tmp_path / "logs"]


def test_without_a_log_file_the_panel_says_so() -> None:
    panel = SupportPanel(None, None)
    try:
        assert panel.log_label.text() == "No log file in this run."
        assert not panel.open_logs_button.isEnabled() and not panel.open_log_folder()
        assert not panel.backup_button.isEnabled()  # no profile open: no ledger
        assert "Profile: none open (locked)" in panel.copy_diagnostics()
    finally:
        panel.deleteLater()


def test_a_team_database_is_backed_up_by_its_administrator(qtbot, run) -> None:
    """A team database is no file to copy: the button says who backs it up, and no picker
    opens."""
    from types import SimpleNamespace

    workspace = SimpleNamespace(
        ledger=SimpleNamespace(path=None), session=SimpleNamespace(closed=False)
    )
    panel = SupportPanel(workspace, None)
    qtbot.addWidget(panel)
    assert "pg_dump" in panel.backup_button.toolTip()
    assert run(panel.back_up_ledger()) is None
    assert panel.backup_dialog is None
    said = panel.backup_status.text()
    assert "team database" in said and "administrator" in said and "pg_dump" in said


@pytest.fixture
def backup_folder(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "backups"
    folder.mkdir()
    QSettings().setValue(BACKUP_FOLDER_KEY, str(folder))
    try:
        yield folder
    finally:
        QSettings().remove(BACKUP_FOLDER_KEY)


def test_back_up_ledger_asks_where_and_backs_up_through_the_backup_service(
    run, settings_tab, backup_folder: Path, qtbot, caplog
) -> None:
    tab, workspace = settings_tab
    panel = support_page(tab)
    caplog.set_level(logging.INFO)
    qtbot.mouseClick(panel.backup_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: panel.backup_dialog is not None and panel.backup_dialog.isVisible(),
        "panel.backup_dialog shown",
    )
    dialog = panel.backup_dialog
    assert not panel.backup_task.done()  # the picker is open and the loop keeps running
    assert dialog.fileMode() == QFileDialog.FileMode.Directory
    assert Path(dialog.directory().absolutePath()) == backup_folder  # the one used last time
    dialog.accept()
    qt_wait_until(qtbot, panel.backup_task.done, "panel.backup_task done")
    copied = panel.backup_task.result()
    assert copied is not None and copied.parent == backup_folder
    assert copied.name.startswith("treasury-backup-Sandbox-")
    assert panel.backup_status.text() == f"Ledger backed up to {copied}"
    info = read_manifest(copied)
    verify_files(info)  # a backup like the automatic ones: the manifest verifies
    conn = sqlite3.connect(copied / "ledger.sqlite3")
    rows = conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    conn.close()
    assert rows == info.payments == len(run(workspace.ledger.journal.recent(limit=100_000)))
    row = run(workspace.ledger.audit.entries(action="ledger.backup"))[0]
    assert (row.outcome, row.reference) == ("ok", str(copied))
    assert row.details["reason"] == "manual"


def test_a_refused_backup_is_said_and_audited(settings_tab, run) -> None:
    tab, workspace = settings_tab
    panel = support_page(tab)
    ledgers = workspace.ledger.path.parent  # lost with the computer: refused
    before = sorted(path.name for path in ledgers.iterdir())
    assert run(panel.back_up_to(ledgers)) is None
    assert panel.backup_status.text().startswith("The ledger was not backed up: ")
    assert "own ledgers folder" in panel.backup_status.text()
    assert panel.backup_button.isEnabled()
    row = run(workspace.ledger.audit.entries(action="ledger.backup"))[0]
    assert row.outcome == "failed" and row.details["code"] == "backup.inside_ledgers"
    assert sorted(path.name for path in ledgers.iterdir()) == before
    assert run(workspace.ledger.journal.recent(limit=1)) is not None  # the live ledger still works
