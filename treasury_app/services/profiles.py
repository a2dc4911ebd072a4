"""Connection profiles (one JSON file each) and the sandbox's own profile.

A profile names, per API, the bank's address, the client id, the ``.pfx`` file and which
authorities to trust, and for both the proxy to use; it never holds a secret (so a proxy
address with a user name or password is refused). Client secrets live in the operating system's
keyring (:mod:`treasury_app.services.secret_store`) when there is one, and are asked for at
unlock otherwise. ``.pfx`` passwords are never stored anywhere. A production profile's bank
addresses and CAs, as last confirmed, are :mod:`treasury_app.services.endpoints`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from treasury_app.api.proxies import ProxySetting, ProxyUrlError, check_proxy_url, has_credentials
from treasury_app.api.tls import Trust
from treasury_app.api.tokens import ApiName
from treasury_app.api.transport import Timeouts
from treasury_app.config import AppPaths
from treasury_app.domain.clock import system_clock
from treasury_app.domain.errors import RuleError
from treasury_app.ledger.stores import AuditStore
from treasury_app.policy import Policy, PolicyError, PolicyTeamDatabase, PresetProfile

if TYPE_CHECKING:
    from treasury_app.ledger.team.settings import TeamDatabase as TeamDatabaseSettings

APIS: tuple[ApiName, ...] = ("qrcodes", "accounts")
API_LABELS: dict[ApiName, str] = {"qrcodes": "QR Codes", "accounts": "Accounts"}
KEYRING_SERVICE = "TreasuryApp"
SANDBOX_PROFILE_NAME = "Sandbox"
NAME_MAX_LENGTH = 64
_NAME_PATTERN = re.compile(r"[\w\- ]+")  # \w: Unicode letters, digits and "_"
_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul"}
    | {f"com{n}" for n in range(1, 10)}
    | {f"lpt{n}" for n in range(1, 10)}
)

log = logging.getLogger("treasury_app.services.profiles")


ReleaseMode = Literal["mine", "all", "none"]
"""Which approved intents a desktop sends: those its person approved last, all, none."""

# --------------------------------------------------------------------------------------------
# Errors


class ProfileError(RuleError):
    """A profile cannot be used, saved or found: a rule's code (``profile.*``), its words in
    :mod:`treasury_app.ui.rule_words`."""


class ProfileNameError(ProfileError):
    """The name cannot be a profile name (and so a file name)."""


class ProfileNotFound(ProfileError):
    """No profile file has this name."""


class ProfileCorrupt(ProfileError):
    """A profile file exists but is not a valid profile."""


class CaFileError(ProfileError):
    """An API's CA file cannot be read as PEM certificates (so it cannot be confirmed)."""

    @property
    def api(self) -> ApiName:
        """The API whose CA file it is (the ``api`` parameter)."""
        api: ApiName = self.params["api"]
        return api


class PolicyRefusal(ProfileError):
    """The machine policy forbids it: a sandbox profile where the sandbox is turned off, an
    edit of a preset profile, a profile of one's own where profiles are locked."""


class SecretStoreUnavailable(RuntimeError):
    """There is no usable system keyring: secrets are asked for each time instead."""


# --------------------------------------------------------------------------------------------
# The profile


def validate_profile_name(name: str) -> str:
    """Return ``name`` when it can name a profile, else raise :class:`ProfileNameError`.

    Letters, digits, ``-``, ``_`` and inner spaces; no path separators, no leading or
    trailing space, at most :data:`NAME_MAX_LENGTH` characters, no Windows device name.
    """
    if not isinstance(name, str) or not name:
        raise ProfileNameError("profile.name_missing", field="name")
    if len(name) > NAME_MAX_LENGTH:
        raise ProfileNameError("profile.name_too_long", field="name", max=NAME_MAX_LENGTH)
    if name != name.strip():
        raise ProfileNameError("profile.name_spaces", field="name")
    if not _NAME_PATTERN.fullmatch(name):
        raise ProfileNameError("profile.name_characters", field="name", name=name)
    if name.lower() in _WINDOWS_DEVICES:
        raise ProfileNameError("profile.name_reserved", field="name", name=name)
    return name


