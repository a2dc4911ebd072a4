"""Runs the sandbox bank: two uvicorn servers (QR Codes API and Accounts API) in one event
loop, each requiring a client certificate of its own API, plus the clock's ticker."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
import os
import shutil
import signal
import ssl
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from treasury_app.private_files import make_private_dir
from treasury_app.sandbox import (
    accounts_events,
    accounts_routes,
    automatico,
    cashin,
    console,
    notifier,
    qrcodes_routes,
    seed,
)
from treasury_app.sandbox.accounts_bank import AccountsBank
from treasury_app.sandbox.auth import AuthService
from treasury_app.sandbox.clock import SandboxClock, iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.faults import FaultInjector, FaultRule
from treasury_app.sandbox.pki import SandboxPki, ensure_pki
from treasury_app.sandbox.seed import COMPANY
from treasury_app.sandbox.store import Store
from treasury_app.sandbox.web import build_app

log = logging.getLogger("treasury_app.sandbox")
TICK_SECONDS = 0.25


class PeerCertProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, handing the TLS peer certificate and the transport to
    the app (uvicorn puts neither in the ASGI scope)."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        extensions = {
            "tls": {"peercert": transport.get_extra_info("peercert")},
            "sandbox.transport": transport,
        }
        inner: ASGIApp = self.app

        async def app(scope: Scope, receive: Receive, send: Send) -> None:
            scope["extensions"] = {**scope.get("extensions", {}), **extensions}
            await inner(scope, receive, send)

        self.app = app


@dataclass
class Sandbox:
    """Everything one sandbox instance is made of."""

    data_dir: Path
    pki: SandboxPki
    store: Store
    clock: SandboxClock
    faults: FaultInjector
    auth: AuthService
    bank: AccountsBank
    urls: dict[str, str] = field(default_factory=dict)

    @property
    def qr(self) -> QrContext:
        return QrContext(
            self.store,
            self.clock,
            self.auth,
            self.bank,
            self.pki,
            base_url=lambda: self.urls["qrcodes"],
        )

    def tick(self) -> None:
        self.bank.tick()
        cashin.tick(self.qr)
        automatico.tick(self.qr)
        accounts_events.tick(self.bank)

    def console_actions(self, qr: QrContext) -> dict[str, Any]:
        """The HTML console's Cash In and Pix Automático buttons."""
        from treasury_app.sandbox import cashin_bank

        def pay_charge(form: dict[str, str]) -> object:
            payer = {"name": form.get("name") or "Maria da Silva", "cpf": "40364478829"}
            return cashin_bank.simulate_payment(qr, {"txid": form["txid"], "payer": payer})

        def rec(form: dict[str, str]) -> object:
            return automatico.bank_for(qr).control_rec(form["idRec"], form["action"], {})

        def cobr_fail(form: dict[str, str]) -> object:
            return automatico.bank_for(qr).fail_next(form["txid"], {})

        return {"pay-charge": pay_charge, "rec": rec, "cobr-fail": cobr_fail}

    def apps(self) -> dict[str, ASGIApp]:
        qr = self.qr
        control = [
            *cashin.control_routes(qr),
            *automatico.control_routes(qr),
            *console.routes(
                self.bank, self.clock, self.faults, self.auth, self.tick, self.console_actions(qr)
            ),
            *notifier.control_routes(self.store),
        ]
        qr_routes = [
            *qrcodes_routes.routes(self.store, self.clock, self.auth),
            *cashin.routes(qr),
            *automatico.routes(qr),
        ]
        return {
            "qrcodes": build_app("qrcodes", [*qr_routes, *control], self.faults),
            "accounts": build_app(
                "accounts",
                [*accounts_routes.routes(self.bank, self.auth), *control],
                self.faults,
            ),
        }


