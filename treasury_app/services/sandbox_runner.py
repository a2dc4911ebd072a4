"""Start the embedded sandbox bank as a child process, or reuse the one already running for
this data dir, and stop it when the app exits (only if the app started it).

The sandbox announces itself in ``<data dir>/sandbox/ready.json`` (addresses, CA, credentials
file, pid); a ready file whose process is gone or whose port refuses connections is stale.

A sandbox never outlives the app that started it: the app holds the sandbox's standard input
open (``--exit-with-parent``) and never writes to it; when the app quits, crashes or is killed,
the system closes that pipe and the sandbox stops itself cleanly, on every platform. An app
that *reuses* a sandbox started by another app process therefore loses it when that first app
goes; its controller notices (``AppController._watch_sandbox``) and offers to start one of its
own. One rule, no ownership hand-over: the sandbox lives as long as the app that started it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from treasury_app.config import AppPaths
from treasury_app.private_files import make_private_dir, make_private_file

log = logging.getLogger("treasury_app.services.sandbox")
START_TIMEOUT = 30.0


class SandboxStartError(RuntimeError):
    """The sandbox bank could not be started; the message says why and where its log is."""


@dataclass
class SandboxHandle:
    directory: Path
    ready_file: Path
    ready: dict[str, Any]
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def started_here(self) -> bool:
        return self.process is not None

    def alive(self) -> bool:
        """Whether the sandbox bank still runs and answers on both ports (it may have been
        killed, or crashed, since it was started or found)."""
        if self.process is not None and self.process.poll() is not None:
            return False
        return _running(self.ready_file) is not None

    @property
    def log_file(self) -> Path:
        return self.directory / "sandbox.log"

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the sandbox if this app started it (a reused one keeps running).

        Closing its standard input is its clean stop everywhere (SIGTERM is a hard kill on
        Windows); a sandbox that does not stop in ``timeout`` seconds is killed."""
        if self.process is None:
            return
        _close_pipe(self.process)
        if self.process.poll() is not None:
            return
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        log.info("sandbox bank stopped")


def _close_pipe(process: subprocess.Popen[bytes]) -> None:
    if process.stdin is not None:
        with contextlib.suppress(OSError):
            process.stdin.close()


# A frozen build (PyInstaller) has no ``python -m``: its own binary runs the sandbox bank when
# this is its first argument (``treasury_app.app.entry`` dispatches it before anything else).
FROZEN_SANDBOX_FLAG = "--run-sandbox"


def sandbox_command() -> list[str]:
    """The command that runs the sandbox bank with this interpreter, or this frozen binary."""
    if getattr(sys, "frozen", False):
        return [sys.executable, FROZEN_SANDBOX_FLAG]
    return [sys.executable, "-m", "treasury_app.sandbox"]


def sandbox_dir(paths: AppPaths) -> Path:
    return paths.data_dir / "sandbox"


def _alive(pid: int) -> bool:
    if sys.platform == "win32":  # os.kill(pid, 0) would terminate the process there
        return _alive_windows(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _alive_windows(pid: int) -> bool:
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    query_limited_information, still_active = 0x1000, 259
    handle = kernel32.OpenProcess(query_limited_information, False, pid)
    if not handle:
        return False
    try:
        code = ctypes.c_ulong()
        if not kernel32.GetExitCodeProcess(handle, ctypes.byref(code)):
            return False
        return code.value == still_active
    finally:
        kernel32.CloseHandle(handle)


def _accepts(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 443), 1):
            return True
    except OSError:
        return False


def _running(ready_file: Path) -> dict[str, Any] | None:
    try:
        ready = json.loads(ready_file.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    pid = ready.get("pid")
    if not isinstance(pid, int) or not _alive(pid):
        return None
    if not all(_accepts(ready.get(k, "")) for k in ("qrcodes_url", "accounts_url")):
        return None
    return dict(ready)


def ensure_sandbox_blocking(
    paths: AppPaths, *, extra_args: tuple[str, ...] = (), timeout: float = START_TIMEOUT
) -> SandboxHandle:
    """Reuse the sandbox running for ``paths`` or start one and wait until it is ready."""
    directory = sandbox_dir(paths)
    make_private_dir(directory)
    ready_file = directory / "ready.json"
    ready = _running(ready_file)
    if ready is not None:
        log.info("reusing the sandbox bank already running (pid %s)", ready["pid"])
        return SandboxHandle(directory, ready_file, ready)
    with contextlib.suppress(FileNotFoundError):
        ready_file.unlink()
    log_file = directory / "sandbox.log"
    with log_file.open("ab") as output:
        make_private_file(log_file)
        process = subprocess.Popen(
            [
                *sandbox_command(),
                "--data-dir",
                str(directory / "bank"),
                "--ready-file",
                str(ready_file),
                "--exit-with-parent",
                *extra_args,
            ],
            stdout=output,
            stderr=subprocess.STDOUT,
            # Held open, never written: the sandbox stops when it closes (module docstring).
            stdin=subprocess.PIPE,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            _close_pipe(process)
            raise SandboxStartError(
                f"The sandbox bank stopped at start (exit {process.returncode}); see {log_file}."
            )
        ready = _running(ready_file) if ready_file.exists() else None
        if ready is not None:
            log.info("sandbox bank started (pid %s)", process.pid)
            return SandboxHandle(directory, ready_file, ready, process)
        time.sleep(0.05)
    process.kill()
    process.wait()
    _close_pipe(process)
    raise SandboxStartError(f"The sandbox bank did not start in {timeout:.0f} s; see {log_file}.")


async def ensure_sandbox(
    paths: AppPaths, *, extra_args: tuple[str, ...] = (), timeout: float = START_TIMEOUT
) -> SandboxHandle:
    """:func:`ensure_sandbox_blocking` off the event loop (the window stays responsive)."""
    return await asyncio.to_thread(
        ensure_sandbox_blocking, paths, extra_args=extra_args, timeout=timeout
    )
