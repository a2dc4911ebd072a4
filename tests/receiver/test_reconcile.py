"""The reconciler against a real sandbox bank (over mutual TLS, its clients built from the
receiver's ``[bank_api]`` configuration) and a real team database, with no webhook registered
at the bank: nothing is notified, so whatever reaches the database was found by the
reconciler. A paid charge, a settled payout and an approved recurrence are applied once
(``via = 'reconciler'``), counted in ``/metrics``, and the notification the bank would have
sent, arriving late, is a duplicate. ``run()`` reconciles at start and on its interval, logs
what fails and stops when cancelled. ``[bank_api]`` is optional and checked."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.api.conftest import api_config
from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.receiver.conftest import (
    MAKER_LOGIN,
    BankPki,
    ReceiverDatabase,
    ServedReceiver,
    make_config,
    new_receiver_database,
)
from tests.sandbox.conftest import Api, body_of
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import control_of, running_bank, sandbox_now
from tests.waiting import await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.qrcodes.automatico_models import (
    CalendarioCobR,
    CalendarioRec,
    CobRSolicitada,
    DadosBancariosRecebedor,
    Periodicidade,
    PoliticaRetentativa,
    RecSolicitada,
    TipoConta,
    ValorCobR,
    ValorRec,
    VinculoRec,
)
from treasury_app.api.qrcodes.cashin_models import (
    CalendarioCob,
    CalendarioCobV,
    CobSolicitada,
    CobValor,
    CobVSolicitada,
    CobVValor,
)
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import earliest_cobr_due_date
from treasury_app.domain.clock import Clock, brasilia_date
from treasury_app.domain.identifiers import new_idempotency_key, new_txid
from treasury_app.domain.money import dumps_json_bytes
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.receiver.config import ConfigError, ReceiverConfig, config_from
from treasury_app.receiver.items import parse_body
from treasury_app.receiver.metrics import ReceiverMetrics
from treasury_app.receiver.reconcile import Reconciler, reconciler_for
from treasury_app.receiver.store import ReceiverStore
from treasury_app.services.billets import BilletsService
from treasury_app.services.payments import PaymentEngine

CHAVE = "11222333000181"  # the sandbox company's CNPJ key
PAYER = {"name": "Pagador da Silva", "cpf": "40364478829"}
SUPPLIER = "fornecedor@empresa.com.br"
RECONCILED = "treasury_receiver_reconciled_total"
QR_SECRET_ENV = "TEST_RECONCILE_QRCODES_SECRET"


# --------------------------------------------------------------------------------------------
# The bank, the database, the receiver's configuration


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    with running_bank(tmp_path_factory.mktemp("reconcile-bank")) as running:
        yield running


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    with control_of(sandbox) as api:
        yield api


@pytest.fixture(autouse=True)
def _fresh_token_window(control: Api) -> Iterator[None]:
    control.reset_token_limits()
    yield
    control.control("DELETE", "/sandbox/faults")


@pytest.fixture
def bank_clock(control: Api) -> Clock:
    """The sandbox's clock (never the machine's): the reconciler's business "now"."""
    return lambda: sandbox_now(control)


@pytest.fixture(scope="module")
async def desk_qrcodes(sandbox: RunningSandbox, control: Api) -> AsyncIterator[QrCodesClient]:
    """A desktop's QR Codes client: it creates the charges and recurrences."""
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "qrcodes")) as transport:
        yield QrCodesClient(transport)


@pytest.fixture(scope="module")
async def desk_accounts(sandbox: RunningSandbox, control: Api) -> AsyncIterator[AccountsClient]:
    """A maker's desktop's Accounts client: it sends the payouts."""
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "accounts")) as transport:
        yield AccountsClient(transport)


@pytest.fixture
def db(team_databases: TeamDatabases) -> ReceiverDatabase:
    """A fresh team database (no dual control) with the receiver's login and a maker."""
    return new_receiver_database(team_databases)


@pytest.fixture
async def store(db: ReceiverDatabase) -> AsyncIterator[ReceiverStore]:
    opened = ReceiverStore(db.receiver_conninfo, min_size=1, max_size=4)
    await opened.open(wait=True)
    try:
        yield opened
    finally:
        await opened.close()


