"""End to end on 127.0.0.1: the sandbox bank's notifier (its client certificate signed by the
sandbox CA) → a real receiver over mutual TLS → a real team database. The webhooks are
registered at the bank by a maker's :class:`WebhooksService`; a Pix payout sent by the
maker's :class:`PaymentEngine` (which does not poll) reaches its final state, a charge is
paid and refunded, a payout is refunded, a recurrence is approved and its recurring charge
settles: each arrives as applied rows, through the receiver only.

The sandbox's clock drives the bank (its state machines move when the control surface
advances it): no date here depends on the day the tests run.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.receiver.conftest import (
    MAKER_LOGIN,
    SECRET,
    BankPki,
    ReceiverDatabase,
    ServedReceiver,
    make_config,
    new_receiver_database,
    write_server,
)
from tests.sandbox.conftest import Api, body_of
from tests.sandbox.test_automatico import cobr_body, rec_body
from tests.sandbox.test_cashin import PAYER, cob_body
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import control_of, running_bank, sandbox_now, transport
from tests.waiting import await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import add_business_days
from treasury_app.domain.clock import brasilia_date
from treasury_app.domain.identifiers import new_idempotency_key, new_txid
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.sandbox.pki import load_issuer
from treasury_app.sandbox.seed import COMPANY
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.webhooks import WebhookKind, WebhooksService

KEYS: list[str] = list(COMPANY["keys"])
SECRET_NAME = "X-Treasury-Secret"
NOTIFIER = "CN=Sandbox Bank Notifier"


def applied(db: ReceiverDatabase, source: str, ref: str) -> list[tuple[str, str]]:
    """The applied notifications of ``ref`` from ``source``: ``(dedupe_key, receiver)``."""
    return [
        (str(key), str(login))
        for key, login in db.rows(
            "SELECT dedupe_key, receiver FROM treasury.notifications"
            " WHERE source = %s AND ref = %s AND outcome = 'applied' ORDER BY id",
            source,
            ref,
        )
    ]


# --------------------------------------------------------------------------------------------
# Fixtures: the bank, the database, the receiver, the maker's desktop


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    with running_bank(tmp_path_factory.mktemp("receiver-bank")) as running:
        yield running


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    with control_of(sandbox) as api:
        yield api


@pytest.fixture(scope="module")
def qr(sandbox: RunningSandbox) -> Iterator[Api]:
    """Plain mTLS access to the QR Codes API (the bank's side of charges and recurrences)."""
    api = Api(sandbox, "qrcodes")
    yield api
    api.close()


@pytest.fixture(scope="module")
def db(team_databases: TeamDatabases) -> ReceiverDatabase:
    """The team database; the company's Pix keys named as ours by the maker."""
    return new_receiver_database(team_databases, *(("key", key) for key in KEYS))


@pytest.fixture(scope="module")
def live(
    sandbox: RunningSandbox,
    db: ReceiverDatabase,
    bank_pki: BankPki,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[ServedReceiver]:
    """The receiver the bank calls: its server certificate issued by the sandbox's CA (the
    notifier trusts it), the bank's CA the sandbox's, pinned to the notifier's subject."""
    pki = Path(sandbox.ready["ca_file"]).parent
    server = write_server(
        tmp_path_factory.mktemp("live-receiver"), load_issuer(pki / "ca.crt", pki / "ca.key")
    )
    config = make_config(
        bank_pki,
        db.receiver_conninfo,
        listen={"certificate": str(server[0]), "key": str(server[1]), "base_path": "/hooks"},
        bank={"ca": sandbox.ready["ca_file"], "pin_subject": NOTIFIER},
        receiver={"name": "live", "public_url": "https://127.0.0.1/hooks"},
    )
    served = ServedReceiver(config).start()
    yield served
    # The bank hangs up first: its notifier keeps a TLS connection alive, and a server's
    # graceful stop waits for it (up to its timeout_graceful_shutdown) otherwise.
    sandbox.stop()
    served.stop()


@pytest.fixture(scope="module")
async def maker(
    db: ReceiverDatabase, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Ledger]:
    """The maker's desktop ledger on the team database."""
    async with opened_ledger(
        "team", tmp_path_factory.mktemp("maker"), user=MAKER_LOGIN, database=db.name
    ) as ledger:
        yield ledger


@pytest.fixture(scope="module")
async def qr_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "qrcodes", control) as opened:
        yield opened


@pytest.fixture(scope="module")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "accounts", control) as opened:
        yield opened


