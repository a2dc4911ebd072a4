"""Screens of a payee's payments and statement of account (issue 36) at 1366×768 with a 30 px
title bar and a 40 px taskbar taken off the screen, English and pt_BR (run by hand, under
Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_statement.py [pt_BR]

The app on its sandbox bank pays a supplier three times through two of its registered Pix
keys (the bank settles them and gives their receipts); then

* ``payees-history-<lang>``: the Payees tab, the supplier selected: its keys, and its last
  payments with this month's total;
* ``payees-statement-<lang>``: "Statement of account…": the period asked;
* ``payees-statement-done-<lang>``: the .zip written, what it holds said in the tab.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's helpers

from capture_desk import pause, run_capture, unlocked_sandbox  # noqa: E402
from capture_payees import PAYEES, placed, shot  # noqa: E402
from capture_words import tab_index, wait_for  # noqa: E402

EMAIL_KEY = "contas@papelaria.com.br"
CNPJ = "24874452000160"  # the sandbox's owner of that key; its CNPJ is a key of theirs too
PAID = ((EMAIL_KEY, "1234.56", "NF 1021"), (CNPJ, "980.00", "NF 1022"), (EMAIL_KEY, "45.90", ""))


async def main(lang: str | None) -> None:
    from PySide6.QtWidgets import QApplication

    from treasury_app.ui.dialogs.statement_dialog import StatementDialog

    lang = lang or "en"
    desk = await unlocked_sandbox("treasury-statement-")
    window, run = desk.window, desk.run
    placed(window)
    await pause(2.0)
    window.tabs.setCurrentIndex(1)
    workspace = window.current_tab().workspace
    service = workspace.payees
    papelaria = await service.save_payee("Papelaria Central Ltda", CNPJ, "fornecedor")
    for key in (EMAIL_KEY, CNPJ):
        await service.add(papelaria.id, service.key(key))
    for name, document, tags, key in PAYEES[1:]:
        other = await service.save_payee(name, document, tags)
        await service.add(other.id, service.key(key))
    http = workspace.session.accounts.transport.http
    for key, amount, note in PAID:
        review = await workspace.payouts.prepare_key(key, amount, description=note)
        await workspace.payouts.send(review)
        await http.post("/sandbox/clock", json={"advance": 3.5})
        for entry in await workspace.tracker.poll_once():
            await workspace.tracker.receipt(entry)

    index = tab_index(window, "payees-tab")
    if index < 0:
        titles = [str(window.tabs.tabText(i)) for i in range(window.tabs.count())]
        index = titles.index(window.tr("Payees"))
    window.tabs.setCurrentIndex(index)
    tab = window.current_tab()
    await tab.reload()
    tab.search.setText("papelaria")
    await wait_for(lambda: tab.payments_model.rowCount() == len(PAID))
    await shot(f"payees-history-{lang}")

    target = Path(tempfile.mkdtemp()) / "extrato-papelaria-central-ltda.zip"
    task = asyncio.ensure_future(tab.export_statement(target))

    def dialog() -> StatementDialog | None:
        return next(
            (
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, StatementDialog) and w.isVisible()
            ),
            None,
        )

    await wait_for(lambda: dialog() is not None)
    await shot(f"payees-statement-{lang}")
    shown = dialog()
    assert shown is not None
    shown.every.setChecked(True)
    shown.accept()
    await wait_for(task.done)
    print("written:", task.result())
    await shot(f"payees-statement-done-{lang}")
    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    run_capture(main)
