"""Team mode in the UI: the profile dialog's Ledger section (a team database round-trips, a
half-filled one is refused field by field, its password goes to the keyring and never to the
profile file), the unlock dialog's team password field (only when needed), the status bar's
team label (live, last change, offline; unsubscribed on lock), Settings' ledger and audit
anchor warning, and other desktops' changes reaching the payments list."""

from __future__ import annotations

import datetime as dt
import secrets
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import keyring
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QLabel, QLineEdit, QPushButton, QSpinBox

from tests.services.session_fixtures import MemoryKeyring
from tests.waiting import qt_turn, qt_wait_until
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.ledger.team import TeamDatabaseOffline
from treasury_app.ledger.team.anchor import AnchorCheck
from treasury_app.ledger.team.approvals import Policy
from treasury_app.ledger.team.chain import Anchor
from treasury_app.services.profiles import (
    ApiProfile,
    LedgerLocation,
    Profile,
    ProfileStore,
    TeamDatabaseProfile,
)
from treasury_app.services.secret_store import TEAM_DATABASE, SecretStore
from treasury_app.services.session import TeamPasswordNeeded
from treasury_app.services.team_link import TeamState
from treasury_app.ui.async_tools import ask
from treasury_app.ui.dialogs.profile_dialog import ProfileDialog
from treasury_app.ui.dialogs.unlock_dialog import UnlockDialog
from treasury_app.ui.theme import warning_color
from treasury_app.ui.widgets.ledger_panel import LedgerPanel
from treasury_app.ui.widgets.payments_list import PaymentsList
from treasury_app.ui.widgets.team_status import TeamStatusLabel

NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)
DATABASE = "ana@db.example.com:5432/treasury"


@pytest.fixture
def memory_keyring():
    previous = keyring.get_keyring()
    memory = MemoryKeyring()
    keyring.set_keyring(memory)
    yield memory
    keyring.set_keyring(previous)


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("qrcodes.pfx", "accounts.pfx", "team-ca.pem", "ana.crt", "ana.key"):
        made[name] = tmp_path / name
        made[name].write_bytes(b"not checked by the dialog")
    return made


def _profile(files: dict[str, Path], ledger: LedgerLocation | None = None) -> Profile:
    apis = {
        api: ApiProfile(
            base_url=f"https://{api}.bank.example/v2",
            client_id=f"id-{api}",
            pfx_path=files[f"{api}.pfx"],
        )
        for api in ("qrcodes", "accounts")
    }
    return Profile(
        name="Main bank",
        environment="production",
        **apis,
        ledger=ledger or LedgerLocation(),
    )