@pytest.fixture(scope="module")
async def registered(
    live: ServedReceiver,
    maker: Ledger,
    qr_transport: ApiTransport,
    accounts_transport: ApiTransport,
    control: Api,
) -> ServedReceiver:
    """The receiver's URL registered at the bank for every Pix key, webhookrec, webhookcobr
    and the four Accounts event kinds (with the secret header), as Settings → Webhooks
    does."""
    service = WebhooksService(
        QrCodesClient(qr_transport),
        AccountsClient(accounts_transport),
        maker,
        pix_keys=KEYS,
        clock=lambda: sandbox_now(control),
    )
    for key in KEYS:
        await service.register(WebhookKind.PIX, live.url, key=key)
    await service.register(WebhookKind.REC, live.url)
    await service.register(WebhookKind.COBR, live.url)
    for kind in (WebhookKind.TRANSFER, WebhookKind.RECEIVE, WebhookKind.REFUND):
        await service.register(kind, f"{live.url}/{kind.value}", headers={SECRET_NAME: SECRET})
    await service.register(
        WebhookKind.CASHOUT, f"{live.url}/cashout", headers={SECRET_NAME: SECRET}
    )
    views = await service.overview()
    assert all(view.registered for view in views), views
    assert {view.delivery_url for view in views} == {
        f"{live.url}/{path}"
        for path in ("pix", "rec", "cobr", "transfer", "receive", "refund", "cashout")
    }
    return live


pytestmark = pytest.mark.usefixtures("registered")


def intent(amount: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
            "description": "receiver end to end",
        },
        payee_detail="fornecedor@empresa.com.br",
        description="receiver end to end",
    )


# --------------------------------------------------------------------------------------------
# Cash out: a Pix payout, then its refund


async def test_a_payout_reaches_its_final_state_through_the_receiver(
    db: ReceiverDatabase,
    maker: Ledger,
    accounts_transport: ApiTransport,
    control: Api,
    live: ServedReceiver,
) -> None:
    engine = PaymentEngine(AccountsClient(accounts_transport), maker, follow_up=())
    sent = await engine.submit(intent("12.34"))
    assert sent.state == EntryState.ACCEPTED and not sent.final
    assert sent.end_to_end_id

    control.advance(5)  # ON_QUEUE → PROCESSING → SETTLED on the bank's clock
    await await_until(lambda: db.entry(sent.id)["final"], "the payment final in the journal")
    assert db.entry(sent.id) | {"bank_id": None} == {
        "state": "ACCEPTED",
        "bank_status": "SETTLED",
        "final": True,
        "end_to_end_id": sent.end_to_end_id,
        "bank_id": None,
    }
    # the desktop reads it from the journal: nobody polled the bank
    entry = await maker.journal.get(sent.id)
    assert (entry.bank_status, entry.final) == ("SETTLED", True)
    notes = [(h.bank_status, h.note) for h in await maker.journal.history(sent.id)]
    assert ("SETTLED", "webhook: transfer") in notes
    assert [n for s, n in notes if n.startswith("webhook")][-1] == "webhook: transfer"
    rows = db.rows(
        "SELECT source, outcome, entry_id, receiver FROM treasury.notifications WHERE ref = %s"
        " ORDER BY id",
        sent.idempotency_key,
    )
    assert {(s, o, e, r) for s, o, e, r in rows if o == "applied"} == {
        ("transfer", "applied", sent.id, db.receiver_login)
    }
    assert all(outcome in ("applied", "unchanged") for _s, outcome, _e, _r in rows)
    statuses = [
        s
        for (s,) in db.rows(
            "SELECT item->'data'->>'status' FROM treasury.notifications WHERE ref = %s ORDER BY id",
            sent.idempotency_key,
        )
    ]
    assert statuses[-1] == "SETTLED" and "PROCESSING" in statuses

    # The payee sends the money back: a REFUND credit arrives; the final payment stays as is.
    refunded = control.control(
        "POST", f"/sandbox/pix/payments/{sent.end_to_end_id}/refund", {"amount": Decimal("2.34")}
    )
    assert refunded["data"]["status"] == "PARTIALLY_REFUNDED"
    credit = await await_until(
        lambda: db.rows(
            "SELECT event_key, amount FROM treasury.account_events WHERE kind = 'refund'"
            " AND item->'data'->>'originalEndToEndId' = %s",
            sent.end_to_end_id,
        ),
        "the refund credited (an account event)",
    )
    [(event_key, amount)] = credit
    assert event_key.startswith("refund|") and amount == Decimal("2.34")
    later = await await_until(
        lambda: db.rows(
            "SELECT outcome FROM treasury.notifications WHERE ref = %s"
            " AND item->'data'->>'status' = 'PARTIALLY_REFUNDED'",
            sent.idempotency_key,
        ),
        "the PARTIALLY_REFUNDED notification",
    )
    assert later == [("unchanged",)]  # a final payment is not reopened
    assert db.entry(sent.id)["bank_status"] == "SETTLED"
    assert live.metric("treasury_receiver_items_total", source="transfer", outcome="applied") >= 1