def bank_api_section(
    sandbox: RunningSandbox, folder: Path, *, absolute: bool = False
) -> dict[str, Any]:
    """``[bank_api]`` for the sandbox: each API's own certificate; the QR Codes secret from
    the environment, every other secret from a file in ``folder`` (named relative to it, as
    the configuration's own folder, unless ``absolute``)."""
    folder.mkdir(parents=True, exist_ok=True)
    where = (lambda name: str(folder / name)) if absolute else (lambda name: name)
    qr, acc = sandbox.credentials["qrcodes"], sandbox.credentials["accounts"]
    for name, value in (
        ("qr-pfx-password", qr["pfx_password"]),
        ("acc-pfx-password", acc["pfx_password"]),
        ("acc-secret", acc["client_secret"]),
    ):
        (folder / name).write_text(value + "\n", encoding="utf-8")
    return {
        "qrcodes_url": sandbox.urls["qrcodes"],
        "accounts_url": sandbox.urls["accounts"],
        "qrcodes_pfx": qr["pfx"],
        "qrcodes_pfx_password_file": where("qr-pfx-password"),
        "accounts_pfx": acc["pfx"],
        "accounts_pfx_password_file": where("acc-pfx-password"),
        "qrcodes_client_id": qr["client_id"],
        "qrcodes_secret_env": QR_SECRET_ENV,
        "accounts_client_id": acc["client_id"],
        "accounts_secret_file": where("acc-secret"),
        "ca": sandbox.ready["ca_file"],
    }


def document(conninfo: str, **sections: dict[str, Any]) -> dict[str, Any]:
    """A receiver's TOML document (behind a proxy: no TLS files needed here)."""
    return {
        "bank": {"proxy_addresses": ["127.0.0.1"]},
        "database": {"conninfo": conninfo},
        "receiver": {"name": "reconciler-tests", "reconcile_minutes": 5},
        **sections,
    }


@pytest.fixture
def config(
    sandbox: RunningSandbox, db: ReceiverDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> ReceiverConfig:
    monkeypatch.setenv(QR_SECRET_ENV, sandbox.credentials["qrcodes"]["client_secret"])
    section = bank_api_section(sandbox, tmp_path / "etc")
    return config_from(document(db.receiver_conninfo, bank_api=section), tmp_path / "etc")


@pytest.fixture
async def reconciler(
    config: ReceiverConfig, store: ReceiverStore, bank_clock: Clock
) -> AsyncIterator[Reconciler]:
    """The reconciler as ``treasury-receiver`` builds it from its configuration."""
    built = reconciler_for(config, store, ReceiverMetrics(), clock=bank_clock)
    assert built is not None and built.qrcodes is not None and built.accounts is not None
    try:
        yield built
    finally:
        await built.aclose()


def reconciled(reconciler: Reconciler, source: str) -> float:
    """``treasury_receiver_reconciled_total{source}`` as ``/metrics`` shows it."""
    value = reconciler.metrics.registry.get_sample_value(RECONCILED, {"source": source})
    return value or 0.0


def notifications(db: ReceiverDatabase, ref: str) -> list[tuple[Any, ...]]:
    return db.rows(
        "SELECT source, via, outcome, entry_id FROM treasury.notifications WHERE ref = %s"
        " ORDER BY id",
        ref,
    )


def not_delivered(control: Api, kind: str) -> list[dict[str, Any]]:
    """The QR Codes notifications the sandbox kept: no webhook, nothing delivered."""
    items = control.control("GET", f"/sandbox/notifications?api=qrcodes&kind={kind}")["data"]
    assert all(item["status"] != "DELIVERED" for item in items), items
    return list(items)


# --------------------------------------------------------------------------------------------
# Bodies


def cob_body() -> CobSolicitada:
    return CobSolicitada(
        calendario=CalendarioCob(expiracao=3600),
        valor=CobValor(original=Decimal("123.45")),
        chave=CHAVE,
        solicitacao_pagador="Pedido 42",
    )


def cobv_body(due: dt.date) -> CobVSolicitada:
    return CobVSolicitada(
        calendario=CalendarioCobV(data_de_vencimento=due, validade_apos_vencimento=30),
        devedor=Devedor(cpf="40364478829", nome="Cliente Varejo"),
        valor=CobVValor(original=Decimal("80.00")),
        chave=CHAVE,
    )


def rec_body(today: dt.date) -> RecSolicitada:
    return RecSolicitada(
        vinculo=VinculoRec(
            contrato="CT-REC-001",
            devedor=Devedor(cpf="40364478829", nome="Fulano de Tal"),
            objeto="Assinatura",
        ),
        calendario=CalendarioRec(
            data_inicial=today,
            data_final=today + dt.timedelta(days=400),
            periodicidade=Periodicidade.MENSAL,
        ),
        valor=ValorRec(valor_rec=Decimal("50.00")),
        politica_retentativa=PoliticaRetentativa.NAO_PERMITE,
    )


def cobr_body(id_rec: str, due: dt.date) -> CobRSolicitada:
    return CobRSolicitada(
        id_rec=id_rec,
        calendario=CalendarioCobR(data_de_vencimento=due),
        valor=ValorCobR(original=Decimal("50.00")),
        devedor=Devedor(cidade="São Paulo", uf="SP", cep="01310100"),
        recebedor=DadosBancariosRecebedor(
            agencia="0001", conta="1234567", tipo_conta=TipoConta.CORRENTE
        ),
    )


def payout(amount: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": SUPPLIER,
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
            "description": "reconciler",
        },
        payee_detail=SUPPLIER,
    )


