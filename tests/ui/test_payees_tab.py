"""The "Payees" tab (issue 36), driven as a person would: register a payee and a key through
the dialogs, find it by typing, block it (its history shows it), import a CSV whose key is
another payee's (flagged on its line, nothing registered), export the registry; in a team,
a change prepared by ana waits in bruno's tab, who approves it (ana cannot)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog

from tests.ledger_backends import opened_ledger
from tests.waiting import qt_wait_until
from treasury_app.domain.payees import DestinationState
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.services.payees import PayeeService
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.dialogs.destination_dialog import DestinationDialog
from treasury_app.ui.dialogs.payee_dialog import PayeeDialog
from treasury_app.ui.models.payees_model import ChangeColumn
from treasury_app.ui.tabs.payees_tab import PayeesTab

KEY = "pix@papelaria.com.br"


def tab_on(qtbot: Any, ledger: Ledger) -> PayeesTab:
    workspace = SimpleNamespace(ledger=ledger, payees=PayeeService(ledger))
    tab = PayeesTab(workspace, None)  # type: ignore[arg-type]
    qtbot.addWidget(tab)
    tab.resize(1200, 700)
    tab.show()
    return tab


def gone(qtbot: Any, tab: PayeesTab) -> None:
    """Delete ``tab`` (its tasks cancelled) before its ledger closes."""
    destroyed: list[bool] = []
    tab.destroyed.connect(lambda *_: destroyed.append(True))
    tab.deleteLater()
    qt_wait_until(qtbot, lambda: bool(destroyed) and running_tasks() == 0, "the tab gone")


def answer(qtbot: Any, kind: type[QDialog], fill: Callable[[Any], None]) -> None:
    """When the tab opens a dialog of ``kind``: fill it and press OK."""
    qt_wait_until(qtbot, lambda: _open(kind) is not None, f"the {kind.__name__} opened")
    dialog = _open(kind)
    fill(dialog)
    dialog.accept()


def _open(kind: type[QDialog]) -> Any:
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, kind) and widget.isVisible():
            return widget
    return None


def test_a_payee_registered_found_and_blocked(
    qtbot: Any, run: Callable[..., Any], tmp_path: Path
) -> None:
    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="ana")
    try:
        tab = tab_on(qtbot, ledger)
        task = tab.new_payee()

        pending = asyncio.ensure_future(task)
        answer(
            qtbot,
            PayeeDialog,
            lambda d: (
                d.name.setText("Papelaria Central"),
                d.document.setText("11.222.333/0001-81"),
                d.tags.setText("fornecedor"),
            ),
        )
        qt_wait_until(qtbot, pending.done, "the payee saved")
        assert tab.detail is not None and tab.detail.payee.name == "Papelaria Central"
        adding = asyncio.ensure_future(tab.add_destination())
        answer(qtbot, DestinationDialog, lambda d: d.key.setText("PIX@Papelaria.com.br"))
        qt_wait_until(qtbot, adding.done, "the key added")
        qt_wait_until(qtbot, lambda: tab.destinations.rowCount() == 1, "the key listed")
        [key] = tab.destinations.rows()
        assert key.detail == KEY and key.state is DestinationState.NEW
        tab.search.setText("pix@pap")
        qt_wait_until(qtbot, lambda: tab.payees.rowCount() == 1, "the search found it")
        # the bank names the same payee on a settled payment: verified (a change proposing
        # no destination, whose history row still names the key)
        run(ledger.payees.settled(KEY, 1, "PAPELARIA CENTRAL", "11222333000181"))
        tab.destination_list.selectRow(0)
        assert tab.block_button.isEnabled()
        blocking = asyncio.ensure_future(tab.service.block(key.id, "not theirs"))
        qt_wait_until(qtbot, blocking.done, "blocked")
        run(tab.reload())
        assert [c.action for c in tab.history.rows()] == ["add", "verified", "block"]
        assert tab.history.rows()[1].proposed is None
        assert [tab.history.text(c, ChangeColumn.DETAIL) for c in tab.history.rows()] == [
            f"Papelaria Central — {KEY}"
        ] * 3
        # a CSV with the key of this payee given to another: flagged on its line
        csv_path = tmp_path / "favorecidos.csv"
        csv_path.write_text(
            "nome;documento;chave\nGráfica Expressa;12.ABC.345/01DE-35;" + KEY + "\n",
            encoding="cp1252",
        )
        errors = run(tab.import_path(csv_path))
        assert len(errors) == 1 and errors[0].startswith("Line 2 (chave)")
        assert "Papelaria Central" in errors[0]
        assert len(run(ledger.payees.payees())) == 1
        out = tmp_path / "out.csv"
        run(tab.export_path(out))
        assert KEY in out.read_text(encoding="utf-8-sig")
    finally:
        gone(qtbot, tab)
        ledger.close_now()


@pytest.mark.usefixtures("team_databases")
def test_a_change_waits_for_another_person_in_the_tab(
    qtbot: Any, run: Callable[..., Any], tmp_path: Path
) -> None:
    from tests.ledger.test_approvals_db import give_exactly
    from tests.ledger_backends import team
    from treasury_app.ledger.team.schema import APPROVER, MAKER

    databases = team()
    give_exactly(databases, {"ana": (MAKER, APPROVER), "bruno": (APPROVER,)})
    name = databases.new_database()
    ana_opened = opened_ledger("team", tmp_path / "ana", user="ana", database=name)
    bruno_opened = opened_ledger("team", tmp_path / "bruno", user="bruno", database=name)
    ana, bruno = run(ana_opened.__aenter__()), run(bruno_opened.__aenter__())
    mine: PayeesTab | None = None
    theirs: PayeesTab | None = None
    try:
        service = PayeeService(ana)
        payee = run(service.save_payee("Papelaria Central", "11222333000181", "fornecedor"))
        run(service.add(payee.id, service.key(KEY)))
        mine = tab_on(qtbot, ana)
        qt_wait_until(qtbot, lambda: mine.pending.rowCount() == 1, "ana sees her change wait")
        mine.pending_list.selectRow(0)
        run(mine.decide("APPROVED"))
        assert mine.banner.isVisible()  # refused: she prepared it
        assert run(ana.payees.destinations(payee.id)) == []
        theirs = tab_on(qtbot, bruno)
        qt_wait_until(qtbot, lambda: theirs.pending.rowCount() == 1, "bruno sees it wait")
        assert "Papelaria Central" in theirs.pending.text(theirs.pending.rows()[0], 1)
        theirs.pending_list.selectRow(0)
        run(theirs.decide("APPROVED"))
        assert theirs.pending.rowCount() == 0
        [destination] = run(bruno.payees.destinations(payee.id))
        assert (destination.changed_by, destination.approved_by) == ("ana", "bruno")
    finally:
        for shown in (mine, theirs):
            if shown is not None:
                gone(qtbot, shown)
        run(ana_opened.__aexit__(None, None, None))
        run(bruno_opened.__aexit__(None, None, None))
