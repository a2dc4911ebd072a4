"""Refund (all or part of) a received Pix: choose the amount, review who receives it and how
much, type the amount again to confirm, then follow the refund until the bank settles it
(DEVOLVIDO) or gives up (NAO_REALIZADO)."""

from __future__ import annotations

import asyncio
from decimal import Decimal
from typing import Any

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.cashin_models import Devolucao, DevolucaoStatus, Pix
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import format_brl
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.models.received_pix_model import (
    payer_text,
    refund_status_text,
    refunded_amount,
)
from treasury_app.ui.operation import EXPECTED_ERRORS, run_operation
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit

__all__ = [
    "FINAL_REFUND_STATUSES",
    "RefundDialog",
    "check_refund_amount",
    "new_refund_id",
    "with_refund",
]

FINAL_REFUND_STATUSES = frozenset({DevolucaoStatus.DEVOLVIDO, DevolucaoStatus.NAO_REALIZADO})
POLL_SECONDS = 1.0
FOLLOW_LIMIT_SECONDS = 180.0
_STATUS_STYLE = "font-size: 13pt; font-weight: bold;"


def new_refund_id() -> str:
    """A refund id chosen here (35 letters and digits), kept for every retry of this refund so
    that a repeated request can never refund twice."""
    return new_txid()


def check_refund_amount(amount: Decimal | None, left: Decimal) -> str | None:
    """Why ``amount`` cannot be refunded when ``left`` is what remains: ``"missing"``,
    ``"not_positive"`` or ``"over"`` (more than is left); ``None`` when it can."""
    if amount is None:
        return "missing"
    if amount <= 0:
        return "not_positive"
    if amount > left:
        return "over"
    return None


def with_refund(pix: Pix, refund: Devolucao) -> Pix:
    """``pix`` with ``refund`` added, or replacing the refund of the same id."""
    refunds = [d for d in pix.devolucoes if d.id != refund.id]
    position = next((i for i, d in enumerate(pix.devolucoes) if d.id == refund.id), len(refunds))
    refunds.insert(position, refund)
    return pix.model_copy(update={"devolucoes": refunds})


