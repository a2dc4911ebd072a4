"""A registry in a dict, behind the same :class:`~treasury_app.policy.sources.RegistryApi` that
``winreg`` implements on Windows: the tests drive the very reading code the Windows path uses."""

from __future__ import annotations

from typing import Any

from treasury_app.policy.sources import REG_DWORD, REG_EXPAND_SZ, REG_MULTI_SZ, REG_SZ

Typed = tuple[Any, int]


def typed(value: Any) -> Typed:
    """A Python value as the registry would hold it (an explicit ``(data, type)`` passes)."""
    if isinstance(value, tuple):
        return value
    if isinstance(value, bool):
        return int(value), REG_DWORD
    if isinstance(value, int):
        return value, REG_DWORD
    if isinstance(value, list):
        return value, REG_MULTI_SZ
    return value, REG_EXPAND_SZ if "%" in str(value) else REG_SZ


class FakeRegistry:
    """``HKEY_LOCAL_MACHINE`` as ``{"Software\\\\Policies\\\\...": {"Name": value}}``; a key's
    parents exist because it does. Names are case-insensitive, as in the registry."""

    def __init__(self, keys: dict[str, dict[str, Any]] | None = None) -> None:
        self.keys: dict[str, dict[str, Typed]] = {}
        self.names: dict[str, str] = {}  # a key's path (case-folded) -> its name as written
        self.opened: list[str] = []
        self.closed = 0
        for path, values in (keys or {}).items():
            self.set(path, values)

    def set(self, path: str, values: dict[str, Any]) -> None:
        parts = path.split("\\")
        for end in range(1, len(parts) + 1):
            folded = "\\".join(parts[:end]).casefold()
            self.keys.setdefault(folded, {})
            self.names.setdefault(folded, parts[end - 1])
        self.keys[path.casefold()].update({name: typed(v) for name, v in values.items()})

    def open_key(self, path: str) -> Any | None:
        self.opened.append(path)
        return path.casefold() if path.casefold() in self.keys else None

    def enum_values(self, handle: Any) -> list[tuple[str, Any, int]]:
        return [(name, data, kind) for name, (data, kind) in self.keys[handle].items()]

    def enum_subkeys(self, handle: Any) -> list[str]:
        prefix = handle + "\\"
        names: dict[str, None] = {}
        for path in self.keys:
            if path.startswith(prefix):
                child = path[len(prefix) :].split("\\", 1)[0]
                names.setdefault(self.names[prefix + child], None)
        return list(names)

    def close_key(self, handle: Any) -> None:
        self.closed += 1
