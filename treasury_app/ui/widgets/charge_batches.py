"""The "Batches" part of the charges tab: the batches of charges with a due date (``lotecobv``)
created in a date range, the members of the one opened (status, ``problema``, amount, due date),
a member's amount or due date revised (no member added or removed), and "Import CSV…", which
opens :class:`~treasury_app.ui.dialogs.charge_batch_dialog.ChargeBatchDialog`."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import replace
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.cashin_models import CobVCompleta, LoteCobVConsultado
from treasury_app.domain.clock import BRASILIA
from treasury_app.services.charges import BatchRevision, BatchStatus
from treasury_app.ui.async_tools import ask, spawn_for
from treasury_app.ui.dialogs.charge_batch_dialog import (
    ChargeBatchDialog,
    member_table,
    outcome_text,
)
from treasury_app.ui.models.charge_batch_model import (
    BatchListModel,
    BatchSummary,
    ChargeBatchModel,
    ErrorsOnlyFilter,
    MemberRow,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.widgets.date_edits import (
    add_date_range,
    date_edit,
    date_span,
    to_date,
    to_qdate,
)
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit
from treasury_app.ui.widgets.row_tables import row_table

__all__ = ["DEFAULT_DAYS", "ChargeBatches", "members_of"]

DEFAULT_DAYS = 7  # the list opens on the last week's batches
PAGE_SIZE = 1000


def summary_of(batch: LoteCobVConsultado) -> BatchSummary:
    count = batch.quantidade_cobrancas
    if count is None and batch.cobsv:
        count = len(batch.cobsv)
    return BatchSummary(str(batch.id or ""), batch.descricao, batch.criacao, count)


def members_of(status: BatchStatus, charges: dict[str, CobVCompleta]) -> list[MemberRow]:
    """The members of ``status`` with what their charges add (document, due date, text)."""
    rows = []
    for member in status.members:
        cobv = charges.get(member.txid)
        devedor = cobv.devedor if cobv is not None else None
        rows.append(
            MemberRow(
                txid=member.txid,
                line=member.line,
                name=member.debtor_name or (devedor.nome if devedor else "") or "",
                document=(devedor.cpf or devedor.cnpj or "") if devedor else "",
                amount=member.amount,
                due_date=cobv.calendario.data_de_vencimento if cobv is not None else None,
                description=cobv.solicitacao_pagador if cobv is not None else None,
                status=member.status,
                problema=member.problema,
            )
        )
    return rows


class ChargeBatches(QWidget):
    """Batches list, opened batch, revision. Call :meth:`reload` (spawned by the tab); tests
    await :meth:`reload`, :meth:`open_batch`, :meth:`revise` and find the import dialog in
    :attr:`dialog`."""

    def __init__(self, workspace: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.dialog: ChargeBatchDialog | None = None
        self.import_task: asyncio.Task[Any] | None = None
        self.opened: BatchStatus | None = None
        self.sent_task: asyncio.Task[Any] | None = None
        self._lines: dict[str, dict[str, int]] = {}
        self.banner = ErrorBanner(self)

        self.batches_model = BatchListModel(self)
        self.members_model = ChargeBatchModel(self)
        self.members_proxy = ErrorsOnlyFilter(self)
        self.members_proxy.setSourceModel(self.members_model)

        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self._build_list())
        splitter.addWidget(self._build_members())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_toolbar())
        layout.addWidget(splitter, 1)
        self._update_buttons()

    # -- building --------------------------------------------------------------------------------

    def _build_toolbar(self) -> QHBoxLayout:
        self.import_button = QPushButton(self.tr("Import CSV…"), self)
        self.import_button.setObjectName("charge-batches-import")
        self.import_button.clicked.connect(self._import_clicked)
        today = self.workspace.charges.today()  # the bank's date (the clock only: no request)
        self.start_edit = date_edit(self, today - dt.timedelta(days=DEFAULT_DAYS))
        self.end_edit = date_edit(self, today)
        self.reload_button = QPushButton(self.tr("Refresh"), self)
        self.reload_button.clicked.connect(lambda: spawn_for(self, self.reload()))
        row = QHBoxLayout()
        row.addWidget(self.import_button)
        row.addSpacing(16)
        add_date_range(
            row, self, self.tr("Created from"), self.tr("to"), self.start_edit, self.end_edit
        )
        row.addWidget(self.reload_button)
        row.addStretch(1)
        return row

    def _build_list(self) -> QWidget:
        box = QGroupBox(self.tr("Batches"), self)
        view = row_table(box, self.batches_model, "charge-batches-list", alternating=False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(True)
        view.doubleClicked.connect(self._open_index)
        self.batches_view = view
        self.open_button = QPushButton(self.tr("Open batch"), box)
        self.open_button.clicked.connect(self._open_clicked)
        view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        layout = QVBoxLayout(box)
        layout.addWidget(view, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        layout.addLayout(buttons)
        return box

    def _build_members(self) -> QWidget:
        box = QGroupBox(self.tr("Charges of the batch"), self)
        self.opened_label = QLabel(self.tr("Open a batch to see its charges."), box)
        self.opened_label.setObjectName("charge-batches-opened")
        self.opened_label.setWordWrap(True)
        self.members_view = member_table(box, self.members_proxy)
        self.members_view.setObjectName("charge-batches-members")
        self.members_view.selectionModel().selectionChanged.connect(
            lambda *_: self._member_selected()
        )
        self.refused_only_check = QCheckBox(self.tr("Only refused charges"), box)
        self.refused_only_check.toggled.connect(self.members_proxy.set_errors_only)

        self.amount_check = QCheckBox(self.tr("New amount"), box)
        self.amount_edit = MoneyEdit(box)
        self.amount_edit.setObjectName("charge-batches-amount")
        self.due_check = QCheckBox(self.tr("New due date"), box)
        self.due_edit = date_edit(box, name="charge-batches-due-date")
        self.amount_check.toggled.connect(self.amount_edit.setEnabled)
        self.due_check.toggled.connect(self.due_edit.setEnabled)
        self.amount_edit.setEnabled(False)
        self.due_edit.setEnabled(False)
        self.revise_button = QPushButton(self.tr("Revise selected charge"), box)
        self.revise_button.setObjectName("charge-batches-revise")
        self.revise_button.clicked.connect(self._revise_clicked)
        for signal in (self.amount_check.toggled, self.due_check.toggled):
            signal.connect(lambda *_: self._update_buttons())
        self.amount_edit.value_changed.connect(lambda *_: self._update_buttons())

        revise = QHBoxLayout()
        revise.addWidget(self.amount_check)
        revise.addWidget(self.amount_edit)
        revise.addWidget(self.due_check)
        revise.addWidget(self.due_edit)
        revise.addWidget(self.revise_button)
        revise.addStretch(1)
        revise.addWidget(self.refused_only_check)
        layout = QVBoxLayout(box)
        layout.addWidget(self.opened_label)
        layout.addWidget(self.members_view, 1)
        layout.addLayout(revise)
        return box

    # -- the list --------------------------------------------------------------------------------

    def date_range(self) -> tuple[dt.date, dt.date]:
        return date_span(self.start_edit, self.end_edit)

    async def reload(self) -> None:
        """The batches created in the chosen range (every page)."""
        start, end = self.date_range()

        async def read() -> list[BatchSummary]:
            batches = self.workspace.charges.iter_batches(start=start, end=end, page_size=PAGE_SIZE)
            return [summary_of(b) async for b in batches]

        summaries = await run_operation(read(), controls=[self.reload_button], banner=self.banner)
        if summaries is None:
            return
        self.batches_model.set_batches(summaries)
        if self.opened is not None:
            row = self.batches_model.row_of(self.opened.batch_id)
            if row is not None:
                self.batches_view.selectRow(row)
        self._update_buttons()

    def selected_batch(self) -> BatchSummary | None:
        rows = self.batches_view.selectionModel().selectedRows()
        return self.batches_model.batch(rows[0].row()) if rows else None

    def _open_index(self, index: QModelIndex) -> None:
        spawn_for(self, self.open_batch(self.batches_model.batch(index.row()).batch_id))

    def _open_clicked(self) -> None:
        batch = self.selected_batch()
        if batch is not None:
            spawn_for(self, self.open_batch(batch.batch_id))

    async def open_batch(self, batch_id: str) -> BatchStatus | None:
        """Each member's status and ``problema`` (``GET /lotecobv/{id}``), with its charge's
        due date, debtor and text (the batch's charges, ``GET /cobv?loteCobVId=``)."""
        status = await run_operation(
            self._read_batch(batch_id), controls=[self.open_button], banner=self.banner
        )
        if status is None:
            return None
        return status

    async def _read_batch(self, batch_id: str) -> BatchStatus:
        charges = self.workspace.charges
        status: BatchStatus = await charges.batch_status(batch_id)
        created = status.created_at.astimezone(BRASILIA).date() if status.created_at else None
        start = min(created or self.date_range()[0], charges.today())
        cobvs = charges.iter_cobvs(
            start=start, end=charges.today(), batch_id=batch_id, page_size=PAGE_SIZE
        )
        by_txid = {c.txid: c async for c in cobvs}
        self._show_batch(status, by_txid)
        return status

    def _show_batch(self, status: BatchStatus, charges: dict[str, CobVCompleta]) -> None:
        lines = self._lines.get(status.batch_id, {})
        rows = [
            r if r.line is not None else replace(r, line=lines.get(r.txid))
            for r in members_of(status, charges)
        ]
        self.opened = status
        selected = self.selected_member()
        self.members_model.set_members(rows)
        self.opened_label.setText(outcome_text(self, status))
        if selected is not None:
            self.select_member(selected.txid)
        self._update_buttons()

    # -- revising --------------------------------------------------------------------------------

    def selected_member(self) -> MemberRow | None:
        rows = self.members_view.selectionModel().selectedRows()
        return self.members_proxy.member(rows[0].row()) if rows else None

    def select_member(self, txid: str) -> bool:
        row = self.members_model.row_of(txid)
        if row is None:
            return False
        self.members_view.selectRow(
            self.members_proxy.mapFromSource(self.members_model.index(row, 0)).row()
        )
        return True

    def _member_selected(self) -> None:
        member = self.selected_member()
        if member is not None:
            if member.amount is not None:
                self.amount_edit.set_value(member.amount)
            if member.due_date is not None:
                self.due_edit.setDate(to_qdate(member.due_date))
        self._update_buttons()

    def _revise_clicked(self) -> None:
        member = self.selected_member()
        if member is None:
            return
        amount = self.amount_edit.value() if self.amount_check.isChecked() else None
        due = to_date(self.due_edit.date()) if self.due_check.isChecked() else None
        spawn_for(self, self.revise(member.txid, amount=amount, due_date=due))

    async def revise(
        self, txid: str, *, amount: Decimal | None = None, due_date: dt.date | None = None
    ) -> BatchStatus | None:
        """``PATCH /lotecobv/{id}`` for one member of the opened batch, then read the batch
        again to show what the bank now has."""
        if self.opened is None:
            return None
        batch_id = self.opened.batch_id
        revised = await run_operation(
            self.workspace.charges.revise_batch(
                batch_id, [BatchRevision(txid, amount=amount, due_date=due_date)]
            ),
            controls=[self.revise_button],
            banner=self.banner,
            changes_ledger=True,
            fields={"original": self.amount_edit, "dataDeVencimento": self.due_edit},
        )
        if revised is None:
            return None
        return await self.open_batch(batch_id)

    def _update_buttons(self) -> None:
        self.open_button.setEnabled(self.selected_batch() is not None)
        member = self.selected_member()
        wants = self.amount_check.isChecked() or self.due_check.isChecked()
        amount_ok = not self.amount_check.isChecked() or self.amount_edit.value() is not None
        self.revise_button.setEnabled(member is not None and wants and amount_ok)

    # -- importing -------------------------------------------------------------------------------

    def _import_clicked(self) -> None:
        if self.import_task is None or self.import_task.done():
            self.import_task = spawn_for(self, self.import_csv(), name="charge-batch-import")

    async def import_csv(self) -> int:
        """Open the import dialog; once a batch is sent, the list shows it and it is opened."""
        dialog = ChargeBatchDialog(self.workspace, self)
        self.dialog = dialog
        dialog.batch_sent.connect(lambda batch_id: self._sent(dialog, batch_id))
        return await ask(dialog)

    def _sent(self, dialog: ChargeBatchDialog, batch_id: str) -> None:
        if dialog.status is not None:  # the file's line of each member, known in this session
            self._lines[batch_id] = {
                m.txid: m.line for m in dialog.status.members if m.line is not None
            }
        self.sent_task = spawn_for(self, self._show_sent(batch_id))

    async def _show_sent(self, batch_id: str) -> None:
        await self.reload()
        await self.open_batch(batch_id)
