"""Date pickers as every form and list of the app shows them (``dd/MM/yyyy``, a calendar to
pick from) and the conversions between Qt's dates and Python's."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QDate
from PySide6.QtWidgets import QDateEdit, QHBoxLayout, QLabel, QWidget

__all__ = [
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


def date_edit(parent: QWidget, day: dt.date | QDate | None = None, name: str = "") -> QDateEdit:
    """A date picker showing ``day`` (Qt's default date when ``None``)."""
    edit = QDateEdit(parent)
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
