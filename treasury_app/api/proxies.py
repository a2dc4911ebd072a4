"""Which proxy, if any, carries each request: the profile's setting (no proxy, the system's, an
explicit address or an automatic proxy script), the system's bypass list host by host, and
loopback always direct. PAC scripts, WPAD and Windows' settings are read and evaluated in
:mod:`treasury_app.api.autoproxy`; this module decides the static cases and carries the
requests.

httpx reads the system proxy (``trust_env``) but not Windows' bypass list, so with a
policy-set proxy even the sandbox on ``https://127.0.0.1`` went to the corporate proxy. Clients
are therefore built with ``trust_env=False`` and a :class:`RoutingTransport` that asks for the
routes of every request (several, in order, when a PAC script gives several). Deciding is
pure; only :meth:`SystemProxies.read` looks at the computer (the environment, the Windows
registry, macOS's settings).

A proxy address may carry a user name and password: they are secrets, never logged, never in
an error (which names the proxy by host and port only) and masked when shown.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import re
import ssl
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ConfigDict, model_validator

from treasury_app.domain.errors import Reason

ProxyMode = Literal["none", "system", "url", "pac"]
# "pattern": Windows' ProxyOverride and macOS's exceptions (``<local>``, ``*`` and ``?``
# wildcards, the whole name); "no_proxy": the environment's domain suffixes.
BypassStyle = Literal["pattern", "no_proxy"]
RouteReason = Literal[
    "loopback", "no-proxy", "bypass", "no-system-proxy", "system", "profile", "pac"
]
SUPPORTED_SCHEMES = ("http", "https")
# Where the routing transport notes the route on an answer and on a transport error.
PROXY_EXTENSION = "treasury_proxy_route"
_MASK = "***"


# --------------------------------------------------------------------------------------------
# The profile's setting


class ProxyUrlError(ValueError):
    """A proxy address that cannot be used. ``reason`` says which rule it breaks (``empty``,
    ``invalid``, ``scheme``, ``port``, ``path``, ``user``) and :attr:`code` which rule of
    which address, for the UI to put into words (``proxy.address_port``,
    ``proxy.script_scheme``); the English message is for logs. Neither repeats the address,
    which may hold a password."""

    def __init__(self, reason: str, message: str, *, script: bool = False) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = f"proxy.{'script' if script else 'address'}_{reason}"


def check_proxy_url(text: str) -> str:
    """``text`` as a proxy address ``http(s)://[user:password@]host:port``, normalised
    (lower-case scheme, no trailing slash); else :class:`ProxyUrlError`."""
    text = text.strip()
    if not text:
        raise ProxyUrlError("empty", "Enter the proxy's address (http://host:port).")
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        raise ProxyUrlError(
            "invalid", "The proxy address is not valid (http://host:port)."
        ) from None
    if parts.scheme.lower() not in SUPPORTED_SCHEMES:
        raise ProxyUrlError("scheme", "A proxy address starts with http:// or https://.")
    if not parts.hostname or any(char.isspace() for char in text):
        raise ProxyUrlError("invalid", "The proxy address is not valid (http://host:port).")
    if port is None:
        raise ProxyUrlError("port", "The proxy address needs its port (http://host:port).")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ProxyUrlError("path", "A proxy address is only http://host:port, with no path.")
    return urlunsplit((parts.scheme.lower(), parts.netloc, "", "", ""))


def check_pac_url(text: str) -> str:
    """``text`` as the address of an automatic proxy script: ``http(s)://`` or ``file://``,
    without credentials; else :class:`ProxyUrlError`."""
    text = text.strip()
    if not text:
        raise ProxyUrlError("empty", "Enter the automatic proxy script's address.", script=True)
    try:
        parts = urlsplit(text)
    except ValueError:
        raise ProxyUrlError("invalid", "The script's address is not valid.", script=True) from None
    if parts.scheme.lower() not in ("http", "https", "file") or any(c.isspace() for c in text):
        raise ProxyUrlError(
            "scheme", "A script's address starts with http://, https:// or file://.", script=True
        )
    if parts.scheme.lower() != "file" and not parts.hostname:
        raise ProxyUrlError("invalid", "The script's address is not valid.", script=True)
    if "@" in parts.netloc:
        raise ProxyUrlError("user", "The script's address may not hold a user name.", script=True)
    return text


def has_credentials(url: str) -> bool:
    """Whether a proxy address carries a user name or password."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "@" in url
    return parts.username is not None or parts.password is not None


