"""The log file a support desk reads: a whole sandbox session at DEBUG leaves no password,
client secret, token or private key in it (and does write its lines); an error in an async
slot or the event loop lands there with its traceback; the file rotates at its size cap."""

from __future__ import annotations

import asyncio
import json
import logging
import os
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
from tests.waiting import qt_wait_until
from treasury_app import logging_setup
from treasury_app.services.profiles import ProfileStore
from treasury_app.ui.controller import StartOptions
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
def controller(ui_paths: Any, ui_sandbox: Any, start_app: Any, run: Any) -> Any:
    """The app's controller on the UI tests' data dir, opening the sandbox profile."""
    QSettings().clear()
    store = ProfileStore(ui_paths)
    for name in store.list():
        run(store.delete(name))
    reset_token_limits(ui_sandbox.ready_file)
    return start_app(ui_paths, StartOptions(sandbox=True))


def test_a_whole_sandbox_session_logs_its_lines_and_no_secret(
    log_dir: Path, controller: Any, ui_sandbox: Any, sandbox_profile_and_secrets: Any, qtbot, run
) -> None:
    _, secrets = sandbox_profile_and_secrets
    qt_wait_until(
        qtbot, lambda: dialog_of(UnlockDialog) is not None, "dialog_of(UnlockDialog) is not None"
    )
    unlock = dialog_of(UnlockDialog)
    unlock_with(qtbot, unlock, {"qrcodes": "wrong password", "accounts": "wrong password"})
    qt_wait_until(
        qtbot,
        lambda: unlock.unlock_task is not None and unlock.unlock_task.done(),
        "unlock.unlock_task is not None and unlock.unlock_task.done()",
    )
    unlock_with(qtbot, unlock, dict(secrets.pfx_passwords))  # the pfx passwords, typed
    window = controller.window
    qt_wait_until(qtbot, lambda: window.workspace is not None, "window.workspace is not None")
    workspace = controller.workspace
    # The warm-up asks both APIs for a token (the client secrets go out there).
    transports = workspace.session.transports.values()
    qt_wait_until(
        qtbot,
        lambda: all(t.tokens._cached is not None for t in transports),
        "all(t.tokens._cached is not None for t in transports)",
    )
    tokens = session_tokens(workspace)
    review = run(workspace.payouts.prepare_key(PAYEE_KEY, "1.23"))
    entry = run(workspace.payouts.send(review))
    assert entry.amount == Decimal("1.23")
    tokens |= session_tokens(workspace)
    window.lock_action.trigger()  # closes the session: keys and tokens go
    # Its last line is written once the clients and the ledger are closed.
    closed_line = "session of profile 'Sandbox' closed"
    qt_wait_until(qtbot, lambda: closed_line in log_text(log_dir), "the session's closing line")

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
        qt_wait_until(
            qtbot,
            lambda: "broken on purpose (4711)" in log_text(log_dir),
            "'broken on purpose (4711)' in log_text(log_dir)",
        )
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


