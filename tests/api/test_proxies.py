"""Proxies: the decision per request (the profile's setting, the system's proxies and bypass
list, loopback always direct) as pure functions, then over the wire: a real forward proxy on
127.0.0.1 carries the requests to a bank that is not on loopback (the sandbox under the name
``bank.test``, which only the proxy knows), loopback never goes through it, and a proxy that
refuses, asks for credentials, inspects TLS or answers instead of the bank is a
:class:`ProxyFailure` naming it (never its credentials)."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pytest

from tests.api.conftest import api_config
from tests.api.proxy_fixtures import (
    BANK_HOST,
    ForwardProxy,
    as_bank_test,
    bank,
    inspecting_box,
)
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.errors import ProxyFailure, TransportFailure
from treasury_app.api.proxies import (
    ProxyRoute,
    ProxySetting,
    ProxyUrlError,
    SystemProxies,
    bypassed,
    check_proxy_url,
    is_loopback,
    masked_url,
    parse_windows_proxy_server,
    route,
)
from treasury_app.api.transport import ApiTransport
from treasury_app.sandbox.pki import ensure_pki, load_issuer, new_ca

__all__ = ["bank"]  # a fixture, found by pytest here

BALANCES = "/api/v2/accounts/balances"
NOTHING: SystemProxies = SystemProxies()


# --------------------------------------------------------------------------------------------
# The decision, pure

WINDOWS_OVERRIDE = "<local>;*.corp.example;10.*;Bank-Intranet.example;192.168.0.0/16"


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("intranet", True),  # <local>: a name without a dot
        ("a.corp.example", True),
        ("deep.a.corp.example", True),
        ("corp.example", False),  # *.corp.example wants a subdomain
        ("10.1.2.3", True),
        ("100.1.2.3", False),  # 10.* is "10." then anything, not "10" then anything
        ("bank-intranet.example", True),  # case does not matter
        ("BANK-INTRANET.EXAMPLE", True),
        ("x.bank-intranet.example", False),  # an exact entry is that host only
        ("bank-intranet.example.evil.test", False),  # urllib's prefix match would say yes
        ("192.168.40.5", True),
        ("api.bank.example", False),
        ("fd00::1", False),  # an IPv6 address has no dot but is not a local name
    ],
)
def test_windows_bypass_list(host: str, expected: bool) -> None:
    entries = WINDOWS_OVERRIDE.split(";")
    assert bypassed(host, entries, style="pattern", port=443) is expected


@pytest.mark.parametrize(
    ("host", "port", "expected"),
    [
        ("corp.example", 443, True),
        ("a.corp.example", 443, True),
        ("bank.example", 443, True),
        ("api.bank.example", 443, True),  # a domain covers its subdomains
        ("notbank.example", 443, False),
        ("10.20.30.40", 443, True),
        ("11.0.0.1", 443, False),
        ("svc.internal", 443, True),
        ("special", 8443, True),
        ("special", 443, False),  # host:port is that port only
        ("intranet", 443, False),  # no <local> in no_proxy
    ],
)
def test_no_proxy_list(host: str, port: int, expected: bool) -> None:
    entries = [".corp.example", "bank.example", "10.0.0.0/8", "*.internal", "special:8443"]
    assert bypassed(host, entries, style="no_proxy", port=port) is expected


def test_a_star_bypasses_everything_and_macos_short_networks_match() -> None:
    assert bypassed("anything.example", ["*"], style="no_proxy")
    assert bypassed("anything.example", ["*"], style="pattern")
    assert bypassed("169.254.3.4", ["169.254/16"], style="pattern")
    assert not bypassed("169.255.3.4", ["169.254/16"], style="pattern")


@pytest.mark.parametrize(
    "host",
    ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST.", "::ffff:127.0.0.1"],
)
def test_loopback(host: str) -> None:
    assert is_loopback(host)


@pytest.mark.parametrize("host", ["10.0.0.1", "bank.example", "localhost.example", "::2"])
def test_not_loopback(host: str) -> None:
    assert not is_loopback(host)


SYSTEM = SystemProxies(
    servers={"https": "http://proxy.corp.example:3128"},
    bypass=("<local>", "*.corp.example"),
    style="pattern",
    source="Windows settings",
)


def test_the_route_of_each_mode() -> None:
    bank = "https://api.bank.example/v2/cob"
    explicit = ProxySetting.explicit("http://other-proxy.example:8080")
    # The system's proxy for the bank; its bypass list and loopback direct.
    assert route(bank, ProxySetting(), SYSTEM) == ProxyRoute(
        "http://proxy.corp.example:3128", "system"
    )
    assert route("https://pay.corp.example/x", ProxySetting(), SYSTEM).reason == "bypass"
    assert route("https://intranet:8443/x", ProxySetting(), SYSTEM).reason == "bypass"
    for loopback in ("https://127.0.0.1:8443/x", "https://localhost/x", "https://[::1]:1/x"):
        for setting in (ProxySetting(), explicit, ProxySetting(mode="none")):
            assert route(loopback, setting, SYSTEM) == ProxyRoute(None, "loopback")
    # No proxy at all.
    assert route(bank, ProxySetting(mode="none"), SYSTEM) == ProxyRoute(None, "no-proxy")
    # An explicit proxy, the system's bypass list still honoured host by host.
    assert route(bank, explicit, SYSTEM) == ProxyRoute("http://other-proxy.example:8080", "profile")
    assert route("https://a.corp.example/", explicit, SYSTEM).reason == "bypass"
    # The system has no proxy: direct; ALL_PROXY serves every scheme.
    assert route(bank, ProxySetting(), NOTHING) == ProxyRoute(None, "no-system-proxy")
    every = SystemProxies(servers={"all": "http://all.example:1"}, source="environment")
    assert route(bank, ProxySetting(), every).proxy == "http://all.example:1"


def test_a_proxy_address_is_checked_and_its_password_never_repeated() -> None:
    assert check_proxy_url(" HTTP://proxy.example:8080/ ") == "http://proxy.example:8080"
    assert check_proxy_url("https://[fd00::1]:3128") == "https://[fd00::1]:3128"
    for text, reason in [
        ("", "empty"),
        ("proxy.example:8080", "scheme"),
        ("socks5://proxy.example:1080", "scheme"),
        ("http://proxy.example", "port"),
        ("http://proxy.example:8080/path", "path"),
        ("http://proxy.example:99999", "invalid"),
        ("http://user:s3cret@proxy example:80", "invalid"),
        ("http://user:s3cret@proxy.example", "port"),
    ]:
        with pytest.raises(ProxyUrlError) as refused:
            check_proxy_url(text)
        assert refused.value.reason == reason, text
        assert "s3cret" not in str(refused.value)


def test_a_setting_keeps_credentials_out_of_what_it_shows() -> None:
    setting = ProxySetting.explicit("http://alice:s3cret@proxy.example:8080")
    assert setting.url == "http://alice:s3cret@proxy.example:8080"  # for the transport only
    for shown in (str(setting), repr(setting), setting.describe()):
        assert "s3cret" not in shown and "alice" not in shown
        assert "proxy.example:8080" in shown
    chosen = route("https://bank.example/", setting, NOTHING)
    assert "s3cret" not in str(chosen) + repr(chosen) and chosen.label == "proxy.example:8080"
    assert masked_url("http://proxy.example:8080") == "http://proxy.example:8080"
    with pytest.raises(pydantic.ValidationError) as refused:
        ProxySetting(mode="url", url="http://alice:s3cret@proxy.example")  # no port
    assert "s3cret" not in str(refused.value)
    assert ProxySetting().mode == "system" and ProxySetting(mode="none", url="x").url is None


def test_system_proxies_from_the_environment() -> None:
    found = SystemProxies.from_environment(
        {
            "HTTPS_PROXY": "http://upper.example:1",
            "https_proxy": "http://lower.example:2",  # lower case wins, as in urllib
            "HTTP_PROXY": "http://plain.example:3",
            "NO_PROXY": "localhost, .corp.example",
        }
    )
    assert found.server_for("https") == "http://lower.example:2"
    assert found.bypass == ("localhost", ".corp.example") and found.style == "no_proxy"
    assert SystemProxies.from_environment({"PATH": "/bin"}) == NOTHING
    assert (
        SystemProxies.from_environment(
            {"HTTPS_PROXY": "http://upper.example:1", "https_proxy": ""}
        ).servers
        == {}
    )
    assert (
        "http"
        not in SystemProxies.from_environment(
            {"HTTP_PROXY": "http://header.example:1", "REQUEST_METHOD": "GET"}
        ).servers
    )
    shown = SystemProxies.from_environment({"https_proxy": "http://u:pw@p.example:8"}).describe()
    assert shown == "http://***@p.example:8 (environment)"


def test_system_proxies_from_windows_settings() -> None:
    assert parse_windows_proxy_server("proxy.corp:8080") == {
        "http": "http://proxy.corp:8080",
        "https": "http://proxy.corp:8080",
    }
    assert parse_windows_proxy_server("http=p1:80;https=p2:443") == {
        "http": "http://p1:80",
        "https": "http://p2:443",
    }
    assert parse_windows_proxy_server("socks=s.corp:1080")["https"] == "socks4://s.corp:1080"
    windows = SystemProxies.from_windows(True, "proxy.corp:8080", "<local>; *.corp.example ;")
    assert windows.bypass == ("<local>", "*.corp.example") and windows.style == "pattern"
    assert route("https://intranet/", ProxySetting(), windows).reason == "bypass"
    assert route("https://bank.example/", ProxySetting(), windows).proxy == "http://proxy.corp:8080"
    assert SystemProxies.from_windows(False, "proxy.corp:8080", "<local>") == NOTHING


# --------------------------------------------------------------------------------------------
# Over the wire: a sandbox bank also known as bank.test, and a proxy of our own


async def no_wait(_seconds: float) -> None:
    return None


@contextlib.asynccontextmanager
async def through(bank: RunningSandbox, proxy: ForwardProxy) -> AsyncIterator[ApiTransport]:
    """:func:`transport` with ``proxy`` as the profile's proxy."""
    async with transport(bank, proxy=ProxySetting.explicit(proxy.url)) as accounts:
        yield accounts


