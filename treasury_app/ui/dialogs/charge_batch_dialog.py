"""The batch import dialog (``lotecobv``): open a CSV of charges with a due date, see every line
with its errors marked and the total, review (count, total, batch id) and send once, then read
each member's status and ``problema``.

The service's parser reads the five documented columns; a sixth, optional ``txid`` column (the
caller's own txids, generated when empty) is read here: :func:`read_batch_file` takes it out of
the text before parsing, keeping every line where it was, and has the service check it
(:func:`check_batch_txids`: the domain's txid rule, unique in the batch) beside the parser's
checks, so nothing is sent while any line is wrong.
"""

from __future__ import annotations

import asyncio
import csv
import dataclasses
import io
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.errors import Reason
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import (
    BATCH_COLUMNS,
    MAX_BATCH_MEMBERS,
    BatchParseResult,
    BatchPlan,
    BatchRow,
    BatchRowError,
    BatchStatus,
    ChargeInputError,
    ChargesService,
    check_batch_txids,
    parse_batch_csv,
)
from treasury_app.services.csv_input import (
    MAX_LINE_ERRORS,
    TOO_MANY_ERRORS,
    CsvLineError,
    ReadControl,
    csv_records,
)
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.csv_batch_dialog import CsvBatchDialog
from treasury_app.ui.models.charge_batch_model import (
    MEMBER_ROLE,
    ChargeBatchModel,
    Column,
    ErrorsOnlyFilter,
    MemberRow,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.row_tables import row_table

__all__ = [
    "TEMPLATE",
    "TXID_COLUMN",
    "BatchFile",
    "ChargeBatchDialog",
    "plan_with_txids",
    "read_batch_file",
]

TXID_COLUMN = "txid"
TEMPLATE = (
    "nome;cpf_cnpj;valor;vencimento;descricao;txid\n"
    "Maria Souza;529.982.247-25;1.234,56;15/12/2026;Mensalidade dezembro;\n"
    "Empresa Cliente Ltda;11.222.333/0001-81;99,90;2026-12-20;;\n"
)
_HEADER_NAMES = {"nome", "cpf_cnpj", "cpfcnpj", "documento", "cpf", "cnpj", "valor"}
_HEADER_NAMES |= {"vencimento", "data_de_vencimento", "data_vencimento", "descricao"}
_CANONICAL = {"cpfcnpj": "cpf_cnpj", "documento": "cpf_cnpj", "cpf": "cpf_cnpj"}
_CANONICAL |= {"cnpj": "cpf_cnpj", "data_de_vencimento": "vencimento"}
_CANONICAL |= {"data_vencimento": "vencimento"}


# ---------------------------------------------------------------------------------------------
# Reading a file (pure: no Qt, no bank)


@dataclass(frozen=True)
class BatchFile:
    """A batch file read and checked: the parser's result, the txids given in the file (by
    line), every error (the parser's and the txid checks) and one row per data line."""

    parsed: BatchParseResult
    txids: Mapping[int, str]
    errors: tuple[BatchRowError, ...]
    members: tuple[MemberRow, ...]

    @property
    def ok(self) -> bool:
        """Whether it can be sent: charges, and no error anywhere."""
        return bool(self.parsed.rows) and not self.errors

    @property
    def good_rows(self) -> tuple[BatchRow, ...]:
        """The rows with no error at all (the parser's and the txid checks)."""
        bad = set(self.bad_lines)
        return tuple(row for row in self.parsed.rows if row.line not in bad)

    @property
    def total(self) -> Decimal:
        """The sum of the good rows' amounts."""
        return sum((row.amount for row in self.good_rows), Decimal("0.00"))

    @property
    def bad_lines(self) -> tuple[int, ...]:
        return tuple(sorted({e.line for e in self.errors}))

    def general_errors(self) -> tuple[BatchRowError, ...]:
        """Errors on no data line (a bad header, an empty file) or about the whole file (too
        many charges or errors, a quote left open): shown above the table."""
        lines = {m.line for m in self.members}
        return tuple(e for e in self.errors if e.whole_file or e.line not in lines)

    @property
    def can_leave_out(self) -> bool:
        """Some lines are wrong, others good, and the file itself (its header) is fine."""
        return bool(self.errors) and bool(self.good_rows) and not self.general_errors()

    def without_bad_lines(self) -> BatchFile:
        """The same file with its wrong lines left out (the person chose to send the rest)."""
        good = self.good_rows
        lines = {row.line for row in good}
        parsed = dataclasses.replace(self.parsed, rows=good, errors=())
        txids = {line: txid for line, txid in self.txids.items() if line in lines}
        members = tuple(m for m in self.members if m.line in lines)
        return BatchFile(parsed, txids, (), members)


def _key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.strip().lower())
    plain = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def _separator(text: str) -> str:
    # The parser's rule (docstring of services.charges.batch_file), so both read the same cells.
    first = next((line for line in text.splitlines() if line.strip()), "")
    return ";" if ";" in first else "\t" if "\t" in first else ","


