"""Proxies as a company sets them: Windows' Internet and WinHTTP settings read from fake
registry values, PAC scripts (``file://`` and ``http://`` on loopback) evaluated for real in
their own process, hostile scripts (huge, broken, looping, curious) refused with a code, WPAD
candidates and discovery with fakes, and over the wire: the bank reached over mutual TLS
through the proxy a script names (after one that cannot be reached), and a proxy asking for
an integrated login refused with the bank's hosts named."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import sys
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pydantic
import pytest

from tests.api.conftest import api_config
from tests.api.proxy_fixtures import BANK_HOST, ForwardProxy, as_bank_test, bank
from tests.sandbox_harness import RunningSandbox
from tests.waiting import WAIT_SECONDS
from treasury_app.api.autoproxy.pac import (
    PAC_WORKER_FLAG,
    PacError,
    PacLimits,
    PacScript,
    fetch_pac,
    parse_pac_answer,
)
from treasury_app.api.autoproxy.resolver import ProxyResolver
from treasury_app.api.autoproxy.windows import (
    ConnectionSettingsError,
    parse_connection_settings,
    system_from_windows,
)
from treasury_app.api.autoproxy.wpad import WpadDiscovery, wpad_candidates
from treasury_app.api.errors import ProxyFailure
from treasury_app.api.proxies import (
    ProxyRefusal,
    ProxyRoute,
    ProxySetting,
    ProxyUrlError,
    SystemProxies,
    check_pac_url,
)
from treasury_app.api.transport import ApiTransport

__all__ = ["bank"]  # a fixture, found by pytest here

BALANCES = "/api/v2/accounts/balances"
NOTHING = SystemProxies()
# Generous for starting the evaluator's process on a busy machine; short for one answer of a
# script that loops forever (it never answers, whatever the machine's speed).
LIMITS = PacLimits(load_timeout=WAIT_SECONDS, find_timeout=0.5, fetch_timeout=WAIT_SECONDS)


# --------------------------------------------------------------------------------------------
# Windows' settings, from fake registry values


def blob(flags: int, proxy: str = "", bypass: str = "", script: str | None = None) -> bytes:
    """A connection settings blob as Windows writes it (WinHTTP's has no script)."""
    data = struct.pack("<III", 0x18, 7, flags)
    for text in (proxy, bypass) + (() if script is None else (script,)):
        data += struct.pack("<I", len(text)) + text.encode("latin-1")
    if script is not None:
        data += b"\0" * 32  # WinINET's blob goes on (last detection results): ignored
    return data


class FakeRegistry:
    def __init__(
        self,
        values: Mapping[str, Any] | None = None,
        connection: bytes | None = None,
        winhttp: bytes | None = None,
    ) -> None:
        self.values = dict(values or {})
        self.connection = connection
        self.winhttp_blob = winhttp

    def internet_settings(self) -> Mapping[str, Any]:
        return self.values

    def default_connection(self) -> bytes | None:
        return self.connection

    def winhttp(self) -> bytes | None:
        return self.winhttp_blob


def test_winhttp_settings_blob() -> None:
    reset = bytes.fromhex("1800000000000000010000000000000000000000")  # netsh winhttp reset
    assert not parse_connection_settings(reset).uses_proxy
    parsed = parse_connection_settings(blob(0x03, "proxy.corp:8080", "<local>;*.corp.example"))
    assert (parsed.uses_proxy, parsed.proxy, parsed.bypass) == (
        True,
        "proxy.corp:8080",
        "<local>;*.corp.example",
    )
    assert not parsed.auto_detect and not parsed.uses_script
    wininet = parse_connection_settings(blob(0x0D, "", "", "http://pac.corp/proxy.pac"))
    assert wininet.auto_detect and wininet.uses_script
    assert wininet.auto_config_url == "http://pac.corp/proxy.pac"


@pytest.mark.parametrize(
    "damaged",
    [b"", b"\x18\0\0\0", blob(3, "proxy:1")[:-3], struct.pack("<IIII", 0x18, 0, 3, 10**6)],
)
def test_a_damaged_blob_is_refused(damaged: bytes) -> None:
    with pytest.raises(ConnectionSettingsError):
        parse_connection_settings(damaged)


def test_internet_settings_script_detection_and_manual_proxy() -> None:
    registry = FakeRegistry(
        {
            "ProxyEnable": 1,
            "ProxyServer": "http=proxy.corp:80;https=proxy.corp:8443",
            "ProxyOverride": "<local>;*.corp.example",
            "AutoConfigURL": " http://pac.corp.example/proxy.pac ",
        },
        connection=blob(0x0B, "proxy.corp:80", "<local>"),  # auto-detect on
        winhttp=blob(0x03, "winhttp.corp:3128", ""),
    )
    found = system_from_windows(registry)
    assert found.pac_url == "http://pac.corp.example/proxy.pac" and found.auto_detect
    assert found.server_for("https") == "http://proxy.corp:8443"
    assert found.bypass == ("<local>", "*.corp.example") and found.source == "Windows settings"
    assert "automatic detection (WPAD)" in found.describe()
    assert "automatic proxy script http://pac.corp.example/proxy.pac" in found.describe()


def test_winhttp_is_read_when_the_internet_settings_name_nothing() -> None:
    registry = FakeRegistry(
        {"ProxyEnable": 0, "ProxyServer": "ignored:1"},
        connection=blob(0x01),
        winhttp=blob(0x03, "winhttp.corp:3128", "<local>; *.bank-intranet.example"),
    )
    found = system_from_windows(registry)
    assert found.source == "WinHTTP settings"
    assert found.server_for("https") == "http://winhttp.corp:3128"
    assert found.bypass == ("<local>", "*.bank-intranet.example")
    assert found.pac_url is None and not found.auto_detect
    assert system_from_windows(FakeRegistry(winhttp=blob(0x01))) == NOTHING
    assert system_from_windows(FakeRegistry(winhttp=b"\x18\0garbage")) == NOTHING


# --------------------------------------------------------------------------------------------
# PAC answers and WPAD, pure


def test_a_pac_answer_in_order() -> None:
    assert parse_pac_answer(
        "PROXY a.corp:8080; proxy b.corp:8080;HTTPS c.corp:443; SOCKS s:1080; DIRECT", script="x"
    ) == ("http://a.corp:8080", "http://b.corp:8080", "https://c.corp:443", None)
    for nothing in ("", "SOCKS5 s:1080", "PROXY", "PROXY nohostport", "BOGUS a:1"):
        with pytest.raises(PacError) as refused:
            parse_pac_answer(nothing, script="http://pac/x.pac")
        assert refused.value.code == "proxy.pac_answer"


def test_wpad_candidates_stop_before_a_public_suffix() -> None:
    assert wpad_candidates("filial.empresa.com.br") == (
        "http://wpad.filial.empresa.com.br/wpad.dat",
        "http://wpad.empresa.com.br/wpad.dat",
    )
    assert wpad_candidates("a.corp.example") == (
        "http://wpad.a.corp.example/wpad.dat",
        "http://wpad.corp.example/wpad.dat",
    )
    assert wpad_candidates("") == () and wpad_candidates("com.br") == ()


class FakeNetwork:
    def __init__(self, domain: str, known: set[str]) -> None:
        self._domain, self._known = domain, known
        self.asked: list[str] = []

    def domain(self) -> str:
        return self._domain

    def resolves(self, host: str) -> bool:
        self.asked.append(host)
        return host in self._known


async def test_wpad_discovery_takes_the_nearest_name_that_serves_a_script() -> None:
    served: list[str] = []

    async def fetch(url: str, limits: PacLimits) -> str:
        served.append(url)
        if "filial" in url:  # resolves, but serves nothing
            raise PacError("proxy.pac_fetch", script=url, status=404)
        return "function FindProxyForURL(u, h) { return 'DIRECT'; }"

    network = FakeNetwork(
        "filial.empresa.com.br", {"wpad.filial.empresa.com.br", "wpad.empresa.com.br"}
    )
    found = await WpadDiscovery(network, fetch).discover(LIMITS)
    assert found is not None and found[0] == "http://wpad.empresa.com.br/wpad.dat"
    assert served == [
        "http://wpad.filial.empresa.com.br/wpad.dat",
        "http://wpad.empresa.com.br/wpad.dat",
    ]
    assert await WpadDiscovery(FakeNetwork("corp.example", set()), fetch).discover(LIMITS) is None


def test_a_script_address_is_checked() -> None:
    assert ProxySetting.script("file:///etc/proxy.pac").url == "file:///etc/proxy.pac"
    for bad in ("", "ftp://x/p.pac", "http://user:pw@pac/p.pac", "http:///p.pac"):
        with pytest.raises(ProxyUrlError):
            check_pac_url(bad)
        with pytest.raises(pydantic.ValidationError):
            ProxySetting.script(bad)


# --------------------------------------------------------------------------------------------
# PAC scripts, evaluated for real

PER_HOST = """
function FindProxyForURL(url, host) {
    if (isPlainHostName(host) || dnsDomainIs(host, ".corp.example")) { return "DIRECT"; }
    if (shExpMatch(host, "*.bank.example")) {
        return "PROXY first.corp.example:8080; PROXY second.corp.example:8080; DIRECT";
    }
    if (isInNet(host, "10.0.0.0", "255.0.0.0")) { return "PROXY ten.corp.example:3128"; }
    return "PROXY web.corp.example:3128";
}
"""


def write_pac(directory: Path, text: str, name: str = "proxy.pac") -> str:
    path = directory / name
    path.write_text(text, "utf-8")
    return path.as_uri()


@contextlib.asynccontextmanager
async def resolving(
    setting: ProxySetting, system: SystemProxies = NOTHING, **options: Any
) -> AsyncIterator[ProxyResolver]:
    resolver = ProxyResolver(setting, system, limits=options.pop("limits", LIMITS), **options)
    try:
        yield resolver
    finally:
        await resolver.aclose()


async def test_a_local_pac_file_answers_per_host(tmp_path: Path) -> None:
    async with resolving(ProxySetting.script(write_pac(tmp_path, PER_HOST))) as resolver:
        assert await resolver.routes("https://api.bank.example/v2/cob") == (
            ProxyRoute("http://first.corp.example:8080", "pac"),
            ProxyRoute("http://second.corp.example:8080", "pac"),
            ProxyRoute(None, "pac"),
        )
        assert await resolver.routes("https://intranet/x") == (ProxyRoute(None, "pac"),)
        assert await resolver.routes("https://a.corp.example/") == (ProxyRoute(None, "pac"),)
        assert await resolver.routes("http://10.2.3.4/") == (
            ProxyRoute("http://ten.corp.example:3128", "pac"),
        )
        assert (await resolver.routes("https://other.example/"))[0].proxy == (
            "http://web.corp.example:3128"
        )
        # Loopback never asks the script.
        assert await resolver.routes("https://127.0.0.1:8443/") == (ProxyRoute(None, "loopback"),)
        assert resolver.last_route("https://api.bank.example/") == ProxyRoute(
            "http://first.corp.example:8080", "pac"
        )


async def test_the_system_script_wins_over_its_manual_proxy(tmp_path: Path) -> None:
    system = SystemProxies(
        servers={"https": "http://manual.corp:8080"},
        style="pattern",
        source="Windows settings",
        pac_url=write_pac(tmp_path, PER_HOST),
    )
    async with resolving(ProxySetting(), system) as resolver:
        assert (await resolver.routes("https://x.bank.example/"))[0].reason == "pac"
    async with resolving(ProxySetting(mode="none"), system) as resolver:
        assert await resolver.routes("https://x.bank.example/") == (ProxyRoute(None, "no-proxy"),)


async def test_a_script_sees_no_path_no_environment_and_no_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TREASURY_ACCOUNTS_CLIENT_SECRET", "s3cret")
    curious = """
    function FindProxyForURL(url, host) {
        if (url.indexOf("/api/") >= 0 || url.indexOf("token") >= 0) { return "PROXY path:1"; }
        if (typeof process !== "undefined" || typeof require !== "undefined") {
            return "PROXY env:1";
        }
        return "PROXY clean.corp:8080";
    }
    """
    async with resolving(ProxySetting.script(write_pac(tmp_path, curious))) as resolver:
        routes = await resolver.routes("https://api.bank.example/api/v2/pix?token=1")
    assert routes == (ProxyRoute("http://clean.corp:8080", "pac"),)


@pytest.mark.parametrize(
    ("script", "code"),
    [
        ("function FindProxyForURL(url, host) { return 'DIRECT'", "proxy.pac_syntax"),
        ("var nothing = 1;", "proxy.pac_syntax"),
        ("function FindProxyForURL(url, host) { while (true) {} }", "proxy.pac_timeout"),
        ("function FindProxyForURL(url, host) { throw new Error('x'); }", "proxy.pac_runtime"),
        ("function FindProxyForURL(url, host) { return 42; }", "proxy.pac_answer"),
        ("function FindProxyForURL(url, host) { return 'SOCKS s:1'; }", "proxy.pac_answer"),
    ],
)
async def test_a_broken_script_is_a_coded_refusal(tmp_path: Path, script: str, code: str) -> None:
    address = write_pac(tmp_path, script)
    async with resolving(ProxySetting.script(address)) as resolver:
        with pytest.raises(ProxyRefusal) as refused:
            await resolver.routes("https://api.bank.example/")
        assert refused.value.code == code
        assert refused.value.reason.params["script"] == address
        # Remembered for a while: the next request is refused without asking again.
        with pytest.raises(ProxyRefusal):
            await resolver.routes("https://api.bank.example/")


async def test_a_broken_script_may_fall_back_to_the_settings_without_it(tmp_path: Path) -> None:
    system = SystemProxies(
        servers={"https": "http://manual.corp:8080"},
        style="pattern",
        source="Windows settings",
        pac_url=write_pac(tmp_path, "function FindProxyForURL(u, h) { while (true) {} }"),
    )
    async with resolving(ProxySetting(), system, on_failure="direct") as resolver:
        assert await resolver.routes("https://api.bank.example/") == (
            ProxyRoute("http://manual.corp:8080", "system"),
        )


async def test_a_huge_or_missing_script_is_refused(tmp_path: Path) -> None:
    small = PacLimits(max_bytes=1000, load_timeout=WAIT_SECONDS, fetch_timeout=WAIT_SECONDS)
    huge = write_pac(tmp_path, "// " + "x" * 5000 + "\nfunction FindProxyForURL(){}")
    with pytest.raises(PacError) as refused:
        await fetch_pac(huge, small)
    assert refused.value.code == "proxy.pac_too_large"
    with pytest.raises(PacError) as missing:
        await fetch_pac((tmp_path / "none.pac").as_uri(), small)
    assert missing.value.code == "proxy.pac_fetch"


@contextlib.asynccontextmanager
async def pac_server(pages: dict[str, bytes]) -> AsyncIterator[str]:
    """An HTTP server on 127.0.0.1 serving ``pages`` by path (404 otherwise); its address."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            path = head.split(" ", 2)[1]
            body = pages.get(path)
            status = "200 OK" if body is not None else "404 Not Found"
            body = body if body is not None else b"no"
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: application/x-ns-proxy-autoconfig\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + body
            )
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
    finally:
        server.close()


async def test_a_script_served_over_http(tmp_path: Path) -> None:
    pages = {"/proxy.pac": PER_HOST.encode(), "/huge.pac": b"/*" + b"x" * 4096 + b"*/"}
    async with pac_server(pages) as base:
        async with resolving(ProxySetting.script(f"{base}/proxy.pac")) as resolver:
            assert (await resolver.routes("https://x.bank.example/"))[1].proxy == (
                "http://second.corp.example:8080"
            )
        small = PacLimits(max_bytes=1024, fetch_timeout=WAIT_SECONDS)
        with pytest.raises(PacError) as huge:
            await fetch_pac(f"{base}/huge.pac", small)
        assert huge.value.code == "proxy.pac_too_large"
        async with resolving(ProxySetting.script(f"{base}/gone.pac")) as resolver:
            with pytest.raises(ProxyRefusal) as gone:
                await resolver.routes("https://x.bank.example/")
        assert gone.value.code == "proxy.pac_fetch" and gone.value.reason.params["status"] == 404


# --------------------------------------------------------------------------------------------
# Over the wire: the bank over mutual TLS through the proxy a script names


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def transport(bank: RunningSandbox, **overrides: Any) -> ApiTransport:
    values: dict[str, Any] = {
        "base_url": as_bank_test(bank.urls["accounts"]),
        "system_proxies": NOTHING,
    }
    values.update(overrides)

    async def no_wait(_seconds: float) -> None:
        return None

    return ApiTransport(api_config(bank, "accounts", **values), sleep=no_wait)


def pac_for_bank(*answers: str) -> str:
    answer = "; ".join(answers)
    return (
        "function FindProxyForURL(url, host) {\n"
        f"  if (host === '{BANK_HOST}') {{ return '{answer}'; }}\n"
        "  return 'DIRECT';\n}\n"
    )


async def test_the_bank_through_the_scripts_second_proxy_when_the_first_is_down(
    bank: RunningSandbox, tmp_path: Path
) -> None:
    down = f"127.0.0.1:{closed_port()}"
    async with ForwardProxy() as proxy:
        up = proxy.url.removeprefix("http://")
        script = write_pac(tmp_path, pac_for_bank(f"PROXY {down}", f"PROXY {up}", "DIRECT"))
        async with transport(bank, proxy=ProxySetting.script(script)) as accounts:
            balances = await accounts.request_json("GET", BALANCES)  # token included
            assert await accounts.request_json("GET", BALANCES)
            assert accounts.proxy_route == ProxyRoute(proxy.url, "pac")
    assert balances  # the real bank's answer, over mutual TLS through the tunnel
    port = httpx.URL(bank.urls["accounts"]).port
    assert proxy.connects and set(proxy.connects) == {f"{BANK_HOST}:{port}"}


async def test_a_script_that_cannot_be_used_refuses_the_request(
    bank: RunningSandbox, tmp_path: Path
) -> None:
    script = write_pac(tmp_path, "function FindProxyForURL(u, h) { while (true) {} }")
    async with ForwardProxy() as proxy:
        overrides = {"proxy": ProxySetting.script(script)}
        accounts = transport(bank, **overrides)
        accounts.proxies.limits = LIMITS
        async with accounts:
            with pytest.raises(ProxyFailure) as failed:
                await accounts.request_json("GET", BALANCES)
    assert failed.value.reason is not None and failed.value.reason.code == "proxy.pac_timeout"
    assert failed.value.request_sent is False and proxy.connects == []


@pytest.mark.parametrize(
    ("offers", "code"),
    [
        (("Negotiate", "NTLM"), "proxy.integrated_login"),
        (("NTLM",), "proxy.integrated_login"),
        (('Basic realm="corp"',), "proxy.login_required"),
    ],
)
async def test_a_proxy_asking_for_a_login_names_the_hosts_to_let_through(
    bank: RunningSandbox, tmp_path: Path, offers: tuple[str, ...], code: str
) -> None:
    hosts = ("qrcodes.bank.test:8443", "accounts.bank.test")
    async with ForwardProxy(refuse=407, authenticate=offers) as proxy:
        script = write_pac(tmp_path, pac_for_bank(f"PROXY {proxy.url.removeprefix('http://')}"))
        async with transport(bank, proxy=ProxySetting.script(script), bank_hosts=hosts) as accounts:
            with pytest.raises(ProxyFailure) as failed:
                await accounts.request_json("GET", BALANCES)
    error = failed.value
    assert error.reason is not None and error.reason.code == code
    assert error.reason.params["hosts"] == "qrcodes.bank.test:8443, accounts.bank.test"
    assert error.reason.params["proxy"] == proxy.url.removeprefix("http://")
    assert error.status == 407 and error.request_sent is False
    assert "qrcodes.bank.test:8443, accounts.bank.test" in str(error)
    # Asked once by the app's tunnel and once by the probe that reads the offered schemes;
    # never again by a retry: a login the app does not give is not a glitch.
    assert len(proxy.connects) == 2


async def test_the_apps_own_entry_point_runs_the_evaluator() -> None:
    """What a frozen build runs (``treasury-app.exe --pac-worker``), through ``app.entry``."""
    script = PacScript(
        "test:entry", LIMITS, [sys.executable, "-m", "treasury_app", PAC_WORKER_FLAG]
    )
    try:
        await script.load("function FindProxyForURL(u, h) { return 'PROXY p.corp:1; DIRECT'; }")
        assert await script.find("https://x.example/", "x.example") == ("http://p.corp:1", None)
    finally:
        script.close()
