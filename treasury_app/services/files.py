"""Writing a file a person chose (an export, a receipt, a template): it only ever appears whole,
and a file another program holds open (Excel, an antivirus scan) is a clear refusal, not a
``WinError``.

Windows refuses to replace a file that a program opened without sharing it: Excel keeps every
workbook it shows open, an antivirus or an indexer opens a new file for a moment. The second
kind goes away in milliseconds, so :func:`replace_file` tries again a few times before it
says that the file is in use.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "REPLACE_ATTEMPTS",
    "REPLACE_DELAY",
    "FileInUseError",
    "FileReadOnlyError",
    "FileWriteError",
    "FolderNotWritableError",
    "replace_file",
]

REPLACE_ATTEMPTS = 5
REPLACE_DELAY = 0.1
"""Seconds between attempts: at most 0.4 s in all, and only while the file is held."""


class FileWriteError(OSError):
    """A file could not be written; :attr:`message` says why in words a person can act on
    (never the system's error number), :attr:`path` is the file meant and :attr:`reason` the
    system's own sentence, when there is one ("No space left on device")."""

    title = "Could not save the file"

    def __init__(
        self, path: str | os.PathLike[str], message: str | None = None, *, reason: str = ""
    ) -> None:
        self.path = str(path)
        self.reason = reason
        self.message = message or self.default_message()
        super().__init__(self.message)

    def default_message(self) -> str:
        if self.reason:
            return f"Could not write the file {self.path}: {self.reason}."
        return f"Could not write the file {self.path}."


class FileInUseError(FileWriteError):
    """Another program holds the file open (Excel, an antivirus scan) and the system refuses
    to replace it."""

    def default_message(self) -> str:
        return f"The file {self.path} is open in another program (Excel?): close it and try again."


class FileReadOnlyError(FileWriteError):
    """The file is marked read-only (Windows refuses to replace it, like a file in use)."""

    def default_message(self) -> str:
        return f"The file {self.path} is read-only: save under another name."


class FolderNotWritableError(FileWriteError):
    """The folder cannot be written to (read-only, or no permission)."""

    def default_message(self) -> str:
        folder = str(Path(self.path).parent)
        return f"The folder {folder} cannot be written to: choose another folder."


def replace_file(
    path: str | os.PathLike[str],
    data: bytes,
    *,
    attempts: int = REPLACE_ATTEMPTS,
    delay: float = REPLACE_DELAY,
    sleep: Callable[[float], None] = time.sleep,
) -> Path:
    """Write ``data`` to a new file beside ``path``, then put it in its place (an existing
    file is replaced): never a half-written file under its name, nothing left beside it.

    A refused replacement (``PermissionError``) is tried again up to ``attempts`` times,
    ``delay`` seconds apart. Raises :class:`FileInUseError` when it stays refused (or
    :class:`FileReadOnlyError` when the file is marked read-only),
    :class:`FolderNotWritableError` when the folder takes no new file, and
    :class:`FileWriteError` for any other failure (a full disk, a missing folder).
    """
    target = Path(path)
    try:
        fd, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".part"
        )
    except PermissionError as error:
        raise FolderNotWritableError(target) from error
    except OSError as error:
        raise _write_error(target, error) from error
    try:
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
        except OSError as error:
            raise _write_error(target, error) from error
        _move(temporary, target, attempts=attempts, delay=delay, sleep=sleep)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


def _move(
    temporary: str,
    target: Path,
    *,
    attempts: int,
    delay: float,
    sleep: Callable[[float], None],
) -> None:
    for attempt in range(1, max(attempts, 1) + 1):
        try:
            os.replace(temporary, target)
            return
        except PermissionError as error:
            if attempt >= attempts:
                if target.is_file() and not os.access(target, os.W_OK):
                    raise FileReadOnlyError(target) from error
                raise FileInUseError(target) from error
        except OSError as error:
            raise _write_error(target, error) from error
        sleep(delay)


def _write_error(target: Path, error: OSError) -> FileWriteError:
    # strerror is the system's sentence alone ("No space left on device"); str(error) would
    # add "[WinError 112]" or "[Errno 28]" and the temporary file's name.
    return FileWriteError(target, reason=error.strerror or "")
