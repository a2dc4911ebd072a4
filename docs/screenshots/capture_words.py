"""Screens of issue 33 ("one home for every rule, word and time") at 1366×768 with a title bar
and a taskbar's height taken off the screen, English and pt_BR, with the computer's zone not
Brasília's (run by hand, under Xvfb):

    TZ=UTC xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_words.py [pt_BR]

The window sits below a 30 px title bar and above a 40 px taskbar (1366×698 at y=30); the
dialogs are placed by the app itself. What each shows: instants in Brasília time whatever the
computer's zone, the bank's codes in words, broken rules in the person's language, banks by
name.
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


async def main(lang: str | None) -> None:
    suffix = f"-{lang}" if lang else ""
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
    tab.bank_ispb.setFocus()
    tab.bank_ispb.setText("ita")
    completer = tab.bank_ispb.completer()
    if completer is not None:
        completer.setCompletionPrefix("ita")
        completer.complete()
    await pause(0.8)
    await shot(f"words-bank-data-form{suffix}")

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
