"""Received Pix of Cash In: stored as GET /pix answers them, paying their charge (CONCLUIDA)
and queueing its webhook; plus the control surface's simulated payers."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from treasury_app.sandbox.cashin_bank.amounts import money_str, payable_amount
from treasury_app.sandbox.cashin_bank.errors import not_found, unprocessable
from treasury_app.sandbox.cashin_bank.records import charge_kind, now_iso, put_charge
from treasury_app.sandbox.cashin_bank.render import components_valor, render_pix
from treasury_app.sandbox.cashin_bank.validate import check_incoming_pix, check_payment
from treasury_app.sandbox.context import QrContext


def record_pix(
    ctx: QrContext,
    *,
    e2e: str,
    amount: Decimal,
    payer: dict[str, Any],
    chave: str,
    info: str | None,
    charge: dict[str, Any] | None,
    parts: dict[str, Decimal],
) -> dict[str, Any]:
    """Store a received Pix; a charge it pays becomes CONCLUIDA and its webhook is queued."""
    now = now_iso(ctx)
    pix: dict[str, Any] = {
        "endToEndId": e2e,
        "txid": charge["txid"] if charge else None,
        "valor": money_str(amount),
        "componentesValor": components_valor(charge["tipoCob"] if charge else None, amount, parts),
        "chave": chave,
        "horario": now,
        "infoPagador": info,
        "devolucoes": [],
        "pagador": payer,
    }
    with ctx.store.transaction():
        ctx.store.put("pix", e2e, pix, now)
        if charge is not None:
            charge["pix"] = [*charge.get("pix", []), e2e]
            charge["status"] = "CONCLUIDA"
            put_charge(ctx, charge)
            notify_pix(ctx, pix)
    return pix


def notify_pix(ctx: QrContext, pix: dict[str, Any]) -> dict[str, Any] | None:
    """Queue the Pix webhook of ``pix`` (only Pix with a txid notify). ``url`` is the key's
    webhookUrl + "/pix", or None when the key has no webhook (the notifier then records it as
    NO_WEBHOOK)."""
    if not pix.get("txid"):
        return None
    hook = ctx.store.get("qr_webhook", pix["chave"])
    now = now_iso(ctx)
    doc_id = f"N{ctx.store.next_id('notification'):08d}"
    doc = {
        "id": doc_id,
        "api": "qrcodes",
        "kind": "pix",
        "chave": pix["chave"],
        "url": hook["webhookUrl"].rstrip("/") + "/pix" if hook else None,
        "payload": {"pix": [render_pix(pix)]},
        "headers": {},
        "status": "PENDING",
        "attempts": 0,
        "createdAt": now,
        "nextAttemptAt": now,
    }
    ctx.store.put("notification", doc_id, doc, now)
    return doc


def simulate_payment(ctx: QrContext, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """POST /sandbox/cashin/pay: a payer pays an ATIVA cob/cobv. Returns (pix, charge)."""
    txid = body.get("txid")
    kind = charge_kind(ctx, txid) if isinstance(txid, str) else None
    if kind is None:
        problem = not_found("cob")
        problem.code = "charge.not_found"
        raise problem
    charge = ctx.store.get(kind, str(txid))
    assert charge is not None
    payment = check_payment(body, charge)
    amount, parts = payable_amount(ctx, charge, payment.day)
    if payment.amount is not None and payment.amount != amount:
        if kind == "cob" and charge["valor"].get("modalidadeAlteracao") == 1:
            amount, parts = payment.amount, {"original": payment.amount}
        else:
            problem = unprocessable(
                f"O valor devido é {money_str(amount)}; o pagador não pode alterá-lo."
            )
            problem.code = "charge.amount_fixed"
            raise problem
    with ctx.store.transaction():
        entry = ctx.bank.credit_incoming_pix(amount, payment.payer, None, txid=charge["txid"])
        pix = record_pix(
            ctx,
            e2e=entry["endToEndId"],
            amount=amount,
            payer=payment.payer,
            chave=charge["chave"],
            info=payment.info,
            charge=charge,
            parts=parts,
        )
    return pix, charge


def receive_pix_without_txid(ctx: QrContext, body: dict[str, Any]) -> dict[str, Any]:
    """POST /sandbox/cashin/pix-without-txid: money sent to one of the keys, no charge."""
    incoming = check_incoming_pix(body)
    with ctx.store.transaction():
        entry = ctx.bank.credit_incoming_pix(incoming.amount, incoming.payer, None)
        return record_pix(
            ctx,
            e2e=entry["endToEndId"],
            amount=incoming.amount,
            payer=incoming.payer,
            chave=incoming.chave,
            info=incoming.info,
            charge=None,
            parts={},
        )
