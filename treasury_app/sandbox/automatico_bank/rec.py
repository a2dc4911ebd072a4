"""Recurrences (POST/GET/PATCH /rec, the public payload at their location) and the payer's
decisions the sandbox plays: CRIADA until the payer approves (APROVADA) or rejects, the
receiver cancels, or its validity ends (EXPIRADA)."""

from __future__ import annotations

import datetime as dt

from treasury_app.domain import identifiers
from treasury_app.sandbox.automatico_bank import cashin_link
from treasury_app.sandbox.automatico_bank.cobr import close_cancelled
from treasury_app.sandbox.automatico_bank.locrec import claim_locrec, link_locrec, locrec_by_token
from treasury_app.sandbox.automatico_bank.records import (
    COBR_OPEN,
    REC_FINAL,
    SOLICREC_PENDING,
    Doc,
    get_rec,
    now_iso,
    put_cobr,
    put_locrec,
    put_rec,
    put_solicrec,
    rec_matches,
    requests_of,
    set_solicrec_status,
    set_status,
)
from treasury_app.sandbox.automatico_bank.render import (
    composite_qr,
    listed,
    rec_payload,
    rec_view,
    recurrence_qr,
)
from treasury_app.sandbox.automatico_bank.validate import (
    RecRequest,
    check_approval,
    check_rec,
    check_rec_revision,
    check_rejection,
    checker,
)
from treasury_app.sandbox.automatico_bank.webhooks import notify_cobr, notify_rec
from treasury_app.sandbox.cashin_bank.validate import DEFAULT_PAYER_ISPB
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, invalid
from treasury_app.sandbox.qr_checks import Checker
from treasury_app.sandbox.qr_signing import sign_jws
from treasury_app.sandbox.seed import COMPANY, SANDBOX_ISPB


def create_rec(ctx: QrContext, body: Doc) -> Doc:
    today = ctx.clock.today()
    request = check_rec(body, today)
    retry_allowed = request.politica == "PERMITE_3R_7D"
    id_rec = identifiers.new_idrec(SANDBOX_ISPB, retry_allowed, today)
    while ctx.store.get("rec", id_rec) is not None:
        id_rec = identifiers.new_idrec(SANDBOX_ISPB, retry_allowed, today)
    loc = None
    if request.loc is not None:
        loc = claim_locrec(ctx, checker("rec"), "loc", request.loc, id_rec)
    jornada = "AGUARDANDO_DEFINICAO"
    if request.txid is not None:
        jornada = cashin_link.journey_of(cashin_link.charge(ctx, request.txid))
    rec = _new_rec(request, id_rec, jornada, now_iso(ctx))
    with ctx.store.transaction():
        if loc is not None:
            link_locrec(ctx, loc, rec)
        put_rec(ctx, rec)
        notify_rec(ctx, rec)
    return rec


def _new_rec(request: RecRequest, id_rec: str, jornada: str, now: str) -> Doc:
    recebedor: Doc = {"cnpj": COMPANY["document"], "nome": COMPANY["name"]}
    if request.convenio:
        recebedor["convenio"] = request.convenio
    ativacao: Doc = {"tipoJornada": jornada}
    if request.txid is not None:
        ativacao["dadosJornada"] = {"txid": request.txid}
    rec: Doc = {
        "idRec": id_rec,
        "vinculo": request.vinculo,
        "calendario": request.calendario,
        "valor": request.valor,
        "recebedor": recebedor,
        "politicaRetentativa": request.politica,
        "status": "CRIADA",
        "atualizacao": [{"status": "CRIADA", "data": now}],
        "ativacao": ativacao,
        "_created": now,
        "_qrTxids": [],
    }
    if not request.valor:
        del rec["valor"]
    return rec


def patch_rec(ctx: QrContext, id_rec: str, body: Doc) -> Doc:
    """PATCH /rec/{idRec}: revise a recurrence that has not ended, or cancel it."""
    rec = get_rec(ctx, id_rec)
    revision = check_rec_revision(body, ctx.clock.today())
    check = checker("rec")
    if rec["status"] in REC_FINAL:
        raise check.error(
            "status",
            f"A recorrência encontra-se {rec['status'].lower()} e não pode ser alterada.",
            rec["status"],
        )
    if rec["status"] != "CRIADA":
        if revision.moves_loc:
            raise check.error(
                "loc",
                "O campo rec.loc somente pode ser alterado quando a recorrência "
                "apresentar-se com o status CRIADA.",
            )
        if revision.inicial is not None:
            raise check.error(
                "calendario.dataInicial",
                "O campo rec.calendario.dataInicial somente pode ser alterado quando a "
                "recorrência apresentar-se com o status CRIADA.",
            )
    new_loc = None
    if revision.moves_loc:
        new_loc = claim_locrec(ctx, check, "loc", revision.loc, id_rec)
    final = rec["calendario"].get("dataFinal")
    inicial = revision.inicial
    if inicial is not None and final and inicial > dt.date.fromisoformat(final):
        raise check.error(
            "calendario.dataInicial",
            "O campo rec.calendario.dataInicial é posterior ao campo rec.calendario.dataFinal.",
            inicial.isoformat(),
        )
    with ctx.store.transaction():
        if revision.cancel:
            _cancel_rec(ctx, rec)
        if revision.nome is not None:
            rec["vinculo"]["devedor"]["nome"] = revision.nome
        if inicial is not None:
            rec["calendario"]["dataInicial"] = inicial.isoformat()
        if revision.txid is not None:
            rec.setdefault("ativacao", {})["dadosJornada"] = {"txid": revision.txid}
            if rec["status"] == "CRIADA":
                charge = cashin_link.charge(ctx, revision.txid)
                rec["ativacao"]["tipoJornada"] = cashin_link.journey_of(charge)
        if new_loc is not None:
            _move_locrec(ctx, rec, new_loc)
        put_rec(ctx, rec)
        if revision.cancel:
            notify_rec(ctx, rec)
    return rec


