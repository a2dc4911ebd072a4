"""The balance and statement tab against the app's own sandbox bank (clock 2026-11-18 13:00Z,
about 250 entries over 90 days)."""

from __future__ import annotations

import csv
import datetime as dt
import itertools
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QLineEdit

from tests.waiting import qt_wait_until
from treasury_app.domain.money import format_brl
from treasury_app.services.statement import CSV_DELIMITER
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.models.statement_model import Column
from treasury_app.ui.operation import events
from treasury_app.ui.tabs.statement_tab import StatementTab

PAGE = 20


@pytest.fixture
def tab_and_workspace(qtbot, run, open_workspace):
    workspace = open_workspace()
    # Each workspace asks for a token, and the sandbox allows 10 a minute per client: without
    # this, the tests after these few wait a minute for theirs.
    run(workspace.session.accounts.transport.http.post("/sandbox/tokens/reset-limits"))
    tab = StatementTab(workspace, page_size=PAGE)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    run(tab.load())
    tab.show()  # already loaded: showing it does not load again
    qtbot.waitExposed(tab)
    yield tab, workspace
    tab.hide()
    qt_wait_until(
        qtbot,
        lambda: not tab.loading and not _detail_running(tab),
        "not tab.loading and not _detail_running(tab)",
    )


def _detail_running(tab: StatementTab) -> bool:
    return tab.detail_task is not None and not tab.detail_task.done()


def _scroll_to_the_end(qtbot, tab: StatementTab) -> list[int]:
    counts = [tab.model.rowCount()]
    while not tab.model.complete:
        tab.view.scrollToBottom()
        qt_wait_until(
            qtbot,
            lambda: tab.model.rowCount() > counts[-1] or tab.model.complete,
            "tab.model.rowCount() > counts[-1] or tab.model.complete",
        )
        counts.append(tab.model.rowCount())
    return counts