PIX_KEY_MAX_LENGTH = 77


def check_base_url(url: str, field: str = "base_url") -> str:
    """``url`` as an API's address (``https://host[:port][/path]``, no query or fragment,
    no trailing slash); else :class:`ProfileError` (``profile.url_*``) naming ``field``."""
    url = url.strip()
    if not url:
        raise ProfileError("profile.url_missing", field=field)
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a port that is not a number
    except ValueError:
        raise ProfileError("profile.url_invalid", field=field) from None
    if parts.scheme.lower() != "https":
        raise ProfileError("profile.url_not_https", field=field)
    if not parts.hostname or any(char.isspace() for char in url):
        raise ProfileError("profile.url_invalid", field=field)
    if parts.query or parts.fragment:
        raise ProfileError("profile.url_query", field=field)
    return url.rstrip("/")


def check_client_id(text: str, field: str = "client_id") -> str:
    """The client id the bank gave, trimmed; an empty one is ``profile.client_id_missing``."""
    text = text.strip()
    if not text:
        raise ProfileError("profile.client_id_missing", field=field)
    return text


def check_pix_keys(keys: tuple[str, ...], field: str = "pix_keys") -> tuple[str, ...]:
    """The account's Pix keys, trimmed, each once; a key of more than
    :data:`PIX_KEY_MAX_LENGTH` characters (or none) is refused."""
    checked: list[str] = []
    for raw in keys:
        key = raw.strip()
        if not key:
            raise ProfileError("profile.pix_key_empty", field=field)
        if len(key) > PIX_KEY_MAX_LENGTH:
            raise ProfileError("profile.pix_key_too_long", field=field, max=PIX_KEY_MAX_LENGTH)
        if key not in checked:
            checked.append(key)
    return tuple(checked)


def check_proxy_address(text: str, field: str = "proxy") -> str:
    """An explicit proxy's address (``http(s)://host:port``), normalised; a user name or
    password in it is refused (a profile holds no secret). The reason never repeats the
    address, which could hold a password."""
    try:
        address = check_proxy_url(text)
    except ProxyUrlError as error:
        why = error.reason
        code = (
            "profile.proxy_empty"
            if why == "empty"
            else "profile.proxy_scheme"
            if why == "scheme"
            else "profile.proxy_port"
            if why == "port"
            else "profile.proxy_path"
            if why == "path"
            else "profile.proxy_invalid"
        )
        raise ProfileError(code, field=field) from None
    if has_credentials(address):
        raise ProfileError("profile.proxy_credentials", field=field)
    return address


def check_team_word(text: str, field: str) -> str:
    """A team database's host, database name or login: one word, no control character."""
    text = text.strip()
    if not text:
        code = (
            "profile.team_host_missing"
            if field.endswith("host")
            else "profile.team_dbname_missing"
            if field.endswith("dbname")
            else "profile.team_user_missing"
        )
        raise ProfileError(code, field=field)
    if any(char.isspace() or ord(char) < 32 for char in text):
        raise ProfileError("profile.team_spaces", field=field)
    return text


def _now() -> datetime:
    return system_clock()  # when a profile was saved or confirmed: an instant, not a date


