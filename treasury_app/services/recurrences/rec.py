"""Recurrences (``/rec``): the terms of one, and creating, reading, revising, cancelling and
listing them. How a payer is then asked to authorize one is :mod:`.journeys`."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from treasury_app.api.qrcodes.automatico_models import (
    AtivacaoRec,
    CalendarioRec,
    CalendarioRecRevisado,
    DadosJornada,
    Periodicidade,
    PoliticaRetentativa,
    RecCompleta,
    RecebedorRec,
    RecRevisada,
    RecSolicitada,
    RecStatus,
    ValorRec,
    VinculoRec,
    VinculoRecRevisado,
)
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.services.charges import (
    Debtor,
    audited_call,
    check_amount,
    check_document,
    check_text,
    masked_debtor,
    time_range,
)
from treasury_app.services.our_refs import name_ours_after
from treasury_app.services.recurrences.base import RecurrenceUseCases, status_of
from treasury_app.services.recurrences.checks import (
    RecurrenceInputError,
    check_day,
    check_enum,
    check_idrec,
    check_location_id,
    check_page_size,
    check_txid,
    document_filter,
    recurrence_input,
)
from treasury_app.services.same_parameters import same_parameters_as

__all__ = ["RecUseCases", "RecurrenceTerms"]


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


class RecUseCases(RecurrenceUseCases):
    """``POST``, ``GET``, ``PATCH`` and list of ``/rec``. Writes are audited as
    ``rec.create``, ``rec.revise`` and ``rec.cancel``."""

    def build_rec(
        self,
        terms: RecurrenceTerms,
        *,
        location_id: int | None = None,
        activation_txid: str | None = None,
    ) -> RecSolicitada:
        """The checked body of ``POST /rec``; raises :class:`RecurrenceInputError`."""
        if not isinstance(terms, RecurrenceTerms):
            raise TypeError("RecurrenceTerms are expected")  # a bug, not a rule
        with recurrence_input():
            contract = check_text(terms.contract, "vinculo.contrato", max_len=35, required=True)
            purpose = check_text(terms.purpose, "vinculo.objeto", max_len=35)
            if not isinstance(terms.debtor, Debtor):
                raise RecurrenceInputError("rec.debtor_required", field="vinculo.devedor")
            bare = check_document(terms.debtor.document, "vinculo.devedor.cpf_cnpj")
            name = check_text(terms.debtor.name, "vinculo.devedor.nome", max_len=140, required=True)
            fixed = minimum = None
            if terms.fixed_amount is not None and terms.minimum_amount is not None:
                raise RecurrenceInputError("rec.fixed_and_minimum", field="valor")
            if terms.fixed_amount is not None:
                fixed = check_amount(terms.fixed_amount, "valor.valorRec")
            if terms.minimum_amount is not None:
                minimum = check_amount(terms.minimum_amount, "valor.valorMinimoRecebedor")
            convenio = check_text(terms.convenio, "recebedor.convenio", max_len=60)
        first = self._first_date(terms.first_date)
        end = None
        if terms.end_date is not None:
            end = check_day(terms.end_date, "calendario.dataFinal")
            if end < first:
                raise RecurrenceInputError("rec.end_before_start", field="calendario.dataFinal")
        periodicity = check_enum(Periodicidade, terms.periodicity, "calendario.periodicidade")
        policy = check_enum(PoliticaRetentativa, terms.retry_policy, "politicaRetentativa")
        if location_id is not None:
            check_location_id(location_id)
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
                AtivacaoRec(dados_jornada=DadosJornada(txid=check_txid(activation_txid)))
                if activation_txid is not None
                else None
            ),
        )

    def _first_date(self, value: date) -> date:
        first = check_day(value, "calendario.dataInicial")
        if first < self.today():
            raise RecurrenceInputError(
                "rec.first_date_passed", field="calendario.dataInicial", first=first
            )
        return first

    @same_parameters_as(build_rec)
    async def create_rec(self, *args: Any, **kwargs: Any) -> RecCompleta:
        """``POST /rec``: a recurrence (``CRIADA``) the payer must then authorize. Audited as
        ``rec.create``."""
        return await self._submit_rec(self.build_rec(*args, **kwargs), journey=None)

    async def _submit_rec(self, body: RecSolicitada, *, journey: int | None) -> RecCompleta:
        """``POST /rec``, audited; on a team ledger the idRec the bank chose is then named as
        ours (the receiver applies the recurrence's notifications)."""
        valor = body.valor
        rec = await audited_call(
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
            outcome=status_of,
            reference_of=lambda rec: rec.id_rec,
        )
        await name_ours_after(self._ledger, "idrec", [rec.id_rec])
        return rec

    async def get_rec(self, id_rec: str, *, txid: str | None = None) -> RecCompleta:
        """``GET /rec/{idRec}`` (with ``txid``: the composite QR of journeys 3 and 4)."""
        return await self._qr.get_rec(
            check_idrec(id_rec), txid=check_txid(txid) if txid is not None else None
        )

    async def cancel_rec(self, id_rec: str) -> RecCompleta:
        """``PATCH /rec/{idRec}`` with status ``CANCELADA`` (from ``CRIADA`` or ``APROVADA``);
        the bank also ends its pending requests and unpaid charges. Audited as
        ``rec.cancel``."""
        id_rec = check_idrec(id_rec)
        return await audited_call(
            self._ledger,
            "rec.cancel",
            self._qr.cancel_rec(id_rec),
            reference=id_rec,
            outcome=status_of,
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
        id_rec = check_idrec(id_rec)
        body = RecRevisada()
        if debtor_name is not None:
            with recurrence_input():
                name = check_text(debtor_name, "vinculo.devedor.nome", max_len=140, required=True)
            assert name is not None
            body.vinculo = VinculoRecRevisado(devedor=Devedor(nome=name))
        if first_date is not None:
            body.calendario = CalendarioRecRevisado(data_inicial=self._first_date(first_date))
        if body.vinculo is None and body.calendario is None:
            raise RecurrenceInputError("rec.nothing_to_revise", field="rec")
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
            outcome=status_of,
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
        with recurrence_input():
            inicio, fim = time_range(start, end)
            cpf, cnpj = document_filter(document)
        return self._qr.iter_rec(
            inicio=inicio,
            fim=fim,
            cpf=cpf,
            cnpj=cnpj,
            status=check_enum(RecStatus, status, "status") if status is not None else None,
            convenio=convenio,
            location_presente=location_present,
            itens_por_pagina=check_page_size(page_size),
        )
