"""A production profile's bank address and CA: confirmed in the profile dialog before they are
saved (and audited), a custom CA warned about, and a profile file edited outside the app
confirmed at unlock before anything is sent."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import keyring
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QCheckBox, QComboBox, QLabel, QLineEdit, QPushButton

from tests.services.session_fixtures import MemoryKeyring
from tests.ui.conftest import reset_token_limits
from tests.ui.test_app_flow import dialog_of, unlock_with
from tests.waiting import qt_turn, qt_wait_until
from treasury_app.config import AppPaths
from treasury_app.ledger import open_ledger
from treasury_app.sandbox import pki
from treasury_app.services.profiles import (
    ApiProfile,
    EndpointConfirmations,
    Profile,
    ProfileStore,
    SecretStore,
)
from treasury_app.services.session import ledger_path
from treasury_app.ui import controller as controller_module
from treasury_app.ui.controller import AppController, StartOptions
from treasury_app.ui.dialogs.profile_dialog import ProfileDialog
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

NAME = "Banco Real"


@pytest.fixture(scope="module")
def cas() -> tuple[x509.Certificate, x509.Certificate]:
    return pki.new_ca("Bank Root CA").cert, pki.new_ca("New Bank CA").cert


def _fingerprint(certificate: x509.Certificate) -> str:
    return certificate.fingerprint(hashes.SHA256()).hex(":").upper()


@pytest.fixture
def paths(tmp_path: Path) -> AppPaths:
    made = AppPaths.default(tmp_path / "app")
    made.ensure()
    return made


@pytest.fixture
def files(tmp_path: Path, cas) -> dict[str, Path]:
    made = {}
    for name in ("qrcodes.pfx", "accounts.pfx"):
        made[name] = tmp_path / name
        made[name].write_bytes(b"not checked by the dialog")
    for name, certificate in (("bank-ca.pem", cas[0]), ("new-ca.pem", cas[1])):
        made[name] = tmp_path / name
        made[name].write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
    return made


def _production(files: dict[str, Path]) -> Profile:
    return Profile(
        name=NAME,
        environment="production",
        qrcodes=ApiProfile(
            base_url="https://pix.bank.example/v2", client_id="q", pfx_path=files["qrcodes.pfx"]
        ),
        accounts=ApiProfile(
            base_url="https://accounts.bank.example",
            client_id="a",
            pfx_path=files["accounts.pfx"],
            ca_file=files["bank-ca.pem"],
        ),
    )


def _visible_profile_dialog() -> ProfileDialog | None:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, ProfileDialog) and widget.isVisible():
            return widget
    return None


def _type(qtbot, dialog, name: str, text: str) -> None:
    edit = dialog.findChild(QLineEdit, name)
    edit.clear()
    qtbot.keyClicks(edit, text)


def _save(qtbot, dialog) -> None:
    qtbot.mouseClick(dialog.findChild(QPushButton, "save-button"), Qt.MouseButton.LeftButton)


def _click(qtbot, box, button) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _confirm_button(box) -> QPushButton:
    return box.findChild(QPushButton, "endpoint-confirm")


def _cancel_button(box) -> QPushButton:
    return next(b for b in box.buttons() if b is not _confirm_button(box))


def _audit_rows(run, paths: AppPaths, action: str) -> list[Any]:
    ledger = open_ledger(ledger_path(paths, NAME), profile=NAME)
    try:
        return list(reversed(run(ledger.audit.entries(action=action))))
    finally:
        ledger.close_now()


# --------------------------------------------------------------------------------------------
# The profile dialog


def test_a_custom_ca_is_warned_about_for_production_only(qtbot) -> None:
    dialog = ProfileDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    warning = dialog.findChild(QLabel, "accounts-ca-warning")
    trust = dialog.findChild(QComboBox, "accounts-trust")
    environment = dialog.findChild(QComboBox, "profile-environment")
    assert environment.currentData() == "production"
    assert not warning.isVisible()  # the system trust store: nothing to warn about
    trust.setCurrentIndex(trust.findData("file"))
    assert warning.isVisible()
    assert "system trust store" in warning.text() and "test setups" in warning.text()
    assert not dialog.findChild(QLabel, "qrcodes-ca-warning").isVisible()
    environment.setCurrentIndex(environment.findData("sandbox"))
    assert not warning.isVisible()
    environment.setCurrentIndex(environment.findData("production"))
    assert warning.isVisible()
    trust.setCurrentIndex(trust.findData("system"))
    assert not warning.isVisible()


def test_a_production_profile_with_its_ca_opens_with_the_warning(qtbot, files) -> None:
    dialog = ProfileDialog(profile=_production(files))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    assert dialog.findChild(QLabel, "accounts-ca-warning").isVisible()
    assert not dialog.findChild(QLabel, "qrcodes-ca-warning").isVisible()


@pytest.fixture
def edited(paths: AppPaths, files, qasync_loop, qtbot, run):
    """The production profile saved and confirmed, its ledger open as an unlocked workspace's
    would be, and the controller's "Edit profile…" running on it."""
    store = ProfileStore(paths)
    endpoints = EndpointConfirmations(paths)
    profile = run(store.save(_production(files)))
    run(endpoints.confirm(NAME, endpoints.pending(profile), confirmed_in="profile dialog"))
    ledger = open_ledger(ledger_path(paths, NAME), profile=NAME)
    workspace = SimpleNamespace(
        session=SimpleNamespace(profile=profile, closed=False), ledger=ledger
    )
    controller = AppController(paths, secret_store=SecretStore())
    task = qasync_loop.create_task(controller.edit_profile(workspace))
    qt_wait_until(
        qtbot,
        lambda: _visible_profile_dialog() is not None,
        "_visible_profile_dialog() is not None",
    )
    yield SimpleNamespace(
        store=store, endpoints=endpoints, ledger=ledger, task=task, dialog=_visible_profile_dialog()
    )
    dialog = _visible_profile_dialog()
    if dialog is not None:
        dialog.reject()
    qt_wait_until(qtbot, task.done, "task.done")
    ledger.close_now()