def masked_url(url: str) -> str:
    """A proxy address fit to show: its user name and password replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _MASK
    if "@" not in parts.netloc:
        return url
    return urlunsplit(parts._replace(netloc=f"{_MASK}@{parts.netloc.rsplit('@', 1)[1]}"))


def proxy_label(url: str) -> str:
    """The proxy's host and port, as errors name it (never its credentials)."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError:
        return "the proxy"
    if not host:
        return "the proxy"
    host = f"[{host}]" if ":" in host else host
    return f"{host}:{port}" if port else host


class ProxySetting(BaseModel):
    """A profile's proxy: ``none`` (always direct), ``system`` (the computer's proxy and its
    bypass list, or its automatic proxy script), ``url`` (``url``, with the system's bypass
    list still honoured) or ``pac`` (the automatic proxy script at ``url``). Loopback is
    always direct, whatever the mode."""

    # The address may hold a password: a validation error never repeats what was given.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    mode: ProxyMode = "system"
    url: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _url_for_url_mode(cls, data: Any) -> Any:
        """The address checked and normalised in ``url`` mode, dropped in the others."""
        if isinstance(data, Mapping):
            data = dict(data)
            if data.get("mode", "system") == "url":
                data["url"] = check_proxy_url(str(data.get("url") or ""))
            elif data.get("mode") == "pac":
                data["url"] = check_pac_url(str(data.get("url") or ""))
            else:
                data["url"] = None
        return data

    @classmethod
    def explicit(cls, url: str) -> ProxySetting:
        return cls(mode="url", url=url)

    @classmethod
    def script(cls, url: str) -> ProxySetting:
        """The automatic proxy script (PAC) at ``url``."""
        return cls(mode="pac", url=url)

    def describe(self) -> str:
        """``no proxy``, ``system proxy``, the address (its credentials masked) or
        ``automatic proxy script <address>``."""
        if self.mode == "none":
            return "no proxy"
        if self.mode == "system":
            return "system proxy"
        if self.mode == "pac":
            return f"automatic proxy script {self.url}"
        return masked_url(self.url or "")

    def __repr__(self) -> str:
        url = f", url={masked_url(self.url)!r}" if self.url else ""
        return f"ProxySetting(mode={self.mode!r}{url})"

    def __str__(self) -> str:
        return self.describe()


# --------------------------------------------------------------------------------------------
# The system's proxies


@dataclass(frozen=True)
class SystemProxies:
    """The computer's proxies by scheme (``https``, ``http``, ``all``) and its bypass list, as
    read once (:meth:`read`). ``source`` says where from, for Settings and the self-test.
    ``pac_url``: its automatic proxy script; ``auto_detect``: find one by WPAD (both tried
    before ``servers``, as Windows does)."""

    servers: Mapping[str, str] = field(default_factory=dict)
    bypass: tuple[str, ...] = ()
    style: BypassStyle = "no_proxy"
    source: str = "none"
    pac_url: str | None = None
    auto_detect: bool = False

    @classmethod
    def read(cls) -> SystemProxies:
        """The computer's proxies: the environment (``HTTPS_PROXY``, ``NO_PROXY``...) when
        it names any, else Windows' settings (the Internet settings' WPAD, script, manual
        proxy and ``ProxyOverride``, then WinHTTP's proxy: see
        :func:`treasury_app.api.autoproxy.windows.system_from_windows`) or macOS's."""
        environment = cls.from_environment(os.environ)
        if environment.servers or environment.bypass or sys.platform not in ("win32", "darwin"):
            return environment
        try:
            if sys.platform == "win32":
                from treasury_app.api.autoproxy.windows import (
                    WindowsRegistry,
                    system_from_windows,
                )

                return system_from_windows(WindowsRegistry())
            return _macos_settings()
        except (OSError, ImportError, ValueError, TypeError):  # unreadable: as if none set
            return cls()

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> SystemProxies:
        """``urllib.request.getproxies_environment`` over ``environ``: ``<scheme>_proxy``
        variables, lower case winning over upper case, ``no_proxy`` as the bypass list."""
        found: dict[str, str] = {}
        for pass_lower in (False, True):
            for name, value in environ.items():
                if pass_lower and name != name.lower():
                    continue
                if len(name) > 6 and name[-6:].lower() == "_proxy":
                    scheme = name[:-6].lower()
                    if value:
                        found[scheme] = value
                    elif pass_lower:
                        found.pop(scheme, None)
        if "REQUEST_METHOD" in environ:  # a CGI script: HTTP_PROXY is a request header
            found.pop("http", None)
        bypass = tuple(part.strip() for part in found.pop("no", "").split(",") if part.strip())
        if not found and not bypass:
            return cls()
        return cls(servers=found, bypass=bypass, style="no_proxy", source="environment")

    @classmethod
    def from_windows(cls, enabled: bool, server: str, override: str) -> SystemProxies:
        """Windows' Internet settings: ``ProxyEnable``, ``ProxyServer`` (one address, or
        ``http=...;https=...``) and ``ProxyOverride`` (``;``-separated, ``<local>`` included)."""
        if not enabled or not server.strip():
            return cls()
        return cls(
            servers=parse_windows_proxy_server(server),
            bypass=tuple(part.strip() for part in override.split(";") if part.strip()),
            style="pattern",
            source="Windows settings",
        )

    def server_for(self, scheme: str) -> str | None:
        return self.servers.get(scheme.lower()) or self.servers.get("all")

    def describe(self) -> str:
        """``none``, ``http://proxy:8080 (Windows settings; bypass: <local>;*.corp)``, with
        the automatic detection and script first when set."""
        found: list[str] = []
        if self.auto_detect:
            found.append(f"automatic detection (WPAD) ({self.source})")
        if self.pac_url:
            found.append(f"automatic proxy script {self.pac_url} ({self.source})")
        server = self.server_for("https")
        if server is not None:
            bypass = f"; bypass: {','.join(self.bypass)}" if self.bypass else ""
            found.append(f"{masked_url(server)} ({self.source}{bypass})")
        return ", then ".join(found) or "none"


