"""The webhooks page against the app's own sandbox bank: a per-key Pix webhook registered and
removed through the dialog, an Accounts API webhook with its options and secret headers, and
an http:// address refused before any request."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.waiting import qt_turn, qt_wait_until
from treasury_app.api.accounts.models import WebhookType
from treasury_app.api.errors import NotFound
from treasury_app.ui.dialogs.webhook_dialog import SECRET_MASK, WebhookDialog, collect_headers
from treasury_app.ui.operation import running_changes
from treasury_app.ui.widgets.webhooks_panel import COLUMNS, WebhooksPanel

KEY = "5f8e3b9a-2c4d-4e6f-9a1b-3c5d7e9f1a2b"  # the sandbox account's random key
SECRET = "sk_live_ui_4b3a2c1d"  # a receiver's API key: must never be shown nor audited
URL = COLUMNS.index("url")


def _hook(name: str) -> str:
    # Nothing listens on port 9: a delivery attempt fails fast.
    return f"https://127.0.0.1:9/ui-tests/{name}/{uuid.uuid4().hex[:8]}"


def _cells(panel: WebhooksPanel, row: int) -> dict[str, str]:
    return {name: panel.table.item(row, column).text() for column, name in enumerate(COLUMNS)}


def _open(qtbot: Any, panel: WebhooksPanel, kind: str, key: str | None = None) -> Any:
    row = panel.row_of(kind, key)
    assert row is not None
    task = asyncio.ensure_future(panel.edit(row))
    qt_wait_until(
        qtbot, lambda: panel.dialog is not None and panel.dialog.isVisible(), "panel.dialog shown"
    )
    return task, panel.dialog


def _click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def _confirm_removal(qtbot: Any, dialog: WebhookDialog) -> None:
    qt_wait_until(
        qtbot,
        lambda: dialog.confirm_box is not None and dialog.confirm_box.isVisible(),
        "dialog.confirm_box shown",
    )
    box = dialog.confirm_box
    assert box is not None and "127.0.0.1" in box.text()
    remove = next(
        b for b in box.buttons() if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole
    )
    _click(qtbot, remove)


def _panel(qtbot: Any, run: Any, workspace: Any) -> WebhooksPanel:
    panel = WebhooksPanel(workspace)
    qtbot.addWidget(panel)
    panel.resize(1100, 500)
    panel.show()
    run(panel.reload())
    return panel


def test_pix_key_webhook_round_trip(qtbot: Any, run: Any, open_workspace: Any) -> None:
    workspace = open_workspace()
    with contextlib.suppress(NotFound):
        run(workspace.webhooks.remove("pix", key=KEY))
    panel = _panel(qtbot, run, workspace)
    keys = [v.key for v in panel.views if v.kind.value == "pix"]
    assert set(workspace.webhooks.pix_keys) <= set(keys)  # one row per key of the account
    assert {"rec", "cobr", "transfer", "receive", "refund", "cashout"} <= {
        v.kind.value for v in panel.views
    }
    assert _cells(panel, panel.row_of("pix", KEY))["url"] == "(not registered)"

    url = _hook("pix")
    task, dialog = _open(qtbot, panel, "pix", KEY)
    assert dialog.save_button.text() == "Register" and not dialog.remove_button.isEnabled()
    assert not dialog.is_account  # a QR Codes API webhook only has a URL
    qtbot.keyClicks(dialog.url_edit, url)
    assert dialog.url_hint.text() == "HTTPS address: OK."
    _click(qtbot, dialog.save_button)
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() == "registered", dialog.banner.detail.text()

    row = panel.row_of("pix", KEY)
    assert _cells(panel, row)["url"] == url
    assert panel.table.item(row, URL).toolTip().endswith(url + "/pix")
    assert run(workspace.webhooks.get("pix", key=KEY)).url == url
    audit = run(workspace.ledger.audit.entries(action="webhook.register", reference=f"pix:{KEY}"))
    assert audit[0].outcome == "ok" and audit[0].details["url"] == url

    task, dialog = _open(qtbot, panel, "pix", KEY)
    assert dialog.url_edit.text() == url and dialog.save_button.text() == "Replace"
    _click(qtbot, dialog.remove_button)
    _confirm_removal(qtbot, dialog)
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() == "removed", dialog.banner.detail.text()
    assert _cells(panel, panel.row_of("pix", KEY))["url"] == "(not registered)"
    assert run(workspace.webhooks.get("pix", key=KEY)).url is None
    removal = run(workspace.ledger.audit.entries(action="webhook.remove", reference=f"pix:{KEY}"))
    assert removal[0].outcome == "ok" and removal[0].details["url"] == url


def test_accounts_webhook_with_headers_and_options(
    qtbot: Any, run: Any, open_workspace: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    url = _hook("refund")
    try:
        task, dialog = _open(qtbot, panel, "refund")
        assert dialog.is_account
        qtbot.keyClicks(dialog.url_edit, url)
        dialog.enabled_check.setChecked(False)  # a disabled webhook is never delivered to
        dialog.pause_check.setChecked(True)
        dialog.method_combo.setCurrentText("PUT")
        qtbot.keyClicks(dialog.email_edit, "tesouraria@example.com.br")
        dialog.add_header("X-Api-Key", SECRET)
        dialog.add_header("X-Tenant", "acme")
        dialog.add_header("", "")  # a blank row is ignored
        secret_index = dialog.headers_table.model().index(0, 1)
        assert dialog.headers_table.itemDelegateForColumn(1).displayText(SECRET, None) == (
            SECRET_MASK
        )
        assert secret_index.data() == SECRET  # kept for sending, shown masked
        _click(qtbot, dialog.save_button)
        qt_wait_until(qtbot, task.done, "task done")
        assert task.result() == "registered", dialog.banner.detail.text()

        cells = _cells(panel, panel.row_of("refund"))
        assert cells["url"] == url
        assert (cells["enabled"], cells["method"], cells["pause_on_fail"]) == ("no", "PUT", "yes")
        assert cells["email"] == "tesouraria@example.com.br"
        assert cells["headers"] == f"X-Api-Key: {SECRET_MASK}, X-Tenant: {SECRET_MASK}"
        shown = [
            panel.table.item(r, c).text()
            for r in range(panel.table.rowCount())
            for c in range(len(COLUMNS))
        ]
        assert not any(SECRET in text for text in shown)
        # The value did reach the bank (it sends it with each notification) ...
        bank = run(workspace.session.accounts.get_webhook(WebhookType.REFUND))
        assert bank.headers["X-Api-Key"] == SECRET and bank.enabled is False
        assert bank.pause_on_fail is True and str(bank.method) == "PUT"
        # ... and the audit has the change, with header names only.
        entry = run(workspace.ledger.audit.entries(action="webhook.register", reference="refund"))[
            0
        ]
        assert entry.outcome == "ok" and entry.details["header_names"] == ["X-Api-Key", "X-Tenant"]
        assert (entry.details["method"], entry.details["enabled"]) == ("PUT", False)
        rows = workspace.ledger.conn.execute("SELECT * FROM audit").fetchall()
        assert not any(SECRET in str(value) for row in rows for value in tuple(row))

        # Opened again: the options as the bank has them; header values must be typed again.
        task, dialog = _open(qtbot, panel, "refund")
        assert not dialog.enabled_check.isChecked() and dialog.pause_check.isChecked()
        assert dialog.method_combo.currentText() == "PUT"
        assert dialog.header_rows() == [("X-Api-Key", ""), ("X-Tenant", "")]
        dialog.reject()
        qt_wait_until(qtbot, task.done, "task done")
        assert task.result() is None
    finally:
        with contextlib.suppress(NotFound):
            run(workspace.webhooks.remove("refund"))


def test_http_is_refused_in_the_form_without_a_request(
    qtbot: Any, run: Any, open_workspace: Any, monkeypatch: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    calls: list[Any] = []

    async def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        raise AssertionError("nothing may be sent")

    monkeypatch.setattr(workspace.webhooks, "register", spy)
    audited = len(run(workspace.ledger.audit.entries(action="webhook")))

    task, dialog = _open(qtbot, panel, "cobr")
    assert not hasattr(dialog, "headers_table")  # the QR Codes API kinds only have a URL
    qtbot.keyClicks(dialog.url_edit, "http://hooks.example.com/treasury")
    assert "https://" in dialog.url_hint.text()
    _click(qtbot, dialog.save_button)
    qt_wait_until(qtbot, lambda: dialog.banner.isVisible(), "dialog.banner shown")
    assert "https://" in dialog.banner.detail.text()
    assert dialog.url_edit.property("invalid") is True
    assert dialog.isVisible() and calls == []
    assert len(run(workspace.ledger.audit.entries(action="webhook"))) == audited
    dialog.reject()
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is None


def _try_to_close(qtbot: Any, dialog: Any, close_button: Any) -> None:
    """Every way a person (or the app) closes a dialog: its button, Escape, the window's
    close button, reject()."""
    _click(qtbot, close_button)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    dialog.close()
    dialog.reject()
    qt_turn(qtbot)  # whatever those set off has run


def test_closing_while_a_change_is_written_waits_for_it(
    qtbot: Any, run: Any, open_workspace: Any, monkeypatch: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    errors: list[Any] = []
    monkeypatch.setattr(sys, "excepthook", lambda *error: errors.append(error))
    http = workspace.session.accounts.transport.http
    slow = {"path": "/api/v2/webhooks/cashout", "api": "accounts", "latency_ms": 1500, "times": 1}
    url = _hook("cashout")
    try:
        task, dialog = _open(qtbot, panel, "cashout")
        qtbot.keyClicks(dialog.url_edit, url)
        assert run(http.post("/sandbox/faults", json={**slow, "method": "POST"})).is_success
        _click(qtbot, dialog.save_button)
        qt_wait_until(
            qtbot,
            lambda: dialog.task is not None and not dialog.save_button.isEnabled(),
            "dialog.task is not None and not dialog.save_button.isEnabled()",
        )
        _try_to_close(qtbot, dialog, dialog.close_button)
        assert dialog.isVisible() and not task.done()  # the bank is still answering
        qt_wait_until(qtbot, task.done, "task done")
        assert task.result() == "registered", dialog.banner.detail.text()
        assert _cells(panel, panel.row_of("cashout"))["url"] == url

        task, dialog = _open(qtbot, panel, "cashout")
        assert run(http.post("/sandbox/faults", json={**slow, "method": "DELETE"})).is_success
        _click(qtbot, dialog.remove_button)
        _confirm_removal(qtbot, dialog)
        qt_wait_until(
            qtbot,
            lambda: dialog.task is not None and not dialog.close_button.isEnabled(),
            "dialog.task is not None and not dialog.close_button.isEnabled()",
        )
        _try_to_close(qtbot, dialog, dialog.close_button)
        assert dialog.isVisible() and not task.done()
        qt_wait_until(qtbot, task.done, "task done")
        assert task.result() == "removed", dialog.banner.detail.text()
        assert _cells(panel, panel.row_of("cashout"))["url"] == "(not registered)"
        assert errors == []
    finally:
        run(http.delete("/sandbox/faults"))
        with contextlib.suppress(NotFound):
            run(workspace.webhooks.remove("cashout"))


def test_shutdown_while_a_change_is_written(
    qtbot: Any, run: Any, open_workspace: Any, monkeypatch: Any
) -> None:
    workspace = open_workspace()
    panel = _panel(qtbot, run, workspace)
    errors: list[Any] = []
    monkeypatch.setattr(sys, "excepthook", lambda *error: errors.append(error))
    http = workspace.session.accounts.transport.http
    slow = {"path": "/api/v2/webhooks/cashout", "method": "POST", "latency_ms": 1500, "times": 1}
    try:
        task, dialog = _open(qtbot, panel, "cashout")
        qtbot.keyClicks(dialog.url_edit, _hook("cashout"))
        assert run(http.post("/sandbox/faults", json={**slow, "api": "accounts"})).is_success
        _click(qtbot, dialog.save_button)
        qt_wait_until(
            qtbot,
            lambda: dialog.task is not None and not dialog.save_button.isEnabled(),
            "dialog.task is not None and not dialog.save_button.isEnabled()",
        )
        write = dialog.task
        panel.edit_task = task
        panel.shutdown()  # the app locks: the dialog goes, the write goes on to its end
        qt_wait_until(qtbot, lambda: write.done() and running_changes() == 0, "the write to finish")
        assert write.cancelled() and errors == []  # the dialog's task stopped, quietly
        run(workspace.webhooks.remove("cashout"))  # registered: NotFound otherwise
    finally:
        run(http.delete("/sandbox/faults"))
        with contextlib.suppress(NotFound):
            run(workspace.webhooks.remove("cashout"))


def test_collect_headers() -> None:
    assert collect_headers([(" X-A ", " v "), ("", "")]) == {"X-A": " v "}
    try:
        collect_headers([("", "secret")])
    except ValueError as error:
        assert "secret" not in str(error)
    else:
        raise AssertionError("a value without a name must be refused")


def test_settings_tab_loads_the_pages_when_shown(qtbot: Any, run: Any, open_workspace: Any) -> None:
    from treasury_app.ui.tabs.settings_tab import SettingsTab

    workspace = open_workspace()
    tab = SettingsTab(workspace)
    qtbot.addWidget(tab)
    tab.show()
    assert tab.webhooks_panel is not None and tab.infractions_panel is not None
    assert tab.webhooks_panel.table.rowCount() == 0  # nothing asked before it is shown
    tab.pages.setCurrentWidget(tab.webhooks_panel)
    qt_wait_until(
        qtbot,
        lambda: tab.webhooks_panel.table.rowCount() >= 7,
        "tab.webhooks_panel.table.rowCount() >= 7",
    )
    tab.pages.setCurrentWidget(tab.infractions_panel)
    qt_wait_until(
        qtbot,
        lambda: tab.infractions_panel.model.rowCount() >= 3,
        "tab.infractions_panel.model.rowCount() >= 3",
    )
    tab.shutdown()
