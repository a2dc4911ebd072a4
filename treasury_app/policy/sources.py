"""Where a machine policy is read: the registry key Group Policy writes
(``HKLM\\Software\\Policies\\Treasury\\TreasuryApp``) and the admin INI file beside the
executable (``policy.ini``, which the MSI writes from its public properties).

Both are read through one interface, :class:`PolicyKeys`: a tree of keys holding named values,
as the registry is. The registry's implementation, :class:`RegistryKeys`, itself reads through
:class:`RegistryApi` ("open key / enumerate values / enumerate subkeys"): :class:`WinregApi`
on Windows (``winreg``, imported there only), a dict in the tests. So the code that reads a
policy on Windows is the code the tests on Linux run, down to the last ``winreg`` call.
"""

from __future__ import annotations

import configparser
import contextlib
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from treasury_app.config import APP_AUTHOR, APP_NAME
from treasury_app.policy.model import PolicyError, Source

POLICY_KEY = f"Software\\Policies\\{APP_AUTHOR}\\{APP_NAME}"
"""Under ``HKEY_LOCAL_MACHINE``: the key the ADMX template's settings write."""
REGISTRY_WHERE = f"HKLM\\{POLICY_KEY}"
INI_NAME = "policy.ini"
INI_ROOT_SECTION = "Policy"
"""The INI file's section for the key's own values; a subkey is a section named by its path
(``[TeamDatabase]``, ``[Profiles\\1]``, ``[Locked]``)."""
INI_MAX_BYTES = 256 * 1024  # an admin file, not a data set: anything larger is refused

Kind = Literal["text", "expand", "number", "list", "other"]


@dataclass(frozen=True)
class RawValue:
    """A value as a source holds it: registry ``REG_SZ`` is text, ``REG_EXPAND_SZ`` expand
    (``%USERNAME%`` in it), ``REG_DWORD``/``REG_QWORD`` number, ``REG_MULTI_SZ`` list; an INI
    file holds text only. ``other``: a registry type no setting takes (binary...)."""

    data: Any
    kind: Kind


class PolicyKeys(Protocol):
    """A tree of keys with named values. ``path`` is relative to the policy's root key
    (``""``: the root; ``"Profiles\\1"``); names are compared case-insensitively, as the
    registry compares them."""

    source: Source
    where: str  # for people: the registry key or the file's path

    def exists(self, path: str) -> bool: ...

    def values(self, path: str) -> dict[str, RawValue]: ...

    def subkeys(self, path: str) -> list[str]: ...


# -- the registry ---------------------------------------------------------------------------------


class RegistryApi(Protocol):
    """The few registry calls a policy needs, on ``HKEY_LOCAL_MACHINE``."""

    def open_key(self, path: str) -> Any | None:
        """A handle on the key ``path`` for reading, or ``None`` when it does not exist."""

    def enum_values(self, handle: Any) -> list[tuple[str, Any, int]]:
        """Every value of the key: ``(name, data, registry type)``."""

    def enum_subkeys(self, handle: Any) -> list[str]:
        """The names of the key's subkeys."""

    def close_key(self, handle: Any) -> None: ...


# winreg's type numbers (the same on every Windows; named here so that Linux knows them too).
REG_SZ, REG_EXPAND_SZ, REG_BINARY, REG_DWORD, REG_MULTI_SZ, REG_QWORD = 1, 2, 3, 4, 7, 11
_KINDS: dict[int, Kind] = {
    REG_SZ: "text",
    REG_EXPAND_SZ: "expand",
    REG_DWORD: "number",
    REG_QWORD: "number",
    REG_MULTI_SZ: "list",
}
MAX_ENTRIES = 512  # values or subkeys of one key: a policy has a few dozen


class RegistryKeys:
    """:class:`PolicyKeys` over a :class:`RegistryApi`, below ``root``."""

    source: Source = "registry"

    def __init__(self, api: RegistryApi, root: str = POLICY_KEY) -> None:
        self.api = api
        self.root = root
        self.where = f"HKLM\\{root}"

    @contextlib.contextmanager
    def _open(self, path: str) -> Iterator[Any | None]:
        full = f"{self.root}\\{path}" if path else self.root
        try:
            handle = self.api.open_key(full)
        except OSError as error:  # access denied, a key being deleted...
            raise PolicyError(
                "policy.source_unreadable", source=self.where, reason=type(error).__name__
            ) from None
        try:
            yield handle
        finally:
            if handle is not None:
                self.api.close_key(handle)

    def exists(self, path: str) -> bool:
        with self._open(path) as handle:
            return handle is not None

    def values(self, path: str) -> dict[str, RawValue]:
        with self._open(path) as handle:
            if handle is None:
                return {}
            entries = self.api.enum_values(handle)
        if len(entries) > MAX_ENTRIES:
            raise PolicyError("policy.too_many", source=self.where, key=path or "\\")
        return {
            name: RawValue(data, _KINDS.get(kind, "other"))
            for name, data, kind in entries
            if name  # the key's unnamed "(Default)" value: not a setting
        }

    def subkeys(self, path: str) -> list[str]:
        with self._open(path) as handle:
            names = [] if handle is None else self.api.enum_subkeys(handle)
        if len(names) > MAX_ENTRIES:
            raise PolicyError("policy.too_many", source=self.where, key=path or "\\")
        return names


