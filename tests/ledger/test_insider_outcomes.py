"""The team's own people cannot fake, hide, swap or stall a payment (issue 32, schema 4).

Each attack is made as the person would make it: with raw psycopg and their own login (what
``psql`` gives them), against a team database of its own. The people: ``ana`` and ``max``
prepare (makers only); ``bruno`` and ``carla`` approve (approvers only); ``rita`` is the
webhook receiver's login (the bank's notifications).

* a bank outcome is recorded only under the entry's claim, and only as the payment engine
  moves (``treasury.claim`` / ``treasury.record``);
* the bank's word — the receiver's notification, another login's lookup — overrules what a
  desktop recorded, final or not, and the overruled outcome is kept, shown and audited;
* amounts are money; limits and "one waiting intent per content" hold under concurrency;
* a receipt belongs to one payment, for good; claim rows cannot be locked by hand.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest

from tests.ledger.test_approvals_db import as_person, give_exactly, superuser
from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.waiting import wait_until_blocked
from treasury_app.api.accounts.models import PixPayment
from treasury_app.api.errors import NotFound, TransportFailure
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team import schema as team_schema
from treasury_app.ledger.team.integrity_schema import (
    AMOUNT_CODE,
    CLAIM_CODE,
    MOVE_CODE,
    REASON_CODE,
    RECEIPT_CODE,
)
from treasury_app.ledger.team.integrity_schema import (
    PRIVILEGES_SQL as INTEGRITY_PRIVILEGES_SQL,
)
from treasury_app.ledger.team.schema import APPROVER, MAKER, PERSON_ROLES, RECEIVER
from treasury_app.ledger.team.store import AmountRefused, ClaimRefused
from treasury_app.ledger.team.trust_schema import OVERRULED_NOTE
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.tracker import PaymentTracker

pytestmark = pytest.mark.usefixtures("team_databases")

PEOPLE: dict[str, tuple[str, ...]] = {
    "ana": (MAKER,),
    "max": (MAKER,),
    "bruno": (APPROVER,),
    "carla": (APPROVER,),
    "rita": (RECEIVER,),
}
ONE_APPROVAL: dict[str, Any] = {"new_payee_extra": 0}
"""One approval up to R$ 10.000,00 (two above), nothing more for a new payee."""
NEW_PAYEE_ONLY: dict[str, Any] = {"approvals": 0, "approvals_above": 0, "new_payee_extra": 1}
"""An approval only for a payee never paid before."""

OLD_RECORD_SQL = (
    "SELECT * FROM treasury.record(%s, %s, %s, true, 'E00000000INVENTED', 'B-INVENTED', NULL,"
    " 'forged', NULL)"
)
"""Schema 3's ``treasury.record``: no claim, the caller's word for everything."""
RECORD_SQL = (
    "SELECT * FROM treasury.record(%(id)s, %(claim)s, %(state)s, %(status)s, %(e2e)s,"
    " %(bank_id)s, %(error)s, 'by hand', NULL, %(word)s)"
)
CLAIMED_RECORD_SQL = (
    "SELECT r.* FROM (SELECT %(id)s::bigint AS id) e, LATERAL treasury.record(e.id,"
    " treasury.claim(e.id), %(state)s, %(status)s, %(e2e)s, %(bank_id)s, %(error)s,"
    " 'by hand', NULL, %(word)s) r"
)
"""The claim and the record in one statement (one transaction, one connection)."""


# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def insiders(team_databases: TeamDatabases) -> dict[str, tuple[str, ...]]:
    """The logins (cluster-wide roles) with exactly their roles."""
    return give_exactly(team_databases, PEOPLE, (*PERSON_ROLES, RECEIVER))


@asynccontextmanager
async def desk(
    team: TeamDatabases, tmp_path: Path, database: str, user: str
) -> AsyncIterator[Ledger]:
    async with opened_ledger("team", tmp_path / user, user=user, database=database) as ledger:
        yield ledger


def payee() -> str:
    return f"{uuid.uuid4().hex[:10]}@example.com"


def intent(amount: str, *, detail: str | None = None, description: str = "") -> NewEntry:
    detail = detail or payee()
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=str(uuid.uuid4()),
        request={
            "pixKey": detail,
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
            "description": description,
        },
        payee_name="Fornecedor Ltda",
        payee_detail=detail,
        description=description,
    )


def prepare_raw(
    conn: psycopg.Connection[dict[str, Any]],
    amount: Decimal | str,
    *,
    detail: str | None = None,
    description: str = "",
) -> dict[str, Any]:
    """``treasury.prepare`` called by hand: the new journal row."""
    detail = detail or payee()
    row = conn.execute(
        "SELECT * FROM treasury.prepare('PIX_KEY', 'Fornecedor', '', %s, %s, %s, 'INSTANT',"
        " %s, %s, 'p', NULL)",
        (
            detail,
            Decimal(amount),
            description,
            str(uuid.uuid4()),
            json.dumps({"pixKey": detail, "description": description}),
        ),
    ).fetchone()
    assert row is not None
    return row


def record_raw(
    conn: psycopg.Connection[dict[str, Any]],
    entry_id: int,
    state: str,
    status: str | None = None,
    *,
    e2e: str | None = None,
    bank_id: str | None = None,
    error: str | None = None,
    word: str = "answer",
) -> dict[str, Any]:
    """Claim entry ``entry_id`` and record an outcome under the claim, by hand."""
    row = conn.execute(
        CLAIMED_RECORD_SQL,
        {
            "id": entry_id,
            "state": state,
            "status": status,
            "e2e": e2e,
            "bank_id": bank_id,
            "error": error,
            "word": word,
        },
    ).fetchone()
    assert row is not None
    return row


def notify(
    team: TeamDatabases,
    database: str,
    entry_id: int,
    status: str,
    *,
    final: bool,
    e2e: str | None = None,
) -> dict[str, Any]:
    """The bank's notification of ``entry_id`` through the receiver's login."""
    with as_person(team, database, "rita") as rita:
        row = rita.execute(
            "SELECT * FROM treasury.notified_status(%s, %s, %s, %s, NULL, 'webhook: transfer')",
            (entry_id, status, final, e2e),
        ).fetchone()
    assert row is not None
    return row


def journal_row(team: TeamDatabases, database: str, entry_id: int) -> dict[str, Any]:
    with superuser(team, database) as conn:
        row = conn.execute("SELECT * FROM treasury.journal WHERE id = %s", (entry_id,)).fetchone()
    assert row is not None
    return row


def audit_of(team: TeamDatabases, database: str, action: str) -> list[dict[str, Any]]:
    with superuser(team, database) as conn:
        rows = conn.execute(
            "SELECT * FROM treasury.audit WHERE action = %s ORDER BY seq", (action,)
        ).fetchall()
    return [row | {"details": json.loads(row["details"])} for row in rows]


def history_of(team: TeamDatabases, database: str, entry_id: int) -> list[dict[str, Any]]:
    with superuser(team, database) as conn:
        return conn.execute(
            "SELECT state, bank_status, note, actor FROM treasury.journal_history"
            " WHERE entry_id = %s ORDER BY id",
            (entry_id,),
        ).fetchall()


@contextmanager
def refused(
    error: type[psycopg.Error], code: str | None = None, match: str | None = None
) -> Iterator[None]:
    """The statement fails with ``error`` (SQLSTATE), the rule's ``code`` (its constraint
    name) and a message that matches ``match``."""
    with pytest.raises(error, match=match) as caught:
        yield
    if code is not None:
        assert caught.value.diag.constraint_name == code, caught.value


async def sent(
    ledger: Ledger,
    amount: str = "100.00",
    *,
    status: str | None = "ON_QUEUE",
    e2e: str | None = None,
    detail: str | None = None,
) -> Entry:
    """An intent journaled and sent by ``ledger``'s desktop (through its claim), accepted by
    the bank with ``status`` (``None``: its answer never came: ``SENT``)."""
    entry = await ledger.journal.create(intent(amount, detail=detail))
    entry = await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
    if status is not None:
        entry = await ledger.journal.update(
            entry.id,
            EntryState.ACCEPTED,
            bank_status=status,
            end_to_end_id=e2e or f"E{uuid.uuid4().hex[:31]}",
            bank_id=str(uuid.uuid4().int % 10**9),
            note="accepted",
        )
    return entry


# -- 1. outcomes: only under the claim, only the engine's moves --------------------------------


async def test_another_maker_cannot_write_an_outcome_on_a_colleagues_waiting_intent(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with (
        as_person(team_databases, database, "ana") as ana,
        as_person(team_databases, database, "max") as mx,
    ):
        entry = prepare_raw(ana, "500.00")
        assert (entry["state"], entry["approval"]) == ("PREPARED", "WAITING")
        entry_id = entry["id"]
        with refused(psycopg.errors.InsufficientPrivilege):
            mx.execute(OLD_RECORD_SQL, (entry_id, "ACCEPTED", "SETTLED"))
        forged = {
            "id": entry_id,
            "state": "ACCEPTED",
            "status": "SETTLED",
            "e2e": "E00000000INVENTED",
            "bank_id": "B-INVENTED",
            "error": None,
            "word": "answer",
        }
        for claim in (None, "1:1", f"{mx.info.backend_pid}:1", "not a token"):
            with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE, "does not hold"):
                mx.execute(RECORD_SQL, forged | {"claim": claim})
        with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE, "has 0 of 1 approvals"):
            mx.execute("SELECT treasury.claim(%s)", (entry_id,))
        with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE, "has 0 of 1 approvals"):
            mx.execute(CLAIMED_RECORD_SQL, forged)
        with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE):
            mx.execute("SELECT * FROM treasury.release(%s, 'x', NULL)", (entry_id,))
    row = journal_row(team_databases, database, entry_id)
    assert (row["state"], row["final"], row["bank_status"]) == ("PREPARED", False, None)
    assert (row["end_to_end_id"], row["bank_id"], row["approval"]) == (None, None, "WAITING")
    assert [h["note"] for h in history_of(team_databases, database, entry_id)] == ["journaled"]


async def test_a_colleagues_refusal_of_a_released_payment_is_overruled_by_the_bank(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()  # no dual control: ana's desktop sends
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        lost = await sent(ana, status=None)  # her answer never came: SENT
        accepted = await sent(ana, status="ON_QUEUE")
        settling = await sent(ana, status="PROCESSING")
    assert (lost.outcome_by, lost.outcome_word) == ("ana", "answer")
    with as_person(team_databases, database, "max") as mx:
        for entry in (lost, accepted):
            with refused(psycopg.errors.InsufficientPrivilege):
                mx.execute(OLD_RECORD_SQL, (entry.id, "REJECTED", None))
        # Under a claim of his own, max may record only what the engine records: the bank
        # cannot refuse a payment it accepted ...
        with refused(psycopg.errors.ObjectNotInPrerequisiteState, MOVE_CODE, "does not move"):
            record_raw(mx, accepted.id, "REJECTED", error="the bank refused it")
        # ... and a refusal names its reason
        with refused(psycopg.errors.CheckViolation, REASON_CODE, "needs its reason"):
            record_raw(mx, lost.id, "REJECTED")
        # what he can write, a desktop's word, the bank's word overrules
        refusal = record_raw(mx, lost.id, "REJECTED", error="422 Payment refused")
        failure = record_raw(mx, settling.id, "ACCEPTED", "CANCELED")
    assert (refusal["state"], refusal["final"], refusal["outcome_by"]) == ("REJECTED", True, "max")
    assert (failure["bank_status"], failure["final"], failure["confirmed_by"]) == (
        "CANCELED",
        True,
        None,
    )
    refused_audit = audit_of(team_databases, database, "payment.refused")
    assert [(a["actor"], a["outcome"], a["details"]["reason"]) for a in refused_audit] == [
        ("max", "refused", "422 Payment refused")
    ]
    # The bank says both were paid (the receiver's notifications): the bank wins.
    for entry, recorded in ((lost, ("REJECTED", None)), (settling, ("ACCEPTED", "CANCELED"))):
        after = notify(team_databases, database, entry.id, "SETTLED", final=True)
        assert (after["state"], after["bank_status"], after["final"]) == (
            "ACCEPTED",
            "SETTLED",
            True,
        )
        assert (after["outcome_by"], after["outcome_word"], after["confirmed_by"]) == (
            "rita",
            "notice",
            "rita",
        )
        assert (after["overruled_by"], after["overruled_state"], after["overruled_status"]) == (
            "max",
            *recorded,
        )
        assert after["overruled_at"] is not None
        notes = [h["note"] for h in history_of(team_databases, database, entry.id)]
        assert notes[-1] == OVERRULED_NOTE  # a code: who recorded what is on the entry
    overruled = audit_of(team_databases, database, "payment.overruled")
    assert [
        (
            a["actor"],
            a["outcome"],
            a["details"]["recorded_by"],
            a["details"]["recorded_state"],
            a["details"]["recorded_status"],
            a["details"]["via"],
        )
        for a in overruled
    ] == [
        ("rita", "bank_wins", "max", "REJECTED", None, "notice"),
        ("rita", "bank_wins", "max", "ACCEPTED", "CANCELED", "notice"),
    ]
    # Every desktop sees it: the entry says whose outcome the bank overruled.
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        shown = await ana.journal.get(lost.id)
        assert shown.overruled and shown.overruled_by == "max"
        assert (shown.overruled_state, shown.bank_status) == ("REJECTED", "SETTLED")
        assert "overruled" in (await ana.journal.history(lost.id))[-1].note
        assert len(await ana.audit.entries(action="payment.overruled")) == 2
    # A late notification that is not final leaves the bank's final word alone.
    late = notify(team_databases, database, lost.id, "PROCESSING", final=False)
    assert (late["bank_status"], late["final"]) == ("SETTLED", True)


async def test_an_approver_cannot_end_an_approved_intent_without_a_reason_and_an_audit_row(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with (
        as_person(team_databases, database, "ana") as ana,
        as_person(team_databases, database, "bruno") as bruno,
        as_person(team_databases, database, "carla") as carla,
    ):
        entry = prepare_raw(ana, "700.00")
        approved = bruno.execute(
            "SELECT * FROM treasury.approve(%s, %s)", (entry["id"], entry["content_hash"])
        ).fetchone()
        assert approved is not None and approved["approval"] == "APPROVED"
        with refused(psycopg.errors.InsufficientPrivilege):
            carla.execute(OLD_RECORD_SQL, (entry["id"], "REJECTED", None))
        with refused(psycopg.errors.CheckViolation, REASON_CODE, "needs its reason"):
            record_raw(carla, entry["id"], "REJECTED")
        with refused(psycopg.errors.CheckViolation, REASON_CODE):
            record_raw(carla, entry["id"], "REJECTED", error="   ")
        assert journal_row(team_databases, database, entry["id"])["state"] == "PREPARED"
        ended = record_raw(carla, entry["id"], "REJECTED", error="the key looks wrong")
    assert (ended["state"], ended["approval"], ended["final"]) == ("REJECTED", "REJECTED", True)
    assert (ended["outcome_by"], ended["error"]) == ("carla", "the key looks wrong")
    (audit,) = audit_of(team_databases, database, "payment.refused")
    assert (audit["actor"], audit["outcome"], audit["reference"]) == (
        "carla",
        "not_sent",
        entry["idempotency_key"],
    )
    assert audit["details"]["reason"] == "the key looks wrong"
    assert history_of(team_databases, database, entry["id"])[-1]["actor"] == "carla"


async def test_the_payment_engines_moves_only_even_under_a_claim(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        waiting = await ana.journal.create(intent("10.00"))
        settled = await sent(ana, status="SETTLED")
    with as_person(team_databases, database, "ana") as raw:
        for state, status in (("ACCEPTED", "SETTLED"), ("UNKNOWN", None), ("PREPARED", None)):
            with refused(psycopg.errors.ObjectNotInPrerequisiteState, MOVE_CODE):
                record_raw(raw, waiting.id, state, status)
        for state, status in (("ACCEPTED", "CANCELED"), ("SENT", None), ("UNKNOWN", None)):
            with refused(psycopg.errors.ObjectNotInPrerequisiteState, MOVE_CODE):
                record_raw(raw, settled.id, state, status)
        with refused(psycopg.errors.ObjectNotInPrerequisiteState, MOVE_CODE):
            record_raw(raw, settled.id, "REJECTED", error="x")
        # the same word again is nothing new
        again = record_raw(raw, settled.id, "ACCEPTED", "SETTLED")
        assert again["bank_status"] == "SETTLED"
        # "final" is the database's: a decided status is final, another is not
        going = record_raw(raw, waiting.id, "SENT")
        processing = record_raw(raw, going["id"], "ACCEPTED", "PROCESSING")
        assert processing["final"] is False
    row = journal_row(team_databases, database, settled.id)
    assert (row["state"], row["bank_status"], row["final"]) == ("ACCEPTED", "SETTLED", True)


# -- 2. the claim: checked from the recording session ---------------------------------------


async def test_a_claim_token_is_good_only_for_its_login_while_its_transaction_lives(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        entry = await sent(ana, status=None)
        with as_person(team_databases, database, "bruno", autocommit=False) as other_desk:
            other_desk.execute("SELECT treasury.claim(%s)", (entry.id,))
            with pytest.raises(ClaimRefused, match="another desktop"):
                await ana.journal.update(entry.id, EntryState.UNKNOWN, error="timeout")
    args = {
        "id": entry.id,
        "state": "UNKNOWN",
        "status": None,
        "e2e": None,
        "bank_id": None,
        "error": "timeout",
        "word": "answer",
    }
    with (
        as_person(team_databases, database, "bruno", autocommit=False) as holder,
        as_person(team_databases, database, "bruno") as bruno_pool,
        as_person(team_databases, database, "max") as mx,
    ):
        token = holder.execute("SELECT treasury.claim(%s) AS t", (entry.id,)).fetchone()
        assert token is not None and token["t"]
        # another login cannot use it, nor take the claim meanwhile
        with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE):
            mx.execute(RECORD_SQL, args | {"claim": token["t"]})
        assert mx.execute("SELECT treasury.claim(%s) AS t", (entry.id,)).fetchone() == {"t": None}
        assert mx.execute("SELECT treasury.claim_holder(%s) AS who", (entry.id,)).fetchone() == {
            "who": "bruno"
        }
        # the holder's login records from another connection (its desktop's pool)
        row = bruno_pool.execute(RECORD_SQL, args | {"claim": token["t"]}).fetchone()
        assert row is not None and (row["state"], row["outcome_by"]) == ("UNKNOWN", "bruno")
        holder.commit()  # the claim ends with its transaction
        with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE):
            bruno_pool.execute(RECORD_SQL, args | {"claim": token["t"]})


async def test_a_person_cannot_lock_claim_rows_and_the_app_still_sends(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        entry = await ana.journal.create(intent("33.00"))
        with as_person(team_databases, database, "max", autocommit=False) as mx:
            for clause in ("FOR UPDATE", "FOR NO KEY UPDATE", "FOR SHARE", "FOR KEY SHARE"):
                with refused(psycopg.errors.InsufficientPrivilege):
                    mx.execute(f"SELECT entry_id FROM treasury.entry_claims {clause}")
                mx.rollback()
            with refused(psycopg.errors.InsufficientPrivilege):
                mx.execute("LOCK TABLE treasury.entry_claims IN ROW EXCLUSIVE MODE")
            mx.rollback()
            with refused(psycopg.errors.InsufficientPrivilege, CLAIM_CODE, "only they send it"):
                mx.execute("SELECT treasury.claim(%s)", (entry.id,))
            mx.rollback()
            # whatever max keeps open, ana's desktop sends her payment
            mx.execute("SELECT count(*) FROM treasury.entry_claims")
            bank = LostAnswers()
            engine = PaymentEngine(bank, ana, follow_up=())  # type: ignore[arg-type]
            after = await engine.send(entry)
            assert bank.calls == [entry.idempotency_key]
            assert after.state == EntryState.UNKNOWN
            mx.rollback()


class LostAnswers:
    """A bank whose answers to payments are lost (the outcome stays unknown)."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    async def pay_pix_dict(self, request: Any, *, idempotency_key: str) -> Any:
        self.calls.append(idempotency_key)
        raise TransportFailure("lost", method="POST", path="/pix", request_sent=True)


