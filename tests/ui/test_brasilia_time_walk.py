"""One clock for people, on screen: with the computer set to UTC or to Manaus (Brasília −1 h),
every instant the payments list, the statement (list, detail, balance, Excel export), the
charges (list, detail, expiry) and the infractions (created, defense deadline) show is the
Brasília time of the instant, in pt_BR, written ``28/11/2026 05:26``; deadlines name the zone;
no screen shows an AM/PM time, a two-digit year, an ISO date or "Coordinated Universal Time".

The expected texts are computed here from the instants themselves, independently of the app's
formatter. Where the process cannot change its zone (Windows has no ``time.tzset``), the walk
runs in the machine's own zone, and must hold there just the same."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from tests.ui.test_pt_br_walk import visible_texts
from tests.waiting import qt_turn, qt_wait_until
from treasury_app.services.exports import ExportFormat
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.models.charges_model import Column as ChargeColumn
from treasury_app.ui.models.infractions_model import Column as InfractionColumn
from treasury_app.ui.models.payments_model import Column as PaymentColumn
from treasury_app.ui.models.statement_model import Column as StatementColumn
from treasury_app.ui.tabs.statement_tab import StatementTab
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.infractions_panel import InfractionsPanel
from treasury_app.ui.widgets.payments_list import PaymentsList

SAO_PAULO = ZoneInfo("America/Sao_Paulo")
ZONE_NAMED = " (horário de Brasília)"
NOT_BRASILIA_FORMATS = [
    re.compile(r"\b\d{1,2}:\d{2}(:\d{2})?\s*[AaPp]\.?[Mm]\b"),  # 1:07 PM
    re.compile(r"\b\d{1,2}/\d{1,2}/\d{2}\b(?!\d)"),  # 11/27/26
    re.compile(r"\b\d{4}-\d{2}-\d{2}\b"),  # 2029-03-02
    re.compile(r"Universal|UTC|GMT|Coordenado"),
]


def brasilia(moment: dt.datetime | str, pattern: str = "%d/%m/%Y %H:%M") -> str:
    if isinstance(moment, str):
        moment = dt.datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return moment.astimezone(SAO_PAULO).strftime(pattern)


@pytest.fixture(params=["UTC", "America/Manaus"])
def computer_zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if hasattr(time, "tzset"):
        monkeypatch.setenv("TZ", request.param)
        time.tzset()
        assert time.localtime(0).tm_gmtoff != -3 * 3600  # not Brasília's
    try:
        yield request.param
    finally:
        monkeypatch.undo()
        if hasattr(time, "tzset"):
            time.tzset()


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _screen(qtbot: Any, widget: QWidget) -> QWidget:
    qtbot.addWidget(widget)
    widget.resize(1366, 698)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _no_foreign_formats(
    qtbot: Any, widget: QWidget, where: str, *, settle: bool = True
) -> list[str]:
    if settle:  # (an open dialog's task runs until it closes)
        qt_wait_until(qtbot, lambda: running_tasks() == 0, "the screen's reads over")
    qt_turn(qtbot)
    found = []
    for name, text in visible_texts(widget):
        for pattern in NOT_BRASILIA_FORMATS:
            if pattern.search(text):
                found.append(f"{where} {name}: {text!r}")
    return found


def test_every_instant_on_screen_is_brasilia_time(
    qtbot, run, settle, open_workspace, tmp_path, computer_zone, portuguese
) -> None:
    workspace = open_workspace()
    run(workspace.session.accounts.transport.http.post("/sandbox/tokens/reset-limits"))
    payouts = workspace.payouts
    run(payouts.send(run(payouts.prepare_key("walk.settled@empresa.com.br", "1,13"))))
    cob = run(workspace.charges.create_cob(amount=Decimal("12.34"), key=workspace.pix_keys[0]))
    problems: list[str] = []

    # Payments: every row's date.
    payments = _screen(qtbot, PaymentsList(workspace))
    assert settle(payments.refresh()) is True
    assert payments.proxy.rowCount() > 0
    for row in range(payments.proxy.rowCount()):
        entry = payments.proxy.entry(row)
        shown = payments.proxy.index(row, PaymentColumn.DATE).data()
        assert shown == brasilia(entry.created_at), entry
    problems += _no_foreign_formats(qtbot, payments, "payments")

    # The statement: rows, a detail to the second, the balance's time, the Excel export.
    tab = _screen(qtbot, StatementTab(workspace, page_size=20))
    run(tab.load())
    assert tab.proxy.rowCount() > 0
    for row in range(tab.proxy.rowCount()):
        entry = tab.proxy.entry(row)
        shown = tab.proxy.index(row, StatementColumn.DATE).data()
        assert shown == brasilia(entry.created_at), entry
    first = tab.proxy.entry(0)
    assert tab.select_entry(first.id)
    settle(tab.detail_task)
    assert tab.detail_fields["date"].text() == brasilia(first.created_at, "%d/%m/%Y %H:%M:%S")
    balance = tab.balance
    assert balance is not None and balance.updated_at is not None
    assert brasilia(balance.updated_at) in tab.card.updated.text()
    problems += _no_foreign_formats(qtbot, tab, "statement")
    target = tmp_path / "extrato.csv"
    assert run(tab.export_csv(target, ExportFormat.EXCEL))
    text = target.read_bytes().decode("utf-8-sig")
    exported = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    shown_order = [tab.proxy.entry(r) for r in range(tab.proxy.rowCount())]
    assert brasilia(shown_order[0].created_at) in exported[1]  # whatever the column's name
    tab.hide()
    qt_wait_until(qtbot, lambda: not tab.loading, "the statement's reads over")

    # Charges: created, and the expiry of a cob with the zone named.
    charges = _screen(qtbot, ChargesList(workspace))
    assert run(charges.reload()) is True
    row = charges.proxy.row_of(cob.txid)
    assert row is not None
    assert charges.proxy.index(row, ChargeColumn.CREATED).data() == brasilia(cob.calendario.criacao)
    assert charges.select_charge(cob.txid)
    qtbot.mouseClick(charges.details_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: charges.detail_dialog is not None and charges.detail_dialog.charge is not None,
        "the charge's detail",
    )
    dialog = charges.detail_dialog
    assert dialog is not None and cob.calendario.expiracao is not None
    assert dialog.fields["created"].text() == brasilia(cob.calendario.criacao)
    expires = cob.calendario.criacao + dt.timedelta(seconds=cob.calendario.expiracao)
    assert dialog.fields["expiry"].text().endswith(brasilia(expires) + ZONE_NAMED)
    problems += _no_foreign_formats(qtbot, dialog, "charge detail", settle=False)
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert charges.task is not None
    qt_wait_until(qtbot, charges.task.done, "the detail closed")
    charges.shutdown()

    # Infractions: created and the defense deadline, with the zone named, list and detail.
    panel = _screen(qtbot, InfractionsPanel(workspace))
    run(panel.reload())
    assert panel.model.rowCount() >= 1
    for row in range(panel.model.rowCount()):
        item = panel.model.infraction(row)
        created = panel.model.index(row, InfractionColumn.CREATED).data()
        assert created == brasilia(item.created_at), item
        if item.defense_deadline is not None:
            deadline = panel.model.index(row, InfractionColumn.DEADLINE).data()
            assert deadline.startswith(brasilia(item.defense_deadline) + ZONE_NAMED), deadline
    item = panel.model.infraction(0)
    assert panel.select(item.id)
    settle(panel.detail_task)
    if item.defense_deadline is not None:
        shown = panel.details["deadline"].text()
        assert shown.startswith(brasilia(item.defense_deadline) + ZONE_NAMED), shown
    problems += _no_foreign_formats(qtbot, panel, "infractions")

    assert problems == []
