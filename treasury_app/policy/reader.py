"""Reading a machine policy: every value of every source checked, then the sources merged.

Precedence, strongest first: the registry (Group Policy), the admin INI file, the person's own
settings. A single value (``SandboxDisabled``, ``DataDir``, ``BackupDir``, each ``Locked``
switch) is taken from the first source that sets it; a group (the team database, one preset
profile by its name) is taken whole from the first source that has it, never assembled from
two. A value left empty (a blank text box of the template) is not set. A value no version of
the app knows is listed in :attr:`Policy.ignored` and not applied; one whose name says it is a
secret is refused, as is every value that fails its check (:class:`PolicyError`, a code).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path, PureWindowsPath
from typing import Any, cast
from urllib.parse import urlsplit

from treasury_app.policy.model import (
    LOCKABLE,
    Lockable,
    Policy,
    PolicyError,
    PolicyTeamDatabase,
    PresetApi,
    PresetProfile,
    Source,
)
from treasury_app.policy.sources import PolicyKeys, RawValue, lower_keys

ROOT_VALUES = ("SandboxDisabled", "DataDir", "BackupDir")
TEAM_KEY, PROFILES_KEY, LOCKED_KEY = "TeamDatabase", "Profiles", "Locked"
TEAM_VALUES = (
    "Host",
    "Port",
    "Database",
    "User",
    "SslMode",
    "CaFile",
    "CertFile",
    "KeyFile",
    "PasswordMode",
    "Release",
    "ApprovePassword",
)
API_PREFIXES = {"qrcodes": "QrCodes", "accounts": "Accounts"}
API_VALUES = ("Url", "ClientId", "Certificate", "CaFile")
PROFILE_VALUES = (
    "Name",
    *(prefix + value for prefix in API_PREFIXES.values() for value in API_VALUES),
    "PixKeys",
)
SECRET_WORDS = ("password", "secret", "passphrase", "pwd", "token", "privatekey")
MAX_TEXT = 1024
_VARIABLE = re.compile(r"%([^%\s]+)%")


class _Reader:
    """Reads one source, each value checked (``where``: the source, in every error)."""

    def __init__(self, keys: PolicyKeys, environ: Mapping[str, str]) -> None:
        self.keys = keys
        self.environ = {name.casefold(): value for name, value in environ.items()}
        self.ignored: list[str] = []

    def known(self, path: str, names: Sequence[str]) -> dict[str, RawValue]:
        """The values of key ``path`` by their known name; a secret refused, the rest
        ignored (and remembered). A value left empty is not set."""
        known = {name.casefold(): name for name in names}
        found: dict[str, RawValue] = {}
        for folded, (written, value) in lower_keys(self.keys.values(path)).items():
            field = f"{path}\\{written}" if path else written
            if folded not in known:
                if any(word in folded for word in SECRET_WORDS):
                    raise PolicyError("policy.secret_refused", source=self.keys.where, field=field)
                self.ignored.append(field)
                continue
            if isinstance(value.data, str) and not value.data.strip():
                continue
            found[known[folded]] = value
        return found

    # -- one value ----------------------------------------------------------------------------

    def text(self, field: str, value: RawValue) -> str:
        if value.kind not in ("text", "expand") or not isinstance(value.data, str):
            raise PolicyError(
                "policy.value_type", source=self.keys.where, field=field, expected="text"
            )
        text = value.data.strip()
        if len(text) > MAX_TEXT or any(ord(char) < 32 or char == "\x7f" for char in text):
            raise PolicyError(
                "policy.text_invalid", source=self.keys.where, field=field, max=MAX_TEXT
            )
        return text

    def word(self, field: str, value: RawValue) -> str:
        text = self.text(field, value)
        if any(char.isspace() for char in text):
            raise PolicyError("policy.text_spaces", source=self.keys.where, field=field)
        return text

    def yes_no(self, field: str, value: RawValue) -> bool:
        if value.kind == "number" and value.data in (0, 1):
            return bool(value.data)
        if value.kind in ("text", "expand") and isinstance(value.data, str):
            word = value.data.strip().casefold()
            if word in ("1", "true", "yes"):
                return True
            if word in ("0", "false", "no"):
                return False
        raise PolicyError("policy.not_yes_no", source=self.keys.where, field=field)

    def port(self, field: str, value: RawValue) -> int:
        number: object = value.data
        if value.kind in ("text", "expand") and isinstance(number, str):
            number = (
                int(number.strip())
                if number.strip().isascii() and number.strip().isdigit()
                else None
            )
        if not isinstance(number, int) or isinstance(number, bool) or value.kind == "list":
            raise PolicyError("policy.not_a_number", source=self.keys.where, field=field)
        if not 0 < number < 65536:
            raise PolicyError("policy.port_range", source=self.keys.where, field=field, port=number)
        return number

    def choice(self, field: str, value: RawValue, allowed: Sequence[str]) -> str:
        text = self.text(field, value)
        if text.casefold() not in allowed:
            raise PolicyError(
                "policy.not_one_of",
                source=self.keys.where,
                field=field,
                value=text,
                allowed=", ".join(allowed),
            )
        return text.casefold()

    def expanded(self, field: str, value: RawValue) -> str:
        """The text with ``%NAME%`` replaced by the person's environment (``%USERNAME%``), as
        Windows expands a ``REG_EXPAND_SZ``; an unknown name is left as written."""
        return _VARIABLE.sub(
            lambda match: self.environ.get(match[1].casefold(), match[0]), self.text(field, value)
        )

    def path(self, field: str, value: RawValue) -> Path:
        text = self.expanded(field, value)
        if not (Path(text).is_absolute() or _is_unc(text)):
            raise PolicyError(
                "policy.path_relative", source=self.keys.where, field=field, path=text
            )
        return Path(text)

    def url(self, field: str, value: RawValue) -> str:
        text = self.text(field, value)
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018 - raises ValueError on a port that is not a number
        except ValueError:
            raise PolicyError(
                "policy.url_invalid", source=self.keys.where, field=field, url=text
            ) from None
        if parts.scheme.casefold() != "https":
            raise PolicyError("policy.url_not_https", source=self.keys.where, field=field, url=text)
        if not parts.hostname or parts.username or parts.query or parts.fragment or " " in text:
            raise PolicyError("policy.url_invalid", source=self.keys.where, field=field, url=text)
        return text.rstrip("/")

    def keys_list(self, field: str, value: RawValue) -> tuple[str, ...]:
        if value.kind == "list" and isinstance(value.data, list):
            items = [self.text(field, RawValue(item, "text")) for item in value.data]
        else:
            items = re.split(r"[,;]", self.text(field, value))
        keys = tuple(dict.fromkeys(item.strip() for item in items if item.strip()))
        if any(len(key) > 77 for key in keys):
            raise PolicyError("policy.pix_key_length", source=self.keys.where, field=field)
        return keys

    # -- groups -------------------------------------------------------------------------------

    def root(self) -> dict[str, Any]:
        values = self.known("", ROOT_VALUES)
        found: dict[str, Any] = {}
        if "SandboxDisabled" in values:
            found["SandboxDisabled"] = self.yes_no("SandboxDisabled", values["SandboxDisabled"])
        for name in ("DataDir", "BackupDir"):
            if name in values:
                found[name] = self.path(name, values[name])
        if "DataDir" in found and _is_unc(str(found["DataDir"])):
            # The ledger's SQLite write-ahead log does not work on a share (ledger/location.py).
            raise PolicyError(
                "policy.data_dir_network",
                source=self.keys.where,
                field="DataDir",
                path=str(found["DataDir"]),
            )
        for name in self.keys.subkeys(""):
            if name.casefold() not in (k.casefold() for k in (TEAM_KEY, PROFILES_KEY, LOCKED_KEY)):
                self.ignored.append(f"{name}\\")
        return found

    def team(self) -> PolicyTeamDatabase | None:
        values = self.known(TEAM_KEY, TEAM_VALUES)
        if not values:
            return None

        def field(name: str) -> str:
            return f"{TEAM_KEY}\\{name}"

        for required in ("Host", "Database"):
            if required not in values:
                raise PolicyError(
                    "policy.team_incomplete",
                    source=self.keys.where,
                    field=field(required),
                    missing=required,
                )
        team: dict[str, Any] = {
            "host": self.word(field("Host"), values["Host"]),
            "dbname": self.word(field("Database"), values["Database"]),
            "source": self.keys.source,
        }
        if len(team["host"]) > 253 or len(team["dbname"]) > 63:
            raise PolicyError(
                "policy.text_invalid", source=self.keys.where, field=field("Host"), max=253
            )
        if "Port" in values:
            team["port"] = self.port(field("Port"), values["Port"])
        if "User" in values:
            user = self.expanded(field("User"), values["User"])  # %USERNAME%: one's own role
            team["user"] = self.word(field("User"), RawValue(user, "text"))
        if "SslMode" in values:
            team["sslmode"] = self.choice(
                field("SslMode"),
                values["SslMode"],
                ("disable", "prefer", "require", "verify-ca", "verify-full"),
            )
        for name, attribute in (
            ("CaFile", "ca_file"),
            ("CertFile", "cert_file"),
            ("KeyFile", "key_file"),
        ):
            if name in values:
                team[attribute] = self.path(field(name), values[name])
        if ("cert_file" in team) != ("key_file" in team):
            missing = "KeyFile" if "cert_file" in team else "CertFile"
            raise PolicyError(
                "policy.team_incomplete",
                source=self.keys.where,
                field=field(missing),
                missing=missing,
            )
        if "PasswordMode" in values:
            team["password_mode"] = self.choice(
                field("PasswordMode"), values["PasswordMode"], ("keyring", "ask", "none")
            )
        if "Release" in values:
            team["release"] = self.choice(
                field("Release"), values["Release"], ("mine", "all", "none")
            )
        if "ApprovePassword" in values:
            team["approve_password"] = self.yes_no(
                field("ApprovePassword"), values["ApprovePassword"]
            )
        return PolicyTeamDatabase(**team)

    def profiles(self) -> list[PresetProfile]:
        presets: list[PresetProfile] = []
        for slot in self.keys.subkeys(PROFILES_KEY):
            preset = self.profile(f"{PROFILES_KEY}\\{slot}", slot)
            if preset is None:
                continue
            if any(p.name.casefold() == preset.name.casefold() for p in presets):
                raise PolicyError(
                    "policy.profile_twice",
                    source=self.keys.where,
                    field=f"{PROFILES_KEY}\\{slot}",
                    name=preset.name,
                )
            presets.append(preset)
        return presets

    def profile(self, path: str, slot: str) -> PresetProfile | None:
        values = self.known(path, PROFILE_VALUES)
        if not values:
            return None  # an empty slot of the template
        name = self.text(f"{path}\\Name", values["Name"]) if "Name" in values else slot
        apis: dict[str, PresetApi] = {}
        for api, prefix in API_PREFIXES.items():
            for required in ("Url", "ClientId", "Certificate"):
                if prefix + required not in values:
                    raise PolicyError(
                        "policy.profile_incomplete",
                        source=self.keys.where,
                        field=f"{path}\\{prefix}{required}",
                        name=name,
                        missing=prefix + required,
                    )
            ca = values.get(prefix + "CaFile")
            apis[api] = PresetApi(
                base_url=self.url(f"{path}\\{prefix}Url", values[prefix + "Url"]),
                client_id=self.word(f"{path}\\{prefix}ClientId", values[prefix + "ClientId"]),
                pfx_path=self.path(f"{path}\\{prefix}Certificate", values[prefix + "Certificate"]),
                ca_file=self.path(f"{path}\\{prefix}CaFile", ca) if ca is not None else None,
            )
        pix_keys = (
            self.keys_list(f"{path}\\PixKeys", values["PixKeys"]) if "PixKeys" in values else ()
        )
        return PresetProfile(
            name=name,
            qrcodes=apis["qrcodes"],
            accounts=apis["accounts"],
            pix_keys=pix_keys,
            source=self.keys.source,
        )

    def locked(self) -> dict[Lockable, bool]:
        values = self.known(LOCKED_KEY, LOCKABLE)
        return {
            cast(Lockable, name): self.yes_no(f"{LOCKED_KEY}\\{name}", value)
            for name, value in values.items()
        }


def _is_unc(text: str) -> bool:
    drive = PureWindowsPath(text).drive
    return drive.startswith(("\\\\", "//")) and len(drive) > 2


def read_policy(
    sources: Sequence[PolicyKeys], *, environ: Mapping[str, str] | None = None
) -> Policy:
    """The policy the ``sources`` set, strongest first (an empty :class:`Policy` when none
    has a key or file). Raises :class:`PolicyError` for a value that fails its check."""
    environment = os.environ if environ is None else environ
    singles: dict[str, tuple[Any, Source]] = {}
    locks: dict[Lockable, tuple[bool, Source]] = {}
    team: PolicyTeamDatabase | None = None
    presets: list[PresetProfile] = []
    ignored: list[str] = []
    where: dict[Source, str] = {}
    for keys in sources:
        if not keys.exists(""):
            continue  # no key, no file: nothing set here
        where.setdefault(keys.source, keys.where)
        reader = _Reader(keys, environment)
        for name, value in reader.root().items():
            singles.setdefault(name, (value, keys.source))
        found_team = reader.team()
        if team is None:
            team = found_team
        for preset in reader.profiles():
            if not any(p.name.casefold() == preset.name.casefold() for p in presets):
                presets.append(preset)
        for lock, value in reader.locked().items():
            locks.setdefault(lock, (value, keys.source))
        ignored.extend(f"{keys.source}: {name}" for name in reader.ignored)
    origins: dict[str, Source] = {name: source for name, (_, source) in singles.items()}
    origins.update({f"Locked\\{name}": source for name, (_, source) in locks.items()})
    if team is not None:
        origins["TeamDatabase"] = team.source
    origins.update({f"Profiles\\{p.name}": p.source for p in presets})
    locked = frozenset(name for name, (on, _) in locks.items() if on)
    policy = Policy(
        sandbox_disabled=bool(singles.get("SandboxDisabled", (False,))[0]),
        data_dir=singles.get("DataDir", (None,))[0],
        backup_dir=singles.get("BackupDir", (None,))[0],
        team_database=team,
        profiles=tuple(presets),
        locked=locked,
        origins=origins,
        ignored=tuple(ignored),
        where=where,
    )
    _check_locks(policy)
    return policy


def _check_locks(policy: Policy) -> None:
    """A locked setting needs the value it is locked to."""
    missing: dict[Lockable, Callable[[], bool]] = {
        "Profiles": lambda: not policy.profiles,
        "TeamDatabase": lambda: policy.team_database is None,
        "Release": lambda: policy.team_database is None or policy.team_database.release is None,
        "BackupDir": lambda: policy.backup_dir is None,
    }
    for name in LOCKABLE:
        if name in policy.locked and missing[name]():
            source = policy.origins.get(f"Locked\\{name}", "registry")
            raise PolicyError(
                "policy.lock_without_value",
                field=f"Locked\\{name}",
                source=policy.where.get(source, source),
                setting=name,
            )
