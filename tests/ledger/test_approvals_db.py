"""Maker-checker approvals enforced by the team database (issue 23, schema migration 2).

Every rule is checked where a desktop cannot get around it: with the people's own logins,
through the async store (``ledger.journal`` / ``ledger.approvals``) and with raw psycopg, as
``psql`` would. The people: ``ana`` prepares (maker only); ``bruno`` and ``carla`` approve
(approvers only); ``dora`` approves within limits; ``eva`` holds both roles.

Each test has a team database of its own; its policy is the default one (one approval, two
above R$ 10.000,00, one more for a payee never paid before) unless it says otherwise —
``ONE_APPROVAL`` drops the new-payee extra, so that an intent needs exactly one approval.
"""

from __future__ import annotations

import json
import re
import unicodedata
import uuid
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from tests.ledger_backends import TeamDatabases, opened_ledger
from treasury_app.domain.money import dumps_json
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import (
    DuplicateIntent,
    EntryKind,
    EntryState,
    NewEntry,
    PendingDuplicate,
    _entry,
)
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.approvals import (
    TeamApprovals,
    batch_hash,
    content_hash,
    entry_content_hash,
)
from treasury_app.ledger.team.chain import verify_chain
from treasury_app.ledger.team.codes_schema import read_coded
from treasury_app.ledger.team.schema import APPROVER, MAKER, PERSON_ROLES
from treasury_app.ledger.team.store import ApprovalRefused

pytestmark = pytest.mark.usefixtures("team_databases")

DEFAULT: dict[str, Any] = {}
"""``new_database(policy=DEFAULT)``: the default policy of ``tests/ledger_backends.py``."""
ONE_APPROVAL: dict[str, Any] = {"new_payee_extra": 0}
"""The default policy without the new payee's extra approval: one approval up to
R$ 10.000,00, two above."""

PEOPLE: dict[str, tuple[str, ...]] = {
    "ana": (MAKER,),
    "bruno": (APPROVER,),
    "carla": (APPROVER,),
    "dora": (APPROVER,),
    "eva": (MAKER, APPROVER),
}


def claimed(record: str) -> str:
    """``record`` (of entry ``e.id``) under the entry's claim, taken in the same statement: a
    desktop's write as raw SQL (one parameter: the entry's id)."""
    return f"SELECT r.* FROM (SELECT %s::bigint AS id) e, LATERAL {record} r"


RELEASE_SQL = claimed("treasury.release(e.id, 'sending', treasury.claim(e.id))")
RECORD_SENT_SQL = claimed(
    "treasury.record(e.id, treasury.claim(e.id), 'SENT', NULL, NULL, NULL, NULL, 'x', NULL,"
    " 'answer')"
)


# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def people(team_databases: TeamDatabases) -> dict[str, tuple[str, ...]]:
    """The logins (cluster-wide roles) with exactly their roles."""
    return give_exactly(team_databases, PEOPLE)


def give_exactly(
    team: TeamDatabases,
    people: dict[str, tuple[str, ...]],
    revocable: tuple[str, ...] = PERSON_ROLES,
) -> dict[str, tuple[str, ...]]:
    """Make each login of ``people`` a member of its roles and of no other of ``revocable``
    (roles are cluster-wide: an earlier test may have granted it more); returns ``people``."""
    for name, roles in people.items():
        team.person(name, *roles)
        with superuser(team, "postgres") as conn:
            for role in revocable:
                if role not in roles:
                    conn.execute(
                        sql.SQL("REVOKE {} FROM {}").format(
                            sql.Identifier(role), sql.Identifier(name)
                        )
                    )
    return people


def superuser(team: TeamDatabases, database: str) -> psycopg.Connection[dict[str, Any]]:
    return psycopg.connect(team.server.url(database), autocommit=True, row_factory=dict_row)


def as_person(
    team: TeamDatabases, database: str, user: str, *, autocommit: bool = True
) -> psycopg.Connection[dict[str, Any]]:
    """A raw connection with ``user``'s own login (what ``psql`` would do)."""
    return psycopg.connect(
        team.server.url(database, user=user), autocommit=autocommit, row_factory=dict_row
    )


@asynccontextmanager
async def desks(
    team: TeamDatabases, tmp_path: Path, database: str, *names: str
) -> AsyncIterator[tuple[Ledger, ...]]:
    """One open ledger (desktop) per person, all on ``database``."""
    async with AsyncExitStack() as stack:
        ledgers = [
            await stack.enter_async_context(
                opened_ledger("team", tmp_path / name, user=name, database=database)
            )
            for name in names
        ]
        yield tuple(ledgers)


def approvals(ledger: Ledger) -> TeamApprovals:
    assert ledger.approvals is not None, "a team ledger has approvals"
    return ledger.approvals


def payee() -> str:
    return f"{uuid.uuid4().hex[:10]}@example.com"


def intent(
    amount: str,
    *,
    detail: str | None = None,
    name: str = "Fornecedor Ltda",
    description: str = "",
    key: str | None = None,
    batch: str | None = None,
) -> NewEntry:
    detail = detail or payee()
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=key or str(uuid.uuid4()),
        request=request(amount, detail, description),
        payee_name=name,
        payee_detail=detail,
        description=description,
        batch=batch,
    )


def request(amount: str, detail: str, description: str = "") -> dict[str, Any]:
    return {"amount": Decimal(amount), "pixKey": detail, "description": description}


