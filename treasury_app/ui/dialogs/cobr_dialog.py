"""The recurring charge (``cobr``) dialog. A new charge goes through the form and the review
of :mod:`~treasury_app.ui.dialogs.cobr_new` (who pays what: a charge ends in the payer's
account being debited); then the charge itself: its settlement attempts, cancellation before
the first attempt, retries under ``PERMITE_3R_7D`` and, in the sandbox only, settling or
failing the next attempt (through the workspace's sandbox console)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRStatus,
    PoliticaRetentativa,
    RecCompleta,
)
from treasury_app.domain.money import format_brl
from treasury_app.services.recurrences import RecurrenceInputError
from treasury_app.services.sandbox_console import pending_attempt
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask_yes, spawn_unless_busy, yes_no_box
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.cobr_new import (
    NewCobrPages,
    check_new_cobr,
    to_date,
    to_qdate,
    value_rows,
)
from treasury_app.ui.models.cobr_attempts_model import AttemptColumn, CobrAttemptsModel
from treasury_app.ui.models.recurrences_model import (
    closing_note,
    closing_text,
    debtor_document,
    enum_text,
    status_and_closing,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.sandbox_actions import SANDBOX_STYLE, sandbox_button, simulated
from treasury_app.ui.times import format_date
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = [
    "SANDBOX_STYLE",
    "CobrDialog",
    "check_new_cobr",
    "pending_attempt",
]

_OPEN = {CobRStatus.CRIADA.value, CobRStatus.ATIVA.value}


class CobrDialog(NewCobrPages, QDialog):
    """New charge (``cobr`` is ``None``: form, review, then the charge) or an existing one.

    ``existing`` are the recurrence's charges already known (the cycle check). Each action is
    a coroutine method (``review``, ``create_charge``, ``refresh``, ``cancel_charge``,
    ``schedule_retry``, ``sandbox_settle``) that buttons start as :attr:`task`; tests await
    them directly. :attr:`confirm_box` is the last confirmation shown; :attr:`changed` is set
    once the bank's charge changed (the caller reloads its list).

    A request that changes the charge is never cancelled: closing the dialog while one is on
    its way is ignored until its answer is shown. A new charge's txid is chosen once, at the
    first review, so that creating it again after a lost answer is the same ``PUT /cobr``;
    after a lost answer the bank is asked for that txid before anything is sent again.
    """

    FORM, REVIEW, CHARGE = 0, 1, 2

    def __init__(
        self,
        workspace: Workspace,
        rec: RecCompleta,
        existing: Sequence[CobRCompleta] = (),
        cobr: CobRCompleta | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.service = workspace.recurrences
        self.rec = rec
        self.existing = list(existing)
        self.prefill_task: asyncio.Task[bool] | None = None
        self.cobr = cobr
        self.changed = False
        self.task: asyncio.Task[Any] | None = None
        self.confirm_box: QMessageBox | None = None
        self.is_sandbox = workspace.session.profile.environment == "sandbox"
        self._pending: dict[str, Any] | None = None
        self.txid: str | None = None  # the new charge's txid, chosen at the first review
        self.outcome_unknown = False  # a PUT /cobr lost its answer: ask before sending again
        self._writing = False
        self._answer_lost = False
        self.setObjectName("cobr-dialog")
        self.setWindowTitle(self.tr("Recurring charge — %1").replace("%1", rec.id_rec))
        self.resize(640, 520)

        self.banner = ErrorBanner(self)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self._build_form())
        self.pages.addWidget(self._build_review())
        self.pages.addWidget(self._build_charge())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(self.pages, 1)
        if cobr is not None:
            self._show_charge(cobr)

    # -- the charge page -------------------------------------------------------------------------

    def _build_charge(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        self.charge_labels = value_rows(
            form,
            page,
            "cobr-",
            (
                ("txid", self.tr("txid")),
                ("status", self.tr("Status")),
                ("due", self.tr("Due date")),
                ("amount", self.tr("Amount")),
                ("policy", self.tr("Retry policy")),
            ),
        )
        for value in self.charge_labels.values():
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.status_line = QLabel(page)
        self.status_line.setObjectName("cobr-status-line")
        self.status_line.setWordWrap(True)
        self.status_line.setStyleSheet("font-weight: bold;")

        self.attempts = CobrAttemptsModel(self)
        self.attempts_view = QTableView(page)
        self.attempts_view.setObjectName("cobr-attempts")
        self.attempts_view.setModel(self.attempts)
        self.attempts_view.verticalHeader().hide()
        self.attempts_view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.attempts_view.horizontalHeader().setSectionResizeMode(
            AttemptColumn.END_TO_END_ID, QHeaderView.ResizeMode.Stretch
        )

        self.refresh_button = QPushButton(self.tr("Refresh"), page)
        self.refresh_button.clicked.connect(lambda: self._start(self.refresh(), "cobr-refresh"))
        self.cancel_button = QPushButton(self.tr("Cancel charge…"), page)
        self.cancel_button.setObjectName("cobr-cancel")
        self.cancel_button.clicked.connect(lambda: self._start(self.cancel_charge(), "cobr-cancel"))
        self.retry_date = date_edit(page, name="cobr-retry-date")
        self.retry_button = QPushButton(self.tr("Schedule retry…"), page)
        self.retry_button.setObjectName("cobr-retry")
        self.retry_button.clicked.connect(lambda: self._start(self.schedule_retry(), "cobr-retry"))
        self.retry_note = QLabel(page)
        self.retry_note.setWordWrap(True)
        self.settle_button = self._sandbox_button(
            self.tr("Sandbox: settle the next attempt"), "cobr-sandbox-settle", fail=False
        )
        self.fail_button = self._sandbox_button(
            self.tr("Sandbox: fail the next attempt"), "cobr-sandbox-fail", fail=True
        )
        close = QPushButton(self.tr("Close"), page)
        close.clicked.connect(self.accept)

        actions = QHBoxLayout()
        actions.addWidget(self.refresh_button)
        actions.addWidget(self.cancel_button)
        actions.addStretch(1)
        actions.addWidget(QLabel(self.tr("Retry on"), page))
        actions.addWidget(self.retry_date)
        actions.addWidget(self.retry_button)
        sandbox = QHBoxLayout()
        sandbox.addWidget(self.settle_button)
        sandbox.addWidget(self.fail_button)
        sandbox.addStretch(1)
        sandbox.addWidget(close)
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.status_line)
        layout.addWidget(QLabel(self.tr("Settlement attempts"), page))
        layout.addWidget(self.attempts_view, 1)
        layout.addLayout(actions)
        layout.addWidget(self.retry_note)
        layout.addLayout(sandbox)
        return page

    def _sandbox_button(self, text: str, name: str, *, fail: bool) -> QPushButton:
        button = sandbox_button(
            self,
            text,
            name,
            self.tr(
                "Sandbox only: plays the payer's bank and moves the test bank's clock to the "
                "settlement moment (10:00 in Brasília on the settlement date). Other open "
                "charges due by then settle too."
            ),
            lambda: self._start(self.sandbox_settle(fail=fail), f"{name}-task"),
        )
        button.setVisible(self.is_sandbox)
        return button

    def _start(self, coro: Any, name: str) -> None:
        self.task = spawn_unless_busy(self.task, coro, name=name, owner=self) or self.task

    # -- texts -----------------------------------------------------------------------------------

    def _debtor_text(self) -> str:
        document = debtor_document(self.rec)
        name = self.rec.vinculo.devedor.nome or ""
        policy = code_word(
            Family.RETRY_POLICY, self.rec.politica_retentativa or PoliticaRetentativa.NAO_PERMITE
        )
        return (
            self.tr("Recurrence %1 of %2 (%3), %4, retry policy %5.")
            .replace("%1", self.rec.id_rec)
            .replace("%2", name)
            .replace("%3", document)
            .replace("%4", code_word(Family.PERIODICITY, self.rec.calendario.periodicidade))
            .replace("%5", policy)
        )

    async def _write(
        self,
        work: Awaitable[CobRCompleta],
        *,
        controls: Sequence[QWidget],
        said: Callable[[CobRCompleta], str],
        fields: dict[str, QWidget] | None = None,
    ) -> CobRCompleta | None:
        """``run_operation`` for a request that changes the charge: the dialog does not close
        (nor cancel it) until its answer is shown, ``said(charge)`` on the status line."""
        self._writing = True
        try:
            done = await run_operation(
                work, controls=controls, banner=self.banner, fields=fields, changes_ledger=True
            )
        finally:
            if shiboken6.isValid(self):
                self._writing = False
        if done is not None:
            self.changed = True
            self._show_charge(done)
            self.status_line.setText(said(done))
        return done

    # -- the charge ------------------------------------------------------------------------------

    def _show_charge(self, cobr: CobRCompleta) -> None:
        self.cobr = cobr
        self.pages.setCurrentIndex(self.CHARGE)
        labels = self.charge_labels
        labels["txid"].setText(cobr.txid)
        status = code_word(Family.COBR_STATUS, cobr.status)
        closing = closing_text(cobr.encerramento, charge=True)  # why it ended, when it did
        labels["status"].setText(status_and_closing(status, closing))
        labels["status"].setToolTip(closing_note(cobr.encerramento))
        labels["due"].setText(format_date(cobr.calendario.data_de_vencimento))
        labels["amount"].setText(format_brl(cobr.valor.original))
        policy = cobr.politica_retentativa or self.rec.politica_retentativa
        labels["policy"].setText(
            code_word(Family.RETRY_POLICY, policy or PoliticaRetentativa.NAO_PERMITE)
        )
        self.status_line.setText(
            self.tr("Status: %1.").replace("%1", code_word(Family.COBR_STATUS, cobr.status))
        )
        self.attempts.set_attempts(cobr.tentativas)
        self._update_actions()

    def _update_actions(self) -> None:
        cobr = self.cobr
        if cobr is None:
            return
        is_open = enum_text(cobr.status) in _OPEN
        today = self.service.today()
        # Whether it may be cancelled or retried: the recurrences service's rules.
        self.cancel_button.setEnabled(self.service.cancel_blocker(cobr) is None)
        retry = self.service.retry_blocker(cobr)
        allows = retry is None or retry.code != "cobr.retries_not_allowed"
        for widget in (self.retry_date, self.retry_button):
            widget.setVisible(allows)
        self.retry_button.setEnabled(retry is None)
        if allows:
            latest = self.service.latest_retry_date(cobr)
            last = max((t.data_liquidacao for t in cobr.tentativas), default=today)
            proposed = min(max(today, last) + dt.timedelta(days=1), latest)
            self.retry_date.setDate(to_qdate(proposed))
            self.retry_note.setText(
                self.tr(
                    "Up to 3 retries after a failed attempt, until %1 (7 days after the due date)."
                ).replace("%1", format_date(latest))
            )
        elif retry is not None:
            self.retry_note.setText(rule_text(retry))
        pending = pending_attempt(cobr) is not None
        for button in (self.settle_button, self.fail_button):
            button.setVisible(self.is_sandbox)
            button.setEnabled(self.is_sandbox and is_open and pending)

    async def refresh(self) -> CobRCompleta | None:
        """Read the charge again from the bank."""
        if self.cobr is None:
            return None
        cobr = await run_operation(
            self.service.get_cobr(self.cobr.txid),
            controls=[self.refresh_button],
            banner=self.banner,
        )
        if cobr is not None:
            self._show_charge(cobr)
        return cobr

    async def _confirm(self, title: str, text: str) -> bool:
        icon = QMessageBox.Icon.Question
        self.confirm_box = yes_no_box(self, icon, title, text, "cobr-confirm")
        return await ask_yes(self.confirm_box)

    async def cancel_charge(self) -> CobRCompleta | None:
        """Cancel the charge after a confirmation (only before its first attempt's date)."""
        cobr = self.cobr
        if cobr is None:
            return None
        text = (
            self.tr("Cancel the recurring charge %1 of %2 due %3?")
            .replace("%1", cobr.txid)
            .replace("%2", format_brl(cobr.valor.original))
            .replace("%3", format_date(cobr.calendario.data_de_vencimento))
        )
        if not await self._confirm(self.tr("Cancel the charge"), text):
            return None
        return await self._write(
            self.service.cancel_cobr(cobr.txid),
            controls=[self.cancel_button],
            said=lambda done: self.tr("Recurring charge cancelled: %1.").replace(
                "%1", code_word(Family.COBR_STATUS, done.status)
            ),
        )

    async def schedule_retry(self, day: dt.date | None = None) -> CobRCompleta | None:
        """Schedule a retry on ``day`` (the date field's by default): checked here first
        against the policy, then confirmed, then sent."""
        if self.cobr is None:
            return None
        when = day if day is not None else to_date(self.retry_date.date())
        fields: dict[str, QWidget] = {"data": self.retry_date}
        fresh = await run_operation(
            self.service.get_cobr(self.cobr.txid), controls=[self.retry_button], banner=self.banner
        )
        if fresh is None:
            return None
        self._show_charge(fresh)
        try:
            self.service.check_retry(fresh, when)
        except RecurrenceInputError as error:
            self.banner.show_error(error, fields)
            return None
        text = (
            self.tr("Try again to debit %1 from %2 on %3?")
            .replace("%1", format_brl(fresh.valor.original))
            .replace("%2", self.rec.vinculo.devedor.nome or "")
            .replace("%3", format_date(when))
        )
        if not await self._confirm(self.tr("Schedule a retry"), text):
            return None
        return await self._write(
            self.service.retry_cobr(fresh.txid, when),
            controls=[self.retry_button],
            fields=fields,
            said=lambda done: (
                self.tr("Retry scheduled on %1; the charge is %2.")
                .replace("%1", format_date(when))
                .replace("%2", code_word(Family.COBR_STATUS, done.status))
            ),
        )

    async def sandbox_settle(self, *, fail: bool) -> CobRCompleta | None:
        """Sandbox only: settle (or fail) the next attempt by moving the test bank's clock."""
        if not self.is_sandbox or self.cobr is None:
            return None
        return await self._write(
            simulated(self.workspace.sandbox.settle_next_attempt(self.cobr.txid, fail=fail)),
            controls=[self.settle_button, self.fail_button],
            said=lambda done: (
                self.tr("Sandbox: the attempt is %1; the charge is %2.")
                .replace(
                    "%1",
                    code_word(Family.ATTEMPT_STATUS, done.tentativas[-1].status)
                    if done.tentativas
                    else "",
                )
                .replace("%2", code_word(Family.COBR_STATUS, done.status))
            ),
        )

    def done(self, result: int) -> None:
        if self._writing:
            # The request may already be at the bank: cancelling it here would leave the
            # charge changed without the dialog (or its caller) knowing. Close after it.
            self.banner.show_message(
                self.tr("Waiting for the bank's answer"),
                self.tr("The request is already on its way; close the window once it answers."),
            )
            return
        for task in (self.task, self.prefill_task):  # reads, or a confirmation still open
            if task is not None and not task.done():
                task.cancel()
        super().done(result)