def parse_windows_proxy_server(text: str) -> dict[str, str]:
    """``ProxyServer`` as ``urllib.request.getproxies_registry`` reads it: ``host:port`` for
    every scheme, or ``http=host:port;https=host:port``; an address without a scheme is
    ``http://`` (``socks=`` gives ``socks4://``, which the app refuses when used)."""
    text = text.strip()
    if "=" not in text and ";" not in text:
        text = f"http={text};https={text}"
    servers: dict[str, str] = {}
    for part in text.split(";"):
        if "=" not in part:
            continue
        scheme, address = (piece.strip() for piece in part.split("=", 1))
        scheme = scheme.lower()
        if not address:
            continue
        if not re.match(r"(?:[^/:]+)://", address):
            address = ("socks4://" if scheme == "socks" else "http://") + address
        servers[scheme] = address
    if "socks" in servers:
        servers.setdefault("http", servers["socks"])
        servers.setdefault("https", servers["socks"])
    return servers


def _macos_settings() -> SystemProxies:  # pragma: no cover - macOS only
    """macOS's network settings, through the same module ``urllib.request`` uses."""
    from _scproxy import _get_proxies, _get_proxy_settings  # type: ignore[import-not-found]

    servers = {scheme: url for scheme, url in _get_proxies().items() if url}
    if not servers:
        return SystemProxies()
    settings = _get_proxy_settings()
    bypass = tuple(settings.get("exceptions", ()))
    if settings.get("exclude_simple"):
        bypass = ("<local>", *bypass)
    return SystemProxies(servers=servers, bypass=bypass, style="pattern", source="macOS settings")


# --------------------------------------------------------------------------------------------
# Deciding


def is_loopback(host: str) -> bool:
    """``localhost``, 127.0.0.0/8 and ``::1`` (IPv4-mapped included): never through a proxy."""
    name = host.strip("[]").rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        return True
    address = _address(name)
    if address is None:
        return False
    mapped = getattr(address, "ipv4_mapped", None)
    return bool(address.is_loopback or (mapped is not None and mapped.is_loopback))


