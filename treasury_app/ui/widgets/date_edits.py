"""Date pickers as every form and list of the app shows them (``dd/MM/yyyy`` in both
languages, a calendar to pick from) and the conversions between Qt's dates and Python's.

A typed date is read strictly (:func:`treasury_app.domain.clock.parse_date`): ``09/01/26`` or
``31/02/2027`` is not silently turned into some other day: the field keeps its last date, turns
red and says why (:attr:`DateEdit.problem`, :attr:`DateEdit.refused`)."""

from __future__ import annotations

import datetime as dt
import re

from PySide6.QtCore import QDate, QDateTime, QTime, Signal
from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDateEdit, QHBoxLayout, QLabel, QWidget

from treasury_app.domain.clock import parse_date

__all__ = [
    "DateEdit",
    "add_date_range",
    "date_edit",
    "date_span",
    "set_date_span",
    "to_date",
    "to_qdate",
]


def to_date(day: QDate) -> dt.date:
    return dt.date(day.year(), day.month(), day.day())


def to_qdate(day: dt.date) -> QDate:
    return QDate(day.year, day.month, day.day)


_TYPING = re.compile(r"[0-9/.\- ]{0,12}")
"""What may still become a date while it is typed."""
INVALID_STYLE = "border: 1px solid #d93025;"


class DateEdit(QDateEdit):
    """A :class:`QDateEdit` that takes a date typed whole (``9/1/2026``, ``09/01/2026``) and
    refuses, with a message, what is not one, instead of Qt's section-by-section guessing."""

    refused = Signal(str)
    """The message, when what was typed is not a date (the field kept its last date)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.problem = ""
        self._typed: str | None = None
        self.lineEdit().textEdited.connect(self._edited)
        self.editingFinished.connect(self._finished)

    def validate(self, text: str, pos: int) -> object:
        try:
            parse_date(text)
        except ValueError:
            state = (
                QValidator.State.Intermediate
                if _TYPING.fullmatch(text)
                else QValidator.State.Invalid
            )
            return state, text, pos
        return QValidator.State.Acceptable, text, pos

    def dateTimeFromText(self, text: str) -> QDateTime:  # noqa: N802 (Qt's name)
        day = parse_date(text)
        return QDateTime(to_qdate(day), QTime(0, 0))

    def _edited(self, text: str) -> None:
        self._typed = text

    def _finished(self) -> None:
        typed, self._typed = self._typed, None
        if typed is None:
            return
        try:
            parse_date(typed)
        except ValueError:
            self.problem = (
                self.tr("“%1” is not a date: type day, month and year with four digits, as in %2.")
                .replace("%1", typed.strip())
                .replace("%2", "28/11/2026")
            )
            self.setToolTip(self.problem)
            self.setStyleSheet(INVALID_STYLE)
            self.refused.emit(self.problem)
            return
        self.problem = ""
        self.setToolTip("")
        self.setStyleSheet("")


def date_edit(parent: QWidget, day: dt.date | QDate | None = None, name: str = "") -> DateEdit:
    """A date picker showing ``day`` (Qt's default date when ``None``)."""
    edit = DateEdit(parent)
    if name:
        edit.setObjectName(name)
    edit.setCalendarPopup(True)
    edit.setDisplayFormat("dd/MM/yyyy")
    if day is not None:
        edit.setDate(day if isinstance(day, QDate) else to_qdate(day))
    return edit


def date_span(start: QDateEdit, end: QDateEdit) -> tuple[dt.date, dt.date]:
    """The days two pickers show, as a range's two ends."""
    return to_date(start.date()), to_date(end.date())


def set_date_span(start: QDateEdit, end: QDateEdit, first: dt.date, last: dt.date) -> None:
    start.setDate(to_qdate(first))
    end.setDate(to_qdate(last))


def add_date_range(
    row: QHBoxLayout, parent: QWidget, label: str, to: str, start: QDateEdit, end: QDateEdit
) -> None:
    """``label`` [start] ``to`` [end], at the end of ``row`` (the texts are the caller's, in
    its words)."""
    row.addWidget(QLabel(label, parent))
    row.addWidget(start)
    row.addWidget(QLabel(to, parent))
    row.addWidget(end)
