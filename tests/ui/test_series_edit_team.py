"""Editing a recurring payout in team mode, from the screens (issue 35), on a real PostgreSQL
and the UI tests' sandbox bank (its clock not moved here): an approver who opens "Edit
series…" is refused in words (only its maker changes it, the database says so); the maker,
from the calendar's day list, changes the amount: the review says which occurrences change
and which stay (the one approved ahead), and the database's edit voids nothing approved."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import psycopg

from tests.ui.test_approvals_ui import TeamDesks, desks  # noqa: F401
from tests.ui.test_series_edit import _click, _dialog
from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.ui.dialogs.series_dialog import SeriesEditDialog
from treasury_app.ui.tabs.calendar_tab import CalendarTab
from treasury_app.ui.widgets.payments_list import PaymentsList


def _next_business_day(day: dt.date) -> dt.date:
    day += dt.timedelta(days=1)
    while not is_business_day(day):
        day += dt.timedelta(days=1)
    return day


def test_only_the_maker_edits_a_series_and_what_was_approved_ahead_stays(
    qtbot: Any, run: Any, settle: Any, desks: TeamDesks
) -> None:
    sara = desks.open("sara", MAKER)
    tito = desks.open("tito", APPROVER)
    with psycopg.connect(desks.databases.server.url(desks.database), autocommit=True) as conn:
        conn.execute(  # the database's business date on the sandbox's clock (its owner's knob)
            "UPDATE treasury.schedule_clock SET shift = %s::timestamptz - clock_timestamp()",
            (sara.clock(),),
        )
    start = _next_business_day(brasilia_today(sara.clock))
    review = run(sara.payouts.prepare_key(f"serie.{desks.tag}@empresa.com.br", "400,00"))
    series_id, made = run(
        sara.schedule.create_series(review, SeriesRule(Frequency.WEEKLY, start, count=4))
    )
    assert {e.approval for e in made} == {"WAITING"}
    assert tito.ledger.approvals is not None
    approved = run(tito.ledger.approvals.approve(made[0].id, made[0].content_hash or ""))
    assert approved.approval == "APPROVED"

    # The approver: the review reads, the change is refused in words, nothing changes.
    listing = PaymentsList(tito)
    qtbot.addWidget(listing)
    listing.resize(1200, 700)
    listing.show()
    assert settle(listing.refresh_task) is True
    assert listing.select_entry(made[1].id)
    _click(qtbot, listing.series_edit_button)
    dialog: SeriesEditDialog = _dialog(qtbot, listing, SeriesEditDialog)
    dialog.amount.setText("450,00")
    _click(qtbot, dialog.review_button)
    assert settle(dialog.task) is True, dialog.banner.detail.text()
    _click(qtbot, dialog.confirm_button)
    assert settle(dialog.task) is False
    assert "maker" in dialog.banner.detail.text().lower()
    assert "team." not in dialog.banner.detail.text()  # words, not the code
    dialog.reject()
    assert settle(listing.series_task) is False
    assert run(sara.ledger.journal.get(made[1].id)).amount == Decimal("400.00")
    listing.shutdown()

    # The maker, from the calendar: the approved one stays, the others change.
    tab = CalendarTab(sara)
    qtbot.addWidget(tab)
    tab.resize(1300, 760)
    tab.show()
    assert settle(tab.task) is not None, tab.banner.detail.text()
    assert tab.select_day(made[1].pay_date) and tab.select_item(f"out:{made[1].id}")
    _click(qtbot, tab.series_edit_button)
    dialog = _dialog(qtbot, tab, SeriesEditDialog)
    dialog.amount.setText("450,00")
    _click(qtbot, dialog.review_button)
    assert settle(dialog.task) is True, dialog.banner.detail.text()
    text = dialog.review_label.text()
    assert f"Change ({len(made) - 1}):" in text
    assert (
        "Stay as they are, already approved or sent (1):\n"
        f"  {format_date(made[0].pay_date)}  R$ 400,00"
    ) in text
    _click(qtbot, dialog.confirm_button)
    assert settle(dialog.task) is True, dialog.banner.detail.text()
    assert settle(tab.task) is True
    kept = run(sara.ledger.journal.get(made[0].id))
    assert (kept.amount, kept.approval) == (Decimal("400.00"), "APPROVED")
    changed = [run(sara.ledger.journal.get(e.id)) for e in made[1:]]
    assert {(e.amount, e.approval) for e in changed} == {(Decimal("450.00"), "WAITING")}
    assert run(sara.schedule.series_terms(series_id)).amount == Decimal("450.00")