class ApiProfile(BaseModel):
    """How to reach one API: address, client id, certificate file and trust."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str
    client_id: str = Field(min_length=1)
    pfx_path: Path
    ca_file: Path | None = None  # None: the operating system's trust store
    scopes: tuple[str, ...] = ()

    @field_validator("base_url")
    @classmethod
    def _https_only(cls, value: str) -> str:
        return check_base_url(value)

    @field_validator("client_id")
    @classmethod
    def _stripped(cls, value: str) -> str:
        return check_client_id(value)

    @field_validator("scopes")
    @classmethod
    def _scope_words(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        scopes = tuple(scope.strip() for scope in value if scope.strip())
        if any(" " in scope for scope in scopes):
            raise ValueError("each scope is one word")
        return scopes

    def trust(self) -> Trust:
        """The sandbox's or bank's CA file when given, else the system trust store."""
        return Trust.bundle(self.ca_file.expanduser()) if self.ca_file else Trust.system()


class TeamDatabaseProfile(BaseModel):
    """Where a team database is and whose login this desktop uses (never its password)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = Field(min_length=1, max_length=253)
    port: int = Field(default=5432, gt=0, lt=65536)
    dbname: str = Field(min_length=1, max_length=63)
    user: str = Field(min_length=1, max_length=63)
    sslmode: Literal["disable", "prefer", "require", "verify-ca", "verify-full"] = "verify-full"
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    # keyring: kept in the system keyring (asked once); ask: at every unlock; none: a client
    # certificate or the server's own rule logs in without one.
    password: Literal["keyring", "ask", "none"] = "keyring"
    # Dual control: which approved payments this desktop sends (mine: those whose approvals
    # it completes; all: it is the team's releasing desktop; none: another desktop sends),
    # and whether approving asks for the database password again.
    release: ReleaseMode = "mine"
    approve_password: bool = False

    @field_validator("host", "dbname", "user")
    @classmethod
    def _no_blanks(cls, value: str, info: ValidationInfo) -> str:
        return check_team_word(value, f"ledger.{info.field_name}")

    @model_validator(mode="after")
    def _certificate_pair(self) -> TeamDatabaseProfile:
        if self.cert_file is not None and self.key_file is None:
            raise ProfileError("profile.team_cert_without_key", field="ledger.key_file")
        if self.key_file is not None and self.cert_file is None:
            raise ProfileError("profile.team_key_without_cert", field="ledger.cert_file")
        return self

    def settings(self) -> TeamDatabaseSettings:
        """The connection settings of the team backend (imported only for a team profile)."""
        from treasury_app.ledger.team.settings import TeamDatabase

        def path(value: Path | None) -> Path | None:
            return value.expanduser() if value is not None else None

        return TeamDatabase(
            host=self.host,
            port=self.port,
            dbname=self.dbname,
            user=self.user,
            sslmode=self.sslmode,
            ca_file=path(self.ca_file),
            cert_file=path(self.cert_file),
            key_file=path(self.key_file),
        )

    def describe(self) -> str:
        return f"{self.user}@{self.host}:{self.port}/{self.dbname}"


class LedgerLocation(BaseModel):
    """Where a profile's ledger lives: this computer's file (the default) or a team
    database shared by every desktop of the team."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    location: Literal["file", "team"] = "file"
    team: TeamDatabaseProfile | None = None

    @model_validator(mode="after")
    def _team_needs_its_database(self) -> LedgerLocation:
        if self.location == "team" and self.team is None:
            raise ValueError("a team ledger needs its database (host, database, login)")
        return self

    @property
    def is_team(self) -> bool:
        return self.location == "team"


class ScheduleProfile(BaseModel):
    """How this profile's scheduled payments are sent (issue 35; read by the workspace into
    ``services.schedule.ScheduleSettings``). Per profile: in team mode each releasing
    desktop sends at its own profile's time (the database's rules — approvals, nothing
    before its date — do not depend on it). A person edits it in Settings through
    ``services.schedule.read_schedule_form`` (its refusals coded)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    send_time: time = time(8, 0)
    """When a payment leaves on its pay date (Brasília)."""
    slip_tolerance: Decimal = Field(default=Decimal("0.00"), ge=0, le=Decimal("10000.00"))
    """How far a slip's updated amount may move by its day before it is held."""
    funds_retries: int = Field(default=3, ge=1, le=10)
    """Passes a payment the balance does not cover is tried before it is held."""
    funds_cutoff: time = time(17, 0)
    """After this (Brasília), a payment the balance does not cover is held at once."""
    extra_dates: tuple[date, ...] = Field(default=(), max_length=100)
    """Non-business dates of this company (a city's holiday, a day off), beside the national
    calendar."""


