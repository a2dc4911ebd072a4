"""The profile dialog's fields, one group per concern: an API's address, credentials and trust
(:class:`ApiFields`), and where the ledger lives (:class:`LedgerFields`); with the small layout
helpers the dialog shares."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QWidget,
)

from treasury_app.api.tokens import ApiName
from treasury_app.ui.screen_fit import fit_window, fitted_size
from treasury_app.ui.theme import text_style

if TYPE_CHECKING:
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog


class ApiFields:
    """The widgets of one API's group box (their texts in the dialog's translation context:
    ``dialog.tr()`` would file them under "dialog" in the catalogue, never found at run time)."""

    def __init__(self, dialog: ProfileDialog, api: ApiName) -> None:
        self.base_url = QLineEdit(dialog)
        self.base_url.setObjectName(f"{api}-base-url")
        self.base_url.setPlaceholderText("https://api.bank.example/…")
        self.client_id = QLineEdit(dialog)
        self.client_id.setObjectName(f"{api}-client-id")
        self.client_secret = QLineEdit(dialog)
        self.client_secret.setObjectName(f"{api}-client-secret")
        self.client_secret.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret_note = QLabel(dialog)
        self.secret_note.setObjectName(f"{api}-secret-note")
        self.secret_note.setWordWrap(True)
        self.secret_note.setStyleSheet(text_style("muted", dialog))
        self.pfx = QLineEdit(dialog)
        self.pfx.setObjectName(f"{api}-pfx")
        self.pfx_browse = QPushButton(
            QCoreApplication.translate("ProfileDialog", "Browse…"), dialog
        )
        self.pfx_browse.setObjectName(f"{api}-pfx-browse")
        self.pfx_browse.setAutoDefault(False)
        self.trust = QComboBox(dialog)
        self.trust.setObjectName(f"{api}-trust")
        self.trust.addItem(
            QCoreApplication.translate("ProfileDialog", "Operating system"), "system"
        )
        self.trust.addItem(QCoreApplication.translate("ProfileDialog", "A CA file"), "file")
        self.ca_file = QLineEdit(dialog)
        self.ca_file.setObjectName(f"{api}-ca-file")
        self.ca_browse = QPushButton(QCoreApplication.translate("ProfileDialog", "Browse…"), dialog)
        self.ca_browse.setObjectName(f"{api}-ca-browse")
        self.ca_browse.setAutoDefault(False)
        self.ca_warning = QLabel(
            QCoreApplication.translate(
                "ProfileDialog",
                "Real banks are verified through the system trust store: a custom CA file is "
                "for test setups. Use one only if your bank gave it to you, and check its "
                "fingerprint with the bank.",
            ),
            dialog,
        )
        self.ca_warning.setObjectName(f"{api}-ca-warning")
        self.ca_warning.setWordWrap(True)
        self.ca_warning.setStyleSheet(text_style("warning", dialog))

    def uses_ca_file(self) -> bool:
        return bool(self.trust.currentData() == "file")


SSL_MODES = ("verify-full", "verify-ca", "require", "prefer", "disable")
PasswordMode = Literal["keyring", "ask", "none"]


class LedgerFields:
    """The widgets of the Ledger group: this computer or a team database (host, port,
    database, login, TLS files) and how the database's password is kept (texts in the
    dialog's translation context, as :class:`ApiFields`')."""

    def __init__(self, dialog: ProfileDialog) -> None:
        def edit(name: str, placeholder: str = "") -> QLineEdit:
            line = QLineEdit(dialog)
            line.setObjectName(name)
            line.setPlaceholderText(placeholder)
            return line

        def browse(name: str) -> QPushButton:
            button = QPushButton(QCoreApplication.translate("ProfileDialog", "Browse…"), dialog)
            button.setObjectName(name)
            button.setAutoDefault(False)
            return button

        self.location = QComboBox(dialog)
        self.location.setObjectName("ledger-location")
        self.location.addItem(
            QCoreApplication.translate("ProfileDialog", "This computer (default)"), "file"
        )
        self.location.addItem(QCoreApplication.translate("ProfileDialog", "Team database"), "team")
        self.location_note = QLabel(dialog)
        self.location_note.setObjectName("ledger-note")
        self.location_note.setWordWrap(True)
        self.location_note.setStyleSheet(text_style("muted", dialog))
        self.host = edit(
            "team-host", QCoreApplication.translate("ProfileDialog", "For example: db.example.com")
        )
        self.port = QSpinBox(dialog)
        self.port.setObjectName("team-port")
        self.port.setRange(1, 65535)
        self.port.setValue(5432)
        self.dbname = edit("team-dbname", "treasury")
        self.user = edit(
            "team-user", QCoreApplication.translate("ProfileDialog", "Your own PostgreSQL login")
        )
        self.sslmode = QComboBox(dialog)
        self.sslmode.setObjectName("team-sslmode")
        for mode in SSL_MODES:
            self.sslmode.addItem(mode, mode)
        self.sslmode.setToolTip(
            QCoreApplication.translate(
                "ProfileDialog",
                "verify-full checks the server's certificate against the CA file and its name "
                "against the host: keep it unless the administrator says otherwise.",
            )
        )
        self.ca_file = edit(
            "team-ca-file",
            QCoreApplication.translate(
                "ProfileDialog", "The CA that signed the server's certificate"
            ),
        )
        self.ca_browse = browse("team-ca-browse")
        self.cert_file = edit(
            "team-cert-file", QCoreApplication.translate("ProfileDialog", "Optional")
        )
        self.cert_browse = browse("team-cert-browse")
        self.key_file = edit(
            "team-key-file",
            QCoreApplication.translate("ProfileDialog", "Optional, with the certificate"),
        )
        self.key_browse = browse("team-key-browse")
        self.password_mode = QComboBox(dialog)
        self.password_mode.setObjectName("team-password-mode")
        self.password_mode.addItem(
            QCoreApplication.translate("ProfileDialog", "In the system keyring"), "keyring"
        )
        self.password_mode.addItem(
            QCoreApplication.translate("ProfileDialog", "Ask at every unlock"), "ask"
        )
        self.password_mode.addItem(
            QCoreApplication.translate("ProfileDialog", "None (client certificate)"), "none"
        )
        self.password = QLineEdit(dialog)
        self.password.setObjectName("team-password")
        self.password.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_note = QLabel(dialog)
        self.password_note.setObjectName("team-password-note")
        self.password_note.setWordWrap(True)
        self.password_note.setStyleSheet(text_style("muted", dialog))

    def is_team(self) -> bool:
        return bool(self.location.currentData() == "team")

    def mode(self) -> PasswordMode:
        mode = self.password_mode.currentData()
        return "ask" if mode == "ask" else "none" if mode == "none" else "keyring"


def beside(edit: QLineEdit, button: QPushButton) -> QWidget:
    row = QWidget(edit.parentWidget())
    line = QHBoxLayout(row)
    line.setContentsMargins(0, 0, 0, 0)
    line.addWidget(edit, 1)
    line.addWidget(button)
    return row


def fit_height(dialog: QDialog) -> None:
    """Grow ``dialog`` to the height its fields need at its width (wrapped labels included:
    a top-level window's minimum size ignores height-for-width), never past the screen: what
    does not fit scrolls."""
    layout = dialog.layout()
    content = getattr(dialog, "content", None)
    if layout is None or content is None or content.layout() is None:
        return
    inner = content.layout()
    width = dialog.width() - 2 * layout.contentsMargins().left()
    fields = inner.heightForWidth(width) if inner.hasHeightForWidth() else inner.sizeHint().height()
    others = layout.sizeHint().height() - dialog.scroll.sizeHint().height()
    needed = fields + max(0, others) + layout.spacing()
    if needed > dialog.height():
        dialog.resize(dialog.width(), fitted_size(dialog, dialog.width(), needed).height())
        # Placed when shown, at its first height: grown since, it is moved back up into the
        # same area the screen fit uses (title bar counted), so that Save and Cancel stay
        # above the taskbar.
        fit_window(dialog)
