"""The sandbox's notifier delivers to its (loopback) receivers directly, even when the
environment names a proxy: httpx would otherwise send them to it."""

from __future__ import annotations

import socket

import pytest

from tests.sandbox.test_notifier import Receiver, world
from treasury_app.sandbox.notifier import Notifier, queue

__all__ = ["world"]  # a fixture, found by pytest here


async def test_a_proxy_in_the_environment_is_not_used(world, monkeypatch: pytest.MonkeyPatch):
    pki, store, clock = world
    with socket.socket() as probe:  # a proxy that is not there: any use of it fails
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}"
    for name in ("HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"):
        monkeypatch.setenv(name, dead)
    for name in ("NO_PROXY", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
    receiver = Receiver(pki)
    url = await receiver.start()
    notifier = Notifier(store, clock, pki)
    try:
        queue(store, clock, api="qrcodes", kind="pix", url=url + "/hook", payload={"pix": []})
        assert await notifier.deliver_due() == 1
    finally:
        await notifier.close()
    assert receiver.requests[0][0] == "POST /hook HTTP/1.1"
