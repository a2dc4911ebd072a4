"""Which payments a payee's statement of account holds (issue 36): a period, from and to
(Brasília days, both included), or every payment ever made to them."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from treasury_app.ui.widgets.date_edits import add_date_range, date_edit, date_span

__all__ = ["StatementDialog"]


class StatementDialog(QDialog):
    """The period of ``payee_name``'s statement; ``today`` (Brasília) ends it by default, and
    it starts on the first day of the year."""

    def __init__(self, parent: QWidget | None, payee_name: str, today: dt.date) -> None:
        super().__init__(parent)
        self.setObjectName("statement-dialog")
        self.setWindowTitle(self.tr("Statement of account"))
        self.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        intro = QLabel(
            self.tr(
                "Every payment to %1's keys and accounts, in one .zip file: a spreadsheet "
                "(CSV) and the receipts the app kept."
            ).replace("%1", payee_name),
            self,
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.every = QCheckBox(self.tr("Every payment (no period)"), self)
        self.every.setObjectName("statement-every")
        layout.addWidget(self.every)
        row = QHBoxLayout()
        self.start = date_edit(self, today.replace(month=1, day=1), "statement-start")
        self.end = date_edit(self, today, "statement-end")
        add_date_range(row, self, self.tr("From"), self.tr("to"), self.start, self.end)
        row.addStretch(1)
        layout.addLayout(row)
        self.every.toggled.connect(self._every_toggled)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Export…"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _every_toggled(self, every: bool) -> None:
        self.start.setEnabled(not every)
        self.end.setEnabled(not every)

    def period(self) -> tuple[dt.date | None, dt.date | None]:
        """The days chosen (``(None, None)``: every payment)."""
        if self.every.isChecked():
            return None, None
        return date_span(self.start, self.end)
