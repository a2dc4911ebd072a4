"""The base of the lists of what the bank holds for a date range (charges, received Pix): the
range pickers with Reload, a live reload that keeps the selection and never lets an older
answer overwrite a newer one, and rows changed here kept over a reload already on its way."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from typing import Any, ClassVar, Generic, TypeVar

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTableView, QWidget

from treasury_app.services.workspace import Workspace
from treasury_app.ui.live_reload import LiveReload
from treasury_app.ui.models.rows_model import RowsFilter, RowsTableModel
from treasury_app.ui.operation import run_operation
from treasury_app.ui.widgets.date_edits import add_date_range, date_edit, date_span, set_date_span
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import current_value, row_table, select_row

__all__ = ["RangeList"]

R = TypeVar("R")


class RangeList(QWidget, Generic[R]):
    """Rows of a date range (by default the last :attr:`default_days` days up to the bank's
    today), read with :meth:`load` and shown with :meth:`show_loaded` by :meth:`reload`.

    A subclass sets :attr:`model` and :attr:`proxy` before calling :meth:`build_range` and
    :meth:`build_view`; its widgets are named after :attr:`prefix` (``{prefix}-start``…)."""

    prefix: ClassVar[str]
    default_days: ClassVar[int] = 7
    model: RowsTableModel[R]
    proxy: RowsFilter[R]

    def __init__(self, workspace: Workspace, reload_name: str, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.task: asyncio.Task[Any] | None = None
        self._generation = 0
        # Rows changed here while a reload was on its way (by key): newer than what it brings.
        self._changed: dict[Any, Any] = {}
        self.banner = ErrorBanner(self)
        self.live = LiveReload(self, self.reload, name=reload_name)

    # -- building --------------------------------------------------------------------------------

    def build_range(self, label: str) -> QHBoxLayout:
        """``label`` [start] to [end] [Reload]; the caller adds what follows."""
        today = self.workspace.charges.today()
        start = today - dt.timedelta(days=self.default_days)
        self.start_edit = date_edit(self, start, f"{self.prefix}-start")
        self.end_edit = date_edit(self, today, f"{self.prefix}-end")
        self.reload_button = QPushButton(self.tr("Reload"), self)
        self.reload_button.setObjectName(f"{self.prefix}-reload")
        self.reload_button.clicked.connect(self.live.now)
        self.count_label = QLabel(self)
        self.count_label.setObjectName(f"{self.prefix}-count")
        row = QHBoxLayout()
        add_date_range(row, self, label, self.tr("to"), self.start_edit, self.end_edit)
        row.addWidget(self.reload_button)
        return row

    def build_view(self, stretch: int, newest_first: int) -> QTableView:
        """The table, sorted by the column ``newest_first`` descending."""
        self.view = row_table(self, self.proxy, f"{self.prefix}-list", stretch=stretch)
        self.view.setSortingEnabled(True)
        self.view.sortByColumn(newest_first, Qt.SortOrder.DescendingOrder)
        return self.view

    # -- loading ---------------------------------------------------------------------------------

    def date_range(self) -> tuple[dt.date, dt.date]:
        return date_span(self.start_edit, self.end_edit)

    def set_date_range(self, start: dt.date, end: dt.date) -> None:
        set_date_span(self.start_edit, self.end_edit, start, end)

    def load(self, start: dt.date, end: dt.date) -> Awaitable[Any]:
        """The bank's rows of ``[start, end]`` (whole days in Brasília)."""
        raise NotImplementedError

    def show_loaded(self, loaded: Any) -> None:
        """Show what :meth:`load` read, with the rows of :attr:`_changed` over their old ones."""
        raise NotImplementedError

    async def reload(self) -> bool:
        """Read the range's rows from the bank, keeping the selected one; ``False`` when that
        failed (banner) or a newer reload overtook this one."""
        self.live.started()
        self._generation += 1
        generation = self._generation
        self._changed.clear()
        start, end = self.date_range()
        loaded = await run_operation(
            self.load(start, end), controls=[self.reload_button], banner=self.banner
        )
        if loaded is None or generation != self._generation:
            return False
        selected = self.selected_row()
        self.show_loaded(loaded)
        if selected is not None:
            self.select_key(self.model.key(selected))
        self._update_buttons()
        return True

    def changed_here(self, row: R) -> None:
        """Show a row as changed here at once (no request), also over a reload that started
        before the change."""
        self._changed[self.model.key(row)] = row
        self.model.upsert(row)

    @property
    def reload_task(self) -> asyncio.Task[Any] | None:
        """The reload on its way (started by a change elsewhere or the Reload button)."""
        return self.live.task

    def running(self) -> list[asyncio.Task[Any] | None]:
        """What :meth:`shutdown` cancels."""
        return [self.task, self.reload_task]

    def shutdown(self) -> None:
        """Stop listening and cancel what is on its way."""
        self.live.stop()
        for task in self.running():
            if task is not None and not task.done():
                task.cancel()

    # -- selection -------------------------------------------------------------------------------

    def selected_row(self) -> R | None:
        return current_value(self.view, self.proxy.row_value)

    def select_key(self, key: Any) -> bool:
        """Select the row of ``key`` if the filters show it."""
        return select_row(self.view, self.proxy.row_of(key))

    def show_count(self, all_shown: str, some_shown: str) -> None:
        """How many rows the filters show (``%1``) of how many were read (``%2``)."""
        shown, total = self.proxy.rowCount(), self.model.rowCount()
        text = all_shown if shown == total else some_shown
        self.count_label.setText(text.replace("%1", str(shown)).replace("%2", str(total)))

    def _update_buttons(self, *_args: object) -> None:
        raise NotImplementedError
