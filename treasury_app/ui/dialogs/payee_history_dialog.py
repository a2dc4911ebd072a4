"""A payee's history, one click from every review (issue 36): their last payments (to any of
their registered keys and accounts) and what was paid to them this month, read before paying
them again. :class:`PayeeHistoryButton` opens it from the Pix review, a batch review's row
and the approval dialog."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_date
from treasury_app.domain.money import format_brl
from treasury_app.services.payees import PayeePayments, PayeeService
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.models.payees_model import PayeePaymentsModel, PaymentColumn
from treasury_app.ui.operation import run_operation
from treasury_app.ui.payee_words import document_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["PayeeHistoryButton", "PayeeHistoryDialog"]


class PayeeHistoryDialog(QDialog):
    """The history of whoever ``detail`` (a payout's key or account) pays; :attr:`task`
    reads it (tests await it)."""

    def __init__(self, service: PayeeService, detail: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("payee-history-dialog")
        self.setWindowTitle(self.tr("Payee's history"))
        self.service = service
        self.detail = detail
        self.payments: PayeePayments | None = None
        resize_to_fit(self, 820, 440)
        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        self.title = QLabel(self.tr("Reading the payments…"), self)
        self.title.setObjectName("payee-history-title")
        self.title.setStyleSheet("font-weight: bold;")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        self.month = QLabel(self)
        self.month.setObjectName("payee-history-month")
        self.month.setWordWrap(True)
        layout.addWidget(self.month)
        self.last_title = QLabel(self)
        layout.addWidget(self.last_title)
        self.model = PayeePaymentsModel(self)
        self.list = QTableView(self)
        self.list.setObjectName("payee-history-list")
        self.list.setModel(self.model)
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.verticalHeader().hide()
        self.list.setWordWrap(False)
        header = self.list.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(PaymentColumn.DESCRIPTION, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.list, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.task = spawn_for(self, self.load())

    async def load(self) -> None:
        found = await run_operation(self.service.payments_to(self.detail), banner=self.banner)
        if found is not None:
            self.show_payments(found)

    def show_payments(self, found: PayeePayments) -> None:
        self.payments = found
        if found.payee is not None:
            self.title.setText(f"{found.payee.name} — {document_text(found.payee.document)}")
        else:
            self.title.setText(self.tr("%1 — not in the payee registry").replace("%1", self.detail))
        self.month.setText(
            self.tr("Since %1: %2 paid, %3 on its way.")
            .replace("%1", format_date(found.month))
            .replace("%2", format_brl(found.month_paid))
            .replace("%3", format_brl(found.month_on_its_way))
        )
        last = found.last()
        if last:
            self.last_title.setText(
                self.tr("Last payments (%1 of %2):")
                .replace("%1", str(len(last)))
                .replace("%2", str(len(found.payments)))
            )
        else:
            self.last_title.setText(self.tr("Nothing was paid to them yet."))
        self.model.reset_rows(last)


class PayeeHistoryButton(QPushButton):
    """ "Payee's history…": opens :class:`PayeeHistoryDialog` for the key or account
    ``detail()`` answers (nothing to open: disabled by its owner, or ``None``)."""

    def __init__(
        self,
        service: PayeeService,
        detail: Callable[[], str | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(self.tr("Payee's history…"), parent)
        self.setObjectName("payee-history-button")
        self.service = service
        self._detail = detail
        self.dialog: PayeeHistoryDialog | None = None
        self.clicked.connect(self.open_history)

    def open_history(self) -> PayeeHistoryDialog | None:
        detail = self._detail()
        if not detail:
            return None
        if self.dialog is not None:
            self.dialog.deleteLater()
        self.dialog = PayeeHistoryDialog(self.service, detail, self.window())
        self.dialog.open()  # window-modal, never exec()
        return self.dialog
