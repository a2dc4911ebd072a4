"""QR Codes API of the sandbox: the Pix Automático endpoints (rec, solicrec, cobr, locrec,
webhookrec, webhookcobr), the public recurrence payload location, and the control surface
that plays the payer's side. The rules live in :mod:`automatico_bank`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from treasury_app.sandbox.automatico_bank import (
    COBR_STATUSES,
    REC_STATUSES,
    AutomaticoBank,
    Doc,
    public,
)
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.qrcodes_routes import bcb_page, bool_query, https_url
from treasury_app.sandbox.web import JsonResponse, read_json

API = "qrcodes"
Handler = Callable[[Request], Awaitable[Response]]


def bank_for(ctx: QrContext) -> AutomaticoBank:
    """The Pix Automático rules over this context's store (stateless: cheap to build)."""
    return AutomaticoBank(ctx)


async def _optional_json(request: Request) -> Doc:
    """The JSON body, or ``{}`` when the request has none."""
    if not (await request.body()).strip():
        return {}
    return await read_json(request)


def _page(request: Request, items: list[Doc], key: str, type_name: str, *, drop: bool) -> Doc:
    """BCB list envelope; ``drop`` removes the helper ``criacao`` used for inicio/fim."""
    try:
        page = bcb_page(request, items, key, required_range=True)
    except Problem as problem:
        problem.type_name = problem.type_name or type_name
        raise
    if drop:
        for item in page[key]:
            item.pop("criacao", None)
    return page


def _filters(request: Request, type_name: str, statuses: tuple[str, ...]) -> dict[str, str | None]:
    params = request.query_params
    filters: dict[str, str | None] = {
        name: params.get(name) for name in ("cpf", "cnpj", "status", "convenio", "idRec")
    }
    problems = []
    for name in ("cpf", "cnpj", "idRec", "status", "convenio"):
        if filters[name] is not None and not filters[name].strip():  # "cnpj=" filters nothing
            problems.append(Violation("parâmetro vazio", name, filters[name]))
    if filters["cpf"] and filters["cnpj"]:
        problems.append(Violation("ambos os parâmetros cpf e cnpj estão preenchidos", "cnpj"))
    if filters["cpf"] and not (len(filters["cpf"]) == 11 and filters["cpf"].isdigit()):
        problems.append(Violation("CPF deve ter 11 dígitos", "cpf", filters["cpf"]))
    if filters["cnpj"] and not (len(filters["cnpj"]) == 14 and filters["cnpj"].isalnum()):
        problems.append(Violation("CNPJ deve ter 14 caracteres", "cnpj", filters["cnpj"]))
    if filters["status"] and filters["status"] not in statuses:
        problems.append(Violation("status desconhecido", "status", filters["status"]))
    if filters["convenio"] and len(filters["convenio"]) > 60:
        problems.append(Violation("no máximo 60 caracteres", "convenio"))
    if filters["idRec"] and not (len(filters["idRec"]) == 29 and filters["idRec"].isalnum()):
        problems.append(Violation("idRec deve ter 29 letras ou dígitos", "idRec", filters["idRec"]))
    if problems:
        raise invalid(
            "; ".join(v.razao for v in problems).capitalize() + ".",
            *problems,
            type_name=type_name,
        )
    return filters


def _with_filters(page: Doc, filters: dict[str, str | None], extra: Doc) -> Doc:
    params = page["parametros"]
    for name in ("idRec", "cpf", "cnpj", "status"):
        if filters.get(name):
            params[name] = filters[name]
    if filters.get("convenio"):
        params["recebedor"] = {"convenio": filters["convenio"]}
    params.update(extra)
    # paginacao last, as in the BCB examples
    params["paginacao"] = params.pop("paginacao")
    return page


