"""The edit dialog of one webhook slot: register or replace its URL (and, on the Accounts API,
its options and headers), or remove it after a confirmation. The dialog runs the request
itself and stays open on a refusal, so the user can correct the form in place."""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QModelIndex, QPersistentModelIndex
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.services.webhooks import (
    WebhookConfigError,
    WebhookKind,
    WebhooksService,
    WebhookView,
    validate_webhook_url,
)
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["SECRET_MASK", "WebhookDialog", "collect_headers", "kind_label"]

SECRET_MASK = "••••••••"
_Index = QModelIndex | QPersistentModelIndex


_KIND_LABELS = {
    WebhookKind.PIX: QT_TRANSLATE_NOOP("WebhookDialog", "Pix received on a charge (per key)"),
    WebhookKind.REC: QT_TRANSLATE_NOOP("WebhookDialog", "Pix Automático recurrences (webhookrec)"),
    WebhookKind.COBR: QT_TRANSLATE_NOOP("WebhookDialog", "Recurring charges (webhookcobr)"),
    WebhookKind.TRANSFER: QT_TRANSLATE_NOOP("WebhookDialog", "Our Pix changed status (transfer)"),
    WebhookKind.RECEIVE: QT_TRANSLATE_NOOP(
        "WebhookDialog", "Pix credited to the account (receive)"
    ),
    WebhookKind.REFUND: QT_TRANSLATE_NOOP("WebhookDialog", "Refund credited (refund)"),
    WebhookKind.CASHOUT: QT_TRANSLATE_NOOP("WebhookDialog", "Our Pix failed (cashout)"),
}


def kind_label(kind: WebhookKind) -> str:
    """What a slot carries, in words (translated)."""
    return QCoreApplication.translate("WebhookDialog", str(_KIND_LABELS[kind]))


def collect_headers(rows: list[tuple[str, str]]) -> dict[str, str]:
    """The headers typed in the table: blank rows skipped, names trimmed (values kept as typed:
    they may be secrets whose spaces matter). A value without a name cannot be sent."""
    headers: dict[str, str] = {}
    for name, value in rows:
        name = name.strip()
        if not name and not value:
            continue
        if not name:
            raise WebhookConfigError("webhook.header_without_name", field="headers")
        headers[name] = value
    return headers


class _SecretDelegate(QStyledItemDelegate):
    """Header values: masked in the table, shown only while being typed."""

    def displayText(self, value: Any, locale: Any) -> str:  # noqa: N802 - Qt's name
        return SECRET_MASK if value else ""

    def createEditor(  # noqa: N802 - Qt's name
        self, parent: QWidget, option: QStyleOptionViewItem, index: _Index
    ) -> QWidget:
        editor = QLineEdit(parent)
        editor.setEchoMode(QLineEdit.EchoMode.PasswordEchoOnEdit)
        return editor


