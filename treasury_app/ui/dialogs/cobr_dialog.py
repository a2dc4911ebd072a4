"""The recurring charge (``cobr``) dialog: a form for one cycle of a recurrence, checked here
before the bank is asked (2 business days of lead time, one active charge per cycle), a review
of who pays what (a charge ends in the payer's account being debited), then the charge itself:
its settlement attempts, cancellation before the first attempt, retries under
``PERMITE_3R_7D`` and, in the sandbox only, settling or failing the next attempt."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

import httpx
import shiboken6
from PySide6.QtCore import QCoreApplication, QDate, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QStackedWidget,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.errors import ApiError, NotFound, TransportFailure
from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRStatus,
    PoliticaRetentativa,
    RecCompleta,
    RecStatus,
    TentativaStatus,
    TipoConta,
)
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import format_brl
from treasury_app.services.recurrences import (
    ReceiverAccount,
    RecurrenceInputError,
    charging_cycle,
)
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, spawn
from treasury_app.ui.models.cobr_attempts_model import AttemptColumn, CobrAttemptsModel
from treasury_app.ui.models.recurrences_model import debtor_document, enum_text
from treasury_app.ui.operation import EXPECTED_ERRORS, run_operation
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit

__all__ = [
    "SANDBOX_STYLE",
    "CobrDialog",
    "check_new_cobr",
    "pending_attempt",
    "sandbox_post",
    "settle_next_attempt",
    "settlement_moment",
]

SANDBOX_STYLE = "QPushButton { color: #7a4b00; background: #fff4d6; border: 1px dashed #c98a00; }"
"""The look of sandbox-only actions (as in the payments list)."""

_CLOSED_FOR_CYCLE = {CobRStatus.REJEITADA.value, CobRStatus.CANCELADA.value}
_OPEN = {CobRStatus.CRIADA.value, CobRStatus.ATIVA.value}
_PENDING = {TentativaStatus.SOLICITADA.value, TentativaStatus.AGENDADA.value}
_SETTLEMENT_TIME = dt.time(10, 0)  # the sandbox settles attempts at 10:00 in Brasília


def check_new_cobr(
    rec: RecCompleta,
    existing: Sequence[CobRCompleta],
    *,
    due: dt.date,
    amount: Decimal | None,
    earliest: dt.date,
) -> None:
    """Raise :class:`RecurrenceInputError` (naming the field) when the bank would refuse a
    charge of ``rec`` due on ``due``: the recurrence not approved, the lead time, its
    validity, its amount, or another active charge of ``existing`` in the same cycle."""
    if enum_text(rec.status) != RecStatus.APROVADA.value:
        raise RecurrenceInputError(
            "idRec",
            QCoreApplication.translate(
                "CobrDialog", "The recurrence is %1: only APROVADA can be charged."
            ).replace("%1", enum_text(rec.status)),
        )
    field = "calendario.dataDeVencimento"
    if due < earliest:
        raise RecurrenceInputError(
            field,
            QCoreApplication.translate(
                "CobrDialog",
                "The due date %1 is too close: a recurring charge is created at least "
                "2 business days before its due date, so the earliest is %2.",
            )
            .replace("%1", f"{due:%d/%m/%Y}")
            .replace("%2", f"{earliest:%d/%m/%Y}"),
        )
    calendario = rec.calendario
    if due < calendario.data_inicial or (
        calendario.data_final is not None and due > calendario.data_final
    ):
        until = (
            f"{calendario.data_final:%d/%m/%Y}"
            if calendario.data_final
            else QCoreApplication.translate("CobrDialog", "no end")
        )
        raise RecurrenceInputError(
            field,
            QCoreApplication.translate(
                "CobrDialog", "The due date is outside the recurrence's validity (%1 to %2)."
            )
            .replace("%1", f"{calendario.data_inicial:%d/%m/%Y}")
            .replace("%2", until),
        )
    if amount is None:
        raise RecurrenceInputError(
            "valor.original",
            QCoreApplication.translate("CobrDialog", "Type the amount of the charge."),
        )
    valor = rec.valor
    if valor is not None and valor.valor_rec is not None and amount != valor.valor_rec:
        raise RecurrenceInputError(
            "valor.original",
            QCoreApplication.translate(
                "CobrDialog", "The amount is the recurrence's fixed %1."
            ).replace("%1", format_brl(valor.valor_rec)),
        )
    minimum = valor.valor_minimo_recebedor if valor is not None else None
    if minimum is not None and amount < minimum:
        raise RecurrenceInputError(
            "valor.original",
            QCoreApplication.translate(
                "CobrDialog", "The amount is below the recurrence's minimum %1."
            ).replace("%1", format_brl(minimum)),
        )
    cycle = charging_cycle(calendario.periodicidade, due)
    for other in existing:
        if other.id_rec != rec.id_rec or enum_text(other.status) in _CLOSED_FOR_CYCLE:
            continue
        if charging_cycle(calendario.periodicidade, other.calendario.data_de_vencimento) == cycle:
            raise RecurrenceInputError(
                field,
                QCoreApplication.translate(
                    "CobrDialog",
                    "The recurrence already has an active charge in this cycle (%1): %2, %3, "
                    "due %4. Cancel it first or choose another cycle.",
                )
                .replace("%1", cycle)
                .replace("%2", other.txid)
                .replace("%3", enum_text(other.status))
                .replace("%4", f"{other.calendario.data_de_vencimento:%d/%m/%Y}"),
            )


def pending_attempt(cobr: CobRCompleta) -> Any:
    """The attempt still waiting for its settlement date (``None`` when there is none)."""
    return next((t for t in cobr.tentativas if enum_text(t.status) in _PENDING), None)


def settlement_moment(day: dt.date) -> dt.datetime:
    """When the sandbox settles an attempt of ``day`` (10:00 in Brasília), in UTC."""
    return dt.datetime.combine(day, _SETTLEMENT_TIME, BRASILIA).astimezone(dt.UTC)


async def sandbox_post(workspace: Workspace, path: str, body: Any = None) -> dict[str, Any]:
    """A call to the sandbox bank's control surface (mTLS, no token); refusals become
    ``ValueError`` for the operation's banner."""
    http = workspace.session.qrcodes.transport.http
    try:
        response = await http.post(path, json=body)
        response.raise_for_status()
    except httpx.HTTPStatusError as error:
        detail = ""
        with contextlib.suppress(ValueError):
            detail = str(error.response.json().get("detail") or "")
        refused = (
            QCoreApplication.translate("CobrDialog", "The sandbox bank refused %1 (%2).")
            .replace("%1", path)
            .replace("%2", str(error.response.status_code))
        )
        raise ValueError(f"{refused} {detail}".strip()) from None
    except httpx.TransportError as error:
        raise ValueError(
            QCoreApplication.translate(
                "CobrDialog", "The sandbox bank could not be reached: %1"
            ).replace("%1", str(error))
        ) from None
    answer = response.json()
    return answer if isinstance(answer, dict) else {}


