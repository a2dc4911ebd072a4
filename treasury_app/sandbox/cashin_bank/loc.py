"""Payload locations of Cash In (POST/GET /loc, DELETE /loc/{id}/txid): created on their
own or with a charge, linked to at most one charge of their kind."""

from __future__ import annotations

import secrets
from typing import Any

from treasury_app.sandbox.cashin_bank.errors import checker, not_found
from treasury_app.sandbox.cashin_bank.records import get_loc, now_iso, put_charge, put_loc
from treasury_app.sandbox.cashin_bank.validate import check_loc_body
from treasury_app.sandbox.context import QrContext


def new_loc(ctx: QrContext, tipo: str, created: str) -> dict[str, Any]:
    loc_id = ctx.store.next_id("cashin_loc")
    token = secrets.token_hex(16)
    loc = {"id": loc_id, "tipoCob": tipo, "criacao": created, "token": token, "txid": None}
    put_loc(ctx, loc)
    ctx.store.put("loc_token", token, {"token": token, "locId": loc_id}, created)
    return loc


def create_loc(ctx: QrContext, body: dict[str, Any]) -> dict[str, Any]:
    tipo = check_loc_body(body)
    with ctx.store.transaction():
        loc = new_loc(ctx, tipo, now_iso(ctx))
    return loc


def unlink_loc(ctx: QrContext, loc_id: str) -> dict[str, Any]:
    """DELETE /loc/{id}/txid: the location keeps no txid; its charge loses its location."""
    loc = get_loc(ctx, loc_id) if loc_id.isdigit() else None
    if loc is None:
        raise not_found("loc")
    txid = loc.get("txid")
    with ctx.store.transaction():
        if txid:
            charge = ctx.store.get(loc["tipoCob"], txid)
            if charge is not None and (charge.get("loc") or {}).get("id") == loc["id"]:
                charge["loc"] = None
                put_charge(ctx, charge)
            loc["txid"] = None
            put_loc(ctx, loc)
    return loc


def usable_loc(ctx: QrContext, loc_id: int, tipo: str, txid: str) -> dict[str, Any]:
    """The location ``loc_id`` a ``tipo`` charge asks for; a 400 if it cannot have it."""
    chk = checker(tipo)
    loc = get_loc(ctx, loc_id)
    if loc is None:
        chk.fail("loc.id", "não corresponde a uma location existente", str(loc_id))
    elif loc["tipoCob"] != tipo:
        chk.fail("loc.id", f"é uma location do tipo {loc['tipoCob']}", str(loc_id))
    elif loc.get("txid") and loc["txid"] != txid:
        chk.fail("loc.id", "já está vinculada a outra cobrança", str(loc_id))
    chk.check()
    assert loc is not None
    return loc


def link_loc(ctx: QrContext, loc: dict[str, Any], txid: str) -> dict[str, Any]:
    """Give ``loc`` to charge ``txid``; returns the charge's copy of it."""
    loc["txid"] = txid
    put_loc(ctx, loc)
    return {k: loc[k] for k in ("id", "tipoCob", "criacao", "token")}


def free_loc(ctx: QrContext, loc_id: int, txid: str) -> None:
    loc = get_loc(ctx, loc_id)
    if loc is not None and loc.get("txid") == txid:
        loc["txid"] = None
        put_loc(ctx, loc)
