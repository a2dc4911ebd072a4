"""Typed dates are read strictly: a date typed whole (``9/1/2026``, ``09/01/2026``) is taken;
what is not a date (``09/01/26``, ``31/02/2026``, ``2026-01-09``) leaves the field's date as it
was, marks the field and says why, in the statement's banner too, instead of becoming some
other day without a word."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget

from treasury_app.ui.widgets.date_edits import DateEdit, date_edit, to_date

DAY = dt.date(2026, 11, 28)


def _type(qtbot: Any, edit: DateEdit, text: str) -> None:
    edit.setFocus()
    edit.lineEdit().selectAll()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


@pytest.fixture
def edit(qtbot: Any) -> Iterator[DateEdit]:
    parent = QWidget()
    qtbot.addWidget(parent)
    field = date_edit(parent, DAY, "typed-date")
    parent.show()
    qtbot.waitExposed(parent)
    yield field  # the parent lives as long as the test


@pytest.mark.parametrize("typed", ["09/01/26", "31/02/2026", "2026-01-09", "1/13/2026"])
def test_what_is_not_a_date_is_refused_with_a_message(qtbot: Any, edit: DateEdit, typed) -> None:
    messages: list[str] = []
    edit.refused.connect(messages.append)
    _type(qtbot, edit, typed)
    assert to_date(edit.date()) == DAY  # kept, not guessed
    assert len(messages) == 1 and f"“{typed}” is not a date" in messages[0]
    assert edit.problem == messages[0] and edit.toolTip() == messages[0]
    assert edit.styleSheet()  # marked


@pytest.mark.parametrize("typed", ["9/1/2026", "09/01/2026"])
def test_a_date_typed_whole_is_taken(qtbot: Any, edit: DateEdit, typed) -> None:
    _type(qtbot, edit, "09/01/26")
    assert edit.problem
    _type(qtbot, edit, typed)
    assert to_date(edit.date()) == dt.date(2026, 1, 9)
    assert edit.lineEdit().text() == "09/01/2026"
    assert (edit.problem, edit.toolTip(), edit.styleSheet()) == ("", "", "")


def test_the_statement_says_so(qtbot: Any, run: Any, open_workspace: Any) -> None:
    from treasury_app.ui.tabs.statement_tab import StatementTab

    workspace = open_workspace()
    tab = StatementTab(workspace, page_size=20)
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitExposed(tab)
    tab.set_date_range(dt.date(2026, 11, 1), dt.date(2026, 11, 18))
    _type(qtbot, tab.start_edit, "09/01/26")
    assert tab.date_range() == (dt.date(2026, 11, 1), dt.date(2026, 11, 18))
    assert tab.banner.isVisible()
    assert tab.banner.title.text() == "Not a date"
    assert "“09/01/26” is not a date" in tab.banner.detail.text()
    _type(qtbot, tab.start_edit, "09/11/2026")
    assert tab.date_range() == (dt.date(2026, 11, 9), dt.date(2026, 11, 18))
    tab.shutdown()
