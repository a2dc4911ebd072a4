"""The unlock dialog against the sandbox's real certificate bundles: wrong passwords stay in
the dialog, right ones accept it and show each certificate, expired and soon-expiring
certificates are explained, the sandbox's test passwords can be filled in."""

from __future__ import annotations

import datetime as dt
import threading
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QDialog, QLabel, QLineEdit, QPushButton

from tests.waiting import WAIT_SECONDS, qt_wait_until
from treasury_app.api.tls import load_pfx
from treasury_app.sandbox import pki
from treasury_app.ui.async_tools import ask
from treasury_app.ui.dialogs import unlock_dialog
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

PASSWORD = "s3nh@-forte"


def _issue(handle, api: str, *, not_before=None, not_after=None) -> Path:
    """A .pfx signed by the UI sandbox's client CA of ``api``, protected by PASSWORD."""
    issuer = pki.client_ca(pki.ensure_pki(handle.directory / "bank" / "pki"), api)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, pki.ORGANIZATION),
            x509.NameAttribute(NameOID.COMMON_NAME, f"odd-{api}"),
        ]
    )
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(key, hashes.SHA256())
    cert = pki.sign_client_csr(issuer, csr, not_before=not_before, not_after=not_after)
    path = handle.directory.parent / f"test-{api}-{cert.serial_number}.pfx"
    path.write_bytes(pki.pfx_bytes(key, cert, [issuer.cert], PASSWORD))
    return path


@pytest.fixture
def sandbox(sandbox_profile_and_secrets):
    profile, secrets = sandbox_profile_and_secrets
    return profile, dict(secrets.pfx_passwords)


