"""Client certificates (``.pfx`` bundles) and the TLS contexts built from them.

The bundle is decrypted in memory with ``cryptography``. To hand the key to :mod:`ssl` it is
written as PEM *encrypted with a random one-time passphrase* to a 0600 temporary file that is
deleted at once: the private key never touches the disk in plain text. Server verification is
always on: the sandbox's CA file for the sandbox, the operating system's store (``truststore``)
or a configured CA bundle for real banks.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import ssl
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from cryptography.hazmat.primitives.serialization import pkcs12

EXPIRY_WARNING_DAYS = 30


class CertificateError(ValueError):
    """A client certificate bundle cannot be used. The message can be shown as is."""


class PfxNotFound(CertificateError):
    pass


class PfxPasswordError(CertificateError):
    pass


class PfxFormatError(CertificateError):
    pass


class CertificateExpired(CertificateError):
    def __init__(self, message: str, *, subject: str, not_after: datetime) -> None:
        super().__init__(message)
        self.subject = subject
        self.not_after = not_after


class CertificateNotYetValid(CertificateError):
    def __init__(self, message: str, *, subject: str, not_before: datetime) -> None:
        super().__init__(message)
        self.subject = subject
        self.not_before = not_before


@dataclass(frozen=True)
class Trust:
    """Which authorities may sign the bank's server certificate."""

    kind: Literal["system", "bundle"]
    ca_file: Path | None = None

    @classmethod
    def system(cls) -> Trust:
        """The operating system's trust store (through ``truststore``)."""
        return cls("system")

    @classmethod
    def bundle(cls, ca_file: Path | str) -> Trust:
        """A PEM file of CA certificates (the sandbox's ``ca.crt``, a bank's chain)."""
        return cls("bundle", Path(ca_file))

    def base_context(self) -> ssl.SSLContext:
        if self.kind == "system":
            import truststore

            context: ssl.SSLContext = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
        else:
            assert self.ca_file is not None
            if not self.ca_file.is_file():
                raise CertificateError(f"The CA file {self.ca_file} does not exist.")
            context = ssl.create_default_context(cadata=_plain_certificates(self.ca_file))
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.check_hostname = True
        context.verify_mode = ssl.CERT_REQUIRED
        return context


def _plain_certificates(path: Path) -> bytes:
    """The DER of the plain ``CERTIFICATE`` blocks of a PEM file, and nothing else: ``ssl``
    given the file itself would also trust ``TRUSTED CERTIFICATE`` blocks, which the
    confirmation of a bank's CA (its certificates' fingerprints) does not show."""
    try:
        certificates = x509.load_pem_x509_certificates(path.read_bytes())
    except (OSError, ValueError) as error:
        raise CertificateError(f"The CA file {path} holds no usable certificate.") from error
    return b"".join(c.public_bytes(serialization.Encoding.DER) for c in certificates)


PrivateKey = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey


@dataclass(frozen=True, repr=False)
class ClientIdentity:
    """A decrypted client certificate: private key, certificate and its chain."""

    private_key: PrivateKey = field(compare=False)
    certificate: x509.Certificate
    chain: tuple[x509.Certificate, ...] = ()

    def __repr__(self) -> str:  # never the key
        return f"ClientIdentity(subject={self.subject!r}, not_after={self.not_after:%Y-%m-%d})"

    @property
    def subject(self) -> str:
        return self.certificate.subject.rfc4514_string()

    @property
    def issuer(self) -> str:
        return self.certificate.issuer.rfc4514_string()

    @property
    def not_before(self) -> datetime:
        return self.certificate.not_valid_before_utc

    @property
    def not_after(self) -> datetime:
        return self.certificate.not_valid_after_utc

    @property
    def fingerprint(self) -> str:
        """SHA-256 of the certificate, as colon-separated upper-case hex."""
        return self.certificate.fingerprint(hashes.SHA256()).hex(":").upper()

    @property
    def common_name(self) -> str:
        names = self.certificate.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
        return str(names[0].value) if names else ""

    def days_left(self, now: datetime | None = None) -> int:
        return (self.not_after - (now or datetime.now(UTC))).days

    def expiry_warning(
        self, now: datetime | None = None, *, days: int = EXPIRY_WARNING_DAYS
    ) -> str | None:
        """A sentence for the UI when the certificate expires within ``days``; else ``None``."""
        now = now or datetime.now(UTC)
        if self.not_after - now > timedelta(days=days):
            return None
        left = self.days_left(now)
        when = self.not_after.strftime("%Y-%m-%d")
        if left <= 0:
            return f"The client certificate {self.common_name!r} expires today ({when})."
        return (
            f"The client certificate {self.common_name!r} expires in {left} day"
            f"{'s' if left != 1 else ''} ({when}). Ask the bank for a new one."
        )

    def ssl_context(self, trust: Trust) -> ssl.SSLContext:
        """A client context presenting this certificate and verifying the server by ``trust``."""
        context = trust.base_context()
        load_identity_into(context, self)
        return context


