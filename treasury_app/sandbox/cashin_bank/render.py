"""Cash In documents as the QR Codes API answers them: locations, charges (CobCompleta,
CobVCompleta and the signed payloads' CobPayload/CobVPayload), received Pix and batches."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from treasury_app.domain import brcode
from treasury_app.sandbox.cashin_bank.amounts import (
    cobv_amount_due,
    cobv_last_payment_date,
    money_str,
)
from treasury_app.sandbox.cashin_bank.errors import not_found
from treasury_app.sandbox.cashin_bank.records import charge_by_token, now_iso, pix_docs
from treasury_app.sandbox.cashin_bank.validate import check_dpp
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.seed import COMPANY

MERCHANT_CITY = "SAO PAULO"


def our_host(ctx: QrContext) -> str:
    url = ctx.base_url()
    return url.split("://", 1)[-1].rstrip("/")


def location_url(ctx: QrContext, tipo: str, token: str) -> str:
    """The QR address of a location, without scheme (as BCB writes ``location``)."""
    middle = "cobv/" if tipo == "cobv" else ""
    return f"{our_host(ctx)}/qr/v2/{middle}{token}"


def render_loc(ctx: QrContext, loc: dict[str, Any]) -> dict[str, Any]:
    out = {
        "id": loc["id"],
        "location": location_url(ctx, loc["tipoCob"], loc["token"]),
        "tipoCob": loc["tipoCob"],
        "criacao": loc["criacao"],
    }
    if loc.get("txid"):
        out["txid"] = loc["txid"]
    return out


def pix_copia_e_cola(location: str) -> str:
    """The dynamic BR Code of a location. No amount (field 54): the payer's bank reads it from
    the signed payload, which for a cobv depends on the payment date."""
    return brcode.build(
        merchant_name=brcode.fit_text(COMPANY["name"], 25),
        merchant_city=MERCHANT_CITY,
        url=location,
        single_use=True,
    )


def render_charge(
    ctx: QrContext, charge: dict[str, Any], *, with_pix: bool = True
) -> dict[str, Any]:
    """CobCompleta / CobVCompleta (``with_pix=False``: CobGerada / CobVGerada)."""
    out: dict[str, Any] = {"calendario": dict(charge["calendario"]), "txid": charge["txid"]}
    out["revisao"] = charge["revisao"]
    loc = charge.get("loc")
    if loc:
        location = location_url(ctx, loc["tipoCob"], loc["token"])
        out["loc"] = {
            "id": loc["id"],
            "location": location,
            "tipoCob": loc["tipoCob"],
            "criacao": loc["criacao"],
        }
        out["location"] = location
    out["status"] = charge["status"]
    for name in ("devedor", "recebedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            out[name] = charge[name]
    if loc:
        out["pixCopiaECola"] = pix_copia_e_cola(out["location"])
    if with_pix and charge.get("pix"):
        out["pix"] = [render_pix(p) for p in pix_docs(ctx, charge["pix"])]
    return out


def qr_payload(ctx: QrContext, token: str, tipo: str | None, dpp: str | None) -> dict[str, Any]:
    """CobPayload / CobVPayload of the charge behind a QR token (404 if none); ``tipo`` None
    serves either kind."""
    loc, charge = charge_by_token(ctx, token)
    if loc is None or charge is None or tipo not in (None, loc["tipoCob"]):
        raise not_found("payload")
    tipo = loc["tipoCob"]
    calendario = dict(charge["calendario"])
    calendario["apresentacao"] = now_iso(ctx)
    out: dict[str, Any] = {"calendario": calendario, "txid": charge["txid"]}
    out["revisao"] = charge["revisao"]
    out["status"] = charge["status"]
    for name in ("devedor", "recebedor"):
        if name in charge:
            out[name] = charge[name]
    if tipo == "cob":
        out["valor"] = charge["valor"]
    else:
        pay_date = check_dpp(dpp, ctx.clock.today(), cobv_last_payment_date(charge))
        parts = cobv_amount_due(charge, pay_date)
        out["valor"] = {
            k: money_str(v) for k, v in parts.items() if k in ("original", "final") or v > 0
        }
    out["chave"] = charge["chave"]
    for name in ("solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            out[name] = charge[name]
    return out


def render_pix(pix: dict[str, Any]) -> dict[str, Any]:
    out = {
        k: pix[k]
        for k in (
            "endToEndId",
            "txid",
            "valor",
            "componentesValor",
            "chave",
            "horario",
            "infoPagador",
        )
        if pix.get(k) is not None
    }
    out["devolucoes"] = [dict(d) for d in pix.get("devolucoes", [])]
    return out


def components_valor(tipo: str | None, paid: Decimal, parts: dict[str, Decimal]) -> dict[str, Any]:
    """``componentesValor`` of a received Pix: a cobv paid in full shows its parts."""
    if tipo != "cobv" or parts.get("final") != paid:
        return {"original": {"valor": money_str(paid)}}
    out = {"original": {"valor": money_str(parts["original"])}}
    for name in ("juros", "multa", "abatimento", "desconto"):
        if parts[name] > 0:
            out[name] = {"valor": money_str(parts[name])}
    return out


def render_batch(ctx: QrContext, batch: dict[str, Any], *, detailed: bool) -> dict[str, Any]:
    """LoteCobVConsultado (``detailed``: with devedor and valor.original of each member).

    A member's status is NEGADA (not created, or its last revision was refused, until the next
    tick), CRIADA (accepted, until the next tick), then the status of its cobv (ATIVA...)."""
    members = []
    for member in batch["members"]:
        created = bool(member.get("created"))
        shown = created and not member.get("pending") and not member.get("refused")
        charge = ctx.store.get("cobv", member["txid"]) if created and (shown or detailed) else None
        if not created or member.get("refused"):
            status = "NEGADA"
        elif member.get("pending"):
            status = "CRIADA"
        else:
            status = str(charge["status"]) if charge else "NEGADA"
        item: dict[str, Any] = {
            "txid": member["txid"],
            "criacao": member["criacao"],
            "status": status,
            "problema": member.get("problema"),
        }
        if detailed and charge is not None:
            devedor = charge.get("devedor", {})
            item["devedor"] = {k: devedor[k] for k in ("cpf", "cnpj", "nome") if k in devedor}
            item["valor"] = {"original": charge["valor"]["original"]}
        members.append(item)
    return {
        "id": batch["id"],
        "descricao": batch.get("descricao"),
        "criacao": batch["criacao"],
        "cobsv": members,
    }
