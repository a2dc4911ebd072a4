"""Profiles on disk, client secrets in the system keyring, and the sandbox profile."""

from __future__ import annotations

import json
import os
import stat
import sys
from datetime import UTC, datetime
from pathlib import Path

import keyring
import pytest
from keyring.backends import fail, null

from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import audit_text
from tests.services.session_fixtures import (
    LockedKeyring,
    MemoryKeyring,
    app_paths,
    memory_keyring,
    ready_file,
    sandbox,
    use_keyring,
)
from treasury_app.config import AppPaths
from treasury_app.ledger import Ledger
from treasury_app.services import profiles as profiles_module
from treasury_app.services.profiles import (
    KEYRING_SERVICE,
    ApiProfile,
    Profile,
    ProfileCorrupt,
    ProfileError,
    ProfileNameError,
    ProfileNotFound,
    ProfileStore,
    SecretStore,
    SecretStoreUnavailable,
    sandbox_profile,
    validate_profile_name,
)

POSIX_MODES = sys.platform != "win32"  # Windows ignores modes: ACLs (test_private_files.py)

__all__ = ["app_paths", "memory_keyring", "ready_file", "sandbox", "use_keyring"]


def make_profile(name: str = "Empresa Principal", **overrides: object) -> Profile:
    values: dict[str, object] = {
        "name": name,
        "environment": "production",
        "qrcodes": ApiProfile(
            base_url="https://pix.bank.example/",
            client_id="qr-client",
            pfx_path=Path("/certs/qrcodes.pfx"),
            scopes=("cob.read", "cob.write"),
        ),
        "accounts": ApiProfile(
            base_url="https://accounts.bank.example",
            client_id="acc-client",
            pfx_path=Path("/certs/accounts.pfx"),
            ca_file=Path("/certs/bank-chain.pem"),
        ),
    }
    values.update(overrides)
    return Profile.model_validate(values)


# --------------------------------------------------------------------------------------------
# The profile model


def test_profile_defaults_and_validation() -> None:
    profile = make_profile()
    assert profile.connect_timeout == 5.0 and profile.read_timeout == 30.0
    assert profile.timeouts().connect == 5.0 and profile.timeouts().read == 30.0
    assert profile.qrcodes.base_url == "https://pix.bank.example"  # trailing slash dropped
    assert profile.qrcodes.trust().kind == "system"
    assert profile.accounts.trust().kind == "bundle"
    assert profile.created_at.tzinfo is not None
    with pytest.raises(ValueError, match=r"profile\.url_not_https"):
        ApiProfile(base_url="http://pix.bank.example", client_id="x", pfx_path=Path("q.pfx"))
    with pytest.raises(ValueError, match=r"profile\.client_id_missing"):
        ApiProfile(base_url="https://pix.bank.example", client_id="  ", pfx_path=Path("q.pfx"))
    with pytest.raises(ValueError, match="environment"):
        make_profile(environment="staging")
    with pytest.raises(ValueError, match=r"profile\.name_characters"):
        make_profile(name="../escape")
    # A profile has no place for a secret.
    with pytest.raises(ValueError, match="client_secret"):
        Profile.model_validate({**make_profile().model_dump(), "client_secret": "x"})


@pytest.mark.parametrize(
    "name", ["Sandbox", "Empresa 1", "prod-main_2", "São Paulo", "x" * 64, "a"]
)
def test_good_names(name: str) -> None:
    assert validate_profile_name(name) == name


@pytest.mark.parametrize(
    "name",
    [
        "",
        "../x",
        "a/b",
        "a\\b",
        "a.b",
        ".",
        "..",
        " lead",
        "trail ",
        "x" * 65,
        "CON",
        "nul",
        "tab\there",
        "new\nline",
        "a:b",
        "C:",
    ],
)
async def test_bad_names(name: str, app_paths: AppPaths) -> None:
    with pytest.raises(ProfileNameError):
        validate_profile_name(name)
    store = ProfileStore(app_paths)
    with pytest.raises(ProfileNameError):
        store.load(name)
    with pytest.raises(ProfileNameError):
        await store.delete(name)


# --------------------------------------------------------------------------------------------
# The store


