"""The desktop's side of the webhook receiver (issue 24, "Desktops"), on a real PostgreSQL team
database and a real sandbox bank: the receiver's status read from its heartbeats on the
database's clock (live, never run, silent since, offline), what the receiver applied read from
its tables when a notification wakes the desktop (never from the notification: a flood of
spoofed ones is a few readings that find nothing; a row committed late still arrives; "read
everything" after a lost link), the payment tracker's slow safety poll while a receiver is
live, what this desktop creates named in ``treasury.our_refs`` (txids, idRecs, Pix keys;
nothing on the file ledger), and every webhook pointed at the team's receiver
(``WebhooksService.use_team_receiver``) with its secret header, audited without it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import AsyncIterator, Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.sandbox.conftest import Api
from tests.services.accounts_fixtures import (
    audit_text,
    sandbox_now,
    sandbox_today,
    sent,
)
from tests.services.receiver_fixtures import (
    PUBLIC_URL,
    ReceiverLogin,
    our_refs,
    superuser_execute,
)
from tests.waiting import WAIT_SECONDS, await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import WebhookType
from treasury_app.api.qrcodes.automatico_models import Periodicidade
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import earliest_cobr_due_date
from treasury_app.ledger import Ledger, open_ledger
from treasury_app.ledger.errors import LedgerUnavailable
from treasury_app.ledger.journal import EntryKind, NewEntry
from treasury_app.ledger.team import TeamLedger
from treasury_app.ledger.team.notices import ReceiversSeen
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL
from treasury_app.ledger.team.schema import VIEWER
from treasury_app.sandbox.seed import COMPANY
from treasury_app.services.charges import BatchRow, ChargesService, Debtor
from treasury_app.services.notifications import (
    EVERYTHING,
    LIVE_WITHIN,
    BankChanges,
    BankNotifications,
    ReceiverState,
    ReceiverStatus,
    receiver_status,
)
from treasury_app.services.recurrences import ReceiverAccount, RecurrencesService, RecurrenceTerms
from treasury_app.services.tracker import SAFETY_POLL_SECONDS, PaymentTracker
from treasury_app.services.webhooks import (
    RECEIVER_HEADER,
    WebhookConfigError,
    WebhookKind,
    WebhooksService,
)

pytestmark = pytest.mark.usefixtures("team_databases")

KEYS: list[str] = list(COMPANY["keys"])
SECRET = "rcv_7f3a9c1e5b2d8f40"  # the receiver's Accounts webhook secret: never in the audit
NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


@pytest.fixture
def database(team_databases: TeamDatabases) -> str:
    return team_databases.new_database()


@pytest.fixture
async def team_ledger(
    team_databases: TeamDatabases, database: str, tmp_path: Path
) -> AsyncIterator[TeamLedger]:
    async with opened_ledger("team", tmp_path, user="notif_ana", database=database) as ledger:
        assert isinstance(ledger, TeamLedger)
        yield ledger


def conninfo(team_databases: TeamDatabases, database: str, user: str = "notif_ana") -> str:
    return team_databases.settings(database, user).conninfo(None)


@pytest.fixture
async def notifications(
    team_ledger: TeamLedger, team_databases: TeamDatabases, database: str
) -> AsyncIterator[BankNotifications]:
    made = BankNotifications(team_ledger.notices, conninfo(team_databases, database))
    try:
        yield made
    finally:
        await made.close()


# --------------------------------------------------------------------------------------------
# The status, from a reading (no database)


def seen(**fields: Any) -> ReceiversSeen:
    values: dict[str, Any] = {
        "now": NOW,
        "receivers": 1,
        "seen_at": NOW,
        "last_item_at": None,
        "url": PUBLIC_URL,
        **fields,
    }
    return ReceiversSeen(**values)


def test_a_reading_says_live_never_silent_or_offline() -> None:
    live = receiver_status(seen(seen_at=NOW - LIVE_WITHIN), observed=100.0)
    assert live.state is ReceiverState.LIVE and live.live and live.why_not() == ""
    assert live.last_item_age(100.0) is None  # nothing stored yet

    busy = receiver_status(seen(last_item_at=NOW - dt.timedelta(seconds=12)), observed=100.0)
    assert busy.last_item_age(100.0) == dt.timedelta(seconds=12)
    assert busy.last_item_age(103.5) == dt.timedelta(seconds=15.5)  # grows between readings

    silent = receiver_status(seen(seen_at=NOW - LIVE_WITHIN - dt.timedelta(seconds=1)))
    assert silent.state is ReceiverState.SILENT and not silent.live
    assert silent.why_not() == "The webhook receiver has been silent since 2026-11-18 12:59."

    never = receiver_status(seen(receivers=0, seen_at=None, url=""))
    assert never.state is ReceiverState.NEVER
    assert never.why_not() == "No webhook receiver has ever run on this team database."

    offline = receiver_status(None, "connection refused")
    assert offline.state is ReceiverState.OFFLINE and offline.url == ""
    assert offline.why_not() == "The team database is offline (connection refused)."
    assert ReceiverStatus(ReceiverState.CHECKING).why_not().startswith("The webhook receiver")


# --------------------------------------------------------------------------------------------
# The status, from the team database


async def test_the_status_follows_the_receivers_heartbeat_on_the_database_clock(
    notifications: BankNotifications, team_databases: TeamDatabases, database: str
) -> None:
    heard: list[ReceiverStatus] = []
    notifications.subscribe(heard.append)
    assert notifications.status.state is ReceiverState.CHECKING and not notifications.live()

    status = await notifications.check()
    assert status.state is ReceiverState.NEVER and status.url == ""
    assert heard == [status]

    receiver = ReceiverLogin(team_databases, database)
    receiver.beat()
    status = await notifications.check()
    assert status.state is ReceiverState.LIVE and notifications.live()
    assert status.url == PUBLIC_URL and status.last_item_at is None

    receiver.beat(last_item_seconds_ago=12)
    status = await notifications.check()
    age = status.last_item_age(status.observed)
    assert age is not None and dt.timedelta(seconds=12) <= age < dt.timedelta(seconds=13)

    # Its heartbeats stop: 31 s later by the database's clock it is silent.
    superuser_execute(
        team_databases,
        database,
        "UPDATE treasury.receivers SET seen_at = now() - interval '31 seconds'",
    )
    status = await notifications.check()
    assert status.state is ReceiverState.SILENT and not notifications.live()
    assert status.checked_at is not None and status.seen_at is not None
    assert status.checked_at - status.seen_at >= dt.timedelta(seconds=31)
    assert "silent since" in status.why_not()

    # A second receiver that beats makes it live again; the newest URL is the one shown.
    receiver.beat(name="receiver-2", url=PUBLIC_URL + "/b")
    status = await notifications.check()
    assert status.live and status.url == PUBLIC_URL + "/b"
    assert len(heard) == 5


async def test_the_feed_reads_the_status_by_itself_and_says_when_the_database_is_offline(
    notifications: BankNotifications,
    team_ledger: TeamLedger,
    team_databases: TeamDatabases,
    database: str,
) -> None:
    ReceiverLogin(team_databases, database).beat()
    notifications.feed.check_every = 0.2
    notifications.start()
    await await_until(notifications.live, "the receiver live")

    # Nothing listens at that address: offline, and it keeps trying.
    away = BankNotifications(team_ledger.notices, "host=127.0.0.1 port=9 connect_timeout=1")
    try:
        away.start()
        await await_until(lambda: away.status.state is ReceiverState.OFFLINE, "offline")
        assert away.status.why_not().startswith("The team database is offline (")
        assert not away.live()
    finally:
        await away.close()


def told(heard: list[BankChanges]) -> BankChanges:
    """Every change passed on so far, merged."""
    return BankChanges(
        charges=frozenset().union(*(c.charges for c in heard)),
        received=frozenset().union(*(c.received for c in heard)),
        recurrences=frozenset().union(*(c.recurrences for c in heard)),
        everything=any(c.everything for c in heard),
    )


async def test_what_the_receiver_applied_is_passed_on_and_a_lost_link_asks_for_everything(
    notifications: BankNotifications, team_databases: TeamDatabases, database: str
) -> None:
    heard: list[BankChanges] = []
    unsubscribe = notifications.subscribe_changes(heard.append)
    notifications.start()
    await await_until(lambda: notifications.feed.connected, "the events feed connected")
    receiver = ReceiverLogin(team_databases, database)

    receiver.charge_paid("TXCHARGE0000000000000000000001", "E0000000000000000000000000000001")
    receiver.recurrence_state("RR1234567820261118abcdefghijk", "APROVADA")
    receiver.cobr_state("TXCOBR", "RR1234567820261118abcdefghijl", "ATIVA")
    receiver.pix_received("E0000000000000000000000000000002", KEYS[0])
    await await_until(
        lambda: len(told(heard).recurrences) == 2 and told(heard).received, "four changes"
    )
    assert told(heard) == BankChanges(
        charges=frozenset({"TXCHARGE0000000000000000000001"}),
        received=frozenset({"E0000000000000000000000000000002"}),
        recurrences=frozenset({"RR1234567820261118abcdefghijk", "RR1234567820261118abcdefghijl"}),
    )

    # A notification about something the receiver did not write is a reading that finds
    # nothing; a row written again is passed on again. The last one marks the end.
    heard.clear()
    receiver.notify("pix:E-never-written")
    receiver.notify("rec:RR1234567820261118abcdefghijk")  # written before, unchanged since
    receiver.charge_paid("TXCHARGE0000000000000000000001", "E0000000000000000000000000000003")
    await await_until(lambda: told(heard).charges, "the charge written again")
    assert told(heard) == BankChanges(charges=frozenset({"TXCHARGE0000000000000000000001"}))

    # The database drops the desktop's listening connection: once it is back, the lists are
    # told to read everything again (what was notified meanwhile never reached it).
    superuser_execute(
        team_databases,
        database,
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        " WHERE application_name = 'treasury-bank-events' AND datname = %s",
        database,
    )
    await await_until(lambda: EVERYTHING in heard, "'read everything again'")
    assert notifications.feed.connected
    heard.clear()
    receiver.cobr_state("TX0001", "RR1234567820261118abcdefghijm", "ATIVA")
    await await_until(lambda: told(heard).recurrences, "the cobr's recurrence")
    assert told(heard).recurrences == {"RR1234567820261118abcdefghijm"}

    still: list[BankChanges] = []
    notifications.subscribe_changes(still.append)  # a listener that stays: it tells when
    unsubscribe()
    heard.clear()
    receiver.recurrence_state("RR-after", "ATIVA")
    await await_until(lambda: "RR-after" in told(still).recurrences, "the change passed on")
    assert heard == []


async def test_a_flood_of_spoofed_notifications_is_a_few_readings_and_nothing_passed_on(
    notifications: BankNotifications, team_databases: TeamDatabases, database: str
) -> None:
    """Any login may NOTIFY on any channel: a person floods the bank events channel from a
    raw connection with their own login, naming a charge and a recurrence that exist and
    asking for everything. The desktop reads the receiver's tables a few times, finds nothing
    new and passes nothing on; the receiver's next write still arrives."""
    heard: list[BankChanges] = []
    notifications.subscribe_changes(heard.append)
    notifications.start()
    feed = notifications.feed
    await await_until(lambda: feed.connected, "the events feed connected")
    receiver = ReceiverLogin(team_databases, database)
    txid, e2e, id_rec = (
        "TXFLOOD000000000000000000001",
        "E" + "1" * 31,
        "RRFLOOD0000000000000000000001",
    )
    receiver.charge_paid(txid, e2e)
    receiver.recurrence_state(id_rec, "APROVADA")
    await await_until(lambda: told(heard).recurrences, "the receiver's writes")
    heard.clear()
    heard_before, reads_before = feed.heard, feed.reads

    real = [f"pix:{txid}", f"pix:{e2e}", f"rec:{id_rec}", f"cobr:{txid}", "*", "receive:x"]
    flood = real + [f"pix:E{n:031d}" if n % 2 else f"rec:RR{n:027d}" for n in range(500 - 6)]
    with psycopg.connect(conninfo(team_databases, database), autocommit=True) as person:
        assert person.info.user == "notif_ana"  # a person's own login, not the receiver's
        with person.transaction():  # 500 notifications, delivered at once on commit
            for payload in flood:
                person.execute("SELECT pg_notify(%s, %s)", (EVENTS_CHANNEL, payload))

    # The end marker: the receiver's next write, after the flood.
    receiver.charge_paid("TXFLOOD000000000000000000002", "E" + "2" * 31)
    await await_until(lambda: told(heard).charges, "the receiver's write after the flood")
    await await_until(
        lambda: feed.heard - heard_before == 501 and not feed.wake_pending,
        "every notification heard, and read after",
    )
    assert told(heard) == BankChanges(charges=frozenset({"TXFLOOD000000000000000000002"}))
    assert feed.reads - reads_before <= 3, feed.reads - reads_before  # not 501


