"""The detail of one Pix charge (``cob`` or ``cobv``) as the bank has it now: its calendar,
debtor, amount with the cobv rules, key, text for the payer, location and copy-and-paste code,
the Pix that paid it with their refunds; and, while it is active, revising or removing it."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from decimal import Decimal
from typing import Any

import shiboken6
from PySide6.QtCore import QDate, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.cashin_models import (
    CobCompleta,
    CobStatus,
    CobVCompleta,
    Desconto,
    ModalidadeValor,
)
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import ChargeQrError, Debtor, masked_debtor
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_unless_busy
from treasury_app.ui.models.charges_model import ChargeKind, status_text
from treasury_app.ui.models.received_pix_model import payer_text, refund_status_text
from treasury_app.ui.operation import run_operation
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.times import (
    InstantForm,
    date_or_empty,
    deadline_text,
    format_date,
    instant_or_empty,
)
from treasury_app.ui.widgets.date_edits import date_edit
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.expiry_edit import ExpiryEdit
from treasury_app.ui.widgets.money_edit import MoneyEdit
from treasury_app.ui.widgets.row_tables import value_labels

__all__ = ["DETAIL_FIELDS", "ChargeDetailDialog", "RevisionForm", "revision_of"]

DETAIL_FIELDS = (
    "txid",
    "kind",
    "status",
    "revision",
    "created",
    "expiry",
    "debtor",
    "amount",
    "rules",
    "key",
    "message",
    "info",
    "location",
)

Charge = CobCompleta | CobVCompleta


class RevisionForm:
    """What the revision form holds: ``None`` where the person left the current value."""

    def __init__(
        self,
        *,
        amount: Decimal | None = None,
        due_date: dt.date | None = None,
        expires_in: int | None = None,
        debtor_name: str | None = None,
        message: str | None = None,
    ) -> None:
        self.amount = amount
        self.due_date = due_date
        self.expires_in = expires_in
        self.debtor_name = debtor_name
        self.message = message


def revision_of(charge: Charge, form: RevisionForm) -> dict[str, Any]:
    """The keyword arguments of ``revise_cob``/``revise_cobv`` for what changed (empty when
    nothing did). A new debtor name keeps the debtor's document (and a cobv's address)."""
    changes: dict[str, Any] = {}
    if form.amount is not None and form.amount != charge.valor.original:
        changes["amount"] = form.amount
    due = form.due_date
    if isinstance(charge, CobVCompleta) and due not in (None, charge.calendario.data_de_vencimento):
        changes["due_date"] = due
    expiry = form.expires_in
    if (
        isinstance(charge, CobCompleta)
        and expiry is not None
        and expiry != charge.calendario.expiracao
    ):
        changes["expires_in"] = expiry
    message = (form.message or "").strip()
    if message and message != (charge.solicitacao_pagador or ""):
        changes["description"] = message
    name = (form.debtor_name or "").strip()
    devedor = charge.devedor
    if name and devedor is not None and name != (devedor.nome or ""):
        document = devedor.cpf or devedor.cnpj or ""
        address: dict[str, Any] = {}
        if isinstance(charge, CobVCompleta):
            address = {
                "email": devedor.email,
                "street": devedor.logradouro,
                "city": devedor.cidade,
                "state": devedor.uf,
                "postal_code": devedor.cep,
            }
        changes["debtor"] = Debtor(document=document, name=name, **address)
    return changes


class ChargeDetailDialog(QDialog):
    """One charge, loaded by :meth:`load`. "Revise…" opens the revision form (saved by
    :meth:`revise`), "Remove" asks (:attr:`confirm_box`) then removes (:meth:`remove`); both
    only for an ATIVA charge. :attr:`changed` tells the list the charge changed; tests await
    :attr:`task`."""

    changed = Signal(object)  # the charge as the bank has it after a change

    def __init__(
        self,
        workspace: Workspace,
        kind: ChargeKind,
        txid: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.kind: ChargeKind = kind
        self.txid = txid
        self.charge: Charge | None = None
        self.task: asyncio.Task[Any] | None = None
        self.confirm_box: QMessageBox | None = None
        self.confirm_remove_button: QPushButton | None = None
        self.setObjectName("charge-detail")
        self.setWindowTitle(self.tr("Charge %1").replace("%1", txid))
        resize_to_fit(self, 720, 760)

        self.banner = ErrorBanner(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_fields())
        layout.addWidget(QLabel(self.tr("Copy and paste code (Pix Copia e Cola)"), self))
        self.copy_paste = QPlainTextEdit(self)
        self.copy_paste.setObjectName("charge-copy-paste")
        self.copy_paste.setReadOnly(True)
        self.copy_paste.setMaximumHeight(60)
        self.copy_button = QPushButton(self.tr("Copy"), self)
        self.copy_button.setObjectName("charge-detail-copy")
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self.copy_paste.toPlainText())
        )
        self.qr_button = QPushButton(self.tr("QR Code…"), self)
        self.qr_button.setObjectName("charge-detail-qr")
        self.qr_button.setToolTip(self.tr("The QR Code image, to copy or save as PNG"))
        self.qr_button.clicked.connect(self.show_qr)
        self.qr_dialog: QDialog | None = None
        copy_row = QHBoxLayout()
        copy_row.addWidget(self.copy_paste, 1)
        copy_column = QVBoxLayout()
        copy_column.addWidget(self.copy_button)
        copy_column.addWidget(self.qr_button)
        copy_column.addStretch(1)
        copy_row.addLayout(copy_column)
        layout.addLayout(copy_row)
        layout.addWidget(QLabel(self.tr("Pix received and their refunds"), self))
        self.pix_tree = QTreeWidget(self)
        self.pix_tree.setObjectName("charge-pix")
        self.pix_tree.setHeaderLabels(
            [
                self.tr("endToEndId / refund id"),
                self.tr("Time"),
                self.tr("Amount"),
                self.tr("Detail"),
            ]
        )
        layout.addWidget(self.pix_tree, 1)
        layout.addWidget(self._build_revision())
        layout.addLayout(self._build_buttons())
        self._update_buttons()

    # -- building --------------------------------------------------------------------------------

    def _build_fields(self) -> QFormLayout:
        titles = {
            "txid": self.tr("txid"),
            "kind": self.tr("Kind"),
            "status": self.tr("Status"),
            "revision": self.tr("Revision"),
            "created": self.tr("Created"),
            "expiry": self.tr("Expiry") if self.kind == "cob" else self.tr("Due date"),
            "debtor": self.tr("Debtor"),
            "amount": self.tr("Amount"),
            "rules": self.tr("Fine, interest, rebate, discount"),
            "key": self.tr("Pix key"),
            "message": self.tr("Text for the payer"),
            "info": self.tr("Additional information"),
            "location": self.tr("Location"),
        }
        # A cob has no fine, interest, rebate or discount.
        names = [name for name in DETAIL_FIELDS if name != "rules" or self.kind != "cob"]
        form = QFormLayout()
        self.fields = value_labels(form, self, names, titles, "charge")
        return form

    def _build_revision(self) -> QGroupBox:
        box = QGroupBox(self.tr("Revise this charge"), self)
        box.setObjectName("charge-revision")
        form = QFormLayout(box)
        self.revise_amount = MoneyEdit(box)
        self.revise_amount.setObjectName("charge-revise-amount")
        form.addRow(self.tr("Amount"), self.revise_amount)
        self.revise_due = date_edit(box, name="charge-revise-due")
        self.revise_expiry = ExpiryEdit(box)  # hours or days after creation, not seconds
        self.revise_expiry.setObjectName("charge-revise-expiry")
        if self.kind == "cobv":
            form.addRow(self.tr("Due date"), self.revise_due)
            self.revise_expiry.hide()
        else:
            self.revise_due.hide()
            form.addRow(self.tr("Expiry"), self.revise_expiry)
        self.revise_name = QLineEdit(box)
        self.revise_name.setObjectName("charge-revise-name")
        form.addRow(self.tr("Debtor's name"), self.revise_name)
        self.revise_message = QLineEdit(box)
        self.revise_message.setObjectName("charge-revise-message")
        self.revise_message.setMaxLength(140)
        form.addRow(self.tr("Text for the payer"), self.revise_message)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.revise_cancel = QPushButton(self.tr("Cancel"), box)
        self.revise_cancel.clicked.connect(box.hide)
        self.revise_save = QPushButton(self.tr("Save revision"), box)
        self.revise_save.setObjectName("charge-revise-save")
        self.revise_save.clicked.connect(self._save_clicked)
        buttons.addWidget(self.revise_cancel)
        buttons.addWidget(self.revise_save)
        form.addRow(buttons)
        box.hide()
        self.revision_box = box
        return box

    def _build_buttons(self) -> QHBoxLayout:
        self.revise_button = QPushButton(self.tr("Revise…"), self)
        self.revise_button.setObjectName("charge-revise")
        self.revise_button.clicked.connect(self.show_revision)
        self.remove_button = QPushButton(self.tr("Remove"), self)
        self.remove_button.setObjectName("charge-remove")
        self.remove_button.clicked.connect(self._remove_clicked)
        self.close_button = QPushButton(self.tr("Close"), self)
        self.close_button.clicked.connect(self.accept)
        for button in (self.revise_button, self.remove_button, self.close_button):
            button.setAutoDefault(False)
        row = QHBoxLayout()
        row.addWidget(self.revise_button)
        row.addWidget(self.remove_button)
        row.addStretch(1)
        row.addWidget(self.close_button)
        return row

    # -- loading ---------------------------------------------------------------------------------

    async def load(self) -> bool:
        """Read the charge from the bank and show it; ``False`` when that failed (banner)."""
        service = self.workspace.charges
        read: Awaitable[Charge] = (
            service.get_cobv(self.txid) if self.kind == "cobv" else service.get_cob(self.txid)
        )
        charge = await run_operation(
            read, controls=[self.revise_button, self.remove_button], banner=self.banner
        )
        if charge is None:
            return False
        self.show_charge(charge)
        return True

    def show_qr(self) -> QDialog | None:
        """The charge's QR Code image with Copy and Save as PNG/SVG (the creation dialog's)."""
        charge = self.charge
        if charge is None or not charge.pix_copia_e_cola:
            return None
        from treasury_app.ui.dialogs.charge_qr_dialog import ChargeQrDialog

        try:
            dialog = ChargeQrDialog(charge, self)  # type: ignore[arg-type]
        except ChargeQrError as error:
            self.banner.show_error(error)
            return None
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.qr_dialog = dialog
        dialog.open()
        return dialog

    def show_charge(self, charge: Charge) -> None:
        self.charge = charge
        for name, text in self._values(charge).items():
            if name in self.fields:
                self.fields[name].setText(text)
        self.copy_paste.setPlainText(charge.pix_copia_e_cola or "")
        self.copy_button.setEnabled(bool(charge.pix_copia_e_cola))
        self.qr_button.setEnabled(bool(charge.pix_copia_e_cola))
        self._fill_pix(charge)
        self._update_buttons()

    def _values(self, charge: Charge) -> dict[str, str]:
        values = {
            "txid": charge.txid,
            "kind": self.tr("Immediate (cob)")
            if self.kind == "cob"
            else self.tr("Due date (cobv)"),
            "status": status_text(str(charge.status)),
            "revision": str(charge.revisao),
            "created": instant_or_empty(charge.calendario.criacao),
            "expiry": self._expiry(charge),
            "debtor": self._debtor(charge),
            "amount": self._amount(charge),
            "key": charge.chave or "",
            "message": charge.solicitacao_pagador or "",
            "info": "\n".join(f"{i.nome}: {i.valor}" for i in charge.info_adicionais),
            "location": (charge.loc.location if charge.loc else None) or charge.location or "",
        }
        if isinstance(charge, CobVCompleta):
            values["rules"] = self._rules(charge)
        return values

    def _expiry(self, charge: Charge) -> str:
        if isinstance(charge, CobVCompleta):
            due = charge.calendario.data_de_vencimento
            text = date_or_empty(due)
            days = charge.calendario.validade_apos_vencimento
            if days is not None:
                text += " " + self.tr("(payable up to %1 days after)").replace("%1", str(days))
            return text
        seconds = charge.calendario.expiracao
        if seconds is None:
            return ""
        created = charge.calendario.criacao
        if created is None:
            return self.tr("%1 s after creation").replace("%1", str(seconds))
        until = deadline_text(created + dt.timedelta(seconds=seconds))
        return self.tr("%1 s, until %2").replace("%1", str(seconds)).replace("%2", until)

    def _debtor(self, charge: Charge) -> str:
        devedor = charge.devedor
        if devedor is None:
            return self.tr("None")
        lines = [" — ".join(p for p in (devedor.nome or "", masked_debtor(devedor) or "") if p)]
        address = ", ".join(
            p for p in (devedor.logradouro, devedor.cidade, devedor.uf, devedor.cep) if p
        )
        if address:
            lines.append(address)
        if devedor.email:
            lines.append(devedor.email)
        return "\n".join(lines)

    def _amount(self, charge: Charge) -> str:
        text = format_brl(charge.valor.original)
        if isinstance(charge, CobCompleta) and charge.valor.modalidade_alteracao == 1:
            text += " " + self.tr("(the payer may change it)")
        return text

    def _rules(self, charge: CobVCompleta) -> str:
        valor = charge.valor
        lines = []
        if valor.multa is not None:
            lines.append(self.tr("Fine: %1").replace("%1", self._fine_or_rebate(valor.multa)))
        if valor.juros is not None:
            lines.append(self.tr("Interest: %1").replace("%1", self._interest(valor.juros)))
        if valor.abatimento is not None:
            lines.append(
                self.tr("Rebate: %1").replace("%1", self._fine_or_rebate(valor.abatimento))
            )
        if valor.desconto is not None:
            lines.append(self.tr("Discount: %1").replace("%1", self._discount(valor.desconto)))
        return "\n".join(lines) or self.tr("None")

    def _fine_or_rebate(self, rule: ModalidadeValor) -> str:
        if rule.modalidade == 1:
            return format_brl(rule.valor_perc)
        return _percent(rule.valor_perc)

    def _interest(self, rule: ModalidadeValor) -> str:
        per = {
            1: self.tr("%1 a calendar day"),
            2: self.tr("%1 a calendar day"),
            3: self.tr("%1 a month (calendar days)"),
            4: self.tr("%1 a year (calendar days)"),
            5: self.tr("%1 a business day"),
            6: self.tr("%1 a business day"),
            7: self.tr("%1 a month (business days)"),
            8: self.tr("%1 a year (business days)"),
        }
        amount = format_brl(rule.valor_perc) if rule.modalidade in (1, 5) else None
        value = amount or _percent(rule.valor_perc)
        pattern = per.get(rule.modalidade, self.tr("%1 (modality %2)"))
        return pattern.replace("%1", value).replace("%2", str(rule.modalidade))

    def _discount(self, rule: Desconto) -> str:
        if rule.modalidade in (1, 2) and rule.desconto_data_fixa:
            parts = []
            for item in rule.desconto_data_fixa:
                value = (
                    format_brl(item.valor_perc)
                    if rule.modalidade == 1
                    else _percent(item.valor_perc)
                )
                parts.append(
                    self.tr("%1 until %2")
                    .replace("%1", value)
                    .replace("%2", format_date(item.data))
                )
            return "; ".join(parts)
        patterns = {
            3: self.tr("%1 per calendar day paid early"),
            4: self.tr("%1 per business day paid early"),
            5: self.tr("%1 per calendar day paid early"),
            6: self.tr("%1 per business day paid early"),
        }
        amount = rule.valor_perc or Decimal("0")
        value = format_brl(amount) if rule.modalidade in (3, 4) else _percent(amount)
        pattern = patterns.get(rule.modalidade, self.tr("%1 (modality %2)"))
        return pattern.replace("%1", value).replace("%2", str(rule.modalidade))

    def _fill_pix(self, charge: Charge) -> None:
        self.pix_tree.clear()
        for pix in charge.pix:
            detail = " — ".join(p for p in (payer_text(pix), pix.info_pagador or "") if p)
            item = QTreeWidgetItem(
                [
                    pix.end_to_end_id,
                    instant_or_empty(pix.horario, InstantForm.SECONDS),
                    format_brl(pix.valor),
                    detail,
                ]
            )
            for refund in pix.devolucoes:
                when = refund.horario.liquidacao or refund.horario.solicitacao
                status = refund_status_text(str(refund.status))
                item.addChild(
                    QTreeWidgetItem(
                        [
                            refund.id,
                            instant_or_empty(when, InstantForm.SECONDS),
                            format_brl(refund.valor),
                            " — ".join(p for p in (status, refund.motivo or "") if p),
                        ]
                    )
                )
            self.pix_tree.addTopLevelItem(item)
            item.setExpanded(True)
        for column in range(self.pix_tree.columnCount()):
            self.pix_tree.resizeColumnToContents(column)

    def _update_buttons(self) -> None:
        active = self.charge is not None and str(self.charge.status) == CobStatus.ATIVA
        busy = self.task is not None and not self.task.done()
        for button in (self.revise_button, self.remove_button, self.revise_save):
            button.setEnabled(active and not busy)
        if not active:
            self.revision_box.hide()

    # -- revising --------------------------------------------------------------------------------

    def show_revision(self) -> None:
        """Open the revision form with the charge's current values."""
        charge = self.charge
        if charge is None or str(charge.status) != CobStatus.ATIVA:
            return
        self.revise_amount.set_value(charge.valor.original)
        if isinstance(charge, CobVCompleta) and charge.calendario.data_de_vencimento:
            due = charge.calendario.data_de_vencimento
            self.revise_due.setDate(QDate(due.year, due.month, due.day))
        if isinstance(charge, CobCompleta) and charge.calendario.expiracao:
            self.revise_expiry.setValue(charge.calendario.expiracao)
        devedor = charge.devedor
        self.revise_name.setText((devedor.nome or "") if devedor else "")
        self.revise_name.setEnabled(devedor is not None)
        self.revise_name.setToolTip(
            "" if devedor else self.tr("This charge names no debtor: there is no name to change.")
        )
        self.revise_message.setText(charge.solicitacao_pagador or "")
        self.revision_box.show()

    def revision_form(self) -> RevisionForm:
        day = self.revise_due.date()
        return RevisionForm(
            amount=self.revise_amount.value(),
            due_date=dt.date(day.year(), day.month(), day.day()) if self.kind == "cobv" else None,
            expires_in=self.revise_expiry.value() if self.kind == "cob" else None,
            debtor_name=self.revise_name.text(),
            message=self.revise_message.text(),
        )

    def _save_clicked(self) -> None:
        self._start(self.revise())

    async def revise(self) -> bool:
        """Send what changed in the revision form; reload the charge on success."""
        charge = self.charge
        if charge is None:
            return False
        if not self.revise_amount.is_empty() and not self.revise_amount.is_valid():
            self.banner.show_message(
                self.tr("Please check the form"), self.revise_amount.error() or ""
            )
            return False
        changes = revision_of(charge, self.revision_form())
        if not changes:
            self.banner.show_message(
                self.tr("Nothing to change"),
                self.tr("Change the amount, due date, debtor's name or text first."),
            )
            return False
        service = self.workspace.charges
        work = (
            service.revise_cobv(self.txid, **changes)
            if self.kind == "cobv"
            else service.revise_cob(self.txid, **changes)
        )
        fields = {
            "valor.original": self.revise_amount,
            "original": self.revise_amount,
            "dataDeVencimento": self.revise_due,
            "calendario.expiracao": self.revise_expiry,
            "expiracao": self.revise_expiry,
            "devedor.nome": self.revise_name,
            "nome": self.revise_name,
            "solicitacaoPagador": self.revise_message,
        }
        revised = await run_operation(
            work,
            controls=[self.revise_save, self.revise_button, self.remove_button],
            banner=self.banner,
            fields=fields,
            changes_ledger=True,
        )
        if revised is None:
            return False
        self.revision_box.hide()
        await self.load()
        if self.charge is not None:
            self.changed.emit(self.charge)
        return True

    # -- removing --------------------------------------------------------------------------------

    def _remove_clicked(self) -> None:
        self._start(self.remove())

    async def remove(self) -> bool:
        """Ask, then remove the charge (REMOVIDA_PELO_USUARIO_RECEBEDOR); reload it."""
        charge = self.charge
        if charge is None or str(charge.status) != CobStatus.ATIVA:
            return False
        box = QMessageBox(QMessageBox.Icon.Warning, self.tr("Remove the charge"), "", parent=self)
        box.setObjectName("charge-remove-confirmation")
        box.setText(
            self.tr("Remove the charge %1 of %2? Its QR Code stops working.")
            .replace("%1", charge.txid)
            .replace("%2", format_brl(charge.valor.original))
        )
        confirm = box.addButton(self.tr("Remove"), QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(self.tr("Keep"), QMessageBox.ButtonRole.RejectRole)
        self.confirm_box, self.confirm_remove_button = box, confirm
        try:
            await ask(box)
            confirmed = box.clickedButton() is confirm
        finally:
            self.confirm_box = self.confirm_remove_button = None
            dispose(box)
        if not confirmed:
            return False
        service = self.workspace.charges
        work = (
            service.cancel_cobv(self.txid) if self.kind == "cobv" else service.cancel_cob(self.txid)
        )
        removed = await run_operation(
            work,
            controls=[self.revise_button, self.remove_button],
            banner=self.banner,
            changes_ledger=True,
        )
        if removed is None:
            return False
        await self.load()
        if self.charge is not None:
            self.changed.emit(self.charge)
        return True

    # -- tasks -----------------------------------------------------------------------------------

    def _start(self, work: Any) -> None:
        task = spawn_unless_busy(self.task, work, name="charge-detail", owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(self._task_done)
            self._update_buttons()

    def _task_done(self, _task: asyncio.Task[Any]) -> None:
        if shiboken6.isValid(self):
            self._update_buttons()


def _percent(value: Decimal) -> str:
    return f"{value:.2f}".replace(".", ",") + "%"
