"""The review dialogs' confirmation keeps its layout while the amount is typed: Cancel never
moves (a widening hint once put Cancel where Send had been)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from PySide6.QtCore import QCoreApplication, QPoint
from PySide6.QtWidgets import QDialog, QVBoxLayout

from tests.waiting import qt_wait_until
from treasury_app.ui.widgets.amount_confirmation import AmountConfirmation


def test_cancel_stays_where_it_was_while_the_amount_is_typed(qtbot: Any) -> None:
    dialog = QDialog()
    qtbot.addWidget(dialog)
    layout = QVBoxLayout(dialog)
    confirmation = AmountConfirmation(
        Decimal("1234.56"),
        prompt="Type the amount again",
        mismatch="This is not the amount to be sent, so nothing can be sent yet.",
        action="Send Pix",
        name="test",
        parent=dialog,
    )
    layout.addWidget(confirmation)
    dialog.show()
    qt_wait_until(qtbot, dialog.isVisible, "the dialog shown")
    QCoreApplication.processEvents()
    cancel = confirmation.cancel_button

    def place() -> tuple[QPoint, int, int]:
        QCoreApplication.processEvents()  # the layout's pending resizes
        return cancel.mapTo(dialog, QPoint(0, 0)), dialog.width(), dialog.height()

    before = place()
    for typed in ("1", "1.234,5", "not an amount at all, typed by mistake", "1.234,56"):
        confirmation.edit.setText(typed)
        assert place() == before, typed
    assert confirmation.hint.text() == "" and confirmation.action_button.isEnabled()
    confirmation.edit.setText("12")
    assert "not the amount" in confirmation.hint.text()
    assert place() == before
