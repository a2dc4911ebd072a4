"""Payload locations: ``loc`` (the QR Code address of a future cob or cobv) or ``locrec`` (that
of a recurrence), created, listed for a date range, and unlinked from their charge or
recurrence after a confirmation. One panel for both: ``kind="cob"`` or ``kind="rec"``.

Both lists go through their service (``ChargesService.iter_locations``, ``GET /loc``;
``RecurrencesService.iter_locrecs``, ``GET /locrec``).
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Literal

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.models.rows_model import RowsTableModel
from treasury_app.ui.operation import run_operation
from treasury_app.ui.times import instant_or_empty
from treasury_app.ui.widgets.date_edits import add_date_range, date_edit, date_span
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import row_table

__all__ = ["DEFAULT_DAYS", "Location", "LocationsModel", "LocationsPanel"]

DEFAULT_DAYS = 7
PAGE_SIZE = 1000
Kind = Literal["cob", "rec"]


@dataclass(frozen=True)
class Location:
    """A ``loc`` or a ``locrec`` as the list shows it. ``linked`` is the txid (loc) or the
    idRec (locrec) using it, if any; ``tipo_cob`` is a loc's cob or cobv."""

    id: int
    location: str
    created_at: dt.datetime | None
    linked: str | None = None
    tipo_cob: str | None = None

    @classmethod
    def of(cls, answer: Any) -> Location:
        """From a ``PayloadLocation*`` (has ``txid``) or a ``LocRec`` (has ``id_rec``)."""
        tipo = getattr(answer, "tipo_cob", None)
        return cls(
            id=answer.id,
            location=answer.location or "",
            created_at=answer.criacao,
            linked=getattr(answer, "txid", None) or getattr(answer, "id_rec", None),
            tipo_cob=None if tipo is None else str(getattr(tipo, "value", tipo)),
        )


class LocColumn(IntEnum):
    ID = 0
    LOCATION = 1
    TIPO_COB = 2  # the loc list only
    LINKED = 3
    CREATED = 4


class LocationsModel(RowsTableModel[Location]):
    """Locations, newest first; a loc list shows tipoCob and the txid, a locrec list the idRec."""

    def __init__(self, kind: Kind, parent: QObject | None = None) -> None:
        self.kind = kind  # before the headers, which depend on it
        super().__init__(parent)

    def headers(self) -> dict[LocColumn, str]:
        cob = self.kind == "cob"
        names = {
            LocColumn.ID: self.tr("Id"),
            LocColumn.LOCATION: self.tr("Location"),
            LocColumn.TIPO_COB: self.tr("tipoCob"),
            LocColumn.LINKED: self.tr("txid") if cob else self.tr("idRec"),
            LocColumn.CREATED: self.tr("Created"),
        }
        return {c: title for c, title in names.items() if cob or c != LocColumn.TIPO_COB}

    def key(self, row: Location) -> int:
        return row.id

    @property
    def locations(self) -> tuple[Location, ...]:
        return tuple(self._rows)

    def location(self, row: int) -> Location:
        return self.row_at(row)

    def set_locations(self, locations: Sequence[Location]) -> None:
        self.reset_rows(sorted(locations, key=lambda loc: loc.id, reverse=True))

    def text(self, location: Location, column: LocColumn) -> str:
        if column == LocColumn.ID:
            return str(location.id)
        if column == LocColumn.LOCATION:
            return location.location
        if column == LocColumn.TIPO_COB:
            return location.tipo_cob or ""
        if column == LocColumn.LINKED:
            return location.linked or "—"
        return instant_or_empty(location.created_at)

    def role_data(self, location: Location, column: LocColumn, role: int) -> Any:
        if role == Qt.ItemDataRole.ToolTipRole and column == LocColumn.LOCATION:
            return location.location
        return None