def bypassed(
    host: str, entries: Iterable[str], *, style: BypassStyle, port: int | None = None
) -> bool:
    """Whether a bypass list sends ``host`` direct.

    ``pattern`` (Windows' ``ProxyOverride``, macOS's exceptions): ``<local>`` is any name
    without a dot, ``*`` and ``?`` are wildcards and an entry matches the whole name
    (``*.corp.example``, ``10.*``, ``bank.example``). ``no_proxy`` (the environment): an entry
    is a domain and its subdomains (a leading ``.`` or ``*.`` is ignored), ``*`` is every host.
    Both: ``host:port`` entries match that port only; ``10.0.0.0/8`` matches addresses in it.
    No name is looked up in the DNS (``urllib``'s Windows check does, blocking).
    """
    name = host.strip("[]").rstrip(".").lower()
    address = _address(name)
    for raw in entries:
        entry = raw.strip().lower()
        if "://" in entry:
            entry = entry.split("://", 1)[1]
        if not entry:
            continue
        if entry == "*":
            return True
        if entry == "<local>":
            if style == "pattern" and address is None and "." not in name:
                return True
            continue
        network = _network(entry)
        if network is not None:
            if address is not None and address in network:
                return True
            continue
        pattern, entry_port = _split_port(entry)
        if entry_port is not None and entry_port != port:
            continue
        if style == "pattern":
            if _glob(pattern).fullmatch(name):
                return True
        else:
            domain = pattern.removeprefix("*").lstrip(".")
            if domain and (name == domain or name.endswith("." + domain)):
                return True
    return False


@dataclass(frozen=True)
class ProxyRoute:
    """Where one request goes: direct (``proxy`` is ``None``) or through ``proxy``, and why.
    ``proxy`` may hold credentials: it is for the transport only; show :meth:`__str__`."""

    proxy: str | None
    reason: RouteReason

    @property
    def direct(self) -> bool:
        return self.proxy is None

    @property
    def label(self) -> str:
        """The proxy's host and port (empty when direct)."""
        return proxy_label(self.proxy) if self.proxy else ""

    @property
    def shown(self) -> str:
        """The proxy's address with its credentials masked (empty when direct)."""
        return masked_url(self.proxy) if self.proxy else ""

    def __str__(self) -> str:
        if self.proxy is None:
            if self.reason == "pac":
                return "direct (automatic proxy script)"
            return {
                "loopback": "direct (loopback)",
                "no-proxy": "direct (no proxy)",
                "bypass": "direct (bypass list)",
                "no-system-proxy": "direct (no system proxy)",
            }.get(self.reason, "direct")
        source = {"system": "system proxy", "pac": "automatic proxy script"}.get(
            self.reason, "profile"
        )
        return f"through {self.shown} ({source})"

    def __repr__(self) -> str:
        return f"ProxyRoute(proxy={self.shown or None!r}, reason={self.reason!r})"


def route(url: httpx.URL | str, setting: ProxySetting, system: SystemProxies) -> ProxyRoute:
    """The route of a request to ``url`` under ``setting``: loopback always direct; ``none``
    direct; otherwise the system's bypass list first, then the profile's proxy (``url``) or
    the system's proxy for the URL's scheme (``system``), direct when the system has none."""
    target = httpx.URL(url) if isinstance(url, str) else url
    host, port = target.host, target.port or (443 if target.scheme == "https" else 80)
    if is_loopback(host):
        return ProxyRoute(None, "loopback")
    if setting.mode == "none":
        return ProxyRoute(None, "no-proxy")
    if bypassed(host, system.bypass, style=system.style, port=port):
        return ProxyRoute(None, "bypass")
    if setting.mode == "url":
        return ProxyRoute(setting.url, "profile")
    server = system.server_for(target.scheme)
    if server is None:
        return ProxyRoute(None, "no-system-proxy")
    return ProxyRoute(server, "system")


def route_of(thing: BaseException | httpx.Response) -> ProxyRoute | None:
    """The proxy route a transport error or an answer went through (``None``: direct)."""
    if isinstance(thing, httpx.Response):
        found = thing.extensions.get(PROXY_EXTENSION)
    else:
        found = getattr(thing, PROXY_EXTENSION, None)
    return found if isinstance(found, ProxyRoute) else None


# --------------------------------------------------------------------------------------------
# Applying it to httpx


class UnsupportedProxy(httpx.ProxyError):
    """The route names a proxy the app cannot use (a SOCKS proxy from the system settings)."""


class ProxyRefusal(httpx.ProxyError):
    """A route the app refuses to take, as a rule's code: a PAC script that cannot be used
    (``proxy.pac_*``), or a proxy that asks for a login the app does not give
    (``proxy.integrated_login``: Negotiate or NTLM; ``proxy.login_required``: another
    scheme). ``reason`` carries the code and its parameters (the proxy by host and port, the
    bank's hosts that IT must let through), never a credential."""

    def __init__(self, code: str, **params: Any) -> None:
        self.reason = Reason(code, params)
        super().__init__(str(self.reason))

    @property
    def code(self) -> str:
        return self.reason.code