class RefundDialog(QDialog):
    """Three steps in one window: the amount (:attr:`full_radio`/:attr:`partial_radio`,
    :attr:`amount_edit`, :attr:`review_button`), the review (:attr:`review_fields`,
    :attr:`confirm_edit`, :attr:`confirm_button`), the status (:attr:`status_label`).
    :attr:`refund_changed` carries each status the refund goes through; tests await
    :attr:`send_task` and :attr:`follow_task`."""

    refund_changed = Signal(object)  # Devolucao

    def __init__(
        self,
        workspace: Workspace,
        pix: Pix,
        parent: QWidget | None = None,
        *,
        payer: str = "",
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.pix = pix
        self.payer = payer or payer_text(pix)  # who receives the refund, as far as known
        self.left = max(pix.valor - refunded_amount(pix), Decimal("0.00"))
        self.refund_id = new_refund_id()
        self.amount: Decimal | None = None
        self.refund: Devolucao | None = None
        self.send_task: asyncio.Task[Any] | None = None
        self.follow_task: asyncio.Task[Any] | None = None
        self.setObjectName("refund-dialog")
        self.setWindowTitle(self.tr("Refund a received Pix"))

        self.banner = ErrorBanner(self)
        self.steps = QStackedWidget(self)
        self.steps.addWidget(self._build_amount_step())
        self.review_step = QWidget(self)
        self.steps.addWidget(self.review_step)
        self.steps.addWidget(self._build_status_step())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.steps)
        self.confirmation: AmountConfirmation | None = None

    @property
    def final_status(self) -> str | None:
        """The refund's status once final (DEVOLVIDO or NAO_REALIZADO), else ``None``."""
        if self.refund is not None and self.refund.status in FINAL_REFUND_STATUSES:
            return str(self.refund.status)
        return None

    # -- step 1: the amount ----------------------------------------------------------------------

    def _build_amount_step(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        pix = self.pix
        for title, text in (
            (self.tr("endToEndId"), pix.end_to_end_id),
            (self.tr("txid"), pix.txid or self.tr("None")),
            (self.tr("Payer"), self.payer or self.tr("Not given by the bank")),
            (self.tr("Amount received"), format_brl(pix.valor)),
            (self.tr("Refunded so far"), format_brl(refunded_amount(pix))),
            (self.tr("Left to refund"), format_brl(self.left)),
        ):
            label = QLabel(text, page)
            label.setWordWrap(True)
            form.addRow(title, label)
        self.full_radio = QRadioButton(
            self.tr("Everything left: %1").replace("%1", format_brl(self.left)), page
        )
        self.full_radio.setObjectName("refund-full")
        self.partial_radio = QRadioButton(self.tr("Part of it:"), page)
        self.partial_radio.setObjectName("refund-partial")
        group = QButtonGroup(page)
        group.addButton(self.full_radio)
        group.addButton(self.partial_radio)
        self.full_radio.setChecked(True)
        self.amount_edit = MoneyEdit(page)
        self.amount_edit.setObjectName("refund-amount")
        self.amount_edit.setEnabled(False)
        self.partial_radio.toggled.connect(self.amount_edit.setEnabled)
        self.description_edit = QLineEdit(page)
        self.description_edit.setObjectName("refund-description")
        self.description_edit.setMaxLength(140)
        self.description_edit.setPlaceholderText(self.tr("Why (optional, shown to the payer)"))
        partial = QHBoxLayout()
        partial.addWidget(self.partial_radio)
        partial.addWidget(self.amount_edit, 1)
        self.amount_hint = QLabel(page)
        self.amount_hint.setObjectName("refund-amount-hint")
        self.amount_hint.setStyleSheet("color: #b3261e;")
        self.amount_hint.setWordWrap(True)

        self.cancel_button = QPushButton(self.tr("Cancel"), page)
        self.cancel_button.clicked.connect(self.reject)
        self.review_button = QPushButton(self.tr("Review…"), page)
        self.review_button.setObjectName("refund-review")
        self.review_button.clicked.connect(self.go_review)
        self.review_button.setEnabled(self.left > 0)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.review_button)

        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.full_radio)
        layout.addLayout(partial)
        layout.addWidget(self.amount_hint)
        layout.addWidget(QLabel(self.tr("Description"), page))
        layout.addWidget(self.description_edit)
        layout.addLayout(buttons)
        return page

    def chosen_amount(self) -> Decimal | None:
        return self.left if self.full_radio.isChecked() else self.amount_edit.value()

    def go_review(self) -> bool:
        """Check the amount here (nothing is sent) and show the review; ``False`` when the
        amount is refused, with the reason under the field."""
        problem: str | None = None
        if self.partial_radio.isChecked() and self.amount_edit.error():
            problem = self.amount_edit.error()
        else:
            reason = check_refund_amount(self.chosen_amount(), self.left)
            problem = {
                None: None,
                "missing": self.tr("Type the amount to refund."),
                "not_positive": self.tr("The amount must be greater than zero."),
                "over": self.tr("At most %1 is left to refund.").replace(
                    "%1", format_brl(self.left)
                ),
            }[reason]
        self.amount_hint.setText(problem or "")
        if problem:
            return False
        self.amount = self.chosen_amount()
        self._show_review()
        return True

    # -- step 2: the review ----------------------------------------------------------------------

    def _show_review(self) -> None:
        assert self.amount is not None
        old = self.review_step
        self.review_step = self._build_review_step(self.amount)
        self.steps.insertWidget(1, self.review_step)
        self.steps.removeWidget(old)
        old.deleteLater()
        self.steps.setCurrentWidget(self.review_step)

    def _build_review_step(self, amount: Decimal) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        self.review_fields: dict[str, QLabel] = {}
        description = self.description_edit.text().strip()
        for name, title, text in (
            (
                "payer",
                self.tr("Who receives the refund"),
                self.payer or self.tr("The payer of this Pix (the bank did not give a name)"),
            ),
            ("end_to_end_id", self.tr("Pix refunded (endToEndId)"), self.pix.end_to_end_id),
            ("refund_id", self.tr("Refund id"), self.refund_id),
            ("left_after", self.tr("Left to refund afterwards"), format_brl(self.left - amount)),
            ("description", self.tr("Description"), description or self.tr("None")),
        ):
            label = QLabel(text, page)
            label.setObjectName(f"refund-review-{name.replace('_', '-')}")
            label.setWordWrap(True)
            self.review_fields[name] = label
            form.addRow(title, label)
        self.review_amount = QLabel(format_brl(amount), page)
        self.review_amount.setObjectName("refund-review-amount")
        self.review_amount.setStyleSheet("font-size: 22pt; font-weight: bold;")
        confirmation = AmountConfirmation(
            amount,
            prompt=self.tr("To confirm, type the amount to refund (%1):").replace(
                "%1", format_brl(amount)
            ),
            mismatch=self.tr("This is not the amount to refund."),
            action=self.tr("Refund"),
            name="refund",
            parent=page,
        )
        confirmation.cancel_button.setText(self.tr("Back"))
        confirmation.cancel_button.clicked.connect(self._back)
        confirmation.confirmed.connect(self._confirmed)
        confirmation.action_button.setObjectName("refund-confirm")
        self.confirmation = confirmation
        self.confirm_edit = confirmation.edit
        self.confirm_button = confirmation.action_button
        self.back_button = confirmation.cancel_button
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Amount to refund"), page))
        layout.addWidget(self.review_amount)
        layout.addWidget(confirmation)
        return page

    def _back(self) -> None:
        self.steps.setCurrentIndex(0)

    def _confirmed(self) -> None:
        if self.send_task is None or self.send_task.done():
            self.send_task = spawn(self.send(), name="refund-send")

    async def send(self) -> Devolucao | None:
        """Ask the bank for the refund reviewed (same id on every attempt), then follow it."""
        if self.amount is None or self.refund is not None:
            return self.refund
        self.back_button.setEnabled(False)
        refund = await run_operation(
            self.workspace.charges.request_refund(
                self.pix.end_to_end_id,
                self.amount,
                description=self.description_edit.text().strip() or None,
                refund_id=self.refund_id,
            ),
            controls=[self.cancel_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if not shiboken6.isValid(self):
            return refund
        if refund is None:  # refused or unknown: the review again, ready for another try
            self._show_review()
            return None
        self._show_status(refund)
        self.steps.setCurrentIndex(2)
        self.follow_task = spawn(self.follow(), name="refund-follow")
        return refund

    # -- step 3: the status ----------------------------------------------------------------------

    def _build_status_step(self) -> QWidget:
        page = QWidget(self)
        self.status_title = QLabel(page)
        self.status_title.setWordWrap(True)
        self.status_label = QLabel(page)
        self.status_label.setObjectName("refund-status")
        self.status_label.setStyleSheet(_STATUS_STYLE)
        self.status_label.setWordWrap(True)
        self.close_button = QPushButton(self.tr("Close"), page)
        self.close_button.setObjectName("refund-close")
        self.close_button.clicked.connect(self.accept)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(page)
        layout.addWidget(self.status_title)
        layout.addWidget(self.status_label)
        layout.addStretch(1)
        layout.addLayout(buttons)
        return page

    def _show_status(self, refund: Devolucao) -> None:
        self.refund = refund
        self.status_title.setText(
            self.tr("Refund %1 of %2 to %3")
            .replace("%1", refund.id)
            .replace("%2", format_brl(refund.valor))
            .replace("%3", self.payer or self.tr("the payer"))
        )
        text = f"{refund_status_text(str(refund.status))} ({refund.status})"
        if refund.motivo:
            text += f": {refund.motivo}"
        if refund.status == DevolucaoStatus.EM_PROCESSAMENTO:
            text += " — " + self.tr("following it with the bank…")
        colours: dict[str, str] = {
            DevolucaoStatus.DEVOLVIDO: "#1e6b2f",
            DevolucaoStatus.NAO_REALIZADO: "#b3261e",
        }
        colour = colours.get(str(refund.status), "#7a4b00")
        self.status_label.setStyleSheet(f"{_STATUS_STYLE} color: {colour};")
        self.status_label.setText(text)
        self.refund_changed.emit(refund)

    async def follow(self) -> Devolucao | None:
        """Ask the bank for the refund's status until it is final (or the limit passes)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FOLLOW_LIMIT_SECONDS
        while self.refund is not None and self.final_status is None:
            if loop.time() > deadline:
                if shiboken6.isValid(self):
                    self.status_label.setText(
                        self.status_label.text()
                        + "\n"
                        + self.tr("Still processing: the list of received Pix will show it.")
                    )
                return self.refund
            await asyncio.sleep(POLL_SECONDS)
            try:
                refund = await self.workspace.charges.get_refund(
                    self.pix.end_to_end_id, self.refund_id
                )
            except EXPECTED_ERRORS as error:  # a hiccup: say so and keep asking
                if shiboken6.isValid(self):
                    self.banner.show_error(error)
                continue
            if not shiboken6.isValid(self):
                return refund
            self.banner.clear()
            if refund != self.refund:
                self._show_status(refund)
        return self.refund
