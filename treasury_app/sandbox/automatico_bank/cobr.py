"""Recurring charges (PUT/POST/GET/PATCH /cobr, retentativa): each cycle of an approved
recurrence is charged once; its settlement attempts move on the sandbox clock (SOLICITADA,
AGENDADA, then PAGA or REJEITADA at 10:00 Brasília of their date), with up to three retries
within seven days when the recurrence allows them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from treasury_app.domain import business_days, identifiers
from treasury_app.domain.money import to_api_string
from treasury_app.sandbox.automatico_bank.records import (
    ATTEMPT_PENDING,
    COBR_OPEN,
    Doc,
    get_cobr,
    now_iso,
    put_cobr,
    rec_matches,
    set_attempt_status,
    set_status,
)
from treasury_app.sandbox.automatico_bank.render import listed, public
from treasury_app.sandbox.automatico_bank.validate import (
    REJECTION_TEXTS,
    CobrRequest,
    check_cancel,
    check_cobr,
    check_failure,
    check_retry_date,
    checker,
)
from treasury_app.sandbox.automatico_bank.webhooks import notify_cobr
from treasury_app.sandbox.cashin_bank.validate import DEFAULT_PAYER_ISPB
from treasury_app.sandbox.clock import BRASILIA, iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Violation, invalid
from treasury_app.sandbox.seed import COMPANY, SANDBOX_ISPB

MAX_RETRIES = 3
RETRY_WINDOW_DAYS = 7
SETTLEMENT_TIME = dt.time(10, 0)  # Brasília: scheduled debits settle at 10:00 of their date
RETRY_NOT_ALLOWED = "A política configurada na recorrência não permite retentativa de cobrança."


def cycle_of(periodicidade: str, day: dt.date) -> str:
    """The charging cycle containing ``day``: the calendar week (ISO), month, quarter,
    half-year or year, by the recurrence's periodicity."""
    if periodicidade == "SEMANAL":
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if periodicidade == "MENSAL":
        return f"{day.year}-{day.month:02d}"
    if periodicidade == "TRIMESTRAL":
        return f"{day.year}-T{(day.month - 1) // 3 + 1}"
    if periodicidade == "SEMESTRAL":
        return f"{day.year}-S{(day.month - 1) // 6 + 1}"
    return str(day.year)


def _attempt(ctx: QrContext, tipo: str, day: dt.date) -> Doc:
    now = ctx.clock.now()
    return {
        "dataLiquidacao": day.isoformat(),
        "tipo": tipo,
        "status": "SOLICITADA",
        "endToEndId": identifiers.new_e2eid(SANDBOX_ISPB, now),
        "atualizacao": [{"status": "SOLICITADA", "data": iso(now)}],
    }


def _retry_limit(cobr: Doc) -> dt.date:
    """The last day a retry may be scheduled for."""
    due = dt.date.fromisoformat(cobr["calendario"]["dataDeVencimento"])
    return due + dt.timedelta(days=RETRY_WINDOW_DAYS)


def _retries(cobr: Doc) -> int:
    return sum(1 for t in cobr["tentativas"] if t["tipo"] == "NTAG")


def close_cancelled(ctx: QrContext, cobr: Doc, codigo: str, descricao: str) -> None:
    """The receiver cancels: pending attempts and the charge become CANCELADA."""
    now = now_iso(ctx)
    for attempt in cobr["tentativas"]:
        if attempt["status"] in ATTEMPT_PENDING:
            set_attempt_status(attempt, "CANCELADA", now)
    set_status(ctx, cobr, "CANCELADA")
    cobr["encerramento"] = {
        "cancelamento": {
            "solicitante": "USUARIO_RECEBEDOR",
            "codigo": codigo,
            "descricao": descricao,
        }
    }


# ---------------------------------------------------------------------------------------------
# Endpoints


