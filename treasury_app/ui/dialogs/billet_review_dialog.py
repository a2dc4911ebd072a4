"""The boleto review dialog: what will be debited and why, confirmed by typing the amount again
before "Pay" is enabled; its pay date can be changed there (now, on its due date or on a
date: the caller's ``reschedule`` decides, the review follows). Paying itself is the caller's
job, after the dialog is accepted (:attr:`BilletReviewDialog.review`: the one confirmed)."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable
from decimal import Decimal

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain import boleto
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.domain.money import format_brl
from treasury_app.services.billets import BilletReview
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.times import date_or_empty, format_date
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation
from treasury_app.ui.widgets.date_edits import date_edit, to_date

ZERO = Decimal("0.00")
PAY_NOW = "now"
PAY_ON_DUE_DATE = "due"
PAY_ON_A_DATE = "date"

Reschedule = Callable[[str, "dt.date | None"], BilletReview]
"""The review paid ``now``, on its ``due`` date or on a ``date`` (the day given): the
service's answer (rolled, warned), or a :class:`RuleError`."""


class BilletReviewDialog(QDialog):
    """Shows ``review``; accepted only through "Pay", which is enabled once the amount typed
    in the confirmation field equals the updated amount, and works once. With ``for_approval``
    (team mode with dual control) the button is "Submit for approval": another person approves
    the payment before it is sent."""

    def __init__(
        self,
        review: BilletReview,
        parent: QWidget | None = None,
        *,
        for_approval: bool = False,
        reschedule: Reschedule | None = None,
        today: dt.date | None = None,
    ) -> None:
        super().__init__(parent)
        self.for_approval = for_approval
        self.review = review
        self.reschedule = reschedule
        self.today = today  # Brasília's (the caller's clock): where the date picker starts
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
        if reschedule is not None:
            layout.addLayout(self._build_change_date())
        self.heading = QLabel(self.heading_text(), self)
        self.heading.setObjectName("billet-heading")
        layout.addWidget(self.heading)
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
            # scheduled: its day, and why it is that day (hidden when paid now)
            ("pay-date", self.tr("Pay on"), self.pay_text()),
        )
        form = QFormLayout()
        for key, title, value in rows:
            label = QLabel(value, self)
            label.setObjectName(f"billet-{key}")
            label.setWordWrap(True)
            self.fields[key] = label
            form.addRow(title, label)
        form.setRowVisible(self.fields["pay-date"], review.pay is not None)
        self.details_form = form
        return form

    def _build_change_date(self) -> QHBoxLayout:
        """Pay now, on its due date or on a date, changed here (the form's choice first)."""
        pay = self.review.pay
        self.pay_when = QComboBox(self)
        self.pay_when.setObjectName("billet-review-when")
        self.pay_when.addItem(self.tr("Now"), PAY_NOW)
        self.pay_when.addItem(self.tr("On its due date"), PAY_ON_DUE_DATE)
        self.pay_when.addItem(self.tr("On a date:"), PAY_ON_A_DATE)
        start = pay.asked if pay is not None else (self.review.due_date or self.today)
        self.pay_day = date_edit(self, start, "billet-review-date")
        self.pay_when.setCurrentIndex(
            self.pay_when.findData(PAY_NOW if pay is None else PAY_ON_A_DATE)
        )
        self.pay_when.currentIndexChanged.connect(self._when_changed)
        self.change_button = QPushButton(self.tr("Change the date"), self)
        self.change_button.setObjectName("billet-review-change")
        self.change_button.clicked.connect(self.change_date)
        self.date_error = QLabel(self)
        self.date_error.setObjectName("billet-review-date-error")
        self.date_error.setStyleSheet(text_style("error", self))
        self.date_error.setWordWrap(True)
        self.date_error.hide()
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Pay"), self))
        row.addWidget(self.pay_when)
        row.addWidget(self.pay_day)
        row.addWidget(self.change_button)
        row.addWidget(self.date_error, 1)
        self._when_changed()
        return row

    def _when_changed(self, *_args: object) -> None:
        self.pay_day.setEnabled(self.pay_when.currentData() == PAY_ON_A_DATE)

    def change_date(self) -> bool:
        """Apply the pay date chosen here: the review follows (its date, why, the warnings);
        a date refused is said beside it and the review stays as it was."""
        if self.reschedule is None:
            return False
        when = self.pay_when.currentData()
        day = to_date(self.pay_day.date()) if when == PAY_ON_A_DATE else None
        try:
            review = self.reschedule(when, day)
        except RuleError as error:
            self.date_error.setText(rule_text(error))
            self.date_error.show()
            return False
        self.date_error.hide()
        self.review = review
        self.fields["pay-date"].setText(self.pay_text())
        self.details_form.setRowVisible(self.fields["pay-date"], review.pay is not None)
        self.heading.setText(self.heading_text())
        self.warnings.setText("\n".join(f"⚠ {rule_text(w)}" for w in review.warnings))
        self.warnings.setVisible(bool(review.warnings))
        return True

    def heading_text(self) -> str:
        if self.review.pay is not None:
            return self.tr("Amount to be debited on %1").replace(
                "%1", format_date(self.review.pay.date)
            )
        if self.for_approval:
            return self.tr("Amount to be debited once approved")
        return self.tr("Amount to be debited now")

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
        if pay is None:
            return ""
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
