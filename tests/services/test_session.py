"""Opening a session against a real sandbox bank over mutual TLS: certificates, tokens, the
ledger and its audit, secrets that never leak, and pending payments resolved at start-up."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.session_fixtures import (
    MemoryKeyring,
    app_paths,
    control,
    memory_keyring,
    ready_file,
    sandbox,
    use_keyring,
)
from treasury_app.api.tls import CertificateError, PfxNotFound, PfxPasswordError
from treasury_app.api.transport import ApiTransport
from treasury_app.config import AppPaths
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger import FileLedger, Ledger, open_ledger
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.profiles import (
    ApiProfile,
    Profile,
    ProfileStore,
    SandboxSecrets,
    SecretStore,
    sandbox_profile,
)
from treasury_app.services.session import MissingSecret, Session, ledger_path

__all__ = ["app_paths", "control", "memory_keyring", "ready_file", "sandbox", "use_keyring"]

APIS = ("qrcodes", "accounts")


@pytest.fixture(autouse=True)
def _fresh_token_window(control: Api) -> None:
    """Every test opens new sessions (a token each): start with the sandbox's window empty."""
    control.reset_token_limits()


@pytest.fixture(scope="module")
def sandbox_setup(ready_file: Path) -> tuple[Profile, SandboxSecrets]:
    return sandbox_profile(ready_file)


@pytest.fixture
def profile(sandbox_setup: tuple[Profile, SandboxSecrets]) -> Profile:
    return sandbox_setup[0]


@pytest.fixture
def secrets(sandbox_setup: tuple[Profile, SandboxSecrets]) -> SandboxSecrets:
    return sandbox_setup[1]


