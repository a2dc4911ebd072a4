"""The "Approvals" tab: in team mode, the payments waiting for this person's approval, the ones
they prepared, and the ones decided lately; a payment opens in the approval dialog, a batch in
the batch approval dialog. Kept live by the desk's change notifications (a burst of them is one
reload); :attr:`ApprovalsTab.waiting_count_changed` tells the main window how many wait.

On a profile whose ledger is a file on this computer there is nobody else to approve: the tab
says so (:class:`DualControlPage`)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QDialog,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.ledger.errors import LedgerBlocked, LedgerUnavailable
from treasury_app.ledger.journal import Entry
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.models.approvals_model import ApprovalsModel, Column
from treasury_app.ui.operation import events, run_operation
from treasury_app.ui.widgets.error_banner import ErrorBanner, blocked_message
from treasury_app.ui.widgets.row_tables import current_row, row_table, select_row

if TYPE_CHECKING:
    from treasury_app.services.approvals import ApprovalDesk, ApprovalLists

__all__ = ["LISTS", "ApprovalsTab", "DualControlPage", "build_approvals_tab"]

RELOAD_DELAY_MS = 300
"""A change seen: the lists are read again this much later (the changes meanwhile included)."""
AGE_TICK_MS = 30_000
LISTS = ("waiting", "mine", "decided")
COLUMN_WIDTHS = {
    Column.AMOUNT: 16,
    Column.MAKER: 16,
    Column.APPROVALS: 11,
    Column.AGE: 9,
    Column.EXPIRY: 20,
    Column.STATE: 30,
}
"""Widths in characters (the payee takes what is left): set, never measured on the rows."""


def build_approvals_tab(workspace: Workspace, parent: QWidget | None = None) -> QWidget:
    """The Approvals tab of ``workspace``: its lists in team mode, else why there are none."""
    if workspace.session.approvals is None:
        return DualControlPage(parent, team=workspace.session.team is not None)
    return ApprovalsTab(workspace, parent)


class DualControlPage(QWidget):
    """What the Approvals tab says where there is nothing to approve: on a profile whose ledger
    is this computer's file, or on a team database whose policy asks for no approvals."""

    def __init__(self, parent: QWidget | None = None, *, team: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("approvals-none")
        layout = QVBoxLayout(self)
        if team:
            title = QLabel(self.tr("The team's policy asks for no approvals"), self)
            text = self.tr(
                "Each payment is sent by the person who prepares it, who types its amount "
                "again. The team database's owner turns dual control on with treasury-admin "
                "policy; the policy is shown in Settings."
            )
        else:
            title = QLabel(self.tr("Approvals by a second person need a team database"), self)
            text = self.tr(
                "This profile keeps its ledger in a file on this computer: each payment is "
                "reviewed and sent by the person who prepares it, who types its amount again. "
                "For dual control (one person prepares, another approves, and above an amount "
                "two approve), keep the ledger in the team's database: File ▸ Edit profile… ▸ "
                "Ledger."
            )
        title.setStyleSheet("font-weight: bold; font-size: 13pt;")
        title.setWordWrap(True)
        self.message = QLabel(text, self)
        self.message.setObjectName("approvals-none-message")
        self.message.setWordWrap(True)
        layout.addStretch(1)
        layout.addWidget(title)
        layout.addWidget(self.message)
        layout.addStretch(2)


class ApprovalsTab(QWidget):
    """Three lists of intents and the dialogs that decide them.

    :meth:`reload` reads the lists (tests await :attr:`load_task`); :meth:`open_entry` opens one
    intent's dialog (or its batch's) and returns it; :attr:`dialog` is the one open."""

    waiting_count_changed = Signal(int)
    desk_changed = Signal()  # the desk's notifications, delivered on the GUI thread

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        desk = workspace.session.approvals
        assert desk is not None, "the Approvals tab needs a team database with approvals"
        self.setObjectName("approvals-tab")
        self.workspace = workspace
        self.desk: ApprovalDesk = desk
        self.load_task: asyncio.Task[bool] | None = None
        self.open_task: asyncio.Task[Any] | None = None
        self.dialog: QDialog | None = None
        self.waiting_count = 0
        self.loaded = False
        self._again = False
        self._closed = False
        self._current = "waiting"

        self.banner = ErrorBanner(self)
        self.who = QLabel(self.who_text(), self)
        self.who.setObjectName("approvals-who")
        self.who.setWordWrap(True)
        self.models: dict[str, ApprovalsModel] = {}
        self.views: dict[str, QTableView] = {}
        self.boxes: dict[str, QGroupBox] = {}
        splitter = QSplitter(Qt.Orientation.Vertical, self)
        for name in LISTS:
            splitter.addWidget(self._build_list(name))
        # A list this person has no part in is left out: a maker approves nothing, an
        # approver who does not prepare has nothing of their own.
        self.boxes["waiting"].setVisible(self.desk.can_approve)
        self.boxes["mine"].setVisible(self.desk.can_prepare)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setStretchFactor(2, 2)

        self.open_button = QPushButton(self.tr("Open…"), self)
        self.open_button.setObjectName("approvals-open")
        self.open_button.clicked.connect(self._open_clicked)
        self.refresh_button = QPushButton(self.tr("Refresh"), self)
        self.refresh_button.setObjectName("approvals-refresh")
        self.refresh_button.clicked.connect(self.refresh)
        buttons = QHBoxLayout()
        buttons.addWidget(self.who, 1)
        buttons.addWidget(self.refresh_button)
        buttons.addWidget(self.open_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(buttons)
        layout.addWidget(splitter, 1)
        self._update_titles()
        self._update_open_button()

        self._reload_timer = QTimer(self)
        self._reload_timer.setSingleShot(True)
        self._reload_timer.setInterval(RELOAD_DELAY_MS)
        self._reload_timer.timeout.connect(self.refresh)
        self._age_timer = QTimer(self)
        self._age_timer.setInterval(AGE_TICK_MS)
        self._age_timer.timeout.connect(self._tick)
        self._age_timer.start()
        self.desk_changed.connect(self.schedule_reload)
        self._unsubscribe: Any = self.desk.subscribe(self.desk_changed.emit)
        events.ledger_changed.connect(self.schedule_reload)
        self.refresh()

    # -- building --------------------------------------------------------------------------------

    def list_titles(self) -> dict[str, str]:
        return {
            "waiting": self.tr("Waiting for my approval"),
            "mine": self.tr("Prepared by me"),
            "decided": self.tr("Recently decided"),
        }

    def _build_list(self, name: str) -> QGroupBox:
        box = QGroupBox(self.list_titles()[name], self)
        box.setObjectName(f"approvals-{name}-box")
        model = ApprovalsModel(self.workspace.ledger.clock, self)
        view = row_table(box, model, f"approvals-{name}", stretch=Column.PAYEE)
        view.setWordWrap(False)  # one line per intent, however long the list
        header = view.horizontalHeader()
        for column, width in COLUMN_WIDTHS.items():
            header.resizeSection(column, header.fontMetrics().averageCharWidth() * width)
        view.setSortingEnabled(True)
        # Waiting lists oldest first (the longest wait on top); decisions newest first.
        order = Qt.SortOrder.DescendingOrder if name != "decided" else Qt.SortOrder.AscendingOrder
        view.sortByColumn(Column.AGE, order)
        view.doubleClicked.connect(lambda index, n=name: self._double_clicked(n, index))
        view.selectionModel().currentRowChanged.connect(
            lambda _current, _previous, n=name: self._selected(n)
        )
        layout = QVBoxLayout(box)
        layout.addWidget(view)
        self.models[name] = model
        self.views[name] = view
        self.boxes[name] = box
        return box

    def who_text(self) -> str:
        roles = []
        if self.desk.can_prepare:
            roles.append(self.tr("prepares payments"))
        if self.desk.can_approve:
            roles.append(self.tr("approves payments"))
        if not roles:
            roles.append(self.tr("views only"))
        return (
            self.tr("Signed in to the team database as %1, who %2.")
            .replace("%1", self.desk.me)
            .replace("%2", self.tr(" and ").join(roles))
        )

    def _update_titles(self) -> None:
        titles = self.list_titles()
        for name, box in self.boxes.items():
            count = self.models[name].rowCount()
            box.setTitle(f"{titles[name]} ({count})" if self.loaded else titles[name])

    # -- loading ---------------------------------------------------------------------------------

    def schedule_reload(self) -> None:
        """Something changed: read the lists again shortly. The timer is not restarted by
        later changes, so a steady stream of them still reloads every few hundred ms."""
        if not self._closed and not self._reload_timer.isActive():
            self._reload_timer.start()

    def refresh(self) -> asyncio.Task[bool] | None:
        """Read the lists now, or right after the reload on its way."""
        if self._closed:
            return None
        if self.load_task is not None and not self.load_task.done():
            self._again = True
            return self.load_task
        self._reload_timer.stop()
        self.load_task = spawn_for(self, self.reload(), name="approvals-load")
        return self.load_task

    async def reload(self) -> bool:
        """Read the three lists and show them; ``False`` when the answer came too late or the
        team database could not be reached (the banner says so, the lists stay)."""
        try:
            lists = await self.desk.lists()
        except LedgerUnavailable as error:
            if not self._closed:
                if isinstance(error, LedgerBlocked):
                    self.banner.show_message(*blocked_message(error))
                else:
                    self.banner.show_message(
                        self.tr("The team database cannot be reached"), failure_words(error)
                    )
            return False
        finally:
            if self._again and not self._closed:
                self._again = False
                QTimer.singleShot(0, self.schedule_reload)
        if self._closed:
            return False
        self.show_lists(lists)
        return True

    def show_lists(self, lists: ApprovalLists) -> None:
        self.banner.clear()
        rows = {
            "waiting": lists.waiting_for_me,
            "mine": lists.prepared_by_me,
            "decided": lists.decided,
        }
        selected = self.selected_entry()  # kept across the reload, in its own list only
        for name, entries in rows.items():
            self.models[name].reset_rows(entries)
        if selected is not None:
            select_row(self.views[self._current], self.models[self._current].row_of(selected.id))
        self.loaded = True
        self._update_titles()
        self._update_open_button()
        self.waiting_count = len(lists.waiting_for_me)
        self.waiting_count_changed.emit(self.waiting_count)

    def _tick(self) -> None:
        for model in self.models.values():
            model.tick()

    # -- opening ---------------------------------------------------------------------------------

    def _selected(self, name: str) -> None:
        self._current = name
        for other, view in self.views.items():
            if other != name:
                view.selectionModel().clearSelection()
        self._update_open_button()

    def selected_entry(self) -> Entry | None:
        view = self.views[self._current]
        row = current_row(view)
        if row is None or not view.selectionModel().hasSelection():
            return None
        return self.models[self._current].row_or_none(row)

    def _update_open_button(self) -> None:
        self.open_button.setEnabled(self.selected_entry() is not None)

    def _double_clicked(self, name: str, index: QModelIndex) -> None:
        entry = self.models[name].row_or_none(index.row())
        if entry is not None:
            self._open(entry, name)

    def _open_clicked(self) -> None:
        entry = self.selected_entry()
        if entry is not None:
            self._open(entry, self._current)

    def _open(self, entry: Entry, name: str) -> None:
        if self.dialog is not None:
            self.dialog.raise_()
            self.dialog.activateWindow()
            return
        if self.open_task is None or self.open_task.done():
            self.open_task = spawn_for(self, self.open_entry(entry, name), name="approvals-open")

    async def open_entry(self, entry: Entry, name: str = "waiting") -> QDialog | None:
        """Open ``entry`` from the list ``name``: a batch row waiting for this person opens its
        whole batch (decided as one); any other row its own dialog."""
        if name == "waiting" and entry.batch:
            return await self.open_batch(entry.batch)
        from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog

        detail = await run_operation(
            self.desk.detail(entry), controls=[self.open_button], banner=self.banner
        )
        if detail is None or self._closed:
            return None
        payees = getattr(self.workspace, "payees", None)
        return self._show(ApprovalDialog(self.desk, detail, self, payees=payees))

    async def open_batch(self, batch_id: str) -> QDialog | None:
        from treasury_app.ui.dialogs.batch_approval_dialog import BatchApprovalDialog

        rows = await run_operation(
            self.desk.batch_rows(batch_id), controls=[self.open_button], banner=self.banner
        )
        if rows is None or self._closed:
            return None
        return self._show(BatchApprovalDialog(self.desk, batch_id, rows, self))

    def _show(self, dialog: QDialog) -> QDialog:
        """Window-modal, never exec(): the dialog runs its own actions and stays until closed."""
        self.dialog = dialog
        dialog.decided.connect(lambda _decided: self.schedule_reload())  # type: ignore[attr-defined]
        dialog.finished.connect(lambda _result, d=dialog: self._dialog_finished(d))
        dialog.open()
        return dialog

    def _dialog_finished(self, dialog: QDialog) -> None:
        if self.dialog is dialog:
            self.dialog = None
        dialog.deleteLater()
        self.schedule_reload()

    # -- lifecycle -------------------------------------------------------------------------------

    def shutdown(self) -> None:
        """Stop listening and cancel the reads on their way (an approval on its way finishes:
        the database decides it whole or not at all)."""
        if self._closed:
            return
        self._closed = True
        self._reload_timer.stop()
        self._age_timer.stop()
        with contextlib.suppress(ValueError, RuntimeError):
            self._unsubscribe()
        with contextlib.suppress(RuntimeError, TypeError):
            events.ledger_changed.disconnect(self.schedule_reload)
        for task in (self.load_task, self.open_task):
            if task is not None and not task.done():
                task.cancel()
        if self.dialog is not None:
            self.dialog.reject()