def open_sandbox(
    data_dir: Path,
    *,
    reset: bool = False,
    clock_start: dt.datetime | None = None,
    faults: list[FaultRule] | None = None,
) -> Sandbox:
    """Create or reopen the sandbox's files under ``data_dir`` (``reset`` starts afresh)."""
    if reset and data_dir.exists():
        shutil.rmtree(data_dir)
    make_private_dir(data_dir)
    pki = ensure_pki(data_dir / "pki")
    store = Store(data_dir / "sandbox.sqlite3")
    offset = dt.timedelta(seconds=float(store.meta("clock_offset", "0") or 0))
    clock = SandboxClock(offset)
    if clock_start is not None:
        clock.set(clock_start)
    clock.on_change(lambda: store.set_meta("clock_offset", str(clock.offset.total_seconds())))
    store.set_meta("clock_offset", str(clock.offset.total_seconds()))
    seed.seed_all(store, clock)
    injector = FaultInjector(faults)
    auth = AuthService(clock, pki.credentials())
    bank = AccountsBank(store, clock)
    accounts_events.start_from_now(bank)
    return Sandbox(data_dir, pki, store, clock, injector, auth, bank)


def _ssl_factory(pki: SandboxPki, api: str) -> Any:
    def factory(config: uvicorn.Config, default: Any) -> ssl.SSLContext:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.minimum_version = ssl.TLSVersion.TLSv1_2
        context.load_cert_chain(pki.server_cert, pki.server_key)
        # Only this API's client CA: the other API's certificates fail the handshake.
        context.load_verify_locations(cafile=pki.client_ca_files[api])
        context.verify_mode = ssl.CERT_REQUIRED
        context.set_alpn_protocols(["http/1.1"])
        return context

    return factory


async def _deliver(delivery: notifier.Notifier) -> None:
    try:
        await delivery.deliver_due()
    except Exception:
        log.exception("sandbox notification delivery failed")


async def _ticker(sandbox: Sandbox, delivery: notifier.Notifier) -> None:
    # Deliveries run beside the ticks, one pass at a time: a slow or unreachable receiver
    # (a name that takes seconds to resolve, a 5-second timeout) must not stop the clock's
    # state machines, which every request and test relies on.
    delivering: asyncio.Task[None] | None = None
    try:
        while True:
            await asyncio.sleep(TICK_SECONDS)
            try:
                sandbox.tick()
            except Exception:  # a bad document must not stop the clock for everything else
                log.exception("sandbox tick failed")
            if delivering is None or delivering.done():
                delivering = asyncio.create_task(_deliver(delivery))
    finally:
        if delivering is not None and not delivering.done():
            delivering.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await delivering


