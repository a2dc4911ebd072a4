"""``treasury-admin notifications``: what the webhook receivers stored, as the administrator
reads it — counts by source and outcome, each receiver's heartbeat, the dead letters and the
failed and unmatched items (what the bank sent printed escaped, never the body's bytes)."""

from __future__ import annotations

import datetime as dt
import json
import uuid

import psycopg
import pytest

from tests.ledger.test_team_admin import admin
from tests.ledger_backends import TeamDatabases
from treasury_app.ledger.team import migrations
from treasury_app.ledger.team.receiver_schema import RECEIVER
from treasury_app.receiver.items import parse_body
from treasury_app.receiver.store import ReceiverStore

pytestmark = pytest.mark.usefixtures("team_databases")

OUR_KEY = "caixa@empresa.com.br"
OUR_TXID = "TXIDNOSSO000000000000000001"
URL = "https://hooks.example.com/webhooks"


def pix(number: int, *, key: str = OUR_KEY, txid: str | None = None) -> dict[str, str]:
    item = {
        "endToEndId": f"E12345678202611261000{number:011d}",
        "chave": key,
        "valor": f"{number}.00",
        "horario": "2026-11-26T10:00:00Z",
    }
    if txid:
        item["txid"] = txid
    return item


def body(*items: dict[str, str]) -> bytes:
    return json.dumps({"pix": list(items)}).encode()


def team_with_receiver(team: TeamDatabases) -> tuple[str, str, str]:
    """A fresh team database with our key and txid, and a receiver's login; (admin URL,
    receiver URL, receiver login)."""
    database = team.new_database()
    url = team.server.url(database)
    login = "rcv_" + uuid.uuid4().hex[:8]
    with psycopg.connect(url, autocommit=True) as conn:
        migrations.add_user(conn, login, (RECEIVER,))
        conn.execute(
            "INSERT INTO treasury.our_refs (kind, ref) VALUES ('key', %s), ('txid', %s)",
            (OUR_KEY, OUR_TXID),
        )
    return url, team.server.url(database, user=login), login


async def opened_store(url: str) -> ReceiverStore:
    store = ReceiverStore(url, min_size=1, max_size=2)
    await store.open(wait=True)
    return store


async def test_the_summary_counts_by_source_and_outcome_and_shows_the_heartbeats(
    team_databases: TeamDatabases,
) -> None:
    url, receiver_url, login = team_with_receiver(team_databases)
    code, out, err = admin("--db", url, "notifications")
    assert code == 0, err
    assert "Notifications: none stored yet." in out
    assert "Dead letters (unreadable bodies, answered 400), last 24 h / overall: 0 / 0" in out
    assert "Receivers: none has run against this database." in out

    store = await opened_store(receiver_url)
    try:
        old = await store.deliver(parse_body("pix", body(pix(1, txid=OUR_TXID))))
        fresh = await store.deliver(
            parse_body("pix", body(pix(2), pix(3, key="alheio@outra.com.br")))
        )
        again = await store.deliver(parse_body("pix", body(pix(2))))  # a redelivery
        missed = await store.deliver(parse_body("pix", body(pix(4))), via="reconciler")
        transfer = json.dumps(
            {"type": "TRANSFER", "data": {"endToEndId": "E0000", "status": "SETTLED"}}
        )
        theirs = await store.deliver(parse_body("transfer", transfer.encode()))
        await store.dead_letter("pix", "203.0.113.9", "the body is not JSON", b"{nope")
        started = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=5)
        await store.beat("receiver-1", started, dt.datetime.now(dt.UTC), URL)
        await store.beat("receiver-2", started, None, "")
    finally:
        await store.close()
    assert [r.outcome for r in old + fresh + again + missed + theirs] == [
        "applied", "applied", "unmatched", "duplicate", "applied", "unmatched",
    ]  # fmt: skip
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(
            "UPDATE treasury.notifications SET received_at = now() - interval '2 days'"
            " WHERE dedupe_key = %s",
            (old[0].dedupe_key,),
        )
        conn.execute(
            "UPDATE treasury.receivers SET seen_at = now() - interval '10 minutes'"
            " WHERE name = 'receiver-2'"
        )

    code, out, err = admin("--db", url, "notifications")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Notifications (items), last 24 h / overall:"
    header = lines[1].split()
    assert header == ["source", "applied", "unchanged", "unmatched", "failed", "total"]
    pix_row = next(line for line in lines if line.split()[:1] == ["pix"])
    assert pix_row.split()[1:] == "2 / 3 0 / 0 1 / 1 0 / 0 3 / 4".split()
    transfer_row = next(line for line in lines if line.split()[:1] == ["transfer"])
    assert transfer_row.split()[1:] == "0 / 0 0 / 0 1 / 1 0 / 0 1 / 1".split()
    all_row = next(line for line in lines if line.split()[:1] == ["all"])
    assert all_row.split()[1:] == "2 / 3 0 / 0 2 / 2 0 / 0 4 / 5".split()
    assert lines.index(pix_row) < lines.index(transfer_row) < lines.index(all_row)
    assert "Found by the reconciler (no notification came), last 24 h / overall: 1 / 1" in out
    assert "answered 400), last 24 h / overall: 1 / 1  (see --failed)" in out
    first = next(line for line in lines if "receiver-1" in line)
    assert f"(login {login}): seen " in first and " s ago, last item 20" in first
    assert first.endswith(f"url {URL}") and "NOT RUNNING" not in first
    second = next(line for line in lines if "receiver-2" in line)
    assert "seen 10 min ago, last item never, url (none set)  NOT RUNNING?" in second


