"""Signed payloads of the QR Codes API (JWS, RS256, with the server's TLS key): the Cash In
charge payloads and the Pix Automático recurrence payloads, and the key set (GET /jwks)."""

from __future__ import annotations

import base64
import functools
import hashlib
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from treasury_app.domain.money import dumps_json
from treasury_app.sandbox.context import QrContext


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _uint(value: int) -> str:
    return _b64url(value.to_bytes((value.bit_length() + 7) // 8, "big"))


@functools.lru_cache(maxsize=4)
def _signing_material(key_path: str, cert_path: str) -> tuple[rsa.RSAPrivateKey, dict[str, Any]]:
    key = serialization.load_pem_private_key(Path(key_path).read_bytes(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise TypeError("the sandbox server key must be RSA")
    chain = x509.load_pem_x509_certificates(Path(cert_path).read_bytes())
    der = chain[0].public_bytes(serialization.Encoding.DER)
    numbers = key.public_key().public_numbers()
    thumb256 = _b64url(hashlib.sha256(der).digest())
    jwk = {
        "kty": "RSA",
        "use": "sig",
        "alg": "RS256",
        "kid": thumb256,
        "n": _uint(numbers.n),
        "e": _uint(numbers.e),
        "x5t": _b64url(hashlib.sha1(der).digest()),  # a certificate thumbprint (RFC 7515)
        "x5t#S256": thumb256,
        "x5c": [
            base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode("ascii")
            for c in chain
        ],
    }
    return key, jwk


def jwks(ctx: QrContext) -> dict[str, Any]:
    _key, jwk = _signing_material(str(ctx.pki.server_key), str(ctx.pki.server_cert))
    return {"keys": [jwk]}


def sign_jws(ctx: QrContext, payload: dict[str, Any]) -> str:
    """Compact JWS (RS256) of ``payload``; header with kid, x5t, x5t#S256 and jku."""
    key, jwk = _signing_material(str(ctx.pki.server_key), str(ctx.pki.server_cert))
    header = {
        "alg": "RS256",
        "typ": "JWS",
        "kid": jwk["kid"],
        "x5t": jwk["x5t"],
        "x5t#S256": jwk["x5t#S256"],
        "x5c": jwk["x5c"],
        "jku": f"{ctx.base_url()}/jwks",
    }
    # dumps_json writes Decimal amounts exactly (never through float).
    signing_input = ".".join(
        _b64url(dumps_json(part).encode("utf-8")) for part in (header, payload)
    )
    signature = key.sign(signing_input.encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64url(signature)}"
