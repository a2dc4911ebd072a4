"""The profile dialog: every field checked before it accepts, problems shown next to their
fields, a valid profile that survives the profile store, and where client secrets will live."""

from __future__ import annotations

from pathlib import Path

import keyring
import pytest
from keyring.backends import fail as keyring_fail
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialog, QLabel, QLineEdit, QPushButton

from tests.services.session_fixtures import MemoryKeyring
from tests.waiting import qt_wait_until
from treasury_app.config import AppPaths
from treasury_app.services.profiles import ApiProfile, Profile, ProfileStore, SecretStore
from treasury_app.ui.async_tools import ask
from treasury_app.ui.dialogs.profile_dialog import ProfileDialog


@pytest.fixture
def use_keyring():
    previous = keyring.get_keyring()
    yield keyring.set_keyring
    keyring.set_keyring(previous)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("qrcodes.pfx", "accounts.pfx", "bank-ca.pem"):
        made[name] = tmp_path / name
        made[name].write_bytes(b"not checked by the dialog")
    return made


def _open(qtbot, qasync_loop, **kwargs):
    dialog = ProfileDialog(**kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def _edit(dialog: ProfileDialog, name: str) -> QLineEdit:
    return dialog.findChild(QLineEdit, name)


def _type(qtbot, dialog: ProfileDialog, name: str, text: str) -> None:
    edit = _edit(dialog, name)
    edit.clear()
    qtbot.keyClicks(edit, text)


def _fill(qtbot, dialog: ProfileDialog, files: dict[str, Path], name: str = "Main bank") -> None:
    _type(qtbot, dialog, "profile-name", name)
    for api in ("qrcodes", "accounts"):
        _type(qtbot, dialog, f"{api}-base-url", f"https://{api}.bank.example/v2")
        _type(qtbot, dialog, f"{api}-client-id", f"id-{api}")
        _type(qtbot, dialog, f"{api}-pfx", str(files[f"{api}.pfx"]))


def _save(qtbot, dialog: ProfileDialog) -> None:
    qtbot.mouseClick(dialog.findChild(QPushButton, "save-button"), Qt.MouseButton.LeftButton)


def _error(dialog: ProfileDialog, field: str) -> str:
    label = dialog.findChild(QLabel, f"error-{field}")
    return label.text() if label.isVisible() else ""


def test_an_http_address_is_refused_next_to_its_field(qtbot, qasync_loop, files) -> None:
    dialog, asked = _open(qtbot, qasync_loop)
    _fill(qtbot, dialog, files)
    _type(qtbot, dialog, "qrcodes-base-url", "http://qrcodes.bank.example")
    _save(qtbot, dialog)
    assert not asked.done() and dialog.isVisible()
    assert "https://" in _error(dialog, "qrcodes.base_url")
    assert _error(dialog, "accounts.base_url") == ""
    assert dialog.banner.isVisible()
    assert _edit(dialog, "qrcodes-base-url").property("invalid") is True
    assert dialog.focusWidget() is _edit(dialog, "qrcodes-base-url")
    with pytest.raises(RuntimeError):
        dialog.result_profile()
    _type(qtbot, dialog, "qrcodes-base-url", "https://qrcodes.bank.example")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted


def test_missing_files_ids_and_addresses_are_each_reported(qtbot, qasync_loop, files) -> None:
    dialog, asked = _open(qtbot, qasync_loop)
    _fill(qtbot, dialog, files)
    _type(qtbot, dialog, "accounts-pfx", str(files["accounts.pfx"].with_name("gone.pfx")))
    _type(qtbot, dialog, "qrcodes-client-id", "   ")
    _type(qtbot, dialog, "accounts-base-url", "https://")
    trust = dialog.findChild(QComboBox, "qrcodes-trust")
    trust.setCurrentIndex(trust.findData("file"))
    _save(qtbot, dialog)
    assert not asked.done()
    assert "does not exist" in _error(dialog, "accounts.pfx_path")
    assert "client id" in _error(dialog, "qrcodes.client_id")
    assert "not a valid address" in _error(dialog, "accounts.base_url")
    assert "CA" in _error(dialog, "qrcodes.ca_file")
    assert _error(dialog, "qrcodes.pfx_path") == ""
    assert "4 fields" in dialog.banner.detail.text()
    dialog.reject()


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("", "needs a name"),
        ("a/b", "may contain only"),
        (" Bank", "space"),
        ("main BANK", "exists"),
    ],
)
def test_bad_profile_names(qtbot, qasync_loop, files, name, expected) -> None:
    dialog, asked = _open(qtbot, qasync_loop, existing_names=["Main bank"])
    _fill(qtbot, dialog, files, name=name)
    _save(qtbot, dialog)
    assert not asked.done()
    assert expected in _error(dialog, "name")
    dialog.reject()


