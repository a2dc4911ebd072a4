"""The Pix Automático use cases (``RecurrencesService``) against a real sandbox bank over
mutual TLS: the four authorization journeys end to end (with the payer's side played by the
sandbox's control surface), confirmation requests, recurring charges with the rules checked
locally before sending (2 business days of lead time, one active charge per cycle, the
recurrence's state and amounts), cancellations, retries on the sandbox clock, recurrence
locations and lists. Inputs refused locally never reach the bank; the bank's refusals are
typed errors; every write is in the audit.

The module runs its own sandbox. Tests take their dates from the sandbox clock; the last test
moves it days ahead (settlement and retries).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import pytest

from tests.services.qr_fixtures import (
    CHAVE,
    EMAIL_KEY,
    QrBank,
    audit_of,
    audit_text,
    qr_bank,
    secrets_of,
)
from treasury_app.api.errors import BadRequest, NotFound, ServerError
from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRStatus,
    Periodicidade,
    PoliticaRetentativa,
    RecStatus,
    SolicRecStatus,
    TentativaStatus,
    TentativaTipo,
    TipoJornada,
)
from treasury_app.api.qrcodes.cashin_models import CobGerada, CobVGerada
from treasury_app.domain import brcode
from treasury_app.domain.business_days import earliest_cobr_due_date, next_business_day
from treasury_app.domain.identifiers import is_valid_idrec, is_valid_idsolicrec, new_txid
from treasury_app.ledger import Ledger
from treasury_app.services.charges import ChargeInputError, Debtor
from treasury_app.services.recurrences import (
    DebtorAddress,
    JourneyIncomplete,
    PayerAccount,
    ReceiverAccount,
    RecurrenceInputError,
    RecurrencesService,
    RecurrenceTerms,
    charging_cycle,
)

CPF = "40364478829"
CNPJ = "60391947000100"
PAYER = PayerAccount(document="403.644.788-29", account="550689", ispb="91193552", branch="2569")
ACCOUNT = ReceiverAccount(account="1234567", branch="0001")
UNKNOWN_REC = "RN9999901020261118abcdefghijk"


@pytest.fixture(scope="module")
async def bank(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> AsyncIterator[QrBank]:
    """One bank per ledger backend: the tests move its clock and use up its cycles."""
    async with qr_bank(tmp_path_factory.mktemp(f"recurrences-{ledger_backend}")) as opened:
        yield opened


@pytest.fixture
def service(bank: QrBank, ledger: Ledger) -> RecurrencesService:
    return RecurrencesService(bank.client, ledger, clock=bank.now)


def terms(today: dt.date, **changes: Any) -> RecurrenceTerms:
    values: dict[str, Any] = {
        "contract": "CT-2026-001",
        "debtor": Debtor(document="403.644.788-29", name="Fulano de Tal"),
        "first_date": today,
        "periodicity": Periodicidade.MENSAL,
        "fixed_amount": Decimal("50.00"),
        "end_date": today + dt.timedelta(days=400),
        "purpose": "Assinatura",
        **changes,
    }
    return RecurrenceTerms(**values)


async def approved(service: RecurrencesService, bank: QrBank, **changes: Any) -> str:
    rec = await service.create_rec(terms(bank.today(), **changes))
    assert bank.approve(rec.id_rec)["status"] == "APROVADA"
    return rec.id_rec


async def collect(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]


# ---------------------------------------------------------------------------------------------
# Journey 1: a confirmation request outside Pix


async def test_journey_1_rec_then_solicrec_then_the_payer_approves(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    before = bank.sent()
    done = await service.start_journey_1(
        terms(bank.today()), payer=PAYER, expires_at=bank.now() + dt.timedelta(days=2)
    )
    assert bank.sent() - before == 2
    rec, sol = done.rec, done.solicrec
    assert is_valid_idrec(rec.id_rec) and rec.status is RecStatus.CRIADA
    assert rec.vinculo.devedor.cpf == CPF and rec.valor is not None
    assert rec.valor.valor_rec == Decimal("50.00")
    assert is_valid_idsolicrec(sol.id_solic_rec) and sol.id_rec == rec.id_rec
    assert sol.status is SolicRecStatus.CRIADA
    assert sol.destinatario.ispb_participante == "91193552" and sol.destinatario.cpf == CPF

    [created] = await audit_of(ledger, "rec.create")
    assert (created.reference, created.outcome, created.amount) == (
        rec.id_rec,
        "CRIADA",
        Decimal("50.00"),
    )
    assert created.details["journey"] == 1 and created.details["devedor"] == "***.644.788-**"
    assert created.details["periodicidade"] == "MENSAL"
    [asked] = await audit_of(ledger, "solicrec.create")
    assert (asked.reference, asked.outcome) == (sol.id_solic_rec, "CRIADA")

    bank.approve(rec.id_rec)
    now_approved = await service.get_rec(rec.id_rec)
    assert now_approved.status is RecStatus.APROVADA
    assert now_approved.ativacao is not None
    assert now_approved.ativacao.tipo_jornada is TipoJornada.JORNADA_1
    assert (await service.get_solicrec(sol.id_solic_rec)).status is SolicRecStatus.ACEITA


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"fixed_amount": Decimal("50.00"), "minimum_amount": Decimal("10.00")}, "valor"),
        ({"fixed_amount": Decimal("0")}, "valor.valorRec"),
        ({"fixed_amount": None, "minimum_amount": "1,001"}, "valor.valorMinimoRecebedor"),
        ({"first_date": "yesterday"}, "calendario.dataInicial"),
        ({"end_date": dt.date(2026, 1, 1)}, "calendario.dataFinal"),
        ({"contract": " "}, "vinculo.contrato"),
        ({"contract": "C" * 36}, "vinculo.contrato"),
        ({"purpose": "x" * 36}, "vinculo.objeto"),
        ({"debtor": Debtor("403.644.788-28", "Fulano")}, "vinculo.devedor.cpf_cnpj"),
        ({"debtor": Debtor(CPF, "")}, "vinculo.devedor.nome"),
        ({"periodicity": "DIARIA"}, "calendario.periodicidade"),
        ({"retry_policy": "PERMITE_SEMPRE"}, "politicaRetentativa"),
        ({"convenio": "c" * 61}, "recebedor.convenio"),
    ],
)
async def test_recurrence_terms_refused_before_sending(
    service: RecurrencesService,
    bank: QrBank,
    ledger: Ledger,
    changes: dict[str, Any],
    field: str,
) -> None:
    today = bank.today()
    if changes.get("first_date") == "yesterday":
        changes = {**changes, "first_date": today - dt.timedelta(days=1)}
    before = bank.sent()
    with pytest.raises(RecurrenceInputError) as refused:
        await service.start_journey_1(
            terms(today, **changes), payer=PAYER, expires_at=bank.now() + dt.timedelta(days=1)
        )
    assert isinstance(refused.value, ChargeInputError) and isinstance(refused.value, ValueError)
    assert refused.value.field == field
    with pytest.raises(RecurrenceInputError):
        await service.start_journey_2(terms(today, **changes))
    assert bank.sent() == before
    assert await audit_of(ledger, "rec.create") == []


@pytest.mark.parametrize(
    ("payer", "expires_in", "field"),
    [
        (PAYER, dt.timedelta(seconds=-1), "calendario.dataExpiracaoSolicitacao"),
        (PayerAccount(CPF, "1", ispb="123"), dt.timedelta(days=1), "destinatario.ispbParticipante"),
        (PayerAccount("111", "1", ispb="91193552"), dt.timedelta(days=1), "destinatario.cpf_cnpj"),
        (PayerAccount(CPF, "", ispb="91193552"), dt.timedelta(days=1), "destinatario.conta"),
        (
            PayerAccount(CPF, "1", ispb="91193552", branch="12345"),
            dt.timedelta(days=1),
            "destinatario.agencia",
        ),
    ],
)
async def test_journey_1_payer_refused_before_sending(
    service: RecurrencesService,
    bank: QrBank,
    payer: PayerAccount,
    expires_in: dt.timedelta,
    field: str,
) -> None:
    before = bank.sent()
    with pytest.raises(RecurrenceInputError) as refused:
        await service.start_journey_1(
            terms(bank.today()), payer=payer, expires_at=bank.now() + expires_in
        )
    assert refused.value.field == field
    assert bank.sent() == before


async def test_journey_1_stopped_by_the_bank_then_finished_and_cancelled(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    expires = bank.now() + dt.timedelta(days=1)
    with (
        bank.control.faults({"path": "/solicrec", "method": "POST", "rate_500": 1, "times": 1}),
        pytest.raises(JourneyIncomplete) as stopped,
    ):
        await service.start_journey_1(terms(bank.today()), payer=PAYER, expires_at=expires)
    assert stopped.value.step == "solicrec"
    assert isinstance(stopped.value.__cause__, ServerError)
    rec = stopped.value.rec
    assert rec is not None and (await service.get_rec(rec.id_rec)).status is RecStatus.CRIADA
    [failed] = await audit_of(ledger, "solicrec.create")
    assert (failed.reference, failed.outcome) == (rec.id_rec, "unknown")
    assert failed.details["http_status"] == 500

    sol = await service.request_confirmation(rec.id_rec, payer=PAYER, expires_at=expires)
    assert sol.status is SolicRecStatus.CRIADA
    with pytest.raises(BadRequest) as second:  # one active request per recurrence
        await service.request_confirmation(rec.id_rec, payer=PAYER, expires_at=expires)
    assert second.value.properties == {"solicrec.idRec"}
    cancelled = await service.cancel_solicrec(sol.id_solic_rec)
    assert cancelled.status is SolicRecStatus.CANCELADA
    with pytest.raises(BadRequest):
        await service.cancel_solicrec(sol.id_solic_rec)
    assert [r.outcome for r in await audit_of(ledger, "solicrec.create")] == [
        "unknown",
        "CRIADA",
        "rejected",
    ]
    assert [(r.reference, r.outcome) for r in await audit_of(ledger, "solicrec.cancel")] == [
        (sol.id_solic_rec, "CANCELADA"),
        (sol.id_solic_rec, "rejected"),
    ]
    before = bank.sent()
    with pytest.raises(RecurrenceInputError):
        await service.cancel_solicrec("SC-not-an-id")
    with pytest.raises(RecurrenceInputError):
        await service.request_confirmation("R-short", payer=PAYER, expires_at=expires)
    assert bank.sent() == before
    with pytest.raises(NotFound):
        await service.get_solicrec("SC9999901020261118abcdefghijk")


# ---------------------------------------------------------------------------------------------
# Journeys 2 to 4: QR Codes


async def test_journey_2_recurrence_qr(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    done = await service.start_journey_2(terms(bank.today(), fixed_amount=None))
    assert done.rec.loc is not None and done.rec.loc.id == done.location.id
    assert done.charge is None and done.txid is None
    code = brcode.parse(done.pix_copia_e_cola)
    assert code.is_recurrence_only and code.recurrence_url == done.location.location
    assert (await service.get_locrec(done.location.id)).id_rec == done.rec.id_rec
    [loc_row] = await audit_of(ledger, "locrec.create")
    assert loc_row.reference == str(done.location.id)
    [rec_row] = await audit_of(ledger, "rec.create")
    assert rec_row.details["journey"] == 2 and rec_row.details["loc"] == done.location.id
    assert rec_row.amount is None and rec_row.details["valor"] is None

    bank.approve(done.rec.id_rec)
    approved_rec = await service.get_rec(done.rec.id_rec)
    assert approved_rec.ativacao is not None
    assert approved_rec.ativacao.tipo_jornada is TipoJornada.JORNADA_2

    with pytest.raises(NotFound):  # an unknown location: the bank says so before any write
        await service.start_journey_2(terms(bank.today()), location_id=987654321)
    assert len(await audit_of(ledger, "rec.create")) == 1


async def test_journey_3_composite_qr_with_an_immediate_charge(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    done = await service.start_journey_3(
        terms(bank.today(), minimum_amount="20,00", fixed_amount=None),
        amount="35,00",
        key=CHAVE,
        description="Primeira mensalidade",
    )
    assert isinstance(done.charge, CobGerada) and done.txid == done.charge.txid
    assert done.charge.valor.original == Decimal("35.00")
    assert done.charge.devedor is not None and done.charge.devedor.cpf == CPF
    assert done.rec.ativacao is not None and done.rec.ativacao.dados_jornada is not None
    assert done.rec.ativacao.dados_jornada.txid == done.txid
    code = brcode.parse(done.pix_copia_e_cola)
    assert code.is_composite and not code.is_recurrence_only
    assert code.url == done.charge.location and code.recurrence_url == done.location.location
    [charge_row] = await audit_of(ledger, "charge.create", done.txid)
    assert charge_row.outcome == "ATIVA" and charge_row.amount == Decimal("35.00")
    [rec_row] = await audit_of(ledger, "rec.create", done.rec.id_rec)
    assert rec_row.details["txid"] == done.txid and rec_row.amount == Decimal("20.00")

    assert done.txid is not None
    bank.pay(done.txid)  # paying the charge authorizes the recurrence (on the next tick)
    bank.control.advance(0.5)
    rec = await service.get_rec(done.rec.id_rec)
    assert rec.status is RecStatus.APROVADA
    assert rec.ativacao is not None and rec.ativacao.tipo_jornada is TipoJornada.JORNADA_3

    before = bank.sent()
    with pytest.raises(RecurrenceInputError) as refused:
        await service.start_journey_3(terms(bank.today()), amount=Decimal("0"), key=CHAVE)
    assert refused.value.field == "valor.original"
    with pytest.raises(RecurrenceInputError) as bad_key:
        await service.start_journey_3(terms(bank.today()), amount="1,00", key="x")
    assert bad_key.value.field == "chave"
    assert bank.sent() == before


async def test_journey_3_stopped_when_the_bank_refuses_the_charge(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    with pytest.raises(JourneyIncomplete) as stopped:
        await service.start_journey_3(
            terms(bank.today()), amount="50,00", key="naoexiste@example.com"
        )
    assert stopped.value.step == "cob" and isinstance(stopped.value.__cause__, BadRequest)
    rec = stopped.value.rec
    assert rec is not None and stopped.value.location is not None
    assert stopped.value.txid is not None and stopped.value.charge is None
    [charge_row] = await audit_of(ledger, "charge.create", stopped.value.txid)
    assert charge_row.outcome == "rejected"
    assert (await service.cancel_rec(rec.id_rec)).status is RecStatus.CANCELADA


async def test_journey_4_composite_qr_with_a_due_date_charge(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    today = bank.today()
    due = today + dt.timedelta(days=20)
    done = await service.start_journey_4(
        terms(today), amount=Decimal("50.00"), key=EMAIL_KEY, due_date=due
    )
    assert isinstance(done.charge, CobVGerada)
    assert done.charge.calendario.data_de_vencimento == due
    rec = await service.get_rec(done.rec.id_rec)
    assert rec.ativacao is not None and rec.ativacao.tipo_jornada is TipoJornada.JORNADA_4
    code = brcode.parse(done.pix_copia_e_cola)
    assert code.is_composite
    assert code.url == done.charge.location and code.recurrence_url == done.location.location
    assert [r.details["kind"] for r in await audit_of(ledger, "charge.create", done.txid)] == [
        "cobv"
    ]
    assert (await audit_of(ledger, "rec.create"))[0].details["journey"] == 4

    assert done.txid is not None
    bank.pay(done.txid)
    bank.control.advance(0.5)
    assert (await service.get_rec(done.rec.id_rec)).status is RecStatus.APROVADA

    before = bank.sent()
    with pytest.raises(RecurrenceInputError) as past:
        await service.start_journey_4(
            terms(today), amount="50,00", key=CHAVE, due_date=today - dt.timedelta(days=1)
        )
    assert past.value.field == "calendario.dataDeVencimento"
    assert bank.sent() == before


# ---------------------------------------------------------------------------------------------
# Recurring charges


async def test_create_cobr_checks_lead_time_and_one_per_cycle_before_sending(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    id_rec = await approved(service, bank)
    today = bank.today()
    due = service.earliest_due_date()
    assert due == earliest_cobr_due_date(today)
    address = DebtorAddress(city="São Paulo", state="sp", postal_code="01310-100")

    before = bank.sent()
    first = await service.create_cobr(
        id_rec,
        due_date=due,
        amount="50,00",
        receiver=ACCOUNT,
        info="Mensalidade",
        debtor_address=address,
    )
    assert bank.sent() - before == 3  # GET /rec, GET /cobr (the cycle), PUT /cobr
    assert first.status is CobRStatus.CRIADA and first.id_rec == id_rec
    assert first.devedor is not None and (first.devedor.uf, first.devedor.cep) == ("SP", "01310100")
    [attempt] = first.tentativas
    assert attempt.tipo is TentativaTipo.AGND and attempt.data_liquidacao >= due
    [row] = await audit_of(ledger, "cobr.create", first.txid)
    assert (row.outcome, row.amount) == ("CRIADA", Decimal("50.00"))
    assert row.details["idRec"] == id_rec and row.details["ciclo"] == f"{due:%Y-%m}"

    # less than 2 business days: refused with no request at all
    before = bank.sent()
    with pytest.raises(RecurrenceInputError) as early:
        await service.create_cobr(
            id_rec, due_date=due - dt.timedelta(days=1), amount="50,00", receiver=ACCOUNT
        )
    assert early.value.field == "calendario.dataDeVencimento"
    assert early.value.code == "cobr.lead_time" and early.value.params["earliest"] == due
    assert bank.sent() == before

    # a second charge in the same month: refused after reading the bank's list, never sent
    same_cycle = due + dt.timedelta(days=1)
    assert same_cycle.month == due.month
    with pytest.raises(RecurrenceInputError) as twice:
        await service.create_cobr(id_rec, due_date=same_cycle, amount="50,00", receiver=ACCOUNT)
    assert bank.sent() - before == 2  # GET /rec and GET /cobr only
    assert twice.value.field == "calendario.dataDeVencimento"
    assert (twice.value.code, twice.value.params["txid"]) == ("cobr.cycle_taken", first.txid)
    listed = await collect(service.iter_cobrs(start=today, end=today, id_rec=id_rec))
    assert [c.txid for c in listed] == [first.txid]

    # the next cycle is free; and once the first is cancelled, its cycle is free again
    next_month = dt.date(due.year + due.month // 12, due.month % 12 + 1, 5)
    second = await service.create_cobr(
        id_rec, due_date=next_month, amount="50,00", receiver=ACCOUNT
    )
    assert second.status is CobRStatus.CRIADA
    await service.cancel_cobr(first.txid)
    again = await service.create_cobr(id_rec, due_date=same_cycle, amount="50,00", receiver=ACCOUNT)
    assert again.calendario.data_de_vencimento == same_cycle

    # the bank refusing a reused txid is a typed error, in the audit
    later = dt.date(next_month.year + next_month.month // 12, next_month.month % 12 + 1, 5)
    with pytest.raises(BadRequest) as reused:
        await service.create_cobr(
            id_rec, due_date=later, amount="50,00", receiver=ACCOUNT, txid=second.txid
        )
    assert "cobr.txid" in reused.value.properties
    assert [r.outcome for r in await audit_of(ledger, "cobr.create", second.txid)] == [
        "CRIADA",
        "rejected",
    ]


async def test_create_cobr_checks_the_recurrence_before_sending(
    service: RecurrencesService, bank: QrBank
) -> None:
    today = bank.today()
    due = earliest_cobr_due_date(today)
    fixed = await approved(service, bank)
    minimum = await approved(service, bank, fixed_amount=None, minimum_amount="30,00")
    pending = (await service.create_rec(terms(today))).id_rec
    short = await approved(service, bank, end_date=due - dt.timedelta(days=1))

    cases: list[tuple[str, dict[str, Any], str, int]] = [
        (fixed, {"amount": "49,99"}, "valor.original", 1),
        (minimum, {"amount": "29,99"}, "valor.original", 1),
        (pending, {}, "idRec", 1),
        (short, {}, "calendario.dataDeVencimento", 1),
        ("R-not-an-idrec", {}, "idRec", 0),
        (fixed, {"amount": Decimal("0")}, "valor.original", 0),
        (fixed, {"receiver": ReceiverAccount("1", account_type="SALARIO")}, "recebedor", 0),
        (fixed, {"receiver": ReceiverAccount("", branch="1")}, "recebedor.conta", 0),
        (fixed, {"debtor_address": DebtorAddress(state="SPA")}, "devedor.uf", 0),
        (fixed, {"info": "i" * 141}, "infoAdicional", 0),
        (fixed, {"txid": "short"}, "txid", 0),
    ]
    for id_rec, changes, field, requests in cases:
        kwargs: dict[str, Any] = {
            "due_date": due,
            "amount": "50,00",
            "receiver": ACCOUNT,
            **changes,
        }
        before = bank.sent()
        with pytest.raises(RecurrenceInputError) as refused:
            await service.create_cobr(id_rec, **kwargs)
        assert refused.value.field.startswith(field), (changes, refused.value)
        assert bank.sent() - before == requests, changes

    assert await service.create_cobr(minimum, due_date=due, amount="30,01", receiver=ACCOUNT)
    with pytest.raises(NotFound):  # an unknown recurrence: the bank's typed error
        await service.create_cobr(UNKNOWN_REC, due_date=due, amount="50,00", receiver=ACCOUNT)


async def test_cancel_cobr_and_cancel_rec(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    id_rec = await approved(service, bank)
    due = service.earliest_due_date()
    cobr = await service.create_cobr(id_rec, due_date=due, amount="50,00", receiver=ACCOUNT)
    cancelled = await service.cancel_cobr(cobr.txid)
    assert cancelled.status is CobRStatus.CANCELADA
    [row] = await audit_of(ledger, "cobr.cancel", cobr.txid)
    assert (row.outcome, row.amount, row.details) == (
        "CANCELADA",
        Decimal("50.00"),
        {"idRec": id_rec},
    )
    before = bank.sent()
    with pytest.raises(RecurrenceInputError, match="CANCELADA"):
        await service.cancel_cobr(cobr.txid)
    assert bank.sent() - before == 1  # the GET that showed it; no PATCH
    with pytest.raises(NotFound):
        await service.cancel_cobr(new_txid())

    open_cobr = await service.create_cobr(id_rec, due_date=due, amount="50,00", receiver=ACCOUNT)
    rec = await service.cancel_rec(id_rec)
    assert rec.status is RecStatus.CANCELADA
    assert (await service.get_cobr(open_cobr.txid)).status is CobRStatus.CANCELADA
    with pytest.raises(BadRequest):
        await service.cancel_rec(id_rec)
    assert [(r.reference, r.outcome) for r in await audit_of(ledger, "rec.cancel")] == [
        (id_rec, "CANCELADA"),
        (id_rec, "rejected"),
    ]
    before = bank.sent()
    with pytest.raises(RecurrenceInputError):
        await service.cancel_rec("RX")
    with pytest.raises(RecurrenceInputError):
        await service.cancel_cobr("x")
    assert bank.sent() == before
    audited = await audit_text(ledger)
    assert all(secret not in audited for secret in secrets_of(bank))


# ---------------------------------------------------------------------------------------------
# Recurrence locations and lists


async def test_locrec_create_link_unlink(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    loc = await service.create_locrec()
    assert loc.id_rec is None and "/qr/v2/rec/" in loc.location
    rec = await service.create_rec(terms(bank.today()))
    assert (await service.get_rec(rec.id_rec)).dados_qr is None
    linked = await service.link_locrec(rec.id_rec, loc.id)
    assert linked.loc is not None and linked.loc.id == loc.id
    with_qr = await service.get_rec(rec.id_rec)
    assert with_qr.dados_qr is not None
    assert brcode.parse(with_qr.dados_qr.pix_copia_e_cola).recurrence_url == loc.location

    unlinked = await service.unlink_locrec(loc.id)
    assert unlinked.id_rec is None
    after = await service.get_rec(rec.id_rec)
    assert after.status is RecStatus.CRIADA and after.dados_qr is None
    assert [r.reference for r in await audit_of(ledger, "locrec.create")] == [str(loc.id)]
    [link] = await audit_of(ledger, "locrec.link", str(loc.id))
    assert (link.outcome, link.details) == ("CRIADA", {"idRec": rec.id_rec})
    assert [r.outcome for r in await audit_of(ledger, "locrec.unlink", str(loc.id))] == ["accepted"]

    with pytest.raises(NotFound):
        await service.get_locrec(987654321)
    with pytest.raises(NotFound):
        await service.unlink_locrec(987654321)
    assert (await audit_of(ledger, "locrec.unlink", "987654321"))[0].outcome == "rejected"
    before = bank.sent()
    with pytest.raises(RecurrenceInputError):
        await service.link_locrec(rec.id_rec, 0)
    with pytest.raises(RecurrenceInputError):
        await service.unlink_locrec(-1)
    assert bank.sent() == before


async def test_list_recurrences_charges_and_locations(
    service: RecurrencesService, bank: QrBank
) -> None:
    today = bank.today()
    convenio = f"SVC-{new_txid(26)[:10]}"
    company = Debtor(document="60.391.947/0001-00", name="Cliente Empresa Ltda")
    made = [
        (await service.create_rec(terms(today, convenio=convenio, debtor=company))).id_rec
        for _ in range(3)
    ]
    before = bank.sent()
    every = await collect(service.iter_recs(start=today, end=today, convenio=convenio, page_size=2))
    assert [r.id_rec for r in every] == made and bank.sent() - before == 2
    by_company = service.iter_recs(
        start=today, end=today, document="60.391.947/0001-00", status="CRIADA", convenio=convenio
    )
    assert [r.id_rec async for r in by_company] == made
    bank.approve(made[0])
    approved_only = service.iter_recs(
        start=today, end=today, status=RecStatus.APROVADA, convenio=convenio
    )
    assert [r.id_rec async for r in approved_only] == made[:1]

    due = earliest_cobr_due_date(today)
    cobr = await service.create_cobr(made[0], due_date=due, amount="50,00", receiver=ACCOUNT)
    charges = service.iter_cobrs(start=today, end=today, id_rec=made[0], document=CNPJ)
    assert [c.txid async for c in charges] == [cobr.txid]
    assert await collect(service.iter_cobrs(start=today, end=today, id_rec=made[1])) == []

    loc = await service.create_locrec()
    free = service.iter_locrecs(start=today, end=today, linked=False)
    assert loc.id in {item.id async for item in free}

    before = bank.sent()
    yesterday = today - dt.timedelta(days=1)
    for call, field in (
        (lambda: service.iter_recs(start=today, end=yesterday), "fim"),
        (lambda: service.iter_recs(start=today, end=today, status="ATIVA"), "status"),
        (lambda: service.iter_recs(start=today, end=today, document="1"), "cpf_cnpj"),
        (lambda: service.iter_cobrs(start=today, end=today, status="PAGA"), "status"),
        (lambda: service.iter_cobrs(start=today, end=today, id_rec="R1"), "idRec"),
        (lambda: service.iter_locrecs(start=today, end=today, page_size=1001), "paginacao"),
    ):
        with pytest.raises(RecurrenceInputError) as refused:
            call()
        assert refused.value.field.startswith(field)
    assert bank.sent() == before


# ---------------------------------------------------------------------------------------------
# Pure rules


def test_charging_cycle_is_the_calendar_period() -> None:
    day = dt.date(2026, 11, 23)
    assert charging_cycle(Periodicidade.SEMANAL, day) == "2026-W48"
    assert charging_cycle("MENSAL", day) == "2026-11"
    assert charging_cycle(Periodicidade.TRIMESTRAL, day) == "2026-T4"
    assert charging_cycle(Periodicidade.SEMESTRAL, day) == "2026-S2"
    assert charging_cycle(Periodicidade.ANUAL, day) == "2026"
    assert charging_cycle("SEMANAL", dt.date(2026, 11, 29)) == "2026-W48"  # Sunday
    assert charging_cycle("SEMANAL", dt.date(2026, 11, 30)) == "2026-W49"
    with pytest.raises(RecurrenceInputError):
        charging_cycle("DIARIA", day)


def _cobr(attempts: list[tuple[str, str, str]], policy: str = "PERMITE_3R_7D") -> CobRCompleta:
    return CobRCompleta.model_validate(
        {
            "idRec": "RR9999901020261118abcdefghijk",
            "txid": new_txid(),
            "calendario": {"dataDeVencimento": "2026-11-23"},
            "valor": {"original": "50.00"},
            "status": "ATIVA",
            "politicaRetentativa": policy,
            "tentativas": [
                {"dataLiquidacao": day, "tipo": tipo, "status": status}
                for day, tipo, status in attempts
            ],
        }
    )


def test_retry_policy_checks(bank: QrBank, ledger: Ledger) -> None:
    monday_noon = dt.datetime(2026, 11, 23, 15, tzinfo=dt.UTC)
    fixed = RecurrencesService(bank.client, ledger, clock=lambda: monday_noon)
    failed_once = _cobr([("2026-11-23", "AGND", "REJEITADA")])
    fixed.check_retry(failed_once, dt.date(2026, 11, 24))  # allowed
    fixed.check_retry(failed_once, dt.date(2026, 11, 30))  # the last day allowed
    refusals = [
        (failed_once, dt.date(2026, 12, 1), "cobr.retry_too_late"),
        (failed_once, dt.date(2026, 11, 23), "cobr.retry_not_future"),
        (
            _cobr([("2026-11-23", "AGND", "REJEITADA")], "NAO_PERMITE"),
            dt.date(2026, 11, 24),
            "cobr.retries_not_allowed",
        ),
        (
            _cobr([("2026-11-23", "AGND", "AGENDADA")]),
            dt.date(2026, 11, 24),
            "cobr.attempt_pending",
        ),
        (
            _cobr([("2026-11-23", "AGND", "PAGA")]),
            dt.date(2026, 11, 24),
            "cobr.retry_without_failure",
        ),
        (
            _cobr(
                [
                    ("2026-11-20", "AGND", "REJEITADA"),
                    ("2026-11-21", "NTAG", "REJEITADA"),
                    ("2026-11-22", "NTAG", "REJEITADA"),
                    ("2026-11-23", "NTAG", "REJEITADA"),
                ]
            ),
            dt.date(2026, 11, 24),
            "cobr.retries_used",
        ),
        (
            _cobr([("2026-11-23", "AGND", "REJEITADA"), ("2026-11-24", "NTAG", "EXPIRADA")]),
            dt.date(2026, 11, 24),
            "cobr.retry_same_day",
        ),
    ]
    for cobr, day, reason in refusals:
        with pytest.raises(RecurrenceInputError) as refused:
            fixed.check_retry(cobr, day)
        assert refused.value.code == reason


# ---------------------------------------------------------------------------------------------
# On the clock (moves the module's sandbox days ahead: last)


async def test_settlement_failure_retry_and_late_cancellation_on_the_clock(
    service: RecurrencesService, bank: QrBank, ledger: Ledger
) -> None:
    today = bank.today()
    due = earliest_cobr_due_date(today)
    retrying = await approved(service, bank, retry_policy=PoliticaRetentativa.PERMITE_3R_7D)
    strict = await approved(service, bank)  # NAO_PERMITE
    retried = await service.create_cobr(retrying, due_date=due, amount="50,00", receiver=ACCOUNT)
    rejected = await service.create_cobr(strict, due_date=due, amount="50,00", receiver=ACCOUNT)
    for txid in (retried.txid, rejected.txid):
        bank.control.control("POST", f"/sandbox/automatico/cobr/{txid}/fail-next")

    # before settlement, an attempt is still pending: no retry (checked with one GET)
    before = bank.sent()
    with pytest.raises(RecurrenceInputError, match=r"cobr\.attempt_pending"):
        await service.retry_cobr(retried.txid, due + dt.timedelta(days=1))
    assert bank.sent() - before == 1

    settle = retried.tentativas[0].data_liquidacao
    assert settle == next_business_day(due)
    bank.set_clock(f"{settle.isoformat()}T13:30:00Z")  # 10:30 in Brasília: the debits fail
    failed = await service.get_cobr(retried.txid)
    assert failed.status is CobRStatus.ATIVA
    assert failed.tentativas[0].status is TentativaStatus.REJEITADA
    assert (await service.get_cobr(rejected.txid)).status is CobRStatus.REJEITADA

    before = bank.sent()
    for txid, day, reason in (
        (rejected.txid, settle + dt.timedelta(days=1), "cobr.retries_not_allowed"),
        (retried.txid, settle, "cobr.retry_not_future"),
        (retried.txid, due + dt.timedelta(days=8), "cobr.retry_too_late"),
    ):
        with pytest.raises(RecurrenceInputError) as refused:
            await service.retry_cobr(txid, day)
        assert refused.value.code == reason
    assert bank.sent() - before == 3  # one GET each, never the POST
    assert await audit_of(ledger, "cobr.retry") == []

    retry_day = settle + dt.timedelta(days=1)
    scheduled = await service.retry_cobr(retried.txid, retry_day)
    assert [(t.tipo, t.status) for t in scheduled.tentativas] == [
        (TentativaTipo.AGND, TentativaStatus.REJEITADA),
        (TentativaTipo.NTAG, TentativaStatus.SOLICITADA),
    ]
    [row] = await audit_of(ledger, "cobr.retry", retried.txid)
    assert (row.outcome, row.amount) == ("ATIVA", Decimal("50.00"))
    assert row.details == {"idRec": retrying, "data": retry_day.isoformat()}
    with pytest.raises(RecurrenceInputError, match=r"cobr\.attempt_pending"):
        await service.retry_cobr(retried.txid, retry_day + dt.timedelta(days=1))

    bank.set_clock(f"{retry_day.isoformat()}T13:30:00Z")  # the retry settles
    done = await service.get_cobr(retried.txid)
    assert done.status is CobRStatus.CONCLUIDA
    assert [t.status for t in done.tentativas] == [TentativaStatus.REJEITADA, TentativaStatus.PAGA]
    with pytest.raises(RecurrenceInputError, match="CONCLUIDA"):
        await service.retry_cobr(retried.txid, retry_day + dt.timedelta(days=1))
    with pytest.raises(NotFound):
        await service.retry_cobr(new_txid(), retry_day + dt.timedelta(days=1))

    # a charge cannot be cancelled from the date of its first attempt on
    today = bank.today()
    late = await approved(service, bank)
    cobr = await service.create_cobr(
        late, due_date=earliest_cobr_due_date(today), amount="50,00", receiver=ACCOUNT
    )
    first = cobr.tentativas[0].data_liquidacao
    bank.set_clock(f"{first.isoformat()}T11:00:00Z")  # 08:00 in Brasília: not settled yet
    assert (await service.get_cobr(cobr.txid)).status is CobRStatus.ATIVA
    before = bank.sent()
    with pytest.raises(RecurrenceInputError, match=r"cobr\.cancel_after_first_attempt"):
        await service.cancel_cobr(cobr.txid)
    assert bank.sent() - before == 1
    assert await audit_of(ledger, "cobr.cancel") == []
    assert (await service.get_cobr(cobr.txid)).status is CobRStatus.ATIVA
