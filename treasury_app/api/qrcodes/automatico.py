"""Pix Automático on the QR Codes API: one typed async method per endpoint of rec, solicrec,
cobr (with retentativa), locrec, webhookrec and webhookcobr, plus the signed recurrence
payload served at a recurrence location.

:class:`AutomaticoMethods` is a mixin: the QR Codes client sets ``self._transport`` (an
:class:`~treasury_app.api.transport.ApiTransport`) and inherits these methods. They never
retry on their own (the transport does, when repeating is safe) and raise the transport's
typed errors: :class:`~treasury_app.api.errors.NotFound` for an unknown idRec or txid,
:class:`~treasury_app.api.errors.BadRequest` with ``violacoes`` for a refused body, and so on;
an answer that does not fit its model raises
:class:`~treasury_app.api.errors.ResponseFormatError`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from typing import Any

from treasury_app.api.modeling import parse_model
from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRRevisada,
    CobRSolicitada,
    CobRStatus,
    CobsRConsultadas,
    LocRec,
    LocsRecConsultadas,
    RecCompleta,
    RecPayload,
    RecRevisada,
    RecsConsultadas,
    RecSolicitada,
    RecStatus,
    SolicRecCompleta,
    SolicRecRevisada,
    SolicRecSolicitada,
    WebhookCobR,
    WebhookRec,
    WebhookRecSolicitado,
)
from treasury_app.api.qrcodes.jws import verified_payload
from treasury_app.api.qrcodes.resources import Resources, every_page, paging, segment
from treasury_app.domain.identifiers import new_txid

__all__ = ["AutomaticoMethods", "verify_rec_payload_jws"]


def verify_rec_payload_jws(jws: str, jwks: Any) -> bytes:
    """The payload bytes of a compact RS256 JWS after checking its signature against a JSON
    Web Key Set (the key named by the header's ``kid``). Raises
    :class:`~treasury_app.api.qrcodes.cashin.PayloadSignatureError` when the token is
    malformed, not RS256, no key matches or the signature does not verify."""
    return verified_payload(jws, jwks, "the recurrence payload", "the bank's key set")


class AutomaticoMethods(Resources):
    """Pix Automático endpoints of the QR Codes API (mixin; needs ``self._transport``)."""

    # -- rec ---------------------------------------------------------------------------------

    async def post_rec(self, body: RecSolicitada) -> RecCompleta:
        """POST /rec: create a recurrence (answers it with status CRIADA)."""
        return await self._resource(RecCompleta, "POST", "/rec", json=body)

    async def get_rec(self, id_rec: str, txid: str | None = None) -> RecCompleta:
        """GET /rec/{idRec}[?txid=]: the recurrence, with ``dadosQR`` (composite with txid)."""
        return await self._resource(
            RecCompleta, "GET", f"/rec/{segment(id_rec)}", params={"txid": txid}
        )

    async def patch_rec(self, id_rec: str, body: RecRevisada) -> RecCompleta:
        """PATCH /rec/{idRec}: revise a recurrence, or cancel it (status CANCELADA alone)."""
        return await self._resource(RecCompleta, "PATCH", f"/rec/{segment(id_rec)}", json=body)

    async def cancel_rec(self, id_rec: str) -> RecCompleta:
        """PATCH /rec/{idRec} with ``{"status": "CANCELADA"}``."""
        return await self.patch_rec(id_rec, RecRevisada(status=RecStatus.CANCELADA))

    async def list_rec(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        status: RecStatus | str | None = None,
        convenio: str | None = None,
        location_presente: bool | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> RecsConsultadas:
        """GET /rec: one page of the recurrences created between ``inicio`` and ``fim``."""
        params = {
            "inicio": inicio,
            "fim": fim,
            "cpf": cpf,
            "cnpj": cnpj,
            "status": status,
            "convenio": convenio,
            "locationPresente": location_presente,
            **paging(pagina_atual, itens_por_pagina),
        }
        return await self._resource(RecsConsultadas, "GET", "/rec", params=params)

    def iter_rec(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        status: RecStatus | str | None = None,
        convenio: str | None = None,
        location_presente: bool | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[RecCompleta]:
        """GET /rec, every page: the recurrences one by one, pages fetched as needed."""
        return every_page(
            self.list_rec,
            lambda answer: answer.recs,
            inicio=inicio,
            fim=fim,
            cpf=cpf,
            cnpj=cnpj,
            status=status,
            convenio=convenio,
            location_presente=location_presente,
            itens_por_pagina=itens_por_pagina,
        )

    # -- solicrec ----------------------------------------------------------------------------

    async def post_solicrec(self, body: SolicRecSolicitada) -> SolicRecCompleta:
        """POST /solicrec: ask the payer's PSP to confirm a CRIADA recurrence (journey 1)."""
        return await self._resource(SolicRecCompleta, "POST", "/solicrec", json=body)

    async def get_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """GET /solicrec/{idSolicRec}: a confirmation request."""
        return await self._resource(SolicRecCompleta, "GET", f"/solicrec/{segment(id_solic_rec)}")

    async def patch_solicrec(self, id_solic_rec: str, body: SolicRecRevisada) -> SolicRecCompleta:
        """PATCH /solicrec/{idSolicRec}: revise a confirmation request (only to CANCELADA)."""
        return await self._resource(
            SolicRecCompleta, "PATCH", f"/solicrec/{segment(id_solic_rec)}", json=body
        )

    async def cancel_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """PATCH /solicrec/{idSolicRec} with ``{"status": "CANCELADA"}``."""
        return await self.patch_solicrec(id_solic_rec, SolicRecRevisada())

    # -- cobr --------------------------------------------------------------------------------

    async def put_cobr(self, txid: str, body: CobRSolicitada) -> CobRCompleta:
        """PUT /cobr/{txid}: create a recurring charge with our own txid."""
        return await self._resource(CobRCompleta, "PUT", f"/cobr/{segment(txid)}", json=body)

    async def post_cobr(self, body: CobRSolicitada) -> CobRCompleta:
        """POST /cobr: create a recurring charge, the bank choosing the txid."""
        return await self._resource(CobRCompleta, "POST", "/cobr", json=body)

    async def create_cobr(self, body: CobRSolicitada, txid: str | None = None) -> CobRCompleta:
        """PUT /cobr/{txid} with ``txid`` or a new one (PUT: a retry never makes two)."""
        return await self.put_cobr(txid or new_txid(), body)

    async def get_cobr(self, txid: str) -> CobRCompleta:
        """GET /cobr/{txid}: a recurring charge with its settlement attempts."""
        return await self._resource(CobRCompleta, "GET", f"/cobr/{segment(txid)}")

    async def list_cobr(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        id_rec: str | None = None,
        cpf: str | None = None,
        cnpj: str | None = None,
        status: CobRStatus | str | None = None,
        convenio: str | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> CobsRConsultadas:
        """GET /cobr: one page of the recurring charges created between ``inicio`` and ``fim``."""
        params = {
            "inicio": inicio,
            "fim": fim,
            "idRec": id_rec,
            "cpf": cpf,
            "cnpj": cnpj,
            "status": status,
            "convenio": convenio,
            **paging(pagina_atual, itens_por_pagina),
        }
        return await self._resource(CobsRConsultadas, "GET", "/cobr", params=params)

    def iter_cobr(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        id_rec: str | None = None,
        cpf: str | None = None,
        cnpj: str | None = None,
        status: CobRStatus | str | None = None,
        convenio: str | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[CobRCompleta]:
        """GET /cobr, every page: the recurring charges one by one, pages fetched as needed."""
        return every_page(
            self.list_cobr,
            lambda answer: answer.cobsr,
            inicio=inicio,
            fim=fim,
            id_rec=id_rec,
            cpf=cpf,
            cnpj=cnpj,
            status=status,
            convenio=convenio,
            itens_por_pagina=itens_por_pagina,
        )

    async def patch_cobr(self, txid: str, body: CobRRevisada) -> CobRCompleta:
        """PATCH /cobr/{txid}: cancel a recurring charge (before its first attempt's date)."""
        return await self._resource(CobRCompleta, "PATCH", f"/cobr/{segment(txid)}", json=body)

    async def cancel_cobr(self, txid: str) -> CobRCompleta:
        """PATCH /cobr/{txid} with ``{"status": "CANCELADA"}``."""
        return await self.patch_cobr(txid, CobRRevisada(status=CobRStatus.CANCELADA))

    async def post_cobr_retentativa(self, txid: str, data: date) -> CobRCompleta:
        """POST /cobr/{txid}/retentativa/{data}: schedule a retry (NTAG) on a future date."""
        return await self._resource(
            CobRCompleta, "POST", f"/cobr/{segment(txid)}/retentativa/{segment(data.isoformat())}"
        )

    # -- locrec ------------------------------------------------------------------------------

    async def post_locrec(self) -> LocRec:
        """POST /locrec: create a recurrence payload location."""
        return await self._resource(LocRec, "POST", "/locrec")

    async def get_locrec(self, loc_id: int) -> LocRec:
        """GET /locrec/{id}: a recurrence payload location."""
        return await self._resource(LocRec, "GET", f"/locrec/{segment(loc_id)}")

    async def list_locrec(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        id_rec_presente: bool | None = None,
        convenio: str | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> LocsRecConsultadas:
        """GET /locrec: one page of the recurrence locations created between the dates."""
        params = {
            "inicio": inicio,
            "fim": fim,
            "idRecPresente": id_rec_presente,
            "convenio": convenio,
            **paging(pagina_atual, itens_por_pagina),
        }
        return await self._resource(LocsRecConsultadas, "GET", "/locrec", params=params)

    def iter_locrec(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        id_rec_presente: bool | None = None,
        convenio: str | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[LocRec]:
        """GET /locrec, every page: the recurrence locations one by one."""
        return every_page(
            self.list_locrec,
            lambda answer: answer.loc,
            inicio=inicio,
            fim=fim,
            id_rec_presente=id_rec_presente,
            convenio=convenio,
            itens_por_pagina=itens_por_pagina,
        )

    async def delete_locrec_idrec(self, loc_id: int) -> LocRec:
        """DELETE /locrec/{id}/idRec: unlink the recurrence (its status does not change)."""
        return await self._resource(LocRec, "DELETE", f"/locrec/{segment(loc_id)}/idRec")

    # -- webhookrec / webhookcobr ------------------------------------------------------------

    async def put_webhookrec(self, webhook_url: str) -> WebhookRec:
        """PUT /webhookrec: register the (HTTPS) URL of recurrence notifications."""
        body = WebhookRecSolicitado(webhook_url=webhook_url)
        data = await self._transport.request_json("PUT", "/webhookrec", json=body)
        # BCB's PUT answers 200 without a body; this spec's bank echoes the webhook.
        return parse_model(WebhookRec, data if data is not None else body.to_wire())

    async def get_webhookrec(self) -> WebhookRec:
        """GET /webhookrec: the registered recurrence webhook."""
        return await self._resource(WebhookRec, "GET", "/webhookrec")

    async def delete_webhookrec(self) -> None:
        """DELETE /webhookrec: stop recurrence notifications."""
        await self._transport.request("DELETE", "/webhookrec")

    async def put_webhookcobr(self, webhook_url: str) -> WebhookCobR:
        """PUT /webhookcobr: register the (HTTPS) URL of recurring-charge notifications."""
        body = WebhookRecSolicitado(webhook_url=webhook_url)
        data = await self._transport.request_json("PUT", "/webhookcobr", json=body)
        return parse_model(WebhookCobR, data if data is not None else body.to_wire())

    async def get_webhookcobr(self) -> WebhookCobR:
        """GET /webhookcobr: the registered recurring-charge webhook."""
        return await self._resource(WebhookCobR, "GET", "/webhookcobr")

    async def delete_webhookcobr(self) -> None:
        """DELETE /webhookcobr: stop recurring-charge notifications."""
        await self._transport.request("DELETE", "/webhookcobr")

    # -- recurrence payload (the location a QR code points to) -------------------------------

    async def get_rec_payload(self, location: str) -> RecPayload:
        """GET https://{location} (no token): the recurrence's JWS, its RS256 signature checked
        against the key set its header's ``jku`` names on the location's own host (or
        ``<base_url>/jwks``), as RecPayload."""
        return parse_model(RecPayload, await self._signed_payload(location, "recurrence payload"))
