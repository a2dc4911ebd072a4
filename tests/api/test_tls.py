"""Client certificates: loading .pfx bundles, clear errors, TLS contexts without plain keys on
disk, and what the sandbox's handshake makes of good and bad certificates."""

from __future__ import annotations

import datetime as dt
import os
import ssl
import sys
import tempfile
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from tests.api.conftest import api_config
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.errors import TransportFailure
from treasury_app.api.tls import (
    CertificateExpired,
    CertificateNotYetValid,
    ClientIdentity,
    PfxFormatError,
    PfxNotFound,
    PfxPasswordError,
    Trust,
    load_pfx,
)
from treasury_app.api.transport import ApiTransport
from treasury_app.sandbox import pki

POSIX_MODES = sys.platform != "win32"  # Windows ignores modes: ACLs (test_private_files.py)


def _issue(
    sandbox: RunningSandbox,
    tmp_path: Path,
    *,
    api: str = "accounts",
    not_before: dt.datetime | None = None,
    not_after: dt.datetime | None = None,
    password: str = "s3nh@-forte",
) -> Path:
    """A .pfx signed by ``api``'s client CA for the sandbox's own client id."""
    issuer = pki.client_ca(pki.ensure_pki(sandbox.data_dir / "bank" / "pki"), api)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    unit = "Accounts API" if api == "accounts" else "QR Codes API"
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, pki.ORGANIZATION),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit),
            x509.NameAttribute(NameOID.COMMON_NAME, sandbox.credentials[api]["client_id"]),
        ]
    )
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(key, hashes.SHA256())
    cert = pki.sign_client_csr(issuer, csr, not_before=not_before, not_after=not_after)
    path = tmp_path / f"{api}-{cert.serial_number}.pfx"
    path.write_bytes(pki.pfx_bytes(key, cert, [issuer.cert], password))
    return path


def _credentials(sandbox: RunningSandbox, api: str) -> tuple[Path, str]:
    cred = sandbox.credentials[api]
    return Path(cred["pfx"]), cred["pfx_password"]


def test_load_pfx_reads_key_certificate_chain_and_dates(sandbox: RunningSandbox) -> None:
    identity = load_pfx(*_credentials(sandbox, "accounts"))
    assert identity.common_name == sandbox.credentials["accounts"]["client_id"]
    assert "OU=Accounts API" in identity.subject
    assert identity.issuer == identity.chain[0].subject.rfc4514_string()
    assert identity.not_before < dt.datetime.now(dt.UTC) < identity.not_after
    assert len(identity.fingerprint.split(":")) == 32
    assert identity.expiry_warning() is None
    assert "PRIVATE" not in repr(identity) and "key" not in repr(identity).lower()


def test_wrong_password_is_its_own_clear_error(sandbox: RunningSandbox) -> None:
    path, _ = _credentials(sandbox, "qrcodes")
    with pytest.raises(PfxPasswordError, match="password does not open"):
        load_pfx(path, "not the password")


def test_corrupt_or_missing_files_are_format_errors(
    tmp_path: Path, sandbox: RunningSandbox
) -> None:
    garbage = tmp_path / "garbage.pfx"
    garbage.write_bytes(b"this is not a certificate at all")
    with pytest.raises(PfxFormatError, match="not a PKCS#12"):
        load_pfx(garbage, "whatever")
    path, password = _credentials(sandbox, "qrcodes")
    truncated = tmp_path / "truncated.pfx"
    truncated.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(PfxFormatError):
        load_pfx(truncated, password)
    with pytest.raises(PfxNotFound, match="does not exist"):
        load_pfx(tmp_path / "absent.pfx", password)


def test_expired_and_future_certificates_are_refused_with_dates(
    sandbox: RunningSandbox, tmp_path: Path
) -> None:
    now = dt.datetime.now(dt.UTC)
    expired = _issue(
        sandbox,
        tmp_path,
        not_before=now - dt.timedelta(days=400),
        not_after=now - dt.timedelta(days=2),
    )
    with pytest.raises(CertificateExpired, match="expired on") as error:
        load_pfx(expired, "s3nh@-forte")
    assert error.value.not_after < now
    future = _issue(
        sandbox,
        tmp_path,
        not_before=now + dt.timedelta(days=3),
        not_after=now + dt.timedelta(days=300),
    )
    with pytest.raises(CertificateNotYetValid, match="valid only from"):
        load_pfx(future, "s3nh@-forte")