# --------------------------------------------------------------------------------------------
# (a) a charge paid, nobody told


async def test_a_paid_charge_nobody_notified_is_applied_once(
    reconciler: Reconciler,
    store: ReceiverStore,
    db: ReceiverDatabase,
    desk_qrcodes: QrCodesClient,
    control: Api,
) -> None:
    txid = new_txid()
    db.add_refs(("txid", txid))  # the desktop names it before creating it
    await desk_qrcodes.put_cob(txid, cob_body())
    paid = control.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": PAYER})
    e2e = paid["pix"]["endToEndId"]
    [missed] = [
        n for n in not_delivered(control, "pix") if n["payload"]["pix"][0].get("txid") == txid
    ]
    assert db.count("received_pix") == 0 and db.count("charge_states") == 0

    assert await reconciler.once() == {"pix": 1}
    assert db.rows(
        "SELECT txid, valor FROM treasury.received_pix WHERE end_to_end_id = %s", e2e
    ) == [(txid, Decimal("123.45"))]
    assert db.rows(
        "SELECT status, end_to_end_id FROM treasury.charge_states WHERE txid = %s", txid
    ) == [("CONCLUIDA", e2e)]
    assert notifications(db, e2e) == [("pix", "reconciler", "applied", None)]
    assert reconciled(reconciler, "pix") == 1  # (c) counted in /metrics

    # Again: everything is stored already, nothing is applied nor counted twice.
    assert await reconciler.once() == {}
    assert reconciled(reconciler, "pix") == 1 and db.count("notifications") == 1

    # The notification the bank kept (no webhook then), delivered late: the same dedupe key.
    late = parse_body("pix", dumps_json_bytes(missed["payload"]))
    assert [r.outcome for r in await store.deliver(late)] == ["duplicate"]
    assert db.count("notifications") == 1


async def test_a_recurrence_and_its_charge_unnotified_are_applied_once(
    reconciler: Reconciler,
    db: ReceiverDatabase,
    desk_qrcodes: QrCodesClient,
    control: Api,
    bank_clock: Clock,
) -> None:
    rec = await desk_qrcodes.post_rec(rec_body(brasilia_date(bank_clock())))
    db.add_refs(("idrec", rec.id_rec))
    approved = control.control("POST", f"/sandbox/automatico/rec/{rec.id_rec}/approve")
    assert approved["status"] == "APROVADA"

    assert await reconciler.once() == {"rec": 1}
    assert db.rows(
        "SELECT status FROM treasury.recurrence_states WHERE id_rec = %s", rec.id_rec
    ) == [("APROVADA",)]
    assert notifications(db, rec.id_rec) == [("rec", "reconciler", "applied", None)]
    assert await reconciler.once() == {}
    assert reconciled(reconciler, "rec") == 1

    # Its first recurring charge: a txid of ours that is neither a cob nor a cobv.
    txid = new_txid(30)
    db.add_refs(("txid", txid))
    due = earliest_cobr_due_date(brasilia_date(bank_clock()))
    await desk_qrcodes.put_cobr(txid, cobr_body(rec.id_rec, due))

    async def active() -> bool:
        return str((await desk_qrcodes.get_cobr(txid)).status) == "ATIVA"

    # the bank's next tick makes it ATIVA; it then waits for its due date
    await await_until(active, "the cobr ATIVA")
    assert await reconciler.once() == {"cobr": 1}
    assert db.rows(
        "SELECT id_rec, status, attempts FROM treasury.cobr_states WHERE txid = %s", txid
    ) == [(rec.id_rec, "ATIVA", 1)]
    assert notifications(db, txid) == [("cobr", "reconciler", "applied", None)]
    assert await reconciler.once() == {}


