"""A session whose profile keeps its ledger in a team database, against the sandbox bank:
the login (password typed, kept in the keyring, or missing), the audit anchor each desktop
keeps, another desktop's payment announced here without polling, and nothing left open."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import psycopg
import pytest

from tests.ledger_backends import TeamDatabases
from tests.sandbox.conftest import Api
from tests.services.session_fixtures import (
    MemoryKeyring,
    app_paths,
    control,
    memory_keyring,
    ready_file,
    sandbox,
    use_keyring,
)
from tests.waiting import await_until
from treasury_app.config import AppPaths
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger.errors import LedgerRefused, LedgerUnavailable
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.ledger.team import TeamLedger, TeamLoginError
from treasury_app.services.profiles import (
    LedgerLocation,
    Profile,
    SandboxSecrets,
    SecretStore,
    TeamDatabaseProfile,
    sandbox_profile,
)
from treasury_app.services.secret_store import TEAM_DATABASE
from treasury_app.services.session import Session, TeamPasswordNeeded

__all__ = ["app_paths", "control", "memory_keyring", "ready_file", "sandbox", "use_keyring"]
pytestmark = pytest.mark.usefixtures("team_databases")

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _fresh_token_window(control: Api) -> None:
    control.reset_token_limits()


@pytest.fixture(scope="module")
def sandbox_setup(ready_file: Path) -> tuple[Profile, SandboxSecrets]:
    return sandbox_profile(ready_file)


@pytest.fixture
def database(team_databases: TeamDatabases) -> str:
    name = team_databases.new_database()
    for person in ("desk_ana", "desk_bia"):
        team_databases.person(person)
        with psycopg.connect(team_databases.server.url("postgres"), autocommit=True) as conn:
            conn.execute(f"ALTER ROLE {person} PASSWORD '{PASSWORD}'")
            conn.execute(f"GRANT treasury_password_login TO {person}")
    return name


def team_profile(
    base: Profile, team: TeamDatabases, database: str, user: str, password: str = "keyring"
) -> Profile:
    return base.model_copy(
        update={
            "ledger": LedgerLocation(
                location="team",
                team=TeamDatabaseProfile(
                    host=team.server.host,
                    port=team.server.port,
                    dbname=database,
                    user=user,
                    sslmode="disable",
                    password=password,  # type: ignore[arg-type]
                ),
            )
        }
    )


async def open_team_session(
    profile: Profile, secrets: SandboxSecrets, paths: AppPaths, **extra: object
) -> Session:
    return await Session.open(
        profile,
        pfx_passwords=secrets.pfx_passwords,
        client_secrets=secrets.client_secrets,
        paths=paths,
        **extra,  # type: ignore[arg-type]
    )


def desk_paths(folder: Path) -> AppPaths:
    """The folders of another desktop (its own data, its own audit anchor)."""
    paths = AppPaths(
        config_dir=folder / "config", data_dir=folder / "data", log_dir=folder / "logs"
    )
    paths.ensure()
    return paths


def intent(amount: str) -> NewEntry:
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=Decimal(amount),
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": "fornecedor@empresa.com.br",
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": Decimal(amount)},
            "description": "team session",
        },
        payee_detail="fornecedor@empresa.com.br",
    )


async def test_two_desktops_see_each_others_payments_live(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    app_paths: AppPaths,
    tmp_path: Path,
) -> None:
    base, secrets = sandbox_setup
    ana = await open_team_session(
        team_profile(base, team_databases, database, "desk_ana", "ask"),
        secrets,
        app_paths,
        team_password=PASSWORD,
    )
    other_paths = desk_paths(tmp_path / "bia")
    bia = await open_team_session(
        team_profile(base, team_databases, database, "desk_bia", "ask"),
        secrets,
        other_paths,
        team_password=PASSWORD,
    )
    try:
        assert isinstance(ana.ledger, TeamLedger) and ana.team is not None
        assert bia.team is not None
        seen_by_bia: list[Entry] = []
        bia.payments.subscribe(seen_by_bia.append)
        await await_until(
            lambda: ana.team.state.online and bia.team.state.online, "both desktops online"
        )
        bia_link: list[bool] = []
        bia.team.subscribe(lambda state: bia_link.append(state.online))
        paid = await ana.payments.submit(intent("12.34"))
        assert paid.state == EntryState.ACCEPTED and paid.created_by == "desk_ana"
        await await_until(
            lambda: any(e.id == paid.id and e.state == EntryState.ACCEPTED for e in seen_by_bia),
            "Ana's payment ACCEPTED on Bia's desktop",
        )
        # the feed only reads the changes when notified or when it connects again: it stayed
        # connected, so the notification brought it (not a later reconnection)
        assert False not in bia_link
        assert bia.team.state.last_change is not None
        journaled = await bia.ledger.journal.get(paid.id)
        assert journaled.end_to_end_id == paid.end_to_end_id
        opened = [r for r in await bia.ledger.audit.entries(action="session.open")]
        assert {r.os_user for r in opened} == {"desk_ana", "desk_bia"}
    finally:
        await ana.close()
        await bia.close()
    assert ana.team is None and bia.team is None
    assert ana.ledger.pool.closed  # type: ignore[attr-defined]


async def test_the_team_password_comes_typed_or_from_the_keyring_or_is_asked_for(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    app_paths: AppPaths,
    memory_keyring: MemoryKeyring,
) -> None:
    base, secrets = sandbox_setup
    profile = team_profile(base, team_databases, database, "desk_ana", "keyring")
    store = SecretStore()
    with pytest.raises(TeamPasswordNeeded, match="desk_ana@"):
        await open_team_session(profile, secrets, app_paths, secret_store=store)
    with pytest.raises(TeamLoginError, match="refused the password"):
        await open_team_session(profile, secrets, app_paths, team_password="wrong")
    await store.set(profile.name, TEAM_DATABASE, PASSWORD)
    session = await open_team_session(profile, secrets, app_paths, secret_store=store)
    try:
        assert session.ledger.describe().startswith("desk_ana@")
        rows = await session.ledger.audit.entries(action="session.open")
        assert PASSWORD not in str([r.details for r in rows])
    finally:
        await session.close()
    for folder in (app_paths.config_dir, app_paths.data_dir, app_paths.log_dir):
        for file in folder.rglob("*"):
            if file.is_file():
                assert PASSWORD.encode() not in file.read_bytes(), file


async def test_a_rewritten_audit_is_flagged_at_unlock_and_audited(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    app_paths: AppPaths,
) -> None:
    base, secrets = sandbox_setup
    profile = team_profile(base, team_databases, database, "desk_ana", "ask")
    first = await open_team_session(profile, secrets, app_paths, team_password=PASSWORD)
    assert first.anchor is not None and first.anchor.ok
    await first.close()  # its session.close row moved the head past the kept anchor
    with psycopg.connect(team_databases.server.url(database), autocommit=True) as conn:
        conn.execute("ALTER TABLE treasury.audit DISABLE TRIGGER audit_append_only")
        conn.execute("DELETE FROM treasury.audit WHERE seq > 1")
        conn.execute(
            "UPDATE treasury.audit_head SET seq = 1, hash = (SELECT hash FROM treasury.audit"
            " WHERE seq = 1)"
        )
    second = await open_team_session(profile, secrets, app_paths, team_password=PASSWORD)
    try:
        assert second.anchor is not None and not second.anchor.ok
        (row,) = await second.ledger.audit.entries(action="audit.anchor_mismatch")
        assert row.outcome == "warning" and row.os_user == "desk_ana"
    finally:
        await second.close()


async def test_the_database_stopped_mid_session_sends_nothing_and_recovers(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    app_paths: AppPaths,
    control: Api,
) -> None:
    base, secrets = sandbox_setup
    profile = team_profile(base, team_databases, database, "desk_ana", "ask")
    session = await open_team_session(profile, secrets, app_paths, team_password=PASSWORD)
    server = team_databases.server
    states: list[bool] = []
    try:
        assert session.team is not None
        session.team.feed.probe_every = 0.5
        session.team.subscribe(lambda state: states.append(state.online))
        first = await session.payments.submit(intent("3.21"))
        assert first.state == EntryState.ACCEPTED
        before = control.balance()
        server.stop()
        try:
            with pytest.raises(LedgerUnavailable, match="Nothing is sent while the journal"):
                await session.payments.submit(intent("4.32"))
            await await_until(lambda: not session.team.state.online, "the team link offline")
            assert session.team.state.detail
            assert control.balance() == before  # nothing reached the bank
        finally:
            server.start()
        await await_until(lambda: session.team.state.online, "the team link online again")
        assert False in states
        # the pool reconnects on its own at the next use
        again = await await_until(
            lambda: session.payments.submit(intent("4.32")),
            "a payment sent once the database is back",
            retry=(LedgerUnavailable,),
        )
        assert again.state == EntryState.ACCEPTED
        assert control.balance() == before - Decimal("4.32")
        entries = await session.ledger.journal.recent()
        assert sorted(e.amount for e in entries) == [Decimal("3.21"), Decimal("4.32")]
        assert all(e.state == EntryState.ACCEPTED for e in entries)
    finally:
        if not server.running:
            server.start()
        await session.close()


async def test_a_viewer_unlocks_sees_everything_and_sends_nothing(
    sandbox_setup: tuple[Profile, SandboxSecrets],
    team_databases: TeamDatabases,
    database: str,
    app_paths: AppPaths,
    tmp_path: Path,
    control: Api,
) -> None:
    base, secrets = sandbox_setup
    ana = await open_team_session(
        team_profile(base, team_databases, database, "desk_ana", "ask"),
        secrets,
        app_paths,
        team_password=PASSWORD,
    )
    try:
        paid = await ana.payments.submit(intent("6.54"))
    finally:
        await ana.close()
    team_databases.person("desk_vera", "treasury_viewer")
    vera_paths = desk_paths(tmp_path / "v")
    before = control.balance()
    vera = await open_team_session(
        team_profile(base, team_databases, database, "desk_vera", "none"), secrets, vera_paths
    )
    try:
        assert vera.payments.read_only
        assert [e.id for e in await vera.ledger.journal.recent()] == [paid.id]
        (opened,) = [
            r
            for r in await vera.ledger.audit.entries(action="session.open")
            if r.os_user == "desk_vera"
        ]
        assert opened.outcome == "ok"
        with pytest.raises(LedgerRefused):
            await vera.payments.submit(intent("7.65"))
        assert control.balance() == before
    finally:
        await vera.close()
