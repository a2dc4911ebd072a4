"""The whole chain of issue 24 on 127.0.0.1, nothing mocked: the sandbox bank's notifier (its
client certificate signed by the sandbox CA) → a real webhook receiver
(:class:`~treasury_app.receiver.app.Receiver` served over mutual TLS by the entry point's
``build_server``, configured by a TOML file) → a real team database (PostgreSQL) → a maker's
desktop, whose payments list and charges list follow what the bank notified.

The desktop finds the receiver live at unlock (its heartbeat), so the status bar says
"Notifications: live" and the payment tracker only keeps its slow safety poll: it makes its
start-up pass and then none (the next one is 5 minutes away), and nothing on the desktop asks
the bank for a payment's status. The webhooks are registered by the desktop's own Settings
action (``WebhooksService.use_team_receiver``) at the URL the receiver announces.

The sandbox's clock drives the bank (a payout settles when its control surface advances it):
nothing here depends on the day the tests run.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.ledger_backends import TeamDatabases
from tests.receiver.conftest import (
    SECRET,
    ReceiverDatabase,
    ServedReceiver,
    new_receiver_database,
    toml_text,
    write_server,
)
from tests.services.receiver_fixtures import our_refs
from tests.services.test_session_team import desk_paths, team_profile
from tests.ui.conftest import reset_token_limits
from tests.waiting import WAIT_MS, qt_wait_until, wait_until
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.ledger.team.schema import MAKER
from treasury_app.receiver.config import load_config
from treasury_app.sandbox.pki import load_issuer
from treasury_app.services.session import Session
from treasury_app.services.tracker import SAFETY_POLL_SECONDS
from treasury_app.services.webhooks import RECEIVER_HEADER, WebhookKind
from treasury_app.services.workspace import Workspace, open_workspace
from treasury_app.ui.async_tools import spawn
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.models.charges_model import Column as ChargesColumn
from treasury_app.ui.models.payments_model import Column as PaymentsColumn
from treasury_app.ui.tabs.charges_tab import ChargesTab
from treasury_app.ui.tabs.payouts_tab import PayoutsTab
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.payments_list import PaymentsList

NOTIFIER = "CN=Sandbox Bank Notifier"  # the subject of the sandbox notifier's certificate
SUPPLIER = "fornecedor@empresa.com.br"
PAYOUTS, CHARGES = 1, 3  # the main window's tabs


# --------------------------------------------------------------------------------------------
# The receiver, on the team database, called by the UI tests' sandbox bank


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def db(team_databases: TeamDatabases) -> ReceiverDatabase:
    """A fresh team database (no dual control) with the receiver's login; nothing named as
    ours yet: the desktop names its keys, txids and payments itself."""
    return new_receiver_database(team_databases)


@pytest.fixture(scope="module")
def receiver(
    ui_sandbox: Any, db: ReceiverDatabase, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServedReceiver]:
    """The receiver the bank calls, configured by its TOML file as ``treasury-receiver``
    is: its server certificate issued by the sandbox's CA (the notifier trusts it), the
    bank's CA the sandbox's and the caller pinned to the notifier's subject, the Accounts
    webhooks' secret in a file; its public URL (what desktops register) its own."""
    ca_file = Path(ui_sandbox.ready["ca_file"])
    folder = tmp_path_factory.mktemp("chain-receiver")
    certificate, key = write_server(folder, load_issuer(ca_file, ca_file.parent / "ca.key"))
    secret_file = folder / "secret"
    secret_file.write_text(SECRET + "\n", encoding="utf-8")
    name = f"chain-{secrets.token_hex(3)}"
    served: ServedReceiver | None = None
    for _attempt in range(3):  # the port is chosen first: the public URL names it
        port = free_port()
        document = {
            "listen": {
                "host": "127.0.0.1",
                "port": port,
                "certificate": certificate.name,
                "key": key.name,
                "base_path": "/hooks",
            },
            "bank": {"ca": str(ca_file), "pin_subject": NOTIFIER},
            "accounts": {"secret_header": RECEIVER_HEADER, "secret_file": secret_file.name},
            "database": {"conninfo": db.receiver_conninfo, "pool_size": 4},
            "receiver": {"name": name, "public_url": f"https://127.0.0.1:{port}/hooks"},
        }
        config_file = folder / "receiver.toml"
        config_file.write_text(toml_text(document), encoding="utf-8")
        try:
            served = ServedReceiver(load_config(config_file)).start()
        except RuntimeError:  # the port was taken meanwhile
            continue
        break
    assert served is not None, "the receiver did not start"
    # Its first heartbeat: a desktop unlocking now finds it live.
    wait_until(
        lambda: db.rows("SELECT 1 FROM treasury.receivers WHERE name = %s", name),
        "the receiver's first heartbeat",
    )
    yield served
    # The session's sandbox outlives this module and its notifier keeps an idle TLS connection
    # to the receiver (the receiver tests stop their bank first): a graceful stop would wait
    # its 10 s for that connection; half a second, then the stop goes on as usual (the
    # lifespan's shutdown closes the database pool).
    served.server.config.timeout_graceful_shutdown = 0.5
    served.stop()


