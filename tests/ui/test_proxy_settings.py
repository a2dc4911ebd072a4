"""The proxy in the profile dialog (none, the system's, or an address: checked, never with a
password) and in Settings (the setting, and where each API's requests really go)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QLineEdit, QPushButton

from tests.waiting import qt_wait_until
from treasury_app.api.proxies import ProxySetting
from treasury_app.services.profiles import ApiProfile, Profile
from treasury_app.ui.async_tools import ask
from treasury_app.ui.dialogs.profile_dialog import ProfileDialog


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("qrcodes.pfx", "accounts.pfx"):
        made[name] = tmp_path / name
        made[name].write_bytes(b"not checked by the dialog")
    return made


def _open(qtbot, qasync_loop, **kwargs):
    dialog = ProfileDialog(**kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def _type(qtbot, dialog: ProfileDialog, name: str, text: str) -> None:
    edit = dialog.findChild(QLineEdit, name)
    edit.clear()
    qtbot.keyClicks(edit, text)


def _error(dialog: ProfileDialog, field: str) -> str:
    label = dialog.findChild(QLabel, f"error-{field}")
    return label.text() if label.isVisible() else ""


def _save(qtbot, dialog: ProfileDialog) -> None:
    qtbot.mouseClick(dialog.findChild(QPushButton, "save-button"), Qt.MouseButton.LeftButton)


def _mode(dialog: ProfileDialog, mode: str) -> None:
    combo = dialog.findChild(QComboBox, "profile-proxy-mode")
    combo.setCurrentIndex(combo.findData(mode))


def test_a_proxy_address_is_checked_next_to_its_field(qtbot, qasync_loop, files) -> None:
    dialog, asked = _open(qtbot, qasync_loop)
    _type(qtbot, dialog, "profile-name", "Main bank")
    for api in ("qrcodes", "accounts"):
        _type(qtbot, dialog, f"{api}-base-url", f"https://{api}.bank.example")
        _type(qtbot, dialog, f"{api}-client-id", f"id-{api}")
        _type(qtbot, dialog, f"{api}-pfx", str(files[f"{api}.pfx"]))
    url = dialog.findChild(QLineEdit, "profile-proxy-url")
    assert dialog.findChild(QComboBox, "profile-proxy-mode").currentData() == "system"
    assert not url.isEnabled()
    _mode(dialog, "url")
    assert url.isEnabled()
    for typed, says in [
        ("", "Enter the proxy's address"),
        ("proxy.corp.example:3128", "http:// or https://"),
        ("http://proxy.corp.example", "port"),
        ("http://alice:s3cret@proxy.corp.example:3128", "cannot be kept in the profile"),
    ]:
        _type(qtbot, dialog, "profile-proxy-url", typed)
        _save(qtbot, dialog)
        assert not asked.done(), typed
        assert says in _error(dialog, "proxy"), typed
        assert "s3cret" not in _error(dialog, "proxy") + dialog.banner.detail.text()
    _type(qtbot, dialog, "profile-proxy-url", "http://proxy.corp.example:3128")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.result_profile().proxy == ProxySetting.explicit("http://proxy.corp.example:3128")


def test_editing_shows_and_keeps_the_profiles_proxy(qtbot, qasync_loop, files) -> None:
    original = Profile(
        name="Main bank",
        environment="production",
        qrcodes=ApiProfile(
            base_url="https://q.example", client_id="q", pfx_path=files["qrcodes.pfx"]
        ),
        accounts=ApiProfile(
            base_url="https://a.example", client_id="a", pfx_path=files["accounts.pfx"]
        ),
        proxy=ProxySetting(mode="none"),
    )
    dialog, asked = _open(qtbot, qasync_loop, profile=original, existing_names=["Main bank"])
    assert dialog.findChild(QComboBox, "profile-proxy-mode").currentData() == "none"
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert dialog.result_profile().proxy == ProxySetting(mode="none")


def test_settings_show_the_proxy_of_each_api(qtbot, open_workspace) -> None:
    from treasury_app.ui.tabs.settings_tab import SettingsTab

    tab = SettingsTab(open_workspace())
    qtbot.addWidget(tab)
    text = tab.findChild(QLabel, "settings-proxy").text()
    assert text.splitlines() == [
        "The system's proxy",
        "QR Codes API: direct (this computer)",
        "Accounts API: direct (this computer)",
    ]
    tab.shutdown()