class WinregApi:
    """:class:`RegistryApi` on Windows' own registry, the 64-bit view of
    ``HKEY_LOCAL_MACHINE`` (where Group Policy writes for a 64-bit app). Only checked on
    Windows (packaging/WINDOWS.md)."""

    def __init__(self) -> None:
        import winreg  # Windows only: this class is never made elsewhere

        self.winreg: Any = winreg

    def open_key(self, path: str) -> Any | None:
        winreg = self.winreg
        try:
            return winreg.OpenKey(
                winreg.HKEY_LOCAL_MACHINE, path, 0, winreg.KEY_READ | winreg.KEY_WOW64_64KEY
            )
        except FileNotFoundError:
            return None

    def enum_values(self, handle: Any) -> list[tuple[str, Any, int]]:
        count = self.winreg.QueryInfoKey(handle)[1]
        return [
            self.winreg.EnumValue(handle, index) for index in range(min(count, 1 + MAX_ENTRIES))
        ]

    def enum_subkeys(self, handle: Any) -> list[str]:
        count = self.winreg.QueryInfoKey(handle)[0]
        return [self.winreg.EnumKey(handle, index) for index in range(min(count, 1 + MAX_ENTRIES))]

    def close_key(self, handle: Any) -> None:
        self.winreg.CloseKey(handle)


# -- the admin INI file ---------------------------------------------------------------------------


def _decode(data: bytes) -> str:
    """The INI file's text. Windows' own INI writer (the MSI's ``IniFile`` table) writes the
    ANSI code page, a person's editor UTF-8 (with or without a BOM) or UTF-16."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("mbcs" if sys.platform == "win32" else "cp1252", errors="strict")


class IniKeys:
    """:class:`PolicyKeys` over an INI file: section ``[Policy]`` holds the root's values, and
    a section named by a subkey's path (``[Profiles\\1]``) that subkey's."""

    source: Source = "ini"

    def __init__(self, path: Path) -> None:
        self.where = str(path)
        self.path = path
        self.sections: dict[str, dict[str, str]] | None = None  # None: no file

    @classmethod
    def read(cls, path: Path) -> IniKeys:
        """Read ``path`` (no file: an empty tree). Raises :class:`PolicyError` for a file
        that cannot be read or parsed."""
        keys = cls(path)
        try:
            with path.open("rb") as handle:
                data = handle.read(INI_MAX_BYTES + 1)
        except FileNotFoundError:
            return keys
        except OSError as error:
            raise PolicyError(
                "policy.source_unreadable", source=str(path), reason=type(error).__name__
            ) from None
        if len(data) > INI_MAX_BYTES:
            raise PolicyError("policy.ini_too_large", source=str(path), max=INI_MAX_BYTES)
        try:
            text = _decode(data)
        except UnicodeDecodeError:
            raise PolicyError("policy.ini_encoding", source=str(path)) from None
        parser = configparser.ConfigParser(interpolation=None, strict=True, default_section="\0")
        parser.optionxform = str  # type: ignore[assignment,method-assign] # names as written
        try:
            parser.read_string(text, source=str(path))
        except configparser.Error as error:
            line = getattr(error, "lineno", None)
            raise PolicyError(
                "policy.ini_syntax", source=str(path), line=line if line is not None else "?"
            ) from None
        sections: dict[str, dict[str, str]] = {}
        for section in parser.sections():
            key = "" if section.casefold() == INI_ROOT_SECTION.casefold() else section.strip("\\")
            folded = key.casefold()
            if folded in sections:
                raise PolicyError("policy.ini_section_twice", source=str(path), section=section)
            sections[folded] = dict(parser.items(section))
        keys.sections = sections
        return keys

    def exists(self, path: str) -> bool:
        if self.sections is None:
            return False
        folded = path.casefold()
        return (
            folded == ""
            or folded in self.sections
            or any(name.startswith(folded + "\\") for name in self.sections)
        )

    def values(self, path: str) -> dict[str, RawValue]:
        if self.sections is None:
            return {}
        section = self.sections.get(path.casefold(), {})
        return {name: RawValue(value, "text") for name, value in section.items()}

    def subkeys(self, path: str) -> list[str]:
        if self.sections is None:
            return []
        prefix = path.casefold() + "\\" if path else ""
        names: dict[str, None] = {}
        for section in self.sections:
            if section and section.startswith(prefix):
                names.setdefault(section[len(prefix) :].split("\\", 1)[0], None)
        return list(names)


def admin_ini_path(executable: str | None = None, *, frozen: bool | None = None) -> Path | None:
    """The admin INI file: ``policy.ini`` beside the installed executable
    (``C:\\Program Files\\Treasury\\policy.ini``: only administrators may write there).
    ``None`` when running from the sources (no installation folder to trust)."""
    is_frozen = bool(getattr(sys, "frozen", False)) if frozen is None else frozen
    if not is_frozen:
        return None
    return Path(executable or sys.executable).resolve().parent / INI_NAME


def machine_sources(
    *, registry: RegistryApi | None = None, ini_path: Path | None = None
) -> list[PolicyKeys]:
    """This computer's policy sources, strongest first: the registry (Windows only), then the
    admin INI file (an installed build only)."""
    sources: list[PolicyKeys] = []
    if registry is None and sys.platform == "win32":
        registry = WinregApi()
    if registry is not None:
        sources.append(RegistryKeys(registry))
    path = ini_path if ini_path is not None else admin_ini_path()
    if path is not None:
        sources.append(IniKeys.read(path))
    return sources


def lower_keys(values: Mapping[str, RawValue]) -> dict[str, tuple[str, RawValue]]:
    """``values`` by case-folded name (each with its name as written)."""
    return {name.casefold(): (name, value) for name, value in values.items()}
