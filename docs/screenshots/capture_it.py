"""Screens of issue 34 ("ready for an IT department") at 1366×768 with a title bar and a
taskbar's height taken off the screen, English and pt_BR (run by hand, under Xvfb):

    TZ=UTC xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python \\
        docs/screenshots/capture_it.py [en|pt_BR]

The machine policy is an admin ``policy.ini`` (the file the MSI writes beside the executable),
read by the app's own reader. With ``SandboxDisabled`` the welcome dialog offers the bank only
(``it-welcome-no-sandbox``). Then, on the sandbox bank under a policy that presets a profile and
locks the team database: Settings → Managed by your organisation (``it-settings-managed``); the
preset profile as File → Edit profile shows it, read-only with the "Set by your IT department"
mark (``it-profile-preset``), its ledger in the policy's team database, locked
(``it-profile-preset-ledger``); Settings → Backups with a chosen folder and the backup just made
(``it-settings-backups``); Restore… with a backup checked and reviewed (``it-restore-review``);
the statement's banner when the proxy asks for an integrated Windows login
(``it-proxy-integrated-login``): the Accounts API's requests are routed through a local proxy
that answers 407 offering Negotiate and NTLM (``tests/api/proxy_fixtures.ForwardProxy``; the
sandbox is on the loopback, which the app never sends through a proxy, so the route is set on
the transport), and the app's own tunnel, probe and refusal do the rest.

The "Set by your IT department" mark starts with a lock symbol (U+1F512), which Windows draws
from Segoe UI Symbol; on Linux install a font that has it (``apt-get install fonts-symbola``).
Window and dialogs as in ``capture_words.py``: the window at 1366×698 below a 30 px title bar,
the dialogs fitted by the app to a screen whose available area leaves out a 40 px taskbar.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's and capture_words' helpers

from capture_desk import pause, run_capture, unlocked_sandbox  # noqa: E402
from capture_words import TASKBAR, TITLE_BAR, shot, visible, wait_for  # noqa: E402

WELCOME_POLICY = """\
[Policy]
SandboxDisabled = 1
"""
DESK_POLICY = """\
[TeamDatabase]
Host = db.empresa.com.br
Database = tesouraria
Port = 5432

[Profiles\\1]
Name = Banco Principal
QrCodesUrl = https://qrcodes.banco.example/v2
QrCodesClientId = empresa-qrcodes
QrCodesCertificate = /srv/treasury/%USERNAME%-qrcodes.pfx
AccountsUrl = https://contas.banco.example/v1
AccountsClientId = empresa-contas
AccountsCertificate = /srv/treasury/%USERNAME%-contas.pfx

[Locked]
TeamDatabase = 1
"""


def read_ini(text: str) -> Any:
    """The policy of an admin INI file holding ``text``, through the app's own reader."""
    from treasury_app.policy import read_policy
    from treasury_app.policy.sources import INI_NAME, IniKeys

    path = Path(tempfile.mkdtemp(prefix="treasury-it-policy-")) / INI_NAME
    path.write_text(text, encoding="utf-8")
    return read_policy([IniKeys.read(path)], environ={"USERNAME": "ana"})


def fit_dialogs_to_a_laptop() -> None:
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QApplication

    from treasury_app.ui import screen_fit

    screen_fit.area_override = QRect(0, 0, 1366, 768 - TASKBAR)
    screen_fit.install(QApplication.instance())


async def welcome_without_sandbox(suffix: str) -> None:
    """A first run where the policy turns the sandbox off: the bank is the only choice."""
    from treasury_app.config import AppPaths
    from treasury_app.ui.controller import AppController, StartOptions
    from treasury_app.ui.dialogs.welcome_dialog import WelcomeDialog

    paths = AppPaths.default(Path(tempfile.mkdtemp(prefix="treasury-it-welcome-")))
    paths.ensure()
    controller = AppController(paths, StartOptions(), policy=read_ini(WELCOME_POLICY))
    run = asyncio.ensure_future(controller.run())
    await wait_for(lambda: visible(WelcomeDialog) is not None)
    if controller.window is not None:  # the locked window behind it, as in the other shots
        window = controller.window
        window.move(0, TITLE_BAR)
        window.resize(1366, 768 - TITLE_BAR - TASKBAR)
        welcome = visible(WelcomeDialog)  # centred over it, as a window manager would
        welcome.move(
            (window.width() - welcome.width()) // 2,
            window.y() + (window.height() - welcome.height()) // 2,
        )
    await pause(0.6)
    await shot(f"it-welcome-no-sandbox{suffix}")
    visible(WelcomeDialog).reject()
    try:
        await asyncio.wait_for(run, 10)
    except TimeoutError:
        run.cancel()
    if controller.window is not None:
        controller.window.hide()


