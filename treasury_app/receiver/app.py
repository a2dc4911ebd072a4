"""The receiver's ASGI application (Starlette): the bank's notifications in, 2xx out once
they are stored.

Routes, under the configured base path (the registered ``webhookUrl``'s path):

* ``POST …/pix``, ``…/rec``, ``…/cobr``: the QR Codes API's callbacks;
* ``POST …/transfer``, ``…/receive``, ``…/refund``, ``…/cashout``: the Accounts API's events,
  each with the configured secret header (compared in constant time; missing or wrong: 401,
  logged, nothing stored);
* ``GET /healthz`` (the database reachable: 200, else 503) and ``GET /metrics``.

Answers: 200 once every item is stored and applied (a redelivered item: 200, nothing
changes); 400 for a body that cannot be read (kept as a dead letter with the reason); 413 for
a body over the cap; 503 with ``Retry-After`` when the database cannot be reached or every
connection of the pool is busy (counted apart: ``pool_exhausted``; either way nothing was
stored: the bank retries). Never a 5xx for what the bank sent. The body is read whole before
a database connection is taken; 408 for headers or a body slower than the configured
deadlines comes from the connection's protocol (:mod:`treasury_app.receiver.protocol`).
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import hmac
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.applications import Starlette
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from treasury_app.domain.clock import Clock, system_clock
from treasury_app.receiver.config import ReceiverConfig
from treasury_app.receiver.items import ACCOUNT_SOURCES, SOURCES, BadBody, parse_body
from treasury_app.receiver.metrics import ReceiverMetrics
from treasury_app.receiver.store import DatabaseUnavailable, PoolExhausted, ReceiverStore
from treasury_app.receiver.tls import proxy_client_ok

log = logging.getLogger("treasury_app.receiver")

RETRY_AFTER_SECONDS = 30
BEAT_SECONDS = 5.0


class TooLarge(Exception):
    pass


def problem(status: int, title: str, detail: str, **headers: str) -> JSONResponse:
    return JSONResponse(
        {"title": title, "status": status, "detail": detail},
        status_code=status,
        media_type="application/problem+json",
        headers=headers or None,
    )


async def read_capped(request: Request, cap: int) -> bytes:
    """The body, or :class:`TooLarge` as soon as it (or its announced length) passes ``cap``."""
    announced = request.headers.get("content-length")
    if announced is not None and announced.isdigit() and int(announced) > cap:
        raise TooLarge
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise TooLarge
        chunks.append(chunk)
    return b"".join(chunks)


class Receiver:
    """The application's state: configuration, database, figures, the heartbeat."""

    def __init__(
        self,
        config: ReceiverConfig,
        store: ReceiverStore | None = None,
        *,
        clock: Clock = system_clock,
    ) -> None:
        self.config = config
        self.store = store or ReceiverStore(config.conninfo, max_size=config.pool_size)
        self.metrics = ReceiverMetrics()
        self.clock = clock
        """The instants of the heartbeat (start, last item); business dates need none here."""
        self.started = clock()
        self.last_item: dt.datetime | None = None
        self._secret = config.secret.encode("utf-8")
        self._tasks: list[asyncio.Task[Any]] = []
        self.reconciler: Any = None

    # -- lifespan ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        await self.store.open(wait=False)
        self._tasks.append(asyncio.create_task(self._beat_forever(), name="receiver-beat"))
        if self.reconciler is not None:
            self._tasks.append(asyncio.create_task(self.reconciler.run(), name="reconciler"))
        log.info("receiver %s started", self.config.name)
        try:
            yield
        finally:
            for task in self._tasks:
                task.cancel()
            for task in self._tasks:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await self.store.close()

    async def _beat_forever(self) -> None:
        while True:
            try:
                await self.store.beat(
                    self.config.name, self.started, self.last_item, self.config.public_url
                )
            except Exception as error:  # the database away: the next beat tries again
                log.debug("heartbeat failed: %s", error)
            await asyncio.sleep(BEAT_SECONDS)

    # -- routes ------------------------------------------------------------------------------

    def app(self) -> Starlette:
        routes = [
            Route(self.config.path(source), self._endpoint(source), methods=["POST"])
            for source in SOURCES
        ]
        routes += [
            Route("/healthz", self.healthz, methods=["GET"]),
            Route("/metrics", self.metrics_page, methods=["GET"]),
        ]
        return Starlette(routes=routes, lifespan=self.lifespan)

    def monitor_app(self) -> Starlette:
        """``/metrics`` and ``/healthz`` alone, for the ``[monitor]`` listener (no lifespan:
        the main app owns the database and the tasks)."""
        return Starlette(
            routes=[
                Route("/healthz", self.healthz, methods=["GET"]),
                Route("/metrics", self.metrics_page, methods=["GET"]),
            ]
        )

    def _endpoint(self, source: str) -> Any:
        async def endpoint(request: Request) -> Response:
            began = time.perf_counter()
            try:
                return await self.receive(source, request)
            finally:
                self.metrics.latency.labels(source).observe(time.perf_counter() - began)

        return endpoint

    def _peer(self, request: Request) -> str:
        return request.client.host if request.client else ""

    async def receive(self, source: str, request: Request) -> Response:
        peer = self._peer(request)
        if self.config.behind_proxy:
            if peer not in self.config.proxy_addresses:
                log.warning("refused %s from %s: not the configured proxy", source, peer)
                self.metrics.reject("proxy")
                return problem(403, "Forbidden", "Only the configured proxy may call.")
            ok, described = proxy_client_ok(self.config, request.headers)
            if not ok:
                log.warning("refused %s via the proxy: %s", source, described)
                self.metrics.reject("proxy")
                return problem(403, "Forbidden", "The client certificate was not accepted.")
        if source in ACCOUNT_SOURCES and not self._secret_ok(request):
            log.warning("refused %s from %s: missing or wrong secret header", source, peer)
            self.metrics.reject("secret")
            return problem(401, "Unauthorized", "Missing or wrong secret header.")
        try:
            body = await read_capped(request, self.config.max_body)
        except TooLarge:
            log.warning(
                "refused %s from %s: body over %d bytes", source, peer, self.config.max_body
            )
            self.metrics.reject("too_large")
            return problem(
                413, "Content Too Large", f"Bodies are at most {self.config.max_body} bytes."
            )
        except ClientDisconnect:
            return Response(status_code=400)
        try:
            items = parse_body(source, body)
        except BadBody as error:
            log.warning("bad %s body from %s (%d bytes): %s", source, peer, len(body), error)
            self.metrics.reject("bad_body")
            try:
                await self.store.dead_letter(source, peer, str(error), body)
            except DatabaseUnavailable as away:
                return self._unavailable(source, away)
            return problem(400, "Bad Request", str(error))
        self.metrics.received.labels(source).inc(len(items))
        try:
            results = await self.store.deliver(items)
        except DatabaseUnavailable as error:
            return self._unavailable(source, error)
        counts: dict[str, int] = {}
        for result in results:
            self.metrics.outcomes.labels(source, result.outcome).inc()
            counts[result.outcome] = counts.get(result.outcome, 0) + 1
        self.last_item = self.clock()
        log.info("%s: %d item(s) %s", source, len(results), counts)
        return JSONResponse({"items": len(results), **counts})

    def _unavailable(self, source: str, error: DatabaseUnavailable) -> Response:
        """503 with ``Retry-After``, nothing stored: the database away, or every connection
        of the pool busy (counted and logged apart: that one is about this receiver's size)."""
        if isinstance(error, PoolExhausted):
            log.warning("%s (%s: nothing stored, answered 503)", error, source)
            self.metrics.reject("pool_exhausted")
            detail = "The receiver is busy (pool exhausted); nothing was stored. Retry later."
        else:
            log.error("team database unavailable for %s: %s", source, error)
            self.metrics.reject("unavailable")
            detail = "The team database cannot be reached; nothing was stored. Retry later."
        return problem(
            503, "Service Unavailable", detail, **{"Retry-After": str(RETRY_AFTER_SECONDS)}
        )

    def _secret_ok(self, request: Request) -> bool:
        if not self._secret:
            return False  # no secret configured: no Accounts event can be told to be ours
        given = request.headers.get(self.config.secret_header, "").encode("utf-8")
        return hmac.compare_digest(given, self._secret)

    async def healthz(self, _request: Request) -> Response:
        try:
            await self.store.ping()
        except DatabaseUnavailable as error:
            return JSONResponse({"status": "unavailable", "database": str(error)}, 503)
        return JSONResponse({"status": "ok", "receiver": self.config.name})

    async def metrics_page(self, _request: Request) -> Response:
        body, content_type = self.metrics.exposition()
        return PlainTextResponse(body, media_type=content_type)


def create_app(config: ReceiverConfig, store: ReceiverStore | None = None) -> Starlette:
    """The receiver's ASGI app (tests and uvicorn)."""
    return Receiver(config, store).app()
