"""What can go wrong on the wire, as typed exceptions.

Two families the services layer must tell apart:

* :class:`ApiError` — the bank answered with an error (RFC 7807 problem): the request was
  received and refused; nothing happened on the bank's side (a 5xx excepted, see
  :class:`ServerError`).
* :class:`TransportFailure` — no usable answer (timeout, reset, refused connection). Unless
  :attr:`TransportFailure.request_sent` is ``False`` the outcome is **unknown**: a payment may
  have been committed. The exactly-once logic asks the bank (by idempotency key) before it
  ever sends again. :class:`ProxyFailure` is the kind where a proxy stood in the way: it
  names the proxy by host and port, never its credentials.

No message or attribute ever carries a secret: request bodies and headers are not kept.
"""

from __future__ import annotations

import re
import ssl
from dataclasses import dataclass
from typing import Any

import httpx

from treasury_app.api.proxies import ProxyRefusal, ProxyRoute, UnsupportedProxy, route_of
from treasury_app.domain.errors import Reason
from treasury_app.domain.money import loads_json

PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class Violation:
    """One entry of a problem's ``violacoes``: why, which property, which value."""

    razao: str
    propriedade: str
    valor: str | None = None

    def __str__(self) -> str:
        return f"{self.propriedade}: {self.razao}" if self.propriedade else self.razao


class ApiFailure(Exception):
    """Base of every failure of a call to the bank."""


class ApiError(ApiFailure):
    """The bank answered with an HTTP error (an RFC 7807 problem when it sent one)."""

    default_title = "The bank refused the request"

    def __init__(
        self,
        status: int,
        *,
        type: str = "about:blank",  # the RFC 7807 field name
        title: str | None = None,
        detail: str | None = None,
        instance: str | None = None,
        violacoes: list[Violation] | None = None,
        method: str | None = None,
        path: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        self.status = status
        self.type = type
        self.title = title or self.default_title
        self.detail = detail or ""
        self.instance = instance or path or ""
        self.violacoes = list(violacoes or [])
        self.method = method
        self.path = path
        self.retry_after = retry_after
        # Set by error_from_response when a proxy, not the bank, gave this answer.
        self.proxy_failure: ProxyFailure | None = None
        super().__init__(self._message())

    def _message(self) -> str:
        head = f"{self.status} {self.title}"
        if self.detail and self.detail != self.title:
            head += f": {self.detail}"
        if self.violacoes:
            head += " (" + "; ".join(str(v) for v in self.violacoes) + ")"
        if self.method and self.path:
            head += f" [{self.method} {self.path}]"
        return head

    @property
    def properties(self) -> set[str]:
        """The ``propriedade`` of every violation (to mark the fields of a form)."""
        return {v.propriedade for v in self.violacoes if v.propriedade}

    @property
    def type_name(self) -> str:
        """The problem's type as a code: the last word of its ``type`` URI
        (``https://pix.bcb.gov.br/api/v2/error/CobOperacaoInvalida`` -> ``CobOperacaoInvalida``,
        ``urn:...:error:SaldoInsuficiente`` -> ``SaldoInsuficiente``); ``""`` for
        ``about:blank`` or a type that ends in no word. The UI says it in words."""
        if self.type in ("", "about:blank"):
            return ""
        found = _TYPE_NAME.search(self.type.strip().rstrip("/"))
        return found.group(0) if found else ""


_TYPE_NAME = re.compile(r"(?<=[/:#])[A-Za-z][A-Za-z0-9_]*$")
_STATUS_PREFIX = re.compile(r"^[1-5][0-9]{2} ")
_REQUEST_SUFFIX = re.compile(r" \[[A-Z]+ [^\]]*\]$")


def refusal_reason(message: str) -> str:
    """The bank's explanation in a refusal's message as :class:`ApiError` writes it (status,
    title, detail, violations, ``[method path]``) or a :class:`TransportFailure`'s: without
    the HTTP status, the request's method and path, and the title when a detail follows it.
    A journal keeps the whole message; a person reads this."""
    text = _REQUEST_SUFFIX.sub("", message.strip())
    if _STATUS_PREFIX.match(text):
        text = _STATUS_PREFIX.sub("", text, count=1)
        colon, paren = text.find(": "), text.find(" (")
        if colon >= 0 and (paren < 0 or colon < paren) and text[colon + 2 :].strip():
            text = text[colon + 2 :]  # the detail (and violations) after the title
    return text.strip()


class BadRequest(ApiError):
    default_title = "Invalid request"


class Unauthorized(ApiError):
    default_title = "Access token invalid or expired"


class Forbidden(ApiError):
    default_title = "Permission denied (scope or client certificate)"


class NotFound(ApiError):
    default_title = "Not found"


class IdempotencyKeyReused(ApiError):
    default_title = "Idempotency key already used"


class BusinessRuleViolation(ApiError):
    default_title = "Business rule violated"


class RateLimited(ApiError):
    default_title = "Too many requests"


class ServerError(ApiError):
    """5xx: a technical failure at the bank. For a payment the outcome is not certain."""

    default_title = "Technical failure at the bank"


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    412: IdempotencyKeyReused,
    422: BusinessRuleViolation,
    429: RateLimited,
}