def _url(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host else host
    return f"https://{shown}:{port}"


async def serve(
    sandbox: Sandbox,
    *,
    host: str = "127.0.0.1",
    ports: dict[str, int] | None = None,
    ready_file: Path | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Serve both APIs until ``stop`` is set or SIGINT/SIGTERM arrives."""
    ports = ports or {"qrcodes": 0, "accounts": 0}
    servers: dict[str, uvicorn.Server] = {}
    for api, app in sandbox.apps().items():
        config = uvicorn.Config(
            app,
            host=host,
            port=ports.get(api, 0),
            http=PeerCertProtocol,
            ssl_certfile=str(sandbox.pki.server_cert),
            ssl_context_factory=_ssl_factory(sandbox.pki, api),
            lifespan="off",
            log_level="warning",
            access_log=False,
            server_header=False,
            timeout_graceful_shutdown=2,
            # A server keeps an idle connection longer than its clients do (httpx lets one go
            # after 5 s): with uvicorn's default 5 s on both sides, a client could reuse a
            # connection the server was closing that instant ("Server disconnected without
            # sending a response"), seen once after a 5 s delayed answer.
            timeout_keep_alive=75,
        )
        servers[api] = uvicorn.Server(config)
    tasks = [asyncio.create_task(server.serve()) for server in servers.values()]
    while not all(s.started for s in servers.values()):
        if any(t.done() for t in tasks):
            for task in tasks:
                task.cancel()
            raise RuntimeError("the sandbox could not start (is the port in use?)")
        await asyncio.sleep(0.02)

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    # uvicorn's own handlers each stop one server; ours stop both at once.
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)

    for api, server in servers.items():
        port = server.servers[0].sockets[0].getsockname()[1]
        sandbox.urls[api] = _url(host, port)
    delivery = notifier.Notifier(sandbox.store, sandbox.clock, sandbox.pki)
    ticker = asyncio.create_task(_ticker(sandbox, delivery))
    print(
        f"Sandbox bank listening: QR Codes API {sandbox.urls['qrcodes']}, "
        f"Accounts API {sandbox.urls['accounts']} (console: {sandbox.urls['accounts']}/sandbox/)",
        flush=True,
    )
    if ready_file is not None:
        write_ready_file(sandbox, ready_file)
    try:
        await stop.wait()
    finally:
        ticker.cancel()
        await delivery.close()
        for server in servers.values():
            server.should_exit = True
        await asyncio.gather(*tasks, return_exceptions=True)
        sandbox.store.close()
        if ready_file is not None:
            _remove_own_ready_file(ready_file)
        print("Sandbox bank stopped.", flush=True)


def _remove_own_ready_file(path: Path) -> None:
    # Only if it still announces this process: a sandbox stopping because its app let go of
    # it may finish after that app has started the next one, whose ready file this now is.
    try:
        pid = json.loads(path.read_text("utf-8")).get("pid")
    except (OSError, ValueError, AttributeError):
        return
    if pid == os.getpid():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


class ParentWatch:
    """Stops the sandbox when the app that started it goes away, on every platform.

    The app holds the write end of this process's standard input and never writes to it;
    when the app exits or is killed (SIGKILL, Windows' TerminateProcess), the system closes
    it and a read here returns end-of-file. The stop is then the normal one (servers drained,
    store closed, ready file removed); should that hang, the process ends anyway after
    ``grace`` seconds. Only ``--exit-with-parent`` asks for it: a sandbox run by hand keeps
    running whatever its standard input is.
    """

    def __init__(
        self, fd: int = 0, *, grace: float = 3.0, force_exit: Callable[[int], object] = os._exit
    ) -> None:
        self.fd = fd
        self.grace = grace
        self.gone = threading.Event()
        self._force_exit = force_exit
        self._lock = threading.Lock()
        self._target: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    def start(self) -> ParentWatch:
        threading.Thread(target=self._run, name="parent-watch", daemon=True).start()
        return self

    def stop_with(self, loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
        """Set ``stop`` (on ``loop``) when the parent goes, or now if it has already gone."""
        with self._lock:
            self._target = (loop, stop)
            gone = self.gone.is_set()
        if gone:
            loop.call_soon_threadsafe(stop.set)

    def _run(self) -> None:
        self._wait_for_end_of_file()
        log.warning("the app that started the sandbox bank is gone: stopping")
        with self._lock:
            self.gone.set()
            target = self._target
        if target is not None:
            loop, stop = target
            with contextlib.suppress(RuntimeError):  # the loop has closed: already stopping
                loop.call_soon_threadsafe(stop.set)
        time.sleep(self.grace)
        # Still here: the clean stop hung. Nobody is left to stop this process otherwise.
        print("Sandbox bank stopped (its parent is gone; forced).", flush=True)
        self._force_exit(1)

    def _wait_for_end_of_file(self) -> None:
        while True:
            try:
                if not os.read(self.fd, 4096):
                    return
            except OSError:  # a broken pipe (Windows) or a closed descriptor: the same news
                return


def write_ready_file(sandbox: Sandbox, path: Path) -> None:
    """Announce the running sandbox: URLs, CA and credentials files, pid (written atomically)."""
    content = {
        "qrcodes_url": sandbox.urls["qrcodes"],
        "accounts_url": sandbox.urls["accounts"],
        "ca_file": str(sandbox.pki.ca_file.resolve()),
        "credentials_file": str(sandbox.pki.credentials_file.resolve()),
        "pid": os.getpid(),
        "started_at": iso(sandbox.clock.now()),
        "pix_keys": list(COMPANY["keys"]),  # the account's keys: charges and webhooks use them
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(content, indent=2), encoding="utf-8")
    temporary.replace(path)
