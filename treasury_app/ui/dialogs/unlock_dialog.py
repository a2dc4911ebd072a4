"""Unlock a profile: the passwords of its two ``.pfx`` certificates (never stored), the
client secrets the system keyring does not hold and, for a team ledger, the team database's
password when it is asked at every unlock or not in the keyring. The bundles are decrypted off
the UI thread and each certificate's subject and expiry are shown before the session is
opened."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.tls import (
    CertificateError,
    CertificateExpired,
    CertificateNotYetValid,
    ClientIdentity,
    PfxPasswordError,
    load_pfx,
)
from treasury_app.api.tokens import ApiName
from treasury_app.services.profiles import APIS, Profile
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import deadline_text

log = logging.getLogger("treasury_app.ui.unlock")


class UnlockDialog(QDialog):
    """Ask for the certificate passwords of ``profile`` and check them by decrypting both
    bundles; accepted only when both open (and, when one expires soon, once the user has read
    the warning and clicked again).

    ``need_client_secret`` flags the APIs whose client secret is neither given nor in the
    system keyring: a field is shown for each. ``need_team_password``: the profile's team
    database needs a password this desktop does not keep (its field is shown; also later,
    through :meth:`show_team_error`, when the database refuses the one kept).
    ``hint_passwords`` (the sandbox only) shows the test passwords with a "Fill in" button.
    After acceptance :meth:`passwords`, :meth:`client_secrets`, :meth:`team_password` and
    :meth:`identities` give what was typed and loaded (the fields themselves are cleared)
    until :meth:`clear_secrets`. The same dialog can be asked again after :meth:`show_error`
    when opening the session fails. ``certificates_refused`` is emitted with ``{api: error}``
    for every attempt whose certificates did not open (to be audited, without the secrets).
    """

    certificates_refused = Signal(object)

    def __init__(
        self,
        profile: Profile,
        *,
        need_client_secret: Mapping[ApiName, bool] | None = None,
        hint_passwords: Mapping[ApiName, str] | None = None,
        need_team_password: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("unlock-dialog")
        self.setWindowTitle(self.tr("Unlock %1").replace("%1", profile.name))
        self.profile = profile
        needed = need_client_secret or {}
        self._secrets_needed = tuple(api for api in APIS if needed.get(api))
        self._hints = dict(hint_passwords) if hint_passwords else {}
        self._passwords: dict[ApiName, str] = {}
        self._client_secrets: dict[ApiName, str] = {}
        self._identities: dict[ApiName, ClientIdentity] = {}
        self._team_password = ""
        self._awaiting_confirmation = False
        self._closed = False
        self.unlock_task: asyncio.Task[Any] | None = None

        self.password_fields: dict[ApiName, QLineEdit] = {}
        self.secret_fields: dict[ApiName, QLineEdit] = {}
        self.certificate_labels: dict[ApiName, QLabel] = {}
        self._password_labels: dict[ApiName, QLabel] = {}
        self._forms: dict[ApiName, QFormLayout] = {}

        intro = QLabel(self._intro_text(), self)
        intro.setWordWrap(True)
        self.same_password = QCheckBox(self.tr("Same password for both certificates"), self)
        self.same_password.setObjectName("same-password")
        # Checked unless the passwords are known to differ (the sandbox's do).
        self.same_password.setChecked(len(set(self._hints.values())) <= 1)

        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(self.same_password)
        for api in APIS:
            layout.addWidget(self._api_group(api))
        self.team_group = self._team_group()
        self.team_group.setVisible(need_team_password)
        layout.addWidget(self.team_group)
        if self._hints:
            layout.addWidget(self._hint_row())

        self.message = QLabel(self)
        self.message.setObjectName("unlock-message")
        self.message.setWordWrap(True)
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.message.hide()
        layout.addWidget(self.message)

        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        self.unlock_button = QPushButton(self.tr("Unlock"), self)
        self.unlock_button.setObjectName("unlock-button")
        self.unlock_button.setDefault(True)
        self.buttons.addButton(self.unlock_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.buttons.rejected.connect(self.reject)
        self.unlock_button.clicked.connect(self._unlock_clicked)
        layout.addWidget(self.buttons)

        self.same_password.toggled.connect(self._same_password_toggled)
        for edit in (
            *self.password_fields.values(),
            *self.secret_fields.values(),
            self.team_password_field,
        ):
            edit.textEdited.connect(self._input_changed)
        self._same_password_toggled(self.same_password.isChecked())
        self.setMinimumWidth(520)
        self.password_fields["qrcodes"].setFocus()

    # -- results -----------------------------------------------------------------------------

    def passwords(self) -> dict[ApiName, str]:
        """The certificate password of each API once unlocked (held in memory only)."""
        return dict(self._passwords)

    def client_secrets(self) -> dict[ApiName, str]:
        """The client secrets typed (only the APIs flagged in ``need_client_secret``)."""
        return dict(self._client_secrets)

    def identities(self) -> dict[ApiName, ClientIdentity]:
        """The decrypted certificate of each API once unlocked."""
        return dict(self._identities)

    def team_password(self) -> str | None:
        """The team database's password typed (``None``: its field is not shown or empty)."""
        return self._team_password or None

    def clear_secrets(self) -> None:
        """Forget the passwords, client secrets and keys held since the dialog was accepted."""
        self._passwords.clear()
        self._client_secrets.clear()
        self._identities.clear()
        self._team_password = ""

    def ask_team_password(self) -> None:
        """Show the team database's password field (the database refused the one kept, or
        none is kept)."""
        if not self.team_group.isVisible():
            self.team_group.show()
            QTimer.singleShot(0, lambda: _fit_height(self))

    def show_team_error(self, error: BaseException, *, ask_password: bool) -> None:
        """Why the team database did not open, readable in the dialog; ``ask_password``: the
        password is what to type again (its field shown, and focused when the dialog shows)."""
        if ask_password:
            self.ask_team_password()
        where = getattr(error, "where", None)
        if where is not None:  # TeamPasswordNeeded: worded here, in the person's language
            text = self.tr("Enter the password of the team database (%1).").replace("%1", where)
        else:  # the team backend's code: what happened and who can fix it, in words
            text = failure_words(error)
        self.show_error(text)

    def show_error(self, message: str) -> None:
        """Show why the session could not be opened (before asking the dialog again)."""
        self.clear_secrets()
        self._show_message(message, text_style("error", self))

    # -- unlocking ---------------------------------------------------------------------------

    async def try_unlock(self) -> dict[ApiName, ClientIdentity] | None:
        """Decrypt both bundles off the UI thread with the passwords typed. Returns the
        identities when both open (the dialog is then accepted, unless a certificate expires
        soon: the warning is shown and the next click on the button accepts); otherwise shows
        why in the dialog and returns ``None``."""
        passwords = self._typed_passwords()
        secrets = {api: self.secret_fields[api].text() for api in self._secrets_needed}
        team_password = self.team_password_field.text() if self.team_group.isVisible() else ""
        missing = self._first_missing(passwords, secrets, team_password)
        if missing is not None:
            field, text = missing
            self._show_message(text, text_style("error", self))
            field.setFocus()
            return None
        self._set_busy(True)
        self._show_message(self.tr("Opening the certificates…"), "")
        try:
            outcomes = await asyncio.gather(
                *(
                    asyncio.to_thread(load_pfx, self.profile.api(api).pfx_path.expanduser(), pw)
                    for api, pw in passwords.items()
                ),
                return_exceptions=True,
            )
        finally:
            self._set_busy(False)
        if self._closed:  # cancelled while decrypting
            return None
        results: dict[ApiName, ClientIdentity | BaseException] = dict(
            zip(passwords, outcomes, strict=True)
        )
        unexpected = [o for o in outcomes if isinstance(o, BaseException) and not _expected(o)]
        if unexpected:
            raise unexpected[0]
        identities = {
            api: outcome for api, outcome in results.items() if isinstance(outcome, ClientIdentity)
        }
        for api in APIS:
            self._show_certificate(api, results[api])
        failures = {
            api: outcome for api, outcome in results.items() if isinstance(outcome, BaseException)
        }
        if failures:
            self._show_failures(failures, results)
            self.certificates_refused.emit(dict(failures))
            return None
        self._passwords = passwords
        self._client_secrets = {api: secret for api, secret in secrets.items()}
        self._team_password = team_password
        self._identities = identities
        log.info("certificates of profile %r opened", self.profile.name)
        warnings = [w for w in (i.expiry_warning() for i in identities.values()) if w]
        if warnings:
            self._awaiting_confirmation = True
            self.unlock_button.setText(self.tr("Continue"))
            self._show_message("\n".join(warnings), text_style("warning", self))
            self.unlock_button.setFocus()
            return identities
        self.accept()
        return identities

    def _unlock_clicked(self) -> None:
        if self._awaiting_confirmation:
            self.accept()
            return
        if self.unlock_task is not None and not self.unlock_task.done():
            return
        self.unlock_task = spawn_for(self, self.try_unlock(), name="unlock-profile")

    def fill_in_hint(self) -> None:
        """Type the sandbox's test passwords into the fields."""
        same = len(set(self._hints.values())) <= 1
        self.same_password.setChecked(same)
        for api, password in self._hints.items():
            self.password_fields[api].setText(password)
        self._input_changed()
        self.unlock_button.setFocus()

    def done(self, result: int) -> None:
        self._closed = True
        for edit in (
            *self.password_fields.values(),
            *self.secret_fields.values(),
            self.team_password_field,
        ):
            edit.clear()
        if result != QDialog.DialogCode.Accepted:
            self.clear_secrets()
        super().done(result)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        # Asked again (the session did not open): start over, keeping the message shown.
        self._closed = False
        self._awaiting_confirmation = False
        self.unlock_button.setText(self.tr("Unlock"))
        self._password_field_of("qrcodes").setFocus()
        if self.team_group.isVisible() and self._hints:
            self.team_password_field.setFocus()  # the certificates' are filled in by a button
        super().showEvent(event)
        QTimer.singleShot(0, lambda: _fit_height(self))

    # -- helpers -----------------------------------------------------------------------------

    def _typed_passwords(self) -> dict[ApiName, str]:
        if self.same_password.isChecked():
            shared = self.password_fields["qrcodes"].text()
            return {api: shared for api in APIS}
        return {api: self.password_fields[api].text() for api in APIS}

    def _first_missing(
        self, passwords: Mapping[ApiName, str], secrets: Mapping[ApiName, str], team: str
    ) -> tuple[QLineEdit, str] | None:
        for api in APIS:
            if not passwords[api]:
                return self.password_fields[api], self.tr(
                    "Enter the password of the %1 certificate."
                ).replace("%1", self._api_title(api))
        for api in self._secrets_needed:
            if not secrets[api]:
                return self.secret_fields[api], self.tr(
                    "Enter the client secret of the %1."
                ).replace("%1", self._api_title(api))
        if self.team_group.isVisible() and not team:
            return self.team_password_field, self.tr("Enter the password of the team database.")
        return None

    def _show_failures(
        self,
        failures: Mapping[ApiName, BaseException],
        results: Mapping[ApiName, ClientIdentity | BaseException],
    ) -> None:
        lines = []
        wrong = [api for api, error in failures.items() if isinstance(error, PfxPasswordError)]
        if wrong and self.same_password.isChecked():
            if len(wrong) == len(APIS):
                lines.append(
                    self.tr("Wrong password: it opens neither certificate. Type it again.")
                )
            else:
                # The other bundle was decrypted (even if its certificate is out of date).
                lines.append(
                    self.tr(
                        "The password opens one certificate but not the %1 one. If they "
                        "have different passwords, untick “Same password for both "
                        "certificates”."
                    ).replace("%1", self._api_title(wrong[0]))
                )
        else:
            for api in wrong:
                lines.append(
                    self.tr("Wrong password for the %1 certificate: type it again.").replace(
                        "%1", self._api_title(api)
                    )
                )
        for api, error in failures.items():
            if not isinstance(error, PfxPasswordError):
                lines.append(f"{self._api_title(api)}: {failure_words(error)}")
        self._show_message("\n".join(lines), text_style("error", self))
        if wrong:
            retype = self._password_field_of(wrong[0])
            retype.setFocus()
            retype.selectAll()

    def _show_certificate(self, api: ApiName, outcome: ClientIdentity | BaseException) -> None:
        label = self.certificate_labels[api]
        if isinstance(outcome, ClientIdentity):
            text = self.tr("Subject: %1\nValid until %2").replace("%1", outcome.subject)
            text = text.replace("%2", deadline_text(outcome.not_after))
            warning = outcome.expiry_warning()
            if warning:
                text += "\n" + warning
            label.setStyleSheet(text_style("warning", self) if warning else "")
        elif isinstance(outcome, CertificateExpired):
            text = self.tr("Subject: %1\nExpired on %2").replace("%1", outcome.subject)
            text = text.replace("%2", deadline_text(outcome.not_after))
            label.setStyleSheet(text_style("error", self))
        elif isinstance(outcome, CertificateNotYetValid):
            text = self.tr("Subject: %1\nValid from %2").replace("%1", outcome.subject)
            text = text.replace("%2", deadline_text(outcome.not_before))
            label.setStyleSheet(text_style("error", self))
        else:
            label.clear()
            label.hide()
            return
        label.setText(text)
        label.show()

    def _password_field_of(self, api: ApiName) -> QLineEdit:
        return self.password_fields["qrcodes" if self.same_password.isChecked() else api]

    def _show_message(self, text: str, style: str) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(style)
        self.message.setVisible(bool(text))
        QTimer.singleShot(0, lambda: _fit_height(self))

    def _set_busy(self, busy: bool) -> None:
        # Nothing typed may change while the bundles are opened with what was typed before.
        for widget in (
            self.unlock_button,
            self.same_password,
            *self.password_fields.values(),
            *self.secret_fields.values(),
            self.team_password_field,
        ):
            widget.setEnabled(not busy)
        if self._hints:
            self.fill_in_button.setEnabled(not busy)

    def _input_changed(self) -> None:
        """A password or secret changed: what was loaded no longer matches what is typed."""
        if self._awaiting_confirmation:
            self._awaiting_confirmation = False
            self.unlock_button.setText(self.tr("Unlock"))
        self.clear_secrets()

    def _same_password_toggled(self, same: bool) -> None:
        self._forms["accounts"].setRowVisible(self.password_fields["accounts"], not same)
        self._password_labels["qrcodes"].setText(
            self.tr("Password of both certificates") if same else self.tr("Certificate password")
        )
        self._input_changed()

    # -- building ----------------------------------------------------------------------------

    def _api_title(self, api: ApiName) -> str:
        return self.tr("QR Codes API") if api == "qrcodes" else self.tr("Accounts API")

    def _intro_text(self) -> str:
        if self.profile.environment == "sandbox":
            return self.tr(
                "Profile “%1” (sandbox: a test bank on this computer, no real money). Enter the "
                "passwords of its certificates."
            ).replace("%1", self.profile.name)
        return self.tr(
            "Profile “%1”. Enter the passwords of its certificates; they are not stored and "
            "are asked each time."
        ).replace("%1", self.profile.name)

    def _api_group(self, api: ApiName) -> QGroupBox:
        group = QGroupBox(self._api_title(api), self)
        group.setObjectName(f"{api}-group")
        form = QFormLayout(group)
        self._forms[api] = form
        path = self.profile.api(api).pfx_path
        file_label = QLabel(path.name, group)
        file_label.setObjectName(f"pfx-{api}")
        file_label.setToolTip(str(path))
        form.addRow(self.tr("Certificate file"), file_label)

        password = QLineEdit(group)
        password.setObjectName(f"password-{api}")
        password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_fields[api] = password
        self._password_labels[api] = QLabel(self.tr("Certificate password"), group)
        form.addRow(self._password_labels[api], password)

        if api in self._secrets_needed:
            secret = QLineEdit(group)
            secret.setObjectName(f"secret-{api}")
            secret.setEchoMode(QLineEdit.EchoMode.Password)
            secret.setToolTip(
                self.tr("Not kept in the system keyring: used for this session only.")
            )
            self.secret_fields[api] = secret
            form.addRow(self.tr("Client secret"), secret)

        certificate = QLabel(group)
        certificate.setObjectName(f"certificate-{api}")
        certificate.setWordWrap(True)
        certificate.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        certificate.hide()
        self.certificate_labels[api] = certificate
        form.addRow(certificate)
        return group

    def _team_group(self) -> QGroupBox:
        group = QGroupBox(self.tr("Team database"), self)
        group.setObjectName("team-group")
        form = QFormLayout(group)
        team = self.profile.ledger.team
        where = QLabel(team.describe() if team is not None else "", group)
        where.setObjectName("team-database")
        where.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Database"), where)
        self.team_password_field = QLineEdit(group)
        self.team_password_field.setObjectName("team-password")
        self.team_password_field.setEchoMode(QLineEdit.EchoMode.Password)
        if team is not None:
            self.team_password_field.setPlaceholderText(team.describe())
        self.team_password_field.setToolTip(
            self.tr("Your own login's password; used for this session only, never stored.")
            if team is None or team.password == "ask"
            else self.tr("Not in the system keyring: used for this session only.")
        )
        form.addRow(self.tr("Team database password"), self.team_password_field)
        return group

    def _hint_row(self) -> QWidget:
        row = QWidget(self)
        line = QHBoxLayout(row)
        line.setContentsMargins(0, 0, 0, 0)
        if len(set(self._hints.values())) == 1:
            text = self.tr("The sandbox's test password: “%1”").replace(
                "%1", next(iter(self._hints.values()))
            )
        else:
            text = self.tr("The sandbox's test passwords: %1").replace(
                "%1",
                ", ".join(
                    f"{self._api_title(api)} “{self._hints[api]}”"
                    for api in APIS
                    if api in self._hints
                ),
            )
        self.hint_label = QLabel(text, row)
        self.hint_label.setObjectName("hint-label")
        self.hint_label.setWordWrap(True)
        self.hint_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.fill_in_button = QPushButton(self.tr("Fill in"), row)
        self.fill_in_button.setObjectName("fill-in-button")
        self.fill_in_button.setAutoDefault(False)
        self.fill_in_button.clicked.connect(self.fill_in_hint)
        line.addWidget(self.hint_label, 1)
        line.addWidget(self.fill_in_button)
        return row


def _expected(error: BaseException) -> bool:
    return isinstance(error, CertificateError)


def _fit_height(dialog: QDialog) -> None:
    """Grow ``dialog`` to the height its wrapped labels need at its width: a top-level
    window's minimum size ignores height-for-width, so they would be squeezed."""
    layout = dialog.layout()
    if layout is None or not layout.hasHeightForWidth():
        return
    needed = layout.heightForWidth(dialog.width())
    if needed > dialog.height():
        dialog.resize(dialog.width(), needed)
