"""Folders and files only their owner may open: ledgers, receipts, the sandbox's keys and logs.

POSIX: modes 0700 and 0600. Windows ignores those modes, so there a folder gets an explicit
ACL instead: full control for the user running the app, named by the SID of its process
token (``whoami /user``: never a name taken from environment variables, which anyone can
set), and for SYSTEM and the Administrators group (backup, antivirus and the IT staff's
tools run as those; by their well-known SIDs, which no language renames), every other entry
(inherited or explicit) removed, by ``%SystemRoot%\\System32\\icacls.exe`` (never one found
on a search path). Files and folders created inside such a folder inherit those entries, so
within one process only the topmost folder is set; anything else is set on its own.
"""

from __future__ import annotations

import contextlib
import csv
import logging
import ntpath
import os
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

log = logging.getLogger("treasury_app.private_files")

IS_WINDOWS = sys.platform == "win32"
DEFAULT_SYSTEM_ROOT = "C:\\Windows"

# Well-known SIDs, the same on every Windows in every language (icacls takes "*SID").
SYSTEM_SID = "S-1-5-18"
ADMINISTRATORS_SID = "S-1-5-32-544"
_SID = re.compile(r"S-1-\d+(-\d+)+")

# Folders this process has made private on Windows: what is created under them inherits it.
_private_roots: set[Path] = set()
# The SID of this process's user, once read (it cannot change while the process runs).
_user_sid: str | None = None


def shared_folder(path: Path) -> bool:
    """A folder that is never ours to lock: the system's temporary folder, the user's home, a
    filesystem root, or (POSIX) any world-writable folder with the sticky bit, as ``/tmp`` is.
    A ledger or file opened directly in one of them leaves it as it is."""
    try:
        resolved = path.resolve()
    except OSError:
        return False
    import tempfile

    if resolved.parent == resolved:
        return True
    for known in (tempfile.gettempdir(), Path.home()):
        with contextlib.suppress(OSError):
            if resolved == Path(known).resolve():
                return True
    if not IS_WINDOWS:
        with contextlib.suppress(OSError):
            mode = resolved.stat().st_mode
            return bool(mode & 0o1000 and mode & 0o002)  # sticky and world-writable
    return False


def make_private_dir(path: Path) -> Path:
    """Create ``path`` (and its parents) if needed and make it its owner's only; a shared
    folder (:func:`shared_folder`: ``/tmp``, ``%TEMP%``, the home folder) is never changed."""
    if path.is_dir() and shared_folder(path):
        log.warning("not making %s private: it is a shared folder", path)
        return path
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


def system32_tool(name: str, system_root: str | None) -> str:
    """``name`` in the System32 folder of ``system_root`` (``%SystemRoot%``; an unset or empty
    one means ``C:\\Windows``): a full path, so no tool of that name in the current folder or
    on ``PATH`` is ever run instead."""
    return ntpath.join(system_root or DEFAULT_SYSTEM_ROOT, "System32", name)


def icacls_path(system_root: str | None) -> str:
    return system32_tool("icacls.exe", system_root)


def whoami_command(system_root: str | None) -> list[str]:
    """``whoami /user`` as one CSV line without header: ``"DOMAIN\\user","S-1-5-21-..."``,
    the user and SID of this process's access token."""
    return [system32_tool("whoami.exe", system_root), "/user", "/fo", "csv", "/nh"]


def sid_from_whoami(output: str) -> str:
    """The SID in ``whoami /user /fo csv /nh``'s output; ValueError when there is none."""
    for row in csv.reader(line for line in output.splitlines() if line.strip()):
        if row and _SID.fullmatch(row[-1].strip()):
            return row[-1].strip()
    raise ValueError(f"no SID in whoami's answer: {output.strip()[:200]!r}")


def current_user_sid(system_root: str | None) -> str:
    """The SID of the user this process runs as, from its token (read once)."""
    global _user_sid
    if _user_sid is None:
        outcome = run_command(whoami_command(system_root))
        if outcome.returncode != 0:
            detail = (outcome.stderr or outcome.stdout or "").strip()
            raise ValueError(f"whoami /user failed ({outcome.returncode}): {detail}")
        _user_sid = sid_from_whoami(outcome.stdout)
    return _user_sid


def icacls_commands(
    path: Path, user_sid: str, *, directory: bool, system_root: str | None
) -> list[list[str]]:
    """The commands giving the user ``user_sid``, SYSTEM and Administrators (and nobody else)
    full control of ``path``, run in order: first ``/reset`` (the explicit entries an
    existing folder may give other accounts go; only the inherited ones remain), then
    inheritance removed (``/inheritance:r``) and the three grants replacing any other of
    theirs (``/grant:r``); a folder's grants are inherited by what it contains
    (``(OI)(CI)``). Accounts are named by SID (``*S-1-...``): no name lookup, no language."""
    icacls = icacls_path(system_root)
    inherit = "(OI)(CI)" if directory else ""
    grants = [f"*{sid}:{inherit}F" for sid in (user_sid, SYSTEM_SID, ADMINISTRATORS_SID)]
    return [
        [icacls, str(path), "/reset", "/q"],
        [icacls, str(path), "/inheritance:r", "/grant:r", *grants, "/q"],
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
    try:
        user_sid = current_user_sid(system_root)
    except (OSError, ValueError) as error:
        # Never a guessed account: the folder keeps its inherited ACL (the profile's own,
        # already the user's, SYSTEM's and Administrators'), and the log says why.
        log.warning("could not make %s private (the user's SID: %s)", path, error)
        return
    for command in icacls_commands(
        resolved, user_sid, directory=directory, system_root=system_root
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