INTEGRATED_SCHEMES = frozenset({"negotiate", "ntlm", "kerberos"})
# A proxy that could not be reached is tried last for this long (as browsers do).
_BAD_PROXY_SECONDS = 300.0


class RoutingTransport(httpx.AsyncBaseTransport):
    """Sends each request through the routes ``decide`` gives, in order, on one pooled
    transport per proxy (made by ``make``, lazily): the next route when a proxy cannot be
    reached (nothing was sent through it). An answer or a transport error that went through a
    proxy carries its :class:`ProxyRoute` (:func:`route_of`). A proxy that answers the tunnel
    with 407 is asked once which login it wants: Negotiate or NTLM (integrated Windows login)
    is a :class:`ProxyRefusal` naming ``bank_hosts``, the hosts IT must let through without a
    login."""

    def __init__(
        self,
        decide: Callable[[httpx.URL], Awaitable[Sequence[ProxyRoute]]],
        make: Callable[[httpx.Proxy | None], httpx.AsyncBaseTransport],
        *,
        bank_hosts: Sequence[str] = (),
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._decide = decide
        self._make = make
        self._bank_hosts = tuple(bank_hosts)
        self._clock = clock
        self._bad: dict[str, float] = {}
        self._used: dict[tuple[str, str, int | None], ProxyRoute] = {}
        self._transports: dict[str | None, httpx.AsyncBaseTransport] = {}

    def last_used(self, url: httpx.URL | str) -> ProxyRoute | None:
        """The route the last answer from ``url``'s scheme, host and port came through."""
        target = httpx.URL(url) if isinstance(url, str) else url
        return self._used.get((target.scheme, target.host, target.port))

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        routes = self._in_order(await self._decide(request.url))
        for index, chosen in enumerate(routes):
            try:
                transport = self._transport(chosen.proxy)
                response = await transport.handle_async_request(request)
            except httpx.TransportError as error:
                if chosen.proxy is None:
                    raise
                if index + 1 < len(routes) and _unreachable(error):
                    self._bad[chosen.proxy] = self._clock() + _BAD_PROXY_SECONDS
                    continue  # nothing went through it: the script's next choice
                if isinstance(error, httpx.ProxyError) and str(error).startswith("407"):
                    error = await self._login_refusal(chosen, request.url, error)
                setattr(error, PROXY_EXTENSION, chosen)
                raise error from None
            if chosen.proxy is not None:
                response.extensions[PROXY_EXTENSION] = chosen
            self._used[(request.url.scheme, request.url.host, request.url.port)] = chosen
            return response
        raise AssertionError("no route")  # pragma: no cover - decide gives at least one

    def _in_order(self, routes: Sequence[ProxyRoute]) -> list[ProxyRoute]:
        """``routes`` with the proxies that could not be reached lately moved last."""
        now = self._clock()
        self._bad = {proxy: until for proxy, until in self._bad.items() if until > now}
        return sorted(routes, key=lambda chosen: chosen.proxy in self._bad)

    async def _login_refusal(
        self, chosen: ProxyRoute, target: httpx.URL, error: httpx.TransportError
    ) -> httpx.TransportError:
        assert chosen.proxy is not None
        schemes = await probe_proxy_login(chosen.proxy, target)
        integrated = bool(INTEGRATED_SCHEMES & {scheme.lower() for scheme in schemes})
        if not schemes:
            return error
        hosts = ", ".join(self._bank_hosts) or _host_port(target)
        return ProxyRefusal(
            "proxy.integrated_login" if integrated else "proxy.login_required",
            proxy=chosen.label,
            hosts=hosts,
            schemes=", ".join(schemes),
        )

    def _transport(self, proxy: str | None) -> httpx.AsyncBaseTransport:
        transport = self._transports.get(proxy)
        if transport is None:
            if proxy is not None and httpx.URL(proxy).scheme not in SUPPORTED_SCHEMES:
                raise UnsupportedProxy(
                    f"the proxy {proxy_label(proxy)} is not an HTTP proxy "
                    f"({httpx.URL(proxy).scheme}); the app uses only http:// and https:// proxies"
                )
            transport = self._make(None if proxy is None else httpx.Proxy(proxy))
            self._transports[proxy] = transport
        return transport

    async def aclose(self) -> None:
        transports, self._transports = list(self._transports.values()), {}
        for transport in transports:
            await transport.aclose()


def static_router(
    setting: ProxySetting, system: SystemProxies
) -> Callable[[httpx.URL], Awaitable[Sequence[ProxyRoute]]]:
    """:func:`route` for one client (no script), remembered per scheme, host and port."""

    @lru_cache(maxsize=64)
    def decide(scheme: str, host: str, port: int | None) -> ProxyRoute:
        return route(httpx.URL(scheme=scheme, host=host, port=port), setting, system)

    async def routes(url: httpx.URL) -> Sequence[ProxyRoute]:
        return (decide(url.scheme, url.host, url.port),)

    return routes


def _unreachable(error: httpx.TransportError) -> bool:
    """Whether ``error`` says the proxy itself could not be reached (refused, unreachable,
    no answer to the connection): not a refusal by the proxy, not a TLS failure with the bank
    through it."""
    if isinstance(error, httpx.ProxyError) or not isinstance(
        error, httpx.ConnectError | httpx.ConnectTimeout
    ):
        return False
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, ssl.SSLError):
            return False
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return True


