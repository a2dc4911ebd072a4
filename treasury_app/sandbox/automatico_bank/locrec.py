"""Recurrence payload locations (POST/GET /locrec, DELETE /locrec/{id}/idRec): each serves
the signed payload of at most one recurrence."""

from __future__ import annotations

import secrets

from treasury_app.sandbox.automatico_bank.records import (
    Doc,
    get_locrec,
    now_iso,
    put_locrec,
    put_rec,
)
from treasury_app.sandbox.cashin_bank.render import our_host
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.qr_checks import Checker


def create_locrec(ctx: QrContext) -> Doc:
    loc_id = ctx.store.next_id("locrec")
    token = secrets.token_hex(16)
    doc = {
        "id": loc_id,
        "location": f"{our_host(ctx)}/qr/v2/rec/{token}",
        "criacao": now_iso(ctx),
        "_token": token,
    }
    put_locrec(ctx, doc)
    return doc


def unlink_locrec(ctx: QrContext, loc_id: str) -> Doc:
    with ctx.store.transaction():
        doc = get_locrec(ctx, loc_id)
        id_rec = doc.pop("idRec", None)
        if id_rec:
            rec = ctx.store.get("rec", id_rec)
            if rec is not None and rec.get("_locId") == doc["id"]:
                rec.pop("_locId", None)
                put_rec(ctx, rec)
        put_locrec(ctx, doc)
    return doc


def claim_locrec(ctx: QrContext, check: Checker, name: str, value: object, id_rec: str) -> Doc:
    """The location ``value`` (a locrec id) for recurrence ``id_rec``; a 400 if it cannot be."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise check.error(name, f"O campo {check.prop(name)} deve ser um inteiro.", value)
    doc = ctx.store.get("locrec", str(value))
    if doc is None:
        raise check.error(name, f"O location referenciado por {check.prop(name)} inexiste.", value)
    if doc.get("idRec") and doc["idRec"] != id_rec:
        raise check.error(
            name,
            f"O location referenciado por {check.prop(name)} já está sendo utilizado "
            "por outra recorrência.",
            value,
        )
    return doc


def link_locrec(ctx: QrContext, loc: Doc, rec: Doc) -> None:
    """Give ``loc`` to ``rec`` (the caller stores ``rec``)."""
    loc["idRec"] = rec["idRec"]
    put_locrec(ctx, loc)
    rec["_locId"] = loc["id"]


def locrec_by_token(ctx: QrContext, token: str) -> Doc | None:
    for doc in ctx.store.all("locrec"):
        if doc.get("_token") == token:
            return doc
    return None
