"""A profile's proxy: saved with the profile (files without one still load, and a profile on the
default proxy writes none, so earlier versions still read it), never with a password, in the
audit; and an unlocked session sends what is not on loopback through it, the sandbox never."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pydantic
import pytest

from tests.api.proxy_fixtures import BANK_HOST, ForwardProxy, as_bank_test, bank
from tests.sandbox_harness import RunningSandbox
from tests.services.session_fixtures import app_paths
from treasury_app.api.proxies import ProxyRoute, ProxySetting
from treasury_app.config import AppPaths
from treasury_app.ledger import Ledger
from treasury_app.services.profiles import (
    ApiProfile,
    Profile,
    ProfileCorrupt,
    ProfileStore,
    sandbox_profile,
)
from treasury_app.services.session import Session

__all__ = ["app_paths", "bank"]  # fixtures, found by pytest here

BALANCES = "/api/v2/accounts/balances"


def make_profile(**overrides: object) -> Profile:
    values: dict[str, object] = {
        "name": "Main bank",
        "environment": "production",
        "qrcodes": ApiProfile(
            base_url="https://pix.bank.example", client_id="qr", pfx_path=Path("/q.pfx")
        ),
        "accounts": ApiProfile(
            base_url="https://accounts.bank.example", client_id="ac", pfx_path=Path("/a.pfx")
        ),
    }
    values.update(overrides)
    return Profile(**values)  # type: ignore[arg-type]


async def test_a_file_without_a_proxy_loads_with_the_systems(app_paths: AppPaths) -> None:
    store = ProfileStore(app_paths)
    await store.save(make_profile())
    path = store.path_for("Main bank")
    data = json.loads(path.read_text("utf-8"))
    assert "proxy" not in data  # the default is not written: earlier versions read the file
    assert store.load("Main bank").proxy == ProxySetting(mode="system")


async def test_a_chosen_proxy_is_saved_and_read_back(app_paths: AppPaths) -> None:
    store = ProfileStore(app_paths)
    for setting in (ProxySetting(mode="none"), ProxySetting.explicit("http://proxy.corp:3128")):
        await store.save(make_profile(proxy=setting))
        data = json.loads(store.path_for("Main bank").read_text("utf-8"))
        assert data["proxy"]["mode"] == setting.mode
        assert store.load("Main bank").proxy == setting


async def test_a_proxy_password_is_never_kept_nor_repeated(app_paths: AppPaths) -> None:
    with pytest.raises(pydantic.ValidationError) as refused:
        make_profile(proxy={"mode": "url", "url": "http://alice:s3cret@proxy.corp:3128"})
    assert "profile.proxy_credentials" in str(refused.value)  # a rule code, in words in the UI
    assert "s3cret" not in str(refused.value)
    # A file edited by hand to hold one is refused as a whole, without repeating it.
    store = ProfileStore(app_paths)
    await store.save(make_profile(proxy=ProxySetting.explicit("http://proxy.corp:3128")))
    path = store.path_for("Main bank")
    data = json.loads(path.read_text("utf-8"))
    data["proxy"]["url"] = "http://alice:s3cret@proxy.corp:3128"
    path.write_text(json.dumps(data), "utf-8")
    with pytest.raises(ProfileCorrupt) as corrupt:
        store.load("Main bank")
    assert "proxy" in str(corrupt.value) and "s3cret" not in str(corrupt.value)


async def test_the_audit_says_which_proxy(app_paths: AppPaths, ledger: Ledger) -> None:
    store = ProfileStore(app_paths)
    await store.save(
        make_profile(proxy=ProxySetting.explicit("http://proxy.corp:3128")), audit=ledger.audit
    )
    [row] = [row for row in await ledger.audit.entries() if row.action == "profile.save"]
    assert "http://proxy.corp:3128" in json.dumps(row.details)


async def test_the_session_sends_through_the_profiles_proxy_all_but_loopback(
    bank: RunningSandbox, app_paths: AppPaths
) -> None:
    profile, secrets = sandbox_profile(bank.data_dir / "ready.json")
    async with ForwardProxy() as proxy:
        profile = profile.model_copy(update={"proxy": ProxySetting.explicit(proxy.url)})
        session = await Session.open(
            profile,
            pfx_passwords=secrets.pfx_passwords,
            client_secrets=secrets.client_secrets,
            paths=app_paths,
        )
        try:
            accounts = session.transports["accounts"]
            # The sandbox is on loopback: direct, whatever the profile's proxy.
            assert accounts.proxy_route == ProxyRoute(None, "loopback")
            assert await accounts.request_json("GET", BALANCES)
            assert proxy.connects == []
            # Any other host (a Pix payload location, say) goes through the profile's proxy.
            elsewhere = as_bank_test(bank.urls["accounts"]) + BALANCES
            assert await accounts.request_json("GET", elsewhere)
            port = httpx.URL(bank.urls["accounts"]).port
            assert proxy.connects == [f"{BANK_HOST}:{port}"]
        finally:
            await session.close()
