"""How Cash In keeps its documents in the sandbox store: charges under ``cob``/``cobv`` (by
txid), locations under ``loc`` (by id, ``loc_token`` by QR token), received Pix under ``pix``
(by endToEndId); keys starting with ``_`` are the sandbox's own bookkeeping."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from treasury_app.sandbox.clock import iso
from treasury_app.sandbox.context import QrContext


def now_iso(ctx: QrContext) -> str:
    return iso(ctx.clock.now())


def get_loc(ctx: QrContext, loc_id: str | int) -> dict[str, Any] | None:
    return ctx.store.get("loc", str(loc_id))


def put_loc(ctx: QrContext, loc: dict[str, Any]) -> None:
    ctx.store.put("loc", str(loc["id"]), loc, loc["criacao"])


def loc_by_token(ctx: QrContext, token: str) -> dict[str, Any] | None:
    ref = ctx.store.get("loc_token", token)
    return get_loc(ctx, ref["locId"]) if ref else None


def charge_kind(ctx: QrContext, txid: str) -> str | None:
    for kind in ("cob", "cobv"):
        if ctx.store.get(kind, txid) is not None:
            return kind
    return None


def txid_taken(ctx: QrContext, txid: str) -> bool:
    """A txid is unique per receiver across cob, cobv and (Pix Automático) cobr."""
    return charge_kind(ctx, txid) is not None or ctx.store.get("cobr", txid) is not None


def put_charge(ctx: QrContext, charge: dict[str, Any]) -> None:
    ctx.store.put(charge["tipoCob"], charge["txid"], charge, charge["calendario"]["criacao"])


def charge_by_token(
    ctx: QrContext, token: str
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(loc, charge) behind a QR token; either may be None."""
    loc = loc_by_token(ctx, token)
    if loc is None or not loc.get("txid"):
        return loc, None
    return loc, ctx.store.get(loc["tipoCob"], loc["txid"])


def put_pix(ctx: QrContext, pix: dict[str, Any]) -> None:
    ctx.store.put("pix", pix["endToEndId"], pix, pix["horario"])


def pix_docs(ctx: QrContext, e2eids: list[str]) -> list[dict[str, Any]]:
    return [doc for e2e in e2eids if (doc := ctx.store.get("pix", e2e)) is not None]


def post_entry(
    ctx: QrContext,
    now: dt.datetime,
    credit_debit: str,
    type_: str,
    amount: Decimal,
    body: dict[str, Any],
) -> None:
    """One statement entry of the account, dated ``now``."""
    day = ctx.clock.today().isoformat()
    ctx.bank.store.add_entry(
        created=iso(now), day=day, credit_debit=credit_debit, type_=type_, amount=amount, body=body
    )
