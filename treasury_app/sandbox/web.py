"""Plumbing shared by both sandbox servers: JSON bodies with exact decimals, problem
responses, the client-certificate check, and the app factory."""

from __future__ import annotations

import decimal
import json
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Receive, Scope, Send

from treasury_app.domain.money import dumps_json_bytes, loads_json
from treasury_app.sandbox.faults import FaultInjector, FaultMiddleware
from treasury_app.sandbox.pki import API_TITLES
from treasury_app.sandbox.problems import TITLES, Problem, invalid, problem_response

log = logging.getLogger("treasury_app.sandbox")
Handler = Callable[[Request], Awaitable[Response]]


class JsonResponse(Response):
    """JSON whose ``Decimal`` values are written as exact numbers (never through float)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return dumps_json_bytes(content)


async def read_json(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, numbers read as ``Decimal``."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    body = await request.body()
    if content_type != "application/json":
        raise invalid("O corpo da requisição deve ser application/json.")
    try:
        data = loads_json(body)
    except (ValueError, UnicodeDecodeError):
        raise invalid("O corpo da requisição não é JSON válido.") from None
    if not isinstance(data, dict):
        raise invalid("O corpo da requisição deve ser um objeto JSON.")
    return data


def query_int(
    request: Request, name: str, default: int, low: int, high: int, *, dotted: bool = False
) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = low - 1
    if not low <= value <= high:
        from treasury_app.sandbox.problems import Violation

        raise invalid(
            f"{name} deve ser um inteiro de {low} a {high}.",
            Violation("fora do intervalo", name, raw),
        )
    return value


class PeerApiCheck:
    """Refuses (403) a client certificate that was not issued for this server's API.

    The TLS layer already refuses certificates of other CAs; this is the second lock, and the
    one that gives a readable error when a certificate is otherwise trusted.
    """

    def __init__(self, app: ASGIApp, api: str) -> None:
        self.app = app
        self.unit = API_TITLES[api]
        self.api = api

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            peercert = scope.get("extensions", {}).get("tls", {}).get("peercert") or {}
            units = [
                value
                for rdn in peercert.get("subject", ())
                for key, value in rdn
                if key == "organizationalUnitName"
            ]
            if self.unit not in units:
                request = Request(scope, receive)
                response = problem_response(
                    request,
                    Problem(403, "Certificado de cliente ausente ou de outra API."),
                    self.api,
                )
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def build_app(api: str, routes: Sequence[BaseRoute], faults: FaultInjector) -> ASGIApp:
    async def on_problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Problem)
        return problem_response(request, exc, api)

    async def on_http(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, HTTPException)
        detail = {404: "Recurso não encontrado.", 405: "Método não permitido para este recurso."}
        # Starlette's own detail is English ("Bad Request"): a bank's title instead.
        problem = Problem(
            exc.status_code,
            detail.get(exc.status_code) or TITLES.get(exc.status_code, "Erro") + ".",
            headers=dict(exc.headers or {}),  # 405 keeps its Allow header
        )
        return problem_response(request, problem, api)

    async def on_bad_number(request: Request, exc: Exception) -> Response:
        # A number no amount can be (1e309, 29 digits): the client's input, never a 500.
        return problem_response(
            request,
            invalid("Um valor numérico está fora do intervalo aceito (muito grande ou inválido)."),
            api,
        )

    async def on_too_deep(request: Request, exc: Exception) -> Response:
        return problem_response(request, invalid("O corpo da requisição é aninhado demais."), api)

    async def on_disconnect(request: Request, exc: Exception) -> Response:
        # The client gave up (its read timeout) while we read the body: nobody to answer.
        log.info("client disconnected during %s %s", request.method, request.url.path)
        return Response(status_code=499)

    async def on_error(request: Request, exc: Exception) -> Response:
        log.error("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
        return problem_response(request, Problem(500, "Erro interno do sandbox."), api)

    app = Starlette(
        routes=list(routes),
        exception_handlers={
            Problem: on_problem,
            HTTPException: on_http,
            decimal.InvalidOperation: on_bad_number,
            OverflowError: on_bad_number,
            RecursionError: on_too_deep,
            ClientDisconnect: on_disconnect,
            Exception: on_error,
        },
    )
    return PeerApiCheck(FaultMiddleware(app, faults, api), api)


def paged(items: list[Any], page: int, per_page: int) -> dict[str, Any]:
    """The Accounts API list envelope: ``data`` and ``meta`` (pages start at 1)."""
    total = len(items)
    start = (page - 1) * per_page
    return {
        "data": items[start : start + per_page],
        "meta": {
            "page": page,
            "perPage": per_page,
            "totalItems": total,
            "totalPages": max(1, -(-total // per_page)),
        },
    }


def dumps(value: Any) -> str:
    return json.dumps(value, default=str, ensure_ascii=False)
