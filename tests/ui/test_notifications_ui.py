"""The bank's notifications in the UI (issue 24, "Desktops"): the status bar's label (live and
the last notification's age, or why not, in English and pt_BR), Settings ▸ Webhooks ▸ "Use the
team's receiver" (the URL the receiver announces, the secret asked and never kept, every
registration's state; on the file ledger the panel says polling stays), and the desktop half
of the end to end: on a real team database (PostgreSQL) and the app's sandbox bank, what a
webhook receiver writes — a payout's final status through ``treasury.notified_status``, a
charge paid, a recurrence approved, each followed by ``NOTIFY`` — reaches the payments,
charges and recurrences lists with the tracker in its slow mode (no polling); and a flood of
spoofed notifications from a person's own login asks the bank nothing."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLineEdit, QWidget

from tests.ledger_backends import TeamDatabases
from tests.services.receiver_fixtures import ReceiverLogin, our_refs, superuser_execute
from tests.ui.test_approvals_ui import TeamDesks
from tests.waiting import WAIT_MS, qt_wait_until
from treasury_app.api.qrcodes.automatico_models import Periodicidade
from treasury_app.domain.clock import BRASILIA
from treasury_app.ledger.journal import Entry
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL
from treasury_app.services.charges import Debtor
from treasury_app.services.notifications import ReceiverState, ReceiverStatus
from treasury_app.services.recurrences import RecurrenceTerms
from treasury_app.services.workspace import Workspace
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.theme import warning_color
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.notifications_status import NotificationsStatusLabel
from treasury_app.ui.widgets.payments_list import PaymentsList
from treasury_app.ui.widgets.received_pix_list import ReceivedPixList
from treasury_app.ui.widgets.recurrences_list import RecurrencesList
from treasury_app.ui.widgets.webhooks_panel import WebhooksPanel

NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)
HOOK = "https://127.0.0.1:9/treasury"  # nothing listens: a delivery would fail fast
SECRET = "rcv_4b1d9e7a2c6f0835"  # must never reach the audit, the logs or a file
SUPPLIER = "fornecedor@empresa.com.br"


# --------------------------------------------------------------------------------------------
# The label, with a stand-in source


class StandIn:
    def __init__(self, status: ReceiverStatus) -> None:
        self.status = status
        self.listeners: list[Callable[[ReceiverStatus], None]] = []

    def subscribe(self, listener: Callable[[ReceiverStatus], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def set(self, status: ReceiverStatus) -> None:
        self.status = status
        for listener in list(self.listeners):
            listener(status)


def live(last_item_seconds: float | None, *, observed: float = 100.0) -> ReceiverStatus:
    return ReceiverStatus(
        ReceiverState.LIVE,
        checked_at=NOW,
        seen_at=NOW - dt.timedelta(seconds=3),
        last_item_at=None
        if last_item_seconds is None
        else NOW - dt.timedelta(seconds=last_item_seconds),
        url=HOOK,
        observed=observed,
    )


def on_its_way(widget: QWidget, tasks: Iterable[asyncio.Task[Any] | None]) -> list[object]:
    """What ``widget`` has under way or scheduled: its reads not done, its timers armed (once
    the events already posted are handled). Empty: it asks the bank nothing by itself."""
    QApplication.processEvents()
    armed = [timer for timer in widget.findChildren(QTimer) if timer.isActive()]
    return [*armed, *(task for task in tasks if task is not None and not task.done())]


def test_the_label_says_live_with_the_last_notifications_age_or_why_not(qtbot) -> None:
    source = StandIn(ReceiverStatus(ReceiverState.CHECKING))
    clock = [100.0]
    label = NotificationsStatusLabel(source, monotonic=lambda: clock[0])
    qtbot.addWidget(label)
    assert label.text() == "Notifications: checking…"

    source.set(live(12))
    assert label.text() == "Notifications: live · 12 s"  # short: the status bar is shared
    assert label.toolTip().startswith("Notifications: live · last 12 s ago\n")
    assert "every 5 minutes" in label.toolTip() and HOOK in label.toolTip()
    assert not label.warning and label.styleSheet() == ""
    clock[0] += 1
    label.timer.timeout.emit()  # the 1 s tick, between two readings
    assert label.text() == "Notifications: live · 13 s"
    assert label.toolTip().startswith("Notifications: live · last 13 s ago")
    assert label.timer.interval() == 1000 and label.timer.isActive()
    source.set(live(None))
    assert label.text() == "Notifications: live · nothing yet"
    assert label.toolTip().startswith("Notifications: live · nothing received yet")
    source.set(live(125))
    assert label.text() == "Notifications: live · 2 min"
    source.set(live(3 * 3600 + 5))
    assert label.text() == "Notifications: live · 3 h"
    assert label.toolTip().startswith("Notifications: live · last 3 h ago")

    source.set(ReceiverStatus(ReceiverState.NEVER, checked_at=NOW))
    assert label.text() == "Notifications: polling"
    assert label.toolTip().startswith(
        "Notifications: polling (no receiver)\n"
        "No webhook receiver has ever run on this team database."
    )
    assert not label.warning

    seen = NOW - dt.timedelta(minutes=7)
    source.set(ReceiverStatus(ReceiverState.SILENT, checked_at=NOW, seen_at=seen))
    since = f"{seen.astimezone(BRASILIA):%H:%M}"  # whatever the computer's zone
    assert label.text() == "Notifications: receiver silent"  # the warning, in the bar
    assert label.toolTip().startswith(f"Notifications: polling (receiver silent since {since})")
    assert label.warning and warning_color(label).name() in label.styleSheet()
    days_ago = NOW - dt.timedelta(days=3)
    source.set(ReceiverStatus(ReceiverState.SILENT, checked_at=NOW, seen_at=days_ago))
    assert f"{days_ago.astimezone(BRASILIA):%d/%m/%Y %H:%M}" in label.toolTip()

    source.set(ReceiverStatus(ReceiverState.OFFLINE, detail="connection refused"))
    assert label.text() == "Notifications: offline"
    assert label.toolTip().startswith("Notifications: polling (team database offline)")
    assert "(connection refused)" in label.toolTip() and label.warning

    label.stop()
    assert source.listeners == [] and not label.timer.isActive()


def test_the_label_in_portuguese(qtbot, qapp, restore_translation) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"
    source = StandIn(live(12))
    label = NotificationsStatusLabel(source, monotonic=lambda: 100.0)
    qtbot.addWidget(label)
    assert label.text() == "Notificações: ao vivo · 12 s"
    assert label.toolTip().startswith("Notificações: ao vivo · última há 12 s")
    source.set(ReceiverStatus(ReceiverState.NEVER, checked_at=NOW))
    assert label.text() == "Notificações: consultando"
    assert label.toolTip().startswith("Notificações: consultando o banco (sem receptor)")
    label.stop()


# --------------------------------------------------------------------------------------------
# A desktop on a team database with a webhook receiver


class TeamDesk(TeamDesks):
    """One person's desktop on a fresh team database (no dual control) that has a webhook
    receiver's login, on the UI tests' sandbox bank."""

    window_size = None

    def __init__(self, run: Callable[..., Any], databases: TeamDatabases, tmp_path: Path, ui: Any):
        super().__init__(run, databases, tmp_path, ui, policy=None)
        self.receiver = ReceiverLogin(databases, self.database)

    def open(self) -> Workspace:  # type: ignore[override]
        return super().open(f"notif_{secrets.token_hex(3)}")


@pytest.fixture
def desk(
    run: Callable[..., Any],
    team_databases: TeamDatabases,
    tmp_path: Path,
    ui_sandbox: Any,
    sandbox_profile_and_secrets: Any,
) -> Iterator[TeamDesk]:
    made = TeamDesk(run, team_databases, tmp_path, (ui_sandbox, sandbox_profile_and_secrets))
    try:
        yield made
    finally:
        made.close()


def test_the_status_bar_follows_the_team_receiver(qtbot, desk: TeamDesk) -> None:
    desk.receiver.beat(last_item_seconds_ago=12)
    workspace = desk.open()
    notifications = workspace.notifications
    assert notifications is not None and notifications.live()  # read at unlock
    assert workspace.tracker.slow
    window = desk.window(qtbot, workspace)
    label = window.notifications_status
    assert label is not None and label.isVisible()
    assert label.text().startswith("Notifications: live · 1")  # 12 s, and counting

    # The receiver stops beating: the next reading says so, and the tracker polls again.
    superuser_execute(
        desk.databases,
        desk.database,
        "UPDATE treasury.receivers SET seen_at = now() - interval '2 minutes'",
    )
    notifications.feed.check_soon()
    qt_wait_until(
        qtbot,
        lambda: "receiver silent since" in label.toolTip(),
        '"receiver silent since" in label.toolTip()',
    )
    assert not workspace.tracker.slow and label.warning
    assert label.text() == "Notifications: receiver silent"
    desk.receiver.beat()
    notifications.feed.check_soon()
    qt_wait_until(
        qtbot,
        lambda: label.text().startswith("Notifications: live"),
        'label.text().startswith("Notifications: live")',
    )

    window.set_workspace(None)  # locked: the label stops following
    assert window.notifications_status is None
    assert len(notifications._status_listeners) == 1  # the workspace's own (the tracker)


def test_a_file_session_shows_no_receiver_and_says_polling_stays(qtbot, open_workspace) -> None:
    workspace = open_workspace()
    assert workspace.notifications is None and not workspace.tracker.slow
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    assert window.notifications_status is None
    panel = WebhooksPanel(workspace)
    qtbot.addWidget(panel)
    panel.show()
    assert not panel.receiver_button.isVisible()
    assert panel.receiver_note.text().startswith("Notifications: polling.")
    assert "team database" in panel.receiver_note.text()
    window.set_workspace(None)


def test_use_the_team_receiver_registers_every_webhook_and_shows_each_state(
    qtbot, run, desk: TeamDesk, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    desk.receiver.beat(url=HOOK)
    workspace = desk.open()
    panel = WebhooksPanel(workspace)
    qtbot.addWidget(panel)
    panel.show()
    assert panel.receiver_button.isVisible() and panel.receiver_button.isEnabled()
    assert "team's webhook receiver" in panel.receiver_note.text()
    try:
        qtbot.mouseClick(panel.receiver_button, Qt.MouseButton.LeftButton)
        qt_wait_until(
            qtbot, lambda: panel.receiver_dialog is not None, "panel.receiver_dialog is not None"
        )
        assert not panel.receiver_button.isEnabled()  # one at a time
        dialog = panel.receiver_dialog
        assert dialog is not None
        qt_wait_until(
            qtbot,
            lambda: dialog.isVisible() and dialog.load_task.done(),
            "dialog.isVisible() and dialog.load_task.done()",
        )
        assert dialog.url_edit.text() == HOOK  # as the receiver announces it
        assert dialog.receiver_label.text().startswith("A receiver is running")
        assert dialog.secret_edit.echoMode() == QLineEdit.EchoMode.Password
        assert not dialog.register_button.isEnabled()  # no secret yet
        qtbot.keyClicks(dialog.secret_edit, SECRET)
        assert dialog.register_button.isEnabled()
        qtbot.mouseClick(dialog.register_button, Qt.MouseButton.LeftButton)
        qt_wait_until(
            qtbot, lambda: dialog.task is not None and dialog.task.done(), "dialog.task done"
        )

        keys = workspace.webhooks.pix_keys
        assert dialog.table.isVisible() and dialog.table.rowCount() == len(keys) + 6
        states = [dialog.table.item(row, 3).text() for row in range(dialog.table.rowCount())]
        assert states == ["Registered"] * (len(keys) + 6), states
        assert dialog.status_label.text() == f"All {len(keys) + 6} webhooks point at the receiver."
        assert dialog.secret_edit.text() == ""  # not kept, even in the form
        assert dialog.outcome == "registered"
        dialog.reject()
        qt_wait_until(
            qtbot,
            lambda: panel.receiver_task is not None and panel.receiver_task.done(),
            "panel.receiver_task done",
        )
        assert panel.receiver_task.result() == "registered"
        # enabled again once the task's end is handled (its done callback, a turn later)
        qt_wait_until(qtbot, panel.receiver_button.isEnabled, "the receiver button enabled")
        # The panel read the bank again: every slot at the receiver.
        assert {view.url for view in panel.views} == {
            HOOK,
            *(f"{HOOK}/{kind}" for kind in ("transfer", "receive", "refund", "cashout")),
        }
        transfer = next(view for view in panel.views if view.kind.value == "transfer")
        assert transfer.header_names == ("X-Treasury-Secret",)
        assert {("key", key) for key in keys} <= our_refs(desk.databases, desk.database)

        audit = run(workspace.ledger.audit.entries(action="webhook.register"))
        assert len(audit) == len(keys) + 6
        assert SECRET not in str([(row.reference, row.details) for row in audit])
        assert SECRET not in caplog.text
    finally:
        run(_remove_all(workspace))
    for file in desk.tmp_path.rglob("*"):
        if file.is_file():
            assert SECRET.encode() not in file.read_bytes(), file


async def _remove_all(workspace: Workspace) -> None:
    service = workspace.webhooks
    for view in await service.overview():
        if view.registered:
            await service.remove(view.kind, key=view.key)


# --------------------------------------------------------------------------------------------
# End to end, the desktop half: the receiver's writes reach the lists with no polling


def test_a_payout_reaches_its_final_state_on_screen_from_the_receivers_notice(
    qtbot, run, desk: TeamDesk
) -> None:
    desk.receiver.beat()
    workspace = desk.open()
    tracker = workspace.tracker
    assert tracker.slow
    passes: list[int] = []
    plain_pass = tracker.poll_once

    async def counted_pass() -> list[Entry]:
        passes.append(1)
        return await plain_pass()

    tracker.poll_once = counted_pass  # type: ignore[method-assign]
    running = asyncio.ensure_future(tracker.run())  # start-up pass, then every 5 minutes
    widget = PaymentsList(workspace)
    qtbot.addWidget(widget)
    widget.show()
    try:
        qt_wait_until(qtbot, lambda: len(passes) == 1, "len(passes) == 1")
        payouts = workspace.payouts
        sent = run(payouts.send(run(payouts.prepare_key(SUPPLIER, "12,34"))), timeout=WAIT_MS)
        assert sent.state.value == "ACCEPTED" and not sent.final, sent
        qt_wait_until(
            qtbot,
            lambda: widget.model.row_of(sent.id) is not None,
            "widget.model.row_of(sent.id) is not None",
        )

        desk.receiver.payment_final(
            sent.id, "SETTLED", key=sent.idempotency_key, e2e=sent.end_to_end_id
        )

        def shown() -> Entry | None:
            place = widget.model.row_of(sent.id)
            return None if place is None else widget.model.row_at(place)

        qt_wait_until(
            qtbot,
            lambda: (entry := shown()) is not None and entry.final,
            "(entry := shown()) is not None and entry.final",
        )
        entry = shown()
        assert entry is not None and entry.bank_status == "SETTLED"
        assert widget.model.status_text(entry) == "Settled"
        assert passes == [1]  # the tracker did not poll: the notice brought it
    finally:
        tracker.stop()
        qt_wait_until(qtbot, running.done, "running done")
        widget.shutdown()


def test_a_charge_paid_refreshes_its_row_from_the_receivers_notice(
    qtbot, run, desk: TeamDesk
) -> None:
    workspace = desk.open()
    key = workspace.pix_keys[0]
    charge = run(workspace.charges.create_cob(amount=Decimal("25.00"), key=key))
    assert ("txid", charge.txid) in our_refs(desk.databases, desk.database)
    widget = ChargesList(workspace)
    qtbot.addWidget(widget)
    widget.show()
    try:
        assert run(widget.reload())

        def status() -> str:
            place = widget.model.row_of(charge.txid)
            return "" if place is None else widget.model.row_at(place).status

        assert status() == "ATIVA"
        paid = run(workspace.sandbox.pay_charge(charge.txid))  # a payer, at the bank
        # nothing polls the bank: no read on its way, none scheduled, the row unchanged
        assert on_its_way(widget, widget.running()) == []
        assert status() == "ATIVA"

        e2e = str(paid.get("endToEndId") or "E" + secrets.token_hex(15).upper())
        desk.receiver.charge_paid(charge.txid, e2e)
        qt_wait_until(qtbot, lambda: status() == "CONCLUIDA", 'status() == "CONCLUIDA"')
        assert widget.reload_task is None  # that row read again, not the whole list
    finally:
        widget.shutdown()


def test_a_recurrence_approved_refreshes_its_row_from_the_receivers_notice(
    qtbot, run, desk: TeamDesk
) -> None:
    workspace = desk.open()
    today = workspace.recurrences.today()
    rec = run(
        workspace.recurrences.create_rec(
            RecurrenceTerms(
                contract=f"CT-{secrets.token_hex(3)}",
                debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
                first_date=today,
                periodicity=Periodicidade.MENSAL,
                fixed_amount=Decimal("50.00"),
                end_date=today + dt.timedelta(days=400),
                purpose="Assinatura",
            )
        )
    )
    assert ("idrec", rec.id_rec) in our_refs(desk.databases, desk.database)
    widget = RecurrencesList(workspace)
    qtbot.addWidget(widget)
    widget.show()
    try:
        run(widget.reload())

        def status() -> str:
            found = [r for r in widget.model.recs() if r.id_rec == rec.id_rec]
            return str(found[0].status) if found else ""

        assert status() == "CRIADA"
        run(workspace.sandbox.approve_rec(rec.id_rec))  # the payer, at their bank
        assert on_its_way(widget, [widget.reload_task, widget.event_task]) == []
        assert status() == "CRIADA"
        desk.receiver.recurrence_state(rec.id_rec, "APROVADA")
        qt_wait_until(qtbot, lambda: status() == "APROVADA", 'status() == "APROVADA"')
    finally:
        widget.shutdown()


def test_a_flood_of_spoofed_notifications_asks_the_bank_nothing(qtbot, run, desk: TeamDesk) -> None:
    """A person floods the bank events channel from a raw connection with their own login:
    500 notifications naming the charge and the recurrence on screen, a received Pix, and
    "everything". The lists ask the bank nothing and the desktop reads the receiver's tables
    a few times; the receiver's next write (the charge paid) still reaches the charges list,
    with one read of that charge."""
    workspace = desk.open()
    today = workspace.recurrences.today()
    charge = run(workspace.charges.create_cob(amount=Decimal("25.00"), key=workspace.pix_keys[0]))
    rec = run(
        workspace.recurrences.create_rec(
            RecurrenceTerms(
                contract=f"CT-{secrets.token_hex(3)}",
                debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
                first_date=today,
                periodicity=Periodicidade.MENSAL,
                fixed_amount=Decimal("50.00"),
                end_date=today + dt.timedelta(days=400),
                purpose="Assinatura",
            )
        )
    )
    charges, recurrences, received = (
        ChargesList(workspace),
        RecurrencesList(workspace),
        ReceivedPixList(workspace),
    )
    for widget in (charges, recurrences, received):
        qtbot.addWidget(widget)
        widget.show()
    try:
        assert run(charges.reload()) and run(received.reload())
        run(recurrences.reload())
        assert charges.model.row_of(charge.txid) is not None
        assert recurrences.model.row_of(rec.id_rec) is not None
        notifications = workspace.notifications
        assert notifications is not None
        feed = notifications.feed
        qt_wait_until(qtbot, lambda: feed.connected, "the events feed connected")

        def under_way() -> list[object]:
            return [
                *on_its_way(charges, charges.running()),
                *on_its_way(recurrences, [recurrences.reload_task, recurrences.event_task]),
                *on_its_way(received, received.running()),
            ]

        assert under_way() == []
        transports = workspace.session.transports
        asked = {api: transports[api].stats.requests for api in ("qrcodes", "accounts")}
        heard, reads = feed.heard, feed.reads

        e2e = "E" + secrets.token_hex(15).upper()
        named = [f"pix:{charge.txid}", f"pix:{e2e}", f"rec:{rec.id_rec}", "*", "receive:x"]
        flood = named + [f"pix:E{n:031d}" if n % 2 else f"cobr:TX{n}" for n in range(495)]
        person = workspace.session.profile.ledger.team
        assert person is not None
        conninfo = desk.databases.settings(desk.database, person.user).conninfo(None)
        # The person's own login; the 500 notifications are delivered at once, on commit.
        with psycopg.connect(conninfo, autocommit=True) as raw, raw.transaction():
            for payload in flood:
                raw.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, payload))

        def status() -> str:
            place = charges.model.row_of(charge.txid)
            return "" if place is None else charges.model.row_at(place).status

        assert status() == "ATIVA"
        run(workspace.sandbox.pay_charge(charge.txid))  # a payer, at the bank
        desk.receiver.charge_paid(charge.txid, e2e)  # the end marker: a genuine write
        qt_wait_until(qtbot, lambda: status() == "CONCLUIDA", 'status() == "CONCLUIDA"')

        def bank_asked() -> dict[str, int]:
            return {api: transports[api].stats.requests - asked[api] for api in asked}

        qt_wait_until(qtbot, lambda: under_way() == [], "nothing under way")
        assert bank_asked() == {"qrcodes": 1, "accounts": 0}  # the charge written, read again
        qt_wait_until(
            qtbot,
            lambda: feed.heard - heard == 501 and not feed.wake_pending and under_way() == [],
            "every notification heard and read after, nothing under way",
        )
        assert bank_asked() == {"qrcodes": 1, "accounts": 0}
        assert charges.event_task is not None and charges.event_task.result() == [charge.txid]
        assert charges.reload_task is None and recurrences.event_task is None
        assert feed.reads - reads <= 3, feed.reads - reads  # the database: a few readings
    finally:
        for widget in (charges, recurrences, received):
            widget.shutdown()
