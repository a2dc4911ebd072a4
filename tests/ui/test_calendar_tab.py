"""The Calendar tab, driven as a person would, over a fake schedule (the scheduled payments'
interface) and fake expected receipts: the days' totals and projected balances, the warned
days and the threshold kept per profile, moving and cancelling a payment (and refusals in
words), the CSV export, and the clock moved by hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QDialog

from tests.waiting import qt_wait_until
from treasury_app.api.errors import TransportFailure
from treasury_app.domain.clock import FixedClock
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.journal import EntryKind
from treasury_app.ledger.schedule import ScheduleRefused
from treasury_app.services.calendar import (
    CalendarService,
    ExpectedInflow,
    FixedClockControl,
    Outcome,
)
from treasury_app.services.exports import ExportFormat
from treasury_app.services.schedule import ScheduleState
from treasury_app.ui.models.calendar_model import _KINDS as KINDS
from treasury_app.ui.models.calendar_model import _STATES as STATES
from treasury_app.ui.models.calendar_model import DAY_ROLE, kind_word, state_word
from treasury_app.ui.tabs.calendar_tab import THRESHOLD_KEY, CalendarTab
from treasury_app.ui.widgets.date_edits import to_qdate

NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)  # Wednesday 18/11, 10:00 in Brasília
TODAY = dt.date(2026, 11, 18)
PROFILE = "calendar-tests"


@dataclass(frozen=True)
class Scheduled:
    entry_id: str
    pay_date: dt.date
    amount: Decimal
    payee: str
    kind: str = "pix_key"
    state: str = "scheduled"
    series_id: str | None = None
    series_seq: int | None = None


class FakeSchedule:
    """The schedule's four functions over lists (journaled, planned); records what was
    asked."""

    def __init__(self, items: list[Scheduled], planned: list[Scheduled] | None = None) -> None:
        self.items = {item.entry_id: item for item in items}
        self.planned = planned or []
        self.moved: list[tuple[str, dt.date]] = []
        self.cancelled: list[tuple[str, str]] = []

    async def scheduled_between(self, workspace: Any, start: dt.date, end: dt.date) -> list[Any]:
        return [i for i in self.items.values() if start <= i.pay_date <= end]

    async def planned_between(self, workspace: Any, start: dt.date, end: dt.date) -> list[Any]:
        return [i for i in self.planned if start <= i.pay_date <= end]

    async def move_scheduled(self, workspace: Any, entry_id: str, new_date: dt.date) -> None:
        self.moved.append((entry_id, new_date))
        self.items[entry_id] = replace(self.items[entry_id], pay_date=new_date)

    async def cancel_scheduled(self, workspace: Any, entry_id: str, reason: str) -> None:
        self.cancelled.append((entry_id, reason))
        del self.items[entry_id]


class FakeInflows:
    async def inflows(self, today: dt.date, end: dt.date) -> tuple[list[Any], list[Any]]:
        expected = [
            ExpectedInflow(
                "tx1", dt.date(2026, 11, 23), Decimal("900.00"), "Cliente A", "111", "cobv"
            ),
        ]
        history = [Outcome("111", "cobv", True), Outcome("111", "cobv", False)]  # half paid
        return expected, history


def schedule() -> FakeSchedule:
    return FakeSchedule(
        [
            Scheduled("p1", dt.date(2026, 11, 19), Decimal("1500.00"), "Gráfica Ribeirão"),
            Scheduled("p2", dt.date(2026, 11, 19), Decimal("250.50"), "Aluguel", series_id="s1"),
            Scheduled("p3", dt.date(2026, 11, 24), Decimal("100.00"), "Energia", kind="billet"),
        ]
    )


def workspace(clock: FixedClock) -> SimpleNamespace:
    profile = SimpleNamespace(name=PROFILE, environment="production")
    journal = SimpleNamespace(open_entries=_no_entries)  # nothing waits for approval
    return SimpleNamespace(
        session=SimpleNamespace(profile=profile),
        clock=clock,
        ledger=SimpleNamespace(journal=journal),
    )


async def _no_entries() -> list[Any]:
    return []


@pytest.fixture
def make_tab(qtbot: Any, settle: Callable[..., Any]) -> Callable[..., CalendarTab]:
    QSettings().remove(THRESHOLD_KEY.format(profile=PROFILE))

    def maker(source: Any = None, *, control: bool = False, inflows: Any = None) -> CalendarTab:
        clock = FixedClock(NOW)
        space = workspace(clock)
        service = CalendarService(
            space,
            outflows=source if source is not None else schedule(),
            inflows=inflows or FakeInflows(),
            balance=_balance,
            clock=clock,
        )
        tab = CalendarTab(
            space, service=service, clock_control=FixedClockControl(clock) if control else None
        )
        qtbot.addWidget(tab)
        settle(tab.task)
        return tab

    return maker


async def _balance() -> Decimal:
    return Decimal("1000.00")


def cell(tab: CalendarTab, day: dt.date) -> Any:
    return tab.grid_model.index_of(day)


def test_each_day_shows_what_leaves_comes_in_and_the_projected_balance(
    make_tab: Callable[..., CalendarTab],
) -> None:
    tab = make_tab()
    assert tab.grid_model.rowCount() == 13 and tab.grid_model.columnCount() == 7
    monday = cell(tab, dt.date(2026, 11, 16))
    assert monday.data() is None  # before today: nothing
    thursday = cell(tab, dt.date(2026, 11, 19)).data()
    assert thursday.split("\n") == ["19/11", "− R$ 1.750,50", "= -R$ 750,50"]
    monday_23 = cell(tab, dt.date(2026, 11, 23)).data()
    assert monday_23.split("\n") == ["23/11", "+ R$ 450,00", "= -R$ 300,50"]
    assert "R$ 1.000,00" in tab.balance_label.text()
    assert tab.selected_day() is None and tab.items_model.rowCount() == 0
    assert tab.day_label.text() == "Click a day to see its payments and receipts."


def test_days_below_zero_are_tinted_and_say_why(make_tab: Callable[..., CalendarTab]) -> None:
    tab = make_tab()
    below = cell(tab, dt.date(2026, 11, 19))
    assert below.data(Qt.ItemDataRole.BackgroundRole) is not None
    assert below.data(Qt.ItemDataRole.ToolTipRole) == "Projected balance below zero"
    assert cell(tab, TODAY).data(Qt.ItemDataRole.BackgroundRole) is None
    assert "⚠ 88 day(s) below the line" in tab.summary_label.text()  # from 19/11 to 14/02


def test_the_threshold_marks_days_and_is_kept_for_the_profile(
    make_tab: Callable[..., CalendarTab],
) -> None:
    tab = make_tab()
    assert cell(tab, TODAY).data(Qt.ItemDataRole.ToolTipRole) is None
    tab.set_threshold(Decimal("1500"))
    assert cell(tab, TODAY).data(Qt.ItemDataRole.ToolTipRole) == (
        "Projected balance below your threshold of R$ 1.500,00"
    )
    again = make_tab()  # a new tab of the same profile
    assert again.threshold() == Decimal("1500.00")
    assert cell(again, TODAY).data(Qt.ItemDataRole.BackgroundRole) is not None
    with pytest.raises(RuleError):
        tab.set_threshold(Decimal("-1"))


def test_a_day_opens_its_list(make_tab: Callable[..., CalendarTab]) -> None:
    tab = make_tab()
    tab.grid.setCurrentIndex(cell(tab, dt.date(2026, 11, 19)))
    assert tab.items_model.rowCount() == 2
    names = [tab.items_model.index(r, 2).data() for r in range(2)]
    assert names == ["Aluguel", "Gráfica Ribeirão"]
    assert "19/11/2026" in tab.day_label.text() and "below zero" in tab.day_label.text()
    tab.grid.setCurrentIndex(cell(tab, dt.date(2026, 11, 23)))
    assert tab.items_model.index(0, 0).data() == "In"
    assert tab.items_model.index(0, 4).data() == "R$ 450,00"
    assert tab.items_model.index(0, 5).data() == "50% (this payer paid 1 of 2)"
    tab.items.selectRow(0)
    assert not tab.move_button.isEnabled()  # a receipt is not moved from here


def test_a_payment_is_moved_with_the_date_picker(
    make_tab: Callable[..., CalendarTab], qtbot: Any, settle: Callable[..., Any]
) -> None:
    source = schedule()
    tab = make_tab(source)
    tab.select_day(dt.date(2026, 11, 19))
    assert tab.select_item("out:p1")
    qtbot.mouseClick(tab.move_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, lambda: tab.move_dialog is not None, "the move dialog")
    assert tab.move_dialog is not None
    tab.move_dialog.date.setDate(to_qdate(dt.date(2026, 11, 26)))
    tab.move_dialog.done(QDialog.DialogCode.Accepted)
    assert settle(tab.task) is True
    assert source.moved == [("p1", dt.date(2026, 11, 26))]
    assert tab.selected_day().day == dt.date(2026, 11, 26)
    assert tab.items_model.index(0, 2).data() == "Gráfica Ribeirão"
    assert cell(tab, dt.date(2026, 11, 19)).data().split("\n")[1] == "− R$ 250,50"


def test_a_move_to_a_holiday_is_refused_in_words(
    make_tab: Callable[..., CalendarTab], run: Callable[..., Any]
) -> None:
    source = schedule()
    tab = make_tab(source)
    assert run(tab.move_payment("p1", dt.date(2026, 11, 20))) is False  # Consciência Negra
    assert source.moved == []
    assert tab.banner.detail.text() == (
        "20/11/2026 is not a business day: choose a day the banks settle on."
    )


def test_a_payment_is_cancelled_with_a_reason(
    make_tab: Callable[..., CalendarTab], qtbot: Any, settle: Callable[..., Any]
) -> None:
    source = schedule()
    tab = make_tab(source)
    tab.select_day(dt.date(2026, 11, 24))
    assert tab.select_item("out:p3")
    qtbot.mouseClick(tab.cancel_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, lambda: tab.reason_dialog is not None, "the reason dialog")
    assert tab.reason_dialog is not None
    tab.reason_dialog.setTextValue("  paga em  dinheiro ")
    tab.reason_dialog.done(QDialog.DialogCode.Accepted)
    assert settle(tab.task) is True
    assert source.cancelled == [("p3", "paga em dinheiro")]
    assert tab.items_model.rowCount() == 0


def test_what_the_schedule_refuses_is_said_in_words(
    make_tab: Callable[..., CalendarTab], run: Callable[..., Any]
) -> None:
    tab = make_tab(Refusing())
    assert run(tab.cancel_payment("7", "não precisa mais")) is False
    assert tab.banner.detail.text() == (
        "This scheduled payment has already left or ended: it cannot change now."
    )


class Refusing(FakeSchedule):
    """The engine's refusal of a payment that left meanwhile (``scheduled.not_waiting``)."""

    def __init__(self) -> None:
        super().__init__([])

    async def cancel_scheduled(self, workspace: Any, entry_id: str, reason: str) -> None:
        raise ScheduleRefused("scheduled.not_waiting", int(entry_id))


