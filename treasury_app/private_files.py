"""Folders and files only their owner may open: ledgers, receipts, the sandbox's keys and logs.

POSIX: modes 0700 and 0600. Windows ignores those modes, so there a folder gets an explicit
ACL instead: the current user with full control, every other entry (inherited or explicit)
removed, by ``%SystemRoot%\\System32\\icacls.exe`` (never one found on a search path). Files
and folders created inside such a folder inherit that single entry, so within one process
only the topmost folder is set; anything else is set on its own.
"""

from __future__ import annotations

import contextlib
import getpass
import logging
import ntpath
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger("treasury_app.private_files")

IS_WINDOWS = sys.platform == "win32"
DEFAULT_SYSTEM_ROOT = "C:\\Windows"

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


def icacls_path(system_root: str | None) -> str:
    """``icacls.exe`` in the System32 folder of ``system_root`` (``%SystemRoot%``; an unset or
    empty one means ``C:\\Windows``): a full path, so no ``icacls`` in the current folder or on
    ``PATH`` is ever run instead."""
    return ntpath.join(system_root or DEFAULT_SYSTEM_ROOT, "System32", "icacls.exe")


def icacls_commands(
    path: Path, account: str, *, directory: bool, system_root: str | None
) -> list[list[str]]:
    """The commands giving ``account`` alone full control of ``path``, run in order: first
    ``/reset`` (the explicit entries an existing folder may give other accounts go; only the
    inherited ones remain), then inheritance removed (``/inheritance:r``) and ``account``'s
    grant replacing any of its own (``/grant:r``); a folder's grant is inherited by what it
    contains (``(OI)(CI)``)."""
    icacls = icacls_path(system_root)
    grant = f"{account}:(OI)(CI)F" if directory else f"{account}:F"
    return [
        [icacls, str(path), "/reset", "/q"],
        [icacls, str(path), "/inheritance:r", "/grant:r", grant, "/q"],
    ]


def run_command(command: Sequence[str]) -> subprocess.CompletedProcess[str]:
    """Run ``command`` without a console window and return its outcome (never raises on a
    non-zero exit). Its output is decoded leniently: a byte the code page does not hold (icacls
    answers in the console's OEM code page) becomes U+FFFD, never a UnicodeDecodeError."""
    flags = getattr(subprocess, "CREATE_NO_WINDOW", 0)
    return subprocess.run(
        list(command),
        capture_output=True,
        text=True,
        errors="replace",
        check=False,
        creationflags=flags,
    )


def _restrict_on_windows(path: Path, *, directory: bool) -> None:
    resolved = path.resolve()
    if resolved in _private_roots or any(p in _private_roots for p in resolved.parents):
        return  # inherits its private folder's single entry
    system_root = os.environ.get("SYSTEMROOT")  # case-blind on Windows: SystemRoot
    for command in icacls_commands(
        resolved, current_account(), directory=directory, system_root=system_root
    ):
        try:
            outcome = run_command(command)  # looked up here: tests replace it
        except (OSError, ValueError) as error:
            log.warning("could not make %s private (icacls: %s)", path, error)
            return
        if outcome.returncode != 0:
            # Some drives have no ACLs (FAT32, exFAT): the data stays usable, the log says why.
            detail = (outcome.stderr or outcome.stdout or "").strip()
            log.warning(
                "could not make %s private (icacls %s): %s", path, outcome.returncode, detail
            )
            return
    if directory:
        _private_roots.add(resolved)
