"""What an IT department may set for every person on a computer (the machine policy), as a
validated value: preset bank profiles, the sandbox bank turned off, the team database and its
release mode, settings locked from the person, the data and backup folders. Never a secret.

It is read (:mod:`treasury_app.policy.reader`) from the Windows registry and from an admin INI
file; everything read there is hostile until checked, and a value that fails a check is a
:class:`PolicyError` with a rule's code, never a guess.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from treasury_app.domain.errors import Reason, RuleError

Source = Literal["registry", "ini"]
"""Where a setting came from: Group Policy's registry key, or the admin INI file."""

Lockable = Literal["Profiles", "TeamDatabase", "Release", "BackupDir"]
"""The settings a policy can lock (``Locked`` key): the person cannot change them.

- ``Profiles``: only the preset profiles exist; no profile of one's own is created or edited.
- ``TeamDatabase``: every profile keeps its ledger in the policy's team database.
- ``Release``: the team database's release mode and approval password are the policy's.
- ``BackupDir``: ledger backups go to the policy's folder, no other.

``DataDir`` and ``SandboxDisabled`` need no lock: when a policy sets them they always apply.
"""
LOCKABLE: tuple[Lockable, ...] = ("Profiles", "TeamDatabase", "Release", "BackupDir")

SslMode = Literal["disable", "prefer", "require", "verify-ca", "verify-full"]
PasswordMode = Literal["keyring", "ask", "none"]
ReleaseMode = Literal["mine", "all", "none"]


class PolicyError(RuleError):
    """A machine policy cannot be used: a rule's code (``policy.*``), the setting concerned
    (``field``: ``TeamDatabase\\Port``) and where it was read (``source``: the registry key or
    the INI file). Its words are in :mod:`treasury_app.ui.rule_words`, which name the setting
    too: ``field`` is also a parameter."""

    def __init__(self, code: str, /, *, field: str | None = None, **params: Any) -> None:
        super().__init__(code, field=field, **params)
        if field is not None:
            self.reason = Reason(code, {**params, "field": field}, field)
            self.args = (str(self.reason),)


class PresetApi(BaseModel):
    """One API of a preset profile: the bank's address, the client id, the certificate file
    (``.pfx``; its password is typed at unlock) and the CA file (``None``: the system's)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str
    client_id: str
    pfx_path: Path
    ca_file: Path | None = None


class PresetProfile(BaseModel):
    """A production profile the IT department prepared: everyone on the computer sees it,
    nobody edits it (client secrets are still typed by the person and kept in the keyring)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    qrcodes: PresetApi
    accounts: PresetApi
    pix_keys: tuple[str, ...] = ()
    source: Source = "registry"


class PolicyTeamDatabase(BaseModel):
    """The team database's connection settings (never its password). ``user`` is left to the
    person when absent (each person logs in with their own role); ``release`` and
    ``approve_password`` are left to the profile when absent."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str
    port: int = 5432
    dbname: str
    user: str | None = None
    sslmode: SslMode = "verify-full"
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    password_mode: PasswordMode | None = None
    release: ReleaseMode | None = None
    approve_password: bool | None = None
    source: Source = "registry"


class Setting(BaseModel):
    """One setting as the managed-settings list shows it: its policy name, its value in
    plain text, where it came from and whether the person may change it."""

    model_config = ConfigDict(frozen=True)

    name: str
    value: str
    source: Source
    locked: bool


class Policy(BaseModel):
    """The machine policy, merged from its sources (the registry first, then the INI file);
    an empty ``Policy()`` when none is set. ``origins`` says where each single value came
    from; ``ignored`` lists the value names no version of the app knows (a typo, or a newer
    template), shown to the person and logged, never applied."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    sandbox_disabled: bool = False
    data_dir: Path | None = None
    backup_dir: Path | None = None
    team_database: PolicyTeamDatabase | None = None
    profiles: tuple[PresetProfile, ...] = ()
    locked: frozenset[Lockable] = Field(default_factory=frozenset)
    origins: dict[str, Source] = Field(default_factory=dict)
    ignored: tuple[str, ...] = ()
    where: dict[Source, str] = Field(default_factory=dict)

    @property
    def is_empty(self) -> bool:
        """Whether no source sets anything (no policy on this computer)."""
        return not self.origins and not self.ignored

    def is_locked(self, setting: Lockable) -> bool:
        return setting in self.locked

    def preset(self, name: str) -> PresetProfile | None:
        """The preset profile named ``name`` (compared as Windows compares file names)."""
        return next((p for p in self.profiles if p.name.casefold() == name.casefold()), None)

    def settings(self) -> list[Setting]:
        """Every setting the policy sets, in the order of the template, for the person to see
        (paths and hosts only: the policy holds no secret)."""
        rows: list[Setting] = []

        def add(name: str, value: object, locked: bool) -> None:
            source = self.origins.get(name)
            if source is not None:
                rows.append(Setting(name=name, value=str(value), source=source, locked=locked))

        if self.sandbox_disabled or "SandboxDisabled" in self.origins:
            add("SandboxDisabled", "yes" if self.sandbox_disabled else "no", True)
        add("DataDir", self.data_dir, True)
        add("BackupDir", self.backup_dir, self.is_locked("BackupDir"))
        team = self.team_database
        if team is not None:
            where = f"{team.user + '@' if team.user else ''}{team.host}:{team.port}/{team.dbname}"
            rows.append(
                Setting(
                    name="TeamDatabase",
                    value=f"{where} ({team.sslmode})",
                    source=team.source,
                    locked=self.is_locked("TeamDatabase"),
                )
            )
            if team.release is not None:
                rows.append(
                    Setting(
                        name="Release",
                        value=team.release,
                        source=team.source,
                        locked=self.is_locked("Release"),
                    )
                )
        for preset in self.profiles:
            rows.append(
                Setting(
                    name=f"Profiles\\{preset.name}",
                    value=f"{preset.qrcodes.base_url} · {preset.accounts.base_url}",
                    source=preset.source,
                    locked=True,
                )
            )
        for name in LOCKABLE:
            if name in self.locked:
                add(f"Locked\\{name}", "yes", True)
        return rows
