"""The Pix form's "Pay on": a date on a holiday is reviewed as the next business day with the
reason, and the confirmed payment is journaled for that day, not sent."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from PySide6.QtCore import Qt

from tests.ui.test_payouts_tab import _confirm_and_send, _review_key, tab_and_workspace  # noqa: F401
from treasury_app.domain.business_days import holidays, is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.widgets.date_edits import to_qdate


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
