"""The receiver served by uvicorn over mutual TLS on 127.0.0.1, writing to a real team
database: who may call (the handshake, the pin, the secret header, the proxy), what each
body gets (200 once stored and applied, 400 kept as a dead letter, 413, 503 while the
database is away, nothing lost), trust but match, many receivers, the figures, the
receiver login's privileges and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from psycopg import errors, sql

from tests.ledger_backends import TeamDatabases
from tests.receiver.conftest import (
    ANOTHER_KEY,
    OUR_KEY,
    SECRET,
    Bank,
    BankPki,
    ReceiverDatabase,
    ServedReceiver,
    body_bytes,
    cashout_body,
    cobr_item,
    config_document,
    credit_body,
    e2e_id,
    fingerprint,
    make_config,
    new_receiver_database,
    pix_body,
    pix_item,
    rec_item,
    toml_text,
    transfer_body,
    txid,
)
from tests.waiting import WAIT_SECONDS, wait_until
from treasury_app.ledger.team.receiver_schema import EVENTS_CHANNEL
from treasury_app.receiver.app import RETRY_AFTER_SECONDS
from treasury_app.receiver.store import ReceiverStore

Serve = Callable[..., ServedReceiver]


def notification_rows(db: ReceiverDatabase, ref: str) -> list[tuple[str, str, str]]:
    return [
        (str(source), str(outcome), str(detail))
        for source, outcome, detail in db.rows(
            "SELECT source, outcome, detail FROM treasury.notifications WHERE ref = %s ORDER BY id",
            ref,
        )
    ]


# Who may call: the TLS handshake --------------------------------------------------------------


def test_a_certificate_of_another_ca_or_none_ends_the_handshake(
    shared: ServedReceiver, bank_pki: BankPki, shared_db: ReceiverDatabase
) -> None:
    before = shared_db.snapshot()
    body = body_bytes(pix_body(pix_item()))
    for client in (bank_pki.stranger, None):
        with (
            httpx.Client(base_url=shared.origin, verify=bank_pki.context(client)) as http,
            pytest.raises(httpx.TransportError),  # no HTTP status: the connection ends
        ):
            http.post("/pix", content=body)
    assert shared_db.snapshot() == before
    # the bank's own certificate is answered
    with httpx.Client(base_url=shared.origin, verify=bank_pki.context(bank_pki.bank)) as http:
        assert http.get("/healthz").json() == {"status": "ok", "receiver": shared.config.name}


def test_a_pinned_receiver_closes_other_leaves_of_the_same_ca(
    serve: Serve, bank_pki: BankPki, shared_db: ReceiverDatabase
) -> None:
    pinned = serve(
        make_config(
            bank_pki,
            shared_db.receiver_conninfo,
            bank={"pin_sha256": [fingerprint(bank_pki.bank_two[0]).upper()]},
        )
    )
    item = pix_item()
    with (
        httpx.Client(base_url=pinned.origin, verify=bank_pki.context(bank_pki.bank)) as http,
        pytest.raises(httpx.TransportError),
    ):
        http.post("/pix", content=body_bytes(pix_body(item)))
    assert notification_rows(shared_db, item["endToEndId"]) == []
    assert pinned.metric("treasury_receiver_rejected_total", reason="pin") == 1
    with httpx.Client(base_url=pinned.origin, verify=bank_pki.context(bank_pki.bank_two)) as http:
        answer = http.post("/pix", content=body_bytes(pix_body(item)))
    assert (answer.status_code, answer.json()) == (200, {"items": 1, "applied": 1})
    assert notification_rows(shared_db, item["endToEndId"]) == [("pix", "applied", "")]

    by_subject = serve(
        make_config(bank_pki, shared_db.receiver_conninfo, bank={"pin_subject": "CN=bank2"})
    )
    with (
        httpx.Client(base_url=by_subject.origin, verify=bank_pki.context(bank_pki.bank)) as http,
        pytest.raises(httpx.TransportError),
    ):
        http.get("/healthz")
    client = bank_pki.context(bank_pki.bank_two)
    with httpx.Client(base_url=by_subject.origin, verify=client) as http:
        assert http.get("/healthz").status_code == 200


# Who may call: the Accounts API's secret header -----------------------------------------------


def test_accounts_routes_need_the_secret_header(bank: Bank, shared_db: ReceiverDatabase) -> None:
    entry_id, key = shared_db.journal_payment()
    before = shared_db.snapshot()
    refusals = bank.served.metric("treasury_receiver_rejected_total", reason="secret")
    body = transfer_body(idempotency_key=key)
    for source, document in (
        ("transfer", body),
        ("cashout", cashout_body(idempotency_key=key, end_to_end_id=e2e_id())),
        ("receive", credit_body("RECEIVE")),
        ("refund", credit_body("REFUND")),
    ):
        for secret in (None, "", SECRET + "x", SECRET[:-1], SECRET.upper()):
            answer = bank.post(source, document, secret=secret)
            assert answer.status_code == 401, (source, secret, answer.text)
            assert answer.json()["title"] == "Unauthorized"
    assert shared_db.snapshot() == before  # nothing stored, not even a dead letter
    assert bank.served.metric("treasury_receiver_rejected_total", reason="secret") == refusals + 20
    # the QR Codes API's callbacks carry no secret (the certificate is their authentication)
    assert bank.post("pix", pix_body(pix_item()), secret=None).status_code == 200
    answer = bank.post("transfer", body)
    assert (answer.status_code, answer.json()) == (200, {"items": 1, "applied": 1})
    assert shared_db.entry(entry_id)["bank_status"] == "SETTLED"


# Each item once -------------------------------------------------------------------------------


def test_a_replayed_notification_changes_nothing(bank: Bank, shared_db: ReceiverDatabase) -> None:
    entry_id, key = shared_db.journal_payment()
    transfer = transfer_body(idempotency_key=key, status="PROCESSING")
    first = bank.post("transfer", transfer)
    assert first.json() == {"items": 1, "applied": 1}
    pix = pix_body(pix_item(), pix_item(chave=ANOTHER_KEY))
    assert bank.post("pix", pix).json() == {"items": 2, "applied": 1, "unmatched": 1}
    before = shared_db.snapshot()
    for _ in range(3):
        again = bank.post("transfer", transfer)
        assert (again.status_code, again.json()) == (200, {"items": 1, "duplicate": 1})
        again = bank.post("pix", pix)
        assert (again.status_code, again.json()) == (200, {"items": 2, "duplicate": 2})
    assert shared_db.snapshot() == before  # rows and journal unchanged
    assert shared_db.entry(entry_id)["bank_status"] == "PROCESSING"
    assert [n for n in shared_db.history_notes(entry_id) if n[2].startswith("webhook")] == [
        ("ACCEPTED", "PROCESSING", "webhook: transfer")
    ]


def test_several_items_of_which_one_was_applied(bank: Bank, shared_db: ReceiverDatabase) -> None:
    old, new_one, new_two = pix_item(), pix_item(txid=txid()), pix_item()
    assert bank.post("pix", pix_body(old)).json() == {"items": 1, "applied": 1}
    before = shared_db.count("notifications")
    answer = bank.post("pix", pix_body(new_one, old, new_two))
    assert (answer.status_code, answer.json()) == (200, {"items": 3, "applied": 2, "duplicate": 1})
    assert shared_db.count("notifications") == before + 2
    for item in (old, new_one, new_two):
        assert notification_rows(shared_db, item["endToEndId"]) == [("pix", "applied", "")]
        assert shared_db.count("received_pix", "end_to_end_id = %s", item["endToEndId"]) == 1
    # the same Pix again once one of its refunds changed state: a new item, applied
    refunded = {**old, "devolucoes": pix_item(refunds=[("D7", "DEVOLVIDO")])["devolucoes"]}
    assert bank.post("pix", pix_body(refunded)).json() == {"items": 1, "applied": 1}
    [(refunds,)] = shared_db.rows(
        "SELECT refunds FROM treasury.received_pix WHERE end_to_end_id = %s", old["endToEndId"]
    )
    assert refunds == [{"id": "D7", "status": "DEVOLVIDO", "valor": "1.00"}]


def test_an_applied_item_is_announced_to_the_desktops(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    item = pix_item()
    with shared_db.connect() as listener:
        listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(EVENTS_CHANNEL)))
        assert bank.post("pix", pix_body(item)).status_code == 200
        # unmatched and duplicate items change nothing: no announcement
        assert bank.post("pix", pix_body(item, pix_item(chave=ANOTHER_KEY))).status_code == 200
        # A marker sent after those answers: notifications come in commit order, so whatever
        # the receiver announced is read before it (no waiting for "nothing more").
        with shared_db.connect() as marker:
            marker.execute("SELECT pg_notify(%s, 'marker')", (EVENTS_CHANNEL,))
        payloads = []
        for notice in listener.notifies(timeout=WAIT_SECONDS):
            if notice.payload == "marker":
                break
            payloads.append(notice.payload)
        else:
            raise AssertionError(f"the marker never came; before it: {payloads}")
    assert payloads == [f"pix:{item['endToEndId']}"]


# Bodies the receiver cannot take --------------------------------------------------------------


def test_a_malformed_body_is_a_400_kept_as_a_dead_letter(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    before = shared_db.count("notifications")
    refused = bank.served.metric("treasury_receiver_rejected_total", reason="bad_body")
    cases = [
        ("pix", b'{"pix": [{"endToEndId": '),
        ("rec", b'{"recs": "\xff"}'),
        ("cobr", body_bytes({"cobsr": [{"idRec": "RR1"}]})),
        ("cashout", body_bytes(transfer_body(idempotency_key="K9"))),
    ]
    for source, body in cases:
        answer = bank.post(source, body)
        assert answer.status_code == 400, (source, answer.text)
        assert answer.headers["content-type"] == "application/problem+json"
        [(route, peer, reason, size, stored)] = shared_db.rows(
            "SELECT route, peer, reason, size, body FROM treasury.dead_letters"
            " ORDER BY id DESC LIMIT 1"
        )
        assert (route, peer, size, bytes(stored)) == (source, "127.0.0.1", len(body), body)
        assert reason == answer.json()["detail"]
    reasons = [r for (r,) in shared_db.rows("SELECT reason FROM treasury.dead_letters")]
    assert reasons[-4].startswith("the body is not JSON")
    assert reasons[-3].startswith("the body is not UTF-8")
    assert reasons[-2].startswith("the body is not a cobr notification")
    assert reasons[-1] == "a 'TRANSFER' notification was posted to the cashout path"
    assert shared_db.count("notifications") == before
    assert bank.served.metric("treasury_receiver_rejected_total", reason="bad_body") == refused + 4


def test_a_body_over_the_cap_is_a_413_and_nothing_is_stored(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    before = shared_db.snapshot()
    refused = bank.served.metric("treasury_receiver_rejected_total", reason="too_large")
    big = body_bytes(pix_body(pix_item(), pix_item()))[:-2] + b" " * (2 * 1024 * 1024) + b"]}"
    answer = bank.post("pix", big)
    assert answer.status_code == 413
    assert answer.json()["detail"] == f"Bodies are at most {1024 * 1024} bytes."

    def chunks() -> object:  # no Content-Length: the cap is counted while reading
        for _ in range(32):
            yield b" " * 65536

    streamed = bank.http.post("/pix", content=chunks(), headers={"content-type": "text/plain"})
    assert streamed.status_code == 413
    assert shared_db.snapshot() == before
    assert bank.served.metric("treasury_receiver_rejected_total", reason="too_large") == refused + 2


def test_unknown_paths_and_methods(bank: Bank, shared_db: ReceiverDatabase) -> None:
    before = shared_db.snapshot()
    assert bank.post("pix/extra", pix_body(pix_item())).status_code == 404
    assert bank.http.get("/pix").status_code == 405
    assert shared_db.snapshot() == before


def test_an_absurdly_long_identifier_is_a_bad_body_not_an_outage(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    long_id = "E" + os.urandom(2000).hex()  # BCB's endToEndId has 32 characters
    answer = bank.post("pix", pix_body(pix_item(end_to_end_id=long_id)))
    assert answer.status_code == 400, answer.text
    assert "of a pix item has 4001 characters" in answer.json()["detail"]
    assert shared_db.count("dead_letters", "route = %s AND size > 4000", "pix") >= 1


# Trust but match ------------------------------------------------------------------------------


def test_a_pix_that_is_not_ours_is_stored_unmatched(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    stranger = pix_item(chave=ANOTHER_KEY, txid=txid())
    no_key = pix_item(chave=None, txid=txid())
    answer = bank.post("pix", pix_body(stranger, no_key))
    assert answer.json() == {"items": 2, "unmatched": 2}
    for item in (stranger, no_key):
        assert notification_rows(shared_db, item["endToEndId"]) == [
            ("pix", "unmatched", "neither a key nor a txid of ours")
        ]
        assert shared_db.count("received_pix", "end_to_end_id = %s", item["endToEndId"]) == 0
        assert shared_db.count("charge_states", "txid = %s", item["txid"]) == 0
    # a txid we created, on a key we did not name: ours; the charge is concluded
    charge = txid()
    shared_db.add_refs(("txid", charge))
    paid = pix_item(chave=ANOTHER_KEY, txid=charge)
    assert bank.post("pix", pix_body(paid)).json() == {"items": 1, "applied": 1}
    assert shared_db.rows(
        "SELECT status, end_to_end_id FROM treasury.charge_states WHERE txid = %s", charge
    ) == [("CONCLUIDA", paid["endToEndId"])]


def test_recurrences_and_recurring_charges_of_ours(bank: Bank, shared_db: ReceiverDatabase) -> None:
    ours, theirs = f"RR{txid()}", f"RR{txid()}"
    shared_db.add_refs(("idrec", ours))
    answer = bank.post("rec", {"recs": [rec_item(ours), rec_item(theirs)]})
    assert answer.json() == {"items": 2, "applied": 1, "unmatched": 1}
    assert shared_db.rows(
        "SELECT status FROM treasury.recurrence_states WHERE id_rec = ANY(%s)", [ours, theirs]
    ) == [("APROVADA",)]
    charge, foreign = txid(), txid()
    cobsr = [
        cobr_item(ours, charge),
        cobr_item(theirs, foreign),
        cobr_item(ours, charge, "CONCLUIDA", ["PAGA"]),
    ]
    assert bank.post("cobr", {"cobsr": cobsr}).json() == {
        "items": 3,
        "applied": 2,
        "unmatched": 1,
    }
    assert shared_db.rows(
        "SELECT txid, id_rec, status, attempts FROM treasury.cobr_states WHERE txid = ANY(%s)",
        [charge, foreign],
    ) == [(charge, ours, "CONCLUIDA", 1)]


def test_a_transfer_of_our_journal_moves_its_bank_status(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    entry_id, key = shared_db.journal_payment(status="ON_QUEUE")
    e2e = e2e_id()
    steps = [("ON_QUEUE", "13:00:01"), ("PROCESSING", "13:00:02"), ("SETTLED", "13:00:04")]
    outcomes = []
    for status, at in steps:
        body = transfer_body(
            idempotency_key=key, end_to_end_id=e2e, status=status, at=f"2026-11-18T{at}Z"
        )
        outcomes.append(bank.post("transfer", body).json())
    assert outcomes == [
        {"items": 1, "unchanged": 1},  # the bank's answer had said ON_QUEUE already
        {"items": 1, "applied": 1},
        {"items": 1, "applied": 1},
    ]
    assert shared_db.entry(entry_id) == {
        "state": "ACCEPTED",
        "bank_status": "SETTLED",
        "final": True,
        "end_to_end_id": e2e,
        "bank_id": "4711",
    }
    assert shared_db.history_notes(entry_id)[-2:] == [
        ("ACCEPTED", "PROCESSING", "webhook: transfer"),
        ("ACCEPTED", "SETTLED", "webhook: transfer"),
    ]
    rows = shared_db.rows(
        "SELECT outcome, entry_id, detail FROM treasury.notifications WHERE ref = %s ORDER BY id",
        key,
    )
    assert rows == [
        ("unchanged", entry_id, "already ON_QUEUE"),
        ("applied", entry_id, ""),
        ("applied", entry_id, ""),
    ]

    # a final payment is not reopened by a later (or late) non-final notification
    before = shared_db.snapshot()
    late = transfer_body(
        idempotency_key=key, end_to_end_id=e2e, status="PROCESSING", at="2026-11-18T13:00:09Z"
    )
    assert bank.post("transfer", late).json() == {"items": 1, "unchanged": 1}
    failed = cashout_body(idempotency_key=key, end_to_end_id=e2e)
    assert bank.post("cashout", failed).json() == {"items": 1, "unchanged": 1}
    after = shared_db.snapshot()
    assert after["journal"] == before["journal"]
    assert after["journal_history"] == before["journal_history"]
    assert shared_db.entry(entry_id)["bank_status"] == "SETTLED"


def test_matching_by_end_to_end_id_cashout_and_what_is_not_ours(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    e2e = e2e_id()
    entry_id, key = shared_db.journal_payment(status="ON_QUEUE", end_to_end_id=e2e)
    # a notification without the idempotency key, naming the endToEndId
    processing = transfer_body(idempotency_key=None, end_to_end_id=e2e, status="PROCESSING")
    assert bank.post("transfer", processing).json() == {"items": 1, "applied": 1}
    assert shared_db.entry(entry_id)["bank_status"] == "PROCESSING"
    # the bank cancelled it: final
    assert bank.post("cashout", cashout_body(idempotency_key=key, end_to_end_id=e2e)).json() == {
        "items": 1,
        "applied": 1,
    }
    assert shared_db.entry(entry_id) | {"bank_id": None} == {
        "state": "ACCEPTED",
        "bank_status": "CANCELED",
        "final": True,
        "end_to_end_id": e2e,
        "bank_id": None,
    }
    # somebody else's payment: unmatched, nothing changes
    before = shared_db.snapshot()["journal"]
    stranger = transfer_body(idempotency_key="NotOurKey123", status="SETTLED")
    assert bank.post("transfer", stranger).json() == {"items": 1, "unmatched": 1}
    assert notification_rows(shared_db, "NotOurKey123") == [
        ("transfer", "unmatched", "no payment of our journal")
    ]
    assert shared_db.snapshot()["journal"] == before


def test_an_intent_waiting_for_approval_is_not_moved(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    entry_id, key = shared_db.journal_payment(send=False)
    before = shared_db.entry(entry_id)
    assert bank.post("transfer", transfer_body(idempotency_key=key)).json() == {
        "items": 1,
        "unchanged": 1,
    }
    assert shared_db.entry(entry_id) == before == {**before, "state": "PREPARED"}


def test_credits_to_our_account(bank: Bank, shared_db: ReceiverDatabase) -> None:
    charge = txid()
    shared_db.add_refs(("txid", charge))
    receive = credit_body("RECEIVE", tx_id=charge)
    refund = credit_body("REFUND")
    assert bank.post("receive", receive).json() == {"items": 1, "applied": 1}
    assert bank.post("refund", refund).json() == {"items": 1, "applied": 1}
    assert bank.post("refund", refund).json() == {"items": 1, "duplicate": 1}
    rows = shared_db.rows(
        "SELECT event_key, kind, end_to_end_id, amount FROM treasury.account_events"
        " WHERE end_to_end_id = ANY(%s) ORDER BY received_at",
        [receive["data"]["endToEndId"], refund["data"]["endToEndId"]],
    )
    assert [(k, kind, e2e, str(amount)) for k, kind, e2e, amount in rows] == [
        (f"receive|{receive['data']['id']}", "receive", receive["data"]["endToEndId"], "25.50"),
        (f"refund|{refund['data']['id']}", "refund", refund["data"]["endToEndId"], "25.50"),
    ]
    assert shared_db.rows("SELECT status FROM treasury.charge_states WHERE txid = %s", charge) == [
        ("CONCLUIDA",)
    ]


# Health and figures ---------------------------------------------------------------------------


def test_healthz_and_metrics(serve: Serve, bank_pki: BankPki, shared_db: ReceiverDatabase) -> None:
    served = serve(make_config(bank_pki, shared_db.receiver_conninfo))
    bank = Bank(served, bank_pki.context(bank_pki.bank))
    try:
        health = bank.get("/healthz")
        assert (health.status_code, health.json()) == (
            200,
            {"status": "ok", "receiver": served.config.name},
        )
        item = pix_item()
        bank.post("pix", pix_body(item, pix_item(chave=ANOTHER_KEY)))
        bank.post("pix", pix_body(item))
        bank.post("pix", b"{")
        bank.post("transfer", transfer_body(idempotency_key="x"), secret=None)
        bank.post("rec", b" " * (1024 * 1024 + 1))
        page = bank.get("/metrics")
    finally:
        bank.close()
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/plain; version=")
    text = page.text
    assert served.metric("treasury_receiver_items_received_total", source="pix") == 3
    assert served.metric("treasury_receiver_items_total", source="pix", outcome="applied") == 1
    assert served.metric("treasury_receiver_items_total", source="pix", outcome="unmatched") == 1
    assert served.metric("treasury_receiver_items_total", source="pix", outcome="duplicate") == 1
    for why in ("bad_body", "secret", "too_large"):
        assert served.metric("treasury_receiver_rejected_total", reason=why) == 1
    assert served.metric("treasury_receiver_answer_seconds_count", route="pix") == 3
    assert served.metric("treasury_receiver_answer_seconds_count", route="transfer") == 1
    assert served.metric("treasury_receiver_answer_seconds_bucket", route="pix", le="+Inf") == 3
    assert "# TYPE treasury_receiver_answer_seconds histogram" in text
    assert 'treasury_receiver_answer_seconds_bucket{le="0.05",route="pix"}' in text
    # the page as served says the same as the registry
    served_line = next(
        line
        for line in text.splitlines()
        if line.startswith('treasury_receiver_items_received_total{source="pix"}')
    )
    assert float(served_line.split()[-1]) == 3
    # the heartbeat: desktops show "Notifications: live"
    wait_until(
        lambda: shared_db.count("receivers", "name = %s", served.config.name) == 1,
        "the receiver's heartbeat row",
    )
    [(login, started, seen)] = shared_db.rows(
        "SELECT login, started_at, seen_at FROM treasury.receivers WHERE name = %s",
        served.config.name,
    )
    assert login == shared_db.receiver_login and seen >= started


# The database away ----------------------------------------------------------------------------


def backends_waiting(db: ReceiverDatabase, count: int) -> Callable[[], bool]:
    def waiting() -> bool:
        with db.team.server.connect() as conn:
            row = conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND usename = %s"
                " AND wait_event_type = 'Lock'",
                (db.name, db.receiver_login),
            ).fetchone()
        return row is not None and row[0] >= count

    return waiting


def allow_connections(db: ReceiverDatabase, allowed: bool) -> None:
    with db.team.server.connect() as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
                sql.Identifier(db.name), sql.Literal(allowed)
            )
        )
        if not allowed:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = %s AND usename = %s",
                (db.name, db.receiver_login),
            )


def test_the_database_stopped_mid_delivery_answers_503_and_loses_nothing(
    serve: Serve, bank_pki: BankPki, team_databases: TeamDatabases
) -> None:
    db = new_receiver_database(team_databases, ("key", OUR_KEY))
    store = ReceiverStore(db.receiver_conninfo, min_size=1, max_size=4, timeout=0.5)
    served = serve(make_config(bank_pki, db.receiver_conninfo), store)
    bank = Bank(served, bank_pki.context(bank_pki.bank))
    entry_id, key = db.journal_payment()
    item = pix_item()
    body = pix_body(item, pix_item())
    transfer = transfer_body(idempotency_key=key)
    locker = db.connect()
    try:
        # The delivery starts and waits on the table; the database goes away under it.
        locker.execute("BEGIN")
        locker.execute("LOCK TABLE treasury.notifications IN EXCLUSIVE MODE")
        with ThreadPoolExecutor(1) as pool:
            pending = pool.submit(bank.post, "pix", body)
            wait_until(backends_waiting(db, 1), "the delivery waiting for the table lock")
            allow_connections(db, False)
            answer = pending.result(timeout=WAIT_SECONDS)
        assert answer.status_code == 503, answer.text
        assert answer.headers["retry-after"] == str(RETRY_AFTER_SECONDS)
        assert "nothing was stored" in answer.json()["detail"]
        locker.execute("ROLLBACK")
        # While it is away: every notification and the health check answer 503.
        down = bank.post("transfer", transfer)
        assert (down.status_code, down.headers["retry-after"]) == (503, "30")
        health = bank.get("/healthz")
        assert (health.status_code, health.json()["status"]) == (503, "unavailable")
        bad = bank.post("pix", b"not json")  # a dead letter cannot be kept either: 503
        assert bad.status_code == 503
        assert locker.execute("SELECT count(*) FROM treasury.notifications").fetchone() == (0,)
        assert locker.execute("SELECT count(*) FROM treasury.dead_letters").fetchone() == (0,)
    finally:
        locker.close()
        allow_connections(db, True)
    # The bank retries the same notifications: applied, once.
    answers: dict[str, httpx.Response] = {}
    for source, document in (("pix", body), ("transfer", transfer)):

        def delivered(source: str = source, document: bytes = document) -> bool:
            answers[source] = bank.post(source, document)
            return answers[source].status_code != 503

        wait_until(delivered, f"the receiver back, taking the {source} notification")
    bank_again = [bank.post("pix", body).json(), bank.post("transfer", transfer).json()]
    bank.close()
    assert answers["pix"].json() == {"items": 2, "applied": 2}
    assert answers["transfer"].json() == {"items": 1, "applied": 1}
    assert bank_again == [{"items": 2, "duplicate": 2}, {"items": 1, "duplicate": 1}]
    assert db.count("notifications") == 3
    assert db.count("received_pix", "end_to_end_id = %s", item["endToEndId"]) == 1
    assert db.entry(entry_id)["bank_status"] == "SETTLED"
    assert served.metric("treasury_receiver_rejected_total", reason="unavailable") >= 3


# Many receivers -------------------------------------------------------------------------------


def test_two_receivers_get_the_same_notification_at_once(
    serve: Serve, bank_pki: BankPki, team_databases: TeamDatabases
) -> None:
    db = new_receiver_database(team_databases, ("key", OUR_KEY))
    first = serve(make_config(bank_pki, db.receiver_conninfo))
    second = serve(make_config(bank_pki, db.receiver_conninfo))
    assert first.port != second.port
    banks = [Bank(s, bank_pki.context(bank_pki.bank)) for s in (first, second)]
    entry_id, key = db.journal_payment()
    item = pix_item(txid=txid())
    db.add_refs(("txid", item["txid"]))
    try:
        # Both deliveries wait on the table, then go at once: the unique key decides.
        with db.connect() as locker, ThreadPoolExecutor(4) as pool:
            locker.execute("BEGIN")
            locker.execute("LOCK TABLE treasury.notifications IN EXCLUSIVE MODE")
            answers = [
                pool.submit(b.post, source, document)
                for b in banks
                for source, document in (
                    ("pix", pix_body(item)),
                    ("transfer", transfer_body(idempotency_key=key)),
                )
            ]
            wait_until(backends_waiting(db, 4), "the four deliveries waiting for the table lock")
            locker.execute("COMMIT")
            results = [a.result(timeout=WAIT_SECONDS) for a in answers]
        assert all(r.status_code == 200 for r in results)
        pix_outcomes = sorted(str(results[i].json()) for i in (0, 2))
        assert pix_outcomes == sorted(
            [str({"items": 1, "applied": 1}), str({"items": 1, "duplicate": 1})]
        )
        transfer_outcomes = sorted(str(results[i].json()) for i in (1, 3))
        assert transfer_outcomes == pix_outcomes
        assert notification_rows(db, item["endToEndId"]) == [("pix", "applied", "")]
        assert db.count("received_pix") == 1 and db.count("charge_states") == 1
        webhook_notes = [n for n in db.history_notes(entry_id) if n[2].startswith("webhook")]
        assert webhook_notes == [("ACCEPTED", "SETTLED", "webhook: transfer")]

        # A burst: 30 notifications, each to both receivers at once.
        items = [pix_item() for _ in range(30)]
        with ThreadPoolExecutor(8) as pool:
            burst = list(
                pool.map(
                    lambda job: job[0].post("pix", pix_body(job[1])),
                    [(b, i) for i in items for b in banks],
                )
            )
    finally:
        for b in banks:
            b.close()
    assert all(r.status_code == 200 for r in burst)
    outcomes = [next(k for k in r.json() if k != "items") for r in burst]
    assert outcomes.count("applied") == 30 and outcomes.count("duplicate") == 30
    assert db.count("received_pix") == 31
    applied = first.metric("treasury_receiver_items_total", source="pix", outcome="applied")
    applied += second.metric("treasury_receiver_items_total", source="pix", outcome="applied")
    assert applied == 31


# Behind a reverse proxy -----------------------------------------------------------------------


def test_behind_a_proxy_the_verified_header_is_trusted_from_the_proxy_only(
    serve: Serve, bank_pki: BankPki, shared_db: ReceiverDatabase
) -> None:
    plain = {"listen": {"certificate": None, "key": None}, "bank": {"ca": None}}
    proxied = serve(
        make_config(
            bank_pki,
            shared_db.receiver_conninfo,
            listen=plain["listen"],
            bank={"ca": None, "proxy_addresses": ["127.0.0.1"]},
        )
    )
    assert proxied.url.startswith("http://")
    proxy = Bank(proxied, None)
    elsewhere = serve(
        make_config(
            bank_pki,
            shared_db.receiver_conninfo,
            listen=plain["listen"],
            bank={"ca": None, "proxy_addresses": ["10.20.30.40"]},
        )
    )
    forger = Bank(elsewhere, None)
    pinned = serve(
        make_config(
            bank_pki,
            shared_db.receiver_conninfo,
            listen=plain["listen"],
            bank={
                "ca": None,
                "proxy_addresses": ["127.0.0.1"],
                "pin_sha256": [fingerprint(bank_pki.bank[0])],
            },
        )
    )
    pinned_proxy = Bank(pinned, None)
    try:
        accepted = pix_item()
        verified = {"X-SSL-Client-Verify": "SUCCESS"}
        answer = proxy.post("pix", pix_body(accepted), headers=verified)
        assert (answer.status_code, answer.json()) == (200, {"items": 1, "applied": 1})
        refused = pix_item()
        for headers in ({"X-SSL-Client-Verify": "FAILED"}, {}, {"X-SSL-Client-Verify": "NONE"}):
            assert proxy.post("pix", pix_body(refused), headers=headers).status_code == 403
        # the secret is still required behind the proxy
        unsigned = proxy.post("receive", credit_body(), headers=verified, secret=None)
        assert unsigned.status_code == 401
        # a caller that is not the configured proxy: 403 even with forged headers
        forged = forger.post("pix", pix_body(refused), headers=verified)
        assert (forged.status_code, forged.json()["title"]) == (403, "Forbidden")
        # with a pin: the certificate the proxy forwarded must match it
        leaf = quote(bank_pki.bank[0].read_text())
        other_leaf = quote(bank_pki.bank_two[0].read_text())
        for cert, status in ((other_leaf, 403), ("garbage", 403), (leaf, 200)):
            headers = {**verified, "X-SSL-Client-Cert": cert}
            answer = pinned_proxy.post("pix", pix_body(refused), headers=headers)
            assert answer.status_code == status, cert
    finally:
        for client in (proxy, forger, pinned_proxy):
            client.close()
    assert notification_rows(shared_db, accepted["endToEndId"]) == [("pix", "applied", "")]
    assert notification_rows(shared_db, refused["endToEndId"]) == [("pix", "applied", "")]
    assert proxied.metric("treasury_receiver_rejected_total", reason="proxy") == 3
    assert elsewhere.metric("treasury_receiver_rejected_total", reason="proxy") == 1


# Privileges -----------------------------------------------------------------------------------


def test_the_receiver_login_may_only_record_what_the_bank_said(
    shared_db: ReceiverDatabase,
) -> None:
    entry_id, _key = shared_db.journal_payment()
    refused = [
        "SELECT treasury.prepare('PIX_KEY', '', '', 'x@y.z', 1, '', 'INSTANT', 'k1', '{}',"
        " 'test', NULL)",
        f"SELECT treasury.approve({entry_id}, 'hash')",
        f"SELECT treasury.record({entry_id}, 'ACCEPTED', 'SETTLED', true, NULL, NULL, NULL,"
        " 'x', NULL)",
        f"SELECT treasury.release({entry_id}, 'x')",
        f"SELECT treasury.reject({entry_id}, 'x')",
        f"UPDATE treasury.journal SET bank_status = 'SETTLED' WHERE id = {entry_id}",
        "INSERT INTO treasury.journal_history (entry_id, at, state) VALUES (1, '', 'SENT')",
        "DELETE FROM treasury.notifications",
        "DELETE FROM treasury.dead_letters",
        "UPDATE treasury.notifications SET dedupe_key = 'x'",
        "UPDATE treasury.dead_letters SET reason = 'x'",
        "TRUNCATE treasury.notifications",
        "INSERT INTO treasury.our_refs (kind, ref) VALUES ('key', 'mine@example.com')",
        "DELETE FROM treasury.our_refs",
        "DELETE FROM treasury.received_pix",
        "INSERT INTO treasury.audit (at, profile, action, outcome) VALUES ('', 'p', 'a', 'o')",
    ]
    with shared_db.connect(shared_db.receiver_login) as conn:
        for statement in refused:
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
        # what it may do: read the journal, record the bank's word
        [(state,)] = conn.execute(
            "SELECT state FROM treasury.journal WHERE id = %s", (entry_id,)
        ).fetchall()
        assert state == "ACCEPTED"
        [(status,)] = conn.execute(
            "SELECT bank_status FROM treasury.notified_status(%s, 'PROCESSING', false, NULL,"
            " NULL, 'webhook: test')",
            (entry_id,),
        ).fetchall()
        assert status == "PROCESSING"
    # a maker may not speak for the bank
    with shared_db.connect(shared_db.maker_login) as conn:
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute(
                "SELECT treasury.notified_status(%s, 'SETTLED', true, NULL, NULL, 'forged')",
                (entry_id,),
            )
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute(
                "INSERT INTO treasury.notifications (dedupe_key, source, outcome, item)"
                " VALUES ('x', 'pix', 'applied', '{}')"
            )
        conn.execute("SELECT count(*) FROM treasury.notifications")  # people read them
    assert shared_db.entry(entry_id)["bank_status"] == "PROCESSING"


# The command line -----------------------------------------------------------------------------


def receiver_command() -> list[str]:
    script = Path(sys.executable).with_name("treasury-receiver")
    return [str(script)] if script.exists() else [sys.executable, "-m", "treasury_app.receiver"]


def test_check_exits_0_when_ready_and_2_for_a_bad_configuration(
    bank_pki: BankPki, shared_db: ReceiverDatabase, tmp_path: Path
) -> None:
    good = tmp_path / "good.toml"
    good.write_text(toml_text(config_document(bank_pki, shared_db.receiver_conninfo)))
    missing = config_document(bank_pki, shared_db.receiver_conninfo)
    missing["listen"]["certificate"] = str(tmp_path / "absent.crt")
    no_cert = tmp_path / "no-cert.toml"
    no_cert.write_text(toml_text(missing))
    not_toml = tmp_path / "not.toml"
    not_toml.write_text("[listen\nport = ")
    runs = {
        name: subprocess.Popen(
            [*receiver_command(), "--config", str(path), "--check"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, path in (
            ("good", good),
            ("no_cert", no_cert),
            ("not_toml", not_toml),
            ("absent", tmp_path / "absent.toml"),
        )
    }
    results = {}
    for name, process in runs.items():
        out, err = process.communicate(timeout=WAIT_SECONDS)
        results[name] = (process.returncode, out, err)
    assert results["good"][0] == 0, results["good"]
    assert "configuration and database ready" in results["good"][1]
    assert results["no_cert"][0] == 2
    assert "listen.certificate: " in results["no_cert"][2]
    assert "is not a file" in results["no_cert"][2]
    assert results["not_toml"][0] == 2 and "is not TOML" in results["not_toml"][2]
    assert results["absent"][0] == 2 and "cannot read" in results["absent"][2]
    assert SECRET not in "".join(out + err for _code, out, err in results.values())


def test_the_receiver_never_logs_the_secret(bank: Bank, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level("DEBUG"):
        bank.post("transfer", transfer_body(idempotency_key="x"), secret=SECRET + "!")
        bank.post("transfer", transfer_body(idempotency_key="x"))
    assert caplog.records  # the refusal was logged …
    assert SECRET not in caplog.text  # … without the secret
    assert SECRET not in repr(bank.served.config)


def test_a_notice_stored_as_not_ours_is_applied_once_it_is_ours(
    bank: Bank, shared_db: ReceiverDatabase
) -> None:
    """A recurrence's first notice can come before the desktop names its idRec (the bank
    chose it): stored unmatched, then applied when it comes again, once."""
    id_rec = f"RR{txid()}"
    body = {"recs": [rec_item(id_rec)]}
    assert bank.post("rec", body).json() == {"items": 1, "unmatched": 1}
    assert bank.post("rec", body).json() == {"items": 1, "duplicate": 1}  # still not ours
    shared_db.add_refs(("idrec", id_rec))
    assert bank.post("rec", body).json() == {"items": 1, "applied": 1}
    assert bank.post("rec", body).json() == {"items": 1, "duplicate": 1}
    assert shared_db.count("recurrence_states", "id_rec = %s", id_rec) == 1
    assert shared_db.count("notifications", "ref = %s AND outcome = 'applied'", id_rec) == 1


@pytest.mark.skipif(
    sys.platform == "win32",
    reason="the receiver's clean stop on SIGTERM is a POSIX service stop (systemd); on Windows "
    "send_signal(SIGTERM) is TerminateProcess, which runs no handler",
)
def test_the_monitor_listener_serves_metrics_in_plain_http_and_stops_with_the_receiver(
    bank_pki: BankPki, shared_db: ReceiverDatabase, tmp_path: Path
) -> None:
    """``[monitor]``: the host's scraper reads /metrics and /healthz without the bank's
    certificate; the webhooks are not there; SIGTERM stops both listeners."""
    import signal
    import socket

    def free_port() -> int:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])

    port = free_port()
    document = config_document(
        bank_pki, shared_db.receiver_conninfo, monitor={"host": "127.0.0.1", "port": port}
    )
    path = tmp_path / "monitor.toml"
    path.write_text(toml_text(document))
    process = subprocess.Popen(
        [*receiver_command(), "--config", str(path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def answered() -> httpx.Response:
            assert process.poll() is None, process.communicate()
            return httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=WAIT_SECONDS)

        health = wait_until(
            answered, "the monitor listener answering", retry=(httpx.TransportError,)
        )
        assert health.status_code == 200 and health.json()["status"] == "ok"
        metrics = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=WAIT_SECONDS)
        assert metrics.status_code == 200
        assert "treasury_receiver_answer_seconds" in metrics.text
        assert httpx.post(
            f"http://127.0.0.1:{port}/pix", json={}, timeout=WAIT_SECONDS
        ).status_code in (
            404,
            405,
        )
    finally:
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=WAIT_SECONDS)
    # uvicorn shuts down cleanly, then re-raises the signal it caught (systemd: a clean stop)
    assert process.returncode in (0, -signal.SIGTERM), err
    assert "Application shutdown complete" in err
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=WAIT_SECONDS)
