"""The global webhooks of Pix Automático (PUT/GET/DELETE /webhookrec and /webhookcobr) and
the notifications queued for them."""

from __future__ import annotations

from treasury_app.sandbox import notifier
from treasury_app.sandbox.automatico_bank.records import Doc, now_iso
from treasury_app.sandbox.automatico_bank.render import cobr_notification, rec_notification
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem


def _notify(ctx: QrContext, kind: str, payload: Doc) -> None:
    hook = ctx.store.get(f"webhook{kind}", "global")
    if hook is None:
        return
    notifier.queue(
        ctx.store,
        ctx.clock,
        api="qrcodes",
        kind=kind,
        url=str(hook["webhookUrl"]).rstrip("/") + f"/{kind}",
        payload=payload,
    )


def notify_rec(ctx: QrContext, rec: Doc) -> None:
    _notify(ctx, "rec", {"recs": [rec_notification(rec)]})


def notify_cobr(ctx: QrContext, cobr: Doc) -> None:
    _notify(ctx, "cobr", {"cobsr": [cobr_notification(cobr)]})


def notifications(ctx: QrContext, kind: str | None) -> list[Doc]:
    """The notifications queued for the rec and cobr webhooks (``kind`` None: both)."""
    return [
        n
        for n in ctx.store.all("notification")
        if n.get("api") == "qrcodes"
        and n.get("kind") in ("rec", "cobr")
        and (kind is None or n.get("kind") == kind)
    ]


def put_webhook(ctx: QrContext, kind: str, url: str) -> Doc:
    existing = ctx.store.get(f"webhook{kind}", "global")
    doc = {"webhookUrl": url, "criacao": existing["criacao"] if existing else now_iso(ctx)}
    ctx.store.put(f"webhook{kind}", "global", doc, doc["criacao"])
    return doc


def get_webhook(ctx: QrContext, kind: str) -> Doc:
    doc = ctx.store.get(f"webhook{kind}", "global")
    if doc is None:
        raise Problem(
            404,
            f"Nenhum webhook de {'recorrências' if kind == 'rec' else 'cobranças recorrentes'}"
            " cadastrado.",
            type_name="WebhookNaoEncontrado",
        )
    return doc


def delete_webhook(ctx: QrContext, kind: str) -> None:
    get_webhook(ctx, kind)
    ctx.store.delete(f"webhook{kind}", "global")
