"""The "Payees" tab ("Favorecidos", issue 36): the registry of who the money goes to and
where — search, a payee's destinations with their states and history, their last payments and
a statement of account of them (a .zip with the CSV and the receipts), add / change / block /
unblock, CSV import and export, and in a team the changes waiting for another person."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import brasilia_date, brasilia_today, format_date, parse_instant
from treasury_app.domain.money import format_brl
from treasury_app.domain.payees import Destination, DestinationState, Payee, RegistryChange
from treasury_app.services.csv_input import decode_csv, read_csv_bytes
from treasury_app.services.payee_statement import (
    StatementWritten,
    read_statement,
    statement_name,
    write_statement,
)
from treasury_app.services.payees import (
    PayeeDetail,
    PayeePayments,
    import_registry,
    parse_registry_csv,
    registry_csv,
)
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.csv_files import file_error
from treasury_app.ui.dialogs.destination_dialog import DestinationDialog
from treasury_app.ui.dialogs.payee_dialog import PayeeDialog
from treasury_app.ui.dialogs.statement_dialog import StatementDialog
from treasury_app.ui.models.payees_model import (
    ChangesModel,
    DestinationsModel,
    PayeePaymentsModel,
    PayeesModel,
    PaymentColumn,
)
from treasury_app.ui.operation import events, run_operation
from treasury_app.ui.payee_words import document_text, statement_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["PayeesTab"]

SEARCH_DELAY_MS = 120
MIN_LIST_HEIGHT = 80


def _table(parent: QWidget, name: str, model: Any, stretch: int = 0) -> QTableView:
    """A list whose column ``stretch`` (a name, a key or account) takes the room left."""
    view = QTableView(parent)
    view.setObjectName(name)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setModel(model)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    view.verticalHeader().hide()
    view.setWordWrap(False)
    return view


class PayeesTab(QWidget):
    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("payees-tab")
        self.workspace = workspace
        self.service = workspace.payees
        self.team = workspace.ledger.backend == "team"
        self.detail: PayeeDetail | None = None
        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        top = QHBoxLayout()
        self.search = QLineEdit(self)
        self.search.setObjectName("payees-search")
        self.search.setPlaceholderText(self.tr("Search by name, CPF/CNPJ, Pix key, account or tag"))
        self.search.setClearButtonEnabled(True)
        top.addWidget(self.search, 1)
        self.new_button = QPushButton(self.tr("New payee…"), self)
        self.import_button = QPushButton(self.tr("Import CSV…"), self)
        self.export_button = QPushButton(self.tr("Export CSV…"), self)
        for button in (self.new_button, self.import_button, self.export_button):
            top.addWidget(button)
        layout.addLayout(top)
        split = QSplitter(Qt.Orientation.Horizontal, self)
        self.payees = PayeesModel(self)
        self.list = _table(split, "payees-list", self.payees)
        # The columns fit the first rows' words, not 50,000 rows measured at each reset.
        self.list.horizontalHeader().setResizeContentsPrecision(200)
        right = QWidget(split)
        side = QVBoxLayout(right)
        side.setContentsMargins(0, 0, 0, 0)
        self.title = QLabel(right)
        self.title.setObjectName("payee-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        side.addWidget(self.title)
        buttons = QHBoxLayout()
        self.edit_button = QPushButton(self.tr("Edit…"), right)
        self.add_button = QPushButton(self.tr("Add destination…"), right)
        self.change_button = QPushButton(self.tr("Change…"), right)
        self.block_button = QPushButton(self.tr("Block…"), right)
        self.unblock_button = QPushButton(self.tr("Unblock"), right)
        for button in (
            self.edit_button,
            self.add_button,
            self.change_button,
            self.block_button,
            self.unblock_button,
        ):
            buttons.addWidget(button)
        buttons.addStretch(1)
        side.addLayout(buttons)
        self.destinations = DestinationsModel(self)
        self.destination_list = _table(right, "payee-destinations", self.destinations, 1)
        side.addWidget(self.destination_list, 2)
        side.addWidget(QLabel(self.tr("History"), right))
        self.history = ChangesModel(self)
        self.history_list = _table(right, "payee-history", self.history, 1)
        side.addWidget(self.history_list, 2)
        paid = QHBoxLayout()
        self.payments_title = QLabel(right)
        self.payments_title.setObjectName("payee-payments-title")
        self.payments_title.setWordWrap(True)
        paid.addWidget(self.payments_title, 1)
        self.statement_button = QPushButton(self.tr("Statement of account…"), right)
        self.statement_button.setObjectName("payee-statement-button")
        self.statement_button.setToolTip(
            self.tr("Every payment to this payee over a period, with the receipts, in one .zip")
        )
        paid.addWidget(self.statement_button)
        side.addLayout(paid)
        self.payments_model = PayeePaymentsModel(self)
        self.last_payments_view = _table(
            right, "payee-payments", self.payments_model, PaymentColumn.DESCRIPTION
        )
        side.addWidget(self.last_payments_view, 2)
        for view in (self.destination_list, self.history_list, self.last_payments_view):
            view.setMinimumHeight(MIN_LIST_HEIGHT)  # a banner shown shrinks them, no scrolling
        self._statement_running = False
        self._payments_of: int | None = None  # whose payments the list shows
        split.addWidget(self.list)
        split.addWidget(right)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 3)
        layout.addWidget(split, 3)
        self.pending = ChangesModel(self)
        self.pending_box = QWidget(self)
        pending_layout = QVBoxLayout(self.pending_box)
        pending_layout.setContentsMargins(0, 0, 0, 0)
        self.pending_title = QLabel(self.pending_box)
        self.pending_title.setObjectName("payees-pending-title")
        self.pending_title.setStyleSheet("font-weight: bold;")
        pending_layout.addWidget(self.pending_title)
        self.pending_list = _table(self.pending_box, "payees-pending", self.pending, 1)
        pending_layout.addWidget(self.pending_list)
        decide = QHBoxLayout()
        self.approve_button = QPushButton(self.tr("Approve"), self.pending_box)
        self.reject_button = QPushButton(self.tr("Reject…"), self.pending_box)
        self.withdraw_button = QPushButton(self.tr("Withdraw…"), self.pending_box)
        for button in (self.approve_button, self.reject_button, self.withdraw_button):
            decide.addWidget(button)
        decide.addStretch(1)
        pending_layout.addLayout(decide)
        layout.addWidget(self.pending_box, 1)
        self.pending_box.setVisible(self.team)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DELAY_MS)
        self._timer.timeout.connect(self.refilter)
        self.search.textChanged.connect(lambda _text: self._timer.start())
        self.list.selectionModel().currentRowChanged.connect(
            lambda current, _previous: self._open_row(current.row())
        )
        self.destination_list.selectionModel().currentRowChanged.connect(
            lambda *_: self._update_buttons()
        )
        self.new_button.clicked.connect(lambda: spawn_for(self, self.new_payee()))
        self.edit_button.clicked.connect(lambda: spawn_for(self, self.edit_payee()))
        self.add_button.clicked.connect(lambda: spawn_for(self, self.add_destination()))
        self.change_button.clicked.connect(lambda: spawn_for(self, self.change_destination()))
        self.block_button.clicked.connect(lambda: spawn_for(self, self.block_destination()))
        self.unblock_button.clicked.connect(lambda: spawn_for(self, self.unblock_destination()))
        self.approve_button.clicked.connect(lambda: spawn_for(self, self.decide("APPROVED")))
        self.reject_button.clicked.connect(lambda: spawn_for(self, self.decide("REJECTED")))
        self.withdraw_button.clicked.connect(lambda: spawn_for(self, self.decide("WITHDRAWN")))
        self.import_button.clicked.connect(lambda: spawn_for(self, self.import_csv()))
        self.export_button.clicked.connect(lambda: spawn_for(self, self.export_csv()))
        self.statement_button.clicked.connect(lambda: spawn_for(self, self.export_statement()))
        self._stale = True
        events.ledger_changed.connect(self._ledger_changed)  # a method: gone with the tab
        self._show_detail(None)

    def _ledger_changed(self) -> None:
        """A payment settled (a destination may be verified now): read again when shown."""
        self._stale = True
        if self.isVisible():
            self._reload_now()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        if self._stale:
            self._reload_now()

    def _reload_now(self) -> None:
        self._stale = False
        spawn_for(self, self.reload())

    # -- reading ------------------------------------------------------------------------------

    async def reload(self) -> None:
        index = await run_operation(self.service.index(fresh=True), banner=self.banner)
        if index is None:
            return
        await self._load_pending()
        self.refilter()  # the whole registry, or what the search finds in it
        if self.detail is not None:
            await self.open_payee(self.detail.payee.id)

    async def _load_pending(self) -> None:
        if not self.team:
            return
        waiting = await run_operation(self.service.pending(), banner=self.banner) or []
        index = await self.service.index()
        self.pending.payee_names = {p.id: p.name for p in index.payees.values()}
        self.pending.reset_rows(waiting)
        self.pending_title.setText(
            self.tr("Changes waiting for another person's approval: %1").replace(
                "%1", str(len(waiting))
            )
        )

    def refilter(self) -> None:
        """The list narrowed to what the search finds (the whole registry when empty)."""
        text = self.search.text().strip()
        index = self.service.ready
        if index is None:
            return
        if not text:
            self.payees.reset_rows(index.by_name)
            return
        seen: dict[int, Payee] = {}
        for match in index.search(text, limit=200):
            seen.setdefault(match.payee.id, match.payee)
        self.payees.reset_rows(list(seen.values()))
        if len(seen) == 1:
            self.list.selectRow(0)

    def _open_row(self, row: int) -> None:
        payee = self.payees.row_or_none(row)
        if payee is not None:
            spawn_for(self, self.open_payee(payee.id))

    async def open_payee(self, payee_id: int) -> None:
        detail = await run_operation(self.service.detail(payee_id), banner=self.banner)
        self._show_detail(detail)
        if detail is not None:
            paid = await run_operation(self.service.payments_of(payee_id), banner=self.banner)
            if paid is not None and self.detail is not None and self.detail.payee.id == payee_id:
                self._show_payments(paid)

    def _show_payments(self, found: PayeePayments | None) -> None:
        """The payee's last payments, and what was paid to them this Brasília month."""
        self._payments_of = None if found is None or found.payee is None else found.payee.id
        if found is None:
            self.payments_title.setText("")
            self.payments_model.reset_rows([])
            return
        last = found.last()
        month = (
            self.tr("Since %1: %2 paid, %3 on its way.")
            .replace("%1", format_date(found.month))
            .replace("%2", format_brl(found.month_paid))
            .replace("%3", format_brl(found.month_on_its_way))
        )
        if last:
            title = (
                self.tr("Last payments (%1 of %2).")
                .replace("%1", str(len(last)))
                .replace("%2", str(len(found.payments)))
            )
        else:
            title = self.tr("Nothing was paid to them yet.")
        self.payments_title.setText(f"{title} {month}")
        self.payments_model.reset_rows(last)

    def _show_detail(self, detail: PayeeDetail | None) -> None:
        self.detail = detail
        for button in (self.edit_button, self.add_button):
            button.setEnabled(detail is not None)
        self.statement_button.setEnabled(detail is not None and not self._statement_running)
        if (None if detail is None else detail.payee.id) != self._payments_of:
            self._show_payments(None)  # another payee's: theirs are being read
        if detail is None:
            self.title.setText(self.tr("Pick a payee, or register a new one."))
            self.destinations.reset_rows([])
            self.history.reset_rows([])
        else:
            payee = detail.payee
            tags = ", ".join(payee.tags)
            self.title.setText(
                f"{payee.name} — {document_text(payee.document)}" + (f" — {tags}" if tags else "")
            )
            self.destinations.reset_rows(detail.destinations)
            self.history.payee_names = {payee.id: payee.name}
            self.history.destination_details = {d.id: d.detail for d in detail.destinations}
            self.history.reset_rows(detail.history)
        self._update_buttons()

    def selected_destination(self) -> Destination | None:
        return self.destinations.row_or_none(self.destination_list.currentIndex().row())

    def _update_buttons(self) -> None:
        chosen = self.selected_destination()
        self.change_button.setEnabled(chosen is not None)
        blocked = chosen is not None and chosen.state is DestinationState.BLOCKED
        self.block_button.setEnabled(chosen is not None and not blocked)
        self.unblock_button.setEnabled(blocked)

    # -- changing -----------------------------------------------------------------------------

    async def new_payee(self) -> None:
        await self._payee_dialog(None)

    async def edit_payee(self) -> None:
        if self.detail is not None:
            await self._payee_dialog(self.detail.payee)

    async def _payee_dialog(self, payee: Payee | None) -> None:
        dialog = PayeeDialog(self, payee)
        try:
            if not await ask(dialog):
                return
            saved = await run_operation(
                self.service.save_payee(
                    dialog.name.text(),
                    dialog.document.text(),
                    dialog.tags.text(),
                    None if payee is None else payee.id,
                ),
                banner=self.banner,
            )
        finally:
            dispose(dialog)
        if saved is not None:
            await self.reload()
            await self.open_payee(saved.id)

    async def add_destination(self) -> None:
        await self._destination_dialog(None)

    async def change_destination(self) -> None:
        chosen = self.selected_destination()
        if chosen is not None:
            await self._destination_dialog(chosen)

    async def _destination_dialog(self, current: Destination | None) -> None:
        if self.detail is None:
            return
        payee = self.detail.payee
        dialog = DestinationDialog(
            self,
            payee_name=payee.name,
            team=self.team,
            current=None if current is None else current.draft,
        )
        try:
            if not await ask(dialog):
                return
            draft = await run_operation(self._draft_of(dialog), banner=self.banner)
            if draft is None:
                return
            if current is None:
                work = self.service.add(payee.id, draft)
            else:
                work = self.service.change(payee.id, current.id, draft)
            if await run_operation(work, banner=self.banner) is None:
                return
        finally:
            dispose(dialog)
        await self.reload()

    async def _draft_of(self, dialog: DestinationDialog) -> Any:
        if dialog.is_key:
            return self.service.key(dialog.key.text())
        return self.service.account(
            dialog.ispb.text(),
            dialog.branch.text(),
            dialog.account.text(),
            str(dialog.account_type.currentData()),
        )

    async def block_destination(self) -> None:
        chosen = self.selected_destination()
        if chosen is None:
            return
        reason = await self._reason(self.tr("Block"), self.tr("Why is it blocked?"))
        if not reason:
            return
        blocked = await run_operation(self.service.block(chosen.id, reason), banner=self.banner)
        if blocked is not None:
            await self.reload()

    async def unblock_destination(self) -> None:
        chosen = self.selected_destination()
        if chosen is not None and self.detail is not None:
            work = self.service.unblock(self.detail.payee.id, chosen.id)
            if await run_operation(work, banner=self.banner) is not None:
                await self.reload()

    async def decide(self, outcome: str) -> None:
        change: RegistryChange | None = self.pending.row_or_none(
            self.pending_list.currentIndex().row()
        )
        if change is None:
            return
        if outcome == "APPROVED":
            done = await run_operation(self.service.approve(change.id), banner=self.banner)
        else:
            reason = await self._reason(self.tr("Reason"), self.tr("Why?"))
            if not reason:
                return
            work = (
                self.service.reject(change.id, reason)
                if outcome == "REJECTED"
                else self.service.withdraw(change.id, reason)
            )
            done = await run_operation(work, banner=self.banner)
        if done is not None:  # a refusal stays on the banner
            await self.reload()

    async def _reason(self, title: str, label: str) -> str:
        dialog = QInputDialog(self)
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        try:
            if not await ask(dialog):
                return ""
            return dialog.textValue().strip()
        finally:
            dispose(dialog)

    # -- CSV ----------------------------------------------------------------------------------

    async def import_csv(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import payees"), "", self.tr("CSV files (*.csv)")
        )
        if path:
            await self.import_path(Path(path))

    async def import_path(self, path: Path) -> list[str]:
        """Read and register a registry CSV; its per-line errors, in words (nothing is
        registered while the file has any)."""
        text = await run_operation(_read(path), banner=self.banner)
        if text is None:
            return []
        index = await self.service.index(fresh=True)
        parsed = parse_registry_csv(text, index=index)
        if parsed.errors:
            lines = [
                self.tr("Line %1 (%2): %3")
                .replace("%1", str(line))
                .replace("%2", column)
                .replace("%3", rule_text(reason))
                for line, column, reason in parsed.errors
            ]
            self.banner.show_message(self.tr("The file was not imported"), "\n".join(lines[:20]))
            return lines
        await run_operation(import_registry(self.service, parsed), banner=self.banner)
        await self.reload()
        return []

    async def export_csv(self) -> None:
        path, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export payees"), "favorecidos.csv", self.tr("CSV files (*.csv)")
        )
        if path:
            await self.export_path(Path(path))

    async def export_path(self, path: Path) -> None:
        store = self.service.store
        text = registry_csv(await store.payees(), await store.destinations())
        path.write_text(text, encoding="utf-8", newline="")

    # -- statement of account -----------------------------------------------------------------

    async def export_statement(self, path: Path | None = None) -> StatementWritten | None:
        """ "Statement of account…": ask the period, then where to save the .zip (``path``
        given: there, as a test does, without the save dialog), then write it and say what
        was written. The button stays disabled until it is done."""
        if self.detail is None or self._statement_running:
            return None
        self._statement_running = True
        self.statement_button.setEnabled(False)
        try:
            return await self._export_statement(self.detail, path)
        finally:
            self._statement_running = False
            self.statement_button.setEnabled(self.detail is not None)

    async def _export_statement(
        self, detail: PayeeDetail, path: Path | None
    ) -> StatementWritten | None:
        period = await self._ask_period(detail.payee.name, self._last_paid_on())
        if period is None:
            return None
        statement = await run_operation(
            read_statement(self.service, detail.payee.id, *period), banner=self.banner
        )
        if statement is None:
            return None
        replace = False
        if path is None:
            path = await self._ask_zip_path(statement_name(statement))
            if path is None:
                return None
            replace = path.exists()  # the save dialog asked whether to replace it
        words = statement_words(detail.destinations, self.service.banks)
        written = await run_operation(
            self._write(write_statement(self.service, statement, words, path, replace=replace)),
            banner=self.banner,
        )
        if written is None:
            return None
        text = (
            self.tr("%1 payment(s) and %2 receipt(s) exported to %3")
            .replace("%1", str(written.payments))
            .replace("%2", str(written.receipts))
            .replace("%3", str(written.path))
        )
        if written.missing:
            text += " " + self.tr(
                "%1 receipt(s) kept by the app could not be read (missing or damaged): ask the "
                "bank for them again."
            ).replace("%1", str(len(written.missing)))
        self.banner.show_notice(self.tr("Statement of account saved"), text)
        return written

    @staticmethod
    async def _write(work: Any) -> StatementWritten:
        try:
            written: StatementWritten = await work
        except OSError as error:  # in words, naming the file (never a WinError)
            raise file_error(error) from error
        return written

    def _last_paid_on(self) -> dt.date | None:
        newest = self.payments_model.rows()[:1]
        return brasilia_date(parse_instant(newest[0].created_at)) if newest else None

    async def _ask_period(
        self, payee_name: str, last_paid: dt.date | None
    ) -> tuple[dt.date | None, dt.date | None] | None:
        # The period ends today, or on the newest payment's day if later (a sandbox's clock
        # may lag the journal's stamps): by default it holds every payment made this year.
        today = brasilia_today(self.service.clock)
        dialog = StatementDialog(self, payee_name, max(today, last_paid or today))
        try:
            if not await ask(dialog):
                return None
            return dialog.period()
        finally:
            dispose(dialog)

    async def _ask_zip_path(self, suggested: str) -> Path | None:
        picker = QFileDialog(self, self.tr("Save the statement of account"))
        picker.setObjectName("statement-save-dialog")
        picker.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        picker.setDefaultSuffix("zip")
        picker.setNameFilter(self.tr("ZIP files (*.zip)"))
        picker.selectFile(suggested)
        try:
            if not await ask(picker) or not picker.selectedFiles():
                return None
            return Path(picker.selectedFiles()[0])
        finally:
            dispose(picker)


async def _read(path: Path) -> str:
    return decode_csv(read_csv_bytes(path))