class Profile(BaseModel):
    """A named connection to one bank: both APIs, timeouts, and when it was made."""

    # A proxy address typed with a password is refused; the error must not repeat it.
    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    name: str
    environment: Literal["sandbox", "production"]
    qrcodes: ApiProfile
    accounts: ApiProfile
    connect_timeout: float = Field(default=5.0, gt=0, le=120)
    read_timeout: float = Field(default=30.0, gt=0, le=600)
    # How old a payment the bank has not confirmed may be for the app to send it again by
    # itself; older ones wait for a person ("Send now" / "Cancel payment").
    resend_window_minutes: int = Field(default=15, ge=1, le=24 * 60)
    # A batch whose rows match an earlier batch sent within this many hours is flagged.
    duplicate_batch_hours: int = Field(default=72, ge=1, le=24 * 90)
    # The Pix keys registered on the company's account: charges are issued to one of them and
    # each gets a webhook row. The bank has no endpoint listing them, so the profile says.
    pix_keys: tuple[str, ...] = ()
    # How both APIs are reached: the system's proxy by default (loopback, so the sandbox,
    # always direct). Files written before it existed have none and load with the default.
    proxy: ProxySetting = Field(default_factory=ProxySetting)
    # Where the ledger lives: this computer's file unless the team shares a database. Files
    # written before it existed have none and load with the file.
    ledger: LedgerLocation = Field(default_factory=LedgerLocation)
    # How scheduled payments leave (issue 35). Files written before it existed load with
    # the defaults.
    schedule: ScheduleProfile = Field(default_factory=ScheduleProfile)
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)

    @field_validator("proxy")
    @classmethod
    def _proxy_without_secret(cls, value: ProxySetting) -> ProxySetting:
        if value.url is not None and has_credentials(value.url):
            raise ProfileError("profile.proxy_credentials", field="proxy")
        return value

    @field_validator("pix_keys")
    @classmethod
    def _valid_keys(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return check_pix_keys(value)

    @field_validator("name")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        return validate_profile_name(value)

    def api(self, api: ApiName) -> ApiProfile:
        """The settings of ``api`` (``"qrcodes"`` or ``"accounts"``)."""
        if api == "qrcodes":
            return self.qrcodes
        if api == "accounts":
            return self.accounts
        raise KeyError(api)

    def timeouts(self) -> Timeouts:
        """The transport's timeouts (write follows read; the pool wait stays at its default)."""
        return Timeouts(
            connect=self.connect_timeout, read=self.read_timeout, write=self.read_timeout
        )

    def audit_details(self) -> dict[str, Any]:
        """What a configuration audit row says about this profile (it holds no secret)."""
        return {
            "environment": self.environment,
            **{
                api: {
                    "base_url": self.api(api).base_url,
                    "client_id": self.api(api).client_id,
                    "pfx_path": str(self.api(api).pfx_path),
                    "ca_file": str(self.api(api).ca_file) if self.api(api).ca_file else None,
                    "scopes": list(self.api(api).scopes),
                }
                for api in APIS
            },
            "connect_timeout": self.connect_timeout,
            "read_timeout": self.read_timeout,
            "proxy": self.proxy.describe(),
            "ledger": (
                f"team database {self.ledger.team.describe()}"
                if self.ledger.is_team and self.ledger.team is not None
                else "this computer"
            ),
            "schedule": self.schedule.model_dump(mode="json"),
        }


def _short_validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in item["loc"]) or "profile"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Profile files


# --------------------------------------------------------------------------------------------
# The machine policy's part (treasury_app/policy, docs/it-policy.md)


def _os_login() -> str:
    import getpass

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name in the environment nor the user database
        return "treasury"


def policy_team(
    team: PolicyTeamDatabase, own: TeamDatabaseProfile | None = None
) -> TeamDatabaseProfile:
    """The team database the policy sets, with what it leaves to the person taken from their
    own settings ``own``: the login (else the operating system's login name), how the password
    is kept, the release mode and the approval password when the policy says nothing of them."""
    return TeamDatabaseProfile(
        host=team.host,
        port=team.port,
        dbname=team.dbname,
        user=team.user or (own.user if own is not None else _os_login()),
        sslmode=team.sslmode,
        ca_file=team.ca_file,
        cert_file=team.cert_file,
        key_file=team.key_file,
        password=team.password_mode or (own.password if own is not None else "keyring"),
        release=team.release or (own.release if own is not None else "mine"),
        approve_password=(
            team.approve_password
            if team.approve_password is not None
            else own.approve_password
            if own is not None
            else False
        ),
    )


