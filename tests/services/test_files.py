"""Writing a file a person chose: whole or not at all, a few quick tries while another program
(Excel, an antivirus scan) holds the old file, then a message that says to close it — never the
system's ``WinError`` text. Windows' refusal is simulated by ``os.replace`` raising what it
raises there (``PermissionError``, winerror 32); a folder that takes no file is a real one."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from treasury_app.services import files
from treasury_app.services.files import (
    FileInUseError,
    FileReadOnlyError,
    FileWriteError,
    FolderNotWritableError,
    replace_file,
)

SHARING_VIOLATION = 32  # ERROR_SHARING_VIOLATION: "being used by another process"


def in_use(source: object, target: object) -> PermissionError:
    """What ``os.replace`` raises on Windows over a file Excel holds open."""
    return PermissionError(
        errno.EACCES,
        "The process cannot access the file because it is being used by another process",
        str(source),
        SHARING_VIOLATION,
        str(target),
    )


class FlakyReplace:
    """``os.replace`` refused ``refusals`` times (``None``: always), then done for real."""

    def __init__(self, refusals: int | None) -> None:
        self.refusals = refusals
        self.calls = 0
        self.real = os.replace

    def __call__(self, source: str, target: str) -> None:
        self.calls += 1
        if self.refusals is None or self.calls <= self.refusals:
            raise in_use(source, target)
        self.real(source, target)


@pytest.fixture
def naps() -> list[float]:
    return []


def leftovers(folder: Path) -> list[str]:
    return sorted(path.name for path in folder.iterdir())


def test_writes_a_new_file_and_replaces_an_old_one_leaving_nothing_beside(tmp_path: Path) -> None:
    target = tmp_path / "extrato.csv"
    assert replace_file(target, b"first") == target
    replace_file(str(target), b"second")
    assert target.read_bytes() == b"second"
    assert leftovers(tmp_path) == ["extrato.csv"]


def test_a_file_held_for_a_moment_is_tried_again_and_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naps: list[float]
) -> None:
    target = tmp_path / "pagamentos.csv"
    target.write_bytes(b"old")
    flaky = FlakyReplace(refusals=3)  # an antivirus scan: gone after a few tries
    monkeypatch.setattr(files.os, "replace", flaky)
    replace_file(target, b"new", sleep=naps.append)
    assert target.read_bytes() == b"new"
    assert flaky.calls == 4 and naps == [files.REPLACE_DELAY] * 3
    assert leftovers(tmp_path) == ["pagamentos.csv"]


def test_a_file_held_open_is_a_clear_message_not_a_winerror(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naps: list[float]
) -> None:
    target = tmp_path / "pagamentos.csv"
    target.write_bytes(b"old")
    flaky = FlakyReplace(refusals=None)  # Excel: held until the person closes it
    monkeypatch.setattr(files.os, "replace", flaky)
    with pytest.raises(FileInUseError) as raised:
        replace_file(target, b"new", sleep=naps.append)
    error = raised.value
    assert flaky.calls == files.REPLACE_ATTEMPTS == 5
    assert len(naps) == 4 and sum(naps) == pytest.approx(0.4)  # at most 0.4 s of waiting
    assert (
        str(error)
        == error.message
        == (f"The file {target} is open in another program (Excel?): close it and try again.")
    )
    assert error.path == str(target)
    for raw in ("WinError", "Errno", "[", "being used by another process", ".part"):
        assert raw not in str(error)
    assert isinstance(error, OSError)  # every `except OSError` still catches it
    assert isinstance(error.__cause__, PermissionError)  # the system's words, for the log
    assert target.read_bytes() == b"old"  # untouched
    assert leftovers(tmp_path) == ["pagamentos.csv"]  # no temporary file left


def test_attempts_are_a_parameter(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naps: list[float]
) -> None:
    monkeypatch.setattr(files.os, "replace", FlakyReplace(refusals=None))
    with pytest.raises(FileInUseError):
        replace_file(tmp_path / "x.csv", b"x", attempts=1, sleep=naps.append)
    assert naps == []


@pytest.mark.skipif(sys.platform == "win32", reason="chmod does not protect a file on Windows")
def test_a_read_only_file_that_cannot_be_replaced_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, naps: list[float]
) -> None:
    target = tmp_path / "antigo.csv"
    target.write_bytes(b"old")
    monkeypatch.setattr(files.os, "replace", FlakyReplace(refusals=None))
    monkeypatch.setattr(files.os, "access", lambda path, mode: False)  # as Windows' attribute
    with pytest.raises(FileReadOnlyError, match="is read-only: save under another name"):
        replace_file(target, b"new", sleep=naps.append)


def test_other_failures_say_the_system_sentence_without_its_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_space(source: str, target: str) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", source)

    monkeypatch.setattr(files.os, "replace", no_space)
    with pytest.raises(FileWriteError) as raised:
        replace_file(tmp_path / "x.csv", b"x")
    assert not isinstance(raised.value, FileInUseError)  # never retried, never "close it"
    assert (
        str(raised.value)
        == f"Could not write the file {tmp_path / 'x.csv'}: No space left on device."
    )
    assert raised.value.reason == "No space left on device"
    assert leftovers(tmp_path) == []


def test_a_missing_folder_and_a_folder_in_the_way(tmp_path: Path) -> None:
    with pytest.raises(FileWriteError) as raised:
        replace_file(tmp_path / "missing" / "x.csv", b"x")
    assert "Errno" not in str(raised.value) and str(tmp_path / "missing" / "x.csv") in str(
        raised.value
    )
    (tmp_path / "pasta.csv").mkdir()
    with pytest.raises(FileWriteError):
        replace_file(tmp_path / "pasta.csv", b"x")
    assert leftovers(tmp_path) == ["pasta.csv"]


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody can add a file to: mode 0555, or (for root, who ignores modes) the
    immutable attribute, when the file system has it."""
    folder = tmp_path / "somente-leitura"
    folder.mkdir()
    if sys.platform == "win32":
        pytest.skip("a read-only folder is a POSIX case")
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], check=False).returncode:
        pytest.skip("root writes to any folder and chattr +i is not available here")
    try:
        yield folder
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)


def test_a_real_read_only_folder(read_only_folder: Path) -> None:
    target = read_only_folder / "extrato.csv"
    with pytest.raises(FolderNotWritableError) as raised:
        replace_file(target, b"x")
    assert str(raised.value) == (
        f"The folder {read_only_folder} cannot be written to: choose another folder."
    )
    assert leftovers(read_only_folder) == []
