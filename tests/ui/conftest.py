"""UI tests: offscreen Qt, one session-scoped qasync loop that every UI test runs on.

The loop is created once on the QApplication (``already_running=True``: Qt's own event
processing drives it, so ``qtbot.waitUntil`` lets coroutines progress) and is never stopped
per test — stopping it would quit the application and every later wait would time out.
pytest-asyncio's loop (API and service tests) may have been the current loop before a UI
test: each UI test makes the qasync loop current again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import ssl
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.waiting import WAIT_SECONDS, WaitTimeout, wait_until

os.environ.setdefault("QT_API", "pyside6")

T = TypeVar("T")


@pytest.fixture(scope="session")
def qasync_loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)  # marks itself as running
    asyncio.events._set_running_loop(None)  # ... only while a UI test runs (below)
    executor = qasync.QThreadExecutor(4)  # asyncio.to_thread's threads, shut down at the end
    loop.set_default_executor(executor)
    yield loop
    executor.shutdown(wait=True)


@pytest.fixture(autouse=True)
def _qasync_current(qasync_loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """Make the qasync loop the running loop for this test only: pytest-asyncio's runner
    refuses to start while another loop is marked as running in the thread.

    Before it stops being the running loop, every task the test left on it (a load cancelled
    when its tab closed, a connection being torn down) has finished unwinding: on a loaded
    machine their last steps would otherwise run in a later test's Qt event processing, where
    no loop is running ("no running event loop" from anyio's clean-up)."""
    from PySide6.QtCore import QCoreApplication

    asyncio.set_event_loop(qasync_loop)
    asyncio.events._set_running_loop(qasync_loop)
    try:
        yield

        def all_finished() -> bool:
            QCoreApplication.processEvents()  # the loop's callbacks are Qt events
            return not _unfinished(qasync_loop)

        try:
            wait_until(all_finished, "the tasks the test left on the loop to finish")
        except WaitTimeout:
            left = _unfinished(qasync_loop)
            raise WaitTimeout(f"tasks still running after the test: {left}") from None
    finally:
        asyncio.events._set_running_loop(None)


def _unfinished(loop: asyncio.AbstractEventLoop) -> list[str]:
    return [task.get_name() + ": " + repr(task.get_coro()) for task in asyncio.all_tasks(loop)]


@pytest.fixture
def run(qtbot: Any, qasync_loop: asyncio.AbstractEventLoop) -> Callable[..., Any]:
    """``run(coro, timeout=WAIT_MS)``: drive a coroutine on the qasync loop until it is done
    (Qt keeps processing events meanwhile) and return its result."""
    from tests.waiting import WAIT_MS, qt_wait_until

    def runner(coro: Coroutine[Any, Any, T], timeout: int = WAIT_MS) -> T:
        task = qasync_loop.create_task(coro)
        what = f"the coroutine {getattr(coro, '__qualname__', coro)!s} to finish"
        qt_wait_until(qtbot, task.done, what, timeout=timeout / 1000)
        return task.result()

    return runner


@pytest.fixture
def settle(qtbot: Any) -> Callable[..., Any]:
    """``settle(task)``: wait until a task a widget started in the background (a list read
    from the ledger, say) is done and return its result."""

    from tests.waiting import WAIT_MS, qt_wait_until

    def waiter(task: asyncio.Task[T] | None, timeout: int = WAIT_MS) -> T:
        assert task is not None, "nothing was started"
        qt_wait_until(
            qtbot, task.done, f"the task {task.get_name()} to finish", timeout=timeout / 1000
        )
        return task.result()

    return waiter


# --------------------------------------------------------------------------------------------
# A sandbox bank and an unlocked workspace for the UI tests


@pytest.fixture(scope="session")
def ui_paths(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from treasury_app.config import AppPaths

    paths = AppPaths.default(tmp_path_factory.mktemp("ui-app"))
    paths.ensure()
    return paths


@pytest.fixture(scope="session")
def ui_sandbox(ui_paths: Any) -> Iterator[Any]:
    """The app's own sandbox bank for this data dir (as ``make run`` starts it), business-day
    morning clock."""
    from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

    handle = ensure_sandbox_blocking(ui_paths, extra_args=("--clock-start", "2026-11-18T13:00:00Z"))
    yield handle
    handle.stop()


@pytest.fixture(scope="session")
def sandbox_profile_and_secrets(ui_sandbox: Any) -> Any:
    from treasury_app.services.profiles import sandbox_profile

    return sandbox_profile(ui_sandbox.ready_file)


@pytest.fixture
def open_workspace(
    run: Callable[..., Any], ui_paths: Any, ui_sandbox: Any, sandbox_profile_and_secrets: Any
) -> Iterator[Callable[[], Any]]:
    """``open_workspace()`` unlocks the sandbox profile on the qasync loop and returns a
    :class:`~treasury_app.services.workspace.Workspace`; it is closed after the test."""
    opened: list[Any] = []

    def opener() -> Any:
        workspace = workspace_on(run, ui_paths, ui_sandbox, sandbox_profile_and_secrets)
        opened.append(workspace)
        return workspace

    yield opener
    for workspace in opened:
        run(workspace.close())


def workspace_on(run: Callable[..., Any], paths: Any, handle: Any, profile_and_secrets: Any) -> Any:
    """An unlocked workspace on the sandbox ``handle`` (dates follow its clock); the caller
    closes it."""
    from treasury_app.services.session import Session
    from treasury_app.services.workspace import open_workspace as workspace_of

    profile, secrets = profile_and_secrets
    reset_token_limits(handle.ready_file)
    session = run(
        Session.open(
            profile,
            pfx_passwords=secrets.pfx_passwords,
            client_secrets=secrets.client_secrets,
            paths=paths,
        )
    )
    return run(workspace_of(session))  # dates follow the sandbox's clock


@contextlib.contextmanager
def private_sandbox(directory: Path) -> Iterator[tuple[Any, Any, Any]]:
    """A sandbox bank of its own in ``directory`` (for tests that move its clock by days, which
    the shared one must not): ``(paths, handle, (profile, secrets))``, stopped at the end."""
    from treasury_app.config import AppPaths
    from treasury_app.services.profiles import sandbox_profile
    from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

    paths = AppPaths.default(directory)
    paths.ensure()
    handle = ensure_sandbox_blocking(paths, extra_args=("--clock-start", "2026-11-18T13:00:00Z"))
    try:
        yield paths, handle, sandbox_profile(handle.ready_file)
    finally:
        handle.stop()


@pytest.fixture(scope="module")
def own_bank(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Any, Any, Any]]:
    """A sandbox of the test module's own (:func:`private_sandbox`: its clock at a Wednesday
    morning, moved by the module's tests only), its profile and secrets."""
    name = request.module.__name__.rsplit(".", 1)[-1]
    with private_sandbox(tmp_path_factory.mktemp(name)) as bank:
        yield bank


@pytest.fixture
def own_workspace(run: Callable[..., Any], own_bank: tuple[Any, Any, Any]) -> Iterator[Any]:
    """A workspace opened now on :func:`own_bank`: its dates follow that sandbox's clock as it
    is at this point."""
    opened = workspace_on(run, *own_bank)
    yield opened
    run(opened.close())


def reset_token_limits(ready_file: Path) -> None:
    """Each workspace asks both APIs for a token; many tests in one minute would meet the
    sandbox's 10-a-minute limit (and wait out its Retry-After), so start each with it reset."""
    import httpx

    from tests.sandbox_harness import load_pfx_into

    ready = json.loads(Path(ready_file).read_text("utf-8"))
    credentials = json.loads(Path(ready["credentials_file"]).read_text("utf-8"))
    context = ssl.create_default_context(cafile=ready["ca_file"])
    cred = credentials["accounts"]
    load_pfx_into(context, Path(cred["pfx"]), cred["pfx_password"])
    with httpx.Client(
        base_url=ready["accounts_url"], verify=context, timeout=WAIT_SECONDS
    ) as client:
        client.post("/sandbox/tokens/reset-limits").raise_for_status()


@pytest.fixture
def start_app(qasync_loop: asyncio.AbstractEventLoop, qtbot: Any) -> Iterator[Callable[..., Any]]:
    """``start_app(paths, options, **kwargs)``: an :class:`AppController` running on the qasync
    loop, as ``make run`` starts one. At the end of the test it is quit as a person quits, and
    its run must end (a lost quit fails here, not in the next test); whatever it still showed
    is closed, so that nothing it left on screen reaches a later test."""
    from PySide6.QtWidgets import QDialog

    from tests.waiting import qt_wait_until
    from treasury_app.ui.async_tools import running_tasks
    from treasury_app.ui.controller import AppController

    started: list[tuple[Any, asyncio.Task[None]]] = []

    def starter(paths: Any, options: Any = None, **kwargs: Any) -> Any:
        controller = AppController(paths, options, **kwargs)
        controller.run_task = qasync_loop.create_task(controller.run())  # for the test's waits
        started.append((controller, controller.run_task))
        return controller

    yield starter
    try:
        for controller, task in started:
            if not task.done():
                qt_wait_until(qtbot, lambda c=controller: c.window is not None, "the app's window")
                controller.window.quit_requested.emit()
                qt_wait_until(qtbot, task.done, "the app's run to end after Quit")
            task.result()
        # Cancelled loads finish their clean-up while the loop is still this test's.
        qt_wait_until(qtbot, lambda: running_tasks() == 0, "the app's background tasks to end")
    finally:
        for controller, task in started:
            if not task.done():
                task.cancel()
            if controller.window is not None:
                for dialog in controller.window.findChildren(QDialog):
                    dialog.reject()
                controller.window.hide()
            if controller.sandbox is not None:
                controller.sandbox.stop()


@pytest.fixture
def restore_translation(qapp: Any) -> Iterator[None]:
    """Remove every translator a test installs and put the default locale back."""
    from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

    locale_before = QLocale()
    translators_before = set(qapp.findChildren(QTranslator))
    try:
        yield
    finally:
        # install_translator() parents its translator to the application: find it there.
        for translator in qapp.findChildren(QTranslator):
            if translator not in translators_before:
                qapp.removeTranslator(translator)
                translator.setParent(None)
                translator.deleteLater()
        QLocale.setDefault(locale_before)
        assert QCoreApplication.translate("MainWindow", "Pix payouts") == "Pix payouts"
