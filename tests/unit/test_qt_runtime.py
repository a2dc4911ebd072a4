"""The Qt runtime pin and the application's start-up, each in a fresh interpreter."""

import os
import subprocess
import sys
import textwrap

import pytest

from tests.waiting import LONG_WAIT_SECONDS
from treasury_app import __version__

QT_ENV = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}

# PySide6 6.12.0 under CPython 3.11 dies with "Fatal Python error: none_dealloc" after a few
# thousand ordinary calls; this is the reproducer, so a bad pin fails here and not in the field.
SET_TEXT_LOOP = textwrap.dedent(
    """
    import sys
    from PySide6.QtWidgets import QApplication, QLabel
    app = QApplication([])
    label = QLabel()
    for i in range(200_000):
        label.setText(str(i))
    assert label.text() == "199999"
    print("ok", flush=True)
    """
)


@pytest.mark.slow
def test_200k_qlabel_settext_calls_exit_cleanly():
    result = subprocess.run(
        [sys.executable, "-c", SET_TEXT_LOOP],
        env=QT_ENV,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert "none_dealloc" not in result.stderr
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok"


def test_installed_pyside_matches_the_python_version_pin():
    import PySide6

    major, minor = (int(part) for part in PySide6.__version__.split(".")[:2])
    if sys.version_info < (3, 12):
        assert (major, minor) == (6, 11), PySide6.__version__
    else:
        assert (major, minor) >= (6, 12), PySide6.__version__


def test_qtpdf_is_installed():
    from PySide6.QtPdf import QPdfDocument

    assert QPdfDocument(None).status() == QPdfDocument.Status.Null


def run_app(data_dir, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "treasury_app", "--data-dir", str(data_dir), *args],
        env=QT_ENV,
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
    )


def test_app_opens_its_window_and_exits(tmp_path):
    """Start, start the sandbox bank as a child, unlock its profile, show the main window,
    quit there (whatever the start-up took) and stop the sandbox it started."""
    result = run_app(tmp_path, "--sandbox", "--unlock-sandbox", "--quit-at", "main-window")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Main window shown" in result.stderr
    assert "Profile unlocked" in result.stderr
    assert "Quitting at start-up step main-window" in result.stderr
    assert "sandbox bank stopped" in result.stderr
    assert "Task was destroyed but it is pending" not in result.stderr
    assert "already deleted" not in result.stderr
    assert (tmp_path / "data" / "ledgers" / "Sandbox.sqlite3").is_file()
    assert (tmp_path / "config" / "profiles" / "Sandbox.json").is_file()


def test_a_quit_while_a_new_sandbox_bank_starts_ends_the_app(tmp_path):
    """A fresh data folder: the sandbox bank makes its certificates on its first start (seconds
    on a slow machine). A quit meanwhile is kept: once the bank is up the app stops it and
    exits, without unlocking anything."""
    result = run_app(tmp_path, "--sandbox", "--unlock-sandbox", "--quit-at", "sandbox")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Quitting at start-up step sandbox" in result.stderr
    assert "Profile unlocked" not in result.stderr
    assert "sandbox bank stopped" in result.stderr
    assert "Task was destroyed but it is pending" not in result.stderr


def test_version_option_prints_the_package_version():
    result = subprocess.run(
        [sys.executable, "-m", "treasury_app", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert result.stdout.strip() == f"treasury-app {__version__}"


def test_main_window_has_every_tab_with_an_empty_state(qtbot):
    from treasury_app.ui.main_window import TAB_TITLES, MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert [t.replace("&&", "&") for t in titles] == list(TAB_TITLES)
    assert titles[0] == "Balance && statement"  # a literal "&", not a mnemonic underline
    for i in range(window.tabs.count()):  # locked: every tab in its empty state
        assert window.tab(i).objectName().startswith("empty-state:")
    assert not window.lock_action.isEnabled()


def test_api_models_import_after_pyside6_with_pydantic_half_loaded() -> None:
    """PySide6's import hook must not break pydantic's lazy imports (a circular ImportError
    seen when a bare BaseModel import came before PySide6 and the models after it)."""
    import subprocess
    import sys

    code = (
        "import treasury_app.api.transport\n"  # pulls in pydantic.BaseModel only
        "import PySide6.QtCore\n"
        "import treasury_app.api.modeling\n"
        "import treasury_app.api.qrcodes.client, treasury_app.api.accounts.client\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
