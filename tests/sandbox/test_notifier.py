"""The notifier delivers queued notifications over HTTPS, presenting the sandbox's client
certificate, retries with backoff and forgets them after 15 days."""

import asyncio
import datetime as dt
import ssl
from decimal import Decimal

import pytest
from cryptography.hazmat.primitives import serialization

from treasury_app.domain.money import loads_json
from treasury_app.sandbox.clock import SandboxClock
from treasury_app.sandbox.notifier import Notifier, queue
from treasury_app.sandbox.pki import ensure_pki, issue_server_certificate, load_issuer
from treasury_app.sandbox.store import Store


class Receiver:
    """A tiny HTTPS server requiring a client certificate signed by the sandbox root CA."""

    def __init__(self, pki, status: int = 200) -> None:
        root = load_issuer(pki.ca_file, pki.directory / "ca.key")
        key, cert = issue_server_certificate(root, ["127.0.0.1"])
        cert_file = pki.directory / "receiver.pem"
        cert_file.write_bytes(
            cert.public_bytes(serialization.Encoding.PEM)
            + key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(cert_file)
        self.context.load_verify_locations(cafile=pki.ca_file)
        self.context.verify_mode = ssl.CERT_REQUIRED
        self.status = status
        self.requests: list[tuple[str, dict, bytes, str]] = []

    async def handle(self, reader, writer) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode().split("\r\n")
        headers = dict(line.split(": ", 1) for line in lines[1:] if ": " in line)
        headers = {k.lower(): v for k, v in headers.items()}
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        peer = writer.get_extra_info("peercert")
        subject = dict(item for rdn in peer["subject"] for item in rdn)
        self.requests.append((lines[0], headers, body, subject["commonName"]))
        writer.write(
            f"HTTP/1.1 {self.status} X\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".encode()
        )
        await writer.drain()
        writer.close()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self.handle, "127.0.0.1", 0, ssl=self.context)
        return f"https://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"


@pytest.fixture
def world(tmp_path):
    pki = ensure_pki(tmp_path / "pki")
    store = Store(tmp_path / "s.sqlite3")
    clock = SandboxClock()
    yield pki, store, clock
    store.close()


async def test_delivers_with_the_sandbox_client_certificate(world):
    pki, store, clock = world
    receiver = Receiver(pki)
    url = await receiver.start()
    notifier = Notifier(store, clock, pki)
    payload = {"pix": [{"endToEndId": "E1", "valor": "10.50", "n": Decimal("1234.56")}]}
    doc = queue(
        store,
        clock,
        api="qrcodes",
        kind="pix",
        url=url + "/hook/pix",
        payload=payload,
        headers={"x-tenant": "abc"},
    )
    assert await notifier.deliver_due() == 1
    await notifier.close()
    request_line, headers, body, client_cn = receiver.requests[0]
    assert request_line == "POST /hook/pix HTTP/1.1"
    assert client_cn == "Sandbox Bank Notifier"
    assert headers["x-tenant"] == "abc"
    assert loads_json(body) == {
        "pix": [{"endToEndId": "E1", "valor": "10.50", "n": Decimal("1234.56")}]
    }
    assert b"1234.56" in body
    stored = store.get("notification", doc["id"])
    assert stored["status"] == "DELIVERED" and stored["attempts"] == 1


async def test_failed_delivery_backs_off_then_gives_up(world):
    pki, store, clock = world
    receiver = Receiver(pki, status=500)
    url = await receiver.start()
    notifier = Notifier(store, clock, pki)
    doc = queue(store, clock, api="accounts", kind="transfer", url=url, payload={"a": 1})
    assert await notifier.deliver_due() == 0
    assert await notifier.deliver_due() == 0  # not due again before its backoff
    assert len(receiver.requests) == 1
    for _ in range(10):
        clock.advance(600)
        await notifier.deliver_due()
    await notifier.close()
    stored = store.get("notification", doc["id"])
    assert stored["status"] == "FAILED"
    assert stored["attempts"] == 6 == len(receiver.requests)
    assert stored["lastResult"] == "HTTP 500"


async def test_unreachable_receiver_is_retried_not_lost(world):
    pki, store, clock = world
    notifier = Notifier(store, clock, pki)
    doc = queue(store, clock, api="qrcodes", kind="rec", url="https://127.0.0.1:9/rec", payload={})
    await notifier.deliver_due()
    await notifier.close()
    stored = store.get("notification", doc["id"])
    assert stored["status"] == "PENDING" and stored["attempts"] == 1
    assert dt.datetime.fromisoformat(stored["nextAttemptAt"]) > clock.now()


async def test_notifications_are_kept_for_15_days(world):
    pki, store, clock = world
    notifier = Notifier(store, clock, pki)
    doc = queue(store, clock, api="qrcodes", kind="pix", url="", payload={})
    await notifier.deliver_due()
    assert store.get("notification", doc["id"])["status"] == "NO_WEBHOOK"
    clock.advance(14 * 86400)
    await notifier.deliver_due()
    assert store.get("notification", doc["id"]) is not None
    clock.advance(2 * 86400)
    await notifier.deliver_due()
    await notifier.close()
    assert store.get("notification", doc["id"]) is None


async def test_accounts_webhook_with_pause_on_fail_is_paused_when_delivery_gives_up(world):
    pki, store, clock = world
    receiver = Receiver(pki, status=503)
    url = await receiver.start()
    for webhook_id, kind, pause in ((1, "TRANSFER", True), (2, "RECEIVE", False)):
        store.put(
            "webhook",
            str(webhook_id),
            {
                "id": webhook_id,
                "type": kind,
                "uri": url,
                "enabled": True,
                "pauseOnFail": pause,
                "createdAt": "2026-01-01T00:00:00Z",
            },
            "x",
        )
    notifier = Notifier(store, clock, pki)
    queue(store, clock, api="accounts", kind="transfer", url=url, payload={})
    queue(store, clock, api="accounts", kind="receive", url=url, payload={})
    for _ in range(8):
        await notifier.deliver_due()
        clock.advance(600)
    await notifier.close()
    assert store.get("webhook", "1")["enabled"] is False
    assert "pausedAt" in store.get("webhook", "1")
    assert store.get("webhook", "2")["enabled"] is True
