"""Fixtures of the webhook receiver's tests: a bank CA and its certificates, the receiver's
own team database and login, and real receivers served by uvicorn over mutual TLS on
127.0.0.1 (each in a thread of its own, with its own event loop), reached with httpx.

Nothing of ours is mocked: the receiver is :class:`treasury_app.receiver.app.Receiver` served
by :func:`treasury_app.receiver.__main__.build_server`, on the suite's PostgreSQL
(``tests/pg_server.py``), logged in as a member of ``treasury_receiver``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import ssl
import threading
import uuid
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from prometheus_client.parser import text_string_to_metric_families

from tests.ledger_backends import TeamDatabases
from tests.waiting import LONG_WAIT_SECONDS, wait_until
from treasury_app.ledger.team import migrations
from treasury_app.ledger.team.receiver_schema import RECEIVER
from treasury_app.ledger.team.schema import MAKER
from treasury_app.receiver.__main__ import build_server
from treasury_app.receiver.app import Receiver
from treasury_app.receiver.config import ReceiverConfig, config_from
from treasury_app.receiver.store import ReceiverStore
from treasury_app.sandbox.pki import (
    Issuer,
    _key_pem,
    _new_key,
    issue_server_certificate,
    new_ca,
    new_csr,
    sign_client_csr,
)

SECRET = "whsec_5b0c9e1f7a2d4c6e"
SECRET_HEADER = "x-treasury-secret"
RECEIVER_LOGIN = "recv_tests"
MAKER_LOGIN = "recv_maker"
OUR_KEY = "financeiro@empresasandbox.com.br"
ANOTHER_KEY = "someone-else@example.com"
START_TIMEOUT = 15.0


# --------------------------------------------------------------------------------------------
# Certificates


def pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def fingerprint(cert_file: Path) -> str:
    """The SHA-256 of a PEM certificate's DER form (as ``bank.pin_sha256`` names it)."""
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    return hashlib.sha256(cert.public_bytes(serialization.Encoding.DER)).hexdigest()


def write_client(directory: Path, name: str, ca: Issuer, client_id: str) -> tuple[Path, Path]:
    """A client certificate (clientAuth) signed by ``ca``, and its key: ``(crt, key)``."""
    key = _new_key()
    cert = sign_client_csr(ca, new_csr(key, "qrcodes", client_id))
    cert_file, key_file = directory / f"{name}.crt", directory / f"{name}.key"
    cert_file.write_bytes(pem(cert))
    key_file.write_bytes(_key_pem(key))
    key_file.chmod(0o600)
    return cert_file, key_file


def write_server(directory: Path, ca: Issuer, name: str = "server") -> tuple[Path, Path]:
    """A server certificate for 127.0.0.1 signed by ``ca``, and its key: ``(crt, key)``."""
    key, cert = issue_server_certificate(ca, ["127.0.0.1"])
    cert_file, key_file = directory / f"{name}.crt", directory / f"{name}.key"
    cert_file.write_bytes(pem(cert))
    key_file.write_bytes(_key_pem(key))
    key_file.chmod(0o600)
    return cert_file, key_file


@dataclass(frozen=True)
class BankPki:
    """The files of one test PKI: the bank's CA (it signs the receiver's server certificate
    and the bank's client certificates), a second bank leaf, and a stranger's CA and leaf."""

    directory: Path
    ca: Path
    server: tuple[Path, Path]
    bank: tuple[Path, Path]
    bank_two: tuple[Path, Path]
    stranger: tuple[Path, Path]
    secret_file: Path

    def context(self, client: tuple[Path, Path] | None) -> ssl.SSLContext:
        """A client context trusting the bank CA (the receiver's server certificate),
        presenting ``client`` (or no certificate)."""
        context = ssl.create_default_context(cafile=str(self.ca))
        if client is not None:
            context.load_cert_chain(str(client[0]), str(client[1]))
        return context


