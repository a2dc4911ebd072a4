"""A payee's name, CPF or CNPJ and tags (the registry, issue 36): a new payee, or another
name and tags for one (a payee's document does not change)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLineEdit, QWidget

from treasury_app.domain.payees import Payee

__all__ = ["PayeeDialog"]


class PayeeDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, payee: Payee | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("payee-dialog")
        self.setWindowTitle(self.tr("Payee") if payee else self.tr("New payee"))
        form = QFormLayout(self)
        self.name = QLineEdit(self)
        self.name.setObjectName("payee-name")
        self.document = QLineEdit(self)
        self.document.setObjectName("payee-document")
        self.document.setPlaceholderText(self.tr("CPF or CNPJ (the new alphanumeric CNPJ too)"))
        self.tags = QLineEdit(self)
        self.tags.setObjectName("payee-tags")
        self.tags.setPlaceholderText(self.tr("supplier, employee, cost centre…"))
        form.addRow(self.tr("Name"), self.name)
        form.addRow(self.tr("CPF / CNPJ"), self.document)
        form.addRow(self.tr("Tags"), self.tags)
        if payee is not None:
            self.name.setText(payee.name)
            self.document.setText(payee.document)
            self.document.setReadOnly(True)
            self.tags.setText(", ".join(payee.tags))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