def test_a_changed_address_and_ca_are_confirmed_before_saving(
    qtbot, run, edited, files, cas
) -> None:
    dialog, store = edited.dialog, edited.store
    before = store.path_for(NAME).read_bytes()
    audited = len(run(edited.ledger.audit.entries()))  # the first confirmation's two rows
    _type(qtbot, dialog, "accounts-base-url", "https://accounts.newbank.example:8443/v3")
    _type(qtbot, dialog, "accounts-ca-file", str(files["new-ca.pem"]))
    _save(qtbot, dialog)
    qt_wait_until(
        qtbot,
        lambda: dialog.endpoint_box is not None and dialog.endpoint_box.isVisible(),
        "dialog.endpoint_box is not None and dialog.endpoint_box.isVisible()",
    )
    box = dialog.endpoint_box
    assert box.isModal() and box.windowModality() == Qt.WindowModality.WindowModal
    assert box.windowTitle() == "Confirm the bank's servers"
    shown = box.informativeText()
    assert "Accounts API" in shown and "QR Codes API" not in shown  # only what changed
    assert "Host: accounts.bank.example → accounts.newbank.example:8443" in shown
    assert "New Bank CA, SHA-256:" in shown
    assert _fingerprint(cas[1]) == ":".join(
        line for line in shown.splitlines() if line.count(":") >= 15
    ).replace("\n", "")
    assert "The CA changed." in shown

    # Cancel: the dialog stays open and nothing is saved or audited.
    _click(qtbot, box, _cancel_button(box))
    qt_wait_until(qtbot, lambda: dialog.endpoint_box is None, "dialog.endpoint_box is None")
    assert dialog.isVisible() and not edited.task.done()
    assert store.path_for(NAME).read_bytes() == before
    assert len(run(edited.ledger.audit.entries())) == audited

    # Save again and confirm: saved, recorded as confirmed, one audit row for the API.
    _save(qtbot, dialog)
    qt_wait_until(
        qtbot,
        lambda: dialog.endpoint_box is not None and dialog.endpoint_box.isVisible(),
        "dialog.endpoint_box is not None and dialog.endpoint_box.isVisible()",
    )
    _click(qtbot, dialog.endpoint_box, _confirm_button(dialog.endpoint_box))
    qt_wait_until(qtbot, edited.task.done, "edited.task.done")
    edited.task.result()
    saved = store.load(NAME)
    assert saved.accounts.base_url == "https://accounts.newbank.example:8443/v3"
    assert saved.accounts.ca_file == files["new-ca.pem"]
    assert edited.endpoints.pending(saved) == ()
    rows = list(reversed(run(edited.ledger.audit.entries())))[audited:]
    assert [(row.action, row.outcome) for row in rows] == [
        ("profile.save", "updated"),
        ("profile.endpoints.confirm", "confirmed"),
    ]
    details = rows[1].details
    assert details["api"] == "accounts" and details["confirmed_in"] == "profile dialog"
    assert details["old_host"] == "accounts.bank.example"
    assert details["new_host"] == "accounts.newbank.example:8443"
    assert details["ca_sha256"] == [_fingerprint(cas[1])]


