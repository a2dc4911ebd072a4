"""The statement model on its own: 10,000 fabricated entries from a fake page source, read
lazily as the view scrolls, kept as compact rows, filtered, sorted by value and exported as
CSV."""

from __future__ import annotations

import asyncio
import csv
import datetime as dt
import gc
import io
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QTableView

from tests.waiting import qt_wait_until
from treasury_app.api.accounts.models import CreditDebitType, Transaction, TransactionType
from treasury_app.services.statement import CSV_COLUMNS, CSV_DELIMITER, csv_text
from treasury_app.ui.models.statement_model import (
    ENTRY_ROLE,
    SORT_ROLE,
    Column,
    Party,
    StatementFilterProxy,
    StatementModel,
    StatementRow,
    export_rows,
)

TOTAL = 10_000
PAGE = 500
NEWEST = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


def fabricate(count: int = TOTAL) -> list[Transaction]:
    """Newest first, like the bank; every 3rd entry a credit; amounts from R$ 0,07 up."""
    entries = []
    for i in range(count):
        credit = i % 3 == 0
        name = f"Cliente Ribeirão {i % 37}" if credit else f"Gráfica Fornecedor {i % 100}"
        entries.append(
            Transaction(
                id=TOTAL - i,
                created_at=NEWEST - dt.timedelta(minutes=13 * i),
                credit_debit_type="CREDIT" if credit else "DEBIT",
                transaction_type="PIX" if i % 5 else "BILLET",
                amount=Decimal(i % 997) + Decimal(7 + i % 90) / 100,
                description=("Pix recebido de " if credit else "Pagamento a ") + name,
                counterparty={"name": name, "document": "11222333000181"},
                end_to_end_id=f"E99999010202611181300{i:011d}",
            )
        )
    return entries


class FakeSource:
    """``StatementService.pages``'s interface over a list; counts the pages asked for."""

    def __init__(self, entries: list[Transaction]) -> None:
        self.entries = entries
        self.asked = 0
        self.in_flight = 0
        self.most_in_flight = 0

    async def pages(self, start, end, page_size=100, *, credit_debit=None, transaction_type=None):
        for first in range(0, len(self.entries), page_size):
            self.asked += 1
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                await asyncio.sleep(0.005)  # the bank takes a moment (a fake's, not a wait)
            finally:
                self.in_flight -= 1  # answered or given up on
            yield self.entries[first : first + page_size]


@pytest.fixture(scope="module")
def entries() -> list[Transaction]:
    return fabricate()


@pytest.fixture
def table(qtbot, entries):
    source = FakeSource(entries)
    model = StatementModel()
    proxy = StatementFilterProxy()
    proxy.setSourceModel(model)
    view = QTableView()
    view.setModel(proxy)
    view.resize(900, 400)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitExposed(view)
    model.load(source, dt.date(2026, 1, 1), dt.date(2026, 11, 18), PAGE)
    return source, model, proxy, view


def load_everything(qtbot, run, model) -> None:
    assert run(model.fetch_all())
    assert model.rowCount() == TOTAL


def test_the_view_reads_pages_only_as_it_scrolls(qtbot, table) -> None:
    source, model, proxy, view = table
    qt_wait_until(
        qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE"
    )  # the empty view asked for a first page
    seen = [model.rowCount()]
    while model.rowCount() < TOTAL:
        before = model.rowCount()
        QApplication.processEvents()  # what the view does unasked, it does now
        assert not model.loading and source.in_flight == 0  # nothing read without scrolling
        assert model.rowCount() == before
        view.scrollToBottom()
        qt_wait_until(
            qtbot, lambda before=before: model.rowCount() > before, "model.rowCount() > before"
        )
        seen.append(model.rowCount())
    assert seen == list(range(PAGE, TOTAL + 1, PAGE))  # one page at a time
    assert source.asked == TOTAL // PAGE
    assert source.most_in_flight == 1
    view.scrollToBottom()
    QApplication.processEvents()
    assert not model.loading and source.in_flight == 0
    assert not model.canFetchMore()
    assert model.complete
    assert proxy.rowCount() == TOTAL


