""" "Edit series…" and "End series…" of a recurring payout (issue 35), opened where a person
sees one of its occurrences (the payments list's details, the calendar's day list).

The edit asks for the amount, the description and the repeat rule (its start and its end),
then shows its review: the occurrences that change, those cancelled (no longer on the
series' dates), those that stay as they are (approved or sent) and the new ones the horizon
journals; only then "Confirm". The end asks for a reason and says what it cancels and what
stays. The service decides and audits (:meth:`~treasury_app.services.schedule.
ScheduleService.change_series`, :meth:`~treasury_app.services.schedule.ScheduleService.
end_series`; on a team database its functions: the maker only edits, approvals of a changed
occurrence are void)."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Iterable
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from treasury_app.domain.clock import format_date
from treasury_app.domain.money import format_brl
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger.journal import Entry
from treasury_app.services.calendar import HORIZON_WEEKS
from treasury_app.services.schedule import SeriesChange, SeriesTerms
from treasury_app.ui.async_tools import ask, dispose, spawn_unless_busy
from treasury_app.ui.operation import run_operation
from treasury_app.ui.widgets.date_edits import date_edit, to_date
from treasury_app.ui.widgets.error_banner import ErrorBanner
from treasury_app.ui.widgets.money_edit import MoneyEdit
from treasury_app.ui.widgets.repeat_edit import (
    EVERY_DAYS,
    MONTHLY_DAY,
    MONTHLY_LAST,
    NONE,
    SERIES_FIELDS,
    WEEKLY,
    RepeatEdit,
)

__all__ = ["SeriesEditDialog", "SeriesEndDialog", "ask_edit_series", "ask_end_series"]

Review = Callable[[Decimal, str, SeriesRule], Awaitable[SeriesChange]]


def _lines(entries: Iterable[Entry], amount: Decimal | None = None) -> list[str]:
    lines = []
    for entry in entries:
        day = format_date(entry.pay_date) if entry.pay_date is not None else ""
        text = f"  {day}  {format_brl(entry.amount)}"
        if amount is not None and amount != entry.amount:
            text += f" → {format_brl(amount)}"
        lines.append(text)
    return lines


def review_text(change: SeriesChange, *, ending: bool = False) -> str:
    """What ``change`` does, occurrence by occurrence, in words."""
    parts: list[str] = []
    amount = change.terms.amount

    def section(title: str, lines: list[str]) -> None:
        if lines:
            parts.append(title.replace("%1", str(len(lines))))
            parts.extend(lines)

    section(
        QCoreApplication.translate("SeriesReview", "Change (%1):"), _lines(change.changed, amount)
    )
    section(
        QCoreApplication.translate("SeriesReview", "Cancelled (%1):")
        if ending
        else QCoreApplication.translate(
            "SeriesReview", "Cancelled, no longer on the series' dates (%1):"
        ),
        _lines(change.cancelled),
    )
    section(
        QCoreApplication.translate(
            "SeriesReview", "Stay as they are, already approved or sent (%1):"
        ),
        _lines(change.kept),
    )
    if change.new_dates:
        parts.append(
            QCoreApplication.translate("SeriesReview", "New, within the next days (%1): %2")
            .replace("%1", str(len(change.new_dates)))
            .replace("%2", ", ".join(format_date(day) for day in change.new_dates))
        )
    if change.planned:
        parts.append(
            QCoreApplication.translate(
                "SeriesReview", "Not made any more, in the next %3 weeks (%1): %2"
            )
            .replace("%1", str(len(change.planned)))
            .replace("%3", str(HORIZON_WEEKS))
            .replace("%2", ", ".join(format_date(day) for day in change.planned))
            + (
                QCoreApplication.translate("SeriesReview", ", and those after them")
                if change.more_planned
                else ""
            )
        )
    elif change.more_planned:
        parts.append(
            QCoreApplication.translate(
                "SeriesReview", "Its later payments, after the next %1 weeks, are not made."
            ).replace("%1", str(HORIZON_WEEKS))
        )
    if not parts:
        parts.append(
            QCoreApplication.translate("SeriesReview", "No payment already journaled changes.")
        )
    return "\n".join(parts)


class SeriesEditDialog(QDialog):
    """Edit a series: the form, then its review, then "Confirm" (``apply``)."""

    def __init__(
        self,
        terms: SeriesTerms,
        today: dt.date,
        review: Review,
        apply: Review,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("series-edit-dialog")
        self.setWindowTitle(self.tr("Edit the recurring payment"))
        self._review, self._apply = review, apply
        self.task: asyncio.Task[Any] | None = None
        self.change: SeriesChange | None = None
        """The last review shown (``None``: none, or the form changed since)."""
        self.done_change: SeriesChange | None = None
        self.banner = ErrorBanner(self)
        self.amount = MoneyEdit(self)
        self.amount.setObjectName("series-amount")
        self.amount.set_value(terms.amount)
        self.description = QLineEdit(terms.description, self)
        self.description.setObjectName("series-description")
        # The series' own start: an edit that keeps its dates keeps its occurrences.
        self.start = date_edit(self, terms.rule.start, "series-start")
        self.repeat = RepeatEdit(today, "series-repeat", self)
        model = self.repeat.how.model()
        if isinstance(model, QStandardItemModel):  # a series repeats: "does not" is not offered
            item = model.item(NONE)
            if item is not None:
                item.setEnabled(False)
        _fill_repeat(self.repeat, terms.rule)
        self.review_label = QLabel(self)
        self.review_label.setObjectName("series-review")
        self.review_label.setWordWrap(True)
        self.review_button = QPushButton(self.tr("Review"), self)
        self.review_button.setObjectName("series-review-button")
        self.review_button.setDefault(True)
        self.review_button.clicked.connect(lambda: self._start(self.show_review(), "review"))
        self.confirm_button = QPushButton(self.tr("Confirm"), self)
        self.confirm_button.setObjectName("series-confirm")
        self.confirm_button.clicked.connect(lambda: self._start(self.confirm(), "confirm"))
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.reject)

        form = QFormLayout()
        form.addRow(
            QLabel(self.tr("Recurring payment to %1").replace("%1", terms.payee), self),
        )
        form.addRow(self.tr("Amount"), self.amount)
        form.addRow(self.tr("Description"), self.description)
        form.addRow(self.tr("From"), self.start)
        form.addRow(self.tr("Repeat"), self.repeat)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        for button in (self.review_button, self.confirm_button, close):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addLayout(form)
        layout.addWidget(self.review_label, 1)
        layout.addLayout(buttons)
        self.fields: dict[str, QWidget] = {
            "amount": self.amount,
            "start": self.start,
            **{name: self.repeat for name in SERIES_FIELDS},
        }
        for signal in (
            self.amount.textChanged,
            self.description.textChanged,
            self.start.dateChanged,
            self.repeat.how.currentIndexChanged,
            self.repeat.number.valueChanged,
            self.repeat.end.currentIndexChanged,
            self.repeat.times.valueChanged,
            self.repeat.until.dateChanged,
        ):
            signal.connect(self._edited)
        self._edited()

    def _edited(self, *_args: object) -> None:
        self.change = None
        self.review_label.setText(self.tr("Review to see which payments change."))
        self._update_buttons()

    def _update_buttons(self) -> None:
        busy = self.task is not None and not self.task.done()
        self.review_button.setEnabled(not busy)
        self.confirm_button.setEnabled(not busy and self.change is not None)

    def _start(self, work: Any, name: str) -> None:
        task = spawn_unless_busy(self.task, work, name=f"series-{name}", owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(lambda _t: self._update_buttons())
            self._update_buttons()

    def terms(self) -> tuple[Decimal, str, SeriesRule] | None:
        """What the form asks for (``None``: the amount is not one; said on its field)."""
        amount = self.amount.value()
        rule = self.repeat.rule(to_date(self.start.date()))
        if amount is None or rule is None:
            self.banner.show_message(self.tr("Please check the form"), self.amount.error() or "")
            return None
        return amount, " ".join(self.description.text().split()), rule

    async def show_review(self) -> bool:
        asked = self.terms()
        if asked is None:
            return False
        change = await run_operation(self._review(*asked), banner=self.banner, fields=self.fields)
        if change is None:
            return False
        self.banner.clear()
        self.review_label.setText(review_text(change))
        self.change = change
        return True

    async def confirm(self) -> bool:
        asked = self.terms()
        if asked is None or self.change is None:
            return False
        done = await run_operation(
            self._apply(*asked), banner=self.banner, fields=self.fields, changes_ledger=True
        )
        if done is None:
            return False
        self.done_change = done
        self.accept()
        return True


class SeriesEndDialog(QDialog):
    """End a series with a reason, saying what it cancels and what stays."""

    def __init__(
        self,
        change: SeriesChange,
        end: Callable[[str], Awaitable[list[Entry]]],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("series-end-dialog")
        self.setWindowTitle(self.tr("End the recurring payment"))
        self.setMinimumWidth(520)  # its sentence names a payee and an amount: not squeezed
        self._end = end
        self.task: asyncio.Task[Any] | None = None
        self.cancelled: list[Entry] | None = None
        self.banner = ErrorBanner(self)
        intro = QLabel(
            self.tr("No more payments to %1 of %2 will be made.")
            .replace("%1", change.terms.payee)
            .replace("%2", format_brl(change.terms.amount)),
            self,
        )
        intro.setWordWrap(True)
        self.review_label = QLabel(review_text(change, ending=True), self)
        self.review_label.setObjectName("series-end-review")
        self.review_label.setWordWrap(True)
        self.reason = QLineEdit(self)
        self.reason.setObjectName("series-end-reason")
        self.reason.setPlaceholderText(self.tr("Why (kept in the audit)"))
        self.confirm_button = QPushButton(self.tr("End series"), self)
        self.confirm_button.setObjectName("series-end-confirm")
        self.confirm_button.clicked.connect(self._confirm_clicked)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.reject)
        self.reason.textChanged.connect(lambda _t: self._update_buttons())
        form = QFormLayout()
        form.addRow(self.tr("Reason"), self.reason)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.confirm_button)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.banner)
        layout.addWidget(intro)
        layout.addWidget(self.review_label, 1)
        layout.addLayout(form)
        layout.addLayout(buttons)
        self._update_buttons()

    def _update_buttons(self) -> None:
        busy = self.task is not None and not self.task.done()
        self.confirm_button.setEnabled(not busy and bool(self.reason.text().strip()))

    def _confirm_clicked(self) -> None:
        task = spawn_unless_busy(self.task, self.confirm(), name="series-end", owner=self)
        if task is not None:
            self.task = task
            task.add_done_callback(lambda _t: self._update_buttons())
            self._update_buttons()

    async def confirm(self) -> bool:
        reason = " ".join(self.reason.text().split())
        if not reason:
            return False
        cancelled = await run_operation(self._end(reason), banner=self.banner, changes_ledger=True)
        if cancelled is None:
            return False
        self.cancelled = cancelled
        self.accept()
        return True


def _fill_repeat(edit: RepeatEdit, rule: SeriesRule) -> None:
    if rule.frequency is Frequency.WEEKLY:
        how, number = WEEKLY, 1
    elif rule.frequency is Frequency.EVERY_N_DAYS:
        how, number = EVERY_DAYS, rule.interval
    elif rule.last_business_day:
        how, number = MONTHLY_LAST, 1
    else:
        how, number = MONTHLY_DAY, rule.day_of_month or 1
    edit.set_repeat(how, number, times=rule.count, until=rule.until)
    if rule.until is None and rule.count is None:  # no end: as far as the field goes
        edit.times.setValue(edit.times.maximum())


async def ask_edit_series(
    owner: QWidget,
    workspace: Any,
    series_id: str,
    banner: ErrorBanner,
    keep: Callable[[QDialog | None], None],
) -> bool:
    """Open "Edit series…" for ``series_id`` (``keep`` is told the dialog, then ``None``);
    ``True`` once the change is made."""
    schedule = workspace.schedule
    terms = await run_operation(schedule.series_terms(series_id), banner=banner)
    if terms is None:
        return False

    def review(amount: Decimal, description: str, rule: SeriesRule) -> Awaitable[SeriesChange]:
        return schedule.review_series_edit(series_id, amount, description, rule)  # type: ignore[no-any-return]

    def apply(amount: Decimal, description: str, rule: SeriesRule) -> Awaitable[SeriesChange]:
        return schedule.change_series(series_id, amount, description, rule)  # type: ignore[no-any-return]

    dialog = SeriesEditDialog(terms, schedule.today(), review, apply, owner)
    keep(dialog)
    try:
        return await ask(dialog) == QDialog.DialogCode.Accepted
    finally:
        keep(None)
        dispose(dialog)


async def ask_end_series(
    owner: QWidget,
    workspace: Any,
    series_id: str,
    banner: ErrorBanner,
    keep: Callable[[QDialog | None], None],
) -> bool:
    """Open "End series…" for ``series_id``; ``True`` once it is ended."""
    schedule = workspace.schedule
    change = await run_operation(schedule.review_series_end(series_id), banner=banner)
    if change is None:
        return False

    def end(reason: str) -> Awaitable[list[Entry]]:
        return schedule.end_series(series_id, reason)  # type: ignore[no-any-return]

    dialog = SeriesEndDialog(change, end, owner)
    keep(dialog)
    try:
        return await ask(dialog) == QDialog.DialogCode.Accepted
    finally:
        keep(None)
        dispose(dialog)
