"""Screens of "a day at the treasury desk" at 1366×768 (a laptop), English and pt_BR (run by
hand, under Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python docs/screenshots/capture_desk.py [pt_BR]

A payment the bank never confirmed, held for a person (banner on the Pix tab); the same batch
opened a second time; the review of a later payment to a key the bank named; a slip paid
before. Captured with Qt's own screen grab (the whole X screen).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import sys
import tempfile
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
OUT = Path(__file__).resolve().parent
NEVER = {
    "path": "/api/v2/pix/payments/dict",
    "method": "POST",
    "rate_503": 1,
    "retry_after": 0,
    "times": 4,
}
BATCH = (
    "chave;valor;descricao\n"
    "grafica@empresa.com.br;1.234,56;NF 1\n"
    "limpeza@empresa.com.br;980,00;NF 2\n"
    "frete@empresa.com.br;1.045,84;NF 3\n"
    "aluguel@empresa.com.br;600,00;NF 4\n"
    "energia@empresa.com.br;400,00;NF 5\n"
)


def shot(name: str) -> None:
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    QApplication.primaryScreen().grabWindow(0).save(str(OUT / f"{name}.png"))
    print("captured", name)


async def pause(seconds: float) -> None:
    await asyncio.sleep(seconds)


@dataclass
class Desk:
    """The app unlocked on its sandbox bank, its window over the whole 1366×768 screen."""

    controller: Any
    window: Any
    run: asyncio.Future[Any]
    paths: Any


async def unlocked_sandbox(prefix: str, *, log_to_file: bool = False, policy: Any = None) -> Desk:
    """Start the app in a fresh data folder, choose the sandbox on the welcome screen, unlock
    it with the sandbox's own passwords, and wait for the main window. Under a machine
    ``policy`` (which may preset profiles: then there is no welcome screen) the app is started
    with ``--sandbox`` instead of the welcome screen's choice."""
    from PySide6.QtWidgets import QApplication, QPushButton

    from treasury_app import logging_setup
    from treasury_app.config import AppPaths
    from treasury_app.ui.controller import AppController, StartOptions
    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
    from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog

    paths = AppPaths.default(Path(tempfile.mkdtemp(prefix=prefix)))
    paths.ensure()
    if log_to_file:
        logging_setup.attach_log_file(paths.log_dir)  # as the app does
    controller = AppController(
        paths,
        StartOptions(
            sandbox=policy is not None, sandbox_args=("--clock-start", "2026-11-18T13:00:00Z")
        ),
        policy=policy,
    )
    run = asyncio.ensure_future(controller.run())

    def visible(kind: type) -> Any:
        return next(
            (w for w in QApplication.topLevelWidgets() if isinstance(w, kind) and w.isVisible()),
            None,
        )

    if policy is None:
        while visible(WelcomeDialog) is None:
            await pause(0.1)
        visible(WelcomeDialog).findChild(QPushButton, "sandbox-choice").click()
    while visible(UnlockDialog) is None:
        await pause(0.1)
    unlock = visible(UnlockDialog)
    unlock.findChild(QPushButton, "fill-in-button").click()
    unlock.findChild(QPushButton, "unlock-button").click()
    while controller.window is None:
        await pause(0.1)
    window = controller.window
    # Xvfb has no window manager to maximize it: the whole 1366×768 screen by hand.
    window.move(0, 0)
    window.resize(1366, 768)
    return Desk(controller, window, run, paths)


def run_capture(main: Callable[[str | None], Coroutine[Any, Any, None]]) -> None:
    """``main(language)`` on a qasync loop, in the language named on the command line."""
    import qasync
    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from treasury_app.app import install_translator

    language = sys.argv[1] if len(sys.argv) > 1 else None
    app = QApplication(sys.argv[:1])
    app.setOrganizationName("TreasuryApp-screenshots")
    app.setQuitOnLastWindowClosed(False)
    QSettings().clear()
    install_translator(app, language)
    qasync.run(main(language))


