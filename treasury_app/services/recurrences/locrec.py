"""Recurrence locations (``/locrec``): the payload locations a recurrence's QR Code points
to, created, read, linked to a recurrence, unlinked and listed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import date, datetime

from treasury_app.api.qrcodes.automatico_models import LocRec, RecCompleta, RecRevisada
from treasury_app.services.charges import audited_call, time_range
from treasury_app.services.recurrences.base import RecurrenceUseCases, status_of
from treasury_app.services.recurrences.checks import (
    check_idrec,
    check_location_id,
    check_page_size,
    recurrence_input,
)

__all__ = ["LocRecUseCases"]


class LocRecUseCases(RecurrenceUseCases):
    """``POST``, ``GET`` and list of ``/locrec``, and a location given to or taken from a
    recurrence. Writes are audited as ``locrec.create``, ``locrec.link`` and
    ``locrec.unlink``."""

    async def create_locrec(self) -> LocRec:
        """``POST /locrec``: a recurrence payload location. Audited as ``locrec.create``."""
        return await audited_call(
            self._ledger,
            "locrec.create",
            self._qr.post_locrec(),
            reference_of=lambda loc: str(loc.id),
            answered=lambda loc: {"location": loc.location},
        )

    async def get_locrec(self, location_id: int) -> LocRec:
        """``GET /locrec/{id}``: a location and the recurrence using it, if any."""
        return await self._qr.get_locrec(check_location_id(location_id))

    async def link_locrec(self, id_rec: str, location_id: int) -> RecCompleta:
        """``PATCH /rec/{idRec}`` with ``loc``: give a ``CRIADA`` recurrence this location
        (its QR Code). Audited as ``locrec.link``."""
        id_rec = check_idrec(id_rec)
        loc = check_location_id(location_id)
        return await audited_call(
            self._ledger,
            "locrec.link",
            self._qr.patch_rec(id_rec, RecRevisada(loc=loc)),
            reference=str(loc),
            details={"idRec": id_rec},
            outcome=status_of,
        )

    async def unlink_locrec(self, location_id: int) -> LocRec:
        """``DELETE /locrec/{id}/idRec``: the recurrence loses this location (its status does
        not change). Audited as ``locrec.unlink``."""
        loc = check_location_id(location_id)
        return await audited_call(
            self._ledger,
            "locrec.unlink",
            self._qr.delete_locrec_idrec(loc),
            reference=str(loc),
        )

    def iter_locrecs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        linked: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[LocRec]:
        """The recurrence locations created in ``[start, end]`` (``linked``: with or without
        a recurrence), over every page."""
        with recurrence_input():
            inicio, fim = time_range(start, end)
        return self._qr.iter_locrec(
            inicio=inicio,
            fim=fim,
            id_rec_presente=linked,
            itens_por_pagina=check_page_size(page_size),
        )