@pytest.fixture(scope="session")
def bank_pki(tmp_path_factory: pytest.TempPathFactory) -> BankPki:
    directory = tmp_path_factory.mktemp("receiver-pki")
    ca = new_ca("Test Bank Root")
    (directory / "bank-ca.pem").write_bytes(pem(ca.cert))
    other = new_ca("Another Bank Root")
    secret_file = directory / "secret"
    secret_file.write_text(SECRET + "\n", encoding="utf-8")
    return BankPki(
        directory=directory,
        ca=directory / "bank-ca.pem",
        server=write_server(directory, ca),
        bank=write_client(directory, "bank", ca, "bank"),
        bank_two=write_client(directory, "bank-two", ca, "bank2"),
        stranger=write_client(directory, "stranger", other, "bank"),
        secret_file=secret_file,
    )


# --------------------------------------------------------------------------------------------
# Configuration


def config_document(pki: BankPki, conninfo: str, **sections: dict[str, Any]) -> dict[str, Any]:
    """The TOML document of a receiver listening on a free port of 127.0.0.1 (``sections``
    are merged into the default one's tables)."""
    document: dict[str, Any] = {
        "listen": {
            "host": "127.0.0.1",
            "port": 0,
            "certificate": str(pki.server[0]),
            "key": str(pki.server[1]),
        },
        "bank": {"ca": str(pki.ca)},
        "accounts": {"secret_header": SECRET_HEADER, "secret_file": str(pki.secret_file)},
        "database": {"conninfo": conninfo, "pool_size": 4},
        "receiver": {"name": f"receiver-{uuid.uuid4().hex[:6]}"},
    }
    for name, values in sections.items():
        document[name] = {**document.get(name, {}), **values}
    return document


def toml_text(document: dict[str, Any]) -> str:
    """``document`` (tables of strings, numbers and lists of strings) written as TOML."""
    lines: list[str] = []
    for table, values in document.items():
        lines.append(f"[{table}]")
        for name, value in values.items():
            if value is None:
                continue
            lines.append(f"{name} = {json.dumps(value)}")  # JSON strings are TOML strings
        lines.append("")
    return "\n".join(lines)


def make_config(pki: BankPki, conninfo: str, **sections: dict[str, Any]) -> ReceiverConfig:
    return config_from(config_document(pki, conninfo, **sections), pki.directory)


# --------------------------------------------------------------------------------------------
# A receiver served by uvicorn


class ServedReceiver:
    """A :class:`Receiver` served by uvicorn (``build_server``) in a thread of its own."""

    def __init__(self, config: ReceiverConfig, store: ReceiverStore | None = None) -> None:
        self.config = config
        self.receiver = Receiver(config, store)
        self.server = build_server(config, self.receiver)
        self.port = 0
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="receiver", daemon=True)

    def _run(self) -> None:
        try:
            # A selector loop, as the entry point uses (psycopg's async mode needs one).
            with asyncio.Runner(loop_factory=asyncio.SelectorEventLoop) as runner:
                runner.run(self.server.serve())
        except BaseException as error:  # shown by start() or stop()
            self._error = error

    def start(self) -> ServedReceiver:
        self._thread.start()

        def started() -> bool:
            if not self._thread.is_alive() and not self.server.started:
                raise RuntimeError(f"the receiver did not start: {self._error!r}")
            return bool(self.server.started)

        wait_until(started, "the receiver to start", timeout=LONG_WAIT_SECONDS)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    @property
    def url(self) -> str:
        scheme = "https" if self.config.certificate is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}{self.config.base_path}"

    @property
    def origin(self) -> str:
        scheme = "https" if self.config.certificate is not None else "http"
        return f"{scheme}://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self._thread.join(START_TIMEOUT)
        assert not self._thread.is_alive(), "the receiver did not stop"
        if self._error is not None:
            raise self._error

    def metric(self, name: str, **labels: str) -> float:
        """A sample of the receiver's ``/metrics`` as served (0 when absent)."""
        return sample(self.metrics_text(), name, **labels)

    def metrics_text(self) -> str:
        body, _content_type = self.receiver.metrics.exposition()
        return body.decode("utf-8")


