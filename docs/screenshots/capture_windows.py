"""Screens changed for Windows readiness at 1366×768, English and pt_BR (run by hand, under
Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python docs/screenshots/capture_windows.py [pt_BR]

Settings ▸ About & support (the log folder, Open folder, Copy diagnostics, and a ledger backed
up through the panel: its message); Settings' first page with the profile's proxy and where
each API's requests go; the profile dialog of a production profile with an explicit proxy
typed; the payments' "Export…" save dialog with its two file types (CSV for Excel, CSV
machine-readable), the type list open. Captured with Qt's own screen grab (the whole X
screen), with the helpers of ``capture_desk.py`` and ``capture_hostile.py``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from capture_desk import (  # also puts the repository on sys.path
    pause,
    run_capture,
    shot,
    unlocked_sandbox,
)
from capture_hostile import production_profile

SETTINGS = 5  # the Settings tab, after the statement, Pix, Boletos, charges and recurrences
PAYOUTS = 1
PROXY = "http://proxy.empresa.local:8080"


async def main(lang: str | None) -> None:
    from PySide6.QtWidgets import QComboBox, QLineEdit

    from treasury_app import logging_setup
    from treasury_app.config import AppPaths
    from treasury_app.services.endpoints import EndpointConfirmations
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

    suffix = f"-{lang}" if lang else ""
    desk = await unlocked_sandbox("treasury-windows-", log_to_file=True)
    window, run = desk.window, desk.run
    await pause(2.0)
    # A short fixed folder: its path is shown in the backup message and the save dialog.
    folder = Path(tempfile.gettempdir()) / "bancoexemplo"
    folder.mkdir(parents=True, exist_ok=True)

    # Settings ▸ About & support, after a backup made through the panel (no file dialog).
    window.tabs.setCurrentIndex(SETTINGS)
    settings = window.current_tab()
    await pause(1.0)
    panel = settings.support_panel
    settings.pages.setCurrentWidget(panel)
    target = folder / "backups"
    target.mkdir(exist_ok=True)
    print("backed up to", await panel.back_up_to(target))
    await pause(0.8)
    shot(f"windows-settings-support{suffix}")

    # Settings' first page: the profile's proxy, and where each API's requests go.
    settings.pages.setCurrentIndex(0)
    await pause(0.8)
    shot(f"windows-settings-proxy{suffix}")

    # A production profile behind an explicit proxy, typed in the profile dialog.
    profile = production_profile(folder)
    endpoints = EndpointConfirmations(
        AppPaths.default(Path(tempfile.mkdtemp(prefix="treasury-endpoints-")))
    )
    await endpoints.confirm(profile.name, endpoints.pending(profile), confirmed_in="profile dialog")
    dialog = ProfileDialog(profile=profile, endpoints=endpoints, parent=window)
    dialog.open()
    await pause(0.5)
    mode = dialog.findChild(QComboBox, "profile-proxy-mode")
    mode.setCurrentIndex(mode.findData("url"))
    url = dialog.findChild(QLineEdit, "profile-proxy-url")
    url.setText(PROXY)
    url.setFocus()
    await pause(0.8)
    shot(f"windows-profile-proxy{suffix}")
    dialog.reject()
    await pause(0.3)

    # The payments' "Export…": the save dialog and its two file types, the list open.
    exports = folder / "exportacoes"
    exports.mkdir(exist_ok=True)
    for name in ("extrato-novembro.csv", "pagamentos-outubro.csv", "cobrancas-outubro.csv"):
        (exports / name).write_text("a;b\r\n", encoding="utf-8")
    window.tabs.setCurrentIndex(PAYOUTS)
    await pause(1.5)
    payments = window.current_tab().payments_list
    payments.export_button.click()
    save = payments.export_dialog
    while not save.isVisible():
        await pause(0.1)
    save.setDirectory(str(exports))  # not the working directory: a folder of exports
    save.selectFile("pagamentos-pix.csv")
    save.move(200, 120)
    save.resize(900, 520)
    await pause(1.0)
    types = save.findChild(QComboBox, "fileTypeCombo")
    print("file types:", [types.itemText(i) for i in range(types.count())])
    types.showPopup()
    await pause(0.8)
    shot(f"windows-export-formats{suffix}")
    types.hidePopup()
    save.reject()
    await pause(0.3)

    window.quit_requested.emit()
    await run
    logging_setup.remove()


if __name__ == "__main__":
    run_capture(main)