def apply_policy(profile: Profile, policy: Policy) -> Profile:
    """``profile`` with what the policy locks: the team database as its ledger, the release
    mode. A sandbox profile is left alone (its ledger is never the team's real one)."""
    team = policy.team_database
    if profile.environment == "sandbox" or team is None:
        return profile
    own = profile.ledger.team if profile.ledger.is_team else None
    if policy.is_locked("TeamDatabase"):
        locked = policy_team(team, own)
        if not policy.is_locked("Release") and own is not None and team.release is None:
            locked = locked.model_copy(update={"release": own.release})
        return profile.model_copy(update={"ledger": LedgerLocation(location="team", team=locked)})
    if policy.is_locked("Release") and own is not None:
        update: dict[str, Any] = {"release": team.release}
        if team.approve_password is not None:
            update["approve_password"] = team.approve_password
        ledger = LedgerLocation(location="team", team=own.model_copy(update=update))
        return profile.model_copy(update={"ledger": ledger})
    return profile


def preset_profile(preset: PresetProfile, policy: Policy) -> Profile:
    """The production profile a preset describes (its ledger: the policy's team database
    when it sets one). Raises :class:`PolicyError` for a name that cannot be a profile's."""
    field = f"Profiles\\{preset.name}"
    source = policy.where.get(preset.source, preset.source)
    try:
        validate_profile_name(preset.name)
    except ProfileNameError as error:
        raise PolicyError(
            "policy.profile_name", field=field, source=source, name=preset.name, rule=error.reason
        ) from None
    apis = {
        api: ApiProfile(
            base_url=settings.base_url,
            client_id=settings.client_id,
            pfx_path=settings.pfx_path,
            ca_file=settings.ca_file,
        )
        for api, settings in (("qrcodes", preset.qrcodes), ("accounts", preset.accounts))
    }
    ledger = (
        LedgerLocation(location="team", team=policy_team(policy.team_database))
        if policy.team_database is not None
        else LedgerLocation()
    )
    try:
        return Profile(
            name=preset.name,
            environment="production",
            qrcodes=apis["qrcodes"],
            accounts=apis["accounts"],
            pix_keys=preset.pix_keys,
            ledger=ledger,
        )
    except ValidationError as error:
        raise PolicyError(
            "policy.profile_invalid",
            field=field,
            source=source,
            name=preset.name,
            reason=_short_validation_message(error),
        ) from None


# --------------------------------------------------------------------------------------------
# Profile files


