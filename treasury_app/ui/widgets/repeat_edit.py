"""The Pix forms' "Repeat": none, weekly, monthly on day N or on the last business day, or
every N days; until a date or N times. It gives the engine's
:class:`~treasury_app.domain.schedule.SeriesRule` from the first pay date; the engine checks it
(``schedule.series_*`` codes, said by the banner on this field)."""

from __future__ import annotations

import datetime as dt

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSpinBox, QWidget

from treasury_app.domain.clock import format_date
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ui.widgets.date_edits import DateEdit, date_edit, to_date, to_qdate

__all__ = ["SERIES_FIELDS", "RepeatEdit"]

SERIES_FIELDS = ("frequency", "interval", "day_of_month", "until", "count")
"""The fields of the engine's series refusals this widget answers for."""

NONE, WEEKLY, MONTHLY_DAY, MONTHLY_LAST, EVERY_DAYS = range(5)
TIMES, UNTIL = range(2)


class RepeatEdit(QWidget):
    """How a scheduled Pix repeats (``rule`` ``None``: once)."""

    def __init__(self, today: dt.date, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.how = QComboBox(self)
        self.how.setObjectName(f"{name}-how")
        self.how.addItems(
            [
                self.tr("Does not repeat"),
                self.tr("Weekly"),
                self.tr("Monthly, on day"),
                self.tr("Monthly, on the last business day"),
                self.tr("Every N days"),
            ]
        )
        self.number = QSpinBox(self)  # the day of the month, or N days
        self.number.setObjectName(f"{name}-number")
        self.number.setRange(1, 31)
        self.end = QComboBox(self)
        self.end.setObjectName(f"{name}-end")
        self.end.addItems([self.tr("times"), self.tr("until")])
        self.times = QSpinBox(self)
        self.times.setObjectName(f"{name}-times")
        self.times.setRange(2, 999)
        self.times.setValue(12)
        self.until: DateEdit = date_edit(self, today + dt.timedelta(days=365), f"{name}-until")
        self.ends_label = QLabel(self.tr("ends after"), self)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.how, self.number, self.ends_label, self.times, self.end, self.until):
            layout.addWidget(widget)
        layout.addStretch(1)
        self.how.currentIndexChanged.connect(self._update)
        self.end.currentIndexChanged.connect(self._update)
        self._update()

    def _update(self, *_args: object) -> None:
        how = self.how.currentIndex()
        self.number.setVisible(how in (MONTHLY_DAY, EVERY_DAYS))
        self.number.setRange(1, 31 if how == MONTHLY_DAY else 365)
        repeats = how != NONE
        until = self.end.currentIndex() == UNTIL
        self.ends_label.setVisible(repeats)
        self.end.setVisible(repeats)
        self.times.setVisible(repeats and not until)
        self.until.setVisible(repeats and until)

    def set_repeat(
        self, how: int, number: int = 1, *, times: int | None = None, until: dt.date | None = None
    ) -> None:
        """Choose a repeat (tests, and a form filled again)."""
        self.how.setCurrentIndex(how)
        self.number.setValue(number)
        if until is not None:
            self.end.setCurrentIndex(UNTIL)
            self.until.setDate(to_qdate(until))
        else:
            self.end.setCurrentIndex(TIMES)
            if times is not None:
                self.times.setValue(times)

    def rule(self, start: dt.date) -> SeriesRule | None:
        """The series from ``start`` (the first pay date asked); ``None`` when it does not
        repeat."""
        how = self.how.currentIndex()
        if how == NONE:
            return None
        until = to_date(self.until.date()) if self.end.currentIndex() == UNTIL else None
        count = None if until is not None else self.times.value()
        if how == WEEKLY:
            return SeriesRule(Frequency.WEEKLY, start, until=until, count=count)
        if how == EVERY_DAYS:
            return SeriesRule(
                Frequency.EVERY_N_DAYS,
                start,
                interval=self.number.value(),
                until=until,
                count=count,
            )
        return SeriesRule(
            Frequency.MONTHLY,
            start,
            day_of_month=self.number.value() if how == MONTHLY_DAY else None,
            last_business_day=how == MONTHLY_LAST,
            until=until,
            count=count,
        )

    def summary(self, rule: SeriesRule) -> str:
        """The rule in words, for the review."""
        if rule.frequency is Frequency.WEEKLY:
            text = self.tr("Every week")
        elif rule.frequency is Frequency.EVERY_N_DAYS:
            text = self.tr("Every %1 days").replace("%1", str(rule.interval))
        elif rule.last_business_day:
            text = self.tr("Every month, on the last business day")
        else:
            text = self.tr("Every month, on day %1").replace("%1", str(rule.day_of_month))
        if rule.until is not None:
            return text + ", " + self.tr("until %1").replace("%1", format_date(rule.until))
        return text + ", " + self.tr("%1 times").replace("%1", str(rule.count))
