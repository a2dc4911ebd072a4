"""Screens of the team's webhook receiver on a desktop, at 1366×768 (run by hand, under Xvfb):

    xvfb-run -a -s "-screen 0 1366x768x24" .venv/bin/python docs/screenshots/capture_receiver.py

(``... capture_receiver.py pt_BR`` for the Brazilian Portuguese screens.)

A throwaway PostgreSQL (``tests/pg_server``) gets a treasury database with the people of
``capture_team`` and a webhook receiver's login (``treasury_receiver``), which beats every two
seconds here as a running receiver does (``treasury.receiver_beat``, announcing its public
URL, its last notification stored a few seconds before). Ana's desktop unlocks its Sandbox
profile on that database: the status bar says "Notifications: live · …"
(``receiver-status-bar``), and Settings ▸ Webhooks ▸ "Use the team's receiver…" registers
every webhook at the receiver's URL (``team-receiver-dialog``, each registration's state).
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's and capture_team's helpers
sys.path.insert(0, str(HERE.parents[1]))  # tests.pg_server

from capture_desk import pause, run_capture  # noqa: E402
from capture_team import centre, desktop, shot, team_database, unlock, until  # noqa: E402

RECEIVER = "receiver"
PUBLIC_URL = "https://hooks.empresa.com.br/treasury"
SECRET = "rcv-3f8a61c2d94b7e05"  # as in the receiver's configuration file


def add_receiver(server: Any, dbname: str) -> None:
    import psycopg

    from treasury_app.ledger.team import migrations

    with psycopg.connect(server.url(dbname), autocommit=True) as conn:
        migrations.add_user(conn, RECEIVER, ("treasury_receiver",))


async def beat_forever(server: Any, dbname: str) -> None:
    """What a running receiver does every few seconds: its heartbeat, with its URL and when
    it last stored a notification (here: 9 seconds before it started)."""
    import psycopg

    async with await psycopg.AsyncConnection.connect(
        server.url(dbname, user=RECEIVER), autocommit=True
    ) as conn:
        row = await (await conn.execute("SELECT now(), now() - interval '9 seconds'")).fetchone()
        assert row is not None
        started, last_item = row
        while True:
            await conn.execute(
                "SELECT treasury.receiver_beat('receiver-1', %s, %s, %s)",
                (started, last_item, PUBLIC_URL),
            )
            await asyncio.sleep(2)


async def main(language: str | None) -> None:
    from PySide6.QtWidgets import QLineEdit

    from treasury_app.ui.tabs.settings_tab import SettingsTab

    suffix = f"-{language}" if language else ""
    root = Path(tempfile.mkdtemp(prefix="treasury-receiver-shots-"))
    server, dbname = team_database(root)
    beating: asyncio.Task[None] | None = None
    ana = None
    try:
        add_receiver(server, dbname)
        beating = asyncio.ensure_future(beat_forever(server, dbname))
        ana = await desktop(server, dbname, "ana", "none")
        window = await unlock(ana, None, None)
        await until(
            lambda: (
                window.notifications_status is not None
                and window.notifications_status.source.status.live
            ),
            "a live receiver",
        )
        window.tabs.setCurrentIndex(5)  # Settings
        await pause(0.5)
        settings = window.current_tab()
        assert isinstance(settings, SettingsTab) and settings.webhooks_panel is not None
        settings.pages.setCurrentIndex(settings.pages.indexOf(settings.webhooks_panel))
        panel = settings.webhooks_panel
        await until(lambda: bool(panel.views), "the webhooks table")
        await pause(2.5)
        print("status bar:", window.notifications_status.text())
        shot(f"receiver-status-bar{suffix}")

        panel.receiver_button.click()
        await until(
            lambda: (
                panel.receiver_dialog is not None
                and panel.receiver_dialog.load_task is not None
                and panel.receiver_dialog.load_task.done()
            ),
            "the receiver dialog",
        )
        dialog = panel.receiver_dialog
        dialog.findChild(QLineEdit, "receiver-secret").setText(SECRET)
        dialog.register_button.click()
        await until(lambda: dialog.task is not None and dialog.task.done(), "the registrations")
        dialog.resize(900, 600)
        centre(dialog)
        await pause(1.0)
        print("dialog:", dialog.status_label.text())
        shot(f"team-receiver-dialog{suffix}")
        dialog.reject()
        await pause(0.5)
    finally:
        try:
            if ana is not None and ana.window is not None:
                ana.window.quit_requested.emit()
                await asyncio.wait_for(ana.task, 30)
        finally:
            if beating is not None:
                beating.cancel()
                with contextlib.suppress(BaseException):
                    await beating
            server.close()


if __name__ == "__main__":
    run_capture(main)