async def _sandbox_now(workspace: Workspace) -> dt.datetime:
    http = workspace.session.qrcodes.transport.http
    try:
        response = await http.get("/sandbox/status")
        response.raise_for_status()
        return dt.datetime.fromisoformat(str(response.json()["now"]).replace("Z", "+00:00"))
    except (httpx.HTTPError, KeyError, ValueError) as error:
        raise ValueError(
            QCoreApplication.translate(
                "CobrDialog", "The sandbox clock could not be read: %1"
            ).replace("%1", str(error))
        ) from None


async def settle_next_attempt(workspace: Workspace, txid: str, *, fail: bool) -> CobRCompleta:
    """Sandbox: make the next attempt of ``txid`` fail (``fail-next``) or not, then move the
    sandbox clock to its settlement moment and wait (a few seconds at most) for its result."""
    service = workspace.recurrences
    cobr = await service.get_cobr(txid)
    attempt = pending_attempt(cobr)
    if attempt is None:
        raise ValueError(
            QCoreApplication.translate(
                "CobrDialog", "The charge has no attempt waiting to be settled."
            )
        )
    if fail:
        await sandbox_post(workspace, f"/sandbox/automatico/cobr/{txid}/fail-next")
    target = settlement_moment(attempt.data_liquidacao) + dt.timedelta(minutes=1)
    now = await _sandbox_now(workspace)
    if now < target:
        await sandbox_post(workspace, "/sandbox/clock", {"set": target.isoformat()})
    else:
        await sandbox_post(workspace, "/sandbox/clock", {"advance": 1})
    await workspace.sync_clock()  # the app's "today" follows the bank's again
    for _ in range(40):
        cobr = await service.get_cobr(txid)
        same = [t for t in cobr.tentativas if t.data_liquidacao == attempt.data_liquidacao]
        if not any(enum_text(t.status) in _PENDING for t in same):
            break
        await asyncio.sleep(0.25)
    return cobr


