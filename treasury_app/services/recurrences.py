"""Pix Automático use cases: recurrences (``rec``) and how a payer authorizes them, the
confirmation requests (``solicrec``), the recurring charges (``cobr``) with their retries
(``retentativa``), and recurrence locations (``locrec``).

The four authorization journeys of the bank's contract, end to end:

1. :meth:`RecurrencesService.start_journey_1` — the payer is asked outside Pix:
   ``POST /rec`` then ``POST /solicrec`` to the payer's PSP.
2. :meth:`RecurrencesService.start_journey_2` — the payer scans a recurrence QR Code:
   ``POST /locrec``, ``POST /rec`` with that location, ``GET /rec/{idRec}``; the answer's
   ``dadosQR.pixCopiaECola`` is the code to show.
3. :meth:`RecurrencesService.start_journey_3` — a composite QR Code that pays an immediate
   charge now and authorizes the recurrence: ``POST /locrec``, ``POST /rec`` with the location
   and ``ativacao.dadosJornada.txid`` (a txid chosen here), ``PUT /cob/{txid}``,
   ``GET /rec/{idRec}?txid=``.
4. :meth:`RecurrencesService.start_journey_4` — the same with a charge with a due date. The
   ``cobv`` is created *before* the recurrence (``PUT /cobv/{txid}``, ``POST /locrec``,
   ``POST /rec``, ``GET /rec/{idRec}?txid=``): a bank that fixes the journey when the
   recurrence is created can only tell journey 4 from journey 3 if the charge already exists.

When a later step of a journey fails after the recurrence was created, the error is
:class:`JourneyIncomplete`, which carries what was created (so the person can finish or cancel
it) with the bank's error as its ``__cause__``.

Rules checked here before anything is sent (a :class:`RecurrenceInputError`, which is a
:class:`~treasury_app.services.charges.ChargeInputError`, names the field): documents, amounts,
dates, and for recurring charges the 2-business-day lead time
(:mod:`treasury_app.domain.business_days`), the recurrence being ``APROVADA``, the due date
inside its validity, its fixed or minimum amount, and *one active charge per cycle*: the bank's
list of charges of the recurrence is read first, and a charge whose status is not
``REJEITADA`` or ``CANCELADA`` in the same cycle refuses the new one. A cycle is the calendar
period of the recurrence's periodicity that contains the due date (ISO week, month, quarter,
half-year, year). Retries check the policy (``PERMITE_3R_7D``: at most 3 retries, on a future
date within 7 days after the due date, only after a failed attempt and with none pending); a
charge is not cancelled from the date of its first settlement attempt on.

Every write is audited: ``rec.create``, ``rec.cancel``, ``solicrec.create``,
``solicrec.cancel``, ``cobr.create``, ``cobr.cancel``, ``cobr.retry``, ``locrec.create``,
``locrec.link``, ``locrec.unlink`` (and ``charge.create`` for the charges of journeys 3 and 4),
with the bank's answer; what is refused locally is not (nothing was sent).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from typing import Any

from treasury_app.api.errors import ApiFailure
from treasury_app.api.qrcodes.automatico_models import (
    AtivacaoRec,
    CalendarioCobR,
    CalendarioRec,
    CalendarioRecRevisado,
    CalendarioSolicRec,
    CobRCompleta,
    CobRSolicitada,
    CobRStatus,
    DadosBancariosRecebedor,
    DadosJornada,
    DestinatarioSolicRec,
    LocRec,
    Periodicidade,
    PoliticaRetentativa,
    RecCompleta,
    RecebedorRec,
    RecRevisada,
    RecSolicitada,
    RecStatus,
    SolicRecCompleta,
    SolicRecSolicitada,
    TentativaStatus,
    TentativaTipo,
    TipoConta,
    ValorCobR,
    ValorRec,
    VinculoRec,
    VinculoRecRevisado,
)
from treasury_app.api.qrcodes.cashin_models import CobGerada, CobVGerada
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain.business_days import earliest_cobr_due_date, is_valid_cobr_lead_time
from treasury_app.domain.clock import Clock, brasilia_today
from treasury_app.domain.errors import DomainError
from treasury_app.domain.identifiers import (
    is_valid_idsolicrec,
    is_valid_txid,
    new_txid,
    parse_idrec,
)
from treasury_app.ledger import Ledger
from treasury_app.services.charges import (
    DEFAULT_EXPIRATION,
    ChargeInputError,
    ChargesService,
    Debtor,
    audited_call,
    check_address,
    check_amount,
    check_document,
    check_text,
    masked_debtor,
    time_range,
)

__all__ = [
    "MAX_RETRIES",
    "RETRY_WINDOW_DAYS",
    "DebtorAddress",
    "JourneyIncomplete",
    "PayerAccount",
    "QrJourney",
    "ReceiverAccount",
    "RecurrenceInputError",
    "RecurrenceTerms",
    "RecurrencesService",
    "SolicitationJourney",
    "charging_cycle",
]

MAX_RETRIES = 3
"""Retries (NTAG attempts) a charge may have under ``PERMITE_3R_7D``."""

RETRY_WINDOW_DAYS = 7
"""Days after the due date within which a retry may be scheduled."""

OPEN_COBR = frozenset({CobRStatus.CRIADA, CobRStatus.ATIVA})
CLOSED_FOR_CYCLE = frozenset({CobRStatus.REJEITADA, CobRStatus.CANCELADA})
PENDING_ATTEMPT = frozenset({TentativaStatus.SOLICITADA, TentativaStatus.AGENDADA})
FAILED_ATTEMPT = frozenset({TentativaStatus.REJEITADA, TentativaStatus.EXPIRADA})

_ISPB_RE = re.compile(r"[0-9A-Z]{8}")
_BRANCH_RE = re.compile(r"[0-9]{1,4}")


class RecurrenceInputError(ChargeInputError):
    """A recurrence input or a Pix Automático rule refused before the request was sent."""


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


def charging_cycle(periodicity: Periodicidade | str, day: date) -> str:
    """The cycle of a recurrence containing ``day``: the calendar period of its periodicity
    (``2026-W48``, ``2026-11``, ``2026-T4``, ``2026-S2``, ``2026``)."""
    value = str(getattr(periodicity, "value", periodicity))
    if value == Periodicidade.SEMANAL:
        year, week, _ = day.isocalendar()
        return f"{year}-W{week:02d}"
    if value == Periodicidade.MENSAL:
        return f"{day.year}-{day.month:02d}"
    if value == Periodicidade.TRIMESTRAL:
        return f"{day.year}-T{(day.month - 1) // 3 + 1}"
    if value == Periodicidade.SEMESTRAL:
        return f"{day.year}-S{(day.month - 1) // 6 + 1}"
    if value == Periodicidade.ANUAL:
        return str(day.year)
    raise RecurrenceInputError("calendario.periodicidade", f"Unknown periodicity {value!r}.")


def _enum(enum_type: type[Any], value: Any, field: str) -> Any:
    try:
        return enum_type(value)
    except ValueError:
        known = ", ".join(member.value for member in enum_type)
        raise RecurrenceInputError(field, f"One of {known}.") from None


def _wrap(error: ChargeInputError) -> RecurrenceInputError:
    return RecurrenceInputError(error.field, error.message)


def _id_rec(value: str) -> str:
    try:
        return parse_idrec(value).value
    except (DomainError, TypeError) as error:
        raise RecurrenceInputError("idRec", str(error)) from None


def _txid(value: str, field: str = "txid") -> str:
    if not isinstance(value, str) or not is_valid_txid(value):
        raise RecurrenceInputError(field, "A txid has 26 to 35 letters or digits.")
    return value


def _day(value: date, field: str) -> date:
    if isinstance(value, datetime) or not isinstance(value, date):
        raise RecurrenceInputError(field, "A calendar date is expected.")
    return value


@dataclass(frozen=True)
class RecurrenceTerms:
    """What a recurrence is: the contract, the debtor, the calendar, the amount, the policy.

    ``fixed_amount`` (``valorRec``) and ``minimum_amount`` (``valorMinimoRecebedor``) exclude
    each other; with neither, each charge's amount is free.
    """

    contract: str
    debtor: Debtor
    first_date: date
    periodicity: Periodicidade | str
    retry_policy: PoliticaRetentativa | str = PoliticaRetentativa.NAO_PERMITE
    fixed_amount: Decimal | str | None = None
    minimum_amount: Decimal | str | None = None
    end_date: date | None = None
    purpose: str | None = None
    convenio: str | None = None


@dataclass(frozen=True)
class PayerAccount:
    """The payer's account a confirmation request (journey 1) is sent to."""

    document: str
    account: str
    ispb: str
    branch: str | None = None


