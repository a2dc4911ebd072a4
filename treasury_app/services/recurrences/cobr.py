"""Recurring charges (``/cobr``): the charge of one cycle of an approved recurrence, its
retries (``retentativa``) and its cancellation, each checked against Pix Automático's rules
before anything is sent.

A recurring charge is created at least 2 business days before its due date
(:mod:`treasury_app.domain.business_days`), for an ``APROVADA`` recurrence, with a due date
inside its validity and its fixed or minimum amount, and *one active charge per cycle*: the
bank's list of charges of the recurrence is read first, and a charge whose status is not
``REJEITADA`` or ``CANCELADA`` in the same cycle refuses the new one. A cycle is the calendar
period of the recurrence's periodicity that contains the due date (ISO week, month, quarter,
half-year, year). Retries check the policy (``PERMITE_3R_7D``: at most 3 retries, on a future
date within 7 days after the due date, only after a failed attempt and with none pending); a
charge is not cancelled from the date of its first settlement attempt on.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

from treasury_app.api.qrcodes.automatico_models import (
    CalendarioCobR,
    CobRCompleta,
    CobRSolicitada,
    CobRStatus,
    DadosBancariosRecebedor,
    Periodicidade,
    PoliticaRetentativa,
    RecCompleta,
    RecStatus,
    TentativaStatus,
    TentativaTipo,
    TipoConta,
    ValorCobR,
)
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain.business_days import earliest_cobr_due_date, is_valid_cobr_lead_time
from treasury_app.domain.errors import Reason
from treasury_app.domain.identifiers import new_txid, parse_idrec
from treasury_app.services.charges import (
    audited_call,
    check_address,
    check_amount,
    check_text,
    time_range,
)
from treasury_app.services.our_refs import name_ours
from treasury_app.services.recurrences.base import RecurrenceUseCases, status_of
from treasury_app.services.recurrences.checks import (
    RecurrenceInputError,
    check_branch,
    check_day,
    check_enum,
    check_idrec,
    check_page_size,
    check_txid,
    document_filter,
    recurrence_input,
)

__all__ = [
    "MAX_RETRIES",
    "RETRY_WINDOW_DAYS",
    "CobRUseCases",
    "DebtorAddress",
    "ReceiverAccount",
    "charging_cycle",
    "check_new_cobr",
    "check_receiver",
]

MAX_RETRIES = 3
"""Retries (NTAG attempts) a charge may have under ``PERMITE_3R_7D``."""

RETRY_WINDOW_DAYS = 7
"""Days after the due date within which a retry may be scheduled."""

OPEN_COBR = frozenset({CobRStatus.CRIADA, CobRStatus.ATIVA})
CLOSED_FOR_CYCLE = frozenset({CobRStatus.REJEITADA, CobRStatus.CANCELADA})
PENDING_ATTEMPT = frozenset({TentativaStatus.SOLICITADA, TentativaStatus.AGENDADA})
FAILED_ATTEMPT = frozenset({TentativaStatus.REJEITADA, TentativaStatus.EXPIRADA})


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
    raise RecurrenceInputError(
        "recurrence.unknown_periodicity", field="calendario.periodicidade", value=value
    )


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


def check_receiver(receiver: ReceiverAccount) -> DadosBancariosRecebedor:
    """The account credited, as the bank wants it; raises :class:`RecurrenceInputError`."""
    if not isinstance(receiver, ReceiverAccount):
        raise RecurrenceInputError("cobr.receiver_required", field="recebedor")
    with recurrence_input():
        conta = check_text(receiver.account, "recebedor.conta", max_len=20, required=True)
    agencia = check_branch(receiver.branch, "recebedor.agencia")
    tipo = check_enum(TipoConta, receiver.account_type, "recebedor.tipoConta")
    assert conta is not None
    return DadosBancariosRecebedor(agencia=agencia, conta=conta, tipo_conta=tipo)


def _address(address: DebtorAddress) -> Devedor | None:
    if not isinstance(address, DebtorAddress):
        raise RecurrenceInputError("cobr.address_expected", field="devedor")
    with recurrence_input():
        fields = check_address(
            email=address.email,
            street=address.street,
            city=address.city,
            state=address.state,
            postal_code=address.postal_code,
        )
    devedor = Devedor(**fields)
    return devedor if devedor.to_wire() else None


def check_lead_time(due: date, today: date) -> None:
    """Refuse a due date less than 2 business days after ``today`` (a Brasília date)."""
    if not is_valid_cobr_lead_time(today, due):
        raise RecurrenceInputError(
            "cobr.lead_time",
            field="calendario.dataDeVencimento",
            due=due,
            earliest=earliest_cobr_due_date(today),
        )


def _check_against_rec(rec: RecCompleta, due: date, value: Decimal | None) -> None:
    if rec.status != RecStatus.APROVADA:
        status = str(getattr(rec.status, "value", rec.status))
        raise RecurrenceInputError("cobr.rec_not_approved", field="idRec", status=status)
    calendario = rec.calendario
    if due < calendario.data_inicial or (
        calendario.data_final is not None and due > calendario.data_final
    ):
        field = "calendario.dataDeVencimento"
        if calendario.data_final is None:
            raise RecurrenceInputError(
                "cobr.due_before_validity", field=field, start=calendario.data_inicial
            )
        raise RecurrenceInputError(
            "cobr.due_outside_validity",
            field=field,
            start=calendario.data_inicial,
            end=calendario.data_final,
        )
    if value is None:
        raise RecurrenceInputError("cobr.amount_missing", field="valor.original")
    valor = rec.valor
    if valor is not None and valor.valor_rec is not None and value != valor.valor_rec:
        raise RecurrenceInputError(
            "cobr.amount_not_fixed", field="valor.original", fixed=valor.valor_rec
        )
    if (
        valor is not None
        and valor.valor_minimo_recebedor is not None
        and value < valor.valor_minimo_recebedor
    ):
        raise RecurrenceInputError(
            "cobr.amount_below_minimum",
            field="valor.original",
            minimum=valor.valor_minimo_recebedor,
        )


def _check_one_per_cycle(rec: RecCompleta, due: date, others: Iterable[CobRCompleta]) -> None:
    cycle = charging_cycle(rec.calendario.periodicidade, due)
    for other in others:
        if other.id_rec != rec.id_rec or other.status in CLOSED_FOR_CYCLE:
            continue
        due_other = other.calendario.data_de_vencimento
        if charging_cycle(rec.calendario.periodicidade, due_other) == cycle:
            raise RecurrenceInputError(
                "cobr.cycle_taken",
                field="calendario.dataDeVencimento",
                cycle=cycle,
                txid=other.txid,
                status=str(getattr(other.status, "value", other.status)),
                due=due_other,
            )


def check_new_cobr(
    rec: RecCompleta,
    existing: Iterable[CobRCompleta],
    *,
    due: date,
    amount: Decimal | None,
    today: date,
) -> None:
    """Raise :class:`RecurrenceInputError` (the rule's code, naming the field) when a charge
    of ``rec`` due on ``due`` breaks a rule of the module's docstring: the lead time, the
    recurrence not approved, its validity, its amount, or another active charge of
    ``existing`` (the bank's charges of the recurrence) in the same cycle. No request."""
    check_lead_time(due, today)
    _check_against_rec(rec, due, amount)
    _check_one_per_cycle(rec, due, existing)


class CobRUseCases(RecurrenceUseCases):
    """``PUT``, ``GET``, cancel, retry and list of ``/cobr``. Writes are audited as
    ``cobr.create``, ``cobr.cancel`` and ``cobr.retry``."""

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
        id_rec = check_idrec(id_rec)
        chosen = check_txid(txid) if txid is not None else new_txid()
        due = check_day(due_date, "calendario.dataDeVencimento")
        check_lead_time(due, self.today())
        with recurrence_input():
            value = check_amount(amount, "valor.original")
            info_text = check_text(info, "infoAdicional", max_len=140)
        if not isinstance(adjust_to_business_day, bool):
            raise RecurrenceInputError("recurrence.yes_or_no", field="ajusteDiaUtil")
        body_recebedor = check_receiver(receiver)
        devedor = _address(debtor_address) if debtor_address is not None else None

        rec = await self._qr.get_rec(id_rec)
        _check_against_rec(rec, due, value)
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
        await name_ours(self._ledger, "txid", [chosen])
        await name_ours(self._ledger, "idrec", [id_rec])
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
            outcome=status_of,
        )

    async def _check_cycle(self, rec: RecCompleta, due: date) -> None:
        """Refuse a second active charge of the recurrence in the due date's cycle, reading
        every charge of the recurrence the bank lists (created since the recurrence)."""
        created = min((a.data for a in rec.atualizacao), default=None)
        if created is None:
            created = datetime.combine(parse_idrec(rec.id_rec).date, datetime.min.time(), UTC)
        inicio = created - timedelta(days=1)
        fim = max(self.now(), created) + timedelta(days=1)
        async for other in self._qr.iter_cobr(inicio=inicio, fim=fim, id_rec=rec.id_rec):
            _check_one_per_cycle(rec, due, (other,))

    async def get_cobr(self, txid: str) -> CobRCompleta:
        """``GET /cobr/{txid}``: a recurring charge with its settlement attempts."""
        return await self._qr.get_cobr(check_txid(txid))

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
        with recurrence_input():
            inicio, fim = time_range(start, end)
            cpf, cnpj = document_filter(document)
        return self._qr.iter_cobr(
            inicio=inicio,
            fim=fim,
            id_rec=check_idrec(id_rec) if id_rec is not None else None,
            cpf=cpf,
            cnpj=cnpj,
            status=check_enum(CobRStatus, status, "status") if status is not None else None,
            convenio=convenio,
            itens_por_pagina=check_page_size(page_size),
        )

    async def cancel_cobr(self, txid: str) -> CobRCompleta:
        """``PATCH /cobr/{txid}`` with status ``CANCELADA``, after checking (``GET``) that the
        charge is open and the date of its first attempt has not come. Audited as
        ``cobr.cancel``."""
        cobr = await self._qr.get_cobr(check_txid(txid))
        blocker = self.cancel_blocker(cobr)
        if blocker is not None:
            raise RecurrenceInputError.of(blocker)
        return await audited_call(
            self._ledger,
            "cobr.cancel",
            self._qr.cancel_cobr(txid),
            reference=txid,
            amount=cobr.valor.original,
            details={"idRec": cobr.id_rec},
            outcome=status_of,
        )

    async def retry_cobr(self, txid: str, on: date) -> CobRCompleta:
        """``POST /cobr/{txid}/retentativa/{data}``: schedule a retry (NTAG) after a failed
        attempt, checked first (``GET``) against the policy ``PERMITE_3R_7D``. Audited as
        ``cobr.retry``."""
        day = check_day(on, "data")
        cobr = await self._qr.get_cobr(check_txid(txid))
        self.check_retry(cobr, day)
        return await audited_call(
            self._ledger,
            "cobr.retry",
            self._qr.post_cobr_retentativa(txid, day),
            reference=txid,
            amount=cobr.valor.original,
            details={"idRec": cobr.id_rec, "data": day},
            outcome=status_of,
        )

    def cancel_blocker(self, cobr: CobRCompleta) -> Reason | None:
        """Why ``cobr`` cannot be cancelled now, or ``None`` when it can: it is open and the
        date of its first attempt has not come."""
        if cobr.status not in OPEN_COBR:
            status = str(getattr(cobr.status, "value", cobr.status))
            return Reason("cobr.cannot_cancel", {"status": status}, "status")
        if cobr.tentativas:
            first = cobr.tentativas[0].data_liquidacao
            if self.today() >= first:
                return Reason("cobr.cancel_after_first_attempt", {"first": first}, "status")
        return None

    @staticmethod
    def retry_blocker(cobr: CobRCompleta) -> Reason | None:
        """Why no retry of ``cobr`` can be scheduled at all, or ``None``: its policy allows
        retries (``PERMITE_3R_7D``) and it is open. (The attempts and the day are
        :meth:`check_retry`'s.)"""
        if cobr.politica_retentativa != PoliticaRetentativa.PERMITE_3R_7D:
            return Reason("cobr.retries_not_allowed", {}, "politicaRetentativa")
        if cobr.status not in OPEN_COBR:
            status = str(getattr(cobr.status, "value", cobr.status))
            return Reason("cobr.closed_no_retry", {"status": status}, "status")
        return None

    def check_retry(self, cobr: CobRCompleta, day: date) -> None:
        """Raise :class:`RecurrenceInputError` saying why a retry of ``cobr`` on ``day``
        would be refused (the policy of the module's docstring); return if it is allowed."""
        blocker = self.retry_blocker(cobr)
        if blocker is not None:
            raise RecurrenceInputError.of(blocker)
        attempts = cobr.tentativas
        if any(t.status in PENDING_ATTEMPT for t in attempts):
            raise RecurrenceInputError("cobr.attempt_pending", field="tentativas")
        if not attempts or attempts[-1].status not in FAILED_ATTEMPT:
            raise RecurrenceInputError("cobr.retry_without_failure", field="tentativas")
        if sum(1 for t in attempts if t.tipo == TentativaTipo.NTAG) >= MAX_RETRIES:
            raise RecurrenceInputError("cobr.retries_used", field="tentativas", max=MAX_RETRIES)
        if day <= self.today():
            raise RecurrenceInputError("cobr.retry_not_future", field="data")
        limit = self.latest_retry_date(cobr)
        if day > limit:
            raise RecurrenceInputError(
                "cobr.retry_too_late", field="data", days=RETRY_WINDOW_DAYS, until=limit
            )
        if any(t.data_liquidacao == day for t in attempts):
            raise RecurrenceInputError("cobr.retry_same_day", field="data")

    def latest_retry_date(self, cobr: CobRCompleta) -> date:
        """The last date a retry of ``cobr`` may be scheduled on."""
        return cobr.calendario.data_de_vencimento + timedelta(days=RETRY_WINDOW_DAYS)