def test_a_valid_profile_round_trips_through_the_store(
    qtbot, run, qasync_loop, files, tmp_path, use_keyring
) -> None:
    use_keyring(MemoryKeyring())
    dialog, asked = _open(qtbot, qasync_loop, secret_store=SecretStore())
    _fill(qtbot, dialog, files)
    _type(qtbot, dialog, "qrcodes-client-secret", "qr-secret")
    _type(qtbot, dialog, "profile-pix-keys", " 11222333000181, financeiro@empresa.com.br ,")
    # The CA file through the picker (a window-modal QFileDialog, no nested event loop).
    trust = dialog.findChild(QComboBox, "accounts-trust")
    trust.setCurrentIndex(trust.findData("file"))
    qtbot.mouseClick(dialog.findChild(QPushButton, "accounts-ca-browse"), Qt.MouseButton.LeftButton)
    picker = dialog.file_dialog
    qt_wait_until(qtbot, picker.isVisible, "picker shown")
    picker.selectFile(str(files["bank-ca.pem"]))
    picker.accept()
    assert _edit(dialog, "accounts-ca-file").text() == str(files["bank-ca.pem"])
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert _edit(dialog, "qrcodes-client-secret").text() == ""  # cleared once closed
    assert dialog.result_secrets() == {"qrcodes": "qr-secret"}

    profile = dialog.result_profile()
    assert profile.environment == "production"
    assert profile.qrcodes.base_url == "https://qrcodes.bank.example/v2"
    assert profile.accounts.ca_file == files["bank-ca.pem"]
    assert profile.qrcodes.ca_file is None
    assert profile.qrcodes.trust().kind == "system"
    assert profile.pix_keys == ("11222333000181", "financeiro@empresa.com.br")
    store = ProfileStore(AppPaths(tmp_path / "config", tmp_path / "data", tmp_path / "logs"))
    saved = run(store.save(profile))
    loaded = store.load("Main bank")
    assert loaded == saved
    assert "qr-secret" not in store.path_for("Main bank").read_text()


def test_editing_keeps_the_name_and_what_the_form_does_not_show(qtbot, qasync_loop, files) -> None:
    original = Profile(
        name="Main bank",
        environment="production",
        qrcodes=ApiProfile(
            base_url="https://q.bank.example",
            client_id="q",
            pfx_path=files["qrcodes.pfx"],
            scopes=("cob.read",),
        ),
        accounts=ApiProfile(
            base_url="https://a.bank.example",
            client_id="a",
            pfx_path=files["accounts.pfx"],
            ca_file=files["bank-ca.pem"],
        ),
        read_timeout=42,
        pix_keys=("+5511987650000",),
    )
    dialog, asked = _open(
        qtbot, qasync_loop, profile=original, existing_names=["Main bank", "Other"]
    )
    assert _edit(dialog, "profile-name").isReadOnly()
    assert dialog.findChild(QComboBox, "accounts-trust").currentData() == "file"
    _type(qtbot, dialog, "accounts-client-id", "a2")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    edited = dialog.result_profile()
    assert edited.accounts.client_id == "a2"
    assert edited.pix_keys == ("+5511987650000",)  # shown in the form and kept
    assert edited.qrcodes.scopes == ("cob.read",)
    assert edited.read_timeout == 42 and edited.created_at == original.created_at
    assert dialog.result_secrets() == {}


def test_the_secret_note_says_keyring_when_there_is_one(qtbot, use_keyring) -> None:
    use_keyring(MemoryKeyring())
    dialog = ProfileDialog(secret_store=SecretStore())
    qtbot.addWidget(dialog)
    for api in ("qrcodes", "accounts"):
        note = dialog.findChild(QLabel, f"{api}-secret-note").text()
        assert "system keyring" in note and "asked" not in note
    assert _edit(dialog, "qrcodes-client-secret").echoMode() == QLineEdit.EchoMode.Password


def test_the_secret_note_says_asked_at_each_unlock_without_a_keyring(qtbot, use_keyring) -> None:
    use_keyring(keyring_fail.Keyring())
    dialog = ProfileDialog(secret_store=SecretStore())
    qtbot.addWidget(dialog)
    for api in ("qrcodes", "accounts"):
        note = dialog.findChild(QLabel, f"{api}-secret-note").text()
        assert "asked at each unlock" in note and "not saved" in note