def test_fetch_more_never_starts_a_second_fetch(qtbot, run, table) -> None:
    source, model, _proxy, _view = table
    qt_wait_until(qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE")
    for _ in range(5):
        model.fetchMore()
    assert model.loading
    qt_wait_until(qtbot, lambda: not model.loading, "not model.loading")
    assert model.rowCount() == 2 * PAGE
    assert source.most_in_flight == 1


def test_reset_drops_the_page_on_its_way(qtbot, run, table, entries) -> None:
    source, model, _proxy, _view = table
    qt_wait_until(qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE")
    model.fetchMore()
    other = FakeSource(entries[:3])
    model.load(other, dt.date(2026, 1, 1), dt.date(2026, 1, 2), PAGE)
    run(model.fetch_all())
    qt_wait_until(
        qtbot, lambda: source.in_flight == 0, "source.in_flight == 0"
    )  # the first source's page: answered or not
    assert [e.id for e in model.entries()] == [e.id for e in entries[:3]]


def test_filters_keep_the_right_rows(qtbot, run, table, entries) -> None:
    _source, model, proxy, _view = table
    load_everything(qtbot, run, model)

    def shown() -> list[int]:
        return [int(e.id) for e in proxy.entries()]

    proxy.set_text("graFICA fornecedor 42")  # case and accents ignored
    expected = [int(e.id) for e in entries if "Fornecedor 42" in (e.description or "")]
    assert expected and sorted(shown()) == sorted(expected)

    proxy.set_text("ribeirao")  # counterparty with an accent in the data
    assert sorted(shown()) == sorted(int(e.id) for e in entries if e.credit_debit_type == "CREDIT")

    proxy.set_text("")
    proxy.set_direction("DEBIT")
    assert sorted(shown()) == sorted(int(e.id) for e in entries if e.credit_debit_type == "DEBIT")

    proxy.set_amount_range(Decimal("100.00"), Decimal("100.50"))
    expected = [
        int(e.id)
        for e in entries
        if e.credit_debit_type == "DEBIT" and Decimal("100.00") <= e.amount <= Decimal("100.50")
    ]
    assert expected and sorted(shown()) == sorted(expected)

    proxy.set_direction(None)
    proxy.set_amount_range(None, Decimal("0.10"))
    assert sorted(shown()) == sorted(int(e.id) for e in entries if e.amount <= Decimal("0.10"))
    proxy.set_amount_range(None, None)
    assert proxy.rowCount() == TOTAL


def test_amount_and_date_sort_by_value(qtbot, run, table) -> None:
    _source, model, proxy, _view = table
    load_everything(qtbot, run, model)
    proxy.sort(Column.AMOUNT, Qt.SortOrder.AscendingOrder)
    signed = [e.signed_amount for e in proxy.entries()]
    assert signed == sorted(signed)
    assert signed[0] < 0 < signed[-1]  # debits are negative: the biggest one first
    top = proxy.index(0, Column.AMOUNT)
    assert proxy.data(top, SORT_ROLE) == signed[0]
    assert proxy.data(top).startswith("\u2212R$ ")
    assert proxy.data(top, Qt.ItemDataRole.TextAlignmentRole) & Qt.AlignmentFlag.AlignRight

    proxy.sort(Column.AMOUNT, Qt.SortOrder.DescendingOrder)
    signed = [e.signed_amount for e in proxy.entries()]
    assert signed == sorted(signed, reverse=True)

    proxy.sort(Column.DATE, Qt.SortOrder.AscendingOrder)
    moments = [e.created_at for e in proxy.entries()]
    assert moments == sorted(moments)
    assert isinstance(proxy.data(proxy.index(0, Column.DATE), SORT_ROLE), dt.datetime)


def test_cells_show_money_and_direction_without_colour(qtbot, run, table, entries) -> None:
    _source, model, _proxy, _view = table
    qt_wait_until(qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE")
    credit, debit = entries[0], entries[1]
    assert model.data(model.index(0, Column.AMOUNT)) == "R$ " + f"{credit.amount:.2f}".replace(
        ".", ","
    )
    assert model.data(model.index(1, Column.AMOUNT)).startswith("\u2212R$ ")
    assert "Credit" in model.data(model.index(0, Column.DIRECTION))
    assert "Debit" in model.data(model.index(1, Column.DIRECTION))
    assert model.data(model.index(1, 0), ENTRY_ROLE) == StatementRow.of(debit)
    assert model.data(model.index(0, Column.COUNTERPARTY)) == credit.counterparty.name
    assert model.data(model.index(0, Column.TYPE)) == "Boleto"  # entry 0 is a BILLET


def test_csv_export_is_what_the_proxy_shows(qtbot, run, table, tmp_path) -> None:
    _source, model, proxy, _view = table
    load_everything(qtbot, run, model)
    proxy.set_direction("CREDIT")
    proxy.set_amount_range(Decimal("500"), None)
    proxy.sort(Column.AMOUNT, Qt.SortOrder.DescendingOrder)
    shown = proxy.entries()
    target = tmp_path / "statement.csv"
    assert export_rows(proxy, target) == len(shown) > 0
    with target.open(newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle, delimiter=CSV_DELIMITER))
    assert tuple(rows[0].keys()) == CSV_COLUMNS
    assert [row["id"] for row in rows] == [str(e.id) for e in shown]
    for row, entry in zip(rows, shown, strict=True):
        assert Decimal(row["amount"]) == entry.amount
        assert Decimal(row["signed_amount"]) == entry.signed_amount
        assert dt.datetime.fromisoformat(row["created_at"]) == entry.created_at
        assert row["credit_debit"] == "CREDIT"
    amounts = [Decimal(row["amount"]) for row in rows]
    assert amounts == sorted(amounts, reverse=True)


def test_rows_arriving_after_a_sort_join_their_places(qtbot, run, table) -> None:
    _source, model, proxy, view = table
    qt_wait_until(qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE")
    view.setSortingEnabled(True)
    view.sortByColumn(Column.AMOUNT, Qt.SortOrder.AscendingOrder)  # what a header click does
    proxy.set_direction("CREDIT")
    view.selectRow(3)
    chosen = proxy.entry(3)
    run(model.fetch_page())
    run(model.fetch_page())
    assert model.rowCount() == 3 * PAGE
    signed = [e.signed_amount for e in proxy.entries()]
    assert signed == sorted(signed)
    assert all(e.credit_debit_type == "CREDIT" for e in proxy.entries())
    current = view.selectionModel().currentIndex()
    assert proxy.entry(current.row()) == chosen  # the selection follows its entry
    view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
    model.sort(-1)
    assert [e.id for e in model.entries()] == sorted((e.id for e in model.entries()), reverse=True)


def test_pages_in_the_sorted_order_are_inserted_not_laid_out_again(qtbot, run, table) -> None:
    """Newest first (the tab's default) and pages arriving newest first: each page is a plain
    insertion at the end, so the proxy filters only the new rows (a layout change would make
    it re-filter every loaded row on every page: quadratic over a long statement)."""
    _source, model, _proxy, view = table
    qt_wait_until(qtbot, lambda: model.rowCount() == PAGE, "model.rowCount() == PAGE")
    view.setSortingEnabled(True)
    view.sortByColumn(Column.DATE, Qt.SortOrder.DescendingOrder)
    layouts: list[int] = []
    inserted: list[int] = []
    model.layoutChanged.connect(lambda *_: layouts.append(1))
    model.rowsInserted.connect(lambda *_: inserted.append(1))
    run(model.fetch_page())
    run(model.fetch_page())
    assert len(inserted) == 2 and layouts == []
    dates = [model.entry_at(row).created_at for row in range(model.rowCount())]
    assert dates == sorted(dates, reverse=True)


def test_a_row_keeps_what_the_table_reads_of_an_entry(qtbot, entries) -> None:
    entry = Transaction(
        id=77,
        created_at=NEWEST,
        credit_debit_type="DEBIT",
        transaction_type="PIX",
        amount=Decimal("1234.56"),
        balance_after=Decimal("-0.01"),
        description="Pagamento a Gráfica",
        counterparty={"name": "Gráfica", "document": "11222333000181", "ispb": "99999010"},
        end_to_end_id="E99999010202611181300000000077",
        tx_id="tx77",
        payment_id=5,
    )
    row = StatementRow.of(entry)
    for name in ("id", "created_at", "amount", "balance_after", "description", "payment_id"):
        assert getattr(row, name) == getattr(entry, name)
    assert row.end_to_end_id == entry.end_to_end_id
    assert row.amount is entry.amount and isinstance(row.signed_amount, Decimal)  # never float
    assert row.signed_amount == entry.signed_amount == Decimal("-1234.56")
    assert row.credit_debit_type == CreditDebitType.DEBIT and type(row.credit_debit_type) is str
    assert row.transaction_type == TransactionType.PIX
    assert row.counterparty == Party("Gráfica", "11222333000181")
    assert not hasattr(row, "__dict__")
    model = StatementModel()  # the detail pane labels the whole entry, the table its row
    assert model.type_label(row) == model.type_label(entry) == "Pix"
    assert model.direction_label(row) == model.direction_label(entry)
    without = StatementRow.of(entry.model_copy(update={"counterparty": None}))
    assert without.counterparty is None and without.counterparty_name is None

    first = StatementRow.of(entries[3])
    other = StatementRow.of(entries[114])  # another credit Pix of the same counterparty
    assert other.end_to_end_id != first.end_to_end_id
    for name in ("credit_debit_type", "transaction_type", "description", "counterparty_name"):
        assert getattr(other, name) is getattr(first, name)  # one string for every row


def test_stored_rows_are_not_tracked_by_the_garbage_collector(qtbot, run, table) -> None:
    """Tracked rows made each full collection walk all of them: long stalls of the loop."""
    _source, model, _proxy, _view = table
    load_everything(qtbot, run, model)
    gc.collect()
    assert not any(gc.is_tracked(row) for row in model._rows)


def test_the_rows_give_the_csv_of_their_entries(qtbot, run, table, entries) -> None:
    _source, model, proxy, _view = table
    load_everything(qtbot, run, model)
    buffer = io.StringIO(newline="")
    assert export_rows(proxy, buffer) == TOTAL
    assert buffer.getvalue() == csv_text(entries)  # same columns, text and amounts
