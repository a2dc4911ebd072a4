"""Pix Automático of the sandbox bank (BCB Pix API 2.8+) without HTTP (the routes are in
:mod:`..automatico`), one module a concern: ``validate`` (request bodies to typed requests),
``rec``, ``solicrec``, ``cobr`` and ``locrec`` (the state machines the sandbox clock moves, one
resource each), ``webhooks`` (the global webhooks and their notifications), ``render`` (the
JSON answers), ``records`` (how documents are kept, their statuses) and ``cashin_link`` (the
Cash In charges of journeys 3 and 4). :class:`AutomaticoBank` is the surface the routes use."""

from __future__ import annotations

from treasury_app.sandbox.automatico_bank import cobr, locrec, rec, render, solicrec, webhooks
from treasury_app.sandbox.automatico_bank.records import (
    COBR_STATUSES,
    REC_STATUSES,
    SOLICREC_STATUSES,
    Doc,
    get_cobr,
    get_locrec,
    get_rec,
    get_solicrec,
)
from treasury_app.sandbox.automatico_bank.render import public
from treasury_app.sandbox.context import QrContext

__all__ = [
    "COBR_STATUSES",
    "REC_STATUSES",
    "SOLICREC_STATUSES",
    "AutomaticoBank",
    "Doc",
    "public",
]


class AutomaticoBank:
    """The Pix Automático rules over one context's store (stateless: cheap to build); each
    method is one endpoint or control action of the module named after its resource."""

    def __init__(self, ctx: QrContext) -> None:
        self.ctx = ctx

    # rec
    def create_rec(self, body: Doc) -> Doc:
        return rec.create_rec(self.ctx, body)

    def rec(self, id_rec: str) -> Doc:
        return get_rec(self.ctx, id_rec)

    def rec_view(self, doc: Doc, *, full: bool = False) -> Doc:
        return render.rec_view(self.ctx, doc, full=full)

    def rec_with_qr(self, id_rec: str, txid: str | None) -> Doc:
        return rec.rec_with_qr(self.ctx, id_rec, txid)

    def patch_rec(self, id_rec: str, body: Doc) -> Doc:
        return rec.patch_rec(self.ctx, id_rec, body)

    def list_recs(self, filters: dict[str, str | None], location: bool | None) -> list[Doc]:
        return rec.list_recs(self.ctx, filters, location)

    def payload_jws(self, token: str) -> str:
        return rec.payload_jws(self.ctx, token)

    def control_rec(self, id_rec: str, action: str, body: Doc) -> Doc:
        return rec.control_rec(self.ctx, id_rec, action, body)

    # solicrec
    def create_solicrec(self, body: Doc) -> Doc:
        return solicrec.create_solicrec(self.ctx, body)

    def solicrec(self, id_solic: str) -> Doc:
        return get_solicrec(self.ctx, id_solic)

    def solicrec_view(self, sol: Doc, rec_doc: Doc | None = None) -> Doc:
        return render.solicrec_view(self.ctx, sol, rec_doc)

    def cancel_solicrec(self, id_solic: str, body: Doc) -> Doc:
        return solicrec.cancel_solicrec(self.ctx, id_solic, body)

    # cobr
    def create_cobr(self, body: Doc, txid: str | None) -> Doc:
        return cobr.create_cobr(self.ctx, body, txid)

    def cobr(self, txid: str) -> Doc:
        return get_cobr(self.ctx, txid)

    def cancel_cobr(self, txid: str, body: Doc) -> Doc:
        return cobr.cancel_cobr(self.ctx, txid, body)

    def retry_cobr(self, txid: str, data: str) -> Doc:
        return cobr.retry_cobr(self.ctx, txid, data)

    def list_cobrs(self, filters: dict[str, str | None]) -> list[Doc]:
        return cobr.list_cobrs(self.ctx, filters)

    def fail_next(self, txid: str, body: Doc) -> Doc:
        return cobr.fail_next(self.ctx, txid, body)

    # locrec
    def create_locrec(self) -> Doc:
        return locrec.create_locrec(self.ctx)

    def locrec(self, loc_id: str) -> Doc:
        return get_locrec(self.ctx, loc_id)

    def unlink_locrec(self, loc_id: str) -> Doc:
        return locrec.unlink_locrec(self.ctx, loc_id)

    # webhooks
    def put_webhook(self, kind: str, url: str) -> Doc:
        return webhooks.put_webhook(self.ctx, kind, url)

    def webhook(self, kind: str) -> Doc:
        return webhooks.get_webhook(self.ctx, kind)

    def delete_webhook(self, kind: str) -> None:
        webhooks.delete_webhook(self.ctx, kind)

    def notifications(self, kind: str | None) -> list[Doc]:
        return webhooks.notifications(self.ctx, kind)

    # the clock
    def tick(self) -> None:
        now = self.ctx.clock.now()
        solicrec.tick_solicrecs(self.ctx, now)
        rec.tick_recs(self.ctx)
        cobr.tick_cobrs(self.ctx, now)
