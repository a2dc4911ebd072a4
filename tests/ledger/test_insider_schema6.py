"""What schema 6 closes of issue 32: a session held open, an end without a reason, a receipt
planted before the bank's.

The people act with their own logins, the insider with raw psycopg as ``psql`` would:

* a person who claims an entry (or locks a row) and leaves the transaction open past the
  team's limit is ended by the colleague's desktop it holds up, audited; before the limit,
  or for anyone but a person's login, nothing is ended;
* a withdrawal, like a rejection, needs a reason;
* a receipt planted first under a payment is disputed by the next desktop that fetches the
  bank's own copy, which it shows; the same bytes confirm a receipt.
"""

from __future__ import annotations

import contextlib
import io
import threading
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
import pytest
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool

from tests.ledger.test_approvals_db import as_person, superuser
from tests.ledger.test_insider_outcomes import (  # noqa: F401  (insiders: a fixture)
    KnowingBank,
    LostAnswers,
    audit_of,
    desk,
    insiders,
    intent,
    journal_row,
    pix,
    prepare_raw,
    refused,
    sent,
)
from tests.ledger_backends import TeamDatabases
from tests.waiting import wait_until
from treasury_app.ledger.journal import EntryState
from treasury_app.ledger.team.admin import main as admin_main
from treasury_app.ledger.team.approvals import TeamApprovals
from treasury_app.ledger.team.store import ApprovalRefused, TeamDatabase
from treasury_app.ledger.team.trust_schema import END_REASON_CODE
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.tracker import PaymentTracker

pytestmark = pytest.mark.usefixtures("team_databases")

BANKS = b"%PDF-1.4 the bank's receipt\n%%EOF\n"
FORGED = b"%PDF-1.4 max's own receipt\n%%EOF\n"


def stale_at_once(team: TeamDatabases, database: str) -> None:
    """Any open transaction of a person is stale (the administrator's limit at zero): the
    tests need no clock to pass the limit."""
    with superuser(team, database) as conn:
        conn.execute("UPDATE treasury.session_rules SET stale_after = interval '0'")


def ended(conn: psycopg.Connection[Any]) -> bool:
    """Whether the server ended ``conn``'s session."""
    try:
        conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False


def psql(team: TeamDatabases, database: str, user: str) -> psycopg.Connection[Any]:
    """A person's own ``psql``: a raw connection with an explicit transaction."""
    return psycopg.connect(
        team.server.url(database, user=user, application_name="psql"),
        autocommit=True,
        row_factory=dict_row,
    )


class ReceiptBank(KnowingBank):
    """Answers lookups by idempotency key and gives ``receipt`` as every Pix's receipt."""

    def __init__(self, receipt: bytes, payments: dict[str, Any] | None = None) -> None:
        super().__init__(payments or {})
        self.receipt = receipt
        self.receipts_asked: list[str] = []

    async def get_pix_receipt(self, end_to_end_id: str) -> bytes:
        self.receipts_asked.append(end_to_end_id)
        return self.receipt


# -- 1. a claim or a lock held open ----------------------------------------------------------