def test_unchanged_addresses_save_without_a_confirmation(qtbot, run, edited) -> None:
    dialog = edited.dialog
    _type(qtbot, dialog, "qrcodes-client-id", "q2")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, edited.task.done, "edited.task.done")
    assert dialog.endpoint_box is None
    assert edited.store.load(NAME).qrcodes.client_id == "q2"
    rows = list(reversed(run(edited.ledger.audit.entries())))
    assert [row.action for row in rows][2:] == ["profile.save"]  # after the first confirmation


def test_a_new_production_profile_is_its_first_confirmation(
    qtbot, run, qasync_loop, paths, files
) -> None:
    controller = AppController(paths, secret_store=SecretStore())
    task = qasync_loop.create_task(controller.new_profile())
    qt_wait_until(
        qtbot,
        lambda: _visible_profile_dialog() is not None,
        "_visible_profile_dialog() is not None",
    )
    dialog = _visible_profile_dialog()
    try:
        _type(qtbot, dialog, "profile-name", NAME)
        for api in ("qrcodes", "accounts"):
            _type(qtbot, dialog, f"{api}-base-url", f"https://{api}.bank.example")
            _type(qtbot, dialog, f"{api}-client-id", f"id-{api}")
            _type(qtbot, dialog, f"{api}-pfx", str(files[f"{api}.pfx"]))
        _save(qtbot, dialog)
        qt_wait_until(
            qtbot,
            lambda: dialog.endpoint_box is not None and dialog.endpoint_box.isVisible(),
            "dialog.endpoint_box is not None and dialog.endpoint_box.isVisible()",
        )
        shown = dialog.endpoint_box.informativeText()
        assert "Host: none confirmed yet → qrcodes.bank.example" in shown
        assert shown.count("CA: the system trust store") == 2
        assert not controller.store.exists(NAME)
        _click(qtbot, dialog.endpoint_box, _confirm_button(dialog.endpoint_box))
        qt_wait_until(qtbot, task.done, "task.done")
    finally:
        if not task.done():
            dialog.reject()
            qt_wait_until(qtbot, task.done, "task.done")
    created = task.result()
    assert created is not None and controller.store.exists(NAME)
    assert controller.endpoints.pending(controller.store.load(NAME)) == ()
    rows = _audit_rows(run, paths, "profile.endpoints.confirm")
    assert [(row.details["api"], row.details["old_host"]) for row in rows] == [
        ("qrcodes", None),
        ("accounts", None),
    ]


# --------------------------------------------------------------------------------------------
# At unlock: a profile file edited outside the app


@pytest.fixture
def outside_edit(paths, ui_sandbox, sandbox_profile_and_secrets, monkeypatch, start_app, run):
    """A production profile on the UI sandbox bank, confirmed at an old address; then its file
    is edited by hand to the bank's real address, and the app is started on it."""
    sandbox, secrets = sandbox_profile_and_secrets
    real = sandbox.model_copy(update={"name": NAME, "environment": "production"})
    old = real.model_copy(
        update={
            "accounts": real.accounts.model_copy(
                update={"base_url": "https://accounts.oldbank.example"}
            )
        }
    )
    store = ProfileStore(paths)
    endpoints = EndpointConfirmations(paths)
    run(store.save(old))
    run(endpoints.confirm(NAME, endpoints.pending(old), confirmed_in="profile dialog"))
    path = store.path_for(NAME)
    path.write_text(
        path.read_text().replace("https://accounts.oldbank.example", real.accounts.base_url)
    )
    assert store.load(NAME).accounts.base_url == real.accounts.base_url

    previous_keyring = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    secret_store = SecretStore()
    for api, secret in secrets.client_secrets.items():
        run(secret_store.set(NAME, api, secret))
    opened: list[Any] = []
    real_open = controller_module.Session.open

    async def spy_open(*args: Any, **kwargs: Any) -> Any:
        opened.append(args)
        return await real_open(*args, **kwargs)

    monkeypatch.setattr(controller_module.Session, "open", spy_open)
    reset_token_limits(ui_sandbox.ready_file)
    QSettings().clear()
    app = start_app(paths, StartOptions(profile=NAME), secret_store=secret_store)
    try:
        yield SimpleNamespace(
            app=app,
            task=app.run_task,
            opened=opened,
            endpoints=endpoints,
            store=store,
            secrets=secrets,
        )
    finally:  # start_app quits it, after this
        keyring.set_keyring(previous_keyring)
        QSettings().clear()


def _wait_for_confirmation(qtbot, app) -> Any:
    qt_wait_until(
        qtbot,
        lambda: app.endpoint_box is not None and app.endpoint_box.isVisible(),
        "the bank's addresses to confirm",
    )
    return app.endpoint_box