async def test_round_trip_list_and_delete(app_paths: AppPaths) -> None:
    store = ProfileStore(app_paths)
    assert store.list() == []
    first = await store.save(make_profile("Empresa Principal"))
    await store.save(make_profile("alfa"))
    assert store.list() == ["alfa", "Empresa Principal"]
    loaded = store.load("Empresa Principal")
    assert loaded == first
    assert loaded.accounts.ca_file == Path("/certs/bank-chain.pem")
    assert loaded.qrcodes.ca_file is None
    assert loaded.qrcodes.scopes == ("cob.read", "cob.write")
    assert store.path_for("alfa") == app_paths.config_dir / "profiles" / "alfa.json"

    # Saving again keeps created_at and moves updated_at.
    again = await store.save(make_profile("Empresa Principal", read_timeout=45))
    assert again.created_at == first.created_at
    assert again.updated_at >= first.updated_at
    assert store.load("Empresa Principal").read_timeout == 45

    await store.delete("alfa")
    assert store.list() == ["Empresa Principal"]
    with pytest.raises(ProfileNotFound, match="alfa"):
        store.load("alfa")
    with pytest.raises(ProfileNotFound):
        await store.delete("alfa")


async def test_files_are_private_and_hold_no_secret(app_paths: AppPaths) -> None:
    store = ProfileStore(app_paths)
    await store.save(make_profile())
    path = store.path_for("Empresa Principal")
    if POSIX_MODES:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(store.directory.stat().st_mode) == 0o700
    data = json.loads(path.read_text("utf-8"))
    assert set(data) == {
        "name",
        "environment",
        "qrcodes",
        "accounts",
        "connect_timeout",
        "read_timeout",
        "pix_keys",
        "resend_window_minutes",
        "duplicate_batch_hours",
        "created_at",
        "updated_at",
    }
    assert set(data["qrcodes"]) == {"base_url", "client_id", "pfx_path", "ca_file", "scopes"}
    assert list(store.directory.iterdir()) == [path]  # no temporary file left behind


async def test_write_is_atomic(app_paths: AppPaths, monkeypatch: pytest.MonkeyPatch) -> None:
    store = ProfileStore(app_paths)
    await store.save(make_profile(read_timeout=30))
    path = store.path_for("Empresa Principal")
    before = path.read_bytes()
    renames: list[tuple[Path, Path, int]] = []
    real_replace = os.replace

    def spying_replace(source: str, target: Path) -> None:
        renames.append((Path(source), Path(target), stat.S_IMODE(os.stat(source).st_mode)))
        real_replace(source, target)

    monkeypatch.setattr(profiles_module.os, "replace", spying_replace)
    await store.save(make_profile(read_timeout=60))
    [(source, target, mode)] = renames
    assert source.parent == path.parent and source != path and target == path
    assert not POSIX_MODES or mode == 0o600  # private before it ever has the final name

    # A crash between writing and renaming leaves the old file whole and no debris.
    def crashing_replace(source: str, target: Path) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(profiles_module.os, "replace", crashing_replace)
    after_first = path.read_bytes()
    assert after_first != before
    with pytest.raises(OSError, match="No space"):
        await store.save(make_profile(read_timeout=90))
    assert path.read_bytes() == after_first
    assert store.load("Empresa Principal").read_timeout == 60
    assert list(store.directory.iterdir()) == [path]


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"{not json", "profile.file_not_json"),
        (b"[1, 2]", "profile.file_not_profile"),
        (b"\xff\xfe\x00", "profile.file_unreadable"),
        (b'{"name": "Broken", "environment": "production"}', "qrcodes"),
        (None, "https"),
        (None, "profile.file_renamed"),
    ],
)
def test_corrupt_files(app_paths: AppPaths, content: bytes | None, reason: str) -> None:
    store = ProfileStore(app_paths)
    store.directory.mkdir(parents=True)
    path = store.directory / "Broken.json"
    if content is None:
        data = json.loads(make_profile("Broken").model_dump_json())
        if reason == "https":
            data["accounts"]["base_url"] = "http://accounts.bank.example"
        else:
            data["name"] = "Other"
        content = json.dumps(data).encode()
    path.write_bytes(content)
    assert store.list() == ["Broken"]
    with pytest.raises(ProfileCorrupt, match=reason) as caught:
        store.load("Broken")
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ProfileError)


async def test_list_ignores_other_files(app_paths: AppPaths) -> None:
    store = ProfileStore(app_paths)
    await store.save(make_profile("Real"))
    (store.directory / "notes.txt").write_text("x")
    (store.directory / ".Real-abc.tmp").write_text("x")
    (store.directory / "bad.name.json").write_text("{}")
    assert store.list() == ["Real"]


