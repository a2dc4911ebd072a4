"""One HTTP transport per API and session: mTLS, tokens, retries, typed errors, redacted logs.

:class:`ApiTransport` owns one ``httpx.AsyncClient`` (keep-alive, HTTP/2 when the server
offers it) for the whole session. Every call:

1. gets a token from the API's :class:`~treasury_app.api.tokens.TokenSession`;
2. is retried — only when it is safe to repeat (GET, DELETE, PUT with a client-chosen id,
   POST with an ``x-idempotency-key``, always the same key) — on 429, 500, 502, 503, 504 and
   connection failures, with exponential backoff and full jitter, honouring ``Retry-After``,
   at most :attr:`RetryPolicy.max_attempts` attempts;
3. on a 401 invalidates its token and is repeated once with a new one;
4. reads its answer a bounded step at a time (gzip included) and refuses it past
   :class:`AnswerLimits` with :class:`~treasury_app.api.errors.AnswerTooLargeError`, never
   retried: a gzip "bomb" costs the limit, not what it inflates to;
5. ends in the answer (2xx), a typed :class:`~treasury_app.api.errors.ApiError`, or a
   :class:`~treasury_app.api.errors.TransportFailure` when the outcome is unknown.

Requests go direct or through a proxy as
:class:`~treasury_app.api.autoproxy.resolver.ProxyResolver` decides per request (the
profile's :class:`~treasury_app.api.proxies.ProxySetting`, an automatic proxy script, the
system's settings and bypass list, loopback always direct), through the script's next proxy
when one cannot be reached; httpx's own reading of the environment is off (``trust_env=False``).

A payment POST whose answer was lost and whose retry meets ``412`` (the bank already has this
idempotency key) is a :class:`TransportFailure` too: the first attempt most likely committed,
and only a query by idempotency key can tell. Likewise a PUT or DELETE whose answer was lost
and whose retry meets a 4xx ("txid already used", "refund id already used", "not found"): the
first attempt's outcome is unknown, and only reading the resource by its id can tell.
"""

from __future__ import annotations

import asyncio
import logging
import random
import ssl
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from enum import Enum
from typing import Any, Self, TypeVar

import httpx
from pydantic import BaseModel

from treasury_app import __version__
from treasury_app.api.answers import send_capped
from treasury_app.api.autoproxy.resolver import PacFailure, ProxyResolver
from treasury_app.api.autoproxy.wpad import WpadDiscovery
from treasury_app.api.errors import (
    AnswerTooLargeError,
    ApiError,
    IdempotencyKeyReused,
    ResponseFormatError,
    TransportFailure,
    error_from_response,
    parse_retry_after,
    proxy_answer_failure,
    request_not_sent,
    transport_failure,
)
from treasury_app.api.proxies import (
    ProxyRefusal,
    ProxyRoute,
    ProxySetting,
    RoutingTransport,
    SystemProxies,
    route,
)
from treasury_app.api.tls import ClientIdentity, Trust
from treasury_app.api.tokens import ApiName, Secret, TokenSession
from treasury_app.domain.identifiers import is_valid_idempotency_key
from treasury_app.domain.money import dumps_json_bytes, loads_json

USER_AGENT = f"TreasuryApp/{__version__} (+httpx/{httpx.__version__})"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})
REDACTED = "********"
SECRET_HEADERS = frozenset(
    {"authorization", "proxy-authorization", "cookie", "set-cookie", "x-client-secret"}
)
MiB = 1024 * 1024
# Only the codings the transport inflates itself, a bounded step at a time (httpx would also
# offer br and zstd whenever their packages happen to be installed).
ACCEPT_ENCODING = "gzip, deflate"

T = TypeVar("T")
log = logging.getLogger("treasury_app.api.transport")


@dataclass(frozen=True)
class Timeouts:
    connect: float = 5.0
    read: float = 30.0
    write: float = 30.0
    pool: float = 10.0
    # The whole exchange (connect, send, every byte of the answer) of one attempt: the per-read
    # timeout restarts at every byte, so a server that drips an answer would hold it forever.
    total: float = 120.0

    def httpx(self) -> httpx.Timeout:
        return httpx.Timeout(connect=self.connect, read=self.read, write=self.write, pool=self.pool)


