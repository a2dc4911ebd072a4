"""The batch approval dialog (team mode): a payout batch prepared from CSV, approved as one
decision after its count, its total and every row were shown; a row may be rejected on its own
(ticked, with a reason) and is then never sent. The total of the rows approved is typed again,
as every amount that moves money in this app."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from decimal import Decimal
from enum import IntEnum
from typing import TYPE_CHECKING, Any

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
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.services.approvals import batch_blocker
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.bank_names import detail_cell
from treasury_app.ui.dialogs.approval_dialog import ACTION_ERRORS, refusal_text, refusal_title
from treasury_app.ui.models.paid_slips_model import entry_status
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.status_words import approval_word, decision_reason_word, status_word
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation
from treasury_app.ui.widgets.error_banner import ErrorBanner

if TYPE_CHECKING:
    from treasury_app.services.approvals import ApprovalDesk

__all__ = ["BatchApprovalDialog", "BatchColumn", "BatchRowsModel"]

Index = QModelIndex | QPersistentModelIndex
ZERO = Decimal("0.00")


class BatchColumn(IntEnum):
    REJECT = 0
    NUMBER = 1
    PAYEE = 2
    AMOUNT = 3
    APPROVALS = 4
    STATE = 5
    REASON = 6


class BatchRowsModel(QAbstractTableModel):
    """The rows of one batch; a waiting row can be ticked for rejection and given a reason
    (the only editable cells)."""

    rejects_changed = Signal()

    def __init__(self, rows: Sequence[Entry], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.entries: list[Entry] = list(rows)
        self.rejected: dict[int, str] = {}  # entry id -> reason (may be "" while typed)
        self.locked = False  # once decided: nothing can be ticked any more
        self._headers = {
            BatchColumn.REJECT: self.tr("Reject"),
            BatchColumn.NUMBER: self.tr("#"),
            BatchColumn.PAYEE: self.tr("Payee"),
            BatchColumn.AMOUNT: self.tr("Amount"),
            BatchColumn.APPROVALS: self.tr("Approvals"),
            BatchColumn.STATE: self.tr("State"),
            BatchColumn.REASON: self.tr("Reason for rejecting"),
        }

    # -- content ---------------------------------------------------------------------------------

    def waiting(self, entry: Entry) -> bool:
        return entry.waiting_approval

    def to_approve(self) -> list[Entry]:
        return [e for e in self.entries if self.waiting(e) and e.id not in self.rejected]

    def to_reject(self) -> list[Entry]:
        return [e for e in self.entries if self.waiting(e) and e.id in self.rejected]

    def set_rejected(self, row: int, rejected: bool, reason: str | None = None) -> bool:
        """Tick (or untick) a row for rejection; ``False`` for a row that cannot be."""
        entry = self.entries[row]
        if self.locked or not self.waiting(entry):
            return False
        if rejected:
            self.rejected[entry.id] = (
                reason if reason is not None else self.rejected.get(entry.id, "")
            )
        else:
            self.rejected.pop(entry.id, None)
        self.dataChanged.emit(self.index(row, 0), self.index(row, self.columnCount() - 1))
        self.rejects_changed.emit()
        return True

    def replace_entries(self, entries: Sequence[Entry]) -> None:
        """After the decision: each row as the ledger now has it."""
        by_id = {entry.id: entry for entry in entries}
        self.beginResetModel()
        self.entries = [by_id.get(entry.id, entry) for entry in self.entries]
        self.locked = True
        self.endResetModel()

    # -- words -----------------------------------------------------------------------------------

    def state_text(self, entry: Entry) -> str:
        if entry.approval in ("REJECTED", "WITHDRAWN"):
            return approval_word(entry) or status_word(entry.state.value)
        if entry.state != EntryState.PREPARED:
            return status_word(entry_status(entry))
        return approval_word(entry, released=True) or status_word(entry.state.value)

    def text(self, entry: Entry, column: BatchColumn) -> str:
        if column == BatchColumn.NUMBER:
            return str(entry.id)
        if column == BatchColumn.PAYEE:
            name = entry.creditor_name or entry.payee_name
            return f"{name} ({detail_cell(entry)})" if name else detail_cell(entry)
        if column == BatchColumn.AMOUNT:
            return format_brl(entry.amount)
        if column == BatchColumn.APPROVALS:
            text = f"{entry.approvals_given} / {entry.approvals_needed}"
            return text + (" " + self.tr("(new payee)") if entry.new_payee else "")
        if column == BatchColumn.STATE:
            return self.state_text(entry)
        if column == BatchColumn.REASON:
            return self.rejected.get(entry.id, decision_reason_word(entry))
        return ""

    # -- Qt's API --------------------------------------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(self.entries)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt's API
        return 0 if parent.isValid() else len(BatchColumn)

    def headerData(  # noqa: N802 - Qt's name
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self._headers.get(BatchColumn(section))
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        entry = self.entries[index.row()]
        flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if self.locked or not self.waiting(entry):
            return flags
        if index.column() == BatchColumn.REJECT:
            flags |= Qt.ItemFlag.ItemIsUserCheckable
        if index.column() == BatchColumn.REASON and entry.id in self.rejected:
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.entries):
            return None
        entry = self.entries[index.row()]
        column = BatchColumn(index.column())
        if role == Qt.ItemDataRole.CheckStateRole and column == BatchColumn.REJECT:
            if not self.waiting(entry) and not self.locked:
                return None
            rejected = entry.id in self.rejected or entry.approval == "REJECTED"
            return Qt.CheckState.Checked if rejected else Qt.CheckState.Unchecked
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return self.text(entry, column)
        if (
            role == Qt.ItemDataRole.ToolTipRole
            and column == BatchColumn.REASON
            and entry.id in self.rejected
            and not self.rejected[entry.id]
        ):
            return self.tr("Type why this row is rejected (double-click here).")
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (
            BatchColumn.NUMBER,
            BatchColumn.AMOUNT,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def setData(  # noqa: N802 - Qt's name
        self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole
    ) -> bool:
        if not index.isValid():
            return False
        column = BatchColumn(index.column())
        if role == Qt.ItemDataRole.CheckStateRole and column == BatchColumn.REJECT:
            checked = Qt.CheckState(value) == Qt.CheckState.Checked
            return self.set_rejected(index.row(), checked)
        if role == Qt.ItemDataRole.EditRole and column == BatchColumn.REASON:
            entry = self.entries[index.row()]
            if self.locked or entry.id not in self.rejected:
                return False
            self.rejected[entry.id] = " ".join(str(value).split())
            self.dataChanged.emit(index, index)
            self.rejects_changed.emit()
            return True
        return False


class BatchApprovalDialog(QDialog):
    """The rows of ``batch_id`` (``rows``, from :meth:`ApprovalDesk.batch_rows`) decided as
    one: approve the rows not ticked, reject the ticked ones with their reasons.
    :attr:`action_task` is the decision on its way (tests await it)."""

    decided = Signal(object)  # the rows after the decision

    def __init__(
        self,
        desk: ApprovalDesk,
        batch_id: str,
        rows: Sequence[Entry],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.desk = desk
        self.batch_id = batch_id
        self.results: list[Entry] | None = None
        self.action_task: asyncio.Task[list[Entry] | None] | None = None
        self._busy = False
        self.setObjectName("batch-approval")
        self.setWindowTitle(self.tr("Approve a batch"))
        resize_to_fit(self, 900, 680)
        self.model = BatchRowsModel(rows, self)
        self.model.rejects_changed.connect(self._rejects_changed)

        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        self.header = QLabel(self)
        self.header.setObjectName("batch-approval-header")
        self.header.setWordWrap(True)
        self.header.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.header)
        self.view = QTableView(self)
        self.view.setObjectName("batch-approval-rows")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
            | QAbstractItemView.EditTrigger.AnyKeyPressed
        )
        self.view.verticalHeader().hide()
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setResizeContentsPrecision(200)  # sized from the first rows: a batch may be long
        header.setSectionResizeMode(BatchColumn.PAYEE, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(BatchColumn.REASON, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.view, 1)

        self.totals_label = QLabel(self)
        self.totals_label.setObjectName("batch-approval-totals")
        self.totals_label.setWordWrap(True)
        layout.addWidget(self.totals_label)
        self.blocker_label = QLabel(self)
        self.blocker_label.setObjectName("batch-approval-blocker")
        self.blocker_label.setWordWrap(True)
        self.blocker_label.setStyleSheet(text_style("warning", self))
        layout.addWidget(self.blocker_label)

        self.password_edit = QLineEdit(self)
        self.password_edit.setObjectName("batch-approval-password")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setPlaceholderText(self.tr("Your team database password, to approve"))
        self.password_edit.setVisible(desk.password_required)
        layout.addWidget(self.password_edit)

        self.confirmation = AmountConfirmation(
            ZERO,
            prompt="",
            mismatch=self.tr("This is not the total of the rows approved."),
            action="",
            name="batch-approval",
            parent=self,
        )
        self.confirmation.confirmed.connect(self._confirmed)
        self.confirmation.cancel_button.setText(self.tr("Close"))
        self.confirmation.cancel_button.clicked.connect(self.reject)
        self.confirm_edit = self.confirmation.edit
        self.approve_button = self.confirmation.action_button
        self.approve_button.setObjectName("batch-approval-approve")
        layout.addWidget(self.confirmation)

        self.status = QLabel(self)
        self.status.setObjectName("batch-approval-status")
        self.status.setWordWrap(True)
        self.status.setStyleSheet("font-weight: bold;")
        layout.addWidget(self.status)
        self._show_header()
        self._rejects_changed()

    # -- words -----------------------------------------------------------------------------------

    def _show_header(self) -> None:
        waiting = [e for e in self.model.entries if e.waiting_approval]
        makers = sorted({e.created_by for e in self.model.entries})
        self.header.setText(
            self.tr("Batch %1, prepared by %2: %3 payment(s) waiting, %4 in total.")
            .replace("%1", self.batch_id)
            .replace("%2", ", ".join(makers))
            .replace("%3", str(len(waiting)))
            .replace("%4", format_brl(sum((e.amount for e in waiting), ZERO)))
        )

    def total_to_approve(self) -> Decimal:
        return sum((entry.amount for entry in self.model.to_approve()), ZERO)

    def blocker(self) -> str:
        """Why this person cannot decide this batch ("" when they can): the approvals
        service's rule (:func:`~treasury_app.services.approvals.batch_blocker`), in words."""
        if self.results is not None:
            return ""
        blocker = batch_blocker(
            self.model.entries,
            self.desk.me,
            can_approve=self.desk.can_approve,
            reject_reasons=self.model.rejected.values(),
        )
        return rule_text(blocker) if blocker is not None else ""

    def _rejects_changed(self) -> None:
        approve = self.model.to_approve()
        reject = self.model.to_reject()
        total = self.total_to_approve()
        self.totals_label.setText(
            self.tr("To approve: %1 payment(s), %2. To reject: %3 payment(s), %4.")
            .replace("%1", str(len(approve)))
            .replace("%2", format_brl(total))
            .replace("%3", str(len(reject)))
            .replace("%4", format_brl(sum((e.amount for e in reject), ZERO)))
        )
        self.confirmation.amount = total
        self.confirmation.label.setText(
            self.tr("To decide, type the total of the rows approved (%1):").replace(
                "%1", format_brl(total)
            )
        )
        if approve:
            action = self.tr("Approve %1 payment(s)").replace("%1", str(len(approve)))
            if reject:
                action += " " + self.tr("and reject %1").replace("%1", str(len(reject)))
        else:
            action = self.tr("Reject the whole batch")
        self.approve_button.setText(action)
        self.confirm_edit.clear()  # the total changed: typed again
        self._update_controls()

    def _update_controls(self) -> None:
        blocker = self.blocker()
        self.blocker_label.setText(blocker)
        self.blocker_label.setVisible(bool(blocker))
        allowed = not blocker and not self._busy and self.results is None
        self.confirm_edit.setEnabled(allowed)
        self.password_edit.setEnabled(allowed)
        if not allowed:
            self.approve_button.setEnabled(False)

    # -- deciding --------------------------------------------------------------------------------

    def _reset_confirmation(self) -> None:
        if not shiboken6.isValid(self):
            return
        self.confirmation.done = False
        self.confirm_edit.setReadOnly(False)
        self.confirm_edit.clear()
        self._update_controls()

    def _confirmed(self) -> None:
        try:
            typed = parse_brl(self.confirm_edit.text())
        except DomainError:
            typed = None
        password = self.password_edit.text() if self.desk.password_required else None
        if typed != self.total_to_approve() or self.blocker():
            self._reset_confirmation()
            return
        if self.desk.password_required and not password:
            self.confirmation.hint.setText(self.tr("Type your team database password first."))
            self._reset_confirmation()
            return
        self.action_task = spawn_for(self, self.decide(password=password), name="batch-approve")

    async def decide(self, *, password: str | None = None) -> list[Entry] | None:
        """Approve the rows not ticked and reject the ticked ones, as one decision."""
        rejects = {entry.id: self.model.rejected[entry.id] for entry in self.model.to_reject()}
        self.banner.clear()
        self.status.setText(self.tr("Deciding the batch…"))
        self.status.setStyleSheet("font-weight: bold;")
        self._busy = True
        self._update_controls()
        reviewed = list(self.model.entries)  # the rows as shown: the decision is bound to them
        try:
            results = await run_operation(
                self.desk.approve_batch(
                    self.batch_id, rejects, reviewed=reviewed, password=password
                ),
                controls=[self.confirmation.cancel_button, self.view],
                changes_ledger=True,
            )
        except ACTION_ERRORS as error:
            self.banner.show_message(refusal_title(error), refusal_text(error))
            self.status.setText(self.tr("Not decided: %1").replace("%1", refusal_text(error)))
            self.status.setStyleSheet(f"font-weight: bold; {text_style('error', self)}")
            self._busy = False
            self._reset_confirmation()
            return None
        finally:
            self._busy = False
        self.results = list(results or [])
        self.model.replace_entries(self.results)
        self.status.setText(self.summary_text(self.results, len(rejects)))
        self.status.setStyleSheet(f"font-weight: bold; {text_style('success', self)}")
        self._update_controls()
        self.decided.emit(self.results)
        return self.results

    def summary(self, entries: Sequence[Entry]) -> dict[str, int]:
        by_id = {entry.id: entry for entry in entries}
        rows = [by_id.get(entry.id, entry) for entry in self.model.entries]
        sent = [e for e in rows if e.approval == "RELEASED" and e.state != EntryState.PREPARED]
        return {
            "rejected": sum(1 for e in rows if e.approval == "REJECTED"),
            "waiting": sum(1 for e in rows if e.approval == "WAITING"),
            "approved": sum(1 for e in rows if e.approval in ("APPROVED", "RELEASED")),
            "sent": len(sent),
            "accepted": sum(1 for e in sent if e.state == EntryState.ACCEPTED),
            "refused": sum(1 for e in sent if e.state == EntryState.REJECTED),
            "unknown": sum(1 for e in sent if e.unresolved),
        }

    def summary_text(self, entries: Sequence[Entry], rejected: int) -> str:
        counts = self.summary(entries)
        text = (
            self.tr("Decided: %1 approved, %2 rejected (never sent).")
            .replace("%1", str(counts["approved"] + counts["waiting"]))
            .replace("%2", str(rejected))
        )
        if counts["sent"]:
            text += " " + (
                self.tr("Sent: %1 (accepted %2, refused %3, outcome unknown %4).")
                .replace("%1", str(counts["sent"]))
                .replace("%2", str(counts["accepted"]))
                .replace("%3", str(counts["refused"]))
                .replace("%4", str(counts["unknown"]))
            )
        if counts["waiting"]:
            text += " " + self.tr("%1 row(s) wait for another approver.").replace(
                "%1", str(counts["waiting"])
            )
        return text
