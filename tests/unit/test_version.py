"""The version lives in one place (``treasury_app.__version__``) and reaches everything that
shows it: ``--version`` (printed without loading Qt), the package metadata, the User-Agent, the
About dialog's text and the CHANGELOG; the frozen build's entry point runs the sandbox bank on
``--run-sandbox``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import treasury_app
from tests.waiting import LONG_WAIT_SECONDS
from treasury_app import __version__, app
from treasury_app.services import sandbox_runner

ROOT = Path(__file__).resolve().parents[2]


def test_the_version_is_a_release_number() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert __version__ == "0.2.0"


def test_the_version_is_written_in_one_place_only() -> None:
    pattern = re.compile(rf"['\"]{re.escape(__version__)}['\"]")
    holders = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "treasury_app").rglob("*.py"))
        if pattern.search(path.read_text("utf-8"))
    ]
    assert holders == ["treasury_app/__init__.py"]
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "treasury_app.__version__" }' in pyproject


def test_version_prints_and_exits_without_loading_qt() -> None:
    probe = (
        "import sys\n"
        "from treasury_app.app import entry\n"
        "try:\n"
        "    entry(['--version'])\n"
        "except SystemExit as done:\n"
        "    assert done.code in (0, None), done.code\n"
        "print('qt loaded' if any(m.startswith('PySide6') for m in sys.modules) else 'no qt')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
        check=True,
    )
    assert result.stdout.splitlines() == [f"treasury-app {__version__}", "no qt"]


def test_python_m_treasury_app_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "treasury_app", "--version"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"treasury-app {__version__}"


def test_the_user_agent_carries_the_version() -> None:
    from treasury_app.api.transport import USER_AGENT

    assert f"/{__version__} " in USER_AGENT


def test_the_about_text_shows_the_version(qtbot) -> None:
    from treasury_app.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    assert window.about_text().startswith(f"Treasury {__version__}")


def test_the_changelog_has_a_section_for_this_version() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert re.search(
        rf"^## \[{re.escape(__version__)}\] - \d{{4}}-\d{{2}}-\d{{2}}$", changelog, re.M
    )
    assert "## [Unreleased]" in changelog


def test_the_frozen_build_runs_the_sandbox_through_its_own_binary(monkeypatch) -> None:
    assert app.RUN_SANDBOX_FLAG == sandbox_runner.FROZEN_SANDBOX_FLAG
    monkeypatch.delattr(sys, "frozen", raising=False)
    assert sandbox_runner.sandbox_command() == [sys.executable, "-m", "treasury_app.sandbox"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert sandbox_runner.sandbox_command() == [sys.executable, "--run-sandbox"]


def test_the_entry_point_dispatches_run_sandbox(monkeypatch) -> None:
    import treasury_app.sandbox.__main__ as sandbox_main

    calls: list[list[str]] = []
    monkeypatch.setattr(sandbox_main, "main", lambda argv: calls.append(list(argv)) or 7)
    monkeypatch.setattr(app, "main", lambda argv: pytest.fail(f"the app started with {argv}"))
    assert app.entry(["--run-sandbox", "--data-dir", "x", "--ready-file", "y"]) == 7
    assert calls == [["--data-dir", "x", "--ready-file", "y"]]


def test_the_package_exposes_the_version() -> None:
    assert treasury_app.__version__ is __version__
