"""The receiver at its limits, served by uvicorn over mutual TLS on 127.0.0.1 with a real team
database: every pooled connection busy (503, counted as ``pool_exhausted``, not as the
database away), senders too slow with their headers or their body (cut off after the
configured deadline: 408, counted, no database connection held meanwhile), and the database
restarted under a pool of connections from before the restart (each delivery retried on a
fresh connection: 200, never 503)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import ssl
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.ledger_backends import TeamDatabases
from tests.receiver.conftest import (
    OUR_KEY,
    Bank,
    BankPki,
    ReceiverDatabase,
    ServedReceiver,
    body_bytes,
    make_config,
    new_receiver_database,
    pix_body,
    pix_item,
    transfer_body,
)
from tests.receiver.test_receiver import backends_waiting
from tests.waiting import WAIT_SECONDS, await_until, wait_until
from treasury_app.receiver.app import RETRY_AFTER_SECONDS
from treasury_app.receiver.config import ConfigError
from treasury_app.receiver.store import ReceiverStore

Serve = Callable[..., ServedReceiver]
REJECTED = "treasury_receiver_rejected_total"
DEADLINE = 0.5
"""The header and body deadlines of these tests' receivers, in seconds."""
PACE = 0.05
"""Seconds between two bytes of a slow sender: it never stops sending, it sends too slowly."""


# Every pooled connection busy -----------------------------------------------------------------


def test_a_full_pool_is_answered_and_counted_as_pool_exhausted(
    serve: Serve,
    bank_pki: BankPki,
    team_databases: TeamDatabases,
    caplog: pytest.LogCaptureFixture,
) -> None:
    db = new_receiver_database(team_databases, ("key", OUR_KEY))
    store = ReceiverStore(db.receiver_conninfo, min_size=1, max_size=1, timeout=1.0)
    served = serve(make_config(bank_pki, db.receiver_conninfo), store)
    bank = Bank(served, bank_pki.context(bank_pki.bank))
    held, turned_away = pix_item(), pix_item()
    caplog.set_level(logging.WARNING, logger="treasury_app.receiver")
    locker = db.connect()
    try:
        # The first delivery takes the pool's one connection and waits on the table there.
        locker.execute("BEGIN")
        locker.execute("LOCK TABLE treasury.notifications IN EXCLUSIVE MODE")
        with ThreadPoolExecutor(1) as pool:
            holding = pool.submit(bank.post, "pix", pix_body(held))
            wait_until(backends_waiting(db, 1), "the first delivery waiting for the table lock")
            answer = bank.post("pix", pix_body(turned_away))
            health = bank.get("/healthz")
            locker.execute("COMMIT")
            first = holding.result(timeout=WAIT_SECONDS)
    finally:
        locker.close()
    assert answer.status_code == 503, answer.text
    assert answer.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
    assert answer.json()["detail"] == (
        "The receiver is busy (pool exhausted); nothing was stored. Retry later."
    )
    assert served.metric(REJECTED, reason="pool_exhausted") == 1
    assert served.metric(REJECTED, reason="unavailable") == 0
    assert (health.status_code, health.json()["status"]) == (503, "unavailable")
    assert health.json()["database"].startswith("pool exhausted: all 1 connections")
    [said] = [r for r in caplog.records if "pool exhausted" in r.getMessage()]
    assert (said.name, said.levelname) == ("treasury_app.receiver", "WARNING")
    assert said.getMessage().startswith("pool exhausted: all 1 connections to the team database")
    assert said.getMessage().endswith("busy for 1.00 s (pix: nothing stored, answered 503)")
    # the held delivery went through; the one turned away is taken when the bank retries
    assert (first.status_code, first.json()) == (200, {"items": 1, "applied": 1})
    again = bank.post("pix", pix_body(turned_away))
    bank.close()
    assert (again.status_code, again.json()) == (200, {"items": 1, "applied": 1})
    assert db.count("notifications") == 2


# The database restarted -------------------------------------------------------------------------