def _host_port(url: httpx.URL) -> str:
    """``host`` for the default port of the scheme, else ``host:port``."""
    port = url.port
    host = f"[{url.host}]" if ":" in url.host else url.host
    return (
        host
        if port is None or port == {"https": 443, "http": 80}.get(url.scheme)
        else (f"{host}:{port}")
    )


async def probe_proxy_login(
    proxy: str, target: httpx.URL, *, timeout: float = 5.0
) -> tuple[str, ...]:
    """The login schemes a proxy offers for a tunnel to ``target`` (``Negotiate``, ``NTLM``,
    ``Basic``...), from its ``Proxy-Authenticate`` headers: one CONNECT without credentials,
    its answer's head read (at most 16 KiB), the connection closed. Empty when the proxy
    cannot be asked or names none. httpx keeps only the status line of a refused tunnel."""
    address = httpx.URL(proxy)
    port = address.port or (443 if address.scheme == "https" else 80)
    context = _system_context() if address.scheme == "https" else None
    authority = f"{target.host}:{target.port or 443}"
    try:
        async with asyncio.timeout(timeout):
            reader, writer = await asyncio.open_connection(address.host, port, ssl=context)
            try:
                writer.write(f"CONNECT {authority} HTTP/1.1\r\nHost: {authority}\r\n\r\n".encode())
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
            finally:
                writer.close()
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        return ()
    schemes: list[str] = []
    for line in head[:16384].decode("latin-1").split("\r\n")[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "proxy-authenticate":
            for offer in value.split(","):
                words = offer.split()
                if words and "=" not in words[0] and words[0] not in schemes:
                    schemes.append(words[0])
    return tuple(schemes)


def _system_context() -> ssl.SSLContext:
    """For an https:// proxy: its certificate checked against the system's store."""
    from treasury_app.api.tls import Trust

    return Trust.system().base_context()


# --------------------------------------------------------------------------------------------
# Helpers


def _address(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name.split("%", 1)[0])
    except ValueError:
        return None


def _network(entry: str) -> ipaddress.IPv4Network | ipaddress.IPv6Network | None:
    """``10.0.0.0/8``, ``fd00::/8`` or macOS's short ``169.254/16``; ``None`` otherwise."""
    if "/" not in entry:
        return None
    base, _, bits = entry.partition("/")
    if base.replace(".", "").isdigit() and base.count(".") < 3:
        base += ".0" * (3 - base.count("."))
    try:
        return ipaddress.ip_network(f"{base}/{bits}", strict=False)
    except ValueError:
        return None


def _split_port(entry: str) -> tuple[str, int | None]:
    """``host:port`` -> (host, port); an IPv6 address or a name alone -> (entry, None)."""
    if entry.startswith("[") and "]" in entry:
        host, _, rest = entry[1:].partition("]")
        port = rest.removeprefix(":")
        return host, int(port) if port.isdigit() else None
    if entry.count(":") == 1:
        host, _, port = entry.partition(":")
        if port.isdigit():
            return host, int(port)
    return entry, None


@lru_cache(maxsize=256)
def _glob(pattern: str) -> re.Pattern[str]:
    """``*`` any run of characters, ``?`` one character, everything else literal."""
    parts = (".*" if char == "*" else "." if char == "?" else re.escape(char) for char in pattern)
    return re.compile("".join(parts), re.IGNORECASE)