def _open_profile(qtbot, qasync_loop, **kwargs):
    dialog = ProfileDialog(**kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def _set(dialog, name: str, text: str) -> None:
    edit = dialog.findChild(QLineEdit, name)
    edit.setText(text)


def _choose(dialog, name: str, data: str) -> None:
    combo = dialog.findChild(QComboBox, name)
    combo.setCurrentIndex(combo.findData(data))


def _save(qtbot, dialog) -> None:
    qtbot.mouseClick(dialog.findChild(QPushButton, "save-button"), Qt.MouseButton.LeftButton)


def _error(dialog, field: str) -> str:
    label = dialog.findChild(QLabel, f"error-{field}")
    return label.text() if label.isVisibleTo(dialog) else ""


# --------------------------------------------------------------------------------------------
# The profile dialog


def test_a_team_ledger_round_trips_and_its_password_goes_to_the_keyring(
    qtbot, qasync_loop, run, files, memory_keyring, tmp_path
) -> None:
    store = SecretStore()
    dialog, asked = _open_profile(qtbot, qasync_loop, profile=_profile(files), secret_store=store)
    assert not dialog.findChild(QLineEdit, "team-host").isVisibleTo(dialog)  # file: no rows
    _choose(dialog, "ledger-location", "team")
    assert dialog.findChild(QLineEdit, "team-host").isVisibleTo(dialog)
    assert dialog.findChild(QComboBox, "team-sslmode").currentData() == "verify-full"
    assert dialog.findChild(QComboBox, "team-password-mode").currentData() == "keyring"
    _set(dialog, "team-host", "db.example.com")
    dialog.findChild(QSpinBox, "team-port").setValue(6432)
    _set(dialog, "team-dbname", "treasury")
    _set(dialog, "team-user", "ana")
    _set(dialog, "team-ca-file", str(files["team-ca.pem"]))
    _set(dialog, "team-cert-file", str(files["ana.crt"]))
    _set(dialog, "team-key-file", str(files["ana.key"]))
    _set(dialog, "team-password", "s3nha da ana")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")

    team = TeamDatabaseProfile(
        host="db.example.com",
        port=6432,
        dbname="treasury",
        user="ana",
        sslmode="verify-full",
        ca_file=files["team-ca.pem"],
        cert_file=files["ana.crt"],
        key_file=files["ana.key"],
        password="keyring",
    )
    profile = dialog.result_profile()
    assert profile.ledger == LedgerLocation(location="team", team=team)
    assert dialog.result_secrets() == {TEAM_DATABASE: "s3nha da ana"}
    assert dialog.findChild(QLineEdit, "team-password").text() == ""  # not kept in the form

    # As the controller does: the profile to its file, the password to the keyring.
    paths = SimpleNamespace(config_dir=tmp_path / "config")
    profiles = ProfileStore(paths)  # type: ignore[arg-type]
    run(profiles.save(profile))
    assert "s3nha" not in profiles.path_for(profile.name).read_text("utf-8")
    for key, secret in dialog.result_secrets().items():
        run(store.set(profile.name, key, secret))
    assert store.get(profile.name, TEAM_DATABASE) == "s3nha da ana"

    # Opened again: the fields say what was saved; the kept password needs no retyping.
    again, asked_again = _open_profile(
        qtbot, qasync_loop, profile=profiles.load(profile.name), secret_store=store
    )
    assert again.findChild(QComboBox, "ledger-location").currentData() == "team"
    assert again.findChild(QLineEdit, "team-host").text() == "db.example.com"
    assert again.findChild(QSpinBox, "team-port").value() == 6432
    assert "keep" in again.findChild(QLineEdit, "team-password").placeholderText()
    _save(qtbot, again)
    qt_wait_until(qtbot, asked_again.done, "asked_again done")
    assert again.result_profile().ledger == profile.ledger
    assert again.result_secrets() == {}


def test_a_half_filled_team_ledger_is_refused_field_by_field(
    qtbot, qasync_loop, files, memory_keyring
) -> None:
    dialog, asked = _open_profile(
        qtbot, qasync_loop, profile=_profile(files), secret_store=SecretStore()
    )
    _choose(dialog, "ledger-location", "team")
    _set(dialog, "team-host", "db.example.com")
    _set(dialog, "team-cert-file", str(files["ana.crt"]))  # a certificate without its key
    _save(qtbot, dialog)
    assert not asked.done() and dialog.isVisible()
    assert _error(dialog, "ledger.host") == ""
    assert "database" in _error(dialog, "ledger.dbname")
    assert "login" in _error(dialog, "ledger.user")
    assert "key file" in _error(dialog, "ledger.key_file")
    assert "password" in _error(dialog, "ledger.password")  # keyring chosen, none typed
    assert dialog.banner.isVisible()

    # "Ask at every unlock" needs no password; back to this computer, nothing is asked.
    _choose(dialog, "team-password-mode", "ask")
    assert not dialog.findChild(QLineEdit, "team-password").isVisibleTo(dialog)
    _choose(dialog, "ledger-location", "file")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "asked done")
    assert dialog.result_profile().ledger == LedgerLocation()


def test_without_a_keyring_the_team_password_is_asked_at_unlock(qtbot, qasync_loop, files) -> None:
    from keyring.backends import fail

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        dialog, asked = _open_profile(
            qtbot, qasync_loop, profile=_profile(files), secret_store=SecretStore()
        )
        _choose(dialog, "ledger-location", "team")
        assert dialog.findChild(QComboBox, "team-password-mode").currentData() == "ask"
        _choose(dialog, "team-password-mode", "keyring")
        for name, text in (("team-host", "db"), ("team-dbname", "t"), ("team-user", "ana")):
            _set(dialog, name, text)
        _save(qtbot, dialog)
        assert "keyring" in _error(dialog, "ledger.password_mode")
        dialog.reject()
        qt_wait_until(qtbot, asked.done, "asked done")
    finally:
        keyring.set_keyring(previous)


# --------------------------------------------------------------------------------------------
# The unlock dialog


def _team_profile(files, password: str = "ask") -> Profile:
    team = TeamDatabaseProfile(
        host="db.example.com", dbname="treasury", user="ana", password=password
    )
    return _profile(files, LedgerLocation(location="team", team=team))


def _open_unlock(qtbot, qasync_loop, profile, **kwargs):
    dialog = UnlockDialog(profile, **kwargs)
    qtbot.addWidget(dialog)
    asked = qasync_loop.create_task(ask(dialog))
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog, asked


