"""Refund (all or part of) a received Pix: choose the amount, review who receives it and how
much, type the amount again to confirm, then follow the refund until the bank settles it
(DEVOLVIDO) or gives up (NAO_REALIZADO). When the answer to the request is lost, the refund id
stays with the Pix (:class:`PendingRefund`): it is checked or retried, never replaced."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

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

from treasury_app.api.errors import BadRequest, NotFound, ServerError, TransportFailure
from treasury_app.api.qrcodes.cashin_models import Devolucao, DevolucaoStatus, Pix
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import format_brl
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.models.received_pix_model import (
    payer_text,
    refund_status_text,
    refunded_amount,
)
from treasury_app.ui.operation import EXPECTED_ERRORS, events, run_operation
from treasury_app.ui.theme import Tone, text_style
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit

__all__ = [
    "FINAL_REFUND_STATUSES",
    "PendingRefund",
    "RefundDialog",
    "check_refund_amount",
    "new_refund_id",
    "outcome_unknown",
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


@dataclass(frozen=True)
class PendingRefund:
    """A refund asked for whose outcome is unknown: the next try for the same Pix checks this
    id at the bank and, if it is not there, repeats it with the same id and amount."""

    end_to_end_id: str
    refund_id: str
    amount: Decimal
    description: str = ""


def outcome_unknown(error: BaseException) -> bool:
    """Whether a failed refund request may still have been made at the bank: no answer after
    sending, a 5xx, or a 400 naming the id (``devolucao.id``: the transport repeated a request
    whose answer was lost, and the bank already holds the id)."""
    if isinstance(error, TransportFailure):
        return error.request_sent
    if isinstance(error, ServerError):
        return True
    return isinstance(error, BadRequest) and any(
        name == "id" or name.endswith(".id") for name in error.properties
    )


async def _noting_failure(work: Awaitable[Any], failures: list[BaseException]) -> Any:
    """``work``'s result; an expected failure is noted in ``failures`` before it goes on to
    :func:`run_operation` (which shows it and returns ``None``)."""
    try:
        return await work
    except EXPECTED_ERRORS as error:
        failures.append(error)
        raise


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
    :attr:`refund_changed` carries each status the refund goes through. When the outcome of
    the request is unknown, a fourth step (:attr:`unknown_label`, :attr:`retry_button`,
    :attr:`check_button`) keeps the same id and amount, and :attr:`outcome_unknown` carries the
    :class:`PendingRefund` to hand to the next dialog for this Pix (``pending=``), which first
    asks the bank about it. Tests await :attr:`send_task`, :attr:`check_task` and
    :attr:`follow_task`."""

    refund_changed = Signal(object)  # Devolucao
    outcome_unknown = Signal(object)  # PendingRefund

    def __init__(
        self,
        workspace: Workspace,
        pix: Pix,
        parent: QWidget | None = None,
        *,
        payer: str = "",
        pending: PendingRefund | None = None,
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
        self.check_task: asyncio.Task[Any] | None = None
        self.pending: PendingRefund | None = None  # set while the id and amount are fixed
        self._absent = False  # the last check found no refund of this id at the bank
        self.setObjectName("refund-dialog")
        self.setWindowTitle(self.tr("Refund a received Pix"))

        self.banner = ErrorBanner(self)
        self.steps = QStackedWidget(self)
        self.steps.addWidget(self._build_amount_step())
        self.review_step = QWidget(self)
        self.steps.addWidget(self.review_step)
        self.steps.addWidget(self._build_status_step())
        self.steps.addWidget(self._build_unknown_step())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.steps)
        self.confirmation: AmountConfirmation | None = None
        if pending is not None:  # an earlier request's answer was lost: ask before anything
            self.refund_id = pending.refund_id
            self.amount = pending.amount
            self.description_edit.setText(pending.description)
            self.pending = pending
            self.check_task = spawn_for(self, self.check_status(), name="refund-check")

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
        self.amount_hint.setStyleSheet(text_style("error", self))
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
            self.send_task = spawn_for(self, self.send(), name="refund-send")

    def _retry_clicked(self) -> None:
        busy = self.check_task is not None and not self.check_task.done()
        if not busy and (self.send_task is None or self.send_task.done()):
            self.send_task = spawn_for(self, self.retry(), name="refund-send")

    async def send(self) -> Devolucao | None:
        """Ask the bank for the refund reviewed (same id on every attempt), then follow it.
        When the outcome is unknown, the id and amount stay fixed (:meth:`_outcome_lost`)."""
        if self.amount is None or self.refund is not None:
            return self.refund
        if self.pending is None:
            self.back_button.setEnabled(False)
        failures: list[BaseException] = []
        refund = await run_operation(
            _noting_failure(
                self.workspace.charges.request_refund(
                    self.pix.end_to_end_id,
                    self.amount,
                    description=self.description_edit.text().strip() or None,
                    refund_id=self.refund_id,
                ),
                failures,
            ),
            controls=[self.cancel_button, self.retry_button, self.check_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if refund is not None:
            self._start_following(refund)
            return refund
        if any(outcome_unknown(e) for e in failures):
            self._outcome_lost()
        elif self.pending is not None:  # a retry refused: not made, the id and amount stay
            self._show_unknown(
                self.tr("The bank refused refund %1 (see above): it was not made.").replace(
                    "%1", self.refund_id
                )
            )
            self._absent = True
        else:  # refused: nothing was made; the review again, ready for another try
            self._show_review()
        return None

    def _start_following(self, refund: Devolucao) -> None:
        self._show_status(refund)
        self.steps.setCurrentIndex(2)
        self.follow_task = spawn_for(self, self.follow(), name="refund-follow")

    # -- step 4: the outcome is unknown ----------------------------------------------------------

    def _build_unknown_step(self) -> QWidget:
        page = QWidget(self)
        self.unknown_title = QLabel(page)
        self.unknown_title.setWordWrap(True)
        self.unknown_label = QLabel(page)
        self.unknown_label.setObjectName("refund-unknown")
        self.unknown_label.setStyleSheet(f"{_STATUS_STYLE} {text_style('warning', self)}")
        self.unknown_label.setWordWrap(True)
        self.retry_button = QPushButton(self.tr("Retry with the same id"), page)
        self.retry_button.setObjectName("refund-retry")
        self.retry_button.clicked.connect(self._retry_clicked)
        self.check_button = QPushButton(self.tr("Check status"), page)
        self.check_button.setObjectName("refund-check")
        self.check_button.clicked.connect(self._check_clicked)
        self.unknown_close_button = QPushButton(self.tr("Close"), page)
        self.unknown_close_button.setObjectName("refund-unknown-close")
        self.unknown_close_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.unknown_close_button)
        buttons.addWidget(self.check_button)
        buttons.addWidget(self.retry_button)
        layout = QVBoxLayout(page)
        layout.addWidget(self.unknown_title)
        layout.addWidget(self.unknown_label)
        layout.addStretch(1)
        layout.addLayout(buttons)
        return page

    def _show_unknown(self, text: str) -> None:
        assert self.amount is not None
        self.unknown_title.setText(
            self.tr("Refund %1 of %2 to %3")
            .replace("%1", self.refund_id)
            .replace("%2", format_brl(self.amount))
            .replace("%3", self.payer or self.tr("the payer"))
        )
        self.unknown_label.setText(text)
        self.steps.setCurrentIndex(3)
        self._absent = False

    def _unknown_text(self) -> str:
        return self.tr(
            "The bank's answer to this refund was lost: the refund may already be done. Do not "
            "make another refund for this Pix; check its status, or retry with the same id "
            "(the bank never makes the same id twice)."
        )

    def _outcome_lost(self) -> None:
        """The request may have been made: fix the id and amount, say so, tell the list."""
        assert self.amount is not None
        self.pending = PendingRefund(
            self.pix.end_to_end_id,
            self.refund_id,
            self.amount,
            self.description_edit.text().strip(),
        )
        self._show_unknown(self._unknown_text())
        self.outcome_unknown.emit(self.pending)
        events.ledger_changed.emit()  # the refund may have debited the account

    def _check_clicked(self) -> None:
        busy = self.send_task is not None and not self.send_task.done()
        if not busy and (self.check_task is None or self.check_task.done()):
            self.check_task = spawn_for(self, self.check_status(), name="refund-check")

    async def check_status(self) -> Devolucao | None:
        """Ask the bank for the refund of this id: follow it when it exists; when it does not
        (404), it may be retried with the same id and amount; otherwise still unknown."""
        self._show_unknown(
            self.tr("Asking the bank about refund %1…").replace("%1", self.refund_id)
        )
        failures: list[BaseException] = []
        refund = await run_operation(
            _noting_failure(
                self.workspace.charges.get_refund(self.pix.end_to_end_id, self.refund_id),
                failures,
            ),
            controls=[self.retry_button, self.check_button],
            banner=self.banner,
        )
        if refund is not None:
            self._start_following(refund)
        elif any(isinstance(e, NotFound) for e in failures):
            self.banner.clear()
            self._show_unknown(
                self.tr(
                    "The bank has no refund %1: it was not made. You may retry it with the "
                    "same id and amount (%2)."
                )
                .replace("%1", self.refund_id)
                .replace("%2", format_brl(self.amount or Decimal("0.00")))
            )
            self._absent = True
        else:
            self._show_unknown(self._unknown_text())
        return refund

    async def retry(self) -> Devolucao | None:
        """Repeat the request with the same id and amount, after making sure the bank does not
        already have it (a repeated id would only be refused, and say nothing of its status)."""
        if not self._absent:
            refund = await self.check_status()
            if refund is not None or not self._absent:
                return refund
        self._absent = False
        return await self.send()

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
        text = refund_status_text(str(refund.status))
        if refund.motivo:
            text += f": {refund.motivo}"
        if refund.status == DevolucaoStatus.EM_PROCESSAMENTO:
            text += " — " + self.tr("following it with the bank…")
        tones: dict[str, Tone] = {
            DevolucaoStatus.DEVOLVIDO: "success",
            DevolucaoStatus.NAO_REALIZADO: "error",
        }
        tone = tones.get(str(refund.status), "warning")
        self.status_label.setStyleSheet(f"{_STATUS_STYLE} {text_style(tone, self)}")
        self.status_label.setText(text)
        self.refund_changed.emit(refund)

    async def follow(self) -> Devolucao | None:
        """Ask the bank for the refund's status until it is final (or the limit passes)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FOLLOW_LIMIT_SECONDS
        while self.refund is not None and self.final_status is None:
            if loop.time() > deadline:
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
                self.banner.show_error(error)
                continue
            self.banner.clear()
            if refund != self.refund:
                self._show_status(refund)
        return self.refund
