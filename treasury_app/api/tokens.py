"""OAuth 2.0 client-credentials token sessions, one per API.

* The QR Codes API takes a form-encoded request (``client_id``, ``client_secret``,
  ``grant_type``, optional ``scope``) at ``/oauth/token``; the Accounts API takes JSON
  (``clientId``, ``clientSecret``, ``grantType``) at ``/api/v2/oauth/token``.
* A token is cached with its expiry and renewed 30 to 60 s before it (the margin is drawn
  once per token so that many desktops do not renew in step).
* Concurrent callers share one refresh (single flight, an ``asyncio.Lock``).
* A 401 from the API invalidates the token it was given (:meth:`TokenSession.invalidate`);
  the transport then asks again and repeats its call once.
* Never more than :data:`TOKEN_REQUESTS_PER_MINUTE` token requests in any 60 s: a caller
  beyond that waits for the window instead of getting a 429 from the bank.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from typing import Literal
from urllib.parse import urlencode

import httpx

from treasury_app.api.answers import send_capped
from treasury_app.api.errors import (
    AnswerTooLargeError,
    ApiError,
    ApiFailure,
    RateLimited,
    TokenAnswerError,
    error_from_response,
    transport_failure,
)
from treasury_app.api.proxies import ProxyRefusal
from treasury_app.domain.money import dumps_json_bytes, loads_json

ApiName = Literal["qrcodes", "accounts"]

TOKEN_PATHS: dict[ApiName, str] = {"qrcodes": "/oauth/token", "accounts": "/api/v2/oauth/token"}
TOKEN_REQUESTS_PER_MINUTE = 10
RATE_WINDOW_SECONDS = 60.0
RENEW_MARGIN_SECONDS = (30.0, 60.0)
RATE_SAFETY_SECONDS = 0.25  # the bank counts from when it received the request
TOKEN_ATTEMPTS = 3

log = logging.getLogger("treasury_app.api.tokens")

# RFC 6750's b64token: what can go in an Authorization header as it is.
_BEARER_TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
MAX_TOKEN_LENGTH = 8192
MAX_TOKEN_ANSWER = 64 * 1024  # a token answer is a few hundred bytes
MAX_TOKEN_LIFETIME = 86_400  # a day; the bank's tokens live 300 s and 3600 s


def _lifetime(value: object) -> int | None:
    """``expires_in`` as whole seconds in 1..MAX_TOKEN_LIFETIME, or ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, Decimal):
        if not value.is_finite() or value != value.to_integral_value():
            return None
        value = int(value) if abs(value) <= MAX_TOKEN_LIFETIME else MAX_TOKEN_LIFETIME + 1
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) <= 9:
        value = int(value.strip())
    if not isinstance(value, int) or not 1 <= value <= MAX_TOKEN_LIFETIME:
        return None
    return value


class Secret:
    """A string that never shows itself in ``repr``/``str``, logs or tracebacks."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and other._value == self._value

    def __hash__(self) -> int:
        return hash(self._value)

    def __bool__(self) -> bool:
        return bool(self._value)


@dataclass
class TokenState:
    """What the status bar shows about one API's token."""

    api: ApiName
    valid_until: datetime | None = None
    scope: str | None = None
    last_error: str | None = None
    requests: int = 0
    issued: int = 0

    @property
    def has_token(self) -> bool:
        return self.valid_until is not None


@dataclass
class _Cached:
    access_token: str
    expires_at: float  # on the session's monotonic clock
    renew_at: float


