"""Every webhook slot of both APIs in one table (registered or not), each opened in the edit
dialog to register, replace or remove it. Header values are never known here: the table
shows header names with a mask.

On a team database, "Use the team's receiver…" points every slot at the team's webhook
receiver in one action (:mod:`~treasury_app.ui.dialogs.team_receiver_dialog`); on the file
ledger the panel says why there is no receiver and that payments are polled as always."""

from __future__ import annotations

import asyncio
from typing import Any

import shiboken6
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.services.webhooks import WebhookView
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.code_words import api_word
from treasury_app.ui.dialogs.team_receiver_dialog import TeamReceiverDialog
from treasury_app.ui.dialogs.webhook_dialog import SECRET_MASK, WebhookDialog, kind_label
from treasury_app.ui.operation import run_operation
from treasury_app.ui.theme import text_style, tone_color
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["COLUMNS", "WebhooksPanel", "masked_headers"]

COLUMNS = ("kind", "key", "url", "api", "enabled", "method", "pause_on_fail", "email", "headers")
"""Column order of the table (``kind`` first, ``url`` third: the settings tab's test reads
them)."""


def masked_headers(names: tuple[str, ...]) -> str:
    """``X-Api-Key: ••••••••, X-Tenant: ••••••••``: names only, values may be secrets."""
    return ", ".join(f"{name}: {SECRET_MASK}" for name in names)


