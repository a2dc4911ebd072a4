"""Dual control end to end: a maker's desktop and an approver's desktop on one team
database, against the sandbox bank over mutual TLS. The maker prepares, nothing is sent; the
approver approves and their desktop releases it: the bank holds exactly one payment."""

from __future__ import annotations

from collections.abc import AsyncIterator
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from tests.ledger_backends import TeamDatabases
from tests.sandbox.conftest import Api
from tests.services.session_fixtures import (
    app_paths,
    control,
    memory_keyring,
    ready_file,
    sandbox,
    use_keyring,
)
from tests.services.test_session_team import desk_paths, open_team_session, team_profile
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry, PendingDuplicate
from treasury_app.ledger.team import migrations as team_migrations
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.ledger.team.store import ApprovalRefused
from treasury_app.services.approvals import NobodyReason, nobody_reason
from treasury_app.services.profiles import Profile, SandboxSecrets, sandbox_profile
from treasury_app.services.session import Session

__all__ = ["app_paths", "control", "memory_keyring", "ready_file", "sandbox", "use_keyring"]
pytestmark = pytest.mark.usefixtures("team_databases")


@pytest.fixture(autouse=True)
def _fresh_token_window(control: Api) -> None:
    control.reset_token_limits()


@pytest.fixture(scope="module")
def sandbox_setup(ready_file: Path) -> tuple[Profile, SandboxSecrets]:
    return sandbox_profile(ready_file)


@pytest.fixture
def database(team_databases: TeamDatabases) -> str:
    """The default policy (one approval; two above R$ 10.000,00), without the new-payee extra
    (the sandbox's keys are new to every fresh database)."""
    name = team_databases.new_database(policy={"new_payee_extra": 0})
    team_databases.person("appr_ana", MAKER)
    team_databases.person("appr_bruno", APPROVER)
    team_databases.person("appr_carla", APPROVER)
    team_databases.person("appr_dora", APPROVER)
    return name


class Desks:
    def __init__(self, sessions: dict[str, Session]) -> None:
        self.sessions = sessions

    def __getitem__(self, name: str) -> Session:
        return self.sessions[name]


@pytest.fixture
async def desks(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    tmp_path: Path,
) -> AsyncIterator[Desks]:
    base, secrets = sandbox_setup
    sessions: dict[str, Session] = {}
    try:
        for name in ("ana", "bruno", "carla", "dora"):
            sessions[name] = await open_team_session(
                team_profile(base, team_databases, database, f"appr_{name}", "none"),
                secrets,
                desk_paths(tmp_path / name),
            )
        yield Desks(sessions)
    finally:
        for session in sessions.values():
            await session.close()


def payout(amount: str, description: str = "dual control", key: str | None = None) -> NewEntry:
    pix_key = key or f"{new_idempotency_key()[:8]}@fornecedor.com.br"
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": pix_key,
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
            "description": description,
        },
        payee_name="Fornecedor Ltda",
        payee_detail=pix_key,
        description=description,
    )


async def bank_has(accounts: AccountsClient, entry: Entry) -> bool:
    try:
        await accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
    except Exception:
        return False
    return True


async def test_maker_prepares_approver_approves_the_bank_holds_one_payment(
    desks: Desks, control: Api
) -> None:
    ana, bruno = desks["ana"], desks["bruno"]
    assert ana.approvals is not None and bruno.approvals is not None
    before = control.balance()
    prepared = await ana.payments.submit(payout("150.00"))
    assert prepared.state == EntryState.PREPARED and prepared.approval == "WAITING"
    assert prepared.approvals_needed == 1 and not await bank_has(ana.accounts, prepared)
    # Submitting the same review again is the same intent, still unsent.
    again = await ana.payments.send(prepared)
    assert again.state == EntryState.PREPARED and not await bank_has(ana.accounts, prepared)

    waiting = (await bruno.approvals.lists()).waiting_for_me
    assert [e.id for e in waiting] == [prepared.id]
    assert (await ana.approvals.lists()).prepared_by_me[0].id == prepared.id
    with pytest.raises(ValueError, match=r"approval\.amount_differs"):
        await bruno.approvals.approve(waiting[0], Decimal("15.00"))
    released = await bruno.approvals.approve(waiting[0], Decimal("150.00"))
    assert released.state == EntryState.ACCEPTED and released.approval == "RELEASED"
    assert released.released_by == "appr_bruno" and released.approved_by == "appr_bruno"
    assert await bank_has(bruno.accounts, released)
    # The maker's desktop never sends it again: resolving finds it, nothing new goes out.
    assert (await ana.payments.resolve(released)).state == EntryState.ACCEPTED
    assert await ana.payments.resolve_pending() == []
    assert before - control.balance() == Decimal("150.00")  # exactly one payment
    assert (await bruno.approvals.lists()).waiting_for_me == []
    decided = (await ana.approvals.lists()).decided
    assert decided[0].id == released.id