def test_every_state_and_kind_of_the_engine_has_words() -> None:
    assert {state.value for state in ScheduleState} <= set(STATES)
    assert {kind.value.lower() for kind in EntryKind} <= set(KINDS)
    assert state_word(ScheduleState.WAITING_APPROVAL) == "Waiting for approval"
    assert kind_word(EntryKind.PIX_MANU) == "Pix by bank data"


def test_the_export_is_a_spreadsheet_of_the_days(
    make_tab: Callable[..., CalendarTab], tmp_path: Path
) -> None:
    tab = make_tab()
    path = tmp_path / "calendario.csv"
    assert tab.export_csv(path, ExportFormat.EXCEL) == len(tab.projection.days)  # type: ignore[union-attr]
    data = path.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    lines = data.decode("utf-8-sig").split("\r\n")
    assert lines[0] == (
        "Date;Business day;Out;Out planned in series;In expected;In counted;Projected balance;"
        "Payments and receipts;Warning"
    )
    assert lines[1] == "18/11/2026;Yes;0,00;0,00;0,00;0,00;1000,00;0;"
    assert lines[2] == (
        "19/11/2026;Yes;1750,50;0,00;0,00;0,00;-750,50;2;Projected balance below zero"
    )
    assert lines[3].startswith("20/11/2026;No;")
    assert lines[6] == (
        "23/11/2026;Yes;0,00;0,00;900,00;450,00;-300,50;1;Projected balance below zero"
    )


