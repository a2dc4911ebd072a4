"""The detail of one recurrence (Pix Automático ``rec``): its terms, the statuses it went
through, its confirmation requests (``solicrec``) and recurring charges (``cobr``), and what
can be done with it: cancel it, revise what the bank allows to revise, charge a cycle and, in
the sandbox only, play the payer who approves or rejects it."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable
from typing import Any, TypeVar

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    RecCompleta,
    RecStatus,
    SolicRecCompleta,
    SolicRecStatus,
)
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.money import format_brl
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, ask_yes, spawn_unless_busy, yes_no_box
from treasury_app.ui.bank_names import bank_text
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.cobr_dialog import CobrDialog
from treasury_app.ui.models.recurrences_model import (
    amount_text,
    closing_note,
    closing_text,
    debtor_document,
    enum_text,
    journey_text,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.sandbox_actions import sandbox_button, simulated
from treasury_app.ui.screen_fit import resize_to_fit
from treasury_app.ui.times import deadline_text, format_date, instant_or_empty
from treasury_app.ui.user_errors import USER_ERRORS
from treasury_app.ui.widgets.date_edits import date_edit, to_qdate
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import fit_columns, flat_tree, value_labels

__all__ = ["RecurrenceDetailDialog", "ReviseRecDialog", "load_cobrs"]

_CANCELLABLE_REQUEST = {
    SolicRecStatus.CRIADA.value,
    SolicRecStatus.ENVIADA.value,
    SolicRecStatus.RECEBIDA.value,
}
_CANCELLABLE_REC = {RecStatus.CRIADA.value, RecStatus.APROVADA.value}
TERM_FIELDS = (
    "id_rec",
    "status",
    "debtor",
    "contract",
    "purpose",
    "periodicity",
    "validity",
    "amount",
    "policy",
    "journey",
    "payer",
    "location",
    "closing",
)


def _when(moment: dt.datetime | None) -> str:
    return instant_or_empty(moment)


async def load_cobrs(workspace: Workspace, rec: RecCompleta) -> list[CobRCompleta]:
    """Every recurring charge the bank lists for ``rec``, created since the recurrence."""
    service = workspace.recurrences
    created = min((a.data for a in rec.atualizacao), default=None)
    start = (created.astimezone(BRASILIA).date() if created else service.today()) - dt.timedelta(
        days=1
    )
    # a margin past today: in the sandbox the bank's clock may have been moved ahead of the
    # workspace's, which follows it only from when the workspace was opened
    end = max(service.today(), start) + dt.timedelta(days=31)
    cobrs = [c async for c in service.iter_cobrs(start=start, end=end, id_rec=rec.id_rec)]
    return sorted(cobrs, key=lambda c: c.calendario.data_de_vencimento)


T = TypeVar("T")


class ReviseRecDialog(QDialog):
    """The revisable terms of a recurrence besides its status (``vinculo.devedor.nome`` and
    ``calendario.dataInicial``; its location is the locrec panel's)."""

    def __init__(self, rec: RecCompleta, today: dt.date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("rec-revise")
        self.setWindowTitle(self.tr("Revise the recurrence"))
        self.name_check = QCheckBox(self.tr("Debtor's name"), self)
        self.name_edit = QLineEdit(rec.vinculo.devedor.nome or "", self)
        self.name_edit.setObjectName("rec-revise-name")
        self.name_edit.setMaxLength(140)
        self.date_check = QCheckBox(self.tr("First date"), self)
        first = max(rec.calendario.data_inicial, today)
        self.date_edit = date_edit(self, first, "rec-revise-first-date")
        self.date_edit.setMinimumDate(to_qdate(today))
        self.name_edit.textEdited.connect(lambda _text: self.name_check.setChecked(True))
        self.date_edit.dateChanged.connect(lambda _date: self.date_check.setChecked(True))
        form = QFormLayout()
        form.addRow(self.name_check, self.name_edit)
        form.addRow(self.date_check, self.date_edit)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def changes(self) -> dict[str, Any]:
        """The keyword arguments of :meth:`RecurrencesService.revise_rec` chosen."""
        changes: dict[str, Any] = {}
        if self.name_check.isChecked():
            changes["debtor_name"] = self.name_edit.text()
        if self.date_check.isChecked():
            day = self.date_edit.date()
            changes["first_date"] = dt.date(day.year(), day.month(), day.day())
        return changes


class RecurrenceDetailDialog(QDialog):
    """One recurrence. Nothing is read in ``__init__``: await :meth:`reload`. Actions are
    coroutine methods (``cancel_rec``, ``revise``, ``cancel_request``, ``new_cobr``,
    ``open_cobr``, ``sandbox_decide``) that buttons start as :attr:`task`. ``changed`` is
    emitted with the recurrence whenever the bank's copy changed (the list refreshes its row).
    :attr:`confirm_box`, :attr:`revise_dialog` and :attr:`cobr_dialog` are the last opened."""

    changed = Signal(object)

    def __init__(self, workspace: Workspace, id_rec: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.workspace = workspace
        self.service = workspace.recurrences
        self.id_rec = id_rec
        self.rec: RecCompleta | None = None
        self.cobrs: list[CobRCompleta] = []
        self.task: asyncio.Task[Any] | None = None
        self._writing = 0  # changes on their way to the bank: the window stays open
        self._closing_now = False
        self.confirm_box: QMessageBox | None = None
        self.revise_dialog: ReviseRecDialog | None = None
        self.cobr_dialog: CobrDialog | None = None
        self.is_sandbox = workspace.session.profile.environment == "sandbox"
        self.setObjectName("rec-detail")
        self.setWindowTitle(self.tr("Recurrence %1").replace("%1", id_rec))
        resize_to_fit(self, 820, 720)

        self.banner = ErrorBanner(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        top = QHBoxLayout()
        top.addWidget(self._build_terms(), 3)
        top.addWidget(self._build_history(), 2)
        layout.addLayout(top)
        layout.addWidget(self._build_requests())
        layout.addWidget(self._build_cobrs(), 1)
        layout.addLayout(self._build_actions())
        self._update_actions()

    # -- building --------------------------------------------------------------------------------

    def _build_terms(self) -> QGroupBox:
        box = QGroupBox(self.tr("Terms"), self)
        labels = {
            "id_rec": self.tr("idRec"),
            "status": self.tr("Status"),
            "debtor": self.tr("Debtor"),
            "contract": self.tr("Contract"),
            "purpose": self.tr("Object"),
            "periodicity": self.tr("Periodicity"),
            "validity": self.tr("Validity"),
            "amount": self.tr("Amount"),
            "policy": self.tr("Retry policy"),
            "journey": self.tr("Journey"),
            "payer": self.tr("Payer's PSP"),
            "location": self.tr("Location"),
            "closing": self.tr("Closing"),
        }
        self.terms = value_labels(QFormLayout(box), box, TERM_FIELDS, labels, "rec")
        return box

    def _build_history(self) -> QGroupBox:
        box = QGroupBox(self.tr("Status history"), self)
        self.history = flat_tree(
            box, "rec-history", [self.tr("Time (Brasília)"), self.tr("Status")]
        )
        QVBoxLayout(box).addWidget(self.history)
        return box

    def _build_requests(self) -> QGroupBox:
        box = QGroupBox(self.tr("Confirmation requests (solicrec)"), self)
        self.requests = flat_tree(
            box,
            "rec-requests",
            [self.tr("idSolicRec"), self.tr("Status"), self.tr("Expires"), self.tr("Payer's PSP")],
        )
        self.requests.setMaximumHeight(110)
        self.requests.currentItemChanged.connect(lambda *_: self._update_actions())
        self.cancel_request_button = QPushButton(self.tr("Cancel request…"), box)
        self.cancel_request_button.setObjectName("rec-cancel-request")
        self.cancel_request_button.clicked.connect(
            lambda: self._start(self.cancel_request(), "solicrec-cancel")
        )
        layout = QHBoxLayout(box)
        layout.addWidget(self.requests, 1)
        layout.addWidget(self.cancel_request_button, 0, Qt.AlignmentFlag.AlignTop)
        return box

    def _build_cobrs(self) -> QGroupBox:
        box = QGroupBox(self.tr("Recurring charges (cobr)"), self)
        self.cobrs_view = flat_tree(
            box,
            "rec-cobrs",
            [self.tr("txid"), self.tr("Due date"), self.tr("Amount"), self.tr("Status")],
        )
        self.cobrs_view.currentItemChanged.connect(lambda *_: self._update_actions())
        self.cobrs_view.itemDoubleClicked.connect(lambda *_: self._open_selected_cobr())
        self.new_cobr_button = QPushButton(self.tr("New recurring charge…"), box)
        self.new_cobr_button.setObjectName("rec-new-cobr")
        self.new_cobr_button.clicked.connect(lambda: self._start(self.new_cobr(), "cobr-new"))
        self.open_cobr_button = QPushButton(self.tr("Open charge…"), box)
        self.open_cobr_button.setObjectName("rec-open-cobr")
        self.open_cobr_button.clicked.connect(self._open_selected_cobr)
        buttons = QVBoxLayout()
        buttons.addWidget(self.new_cobr_button)
        buttons.addWidget(self.open_cobr_button)
        buttons.addStretch(1)
        layout = QHBoxLayout(box)
        layout.addWidget(self.cobrs_view, 1)
        layout.addLayout(buttons)
        return box

    def _build_actions(self) -> QHBoxLayout:
        self.reload_button = QPushButton(self.tr("Refresh"), self)
        self.reload_button.clicked.connect(lambda: self._start(self.reload(), "rec-reload"))
        self.revise_button = QPushButton(self.tr("Revise…"), self)
        self.revise_button.setObjectName("rec-revise-button")
        self.revise_button.clicked.connect(lambda: self._start(self.revise(), "rec-revise"))
        self.cancel_rec_button = QPushButton(self.tr("Cancel recurrence…"), self)
        self.cancel_rec_button.setObjectName("rec-cancel")
        self.cancel_rec_button.clicked.connect(lambda: self._start(self.cancel_rec(), "rec-cancel"))
        self.approve_button = self._sandbox_button(
            self.tr("Sandbox: payer approves"), "rec-sandbox-approve", "approve"
        )
        self.reject_button = self._sandbox_button(
            self.tr("Sandbox: payer rejects"), "rec-sandbox-reject", "reject"
        )
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.accept)
        row = QHBoxLayout()
        row.addWidget(self.reload_button)
        row.addWidget(self.revise_button)
        row.addWidget(self.cancel_rec_button)
        row.addStretch(1)
        row.addWidget(self.approve_button)
        row.addWidget(self.reject_button)
        row.addWidget(close)
        return row

    def _sandbox_button(self, text: str, name: str, action: str) -> QPushButton:
        button = sandbox_button(
            self,
            text,
            name,
            self.tr(
                "Sandbox only: plays the payer deciding on the recurrence (and on its pending "
                "confirmation request). With a real bank the payer decides in their own app."
            ),
            lambda: self._start(self.sandbox_decide(action), name),
        )
        button.setVisible(self.is_sandbox)
        return button

    def _start(self, coro: Any, name: str) -> None:
        self.task = spawn_unless_busy(self.task, coro, name=name, owner=self) or self.task

    # -- showing ---------------------------------------------------------------------------------

    async def reload(self) -> RecCompleta | None:
        """Read the recurrence (with its requests) and its charges from the bank."""
        rec = await run_operation(
            self.service.get_rec(self.id_rec), controls=[self.reload_button], banner=self.banner
        )
        if rec is None:
            return None
        self._show_rec(rec)
        cobrs = await run_operation(
            load_cobrs(self.workspace, rec), controls=[self.reload_button], banner=self.banner
        )
        if cobrs is not None:
            self._show_cobrs(cobrs)
        return rec

    def _show_rec(self, rec: RecCompleta) -> None:
        self.rec = rec
        vinculo, calendario = rec.vinculo, rec.calendario
        document = debtor_document(rec)
        until = format_date(calendario.data_final) if calendario.data_final else self.tr("no end")
        pagador = rec.pagador
        values = {
            "id_rec": rec.id_rec,
            "status": code_word(Family.REC_STATUS, rec.status),
            "debtor": f"{vinculo.devedor.nome or ''} ({document})" if document else "",
            "contract": vinculo.contrato,
            "purpose": vinculo.objeto or "",
            "periodicity": code_word(Family.PERIODICITY, calendario.periodicidade),
            "validity": f"{format_date(calendario.data_inicial)} – {until}",
            "amount": amount_text(rec, self.tr("minimum"), self.tr("free per charge")),
            "policy": code_word(Family.RETRY_POLICY, rec.politica_retentativa),
            "journey": journey_text(rec),
            "payer": bank_text(pagador.ispb_participante or "") if pagador else "",
            "location": rec.loc.location if rec.loc else "",
            "closing": closing_text(rec.encerramento),
        }
        for name, text in values.items():
            self.terms[name].setText(text)
        self.terms["closing"].setToolTip(closing_note(rec.encerramento))
        self.history.clear()
        for update in rec.atualizacao:
            self.history.addTopLevelItem(
                QTreeWidgetItem([_when(update.data), code_word(Family.REC_STATUS, update.status)])
            )
        self.requests.clear()
        for request in rec.solicitacao:
            item = QTreeWidgetItem(
                [
                    request.id_solic_rec,
                    code_word(Family.SOLICREC_STATUS, request.status),
                    deadline_text(request.calendario.data_expiracao_solicitacao),
                    bank_text(request.destinatario.ispb_participante),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, request)
            self.requests.addTopLevelItem(item)
        first = self.requests.topLevelItem(0)
        if first is not None:
            self.requests.setCurrentItem(first)
        fit_columns(self.history)
        fit_columns(self.requests)
        self._update_actions()

    def _show_cobrs(self, cobrs: list[CobRCompleta]) -> None:
        self.cobrs = cobrs
        self.cobrs_view.clear()
        for cobr in cobrs:
            item = QTreeWidgetItem(
                [
                    cobr.txid,
                    format_date(cobr.calendario.data_de_vencimento),
                    format_brl(cobr.valor.original),
                    code_word(Family.COBR_STATUS, cobr.status),
                ]
            )
            item.setData(0, Qt.ItemDataRole.UserRole, cobr)
            self.cobrs_view.addTopLevelItem(item)
        fit_columns(self.cobrs_view)
        self._update_actions()

    def selected_request(self) -> SolicRecCompleta | None:
        item = self.requests.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def selected_cobr(self) -> CobRCompleta | None:
        item = self.cobrs_view.currentItem()
        return item.data(0, Qt.ItemDataRole.UserRole) if item is not None else None

    def _update_actions(self) -> None:
        status = enum_text(self.rec.status) if self.rec is not None else ""
        self.cancel_rec_button.setEnabled(status in _CANCELLABLE_REC)
        self.revise_button.setEnabled(status in _CANCELLABLE_REC)
        self.new_cobr_button.setEnabled(status == RecStatus.APROVADA.value)
        self.open_cobr_button.setEnabled(self.selected_cobr() is not None)
        request = self.selected_request()
        self.cancel_request_button.setEnabled(
            request is not None and enum_text(request.status) in _CANCELLABLE_REQUEST
        )
        undecided = status == RecStatus.CRIADA.value
        for button in (self.approve_button, self.reject_button):
            button.setVisible(self.is_sandbox)
            button.setEnabled(self.is_sandbox and undecided)

    def _changed(self, rec: RecCompleta) -> None:
        self._show_rec(rec)
        self.changed.emit(rec)

    # -- actions ---------------------------------------------------------------------------------

    async def _confirm(self, title: str, text: str) -> bool:
        self.confirm_box = yes_no_box(self, QMessageBox.Icon.Warning, title, text, "rec-confirm")
        return await ask_yes(self.confirm_box)

    async def cancel_rec(self) -> RecCompleta | None:
        """Cancel the recurrence (``CANCELADA``, the only status the bank takes) after a
        confirmation; the bank also ends its pending requests and unpaid charges."""
        rec = self.rec
        if rec is None:
            return None
        text = (
            self.tr(
                "Cancel the recurrence %1 of %2? No further charge can be made under it; its "
                "pending confirmation requests and unpaid charges end too. This cannot be undone."
            )
            .replace("%1", rec.id_rec)
            .replace("%2", rec.vinculo.devedor.nome or "")
        )
        if not await self._confirm(self.tr("Cancel the recurrence"), text):
            return None
        # Every action a cancelled recurrence no longer has is off from the moment it is asked
        # (the payer's sandbox decision included), not once the bank's answer is shown.
        done = await self._write(self.service.cancel_rec(rec.id_rec), *self._live_actions())
        if done is None:
            await self._follow_after_refusal()
            return None
        self._changed(done)
        await self.reload()
        return done

    async def revise(self) -> RecCompleta | None:
        """Revise the debtor's name or the first date (the dialog says which)."""
        rec = self.rec
        if rec is None:
            return None
        dialog = ReviseRecDialog(rec, self.service.today(), self)
        self.revise_dialog = dialog
        if await ask(dialog) != QDialog.DialogCode.Accepted:
            return None
        changes = dialog.changes()
        if not changes:
            return None
        done = await self._write(self.service.revise_rec(rec.id_rec, **changes), self.revise_button)
        if done is not None:
            self._changed(done)
            await self.reload()
        return done

    async def cancel_request(self) -> SolicRecCompleta | None:
        """Cancel the selected confirmation request (from CRIADA, ENVIADA or RECEBIDA)."""
        request = self.selected_request()
        if request is None:
            return None
        text = self.tr("Cancel the confirmation request %1 sent to the payer?").replace(
            "%1", request.id_solic_rec
        )
        if not await self._confirm(self.tr("Cancel the request"), text):
            return None
        done = await self._write(
            self.service.cancel_solicrec(request.id_solic_rec), self.cancel_request_button
        )
        if done is not None:
            await self.reload()
        return done

    async def new_cobr(self) -> CobrDialog | None:
        """Open the recurring charge form for this recurrence; reloads when it is closed."""
        if self.rec is None:
            return None
        return await self._run_cobr_dialog(
            CobrDialog(self.workspace, self.rec, self.cobrs, None, self)
        )

    def _open_selected_cobr(self) -> None:
        cobr = self.selected_cobr()
        if cobr is not None:
            self._start(self.open_cobr(cobr), "cobr-open")

    async def open_cobr(self, cobr: CobRCompleta) -> CobrDialog | None:
        """Open an existing charge (its attempts, cancel, retry)."""
        if self.rec is None:
            return None
        dialog = CobrDialog(self.workspace, self.rec, self.cobrs, cobr, self)
        return await self._run_cobr_dialog(dialog)

    async def _run_cobr_dialog(self, dialog: CobrDialog) -> CobrDialog:
        self.cobr_dialog = dialog
        changed = False
        try:
            await ask(dialog)
        finally:
            # The dialog's task may still run (a write is never cancelled, a cancelled read
            # still has to unwind): wait for it before reading ``changed`` and deleting it.
            if shiboken6.isValid(dialog):
                if dialog.isVisible():  # this task was cancelled: close it (reads stop)
                    dialog.reject()
                task = dialog.task
                if task is not None and not task.done():
                    await asyncio.wait([task])
                changed = dialog.changed
                if shiboken6.isValid(dialog):
                    dialog.deleteLater()
        if changed:
            await self.reload()
        return dialog

    async def sandbox_decide(self, action: str) -> RecCompleta | None:
        """Sandbox only: the payer ``approve``\\ s or ``reject``\\ s the recurrence (and its
        pending confirmation request) through the test bank's control surface."""
        if not self.is_sandbox or self.rec is None:
            return None
        decision = self.workspace.sandbox.decide_rec(self.rec.id_rec, approve=action == "approve")
        done = await run_operation(
            simulated(decision),
            controls=[self.approve_button, self.reject_button],
            banner=self.banner,
        )
        if done is None:
            # Refused: most likely the recurrence moved on (cancelled, decided) since it was
            # read. Its status is read again so the buttons follow it; the refusal stays shown.
            await self._follow_after_refusal()
            return None
        rec = await self.reload()
        if rec is not None:
            self.changed.emit(rec)
        return rec

    async def _follow_after_refusal(self) -> None:
        """Read the recurrence again after the bank refused an action, keeping the refusal on
        the banner; the buttons follow the status read."""
        title, detail = self.banner.title.text(), self.banner.detail.text()
        try:
            rec = await self.service.get_rec(self.id_rec)
        except USER_ERRORS:
            self._update_actions()
            return
        self._changed(rec)
        self.banner.show_message(title, detail)

    def _live_actions(self) -> list[QWidget]:
        """The actions of a recurrence that has not ended (none is left once it is cancelled)."""
        return [
            self.cancel_rec_button,
            self.revise_button,
            self.new_cobr_button,
            self.cancel_request_button,
            self.approve_button,
            self.reject_button,
        ]

    async def _write(self, work: Awaitable[T], *controls: QWidget) -> T | None:
        """A change sent to the bank, ``controls`` off meanwhile: while it is on its way the
        window stays open."""
        self._writing += 1
        try:
            return await run_operation(
                work, controls=controls, banner=self.banner, changes_ledger=True
            )
        finally:
            self._writing -= 1

    def reject(self) -> None:
        """Close; not while a change is on its way to the bank (its answer is awaited), except
        when the session closes (:meth:`close_now`)."""
        if self._writing and not self._closing_now:
            self.banner.show_message(
                self.tr("Waiting for the bank's answer"),
                self.tr("The change is already on its way; close the window once it answers."),
            )
            return
        if self.task is not None and not self.task.done():
            self.task.cancel()
        super().reject()

    def close_now(self) -> None:
        """The session closes (lock, switch profile): close even while a change is sent."""
        self._closing_now = True
        self.reject()
