"""The Pix received in a date range (on charges or straight to a key), what was refunded of
each so far, and the door to refunding the selected one (:class:`RefundDialog`). A refund
whose answer was lost stays with its Pix here, so that the next dialog checks that id instead
of making a new refund. On a team database a Pix or refund the bank notifies (through the
team's webhook receiver) reloads the list, with no polling."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import CreditDebitType, TransactionType
from treasury_app.api.errors import ApiFailure
from treasury_app.api.qrcodes.cashin_models import Devolucao, Pix
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.dialogs.refund_dialog import PendingRefund, RefundDialog, with_refund
from treasury_app.ui.live_reload import BankEventsFeed
from treasury_app.ui.models.received_pix_model import (
    Column,
    Payer,
    PixRow,
    ReceivedPixFilter,
    ReceivedPixModel,
)
from treasury_app.ui.widgets.range_list import RangeList
from treasury_app.ui.widgets.row_tables import search_box

if TYPE_CHECKING:
    from treasury_app.services.notifications import BankChanges

__all__ = ["ReceivedPixList", "load_received_pix", "statement_payers"]

DEFAULT_DAYS = 7
log = logging.getLogger("treasury_app.ui.received_pix")


async def load_received_pix(
    workspace: Workspace, start: dt.date, end: dt.date, *, page_size: int | None = None
) -> tuple[list[Pix], dict[str, Payer]]:
    """Every Pix received in ``[start, end]`` (whole days in Brasília), every page, and who
    sent each (from the statement: BCB's ``Pix`` names no payer)."""

    async def received() -> list[Pix]:
        items = workspace.charges.iter_received_pix(start=start, end=end, page_size=page_size)
        return [pix async for pix in items]

    items, payers = await asyncio.gather(received(), statement_payers(workspace, start, end))
    return items, payers


async def statement_payers(workspace: Workspace, start: dt.date, end: dt.date) -> dict[str, Payer]:
    """endToEndId → payer of the Pix credited in the range (a day more on each side: the
    statement's days and the Pix API's may differ near midnight). A statement that cannot be
    read leaves the payers unknown rather than the list empty."""
    try:
        entries = await workspace.statement.entries(
            start - dt.timedelta(days=1),
            end + dt.timedelta(days=1),
            credit_debit=CreditDebitType.CREDIT,
            transaction_type=TransactionType.PIX,
        )
    except ApiFailure as error:
        log.info("payers unknown: the statement could not be read (%s)", error)
        return {}
    return {
        entry.end_to_end_id: Payer(entry.counterparty.name or "", entry.counterparty.document or "")
        for entry in entries
        if entry.end_to_end_id and entry.counterparty is not None
    }


class ReceivedPixList(RangeList[PixRow]):
    """Received Pix of a date range (default: the last :data:`DEFAULT_DAYS` days up to the
    bank's today). The container spawns :meth:`reload`; "Refund…" runs :meth:`refund_selected`
    (tests await :attr:`task`; :attr:`refund_dialog` is the dialog open)."""

    prefix = "received"
    default_days = DEFAULT_DAYS
    model: ReceivedPixModel
    proxy: ReceivedPixFilter
    bank_changes = Signal(object)  # BankChanges: what the team's receiver applied

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(workspace, "received-pix-reload", parent)
        self.refund_dialog: RefundDialog | None = None  # the one open
        self._following: set[asyncio.Task[Any]] = set()  # refunds followed after their dialog
        # endToEndId → a refund asked for whose outcome is unknown: the next dialog checks it.
        self.pending_refunds: dict[str, PendingRefund] = {}
        self.model = ReceivedPixModel(self)
        self.proxy = ReceivedPixFilter(self)
        self.proxy.setSourceModel(self.model)

        range_row = self.build_range(self.tr("Received from"))
        self.search_edit = search_box(
            self,
            "received-search",
            self.tr("Search endToEndId, txid, payer, amount"),
            self.proxy.set_text,
        )
        range_row.addWidget(self.search_edit, 1)
        range_row.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(range_row)
        layout.addWidget(self.build_view(Column.PAYER, Column.TIME), 1)
        layout.addLayout(self._build_actions())
        self.view.doubleClicked.connect(lambda _index: self._refund_clicked())

        self.view.selectionModel().currentRowChanged.connect(self._update_buttons)
        for signal in (
            self.proxy.modelReset,
            self.proxy.layoutChanged,
            self.proxy.rowsRemoved,
            self.proxy.rowsInserted,
            self.proxy.dataChanged,
        ):
            signal.connect(self._update_buttons)
        self.bank_changes.connect(self._bank_changes)
        self._events = BankEventsFeed(workspace.session, self.bank_changes.emit)
        self._update_buttons()

    def _bank_changes(self, changes: BankChanges) -> None:
        """A Pix received, a credit or refund of the account, or everything after a lost link:
        reload (when shown, once for a burst)."""
        if changes.everything or changes.received:
            self.live.schedule()

    def shutdown(self) -> None:
        self._events.close()
        super().shutdown()

    def _build_actions(self) -> QHBoxLayout:
        self.refund_button = QPushButton(self.tr("Refund…"), self)
        self.refund_button.setObjectName("received-refund")
        self.refund_button.setToolTip(
            self.tr("Return all or part of the selected Pix to its payer")
        )
        self.refund_button.clicked.connect(self._refund_clicked)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.refund_button)
        return row

    # -- loading ---------------------------------------------------------------------------------

    def load(self, start: dt.date, end: dt.date) -> Awaitable[tuple[list[Pix], dict[str, Payer]]]:
        return load_received_pix(self.workspace, start, end)

    def show_loaded(self, loaded: tuple[list[Pix], dict[str, Payer]]) -> None:
        items, payers = loaded
        self.model.set_pix([self._changed.get(p.end_to_end_id, p) for p in items], payers)

    def running(self) -> list[asyncio.Task[Any] | None]:
        """A refund already asked for is the bank's: it settles whether or not it is followed
        here."""
        return [*super().running(), *self._following]

    # -- selection -------------------------------------------------------------------------------

    def selected_pix(self) -> PixRow | None:
        return self.selected_row()

    def select_pix(self, end_to_end_id: str) -> bool:
        return self.select_key(end_to_end_id)

    def _update_buttons(self, *_args: object) -> None:
        if not shiboken6.isValid(self):
            return
        self.show_count(self.tr("%1 Pix"), self.tr("%1 of %2 Pix"))
        selected = self.selected_pix()
        busy = self.task is not None and not self.task.done()
        self.refund_button.setEnabled(selected is not None and selected.left > 0 and not busy)

    # -- refunds ---------------------------------------------------------------------------------

    def _refund_clicked(self) -> None:
        if self.task is not None and not self.task.done():
            return
        if self.selected_pix() is None:
            return
        self.task = spawn_for(self, self.refund_selected(), name="received-pix-refund")
        self.task.add_done_callback(lambda _t: self._update_buttons())
        self._update_buttons()

    async def refund_selected(self) -> RefundDialog | None:
        """Open the refund dialog for the selected Pix and wait until it is closed; the row
        follows the refund's status (also after the dialog is closed)."""
        selected = self.selected_pix()
        if selected is None or selected.left <= 0:
            return None
        pix = selected.pix
        dialog = RefundDialog(
            self.workspace,
            pix,
            self,
            payer=selected.payer_text,
            pending=self.pending_refunds.get(pix.end_to_end_id),
        )
        dialog.refund_changed.connect(lambda refund: self._refund_changed(pix, refund))
        dialog.outcome_unknown.connect(self._refund_unknown)
        self.refund_dialog = dialog
        try:
            await ask(dialog)
        finally:
            running = [
                task
                for task in (dialog.send_task, dialog.check_task)
                if task is not None and not task.done()
            ]
            if running:
                await asyncio.wait(running)
            self.refund_dialog = None
            follow = dialog.follow_task
            if follow is None or follow.done():
                dispose(dialog)
            else:  # kept until the refund is final: its row keeps following it
                self._following.add(follow)
                follow.add_done_callback(lambda task: self._followed(task, dialog))
        return dialog

    def _followed(self, task: asyncio.Task[Any], dialog: RefundDialog) -> None:
        self._following.discard(task)
        if shiboken6.isValid(dialog):
            dialog.deleteLater()

    def _refund_unknown(self, pending: PendingRefund) -> None:
        """A refund's answer was lost: keep its id for the next dialog of this Pix, and reload
        (the bank may have made it; the dialog's failure announced no change)."""
        if not shiboken6.isValid(self):
            return
        self.pending_refunds[pending.end_to_end_id] = pending
        self.live.schedule()

    def _refund_changed(self, pix: Pix, refund: Devolucao) -> None:
        """Show a refund's new status in its row at once (no request)."""
        if not shiboken6.isValid(self):
            return
        pending = self.pending_refunds.get(pix.end_to_end_id)
        if pending is not None and pending.refund_id == refund.id:  # the bank has it: known
            del self.pending_refunds[pix.end_to_end_id]
        row = self.model.row_of(pix.end_to_end_id)
        current = self.model.row_at(row).pix if row is not None else pix
        changed = with_refund(current, refund)
        self._changed[changed.end_to_end_id] = changed
        self.model.upsert(changed)