# --------------------------------------------------------------------------------------------
# (b) a payout settled, its final status never journaled


async def test_a_payout_whose_final_status_nobody_notified_is_journaled(
    reconciler: Reconciler,
    store: ReceiverStore,
    db: ReceiverDatabase,
    desk_accounts: AccountsClient,
    control: Api,
    bank_clock: Clock,
    tmp_path: Path,
) -> None:
    async with opened_ledger("team", tmp_path, user=MAKER_LOGIN, database=db.name) as ledger:
        engine = PaymentEngine(desk_accounts, ledger, follow_up=())
        entry = await engine.submit(payout("12.34"))
        billets = BilletsService(engine, desk_accounts, ledger, clock=bank_clock)
        slip = control.slips()["Energia elétrica"]
        boleto = await billets.pay(await billets.lookup(slip["digitableCode"]))
    for sent in (entry, boleto):
        assert sent.state == EntryState.ACCEPTED and sent.bank_status == "ON_QUEUE"
        assert not sent.final

    control.advance(5.0)  # the bank settles both; no webhook tells anyone
    assert await reconciler.once() == {"cashout": 1, "transfer": 1}
    for sent, status in ((entry, "SETTLED"), (boleto, "LIQUIDATED")):
        journaled = db.entry(sent.id)
        assert (journaled["state"], journaled["bank_status"], journaled["final"]) == (
            "ACCEPTED",
            status,
            True,
        )
        state, said, note = db.history_notes(sent.id)[-1]
        assert (state, said) == ("ACCEPTED", status)
        assert note.startswith("reconciler: "), note
    assert notifications(db, entry.idempotency_key) == [
        ("transfer", "reconciler", "applied", entry.id)
    ]
    assert notifications(db, boleto.idempotency_key) == [
        ("cashout", "reconciler", "applied", boleto.id)
    ]
    assert reconciled(reconciler, "transfer") == 1 and reconciled(reconciler, "cashout") == 1

    # Final now: no longer open, not asked again.
    assert await reconciler.once() == {}
    assert reconciled(reconciler, "transfer") == 1

    # The TRANSFER event of the settlement, as the bank would post it, arriving late.
    response = control.get(f"/api/v2/pix/payments/idempotencyKey/{entry.idempotency_key}")
    data = body_of(response)["data"]
    late = {"type": "TRANSFER", "data": {**data, "webhookType": "TRANSFER"}}
    history = db.history_notes(entry.id)
    results = await store.deliver(parse_body("transfer", dumps_json_bytes(late)))
    assert [r.outcome for r in results] == ["duplicate"]
    assert db.history_notes(entry.id) == history


async def test_a_sent_payment_whose_answer_was_lost_follows_the_bank_or_waits(
    reconciler: Reconciler, db: ReceiverDatabase, control: Api
) -> None:
    """Journaled ``SENT`` and never answered: the bank has one (its status is journaled), not
    the other (left to the desktops, which decide whether to send it again)."""
    arrived, arrived_key = db.journal_payment("7.00", status=None)
    lost, _lost_key = db.journal_payment("8.00", status=None)
    answer = control.pay_dict(Decimal("7.00"), pix_key=SUPPLIER, idem=arrived_key)
    assert answer.status_code == 202, answer.text
    control.advance(5.0)  # settled at the bank (a fixed state: the test does not race it)

    assert await reconciler.once() == {"transfer": 1}
    journaled = db.entry(arrived)
    assert (journaled["state"], journaled["bank_status"], journaled["final"]) == (
        "ACCEPTED",
        "SETTLED",
        True,
    )
    assert journaled["end_to_end_id"] == body_of(answer)["data"]["endToEndId"]
    assert db.entry(lost)["state"] == "SENT"
    assert await reconciler.once() == {}


# --------------------------------------------------------------------------------------------
# run(): at start, on its interval, errors logged, cancellable


