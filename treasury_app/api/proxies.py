"""Which proxy, if any, carries each request: the profile's setting (no proxy, the system's, or
an explicit address), the system's bypass list host by host, and loopback always direct.

httpx reads the system proxy (``trust_env``) but not Windows' bypass list, so with a
policy-set proxy even the sandbox on ``https://127.0.0.1`` went to the corporate proxy. Clients
are therefore built with ``trust_env=False`` and a :class:`RoutingTransport` that asks
:func:`route` for every request. Deciding is pure; only :meth:`SystemProxies.read` looks at the
computer (the environment, the Windows registry, macOS's settings).

A proxy address may carry a user name and password: they are secrets, never logged, never in
an error (which names the proxy by host and port only) and masked when shown.
"""

from __future__ import annotations

import ipaddress
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal
from urllib.parse import urlsplit, urlunsplit

import httpx
from pydantic import BaseModel, ConfigDict, model_validator

ProxyMode = Literal["none", "system", "url"]
# "pattern": Windows' ProxyOverride and macOS's exceptions (``<local>``, ``*`` and ``?``
# wildcards, the whole name); "no_proxy": the environment's domain suffixes.
BypassStyle = Literal["pattern", "no_proxy"]
RouteReason = Literal["loopback", "no-proxy", "bypass", "no-system-proxy", "system", "profile"]
SUPPORTED_SCHEMES = ("http", "https")
# Where the routing transport notes the route on an answer and on a transport error.
PROXY_EXTENSION = "treasury_proxy_route"
_MASK = "***"


# --------------------------------------------------------------------------------------------
# The profile's setting


class ProxyUrlError(ValueError):
    """A proxy address that cannot be used. ``reason`` says which rule it breaks (``empty``,
    ``invalid``, ``scheme``, ``port``, ``path``); the message never repeats the address, which
    may hold a password."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


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
    bypass list) or ``url`` (``url``, with the system's bypass list still honoured). Loopback
    is always direct, whatever the mode."""

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
            else:
                data["url"] = None
        return data

    @classmethod
    def explicit(cls, url: str) -> ProxySetting:
        return cls(mode="url", url=url)

    def describe(self) -> str:
        """``no proxy``, ``system proxy`` or the address (its credentials masked)."""
        if self.mode == "none":
            return "no proxy"
        if self.mode == "system":
            return "system proxy"
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
    read once (:meth:`read`). ``source`` says where from, for Settings and the self-test."""

    servers: Mapping[str, str] = field(default_factory=dict)
    bypass: tuple[str, ...] = ()
    style: BypassStyle = "no_proxy"
    source: str = "none"

    @classmethod
    def read(cls) -> SystemProxies:
        """The proxies ``urllib.request.getproxies()`` would find: the environment
        (``HTTPS_PROXY``, ``NO_PROXY``...) when it names any, else the Windows registry
        (with ``ProxyOverride``) or macOS's network settings."""
        environment = cls.from_environment(os.environ)
        if environment.servers or environment.bypass or sys.platform not in ("win32", "darwin"):
            return environment
        try:
            if sys.platform == "win32":
                return cls.from_windows(*_windows_internet_settings())
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
        """``none`` or ``http://proxy:8080 (Windows settings; bypass: <local>;*.corp)``."""
        server = self.server_for("https")
        if server is None:
            return "none"
        bypass = f"; bypass: {','.join(self.bypass)}" if self.bypass else ""
        return f"{masked_url(server)} ({self.source}{bypass})"


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


def _windows_internet_settings() -> tuple[bool, str, str]:  # pragma: no cover - Windows only
    """``ProxyEnable``, ``ProxyServer`` and ``ProxyOverride`` of the current user, or of the
    machine when a policy says the settings are per machine (``ProxySettingsPerUser`` 0)."""
    if sys.platform != "win32":
        raise OSError("the Windows registry exists only on Windows")
    import winreg

    path = r"Software\Microsoft\Windows\CurrentVersion\Internet Settings"
    root = winreg.HKEY_CURRENT_USER
    try:
        with winreg.OpenKey(
            winreg.HKEY_LOCAL_MACHINE,
            r"Software\Policies\Microsoft\Windows\CurrentVersion\Internet Settings",
        ) as policy:
            if winreg.QueryValueEx(policy, "ProxySettingsPerUser")[0] == 0:
                root = winreg.HKEY_LOCAL_MACHINE
    except OSError:
        pass

    def value(key: Any, name: str, default: Any) -> Any:
        try:
            return winreg.QueryValueEx(key, name)[0]
        except OSError:
            return default

    with winreg.OpenKey(root, path) as key:
        return (
            bool(value(key, "ProxyEnable", 0)),
            str(value(key, "ProxyServer", "")),
            str(value(key, "ProxyOverride", "")),
        )


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
            return {
                "loopback": "direct (loopback)",
                "no-proxy": "direct (no proxy)",
                "bypass": "direct (bypass list)",
                "no-system-proxy": "direct (no system proxy)",
            }.get(self.reason, "direct")
        source = "system proxy" if self.reason == "system" else "profile"
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


class RoutingTransport(httpx.AsyncBaseTransport):
    """Sends each request direct or through its proxy, as ``decide`` says, on one pooled
    transport per proxy (made by ``make``, lazily). An answer or a transport error that went
    through a proxy carries its :class:`ProxyRoute` (:func:`route_of`)."""

    def __init__(
        self,
        decide: Callable[[httpx.URL], ProxyRoute],
        make: Callable[[httpx.Proxy | None], httpx.AsyncBaseTransport],
    ) -> None:
        self._decide = decide
        self._make = make
        self._transports: dict[str | None, httpx.AsyncBaseTransport] = {}

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        chosen = self._decide(request.url)
        try:
            transport = self._transport(chosen.proxy)
            response = await transport.handle_async_request(request)
        except httpx.TransportError as error:
            if chosen.proxy is not None:
                setattr(error, PROXY_EXTENSION, chosen)
            raise
        if chosen.proxy is not None:
            response.extensions[PROXY_EXTENSION] = chosen
        return response

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


def router(setting: ProxySetting, system: SystemProxies) -> Callable[[httpx.URL], ProxyRoute]:
    """:func:`route` for one client, remembered per scheme, host and port."""

    @lru_cache(maxsize=64)
    def decide(scheme: str, host: str, port: int | None) -> ProxyRoute:
        return route(httpx.URL(scheme=scheme, host=host, port=port), setting, system)

    return lambda url: decide(url.scheme, url.host, url.port)


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
