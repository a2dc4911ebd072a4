"""Windows' proxy settings: the user's Internet settings (WinINET: ``ProxyServer``,
``ProxyOverride``, ``AutoConfigURL``, and "Automatically detect settings", a flag of the
``DefaultConnectionSettings`` blob) and WinHTTP's (``netsh winhttp set proxy``: the
``WinHttpSettings`` blob under ``HKLM\\...\\Internet Settings\\Connections``).

Only :class:`WindowsRegistry` touches the registry; everything else is parsing, driven in the
tests by a fake :class:`InternetSettingsReader` holding values and bytes.
"""

from __future__ import annotations

import contextlib
import struct
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from treasury_app.api.proxies import SystemProxies, parse_windows_proxy_server

INTERNET_SETTINGS = r"Software\Microsoft\Windows\CurrentVersion\Internet Settings"
CONNECTIONS = INTERNET_SETTINGS + r"\Connections"
PER_USER_POLICY = r"Software\Policies\Microsoft\Windows\CurrentVersion\Internet Settings"

# The flags of a connection settings blob (WinINET's INTERNET_PER_CONN_FLAGS).
PROXY_TYPE_DIRECT = 0x01
PROXY_TYPE_PROXY = 0x02
PROXY_TYPE_AUTO_PROXY_URL = 0x04
PROXY_TYPE_AUTO_DETECT = 0x08
# No real proxy name, bypass list or script address comes near this; a longer one is a
# damaged value, not a setting.
_MAX_STRING = 32 * 1024


class ConnectionSettingsError(ValueError):
    """A connection settings blob that cannot be read (too short, a length past its end)."""


@dataclass(frozen=True)
class ConnectionSettings:
    """One connection settings blob: ``DefaultConnectionSettings`` (WinINET) or
    ``WinHttpSettings`` (WinHTTP; it has no script address)."""

    flags: int
    proxy: str = ""
    bypass: str = ""
    auto_config_url: str = ""

    @property
    def uses_proxy(self) -> bool:
        return bool(self.flags & PROXY_TYPE_PROXY) and bool(self.proxy.strip())

    @property
    def auto_detect(self) -> bool:
        return bool(self.flags & PROXY_TYPE_AUTO_DETECT)

    @property
    def uses_script(self) -> bool:
        return bool(self.flags & PROXY_TYPE_AUTO_PROXY_URL) and bool(self.auto_config_url.strip())


def parse_connection_settings(blob: bytes) -> ConnectionSettings:
    """A blob as Windows writes it, little-endian: a version DWORD, a change counter, the
    flags, then length-prefixed strings: the proxy, the bypass list and (WinINET only) the
    script's address; whatever follows is not needed here."""
    if len(blob) < 12:
        raise ConnectionSettingsError("shorter than its header")
    (flags,) = struct.unpack_from("<I", blob, 8)
    offset = 12
    strings: list[str] = []
    for _ in range(3):
        if offset == len(blob) and len(strings) >= 2:
            break  # WinHttpSettings ends after the bypass list
        if offset + 4 > len(blob):
            if len(strings) >= 2:
                break
            raise ConnectionSettingsError("a string's length is missing")
        (length,) = struct.unpack_from("<I", blob, offset)
        offset += 4
        if length > _MAX_STRING or offset + length > len(blob):
            raise ConnectionSettingsError("a string runs past the end")
        strings.append(blob[offset : offset + length].decode("latin-1").rstrip("\0"))
        offset += length
    while len(strings) < 3:
        strings.append("")
    return ConnectionSettings(flags, strings[0], strings[1], strings[2])


class InternetSettingsReader(Protocol):
    """What :func:`system_from_windows` reads: the Internet settings key's values (the
    user's, or the machine's when policy says the settings are per machine), that key's
    ``Connections\\DefaultConnectionSettings`` blob and WinHTTP's ``WinHttpSettings``."""

    def internet_settings(self) -> Mapping[str, Any]: ...

    def default_connection(self) -> bytes | None: ...

    def winhttp(self) -> bytes | None: ...


def system_from_windows(reader: InternetSettingsReader) -> SystemProxies:
    """The computer's proxies as Windows' own stack would use them, in its order: the
    Internet settings' automatic detection (WPAD) and script (``AutoConfigURL``), then its
    manual proxy and bypass list; when the Internet settings name none of these, WinHTTP's
    proxy (set by IT with ``netsh winhttp set proxy`` for programs that run for the machine).
    A value that cannot be read counts as absent."""
    values = reader.internet_settings()
    connection = _parsed(reader.default_connection())
    auto_detect = connection.auto_detect if connection is not None else False
    pac_url = str(values.get("AutoConfigURL") or "").strip()
    if not pac_url and connection is not None and connection.uses_script:
        pac_url = connection.auto_config_url.strip()
    manual = SystemProxies.from_windows(
        bool(_integer(values.get("ProxyEnable"))),
        str(values.get("ProxyServer") or ""),
        str(values.get("ProxyOverride") or ""),
    )
    if auto_detect or pac_url or manual.servers:
        return SystemProxies(
            servers=manual.servers,
            bypass=manual.bypass,
            style="pattern",
            source="Windows settings",
            pac_url=pac_url or None,
            auto_detect=auto_detect,
        )
    winhttp = _parsed(reader.winhttp())
    if winhttp is not None and winhttp.uses_proxy:
        return SystemProxies(
            servers=parse_windows_proxy_server(winhttp.proxy),
            bypass=tuple(part.strip() for part in winhttp.bypass.split(";") if part.strip()),
            style="pattern",
            source="WinHTTP settings",
        )
    return SystemProxies()


def _parsed(blob: bytes | None) -> ConnectionSettings | None:
    if not blob:
        return None
    try:
        return parse_connection_settings(blob)
    except ConnectionSettingsError:
        return None


def _integer(value: Any) -> int:
    try:
        return int(value or 0)
    except (TypeError, ValueError):
        return 0


class WindowsRegistry:  # pragma: no cover - Windows only; the tests use a fake reader
    """:class:`InternetSettingsReader` over the real registry (``winreg``)."""

    def __init__(self) -> None:
        if sys.platform != "win32":
            raise OSError("the Windows registry exists only on Windows")
        import winreg

        self._winreg: Any = winreg
        self._root: Any = winreg.HKEY_CURRENT_USER
        try:
            with winreg.OpenKey(winreg.HKEY_LOCAL_MACHINE, PER_USER_POLICY) as policy:
                if winreg.QueryValueEx(policy, "ProxySettingsPerUser")[0] == 0:
                    self._root = winreg.HKEY_LOCAL_MACHINE
        except OSError:
            pass

    def internet_settings(self) -> Mapping[str, Any]:
        names = ("ProxyEnable", "ProxyServer", "ProxyOverride", "AutoConfigURL")
        found: dict[str, Any] = {}
        try:
            with self._winreg.OpenKey(self._root, INTERNET_SETTINGS) as key:
                for name in names:
                    with contextlib.suppress(OSError):
                        found[name] = self._winreg.QueryValueEx(key, name)[0]
        except OSError:
            pass
        return found

    def default_connection(self) -> bytes | None:
        return self._blob(self._root, "DefaultConnectionSettings")

    def winhttp(self) -> bytes | None:
        return self._blob(self._winreg.HKEY_LOCAL_MACHINE, "WinHttpSettings")

    def _blob(self, root: Any, name: str) -> bytes | None:
        try:
            with self._winreg.OpenKey(root, CONNECTIONS) as key:
                value = self._winreg.QueryValueEx(key, name)[0]
        except OSError:
            return None
        return bytes(value) if isinstance(value, bytes | bytearray) else None