def test_a_rotation_another_instance_blocks_loses_no_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Windows a second instance holding ``treasury.log`` open makes the rename fail: the
    lines go on into the current file, and the rotation happens once it can."""
    folder = tmp_path / "logs"
    real_rename = os.rename
    failures: list[str] = []

    def held_open(source: Any, dest: Any) -> None:
        failures.append(str(source))
        raise PermissionError(32, "The process cannot access the file", str(source))

    logger = logging.getLogger("treasury_app.test.shared")
    logger.setLevel(logging.INFO)
    try:
        logging_setup.attach_log_file(folder, max_bytes=4_000, backup_count=3)
        monkeypatch.setattr(os, "rename", held_open)
        for number in range(100):  # ~10 kB: far past the cap
            logger.info("line %04d %s", number, "x" * 80)
        text = (folder / "treasury.log").read_text("utf-8")
        assert failures  # the rotation was tried and failed
        assert all(f"line {number:04d}" in text for number in range(100))  # none dropped
        assert "log file not rotated" in text  # said once, in the file itself
        assert text.count("log file not rotated") == 1
        assert len(failures) < 20  # retried now and then, not before every line
        monkeypatch.setattr(os, "rename", real_rename)  # the other instance has quit
        for number in range(100, 200):
            logger.info("line %04d %s", number, "x" * 80)
    finally:
        logging_setup.remove()
        logger.setLevel(logging.NOTSET)
    assert (folder / "treasury.log.1").exists()  # rotated again once it could
    text = log_text(folder)
    assert all(f"line {number:04d}" in text for number in range(120, 200))


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


@pytest.mark.parametrize(
    ("text", "leaks", "kept"),
    [
        # Plural keys holding a dict's repr (the unlock's typed secrets, per API).
        (
            "opening client_secrets={'qrcodes': 'cs-4801', 'accounts': 'cs-4802'} now",
            ("cs-4801", "cs-4802"),
            ("opening client_secrets=********", " now"),
        ),
        ("open(pfx_passwords={'qrcodes': 'p}w-4803'})", ("p}w-4803", "w-4803"), ("open(",)),
        ("call(pfx_passwords=['pw-4804', \"pw-4805\"], x=1)", ("4804", "4805"), ("x=1)",)),
        ("{'passwords': {'qrcodes': 'pw-4806'}, 'profile': 'acme'}", ("4806",), ("acme",)),
        # A bare "secret", with "=" or ":".
        ("secret=sec-4807&grant_type=x", ("sec-4807",), ("grant_type=x",)),
        ('{"secret": "sec-4808", "id": 7}', ("sec-4808",), ('"id": 7',)),
        ("webhook secret: sec-4809", ("sec-4809",), ("webhook secret: ********",)),
        # bytes reprs after such keys, an escaped quote inside.
        ("password=b'pw-4810\\'x' done", ("pw-4810", "x' done"), (" done",)),
        ("decoded (b'client_secret', b'cs-4811')", ("cs-4811",), ("(b'client_secret', ********)",)),
        ('client_secret: b"cs-4812"', ("cs-4812",), ("client_secret: ********",)),
        # A proxy URL: a lone token as userinfo; a password holding a raw "@".
        ("proxy http://tok-4813@proxy.local:3128 down", ("tok-4813",), ("http://********@proxy",)),
        (
            "proxy http://ana:p@ss-4814@proxy.local:3128/x?a=b@c",
            ("p@ss", "ss-4814"),
            ("http://ana:********@proxy.local:3128/x?a=b@c",),
        ),
    ],
)
def test_more_secret_shapes_are_redacted(
    text: str, leaks: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    masked = logging_setup.redact(text)
    for value in leaks:
        assert value not in masked, masked
    for value in kept:
        assert value in masked, masked


@pytest.mark.qt_no_exception_capture
def test_the_unexpected_error_box_masks_what_support_would_be_sent(qtbot) -> None:
    from treasury_app.app import _install_excepthook

    previous = sys.excepthook
    _install_excepthook()
    hook, sys.excepthook = sys.excepthook, previous
    try:
        raise RuntimeError(
            "token refused: Authorization: Bearer eyJhbGciOi-4901-abcdef, client_secret=cs-4902"
        )
    except RuntimeError as error:
        hook(type(error), error, error.__traceback__)
    box = next(
        w
        for w in QApplication.topLevelWidgets()
        if isinstance(w, QMessageBox) and w.objectName() == "unexpected-error" and w.isVisible()
    )
    try:
        shown, details = box.text(), box.detailedText()
    finally:
        box.close()
        box.deleteLater()
    assert shown.startswith("Unexpected error: token refused")
    assert "RuntimeError: token refused" in details and "Traceback" in details
    for text in (shown, details):
        assert "4901" not in text and "cs-4902" not in text
        assert "client_secret=********" in text
