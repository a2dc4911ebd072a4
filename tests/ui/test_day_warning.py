"""A scheduled day whose payments exceed the balance (issue 35), on the app's own sandbox bank:
the business day before, the status bar says so in short ("⚠ Short on 19/11"), the whole
sentence (day, total, balance) in its tooltip, in English and pt_BR; the calendar marks that
day; cancelled, the warning goes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import brasilia_today
from treasury_app.domain.money import format_brl
from treasury_app.services.calendar import CalendarService
from treasury_app.ui.widgets.day_warning_badge import DayWarningBadge

MAX_PIX = Decimal("1000000.00")


def _next_business_day(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def _schedule_over(run, workspace, day: dt.date, balance: Decimal) -> list:
    """Payments scheduled for ``day`` totalling a little more than ``balance``."""
    entries = []
    left = balance + Decimal("0.01")
    while left > 0:
        amount = min(left, MAX_PIX)
        review = run(
            workspace.payouts.prepare_key(
                "saldo.curto@empresa.com.br",
                str(amount),
                description=f"parcela {len(entries) + 1}",
            )
        )
        entries.append(run(workspace.payouts.send(workspace.schedule.schedule_payout(review, day))))
        left -= amount
    return entries


def test_a_day_over_the_balance_is_warned_the_day_before_in_the_bar_and_the_calendar(
    qtbot, run, open_workspace, restore_translation
) -> None:
    workspace = open_workspace()
    badge = DayWarningBadge(workspace)
    qtbot.addWidget(badge)
    assert run(badge.refresh()) == [] and badge.isHidden()
    today = brasilia_today(workspace.clock)
    day = _next_business_day(today)
    balance = Decimal(run(workspace.statement.balance()).available)
    entries = _schedule_over(run, workspace, day, balance)
    try:
        # (other tests' payments for that day, if any, count too)
        [warning] = [w for w in run(badge.refresh()) if w.day == day]
        assert warning.total >= balance + Decimal("0.01") and warning.balance == balance
        assert not badge.isHidden()
        assert badge.text() == f"⚠ Short on {day:%d/%m}"
        tip = badge.toolTip()
        assert format_brl(balance) in tip and format_brl(warning.total) in tip
        assert tip.startswith(f"Payments scheduled for {day:%d/%m/%Y} total ")
        assert len(badge.text()) < 20  # short in the bar: it shares a laptop's width

        from treasury_app.app import install_translator

        install_translator(qapp_of(badge), "pt_BR")
        badge.show_warnings(badge.warnings)
        assert badge.text() == f"⚠ Saldo curto em {day:%d/%m}"
        assert "pagamentos agendados para" in badge.toolTip()

        projection = run(CalendarService.for_workspace(workspace).load())
        marked = projection.day(day)
        assert marked is not None and marked.over_balance and marked.warning is not None
        assert projection.day(today).warning is None or not projection.day(today).over_balance
    finally:
        for entry in entries:
            run(workspace.schedule.cancel(entry.id, "teste"))
    assert run(badge.refresh()) == [] and badge.isHidden()


def qapp_of(_widget):
    from PySide6.QtWidgets import QApplication

    return QApplication.instance()
