"""The forms of the new-recurrence wizard: the recurrence's terms, the payer's account of a
confirmation request (journey 1) and the first charge of a composite QR Code (journeys 3 and 4).

Each form checks itself locally (no request), marks its invalid fields, and names its widgets by
the wire fields they fill, so the bank's ``violacoes`` land on the right widget.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from decimal import Decimal

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QWidget,
)

from treasury_app.api.qrcodes.automatico_models import Periodicidade, PoliticaRetentativa
from treasury_app.domain.documents import normalize_document
from treasury_app.domain.errors import DocumentError
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import Debtor
from treasury_app.services.recurrences import PayerAccount, RecurrenceTerms
from treasury_app.ui.bank_names import account_text, bank_hint
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.times import date_or_empty
from treasury_app.ui.widgets.bank_completer import BankCompleter
from treasury_app.ui.widgets.date_edits import date_edit, to_date
from treasury_app.ui.widgets.money_edit import PIX_MAXIMUM, MoneyEdit

__all__ = [
    "AMOUNT_FIXED",
    "AMOUNT_FREE",
    "AMOUNT_MINIMUM",
    "JourneyChargeForm",
    "PayerAccountForm",
    "Problem",
    "RecurrenceTermsForm",
    "document_problem",
    "mark_invalid",
]

Problem = tuple[str, str]
"""(wire field name, message) of one local check that failed."""

AMOUNT_FIXED = "fixed"
AMOUNT_MINIMUM = "minimum"
AMOUNT_FREE = "free"

_INVALID_STYLE = "border: 1px solid #d93025;"
_ISPB_RE = re.compile(r"[0-9A-Z]{8}")
_BRANCH_RE = re.compile(r"[0-9]{1,4}")


def document_problem(text: str) -> str | None:
    """Why ``text`` is not a valid CPF or CNPJ (check digits included), or ``None``."""
    try:
        normalize_document(text)
    except DocumentError as error:
        return rule_text(error)
    return None


def mark_invalid(widget: QWidget, reason: str | None) -> None:
    """Mark ``widget`` as the error banner does (red border, reason as tooltip), or unmark."""
    widget.setProperty("invalid", reason is not None)
    widget.setToolTip(reason or "")
    widget.setStyleSheet(_INVALID_STYLE if reason is not None else "")


def _line_edit(parent: QWidget, name: str, max_length: int, placeholder: str = "") -> QLineEdit:
    edit = QLineEdit(parent)
    edit.setObjectName(name)
    edit.setMaxLength(max_length)
    edit.setPlaceholderText(placeholder)
    return edit


class _CheckedForm(QWidget):
    """A form whose :meth:`problems` mark the widgets they name (and unmark the others)."""

    def fields(self) -> dict[str, QWidget]:
        raise NotImplementedError

    def _local_problems(self) -> list[Problem]:
        raise NotImplementedError

    def problems(self) -> list[Problem]:
        """The local checks that fail, with their widgets marked; empty when all pass."""
        found = self._local_problems()
        fields = self.fields()
        reasons: dict[int, str] = {}
        for field, message in found:
            widget = fields.get(field)
            if widget is not None:
                reasons.setdefault(id(widget), message)
        for widget in {id(w): w for w in fields.values()}.values():
            mark_invalid(widget, reasons.get(id(widget)))
        return found


class RecurrenceTermsForm(_CheckedForm):
    """The recurrence itself: contract, debtor, purpose, calendar, amount and retry policy.

    ``today`` is the bank's date (the first date's default and lower limit).
    """

    def __init__(self, today: dt.date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.today = today
        self.contract_edit = _line_edit(self, "rec-contract", 35, self.tr("e.g. CT-2026-001"))
        self.document_edit = _line_edit(self, "rec-debtor-document", 18, self.tr("CPF or CNPJ"))
        self.name_edit = _line_edit(self, "rec-debtor-name", 140)
        self.purpose_edit = _line_edit(self, "rec-purpose", 35, self.tr("e.g. Monthly plan"))
        self.first_date_edit = date_edit(self, today, "rec-first-date")
        self.end_check = QCheckBox(self.tr("Ends on"), self)
        self.end_check.setObjectName("rec-has-end")
        self.end_check.setChecked(True)
        self.end_date_edit = date_edit(self, today + dt.timedelta(days=365), "rec-end-date")
        self.end_check.toggled.connect(self.end_date_edit.setEnabled)
        self.periodicity_combo = QComboBox(self)
        self.periodicity_combo.setObjectName("rec-periodicity")
        for value in Periodicidade:
            self.periodicity_combo.addItem(code_word(Family.PERIODICITY, value), value.value)
        self.periodicity_combo.setCurrentIndex(1)
        self.amount_kind_combo = QComboBox(self)
        self.amount_kind_combo.setObjectName("rec-amount-kind")
        self.amount_kind_combo.addItem(self.tr("Fixed amount every cycle"), AMOUNT_FIXED)
        self.amount_kind_combo.addItem(
            self.tr("Variable amount, with a minimum the payer must accept"), AMOUNT_MINIMUM
        )
        self.amount_kind_combo.addItem(self.tr("Variable amount, no minimum"), AMOUNT_FREE)
        self.amount_edit = MoneyEdit(self, maximum=PIX_MAXIMUM)
        self.amount_edit.setObjectName("rec-amount")
        self.amount_kind_combo.currentIndexChanged.connect(self._amount_kind_changed)
        self.retry_combo = QComboBox(self)
        self.retry_combo.setObjectName("rec-retry-policy")
        for policy in PoliticaRetentativa:
            self.retry_combo.addItem(code_word(Family.RETRY_POLICY, policy), policy.value)

        end_row = QHBoxLayout()
        end_row.addWidget(self.end_check)
        end_row.addWidget(self.end_date_edit, 1)
        form = QFormLayout(self)
        form.addRow(self.tr("Contract"), self.contract_edit)
        form.addRow(self.tr("Debtor's CPF/CNPJ"), self.document_edit)
        form.addRow(self.tr("Debtor's name"), self.name_edit)
        form.addRow(self.tr("Purpose (optional)"), self.purpose_edit)
        form.addRow(self.tr("First date"), self.first_date_edit)
        form.addRow(self.tr("End date"), end_row)
        form.addRow(self.tr("Periodicity"), self.periodicity_combo)
        form.addRow(self.tr("Amount"), self.amount_kind_combo)
        self.amount_label = QLabel(self.tr("Amount per cycle"), self)
        form.addRow(self.amount_label, self.amount_edit)
        form.addRow(self.tr("Retries"), self.retry_combo)
        self._amount_kind_changed()

    def fields(self) -> dict[str, QWidget]:
        """Wire field names (as ``violacoes`` and local checks name them) to widgets."""
        document, name = self.document_edit, self.name_edit
        return {
            "vinculo.contrato": self.contract_edit,
            "vinculo.objeto": self.purpose_edit,
            "vinculo.devedor": document,
            "vinculo.devedor.cpf_cnpj": document,
            "vinculo.devedor.cpf": document,
            "vinculo.devedor.cnpj": document,
            "vinculo.devedor.nome": name,
            "devedor.cpf": document,  # the charge of journeys 3/4 repeats the debtor
            "devedor.cnpj": document,
            "devedor.nome": name,
            "calendario.dataInicial": self.first_date_edit,
            "calendario.dataFinal": self.end_date_edit,
            "calendario.periodicidade": self.periodicity_combo,
            "valor": self.amount_edit,
            "valor.valorRec": self.amount_edit,
            "valor.valorMinimoRecebedor": self.amount_edit,
            "politicaRetentativa": self.retry_combo,
        }

    # -- reading ---------------------------------------------------------------------------------

    def amount_kind(self) -> str:
        return str(self.amount_kind_combo.currentData())

    def first_date(self) -> dt.date:
        return to_date(self.first_date_edit.date())

    def end_date(self) -> dt.date | None:
        if not self.end_check.isChecked():
            return None
        return to_date(self.end_date_edit.date())

    def amount(self) -> Decimal | None:
        return None if self.amount_kind() == AMOUNT_FREE else self.amount_edit.value()

    def _local_problems(self) -> list[Problem]:
        found: list[Problem] = []
        if not self.contract_edit.text().strip():
            found.append(("vinculo.contrato", self.tr("Enter the contract's reference.")))
        problem = document_problem(self.document_edit.text())
        if problem is not None:
            found.append(("vinculo.devedor.cpf_cnpj", self.tr(problem)))
        if not self.name_edit.text().strip():
            found.append(("vinculo.devedor.nome", self.tr("Enter the debtor's name.")))
        first, end = self.first_date(), self.end_date()
        if first < self.today:
            found.append(
                (
                    "calendario.dataInicial",
                    self.tr("The first date cannot be before today (%1).").replace(
                        "%1", date_or_empty(self.today)
                    ),
                )
            )
        if end is not None and end < first:
            found.append(
                ("calendario.dataFinal", self.tr("The end date is before the first date."))
            )
        if self.amount_kind() != AMOUNT_FREE:
            value = self.amount_edit.value()
            if value is None:
                found.append(("valor", self.amount_edit.error() or self.tr("Enter the amount.")))
            elif value <= 0:
                found.append(("valor", self.tr("The amount must be above zero.")))
        return found

    def terms(self) -> RecurrenceTerms:
        """The terms as typed (check :meth:`problems` first)."""
        kind, amount = self.amount_kind(), self.amount()
        return RecurrenceTerms(
            contract=self.contract_edit.text().strip(),
            debtor=Debtor(
                document=self.document_edit.text().strip(), name=self.name_edit.text().strip()
            ),
            first_date=self.first_date(),
            end_date=self.end_date(),
            periodicity=str(self.periodicity_combo.currentData()),
            retry_policy=str(self.retry_combo.currentData()),
            fixed_amount=amount if kind == AMOUNT_FIXED else None,
            minimum_amount=amount if kind == AMOUNT_MINIMUM else None,
            purpose=self.purpose_edit.text().strip() or None,
        )

    def summary(self) -> list[tuple[str, str, str]]:
        """(key, title, value) rows for the review page."""
        amount = self.amount()
        kind = self.amount_kind()
        if kind == AMOUNT_FIXED:
            amount_text = self.tr("%1 every cycle").replace(
                "%1", format_brl(amount or Decimal("0"))
            )
        elif kind == AMOUNT_MINIMUM:
            amount_text = self.tr("Variable, at least %1").replace(
                "%1", format_brl(amount or Decimal("0"))
            )
        else:
            amount_text = self.tr("Variable, set by each charge")
        end = self.end_date()
        return [
            ("contract", self.tr("Contract"), self.contract_edit.text().strip()),
            ("debtor", self.tr("Debtor"), self._debtor_text()),
            ("purpose", self.tr("Purpose"), self.purpose_edit.text().strip() or "—"),
            ("first-date", self.tr("First date"), date_or_empty(self.first_date())),
            (
                "end-date",
                self.tr("End date"),
                date_or_empty(end) if end is not None else self.tr("No end date"),
            ),
            ("periodicity", self.tr("Periodicity"), self.periodicity_combo.currentText()),
            ("amount", self.tr("Amount"), amount_text),
            ("retry-policy", self.tr("Retries"), self.retry_combo.currentText()),
        ]

    def _debtor_text(self) -> str:
        document = self.document_edit.text().strip()
        try:
            bare = normalize_document(document)
        except DocumentError:
            bare = document
        return f"{self.name_edit.text().strip()} ({_formatted(bare)})"

    def _amount_kind_changed(self, *_args: object) -> None:
        kind = self.amount_kind()
        self.amount_edit.setEnabled(kind != AMOUNT_FREE)
        self.amount_label.setText(
            self.tr("Minimum amount") if kind == AMOUNT_MINIMUM else self.tr("Amount per cycle")
        )


def _formatted(bare: str) -> str:
    if len(bare) == 11 and bare.isdigit():
        return f"{bare[:3]}.{bare[3:6]}.{bare[6:9]}-{bare[9:]}"
    if len(bare) == 14:
        return f"{bare[:2]}.{bare[2:5]}.{bare[5:8]}/{bare[8:12]}-{bare[12:]}"
    return bare


class PayerAccountForm(_CheckedForm):
    """Journey 1: the payer's account at their bank, where the confirmation request goes."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.document_edit = _line_edit(self, "payer-document", 18, self.tr("CPF or CNPJ"))
        # The bank picker of the Pix-by-bank-data form: a name or a code picks the bank, whose
        # ISPB the field then holds; the bank's name is said under it.
        self.ispb_edit = _line_edit(
            self, "payer-ispb", 80, self.tr("Bank name or code, or its ISPB (8 characters)")
        )
        self.bank_completer = BankCompleter(self.ispb_edit)
        self.ispb_name = QLabel(self)
        self.ispb_name.setObjectName("payer-ispb-name")
        self.ispb_name.setWordWrap(True)
        self.ispb_edit.textChanged.connect(lambda text: self.ispb_name.setText(bank_hint(text)))
        self.branch_edit = _line_edit(self, "payer-branch", 4, self.tr("optional"))
        self.account_edit = _line_edit(self, "payer-account", 20)
        self.expiry_spin = QSpinBox(self)
        self.expiry_spin.setObjectName("payer-request-expiry")
        self.expiry_spin.setRange(1, 30)
        self.expiry_spin.setValue(2)
        self.expiry_spin.setSuffix(self.tr(" day(s)"))
        hint = QLabel(
            self.tr(
                "The payer's bank asks them to authorise the recurrence in its app. The "
                "account holder must be the debtor."
            ),
            self,
        )
        hint.setWordWrap(True)
        form = QFormLayout(self)
        form.addRow(hint)
        form.addRow(self.tr("Payer's CPF/CNPJ"), self.document_edit)
        form.addRow(self.tr("Payer's bank"), self.ispb_edit)
        form.addRow("", self.ispb_name)
        form.addRow(self.tr("Branch"), self.branch_edit)
        form.addRow(self.tr("Account"), self.account_edit)
        form.addRow(self.tr("Request expires in"), self.expiry_spin)

    def fields(self) -> dict[str, QWidget]:
        document = self.document_edit
        return {
            "destinatario": document,
            "destinatario.cpf_cnpj": document,
            "destinatario.cpf": document,
            "destinatario.cnpj": document,
            "destinatario.ispbParticipante": self.ispb_edit,
            "destinatario.agencia": self.branch_edit,
            "destinatario.conta": self.account_edit,
            "calendario.dataExpiracaoSolicitacao": self.expiry_spin,
        }

    def _local_problems(self) -> list[Problem]:
        found: list[Problem] = []
        problem = document_problem(self.document_edit.text())
        if problem is not None:
            found.append(("destinatario.cpf_cnpj", self.tr(problem)))
        if not _ISPB_RE.fullmatch(self.ispb_edit.text().strip()):
            found.append(
                (
                    "destinatario.ispbParticipante",
                    self.tr(
                        "Pick the payer's bank from the list, or type its ISPB (8 digits or "
                        "capital letters)."
                    ),
                )
            )
        branch = self.branch_edit.text().strip()
        if branch and not _BRANCH_RE.fullmatch(branch):
            found.append(("destinatario.agencia", self.tr("A branch has up to 4 digits.")))
        if not self.account_edit.text().strip():
            found.append(("destinatario.conta", self.tr("Enter the payer's account.")))
        return found

    def payer(self) -> PayerAccount:
        return PayerAccount(
            document=self.document_edit.text().strip(),
            account=self.account_edit.text().strip(),
            ispb=self.ispb_edit.text().strip(),
            branch=self.branch_edit.text().strip() or None,
        )

    def expires_in(self) -> dt.timedelta:
        return dt.timedelta(days=self.expiry_spin.value())

    def summary(self) -> list[tuple[str, str, str]]:
        branch = self.branch_edit.text().strip() or "—"
        account = account_text(
            self.ispb_edit.text().strip(), branch, self.account_edit.text().strip()
        )
        return [
            ("payer-account", self.tr("Request sent to"), account),
            (
                "payer-expiry",
                self.tr("Request expires in"),
                self.tr("%1 day(s)").replace("%1", str(self.expiry_spin.value())),
            ),
        ]