def test_after_the_database_restarts_every_delivery_is_answered_200(
    serve: Serve, bank_pki: BankPki, team_databases: TeamDatabases
) -> None:
    db = new_receiver_database(team_databases, ("key", OUR_KEY))
    served = serve(make_config(bank_pki, db.receiver_conninfo))  # a pool of 2 to 4
    pool = served.receiver.store.pool
    bank = Bank(served, bank_pki.context(bank_pki.bank))
    # Four deliveries at once: the pool grows to its four connections, idle afterwards.
    with db.connect() as locker, ThreadPoolExecutor(4) as threads:
        locker.execute("BEGIN")
        locker.execute("LOCK TABLE treasury.notifications IN EXCLUSIVE MODE")
        pending = [threads.submit(bank.post, "pix", pix_body(pix_item())) for _ in range(4)]
        wait_until(backends_waiting(db, 4), "four deliveries waiting for the table lock")
        locker.execute("COMMIT")
        assert [p.result(timeout=WAIT_SECONDS).status_code for p in pending] == [200] * 4
    wait_until(
        lambda: pool.get_stats()["pool_available"] == 4, "the four connections back in the pool"
    )
    server = team_databases.server
    server.stop()  # every pooled connection is now one of before the restart
    server.start()
    entry_id, key = db.journal_payment()
    deliveries: list[tuple[str, Any]] = [
        ("pix", pix_body(pix_item())),
        ("pix", pix_body(pix_item(), pix_item())),  # several items: one transaction
        ("transfer", transfer_body(idempotency_key=key)),
        ("pix", pix_body(pix_item())),
        ("pix", pix_body(pix_item())),
        ("pix", pix_body(pix_item())),
    ]
    answers = [bank.post(source, document) for source, document in deliveries]
    health = bank.get("/healthz")
    bank.close()
    assert [(a.status_code, a.json()) for a in answers] == [
        (200, {"items": 1, "applied": 1}),
        (200, {"items": 2, "applied": 2}),
        (200, {"items": 1, "applied": 1}),
        (200, {"items": 1, "applied": 1}),
        (200, {"items": 1, "applied": 1}),
        (200, {"items": 1, "applied": 1}),
    ]
    assert health.status_code == 200
    assert served.metric(REJECTED, reason="unavailable") == 0
    assert db.count("notifications") == 4 + 7
    assert db.entry(entry_id)["bank_status"] == "SETTLED"


# Slow senders ---------------------------------------------------------------------------------


def slow_config(bank_pki: BankPki, db: ReceiverDatabase) -> Any:
    return make_config(
        bank_pki,
        db.receiver_conninfo,
        listen={"header_timeout": DEADLINE, "body_timeout": DEADLINE},
    )


class Answer:
    """An HTTP answer as read off the socket: status, headers, body."""

    def __init__(self, head: bytes, body: bytes) -> None:
        status_line, *lines = head.decode("latin-1").split("\r\n")
        self.status = int(status_line.split()[1])
        self.headers = {
            name.strip().lower(): value.strip()
            for name, value in (line.split(":", 1) for line in lines if line)
        }
        self.body = body

    def json(self) -> Any:
        return json.loads(self.body)


async def read_answer(reader: asyncio.StreamReader) -> Answer:
    head = await reader.readuntil(b"\r\n\r\n")
    answer = Answer(head[:-4], b"")
    answer.body = await reader.readexactly(int(answer.headers["content-length"]))
    return answer


