"""Payload locations (``loc``): the URL a QR Code points to, created before its charge so that
the QR Code can be printed first. Create, list, read and unlink them.

Creating and unlinking are audited as ``location.create`` and ``location.unlink``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime
from typing import Literal

from treasury_app.api.qrcodes.cashin_models import (
    PayloadLocation,
    PayloadLocationCompleta,
    PayloadLocationSolicitada,
    TipoCob,
)
from treasury_app.services.charges.audit import audited_call
from treasury_app.services.charges.checks import (
    ChargeInputError,
    check_location_id,
    check_page_size,
    time_range,
)
from treasury_app.services.charges.context import ChargesContext

__all__ = ["PayloadLocations"]


class PayloadLocations(ChargesContext):
    """Payload locations for future charges."""

    async def create_location(
        self, kind: TipoCob | Literal["cob", "cobv"] = TipoCob.COB
    ) -> PayloadLocationCompleta:
        """``POST /loc``: a payload location for a future cob or cobv (pass its id as
        ``location_id``). Audited as ``location.create``."""
        try:
            tipo = TipoCob(kind)
        except ValueError:
            raise ChargeInputError("charge.location_kind", field="tipoCob") from None
        return await audited_call(
            self._ledger,
            "location.create",
            self._qr.post_loc(PayloadLocationSolicitada(tipo_cob=tipo)),
            details={"tipoCob": tipo},
            reference_of=lambda answer: str(answer.id),
            answered=lambda answer: {"location": answer.location},
        )

    def iter_locations(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        linked: bool | None = None,
        kind: TipoCob | Literal["cob", "cobv"] | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[PayloadLocationCompleta]:
        """``GET /loc``: the payload locations created in ``[start, end]`` (whole days in
        Brasília), optionally only those with (or without) a charge, or of one kind."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_loc(
            inicio=inicio,
            fim=fim,
            tx_id_presente=linked,
            tipo_cob=TipoCob(kind) if kind is not None else None,
            itens_por_pagina=check_page_size(page_size),
        )

    async def get_location(self, location_id: int) -> PayloadLocationCompleta:
        """``GET /loc/{id}``: a location and the txid linked to it, if any."""
        return await self._qr.get_loc(location_id)

    async def unlink_location(self, location_id: int) -> PayloadLocation:
        """``DELETE /loc/{id}/txid``: the charge loses this location (and its QR Code).
        Audited as ``location.unlink``."""
        check_location_id(location_id)
        return await audited_call(
            self._ledger,
            "location.unlink",
            self._qr.delete_loc_txid(location_id),
            reference=str(location_id),
        )