# --------------------------------------------------------------------------------------------
# The maker's desktop


class Counted:
    """What the desktop asks the bank about its payments: the tracker's passes (started and
    ended) and every read of a Pix payment's status, whoever makes it."""

    def __init__(self, workspace: Workspace) -> None:
        self.passes = 0
        self.passes_done = 0
        self.status_reads: list[str] = []
        self.start_up_reads = 0
        tracker = workspace.tracker
        plain_pass = tracker.poll_once

        async def counted_pass() -> list[Entry]:
            self.passes += 1
            try:
                return await plain_pass()
            finally:
                self.passes_done += 1

        tracker.poll_once = counted_pass  # type: ignore[method-assign]
        accounts = workspace.engine.accounts
        for name in ("get_pix_payment", "get_pix_payment_by_idempotency_key"):
            plain = getattr(accounts, name)

            def counted(ref: str, *args: Any, _plain: Any = plain, **kwargs: Any) -> Any:
                self.status_reads.append(ref)
                return _plain(ref, *args, **kwargs)

            setattr(accounts, name, counted)


class ChainDesk:
    """A maker's desktop (a login of the ``treasury_maker`` role only) on the receiver's team
    database and the UI tests' sandbox bank: its workspace, its main window, its tracker
    running as the app runs it, and the bank calls counted from the unlock on."""

    def __init__(
        self,
        run: Callable[..., Any],
        databases: TeamDatabases,
        db: ReceiverDatabase,
        tmp_path: Path,
        ui: Any,
    ) -> None:
        self.run = run
        self.databases = databases
        self.db = db
        self.tmp_path = tmp_path
        self.ui = ui
        self.workspace: Workspace | None = None
        self.window: MainWindow | None = None
        self.tracking: asyncio.Task[None] | None = None
        self.registered = False

    def open(self, qtbot: Any) -> tuple[Workspace, MainWindow, Counted]:
        handle, (base, pfx) = self.ui
        login = self.databases.person(f"ui_chain_{secrets.token_hex(3)}", MAKER)
        reset_token_limits(handle.ready_file)
        profile = team_profile(base, self.databases, self.db.name, login, "none")
        session = self.run(
            Session.open(
                profile,
                pfx_passwords=pfx.pfx_passwords,
                client_secrets=pfx.client_secrets,
                paths=desk_paths(self.tmp_path / login),
            ),
            timeout=WAIT_MS,
        )
        workspace = self.workspace = self.run(open_workspace(session))
        counted = Counted(workspace)
        window = self.window = MainWindow(workspace)
        qtbot.addWidget(window)
        window.show()
        qtbot.waitExposed(window)
        # As the app's controller does once the window is shown.
        self.tracking = spawn(workspace.tracker.run(), name="payment-tracker")
        return workspace, window, counted

    def register(self, workspace: Workspace, url: str) -> None:
        """Settings ▸ Webhooks ▸ "Use the team's receiver": every webhook at ``url``."""
        results = self.run(workspace.webhooks.use_team_receiver(url, SECRET), timeout=WAIT_MS)
        self.registered = True
        keys = workspace.webhooks.pix_keys
        assert [r.error for r in results] == [None] * (len(keys) + 6), results
        assert {(r.kind, r.url) for r in results} == {
            *((WebhookKind.PIX, url) for _key in keys),
            (WebhookKind.REC, url),
            (WebhookKind.COBR, url),
            *((kind, f"{url}/{kind.value}") for kind in WebhookKind if kind.api == "accounts"),
        }

    def close(self) -> None:
        workspace = self.workspace
        if workspace is None:
            return
        if self.window is not None:
            self.window.set_workspace(None)  # tabs unsubscribe before the session closes
        try:
            if self.registered:  # the shared sandbox calls nobody once this module is done
                self.run(remove_all(workspace), timeout=WAIT_MS)
        finally:
            workspace.tracker.stop()
            if self.tracking is not None:
                self.run(asyncio.wait([self.tracking]))
            self.run(workspace.close())


