"""Application start-up: command line, logging, one Qt + asyncio loop (qasync), main window."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from treasury_app import __version__
from treasury_app.config import AppPaths

log = logging.getLogger("treasury_app")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Read the command line of ``treasury-app``."""
    parser = argparse.ArgumentParser(
        prog="treasury-app", description="Treasury desktop: Pix payouts, boletos and charges."
    )
    parser.add_argument("--version", action="version", version=f"treasury-app {__version__}")
    parser.add_argument("--profile", help="open this profile instead of asking")
    parser.add_argument("--sandbox", action="store_true", help="use the embedded sandbox bank")
    parser.add_argument("--data-dir", type=Path, help="keep configuration and data under this path")
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="logging verbosity (secrets are never logged)",
    )
    # For smoke tests and packaging checks: quit on its own after this many milliseconds.
    parser.add_argument("--exit-after-ms", type=int, default=0, help=argparse.SUPPRESS)
    return parser.parse_args(argv)


def _install_excepthook() -> None:
    """Route unhandled exceptions (including those of asyncSlot bodies) to the log and a dialog."""

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        log.error("Unhandled error", exc_info=(exc_type, exc, tb))
        from PySide6.QtWidgets import QApplication, QMessageBox

        if QApplication.instance() is None:
            traceback.print_exception(exc_type, exc, tb)
            return
        box = QMessageBox(QMessageBox.Icon.Critical, "Treasury", f"Unexpected error: {exc}")
        box.setDetailedText("".join(traceback.format_exception(exc_type, exc, tb)))
        box.open()  # never exec(): a nested loop would re-enter asyncio

    sys.excepthook = hook


async def _run_window(exit_after_ms: int) -> None:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from treasury_app.ui.main_window import MainWindow

    app = QApplication.instance()
    assert app is not None
    closed = asyncio.Event()
    app.aboutToQuit.connect(closed.set)
    window = MainWindow()
    window.show()
    log.info("Main window shown")
    if exit_after_ms > 0:
        QTimer.singleShot(exit_after_ms, app.quit)
    await closed.wait()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``treasury-app`` and ``python -m treasury_app``."""
    args = parse_args(argv)
    logging.basicConfig(
        level=getattr(logging, args.log_level),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    paths = AppPaths.default(args.data_dir)
    paths.ensure()

    os.environ.setdefault("QT_API", "pyside6")  # qasync picks its Qt binding from this
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Treasury")
    app.setApplicationVersion(__version__)
    app.setQuitOnLastWindowClosed(True)
    _install_excepthook()
    with contextlib.suppress(asyncio.CancelledError):
        qasync.run(_run_window(args.exit_after_ms))
    return 0
