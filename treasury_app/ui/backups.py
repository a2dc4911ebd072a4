"""Automatic backups as the window runs them: where they go (the person's choice in Settings,
under the machine's policy), the daily one (a timer: at start-up, then every few minutes it
asks whether today's Brasília backup is made) and the one before closing (bounded: Quit is
never held for long, and a second Quit closes at once).

The machine's policy comes in through :func:`set_backup_policy`, once at start-up; nothing
else here knows where a policy is read from."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QSettings, QTimer, Signal

from treasury_app.services.backup import (
    BackupCancelled,
    BackupInfo,
    BackupPolicy,
    BackupRefused,
    BackupService,
    BackupSettings,
    effective_settings,
)
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.rule_words import rule_text

log = logging.getLogger("treasury_app.ui.backups")

FOLDER_KEY = "backups/folder"
KEEP_DAYS_KEY = "backups/keep-days"
FIRST_CHECK_MS = 30_000  # the daily backup a moment after the unlock, not during it
CHECK_EVERY_MS = 10 * 60_000  # then: has the Brasília day turned?
CLOSE_WAIT_SECONDS = 15.0
"""How long closing the app waits for a backup (its own, or one under way) before it goes
without it; a second Quit does not wait at all."""

_policy: BackupPolicy | None = None


def set_backup_policy(policy: BackupPolicy | None) -> None:
    """What the machine's policy says of backups (the folder, how many days, locked), from the
    start-up code that reads it; ``None``: no policy, the person chooses."""
    global _policy
    _policy = policy


def backup_policy() -> BackupPolicy | None:
    return _policy


def current_settings() -> BackupSettings:
    """The backup folder and the days kept: the person's choice under the machine's policy."""
    settings = QSettings()
    folder = settings.value(FOLDER_KEY)
    days = settings.value(KEEP_DAYS_KEY)
    try:
        keep = int(str(days)) if days is not None else None
    except (TypeError, ValueError):
        keep = None
    chosen = Path(folder) if isinstance(folder, str) and folder else None
    return effective_settings(chosen, keep, _policy)


def save_settings(folder: Path | None, keep_days: int) -> bool:
    """Keep the person's choice; refused (``False``) when the policy locks it."""
    if current_settings().locked:
        return False
    settings = QSettings()
    settings.setValue(FOLDER_KEY, "" if folder is None else str(folder))
    settings.setValue(KEEP_DAYS_KEY, int(keep_days))
    return True


class BackupRunner(QObject):
    """The daily backup's timer and the backup before closing, for one open profile."""

    said = Signal(str)  # what a person should read (the status bar shows it)
    backed_up = Signal(object)  # the BackupInfo of every backup this runner made

    def __init__(self, service: BackupService, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.service = service
        self.daily_task: asyncio.Task[BackupInfo | None] | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.check_daily)
        self._quit_again: asyncio.Event | None = None

    def start(self) -> None:
        self.timer.start(FIRST_CHECK_MS)

    def stop(self) -> None:
        self.timer.stop()

    def check_daily(self) -> asyncio.Task[BackupInfo | None] | None:
        """Start today's backup if it is due (the timer's slot; tests call it)."""
        self.timer.start(CHECK_EVERY_MS)
        settings = current_settings()
        if not self.service.daily_due(settings):
            return None
        if self.daily_task is None or self.daily_task.done():
            self.daily_task = spawn_for(self, self._daily(settings), name="daily-backup")
        return self.daily_task

    async def _daily(self, settings: BackupSettings) -> BackupInfo | None:
        info = await self.service.run_daily(settings)
        if info is not None:
            self.backed_up.emit(info)
        return info

    def wants_to_run_on_close(self) -> bool:
        """Whether closing the app should wait for a backup (one under way, or its own)."""
        return self.service.busy or current_settings().folder is not None

    def quit_again(self) -> None:
        """A second Quit while closing waits: close now."""
        if self._quit_again is not None:
            self._quit_again.set()

    async def before_closing(self, timeout: float = CLOSE_WAIT_SECONDS) -> BackupInfo | None:
        """The backup before the app closes: waits for one already under way, then makes its
        own; each wait is bounded by ``timeout`` and ended by a second Quit (the backup is
        then abandoned: its temporary folder goes, no half backup is left)."""
        self.stop()
        self._quit_again = asyncio.Event()
        seconds = str(int(timeout))
        try:
            if self.service.busy:
                self.said.emit(
                    self.tr(
                        "Waiting for the backup under way before closing (at most %1 s; "
                        "Quit again to close now)…"
                    ).replace("%1", seconds)
                )
                running = self.service.running
                assert running is not None
                if not await self._wait(running, timeout):
                    return None
                if not running.cancelled() and running.exception() is None:
                    info = running.result()  # seconds old: it is the backup before closing
                    self.backed_up.emit(info)
                    return info
            folder = current_settings().folder
            if folder is None:
                return None
            self.said.emit(
                self.tr(
                    "Backing up before closing (at most %1 s; Quit again to close now)…"
                ).replace("%1", seconds)
            )
            task = asyncio.ensure_future(
                self.service.back_up(folder, reason="close", keep_days=current_settings().keep_days)
            )
            task.add_done_callback(_retrieve)  # an abandoned one ends later, unread
            if not await self._wait(task, timeout):
                return None
            try:
                info = task.result()
            except (BackupRefused, BackupCancelled) as error:
                log.warning("backup before closing not made: %s", error)
                if isinstance(error, BackupRefused):
                    self.said.emit(
                        self.tr("Closing without a backup: %1").replace("%1", rule_text(error))
                    )
                return None
            self.backed_up.emit(info)
            return info
        finally:
            self._quit_again = None

    async def _wait(self, awaited: asyncio.Future[BackupInfo], timeout: float) -> bool:
        """Wait for ``awaited`` up to ``timeout`` or a second Quit; whether it ended. When it
        did not, the backup is abandoned (and said so)."""
        assert self._quit_again is not None
        again: asyncio.Future[Any] = asyncio.ensure_future(self._quit_again.wait())
        waited: set[asyncio.Future[Any]] = {awaited, again}
        try:
            done, _pending = await asyncio.wait(
                waited, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
        finally:
            again.cancel()
        if awaited in done:
            with contextlib.suppress(BaseException):
                awaited.exception()  # retrieved: read by the caller or the service
            return True
        self.service.abandon()
        why = "quit again" if done else "took too long"
        log.warning("closing without waiting for the backup (%s)", why)
        self.said.emit(
            self.tr(
                "The backup was abandoned so that the app could close; none was left half made."
            )
        )
        return False


def _retrieve(task: asyncio.Future[BackupInfo]) -> None:
    if not task.cancelled():
        task.exception()