class SlowSender:
    """A connection to the receiver over mutual TLS (the bank's certificate) that sends
    ``start`` at once, then ``then`` a byte every :data:`PACE` seconds, until it is answered
    or the bytes run out."""

    def __init__(self, served: ServedReceiver, context: ssl.SSLContext) -> None:
        self.served = served
        self.context = context
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self._sending: asyncio.Task[None] | None = None

    async def open(self) -> SlowSender:
        self.reader, self.writer = await asyncio.open_connection(
            "127.0.0.1", self.served.port, ssl=self.context, server_hostname="127.0.0.1"
        )
        return self

    def send(self, start: bytes, then: bytes = b"") -> None:
        assert self.writer is not None
        writer = self.writer

        async def sending() -> None:
            writer.write(start)
            await writer.drain()
            for position in range(len(then)):
                await asyncio.sleep(PACE)  # the pace of the slow sender, not a wait
                writer.write(then[position : position + 1])
                await writer.drain()

        self._sending = asyncio.create_task(sending())

    async def answer(self) -> Answer:
        """The answer; the sender stops sending once it has it."""
        assert self.reader is not None
        async with asyncio.timeout(WAIT_SECONDS):
            answer = await read_answer(self.reader)
        await self.stop()
        return answer

    async def closed(self) -> bool:
        """Whether the receiver closed the connection, and sent nothing more."""
        assert self.reader is not None
        async with asyncio.timeout(WAIT_SECONDS):
            try:
                rest = await self.reader.read()
            except (ConnectionResetError, ssl.SSLError):
                return True
        return rest == b""

    async def stop(self) -> None:
        sending, self._sending = self._sending, None
        if sending is not None:
            sending.cancel()
            await asyncio.wait([sending])
            if not sending.cancelled():
                sending.exception()  # retrieved: the receiver may have closed under it

    async def close(self) -> None:
        await self.stop()
        if self.writer is not None:
            self.writer.close()
            with contextlib.suppress(ConnectionError, ssl.SSLError):
                await self.writer.wait_closed()


def request_head(served: ServedReceiver, source: str, length: int | None = None) -> bytes:
    lines = [f"POST {served.config.path(source)} HTTP/1.1", "Host: 127.0.0.1"]
    lines.append("Content-Type: application/json")
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("ascii")


async def test_a_slow_header_sender_is_cut_off_at_the_deadline(
    serve: Serve, bank_pki: BankPki, shared_db: ReceiverDatabase
) -> None:
    served = serve(slow_config(bank_pki, shared_db))
    context = bank_pki.context(bank_pki.bank)
    before = shared_db.snapshot()
    # Headers a byte at a time: each byte comes well within any keep-alive timeout, the
    # headers never end.
    slow = await SlowSender(served, context).open()
    try:
        endless_header = b"X-Slow: " + b"a" * 100_000
        slow.send(request_head(served, "pix")[:-2], endless_header)
        answer = await slow.answer()
        assert answer.status == 408
        assert answer.headers["connection"] == "close"
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json() == {
            "title": "Request Timeout",
            "status": 408,
            "detail": f"The request's headers did not arrive within {DEADLINE:g} s.",
        }
        assert await slow.closed()
    finally:
        await slow.close()
    assert served.metric(REJECTED, reason="header_timeout") == 1

    # A connection that sends nothing at all: closed, nothing to answer.
    silent = await SlowSender(served, context).open()
    try:
        assert await silent.closed()
    finally:
        await silent.close()
    assert served.metric(REJECTED, reason="header_timeout") == 2

    # A kept-alive connection: its first request answered, the next one's headers too slow.
    kept = await SlowSender(served, context).open()
    try:
        body = body_bytes(pix_body(pix_item()))
        kept.send(request_head(served, "pix", len(body)) + body)
        first = await kept.answer()
        assert (first.status, first.json()) == (200, {"items": 1, "applied": 1})
        kept.send(b"", request_head(served, "pix", len(body)))
        second = await kept.answer()
        assert second.status == 408
        assert second.json()["detail"] == (
            f"The request's headers did not arrive within {DEADLINE:g} s."
        )
        assert await kept.closed()
    finally:
        await kept.close()
    assert served.metric(REJECTED, reason="header_timeout") == 3
    after = shared_db.snapshot()
    assert len(after["notifications"]) == len(before["notifications"]) + 1
    assert after["dead_letters"] == before["dead_letters"]


