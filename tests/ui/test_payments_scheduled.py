"""Scheduled payments in the Pix payments list (issue 35), on the app's own sandbox bank: their
day and state (the calendar's words, English and pt_BR), sorted by day, found by date."""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import Qt

from tests.ui.test_payments_list import _refresh, listing  # noqa: F401
from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.clock import brasilia_today, format_date
from treasury_app.ui.models.payments_model import Column


def _business_days(after: dt.date, count: int) -> list[dt.date]:
    days: list[dt.date] = []
    day = after
    while len(days) < count:
        day += dt.timedelta(days=1)
        if is_business_day(day):
            days.append(day)
    return days


def _scheduled(run, workspace, key: str, amount: str, day: dt.date):
    review = run(workspace.payouts.prepare_key(key, amount))
    return run(workspace.payouts.send(workspace.schedule.schedule_payout(review, day)))


def _column(widget, column: Column) -> list[str]:
    return [widget.proxy.index(r, column).data() for r in range(widget.proxy.rowCount())]


def test_scheduled_payments_show_their_day_and_state_sort_by_day_and_are_found_by_date(
    qtbot, run, listing
) -> None:
    widget, workspace = listing
    first, second = _business_days(brasilia_today(workspace.clock), 2)
    late = _scheduled(run, workspace, "agenda.b@empresa.com.br", "20,00", second)
    soon = _scheduled(run, workspace, "agenda.a@empresa.com.br", "10,00", first)
    run(workspace.ledger.schedule.hold(late.id, "scheduled.late", {"due": second}))
    _refresh(qtbot, widget)

    row = widget.proxy.row_of(soon.id)
    assert widget.proxy.index(row, Column.PAY_DATE).data() == format_date(first)
    assert widget.proxy.index(row, Column.SCHEDULE).data() == "Scheduled"
    row = widget.proxy.row_of(late.id)
    assert widget.proxy.index(row, Column.SCHEDULE).data() == "Held: a person decides"
    assert widget.model.headerData(Column.PAY_DATE, Qt.Orientation.Horizontal) == "Pay on"

    assert widget.proxy.entry(0).id == soon.id  # newest first, as ever
    widget.view.sortByColumn(Column.PAY_DATE, Qt.SortOrder.AscendingOrder)
    order = [widget.proxy.entry(r).id for r in range(widget.proxy.rowCount())]
    assert order.index(soon.id) < order.index(late.id)  # (other tests' payments may be listed)
    days = [widget.proxy.entry(r).pay_date for r in range(widget.proxy.rowCount())]
    scheduled = [day for day in days if day is not None]
    assert scheduled == sorted(scheduled) and days[: len(scheduled)] == scheduled  # then the rest
    widget.view.sortByColumn(Column.PAY_DATE, Qt.SortOrder.DescendingOrder)
    order = [widget.proxy.entry(r).id for r in range(widget.proxy.rowCount())]
    assert order.index(late.id) < order.index(soon.id)

    def found() -> set[int]:
        return {widget.proxy.entry(r).id for r in range(widget.proxy.rowCount())}

    widget.search_edit.setText(format_date(second))
    assert late.id in found() and soon.id not in found()
    assert all(widget.proxy.entry(r).pay_date == second for r in range(widget.proxy.rowCount()))
    widget.search_edit.setText(first.isoformat())
    assert soon.id in found() and late.id not in found()
    widget.search_edit.setText("held")
    assert late.id in found() and soon.id not in found()
    widget.search_edit.clear()
    widget.view.sortByColumn(Column.DATE, Qt.SortOrder.DescendingOrder)
    assert widget.proxy.entry(0).id == soon.id
    assert widget.proxy.index(0, Column.STATUS).data() == "Scheduled"  # nothing for the bank

    # Held by the engine (its checks on the day): the list follows without a reload.
    run(workspace.schedule._hold(soon, "scheduled.balance_short", {}))
    qtbot.waitUntil(
        lambda: widget.proxy.index(0, Column.SCHEDULE).data() == "Held: a person decides"
    )


def test_a_payment_waiting_for_its_day_is_not_one_the_bank_has_to_confirm(
    qtbot, run, open_workspace
) -> None:
    from treasury_app.ui.widgets.unconfirmed_banner import PIX_KINDS, UnconfirmedBanner

    workspace = open_workspace()
    [day] = _business_days(brasilia_today(workspace.clock), 1)
    entry = _scheduled(run, workspace, "agenda.c@empresa.com.br", "30,00", day)
    assert entry.id in {e.id for e in run(workspace.ledger.journal.unresolved())}
    banner = UnconfirmedBanner(workspace, PIX_KINDS)
    qtbot.addWidget(banner)
    assert run(banner.load())
    assert entry.id not in {e.id for e in banner.entries}
    banner.shutdown()
