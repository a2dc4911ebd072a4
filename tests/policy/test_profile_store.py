"""The profile store under a machine policy: preset profiles listed and read-only, sandbox
profiles neither listed nor opened where the sandbox is off, locked settings applied."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.policy.fake_registry import FakeRegistry
from treasury_app.config import AppPaths
from treasury_app.policy import POLICY_KEY, Policy, PolicyError, RegistryKeys, read_policy
from treasury_app.services.profiles import (
    ApiProfile,
    LedgerLocation,
    PolicyRefusal,
    Profile,
    ProfileStore,
    TeamDatabaseProfile,
)

ROOT = POLICY_KEY


def preset(name: str = "Main bank") -> dict[str, object]:
    return {
        "Name": name,
        "QrCodesUrl": "https://qr.bank.example",
        "QrCodesClientId": "qr",
        "QrCodesCertificate": "/certs/qr.pfx",
        "AccountsUrl": "https://acc.bank.example",
        "AccountsClientId": "acc",
        "AccountsCertificate": "/certs/acc.pfx",
        "AccountsCaFile": "/certs/ca.pem",
    }


def policy_of(keys: dict[str, dict[str, object]]) -> Policy:
    return read_policy([RegistryKeys(FakeRegistry(keys))], environ={"USERNAME": "ana"})


def own_profile(name: str, environment: str = "production", **update: object) -> Profile:
    api = ApiProfile(base_url="https://x.example", client_id="c", pfx_path=Path("/p.pfx"))
    return Profile(name=name, environment=environment, qrcodes=api, accounts=api, **update)  # type: ignore[arg-type]


@pytest.fixture
def paths(tmp_path: Path) -> AppPaths:
    return AppPaths(tmp_path / "config", tmp_path / "data", tmp_path / "logs")


def save(paths: AppPaths, *profiles: Profile) -> None:
    store = ProfileStore(paths)
    for profile in profiles:
        asyncio.run(store.save(profile))


def test_presets_are_listed_read_only_and_hide_a_file_of_their_name(paths: AppPaths) -> None:
    save(paths, own_profile("main BANK"), own_profile("Mine"))
    store = ProfileStore(paths, policy_of({f"{ROOT}\\Profiles\\1": preset()}))
    assert store.list() == ["Main bank", "Mine"]
    loaded = store.load("main bank")
    assert loaded.name == "Main bank" and loaded.environment == "production"
    assert loaded.accounts.ca_file == Path("/certs/ca.pem") and loaded.qrcodes.ca_file is None
    assert not loaded.ledger.is_team
    with pytest.raises(PolicyRefusal) as saving:
        asyncio.run(store.save(loaded))
    assert saving.value.code == "policy.preset_read_only"
    with pytest.raises(PolicyRefusal):
        asyncio.run(store.delete("Main bank"))
    assert store.load("Mine").name == "Mine"  # one's own profiles stay


def test_where_the_sandbox_is_off_sandbox_profiles_are_neither_listed_opened_nor_saved(
    paths: AppPaths,
) -> None:
    save(paths, own_profile("Sandbox", "sandbox"), own_profile("Real"))
    store = ProfileStore(paths, policy_of({ROOT: {"SandboxDisabled": 1}}))
    assert store.list() == ["Real"]
    with pytest.raises(PolicyRefusal) as opening:
        store.load("Sandbox")
    assert opening.value.code == "policy.sandbox_disabled"
    with pytest.raises(PolicyRefusal):
        asyncio.run(store.save(own_profile("Test", "sandbox")))
    assert ProfileStore(paths).list() == ["Real", "Sandbox"]  # without the policy: both


def test_profiles_locked_refuses_profiles_of_ones_own(paths: AppPaths) -> None:
    store = ProfileStore(
        paths, policy_of({f"{ROOT}\\Profiles\\1": preset(), f"{ROOT}\\Locked": {"Profiles": 1}})
    )
    with pytest.raises(PolicyRefusal) as error:
        asyncio.run(store.save(own_profile("Mine")))
    assert error.value.code == "policy.profiles_locked"


TEAM = {"Host": "db.example.com", "Database": "treasury", "Release": "none", "SslMode": "require"}


def test_a_locked_team_database_is_every_production_profiles_ledger(paths: AppPaths) -> None:
    mine = own_profile(
        "Mine",
        ledger=LedgerLocation(
            location="team",
            team=TeamDatabaseProfile(host="old", dbname="old", user="me", release="all"),
        ),
    )
    save(paths, mine, own_profile("Plain"), own_profile("Sandbox", "sandbox"))
    store = ProfileStore(
        paths,
        policy_of(
            {
                f"{ROOT}\\TeamDatabase": TEAM,
                f"{ROOT}\\Locked": {"TeamDatabase": 1, "Release": 1},
                f"{ROOT}\\Profiles\\1": preset(),
            }
        ),
    )
    team = store.load("Mine").ledger.team
    assert team is not None
    assert (team.host, team.dbname, team.user, team.sslmode, team.release) == (
        "db.example.com",
        "treasury",
        "me",  # the policy leaves the login to the person: theirs is kept
        "require",
        "none",
    )
    plain = store.load("Plain").ledger.team
    assert plain is not None and plain.host == "db.example.com" and plain.user  # OS login
    assert not store.load("Sandbox").ledger.is_team  # never the team's real ledger
    preset_team = store.load("Main bank").ledger.team
    assert preset_team is not None and preset_team.host == "db.example.com"
    # Saved, the file holds the policy's database too (what was saved is what is used).
    saved = asyncio.run(store.save(own_profile("New")))
    assert saved.ledger.team is not None and saved.ledger.team.host == "db.example.com"


def test_a_locked_release_mode_only(paths: AppPaths) -> None:
    team = TeamDatabaseProfile(host="h", dbname="d", user="u", release="all")
    save(paths, own_profile("Mine", ledger=LedgerLocation(location="team", team=team)))
    store = ProfileStore(
        paths,
        policy_of(
            {
                f"{ROOT}\\TeamDatabase": {**TEAM, "ApprovePassword": 1},
                f"{ROOT}\\Locked": {"Release": 1},
            }
        ),
    )
    loaded = store.load("Mine").ledger.team
    assert loaded is not None
    assert (loaded.host, loaded.release, loaded.approve_password) == ("h", "none", True)


def test_a_preset_whose_name_cannot_be_a_profiles_is_refused_at_start(paths: AppPaths) -> None:
    store = ProfileStore(paths, policy_of({f"{ROOT}\\Profiles\\1": preset("CON")}))
    with pytest.raises(PolicyError) as error:
        store.presets()
    assert error.value.code == "policy.profile_name"
    assert error.value.params["rule"].code == "profile.name_reserved"