async def test_save_and_delete_are_audited(app_paths: AppPaths, ledger: Ledger) -> None:
    store = ProfileStore(app_paths)
    await store.save(make_profile("Empresa"), audit=ledger.audit)
    await store.save(make_profile("Empresa", connect_timeout=10), audit=ledger.audit)
    await store.delete("Empresa", audit=ledger.audit)
    rows = await ledger.audit.entries(action="profile")
    assert [(r.action, r.outcome) for r in reversed(rows)] == [
        ("profile.save", "created"),
        ("profile.save", "updated"),
        ("profile.delete", "ok"),
    ]
    saved = rows[-1]
    assert saved.reference == "Empresa"
    assert saved.details["accounts"]["client_id"] == "acc-client"
    assert saved.details["environment"] == "production"


# --------------------------------------------------------------------------------------------
# Secrets in the keyring


async def test_secret_store_with_a_keyring(memory_keyring: MemoryKeyring, ledger: Ledger) -> None:
    store = SecretStore()
    assert store.available
    assert store.get("Empresa", "qrcodes") is None
    await store.set("Empresa", "qrcodes", "qr-very-secret-1", audit=ledger.audit)
    await store.set("Empresa", "accounts", "acc-very-secret-2")
    assert memory_keyring.entries == {
        (KEYRING_SERVICE, "Empresa/qrcodes"): "qr-very-secret-1",
        (KEYRING_SERVICE, "Empresa/accounts"): "acc-very-secret-2",
    }
    assert store.get("Empresa", "qrcodes") == "qr-very-secret-1"
    assert store.get("Other", "qrcodes") is None
    assert await store.delete("Empresa", "qrcodes", audit=ledger.audit) is True
    assert await store.delete("Empresa", "qrcodes") is False
    assert store.get("Empresa", "qrcodes") is None
    assert store.get("Empresa", "accounts") == "acc-very-secret-2"
    rows = await ledger.audit.entries(action="profile.secret")
    assert [(r.action, r.details) for r in reversed(rows)] == [
        ("profile.secret.set", {"api": "qrcodes"}),
        ("profile.secret.delete", {"api": "qrcodes"}),
    ]
    assert "very-secret" not in await audit_text(ledger)
    if ledger.path is not None:  # the file backend: not in any byte of its files either
        data = b"".join(p.read_bytes() for p in ledger.path.parent.iterdir() if p.is_file())
        assert b"very-secret" not in data
    with pytest.raises(ValueError):
        await store.set("Empresa", "qrcodes", "")
    with pytest.raises(ProfileNameError):
        store.get("../x", "qrcodes")
    with pytest.raises(ValueError):
        store.get("Empresa", "other")  # type: ignore[arg-type]


@pytest.mark.parametrize("backend", [fail.Keyring(), null.Keyring()], ids=["fail", "null"])
async def test_secret_store_without_a_keyring(use_keyring, backend: keyring.backend.KeyringBackend):
    use_keyring(backend)
    store = SecretStore()
    assert not store.available
    assert store.get("Empresa", "qrcodes") is None
    with pytest.raises(SecretStoreUnavailable, match="asked for each time"):
        await store.set("Empresa", "qrcodes", "qr-very-secret-1")
    assert await store.delete("Empresa", "qrcodes") is False


async def test_secret_store_with_a_keyring_that_fails(
    use_keyring, caplog: pytest.LogCaptureFixture
) -> None:
    use_keyring(LockedKeyring())
    store = SecretStore()
    assert store.available  # it looks usable until it is used
    with pytest.raises(SecretStoreUnavailable, match="refused") as caught:
        await store.set("Empresa", "qrcodes", "qr-very-secret-1")
    assert "very-secret" not in str(caught.value)
    assert not store.available  # from now on secrets are asked for
    assert store.get("Empresa", "qrcodes") is None
    fresh = SecretStore()
    assert fresh.get("Empresa", "accounts") is None  # KeyringLocked is a KeyringError
    assert not fresh.available
    assert "very-secret" not in caplog.text


# --------------------------------------------------------------------------------------------
# The sandbox profile