async def test_a_claim_held_open_past_the_limit_is_ended_and_the_payment_resolved(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    """max claims ana's unresolved payment in psql and keeps the transaction open (so that no
    desktop would resolve it, for as long as he likes); past the limit, ana's desktop ends
    his session, resolves the payment with the bank, and the audit says who and why."""
    database = team_databases.new_database()
    stale_at_once(team_databases, database)
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        lost = await PaymentEngine(LostAnswers(), ana, follow_up=()).send(  # type: ignore[arg-type]
            await ana.journal.create(intent("42.00"))
        )
        assert lost.state == EntryState.UNKNOWN
        holder = psql(team_databases, database, "max")
        holder.execute("BEGIN")
        token = holder.execute("SELECT treasury.claim(%s) AS t", (lost.id,)).fetchone()
        assert token is not None and token["t"]
        e2e = "E" + "4" * 31
        bank = KnowingBank({lost.idempotency_key: pix("SETTLED", e2e, lost.idempotency_key)})
        resolved = await PaymentEngine(bank, ana, follow_up=()).resolve(lost)  # type: ignore[arg-type]
        assert (resolved.state, resolved.bank_status) == (EntryState.ACCEPTED, "SETTLED")
        assert bank.asked == [lost.idempotency_key]
        assert ended(holder)
        holder.close()
    (audit,) = audit_of(team_databases, database, "session.ended")
    details = audit["details"]
    assert (audit["actor"], audit["outcome"], audit["reference"]) == ("ana", "stale", "max")
    assert (details["login"], details["why"], details["entry"], details["ended_by"]) == (
        "max",
        "claim",
        lost.id,
        "ana",
    )
    assert details["application"] == "psql" and details["stale_after_seconds"] == 0


async def test_before_the_limit_a_held_claim_is_named_not_ended(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    """Under the default limit (15 minutes) a claim held open is some desktop sending: ana's
    desktop leaves the entry to it and ends nothing; nobody else may end it either."""
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        lost = await PaymentEngine(LostAnswers(), ana, follow_up=()).send(  # type: ignore[arg-type]
            await ana.journal.create(intent("43.00"))
        )
        holder = psql(team_databases, database, "max")
        holder.execute("BEGIN")
        holder.execute("SELECT treasury.claim(%s)", (lost.id,))
        bank = KnowingBank({})
        after = await PaymentEngine(bank, ana, follow_up=()).resolve(lost)  # type: ignore[arg-type]
        assert after.state == EntryState.UNKNOWN and bank.asked == []
        with as_person(team_databases, database, "bruno") as bruno:
            found = bruno.execute("SELECT treasury.end_stale_claim(%s) AS e", (lost.id,))
            assert found.fetchone() == {"e": False}
        for who in ("rita",):  # the receiver's login is no person: it may not end anyone
            with (
                as_person(team_databases, database, who) as conn,
                refused(psycopg.errors.InsufficientPrivilege),
            ):
                conn.execute("SELECT treasury.end_stale_claim(%s)", (lost.id,))
        assert not ended(holder)
        holder.execute("ROLLBACK")
        holder.close()
    assert audit_of(team_databases, database, "session.ended") == []


async def test_only_a_persons_session_is_ended_never_an_administrators(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    """A stale transaction of the administrator (a superuser) that blocks a person is not a
    person's: nothing ends it; nor does a person end a session that blocks nobody."""
    database = team_databases.new_database()
    stale_at_once(team_databases, database)
    with as_person(team_databases, database, "ana") as ana:
        entry = prepare_raw(ana, "10.00")
    admin = psycopg.connect(team_databases.server.url(database), autocommit=True)
    admin.execute("BEGIN")
    admin.execute("SELECT 1 FROM treasury.journal WHERE id = %s FOR UPDATE", (entry["id"],))
    idle = psql(team_databases, database, "carla")
    idle.execute("BEGIN")
    idle.execute("SELECT count(*) FROM treasury.journal")
    try:
        with as_person(team_databases, database, "bruno") as bruno:
            bruno.execute("SET lock_timeout = '30s'")
            waiting = psycopg.connect(
                team_databases.server.url(database, user="ana"), autocommit=True
            )
            blocked = waiting.info.backend_pid

            def edit_waits() -> None:
                with contextlib.suppress(psycopg.Error):
                    waiting.execute("SET lock_timeout = '60s'")
                    waiting.execute(
                        "SELECT * FROM treasury.edit(%s, 11.00, '', '{}')", (entry["id"],)
                    )

            thread = threading.Thread(target=edit_waits)
            thread.start()
            wait_until(
                lambda: (
                    bruno.execute(
                        "SELECT cardinality(pg_blocking_pids(%s)) > 0 AS b", (blocked,)
                    ).fetchone()
                    == {"b": True}
                ),
                "ana's edit waits for the administrator's lock",
            )
            for pid in (admin.info.backend_pid, idle.info.backend_pid):
                row = bruno.execute("SELECT treasury.end_stale_blocker(%s) AS e", (pid,))
                assert row.fetchone() == {"e": False}
            admin.execute("ROLLBACK")
            thread.join()
            waiting.close()
    finally:
        admin.close()
    assert not ended(idle)
    idle.close()
    assert audit_of(team_databases, database, "session.ended") == []


async def test_a_stale_lock_holder_is_ended_while_a_colleague_waits(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    """bruno approves in psql and leaves the transaction open (the entry's row stays
    locked); past the limit, carla's desktop approving the same intent ends his session and
    her approval goes through: no lock timeout, an audit row naming bruno."""
    database = team_databases.new_database(policy={"approvals": 2, "new_payee_extra": 0})
    stale_at_once(team_databases, database)
    with as_person(team_databases, database, "ana") as ana:
        entry = prepare_raw(ana, "500.00")
    holder = psql(team_databases, database, "bruno")
    holder.execute("BEGIN")
    holder.execute("SELECT * FROM treasury.approve(%s, %s)", (entry["id"], entry["content_hash"]))
    settings = team_databases.settings(database, "carla")
    pool = AsyncConnectionPool(
        settings.conninfo(options="-c lock_timeout=60s"),
        min_size=1,
        max_size=4,
        open=False,
        kwargs={"autocommit": True, "row_factory": dict_row, "prepare_threshold": None},
    )
    await pool.open(wait=True)
    try:
        db = TeamDatabase(pool, watch_every=0.05)
        approved = await TeamApprovals(db).approve(entry["id"], entry["content_hash"])
    finally:
        await pool.close()
    assert approved.approvals_given == 1
    assert ended(holder)
    holder.close()
    row = journal_row(team_databases, database, entry["id"])
    assert row["approvals_given"] == 1  # carla's; bruno's ended with his session
    (audit,) = audit_of(team_databases, database, "session.ended")
    assert (audit["actor"], audit["details"]["login"], audit["details"]["why"]) == (
        "carla",
        "bruno",
        "lock",
    )


def test_the_administrator_sets_the_limit(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]]
) -> None:
    database = team_databases.new_database()
    url = team_databases.server.url(database)

    def admin(*args: str) -> tuple[int, str, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = admin_main(["--db", url, "stale-after", *args])
        return code, out.getvalue(), err.getvalue()

    code, out, _ = admin()
    assert code == 0 and "15 minute(s)" in out
    code, out, _ = admin("30")
    assert code == 0 and "30 minute(s)" in out
    assert "30 minute(s)" in admin()[1]
    code, _, err = admin("0")
    assert code != 0 and "from 1 to 1440 minutes" in err
    (audit,) = audit_of(team_databases, database, "admin.stale_after")
    assert audit["details"] == {"minutes": 30, "before": 15}
    with (
        as_person(team_databases, database, "max") as mx,
        refused(psycopg.errors.InsufficientPrivilege),
    ):
        mx.execute("UPDATE treasury.session_rules SET stale_after = interval '0'")


# -- 2. every end has a reason ---------------------------------------------------------------


async def test_a_withdrawal_needs_a_reason(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database(policy={"approvals": 1, "new_payee_extra": 0})
    with as_person(team_databases, database, "ana") as ana:
        entry = prepare_raw(ana, "25.00")
        for reason in (None, "", "   "):
            with refused(psycopg.errors.CheckViolation, END_REASON_CODE, "withdrawal needs"):
                ana.execute("SELECT treasury.withdraw(%s, %s)", (entry["id"], reason))
        row = ana.execute(
            "SELECT * FROM treasury.withdraw(%s, %s)", (entry["id"], "sent twice by mistake")
        ).fetchone()
        assert row is not None
        assert (row["approval"], row["decided_by"], row["decision_reason"]) == (
            "WITHDRAWN",
            "ana",
            "sent twice by mistake",
        )
    (audit,) = audit_of(team_databases, database, "approval.withdraw")
    assert (audit["actor"], audit["details"]["reason"]) == ("ana", "sent twice by mistake")
    async with desk(team_databases, tmp_path, database, "ana") as desk_ana:
        other = await desk_ana.journal.create(intent("26.00"))
        with pytest.raises(ApprovalRefused) as caught:
            await TeamApprovals(desk_ana.journal._db).withdraw(other.id, " ")  # type: ignore[attr-defined]
        assert caught.value.code == END_REASON_CODE


# -- 3. a receipt planted first --------------------------------------------------------------


async def test_a_receipt_planted_first_is_disputed_by_the_next_desktop_that_asks_the_bank(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        paid = await sent(ana, status="SETTLED")
    assert paid.end_to_end_id
    with as_person(team_databases, database, "max") as mx:  # before any desktop fetched it
        planted = mx.execute(
            "SELECT * FROM treasury.store_receipt(%s, 'PIX', %s, %s, 'x', NULL)",
            (paid.id, paid.end_to_end_id, FORGED),
        ).fetchone()
        assert planted is not None and planted["saved_by"] == "max"
    bank = ReceiptBank(BANKS)
    async with desk(team_databases, tmp_path, database, "bruno") as bruno:
        tracker = PaymentTracker(PaymentEngine(bank, bruno, follow_up=()), fetch_receipts=True)  # type: ignore[arg-type]
        (disputed,) = await tracker.check_receipts()
        assert bank.receipts_asked == [paid.end_to_end_id]
        assert (disputed.saved_by, disputed.disputed_by) == ("max", "bruno")
        # bruno's desktop shows what it got from the bank, not max's file
        shown = await tracker.receipt(paid)
        assert await bruno.receipts.read(shown) == BANKS
        assert await tracker.check_receipts() == []  # once: nothing more to compare
    async with desk(team_databases, tmp_path, database, "carla") as carla:
        seen = await carla.receipts.for_entry(paid.id)
        assert seen is not None and seen.disputed and seen.disputed_by == "bruno"
    (audit,) = audit_of(team_databases, database, "receipt.disputed")
    assert audit["actor"] == "bruno"
    assert (audit["details"]["stored_by"], audit["details"]["fetched_by"]) == ("max", "bruno")
    assert audit["details"]["stored_sha256"] != audit["details"]["fetched_sha256"]


async def test_the_same_bytes_from_another_login_confirm_a_receipt(
    team_databases: TeamDatabases, insiders: dict[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database = team_databases.new_database()
    async with desk(team_databases, tmp_path, database, "ana") as ana:
        paid = await sent(ana, status="SETTLED")
        await ana.receipts.save(
            BANKS, kind="PIX", bank_id=str(paid.end_to_end_id), entry_id=paid.id
        )
        mine = PaymentTracker(PaymentEngine(ReceiptBank(BANKS), ana, follow_up=()))  # type: ignore[arg-type]
        assert await mine.check_receipts() == []  # her own: no second opinion
    bank = ReceiptBank(BANKS)
    async with desk(team_databases, tmp_path, database, "bruno") as bruno:
        tracker = PaymentTracker(PaymentEngine(bank, bruno, follow_up=()))  # type: ignore[arg-type]
        assert await tracker.check_receipts() == []
        stored = await bruno.receipts.for_entry(paid.id)
        assert stored is not None and (stored.confirmed_by, stored.disputed) == ("bruno", False)
        assert bank.receipts_asked == [paid.end_to_end_id]
        await tracker.receipt(paid)  # confirmed: not asked again
        assert bank.receipts_asked == [paid.end_to_end_id]
    (audit,) = audit_of(team_databases, database, "receipt.confirmed")
    assert (audit["actor"], audit["details"]["stored_by"]) == ("bruno", "ana")