def sample(text: str, name: str, **labels: str) -> float:
    """The value of sample ``name`` with ``labels`` in a Prometheus text page (0 when absent)."""
    for family in text_string_to_metric_families(text):
        for found in family.samples:
            if found.name == name and all(found.labels.get(k) == v for k, v in labels.items()):
                return float(found.value)
    return 0.0


@pytest.fixture
def serve() -> Iterator[Callable[..., ServedReceiver]]:
    """``serve(config, store=None)``: a started receiver, stopped after the test."""
    started: list[ServedReceiver] = []

    def start(config: ReceiverConfig, store: ReceiverStore | None = None) -> ServedReceiver:
        served = ServedReceiver(config, store).start()
        started.append(served)
        return served

    yield start
    for served in reversed(started):
        served.stop()


# --------------------------------------------------------------------------------------------
# The team database


@dataclass
class ReceiverDatabase:
    """A migrated team database with a receiver login and a maker who named our refs."""

    team: TeamDatabases
    name: str
    receiver_login: str = RECEIVER_LOGIN
    maker_login: str = MAKER_LOGIN
    refs: list[tuple[str, str]] = field(default_factory=list)

    @property
    def receiver_conninfo(self) -> str:
        return self.team.server.url(self.name, user=self.receiver_login)

    def connect(self, user: str | None = None) -> psycopg.Connection[Any]:
        """A connection (autocommit) as ``user`` (default: the superuser)."""
        return psycopg.connect(
            self.team.server.url(self.name, user=user), autocommit=True, connect_timeout=5
        )

    def rows(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        with self.connect() as conn:
            return conn.execute(query, params).fetchall()

    def count(self, table: str, where: str = "true", *params: Any) -> int:
        [(count,)] = self.rows(f"SELECT count(*) FROM treasury.{table} WHERE {where}", *params)
        return int(count)

    def add_refs(self, *refs: tuple[str, str]) -> None:
        """Name ``(kind, ref)`` pairs as ours, as a maker's desktop does."""
        with self.connect(self.maker_login) as conn:
            for kind, ref in refs:
                conn.execute(
                    "INSERT INTO treasury.our_refs (kind, ref) VALUES (%s, %s)"
                    " ON CONFLICT DO NOTHING",
                    (kind, ref),
                )
        self.refs.extend(refs)

    def snapshot(self) -> dict[str, Any]:
        """Everything the receiver may write, to compare before and after a request."""
        with self.connect() as conn:
            return {
                table: conn.execute(f"SELECT * FROM treasury.{table} ORDER BY 1").fetchall()
                for table in (
                    "notifications",
                    "dead_letters",
                    "received_pix",
                    "charge_states",
                    "recurrence_states",
                    "cobr_states",
                    "account_events",
                    "journal",
                    "journal_history",
                )
            }

    # -- the journal, as a maker's desktop writes it -----------------------------------------

    def journal_payment(
        self,
        amount: str = "10.00",
        *,
        send: bool = True,
        status: str | None = "ON_QUEUE",
        end_to_end_id: str | None = None,
    ) -> tuple[int, str]:
        """A Pix payout journaled through ``treasury.prepare`` by the maker, then (``send``)
        released and accepted by the bank with ``status`` through ``treasury.record`` (under the
        entry's claim):
        ``(entry id, idempotency key)``."""
        key = uuid.uuid4().hex[:32]
        request = {
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": amount},
            "description": "receiver test",
        }
        with self.connect(self.maker_login) as conn:
            [(entry_id,)] = conn.execute(
                "SELECT id FROM treasury.prepare(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                (
                    "PIX_KEY",
                    "Fornecedor",
                    "",
                    "fornecedor@empresa.com.br",
                    Decimal(amount),
                    "receiver test",
                    "INSTANT",
                    key,
                    json.dumps(request),
                    "test",
                    None,
                ),
            ).fetchall()
            if send:  # as the maker's desktop does: under the entry's claim
                record = (
                    "SELECT r.* FROM (SELECT %s::bigint AS id) e, LATERAL treasury.record(e.id,"
                    " treasury.claim(e.id), %s, %s, %s, NULL, NULL, %s, NULL, 'answer') r"
                )
                conn.execute(record, (entry_id, "SENT", None, None, "sending"))
                if status is not None:
                    conn.execute(record, (entry_id, "ACCEPTED", status, end_to_end_id, "accepted"))
        return int(entry_id), key

    def entry(self, entry_id: int) -> dict[str, Any]:
        with self.connect() as conn:
            cursor = conn.execute(
                "SELECT state, bank_status, final, end_to_end_id, bank_id"
                " FROM treasury.journal WHERE id = %s",
                (entry_id,),
            )
            names = [column.name for column in cursor.description or ()]
            row = cursor.fetchone()
            assert row is not None
            return dict(zip(names, row, strict=True))

    def history_notes(self, entry_id: int) -> list[tuple[str, str | None, str]]:
        return [
            (str(state), status, str(note))
            for state, status, note in self.rows(
                "SELECT state, bank_status, note FROM treasury.journal_history"
                " WHERE entry_id = %s ORDER BY id",
                entry_id,
            )
        ]


