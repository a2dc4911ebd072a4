"""Certificates and credentials of the sandbox bank, created once per data directory.

A root CA signs the servers' certificate (the app trusts ``ca.crt``). Each API has its own
client CA, so a client certificate of one API fails the TLS handshake on the other (rule 1 of
the specification); each client certificate is delivered as the bank delivers it: ``.crt``,
``.key``, ``.csr`` and a password-protected ``.pfx``.
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from treasury_app.private_files import make_private_dir

APIS: tuple[str, ...] = ("qrcodes", "accounts")
API_TITLES = {"qrcodes": "QR Codes API", "accounts": "Accounts API"}
ORGANIZATION = "Sandbox Bank"
CERT_DAYS = 825


@dataclass(frozen=True)
class Issuer:
    """A CA able to sign certificates."""

    key: rsa.RSAPrivateKey
    cert: x509.Certificate


@dataclass(frozen=True)
class SandboxPki:
    """Paths of everything the sandbox's servers and clients need."""

    directory: Path
    ca_file: Path
    server_cert: Path
    server_key: Path
    client_ca_files: dict[str, Path]
    credentials_file: Path

    def credentials(self) -> dict[str, dict[str, str]]:
        """The ``credentials.json`` content: client id, secret, pfx path and password per API."""
        data: dict[str, dict[str, str]] = json.loads(self.credentials_file.read_text("utf-8"))
        return data


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _new_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _name(common_name: str, unit: str | None = None) -> x509.Name:
    attrs = [
        x509.NameAttribute(NameOID.COUNTRY_NAME, "BR"),
        x509.NameAttribute(NameOID.ORGANIZATION_NAME, ORGANIZATION),
    ]
    if unit:
        attrs.append(x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit))
    attrs.append(x509.NameAttribute(NameOID.COMMON_NAME, common_name))
    return x509.Name(attrs)


def new_ca(common_name: str, *, days: int = 3650) -> Issuer:
    """A self-signed certification authority."""
    key = _new_key()
    name = _name(common_name)
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=days))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=False,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    return Issuer(key=key, cert=cert)


def issue_server_certificate(
    ca: Issuer, hosts: list[str]
) -> tuple[rsa.RSAPrivateKey, x509.Certificate]:
    """A TLS server certificate for the given host names and IP addresses."""
    key = _new_key()
    sans: list[x509.GeneralName] = []
    for host in hosts:
        try:
            sans.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            sans.append(x509.DNSName(host))
    now = _now()
    cert = (
        x509.CertificateBuilder()
        .subject_name(_name(hosts[0], "Servers"))
        .issuer_name(ca.cert.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        .not_valid_after(now + dt.timedelta(days=CERT_DAYS))
        .add_extension(x509.SubjectAlternativeName(sans), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca.key, hashes.SHA256())
    )
    return key, cert


def new_csr(key: rsa.RSAPrivateKey, api: str, client_id: str) -> x509.CertificateSigningRequest:
    """The signing request a company sends its bank for an API client certificate."""
    return (
        x509.CertificateSigningRequestBuilder()
        .subject_name(_name(client_id, API_TITLES[api]))
        .sign(key, hashes.SHA256())
    )


def sign_client_csr(
    ca: Issuer,
    csr: x509.CertificateSigningRequest,
    *,
    not_before: dt.datetime | None = None,
    not_after: dt.datetime | None = None,
) -> x509.Certificate:
    """Sign an API client's CSR; the dates can be set to make expired or future certificates."""
    now = _now()
    return (
        x509.CertificateBuilder()
        .subject_name(csr.subject)
        .issuer_name(ca.cert.subject)
        .public_key(csr.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before or now - dt.timedelta(minutes=5))
        .not_valid_after(not_after or now + dt.timedelta(days=CERT_DAYS))
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
        .sign(ca.key, hashes.SHA256())
    )


def pfx_bytes(
    key: rsa.RSAPrivateKey, cert: x509.Certificate, chain: list[x509.Certificate], password: str
) -> bytes:
    """A PKCS#12 bundle protected by ``password`` (AES-256, as current banks deliver)."""
    return pkcs12.serialize_key_and_certificates(
        name=b"client",
        key=key,
        cert=cert,
        cas=chain,
        encryption_algorithm=serialization.BestAvailableEncryption(password.encode("utf-8")),
    )


def _pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def _write(path: Path, data: bytes, *, private: bool = False) -> None:
    # Private material is created 0600 from the start, never world-readable for a moment.
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC
    fd = os.open(path, flags, 0o600 if private else 0o644)
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)


