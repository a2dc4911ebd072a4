"""A slip and a CSV batch scheduled from their forms (issue 35), on the app's own sandbox bank:
the boleto form's "On its due date" reviewed as the next business day with the reason, and
journaled for that day; the batch dialog shows each row's date (its own, rolled, or the
batch's) and journals the rows for their days."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

from PySide6.QtCore import Qt

from tests.services.test_schedule_slips_batches import next_saturday, slip_due_on
from tests.ui.test_billets_tab import _look_up, _wait_for_review, tab_and_workspace  # noqa: F401
from tests.ui.test_payout_batch_dialog import (  # noqa: F401
    approve,
    dialog_and_workspace,
    model_rows,
)
from tests.waiting import qt_wait_until
from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.models.paid_slips_model import Column as SlipColumn
from treasury_app.ui.tabs.billets_tab import PAY_NOW, PAY_ON_A_DATE, PAY_ON_DUE_DATE

PAY_ON_COLUMN = 4


def _business_day_after(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def test_a_slip_on_its_due_date_is_reviewed_as_the_next_business_day_and_waits(
    qtbot, tab_and_workspace
) -> None:
    tab, workspace = tab_and_workspace
    today = brasilia_today(workspace.clock)
    saturday = next_saturday(today)
    monday = _business_day_after(saturday)
    assert tab.pay_when.currentData() == PAY_NOW and not tab.pay_day.isEnabled()
    tab.set_pay_on(PAY_ON_DUE_DATE)
    assert not tab.pay_day.isEnabled()
    _look_up(qtbot, tab, slip_due_on(saturday, "321.00", today))
    dialog = _wait_for_review(qtbot, tab)
    text = dialog.fields["pay-date"].text()
    assert text.startswith(format_date(monday)) and format_date(saturday) in text
    assert "weekend" in text
    qtbot.keyClicks(dialog.confirm_edit, dialog.amount.text())
    qtbot.mouseClick(dialog.pay_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    entry = tab.lookup_task.result()
    assert entry.state == EntryState.PREPARED and entry.pay_date == monday
    assert tab.payment_status.text().startswith(f"Scheduled for {format_date(monday)}")


def test_a_slip_on_an_earlier_date_says_its_date_and_the_due_date_starts_the_picker(
    qtbot, tab_and_workspace
) -> None:
    tab, workspace = tab_and_workspace
    today = brasilia_today(workspace.clock)
    saturday = next_saturday(today)
    line = slip_due_on(saturday, "123.45", today)
    tab.set_pay_on(PAY_ON_A_DATE)
    assert tab.pay_day.isEnabled()
    qtbot.keyClicks(tab.code_edit, line)
    assert tab.pay_day.date().toPython() == saturday  # "On a date" starts at the due date
    earlier = _business_day_after(today)
    tab.set_pay_on(PAY_ON_A_DATE, earlier)
    qtbot.mouseClick(tab.lookup_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["pay-date"].text() == format_date(earlier)
    dialog.reject()
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    assert tab.lookup_task.result() is None


def test_the_slips_review_changes_its_pay_date_and_the_payment_leaves_on_that_day(
    qtbot, tab_and_workspace, tmp_path
) -> None:
    """Looked up to be paid now, scheduled from the review itself: a past date is refused
    beside the field, a Saturday rolls to Monday (said), the confirmed review is journaled for
    that day; back to "now" the review says so again."""
    tab, workspace = tab_and_workspace
    today = brasilia_today(workspace.clock)
    saturday = next_saturday(today)
    monday = _business_day_after(saturday)
    _look_up(qtbot, tab, slip_due_on(_business_day_after(monday), "77.00", today))
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.review.pay is None and not dialog.fields["pay-date"].isVisible()
    assert dialog.heading.text() == "Amount to be debited now"

    dialog.pay_when.setCurrentIndex(dialog.pay_when.findData(PAY_ON_A_DATE))
    dialog.pay_day.setDate(today - dt.timedelta(days=1))
    qtbot.mouseClick(dialog.change_button, Qt.MouseButton.LeftButton)
    assert dialog.date_error.isVisible() and "has passed" in dialog.date_error.text()
    assert dialog.review.pay is None

    dialog.pay_day.setDate(saturday)
    qtbot.mouseClick(dialog.change_button, Qt.MouseButton.LeftButton)
    assert not dialog.date_error.isVisible()
    assert dialog.review.pay is not None and dialog.review.pay.date == monday
    text = dialog.fields["pay-date"].text()
    assert dialog.fields["pay-date"].isVisible()
    assert text.startswith(format_date(monday)) and "weekend" in text
    assert dialog.heading.text() == f"Amount to be debited on {format_date(monday)}"

    dialog.pay_when.setCurrentIndex(dialog.pay_when.findData(PAY_NOW))
    qtbot.mouseClick(dialog.change_button, Qt.MouseButton.LeftButton)
    assert dialog.review.pay is None and dialog.heading.text() == "Amount to be debited now"
    dialog.pay_when.setCurrentIndex(dialog.pay_when.findData(PAY_ON_A_DATE))
    qtbot.mouseClick(dialog.change_button, Qt.MouseButton.LeftButton)  # Saturday again

    qtbot.keyClicks(dialog.confirm_edit, dialog.amount.text())
    qtbot.mouseClick(dialog.pay_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    entry = tab.lookup_task.result()
    assert entry.state == EntryState.PREPARED and entry.pay_date == monday
    # The slips list and its export say the day it leaves.
    row = tab.model.row_of(entry.id)
    assert row is not None
    assert tab.model.index(row, SlipColumn.PAY_DATE).data() == format_date(monday)
    assert tab.model.headerData(SlipColumn.PAY_DATE, Qt.Orientation.Horizontal) == "Pay on"
    path = tmp_path / "boletos.csv"
    tab.export_csv(path)
    rows = list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig")), delimiter=";"))
    assert rows[0][-1] == "Pay on"
    assert [format_date(monday)] == [r[-1] for r in rows[1:] if r[2] == entry.payee_detail]


def test_a_batch_shows_each_rows_date_and_journals_them_for_their_days(
    qtbot, run, dialog_and_workspace
) -> None:
    dialog, workspace = dialog_and_workspace
    today = brasilia_today(workspace.clock)
    saturday = next_saturday(today)
    monday = _business_day_after(saturday)
    day = _business_day_after(today)
    text = (
        "chave;valor;data_pagamento\n"
        f"a@empresa.com.br;10,00;{format_date(saturday)}\n"
        "b@empresa.com.br;20,00;\n"
    )
    run(dialog.load_text(text))
    rows = model_rows(dialog.rows_model)
    assert [row[PAY_ON_COLUMN] for row in rows] == [format_date(monday), "Now"]
    assert "weekend" in rows[0][dialog.rows_model.headers.index("Check")]
    qtbot.mouseClick(dialog.later_check, Qt.MouseButton.LeftButton)
    dialog.pay_day.setDate(day)
    rows = model_rows(dialog.rows_model)
    assert [row[PAY_ON_COLUMN] for row in rows] == [format_date(monday), format_date(day)]
    approve(qtbot, dialog)
    entries = run(dialog.send())
    assert entries is not None, dialog.banner.detail.text()
    assert sorted((e.amount, e.pay_date) for e in entries) == [
        (Decimal("10.00"), monday),
        (Decimal("20.00"), day),
    ]
    assert {e.state for e in entries} == {EntryState.PREPARED}
