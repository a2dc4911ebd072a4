"""The approval dialog (team mode): one intent exactly as it will be sent, who prepared it and
when, the approvals so far and the policy that applies, the warnings a second look exists for
(the same payee paid lately, a payee never paid before); approved by typing the amount again
(and the team database's password, when the profile asks for it), or rejected with a reason.
The maker of the intent withdraws or edits it here instead.

Every action runs in the background (never a nested event loop), with the buttons disabled,
and ends in a sentence in :attr:`ApprovalDialog.status`; a refusal is shown as the team
database words it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Iterator, Mapping
from dataclasses import replace
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.errors import ApiFailure
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.ledger.errors import LedgerBlocked, LedgerRefused, LedgerUnavailable
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, PendingDuplicate
from treasury_app.services.approvals import (
    OPEN_APPROVALS,
    NobodyReason,
    approve_blocker,
    maker_blocker,
    reject_blocker,
)
from treasury_app.services.payees import PayeeService, cooling_reason
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.bank_names import bank_detail_text
from treasury_app.ui.dialogs.payee_history_dialog import PayeeHistoryButton
from treasury_app.ui.dialogs.payout_review_dialog import masked
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.models.paid_slips_model import entry_status
from treasury_app.ui.operation import EXPECTED_ERRORS, run_operation
from treasury_app.ui.refusals import ledger_refusal_words, pending_duplicate_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.status_words import (
    approval_word,
    decision_reason_word,
    status_word,
    void_reason_word,
)
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.times import instant_or_empty
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation
from treasury_app.ui.widgets.error_banner import ErrorBanner, blocked_message
from treasury_app.ui.widgets.money_edit import PIX_MAXIMUM, MoneyEdit
from treasury_app.ui.widgets.row_tables import flat_tree

if TYPE_CHECKING:
    from treasury_app.ledger.team.approvals import Approval, Policy
    from treasury_app.services.approvals import ApprovalDesk, ApprovalDetail

__all__ = ["ApprovalDialog", "flatten_request", "refusal_title"]
log = logging.getLogger("treasury_app.ui.approvals")

OPEN = OPEN_APPROVALS  # an intent still before its release
_DUPLICATE_EXTRA = " padding: 8px; font-weight: bold; font-size: 11pt;"
_WARNING_EXTRA = " padding: 6px; font-weight: bold;"
ACTION_ERRORS: tuple[type[BaseException], ...] = (*EXPECTED_ERRORS, PendingDuplicate)


def flatten_request(body: Mapping[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    """Each field of a request body with its path (``payment.amount``) and its value as the
    JSON sent carries it (amounts exact, ``true``, ``null``)."""
    for key, value in body.items():
        path = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping):
            yield from flatten_request(value, path)
        elif isinstance(value, list | tuple):
            for number, item in enumerate(value):
                yield from flatten_request({f"{key}[{number}]": item}, prefix)
        elif value is None:
            yield path, "null"
        elif isinstance(value, bool):
            yield path, "true" if value else "false"
        else:
            yield path, str(value)


def refusal_title(error: BaseException) -> str:
    """The banner's title for an action that was not done."""
    if isinstance(error, LedgerRefused):
        return QCoreApplication.translate("ApprovalDialog", "Refused by the team database")
    if isinstance(error, LedgerBlocked):
        return blocked_message(error)[0]
    if isinstance(error, LedgerUnavailable):
        return QCoreApplication.translate("ApprovalDialog", "The team database cannot be reached")
    if isinstance(error, PendingDuplicate):
        return QCoreApplication.translate(
            "ApprovalDialog", "The same payment waits for approval already"
        )
    if isinstance(error, ApiFailure):
        return QCoreApplication.translate("ApprovalDialog", "The bank did not take it")
    return QCoreApplication.translate("ApprovalDialog", "Please check")


def refusal_text(error: BaseException) -> str:
    """What the banner says of an action that was not done (the team database's sentence)."""
    if isinstance(error, LedgerBlocked):
        return blocked_message(error)[1]
    if isinstance(error, LedgerRefused):
        return ledger_refusal_words(error)
    if isinstance(error, PendingDuplicate):
        return pending_duplicate_words(error)
    return failure_words(error)