def create_cobr(ctx: QrContext, body: Doc, txid: str | None) -> Doc:
    request = check_cobr(body, txid)
    check = checker("cobr")
    if txid is not None and ctx.store.get("cobr", txid) is not None:
        raise check.error("txid", "O campo cobr.txid encontra-se em uso.", txid)
    rec = ctx.store.get("rec", request.id_rec)
    if rec is None:
        raise check.error(
            "idRec", "A recorrência informada em cobr.idRec inexiste.", request.id_rec
        )
    if rec["status"] != "APROVADA":
        raise check.error(
            "idRec",
            f"A recorrência está {rec['status']}: só uma recorrência APROVADA pode ser cobrada.",
            request.id_rec,
        )
    today = ctx.clock.today()
    _check_due_date(request, rec, today)
    _check_amount(request, rec)
    cycle = cycle_of(rec["calendario"]["periodicidade"], request.due)
    for other in ctx.store.all("cobr"):
        if (
            other["idRec"] == request.id_rec
            and other["status"] not in ("REJEITADA", "CANCELADA")
            and other.get("_cycle") == cycle
        ):
            raise check.error(
                "calendario.dataDeVencimento",
                "Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao "
                "mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo "
                f"({other['txid']}).",
                request.due_text,
            )
    if txid is None:
        txid = identifiers.new_txid()
        while ctx.store.get("cobr", txid) is not None:
            txid = identifiers.new_txid()
    cobr = _new_cobr(ctx, request, rec, txid, cycle, today)
    with ctx.store.transaction():
        put_cobr(ctx, cobr)
        notify_cobr(ctx, cobr)
    return cobr


def _check_due_date(request: CobrRequest, rec: Doc, today: dt.date) -> None:
    """Not in the past, 2 business days ahead at least, within the recurrence's validity."""
    check = checker("cobr")
    due, due_text = request.due, request.due_text
    if due < today:
        raise check.error(
            "calendario.dataDeVencimento",
            "O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.",
            due_text,
        )
    if not business_days.is_valid_cobr_lead_time(today, due):
        earliest = business_days.earliest_cobr_due_date(today)
        raise check.error(
            "calendario.dataDeVencimento",
            "A cobrança recorrente deve ser criada com ao menos 2 dias úteis de "
            f"antecedência do vencimento (vencimento mais cedo hoje: {earliest}).",
            due_text,
        )
    rec_cal = rec["calendario"]
    if due < dt.date.fromisoformat(rec_cal["dataInicial"]) or (
        rec_cal.get("dataFinal") and due > dt.date.fromisoformat(rec_cal["dataFinal"])
    ):
        raise check.error(
            "calendario.dataDeVencimento",
            "O vencimento está fora da vigência da recorrência "
            f"({rec_cal['dataInicial']} a {rec_cal.get('dataFinal') or 'indeterminado'}).",
            due_text,
        )


def _check_amount(request: CobrRequest, rec: Doc) -> None:
    """The recurrence's fixed amount, or at least its minimum."""
    check = checker("cobr")
    rec_valor = rec.get("valor") or {}
    if "valorRec" in rec_valor and request.original != Decimal(rec_valor["valorRec"]):
        raise check.error(
            "valor.original",
            f"O valor deve ser igual ao valor fixo da recorrência ({rec_valor['valorRec']}).",
            request.original_text,
        )
    if "valorMinimoRecebedor" in rec_valor and request.original < Decimal(
        rec_valor["valorMinimoRecebedor"]
    ):
        raise check.error(
            "valor.original",
            "O valor é menor que o valor mínimo da recorrência "
            f"({rec_valor['valorMinimoRecebedor']}).",
            request.original_text,
        )


def _new_cobr(
    ctx: QrContext, request: CobrRequest, rec: Doc, txid: str, cycle: str, today: dt.date
) -> Doc:
    """A CRIADA charge with its first attempt (AGND) on the due date, rolled to a business
    day when ``ajusteDiaUtil``."""
    due = request.due
    settle = business_days.next_business_day(due) if request.ajuste else due
    now = now_iso(ctx)
    cobr: Doc = {"idRec": request.id_rec, "txid": txid}
    if request.info:
        cobr["infoAdicional"] = request.info
    cobr["calendario"] = {
        "criacao": today.isoformat(),
        "dataDeVencimento": request.due_text,
    }
    cobr["status"] = "CRIADA"
    cobr["valor"] = {"original": to_api_string(request.original)}
    cobr["politicaRetentativa"] = rec["politicaRetentativa"]
    cobr["ajusteDiaUtil"] = request.ajuste
    if request.devedor:
        cobr["devedor"] = request.devedor
    cobr["recebedor"] = {**request.recebedor, "cnpj": COMPANY["document"], "nome": COMPANY["name"]}
    cobr["atualizacao"] = [{"status": "CRIADA", "data": now}]
    cobr["tentativas"] = [_attempt(ctx, "AGND", settle)]
    cobr["_created"] = now
    cobr["_cycle"] = cycle
    return cobr