def _open(qtbot, qasync_loop, profile, **kwargs):
    dialog = UnlockDialog(profile, **kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def _field(dialog, name: str) -> QLineEdit:
    return dialog.findChild(QLineEdit, name)


def _label(dialog, name: str) -> QLabel:
    return dialog.findChild(QLabel, name)


def _unlock(qtbot, dialog) -> None:
    qtbot.mouseClick(dialog.findChild(QPushButton, "unlock-button"), Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.unlock_task is None or dialog.unlock_task.done(),
        "dialog.unlock_task is None or dialog.unlock_task.done()",
    )
    if dialog.unlock_task is not None:
        dialog.unlock_task.result()  # an unexpected error fails the test here


def _separate(dialog) -> None:
    dialog.findChild(QCheckBox, "same-password").setChecked(False)


def test_a_wrong_password_stays_open_then_the_right_one_unlocks(
    qtbot, qasync_loop, sandbox
) -> None:
    profile, passwords = sandbox
    dialog, asked = _open(qtbot, qasync_loop, profile)
    _separate(dialog)
    assert _field(dialog, "password-accounts").isVisible()
    qtbot.keyClicks(_field(dialog, "password-qrcodes"), "wrong-password")
    qtbot.keyClicks(_field(dialog, "password-accounts"), passwords["accounts"])
    _unlock(qtbot, dialog)
    assert not asked.done() and dialog.isVisible()
    assert "Wrong password for the QR Codes API" in _label(dialog, "unlock-message").text()
    qrcodes = _field(dialog, "password-qrcodes")
    assert dialog.focusWidget() is qrcodes and qrcodes.selectedText() == "wrong-password"
    assert "sandbox-accounts" in _label(dialog, "certificate-accounts").text()  # that one opened
    assert dialog.passwords() == {}

    qtbot.keyClicks(qrcodes, passwords["qrcodes"])  # replaces the selected wrong one
    _unlock(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.passwords() == passwords
    assert set(dialog.identities()) == {"qrcodes", "accounts"}
    for api in ("qrcodes", "accounts"):
        shown = _label(dialog, f"certificate-{api}").text()
        identity = dialog.identities()[api]
        assert identity.subject in shown
        until = identity.not_after.astimezone(ZoneInfo("America/Sao_Paulo"))
        assert f"Valid until {until:%d/%m/%Y %H:%M} (Brasília)" in shown
        assert _field(dialog, f"password-{api}").text() == ""  # cleared on done()
    dialog.clear_secrets()
    assert dialog.passwords() == {} and dialog.identities() == {}


def test_one_field_for_both_passwords_by_default(qtbot, qasync_loop, sandbox) -> None:
    profile, passwords = sandbox
    dialog, asked = _open(qtbot, qasync_loop, profile)
    assert dialog.findChild(QCheckBox, "same-password").isChecked()
    assert not _field(dialog, "password-accounts").isVisible()
    qtbot.keyClicks(_field(dialog, "password-qrcodes"), "nothing-opens")
    _unlock(qtbot, dialog)
    assert "opens neither certificate" in _label(dialog, "unlock-message").text()
    # The sandbox's two bundles have different passwords: one opens, the other says why.
    qtbot.keyClicks(_field(dialog, "password-qrcodes"), passwords["qrcodes"])
    _unlock(qtbot, dialog)
    message = _label(dialog, "unlock-message").text()
    assert "not the Accounts API one" in message and "untick" in message
    assert not asked.done()
    dialog.reject()
    qt_wait_until(qtbot, asked.done, "asked done")
    assert dialog.passwords() == {}


def test_the_sandbox_hint_fills_in_its_test_passwords(qtbot, qasync_loop, sandbox) -> None:
    profile, passwords = sandbox
    dialog, asked = _open(qtbot, qasync_loop, profile, hint_passwords=passwords)
    hint = _label(dialog, "hint-label").text()
    assert passwords["qrcodes"] in hint and passwords["accounts"] in hint
    assert not dialog.findChild(QCheckBox, "same-password").isChecked()  # they differ
    qtbot.mouseClick(dialog.findChild(QPushButton, "fill-in-button"), Qt.MouseButton.LeftButton)
    assert _field(dialog, "password-accounts").text() == passwords["accounts"]
    qtbot.keyClick(_field(dialog, "password-qrcodes"), Qt.Key.Key_Return)  # the default button
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.passwords() == passwords


def test_an_expired_certificate_is_explained(qtbot, qasync_loop, sandbox, ui_sandbox) -> None:
    profile, passwords = sandbox
    now = dt.datetime.now(dt.UTC)
    expired = _issue(
        ui_sandbox,
        "qrcodes",
        not_before=now - dt.timedelta(days=400),
        not_after=now - dt.timedelta(days=2),
    )
    odd = profile.model_copy(
        update={"qrcodes": profile.qrcodes.model_copy(update={"pfx_path": expired})}
    )
    dialog, asked = _open(qtbot, qasync_loop, odd)
    _separate(dialog)
    qtbot.keyClicks(_field(dialog, "password-qrcodes"), PASSWORD)
    qtbot.keyClicks(_field(dialog, "password-accounts"), passwords["accounts"])
    _unlock(qtbot, dialog)
    assert not asked.done()
    message = _label(dialog, "unlock-message").text()
    assert "QR Codes API" in message and "expired on" in message and "new one" in message
    assert "Expired on" in _label(dialog, "certificate-qrcodes").text()
    assert "CN=odd-qrcodes" in _label(dialog, "certificate-qrcodes").text()
    assert dialog.findChild(QPushButton, "unlock-button").isEnabled()
    dialog.reject()


def test_a_soon_expiring_certificate_is_confirmed_before_accepting(
    qtbot, qasync_loop, sandbox, ui_sandbox
) -> None:
    profile, _ = sandbox
    now = dt.datetime.now(dt.UTC)
    soon = {
        api: _issue(ui_sandbox, api, not_after=now + dt.timedelta(days=12, hours=1))
        for api in ("qrcodes", "accounts")
    }
    odd = profile.model_copy(
        update={
            api: profile.api(api).model_copy(update={"pfx_path": soon[api]})
            for api in ("qrcodes", "accounts")
        }
    )
    dialog, asked = _open(qtbot, qasync_loop, odd)
    qtbot.keyClicks(_field(dialog, "password-qrcodes"), PASSWORD)  # one field for both
    _unlock(qtbot, dialog)
    assert not asked.done()
    assert "12 days" in _label(dialog, "unlock-message").text()
    assert "12 days" in _label(dialog, "certificate-accounts").text()
    button = dialog.findChild(QPushButton, "unlock-button")
    assert button.text() == "Continue"
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.passwords() == {"qrcodes": PASSWORD, "accounts": PASSWORD}


def test_client_secrets_are_asked_only_where_missing(qtbot, qasync_loop, sandbox) -> None:
    profile, passwords = sandbox
    dialog, asked = _open(
        qtbot,
        qasync_loop,
        profile,
        need_client_secret={"qrcodes": False, "accounts": True},
        hint_passwords=passwords,
    )
    assert _field(dialog, "secret-qrcodes") is None
    secret = _field(dialog, "secret-accounts")
    assert secret.echoMode() == QLineEdit.EchoMode.Password
    dialog.fill_in_hint()
    _unlock(qtbot, dialog)
    assert "client secret of the Accounts API" in _label(dialog, "unlock-message").text()
    assert dialog.focusWidget() is secret
    qtbot.keyClicks(secret, "typed-secret")
    _unlock(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert dialog.client_secrets() == {"accounts": "typed-secret"}
    assert secret.text() == ""


def test_the_button_is_disabled_while_the_bundles_open(
    qtbot, qasync_loop, sandbox, monkeypatch
) -> None:
    profile, passwords = sandbox
    release = threading.Event()

    def slow_load(path, password):
        release.wait(WAIT_SECONDS)
        return load_pfx(path, password)

    monkeypatch.setattr(unlock_dialog, "load_pfx", slow_load)
    dialog, asked = _open(qtbot, qasync_loop, profile, hint_passwords=passwords)
    dialog.fill_in_hint()
    button = dialog.findChild(QPushButton, "unlock-button")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, lambda: not button.isEnabled(), "button disabled")
    assert not _field(dialog, "password-qrcodes").isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # ignored: no second attempt
    release.set()
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted


def test_asked_again_after_the_session_failed_to_open(qtbot, qasync_loop, sandbox) -> None:
    profile, passwords = sandbox
    dialog, asked = _open(qtbot, qasync_loop, profile, hint_passwords=passwords)
    dialog.fill_in_hint()
    _unlock(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    dialog.show_error("Enter the client secret of the QR Codes API.")
    assert dialog.passwords() == {}
    again = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    assert _label(dialog, "unlock-message").text().startswith("Enter the client secret")
    assert _field(dialog, "password-qrcodes").text() == ""
    dialog.reject()
    qt_wait_until(qtbot, again.done, "again done")
    assert again.result() == QDialog.DialogCode.Rejected