class JourneyChargeForm(_CheckedForm):
    """Journeys 3 and 4: the charge paid with the composite QR Code (immediate with an expiry,
    or with a due date). Its key is one of the account's Pix keys."""

    def __init__(
        self, today: dt.date, pix_keys: Sequence[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.today = today
        self.journey = 3
        self.amount_edit = MoneyEdit(self, maximum=PIX_MAXIMUM)
        self.amount_edit.setObjectName("charge-amount")
        self.key_combo = QComboBox(self)
        self.key_combo.setObjectName("charge-key")
        for key in pix_keys:
            self.key_combo.addItem(key, key)
        self.description_edit = _line_edit(
            self, "charge-description", 140, self.tr("shown to the payer (optional)")
        )
        self.expiry_spin = QSpinBox(self)
        self.expiry_spin.setObjectName("charge-expiry-hours")
        self.expiry_spin.setRange(1, 24 * 30)
        self.expiry_spin.setValue(24)
        self.expiry_spin.setSuffix(self.tr(" hour(s)"))
        self.due_date_edit = date_edit(self, today + dt.timedelta(days=5), "charge-due-date")
        self.after_due_spin = QSpinBox(self)
        self.after_due_spin.setObjectName("charge-days-after-due")
        self.after_due_spin.setRange(0, 365)
        self.after_due_spin.setValue(30)
        self.after_due_spin.setSuffix(self.tr(" day(s)"))
        self.form = QFormLayout(self)
        self.hint = QLabel(self)
        self.hint.setWordWrap(True)
        self.form.addRow(self.hint)
        self.form.addRow(self.tr("Amount of the charge"), self.amount_edit)
        self.form.addRow(self.tr("Pix key credited"), self.key_combo)
        self.form.addRow(self.tr("Message to the payer"), self.description_edit)
        self.form.addRow(self.tr("Expires in"), self.expiry_spin)
        self.form.addRow(self.tr("Due date"), self.due_date_edit)
        self.form.addRow(self.tr("Payable after the due date for"), self.after_due_spin)
        self.set_journey(3)

    def set_journey(self, journey: int) -> None:
        """Show the fields of an immediate charge (3) or of one with a due date (4)."""
        self.journey = journey
        immediate = journey == 3
        self.form.setRowVisible(self.expiry_spin, immediate)
        self.form.setRowVisible(self.due_date_edit, not immediate)
        self.form.setRowVisible(self.after_due_spin, not immediate)
        self.hint.setText(
            self.tr(
                "The payer pays this charge now and, in the same scan, authorises the recurrence."
            )
            if immediate
            else self.tr(
                "The payer pays this charge by its due date and, in the same scan, authorises "
                "the recurrence."
            )
        )

    def fields(self) -> dict[str, QWidget]:
        return {
            "valor.original": self.amount_edit,
            "chave": self.key_combo,
            "solicitacaoPagador": self.description_edit,
            "calendario.expiracao": self.expiry_spin,
            "calendario.dataDeVencimento": self.due_date_edit,
            "calendario.validadeAposVencimento": self.after_due_spin,
        }

    def amount(self) -> Decimal | None:
        return self.amount_edit.value()

    def key(self) -> str | None:
        data = self.key_combo.currentData()
        return str(data) if data else None

    def due_date(self) -> dt.date:
        return to_date(self.due_date_edit.date())

    def description(self) -> str | None:
        return self.description_edit.text().strip() or None

    def expires_in(self) -> int:
        """The immediate charge's lifetime in seconds."""
        return self.expiry_spin.value() * 3600

    def _local_problems(self) -> list[Problem]:
        found: list[Problem] = []
        value = self.amount_edit.value()
        if value is None:
            found.append(
                ("valor.original", self.amount_edit.error() or self.tr("Enter the amount."))
            )
        elif value <= 0:
            found.append(("valor.original", self.tr("The amount must be above zero.")))
        if self.key() is None:
            found.append(
                ("chave", self.tr("The account has no Pix key: add one to the profile first."))
            )
        if self.journey == 4 and self.due_date() < self.today:
            found.append(
                ("calendario.dataDeVencimento", self.tr("The due date cannot be in the past."))
            )
        return found

    def summary(self) -> list[tuple[str, str, str]]:
        rows = [
            (
                "charge-amount",
                self.tr("Charge paid with the QR Code"),
                format_brl(self.amount() or Decimal("0")),
            ),
            ("charge-key", self.tr("Pix key credited"), self.key() or ""),
        ]
        if self.journey == 3:
            rows.append(
                (
                    "charge-expiry",
                    self.tr("Charge expires in"),
                    self.tr("%1 hour(s)").replace("%1", str(self.expiry_spin.value())),
                )
            )
        else:
            rows.append(("charge-due-date", self.tr("Due date"), date_or_empty(self.due_date())))
        return rows
