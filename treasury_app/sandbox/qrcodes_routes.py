"""HTTP routes of the sandbox's QR Codes API (BCB Pix standard). Part 1: the token endpoint
and the per-key Pix webhook configuration; charges and Pix Automático come in part 2."""

from __future__ import annotations

import datetime as dt
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from treasury_app.sandbox.auth import AuthService
from treasury_app.sandbox.clock import SandboxClock, iso
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.seed import COMPANY
from treasury_app.sandbox.store import Store
from treasury_app.sandbox.web import JsonResponse, query_int, read_json

API = "qrcodes"


def parse_rfc3339(request: Request, name: str, *, required: bool) -> dt.datetime | None:
    raw = request.query_params.get(name)
    if raw is None:
        if required:
            raise invalid(f"O parâmetro {name} é obrigatório.", Violation("obrigatório", name))
        return None
    try:
        value = dt.datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        raise invalid(
            f"{name} deve ser um instante RFC 3339 com fuso (ex.: 2026-01-01T00:00:00Z).",
            Violation("formato RFC 3339", name, raw),
        )
    return value


def bcb_page(
    request: Request, items: list[dict[str, Any]], key: str, *, required_range: bool
) -> dict[str, Any]:
    """Filter by ``criacao`` within inicio/fim and page BCB-style (``paginacao.*``)."""
    start = parse_rfc3339(request, "inicio", required=required_range)
    end = parse_rfc3339(request, "fim", required=required_range)
    if start and end and end < start:
        raise invalid("fim é anterior a inicio.", Violation("intervalo inválido", "fim"))
    page = query_int(request, "paginacao.paginaAtual", 0, 0, 10**6)
    per_page = query_int(request, "paginacao.itensPorPagina", 100, 1, 1000)
    if start or end:
        items = [
            i
            for i in items
            if (start is None or dt.datetime.fromisoformat(i["criacao"]) >= start)
            and (end is None or dt.datetime.fromisoformat(i["criacao"]) <= end)
        ]
    total = len(items)
    parametros: dict[str, Any] = {}
    if start:
        parametros["inicio"] = iso(start)
    if end:
        parametros["fim"] = iso(end)
    parametros["paginacao"] = {
        "paginaAtual": page,
        "itensPorPagina": per_page,
        "quantidadeDePaginas": max(1, -(-total // per_page)),
        "quantidadeTotalDeItens": total,
    }
    return {"parametros": parametros, key: items[page * per_page : (page + 1) * per_page]}


def bool_query(request: Request, name: str, type_name: str) -> bool | None:
    """A ``true``/``false`` query parameter (None when absent; 400 otherwise)."""
    raw = request.query_params.get(name)
    if raw is None:
        return None
    if raw.lower() not in ("true", "false"):
        raise invalid(
            f"{name} deve ser true ou false.",
            Violation("deve ser true ou false", name, raw),
            type_name=type_name,
        )
    return raw.lower() == "true"


def https_url(body: dict[str, Any], field: str = "webhookUrl") -> str:
    url = body.get(field)
    if not isinstance(url, str) or not url.lower().startswith("https://") or len(url) > 500:
        raise invalid(
            "A URL do webhook deve usar HTTPS.",
            Violation("deve ser uma URL HTTPS", field, str(url)),
            type_name="WebhookOperacaoInvalida",
        )
    return url


def routes(store: Store, clock: SandboxClock, auth: AuthService) -> list[Route]:
    def authorize(request: Request, scope: str) -> None:
        auth.authorize(request, API, scope)

    async def token(request: Request) -> Response:
        return JsonResponse(await auth.token_request(request, API))

    async def webhook(request: Request) -> Response:
        chave = request.path_params["chave"]
        registered = {k.lower(): k for k in COMPANY["keys"]}
        chave = registered.get(chave.lower(), chave)  # e-mail keys: case-insensitive, as charges
        if request.method == "PUT":
            authorize(request, "webhook.write")
            body = await read_json(request)
            url = https_url(body)
            if chave not in COMPANY["keys"]:
                raise invalid(
                    "A chave não pertence a esta conta.",
                    Violation("chave não cadastrada", "chave", chave),
                    type_name="WebhookOperacaoInvalida",
                )
            existing = store.get("qr_webhook", chave)
            item = {
                "webhookUrl": url,
                "chave": chave,
                "criacao": existing["criacao"] if existing else iso(clock.now()),
            }
            store.put("qr_webhook", chave, item, item["criacao"])
            return JsonResponse(item)
        existing = store.get("qr_webhook", chave)
        if request.method == "DELETE":
            authorize(request, "webhook.write")
            if existing is None:
                raise Problem(404, "Webhook não encontrado.", type_name="WebhookNaoEncontrado")
            store.delete("qr_webhook", chave)
            return Response(status_code=204)
        authorize(request, "webhook.read")
        if existing is None:
            raise Problem(404, "Webhook não encontrado.", type_name="WebhookNaoEncontrado")
        return JsonResponse({"webhookUrl": existing["webhookUrl"], "criacao": existing["criacao"]})

    async def webhooks(request: Request) -> Response:
        authorize(request, "webhook.read")
        return JsonResponse(
            bcb_page(request, store.all("qr_webhook"), "webhooks", required_range=True)
        )

    return [
        Route("/oauth/token", token, methods=["POST"]),
        Route("/webhook", webhooks, methods=["GET"]),
        Route("/webhook/{chave}", webhook, methods=["PUT", "GET", "DELETE"]),
    ]
