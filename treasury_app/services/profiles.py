"""Connection profiles (one JSON file each) and the client secrets kept in the system keyring.

A profile names, per API, the bank's address, the client id, the ``.pfx`` file and which
authorities to trust; it never holds a secret. Client secrets live in the operating system's
keyring (service ``TreasuryApp``, user ``<profile>/<api>``) when there is one, and are asked
for at unlock otherwise. ``.pfx`` passwords are never stored anywhere.

A production profile's bank addresses and CA files are also recorded as the person last
confirmed them (:class:`EndpointConfirmations`, in the data folder, which an edit of the
profile file does not touch): :func:`endpoint_changes` says what differs, so that nothing is
sent to a new server before someone has seen its host and its CA's fingerprint.
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
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import keyring
import keyring.backend
import keyring.errors
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID
from keyring.backends import chainer as keyring_chainer
from keyring.backends import fail as keyring_fail
from keyring.backends import null as keyring_null
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from treasury_app.api.tls import Trust
from treasury_app.api.tokens import ApiName
from treasury_app.api.transport import Timeouts
from treasury_app.config import AppPaths
from treasury_app.ledger import open_ledger
from treasury_app.ledger.audit import Audit

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


# --------------------------------------------------------------------------------------------
# Errors


class ProfileError(ValueError):
    """A profile cannot be used, saved or found. The message can be shown as is."""


class ProfileNameError(ProfileError):
    """The name cannot be a profile name (and so a file name)."""


class ProfileNotFound(ProfileError):
    """No profile file has this name."""


class ProfileCorrupt(ProfileError):
    """A profile file exists but is not a valid profile."""


class CaFileError(ProfileError):
    """An API's CA file cannot be read as PEM certificates (so it cannot be confirmed)."""

    def __init__(self, api: ApiName, message: str) -> None:
        super().__init__(message)
        self.api: ApiName = api


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
        raise ProfileNameError("A profile needs a name.")
    if len(name) > NAME_MAX_LENGTH:
        raise ProfileNameError(f"A profile name has at most {NAME_MAX_LENGTH} characters.")
    if name != name.strip():
        raise ProfileNameError("A profile name cannot start or end with a space.")
    if not _NAME_PATTERN.fullmatch(name):
        raise ProfileNameError(
            f"The profile name {name!r} may contain only letters, digits, spaces, '-' and '_'."
        )
    if name.lower() in _WINDOWS_DEVICES:
        raise ProfileNameError(f"{name!r} is reserved by Windows and cannot name a profile.")
    return name


def _now() -> datetime:
    return datetime.now(UTC)


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
        value = value.strip()
        if not value.lower().startswith("https://") or len(value) <= len("https://"):
            raise ValueError("the address must be an https:// address")
        return value.rstrip("/")

    @field_validator("client_id")
    @classmethod
    def _stripped(cls, value: str) -> str:
        value = value.strip()
        if not value:
            raise ValueError("the client id cannot be empty")
        return value

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


class Profile(BaseModel):
    """A named connection to one bank: both APIs, timeouts, and when it was made."""

    model_config = ConfigDict(frozen=True, extra="forbid")

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
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)

    @field_validator("pix_keys")
    @classmethod
    def _valid_keys(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        keys: list[str] = []
        for raw in value:
            key = raw.strip()
            if not key or len(key) > 77:
                raise ValueError(f"{raw!r} is not a Pix key (1 to 77 characters).")
            if key not in keys:
                keys.append(key)
        return tuple(keys)

    @field_validator("name")
    @classmethod
    def _valid_name(cls, value: str) -> str:
        try:
            return validate_profile_name(value)
        except ProfileNameError as error:
            raise ValueError(str(error)) from None

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
        }


def _short_validation_message(error: ValidationError) -> str:
    parts = []
    for item in error.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in item["loc"]) or "profile"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


# --------------------------------------------------------------------------------------------
# Profile files