def _move_locrec(ctx: QrContext, rec: Doc, new_loc: Doc) -> None:
    old_id = rec.get("_locId")
    if old_id is not None and old_id != new_loc["id"]:
        old = ctx.store.get("locrec", str(old_id))
        if old is not None:
            old.pop("idRec", None)
            put_locrec(ctx, old)
    link_locrec(ctx, new_loc, rec)


def _cancel_rec(ctx: QrContext, rec: Doc) -> None:
    """Receiver cancels: the recurrence, its pending requests and its open charges end."""
    set_status(ctx, rec, "CANCELADA")
    rec["encerramento"] = {
        "cancelamento": {
            "solicitante": "USUARIO_RECEBEDOR",
            "codigo": "SLCR",
            "descricao": "Cancelamento solicitado pelo usuário recebedor.",
        }
    }
    _end_pending_requests(ctx, rec, "CANCELADA")
    for cobr in ctx.store.all("cobr"):
        if cobr["idRec"] == rec["idRec"] and cobr["status"] in COBR_OPEN:
            if any(t["status"] == "PAGA" for t in cobr["tentativas"]):
                continue
            close_cancelled(ctx, cobr, "ACCT", "Recorrência cancelada pelo usuário recebedor.")
            put_cobr(ctx, cobr)
            notify_cobr(ctx, cobr)


def rec_with_qr(ctx: QrContext, id_rec: str, txid: str | None) -> Doc:
    """GET /rec/{idRec}: RecCompleta, with ``dadosQR`` when the locations allow it."""
    rec = get_rec(ctx, id_rec)
    out = rec_view(ctx, rec, full=True)
    rec_location = out.get("loc", {}).get("location")
    if txid is None:
        if rec_location:
            out["dadosQR"] = recurrence_qr(rec_location)
        return out
    check = Checker("txid", "RecConsultaInvalida")
    if not identifiers.is_valid_txid(txid):
        raise check.error("", "O parâmetro txid deve ter de 26 a 35 letras ou dígitos.", txid)
    charge = cashin_link.charge(ctx, txid)
    if charge is None:
        raise check.error("", "O parâmetro txid não corresponde a uma cobrança.", txid)
    _check_journey(ctx, check, rec, out, charge, txid)
    charge_location = cashin_link.charge_location(ctx, charge)
    if rec_location and charge_location:
        out["dadosQR"] = composite_qr(cashin_link.journey_of(charge), charge_location, rec_location)
        if txid not in rec.setdefault("_qrTxids", []):
            rec["_qrTxids"].append(txid)
            put_rec(ctx, rec)
    return out


def _check_journey(
    ctx: QrContext, check: Checker, rec: Doc, out: Doc, charge: Doc, txid: str
) -> None:
    """Whether charge ``txid`` may join the recurrence's QR code (journey 3: its own cob;
    journey 4: a cobv). A journey 3 whose linked txid turns out to be a cobv becomes 4."""
    kind = cashin_link.charge_kind(charge)
    ativacao = rec.get("ativacao") or {}
    linked = (ativacao.get("dadosJornada") or {}).get("txid")
    if kind == "cobv" and ativacao.get("tipoJornada") == "JORNADA_3" and linked == txid:
        # The spec's order for journey 4: POST /rec (txid), then PUT /cobv/{txid}: the
        # journey is known once the linked charge exists, i.e. now.
        ativacao["tipoJornada"] = "JORNADA_4"
        rec["ativacao"] = ativacao
        put_rec(ctx, rec)
        if isinstance(out.get("ativacao"), dict):
            out["ativacao"]["tipoJornada"] = "JORNADA_4"
    elif kind == "cobv" and ativacao.get("tipoJornada") == "JORNADA_3":
        raise check.error(
            "",
            "O parâmetro txid corresponde a uma cobrança com vencimento, incompatível com "
            "ativacao.tipoJornada JORNADA_3.",
            txid,
        )
    if kind == "cob" and linked != txid:
        raise check.error(
            "",
            "O parâmetro txid corresponde a uma cobrança imediata diferente da informada "
            "no campo ativacao.dadosJornada.txid.",
            txid,
        )