def _key_pem(key: rsa.RSAPrivateKey, password: str | None = None) -> bytes:
    encryption: serialization.KeySerializationEncryption = (
        serialization.BestAvailableEncryption(password.encode("utf-8"))
        if password
        else serialization.NoEncryption()
    )
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption
    )


def load_issuer(cert_file: Path, key_file: Path) -> Issuer:
    """Load a CA written by :func:`ensure_pki`."""
    cert = x509.load_pem_x509_certificate(cert_file.read_bytes())
    key = serialization.load_pem_private_key(key_file.read_bytes(), password=None)
    assert isinstance(key, rsa.RSAPrivateKey)
    return Issuer(key=key, cert=cert)


def _paths(directory: Path) -> SandboxPki:
    return SandboxPki(
        directory=directory,
        ca_file=directory / "ca.crt",
        server_cert=directory / "server.crt",
        server_key=directory / "server.key",
        client_ca_files={api: directory / f"{api}-client-ca.crt" for api in APIS},
        credentials_file=directory / "credentials.json",
    )


def ensure_pki(directory: Path) -> SandboxPki:
    """Create the sandbox's CAs, server certificate and client bundles unless already there.

    Returns the paths. ``credentials.json`` is written last, so its presence means the whole
    set is complete.
    """
    pki = _paths(directory)
    if pki.credentials_file.is_file():
        return pki
    make_private_dir(directory)
    root = new_ca("Sandbox Bank Root CA")
    _write(pki.ca_file, _pem(root.cert))
    _write(directory / "ca.key", _key_pem(root.key), private=True)
    server_key, server_cert = issue_server_certificate(root, ["localhost", "127.0.0.1", "::1"])
    _write(pki.server_cert, _pem(server_cert) + _pem(root.cert))
    _write(pki.server_key, _key_pem(server_key), private=True)

    credentials: dict[str, dict[str, str]] = {}
    for api in APIS:
        client_ca = new_ca(f"Sandbox Bank {API_TITLES[api]} Client CA")
        _write(pki.client_ca_files[api], _pem(client_ca.cert))
        _write(directory / f"{api}-client-ca.key", _key_pem(client_ca.key), private=True)
        client_id = f"sandbox-{api}-{secrets.token_hex(4)}"
        key = _new_key()
        csr = new_csr(key, api, client_id)
        cert = sign_client_csr(client_ca, csr)
        password = secrets.token_urlsafe(12)
        base = directory / f"{api}-client"
        _write(base.with_suffix(".crt"), _pem(cert))
        # The bank's ".key" file: delivered protected by the same password as the .pfx.
        _write(base.with_suffix(".key"), _key_pem(key, password), private=True)
        _write(base.with_suffix(".csr"), csr.public_bytes(serialization.Encoding.PEM))
        _write(
            base.with_suffix(".pfx"), pfx_bytes(key, cert, [client_ca.cert], password), private=True
        )
        credentials[api] = {
            "client_id": client_id,
            "client_secret": secrets.token_urlsafe(24),
            "pfx": str(base.with_suffix(".pfx").resolve()),
            "pfx_password": password,
        }
    _write(pki.credentials_file, json.dumps(credentials, indent=2).encode("utf-8"), private=True)
    return pki


def client_ca(pki: SandboxPki, api: str) -> Issuer:
    """The CA that signs client certificates of ``api`` (tests use it to make odd certificates)."""
    return load_issuer(pki.client_ca_files[api], pki.directory / f"{api}-client-ca.key")