def routes(ctx: QrContext) -> list[Route]:
    """Routes of the QR Codes API server."""

    def authorize(request: Request, scope: str) -> None:
        ctx.auth.authorize(request, API, scope)

    def bank() -> AutomaticoBank:
        return bank_for(ctx)

    # rec ------------------------------------------------------------------------------
    async def recs(request: Request) -> Response:
        if request.method == "POST":
            authorize(request, "rec.write")
            rec = bank().create_rec(await read_json(request))
            return JsonResponse(bank().rec_view(rec), status_code=201)
        authorize(request, "rec.read")
        filters = _filters(request, "RecConsultaInvalida", REC_STATUSES)
        location = bool_query(request, "locationPresente", "RecConsultaInvalida")
        page = _page(
            request,
            bank().list_recs(filters, location),
            "recs",
            "RecConsultaInvalida",
            drop=True,
        )
        extra = {} if location is None else {"locationPresente": location}
        return JsonResponse(_with_filters(page, filters, extra))

    async def rec(request: Request) -> Response:
        id_rec = request.path_params["idRec"]
        if request.method == "PATCH":
            authorize(request, "rec.write")
            doc = bank().patch_rec(id_rec, await read_json(request))
            return JsonResponse(bank().rec_view(doc))
        authorize(request, "rec.read")
        return JsonResponse(bank().rec_with_qr(id_rec, request.query_params.get("txid")))

    # solicrec -------------------------------------------------------------------------
    async def solicrecs(request: Request) -> Response:
        authorize(request, "solicrec.write")
        sol = bank().create_solicrec(await read_json(request))
        return JsonResponse(bank().solicrec_view(sol), status_code=201)

    async def solicrec(request: Request) -> Response:
        id_solic = request.path_params["idSolicRec"]
        if request.method == "PATCH":
            authorize(request, "solicrec.write")
            sol = bank().cancel_solicrec(id_solic, await read_json(request))
            return JsonResponse(bank().solicrec_view(sol), status_code=201)
        authorize(request, "solicrec.read")
        return JsonResponse(bank().solicrec_view(bank().solicrec(id_solic)))

    # cobr -----------------------------------------------------------------------------
    async def cobrs(request: Request) -> Response:
        if request.method == "POST":
            authorize(request, "cobr.write")
            cobr = bank().create_cobr(await read_json(request), None)
            return JsonResponse(public(cobr), status_code=201)
        authorize(request, "cobr.read")
        filters = _filters(request, "CobRConsultaInvalida", COBR_STATUSES)
        page = _page(
            request, bank().list_cobrs(filters), "cobsr", "CobRConsultaInvalida", drop=True
        )
        # BCB names the list "cobsr"; "cobrs" is kept as an alias for readers that use it.
        page["cobrs"] = page["cobsr"]
        return JsonResponse(_with_filters(page, filters, {}))

    async def cobr(request: Request) -> Response:
        txid = request.path_params["txid"]
        if request.method == "PUT":
            authorize(request, "cobr.write")
            doc = bank().create_cobr(await read_json(request), txid)
            return JsonResponse(public(doc), status_code=201)
        if request.method == "PATCH":
            authorize(request, "cobr.write")
            doc = bank().cancel_cobr(txid, await read_json(request))
            return JsonResponse(public(doc))
        authorize(request, "cobr.read")
        return JsonResponse(public(bank().cobr(txid)))

    async def retry(request: Request) -> Response:
        authorize(request, "cobr.write")
        doc = bank().retry_cobr(request.path_params["txid"], request.path_params["data"])
        return JsonResponse(public(doc), status_code=201)

    # locrec ---------------------------------------------------------------------------
    async def locrecs(request: Request) -> Response:
        if request.method == "POST":
            authorize(request, "payloadlocationrec.write")
            return JsonResponse(public(bank().create_locrec()), status_code=201)
        authorize(request, "payloadlocationrec.read")
        type_name = "PayloadLocationRecConsultaInvalida"
        linked = bool_query(request, "idRecPresente", type_name)
        convenio = request.query_params.get("convenio")
        if convenio is not None and (not convenio.strip() or len(convenio) > 60):
            raise invalid(
                "convenio deve ter de 1 a 60 caracteres.",
                Violation("de 1 a 60 caracteres", "convenio", convenio[:80]),
                type_name=type_name,
            )
        items = []
        for loc in ctx.store.all("locrec"):
            if linked is not None and bool(loc.get("idRec")) != linked:
                continue
            if convenio:
                rec = ctx.store.get("rec", loc["idRec"]) if loc.get("idRec") else None
                if rec is None or rec["recebedor"].get("convenio") != convenio:
                    continue
            items.append(public(loc))
        page = _page(request, items, "loc", type_name, drop=False)
        extra: Doc = {} if linked is None else {"idRecPresente": linked}
        if convenio:
            extra["recebedor"] = {"convenio": convenio}
        return JsonResponse(_with_filters(page, {}, extra))

    async def locrec(request: Request) -> Response:
        authorize(request, "payloadlocationrec.read")
        return JsonResponse(public(bank().locrec(request.path_params["id"])))

    async def locrec_unlink(request: Request) -> Response:
        authorize(request, "payloadlocationrec.write")
        return JsonResponse(public(bank().unlink_locrec(request.path_params["id"])))

    async def rec_payload(request: Request) -> Response:
        jws = bank().payload_jws(request.path_params["token"])
        return Response(jws, media_type="application/jose")

    # webhooks -------------------------------------------------------------------------
    def webhook_handler(kind: str) -> Handler:
        type_name = "WebhookRecOperacaoInvalida" if kind == "rec" else "WebhookCobROperacaoInvalida"

        async def handler(request: Request) -> Response:
            if request.method == "GET":
                authorize(request, f"webhook{kind}.read")
                return JsonResponse(bank().webhook(kind))
            authorize(request, f"webhook{kind}.write")
            if request.method == "DELETE":
                bank().delete_webhook(kind)
                return Response(status_code=204)
            try:
                url = https_url(await read_json(request))
            except Problem as problem:
                problem.type_name = type_name
                raise
            return JsonResponse(bank().put_webhook(kind, url))

        return handler

    return [
        Route("/rec", recs, methods=["POST", "GET"]),
        Route("/rec/{idRec}", rec, methods=["GET", "PATCH"]),
        Route("/solicrec", solicrecs, methods=["POST"]),
        Route("/solicrec/{idSolicRec}", solicrec, methods=["GET", "PATCH"]),
        Route("/cobr", cobrs, methods=["POST", "GET"]),
        Route("/cobr/{txid}", cobr, methods=["PUT", "GET", "PATCH"]),
        Route("/cobr/{txid}/retentativa/{data}", retry, methods=["POST"]),
        Route("/locrec", locrecs, methods=["POST", "GET"]),
        Route("/locrec/{id}", locrec, methods=["GET"]),
        Route("/locrec/{id}/idRec", locrec_unlink, methods=["DELETE"]),
        Route("/qr/v2/rec/{token}", rec_payload, methods=["GET"]),
        Route("/webhookrec", webhook_handler("rec"), methods=["PUT", "GET", "DELETE"]),
        Route("/webhookcobr", webhook_handler("cobr"), methods=["PUT", "GET", "DELETE"]),
    ]


