"""Settings ▸ Webhooks ▸ "Use the team's receiver": point every webhook of both APIs at the
team's webhook receiver in one action.

The receiver's public URL is read from the team database (each running receiver announces
it with its heartbeat) and may be corrected; its secret (the Accounts webhook secret the
receiver checks) is typed here, goes to the bank only and is never kept: the field is
cleared once the bank has answered. Each registration's state is shown in a table: one
refused does not stop the others."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFormLayout,
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

from treasury_app.services.notifications import BankNotifications, ReceiverState, ReceiverStatus
from treasury_app.services.webhooks import (
    RECEIVER_HEADER,
    ReceiverRegistration,
    WebhookConfigError,
    WebhooksService,
    validate_webhook_url,
)
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.dialogs.webhook_dialog import kind_label
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import Tone, text_style, tone_color
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["RESULT_COLUMNS", "TeamReceiverDialog"]

RESULT_COLUMNS = ("kind", "key", "url", "state")


class TeamReceiverDialog(QDialog):
    """Register every webhook at the team's receiver through ``service``; ``notifications``
    says where the receiver is. :attr:`task` is the registration on its way (tests await
    it), :attr:`load_task` the reading of the receiver's URL; :attr:`results` what the bank
    answered; :attr:`outcome` is ``"registered"`` once any registration was taken."""

    def __init__(
        self,
        service: WebhooksService,
        notifications: BankNotifications,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("team-receiver-dialog")
        self.setWindowTitle(self.tr("Use the team's receiver"))
        self.service = service
        self.notifications = notifications
        self.results: list[ReceiverRegistration] = []
        self.outcome: str | None = None
        self.task: asyncio.Task[Any] | None = None
        self.load_task: asyncio.Task[Any] | None = None
        self.writing = False

        self.banner = ErrorBanner(self)
        intro = QLabel(
            self.tr(
                "Points every webhook of both APIs at the team's webhook receiver: each Pix key, "
                "recurrences (webhookrec) and recurring charges (webhookcobr) on the QR Codes "
                "API, and the four event types of the Accounts API, which carry the secret. "
                "The receiver stores what the bank notifies in the team database and every "
                "desktop sees it at once."
            ),
            self,
        )
        intro.setWordWrap(True)
        self.receiver_label = QLabel(self)
        self.receiver_label.setObjectName("receiver-state")
        self.receiver_label.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(intro)
        layout.addWidget(self.receiver_label)
        layout.addLayout(self._build_form())
        layout.addWidget(self._build_results(), 1)
        self.status_label = QLabel(self)
        self.status_label.setObjectName("receiver-outcome")
        self.status_label.setWordWrap(True)
        layout.addWidget(self.status_label)
        layout.addLayout(self._build_buttons())
        self.fields: dict[str, QWidget] = {
            "url": self.url_edit,
            "uri": self.url_edit,
            "webhookUrl": self.url_edit,
            "headers": self.secret_edit,
        }
        self.show_receiver(notifications.status)
        self._url_changed(self.url_edit.text())
        self.resize(680, 560)

    # -- building --------------------------------------------------------------------------------

    def _build_form(self) -> QFormLayout:
        form = QFormLayout()
        self.url_edit = QLineEdit(self)
        self.url_edit.setObjectName("receiver-url")
        self.url_edit.setPlaceholderText("https://")
        self.url_edit.textChanged.connect(self._url_changed)
        self.url_hint = QLabel(self)
        self.url_hint.setObjectName("receiver-url-hint")
        self.url_hint.setWordWrap(True)
        self.secret_edit = QLineEdit(self)
        self.secret_edit.setObjectName("receiver-secret")
        self.secret_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.secret_edit.textChanged.connect(lambda _text: self._update_buttons())
        self.header_edit = QLineEdit(RECEIVER_HEADER, self)
        self.header_edit.setObjectName("receiver-header")
        secret_note = QLabel(
            self.tr(
                "The receiver's Accounts webhook secret (from its configuration file). It goes "
                "to the bank only, in the header below, and is never kept by this app: type it "
                "each time."
            ),
            self,
        )
        secret_note.setWordWrap(True)
        secret_note.setStyleSheet(text_style("muted", self))
        form.addRow(self.tr("Receiver URL"), self.url_edit)
        form.addRow("", self.url_hint)
        form.addRow(self.tr("Secret"), self.secret_edit)
        form.addRow("", secret_note)
        form.addRow(self.tr("Header"), self.header_edit)
        return form

    def _build_results(self) -> QTableWidget:
        self.table = QTableWidget(0, len(RESULT_COLUMNS), self)
        self.table.setObjectName("receiver-results")
        self.table.setHorizontalHeaderLabels(
            [self.tr("Kind"), self.tr("Pix key"), self.tr("Address"), self.tr("State")]
        )
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(RESULT_COLUMNS.index("state"), QHeaderView.ResizeMode.Stretch)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        self.table.hide()  # until the bank has answered
        return self.table

    def _build_buttons(self) -> QHBoxLayout:
        self.register_button = QPushButton(self.tr("Register all webhooks"), self)
        self.register_button.setObjectName("receiver-register")
        self.register_button.setDefault(True)
        self.register_button.clicked.connect(self._register_clicked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setObjectName("receiver-close")
        self.close_button.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.close_button)
        row.addWidget(self.register_button)
        return row

    # -- the receiver ----------------------------------------------------------------------------

    async def load(self) -> ReceiverStatus:
        """Read the receivers now; fill the URL with the one announced (unless typed)."""
        status = await self.notifications.check()
        self.show_receiver(status)
        return status

    def show_receiver(self, status: ReceiverStatus) -> None:
        if status.url and not self.url_edit.text().strip():
            self.url_edit.setText(status.url)
        texts = {
            ReceiverState.LIVE: self.tr("A receiver is running: it reported %1 s ago."),
            ReceiverState.NEVER: self.tr(
                "No receiver has reported to the team database yet: type the public address "
                "its administrator gave you. Until one runs, the app keeps asking the bank."
            ),
            ReceiverState.SILENT: self.tr(
                "The receiver has been silent for a while: check it is running. You may still "
                "register its address."
            ),
            ReceiverState.OFFLINE: self.tr(
                "The team database cannot be reached: the receiver's address is unknown."
            ),
            ReceiverState.CHECKING: self.tr("Looking for the team's receiver…"),
        }
        text = texts[status.state]
        if status.state is ReceiverState.LIVE:
            seen = 0
            if status.checked_at is not None and status.seen_at is not None:
                seen = max(0, int((status.checked_at - status.seen_at).total_seconds()))
            text = text.replace("%1", str(seen))
        self.receiver_label.setText(text)
        self.receiver_label.setStyleSheet(text_style("success" if status.live else "warning", self))

    def _url_changed(self, text: str) -> None:
        if not text.strip():
            self.url_hint.setStyleSheet(text_style("error", self))
            self.url_hint.setText(self.tr("Enter the receiver's public HTTPS address."))
        else:
            try:
                validate_webhook_url(text)
            except WebhookConfigError as error:
                self.url_hint.setStyleSheet(text_style("error", self))
                self.url_hint.setText(rule_text(error))
            else:
                self.url_hint.setStyleSheet(text_style("success", self))
                self.url_hint.setText(
                    self.tr("The bank will post to %1/pix, /rec, /cobr, /transfer, …").replace(
                        "%1", text.strip().rstrip("/")
                    )
                )
        self._update_buttons()

    def _update_buttons(self) -> None:
        ready = bool(self.url_edit.text().strip() and self.secret_edit.text())
        self.register_button.setEnabled(ready and not self.writing)

    # -- registering -----------------------------------------------------------------------------

    def _register_clicked(self) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.register(), name="team-receiver-register")

    async def register(self) -> list[ReceiverRegistration] | None:
        """Register every webhook at the receiver; show each one's state. The secret field is
        emptied once the bank has answered (whatever it answered)."""
        self.writing = True
        self._update_buttons()
        self.status_label.setStyleSheet("")
        self.status_label.setText(self.tr("Registering the webhooks…"))
        try:
            results = await run_operation(
                self.service.use_team_receiver(
                    self.url_edit.text(), self.secret_edit.text(), self.header_edit.text()
                ),
                controls=[self.register_button, self.close_button],
                banner=self.banner,
                fields=self.fields,
                changes_ledger=True,
            )
        finally:
            self.writing = False
        if results is None:
            self.status_label.setText(self.tr("Nothing was registered."))
            self.status_label.setStyleSheet(text_style("error", self))
            self._update_buttons()
            return None
        self.secret_edit.clear()
        self.show_results(results)
        return results

    def show_results(self, results: list[ReceiverRegistration]) -> None:
        self.results = list(results)
        taken = sum(1 for result in results if result.ok)
        if taken:
            self.outcome = "registered"
        self.table.setRowCount(len(results))
        for row, result in enumerate(results):
            state = self.tr("Registered") if result.ok else (result.error or self.tr("Failed"))
            cells = [result.kind.value, result.key or "", result.url, state]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column == RESULT_COLUMNS.index("kind"):
                    item.setToolTip(kind_label(result.kind))
                if column == RESULT_COLUMNS.index("state"):
                    cell_tone: Tone = "success" if result.ok else "error"
                    item.setForeground(
                        tone_color(cell_tone, self.table, on=QPalette.ColorRole.Base)
                    )
                    item.setToolTip(text)
                self.table.setItem(row, column, item)
        self.table.show()
        tone: Tone
        if taken == len(results):
            text = self.tr("All %1 webhooks point at the receiver.").replace("%1", str(taken))
            tone = "success"
        else:
            text = (
                self.tr("%1 of %2 webhooks point at the receiver; the others were refused (below).")
                .replace("%1", str(taken))
                .replace("%2", str(len(results)))
            )
            tone = "warning" if taken else "error"
        self.status_label.setText(text)
        self.status_label.setStyleSheet(text_style(tone, self))

    def reject(self) -> None:
        """Close; ignored while the webhooks are being registered (Close is disabled then)."""
        if self.writing:
            return
        self.secret_edit.clear()
        super().reject()
