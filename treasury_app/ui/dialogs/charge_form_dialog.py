"""The "New charge" dialog: an immediate Pix charge (``cob``) or one with a due date (``cobv``,
with fine, interest, rebate and discount in BCB's shapes), checked field by field by the
charges service (:mod:`treasury_app.services.charges.checks`: the dialog keeps no rule of its
own) before the bank is asked, then the charge's QR Code.

What the bank refuses comes back on the fields its ``violacoes`` name; the service's reasons
are shown the same way (a red border and the reason under the field), all at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import date, timedelta
from decimal import Decimal
from functools import partial
from typing import Any, Literal, TypeVar

import shiboken6
from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDateEdit,
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.errors import ApiError, TransportFailure
from treasury_app.api.qrcodes.cashin_models import (
    CobGerada,
    CobSolicitada,
    CobVGerada,
    CobVSolicitada,
    Desconto,
    DescontoDataFixa,
    ModalidadeValor,
)
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import (
    DEFAULT_EXPIRATION,
    MAX_DAYS_AFTER_DUE,
    ChargeInputError,
    ChargeQrError,
    Debtor,
    check_document,
    check_location_id,
    check_text,
    check_txid,
)
from treasury_app.services.charges.checks import (
    FIXED_DATE_DISCOUNTS,
    MAX_DISCOUNT_DATES,
    check_amount,
    check_discount_count,
    check_discount_date,
    check_key,
    check_modality,
    check_value,
)
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.dialogs.charge_qr_dialog import ChargeQrDialog
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.operation import run_operation
from treasury_app.ui.refusals import problem_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.theme import text_style
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.expiry_edit import ExpiryEdit, human_duration
from treasury_app.ui.widgets.money_edit import PIX_MAXIMUM, MoneyEdit

__all__ = [
    "DISCOUNT_DATES",
    "ChargeFormDialog",
    "FormErrors",
    "field_for",
]

T = TypeVar("T")
Kind = Literal["cob", "cobv"]
Attempt = Callable[[str, Callable[[], Any]], Any]
"""Asks one of the service's checks for a field; its reason is kept for that field."""

DISCOUNT_DATES = MAX_DISCOUNT_DATES
"""BCB allows up to 3 fixed-date discounts (``descontoDataFixa``)."""

_INVALID_STYLE = "border: 1px solid #d93025;"
_MAX_EXPIRATION = 2**31 - 1


class FormErrors(ValueError):
    """Every problem found in the form before anything is sent: ``(field, message)`` pairs,
    fields named as the bank names them (``valor.original``, ``devedor.cpf``...)."""

    def __init__(self, problems: Sequence[tuple[str, str]]) -> None:
        self.problems = tuple(problems)
        super().__init__("; ".join(f"{field}: {message}" for field, message in self.problems))


def field_for(propriedade: str, fields: Mapping[str, Any]) -> str | None:
    """The field a violation names: the longest dotted suffix of ``propriedade`` in ``fields``
    (``cobv.valor.multa.valorPerc`` -> ``valor.multa.valorPerc``; ``[0]`` reads as ``.0``)."""
    parts = [p for p in propriedade.replace("[", ".").replace("]", "").split(".") if p]
    for start in range(len(parts)):
        candidate = ".".join(parts[start:])
        if candidate in fields:
            return candidate
    return None