class WebhookDialog(QDialog):
    """Edit ``view``'s slot through ``service``. Accepted after a successful change:
    :attr:`outcome` is ``"registered"`` (:attr:`view` is the bank's answer) or ``"removed"``.
    :attr:`task` is the request on its way (tests await it); :attr:`confirm_box` is the
    removal confirmation while it is shown. While a change is being written (:attr:`writing`)
    the dialog cannot be closed: the bank is changing and its answer decides the outcome."""

    def __init__(
        self, view: WebhookView, service: WebhooksService, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("webhook-dialog")
        self.setWindowTitle(self.tr("Webhook: %1").replace("%1", kind_label(view.kind)))
        self.view = view
        self.service = service
        self.outcome: str | None = None
        self.task: asyncio.Task[Any] | None = None
        self.confirm_box: QMessageBox | None = None
        self.writing = False
        self.is_account = view.api == "accounts"

        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        layout.addWidget(self._explanation())
        layout.addLayout(self._build_form())
        if self.is_account:
            layout.addWidget(self._build_headers())
        layout.addLayout(self._build_buttons())
        self.fields: dict[str, QWidget] = {"url": self.url_edit, "webhookUrl": self.url_edit}
        if self.is_account:
            self.fields.update(
                {
                    "uri": self.url_edit,
                    "email": self.email_edit,
                    "method": self.method_combo,
                    "headers": self.headers_table,
                    "options": self.enabled_check,
                }
            )
        self._url_changed(self.url_edit.text())
        self.resize(560, 520 if self.is_account else 220)

    # -- building --------------------------------------------------------------------------------

    def _explanation(self) -> QLabel:
        if self.view.kind in (WebhookKind.PIX, WebhookKind.REC, WebhookKind.COBR):
            text = self.tr(
                "QR Codes API: the bank posts to this URL followed by /%1. Only the URL can be "
                "set here."
            ).replace("%1", self.view.kind.value)
        else:
            text = self.tr(
                "Accounts API: the bank posts to this URL as is, with the headers below."
            )
        label = QLabel(text, self)
        label.setWordWrap(True)
        return label

    def _build_form(self) -> QFormLayout:
        form = QFormLayout()
        if self.view.kind is WebhookKind.PIX:
            key = QLabel(self.view.key or "", self)
            key.setObjectName("webhook-key")
            form.addRow(self.tr("Pix key"), key)
        self.url_edit = QLineEdit(self.view.url or "", self)
        self.url_edit.setObjectName("webhook-url")
        self.url_edit.setPlaceholderText("https://")
        self.url_edit.textChanged.connect(self._url_changed)
        self.url_hint = QLabel(self)
        self.url_hint.setObjectName("webhook-url-hint")
        self.url_hint.setWordWrap(True)
        form.addRow(self.tr("URL"), self.url_edit)
        form.addRow("", self.url_hint)
        if not self.is_account:
            return form
        view = self.view
        self.enabled_check = QCheckBox(self.tr("Send notifications"), self)
        self.enabled_check.setObjectName("webhook-enabled")
        self.enabled_check.setChecked(view.enabled is not False)
        self.email_edit = QLineEdit(view.email or "", self)
        self.email_edit.setObjectName("webhook-email")
        self.email_edit.setPlaceholderText(self.tr("who the bank warns when deliveries fail"))
        self.method_combo = QComboBox(self)
        self.method_combo.setObjectName("webhook-method")
        self.method_combo.addItems(["POST", "PUT"])
        self.method_combo.setCurrentText(view.method or "POST")
        self.pause_check = QCheckBox(self.tr("Pause after repeated failures"), self)
        self.pause_check.setObjectName("webhook-pause-on-fail")
        self.pause_check.setChecked(bool(view.pause_on_fail))
        form.addRow(self.tr("Enabled"), self.enabled_check)
        form.addRow(self.tr("E-mail"), self.email_edit)
        form.addRow(self.tr("Method"), self.method_combo)
        form.addRow(self.tr("Pause on fail"), self.pause_check)
        return form

    def _build_headers(self) -> QWidget:
        box = QWidget(self)
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(self.tr("Headers sent with each notification"), box))
        self.headers_table = QTableWidget(0, 2, box)
        self.headers_table.setObjectName("webhook-headers")
        self.headers_table.setHorizontalHeaderLabels([self.tr("Name"), self.tr("Value")])
        self.headers_table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.headers_table.setItemDelegateForColumn(1, _SecretDelegate(self.headers_table))
        self.headers_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        for name in self.view.header_names:
            self.add_header(name, "")
        layout.addWidget(self.headers_table)
        note = QLabel(
            self.tr(
                "Header values may be secrets: they go to the bank only, are never kept by "
                "this app nor read back. When replacing a webhook, type them again."
            ),
            box,
        )
        note.setWordWrap(True)
        note.setStyleSheet(text_style("muted", self))
        layout.addWidget(note)
        row = QHBoxLayout()
        add = QPushButton(self.tr("Add header"), box)
        add.setObjectName("webhook-add-header")
        add.clicked.connect(lambda: self.add_header("", ""))
        remove = QPushButton(self.tr("Remove header"), box)
        remove.setObjectName("webhook-remove-header")
        remove.clicked.connect(self._remove_header)
        row.addWidget(add)
        row.addWidget(remove)
        row.addStretch(1)
        layout.addLayout(row)
        return box

    def _build_buttons(self) -> QHBoxLayout:
        registered = self.view.registered
        self.save_button = QPushButton(
            self.tr("Replace") if registered else self.tr("Register"), self
        )
        self.save_button.setObjectName("webhook-save")
        self.save_button.setDefault(True)
        self.save_button.clicked.connect(self._save_clicked)
        self.remove_button = QPushButton(self.tr("Remove…"), self)
        self.remove_button.setObjectName("webhook-remove")
        self.remove_button.setEnabled(registered)
        self.remove_button.clicked.connect(self._remove_clicked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.setObjectName("webhook-close")
        self.close_button.clicked.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.remove_button)
        row.addStretch(1)
        row.addWidget(self.close_button)
        row.addWidget(self.save_button)
        return row

    def reject(self) -> None:
        """Close without a change; ignored while a change is being written (Close is disabled
        then; Escape and the window's close button end here too)."""
        if self.writing:
            return
        if self.confirm_box is not None:
            self.confirm_box.reject()  # the removal waiting for it ends unconfirmed
        super().reject()

    async def _write(self, work: Any, **options: Any) -> Any:
        """Run a change with every button disabled and closing ignored until it ends."""
        self.writing = True
        try:
            return await run_operation(
                work,
                controls=[self.save_button, self.remove_button, self.close_button],
                banner=self.banner,
                changes_ledger=True,
                **options,
            )
        finally:
            self.writing = False

    # -- headers ---------------------------------------------------------------------------------

    def add_header(self, name: str, value: str) -> None:
        """Append a header row (values are masked in the table)."""
        row = self.headers_table.rowCount()
        self.headers_table.insertRow(row)
        self.headers_table.setItem(row, 0, QTableWidgetItem(name))
        self.headers_table.setItem(row, 1, QTableWidgetItem(value))

    def _remove_header(self) -> None:
        row = self.headers_table.currentRow()
        if row >= 0:
            self.headers_table.removeRow(row)

    def header_rows(self) -> list[tuple[str, str]]:
        rows = []
        for row in range(self.headers_table.rowCount()):
            cells = [self.headers_table.item(row, column) for column in (0, 1)]
            rows.append(tuple(cell.text() if cell else "" for cell in cells))
        return rows  # type: ignore[return-value]

    # -- checks ----------------------------------------------------------------------------------

    def _url_changed(self, text: str) -> None:
        """Say at once what is wrong with the URL (HTTPS only); nothing is sent."""
        if not text.strip():
            self.url_hint.setStyleSheet(text_style("error", self))
            self.url_hint.setText(self.tr("Enter the HTTPS address of your receiver."))
            return
        try:
            validate_webhook_url(text)
        except WebhookConfigError as error:
            self.url_hint.setStyleSheet(text_style("error", self))
            self.url_hint.setText(rule_text(error))
        else:
            self.url_hint.setStyleSheet(text_style("success", self))
            self.url_hint.setText(self.tr("HTTPS address: OK."))

    def request(self) -> dict[str, Any]:
        """The arguments of ``WebhooksService.register`` from the form, checked locally
        (:class:`WebhookConfigError` before anything is sent)."""
        arguments: dict[str, Any] = {"url": validate_webhook_url(self.url_edit.text())}
        if self.view.kind is WebhookKind.PIX:
            arguments["key"] = self.view.key
        if self.is_account:
            arguments.update(
                enabled=self.enabled_check.isChecked(),
                email=self.email_edit.text().strip() or None,
                method=self.method_combo.currentText(),
                pause_on_fail=self.pause_check.isChecked(),
                headers=collect_headers(self.header_rows()),
            )
        return arguments

    # -- register --------------------------------------------------------------------------------

    def _save_clicked(self) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.save(), name="webhook-save")

    async def save(self) -> WebhookView | None:
        """Register or replace the webhook; accept the dialog on success."""
        try:
            arguments = self.request()
        except WebhookConfigError as error:
            self.banner.show_error(error, self.fields)
            return None
        view = await self._write(
            self.service.register(self.view.kind, **arguments), fields=self.fields
        )
        if view is None:
            return None
        self.view = view
        self.outcome = "registered"
        self.accept()
        return view

    # -- remove ----------------------------------------------------------------------------------

    def _remove_clicked(self) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.remove(), name="webhook-remove")

    async def remove(self) -> bool:
        """Ask for confirmation, then remove the webhook; accept the dialog on success."""
        if not self.view.registered:
            return False
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Remove the webhook"), "", parent=self)
        box.setObjectName("webhook-remove-confirmation")
        box.setText(
            self.tr("Stop notifications to %1? The bank forgets this webhook.").replace(
                "%1", self.view.url or ""
            )
        )
        confirm = box.addButton(self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(self.tr("Keep"), QMessageBox.ButtonRole.RejectRole)
        self.confirm_box = box
        try:
            await ask(box)
            confirmed = box.clickedButton() is confirm
        finally:
            self.confirm_box = None
            dispose(box)
        if not confirmed:
            return False
        if not self.isVisible():
            return False  # closed while the confirmation was shown
        removed = await self._write(self.service.remove(self.view.kind, key=self.view.key))
        if removed is None:
            return False
        self.outcome = "removed"
        self.accept()
        return True