def test_expiry_within_30_days_is_a_warning(sandbox: RunningSandbox, tmp_path: Path) -> None:
    now = dt.datetime.now(dt.UTC)
    soon = _issue(sandbox, tmp_path, not_after=now + dt.timedelta(days=12, hours=1))
    identity = load_pfx(soon, "s3nh@-forte")
    warning = identity.expiry_warning()
    assert warning is not None and "12 days" in warning
    assert identity.expiry_warning(now - dt.timedelta(days=30)) is None


def test_ssl_context_never_leaves_a_plain_key_on_disk(
    sandbox: RunningSandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    identity = load_pfx(*_credentials(sandbox, "accounts"))
    spool = tmp_path / "spool"
    spool.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(spool))
    written: list[bytes] = []
    modes: list[int] = []
    real_load = ssl.SSLContext.load_cert_chain

    def spy(self: ssl.SSLContext, certfile: str, *args: object, **kwargs: object) -> None:
        written.append(Path(certfile).read_bytes())
        modes.append(os.stat(certfile).st_mode & 0o777)
        real_load(self, certfile, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ssl.SSLContext, "load_cert_chain", spy)
    context = identity.ssl_context(Trust.bundle(sandbox.ready["ca_file"]))
    assert isinstance(context, ssl.SSLContext)
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert written and b"BEGIN ENCRYPTED PRIVATE KEY" in written[0]
    assert b"BEGIN PRIVATE KEY" not in written[0] and b"BEGIN RSA PRIVATE KEY" not in written[0]
    assert len(modes) == 1 and (not POSIX_MODES or modes == [0o600])
    assert list(spool.iterdir()) == []  # deleted at once


def test_system_trust_builds_a_verifying_context(sandbox: RunningSandbox) -> None:
    identity = load_pfx(*_credentials(sandbox, "accounts"))
    context = identity.ssl_context(Trust.system())
    assert context.verify_mode == ssl.CERT_REQUIRED


async def test_system_trust_refuses_the_sandbox_server(sandbox: RunningSandbox) -> None:
    """Verification is on: the sandbox's CA is not in the system store, so no answer."""
    config = api_config(sandbox, "accounts", trust=Trust.system())
    async with ApiTransport(config) as transport:
        with pytest.raises(TransportFailure) as error:
            await transport.request("GET", "/api/v2/accounts/balances")
    assert error.value.request_sent is False  # refused while connecting: nothing was sent


async def test_the_other_apis_certificate_gets_no_answer(sandbox: RunningSandbox) -> None:
    identity = load_pfx(*_credentials(sandbox, "qrcodes"))
    config = api_config(sandbox, "accounts", identity=identity)
    async with ApiTransport(config) as transport:
        with pytest.raises(TransportFailure, match="refusing the client certificate"):
            await transport.request("GET", "/api/v2/accounts/balances")
    assert transport.tokens.state.last_error is not None


async def test_an_expired_certificate_fails_the_handshake(
    sandbox: RunningSandbox, tmp_path: Path
) -> None:
    """Even if a certificate slipped past load_pfx, the bank's handshake refuses it."""
    now = dt.datetime.now(dt.UTC)
    expired = _issue(
        sandbox,
        tmp_path,
        not_before=now - dt.timedelta(days=60),
        not_after=now - dt.timedelta(days=1),
    )
    loaded = load_pfx(expired, "s3nh@-forte", now=now - dt.timedelta(days=5))
    identity = ClientIdentity(loaded.private_key, loaded.certificate, loaded.chain)
    async with ApiTransport(api_config(sandbox, "accounts", identity=identity)) as transport:
        with pytest.raises(TransportFailure):
            await transport.request("GET", "/api/v2/accounts/balances")


async def test_a_fresh_certificate_of_the_right_ca_works(
    sandbox: RunningSandbox, tmp_path: Path, control: object
) -> None:
    """The positive control: a newly issued (renewed) certificate is accepted end to end."""
    renewed = _issue(sandbox, tmp_path)
    identity = load_pfx(renewed, "s3nh@-forte")
    async with ApiTransport(api_config(sandbox, "accounts", identity=identity)) as transport:
        body = await transport.request_json("GET", "/api/v2/accounts/balances")
    assert body["data"][0]["balanceAmount"]["currency"] == "BRL"