# --------------------------------------------------------------------------------------------
# Cash in: a charge paid, then a refund of its Pix


async def test_a_charge_paid_and_refunded_arrive_through_the_receiver(
    db: ReceiverDatabase, qr: Api, control: Api
) -> None:
    txid = new_txid()
    db.add_refs(("txid", txid))  # the desktop names the txid it creates
    created = qr.put(f"/cob/{txid}", json=cob_body("88.10", chave=KEYS[1]))
    assert created.status_code == 201, created.text
    paid = control.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": PAYER})
    e2e_paid = paid["pix"]["endToEndId"]

    state = await await_until(
        lambda: db.rows(
            "SELECT status, end_to_end_id FROM treasury.charge_states WHERE txid = %s", txid
        ),
        "the charge's state",
    )
    assert state == [("CONCLUIDA", e2e_paid)]
    [(chave, valor, refunds)] = db.rows(
        "SELECT chave, valor, refunds FROM treasury.received_pix WHERE end_to_end_id = %s",
        e2e_paid,
    )
    assert (chave, valor, refunds) == (KEYS[1], Decimal("88.10"), [])
    assert [k for k, _login in applied(db, "pix", e2e_paid)] == [f"pix|{e2e_paid}|"]
    # the account's RECEIVE event too (the Accounts API's view of the same credit)
    receive = await await_until(
        lambda: db.rows(
            "SELECT amount FROM treasury.account_events WHERE kind = 'receive'"
            " AND end_to_end_id = %s",
            e2e_paid,
        ),
        "the Pix received (an account event)",
    )
    assert receive == [(Decimal("88.10"),)]

    # The company returns part of it: the same Pix comes again with its refund, twice.
    asked = qr.put(f"/pix/{e2e_paid}/devolucao/D{uuid.uuid4().hex[:10]}", json={"valor": "8.10"})
    assert asked.status_code == 201, asked.text
    refund_id = body_of(asked)["id"]
    control.advance(4)  # EM_PROCESSAMENTO → DEVOLVIDO on the bank's clock
    await await_until(
        lambda: len(applied(db, "pix", e2e_paid)) == 2, "two pix notifications applied"
    )
    assert [k for k, _login in applied(db, "pix", e2e_paid)] == [
        f"pix|{e2e_paid}|",
        f"pix|{e2e_paid}|{refund_id}:DEVOLVIDO",
    ]
    [(refunds,)] = db.rows(
        "SELECT refunds FROM treasury.received_pix WHERE end_to_end_id = %s", e2e_paid
    )
    assert refunds == [{"id": refund_id, "status": "DEVOLVIDO", "valor": "8.10"}]


# --------------------------------------------------------------------------------------------
# Pix Automático: a recurrence approved, then its recurring charge settled