@pytest.fixture
def tracked(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, list[object]]]:
    """Every transport and ledger opened during the test, to check that none is left open."""
    opened: dict[str, list[object]] = {"transports": [], "ledgers": []}
    real_init = ApiTransport.__init__
    real_open = open_ledger

    def init(self: ApiTransport, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        opened["transports"].append(self)

    def spy_open(*args: object, **kwargs: object) -> Ledger:
        ledger = real_open(*args, **kwargs)  # type: ignore[arg-type]
        opened["ledgers"].append(ledger)
        return ledger

    monkeypatch.setattr(ApiTransport, "__init__", init)
    monkeypatch.setattr("treasury_app.services.session.open_ledger", spy_open)
    yield opened


def assert_all_closed(opened: dict[str, list[object]]) -> None:
    for transport in opened["transports"]:
        assert isinstance(transport, ApiTransport)
        assert transport.http.is_closed
    for ledger in opened["ledgers"]:
        assert isinstance(ledger, FileLedger)
        with pytest.raises(sqlite3.ProgrammingError):
            ledger.conn.execute("SELECT 1")


async def open_session(
    profile: Profile, secrets: SandboxSecrets, paths: AppPaths, **overrides: object
) -> Session:
    arguments: dict[str, object] = {
        "pfx_passwords": secrets.pfx_passwords,
        "client_secrets": secrets.client_secrets,
        "paths": paths,
    }
    arguments.update(overrides)
    return await Session.open(profile, **arguments)  # type: ignore[arg-type]


async def audit_rows(paths: AppPaths, name: str = "Sandbox") -> list[tuple[str, str, str]]:
    ledger = open_ledger(ledger_path(paths, name), profile=name)
    try:
        return [(r.action, r.outcome, r.reference) for r in reversed(await ledger.audit.entries())]
    finally:
        await ledger.close()


# --------------------------------------------------------------------------------------------


async def test_open_check_and_close(
    sandbox: RunningSandbox,
    profile: Profile,
    secrets: SandboxSecrets,
    app_paths: AppPaths,
    tracked: dict[str, list[object]],
) -> None:
    session = await open_session(profile, secrets, app_paths)
    assert session.profile is profile
    assert session.resolved_at_start == []
    assert session.ledger.path == app_paths.data_dir / "ledgers" / "Sandbox.sqlite3"
    assert session.qrcodes.transport is session.transports["qrcodes"]
    assert session.accounts.transport is session.transports["accounts"]
    assert isinstance(session.payments, PaymentEngine)
    assert not any(state.has_token for state in session.token_states().values())

    checks = await session.check_connection()
    assert {api: (c.ok, c.message) for api, c in checks.items()} == {
        "qrcodes": (True, "Connected."),
        "accounts": (True, "Connected."),
    }
    states = session.token_states()
    assert all(states[api].has_token and states[api].last_error is None for api in APIS)
    assert states["accounts"].valid_until > datetime.now(UTC)

    for api in APIS:
        info = session.certificates[api]
        client_id = sandbox.credentials[api]["client_id"]
        assert info.common_name == client_id
        assert f"CN={client_id}" in info.subject
        assert info.issuer and info.issuer != info.subject
        assert info.not_after > datetime.now(UTC)
        assert len(info.fingerprint.split(":")) == 32
        assert info.expiry_warning is None
    assert (
        session.certificates["qrcodes"].fingerprint != session.certificates["accounts"].fingerprint
    )

    balance = await session.accounts.get_balances()
    assert balance

    await session.close()
    assert session.closed
    await session.close()  # idempotent
    assert_all_closed(tracked)
    assert len(tracked["transports"]) == 2

    rows = await audit_rows(app_paths)
    assert rows == [
        ("session.open", "ok", "Sandbox"),
        ("certificate.load", "ok", "qrcodes"),
        ("certificate.load", "ok", "accounts"),
        ("session.close", "ok", "Sandbox"),
    ]
    ledger = open_ledger(ledger_path(app_paths, "Sandbox"), profile="Sandbox")
    try:
        [loaded_accounts, loaded_qr] = await ledger.audit.entries(action="certificate.load")
        [opened] = await ledger.audit.entries(action="session.open")
    finally:
        await ledger.close()
    assert loaded_qr.details["subject"] == session.certificates["qrcodes"].subject
    assert loaded_accounts.details["fingerprint"] == session.certificates["accounts"].fingerprint
    assert loaded_accounts.details["not_after"].startswith(
        f"{session.certificates['accounts'].not_after:%Y-%m-%d}"
    )
    assert opened.details["credentials_from"] == {"qrcodes": "given", "accounts": "given"}
    assert opened.details["environment"] == "sandbox"
    assert opened.profile == "Sandbox" and opened.os_user


async def test_async_with(profile: Profile, secrets: SandboxSecrets, app_paths: AppPaths) -> None:
    async with await open_session(profile, secrets, app_paths) as session:
        checks = await session.check_connection()
        assert all(check.ok for check in checks.values())
    assert session.closed
    assert all(t.http.is_closed for t in session.transports.values())


async def test_check_connection_reports_each_api(
    profile: Profile, secrets: SandboxSecrets, app_paths: AppPaths
) -> None:
    wrong = {**secrets.client_secrets, "accounts": "not-the-secret"}
    async with await open_session(profile, secrets, app_paths, client_secrets=wrong) as session:
        checks = await session.check_connection()
        assert checks["qrcodes"].ok
        assert not checks["accounts"].ok
        assert "401" in checks["accounts"].message
        assert "not-the-secret" not in checks["accounts"].message
        assert session.token_states()["accounts"].last_error


async def test_wrong_pfx_password(
    profile: Profile,
    secrets: SandboxSecrets,
    app_paths: AppPaths,
    tracked: dict[str, list[object]],
) -> None:
    passwords = {**secrets.pfx_passwords, "accounts": "wrong-password-123"}
    with pytest.raises(PfxPasswordError) as caught:
        await open_session(profile, secrets, app_paths, pfx_passwords=passwords)
    message = str(caught.value)
    assert "accounts-client.pfx" in message
    assert "wrong-password-123" not in message and secrets.pfx_passwords["accounts"] not in message
    assert tracked == {"transports": [], "ledgers": []}
    assert not ledger_path(app_paths, "Sandbox").exists()


async def test_missing_certificate_file(
    profile: Profile, secrets: SandboxSecrets, app_paths: AppPaths, tmp_path: Path
) -> None:
    moved = profile.model_copy(
        update={"qrcodes": profile.qrcodes.model_copy(update={"pfx_path": tmp_path / "gone.pfx"})}
    )
    with pytest.raises(PfxNotFound, match=r"gone\.pfx"):
        await open_session(moved, secrets, app_paths)


async def test_failure_after_opening_leaves_nothing_open(
    profile: Profile,
    secrets: SandboxSecrets,
    app_paths: AppPaths,
    tracked: dict[str, list[object]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def broken_resolver(self: PaymentEngine) -> list[object]:
        raise RuntimeError("resolver broke")

    monkeypatch.setattr(PaymentEngine, "resolve_pending", broken_resolver)
    with pytest.raises(RuntimeError, match="resolver broke"):
        await open_session(profile, secrets, app_paths)
    assert len(tracked["transports"]) == 2 and len(tracked["ledgers"]) == 1
    assert_all_closed(tracked)

    # A CA file that disappeared fails the second transport: the first one is closed.
    monkeypatch.undo()
    rows_before = await audit_rows(app_paths)
    assert rows_before[0][0] == "session.open"
    tracked["transports"].clear()
    tracked["ledgers"].clear()
    missing_ca = profile.model_copy(
        update={
            "accounts": profile.accounts.model_copy(update={"ca_file": app_paths.config_dir / "x"})
        }
    )
    spy: list[ApiTransport] = []
    real_init = ApiTransport.__init__

    def init(self: ApiTransport, *args: object, **kwargs: object) -> None:
        spy.append(self)
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ApiTransport, "__init__", init)
    with pytest.raises(CertificateError, match="CA file"):
        await open_session(missing_ca, secrets, app_paths)
    assert len(spy) == 2
    assert spy[0].http.is_closed  # the QR Codes transport was opened, then closed
    assert await audit_rows(app_paths) == rows_before  # the ledger was never opened this time


async def test_missing_secrets(
    profile: Profile,
    secrets: SandboxSecrets,
    app_paths: AppPaths,
    memory_keyring: MemoryKeyring,
    tracked: dict[str, list[object]],
) -> None:
    store = SecretStore()
    only_qr = {"qrcodes": secrets.client_secrets["qrcodes"]}
    with pytest.raises(MissingSecret) as caught:
        await open_session(profile, secrets, app_paths, client_secrets=None, secret_store=store)
    assert caught.value.api == "qrcodes" and caught.value.what == "client_secret"
    assert str(caught.value).startswith("Enter the client secret of the QR Codes API")
    with pytest.raises(MissingSecret) as caught:
        await open_session(profile, secrets, app_paths, client_secrets=only_qr)
    assert caught.value.api == "accounts"
    with pytest.raises(MissingSecret) as caught:
        await open_session(
            profile, secrets, app_paths, pfx_passwords={"qrcodes": "x"}, secret_store=store
        )
    assert caught.value.api == "accounts" and caught.value.what == "pfx_password"
    assert tracked == {"transports": [], "ledgers": []}

    # The Accounts secret from the keyring, the QR Codes one typed at unlock.
    await store.set("Sandbox", "accounts", secrets.client_secrets["accounts"])
    async with await open_session(
        profile, secrets, app_paths, client_secrets=only_qr, secret_store=store
    ) as session:
        checks = await session.check_connection()
        assert all(check.ok for check in checks.values())
        [opened] = await session.ledger.audit.entries(action="session.open")
        assert opened.details["credentials_from"] == {
            "qrcodes": "given",
            "accounts": "keyring",
        }


async def test_no_secret_is_written_or_logged(
    sandbox: RunningSandbox,
    profile: Profile,
    secrets: SandboxSecrets,
    app_paths: AppPaths,
    memory_keyring: MemoryKeyring,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    store = SecretStore()
    profiles = ProfileStore(app_paths)
    for api, value in secrets.client_secrets.items():
        await store.set(profile.name, api, value)  # type: ignore[arg-type]
    async with await open_session(
        profile, secrets, app_paths, client_secrets=None, secret_store=store
    ) as session:
        await profiles.save(profile, audit=session.ledger.audit)
        assert all(check.ok for check in (await session.check_connection()).values())
        await session.accounts.get_balances()
        # A wrong password and a wrong secret, with their errors logged, leak nothing either.
        with pytest.raises(PfxPasswordError) as caught:
            await open_session(
                profile,
                secrets,
                app_paths,
                pfx_passwords={**secrets.pfx_passwords, "qrcodes": "typo-" + "x" * 8},
            )
        logging.getLogger("test").warning("open failed: %s", caught.value)
    wrong_secret = "wrong-" + secrets.client_secrets["qrcodes"][::-1]
    async with await open_session(
        profile,
        secrets,
        app_paths,
        client_secrets={**secrets.client_secrets, "qrcodes": wrong_secret},
    ) as session:
        checks = await session.check_connection()
        assert not checks["qrcodes"].ok
        logging.getLogger("test").warning("check failed: %s", checks["qrcodes"].message)

    needles = [
        *secrets.pfx_passwords.values(),
        *secrets.client_secrets.values(),
        wrong_secret,
        "typo-xxxxxxxx",
    ]
    assert caplog.records, "DEBUG logging captured nothing"
    logged = caplog.text + "".join(
        f"{record.getMessage()} {record.args!r} {record.exc_text or ''}"
        for record in caplog.records
    )
    stored = b"".join(
        path.read_bytes()
        for root in (app_paths.config_dir, app_paths.data_dir, app_paths.log_dir)
        for path in root.rglob("*")
        if path.is_file()
    )
    assert ledger_path(app_paths, "Sandbox").is_file() and stored
    for needle in needles:
        assert needle not in logged
        assert needle.encode() not in stored
    assert sum(1 for _ in app_paths.data_dir.rglob("*.sqlite3*")) >= 1
    rows = [action for action, _, _ in await audit_rows(app_paths)]
    assert "profile.save" in rows and rows.count("session.open") == 2


async def test_pending_payment_is_resolved_at_open(
    profile: Profile, secrets: SandboxSecrets, app_paths: AppPaths, control: Api
) -> None:
    key = new_idempotency_key()
    amount = Decimal("123.45")
    body = {
        "pixKey": "fornecedor@empresa.com.br",
        "pixKeyType": "EMAIL",
        "payment": {"currency": "BRL", "amount": amount},
        "description": "Teste do sandbox",
    }
    paid = control.paid(amount, idem=key)  # the bank got it; the app never heard back
    balance = control.balance()

    ledger = open_ledger(ledger_path(app_paths, profile.name), profile=profile.name)
    try:
        entry = await ledger.journal.create(
            NewEntry(
                kind=EntryKind.PIX_KEY,
                amount=amount,
                idempotency_key=key,
                request=body,
                payee_detail="fornecedor@empresa.com.br",
            )
        )
        await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
        await ledger.journal.update(entry.id, EntryState.UNKNOWN, note="no answer")
    finally:
        await ledger.close()

    async with await open_session(profile, secrets, app_paths) as session:
        [resolved] = session.resolved_at_start
        assert resolved.id == entry.id
        assert resolved.state == EntryState.ACCEPTED
        assert resolved.end_to_end_id == paid["endToEndId"]
        assert (await session.ledger.journal.by_key(key)).state == EntryState.ACCEPTED  # type: ignore[union-attr]
        assert await session.ledger.journal.unresolved() == []
    assert control.balance() == balance  # asked, never paid again
    actions = [action for action, _, _ in await audit_rows(app_paths)]
    assert actions.index("certificate.load") < actions.index("payment.resolve")

    # The next session has nothing left to resolve.
    async with await open_session(profile, secrets, app_paths) as session:
        assert session.resolved_at_start == []


def test_profiles_have_no_place_for_secrets() -> None:
    assert not {"client_secret", "pfx_password"} & set(ApiProfile.model_fields)
    assert not any("secret" in name or "password" in name for name in Profile.model_fields)