@dataclass(frozen=True)
class AnswerLimits:
    """The most bytes one answer may have, counted after gzip; past it the answer is refused
    (:class:`~treasury_app.api.errors.AnswerTooLargeError`) before it is held whole.

    ``json``: the largest legitimate answers are a full page (``itensPorPagina`` and
    ``perPage`` go up to 1,000; 1,000 due-date charges read about 1.6 MB in the sandbox) and
    a batch read with its members in detail (at most 5,000 members, about 8 MB at 1.6 KB
    each); 16 MiB leaves them twice that room, and stops a 300 MB gzip bomb at 16 MiB.

    ``document``: an answer carrying a file (a receipt: a PDF in base64 inside JSON, 4/3 of
    the file's size). A receipt is a page of tens of KB; 32 MiB (a 24 MiB PDF) is generous.
    """

    json: int = 16 * MiB
    document: int = 32 * MiB


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter; ``Retry-After`` wins when the bank sends it."""

    max_attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 8.0
    max_retry_after: float = 30.0
    retry_statuses: frozenset[int] = frozenset({429, 500, 502, 503, 504})

    def backoff(self, attempt: int, rng: random.Random) -> float:
        """Delay before attempt ``attempt + 1``: uniform in [0, min(cap, base·2^(attempt-1))]."""
        return rng.uniform(0.0, min(self.max_delay, self.base_delay * 2 ** (attempt - 1)))

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float | None:
        """The wait before the next attempt, or ``None`` when the bank asks for too long."""
        if retry_after is not None:
            return retry_after if retry_after <= self.max_retry_after else None
        return self.backoff(attempt, rng)


@dataclass(frozen=True, repr=False)
class ApiConfig:
    """Everything needed to talk to one API: address, credentials, certificate, trust."""

    api: ApiName
    base_url: str
    client_id: str
    client_secret: Secret
    identity: ClientIdentity
    trust: Trust
    scopes: tuple[str, ...] = ()
    timeouts: Timeouts = field(default_factory=Timeouts)
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    limits: AnswerLimits = field(default_factory=AnswerLimits)
    http2: bool = True
    # Few connections on purpose: httpcore polls every idle pooled connection on each request,
    # so a large idle pool slows sequential calls (measured: 0.80 -> 0.87 of the bare-httpx
    # floor going from 9 idle connections to at most 4); HTTP/2 multiplexes on one anyway.
    max_connections: int = 4
    proxy: ProxySetting = field(default_factory=ProxySetting)
    # The computer's proxies and bypass list; None: read them when the transport is made.
    system_proxies: SystemProxies | None = None
    # A PAC script that cannot be used: refuse the request ("fail", the default) or go as
    # the settings say without it ("direct": the manual proxy, else direct). See resolver.
    proxy_script_failure: PacFailure = "fail"
    # The profile's bank hosts (both APIs), named to IT when a proxy asks for a login; empty:
    # this API's own host.
    bank_hosts: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (
            f"ApiConfig(api={self.api!r}, base_url={self.base_url!r}, client_id={self.client_id!r})"
        )


@dataclass
class TransportStats:
    requests: int = 0  # HTTP requests sent to the API (token requests not included)
    retries: int = 0
    unauthorized_recoveries: int = 0
    tls_handshakes: int = 0


def redact_headers(headers: Mapping[str, str]) -> dict[str, str]:
    """Headers fit for a log line: credentials replaced by ``********``."""
    return {
        name: (REDACTED if name.lower() in SECRET_HEADERS else value)
        for name, value in headers.items()
    }


def encode_params(params: Mapping[str, Any] | None) -> dict[str, str]:
    """Query parameters on the wire: ``None`` dropped, booleans ``true``/``false``, datetimes
    RFC 3339 UTC, dates ISO, enums by value."""
    encoded: dict[str, str] = {}
    for name, value in (params or {}).items():
        if value is None:
            continue
        if isinstance(value, bool):
            encoded[name] = "true" if value else "false"
        elif isinstance(value, datetime):
            if value.tzinfo is None:
                raise ValueError(f"{name}: a timestamp needs its time zone")
            text = value.astimezone(UTC).isoformat(timespec="milliseconds")
            encoded[name] = text.replace("+00:00", "Z")
        elif isinstance(value, date):
            encoded[name] = value.isoformat()
        elif isinstance(value, Enum):
            encoded[name] = str(value.value)
        else:
            encoded[name] = str(value)
    return encoded


def encode_body(json: Any) -> bytes | None:
    if json is None:
        return None
    if isinstance(json, BaseModel):
        to_wire = getattr(json, "to_wire", None)
        json = to_wire() if to_wire else json.model_dump(by_alias=True, exclude_none=True)
    return dumps_json_bytes(json)


class ApiTransport:
    """The session's connection to one API. Use as ``async with ApiTransport(config) as t``."""

    def __init__(
        self,
        config: ApiConfig,
        *,
        tokens: TokenSession | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.api: ApiName = config.api
        self.stats = TransportStats()
        self._sleep = sleep
        self._rng = rng or random.Random()
        self.tokens = tokens or TokenSession(
            config.api,
            config.client_id,
            config.client_secret,
            scopes=config.scopes,
            clock=clock,
            sleep=sleep,
        )
        context = config.identity.ssl_context(config.trust)
        hooks: list[Callable[[httpx.Request], Awaitable[None]]] = []
        if type(context) is ssl.SSLContext:
            # Count handshakes where they happen, at no cost per request.
            context.sslobject_class = _counting_ssl_object(self.stats)
        else:  # another context class (truststore): count through httpcore's trace events
            hooks.append(self._attach_trace)
        self.system_proxies = (
            config.system_proxies if config.system_proxies is not None else SystemProxies.read()
        )
        limits = httpx.Limits(
            max_connections=config.max_connections,
            max_keepalive_connections=config.max_connections,
        )

        self.proxies = ProxyResolver(
            config.proxy,
            self.system_proxies,
            on_failure=config.proxy_script_failure,
            wpad=WpadDiscovery() if self.system_proxies.auto_detect else None,
        )
        bank_hosts = config.bank_hosts or (host_label(config.base_url),)

        def pool(proxy: httpx.Proxy | None) -> httpx.AsyncHTTPTransport:
            if proxy is not None and proxy.url.scheme == "https":  # TLS to the proxy itself
                proxy = httpx.Proxy(proxy.url, auth=proxy.auth, ssl_context=_proxy_context())
            return httpx.AsyncHTTPTransport(
                verify=context, http2=config.http2, limits=limits, proxy=proxy
            )

        self._routing = RoutingTransport(self.proxies.routes, pool, bank_hosts=bank_hosts)
        self._http = httpx.AsyncClient(
            base_url=config.base_url,
            # One client, several hosts (a payload location may be elsewhere): the proxy is
            # decided per request, never from the environment by httpx.
            transport=self._routing,
            trust_env=False,
            timeout=config.timeouts.httpx(),
            headers={
                "user-agent": USER_AGENT,
                "accept": "application/json",
                "accept-encoding": ACCEPT_ENCODING,
            },
            event_hooks={"request": hooks},
        )
        self._log = logging.getLogger(f"treasury_app.api.{config.api}")

    # -- lifecycle ---------------------------------------------------------------------------

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()
        await self.proxies.aclose()

    @property
    def proxy_route(self) -> ProxyRoute:
        """How requests to the API's own address go: direct (and why) or through which proxy
        (with a PAC script: what it said last, once a request has asked it)."""
        known = self._routing.last_used(self.config.base_url) or self.proxies.last_route(
            self.config.base_url
        )
        if known is not None:
            return known
        return route(self.config.base_url, self.config.proxy, self.system_proxies)

    @property
    def http(self) -> httpx.AsyncClient:
        """The underlying client (token requests go through it: same certificate)."""
        return self._http

    # -- calls -------------------------------------------------------------------------------

    async def request_json(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        authenticated: bool = True,
        document: bool = False,
    ) -> Any:
        """:meth:`request` and its body read with ``loads_json`` (``None`` when empty)."""
        response = await self.request(
            method,
            path,
            json=json,
            params=params,
            idempotency_key=idempotency_key,
            headers=headers,
            authenticated=authenticated,
            document=document,
        )
        if not response.content:
            return None
        try:
            return loads_json(response.content)
        except ValueError:
            raise ResponseFormatError(
                f"The bank's answer to {method} {response.request.url.path} is not JSON."
            ) from None

    async def request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        idempotency_key: str | None = None,
        headers: Mapping[str, str] | None = None,
        authenticated: bool = True,
        document: bool = False,
    ) -> httpx.Response:
        """Send one call (with its retries) and return the 2xx answer, read whole; raise
        otherwise. ``document``: the answer carries a file (a receipt), so
        :attr:`AnswerLimits.document` bounds it rather than :attr:`AnswerLimits.json`."""
        method = method.upper()
        if idempotency_key is not None and not is_valid_idempotency_key(idempotency_key):
            raise ValueError("An idempotency key is 1 to 50 characters of [a-zA-Z0-9].")
        content = encode_body(json)
        query = encode_params(params)
        safe = method in SAFE_METHODS or (method == "POST" and idempotency_key is not None)
        policy = self.config.retry
        limits = self.config.limits
        limit, kind = (limits.document, "document") if document else (limits.json, "JSON")
        give_up_at = time.monotonic() + self.config.timeouts.total  # for every attempt together
        attempt = 1
        recovered_401 = False
        lost_answer = False  # an earlier attempt may have reached the bank
        while True:
            send_headers: dict[str, str] = {}
            if content is not None:
                send_headers["content-type"] = "application/json"
            if idempotency_key is not None:
                send_headers["x-idempotency-key"] = idempotency_key
            send_headers.update(headers or {})
            token: str | None = None
            if authenticated:
                try:
                    token = await self._bounded(
                        self.tokens.token(self._http), "POST", "token", give_up_at
                    )
                except httpx.TransportError as error:
                    raise transport_failure(error, method="POST", path="token") from None
                except ApiError as error:  # a proxy's own page, not the token endpoint's
                    if error.proxy_failure is not None:
                        raise error.proxy_failure from None
                    raise
                send_headers["authorization"] = f"Bearer {token}"
            started = time.perf_counter()
            self.stats.requests += 1
            try:
                request = self._http.build_request(
                    method, path, content=content, params=query or None, headers=send_headers
                )
                response = await self._bounded(
                    self._exchange(request, limit, kind), method, path, give_up_at
                )
            except httpx.TransportError as error:
                if isinstance(error, ProxyRefusal):  # a rule, not a glitch: no retry
                    raise transport_failure(error, method=method, path=_path_of(path)) from None
                sent = not request_not_sent(error)
                self._log.warning(
                    "%s %s attempt %d: %s", method, _path_of(path), attempt, type(error).__name__
                )
                timed_out = time.monotonic() >= give_up_at
                if (safe or not sent) and attempt < policy.max_attempts and not timed_out:
                    lost_answer = lost_answer or sent
                    await self._retry_pause(policy.backoff(attempt, self._rng))
                    attempt += 1
                    continue
                raise transport_failure(error, method=method, path=_path_of(path)) from None
            if self._log.isEnabledFor(logging.DEBUG):
                self._log.debug(
                    "%s %s -> %d in %.0f ms (attempt %d, %s)",
                    method,
                    response.request.url.path,
                    response.status_code,
                    (time.perf_counter() - started) * 1000,
                    attempt,
                    response.http_version,
                )
            status = response.status_code
            if status == 401 and authenticated and not recovered_401:
                recovered_401 = True
                self.stats.unauthorized_recoveries += 1
                self.tokens.invalidate(token)
                continue
            if status in policy.retry_statuses and safe and attempt < policy.max_attempts:
                retry_after = parse_retry_after(response.headers.get("retry-after"))
                delay = policy.delay(attempt, retry_after, self._rng)
                if delay is not None:
                    self._log.info(
                        "%s %s answered %d; retrying in %.2f s",
                        method,
                        response.request.url.path,
                        status,
                        delay,
                    )
                    await self._retry_pause(delay)
                    attempt += 1
                    continue
            if response.is_success:
                failure = proxy_answer_failure(response)  # a proxy's HTML page with a 200
                if failure is not None:
                    raise failure
                return response
            refusal = error_from_response(response)
            if refusal.proxy_failure is not None:
                raise refusal.proxy_failure from None
            if isinstance(refusal, IdempotencyKeyReused) and lost_answer:
                raise TransportFailure(
                    "The answer to the first attempt was lost and the bank already holds this "
                    "idempotency key: the request most likely went through; look it up by "
                    "its idempotency key",
                    method=method,
                    path=response.request.url.path,
                    request_sent=True,
                ) from refusal
            if lost_answer and method in ("PUT", "DELETE") and 400 <= status < 500:
                raise TransportFailure(
                    f"The answer to the first attempt was lost and the retry was refused "
                    f"({status}): the first attempt may have gone through; read the resource "
                    "by its id",
                    method=method,
                    path=response.request.url.path,
                    request_sent=True,
                ) from refusal
            raise refusal

    # -- helpers -----------------------------------------------------------------------------

    async def _exchange(self, request: httpx.Request, limit: int, kind: str) -> httpx.Response:
        """One attempt: send, then read the answer whole, or refuse it past ``limit``."""
        try:
            return await send_capped(self._http, request, limit, kind)
        except AnswerTooLargeError as error:
            self._log.warning("%s: %s", type(error).__name__, error)
            raise

    async def _bounded(self, call: Awaitable[T], method: str, path: str, give_up_at: float) -> T:
        """``call`` within what is left of the call's overall deadline; past it, a read
        timeout (the request may have reached the bank: a payment's outcome is then unknown,
        and resolved by its key)."""
        # asyncio.timeout, not wait_for: Python 3.11's wait_for runs the call in a task of its
        # own and can lose a cancellation that arrives as the answer does (a tab closed at a
        # lock then went on with the answer).
        try:
            async with asyncio.timeout(max(0.0, give_up_at - time.monotonic())):
                return await call
        except TimeoutError:
            raise httpx.ReadTimeout(
                f"no complete answer within {self.config.timeouts.total:.0f} s "
                f"(the overall deadline of {method} {_path_of(path)})"
            ) from None

    async def _retry_pause(self, seconds: float) -> None:
        self.stats.retries += 1
        await self._sleep(seconds)

    async def _attach_trace(self, request: httpx.Request) -> None:
        request.extensions["trace"] = self._trace

    async def _trace(self, event: str, info: Mapping[str, Any]) -> None:
        if event.endswith("start_tls.complete"):
            self.stats.tls_handshakes += 1


def host_label(url: str) -> str:
    """``api.bank.example`` (default port) or ``api.bank.example:8443``: a host as IT
    allows it through a proxy."""
    parsed = httpx.URL(url)
    host = f"[{parsed.host}]" if ":" in parsed.host else parsed.host
    default = {"https": 443, "http": 80}.get(parsed.scheme)
    return host if parsed.port in (None, default) else f"{host}:{parsed.port}"


def _proxy_context() -> ssl.SSLContext:
    """For an https:// proxy: the proxy's own certificate checked against the system store."""
    return Trust.system().base_context()


def _path_of(path: str) -> str:
    return httpx.URL(path).path if "://" in path else path.split("?", 1)[0]


def _counting_ssl_object(stats: TransportStats) -> type[ssl.SSLObject]:
    class CountingSSLObject(ssl.SSLObject):
        """Counts completed TLS handshakes of one transport's connections."""

        def do_handshake(self) -> None:
            super().do_handshake()  # raises SSLWantReadError until the handshake is done
            stats.tls_handshakes += 1

    return CountingSSLObject
