"""Batches of cobv (PUT/PATCH /lotecobv/{id}): each member is created or revised on its own
(a refused one is NEGADA with its problem); accepted members show up at the next tick."""

from __future__ import annotations

from typing import Any

from treasury_app.domain import identifiers
from treasury_app.sandbox.cashin_bank.charges import create_charge, merge, revise_charge
from treasury_app.sandbox.cashin_bank.errors import bad_request, not_found
from treasury_app.sandbox.cashin_bank.records import now_iso, txid_taken
from treasury_app.sandbox.cashin_bank.validate import check_batch_body, check_batch_id
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, problem_body


def _member_problem(problem: Problem, batch_id: str) -> dict[str, Any]:
    body = problem_body(problem, f"/lotecobv/{batch_id}", "qrcodes")
    body.pop("instance", None)
    return body


def _put_batch(ctx: QrContext, batch: dict[str, Any]) -> None:
    """Store ``batch``; its members become visible at the next tick."""
    ctx.store.put("lotecobv", batch["id"], batch, batch["criacao"])
    ctx.store.put("lotecobv_pending", batch["id"], {"id": batch["id"]}, batch["criacao"])


def _try_create_member(
    ctx: QrContext, batch_id: str, item: dict[str, Any], member: dict[str, Any]
) -> None:
    try:
        create_charge(ctx, "cobv", item, member["txid"], lote=batch_id)
    except Problem as problem:
        member.update(created=False, pending=False, problema=_member_problem(problem, batch_id))
        member["request"] = item
        return
    member.update(created=True, pending=True, problema=None)
    member.pop("request", None)


def _try_revise_member(
    ctx: QrContext, batch_id: str, item: dict[str, Any], member: dict[str, Any], *, replace: bool
) -> None:
    patch = {k: v for k, v in item.items() if k != "txid"}
    try:
        revise_charge(ctx, "cobv", member["txid"], patch, replace=replace)
    except Problem as problem:
        member["problema"] = _member_problem(problem, batch_id)
        member["refused"] = True
        return
    member.update(pending=True, problema=None, refused=False)


def _member_refusal(ctx: QrContext, txid: object, seen: set[str]) -> Problem | None:
    if not isinstance(txid, str) or not identifiers.is_valid_txid(txid):
        return bad_request(
            "cobv",
            Violation(
                "O campo cobv.txid deve ter de 26 a 35 caracteres [a-zA-Z0-9].",
                "cobv.txid",
                None if txid is None else str(txid),
            ),
        )
    if txid in seen:
        return bad_request(
            "cobv",
            Violation("O txid aparece mais de uma vez no lote.", "cobv.txid", txid),
        )
    if txid_taken(ctx, txid):
        return bad_request(
            "cobv",
            Violation(
                "Já existe uma cobrança com este txid; uma cobrança existente não pode ser "
                "associada a um lote.",
                "cobv.txid",
                txid,
            ),
        )
    return None


def member_key(txid: object) -> str | None:
    """A member's txid as the batch keeps it: a txid that is not text (a refused member's
    ``{}`` or ``12``) is kept as its text, so that the batch can be looked up and sent again
    (a 400 for its member, never a 500)."""
    return txid if txid is None or isinstance(txid, str) else str(txid)


def put_batch(ctx: QrContext, batch_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """PUT /lotecobv/{id}: create the batch (members that fail are NEGADA), or, with exactly the
    same txids as the original request, revise every member (BCB "criar/alterar")."""
    check_batch_id(batch_id)
    items = check_batch_body(body, creating=True)
    existing = ctx.store.get("lotecobv", batch_id)
    if existing is not None:
        return _replace_batch(ctx, existing, body, items)
    created = now_iso(ctx)
    batch: dict[str, Any] = {
        "id": batch_id,
        "descricao": body.get("descricao"),
        "criacao": created,
        "members": [],
    }
    seen: set[str] = set()
    with ctx.store.transaction():
        for item in items:
            txid = item.get("txid")
            member: dict[str, Any] = {"txid": member_key(txid), "criacao": created}
            batch["members"].append(member)
            refusal = _member_refusal(ctx, txid, seen)
            if refusal is not None:
                member.update(created=False, pending=False, request=item)
                member["problema"] = _member_problem(refusal, batch_id)
                continue
            seen.add(str(txid))
            _try_create_member(ctx, batch_id, item, member)
        _put_batch(ctx, batch)
    return batch


def _replace_batch(
    ctx: QrContext, batch: dict[str, Any], body: dict[str, Any], items: list[dict[str, Any]]
) -> dict[str, Any]:
    requested = sorted(str(i.get("txid")) for i in items)
    if requested != sorted(str(m["txid"]) for m in batch["members"]):
        raise bad_request(
            "loteCobV",
            Violation(
                "Um lote existente só pode ser alterado com exatamente as mesmas cobranças da "
                "requisição original: não se pode agregar nem remover cobranças.",
                "loteCobV.cobsV",
            ),
        )
    return _apply_revisions(ctx, batch, body, items, replace=True)


def patch_batch(ctx: QrContext, batch_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """PATCH /lotecobv/{id}: revise some existing members (no adding or removing)."""
    batch = ctx.store.get("lotecobv", batch_id)
    if batch is None:
        raise not_found("loteCobV")
    items = check_batch_body(body, creating=False)
    known = {m["txid"] for m in batch["members"]}
    unknown = [
        Violation(
            f"A cobrança {i['txid']} não pertence ao lote: não se pode agregar cobranças.",
            f"loteCobV.cobsV[{n}].txid",
            i["txid"],
        )
        for n, i in enumerate(items)
        if i["txid"] not in known
    ]
    if unknown:
        raise bad_request("loteCobV", *unknown)
    return _apply_revisions(ctx, batch, body, items, replace=False)


def _apply_revisions(
    ctx: QrContext,
    batch: dict[str, Any],
    body: dict[str, Any],
    items: list[dict[str, Any]],
    *,
    replace: bool,
) -> dict[str, Any]:
    by_txid = {m["txid"]: m for m in batch["members"] if m.get("created")}
    negadas = {member_key(m["txid"]): m for m in batch["members"] if not m.get("created")}
    with ctx.store.transaction():
        if "descricao" in body:
            batch["descricao"] = body["descricao"]
        for item in items:
            txid = member_key(item.get("txid"))
            if txid in by_txid:
                _try_revise_member(ctx, batch["id"], item, by_txid[txid], replace=replace)
            elif txid in negadas:
                member = negadas[txid]
                request = item if replace else merge(member.get("request") or {}, item)
                refusal = _member_refusal(ctx, txid, set())
                if refusal is None:
                    _try_create_member(ctx, batch["id"], request, member)
                else:
                    member["problema"] = _member_problem(refusal, batch["id"])
                    member["request"] = request
        _put_batch(ctx, batch)
    return batch


def activate_batches(ctx: QrContext) -> int:
    """Tick: members accepted (CRIADA) become visible with their charge's status (ATIVA)."""
    pending = ctx.store.all("lotecobv_pending")
    for ref in pending:
        with ctx.store.transaction():
            batch = ctx.store.get("lotecobv", ref["id"])
            if batch is not None:
                for member in batch["members"]:
                    member["pending"] = False
                    member["refused"] = False
                ctx.store.put("lotecobv", batch["id"], batch, batch["criacao"])
            ctx.store.delete("lotecobv_pending", ref["id"])
    return len(pending)