def test_moving_the_clock_a_day_moves_today(
    make_tab: Callable[..., CalendarTab], qtbot: Any, settle: Callable[..., Any]
) -> None:
    tab = make_tab(control=True)
    assert tab.clock_label.text() == "Sandbox clock: 18/11/2026 10:00"
    qtbot.mouseClick(tab.clock_buttons[1], Qt.MouseButton.LeftButton)
    assert settle(tab.task) is True
    assert tab.projection is not None and tab.projection.today == dt.date(2026, 11, 19)
    assert tab.clock_label.text() == "Sandbox clock: 19/11/2026 10:00"
    assert cell(tab, TODAY).data() is None  # yesterday now
    qtbot.mouseClick(tab.clock_buttons[2], Qt.MouseButton.LeftButton)  # next business morning
    assert settle(tab.task) is True
    assert tab.clock_label.text() == "Sandbox clock: 23/11/2026 08:00"  # past the holiday
    today = tab.projection.day(dt.date(2026, 11, 23))
    assert today is not None
    late = [o for o in today.outflows if o.late]
    assert sorted(o.entry_id for o in late) == ["p1", "p2"]  # their day passed: counted today
    assert cell(tab, dt.date(2026, 11, 23)).data(DAY_ROLE) is today


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def test_the_calendar_speaks_portuguese(
    portuguese: None, make_tab: Callable[..., CalendarTab], tmp_path: Path
) -> None:
    tab = make_tab()
    assert tab.grid_model.headerData(0, Qt.Orientation.Horizontal) == "Seg"
    assert cell(tab, dt.date(2026, 11, 19)).data(Qt.ItemDataRole.ToolTipRole) == (
        "Saldo projetado abaixo de zero"
    )
    tab.select_day(dt.date(2026, 11, 23))
    assert tab.items_model.index(0, 0).data() == "Entrada"
    assert tab.items_model.index(0, 1).data() == "Cobrança com vencimento"
    assert tab.items_model.index(0, 5).data() == "50% (este pagador pagou 1 de 2)"
    assert "saldo projetado -R$ 300,50" in tab.day_label.text()
    tab.select_day(dt.date(2026, 11, 19))
    assert tab.items_model.index(0, 5).data() == "Agendado"
    path = tmp_path / "calendario.csv"
    tab.export_csv(path, ExportFormat.EXCEL)
    header, first = path.read_bytes().decode("utf-8-sig").split("\r\n")[:2]
    assert header == (
        "Data;Dia útil;Saída;Saída prevista em séries;Entradas previstas;Entradas consideradas;"
        "Saldo projetado;Pagamentos e recebimentos;Alerta"
    )
    assert first == "18/11/2026;Sim;0,00;0,00;0,00;0,00;1000,00;0;"


