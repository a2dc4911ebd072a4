"""The "Boletos" tab: type or scan a slip's line (checked as it is typed), look it up at the
bank, review and confirm it, pay it exactly once, follow it to LIQUIDATED and open its receipt.

The paid-slips list is :class:`~treasury_app.ui.models.paid_slips_model.PaidSlipsModel`.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import tempfile
from functools import partial
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import (
    Signal,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import is_success_status
from treasury_app.domain import boleto
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryState, PendingDuplicate
from treasury_app.ledger.receipts import Receipt
from treasury_app.services.billets import BilletAlreadyPaid, BilletReview
from treasury_app.services.sandbox_samples import sample_slips
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.csv_files import (
    amount_texts,
    export_with_dialog,
    fold,
    saved_count,
    write_table,
)
from treasury_app.ui.dialogs.billet_review_dialog import (
    PAY_NOW,
    PAY_ON_A_DATE,
    PAY_ON_DUE_DATE,
    BilletReviewDialog,
)
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.live_reload import JournalFeed
from treasury_app.ui.models.paid_slips_model import (
    Column,
    PaidSlipsModel,
    entry_status,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.receipt_names import suggested_receipt_name
from treasury_app.ui.refusals import pending_duplicate_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.status_words import approval_word, submitted_word
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import format_date
from treasury_app.ui.widgets.date_edits import DateEdit, date_edit, to_date, to_qdate
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.held_schedule_banner import HeldScheduleBanner
from treasury_app.ui.widgets.payment_status import PaymentStatusLabel
from treasury_app.ui.widgets.row_tables import search_box
from treasury_app.ui.widgets.unconfirmed_banner import BILLET_KINDS, UnconfirmedBanner

"""When a slip is paid: now, on its due date (rolled forward to a business day), on a date."""


class BilletsTab(QWidget):
    """Look up, review, pay and follow boletos.

    :meth:`look_up` and :meth:`show_receipt` are the buttons' coroutines (tests await the
    tasks :attr:`lookup_task` and :attr:`receipt_task`); :meth:`present_receipt` decides how a
    fetched receipt is shown.
    """

    entry_changed = Signal(object)  # the tracker's notifications, delivered on the GUI thread

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.desk = workspace.session.approvals  # dual control: slips are submitted
        self.review_dialog: BilletReviewDialog | None = None
        self._looked_up: BilletReview | None = None  # the slip as the bank answered, unscheduled
        self.receipt_viewer: QWidget | None = None
        self.lookup_task: asyncio.Task[Any] | None = None
        self.samples_task: asyncio.Task[Any] | None = None
        self.samples_dialog: QDialog | None = None
        self.export_dialog: QFileDialog | None = None
        self.receipt_task: asyncio.Task[Any] | None = None
        self._suggested_for: str | None = None  # the slip whose due date "On a date" shows

        self.banner = ErrorBanner(self)
        self.model = PaidSlipsModel(workspace.ledger, self)
        self.unconfirmed = UnconfirmedBanner(workspace, BILLET_KINDS, self)
        # Scheduled payments held for a person (late at start, stopped by a check on the day).
        self.held_schedule = HeldScheduleBanner(workspace, BILLET_KINDS, self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.unconfirmed)
        layout.addWidget(self.held_schedule)
        layout.addWidget(self.banner)
        layout.addWidget(self._build_entry_box())
        layout.addWidget(self._build_list_box(), 1)

        self.entry_changed.connect(self._entry_changed)
        self._feed = JournalFeed(workspace.tracker, self.entry_changed.emit, self.refresh)
        self.model.reload()
        self._code_changed(self.code_edit.text())

    # -- building --------------------------------------------------------------------------------

    def _build_entry_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Pay a slip"), self)
        self.code_edit = QLineEdit(box)
        self.code_edit.setObjectName("billet-code")
        self.code_edit.setPlaceholderText(self.tr("Digitable line or barcode"))
        self.code_edit.setClearButtonEnabled(True)
        self.code_edit.textChanged.connect(self._code_changed)
        self.code_edit.returnPressed.connect(self._look_up_clicked)
        self.lookup_button = QPushButton(self.tr("Look up"), box)
        self.lookup_button.setObjectName("billet-lookup")
        self.lookup_button.clicked.connect(self._look_up_clicked)
        self.feedback = QLabel(box)
        self.feedback.setObjectName("billet-feedback")
        self.feedback.setWordWrap(True)
        self.payment_status = PaymentStatusLabel(box, "billet-payment-status", show_error=True)
        row = QHBoxLayout()
        row.addWidget(self.code_edit, 1)
        row.addWidget(self.lookup_button)
        self.samples_button = QPushButton(self.tr("Sample slips…"), box)
        self.samples_button.setObjectName("billet-samples")
        self.samples_button.setToolTip(self.tr("The sandbox bank's slips to learn with"))
        self.samples_button.clicked.connect(
            lambda: setattr(
                self, "samples_task", spawn_for(self, self.choose_sample(), name="samples")
            )
        )
        self.samples_button.setVisible(self.workspace.session.profile.environment == "sandbox")
        row.addWidget(self.samples_button)
        layout = QVBoxLayout(box)
        layout.addLayout(row)
        layout.addLayout(self._build_pay_on(box))
        layout.addWidget(self.feedback)
        layout.addWidget(self.payment_status)
        return box

    def _build_pay_on(self, box: QWidget) -> QHBoxLayout:
        """ "Now", "On its due date" or "On" a date (a scheduled payment: services/schedule.py
        rolls the date to a business day and the review says why)."""
        self.pay_when = QComboBox(box)
        self.pay_when.setObjectName("billet-pay-when")
        self.pay_when.addItem(self.tr("Now"), PAY_NOW)
        self.pay_when.addItem(self.tr("On its due date"), PAY_ON_DUE_DATE)
        self.pay_when.addItem(self.tr("On a date:"), PAY_ON_A_DATE)
        today = self.workspace.billets.today()
        self.pay_day: DateEdit = date_edit(box, today, "billet-pay-date")
        self.pay_day.setEnabled(False)
        self.pay_when.currentIndexChanged.connect(
            lambda _index: self.pay_day.setEnabled(self.pay_when.currentData() == PAY_ON_A_DATE)
        )
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Pay"), box))
        row.addWidget(self.pay_when)
        row.addWidget(self.pay_day)
        row.addStretch(1)
        return row

    def set_pay_on(self, when: str, day: dt.date | None = None) -> None:
        """Choose when the slip is paid (:data:`PAY_NOW`, :data:`PAY_ON_DUE_DATE`,
        :data:`PAY_ON_A_DATE` with ``day``)."""
        self.pay_when.setCurrentIndex(self.pay_when.findData(when))
        if day is not None:
            self.pay_day.setDate(to_qdate(day))

    def _scheduled(self, review: BilletReview) -> BilletReview:
        """``review`` with the pay date the person chose (unchanged: now)."""
        when = self.pay_when.currentData()
        if when == PAY_NOW:
            return review
        chosen = to_date(self.pay_day.date()) if when == PAY_ON_A_DATE else None
        return self.workspace.schedule.schedule_billet(review, chosen)

    def _build_list_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Slip payments"), self)  # the refused ones too, as such
        view = QTableView(box)
        view.setObjectName("billet-list")
        view.setModel(self.model)
        view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.verticalHeader().hide()
        view.horizontalHeader().setSectionResizeMode(
            Column.BENEFICIARY, QHeaderView.ResizeMode.Stretch
        )
        view.selectionModel().currentRowChanged.connect(self._update_receipt_button)
        self.model.dataChanged.connect(self._update_receipt_button)
        self.model.modelReset.connect(self._update_receipt_button)
        self.view = view
        self.receipt_button = QPushButton(self.tr("Receipt…"), box)
        self.receipt_button.setObjectName("billet-receipt")
        self.receipt_button.setToolTip(self.tr("Show the bank's receipt of the selected payment"))
        self.receipt_button.clicked.connect(self._receipt_clicked)
        self.receipt_status = QLabel(box)
        self.receipt_status.setObjectName("billet-receipt-status")
        self.receipt_status.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.receipt_status, 1)
        bar.addWidget(self.receipt_button)
        finder = QHBoxLayout()
        self.search_edit = search_box(
            box,
            "billet-search",
            self.tr("Search beneficiary, line, amount"),
            lambda _text: self._apply_search(),
        )
        self.export_button = QPushButton(self.tr("Export…"), box)
        self.export_button.setObjectName("billet-export")
        self.export_button.clicked.connect(self._export_clicked)
        finder.addWidget(self.search_edit, 1)
        finder.addWidget(self.export_button)
        self.model.modelReset.connect(self._apply_search)
        self.model.rowsInserted.connect(lambda *_: self._apply_search())
        layout = QVBoxLayout(box)
        layout.addLayout(finder)
        layout.addWidget(view, 1)
        layout.addLayout(bar)
        self._update_receipt_button()
        return box

    # -- finding and exporting -----------------------------------------------------------------

    def _matches(self, entry: Entry, words: list[str]) -> bool:
        haystack = fold(
            " ".join(
                part or ""
                for part in (
                    entry.creditor_name,
                    entry.payee_name,
                    entry.payee_detail,
                    entry.description,
                    entry.bank_id,
                    amount_texts(entry.amount),
                )
            )
        )
        return all(word in haystack for word in words)

    def _apply_search(self) -> None:
        words = [fold(word) for word in self.search_edit.text().split()]
        for row in range(self.model.rowCount()):
            self.view.setRowHidden(
                row, bool(words) and not self._matches(self.model.entry(row), words)
            )

    def shown_entries(self) -> list[Entry]:
        return [
            self.model.entry(row)
            for row in range(self.model.rowCount())
            if not self.view.isRowHidden(row)
        ]

    def export_csv(self, path: str | Path) -> int:
        """The paid slips shown, as a pt-BR spreadsheet reads them (``;``, decimal comma)."""
        header = [
            self.tr("Date"),
            self.tr("Beneficiary"),
            self.tr("Digitable line"),
            self.tr("Amount"),
            self.tr("Status"),
            self.tr("Pay on"),
        ]
        rows = (
            [
                self.model.index(self.model.row_of(entry.id) or 0, Column.DATE).data(),
                entry.creditor_name or entry.payee_name,
                entry.payee_detail,
                format_brl(entry.amount).replace("R$", "").strip(),
                self.model.text(entry, Column.STATUS),  # a refused one says so, and why
                self.model.text(entry, Column.PAY_DATE),  # a scheduled one's day
            ]
            for entry in self.shown_entries()
        )
        return write_table(path, header, rows, amounts=[self.tr("Amount")])

    def _export_clicked(self) -> None:
        self.export_dialog = export_with_dialog(
            self,
            self.tr("Export slip payments"),
            "boletos-pagos.csv",
            self.export_csv,
            saved_count(self.tr("%1 slip(s) saved to %2"), self.receipt_status.setText),
            self.banner.show_error,
        )

    # -- lifecycle -------------------------------------------------------------------------------

    def refresh(self) -> asyncio.Task[bool]:
        """Reload the paid slips from the journal, in the background (the task returned, also
        :attr:`model`'s ``load_task``)."""
        return self.model.reload()

    def shutdown(self) -> None:
        """Stop listening and cancel whatever is on its way (a payment cancelled in flight is
        left to the journal: the engine resolves it with the bank before any resend)."""
        self._feed.close()
        self.model.close()
        for task in (self.lookup_task, self.receipt_task):
            if task is not None and not task.done():
                task.cancel()
        if self.review_dialog is not None:
            self.review_dialog.reject()
        self.unconfirmed.shutdown()
        self.held_schedule.shutdown()

    # -- the line --------------------------------------------------------------------------------

    def _code_changed(self, text: str) -> bool:
        """Instant feedback from the check digits; Look up only for a line that passes."""
        if not text.strip():
            self.feedback.clear()
            self.lookup_button.setEnabled(False)
            return False
        try:
            parsed = boleto.parse(text, today=self.workspace.billets.today())
        except DomainError as error:
            self.feedback.setStyleSheet(text_style("error", self))
            self.feedback.setText(self.tr("Invalid: %1").replace("%1", rule_text(error)))
            self.lookup_button.setEnabled(False)
            return False
        self.feedback.setStyleSheet(text_style("success", self))
        self.feedback.setText(self._describe(parsed))
        self.lookup_button.setEnabled(True)
        return True

    def _describe(self, parsed: boleto.Boleto) -> str:
        if parsed.kind == "bank":
            parts = [self.tr("Valid bank slip, bank %1").replace("%1", parsed.bank_code or "")]
        else:
            segment = parsed.segment or ""
            parts = [self.tr("Valid utility/tax slip (segment %1)").replace("%1", segment)]
        if parsed.amount is not None:
            parts.append(self.tr("amount %1").replace("%1", format_brl(parsed.amount)))
        else:
            parts.append(self.tr("no amount in the line"))
        if parsed.due_date is not None:
            parts.append(self.tr("due %1").replace("%1", format_date(parsed.due_date)))
            if parsed.barcode != self._suggested_for:  # "On a date" starts at the due date
                self._suggested_for = parsed.barcode
                if parsed.due_date >= self.workspace.billets.today():
                    self.pay_day.setDate(to_qdate(parsed.due_date))
        return " · ".join(parts)

    # -- look up, review, pay --------------------------------------------------------------------

    def _look_up_clicked(self) -> None:
        if self.lookup_task is not None and not self.lookup_task.done():
            return  # one review at a time
        if not self._code_changed(self.code_edit.text()):
            return
        self.lookup_task = spawn_for(self, self.look_up(), name="billet-lookup")

    async def look_up(self) -> Entry | None:
        """Look the line up, show the review, pay if confirmed; the payment's entry."""
        try:
            review = await run_operation(
                self._lookup(self.code_edit.text()),
                controls=[self.lookup_button],
                banner=self.banner,
                fields={"code": self.code_edit, "pay_date": self.pay_day},
            )
            if review is None:
                return None
            confirmed = await self._confirm(review)
            if confirmed is None:
                return None
            return await self.pay(confirmed)
        finally:  # also when the task is cancelled because the tab is gone
            if shiboken6.isValid(self.code_edit):
                self._code_changed(self.code_edit.text())  # run_operation re-enabled the button

    async def choose_sample(self) -> str | None:
        """The sandbox's sample slips in a list (due date, amount); the one chosen fills the
        line field, ready for Look up. :attr:`samples_dialog` while shown."""
        samples = await run_operation(
            sample_slips(self.workspace.session), controls=[self.samples_button], banner=self.banner
        )
        if not samples:
            return None
        dialog = QDialog(self)
        dialog.setObjectName("sample-slips")
        dialog.setWindowTitle(self.tr("Sample slips of the sandbox bank"))
        table = QTableWidget(len(samples), 3, dialog)
        table.setObjectName("sample-slips-table")
        table.setHorizontalHeaderLabels([self.tr("Slip"), self.tr("Due date"), self.tr("Amount")])
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        table.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        table.verticalHeader().hide()
        for row, sample in enumerate(samples):
            due = format_date(sample.due_date) if sample.due_date else self.tr("none")
            amount = format_brl(sample.amount) if sample.amount is not None else ""
            for column, text in enumerate((sample.label, due, amount)):
                table.setItem(row, column, QTableWidgetItem(text))
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        table.selectRow(0)
        buttons = QDialogButtonBox(dialog)
        use = buttons.addButton(self.tr("Use this slip"), QDialogButtonBox.ButtonRole.AcceptRole)
        use.setObjectName("sample-use")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        table.doubleClicked.connect(lambda _index: dialog.accept())
        layout = QVBoxLayout(dialog)
        layout.addWidget(table)
        layout.addWidget(buttons)
        dialog.resize(640, 360)
        self.samples_dialog = dialog
        try:
            accepted = await ask(dialog) == QDialog.DialogCode.Accepted
        finally:
            self.samples_dialog = None
            dispose(dialog)
        row = table.currentRow()
        if not accepted or not 0 <= row < len(samples):
            return None
        self.code_edit.setText(samples[row].digitable_line)
        self.code_edit.setFocus()
        return samples[row].digitable_line

    async def _lookup(self, code: str) -> BilletReview:
        """The bank's review of the slip; a slip paid before is a hard stop: the banner says
        when and how much, and the earlier payment is selected in the list (its receipt one
        click away)."""
        try:
            self._looked_up = await self.workspace.billets.lookup(code)
            return self._scheduled(self._looked_up)
        except BilletAlreadyPaid as stop:
            await self.select_entry(stop.earlier[0].id)
            raise self._already_paid(stop) from None

    def _already_paid(self, stop: BilletAlreadyPaid) -> BilletAlreadyPaid:
        """The same refusal (its words are the rule's, :mod:`~treasury_app.ui.rule_words`),
        under a title of its own in the UI's language."""
        stop.title = self.tr("Slip already paid")
        return stop

    async def select_entry(self, entry_id: int) -> bool:
        """Select a payment in the paid slips list, read again first (``False`` if it is not
        listed)."""
        if not await self.model.load() and self.model.load_task is not None:
            await asyncio.wait({self.model.load_task})  # overtaken by that newer reload
        row = self.model.row_of(entry_id)
        if row is None:
            return False
        self.view.selectRow(row)
        self.view.scrollTo(self.model.index(row, 0))
        self._update_receipt_button()
        return True

    def _rescheduled(self, looked_up: BilletReview, when: str, day: dt.date | None) -> BilletReview:
        """The slip looked up, paid ``when`` (the review's own choice of date)."""
        if when == PAY_NOW:
            return looked_up
        return self.workspace.schedule.schedule_billet(
            looked_up, day if when == PAY_ON_A_DATE else None
        )

    async def _confirm(self, review: BilletReview) -> BilletReview | None:
        """The review as confirmed (its date perhaps changed there), or ``None``."""
        dialog = BilletReviewDialog(
            review,
            self,
            for_approval=self.desk is not None,
            reschedule=partial(self._rescheduled, self._looked_up or review),
            today=self.workspace.billets.today(),
        )
        self.review_dialog = dialog
        try:
            accepted = await ask(dialog) == QDialog.DialogCode.Accepted and dialog.paid
            return dialog.review if accepted else None
        finally:
            self.review_dialog = None
            dispose(dialog)

    async def pay(self, review: BilletReview) -> Entry | None:
        """Pay the reviewed slip (exactly once: the review's idempotency key is journaled);
        with dual control, submit it for approval (nothing is paid before that)."""
        self.payment_status.sending(
            self.tr("Submitting the payment for approval…")
            if self.desk is not None
            else self.tr("Sending the payment…")
        )
        try:
            entry = await run_operation(
                self.workspace.billets.pay(review),
                controls=[self.lookup_button, self.code_edit],
                banner=self.banner,
                changes_ledger=True,
            )
        except PendingDuplicate as twin:
            self.banner.show_message(
                self.tr("The same payment waits for approval"), pending_duplicate_words(twin)
            )
            entry = None
        if entry is None:
            self.payment_status.setText(self.tr("The payment was not sent."))
            return None
        self._show_entry(entry)
        self.model.upsert(entry)
        self.code_edit.clear()
        self.workspace.tracker.sent()
        return entry

    def _entry_changed(self, entry: Entry) -> None:
        self.model.upsert(entry)
        followed = self.payment_status.entry
        if followed is not None and followed.id == entry.id:
            self._show_entry(entry)

    def _show_entry(self, entry: Entry) -> None:
        """The status line follows the payment; while its approvers decide, it says so."""
        words = approval_word(entry)
        if not words:
            self.payment_status.follow(entry)
            return
        self.payment_status.entry = entry
        first = entry.waiting_approval and entry.approvals_given == 0
        self.payment_status.setText(submitted_word(entry) if first else words)

    @property
    def last_entry(self) -> Entry | None:
        """The payment last sent from this tab."""
        return self.payment_status.entry

    # -- receipts --------------------------------------------------------------------------------

    def selected_entry(self) -> Entry | None:
        index = self.view.selectionModel().currentIndex()
        return self.model.entry(index.row()) if index.isValid() else None

    def _update_receipt_button(self, *_args: object) -> None:
        entry = self.selected_entry() if hasattr(self, "view") else None
        settled = (
            entry is not None
            and entry.state == EntryState.ACCEPTED
            and entry.bank_status is not None
            and is_success_status(entry.bank_status)
        )
        busy = self.receipt_task is not None and not self.receipt_task.done()
        self.receipt_button.setEnabled(settled and not busy)

    def _receipt_clicked(self) -> None:
        entry = self.selected_entry()
        if entry is not None and (self.receipt_task is None or self.receipt_task.done()):
            self.receipt_task = spawn_for(self, self.show_receipt(entry), name="billet-receipt")
            self._update_receipt_button()
            self.receipt_task.add_done_callback(self._receipt_done)

    def _receipt_done(self, _task: asyncio.Task[Any]) -> None:
        if shiboken6.isValid(self):  # the tab may be gone (locked meanwhile)
            self._update_receipt_button()

    async def show_receipt(self, entry: Entry) -> bytes | None:
        """Fetch (or read from the archive) the receipt of ``entry`` and present it."""
        self.receipt_status.setText(self.tr("Fetching the receipt…"))
        receipt = await run_operation(
            self.workspace.billets.receipt(entry),
            controls=[self.receipt_button],
            banner=self.banner,
        )
        if receipt is None:
            self.receipt_status.clear()
            return None
        self.model.receipt_changed(entry.id)
        pdf = await run_operation(self._read(receipt), banner=self.banner)
        if pdf is None:
            self.receipt_status.clear()
            return None
        self.present_receipt(pdf, receipt, entry)
        return pdf

    async def _read(self, receipt: Receipt) -> bytes:
        return await self.workspace.ledger.receipts.read(receipt)  # checks the hash

    def present_receipt(self, pdf: bytes, receipt: Receipt, entry: Entry) -> None:
        """The receipt viewer when there is one; else a readable copy beside the archive."""
        payee = receipt.payee_name or entry.payee_name or receipt.bank_id
        name = suggested_receipt_name(
            "BILLET",
            receipt.paid_on or entry.updated_at,
            payee,
            receipt.amount if receipt.amount is not None else entry.amount,
        )
        title = self.tr("Receipt: %1").replace("%1", payee)
        viewer_class = receipt_viewer_class()
        if viewer_class is not None:
            viewer = viewer_class(
                pdf,
                title=title,
                suggested_name=name,
                folder=receipt.path.parent,
                parent=self,
            )
            self.receipt_viewer = viewer
            viewer.open()
            self.receipt_status.clear()
            return
        target = self.workspace.ledger.receipts.directory / name
        try:
            _write_atomically(target, pdf)
        except OSError as error:
            self.banner.show_message(
                self.tr("Could not save the receipt"), failure_words(error, file=target)
            )
            return
        self.receipt_status.setText(self.tr("Receipt saved to %1").replace("%1", str(target)))


def receipt_viewer_class() -> Any:
    """``ReceiptViewer`` if the dialog is installed, else ``None`` (a saved file instead)."""
    try:
        from treasury_app.ui.dialogs import receipt_viewer
    except ImportError:
        return None
    return getattr(receipt_viewer, "ReceiptViewer", None)


def _write_atomically(target: Path, data: bytes) -> None:
    """Write beside ``target`` and rename: never a half-written file under its name."""
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


__all__ = ["BilletsTab", "Column", "PaidSlipsModel", "entry_status", "receipt_viewer_class"]
