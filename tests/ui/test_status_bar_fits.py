"""A team desk on a 1366×768 laptop, in English and in pt_BR: the main window's status bar
shows every badge at once (infractions, approvals, the team database, the bank's
notifications, the sandbox, both APIs), each in its longest realistic state, and cuts none of
their texts; the whole sentences (the ticking "last change 12 s ago" included) are in the
tooltips, and the warnings (offline, a silent receiver, an API not connected, a certificate
about to expire) stay in the bar's own text.

The team's link and the receiver's status are stand-ins (the layout needs their states, not a
team database); the session, its certificates and the sandbox bank are real."""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QSize
from PySide6.QtWidgets import QLabel, QWidget

from tests.waiting import qt_turn
from treasury_app.services.notifications import ReceiverState, ReceiverStatus
from treasury_app.services.profiles import APIS
from treasury_app.services.schedule import DayWarning
from treasury_app.services.team_link import TeamState
from treasury_app.ui import main_window
from treasury_app.ui.theme import error_color, warning_color

# What a maximized window gets on a 1366×768 screen, less a taskbar and a title bar.
SCREEN = QSize(1366, 768 - 40 - 30)
NOW = dt.datetime(2026, 12, 7, 19, 42, 30, tzinfo=dt.UTC)
DATABASE = "bruno@db.empresa.com.br:5432/tesouraria"
MONOTONIC = 5_000.0

TEAM_STATES = {
    "live, 59 min": TeamState(True, "", NOW - dt.timedelta(minutes=59, seconds=30), DATABASE),
    "live, hours": TeamState(True, "", NOW - dt.timedelta(hours=3), DATABASE),
    "connecting": TeamState(False, "connecting", None, DATABASE),
    "offline": TeamState(False, "server closed the connection unexpectedly", NOW, DATABASE),
}


def _live(seconds: float | None) -> ReceiverStatus:
    return ReceiverStatus(
        ReceiverState.LIVE,
        checked_at=NOW,
        seen_at=NOW - dt.timedelta(seconds=3),
        last_item_at=None if seconds is None else NOW - dt.timedelta(seconds=seconds),
        url="https://recebedor.empresa.com.br:8443/pix/webhook",
        observed=MONOTONIC,
    )


RECEIVER_STATES = {
    "checking": ReceiverStatus(ReceiverState.CHECKING),
    "live, 59 min": _live(59 * 60 + 30),
    "live, 47 h": _live(47 * 3600 + 30),
    "live, nothing yet": _live(None),
    "never": ReceiverStatus(ReceiverState.NEVER, checked_at=NOW),
    "silent for days": ReceiverStatus(
        ReceiverState.SILENT, checked_at=NOW, seen_at=NOW - dt.timedelta(days=3, minutes=7)
    ),
    "offline": ReceiverStatus(
        ReceiverState.OFFLINE, detail="server closed the connection unexpectedly"
    ),
}

# What the tooltips (the whole sentences) and the bar (the warnings) must say, per language.
WORDS = {
    "en": {
        "team live, 59 min": "Team database: live · last change 59 min ago",
        "team offline": "Team database offline: server closed the connection unexpectedly",
        "team offline, bar": "offline",
        "receiver live, 59 min": "Notifications: live · last 59 min ago",
        "receiver never": "Notifications: polling (no receiver)",
        "receiver silent": "Notifications: polling (receiver silent since ",
        "receiver silent, bar": "silent",
        "receiver offline": "Notifications: polling (team database offline)",
        "receiver offline, bar": "offline",
        "approvals": "12 payment(s) waiting for your approval",
        "sandbox": "SANDBOX — test bank, no real money",
        "certificate": "(29 days)",
    },
    "pt_BR": {
        "team live, 59 min": "Banco da equipe: ao vivo · última mudança há 59 min",
        "team offline": "Banco da equipe fora do ar: server closed the connection unexpectedly",
        "team offline, bar": "fora do ar",
        "receiver live, 59 min": "Notificações: ao vivo · última há 59 min",
        "receiver never": "Notificações: consultando o banco (sem receptor)",
        "receiver silent": "Notificações: consultando o banco (receptor em silêncio desde ",
        "receiver silent, bar": "silêncio",
        "receiver offline": "Notificações: consultando o banco (banco da equipe fora do ar)",
        "receiver offline, bar": "fora do ar",
        "approvals": "12 pagamento(s) aguardando sua aprovação",
        "sandbox": "SANDBOX — banco de testes, sem dinheiro real",
        "certificate": "(29 dias)",
    },
}