def cancel_cobr(ctx: QrContext, txid: str, body: Doc) -> Doc:
    check = checker("cobr")
    cobr = get_cobr(ctx, txid)
    check_cancel("cobr", body)
    if cobr["status"] not in COBR_OPEN:
        raise check.error(
            "status",
            f"A cobrança está {cobr['status']} e não pode mais ser cancelada.",
            cobr["status"],
        )
    first = dt.date.fromisoformat(cobr["tentativas"][0]["dataLiquidacao"])
    if ctx.clock.today() >= first:
        raise check.error(
            "status",
            "Não é possível cancelar uma cobrança em uma data igual ou maior que a data "
            f"prevista da primeira tentativa de liquidação ({first}).",
        )
    with ctx.store.transaction():
        close_cancelled(ctx, cobr, "SLCR", "Cancelamento solicitado pelo usuário recebedor.")
        put_cobr(ctx, cobr)
        notify_cobr(ctx, cobr)
    return cobr


def retry_cobr(ctx: QrContext, txid: str, data: str) -> Doc:
    """POST /cobr/{txid}/retentativa/{data}: a new attempt (NTAG) after a rejected one."""
    check = checker("cobr")
    cobr = get_cobr(ctx, txid)
    day = check_retry_date(data)
    if cobr["politicaRetentativa"] != "PERMITE_3R_7D":
        raise check.error("politicaRetentativa", RETRY_NOT_ALLOWED)
    if cobr["status"] not in COBR_OPEN:
        raise check.error(
            "status",
            f"A cobrança está {cobr['status']}: não cabe retentativa.",
            cobr["status"],
        )
    attempts = cobr["tentativas"]
    if any(t["status"] in ATTEMPT_PENDING for t in attempts):
        raise check.error("tentativas", "Existe uma tentativa com status SOLICITADA ou AGENDADA.")
    if attempts[-1]["status"] not in ("REJEITADA", "EXPIRADA"):
        raise check.error("tentativas", "Só cabe retentativa depois de uma tentativa rejeitada.")
    if _retries(cobr) >= MAX_RETRIES:
        raise check.error(
            "tentativas", f"A cobrança já teve as {MAX_RETRIES} retentativas permitidas."
        )
    if day <= ctx.clock.today():
        raise check.error("data", "O parâmetro data não corresponde a uma data futura.", data)
    limit = _retry_limit(cobr)
    if day > limit:
        raise check.error(
            "data",
            f"A retentativa deve ocorrer em até {RETRY_WINDOW_DAYS} dias após o vencimento "
            f"(até {limit}).",
            data,
        )
    if any(t["dataLiquidacao"] == data for t in attempts):
        raise check.error("data", "Existe uma tentativa vigente para a data informada.", data)
    with ctx.store.transaction():
        attempts.append(_attempt(ctx, "NTAG", day))
        put_cobr(ctx, cobr)
        notify_cobr(ctx, cobr)
    return cobr


def list_cobrs(ctx: QrContext, filters: dict[str, str | None]) -> list[Doc]:
    items = []
    recs: dict[str, Doc | None] = {}
    for cobr in ctx.store.all("cobr"):
        if filters.get("idRec") and cobr["idRec"] != filters["idRec"]:
            continue
        if filters.get("status") and cobr["status"] != filters["status"]:
            continue
        if filters.get("cpf") or filters.get("cnpj") or filters.get("convenio"):
            if cobr["idRec"] not in recs:
                recs[cobr["idRec"]] = ctx.store.get("rec", cobr["idRec"])
            rec = recs[cobr["idRec"]]
            if rec is None or not rec_matches(rec, filters):
                continue
        items.append(listed(public(cobr), cobr))
    return items


# ---------------------------------------------------------------------------------------------
# The payer's side and the clock


def fail_next(ctx: QrContext, txid: str, body: Doc) -> Doc:
    """Control surface: the next settlement attempt of ``txid`` is rejected."""
    cobr = get_cobr(ctx, txid)
    failure = check_failure(body)
    if cobr["status"] not in COBR_OPEN:
        problem = invalid(
            f"A cobrança está {cobr['status']}: não haverá próxima tentativa.",
            Violation("status", "cobr.status", cobr["status"]),
            type_name="CobROperacaoInvalida",
        )
        problem.code, problem.params = "cobr.not_open", {"status": cobr["status"]}
        raise problem
    cobr["_failNext"] = failure
    put_cobr(ctx, cobr)
    return cobr


