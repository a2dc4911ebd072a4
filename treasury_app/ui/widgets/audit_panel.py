"""The audit log in Settings: filtered by date range (Brasília days), action and text, paged
through every row (not only the newest 200), exported as a spreadsheet reads it."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections.abc import Coroutine
from functools import partial
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import QDate, QSignalBlocker, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import BRASILIA, brasilia_today, system_clock
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.ledger import Ledger
from treasury_app.ledger.audit import AuditEntry
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.csv_files import file_error, save_csv_dialog, saved_count, write_table
from treasury_app.ui.status_words import action_word, outcome_word, reference_word
from treasury_app.ui.times import InstantForm, format_instant
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner

PAGE_SIZE = 200
EXPORT_PAGE = 1000  # rows read per query while exporting


def _when(stamp: str) -> str:
    return format_instant(stamp, InstantForm.SECONDS)


def search_text(text: str) -> str | None:
    """The words of an audit search as the ledger keeps them: an amount typed the Brazilian
    way (``1.234,56``, ``R$ 1.234,56``, ``R$1.234,56``) becomes ``1234.56``, as amounts are
    stored; a lone ``R$`` is dropped. ``None``: nothing to search for."""
    words = []
    for word in text.split():
        if word.upper() == "R$":
            continue
        if "," in word or word.upper().startswith("R$"):
            with contextlib.suppress(DomainError):  # not an amount: searched as typed
                word = str(parse_brl(word))
        words.append(word)
    return " ".join(words) or None


class AuditPanel(QWidget):
    """Rows of the audit, newest first, one page at a time, read in the background (the audit
    may be a team database across the network). Tests await :attr:`load_task` and
    :attr:`export_task`."""

    def __init__(self, ledger: Ledger, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ledger = ledger
        self.page = 0
        self.total = 0
        self.rows: list[AuditEntry] = []
        self.export_dialog: QFileDialog | None = None
        self.load_task: asyncio.Task[bool] | None = None
        self.export_task: asyncio.Task[int | None] | None = None
        self._generation = 0
        self._closed = False
        self.banner = ErrorBanner(self)

        self.range_check = QCheckBox(self.tr("From"), self)
        self.range_check.setObjectName("audit-range")
        day = brasilia_today(system_clock)  # the audit is stamped with this computer's clock
        today = QDate(day.year, day.month, day.day)
        self.start_edit = self._date_edit(today.addDays(-30))
        self.end_edit = self._date_edit(today)
        self.action_combo = QComboBox(self)
        self.action_combo.setObjectName("audit-action")
        self.text_edit = QLineEdit(self)
        self.text_edit.setObjectName("audit-text")
        self.text_edit.setPlaceholderText(self.tr("Search reference, user, outcome, details"))
        self.text_edit.setClearButtonEnabled(True)
        self.export_button = QPushButton(self.tr("Export…"), self)
        self.export_button.setObjectName("audit-export")
        self.export_button.clicked.connect(self._export_clicked)
        filters = QHBoxLayout()
        filters.addWidget(self.range_check)
        filters.addWidget(self.start_edit)
        filters.addWidget(QLabel(self.tr("to"), self))
        filters.addWidget(self.end_edit)
        filters.addWidget(self.action_combo)
        filters.addWidget(self.text_edit, 1)
        filters.addWidget(self.export_button)

        self.table = QTableWidget(0, 6, self)
        self.table.setObjectName("audit-table")
        self.table.setHorizontalHeaderLabels(self.column_titles())
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)

        self.previous_button = QPushButton(self.tr("◀ Newer"), self)
        self.previous_button.setObjectName("audit-previous")
        self.previous_button.clicked.connect(lambda: self.go_to_page(self.page - 1))
        self.next_button = QPushButton(self.tr("Older ▶"), self)
        self.next_button.setObjectName("audit-next")
        self.next_button.clicked.connect(lambda: self.go_to_page(self.page + 1))
        self.page_label = QLabel(self)
        self.page_label.setObjectName("audit-page")
        pages = QHBoxLayout()
        pages.addWidget(self.page_label, 1)
        pages.addWidget(self.previous_button)
        pages.addWidget(self.next_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(filters)
        layout.addWidget(self.table, 1)
        layout.addLayout(pages)

        self.range_check.toggled.connect(lambda _checked: self.reload())
        self.action_combo.currentIndexChanged.connect(lambda _index: self.reload())
        self.text_edit.textChanged.connect(lambda _text: self.reload())
        self.reload()

    def column_titles(self) -> list[str]:
        """The table's columns, and the export's."""
        return [
            self.tr("When (Brasília)"),
            self.tr("User"),
            self.tr("Action"),
            self.tr("Outcome"),
            self.tr("Reference"),
            self.tr("Amount"),
        ]

    def _date_edit(self, date: QDate) -> QDateEdit:
        edit = date_edit(self, date)
        edit.dateChanged.connect(
            lambda _date: self.reload() if self.range_check.isChecked() else None
        )
        return edit

    # -- the query -----------------------------------------------------------------------------

    def criteria(self) -> dict[str, object]:
        since = until = None
        if self.range_check.isChecked():
            start, end = self.start_edit.date(), self.end_edit.date()
            since = dt.datetime(start.year(), start.month(), start.day(), tzinfo=BRASILIA)
            until = dt.datetime(end.year(), end.month(), end.day(), tzinfo=BRASILIA) + (
                dt.timedelta(days=1)
            )
        return {
            "since": since,
            "until": until,
            "action": self.action_combo.currentData(),
            "text": search_text(self.text_edit.text()),
        }

    def _fill_actions(self, actions: list[str]) -> None:
        current = self.action_combo.currentData()
        with QSignalBlocker(self.action_combo):
            self.action_combo.clear()
            self.action_combo.addItem(self.tr("All actions"), None)
            for action in actions:
                self.action_combo.addItem(action_word(action), action)
            self.action_combo.setCurrentIndex(max(self.action_combo.findData(current), 0))

    def reload(self) -> asyncio.Task[bool] | None:
        """Back to the newest page of what the filters select (the actions list refreshed),
        read in the background (:attr:`load_task`)."""
        return self._start(self.load(0, actions=True))

    def go_to_page(self, page: int) -> asyncio.Task[bool] | None:
        """Show page ``page`` (clamped to the pages there are), read in the background."""
        return self._start(self.load(page))

    def _start(self, load: Coroutine[Any, Any, bool]) -> asyncio.Task[bool] | None:
        if self._closed:
            load.close()
            return None
        if self.load_task is not None and not self.load_task.done():
            self.load_task.cancel()  # the filters changed again: only the last read counts
        self.load_task = spawn_for(self, load, name="audit-load")
        return self.load_task

    async def load(self, page: int, *, actions: bool = False) -> bool:
        """Count what the filters select, read page ``page`` of it and show it (the table keeps
        the previous page meanwhile); ``False`` when the answer came too late to be shown."""
        self._generation += 1
        generation = self._generation
        criteria = self.criteria()
        audit = self.ledger.audit
        names = await audit.actions() if actions else None
        total = await audit.count(**criteria)  # type: ignore[arg-type]
        last = max(0, (total - 1) // PAGE_SIZE)
        page = min(max(page, 0), last)
        rows = await audit.search(
            **criteria,  # type: ignore[arg-type]
            offset=page * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        if self._closed or generation != self._generation:
            return False
        if names is not None:
            self._fill_actions(names)
        self.total, self.page, self.rows = total, page, rows
        self._show()
        return True

    def shutdown(self) -> None:
        """Before the ledger closes: cancel what is on its way; late answers are dropped."""
        self._closed = True
        for task in (self.load_task, self.export_task):
            if task is not None and not task.done():
                task.cancel()

    def _show(self) -> None:
        self.table.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            values = [
                _when(row.at),
                row.os_user,
                action_word(row.action),
                outcome_word(row.outcome, row.action),
                reference_word(row.action, row.reference),
                format_brl(row.amount) if row.amount is not None else "",
            ]
            for column, value in enumerate(values):
                item = QTableWidgetItem(value)
                if column == 5:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(index, column, item)
        first = self.page * PAGE_SIZE + 1 if self.rows else 0
        self.page_label.setText(
            self.tr("%1–%2 of %3")
            .replace("%1", str(first))
            .replace("%2", str(self.page * PAGE_SIZE + len(self.rows)))
            .replace("%3", str(self.total))
        )
        self.previous_button.setEnabled(self.page > 0)
        self.next_button.setEnabled((self.page + 1) * PAGE_SIZE < self.total)

    # -- export --------------------------------------------------------------------------------

    async def export_csv(self, path: str | Path) -> int:
        """Every row the filters select (all pages), ``;``-separated with a BOM: read first,
        then written at once. How many rows."""
        criteria = self.criteria()
        rows: list[list[str]] = []
        while True:
            page = await self.ledger.audit.search(
                **criteria,  # type: ignore[arg-type]
                offset=len(rows),
                limit=EXPORT_PAGE,
            )
            for row in page:
                amount = format_brl(row.amount).replace("R$", "").strip() if row.amount else ""
                rows.append(
                    [
                        _when(row.at),
                        row.os_user,
                        action_word(row.action),
                        outcome_word(row.outcome, row.action),
                        reference_word(row.action, row.reference),
                        amount,
                    ]
                )
            if len(page) < EXPORT_PAGE:
                break
        return write_table(path, self.column_titles(), rows, amounts=[self.tr("Amount")])

    def _export_clicked(self) -> None:
        self.export_dialog = save_csv_dialog(
            self, self.tr("Export the audit log"), "auditoria.csv", self._export_chosen
        )

    def _export_chosen(self, path: str) -> None:
        if self.export_task is None or self.export_task.done():
            self.export_task = spawn_for(self, self.export_to(path), name="audit-export")

    async def export_to(self, path: str) -> int | None:
        """:meth:`export_csv` with its outcome in the banner (the button off meanwhile)."""
        self.export_button.setEnabled(False)
        try:
            count = await self.export_csv(path)
        except OSError as error:
            self.banner.show_error(file_error(error, path))
            return None
        finally:
            if shiboken6.isValid(self.export_button):
                self.export_button.setEnabled(True)
        saved_count(
            self.tr("%1 row(s) saved to %2"),
            partial(self.banner.show_notice, self.tr("Exported")),
        )(path, count)
        return count
