"""Screens of issue 33 ("one home for every rule, word and time") at 1366×768 with a title bar
and a taskbar's height taken off the screen, English and pt_BR, with the computer's zone not
Brasília's (run by hand, under Xvfb):

    TZ=UTC xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_words.py [pt_BR]

The window sits below a 30 px title bar and above a 40 px taskbar (1366×698 at y=30); the
dialogs are sized and placed by the app itself (its screen fit, on a screen whose available
area leaves out the taskbar; Xvfb draws no title bar, so a dialog's top edge is where its
title bar would begin). English is ``en`` (``words-*-en.png``). What each shows: instants in
Brasília time whatever the computer's zone, the bank's codes in words, broken rules in the
person's language, banks by name.

Also the screens changed since (issue 33): the recurrence wizard's payer's bank picked by name
(``words-wizard-payer-bank``), a recurrence the payer rejected with the sandbox console's
refusal of a stale "payer approves" (``words-rec-refusal``) and its closing reason once read
again (``words-rec-closed``), the profile dialog with the service's reason on a bad address
(``words-profile-reason``), the New charge form with a txid's reason
(``words-charge-txid``); the bank-data form's picker lists every bank that "banco do" finds.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from capture_desk import OUT, pause, run_capture, unlocked_sandbox

TITLE_BAR = 30
TASKBAR = 40
BAD_BATCH = (
    "chave;valor;descricao\n"
    "grafica@empresa.com.br;1.234,56;NF 1\n"
    "nao-e-chave;980,00;NF 2\n"
    "frete@empresa.com.br;-5,00;NF 3\n"
    "123.456.789-00;600,00;NF 4\n"
    "energia@empresa.com.br;abc;NF 5\n"
)


async def shot(name: str) -> None:
    """Grab the whole screen once the loop has drawn (no processEvents inside a task: that
    would run other tasks' steps re-entrantly)."""
    from PySide6.QtWidgets import QApplication

    await pause(0.4)
    QApplication.primaryScreen().grabWindow(0).save(str(OUT / f"{name}.png"))
    print("captured", name)


async def wait_for(condition: Any, step: float = 0.1, limit: float = 30.0) -> None:
    waited = 0.0
    while not condition():
        await pause(step)
        waited += step
        if waited > limit:
            raise TimeoutError("the screen did not come")


def tab_index(window: Any, name: str) -> int:
    for index in range(window.tabs.count()):
        if (
            window.tabs.widget(index).objectName() == name
            or name in str(window.tabs.tabText(index)).lower()
        ):
            return index
    return -1


async def type_into(edit: Any, text: str) -> None:
    """Type ``text`` key by key into ``edit`` (its ``textEdited`` fires, as for a person)."""
    from PySide6.QtTest import QTest

    edit.activateWindow()
    edit.setFocus()
    await pause(0.2)
    QTest.keyClicks(edit, text)


def visible(kind: type) -> Any:
    from PySide6.QtWidgets import QApplication

    for widget in QApplication.topLevelWidgets():
        for candidate in [widget, *widget.findChildren(kind)]:
            if isinstance(candidate, kind) and candidate.isVisible():
                return candidate
    return None


async def recurrence_screens(window: Any, suffix: str) -> None:
    """Journey 1: the payer's bank picked by name in the wizard; the recurrence created; the
    payer rejects it in their bank's app while its detail is open here, so the detail's
    "Sandbox: payer approves" is refused (the sandbox console's refusal in words) and the
    recurrence, read again, says why it closed."""
    window.tabs.setCurrentIndex(4)
    tab = window.current_tab()
    await wait_for(lambda: tab.load_task is not None and tab.load_task.done())
    wizard = tab.open_wizard()
    wizard.journey_buttons[1].setChecked(True)
    wizard.go_next()
    form = wizard.terms_form
    form.contract_edit.setText("CT-2026-0107")
    form.document_edit.setText("529.982.247-25")
    form.name_edit.setText("Maria da Silva")
    form.purpose_edit.setText("Mensalidade do plano empresarial")
    form.amount_edit.setText("189,90")
    assert wizard.go_next(), "the terms page refused"
    payer = wizard.payer_form
    payer.document_edit.setText("529.982.247-25")
    await type_into(payer.ispb_edit, "itau")
    await wait_for(lambda: payer.bank_completer.popup().isVisible())
    await pause(0.6)
    await shot(f"words-wizard-payer-bank{suffix}")
    payer.bank_completer.popup().hide()
    payer.ispb_edit.setText("60701190")
    payer.branch_edit.setText("0001")
    payer.account_edit.setText("12345-6")
    assert wizard.go_next(), "the payer's page refused"
    wizard.create_button.click()
    await wait_for(lambda: wizard.create_task is not None and wizard.create_task.done())
    id_rec = wizard.result_rec
    assert id_rec, "no recurrence created"
    wizard.accept()
    await pause(0.5)

    await tab.recurrences.reload()
    detail = await tab.recurrences.open_details(id_rec)
    await pause(0.5)
    # The payer says no in their own bank's app meanwhile (the sandbox plays it).
    await tab.workspace.sandbox.decide_rec(id_rec, approve=False)
    detail.approve_button.click()  # the window still shows it waiting for the payer
    await wait_for(lambda: detail.task is not None and detail.task.done())
    await pause(0.6)
    await shot(f"words-rec-refusal{suffix}")
    detail.banner.clear()
    await detail.reload()
    await pause(0.6)
    await shot(f"words-rec-closed{suffix}")
    detail.reject()
    await pause(0.3)


async def charge_txid_screen(window: Any, suffix: str) -> None:
    """The New charge form with a txid the domain refuses: its reason under the field."""
    window.tabs.setCurrentIndex(3)
    tab = window.current_tab()
    await wait_for(lambda: tab.load_task is not None and tab.load_task.done())
    form = tab.open_new_charge()
    await pause(0.5)
    form.amount_edit.setText("189,90")
    form.document_edit.setText("529.982.247-25")
    form.name_edit.setText("Maria da Silva")
    form.txid_edit.setText("pedido-123")
    form.submit_button.click()
    await wait_for(lambda: form.submit_task is not None and form.submit_task.done())
    await pause(0.5)
    await shot(f"words-charge-txid{suffix}")
    form.reject()
    await pause(0.3)


async def profile_reason_screen(window: Any, suffix: str) -> None:
    """File → Edit profile with an address the profiles service refuses: its reason under the
    field and on the banner."""
    from PySide6.QtWidgets import QLineEdit

    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

    window.edit_profile_action.trigger()
    await wait_for(lambda: visible(ProfileDialog) is not None)
    dialog = visible(ProfileDialog)
    await pause(0.5)
    address = dialog.findChild(QLineEdit, "qrcodes-base-url")
    address.setText("https://qrcodes.bank.example/v2?conta=1")
    dialog.save_button.click()
    await pause(1.0)
    await shot(f"words-profile-reason{suffix}")
    dialog.reject()
    await pause(0.3)


async def main(lang: str | None) -> None:
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QApplication

    from treasury_app.ui import screen_fit

    suffix = f"-{lang}" if lang else ""
    # As the app does, every dialog fitted to the screen as it is shown; the screen's available
    # area stands in a taskbar at its bottom (Xvfb has none), so a dialog's title bar and its
    # buttons lie within 1366×728, as on the laptop.
    screen_fit.area_override = QRect(0, 0, 1366, 768 - TASKBAR)
    screen_fit.install(QApplication.instance())
    desk = await unlocked_sandbox("treasury-words-")
    window, run = desk.window, desk.run
    window.move(0, TITLE_BAR)
    window.resize(1366, 768 - TITLE_BAR - TASKBAR)
    await pause(3.0)
    await shot(f"words-statement{suffix}")

    window.tabs.setCurrentIndex(1)
    tab = window.current_tab()
    workspace = tab.workspace
    await workspace.payouts.send(
        await workspace.payouts.prepare_key("grafica@empresa.com.br", "1.234,56")
    )
    await pause(1.5)
    await shot(f"words-pix-payments{suffix}")

    # A batch file with bad rows: each reason in the person's language.
    path = Path(tempfile.mkdtemp()) / "pagamentos.csv"
    path.write_text(BAD_BATCH, encoding="utf-8")
    tab.open_batch()
    batch = tab.batch_dialog
    await batch.load_file(path)
    await pause(0.8)
    await shot(f"words-batch-bad-rows{suffix}")
    batch.reject()
    await pause(0.3)

    # Pix by bank data: the bank picked by name.
    forms = tab.forms
    for index in range(forms.count()):
        forms.setCurrentIndex(index)
        if "bank" in forms.currentWidget().objectName().lower():
            break
    await type_into(tab.bank_ispb, "banco do")  # typed: the picker searches as one types
    await pause(0.8)
    await shot(f"words-bank-data-form{suffix}")
    tab.bank_completer.popup().hide()
    tab.bank_ispb.clear()

    await recurrence_screens(window, suffix)
    await charge_txid_screen(window, suffix)
    await profile_reason_screen(window, suffix)

    # Every tab, the infractions badge and the audit log.
    await window.check_infractions()
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        await pause(2.0)
        await shot(f"words-tab-{index}{suffix}")
    for index in range(window.tabs.count()):
        window.tabs.setCurrentIndex(index)
        await pause(0.5)
        settings = window.current_tab()
        if hasattr(settings, "pages"):
            break
    for page in range(settings.pages.count()):
        name = settings.pages.widget(page).objectName() or str(page)
        settings.pages.setCurrentIndex(page)
        await pause(1.5)
        await shot(f"words-settings-{page}{suffix}")
        del name

    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    run_capture(main)
