"""Who may call the receiver: the bank, by its client certificate.

The ``SSLContext`` requires a client certificate issued by the configured bank CA: any other
certificate (or none) ends the TLS handshake, before HTTP. uvicorn hands the application no
TLS details, so a pin — the leaf's SHA-256 fingerprint or its subject, for when the CA also
issues certificates to others — is checked by the connection's protocol as soon as the
handshake is done (:func:`refused_leaf`, called by :mod:`treasury_app.receiver.protocol`): a
certificate that does not match is closed at once, with no HTTP answer. Behind a reverse proxy
that terminates mutual TLS, the proxy's verified-client headers are checked by the
application instead (:func:`proxy_client_ok`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import ssl
from typing import Any
from urllib.parse import unquote

from cryptography import x509
from cryptography.hazmat.primitives.serialization import Encoding

from treasury_app.receiver.config import ReceiverConfig

log = logging.getLogger("treasury_app.receiver.tls")


def server_context(config: ReceiverConfig) -> ssl.SSLContext:
    """TLS 1.2+, this server's certificate, the bank's client certificate required."""
    if config.certificate is None or config.key is None or config.bank_ca is None:
        raise ValueError("a certificate, its key and the bank's CA are needed for TLS")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(str(config.certificate), str(config.key))
    context.verify_mode = ssl.CERT_REQUIRED
    context.load_verify_locations(cafile=str(config.bank_ca))
    return context


def leaf_matches(der: bytes, pins: tuple[str, ...], subject: str | None) -> tuple[bool, str]:
    """Whether the client's leaf certificate (DER) matches the configured pins; and what it
    is, for the log (its subject and fingerprint)."""
    fingerprint = hashlib.sha256(der).hexdigest()
    try:
        name = x509.load_der_x509_certificate(der).subject.rfc4514_string()
    except ValueError:
        return False, f"unreadable certificate sha256={fingerprint}"
    described = f"{name} sha256={fingerprint}"
    if pins and fingerprint not in pins:
        return False, described
    if subject and not _same_subject(name, subject):
        return False, described
    return True, described


def _same_subject(actual: str, wanted: str) -> bool:
    def parts(text: str) -> set[str]:
        return {part.strip().lower() for part in text.split(",") if part.strip()}

    return parts(wanted) <= parts(actual)


def refused_leaf(config: ReceiverConfig, transport: asyncio.BaseTransport) -> str | None:
    """Why the connection's client certificate does not match ``config``'s pins (its subject
    and fingerprint, for the log), or ``None``: it matches, or there are no pins. Behind the
    proxy the connection is plain HTTP from the proxy: the pins are checked by the
    application, on the certificate the proxy forwards."""
    pins, subject = config.pin_sha256, config.pin_subject
    ssl_object = transport.get_extra_info("ssl_object")
    if not (pins or subject) or (ssl_object is None and config.behind_proxy):
        return None
    der = ssl_object.getpeercert(binary_form=True) if ssl_object is not None else None
    if der is None:
        return "no client certificate"
    ok, described = leaf_matches(der, pins, subject)
    return None if ok else described


def proxy_client_ok(config: ReceiverConfig, headers: Any) -> tuple[bool, str]:
    """Behind a proxy: its verify header says SUCCESS and, with pins, the certificate it
    forwarded (url-encoded PEM) matches them."""
    verdict = headers.get(config.proxy_verify_header, "")
    if verdict != "SUCCESS":
        return False, f"the proxy's verification says {verdict or 'nothing'!r}"
    if not (config.pin_sha256 or config.pin_subject):
        return True, "verified by the proxy"
    pem = unquote(headers.get(config.proxy_cert_header, ""))
    try:
        der = x509.load_pem_x509_certificate(pem.encode()).public_bytes(Encoding.DER)
    except ValueError:
        return False, "the proxy forwarded no readable client certificate"
    return leaf_matches(der, config.pin_sha256, config.pin_subject)