def load_identity_into(context: ssl.SSLContext, identity: ClientIdentity) -> None:
    """Give ``context`` the certificate chain and key, through an encrypted temporary PEM."""
    passphrase = secrets.token_urlsafe(32)
    pem_key = identity.private_key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(passphrase.encode()),
    )
    pem_chain = b"".join(
        cert.public_bytes(serialization.Encoding.PEM)
        for cert in (identity.certificate, *identity.chain)
    )
    fd, name = tempfile.mkstemp(prefix="treasury-", suffix=".pem")  # created 0600
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(pem_chain + pem_key)
        context.load_cert_chain(name, password=passphrase)
    finally:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name)


def load_pfx(path: Path | str, password: str, *, now: datetime | None = None) -> ClientIdentity:
    """Decrypt a ``.pfx`` bundle in memory.

    Raises :class:`PfxNotFound`, :class:`PfxPasswordError` (the file is a PKCS#12 bundle but
    the password does not open it), :class:`PfxFormatError` (not a PKCS#12 bundle, or no key
    or certificate inside), :class:`CertificateExpired`, :class:`CertificateNotYetValid`.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise PfxNotFound(f"The certificate file {path} does not exist.") from None
    except OSError as error:
        raise PfxFormatError(
            f"The certificate file {path} cannot be read: {error.strerror}."
        ) from None
    try:
        key, cert, chain = pkcs12.load_key_and_certificates(data, password.encode("utf-8"))
    except ValueError:
        if _looks_like_pfx(data):
            raise PfxPasswordError(
                f"The password does not open the certificate file {path.name}."
            ) from None
        raise PfxFormatError(
            f"{path.name} is not a PKCS#12 (.pfx/.p12) certificate file."
        ) from None
    if key is None or cert is None:
        raise PfxFormatError(f"{path.name} does not contain both a private key and a certificate.")
    if not isinstance(key, rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey):
        raise PfxFormatError(f"{path.name} holds a key type TLS clients here cannot use.")
    identity = ClientIdentity(key, cert, tuple(chain or ()))
    check_validity(identity, now=now)
    return identity


def check_validity(identity: ClientIdentity, *, now: datetime | None = None) -> None:
    now = now or datetime.now(UTC)
    if identity.not_after <= now:
        raise CertificateExpired(
            f"The client certificate {identity.common_name!r} expired on "
            f"{identity.not_after:%Y-%m-%d}. Ask the bank for a new one.",
            subject=identity.subject,
            not_after=identity.not_after,
        )
    if identity.not_before > now:
        raise CertificateNotYetValid(
            f"The client certificate {identity.common_name!r} is valid only from "
            f"{identity.not_before:%Y-%m-%d %H:%M} UTC. Check the computer's clock.",
            subject=identity.subject,
            not_before=identity.not_before,
        )


def _looks_like_pfx(data: bytes) -> bool:
    """Whether ``data`` is a DER ``PFX`` structure: SEQUENCE { INTEGER 3, SEQUENCE ... }."""
    try:
        tag, length, offset = _der_header(data, 0)
        if tag != 0x30 or offset + length != len(data):
            return False
        tag, length, inner = _der_header(data, offset)
        if tag != 0x02 or data[inner : inner + length] != b"\x03":
            return False
        tag, _, _ = _der_header(data, inner + length)
        return tag == 0x30
    except IndexError:
        return False


def _der_header(data: bytes, offset: int) -> tuple[int, int, int]:
    tag = data[offset]
    first = data[offset + 1]
    if first < 0x80:
        return tag, first, offset + 2
    count = first & 0x7F
    if count == 0 or count > 4:
        raise IndexError("indefinite or huge length")
    length = int.from_bytes(data[offset + 2 : offset + 2 + count], "big")
    if len(data[offset + 2 : offset + 2 + count]) != count:
        raise IndexError("truncated")
    return tag, length, offset + 2 + count
