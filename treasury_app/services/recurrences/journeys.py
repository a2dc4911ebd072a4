"""The four journeys by which a payer authorizes a recurrence, end to end (the bank's
contract), built on :mod:`.rec`, :mod:`.solicrec` and :mod:`.locrec`:

1. :meth:`JourneyUseCases.start_journey_1` — the payer is asked outside Pix:
   ``POST /rec`` then ``POST /solicrec`` to the payer's PSP.
2. :meth:`JourneyUseCases.start_journey_2` — the payer scans a recurrence QR Code:
   ``POST /locrec``, ``POST /rec`` with that location, ``GET /rec/{idRec}``; the answer's
   ``dadosQR.pixCopiaECola`` is the code to show.
3. :meth:`JourneyUseCases.start_journey_3` — a composite QR Code that pays an immediate
   charge now and authorizes the recurrence: ``POST /locrec``, ``POST /rec`` with the location
   and ``ativacao.dadosJornada.txid`` (a txid chosen here), ``PUT /cob/{txid}``,
   ``GET /rec/{idRec}?txid=``.
4. :meth:`JourneyUseCases.start_journey_4` — the same with a charge with a due date. The
   ``cobv`` is created *before* the recurrence (``PUT /cobv/{txid}``, ``POST /locrec``,
   ``POST /rec``, ``GET /rec/{idRec}?txid=``): a bank that fixes the journey when the
   recurrence is created can only tell journey 4 from journey 3 if the charge already exists.

When a later step of a journey fails after the recurrence was created, the error is
:class:`JourneyIncomplete`, which carries what was created (so the person can finish or cancel
it) with the bank's error as its ``__cause__``. The charges of journeys 3 and 4 are audited as
``charge.create``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from treasury_app.api.errors import ApiFailure
from treasury_app.api.qrcodes.automatico_models import LocRec, RecCompleta, SolicRecCompleta
from treasury_app.api.qrcodes.cashin_models import CobGerada, CobVGerada
from treasury_app.domain.identifiers import new_txid
from treasury_app.services.charges import DEFAULT_EXPIRATION
from treasury_app.services.recurrences.checks import recurrence_input
from treasury_app.services.recurrences.locrec import LocRecUseCases
from treasury_app.services.recurrences.rec import RecurrenceTerms, RecUseCases
from treasury_app.services.recurrences.solicrec import PayerAccount, SolicRecUseCases

__all__ = ["JourneyIncomplete", "JourneyUseCases", "QrJourney", "SolicitationJourney"]


class JourneyIncomplete(Exception):
    """A journey stopped after the recurrence (or its charge) was created.

    ``step`` names the step that failed; ``rec``, ``location`` and ``charge`` are what was
    created before it (``None`` when not); ``txid`` is the charge's txid of journeys 3 and 4
    (repeat the charge's creation with it). The bank's error is ``__cause__``.
    """

    def __init__(
        self,
        step: str,
        message: str,
        *,
        rec: RecCompleta | None = None,
        location: LocRec | None = None,
        charge: CobGerada | CobVGerada | None = None,
        txid: str | None = None,
    ) -> None:
        self.step = step
        self.rec = rec
        self.location = location
        self.charge = charge
        self.txid = txid
        super().__init__(message)


@dataclass(frozen=True)
class SolicitationJourney:
    """Journey 1 done: the recurrence and the confirmation request sent to the payer."""

    rec: RecCompleta
    solicrec: SolicRecCompleta


@dataclass(frozen=True)
class QrJourney:
    """Journeys 2 to 4 done: the recurrence, its location, the code to show the payer and
    (journeys 3 and 4) the charge paid with it."""

    rec: RecCompleta
    location: LocRec
    pix_copia_e_cola: str
    charge: CobGerada | CobVGerada | None = None

    @property
    def txid(self) -> str | None:
        """The txid of the charge of journeys 3 and 4."""
        return self.charge.txid if self.charge is not None else None


class JourneyUseCases(RecUseCases, SolicRecUseCases, LocRecUseCases):
    """Journeys 1 to 4 (the module's docstring): every input is checked before the first
    request; each recurrence is audited as ``rec.create`` with its journey's number."""

    async def start_journey_1(
        self, terms: RecurrenceTerms, *, payer: PayerAccount, expires_at: datetime
    ) -> SolicitationJourney:
        """Journey 1: ``POST /rec`` then ``POST /solicrec`` (the payer's PSP asks the payer
        outside Pix). Everything is checked before the first request."""
        body = self.build_rec(terms)
        self._check_solicitation(payer, expires_at)
        rec = await self._submit_rec(body, journey=1)
        try:
            solicrec = await self.request_confirmation(
                rec.id_rec, payer=payer, expires_at=expires_at
            )
        except ApiFailure as error:
            raise JourneyIncomplete(
                "solicrec",
                f"The recurrence {rec.id_rec} was created but the confirmation request was "
                f"not: {error}",
                rec=rec,
            ) from error
        return SolicitationJourney(rec=rec, solicrec=solicrec)

    async def start_journey_2(
        self, terms: RecurrenceTerms, *, location_id: int | None = None
    ) -> QrJourney:
        """Journey 2: ``POST /locrec`` (unless ``location_id`` is given), ``POST /rec`` with
        it, ``GET /rec/{idRec}``; returns ``dadosQR.pixCopiaECola`` (a recurrence-only QR)."""
        body = self.build_rec(terms, location_id=location_id)  # checked before anything is sent
        location = await self._journey_location(location_id)
        body.loc = location.id
        rec = await self._submit_rec(body, journey=2)
        code = await self._qr_of(rec, location, None, None)
        return QrJourney(rec=rec, location=location, pix_copia_e_cola=code)

    async def start_journey_3(
        self,
        terms: RecurrenceTerms,
        *,
        amount: Decimal | str,
        key: str,
        description: str | None = None,
        expires_in: int = DEFAULT_EXPIRATION,
    ) -> QrJourney:
        """Journey 3: ``POST /locrec``, ``POST /rec`` with the location and
        ``ativacao.dadosJornada.txid``, ``PUT /cob/{txid}`` (an immediate charge to the same
        debtor), ``GET /rec/{idRec}?txid=``; returns the composite QR's Pix Copia e Cola."""
        txid = new_txid()
        body = self.build_rec(terms, activation_txid=txid)
        with recurrence_input():
            _, cob = self._charges.build_cob(
                amount=amount,
                key=key,
                debtor=terms.debtor,
                description=description,
                expires_in=expires_in,
                txid=txid,
            )
        location = await self._journey_location(None)
        body.loc = location.id
        rec = await self._submit_rec(body, journey=3)
        try:
            charge: CobGerada | CobVGerada = await self._charges.submit_cob(txid, cob)
        except ApiFailure as error:
            raise JourneyIncomplete(
                "cob",
                f"The recurrence {rec.id_rec} was created but its charge was not: {error}",
                rec=rec,
                location=location,
                txid=txid,
            ) from error
        code = await self._qr_of(rec, location, charge, txid)
        return QrJourney(rec=rec, location=location, pix_copia_e_cola=code, charge=charge)

    async def start_journey_4(
        self,
        terms: RecurrenceTerms,
        *,
        amount: Decimal | str,
        key: str,
        due_date: date,
        days_valid_after_due: int | None = None,
        description: str | None = None,
    ) -> QrJourney:
        """Journey 4: a charge with a due date (``PUT /cobv/{txid}``), ``POST /locrec``,
        ``POST /rec`` with the location and ``ativacao.dadosJornada.txid``,
        ``GET /rec/{idRec}?txid=``; returns the composite QR's Pix Copia e Cola."""
        txid = new_txid()
        body = self.build_rec(terms, activation_txid=txid)
        with recurrence_input():
            _, cobv = self._charges.build_cobv(
                amount=amount,
                key=key,
                debtor=terms.debtor,
                due_date=due_date,
                days_valid_after_due=days_valid_after_due,
                description=description,
                txid=txid,
            )
        charge = await self._charges.submit_cobv(txid, cobv)
        try:
            location = await self._journey_location(None)
            body.loc = location.id
            rec = await self._submit_rec(body, journey=4)
        except ApiFailure as error:
            raise JourneyIncomplete(
                "rec",
                f"The charge {txid} was created but its recurrence was not: {error}",
                charge=charge,
                txid=txid,
            ) from error
        code = await self._qr_of(rec, location, charge, txid)
        return QrJourney(rec=rec, location=location, pix_copia_e_cola=code, charge=charge)

    async def _journey_location(self, location_id: int | None) -> LocRec:
        if location_id is not None:
            return await self._qr.get_locrec(location_id)
        return await self.create_locrec()

    async def _qr_of(
        self,
        rec: RecCompleta,
        location: LocRec,
        charge: CobGerada | CobVGerada | None,
        txid: str | None,
    ) -> str:
        try:
            full = await self._qr.get_rec(rec.id_rec, txid=txid)
        except ApiFailure as error:
            raise JourneyIncomplete(
                "dadosQR",
                f"The recurrence {rec.id_rec} was created but its QR Code could not be read: "
                f"{error}",
                rec=rec,
                location=location,
                charge=charge,
                txid=txid,
            ) from error
        if full.dados_qr is None:
            raise JourneyIncomplete(
                "dadosQR",
                f"The bank gave no QR Code (dadosQR) for the recurrence {rec.id_rec}.",
                rec=full,
                location=location,
                charge=charge,
                txid=txid,
            )
        return full.dados_qr.pix_copia_e_cola