def test_the_unlock_dialog_asks_the_team_password_only_when_needed(
    qtbot, qasync_loop, run, files
) -> None:
    for profile, needed in (
        (_profile(files), False),
        (_team_profile(files, "keyring"), False),  # in the keyring
        (_team_profile(files, "ask"), True),
    ):
        dialog, asked = _open_unlock(qtbot, qasync_loop, profile, need_team_password=needed)
        field = dialog.findChild(QLineEdit, "team-password")
        assert field.isVisible() is needed
        if needed:
            assert DATABASE in dialog.findChild(QLabel, "team-database").text()
            assert field.placeholderText() == DATABASE
            dialog.findChild(QLineEdit, "password-qrcodes").setText("pfx password")
            assert run(dialog.try_unlock()) is None  # nothing decrypted: the password first
            assert dialog.message.text() == "Enter the password of the team database."
        dialog.reject()
        qt_wait_until(qtbot, asked.done, "asked done")


def test_a_missing_or_refused_team_password_shows_the_field_and_says_why(
    qtbot, qasync_loop, files
) -> None:
    dialog, asked = _open_unlock(qtbot, qasync_loop, _team_profile(files, "keyring"))
    assert not dialog.team_group.isVisible()
    dialog.show_team_error(TeamPasswordNeeded(DATABASE), ask_password=True)
    assert dialog.team_group.isVisible()
    assert dialog.message.text() == f"Enter the password of the team database ({DATABASE})."
    assert dialog.message.isVisible() and dialog.message.wordWrap()
    dialog.show_team_error(
        TeamDatabaseOffline("connection refused", kind="refused", host="db.example.com", port=5432),
        ask_password=False,
    )
    assert dialog.message.text().startswith(
        "The team database at db.example.com:5432 refused the connection"
    )
    dialog.reject()
    qt_wait_until(qtbot, asked.done, "asked done")


# --------------------------------------------------------------------------------------------
# The status bar's label


class FakeLink:
    def __init__(self, state: TeamState) -> None:
        self.state = state
        self.listeners: list = []

    def subscribe(self, listener):
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def set(self, state: TeamState) -> None:
        self.state = state
        for listener in list(self.listeners):
            listener(state)


def test_the_team_label_says_live_last_change_and_offline(qtbot) -> None:
    link = FakeLink(TeamState(True, "", None, DATABASE))
    now = [NOW]
    label = TeamStatusLabel(link, clock=lambda: now[0])
    qtbot.addWidget(label)
    assert label.text() == "Team database: live"
    assert label.toolTip().startswith(DATABASE)

    link.set(TeamState(True, "", NOW - dt.timedelta(seconds=12), DATABASE))
    assert label.text() == "Team database: live · last change 12 s ago"
    now[0] = NOW + dt.timedelta(seconds=1)
    label.timer.timeout.emit()  # the 1 s tick
    assert label.text() == "Team database: live · last change 13 s ago"
    assert label.timer.interval() == 1000 and label.timer.isActive()
    now[0] = NOW + dt.timedelta(hours=2)
    label.timer.timeout.emit()
    assert label.text().startswith("Team database: live · last change at ")

    link.set(TeamState(False, "connection refused", NOW, DATABASE))
    assert label.text() == "Team database offline: connection refused"
    assert warning_color(label).name() in label.styleSheet()

    label.stop()
    assert link.listeners == [] and not label.timer.isActive()


def test_the_main_window_shows_the_team_label_only_for_a_team_session(
    qtbot, open_workspace
) -> None:
    from treasury_app.ui.main_window import MainWindow

    workspace = open_workspace()
    window = MainWindow()
    qtbot.addWidget(window)
    window.set_workspace(workspace)
    assert window.team_status is None  # the file: nothing about a team
    window.set_workspace(None)

    link = FakeLink(TeamState(True, "", None, DATABASE))
    workspace.session.team = link
    try:
        window.set_workspace(workspace)
        assert window.team_status is not None
        # The status bar's label is short (the bar is shared), the whole sentence its tooltip.
        assert window.team_status.text() == "Team: live"
        assert window.team_status.toolTip() == f"Team database: live\n{DATABASE}"
        window.team_status.clock = lambda: NOW
        link.set(TeamState(True, "", NOW - dt.timedelta(minutes=5), DATABASE))
        assert window.team_status.text() == "Team: live · 5 min"
        assert window.team_status.toolTip().startswith("Team database: live · last change 5 min")
        link.set(TeamState(False, "server closed the connection", None, DATABASE))
        assert window.team_status.text() == "Team: offline"  # the warning stays in the bar
        assert warning_color(window.team_status).name() in window.team_status.styleSheet()
        assert window.team_status.toolTip().startswith(
            f"Team database offline: server closed the connection\n{DATABASE}\nWhat is on"
        )
        link.set(TeamState(False, "connecting", None, DATABASE))
        assert window.team_status.text() == "Team: connecting…"
        window.set_workspace(None)  # locked: unsubscribed
        assert link.listeners == [] and window.team_status is None
    finally:
        workspace.session.team = None