async def test_a_recurrence_approved_and_its_charge_settled_arrive_through_the_receiver(
    db: ReceiverDatabase, qr: Api, control: Api
) -> None:
    today = brasilia_date(sandbox_now(control))
    due = add_business_days(today, 2)  # the earliest due date the bank accepts
    calendar = {
        "dataInicial": due.isoformat(),
        "dataFinal": (today + dt.timedelta(days=365)).isoformat(),
        "periodicidade": "MENSAL",
    }
    created = qr.post("/rec", json=rec_body(calendario=calendar))
    assert created.status_code == 201, created.text
    id_rec = body_of(created)["idRec"]
    db.add_refs(("idrec", id_rec))  # the desktop names the idRec the bank gave it
    approved = control.control("POST", f"/sandbox/automatico/rec/{id_rec}/approve")
    assert approved["status"] == "APROVADA"
    await await_until(
        lambda: db.rows(
            "SELECT 1 FROM treasury.recurrence_states WHERE id_rec = %s AND status = 'APROVADA'",
            id_rec,
        ),
        "the recurrence APROVADA",
    )
    assert any("|APROVADA|" in key for key, _login in applied(db, "rec", id_rec))

    cobr = qr.post("/cobr", json=cobr_body(id_rec, due.isoformat()))
    assert cobr.status_code == 201, cobr.text
    charge = body_of(cobr)["txid"]
    await await_until(lambda: applied(db, "cobr", charge), "the cobr notification applied")
    # the day comes: the scheduled debit settles at 10:00 in Brasília
    settle = dt.datetime.combine(due, dt.time(13, 30), tzinfo=dt.UTC)
    control.control("POST", "/sandbox/clock", {"set": settle.isoformat().replace("+00:00", "Z")})
    state = await await_until(
        lambda: db.rows(
            "SELECT id_rec, status, attempts, item->'tentativas'->0->>'status'"
            " FROM treasury.cobr_states WHERE txid = %s AND status = 'CONCLUIDA'",
            charge,
        ),
        "the cobr CONCLUIDA",
    )
    assert state == [(id_rec, "CONCLUIDA", 1, "PAGA")]
    keys = [key for key, _login in applied(db, "cobr", charge)]
    assert keys[-1] == f"cobr|{charge}|CONCLUIDA|1|PAGA"
    assert len(keys) == len(set(keys)) >= 2


async def test_nothing_was_refused_and_every_item_was_applied_once(
    db: ReceiverDatabase, live: ServedReceiver, control: Api
) -> None:
    """The bank's whole conversation: delivered at the first attempt, no dead letter, no
    notification of the bank that the receiver did not store under its own key."""
    queued = control.control("GET", "/sandbox/notifications")["data"]
    ours = [n for n in queued if str(n.get("url") or "").startswith(live.url)]
    assert ours
    await await_until(
        lambda: all(n["status"] == "DELIVERED" for n in _refresh(control, ours)),
        "every notification DELIVERED",
    )
    delivered = _refresh(control, ours)
    assert {n["attempts"] for n in delivered} == {1}
    assert db.count("dead_letters") == 0
    assert db.count("notifications", "outcome = 'failed'") == 0
    # Only a recurrence's creation may have come before the desktop could name its idRec
    # (the bank makes the idRec up and notifies at once): it is kept, unmatched; the
    # recurrence's later states were applied (see the recurrence test).
    unmatched = db.rows(
        "SELECT source, item->>'status' FROM treasury.notifications WHERE outcome = 'unmatched'"
    )
    assert set(unmatched) <= {("rec", "CRIADA")}
    assert live.metric("treasury_receiver_rejected_total", reason="secret") == 0
    assert live.metric("treasury_receiver_rejected_total", reason="pin") == 0
    [(beat,)] = db.rows("SELECT count(*) FROM treasury.receivers WHERE name = 'live'")
    assert beat == 1


def _refresh(control: Api, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    wanted = {d["id"] for d in docs}
    return [
        n for n in control.control("GET", "/sandbox/notifications")["data"] if n["id"] in wanted
    ]
