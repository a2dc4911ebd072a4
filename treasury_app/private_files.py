"""Folders and files only their owner may open: ledgers, receipts, the sandbox's keys and logs.

POSIX: modes 0700 and 0600. Windows ignores those modes, so there a folder gets an explicit
ACL instead: the current user with full control, inherited ACEs removed (``icacls``). Files
and folders created inside such a folder inherit that single entry, so within one process
only the topmost folder is set; anything else is set on its own.
"""

from __future__ import annotations

import contextlib
import getpass
import logging
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger("treasury_app.private_files")

IS_WINDOWS = sys.platform == "win32"

# Folders this process has made private on Windows: what is created under them inherits it.
_private_roots: set[Path] = set()


def make_private_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) if needed and make it its owner's only."""
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    if IS_WINDOWS:
        _restrict_on_windows(path, directory=True)
    else:
        with contextlib.suppress(OSError):  # mkdir's mode spares an existing folder
            path.chmod(0o700)
    return path


def make_private_file(path: Path) -> Path:
    """Make the existing file ``path`` readable and writable by its owner only."""
    if IS_WINDOWS:
        _restrict_on_windows(path, directory=False)
    else:
        with contextlib.suppress(OSError):
            path.chmod(0o600)
    return path


def current_account() -> str:
    """The Windows account running the app, as ``icacls`` names it (``DOMAIN\\user``)."""
    user = getpass.getuser()
    domain = os.environ.get("USERDOMAIN", "")
    return f"{domain}\\{user}" if domain else user


def icacls_command(path: Path, account: str, *, directory: bool) -> list[str]:
    """The command giving ``account`` alone full control of ``path``: inheritance removed
    (``/inheritance:r``), its grant replacing any other (``/grant:r``); a folder's grant is
    inherited by what it contains (``(OI)(CI)``)."""
    grant = f"{account}:(OI)(CI)F" if directory else f"{account}:F"
    return ["icacls", str(path), "/inheritance:r", "/grant:r", grant, "/q"]


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run ``command`` without a console window and return its outcome (never raises on a
    non-zero exit)."""
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    return subprocess.run(
        list(command), capture_output=True, text=True, check=False, creationflags=flags
    )


def _restrict_on_windows(path: Path, *, directory: bool) -> None:
    resolved = path.resolve()
    if resolved in _private_roots or any(p in _private_roots for p in resolved.parents):
        return  # inherits its private folder's single entry
    command = icacls_command(resolved, current_account(), directory=directory)
    try:
        outcome = run_command(command)  # looked up here: tests replace it
    except OSError as error:
        log.warning("could not make %s private (icacls: %s)", path, error)
        return
    if outcome.returncode != 0:
        # Some drives have no ACLs (FAT32, exFAT): the data stays usable, the log says why.
        detail = (outcome.stderr or outcome.stdout or "").strip()
        log.warning("could not make %s private (icacls %s): %s", path, outcome.returncode, detail)
        return
    if directory:
        _private_roots.add(resolved)