def error_class(status: int) -> type[ApiError]:
    if status >= 500:
        return ServerError
    return _BY_STATUS.get(status, ApiError)


class TransportFailure(ApiFailure):
    """No usable answer: timeout, connection reset, TLS failure, dropped response.

    ``request_sent`` is ``False`` only when the request certainly never reached the bank
    (the connection could not be opened); otherwise the outcome is unknown.
    """

    def __init__(self, message: str, *, method: str, path: str, request_sent: bool) -> None:
        self.method = method
        self.path = path
        self.request_sent = request_sent
        super().__init__(f"{message} [{method} {path}]")

    @property
    def outcome_unknown(self) -> bool:
        return self.request_sent


class ProxyFailure(TransportFailure):
    """The exchange failed at the proxy between the app and the bank: it could not be reached,
    refused the tunnel to the bank (``status``: 403, 407 when it wants credentials...), broke
    the TLS handshake (a TLS-inspecting proxy: a client certificate cannot pass through it), or
    answered instead of the bank. ``proxy`` is its host and port, never its credentials.
    ``reason``: the rule's code when the app refused the route itself (a PAC script that
    cannot be used, a proxy asking for an integrated login): the UI shows its words."""

    def __init__(
        self,
        message: str,
        *,
        proxy: str,
        method: str,
        path: str,
        request_sent: bool,
        status: int | None = None,
        reason: Reason | None = None,
    ) -> None:
        self.proxy = proxy
        self.status = status
        self.reason = reason
        super().__init__(message, method=method, path=path, request_sent=request_sent)


TLS_INSPECTION_HINT = (
    "a proxy that inspects TLS must let the bank's hosts through untouched (a client "
    "certificate cannot pass through inspection)"
)


def request_not_sent(error: httpx.TransportError) -> bool:
    """Whether the request certainly never reached the bank: the connection (or the proxy's
    tunnel to the bank) could not be opened."""
    return isinstance(
        error, httpx.ConnectError | httpx.ConnectTimeout | httpx.PoolTimeout | httpx.ProxyError
    )


def transport_failure(error: httpx.TransportError, *, method: str, path: str) -> TransportFailure:
    """The typed failure for an httpx transport error; nothing was sent only when the
    connection could not be opened. Through a proxy, a :class:`ProxyFailure` naming it."""
    if isinstance(error, ProxyRefusal):
        return _refusal_failure(error, method=method, path=path)
    through = route_of(error)
    if through is not None:
        return _proxy_transport_failure(error, through, method=method, path=path)
    sent = not request_not_sent(error)
    if isinstance(error, httpx.TimeoutException):
        detail = str(error)
        message = (
            f"No complete answer from the bank in time: {detail}"
            if "overall deadline" in detail
            else f"No answer from the bank in time ({type(error).__name__})"
        )
    elif isinstance(error, httpx.ConnectError):
        message = "Could not connect to the bank (network, address or TLS handshake)"
    else:
        message = (
            "The connection to the bank was closed before an answer arrived "
            f"({type(error).__name__}); if this repeats, the bank may be refusing the client "
            "certificate"
        )
    return TransportFailure(message, method=method, path=path, request_sent=sent)