class ProfileStore:
    """Profiles saved as ``<config dir>/profiles/<name>.json`` (mode 0600, replaced atomically),
    and the preset profiles of the machine ``policy`` (never written: read-only, they hide a
    file of the same name). Where the policy turns the sandbox off, sandbox profiles are neither
    listed nor opened; a loaded profile gets what the policy locks (:func:`apply_policy`)."""

    def __init__(self, paths: AppPaths, policy: Policy | None = None) -> None:
        self.paths = paths
        self.directory = paths.config_dir / "profiles"
        self.policy = policy if policy is not None else Policy()
        self._presets: dict[str, Profile] | None = None

    def presets(self) -> dict[str, Profile]:
        """The policy's preset profiles by name. Raises :class:`PolicyError` for a preset that
        cannot be a profile (checked at start-up, before anything is shown)."""
        if self._presets is None:
            self._presets = {
                preset.name: preset_profile(preset, self.policy) for preset in self.policy.profiles
            }
        return self._presets

    def is_preset(self, name: str) -> bool:
        """Whether ``name`` is a preset profile of the policy (read-only)."""
        return self.policy.preset(name) is not None

    def _preset(self, name: str) -> Profile | None:
        preset = self.policy.preset(name)
        return self.presets()[preset.name] if preset is not None else None

    def _refused_by_policy(self, path: Path) -> bool:
        """A sandbox profile's file, where the policy turns the sandbox off."""
        if not self.policy.sandbox_disabled:
            return False
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(path.read_text("utf-8"))
            return isinstance(data, dict) and data.get("environment") != "production"
        return False

    def path_for(self, name: str) -> Path:
        """The file of the profile ``name`` (validated first)."""
        return self.directory / f"{validate_profile_name(name)}.json"

    def list(self) -> list[str]:
        """The names of the preset and saved profiles, sorted case-insensitively."""
        names = list(self.presets())
        if self.directory.is_dir():
            for path in self.directory.glob("*.json"):
                with contextlib.suppress(ProfileNameError):
                    name = validate_profile_name(path.stem)
                    if not self.is_preset(name) and not self._refused_by_policy(path):
                        names.append(name)
        return sorted(names, key=lambda name: (name.casefold(), name))

    def exists(self, name: str) -> bool:
        """Whether a profile named ``name`` exists (preset, or a file)."""
        return self.is_preset(name) or self.path_for(name).is_file()

    def load(self, name: str) -> Profile:
        """Read one profile. Raises :class:`ProfileNotFound` or :class:`ProfileCorrupt`, and
        :class:`PolicyRefusal` for a sandbox profile where the policy turns the sandbox off."""
        preset = self._preset(name)
        if preset is not None:
            return preset
        profile = self._load_file(name)
        if self.policy.sandbox_disabled and profile.environment != "production":
            raise PolicyRefusal("policy.sandbox_disabled", name=name)
        return apply_policy(profile, self.policy)

    def check_save(self, profile: Profile) -> None:
        """Raise :class:`PolicyRefusal` when the policy forbids saving ``profile`` (a preset, a
        sandbox profile where the sandbox is off, a new profile where profiles are locked)."""
        if self.is_preset(profile.name):
            raise PolicyRefusal("policy.preset_read_only", name=profile.name)
        if self.policy.sandbox_disabled and profile.environment != "production":
            raise PolicyRefusal("policy.sandbox_disabled", name=profile.name)
        if self.policy.is_locked("Profiles"):
            raise PolicyRefusal("policy.profiles_locked", name=profile.name)

    def _load_file(self, name: str) -> Profile:
        path = self.path_for(name)
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise ProfileNotFound("profile.not_found", name=name) from None
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or type(error).__name__
            raise ProfileCorrupt("profile.file_unreadable", path=str(path), reason=reason) from None
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ProfileCorrupt(
                "profile.file_not_json", path=str(path), reason=str(error)
            ) from None
        if not isinstance(data, dict):
            raise ProfileCorrupt("profile.file_not_profile", path=str(path))
        try:
            profile = Profile.model_validate(data)
        except ValidationError as error:
            raise ProfileCorrupt(
                "profile.file_invalid", path=str(path), reason=_short_validation_message(error)
            ) from None
        if profile.name != name:
            raise ProfileCorrupt("profile.file_renamed", path=str(path), name=profile.name)
        return profile

    async def save(self, profile: Profile, *, audit: AuditStore | None = None) -> Profile:
        """Write ``profile`` (``updated_at`` set to now, ``created_at`` kept from an existing
        file) and return what was written. Records ``profile.save`` in ``audit`` when given."""
        path = self.path_for(profile.name)
        created = not path.is_file()
        self.check_save(profile)
        profile = apply_policy(profile, self.policy)
        created_at = profile.created_at
        if not created:
            with contextlib.suppress(ProfileError):
                created_at = min(created_at, self._load_file(profile.name).created_at)
        saved = profile.model_copy(update={"created_at": created_at, "updated_at": _now()})
        # The default proxy and ledger (this computer) are left out: such a file stays
        # readable by earlier versions.
        defaults = {
            name
            for name, default in (
                ("proxy", ProxySetting()),
                ("ledger", LedgerLocation()),
                ("schedule", ScheduleProfile()),
            )
            if getattr(saved, name) == default
        }
        text = saved.model_dump_json(indent=2, exclude=defaults or None)
        text += "\n"
        _write_atomically(path, text.encode("utf-8"))
        log.info("profile %r saved", saved.name)
        if audit is not None:
            await audit.record(
                "profile.save",
                "created" if created else "updated",
                reference=saved.name,
                details=saved.audit_details(),
            )
        return saved

    async def delete(self, name: str, *, audit: AuditStore | None = None) -> None:
        """Remove the profile file (its ledger and keyring entries are left alone).
        Raises :class:`ProfileNotFound` (or :class:`PolicyRefusal` for a preset); records
        ``profile.delete`` in ``audit`` when given."""
        if self.is_preset(name):
            raise PolicyRefusal("policy.preset_read_only", name=name)
        path = self.path_for(name)
        try:
            path.unlink()
        except FileNotFoundError:
            raise ProfileNotFound("profile.not_found", name=name) from None
        log.info("profile %r deleted", name)
        if audit is not None:
            await audit.record("profile.delete", "ok", reference=name)