def test_an_outside_edit_is_confirmed_before_anything_is_sent(
    qtbot, run, outside_edit, sandbox_profile_and_secrets
) -> None:
    app, opened = outside_edit.app, outside_edit.opened
    box = _wait_for_confirmation(qtbot, app)
    assert "changed outside the app" in box.text() and "Nothing is sent" in box.text()
    shown = box.informativeText()
    sandbox, _ = sandbox_profile_and_secrets
    new_host = sandbox.accounts.base_url.split("//")[1].split("/")[0]
    assert f"Host: accounts.oldbank.example → {new_host}" in shown
    assert "SHA-256:" in shown
    assert box.findChild(QPushButton, "endpoint-confirm").text() == "Confirm and unlock"
    # While it waits: no password asked, no session, nothing sent to the bank.
    qt_turn(qtbot)  # what was already on its way has happened
    assert dialog_of(UnlockDialog) is None and opened == []
    assert _audit_rows(run, app.paths, "session") == []

    _click(qtbot, box, _confirm_button(box))
    qt_wait_until(
        qtbot, lambda: dialog_of(UnlockDialog) is not None, "dialog_of(UnlockDialog) is not None"
    )
    assert opened == []
    unlock = dialog_of(UnlockDialog)
    unlock.findChild(QCheckBox, "same-password").setChecked(False)
    unlock_with(qtbot, unlock, dict(outside_edit.secrets.pfx_passwords))
    qt_wait_until(qtbot, lambda: app.workspace is not None, "app.workspace is not None")
    assert len(opened) == 1
    assert outside_edit.endpoints.pending(outside_edit.store.load(NAME)) == ()
    (row,) = _audit_rows(run, app.paths, "profile.endpoints.confirm")[2:]  # after the first two
    assert (row.outcome, row.details["api"], row.details["confirmed_in"]) == (
        "confirmed",
        "accounts",
        "unlock",
    )
    assert row.details["old_host"] == "accounts.oldbank.example"
    assert row.details["new_host"] == new_host

    # Edited while open (saved and confirmed, as "Edit profile…" does), then locked: the next
    # unlock uses the saved profile, with no confirmation against its own newer record.
    store, endpoints = outside_edit.store, outside_edit.endpoints
    current = store.load(NAME)
    moved = current.model_copy(
        update={
            "qrcodes": current.qrcodes.model_copy(update={"base_url": "https://pix.new.example"})
        }
    )
    run(store.save(moved))
    run(endpoints.confirm(NAME, endpoints.pending(moved), confirmed_in="profile dialog"))
    app.window.lock_requested.emit()
    qt_wait_until(
        qtbot, lambda: dialog_of(UnlockDialog) is not None, "dialog_of(UnlockDialog) is not None"
    )
    assert app.endpoint_box is None
    assert dialog_of(UnlockDialog).profile.qrcodes.base_url == "https://pix.new.example"


def test_declining_an_outside_edit_leaves_the_profile_locked(qtbot, run, outside_edit) -> None:
    app = outside_edit.app
    box = _wait_for_confirmation(qtbot, app)
    _click(qtbot, box, _cancel_button(box))
    qt_wait_until(qtbot, outside_edit.task.done, "outside_edit.task.done")
    outside_edit.task.result()
    assert app.workspace is None and outside_edit.opened == []
    assert dialog_of(UnlockDialog) is None
    assert _audit_rows(run, app.paths, "session") == []
    rows = _audit_rows(run, app.paths, "profile.endpoints.confirm")
    assert [(row.outcome, row.details["api"]) for row in rows[2:]] == [("declined", "accounts")]
    assert len(outside_edit.endpoints.pending(outside_edit.store.load(NAME))) == 1


def test_a_ca_file_that_cannot_be_read_keeps_the_profile_locked(
    qtbot, qasync_loop, paths, files
) -> None:
    profile = _production(files)
    files["bank-ca.pem"].unlink()
    app = AppController(paths, secret_store=SecretStore())
    task = qasync_loop.create_task(app.confirm_endpoints(profile))
    qt_wait_until(
        qtbot,
        lambda: app.endpoint_box is not None and app.endpoint_box.isVisible(),
        "app.endpoint_box is not None and app.endpoint_box.isVisible()",
    )
    box = app.endpoint_box
    assert box.objectName() == "endpoint-error"
    assert "bank-ca.pem does not exist" in box.text()
    assert "stays locked" in box.text()
    box.accept()
    qt_wait_until(qtbot, task.done, "task.done")
    assert task.result() is False
    assert not EndpointConfirmations(paths).path_for(NAME).exists()