class ApprovalDialog(QDialog):
    """``detail`` (from :meth:`ApprovalDesk.detail`) shown to ``desk.me``; :attr:`action_task`
    is the action on its way (tests await it); :attr:`decided` carries the entry after each
    action that was done."""

    decided = Signal(object)

    def __init__(
        self,
        desk: ApprovalDesk,
        detail: ApprovalDetail,
        parent: QWidget | None = None,
        *,
        payees: PayeeService | None = None,
    ) -> None:
        super().__init__(parent)
        self.payees = payees
        self.desk = desk
        self.detail = detail
        self.entry: Entry = detail.entry
        self.action_task: asyncio.Task[Entry | None] | None = None
        self.reason_dialog: QInputDialog | None = None  # the reason asked, while asked
        self.edit_dialog: QDialog | None = None
        self._busy = False
        self._final = False
        self.setObjectName("approval-dialog")
        resize_to_fit(self, 760, 820)

        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        body = QWidget(scroll)
        self._body = QVBoxLayout(body)
        self._build_warnings()
        self._build_summary()
        self._build_approvals()
        self._build_request()
        self._build_brcode()
        self._body.addStretch(1)
        scroll.setWidget(body)
        layout.addWidget(scroll, 1)
        layout.addWidget(self._build_actions())
        self.status = QLabel(self)
        self.status.setObjectName("approval-status")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.status)
        self.show_detail(detail)

    # -- who may do what -------------------------------------------------------------------------

    @property
    def mine(self) -> bool:
        return self.entry.created_by == self.desk.me

    @property
    def open_intent(self) -> bool:
        return self.entry.approval in OPEN and self.entry.state == EntryState.PREPARED

    def approve_blocker(self) -> str:
        """Why this person cannot approve now ("" when they can): the service's rule
        (:func:`~treasury_app.services.approvals.approve_blocker`), in words."""
        detail = replace(self.detail, entry=self.entry)
        blocker = approve_blocker(detail, self.desk.me, can_approve=self.desk.can_approve)
        if blocker is None:
            return ""
        text = rule_text(blocker)
        if blocker.code == "approval.not_waiting":
            text += f" ({self.state_text()})"
        return text

    # -- building --------------------------------------------------------------------------------

    def _build_warnings(self) -> None:
        self.duplicate_warning = QLabel(self)
        self.duplicate_warning.setObjectName("approval-duplicate-warning")
        self.duplicate_warning.setWordWrap(True)
        self.duplicate_warning.setStyleSheet(
            banner_style("error", self, border=2) + _DUPLICATE_EXTRA
        )
        self.new_payee_note = QLabel(self)
        self.new_payee_note.setObjectName("approval-new-payee")
        self.new_payee_note.setWordWrap(True)
        self.new_payee_note.setStyleSheet(banner_style("warning", self) + _WARNING_EXTRA)
        # Why a destination new or changed lately needs one approval more (issue 36), in one
        # line: "Pix key added on … by ana, approved by bruno".
        self.cooling_note = QLabel(self)
        self.cooling_note.setObjectName("approval-cooling")
        self.cooling_note.setWordWrap(True)
        self.cooling_note.setStyleSheet(banner_style("warning", self) + _WARNING_EXTRA)
        self._body.addWidget(self.duplicate_warning)
        self._body.addWidget(self.new_payee_note)
        self._body.addWidget(self.cooling_note)

    def _value(self, form: QFormLayout, key: str, title: str) -> QLabel:
        label = QLabel(self)
        label.setObjectName(f"approval-{key}")
        label.setWordWrap(True)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(title, label)
        self.fields[key] = label
        return label

    def _build_summary(self) -> None:
        self.fields: dict[str, QLabel] = {}
        box = QGroupBox(self.tr("The payment"), self)
        form = QFormLayout(box)
        self.amount = QLabel(self)
        self.amount.setObjectName("approval-amount")
        self.amount.setStyleSheet("font-size: 22pt; font-weight: bold;")
        form.addRow(self.tr("Amount"), self.amount)
        for key, title in (
            ("kind", self.tr("Kind")),
            ("payee", self.tr("Payee")),
            ("document", self.tr("CPF/CNPJ")),
            ("detail", self.tr("Pays to")),
            ("description", self.tr("Description")),
            ("flow", self.tr("Flow")),
            ("batch", self.tr("Batch")),
            ("maker", self.tr("Prepared by")),
            ("state", self.tr("State")),
        ):
            self._value(form, key, title)
        self.history_button: PayeeHistoryButton | None = None
        if self.payees is not None:  # the payee's last payments and this month's total
            self.history_button = PayeeHistoryButton(
                self.payees, lambda: self.entry.payee_detail, box
            )
            form.addRow("", self.history_button)
        self._body.addWidget(box)

    def _build_approvals(self) -> None:
        box = QGroupBox(self.tr("Approvals"), self)
        form = QFormLayout(box)
        for key, title in (
            ("given", self.tr("Given so far")),
            ("needed", self.tr("Needed")),
            ("policy", self.tr("Policy")),
            ("expiry", self.tr("Expiry")),
            ("eligible", self.tr("Who can approve it")),
        ):
            self._value(form, key, title)
        self.history_button: PayeeHistoryButton | None = None
        if self.payees is not None:  # the payee's last payments and this month's total
            self.history_button = PayeeHistoryButton(
                self.payees, lambda: self.entry.payee_detail, box
            )
            form.addRow("", self.history_button)
        self._body.addWidget(box)

    def _build_request(self) -> None:
        box = QGroupBox(self.tr("As it will be sent to the bank"), self)
        layout = QVBoxLayout(box)
        self.request_tree = flat_tree(box, "approval-request", [self.tr("Field"), self.tr("Value")])
        self.request_tree.setMinimumHeight(140)
        layout.addWidget(self.request_tree)
        self.hash_label = QLabel(box)
        self.hash_label.setObjectName("approval-content-hash")
        self.hash_label.setWordWrap(True)
        self.hash_label.setStyleSheet(text_style("muted", self))
        layout.addWidget(self.hash_label)
        self._body.addWidget(box)

    def _build_brcode(self) -> None:
        self.brcode_box = QGroupBox(self.tr("The QR Code, decoded"), self)
        self.brcode_box.setObjectName("approval-brcode")
        self.brcode_form = QFormLayout(self.brcode_box)
        self._body.addWidget(self.brcode_box)

    def _build_actions(self) -> QWidget:
        panel = QWidget(self)
        layout = QVBoxLayout(panel)
        layout.setContentsMargins(0, 0, 0, 0)
        self.approve_reason = QLabel(panel)
        self.approve_reason.setObjectName("approval-approve-reason")
        self.approve_reason.setWordWrap(True)
        self.approve_reason.setStyleSheet(text_style("warning", self))
        layout.addWidget(self.approve_reason)

        self.password_label = QLabel(self.tr("Your team database password, to approve:"), panel)
        self.password_edit = QLineEdit(panel)
        self.password_edit.setObjectName("approval-password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        layout.addWidget(self.password_label)
        layout.addWidget(self.password_edit)
        for widget in (self.password_label, self.password_edit):
            widget.setVisible(self.desk.password_required)

        amount = format_brl(self.entry.amount)
        self.confirmation = AmountConfirmation(
            self.entry.amount,
            prompt=self.tr("To approve, type the amount to be sent (%1):").replace("%1", amount),
            mismatch=self.tr("This is not the amount to be sent."),
            action=self.tr("Approve"),
            name="approval",
            parent=panel,
        )
        self.confirmation.confirmed.connect(self._approve_confirmed)
        self.confirm_edit = self.confirmation.edit
        self.confirm_hint = self.confirmation.hint
        self.approve_button = self.confirmation.action_button
        self.approve_button.setObjectName("approval-approve")
        self.close_button = self.confirmation.cancel_button
        self.close_button.setText(self.tr("Close"))
        self.close_button.setObjectName("approval-close")
        self.close_button.clicked.connect(self.reject)

        row = QHBoxLayout()
        self.reject_button = self._button(panel, self.tr("Reject…"), "approval-reject")
        self.reject_button.clicked.connect(self._reject_clicked)
        self.withdraw_button = self._button(panel, self.tr("Withdraw…"), "approval-withdraw")
        self.withdraw_button.clicked.connect(self._withdraw_clicked)
        self.edit_button = self._button(panel, self.tr("Edit amount or description…"), "")
        self.edit_button.setObjectName("approval-edit")
        self.edit_button.clicked.connect(self._edit_clicked)
        for button in (self.reject_button, self.withdraw_button, self.edit_button):
            row.addWidget(button)
        row.addStretch(1)
        layout.addLayout(row)
        layout.addWidget(self.confirmation)
        return panel

    def _button(self, parent: QWidget, text: str, name: str) -> QPushButton:
        button = QPushButton(text, parent)
        if name:
            button.setObjectName(name)
        button.setAutoDefault(False)  # Enter in the amount field never rejects or withdraws
        button.setDefault(False)
        return button

    # -- showing ---------------------------------------------------------------------------------

    def show_detail(self, detail: ApprovalDetail) -> None:
        """Fill every part from ``detail`` (again after an edit)."""
        self.detail = detail
        self.entry = detail.entry
        entry = self.entry
        self.setWindowTitle(
            self.tr("Your payment, waiting for approval")
            if self.mine
            else self.tr("Approve a payment")
        )
        self.amount.setText(format_brl(entry.amount))
        values = {
            "kind": self.kind_text(entry.kind),
            "payee": entry.creditor_name or entry.payee_name or self.payee_fallback(),
            "document": masked(entry.payee_document) or self.tr("Not given"),
            "detail": bank_detail_text(entry.payee_detail)
            if entry.kind == EntryKind.PIX_MANU
            else entry.payee_detail,
            "description": entry.description or self.tr("None"),
            "flow": self.flow_text(entry.payment_flow),
            "batch": entry.batch or self.tr("None (a payment of its own)"),
            "maker": self.tr("%1 on %2 (Brasília)")
            .replace("%1", entry.created_by)
            .replace("%2", instant_or_empty(entry.created_at)),
            "state": self.state_text(),
            "given": self.approvals_text(detail.approvals),
            "needed": self.needed_text(),
            "policy": self.policy_text(detail.policy),
            "expiry": self.expiry_text(detail.policy),
            "eligible": self.eligible_text(),
        }
        for key, value in values.items():
            self.fields[key].setText(value)
        self._show_warnings()
        self._show_request()
        self._show_brcode()
        self.confirmation.amount = entry.amount
        self.confirmation.label.setText(
            self.tr("To approve, type the amount to be sent (%1):").replace(
                "%1", format_brl(entry.amount)
            )
        )
        self._update_controls()

    def _show_warnings(self) -> None:
        recent = self.detail.recent_same_payee
        if recent:
            last = recent[0]
            text = (
                self.tr(
                    "⚠ This payee was paid recently: %1 on %2 by %3 (%4). Check that this is "
                    "not the same payment twice."
                )
                .replace("%1", format_brl(last.amount))
                .replace("%2", instant_or_empty(last.created_at))
                .replace("%3", last.created_by)
                .replace("%4", approval_word(last) or status_word(entry_status(last)))
            )
            if len(recent) > 1:
                text += " " + self.tr("%1 payment(s) to this payee lately in all.").replace(
                    "%1", str(len(recent))
                )
            self.duplicate_warning.setText(text)
        self.duplicate_warning.setVisible(bool(recent))
        extra = self.new_payee_extra()
        self.new_payee_note.setText(
            self.tr(
                "New payee: never paid from this account before. It needs %1 approval(s) more "
                "than the amount alone would."
            ).replace("%1", str(extra))
            if extra
            else self.tr("New payee: never paid from this account before.")
        )
        self.new_payee_note.setVisible(self.detail.new_payee)
        cooling = cooling_reason(self.entry.cooling)
        if cooling is not None:
            self.cooling_note.setText(
                self.tr("One approval more: %1").replace("%1", rule_text(cooling))
            )
        self.cooling_note.setVisible(cooling is not None)

    def _show_request(self) -> None:
        self.request_tree.clear()
        for path, value in flatten_request(self.detail.request):
            self.request_tree.addTopLevelItem(QTreeWidgetItem([path, value]))
        self.request_tree.resizeColumnToContents(0)
        content_hash = self.entry.content_hash or ""
        self.hash_label.setText(
            self.tr(
                "Content fingerprint (SHA-256): %1. An approval holds for this content only."
            ).replace("%1", content_hash)
            if content_hash
            else ""
        )

    def _show_brcode(self) -> None:
        while self.brcode_form.rowCount():
            self.brcode_form.removeRow(0)
        code = self.detail.brcode
        self.brcode_box.setVisible(bool(code))
        if not code:
            return
        titles = {
            "merchant_name": self.tr("Payee"),
            "merchant_city": self.tr("City"),
            "key": self.tr("Pix key"),
            "url": self.tr("Charge address"),
            "txid": self.tr("Transaction id (txid)"),
            "amount": self.tr("Amount in the code"),
        }
        for key, value in code.items():
            label = QLabel(str(value), self.brcode_box)
            label.setObjectName(f"approval-brcode-{key}")
            label.setWordWrap(True)
            self.brcode_form.addRow(titles.get(key, key), label)

    # -- words -----------------------------------------------------------------------------------

    def kind_text(self, kind: EntryKind) -> str:
        return {
            EntryKind.PIX_KEY: self.tr("Pix by key"),
            EntryKind.PIX_QRC: self.tr("Pix by QR Code"),
            EntryKind.PIX_MANU: self.tr("Pix by bank data"),
            EntryKind.BILLET: self.tr("Slip (boleto)"),
        }.get(kind, kind.value)

    def payee_fallback(self) -> str:
        if self.entry.kind == EntryKind.PIX_KEY:
            return self.tr("Confirmed by the bank when paying")
        return ""

    def flow_text(self, flow: str) -> str:
        if flow == "APPROVAL_REQUIRED":
            return self.tr(
                "Held for approval in the bank's console too (after its release from here)"
            )
        return self.tr("Instant, once released")

    def state_text(self) -> str:
        entry = self.entry
        words = approval_word(entry, released=True)
        if entry.approval in ("REJECTED", "WITHDRAWN"):
            words = words or status_word(entry.state.value)
            reason = decision_reason_word(entry)
            return f"{words}: {reason}" if reason else words
        if entry.approval == "RELEASED" or entry.state != EntryState.PREPARED:
            status = status_word(entry_status(entry))
            return f"{words} · {status}" if words else status
        return words or status_word(entry.state.value)

    def approvals_text(self, approvals: list[Approval]) -> str:
        if not approvals:
            return self.tr("None yet.")
        lines = []
        for approval in approvals:
            when = instant_or_empty(approval.at)
            if approval.valid:
                lines.append(
                    self.tr("✓ %1 on %2").replace("%1", approval.approver).replace("%2", when)
                )
            else:
                lines.append(
                    self.tr("✗ %1 on %2 — void: %3")
                    .replace("%1", approval.approver)
                    .replace("%2", when)
                    .replace(
                        "%3", void_reason_word(approval.void_reason) or self.tr("no longer valid")
                    )
                )
        return "\n".join(lines)

    def needed_text(self) -> str:
        entry = self.entry
        text = (
            self.tr("%1 of %2 given")
            .replace("%1", str(entry.approvals_given))
            .replace("%2", str(entry.approvals_needed))
        )
        if self.detail.new_payee and self.new_payee_extra():
            text += " " + self.tr("(%1 more for a new payee)").replace(
                "%1", str(self.new_payee_extra())
            )
        return text

    def new_payee_extra(self) -> int:
        policy = self.detail.policy
        return policy.new_payee_extra if policy is not None else 0

    def policy_text(self, policy: Policy | None) -> str:
        if policy is None:
            return self.tr("The policy this payment was prepared under cannot be read.")
        if policy.threshold is not None and policy.approvals_above != policy.approvals:
            text = (
                self.tr("Payments up to %1 need %2 approval(s); above it, %3.")
                .replace("%1", format_brl(policy.threshold))
                .replace("%2", str(policy.approvals))
                .replace("%3", str(policy.approvals_above))
            )
        else:
            text = self.tr("Every payment needs %1 approval(s).").replace(
                "%1", str(policy.approvals)
            )
        if policy.new_payee_extra:
            text += " " + self.tr("A payee never paid before needs %1 more.").replace(
                "%1", str(policy.new_payee_extra)
            )
        text += " " + self.tr("Approvers are other people than the maker.")
        text += " " + (
            self.tr("Policy version %1, set by %2 on %3.")
            .replace("%1", str(policy.version))
            .replace("%2", policy.set_by)
            .replace("%3", instant_or_empty(policy.set_at))
        )
        return text

    def expiry_text(self, policy: Policy | None) -> str:
        expires = self.entry.approvals_expire_at
        if expires:
            return self.tr("The approvals given expire on %1 (Brasília).").replace(
                "%1", instant_or_empty(expires)
            )
        if policy is None:
            return ""
        if policy.expiry_hours is None:
            return self.tr(
                "Approvals expire at the end of the Brasília business day of the first one."
            )
        return self.tr("Approvals expire %1 hour(s) after the first one.").replace(
            "%1", _plain_hours(policy.expiry_hours)
        )

    def eligible_text(self) -> str:
        detail = self.detail
        eligible = list(detail.eligible)
        text = ", ".join(eligible) if eligible else self.nobody_text()
        if eligible and detail.short_of_approvers and self.open_intent:
            text += "\n" + (
                self.tr(
                    "It needs %1 more approval(s) and only %2 approver(s) can give one: the "
                    "team needs more approvers, or higher limits."
                )
                .replace("%1", str(detail.approvals_left))
                .replace("%2", str(len(eligible)))
            )
        if self.desk.me not in eligible and not self.approve_blocker():
            text += "\n" + self.tr(
                "Your limits do not cover this payment: the team database will refuse your "
                "approval."
            )
        return text

    def nobody_text(self) -> str:
        """Why nobody can approve it (the team database's eligible approvers are none)."""
        reason = self.detail.nobody
        if reason is NobodyReason.NO_OTHER_APPROVER:
            return self.tr("Nobody: the team has no approver other than the one who prepared it")
        if reason is NobodyReason.ALL_APPROVED:
            return self.tr("Nobody else: every other approver has approved it already")
        if reason is NobodyReason.LIMITS and self.detail.over_limit:
            return self.tr("Nobody: the limits of %1 do not cover it").replace(
                "%1", ", ".join(self.detail.over_limit)
            )
        if reason is NobodyReason.LIMITS:
            return self.tr("Nobody: the approvers' limits do not cover it")
        return self.tr("Nobody")

    # -- controls --------------------------------------------------------------------------------

    def _update_controls(self) -> None:
        blocker = self.approve_blocker()
        can_decide = not self._busy and not self._final
        approvable = can_decide and not blocker
        self.approve_reason.setText(blocker)
        self.approve_reason.setVisible(bool(blocker) and not self._final)
        self.confirm_edit.setEnabled(approvable)
        self.password_edit.setEnabled(approvable)
        if not approvable:
            self.approve_button.setEnabled(False)
        # Who may reject, withdraw or edit: the approvals service's rules.
        me, can_approve = self.desk.me, self.desk.can_approve
        rejectable = reject_blocker(self.entry, me, can_approve=can_approve) is None
        self.reject_button.setVisible(not self.mine)
        self.reject_button.setEnabled(can_decide and rejectable)
        makers_own = maker_blocker(self.entry, me) is None
        for button in (self.withdraw_button, self.edit_button):
            button.setVisible(self.mine)
            button.setEnabled(can_decide and makers_own)

    def _reset_confirmation(self) -> None:
        """After an approval that was not done: the amount is typed again to try again."""
        if not shiboken6.isValid(self):
            return
        self.confirmation.done = False
        self.confirm_edit.setReadOnly(False)
        self.confirm_edit.clear()
        self._update_controls()

    # -- running an action -----------------------------------------------------------------------

    async def _act(self, work: Awaitable[Entry], doing: str) -> Entry | None:
        """Await ``work`` with every action disabled; the entry, or ``None`` when it was not
        done (the banner and the status line say why)."""
        self.banner.clear()
        self.status.setText(doing)
        self.status.setStyleSheet("font-weight: bold;")
        self._busy = True
        self._update_controls()
        try:
            result = await run_operation(work, controls=[self.close_button], changes_ledger=True)
        except ACTION_ERRORS as error:
            self.banner.show_message(refusal_title(error), refusal_text(error))
            self.status.setText(self.tr("Not done: %1").replace("%1", refusal_text(error)))
            self.status.setStyleSheet(f"font-weight: bold; {text_style('error', self)}")
            return None
        finally:
            self._busy = False
            if shiboken6.isValid(self):
                self._update_controls()
        return result

    async def _done(self, entry: Entry, text: str, *, final: bool) -> None:
        """An action was done: the dialog shows the intent as the ledger now has it (its
        approvals, its state) and says what happened."""
        self.entry = entry
        self._final = final
        self.fields["state"].setText(self.state_text())
        self.status.setText(text)
        self.status.setStyleSheet(f"font-weight: bold; {text_style('success', self)}")
        self._update_controls()
        self.decided.emit(entry)
        try:
            detail = await self.desk.detail(entry)
        except ACTION_ERRORS as error:  # shown as it was; the status line says what was done
            log.info("approval detail not read again: %s", error)
            return
        self.show_detail(detail)

    # -- approve ---------------------------------------------------------------------------------

    def _approve_confirmed(self) -> None:
        try:
            typed = parse_brl(self.confirm_edit.text())
        except DomainError:
            self._reset_confirmation()
            return
        password = self.password_edit.text() if self.desk.password_required else None
        if self.desk.password_required and not password:
            self.confirm_hint.setText(self.tr("Type your team database password first."))
            self._reset_confirmation()
            return
        self.action_task = spawn_for(self, self.approve(typed, password=password), name="approve")

    async def approve(self, typed: Decimal, *, password: str | None = None) -> Entry | None:
        """Approve with the amount typed again (the service checks it too)."""
        entry = await self._act(
            self.desk.approve(self.entry, typed, password=password),
            self.tr("Approving…"),
        )
        self.password_edit.clear()
        if entry is None:
            self._reset_confirmation()
            return None
        await self._done(entry, self.approved_text(entry), final=True)
        return entry

    def approved_text(self, entry: Entry) -> str:
        if entry.state != EntryState.PREPARED:
            return (
                self.tr("Approved and sent: %1 (%2 to %3).")
                .replace("%1", status_word(entry_status(entry)))
                .replace("%2", format_brl(entry.amount))
                .replace("%3", entry.creditor_name or entry.payee_name or entry.payee_detail)
            )
        if entry.approval == "WAITING":
            missing = max(0, entry.approvals_needed - entry.approvals_given)
            return (
                self.tr("Your approval is recorded (%1 of %2): it waits for %3 more.")
                .replace("%1", str(entry.approvals_given))
                .replace("%2", str(entry.approvals_needed))
                .replace("%3", str(missing))
            )
        return self.tr("Approved: every approval is given; the releasing desktop sends it.")

    # -- reject, withdraw ------------------------------------------------------------------------

    def _reject_clicked(self) -> None:
        if not self._busy:
            self.action_task = spawn_for(self, self.ask_reject(), name="reject")

    def _withdraw_clicked(self) -> None:
        if not self._busy:
            self.action_task = spawn_for(self, self.ask_withdraw(), name="withdraw")

    async def _ask_reason(self, title: str, label: str, name: str) -> str | None:
        dialog = QInputDialog(self)
        dialog.setObjectName(name)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        self.reason_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            return " ".join(dialog.textValue().split())
        finally:
            self.reason_dialog = None
            dispose(dialog)

    async def ask_reject(self) -> Entry | None:
        reason = await self._ask_reason(
            self.tr("Reject the payment"),
            self.tr("Why is it rejected? %1 sees your reason; it will not be sent.").replace(
                "%1", self.entry.created_by
            ),
            "approval-reject-reason",
        )
        if reason is None:
            return None
        if not reason:
            self.banner.show_message(
                self.tr("Please check"), self.tr("A rejection needs a reason.")
            )
            return None
        return await self.reject_with(reason)

    async def reject_with(self, reason: str) -> Entry | None:
        entry = await self._act(self.desk.reject(self.entry, reason), self.tr("Rejecting…"))
        if entry is not None:
            await self._done(
                entry,
                self.tr("Rejected: %1. It will not be sent.").replace("%1", reason),
                final=True,
            )
        return entry

    async def ask_withdraw(self) -> Entry | None:
        reason = await self._ask_reason(
            self.tr("Withdraw the payment"),
            self.tr("Withdraw this payment? It will not be sent. Why is it withdrawn?"),
            "approval-withdraw-reason",
        )
        if reason is None:
            return None
        if not reason:
            self.banner.show_message(
                self.tr("Please check"), self.tr("A withdrawal needs a reason.")
            )
            return None
        return await self.withdraw_with(reason)

    async def withdraw_with(self, reason: str) -> Entry | None:
        entry = await self._act(self.desk.withdraw(self.entry, reason), self.tr("Withdrawing…"))
        if entry is not None:
            await self._done(entry, self.tr("Withdrawn: it will not be sent."), final=True)
        return entry

    # -- edit ------------------------------------------------------------------------------------

    def _edit_clicked(self) -> None:
        if not self._busy:
            self.action_task = spawn_for(self, self.ask_edit(), name="edit")

    async def ask_edit(self) -> Entry | None:
        dialog = QDialog(self)
        dialog.setObjectName("approval-edit-dialog")
        dialog.setWindowTitle(self.tr("Change the payment"))
        form = QFormLayout(dialog)
        amount = MoneyEdit(dialog, maximum=PIX_MAXIMUM if self.entry.is_pix else None)
        amount.setObjectName("approval-edit-amount")
        amount.set_value(self.entry.amount)
        description = QLineEdit(self.entry.description, dialog)
        description.setObjectName("approval-edit-description")
        description.setMaxLength(140)
        note = QLabel(
            self.tr("A change voids the approvals given so far: it is approved again."), dialog
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dialog
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form.addRow(self.tr("Amount"), amount)
        form.addRow(self.tr("Description"), description)
        form.addRow(note)
        form.addRow(buttons)
        self.edit_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            value, text = amount.value(), description.text()
        finally:
            self.edit_dialog = None
            dispose(dialog)
        if value is None:
            self.banner.show_message(self.tr("Please check"), self.tr("Type a valid amount."))
            return None
        return await self.edit_with(value, text)

    async def edit_with(self, amount: Decimal, description: str) -> Entry | None:
        entry = await self._act(
            self.desk.edit(self.entry, amount=amount, description=description),
            self.tr("Changing…"),
        )
        if entry is not None:
            await self._done(
                entry,
                self.tr("Changed to %1: the approvals given before are void (%2).")
                .replace("%1", format_brl(entry.amount))
                .replace("%2", approval_word(entry)),
                final=False,
            )
        return entry


def _plain_hours(hours: Decimal) -> str:
    text = format(hours.normalize(), "f")
    return text.replace(".", ",")