async def test_self_approval_over_limit_and_two_approvals_above_the_threshold(
    desks: Desks, team_databases: TeamDatabases, database: str
) -> None:
    ana, bruno, carla, dora = desks["ana"], desks["bruno"], desks["carla"], desks["dora"]
    assert ana.approvals and bruno.approvals and carla.approvals and dora.approvals
    assert not ana.approvals.can_approve
    with psycopg.connect(team_databases.server.url(database), autocommit=True) as conn:
        team_migrations.set_limits(
            conn, "appr_dora", payment_limit=Decimal("1000"), daily_limit=None
        )
    big = await ana.payments.submit(payout("12000.00"))
    assert big.approvals_needed == 2
    with pytest.raises(ApprovalRefused, match="not an approver"):
        await ana.approvals.store.approve(big.id, big.content_hash or "")
    with pytest.raises(ApprovalRefused, match=r"over appr_dora's limit.*appr_bruno"):
        await dora.approvals.approve(big, Decimal("12000.00"))
    detail = await bruno.approvals.detail(big)
    assert "appr_dora" not in detail.eligible and "appr_bruno" in detail.eligible
    assert detail.content_matches
    first = await bruno.approvals.approve(big, Decimal("12000.00"))
    assert first.approval == "WAITING" and first.approvals_given == 1
    twice = await bruno.approvals.approve(first, Decimal("12000.00"))  # counts once
    assert twice.approvals_given == 1 and twice.state == EntryState.PREPARED
    assert not await bank_has(bruno.accounts, big)
    done = await carla.approvals.approve(twice, Decimal("12000.00"))
    assert done.state == EntryState.ACCEPTED and done.released_by == "appr_carla"


async def test_an_edit_voids_the_approvals_and_an_expired_approval_cannot_release(
    desks: Desks, team_databases: TeamDatabases, database: str
) -> None:
    ana, bruno, carla = desks["ana"], desks["bruno"], desks["carla"]
    assert ana.approvals and bruno.approvals and carla.approvals
    entry = await ana.payments.submit(payout("11000.00", "edited"))
    once = await bruno.approvals.approve(entry, Decimal("11000.00"))
    assert once.approvals_given == 1
    edited = await ana.approvals.edit(once, amount=Decimal("11500.00"), description="edited")
    assert edited.approvals_given == 0 and edited.content_hash != once.content_hash
    assert edited.request()["payment"]["amount"] == Decimal("11500.00")
    with pytest.raises(ApprovalRefused, match="changed since it was reviewed"):
        await carla.approvals.store.approve(edited.id, once.content_hash or "")
    # Approved by two, then the approvals expire before any desktop released it.
    with psycopg.connect(team_databases.server.url(database), autocommit=True) as conn:
        conn.execute("UPDATE treasury.policies SET expiry_hours = 1")  # superuser, test only
    bruno.payments.release_mode = "none"
    carla.payments.release_mode = "none"
    await bruno.approvals.approve(edited, Decimal("11500.00"))
    approved = await carla.approvals.approve(
        await carla.ledger.journal.get(edited.id), Decimal("11500.00")
    )
    assert approved.approval == "APPROVED" and approved.state == EntryState.PREPARED
    with psycopg.connect(team_databases.server.url(database), autocommit=True) as conn:
        conn.execute(
            "UPDATE treasury.journal SET approvals_expire_at = '2000-01-01T00:00:00.000Z'"
            " WHERE id = %s",
            (edited.id,),
        )
    carla.payments.release_mode = "mine"
    with pytest.raises(ApprovalRefused, match="0 of 2 approvals"):
        await carla.ledger.journal.update(edited.id, EntryState.SENT, note="sending")
    assert not await bank_has(carla.accounts, edited)
    assert await carla.ledger.approvals.expire_due() == 1  # type: ignore[union-attr]
    back = await carla.ledger.journal.get(edited.id)
    assert back.approval == "WAITING" and back.approvals_given == 0


