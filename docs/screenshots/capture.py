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
    if not lang:
        await payout_screens(window)
    window.quit_requested.emit()
    await run


async def payout_screens(window: object) -> None:
    """The Pix payouts and Boletos screens (issue 8): form, review, list, batch, boleto
    review, receipt viewer."""
    window.tabs.setCurrentIndex(1)  # type: ignore[attr-defined]
    tab = window.tabs.currentWidget()  # type: ignore[attr-defined]
    http = tab.workspace.session.accounts.transport.http
    tab.forms.setCurrentIndex(0)
    tab.key_edit.line_edit.setText("fornecedor@empresa.com.br")
    tab.key_amount.setText("1.234,56")
    tab.key_description.setText("Nota fiscal 4521")
    await pause(0.5)
    shot("payout-form")
    tab.key_review_button.click()
    while tab.review_dialog is None or not tab.review_dialog.isVisible():
        await pause(0.1)
    dialog = tab.review_dialog
    dialog.confirm_edit.setText("1.234,56")
    await pause(0.5)
    shot("payout-review")
    dialog.send_button.click()
    while not tab.review_task.done():
        await pause(0.1)
    entry = tab.review_task.result()
    await http.post("/sandbox/clock", json={"advance": 3.5})
    await tab.workspace.tracker.poll_once()
    await pause(0.5)
    tab.payments_list.select_entry(entry.id)
    await pause(0.8)
    shot("payments-list")

    entry = tab.workspace.ledger.journal.get(entry.id)
    from treasury_app.ui.dialogs.receipt_viewer import open_receipt_viewer

    viewer = await open_receipt_viewer(tab.workspace.tracker, entry, window)
    viewer.resize(760, 700)
    await pause(1.0)
    shot("receipt-viewer")
    viewer.close()

    tab.open_batch()
    batch = tab.batch_dialog
    batch.load_text(
        "chave;valor;descricao\n"
        "fornecedor@empresa.com.br;1.500,00;NF 101\n"
        "52998224725;320,10;Reembolso\n"
        "12345678900;99,90;CPF inválido\n"
        "+5511987654321;75,00;Frete\n"
        "financeiro@cliente.com.br;abc;Valor inválido\n"
    )
    batch.resize(900, 640)
    await pause(0.8)
    shot("batch-review")
    batch.reject()
    await pause(0.3)

    window.tabs.setCurrentIndex(2)  # type: ignore[attr-defined]
    billets = window.tabs.currentWidget()  # type: ignore[attr-defined]
    slips = (await http.get("/sandbox/slips")).json()["data"]
    overdue = next((s for s in slips if "com multa" in s["label"]), slips[0])
    billets.code_edit.setText(overdue["digitableCode"])
    await pause(0.3)
    billets.lookup_button.click()
    while billets.review_dialog is None or not billets.review_dialog.isVisible():
        await pause(0.1)
    await pause(0.5)
    shot("boleto-review")
    billets.review_dialog.reject()
    await pause(0.3)


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
