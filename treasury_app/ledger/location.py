"""Where a ledger may live: on this computer, never on a network folder.

SQLite's write-ahead log keeps its index in shared memory beside the file, which network file
systems (SMB shares, mapped drives, NFS) do not provide reliably: two computers would corrupt
the journal. Sharing a journal is what the team database is for.
"""

from __future__ import annotations

import contextlib
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path, PurePath, PureWindowsPath

IS_WINDOWS = sys.platform == "win32"
DRIVE_REMOTE = 4  # GetDriveTypeW: a network drive

# File system types that are another computer's disk (Linux /proc/mounts, macOS `mount`).
NETWORK_FILE_SYSTEMS = frozenset(
    {
        "afpfs",
        "cifs",
        "davfs",
        "fuse.davfs2",
        "fuse.sshfs",
        "ncpfs",
        "nfs",
        "nfs4",
        "smb",
        "smb2",
        "smb3",
        "smbfs",
        "sshfs",
        "webdav",
    }
)


class LedgerLocationError(OSError):
    """The ledger's folder is on a network share. An ``OSError``: the unlock dialog shows
    those as they are (a folder that cannot be used), and the person can act on it."""

    TEMPLATE = (
        "The ledger cannot be kept on a network folder (%1): SQLite's write-ahead log does not "
        "work there. Keep the data folder on this computer; to share a journal, use the team "
        "database."
    )

    def __init__(self, folder: str) -> None:
        self.folder = folder
        super().__init__(self.TEMPLATE.replace("%1", folder))

    def __str__(self) -> str:
        return str(self.args[0])


def is_unc_path(text: str) -> bool:
    """Whether ``text`` names a Windows network share: ``\\\\server\\share\\...``,
    ``//server/share/...`` or ``\\\\?\\UNC\\server\\share\\...``; a local drive written in the
    long form (``\\\\?\\C:\\...``) is not one."""
    pure = PureWindowsPath(text)
    drive = pure.drive.replace("/", "\\")
    if drive.upper().startswith("\\\\?\\UNC\\"):
        return True
    if drive.startswith(("\\\\?\\", "\\\\.\\")):
        return False
    return drive.startswith("\\\\") and len(drive) > 2


def windows_drive_type(root: str) -> int:
    """``GetDriveTypeW`` for a drive root such as ``Z:\\`` (Windows only)."""
    import ctypes

    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    return int(kernel32.GetDriveTypeW(ctypes.c_wchar_p(root)))


def _unescape_mount(field: str) -> str:
    # /proc/mounts writes a space as \040, a tab as \011 (octal escapes).
    return re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), field)


def parse_proc_mounts(text: str) -> list[tuple[str, str]]:
    """``(mount point, file system type)`` of each line of Linux's ``/proc/mounts``."""
    mounts = []
    for line in text.splitlines():
        fields = line.split()
        if len(fields) >= 3:
            mounts.append((_unescape_mount(fields[1]), fields[2]))
    return mounts


_MAC_MOUNT = re.compile(r"^.+? on (?P<point>.+) \((?P<type>[^,)]+)")


def parse_mount_output(text: str) -> list[tuple[str, str]]:
    """``(mount point, file system type)`` of each line of macOS/BSD ``mount``:
    ``//me@server/share on /Volumes/share (smbfs, nodev, nosuid, mounted by me)``."""
    mounts = []
    for line in text.splitlines():
        match = _MAC_MOUNT.match(line)
        if match:
            mounts.append((match["point"], match["type"].strip()))
    return mounts


def file_system_type(path: PurePath, mounts: list[tuple[str, str]]) -> str | None:
    """The file system type of the mount that holds ``path`` (the longest mount point that
    contains it), from a mount table."""
    best: tuple[int, str] | None = None
    for point, kind in mounts:
        mount = Path(point)
        if (path == mount or mount in path.parents) and (best is None or len(point) > best[0]):
            best = (len(point), kind)
    return best[1] if best else None


def system_mounts() -> list[tuple[str, str]]:
    """This computer's mount table, best effort (empty when it cannot be read)."""
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        if sys.platform.startswith("linux"):
            return parse_proc_mounts(Path("/proc/mounts").read_text("utf-8", "replace"))
        if sys.platform == "darwin" or "bsd" in sys.platform:
            output = subprocess.run(
                ["/sbin/mount"], capture_output=True, text=True, timeout=5, check=False
            ).stdout
            return parse_mount_output(output)
    return []


def network_reason(
    path: PurePath,
    *,
    windows: bool | None = None,
    drive_type: Callable[[str], int] | None = None,
    mounts: Callable[[], list[tuple[str, str]]] | None = None,
) -> str | None:
    """How to name ``path`` when it is a network location (the folder, and on Linux or macOS
    its file system type), or ``None`` when it is on this computer."""
    on_windows = IS_WINDOWS if windows is None else windows
    if on_windows:
        text = str(path)
        if is_unc_path(text):
            return text
        drive = PureWindowsPath(text).drive
        is_letter = len(drive) == 2 and drive.endswith(":")
        if is_letter and (drive_type or windows_drive_type)(drive + "\\") == DRIVE_REMOTE:
            return text
        return None
    kind = file_system_type(path, (mounts or system_mounts)())
    if kind is not None and kind.lower() in NETWORK_FILE_SYSTEMS:
        return f"{path}: {kind}"
    return None


def check_ledger_location(
    path: Path,
    *,
    windows: bool | None = None,
    drive_type: Callable[[str], int] | None = None,
    mounts: Callable[[], list[tuple[str, str]]] | None = None,
) -> None:
    """Refuse (:class:`LedgerLocationError`) a ledger file ``path`` on a network folder. The
    folder is checked as written and as resolved: a mapped drive or a symbolic link may lead
    to the share itself."""
    table: list[tuple[str, str]] | None = None

    def mount_table() -> list[tuple[str, str]]:
        nonlocal table
        if table is None:
            table = (mounts or system_mounts)()
        return table

    on_windows = IS_WINDOWS if windows is None else windows
    candidates: list[PurePath] = [PureWindowsPath(path).parent if on_windows else path.parent]
    if on_windows == (sys.platform == "win32"):  # resolving means something on this system only
        candidates.append(_resolved(path.parent))
    for candidate in dict.fromkeys(candidates):
        reason = network_reason(
            candidate, windows=on_windows, drive_type=drive_type, mounts=mount_table
        )
        if reason is not None:
            raise LedgerLocationError(reason)


def _resolved(folder: Path) -> Path:
    try:
        return folder.resolve()
    except OSError:
        return folder
