"""The app as a person meets it: first run → welcome → sandbox → unlock (a wrong password
first) → main window; lock and unlock again; the status bar follows a token renewal."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QLabel, QLineEdit, QPushButton

from tests.waiting import qt_wait_until
from treasury_app.services.profiles import ProfileStore
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.controller import StartOptions
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog
from treasury_app.ui.main_window import MainWindow


def visible(kind: type) -> Any:
    for widget in QApplication.topLevelWidgets():
        if isinstance(widget, kind) and widget.isVisible():
            return widget
    return None


@pytest.fixture
def controller(ui_paths: Any, ui_sandbox: Any, start_app: Any, run: Any) -> Any:
    """A controller on the UI tests' data dir (whose sandbox is already running: reused)."""
    QSettings().clear()
    store = ProfileStore(ui_paths)
    for name in store.list():  # a first run: no profile yet
        run(store.delete(name))
    return start_app(ui_paths, StartOptions())


def dialog_of(kind: type) -> Any:
    """A visible dialog of ``kind``: top-level, or parented to the main window."""
    found = visible(kind)
    if found is not None:
        return found
    for widget in QApplication.topLevelWidgets():
        for child in widget.findChildren(kind):
            if child.isVisible():
                return child
    return None


def type_password(qtbot: Any, dialog: UnlockDialog, api: str, text: str) -> None:
    field = dialog.findChild(QLineEdit, f"password-{api}")
    field.selectAll()
    field.clear()
    qtbot.keyClicks(field, text)


def unlock_with(qtbot: Any, dialog: UnlockDialog, passwords: dict[str, str]) -> None:
    for api, password in passwords.items():
        field = dialog.findChild(QLineEdit, f"password-{api}")
        if field.isVisible():
            type_password(qtbot, dialog, api, password)
    qtbot.mouseClick(dialog.findChild(QPushButton, "unlock-button"), Qt.MouseButton.LeftButton)


def test_first_run_sandbox_unlock_main_window_lock_and_unlock(
    controller: Any, qtbot: Any, sandbox_profile_and_secrets: Any, run: Any
) -> None:
    _, secrets = sandbox_profile_and_secrets
    qt_wait_until(qtbot, lambda: visible(MainWindow) is not None, "visible(MainWindow) is not None")
    window = controller.window
    assert window.workspace is None  # shown at once, locked, before any profile is open
    qt_wait_until(
        qtbot, lambda: dialog_of(WelcomeDialog) is not None, "dialog_of(WelcomeDialog) is not None"
    )
    welcome = dialog_of(WelcomeDialog)
    qtbot.mouseClick(welcome.findChild(QPushButton, "sandbox-choice"), Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot, lambda: dialog_of(UnlockDialog) is not None, "dialog_of(UnlockDialog) is not None"
    )
    unlock = dialog_of(UnlockDialog)

    # A wrong password: the message shows and the dialog stays.
    unlock_with(qtbot, unlock, {"qrcodes": "wrong password", "accounts": "wrong password"})
    message = unlock.findChild(QLabel, "unlock-message")
    qt_wait_until(
        qtbot, lambda: "password" in message.text().lower(), "'password' in message.text().lower()"
    )
    assert unlock.isVisible() and controller.workspace is None

    # The right passwords (the sandbox's own, which the dialog offers as a hint).
    unlock_with(qtbot, unlock, dict(secrets.pfx_passwords))
    qt_wait_until(qtbot, lambda: window.workspace is not None, "window.workspace is not None")
    assert window.isVisible()
    assert "SANDBOX" in window.windowTitle()
    assert window.tabs.count() == 9  # Payees, and Approvals (on a file ledger: why there are none)
    badge = window.status_panel.badge
    assert "SANDBOX" in badge.text() and "test bank" in badge.toolTip()
    qt_wait_until(
        qtbot,
        lambda: "✓" in window.status_panel.apis["accounts"].text(),
        "'✓' in window.status_panel.apis['accounts'].text()",
    )
    session = controller.workspace.session
    assert session.profile.name == "Sandbox"
    # The refused attempt is in the audit: which certificates, why; never what was typed.
    for task in controller.unlock_audits:
        qt_wait_until(qtbot, task.done, "the refused unlock recorded")
        assert task.result() is True
    refused = run(session.ledger.audit.entries(action="session.unlock"))
    assert refused and refused[0].outcome == "refused" and refused[0].reference == "Sandbox"
    assert refused[0].details["certificates"] == {
        "accounts": "wrong_password",
        "qrcodes": "wrong_password",
    }
    assert "wrong password" not in repr(refused[0]).lower()

    # Lock: the session closes (keys, tokens) and the unlock dialog returns.
    window.lock_action.trigger()
    qt_wait_until(qtbot, lambda: session.closed, "session.closed")
    qt_wait_until(
        qtbot, lambda: dialog_of(UnlockDialog) is not None, "dialog_of(UnlockDialog) is not None"
    )
    assert controller.workspace is None and window.workspace is None
    assert window.tab(0).objectName().startswith("empty-state:")  # nothing shown
    again = dialog_of(UnlockDialog)
    unlock_with(qtbot, again, dict(secrets.pfx_passwords))
    qt_wait_until(qtbot, lambda: window.workspace is not None, "window.workspace is not None")
    assert controller.workspace.session is not session and not controller.workspace.session.closed


def test_status_bar_follows_a_token_renewal(open_workspace: Any, qtbot: Any, run: Any) -> None:
    workspace = open_workspace()
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    status = window.status_panel.apis["qrcodes"]
    status.update_from(workspace.session)
    assert status.text() == "QR Codes ○" and "No token yet" in status.toolTip()
    transport = workspace.session.transports["qrcodes"]
    run(transport.tokens.token(transport.http))
    window.status_panel.refresh()
    assert status.text() == "QR Codes ✓"  # a light: the details are in the tooltip
    first = status.toolTip()
    assert "Token valid until" in first and "Certificate valid until" in first
    transport.tokens.invalidate()
    run(transport.tokens.token(transport.http))  # renewed: a new expiry
    window.status_panel.refresh()
    assert status.text() == "QR Codes ✓"
    assert transport.tokens.state.issued == 2
    window.set_workspace(None)  # as on lock: the tabs cancel their loads before the session closes
    qt_wait_until(qtbot, lambda: running_tasks() == 0, "running_tasks() == 0")


def test_about_names_the_versions(qtbot: Any) -> None:
    from treasury_app import __version__

    window = MainWindow()
    qtbot.addWidget(window)
    text = window.about_text()
    assert __version__ in text and "PySide6" in text and "Qt" in text


def test_settings_tab_lists_the_webhooks_of_both_apis(
    open_workspace: Any, qtbot: Any, run: Any
) -> None:
    from treasury_app.ui.tabs.settings_tab import SettingsTab

    workspace = open_workspace()
    run(workspace.session.qrcodes.put_webhookrec("https://hooks.example.com/treasury"))
    tab = SettingsTab(workspace)
    qtbot.addWidget(tab)
    run(tab.load_webhooks())
    table = tab.webhooks_table
    rows = {table.item(r, 0).text(): table.item(r, 2).text() for r in range(table.rowCount())}
    assert rows.get("rec") == "https://hooks.example.com/treasury"
    assert {"cobr", "transfer", "receive", "refund", "cashout"} <= set(rows)
    qt_wait_until(
        qtbot, tab.audit_panel.load_task.done, "tab.audit_panel.load_task done"
    )  # the audit, read in the background
    assert tab.audit_panel.load_task.result() is True
    assert tab.audit_table.rowCount() >= 1  # session.open and certificate.load at least