class TokenSession:
    """The access token of one API for one session of the app."""

    def __init__(
        self,
        api: ApiName,
        client_id: str,
        client_secret: Secret,
        *,
        scopes: tuple[str, ...] = (),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        limit: int = TOKEN_REQUESTS_PER_MINUTE,
        window: float = RATE_WINDOW_SECONDS,
    ) -> None:
        if not client_id or not client_secret:
            raise ValueError("A client id and a client secret are required.")
        self.api: ApiName = api
        self.path = TOKEN_PATHS[api]
        self._client_id = client_id
        self._client_secret = client_secret
        self.scopes = tuple(scopes)
        self._clock = clock
        self._sleep = sleep
        self._rng = rng or random.Random()
        self._limit = limit
        self._window = window
        self._sent: deque[float] = deque()
        self._lock = asyncio.Lock()
        self._cached: _Cached | None = None
        self.state = TokenState(api)

    # -- public ------------------------------------------------------------------------------

    async def token(self, http: httpx.AsyncClient) -> str:
        """A valid access token: the cached one, or one fresh request shared by all callers."""
        cached = self._fresh()
        if cached is not None:
            return cached
        async with self._lock:
            cached = self._fresh()  # another caller may have renewed while we waited
            if cached is not None:
                return cached
            return await self._request_token(http)

    def invalidate(self, access_token: str | None = None) -> None:
        """Forget the cached token (only if it is still ``access_token``, when given): a 401
        seen by several concurrent calls leads to one renewal, not one each."""
        if self._cached is not None and (
            access_token is None or self._cached.access_token == access_token
        ):
            self._cached = None
            self.state.valid_until = None

    @property
    def requests_sent(self) -> int:
        return self.state.requests

    # -- internals ---------------------------------------------------------------------------

    def _fresh(self) -> str | None:
        cached = self._cached
        if cached is not None and self._clock() < cached.renew_at:
            return cached.access_token
        return None

    async def _wait_for_rate_window(self) -> None:
        while True:
            now = self._clock()
            while self._sent and now - self._sent[0] >= self._window:
                self._sent.popleft()
            if len(self._sent) < self._limit:
                self._sent.append(now)
                return
            wait = self._sent[0] + self._window - now
            log.info("%s token requests at the limit; waiting %.1f s", self.api, wait)
            await self._sleep(max(wait, 0.0) + RATE_SAFETY_SECONDS)

    def _body(self) -> tuple[bytes, str]:
        secret = self._client_secret.reveal()
        if self.api == "qrcodes":
            form = {
                "client_id": self._client_id,
                "client_secret": secret,
                "grant_type": "client_credentials",
            }
            if self.scopes:
                form["scope"] = " ".join(self.scopes)
            return urlencode(form).encode("ascii"), "application/x-www-form-urlencoded"
        body: dict[str, str] = {
            "clientId": self._client_id,
            "clientSecret": secret,
            "grantType": "client_credentials",
        }
        if self.scopes:
            body["scope"] = " ".join(self.scopes)
        return dumps_json_bytes(body), "application/json"

    async def _request_token(self, http: httpx.AsyncClient) -> str:
        content, content_type = self._body()
        last: ApiFailure | None = None
        for attempt in range(1, TOKEN_ATTEMPTS + 1):
            await self._wait_for_rate_window()
            self.state.requests += 1
            try:
                response = await self._post(http, content, content_type)
            except httpx.TransportError as error:
                last = transport_failure(error, method="POST", path=self.path)
                if isinstance(error, ProxyRefusal):
                    break  # a route the app refuses (a PAC script, a proxy's login): no retry
            else:
                if response.is_success:
                    return self._store(response)
                last = error_from_response(response)
                if not (isinstance(last, RateLimited) or last.status >= 500):
                    break  # 400/401/403: the credentials are wrong; asking again won't help
            self.state.last_error = str(last)
            if attempt < TOKEN_ATTEMPTS:
                retry_after = last.retry_after if isinstance(last, ApiError) else None
                delay = retry_after if retry_after is not None else 0.5 * 2 ** (attempt - 1)
                await self._sleep(min(delay, RATE_WINDOW_SECONDS))
        assert last is not None
        self.state.last_error = str(last)
        log.warning("%s token request failed: %s", self.api, last)
        raise last

    async def _post(
        self, http: httpx.AsyncClient, content: bytes, content_type: str
    ) -> httpx.Response:
        """One token request, its answer read whole unless it is larger than a token answer
        can honestly be (:data:`MAX_TOKEN_ANSWER`; a gzip bomb stops there)."""
        request = http.build_request(
            "POST",
            self.path,
            content=content,
            headers={"content-type": content_type, "accept": "application/json"},
        )
        try:
            return await send_capped(http, request, MAX_TOKEN_ANSWER, "token")
        except AnswerTooLargeError:
            raise TokenAnswerError(
                f"The {self.api} token endpoint's answer is larger than "
                f"{MAX_TOKEN_ANSWER // 1024} KiB: it is not a token answer, and no token was "
                "obtained."
            ) from None

    def _store(self, response: httpx.Response) -> str:
        try:
            body = loads_json(response.content)
        except ValueError:
            raise TokenAnswerError(
                f"The {self.api} token endpoint's answer is not JSON: no token was obtained."
            ) from None
        if not isinstance(body, dict) or "access_token" not in body:
            raise TokenAnswerError(
                f"The {self.api} token endpoint's answer has no access_token: no token was "
                "obtained."
            )
        access_token = body["access_token"]
        if (
            not isinstance(access_token, str)
            or not _BEARER_TOKEN.fullmatch(access_token)
            or len(access_token) > MAX_TOKEN_LENGTH
        ):
            raise TokenAnswerError(
                f"The {self.api} token endpoint sent a token that is not a plain bearer token "
                "(empty, too long, or with characters such as accents or line breaks): it was "
                "not used."
            )
        expires_in = _lifetime(body.get("expires_in", 300))
        if expires_in is None:
            raise TokenAnswerError(
                f"The {self.api} token endpoint gave the token a lifetime that is not a number "
                f"of seconds between 1 and {MAX_TOKEN_LIFETIME} (expires_in="
                f"{str(body.get('expires_in'))[:40]!r}): it was not used."
            )
        now = self._clock()
        low, high = RENEW_MARGIN_SECONDS
        margin = min(self._rng.uniform(low, high), expires_in / 2)
        self.state.issued += 1
        self._cached = _Cached(access_token, now + expires_in, now + expires_in - margin)
        self.state.valid_until = datetime.now(UTC) + timedelta(seconds=expires_in)
        scope = body.get("scope")
        self.state.scope = scope if isinstance(scope, str) else None
        self.state.last_error = None
        log.info("%s token obtained, valid for %d s", self.api, expires_in)
        return access_token