# Records read at most: a header and one charge over the cap (the file is then refused).
_MAX_RECORDS = MAX_BATCH_MEMBERS + 2


def _records(
    text: str, separator: str, control: ReadControl | None = None
) -> tuple[list[tuple[int, list[str]]], list[BatchRowError]]:
    """(first line, cells) of each non-blank record, lines counted as the parser counts them
    (a line that cannot be read has no cells), and why those lines cannot be read; at most
    :data:`_MAX_RECORDS` records (more is too many charges)."""
    records: list[tuple[int, list[str]]] = []
    unreadable: list[BatchRowError] = []
    for record in csv_records(text, separator, control=control):
        if isinstance(record, CsvLineError):
            records.append((record.line, []))
            error = BatchRowError(record.line, "", record.reason, whole_file=record.whole_file)
            unreadable.append(error)
            if record.whole_file:  # a quote left open: the file is refused, read no further
                break
        else:
            cells = [cell.strip() for cell in record.cells]
            if any(cells):
                records.append((record.line, cells))
        if len(records) >= _MAX_RECORDS:
            break
    return records, unreadable


def _without_column(records: list[tuple[int, list[str]]], index: int, separator: str) -> str:
    """The records without cell ``index``, each on the line it had (blank lines pad: the parser
    skips them), so that the parser's line numbers stay the file's."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator, lineterminator="\n")
    written = 1
    for line, cells in records:
        if line > written:
            out.write("\n" * (line - written))
            written = line
        before = out.tell()
        writer.writerow(cells[:index] + cells[index + 1 :])
        written += out.getvalue()[before:].count("\n")
    return out.getvalue()


def read_batch_file(
    text: str, *, today: date | None = None, control: ReadControl | None = None
) -> BatchFile:
    """Read and check a batch file: the service's parser for the five documented columns
    (with ``today``, a past due date is an error), and the optional ``txid`` column here.
    Any thread may call it; ``control`` reports progress and takes a Cancel."""
    text = text.removeprefix("\ufeff")
    separator = _separator(text)
    records, unreadable = _records(text, separator, control)
    header: list[str] | None = None
    if records and sum(1 for c in records[0][1] if _key(c) in _HEADER_NAMES | {"txid"}) >= 2:
        header = [_key(c) for c in records[0][1]]
        records_data = records[1:]
    else:
        records_data = records
    names = header if header is not None else list(BATCH_COLUMNS)
    refusal = [e for e in unreadable if e.whole_file]
    if len(records_data) > MAX_BATCH_MEMBERS:  # the file was not read further: refused whole
        line = records_data[MAX_BATCH_MEMBERS][0]
        reason = Reason("charge_batch.too_many_charges", {"max": MAX_BATCH_MEMBERS})
        refusal = [BatchRowError(line, "", reason, whole_file=True)]
        records_data = records_data[:MAX_BATCH_MEMBERS]
    if refusal:
        parsed = BatchParseResult((), tuple(refusal), separator, header is not None)
        return BatchFile(
            parsed, {}, parsed.errors, _members(records_data, names, parsed, {}, parsed.errors)
        )
    txid_index = names.index(TXID_COLUMN) if TXID_COLUMN in names else None
    txids: dict[int, str] = {}
    source = text
    if txid_index is not None:
        source = _without_column(records, txid_index, separator)
        for line, cells in records_data:
            if txid_index < len(cells) and cells[txid_index]:
                txids[line] = cells[txid_index]
    parsed = parse_batch_csv(source, today=today, control=control)
    if any(e.whole_file for e in parsed.errors):
        # Refused whole (too many errors, a quote left open): the parser's errors only.
        errors = parsed.errors
    else:
        # A line that cannot be read is the parser's error too, unless the txid column was
        # taken out (the line is then blank in what it read): each is kept once.
        found = {
            (e.line, e.column, e.column_number, str(e.reason), e.whole_file): e
            for e in (*parsed.errors, *unreadable, *check_batch_txids(txids, TXID_COLUMN))
        }  # a Reason's parameters are a dict: the errors are told apart by what they say
        ordered = sorted(found.values(), key=lambda e: (e.line, e.column_number))
        errors = _at_most_bad_lines(ordered)
        if errors[-1:] and errors[-1].whole_file:
            parsed = dataclasses.replace(parsed, rows=(), errors=errors)
    return BatchFile(parsed, txids, errors, _members(records_data, names, parsed, txids, errors))


def _at_most_bad_lines(errors: list[BatchRowError]) -> tuple[BatchRowError, ...]:
    """``errors`` (in line order), or those of their first :data:`MAX_LINE_ERRORS` lines and
    the error that refuses the file for having more."""
    lines: set[int] = set()
    for index, error in enumerate(errors):
        lines.add(error.line)
        if len(lines) > MAX_LINE_ERRORS:
            last = BatchRowError(error.line, "", TOO_MANY_ERRORS, whole_file=True)
            return (*errors[:index], last)
    return tuple(errors)


def _members(
    records: list[tuple[int, list[str]]],
    names: list[str],
    parsed: BatchParseResult,
    txids: Mapping[int, str],
    errors: tuple[BatchRowError, ...],
) -> tuple[MemberRow, ...]:
    rows = {row.line: row for row in parsed.rows}
    by_line: dict[int, list[BatchRowError]] = {}
    for error in errors:
        by_line.setdefault(error.line, []).append(error)
    members = []
    for line, cells in records:
        row = rows.get(line)
        line_errors = tuple(by_line.get(line, ()))
        if row is not None:
            members.append(
                MemberRow(
                    txid=txids.get(line, ""),
                    line=line,
                    name=row.name,
                    document=row.document,
                    amount=row.amount,
                    due_date=row.due_date,
                    description=row.description,
                    errors=line_errors,
                )
            )
            continue
        typed = {_CANONICAL.get(n, n): c for n, c in zip(names, cells, strict=False)}
        members.append(MemberRow(line=line, cells=typed, errors=line_errors))
    return tuple(members)


def plan_with_txids(
    charges: ChargesService,
    batch: BatchFile,
    *,
    key: str,
    description: str | None = None,
) -> BatchPlan:
    """The service's plan (batch id, every check again): the txids the file gives (checked
    by the service again), a new one for each other line."""
    if batch.errors:
        raise ChargeInputError(
            "charge_batch.lines_have_errors", field="csv", count=len(batch.bad_lines)
        )
    return charges.plan_batch(batch.parsed, key=key, description=description, txids=batch.txids)


# ---------------------------------------------------------------------------------------------
# The dialog


class ChargeBatchDialog(CsvBatchDialog):
    """From a CSV file to a batch the bank accepted. ``batch_sent(batch_id)`` is emitted once the
    bank answered; tests await :attr:`send_task`. Closing while sending leaves the request to
    finish: the batch list shows its outcome."""

    batch_sent = Signal(str)
    read_name = "read-charge-batch"

    def __init__(self, workspace: Any, parent: QWidget | None = None) -> None:
        super().__init__(workspace, parent)
        self.batch: BatchFile | None = None
        self.plan: BatchPlan | None = None
        self.status: BatchStatus | None = None
        self.send_task: asyncio.Task[BatchStatus | None] | None = None
        self.setWindowTitle(self.tr("Charges with a due date from a CSV file"))
        self.setObjectName("charge-batch")
        resize_to_fit(self, 980, 680)
        self._build()
        self._refresh()

    # -- building --------------------------------------------------------------------------------

    def _build(self) -> None:
        layout = QVBoxLayout(self)
        self.build_top(
            layout,
            open_title=self.tr("Open a batch of charges"),
            template_label=self.tr("Download template…"),
            template_name="charge-batch.csv",
            template=TEMPLATE,  # txids left to be generated
        )

        form = QFormLayout()
        self.key_combo = QComboBox(self)
        self.key_combo.setObjectName("charge-batch-key")
        self.key_combo.setEditable(not self.workspace.pix_keys)
        self.key_combo.addItems(list(self.workspace.pix_keys))
        self.description_edit = QLineEdit(self)
        self.description_edit.setObjectName("charge-batch-description")
        self.description_edit.setMaxLength(140)
        self.description_edit.setPlaceholderText(self.tr("Optional, e.g. December fees"))
        form.addRow(self.tr("Pix key"), self.key_combo)
        form.addRow(self.tr("Batch description"), self.description_edit)
        layout.addLayout(form)

        self.file_errors_label = QLabel(self)
        self.file_errors_label.setObjectName("charge-batch-file-errors")
        self.file_errors_label.setWordWrap(True)
        self.file_errors_label.setStyleSheet(f"font-weight: bold; {text_style('error', self)}")
        layout.addWidget(self.file_errors_label)

        self.model = ChargeBatchModel(self)
        self.proxy = ErrorsOnlyFilter(self)
        self.proxy.setSourceModel(self.model)
        self.view = member_table(self, self.proxy)
        self.view.setObjectName("charge-batch-members")
        layout.addWidget(self.view, 1)

        totals = QHBoxLayout()
        self.totals_label = QLabel(self)
        self.totals_label.setObjectName("charge-batch-totals")
        self.totals_label.setStyleSheet("font-weight: bold;")
        self.errors_only_check = QCheckBox(self.tr("Only lines with errors"), self)
        self.errors_only_check.toggled.connect(self.proxy.set_errors_only)
        totals.addWidget(self.totals_label, 1)
        totals.addWidget(self.errors_only_check)
        layout.addLayout(totals)
        self.problem_label = QLabel(self)
        self.problem_label.setObjectName("charge-batch-problem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet(text_style("error", self))
        self.problem_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.problem_label)
        self.view.selectionModel().currentRowChanged.connect(lambda *_: self._show_problem())
        self.leave_out_check = QCheckBox(self)
        self.leave_out_check.setObjectName("charge-batch-leave-out")
        self.leave_out_check.toggled.connect(lambda _checked: self._refresh())
        layout.addWidget(self.leave_out_check)

        layout.addWidget(self._build_review())

        self.outcome_label = QLabel(self)
        self.outcome_label.setObjectName("charge-batch-outcome")
        self.outcome_label.setWordWrap(True)
        layout.addWidget(self.outcome_label)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.refresh_button = QPushButton(self.tr("Refresh statuses"), self)
        self.refresh_button.clicked.connect(lambda: spawn_for(self, self.refresh_status()))
        self.review_button = QPushButton(self.tr("Review…"), self)
        self.review_button.clicked.connect(self.review)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.clicked.connect(self.reject)
        for button in (self.refresh_button, self.review_button, self.close_button):
            button.setAutoDefault(False)
            buttons.addWidget(button)
        layout.addLayout(buttons)

    def _build_review(self) -> QGroupBox:
        box = QGroupBox(self.tr("Review the batch"), self)
        box.setObjectName("charge-batch-review")
        form = QFormLayout()
        self.review_count = QLabel(box)
        self.review_total = QLabel(box)
        self.review_total.setStyleSheet("font-size: 16pt; font-weight: bold;")
        self.review_batch_id = QLabel(box)
        self.review_key = QLabel(box)
        for label in (self.review_count, self.review_total, self.review_batch_id, self.review_key):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        form.addRow(self.tr("Charges"), self.review_count)
        form.addRow(self.tr("Total"), self.review_total)
        form.addRow(self.tr("Batch id"), self.review_batch_id)
        form.addRow(self.tr("Pix key"), self.review_key)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.back_button = QPushButton(self.tr("Back"), box)
        self.back_button.clicked.connect(self.back)
        self.send_button = QPushButton(self.tr("Send"), box)
        self.send_button.setObjectName("charge-batch-send")
        self.send_button.clicked.connect(self._send_clicked)
        # Never a default button: Enter in a field must not send the batch.
        for button in (self.back_button, self.send_button):
            button.setAutoDefault(False)
            button.setDefault(False)
            buttons.addWidget(button)
        layout = QVBoxLayout(box)
        layout.addLayout(form)
        layout.addLayout(buttons)
        box.hide()
        self.review_box = box
        return box

    # -- files -----------------------------------------------------------------------------------

    def can_open(self) -> bool:
        return super().can_open() and self.status is None

    async def read_file(self, path: Path) -> None:
        self.banner.clear()
        today = self.workspace.charges.today()
        self._refresh()
        if self.batch is None:
            self.totals_label.clear()
        try:
            read = await self.file_row.read(
                path, lambda text, control: read_batch_file(text, today=today, control=control)
            )
        finally:
            if shiboken6.isValid(self):  # the dialog may have been closed and deleted meanwhile
                self._refresh()
        if read is None or self._sending or self.status is not None:
            return
        self._show_batch(read[0])
        self.source_label.setText(path.name)

    def load_text(self, text: str) -> None:
        """Read and check ``text`` here, in the window's thread (a short text); a batch
        already sent is not replaced."""
        if not self.can_open():
            return
        self.banner.clear()
        self._show_batch(read_batch_file(text, today=self.workspace.charges.today()))
        self.source_label.setText(self.tr("Pasted text"))

    def _show_batch(self, batch: BatchFile) -> None:
        self.batch = batch
        self.plan = None
        self.leave_out_check.setChecked(False)
        self.model.set_members(batch.members)
        self.outcome_label.clear()
        self._refresh()

    # -- review and send -------------------------------------------------------------------------

    def batch_to_send(self) -> BatchFile | None:
        """The file as it will be sent: whole, or without its wrong lines when so chosen."""
        batch = self.batch
        if batch is None:
            return None
        if batch.ok:
            return batch
        if batch.can_leave_out and self.leave_out_check.isChecked():
            return batch.without_bad_lines()
        return None

    def _show_problem(self) -> None:
        """The whole problem of the selected line, under the table (the cell may cut it)."""
        index = self.view.selectionModel().currentIndex()
        member = index.data(MEMBER_ROLE) if index.isValid() else None
        text = self.model.text(member, Column.PROBLEM) if member is not None else ""
        self.problem_label.setText(
            self.tr("Line %1: %2").replace("%1", str(member.line)).replace("%2", text)
            if text
            else ""
        )
        self.problem_label.setVisible(bool(text))

    def can_review(self) -> bool:
        return (
            self.batch_to_send() is not None
            and bool(self.key_combo.currentText().strip())
            and self.status is None
            and not self._sending
            and not self.reader.reading
        )

    def review(self) -> BatchPlan | None:
        """Choose the batch id and the txids (nothing sent) and show them for a last look."""
        if not self.can_review():
            return None
        batch = self.batch_to_send()
        assert batch is not None
        try:
            self.plan = plan_with_txids(
                self.workspace.charges,
                batch,
                key=self.key_combo.currentText().strip(),
                description=self.description_edit.text().strip() or None,
            )
        except ChargeInputError as error:
            self.banner.show_error(error, {"chave": self.key_combo})
            return None
        self.model.set_txids({m.row.line: m.txid for m in self.plan.members})
        self.review_count.setText(str(len(self.plan.members)))
        self.review_total.setText(format_brl(self.plan.total))
        self.review_batch_id.setText(self.plan.batch_id)
        self.review_key.setText(self.plan.key)
        self._refresh()
        return self.plan

    def _error_text(self, error: BatchRowError) -> str:
        """A file's error in the UI's language: where, then the rule's words."""
        if error.column:
            where = self.tr("Line %1, column %2").replace("%1", str(error.line))
            where = where.replace("%2", error.column)
        else:
            where = self.tr("Line %1").replace("%1", str(error.line))
        return f"{where}: {rule_text(error.reason)}"

    def back(self) -> None:
        """Leave the review (the file or the key can change); nothing was sent."""
        if self._sending or self.status is not None:
            return
        self.plan = None
        if self.batch is not None:
            self.model.set_members(self.batch.members)
        self._refresh()

    def can_send(self) -> bool:
        return (
            self.plan is not None
            and self.batch_to_send() is not None
            and self.status is None
            and not self._sending
        )

    def _send_clicked(self) -> None:
        if self.can_send():
            # Marked as sending before the task's first step: a second click finds Send disabled.
            self._sending = True
            self._refresh()
            self.send_task = spawn_for(self, self._send(), name="charge-batch")

    async def send(self) -> BatchStatus | None:
        """Send the reviewed batch (Send stays disabled meanwhile); ``None`` if it failed."""
        if not self.can_send():
            return None
        self._sending = True
        self._refresh()
        return await self._send()

    async def _send(self) -> BatchStatus | None:
        plan = self.plan
        assert plan is not None
        self.outcome_label.setText(self.tr("Sending the batch…"))
        try:
            # Sending the same plan again after a failure is safe: same batch id, same txids.
            status = await run_operation(
                self.workspace.charges.submit_batch(plan),
                controls=[self.send_button, self.back_button, self.open_button],
                banner=self.banner,
                changes_ledger=True,
            )
        finally:
            self._sending = False
        if status is None:
            self.outcome_label.setText(self.tr("The batch was not sent; see above."))
        else:
            self.show_status(status)
            self.batch_sent.emit(status.batch_id)
        self._refresh()
        return status

    async def refresh_status(self) -> BatchStatus | None:
        """Ask the bank again for each member's status (members become charges shortly)."""
        if self.status is None:
            return None
        status = await run_operation(
            self.workspace.charges.batch_status(self.status.batch_id),
            controls=[self.refresh_button],
            banner=self.banner,
        )
        if status is not None:
            self.show_status(status)
        return status

    def show_status(self, status: BatchStatus) -> None:
        self.status = status
        self.model.apply_status(status)
        self.outcome_label.setText(outcome_text(self, status))
        self._refresh()

    # -- state -----------------------------------------------------------------------------------

    def _refresh(self) -> None:
        batch = self.batch
        if batch is None:
            self.totals_label.setText(self.tr("Open a CSV file (or download the template first)."))
            self.file_errors_label.clear()
        else:
            text = (
                self.tr("%1 charge(s), %2 in total")
                .replace("%1", str(len(batch.good_rows)))
                .replace("%2", format_brl(batch.total))
            )
            if batch.errors:
                text += " — " + self.tr(
                    "%1 line(s) with errors: fix the file and open it again, or leave them out."
                ).replace("%1", str(len(batch.bad_lines)))
            self.totals_label.setText(text)
            self.file_errors_label.setText("\n".join(map(self._error_text, batch.general_errors())))
        self.file_errors_label.setVisible(bool(self.file_errors_label.text()))
        sent = self.status is not None
        self.review_box.setVisible(self.plan is not None)
        self.review_button.setEnabled(self.can_review() and self.plan is None)
        self.send_button.setEnabled(self.can_send())
        self.back_button.setEnabled(self.plan is not None and not sent and not self._sending)
        self.open_button.setEnabled(not sent and not self._sending and not self.reader.reading)
        self.key_combo.setEnabled(self.plan is None and not sent)
        self.description_edit.setEnabled(self.plan is None and not sent)
        self.refresh_button.setVisible(sent)
        self.errors_only_check.setEnabled(batch is not None)
        leave_out = batch is not None and batch.can_leave_out
        self.leave_out_check.setVisible(leave_out)
        self.leave_out_check.setEnabled(leave_out and self.plan is None and not sent)
        if batch is not None:
            self.leave_out_check.setText(
                self.tr("Leave out the %1 line(s) with errors and send the other %2")
                .replace("%1", str(len(batch.bad_lines)))
                .replace("%2", str(len(batch.good_rows)))
            )