async def remove_all(workspace: Workspace) -> None:
    service = workspace.webhooks
    for view in await service.overview():
        if view.registered:
            await service.remove(view.kind, key=view.key)


@pytest.fixture
def desk(
    run: Callable[..., Any],
    team_databases: TeamDatabases,
    db: ReceiverDatabase,
    receiver: ServedReceiver,
    tmp_path: Path,
    ui_sandbox: Any,
    sandbox_profile_and_secrets: Any,
) -> Iterator[ChainDesk]:
    made = ChainDesk(run, team_databases, db, tmp_path, (ui_sandbox, sandbox_profile_and_secrets))
    try:
        yield made
    finally:
        made.close()


def unlocked_live(
    qtbot: Any, desk: ChainDesk, receiver: ServedReceiver
) -> tuple[Workspace, MainWindow, Counted]:
    """The desktop unlocked with the receiver live: the status bar says so, the tracker is in
    its slow mode and has made its start-up pass; every webhook registered at the URL the
    receiver announces."""
    workspace, window, counted = desk.open(qtbot)
    notifications = workspace.notifications
    assert notifications is not None and notifications.live()  # read at unlock
    assert workspace.tracker.slow
    label = window.notifications_status
    assert label is not None and label.isVisible()
    assert label.text().startswith("Notifications: live"), label.text()
    qt_wait_until(qtbot, lambda: counted.passes_done == 1, "the start-up pass (reconciliation)")
    counted.start_up_reads = len(counted.status_reads)  # the reconciliation may ask the bank
    assert notifications.status.url == receiver.url  # as the receiver announces it
    desk.register(workspace, notifications.status.url)
    return workspace, window, counted


def assert_no_polling(counted: Counted, workspace: Workspace, window: MainWindow) -> None:
    assert workspace.tracker.slow and workspace.tracker.safety_poll == SAFETY_POLL_SECONDS
    assert (counted.passes, counted.passes_done) == (1, 1)  # the start-up pass, no other
    # Since then, nobody asked the bank for a payment's status.
    assert counted.status_reads[counted.start_up_reads :] == []
    label = window.notifications_status
    assert label is not None and label.text().startswith("Notifications: live"), label.text()


# --------------------------------------------------------------------------------------------
# The chain