# --------------------------------------------------------------------------------------------
# Settings


def test_settings_shows_the_ledger_file_and_the_anchor_warning(qtbot, open_workspace) -> None:
    from treasury_app.ui.tabs.settings_tab import SettingsTab

    workspace = open_workspace()
    anchor = AnchorCheck(False, Anchor(7, "a" * 64), Anchor(9, "b" * 64))
    workspace.session.anchor = anchor
    try:
        tab = SettingsTab(workspace)
        qtbot.addWidget(tab)
        panel = tab.ledger_panel
        assert panel is not None
        assert panel.anchor_banner.isVisibleTo(tab)
        assert panel.anchor_banner.text().endswith(anchor.message())
        assert panel.location_label.text() == f"This computer: {workspace.ledger.path}"
        assert panel.team_status is None
        tab.shutdown()
    finally:
        workspace.session.anchor = None


def test_settings_describes_a_team_database_and_its_link(qtbot) -> None:
    identity = SimpleNamespace(
        user="ana", roles=("treasury_maker", "treasury_approver"), server_version="15.8"
    )
    ledger = SimpleNamespace(path=None, identity=identity, describe=lambda: DATABASE)
    link = FakeLink(TeamState(True, "", None, DATABASE))
    session = SimpleNamespace(
        ledger=ledger, team=link, anchor=AnchorCheck(True, None, Anchor(1, ""))
    )
    panel = LedgerPanel(session)
    qtbot.addWidget(panel)
    assert panel.location_label.text() == (
        f"Team database: {DATABASE} — roles treasury_maker, treasury_approver, PostgreSQL 15.8"
    )
    assert not panel.anchor_banner.isVisibleTo(panel)
    assert panel.team_status is not None and panel.team_status.text() == "Team database: live"
    assert panel.policy_label.text().startswith("Off: the team's policy asks for no approvals")
    panel.shutdown()
    assert link.listeners == []
    policy = Policy(3, 1, Decimal("10000"), 2, 1, None, "2026-11-26T10:00:00.000Z", "admin")
    session.approvals = SimpleNamespace(policy_at_unlock=policy)  # type: ignore[attr-defined]
    dual = LedgerPanel(session)
    qtbot.addWidget(dual)
    assert dual.policy_label.text() == (
        "1 approval(s) by someone other than the maker; 2 above R$ 10.000,00; 1 more for a "
        "payee never paid; approvals expire at the end of the Brasília day of the first "
        "approval. Policy version 3, set by admin (treasury-admin policy)."
    )
    dual.shutdown()
    alone = LedgerPanel(SimpleNamespace(ledger=SimpleNamespace(path="x"), team=None))
    qtbot.addWidget(alone)
    assert alone.policy_label.text().startswith("Needs a team database")


# --------------------------------------------------------------------------------------------
# Other desktops' changes


def test_an_entry_announced_by_the_team_link_shows_in_the_payments_list(
    qtbot, run, open_workspace
) -> None:
    workspace = open_workspace()
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.show()
    qt_wait_until(
        qtbot,
        lambda: widget.refresh_task is not None and widget.refresh_task.done(),
        "widget.refresh_task done",
    )
    # Written by "another desktop": straight into the ledger, behind this engine's back (and
    # final, so that no later unlock on this shared ledger tries to send it).
    journal = workspace.ledger.journal
    created = run(
        journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=Decimal("12.34"),
                idempotency_key=secrets.token_hex(8),
                request={},
                payee_detail="outro-desktop@empresa.com.br",
                description="from bruno's desktop",
            )
        )
    )
    entry = run(journal.update(created.id, EntryState.REJECTED, final=True, error="refused"))
    qt_turn(qtbot)  # whatever the write set off has run
    assert widget.proxy.row_of(entry.id) is None  # nothing told the list yet
    workspace.engine.announce(entry)  # what TeamLink does with the feed's changes
    qt_wait_until(
        qtbot,
        lambda: widget.proxy.row_of(entry.id) is not None,
        "widget.proxy.row_of(entry.id) is not None",
    )
    widget.shutdown()