def control_routes(ctx: QrContext) -> list[Route]:
    """Routes under /sandbox/... (control surface), mounted on both servers."""

    async def rec_action(request: Request) -> Response:
        action = request.path_params["action"]
        if action not in ("approve", "reject", "expire"):
            raise Problem(404, "Use approve, reject ou expire.")
        body = await _optional_json(request)
        bank = bank_for(ctx)
        rec = bank.control_rec(request.path_params["idRec"], action, body)
        return JsonResponse(bank.rec_view(rec, full=True))

    async def fail_next(request: Request) -> Response:
        body = await _optional_json(request)
        cobr = bank_for(ctx).fail_next(request.path_params["txid"], body)
        return JsonResponse({**public(cobr), "falhaProximaTentativa": cobr["_failNext"]})

    async def notifications(request: Request) -> Response:
        kind = request.query_params.get("kind")
        if kind not in (None, "rec", "cobr"):
            raise invalid("kind deve ser rec ou cobr.", Violation("valor inválido", "kind", kind))
        return JsonResponse({"notifications": bank_for(ctx).notifications(kind)})

    return [
        Route("/sandbox/automatico/rec/{idRec}/{action}", rec_action, methods=["POST"]),
        Route("/sandbox/automatico/cobr/{txid}/fail-next", fail_next, methods=["POST"]),
        Route("/sandbox/automatico/notifications", notifications, methods=["GET"]),
    ]


def tick(ctx: QrContext) -> None:
    """Called by the sandbox ticker (every 0.25 s and after the clock moves)."""
    bank_for(ctx).tick()
