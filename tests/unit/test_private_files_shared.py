"""A ledger, receipt or file opened directly in a shared folder never locks that folder: once
/tmp itself was left 0700 by a test run, and every PostgreSQL test (whose server runs as
another user under /tmp) failed after it."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

from treasury_app.private_files import make_private_dir, shared_folder


def test_the_temporary_folder_and_the_home_are_shared() -> None:
    assert shared_folder(Path(tempfile.gettempdir()))
    assert shared_folder(Path.home())
    assert shared_folder(Path(Path.cwd().anchor))


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes: the sticky bit")
def test_a_sticky_world_writable_folder_is_left_as_it_is(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    assert shared_folder(shared)
    make_private_dir(shared)
    assert shared.stat().st_mode & 0o7777 == 0o1777


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_folder_of_ours_is_still_made_private(tmp_path: Path) -> None:
    ours = tmp_path / "ours"
    ours.mkdir(mode=0o755)
    os.chmod(ours, 0o755)
    assert not shared_folder(ours)
    make_private_dir(ours)
    assert ours.stat().st_mode & 0o777 == 0o700


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_a_ledger_opened_in_a_shared_folder_leaves_it_shared(tmp_path: Path) -> None:
    from treasury_app.ledger.db import connect

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    connect(shared / "ledger.sqlite3").close()
    assert shared.stat().st_mode & 0o7777 == 0o1777
