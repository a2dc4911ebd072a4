"""The team database's link in a label: "Team database: live · last change 12 s ago", or
"Team database offline: <why>" in the warning colour, in Settings. The status bar's label is
``compact``: "Team: live · 12 s" or "Team: offline" (still in the warning colour), the whole
sentence in its tooltip, so that every badge fits a 1366 px laptop's bar.

It follows a :class:`~treasury_app.services.team_link.TeamLink` (anything with ``state`` and
``subscribe``) and ticks once a second for the "… ago"; :meth:`TeamStatusLabel.stop` ends both
(on lock, before the session closes)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtWidgets import QLabel, QWidget

from treasury_app.domain.clock import system_clock
from treasury_app.ui.theme import text_style
from treasury_app.ui.times import InstantForm, format_instant

if TYPE_CHECKING:
    from treasury_app.services.team_link import TeamState


class TeamLinkLike(Protocol):
    @property
    def state(self) -> TeamState: ...

    def subscribe(self, listener: Callable[[TeamState], None]) -> Callable[[], None]: ...


class TickingLabel(QLabel):
    """A status label following a source (its ``subscribe``) and ticking once a second for
    its "… ago" (:meth:`refresh`), until :meth:`stop`."""

    def follow(self, subscribe: Callable[[Callable[[object], None]], Callable[[], None]]) -> None:
        self._unsubscribe: Callable[[], None] | None = subscribe(lambda _news: self.refresh())
        self.timer = QTimer(self)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.refresh)
        self.timer.start()
        self.refresh()

    def stop(self) -> None:
        """Stop following (the source is about to close)."""
        self.timer.stop()
        unsubscribe, self._unsubscribe = self._unsubscribe, None
        if unsubscribe is not None:
            unsubscribe()

    def refresh(self) -> None:
        raise NotImplementedError

    def short_age(self, seconds: int) -> str:
        """An age for a compact label: "12 s", "4 min", "3 h", "2 d"."""
        if seconds < 60:
            return QCoreApplication.translate("TickingLabel", "%1 s").replace("%1", str(seconds))
        if seconds < 3600:
            return QCoreApplication.translate("TickingLabel", "%1 min").replace(
                "%1", str(seconds // 60)
            )
        if seconds < 48 * 3600:
            return QCoreApplication.translate("TickingLabel", "%1 h").replace(
                "%1", str(seconds // 3600)
            )
        return QCoreApplication.translate("TickingLabel", "%1 d").replace(
            "%1", str(seconds // 86400)
        )


class TeamStatusLabel(TickingLabel):
    """The state of ``link``, kept current until :meth:`stop`; ``compact`` for the status bar
    (the whole sentence then in the tooltip)."""

    def __init__(
        self,
        link: TeamLinkLike,
        parent: QWidget | None = None,
        *,
        clock: Callable[[], datetime] | None = None,
        compact: bool = False,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("team-status")
        self.link = link
        self.compact = compact
        self.clock = clock or system_clock  # the team link stamps its changes with it
        self.offline = False
        self.follow(link.subscribe)  # type: ignore[arg-type]

    def refresh(self) -> None:
        state = self.link.state
        self.offline = not state.online
        if state.online:
            text = self.tr("Team database: live")
            short = self.tr("Team: live")
            if state.last_change is not None:
                text += " · " + self._ago(state.last_change)
                short += " · " + self._short_ago(state.last_change)
        elif state.detail == "connecting":
            text = self.tr("Team database: connecting…")
            short = self.tr("Team: connecting…")
        else:
            text = self.tr("Team database offline: %1").replace(
                "%1", state.detail or self.tr("not reachable")
            )
            short = self.tr("Team: offline")
        self.setText(short if self.compact else text)
        tooltip = [text, state.database] if self.compact else [state.database]
        if self.offline:
            tooltip.append(
                self.tr(
                    "What is on screen stays; nothing is sent until the database is back. "
                    "The app reconnects by itself."
                )
            )
        self.setToolTip("\n".join(tooltip))
        self.setStyleSheet(
            f"{text_style('warning', self)} font-weight: bold;" if self.offline else ""
        )

    def _ago(self, when: datetime) -> str:
        seconds = max(0, int((self.clock() - when).total_seconds()))
        if seconds < 60:
            return self.tr("last change %1 s ago").replace("%1", str(seconds))
        if seconds < 3600:
            return self.tr("last change %1 min ago").replace("%1", str(seconds // 60))
        return self.tr("last change at %1").replace("%1", format_instant(when, InstantForm.TIME))

    def _short_ago(self, when: datetime) -> str:
        """The compact form of :meth:`_ago`: "12 s", "4 min", then the time of the change."""
        seconds = max(0, int((self.clock() - when).total_seconds()))
        if seconds < 3600:
            return self.short_age(seconds)
        return format_instant(when, InstantForm.TIME)