def prepare_raw(
    conn: psycopg.Connection[dict[str, Any]],
    amount: str,
    *,
    detail: str | None = None,
    batch: str | None = None,
) -> dict[str, Any]:
    """``treasury.prepare`` called by hand: the new journal row."""
    detail = detail or payee()
    row = conn.execute(
        "SELECT * FROM treasury.prepare('PIX_KEY', 'Fornecedor', '', %s, %s, '', 'INSTANT',"
        " %s, %s, 'p', %s)",
        (detail, Decimal(amount), str(uuid.uuid4()), dumps_json(request(amount, detail)), batch),
    ).fetchone()
    assert row is not None
    return row


def journal_row(team: TeamDatabases, database: str, entry_id: int) -> dict[str, Any]:
    with superuser(team, database) as conn:
        row = conn.execute("SELECT * FROM treasury.journal WHERE id = %s", (entry_id,)).fetchone()
    assert row is not None
    return row


def audit_rows(team: TeamDatabases, database: str) -> list[dict[str, Any]]:
    with superuser(team, database) as conn:
        return conn.execute("SELECT * FROM treasury.audit ORDER BY seq").fetchall()


def approval_rows(team: TeamDatabases, database: str, entry_id: int) -> list[dict[str, Any]]:
    with superuser(team, database) as conn:
        return conn.execute(
            "SELECT * FROM treasury.approvals WHERE entry_id = %s ORDER BY id", (entry_id,)
        ).fetchall()


# -- 1. no bypass with a person's own login ------------------------------------------------


async def test_a_maker_with_raw_sql_cannot_write_approve_or_send_her_own_intent(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with as_person(team_databases, database, "ana") as ana:
        entry = prepare_raw(ana, "500.00")
        assert (entry["approval"], entry["approvals_needed"]) == ("WAITING", 1)
        entry_id, digest = entry["id"], entry["content_hash"]
        for statement, args in (
            (
                "INSERT INTO treasury.journal (kind, amount, idempotency_key, request_json,"
                " state, created_at, updated_at, profile) VALUES ('PIX_KEY', 1, 'forged',"
                " '{}', 'PREPARED', 'x', 'x', 'p')",
                (),
            ),
            ("UPDATE treasury.journal SET amount = 1 WHERE id = %s", (entry_id,)),
            (
                "UPDATE treasury.journal SET approval = 'APPROVED', approvals_given = 1,"
                " approvals_needed = 0 WHERE id = %s",
                (entry_id,),
            ),
            ("UPDATE treasury.journal SET state = 'SENT' WHERE id = %s", (entry_id,)),
            (
                "INSERT INTO treasury.approvals (entry_id, approver, content_hash, at)"
                " VALUES (%s, 'bruno', %s, 'x')",
                (entry_id, digest),
            ),
            ("UPDATE treasury.approvals SET void_reason = NULL", ()),
            ("DELETE FROM treasury.approvals", ()),
            (
                "INSERT INTO treasury.policies (version, approvals, approvals_above,"
                " new_payee_extra, set_at) VALUES (99, 0, 0, 0, 'x')",
                (),
            ),
            (
                "INSERT INTO treasury.person_limits (login, set_at) VALUES ('ana', 'x')",
                (),
            ),
            ("DELETE FROM treasury.policies", ()),
            # the functions' insides are not callable on their own
            ("SELECT treasury.decide(%s, 'REJECTED', 'x')", (entry_id,)),
            ("SELECT treasury.waiting_entry(%s)", (entry_id,)),
            ("SELECT treasury.add_history(j, 'x') FROM treasury.journal j", ()),
        ):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                ana.execute(statement, args)
        # Only approvers approve or reject (each function checks the login's role itself).
        with pytest.raises(
            psycopg.errors.InsufficientPrivilege,
            match="ana is not an approver: only approvers approve payments",
        ):
            ana.execute("SELECT treasury.approve(%s, %s)", (entry_id, digest))
        with pytest.raises(
            psycopg.errors.InsufficientPrivilege,
            match="ana is not an approver: only approvers reject payments",
        ):
            ana.execute("SELECT treasury.reject(%s, 'x')", (entry_id,))
        batch = [_entry(prepare_raw(ana, amount, batch="b")) for amount in ("1.00", "2.00")]
        for rejects, reasons in (
            ([], []),
            ([batch[0].id], ["x"]),
            ([b.id for b in batch], ["x", "y"]),
        ):
            with pytest.raises(
                psycopg.errors.InsufficientPrivilege, match="ana is not an approver"
            ):
                ana.execute(
                    "SELECT * FROM treasury.approve_batch('b', %s, %s::bigint[], %s::text[])",
                    (batch_hash(batch), rejects, reasons),
                )
        for statement in (RELEASE_SQL, RECORD_SENT_SQL):
            with pytest.raises(psycopg.errors.InsufficientPrivilege, match="has 0 of 1 approvals"):
                ana.execute(statement, (entry_id,))
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="0 of 1 approvals"):
            ana.execute(
                claimed(
                    "treasury.record(e.id, treasury.claim(e.id), 'ACCEPTED', 'SETTLED', NULL,"
                    " 'b1', NULL, 'x', NULL, 'answer')"
                ),
                (entry_id,),
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="0 of 1 approvals"):
            ana.execute(
                claimed(
                    "treasury.record(e.id, treasury.claim(e.id), 'UNKNOWN', NULL, NULL, NULL,"
                    " NULL, 'x', NULL, 'answer')"
                ),
                (entry_id,),
            )
    for entry_id in (entry["id"], *(prepared.id for prepared in batch)):
        row = journal_row(team_databases, database, entry_id)
        assert (row["state"], row["approval"], row["approvals_given"]) == (
            "PREPARED",
            "WAITING",
            0,
        )
        assert approval_rows(team_databases, database, entry_id) == []
    row = journal_row(team_databases, database, entry["id"])
    assert row["amount"] == Decimal("500.00") and row["content_hash"] == digest
    with superuser(team_databases, database) as conn:
        versions = conn.execute("SELECT count(*) AS n FROM treasury.policies").fetchone()
        assert versions is not None and versions["n"] == 3  # migration's, template's, this one
        assert conn.execute("SELECT * FROM treasury.person_limits").fetchall() == []


