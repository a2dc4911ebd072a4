"""Mutual TLS on both sandbox servers: no client certificate, or the other API's certificate,
and the TLS connection is refused before any HTTP or OAuth happens."""

from __future__ import annotations

import datetime as dt
import ssl

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID

from tests.sandbox.conftest import assert_problem
from tests.sandbox_harness import RunningSandbox, load_pfx_into
from treasury_app.sandbox import pki

PATHS = {"qrcodes": "/oauth/token", "accounts": "/api/v2/oauth/token"}
OTHER = {"qrcodes": "accounts", "accounts": "qrcodes"}


@pytest.mark.parametrize("api", ["qrcodes", "accounts"])
@pytest.mark.parametrize("certificate", ["none", "other API"])
def test_handshake_refused(sandbox: RunningSandbox, api: str, certificate: str) -> None:
    cert_api = None if certificate == "none" else OTHER[api]
    with sandbox.client(api, cert_api=cert_api) as client:
        # Under TLS 1.3 the refusal arrives after the client's half of the handshake: it
        # surfaces on the first request, as a transport error (never an HTTP answer).
        with pytest.raises(httpx.TransportError):
            client.post(PATHS[api], data={"grant_type": "client_credentials"})
        with pytest.raises(httpx.TransportError):
            client.get("/sandbox/status")  # not even the control surface


@pytest.mark.parametrize("api", ["qrcodes", "accounts"])
def test_own_certificate_reaches_http(sandbox: RunningSandbox, api: str) -> None:
    """The positive control of the test above: the same request with the right certificate."""
    with sandbox.client(api) as client:
        response = client.get("/sandbox/status")
    assert response.status_code == 200
    assert "now" in response.json()


def _odd_certificate(
    sandbox: RunningSandbox,
    api: str,
    unit: str,
    common_name: str,
    *,
    not_before: dt.datetime | None = None,
    not_after: dt.datetime | None = None,
) -> ssl.SSLContext:
    """A client context with a certificate signed by ``api``'s client CA for any unit and CN."""
    issuer = pki.client_ca(pki.ensure_pki(sandbox.data_dir / "bank" / "pki"), api)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, pki.ORGANIZATION),
            x509.NameAttribute(NameOID.ORGANIZATIONAL_UNIT_NAME, unit),
            x509.NameAttribute(NameOID.COMMON_NAME, common_name),
        ]
    )
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(key, hashes.SHA256())
    cert = pki.sign_client_csr(issuer, csr, not_before=not_before, not_after=not_after)
    pfx = sandbox.data_dir / f"odd-{api}-{common_name}.pfx"
    pfx.write_bytes(pki.pfx_bytes(key, cert, [issuer.cert], "secret"))
    context = ssl.create_default_context(cafile=sandbox.ready["ca_file"])
    load_pfx_into(context, pfx, "secret")
    return context


def test_certificate_of_the_right_ca_but_another_unit_gets_403(sandbox: RunningSandbox) -> None:
    """The second lock: a certificate the TLS layer trusts but not issued for this API."""
    context = _odd_certificate(sandbox, "accounts", "QR Codes API", "intruder")
    with httpx.Client(base_url=sandbox.urls["accounts"], verify=context) as client:
        response = client.get("/api/v2/accounts/balances")
    assert_problem(response, 403)


def test_token_refused_for_a_certificate_of_another_client(sandbox: RunningSandbox) -> None:
    """client_id and secret are right but the certificate belongs to someone else: 403."""
    context = _odd_certificate(sandbox, "accounts", "Accounts API", "sandbox-accounts-other")
    cred = sandbox.credentials["accounts"]
    with httpx.Client(base_url=sandbox.urls["accounts"], verify=context) as client:
        client.post("/sandbox/tokens/reset-limits")
        response = client.post(
            "/api/v2/oauth/token",
            json={
                "clientId": cred["client_id"],
                "clientSecret": cred["client_secret"],
                "grantType": "client_credentials",
            },
        )
    assert_problem(response, 403)


@pytest.mark.parametrize("validity", ["expired", "not yet valid"])
def test_certificate_outside_its_validity_fails_the_handshake(
    sandbox: RunningSandbox, validity: str
) -> None:
    now = dt.datetime.now(dt.UTC)
    window = (
        (now - dt.timedelta(days=30), now - dt.timedelta(days=1))
        if validity == "expired"
        else (now + dt.timedelta(days=1), now + dt.timedelta(days=30))
    )
    client_id = sandbox.credentials["accounts"]["client_id"]
    context = _odd_certificate(
        sandbox,
        "accounts",
        "Accounts API",
        client_id,
        not_before=window[0],
        not_after=window[1],
    )
    client = httpx.Client(base_url=sandbox.urls["accounts"], verify=context)
    with client, pytest.raises(httpx.TransportError):
        client.get("/sandbox/status")