class StandIn:
    """A team link or a receiver's status source: ``subscribe`` and a value to follow."""

    def __init__(self, name: str, value: object) -> None:
        self.name = name
        setattr(self, name, value)
        self.listeners: list[Callable[[object], None]] = []

    def subscribe(self, listener: Callable[[object], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def subscribe_changes(self, listener: Callable[[object], None]) -> Callable[[], None]:
        """The bank-events feed a tab may start while the window is up (none here)."""
        del listener
        return lambda: None

    def set(self, value: object) -> None:
        setattr(self, self.name, value)
        for listener in list(self.listeners):
            listener(value)


@pytest.fixture(params=["en", "pt_BR"])
def language(request: Any, qapp: Any, restore_translation: None) -> str:
    from treasury_app.app import install_translator

    install_translator(qapp, request.param)
    return str(request.param)


@pytest.fixture
def team_window(qtbot: Any, open_workspace: Any, monkeypatch: Any, language: str) -> Any:
    """The main window of a team session with dual control and a webhook receiver, at a
    laptop's size, with 12 infractions and 12 payments waiting."""
    workspace = open_workspace()
    session = workspace.session
    link = StandIn("state", TEAM_STATES["live, 59 min"])
    receiver = StandIn("status", RECEIVER_STATES["live, 59 min"])
    # The Approvals tab itself is another test's: here a page that lists nothing.
    monkeypatch.setitem(
        main_window.TAB_FACTORIES, main_window.APPROVALS, lambda _w, parent: QWidget(parent)
    )
    monkeypatch.setattr(session, "team", link, raising=False)
    monkeypatch.setattr(session, "notifications", receiver, raising=False)
    monkeypatch.setattr(session, "approvals", object(), raising=False)
    monkeypatch.setattr(workspace.infractions, "days_left", lambda _item: 4)

    async def two_days_short(days: int = 1) -> list[DayWarning]:  # its longest state
        return [
            DayWarning(dt.date(2026, 12, 9), Decimal("1234567.89"), Decimal("1000000.00")),
            DayWarning(dt.date(2026, 12, 10), Decimal("1234567.89"), Decimal("1000000.00")),
        ]

    monkeypatch.setattr(workspace.schedule, "day_warnings", two_days_short)
    window = main_window.MainWindow()
    qtbot.addWidget(window)
    window.resize(SCREEN)
    window.show()
    qtbot.waitExposed(window)
    window.set_workspace(workspace)
    try:
        assert window.team_status is not None and window.notifications_status is not None
        window.team_status.clock = lambda: NOW  # the ages, on the test's clock
        window.notifications_status.monotonic = lambda: MONOTONIC
        window.status_panel.timer.stop()  # the API lights as the test sets them
        waiting = [SimpleNamespace(id=f"INF{n:029d}", status="OPEN") for n in range(12)]
        window.show_infraction_alerts(waiting)
        window.show_approvals_waiting(12)
        badge = window.day_warning_badge
        assert badge is not None and badge.task is not None
        qtbot.waitUntil(badge.task.done)
        yield SimpleNamespace(window=window, link=link, receiver=receiver, workspace=workspace)
    finally:
        window.set_workspace(None)


def _apis_not_connected_and_expiring(window: Any, session: Any) -> None:
    """Both API lights in their longest state: not connected, and the certificate 29 days
    from its end (a warning)."""
    for api, light in window.status_panel.apis.items():
        certificate = session.certificates[api]
        failing = SimpleNamespace(
            closed=False,
            token_states=lambda: {
                name: SimpleNamespace(last_error="connection refused", valid_until=None)
                for name in APIS
            },
            certificates=session.certificates,
        )
        light.update_from(failing, certificate.not_after - dt.timedelta(days=29, hours=12))


def _cut(label: QLabel) -> str | None:
    """Why ``label``'s text does not show whole, or ``None``."""
    needed = label.fontMetrics().horizontalAdvance(label.text())
    if label.width() < label.sizeHint().width():
        return f"{label.objectName()} {label.text()!r}: {label.width()} < {label.sizeHint()}"
    if label.contentsRect().width() < needed:
        return f"{label.objectName()} {label.text()!r}: {label.contentsRect()} < {needed} px"
    return None


def test_every_badge_fits_a_laptop_with_its_sentence_in_the_tooltip(
    qtbot: Any, team_window: Any, language: str
) -> None:
    window = team_window.window
    words = WORDS[language]
    bar = window.statusBar()
    _apis_not_connected_and_expiring(window, team_window.workspace.session)
    panel = window.status_panel
    labels: list[QLabel] = [
        window.infraction_badge,
        window.approvals_badge,
        window.day_warning_badge,
        window.team_status,
        window.notifications_status,
        panel.badge,
        *panel.apis.values(),
    ]
    bar_widgets = [
        window.infraction_badge,
        window.approvals_badge,
        window.day_warning_badge,
        window.team_status,
        window.notifications_status,
        panel,
    ]
    ready = window.tr("Ready")
    for team, receiver in itertools.product(TEAM_STATES, RECEIVER_STATES):
        team_window.link.set(TEAM_STATES[team])
        team_window.receiver.set(RECEIVER_STATES[receiver])
        bar.showMessage(ready)
        qt_turn(qtbot)  # the bar laid out again for the new texts
        state = f"{language}, team {team}, receiver {receiver}"
        for label in labels:
            assert label.isVisible(), (state, label.objectName())
            assert _cut(label) is None, (state, _cut(label))
            right = label.mapTo(window, QPoint(label.width(), 0)).x()
            assert right <= window.width(), (state, label.objectName(), right)
        spacing = bar.layout().spacing() if bar.layout() is not None else 0
        needed = sum(w.sizeHint().width() + max(spacing, 6) for w in bar_widgets)
        message = bar.fontMetrics().horizontalAdvance(ready) + 20
        assert needed + message <= window.width(), (state, needed, message)

    # The whole sentences, in the tooltips.
    team_label, receiver_label = window.team_status, window.notifications_status
    team_window.link.set(TEAM_STATES["live, 59 min"])
    assert words["team live, 59 min"] in team_label.toolTip()
    assert DATABASE in team_label.toolTip()
    assert team_label.text() != words["team live, 59 min"]  # the bar's own text is short
    team_window.receiver.set(RECEIVER_STATES["live, 59 min"])
    assert words["receiver live, 59 min"] in receiver_label.toolTip()
    team_window.receiver.set(RECEIVER_STATES["never"])
    assert words["receiver never"] in receiver_label.toolTip()
    assert window.approvals_badge.toolTip() == words["approvals"]
    day_badge = window.day_warning_badge
    assert day_badge.text().startswith("⚠ ") and day_badge.text().endswith("09/12 +1")
    assert "10/12/2026" in day_badge.toolTip() and "R$ 1.234.567,89" in day_badge.toolTip()
    assert "12" in window.approvals_badge.text()
    assert panel.badge.toolTip() == words["sandbox"] and "SANDBOX" in panel.badge.text()
    for light in panel.apis.values():
        assert words["certificate"] in light.toolTip() and "connection refused" in light.toolTip()

    # The warnings, in the bar's text (and colour), their reasons in the tooltips.
    team_window.link.set(TEAM_STATES["offline"])
    assert words["team offline, bar"] in team_label.text()
    assert warning_color(team_label).name() in team_label.styleSheet()
    assert words["team offline"] in team_label.toolTip()
    team_window.receiver.set(RECEIVER_STATES["silent for days"])
    assert words["receiver silent, bar"] in receiver_label.text()
    assert warning_color(receiver_label).name() in receiver_label.styleSheet()
    assert words["receiver silent"] in receiver_label.toolTip()
    team_window.receiver.set(RECEIVER_STATES["offline"])
    assert words["receiver offline, bar"] in receiver_label.text()
    assert words["receiver offline"] in receiver_label.toolTip()
    assert "server closed the connection unexpectedly" in receiver_label.toolTip()
    for light in panel.apis.values():
        assert "✗" in light.text() and "29" in light.text(), light.text()
        assert error_color(light).name() in light.styleSheet()