@dataclass(frozen=True)
class ReceiverAccount:
    """The account of ours a recurring charge credits."""

    account: str
    account_type: TipoConta | str = TipoConta.CORRENTE
    branch: str | None = None


@dataclass(frozen=True)
class DebtorAddress:
    """The debtor's address data a recurring charge may carry."""

    email: str | None = None
    street: str | None = None
    city: str | None = None
    state: str | None = None
    postal_code: str | None = None


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


class RecurrencesService:
    """Pix Automático use cases over one QR Codes API session and the profile's ledger.

    ``clock`` gives the current instant (timezone-aware; the bank's dates are Brasília's):
    the computer's against a real bank, the sandbox's against the sandbox. No default.
    """

    def __init__(
        self,
        qrcodes: QrCodesClient,
        ledger: Ledger,
        *,
        clock: Clock,
    ) -> None:
        self._qr = qrcodes
        self._ledger = ledger
        self._clock = clock
        self._charges = ChargesService(qrcodes, ledger, clock=self._clock)

    def now(self) -> datetime:
        """The current instant (UTC)."""
        return self._clock().astimezone(UTC)

    def today(self) -> date:
        """The bank's date now (Brasília)."""
        return brasilia_today(self._clock)

    # -- recurrences -------------------------------------------------------------------------

    def build_rec(
        self,
        terms: RecurrenceTerms,
        *,
        location_id: int | None = None,
        activation_txid: str | None = None,
    ) -> RecSolicitada:
        """The checked body of ``POST /rec``; raises :class:`RecurrenceInputError`."""
        if not isinstance(terms, RecurrenceTerms):
            raise RecurrenceInputError("rec", "Recurrence terms are expected.")
        try:
            contract = check_text(terms.contract, "vinculo.contrato", max_len=35, required=True)
            purpose = check_text(terms.purpose, "vinculo.objeto", max_len=35)
            if not isinstance(terms.debtor, Debtor):
                raise RecurrenceInputError("vinculo.devedor", "The debtor is required.")
            bare = check_document(terms.debtor.document, "vinculo.devedor.cpf_cnpj")
            name = check_text(terms.debtor.name, "vinculo.devedor.nome", max_len=140, required=True)
            fixed = minimum = None
            if terms.fixed_amount is not None and terms.minimum_amount is not None:
                raise RecurrenceInputError(
                    "valor", "Give a fixed amount or a minimum amount, not both."
                )
            if terms.fixed_amount is not None:
                fixed = check_amount(terms.fixed_amount, "valor.valorRec")
            if terms.minimum_amount is not None:
                minimum = check_amount(terms.minimum_amount, "valor.valorMinimoRecebedor")
            convenio = check_text(terms.convenio, "recebedor.convenio", max_len=60)
        except RecurrenceInputError:
            raise
        except ChargeInputError as error:
            raise _wrap(error) from None
        first = _day(terms.first_date, "calendario.dataInicial")
        if first < self.today():
            raise RecurrenceInputError(
                "calendario.dataInicial", f"The first date {first:%d/%m/%Y} has passed."
            )
        end = None
        if terms.end_date is not None:
            end = _day(terms.end_date, "calendario.dataFinal")
            if end < first:
                raise RecurrenceInputError(
                    "calendario.dataFinal", "The end date is before the first date."
                )
        periodicity = _enum(Periodicidade, terms.periodicity, "calendario.periodicidade")
        policy = _enum(PoliticaRetentativa, terms.retry_policy, "politicaRetentativa")
        if location_id is not None and (
            isinstance(location_id, bool) or not isinstance(location_id, int) or location_id < 1
        ):
            raise RecurrenceInputError("loc", "A location id is a positive whole number.")
        assert contract is not None
        devedor = Devedor(nome=name, **({"cpf": bare} if len(bare) == 11 else {"cnpj": bare}))
        return RecSolicitada(
            vinculo=VinculoRec(contrato=contract, devedor=devedor, objeto=purpose),
            calendario=CalendarioRec(data_inicial=first, data_final=end, periodicidade=periodicity),
            valor=(
                ValorRec(valor_rec=fixed, valor_minimo_recebedor=minimum)
                if fixed is not None or minimum is not None
                else None
            ),
            recebedor=RecebedorRec(convenio=convenio) if convenio else None,
            politica_retentativa=policy,
            loc=location_id,
            ativacao=(
                AtivacaoRec(dados_jornada=DadosJornada(txid=_txid(activation_txid)))
                if activation_txid is not None
                else None
            ),
        )

    async def create_rec(
        self,
        terms: RecurrenceTerms,
        *,
        location_id: int | None = None,
        activation_txid: str | None = None,
    ) -> RecCompleta:
        """``POST /rec``: a recurrence (``CRIADA``) the payer must then authorize. Audited as
        ``rec.create``."""
        return await self._submit_rec(
            self.build_rec(terms, location_id=location_id, activation_txid=activation_txid),
            journey=None,
        )

    async def _submit_rec(self, body: RecSolicitada, *, journey: int | None) -> RecCompleta:
        valor = body.valor
        return await audited_call(
            self._ledger,
            "rec.create",
            self._qr.post_rec(body),
            amount=(valor.valor_rec or valor.valor_minimo_recebedor) if valor else None,
            details={
                "journey": journey,
                "contrato": body.vinculo.contrato,
                "devedor": masked_debtor(body.vinculo.devedor),
                "periodicidade": body.calendario.periodicidade,
                "dataInicial": body.calendario.data_inicial,
                "valor": "valorRec"
                if valor and valor.valor_rec
                else ("valorMinimoRecebedor" if valor else None),
                "politicaRetentativa": body.politica_retentativa,
                "loc": body.loc,
                "txid": body.ativacao.dados_jornada.txid
                if body.ativacao and body.ativacao.dados_jornada
                else None,
            },
            outcome=lambda rec: str(getattr(rec.status, "value", rec.status)),
            reference_of=lambda rec: rec.id_rec,
        )

    async def get_rec(self, id_rec: str, *, txid: str | None = None) -> RecCompleta:
        """``GET /rec/{idRec}`` (with ``txid``: the composite QR of journeys 3 and 4)."""
        return await self._qr.get_rec(
            _id_rec(id_rec), txid=_txid(txid) if txid is not None else None
        )

    async def cancel_rec(self, id_rec: str) -> RecCompleta:
        """``PATCH /rec/{idRec}`` with status ``CANCELADA`` (from ``CRIADA`` or ``APROVADA``);
        the bank also ends its pending requests and unpaid charges. Audited as
        ``rec.cancel``."""
        id_rec = _id_rec(id_rec)
        return await audited_call(
            self._ledger,
            "rec.cancel",
            self._qr.cancel_rec(id_rec),
            reference=id_rec,
            outcome=lambda rec: str(getattr(rec.status, "value", rec.status)),
        )

    async def revise_rec(
        self,
        id_rec: str,
        *,
        debtor_name: str | None = None,
        first_date: date | None = None,
    ) -> RecCompleta:
        """``PATCH /rec/{idRec}`` with the revisable terms given (``vinculo.devedor.nome``,
        ``calendario.dataInicial``; ``loc`` is :meth:`link_locrec`). Audited as
        ``rec.revise``."""
        id_rec = _id_rec(id_rec)
        body = RecRevisada()
        if debtor_name is not None:
            try:
                name = check_text(debtor_name, "vinculo.devedor.nome", max_len=140, required=True)
            except ChargeInputError as error:
                raise _wrap(error) from None
            assert name is not None
            body.vinculo = VinculoRecRevisado(devedor=Devedor(nome=name))
        if first_date is not None:
            first = _day(first_date, "calendario.dataInicial")
            if first < self.today():
                raise RecurrenceInputError(
                    "calendario.dataInicial", f"The first date {first:%d/%m/%Y} has passed."
                )
            body.calendario = CalendarioRecRevisado(data_inicial=first)
        if body.vinculo is None and body.calendario is None:
            raise RecurrenceInputError("rec", "Nothing to revise.")
        return await audited_call(
            self._ledger,
            "rec.revise",
            self._qr.patch_rec(id_rec, body),
            reference=id_rec,
            details={
                "fields": [
                    name
                    for name, given in (
                        ("vinculo.devedor.nome", body.vinculo),
                        ("calendario.dataInicial", body.calendario),
                    )
                    if given is not None
                ]
            },
            outcome=lambda rec: str(getattr(rec.status, "value", rec.status)),
        )

    def iter_recs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        status: RecStatus | str | None = None,
        document: str | None = None,
        convenio: str | None = None,
        location_present: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[RecCompleta]:
        """The recurrences created in ``[start, end]`` (dates are whole days in Brasília),
        optionally of one status, one debtor's CPF/CNPJ or one ``convenio``, over every page.
        Inputs are checked now, before the first page is asked."""
        try:
            inicio, fim = time_range(start, end)
            cpf, cnpj = self._document(document)
        except ChargeInputError as error:
            raise _wrap(error) from None
        return self._qr.iter_rec(
            inicio=inicio,
            fim=fim,
            cpf=cpf,
            cnpj=cnpj,
            status=_enum(RecStatus, status, "status") if status is not None else None,
            convenio=convenio,
            location_presente=location_present,
            itens_por_pagina=_page_size(page_size),
        )

    @staticmethod
    def _document(document: str | None) -> tuple[str | None, str | None]:
        if document is None:
            return None, None
        bare = check_document(document, "cpf_cnpj")
        return (bare, None) if len(bare) == 11 else (None, bare)

    # -- journeys ----------------------------------------------------------------------------

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
        try:
            _, cob = self._charges.build_cob(
                amount=amount,
                key=key,
                debtor=terms.debtor,
                description=description,
                expires_in=expires_in,
                txid=txid,
            )
        except ChargeInputError as error:
            raise _wrap(error) from None
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
        try:
            _, cobv = self._charges.build_cobv(
                amount=amount,
                key=key,
                debtor=terms.debtor,
                due_date=due_date,
                days_valid_after_due=days_valid_after_due,
                description=description,
                txid=txid,
            )
        except ChargeInputError as error:
            raise _wrap(error) from None
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

    # -- confirmation requests (solicrec) ----------------------------------------------------

    def _check_solicitation(self, payer: PayerAccount, expires_at: datetime) -> None:
        self._destinatario(payer)
        if not isinstance(expires_at, datetime) or expires_at.tzinfo is None:
            raise RecurrenceInputError(
                "calendario.dataExpiracaoSolicitacao", "An instant with its time zone."
            )
        if expires_at <= self.now():
            raise RecurrenceInputError(
                "calendario.dataExpiracaoSolicitacao", "The request would expire in the past."
            )

    @staticmethod
    def _destinatario(payer: PayerAccount) -> DestinatarioSolicRec:
        if not isinstance(payer, PayerAccount):
            raise RecurrenceInputError("destinatario", "The payer's account is required.")
        try:
            bare = check_document(payer.document, "destinatario.cpf_cnpj")
            conta = check_text(payer.account, "destinatario.conta", max_len=20, required=True)
            agencia = check_text(payer.branch, "destinatario.agencia", max_len=4)
        except ChargeInputError as error:
            raise _wrap(error) from None
        if agencia is not None and not _BRANCH_RE.fullmatch(agencia):
            raise RecurrenceInputError("destinatario.agencia", "A branch has up to 4 digits.")
        if not isinstance(payer.ispb, str) or not _ISPB_RE.fullmatch(payer.ispb.strip()):
            raise RecurrenceInputError(
                "destinatario.ispbParticipante", "An ISPB is 8 digits or capital letters."
            )
        assert conta is not None
        kind = {"cpf": bare} if len(bare) == 11 else {"cnpj": bare}
        return DestinatarioSolicRec(
            conta=conta, agencia=agencia, ispb_participante=payer.ispb.strip(), **kind
        )

    async def request_confirmation(
        self, id_rec: str, *, payer: PayerAccount, expires_at: datetime
    ) -> SolicRecCompleta:
        """``POST /solicrec``: ask the payer's PSP to confirm a ``CRIADA`` recurrence (one
        active request per recurrence). Audited as ``solicrec.create``."""
        id_rec = _id_rec(id_rec)
        self._check_solicitation(payer, expires_at)
        body = SolicRecSolicitada(
            id_rec=id_rec,
            calendario=CalendarioSolicRec(data_expiracao_solicitacao=expires_at),
            destinatario=self._destinatario(payer),
        )
        return await audited_call(
            self._ledger,
            "solicrec.create",
            self._qr.post_solicrec(body),
            reference=id_rec,
            details={
                "idRec": id_rec,
                "ispbParticipante": body.destinatario.ispb_participante,
                "dataExpiracaoSolicitacao": expires_at,
            },
            outcome=lambda sol: str(getattr(sol.status, "value", sol.status)),
            reference_of=lambda sol: sol.id_solic_rec,
        )

    async def get_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """``GET /solicrec/{idSolicRec}``."""
        return await self._qr.get_solicrec(_id_solic_rec(id_solic_rec))

    async def cancel_solicrec(self, id_solic_rec: str) -> SolicRecCompleta:
        """``PATCH /solicrec/{idSolicRec}`` with status ``CANCELADA`` (from ``CRIADA``,
        ``ENVIADA`` or ``RECEBIDA``). Audited as ``solicrec.cancel``."""
        id_solic_rec = _id_solic_rec(id_solic_rec)
        return await audited_call(
            self._ledger,
            "solicrec.cancel",
            self._qr.cancel_solicrec(id_solic_rec),
            reference=id_solic_rec,
            outcome=lambda sol: str(getattr(sol.status, "value", sol.status)),
        )

    # -- recurring charges (cobr) ------------------------------------------------------------

    def earliest_due_date(self) -> date:
        """The earliest due date a recurring charge created today may have."""
        return earliest_cobr_due_date(self.today())

    async def create_cobr(
        self,
        id_rec: str,
        *,
        due_date: date,
        amount: Decimal | str,
        receiver: ReceiverAccount,
        info: str | None = None,
        adjust_to_business_day: bool = True,
        debtor_address: DebtorAddress | None = None,
        txid: str | None = None,
    ) -> CobRCompleta:
        """``PUT /cobr/{txid}`` with a local txid (or ``txid``), after the local checks of the
        module's docstring: the lead time first (no request), then ``GET /rec/{idRec}`` and
        the bank's charges of the recurrence (one active per cycle). Audited as
        ``cobr.create``."""
        id_rec = _id_rec(id_rec)
        chosen = _txid(txid) if txid is not None else new_txid()
        due = _day(due_date, "calendario.dataDeVencimento")
        today = self.today()
        if not is_valid_cobr_lead_time(today, due):
            raise RecurrenceInputError(
                "calendario.dataDeVencimento",
                "A recurring charge is created at least 2 business days before its due date: "
                f"the earliest due date today is {earliest_cobr_due_date(today):%d/%m/%Y}.",
            )
        try:
            value = check_amount(amount, "valor.original")
            info_text = check_text(info, "infoAdicional", max_len=140)
        except ChargeInputError as error:
            raise _wrap(error) from None
        if not isinstance(adjust_to_business_day, bool):
            raise RecurrenceInputError("ajusteDiaUtil", "true or false.")
        body_recebedor = self._recebedor(receiver)
        devedor = self._address(debtor_address) if debtor_address is not None else None

        rec = await self._qr.get_rec(id_rec)
        self._check_against_rec(rec, due, value)
        await self._check_cycle(rec, due)

        body = CobRSolicitada(
            id_rec=id_rec,
            info_adicional=info_text,
            calendario=CalendarioCobR(data_de_vencimento=due),
            valor=ValorCobR(original=value),
            ajuste_dia_util=adjust_to_business_day,
            devedor=devedor,
            recebedor=body_recebedor,
        )
        return await audited_call(
            self._ledger,
            "cobr.create",
            self._qr.put_cobr(chosen, body),
            reference=chosen,
            amount=value,
            details={
                "idRec": id_rec,
                "dataDeVencimento": due,
                "ciclo": charging_cycle(rec.calendario.periodicidade, due),
            },
            outcome=lambda cobr: str(getattr(cobr.status, "value", cobr.status)),
        )

    @staticmethod
    def _recebedor(receiver: ReceiverAccount) -> DadosBancariosRecebedor:
        if not isinstance(receiver, ReceiverAccount):
            raise RecurrenceInputError("recebedor", "The account credited is required.")
        try:
            conta = check_text(receiver.account, "recebedor.conta", max_len=20, required=True)
            agencia = check_text(receiver.branch, "recebedor.agencia", max_len=4)
        except ChargeInputError as error:
            raise _wrap(error) from None
        if agencia is not None and not _BRANCH_RE.fullmatch(agencia):
            raise RecurrenceInputError("recebedor.agencia", "A branch has up to 4 digits.")
        tipo = _enum(TipoConta, receiver.account_type, "recebedor.tipoConta")
        assert conta is not None
        return DadosBancariosRecebedor(agencia=agencia, conta=conta, tipo_conta=tipo)

    @staticmethod
    def _address(address: DebtorAddress) -> Devedor | None:
        if not isinstance(address, DebtorAddress):
            raise RecurrenceInputError("devedor", "A debtor address is expected.")
        try:
            fields = check_address(
                email=address.email,
                street=address.street,
                city=address.city,
                state=address.state,
                postal_code=address.postal_code,
            )
        except ChargeInputError as error:
            raise _wrap(error) from None
        devedor = Devedor(**fields)
        return devedor if devedor.to_wire() else None

    @staticmethod
    def _check_against_rec(rec: RecCompleta, due: date, value: Decimal) -> None:
        if rec.status != RecStatus.APROVADA:
            raise RecurrenceInputError(
                "idRec",
                f"The recurrence is {getattr(rec.status, 'value', rec.status)}: only an "
                "approved (APROVADA) recurrence can be charged.",
            )
        calendario = rec.calendario
        if due < calendario.data_inicial or (
            calendario.data_final is not None and due > calendario.data_final
        ):
            until = f"{calendario.data_final:%d/%m/%Y}" if calendario.data_final else "no end"
            raise RecurrenceInputError(
                "calendario.dataDeVencimento",
                f"The due date is outside the recurrence's validity "
                f"({calendario.data_inicial:%d/%m/%Y} to {until}).",
            )
        valor = rec.valor
        if valor is not None and valor.valor_rec is not None and value != valor.valor_rec:
            raise RecurrenceInputError(
                "valor.original",
                f"The amount must be the recurrence's fixed amount ({valor.valor_rec}).",
            )
        if (
            valor is not None
            and valor.valor_minimo_recebedor is not None
            and value < valor.valor_minimo_recebedor
        ):
            raise RecurrenceInputError(
                "valor.original",
                f"The amount is below the recurrence's minimum ({valor.valor_minimo_recebedor}).",
            )

    async def _check_cycle(self, rec: RecCompleta, due: date) -> None:
        """Refuse a second active charge of the recurrence in the due date's cycle, reading
        every charge of the recurrence the bank lists (created since the recurrence)."""
        cycle = charging_cycle(rec.calendario.periodicidade, due)
        created = min((a.data for a in rec.atualizacao), default=None)
        if created is None:
            created = datetime.combine(parse_idrec(rec.id_rec).date, datetime.min.time(), UTC)
        inicio = created - timedelta(days=1)
        fim = max(self.now(), created) + timedelta(days=1)
        async for other in self._qr.iter_cobr(inicio=inicio, fim=fim, id_rec=rec.id_rec):
            if other.id_rec != rec.id_rec or other.status in CLOSED_FOR_CYCLE:
                continue
            if charging_cycle(
                rec.calendario.periodicidade, other.calendario.data_de_vencimento
            ) == (cycle):
                raise RecurrenceInputError(
                    "calendario.dataDeVencimento",
                    f"The recurrence already has a charge in this cycle ({cycle}): "
                    f"{other.txid}, {getattr(other.status, 'value', other.status)}, due "
                    f"{other.calendario.data_de_vencimento:%d/%m/%Y}. Cancel it first.",
                )

    async def get_cobr(self, txid: str) -> CobRCompleta:
        """``GET /cobr/{txid}``: a recurring charge with its settlement attempts."""
        return await self._qr.get_cobr(_txid(txid))

    def iter_cobrs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        id_rec: str | None = None,
        status: CobRStatus | str | None = None,
        document: str | None = None,
        convenio: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[CobRCompleta]:
        """The recurring charges created in ``[start, end]``, optionally of one recurrence,
        one status or one debtor's CPF/CNPJ, over every page. Inputs are checked now."""
        try:
            inicio, fim = time_range(start, end)
            cpf, cnpj = self._document(document)
        except ChargeInputError as error:
            raise _wrap(error) from None
        return self._qr.iter_cobr(
            inicio=inicio,
            fim=fim,
            id_rec=_id_rec(id_rec) if id_rec is not None else None,
            cpf=cpf,
            cnpj=cnpj,
            status=_enum(CobRStatus, status, "status") if status is not None else None,
            convenio=convenio,
            itens_por_pagina=_page_size(page_size),
        )

    async def cancel_cobr(self, txid: str) -> CobRCompleta:
        """``PATCH /cobr/{txid}`` with status ``CANCELADA``, after checking (``GET``) that the
        charge is open and the date of its first attempt has not come. Audited as
        ``cobr.cancel``."""
        cobr = await self._qr.get_cobr(_txid(txid))
        if cobr.status not in OPEN_COBR:
            raise RecurrenceInputError(
                "status",
                f"The charge is {getattr(cobr.status, 'value', cobr.status)} and can no longer "
                "be cancelled.",
            )
        if cobr.tentativas:
            first = cobr.tentativas[0].data_liquidacao
            if self.today() >= first:
                raise RecurrenceInputError(
                    "status",
                    "A recurring charge cannot be cancelled from the date of its first "
                    f"settlement attempt ({first:%d/%m/%Y}) on.",
                )
        return await audited_call(
            self._ledger,
            "cobr.cancel",
            self._qr.cancel_cobr(txid),
            reference=txid,
            amount=cobr.valor.original,
            details={"idRec": cobr.id_rec},
            outcome=lambda answer: str(getattr(answer.status, "value", answer.status)),
        )

    async def retry_cobr(self, txid: str, on: date) -> CobRCompleta:
        """``POST /cobr/{txid}/retentativa/{data}``: schedule a retry (NTAG) after a failed
        attempt, checked first (``GET``) against the policy ``PERMITE_3R_7D``. Audited as
        ``cobr.retry``."""
        day = _day(on, "data")
        cobr = await self._qr.get_cobr(_txid(txid))
        self.check_retry(cobr, day)
        return await audited_call(
            self._ledger,
            "cobr.retry",
            self._qr.post_cobr_retentativa(txid, day),
            reference=txid,
            amount=cobr.valor.original,
            details={"idRec": cobr.id_rec, "data": day},
            outcome=lambda answer: str(getattr(answer.status, "value", answer.status)),
        )

    def check_retry(self, cobr: CobRCompleta, day: date) -> None:
        """Raise :class:`RecurrenceInputError` saying why a retry of ``cobr`` on ``day``
        would be refused (the policy of the module's docstring); return if it is allowed."""
        if cobr.politica_retentativa != PoliticaRetentativa.PERMITE_3R_7D:
            raise RecurrenceInputError(
                "politicaRetentativa",
                "The recurrence's retry policy does not allow retries (NAO_PERMITE).",
            )
        if cobr.status not in OPEN_COBR:
            raise RecurrenceInputError(
                "status",
                f"The charge is {getattr(cobr.status, 'value', cobr.status)}: no retry.",
            )
        attempts = cobr.tentativas
        if any(t.status in PENDING_ATTEMPT for t in attempts):
            raise RecurrenceInputError(
                "tentativas", "An attempt is still scheduled: wait for its result."
            )
        if not attempts or attempts[-1].status not in FAILED_ATTEMPT:
            raise RecurrenceInputError("tentativas", "A retry only follows a failed attempt.")
        if sum(1 for t in attempts if t.tipo == TentativaTipo.NTAG) >= MAX_RETRIES:
            raise RecurrenceInputError(
                "tentativas", f"The charge already had the {MAX_RETRIES} retries allowed."
            )
        if day <= self.today():
            raise RecurrenceInputError("data", "A retry is scheduled on a future date.")
        limit = cobr.calendario.data_de_vencimento + timedelta(days=RETRY_WINDOW_DAYS)
        if day > limit:
            raise RecurrenceInputError(
                "data",
                f"A retry must fall within {RETRY_WINDOW_DAYS} days after the due date "
                f"(until {limit:%d/%m/%Y}).",
            )
        if any(t.data_liquidacao == day for t in attempts):
            raise RecurrenceInputError("data", "The charge already has an attempt on that date.")

    def latest_retry_date(self, cobr: CobRCompleta) -> date:
        """The last date a retry of ``cobr`` may be scheduled on."""
        return cobr.calendario.data_de_vencimento + timedelta(days=RETRY_WINDOW_DAYS)

    # -- recurrence locations (locrec) -------------------------------------------------------

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
        return await self._qr.get_locrec(_location_id(location_id))

    async def link_locrec(self, id_rec: str, location_id: int) -> RecCompleta:
        """``PATCH /rec/{idRec}`` with ``loc``: give a ``CRIADA`` recurrence this location
        (its QR Code). Audited as ``locrec.link``."""
        id_rec = _id_rec(id_rec)
        loc = _location_id(location_id)
        return await audited_call(
            self._ledger,
            "locrec.link",
            self._qr.patch_rec(id_rec, RecRevisada(loc=loc)),
            reference=str(loc),
            details={"idRec": id_rec},
            outcome=lambda rec: str(getattr(rec.status, "value", rec.status)),
        )

    async def unlink_locrec(self, location_id: int) -> LocRec:
        """``DELETE /locrec/{id}/idRec``: the recurrence loses this location (its status does
        not change). Audited as ``locrec.unlink``."""
        loc = _location_id(location_id)
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
        try:
            inicio, fim = time_range(start, end)
        except ChargeInputError as error:
            raise _wrap(error) from None
        return self._qr.iter_locrec(
            inicio=inicio,
            fim=fim,
            id_rec_presente=linked,
            itens_por_pagina=_page_size(page_size),
        )


def _id_solic_rec(value: str) -> str:
    if not isinstance(value, str) or not is_valid_idsolicrec(value):
        raise RecurrenceInputError("idSolicRec", "An idSolicRec has 29 characters, SC first.")
    return value


def _location_id(value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RecurrenceInputError("loc", "A location id is a positive whole number.")
    return value


def _page_size(value: int | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise RecurrenceInputError("paginacao.itensPorPagina", "From 1 to 1000.")
    return value