def with_planned() -> FakeSchedule:
    """The schedule, and two occurrences of series "s1" not journaled yet (Aluguel's, monthly):
    one whose number is journaled already as p2 (read twice, counted once) and the next."""
    planned = [
        Scheduled(
            "planned:s1:0",
            dt.date(2026, 11, 19),
            Decimal("250.50"),
            "Aluguel",
            state="planned",
            series_id="s1",
            series_seq=0,
        ),
        Scheduled(
            "planned:s1:1",
            dt.date(2026, 12, 21),
            Decimal("300.00"),
            "Aluguel",
            state="planned",
            series_id="s1",
            series_seq=1,
        ),
    ]
    source = schedule()
    source.items["p2"] = replace(source.items["p2"], series_seq=0)
    source.planned = planned
    return source


def test_a_planned_occurrence_shows_read_only_counted_and_exported(
    make_tab: Callable[..., CalendarTab], run: Callable[..., Any], tmp_path: Path
) -> None:
    """A series' occurrence not journaled yet is on its day, in its totals and the balance,
    marked planned; it is changed through its series (not moved nor cancelled by itself);
    the export says how much of the day's out is planned."""
    tab = make_tab(with_planned())
    assert tab.projection is not None and tab.projection.planned == 1
    assert "1 of them planned in series" in tab.summary_label.text()
    assert cell(tab, dt.date(2026, 12, 21)).data().split("\n") == [
        "21/12",
        "− R$ 300,00",
        "= -R$ 700,50",
    ]
    assert cell(tab, dt.date(2026, 12, 21)).data(Qt.ItemDataRole.ToolTipRole) == (
        "Projected balance below zero\n1 planned occurrence(s) of a series, not journaled yet"
    )
    # 1000 - (1500 + 250.50 + 100 + 300) + 450 (the receipt, weighted)
    assert tab.projection.days[-1].balance == Decimal("-700.50")
    tab.select_day(dt.date(2026, 11, 19))  # p2 journaled: its planned twin not counted again
    assert tab.items_model.rowCount() == 2
    assert tab.projection.day(dt.date(2026, 11, 19)).out_total == Decimal("1750.50")  # type: ignore[union-attr]

    tab.select_day(dt.date(2026, 12, 21))
    assert tab.select_item("out:planned:s1:1")
    texts = [tab.items_model.index(0, c).data() for c in range(6)]
    assert texts == [
        "Out",
        "Pix by key",
        "Aluguel",
        "R$ 300,00",
        "-R$ 300,00",
        "Planned: next in its series, not journaled yet",
    ]
    assert tab.items_model.index(0, 2).data(Qt.ItemDataRole.FontRole).italic()
    assert not tab.move_button.isEnabled() and not tab.cancel_button.isEnabled()
    assert "through its series" in tab.move_button.toolTip()
    assert tab.series_edit_button.isEnabled() and tab.series_end_button.isEnabled()
    with pytest.raises(RuleError) as refused:
        run(tab.service.cancel("planned:s1:1", "não"))
    assert refused.value.code == "calendar.planned_occurrence"

    path = tmp_path / "calendario.csv"
    tab.export_csv(path, ExportFormat.EXCEL)
    lines = path.read_bytes().decode("utf-8-sig").split("\r\n")
    [row] = [line for line in lines if line.startswith("21/12/2026;")]
    assert row == "21/12/2026;Yes;300,00;300,00;0,00;0,00;-700,50;1;Projected balance below zero"


class FailingInflows:
    """The QR Codes API down: the charges cannot be read."""

    async def inflows(self, today: dt.date, end: dt.date) -> tuple[list[Any], list[Any]]:
        raise TransportFailure("connection refused", method="GET", path="/cobv", request_sent=False)


def test_the_calendar_shows_what_leaves_when_the_charges_cannot_be_read(
    make_tab: Callable[..., CalendarTab],
) -> None:
    tab = make_tab(inflows=FailingInflows())
    projection = tab.projection
    assert projection is not None and projection.inflows_unavailable
    assert not tab.banner.isVisibleTo(tab)  # not a failed load
    assert {o.entry_id for o in projection.day(dt.date(2026, 11, 19)).outflows} == {"p1", "p2"}  # type: ignore[union-attr]
    assert projection.day(dt.date(2026, 11, 23)).inflows == ()  # type: ignore[union-attr]
    assert projection.days[-1].balance == Decimal("1000.00") - Decimal("1850.50")
    assert "expected receipts unavailable" in tab.summary_label.text()