def member_table(parent: QWidget, model: Any) -> QTableView:
    """A table of batch members as the dialog and the batches tab show it. Columns are sized
    once from the header, not from the contents: measuring 1,000 rows would cost the first
    render most of its time budget."""
    view = row_table(parent, model, alternating=False)
    view.setWordWrap(False)
    view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
    view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    header.setStretchLastSection(True)
    # The reason (the last column) is as wide as its longest text, so it is read whole: the
    # table scrolls sideways rather than cutting it.
    fit = partial(fit_problem_column, view)
    model.modelReset.connect(fit)
    model.dataChanged.connect(fit)
    model.rowsInserted.connect(fit)
    widths = {
        Column.LINE: 50,
        Column.TXID: 150,
        Column.NAME: 170,
        Column.DOCUMENT: 130,
        Column.AMOUNT: 100,
        Column.DUE_DATE: 90,
        Column.DESCRIPTION: 150,
        Column.STATUS: 90,
    }
    for column, width in widths.items():
        view.setColumnWidth(column, width)
    return view


PROBLEM_MEASURED = 500
"""How many rows with a reason are measured to size its column (a file of 1,000 bad lines
still opens at once; a longer reason further down has its tooltip)."""


def fit_problem_column(view: QTableView, *_args: object) -> None:
    """Size the reason column to its longest text among the rows that have one (at most
    :data:`PROBLEM_MEASURED` of them), never narrower than its header."""
    model = view.model()
    metrics = view.fontMetrics()
    header = view.horizontalHeader()
    title = str(model.headerData(Column.PROBLEM, Qt.Orientation.Horizontal) or "")
    widest = metrics.horizontalAdvance(title) + 24
    measured = 0
    for row in range(model.rowCount()):
        text = model.index(row, Column.PROBLEM).data()
        if not text:
            continue
        widest = max(widest, metrics.horizontalAdvance(str(text)) + 16)
        measured += 1
        if measured >= PROBLEM_MEASURED:
            break
    shown = sum(view.columnWidth(c) for c in range(Column.PROBLEM))
    room = view.viewport().width() - shown
    # Wider than the room left: the table scrolls sideways; else the column fills the room.
    header.setStretchLastSection(widest <= room)
    if widest > room:
        view.setColumnWidth(Column.PROBLEM, widest)


def outcome_text(widget: QWidget, status: BatchStatus) -> str:
    """``Batch 123: 3 charge(s) — Created: 2, Refused: 1``, and what to do about refusals."""
    counts = ", ".join(
        f"{code_word(Family.BATCH_MEMBER_STATUS, name)}: {count}"
        for name, count in sorted(status.counts().items())
    )
    text = (
        widget.tr("Batch %1: %2 charge(s) — %3")
        .replace("%1", status.batch_id)
        .replace("%2", str(len(status.members)))
        .replace("%3", counts)
    )
    if status.refused:
        text += " " + widget.tr(
            "The bank refused %1 charge(s): their problem is shown on their line."
        ).replace("%1", str(len(status.refused)))
    return text
