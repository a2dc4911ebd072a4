"""Confirmation requests of a recurrence (POST/GET/PATCH /solicrec): sent to the payer's PSP,
they step CRIADA -> ENVIADA -> RECEBIDA on the sandbox clock, until the payer decides, the
receiver cancels or they expire."""

from __future__ import annotations

import datetime as dt

from treasury_app.domain import identifiers
from treasury_app.sandbox.automatico_bank.records import (
    SOLICREC_ACTIVE,
    SOLICREC_PENDING,
    Doc,
    get_solicrec,
    now_iso,
    put_solicrec,
    requests_of,
    set_solicrec_status,
)
from treasury_app.sandbox.automatico_bank.validate import (
    check_cancel,
    check_solicrec,
    checker,
    parse_instant,
)
from treasury_app.sandbox.clock import iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.seed import SANDBOX_ISPB

SOLICREC_STEP_SECONDS = 0.5  # CRIADA -> ENVIADA -> RECEBIDA, one step per half second


def create_solicrec(ctx: QrContext, body: Doc) -> Doc:
    request = check_solicrec(body, ctx.clock.now())
    check = checker("solicrec")
    id_rec = request.id_rec
    rec = ctx.store.get("rec", id_rec)
    if rec is None:
        raise check.error("idRec", "A recorrência informada em solicrec.idRec inexiste.", id_rec)
    if rec["status"] != "CRIADA":
        raise check.error(
            "idRec",
            f"A recorrência está {rec['status']}; só se pede confirmação de uma "
            "recorrência CRIADA.",
            id_rec,
        )
    active = requests_of(ctx, id_rec, SOLICREC_ACTIVE)
    if active:
        other = active[0]
        raise check.error(
            "idRec",
            "Existe uma solicitação ativa referente ao mesmo solicrec.idRec "
            f"({other['idSolicRec']}, {other['status']}).",
            id_rec,
        )
    today = ctx.clock.today()
    id_solic = identifiers.new_idsolicrec(SANDBOX_ISPB, today)
    while ctx.store.get("solicrec", id_solic) is not None:
        id_solic = identifiers.new_idsolicrec(SANDBOX_ISPB, today)
    now = now_iso(ctx)
    sol: Doc = {
        "idSolicRec": id_solic,
        "idRec": id_rec,
        "calendario": {"dataExpiracaoSolicitacao": request.expiracao},
        "destinatario": request.destinatario,
        "status": "CRIADA",
        "atualizacao": [{"status": "CRIADA", "data": now}],
        "_created": now,
        "_changed": now,
        "_expires": iso(request.expires),
    }
    put_solicrec(ctx, sol)
    return sol


def cancel_solicrec(ctx: QrContext, id_solic: str, body: Doc) -> Doc:
    sol = get_solicrec(ctx, id_solic)
    check_cancel("solicrec", body)
    if sol["status"] not in SOLICREC_PENDING:
        raise checker("solicrec").error(
            "status",
            "Não é possível cancelar uma solicitação de recorrência com o status diferente "
            f"de CRIADA, ENVIADA ou RECEBIDA (está {sol['status']}).",
            sol["status"],
        )
    set_solicrec_status(ctx, sol, "CANCELADA")
    put_solicrec(ctx, sol)
    return sol


def tick_solicrecs(ctx: QrContext, now: dt.datetime) -> None:
    """Pending requests expire, or take their next step half a second after the last."""
    for sol in ctx.store.all("solicrec"):
        if sol["status"] not in SOLICREC_PENDING:
            continue
        expires = parse_instant(sol.get("_expires"))
        if expires is not None and now >= expires:
            set_solicrec_status(ctx, sol, "EXPIRADA")
            put_solicrec(ctx, sol)
            continue
        changed = parse_instant(sol.get("_changed")) or now
        if (now - changed).total_seconds() < SOLICREC_STEP_SECONDS:
            continue
        step = {"CRIADA": "ENVIADA", "ENVIADA": "RECEBIDA"}.get(sol["status"])
        if step:
            set_solicrec_status(ctx, sol, step)
            put_solicrec(ctx, sol)
