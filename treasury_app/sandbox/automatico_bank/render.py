"""Pix Automático documents as the QR Codes API answers them: RecCompleta, SolicRecCompleta,
the signed RecPayload, the composite QR codes (``dadosQR``) and the webhook items."""

from __future__ import annotations

from treasury_app.domain import brcode
from treasury_app.sandbox.automatico_bank.records import Doc
from treasury_app.sandbox.cashin_bank.render import MERCHANT_CITY
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.seed import COMPANY, SANDBOX_ISPB


def public(doc: Doc) -> Doc:
    """The document without the sandbox's bookkeeping keys."""
    return {k: v for k, v in doc.items() if not k.startswith("_")}


def listed(view: Doc, doc: Doc) -> Doc:
    """A list item: ``view`` with the creation instant the list's inicio/fim filter on."""
    return {**view, "criacao": doc["_created"]}


def rec_payload(rec: Doc) -> Doc:
    """RecPayload (what the payer's PSP reads at the location)."""
    payload: Doc = {k: rec[k] for k in ("idRec", "vinculo", "calendario", "valor") if k in rec}
    payload["recebedor"] = {
        "cnpj": rec["recebedor"]["cnpj"],
        "nome": rec["recebedor"]["nome"],
        "ispbParticipante": SANDBOX_ISPB,
    }
    payload["politicaRetentativa"] = rec["politicaRetentativa"]
    payload["atualizacao"] = rec["atualizacao"]
    return payload


def solicrec_view(ctx: QrContext, sol: Doc, rec: Doc | None = None) -> Doc:
    out = public(sol)
    rec = rec or ctx.store.get("rec", sol["idRec"])
    if rec is not None:
        out["recPayload"] = rec_payload(rec)
    return out


def rec_view(ctx: QrContext, rec: Doc, *, full: bool = False) -> Doc:
    """RecCompleta: with its location; ``full``: with its confirmation requests."""
    out = public(rec)
    loc_id = rec.get("_locId")
    if loc_id is not None:
        loc = ctx.store.get("locrec", str(loc_id))
        if loc is not None:
            out["loc"] = public(loc)
    if full:
        requests = [
            solicrec_view(ctx, s, rec)
            for s in ctx.store.all("solicrec")
            if s["idRec"] == rec["idRec"]
        ]
        if requests:
            out["solicitacao"] = requests
    return out


def recurrence_qr(rec_location: str) -> Doc:
    """``dadosQR`` of journey 2: a QR code of the recurrence alone."""
    return {
        "jornada": "JORNADA_2",
        "pixCopiaECola": brcode.build(
            merchant_name=brcode.fit_text(COMPANY["name"], 25),
            merchant_city=MERCHANT_CITY,
            recurrence_url=rec_location,
        ),
    }


def composite_qr(jornada: str, charge_location: str, rec_location: str) -> Doc:
    """``dadosQR`` of journeys 3 and 4: one QR code for the charge and the recurrence."""
    return {
        "jornada": jornada,
        "pixCopiaECola": brcode.build(
            merchant_name=brcode.fit_text(COMPANY["name"], 25),
            merchant_city=MERCHANT_CITY,
            url=charge_location,
            recurrence_url=rec_location,
        ),
    }


def rec_notification(rec: Doc) -> Doc:
    """One item of the rec webhook."""
    item: Doc = {k: rec[k] for k in ("idRec", "status", "atualizacao") if k in rec}
    for key in ("encerramento", "ativacao"):
        if key in rec:
            item[key] = rec[key]
    return item


def cobr_notification(cobr: Doc) -> Doc:
    """One item of the cobr webhook."""
    item: Doc = {k: cobr[k] for k in ("idRec", "txid", "status", "atualizacao") if k in cobr}
    for key in ("encerramento", "tentativas", "pix"):
        if cobr.get(key):
            item[key] = cobr[key]
    return item