async def test_a_row_written_before_a_reading_and_committed_after_it_is_passed_on(
    notifications: BankNotifications, team_databases: TeamDatabases, database: str
) -> None:
    """The receiver's rows carry the instant they were written, not committed: a slow
    delivery writes a charge's state, another delivery writes and commits a later one and the
    desktop reads it; then the slow one commits. Its row, older than the one read, still
    arrives."""
    heard: list[BankChanges] = []
    notifications.subscribe_changes(heard.append)
    notifications.start()
    await await_until(lambda: notifications.feed.connected, "the events feed connected")
    receiver = ReceiverLogin(team_databases, database)
    with receiver.connect() as slow:
        with slow.transaction():
            receiver.write_charge_paid(slow, "TXSLOW", "E" + "3" * 31)
            receiver.charge_paid("TXQUICK", "E" + "4" * 31)  # written after, committed first
            await await_until(lambda: "TXQUICK" in told(heard).charges, "the quick one")
            slow.execute("SELECT pg_notify(%s, 'pix:slow')", (EVENTS_CHANNEL,))
        await await_until(lambda: "TXSLOW" in told(heard).charges, "the slow one")
    assert told(heard).charges == {"TXQUICK", "TXSLOW"}


# --------------------------------------------------------------------------------------------
# The tracker's slow safety poll