def _proxy_transport_failure(
    error: httpx.TransportError, through: ProxyRoute, *, method: str, path: str
) -> ProxyFailure:
    proxy = through.label
    status: int | None = None
    if isinstance(error, UnsupportedProxy):
        message = (
            f"The system's proxy {proxy} is not an HTTP proxy: the app uses only http:// and "
            "https:// proxies; choose another proxy in the profile"
        )
    elif isinstance(error, httpx.ProxyError):
        answer = str(error).strip()
        status = int(answer.split()[0]) if answer[:3].isdigit() else None
        if status == 407:
            message = (
                f"The proxy {proxy} asks for credentials (407 Proxy Authentication Required) "
                "and did not let the request through to the bank"
            )
        else:
            message = f"The proxy {proxy} refused to connect to the bank ({answer or 'no reason'})"
    elif isinstance(error, httpx.ConnectTimeout):
        message = f"The proxy {proxy} did not answer in time (ConnectTimeout)"
    elif isinstance(error, httpx.ConnectError) and _caused_by(error, ssl.SSLError):
        message = (
            f"The TLS handshake with the bank through the proxy {proxy} failed: the proxy may be "
            f"inspecting TLS; {TLS_INSPECTION_HINT}"
        )
    elif isinstance(error, httpx.ConnectError):
        message = (
            f"Could not connect to the proxy {proxy} (refused or unreachable); check the "
            "profile's proxy setting"
        )
    elif isinstance(error, httpx.TimeoutException):
        message = (
            f"No answer from the bank in time through the proxy {proxy} ({type(error).__name__})"
        )
    else:
        message = (
            f"The connection to the bank through the proxy {proxy} was closed before an answer "
            f"arrived ({type(error).__name__}); if this repeats, {TLS_INSPECTION_HINT}"
        )
    return ProxyFailure(
        message,
        proxy=proxy,
        method=method,
        path=path,
        request_sent=not request_not_sent(error),
        status=status,
    )


_REFUSALS = {
    "proxy.integrated_login": "The proxy {proxy} asks for an integrated Windows login "
    "(Negotiate/NTLM), which the app does not give; IT must let these hosts through it "
    "without a login: {hosts}",
    "proxy.login_required": "The proxy {proxy} asks for credentials ({schemes}), which the "
    "app does not give; IT must let these hosts through it without a login: {hosts}",
}


def _refusal_failure(error: ProxyRefusal, *, method: str, path: str) -> ProxyFailure:
    """The failure for a route the app refused (its words are the UI's, from the code)."""
    params = dict(error.reason.params)
    template = _REFUSALS.get(error.code)
    if template is not None:
        message = template.format(**{"schemes": "", **params})
    else:  # proxy.pac_*: the automatic proxy script
        message = (
            f"The automatic proxy script {params.get('script', '')} cannot be used ({error.code})"
        )
    return ProxyFailure(
        message,
        proxy=str(params.get("proxy", "")),
        method=method,
        path=path,
        request_sent=False,
        status=407 if error.code in _REFUSALS else None,
        reason=error.reason,
    )