async def main(lang: str | None) -> None:

    from treasury_app.domain.clock import system_clock

    suffix = f"-{lang}" if lang else ""
    desk = await unlocked_sandbox("treasury-desk-")
    window, run = desk.window, desk.run
    await pause(3.0)
    shot(f"desk-statement{suffix}")

    window.tabs.setCurrentIndex(1)
    tab = window.current_tab()
    workspace = tab.workspace
    http = workspace.session.accounts.transport.http

    # A payment the bank never got, a day later: held for a person.
    workspace.engine.follow_up = ()
    await http.post("/sandbox/faults", json=NEVER)
    review = await workspace.payouts.prepare_key("grafica@empresa.com.br", "77,00")
    await workspace.payouts.send(review)
    await http.delete("/sandbox/faults")
    workspace.engine.clock = lambda: system_clock() + dt.timedelta(days=1)
    await workspace.tracker.poll_once()
    await pause(1.0)
    shot(f"desk-held-payment{suffix}")
    workspace.engine.clock = system_clock

    # A payment to a key the bank named: the next review says whom it went to.
    paid = await workspace.payouts.send(
        await workspace.payouts.prepare_key("frete@empresa.com.br", "45,00")
    )
    print("creditor", paid.creditor_name)
    tab.forms.setCurrentIndex(0)
    tab.key_edit.line_edit.setText("frete@empresa.com.br")
    tab.key_amount.setText("45,00")
    tab.key_review_button.click()
    while tab.review_dialog is None or not tab.review_dialog.isVisible():
        await pause(0.1)
    await pause(0.6)
    shot(f"desk-review-last-paid{suffix}")
    tab.review_dialog.reject()
    await pause(0.3)

    # The same batch file twice.
    path = Path(tempfile.mkdtemp()) / "pagamentos.csv"
    path.write_text(BATCH, encoding="utf-8")
    tab.open_batch()
    batch = tab.batch_dialog
    await batch.load_file(path)  # read in a worker thread: wait for it
    batch.confirm_edit.setText("4.260,40")
    batch.send_button.click()
    while batch.send_task is None or not batch.send_task.done():
        await pause(0.1)
    batch.reject()
    await pause(0.3)
    tab.open_batch()
    again = tab.batch_dialog
    await again.load_file(path)
    again.confirm_edit.setText("4.260,40")
    await pause(0.8)
    shot(f"desk-batch-again{suffix}")
    again.reject()
    await pause(0.3)

    # A slip paid before: the hard stop.
    window.tabs.setCurrentIndex(2)
    billets = window.current_tab()
    slips = (await http.get("/sandbox/slips")).json()["data"]
    slip = next(s for s in slips if s["label"] == "Energia elétrica")
    first = await billets.workspace.billets.lookup(slip["digitableCode"])
    await billets.workspace.billets.pay(first)
    billets.code_edit.setText(slip["digitableCode"])
    billets.lookup_button.click()
    while billets.lookup_task is None or not billets.lookup_task.done():
        await pause(0.1)
    await pause(0.8)
    shot(f"desk-slip-paid-before{suffix}")

    # Every tab at 1366×768, the infractions badge and the audit log's filters included.
    await window.check_infractions()
    names = ["statement", "pix", "boletos", "charges", "recurrences", "settings"]
    for index, name in enumerate(names):
        window.tabs.setCurrentIndex(index)
        await pause(2.0)
        shot(f"desk-tab-{name}{suffix}")
    settings = window.current_tab()
    settings.pages.setCurrentIndex(settings.pages.count() - 1)
    await pause(0.8)
    shot(f"desk-audit-log{suffix}")
    window.tabs.setCurrentIndex(2)
    boletos = window.current_tab()
    boletos.samples_button.click()
    while boletos.samples_dialog is None:
        await pause(0.1)
    await pause(0.6)
    shot(f"desk-sample-slips{suffix}")
    boletos.samples_dialog.reject()
    await pause(0.3)

    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    run_capture(main)