class ProfileStore:
    """Profiles saved as ``<config dir>/profiles/<name>.json`` (mode 0600, replaced atomically)."""

    def __init__(self, paths: AppPaths) -> None:
        self.paths = paths
        self.directory = paths.config_dir / "profiles"

    def path_for(self, name: str) -> Path:
        """The file of the profile ``name`` (validated first)."""
        return self.directory / f"{validate_profile_name(name)}.json"

    def list(self) -> list[str]:
        """The names of the saved profiles, sorted case-insensitively."""
        if not self.directory.is_dir():
            return []
        names = []
        for path in self.directory.glob("*.json"):
            with contextlib.suppress(ProfileNameError):
                names.append(validate_profile_name(path.stem))
        return sorted(names, key=lambda name: (name.casefold(), name))

    def exists(self, name: str) -> bool:
        """Whether a profile file named ``name`` exists."""
        return self.path_for(name).is_file()

    def load(self, name: str) -> Profile:
        """Read one profile. Raises :class:`ProfileNotFound` or :class:`ProfileCorrupt`."""
        path = self.path_for(name)
        try:
            text = path.read_text("utf-8")
        except FileNotFoundError:
            raise ProfileNotFound(f"There is no profile named {name!r}.") from None
        except (OSError, UnicodeDecodeError) as error:
            reason = getattr(error, "strerror", None) or type(error).__name__
            raise ProfileCorrupt(f"The profile file {path} cannot be read: {reason}.") from None
        try:
            data = json.loads(text)
        except ValueError as error:
            raise ProfileCorrupt(f"The profile file {path} is not valid JSON: {error}.") from None
        if not isinstance(data, dict):
            raise ProfileCorrupt(f"The profile file {path} does not hold a profile.")
        try:
            profile = Profile.model_validate(data)
        except ValidationError as error:
            raise ProfileCorrupt(
                f"The profile file {path} is not a valid profile: "
                f"{_short_validation_message(error)}."
            ) from None
        if profile.name != name:
            raise ProfileCorrupt(
                f"The profile file {path} is named {profile.name!r} inside; rename the file "
                "back or recreate the profile."
            )
        return profile

    def save(self, profile: Profile, *, audit: Audit | None = None) -> Profile:
        """Write ``profile`` (``updated_at`` set to now, ``created_at`` kept from an existing
        file) and return what was written. Records ``profile.save`` in ``audit`` when given."""
        path = self.path_for(profile.name)
        created = not path.is_file()
        created_at = profile.created_at
        if not created:
            with contextlib.suppress(ProfileError):
                created_at = min(created_at, self.load(profile.name).created_at)
        saved = profile.model_copy(update={"created_at": created_at, "updated_at": _now()})
        text = saved.model_dump_json(indent=2) + "\n"
        _write_atomically(path, text.encode("utf-8"))
        log.info("profile %r saved", saved.name)
        if audit is not None:
            audit.record(
                "profile.save",
                "created" if created else "updated",
                reference=saved.name,
                details=saved.audit_details(),
            )
        return saved

    def delete(self, name: str, *, audit: Audit | None = None) -> None:
        """Remove the profile file (its ledger and keyring entries are left alone).
        Raises :class:`ProfileNotFound`; records ``profile.delete`` in ``audit`` when given."""
        path = self.path_for(name)
        try:
            path.unlink()
        except FileNotFoundError:
            raise ProfileNotFound(f"There is no profile named {name!r}.") from None
        log.info("profile %r deleted", name)
        if audit is not None:
            audit.record("profile.delete", "ok", reference=name)


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
# Confirmed bank addresses and CAs

ENDPOINT_CONFIRM_ACTION = "profile.endpoints.confirm"
ConfirmedIn = Literal["profile dialog", "unlock"]


@dataclass(frozen=True)
class CaCertificate:
    """One certificate of a CA file: whom it names and its SHA-256 fingerprint."""

    subject: str
    sha256: str  # colon-separated upper-case hex, as ``openssl x509 -fingerprint -sha256``