def _write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to a 0600 temporary file beside ``path``, sync it, rename it over."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            os.chmod(temporary, 0o600)  # mkstemp creates 0600 already; be explicit
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable (not on Windows)
        directory = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


# --------------------------------------------------------------------------------------------
# The sandbox profile


@dataclass(frozen=True)
class SandboxSecrets:
    """The sandbox's own test credentials: never written into the profile file."""

    client_secrets: Mapping[ApiName, str] = field(repr=False)
    pfx_passwords: Mapping[ApiName, str] = field(repr=False)


def _read_json_object(path: Path, what: str) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ProfileError("profile.sandbox_file_missing", path=str(path)) from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ProfileError(
            "profile.sandbox_file_unreadable", path=str(path), reason=reason
        ) from None
    if not isinstance(data, dict):
        raise ProfileError("profile.sandbox_file_not_object", path=str(path))
    return data


def sandbox_profile(ready_file: Path) -> tuple[Profile, SandboxSecrets]:
    """The profile named ``"Sandbox"`` for a running sandbox bank, from the ready file it wrote
    (``--ready-file``) and the credentials file it names; its secrets come back separately."""
    ready = _read_json_object(Path(ready_file), "ready file")
    try:
        credentials_file = Path(ready["credentials_file"])
        urls: dict[ApiName, str] = {
            "qrcodes": ready["qrcodes_url"],
            "accounts": ready["accounts_url"],
        }
        ca_file = Path(ready["ca_file"])
    except KeyError as missing:
        raise ProfileError(
            "profile.sandbox_file_lacks", path=str(ready_file), missing=str(missing)
        ) from None
    credentials = _read_json_object(credentials_file, "credentials file")
    apis: dict[ApiName, ApiProfile] = {}
    client_secrets: dict[ApiName, str] = {}
    pfx_passwords: dict[ApiName, str] = {}
    try:
        for api in APIS:
            entry = credentials[api]
            apis[api] = ApiProfile(
                base_url=urls[api],
                client_id=entry["client_id"],
                pfx_path=Path(entry["pfx"]),
                ca_file=ca_file,
            )
            client_secrets[api] = str(entry["client_secret"])
            pfx_passwords[api] = str(entry["pfx_password"])
    except KeyError as missing:
        raise ProfileError(
            "profile.sandbox_file_lacks", path=str(credentials_file), missing=str(missing)
        ) from None
    except (TypeError, ValidationError):
        raise ProfileError("profile.sandbox_file_form", path=str(credentials_file)) from None
    profile = Profile(
        name=SANDBOX_PROFILE_NAME,
        environment="sandbox",
        qrcodes=apis["qrcodes"],
        accounts=apis["accounts"],
        pix_keys=tuple(str(key) for key in ready.get("pix_keys", ())),
    )
    return profile, SandboxSecrets(client_secrets, pfx_passwords)


_MOVED = {
    "endpoints": (
        "ENDPOINT_CONFIRM_ACTION",
        "CaCertificate",
        "ConfirmedIn",
        "Endpoint",
        "EndpointChange",
        "EndpointConfirmations",
        "endpoint_changes",
        "endpoint_of",
        "host_of",
        "read_ca_certificates",
    ),
    "secret_store": ("SecretStore", "keyring_unavailable_reason"),
}


def __getattr__(name: str) -> Any:
    """The names that moved to :mod:`~treasury_app.services.endpoints` and
    :mod:`~treasury_app.services.secret_store`, still importable from here (loaded when first
    asked for: the keyring is not loaded with the profiles)."""
    import importlib

    for module, names in _MOVED.items():
        if name in names:
            return getattr(importlib.import_module(f"treasury_app.services.{module}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
