"""How Pix Automático keeps its documents in the sandbox store, and the statuses they go
through. Kinds: ``rec``, ``solicrec``, ``cobr``, ``locrec``, ``webhookrec``/``webhookcobr``
(id ``global``) and ``notification``. Keys starting with ``_`` are the sandbox's own
bookkeeping and never leave the server."""

from __future__ import annotations

from typing import Any

from treasury_app.sandbox.clock import iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem

Doc = dict[str, Any]

REC_STATUSES = ("CRIADA", "APROVADA", "REJEITADA", "EXPIRADA", "CANCELADA")
REC_FINAL = frozenset({"REJEITADA", "EXPIRADA", "CANCELADA"})
SOLICREC_STATUSES = (
    "CRIADA",
    "ENVIADA",
    "RECEBIDA",
    "REJEITADA",
    "ACEITA",
    "EXPIRADA",
    "CANCELADA",
)
SOLICREC_PENDING = frozenset({"CRIADA", "ENVIADA", "RECEBIDA"})
SOLICREC_ACTIVE = SOLICREC_PENDING | {"ACEITA"}
COBR_STATUSES = ("CRIADA", "ATIVA", "CONCLUIDA", "EXPIRADA", "REJEITADA", "CANCELADA")
COBR_OPEN = frozenset({"CRIADA", "ATIVA"})
ATTEMPT_PENDING = frozenset({"SOLICITADA", "AGENDADA"})


def now_iso(ctx: QrContext) -> str:
    return iso(ctx.clock.now())


def _found(ctx: QrContext, kind: str, key: str, detail: str, type_name: str, code: str) -> Doc:
    doc = ctx.store.get(kind, key)
    if doc is None:
        raise Problem(404, detail, type_name=type_name, code=code)
    return doc


def get_rec(ctx: QrContext, id_rec: str) -> Doc:
    detail = f"Recorrência {id_rec} não encontrada."
    return _found(ctx, "rec", id_rec, detail, "RecNaoEncontrada", "rec.not_found")


def get_solicrec(ctx: QrContext, id_solic: str) -> Doc:
    detail = f"Solicitação de recorrência {id_solic} não encontrada."
    return _found(ctx, "solicrec", id_solic, detail, "SolicRecNaoEncontrada", "solicrec.not_found")


def get_cobr(ctx: QrContext, txid: str) -> Doc:
    detail = f"Cobrança recorrente {txid} não encontrada."
    return _found(ctx, "cobr", txid, detail, "CobRNaoEncontrado", "cobr.not_found")


def get_locrec(ctx: QrContext, loc_id: str) -> Doc:
    doc = ctx.store.get("locrec", loc_id) if loc_id.isdigit() else None
    if doc is None:
        raise Problem(
            404,
            f"Location de recorrência {loc_id} não encontrada.",
            type_name="PayloadLocationRecNaoEncontrado",
        )
    return doc


def put_rec(ctx: QrContext, rec: Doc) -> None:
    ctx.store.put("rec", rec["idRec"], rec, rec["_created"])


def put_solicrec(ctx: QrContext, sol: Doc) -> None:
    ctx.store.put("solicrec", sol["idSolicRec"], sol, sol["_created"])


def put_cobr(ctx: QrContext, cobr: Doc) -> None:
    ctx.store.put("cobr", cobr["txid"], cobr, cobr["_created"])


def put_locrec(ctx: QrContext, loc: Doc) -> None:
    ctx.store.put("locrec", str(loc["id"]), loc, loc["criacao"])


def set_status(ctx: QrContext, doc: Doc, status: str) -> None:
    """Move a rec, solicrec or cobr to ``status``, recorded in its ``atualizacao``."""
    doc["status"] = status
    doc["atualizacao"].append({"status": status, "data": now_iso(ctx)})


def set_solicrec_status(ctx: QrContext, sol: Doc, status: str) -> None:
    """:func:`set_status`, remembering when: the tick steps a request half a second later."""
    set_status(ctx, sol, status)
    sol["_changed"] = sol["atualizacao"][-1]["data"]


def set_attempt_status(attempt: Doc, status: str, now: str) -> None:
    attempt["status"] = status
    attempt["atualizacao"].append({"status": status, "data": now})


def requests_of(ctx: QrContext, id_rec: str, statuses: frozenset[str]) -> list[Doc]:
    """The confirmation requests (solicrec) of recurrence ``id_rec`` in one of ``statuses``."""
    return [
        sol
        for sol in ctx.store.all("solicrec")
        if sol["idRec"] == id_rec and sol["status"] in statuses
    ]


def rec_matches(rec: Doc, filters: dict[str, str | None]) -> bool:
    """Whether a recurrence passes the list filters on its payer (cpf, cnpj) and convenio."""
    devedor = rec["vinculo"]["devedor"]
    return not (
        (filters.get("cpf") and devedor.get("cpf") != filters["cpf"])
        or (filters.get("cnpj") and devedor.get("cnpj") != filters["cnpj"])
        or (filters.get("convenio") and rec["recebedor"].get("convenio") != filters["convenio"])
    )
