"""The list of Pix charges (``cob`` and ``cobv``) of a date range with its filters, the door to
each charge's detail, a CSV export of the charges shown and, in the sandbox only, a payer who
pays the selected charge.

On a team database the list follows the bank's notifications (through the team's webhook
receiver): a Pix that paid a charge shown refreshes that charge's row, with no polling."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.cashin_models import CobStatus
from treasury_app.services.charges import ChargesService
from treasury_app.services.exports import ExportFormat, amount_cell, date_cell, datetime_cell
from treasury_app.services.refresh_queue import RefreshQueue
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for, spawn_unless_busy
from treasury_app.ui.csv_files import export_choosing_format, saved_count, write_export
from treasury_app.ui.dialogs.charge_detail_dialog import ChargeDetailDialog
from treasury_app.ui.live_reload import BankEventsFeed
from treasury_app.ui.models.charges_model import (
    ChargeKind,
    ChargeRow,
    ChargesFilter,
    ChargesModel,
    Column,
    status_text,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.sandbox_actions import sandbox_button, simulated
from treasury_app.ui.widgets.range_list import RangeList
from treasury_app.ui.widgets.row_tables import search_box

if TYPE_CHECKING:
    from treasury_app.services.notifications import BankChanges

__all__ = ["DEFAULT_DAYS", "ChargesList", "load_charges"]

DEFAULT_DAYS = 7


async def load_charges(
    service: ChargesService, start: dt.date, end: dt.date, *, page_size: int | None = None
) -> list[ChargeRow]:
    """Every cob and cobv created in ``[start, end]`` (whole days in Brasília), every page."""

    async def collect(kind: ChargeKind) -> list[ChargeRow]:
        items = (
            service.iter_cobvs(start=start, end=end, page_size=page_size)
            if kind == "cobv"
            else service.iter_cobs(start=start, end=end, page_size=page_size)
        )
        return [ChargeRow(kind, charge) async for charge in items]

    cobs, cobvs = await asyncio.gather(collect("cob"), collect("cobv"))
    return cobs + cobvs


class ChargesList(RangeList[ChargeRow]):
    """Charges of a date range (default: the last :data:`DEFAULT_DAYS` days up to the bank's
    today). The container spawns :meth:`reload`; :attr:`detail_requested` is emitted with
    ``(kind, txid)`` on double-click or "Details…" and :meth:`open_detail` opens it (the list
    does so itself unless :attr:`opens_detail` is cleared). Tests await :attr:`task`."""

    detail_requested = Signal(str, str)  # kind ("cob" | "cobv"), txid
    bank_changes = Signal(object)  # BankChanges: what the team's receiver applied
    prefix = "charges"
    default_days = DEFAULT_DAYS
    model: ChargesModel
    proxy: ChargesFilter

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(workspace, "charges-reload", parent)
        self.is_sandbox = workspace.session.profile.environment == "sandbox"
        self.opens_detail = True
        self.detail_dialog: ChargeDetailDialog | None = None
        self.export_dialog: QFileDialog | None = None
        self.model = ChargesModel(self)
        self.proxy = ChargesFilter(self)
        self.proxy.setSourceModel(self.model)

        range_row = self.build_range(self.tr("Created from"))
        range_row.addStretch(1)
        range_row.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(range_row)
        layout.addLayout(self._build_filters())
        layout.addWidget(self.build_view(Column.DEBTOR, Column.CREATED), 1)
        layout.addLayout(self._build_actions())
        self.view.doubleClicked.connect(self._double_clicked)

        self.view.selectionModel().currentRowChanged.connect(self._update_buttons)
        self.proxy.modelReset.connect(self._update_buttons)
        self.proxy.layoutChanged.connect(self._update_buttons)
        self.proxy.rowsRemoved.connect(self._update_buttons)
        self.proxy.rowsInserted.connect(self._update_count)
        self.detail_requested.connect(self._detail_requested)
        self.event_task: asyncio.Task[Any] | None = None  # reading bank_reads, when any wait
        self.bank_reads = RefreshQueue()
        self.bank_changes.connect(self._bank_changes)
        self._events = BankEventsFeed(workspace.session, self.bank_changes.emit)
        self._update_buttons()

    # -- building --------------------------------------------------------------------------------

    def _build_filters(self) -> QHBoxLayout:
        self.status_combo = QComboBox(self)
        self.status_combo.setObjectName("charges-status")
        self.status_combo.addItem(self.tr("Any status"), "")
        for status in CobStatus:
            self.status_combo.addItem(status_text(status), status.value)
        self.status_combo.currentIndexChanged.connect(
            lambda _i: self.proxy.set_status(self.status_combo.currentData())
        )
        self.kind_combo = QComboBox(self)
        self.kind_combo.setObjectName("charges-kind")
        for label, kind in (
            (self.tr("Any kind"), ""),
            (self.tr("Immediate (cob)"), "cob"),
            (self.tr("Due date (cobv)"), "cobv"),
        ):
            self.kind_combo.addItem(label, kind)
        self.kind_combo.currentIndexChanged.connect(
            lambda _i: self.proxy.set_kind(self.kind_combo.currentData())
        )
        self.document_edit = QLineEdit(self)
        self.document_edit.setObjectName("charges-document")
        self.document_edit.setPlaceholderText(self.tr("Debtor's CPF/CNPJ"))
        self.document_edit.textChanged.connect(self.proxy.set_document)
        self.search_edit = search_box(
            self,
            "charges-search",
            self.tr("Search txid, debtor, text, amount"),
            self.proxy.set_text,
        )
        for signal in (
            self.status_combo.currentIndexChanged,
            self.kind_combo.currentIndexChanged,
            self.document_edit.textChanged,
            self.search_edit.textChanged,
        ):
            signal.connect(self._update_buttons)
        row = QHBoxLayout()
        row.addWidget(self.status_combo)
        row.addWidget(self.kind_combo)
        row.addWidget(self.document_edit)
        row.addWidget(self.search_edit, 1)
        return row

    def _build_actions(self) -> QHBoxLayout:
        self.details_button = QPushButton(self.tr("Details…"), self)
        self.details_button.setObjectName("charges-details")
        self.details_button.clicked.connect(self._details_clicked)
        self.sandbox_pay_button = sandbox_button(
            self,
            self.tr("Sandbox: simulate payer"),
            "charges-sandbox-pay",
            self.tr(
                "Sandbox only: a test payer pays the selected active charge in full, as a "
                "real payer would with their bank's app."
            ),
            self._sandbox_pay_clicked,
        )
        self.sandbox_pay_button.setVisible(self.is_sandbox)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setObjectName("charges-export")
        self.export_button.setToolTip(self.tr("Save the charges shown as a CSV file"))
        self.export_button.clicked.connect(self._export_clicked)
        row = QHBoxLayout()
        row.addWidget(self.sandbox_pay_button)
        row.addStretch(1)
        row.addWidget(self.export_button)
        row.addWidget(self.details_button)
        return row

    # -- loading ---------------------------------------------------------------------------------

    def load(self, start: dt.date, end: dt.date) -> Awaitable[list[ChargeRow]]:
        return load_charges(self.workspace.charges, start, end)

    def show_loaded(self, loaded: list[ChargeRow]) -> None:
        self.model.set_rows([self._changed.get(row.txid, row) for row in loaded])

    # -- selection -------------------------------------------------------------------------------

    def selected_charge(self) -> ChargeRow | None:
        return self.selected_row()

    def select_charge(self, txid: str) -> bool:
        """Select the charge ``txid`` if the filters show it."""
        return self.select_key(txid)

    def _update_count(self, *_args: object) -> None:
        self.show_count(self.tr("%1 charges"), self.tr("%1 of %2 charges"))

    def _update_buttons(self, *_args: object) -> None:
        if not shiboken6.isValid(self):
            return
        self._update_count()
        selected = self.selected_charge()
        busy = self.task is not None and not self.task.done()
        self.details_button.setEnabled(selected is not None and not busy)
        self.sandbox_pay_button.setEnabled(
            self.is_sandbox and selected is not None and selected.active and not busy
        )

    # -- detail ----------------------------------------------------------------------------------

    def _double_clicked(self, index: QModelIndex) -> None:
        row = self.proxy.charge(index.row())
        self.detail_requested.emit(row.kind, row.txid)

    def _details_clicked(self) -> None:
        row = self.selected_charge()
        if row is not None:
            self.detail_requested.emit(row.kind, row.txid)

    def _detail_requested(self, kind: str, txid: str) -> None:
        if self.opens_detail:
            self._start(self.open_detail(kind, txid))  # type: ignore[arg-type]

    async def open_detail(
        self, kind: ChargeKind | None = None, txid: str | None = None
    ) -> ChargeDetailDialog | None:
        """Open the detail of ``txid`` (default: the selected charge) and wait until it is
        closed; the list shows what changed meanwhile."""
        if txid is None or kind is None:
            selected = self.selected_charge()
            if selected is None:
                return None
            kind, txid = selected.kind, selected.txid
        dialog = ChargeDetailDialog(self.workspace, kind, txid, self)
        dialog.changed.connect(lambda charge: self.charge_changed(ChargeRow(kind, charge)))
        self.detail_dialog = dialog
        load = spawn_for(dialog, dialog.load(), name="charge-detail-load")
        try:
            await ask(dialog)
        finally:
            if not load.done():
                load.cancel()
            if dialog.task is not None and not dialog.task.done():
                await asyncio.wait([dialog.task])
            self.detail_dialog = None
            dispose(dialog)
        return dialog

    def charge_changed(self, row: ChargeRow) -> None:
        """Show a charge as changed here at once (no request), also over a reload that
        started before the change."""
        self.changed_here(row)

    # -- the bank's notifications (team database) -------------------------------------------

    def _bank_changes(self, changes: BankChanges) -> None:
        if changes.everything:  # the link to the database was lost: what changed is unknown
            self.live.schedule()
            return
        shown = [txid for txid in sorted(changes.charges) if self.model.row_of(txid) is not None]
        if len(shown) < len(changes.charges):
            self.live.schedule()  # a charge not in the list: it may be new
        if shown:
            self.bank_reads.add(shown)
            if self.event_task is None or self.event_task.done():
                self.event_task = spawn_for(
                    self, self.follow_bank_changes(), name="charges-bank-changes"
                )

    async def follow_bank_changes(self) -> list[str]:
        """Read again from the bank, and show, the charges the receiver wrote a state for
        (:attr:`bank_reads`: each once however often it was named, paced). The txids
        refreshed."""
        refreshed: list[str] = []
        while (txid := await self.bank_reads.next()) is not None:
            place = self.model.row_of(txid)
            if place is None:
                continue
            kind = self.model.row_at(place).kind
            service = self.workspace.charges
            read = service.get_cobv(txid) if kind == "cobv" else service.get_cob(txid)
            charge = await run_operation(read, banner=self.banner)
            if charge is not None:
                self.charge_changed(ChargeRow(kind, charge))
                refreshed.append(txid)
        return refreshed

    def running(self) -> list[asyncio.Task[Any] | None]:
        return [*super().running(), self.event_task]

    def shutdown(self) -> None:
        self._events.close()
        super().shutdown()

    # -- export ----------------------------------------------------------------------------------

    def shown_charges(self) -> list[ChargeRow]:
        """The charges the filters show, in the view's order."""
        return [self.proxy.charge(row) for row in range(self.proxy.rowCount())]

    def export_csv(self, path: str | Path, export_format: ExportFormat = ExportFormat.EXCEL) -> int:
        """Write the charges shown (filters applied, in the list's order) as CSV, for Excel or
        machine-readable (see :mod:`treasury_app.services.exports`). How many rows."""
        heading = self.model.headerData  # the list's own column titles
        horizontal = Qt.Orientation.Horizontal
        header = [
            heading(Column.CREATED, horizontal),
            "txid",
            heading(Column.KIND, horizontal),
            heading(Column.DEBTOR, horizontal),
            self.tr("CPF/CNPJ"),
            heading(Column.AMOUNT, horizontal),
            self.tr("Due date"),
            heading(Column.STATUS, horizontal),
        ]
        rows = (
            [
                datetime_cell(row.created, export_format),
                row.txid,
                self.model.kind_text(row.kind),
                row.debtor_name,
                row.debtor_document,
                amount_cell(row.amount, export_format),
                date_cell(_due_date(row), export_format),
                status_text(row.status),
            ]
            for row in self.shown_charges()
        )
        return write_export(path, header, rows, export_format, raw_columns=(0, 5, 6))

    def _export_clicked(self) -> None:
        start, end = self.date_range()
        self.export_dialog = export_choosing_format(
            self,
            self.tr("Export charges"),
            f"cobrancas-{start.isoformat()}-{end.isoformat()}.csv",
            self.export_csv,
            saved_count(
                self.tr("%1 charge(s) saved to %2"),
                partial(self.banner.show_notice, self.tr("Exported")),
            ),
            self.banner.show_error,  # a file in use: "close it and try again" (file_error)
        )

    # -- sandbox payer ---------------------------------------------------------------------------

    def _sandbox_pay_clicked(self) -> None:
        row = self.selected_charge()
        if row is not None:
            self._start(self.sandbox_pay(row.txid))

    async def sandbox_pay(self, txid: str | None = None) -> bool:
        """Sandbox only: a test payer pays the charge (default: the selected one); reload."""
        if not self.is_sandbox:
            return False
        if txid is None:
            selected = self.selected_charge()
            if selected is None:
                return False
            txid = selected.txid
        paid = await run_operation(
            simulated(self.workspace.sandbox.pay_charge(txid)),
            controls=[self.sandbox_pay_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if paid is None:
            return False
        await self.reload()
        return True

    # -- tasks -----------------------------------------------------------------------------------

    def _start(self, work: Any) -> None:
        task = spawn_unless_busy(self.task, work, name="charges-list", owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(lambda _t: self._update_buttons())
            self._update_buttons()


def _due_date(row: ChargeRow) -> dt.date | None:
    """A cobv's due date (a cob has none)."""
    due: dt.date | None = getattr(row.charge.calendario, "data_de_vencimento", None)
    return due
