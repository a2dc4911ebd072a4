"""The "Pix" tab: pay by Pix key, by QR Code ("copia e cola") or by bank data; review and
confirm, send exactly once, follow the status; the payments list and batches from CSV below.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import importlib.util
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import (
    AccountType,
    PaymentFlow,
)
from treasury_app.domain.brcode import BrCode
from treasury_app.domain.clock import brasilia_today
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.domain.money import format_brl
from treasury_app.domain.payees import Destination, DestinationKind, DestinationState, Payee
from treasury_app.domain.schedule import SeriesRule
from treasury_app.ledger.journal import Entry, EntryKind, PendingDuplicate
from treasury_app.services.payouts import PayoutInputError, PayoutReview, read_payment_code
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.bank_names import bank_hint
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.csv_files import open_file_picker
from treasury_app.ui.dialogs.payout_review_dialog import PayoutReviewDialog
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.live_reload import JournalFeed
from treasury_app.ui.operation import run_operation
from treasury_app.ui.qr_image import QrImageError, decode_qr_image
from treasury_app.ui.refusals import is_refused, pending_duplicate_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.status_words import approval_word, submitted_word
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.widgets.bank_completer import BankCompleter
from treasury_app.ui.widgets.date_edits import DateEdit, date_edit, to_date
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.held_schedule_banner import HeldScheduleBanner
from treasury_app.ui.widgets.money_edit import PIX_MAXIMUM, MoneyEdit
from treasury_app.ui.widgets.payee_picker import PayeePicker
from treasury_app.ui.widgets.payment_status import PaymentStatusLabel
from treasury_app.ui.widgets.pix_key_edit import PixKeyEdit
from treasury_app.ui.widgets.repeat_edit import SERIES_FIELDS, RepeatEdit
from treasury_app.ui.widgets.unconfirmed_banner import PIX_KINDS, UnconfirmedBanner

_BATCH_MODULE = "treasury_app.ui.dialogs.payout_batch_dialog"
_LIST_MODULE = "treasury_app.ui.widgets.payments_list"


def _module_exists(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ImportError:
        return False


class PayoutsTab(QWidget):
    """Three ways to pay a Pix, one review dialog, one payment per confirmation.

    :meth:`review_key`, :meth:`review_qrc` and :meth:`review_manual` are the Review buttons'
    coroutines (tests await :attr:`review_task`, whose result is the sent entry or ``None``).
    """

    entry_changed = Signal(object)  # the tracker's notifications, delivered on the GUI thread

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.desk = workspace.session.approvals  # dual control: payments are submitted
        self.review_dialog: PayoutReviewDialog | None = None
        self.pay_on: dict[str, tuple[QCheckBox, DateEdit]] = {}
        self.repeats: dict[str, RepeatEdit] = {}
        self.batch_dialog: QDialog | None = None
        self.review_task: asyncio.Task[Any] | None = None
        self._amount_from_code = False
        # The payee registry (issue 36): a payee picked by typing fills the form; a key or
        # account typed that is another payee's is flagged under the form.
        self.registry = getattr(workspace, "payees", None)
        self.pickers: dict[str, PayeePicker] = {}
        self.registry_notes: dict[str, QLabel] = {}

        self.banner = ErrorBanner(self)
        self.forms = QTabWidget(self)
        self.forms.setObjectName("payout-forms")
        self.forms.addTab(self._build_key_form(), self.tr("By Pix key"))
        self.forms.addTab(self._build_qrc_form(), self.tr("By QR Code"))
        self.forms.addTab(self._build_manual_form(), self.tr("By bank data"))
        self.payment_status = PaymentStatusLabel(self, "payout-status", show_error=True)

        self.batch_button = QPushButton(self.tr("Batch from CSV…"), self)
        self.batch_button.setObjectName("payout-batch")
        self.batch_button.clicked.connect(self.open_batch)
        if not _module_exists(_BATCH_MODULE):
            self.batch_button.setEnabled(False)
            self.batch_button.setToolTip(self.tr("Batches are not available in this version."))
        self.payments_list = self._build_payments_list()
        self.unconfirmed = UnconfirmedBanner(workspace, PIX_KINDS, self)
        # Scheduled payments held for a person (late at start, stopped by a check on the day).
        self.held_schedule = HeldScheduleBanner(workspace, PIX_KINDS, self)

        layout = QVBoxLayout(self)
        layout.addWidget(self.unconfirmed)
        layout.addWidget(self.held_schedule)
        layout.addWidget(self.banner)
        layout.addWidget(self.forms)
        layout.addWidget(self.payment_status)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Payments"), self), 1)
        row.addWidget(self.batch_button)
        layout.addLayout(row)
        layout.addWidget(self.payments_list, 1)

        self.entry_changed.connect(self._entry_changed)
        listeners = getattr(getattr(workspace, "engine", None), "mismatch_listeners", None)
        if listeners is not None:
            listeners.append(self._registry_mismatch)
        self._feed = JournalFeed(workspace.tracker, self.entry_changed.emit)
        self._key_changed()
        self._payload_changed()
        self._connect_enter()
        self.forms.currentChanged.connect(lambda _index: self.focus_first_field())

    # -- the keyboard ----------------------------------------------------------------------------

    def _connect_enter(self) -> None:
        """Enter in a form's line field is its Review button (never a send: the review with
        the amount typed again still comes first)."""
        forms = (
            (
                (self.key_edit.line_edit, self.key_amount, self.key_description, self.key_document),
                self._key_clicked,
            ),
            ((self.qr_amount, self.qr_description), self._qrc_clicked),
            (
                (
                    self.bank_ispb,
                    self.bank_branch,
                    self.bank_account,
                    self.bank_document,
                    self.bank_name,
                    self.bank_amount,
                    self.bank_description,
                ),
                self._manual_clicked,
            ),
        )
        for fields, review in forms:
            for field in fields:
                field.returnPressed.connect(review)

    def first_field(self) -> QWidget:
        return (self.key_edit.line_edit, self.qr_payload, self.bank_ispb)[
            max(self.forms.currentIndex(), 0)
        ]

    def focus_first_field(self) -> None:
        self.first_field().setFocus(Qt.FocusReason.OtherFocusReason)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        focused = QApplication.focusWidget()
        if focused is None or not self.isAncestorOf(focused):
            self.focus_first_field()

    def clear_form(self, index: int) -> None:
        """After a payment is sent: the form is emptied, so the next one starts afresh."""
        if index == 0:
            self.key_edit.clear()
            for field in (self.key_amount, self.key_description, self.key_document):
                field.clear()
            self.key_flow.setCurrentIndex(0)
        elif index == 1:
            self.qr_payload.clear()
            for field in (self.qr_amount, self.qr_description):
                field.clear()
            self.qr_flow.setCurrentIndex(0)
        else:
            for field in (
                self.bank_ispb,
                self.bank_branch,
                self.bank_account,
                self.bank_document,
                self.bank_name,
                self.bank_amount,
                self.bank_description,
            ):
                field.clear()
            self.bank_account_type.setCurrentIndex(0)
            self.bank_flow.setCurrentIndex(0)
        # After the review dialog has given the focus back to where Enter was pressed.
        QTimer.singleShot(0, self.focus_first_field)

    # -- building --------------------------------------------------------------------------------

    def _line(self, parent: QWidget, name: str, placeholder: str = "") -> QLineEdit:
        edit = QLineEdit(parent)
        edit.setObjectName(name)
        edit.setPlaceholderText(placeholder)
        return edit

    # Every form asks for an amount and a description, and ends with the flow and its Review
    # button; their names are ``payout-{form}-…``.

    def _amount_fields(self, page: QWidget, form: str) -> tuple[MoneyEdit, QLineEdit]:
        amount = MoneyEdit(page, maximum=PIX_MAXIMUM)
        amount.setObjectName(f"payout-{form}-amount")
        description = self._line(page, f"payout-{form}-description", self.tr("Optional"))
        description.setMaxLength(140)
        return amount, description

    def _flow_and_review(
        self, page: QWidget, form: str, review: Callable[[], None]
    ) -> tuple[QComboBox, QPushButton]:
        flow = QComboBox(page)
        flow.setObjectName(f"payout-{form}-flow")
        flow.addItem(self.tr("Instant"), PaymentFlow.INSTANT)
        flow.addItem(
            self.tr("Held for approval in the bank's console"), PaymentFlow.APPROVAL_REQUIRED
        )
        button = QPushButton(self.tr("Review…"), page)
        button.setObjectName(f"payout-{form}-review")
        button.clicked.connect(review)
        return flow, button

    def _pay_on_row(self, page: QWidget, form: str) -> QWidget:
        """ "Now" or a date (a scheduled payment: services/schedule.py rolls it to a business
        day and the review says why)."""
        row = QWidget(page)
        later = QCheckBox(self.tr("Later, on"), row)
        later.setObjectName(f"payout-{form}-later")
        day = date_edit(row, brasilia_today(self.workspace.clock), f"payout-{form}-pay-date")
        day.setEnabled(False)
        later.toggled.connect(day.setEnabled)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(later)
        layout.addWidget(day)
        layout.addStretch(1)
        self.pay_on[form] = (later, day)
        return row

    def _repeat_row(self, page: QWidget, form: str) -> RepeatEdit:
        """How a payment on a date repeats (a recurring series: services/schedule.py journals
        each occurrence ahead, with its own idempotency key)."""
        later = self.pay_on[form][0]
        repeat = RepeatEdit(brasilia_today(self.workspace.clock), f"payout-{form}-repeat", page)
        repeat.setEnabled(False)
        later.toggled.connect(repeat.setEnabled)
        self.repeats[form] = repeat
        return repeat

    def series_rule(self, form: str) -> SeriesRule | None:
        """The series the person chose in ``form`` (``None``: once, or now)."""
        asked = self.pay_date(form)
        return None if asked is None else self.repeats[form].rule(asked)

    def pay_date(self, form: str) -> dt.date | None:
        """The date the person chose in ``form`` (``None``: now)."""
        later, day = self.pay_on[form]
        return to_date(day.date()) if later.isChecked() else None

    def _build_key_form(self) -> QWidget:
        page = QWidget(self)
        self.key_edit = PixKeyEdit(page)
        self.key_edit.changed.connect(self._key_changed)
        self.key_amount, self.key_description = self._amount_fields(page, "key")
        self.key_document = self._line(
            page, "payout-key-document", self.tr("Optional: the key owner's CPF/CNPJ")
        )
        self.key_flow, self.key_review_button = self._flow_and_review(
            page, "key", self._key_clicked
        )
        form = QFormLayout(page)
        self._registry_rows(page, form, "key")
        form.addRow(self.tr("Pix key"), self.key_edit)
        form.addRow(self.tr("Amount"), self.key_amount)
        form.addRow(self.tr("Description"), self.key_description)
        form.addRow(self.tr("Payee's CPF/CNPJ"), self.key_document)
        form.addRow(self.tr("Flow"), self.key_flow)
        form.addRow(self.tr("Pay on"), self._pay_on_row(page, "key"))
        form.addRow(self.tr("Repeat"), self._repeat_row(page, "key"))
        form.addRow("", self.key_review_button)
        return page

    def _registry_mismatch(self, entry: Entry, name: str, document: str) -> None:
        """A settled payment the bank says went to someone the registry does not name: the
        desk is alerted (the destination is marked changed and audited by the ledger)."""
        if not shiboken6.isValid(self):
            return
        reason = Reason(
            "registry.paid_to_other",
            {"detail": entry.payee_detail, "name": name, "document": document},
        )
        self.banner.show_message(
            self.tr("Paid to someone the registry does not name"), rule_text(reason)
        )

    def _registry_rows(self, page: QWidget, form: QFormLayout, name: str) -> None:
        if self.registry is None:
            return
        picker = PayeePicker(self.registry, page)
        picker.setObjectName(f"payout-{name}-payee")
        picker.picked.connect(lambda payee, destination: self._picked(name, payee, destination))
        note = QLabel(page)
        note.setObjectName(f"payout-{name}-registry-note")
        note.setWordWrap(True)
        note.setStyleSheet(banner_style("warning", self))
        note.hide()
        self.pickers[name] = picker
        self.registry_notes[name] = note
        form.addRow(self.tr("Payee"), picker)
        form.addRow("", note)

    def _picked(self, form: str, payee: Payee, destination: Destination | None) -> None:
        """Fill the form from the registry: the payee's key (or account) and document."""
        index = self.registry.ready if self.registry is not None else None
        kinds = DestinationKind.PIX_KEY if form == "key" else DestinationKind.ACCOUNT
        if destination is None or destination.kind is not kinds:
            candidates = index.of_payee.get(payee.id, []) if index is not None else []
            destination = next(
                (
                    d
                    for d in candidates
                    if d.kind is kinds and d.state is not DestinationState.BLOCKED
                ),
                None,
            )
        if form == "key":
            if destination is not None:
                self.key_edit.line_edit.setText(destination.detail)
            self.key_document.setText(payee.document)
        else:
            if destination is not None:
                draft = destination.draft
                self.bank_ispb.setText(draft.ispb or "")
                self.bank_branch.setText(draft.branch or "")
                self.bank_account.setText(draft.account or "")
                self.bank_account_type.setCurrentIndex(
                    max(self.bank_account_type.findData(draft.account_type), 0)
                )
            self.bank_document.setText(payee.document)
            self.bank_name.setText(payee.name)
        spawn_for(self, self.check_registry(form))

    def typed_detail(self, form: str) -> str | None:
        """The payout detail the form holds now (a key normalised, or ISPB/branch/account)."""
        if self.registry is None:
            return None
        try:
            if form == "key":
                return self.registry.key(self.key_edit.line_edit.text()).detail
            return self.registry.account(
                self.bank_ispb.text(),
                self.bank_branch.text(),
                self.bank_account.text(),
                str(self.bank_account_type.currentData()),
            ).detail
        except RuleError:
            return None

    async def check_registry(self, form: str) -> list[Reason]:
        """Flag, under the form, a key or account that is another payee's (or blocked, or
        fresh): before the review, as it is typed."""
        note = self.registry_notes.get(form)
        detail = self.typed_detail(form)
        if note is None or self.registry is None:
            return []
        if detail is None:
            note.hide()
            return []
        chosen = self.pickers[form].chosen
        reasons = list(await self.registry.warnings(detail, None if chosen is None else chosen.id))
        note.setText("\n".join(rule_text(reason) for reason in reasons))
        note.setVisible(bool(reasons))
        return reasons

    def _build_qrc_form(self) -> QWidget:
        page = QWidget(self)
        self.qr_payload = QPlainTextEdit(page)
        self.qr_payload.setObjectName("payout-qr-payload")
        self.qr_payload.setPlaceholderText(self.tr("Paste the Pix copia e cola code"))
        self.qr_payload.setMaximumHeight(80)
        self.qr_payload.textChanged.connect(self._payload_changed)
        self.qr_image_button = QPushButton(self.tr("Open image…"), page)
        self.qr_image_button.setObjectName("payout-qr-image")
        self.qr_image_button.setToolTip(self.tr("Read the code from a picture of the QR Code"))
        self.qr_image_button.clicked.connect(self.open_qr_image)
        self.qr_image_dialog: QFileDialog | None = None  # the picker last opened (tests use it)
        self.qr_preview = QLabel(page)
        self.qr_preview.setObjectName("payout-qr-preview")
        self.qr_preview.setWordWrap(True)
        self.qr_amount, self.qr_description = self._amount_fields(page, "qr")
        self.qr_flow, self.qr_review_button = self._flow_and_review(page, "qr", self._qrc_clicked)
        form = QFormLayout(page)
        form.addRow(self.tr("Pix copia e cola"), self.qr_payload)
        form.addRow("", self.qr_image_button)
        form.addRow("", self.qr_preview)
        form.addRow(self.tr("Amount"), self.qr_amount)
        form.addRow(self.tr("Description"), self.qr_description)
        form.addRow(self.tr("Flow"), self.qr_flow)
        form.addRow(self.tr("Pay on"), self._pay_on_row(page, "qrc"))
        form.addRow(self.tr("Repeat"), self._repeat_row(page, "qrc"))
        form.addRow("", self.qr_review_button)
        return page

    def _build_manual_form(self) -> QWidget:
        page = QWidget(self)
        self.bank_ispb = self._line(
            page, "payout-bank-ispb", self.tr("Bank name or code, or its ISPB (8 digits)")
        )
        self.bank_completer = BankCompleter(self.bank_ispb)
        self.bank_ispb_name = QLabel(page)  # the bank of the ISPB typed or picked, by name
        self.bank_ispb_name.setObjectName("payout-bank-ispb-name")
        self.bank_ispb_name.setWordWrap(True)
        self.bank_ispb.textChanged.connect(self._bank_typed)
        self.bank_branch = self._line(page, "payout-bank-branch", self.tr("Without check digit"))
        self.bank_account = self._line(page, "payout-bank-account", self.tr("With check digit"))
        self.bank_account_type = QComboBox(page)
        self.bank_account_type.setObjectName("payout-bank-account-type")
        for account_type in (
            AccountType.CACC,
            AccountType.SVGS,
            AccountType.SLRY,
            AccountType.TRAN,
        ):
            self.bank_account_type.addItem(
                code_word(Family.BANK_ACCOUNT_TYPE, account_type), account_type
            )
        self.bank_document = self._line(page, "payout-bank-document", self.tr("Holder's CPF/CNPJ"))
        self.bank_name = self._line(page, "payout-bank-name", self.tr("Holder's name"))
        self.bank_amount, self.bank_description = self._amount_fields(page, "bank")
        self.bank_flow, self.bank_review_button = self._flow_and_review(
            page, "bank", self._manual_clicked
        )
        form = QFormLayout(page)
        self._registry_rows(page, form, "manual")
        form.addRow(self.tr("Bank"), self.bank_ispb)
        form.addRow("", self.bank_ispb_name)
        form.addRow(self.tr("Branch"), self.bank_branch)
        form.addRow(self.tr("Account"), self.bank_account)
        form.addRow(self.tr("Account type"), self.bank_account_type)
        form.addRow(self.tr("CPF/CNPJ"), self.bank_document)
        form.addRow(self.tr("Name"), self.bank_name)
        form.addRow(self.tr("Amount"), self.bank_amount)
        form.addRow(self.tr("Description"), self.bank_description)
        form.addRow(self.tr("Flow"), self.bank_flow)
        form.addRow(self.tr("Pay on"), self._pay_on_row(page, "manual"))
        form.addRow(self.tr("Repeat"), self._repeat_row(page, "manual"))
        form.addRow("", self.bank_review_button)
        return page

    def _build_payments_list(self) -> QWidget:
        """The payments list when it is installed, else a placeholder."""
        try:
            from treasury_app.ui.widgets.payments_list import PaymentsList
        except ImportError:
            label = QLabel(self.tr("The payments list is not available in this version."), self)
            label.setObjectName("payments-list-placeholder")
            return label
        return PaymentsList(self.workspace, self)

    # -- lifecycle -------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Reload the payments list (local: no request)."""
        refresh = getattr(self.payments_list, "refresh", None)
        if refresh is not None:
            refresh()

    def shutdown(self) -> None:
        """Stop listening and cancel whatever is on its way (a payment cancelled in flight is
        left to the journal: the engine resolves it with the bank before any resend)."""
        self._feed.close()
        listeners = getattr(self.workspace.engine, "mismatch_listeners", None)
        if listeners is not None and self._registry_mismatch in listeners:
            listeners.remove(self._registry_mismatch)
        if self.review_task is not None and not self.review_task.done():
            self.review_task.cancel()
        if self.review_dialog is not None:
            self.review_dialog.reject()
        if self.batch_dialog is not None:
            self.batch_dialog.reject()
        shutdown = getattr(self.payments_list, "shutdown", None)
        if shutdown is not None:
            shutdown()
        self.unconfirmed.shutdown()
        self.held_schedule.shutdown()

    # -- QR Code from an image file ------------------------------------------------------------

    def open_qr_image(self) -> None:
        """Pick a picture of a QR Code (window-modal ``open()``: no nested event loop)."""
        self.qr_image_dialog = open_file_picker(
            self,
            self.tr("Open a QR Code image"),
            str(Path.home()),
            self.tr("Images (*.png *.jpg *.jpeg *.bmp *.gif *.webp);;All files (*)"),
            self.load_qr_image,
            "payout-qr-image-picker",
        )

    def load_qr_image(self, path: str | Path) -> bool:
        """Read the QR Code in the image at ``path`` into the payload box (the preview then
        decodes it); on failure the reason goes to the banner and the box is left as it was."""
        try:
            payload = decode_qr_image(path)
        except QrImageError as error:
            self.banner.show_message(self.tr("Could not read the QR Code"), failure_words(error))
            return False
        self.banner.clear()
        self.forms.setCurrentWidget(self.qr_image_button.parentWidget())
        self.qr_payload.setPlainText(payload.strip())
        return True

    # -- instant feedback ------------------------------------------------------------------------

    def _key_changed(self) -> None:
        self.key_review_button.setEnabled(self.key_edit.is_valid())
        if self.registry is not None and self.key_edit.is_valid():
            spawn_for(self, self.check_registry("key"))
        elif "key" in self.registry_notes:
            self.registry_notes["key"].hide()

    def _payload_changed(self) -> None:
        """Decode the pasted code at once: who, where, how much, or why it is not a code."""
        code = self.decoded_payload()
        self.qr_review_button.setEnabled(code is not None)
        has_amount = code is not None and code.amount is not None
        self.qr_amount.setEnabled(code is not None and not has_amount)
        if has_amount:
            assert code is not None and code.amount is not None
            self.qr_amount.set_value(code.amount)  # shown, not editable: the code decides
        elif self._amount_from_code or code is None:
            self.qr_amount.clear()
        self._amount_from_code = has_amount

    def decoded_payload(self) -> BrCode | None:
        """The pasted code, or ``None`` (with the reason shown in the preview)."""
        text = self.qr_payload.toPlainText().strip()
        if not text:
            self.qr_preview.clear()
            return None
        try:
            code = read_payment_code(text)  # the payouts service's rules, not a copy of them
        except PayoutInputError as error:
            self._preview(self.tr("Invalid: %1").replace("%1", rule_text(error)), ok=False)
            return None
        self._preview(self._describe(code), ok=True)
        return code

    def _preview(self, text: str, *, ok: bool) -> None:
        self.qr_preview.setStyleSheet(text_style("success" if ok else "error", self))
        self.qr_preview.setText(text)

    def _describe(self, code: BrCode) -> str:
        lines = [
            self.tr("Payee: %1").replace("%1", code.merchant_name),
            self.tr("City: %1").replace("%1", code.merchant_city),
        ]
        if code.key:
            lines.append(self.tr("Pix key: %1").replace("%1", code.key))
        elif code.url:
            lines.append(self.tr("Charge address: %1").replace("%1", code.url))
        if code.amount is not None:
            lines.append(self.tr("Amount: %1").replace("%1", format_brl(code.amount)))
        elif code.is_dynamic:
            lines.append(self.tr("The charge sets the amount: leave it empty to pay what it asks."))
        else:
            lines.append(self.tr("No amount in the code: type it below."))
        if code.txid:
            lines.append(self.tr("txid: %1").replace("%1", code.txid))
        if code.is_dynamic:
            lines.append(self.tr("Dynamic code: the bank confirms payee and amount when paying."))
        return "\n".join(lines)

    # -- review and send -------------------------------------------------------------------------

    def _busy(self) -> bool:
        return self.review_task is not None and not self.review_task.done()

    def _key_clicked(self) -> None:
        if not self._busy() and self.key_edit.is_valid():
            self.review_task = spawn_for(self, self.review_key(), name="payout-key")

    def _qrc_clicked(self) -> None:
        if not self._busy() and self.decoded_payload() is not None:
            self.review_task = spawn_for(self, self.review_qrc(), name="payout-qrc")

    def _manual_clicked(self) -> None:
        if not self._busy():
            self.review_task = spawn_for(self, self.review_manual(), name="payout-manual")

    @staticmethod
    def _flow(combo: QComboBox) -> PaymentFlow:
        return PaymentFlow(combo.currentData())

    @staticmethod
    def _amount_text(edit: MoneyEdit) -> str | Decimal:
        """The value when valid, else the text so the service explains what is wrong."""
        value = edit.value()
        return value if value is not None else edit.text()

    async def review_key(self) -> Entry | None:
        async def prepare() -> PayoutReview:
            return await self.workspace.payouts.prepare_key(
                self.key_edit.text(),
                self._amount_text(self.key_amount),
                description=self.key_description.text(),
                creditor_document=self.key_document.text().strip() or None,
                flow=self._flow(self.key_flow),
            )

        fields = {
            "key": self.key_edit.line_edit,
            "amount": self.key_amount,
            "description": self.key_description,
            "creditor_document": self.key_document,
        }
        button = self.key_review_button
        entry = await self._review_and_send(prepare, fields, button, "key")
        if entry is not None and not is_refused(entry):
            self.clear_form(0)
        self._key_changed()
        return entry

    async def review_qrc(self) -> Entry | None:
        code = self.decoded_payload()

        async def prepare() -> PayoutReview:
            amount = None
            if code is not None and code.amount is None:
                amount = self._amount_text(self.qr_amount)
                if code.is_dynamic and not self.qr_amount.text().strip():
                    amount = None  # the charge behind the code says how much
            return await self.workspace.payouts.prepare_qrc(
                self.qr_payload.toPlainText(),
                amount,
                description=self.qr_description.text(),
                flow=self._flow(self.qr_flow),
            )

        fields = {
            "payload": self.qr_payload,
            "amount": self.qr_amount,
            "description": self.qr_description,
        }
        entry = await self._review_and_send(prepare, fields, self.qr_review_button, "qrc")
        if entry is not None and not is_refused(entry):
            self.clear_form(1)  # a paid code is not pasted twice by accident
        self._payload_changed()
        return entry

    def _bank_typed(self, text: str) -> None:
        self.bank_ispb_name.setText(bank_hint(text))

    async def review_manual(self) -> Entry | None:
        async def prepare() -> PayoutReview:
            return await self.workspace.payouts.prepare_manual(
                ispb=self.bank_ispb.text(),
                branch=self.bank_branch.text(),
                account=self.bank_account.text(),
                account_type=AccountType(self.bank_account_type.currentData()),
                document=self.bank_document.text(),
                name=self.bank_name.text(),
                amount=self._amount_text(self.bank_amount),
                description=self.bank_description.text(),
                flow=self._flow(self.bank_flow),
            )

        fields = {
            "ispb": self.bank_ispb,
            "branch": self.bank_branch,
            "account": self.bank_account,
            "account_type": self.bank_account_type,
            "document": self.bank_document,
            "name": self.bank_name,
            "amount": self.bank_amount,
            "description": self.bank_description,
        }
        entry = await self._review_and_send(prepare, fields, self.bank_review_button, "manual")
        if entry is not None and not is_refused(entry):
            self.clear_form(2)
        return entry

    async def _review_and_send(
        self,
        prepare: Callable[[], Awaitable[PayoutReview]],
        fields: Mapping[str, QWidget],
        button: QPushButton,
        form: str,
    ) -> Entry | None:
        """Prepare (errors to the banner, on their field; the journal's earlier payments to
        the payee read, no request to the bank), review, send once if confirmed — or, with a
        pay date, journal it for that day."""

        async def prepared() -> PayoutReview:
            review = await prepare()
            if self.registry is not None and review.kind != EntryKind.PIX_QRC:
                chosen = self.pickers[form].chosen if form in self.pickers else None
                flagged = await self.registry.warnings(
                    review.payee_detail, None if chosen is None else chosen.id
                )
                if flagged:
                    review = replace(review, warnings=(*flagged, *review.warnings))
            return self.workspace.schedule.schedule_payout(review, self.pay_date(form))

        day = self.pay_on[form][1]
        rule = self.series_rule(form)
        review = await run_operation(
            prepared(),
            controls=[button],
            banner=self.banner,
            fields={**fields, "pay_date": day},
        )
        repeats = None if rule is None else self.repeats[form].summary(rule)
        if review is None or not await self._confirm(review, repeats):
            return None
        if rule is not None:
            return await self.create_series(review, rule, form, button)
        return await self.send(review, button)

    async def create_series(
        self, review: PayoutReview, rule: SeriesRule, form: str, button: QPushButton | None = None
    ) -> Entry | None:
        """Make the reviewed payout a recurring series (its occurrences within the horizon
        journaled now); the first occurrence."""
        controls = [self.forms] + ([button] if button is not None else [])
        repeat = self.repeats[form]
        made = await run_operation(
            self.workspace.schedule.create_series(review, rule),
            controls=controls,
            banner=self.banner,
            fields={name: repeat for name in SERIES_FIELDS} | {"start": self.pay_on[form][1]},
            changes_ledger=True,
        )
        if made is None:
            self.payment_status.setText(self.tr("The recurring Pix was not created."))
            return None
        _series_id, entries = made
        self.payment_status.setText(
            self.tr("Recurring Pix created: %1 payment(s) scheduled ahead").replace(
                "%1", str(len(entries))
            )
        )
        return entries[0] if entries else None

    async def _confirm(self, review: PayoutReview, repeats: str | None = None) -> bool:
        dialog = PayoutReviewDialog(
            review,
            self,
            for_approval=self.desk is not None,
            repeats=repeats,
            payees=self.registry,
        )
        self.review_dialog = dialog
        try:
            return await ask(dialog) == QDialog.DialogCode.Accepted and dialog.confirmed
        finally:
            self.review_dialog = None
            dispose(dialog)

    async def send(self, review: PayoutReview, button: QPushButton | None = None) -> Entry | None:
        """Send the reviewed payout (exactly once: the review's idempotency key is journaled);
        with dual control, submit it for approval (nothing is sent before that)."""
        self.payment_status.sending(
            self.tr("Submitting the Pix for approval…")
            if self.desk is not None
            else self.tr("Sending the Pix…")
        )
        controls = [self.forms] + ([button] if button is not None else [])
        try:
            entry = await run_operation(
                self.workspace.payouts.send(review),
                controls=controls,
                banner=self.banner,
                changes_ledger=True,
            )
        except PendingDuplicate as twin:
            self.banner.show_message(
                self.tr("The same payment waits for approval"), pending_duplicate_words(twin)
            )
            entry = None
        if entry is None:
            self.payment_status.setText(self.tr("The Pix was not sent."))
            return None
        self._show_entry(entry)
        self.workspace.tracker.sent()
        return entry

    def _show_entry(self, entry: Entry) -> None:
        """The status line follows the payment; while its approvers decide, it says so."""
        words = approval_word(entry)
        if not words:
            self.payment_status.follow(entry)
            return
        self.payment_status.entry = entry
        first = entry.waiting_approval and entry.approvals_given == 0
        self.payment_status.setText(submitted_word(entry) if first else words)

    def _entry_changed(self, entry: Entry) -> None:
        followed = self.payment_status.entry
        if followed is not None and followed.id == entry.id:
            self._show_entry(entry)

    @property
    def last_entry(self) -> Entry | None:
        """The payment last sent from this tab."""
        return self.payment_status.entry

    # -- batches ---------------------------------------------------------------------------------

    def open_batch(self) -> None:
        """Open the CSV batch dialog (window-modal; it sends and reports by itself)."""
        try:
            from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog
        except ImportError:
            self.batch_button.setEnabled(False)
            return
        dialog = PayoutBatchDialog(self.workspace, self)
        self.batch_dialog = dialog
        dialog.finished.connect(self._batch_finished)
        dialog.open()

    def _batch_finished(self, _result: int) -> None:
        dialog, self.batch_dialog = self.batch_dialog, None
        if dialog is not None:
            dialog.deleteLater()
        self.refresh()


__all__ = ["PayoutsTab"]