@dataclass(frozen=True)
class Endpoint:
    """Where one API is reached and which authorities vouch for its server."""

    base_url: str
    ca_file: str | None = None  # None: the operating system's trust store
    ca_certificates: tuple[CaCertificate, ...] = ()

    @property
    def host(self) -> str:
        """The host (and port, when one is given) of :attr:`base_url`."""
        return host_of(self.base_url)

    def fingerprints(self) -> frozenset[str]:
        """The SHA-256 fingerprints of the CA file's certificates (none: the trust store)."""
        return frozenset(certificate.sha256 for certificate in self.ca_certificates)

    def same_authorities(self, other: Endpoint) -> bool:
        """Whether both trust the same authorities (a CA file moved but unchanged does)."""
        return (self.ca_file is None) == (other.ca_file is None) and (
            self.fingerprints() == other.fingerprints()
        )

    def same_as(self, other: Endpoint) -> bool:
        """Same address and same authorities."""
        return self.base_url == other.base_url and self.same_authorities(other)

    def to_json(self) -> dict[str, Any]:
        return {
            "base_url": self.base_url,
            "ca_file": self.ca_file,
            "ca_certificates": [
                {"subject": certificate.subject, "sha256": certificate.sha256}
                for certificate in self.ca_certificates
            ],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Endpoint:
        ca_file = data.get("ca_file")
        return cls(
            base_url=str(data["base_url"]),
            ca_file=None if ca_file is None else str(ca_file),
            ca_certificates=tuple(
                CaCertificate(str(item["subject"]), str(item["sha256"]))
                for item in data.get("ca_certificates", ())
            ),
        )


@dataclass(frozen=True)
class EndpointChange:
    """One API whose address or CA differs from what was last confirmed."""

    api: ApiName
    old: Endpoint | None  # None: never confirmed on this computer
    new: Endpoint

    @property
    def old_host(self) -> str | None:
        return None if self.old is None else self.old.host

    @property
    def new_host(self) -> str:
        return self.new.host

    @property
    def ca_changed(self) -> bool:
        """Whether the trusted authorities differ (always, for a first confirmation)."""
        return self.old is None or not self.old.same_authorities(self.new)

    def audit_details(self) -> dict[str, Any]:
        """What an audit row says about this change (addresses and fingerprints only)."""
        return {
            "api": self.api,
            "old_host": self.old_host,
            "new_host": self.new_host,
            "old_base_url": None if self.old is None else self.old.base_url,
            "new_base_url": self.new.base_url,
            "ca": self.new.ca_file or "system trust store",
            "ca_sha256": [certificate.sha256 for certificate in self.new.ca_certificates],
            "ca_changed": self.ca_changed,
        }


def host_of(url: str) -> str:
    """``host`` or ``host:port`` of an address (lower case; IPv6 hosts in brackets)."""
    parts = urlsplit(url)
    host = parts.hostname or url
    if ":" in host:
        host = f"[{host}]"
    try:
        port = parts.port
    except ValueError:
        port = None
    return f"{host}:{port}" if port is not None else host


def _subject(certificate: x509.Certificate) -> str:
    names = certificate.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    if names:
        return str(names[0].value)
    return certificate.subject.rfc4514_string()


def read_ca_certificates(path: Path, api: ApiName) -> tuple[CaCertificate, ...]:
    """The certificates of the PEM file ``path`` (``api``'s CA file), each with its SHA-256
    fingerprint. Raises :class:`CaFileError` when the file is missing, unreadable or holds no
    PEM certificate."""
    label = API_LABELS[api]
    path = path.expanduser()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CaFileError(api, f"The CA file {path} of the {label} API does not exist.") from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise CaFileError(
            api, f"The CA file {path} of the {label} API cannot be read: {reason}."
        ) from None
    try:
        certificates = x509.load_pem_x509_certificates(data)
    except ValueError:
        raise CaFileError(
            api, f"The CA file {path} of the {label} API holds no PEM certificate."
        ) from None
    return tuple(
        CaCertificate(
            _subject(certificate), certificate.fingerprint(hashes.SHA256()).hex(":").upper()
        )
        for certificate in certificates
    )


def endpoint_of(settings: ApiProfile, api: ApiName) -> Endpoint:
    """The address and authorities ``settings`` name (its CA file is read now)."""
    if settings.ca_file is None:
        return Endpoint(settings.base_url)
    path = settings.ca_file.expanduser()
    return Endpoint(settings.base_url, str(path), read_ca_certificates(path, api))


def endpoint_changes(
    profile: Profile, confirmed: Mapping[ApiName, Endpoint]
) -> tuple[EndpointChange, ...]:
    """The APIs of ``profile`` whose address or CA differ from ``confirmed`` (the last
    confirmed ones; an API absent from it was never confirmed). A sandbox profile never
    confirmed is exempt; one confirmed before (as production) stays checked, or an edit of
    its file to "sandbox" would skip the check. Raises :class:`CaFileError`."""
    if profile.environment == "sandbox" and not confirmed:
        return ()
    changes = []
    for api in APIS:
        new = endpoint_of(profile.api(api), api)
        old = confirmed.get(api)
        if old is None or not old.same_as(new):
            changes.append(EndpointChange(api, old, new))
    return tuple(changes)


class EndpointConfirmations:
    """The bank addresses and CAs a person last confirmed, per profile and API:
    ``<data dir>/confirmed-endpoints/<profile>.json`` (0600, replaced atomically).

    They live apart from the profile files (the configuration folder, which may be copied
    between desktops), so that editing a profile file never confirms anything. Each
    confirmation is an audit row ``profile.endpoints.confirm`` in the profile's ledger.
    """

    def __init__(self, paths: AppPaths) -> None:
        self.paths = paths
        self.directory = paths.data_dir / "confirmed-endpoints"

    def path_for(self, name: str) -> Path:
        return self.directory / f"{validate_profile_name(name)}.json"

    def confirmed(self, name: str) -> dict[ApiName, Endpoint]:
        """What was last confirmed for the profile ``name`` (empty: nothing yet). A record
        that cannot be read counts as none: everything is asked again."""
        path = self.path_for(name)
        try:
            data = json.loads(path.read_text("utf-8"))
            apis = data["apis"]
            return {api: Endpoint.from_json(apis[api]) for api in APIS if api in apis}
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as error:
            log.warning("confirmed endpoints of %r unreadable (%s)", name, type(error).__name__)
            return {}

    def pending(self, profile: Profile) -> tuple[EndpointChange, ...]:
        """:func:`endpoint_changes` of ``profile`` against its last confirmation."""
        return endpoint_changes(profile, self.confirmed(profile.name))

    def confirm(
        self,
        name: str,
        changes: tuple[EndpointChange, ...],
        *,
        confirmed_in: ConfirmedIn,
        audit: Audit | None = None,
    ) -> None:
        """Record that a person confirmed ``changes`` (exactly what was shown to them) for the
        profile ``name``: one audit row per API in ``audit``, or in the profile's ledger when
        none is open, then the record."""
        if not changes:
            return
        self._audit(name, changes, "confirmed", confirmed_in, audit)
        endpoints = self.confirmed(name)
        endpoints.update({change.api: change.new for change in changes})
        record = {
            "profile": name,
            "confirmed_at": _now().isoformat(),
            "apis": {api: endpoint.to_json() for api, endpoint in endpoints.items()},
        }
        text = json.dumps(record, indent=2, ensure_ascii=False) + "\n"
        _write_atomically(self.path_for(name), text.encode("utf-8"))
        log.info("endpoints of profile %r confirmed (%s)", name, ", ".join(c.api for c in changes))

    def decline(
        self, name: str, changes: tuple[EndpointChange, ...], *, audit: Audit | None = None
    ) -> None:
        """Record (audit only) that a person refused ``changes`` found at unlock."""
        if changes:
            self._audit(name, changes, "declined", "unlock", audit)
            log.warning("changed endpoints of profile %r declined at unlock", name)

    def _audit(
        self,
        name: str,
        changes: tuple[EndpointChange, ...],
        outcome: str,
        confirmed_in: ConfirmedIn,
        audit: Audit | None,
    ) -> None:
        if audit is not None:
            for change in changes:
                details = {**change.audit_details(), "confirmed_in": confirmed_in}
                audit.record(ENDPOINT_CONFIRM_ACTION, outcome, reference=name, details=details)
            return
        # Imported here: the session module imports this one.
        from treasury_app.services.session import ledger_path

        ledger = open_ledger(ledger_path(self.paths, name), profile=name)
        try:
            self._audit(name, changes, outcome, confirmed_in, ledger.audit)
        finally:
            ledger.close()


# --------------------------------------------------------------------------------------------
# Client secrets in the system keyring


def _plain_text(backend: keyring.backend.KeyringBackend) -> bool:
    """A backend that writes secrets in a readable file (keyrings.alt's plaintext one): no
    better than writing them ourselves, which the app never does."""
    kind = type(backend)
    return "plaintext" in kind.__name__.lower() or kind.__module__.startswith("keyrings.alt")


def _backend_usable(backend: keyring.backend.KeyringBackend) -> bool:
    if isinstance(backend, keyring_fail.Keyring | keyring_null.Keyring) or _plain_text(backend):
        return False
    if isinstance(backend, keyring_chainer.ChainerBackend):
        return any(_backend_usable(inner) for inner in backend.backends)
    return True


def keyring_unavailable_reason(backend: keyring.backend.KeyringBackend) -> str | None:
    """Why ``backend`` is not used for secrets (``None``: it is)."""
    if _backend_usable(backend):
        return None
    if _plain_text(backend):
        return (
            f"The keyring backend ({backend.name}) stores secrets in a plain-text file: client "
            "secrets are asked for at each unlock instead."
        )
    return "No system keyring was found: client secrets are asked for at each unlock."


class SecretStore:
    """Client secrets in the operating system's keyring, one entry per profile and API.

    When there is no usable keyring (keyring's ``fail`` or ``null`` backend, or the backend
    raises :class:`keyring.errors.KeyringError`), :attr:`available` is ``False``, :meth:`get`
    returns ``None`` and the unlock dialog asks for the secret each time.
    """

    def __init__(self, service: str = KEYRING_SERVICE) -> None:
        self.service = service
        self._failed = False

    @staticmethod
    def username(profile: str, api: ApiName) -> str:
        """The keyring user name of a profile's API: ``<profile>/<api>``."""
        if api not in APIS:
            raise ValueError(f"unknown API {api!r}")
        return f"{validate_profile_name(profile)}/{api}"

    @property
    def available(self) -> bool:
        """Whether secrets can be kept in the system keyring."""
        if self._failed:
            return False
        try:
            return _backend_usable(keyring.get_keyring())
        except keyring.errors.KeyringError:
            return False

    @property
    def unavailable_reason(self) -> str | None:
        """Why secrets are not kept in the keyring (``None`` when they are)."""
        if self._failed:
            return "The system keyring failed: client secrets are asked for at each unlock."
        try:
            return keyring_unavailable_reason(keyring.get_keyring())
        except keyring.errors.KeyringError:
            return "No system keyring was found: client secrets are asked for at each unlock."

    @property
    def backend_name(self) -> str:
        """The keyring backend's name, to tell the user where secrets are kept."""
        try:
            return str(keyring.get_keyring().name)
        except keyring.errors.KeyringError:
            return "none"

    def get(self, profile: str, api: ApiName) -> str | None:
        """The stored secret, or ``None`` (none stored, or no usable keyring)."""
        username = self.username(profile, api)
        if not self.available:
            return None
        try:
            value = keyring.get_password(self.service, username)
        except keyring.errors.KeyringError as error:
            self._unusable(error)
            return None
        return value or None

    def set(self, profile: str, api: ApiName, secret: str, *, audit: Audit | None = None) -> None:
        """Keep ``secret`` for the profile's API. Raises :class:`SecretStoreUnavailable` when
        there is no usable keyring; records ``profile.secret.set`` (never the value)."""
        username = self.username(profile, api)
        if not secret:
            raise ValueError("An empty client secret cannot be stored.")
        if not self.available:
            raise SecretStoreUnavailable(
                "There is no system keyring: the client secret will be asked for each time."
            )
        try:
            keyring.set_password(self.service, username, secret)
        except keyring.errors.KeyringError as error:
            self._unusable(error)
            raise SecretStoreUnavailable(
                f"The system keyring refused to store the client secret ({type(error).__name__})."
            ) from None
        log.info("client secret of %s stored in the keyring", username)
        if audit is not None:
            audit.record("profile.secret.set", "ok", reference=profile, details={"api": api})

    def delete(self, profile: str, api: ApiName, *, audit: Audit | None = None) -> bool:
        """Forget the profile's secret; ``True`` when one was removed. Records
        ``profile.secret.delete`` when one was."""
        username = self.username(profile, api)
        if not self.available:
            return False
        try:
            keyring.delete_password(self.service, username)
        except keyring.errors.PasswordDeleteError:
            return False
        except keyring.errors.KeyringError as error:
            self._unusable(error)
            return False
        log.info("client secret of %s removed from the keyring", username)
        if audit is not None:
            audit.record("profile.secret.delete", "ok", reference=profile, details={"api": api})
        return True

    def _unusable(self, error: keyring.errors.KeyringError) -> None:
        # The backend's message is not logged: some backends echo what they were given.
        log.warning("system keyring unusable (%s); secrets will be asked for", type(error).__name__)
        self._failed = True


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
        raise ProfileError(f"The sandbox's {what} {path} does not exist.") from None
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise ProfileError(f"The sandbox's {what} {path} cannot be read: {reason}.") from None
    if not isinstance(data, dict):
        raise ProfileError(f"The sandbox's {what} {path} does not hold a JSON object.")
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
        raise ProfileError(f"The sandbox's ready file {ready_file} lacks {missing}.") from None
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
            f"The sandbox's credentials file {credentials_file} lacks {missing}."
        ) from None
    except (TypeError, ValidationError):
        raise ProfileError(
            f"The sandbox's credentials file {credentials_file} is not in the expected form."
        ) from None
    profile = Profile(
        name=SANDBOX_PROFILE_NAME,
        environment="sandbox",
        qrcodes=apis["qrcodes"],
        accounts=apis["accounts"],
        pix_keys=tuple(str(key) for key in ready.get("pix_keys", ())),
    )
    return profile, SandboxSecrets(client_secrets, pfx_passwords)