async def test_sandbox_profile_from_a_running_sandbox(
    sandbox: RunningSandbox, ready_file: Path, app_paths: AppPaths
) -> None:
    profile, secrets = sandbox_profile(ready_file)
    assert profile.name == "Sandbox" and profile.environment == "sandbox"
    for api in ("qrcodes", "accounts"):
        settings = profile.api(api)  # type: ignore[arg-type]
        cred = sandbox.credentials[api]
        assert settings.base_url == sandbox.urls[api].rstrip("/")
        assert settings.client_id == cred["client_id"]
        assert settings.pfx_path == Path(cred["pfx"]) and settings.pfx_path.is_file()
        assert settings.ca_file == Path(sandbox.ready["ca_file"])
        assert secrets.client_secrets[api] == cred["client_secret"]
        assert secrets.pfx_passwords[api] == cred["pfx_password"]
        assert cred["client_secret"] not in repr(secrets)
        assert cred["pfx_password"] not in repr(secrets)

    store = ProfileStore(app_paths)
    await store.save(profile)
    text = store.path_for("Sandbox").read_text("utf-8")
    for cred in sandbox.credentials.values():
        assert cred["client_secret"] not in text
        assert cred["pfx_password"] not in text
    assert store.load("Sandbox").accounts == profile.accounts


def test_sandbox_profile_errors(tmp_path: Path, ready_file: Path) -> None:
    with pytest.raises(ProfileError, match=r"profile\.sandbox_file_missing"):
        sandbox_profile(tmp_path / "missing.json")
    ready = json.loads(ready_file.read_text("utf-8"))
    partial = tmp_path / "partial.json"
    partial.write_text(json.dumps({k: v for k, v in ready.items() if k != "ca_file"}))
    with pytest.raises(ProfileError, match="ca_file"):
        sandbox_profile(partial)
    credentials = json.loads(Path(ready["credentials_file"]).read_text("utf-8"))
    broken_credentials = tmp_path / "credentials.json"
    del credentials["accounts"]["client_id"]
    broken_credentials.write_text(json.dumps(credentials))
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps({**ready, "credentials_file": str(broken_credentials)}))
    with pytest.raises(ProfileError, match="client_id") as caught:
        sandbox_profile(broken)
    assert credentials["accounts"]["client_secret"] not in str(caught.value)


async def test_profiles_round_trip_timestamps(app_paths: AppPaths) -> None:
    created = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    store = ProfileStore(app_paths)
    saved = await store.save(make_profile(created_at=created))
    assert store.load("Empresa Principal").created_at == created == saved.created_at


class PlaintextKeyring(keyring.backend.KeyringBackend):
    """Stands for keyrings.alt's plaintext backend: secrets in a readable file."""

    priority = 1

    def get_password(self, service: str, username: str) -> str | None:
        return None

    def set_password(self, service: str, username: str, password: str) -> None:
        raise AssertionError("a secret must never be written to a plain-text keyring")

    def delete_password(self, service: str, username: str) -> None:
        return None


async def test_a_plain_text_keyring_is_not_a_keyring(use_keyring) -> None:
    use_keyring(PlaintextKeyring())
    store = SecretStore()
    assert not store.available
    assert "plain-text" in (store.unavailable_reason or "")
    with pytest.raises(SecretStoreUnavailable):
        await store.set("Empresa", "qrcodes", "qr-very-secret-1")
    use_keyring(null.Keyring())
    assert "No system keyring" in (SecretStore().unavailable_reason or "")


async def test_a_team_ledger_round_trips_and_holds_no_password(app_paths: AppPaths) -> None:
    from pydantic import ValidationError

    from treasury_app.services.profiles import LedgerLocation, TeamDatabaseProfile

    store = ProfileStore(app_paths)
    base = make_profile()
    team = TeamDatabaseProfile(
        host="db.example.com",
        dbname="treasury",
        user="ana",
        ca_file=Path("~/ca.pem"),
        password="ask",
    )
    profile = base.model_copy(update={"ledger": LedgerLocation(location="team", team=team)})
    await store.save(profile)
    loaded = store.load(profile.name)
    assert loaded.ledger == profile.ledger and loaded.ledger.is_team
    settings = loaded.ledger.team.settings()  # type: ignore[union-attr]
    assert settings.sslmode == "verify-full" and settings.ca_file == Path.home() / "ca.pem"
    text = store.path_for(profile.name).read_text("utf-8")
    assert '"password": "ask"' in text  # how it is asked for, never a password
    with pytest.raises(ValidationError, match="needs its database"):
        LedgerLocation(location="team")
    with pytest.raises(ValidationError, match=r"profile\.team_cert_without_key"):
        TeamDatabaseProfile(host="db", dbname="t", user="ana", cert_file=Path("c.pem"))
    with pytest.raises(ValidationError, match=r"profile\.team_spaces"):
        TeamDatabaseProfile(host="db example", dbname="t", user="ana")
