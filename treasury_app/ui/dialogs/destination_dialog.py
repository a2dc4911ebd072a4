"""Where a payee's money may go (the registry, issue 36): a Pix key, or a bank account
(ISPB with the bank's name shown, branch, account, account type). In a team the change
waits for another person's approval; the dialog says so."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QStackedWidget,
    QWidget,
)

from treasury_app.domain.payees import ACCOUNT_TYPES, DestinationDraft
from treasury_app.ui.bank_names import bank_hint

__all__ = ["DestinationDialog"]

_TYPE_WORDS = {
    "CACC": QT_TRANSLATE_NOOP("DestinationDialog", "Checking account"),
    "SVGS": QT_TRANSLATE_NOOP("DestinationDialog", "Savings account"),
    "SLRY": QT_TRANSLATE_NOOP("DestinationDialog", "Salary account"),
    "TRAN": QT_TRANSLATE_NOOP("DestinationDialog", "Payment account"),
}


class DestinationDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        payee_name: str = "",
        team: bool = False,
        current: DestinationDraft | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("destination-dialog")
        self.setWindowTitle(self.tr("Destination of %1").replace("%1", payee_name))
        form = QFormLayout(self)
        self.kind = QComboBox(self)
        self.kind.setObjectName("destination-kind")
        self.kind.addItem(self.tr("Pix key"), "PIX_KEY")
        self.kind.addItem(self.tr("Bank account"), "ACCOUNT")
        form.addRow(self.tr("Kind"), self.kind)
        self.pages = QStackedWidget(self)
        key_page = QWidget(self.pages)
        key_form = QFormLayout(key_page)
        self.key = QLineEdit(key_page)
        self.key.setObjectName("destination-key")
        self.key.setPlaceholderText(self.tr("CPF, CNPJ, e-mail, +55 phone or random key"))
        key_form.addRow(self.tr("Pix key"), self.key)
        account_page = QWidget(self.pages)
        account_form = QFormLayout(account_page)
        self.ispb = QLineEdit(account_page)
        self.ispb.setObjectName("destination-ispb")
        self.bank = QLabel(account_page)
        self.bank.setObjectName("destination-bank")
        self.bank.setWordWrap(True)
        self.branch = QLineEdit(account_page)
        self.branch.setObjectName("destination-branch")
        self.account = QLineEdit(account_page)
        self.account.setObjectName("destination-account")
        self.account_type = QComboBox(account_page)
        self.account_type.setObjectName("destination-account-type")
        for code in ACCOUNT_TYPES:
            self.account_type.addItem(self.tr(str(_TYPE_WORDS[code])), code)
        account_form.addRow(self.tr("ISPB"), self.ispb)
        account_form.addRow("", self.bank)
        account_form.addRow(self.tr("Branch"), self.branch)
        account_form.addRow(self.tr("Account"), self.account)
        account_form.addRow(self.tr("Account type"), self.account_type)
        self.pages.addWidget(key_page)
        self.pages.addWidget(account_page)
        form.addRow(self.pages)
        self.note = QLabel(self)
        self.note.setObjectName("destination-note")
        self.note.setWordWrap(True)
        if team:
            self.note.setText(
                self.tr(
                    "Another person approves this change before it counts; a payment to it "
                    "needs one approval more for a while after that."
                )
            )
        else:
            self.note.setText(
                self.tr(
                    "Check a new key or account with the payee by phone, not by e-mail: a "
                    "Pix cannot be called back."
                )
            )
        form.addRow(self.note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.kind.currentIndexChanged.connect(self.pages.setCurrentIndex)
        self.ispb.textChanged.connect(lambda text: self.bank.setText(bank_hint(text)))
        if current is not None:
            self.kind.setCurrentIndex(0 if current.kind.value == "PIX_KEY" else 1)
            self.key.setText(current.detail if current.kind.value == "PIX_KEY" else "")
            self.ispb.setText(current.ispb or "")
            self.branch.setText(current.branch or "")
            self.account.setText(current.account or "")
            index = self.account_type.findData(current.account_type)
            self.account_type.setCurrentIndex(max(index, 0))

    @property
    def is_key(self) -> bool:
        return bool(self.kind.currentData() == "PIX_KEY")
