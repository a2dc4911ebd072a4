"""Qt's settings in an INI file of the app's config folder (not the registry), so that
``--data-dir`` holds everything: the window's geometry lands under it, the home folder is not
touched, and the settings an earlier version kept in the native store come along once."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from tests.waiting import LONG_WAIT_SECONDS
from treasury_app.app import use_ini_settings
from treasury_app.config import AppPaths
from treasury_app.ui.main_window import SETTINGS_GROUP, MainWindow

ROOT = Path(__file__).resolve().parents[2]


def _user_path(kind: QSettings.Format) -> str:
    """Where ``kind``'s user-scope files go now (QSettings has no getter for it)."""
    probe = QSettings(kind, QSettings.Scope.UserScope, "probe-org", "probe-app")
    return str(Path(probe.fileName()).parent.parent)


@pytest.fixture
def settings_defaults() -> Iterator[None]:
    """The tests share one QApplication: put Qt's settings format and paths back after."""
    ini, native = _user_path(QSettings.Format.IniFormat), _user_path(QSettings.Format.NativeFormat)
    default = QSettings.defaultFormat()
    try:
        yield
    finally:
        QSettings.setDefaultFormat(default)
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ini)
        if sys.platform != "win32":  # the registry has no path
            QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, native)


def test_the_window_geometry_is_saved_in_an_ini_file_under_the_data_dir(
    tmp_path: Path, qtbot, settings_defaults
) -> None:
    paths = AppPaths.default(tmp_path / "data-dir")
    ini = use_ini_settings(paths.config_dir)
    assert ini.suffix == ".ini" and ini.is_relative_to(paths.config_dir)
    assert QSettings().format() == QSettings.Format.IniFormat
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(900, 650)
    window.save_state()
    QSettings().sync()
    assert ini.is_file()
    text = ini.read_text("utf-8")
    assert f"[{SETTINGS_GROUP}]" in text and "geometry=" in text
    # Read back from there by the next window (as at the next start).
    settings = QSettings()
    assert settings.fileName() == str(ini)
    assert not settings.value(f"{SETTINGS_GROUP}/geometry").isEmpty()


@pytest.mark.skipif(sys.platform == "win32", reason="the native store is the registry there")
def test_the_native_settings_of_an_earlier_version_come_along_once(
    tmp_path: Path, settings_defaults
) -> None:
    QSettings.setPath(QSettings.Format.NativeFormat, QSettings.Scope.UserScope, str(tmp_path))
    QSettings.setDefaultFormat(QSettings.Format.NativeFormat)
    old = QSettings()
    old.setValue("last-profile", "Empresa")
    old.sync()
    ini = use_ini_settings(tmp_path / "config", migrate_native=True)
    assert QSettings().value("last-profile") == "Empresa"
    assert ini.is_file()
    # Once: a later change in the native store is not copied again.
    native = QSettings(
        QSettings.Format.NativeFormat,
        QSettings.Scope.UserScope,
        old.organizationName(),
        old.applicationName(),
    )
    native.setValue("last-profile", "Outra")
    native.sync()
    use_ini_settings(tmp_path / "config", migrate_native=True)
    assert QSettings().value("last-profile") == "Empresa"


def test_a_run_with_a_data_dir_writes_nothing_in_the_home_folder(tmp_path: Path) -> None:
    """The real start-up, in a process of its own: settings and log under --data-dir, the
    home folder (and every XDG folder in it) left empty."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_STATE_HOME": str(home / ".local" / "state"),
        "XDG_CACHE_HOME": str(home / ".cache"),
    }
    data_dir = tmp_path / "data-dir"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "treasury_app",
            "--data-dir",
            str(data_dir),
            "--exit-after-ms",
            "800",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=LONG_WAIT_SECONDS,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert list(home.iterdir()) == []
    ini_files = list((data_dir / "config").rglob("*.ini"))
    assert len(ini_files) == 1 and "geometry=" in ini_files[0].read_text("utf-8")
    log_text = (data_dir / "logs" / "treasury.log").read_text("utf-8")
    assert "Main window shown" in log_text and "log file opened" in log_text