async def test_failed_shows_the_dead_letters_escaped_and_the_failed_items(
    team_databases: TeamDatabases,
) -> None:
    url, receiver_url, login = team_with_receiver(team_databases)
    code, out, err = admin("--db", url, "notifications", "--failed")
    assert code == 0, err
    assert out.splitlines() == [
        "Dead letters (unreadable bodies, answered 400): none",
        "Items that could not be applied: none",
    ]
    hostile = b'\x1b[2J\x1b]0;owned\x07{"pix": [\xff\xfe' + b"A" * 5000
    store = await opened_store(receiver_url)
    try:
        await store.dead_letter("pix", "203.0.113.9", "the body is not UTF-8", hostile)
        await store.dead_letter("rec", "", "the body is not JSON (Expecting value, line 1)", b"")
    finally:
        await store.close()
    with psycopg.connect(receiver_url, autocommit=True) as conn:  # as the receiver stores one
        conn.execute(
            "INSERT INTO treasury.notifications (dedupe_key, source, ref, outcome, detail, item)"
            " VALUES ('cobr|T1|X|1|', 'cobr', 'T1', 'failed', %s, %s)",
            ("new row violates check constraint \x1b[31m", json.dumps({"txid": "T1"})),
        )
    code, out, err = admin("--db", url, "notifications", "--failed")
    assert code == 0, err
    assert "\x1b" not in out and "\x07" not in out and "\xff" not in out
    lines = out.splitlines()
    assert lines[0] == "Dead letters (unreadable bodies, answered 400): 2"
    # newest first: the empty one, then the hostile one
    assert " /rec from ? via " in lines[1] and lines[1].endswith(
        "0 bytes: the body is not JSON (Expecting value, line 1)"
    )
    assert lines[2] == "      body: (empty)"
    assert f" /pix from 203.0.113.9 via {login}, 5,025 bytes: the body is not UTF-8" in lines[3]
    preview = lines[4].removeprefix("      body: ")
    assert preview.startswith(r'\x1b[2J\x1b]0;owned\x07{"pix": [\xff\xfeAAA')
    assert preview.endswith("A…")  # cut at 80 characters
    assert len(preview) == 80 + 1
    assert lines[5] == "Items that could not be applied: 1"
    assert lines[6].endswith(
        f"  cobr T1 txid=T1 via {login}: new row violates check constraint \\x1b[31m"
    )
    assert "A" * 100 not in out  # the body's bytes are not printed


async def test_unmatched_lists_what_is_about_someone_else_and_limit_keeps_the_newest(
    team_databases: TeamDatabases,
) -> None:
    url, receiver_url, _ = team_with_receiver(team_databases)
    store = await opened_store(receiver_url)
    try:
        await store.deliver(parse_body("pix", body(pix(1), pix(2, key="alheio@outra.com.br"))))
        await store.deliver(parse_body("pix", body(pix(3, key="\u202eevil@x.com", txid="TX9"))))
    finally:
        await store.close()
    code, out, err = admin("--db", url, "notifications", "--unmatched")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Unmatched items (not about this account; nothing changed): 2"
    assert "pix E12345678202611261000" in lines[1]
    assert r"key=\u202eevil@x.com txid=TX9" in lines[1]
    assert lines[1].endswith(": neither a key nor a txid of ours")
    assert "key=alheio@outra.com.br" in lines[2]
    assert OUR_KEY not in out  # the applied one is not listed
    code, out, _ = admin("--db", url, "notifications", "--unmatched", "--limit", "1")
    assert code == 0
    assert out.splitlines()[0].endswith(": 2 (the newest 1 shown)")
    assert len(out.splitlines()) == 2
    code, out, _ = admin("--db", url, "notifications", "--failed", "--unmatched")
    assert code == 0
    assert [line for line in out.splitlines() if not line.startswith(" ")] == [
        "Dead letters (unreadable bodies, answered 400): none",
        "Items that could not be applied: none",
        "Unmatched items (not about this account; nothing changed): 2",
    ]


def test_bad_flags_and_an_old_schema_exit_2(team_databases: TeamDatabases) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)
    code, _, err = admin("--db", url, "notifications", "--limit", "0")
    assert code == 2 and "--limit takes a number of rows" in err
    for flags in (["--limit", "many"], ["--bogus"], ["--failed=yes"]):
        with pytest.raises(SystemExit) as exited:
            admin("--db", url, "notifications", *flags)
        assert exited.value.code == 2
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE treasury.schema_version SET version = 2")
    code, _, err = admin("--db", url, "notifications")
    assert code == 2 and "without the webhook receiver's tables" in err and "migrate" in err
