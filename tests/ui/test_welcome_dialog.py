"""The first-run dialog: the sandbox is the default, either choice accepts, Escape quits."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCommandLinkButton, QDialog

from tests.waiting import qt_wait_until
from treasury_app.ui.async_tools import ask
from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog


def _shown(qtbot, qasync_loop):
    dialog = WelcomeDialog()
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def test_the_sandbox_is_the_default_and_enter_takes_it(qtbot, qasync_loop) -> None:
    dialog, asked = _shown(qtbot, qasync_loop)
    sandbox = dialog.findChild(QCommandLinkButton, "sandbox-choice")
    assert sandbox.isDefault()
    assert dialog.focusWidget() is sandbox
    assert "no real money" in sandbox.description().lower()
    assert dialog.choice() is None
    qtbot.keyClick(sandbox, Qt.Key.Key_Return)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.choice() == "sandbox"


def test_connect_to_my_bank(qtbot, qasync_loop) -> None:
    dialog, asked = _shown(qtbot, qasync_loop)
    qtbot.mouseClick(dialog.findChild(QCommandLinkButton, "bank-choice"), Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.choice() == "bank"


def test_escape_rejects_without_a_choice(qtbot, qasync_loop) -> None:
    dialog, asked = _shown(qtbot, qasync_loop)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert asked.result() == QDialog.DialogCode.Rejected
    assert dialog.choice() is None