class CobrDialog(QDialog):
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

    # -- building --------------------------------------------------------------------------------

    def _build_form(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        earliest = self.service.earliest_due_date()
        self.due_edit = QDateEdit(_qdate(earliest), page)
        self.due_edit.setObjectName("cobr-due-date")
        self.due_edit.setCalendarPopup(True)
        self.due_edit.setDisplayFormat("dd/MM/yyyy")
        self.due_hint = QLabel(
            self.tr("Earliest due date today: %1 (2 business days ahead).").replace(
                "%1", f"{earliest:%d/%m/%Y}"
            ),
            page,
        )
        self.amount_edit = MoneyEdit(page)
        self.amount_edit.setObjectName("cobr-amount")
        valor = self.rec.valor
        if valor is not None and valor.valor_rec is not None:
            self.amount_edit.set_value(valor.valor_rec)
            self.amount_edit.setReadOnly(True)
            self.amount_edit.setToolTip(self.tr("The recurrence's fixed amount."))
        elif valor is not None and valor.valor_minimo_recebedor is not None:
            self.amount_edit.setPlaceholderText(
                self.tr("at least %1").replace("%1", format_brl(valor.valor_minimo_recebedor))
            )
        self.info_edit = QLineEdit(page)
        self.info_edit.setObjectName("cobr-message")
        self.info_edit.setMaxLength(140)
        self.info_edit.setPlaceholderText(self.tr("Message shown to the payer (optional)"))
        self.branch_edit = QLineEdit(page)
        self.branch_edit.setObjectName("cobr-branch")
        self.branch_edit.setMaxLength(4)
        self.account_edit = QLineEdit(page)
        self.account_edit.setObjectName("cobr-account")
        self.account_edit.setMaxLength(20)
        self.account_type = QComboBox(page)
        self.account_type.setObjectName("cobr-account-type")
        for kind, label in (
            (TipoConta.CORRENTE, self.tr("Checking (CORRENTE)")),
            (TipoConta.POUPANCA, self.tr("Savings (POUPANCA)")),
            (TipoConta.PAGAMENTO, self.tr("Payment (PAGAMENTO)")),
        ):
            self.account_type.addItem(label, kind.value)
        self._prefill_receiver()
        form.addRow(self.tr("Due date"), self.due_edit)
        form.addRow("", self.due_hint)
        form.addRow(self.tr("Amount"), self.amount_edit)
        form.addRow(self.tr("Message"), self.info_edit)
        form.addRow(self.tr("Credit to branch"), self.branch_edit)
        form.addRow(self.tr("Credit to account"), self.account_edit)
        form.addRow(self.tr("Account type"), self.account_type)

        self.review_button = QPushButton(self.tr("Review…"), page)
        self.review_button.setObjectName("cobr-review")
        self.review_button.clicked.connect(lambda: self._start(self.review(), "cobr-review"))
        close = QPushButton(self.tr("Close"), page)
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(close)
        buttons.addWidget(self.review_button)
        layout = QVBoxLayout(page)
        debtor = QLabel(self._debtor_text(), page)
        debtor.setWordWrap(True)
        layout.addWidget(debtor)
        layout.addLayout(form)
        layout.addStretch(1)
        layout.addLayout(buttons)
        return page

    def _prefill_receiver(self) -> None:
        """The account the recurrence's last charge credited; for a first charge, the account
        the bank reports with the balance (read in the background, typed fields win)."""
        for other in reversed(self.existing):
            recebedor = other.recebedor
            if recebedor is not None and recebedor.conta:
                self.branch_edit.setText(recebedor.agencia or "")
                self.account_edit.setText(recebedor.conta)
                index = self.account_type.findData(enum_text(recebedor.tipo_conta))
                if index >= 0:
                    self.account_type.setCurrentIndex(index)
                return
        if self.cobr is None:
            self.prefill_task = spawn(self.prefill_from_balance())

    async def prefill_from_balance(self) -> bool:
        """Fill the empty account fields from the balance's account data (``False`` if the
        bank did not say, or the person already typed them)."""
        try:
            balance = await self.workspace.statement.balance()
        except EXPECTED_ERRORS:
            return False  # the person types the account, as before
        if not shiboken6.isValid(self) or not balance.account_number:
            return False
        if self.account_edit.text().strip() or self.branch_edit.text().strip():
            return False
        self.branch_edit.setText(balance.branch or "")
        self.account_edit.setText(balance.account_number)
        return True

    def _build_review(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        self.review_labels: dict[str, QLabel] = {}
        for name, label in (
            ("debtor", self.tr("Payer (debtor)")),
            ("document", self.tr("Document")),
            ("due", self.tr("Due date")),
            ("cycle", self.tr("Cycle")),
            ("message", self.tr("Message")),
            ("account", self.tr("Credited account")),
        ):
            value = QLabel(page)
            value.setObjectName(f"cobr-review-{name}")
            value.setWordWrap(True)
            self.review_labels[name] = value
            form.addRow(label, value)
        self.review_amount = QLabel(page)
        self.review_amount.setObjectName("cobr-review-amount")
        self.review_amount.setStyleSheet("font-size: 20pt; font-weight: bold;")
        warning = QLabel(
            self.tr(
                "Creating this charge schedules a debit of this amount from the payer's account "
                "on the due date, under the recurrence the payer authorized."
            ),
            page,
        )
        warning.setWordWrap(True)
        warning.setStyleSheet(
            "background: #fff4e5; border: 1px solid #f0a040; border-radius: 4px; padding: 6px;"
        )
        self.back_button = QPushButton(self.tr("Back"), page)
        self.back_button.clicked.connect(lambda: self.pages.setCurrentIndex(self.FORM))
        self.create_button = QPushButton(self.tr("Create recurring charge"), page)
        self.create_button.setObjectName("cobr-create")
        self.create_button.setAutoDefault(False)
        self.create_button.clicked.connect(lambda: self._start(self.create_charge(), "cobr-create"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.back_button)
        buttons.addStretch(1)
        buttons.addWidget(self.create_button)
        layout = QVBoxLayout(page)
        layout.addWidget(QLabel(self.tr("Review the recurring charge"), page))
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Amount to be charged"), page))
        layout.addWidget(self.review_amount)
        layout.addWidget(warning)
        layout.addStretch(1)
        layout.addLayout(buttons)
        return page

    def _build_charge(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        self.charge_labels: dict[str, QLabel] = {}
        for name, label in (
            ("txid", self.tr("txid")),
            ("status", self.tr("Status")),
            ("due", self.tr("Due date")),
            ("amount", self.tr("Amount")),
            ("policy", self.tr("Retry policy")),
        ):
            value = QLabel(page)
            value.setObjectName(f"cobr-{name}")
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.charge_labels[name] = value
            form.addRow(label, value)
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
        self.retry_date = QDateEdit(page)
        self.retry_date.setObjectName("cobr-retry-date")
        self.retry_date.setCalendarPopup(True)
        self.retry_date.setDisplayFormat("dd/MM/yyyy")
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
        button = QPushButton(text, self)
        button.setObjectName(name)
        button.setStyleSheet(SANDBOX_STYLE)
        button.setToolTip(
            self.tr(
                "Sandbox only: plays the payer's bank and moves the test bank's clock to the "
                "settlement moment (10:00 in Brasília on the settlement date). Other open "
                "charges due by then settle too."
            )
        )
        button.clicked.connect(lambda: self._start(self.sandbox_settle(fail=fail), f"{name}-task"))
        button.setVisible(self.is_sandbox)
        return button

    def _start(self, coro: Any, name: str) -> None:
        if self.task is not None and not self.task.done():
            coro.close()
            return
        self.task = spawn(coro, name=name)

    # -- texts -----------------------------------------------------------------------------------

    def _debtor_text(self) -> str:
        document = debtor_document(self.rec)
        name = self.rec.vinculo.devedor.nome or ""
        policy = enum_text(self.rec.politica_retentativa) or PoliticaRetentativa.NAO_PERMITE.value
        return (
            self.tr("Recurrence %1 of %2 (%3), %4, retry policy %5.")
            .replace("%1", self.rec.id_rec)
            .replace("%2", name)
            .replace("%3", document)
            .replace("%4", enum_text(self.rec.calendario.periodicidade))
            .replace("%5", policy)
        )

    # -- new charge ------------------------------------------------------------------------------

    def _fields(self) -> dict[str, QWidget]:
        return {
            "calendario.dataDeVencimento": self.due_edit,
            "dataDeVencimento": self.due_edit,
            "valor.original": self.amount_edit,
            "infoAdicional": self.info_edit,
            "recebedor.agencia": self.branch_edit,
            "recebedor.conta": self.account_edit,
            "recebedor.tipoConta": self.account_type,
        }

    def _receiver(self) -> ReceiverAccount:
        account = self.account_edit.text().strip()
        if not account:
            raise RecurrenceInputError(
                "recebedor.conta", self.tr("Type the account to be credited.")
            )
        return ReceiverAccount(
            account=account,
            branch=self.branch_edit.text().strip() or None,
            account_type=str(self.account_type.currentData()),
        )

    async def review(self) -> bool:
        """Check the form locally (nothing is sent) and show the review; ``False`` with the
        reason in the banner when it is refused."""
        try:
            due = _to_date(self.due_edit.date())
            amount = self.amount_edit.value()
            check_new_cobr(
                self.rec,
                self.existing,
                due=due,
                amount=amount,
                earliest=self.service.earliest_due_date(),
            )
            receiver = self._receiver()
        except RecurrenceInputError as error:
            self.banner.show_error(error, self._fields())
            return False
        assert amount is not None
        info = self.info_edit.text().strip() or None
        if self.txid is None:
            self.txid = new_txid()  # kept for every attempt of this dialog: at most one charge
        self._pending = {"due": due, "amount": amount, "receiver": receiver, "info": info}
        self.banner.clear()
        labels = self.review_labels
        labels["debtor"].setText(self.rec.vinculo.devedor.nome or "")
        labels["document"].setText(debtor_document(self.rec))
        labels["due"].setText(f"{due:%d/%m/%Y}")
        labels["cycle"].setText(charging_cycle(self.rec.calendario.periodicidade, due))
        labels["message"].setText(info or "")
        branch = f"{receiver.branch} / " if receiver.branch else ""
        labels["account"].setText(f"{branch}{receiver.account} ({receiver.account_type})")
        self.review_amount.setText(format_brl(amount))
        self.create_button.setEnabled(True)
        self.pages.setCurrentIndex(self.REVIEW)
        return True

    async def create_charge(self) -> CobRCompleta | None:
        """Create the reviewed charge (once: the button stays disabled after a success). After
        a lost answer the bank is asked for the txid first; the charge is sent again (same
        txid) only when the bank does not have it."""
        pending = self._pending
        if pending is None or self.cobr is not None or self.txid is None:
            return None
        cobr = await self._write(
            self._create_or_find(pending, self.txid),
            controls=[self.create_button, self.back_button],
            fields=self._fields(),
        )
        if not shiboken6.isValid(self):
            return cobr
        if cobr is None:
            self._explain_lost_answer()
            return None
        self.changed = True
        self.create_button.setEnabled(False)
        self._show_charge(cobr)
        self.status_line.setText(
            self.tr("Recurring charge created: %1.").replace("%1", enum_text(cobr.status))
        )
        return cobr

    async def _create_or_find(self, pending: dict[str, Any], txid: str) -> CobRCompleta:
        self._answer_lost = False
        if self.outcome_unknown:
            found = await self._find_cobr(txid)
            if found is not None:
                return found
        try:
            return await self.service.create_cobr(
                self.rec.id_rec,
                due_date=pending["due"],
                amount=pending["amount"],
                receiver=pending["receiver"],
                info=pending["info"],
                txid=txid,
            )
        except (ApiError, TransportFailure) as failure:
            # The transport repeats a PUT whose answer was lost: the bank then refuses the
            # txid it already holds. Either way, only the bank can say whether it has it.
            if isinstance(failure, TransportFailure):
                if not failure.outcome_unknown:
                    raise
                self.outcome_unknown = self._answer_lost = True
            try:
                found = await self._find_cobr(txid)
            except EXPECTED_ERRORS:
                raise failure from None  # still unknown: "Create" asks the bank again first
            if found is None:
                raise
            self._answer_lost = False
            return found

    async def _find_cobr(self, txid: str) -> CobRCompleta | None:
        """The bank's charge ``txid`` (``None`` when the bank does not have it)."""
        try:
            return await self.service.get_cobr(txid)
        except NotFound:
            return None

    def _explain_lost_answer(self) -> None:
        if not self._answer_lost:
            return
        self.banner.show_message(
            self.tr("No answer from the bank"),
            self.tr(
                'The bank\'s answer to the recurring charge %1 was lost. "Create" asks the '
                "bank for %1 first and sends it again (the same txid) only if the bank does "
                "not have it: it is never created twice."
            ).replace("%1", self.txid or ""),
        )

    async def _write(
        self,
        work: Any,
        *,
        controls: Sequence[QWidget],
        fields: dict[str, QWidget] | None = None,
    ) -> Any:
        """``run_operation`` for a request that changes the charge: the dialog does not close
        (nor cancel it) until its answer is shown."""
        self._writing = True
        try:
            return await run_operation(
                work, controls=controls, banner=self.banner, fields=fields, changes_ledger=True
            )
        finally:
            if shiboken6.isValid(self):
                self._writing = False

    # -- the charge ------------------------------------------------------------------------------

    def _show_charge(self, cobr: CobRCompleta) -> None:
        self.cobr = cobr
        self.pages.setCurrentIndex(self.CHARGE)
        labels = self.charge_labels
        labels["txid"].setText(cobr.txid)
        labels["status"].setText(enum_text(cobr.status))
        labels["due"].setText(f"{cobr.calendario.data_de_vencimento:%d/%m/%Y}")
        labels["amount"].setText(format_brl(cobr.valor.original))
        policy = enum_text(cobr.politica_retentativa or self.rec.politica_retentativa)
        labels["policy"].setText(policy or PoliticaRetentativa.NAO_PERMITE.value)
        self.status_line.setText(self.tr("Status: %1.").replace("%1", enum_text(cobr.status)))
        self.attempts.set_attempts(cobr.tentativas)
        self._update_actions()

    def _allows_retries(self) -> bool:
        if self.cobr is None:
            return False
        policy = self.cobr.politica_retentativa or self.rec.politica_retentativa
        return enum_text(policy) == PoliticaRetentativa.PERMITE_3R_7D.value

    def _update_actions(self) -> None:
        cobr = self.cobr
        if cobr is None:
            return
        is_open = enum_text(cobr.status) in _OPEN
        today = self.service.today()
        first = cobr.tentativas[0].data_liquidacao if cobr.tentativas else None
        self.cancel_button.setEnabled(is_open and (first is None or today < first))
        allows = self._allows_retries()
        for widget in (self.retry_date, self.retry_button):
            widget.setVisible(allows)
        self.retry_button.setEnabled(allows and is_open)
        if allows:
            latest = self.service.latest_retry_date(cobr)
            last = max((t.data_liquidacao for t in cobr.tentativas), default=today)
            proposed = min(max(today, last) + dt.timedelta(days=1), latest)
            self.retry_date.setDate(_qdate(proposed))
            self.retry_note.setText(
                self.tr(
                    "Up to 3 retries after a failed attempt, until %1 (7 days after the due date)."
                ).replace("%1", f"{latest:%d/%m/%Y}")
            )
        else:
            self.retry_note.setText(self.tr("The recurrence does not allow retries (NAO_PERMITE)."))
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
        if cobr is not None and shiboken6.isValid(self):
            self._show_charge(cobr)
        return cobr

    async def _confirm(self, title: str, text: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Question, title, text, parent=self)
        box.setObjectName("cobr-confirm")
        box.setStandardButtons(QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
        box.setDefaultButton(QMessageBox.StandardButton.No)
        self.confirm_box = box
        try:
            answer = await ask(box)
        finally:
            if shiboken6.isValid(box):
                box.deleteLater()
        return answer == QMessageBox.StandardButton.Yes and shiboken6.isValid(self)

    async def cancel_charge(self) -> CobRCompleta | None:
        """Cancel the charge after a confirmation (only before its first attempt's date)."""
        cobr = self.cobr
        if cobr is None:
            return None
        text = (
            self.tr("Cancel the recurring charge %1 of %2 due %3?")
            .replace("%1", cobr.txid)
            .replace("%2", format_brl(cobr.valor.original))
            .replace("%3", f"{cobr.calendario.data_de_vencimento:%d/%m/%Y}")
        )
        if not await self._confirm(self.tr("Cancel the charge"), text):
            return None
        done = await self._write(self.service.cancel_cobr(cobr.txid), controls=[self.cancel_button])
        if not shiboken6.isValid(self):
            return done
        if done is not None:
            self.changed = True
            self._show_charge(done)
            self.status_line.setText(
                self.tr("Recurring charge cancelled: %1.").replace("%1", enum_text(done.status))
            )
        return done

    async def schedule_retry(self, day: dt.date | None = None) -> CobRCompleta | None:
        """Schedule a retry on ``day`` (the date field's by default): checked here first
        against the policy, then confirmed, then sent."""
        if self.cobr is None:
            return None
        when = day if day is not None else _to_date(self.retry_date.date())
        fields: dict[str, QWidget] = {"data": self.retry_date}
        fresh = await run_operation(
            self.service.get_cobr(self.cobr.txid), controls=[self.retry_button], banner=self.banner
        )
        if fresh is None or not shiboken6.isValid(self):
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
            .replace("%3", f"{when:%d/%m/%Y}")
        )
        if not await self._confirm(self.tr("Schedule a retry"), text):
            return None
        done = await self._write(
            self.service.retry_cobr(fresh.txid, when), controls=[self.retry_button], fields=fields
        )
        if not shiboken6.isValid(self):
            return done
        if done is not None:
            self.changed = True
            self._show_charge(done)
            self.status_line.setText(
                self.tr("Retry scheduled on %1; the charge is %2.")
                .replace("%1", f"{when:%d/%m/%Y}")
                .replace("%2", enum_text(done.status))
            )
        return done

    async def sandbox_settle(self, *, fail: bool) -> CobRCompleta | None:
        """Sandbox only: settle (or fail) the next attempt by moving the test bank's clock."""
        if not self.is_sandbox or self.cobr is None:
            return None
        done = await self._write(
            settle_next_attempt(self.workspace, self.cobr.txid, fail=fail),
            controls=[self.settle_button, self.fail_button],
        )
        if not shiboken6.isValid(self):
            return done
        if done is not None:
            self.changed = True
            self._show_charge(done)
            last = done.tentativas[-1] if done.tentativas else None
            self.status_line.setText(
                self.tr("Sandbox: the attempt is %1; the charge is %2.")
                .replace("%1", enum_text(last.status) if last else "")
                .replace("%2", enum_text(done.status))
            )
        return done

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


def _qdate(day: dt.date) -> QDate:
    return QDate(day.year, day.month, day.day)


def _to_date(day: QDate) -> dt.date:
    return dt.date(day.year(), day.month(), day.day())
