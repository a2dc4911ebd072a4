"""Killing a child process the hard way, on every platform: ``Popen.kill()`` is SIGKILL on
POSIX and TerminateProcess on Windows (``signal.SIGKILL`` does not exist there). Either way
the child runs no clean-up of any kind: what the exactly-once tests need to prove that a
crash of the app between journal and answer pays nothing twice."""

from __future__ import annotations

import signal
import subprocess
import sys

from tests.waiting import WAIT_SECONDS

if sys.platform == "win32":
    # Popen.kill() calls TerminateProcess(handle, 1): the process ends with exit code 1.
    KILLED_RETURNCODE = 1
else:
    KILLED_RETURNCODE = -signal.SIGKILL


def kill_hard(process: subprocess.Popen[str], timeout: float = WAIT_SECONDS) -> int:
    """Kill ``process`` with no chance to clean up, wait for it and return its exit code."""
    process.kill()
    return process.wait(timeout=timeout)


def was_killed_hard(process: subprocess.Popen[str]) -> bool:
    """Whether ``process`` ended by :func:`kill_hard` (not by exiting on its own)."""
    return process.returncode == KILLED_RETURNCODE
