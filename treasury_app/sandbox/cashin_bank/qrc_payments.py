"""Our own dynamic QR codes paid through the Accounts API (/qrc): the amount due of one of
our locations, and the charge paid once that Pix payment is SETTLED."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from treasury_app.sandbox.cashin_bank.amounts import cobv_amount_due, payable_amount
from treasury_app.sandbox.cashin_bank.errors import unprocessable
from treasury_app.sandbox.cashin_bank.pix import record_pix
from treasury_app.sandbox.cashin_bank.records import charge_by_token, now_iso, post_entry
from treasury_app.sandbox.clock import BRASILIA, iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.seed import COMPANY

LOCATION_RE = re.compile(r"(?:https://)?[^/\s]+/qr/v2/(cobv/)?([A-Za-z0-9]{16,64})/?", re.I)
QRC_WATCH_SECONDS = 60.0
OPEN_PAYMENT_STATUSES = frozenset({"ON_QUEUE", "PROCESSING", "WAITING_APPROVAL"})


def resolve_location(ctx: QrContext, url: str) -> dict[str, Any] | None:
    """``AccountsBank.location_resolver``: amount due today and creditor of one of our QR
    locations; None for an address that is not ours; 422 when its charge cannot be paid."""
    match = LOCATION_RE.fullmatch(url.strip())
    if match is None:
        return None
    loc, charge = charge_by_token(ctx, match.group(2))
    if loc is None:
        return None
    if charge is None:
        raise unprocessable("Esta location não tem cobrança vinculada.", "CobrancaNaoAtiva")
    amount, _parts = payable_amount(ctx, charge)
    now = now_iso(ctx)
    ctx.store.put("cashin_qrc_watch", loc["token"], {"token": loc["token"], "since": now}, now)
    return {"amount": amount, "creditor": dict(COMPANY["account"])}


def settle_qrc_payments(ctx: QrContext) -> int:
    """Pix payments of the Accounts API to our own locations, once SETTLED, pay the charge."""
    watches = {w["token"]: w for w in ctx.store.all("cashin_qrc_watch")}
    if not watches:
        return 0
    settled = 0
    open_tokens: set[str] = set()
    for payment in ctx.store.all("pix_payment"):
        match = LOCATION_RE.fullmatch(str(payment.get("location") or ""))
        token = match.group(2) if match else None
        if token is None or token not in watches:
            continue
        if payment["status"] in OPEN_PAYMENT_STATUSES:
            open_tokens.add(token)
        elif (
            payment["status"] == "SETTLED"
            and ctx.store.get("cashin_qrc_done", payment["endToEndId"]) is None
        ):
            _settle_qrc(ctx, payment, token)
            settled += 1
    limit = ctx.clock.now() - dt.timedelta(seconds=QRC_WATCH_SECONDS)
    for token, watch in watches.items():
        if token not in open_tokens and dt.datetime.fromisoformat(watch["since"]) < limit:
            ctx.store.delete("cashin_qrc_watch", token)
    return settled


def _settle_qrc(ctx: QrContext, payment: dict[str, Any], token: str) -> None:
    _loc, charge = charge_by_token(ctx, token)
    amount = Decimal(payment["payment"]["amount"])
    debtor = payment.get("debtorAccount") or {}
    payer = {k: debtor.get(k) for k in ("name", "document", "ispb")}
    e2e = payment["endToEndId"]
    parts: dict[str, Decimal] = {}
    if charge is not None and charge["tipoCob"] == "cobv":
        paid_on = dt.datetime.fromisoformat(payment["createdAt"]).astimezone(BRASILIA).date()
        parts = cobv_amount_due(charge, paid_on)
    now = ctx.clock.now()
    with ctx.store.transaction():
        post_entry(
            ctx,
            now,
            "CREDIT",
            "PIX",
            amount,
            {
                "description": f"Pix recebido de {payer.get('name')}",
                "endToEndId": e2e,
                "txId": charge["txid"] if charge else None,
                "counterparty": payer,
            },
        )
        record_pix(
            ctx,
            e2e=e2e,
            amount=amount,
            payer=payer,
            chave=charge["chave"] if charge else COMPANY["keys"][0],
            info=payment.get("description"),
            charge=charge,
            parts=parts,
        )
        ctx.store.put("cashin_qrc_done", e2e, {"e2e": e2e}, iso(now))
