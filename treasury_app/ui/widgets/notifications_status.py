"""The bank's notifications in a label: "Notifications: live · 12 s" while the team's webhook
receiver brings them, or "Notifications: polling" ("receiver silent", "offline" in the warning
colour), with the whole sentence and why in the tooltip: short enough for a 1366 px laptop's
status bar. Shown in the status bar of a team session (the file ledger has no receiver).

It follows a :class:`~treasury_app.services.notifications.BankNotifications` (anything with
``status`` and ``subscribe``): a new reading every few seconds, and a tick each second for
the "… ago". :meth:`NotificationsStatusLabel.stop` ends both (on lock)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Protocol

from PySide6.QtWidgets import QWidget

from treasury_app.services.notifications import ReceiverState
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import InstantForm, format_instant
from treasury_app.ui.widgets.team_status import TickingLabel

if TYPE_CHECKING:
    from treasury_app.services.notifications import ReceiverStatus

SAFETY_POLL_MINUTES = 5


class NotificationsLike(Protocol):
    @property
    def status(self) -> ReceiverStatus: ...

    def subscribe(self, listener: Callable[[ReceiverStatus], None]) -> Callable[[], None]: ...


class NotificationsStatusLabel(TickingLabel):
    """The receiver's status of ``source``, kept current until :meth:`stop`. ``monotonic`` is
    the clock the ages grow on between two readings (tests pass their own)."""

    def __init__(
        self,
        source: NotificationsLike,
        parent: QWidget | None = None,
        *,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("notifications-status")
        self.source = source
        self.monotonic = monotonic
        self.warning = False
        self.follow(source.subscribe)  # type: ignore[arg-type]

    def refresh(self) -> None:
        status = self.source.status
        text, tooltip = self.describe(status)
        self.setText(text)
        self.setToolTip(tooltip)
        self.warning = status.state in (ReceiverState.SILENT, ReceiverState.OFFLINE)
        self.setStyleSheet(text_style("warning", self) if self.warning else "")

    def describe(self, status: ReceiverStatus) -> tuple[str, str]:
        """The label's text and tooltip for ``status`` (the tooltip's first line: the whole
        sentence the short text stands for)."""
        text, sentence, why = self._words(status)
        return text, "\n".join(line for line in (sentence, why) if line)

    def _words(self, status: ReceiverStatus) -> tuple[str, str, str]:
        """The short text, the whole sentence and why, for ``status``."""
        polling = self.tr(
            "Until then the app asks the bank for each payment's status, as without a team "
            "database."
        )
        if status.state is ReceiverState.LIVE:
            age = status.last_item_age(self.monotonic())
            why = self.tr(
                "The team's webhook receiver brings the bank's notifications: payments, "
                "charges and recurrences change here as the bank tells. The app still asks "
                "the bank every %1 minutes, in case a notification was lost."
            ).replace("%1", str(SAFETY_POLL_MINUTES))
            if status.url:
                why += "\n" + status.url
            short = (
                self.tr("nothing yet") if age is None else self.short_age(int(age.total_seconds()))
            )
            return (
                self.tr("Notifications: live") + " · " + short,
                self.tr("Notifications: live") + " · " + self._last(age),
                why,
            )
        if status.state is ReceiverState.NEVER:
            return (
                self.tr("Notifications: polling"),
                self.tr("Notifications: polling (no receiver)"),
                self.tr("No webhook receiver has ever run on this team database.") + " " + polling,
            )
        if status.state is ReceiverState.SILENT:
            since = self._since(status)
            return (
                self.tr("Notifications: receiver silent"),
                self.tr("Notifications: polling (receiver silent since %1)").replace("%1", since),
                self.tr("The team's webhook receiver has been silent since %1.").replace(
                    "%1", since
                )
                + " "
                + polling,
            )
        if status.state is ReceiverState.OFFLINE:
            return (
                self.tr("Notifications: offline"),
                self.tr("Notifications: polling (team database offline)"),
                self.tr(
                    "The team database is offline (%1): no notification can reach this desktop."
                ).replace("%1", status.detail or self.tr("not reachable"))
                + " "
                + polling,
            )
        return self.tr("Notifications: checking…"), "", ""

    def _last(self, age: timedelta | None) -> str:
        if age is None:
            return self.tr("nothing received yet")
        seconds = int(age.total_seconds())
        if seconds < 60:
            return self.tr("last %1 s ago").replace("%1", str(seconds))
        if seconds < 3600:
            return self.tr("last %1 min ago").replace("%1", str(seconds // 60))
        if seconds < 48 * 3600:
            return self.tr("last %1 h ago").replace("%1", str(seconds // 3600))
        return self.tr("last %1 days ago").replace("%1", str(seconds // 86400))

    @staticmethod
    def _since(status: ReceiverStatus) -> str:
        """When the receiver was last seen, in Brasília: the time, with the day when that was
        not in the last 20 hours (measured on the database's clock)."""
        if status.seen_at is None:
            return "?"
        if status.checked_at is not None and status.checked_at - status.seen_at < timedelta(
            hours=20
        ):
            return format_instant(status.seen_at, InstantForm.TIME)
        return format_instant(status.seen_at)
