"""Cash In endpoints of the QR Codes API (BCB Pix API): cob, cobv, lotecobv, loc, the signed
payloads served at locations, received Pix, refunds and the per-key Pix webhook.

:class:`CashInMethods` is a mixin: the QR Codes client sets ``self._transport`` (an
:class:`~treasury_app.api.transport.ApiTransport` for the QR Codes API) and gains one typed
coroutine per endpoint, named ``<verb>_<resource>`` in the BCB vocabulary. The methods never
retry (the transport does) and raise the transport's typed errors (``NotFound``,
``BadRequest`` with ``violacoes``...); an answer that does not fit its model raises
:class:`~treasury_app.api.errors.ResponseFormatError`.

Charges are created with PUT and a client txid (:meth:`CashInMethods.create_cob`,
:meth:`CashInMethods.create_cobv`), so that repeating a creation can never make two charges.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime

from treasury_app.api.modeling import parse_model
from treasury_app.api.qrcodes.cashin_models import (
    CobCompleta,
    CobGerada,
    CobPayload,
    CobRevisada,
    CobsConsultadas,
    CobSolicitada,
    CobStatus,
    CobsVConsultadas,
    CobVCompleta,
    CobVGerada,
    CobVPayload,
    CobVRevisada,
    CobVSolicitada,
    Devolucao,
    DevolucaoSolicitada,
    LoteCobVConsultado,
    LoteCobVRevisado,
    LoteCobVSolicitado,
    LotesCobVConsultados,
    PayloadLocation,
    PayloadLocationCompleta,
    PayloadLocationConsultadas,
    PayloadLocationSolicitada,
    Pix,
    PixConsultados,
    TipoCob,
    WebhookCompleto,
    WebhooksConsultados,
    WebhookSolicitado,
)
from treasury_app.api.qrcodes.jws import PayloadSignatureError
from treasury_app.api.qrcodes.resources import (
    Resources,
    every_page,
    range_params,
    segment,
)
from treasury_app.domain.identifiers import new_txid

__all__ = ["CashInMethods", "PayloadSignatureError"]


class CashInMethods(Resources):
    """Cash In half of the QR Codes client (mixin; needs ``self._transport``)."""

    # -- cob: immediate charges --------------------------------------------------------------

    async def post_cob(self, body: CobSolicitada) -> CobGerada:
        """POST /cob: create an immediate charge whose txid the bank chooses."""
        return await self._resource(CobGerada, "POST", "/cob", json=body)

    async def put_cob(self, txid: str, body: CobSolicitada) -> CobGerada:
        """PUT /cob/{txid}: create an immediate charge with a client txid."""
        return await self._resource(CobGerada, "PUT", f"/cob/{segment(txid)}", json=body)

    async def create_cob(self, body: CobSolicitada, txid: str | None = None) -> CobGerada:
        """PUT /cob/{txid} with a new local txid when none is given (a retry never duplicates)."""
        return await self.put_cob(txid or new_txid(), body)

    async def patch_cob(self, txid: str, body: CobRevisada) -> CobGerada:
        """PATCH /cob/{txid}: revise an immediate charge (or remove it with its status)."""
        return await self._resource(CobGerada, "PATCH", f"/cob/{segment(txid)}", json=body)

    async def get_cob(self, txid: str, *, revisao: int | None = None) -> CobCompleta:
        """GET /cob/{txid}: an immediate charge with the Pix that paid it."""
        return await self._resource(
            CobCompleta, "GET", f"/cob/{segment(txid)}", params={"revisao": revisao}
        )

    async def list_cob(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        location_presente: bool | None = None,
        status: CobStatus | str | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> CobsConsultadas:
        """GET /cob: one page of the immediate charges created between inicio and fim."""
        params = {
            **range_params(inicio, fim, pagina_atual, itens_por_pagina),
            "cpf": cpf,
            "cnpj": cnpj,
            "locationPresente": location_presente,
            "status": status,
        }
        return await self._resource(CobsConsultadas, "GET", "/cob", params=params)

    def iter_cob(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        location_presente: bool | None = None,
        status: CobStatus | str | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[CobCompleta]:
        """GET /cob over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_cob,
            lambda answer: answer.cobs,
            inicio=inicio,
            fim=fim,
            cpf=cpf,
            cnpj=cnpj,
            location_presente=location_presente,
            status=status,
            itens_por_pagina=itens_por_pagina,
        )

    # -- cobv: charges with a due date -------------------------------------------------------

    async def put_cobv(self, txid: str, body: CobVSolicitada) -> CobVGerada:
        """PUT /cobv/{txid}: create a charge with a due date and a client txid."""
        return await self._resource(CobVGerada, "PUT", f"/cobv/{segment(txid)}", json=body)

    async def create_cobv(self, body: CobVSolicitada, txid: str | None = None) -> CobVGerada:
        """PUT /cobv/{txid} with a new local txid when none is given (a retry never duplicates)."""
        return await self.put_cobv(txid or new_txid(), body)

    async def patch_cobv(self, txid: str, body: CobVRevisada) -> CobVGerada:
        """PATCH /cobv/{txid}: revise a charge with a due date (or remove it)."""
        return await self._resource(CobVGerada, "PATCH", f"/cobv/{segment(txid)}", json=body)

    async def get_cobv(self, txid: str, *, revisao: int | None = None) -> CobVCompleta:
        """GET /cobv/{txid}: a charge with a due date and the Pix that paid it."""
        return await self._resource(
            CobVCompleta, "GET", f"/cobv/{segment(txid)}", params={"revisao": revisao}
        )

    async def list_cobv(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        location_presente: bool | None = None,
        status: CobStatus | str | None = None,
        lote_cobv_id: str | int | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> CobsVConsultadas:
        """GET /cobv: one page of the charges with a due date created between inicio and fim."""
        params = {
            **range_params(inicio, fim, pagina_atual, itens_por_pagina),
            "cpf": cpf,
            "cnpj": cnpj,
            "locationPresente": location_presente,
            "status": status,
            "loteCobVId": lote_cobv_id,
        }
        return await self._resource(CobsVConsultadas, "GET", "/cobv", params=params)

    def iter_cobv(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        cpf: str | None = None,
        cnpj: str | None = None,
        location_presente: bool | None = None,
        status: CobStatus | str | None = None,
        lote_cobv_id: str | int | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[CobVCompleta]:
        """GET /cobv over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_cobv,
            lambda answer: answer.cobs,
            inicio=inicio,
            fim=fim,
            cpf=cpf,
            cnpj=cnpj,
            location_presente=location_presente,
            status=status,
            lote_cobv_id=lote_cobv_id,
            itens_por_pagina=itens_por_pagina,
        )

    # -- lotecobv: batches of charges with a due date ----------------------------------------

    async def put_lotecobv(self, lote_id: str, body: LoteCobVSolicitado) -> LoteCobVConsultado:
        """PUT /lotecobv/{id}: create a batch of cobv (or revise all of its members).

        BCB's 202 carries no body; the service's contract returns the batch. Without a body
        the batch is read back with GET."""
        path = f"/lotecobv/{segment(lote_id)}"
        return await self._written(
            LoteCobVConsultado, "PUT", path, body, lambda: self.get_lotecobv(lote_id)
        )

    async def patch_lotecobv(self, lote_id: str, body: LoteCobVRevisado) -> LoteCobVConsultado:
        """PATCH /lotecobv/{id}: revise members of a batch (none added or removed)."""
        path = f"/lotecobv/{segment(lote_id)}"
        return await self._written(
            LoteCobVConsultado, "PATCH", path, body, lambda: self.get_lotecobv(lote_id)
        )

    async def get_lotecobv(self, lote_id: str) -> LoteCobVConsultado:
        """GET /lotecobv/{id}: a batch with the status, debtor and amount of each member."""
        return await self._resource(LoteCobVConsultado, "GET", f"/lotecobv/{segment(lote_id)}")

    async def list_lotecobv(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> LotesCobVConsultados:
        """GET /lotecobv: one page of the batches created between inicio and fim."""
        params = range_params(inicio, fim, pagina_atual, itens_por_pagina)
        return await self._resource(LotesCobVConsultados, "GET", "/lotecobv", params=params)

    def iter_lotecobv(
        self, *, inicio: datetime, fim: datetime, itens_por_pagina: int | None = None
    ) -> AsyncIterator[LoteCobVConsultado]:
        """GET /lotecobv over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_lotecobv,
            lambda answer: answer.lotes,
            inicio=inicio,
            fim=fim,
            itens_por_pagina=itens_por_pagina,
        )

    # -- loc: payload locations --------------------------------------------------------------

    async def post_loc(self, body: PayloadLocationSolicitada) -> PayloadLocationCompleta:
        """POST /loc: create a payload location for a future cob or cobv."""
        return await self._resource(PayloadLocationCompleta, "POST", "/loc", json=body)

    async def get_loc(self, loc_id: int) -> PayloadLocationCompleta:
        """GET /loc/{id}: a payload location and the txid linked to it, if any."""
        return await self._resource(PayloadLocationCompleta, "GET", f"/loc/{segment(loc_id)}")

    async def list_loc(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        tx_id_presente: bool | None = None,
        tipo_cob: TipoCob | str | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> PayloadLocationConsultadas:
        """GET /loc: one page of the payload locations created between inicio and fim."""
        params = {
            **range_params(inicio, fim, pagina_atual, itens_por_pagina),
            "txIdPresente": tx_id_presente,
            "tipoCob": tipo_cob,
        }
        return await self._resource(PayloadLocationConsultadas, "GET", "/loc", params=params)

    def iter_loc(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        tx_id_presente: bool | None = None,
        tipo_cob: TipoCob | str | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[PayloadLocationCompleta]:
        """GET /loc over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_loc,
            lambda answer: answer.loc,
            inicio=inicio,
            fim=fim,
            tx_id_presente=tx_id_presente,
            tipo_cob=tipo_cob,
            itens_por_pagina=itens_por_pagina,
        )

    async def delete_loc_txid(self, loc_id: int) -> PayloadLocation:
        """DELETE /loc/{id}/txid: unlink the charge from a location (the charge loses it)."""
        return await self._resource(PayloadLocation, "DELETE", f"/loc/{segment(loc_id)}/txid")

    # -- the signed payload served at a location ---------------------------------------------

    async def get_payload(
        self, location: str, *, dpp: date | None = None, cod_mun: str | None = None
    ) -> CobPayload | CobVPayload:
        """GET https://{location}: the JWS of a cob/cobv, signature checked, payload decoded.

        ``location`` is written as BCB does (``host/qr/v2/<token>``). No token is sent. The
        RS256 signature is checked against the key set named by the JWS header's ``jku``
        (which must be on the location's own host), or ``<base_url>/jwks`` without one.
        ``dpp`` (intended payment date) and ``cod_mun`` apply to cobv locations.
        """
        data = await self._signed_payload(
            location, "Pix payload", params={"DPP": dpp, "codMun": cod_mun}
        )
        calendario = data.get("calendario") if isinstance(data, dict) else None
        if isinstance(calendario, dict) and "dataDeVencimento" in calendario:
            return parse_model(CobVPayload, data)
        return parse_model(CobPayload, data)

    # -- pix received and refunds ------------------------------------------------------------

    async def get_pix(self, e2eid: str) -> Pix:
        """GET /pix/{e2eid}: a Pix received, with its refunds."""
        return await self._resource(Pix, "GET", f"/pix/{segment(e2eid)}")

    async def list_pix(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        txid: str | None = None,
        tx_id_presente: bool | None = None,
        devolucao_presente: bool | None = None,
        cpf: str | None = None,
        cnpj: str | None = None,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> PixConsultados:
        """GET /pix: one page of the Pix received between inicio and fim."""
        params = {
            **range_params(inicio, fim, pagina_atual, itens_por_pagina),
            "txid": txid,
            "txIdPresente": tx_id_presente,
            "devolucaoPresente": devolucao_presente,
            "cpf": cpf,
            "cnpj": cnpj,
        }
        return await self._resource(PixConsultados, "GET", "/pix", params=params)

    def iter_pix(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        txid: str | None = None,
        tx_id_presente: bool | None = None,
        devolucao_presente: bool | None = None,
        cpf: str | None = None,
        cnpj: str | None = None,
        itens_por_pagina: int | None = None,
    ) -> AsyncIterator[Pix]:
        """GET /pix over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_pix,
            lambda answer: answer.pix,
            inicio=inicio,
            fim=fim,
            txid=txid,
            tx_id_presente=tx_id_presente,
            devolucao_presente=devolucao_presente,
            cpf=cpf,
            cnpj=cnpj,
            itens_por_pagina=itens_por_pagina,
        )

    async def put_devolucao(
        self, e2eid: str, devolucao_id: str, body: DevolucaoSolicitada
    ) -> Devolucao:
        """PUT /pix/{e2eid}/devolucao/{id}: refund (part of) a Pix received; id chosen by us."""
        path = f"/pix/{segment(e2eid)}/devolucao/{segment(devolucao_id)}"
        return await self._resource(Devolucao, "PUT", path, json=body)

    async def get_devolucao(self, e2eid: str, devolucao_id: str) -> Devolucao:
        """GET /pix/{e2eid}/devolucao/{id}: a refund and its status."""
        path = f"/pix/{segment(e2eid)}/devolucao/{segment(devolucao_id)}"
        return await self._resource(Devolucao, "GET", path)

    # -- per-key Pix webhook -----------------------------------------------------------------

    async def put_webhook(self, chave: str, body: WebhookSolicitado) -> WebhookCompleto:
        """PUT /webhook/{chave}: register the HTTPS URL told of the Pix received on a key.

        The bank notifies ``<webhookUrl>/pix``. BCB answers without a body: then the webhook
        is read back with GET."""
        path = f"/webhook/{segment(chave)}"
        return await self._written(
            WebhookCompleto, "PUT", path, body, lambda: self.get_webhook(chave)
        )

    async def get_webhook(self, chave: str) -> WebhookCompleto:
        """GET /webhook/{chave}: the webhook of a key (``chave`` filled in when not echoed)."""
        webhook = await self._resource(WebhookCompleto, "GET", f"/webhook/{segment(chave)}")
        if webhook.chave is None:
            webhook.chave = chave
        return webhook

    async def delete_webhook(self, chave: str) -> None:
        """DELETE /webhook/{chave}: stop the Pix notifications of a key."""
        await self._transport.request("DELETE", f"/webhook/{segment(chave)}")

    async def list_webhook(
        self,
        *,
        inicio: datetime,
        fim: datetime,
        pagina_atual: int | None = None,
        itens_por_pagina: int | None = None,
    ) -> WebhooksConsultados:
        """GET /webhook: one page of the per-key webhooks created between inicio and fim."""
        params = range_params(inicio, fim, pagina_atual, itens_por_pagina)
        return await self._resource(WebhooksConsultados, "GET", "/webhook", params=params)

    def iter_webhook(
        self, *, inicio: datetime, fim: datetime, itens_por_pagina: int | None = None
    ) -> AsyncIterator[WebhookCompleto]:
        """GET /webhook over every page, each fetched only when the iteration reaches it."""
        return every_page(
            self.list_webhook,
            lambda answer: answer.webhooks,
            inicio=inicio,
            fim=fim,
            itens_por_pagina=itens_por_pagina,
        )
