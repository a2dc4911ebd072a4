"""The Pix form's "Pay on": a date on a holiday is reviewed as the next business day with the
reason, and the confirmed payment is journaled for that day, not sent."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from PySide6.QtCore import Qt

from tests.ui.test_payouts_tab import _confirm_and_send, _review_key, tab_and_workspace  # noqa: F401
from tests.waiting import qt_wait_until
from treasury_app.domain.business_days import holidays, is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.widgets.date_edits import to_qdate
from treasury_app.ui.widgets.repeat_edit import MONTHLY_LAST, WEEKLY


def _holiday_after(day: dt.date) -> dt.date:
    ahead = [h for y in (day.year, day.year + 1) for h in sorted(holidays(y))]
    return next(h for h in ahead if h > day + dt.timedelta(days=1) and h.weekday() < 5)


def test_a_pix_for_a_holiday_is_reviewed_with_its_roll_and_waits_for_its_day(
    qtbot,
    run,
    tab_and_workspace,
) -> None:
    tab, workspace = tab_and_workspace
    holiday = _holiday_after(brasilia_today(workspace.clock))
    after = holiday + dt.timedelta(days=1)
    while not is_business_day(after):
        after += dt.timedelta(days=1)
    later, day = tab.pay_on["key"]
    assert not day.isEnabled()
    qtbot.mouseClick(later, Qt.MouseButton.LeftButton)
    assert day.isEnabled()
    day.setDate(to_qdate(holiday))
    dialog = _review_key(qtbot, tab, "fornecedor.pix@empresa.com.br", "12,34")
    text = dialog.fields["pay-date"].text()
    assert text.startswith(format_date(after)) and format_date(holiday) in text
    entry = _confirm_and_send(qtbot, tab, Decimal("12.34"))
    assert entry.state == EntryState.PREPARED and entry.pay_date == after
    assert run(workspace.ledger.schedule.waiting())[-1].id == entry.id


def test_a_monthly_pix_on_the_last_business_day_becomes_a_series_of_scheduled_payments(
    qtbot,
    run,
    tab_and_workspace,
) -> None:
    tab, workspace = tab_and_workspace
    today = brasilia_today(workspace.clock)
    start = today + dt.timedelta(days=3)
    later, day = tab.pay_on["key"]
    repeat = tab.repeats["key"]
    assert not repeat.isEnabled()
    qtbot.mouseClick(later, Qt.MouseButton.LeftButton)
    assert repeat.isEnabled()
    day.setDate(to_qdate(start))
    repeat.set_repeat(MONTHLY_LAST, times=6)
    assert repeat.times.isVisible() and not repeat.until.isVisible()
    dialog = _review_key(qtbot, tab, "aluguel.pix@empresa.com.br", "900,00")
    assert dialog.fields["repeats"].text() == "Every month, on the last business day, 6 times"
    first = _confirm_and_send(qtbot, tab, Decimal("900.00"))
    assert first.state == EntryState.PREPARED and first.series_id is not None
    occurrences = run(workspace.ledger.schedule.of_series(first.series_id))
    assert 1 <= len(occurrences) <= 2  # those within the horizon (35 days), journaled now
    assert all(o.pay_date is not None and is_business_day(o.pay_date) for o in occurrences)
    assert [o.pay_date.month for o in occurrences] == sorted(
        {o.pay_date.month for o in occurrences}
    )
    assert tab.payment_status.text().startswith("Recurring Pix created: ")


def test_a_repeat_the_engine_refuses_is_said_on_its_field(qtbot, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    later, day = tab.pay_on["key"]
    qtbot.mouseClick(later, Qt.MouseButton.LeftButton)
    start = brasilia_today(workspace.clock) + dt.timedelta(days=3)
    day.setDate(to_qdate(start))
    tab.repeats["key"].set_repeat(WEEKLY, until=start - dt.timedelta(days=1))  # ends before
    _review_key(qtbot, tab, "aluguel.pix@empresa.com.br", "900,00")
    _confirm_and_send_refused(qtbot, tab, Decimal("900.00"))
    assert tab.banner.isVisible() and tab.banner.detail.text()
    assert run_entries(tab) is None


def _confirm_and_send_refused(qtbot, tab, amount: Decimal) -> None:
    dialog = tab.review_dialog
    qtbot.keyClicks(dialog.confirm_edit, format_brl(amount))
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")


def run_entries(tab):
    return tab.review_task.result()
