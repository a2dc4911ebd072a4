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
    from treasury_app.ui.main_window import TAB_TITLES

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
    window.tabs.setCurrentIndex(TAB_TITLES.index("Settings"))
    await pause(1.0)
    shot(f"settings{suffix}")
    if not lang:
        await payout_screens(window)
        await charge_screens(window)
        await recurrence_screens(window)
        await settings_screens(window)
    else:
        await charge_screens(window, suffix)
    window.quit_requested.emit()
    await run


async def payout_screens(window: object) -> None:
    """The Pix payouts and Boletos screens (issue 8): form, review, list, batch, boleto
    review, receipt viewer."""
    window.tabs.setCurrentIndex(1)  # type: ignore[attr-defined]
    tab = window.current_tab()  # type: ignore[attr-defined]
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

    entry = await tab.workspace.ledger.journal.get(entry.id)
    from treasury_app.ui.dialogs.receipt_viewer import open_receipt_viewer

    viewer = await open_receipt_viewer(tab.workspace.tracker, entry, window)
    viewer.resize(760, 700)
    await pause(1.0)
    shot("receipt-viewer")
    viewer.close()

    tab.open_batch()
    batch = tab.batch_dialog
    await batch.load_text(
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
    billets = window.current_tab()  # type: ignore[attr-defined]
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


async def charge_screens(window: object, suffix: str = "") -> None:
    """Charges & batches (issue 9): the form, the charge with its QR Code, the list after the
    sandbox payer paid it, a batch being imported."""
    window.tabs.setCurrentIndex(3)  # type: ignore[attr-defined]
    tab = window.current_tab()  # type: ignore[attr-defined]
    while tab.load_task is None or not tab.load_task.done():
        await pause(0.1)
    form = tab.open_new_charge()
    form.amount_edit.setText("1.890,00")
    form.document_edit.setText("529.982.247-25")
    form.name_edit.setText("Maria da Silva")
    form.message_edit.setText("Pedido 4521 — mensalidade de dezembro")
    await pause(0.6)
    shot(f"charge-form{suffix}")
    form.submit_button.click()
    while form.submit_task is None or not form.submit_task.done():
        await pause(0.1)
    charge = form.submit_task.result()
    qr = form.qr_dialog
    qr.resize(620, 720)
    await pause(0.8)
    shot(f"charge-qr{suffix}")
    qr.close()
    if suffix:
        return
    await tab.charges.reload()
    await tab.charges.sandbox_pay(charge.txid)  # the charges list's own sandbox action
    await tab.charges.reload()
    tab.charges.select_charge(charge.txid)
    await pause(0.8)
    shot("charges-list")

    tab.sections.setCurrentWidget(tab.batches)
    await pause(0.5)
    from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog

    batch = ChargeBatchDialog(tab.workspace, tab)
    batch.load_text(
        "nome;cpf_cnpj;valor;vencimento;descricao;txid\n"
        "Maria Souza;529.982.247-25;1.234,56;15/12/2026;Mensalidade dezembro;\n"
        "Empresa Cliente Ltda;11.222.333/0001-81;99,90;20/12/2026;Serviços;\n"
        "João Pereira;123.456.789-00;350,00;18/12/2026;CPF inválido;\n"
        "Padaria Central Ltda;45.723.174/0001-10;-10,00;22/12/2026;Valor negativo;\n"
        "Ana Lima;111.444.777-35;780,00;28/12/2026;Aluguel;\n"
    )
    batch.resize(980, 560)
    batch.show()
    await pause(0.8)
    shot("charge-batch")
    batch.reject()
    await pause(0.3)


async def recurrence_screens(window: object) -> None:
    """Recurrences (issue 9): the wizard's terms page and a recurrence's detail."""
    window.tabs.setCurrentIndex(4)  # type: ignore[attr-defined]
    tab = window.current_tab()  # type: ignore[attr-defined]
    while tab.load_task is None or not tab.load_task.done():
        await pause(0.1)
    wizard = tab.open_wizard()
    wizard.journey_buttons[3].setChecked(True)
    await pause(0.6)
    shot("recurrence-wizard-journey")
    wizard.go_next()
    form = wizard.terms_form
    form.contract_edit.setText("CT-2026-0042")
    form.document_edit.setText("529.982.247-25")
    form.name_edit.setText("Maria da Silva")
    form.purpose_edit.setText("Mensalidade do plano empresarial")
    form.amount_edit.setText("189,90")
    await pause(0.6)
    shot("recurrence-wizard")
    wizard.go_next()
    charge = wizard.charge_form
    charge.description_edit.setText("Primeira mensalidade")
    wizard.go_next()
    await pause(0.4)
    wizard.create_button.click()
    while wizard.create_task is None or not wizard.create_task.done():
        await pause(0.1)
    id_rec = wizard.result_rec
    await pause(0.6)
    shot("recurrence-qr")
    wizard.sandbox_button.click()
    while wizard.sandbox_task is None or not wizard.sandbox_task.done():
        await pause(0.1)
    wizard.accept()
    for _ in range(50):  # paying the first charge approves the recurrence (journey 3)
        rec = await tab.workspace.recurrences.get_rec(id_rec)
        if str(rec.status.value) == "APROVADA":
            break
        await pause(0.2)
    await tab.recurrences.reload()
    await tab.recurrences.open_details(id_rec)
    detail = tab.recurrences.detail_dialog
    detail.resize(900, 700)
    await pause(1.0)
    shot("recurrence-detail")
    detail.reject()
    await pause(0.3)


async def settings_screens(window: object) -> None:
    """Settings (issue 9): the webhooks and the infractions pages."""
    window.tabs.setCurrentIndex(5)  # type: ignore[attr-defined]
    tab = window.current_tab()  # type: ignore[attr-defined]
    for index, name in ((1, "settings-webhooks"), (2, "settings-infractions")):
        tab.pages.setCurrentIndex(index)
        await pause(1.5)
        shot(name)


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
