"""The one way money is confirmed in this app: type the amount again, then the action button
works, once. The payout and boleto review dialogs both use it, so the gesture is the same."""

from __future__ import annotations

from decimal import Decimal

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import parse_brl
from treasury_app.ui.rule_words import rule_text


class AmountConfirmation(QWidget):
    """Prompt, amount field, hint, and the Cancel / action buttons.

    ``confirmed`` is emitted once, on the first click (or Enter) after the typed amount equals
    ``amount``; a second click does nothing. ``name`` prefixes the object names
    (``<name>-confirm-amount``, ``<name>-confirm-hint``) for tests and style sheets.
    """

    confirmed = Signal()

    def __init__(
        self,
        amount: Decimal,
        *,
        prompt: str,
        mismatch: str,
        action: str,
        name: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.amount = amount
        self.mismatch = mismatch
        self.done = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = QLabel(prompt, self)
        self.edit = QLineEdit(self)
        self.edit.setObjectName(f"{name}-confirm-amount")
        self.edit.setPlaceholderText(self.tr("e.g. 1.234,56"))
        self.edit.textChanged.connect(self._changed)
        self.edit.returnPressed.connect(self._trigger_if_enabled)
        self.hint = QLabel(self)
        self.hint.setObjectName(f"{name}-confirm-hint")
        # A hint wraps within the width the dialog has and its two lines are kept even when
        # empty: a hint that widened or heightened the dialog moved Cancel to where the action
        # button had been, under the pointer of a person about to click it.
        self.hint.setWordWrap(True)
        self.hint.setMinimumHeight(2 * self.hint.fontMetrics().lineSpacing())
        layout.addWidget(self.label)
        layout.addWidget(self.edit)
        layout.addWidget(self.hint)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.action_button = QPushButton(action, self)
        self.action_button.setEnabled(False)
        # Never the default button: Enter in another field must not move money.
        for button in (self.cancel_button, self.action_button):
            button.setAutoDefault(False)
            button.setDefault(False)
        self.action_button.clicked.connect(self._trigger)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.action_button)
        layout.addLayout(buttons)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """A review opens with the focus in the amount to type again: the safe place (Enter
        there moves money only once the amount matches)."""
        super().showEvent(event)
        if not self.done:
            self.edit.setFocus(Qt.FocusReason.OtherFocusReason)

    def _changed(self, text: str) -> None:
        matches = False
        hint = ""
        if text.strip():
            try:
                matches = parse_brl(text) == self.amount
            except DomainError as error:
                hint = rule_text(error)
            else:
                if not matches:
                    hint = self.mismatch
        self.hint.setText(hint)
        self.action_button.setEnabled(matches and not self.done)

    def _trigger_if_enabled(self) -> None:
        if self.action_button.isEnabled():
            self._trigger()

    def _trigger(self) -> None:
        if self.done:  # a second click, or Enter right after the click
            return
        self.done = True
        self.action_button.setEnabled(False)
        self.edit.setReadOnly(True)
        self.confirmed.emit()