class LocationsPanel(QWidget):
    """Create, list and unlink payload locations. The tab spawns :meth:`reload`; tests await
    :meth:`reload`, :meth:`create_location` and :meth:`unlink_selected` and answer
    :attr:`confirm_box` (the unlink confirmation, opened with ``ask()``)."""

    def __init__(self, workspace: Any, kind: Kind = "cob", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        if kind not in ("cob", "rec"):
            raise ValueError(f"kind is 'cob' or 'rec', not {kind!r}")
        self.workspace = workspace
        self.kind: Kind = kind
        self.confirm_box: QMessageBox | None = None
        self.unlink_task: asyncio.Task[Any] | None = None
        self.setObjectName(f"locations-{kind}")
        self.banner = ErrorBanner(self)
        self.model = LocationsModel(kind, self)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_toolbar())
        layout.addWidget(self._build_view(), 1)
        buttons = QHBoxLayout()
        self.status_label = QLabel(self)
        self.status_label.setObjectName("locations-status")
        self.status_label.setWordWrap(True)
        self.unlink_button = QPushButton(
            self.tr("Unlink from its charge…")
            if kind == "cob"
            else self.tr("Unlink from its recurrence…"),
            self,
        )
        self.unlink_button.setObjectName("locations-unlink")
        self.unlink_button.clicked.connect(self._unlink_clicked)
        buttons.addWidget(self.status_label, 1)
        buttons.addWidget(self.unlink_button)
        layout.addLayout(buttons)
        self._update_buttons()

    # -- building --------------------------------------------------------------------------------

    def _build_toolbar(self) -> QHBoxLayout:
        row = QHBoxLayout()
        self.tipo_combo: QComboBox | None = None
        if self.kind == "cob":
            self.tipo_combo = QComboBox(self)
            self.tipo_combo.setObjectName("locations-tipo-cob")
            self.tipo_combo.addItem(self.tr("Immediate charge (cob)"), "cob")
            self.tipo_combo.addItem(self.tr("Charge with a due date (cobv)"), "cobv")
            row.addWidget(self.tipo_combo)
        self.create_button = QPushButton(self.tr("Create location"), self)
        self.create_button.setObjectName("locations-create")
        self.create_button.clicked.connect(lambda: spawn_for(self, self.create_location()))
        row.addWidget(self.create_button)
        row.addSpacing(16)
        today = self.workspace.charges.today()  # the bank's date (the clock only: no request)
        self.start_edit = date_edit(self, today - dt.timedelta(days=DEFAULT_DAYS))
        self.end_edit = date_edit(self, today)
        self.reload_button = QPushButton(self.tr("Refresh"), self)
        self.reload_button.clicked.connect(lambda: spawn_for(self, self.reload()))
        add_date_range(
            row, self, self.tr("Created from"), self.tr("to"), self.start_edit, self.end_edit
        )
        row.addWidget(self.reload_button)
        row.addStretch(1)
        return row

    def _build_view(self) -> QTableView:
        view = row_table(self, self.model, "locations-list", alternating=False)
        header = view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(
            self.model.column_of(LocColumn.LOCATION), QHeaderView.ResizeMode.Stretch
        )
        view.selectionModel().selectionChanged.connect(lambda *_: self._update_buttons())
        self.view = view
        return view

    # -- reading ---------------------------------------------------------------------------------

    def date_range(self) -> tuple[dt.date, dt.date]:
        return date_span(self.start_edit, self.end_edit)

    def _iterate(self, start: dt.date, end: dt.date) -> AsyncIterator[Any]:
        if self.kind == "rec":
            locrecs: AsyncIterator[Any] = self.workspace.recurrences.iter_locrecs(
                start=start, end=end, page_size=PAGE_SIZE
            )
            return locrecs
        locs: AsyncIterator[Any] = self.workspace.charges.iter_locations(
            start=start, end=end, page_size=PAGE_SIZE
        )  # raises for a reversed range: nothing sent
        return locs

    async def reload(self) -> None:
        """The locations created in the chosen range (every page)."""
        start, end = self.date_range()

        async def read() -> list[Location]:
            return [Location.of(answer) async for answer in self._iterate(start, end)]

        locations = await run_operation(read(), controls=[self.reload_button], banner=self.banner)
        if locations is None:
            return
        selected = self.selected()
        self.model.set_locations(locations)
        if selected is not None:
            self.select(selected.id)
        self._update_buttons()

    # -- acting ----------------------------------------------------------------------------------

    async def create_location(self) -> Location | None:
        """``POST /loc`` (of the chosen tipoCob) or ``POST /locrec``; the new one is selected."""
        if self.kind == "rec":
            work = self.workspace.recurrences.create_locrec()
        else:
            assert self.tipo_combo is not None
            work = self.workspace.charges.create_location(self.tipo_combo.currentData())
        answer = await run_operation(work, controls=[self.create_button], banner=self.banner)
        if answer is None:
            return None
        location = Location.of(answer)
        self.model.upsert(location)
        self.select(location.id)
        self.status_label.setText(
            self.tr("Location %1 created: %2")
            .replace("%1", str(location.id))
            .replace("%2", location.location)
        )
        return location

    def selected(self) -> Location | None:
        rows = self.view.selectionModel().selectedRows()
        return self.model.location(rows[0].row()) if rows else None

    def select(self, location_id: int) -> bool:
        row = self.model.row_of(location_id)
        if row is None:
            return False
        self.view.selectRow(row)
        return True

    def _unlink_clicked(self) -> None:
        if self.unlink_task is None or self.unlink_task.done():
            self.unlink_task = spawn_for(self, self.unlink_selected())

    async def unlink_selected(self) -> Location | None:
        """Ask, then ``DELETE /loc/{id}/txid`` or ``DELETE /locrec/{id}/idRec``; the row then
        shows the location as the bank has it (``GET``)."""
        location = self.selected()
        if location is None:
            return None
        if not await self._confirm(location):
            return None
        if self.kind == "rec":
            recurrences = self.workspace.recurrences

            async def unlink() -> Any:
                await recurrences.unlink_locrec(location.id)
                return await recurrences.get_locrec(location.id)
        else:
            charges = self.workspace.charges

            async def unlink() -> Any:
                await charges.unlink_location(location.id)
                return await charges.get_location(location.id)

        answer = await run_operation(
            unlink(), controls=[self.unlink_button], banner=self.banner, changes_ledger=True
        )
        if answer is None:
            return None
        updated = Location.of(answer)
        self.model.upsert(updated)
        self.status_label.setText(self.tr("Location %1 unlinked.").replace("%1", str(updated.id)))
        self._update_buttons()
        return updated

    async def _confirm(self, location: Location) -> bool:
        if self.kind == "rec":
            text = self.tr(
                "Unlink location %1 from recurrence %2? The recurrence keeps its status but "
                "loses this QR Code address."
            )
        else:
            text = self.tr(
                "Unlink location %1 from charge %2? The charge loses this QR Code address: a QR "
                "Code already printed with it stops working."
            )
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Unlink the location"),
            text.replace("%1", str(location.id)).replace("%2", location.linked or "—"),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        self.confirm_box = box
        try:
            await ask(box)
            return box.clickedButton() is box.button(QMessageBox.StandardButton.Yes)
        finally:
            self.confirm_box = None
            dispose(box)

    def _update_buttons(self) -> None:
        self.unlink_button.setEnabled(self.selected() is not None)