class KnowingBank:
    """A bank that answers lookups by idempotency key from ``payments`` (absent: 404)."""

    def __init__(self, payments: dict[str, PixPayment]) -> None:
        self.payments = payments
        self.asked: list[str] = []

    async def get_pix_payment_by_idempotency_key(self, key: str) -> PixPayment:
        self.asked.append(key)
        if key not in self.payments:
            raise NotFound(404, detail="no such payment")
        return self.payments[key]


def pix(status: str, e2e: str, key: str) -> PixPayment:
    return PixPayment.model_validate(
        {"endToEndId": e2e, "status": status, "id": 4711, "idempotencyKey": key}
    )


# -- 3. the bank's word: another login's lookup, and "paid before" -------------------------


async def test_another_desktops_lookup_overrules_a_forged_outcome(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        paid = await sent(ana, status=None)
        never = await sent(ana, status=None)
        honest = await sent(ana, status=None)
    with as_person(team_databases, database, "max") as mx:
        record_raw(mx, paid.id, "ACCEPTED", "CANCELED", e2e="E00000000INVENTED")
        record_raw(mx, never.id, "ACCEPTED", "SETTLED", e2e="E00000000INVENTED2")
        # his own lookup confirms nothing
        again = record_raw(mx, never.id, "ACCEPTED", "SETTLED", word="lookup")
        assert again["confirmed_by"] is None
    with as_person(team_databases, database, "ana") as raw:
        record_raw(raw, honest.id, "ACCEPTED", "SETTLED", e2e="E" + "1" * 31)
    real = "E" + "7" * 31
    bank = KnowingBank(
        {
            paid.idempotency_key: pix("SETTLED", real, paid.idempotency_key),
            honest.idempotency_key: pix("SETTLED", "E" + "1" * 31, honest.idempotency_key),
        }
    )
    async with desk(team_databases, tmp_path, database, "bruno") as bruno:
        engine = PaymentEngine(bank, bruno, follow_up=())  # type: ignore[arg-type]
        tracker = PaymentTracker(engine, fetch_receipts=False)
        moved = await tracker.verify_outcomes()
        assert sorted(e.id for e in moved) == [paid.id, never.id]
        assert sorted(bank.asked) == sorted(
            [paid.idempotency_key, never.idempotency_key, honest.idempotency_key]
        )
        assert await tracker.verify_outcomes() == []  # asked once
        now_paid = await bruno.journal.get(paid.id)
        assert (now_paid.bank_status, now_paid.end_to_end_id, now_paid.outcome_by) == (
            "SETTLED",
            real,
            "bruno",
        )
        assert (now_paid.overruled_by, now_paid.overruled_status) == ("max", "CANCELED")
        not_at_the_bank = await bruno.journal.get(never.id)
        assert (not_at_the_bank.state, not_at_the_bank.final) == (EntryState.UNKNOWN, False)
        assert (not_at_the_bank.end_to_end_id, not_at_the_bank.overruled_status) == (
            None,
            "SETTLED",
        )
        confirmed = await bruno.journal.get(honest.id)
        assert (confirmed.confirmed_by, confirmed.overruled_by) == ("bruno", None)
    overruled = audit_of(team_databases, database, "payment.overruled")
    assert sorted(
        (a["details"]["entry"], a["actor"], a["details"]["recorded_by"], a["details"]["via"])
        for a in overruled
    ) == [(paid.id, "bruno", "max", "lookup"), (never.id, "bruno", "max", "lookup")]


async def test_paid_before_counts_only_what_the_bank_confirmed(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=NEW_PAYEE_ONLY)
    detail = payee()
    with (
        as_person(team_databases, database, "ana") as ana,
        as_person(team_databases, database, "max") as mx,
        as_person(team_databases, database, "bruno") as bruno,
    ):
        first = prepare_raw(ana, "90.00", detail=detail)
        assert (first["new_payee"], first["approvals_needed"]) == (True, 1)
        bruno.execute("SELECT treasury.approve(%s, %s)", (first["id"], first["content_hash"]))
        record_raw(bruno, first["id"], "SENT")
        # a colleague says it settled, with identifiers of his own: not the bank's word
        record_raw(mx, first["id"], "ACCEPTED", "SETTLED", e2e="E00000000INVENTED")
        second = prepare_raw(ana, "90.00", detail=detail, description="second")
        assert (second["new_payee"], second["approvals_needed"]) == (True, 1)
        # the bank, asked by another login, says the same: confirmed
        record_raw(bruno, first["id"], "ACCEPTED", "SETTLED", word="lookup")
        assert journal_row(team_databases, database, first["id"])["confirmed_by"] == "bruno"
        third = prepare_raw(ana, "90.00", detail=detail, description="third")
        assert (third["new_payee"], third["approvals_needed"]) == (False, 0)


async def test_a_desktops_late_refusal_does_not_outrank_the_banks_notification(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        entry = await sent(ana, status=None)
        async with ana.journal.claim(entry.id) as mine:  # ana's desktop is sending it
            assert mine
            notify(team_databases, database, entry.id, "SETTLED", final=True, e2e="E" + "5" * 31)
            late = await ana.journal.update(
                entry.id, EntryState.REJECTED, final=True, error="422 refused", note="refused"
            )
        assert (late.state, late.bank_status) == (EntryState.ACCEPTED, "SETTLED")
        assert (late.overruled_by, late.overruled_state) == ("ana", "REJECTED")
    (audit,) = audit_of(team_databases, database, "payment.overruled")
    assert (audit["actor"], audit["outcome"], audit["details"]["told_by"]) == (
        "ana",
        "bank_stands",
        "rita",
    )


# -- 4. money is money ------------------------------------------------------------------------

NOT_MONEY = ("NaN", "Infinity", "-Infinity", "1e30", "0", "-1", "0.001", "10000000000000.00")


async def test_amounts_that_are_not_money_are_refused_on_every_path(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with as_person(team_databases, database, "ana") as ana:
        for amount in NOT_MONEY:
            with refused(psycopg.errors.CheckViolation, AMOUNT_CODE, "more than zero"):
                prepare_raw(ana, amount)
        waiting = prepare_raw(ana, "9999999999999.99")  # the ceiling is money
        for amount in NOT_MONEY:
            with refused(psycopg.errors.CheckViolation, AMOUNT_CODE):
                ana.execute(
                    "SELECT * FROM treasury.edit(%s, %s, '', '{}')",
                    (waiting["id"], Decimal(amount)),
                )
    with superuser(team_databases, database) as owner:  # the column itself, whoever writes
        for amount in ("NaN", "Infinity", "1e30", "0.001"):
            with refused(psycopg.errors.CheckViolation, AMOUNT_CODE):
                owner.execute(
                    "UPDATE treasury.journal SET amount = %s WHERE id = %s",
                    (Decimal(amount), waiting["id"]),
                )
    assert journal_row(team_databases, database, waiting["id"])["amount"] == Decimal(
        "9999999999999.99"
    )
    async with desk(team_databases, tmp_path, database, "ana") as desktop:
        new = NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal("1e30"),
            idempotency_key=str(uuid.uuid4()),
            request={"pixKey": "x@example.com"},
            payee_detail="x@example.com",
        )
        with pytest.raises(AmountRefused) as caught:
            await desktop.journal.create(new)
        assert caught.value.code == AMOUNT_CODE


# -- 5. limits under concurrency --------------------------------------------------------------


def in_thread(call: Callable[[], Any]) -> tuple[threading.Thread, list[Any]]:
    """Run ``call`` on a thread of its own: its outcome (a value or the exception) lands in
    the list once done."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except Exception as error:  # the outcome is the test's to check
            outcome.append(error)

    thread = threading.Thread(target=run, name="second-session", daemon=True)
    thread.start()
    return thread, outcome


async def test_two_parallel_approvals_cannot_beat_a_daily_limit(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    with superuser(team_databases, database) as owner:
        team_migrations.set_limits(owner, "bruno", payment_limit=None, daily_limit=Decimal("15000"))
    with as_person(team_databases, database, "ana") as ana:
        one, two = (prepare_raw(ana, "9000.00") for _ in range(2))
    with (
        as_person(team_databases, database, "bruno", autocommit=False) as first,
        as_person(team_databases, database, "bruno") as second,
        superuser(team_databases, database) as observer,
    ):
        first.execute("SELECT treasury.approve(%s, %s)", (one["id"], one["content_hash"]))
        thread, outcome = in_thread(
            lambda: second.execute(
                "SELECT approval FROM treasury.approve(%s, %s)", (two["id"], two["content_hash"])
            ).fetchone()
        )
        wait_until_blocked(observer, second.info.backend_pid, by=first.info.backend_pid)
        first.commit()
        thread.join()
    (error,) = outcome
    assert isinstance(error, psycopg.errors.InsufficientPrivilege), error
    assert "over bruno's limit" in str(error) and "R$ 9.000,00 approved today" in str(error)
    with superuser(team_databases, database) as owner:
        rows = owner.execute(
            "SELECT entry_id FROM treasury.approvals WHERE approver = 'bruno'"
        ).fetchall()
    assert rows == [{"entry_id": one["id"]}]


async def test_two_parallel_prepares_of_one_content_leave_one_waiting_intent(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database(policy=ONE_APPROVAL)
    detail = payee()
    with (
        as_person(team_databases, database, "ana", autocommit=False) as first,
        as_person(team_databases, database, "max") as second,
        superuser(team_databases, database) as observer,
    ):
        made = prepare_raw(first, "250.00", detail=detail, description="rent")
        thread, outcome = in_thread(
            lambda: prepare_raw(second, "250.00", detail=detail, description="rent")
        )
        wait_until_blocked(observer, second.info.backend_pid, by=first.info.backend_pid)
        first.commit()
        thread.join()
    (error,) = outcome
    assert isinstance(error, psycopg.errors.UniqueViolation), error
    assert error.diag.constraint_name == "journal_pending_content"
    assert error.diag.message_detail == str(made["id"])  # the twin it found, by its id
    with superuser(team_databases, database) as owner:
        waiting = owner.execute(
            "SELECT id FROM treasury.journal WHERE payee_detail = %s", (detail,)
        ).fetchall()
    assert waiting == [{"id": made["id"]}]


# -- 6. receipts: one payment's, for good ---------------------------------------------------


async def test_a_receipt_cannot_be_planted_moved_or_replaced(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    banks = b"%PDF-1.4 the bank's receipt\n%%EOF\n"
    other = b"%PDF-1.4 the bank's receipt of another payment\n%%EOF\n"
    forged = b"%PDF-1.4 max's own receipt\n%%EOF\n"
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        paid = await sent(ana, status="SETTLED")
        second = await sent(ana, status="SETTLED")
        waiting = await sent(ana, status="PROCESSING")
        assert paid.end_to_end_id and second.end_to_end_id
        receipt = await ana.receipts.save(
            banks, kind="PIX", bank_id=paid.end_to_end_id, entry_id=paid.id
        )
        await ana.receipts.save(other, kind="PIX", bank_id=second.end_to_end_id, entry_id=second.id)
    digest = receipt.sha256
    with as_person(team_databases, database, "max") as mx:
        for statement, args in (
            (
                "INSERT INTO treasury.receipt_files (sha256, pdf, size)"
                " VALUES (encode(sha256(%s), 'hex'), %s, length(%s))",
                (forged, forged, forged),
            ),
            (
                "INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, saved_at, size)"
                " VALUES (%s, 'PIX', 'E-PLANTED', %s, 'x', 1)",
                (digest, paid.id),
            ),
            (
                "UPDATE treasury.receipts SET entry_id = %s WHERE entry_id = %s",
                (second.id, paid.id),
            ),
            ("UPDATE treasury.receipts SET sha256 = sha256", ()),
        ):
            with refused(psycopg.errors.InsufficientPrivilege):
                mx.execute(statement, args)
        store = "SELECT * FROM treasury.store_receipt(%s, 'PIX', %s, %s, 'x', NULL)"
        kept = mx.execute(store, (paid.id, paid.end_to_end_id, forged)).fetchone()
        assert kept is not None and kept["sha256"] == digest  # the first one stays
        # ... and max's other bytes put it in doubt, in his name (schema 6), not in its place
        assert (kept["disputed_by"], kept["confirmed_by"]) == ("max", None)
        again = mx.execute(store, (paid.id, paid.end_to_end_id, banks)).fetchone()
        assert again is not None and again["disputed_sha256"] == kept["disputed_sha256"]
        assert again["confirmed_by"] is None  # a dispute stays
        with refused(psycopg.errors.CheckViolation, RECEIPT_CODE):
            mx.execute(store, (paid.id, "E-PLANTED", forged))
        with refused(psycopg.errors.CheckViolation, RECEIPT_CODE):
            mx.execute(store, (paid.id, second.end_to_end_id, forged))
        with refused(psycopg.errors.ObjectNotInPrerequisiteState, RECEIPT_CODE):
            mx.execute(store, (waiting.id, waiting.end_to_end_id, forged))
    # A row planted before schema 4 (the owner writes it here) is not what desktops show.
    with superuser(team_databases, database) as owner:
        owner.execute(
            "INSERT INTO treasury.receipt_files (sha256, pdf, size)"
            " VALUES (encode(sha256(%s), 'hex'), %s, length(%s)) ON CONFLICT DO NOTHING",
            (forged, forged, forged),
        )
        owner.execute(
            "INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, saved_at, size)"
            " VALUES (encode(sha256(%s), 'hex'), 'PIX', 'E-PLANTED', %s, 'x', %s)",
            (forged, paid.id, len(forged)),
        )
    async with desk(team_databases, tmp_path, database, "bruno") as bruno:
        shown = await bruno.receipts.for_entry(paid.id)
        assert shown is not None and shown.sha256 == digest
        assert await bruno.receipts.read(shown) == banks
        shown_second = await bruno.receipts.for_entry(second.id)
        assert shown_second is not None and await bruno.receipts.read(shown_second) == other
        assert await bruno.receipts.for_entry(waiting.id) is None


# -- 7. an existing database migrates ------------------------------------------------------


def test_a_database_with_data_migrates_to_schema_4(
    team_databases: TeamDatabases,
    insiders: dict[str, tuple[str, ...]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Schema 3 with what today's main let people write (an amount that is NaN waiting, a
    payment the receiver settled, one a desktop settled, a receipt row) moves to schema 4."""
    name = f"team_v3_{uuid.uuid4().hex[:8]}"
    team_databases.server.create_database(name)
    before_4 = team_schema.PRIVILEGES_SQL.split(INTEGRITY_PRIVILEGES_SQL)[0]
    monkeypatch.setattr(team_migrations, "PRIVILEGES_SQL", before_4)
    with superuser(team_databases, name) as admin:
        admin.execute(team_schema.ROLES_SQL)
        admin.execute("CREATE SCHEMA treasury AUTHORIZATION treasury_owner")
        admin.execute("SET ROLE treasury_owner")
        admin.execute("CREATE TABLE treasury.schema_version (version integer NOT NULL)")
        admin.execute("INSERT INTO treasury.schema_version VALUES (0)")
        admin.execute("RESET ROLE")
        assert team_migrations.migrate(admin, target=3) == 3
        team_migrations.harden_database(admin)
        team_migrations.set_policy(admin, approvals=0, approvals_above=0, new_payee_extra=0)
    with as_person(team_databases, name, "ana") as ana:
        nan = prepare_raw(ana, "NaN")
        old_record = "SELECT * FROM treasury.record(%s, %s, %s, %s, %s, NULL, NULL, 'x', NULL)"
        by_desk = prepare_raw(ana, "10.00")
        ana.execute(old_record, (by_desk["id"], "SENT", None, False, None))
        ana.execute(old_record, (by_desk["id"], "ACCEPTED", "SETTLED", True, "E" + "2" * 31))
        by_bank = prepare_raw(ana, "20.00")
        ana.execute(old_record, (by_bank["id"], "SENT", None, False, None))
        ana.execute(
            "INSERT INTO treasury.receipt_files (sha256, pdf, size)"
            " VALUES (encode(sha256('x'::bytea), 'hex'), 'x'::bytea, 1)"
        )
        ana.execute(
            "INSERT INTO treasury.receipts (sha256, kind, bank_id, entry_id, saved_at, size)"
            " VALUES (encode(sha256('x'::bytea), 'hex'), 'PIX', %s, %s, 'x', 1)",
            ("E" + "2" * 31, by_desk["id"]),
        )
    notify(team_databases, name, by_bank["id"], "SETTLED", final=True, e2e="E" + "3" * 31)
    monkeypatch.undo()
    with superuser(team_databases, name) as admin:
        assert team_migrations.migrate(admin) == team_schema.SCHEMA_VERSION
        rows = {
            row["id"]: row
            for row in admin.execute(
                "SELECT id, state, final, approval, outcome_by, outcome_word, confirmed_by"
                " FROM treasury.journal"
            ).fetchall()
        }
        valid = admin.execute(
            "SELECT convalidated FROM pg_constraint WHERE conname = %s", (AMOUNT_CODE,)
        ).fetchone()
        privileges = admin.execute(
            "SELECT has_any_column_privilege('ana', 'treasury.entry_claims', 'UPDATE') AS claims,"
            " has_any_column_privilege('ana', 'treasury.receipts', 'INSERT') AS receipts,"
            " has_any_column_privilege('ana', 'treasury.receipt_files', 'INSERT') AS files"
        ).fetchone()
    assert rows[nan["id"]] | {"id": 0} == {
        "id": 0,
        "state": "REJECTED",
        "final": True,
        "approval": "REJECTED",
        "outcome_by": rows[nan["id"]]["outcome_by"],
        "outcome_word": None,
        "confirmed_by": None,
    }
    assert (rows[by_desk["id"]]["outcome_word"], rows[by_desk["id"]]["outcome_by"]) == (
        "legacy",
        "ana",
    )
    assert (rows[by_bank["id"]]["outcome_word"], rows[by_bank["id"]]["confirmed_by"]) == (
        "notice",
        "rita",
    )
    assert valid == {"convalidated": False}  # the NaN row keeps its amount; new rows are checked
    assert privileges == {"claims": False, "receipts": False, "files": False}
    (ended,) = audit_of(team_databases, name, "payment.refused")
    assert (ended["outcome"], ended["details"]["entry"]) == ("not_money", nan["id"])
    with as_person(team_databases, name, "ana") as ana:
        with refused(psycopg.errors.InsufficientPrivilege):  # schema 3's record: gone
            ana.execute(old_record, (by_desk["id"], "ACCEPTED", "CANCELED", True, None))
        with refused(psycopg.errors.CheckViolation, AMOUNT_CODE):
            prepare_raw(ana, "Infinity")
        # what was paid before schema 4 still counts as paid before
        again = prepare_raw(ana, "30.00", detail=by_desk["payee_detail"])
        assert again["new_payee"] is False
