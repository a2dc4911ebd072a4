"""Infractions (MED) reported against the account: the list with its status filter and
deadlines highlighted, the detail of the selected one (the Pix it concerns, the analysis) with
its defenses, and the defense form."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import shiboken6
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableView,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import Defense, Infraction, InfractionStatus
from treasury_app.domain.documents import mask_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.money import format_brl
from treasury_app.services.infractions import DEFENSE_STATUSES, InfractionsService
from treasury_app.services.workspace import Workspace
from treasury_app.ui.async_tools import ask, dispose, spawn_for
from treasury_app.ui.bank_names import bank_text
from treasury_app.ui.code_words import Family, code_word
from treasury_app.ui.dialogs.defense_dialog import DefenseDialog
from treasury_app.ui.models.infractions_model import (
    Column,
    InfractionsFilter,
    InfractionsModel,
)
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import deadline_text, instant_or_empty
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.row_tables import (
    current_row,
    flat_tree,
    list_and_detail,
    row_table,
    select_row,
    value_labels,
)

__all__ = ["DETAIL_FIELDS", "InfractionsPanel"]

DETAIL_FIELDS = (
    "id",
    "end_to_end_id",
    "amount",
    "counterparty",
    "reason",
    "situation",
    "reported_by",
    "status",
    "deadline",
    "analysis_result",
    "description",
)


async def all_infractions(service: InfractionsService) -> list[Infraction]:
    """Every infraction, every page (there are few: a list, not a scrolling load)."""
    return [item async for item in service.infractions(page_size=100)]


async def infraction_with_defenses(
    service: InfractionsService, infraction_id: str
) -> tuple[Infraction, list[Defense]]:
    """The infraction as the bank has it now and its defenses, asked at once."""
    infraction, defenses = await asyncio.gather(
        service.infraction(infraction_id), service.defenses(infraction_id)
    )
    return infraction, defenses


def counterparty_text(infraction: Infraction) -> str:
    party = infraction.counterparty
    if party is None:
        return ""
    parts = [party.name or ""]
    if party.document:
        with contextlib.suppress(DomainError):
            parts.append(mask_document(party.document))
    if party.ispb:
        parts.append(bank_text(party.ispb))
    return " · ".join(p for p in parts if p)


class InfractionsPanel(QWidget):
    """The infractions list and detail. :meth:`reload` reads the list, :meth:`load_detail`
    one infraction with its defenses, :meth:`defend` opens the defense form (:attr:`dialog`
    while shown); :attr:`detail_task` and :attr:`defend_task` are the ones on their way."""

    loaded = Signal(list)  # every infraction, after each reload or detail read (for the badge)

    def __init__(self, workspace: Workspace, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("infractions-panel")
        self.workspace = workspace
        self.service = workspace.infractions
        self.current: Infraction | None = None
        self.defenses: list[Defense] = []
        self.dialog: DefenseDialog | None = None
        self.detail_task: asyncio.Task[Any] | None = None
        self.defend_task: asyncio.Task[Any] | None = None

        self.banner = ErrorBanner(self)
        # The bank's clock (the sandbox's may be moved): the recurrences service exposes it.
        self.model = InfractionsModel(workspace.recurrences.now, self)
        self.proxy = InfractionsFilter(self)
        self.proxy.setSourceModel(self.model)

        splitter = list_and_detail(self, self._build_list(), self._build_detail())
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(self._build_filters())
        layout.addWidget(splitter, 1)
        self.view.selectionModel().currentRowChanged.connect(self._selection_changed)
        self._show(None)

    # -- building --------------------------------------------------------------------------------

    def _build_filters(self) -> QHBoxLayout:
        self.status_combo = QComboBox(self)
        self.status_combo.setObjectName("infractions-status")
        self.status_combo.addItem(self.tr("Every status"), None)
        for status in InfractionStatus:
            self.status_combo.addItem(code_word(Family.INFRACTION_STATUS, status), status.value)
        self.status_combo.currentIndexChanged.connect(
            lambda _i: self.proxy.set_status(self.status_combo.currentData())
        )
        self.reload_button = QPushButton(self.tr("Reload"), self)
        self.reload_button.setObjectName("infractions-reload")
        self.reload_button.clicked.connect(
            lambda: spawn_for(self, self.reload(), name="infractions")
        )
        row = QHBoxLayout()
        row.addWidget(QLabel(self.tr("Show"), self))
        row.addWidget(self.status_combo)
        row.addStretch(1)
        legend = QLabel(self.tr("Yellow: deadline within 2 days · red: deadline passed"), self)
        legend.setStyleSheet(text_style("muted", self))
        row.addWidget(legend)
        row.addWidget(self.reload_button)
        return row

    def _build_list(self) -> QTableView:
        view = row_table(self, self.proxy, "infractions-list", alternating=False)
        view.setWordWrap(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        view.horizontalHeader().setStretchLastSection(True)
        self.view = view
        return view

    def _build_detail(self) -> QGroupBox:
        box = QGroupBox(self.tr("Infraction"), self)
        labels = {
            "id": self.tr("Id"),
            "end_to_end_id": self.tr("endToEndId"),
            "amount": self.tr("Amount"),
            "counterparty": self.tr("Counterparty"),
            "reason": self.tr("Reason"),
            "situation": self.tr("Situation"),
            "reported_by": self.tr("Reported by"),
            "status": self.tr("Status"),
            "deadline": self.tr("Defense deadline"),
            "analysis_result": self.tr("Analysis result"),
            "description": self.tr("Description"),
        }
        form = QFormLayout()
        self.details = value_labels(form, box, DETAIL_FIELDS, labels, "infraction")
        self.defenses_tree = flat_tree(
            box,
            "infraction-defenses",
            [self.tr("Submitted"), self.tr("Status"), self.tr("Defense"), self.tr("Attachments")],
        )
        self.defend_button = QPushButton(self.tr("Submit a defense…"), box)
        self.defend_button.setObjectName("infraction-defend")
        self.defend_button.clicked.connect(self._defend_clicked)
        self.defend_note = QLabel(box)
        self.defend_note.setObjectName("infraction-defend-note")
        self.defend_note.setWordWrap(True)
        self.defend_note.setStyleSheet(text_style("error", self))
        layout = QVBoxLayout(box)
        layout.addLayout(form)
        layout.addWidget(QLabel(self.tr("Defenses"), box))
        layout.addWidget(self.defenses_tree, 1)
        layout.addWidget(self.defend_note)
        layout.addWidget(self.defend_button, 0, Qt.AlignmentFlag.AlignRight)
        self.detail_box = box
        return box

    # -- loading ---------------------------------------------------------------------------------

    def deadline_text(self, infraction: Infraction) -> str:
        """The deadline and, while a defense is possible, how many days are left."""
        text = deadline_text(infraction.defense_deadline)
        left = self.service.days_left(infraction)
        if left is None or infraction.status not in DEFENSE_STATUSES:
            return text
        if left < 0:
            return text + " " + self.tr("(passed)")
        if left == 0:
            return text + " " + self.tr("(last day)")
        return text + " " + self.tr("(%1 day(s) left)").replace("%1", str(left))

    async def reload(self) -> None:
        """Read every infraction; the selected one stays selected (and is read again)."""
        selected = self.current.id if self.current is not None else None
        items = await run_operation(
            all_infractions(self.service), controls=[self.reload_button], banner=self.banner
        )
        if items is None:
            return
        self.model.set_infractions(items)
        self.loaded.emit(list(items))
        if selected is None or not self.select(selected):
            self._show(None)

    def select(self, infraction_id: str) -> bool:
        """Select an infraction the filter shows (its detail is then read)."""
        row = self.proxy.row_of(infraction_id)
        if row is None:
            return False
        already = current_row(self.view) == row
        select_row(self.view, row, Column.ID)
        if already:  # no signal for a row that was current already: read it again anyway
            self._selection_changed()
        return True

    def _selection_changed(self, *_args: object) -> None:
        row = current_row(self.view)
        if row is None:
            self._show(None)
            return
        infraction = self.proxy.infraction(row)
        self._show(infraction, [])
        if self.detail_task is not None and not self.detail_task.done():
            self.detail_task.cancel()
        self.detail_task = spawn_for(
            self, self.load_detail(infraction.id), name="infraction-detail"
        )

    async def load_detail(self, infraction_id: str) -> Infraction | None:
        """Read one infraction and its defenses from the bank and show them."""
        result = await run_operation(
            infraction_with_defenses(self.service, infraction_id), banner=self.banner
        )
        if result is None:
            return None
        infraction, defenses = result
        self.model.upsert(infraction)
        self.loaded.emit(self.model.rows())  # a defense moves it on: the badge follows at once
        if self.current is None or self.current.id == infraction.id:
            self._show(infraction, defenses)
        return infraction

    # -- detail ----------------------------------------------------------------------------------

    def _show(self, infraction: Infraction | None, defenses: list[Defense] | None = None) -> None:
        self.current = infraction
        self.defenses = list(defenses if defenses is not None else [])
        self.detail_box.setEnabled(infraction is not None)
        self.defenses_tree.clear()
        if infraction is None:
            for label in self.details.values():
                label.clear()
            self._update_defend()
            return
        values = {
            "id": infraction.id,
            "end_to_end_id": infraction.end_to_end_id or "",
            "amount": format_brl(infraction.amount) if infraction.amount is not None else "",
            "counterparty": counterparty_text(infraction),
            "reason": code_word(Family.INFRACTION_REASON, infraction.reason),
            "situation": code_word(Family.INFRACTION_SITUATION, infraction.situation),
            "reported_by": code_word(Family.INFRACTION_REPORTER, infraction.reported_by),
            "status": code_word(Family.INFRACTION_STATUS, infraction.status),
            "deadline": self.deadline_text(infraction),
            "analysis_result": code_word(Family.INFRACTION_ANALYSIS, infraction.analysis_result)
            or self.tr("(pending)"),
            "description": infraction.description or "",
        }
        for name, text in values.items():
            self.details[name].setText(text)
        for defense in self.defenses:
            item = QTreeWidgetItem(
                [
                    instant_or_empty(defense.created_at),
                    code_word(Family.DEFENSE_STATUS, defense.status),
                    defense.description or "",
                    ", ".join(a.name for a in defense.attachments),
                ]
            )
            item.setToolTip(2, defense.description or "")
            self.defenses_tree.addTopLevelItem(item)
        self._update_defend()

    def _update_defend(self) -> None:
        problem = self.service.defense_problem(self.current) if self.current else None
        busy = self.defend_task is not None and not self.defend_task.done()
        self.defend_button.setEnabled(self.current is not None and problem is None and not busy)
        self.defend_note.setText(rule_text(problem) if problem else "")
        self.defend_note.setVisible(problem is not None)

    # -- defending -------------------------------------------------------------------------------

    def _defend_clicked(self) -> None:
        if self.current is None or (self.defend_task and not self.defend_task.done()):
            return
        self.defend_task = spawn_for(self, self.defend(self.current), name="infraction-defend")
        self.defend_task.add_done_callback(self._task_done)
        self._update_defend()

    def _task_done(self, _task: asyncio.Task[Any]) -> None:
        if shiboken6.isValid(self):
            self._update_defend()

    async def defend(self, infraction: Infraction) -> Defense | None:
        """Open the defense form; after a submission, read the infraction and its defenses
        again (its status moves on) and return the defense as the bank recorded it. A
        submission still on its way when the dialog closed is waited for: its answer decides."""
        dialog = DefenseDialog(infraction, self.service, self)
        self.dialog = dialog
        try:
            await ask(dialog)
            if dialog.task is not None and not dialog.task.done():
                await asyncio.wait({dialog.task})  # not cancelled with this defense
            defense = dialog.defense  # set only once the bank recorded it
        finally:
            self.dialog = None
            dispose(dialog)
        if defense is not None:
            await self.load_detail(infraction.id)
        return defense

    def shutdown(self) -> None:
        """Close the form and cancel what is on its way."""
        if self.dialog is not None:
            self.dialog.reject()
        for task in (self.detail_task, self.defend_task):
            if task is not None and not task.done():
                task.cancel()
