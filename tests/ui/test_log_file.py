"""The log file a support desk reads: a whole sandbox session at DEBUG leaves no password,
client secret, token or private key in it (and does write its lines); an error in an async
slot or the event loop lands there with its traceback; the file rotates at its size cap."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from qasync import asyncSlot

from tests.ui.conftest import reset_token_limits
from tests.ui.test_app_flow import dialog_of, unlock_with
from treasury_app import logging_setup
from treasury_app.services.profiles import ProfileStore
from treasury_app.ui.async_tools import running_tasks
from treasury_app.ui.controller import AppController, StartOptions
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

PAYEE_KEY = "fornecedor@empresa.com.br"


@pytest.fixture
def log_dir(tmp_path: Path) -> Iterator[Path]:
    """The app's logging (as ``main()`` sets it up) at DEBUG, its file in ``tmp_path/logs``;
    the logging configuration of the test run is put back after."""
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", *logging_setup.QUIET_LOGGERS)}
    folder = tmp_path / "logs"
    logging_setup.configure(logging.DEBUG)
    logging.getLogger("treasury_app.test").info("before the file: kept for it")
    assert logging_setup.attach_log_file(folder) == folder / logging_setup.LOG_FILE_NAME
    try:
        yield folder
    finally:
        logging_setup.remove()
        for name, level in levels.items():
            logging.getLogger(name or None).setLevel(level)
        assert root.level == levels[""]


def log_text(folder: Path) -> str:
    for handler in logging.getLogger().handlers:
        handler.flush()
    return "".join(path.read_text("utf-8") for path in sorted(folder.glob("treasury.log*")))


def sandbox_secrets(ready_file: Path) -> set[str]:
    """Every password and client secret in the sandbox's credentials file."""
    ready = json.loads(ready_file.read_text("utf-8"))
    credentials = json.loads(Path(ready["credentials_file"]).read_text("utf-8"))
    found: set[str] = set()

    def walk(value: Any, key: str = "") -> None:
        if isinstance(value, dict):
            for name, item in value.items():
                walk(item, str(name))
        elif isinstance(value, str) and any(word in key for word in ("secret", "password")):
            found.add(value)

    walk(credentials)
    assert len(found) >= 4  # two APIs, a password and a client secret each
    return found


def session_tokens(workspace: Any) -> set[str]:
    tokens = set()
    for transport in workspace.session.transports.values():
        cached = transport.tokens._cached  # the access token the session holds now
        if cached is not None:
            tokens.add(cached.access_token)
    return tokens


@pytest.fixture
def controller(ui_paths: Any, ui_sandbox: Any, qasync_loop: Any, qtbot: Any) -> Iterator[Any]:
    """The app's controller on the UI tests' data dir, opening the sandbox profile."""
    QSettings().clear()
    store = ProfileStore(ui_paths)
    for name in store.list():
        store.delete(name)
    reset_token_limits(ui_sandbox.ready_file)
    app_controller = AppController(ui_paths, StartOptions(sandbox=True))
    task = qasync_loop.create_task(app_controller.run())
    yield app_controller
    if not task.done():
        app_controller.window.quit_requested.emit()
        qtbot.waitUntil(task.done, timeout=10_000)
    qtbot.waitUntil(lambda: running_tasks() == 0, timeout=10_000)


def test_a_whole_sandbox_session_logs_its_lines_and_no_secret(
    log_dir: Path, controller: Any, ui_sandbox: Any, sandbox_profile_and_secrets: Any, qtbot, run
) -> None:
    _, secrets = sandbox_profile_and_secrets
    qtbot.waitUntil(lambda: dialog_of(UnlockDialog) is not None, timeout=15_000)
    unlock = dialog_of(UnlockDialog)
    unlock_with(qtbot, unlock, {"qrcodes": "wrong password", "accounts": "wrong password"})
    qtbot.waitUntil(lambda: unlock.unlock_task is not None and unlock.unlock_task.done())
    unlock_with(qtbot, unlock, dict(secrets.pfx_passwords))  # the pfx passwords, typed
    window = controller.window
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=20_000)
    workspace = controller.workspace
    # The warm-up asks both APIs for a token (the client secrets go out there).
    transports = workspace.session.transports.values()
    qtbot.waitUntil(lambda: all(t.tokens._cached is not None for t in transports), timeout=15_000)
    tokens = session_tokens(workspace)
    review = workspace.payouts.prepare_key(PAYEE_KEY, "1.23")
    entry = run(workspace.payouts.send(review))
    assert entry.amount == Decimal("1.23")
    tokens |= session_tokens(workspace)
    window.lock_action.trigger()  # closes the session: keys and tokens go
    qtbot.waitUntil(lambda: workspace.session.closed, timeout=10_000)

    text = log_text(log_dir)
    for expected in (
        "before the file: kept for it",
        "log file opened",
        "certificates of profile 'Sandbox' opened",
        "session of profile 'Sandbox' open",
        "qrcodes token obtained",
        "accounts token obtained",
        "session of profile 'Sandbox' closed",
    ):
        assert expected in text
    assert " -> 20" in text  # the transport's DEBUG lines: the payout's request among them
    secret_values = sandbox_secrets(ui_sandbox.ready_file) | tokens
    assert len(tokens) == 2
    leaked = [value for value in secret_values if value in text]
    assert leaked == []
    assert "-----BEGIN" not in text and "PRIVATE KEY" not in text
    assert "authorization" not in text.lower()  # hpack's header tables stay out, even at DEBUG


