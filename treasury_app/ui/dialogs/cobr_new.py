"""A new recurring charge (``cobr``), the first two pages of the cobr dialog: the form for one
cycle of a recurrence, checked by the service before the bank is asked (2 business days of
lead time, one active charge per cycle, the recurrence's validity and amounts:
:func:`~treasury_app.services.recurrences.cobr.check_new_cobr`), the review of who pays
what, then creating it once: its txid is chosen at the first review, and after a lost answer
the bank is asked for it before anything is sent again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.errors import ApiError, NotFound, TransportFailure
from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRStatus,
    RecCompleta,
    TipoConta,
)
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import format_brl
from treasury_app.services.recurrences import (
    ReceiverAccount,
    RecurrenceInputError,
    RecurrencesService,
    charging_cycle,
)
from treasury_app.services.recurrences.cobr import check_new_cobr, check_receiver
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.models.recurrences_model import debtor_document, enum_text
from treasury_app.ui.operation import EXPECTED_ERRORS
from treasury_app.ui.theme import banner_style
from treasury_app.ui.times import format_date
from treasury_app.ui.widgets.date_edits import date_edit, to_date, to_qdate
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit

__all__ = ["NewCobrPages", "check_new_cobr", "to_date", "to_qdate", "value_rows"]

_CLOSED_FOR_CYCLE = {CobRStatus.REJEITADA.value, CobRStatus.CANCELADA.value}


# The mixin's host is a dialog: type checkers see its methods, the class itself stays plain.
if TYPE_CHECKING:
    _Host = QDialog
else:
    _Host = object


class NewCobrPages(_Host):
    """The form and review pages of :class:`~treasury_app.ui.dialogs.cobr_dialog.CobrDialog`
    and the coroutines behind them (``review``, ``create_charge``, ``prefill_from_balance``).

    A mixin: the dialog holds the state declared below and supplies ``_start`` (run a button's
    coroutine), ``_write`` (run a request that changes the charge), ``_show_charge`` (the
    third page) and ``_debtor_text``.
    """

    FORM: ClassVar[int]
    REVIEW: ClassVar[int]
    workspace: Workspace
    service: RecurrencesService
    rec: RecCompleta
    existing: list[CobRCompleta]
    cobr: CobRCompleta | None
    changed: bool
    banner: ErrorBanner
    pages: QStackedWidget
    status_line: QLabel
    prefill_task: asyncio.Task[bool] | None
    txid: str | None
    outcome_unknown: bool
    _pending: dict[str, Any] | None
    _answer_lost: bool

    # What the dialog supplies (no ``if TYPE_CHECKING`` block here: the translation extractor
    # would lose the class's context past it).

    def _start(self, coro: Any, name: str) -> None:
        raise NotImplementedError

    def _show_charge(self, cobr: CobRCompleta) -> None:
        raise NotImplementedError

    def _debtor_text(self) -> str:
        raise NotImplementedError

    async def _write(
        self,
        work: Awaitable[CobRCompleta],
        *,
        controls: Sequence[QWidget],
        said: Callable[[CobRCompleta], str],
        fields: dict[str, QWidget] | None = None,
    ) -> CobRCompleta | None:
        raise NotImplementedError

    # -- the form --------------------------------------------------------------------------------

    def _build_form(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        earliest = self.service.earliest_due_date()
        self.due_edit = date_edit(page, earliest, "cobr-due-date")
        self.due_hint = QLabel(
            self.tr("Earliest due date today: %1 (2 business days ahead).").replace(
                "%1", format_date(earliest)
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
        for kind in TipoConta:
            self.account_type.addItem(code_word(Family.ACCOUNT_KIND, kind), kind.value)
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
            self.prefill_task = spawn_for(self, self.prefill_from_balance())

    async def prefill_from_balance(self) -> bool:
        """Fill the empty account fields from the balance's account data (``False`` if the
        bank did not say, or the person already typed them)."""
        try:
            balance = await self.workspace.statement.balance()
        except EXPECTED_ERRORS:
            return False  # the person types the account, as before
        if not balance.account_number:
            return False
        if self.account_edit.text().strip() or self.branch_edit.text().strip():
            return False
        self.branch_edit.setText(balance.branch or "")
        self.account_edit.setText(balance.account_number)
        return True

    def _build_review(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout()
        self.review_labels = value_rows(
            form,
            page,
            "cobr-review-",
            (
                ("debtor", self.tr("Payer (debtor)")),
                ("document", self.tr("Document")),
                ("due", self.tr("Due date")),
                ("cycle", self.tr("Cycle")),
                ("message", self.tr("Message")),
                ("account", self.tr("Credited account")),
            ),
        )
        for value in self.review_labels.values():
            value.setWordWrap(True)
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
        warning.setStyleSheet(f"{banner_style('warning', self)} padding: 6px;")
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

    # -- review and create -----------------------------------------------------------------------

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
        """The account credited, checked by the service (raises
        :class:`RecurrenceInputError`)."""
        receiver = ReceiverAccount(
            account=self.account_edit.text().strip(),
            branch=self.branch_edit.text().strip() or None,
            account_type=str(self.account_type.currentData()),
        )
        check_receiver(receiver)
        return receiver

    async def review(self) -> bool:
        """Check the form locally (nothing is sent) and show the review; ``False`` with the
        reason in the banner when it is refused."""
        try:
            due = to_date(self.due_edit.date())
            amount = self.amount_edit.value()
            check_new_cobr(  # the service's rules, asked before anything is sent
                self.rec, self.existing, due=due, amount=amount, today=self.service.today()
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
        labels["due"].setText(format_date(due))
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
            said=lambda cobr: self.tr("Recurring charge created: %1.").replace(
                "%1", code_word(Family.COBR_STATUS, cobr.status)
            ),
        )
        if cobr is None:
            self._explain_lost_answer()
            return None
        self.create_button.setEnabled(False)
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


def value_rows(
    form: QFormLayout, page: QWidget, prefix: str, rows: Sequence[tuple[str, str]]
) -> dict[str, QLabel]:
    """A read-only value for each ``(name, label)`` row of ``form``, by name; each value's
    object name is ``prefix`` + name."""
    values: dict[str, QLabel] = {}
    for name, label in rows:
        value = QLabel(page)
        value.setObjectName(f"{prefix}{name}")
        values[name] = value
        form.addRow(label, value)
    return values
