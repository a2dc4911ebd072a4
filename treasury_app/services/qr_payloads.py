"""What a dynamic BR Code's charge asks, read from the signed payload at its location (BCB Pix
API): the amount due and whether the payer may pay another one. The payer's side reads it so
that an amount the charge does not allow is refused before anything is sent."""

from __future__ import annotations

from datetime import date

from treasury_app.api.qrcodes.cashin_models import CobVPayload
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.services.payouts import ChargeAmount

__all__ = ["charge_amount"]


async def charge_amount(qrcodes: QrCodesClient, location: str, today: date) -> ChargeAmount:
    """The amount the charge at ``location`` asks when paid ``today`` (Brasília): a cobv's
    final amount (fine, interest and discount applied; never changeable), or a cob's original
    amount, changeable only when its ``modalidadeAlteracao`` is 1. Raises the QR Codes
    client's errors (:class:`~treasury_app.api.qrcodes.jws.PayloadSignatureError` for a
    payload not validly signed)."""
    payload = await qrcodes.get_payload(location, dpp=today)
    if isinstance(payload, CobVPayload):
        return ChargeAmount(payload.valor.final, changeable=False)
    return ChargeAmount(payload.valor.original, changeable=payload.valor.modalidade_alteracao == 1)