async def test_a_maker_who_is_also_an_approver_cannot_approve_her_own_intent(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with as_person(team_databases, database, "eva") as eva:
        entry = prepare_raw(eva, "500.00")
        with pytest.raises(
            psycopg.errors.InsufficientPrivilege,
            match=f"you prepared entry {entry['id']}: another person must approve it",
        ):
            eva.execute(
                "SELECT * FROM treasury.approve(%s, %s)", (entry["id"], entry["content_hash"])
            )
        with pytest.raises(psycopg.errors.InsufficientPrivilege, match="0 of 1 approvals"):
            eva.execute(RELEASE_SQL, (entry["id"],))
    assert approval_rows(team_databases, database, entry["id"]) == []
    row = journal_row(team_databases, database, entry["id"])
    assert (row["state"], row["approval"]) == ("PREPARED", "WAITING")


async def test_an_approved_intents_amount_cannot_be_changed_by_anyone_but_its_maker(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with (
        as_person(team_databases, database, "ana") as ana,
        as_person(team_databases, database, "bruno") as bruno,
        as_person(team_databases, database, "eva") as eva,
    ):
        entry = prepare_raw(ana, "500.00")
        entry_id = entry["id"]
        approved = bruno.execute(
            "SELECT * FROM treasury.approve(%s, %s)", (entry_id, entry["content_hash"])
        ).fetchone()
        assert approved is not None and approved["approval"] == "APPROVED"
        edit = "SELECT * FROM treasury.edit(%s, 50000, '', '{}')"
        for conn in (bruno, eva):  # an approver; a maker and approver, not its maker
            with pytest.raises(
                psycopg.errors.InsufficientPrivilege,
                match=f"only ana \\(who prepared entry {entry_id}\\) changes it",
            ):
                conn.execute(edit, (entry_id,))
        for conn in (ana, bruno, eva):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(
                    "UPDATE treasury.journal SET amount = 50000, request_json = '{}' WHERE id = %s",
                    (entry_id,),
                )
    row = journal_row(team_databases, database, entry_id)
    assert row["amount"] == Decimal("500.00")
    assert (row["approval"], row["approvals_given"], row["approved_by"]) == (
        "APPROVED",
        1,
        "bruno",
    )
    assert row["content_hash"] == entry["content_hash"]


async def test_a_rejected_or_withdrawn_intent_can_never_be_sent(
    team_databases: TeamDatabases, people: dict[str, tuple[str, ...]]
) -> None:
    """An intent that ended without its approvals (rejected by an approver, withdrawn by its
    maker, or a batch row rejected in the batch decision) never moves on to SENT, whoever
    asks; and ``treasury.record`` cannot end a waiting intent (that is a rejection or a
    withdrawal, with their rules) — PREPARED → REJECTED → SENT would get around the check."""
    database = team_databases.new_database(policy=ONE_APPROVAL)
    record_rejected = claimed(
        "treasury.record(e.id, treasury.claim(e.id), 'REJECTED', NULL, NULL, NULL, 'x', 'x',"
        " NULL, 'answer')"
    )
    moved: list[str] = []
    with (
        as_person(team_databases, database, "ana") as ana,
        as_person(team_databases, database, "bruno") as bruno,
    ):
        cases: list[tuple[str, psycopg.Connection[dict[str, Any]], int]] = []
        for label, sender in (
            ("rejected by bruno, then sent by bruno", bruno),
            ("rejected by bruno, then sent by its maker ana", ana),
        ):
            entry = prepare_raw(ana, "100.00")
            bruno.execute("SELECT treasury.reject(%s, 'wrong key')", (entry["id"],))
            cases.append((label, sender, entry["id"]))
        for label, sender in (
            ("withdrawn by ana, then sent by ana", ana),
            ("withdrawn by ana, then sent by bruno", bruno),
        ):
            entry = prepare_raw(ana, "200.00")
            ana.execute("SELECT treasury.withdraw(%s, 'typo')", (entry["id"],))
            cases.append((label, sender, entry["id"]))
        entry = prepare_raw(ana, "300.00")  # hers and not approved: not ended by record
        # (no claim on what waits for approval, and record itself would say so)
        with pytest.raises(
            psycopg.errors.InsufficientPrivilege, match=r"cannot be sent|reject or withdraw"
        ):
            ana.execute(record_rejected, (entry["id"],))
        assert journal_row(team_databases, database, entry["id"])["state"] == "PREPARED"
        rows = [_entry(prepare_raw(ana, amount, batch="b1")) for amount in ("400.00", "500.00")]
        bruno.execute(
            "SELECT * FROM treasury.approve_batch('b1', %s, %s::bigint[], %s::text[])",
            (batch_hash(rows), [rows[1].id], ["not ours"]),
        )
        cases.append(("batch row rejected by bruno, then sent by bruno", bruno, rows[1].id))
        for label, sender, entry_id in cases:
            try:
                sender.execute(RECORD_SENT_SQL, (entry_id,))
            except psycopg.errors.Error:
                continue
            state = journal_row(team_databases, database, entry_id)
            moved.append(f"{label}: entry {entry_id} now {state['state']}/{state['approval']}")
    assert moved == [], "; ".join(moved)


# -- 2. prepare, approve, release through the store ----------------------------------------


async def test_prepared_approved_and_released_by_the_approver(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=DEFAULT)
    detail = payee()
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla") as (
        ana,
        bruno,
        carla,
    ):
        # A payee never paid before: one approval for the amount, one more for the payee.
        first = await ana.journal.create(intent("500.00", detail=detail))
        assert first.state == EntryState.PREPARED and first.approval == "WAITING"
        assert (first.approvals_needed, first.approvals_given, first.new_payee) == (2, 0, True)
        assert first.created_by == "ana" and first.approved_by is None
        with pytest.raises(ApprovalRefused, match="0 of 2 approvals"):
            await bruno.journal.update(first.id, EntryState.SENT)
        half = await approvals(bruno).approve(first.id, first.content_hash or "")
        assert (half.approval, half.approvals_given) == ("WAITING", 1)
        with pytest.raises(ApprovalRefused, match="1 of 2 approvals"):
            await bruno.journal.update(first.id, EntryState.SENT)
        done = await approvals(carla).approve(first.id, first.content_hash or "")
        assert (done.approval, done.approvals_given, done.approved_by) == ("APPROVED", 2, "carla")
        sent = await carla.journal.update(first.id, EntryState.SENT, note="released")
        assert (sent.state, sent.approval, sent.released_by) == (
            EntryState.SENT,
            "RELEASED",
            "carla",
        )
        await carla.journal.update(
            first.id, EntryState.ACCEPTED, bank_status="SETTLED", final=True, bank_id="E1"
        )
        # Paid as far as carla's desktop knows; the bank confirms it when another login asks
        # it (here bruno's desktop's lookup; or the receiver's notification).
        confirmed = await bruno.journal.update(
            first.id, EntryState.ACCEPTED, bank_status="SETTLED", bank_id="E1", lookup=True
        )
        assert (confirmed.outcome_by, confirmed.confirmed_by) == ("carla", "bruno")

        # The same key again, paid now: no extra approval.
        second = await ana.journal.create(intent("500.00", detail=detail, description="May"))
        assert (second.approval, second.approvals_needed, second.new_payee) == (
            "WAITING",
            1,
            False,
        )
        assert await approvals(bruno).waiting_for("bruno") == [second]
        assert await approvals(ana).prepared_by("ana") == [second]
        approved = await approvals(bruno).approve(second.id, second.content_hash or "")
        assert approved.state == EntryState.PREPARED
        assert (approved.approval, approved.approvals_given, approved.approved_by) == (
            "APPROVED",
            1,
            "bruno",
        )
        assert approved.approvals_expire_at is not None
        assert await approvals(bruno).waiting_for("bruno") == []
        released = await bruno.journal.update(second.id, EntryState.SENT, note="released")
        assert released.state == EntryState.SENT
        assert (released.approval, released.released_by) == ("RELEASED", "bruno")
        assert released.created_by == "ana"
    row = journal_row(team_databases, database, second.id)
    assert (row["state"], row["approval"], row["released_by"], row["approved_by"]) == (
        "SENT",
        "RELEASED",
        "bruno",
        "bruno",
    )
    with superuser(team_databases, database) as conn:
        history = conn.execute(
            "SELECT state, note, actor FROM treasury.journal_history WHERE entry_id = %s"
            " ORDER BY id",
            (second.id,),
        ).fetchall()
    assert [(h["state"], h["actor"]) for h in history] == [
        ("PREPARED", "ana"),
        ("PREPARED", "bruno"),
        ("SENT", "bruno"),
    ]


# -- 3. the threshold, and one person counts once ------------------------------------------


async def test_above_the_threshold_two_distinct_approvers_are_needed(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla") as (
        ana,
        bruno,
        carla,
    ):
        at_threshold = await ana.journal.create(intent("10000.00"))
        assert at_threshold.approvals_needed == 1  # "above" the threshold: not at it
        big = await ana.journal.create(intent("10000.01"))
        assert (big.approval, big.approvals_needed) == ("WAITING", 2)
        digest = big.content_hash or ""
        once = await approvals(bruno).approve(big.id, digest)
        twice = await approvals(bruno).approve(big.id, digest)
        for seen in (once, twice, await ana.journal.get(big.id)):
            assert (seen.approval, seen.approvals_given) == ("WAITING", 1)
        assert [a.approver for a in await approvals(ana).approvals(big.id)] == ["bruno"]
        with pytest.raises(ApprovalRefused, match="1 of 2 approvals"):
            await bruno.journal.update(big.id, EntryState.SENT)
        assert "bruno" not in await approvals(ana).eligible_approvers(big.id)
        assert "carla" in await approvals(ana).eligible_approvers(big.id)
        done = await approvals(carla).approve(big.id, digest)
        assert (done.approval, done.approvals_given, done.approved_by) == ("APPROVED", 2, "carla")
        sent = await carla.journal.update(big.id, EntryState.SENT)
        assert (sent.approval, sent.released_by) == ("RELEASED", "carla")


# -- 4. an edit voids the approvals --------------------------------------------------------


async def test_an_edit_after_an_approval_voids_it(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla") as (
        ana,
        bruno,
        carla,
    ):
        entry = await ana.journal.create(intent("500.00", detail=detail))
        old_hash = entry.content_hash or ""
        approved = await approvals(bruno).approve(entry.id, old_hash)
        assert approved.approval == "APPROVED"
        with pytest.raises(ApprovalRefused, match="Only ana"):
            await approvals(carla).edit(
                entry.id,
                amount=Decimal("12000.00"),
                description="",
                request_json=dumps_json(request("12000.00", detail)),
            )
        edited = await approvals(ana).edit(
            entry.id,
            amount=Decimal("12000.00"),
            description="more",
            request_json=dumps_json(request("12000.00", detail, "more")),
        )
        assert edited.amount == Decimal("12000.00") and edited.description == "more"
        assert edited.content_hash != old_hash
        assert edited.content_hash == entry_content_hash(edited)
        assert (edited.approval, edited.approvals_given, edited.approved_by) == (
            "WAITING",
            0,
            None,
        )
        assert edited.approvals_needed == 2  # now above the threshold
        assert edited.approvals_expire_at is None
        (voided,) = await approvals(ana).approvals(entry.id)
        assert (voided.approver, voided.content_hash) == ("bruno", old_hash)
        assert voided.void_reason == "content changed" and not voided.valid
        with pytest.raises(ApprovalRefused, match="changed since it was reviewed"):
            await approvals(bruno).approve(entry.id, old_hash)
        with pytest.raises(ApprovalRefused, match="0 of 2 approvals"):
            await bruno.journal.update(entry.id, EntryState.SENT)
        again = await approvals(bruno).approve(entry.id, edited.content_hash or "")
        assert (again.approval, again.approvals_given) == ("WAITING", 1)
        done = await approvals(carla).approve(entry.id, edited.content_hash or "")
        assert (done.approval, done.approvals_given) == ("APPROVED", 2)
    rows = approval_rows(team_databases, database, entry.id)
    assert [(r["approver"], r["void_reason"]) for r in rows] == [
        ("bruno", "content changed"),
        ("bruno", None),
        ("carla", None),
    ]


# -- 5. per-person limits ------------------------------------------------------------------


async def test_an_approver_over_her_limits_cannot_approve(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with superuser(team_databases, database) as conn:
        team_migrations.set_limits(
            conn, "dora", payment_limit=Decimal("1000"), daily_limit=Decimal("1500")
        )
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "dora") as (
        ana,
        bruno,
        dora,
    ):
        big = await ana.journal.create(intent("1500.00"))
        eligible = await approvals(ana).eligible_approvers(big.id)
        assert "dora" not in eligible and {"bruno", "carla"} <= set(eligible)
        assert "ana" not in eligible  # a maker only
        with pytest.raises(ApprovalRefused) as refused:
            await approvals(dora).approve(big.id, big.content_hash or "")
        message = str(refused.value)
        assert "R$ 1.500,00 is over dora's limit (R$ 1.000,00 per payment" in message
        assert "it takes the approval of" in message and "bruno" in message
        # (other tests' people share the server's roles: "lim_dora" is not dora)
        named = re.split(r"[\s,.;:()]+", message.split("approval of", 1)[1])
        assert "dora" not in named
        with (  # psql: the same refusal
            as_person(team_databases, database, "dora") as raw,
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="over dora's limit"),
        ):
            raw.execute("SELECT treasury.approve(%s, %s)", (big.id, big.content_hash))
        assert (await ana.journal.get(big.id)).approvals_given == 0

        first = await ana.journal.create(intent("900.00"))
        second = await ana.journal.create(intent("700.00"))
        assert "dora" in await approvals(ana).eligible_approvers(second.id)
        approved = await approvals(dora).approve(first.id, first.content_hash or "")
        assert (approved.approval, approved.approved_by) == ("APPROVED", "dora")
        assert "dora" not in await approvals(ana).eligible_approvers(second.id)
        with pytest.raises(ApprovalRefused, match=r"R\$ 900,00 approved today") as daily:
            await approvals(dora).approve(second.id, second.content_hash or "")
        assert "R$ 1.500,00 per day" in str(daily.value)
        assert (await ana.journal.get(second.id)).approvals_given == 0
        # Someone without limits approves what dora cannot.
        assert (await approvals(bruno).approve(big.id, big.content_hash or "")).approval == (
            "APPROVED"
        )
    assert [r["approver"] for r in approval_rows(team_databases, database, second.id)] == []