class ChargeFormDialog(QDialog):
    """Create a ``cob`` or a ``cobv``.

    :meth:`submit` is the Create button's coroutine (tests await it): it checks the form,
    creates the location if asked, sends the charge, and on success sets :attr:`created`,
    emits :attr:`charge_created`, opens :attr:`qr_dialog` (parented to this dialog's parent,
    so it outlives it) and accepts.
    """

    charge_created = Signal(object)
    """The charge the bank created (``CobGerada`` or ``CobVGerada``)."""

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.created: CobGerada | CobVGerada | None = None
        self.created_location: int | None = None
        self.qr_dialog: ChargeQrDialog | None = None
        self.submit_task: asyncio.Task[Any] | None = None
        self.last_error: BaseException | None = None
        self._error_labels: dict[QWidget, QLabel] = {}
        self._marked: list[QWidget] = []
        self.setObjectName("charge-form")
        self.setWindowTitle(self.tr("New Pix charge"))

        self.banner = ErrorBanner(self)
        self.form = QWidget(self)
        form_layout = QVBoxLayout(self.form)
        form_layout.setContentsMargins(0, 0, 0, 0)
        form_layout.addLayout(self._build_kind_row())
        form_layout.addWidget(self._build_common_box())
        self.pages = QStackedWidget(self.form)
        self.pages.addWidget(self._build_cob_page())
        self.pages.addWidget(self._build_cobv_page())
        form_layout.addWidget(self.pages)
        form_layout.addWidget(self._build_location_box())
        form_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.form)

        self.submit_button = QPushButton(self.tr("Create charge"), self)
        self.submit_button.setObjectName("charge-submit")
        self.submit_button.setDefault(True)
        self.submit_button.clicked.connect(self._submit_clicked)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("charge-cancel")
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.submit_button)

        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(scroll, 1)
        layout.addLayout(buttons)
        self.fields = self._field_map()
        self._kind_changed()
        resize_to_fit(self, 620, 760)

    # -- building --------------------------------------------------------------------------------

    def _with_error(self, widget: QWidget) -> QWidget:
        """``widget`` with a hidden red label under it, for the reason it is refused."""
        box = QWidget(self)
        column = QVBoxLayout(box)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        label = QLabel(box)
        label.setObjectName(f"{widget.objectName()}-error")
        label.setWordWrap(True)
        label.setStyleSheet(f"{text_style('error', self)} font-size: 9pt;")
        label.hide()
        column.addWidget(widget)
        column.addWidget(label)
        self._error_labels[widget] = label
        return box

    def _build_kind_row(self) -> QHBoxLayout:
        self.kind_combo = QComboBox(self)
        self.kind_combo.setObjectName("charge-kind")
        self.kind_combo.addItem(self.tr("Immediate charge (cob)"), "cob")
        self.kind_combo.addItem(self.tr("Charge with a due date (cobv)"), "cobv")
        self.kind_combo.currentIndexChanged.connect(self._kind_changed)
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Kind"), self))
        row.addWidget(self.kind_combo, 1)
        return row

    def _build_common_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Charge"), self)
        self.amount_edit = MoneyEdit(box, maximum=PIX_MAXIMUM)
        self.amount_edit.setObjectName("charge-amount")
        self.key_combo = QComboBox(box)
        self.key_combo.setObjectName("charge-key")
        for key in self.workspace.pix_keys:
            self.key_combo.addItem(key, key)
        if not self.workspace.pix_keys:  # no key in the profile: let the person type one
            self.key_combo.setEditable(True)
            line = self.key_combo.lineEdit()
            if line is not None:
                line.setPlaceholderText(self.tr("The account's Pix key"))
        self.document_edit = QLineEdit(box)
        self.document_edit.setObjectName("charge-document")
        self.document_edit.setPlaceholderText(self.tr("000.000.000-00 or 00.000.000/0000-00"))
        self.name_edit = QLineEdit(box)
        self.name_edit.setObjectName("charge-name")
        self.name_edit.setMaxLength(200)
        self.message_edit = QLineEdit(box)
        self.message_edit.setObjectName("charge-message")
        self.message_edit.setMaxLength(140)
        self.message_edit.setPlaceholderText(self.tr("Shown to the payer (optional)"))
        self.txid_edit = QLineEdit(box)
        self.txid_edit.setObjectName("charge-txid")
        self.txid_edit.setPlaceholderText(self.tr("Empty: generated (26 to 35 letters or digits)"))
        form = QFormLayout(box)
        form.addRow(self.tr("Amount (R$)"), self._with_error(self.amount_edit))
        form.addRow(self.tr("Pix key"), self._with_error(self.key_combo))
        form.addRow(self.tr("Debtor's CPF or CNPJ"), self._with_error(self.document_edit))
        form.addRow(self.tr("Debtor's name"), self._with_error(self.name_edit))
        form.addRow(self.tr("Message to the payer"), self._with_error(self.message_edit))
        form.addRow(self.tr("txid"), self._with_error(self.txid_edit))
        return box

    def _build_cob_page(self) -> QWidget:
        page = QGroupBox(self.tr("Immediate charge"), self)
        self.expiry_edit = ExpiryEdit(page)
        self.expiry_hint = QLabel(page)
        self.expiry_hint.setObjectName("charge-expiry-hint")
        self.expiry_edit.changed.connect(
            lambda seconds: self.expiry_hint.setText(human_duration(seconds))
        )
        self.expiry_hint.setText(human_duration(DEFAULT_EXPIRATION))
        row = QHBoxLayout()
        row.addWidget(self._with_error(self.expiry_edit), 1)
        row.addWidget(self.expiry_hint)
        form = QFormLayout(page)
        form.addRow(self.tr("Expires after"), row)
        return page

    def _build_cobv_page(self) -> QWidget:
        page = QGroupBox(self.tr("Charge with a due date"), self)
        today = self.workspace.charges.today()
        self.due_edit = date_edit(page, today + timedelta(days=30), "charge-due-date")
        self.validity_spin = QSpinBox(page)
        self.validity_spin.setObjectName("charge-validity")
        self.validity_spin.setRange(0, MAX_DAYS_AFTER_DUE)
        self.validity_spin.setValue(30)
        self.validity_spin.setSuffix(self.tr(" days"))
        self.fine_mode, self.fine_value = self._modality_row(
            page,
            "fine",
            [(1, self.tr("Fixed amount (R$)")), (2, self.tr("Percentage (%)"))],
        )
        self.interest_mode, self.interest_value = self._modality_row(
            page,
            "interest",
            [
                (1, self.tr("Amount per calendar day (R$)")),
                (2, self.tr("% per calendar day")),
                (3, self.tr("% per month, calendar days")),
                (4, self.tr("% per year, calendar days")),
                (5, self.tr("Amount per business day (R$)")),
                (6, self.tr("% per business day")),
                (7, self.tr("% per month, business days")),
                (8, self.tr("% per year, business days")),
            ],
        )
        self.rebate_mode, self.rebate_value = self._modality_row(
            page,
            "rebate",
            [(1, self.tr("Fixed amount (R$)")), (2, self.tr("Percentage (%)"))],
        )
        self.discount_mode, self.discount_value = self._modality_row(
            page,
            "discount",
            [
                (1, self.tr("Fixed amount until a date (R$)")),
                (2, self.tr("Percentage until a date (%)")),
                (3, self.tr("Amount per calendar day paid early (R$)")),
                (4, self.tr("Amount per business day paid early (R$)")),
                (5, self.tr("% per calendar day paid early")),
                (6, self.tr("% per business day paid early")),
            ],
        )
        self.discount_mode.currentIndexChanged.connect(self._discount_mode_changed)
        self.discount_dates = QWidget(page)
        self.discount_dates.setObjectName("charge-discount-dates")
        dates_form = QFormLayout(self.discount_dates)
        dates_form.setContentsMargins(0, 0, 0, 0)
        self.discount_rows: list[tuple[QDateEdit, MoneyEdit]] = []
        for index in range(DISCOUNT_DATES):
            suggested = today + timedelta(days=10 + 5 * index)
            day = date_edit(page, suggested, f"charge-discount-date-{index}")
            value = MoneyEdit(page)
            value.setObjectName(f"charge-discount-value-{index}")
            value.setPlaceholderText(self.tr("empty: not used"))
            row = QHBoxLayout()
            row.addWidget(self._with_error(day))
            row.addWidget(self._with_error(value), 1)
            dates_form.addRow(self.tr("Date %1, value").replace("%1", str(index + 1)), row)
            self.discount_rows.append((day, value))

        form = QFormLayout(page)
        form.addRow(self.tr("Due date"), self._with_error(self.due_edit))
        form.addRow(self.tr("Payable after the due date for"), self._with_error(self.validity_spin))
        form.addRow(self.tr("Fine"), self._pair(self.fine_mode, self.fine_value))
        form.addRow(self.tr("Interest"), self._pair(self.interest_mode, self.interest_value))
        form.addRow(self.tr("Rebate"), self._pair(self.rebate_mode, self.rebate_value))
        form.addRow(self.tr("Discount"), self._pair(self.discount_mode, self.discount_value))
        form.addRow("", self.discount_dates)
        self._discount_mode_changed()
        return page

    def _modality_row(
        self, parent: QWidget, name: str, choices: list[tuple[int, str]]
    ) -> tuple[QComboBox, MoneyEdit]:
        mode = QComboBox(parent)
        mode.setObjectName(f"charge-{name}-mode")
        mode.addItem(self.tr("None"), None)
        for modalidade, label in choices:
            mode.addItem(f"{modalidade} · {label}", modalidade)
        value = MoneyEdit(parent)
        value.setObjectName(f"charge-{name}-value")
        value.setEnabled(False)
        mode.currentIndexChanged.connect(
            lambda _index: value.setEnabled(mode.currentData() is not None)
        )
        return mode, value

    def _pair(self, mode: QComboBox, value: MoneyEdit) -> QHBoxLayout:
        row = QHBoxLayout()
        row.addWidget(self._with_error(mode), 2)
        row.addWidget(self._with_error(value), 1)
        return row

    def _build_location_box(self) -> QGroupBox:
        box = QGroupBox(self.tr("Use a reusable location"), self)
        box.setObjectName("charge-location-box")
        box.setCheckable(True)
        box.setChecked(False)
        box.setToolTip(
            self.tr("A location is the address inside the QR Code; it can be printed in advance.")
        )
        self.location_box = box
        self.new_location_radio = QRadioButton(self.tr("Create a new location"), box)
        self.new_location_radio.setObjectName("charge-location-new")
        self.new_location_radio.setChecked(True)
        self.existing_location_radio = QRadioButton(self.tr("Existing location id:"), box)
        self.existing_location_radio.setObjectName("charge-location-existing")
        self.location_edit = QLineEdit(box)
        self.location_edit.setObjectName("charge-location-id")
        self.location_edit.setEnabled(False)
        self.existing_location_radio.toggled.connect(self.location_edit.setEnabled)
        row = QHBoxLayout()
        row.addWidget(self.existing_location_radio)
        row.addWidget(self._with_error(self.location_edit), 1)
        column = QVBoxLayout(box)
        column.addWidget(self.new_location_radio)
        column.addLayout(row)
        return box

    def _field_map(self) -> dict[str, QWidget]:
        """The bank's property names (and the service's) -> the widget to mark."""
        fields: dict[str, QWidget] = {
            "txid": self.txid_edit,
            "valor.original": self.amount_edit,
            "chave": self.key_combo,
            "devedor": self.document_edit,
            "devedor.cpf": self.document_edit,
            "devedor.cnpj": self.document_edit,
            "devedor.cpf_cnpj": self.document_edit,
            "devedor.nome": self.name_edit,
            "solicitacaoPagador": self.message_edit,
            "calendario.expiracao": self.expiry_edit,
            "calendario.dataDeVencimento": self.due_edit,
            "calendario.validadeAposVencimento": self.validity_spin,
            "loc": self.location_edit,
            "loc.id": self.location_edit,
            "tipoCob": self.location_edit,
        }
        for name, mode, value in (
            ("multa", self.fine_mode, self.fine_value),
            ("juros", self.interest_mode, self.interest_value),
            ("abatimento", self.rebate_mode, self.rebate_value),
            ("desconto", self.discount_mode, self.discount_value),
        ):
            fields[f"valor.{name}"] = value
            fields[f"valor.{name}.modalidade"] = mode
            fields[f"valor.{name}.valorPerc"] = value
        fields["valor.desconto.descontoDataFixa"] = self.discount_rows[0][1]
        for index, (day, value) in enumerate(self.discount_rows):
            fields[f"valor.desconto.descontoDataFixa.{index}"] = value
            fields[f"valor.desconto.descontoDataFixa.{index}.data"] = day
            fields[f"valor.desconto.descontoDataFixa.{index}.valorPerc"] = value
        return fields

    # -- state -----------------------------------------------------------------------------------

    def kind(self) -> Kind:
        return "cobv" if self.kind_combo.currentData() == "cobv" else "cob"

    def set_kind(self, kind: Kind) -> None:
        self.kind_combo.setCurrentIndex(self.kind_combo.findData(kind))

    def _kind_changed(self, *_args: object) -> None:
        current = 1 if self.kind() == "cobv" else 0
        self.pages.setCurrentIndex(current)
        # A stack is as tall as its tallest page: let only the shown one count.
        for index in range(self.pages.count()):
            policy = (
                QSizePolicy.Policy.Preferred if index == current else QSizePolicy.Policy.Ignored
            )
            page = self.pages.widget(index)
            if page is not None:
                page.setSizePolicy(policy, policy)
        self.pages.adjustSize()
        optional = self.tr("optional") if self.kind() == "cob" else self.tr("required")
        self.document_edit.setToolTip(self.tr("The debtor (%1)").replace("%1", optional))

    def _discount_mode_changed(self, *_args: object) -> None:
        fixed_dates = self.discount_mode.currentData() in (1, 2)
        self.discount_dates.setVisible(fixed_dates)
        self.discount_value.setEnabled(self.discount_mode.currentData() not in (None, 1, 2))

    def location_choice(self) -> Literal["none", "new", "existing"]:
        if not self.location_box.isChecked():
            return "none"
        return "existing" if self.existing_location_radio.isChecked() else "new"

    # -- reading the form ------------------------------------------------------------------------

    def read_form(self) -> dict[str, Any]:
        """The keyword arguments of ``build_cob``/``build_cobv`` (without ``location_id`` for a
        new location), or :class:`FormErrors` listing every problem found."""
        problems: list[tuple[str, str]] = []

        def attempt(field: str, check: Any) -> Any:
            try:
                return check()
            except ChargeInputError as error:
                problems.append((field, rule_text(error)))
            return None

        # Every rule is the charges service's (and the domain's), asked field by field so that
        # all the reasons show at once; the service checks them all again when it builds.
        kind = self.kind()
        typed = self.amount_edit.value()
        amount = attempt(
            "valor.original",
            lambda: check_amount(
                typed if typed is not None else self.amount_edit.text(), "valor.original"
            ),
        )
        key = self.key_combo.currentText().strip()
        attempt("chave", lambda: check_key(key))
        debtor = self._read_debtor(kind, problems, attempt)
        description = attempt(
            "solicitacaoPagador",
            lambda: check_text(self.message_edit.text(), "solicitacaoPagador", max_len=140),
        )
        # Empty: the service generates the txid.
        txid = self.txid_edit.text().strip() or None
        if txid is not None:
            attempt("txid", lambda: check_txid(txid))
        location_id = None
        if self.location_choice() == "existing":
            location_id = attempt("loc.id", lambda: check_location_id(self.location_edit.text()))
        request: dict[str, Any] = {
            "amount": amount,
            "key": key,
            "debtor": debtor,
            "description": description,
            "location_id": location_id,
            "txid": txid,
        }
        if kind == "cob":
            request["expires_in"] = self.expiry_edit.seconds()
        else:
            request.update(self._read_cobv(amount, attempt))
        if problems:
            raise FormErrors(problems)
        return request

    def _read_debtor(
        self, kind: Kind, problems: list[tuple[str, str]], attempt: Any
    ) -> Debtor | None:
        document = self.document_edit.text().strip()
        name = self.name_edit.text().strip()
        if kind == "cob" and not document and not name:
            return None  # an immediate charge may have no debtor
        bare = attempt("devedor.cpf", lambda: check_document(document, "devedor.cpf"))
        checked_name = attempt(
            "devedor.nome",
            lambda: check_text(name, "devedor.nome", max_len=200, required=True),
        )
        if bare is None or checked_name is None:
            return None
        return Debtor(document=bare, name=checked_name)

    def _read_cobv(self, amount: Decimal | None, attempt: Attempt) -> dict[str, Any]:
        due = self.due_edit.date().toPython()
        assert isinstance(due, date)
        attempt("calendario.dataDeVencimento", lambda: self.workspace.charges.check_due_date(due))
        return {
            "due_date": due,
            "days_valid_after_due": self.validity_spin.value(),
            "fine": self._modality("multa", self.fine_mode, self.fine_value, amount, attempt),
            "interest": self._modality(
                "juros", self.interest_mode, self.interest_value, None, attempt
            ),
            "rebate": self._modality(
                "abatimento", self.rebate_mode, self.rebate_value, amount, attempt
            ),
            "discount": self._discount(due, amount, attempt),
        }

    @staticmethod
    def _value(
        kind: str,
        modalidade: int,
        edit: MoneyEdit,
        amount: Decimal | None,
        field: str,
        attempt: Attempt,
    ) -> Decimal | None:
        """The value typed in ``edit``, within the service's limits for ``kind``."""

        def check() -> Decimal:
            typed = edit.value()
            value = check_value(typed if typed is not None else edit.text(), field)
            return check_modality(kind, modalidade, value, amount, field)

        value: Decimal | None = attempt(field, check)
        return value

    def _modality(
        self,
        kind: str,
        mode: QComboBox,
        edit: MoneyEdit,
        amount: Decimal | None,
        attempt: Attempt,
    ) -> ModalidadeValor | None:
        modalidade = mode.currentData()
        if modalidade is None:
            return None
        field = f"valor.{kind}.valorPerc"
        value = self._value(kind, modalidade, edit, amount, field, attempt)
        if value is None:
            return None
        return ModalidadeValor(modalidade=modalidade, valor_perc=value)

    def _discount(self, due: date, amount: Decimal | None, attempt: Attempt) -> Desconto | None:
        modalidade = self.discount_mode.currentData()
        if modalidade is None:
            return None
        if modalidade not in FIXED_DATE_DISCOUNTS:
            field = "valor.desconto.valorPerc"
            value = self._value("desconto", modalidade, self.discount_value, amount, field, attempt)
            if value is None:
                return None
            return Desconto(modalidade=modalidade, valor_perc=value)
        items: list[DescontoDataFixa] = []
        seen: list[date] = []
        refused = False
        for index, (day_edit, value_edit) in enumerate(self.discount_rows):
            if value_edit.is_empty():
                continue
            where = f"valor.desconto.descontoDataFixa.{index}"
            value = self._value(
                "desconto", modalidade, value_edit, amount, f"{where}.valorPerc", attempt
            )
            day = day_edit.date().toPython()
            assert isinstance(day, date)
            checked = attempt(
                f"{where}.data",
                partial(check_discount_date, day, due, tuple(seen), f"{where}.data"),
            )
            seen.append(day)
            if value is None or checked is None:
                refused = True
            else:
                items.append(DescontoDataFixa(data=day, valor_perc=value))
        if not items and not refused:
            attempt("valor.desconto.descontoDataFixa.0", lambda: check_discount_count(0))
        if not items:
            return None
        return Desconto(modalidade=modalidade, desconto_data_fixa=items)

    # -- errors next to the fields ---------------------------------------------------------------

    def clear_errors(self) -> None:
        for widget in self._marked:
            if shiboken6.isValid(widget):
                widget.setProperty("invalid", False)
                widget.setStyleSheet("")
                label = self._error_labels.get(widget)
                if label is not None:
                    label.clear()
                    label.hide()
        self._marked.clear()

    def show_field_error(self, field: str, message: str) -> QWidget | None:
        """Mark the widget ``field`` names (a bank or service name) with ``message``."""
        name = field_for(field, self.fields)
        if name is None:
            return None
        widget = self.fields[name]
        widget.setProperty("invalid", True)
        widget.setStyleSheet(_INVALID_STYLE)
        widget.setToolTip(message)
        label = self._error_labels.get(widget)
        if label is not None:
            previous = label.text()
            label.setText(f"{previous}\n{message}" if previous else message)
            label.show()
        self._marked.append(widget)
        return widget

    def _show_problems(self, problems: Sequence[tuple[str, str]]) -> None:
        self.clear_errors()
        for field, message in problems:
            self.show_field_error(field, self.tr(message))
        count = len(problems)
        detail = (
            self.tr("One field needs attention.")
            if count == 1
            else self.tr("%1 fields need attention.").replace("%1", str(count))
        )
        self.banner.show_message(self.tr("Please check the form"), detail)

    # -- submitting ------------------------------------------------------------------------------

    def _submit_clicked(self) -> None:
        if self.submit_task is None or self.submit_task.done():
            self.submit_task = spawn_for(self, self.submit(), name="charge-submit")

    async def submit(self) -> CobGerada | CobVGerada | None:
        """Check, (create the location,) send; the created charge, or ``None`` (why is shown
        in the banner and next to the fields)."""
        self.clear_errors()
        kind = self.kind()
        charges = self.workspace.charges
        try:
            request = self.read_form()
            built = self._build(kind, request)
        except FormErrors as errors:
            self._show_problems(errors.problems)
            return None
        except ChargeInputError as error:
            self._show_problems([(error.field or "", rule_text(error))])
            return None
        txid, body = built
        if self.location_choice() == "new":
            location = await self._run(charges.create_location(kind))
            if location is None:
                return None
            self.created_location = location.id
            # From now on a retry links this location rather than creating another one.
            self.existing_location_radio.setChecked(True)
            self.location_edit.setText(str(location.id))
            txid, body = self._build(kind, {**request, "location_id": location.id, "txid": txid})
        if isinstance(body, CobVSolicitada):
            created: CobGerada | CobVGerada | None = await self._run(
                charges.submit_cobv(txid, body)
            )
        else:
            created = await self._run(charges.submit_cob(txid, body))
        if created is None:
            self._after_failure(txid)
            return None
        self.created = created
        self.charge_created.emit(created)
        self._show_qr(created)
        return created

    def _build(
        self, kind: Kind, request: Mapping[str, Any]
    ) -> tuple[str, CobSolicitada | CobVSolicitada]:
        if kind == "cobv":
            return self.workspace.charges.build_cobv(**request)
        return self.workspace.charges.build_cob(**request)

    async def _run(self, work: Awaitable[T]) -> T | None:
        """``run_operation`` with this form's controls and fields; keeps the failure in
        :attr:`last_error` so the bank's violations can be written next to the fields."""
        self.last_error = None

        async def capturing() -> T:
            try:
                return await work
            except Exception as error:
                self.last_error = error
                raise

        return await run_operation(
            capturing(),
            controls=[self.submit_button, self.form],
            banner=self.banner,
            fields=self.fields,
            changes_ledger=True,
        )

    def _after_failure(self, txid: str) -> None:
        error = self.last_error
        if isinstance(error, ApiError):
            for violation in error.violacoes:
                if violation.propriedade:
                    self.show_field_error(
                        violation.propriedade, violation.razao or problem_words(error)[0]
                    )
        if isinstance(error, TransportFailure) and error.request_sent:
            # The charge may exist: sending again with the same txid can never make a second.
            self.txid_edit.setText(txid)

    def _show_qr(self, charge: CobGerada | CobVGerada) -> None:
        try:
            dialog = ChargeQrDialog(charge, self.parentWidget())
        except ChargeQrError as error:
            self.banner.show_message(
                self.tr("The charge was created, but its QR Code cannot be shown"),
                f"{charge.txid}: {failure_words(error)}",
            )
            return
        self.qr_dialog = dialog
        dialog.open()
        self.accept()

    def summary(self) -> str:
        """One line for a status bar: what was created."""
        if self.created is None:
            return ""
        return (
            self.tr("Charge %1 created: %2")
            .replace("%1", self.created.txid)
            .replace("%2", format_brl(self.created.valor.original))
        )
