"""The list of recurrences (Pix Automático ``rec``) the bank has, with the filters of
``GET /rec`` (creation dates, debtor's CPF or CNPJ, status, convenio, with or without a
location) and a quick text filter; a double-click or "Details…" opens the recurrence.

On a team database the list follows the bank's notifications (through the team's webhook
receiver): a recurrence or one of its recurring charges notified refreshes its row and its
open detail, with no polling."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.automatico_models import RecCompleta, RecStatus
from treasury_app.services.recurrences import RecurrenceInputError
from treasury_app.services.refresh_queue import RefreshQueue
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.recurrence_detail_dialog import RecurrenceDetailDialog
from treasury_app.ui.live_reload import BankEventsFeed
from treasury_app.ui.models.recurrences_model import (
    Column,
    RecQuery,
    RecurrencesFilter,
    RecurrencesModel,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.widgets.date_edits import add_date_range, date_edit, date_span
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import current_value, row_table, search_box, select_row

if TYPE_CHECKING:
    from treasury_app.services.notifications import BankChanges

__all__ = ["DEFAULT_DAYS", "RecurrencesList"]

DEFAULT_DAYS = 90
"""How far back the list looks by default (recurrences created in the last 90 days)."""


class RecurrencesList(QWidget):
    """Recurrences of the bank. Nothing is read in ``__init__``: the tab spawns
    :meth:`reload`. :attr:`detail_dialog` is the last detail opened, :attr:`detail_task` the
    task showing it (tests await :meth:`open_details` directly)."""

    bank_changes = Signal(object)  # BankChanges: what the team's receiver applied

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.service = workspace.recurrences
        self.detail_dialog: RecurrenceDetailDialog | None = None
        self.detail_task: asyncio.Task[Any] | None = None
        self.reload_task: asyncio.Task[Any] | None = None
        self.event_task: asyncio.Task[Any] | None = None  # reading bank_reads, when any wait
        self.bank_reads = RefreshQueue()
        self.loaded = False

        self.banner = ErrorBanner(self)
        self.model = RecurrencesModel(self)
        self.proxy = RecurrencesFilter(self)
        self.proxy.setSourceModel(self.model)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("recs-count")
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_filters())
        layout.addLayout(self._build_second_row())
        layout.addWidget(self._build_view(), 1)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._update_buttons())
        self.bank_changes.connect(self._bank_changes)
        self._events = BankEventsFeed(workspace.session, self.bank_changes.emit)
        self._update_buttons()

    # -- building --------------------------------------------------------------------------------

    def _build_filters(self) -> QHBoxLayout:
        today = self.service.today()  # the bank's date (the sandbox's clock): no request
        self.start_edit = date_edit(self, today - dt.timedelta(days=DEFAULT_DAYS), "recs-start")
        self.end_edit = date_edit(self, today, "recs-end")
        self.status_combo = QComboBox(self)
        self.status_combo.setObjectName("recs-status")
        self.status_combo.addItem(self.tr("Any status"), None)
        for status in RecStatus:
            self.status_combo.addItem(code_word(Family.REC_STATUS, status), status.value)
        self.document_edit = QLineEdit(self)
        self.document_edit.setObjectName("recs-document")
        self.document_edit.setPlaceholderText(self.tr("Debtor's CPF or CNPJ"))
        self.convenio_edit = QLineEdit(self)
        self.convenio_edit.setObjectName("recs-convenio")
        self.convenio_edit.setPlaceholderText(self.tr("Convenio"))
        self.location_combo = QComboBox(self)
        self.location_combo.setObjectName("recs-location")
        self.location_combo.addItem(self.tr("With or without location"), None)
        self.location_combo.addItem(self.tr("With a location"), True)
        self.location_combo.addItem(self.tr("Without a location"), False)
        self.reload_button = QPushButton(self.tr("Search"), self)
        self.reload_button.setObjectName("recs-reload")
        self.reload_button.clicked.connect(self._reload_clicked)
        for edit in (self.document_edit, self.convenio_edit):
            edit.returnPressed.connect(self._reload_clicked)
        row = QHBoxLayout()
        add_date_range(
            row, self, self.tr("Created from"), self.tr("to"), self.start_edit, self.end_edit
        )
        row.addWidget(self.status_combo)
        row.addWidget(self.document_edit)
        row.addWidget(self.convenio_edit)
        row.addWidget(self.location_combo)
        row.addWidget(self.reload_button)
        return row

    def _build_second_row(self) -> QHBoxLayout:
        self.search_edit = search_box(
            self, "recs-search", self.tr("Find in idRec, debtor or contract"), self.proxy.set_text
        )
        self.details_button = QPushButton(self.tr("Details…"), self)
        self.details_button.setObjectName("recs-details")
        self.details_button.clicked.connect(self._details_clicked)
        row = QHBoxLayout()
        row.addWidget(self.search_edit, 1)
        row.addWidget(self.count_label)
        row.addWidget(self.details_button)
        return row

    def _build_view(self) -> QTableView:
        self.view = row_table(self, self.proxy, "recs-list", stretch=Column.DEBTOR)
        self.view.setSortingEnabled(True)
        self.view.doubleClicked.connect(self._double_clicked)
        return self.view

    # -- loading ---------------------------------------------------------------------------------

    def query(self) -> RecQuery:
        """The filters as the form shows them (checked by the service when the list loads)."""
        start, end = date_span(self.start_edit, self.end_edit)
        document = self.document_edit.text().strip()
        convenio = self.convenio_edit.text().strip()
        return RecQuery(
            start=start,
            end=end,
            status=self.status_combo.currentData(),
            document=document or None,
            convenio=convenio or None,
            location_present=self.location_combo.currentData(),
        )

    async def _fetch(self, query: RecQuery) -> list[RecCompleta]:
        recs = [rec async for rec in self.service.iter_recs(**query.as_kwargs())]
        recs.sort(key=_created, reverse=True)
        return recs

    async def reload(self) -> None:
        """Ask the bank for the recurrences the filters select, keeping the selection."""
        selected = self.selected_rec()
        fields: dict[str, QWidget] = {
            "cpf_cnpj": self.document_edit,
            "cpf": self.document_edit,
            "cnpj": self.document_edit,
            "fim": self.end_edit,
            "inicio": self.start_edit,
            "status": self.status_combo,
            "convenio": self.convenio_edit,
        }
        try:
            query = self.query()
            work = self._fetch(query)
        except RecurrenceInputError as error:  # pragma: no cover - the query is built here
            self.banner.show_error(error, fields)
            return
        recs = await run_operation(
            work, controls=[self.reload_button], banner=self.banner, fields=fields
        )
        if recs is None:  # closed meanwhile (a lock)
            return
        self.model.set_recs(recs)
        self.loaded = True
        self.count_label.setText(self.tr("Recurrences: %1").replace("%1", str(len(recs))))
        if selected is not None:
            self.select(selected.id_rec)
        self._update_buttons()

    def _reload_clicked(self) -> None:
        if self.reload_task is None or self.reload_task.done():
            self.reload_task = spawn_for(self, self.reload(), name="recs-reload")

    # -- selection and detail --------------------------------------------------------------------

    def selected_rec(self) -> RecCompleta | None:
        return current_value(self.view, self.proxy.rec)

    def select(self, id_rec: str) -> bool:
        """Select the recurrence ``id_rec`` if the list shows it."""
        return select_row(self.view, self.proxy.row_of(id_rec))

    def shown_ids(self) -> list[str]:
        """The idRec of every row the list shows, in order."""
        return [rec.id_rec for row in range(self.proxy.rowCount()) if (rec := self.proxy.rec(row))]

    def _update_buttons(self) -> None:
        self.details_button.setEnabled(self.selected_rec() is not None)

    def _double_clicked(self, index: QModelIndex) -> None:
        rec = self.proxy.rec(index.row())
        if rec is not None:
            self._show(rec.id_rec)

    def _details_clicked(self) -> None:
        rec = self.selected_rec()
        if rec is not None:
            self._show(rec.id_rec)

    def _show(self, id_rec: str) -> None:
        if self.detail_task is not None and not self.detail_task.done():
            if self.detail_dialog is not None:
                self.detail_dialog.raise_()
            return
        self.detail_task = spawn_for(self, self.open_details(id_rec), name="rec-detail")

    async def open_details(self, id_rec: str) -> RecurrenceDetailDialog:
        """Show the detail of ``id_rec`` (non-modal) and load it; its changes update the row."""
        dialog = RecurrenceDetailDialog(self.workspace, id_rec, self)
        dialog.changed.connect(self.model.upsert)
        self.detail_dialog = dialog
        dialog.show()
        await dialog.reload()
        return dialog

    # -- the bank's notifications (team database) -------------------------------------------

    def _bank_changes(self, changes: BankChanges) -> None:
        if changes.everything:  # the link to the database was lost: what changed is unknown
            if self.loaded:
                self._reload_clicked()
            return
        wanted = [id_rec for id_rec in sorted(changes.recurrences) if self._shows(id_rec)]
        if wanted:
            self.bank_reads.add(wanted)
            if self.event_task is None or self.event_task.done():
                self.event_task = spawn_for(
                    self, self.follow_bank_changes(), name="recs-bank-changes"
                )

    def _shows(self, id_rec: str) -> bool:
        """Whether ``id_rec`` is in the list or in the detail open."""
        dialog = self.detail_dialog
        return self.model.row_of(id_rec) is not None or (
            dialog is not None and shiboken6.isValid(dialog) and dialog.id_rec == id_rec
        )

    async def follow_bank_changes(self) -> list[str]:
        """Read again from the bank the recurrences the receiver wrote a state for, or one of
        whose recurring charges it did (:attr:`bank_reads`: each once however often it was
        named, paced): their rows, and their detail if open. The idRecs refreshed."""
        refreshed: list[str] = []
        while (id_rec := await self.bank_reads.next()) is not None:
            dialog = self.detail_dialog
            shows_it = dialog is not None and shiboken6.isValid(dialog) and dialog.id_rec == id_rec
            if shows_it and dialog is not None and dialog.isVisible():
                # The dialog's own task: it may close meanwhile, this list goes on.
                await asyncio.wait([spawn_for(dialog, dialog.reload(), name="rec-reload")])
            if self.model.row_of(id_rec) is None:
                continue
            rec = await run_operation(self.service.get_rec(id_rec), banner=self.banner)
            if rec is not None:
                self.model.upsert(rec)
                self._update_buttons()
                refreshed.append(id_rec)
        return refreshed

    def shutdown(self) -> None:
        """Cancel what is on its way and close the open detail."""
        self._events.close()
        for task in (self.reload_task, self.detail_task, self.event_task):
            if task is not None and not task.done():
                task.cancel()
        if self.detail_dialog is not None and shiboken6.isValid(self.detail_dialog):
            self.detail_dialog.close_now()


def _created(rec: RecCompleta) -> dt.datetime:
    return min((a.data for a in rec.atualizacao), default=dt.datetime.min.replace(tzinfo=dt.UTC))
