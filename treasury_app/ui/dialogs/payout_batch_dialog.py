"""The payout batch dialog: open a CSV, see every bad row and the totals, approve by typing the
total again, send with a progress bar and a Stop button, and read what became of each row."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Sequence
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_date
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.domain.pixkey import KeyType
from treasury_app.domain.schedule import PayDate
from treasury_app.ledger.batches import BatchRecord
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.services.payouts import PayoutBatch, PayoutReview
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.csv_batch_dialog import CsvBatchDialog
from treasury_app.ui.dialogs.payee_history_dialog import PayeeHistoryButton
from treasury_app.ui.operation import run_operation
from treasury_app.ui.payee_words import row_status_word
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.times import instant_or_empty
from treasury_app.ui.widgets.date_edits import date_edit, to_date

TEMPLATE = (
    "chave;ispb;agencia;conta;tipo_conta;documento;nome;valor;descricao;documento_favorecido\n"
    "fornecedor@empresa.com.br;;;;;;;1.234,56;Nota fiscal 123;\n"
    ";60746948;1234;98765-4;CACC;529.982.247-25;Maria da Silva;350,00;Reembolso;\n"
)
BANK_DATA = "BANK"  # the "key type" of a payout by bank data
CONCURRENCY = 4


class ListModel(QAbstractTableModel):
    """A read-only table of text rows, replaced as a whole (a batch is re-read, never edited)."""

    def __init__(self, headers: Sequence[str], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.headers = list(headers)
        self.rows: list[tuple[str, ...]] = []

    def set_rows(self, rows: Sequence[tuple[str, ...]]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.headers)

    def data(self, index: QModelIndex | QPersistentModelIndex, role: int = 0) -> Any:
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole) and index.isValid():
            return self.rows[index.row()][index.column()]  # the tooltip: a long reason whole
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() in (0, 3):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.headers[section]
        return None


def key_type_of(review: PayoutReview) -> str:
    """``EMAIL``, ``CPF``… for a payout by key; :data:`BANK_DATA` for one by bank data."""
    if review.kind == EntryKind.PIX_MANU or review.key_type is None:
        return BANK_DATA
    return review.key_type.value


class PayoutBatchDialog(CsvBatchDialog):
    """One batch from a CSV file, from reading to the outcome of every row sent."""

    progressed = Signal(int, int)  # done, total
    finished_sending = Signal()
    read_name = "read-payout-batch"

    def __init__(self, workspace: Any, parent: QWidget | None = None) -> None:
        self.row_statuses: list[Any] = []  # each row against the payee registry (issue 36)
        self.registry_texts: list[str] = []  # the same, in words
        super().__init__(workspace, parent)
        self.batch: PayoutBatch | None = None
        self.earlier: tuple[BatchRecord, ...] = ()  # batches sent before with the same rows
        self.single_duplicates: dict[int, tuple[Entry, ...]] = {}  # by line
        self.entries: list[Entry] = []
        self.send_task: asyncio.Task[list[Entry] | None] | None = None
        self._sent = False
        self._stop_requested = False
        self.setWindowTitle(self.tr("Pix payouts from a CSV file"))
        self.setObjectName("payout-batch")
        resize_to_fit(self, 820, 640)
        self._build()
        self._refresh()

    # -- building ------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.build_top(
            layout,
            open_title=self.tr("Open a payout batch"),
            template_label=self.tr("Save template…"),
            template_name="pix-batch.csv",
            template=TEMPLATE,  # by key, by bank data
        )

        self.errors_label = QLabel(self)
        self.errors_label.setObjectName("batch-errors-label")
        self.errors_label.setStyleSheet(f"font-weight: bold; {text_style('error', self)}")
        self.errors_model = ListModel([self.tr("Line"), self.tr("Column"), self.tr("Reason")], self)
        self.errors_view = self._table(self.errors_model)
        # Each reason on as many lines as it needs, and room for a few of them at least.
        self.errors_view.verticalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.errors_view.setMinimumHeight(5 * self.errors_view.fontMetrics().height() * 2)
        self.leave_out_check = QCheckBox(self)
        self.leave_out_check.toggled.connect(lambda _checked: self._refresh())
        layout.addWidget(self.errors_label)
        layout.addWidget(self.errors_view, 1)
        layout.addWidget(self.leave_out_check)

        self.duplicate_label = QLabel(self)
        self.duplicate_label.setObjectName("batch-duplicate")
        self.duplicate_label.setWordWrap(True)
        self.duplicate_label.setStyleSheet(
            f"font-weight: bold; {banner_style('error', self, border=2)} padding: 6px;"
        )
        self.send_again_check = QCheckBox(self)
        self.send_again_check.setObjectName("batch-send-again")
        self.send_again_check.toggled.connect(lambda _checked: self._refresh())
        layout.addWidget(self.duplicate_label)
        layout.addWidget(self.send_again_check)

        self.rows_model = ListModel(
            [
                self.tr("Line"),
                self.tr("Payee"),
                self.tr("Key type"),
                self.tr("Amount"),
                self.tr("Pay on"),
                self.tr("Check"),
                self.tr("Registry"),
            ],
            self,
        )
        self.rows_view = self._table(self.rows_model)
        layout.addWidget(QLabel(self.tr("Payments to send"), self))
        layout.addWidget(self.rows_view, 2)
        self.history_button: PayeeHistoryButton | None = None
        registry = getattr(self.workspace, "payees", None)
        if registry is not None:  # the chosen row's payee: last payments, this month's total
            self.history_button = PayeeHistoryButton(registry, self.current_detail, self)
            self.history_button.setToolTip(self.tr("Or double-click the row"))
            self.rows_view.doubleClicked.connect(lambda _index: self.history_button_click())
            layout.addWidget(self.history_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addLayout(self._build_pay_on())

        self.totals_label = QLabel(self)
        self.totals_label.setObjectName("batch-totals")
        self.totals_label.setStyleSheet("font-weight: bold;")
        self.by_type_label = QLabel(self)
        self.by_type_label.setObjectName("batch-by-type")
        layout.addWidget(self.totals_label)
        layout.addWidget(self.by_type_label)

        self.label_edit = QLineEdit(self)
        self.label_edit.setObjectName("batch-label")
        self.label_edit.setMaxLength(80)
        self.label_edit.setPlaceholderText(
            self.tr("Batch label (optional), e.g. Suppliers, 2nd fortnight of November")
        )
        layout.addWidget(self.label_edit)
        self.confirm_label = QLabel(self)
        self.confirm_edit = QLineEdit(self)
        self.confirm_edit.setObjectName("batch-confirm-amount")
        self.confirm_edit.setPlaceholderText(self.tr("e.g. 1.234,56"))
        self.confirm_edit.textChanged.connect(lambda _text: self._refresh())
        self.confirm_hint = QLabel(self)
        layout.addWidget(self.confirm_label)
        layout.addWidget(self.confirm_edit)
        layout.addWidget(self.confirm_hint)

        self.progress = QProgressBar(self)
        self.progress.setValue(0)
        self.summary_label = QLabel(self)
        self.summary_label.setObjectName("batch-summary")
        self.summary_label.setWordWrap(True)
        layout.addWidget(self.progress)
        layout.addWidget(self.summary_label)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.stop_button = QPushButton(self.tr("Stop"), self)
        self.stop_button.clicked.connect(self.stop)
        self.send_button = QPushButton(self)
        self.send_button.clicked.connect(self._send_clicked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.clicked.connect(self.reject)
        # Never a default button: Enter in the amount field must not send the batch.
        for button in (self.stop_button, self.send_button, self.close_button):
            button.setAutoDefault(False)
            button.setDefault(False)
            buttons.addWidget(button)
        layout.addLayout(buttons)

    def _build_pay_on(self) -> QHBoxLayout:
        """The batch's pay date: rows without one of their own (the file's ``data_pagamento``
        column) are scheduled for it (services/schedule.py rolls it to a business day)."""
        self.later_check = QCheckBox(self.tr("Pay later, on"), self)
        self.later_check.setObjectName("batch-later")
        self.pay_day = date_edit(self, self.workspace.schedule.today(), "batch-pay-date")
        self.pay_day.setEnabled(False)
        self.later_check.toggled.connect(self.pay_day.setEnabled)
        self.later_check.toggled.connect(lambda _checked: self._show_rows())
        self.pay_day.dateChanged.connect(lambda _day: self._show_rows())
        row = QHBoxLayout()
        row.addWidget(self.later_check)
        row.addWidget(self.pay_day)
        row.addWidget(QLabel(self.tr("(rows with a date of their own keep it)"), self), 1)
        return row

    def batch_pay_date(self) -> dt.date | None:
        """The date the person chose for the batch (``None``: now)."""
        return to_date(self.pay_day.date()) if self.later_check.isChecked() else None

    def current_detail(self) -> str | None:
        """The key or account of the row chosen in the list (``None``: none chosen)."""
        row = self.rows_view.currentIndex().row()
        if self.batch is None or not 0 <= row < len(self.batch.rows):
            return None
        return self.batch.rows[row].review.payee_detail

    def history_button_click(self) -> None:
        if self.history_button is not None:
            self.history_button.open_history()

    def _table(self, model: ListModel) -> QTableView:
        view = QTableView(self)
        view.setModel(model)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.verticalHeader().hide()
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # Sized from the first rows, not all: measuring 10,000 rows would stall the window.
        view.horizontalHeader().setResizeContentsPrecision(200)
        view.horizontalHeader().setStretchLastSection(True)
        return view

    # -- files ---------------------------------------------------------------------------------

    async def read_file(self, path: Path) -> None:
        self.banner.clear()
        payouts = self.workspace.payouts
        self._refresh_reading(True)
        try:
            read = await self.file_row.read(
                path, lambda text, control: payouts.read_batch_csv(text, control=control)
            )
        finally:
            if shiboken6.isValid(self):  # the dialog may have been closed and deleted meanwhile
                self._refresh_reading(False)
        if read is None or self._sending:
            return
        if self.workspace.session.closed:  # the profile was locked meanwhile: no journal
            return
        batch, file_sha256 = read
        if await self._show_batch(
            await payouts.with_history(replace(batch, file_sha256=file_sha256))
        ):
            self.source_label.setText(path.name)

    def _refresh_reading(self, reading: bool) -> None:
        self.open_button.setEnabled(not reading and not self._sending)
        if reading:
            self.send_button.setEnabled(False)
            self.confirm_edit.setEnabled(False)
            if self.batch is None:
                self.totals_label.clear()  # not "Open a CSV file": one is being opened
        else:
            self._refresh()

    async def load_text(self, text: str, *, file_sha256: str | None = None) -> bool:
        """Read and check ``text`` here, in the window's thread (a short text); the journal's
        answers are awaited. ``False`` when nothing was shown."""
        if not self.can_open():
            return False
        self.banner.clear()
        batch = await self.workspace.payouts.parse_batch_csv(text, file_sha256=file_sha256)
        if not await self._show_batch(batch):
            return False
        self.source_label.setText(self.tr("Pasted text"))
        return True

    async def _show_batch(self, batch: PayoutBatch) -> bool:
        """Show ``batch`` once the batches sent before are known; ``False`` when the dialog
        closed, the profile was locked or a batch started sending meanwhile."""
        payouts = self.workspace.payouts
        earlier = await payouts.earlier_batches(batch)
        if self.workspace.session.closed or self._sending:
            return False
        statuses = await self.registry_statuses(batch)
        if self.workspace.session.closed or self._sending:
            return False
        self.batch = batch
        self.earlier = earlier
        self.single_duplicates = {
            row.line: found
            for row in self.batch.rows
            if (found := payouts.recent_single_payments(row))
        }
        self.entries = []
        self._sent = False
        self._stop_requested = False
        whole_line = self.tr("(whole line)")
        self.errors_model.set_rows(
            [
                (str(e.line), whole_line if e.column == "row" else e.column, rule_text(e.reason))
                for e in self.batch.errors
            ]
        )
        self.registry_texts = statuses
        self._show_rows()
        self.leave_out_check.setChecked(False)
        self.send_again_check.setChecked(False)
        self.confirm_edit.clear()
        self.progress.setMaximum(max(1, len(self.batch.rows)))
        self.progress.setValue(0)
        self.summary_label.clear()
        self._refresh()
        return True

    def _show_rows(self) -> None:
        if self.batch is None:
            return
        labels = self.key_type_labels()
        self.rows_model.set_rows(
            [
                (
                    str(row.line),
                    row.review.payee_name or row.review.payee_detail,
                    labels.get(kind := key_type_of(row.review)) or code_word(Family.KEY_TYPE, kind),
                    format_brl(row.review.amount),
                    self.pay_text(row.review.pay),
                    "; ".join(
                        filter(
                            None,
                            (
                                self.row_check(row.line),
                                *map(rule_text, row.review.warnings),
                                *self._roll_texts(row.review.pay),
                            ),
                        )
                    ),
                    status,
                )
                for row, status in zip(self.batch.rows, self._registry_texts(), strict=True)
            ]
        )

    def _registry_texts(self) -> list[str]:
        """Each row's registry status in words (empty before the registry answered)."""
        assert self.batch is not None
        texts = self.registry_texts
        return texts if len(texts) == len(self.batch.rows) else ["" for _ in self.batch.rows]

    def pay_text(self, pay: PayDate | None) -> str:
        """When a row leaves: its own date, else the batch's, else now."""
        if pay is not None:
            return format_date(pay.date)
        day = self.batch_pay_date()
        if day is None:
            return self.tr("Now")
        try:
            return format_date(self.workspace.schedule.pay_on(day).date)
        except DomainError as error:  # a past date: said here, refused when sending
            return rule_text(error)

    @staticmethod
    def _roll_texts(pay: PayDate | None) -> tuple[str, ...]:
        return () if pay is None or pay.reason is None else (rule_text(pay.reason),)

    async def registry_statuses(self, batch: PayoutBatch) -> list[str]:
        """Each row matched to the payee registry (issue 36), in words: known and verified,
        new destination, changed recently, unknown, blocked, another payee's."""
        registry = getattr(self.workspace, "payees", None)
        if registry is None:
            return ["" for _ in batch.rows]
        found = await registry.statuses(
            [
                (
                    row.review.payee_detail,
                    row.review.payee_document if row.review.kind == EntryKind.PIX_MANU else "",
                )
                for row in batch.rows
            ]
        )
        self.row_statuses = [status for status, _ in found]
        return [
            row_status_word(status) + (f" ({payee.name})" if payee is not None else "")
            for status, payee in found
        ]

    # -- totals --------------------------------------------------------------------------------

    def totals_by_type(self) -> dict[str, tuple[int, Decimal]]:
        """Count and sum per key type (``EMAIL``, ``CPF``…, :data:`BANK_DATA`)."""
        totals: dict[str, tuple[int, Decimal]] = {}
        for row in self.batch.rows if self.batch else ():
            kind = key_type_of(row.review)
            count, amount = totals.get(kind, (0, Decimal("0.00")))
            totals[kind] = (count + 1, amount + row.review.amount)
        return totals

    def key_type_label(self, kind: str) -> str:
        return self.key_type_labels().get(kind) or code_word(Family.KEY_TYPE, kind)

    def key_type_labels(self) -> dict[str, str]:
        words = {kind.value: code_word(Family.KEY_TYPE, kind) for kind in KeyType}
        return {**words, BANK_DATA: self.tr("Bank data")}

    def _show_totals(self) -> None:
        batch = self.batch
        if batch is None:
            self.totals_label.setText(self.tr("Open a CSV file (or save the template first)."))
            self.by_type_label.clear()
            self.errors_label.clear()
            return
        self.totals_label.setText(
            self.tr("%1 payment(s), %2 in total")
            .replace("%1", str(len(batch.rows)))
            .replace("%2", format_brl(batch.total))
        )
        self.by_type_label.setText(
            "\n".join(
                f"{self.key_type_label(kind)}: {count} — {format_brl(amount)}"
                for kind, (count, amount) in sorted(self.totals_by_type().items())
            )
        )
        self.errors_label.setText(self._errors_text(batch))

    def _errors_text(self, batch: PayoutBatch) -> str:
        """What is wrong with the file as a whole, or how many of its rows have errors."""
        if batch.empty or not (batch.rows or batch.errors):
            return self.tr("The file has no rows: there is nothing to pay.")
        if batch.row_errors:
            return self.tr("%1 row(s) with errors: fix the file, or leave them out.").replace(
                "%1", str(len(batch.row_errors))
            )
        if batch.errors:  # the header's: no row could be read
            return self.tr("The file's first line (its column names) has errors: fix the file.")
        return ""

    def row_check(self, line: int) -> str:
        """What a row repeats: a payment sent alone to the same payee, same amount, lately."""
        found = self.single_duplicates.get(line)
        if not found:
            return ""
        return self.tr("Already paid alone on %1").replace(
            "%1", instant_or_empty(found[0].created_at)
        )

    def duplicate_text(self) -> str:
        if not self.earlier or self.batch is None:
            return ""
        last = self.earlier[0]
        same_file = (
            self.batch.file_sha256 is not None and last.file_sha256 == self.batch.file_sha256
        )
        text = (
            self.tr(
                "This batch was already sent on %1 (Brasília) by %2: %3 payment(s), %4 (%5). "
                "Sending it again pays everyone again."
            )
            .replace("%1", instant_or_empty(last.created_at))
            .replace("%2", last.created_by)
            .replace("%3", str(last.rows))
            .replace("%4", format_brl(last.total))
            .replace(
                "%5",
                self.tr("the same file") if same_file else self.tr("the same payees and amounts"),
            )
        )
        if len(self.earlier) > 1:
            text += " " + self.tr("Sent %1 times in all recently.").replace(
                "%1", str(len(self.earlier))
            )
        return text

    # -- approval ------------------------------------------------------------------------------

    def approved(self) -> bool:
        """The total typed again equals the batch's total."""
        if self.batch is None or not self.confirm_edit.text().strip():
            return False
        try:
            return parse_brl(self.confirm_edit.text()) == self.batch.total
        except DomainError:
            return False

    def can_send(self) -> bool:
        batch = self.batch
        return (
            batch is not None
            and bool(batch.rows)
            and (not batch.errors or self.leave_out_check.isChecked())
            and (not self.earlier or self.send_again_check.isChecked())
            and self.approved()
            and not self._sending
            and not self._sent
            and not self.reader.reading
        )

    def _refresh(self) -> None:
        self._show_totals()
        batch = self.batch
        count = len(batch.rows) if batch else 0
        errors = len(batch.errors) if batch else 0
        self.errors_view.setVisible(errors > 0 and not (batch is not None and batch.empty))
        self.leave_out_check.setVisible(errors > 0 and count > 0)
        self.leave_out_check.setText(
            self.tr("Leave out the %1 invalid row(s) and send the others").replace(
                "%1", str(errors)
            )
        )
        total = format_brl(batch.total) if batch else format_brl(Decimal("0.00"))
        self.confirm_label.setText(
            self.tr("To approve, type the total amount (%1):").replace("%1", total)
        )
        self.confirm_edit.setEnabled(count > 0 and not self._sending and not self._sent)
        self.confirm_hint.setText(self._hint())
        duplicate = self.duplicate_text()
        self.duplicate_label.setText(duplicate)
        self.duplicate_label.setVisible(bool(duplicate))
        self.send_again_check.setVisible(bool(duplicate))
        self.send_again_check.setEnabled(not self._sending and not self._sent)
        self.send_again_check.setText(
            self.tr("Send this batch again: pay these %1 payment(s) a second time").replace(
                "%1", str(count)
            )
        )
        if self.for_approval:
            action = self.tr("Submit %1 payment(s) for approval")
        elif duplicate:
            action = self.tr("Send again %1 payment(s)")
        else:
            action = self.tr("Send %1 payment(s)")
        self.send_button.setText(action.replace("%1", str(count)))
        self.send_button.setEnabled(self.can_send())
        self.stop_button.setEnabled(self._sending and not self._stop_requested)
        self.open_button.setEnabled(not self._sending and not self.reader.reading)

    def _hint(self) -> str:
        text = self.confirm_edit.text()
        if self.batch is None or self._sent or not text.strip():
            return ""
        try:
            typed = parse_brl(text)
        except DomainError as error:
            return rule_text(error)
        if typed != self.batch.total:
            return self.tr("This is not the batch's total.")
        if self.batch.errors and not self.leave_out_check.isChecked():
            return self.tr("Rows with errors: tick “Leave out” to send the others.")
        if self.earlier and not self.send_again_check.isChecked():
            return self.tr(
                "This batch was sent before: tick “Send this batch again” to pay it again."
            )
        return ""

    # -- sending -------------------------------------------------------------------------------

    def _send_clicked(self) -> None:
        if self.can_send():
            # Marked as sending before the task's first step: a second click finds Send disabled.
            self._begin_sending()
            self.send_task = spawn_for(self, self._send_batch(), name="payout-batch")

    async def send(self) -> list[Entry] | None:
        """Send the approved batch (the Send button stays disabled meanwhile)."""
        if not self.can_send():
            return None
        self._begin_sending()
        return await self._send_batch()

    def _begin_sending(self) -> None:
        self._sending = True
        self._stop_requested = False
        self.summary_label.clear()
        self._refresh()

    async def _send_batch(self) -> list[Entry] | None:
        assert self.batch is not None
        try:
            entries = await run_operation(
                self._send_and_follow(
                    self._scheduled_send(
                        self.batch,
                        concurrency=CONCURRENCY,
                        drop_invalid=self.leave_out_check.isChecked(),
                        send_again=bool(self.earlier) and self.send_again_check.isChecked(),
                        label=self.label_edit.text(),
                        progress=self._progress,
                        should_stop=lambda: self._stop_requested,
                    )
                ),
                controls=[
                    self.send_button,
                    self.open_button,
                    self.leave_out_check,
                    self.send_again_check,
                    self.later_check,
                    self.pay_day,
                ],
                banner=self.banner,
                fields={"pay_date": self.pay_day},
                changes_ledger=True,
            )
        finally:
            self._sending = False
        if entries is not None:
            self.entries = entries
            self._sent = True
        self._show_summary(entries)
        self._refresh()
        self.finished_sending.emit()
        return entries

    async def _scheduled_send(self, batch: PayoutBatch, **options: Any) -> list[Entry]:
        """The batch sent, its rows without a date of their own scheduled for the batch's
        date (a date passed meanwhile is refused before anything is journaled)."""
        scheduled = self.workspace.schedule.schedule_batch(batch, self.batch_pay_date())
        return await self.workspace.payouts.send_batch(scheduled, **options)

    async def _send_and_follow(self, sending: Awaitable[list[Entry]]) -> list[Entry]:
        """The batch sent, then the tracker follows what is still on its way (also when this
        dialog is gone by then: the send is shielded, see :func:`run_operation`)."""
        entries = await sending
        self.workspace.tracker.sent()
        return entries

    def _progress(self, done: int, total: int, entry: Entry) -> None:
        if not shiboken6.isValid(self):
            return
        self.progress.setMaximum(total)
        self.progress.setValue(done)
        self.progressed.emit(done, total)

    def stop(self) -> None:
        """Send no new rows; rows already on their way finish and keep being followed."""
        if self._sending:
            self._stop_requested = True
            self.summary_label.setText(self.tr("Stopping: waiting for the rows on their way…"))
            self._refresh()

    def reject(self) -> None:
        # Closing while sending asks nothing: it stops new rows, the ones sent finish. A file
        # being read stops being read.
        self.stop()
        super().reject()

    def summary(self) -> dict[str, int]:
        entries = self.entries
        rows = len(self.batch.rows) if self.batch else 0
        return {
            "sent": len(entries),
            "accepted": sum(1 for e in entries if e.state == EntryState.ACCEPTED),
            "rejected": sum(1 for e in entries if e.state == EntryState.REJECTED),
            "unknown": sum(1 for e in entries if e.unresolved),
            "not_sent": rows - len(entries),
        }

    @property
    def for_approval(self) -> bool:
        """Dual control (team mode): the batch is submitted, then approved as one decision."""
        return self.workspace.session.approvals is not None

    def _show_summary(self, entries: list[Entry] | None) -> None:
        if entries is None:
            self.summary_label.setText(self.tr("The batch could not be sent; see above."))
            return
        waiting = [e for e in entries if e.waiting_approval]
        if waiting:
            text = (
                self.tr(
                    "Submitted for approval: %1 payment(s), %2. Another person approves the "
                    "batch as one decision (the Approvals tab); nothing is sent before that."
                )
                .replace("%1", str(len(waiting)))
                .replace("%2", format_brl(sum((e.amount for e in waiting), Decimal("0.00"))))
            )
            if len(waiting) < len(self.batch.rows if self.batch else ()):
                text += " " + self.tr("Not submitted (stopped): %1.").replace(
                    "%1", str(len(self.batch.rows if self.batch else ()) - len(waiting))
                )
            self.summary_label.setText(text)
            return
        counts = self.summary()
        text = (
            self.tr("Sent: %1. Accepted: %2. Rejected: %3. Outcome unknown: %4.")
            .replace("%1", str(counts["sent"]))
            .replace("%2", str(counts["accepted"]))
            .replace("%3", str(counts["rejected"]))
            .replace("%4", str(counts["unknown"]))
        )
        if counts["not_sent"]:
            text += " " + self.tr("Not sent (stopped): %1.").replace("%1", str(counts["not_sent"]))
        text += " " + self.tr("Rows already sent keep being followed in the payments list.")
        self.summary_label.setText(text)