class StandInEngine:
    """What the tracker needs of an engine, without a bank: every open entry stays as is."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.accounts = None
        self.asked = 0

    def subscribe(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        return lambda: None

    async def refresh(self, entry: Any) -> Any:
        self.asked += 1
        return entry

    resolve = refresh


class CountingTracker(PaymentTracker):
    passes = 0

    async def poll_once(self) -> list[Any]:
        self.passes += 1
        return await super().poll_once()


@pytest.fixture
def file_ledger(tmp_path: Path) -> Iterator[Ledger]:
    ledger = open_ledger(tmp_path / "ledger.sqlite3", profile="test", user="tester")
    try:
        yield ledger
    finally:
        ledger.close_now()


async def open_payment(ledger: Ledger) -> None:
    await ledger.journal.create(
        NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal("10.00"),
            idempotency_key="k-" + "0" * 30,
            request={},
            payee_detail="fornecedor@empresa.com.br",
        )
    )


async def test_with_a_live_receiver_the_tracker_keeps_only_the_slow_safety_poll(
    file_ledger: Ledger,
) -> None:
    await open_payment(file_ledger)  # open: without a receiver it would be polled fast
    engine = StandInEngine(file_ledger)
    live = [True]
    waits: list[float] = []
    tracker: CountingTracker

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 2:
            tracker.wake()  # a payment was just sent: one pass now, then slow again
        if len(waits) == 4:
            live[0] = False  # the receiver goes silent
            tracker.receiver_changed()
        if len(waits) == 6:
            tracker.stop()
        await asyncio.sleep(0)

    tracker = CountingTracker(
        engine,  # type: ignore[arg-type]
        backoff=(1, 2, 3, 60),
        sleep=no_sleep,
        receiver_live=lambda: live[0],
    )
    tracker.receiver_changed()  # as the workspace tells it after each reading
    assert tracker.slow
    await asyncio.wait_for(tracker.run(), timeout=WAIT_SECONDS)
    # The start-up pass (the reconciliation), then one pass per 5 minutes; the wake-up's pass
    # goes back to 5 minutes; the receiver gone, a pass at once and the normal backoff again.
    assert SAFETY_POLL_SECONDS == 300
    assert waits == [300, 300, 300, 300, 2, 3]
    assert tracker.passes == 6 and engine.asked == 6


async def test_a_payment_sent_is_followed_by_polling_only_without_a_live_receiver(
    file_ledger: Ledger,
) -> None:
    live = [True]
    tracker = PaymentTracker(
        StandInEngine(file_ledger),  # type: ignore[arg-type]
        receiver_live=lambda: live[0],
    )
    tracker.sent()  # the receiver will tell: no pass for it
    assert not tracker._wake.is_set()
    tracker.wake()  # a person's refresh still polls
    assert tracker._wake.is_set()
    tracker._wake.clear()
    live[0] = False
    tracker.sent()
    assert tracker._wake.is_set()


async def test_without_a_receiver_the_tracker_polls_as_before(file_ledger: Ledger) -> None:
    await open_payment(file_ledger)
    waits: list[float] = []
    tracker: PaymentTracker

    async def no_sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 3:
            tracker.stop()
        await asyncio.sleep(0)

    tracker = PaymentTracker(
        StandInEngine(file_ledger),  # type: ignore[arg-type]
        backoff=(1, 2, 3, 60),
        sleep=no_sleep,
    )
    assert not tracker.slow
    tracker.receiver_changed()  # nothing to do
    await asyncio.wait_for(tracker.run(), timeout=WAIT_SECONDS)
    assert waits == [2, 3, 60]


# --------------------------------------------------------------------------------------------
# A sandbox bank for the creations and registrations


# ``sandbox``, ``control``, ``qr_transport`` and ``accounts_transport``: this module's own,
# from tests/services/conftest.py.


def clock_of(control: Api) -> Callable[[], dt.datetime]:
    return lambda: sandbox_now(control)


def debtor() -> Debtor:
    return Debtor(document="529.982.247-25", name="Fulano de Tal")


async def test_charges_created_here_are_named_as_ours(
    team_ledger: TeamLedger,
    team_databases: TeamDatabases,
    database: str,
    qr_transport: ApiTransport,
    control: Api,
) -> None:
    service = ChargesService(QrCodesClient(qr_transport), team_ledger, clock=clock_of(control))
    due = sandbox_today(control) + dt.timedelta(days=20)
    cob = await service.create_cob(amount=Decimal("12.34"), key=KEYS[0], debtor=debtor())
    cobv = await service.create_cobv(
        amount=Decimal("56.78"), key=KEYS[0], debtor=debtor(), due_date=due
    )
    rows = [BatchRow(line, "Fulano de Tal", "52998224725", Decimal("9.99"), due) for line in (2, 3)]
    plan = service.plan_batch(rows, key=KEYS[0])
    batch = await service.submit_batch(plan)
    assert not batch.refused
    named = our_refs(team_databases, database)
    assert {("txid", cob.txid), ("txid", cobv.txid)} <= named
    assert {("txid", member.txid) for member in plan.members} <= named


async def test_recurrences_and_recurring_charges_created_here_are_named_as_ours(
    team_ledger: TeamLedger,
    team_databases: TeamDatabases,
    database: str,
    qr_transport: ApiTransport,
    control: Api,
) -> None:
    service = RecurrencesService(QrCodesClient(qr_transport), team_ledger, clock=clock_of(control))
    today = sandbox_today(control)
    rec = await service.create_rec(
        RecurrenceTerms(
            contract="CT-2026-024",
            debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
            first_date=today,
            periodicity=Periodicidade.MENSAL,
            fixed_amount=Decimal("50.00"),
            end_date=today + dt.timedelta(days=400),
            purpose="Assinatura",
        )
    )
    assert ("idrec", rec.id_rec) in our_refs(team_databases, database)
    control.control("POST", f"/sandbox/automatico/rec/{rec.id_rec}/approve")
    cobr = await service.create_cobr(
        rec.id_rec,
        due_date=earliest_cobr_due_date(today),
        amount="50,00",
        receiver=ReceiverAccount(account="1234567", branch="0001"),
    )
    assert {("txid", cobr.txid), ("idrec", rec.id_rec)} <= our_refs(team_databases, database)


async def test_nothing_is_named_on_the_file_ledger_nor_by_a_viewer_and_offline_nothing_is_sent(
    file_ledger: Ledger,
    team_databases: TeamDatabases,
    database: str,
    qr_transport: ApiTransport,
    control: Api,
    tmp_path: Path,
) -> None:
    client = QrCodesClient(qr_transport)
    assert file_ledger.notices is None
    on_file = ChargesService(client, file_ledger, clock=clock_of(control))
    assert (await on_file.create_cob(amount="1,00", key=KEYS[0])).txid

    # A viewer's login may not name references: the charge is made, its notices stay
    # unmatched (the receiver's admin sees them).
    team_databases.person("notif_vera", VIEWER)
    async with opened_ledger("team", tmp_path, user="notif_vera", database=database) as viewer:
        made = await ChargesService(client, viewer, clock=clock_of(control)).create_cob(
            amount="2,00", key=KEYS[0]
        )
        assert ("txid", made.txid) not in our_refs(team_databases, database)

    # The team database away: the charge is not sent at all (nothing could be audited).
    async with opened_ledger("team", tmp_path, user="notif_ana", database=database) as gone:
        await gone.close()
        before = sent(qr_transport)
        with pytest.raises(LedgerUnavailable):
            await ChargesService(client, gone, clock=clock_of(control)).create_cob(
                amount="3,00", key=KEYS[0]
            )
        assert sent(qr_transport) == before


# --------------------------------------------------------------------------------------------
# Every webhook at the team's receiver


def webhooks_of(
    ledger: Ledger, qr: ApiTransport, accounts: ApiTransport, control: Api, keys: list[str]
) -> WebhooksService:
    return WebhooksService(
        QrCodesClient(qr), AccountsClient(accounts), ledger, pix_keys=keys, clock=clock_of(control)
    )


async def remove_all(service: WebhooksService) -> None:
    for view in await service.overview():
        if view.registered:
            await service.remove(view.kind, key=view.key)


async def test_use_team_receiver_registers_every_kind_with_the_secret_header(
    team_ledger: TeamLedger,
    team_databases: TeamDatabases,
    database: str,
    qr_transport: ApiTransport,
    accounts_transport: ApiTransport,
    control: Api,
) -> None:
    service = webhooks_of(team_ledger, qr_transport, accounts_transport, control, KEYS)
    try:
        results = await service.use_team_receiver(PUBLIC_URL + "/", SECRET)
        assert all(result.ok for result in results), [r.error for r in results]
        assert [(r.kind, r.key, r.url) for r in results] == [
            *((WebhookKind.PIX, key, PUBLIC_URL) for key in KEYS),
            (WebhookKind.REC, None, PUBLIC_URL),
            (WebhookKind.COBR, None, PUBLIC_URL),
            (WebhookKind.TRANSFER, None, PUBLIC_URL + "/transfer"),
            (WebhookKind.RECEIVE, None, PUBLIC_URL + "/receive"),
            (WebhookKind.REFUND, None, PUBLIC_URL + "/refund"),
            (WebhookKind.CASHOUT, None, PUBLIC_URL + "/cashout"),
        ]
        assert SECRET not in repr(results)

        # What the bank stored, slot by slot.
        views = {(v.kind, v.key): v for v in await service.overview()}
        for key in KEYS:
            assert views[(WebhookKind.PIX, key)].delivery_url == PUBLIC_URL + "/pix"
        assert views[(WebhookKind.REC, None)].delivery_url == PUBLIC_URL + "/rec"
        assert views[(WebhookKind.COBR, None)].delivery_url == PUBLIC_URL + "/cobr"
        accounts = AccountsClient(accounts_transport)
        for kind in (WebhookKind.TRANSFER, WebhookKind.RECEIVE, WebhookKind.REFUND):
            view = views[(kind, None)]
            assert view.url == f"{PUBLIC_URL}/{kind.value}"
            assert view.enabled is True and view.header_names == (RECEIVER_HEADER,)
        stored = await accounts.get_webhook(WebhookType.CASHOUT)
        assert stored.uri == PUBLIC_URL + "/cashout"
        assert stored.headers == {RECEIVER_HEADER: SECRET}  # the bank sends it with each one

        # Audited like any registration; the secret nowhere. The keys are ours now.
        rows = await team_ledger.audit.entries(action="webhook.register")
        assert len(rows) == len(KEYS) + 6 and {r.outcome for r in rows} == {"ok"}
        assert [r.details["header_names"] for r in rows[:4]] == [[RECEIVER_HEADER]] * 4
        assert SECRET not in await audit_text(team_ledger)
        assert {("key", key) for key in KEYS} <= our_refs(team_databases, database)
    finally:
        await remove_all(service)


async def test_one_refused_registration_does_not_stop_the_others(
    file_ledger: Ledger, qr_transport: ApiTransport, accounts_transport: ApiTransport, control: Api
) -> None:
    other = "contato@outraempresa.com.br"  # not a key of this account: the bank refuses it
    service = webhooks_of(file_ledger, qr_transport, accounts_transport, control, [other, KEYS[1]])
    try:
        results = await service.use_team_receiver(PUBLIC_URL, SECRET, header_name="X-Api-Key")
        refused = [r for r in results if not r.ok]
        assert [(r.kind, r.key) for r in refused] == [(WebhookKind.PIX, other)]
        assert refused[0].error is not None and refused[0].error.startswith("400")
        assert len([r for r in results if r.ok]) == 7
        assert (await service.get("transfer")).header_names == ("X-Api-Key",)
        rows = await file_ledger.audit.entries(action="webhook.register")
        assert sorted(r.outcome for r in rows) == ["ok"] * 7 + ["rejected"]
        assert SECRET not in await audit_text(file_ledger)
    finally:
        await remove_all(service)


@pytest.mark.parametrize(
    ("url", "secret", "header", "field"),
    [
        ("http://hooks.empresa.example/treasury", SECRET, RECEIVER_HEADER, "url"),
        (PUBLIC_URL + "?token=abc", SECRET, RECEIVER_HEADER, "url"),
        (PUBLIC_URL + "#x", SECRET, RECEIVER_HEADER, "url"),
        ("https://hooks.empresa.example/" + "x" * 495, SECRET, RECEIVER_HEADER, "url"),
        (PUBLIC_URL, "", RECEIVER_HEADER, "headers"),
        (PUBLIC_URL, "   ", RECEIVER_HEADER, "headers"),
        (PUBLIC_URL, SECRET + "\r\nX-Evil: 1", RECEIVER_HEADER, "headers"),
        (PUBLIC_URL, SECRET, "Bad Header", "headers"),
    ],
)
async def test_use_team_receiver_checks_its_input_before_sending(
    file_ledger: Ledger,
    qr_transport: ApiTransport,
    accounts_transport: ApiTransport,
    control: Api,
    url: str,
    secret: str,
    header: str,
    field: str,
) -> None:
    service = webhooks_of(file_ledger, qr_transport, accounts_transport, control, KEYS)
    before = sent(qr_transport, accounts_transport)
    with pytest.raises(WebhookConfigError) as error:
        await service.use_team_receiver(url, secret, header)
    assert error.value.field == field
    assert SECRET not in str(error.value)
    assert sent(qr_transport, accounts_transport) == before
    assert await file_ledger.audit.entries(action="webhook") == []
