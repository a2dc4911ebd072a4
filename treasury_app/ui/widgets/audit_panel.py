"""The audit log in Settings: filtered by date range (Brasília days), action and text, paged
through every row (not only the newest 200), exported as a spreadsheet reads it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from functools import partial
from pathlib import Path

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

from treasury_app.domain.clock import BRASILIA, brasilia_today, system_clock, to_brasilia
from treasury_app.domain.money import format_brl
from treasury_app.ledger import Ledger
from treasury_app.ledger.audit import AuditEntry
from treasury_app.ui.csv_files import export_with_dialog, saved_count, write_table
from treasury_app.ui.status_words import action_word, outcome_word
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner

PAGE_SIZE = 200


def _when(stamp: str) -> str:
    moment = dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return f"{to_brasilia(moment):%d/%m/%Y %H:%M:%S}"


class AuditPanel(QWidget):
    """Rows of the audit, newest first, one page at a time."""

    def __init__(self, ledger: Ledger, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ledger = ledger
        self.page = 0
        self.total = 0
        self.rows: list[AuditEntry] = []
        self.export_dialog: QFileDialog | None = None
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
            "text": self.text_edit.text().strip() or None,
        }

    def _fill_actions(self) -> None:
        current = self.action_combo.currentData()
        with QSignalBlocker(self.action_combo):
            self.action_combo.clear()
            self.action_combo.addItem(self.tr("All actions"), None)
            for action in self.ledger.audit.actions():
                self.action_combo.addItem(action_word(action), action)
            self.action_combo.setCurrentIndex(max(self.action_combo.findData(current), 0))

    def reload(self) -> None:
        """Back to the newest page of what the filters select (the actions list refreshed)."""
        self._fill_actions()
        self.go_to_page(0)

    def go_to_page(self, page: int) -> None:
        criteria = self.criteria()
        self.total = self.ledger.audit.count(**criteria)  # type: ignore[arg-type]
        last = max(0, (self.total - 1) // PAGE_SIZE)
        self.page = min(max(page, 0), last)
        self.rows = self.ledger.audit.search(
            **criteria,  # type: ignore[arg-type]
            offset=self.page * PAGE_SIZE,
            limit=PAGE_SIZE,
        )
        self._show()

    def _show(self) -> None:
        self.table.setRowCount(len(self.rows))
        for index, row in enumerate(self.rows):
            values = [
                _when(row.at),
                row.os_user,
                action_word(row.action),
                outcome_word(row.outcome),
                row.reference,
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

    def export_csv(self, path: str | Path) -> int:
        """Every row the filters select (all pages), ``;``-separated with a BOM."""
        criteria = self.criteria()

        def rows() -> Iterator[list[str]]:
            offset = 0
            while True:
                page = self.ledger.audit.search(**criteria, offset=offset, limit=1000)  # type: ignore[arg-type]
                for row in page:
                    amount = format_brl(row.amount).replace("R$", "").strip() if row.amount else ""
                    yield [
                        _when(row.at),
                        row.os_user,
                        action_word(row.action),
                        outcome_word(row.outcome),
                        row.reference,
                        amount,
                    ]
                offset += len(page)
                if len(page) < 1000:
                    return

        return write_table(path, self.column_titles(), rows(), amounts=[self.tr("Amount")])

    def _export_clicked(self) -> None:
        self.export_dialog = export_with_dialog(
            self,
            self.tr("Export the audit log"),
            "auditoria.csv",
            self.export_csv,
            saved_count(
                self.tr("%1 row(s) saved to %2"),
                partial(self.banner.show_message, self.tr("Exported")),
            ),
            self.banner.show_error,
        )
