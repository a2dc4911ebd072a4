"""Create or edit a connection profile: its name, environment, proxy and, per API, the bank's
address, client id and secret, certificate file and trust; and where its ledger lives (this
computer, or a team database: host, login, TLS and how its password is kept). The dialog
checks nothing itself: the profiles service does (:func:`check_profile_form`) and the dialog
shows its reasons next to their fields; the caller saves the profile (ProfileStore) and the
secrets (SecretStore: the client secrets and the team database's password, never written to
the profile file).

Given the :class:`EndpointConfirmations`, a production profile whose bank address or CA differs
from the last confirmed one is accepted only after the person has seen, for each such API, the
old and new host and the new CA's SHA-256 fingerprint (:func:`endpoint_confirmation_box`, also
used at unlock); the caller records :meth:`ProfileDialog.confirmed_changes` once it has saved."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.tokens import ApiName
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.policy import Policy
from treasury_app.services.endpoints import EndpointChange, EndpointConfirmations
from treasury_app.services.profile_form import (
    ApiForm,
    ProfileForm,
    ProfileFormError,
    TeamForm,
    check_profile_form,
)
from treasury_app.services.profiles import APIS, CaFileError, Profile, TeamDatabaseProfile
from treasury_app.services.secret_store import TEAM_DATABASE, SecretStore, TeamDatabaseKey
from treasury_app.ui.csv_files import open_file_picker
from treasury_app.ui.dialogs.endpoint_confirmation import endpoint_confirmation_box
from treasury_app.ui.dialogs.profile_fields import ApiFields, LedgerFields, beside, fit_height
from treasury_app.ui.policy_view import mark_locked, policy_mark
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.error_banner import ErrorBanner


class ProfileDialog(QDialog):
    """Create a profile (``profile=None``) or edit one; :meth:`result_profile` and
    :meth:`result_secrets` give what was entered once the dialog is accepted.

    ``existing_names`` are the profiles already saved: a new profile cannot take one of them
    (compared case-insensitively, as file names are on Windows and macOS). An edited profile
    keeps its name, because its ledger and keyring entries are filed under it.
    ``secret_store`` says where client secrets will be kept (only to tell the user).
    ``endpoints``: the last confirmed bank addresses and CAs; when given, a change to them is
    confirmed before the dialog accepts (the caller records it: :meth:`confirmed_changes`).
    ``policy``: the machine policy. A preset profile is shown read-only (its client secrets
    only may be typed), a locked team database fills the ledger read-only, and where the
    sandbox is off no sandbox environment is offered; each with "Set by your IT department".
    """

    def __init__(
        self,
        profile: Profile | None = None,
        *,
        secret_store: SecretStore | None = None,
        existing_names: Iterable[str] = (),
        endpoints: EndpointConfirmations | None = None,
        policy: Policy | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("profile-dialog")
        self._policy = policy if policy is not None else Policy()
        self.preset = profile is not None and self._policy.preset(profile.name) is not None
        self._endpoints = endpoints
        self._confirmed: tuple[EndpointChange, ...] = ()
        self.endpoint_box: QMessageBox | None = None  # the confirmation, while it is open
        self._original = profile
        self._existing = {name.casefold() for name in existing_names}
        if profile is not None:
            self._existing.discard(profile.name.casefold())
        self._store = secret_store if secret_store is not None else SecretStore()
        self._result: Profile | None = None
        self._secrets: dict[ApiName | TeamDatabaseKey, str] = {}
        self.file_dialog: QFileDialog | None = None  # the picker last opened (tests use it)
        self.setWindowTitle(
            self.tr("New connection profile") if profile is None else self.tr("Edit profile")
        )

        self.banner = ErrorBanner(self)
        self.name = QLineEdit(self)
        self.name.setObjectName("profile-name")
        self.name.setPlaceholderText(self.tr("For example: Main bank"))
        self.environment = QComboBox(self)
        self.environment.setObjectName("profile-environment")
        self.environment.addItem(self.tr("Production (real money)"), "production")
        if not self._policy.sandbox_disabled:
            self.environment.addItem(self.tr("Sandbox (test bank)"), "sandbox")
        self.pix_keys = QLineEdit(self)
        self.pix_keys.setObjectName("profile-pix-keys")
        self.pix_keys.setPlaceholderText(
            self.tr("CNPJ, e-mail, phone or random key; comma between")
        )
        self.pix_keys.setToolTip(
            self.tr("The Pix keys registered on the company's account: charges are issued to them.")
        )
        self.proxy_mode = QComboBox(self)
        self.proxy_mode.setObjectName("profile-proxy-mode")
        self.proxy_mode.addItem(self.tr("The system's proxy"), "system")
        self.proxy_mode.addItem(self.tr("No proxy (direct)"), "none")
        self.proxy_mode.addItem(self.tr("This proxy:"), "url")
        self.proxy_mode.setToolTip(
            self.tr(
                "How both APIs are reached. The system's bypass list is honoured, and this "
                "computer's own addresses (127.0.0.1, localhost) are always reached directly."
            )
        )
        self.proxy_url = QLineEdit(self)
        self.proxy_url.setObjectName("profile-proxy-url")
        self.proxy_url.setPlaceholderText("http://proxy.example:8080")
        self.apis: dict[ApiName, ApiFields] = {api: ApiFields(self, api) for api in APIS}
        self.fields: dict[str, QWidget] = {
            "name": self.name,
            "environment": self.environment,
            "pix_keys": self.pix_keys,
            "proxy": self.proxy_url,
        }
        self.errors: dict[str, QLabel] = {}
        self._error_rows: dict[str, QFormLayout] = {}
        self._warning_rows: dict[ApiName, QFormLayout] = {}
        self._closing = False

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        self.policy_mark: QLabel | None = None
        if self.preset:
            self.policy_mark = policy_mark(
                self, self.tr("this profile is the same for everyone; type your client secrets.")
            )
            layout.addWidget(self.policy_mark)
        top = QFormLayout()
        self._add_row(top, self.tr("Profile name"), self.name, "name")
        self._add_row(top, self.tr("Environment"), self.environment, "environment")
        self._add_row(top, self.tr("Account's Pix keys"), self.pix_keys, "pix_keys")
        proxy = QWidget(self)
        proxy_line = QHBoxLayout(proxy)
        proxy_line.setContentsMargins(0, 0, 0, 0)
        proxy_line.addWidget(self.proxy_mode)
        proxy_line.addWidget(self.proxy_url, 1)
        self._add_row(top, self.tr("Proxy"), proxy, "proxy")
        # The fields scroll when they are taller than the screen (a 768-pixel laptop, the
        # longer Portuguese warnings): Save and Cancel stay on it, nothing is cut off.
        self.content = QWidget(self)
        content_layout = QVBoxLayout(self.content)
        content_layout.setContentsMargins(0, 0, 0, 0)
        content_layout.addLayout(top)
        for api in APIS:
            content_layout.addWidget(self._api_group(api))
        self.ledger = LedgerFields(self)
        content_layout.addWidget(self._ledger_group())
        self.scroll = QScrollArea(self)
        self.scroll.setObjectName("profile-scroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll.setWidget(self.content)
        layout.addWidget(self.scroll, 1)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("save-button")
        self.save_button.setText(self.tr("Save"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(560)
        self._fill(profile)
        self._lock_team_fields()
        self.environment.currentIndexChanged.connect(self._show_ca_warnings)
        self.proxy_mode.currentIndexChanged.connect(self._proxy_mode_changed)
        self.ledger.location.currentIndexChanged.connect(self._ledger_changed)
        self.ledger.password_mode.currentIndexChanged.connect(self._ledger_changed)
        self._show_ca_warnings()
        self._proxy_mode_changed()
        self._ledger_changed()
        if self.preset:
            self._lock_preset()

    # -- results -----------------------------------------------------------------------------

    def result_profile(self) -> Profile:
        """The profile entered (not saved). Raises :class:`RuntimeError` before acceptance."""
        if self._result is None:
            raise RuntimeError("the profile dialog has not been accepted")
        return self._result

    def result_secrets(self) -> dict[ApiName | TeamDatabaseKey, str]:
        """The secrets typed, to keep in the system keyring: the client secrets by API (an
        API left empty is absent) and, for a team database whose password is kept there, its
        password under :data:`~treasury_app.services.secret_store.TEAM_DATABASE`."""
        return dict(self._secrets)

    def confirmed_changes(self) -> tuple[EndpointChange, ...]:
        """The bank address and CA changes the person confirmed (empty: none to confirm), to
        record once the profile is saved."""
        return self._confirmed

    # -- checking ----------------------------------------------------------------------------

    def validate(self) -> dict[str, str]:
        """Ask the profiles service to check the form (:func:`check_profile_form`); show each
        of its reasons next to its field and the first in the banner. Returns field name →
        message (empty when the form is fine)."""
        try:
            profile: Profile | None = check_profile_form(
                self.form(),
                existing_names=self._existing,
                original=self._original,
                keyring_available=self._store.available,
                team_password_stored=self._stored_team_password(),
            )
            reasons: tuple[Reason, ...] = ()
        except ProfileFormError as error:
            profile, reasons = None, error.reasons
        self._show_reasons(reasons)
        self._result = profile
        return {reason.field or "name": rule_text(reason) for reason in reasons}

    def accept(self) -> None:
        """Accept only a valid form (the profile is then kept for :meth:`result_profile`),
        and a changed bank address or CA only once the person has confirmed it."""
        if self.preset and self._original is not None:
            # The policy's profile as it is: only the secrets typed are taken.
            self._result = self._original
            self._accept_confirmed(())
            return
        if self.endpoint_box is not None or self.validate():
            return
        changes = self._endpoint_changes()
        if changes is None:
            return
        if changes:
            self._confirm_endpoints(changes)
            return
        self._accept_confirmed(())

    def _endpoint_changes(self) -> tuple[EndpointChange, ...] | None:
        """What differs from the last confirmation (``None``: a CA file cannot be read; the
        problem is shown next to it)."""
        if self._endpoints is None or self._result is None:
            return ()
        try:
            return self._endpoints.pending(self._result)
        except CaFileError as error:
            self._show_reasons((Reason(error.code, error.params, f"{error.api}.ca_file"),))
            self._result = None
            return None

    def _confirm_endpoints(self, changes: tuple[EndpointChange, ...]) -> None:
        """Show the confirmation window-modally (``open()``: no nested event loop); the
        dialog accepts only on "Confirm and save", and stays open otherwise."""
        assert self._result is not None
        box, confirm = endpoint_confirmation_box(
            self._result.name, changes, at_unlock=False, parent=self
        )
        self.endpoint_box = box

        def answered(_result: int) -> None:
            self.endpoint_box = None
            confirmed = box.clickedButton() is confirm
            box.deleteLater()
            if confirmed and not self._closing:
                self._accept_confirmed(changes)

        box.finished.connect(answered)
        box.open()

    def _accept_confirmed(self, changes: tuple[EndpointChange, ...]) -> None:
        self._confirmed = changes
        self._secrets = {
            api: fields.client_secret.text()
            for api, fields in self.apis.items()
            if fields.client_secret.text()
        }
        if (
            self.ledger.is_team()
            and self.ledger.mode() == "keyring"
            and self.ledger.password.text()
        ):
            self._secrets[TEAM_DATABASE] = self.ledger.password.text()
        super().accept()

    def done(self, result: int) -> None:
        self._closing = True
        if self.endpoint_box is not None:
            self.endpoint_box.reject()  # closed meanwhile (Quit): nothing was confirmed
        for fields in self.apis.values():
            fields.client_secret.clear()  # what was typed lives on in result_secrets() only
        self.ledger.password.clear()
        if result != QDialog.DialogCode.Accepted:
            self._confirmed = ()
        super().done(result)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        self._closing = False
        super().showEvent(event)
        QTimer.singleShot(0, lambda: fit_height(self))

    def _proxy_mode_changed(self) -> None:
        uses_url = self.proxy_mode.currentData() == "url"
        self.proxy_url.setEnabled(uses_url)
        if not uses_url:
            self._error_rows["proxy"].setRowVisible(self.errors["proxy"], False)

    def form(self) -> ProfileForm:
        """What is typed, as the profiles service reads it (nothing checked here)."""
        ledger = self.ledger
        team = None
        if ledger.is_team():
            team = TeamForm(
                host=ledger.host.text(),
                port=ledger.port.value(),
                dbname=ledger.dbname.text(),
                user=ledger.user.text(),
                sslmode=ledger.sslmode.currentData(),
                ca_file=ledger.ca_file.text(),
                cert_file=ledger.cert_file.text(),
                key_file=ledger.key_file.text(),
                password=ledger.mode(),
                password_typed=bool(ledger.password.text()),
            )
        return ProfileForm(
            name=self.name.text(),
            environment=self.environment.currentData(),
            apis={
                api: ApiForm(
                    base_url=fields.base_url.text(),
                    client_id=fields.client_id.text(),
                    pfx_path=fields.pfx.text(),
                    ca_file=fields.ca_file.text() if fields.uses_ca_file() else None,
                )
                for api, fields in self.apis.items()
            },
            pix_keys=self.pix_keys.text(),
            proxy_mode=self.proxy_mode.currentData(),
            proxy_url=self.proxy_url.text(),
            team=team,
        )

    def _show_reasons(self, reasons: Sequence[Reason]) -> None:
        """Each reason under its field, the first (in the form's order) in the banner."""
        problems = {reason.field or "name": rule_text(reason) for reason in reasons}
        for field, label in self.errors.items():
            message = problems.get(field, "")
            label.setText(message)
            self._error_rows[field].setRowVisible(label, bool(message))
        QTimer.singleShot(0, lambda: fit_height(self))
        if not reasons:
            self.banner.clear()
            return
        first = next((field for field in self.fields if field in problems), "name")
        reason = next(r for r in reasons if (r.field or "name") == first)
        self.banner.show_error(RuleError.of(Reason(reason.code, reason.params, first)), self.fields)
        if len(problems) > 1:
            self.banner.detail.setText(
                self.tr("%1 fields need attention; the first: %2")
                .replace("%1", str(len(problems)))
                .replace("%2", problems[first])
            )
        self.fields[first].setFocus()

    # -- building the form -------------------------------------------------------------------

    def _api_title(self, api: ApiName) -> str:
        return self.tr("QR Codes API") if api == "qrcodes" else self.tr("Accounts API")

    def _api_group(self, api: ApiName) -> QGroupBox:
        fields = self.apis[api]
        group = QGroupBox(self._api_title(api), self)
        group.setObjectName(f"{api}-group")
        form = QFormLayout(group)
        self.fields.update(
            {
                f"{api}.base_url": fields.base_url,
                f"{api}.client_id": fields.client_id,
                f"{api}.client_secret": fields.client_secret,
                f"{api}.pfx_path": fields.pfx,
                f"{api}.ca_file": fields.ca_file,
            }
        )
        self._add_row(form, self.tr("Address"), fields.base_url, f"{api}.base_url")
        self._add_row(form, self.tr("Client id"), fields.client_id, f"{api}.client_id")
        self._add_row(form, self.tr("Client secret"), fields.client_secret, f"{api}.client_secret")
        form.addRow("", fields.secret_note)
        certificate = beside(fields.pfx, fields.pfx_browse)
        self._add_row(form, self.tr("Certificate (.pfx)"), certificate, f"{api}.pfx_path")
        form.addRow(self.tr("Trust the bank's server by"), fields.trust)
        ca_file = beside(fields.ca_file, fields.ca_browse)
        self._add_row(form, self.tr("CA file"), ca_file, f"{api}.ca_file")
        form.addRow("", fields.ca_warning)
        self._warning_rows[api] = form
        fields.pfx_browse.clicked.connect(
            lambda: self._browse(
                fields.pfx,
                self.tr("Certificate of the %1").replace("%1", self._api_title(api)),
                self.tr("Certificate bundles (*.pfx *.p12);;All files (*)"),
            )
        )
        fields.ca_browse.clicked.connect(
            lambda: self._browse(
                fields.ca_file,
                self.tr("CA certificates of the bank"),
                self.tr("PEM certificates (*.pem *.crt *.cer);;All files (*)"),
            )
        )
        fields.trust.currentIndexChanged.connect(lambda: self._trust_changed(api))
        return group

    def _add_row(self, form: QFormLayout, title: str, widget: QWidget, field: str) -> None:
        """A row for ``widget`` and, under it, a hidden row for the problem of ``field``
        (rows of their own: a wrapped message then gets its full height)."""
        form.addRow(title, widget)
        label = QLabel(self)
        label.setObjectName(f"error-{field}")
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        label.setStyleSheet(text_style("error", self))
        form.addRow("", label)
        form.setRowVisible(label, False)
        self.errors[field] = label
        self._error_rows[field] = form

    def _fill(self, profile: Profile | None) -> None:
        keyring = self._store.available
        for api, fields in self.apis.items():
            if keyring:
                note = self.tr("Kept in the system keyring (%1).").replace(
                    "%1", self._store.backend_name
                )
                if profile is not None:
                    fields.client_secret.setPlaceholderText(
                        self.tr("Leave empty to keep the current secret")
                    )
            else:
                note = self.tr(
                    "There is no system keyring on this computer: the secret is not saved and "
                    "will be asked at each unlock."
                )
            fields.secret_note.setText(note)
            if profile is not None:
                settings = profile.api(api)
                fields.base_url.setText(settings.base_url)
                fields.client_id.setText(settings.client_id)
                fields.pfx.setText(str(settings.pfx_path))
                if settings.ca_file is not None:
                    fields.trust.setCurrentIndex(fields.trust.findData("file"))
                    fields.ca_file.setText(str(settings.ca_file))
            self._trust_changed(api)
        if profile is not None:
            self.name.setText(profile.name)
            self.name.setReadOnly(True)
            self.name.setToolTip(
                self.tr("A profile keeps its name: its ledger and secrets are filed under it.")
            )
            self.environment.setCurrentIndex(self.environment.findData(profile.environment))
            self.pix_keys.setText(", ".join(profile.pix_keys))
            self.proxy_mode.setCurrentIndex(self.proxy_mode.findData(profile.proxy.mode))
            self.proxy_url.setText(profile.proxy.url or "")
        self._fill_ledger(profile)

    # -- the ledger --------------------------------------------------------------------------

    def _ledger_group(self) -> QGroupBox:
        ledger = self.ledger
        group = QGroupBox(self.tr("Ledger"), self)
        group.setObjectName("ledger-group")
        form = QFormLayout(group)
        self._ledger_form = form
        self.fields.update(
            {
                "ledger.host": ledger.host,
                "ledger.port": ledger.port,
                "ledger.dbname": ledger.dbname,
                "ledger.user": ledger.user,
                "ledger.sslmode": ledger.sslmode,
                "ledger.ca_file": ledger.ca_file,
                "ledger.cert_file": ledger.cert_file,
                "ledger.key_file": ledger.key_file,
                "ledger.password_mode": ledger.password_mode,
                "ledger.password": ledger.password,
            }
        )
        form.addRow(self.tr("Where it lives"), ledger.location)
        form.addRow("", ledger.location_note)
        ca_file = beside(ledger.ca_file, ledger.ca_browse)
        cert_file = beside(ledger.cert_file, ledger.cert_browse)
        key_file = beside(ledger.key_file, ledger.key_browse)
        self._add_row(form, self.tr("Host"), ledger.host, "ledger.host")
        self._add_row(form, self.tr("Port"), ledger.port, "ledger.port")
        self._add_row(form, self.tr("Database"), ledger.dbname, "ledger.dbname")
        self._add_row(form, self.tr("Your login"), ledger.user, "ledger.user")
        self._add_row(form, self.tr("TLS (sslmode)"), ledger.sslmode, "ledger.sslmode")
        self._add_row(form, self.tr("CA file"), ca_file, "ledger.ca_file")
        self._add_row(form, self.tr("Client certificate"), cert_file, "ledger.cert_file")
        self._add_row(form, self.tr("Certificate key"), key_file, "ledger.key_file")
        self._add_row(form, self.tr("Password"), ledger.password_mode, "ledger.password_mode")
        self._add_row(form, self.tr("Password to keep"), ledger.password, "ledger.password")
        form.addRow("", ledger.password_note)
        self._team_rows: tuple[QWidget, ...] = (
            ledger.host,
            ledger.port,
            ledger.dbname,
            ledger.user,
            ledger.sslmode,
            ca_file,
            cert_file,
            key_file,
            ledger.password_mode,
            ledger.password_note,
        )
        pem = self.tr("PEM files (*.pem *.crt *.cer *.key);;All files (*)")
        ledger.ca_browse.clicked.connect(
            lambda: self._browse(ledger.ca_file, self.tr("CA of the team database"), pem)
        )
        ledger.cert_browse.clicked.connect(
            lambda: self._browse(ledger.cert_file, self.tr("Your client certificate"), pem)
        )
        ledger.key_browse.clicked.connect(
            lambda: self._browse(ledger.key_file, self.tr("The key of your certificate"), pem)
        )
        return group

    def _fill_ledger(self, profile: Profile | None) -> None:
        ledger = self.ledger
        default_mode = "keyring" if self._store.available else "ask"
        ledger.password_mode.setCurrentIndex(ledger.password_mode.findData(default_mode))
        ledger.sslmode.setCurrentIndex(ledger.sslmode.findData("verify-full"))
        team = profile.ledger.team if profile is not None and profile.ledger.is_team else None
        team = self._policy_team(team)
        if team is None:
            return
        ledger.location.setCurrentIndex(ledger.location.findData("team"))
        ledger.host.setText(team.host)
        ledger.port.setValue(team.port)
        ledger.dbname.setText(team.dbname)
        ledger.user.setText(team.user)
        ledger.sslmode.setCurrentIndex(ledger.sslmode.findData(team.sslmode))
        for edit, path in (
            (ledger.ca_file, team.ca_file),
            (ledger.cert_file, team.cert_file),
            (ledger.key_file, team.key_file),
        ):
            edit.setText(str(path) if path is not None else "")
        ledger.password_mode.setCurrentIndex(ledger.password_mode.findData(team.password))
        if team.password == "keyring" and self._stored_team_password():
            ledger.password.setPlaceholderText(self.tr("Leave empty to keep the current password"))

    def _policy_team(self, own: TeamDatabaseProfile | None) -> TeamDatabaseProfile | None:
        """The team database to show: the policy's when it locks it (or, for a new profile,
        suggests it), with what it leaves to the person from ``own``; else ``own``."""
        from treasury_app.services.profiles import policy_team

        policy_db = self._policy.team_database
        locked = self._policy.is_locked("TeamDatabase")
        if (
            policy_db is None
            or (own is not None and not locked)
            or (self._original is not None and not locked)
        ):
            return own
        if self._original is not None and self._original.environment == "sandbox":
            return own
        return policy_team(policy_db, own)

    def _lock_team_fields(self) -> None:
        """A locked team database: its fields read-only with the mark; what the policy leaves
        to the person (the login, how the password is kept, the password) stays open."""
        if not self._policy.is_locked("TeamDatabase") or self._policy.team_database is None:
            return
        ledger, policy_db = self.ledger, self._policy.team_database
        locked: list[QWidget] = [
            ledger.location,
            ledger.host,
            ledger.port,
            ledger.dbname,
            ledger.sslmode,
            ledger.ca_file,
            ledger.ca_browse,
            ledger.cert_file,
            ledger.cert_browse,
            ledger.key_file,
            ledger.key_browse,
        ]
        if policy_db.user:
            locked.append(ledger.user)
        if policy_db.password_mode:
            locked.append(ledger.password_mode)
        for widget in locked:
            mark_locked(widget)
        self.ledger_mark = policy_mark(self)
        self.ledger_mark.setObjectName("ledger-policy-mark")
        self._ledger_form.insertRow(0, "", self.ledger_mark)

    def _lock_preset(self) -> None:
        """Every field of a preset profile read-only, but the client secrets."""
        widgets: list[QWidget] = [self.name, self.environment, self.pix_keys, self.proxy_mode]
        widgets.append(self.proxy_url)
        for fields in self.apis.values():
            widgets += [fields.base_url, fields.client_id, fields.pfx, fields.pfx_browse]
            widgets += [fields.trust, fields.ca_file, fields.ca_browse]
        ledger = self.ledger
        widgets += [ledger.location, ledger.host, ledger.port, ledger.dbname, ledger.user]
        widgets += [ledger.sslmode, ledger.ca_file, ledger.cert_file, ledger.key_file]
        widgets += [ledger.ca_browse, ledger.cert_browse, ledger.key_browse, ledger.password_mode]
        for widget in widgets:
            mark_locked(widget)

    def _stored_team_password(self) -> bool:
        """Whether the keyring already holds the team database's password of this profile."""
        if self._original is None or not self._store.available:
            return False
        return self._store.get(self._original.name, TEAM_DATABASE) is not None

    def _ledger_changed(self) -> None:
        """Show the team rows only for a team database, the password only when it is kept in
        the keyring, and say where the ledger and the password are kept."""
        ledger = self.ledger
        team = ledger.is_team()
        form = self._ledger_form
        for widget in self._team_rows:
            form.setRowVisible(widget, team)
        form.setRowVisible(ledger.password, team and ledger.mode() == "keyring")
        for field in (name for name in self.errors if name.startswith("ledger.")):
            if not team:
                form.setRowVisible(self.errors[field], False)
        ledger.location_note.setText(
            self.tr(
                "Everyone on the team shares one ledger in a PostgreSQL database: its "
                "administrator gives you the address and your own login."
            )
            if team
            else self.tr("Payments, audit and receipts are kept in a file on this computer.")
        )
        mode = ledger.mode()
        if mode == "keyring":
            note = (
                self.tr("Kept in the system keyring (%1), never in the profile file.").replace(
                    "%1", self._store.backend_name
                )
                if self._store.available
                else self.tr(
                    "There is no system keyring on this computer: choose “Ask at every unlock”."
                )
            )
        elif mode == "ask":
            note = self.tr("Asked in the unlock window each time; never stored.")
        else:
            note = self.tr(
                "No password: your client certificate (or the server's own rule) logs you in."
            )
        ledger.password_note.setText(note)
        QTimer.singleShot(0, lambda: fit_height(self))

    def _trust_changed(self, api: ApiName) -> None:
        fields = self.apis[api]
        uses_file = fields.uses_ca_file()
        fields.ca_file.setEnabled(uses_file)
        fields.ca_browse.setEnabled(uses_file)
        if not uses_file:
            self._error_rows[f"{api}.ca_file"].setRowVisible(self.errors[f"{api}.ca_file"], False)
        self._show_ca_warnings()

    def _show_ca_warnings(self) -> None:
        """Under a production profile's custom CA: real banks are verified through the system
        trust store."""
        production = self.environment.currentData() == "production"
        for api, form in self._warning_rows.items():
            fields = self.apis[api]
            form.setRowVisible(fields.ca_warning, production and fields.uses_ca_file())
        QTimer.singleShot(0, lambda: fit_height(self))

    def _browse(self, target: QLineEdit, title: str, name_filter: str) -> None:
        """Pick a file with a window-modal QFileDialog (``open()``: no nested event loop)."""
        current = Path(target.text().strip()).expanduser() if target.text().strip() else None
        start = str(current.parent if current and current.parent.is_dir() else Path.home())
        self.file_dialog = open_file_picker(
            self, title, start, name_filter, target.setText, "file-picker"
        )
