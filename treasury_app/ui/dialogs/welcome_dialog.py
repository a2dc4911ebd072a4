"""The first-run dialog, shown when there is no profile yet: try the app against the local
sandbox bank, or connect to a real bank. Where the IT department turned the sandbox off
(machine policy), only the bank is offered."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCommandLinkButton,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QVBoxLayout,
    QWidget,
)

WelcomeChoice = Literal["sandbox", "bank"]


class WelcomeDialog(QDialog):
    """Two choices, the sandbox first (default and focused). :meth:`choice` tells which one
    was taken once the dialog is accepted; Escape or closing rejects it. ``sandbox_allowed``
    false (the machine policy): no sandbox button at all, the bank is the default."""

    def __init__(self, parent: QWidget | None = None, *, sandbox_allowed: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("welcome-dialog")
        self.setWindowTitle(self.tr("Welcome to Treasury"))
        self._choice: WelcomeChoice | None = None

        heading = QLabel(self.tr("Welcome! How do you want to start?"), self)
        heading.setObjectName("welcome-heading")
        heading.setStyleSheet("font-size: 15pt; font-weight: bold;")
        intro = QLabel(
            self.tr(
                "Treasury shows your company's balance and statement, sends Pix payouts, pays "
                "boletos and issues charges through your bank's APIs."
            ),
            self,
        )
        intro.setWordWrap(True)

        # Where the policy turns the sandbox off it is not made at all (not merely hidden):
        # nothing, a shortcut or a screen reader, can reach it.
        self.sandbox_button: QCommandLinkButton | None = None
        if sandbox_allowed:
            self.sandbox_button = QCommandLinkButton(
                self.tr("Try with the sandbox bank"),
                self.tr(
                    "A test bank that runs on this computer only. No real money moves and "
                    "nothing leaves this computer: explore every feature safely. You can connect "
                    "to your bank later."
                ),
                self,
            )
            self.sandbox_button.setObjectName("sandbox-choice")
            self.sandbox_button.clicked.connect(lambda: self._choose("sandbox"))
        self.bank_button = QCommandLinkButton(
            self.tr("Connect to my bank"),
            self.tr(
                "You need what your bank gave you for its APIs: the addresses, a client id and "
                "secret, and a certificate file (.pfx) for each API."
            ),
            self,
        )
        self.bank_button.setObjectName("bank-choice")
        self.bank_button.clicked.connect(lambda: self._choose("bank"))
        choices = [b for b in (self.sandbox_button, self.bank_button) if b is not None]
        for button in choices:
            button.setAutoDefault(True)
        choices[0].setDefault(True)
        self.policy_note: QLabel | None = None
        if not sandbox_allowed:
            self.policy_note = QLabel(
                self.tr(
                    "Set by your IT department: the sandbox bank is turned off on this computer."
                ),
                self,
            )
            self.policy_note.setObjectName("policy-mark")
            self.policy_note.setWordWrap(True)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(self.tr("Quit"))
        buttons.rejected.connect(self.reject)

        layout = QVBoxLayout(self)
        layout.addWidget(heading)
        layout.addWidget(intro)
        layout.addSpacing(8)
        for button in choices:
            layout.addWidget(button)
        if self.policy_note is not None:
            layout.addWidget(self.policy_note)
        layout.addStretch(1)
        layout.addWidget(buttons, 0, Qt.AlignmentFlag.AlignRight)
        self.setMinimumWidth(480)
        choices[0].setFocus()

    def choice(self) -> WelcomeChoice | None:
        """``"sandbox"`` or ``"bank"`` after the dialog was accepted; ``None`` otherwise."""
        return self._choice if self.result() == QDialog.DialogCode.Accepted else None

    def _choose(self, choice: WelcomeChoice) -> None:
        self._choice = choice
        self.accept()
