"""The boleto review dialog: what will be debited and why, confirmed by typing the amount again
before "Pay" is enabled. Paying itself is the caller's job, after the dialog is accepted."""

from __future__ import annotations

import contextlib
from decimal import Decimal

from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain import boleto
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.services.billets import BilletReview
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import banner_style
from treasury_app.ui.times import date_or_empty, format_date
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation

ZERO = Decimal("0.00")


class BilletReviewDialog(QDialog):
    """Shows ``review``; accepted only through "Pay", which is enabled once the amount typed
    in the confirmation field equals the updated amount, and works once. With ``for_approval``
    (team mode with dual control) the button is "Submit for approval": another person approves
    the payment before it is sent."""

    def __init__(
        self, review: BilletReview, parent: QWidget | None = None, *, for_approval: bool = False
    ) -> None:
        super().__init__(parent)
        self.for_approval = for_approval
        self.review = review
        self.paid = False
        self.setWindowTitle(self.tr("Review the slip"))
        self.setObjectName("billet-review")

        layout = QVBoxLayout(self)
        self.warnings = self._build_warnings()
        layout.addWidget(self.warnings)
        layout.addLayout(self._build_details())

        self.amount = QLabel(format_brl(review.amount), self)
        self.amount.setObjectName("billet-updated-amount")
        self.amount.setStyleSheet("font-size: 22pt; font-weight: bold;")
        if review.pay is not None:
            heading = self.tr("Amount to be debited on %1").replace(
                "%1", format_date(review.pay.date)
            )
        elif for_approval:
            heading = self.tr("Amount to be debited once approved")
        else:
            heading = self.tr("Amount to be debited now")
        layout.addWidget(QLabel(heading, self))
        layout.addWidget(self.amount)

        self.confirmation = AmountConfirmation(
            review.amount,
            prompt=self.tr("To confirm, type the amount to be debited (%1):").replace(
                "%1", format_brl(review.amount)
            ),
            mismatch=self.tr("This is not the amount to be debited."),
            action=self.tr("Submit for approval") if for_approval else self.tr("Pay"),
            name="billet",
            parent=self,
        )
        self.confirmation.confirmed.connect(self._pay)
        self.confirmation.cancel_button.clicked.connect(self.reject)
        self.confirm_label = self.confirmation.label
        self.confirm_edit = self.confirmation.edit
        self.confirm_hint = self.confirmation.hint
        self.cancel_button = self.confirmation.cancel_button
        self.pay_button = self.confirmation.action_button
        self.pay_button.setObjectName("billet-pay")
        layout.addWidget(self.confirmation)

    # -- building --------------------------------------------------------------------------------

    def _build_warnings(self) -> QLabel:
        label = QLabel("\n".join(f"⚠ {rule_text(w)}" for w in self.review.warnings), self)
        label.setObjectName("billet-warnings")
        label.setWordWrap(True)
        label.setStyleSheet(f"{banner_style('warning', self)} padding: 6px; font-weight: bold;")
        label.setVisible(bool(self.review.warnings))
        return label

    def _build_details(self) -> QFormLayout:
        review = self.review
        document = review.beneficiary_document
        if document:
            with contextlib.suppress(DomainError):  # else shown as the bank sent it
                document = mask_document(document)
        line = review.digitable_line
        with contextlib.suppress(DomainError):
            line = boleto.format_code(line)
        beneficiary = review.info.beneficiary
        bank = (beneficiary.bank_name or beneficiary.bank_code or "") if beneficiary else ""
        original = review.original_amount
        self.fields: dict[str, QLabel] = {}
        rows = (
            ("beneficiary", self.tr("Beneficiary"), review.beneficiary_name),
            ("document", self.tr("CPF/CNPJ"), document),
            ("bank", self.tr("Bank"), bank),
            ("line", self.tr("Digitable line"), line),
            ("due_date", self.tr("Due date"), date_or_empty(review.due_date)),
            ("original", self.tr("Original amount"), format_brl(original) if original else ""),
            ("charges", self.tr("Charges"), self.charges_text()),
        )
        if review.pay is not None:  # scheduled: its day, and why it is that day
            rows += (("pay-date", self.tr("Pay on"), self.pay_text()),)
        form = QFormLayout()
        for key, title, value in rows:
            label = QLabel(value, self)
            label.setObjectName(f"billet-{key}")
            label.setWordWrap(True)
            self.fields[key] = label
            form.addRow(title, label)
        return form

    def charges_text(self) -> str:
        """Fine, interest and discount in words: why the amount differs from the original."""
        info = self.review.info
        late = (info.fine or ZERO) + (info.interest or ZERO)
        discount = info.discount or ZERO
        parts = []
        if late > 0:
            since = self.review.due_date
            text = self.tr("%1 of fine and interest").replace("%1", format_brl(late))
            if since is not None:
                text += " " + self.tr("since %1").replace("%1", format_date(since))
            parts.append(text)
        if discount > 0:
            parts.append(self.tr("%1 of discount").replace("%1", format_brl(discount)))
        if not parts:
            return self.tr("None: the original amount is due.")
        return "; ".join(parts)

    def pay_text(self) -> str:
        """The pay date and why: its due date (rolled forward to a business day, the reason
        said), or the date the person chose."""
        pay = self.review.pay
        assert pay is not None
        text = format_date(pay.date)
        if pay.asked == self.review.due_date and not pay.rolled:
            text = self.tr("%1 (its due date)").replace("%1", text)
        if pay.reason is not None:
            text += "\n" + rule_text(pay.reason)
        return text

    # -- confirmation ----------------------------------------------------------------------------

    def _pay(self) -> None:
        self.paid = True
        self.accept()