async def test_a_batch_over_the_approvers_daily_limit_is_refused_whole(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with superuser(team_databases, database) as conn:
        team_migrations.set_limits(
            conn, "dora", payment_limit=Decimal("1000"), daily_limit=Decimal("1500")
        )
    async with desks(team_databases, tmp_path, database, "ana", "dora") as (ana, dora):
        for _ in range(3):
            await ana.journal.create(intent("600.00", batch="big"))
        rows = await approvals(dora).batch_rows("big")
        with pytest.raises(ApprovalRefused, match="over dora's limit"):
            await approvals(dora).approve_batch("big", batch_hash(rows), {})
        after = await approvals(dora).batch_rows("big")
        assert [(r.approval, r.approvals_given) for r in after] == [("WAITING", 0)] * 3
        assert all(approval_rows(team_databases, database, r.id) == [] for r in after)
        # Without the third row it fits: 1.200,00 of 1.500,00.
        decided = await approvals(dora).approve_batch(
            "big", batch_hash(rows), {rows[2].id: "next week"}
        )
        assert [e.approval for e in decided] == ["APPROVED", "APPROVED", "REJECTED"]


# -- 6. expiry -------------------------------------------------------------------------------


async def test_an_expired_approval_cannot_release(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "bruno") as (ana, bruno):
        entry = await ana.journal.create(intent("500.00"))
        approved = await approvals(bruno).approve(entry.id, entry.content_hash or "")
        assert approved.approval == "APPROVED" and approved.approvals_expire_at is not None
        assert approved.approvals_expire_at > approved.updated_at  # later today (Brasília)
        with superuser(team_databases, database) as conn:
            conn.execute(
                "UPDATE treasury.journal SET approvals_expire_at = '2000-01-01T00:00:00.000Z'"
                " WHERE id = %s",
                (entry.id,),
            )
        with pytest.raises(ApprovalRefused, match="0 of 1 approvals"):
            await bruno.journal.update(entry.id, EntryState.SENT)
        with pytest.raises(ApprovalRefused, match="0 of 1 approvals"):
            await ana.journal.update(entry.id, EntryState.SENT)
        assert await approvals(bruno).expire_due() == 1
        assert await approvals(bruno).expire_due() == 0
        again = await ana.journal.get(entry.id)
        assert again.state == EntryState.PREPARED
        assert (again.approval, again.approvals_given, again.approved_by) == ("WAITING", 0, None)
        assert again.approvals_expire_at is None
        (voided,) = await approvals(ana).approvals(entry.id)
        assert voided.void_reason == "expired"
        expired = [
            row
            for row in audit_rows(team_databases, database)
            if row["action"] == "approval.expire"
        ]
        assert len(expired) == 1 and expired[0]["reference"] == entry.idempotency_key
        assert expired[0]["actor"] == "bruno" and expired[0]["outcome"] == "expired"
        assert json.loads(expired[0]["details"])["voided"] == 1
        # A fresh approval releases it.
        renewed = await approvals(bruno).approve(entry.id, entry.content_hash or "")
        assert renewed.approval == "APPROVED"
        assert (await bruno.journal.update(entry.id, EntryState.SENT)).approval == "RELEASED"


# -- 7. one pending intent per content -------------------------------------------------------


async def test_the_same_payee_and_amount_again_while_one_waits_is_refused(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    async with desks(team_databases, tmp_path, database, "ana") as (ana,):
        first = await ana.journal.create(intent("250.00", detail=detail, description="NF 12"))
        with pytest.raises(PendingDuplicate) as twin:
            await ana.journal.create(intent("250.00", detail=detail, description="NF 12"))
        assert twin.value.entry.id == first.id and twin.value.entry.approval == "WAITING"
        assert f"Payment {first.id} " in str(twin.value)
        with pytest.raises(PendingDuplicate):  # the amount as typed differently
            await ana.journal.create(intent("250.0", detail=detail, description="NF 12"))
        other = await ana.journal.create(intent("250.00", detail=detail, description="NF 13"))
        assert other.id != first.id and other.approval == "WAITING"
        with pytest.raises(DuplicateIntent) as duplicate:
            await ana.journal.create(
                intent("250.00", detail=detail, description="NF 12", key=first.idempotency_key)
            )
        assert duplicate.value.entry.id == first.id
        # Nor does an edit make a waiting twin (the database refuses it, naming the first).
        with (
            as_person(team_databases, database, "ana") as raw,
            pytest.raises(psycopg.errors.UniqueViolation) as edited,
        ):
            raw.execute(
                "SELECT treasury.edit(%s, 250, 'NF 12', %s)",
                (other.id, dumps_json(request("250.00", detail, "NF 12"))),
            )
        assert edited.value.diag.constraint_name == "journal_pending_content"
        assert edited.value.diag.message_detail == str(first.id)
        assert (await ana.journal.get(other.id)).description == "NF 13"
        await approvals(ana).withdraw(first.id, "sent by mistake")
        after = await ana.journal.create(intent("250.00", detail=detail, description="NF 12"))
        assert after.approval == "WAITING"  # the first one no longer waits
    assert state_counts(team_databases, database) == {"PREPARED": 2, "REJECTED": 1}


def state_counts(team: TeamDatabases, database: str) -> dict[str, int]:
    with superuser(team, database) as conn:
        rows = conn.execute(
            "SELECT state, count(*) AS n FROM treasury.journal GROUP BY state"
        ).fetchall()
    return {row["state"]: int(row["n"]) for row in rows}


# -- 8. reject and withdraw end the intent ---------------------------------------------------


async def test_reject_needs_a_reason_and_withdraw_is_the_makers_only(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla", "eva") as (
        ana,
        bruno,
        carla,
        eva,
    ):
        entry = await ana.journal.create(intent("800.00", detail=detail))
        with pytest.raises(ApprovalRefused, match="A rejection needs a reason"):
            await approvals(bruno).reject(entry.id, "   ")
        with pytest.raises(ApprovalRefused, match="Ana is not an approver"):
            await approvals(ana).reject(entry.id, "changed my mind")
        assert (await ana.journal.get(entry.id)).approval == "WAITING"
        rejected = await approvals(bruno).reject(entry.id, "wrong key")
        assert rejected.state == EntryState.REJECTED and rejected.final
        assert (rejected.approval, rejected.decided_by, rejected.decision_reason) == (
            "REJECTED",
            "bruno",
            "wrong key",
        )
        assert read_coded(rejected.error) == ("rejected", {"by": "bruno", "reason": "wrong key"})
        for who in (bruno, carla):
            with pytest.raises(ApprovalRefused, match="no longer waiting for approval"):
                await approvals(who).approve(entry.id, entry.content_hash or "")
        with pytest.raises(ApprovalRefused, match="no longer waiting"):
            await approvals(ana).withdraw(entry.id, "not needed")
        assert await approvals(carla).waiting_for("carla") == []

        mine = await ana.journal.create(intent("800.00", detail=detail))  # ended: not a twin
        for who in (bruno, eva):  # an approver; a maker and approver, not its maker
            with pytest.raises(
                ApprovalRefused, match=f"Only ana \\(who prepared entry {mine.id}\\) withdraws it"
            ):
                await approvals(who).withdraw(mine.id, "not theirs")
        withdrawn = await approvals(ana).withdraw(mine.id, "paid by card")
        assert withdrawn.state == EntryState.REJECTED and withdrawn.final
        assert (withdrawn.approval, withdrawn.decided_by) == ("WITHDRAWN", "ana")
        with pytest.raises(ApprovalRefused, match=r"no longer waiting for approval \(withdrawn\)"):
            await approvals(bruno).approve(mine.id, mine.content_hash or "")
        with pytest.raises(ApprovalRefused, match="no longer waiting"):
            await approvals(carla).reject(mine.id, "late")
    assert approval_rows(team_databases, database, entry.id) == []
    assert approval_rows(team_databases, database, mine.id) == []


# -- 9. batches ------------------------------------------------------------------------------


async def test_a_batch_is_approved_as_one_decision_with_per_row_rejects(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "bruno") as (ana, bruno):
        for amount in ("100.00", "200.00", "300.00"):
            await ana.journal.create(intent(amount, batch="b1"))
        rows = await approvals(bruno).batch_rows("b1")
        assert [r.approval for r in rows] == ["WAITING"] * 3
        reviewed = batch_hash(rows)
        reject = {rows[1].id: "duplicate of last week's"}

        async def unchanged() -> None:
            now = await approvals(bruno).batch_rows("b1")
            assert [(r.approval, r.approvals_given, r.state) for r in now] == [
                ("WAITING", 0, EntryState.PREPARED)
            ] * 3
            assert all(approval_rows(team_databases, database, r.id) == [] for r in now)

        with pytest.raises(ApprovalRefused, match="Batch b1 changed since it was reviewed"):
            await approvals(bruno).approve_batch("b1", "0" * 64, reject)
        await unchanged()
        # A row changed after the review: the reviewed hash no longer matches.
        changed = await approvals(ana).edit(
            rows[2].id,
            amount=Decimal("300.00"),
            description="other",
            request_json=dumps_json(request("300.00", rows[2].payee_detail, "other")),
        )
        with pytest.raises(ApprovalRefused, match="changed since it was reviewed"):
            await approvals(bruno).approve_batch("b1", reviewed, reject)
        await unchanged()
        rows = await approvals(bruno).batch_rows("b1")
        assert rows[2].content_hash == changed.content_hash
        decided = await approvals(bruno).approve_batch("b1", batch_hash(rows), reject)
        assert sorted((e.id, e.approval) for e in decided) == [
            (rows[0].id, "APPROVED"),
            (rows[1].id, "REJECTED"),
            (rows[2].id, "APPROVED"),
        ]
        after = {e.id: e for e in await approvals(bruno).batch_rows("b1")}
        assert after[rows[1].id].state == EntryState.REJECTED and after[rows[1].id].final
        assert after[rows[1].id].decision_reason == "duplicate of last week's"
        assert after[rows[0].id].approved_by == "bruno"
    batch_audit = [
        r for r in audit_rows(team_databases, database) if r["action"] == "approval.batch"
    ]
    assert len(batch_audit) == 1 and batch_audit[0]["actor"] == "bruno"
    assert json.loads(batch_audit[0]["details"]) == {
        "approved": 2,
        "rejected": 1,
        "batch_hash": batch_hash(rows),
    }


# -- 10. every decision is audited -----------------------------------------------------------


async def test_every_decision_is_an_audit_row_with_its_actor_and_content_hash(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla") as (
        ana,
        bruno,
        carla,
    ):
        sent = await ana.journal.create(intent("500.00", detail=detail))
        first_hash = sent.content_hash
        await approvals(bruno).approve(sent.id, first_hash or "")
        edited = await approvals(ana).edit(
            sent.id,
            amount=Decimal("450.00"),
            description="",
            request_json=dumps_json(request("450.00", detail)),
        )
        await approvals(bruno).approve(sent.id, edited.content_hash or "")
        with superuser(team_databases, database) as conn:
            conn.execute(
                "UPDATE treasury.journal SET approvals_expire_at = '2000-01-01T00:00:00.000Z'"
                " WHERE id = %s",
                (sent.id,),
            )
        assert await approvals(carla).expire_due() == 1
        await approvals(carla).approve(sent.id, edited.content_hash or "")
        await carla.journal.update(sent.id, EntryState.SENT)
        rejected = await ana.journal.create(intent("600.00"))
        await approvals(carla).reject(rejected.id, "unknown supplier")
        withdrawn = await ana.journal.create(intent("700.00"))
        await approvals(ana).withdraw(withdrawn.id, "duplicate")

    rows = audit_rows(team_databases, database)
    report = verify_chain(rows)
    assert report.ok, report.reason
    decisions = [
        (row["action"], row["actor"], row["reference"], json.loads(row["details"]))
        for row in rows
        if row["action"].startswith("approval.")
    ]
    h1, h2 = first_hash, edited.content_hash
    expected = [
        ("approval.prepare", "ana", sent.idempotency_key, h1),
        ("approval.approve", "bruno", sent.idempotency_key, h1),
        ("approval.edit", "ana", sent.idempotency_key, h2),
        ("approval.approve", "bruno", sent.idempotency_key, h2),
        ("approval.expire", "carla", sent.idempotency_key, h2),
        ("approval.approve", "carla", sent.idempotency_key, h2),
        ("approval.release", "carla", sent.idempotency_key, h2),
        ("approval.prepare", "ana", rejected.idempotency_key, rejected.content_hash),
        ("approval.reject", "carla", rejected.idempotency_key, rejected.content_hash),
        ("approval.prepare", "ana", withdrawn.idempotency_key, withdrawn.content_hash),
        ("approval.withdraw", "ana", withdrawn.idempotency_key, withdrawn.content_hash),
    ]
    assert [(a, who, ref, d["content_hash"]) for a, who, ref, d in decisions] == expected
    for action, _, _, details in decisions:
        assert details["maker"] == "ana" and "entry" in details, action
    by_action = {a: d for a, _, _, d in decisions}
    assert by_action["approval.edit"]["content_hash_before"] == h1
    assert by_action["approval.edit"]["voided"] == 1
    assert by_action["approval.reject"]["reason"] == "unknown supplier"
    assert by_action["approval.release"]["approved_by"] == "carla"
    outcomes = [row["outcome"] for row in rows if row["action"].startswith("approval.")]
    assert outcomes == [
        "waiting",
        "approved",
        "changed",
        "approved",
        "expired",
        "approved",
        "released",
        "waiting",
        "rejected",
        "waiting",
        "withdrawn",
    ]


# -- 11. the desktop's content hash is the database's -------------------------------------


async def test_the_python_content_hash_matches_the_databases(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    decomposed = unicodedata.normalize("NFD", "José Conceição")
    cases = [
        ("Ação & Cia — São Paulo", "pagamento de março: café ☕", "1234.5"),
        ("Müller Ñandú 🙂", "Ünïcödé ✓ «aspas» 'single' \"double\"", "0.01"),
        (decomposed, "NFD: " + decomposed, "10000"),
        ("名前", "説明\nsegunda linha\ttab", "987654321.99"),
        ("", "", "42.10"),
    ]
    async with desks(team_databases, tmp_path, database, "ana") as (ana,):
        for name, description, amount in cases:
            new = intent(amount, name=name, description=description)
            expected = content_hash(
                kind=new.kind.value,
                payee_name=new.payee_name,
                payee_document=new.payee_document,
                payee_detail=new.payee_detail,
                amount=new.amount,
                description=new.description,
                payment_flow=new.payment_flow,
                request_json=dumps_json(dict(new.request)),
            )
            entry = await ana.journal.create(new)
            assert entry.payee_name == name and entry.description == description
            assert entry.content_hash == expected, (name, description, amount)
            assert entry_content_hash(entry) == entry.content_hash
            assert entry_content_hash(await ana.journal.get(entry.id)) == entry.content_hash
    with superuser(team_databases, database) as conn:
        mismatched = conn.execute(
            "SELECT id FROM treasury.journal WHERE content_hash IS DISTINCT FROM"
            " treasury.content_hash(kind, payee_name, payee_document, payee_detail, amount,"
            " description, payment_flow, request_json)"
        ).fetchall()
    assert mismatched == []


# -- 12. policy versions ---------------------------------------------------------------------


async def test_a_policy_change_applies_to_intents_prepared_after_it(
    team_databases: TeamDatabases, tmp_path: Path, people: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    async with desks(team_databases, tmp_path, database, "ana", "bruno", "carla") as (
        ana,
        bruno,
        carla,
    ):
        v1 = (await approvals(ana).policy()).version
        before = await ana.journal.create(intent("500.00"))
        assert (before.approvals_needed, before.policy_version) == (1, v1)
        with superuser(team_databases, database) as conn:
            v2 = team_migrations.set_policy(conn, approvals=2)
        assert v2 == v1 + 1 and (await approvals(ana).policy()).approvals == 2
        old = await approvals(ana).policy_version(v1)
        assert old is not None and old.approvals == 1
        after = await ana.journal.create(intent("500.00"))
        assert (after.approvals_needed, after.policy_version) == (2, v2)
        # The one prepared before keeps its version, even when its maker edits it.
        detail = before.payee_detail
        edited = await approvals(ana).edit(
            before.id,
            amount=Decimal("600.00"),
            description="",
            request_json=dumps_json(request("600.00", detail)),
        )
        assert (edited.approvals_needed, edited.policy_version) == (1, v1)
        done = await approvals(bruno).approve(before.id, edited.content_hash or "")
        assert (done.approval, done.approvals_given) == ("APPROVED", 1)
        half = await approvals(bruno).approve(after.id, after.content_hash or "")
        assert (half.approval, half.approvals_given) == ("WAITING", 1)
        done = await approvals(carla).approve(after.id, after.content_hash or "")
        assert (done.approval, done.approvals_given) == ("APPROVED", 2)
    policy_rows = [r for r in audit_rows(team_databases, database) if r["action"] == "admin.policy"]
    assert policy_rows[-1]["reference"] == f"policy {v2}"
    assert json.loads(policy_rows[-1]["details"])["approvals"] == 2
