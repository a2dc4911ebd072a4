"""Charges of Cash In, cob and cobv (PUT/POST and PATCH): a checked body becomes an ATIVA
charge with a location; a revision keeps the earlier one readable, or removes the charge."""

from __future__ import annotations

import copy
from typing import Any

from treasury_app.domain import identifiers
from treasury_app.sandbox.cashin_bank.errors import bad_request, not_found
from treasury_app.sandbox.cashin_bank.loc import free_loc, link_loc, new_loc, usable_loc
from treasury_app.sandbox.cashin_bank.records import now_iso, put_charge, txid_taken
from treasury_app.sandbox.cashin_bank.validate import check_charge, txid_or_400
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Violation
from treasury_app.sandbox.seed import COMPANY

CHARGE_STATUSES = (
    "ATIVA",
    "CONCLUIDA",
    "REMOVIDA_PELO_USUARIO_RECEBEDOR",
    "REMOVIDA_PELO_PSP",
)
# The company's address: BCB's cobv.recebedor requires one; the seed does not carry it.
RECEBEDOR_ENDERECO = {
    "logradouro": "Avenida Paulista, 1000, Bela Vista",
    "cidade": "São Paulo",
    "uf": "SP",
    "cep": "01310100",
}
# What a revision may carry; objects merge one level deep.
MERGED_FIELDS = (
    "calendario",
    "devedor",
    "valor",
    "chave",
    "solicitacaoPagador",
    "infoAdicionais",
    "loc",
)


def recebedor() -> dict[str, Any]:
    return {
        "cnpj": COMPANY["document"],
        "nome": COMPANY["name"],
        "nomeFantasia": "Empresa Sandbox",
        **RECEBEDOR_ENDERECO,
    }


def create_charge(
    ctx: QrContext,
    tipo: str,
    body: dict[str, Any],
    txid: str | None,
    *,
    lote: str | None = None,
) -> dict[str, Any]:
    """Validate and store a cob or cobv (``txid`` None: generated); returns the stored doc."""
    txid = identifiers.new_txid() if txid is None else txid_or_400(tipo, txid)
    if txid_taken(ctx, txid):
        raise bad_request(
            tipo,
            Violation(f"O txid {txid} já foi utilizado por outra cobrança.", f"{tipo}.txid", txid),
            detail="Já existe uma cobrança com este txid.",
        )
    fields = check_charge(tipo, body)
    loc_id = fields.pop("locId", None)
    loc = usable_loc(ctx, loc_id, tipo, txid) if loc_id is not None else None
    created = now_iso(ctx)
    with ctx.store.transaction():
        loc = loc or new_loc(ctx, tipo, created)
        charge: dict[str, Any] = {
            "txid": txid,
            "tipoCob": tipo,
            **fields,
            "calendario": {"criacao": created, **fields["calendario"]},
            "revisao": 0,
            "status": "ATIVA",
            "loc": link_loc(ctx, loc, txid),
            "pix": [],
        }
        if tipo == "cobv":
            charge["recebedor"] = recebedor()
        if lote is not None:
            charge["loteCobVId"] = lote
        put_charge(ctx, charge)
    return charge


def _request_view(charge: dict[str, Any]) -> dict[str, Any]:
    """The charge as a creation body (what a revision is merged onto)."""
    calendario = {k: v for k, v in charge["calendario"].items() if k != "criacao"}
    view: dict[str, Any] = {"calendario": calendario}
    for name in ("devedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            view[name] = charge[name]
    return view


def merge(view: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """A revision: objects merge one level deep, other fields replace; null removes."""
    merged = dict(view)
    for name in MERGED_FIELDS:
        if name not in patch:
            continue
        new = patch[name]
        old = merged.get(name)
        if isinstance(new, dict) and isinstance(old, dict):
            combined = dict(old)
            if name == "devedor" and ("cpf" in new or "cnpj" in new):
                combined.pop("cpf", None)
                combined.pop("cnpj", None)
            combined.update(new)
            merged[name] = {k: v for k, v in combined.items() if v is not None}
        elif new is None:
            merged.pop(name, None)
        else:
            merged[name] = new
    return merged


def _revisable(ctx: QrContext, tipo: str, txid: str, status: object) -> dict[str, Any]:
    """The ATIVA charge a PATCH revises, and a ``status`` it may set; 404 or 400 otherwise."""
    charge = ctx.store.get(tipo, txid)
    if charge is None:
        raise not_found(tipo)
    if charge["status"] != "ATIVA":
        raise bad_request(
            tipo,
            detail="Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas "
            "podem ser revisadas.",
        )
    if status is not None and status != "REMOVIDA_PELO_USUARIO_RECEBEDOR":
        raise bad_request(
            tipo,
            Violation(
                f"O campo {tipo}.status só aceita REMOVIDA_PELO_USUARIO_RECEBEDOR.",
                f"{tipo}.status",
                str(status),
            ),
        )
    return charge


def revise_charge(
    ctx: QrContext, tipo: str, txid: str, patch: dict[str, Any], *, replace: bool = False
) -> dict[str, Any]:
    """PATCH /cob|/cobv: revise an ATIVA charge (or remove it); ``replace`` takes ``patch`` as a
    whole new creation body (re-PUT of a batch)."""
    status = patch.get("status")
    charge = _revisable(ctx, tipo, txid, status)
    body = patch if replace else merge(_request_view(charge), patch)
    fields = check_charge(tipo, body)
    new_loc_id = fields.pop("locId", None)
    loc = None
    if new_loc_id is not None and new_loc_id != (charge.get("loc") or {}).get("id"):
        loc = usable_loc(ctx, new_loc_id, tipo, txid)
    with ctx.store.transaction():
        # Each revision stays readable (GET /cob/{txid}?revisao=N).
        earlier = {k: copy.deepcopy(v) for k, v in charge.items() if k != "_revisions"}
        charge.setdefault("_revisions", {})[str(charge["revisao"])] = earlier
        for name in ("devedor", "solicitacaoPagador", "infoAdicionais"):
            charge.pop(name, None)
        charge.update({k: v for k, v in fields.items() if k != "calendario"})
        charge["calendario"] = {"criacao": charge["calendario"]["criacao"], **fields["calendario"]}
        charge["revisao"] += 1
        if status is not None:
            charge["status"] = status
        if loc is not None:
            old = charge.get("loc")
            if old:
                free_loc(ctx, old["id"], txid)
            charge["loc"] = link_loc(ctx, loc, txid)
        put_charge(ctx, charge)
    return charge
