"""Application start-up: command line, logging, one Qt + asyncio loop (qasync), main window."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from treasury_app import __version__

if TYPE_CHECKING:
    from treasury_app.config import AppPaths
log = logging.getLogger("treasury_app")
# The first argument that makes a frozen build run the sandbox bank instead of the app: the
# same as ``sandbox_runner.FROZEN_SANDBOX_FLAG`` (not imported: it would load asyncio first).
RUN_SANDBOX_FLAG = "--run-sandbox"
# ... and the PAC script evaluator's process: ``treasury_app.api.autoproxy.pac.PAC_WORKER_FLAG``.
PAC_WORKER_FLAG = "--pac-worker"
# ``--quit-at``'s steps: ``controller.STAGES`` (not imported: it would load Qt before the window).
QUIT_STAGES = ("profile", "sandbox", "unlock", "session", "main-window")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """Read the command line of ``treasury-app``."""
    parser = argparse.ArgumentParser(
        prog="treasury-app", description="Treasury desktop: Pix payouts, boletos and charges."
    )
    # argparse prints it and exits here: no Qt, no services imported.
    parser.add_argument("--version", action="version", version=f"treasury-app {__version__}")
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="run every API once against a private sandbox bank, print one line and exit "
        "(0 when all checks pass); offscreen when there is no display",
    )
    parser.add_argument("--profile", help="open this profile instead of asking")
    parser.add_argument("--sandbox", action="store_true", help="use the embedded sandbox bank")
    parser.add_argument("--data-dir", type=Path, help="keep configuration and data under this path")
    parser.add_argument(
        "--log-level",
        default=None,
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="logging verbosity (secrets are never logged; default INFO, WARNING for --self-test)",
    )
    parser.add_argument("--lang", help="interface language, e.g. pt_BR or en (default: system)")
    # For smoke tests and packaging checks: quit on its own after this many milliseconds.
    parser.add_argument("--exit-after-ms", type=int, default=0, help=argparse.SUPPRESS)
    # For tests: quit the moment start-up reaches this step.
    parser.add_argument("--quit-at", choices=QUIT_STAGES, default=None, help=argparse.SUPPRESS)
    # Benchmarks and screenshots only: unlock the sandbox profile with the sandbox's own test
    # passwords (refused for any other profile).
    parser.add_argument("--unlock-sandbox", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--sandbox-clock-start", help=argparse.SUPPRESS)
    parser.add_argument(
        "--sandbox-samples",
        action="store_true",
        help="with the sandbox profile: add a few sample scheduled payments (once)",
    )
    return parser.parse_args(argv)


_error_boxes: set[Any] = set()  # the unexpected-error boxes on screen


def _install_excepthook() -> None:
    """Route unhandled exceptions (including those of asyncSlot bodies) to the log (standard
    error and the log file, traceback included) and a dialog."""

    def hook(exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        import traceback

        log.error("Unhandled error", exc_info=(exc_type, exc, tb))
        from PySide6.QtWidgets import QApplication, QMessageBox

        from treasury_app.logging_setup import redact

        if QApplication.instance() is None:
            return  # the log has it: standard error and the log file
        # Masked as the log is: what the box shows (details too) is copied to a support desk.
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            "Treasury",
            redact(f"Unexpected error: {exc}"),
            parent=QApplication.activeWindow(),
        )
        box.setObjectName("unexpected-error")
        box.setDetailedText(redact("".join(traceback.format_exception(exc_type, exc, tb))))
        # Kept until closed: a box without a parent would be collected, unseen, on return.
        _error_boxes.add(box)
        box.finished.connect(lambda _result: _error_boxes.discard(box))
        box.open()  # never exec(): a nested loop would re-enter asyncio

    sys.excepthook = hook


async def _run(args: argparse.Namespace, paths: AppPaths, window: Any) -> None:
    import asyncio

    from PySide6.QtCore import QTimer

    from treasury_app import logging_setup

    # A task nobody awaited, a callback that raised: into the log file with its traceback.
    asyncio.get_running_loop().set_exception_handler(logging_setup.log_loop_exception)
    await asyncio.sleep(0)  # let the window paint before the services load
    # The machine policy (docs/it-policy.md), after the first paint: one refused ends the run.
    from treasury_app.ui.policy_view import load_policy

    policy = await load_policy(window)
    if policy is None:
        return
    if policy.data_dir is not None:  # the IT department's data folder, over --data-dir's
        import dataclasses

        paths = dataclasses.replace(paths, data_dir=policy.data_dir)
    if policy.backup_dir is not None:  # the IT department's backup folder (locked or not)
        from treasury_app.services.backup import BackupPolicy
        from treasury_app.ui.backups import set_backup_policy

        set_backup_policy(
            BackupPolicy(folder=policy.backup_dir, locked=policy.is_locked("BackupDir"))
        )
    paths.ensure()  # private folders (on Windows an icacls run each): after the first paint
    logging_setup.attach_log_file(paths.log_dir)  # with the lines logged so far
    logging_setup.attach_event_log()  # errors for IT's monitoring too (Windows only)
    from treasury_app.ui.controller import AppController, StartOptions

    extra = ("--clock-start", args.sandbox_clock_start) if args.sandbox_clock_start else ()
    options = StartOptions(
        profile=args.profile,
        sandbox=args.sandbox,
        unlock_sandbox=args.unlock_sandbox,
        sandbox_args=extra,
        sandbox_samples=args.sandbox_samples,
    )
    controller = AppController(paths, options, window=window, policy=policy)
    if args.exit_after_ms > 0:
        QTimer.singleShot(args.exit_after_ms, lambda: _quit(controller))
    if args.quit_at:
        quit_at = args.quit_at

        def quit_on(stage: str) -> None:
            if stage == quit_at:
                log.info("Quitting at start-up step %s", stage)
                _quit(controller)

        controller.stage_reached.connect(quit_on)
    controller.unlocked.connect(lambda _workspace: log.info("Profile unlocked"))
    await controller.run()


def _quit(controller: object) -> None:
    window = getattr(controller, "window", None)
    if window is not None:
        window.quit_requested.emit()


def install_translator(app: object, lang: str | None) -> str | None:
    """Load the Brazilian Portuguese translation when asked or when the system is pt_BR."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    from treasury_app.resources import translations_dir

    system = QLocale.system()
    if system.language() == QLocale.Language.C:
        # No locale configured (a bare machine, a container): dates and numbers the Brazilian
        # way rather than the C locale's "18 11 2026".
        QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
    wanted = lang or system.name()
    if not wanted.startswith("pt"):
        if lang or system.language() == QLocale.Language.C:
            # English asked for (or no locale at all): dates in English too, not "terça-feira".
            QLocale.setDefault(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
        return None
    translator = QTranslator(app)  # type: ignore[arg-type]
    if translator.load("treasury_pt_BR", str(translations_dir())):
        app.installTranslator(translator)  # type: ignore[attr-defined]
        # Qt's own texts (standard buttons such as Cancel, the file and print dialogs) come
        # from the qtbase catalogue PySide6 ships beside its libraries.
        qt_translator = QTranslator(app)  # type: ignore[arg-type]
        qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if qt_translator.load("qtbase_pt_BR", qt_dir):
            app.installTranslator(qt_translator)  # type: ignore[attr-defined]
        else:
            log.warning("Qt's own pt_BR translation not found in %s", qt_dir)
        QLocale.setDefault(QLocale(QLocale.Language.Portuguese, QLocale.Country.Brazil))
        return "pt_BR"
    log.warning("translation pt_BR not found in %s", translations_dir())
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``treasury-app`` and ``python -m treasury_app``."""
    args = parse_args(argv)
    level = getattr(logging, args.log_level or ("WARNING" if args.self_test else "INFO"))
    from treasury_app import logging_setup  # only modules already loaded: no cost

    logging_setup.configure(level)
    if args.self_test:
        # Standard error only: the self-test runs in a directory of its own and writes nothing
        # in the user's folders (its one line is on standard output).
        from treasury_app.self_test import run_self_test

        return run_self_test(data_dir=args.data_dir)

    _install_excepthook()
    os.environ.setdefault("QT_API", "pyside6")  # qasync picks its Qt binding from this
    from PySide6.QtWidgets import QApplication

    quicken_pyside_import_hook()
    # platformdirs (~3 ms) before the window: the settings file's folder, where the window
    # reads its geometry from.
    from treasury_app.config import AppPaths

    paths = AppPaths.default(args.data_dir)
    try:
        app = QApplication.instance() or QApplication(sys.argv[:1])
        app.setApplicationName("Treasury")
        app.setOrganizationName("TreasuryApp")
        app.setApplicationVersion(__version__)
        app.setQuitOnLastWindowClosed(False)  # the controller decides (lock hides the window)
        _route_qt_messages()
        use_ini_settings(paths.config_dir, migrate_native=args.data_dir is None)
        install_translator(app, args.lang)
        from treasury_app.ui import screen_fit
        from treasury_app.ui.main_window import MainWindow

        screen_fit.install(app)  # every dialog within its screen, above the taskbar

        window = MainWindow()  # only Qt so far: on screen at once, locked
        window.show()
        log.info("Main window shown")
        import asyncio  # the loop, the services and the clients load behind the window

        from treasury_app.event_loop import loop_factory

        # qasync's selector loop on every OS (its Windows default, a Proactor loop, is refused
        # by psycopg, the team database's driver); asyncio.Runner: 3.11's run() takes no
        # loop_factory.
        with (
            contextlib.suppress(asyncio.CancelledError),
            asyncio.Runner(loop_factory=loop_factory(app)) as runner,
        ):
            runner.run(_run(args, paths, window))
    finally:
        # _run attaches the log file once the window is painted; here when start-up failed
        # before that, so the traceback the hook logs next reaches the file too.
        logging_setup.attach_log_file(paths.log_dir)
        logging_setup.attach_event_log()
    return 0


def _route_qt_messages() -> None:
    """Qt's own warnings (a missing plugin, a font, a TLS backend) into the log, not only to
    a console the windowed build does not have."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    qt_log = logging.getLogger("qt")
    levels = {
        QtMsgType.QtDebugMsg: logging.DEBUG,
        QtMsgType.QtInfoMsg: logging.INFO,
        QtMsgType.QtWarningMsg: logging.WARNING,
    }

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        qt_log.log(levels.get(kind, logging.ERROR), "%s", message)

    qInstallMessageHandler(handler)


def use_ini_settings(config_dir: Path, *, migrate_native: bool = False) -> Path:
    """Qt's settings (window geometry, the last profile) in an INI file under ``config_dir``
    instead of the Windows registry (or macOS plist), so ``--data-dir`` holds everything.
    Before any ``QSettings()`` is made. ``migrate_native``: the first time, the settings an
    earlier version kept in the native store are copied over. Returns the file's path."""
    from PySide6.QtCore import QSettings

    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(config_dir))
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    settings = QSettings()
    path = Path(settings.fileName())
    if migrate_native and not path.exists():
        native = QSettings(
            QSettings.Format.NativeFormat,
            QSettings.Scope.UserScope,
            settings.organizationName(),
            settings.applicationName(),
        )
        for key in native.allKeys():
            settings.setValue(key, native.value(key))
        settings.sync()
    return path


