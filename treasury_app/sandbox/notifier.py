"""Delivers the sandbox's notifications (webhooks of both APIs) to registered HTTPS URLs,
presenting the sandbox's own client certificate, retrying with backoff, keeping 15 days.

Producers only queue documents of kind ``notification``:
``{"api", "kind", "url", "payload", "headers"?, "status": "PENDING", "createdAt"}``.
"""

from __future__ import annotations

import datetime as dt
import logging
import ssl
from pathlib import Path
from typing import Any

import httpx
from cryptography import x509
from cryptography.hazmat.primitives import serialization
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from treasury_app.domain.money import dumps_json_bytes
from treasury_app.sandbox.clock import SandboxClock, iso
from treasury_app.sandbox.pki import (
    SandboxPki,
    _key_pem,
    _new_key,
    _write,
    load_issuer,
    sign_client_csr,
)
from treasury_app.sandbox.store import Store
from treasury_app.sandbox.web import JsonResponse

log = logging.getLogger("treasury_app.sandbox.notifier")
MAX_ATTEMPTS = 6
RETENTION = dt.timedelta(days=15)
BACKOFF_SECONDS = (1, 2, 5, 15, 60, 300)


def ensure_notifier_identity(pki: SandboxPki) -> tuple[Path, Path]:
    """The certificate the sandbox presents to webhook receivers (signed by its root CA)."""
    cert_file = pki.directory / "notifier.crt"
    key_file = pki.directory / "notifier.key"
    if cert_file.is_file() and key_file.is_file():
        return cert_file, key_file
    root = load_issuer(pki.ca_file, pki.directory / "ca.key")
    key = _new_key()
    csr = (
        x509.CertificateSigningRequestBuilder()
        .subject_name(
            x509.Name(
                [
                    x509.NameAttribute(x509.NameOID.ORGANIZATION_NAME, "Sandbox Bank"),
                    x509.NameAttribute(x509.NameOID.COMMON_NAME, "Sandbox Bank Notifier"),
                ]
            )
        )
        .sign(
            key,
            __import__("cryptography.hazmat.primitives.hashes").hazmat.primitives.hashes.SHA256(),
        )
    )
    cert = sign_client_csr(root, csr)
    _write(key_file, _key_pem(key), private=True)
    _write(
        cert_file,
        cert.public_bytes(serialization.Encoding.PEM)
        + root.cert.public_bytes(serialization.Encoding.PEM),
    )
    return cert_file, key_file


def queue(
    store: Store,
    clock: SandboxClock,
    *,
    api: str,
    kind: str,
    url: str,
    payload: dict[str, Any],
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Queue one notification for delivery."""
    now = iso(clock.now())
    doc_id = f"N{store.next_id('notification'):08d}"
    doc = {
        "id": doc_id,
        "api": api,
        "kind": kind,
        "url": url,
        "payload": payload,
        "headers": headers or {},
        "status": "PENDING",
        "attempts": 0,
        "createdAt": now,
        "nextAttemptAt": now,
    }
    store.put("notification", doc_id, doc, now)
    return doc


class Notifier:
    """One delivery pass at a time; the server calls :meth:`deliver_due` periodically."""

    def __init__(self, store: Store, clock: SandboxClock, pki: SandboxPki) -> None:
        self.store = store
        self.clock = clock
        cert_file, key_file = ensure_notifier_identity(pki)
        context = ssl.create_default_context()
        context.load_verify_locations(cafile=str(pki.ca_file))  # receivers with sandbox certs
        context.load_cert_chain(str(cert_file), str(key_file))
        # The sandbox's receivers are local test servers (loopback): always direct, never
        # through a proxy httpx would find in the environment (it ignores Windows' bypass list).
        self._client = httpx.AsyncClient(
            verify=context, timeout=5, follow_redirects=False, trust_env=False
        )

    async def close(self) -> None:
        await self._client.aclose()

    async def deliver_due(self) -> int:
        """Try every pending notification whose time has come; returns how many succeeded."""
        now = self.clock.now()
        delivered = 0
        for doc in self.store.all("notification"):
            created = dt.datetime.fromisoformat(doc["createdAt"])
            if now - created > RETENTION:
                self.store.delete("notification", doc["id"])
                continue
            due = dt.datetime.fromisoformat(doc.get("nextAttemptAt") or doc["createdAt"])
            if doc["status"] != "PENDING" or due > now:
                continue
            if not doc.get("url"):
                doc["status"] = "NO_WEBHOOK"
                self.store.put("notification", doc["id"], doc, doc["createdAt"])
                continue
            delivered += await self._attempt(doc)
        return delivered

    def _pause_on_fail(self, doc: dict[str, Any]) -> None:
        """Accounts API webhooks with ``pauseOnFail`` stop when a notification is given up."""
        if doc.get("api") != "accounts":
            return
        for webhook in self.store.all("webhook"):
            if webhook["type"] == str(doc.get("kind", "")).upper() and webhook.get("pauseOnFail"):
                webhook["enabled"] = False
                webhook["pausedAt"] = iso(self.clock.now())
                self.store.put("webhook", str(webhook["id"]), webhook, webhook["createdAt"])

    async def _attempt(self, doc: dict[str, Any]) -> int:
        doc["attempts"] = doc.get("attempts", 0) + 1
        doc["lastAttemptAt"] = iso(self.clock.now())
        headers = {"content-type": "application/json", **doc.get("headers", {})}
        try:
            response = await self._client.post(
                doc["url"], content=dumps_json_bytes(doc["payload"]), headers=headers
            )
            ok = 200 <= response.status_code < 300
            doc["lastResult"] = f"HTTP {response.status_code}"
        except httpx.HTTPError as exc:
            ok = False
            doc["lastResult"] = f"{type(exc).__name__}: {exc}"[:300]
        if ok:
            doc["status"] = "DELIVERED"
            doc["deliveredAt"] = doc["lastAttemptAt"]
        elif doc["attempts"] >= MAX_ATTEMPTS:
            doc["status"] = "FAILED"
            self._pause_on_fail(doc)
        else:
            wait = BACKOFF_SECONDS[min(doc["attempts"] - 1, len(BACKOFF_SECONDS) - 1)]
            doc["nextAttemptAt"] = iso(self.clock.now() + dt.timedelta(seconds=wait))
        self.store.put("notification", doc["id"], doc, doc["createdAt"])
        if not ok:
            log.info("notification %s to %s failed: %s", doc["id"], doc["url"], doc["lastResult"])
        return 1 if ok else 0


def control_routes(store: Store) -> list[Route]:
    """``GET /sandbox/notifications?api=&kind=&status=``: what was queued and what happened."""

    async def notifications(request: Request) -> Response:
        items = store.all("notification")
        for name in ("api", "kind", "status"):
            wanted = request.query_params.get(name)
            if wanted:
                items = [i for i in items if i.get(name) == wanted]
        return JsonResponse({"data": items})

    return [Route("/sandbox/notifications", notifications, methods=["GET"])]
