"""Refunds of received Pix (PUT/GET /pix/{e2eid}/devolucao/{id}): the account is debited at
once, the refund is EM_PROCESSAMENTO and becomes DEVOLVIDO a few seconds later."""

from __future__ import annotations

import datetime as dt
from typing import Any

from treasury_app.domain import identifiers
from treasury_app.sandbox.cashin_bank.amounts import money_str
from treasury_app.sandbox.cashin_bank.errors import not_found, unprocessable
from treasury_app.sandbox.cashin_bank.pix import notify_pix
from treasury_app.sandbox.cashin_bank.records import post_entry, put_pix
from treasury_app.sandbox.cashin_bank.validate import check_refund
from treasury_app.sandbox.clock import iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.seed import SANDBOX_ISPB

REFUND_SECONDS = 3.0  # EM_PROCESSAMENTO -> DEVOLVIDO on the sandbox clock


def _received_pix(ctx: QrContext, e2e: str) -> dict[str, Any]:
    pix = ctx.store.get("pix", e2e)
    if pix is None:
        raise not_found("pix")
    return pix


def request_refund(
    ctx: QrContext, e2e: str, refund_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    """PUT /pix/{e2eid}/devolucao/{id}: debit the account now, DEVOLVIDO a few seconds later."""
    pix = _received_pix(ctx, e2e)
    wanted = check_refund(pix, refund_id, body)
    if wanted.amount > ctx.bank.store.balance():
        raise unprocessable("Saldo insuficiente para a devolução.", "SaldoInsuficiente")
    now = ctx.clock.now()
    refund: dict[str, Any] = {
        "id": refund_id,
        "rtrId": identifiers.new_rtrid(SANDBOX_ISPB, now),
        "valor": money_str(wanted.amount),
        "natureza": wanted.natureza,
        "horario": {"solicitacao": iso(now)},
        "status": "EM_PROCESSAMENTO",
    }
    if wanted.descricao is not None:
        refund["descricao"] = wanted.descricao
    payer = pix.get("pagador") or {}
    with ctx.store.transaction():
        description = f"Devolução de Pix a {payer.get('name', 'pagador')}"
        post_entry(
            ctx,
            now,
            "DEBIT",
            "REFUND",
            wanted.amount,
            {
                "description": description,
                "endToEndId": refund["rtrId"],
                "originalEndToEndId": e2e,
                "txId": pix.get("txid"),
                "counterparty": payer,
            },
        )
        pix["devolucoes"].append(refund)
        put_pix(ctx, pix)
        due = iso(now + dt.timedelta(seconds=REFUND_SECONDS))
        ctx.store.put(
            "cashin_refund_pending",
            f"{e2e}:{refund_id}",
            {"e2e": e2e, "id": refund_id, "dueAt": due},
            due,
        )
    return refund


def get_refund(ctx: QrContext, e2e: str, refund_id: str) -> dict[str, Any]:
    for refund in _received_pix(ctx, e2e)["devolucoes"]:
        if refund["id"] == refund_id:
            return dict(refund)
    raise not_found("devolucao")


def settle_refunds(ctx: QrContext) -> int:
    """Move due refunds to DEVOLVIDO and notify them; returns how many moved."""
    now = ctx.clock.now()
    moved = 0
    for pending in ctx.store.all("cashin_refund_pending"):
        due = dt.datetime.fromisoformat(pending["dueAt"])
        if due > now:
            continue
        with ctx.store.transaction():
            pix = ctx.store.get("pix", pending["e2e"])
            if pix is not None:
                for refund in pix["devolucoes"]:
                    if refund["id"] == pending["id"] and refund["status"] == "EM_PROCESSAMENTO":
                        refund["status"] = "DEVOLVIDO"
                        refund["horario"]["liquidacao"] = pending["dueAt"]
                put_pix(ctx, pix)
                notify_pix(ctx, pix)
            ctx.store.delete("cashin_refund_pending", f"{pending['e2e']}:{pending['id']}")
        moved += 1
    return moved
