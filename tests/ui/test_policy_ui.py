"""The machine policy on screen (pytest-qt): the welcome dialog without the sandbox where it is
turned off, --sandbox refused, a preset profile and a locked team database read-only with the
"Set by your IT department" mark, and the managed-settings list in Settings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QCommandLinkButton,
    QDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
)

from tests.policy.fake_registry import FakeRegistry
from tests.waiting import qt_wait_until
from treasury_app.config import AppPaths
from treasury_app.policy import POLICY_KEY, Policy, RegistryKeys, read_policy
from treasury_app.services.profiles import ProfileStore
from treasury_app.ui.async_tools import ask
from treasury_app.ui.controller import StartOptions
from treasury_app.ui.dialogs.profile_dialog import ProfileDialog
from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog
from treasury_app.ui.policy_view import ManagedSettingsPanel

ROOT = POLICY_KEY
MARK = "Set by your IT department"


def policy_of(keys: dict[str, dict[str, Any]]) -> Policy:
    return read_policy([RegistryKeys(FakeRegistry(keys))], environ={"USERNAME": "ana"})


def preset(name: str = "Main bank") -> dict[str, Any]:
    return {
        "Name": name,
        "QrCodesUrl": "https://qr.bank.example",
        "QrCodesClientId": "qr",
        "QrCodesCertificate": "/certs/qr.pfx",
        "AccountsUrl": "https://acc.bank.example",
        "AccountsClientId": "acc",
        "AccountsCertificate": "/certs/acc.pfx",
    }


def test_the_welcome_dialog_offers_no_sandbox_where_it_is_off(qtbot: Any, qasync_loop: Any) -> None:
    dialog = WelcomeDialog(sandbox_allowed=False)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    assert dialog.findChild(QCommandLinkButton, "sandbox-choice") is None
    assert dialog.sandbox_button is None
    bank = dialog.findChild(QCommandLinkButton, "bank-choice")
    assert bank.isDefault() and dialog.focusWidget() is bank
    mark = dialog.findChild(QLabel, "policy-mark")
    assert mark is not None and mark.isVisible() and MARK in mark.text()
    qtbot.keyClick(bank, Qt.Key.Key_Return)  # Enter takes the bank, never a sandbox
    qt_wait_until(qtbot, asked.done, "asked done")
    assert dialog.choice() == "bank"


def visible_dialog(kind: type) -> Any:
    for widget in QApplication.topLevelWidgets():
        for candidate in [widget, *widget.findChildren(kind)]:
            if isinstance(candidate, kind) and candidate.isVisible():
                return candidate
    return None


@pytest.fixture
def empty_paths(tmp_path: Path) -> AppPaths:
    paths = AppPaths(tmp_path / "config", tmp_path / "data", tmp_path / "logs")
    paths.ensure()
    return paths


def test_a_first_run_under_the_policy_offers_the_bank_only(
    empty_paths: AppPaths, start_app: Any, qtbot: Any
) -> None:
    from PySide6.QtCore import QSettings

    QSettings().remove("last-profile")
    controller = start_app(
        empty_paths, StartOptions(), policy=policy_of({ROOT: {"SandboxDisabled": 1}})
    )
    qt_wait_until(qtbot, lambda: visible_dialog(WelcomeDialog) is not None, "the welcome dialog")
    welcome = visible_dialog(WelcomeDialog)
    assert welcome.findChild(QCommandLinkButton, "sandbox-choice") is None
    assert controller.sandbox is None  # nothing of the sandbox bank was started


def test_sandbox_on_the_command_line_is_refused_and_the_run_ends(
    empty_paths: AppPaths, start_app: Any, qtbot: Any
) -> None:
    controller = start_app(
        empty_paths, StartOptions(sandbox=True), policy=policy_of({ROOT: {"SandboxDisabled": 1}})
    )
    qt_wait_until(
        qtbot,
        lambda: (
            visible_dialog(QMessageBox) is not None
            and visible_dialog(QMessageBox).objectName() == "sandbox-refused"
        ),
        "the refusal",
    )
    box = visible_dialog(QMessageBox)
    assert "turned the sandbox bank off" in box.text()
    box.accept()
    qt_wait_until(qtbot, controller.run_task.done, "the run to end")
    assert controller.sandbox is None and controller.workspace is None


def open_dialog(qtbot: Any, qasync_loop: Any, **kwargs: Any) -> tuple[ProfileDialog, Any]:
    dialog = ProfileDialog(**kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def test_a_preset_profile_is_read_only_but_for_its_secrets(
    qtbot: Any, qasync_loop: Any, empty_paths: AppPaths
) -> None:
    policy = policy_of({f"{ROOT}\\Profiles\\1": preset()})
    profile = ProfileStore(empty_paths, policy).load("Main bank")
    dialog, asked = open_dialog(qtbot, qasync_loop, profile=profile, policy=policy)
    mark = dialog.findChild(QLabel, "policy-mark")
    assert mark is not None and mark.isVisible() and MARK in mark.text()
    for name in ("profile-name", "qrcodes-base-url", "accounts-client-id", "qrcodes-pfx"):
        edit = dialog.findChild(QLineEdit, name)
        assert edit.isReadOnly() and MARK in edit.toolTip(), name
        assert edit.property("policy") == "locked"
    assert not dialog.findChild(QComboBox, "profile-environment").isEnabled()
    secret = dialog.findChild(QLineEdit, "qrcodes-client-secret")
    assert not secret.isReadOnly()
    qtbot.keyClicks(secret, "typed secret")
    qtbot.mouseClick(dialog.save_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, asked.done, "the dialog accepted")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.result_profile() == profile  # the policy's, unchanged
    assert dialog.result_secrets() == {"qrcodes": "typed secret"}


def test_a_locked_team_database_fills_the_ledger_read_only_with_the_mark(
    qtbot: Any, qasync_loop: Any
) -> None:
    policy = policy_of(
        {
            ROOT: {"SandboxDisabled": 1},
            f"{ROOT}\\TeamDatabase": {
                "Host": "db.example.com",
                "Database": "treasury",
                "Port": 6432,
            },
            f"{ROOT}\\Locked": {"TeamDatabase": 1},
        }
    )
    dialog, _ = open_dialog(qtbot, qasync_loop, policy=policy)
    location = dialog.findChild(QComboBox, "ledger-location")
    assert location.currentData() == "team" and not location.isEnabled()
    host = dialog.findChild(QLineEdit, "team-host")
    assert host.text() == "db.example.com" and host.isReadOnly() and MARK in host.toolTip()
    assert dialog.findChild(QLineEdit, "team-dbname").isReadOnly()
    user = dialog.findChild(QLineEdit, "team-user")
    assert not user.isReadOnly()  # the policy leaves one's own login to the person
    mark = dialog.findChild(QLabel, "ledger-policy-mark")
    assert mark is not None and mark.isVisible() and MARK in mark.text()
    environment = dialog.findChild(QComboBox, "profile-environment")
    offered = [environment.itemData(i) for i in range(environment.count())]
    assert offered == ["production"]  # no sandbox environment where the sandbox is off


def test_the_managed_settings_list(qtbot: Any) -> None:
    policy = policy_of(
        {
            ROOT: {"SandboxDisabled": 1, "DataDir": "/data/%USERNAME%", "Typo": 1},
            f"{ROOT}\\Profiles\\1": preset(),
            f"{ROOT}\\Locked": {"Profiles": 1},
        }
    )
    panel = ManagedSettingsPanel(policy)
    qtbot.addWidget(panel)
    assert panel.names() == [
        "Sandbox bank turned off",
        "Data folder",
        "Preset profile: Main bank",
        "Locked: Preset profile",
    ]
    table = panel.table
    assert table.item(1, 1).text() == str(Path("/data/ana"))
    assert table.item(1, 2).text() == "Group Policy (registry)"
    assert table.item(1, 2).toolTip() == "HKLM\\" + ROOT
    assert table.item(0, 3).text() == "yes"
    assert "registry: Typo" in panel.ignored.text()


def test_settings_shows_the_managed_page_and_marks_a_preset(
    open_workspace: Any, qtbot: Any
) -> None:
    from treasury_app.ui.tabs.settings_tab import SettingsTab

    workspace = open_workspace()
    workspace.policy = policy_of(
        {ROOT: {"BackupDir": "/backups"}, f"{ROOT}\\Locked": {"BackupDir": 1}}
    )
    tab = SettingsTab(workspace)
    qtbot.addWidget(tab)
    titles = [tab.pages.tabText(i) for i in range(tab.pages.count())]
    assert titles[-1] == "Managed by your organisation"
    assert tab.managed_panel is not None and tab.managed_panel.names() == [
        "Backup folder",
        "Locked: Backup folder",
    ]
    tab.shutdown()
    workspace.policy = Policy()
    plain = SettingsTab(workspace)
    qtbot.addWidget(plain)
    assert plain.managed_panel is None  # no policy: no page
    plain.shutdown()


def test_a_policy_that_fails_its_checks_stops_the_start_with_its_words(
    qtbot: Any, qasync_loop: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from treasury_app.ui import policy_view

    registry = FakeRegistry({f"{ROOT}\\TeamDatabase": {"Host": "db", "Database": "t", "Port": 0}})
    monkeypatch.setattr(
        policy_view,
        "load_machine_policy",
        lambda: read_policy([RegistryKeys(registry)]),
    )
    loading = qasync_loop.create_task(policy_view.load_policy(None))
    qt_wait_until(
        qtbot,
        lambda: (
            visible_dialog(QMessageBox) is not None
            and visible_dialog(QMessageBox).objectName() == "policy-refused"
        ),
        "the refusal",
    )
    box = visible_dialog(QMessageBox)
    assert "cannot start" in box.text()
    assert f"TeamDatabase\\Port in HKLM\\{ROOT} is 0: a port is between 1 and 65535." in box.text()
    box.accept()
    qt_wait_until(qtbot, loading.done, "the load to end")
    assert loading.result() is None


def test_the_managed_settings_names_and_sources_are_read_whole(qtbot: Any) -> None:
    """On a laptop's width, a setting's name, where it was set and whether it is locked are
    not cut short; the value column takes what is left."""
    policy = policy_of(
        {
            ROOT: {"DataDir": "/data/%USERNAME%"},
            f"{ROOT}\\TeamDatabase": {"Host": "db.example.com", "Database": "treasury"},
            f"{ROOT}\\Profiles\\1": preset("Banco Principal da Empresa"),
            f"{ROOT}\\Locked": {"TeamDatabase": 1},
        }
    )
    panel = ManagedSettingsPanel(policy)
    qtbot.addWidget(panel)
    panel.resize(1000, 400)
    panel.show()
    table = panel.table
    metrics = table.fontMetrics()
    for column in (0, 2, 3):
        for row in range(table.rowCount()):
            text = table.item(row, column).text()
            assert table.columnWidth(column) > metrics.horizontalAdvance(text), (row, text)