def test_balance_and_the_last_30_days_page_by_page(qtbot, run, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    balance = run(workspace.statement.balance())
    assert tab.card.available.text() == format_brl(balance.available)
    assert "R$ 0,00" in tab.card.details.text()  # blocked and overdraft, small
    assert tab.card.updated.text().startswith("Updated at")
    assert not tab.banner.isVisible()

    start, end = tab.date_range()
    assert end == dt.date(2026, 11, 18)  # the bank's today, not the computer's
    assert start == end - dt.timedelta(days=30)
    expected = run(workspace.statement.entries(start, end))
    assert len(expected) > 2 * PAGE

    assert tab.model.rowCount() in (PAGE, 2 * PAGE)  # the first page (and maybe one to fill)
    counts = _scroll_to_the_end(qtbot, tab)
    assert all(b - a <= PAGE for a, b in itertools.pairwise(counts))
    assert [e.id for e in tab.model.entries()] == [e.id for e in expected]
    assert "All" in tab.status.text()

    first = tab.proxy.index(0, Column.AMOUNT)
    entry = tab.proxy.entry(0)
    shown = format_brl(entry.amount)
    assert tab.proxy.data(first) in (shown, "\u2212" + shown)
    assert tab.proxy.data(first, Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignRight


def test_detail_pane_shows_the_selected_entry(qtbot, run, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    tab.view.selectRow(2)
    entry = tab.proxy.entry(2)
    qt_wait_until(
        qtbot,
        lambda: tab.detail_task is not None and tab.detail_task.done(),
        "tab.detail_task done",
    )
    assert tab.detail_task.result().id == entry.id
    fields = tab.detail_fields
    assert fields["id"].text() == str(entry.id)
    assert format_brl(entry.amount) in fields["amount"].text()
    assert fields["description"].text() == entry.description
    assert fields["counterparty"].text() == entry.counterparty.name
    assert fields["end_to_end_id"].text() == (entry.end_to_end_id or "")
    assert not tab.banner.isVisible()


def test_filters_and_csv_export_of_the_rows_shown(qtbot, run, tab_and_workspace, tmp_path) -> None:
    tab, workspace = tab_and_workspace
    start, end = tab.date_range()
    everything = run(workspace.statement.entries(start, end))
    tab.direction_combo.setCurrentIndex(2)  # debits only
    qtbot.keyClicks(tab.min_edit, "1.000,00")
    tab.view.sortByColumn(Column.AMOUNT, Qt.SortOrder.AscendingOrder)
    target = tmp_path / "extrato.csv"
    count = run(tab.export_csv(target))  # reads the rest of the period first
    expected = sorted(
        (e for e in everything if e.credit_debit_type == "DEBIT" and e.amount >= Decimal(1000)),
        key=lambda e: -e.amount,
    )
    assert count == len(expected) > 0
    with target.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter=CSV_DELIMITER))
    assert [Decimal(r["signed_amount"]) for r in rows] == [e.signed_amount for e in expected]
    assert all(dt.datetime.fromisoformat(r["created_at"]).tzinfo for r in rows)

    tab.min_edit.setText("12,345")  # three decimals: marked, not used
    assert tab.min_edit.toolTip()
    assert tab.proxy.rowCount() == sum(1 for e in everything if e.credit_debit_type == "DEBIT")

    tab.min_edit.clear()
    tab.direction_combo.setCurrentIndex(0)
    qtbot.keyClicks(tab.search_edit, "GRAFICA")  # accents and case ignored
    names = {tab.proxy.entry(row).counterparty.name for row in range(tab.proxy.rowCount())}
    assert names and all("Gráfica" in name for name in names)


def test_receipt_of_a_settled_pix_is_saved_as_pdf(qtbot, run, tab_and_workspace, tmp_path) -> None:
    tab, workspace = tab_and_workspace

    def seeded_debit():  # a seeded Pix debit (no receipt): other tests' payments come first
        return next(
            (
                e
                for e in tab.model.entries()
                if e.credit_debit_type == "DEBIT" and e.end_to_end_id and e.payment_id is None
            ),
            None,
        )

    while seeded_debit() is None and tab.model.canFetchMore():
        run(tab.model.fetch_page())
    seeded = seeded_debit()
    assert seeded is not None
    assert run(tab.show_detail(seeded.id)).id == seeded.id
    assert not tab.receipt_button.isVisible()  # the bank has no receipt for it
    assert not tab.banner.isVisible()

    review = run(workspace.payouts.prepare_key("fornecedor@empresa.com.br", "12.34"))
    sent = run(workspace.payouts.send(review))
    accounts = workspace.session.accounts
    run(accounts.transport.http.post("/sandbox/clock", json={"advance": 3.5}))
    events.ledger_changed.emit()  # what a payout tab announces: the visible tab reloads
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")
    qt_wait_until(
        qtbot,
        lambda: tab.select_entry(_entry_id(tab, sent.end_to_end_id)),
        "tab.select_entry(_entry_id(tab, sent.end_to_end_id))",
    )
    qt_wait_until(
        qtbot,
        lambda: tab.detail_task is not None and tab.detail_task.done(),
        "tab.detail_task done",
    )
    assert tab.entry.end_to_end_id == sent.end_to_end_id
    assert tab.receipt_button.isVisible()
    target = tmp_path / "comprovante.pdf"
    assert run(tab.save_receipt(target)) == target
    assert tab.view_receipt_button.isVisible()
    viewer = tab.view_receipt()  # the same receipt in the viewer, from memory
    assert viewer is not None and viewer.page_count() >= 1
    viewer.close()
    assert target.read_bytes().startswith(b"%PDF")
    balance = run(workspace.statement.balance())
    assert tab.card.available.text() == format_brl(balance.available)


def _entry_id(tab: StatementTab, end_to_end_id: str) -> int | str:
    for entry in tab.model.entries():
        if entry.end_to_end_id == end_to_end_id:
            return entry.id
    return -1


def test_balance_timer_runs_only_while_shown(qtbot, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    assert tab._balance_timer.isActive()
    assert tab._balance_timer.interval() == 60_000
    tab.hide()
    assert not tab._balance_timer.isActive()
    events.ledger_changed.emit()  # hidden: remembered, not loaded
    assert not tab.loading
    tab.show()
    assert tab._balance_timer.isActive()
    assert tab.loading  # the change seen while hidden is loaded now
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")


def test_export_asks_for_the_file_without_a_nested_loop(
    qtbot, qasync_loop, tab_and_workspace, tmp_path
) -> None:
    tab, _workspace = tab_and_workspace
    exporting = qasync_loop.create_task(tab.export_csv())
    qt_wait_until(
        qtbot,
        lambda: any(d.isVisible() for d in tab.findChildren(QFileDialog)),
        "any(d.isVisible() for d in tab.findChildren(QFileDialog))",
    )
    assert not exporting.done()  # the dialog is open and the loop keeps running
    dialog = next(d for d in tab.findChildren(QFileDialog) if d.isVisible())
    target = tmp_path / "chosen.csv"
    dialog.findChild(QLineEdit, "fileNameEdit").setText(str(target))  # as a person types
    dialog.accept()
    qt_wait_until(qtbot, exporting.done, "exporting done")
    assert exporting.result() == tab.proxy.rowCount() == tab.model.rowCount()
    assert target.read_bytes().count(b"\r\n") == exporting.result() + 1


def test_a_refused_range_shows_in_the_banner(qtbot, run, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    tab.set_date_range(dt.date(2026, 11, 18), dt.date(2026, 11, 1))  # ends before it starts
    run(tab.load())
    assert tab.banner.isVisible()
    assert "before it starts" in tab.banner.detail.text()
    assert tab.model.rowCount() == 0 and tab.model.failed
    assert "could not be loaded" in tab.status.text()
    tab.set_date_range(dt.date(2026, 11, 1), dt.date(2026, 11, 18))
    tab.refresh()  # F5
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")
    assert not tab.banner.isVisible()
    assert tab.model.rowCount() > 0


def test_hiding_the_tab_stops_its_requests(qtbot, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    tab.refresh()
    assert tab.loading
    tab.hide()  # a lock hides the window before the session closes
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")
    qt_wait_until(
        qtbot, lambda: running_tasks() == 0, "running_tasks() == 0"
    )  # every request stopped, each one over
    assert not tab.banner.isVisible()
    tab.show()  # what was interrupted is loaded again
    assert tab.loading
    qt_wait_until(
        qtbot,
        lambda: not tab.loading and tab.model.rowCount() > 0,
        "not tab.loading and tab.model.rowCount() > 0",
    )
    assert not tab.model.interrupted


def test_a_failed_refresh_keeps_the_statement_and_says_it_is_stale(
    qtbot, run, tab_and_workspace
) -> None:
    tab, workspace = tab_and_workspace
    http = workspace.session.accounts.transport.http
    shown = [e.id for e in tab.model.entries()]
    assert shown and not tab.model.stale
    rule = {"path": "/api/v2/accounts/*", "rate_503": 1, "retry_after": 0}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        tab.refresh()
        qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")
        assert [e.id for e in tab.model.entries()] == shown  # nothing emptied
        assert tab.model.stale
        assert "last updated at" in tab.status.text() and "out of date" in tab.status.text()
        assert "out of date" in tab.card.updated.text()
    finally:
        run(http.delete("/sandbox/faults"))
    tab.refresh()
    qt_wait_until(qtbot, lambda: not tab.loading, "not tab.loading")
    assert not tab.model.stale and tab.model.rowCount() > 0
    assert "last updated at" not in tab.status.text()
