"""The payee registry in the ledger (issue 36), on both backends, and on the team database
the rules it enforces itself, attacked with raw psycopg as each person would with ``psql``:

* a destination added, changed or unblocked takes effect when *another* person approves it:
  its maker cannot approve it, not even with their own login and the approver's role;
* a payment to a destination new or changed within the cooling-off period needs one
  approval more — counted by the database, whatever label the payment carries, kept through
  an edit; a destination changed two days ago (the database's clock moved, never waited
  for) does not;
* a blocked destination is not paid; a registry-only team pays nothing outside it;
* the bank's creditor verifies a destination, or marks it changed (audited).
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest

from tests.ledger.test_approvals_db import as_person, give_exactly, superuser
from tests.ledger_backends import TeamDatabases, opened_ledger
from treasury_app.domain.money import dumps_json
from treasury_app.domain.payees import (
    DestinationState,
    PayeeError,
    RegistryIndex,
    account_destination,
    key_destination,
    payee_draft,
)
from treasury_app.ledger.payees import RegistryRefused
from treasury_app.ledger.team.codes_schema import read_coded
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.ledger.team.store import ApprovalRefused

PAPELARIA = "11.222.333/0001-81"
GRAFICA = "12ABC34501DE35"  # an alphanumeric CNPJ


def refusal_code(error: psycopg.Error) -> str:
    coded = read_coded(error.diag.message_detail)
    assert coded is not None, error
    return coded[0]


async def test_a_payee_and_destinations_on_each_backend(
    ledger_backend: str, tmp_path: Path
) -> None:
    async with opened_ledger(ledger_backend, tmp_path, user="ana") as ledger:
        store = ledger.payees
        papelaria = await store.save_payee(
            payee_draft("Papelaria Central", PAPELARIA, "fornecedor, Centro de custo 7")
        )
        assert papelaria.document == "11222333000181"
        assert papelaria.tags == ("fornecedor", "centro de custo 7")
        grafica = await store.save_payee(payee_draft("Gráfica Expressa", GRAFICA, ["fornecedor"]))
        assert grafica.document == "12ABC34501DE35"
        change = await store.propose(papelaria.id, "add", key_destination("pix@papelaria.com.br"))
        if ledger_backend == "team":
            assert change.waiting and await store.destinations(papelaria.id) == []
            assert [c.id for c in await store.pending()] == [change.id]
        else:
            assert change.outcome == "DONE" and await store.pending() == []
        with pytest.raises(RegistryRefused if ledger_backend == "file" else ApprovalRefused) as e:
            await store.propose(grafica.id, "add", key_destination("PIX@papelaria.com.br"))
        code = e.value.reason.code
        if ledger_backend == "file":
            assert code == "registry.destination_taken"
            assert e.value.reason.params["owner"] == "Papelaria Central"
        else:  # waiting for approval already, whoever's
            assert code == "team.change_waiting"
        account = account_destination("60746948", "1234", "56789-0", "cacc")
        assert account.detail == "60746948/1234/567890"
        await store.propose(grafica.id, "add", account)
        renamed = await store.save_payee(
            payee_draft("Papelaria Central Ltda", PAPELARIA, ["fornecedor"]), papelaria.id
        )
        assert renamed.name == "Papelaria Central Ltda" and renamed.id == papelaria.id
        actions = {a.action for a in await ledger.audit.entries(action="payee")}
        assert {"payee.save"} <= actions


async def test_the_rules_of_a_payee_speak_in_codes() -> None:
    for call, code in (
        (lambda: payee_draft(" ", PAPELARIA), "payee.name_missing"),
        (lambda: payee_draft("x" * 141, PAPELARIA), "payee.name_too_long"),
        (lambda: payee_draft("Ana", "123"), "payee.document_invalid"),
        (lambda: payee_draft("Ana", PAPELARIA, ["x" * 41]), "payee.tag_invalid"),
        (lambda: key_destination(""), "payee.key_missing"),
        (lambda: key_destination("not a key"), "payee.key_invalid"),
        (lambda: account_destination("abc", "1", "1", "CACC"), "payee.ispb_format"),
        (lambda: account_destination("1", "12345", "1", "CACC"), "payee.branch_format"),
        (lambda: account_destination("1", "1", "x", "CACC"), "payee.account_format"),
        (lambda: account_destination("1", "1", "1", "XX"), "payee.account_type"),
        (lambda: account_destination("1,12E+07", "1", "1", "CACC"), "payee.scientific_notation"),
    ):
        with pytest.raises(PayeeError) as caught:
            call()
        assert caught.value.code == code


async def test_the_file_registry_applies_at_once_and_keeps_history(tmp_path: Path) -> None:
    async with opened_ledger("file", tmp_path, user="ana") as ledger:
        store = ledger.payees
        now = dt.datetime(2030, 1, 7, 12, tzinfo=dt.UTC)
        ledger.clock = lambda: now
        payee = await store.save_payee(payee_draft("Papelaria Central", PAPELARIA))
        await store.propose(payee.id, "add", key_destination("+5511987654321"))
        [key] = await store.destinations(payee.id)
        policy = await store.policy()
        assert key.state is DestinationState.NEW and key.cooling(now, policy)
        assert not key.cooling(now + dt.timedelta(hours=25), policy)
        await store.propose(payee.id, "change", key_destination("+5511912345678"), key.id)
        [changed] = await store.destinations(payee.id)
        assert changed.state is DestinationState.CHANGED and changed.detail == "+5511912345678"
        blocked = await store.block(key.id, "the supplier says it is not theirs")
        assert blocked.state is DestinationState.BLOCKED
        await store.propose(payee.id, "unblock", destination_id=key.id)
        verified = await store.settled("+5511912345678", 1, "PAPELARIA", "11222333000181")
        assert verified is not None and verified.state is DestinationState.VERIFIED
        other = await store.settled("+5511912345678", 2, "OUTRA", "***.456.789-**")
        assert other is not None and other.state is DestinationState.CHANGED
        history = [c.action for c in await store.history(payee.id)]
        assert history == ["add", "change", "block", "unblock", "verified", "mismatch"]
        assert {"payee.mismatch", "payee.verified", "payee.block"} <= {
            a.action for a in await ledger.audit.entries(action="payee")
        }


def _registered(team: TeamDatabases, database: str, key: str) -> tuple[int, int]:
    """A payee with ``key`` prepared by ana and approved by bruno: (payee, destination)."""
    with as_person(team, database, "ana") as ana:
        payee = ana.execute(
            "SELECT * FROM treasury.save_payee(NULL, 'Papelaria Central', '11222333000181',"
            " '{fornecedor}')"
        ).fetchone()
        assert payee is not None
        change = ana.execute(
            "SELECT * FROM treasury.propose_destination(%s, 'add', %s::jsonb, NULL)",
            (payee["id"], json.dumps(key_destination(key).as_dict())),
        ).fetchone()
        assert change is not None
    with as_person(team, database, "bruno") as bruno:
        done = bruno.execute(
            "SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (change["id"],)
        ).fetchone()
        assert done is not None and done["outcome"] == "APPROVED"
    return payee["id"], done["destination_id"]


def _prepare(
    conn: psycopg.Connection[dict[str, Any]], amount: str, label: str, key: str
) -> dict[str, Any]:
    body = {"amount": Decimal(amount), "pixKey": key, "description": ""}
    row = conn.execute(
        "SELECT * FROM treasury.prepare('PIX_KEY', 'Papelaria', '', %s, %s, '', 'INSTANT',"
        " %s, %s, 'p', NULL)",
        (label, Decimal(amount), str(uuid.uuid4()), dumps_json(body)),
    ).fetchone()
    assert row is not None
    return row


def _shift(team: TeamDatabases, database: str, hours: float) -> None:
    with superuser(team, database) as conn:
        conn.execute("UPDATE treasury.schedule_clock SET shift = %s", (dt.timedelta(hours=hours),))


@pytest.fixture
def people(team_databases: TeamDatabases) -> TeamDatabases:
    give_exactly(team_databases, {"ana": (MAKER, APPROVER), "bruno": (APPROVER,), "max": (MAKER,)})
    return team_databases


def test_a_maker_cannot_approve_their_own_destination_change(people: TeamDatabases) -> None:
    database = people.new_database(policy={})
    with as_person(people, database, "ana") as ana:
        payee = ana.execute(
            "SELECT * FROM treasury.save_payee(NULL, 'Papelaria', '11222333000181', '{}')"
        ).fetchone()
        assert payee is not None
        change = ana.execute(
            "SELECT * FROM treasury.propose_destination(%s, 'add', %s::jsonb, NULL)",
            (payee["id"], json.dumps(key_destination("pix@papelaria.com.br").as_dict())),
        ).fetchone()
        assert change is not None and change["outcome"] == "WAITING"
        # her own approval, though she holds the approver's role: refused
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as own:
            ana.execute(
                "SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (change["id"],)
            )
        assert refusal_code(own.value) == "own_destination_change"
        # nor around the functions: no write on the registry's tables
        for statement in (
            "INSERT INTO treasury.destinations (payee_id, kind, detail, state, changed_at,"
            f" action, changed_by) VALUES ({payee['id']}, 'PIX_KEY', 'x@y.com', 'verified',"
            " now(), 'added', 'ana')",
            "UPDATE treasury.destination_changes SET outcome = 'APPROVED'",
            "UPDATE treasury.registry_policy SET cooling_hours = 0",
            "UPDATE treasury.schedule_clock SET shift = interval '3 days'",
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                ana.execute(statement)
        assert ana.execute("SELECT count(*) AS n FROM treasury.destinations").fetchone() == {"n": 0}
    with as_person(people, database, "max") as max_:  # a maker is no approver
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as maker:
            max_.execute(
                "SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (change["id"],)
            )
        assert refusal_code(maker.value) == "not_an_approver"
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as withdraw:
            max_.execute(
                "SELECT * FROM treasury.decide_destination(%s, 'WITHDRAWN', 'no')",
                (change["id"],),
            )
        assert refusal_code(withdraw.value) == "change_maker_only"
    with as_person(people, database, "bruno") as bruno:
        done = bruno.execute(
            "SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (change["id"],)
        ).fetchone()
        assert done is not None and done["decided_by"] == "bruno"
        destination = bruno.execute("SELECT * FROM treasury.destinations").fetchone()
        assert destination is not None
        assert (destination["state"], destination["changed_by"], destination["approved_by"]) == (
            "new",
            "ana",
            "bruno",
        )
        again = bruno.execute
        with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState):
            again("SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (change["id"],))
    with superuser(people, database) as conn:
        audit = conn.execute(
            "SELECT action, actor FROM treasury.audit WHERE action LIKE 'payee.%%' ORDER BY seq"
        ).fetchall()
    assert [(a["action"], a["actor"]) for a in audit] == [
        ("payee.save", "ana"),
        ("payee.propose", "ana"),
        ("payee.approved", "bruno"),
    ]


def test_a_fresh_destination_needs_one_approval_more(people: TeamDatabases) -> None:
    database = people.new_database(policy={})  # one approval; +1 for a payee never paid
    key = "pix@papelaria.com.br"
    _registered(people, database, key)
    _shift(people, database, 1)  # changed an hour ago
    with as_person(people, database, "max") as max_:
        fresh = _prepare(max_, "100.00", key, key)
        # 1 + 1 (never paid) + 1 (cooling off): counted where the approvals are
        assert fresh["approvals_needed"] == 3
        cooling = fresh["cooling"]
        assert (cooling["by"], cooling["approved_by"], cooling["action"]) == (
            "ana",
            "bruno",
            "added",
        )
        # another label, the same key in what is sent: the same count
        disguised = _prepare(max_, "100.01", "someone-else@example.com", key)
        assert disguised["approvals_needed"] == 3 and disguised["cooling"] is not None
        # an edit of the content recounts: the extra approval stays
        body = {"amount": Decimal("90.00"), "pixKey": key, "description": ""}
        edited = max_.execute(
            "SELECT * FROM treasury.edit(%s, %s, '', %s)",
            (fresh["id"], Decimal("90.00"), dumps_json(body)),
        ).fetchone()
        assert edited is not None and edited["approvals_needed"] == 3
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            max_.execute("UPDATE treasury.journal SET approvals_needed = 1, cooling = NULL")
    _shift(people, database, 49)  # changed two days ago
    with as_person(people, database, "max") as max_:
        later = _prepare(max_, "100.02", key, key)
        assert later["approvals_needed"] == 2 and later["cooling"] is None


def test_a_solo_team_still_needs_a_second_person_for_a_fresh_destination(
    people: TeamDatabases,
) -> None:
    database = people.new_database()  # no approvals at all
    key = "pix@papelaria.com.br"
    _registered(people, database, key)
    with as_person(people, database, "ana") as ana:
        fresh = _prepare(ana, "10.00", key, key)
        assert fresh["approvals_needed"] == 1 and fresh["approval"] == "WAITING"
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            ana.execute(
                "SELECT * FROM treasury.approve(%s, %s)", (fresh["id"], fresh["content_hash"])
            )
        unknown = _prepare(ana, "10.00", "x@example.com", "x@example.com")
        assert unknown["approvals_needed"] == 0 and unknown["approval"] == "APPROVED"


def test_blocked_and_outside_the_registry_are_refused(people: TeamDatabases) -> None:
    database = people.new_database()
    key = "pix@papelaria.com.br"
    payee_id, destination_id = _registered(people, database, key)
    with as_person(people, database, "max") as max_:
        max_.execute("SELECT * FROM treasury.block_destination(%s, 'fraud')", (destination_id,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege) as blocked:
            _prepare(max_, "10.00", key, key)
        assert refusal_code(blocked.value) == "destination_blocked"
        unblock = max_.execute(
            "SELECT * FROM treasury.propose_destination(%s, 'unblock', NULL, %s)",
            (payee_id, destination_id),
        ).fetchone()
        assert unblock is not None and unblock["outcome"] == "WAITING"
    with as_person(people, database, "bruno") as bruno:
        bruno.execute(
            "SELECT * FROM treasury.decide_destination(%s, 'APPROVED', '')", (unblock["id"],)
        )
    with superuser(people, database) as conn:
        conn.execute("UPDATE treasury.registry_policy SET registry_only = true")
    with as_person(people, database, "max") as max_:
        again = _prepare(max_, "10.00", key, key)
        assert again["cooling"]["action"] == "unblocked" and again["approvals_needed"] == 1
        with pytest.raises(psycopg.errors.CheckViolation) as outside:
            _prepare(max_, "10.00", "x@example.com", "x@example.com")
        assert refusal_code(outside.value) == "not_in_registry"


async def test_the_bank_verifies_or_contradicts_a_destination(
    people: TeamDatabases, tmp_path: Path
) -> None:
    database = people.new_database()
    key = "pix@papelaria.com.br"
    _, destination_id = _registered(people, database, key)
    _shift(people, database, 48)
    with as_person(people, database, "max") as max_:
        first = _prepare(max_, "10.00", key, key)
        second = _prepare(max_, "11.00", key, key)
        with pytest.raises(psycopg.errors.ObjectNotInPrerequisiteState) as early:
            max_.execute(
                "SELECT * FROM treasury.destination_settled(%s, 'X', '11222333000181')",
                (first["id"],),
            )
        assert refusal_code(early.value) == "not_settled"
    with superuser(people, database) as conn:  # the bank's word, as the engine records it
        conn.execute(
            "UPDATE treasury.journal SET state = 'ACCEPTED', final = true WHERE id IN (%s, %s)",
            (first["id"], second["id"]),
        )
    async with opened_ledger("team", tmp_path, user="max", database=database) as ledger:
        verified = await ledger.payees.settled(key, first["id"], "PAPELARIA", "11222333000181")
        assert verified is not None and verified.state is DestinationState.VERIFIED
        changed = await ledger.payees.settled(key, second["id"], "OUTRA", "***.456.789-**")
        assert changed is not None and changed.state is DestinationState.CHANGED
        history = [(c.action, c.prepared_by) for c in await ledger.payees.history(changed.payee_id)]
        assert history[-2:] == [("verified", "max"), ("mismatch", "max")]
        mismatch = [
            a for a in await ledger.audit.entries(action="payee") if a.action == "payee.mismatch"
        ]
        assert len(mismatch) == 1
    with as_person(people, database, "max") as max_:  # its cooling-off starts again
        assert _prepare(max_, "12.00", key, key)["cooling"]["action"] == "mismatch"
    assert destination_id == changed.id


def test_the_index_finds_by_name_document_key_account_and_tag() -> None:
    from treasury_app.domain.payees import Destination, Payee

    papelaria = Payee(1, "Papelaria Central", "11222333000181", ("fornecedor",))
    grafica = Payee(2, "Gráfica Expressa", "12ABC34501DE35", ("gráfica",))
    key = Destination(10, 1, key_destination("pix@papelaria.com.br"), DestinationState.NEW)
    account = Destination(
        11, 2, account_destination("60746948", "1", "123456", "CACC"), DestinationState.VERIFIED
    )
    index = RegistryIndex([papelaria, grafica], [key, account])
    assert [m.payee.id for m in index.search("pap cen")] == [1]
    assert [m.payee.id for m in index.search("grafica")] == [2]
    assert [m.field for m in index.search("112.223")] == ["document"]
    assert [m.payee.id for m in index.search("12abc")] == [2]
    assert [(m.payee.id, m.field) for m in index.search("pix@pap")] == [(1, "key")]
    assert [(m.payee.id, m.field) for m in index.search("123456")] == [(2, "account")]
    assert [m.payee.id for m in index.search("fornec")] == [1]
    assert index.owner_of("pix@papelaria.com.br") == papelaria
    assert index.match(["60746948/1/123456", "nobody"]) == {"60746948/1/123456": account}


def test_the_administrator_sets_the_registry_policy(people: TeamDatabases) -> None:
    from tests.ledger.test_team_admin import admin

    database = people.new_database()
    url = people.server.url(database)
    code, out, _ = admin("--db", url, "registry-policy")
    assert code == 0 and "24 hour(s)" in out and "may go outside" in out
    code, out, _ = admin(
        "--db", url, "registry-policy", "--cooling-hours", "48", "--registry-only", "yes"
    )
    assert code == 0 and "48 hour(s)" in out and "only to registered" in out
    assert admin("--db", url, "registry-policy", "--cooling-hours", "9999")[0] != 0
    with superuser(people, database) as conn:
        row = conn.execute("SELECT * FROM treasury.registry_policy").fetchone()
        audit = conn.execute(
            "SELECT details FROM treasury.audit WHERE action = 'admin.registry_policy'"
        ).fetchall()
    assert row is not None and (row["cooling_hours"], row["registry_only"]) == (48, True)
    assert len(audit) == 1 and '"before"' in audit[0]["details"]
