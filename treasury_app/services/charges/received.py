"""Pix received on the account's charges and their refunds (``devolucao``): read and list the
Pix received, ask for a refund and follow it.

A refund goes out as ``PUT`` with an id generated here (or the id of a request whose answer
was lost), so that repeating it can never refund twice; it is audited as ``refund.request``.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import date, datetime
from decimal import Decimal

from treasury_app.api.qrcodes.cashin_models import Devolucao, DevolucaoSolicitada, Pix
from treasury_app.domain.identifiers import is_valid_e2eid, new_txid
from treasury_app.services.charges.audit import audited_call, status_of
from treasury_app.services.charges.checks import (
    MAX_DESCRIPTION,
    ChargeInputError,
    check_amount,
    check_page_size,
    check_text,
    check_txid,
    document_filter,
    time_range,
)
from treasury_app.services.charges.context import ChargesContext

__all__ = ["ReceivedPix"]

_REFUND_ID_RE = re.compile(r"[a-zA-Z0-9]{1,35}")


def _e2eid(value: str) -> str:
    if not isinstance(value, str) or not is_valid_e2eid(value.strip()):
        raise ChargeInputError("charge.e2eid_format", field="endToEndId")
    return value.strip()


class ReceivedPix(ChargesContext):
    """The Pix received and their refunds."""

    async def get_received_pix(self, e2eid: str) -> Pix:
        """``GET /pix/{e2eid}``: a Pix received, with its refunds."""
        return await self._qr.get_pix(_e2eid(e2eid))

    def iter_received_pix(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        txid: str | None = None,
        document: str | None = None,
        with_txid: bool | None = None,
        with_refunds: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[Pix]:
        """The Pix received in ``[start, end]``, optionally for one charge (``txid``) or one
        payer's CPF/CNPJ, over every page. Inputs are checked now."""
        inicio, fim = time_range(start, end)
        if txid is not None:
            check_txid(txid)
        return self._qr.iter_pix(
            inicio=inicio,
            fim=fim,
            txid=txid,
            tx_id_presente=with_txid,
            devolucao_presente=with_refunds,
            itens_por_pagina=check_page_size(page_size),
            **document_filter(document),
        )

    async def request_refund(
        self,
        e2eid: str,
        amount: Decimal | str,
        *,
        description: str | None = None,
        refund_id: str | None = None,
    ) -> Devolucao:
        """Refund (part of) a received Pix: ``PUT /pix/{e2eid}/devolucao/{id}`` with a local
        id (or ``refund_id``, to repeat a request whose answer was lost). The bank checks the
        amount against what is left to refund. Audited as ``refund.request``."""
        e2e = _e2eid(e2eid)
        value = check_amount(amount, "valor")
        if refund_id is None:
            refund_id = new_txid()
        elif not isinstance(refund_id, str) or not _REFUND_ID_RE.fullmatch(refund_id):
            raise ChargeInputError("charge.refund_id_format", field="id")
        body = DevolucaoSolicitada(
            valor=value, descricao=check_text(description, "descricao", max_len=MAX_DESCRIPTION)
        )
        return await audited_call(
            self._ledger,
            "refund.request",
            self._qr.put_devolucao(e2e, refund_id, body),
            reference=refund_id,
            amount=value,
            details={"endToEndId": e2e},
            outcome=status_of,
            answered=lambda answer: {"rtrId": answer.rtr_id},
        )

    async def get_refund(self, e2eid: str, refund_id: str) -> Devolucao:
        """``GET /pix/{e2eid}/devolucao/{id}``: a refund and its status."""
        return await self._qr.get_devolucao(_e2eid(e2eid), refund_id)
