"""``treasury-app --self-test`` as support staff and the packaging check run it: a process of
its own (offscreen), a private sandbox bank, every API once, the receipt viewer, one line on
standard output, the sandbox stopped afterwards; a failure names its check and exits 1."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import platformdirs

from tests.waiting import LONG_WAIT_SECONDS
from treasury_app import __version__
from treasury_app.config import APP_AUTHOR, APP_NAME
from treasury_app.self_test import (
    data_dir_refusal,
    run_self_test,
    use_offscreen_without_display,
)

ROOT = Path(__file__).resolve().parents[2]
PASSED = re.compile(
    rf"self-test passed: (\d+) checks in (\d+\.\d) s \(treasury-app {re.escape(__version__)}\)"
)


def self_test(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-m", "treasury_app", "--self-test", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
        stdin=subprocess.DEVNULL,
    )


def processes_mentioning(text: str) -> list[int]:
    """The pids whose command line mentions ``text`` (the sandbox bank is started with its
    data dir inside the self-test's); Linux's /proc, empty elsewhere."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
        except OSError:
            continue
        if text.encode() in command:
            found.append(int(entry.name))
    return found


def test_the_self_test_passes_and_stops_its_sandbox(tmp_path: Path) -> None:
    data = tmp_path / "self-test"
    result = self_test("--data-dir", str(data))
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1, result.stdout
    match = PASSED.fullmatch(lines[0])
    assert match, lines[0]
    assert int(match.group(1)) >= 14
    # It worked in the directory it was given, not in the user's: the sandbox's ledger of
    # the run is there, with the settled payout and its receipt; the sandbox is stopped.
    assert (data / "data" / "ledgers" / "Sandbox.sqlite3").is_file()
    assert list((data / "data").rglob("*.pdf")), "the payout's receipt was not archived"
    assert (data / "data" / "sandbox" / "sandbox.log").is_file()
    assert processes_mentioning(str(data)) == []


def test_a_failing_check_is_named_and_exits_1(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the data directory should be")
    result = self_test("--data-dir", str(blocked))
    assert result.returncode == 1
    line = result.stdout.strip()
    assert line.startswith("self-test FAILED at sandbox start: "), line
    assert f"treasury-app {__version__}" in line
    assert str(blocked) in result.stderr


def test_offscreen_only_without_a_display(monkeypatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    environ: dict[str, str] = {}
    assert use_offscreen_without_display(environ)
    assert environ == {"QT_QPA_PLATFORM": "offscreen"}
    environ = {"DISPLAY": ":0"}
    assert not use_offscreen_without_display(environ)
    assert "QT_QPA_PLATFORM" not in environ
    environ = {"QT_QPA_PLATFORM": "xcb"}
    assert not use_offscreen_without_display(environ)
    assert environ == {"QT_QPA_PLATFORM": "xcb"}


def snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under ``root`` with its size and modification time (nanoseconds)."""
    return {
        str(path.relative_to(root)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
    }


def test_a_data_dir_in_use_is_refused_and_left_untouched(tmp_path: Path) -> None:
    # A real installation's directory: its ledger, its sandbox bank's state, its profiles.
    real = tmp_path / "real"
    (real / "data" / "ledgers").mkdir(parents=True)
    (real / "data" / "ledgers" / "Sandbox.sqlite3").write_bytes(b"the company's journal")
    (real / "data" / "sandbox").mkdir()
    (real / "data" / "sandbox" / "state.json").write_text("{}")
    (real / "config").mkdir()
    (real / "config" / "profiles.toml").write_text("[profiles]\n")
    before = snapshot(real)
    result = self_test("--data-dir", str(real))
    assert result.returncode == 2, result.stdout + result.stderr
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(real) in lines[0] and "not empty" in lines[0], lines[0]
    assert snapshot(real) == before
    assert processes_mentioning(str(real)) == []


def test_the_users_own_directories_are_refused_even_empty(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        monkeypatch.setenv(name, str(tmp_path / name.lower()))
    own = Path(platformdirs.user_data_dir(APP_NAME, APP_AUTHOR))
    own.mkdir(parents=True)
    assert own.is_relative_to(tmp_path)
    for refused in (
        own,
        own / "self-test",
        Path(platformdirs.user_config_dir(APP_NAME, APP_AUTHOR)),
    ):
        assert data_dir_refusal(refused), refused
        out, err = io.StringIO(), io.StringIO()
        assert run_self_test(data_dir=refused, out=out, err=err) == 2
        assert out.getvalue() == ""
        assert len(err.getvalue().splitlines()) == 1, err.getvalue()
    assert list(own.iterdir()) == []
    assert not (own / "self-test").exists()


def test_a_new_or_empty_data_dir_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    assert data_dir_refusal(tmp_path / "empty") is None
    assert data_dir_refusal(tmp_path / "missing" / "self-test") is None
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / ".hidden").write_text("")
    assert data_dir_refusal(tmp_path / "busy")