def entry(argv: Sequence[str] | None = None) -> int:
    """``python -m treasury_app`` and the frozen build's entry point: ``--run-sandbox ...``
    first runs the sandbox bank (a frozen binary has no ``python -m``; see
    :func:`treasury_app.services.sandbox_runner.sandbox_command`); anything else, the app."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == [RUN_SANDBOX_FLAG]:
        from treasury_app.sandbox.__main__ import main as sandbox_main

        return sandbox_main(args[1:])
    if args[:1] == [PAC_WORKER_FLAG]:
        from treasury_app.api.autoproxy.worker import main as pac_worker_main

        return pac_worker_main()
    return main(args)


def quicken_pyside_import_hook() -> None:
    """PySide6 (6.11) inspects every module imported after it, through ``inspect.getsource``,
    to learn whether it mentions "PySide6" (for its ``__feature__`` switches); the first time it
    does so for every module already loaded. Same question, asked by reading the file: a
    measured ~30 ms off the start-up, and no attribute lookups on half-imported modules
    (which once broke pydantic's lazy imports). Falls back to PySide6's own check."""
    feature = sys.modules.get("shibokensupport.feature")
    original = getattr(feature, "_mod_uses_pyside", None)
    if original is None or getattr(original, "_treasury", False):
        return

    import sysconfig

    standard_library = sysconfig.get_paths()["stdlib"] + os.sep

    def mod_uses_pyside(module: object) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.startswith(standard_library):
            return False  # the standard library never imports PySide6
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return bool(original(module))

    mod_uses_pyside._treasury = True  # type: ignore[attr-defined]
    feature._mod_uses_pyside = mod_uses_pyside  # type: ignore[union-attr]