def tick_cobrs(ctx: QrContext, now: dt.datetime) -> None:
    for cobr in ctx.store.all("cobr"):
        if cobr["status"] not in COBR_OPEN:
            continue
        with ctx.store.transaction():
            if _advance_cobr(ctx, cobr, now):
                put_cobr(ctx, cobr)
                notify_cobr(ctx, cobr)


def _advance_cobr(ctx: QrContext, cobr: Doc, now: dt.datetime) -> bool:
    """CRIADA -> ATIVA, SOLICITADA -> AGENDADA, and the first due AGENDADA attempt settles
    (or is rejected); returns whether anything changed."""
    stamp = iso(now)
    changed = False
    if cobr["status"] == "CRIADA":
        set_status(ctx, cobr, "ATIVA")
        changed = True
    for attempt in cobr["tentativas"]:
        if attempt["status"] == "SOLICITADA":
            set_attempt_status(attempt, "AGENDADA", stamp)
            changed = True
    local = now.astimezone(BRASILIA)
    for attempt in cobr["tentativas"]:
        if attempt["status"] != "AGENDADA":
            continue
        settle_at = dt.datetime.combine(
            dt.date.fromisoformat(attempt["dataLiquidacao"]), SETTLEMENT_TIME, BRASILIA
        )
        if local < settle_at:
            continue
        changed = True
        failure = cobr.pop("_failNext", None)
        if failure:
            set_attempt_status(attempt, "REJEITADA", stamp)
            attempt["rejeicao"] = failure
            if not _retry_possible(ctx, cobr):
                _reject_cobr(ctx, cobr, failure)
        else:
            _settle(ctx, cobr, attempt, now)
        break
    if cobr["status"] == "ATIVA" and not _retry_possible(ctx, cobr):
        last = cobr["tentativas"][-1]
        if last["status"] == "REJEITADA" and not any(
            t["status"] in ATTEMPT_PENDING for t in cobr["tentativas"]
        ):
            _reject_cobr(ctx, cobr, last.get("rejeicao") or {})
            changed = True
    return changed


def _retry_possible(ctx: QrContext, cobr: Doc) -> bool:
    """Whether the receiver may still schedule a retry (PERMITE_3R_7D, fewer than 3
    retries so far, and a future date left within 7 days after the due date)."""
    if cobr["politicaRetentativa"] != "PERMITE_3R_7D":
        return False
    if _retries(cobr) >= MAX_RETRIES:
        return False
    return ctx.clock.today() < _retry_limit(cobr)


def _reject_cobr(ctx: QrContext, cobr: Doc, rejeicao: Doc) -> None:
    set_status(ctx, cobr, "REJEITADA")
    cobr["encerramento"] = {
        "rejeicao": {
            "codigo": rejeicao.get("codigo", "MSUC"),
            "descricao": rejeicao.get("descricao", REJECTION_TEXTS["MSUC"]),
        }
    }


def _settle(ctx: QrContext, cobr: Doc, attempt: Doc, now: dt.datetime) -> None:
    """The attempt is PAGA: the account is credited and the charge is CONCLUIDA."""
    rec = ctx.store.get("rec", cobr["idRec"]) or {}
    devedor = (rec.get("vinculo") or {}).get("devedor") or {}
    pagador = rec.get("pagador") or {}
    amount = Decimal(cobr["valor"]["original"])
    payer = {
        "name": devedor.get("nome") or "Pagador Pix Automático",
        "document": devedor.get("cpf") or devedor.get("cnpj") or "",
        "ispb": pagador.get("ispbParticipante") or DEFAULT_PAYER_ISPB,
    }
    description = f"Pix Automático {cobr['idRec']}"
    ctx.bank.credit_incoming_pix(
        amount, payer, description, cobr["txid"], end_to_end_id=attempt["endToEndId"]
    )
    stamp = iso(now)
    set_attempt_status(attempt, "PAGA", stamp)
    cobr.setdefault("pix", []).append(
        {
            "endToEndId": attempt["endToEndId"],
            "txid": cobr["txid"],
            "valor": cobr["valor"]["original"],
            "horario": stamp,
        }
    )
    set_status(ctx, cobr, "CONCLUIDA")
