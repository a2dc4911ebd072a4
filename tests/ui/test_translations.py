"""The Brazilian Portuguese translation: complete, faithful to its placeholders, compiled from
the current ``.ts``, and really used by the widgets once installed.

Every test that installs a translator removes it again (and restores the default locale):
the rest of the suite expects English text.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLocale, QTranslator

from treasury_app.resources import translations_dir

TS = translations_dir() / "treasury_pt_BR.ts"
QM = translations_dir() / "treasury_pt_BR.qm"
PLACEHOLDER = re.compile(r"%(\d+)")
# A keyboard mnemonic: a single "&" before a character ("&&" is a literal ampersand).
MNEMONIC = re.compile(r"(?<!&)&(?!&)(?=\w)")


def _messages() -> list[tuple[str, str, ET.Element]]:
    """(context, source, translation element) for every message of the ``.ts``."""
    root = ET.parse(TS).getroot()
    messages = []
    for context in root.iter("context"):
        name = context.findtext("name", default="")
        for message in context.iter("message"):
            translation = message.find("translation")
            assert translation is not None, f"{name}: {message.findtext('source')!r}"
            messages.append((name, message.findtext("source", default=""), translation))
    return messages


def test_every_message_is_translated():
    messages = _messages()
    assert messages
    problems = [
        (context, source)
        for context, source, translation in messages
        if translation.get("type") is not None or not (translation.text or "").strip()
    ]
    assert problems == []


def test_translations_keep_the_placeholders_and_mnemonics():
    for context, source, translation in _messages():
        text = translation.text or ""
        where = f"{context}: {source!r} -> {text!r}"
        assert Counter(PLACEHOLDER.findall(text)) == Counter(PLACEHOLDER.findall(source)), where
        assert len(MNEMONIC.findall(text)) == len(MNEMONIC.findall(source)), where
        assert text.count("&&") == source.count("&&"), where
        assert text.count("\n") == source.count("\n"), where


def test_menu_mnemonics_are_unique_within_each_menu():
    texts = {
        (context, source): translation.text or "" for context, source, translation in _messages()
    }
    menus = {
        "menu bar": ["&File", "&View", "&Help"],
        "File": ["&Switch profile…", "&Edit profile…", "&Lock", "&Quit"],
    }
    for menu, sources in menus.items():
        letters = []
        for source in sources:
            text = texts["MainWindow", source]
            match = MNEMONIC.search(text)
            assert match is not None, f"{menu}: {text!r} has no mnemonic"
            letters.append(text[match.end()].casefold())
        assert len(set(letters)) == len(letters), f"{menu}: {letters}"


def test_compiled_translation_translates_known_strings(qapp, restore_translation):
    translator = QTranslator()
    assert translator.load("treasury_pt_BR", str(translations_dir()))
    assert qapp.installTranslator(translator)
    try:
        assert QCoreApplication.translate("MainWindow", "Pix payouts") == "Pagamentos Pix"
        assert QCoreApplication.translate("MainWindow", "Balance & statement") == "Saldo e extrato"
        assert QCoreApplication.translate("MainWindow", "Settings") == "Configurações"
        assert QCoreApplication.translate("UnlockDialog", "Unlock") == "Desbloquear"
        assert QCoreApplication.translate("MainWindow", "&File") == "&Arquivo"
        assert QCoreApplication.translate("BalanceCard", "Blocked: %1") == "Bloqueado: %1"
    finally:
        qapp.removeTranslator(translator)
    assert QCoreApplication.translate("MainWindow", "Pix payouts") == "Pix payouts"


def test_compiled_translation_is_up_to_date(tmp_path: Path):
    # Beside this Python first (the venv's bin/ or Scripts\), then on PATH; shutil.which adds
    # Windows' .exe (PATHEXT).
    lrelease = shutil.which("pyside6-lrelease", path=str(Path(sys.executable).parent))
    lrelease = lrelease or shutil.which("pyside6-lrelease")
    assert lrelease, f"pyside6-lrelease not found beside {sys.executable} or on PATH"
    fresh = tmp_path / "fresh.qm"
    subprocess.run([lrelease, "-silent", str(TS), "-qm", str(fresh)], check=True)
    assert QM.read_bytes() == fresh.read_bytes(), (
        f"{QM.name} is stale: run `make translations` (or pyside6-lrelease) after editing {TS.name}"
    )


def test_install_translator_translates_the_main_window(qapp, qtbot, restore_translation):
    from treasury_app.app import install_translator
    from treasury_app.ui.main_window import MainWindow

    assert install_translator(qapp, "pt_BR") == "pt_BR"
    assert QLocale().language() == QLocale.Language.Portuguese
    window = MainWindow()
    qtbot.addWidget(window)
    titles = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert titles[0] == "Saldo e extrato"
    assert titles[1] == "Pagamentos Pix"
    assert titles[-1] == "Configurações"
    assert window.windowTitle().startswith("Tesouraria")
    # Qt's own texts too: standard buttons and dialogs.
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancelar"
    assert QCoreApplication.translate("QFileDialog", "Look in:") != "Look in:"


def test_dates_in_the_ui_language_and_in_brasilia_time(qapp, restore_translation):
    from treasury_app.app import install_translator
    from treasury_app.ui.times import deadline_text, instant_or_empty

    # 02:30 UTC on the 19th is 23:30 of the 18th in Brasília, whatever the computer's zone,
    # written the same way in both languages; a deadline names the zone in each.
    stamp = "2026-11-19T02:30:00.000Z"
    assert install_translator(qapp, "en") is None
    assert instant_or_empty(stamp) == "18/11/2026 23:30"
    assert deadline_text(stamp) == "18/11/2026 23:30 (Brasília)"
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    assert instant_or_empty(stamp) == "18/11/2026 23:30"
    assert deadline_text(stamp) == "18/11/2026 23:30 (horário de Brasília)"
