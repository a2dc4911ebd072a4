"""The "Calendar" tab: the next 13 weeks, a day a cell, with what leaves and what is expected
to come in and the projected balance (tinted when below zero or below the person's threshold,
which is kept per profile); a day opens its list, where a scheduled payment can be moved or
cancelled (an occurrence of a series not journaled yet, *planned*, is shown set apart and
changed only through its series: Edit series…, End series…); the calendar exports as CSV. In
the sandbox, buttons move the bank's clock (the app's follows) so that a newcomer can watch
scheduled payments come due.

The projection is computed by :class:`~treasury_app.services.calendar.CalendarService` off the
UI's thread; the tab only shows it (two small models: 13 × 7 cells, one day's items)."""

from __future__ import annotations

import asyncio
import datetime as dt
from decimal import Decimal, InvalidOperation
from functools import partial
from pathlib import Path
from typing import Any

from PySide6.QtCore import QModelIndex, QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import InstantForm, format_date, format_instant
from treasury_app.domain.money import format_brl
from treasury_app.services.calendar import (
    CalendarDay,
    CalendarService,
    ClockControl,
    Projection,
    SandboxClockControl,
    check_threshold,
    next_business_morning,
    with_threshold,
)
from treasury_app.services.exports import ExportFormat, amount_cell, date_cell
from treasury_app.ui.async_tools import ask, dispose, spawn_unless_busy
from treasury_app.ui.csv_files import export_choosing_format, saved_count, write_export
from treasury_app.ui.dialogs.series_dialog import ask_edit_series, ask_end_series
from treasury_app.ui.models.calendar_model import (
    DAY_ROLE,
    CalendarGridModel,
    DayItem,
    DayItemsModel,
    ItemColumn,
    day_items,
    warning_word,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.sandbox_actions import sandbox_button, simulated
from treasury_app.ui.widgets.calendar_cells import CalendarCellDelegate
from treasury_app.ui.widgets.date_edits import date_edit, to_date
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit
from treasury_app.ui.widgets.row_tables import row_table

__all__ = ["THRESHOLD_KEY", "CalendarTab", "MoveDialog"]

THRESHOLD_KEY = "calendar/threshold/{profile}"
"""Where the person's warning threshold is kept (QSettings), per profile."""


class MoveDialog(QDialog):
    """Pick the new pay date of a scheduled payment (a strict date field)."""

    def __init__(self, payee: str, day: dt.date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("calendar-move-dialog")
        self.setWindowTitle(self.tr("Move the payment"))
        self.date = date_edit(self, day, "calendar-move-date")
        form = QFormLayout(self)
        form.addRow(
            QLabel(
                self.tr("Payment to %1, due on %2.")
                .replace("%1", payee)
                .replace("%2", format_date(day)),
                self,
            )
        )
        form.addRow(self.tr("New pay date"), self.date)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def chosen(self) -> dt.date:
        return to_date(self.date.date())


class CalendarTab(QWidget):
    """The calendar of ``workspace``. ``service`` and ``clock_control`` are the workspace's
    unless given (tests give fakes); :attr:`task` is the load or action under way."""

    loaded = Signal(object)  # Projection

    def __init__(
        self,
        workspace: Any,
        parent: QWidget | None = None,
        *,
        service: CalendarService | None = None,
        clock_control: ClockControl | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("calendar-tab")
        self.workspace = workspace
        profile = workspace.session.profile
        self.profile_name: str = profile.name
        self.service = service or CalendarService.for_workspace(workspace)
        if clock_control is None and profile.environment == "sandbox":
            clock_control = SandboxClockControl(
                workspace.sandbox, workspace.clock, workspace.sync_clock
            )
        self.clock_control = clock_control
        self.projection: Projection | None = None
        self.task: asyncio.Task[Any] | None = None
        self.move_dialog: MoveDialog | None = None
        self.reason_dialog: QInputDialog | None = None
        self.series_dialog: QDialog | None = None
        self.export_dialog: QFileDialog | None = None

        self.banner = ErrorBanner(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_top())
        if self.clock_control is not None:
            layout.addLayout(self._build_clock())
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        splitter.addWidget(self._build_grid())
        splitter.addWidget(self._build_day())
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout.addWidget(splitter, 1)
        self._update_buttons()
        self.refresh()

    # -- building --------------------------------------------------------------------------------

    def _build_top(self) -> QHBoxLayout:
        self.balance_label = QLabel(self)
        self.balance_label.setObjectName("calendar-balance")
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("calendar-summary")
        self.threshold_edit = MoneyEdit(self)
        self.threshold_edit.setObjectName("calendar-threshold")
        self.threshold_edit.setPlaceholderText(self.tr("none"))
        self.threshold_edit.setToolTip(
            self.tr("A day whose projected balance falls below this amount is marked")
        )
        self.threshold_edit.set_value(self.saved_threshold())
        self.threshold_edit.editingFinished.connect(self._threshold_edited)
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.setObjectName("calendar-refresh")
        self.refresh_button.clicked.connect(self.refresh)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setObjectName("calendar-export")
        self.export_button.setToolTip(self.tr("Save the calendar's days as a CSV file"))
        self.export_button.clicked.connect(self._export_clicked)
        row = QHBoxLayout()
        row.addWidget(self.balance_label)
        row.addWidget(self.summary_label, 1)
        row.addWidget(QLabel(self.tr("Warn below"), self))
        row.addWidget(self.threshold_edit)
        row.addWidget(self.refresh_button)
        row.addWidget(self.export_button)
        return row

    def _build_clock(self) -> QHBoxLayout:
        self.clock_label = QLabel(self)
        self.clock_label.setObjectName("calendar-clock")
        tip = self.tr(
            "Sandbox only: move the sandbox bank's clock (and the app's) to watch scheduled "
            "payments come due."
        )
        self.clock_buttons = [
            sandbox_button(
                self,
                self.tr("+1 hour"),
                "calendar-clock-hour",
                tip,
                lambda: self._clock_clicked(dt.timedelta(hours=1)),
            ),
            sandbox_button(
                self,
                self.tr("+1 day"),
                "calendar-clock-day",
                tip,
                lambda: self._clock_clicked(dt.timedelta(days=1)),
            ),
            sandbox_button(
                self,
                self.tr("Next business day, 08:00"),
                "calendar-clock-morning",
                tip,
                lambda: self._clock_clicked(None),
            ),
        ]
        row = QHBoxLayout()
        row.addWidget(self.clock_label)
        for button in self.clock_buttons:
            row.addWidget(button)
        row.addStretch(1)
        self._show_clock()
        return row

    def _build_grid(self) -> QTableView:
        self.grid_model = CalendarGridModel(self)
        self.grid = QTableView(self)
        self.grid.setObjectName("calendar-grid")
        self.grid.setModel(self.grid_model)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setWordWrap(False)
        self.grid.setTextElideMode(Qt.TextElideMode.ElideNone)  # eliding 4 lines a cell: slow
        # Each line drawn as it is (the style's text layout per cell made the first paint late).
        self.grid.setItemDelegate(CalendarCellDelegate(self.grid))
        self.grid.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.grid.verticalHeader().setDefaultSectionSize(4 * self.fontMetrics().height() + 6)
        self.grid.selectionModel().currentChanged.connect(self._day_changed)
        return self.grid

    def _build_day(self) -> QWidget:
        box = QWidget(self)
        self.day_label = QLabel(box)
        self.day_label.setObjectName("calendar-day")
        self.day_label.setWordWrap(True)
        self.items_model = DayItemsModel(box)
        self.items = row_table(box, self.items_model, "calendar-items", stretch=ItemColumn.NAME)
        # The other columns as wide as their headers and texts (pt_BR's are longer), measured
        # on the first rows only.
        header = self.items.horizontalHeader()
        header.setResizeContentsPrecision(200)
        for column in ItemColumn:
            if column != ItemColumn.NAME:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.items.selectionModel().currentRowChanged.connect(self._update_buttons)
        self.move_button = QPushButton(self.tr("Move…"), box)
        self.move_button.setObjectName("calendar-move")
        self.move_button.clicked.connect(self._move_clicked)
        self.cancel_button = QPushButton(self.tr("Cancel payment…"), box)
        self.cancel_button.setObjectName("calendar-cancel")
        self.cancel_button.clicked.connect(self._cancel_clicked)
        self.series_edit_button = QPushButton(self.tr("Edit series…"), box)
        self.series_edit_button.setObjectName("calendar-series-edit")
        self.series_edit_button.clicked.connect(lambda: self._series_clicked(edit=True))
        self.series_end_button = QPushButton(self.tr("End series…"), box)
        self.series_end_button.setObjectName("calendar-series-end")
        self.series_end_button.clicked.connect(lambda: self._series_clicked(edit=False))
        actions = QHBoxLayout()
        actions.addStretch(1)
        actions.addWidget(self.move_button)
        actions.addWidget(self.cancel_button)
        actions.addWidget(self.series_edit_button)
        actions.addWidget(self.series_end_button)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.day_label)
        layout.addWidget(self.items, 1)
        layout.addLayout(actions)
        return box

    # -- the threshold (per profile) ---------------------------------------------------------------

    def _threshold_key(self) -> str:
        return THRESHOLD_KEY.format(profile=self.profile_name)

    def saved_threshold(self) -> Decimal | None:
        raw = QSettings().value(self._threshold_key())
        try:
            return check_threshold(Decimal(str(raw))) if raw not in (None, "") else None
        except (InvalidOperation, ValueError):
            return None

    def threshold(self) -> Decimal | None:
        return self.threshold_edit.value() if self.threshold_edit.is_valid() else None

    def set_threshold(self, value: Decimal | None) -> None:
        """Keep ``value`` for this profile and mark the days again."""
        value = check_threshold(value)
        QSettings().setValue(self._threshold_key(), "" if value is None else str(value))
        self.threshold_edit.set_value(value)
        if self.projection is not None:
            self.show_projection(with_threshold(self.projection, value))

    def _threshold_edited(self) -> None:
        if self.threshold_edit.is_valid() and self.threshold() != self.saved_threshold():
            try:
                self.set_threshold(self.threshold())
            except ValueError as error:
                self.banner.show_error(error)

    # -- loading ---------------------------------------------------------------------------------

    def refresh(self) -> None:
        """Read everything again (the Refresh menu and button)."""
        self._start(self.reload(), "calendar-load")

    async def reload(self) -> Projection | None:
        if self.clock_control is not None:  # moved in the sandbox's own console, perhaps
            await self.clock_control.sync()
        projection = await run_operation(
            self.service.load(self.threshold()),
            controls=[self.refresh_button],
            banner=self.banner,
        )
        if projection is not None:
            self.show_projection(projection)
        return projection

    def show_projection(self, projection: Projection) -> None:
        shown = self.selected_day()
        self.projection = projection
        self.grid_model.set_projection(projection)
        self.balance_label.setText(
            self.tr("Today's balance: %1").replace("%1", format_brl(projection.opening))
        )
        warned = len(projection.warned)
        summary = self.tr("%1 payment(s) and receipt(s) over 13 weeks").replace(
            "%1", str(projection.items)
        )
        if projection.planned:
            summary += " · " + self.tr("%1 of them planned in series").replace(
                "%1", str(projection.planned)
            )
        if warned:
            summary += " · " + self.tr("⚠ %1 day(s) below the line").replace("%1", str(warned))
        if projection.inflows_unavailable:
            summary += " · " + self.tr(
                "expected receipts unavailable (the bank's charges could not be read)"
            )
        self.summary_label.setText(summary)
        if shown is None:  # the first load: a day's list waits for a click (one paint less)
            self.day_label.setText(self.tr("Click a day to see its payments and receipts."))
        else:
            self.select_day(shown.day if projection.day(shown.day) else projection.today)
        if self.clock_control is not None:
            self._show_clock()
        self.loaded.emit(projection)

    # -- the day ---------------------------------------------------------------------------------

    def select_day(self, day: dt.date) -> bool:
        index = self.grid_model.index_of(day)
        if not index.isValid() or self.grid_model.day_at(index.row(), index.column()) is None:
            return False
        self.grid.setCurrentIndex(index)
        self._show_day(self.grid_model.day_at(index.row(), index.column()))
        return True

    def selected_day(self) -> CalendarDay | None:
        day: CalendarDay | None = self.grid.currentIndex().data(DAY_ROLE)
        return day

    def _day_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._show_day(current.data(DAY_ROLE))

    def _show_day(self, day: CalendarDay | None) -> None:
        self.items_model.reset_rows(day_items(day))
        if day is None:
            self.day_label.setText("")
        else:
            text = (
                self.tr("%1: out %2 · in %3 (counted %4) · projected balance %5")
                .replace("%1", format_date(day.day))
                .replace("%2", format_brl(day.out_total))
                .replace("%3", format_brl(day.in_total))
                .replace("%4", format_brl(day.in_weighted))
                .replace("%5", format_brl(day.balance))
            )
            if not day.business_day:
                text += " · " + self.tr("not a business day")
            warning = warning_word(
                day.warning, self.projection.threshold if self.projection else None
            )
            self.day_label.setText(f"{text} · ⚠ {warning}" if warning else text)
        self._update_buttons()

    def selected_item(self) -> DayItem | None:
        index = self.items.currentIndex()
        return self.items_model.row_or_none(index.row()) if index.isValid() else None

    def select_item(self, key: str) -> bool:
        row = self.items_model.row_of(key)
        if row is None:
            return False
        self.items.selectRow(row)
        return True

    def _update_buttons(self, *_args: object) -> None:
        item = self.selected_item()
        busy = self.task is not None and not self.task.done()
        outflow = item.outflow if item is not None else None
        planned = outflow is not None and outflow.planned
        # A planned occurrence is not a payment yet: its series is what changes it.
        movable = outflow is not None and not planned and not busy
        self.move_button.setEnabled(movable)
        self.cancel_button.setEnabled(movable)
        tip = self.tr(
            "A planned occurrence of a series is not journaled yet: change it through its "
            "series (Edit series… or End series…)."
        )
        self.move_button.setToolTip(tip if planned else "")
        self.cancel_button.setToolTip(tip if planned else "")
        in_series = outflow is not None and outflow.series_id is not None and not busy
        self.series_edit_button.setEnabled(in_series)
        self.series_end_button.setEnabled(in_series)
        self.export_button.setEnabled(self.projection is not None)

    # -- move and cancel -------------------------------------------------------------------------

    def _move_clicked(self) -> None:
        self._start(self.ask_move(), "calendar-move")

    def _cancel_clicked(self) -> None:
        self._start(self.ask_cancel(), "calendar-cancel")

    async def ask_move(self) -> bool:
        item = self.selected_item()
        if item is None or item.outflow is None or item.outflow.planned:
            return False
        dialog = MoveDialog(item.outflow.payee, item.outflow.day, self)
        self.move_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return False
            new_date = dialog.chosen()
        finally:
            self.move_dialog = None
            dispose(dialog)
        return await self.move_payment(item.outflow.entry_id, new_date)

    async def move_payment(self, entry_id: str, new_date: dt.date) -> bool:
        """Move the scheduled payment ``entry_id`` (the service checks and audits; a refusal
        is shown in words); the calendar is read again."""
        moved = await run_operation(
            _done(self.service.move(entry_id, new_date)),
            controls=[self.move_button, self.cancel_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if moved is None:
            return False
        await self.reload()
        self.select_day(new_date)
        return True

    async def ask_cancel(self) -> bool:
        item = self.selected_item()
        if item is None or item.outflow is None or item.outflow.planned:
            return False
        dialog = QInputDialog(self)
        dialog.setObjectName("calendar-cancel-reason")
        dialog.setWindowTitle(self.tr("Cancel the payment"))
        dialog.setLabelText(
            self.tr("Why is the payment to %1 of %2 cancelled? (kept in the audit)")
            .replace("%1", item.outflow.payee)
            .replace("%2", format_brl(item.outflow.amount))
        )
        self.reason_dialog = dialog
        try:
            if await ask(dialog) != QDialog.DialogCode.Accepted:
                return False
            reason = " ".join(dialog.textValue().split())
        finally:
            self.reason_dialog = None
            dispose(dialog)
        return await self.cancel_payment(item.outflow.entry_id, reason)

    async def cancel_payment(self, entry_id: str, reason: str) -> bool:
        """Cancel the scheduled payment ``entry_id`` with ``reason``; the calendar is read
        again."""
        cancelled = await run_operation(
            _done(self.service.cancel(entry_id, reason)),
            controls=[self.move_button, self.cancel_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if cancelled is None:
            return False
        await self.reload()
        return True

    # -- its series ------------------------------------------------------------------------------

    def _series_clicked(self, *, edit: bool) -> None:
        item = self.selected_item()
        if item is None or item.outflow is None or item.outflow.series_id is None:
            return
        self._start(self.ask_series(item.outflow.series_id, edit=edit), "calendar-series")

    async def ask_series(self, series_id: str, *, edit: bool) -> bool:
        """Open "Edit series…" (``edit``) or "End series…" of ``series_id``; the calendar is
        read again once done."""
        ask_series = ask_edit_series if edit else ask_end_series
        done = await ask_series(self, self.workspace, series_id, self.banner, self._keep_dialog)
        if done:
            await self.reload()
        return done

    def _keep_dialog(self, dialog: QDialog | None) -> None:
        self.series_dialog = dialog

    # -- the sandbox's clock -----------------------------------------------------------------------

    def _show_clock(self) -> None:
        if self.clock_control is None:
            return
        now = format_instant(self.clock_control.now(), InstantForm.MINUTES)
        self.clock_label.setText(self.tr("Sandbox clock: %1").replace("%1", now))

    def _clock_clicked(self, delta: dt.timedelta | None) -> None:
        self._start(self.move_clock(delta), "calendar-clock")

    async def move_clock(self, delta: dt.timedelta | None) -> bool:
        """Move the clock ``delta`` ahead (``None``: to the next business day at 08:00), then
        read the calendar again (today may have changed)."""
        control = self.clock_control
        if control is None:
            return False
        if delta is None:
            work = control.set(next_business_morning(control.now()))
        else:
            work = control.advance(delta)
        moved = await run_operation(
            simulated(work), controls=self.clock_buttons, banner=self.banner
        )
        self._show_clock()
        if moved is None:
            return False
        await self.reload()
        return True

    # -- export ----------------------------------------------------------------------------------

    def export_csv(self, path: str | Path, export_format: ExportFormat = ExportFormat.EXCEL) -> int:
        """The calendar's days as CSV, for Excel or machine-readable (see
        :mod:`treasury_app.services.exports`). How many rows."""
        projection = self.projection
        if projection is None:
            return 0
        header = [
            self.tr("Date"),
            self.tr("Business day"),
            self.tr("Out"),
            self.tr("Out planned in series"),
            self.tr("In expected"),
            self.tr("In counted"),
            self.tr("Projected balance"),
            self.tr("Payments and receipts"),
            self.tr("Warning"),
        ]
        yes, no = self.tr("Yes"), self.tr("No")
        rows = (
            [
                date_cell(day.day, export_format),
                yes if day.business_day else no,
                amount_cell(day.out_total, export_format),
                amount_cell(day.out_planned, export_format),
                amount_cell(day.in_total, export_format),
                amount_cell(day.in_weighted, export_format),
                amount_cell(day.balance, export_format),
                str(day.items),
                warning_word(day.warning, projection.threshold),
            ]
            for day in projection.days
        )
        return write_export(path, header, rows, export_format, raw_columns=(0, 2, 3, 4, 5, 6, 7))

    def _export_clicked(self) -> None:
        if self.projection is None:
            return
        self.export_dialog = export_choosing_format(
            self,
            self.tr("Export the calendar"),
            f"calendario-{self.projection.today.isoformat()}.csv",
            self.export_csv,
            saved_count(
                self.tr("%1 day(s) saved to %2"),
                partial(self.banner.show_notice, self.tr("Exported")),
            ),
            self.banner.show_error,
        )

    # -- tasks -----------------------------------------------------------------------------------

    def _start(self, work: Any, name: str) -> None:
        task = spawn_unless_busy(self.task, work, name=name, owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(lambda _t: self._update_buttons())
            self._update_buttons()

    def shutdown(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()


async def _done(work: Any) -> bool:
    """``work``'s answer does not matter, only that it finished (``run_operation``'s ``None``
    means it failed)."""
    await work
    return True
