"""Editing and ending a recurring payout from where a person sees an occurrence (issue 35):
the payments list's details and the calendar's day list, on a sandbox bank of its own (its
clock at Wednesday 18/11/2026 10:00 Brasília, never moved here) and the file ledger. The
review says which occurrences change, which are cancelled and which stay (sent)."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger.journal import EntryState
from treasury_app.services.exports import ExportFormat
from treasury_app.ui.dialogs.series_dialog import SeriesEditDialog, SeriesEndDialog
from treasury_app.ui.tabs.calendar_tab import CalendarTab
from treasury_app.ui.widgets.date_edits import to_qdate
from treasury_app.ui.widgets.payments_list import PaymentsList
from treasury_app.ui.widgets.repeat_edit import EVERY_DAYS

TODAY = dt.date(2026, 11, 18)


@pytest.fixture
def workspace(own_workspace: Any) -> Any:
    return own_workspace


def _series(run: Any, workspace: Any, key: str, amount: str, rule: SeriesRule) -> tuple[str, Any]:
    review = run(workspace.payouts.prepare_key(key, amount, description="contrato"))
    return run(workspace.schedule.create_series(review, rule))


def _dialog(qtbot: Any, owner: Any, kind: type) -> Any:
    qt_wait_until(qtbot, lambda: isinstance(owner.series_dialog, kind), "the series' dialog")
    return owner.series_dialog


def _click(qtbot: Any, button: Any) -> None:
    """Click ``button`` once it is enabled again (after the task before it: its done callback
    runs after the task is seen done)."""
    qt_wait_until(qtbot, button.isEnabled, f"{button.text()} enabled")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_edit_series_from_the_payments_list_says_what_changes_and_what_stays(
    workspace: Any, qtbot: Any, run: Any, settle: Any, tmp_path: Path
) -> None:
    assert workspace.schedule.today() == TODAY
    rule = SeriesRule(Frequency.WEEKLY, TODAY, count=8)
    series_id, made = _series(run, workspace, "limpeza@empresa.com.br", "300,00", rule)
    [sent] = run(workspace.schedule.send_due())  # today's, at 10:00: it left
    assert sent.id == made[0].id and sent.state != EntryState.PREPARED
    waiting = made[1:]
    lone = run(
        workspace.payouts.send(run(workspace.payouts.prepare_key("avulso@empresa.com.br", "1,00")))
    )

    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1200, 700)
    widget.show()
    assert settle(widget.refresh_task) is True
    assert widget.select_entry(waiting[0].id)
    assert widget.series_edit_button.isVisible() and widget.series_end_button.isVisible()

    _click(qtbot, widget.series_edit_button)
    dialog: SeriesEditDialog = _dialog(qtbot, widget, SeriesEditDialog)
    assert dialog.amount.value() == Decimal("300.00")
    assert dialog.description.text() == "contrato"
    assert not dialog.confirm_button.isEnabled()  # a review first

    # Other dates starting on the day already paid: refused in words, on the field.
    dialog.repeat.set_repeat(EVERY_DAYS, 14, times=3)
    _click(qtbot, dialog.review_button)
    assert settle(dialog.task) is False
    assert "must come after the last one that stays (18/11/2026" in dialog.banner.detail.text()
    assert not dialog.confirm_button.isEnabled()

    # Back to weekly (its own dates), a new amount: the payments not sent change, the sent one
    # stays.
    dialog.repeat.set_repeat(1, times=8)
    dialog.amount.setText("350,00")
    _click(qtbot, dialog.review_button)
    assert settle(dialog.task) is True, dialog.banner.detail.text()
    text = dialog.review_label.text()
    assert f"Change ({len(waiting)}):" in text
    assert "25/11/2026  R$ 300,00 → R$ 350,00" in text
    assert "Stay as they are, already approved or sent (1):\n  18/11/2026  R$ 300,00" in text
    assert "Cancelled" not in text
    _click(qtbot, dialog.confirm_button)
    assert settle(dialog.task) is True
    assert settle(widget.series_task) is True
    journal = workspace.ledger.journal
    assert {run(journal.get(e.id)).amount for e in waiting} == {Decimal("350.00")}
    assert run(journal.get(sent.id)).amount == Decimal("300.00")
    assert run(workspace.schedule.series_terms(series_id)).amount == Decimal("350.00")
    qt_wait_until(  # the list follows
        qtbot,
        lambda: (
            widget.selected_entry() is not None
            and widget.selected_entry().amount == Decimal("350.00")
        ),
        "the changed amount listed",
    )

    assert widget.select_entry(lone.id)  # a payment of no series: no series buttons
    assert not widget.series_edit_button.isVisible()

    # The export says each payment's day: Excel's dd/mm/yyyy, ISO for machines, empty for a
    # payment sent at once.
    for export_format, day in (
        (ExportFormat.EXCEL, "25/11/2026"),
        (ExportFormat.MACHINE, "2026-11-25"),
    ):
        path = tmp_path / f"pagamentos-{export_format.value}.csv"
        widget.export_csv(path, export_format)
        rows = list(csv.reader(io.StringIO(path.read_bytes().decode("utf-8-sig")), delimiter=";"))
        assert rows[0][-1] == "Pay on"
        pay_on = {row[-1] for row in rows[1:]}
        assert day in pay_on and "" in pay_on
    widget.shutdown()


def test_edit_and_end_series_from_the_calendars_day_list(
    workspace: Any, qtbot: Any, run: Any, settle: Any
) -> None:
    rule = SeriesRule(Frequency.WEEKLY, dt.date(2026, 11, 24), count=4)
    series_id, made = _series(run, workspace, "aluguel@empresa.com.br", "1.000,00", rule)
    assert [e.pay_date for e in made] == [
        dt.date(2026, 11, 24),
        dt.date(2026, 12, 1),
        dt.date(2026, 12, 8),
        dt.date(2026, 12, 15),
    ]
    tab = CalendarTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1300, 760)
    tab.show()
    assert settle(tab.task) is not None, tab.banner.detail.text()
    assert tab.select_day(made[0].pay_date) and tab.select_item(f"out:{made[0].id}")
    assert tab.series_edit_button.isEnabled() and tab.series_end_button.isEnabled()

    # Every 14 days from 25/11: the four are cancelled, the new ones journaled.
    _click(qtbot, tab.series_edit_button)
    dialog: SeriesEditDialog = _dialog(qtbot, tab, SeriesEditDialog)
    dialog.start.setDate(to_qdate(dt.date(2026, 11, 25)))
    dialog.repeat.set_repeat(EVERY_DAYS, 14, times=3)
    _click(qtbot, dialog.review_button)
    assert settle(dialog.task) is True, dialog.banner.detail.text()
    text = dialog.review_label.text()
    assert "Cancelled, no longer on the series' dates (4):" in text
    assert "New, within the next days (3): 25/11/2026, 09/12/2026, 23/12/2026" in text
    _click(qtbot, dialog.confirm_button)
    assert settle(dialog.task) is True
    assert settle(tab.task) is True
    assert {run(workspace.ledger.journal.get(e.id)).state for e in made} == {EntryState.REJECTED}
    fresh = [
        e
        for e in run(workspace.ledger.schedule.of_series(series_id))
        if e.id not in {m.id for m in made}
    ]
    assert [e.pay_date for e in fresh] == [
        dt.date(2026, 11, 25),
        dt.date(2026, 12, 9),
        dt.date(2026, 12, 23),
    ]
    assert tab.select_day(dt.date(2026, 11, 24))
    assert tab.items_model.row_of(f"out:{made[0].id}") is None  # gone from its old day

    # End it from its new day, with a reason: all cancelled, the calendar read again.
    assert tab.select_day(dt.date(2026, 11, 25)) and tab.select_item(f"out:{fresh[0].id}")
    _click(qtbot, tab.series_end_button)
    ending: SeriesEndDialog = _dialog(qtbot, tab, SeriesEndDialog)
    assert ending.width() >= 520  # its sentence (payee and amount) is not squeezed to 230 px
    assert "Cancelled (3):\n  25/11/2026  R$ 1.000,00\n  09/12/2026  R$ 1.000,00" in (
        ending.review_label.text()
    )
    assert not ending.confirm_button.isEnabled()  # a reason first
    ending.reason.setText("contrato encerrado")
    _click(qtbot, ending.confirm_button)
    assert settle(ending.task) is True, ending.banner.detail.text()
    assert settle(tab.task) is True
    assert {run(workspace.ledger.journal.get(e.id)).state for e in fresh} == {EntryState.REJECTED}
    assert not run(workspace.schedule.series_terms(series_id)).active
    assert tab.select_day(dt.date(2026, 11, 25))
    assert tab.items_model.row_of(f"out:{fresh[0].id}") is None


@pytest.mark.parametrize(
    ("lang", "planned", "more"),
    [
        (
            "en",
            "Not made any more, in the next 13 weeks (2): 05/01/2027, 05/02/2027",
            ", and those after them",
        ),
        (
            "pt_BR",
            "Não serão mais feitos, nas próximas 13 semanas (2): 05/01/2027, 05/02/2027",
            ", nem os seguintes",
        ),
    ],
)
def test_an_end_review_names_the_payments_not_made_any_more(
    qapp: Any, restore_translation: Any, lang: str, planned: str, more: str
) -> None:
    """Ending a series stops what it has not journaled yet too: its review says so, with the
    dates within the calendar's weeks and whether more come after them."""
    from treasury_app.app import install_translator
    from treasury_app.services.schedule import SeriesChange, SeriesTerms
    from treasury_app.ui.dialogs.series_dialog import review_text

    if lang != "en":
        assert install_translator(qapp, lang) == lang
    rule = SeriesRule(Frequency.MONTHLY, dt.date(2027, 1, 5), day_of_month=5)
    terms = SeriesTerms("S1", rule, Decimal("4800.00"), "aluguel", "Imobiliária", True)
    days = (dt.date(2027, 1, 5), dt.date(2027, 2, 5))
    text = review_text(SeriesChange(terms, planned=days, more_planned=True), ending=True)
    assert text == planned + more
    assert review_text(SeriesChange(terms, planned=days), ending=True) == planned
