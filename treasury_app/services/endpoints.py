"""Confirmed bank addresses and CAs of production profiles.

What the person last confirmed (:class:`EndpointConfirmations`) is kept in the data folder,
which an edit of the profile file does not touch: :func:`endpoint_changes` says what differs, so
that nothing is sent to a new server before someone has seen its host and the SHA-256
fingerprint of each certificate of its CA file.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.x509.oid import NameOID

from treasury_app.api.tokens import ApiName
from treasury_app.config import AppPaths
from treasury_app.ledger import open_ledger
from treasury_app.ledger.stores import AuditStore
from treasury_app.services.profiles import (
    APIS,
    ApiProfile,
    CaFileError,
    Profile,
    _now,
    _write_atomically,
    validate_profile_name,
)

log = logging.getLogger("treasury_app.services.profiles")
_PEM_LABEL = re.compile(rb"-----BEGIN ([A-Z0-9 ]+)-----")


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


def _loopback(url: str) -> bool:
    host = (urlsplit(url).hostname or "").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def host_of(url: str) -> str:
    """``host`` or ``host:port`` of an address (lower case; IPv6 hosts in brackets). A host
    in another script is shown as it goes on the wire (``xn--…``): a look-alike letter (a
    Cyrillic "а" in a bank's name) cannot pass for the real host."""
    parts = urlsplit(url)
    host = parts.hostname or url
    if not host.isascii():
        with contextlib.suppress(UnicodeError):
            host = host.encode("idna").decode("ascii")
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
    path = path.expanduser()
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise CaFileError("ca_file.missing", api=api, path=str(path)) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise CaFileError("ca_file.unreadable", api=api, path=str(path), reason=reason) from None
    others = sorted(set(_PEM_LABEL.findall(data)) - {b"CERTIFICATE"})
    if others:
        # ssl would trust a "TRUSTED CERTIFICATE" block that x509 skips: nothing may be
        # trusted that is not shown (and fingerprinted) here.
        raise CaFileError(
            "ca_file.other_block",
            api=api,
            path=str(path),
            blocks=", ".join(o.decode("ascii", "replace") for o in others),
        )
    try:
        certificates = x509.load_pem_x509_certificates(data)
    except ValueError:
        raise CaFileError("ca_file.no_certificate", api=api, path=str(path)) from None
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
    confirmed is exempt when every address is this computer's (the embedded sandbox bank);
    one confirmed before stays checked, and a "sandbox" whose bank is elsewhere is checked
    like any other, or an edit of a file to "sandbox" would skip the check. Raises
    :class:`CaFileError`."""
    if (
        profile.environment == "sandbox"
        and not confirmed
        and all(_loopback(profile.api(api).base_url) for api in APIS)
    ):
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

    async def confirm(
        self,
        name: str,
        changes: tuple[EndpointChange, ...],
        *,
        confirmed_in: ConfirmedIn,
        audit: AuditStore | None = None,
    ) -> None:
        """Record that a person confirmed ``changes`` (exactly what was shown to them) for the
        profile ``name``: one audit row per API in ``audit``, or in the profile's ledger when
        none is open, then the record."""
        if not changes:
            return
        await self._audit(name, changes, "confirmed", confirmed_in, audit)
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

    async def decline(
        self,
        name: str,
        changes: tuple[EndpointChange, ...],
        *,
        audit: AuditStore | None = None,
    ) -> None:
        """Record (audit only) that a person refused ``changes`` found at unlock."""
        if changes:
            await self._audit(name, changes, "declined", "unlock", audit)
            log.warning("changed endpoints of profile %r declined at unlock", name)

    async def _audit(
        self,
        name: str,
        changes: tuple[EndpointChange, ...],
        outcome: str,
        confirmed_in: ConfirmedIn,
        audit: AuditStore | None,
    ) -> None:
        if audit is not None:
            for change in changes:
                details = {**change.audit_details(), "confirmed_in": confirmed_in}
                await audit.record(
                    ENDPOINT_CONFIRM_ACTION, outcome, reference=name, details=details
                )
            return
        # Imported here: the session module imports this one.
        from treasury_app.services.session import ledger_path

        ledger = open_ledger(ledger_path(self.paths, name), profile=name)
        try:
            await self._audit(name, changes, outcome, confirmed_in, ledger.audit)
        finally:
            await ledger.close()