def new_receiver_database(team: TeamDatabases, *refs: tuple[str, str]) -> ReceiverDatabase:
    """A fresh team database (no dual control), the receiver's login added as
    ``treasury-admin`` would (``migrations.add_user``), and ``refs`` named as ours."""
    name = team.new_database()
    team.person(MAKER_LOGIN, MAKER)
    with psycopg.connect(team.server.url(name), autocommit=True) as conn:
        migrations.add_user(conn, RECEIVER_LOGIN, (RECEIVER,))
    database = ReceiverDatabase(team, name)
    database.add_refs(*refs)
    return database


# --------------------------------------------------------------------------------------------
# Bodies


def e2e_id() -> str:
    """A fresh endToEndId (E + ISPB + yyyyMMddHHmm + 11 characters)."""
    return f"E12345678202611181300{uuid.uuid4().hex[:11].upper()}"


def txid() -> str:
    return uuid.uuid4().hex[:30]


def pix_item(
    *,
    end_to_end_id: str | None = None,
    chave: str | None = OUR_KEY,
    txid: str | None = None,
    valor: str = "10.00",
    refunds: Sequence[tuple[str, str]] = (),
) -> dict[str, Any]:
    """One item of a ``/pix`` notification (``refunds``: ``(id, status)`` of its devolucoes)."""
    item: dict[str, Any] = {
        "endToEndId": end_to_end_id or e2e_id(),
        "valor": valor,
        "horario": "2026-11-18T13:00:00.000Z",
    }
    if chave is not None:
        item["chave"] = chave
    if txid is not None:
        item["txid"] = txid
    if refunds:
        item["devolucoes"] = [
            {
                "id": refund_id,
                "rtrId": f"D12345678202611181300{refund_id[:11]:0<11}",
                "valor": "1.00",
                "horario": {"solicitacao": "2026-11-18T13:05:00.000Z"},
                "status": status,
            }
            for refund_id, status in refunds
        ]
    return item


def pix_body(*items: dict[str, Any]) -> dict[str, Any]:
    return {"pix": list(items)}


def rec_item(
    id_rec: str, status: str = "APROVADA", at: str = "2026-11-18T13:01:00.000Z"
) -> dict[str, Any]:
    return {
        "idRec": id_rec,
        "status": status,
        "atualizacao": [
            {"status": "CRIADA", "data": "2026-11-18T13:00:00.000Z"},
            {"status": status, "data": at},
        ],
    }


def cobr_item(
    id_rec: str, txid_: str, status: str = "ATIVA", attempts: Sequence[str] = ("AGENDADA",)
) -> dict[str, Any]:
    return {
        "idRec": id_rec,
        "txid": txid_,
        "status": status,
        "atualizacao": [{"status": "CRIADA", "data": "2026-11-18T13:00:00.000Z"}],
        "tentativas": [
            {
                "dataLiquidacao": "2026-11-23",
                "tipo": "AGND" if position == 0 else "NTAG",
                "status": attempt,
                "endToEndId": f"E12345678202611231330{position:011d}",
            }
            for position, attempt in enumerate(attempts)
        ],
    }