@pytest.mark.qt_no_exception_capture
def test_an_error_in_an_async_slot_reaches_the_file_with_its_traceback(
    log_dir: Path, qtbot
) -> None:
    from treasury_app.app import _install_excepthook

    class Broken(QPushButton):
        @asyncSlot()
        async def on_click(self) -> None:
            await asyncio.sleep(0)
            raise RuntimeError("broken on purpose (4711)")

    previous = sys.excepthook
    _install_excepthook()
    try:
        button = Broken("Go")
        qtbot.addWidget(button)
        button.clicked.connect(button.on_click)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "broken on purpose (4711)" in log_text(log_dir), timeout=5_000)
    finally:
        sys.excepthook = previous
    text = log_text(log_dir)
    assert "ERROR treasury_app: Unhandled error" in text
    assert "Traceback (most recent call last)" in text
    assert "in on_click" in text and "RuntimeError: broken on purpose (4711)" in text
    box = next(
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QMessageBox) and w.objectName() == "unexpected-error" and w.isVisible()
    )
    box.close()
    box.deleteLater()


def test_an_error_the_event_loop_reports_reaches_the_file(log_dir: Path, qasync_loop) -> None:
    def forgotten() -> None:
        raise ValueError("nobody awaited this (4712)")

    try:
        forgotten()
    except ValueError as error:
        raised = error
    qasync_loop.set_exception_handler(logging_setup.log_loop_exception)  # as the app's _run
    try:
        qasync_loop.call_exception_handler(
            {"message": "Task exception was never retrieved", "exception": raised}
        )
    finally:
        qasync_loop.set_exception_handler(None)
    text = log_text(log_dir)
    assert "ERROR treasury_app: Task exception was never retrieved" in text
    assert "in forgotten" in text and "ValueError: nobody awaited this (4712)" in text


def test_the_file_rotates_at_its_size_cap_keeping_a_few(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    try:
        logging_setup.attach_log_file(folder, max_bytes=4_000, backup_count=3)
        logger = logging.getLogger("treasury_app.test.rotation")
        logger.setLevel(logging.INFO)
        for number in range(400):
            logger.info("line %04d %s", number, "x" * 80)
    finally:
        logging_setup.remove()
        logging.getLogger("treasury_app.test.rotation").setLevel(logging.NOTSET)
    names = sorted(path.name for path in folder.iterdir())
    assert names == ["treasury.log", "treasury.log.1", "treasury.log.2", "treasury.log.3"]
    assert all(path.stat().st_size <= 4_000 for path in folder.iterdir())
    assert "line 0399" in (folder / "treasury.log").read_text("utf-8")  # the newest, current
    assert "line 0000" not in log_text(folder)  # the oldest went with the fourth rotation


def test_secret_shaped_text_is_redacted_on_its_way_to_the_file(log_dir: Path) -> None:
    logger = logging.getLogger("treasury_app.test.redaction")
    logger.warning("answer: %s", '{"access_token": "tok-4713", "expires_in": 300}')
    logger.warning("form client_secret=sec-4714&grant_type=client_credentials")
    logger.warning("header Authorization: Bearer bearer-4715-abcdef")
    logger.warning("sent with Bearer longbearer-4721-abcdef")
    logger.warning("pfx_password=pw-4716 and password: 'pw-4717'")
    logger.warning("key\n-----BEGIN PRIVATE KEY-----\nMIIEkey4718\n-----END PRIVATE KEY-----")
    logging.getLogger("hpack.hpack").debug("Decoded (b'authorization', b'Bearer hp-4719')")
    logger.warning("proxy http://empresa:px-4720@proxy.empresa.com.br:3128 refused")
    text = log_text(log_dir)
    secrets = ("tok-4713", "sec-4714", "bearer-4715", "pw-4716", "pw-4717", "key4718", "4719")
    for value in (*secrets, "px-4720", "4721"):
        assert value not in text
    assert "http://empresa:********@proxy.empresa.com.br:3128" in text
    assert text.count("********") >= 5 and "[private key removed]" in text
    for plain in ("the password is wrong", "the bearer token expired", "basic checks passed"):
        assert logging_setup.redact(plain) == plain
