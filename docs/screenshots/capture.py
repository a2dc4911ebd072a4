"""Drive the real app under Xvfb and capture its screens for the README (run by hand):

    xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python docs/screenshots/capture.py

Welcome (first run) → sandbox → unlock dialog → main window with the statement loaded.
Each capture is the whole X screen (``import -window root`` from ImageMagick).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("QT_API", "pyside6")
ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
OUT = Path(__file__).resolve().parent


def shot(name: str) -> None:
    subprocess.run(["import", "-window", "root", str(OUT / f"{name}.png")], check=True)
    print("captured", name)


async def pause(seconds: float) -> None:
    await asyncio.sleep(seconds)


async def main(lang: str | None) -> None:
    from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton

    from treasury_app.config import AppPaths
    from treasury_app.ui.controller import AppController, StartOptions
    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
    from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog

    suffix = f"-{lang}" if lang else ""
    paths = AppPaths.default(Path(tempfile.mkdtemp(prefix="treasury-shots-")))
    paths.ensure()
    controller = AppController(
        paths, StartOptions(sandbox_args=("--clock-start", "2026-11-18T13:00:00Z"))
    )
    run = asyncio.ensure_future(controller.run())

    def visible(kind: type) -> object | None:
        return next(
            (w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()),
            None,
        )

    while visible(WelcomeDialog) is None:
        await pause(0.1)
    await pause(0.5)
    shot(f"welcome{suffix}")
    welcome = visible(WelcomeDialog)
    welcome.findChild(QPushButton, "sandbox-choice").click()  # type: ignore[union-attr]
    while visible(UnlockDialog) is None:
        await pause(0.1)
    unlock = visible(UnlockDialog)
    await pause(0.5)
    shot(f"unlock{suffix}")
    fill = unlock.findChild(QPushButton, "fill-in-button")  # type: ignore[union-attr]
    if fill is not None:
        fill.click()
    for field in unlock.findChildren(QLineEdit):  # type: ignore[union-attr]
        field.repaint()
    unlock.findChild(QPushButton, "unlock-button").click()  # type: ignore[union-attr]
    while controller.window is None:
        await pause(0.1)
    window = controller.window
    window.tabs.setCurrentIndex(0)
    window.showMaximized()
    await pause(4.0)  # balance, statement first page, tokens
    shot(f"statement{suffix}")
    window.tabs.setCurrentIndex(window.tabs.count() - 1)
    await pause(1.0)
    shot(f"settings{suffix}")
    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    import qasync
    from PySide6.QtWidgets import QApplication

    from treasury_app.app import install_translator

    language = sys.argv[1] if len(sys.argv) > 1 else None
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("TreasuryApp-screenshots")
    app.setQuitOnLastWindowClosed(False)  # as the app: dialogs come and go
    from PySide6.QtCore import QSettings

    QSettings().clear()  # no window geometry or last tab from an earlier capture
    install_translator(app, language)  # also the date format when the machine has no locale
    qasync.run(main(language))