def transfer_body(
    *,
    idempotency_key: str | None,
    end_to_end_id: str | None = None,
    status: str = "SETTLED",
    at: str = "2026-11-18T13:00:03.000Z",
    kind: str = "TRANSFER",
) -> dict[str, Any]:
    """A TRANSFER notification: our Pix at one step of its history."""
    data: dict[str, Any] = {
        "id": 4711,
        "endToEndId": end_to_end_id or e2e_id(),
        "status": status,
        "transactionType": "PIX",
        "payment": {"currency": "BRL", "amount": 10.00},
        "createdAt": "2026-11-18T13:00:00.000Z",
        "updatedAt": at,
        "webhookType": kind,
    }
    if idempotency_key is not None:
        data["idempotencyKey"] = idempotency_key
    return {"type": kind, "data": data}


def cashout_body(*, idempotency_key: str, end_to_end_id: str, status: str = "CANCELED") -> Any:
    return {
        "type": "CASHOUT",
        "data": {
            "status": status,
            "message": "AM04",
            "createdAt": "2026-11-18T13:00:02.000Z",
            "endToEndId": end_to_end_id,
            "idempotencyKey": idempotency_key,
            "webhookType": "CASHOUT",
        },
        "transaction": {"status": status, "reference": idempotency_key},
    }


def credit_body(
    kind: str = "RECEIVE", *, entry_id: int | None = None, tx_id: str | None = None
) -> dict[str, Any]:
    """A RECEIVE or REFUND notification: a statement entry credited to the account."""
    data: dict[str, Any] = {
        "id": entry_id if entry_id is not None else int(uuid.uuid4().int % 10**9),
        "createdAt": "2026-11-18T13:00:00.000Z",
        "creditDebitType": "CREDIT",
        "transactionType": "PIX" if kind == "RECEIVE" else "REFUND",
        "amount": 25.50,
        "description": "Pix recebido",
        "endToEndId": e2e_id(),
        "webhookType": kind,
    }
    if tx_id is not None:
        data["txId"] = tx_id
    return {"type": kind, "data": data}


def body_bytes(document: Any) -> bytes:
    return json.dumps(document).encode("utf-8")


# --------------------------------------------------------------------------------------------
# The bank's side: an httpx client with the bank's certificate


class Bank:
    """The bank calling one receiver (its client certificate; the secret on the Accounts
    routes unless told otherwise)."""

    def __init__(self, served: ServedReceiver, context: ssl.SSLContext | None) -> None:
        self.served = served
        self.http = httpx.Client(
            base_url=served.origin, verify=context if context is not None else False, timeout=20
        )

    def close(self) -> None:
        self.http.close()

    def post(
        self,
        source: str,
        body: Any,
        *,
        secret: str | None = SECRET,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        content = body if isinstance(body, bytes) else body_bytes(body)
        sent = {"content-type": "application/json", **(headers or {})}
        if secret is not None:
            sent[SECRET_HEADER] = secret
        return self.http.post(self.served.config.path(source), content=content, headers=sent)

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)


# --------------------------------------------------------------------------------------------
# One receiver for a module's tests that need no database of their own


@pytest.fixture(scope="module")
def shared_db(team_databases: TeamDatabases) -> ReceiverDatabase:
    return new_receiver_database(team_databases, ("key", OUR_KEY))


@pytest.fixture(scope="module")
def shared(bank_pki: BankPki, shared_db: ReceiverDatabase) -> Iterator[ServedReceiver]:
    served = ServedReceiver(make_config(bank_pki, shared_db.receiver_conninfo)).start()
    yield served
    served.stop()


@pytest.fixture(scope="module")
def bank(shared: ServedReceiver, bank_pki: BankPki) -> Iterator[Bank]:
    """The bank calling the shared receiver, with its client certificate."""
    client = Bank(shared, bank_pki.context(bank_pki.bank))
    yield client
    client.close()