def settings_tab(window: Any) -> Any:
    """Settings, shown (a tab is built when first shown)."""
    from treasury_app.ui.main_window import TAB_TITLES

    window.tabs.setCurrentIndex(TAB_TITLES.index("Settings"))
    return window.current_tab()


async def managed_and_preset(desk: Any, suffix: str) -> None:
    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

    window, controller = desk.window, desk.controller
    settings = settings_tab(window)
    settings.pages.setCurrentWidget(settings.managed_panel)
    await pause(1.0)
    await shot(f"it-settings-managed{suffix}")

    # The preset profile as File → Edit profile opens it (controller.edit_profile's dialog);
    # the preset cannot be unlocked here (its bank is an example), so it is opened directly.
    dialog = ProfileDialog(
        profile=controller.store.load("Banco Principal"),
        secret_store=controller.secret_store,
        endpoints=controller.endpoints,
        policy=controller.policy,
    )
    dialog.setParent(window, dialog.windowFlags())
    dialog.open()
    await wait_for(dialog.isVisible)
    await pause(1.0)
    await shot(f"it-profile-preset{suffix}")
    bar = dialog.scroll.verticalScrollBar()  # its ledger: the policy's team database, locked
    bar.setValue(bar.maximum())
    await pause(0.6)
    await shot(f"it-profile-preset-ledger{suffix}")
    dialog.reject()
    await pause(0.3)


async def backups_and_restore(desk: Any, suffix: str) -> None:
    window = desk.window
    settings = settings_tab(window)
    panel = settings.backup_panel
    settings.pages.setCurrentWidget(panel)
    payouts = desk.controller.workspace.payouts  # something in the ledger to back up
    for key, amount in (("grafica@empresa.com.br", "1.234,56"), ("frete@empresa.com.br", "45,00")):
        await payouts.send(await payouts.prepare_key(key, amount))
    folder = Path(tempfile.mkdtemp(prefix="treasury-it-share-")) / "tesouraria-backups"
    folder.mkdir()
    panel.folder_edit.setText(str(folder))
    panel.save()
    panel.keep_spin.setValue(30)
    panel.backup_button.click()
    await wait_for(lambda: panel.task is not None and panel.task.done())
    await panel.reload()
    await pause(0.8)
    await shot(f"it-settings-backups{suffix}")

    panel.restore_button.click()
    await wait_for(lambda: panel.restore_dialog is not None and panel.restore_dialog.list.count())
    dialog = panel.restore_dialog
    dialog.list.setCurrentRow(0)
    dialog.check_button.click()
    await wait_for(lambda: dialog.task is not None and dialog.task.done())
    await pause(0.8)
    await shot(f"it-restore-review{suffix}")
    dialog.reject()
    await pause(0.5)


async def proxy_login_banner(desk: Any, suffix: str) -> None:
    from tests.api.proxy_fixtures import ForwardProxy
    from treasury_app.api.proxies import ProxyRoute

    window = desk.window
    window.tabs.setCurrentIndex(0)
    statement = window.current_tab()
    routing = statement.workspace.session.accounts.transport._routing
    async with ForwardProxy(refuse=407, authenticate=("Negotiate", "NTLM")) as proxy:

        async def through_proxy(_url: Any) -> list[ProxyRoute]:
            return [ProxyRoute(proxy.url, "profile")]

        routing._decide = through_proxy
        await statement.load()
        await pause(0.8)
        await shot(f"it-proxy-integrated-login{suffix}")
    print("proxy asked", proxy.connects)


async def main(lang: str | None) -> None:
    suffix = f"-{lang}" if lang else ""
    fit_dialogs_to_a_laptop()
    await welcome_without_sandbox(suffix)

    desk = await unlocked_sandbox("treasury-it-", policy=read_ini(DESK_POLICY))
    window, run = desk.window, desk.run
    window.move(0, TITLE_BAR)
    window.resize(1366, 768 - TITLE_BAR - TASKBAR)
    await pause(3.0)
    await managed_and_preset(desk, suffix)
    await backups_and_restore(desk, suffix)
    await proxy_login_banner(desk, suffix)
    window.quit_requested.emit()
    await run


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))  # tests.api.proxy_fixtures
    run_capture(main)