class WebhooksPanel(QWidget):
    """The webhooks table. :meth:`reload` asks both APIs; :meth:`edit` opens a row's dialog
    (:attr:`dialog` while it is shown, :attr:`edit_task` the edit on its way)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("webhooks-panel")
        self.workspace = workspace
        self.views: list[WebhookView] = []
        self.dialog: WebhookDialog | None = None
        self.edit_task: asyncio.Task[Any] | None = None
        self.receiver_dialog: TeamReceiverDialog | None = None
        self.receiver_task: asyncio.Task[Any] | None = None
        self.notifications = getattr(workspace.session, "notifications", None)

        self.banner = ErrorBanner(self)
        intro = QLabel(
            self.tr(
                "Where the bank notifies the company: per Pix key and for recurrences on the QR "
                "Codes API, per event type on the Accounts API. Only HTTPS addresses are "
                "accepted. Double-click a row to change it."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setObjectName("webhooks-table")
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Kind"),
                self.tr("Pix key"),
                self.tr("Address"),
                self.tr("API"),
                self.tr("Enabled"),
                self.tr("Method"),
                self.tr("Pause on fail"),
                self.tr("E-mail"),
                self.tr("Headers"),
            ]
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COLUMNS.index("url"), QHeaderView.ResizeMode.Stretch)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().hide()
        self.table.cellDoubleClicked.connect(lambda row, _column: self._edit_clicked(row))
        self.table.currentCellChanged.connect(lambda *_: self._update_buttons())

        self.reload_button = QPushButton(self.tr("Check webhooks"), self)
        self.reload_button.setObjectName("check-webhooks")
        self.reload_button.clicked.connect(
            lambda: spawn_for(self, self.reload(), name="webhooks-reload")
        )
        self.edit_button = QPushButton(self.tr("Edit…"), self)
        self.edit_button.setObjectName("edit-webhook")
        self.edit_button.clicked.connect(lambda: self._edit_clicked(self.table.currentRow()))
        self.receiver_button = QPushButton(self.tr("Use the team's receiver…"), self)
        self.receiver_button.setObjectName("use-team-receiver")
        self.receiver_button.setToolTip(
            self.tr("Register the team's webhook receiver for every Pix key and event type")
        )
        self.receiver_button.clicked.connect(self._receiver_clicked)
        self.receiver_button.setVisible(self.notifications is not None)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reload_button)
        buttons.addWidget(self.receiver_button)
        buttons.addStretch(1)
        buttons.addWidget(self.edit_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(intro)
        layout.addWidget(self._receiver_note())
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        self._update_buttons()

    def _receiver_note(self) -> QLabel:
        if self.notifications is None:
            text = self.tr(
                "Notifications: polling. This profile keeps its ledger on this computer, and "
                "the bank can only notify a webhook receiver that writes into a team database "
                "(a desktop cannot be reached from the internet). The app asks the bank for "
                "each payment's status, as it always has."
            )
        else:
            text = self.tr(
                "Team database: the team's webhook receiver writes what the bank notifies into "
                "it, and every desktop sees it at once. The button below points every webhook "
                "at it."
            )
        self.receiver_note = QLabel(text, self)
        self.receiver_note.setObjectName("webhooks-receiver-note")
        self.receiver_note.setWordWrap(True)
        self.receiver_note.setStyleSheet(text_style("muted", self))
        return self.receiver_note

    # -- loading ---------------------------------------------------------------------------------

    async def reload(self) -> None:
        """Ask both APIs which webhooks are registered and fill the table."""
        views = await run_operation(
            self.workspace.webhooks.overview(),
            controls=[self.reload_button],
            banner=self.banner,
        )
        if views is None:
            return
        self.views = views
        self.table.setRowCount(len(views))
        for row, view in enumerate(views):
            for column, text in enumerate(self.row_texts(view)):
                item = QTableWidgetItem(text)
                if COLUMNS[column] == "kind":
                    item.setToolTip(kind_label(view.kind))
                if COLUMNS[column] == "url" and view.delivery_url:
                    item.setToolTip(
                        self.tr("The bank posts to %1").replace("%1", view.delivery_url)
                    )
                if COLUMNS[column] == "url" and not view.registered:
                    item.setForeground(tone_color("muted", self.table, on=QPalette.ColorRole.Base))
                self.table.setItem(row, column, item)
        self._update_buttons()

    def row_texts(self, view: WebhookView) -> list[str]:
        """The cells of one slot, in :data:`COLUMNS` order."""

        def yes_no(flag: bool | None) -> str:
            if flag is None:
                return ""
            return self.tr("yes") if flag else self.tr("no")

        return [
            view.kind.value,
            view.key or "",
            view.url or self.tr("(not registered)"),
            api_word(view.api),
            yes_no(view.enabled),
            view.method or "",
            yes_no(view.pause_on_fail),
            view.email or "",
            masked_headers(view.header_names),
        ]

    def row_of(self, kind: str, key: str | None = None) -> int | None:
        """The row of a slot (``kind`` as in :class:`WebhookKind`; ``key`` for Pix)."""
        for row, view in enumerate(self.views):
            if view.kind.value == kind and view.key == key:
                return row
        return None

    # -- editing ---------------------------------------------------------------------------------

    def _update_buttons(self) -> None:
        busy = self.edit_task is not None and not self.edit_task.done()
        self.edit_button.setEnabled(0 <= self.table.currentRow() < len(self.views) and not busy)
        receiving = self.receiver_task is not None and not self.receiver_task.done()
        self.receiver_button.setEnabled(self.notifications is not None and not receiving)

    def _edit_clicked(self, row: int) -> None:
        if not 0 <= row < len(self.views) or (self.edit_task and not self.edit_task.done()):
            return
        self.edit_task = spawn_for(self, self.edit(row), name="webhook-edit")
        self.edit_task.add_done_callback(lambda _task: self._task_done())
        self._update_buttons()

    def _task_done(self) -> None:
        if shiboken6.isValid(self):
            self._update_buttons()

    async def edit(self, row: int) -> str | None:
        """Open the dialog of ``row``; after a change, reload the table. The dialog's outcome
        (``"registered"``, ``"removed"``) or ``None`` when closed without a change. A change
        still on its way when the dialog closed is waited for: its answer decides."""
        dialog = WebhookDialog(self.views[row], self.workspace.webhooks, self)
        self.dialog = dialog
        try:
            await ask(dialog)
            if dialog.task is not None and not dialog.task.done():
                await asyncio.wait({dialog.task})  # not cancelled with this edit
            outcome = dialog.outcome  # set only once the bank took the change
        finally:
            self.dialog = None
            dispose(dialog)
        if outcome is not None:
            await self.reload()
        return outcome

    # -- the team's receiver --------------------------------------------------------------------

    def _receiver_clicked(self) -> None:
        if self.receiver_task is None or self.receiver_task.done():
            self.receiver_task = spawn_for(self, self.use_team_receiver(), name="use-team-receiver")
            self.receiver_task.add_done_callback(lambda _task: self._task_done())
            self._update_buttons()

    async def use_team_receiver(self) -> str | None:
        """Open the dialog that registers every webhook at the team's receiver; reload the
        table when something was registered. The dialog's outcome (``"registered"``) or
        ``None``."""
        if self.notifications is None:
            return None
        dialog = TeamReceiverDialog(self.workspace.webhooks, self.notifications, self)
        self.receiver_dialog = dialog
        dialog.load_task = spawn_for(dialog, dialog.load(), name="team-receiver-load")
        try:
            await ask(dialog)
            if dialog.task is not None and not dialog.task.done():
                await asyncio.wait({dialog.task})  # the bank's answers decide
            outcome = dialog.outcome
        finally:
            if not dialog.load_task.done():
                dialog.load_task.cancel()
            self.receiver_dialog = None
            dispose(dialog)
        if outcome is not None:
            await self.reload()
        return outcome

    def shutdown(self) -> None:
        """Close the dialogs and cancel the edit on its way."""
        if self.dialog is not None:
            self.dialog.reject()
        if self.receiver_dialog is not None:
            self.receiver_dialog.reject()
        for task in (self.edit_task, self.receiver_task):
            if task is not None and not task.done():
                task.cancel()