def payload_jws(ctx: QrContext, token: str) -> str:
    """GET /qr/v2/rec/{token}: the signed RecPayload of the location's recurrence."""
    loc = locrec_by_token(ctx, token)
    rec = ctx.store.get("rec", loc["idRec"]) if loc and loc.get("idRec") else None
    if rec is None:
        raise Problem(
            404,
            "Nenhuma recorrência nesta location.",
            type_name="RecPayloadNaoEncontrado",
        )
    if rec["status"] in REC_FINAL:
        raise invalid(
            "A location referencia uma recorrência expirada, rejeitada ou cancelada.",
            Violation("recorrência encerrada", "recUrlAccessToken"),
            type_name="RecPayloadOperacaoInvalida",
        )
    # Same key, header and key set (GET /jwks) as the Cash In payloads.
    return sign_jws(ctx, rec_payload(rec))


def list_recs(ctx: QrContext, filters: dict[str, str | None], location: bool | None) -> list[Doc]:
    items = []
    for rec in ctx.store.all("rec"):
        if not rec_matches(rec, filters):
            continue
        if filters.get("status") and rec["status"] != filters["status"]:
            continue
        if location is not None and ("_locId" in rec) != location:
            continue
        items.append(listed(rec_view(ctx, rec), rec))
    return items


# ---------------------------------------------------------------------------------------------
# The payer's side (control surface) and the clock


def _end_pending_requests(ctx: QrContext, rec: Doc, status: str) -> None:
    for sol in requests_of(ctx, rec["idRec"], SOLICREC_PENDING):
        set_solicrec_status(ctx, sol, status)
        put_solicrec(ctx, sol)


def approve(ctx: QrContext, rec: Doc, jornada: str, pagador: Doc | None = None) -> None:
    """CRIADA -> APROVADA; the active confirmation request (if any) becomes ACEITA."""
    set_status(ctx, rec, "APROVADA")
    ativacao = rec.setdefault("ativacao", {})
    ativacao["tipoJornada"] = jornada
    if jornada != "JORNADA_3":
        ativacao.pop("dadosJornada", None)
    devedor = rec["vinculo"]["devedor"]
    payer: Doc = {k: devedor[k] for k in ("cpf", "cnpj") if k in devedor}
    payer["ispbParticipante"] = DEFAULT_PAYER_ISPB
    for sol in requests_of(ctx, rec["idRec"], SOLICREC_PENDING):
        set_solicrec_status(ctx, sol, "ACEITA")
        put_solicrec(ctx, sol)
        dest = sol["destinatario"]
        payer = {k: dest[k] for k in ("cpf", "cnpj") if k in dest}
        payer["ispbParticipante"] = dest["ispbParticipante"]
    rec["pagador"] = {**payer, **(pagador or {})}
    put_rec(ctx, rec)
    notify_rec(ctx, rec)


def control_rec(ctx: QrContext, id_rec: str, action: str, body: Doc) -> Doc:
    """The payer approves, rejects or lets expire a CRIADA recurrence."""
    rec = get_rec(ctx, id_rec)
    if rec["status"] != "CRIADA":
        problem = invalid(
            f"A recorrência está {rec['status']}; o pagador só decide uma recorrência CRIADA.",
            Violation("status", "rec.status", rec["status"]),
            type_name="RecOperacaoInvalida",
        )
        problem.code, problem.params = "rec.not_pending", {"status": rec["status"]}
        raise problem
    with ctx.store.transaction():
        if action == "approve":
            pending = requests_of(ctx, id_rec, SOLICREC_PENDING)
            jornada, pagador = check_approval(body, "JORNADA_1" if pending else "JORNADA_2")
            approve(ctx, rec, jornada, pagador)
        elif action == "reject":
            rejeicao = check_rejection(body)
            set_status(ctx, rec, "REJEITADA")
            rec["encerramento"] = {"rejeicao": rejeicao}
            _end_pending_requests(ctx, rec, "REJEITADA")
            put_rec(ctx, rec)
            notify_rec(ctx, rec)
        else:
            _expire_rec(ctx, rec)
    return rec


def _expire_rec(ctx: QrContext, rec: Doc) -> None:
    set_status(ctx, rec, "EXPIRADA")
    _end_pending_requests(ctx, rec, "EXPIRADA")
    put_rec(ctx, rec)
    notify_rec(ctx, rec)


def tick_recs(ctx: QrContext) -> None:
    """CRIADA recurrences past their final date expire; one whose linked or QR charge was
    paid is approved (journeys 3 and 4)."""
    today = ctx.clock.today()
    for rec in ctx.store.all("rec"):
        if rec["status"] != "CRIADA":
            continue
        final = rec["calendario"].get("dataFinal")
        if final and today > dt.date.fromisoformat(final):
            with ctx.store.transaction():
                _expire_rec(ctx, rec)
            continue
        linked = ((rec.get("ativacao") or {}).get("dadosJornada") or {}).get("txid")
        candidates = [t for t in [linked, *rec.get("_qrTxids", [])] if t]
        for txid in dict.fromkeys(candidates):
            charge = cashin_link.charge(ctx, txid)
            if charge is not None and cashin_link.charge_paid(charge):
                with ctx.store.transaction():
                    approve(ctx, rec, cashin_link.journey_of(charge))
                break
