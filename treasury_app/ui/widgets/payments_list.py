"""The list of Pix payments with its filters and the detail of the selected one: who was paid,
with which identifiers, every status it went through, its receipt and, in the sandbox only, the
bank console's approve/reject for a payment waiting for approval."""

from __future__ import annotations

import asyncio
import datetime as dt
from functools import partial
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QSignalBlocker, Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableView,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import PaymentStatus, is_success_status
from treasury_app.domain.clock import brasilia_today, system_clock
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.ledger.batches import BatchRecord
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.services.exports import ExportFormat, amount_cell, date_cell, datetime_cell
from treasury_app.services.payees import registered_names
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.bank_names import bank_detail_text
from treasury_app.ui.csv_files import export_choosing_format, saved_count, write_export
from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer, open_receipt_viewer
from treasury_app.ui.dialogs.series_dialog import ask_edit_series, ask_end_series
from treasury_app.ui.live_reload import JournalFeed
from treasury_app.ui.models.payments_model import (
    Column,
    PaymentsFilter,
    PaymentsModel,
    StatusGroup,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.refusals import error_words
from treasury_app.ui.sandbox_actions import sandbox_button, simulated
from treasury_app.ui.status_words import note_word, overruled_word, status_word
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import InstantForm, instant_or_empty
from treasury_app.ui.user_errors import UserMessage
from treasury_app.ui.widgets.date_edits import date_edit, date_span
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import (
    current_value,
    flat_tree,
    list_and_detail,
    row_table,
    search_box,
    select_row,
    value_labels,
)

__all__ = ["DETAIL_FIELDS", "PaymentsList", "sandbox_decide"]

DETAIL_FIELDS = (
    "payee",
    "document",
    "destination",
    "amount",
    "description",
    "flow",
    "end_to_end_id",
    "idempotency_key",
    "error",
    "bank_word",
)


def is_settled(entry: Entry) -> bool:
    """Final and successful: the bank issues a receipt."""
    return (
        entry.state == EntryState.ACCEPTED
        and entry.final
        and entry.bank_status is not None
        and is_success_status(entry.bank_status)
    )


async def sandbox_decide(workspace: Workspace, entry: Entry, *, approve: bool) -> list[Entry]:
    """Do what the sandbox bank's web console does for a held payment, then follow it (the
    entries that changed). Failures become :class:`UserMessage`: the operation's banner shows
    them."""
    if entry.end_to_end_id is None:
        raise UserMessage("This payment has no endToEndId yet.")
    await simulated(workspace.sandbox.decide_pix(entry.end_to_end_id, approve=approve))
    return await workspace.tracker.poll_once()


class PaymentsList(QWidget):
    """Pix payments followed live. Tests await :attr:`refresh_task` (the list read again),
    :attr:`history_task` (the selected payment's history), :attr:`receipt_task` and
    :attr:`sandbox_task`; :attr:`receipt_viewer` is the last viewer opened."""

    entry_changed = Signal(object)  # the tracker's notifications, delivered on the GUI thread

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.receipt_viewer: ReceiptViewer | None = None
        self.export_dialog: QFileDialog | None = None
        self.registered_names: dict[str, str] = {}  # payee detail: the registry's name
        self.receipt_task: asyncio.Task[Any] | None = None
        self.sandbox_task: asyncio.Task[Any] | None = None
        self.refresh_task: asyncio.Task[bool] | None = None
        self.history_task: asyncio.Task[bool] | None = None
        self.series_task: asyncio.Task[bool] | None = None
        self.series_dialog: QDialog | None = None
        """"Edit series…" or "End series…" while open (tests)."""
        self._history_of: int | None = None  # the payment whose history is shown
        self.is_sandbox = workspace.session.profile.environment == "sandbox"

        self.banner = ErrorBanner(self)
        self.model = PaymentsModel(workspace.ledger, self)
        self.proxy = PaymentsFilter(self)
        self.proxy.setSourceModel(self.model)

        splitter = list_and_detail(self, self._build_list(), self._build_detail())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_filters())
        layout.addWidget(splitter, 1)

        self.view.selectionModel().currentRowChanged.connect(self._show_selected)
        self.proxy.dataChanged.connect(self._show_selected)
        self.proxy.modelReset.connect(self._show_selected)
        self.proxy.rowsRemoved.connect(self._show_selected)
        self.entry_changed.connect(self.model.upsert)
        self._feed = JournalFeed(workspace.tracker, self.entry_changed.emit, self.refresh)
        self._show_selected()
        self.refresh()

    # -- building --------------------------------------------------------------------------------

    def _build_filters(self) -> QHBoxLayout:
        self.group_combo = QComboBox(self)
        self.group_combo.setObjectName("payments-status-group")
        for group, label in (
            (StatusGroup.ALL, self.tr("All payments")),
            (StatusGroup.IN_PROGRESS, self.tr("In progress")),
            (StatusGroup.SETTLED, self.tr("Settled")),
            (StatusGroup.FAILED, self.tr("Failed")),
        ):
            self.group_combo.addItem(label, group.value)
        self.group_combo.currentIndexChanged.connect(self._group_changed)
        self.date_check = QCheckBox(self.tr("From"), self)
        self.date_check.setObjectName("payments-date-range")
        # The journal stamps its entries with this computer's clock (instants, not the bank's
        # dates): the default range is the Brasília date of that clock.
        today = brasilia_today(system_clock)
        self.start_edit = self._date_edit("payments-start", today - dt.timedelta(days=30))
        self.end_edit = self._date_edit("payments-end", today)
        self.date_check.toggled.connect(self._dates_changed)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Show"), self))
        row.addWidget(self.group_combo)
        row.addSpacing(12)
        row.addWidget(self.date_check)
        row.addWidget(self.start_edit)
        row.addWidget(QLabel(self.tr("to"), self))
        row.addWidget(self.end_edit)
        row.addSpacing(12)
        self.search_edit = search_box(
            self,
            "payments-search",
            self.tr("Search payee, key, amount, endToEndId"),
            self.proxy.set_text,
        )
        row.addWidget(self.search_edit, 1)
        self.batch_combo = QComboBox(self)
        self.batch_combo.setObjectName("payments-batch")
        self.batch_combo.setToolTip(self.tr("Only the payments of one batch"))
        self.batch_combo.currentIndexChanged.connect(
            lambda _index: self.proxy.set_batch(self.batch_combo.currentData())
        )
        row.addWidget(self.batch_combo)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setObjectName("payments-export")
        self.export_button.setToolTip(self.tr("Save the payments shown as a CSV file"))
        self.export_button.clicked.connect(self._export_clicked)
        row.addWidget(self.export_button)
        self._show_batches([])
        self._dates_changed()
        return row

    async def _fill_batches(self) -> bool:
        """The batches of the listed payments, newest first, labelled by date and size
        (``False`` if the list was gone when the ledger answered)."""
        seen: list[str] = []
        for entry in self.model.rows():
            if entry.batch and entry.batch not in seen:
                seen.append(entry.batch)
        batches = self.workspace.ledger.batches
        records = [(batch_id, await batches.get(batch_id)) for batch_id in seen]
        self._show_batches(records)
        return True

    def _show_batches(self, records: list[tuple[str, BatchRecord | None]]) -> None:
        current = self.batch_combo.currentData()
        with QSignalBlocker(self.batch_combo):
            self.batch_combo.clear()
            self.batch_combo.addItem(self.tr("All batches"), None)
            for batch_id, record in records:
                label = (
                    self.tr("Batch of %1 (%2 payments, %3)")
                    .replace("%1", instant_or_empty(record.created_at))
                    .replace("%2", str(record.rows))
                    .replace("%3", format_brl(record.total))
                    if record is not None
                    else self.tr("Batch %1").replace("%1", batch_id)
                )
                if record is not None and record.label:
                    label = f"{record.label} — {label}"
                self.batch_combo.addItem(label, batch_id)
            index = self.batch_combo.findData(current)
            self.batch_combo.setCurrentIndex(max(index, 0))
        self.proxy.set_batch(self.batch_combo.currentData())

    # -- export --------------------------------------------------------------------------------

    async def read_registered_names(self) -> None:
        """The registered payee of each payment shown, for the export (issue 36)."""
        details = {entry.payee_detail for entry in self.shown_entries()}
        self.registered_names = await registered_names(self.workspace.ledger.payees, details)

    def shown_entries(self) -> list[Entry]:
        return [self.proxy.entry(row) for row in range(self.proxy.rowCount())]

    def export_csv(self, path: str | Path, export_format: ExportFormat = ExportFormat.EXCEL) -> int:
        """Write the payments shown (filters applied, in the list's order) as CSV, for Excel
        (``;``, decimal comma, Brasília time, UTF-8 with BOM) or machine-readable (see
        :mod:`treasury_app.services.exports`). How many rows."""
        header = [
            self.tr("Date"),
            self.tr("Payee"),
            self.tr("Key or account"),
            self.tr("Amount"),
            self.tr("Status"),
            self.tr("Description"),
            "endToEndId",
            self.tr("Batch"),
            self.tr("Pay on"),
        ]
        rows = (
            [
                datetime_cell(entry.created_at, export_format),
                self.registered_names.get(entry.payee_detail)
                or entry.creditor_name
                or entry.payee_name,
                entry.payee_detail,
                amount_cell(entry.amount, export_format),
                self.model.status_text(entry),
                entry.description,
                entry.end_to_end_id or "",
                entry.batch or "",
                date_cell(entry.pay_date, export_format),  # a scheduled payment's day
            ]
            for entry in self.shown_entries()
        )
        return write_export(path, header, rows, export_format, raw_columns=(0, 3, 8))

    def _export_clicked(self) -> None:
        self.export_dialog = export_choosing_format(
            self,
            self.tr("Export payments"),
            "pagamentos-pix.csv",
            self.export_csv,
            saved_count(
                self.tr("%1 payment(s) saved to %2"),
                partial(self.banner.show_notice, self.tr("Exported")),
            ),
            self.banner.show_error,  # a file in use: "close it and try again" (file_error)
        )

    def _date_edit(self, name: str, day: dt.date) -> QDateEdit:
        edit = date_edit(self, day, name)
        edit.dateChanged.connect(self._dates_changed)
        return edit

    def _build_list(self) -> QTableView:
        self.view = row_table(self, self.proxy, "payments-list", stretch=Column.PAYEE)
        # Newest first until a header is clicked (scheduled ones by their day, for one).
        self.view.horizontalHeader().setSortIndicator(Column.DATE, Qt.SortOrder.DescendingOrder)
        self.view.setSortingEnabled(True)
        return self.view

    def _build_detail(self) -> QGroupBox:
        box = QGroupBox(self.tr("Payment"), self)
        form = QFormLayout()
        labels = {
            "payee": self.tr("Payee"),
            "document": self.tr("Document"),
            "destination": self.tr("Key"),
            "amount": self.tr("Amount"),
            "description": self.tr("Description"),
            "flow": self.tr("Flow"),
            "end_to_end_id": self.tr("endToEndId"),
            "idempotency_key": self.tr("Idempotency key"),
            "error": self.tr("Error"),
            "bank_word": self.tr("Bank's word"),
        }
        self.details = value_labels(form, box, DETAIL_FIELDS, labels, "payment")
        self.destination_label = form.labelForField(self.details["destination"])
        self.details["error"].setStyleSheet(text_style("error", self))
        self.details["bank_word"].setStyleSheet(text_style("error", self))

        self.history = flat_tree(
            box,
            "payment-history",
            [self.tr("Time"), self.tr("State"), self.tr("Bank status"), self.tr("Note")],
        )
        self.receipt_button = QPushButton(self.tr("View receipt"), box)
        self.receipt_button.setObjectName("payment-receipt")
        self.receipt_button.clicked.connect(self._receipt_clicked)
        self.approve_button = self._sandbox_button(
            self.tr("Approve (sandbox)"), "payment-sandbox-approve", approve=True
        )
        self.reject_button = self._sandbox_button(
            self.tr("Reject (sandbox)"), "payment-sandbox-reject", approve=False
        )
        self.series_edit_button = QPushButton(self.tr("Edit series…"), box)
        self.series_edit_button.setObjectName("payment-series-edit")
        self.series_edit_button.clicked.connect(lambda: self._series_clicked(edit=True))
        self.series_end_button = QPushButton(self.tr("End series…"), box)
        self.series_end_button.setObjectName("payment-series-end")
        self.series_end_button.clicked.connect(lambda: self._series_clicked(edit=False))
        buttons = QHBoxLayout()
        buttons.addWidget(self.approve_button)
        buttons.addWidget(self.reject_button)
        buttons.addStretch(1)
        buttons.addWidget(self.series_edit_button)
        buttons.addWidget(self.series_end_button)
        buttons.addWidget(self.receipt_button)
        layout = QVBoxLayout(box)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Status history"), box))
        layout.addWidget(self.history, 1)
        layout.addLayout(buttons)
        self.detail_box = box
        return box

    def _sandbox_button(self, text: str, name: str, *, approve: bool) -> QPushButton:
        button = sandbox_button(
            self,
            text,
            name,
            self.tr(
                "Sandbox only: does what the test bank's web console does. A real bank's "
                "approval happens in the bank's own channel."
            ),
            lambda: self._sandbox_clicked(approve),
        )
        button.hide()
        return button

    # -- lifecycle -------------------------------------------------------------------------------

    def refresh(self) -> asyncio.Task[bool]:
        """:meth:`reload` in the background (:attr:`refresh_task`); a refresh on its way is
        overtaken."""
        if self.refresh_task is not None and not self.refresh_task.done():
            self.refresh_task.cancel()
        self.refresh_task = spawn_for(self, self.reload(), name="payments-reload")
        return self.refresh_task

    async def reload(self) -> bool:
        """Read the payments and their batches again, keeping the selected payment (the list
        shows what it had meanwhile); ``False`` when the answer came too late to be shown."""
        selected = self.selected_entry()
        if not await self.model.reload() or not await self._fill_batches():
            return False
        await self.read_registered_names()
        if selected is not None:
            self.select_entry(selected.id)
        return True

    def shutdown(self) -> None:
        """Stop listening and cancel what is on its way (an approval cancelled in flight is
        picked up by the tracker's next pass)."""
        self._feed.close()
        self.model.close()
        for task in (
            self.receipt_task,
            self.sandbox_task,
            self.refresh_task,
            self.history_task,
            self.series_task,
        ):
            if task is not None and not task.done():
                task.cancel()

    # -- selection and detail --------------------------------------------------------------------

    def selected_entry(self) -> Entry | None:
        return current_value(self.view, self.proxy.entry)

    def select_entry(self, entry_id: int) -> bool:
        """Select the payment ``entry_id`` if the filters show it."""
        return select_row(self.view, self.proxy.row_of(entry_id))

    def _show_selected(self, *_args: object) -> None:
        entry = self.selected_entry()
        self.detail_box.setEnabled(entry is not None)
        if entry is None:
            for label in self.details.values():
                label.clear()
            if self.history_task is not None and not self.history_task.done():
                self.history_task.cancel()
            self.history.clear()
            self._history_of = None
        else:
            self._fill_detail(entry)
        self._update_buttons(entry)

    def _fill_detail(self, entry: Entry) -> None:
        destination = {
            EntryKind.PIX_KEY: self.tr("Key"),
            EntryKind.PIX_QRC: self.tr("QR Code"),
            EntryKind.PIX_MANU: self.tr("Bank data"),
        }.get(entry.kind, self.tr("Key"))
        if isinstance(self.destination_label, QLabel):
            self.destination_label.setText(destination)
        values = {
            "payee": self.model.payee_text(entry),
            "document": _masked(entry.payee_document),
            "destination": self._destination(entry),
            "amount": format_brl(entry.amount),
            "description": entry.description,
            "flow": status_word(entry.payment_flow),
            "end_to_end_id": entry.end_to_end_id or "",
            "idempotency_key": entry.idempotency_key,
            "error": error_words(entry),
            "bank_word": overruled_word(entry),  # a desktop's outcome the bank overruled
        }
        for name, text in values.items():
            self.details[name].setText(text)
        if self._history_of != entry.id:  # another payment's: gone at once, not when read
            self.history.clear()
            self._history_of = None
        if self.history_task is not None and not self.history_task.done():
            self.history_task.cancel()
        self.history_task = spawn_for(self, self.show_history(entry), name="payment-history")

    async def show_history(self, entry: Entry) -> bool:
        """Every status ``entry`` went through, once the journal answers (``False`` when
        another payment was selected meanwhile)."""
        items = await self.workspace.ledger.journal.history(entry.id)
        shown = self.selected_entry()
        if shown is None or shown.id != entry.id:
            return False
        self.history.clear()
        self._history_of = entry.id
        for item in items:
            self.history.addTopLevelItem(
                QTreeWidgetItem(
                    [
                        instant_or_empty(item.at, InstantForm.SECONDS),
                        status_word(item.state.value),
                        status_word(item.bank_status),
                        note_word(item.note),
                    ]
                )
            )
        return True

    def _destination(self, entry: Entry) -> str:
        if entry.kind == EntryKind.PIX_MANU:
            return bank_detail_text(entry.payee_detail)
        return entry.payee_detail

    def _update_buttons(self, entry: Entry | None) -> None:
        receipt_busy = self.receipt_task is not None and not self.receipt_task.done()
        self.receipt_button.setEnabled(entry is not None and is_settled(entry) and not receipt_busy)
        waiting = (
            self.is_sandbox
            and entry is not None
            and entry.bank_status == PaymentStatus.WAITING_APPROVAL
        )
        sandbox_busy = self.sandbox_task is not None and not self.sandbox_task.done()
        for button in (self.approve_button, self.reject_button):
            button.setVisible(waiting)
            button.setEnabled(waiting and not sandbox_busy)
        in_series = entry is not None and entry.series_id is not None
        series_busy = self.series_task is not None and not self.series_task.done()
        for button in (self.series_edit_button, self.series_end_button):
            button.setVisible(in_series)
            button.setEnabled(in_series and not series_busy)

    def _task_done(self, _task: asyncio.Task[Any]) -> None:
        if shiboken6.isValid(self):  # the widget may be gone (locked meanwhile)
            self._update_buttons(self.selected_entry())

    # -- receipt ---------------------------------------------------------------------------------

    def _receipt_clicked(self) -> None:
        entry = self.selected_entry()
        if entry is None or (self.receipt_task is not None and not self.receipt_task.done()):
            return
        self.receipt_task = spawn_for(self, self.show_receipt(entry), name="payment-receipt")
        self.receipt_task.add_done_callback(self._task_done)
        self._update_buttons(entry)

    async def show_receipt(self, entry: Entry) -> ReceiptViewer | None:
        """Open the receipt of a settled payment (archived first if it was not yet)."""
        viewer = await run_operation(
            open_receipt_viewer(self.workspace.tracker, entry, self),
            controls=[self.receipt_button],
            banner=self.banner,
        )
        if viewer is not None:
            self.receipt_viewer = viewer
        return viewer

    # -- its series ------------------------------------------------------------------------------

    def _series_clicked(self, *, edit: bool) -> None:
        entry = self.selected_entry()
        if entry is None or entry.series_id is None:
            return
        if self.series_task is not None and not self.series_task.done():
            return
        self.series_task = spawn_for(
            self, self.ask_series(entry.series_id, edit=edit), name="payment-series"
        )
        self.series_task.add_done_callback(self._task_done)
        self._update_buttons(entry)

    async def ask_series(self, series_id: str, *, edit: bool) -> bool:
        """Open "Edit series…" (``edit``) or "End series…" of ``series_id``; ``True`` once
        done (the list follows the changed payments)."""
        ask_series = ask_edit_series if edit else ask_end_series
        done = await ask_series(self, self.workspace, series_id, self.banner, self._keep_dialog)
        if done:
            await self.reload()
        return done

    def _keep_dialog(self, dialog: QDialog | None) -> None:
        self.series_dialog = dialog

    # -- sandbox console -------------------------------------------------------------------------

    def _sandbox_clicked(self, approve: bool) -> None:
        entry = self.selected_entry()
        if entry is None or (self.sandbox_task is not None and not self.sandbox_task.done()):
            return
        self.sandbox_task = spawn_for(
            self, self.sandbox_decide(entry, approve=approve), name="sandbox"
        )
        self.sandbox_task.add_done_callback(self._task_done)
        self._update_buttons(entry)

    async def sandbox_decide(self, entry: Entry, *, approve: bool) -> bool:
        """Approve or reject a held payment at the sandbox bank and follow it."""
        if not self.is_sandbox:
            return False
        changed = await run_operation(
            sandbox_decide(self.workspace, entry, approve=approve),
            controls=[self.approve_button, self.reject_button],
            banner=self.banner,
            changes_ledger=True,
        )
        return changed is not None

    # -- filters ---------------------------------------------------------------------------------

    def _group_changed(self, _index: int) -> None:
        self.proxy.set_status_group(StatusGroup(self.group_combo.currentData()))
        self._show_selected()

    def _dates_changed(self, *_args: object) -> None:
        on = self.date_check.isChecked()
        self.start_edit.setEnabled(on)
        self.end_edit.setEnabled(on)
        if on:
            self.proxy.set_date_range(*date_span(self.start_edit, self.end_edit))
        else:
            self.proxy.set_date_range(None, None)
        self._show_selected()

    def set_status_group(self, group: StatusGroup) -> None:
        self.group_combo.setCurrentIndex(self.group_combo.findData(group.value))


def _masked(document: str) -> str:
    if not document:
        return ""
    try:
        return mask_document(document)
    except DomainError:
        return document
