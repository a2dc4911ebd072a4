"""A bank that is not on loopback, and proxies of our own, for the proxy tests: the sandbox
also known as ``bank.test`` (a reserved name no resolver knows; only these proxies do), a
forward proxy on 127.0.0.1 that counts the tunnels it opens, and what a TLS-inspecting proxy
does behind it.

Import the ``bank`` fixture by name where it is needed; pytest then finds it in that module.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from tests.sandbox.conftest import CLOCK_START, _drain_output, _stop_cleanly
from tests.sandbox_harness import RunningSandbox, start_sandbox
from treasury_app.sandbox.pki import (
    Issuer,
    _key_pem,
    _pem,
    _write,
    ensure_pki,
    issue_server_certificate,
    load_issuer,
)

BANK_HOST = "bank.test"


@pytest.fixture(scope="module")
def bank(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    """A sandbox bank whose server certificate also names ``bank.test``: reached through a
    proxy under that name, the TLS server name still verifies."""
    directory = tmp_path_factory.mktemp("proxied-bank")
    pki = ensure_pki(directory / "bank" / "pki")
    root = load_issuer(pki.ca_file, pki.directory / "ca.key")
    key, cert = issue_server_certificate(root, ["localhost", "127.0.0.1", "::1", BANK_HOST])
    _write(pki.server_cert, _pem(cert) + _pem(root.cert))
    _write(pki.server_key, _key_pem(key), private=True)
    running = start_sandbox(directory, "--clock-start", CLOCK_START)
    output = _drain_output(running)
    try:
        yield running
    finally:
        _stop_cleanly(running, output)


class ForwardProxy:
    """An HTTP CONNECT proxy on 127.0.0.1: every target host is this computer (or
    ``upstream_port`` when set: a TLS-inspecting box). ``refuse`` answers CONNECT with that
    status instead, offering the ``authenticate`` schemes with a 407. Records each CONNECT
    target and whether credentials came with it."""

    def __init__(
        self,
        *,
        refuse: int | None = None,
        upstream_port: int | None = None,
        authenticate: tuple[str, ...] = ('Basic realm="corp"',),
    ) -> None:
        self.refuse = refuse
        self.upstream_port = upstream_port
        self.authenticate = authenticate
        self.connects: list[str] = []
        self.credentials: list[str | None] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.url = ""  # http://127.0.0.1:<port>, once started

    async def __aenter__(self) -> ForwardProxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.url = f"http://127.0.0.1:{self._server.sockets[0].getsockname()[1]}"
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            method, target, _ = head.split("\r\n", 1)[0].split(" ", 2)
            headers = dict(line.split(": ", 1) for line in head.split("\r\n")[1:] if ": " in line)
            self.connects.append(target)
            self.credentials.append(headers.get("Proxy-Authorization"))
            if method != "CONNECT" or self.refuse:
                status = self.refuse or 405
                reason = {403: "Forbidden", 407: "Proxy Authentication Required"}.get(status, "No")
                offers = "".join(f"Proxy-Authenticate: {offer}\r\n" for offer in self.authenticate)
                extra = offers if status == 407 else ""
                writer.write(
                    f"HTTP/1.1 {status} {reason}\r\n{extra}Content-Length: 0\r\n\r\n".encode()
                )
                await writer.drain()
                return
            port = self.upstream_port or int(target.rsplit(":", 1)[1])
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
            await writer.drain()
            await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()
            self._tasks.discard(task)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


@contextlib.asynccontextmanager
async def inspecting_box(issuer: Issuer, directory: Path) -> AsyncIterator[int]:
    """What a TLS-inspecting proxy does behind CONNECT: it ends TLS itself, with a certificate
    for bank.test from ``issuer`` (its own CA), asks for no client certificate, and answers
    every request with its own HTML error page. Yields its port."""
    key, cert = issue_server_certificate(issuer, [BANK_HOST])
    (directory / "box.pem").write_bytes(_pem(cert) + _key_pem(key))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(directory / "box.pem")
    context.set_alpn_protocols(["http/1.1"])

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").lower()
                length = next(
                    (
                        int(line.split(":", 1)[1])
                        for line in head.split("\r\n")
                        if line.startswith("content-length:")
                    ),
                    0,
                )
                await reader.readexactly(length)
                page = b"<html><body>Upstream: client certificate required</body></html>"
                writer.write(
                    b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
                    + f"Content-Length: {len(page)}\r\n\r\n".encode()
                    + page
                )
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(answer, "127.0.0.1", 0, ssl=context)
    try:
        yield server.sockets[0].getsockname()[1]
    finally:
        server.close()


def as_bank_test(url: str) -> str:
    return url.replace("127.0.0.1", BANK_HOST)