def _caused_by(error: BaseException, kind: type[BaseException]) -> bool:
    """Whether ``kind`` is among the exceptions that led to ``error`` (httpx wraps httpcore's
    error, which wraps the ``ssl`` or socket one)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, kind):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def proxy_answer_failure(response: httpx.Response) -> ProxyFailure | None:
    """A :class:`ProxyFailure` when ``response`` came through a proxy and is the proxy's own
    answer rather than the bank's: a 407, an HTML page, or an error that is not JSON (the bank
    answers errors as problem JSON). Only a proxy that inspects TLS can answer inside the
    tunnel, and the bank never sees such a request; still, a 5xx may follow a forwarded
    request, so the outcome is unknown unless the proxy asked for credentials."""
    through = route_of(response)
    if through is None:
        return None
    status = response.status_code
    media = response.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    json_like = media.endswith("json") or media.endswith("+json")
    if not (status == 407 or media == "text/html" or (status >= 400 and not json_like)):
        return None
    request = response.request
    proxy = through.label
    if status == 407:
        message = (
            f"The proxy {proxy} asks for credentials (407 Proxy Authentication Required) and "
            "did not let the request through to the bank"
        )
    else:
        kind = media or "no content type"
        message = (
            f"The proxy {proxy} answered instead of the bank (HTTP {status}, {kind}): "
            f"{TLS_INSPECTION_HINT}"
        )
    return ProxyFailure(
        message,
        proxy=proxy,
        method=request.method,
        path=request.url.path,
        request_sent=status != 407,
        status=status,
    )


class ResponseFormatError(ApiFailure):
    """The bank answered 2xx with a body our models cannot read."""


class AnswerTooLargeError(ResponseFormatError):
    """The bank's answer is larger than the transport accepts (the answer's size after gzip,
    whatever its status): refused before it was held whole. A gzip "bomb" of 300 KB that
    inflates to 300 MB stops at the limit. The request was sent and answered, so for a payment
    the outcome is unknown, as with a lost answer: it is looked up by its key."""

    title = "The bank's answer is too large"

    def __init__(
        self, *, method: str, path: str, limit: int, kind: str, announced: int | None = None
    ) -> None:
        self.method = method
        self.path = path
        self.limit = limit
        self.kind = kind
        self.announced = announced
        accepted = f"the {byte_size(limit)} accepted for a {kind} answer"
        super().__init__(
            f"The bank's answer is larger than {accepted}; it was refused before it was read "
            f"whole [{method} {path}]"
            if announced is None
            else f"The bank's answer announces {byte_size(announced)}, more than {accepted}; it "
            f"was refused unread [{method} {path}]"
        )


def byte_size(count: int) -> str:
    """A size for a message: ``1536`` -> ``'1.5 KiB'``, ``16 * 2**20`` -> ``'16 MiB'``."""
    if count < 1024:
        return f"{count} bytes"
    size = count / 1024
    for unit in ("KiB", "MiB"):
        if size < 1024:
            return f"{size:.1f}".removesuffix(".0") + f" {unit}"
        size /= 1024
    return f"{size:.1f}".removesuffix(".0") + " GiB"


class TokenAnswerError(ResponseFormatError):
    """The token endpoint answered 2xx with a token that cannot be used: missing, not a plain
    bearer token (non-ASCII, CR/LF), or a lifetime that is not a sensible number of seconds.
    An authentication failure: nothing was sent with it."""


def parse_retry_after(value: str | None) -> int | None:
    """Seconds from a ``Retry-After`` header: RFC 9110 delta-seconds, a non-negative integer
    (the HTTP-date form, and anything odd, gives ``None``: the backoff decides then)."""
    text = (value or "").strip()
    if not text.isdigit():
        return None
    return int(text)


def _violations(raw: Any) -> list[Violation]:
    result: list[Violation] = []
    if isinstance(raw, list):
        for item in raw:
            if isinstance(item, dict):
                valor = item.get("valor")
                result.append(
                    Violation(
                        razao=str(item.get("razao") or ""),
                        propriedade=str(item.get("propriedade") or ""),
                        valor=None if valor is None else str(valor),
                    )
                )
    return result


def error_from_response(response: httpx.Response) -> ApiError:
    """Map an HTTP error answer to its typed exception, reading the problem body if any."""
    request = response.request
    method, path = request.method, request.url.path
    body: Any = None
    try:
        if response.content:
            body = loads_json(response.content)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {}
    cls = error_class(response.status_code)
    detail = body.get("detail")
    if detail is None and not body and response.content:
        detail = response.text[:200]
    error = cls(
        response.status_code,
        type=str(body.get("type") or "about:blank"),
        title=body.get("title") if isinstance(body.get("title"), str) else None,
        detail=str(detail) if detail is not None else None,
        instance=body.get("instance") if isinstance(body.get("instance"), str) else None,
        violacoes=_violations(body.get("violacoes")),
        method=method,
        path=path,
        retry_after=parse_retry_after(response.headers.get("retry-after")),
    )
    error.proxy_failure = proxy_answer_failure(response)
    return error