def transport(bank: RunningSandbox, **overrides: Any) -> ApiTransport:
    """Our Accounts API transport, under ``bank.test`` unless told otherwise; no waiting
    between retries; the system's proxies given (never this machine's)."""
    values: dict[str, Any] = {
        "base_url": as_bank_test(bank.urls["accounts"]),
        "system_proxies": NOTHING,
    }
    values.update(overrides)
    return ApiTransport(api_config(bank, "accounts", **values), sleep=no_wait)


async def test_the_bank_is_reached_through_the_profiles_proxy(bank: RunningSandbox) -> None:
    async with ForwardProxy() as proxy:
        async with transport(bank, proxy=ProxySetting.explicit(proxy.url)) as accounts:
            assert accounts.proxy_route.proxy == proxy.url
            balances = await accounts.request_json("GET", BALANCES)
            await accounts.request_json("GET", BALANCES)
        assert balances  # a real answer of the real bank, token included, over mutual TLS
        port = httpx.URL(bank.urls["accounts"]).port
        assert proxy.connects and set(proxy.connects) == {f"{BANK_HOST}:{port}"}
        assert len(proxy.connects) == accounts.stats.tls_handshakes  # one tunnel per connection


async def test_the_system_proxy_carries_the_bank_and_never_loopback(
    bank: RunningSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with ForwardProxy() as proxy:
        for name in ("NO_PROXY", "no_proxy", "ALL_PROXY", "all_proxy", "HTTP_PROXY", "http_proxy"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        monkeypatch.setenv("https_proxy", proxy.url)
        # The sandbox at https://127.0.0.1: direct, though the environment names a proxy and
        # no bypass list mentions loopback (httpx alone sent it to the proxy).
        async with transport(bank, base_url=bank.urls["accounts"], system_proxies=None) as loopback:
            assert loopback.proxy_route == ProxyRoute(None, "loopback")
            assert await loopback.request_json("GET", BALANCES)
        assert proxy.connects == []
        # The same bank under a name that is not loopback: through the system's proxy.
        async with transport(bank, system_proxies=None) as remote:
            assert remote.proxy_route == ProxyRoute(proxy.url, "system")
            assert await remote.request_json("GET", BALANCES)
        assert proxy.connects and all(t.startswith(f"{BANK_HOST}:") for t in proxy.connects)


async def test_a_windows_bypass_list_is_honoured_host_by_host(bank: RunningSandbox) -> None:
    async with ForwardProxy() as proxy:
        server = proxy.url.removeprefix("http://")
        windows = SystemProxies.from_windows(True, server, "<local>;*.test")
        async with transport(bank, system_proxies=windows) as bypassing:
            assert bypassing.proxy_route.reason == "bypass"
            # bank.test is in the bypass list, so it is looked up directly: nobody knows it.
            with pytest.raises(TransportFailure) as failed:
                await bypassing.request_json("GET", BALANCES)
            assert not isinstance(failed.value, ProxyFailure)
        assert proxy.connects == []
        windows = SystemProxies.from_windows(True, server, "<local>;*.corp.example")
        async with transport(bank, system_proxies=windows) as proxied:
            assert await proxied.request_json("GET", BALANCES)
        assert proxy.connects


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_proxy_that_cannot_be_reached_is_named_without_its_credentials(
    bank: RunningSandbox,
) -> None:
    port = closed_port()
    setting = ProxySetting.explicit(f"http://alice:s3cret@127.0.0.1:{port}")
    async with transport(bank, proxy=setting) as accounts:
        with pytest.raises(ProxyFailure) as failed:
            await accounts.request_json("GET", BALANCES)
    error = failed.value
    assert error.proxy == f"127.0.0.1:{port}"
    assert f"Could not connect to the proxy 127.0.0.1:{port}" in str(error)
    assert "s3cret" not in str(error) and "alice" not in str(error)
    assert error.request_sent is False  # nothing reached the bank


@pytest.mark.parametrize(
    ("status", "says"),
    [(403, "refused to connect to the bank (403 Forbidden)"), (407, "asks for credentials")],
)
async def test_a_proxy_that_refuses_the_tunnel_is_a_clear_error(
    bank: RunningSandbox, status: int, says: str
) -> None:
    async with ForwardProxy(refuse=status) as proxy, through(bank, proxy) as accounts:
        with pytest.raises(ProxyFailure) as failed:
            await accounts.request_json("POST", "/api/v2/pix", json={}, authenticated=False)
    error = failed.value
    label = proxy.url.removeprefix("http://")
    assert error.proxy == label and error.status == status
    assert f"The proxy {label} {says}" in str(error)
    assert error.request_sent is False and not error.outcome_unknown
    assert proxy.connects  # it was asked, and said no


async def test_credentials_in_the_address_go_to_the_proxy_only(bank: RunningSandbox) -> None:
    async with ForwardProxy(refuse=407) as proxy:
        address = proxy.url.replace("http://", "http://alice:s3cret@")
        async with transport(bank, proxy=ProxySetting.explicit(address)) as accounts:
            with pytest.raises(ProxyFailure) as failed:
                await accounts.request_json("GET", BALANCES, authenticated=False)
    assert proxy.credentials[0] is not None and proxy.credentials[0].startswith("Basic ")
    assert "s3cret" not in str(failed.value) and "alice" not in str(failed.value)


async def test_tls_inspection_with_an_untrusted_certificate_fails_the_handshake(
    bank: RunningSandbox, tmp_path: Path
) -> None:
    corporate = new_ca("Corporate Inspection CA")  # not trusted by the profile
    async with (
        inspecting_box(corporate, tmp_path) as box,
        ForwardProxy(upstream_port=box) as proxy,
        through(bank, proxy) as accounts,
    ):
        with pytest.raises(ProxyFailure) as failed:
            await accounts.request_json("GET", BALANCES)
    message = str(failed.value)
    label = proxy.url.removeprefix("http://")
    assert f"The TLS handshake with the bank through the proxy {label} failed" in message
    assert "inspect" in message and "client certificate" in message
    assert failed.value.request_sent is False


async def test_a_trusted_inspecting_proxy_that_answers_instead_of_the_bank(
    bank: RunningSandbox, tmp_path: Path
) -> None:
    # Its CA is trusted (here: the sandbox's own root, as a company installs its inspection
    # CA in the system store), so the handshake passes; the bank's client certificate
    # cannot, and the proxy answers with its own page.
    pki = ensure_pki(bank.data_dir / "bank" / "pki")  # the paths of the existing one
    trusted = load_issuer(pki.ca_file, pki.directory / "ca.key")
    async with (
        inspecting_box(trusted, tmp_path) as box,
        ForwardProxy(upstream_port=box) as proxy,
        through(bank, proxy) as accounts,
    ):
        with pytest.raises(ProxyFailure) as on_call:
            await accounts.request_json("GET", BALANCES, authenticated=False)
        with pytest.raises(ProxyFailure) as on_token:
            await accounts.request_json("GET", BALANCES)
    label = proxy.url.removeprefix("http://")
    for failed in (on_call, on_token):
        message = str(failed.value)
        assert f"The proxy {label} answered instead of the bank (HTTP 502, text/html)" in message
        assert "client certificate cannot pass through" in message
        assert failed.value.status == 502 and failed.value.outcome_unknown
