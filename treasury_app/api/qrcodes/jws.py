"""The signed payloads served at QR Code locations (BCB Pix API), a charge's (Cash In) and a
recurrence's (Pix Automático) alike: a compact JWS, RS256, checked against the bank's published
key set. A payload that fails any check raises :class:`PayloadSignatureError`: it must not be
trusted, let alone paid."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from treasury_app.api.errors import ApiFailure
from treasury_app.domain.money import loads_json

__all__ = ["PayloadSignatureError", "key_set_url", "location_url", "verified_payload"]


class PayloadSignatureError(ApiFailure):
    """The payload served at a QR location is not a JWS validly signed (RS256) by a key of the
    server's published key set: it must not be trusted, let alone paid."""


def location_url(location: str, what: str) -> str:
    """A location as BCB writes it (``host/qr/v2/...``, no scheme) as an HTTPS URL; any other
    scheme is refused (``ValueError`` saying that ``what`` must be HTTPS)."""
    text = location.strip()
    if text.lower().startswith("https://"):
        return text
    if "://" in text:
        raise ValueError(f"{what} must be HTTPS, not {text.split('://')[0]}.")
    return f"https://{text}"


def _b64url_decode(text: str) -> bytes:
    if not isinstance(text, str) or "=" in text:
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _origin(url: str) -> tuple[str, str, int]:
    parts = urlsplit(url)
    return parts.scheme.lower(), (parts.hostname or "").lower(), parts.port or 443


def _capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def _parsed(jws: str, where: str) -> tuple[dict[str, Any], bytes, bytes, bytes]:
    """The header, the payload, the signature and the signing input of a compact JWS, which
    must say it is signed with RS256."""
    parts = jws.strip().split(".")
    if len(parts) != 3:
        raise PayloadSignatureError(f"{_capitalized(where)} is not a compact JWS.")
    try:
        header = loads_json(_b64url_decode(parts[0]))
        payload = _b64url_decode(parts[1])
        signature = _b64url_decode(parts[2])
    except (ValueError, binascii.Error):
        raise PayloadSignatureError(f"{_capitalized(where)} is not a well-formed JWS.") from None
    if not isinstance(header, dict):
        raise PayloadSignatureError(f"The JWS header of {where} is not an object.")
    if header.get("alg") != "RS256":
        raise PayloadSignatureError(
            f"{_capitalized(where)} is signed with {header.get('alg')!r}; only RS256 is accepted."
        )
    return header, payload, signature, f"{parts[0]}.{parts[1]}".encode("ascii")


def key_set_url(jws: str, url: str, base_url: str, where: str) -> str:
    """The key set that must have signed the JWS served at ``url``: the one its header's
    ``jku`` names, which must be on the location's own host (else anyone could sign with their
    own key), or without a ``jku`` the bank's ``<base_url>/jwks``. A JWS that cannot be valid
    (malformed, not RS256) is refused here, before any key set is fetched."""
    jku = _parsed(jws, where)[0].get("jku")
    if jku is None:
        return base_url.rstrip("/") + "/jwks"
    if _origin(str(jku)) != _origin(url):
        raise PayloadSignatureError(
            f"{_capitalized(where)} names a key set on another host "
            f"({urlsplit(str(jku)).hostname}); refused."
        )
    return str(jku)


def _rsa_key(jwk: Mapping[str, Any]) -> rsa.RSAPublicKey | None:
    if jwk.get("kty") != "RSA" or jwk.get("use", "sig") != "sig":
        return None
    try:
        n = int.from_bytes(_b64url_decode(jwk["n"]), "big")
        e = int.from_bytes(_b64url_decode(jwk["e"]), "big")
        return rsa.RSAPublicNumbers(e, n).public_key()
    except (KeyError, ValueError, TypeError, binascii.Error):
        return None


def verified_payload(jws: str, jwks: Any, where: str, key_set: str) -> bytes:
    """The payload bytes of a compact RS256 JWS after checking its signature against a JSON
    Web Key Set (the keys named by the header's ``kid``, or all without one). ``where`` names
    the payload and ``key_set`` the key set in the messages of the
    :class:`PayloadSignatureError` raised when the token is malformed, not RS256, no key
    matches or the signature does not verify."""
    header, payload, signature, signing_input = _parsed(jws, where)
    keys = jwks.get("keys") if isinstance(jwks, dict) else None
    if not isinstance(keys, list):
        raise PayloadSignatureError(f"{_capitalized(key_set)} has no keys.")
    kid = header.get("kid")
    candidates = [
        key
        for jwk in keys
        if isinstance(jwk, dict)
        and (kid is None or jwk.get("kid") == kid)
        and (key := _rsa_key(jwk)) is not None
    ]
    if not candidates:
        raise PayloadSignatureError(
            f"No RSA signing key of {key_set} matches the key id (kid) of {where}."
        )
    for key in candidates:
        try:
            key.verify(signature, signing_input, padding.PKCS1v15(), hashes.SHA256())
        except InvalidSignature:
            continue
        return payload
    raise PayloadSignatureError(
        f"The signature of {where} does not match the bank's key: do not trust or pay it."
    )
