"""The Pix payout review dialog: who gets what and how, confirmed by typing the amount again
before "Send Pix" is enabled. Sending itself is the caller's job, after the dialog is accepted.
"""

from __future__ import annotations

import contextlib
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import PaymentFlow
from treasury_app.domain.clock import format_date
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryKind
from treasury_app.services.payees import PayeeService
from treasury_app.services.payouts import PayoutReview
from treasury_app.ui.bank_names import bank_text
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.payee_history_dialog import PayeeHistoryButton
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import banner_style
from treasury_app.ui.times import InstantForm, instant_or_empty
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation

# A possible duplicate is the one mistake a second look exists for: louder than the others.
_DUPLICATE_EXTRA = " padding: 8px; font-weight: bold; font-size: 11pt;"
_WARNING_EXTRA = " padding: 6px; font-weight: bold;"

NO_VALUE = "—"
"""What a review shows for a value that is absent (no txid, no description)."""


def masked(document: str) -> str:
    """The document as review dialogs show it; as given when it is not a CPF/CNPJ."""
    if not document:
        return ""
    with contextlib.suppress(DomainError):
        return mask_document(document)
    return document


class PayoutReviewDialog(QDialog):
    """Shows ``review``; accepted only through "Send Pix", which is enabled once the amount
    typed in the confirmation field equals the review's amount, and works once
    (:attr:`confirmed` tells the caller it was that button). With ``for_approval`` (team mode
    with dual control) the button is "Submit for approval": nothing is sent before another
    person approves it."""

    def __init__(
        self,
        review: PayoutReview,
        parent: QWidget | None = None,
        *,
        for_approval: bool = False,
        repeats: str | None = None,
        payees: PayeeService | None = None,
    ) -> None:
        super().__init__(parent)
        self.for_approval = for_approval
        self.repeats = repeats
        self.review = review
        self.confirmed = False
        self.setWindowTitle(self.tr("Review the Pix"))
        self.setObjectName("payout-review")

        layout = QVBoxLayout(self)
        self.duplicate_warning, self.warnings = self._build_warnings()
        layout.addWidget(self.duplicate_warning)
        layout.addWidget(self.warnings)
        layout.addLayout(self._build_details())
        self.history_button: PayeeHistoryButton | None = None
        if payees is not None:  # the payee's last payments and this month's total
            self.history_button = PayeeHistoryButton(payees, lambda: review.payee_detail, self)
            layout.addWidget(self.history_button, 0, Qt.AlignmentFlag.AlignLeft)

        self.amount = QLabel(format_brl(review.amount), self)
        self.amount.setObjectName("payout-amount")
        self.amount.setStyleSheet("font-size: 22pt; font-weight: bold;")
        layout.addWidget(QLabel(self.tr("Amount to be sent"), self))
        layout.addWidget(self.amount)
        if for_approval:
            note = QLabel(
                self.tr(
                    "Dual control: this payment is submitted for approval; it is sent once "
                    "another person approves it (the Approvals tab)."
                ),
                self,
            )
            note.setObjectName("payout-approval-note")
            note.setWordWrap(True)
            layout.addWidget(note)

        self.confirmation = AmountConfirmation(
            review.amount,
            prompt=self.tr("To confirm, type the amount to be sent (%1):").replace(
                "%1", format_brl(review.amount)
            ),
            mismatch=self.tr("This is not the amount to be sent."),
            action=self.tr("Submit for approval") if for_approval else self.tr("Send Pix"),
            name="payout",
            parent=self,
        )
        self.confirmation.confirmed.connect(self._send)
        self.confirmation.cancel_button.clicked.connect(self.reject)
        self.confirm_label = self.confirmation.label
        self.confirm_edit = self.confirmation.edit
        self.confirm_hint = self.confirmation.hint
        self.cancel_button = self.confirmation.cancel_button
        self.send_button = self.confirmation.action_button
        self.send_button.setObjectName("payout-send")
        layout.addWidget(self.confirmation)

    # -- building --------------------------------------------------------------------------------

    def _build_warnings(self) -> tuple[QLabel, QLabel]:
        """The duplicate warning on its own, first and red; the others below it."""
        warnings = self.review.warnings
        duplicate_text = "".join(
            rule_text(w) for w in warnings if w.code == "payout.recent_duplicates"
        )
        texts = [rule_text(w) for w in warnings if w.code != "payout.recent_duplicates"]
        duplicate = QLabel(f"⚠ {duplicate_text}" if duplicate_text else "", self)
        duplicate.setObjectName("payout-duplicate-warning")
        duplicate.setWordWrap(True)
        duplicate.setStyleSheet(banner_style("error", self, border=2) + _DUPLICATE_EXTRA)
        duplicate.setVisible(bool(duplicate_text))
        others = QLabel("\n".join(f"⚠ {text}" for text in texts), self)
        others.setObjectName("payout-warnings")
        others.setWordWrap(True)
        others.setStyleSheet(banner_style("warning", self) + _WARNING_EXTRA)
        others.setVisible(bool(texts))
        return duplicate, others

    def _build_details(self) -> QFormLayout:
        self.fields: dict[str, QLabel] = {}
        form = QFormLayout()
        for key, title, value in self._rows():
            label = QLabel(value, self)
            label.setObjectName(f"payout-{key}")
            label.setWordWrap(True)
            self.fields[key] = label
            form.addRow(title, label)
        return form

    def _rows(self) -> list[tuple[str, str, str]]:
        review = self.review
        rows: list[tuple[str, str, str]] = []
        if review.kind == EntryKind.PIX_KEY:
            key = review.payee_detail
            if review.key_type is not None:
                key += f" ({code_word(Family.KEY_TYPE, review.key_type)})"
            rows += [
                ("payee", self.tr("Payee"), self.tr("Confirmed by the bank when paying")),
                ("key", self.tr("Pix key"), key),
            ]
            if review.last_paid is not None and review.last_paid.creditor_name:
                rows.append(
                    (
                        "last-paid",
                        self.tr("Last paid to"),
                        self.tr("%1 on %2")
                        .replace("%1", review.last_paid.creditor_name)
                        .replace(
                            "%2", instant_or_empty(review.last_paid.created_at, InstantForm.DATE)
                        ),
                    )
                )
            if review.payee_document:
                rows.append(
                    ("document", self.tr("Payee's CPF/CNPJ"), masked(review.payee_document))
                )
        elif review.kind == EntryKind.PIX_QRC and review.brcode is not None:
            code = review.brcode
            location = (
                (self.tr("Pix key"), code.key)
                if code.key
                else (self.tr("Charge address"), code.url)
            )
            rows += [
                ("payee", self.tr("Payee"), code.merchant_name),
                ("city", self.tr("City"), code.merchant_city),
                ("key", location[0], location[1] or ""),
                ("txid", self.tr("Transaction id (txid)"), code.txid or NO_VALUE),
            ]
        else:
            rows += [
                ("payee", self.tr("Payee"), review.payee_name),
                ("document", self.tr("CPF/CNPJ"), masked(review.payee_document)),
                ("bank", self.tr("Bank account"), self._bank_text()),
            ]
        rows += [
            ("description", self.tr("Description"), review.description or NO_VALUE),
            ("flow", self.tr("Flow"), self.flow_text()),
        ]
        if review.pay is not None:  # a scheduled payment: its day, and why it moved
            when = format_date(review.pay.date)
            if review.pay.reason is not None:
                when += "\n" + rule_text(review.pay.reason)
            rows.append(("pay-date", self.tr("Pay on"), when))
        if self.repeats:  # a recurring series from that day
            rows.append(("repeats", self.tr("Repeats"), self.repeats))
        return rows

    def _bank_text(self) -> str:
        account: dict[str, Any] = self.review.request.get("creditorAccount") or {}
        text = self.tr("%1, branch %2, account %3 (%4)")
        for mark, value in (
            ("%1", bank_text(str(account.get("ispb", "")))),
            ("%2", account.get("issuer", "")),
            ("%3", account.get("number", "")),
            ("%4", code_word(Family.BANK_ACCOUNT_TYPE, account.get("accountType"))),
        ):
            text = text.replace(mark, str(value))
        return text

    def flow_text(self) -> str:
        if self.review.payment_flow == PaymentFlow.APPROVAL_REQUIRED:
            return self.tr("Held for approval in the bank's console")
        return self.tr("Instant")

    # -- confirmation ----------------------------------------------------------------------------

    def _send(self) -> None:
        self.confirmed = True
        self.accept()


__all__ = ["PayoutReviewDialog", "masked"]
