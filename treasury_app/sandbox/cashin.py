"""QR Codes API of the sandbox, Cash In half: cob, cobv, lotecobv, loc, the signed QR
payloads, received Pix and refunds, plus the control surface that plays the payer.

The logic lives in :mod:`treasury_app.sandbox.cashin_bank`; this module is the HTTP layer and
the few functions the Pix Automático module calls (:func:`get_charge`, :func:`create_cob`,
:func:`location_of`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from treasury_app.domain import documents
from treasury_app.sandbox import cashin_bank as bank
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.qrcodes_routes import bcb_page, bool_query
from treasury_app.sandbox.web import JsonResponse, query_int, read_json

API = "qrcodes"
Handler = Callable[[Request], Awaitable[Response]]


# ---------------------------------------------------------------------------------------------
# For the Pix Automático module (journeys 3 and 4)


def get_charge(ctx: QrContext, txid: str) -> dict[str, Any] | None:
    """The cob or cobv ``txid`` as GET /cob|/cobv answers it (with pix[]), or None."""
    kind = bank.charge_kind(ctx, txid)
    charge = ctx.store.get(kind, txid) if kind else None
    return bank.render_charge(ctx, charge) if charge else None


def create_cob(ctx: QrContext, body: dict[str, Any], txid: str | None) -> dict[str, Any]:
    """Create an immediate charge exactly as PUT /cob/{txid} (POST /cob when ``txid`` is None);
    raises :class:`Problem` (400 CobOperacaoInvalida) like the endpoint."""
    return bank.render_charge(ctx, bank.create_charge(ctx, "cob", body, txid), with_pix=False)


def location_of(ctx: QrContext, charge: dict[str, Any]) -> str:
    """The QR address (no scheme) of a charge returned by :func:`get_charge`/:func:`create_cob`
    (or of its stored document); 422 if its location was unlinked."""
    if charge.get("location"):
        return str(charge["location"])
    loc = charge.get("loc")
    if isinstance(loc, dict) and loc.get("token"):
        return bank.location_url(ctx, str(loc["tipoCob"]), str(loc["token"]))
    stored = get_charge(ctx, str(charge.get("txid")))
    if stored and stored.get("location"):
        return str(stored["location"])
    raise Problem(422, "A cobrança não tem location vinculada.")


# ---------------------------------------------------------------------------------------------
# Query helpers


def _page(
    request: Request,
    items: list[dict[str, Any]],
    key: str,
    created: Callable[[dict[str, Any]], str],
    type_name: str,
) -> dict[str, Any]:
    """bcb_page (inicio/fim required, paginacao.*) over ``created(item)`` instead of criacao."""
    wrapped = [{"criacao": created(item), "item": item} for item in items]
    try:
        page = bcb_page(request, wrapped, key, required_range=True)
    except Problem as problem:
        problem.type_name = problem.type_name or type_name
        raise
    page[key] = [w["item"] for w in page[key]]
    return page


def _document_filter(request: Request, type_name: str) -> tuple[str, str] | None:
    cpf, cnpj = request.query_params.get("cpf"), request.query_params.get("cnpj")
    if cpf and cnpj:
        raise invalid(
            "Os filtros cpf e cnpj não podem ser usados juntos.",
            Violation("mutuamente exclusivos", "cnpj", cnpj),
            type_name=type_name,
        )
    if cpf is not None:
        if not documents.is_valid_cpf(cpf):
            raise invalid(
                "cpf inválido.", Violation("CPF inválido", "cpf", cpf), type_name=type_name
            )
        return "cpf", documents.normalize_document(cpf)
    if cnpj is not None:
        if not documents.is_valid_cnpj(cnpj):
            raise invalid(
                "cnpj inválido.", Violation("CNPJ inválido", "cnpj", cnpj), type_name=type_name
            )
        return "cnpj", documents.normalize_document(cnpj)
    return None


def _charge_filters(request: Request, tipo: str) -> Callable[[dict[str, Any]], bool]:
    type_name = "CobConsultaInvalida" if tipo == "cob" else "CobVConsultaInvalida"
    document = _document_filter(request, type_name)
    status = request.query_params.get("status")
    if status is not None and status not in bank.CHARGE_STATUSES:
        raise invalid(
            "status inválido.",
            Violation(" ou ".join(bank.CHARGE_STATUSES), "status", status),
            type_name=type_name,
        )
    location = bool_query(request, "locationPresente", type_name)
    lote = request.query_params.get("loteCobVId") if tipo == "cobv" else None

    def keep(charge: dict[str, Any]) -> bool:
        devedor = charge.get("devedor") or {}
        return (
            (document is None or devedor.get(document[0]) == document[1])
            and (status is None or charge["status"] == status)
            and (location is None or bool(charge.get("loc")) == location)
            and (lote is None or charge.get("loteCobVId") == lote)
        )

    return keep


# ---------------------------------------------------------------------------------------------
# Routes


def routes(ctx: QrContext) -> list[Route]:
    """Routes of the QR Codes API server; also wires the Accounts API's /qrc to our locations."""

    def resolver(url: str) -> dict[str, Any] | None:
        return bank.resolve_location(ctx, url)

    ctx.bank.location_resolver = resolver

    def authorize(request: Request, *scopes: str) -> None:
        ctx.auth.authorize(request, API, *scopes)

    def charge_routes(tipo: str) -> tuple[Handler, Handler]:
        read, write = f"{tipo}.read", f"{tipo}.write"
        not_found = "cob" if tipo == "cob" else "cobv"

        async def collection(request: Request) -> Response:
            if request.method == "POST":  # only /cob: the bank chooses the txid
                authorize(request, write)
                charge = bank.create_charge(ctx, tipo, await read_json(request), None)
                return JsonResponse(bank.render_charge(ctx, charge, with_pix=False), 201)
            authorize(request, read)
            keep = _charge_filters(request, tipo)
            charges = [c for c in ctx.store.all(tipo) if keep(c)]
            type_name = "CobConsultaInvalida" if tipo == "cob" else "CobVConsultaInvalida"
            page = _page(request, charges, "cobs", lambda c: c["calendario"]["criacao"], type_name)
            page["cobs"] = [bank.render_charge(ctx, c) for c in page["cobs"]]
            return JsonResponse(page)

        async def item(request: Request) -> Response:
            txid = request.path_params["txid"]
            if request.method == "PUT":
                authorize(request, write)
                charge = bank.create_charge(ctx, tipo, await read_json(request), txid)
                return JsonResponse(bank.render_charge(ctx, charge, with_pix=False), 201)
            if request.method == "PATCH":
                authorize(request, write)
                charge = bank.revise_charge(ctx, tipo, txid, await read_json(request))
                return JsonResponse(bank.render_charge(ctx, charge, with_pix=False))
            authorize(request, read)
            stored = ctx.store.get(tipo, txid)
            if stored is None:
                raise bank.not_found(not_found)
            wanted = request.query_params.get("revisao")
            if wanted is not None:
                revision = query_int(request, "revisao", 0, 0, 10**6)
                if revision != stored["revisao"]:
                    earlier = stored.get("_revisions", {}).get(str(revision))
                    if earlier is None:
                        raise bank.not_found(not_found)
                    return JsonResponse(bank.render_charge(ctx, earlier))
            return JsonResponse(bank.render_charge(ctx, stored))

        return collection, item

    cob_collection, cob_item = charge_routes("cob")
    cobv_collection, cobv_item = charge_routes("cobv")

    async def batches(request: Request) -> Response:
        authorize(request, "lotecobv.read", "cobv.read")
        items = [
            {
                "id": b["id"],
                "descricao": b.get("descricao"),
                "criacao": b["criacao"],
                "quantidadeCobrancas": len(b["members"]),
            }
            for b in ctx.store.all("lotecobv")
        ]
        return JsonResponse(
            _page(request, items, "lotes", lambda b: b["criacao"], "LoteCobVConsultaInvalida")
        )

    async def batch(request: Request) -> Response:
        batch_id = request.path_params["id"]
        if request.method in ("PUT", "PATCH"):
            authorize(request, "lotecobv.write", "cobv.write")
            body = await read_json(request)
            if request.method == "PUT":
                stored = bank.put_batch(ctx, batch_id, body)
            else:
                stored = bank.patch_batch(ctx, batch_id, body)
            return JsonResponse(bank.render_batch(ctx, stored, detailed=False), 202)
        authorize(request, "lotecobv.read", "cobv.read")
        stored = ctx.store.get("lotecobv", batch_id)
        if stored is None:
            raise bank.not_found("loteCobV")
        return JsonResponse(bank.render_batch(ctx, stored, detailed=True))

    async def locs(request: Request) -> Response:
        if request.method == "POST":
            authorize(request, "payloadlocation.write")
            loc = bank.create_loc(ctx, await read_json(request))
            return JsonResponse(bank.render_loc(ctx, loc), 201)
        authorize(request, "payloadlocation.read")
        type_name = "PayloadLocationConsultaInvalida"
        with_txid = bool_query(request, "txIdPresente", type_name)
        tipo = request.query_params.get("tipoCob")
        if tipo is not None and tipo not in ("cob", "cobv"):
            raise invalid(
                "tipoCob deve ser cob ou cobv.",
                Violation("cob ou cobv", "tipoCob", tipo),
                type_name=type_name,
            )
        items = [
            loc
            for loc in ctx.store.all("loc")
            if (with_txid is None or bool(loc.get("txid")) == with_txid)
            and (tipo is None or loc["tipoCob"] == tipo)
        ]
        page = _page(request, items, "loc", lambda loc: loc["criacao"], type_name)
        page["loc"] = [bank.render_loc(ctx, loc) for loc in page["loc"]]
        return JsonResponse(page)

    async def loc_item(request: Request) -> Response:
        authorize(request, "payloadlocation.read")
        raw = request.path_params["id"]
        loc = bank.get_loc(ctx, raw) if raw.isdigit() else None
        if loc is None:
            raise bank.not_found("loc")
        return JsonResponse(bank.render_loc(ctx, loc))

    async def loc_unlink(request: Request) -> Response:
        authorize(request, "payloadlocation.write")
        loc = bank.unlink_loc(ctx, request.path_params["id"])
        return JsonResponse(bank.render_loc(ctx, loc))

    async def pix_list(request: Request) -> Response:
        authorize(request, "pix.read")
        type_name = "PixConsultaInvalida"
        txid = request.query_params.get("txid")
        with_txid = bool_query(request, "txIdPresente", type_name)
        with_refund = bool_query(request, "devolucaoPresente", type_name)
        document = _document_filter(request, type_name)
        items = [
            p
            for p in ctx.store.all("pix")
            if (txid is None or p.get("txid") == txid)
            and (with_txid is None or bool(p.get("txid")) == with_txid)
            and (with_refund is None or bool(p.get("devolucoes")) == with_refund)
            and (document is None or (p.get("pagador") or {}).get("document") == document[1])
        ]
        page = _page(request, items, "pix", lambda p: p["horario"], type_name)
        page["pix"] = [bank.render_pix(p) for p in page["pix"]]
        return JsonResponse(page)

    async def pix_item(request: Request) -> Response:
        authorize(request, "pix.read")
        pix = ctx.store.get("pix", request.path_params["e2eid"])
        if pix is None:
            raise bank.not_found("pix")
        return JsonResponse(bank.render_pix(pix))

    async def refund(request: Request) -> Response:
        e2e, refund_id = request.path_params["e2eid"], request.path_params["id"]
        if request.method == "PUT":
            authorize(request, "pix.write")
            body = await read_json(request)
            return JsonResponse(bank.request_refund(ctx, e2e, refund_id, body), 201)
        authorize(request, "pix.read")
        return JsonResponse(bank.get_refund(ctx, e2e, refund_id))

    def qr(tipo: str | None) -> Handler:
        async def handler(request: Request) -> Response:
            dpp = request.query_params.get("DPP")
            payload = bank.qr_payload(ctx, request.path_params["token"], tipo, dpp)
            return Response(bank.sign_jws(ctx, payload), media_type="application/jose")

        return handler

    async def jwks(request: Request) -> Response:
        return JsonResponse(bank.jwks(ctx))

    return [
        Route("/cob", cob_collection, methods=["POST", "GET"]),
        Route("/cob/{txid}", cob_item, methods=["PUT", "PATCH", "GET"]),
        Route("/cobv", cobv_collection, methods=["GET"]),
        Route("/cobv/{txid}", cobv_item, methods=["PUT", "PATCH", "GET"]),
        Route("/lotecobv", batches, methods=["GET"]),
        Route("/lotecobv/{id}", batch, methods=["PUT", "PATCH", "GET"]),
        Route("/loc", locs, methods=["POST", "GET"]),
        Route("/loc/{id}", loc_item, methods=["GET"]),
        Route("/loc/{id}/txid", loc_unlink, methods=["DELETE"]),
        Route("/pix", pix_list, methods=["GET"]),
        Route("/pix/{e2eid}", pix_item, methods=["GET"]),
        Route("/pix/{e2eid}/devolucao/{id}", refund, methods=["PUT", "GET"]),
        # Single path segments only: /qr/v2/rec/... (Pix Automático) stays free.
        Route("/qr/v2/cobv/{token}", qr("cobv"), methods=["GET"]),
        Route("/qr/v2/{token}", qr(None), methods=["GET"]),
        Route("/jwks", jwks, methods=["GET"]),
    ]


def control_routes(ctx: QrContext) -> list[Route]:
    """Routes under /sandbox/... (control surface), mounted on both servers."""

    async def pay(request: Request) -> Response:
        pix, charge = bank.simulate_payment(ctx, await read_json(request))
        return JsonResponse(
            {"pix": bank.render_pix(pix), "cobranca": bank.render_charge(ctx, charge)}, 201
        )

    async def pix_without_txid(request: Request) -> Response:
        pix = bank.receive_pix_without_txid(ctx, await read_json(request))
        return JsonResponse({"pix": bank.render_pix(pix)}, 201)

    return [
        Route("/sandbox/cashin/pay", pay, methods=["POST"]),
        Route("/sandbox/cashin/pix-without-txid", pix_without_txid, methods=["POST"]),
    ]


def tick(ctx: QrContext) -> None:
    """Called by the sandbox ticker (every 0.25 s and after the clock moves)."""
    bank.activate_batches(ctx)
    bank.settle_refunds(ctx)
    bank.settle_qrc_payments(ctx)


__all__ = ["control_routes", "create_cob", "get_charge", "location_of", "routes", "tick"]
