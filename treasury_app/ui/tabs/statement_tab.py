"""The "Balance & statement" tab: the balance card, the statement of a date range in a lazy,
sortable and filterable table, the selected entry's details (with its Pix receipt when the bank
has one), and a CSV export of the rows shown."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
from collections.abc import Awaitable, Coroutine
from decimal import Decimal
from pathlib import Path
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import QDate, QModelIndex, QSignalBlocker, Qt, QTimer
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import CreditDebitType, Transaction, TransactionType
from treasury_app.domain.clock import brasilia_date, brasilia_today
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.services.exports import ExportFormat
from treasury_app.services.statement import BalanceView, export_csv
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.bank_names import bank_text
from treasury_app.ui.csv_files import (
    chosen_format,
    export_dialog,
    file_error,
    save_file,
    statement_code_word,
    statement_header,
)
from treasury_app.ui.models.statement_model import (
    Column,
    StatementFilterProxy,
    StatementModel,
    signed_text,
)
from treasury_app.ui.operation import events, run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.times import InstantForm, format_instant
from treasury_app.ui.widgets.balance_card import BalanceCard
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import value_labels

T = TypeVar("T")

DEFAULT_PAGE_SIZE = 100
DEFAULT_DAYS = 30
BALANCE_INTERVAL_MS = 60_000
RANGE_SETTLE_MS = 400  # typing a date changes it digit by digit: reload once it settles

_DETAIL_FIELDS = (
    "date",
    "direction",
    "type",
    "amount",
    "balance_after",
    "description",
    "counterparty",
    "document",
    "ispb",
    "end_to_end_id",
    "tx_id",
    "id",
)

log = logging.getLogger("treasury_app.ui.statement")


class StatementTab(QWidget):
    """Balance and statement of the workspace's account.

    :meth:`refresh` (the Refresh button, F5 in the main window, a ledger change) reloads the
    balance and the statement; the balance alone reloads every minute while the tab is shown.
    :meth:`load` is the same reload as a coroutine that tests await.
    """

    def __init__(
        self,
        workspace: Workspace,
        parent: QWidget | None = None,
        *,
        page_size: int = DEFAULT_PAGE_SIZE,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.page_size = page_size
        self.balance: BalanceView | None = None
        self.entry: Transaction | None = None
        self._receipt_pdf: bytes | None = None
        self._range_chosen = False
        self._loaded_once = False
        self._stale = False
        self._load_task: asyncio.Task[Any] | None = None
        self._balance_task: asyncio.Task[Any] | None = None
        self._detail_task: asyncio.Task[Any] | None = None

        self.banner = ErrorBanner(self)
        self.card = BalanceCard(self)
        self.card.refresh_requested.connect(self.refresh)

        self.model = StatementModel(self, runner=self._run)
        self.proxy = StatementFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.card)
        layout.addLayout(self._build_range_bar())
        layout.addLayout(self._build_filter_bar())
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        splitter.addWidget(self._build_table())
        splitter.addWidget(self._build_detail_pane())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)
        self.status = QLabel(self)
        self.status.setObjectName("statement-status")
        layout.addWidget(self.status)

        self._balance_timer = QTimer(self)
        self._balance_timer.setInterval(BALANCE_INTERVAL_MS)
        self._balance_timer.timeout.connect(self.refresh_balance)
        self._range_timer = QTimer(self)
        self._range_timer.setSingleShot(True)
        self._range_timer.setInterval(RANGE_SETTLE_MS)
        self._range_timer.timeout.connect(self._reload_statement)

        for signal in (
            self.proxy.rowsInserted,
            self.proxy.rowsRemoved,
            self.proxy.modelReset,
            self.proxy.layoutChanged,
        ):
            signal.connect(self._update_status)
        self.model.loading_changed.connect(self._update_status)
        events.ledger_changed.connect(self._ledger_changed)
        self._update_status()

    # -- building --------------------------------------------------------------------------------

    def _build_range_bar(self) -> QHBoxLayout:
        self.start_edit = date_edit(self, name="statement-start")
        self.end_edit = date_edit(self, name="statement-end")
        for edit in (self.start_edit, self.end_edit):
            edit.dateChanged.connect(self._range_changed)
            edit.refused.connect(self._date_refused)
        day = brasilia_today(self.workspace.clock)  # the bank's date, not the machine's
        today = QDate(day.year, day.month, day.day)
        with QSignalBlocker(self.start_edit), QSignalBlocker(self.end_edit):
            self.start_edit.setDate(today.addDays(-DEFAULT_DAYS))
            self.end_edit.setDate(today)
        bar = QHBoxLayout()
        bar.addWidget(QLabel(self.tr("From"), self))
        bar.addWidget(self.start_edit)
        bar.addWidget(QLabel(self.tr("to"), self))
        bar.addWidget(self.end_edit)
        bar.addStretch(1)
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        self.export_button.setToolTip(self.tr("Save the entries shown, in their order, as CSV"))
        self.export_button.clicked.connect(lambda: spawn_for(self, self.export_csv()))
        bar.addWidget(self.export_button)
        return bar

    def _build_filter_bar(self) -> QHBoxLayout:
        self.search_edit = QLineEdit(self)
        self.search_edit.setPlaceholderText(self.tr("Search description or counterparty"))
        self.search_edit.setClearButtonEnabled(True)
        self.search_edit.textChanged.connect(self.proxy.set_text)
        self.direction_combo = QComboBox(self)
        self.direction_combo.addItem(self.tr("Credits and debits"), None)
        self.direction_combo.addItem(self.tr("Credits only"), CreditDebitType.CREDIT)
        self.direction_combo.addItem(self.tr("Debits only"), CreditDebitType.DEBIT)
        self.direction_combo.currentIndexChanged.connect(
            lambda _: self.proxy.set_direction(self.direction_combo.currentData())
        )
        self.min_edit = QLineEdit(self)
        self.min_edit.setPlaceholderText(self.tr("Minimum R$"))
        self.max_edit = QLineEdit(self)
        self.max_edit.setPlaceholderText(self.tr("Maximum R$"))
        for edit in (self.min_edit, self.max_edit):
            edit.setMaximumWidth(130)
            edit.setClearButtonEnabled(True)
            edit.textChanged.connect(self._amount_range_changed)
        bar = QHBoxLayout()
        bar.addWidget(self.search_edit, 1)
        bar.addWidget(self.direction_combo)
        bar.addWidget(QLabel(self.tr("Amount"), self))
        bar.addWidget(self.min_edit)
        bar.addWidget(QLabel("–", self))
        bar.addWidget(self.max_edit)
        return bar

    def _build_table(self) -> QTableView:
        view = QTableView(self)
        view.setObjectName("statement-table")
        view.setModel(self.proxy)
        view.setSortingEnabled(True)
        view.sortByColumn(Column.DATE, Qt.SortOrder.DescendingOrder)
        view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().hide()
        # Fixed row heights: the view never measures rows it does not show.
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(Column.DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        for column, width in (
            (Column.DATE, 130),
            (Column.COUNTERPARTY, 200),
            (Column.TYPE, 70),
            (Column.DIRECTION, 90),
            (Column.AMOUNT, 130),
        ):
            header.resizeSection(column, width)
        view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.view = view
        return view

    def _build_detail_pane(self) -> QGroupBox:
        pane = QGroupBox(self.tr("Entry details"), self)
        pane.setObjectName("statement-detail")
        form = QFormLayout(pane)
        titles = {
            "date": self.tr("Date"),
            "direction": self.tr("Credit/debit"),
            "type": self.tr("Type"),
            "amount": self.tr("Amount"),
            "balance_after": self.tr("Balance after"),
            "description": self.tr("Description"),
            "counterparty": self.tr("Counterparty"),
            "document": self.tr("CPF/CNPJ"),
            "ispb": self.tr("Bank"),
            "end_to_end_id": self.tr("End-to-end id"),
            "tx_id": self.tr("txid"),
            "id": self.tr("Entry id"),
        }
        self.detail_fields = value_labels(
            form, pane, _DETAIL_FIELDS, titles, "detail", dashes=False
        )
        self.receipt_status = QLabel(pane)
        self.receipt_status.setWordWrap(True)
        self.receipt_button = QPushButton(self.tr("Save receipt…"), pane)
        self.receipt_button.clicked.connect(lambda: spawn_for(self, self.save_receipt()))
        self.receipt_button.hide()
        self.view_receipt_button = QPushButton(self.tr("View receipt…"), pane)
        self.view_receipt_button.clicked.connect(self.view_receipt)
        self.view_receipt_button.hide()
        form.addRow(self.receipt_status)
        form.addRow(self.view_receipt_button)
        form.addRow(self.receipt_button)
        self.detail_placeholder = QLabel(self.tr("Select an entry to see its details."), pane)
        form.addRow(self.detail_placeholder)
        return pane

    # -- loading ---------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Before the session closes (lock, switch, quit): stop the timers and cancel the
        balance, the statement's load and its page on the way — none may reach a closed client."""
        self._stop_requests()
        self.model.close()

    def refresh(self) -> None:
        """Reload the balance and the statement (the range and filters are kept)."""
        if self.workspace.session.closed:
            return
        self._stale = False
        self._restart(self.load(keep_rows=True))

    def refresh_balance(self) -> None:
        """Reload the balance alone (the timer's tick); skipped while one is on its way."""
        if self.workspace.session.closed:
            return
        if self._balance_task is None or self._balance_task.done():
            self._balance_task = spawn_for(self, self._load_balance(), name="statement-balance")

    async def load(self, *, keep_rows: bool = False) -> None:
        """Balance, then the statement's first page (the range defaults to the last
        :data:`DEFAULT_DAYS` days up to the bank's today, read from the balance). With
        ``keep_rows`` (a refresh) what is on screen stays until the new page replaces it, and
        stays marked stale if the bank cannot be reached."""
        self._cancel_other_load()
        first = not self._loaded_once
        self._loaded_once = True
        balance = await self._load_balance()
        if not self._range_chosen:
            self._set_default_range(balance)
        await self._load_statement(keep_rows=keep_rows)
        if first:  # the start-up bench waits for this line
            log.info("Statement shown (%d entries)", self.model.rowCount())

    async def _load_balance(self) -> BalanceView | None:
        # No control is disabled meanwhile: a second Refresh restarts the load, and a load
        # cancelled as the window goes away must not touch its (deleted) buttons afterwards.
        balance = await self._run(self.workspace.statement.balance())
        if not shiboken6.isValid(self.card):
            # The tab went away (a lock) as the answer came: Python 3.11's wait_for can lose a
            # cancellation that arrives together with the result.
            return None
        if balance is None:
            self.card.set_stale()
            return None
        self.balance = balance
        self.card.set_balance(balance)
        return balance

    def _set_default_range(self, balance: BalanceView | None) -> None:
        """End on the bank's today (the balance's date, in Brasília); without it, keep the
        computer's today and try again on the next load."""
        if balance is None or balance.updated_at is None:
            return
        end = brasilia_date(balance.updated_at)
        self.set_date_range(end - dt.timedelta(days=DEFAULT_DAYS), end)

    def date_range(self) -> tuple[dt.date, dt.date]:
        return _date(self.start_edit.date()), _date(self.end_edit.date())

    def set_date_range(self, start: dt.date, end: dt.date) -> None:
        """Choose the range (as a person would) without reloading: call :meth:`load`."""
        with QSignalBlocker(self.start_edit), QSignalBlocker(self.end_edit):
            self.start_edit.setDate(QDate(start.year, start.month, start.day))
            self.end_edit.setDate(QDate(end.year, end.month, end.day))
        self._range_chosen = True

    async def _load_statement(self, *, keep_rows: bool = False) -> None:
        self._range_timer.stop()
        selected = self.entry.id if self.entry is not None else None
        start, end = self.date_range()
        self.model.load(self.workspace.statement, start, end, self.page_size, keep_rows=keep_rows)
        await self.model.fetch_page()
        if selected is not None:
            self.select_entry(selected)

    def _date_refused(self, problem: str) -> None:
        self.banner.show_message(self.tr("Not a date"), problem)

    def _range_changed(self) -> None:
        self._range_chosen = True
        self._range_timer.start()

    def _reload_statement(self) -> None:
        if not self.workspace.session.closed:
            self._restart(self._load_statement())

    def _restart(self, work: Coroutine[Any, Any, None]) -> None:
        if self._load_task is not None and not self._load_task.done():
            self._load_task.cancel()
        self._load_task = spawn_for(self, work, name="statement-load")

    def _cancel_other_load(self) -> None:
        task = self._load_task
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()

    @property
    def loading(self) -> bool:
        return (self._load_task is not None and not self._load_task.done()) or self.model.loading

    async def _run(self, work: Awaitable[T]) -> T | None:
        return await run_operation(work, banner=self.banner)

    def _ledger_changed(self) -> None:
        if self.isVisible():
            self.refresh()
        else:
            self._stale = True  # reload when shown again

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._balance_timer.start()
        if not self._loaded_once or self._stale:
            self.refresh()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 - Qt's name
        """Hidden (another tab, a lock, the window closing and the session with it): stop
        every request on its way; whatever it interrupted is reloaded when shown again."""
        super().hideEvent(event)
        if self._stop_requests() | self.model.cancel():
            self._stale = True

    def _stop_requests(self) -> bool:
        """Stop the timers and cancel the balance, the load and the detail on their way;
        whether anything was interrupted."""
        self._balance_timer.stop()
        interrupted = self._range_timer.isActive()
        self._range_timer.stop()
        for task in (self._load_task, self._balance_task, self._detail_task):
            if task is not None and not task.done():
                task.cancel()
                interrupted = True
        return interrupted

    # -- filters ---------------------------------------------------------------------------------

    def _amount_range_changed(self) -> None:
        bounds: list[Decimal | None] = []
        for edit in (self.min_edit, self.max_edit):
            text = edit.text().strip()
            try:
                bounds.append(parse_brl(text) if text else None)
            except DomainError as error:
                edit.setStyleSheet("border: 1px solid #d93025;")
                edit.setToolTip(rule_text(error))
                bounds.append(None)
            else:
                edit.setStyleSheet("")
                edit.setToolTip("")
        self.proxy.set_amount_range(bounds[0], bounds[1])

    def _update_status(self) -> None:
        shown, loaded = self.proxy.rowCount(), self.model.rowCount()
        if self.model.loading:
            text = self.tr("Loading entries…")
        elif self.model.stale and self.model.loaded_at is not None:
            text = self.tr(
                "Could not refresh: the entries shown were last updated at %1 and may be out "
                "of date."
            ).replace("%1", format_instant(self.model.loaded_at, InstantForm.TIME))
        elif self.model.failed:
            text = self.tr("The statement could not be loaded completely.")
        elif self.model.interrupted:
            text = self.tr("Loading was interrupted; press Refresh to load the rest.")
        elif self.model.complete:
            text = self.tr("All %1 entries of the period loaded.").replace("%1", str(loaded))
        else:
            text = self.tr("%1 entries loaded; scroll down for more.").replace("%1", str(loaded))
        if shown != loaded:
            text += " " + self.tr("Showing %1.").replace("%1", str(shown))
        self.status.setText(text)

    # -- details ---------------------------------------------------------------------------------

    def select_entry(self, transaction_id: int | str) -> bool:
        """Select the row of ``transaction_id`` if it is shown (its details then load)."""
        row = self.model.row_of(transaction_id)
        if row is None:
            return False
        index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not index.isValid():
            return False
        self.view.selectRow(index.row())
        self.view.scrollTo(index)
        return True

    def _current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        if self._detail_task is not None and not self._detail_task.done():
            self._detail_task.cancel()
        if not current.isValid():
            return
        entry = self.proxy.entry(current.row())
        self._detail_task = spawn_for(self, self.show_detail(entry.id), name="statement-detail")

    @property
    def detail_task(self) -> asyncio.Task[Any] | None:
        return self._detail_task

    async def show_detail(self, transaction_id: int | str) -> Transaction | None:
        """Fetch one entry from the bank and show it; look for its Pix receipt."""
        self._receipt_pdf = None
        self.receipt_button.hide()
        self.view_receipt_button.hide()
        self.receipt_status.clear()
        entry = await self._run(self.workspace.statement.entry(transaction_id))
        if entry is None:
            return None
        self.entry = entry
        self._show_entry(entry)
        e2e = entry.end_to_end_id
        if (
            e2e
            and entry.credit_debit_type == CreditDebitType.DEBIT
            and entry.transaction_type == TransactionType.PIX
        ):
            self.receipt_status.setText(self.tr("Looking for the receipt…"))
            pdf = await self._run(self._find_receipt(e2e))
            self._receipt_pdf = pdf or None
            self.receipt_button.setVisible(pdf is not None)
            self.view_receipt_button.setVisible(pdf is not None)
            self.receipt_status.setText(
                "" if pdf else self.tr("The bank has no receipt for this payment (yet).")
            )
        return entry

    async def _find_receipt(self, end_to_end_id: str) -> bytes | None:
        """The archived receipt, else the bank's (the tracker's rule, not this tab's)."""
        return await self.workspace.tracker.pix_receipt(end_to_end_id)

    def _show_entry(self, entry: Transaction) -> None:
        self.detail_placeholder.hide()
        counterparty = entry.counterparty
        document = counterparty.document if counterparty else None
        if document:
            with contextlib.suppress(DomainError):  # else shown as the bank sent it
                document = mask_document(document)
        debit = entry.credit_debit_type == CreditDebitType.DEBIT
        values = {
            "date": format_instant(entry.created_at, InstantForm.SECONDS),
            "direction": self.tr("Debit (money out)") if debit else self.tr("Credit (money in)"),
            "type": self.model.type_label(entry),
            "amount": signed_text(entry),
            "balance_after": format_brl(entry.balance_after)
            if entry.balance_after is not None
            else "",
            "description": entry.description or "",
            "counterparty": (counterparty.name or "") if counterparty else "",
            "document": document or "",
            "ispb": bank_text(counterparty.ispb or "") if counterparty else "",
            "end_to_end_id": entry.end_to_end_id or entry.original_end_to_end_id or "",
            "tx_id": entry.tx_id or "",
            "id": str(entry.id),
        }
        for key, label in self.detail_fields.items():
            label.setText(values[key])

    # -- files -----------------------------------------------------------------------------------

    def view_receipt(self) -> QWidget | None:
        """Open the selected entry's receipt in the receipt viewer (from memory)."""
        from treasury_app.ui.dialogs.receipt_viewer import ReceiptViewer, suggested_receipt_name

        pdf, entry = self._receipt_pdf, self.entry
        if pdf is None or entry is None:
            return None
        payee = entry.counterparty.name if entry.counterparty is not None else ""
        viewer = ReceiptViewer(
            pdf,
            title=self.tr("Receipt"),
            suggested_name=suggested_receipt_name(
                "PIX", entry.created_at.date(), payee or "", entry.amount
            ),
            parent=self,
        )
        viewer.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        viewer.open()
        return viewer

    async def save_receipt(self, path: str | os.PathLike[str] | None = None) -> Path | None:
        """Write the selected entry's receipt to ``path`` (asked with a file dialog if not
        given); the path written, or ``None``."""
        pdf, entry = self._receipt_pdf, self.entry
        if pdf is None or entry is None:
            return None
        if path is None:
            suggested = f"comprovante-pix-{entry.end_to_end_id}.pdf"
            chosen = await self._ask_path(
                self.tr("Save receipt"), suggested, self.tr("PDF files (*.pdf)"), "pdf"
            )
            if chosen is None:
                return None
            path = chosen
        target = Path(path)
        try:
            save_file(target, pdf)
        except OSError as error:
            self.banner.show_message(
                self.tr("Could not save the receipt"), file_error(error, target).message
            )
            return None
        self.receipt_status.setText(self.tr("Receipt saved to %1").replace("%1", str(target)))
        return target

    async def export_csv(
        self,
        path: str | os.PathLike[str] | None = None,
        export_format: ExportFormat | None = None,
    ) -> int | None:
        """Write the rows shown (filtered, in the view's order) as CSV; first reads the rest
        of the period from the bank so no entry is left out. The file and its format are asked
        with a file dialog when ``path`` is not given; given a path, the format is
        ``export_format`` (machine-readable by default). How many rows, or ``None``."""
        if path is None:
            chosen = await self._ask_export_path()
            if chosen is None:
                return None
            path, export_format = chosen
        self.export_button.setEnabled(False)
        try:
            if not await self.model.fetch_all():
                if self.model.interrupted:
                    self.banner.show_message(
                        self.tr("The export was interrupted"), self.tr("Nothing was written.")
                    )
                return None
            # The rows keep each entry's exported fields under the same names (export_rows).
            export_format = export_format or ExportFormat.MACHINE
            for_people = export_format == ExportFormat.EXCEL  # words, not the bank's codes
            count = export_csv(
                self.proxy.entries(),  # type: ignore[arg-type]
                path,
                export_format=export_format,
                header=statement_header() if for_people else None,
                word=statement_code_word if for_people else None,
            )
        except OSError as error:
            self.banner.show_message(
                self.tr("Could not write the file"), file_error(error, path).message
            )
            return None
        finally:  # also when the task is cancelled because the tab is gone
            if shiboken6.isValid(self.export_button):
                self.export_button.setEnabled(True)
        self.status.setText(
            self.tr("%1 entries exported to %2").replace("%1", str(count)).replace("%2", str(path))
        )
        return count

    async def _ask_export_path(self) -> tuple[str, ExportFormat] | None:
        """Where to export and in which format (the dialog's file types), or ``None``."""
        start, end = self.date_range()
        dialog = export_dialog(
            self,
            self.tr("Export statement"),
            f"extrato-{start.isoformat()}-{end.isoformat()}.csv",
            Path.home(),
        )
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            files = dialog.selectedFiles()
            return (files[0], chosen_format(dialog)) if files else None
        finally:
            dispose(dialog)

    async def _ask_path(self, title: str, suggested: str, filters: str, suffix: str) -> str | None:
        dialog = QFileDialog(self, title, str(Path.home() / suggested), filters)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setDefaultSuffix(suffix)
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return None
            files = dialog.selectedFiles()
            return files[0] if files else None
        finally:
            dispose(dialog)


def _date(value: QDate) -> dt.date:
    return dt.date(value.year(), value.month(), value.day())
