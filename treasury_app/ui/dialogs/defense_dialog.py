"""The defense form of one infraction: a description of at most 2000 characters with a live
counter and optional attachment names. An infraction that no longer takes a defense (closed,
deadline passed) is refused here, before anything is sent; the dialog submits the defense
itself and stays open on a refusal."""

from __future__ import annotations

import asyncio
from typing import Any

import shiboken6
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.api.accounts.models import Defense, Infraction
from treasury_app.domain.money import format_brl
from treasury_app.services.infractions import (
    MAX_DEFENSE_LENGTH,
    InfractionsService,
)
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.operation import run_operation
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.theme import banner_style, text_style
from treasury_app.ui.times import deadline_text
from treasury_app.ui.widgets.error_banner import ErrorBanner

__all__ = ["DefenseDialog", "attachment_names"]


def attachment_names(text: str) -> list[str]:
    """One file name per line; blank lines ignored."""
    return [line.strip() for line in text.splitlines() if line.strip()]


class DefenseDialog(QDialog):
    """Write and submit a defense for ``infraction`` through ``service``. Accepted once the
    bank recorded it (:attr:`defense`); :attr:`problem` says why the infraction cannot take
    one (the Submit button is then disabled). :attr:`task` is the submission on its way; while
    it is being written (:attr:`writing`) the dialog cannot be closed."""

    def __init__(
        self, infraction: Infraction, service: InfractionsService, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("defense-dialog")
        self.setWindowTitle(self.tr("Defense for infraction %1").replace("%1", infraction.id))
        self.infraction = infraction
        self.service = service
        self.defense: Defense | None = None
        self.task: asyncio.Task[Any] | None = None
        self.writing = False
        self.problem = service.defense_problem(infraction)

        layout = QVBoxLayout(self)
        self.banner = ErrorBanner(self)
        layout.addWidget(self.banner)
        self.problem_label = QLabel(rule_text(self.problem) if self.problem else "", self)
        self.problem_label.setObjectName("defense-problem")
        self.problem_label.setWordWrap(True)
        self.problem_label.setStyleSheet(f"{banner_style('error', self)} padding: 6px;")
        self.problem_label.setVisible(self.problem is not None)
        layout.addWidget(self.problem_label)

        summary = QFormLayout()
        summary.addRow(self.tr("endToEndId"), QLabel(infraction.end_to_end_id or "", self))
        amount = format_brl(infraction.amount) if infraction.amount is not None else ""
        summary.addRow(self.tr("Amount"), QLabel(amount, self))
        summary.addRow(
            self.tr("Defense deadline"), QLabel(deadline_text(infraction.defense_deadline), self)
        )
        layout.addLayout(summary)

        layout.addWidget(QLabel(self.tr("Defense"), self))
        self.description_edit = QPlainTextEdit(self)
        self.description_edit.setObjectName("defense-description")
        self.description_edit.setPlaceholderText(
            self.tr("Explain why the Pix was legitimate (contract, delivery, authorization).")
        )
        self.description_edit.textChanged.connect(self._update)
        layout.addWidget(self.description_edit, 1)
        self.counter = QLabel(self)
        self.counter.setObjectName("defense-counter")
        layout.addWidget(self.counter)

        layout.addWidget(QLabel(self.tr("Attachments (file names, one per line; optional)"), self))
        self.attachments_edit = QPlainTextEdit(self)
        self.attachments_edit.setObjectName("defense-attachments")
        self.attachments_edit.setMaximumHeight(70)
        layout.addWidget(self.attachments_edit)

        self.submit_button = QPushButton(self.tr("Submit defense"), self)
        self.submit_button.setObjectName("defense-submit")
        self.submit_button.setDefault(True)
        self.submit_button.clicked.connect(self._submit_clicked)
        self.cancel_button = QPushButton(self.tr("Cancel"), self)
        self.cancel_button.setObjectName("defense-cancel")
        self.cancel_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.submit_button)
        layout.addLayout(buttons)
        self.fields: dict[str, QWidget] = {
            "description": self.description_edit,
            "attachments": self.attachments_edit,
        }
        self._update()
        self.resize(560, 460)

    def reject(self) -> None:
        """Close without submitting; ignored while the defense is being written (Cancel is
        disabled then; Escape and the window's close button end here too)."""
        if not self.writing:
            super().reject()

    def length(self) -> int:
        """Characters the bank will count (the description is trimmed before sending)."""
        return len(self.description_edit.toPlainText().strip())

    def _update(self) -> None:
        length = self.length()
        self.counter.setText(
            self.tr("%1 / %2 characters")
            .replace("%1", str(length))
            .replace("%2", str(MAX_DEFENSE_LENGTH))
        )
        too_long = length > MAX_DEFENSE_LENGTH
        self.counter.setStyleSheet(
            f"{text_style('error', self)} font-weight: bold;"
            if too_long
            else text_style("muted", self)
        )
        busy = self.task is not None and not self.task.done()
        self.submit_button.setEnabled(
            self.problem is None and 0 < length <= MAX_DEFENSE_LENGTH and not busy
        )

    def _submit_clicked(self) -> None:
        if self.task is None or self.task.done():
            self.task = spawn_for(self, self.submit(), name="defense-submit")
            self.task.add_done_callback(self._task_done)

    def _task_done(self, _task: asyncio.Task[Any]) -> None:
        if shiboken6.isValid(self):  # the dialog may be gone already
            self._update()

    async def submit(self) -> Defense | None:
        """Submit the defense (refused locally when the infraction no longer takes one);
        accept the dialog once the bank recorded it."""
        if self.problem is not None:
            self.banner.show_error(self.problem, self.fields)
            return None
        self.writing = True
        try:
            defense = await run_operation(
                self.service.submit_defense(
                    self.infraction,
                    self.description_edit.toPlainText(),
                    attachment_names(self.attachments_edit.toPlainText()),
                ),
                controls=[self.submit_button, self.cancel_button],
                banner=self.banner,
                fields=self.fields,
                changes_ledger=True,
            )
        finally:
            self.writing = False
        if defense is None:
            return None
        self.defense = defense
        self.accept()
        return defense