def _batch_row(amount: str, batch: str, n: int) -> NewEntry:
    entry = payout(amount, f"batch row {n}")
    return NewEntry(**{**entry.__dict__, "batch": batch})


async def test_batch_approved_as_one_decision_a_rejected_row_is_never_sent(
    desks: Desks,
) -> None:
    ana, bruno = desks["ana"], desks["bruno"]
    assert ana.approvals and bruno.approvals
    batch = f"b-{new_idempotency_key()[:8]}"
    prepared = [await ana.payments.submit(_batch_row(f"{n}5.00", batch, n)) for n in (1, 2, 3)]
    assert all(e.approval == "WAITING" for e in prepared)
    rows = await bruno.approvals.batch_rows(batch)
    rejected = rows[1]
    decided = await bruno.approvals.approve_batch(
        batch, {rejected.id: "wrong supplier"}, reviewed=rows
    )
    by_id = {e.id: e for e in decided}
    assert by_id[rejected.id].state == EntryState.REJECTED
    assert by_id[rejected.id].decision_reason == "wrong supplier"
    for row in (rows[0], rows[2]):
        assert by_id[row.id].state == EntryState.ACCEPTED
        assert await bank_has(bruno.accounts, row)
    assert not await bank_has(bruno.accounts, rejected)
    # The rejected row cannot be approved or released afterwards.
    with pytest.raises(ApprovalRefused, match="no longer waiting"):
        await bruno.approvals.store.approve(rejected.id, rejected.content_hash or "")
    actions = {(a.action, a.outcome) for a in await bruno.ledger.audit.entries(limit=200)}
    assert {
        ("approval.prepare", "waiting"),
        ("approval.approve", "approved"),
        ("approval.reject", "rejected"),
        ("approval.release", "released"),
        ("approval.batch", "decided"),
    } <= actions


async def test_the_same_content_twice_waits_once_and_a_maker_withdraws(desks: Desks) -> None:
    ana, bruno = desks["ana"], desks["bruno"]
    assert ana.approvals and bruno.approvals
    first = await ana.payments.submit(payout("77.00", "rent", key="rent@landlord.com.br"))
    with pytest.raises(PendingDuplicate) as twin:
        await ana.payments.submit(payout("77.00", "rent", key="rent@landlord.com.br"))
    assert twin.value.entry.id == first.id
    other = await ana.payments.submit(payout("77.00", "rent, May", key="rent@landlord.com.br"))
    assert other.id != first.id
    with pytest.raises(ApprovalRefused, match=r"Only appr_ana \(who prepared"):
        await bruno.approvals.withdraw(first, "not needed")
    for blank in ("", "   "):  # every end of an intent has a reason
        with pytest.raises(ValueError, match=r"approval\.withdraw_reason_missing"):
            await ana.approvals.withdraw(first, blank)
    gone = await ana.approvals.withdraw(first, "typo")
    assert gone.state == EntryState.REJECTED and gone.approval == "WITHDRAWN"
    with pytest.raises(ValueError, match=r"approval\.reject_reason_missing"):
        await bruno.approvals.reject(other, "  ")
    rejected = await bruno.approvals.reject(other, "paid by check")
    assert rejected.approval == "REJECTED" and rejected.decided_by == "appr_bruno"


def test_why_nobody_can_approve_an_intent() -> None:
    """The reason given when no approver is eligible (the dialog's "Who can approve it")."""
    assert nobody_reason("ana", ["bruno"], ["bruno"], []) is None
    assert nobody_reason("ana", [], [], []) is NobodyReason.NO_OTHER_APPROVER
    assert nobody_reason("bruno", [], ["bruno"], []) is NobodyReason.NO_OTHER_APPROVER
    assert nobody_reason("ana", [], ["bruno"], ["bruno"]) is NobodyReason.ALL_APPROVED
    assert nobody_reason("bruno", [], ["bruno", "carla"], ["carla"]) is NobodyReason.ALL_APPROVED
    assert nobody_reason("ana", [], ["bruno", "carla"], ["bruno"]) is NobodyReason.LIMITS
