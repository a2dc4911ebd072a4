"""The sandbox never outlives the app that started it: killing the app (SIGKILL, Windows'
TerminateProcess) closes the pipe the sandbox watches, and the sandbox stops cleanly within
seconds. A sandbox run by hand (no ``--exit-with-parent``) keeps running."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.processes import kill_hard
from tests.sandbox_harness import RunningSandbox
from tests.waiting import LONG_WAIT_SECONDS, WAIT_SECONDS, wait_until
from treasury_app.config import AppPaths
from treasury_app.sandbox.server import ParentWatch
from treasury_app.services.sandbox_runner import _alive, ensure_sandbox_blocking, sandbox_dir

# A stand-in for the app: starts the sandbox through the runner, says its pid, then blocks.
PARENT = """
import sys, time
from pathlib import Path
from treasury_app.config import AppPaths
from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

paths = AppPaths.default(Path(sys.argv[1]))
paths.ensure()
handle = ensure_sandbox_blocking(paths)
print(handle.ready["pid"], flush=True)
time.sleep(600)
"""


@pytest.fixture(scope="module")
def app_paths(tmp_path_factory: pytest.TempPathFactory) -> AppPaths:
    """One data dir for the module: its sandboxes create the certificates once."""
    paths = AppPaths.default(tmp_path_factory.mktemp("parent-watch"))
    paths.ensure()
    return paths


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended; a zombie has (an orphan is reaped by whoever adopted it,
    which in a container may never happen)."""
    stat_file = Path(f"/proc/{pid}/stat")
    if sys.platform.startswith("linux"):
        try:
            state = stat_file.read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return True
        return state in ("Z", "X")
    return not _alive(pid)


def test_killing_the_app_stops_its_sandbox(app_paths: AppPaths) -> None:
    log_file = sandbox_dir(app_paths) / "sandbox.log"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, str(app_paths.data_dir.parent)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = parent.stdout.readline() if parent.stdout else ""
        assert line.strip().isdigit(), parent.stderr.read() if parent.stderr else line
        pid = int(line)
        assert not _gone(pid)
        started = log_file.stat().st_size

        kill_hard(parent)
        wait_until(lambda: _gone(pid), f"the sandbox (pid {pid}) gone after its app")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for stream in (parent.stdout, parent.stderr):
            if stream is not None:
                stream.close()
    # The clean stop, not a crash: the ready file is removed and the log says so.
    assert not (sandbox_dir(app_paths) / "ready.json").exists()
    with log_file.open("rb") as log:
        log.seek(started)
        tail = log.read().decode("utf-8", "replace")
    assert "Sandbox bank stopped." in tail and "forced" not in tail


def test_closing_the_pipe_stops_the_sandbox(app_paths: AppPaths) -> None:
    handle = ensure_sandbox_blocking(app_paths)
    try:
        assert handle.started_here and handle.process is not None
        assert handle.process.stdin is not None
        handle.process.stdin.close()
        assert handle.process.wait(timeout=WAIT_SECONDS) == 0
        assert not handle.ready_file.exists()
        assert not handle.alive()
    finally:
        handle.stop()


def test_stop_is_the_pipe_and_a_clean_exit(app_paths: AppPaths) -> None:
    handle = ensure_sandbox_blocking(app_paths)
    assert handle.process is not None
    handle.stop(timeout=WAIT_SECONDS)
    assert handle.process.returncode == 0  # not killed: it stopped by itself
    assert not handle.ready_file.exists()


def test_a_sandbox_run_by_hand_ignores_its_standard_input(tmp_path: Path) -> None:
    """No ``--exit-with-parent``: an input at end-of-file from the start changes nothing. A
    watch reads that end-of-file at once, long before the certificates are made: a sandbox
    that watched would never announce itself ready, or would stop as it did, saying its app
    is gone. This one gets ready, answers, and says no such thing."""
    ready_file = tmp_path / "ready.json"
    output = tmp_path / "sandbox.out"
    with output.open("w") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "treasury_app.sandbox",
                "--data-dir",
                str(tmp_path / "bank"),
                "--ready-file",
                str(ready_file),
            ],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        wait_until(
            lambda: ready_file.exists() or process.poll() is not None,
            "the sandbox ready (or gone)",
            timeout=LONG_WAIT_SECONDS,
        )
        assert process.poll() is None, output.read_text()
        ready = json.loads(ready_file.read_text())
        credentials = json.loads(Path(ready["credentials_file"]).read_text())
        running = RunningSandbox(process, tmp_path / "bank", ready, credentials, 0.0)  # type: ignore[arg-type]
        with running.client("accounts") as client:
            assert client.get("/sandbox/status").status_code == 200
        assert process.poll() is None
        assert "gone" not in output.read_text()
    finally:
        process.terminate()
        process.wait(timeout=WAIT_SECONDS)


def test_the_watch_stops_the_loop_and_forces_an_exit_if_the_stop_hangs() -> None:
    read_end, write_end = os.pipe()
    exits: list[int] = []
    forced = threading.Event()

    def force_exit(code: int) -> None:
        exits.append(code)
        forced.set()

    watch = ParentWatch(read_end, grace=0.2, force_exit=force_exit).start()

    async def served() -> None:
        stop = asyncio.Event()
        watch.stop_with(asyncio.get_running_loop(), stop)
        os.close(write_end)  # the parent goes
        await asyncio.wait_for(stop.wait(), WAIT_SECONDS)

    try:
        asyncio.run(served())
        assert watch.gone.is_set()
        assert forced.wait(WAIT_SECONDS)  # nobody ended the process: the watch does
        assert exits == [1]
    finally:
        os.close(read_end)


def test_a_parent_gone_before_the_loop_runs_stops_it_at_once() -> None:
    read_end, write_end = os.pipe()
    os.close(write_end)
    watch = ParentWatch(read_end, grace=0, force_exit=lambda code: None).start()
    try:
        assert watch.gone.wait(WAIT_SECONDS)

        async def served() -> None:
            stop = asyncio.Event()
            watch.stop_with(asyncio.get_running_loop(), stop)
            await asyncio.wait_for(stop.wait(), WAIT_SECONDS)

        asyncio.run(served())
    finally:
        os.close(read_end)
