"""Portuguese throughout: every tab of the main window, in pt_BR, with payments of every kind
in the journal, shows no English source string left untranslated and no identifier (a status
such as SETTLED, a state such as UNKNOWN, an audit action such as payout.send) where a word
belongs."""

from __future__ import annotations

import contextlib
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTabWidget,
    QWidget,
)

from tests.waiting import qt_turn, qt_wait_until
from treasury_app.api.accounts.models import PaymentFlow, PaymentStatus
from treasury_app.ledger.journal import EntryState
from treasury_app.resources import translations_dir
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.main_window import MainWindow

IDENTIFIERS = (
    {s.value for s in PaymentStatus}
    | {s.value for s in EntryState}
    | {f.value for f in PaymentFlow}
)
ACTION = re.compile(r"^[a-z]+(\.[a-z_]+)+$")  # payout.send, payment.resend_held


def _english_sources() -> set[str]:
    """Source texts whose pt_BR translation differs (a text equal in both languages, such as
    "Pix", is not evidence of anything)."""
    root = ET.parse(translations_dir() / "treasury_pt_BR.ts").getroot()
    found = set()
    for message in root.iter("message"):
        source = message.findtext("source") or ""
        translation = message.findtext("translation") or ""
        if source and translation and source != translation and len(source) > 3:
            found.add(source)
    return found


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    """The app in Brazilian Portuguese for one test (the shared fixture puts English back)."""
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _view_texts(view: QAbstractItemView) -> Iterator[str]:
    model = view.model()
    if model is None:
        return
    for column in range(model.columnCount()):
        header = model.headerData(column, Qt.Orientation.Horizontal)
        if isinstance(header, str):
            yield header
    for row in range(min(model.rowCount(), 60)):
        for column in range(model.columnCount()):
            value = model.index(row, column, QModelIndex()).data()
            if isinstance(value, str):
                yield value


def visible_texts(root: QWidget) -> Iterator[tuple[str, str]]:
    """(where, text) of every visible text under ``root``."""
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root.window()):
            continue
        name = f"{type(widget).__name__}:{widget.objectName()}"
        if isinstance(widget, QLabel | QAbstractButton):
            yield name, widget.text()
        elif isinstance(widget, QGroupBox):
            yield name, widget.title()
        elif isinstance(widget, QLineEdit):
            yield name, widget.placeholderText()
        elif isinstance(widget, QTabWidget):
            for index in range(widget.count()):
                yield name, widget.tabText(index)
        if isinstance(widget, QAbstractItemView):
            for text in _view_texts(widget):
                yield name, text


def test_every_tab_in_portuguese(qtbot, run, settle, open_workspace, portuguese) -> None:
    workspace = open_workspace()
    payouts = workspace.payouts
    # Payments in several states, so that their statuses and notes are on screen.
    run(payouts.send(run(payouts.prepare_key("walk.settled@empresa.com.br", "1,11"))))
    run(payouts.send(run(payouts.prepare_key("naoexiste@invalido.sandbox", "1,12"))))  # refused
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    window.resize(1366, 698)
    window.show()
    qtbot.waitExposed(window)
    english = _english_sources()
    problems: list[str] = []
    try:
        for index in range(window.tabs.count()):
            window.tabs.setCurrentIndex(index)
            tab = window.current_tab()
            payments = getattr(tab, "payments_list", None)
            if payments is not None:  # a payment's detail and history shown too
                assert settle(payments.refresh()) is True
                if payments.proxy.rowCount():
                    payments.select_entry(payments.proxy.entry(0).id)
                    assert settle(payments.history_task) is True
            qt_wait_until(qtbot, lambda: running_tasks() == 0, "the tab's reads over")
            qt_turn(qtbot)  # and shown
            for where, text in visible_texts(window):
                for part in filter(None, (p.strip() for p in re.split(r"[\n·—]", text))):
                    if part in english:
                        problems.append(
                            f"{window.tabs.tabText(index)} {where}: untranslated {part!r}"
                        )
                    if part in IDENTIFIERS or ACTION.fullmatch(part):
                        problems.append(
                            f"{window.tabs.tabText(index)} {where}: identifier {part!r}"
                        )
    finally:
        window.set_workspace(None)
    assert problems == []


def test_a_refusal_banner_in_portuguese(qtbot, run, open_workspace, portuguese) -> None:
    from treasury_app.services.billets import BilletAlreadyPaid
    from treasury_app.ui.tabs.billets_tab import BilletsTab

    workspace = open_workspace()
    tab = BilletsTab(workspace)
    qtbot.addWidget(tab)
    tab.show()
    slips = run(workspace.session.accounts.transport.http.get("/sandbox/slips")).json()["data"]
    slip = next(
        s for s in slips if s["label"] == "Internet e telefonia"
    )  # used by no other UI test
    # Paid once here, unless an earlier test of the session paid it already.
    with contextlib.suppress(BilletAlreadyPaid):
        run(workspace.billets.pay(run(workspace.billets.lookup(slip["digitableCode"]))))
    tab.code_edit.setText(slip["digitableCode"])
    tab._look_up_clicked()
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    assert tab.banner.isVisible()
    assert tab.banner.title.text() == "Boleto já pago"
    assert tab.banner.detail.text().startswith("Este boleto já foi ")
    english = _english_sources()
    shown = [text for _where, text in visible_texts(tab) if text in english]
    assert shown == []
    tab.shutdown()