def test_a_payout_settled_at_the_bank_reaches_the_payments_list_through_the_receiver(
    qtbot, run, desk: ChainDesk, db: ReceiverDatabase, receiver: ServedReceiver
) -> None:
    workspace, window, counted = unlocked_live(qtbot, desk, receiver)
    window.tabs.setCurrentIndex(PAYOUTS)
    tab = window.tab(PAYOUTS)
    assert isinstance(tab, PayoutsTab)
    payments = tab.payments_list
    assert isinstance(payments, PaymentsList)

    payouts = workspace.payouts
    amount = Decimal(f"{secrets.randbelow(90) + 10}.{secrets.randbelow(100):02d}")
    review = run(payouts.prepare_key(SUPPLIER, amount))
    sent = run(payouts.send(review), timeout=WAIT_MS)
    assert sent.state == EntryState.ACCEPTED and not sent.final, sent  # no dual control

    def status() -> str | None:
        row = payments.proxy.row_of(sent.id)
        return None if row is None else payments.proxy.index(row, PaymentsColumn.STATUS).data()

    qt_wait_until(qtbot, lambda: status() is not None, "the payment listed")

    # The bank settles it later: ON_QUEUE → PROCESSING → SETTLED on the sandbox's clock.
    run(workspace.sandbox.advance_clock(5))
    qt_wait_until(qtbot, lambda: status() == "Settled", "the payment shown Settled")
    place = payments.model.row_of(sent.id)
    assert place is not None
    shown = payments.model.row_at(place)
    assert (shown.bank_status, shown.final) == ("SETTLED", True)

    # It came through the receiver: a TRANSFER notification applied by its login.
    history = db.history_notes(sent.id)
    assert ("ACCEPTED", "SETTLED", "webhook: transfer") in history, history
    assert all(note != "status" for _state, _status, note in history)  # no poll journaled it
    applied = db.rows(
        "SELECT source, receiver, item->'data'->>'status' FROM treasury.notifications"
        " WHERE ref = %s AND outcome = 'applied' ORDER BY id",
        sent.idempotency_key,
    )
    assert applied[-1] == ("transfer", db.receiver_login, "SETTLED"), applied
    assert receiver.metric("treasury_receiver_items_total", source="transfer", outcome="applied")
    assert_no_polling(counted, workspace, window)


def test_a_charge_paid_at_the_bank_reaches_the_charges_list_through_the_receiver(
    qtbot, run, desk: ChainDesk, db: ReceiverDatabase, receiver: ServedReceiver
) -> None:
    workspace, window, counted = unlocked_live(qtbot, desk, receiver)
    key = workspace.pix_keys[0]
    charge = run(workspace.charges.create_cob(amount=Decimal("25.00"), key=key), timeout=WAIT_MS)
    assert ("txid", charge.txid) in our_refs(db.team, db.name)  # named as ours on creation

    window.tabs.setCurrentIndex(CHARGES)
    tab = window.tab(CHARGES)
    assert isinstance(tab, ChargesTab)
    charges = tab.charges
    assert isinstance(charges, ChargesList)
    qt_wait_until(
        qtbot, lambda: tab.load_task is not None and tab.load_task.done(), "the charges read"
    )
    assert tab.load_task.result()

    def status() -> str | None:
        row = charges.proxy.row_of(charge.txid)
        return None if row is None else charges.proxy.index(row, ChargesColumn.STATUS).data()

    assert status() == "Active"
    assert charges.event_task is None

    paid = run(workspace.sandbox.pay_charge(charge.txid))  # a payer, at the bank
    end_to_end_id = paid["pix"]["endToEndId"]
    qt_wait_until(qtbot, lambda: status() == "Paid", "the charge shown Paid")
    place = charges.model.row_of(charge.txid)
    assert place is not None and charges.model.row_at(place).status == "CONCLUIDA"

    # The row was read again because the receiver's notice named it, not by a reload.
    assert charges.event_task is not None and charges.event_task.done()
    assert charges.event_task.result() == [charge.txid]
    assert charges.reload_task is None
    assert db.rows(
        "SELECT status, end_to_end_id FROM treasury.charge_states WHERE txid = %s", charge.txid
    ) == [("CONCLUIDA", end_to_end_id)]
    assert db.rows(
        "SELECT dedupe_key, receiver FROM treasury.notifications"
        " WHERE source = 'pix' AND ref = %s AND outcome = 'applied'",
        end_to_end_id,
    ) == [(f"pix|{end_to_end_id}|", db.receiver_login)]
    assert_no_polling(counted, workspace, window)