async def test_a_slow_body_sender_is_cut_off_and_holds_no_database_connection(
    serve: Serve, bank_pki: BankPki, shared_db: ReceiverDatabase
) -> None:
    store = ReceiverStore(shared_db.receiver_conninfo, min_size=1, max_size=1, timeout=5.0)
    served = serve(slow_config(bank_pki, shared_db), store)
    context = bank_pki.context(bank_pki.bank)
    bank = Bank(served, context)
    before = shared_db.snapshot()
    body = body_bytes(pix_body(pix_item()))
    slow = await SlowSender(served, context).open()
    try:
        slow.send(request_head(served, "pix", len(body)), body)
        # Its request is being served (the headers are in), its body still coming: the
        # pool's one connection is not taken, another delivery goes through.
        await await_until(
            lambda: len(served.server.server_state.tasks) == 1, "the slow request being served"
        )
        meanwhile = await asyncio.to_thread(bank.post, "pix", pix_body(pix_item()))
        assert (meanwhile.status_code, meanwhile.json()) == (200, {"items": 1, "applied": 1})
        answer = await slow.answer()
        assert answer.status == 408
        assert answer.headers["connection"] == "close"
        assert answer.json()["detail"] == (
            f"The request's body did not arrive within {DEADLINE:g} s."
        )
        assert await slow.closed()
    finally:
        await slow.close()
        bank.close()
    assert served.metric(REJECTED, reason="body_timeout") == 1
    assert served.metric(REJECTED, reason="header_timeout") == 0
    # nothing of the slow body was stored, not even as a dead letter
    after = shared_db.snapshot()
    assert len(after["notifications"]) == len(before["notifications"]) + 1
    assert after["dead_letters"] == before["dead_letters"]
    assert served.metric("treasury_receiver_items_received_total", source="pix") == 1


def test_the_deadlines_default_to_10_and_30_seconds_and_are_checked(
    bank_pki: BankPki,
) -> None:
    config = make_config(bank_pki, "dbname=x")
    assert (config.header_timeout, config.body_timeout) == (10.0, 30.0)
    given = make_config(bank_pki, "dbname=x", listen={"header_timeout": 2, "body_timeout": 4.5})
    assert (given.header_timeout, given.body_timeout) == (2.0, 4.5)
    for name, value in (
        ("header_timeout", 0),
        ("body_timeout", -1),
        ("header_timeout", "10"),
        ("body_timeout", True),
        ("body_timeout", 601),
    ):
        with pytest.raises(ConfigError, match=f"listen.{name}"):
            make_config(bank_pki, "dbname=x", listen={name: value})


# The audit chain sealed by the receiver ------------------------------------------------------


async def test_the_receivers_heartbeat_seals_the_audit_rows_left_unsealed(
    team_databases: TeamDatabases,
) -> None:
    """An audit row written while another transaction held the chain's head stays unsealed
    until someone seals it; with no desktop running, the receiver's heartbeat does."""
    db = new_receiver_database(team_databases)
    holder = db.connect()  # the administrator holds the head, as a sealing transaction would
    holder.execute("BEGIN")
    holder.execute("SELECT * FROM treasury.audit_head FOR UPDATE")
    with db.connect(db.maker_login) as maker:
        maker.execute(
            "INSERT INTO treasury.audit (at, profile, action, outcome) VALUES ('', 'p', %s, 'ok')",
            ("test.unsealed",),
        )
    holder.execute("COMMIT")
    holder.close()

    def unsealed() -> int:
        [(count,)] = db.rows("SELECT count(*) FROM treasury.audit WHERE seq IS NULL")
        return int(count)

    assert unsealed() == 1
    store = ReceiverStore(db.receiver_conninfo, min_size=1, max_size=1, timeout=5.0)
    await store.open(wait=True)
    try:
        await store.beat("rx-seal", datetime.now(UTC), None, "https://rx.example/")
    finally:
        await store.close()
    assert unsealed() == 0
    [(action, seq)] = db.rows(
        "SELECT action, seq FROM treasury.audit WHERE action = 'test.unsealed'"
    )
    assert action == "test.unsealed" and seq is not None