async def test_a_served_receiver_reconciles_at_start(
    bank_pki: BankPki,
    db: ReceiverDatabase,
    sandbox: RunningSandbox,
    desk_qrcodes: QrCodesClient,
    control: Api,
    bank_clock: Clock,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As ``treasury-receiver`` runs it: the reconciler set before uvicorn starts, run by the
    receiver's lifespan, its clients closed when the server stops."""
    txid = new_txid()
    db.add_refs(("txid", txid))
    await desk_qrcodes.put_cob(txid, cob_body())
    control.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": PAYER})
    monkeypatch.setenv(QR_SECRET_ENV, sandbox.credentials["qrcodes"]["client_secret"])
    section = bank_api_section(sandbox, tmp_path / "etc", absolute=True)
    config = make_config(bank_pki, db.receiver_conninfo, bank_api=section)
    served = ServedReceiver(config)
    receiver = served.receiver
    receiver.reconciler = reconciler_for(config, receiver.store, receiver.metrics, clock=bank_clock)
    served.start()
    try:
        await await_until(
            lambda: db.count("charge_states", "txid = %s AND status = 'CONCLUIDA'", txid),
            "the charge CONCLUIDA, reconciled at start",
        )
        assert db.count("charge_states", "txid = %s AND status = 'CONCLUIDA'", txid) == 1
        assert served.metric(RECONCILED, source="pix") == 1
    finally:
        served.stop()
    assert receiver.reconciler.qrcodes.transport.http.is_closed


async def test_run_reconciles_at_start_and_on_its_interval_until_cancelled(
    config: ReceiverConfig, store: ReceiverStore, bank_clock: Clock
) -> None:
    fast = dataclasses.replace(config, reconcile_minutes=0.002)  # 0.12 s
    running = reconciler_for(fast, store, ReceiverMetrics(), clock=bank_clock)
    assert running is not None
    task = asyncio.create_task(running.run())
    await await_until(lambda: running.passes >= 2 or task.done(), "two reconciling passes")
    assert running.passes >= 2 and not task.done()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert running.accounts is not None
    assert running.accounts.transport.http.is_closed  # it owned its clients: closed


async def test_run_logs_a_failing_pass_and_keeps_going(
    config: ReceiverConfig, bank_clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    away = ReceiverStore(
        "host=127.0.0.1 port=9 dbname=none user=none connect_timeout=1",
        min_size=1,
        max_size=1,
        timeout=0.2,
    )
    await away.open(wait=False)
    fast = dataclasses.replace(config, reconcile_minutes=0.001)
    running = reconciler_for(fast, away, ReceiverMetrics(), clock=bank_clock)
    assert running is not None
    caplog.set_level(logging.WARNING, logger="treasury_app.receiver.reconcile")
    task = asyncio.create_task(running.run())
    try:
        await await_until(
            lambda: (
                sum("database is away" in r.getMessage() for r in caplog.records) >= 2
                or task.done()
            ),
            "two failing passes logged",
        )
        assert sum("database is away" in r.getMessage() for r in caplog.records) >= 2
        assert not task.done() and running.passes == 0
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await away.close()


# --------------------------------------------------------------------------------------------
# [bank_api]


def test_without_bank_api_nothing_is_reconciled_and_it_is_logged_once(
    db: ReceiverDatabase, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    plain = config_from(document(db.receiver_conninfo), tmp_path)
    assert plain.bank_api is None
    caplog.set_level(logging.INFO, logger="treasury_app.receiver.reconcile")
    assert reconciler_for(plain, ReceiverStore(plain.conninfo), ReceiverMetrics()) is None
    [said] = [r for r in caplog.records if r.name == "treasury_app.receiver.reconcile"]
    assert "no [bank_api]" in said.getMessage()


def test_bank_api_is_read_with_its_secrets_never_shown(config: ReceiverConfig) -> None:
    bank = config.bank_api
    assert bank is not None and bank.qrcodes is not None and bank.accounts is not None
    assert bank.qrcodes.pfx != bank.accounts.pfx and bank.qrcodes.ca is not None
    assert bank.accounts.client_secret and bank.accounts.pfx_password
    for secret in (bank.qrcodes.client_secret, bank.accounts.pfx_password):
        assert secret not in repr(config)


def test_one_certificate_may_serve_both_apis_and_one_api_may_be_left_out(
    sandbox: RunningSandbox, db: ReceiverDatabase, tmp_path: Path
) -> None:
    section = bank_api_section(sandbox, tmp_path)
    shared = {
        key: value
        for key, value in section.items()
        if not key.startswith(("qrcodes_", "accounts_pfx"))
    }
    shared |= {"pfx": section["accounts_pfx"], "pfx_password_file": "acc-pfx-password"}
    bank = config_from(document(db.receiver_conninfo, bank_api=shared), tmp_path).bank_api
    assert bank is not None and bank.qrcodes is None and bank.accounts is not None
    assert str(bank.accounts.pfx) == section["accounts_pfx"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"qrcodes_pfx": "missing.pfx"}, "bank_api.qrcodes_pfx: .*missing.pfx is not a file"),
        ({"ca": "no-ca.pem"}, "bank_api.ca: .*no-ca.pem is not a file"),
        ({"accounts_secret_file": "absent"}, "bank_api.accounts_secret: cannot read"),
        ({"qrcodes_secret_env": "TEST_RECONCILE_UNSET"}, "TEST_RECONCILE_UNSET is not set"),
        ({"qrcodes_url": "http://bank.example"}, "qrcodes_url must be an https:// address"),
        ({"accounts_client_id": ""}, "bank_api.accounts_client_id is required"),
        ({"accounts_pfx_password_file": None}, "bank_api.accounts_pfx_password_env or"),
        ({"qrcodes_url": None, "accounts_url": None}, r"\[bank_api\] names no API"),
    ],
)
def test_a_bank_api_that_cannot_be_used_is_a_config_error(
    sandbox: RunningSandbox,
    db: ReceiverDatabase,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    change: dict[str, Any],
    message: str,
) -> None:
    monkeypatch.setenv(QR_SECRET_ENV, "x")
    monkeypatch.delenv("TEST_RECONCILE_UNSET", raising=False)
    section = {**bank_api_section(sandbox, tmp_path), **change}
    section = {key: value for key, value in section.items() if value is not None}
    with pytest.raises(ConfigError, match=message):
        config_from(document(db.receiver_conninfo, bank_api=section), tmp_path)


