"""MoneyEdit driven as a person types: Brazilian amounts read exactly into Decimal, invalid
text marked (never blocked), the maximum enforced, and the text tidied when editing ends."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QWidget

from tests.waiting import qt_wait_until
from treasury_app.domain.errors import MoneyError
from treasury_app.domain.money import parse_brl
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.widgets.money_edit import PIX_MAXIMUM, MoneyEdit


@pytest.fixture
def edit(qtbot):
    widget = MoneyEdit()
    qtbot.addWidget(widget)
    return widget


def _type(qtbot, edit: MoneyEdit, text: str) -> None:
    edit.clear()
    qtbot.keyClicks(edit, text)
    assert edit.text() == text  # typing is never blocked nor rewritten while typing


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("1.234,56", Decimal("1234.56")),
        ("1234,56", Decimal("1234.56")),
        ("1234.56", Decimal("1234.56")),
        ("1234.5", Decimal("1234.50")),
        ("0,5", Decimal("0.50")),
        ("1.234", Decimal("1234.00")),
        ("R$ 1.234,56", Decimal("1234.56")),
        ("1.000.000,00", Decimal("1000000.00")),
        ("0,10", Decimal("0.10")),
    ],
)
def test_reads_brazilian_typing_as_exact_decimals(qtbot, edit, typed, expected):
    _type(qtbot, edit, typed)
    value = edit.value()
    assert type(value) is Decimal
    assert value == expected
    assert value.as_tuple().exponent == -2
    assert edit.is_valid()
    assert edit.property("invalid") is False
    assert edit.error() is None


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("12,345", "2 decimal places"),
        ("abc", "1.234,56"),
        ("-5", "negative"),
        ("1,2,3", "one decimal comma"),
        ("12.34.5", "thousands"),
    ],
)
def test_invalid_text_is_marked_without_blocking_typing(qtbot, edit, typed, reason):
    _type(qtbot, edit, typed)
    assert edit.value() is None
    assert not edit.is_valid()
    assert edit.property("invalid") is True
    assert reason in edit.toolTip()
    assert edit.toolTip() == edit.error()
    assert "border" in edit.styleSheet()


def test_error_message_is_the_money_error_message(qtbot, edit):
    _type(qtbot, edit, "12,345")
    with pytest.raises(MoneyError) as raised:
        parse_brl("12,345")
    assert edit.toolTip() == rule_text(raised.value)
    assert edit.toolTip() == "The amount must have at most 2 decimal places."


def test_fixing_the_text_clears_the_mark_and_restores_the_tooltip(qtbot, edit):
    edit.setToolTip("Amount to pay")
    _type(qtbot, edit, "12,345")
    assert edit.property("invalid") is True
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    assert edit.text() == "12,34"
    assert edit.value() == Decimal("12.34")
    assert edit.property("invalid") is False
    assert edit.toolTip() == "Amount to pay"
    assert edit.styleSheet() == ""


def test_empty_is_none_but_not_marked_invalid(qtbot, edit):
    assert edit.value() is None
    assert edit.is_empty()
    assert not edit.is_valid()
    assert edit.property("invalid") is False
    _type(qtbot, edit, "5")
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    assert edit.value() is None
    assert edit.property("invalid") is False


def test_value_is_always_decimal_or_none_keystroke_by_keystroke(qtbot, edit):
    seen: list[object] = []
    edit.value_changed.connect(seen.append)
    for char in "R$ 1.234,56":
        qtbot.keyClicks(edit, char)
        assert edit.value() is None or type(edit.value()) is Decimal
    assert all(v is None or type(v) is Decimal for v in seen)
    assert seen[-1] == Decimal("1234.56")
    assert edit.value() == Decimal("1234.56")


def test_value_changed_fires_only_on_real_changes(qtbot, edit):
    seen: list[object] = []
    edit.value_changed.connect(seen.append)
    qtbot.keyClicks(edit, "12")
    assert seen == [Decimal("1.00"), Decimal("12.00")]
    qtbot.keyClicks(edit, ",")  # "12," is not an amount yet
    assert seen[-1] is None
    qtbot.keyClicks(edit, "0")  # "12,0" is 12.00 again
    qtbot.keyClicks(edit, "0")  # "12,00": same value, no signal
    assert seen == [Decimal("1.00"), Decimal("12.00"), None, Decimal("12.00")]


def test_placeholder_and_alignment(edit):
    assert edit.placeholderText() == "0,00"
    assert edit.alignment() & Qt.AlignmentFlag.AlignRight


def test_reformats_on_focus_out(qtbot):
    host = QWidget()
    qtbot.addWidget(host)
    edit = MoneyEdit(host)
    other = QLineEdit(host)
    other.move(0, 40)
    host.show()
    host.activateWindow()
    qtbot.waitActive(host)
    edit.setFocus()
    qt_wait_until(qtbot, edit.hasFocus, "edit focused")
    qtbot.keyClicks(edit, "1234567.8")
    seen: list[object] = []
    edit.value_changed.connect(seen.append)
    other.setFocus()
    qt_wait_until(qtbot, lambda: edit.text() == "1.234.567,80", 'edit.text() == "1.234.567,80"')
    assert edit.value() == Decimal("1234567.80")
    assert seen == []  # same value, only the text was tidied


def test_reformats_on_return_but_leaves_invalid_text_alone(qtbot, edit):
    qtbot.keyClicks(edit, "R$1234,5")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert edit.text() == "1.234,50"
    _type(qtbot, edit, "12,345")
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    assert edit.text() == "12,345"
    assert edit.property("invalid") is True


def test_maximum_exceeded_has_a_clear_message(qtbot):
    edit = MoneyEdit(maximum=PIX_MAXIMUM)
    qtbot.addWidget(edit)
    qtbot.keyClicks(edit, "1.000.000,00")
    assert edit.value() == Decimal("1000000.00")
    qtbot.keyClicks(edit, "1")  # 1.000.000,001: too many places first
    qtbot.keyClick(edit, Qt.Key.Key_Backspace)
    _type(qtbot, edit, "1.000.000,01")
    assert edit.value() is None
    assert edit.property("invalid") is True
    assert edit.toolTip() == "The amount is above the maximum of R$ 1.000.000,00."
    assert edit.maximum() == PIX_MAXIMUM


def test_set_maximum_revalidates(qtbot, edit):
    qtbot.keyClicks(edit, "500,00")
    edit.set_maximum(Decimal("100.00"))
    assert edit.value() is None
    assert "R$ 100,00" in edit.error()
    edit.set_maximum(None)
    assert edit.value() == Decimal("500.00")


def test_bad_maximum_is_rejected():
    with pytest.raises(TypeError):
        MoneyEdit(maximum=1000.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        MoneyEdit(maximum=Decimal("0"))
    with pytest.raises(MoneyError):
        MoneyEdit(maximum=Decimal("1.001"))


def test_set_value(qtbot, edit):
    seen: list[object] = []
    edit.value_changed.connect(seen.append)
    edit.set_value(Decimal("1234.5"))
    assert edit.text() == "1.234,50"
    assert type(edit.value()) is Decimal
    assert edit.value() == Decimal("1234.50")
    edit.set_value(None)
    assert edit.text() == ""
    assert edit.value() is None
    assert seen == [Decimal("1234.50"), None]


def test_set_value_refuses_floats_and_impossible_amounts(edit):
    with pytest.raises(TypeError):
        edit.set_value(1.5)  # type: ignore[arg-type]
    with pytest.raises(MoneyError):
        edit.set_value(Decimal("-1.00"))
    with pytest.raises(MoneyError):
        edit.set_value(Decimal("1.005"))
    with pytest.raises(MoneyError):
        edit.set_value(Decimal("NaN"))
    assert edit.text() == ""


def test_set_value_above_maximum_is_shown_invalid(qtbot):
    edit = MoneyEdit(maximum=Decimal("10.00"))
    qtbot.addWidget(edit)
    edit.set_value(Decimal("20"))
    assert edit.text() == "20,00"
    assert edit.value() is None
    assert edit.property("invalid") is True