def test_a_wrong_certificate_password_is_a_config_error(
    sandbox: RunningSandbox, db: ReceiverDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(QR_SECRET_ENV, "x")
    section = bank_api_section(sandbox, tmp_path)
    (tmp_path / "qr-pfx-password").write_text("not the password", encoding="utf-8")
    wrong = config_from(document(db.receiver_conninfo, bank_api=section), tmp_path)
    with pytest.raises(ConfigError, match="bank_api \\(qrcodes\\): The password does not open"):
        reconciler_for(wrong, ReceiverStore(wrong.conninfo), ReceiverMetrics())


def test_reconcile_minutes_must_be_above_zero(db: ReceiverDatabase, tmp_path: Path) -> None:
    zero = document(db.receiver_conninfo)
    zero["receiver"]["reconcile_minutes"] = 0
    with pytest.raises(ConfigError, match="reconcile_minutes"):
        config_from(zero, tmp_path)


# --------------------------------------------------------------------------------------------
# A charge paid before the 15 days GET /pix covers (moves the module's clock: last)


async def test_a_charge_paid_before_the_window_is_found_by_its_txid(
    reconciler: Reconciler,
    db: ReceiverDatabase,
    desk_qrcodes: QrCodesClient,
    control: Api,
    bank_clock: Clock,
) -> None:
    today = brasilia_date(bank_clock())
    txid = new_txid()
    db.add_refs(("txid", txid))
    await desk_qrcodes.put_cobv(txid, cobv_body(today + dt.timedelta(days=5)))
    e2e = control.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": PAYER})["pix"][
        "endToEndId"
    ]
    control.advance(16 * 24 * 3600)  # the receiver was away longer than the bank keeps notices
    now = bank_clock()
    listed = [
        p
        async for p in desk_qrcodes.iter_pix(inicio=now - dt.timedelta(days=15), fim=now)
        if p.txid == txid
    ]
    assert listed == []  # GET /pix over the last 15 days no longer shows it

    assert await reconciler.once() == {"pix": 1}  # GET /cob/{txid}: 404; GET /cobv/{txid}: paid
    assert db.rows(
        "SELECT status, end_to_end_id FROM treasury.charge_states WHERE txid = %s", txid
    ) == [("CONCLUIDA", e2e)]
    assert notifications(db, e2e) == [("pix", "reconciler", "applied", None)]
    assert await reconciler.once() == {}
