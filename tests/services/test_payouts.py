"""PayoutsService against a sandbox bank of its own (real mutual TLS): every ``prepare_*``
happy path and every bad input (refused locally, nothing sent), payouts by key, by BR Code
(static, and dynamic from a charge of our own) and by bank data, the 24-hour duplicate guard,
exactly-once sending of one review, the approval flow, a refusal by the bank, and a 500-row
batch sent with bounded concurrency."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import datetime
from decimal import Decimal
from typing import Any

import pytest

from tests.api.conftest import api_config
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import LocalInstrument, PaymentFlow, PixKeyType
from treasury_app.api.qrcodes.cashin_models import CalendarioCob, CobSolicitada, CobValor
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.api.transport import ApiTransport
from treasury_app.domain import brcode
from treasury_app.domain.clock import brasilia_date
from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import (
    ChargeAmount,
    PayoutInputError,
    PayoutReview,
    PayoutsService,
)
from treasury_app.services.qr_payloads import charge_amount
from treasury_app.services.tracker import PaymentTracker

SUPPLIER = "fornecedor@empresa.com.br"
NOT_IN_DICT = "00000000-0000-0000-0000-000000000000"
COMPANY_CNPJ_KEY = "11222333000181"  # the sandbox company's own key (for its charges)
CPF = "52998224725"
CNPJ = "11222333000181"
BANK = {
    "ispb": "60746948",
    "branch": "1234",
    "account": "98765-4",
    "account_type": "SVGS",
    "document": "529.982.247-25",
    "name": "Maria da Silva",
}

pytestmark = pytest.mark.usefixtures("clean_sandbox")


# --------------------------------------------------------------------------------------------
# Fixtures: this module's own sandbox, our transports, a real ledger per test


@pytest.fixture(scope="module")
async def qrcodes(sandbox: RunningSandbox, control: Api) -> AsyncIterator[QrCodesClient]:
    control.reset_token_limits()
    async with ApiTransport(api_config(sandbox, "qrcodes")) as transport:
        yield QrCodesClient(transport)


@pytest.fixture
def engine(accounts_transport: ApiTransport, ledger: Ledger) -> PaymentEngine:
    return PaymentEngine(AccountsClient(accounts_transport), ledger)


@pytest.fixture
def payouts(engine: PaymentEngine, ledger: Ledger) -> PayoutsService:
    return PayoutsService(engine, ledger)


def static_code(amount: Decimal | None = Decimal("25.50"), key: str = SUPPLIER) -> str:
    return brcode.build(
        merchant_name="Padaria Pao Quente",
        merchant_city="Sao Paulo",
        key=key,
        amount=amount,
        txid="PEDIDO123",
    )


def altered_crc(payload: str) -> str:
    return payload[:-4] + ("0000" if payload[-4:] != "0000" else "FFFF")


# --------------------------------------------------------------------------------------------
# prepare_*: local validation, no network


async def test_prepare_key_detects_and_normalises_the_key(
    payouts: PayoutsService, accounts_transport: ApiTransport
) -> None:
    before = accounts_transport.stats.requests
    cases = [
        (" Fornecedor@Empresa.com.br ", PixKeyType.EMAIL, SUPPLIER),
        ("529.982.247-25", PixKeyType.CPF, CPF),
        ("11.222.333/0001-81", PixKeyType.CNPJ, CNPJ),
        ("+55 (11) 98765-0000", PixKeyType.PHONE, "+5511987650000"),
        (
            "5F8E3B9A-2C4D-4E6F-9A1B-3C5D7E9F1A2B",
            PixKeyType.EVP,
            "5f8e3b9a-2c4d-4e6f-9a1b-3c5d7e9f1a2b",
        ),
    ]
    for typed, key_type, normalized in cases:
        review = await payouts.prepare_key(typed, "R$ 1.234,56", description="  Nota 42  ")
        assert review.kind == EntryKind.PIX_KEY
        assert review.key_type == key_type, typed
        assert review.payee_detail == normalized
        assert review.amount == Decimal("1234.56") and isinstance(review.amount, Decimal)
        assert review.amount_text == "R$ 1.234,56"
        assert review.description == "Nota 42"
        assert review.payment_flow == PaymentFlow.INSTANT
        assert review.request["pixKey"] == normalized
        assert review.request["pixKeyType"] == key_type.value
        assert review.request["payment"] == {"currency": "BRL", "amount": Decimal("1234.56")}
        assert review.request["description"] == "Nota 42"
        assert review.warnings == () and review.duplicates == ()
    with_document = await payouts.prepare_key(
        SUPPLIER, Decimal("10"), creditor_document="11.222.333/0001-81"
    )
    assert with_document.amount == Decimal("10.00")
    assert with_document.payee_document == CNPJ
    assert with_document.request["creditorDocument"] == CNPJ
    assert "description" not in with_document.request
    # Each review has its own idempotency key: two reviews are two intents.
    assert with_document.idempotency_key != review.idempotency_key
    assert accounts_transport.stats.requests == before


async def test_prepare_qrc_reads_payee_and_amount_from_the_code(
    payouts: PayoutsService, accounts_transport: ApiTransport
) -> None:
    before = accounts_transport.stats.requests
    fixed = await payouts.prepare_qrc("  " + static_code() + "\n")
    assert fixed.kind == EntryKind.PIX_QRC
    assert fixed.amount == Decimal("25.50")
    assert fixed.payee_name == "Padaria Pao Quente"
    assert fixed.payee_detail == SUPPLIER
    assert fixed.brcode is not None and fixed.brcode.txid == "PEDIDO123"
    assert fixed.request["qrCode"] == static_code()
    assert "payment" not in fixed.request  # the code carries the amount
    same_amount = await payouts.prepare_qrc(static_code(), "25,50")  # typing the same is fine
    assert same_amount.amount == Decimal("25.50")
    open_amount = await payouts.prepare_qrc(static_code(None), "7,77", description="Pão")
    assert open_amount.amount == Decimal("7.77")
    assert open_amount.request["payment"] == {"currency": "BRL", "amount": Decimal("7.77")}
    assert open_amount.request["description"] == "Pão"
    dynamic = await payouts.prepare_qrc(
        brcode.build(merchant_name="Loja", merchant_city="Recife", url="pix.example.com/qr/v2/abc"),
        Decimal("10.00"),
    )
    assert dynamic.payee_detail == "pix.example.com/qr/v2/abc"
    assert Reason("payout.dynamic_code") in dynamic.warnings
    assert accounts_transport.stats.requests == before


async def test_prepare_manual_builds_the_creditor_account(
    payouts: PayoutsService, accounts_transport: ApiTransport
) -> None:
    before = accounts_transport.stats.requests
    review = await payouts.prepare_manual(
        **{**BANK, "account_type": "svgs", "name": "  Maria da Silva "},
        amount="321,09",
        description="Reembolso",
    )
    assert review.kind == EntryKind.PIX_MANU
    assert review.amount == Decimal("321.09")
    assert review.payee_name == "Maria da Silva"
    assert review.payee_document == CPF
    assert review.payee_detail == "60746948/1234/987654"
    assert review.request["creditorAccount"] == {
        "ispb": "60746948",
        "issuer": "1234",
        "number": "987654",
        "accountType": "SVGS",
        "document": CPF,
        "name": "Maria da Silva",
    }
    assert review.request["payment"] == {"currency": "BRL", "amount": Decimal("321.09")}
    company = await payouts.prepare_manual(
        **{**BANK, "document": "11.222.333/0001-81", "name": "Empresa Ltda"}, amount="1"
    )
    assert company.payee_document == CNPJ
    assert accounts_transport.stats.requests == before


async def test_amount_limits_are_inclusive(payouts: PayoutsService) -> None:
    assert (await payouts.prepare_key(SUPPLIER, "0,01")).amount == Decimal("0.01")
    assert (await payouts.prepare_key(SUPPLIER, "1.000.000,00")).amount == Decimal("1000000.00")
    assert (await payouts.prepare_key(SUPPLIER, Decimal("1000000"))).amount == Decimal("1000000.00")
    assert (
        await payouts.prepare_key(SUPPLIER, "1", description="é" * 140)
    ).description == "é" * 140


def _manual(**changes: Any) -> Callable[[PayoutsService], Awaitable[PayoutReview]]:
    return lambda s: s.prepare_manual(**{**BANK, **changes}, amount="10,00")


RECURRENCE_ONLY = brcode.build(
    merchant_name="Academia Forma",
    merchant_city="Recife",
    recurrence_url="pix.example.com/qr/v2/rec/abc",
)

BAD_INPUTS: list[tuple[str, Callable[[PayoutsService], Awaitable[PayoutReview]], str]] = [
    ("not a key", lambda s: s.prepare_key("not a key", "10"), "key"),
    ("empty key", lambda s: s.prepare_key("", "10"), "key"),
    ("bad cpf key", lambda s: s.prepare_key("529.982.247-24", "10"), "key"),
    ("amount 0", lambda s: s.prepare_key(SUPPLIER, "0,00"), "amount"),
    ("amount Decimal 0", lambda s: s.prepare_key(SUPPLIER, Decimal("0")), "amount"),
    ("negative", lambda s: s.prepare_key(SUPPLIER, "-5,00"), "amount"),
    ("3 decimals", lambda s: s.prepare_key(SUPPLIER, "1,234"), "amount"),
    ("3 decimals Decimal", lambda s: s.prepare_key(SUPPLIER, Decimal("1.234")), "amount"),
    ("above limit", lambda s: s.prepare_key(SUPPLIER, "1.000.000,01"), "amount"),
    ("above limit Decimal", lambda s: s.prepare_key(SUPPLIER, Decimal("1000000.01")), "amount"),
    ("NaN", lambda s: s.prepare_key(SUPPLIER, Decimal("NaN")), "amount"),
    ("float", lambda s: s.prepare_key(SUPPLIER, 10.5), "amount"),  # type: ignore[arg-type]
    ("not a number", lambda s: s.prepare_key(SUPPLIER, "dez reais"), "amount"),
    (
        "description 141",
        lambda s: s.prepare_key(SUPPLIER, "1", description="x" * 141),
        "description",
    ),
    (
        "bad creditor document",
        lambda s: s.prepare_key(SUPPLIER, "1", creditor_document="123.456.789-00"),
        "creditor_document",
    ),
    ("bad CPF", _manual(document="529.982.247-24"), "document"),
    ("bad CNPJ", _manual(document="11.222.333/0001-82"), "document"),
    ("ispb 7 digits", _manual(ispb="6074694"), "ispb"),
    ("ispb letters", _manual(ispb="ABCDEFGH"), "ispb"),
    ("branch 5 digits", _manual(branch="12345"), "branch"),
    ("branch letters", _manual(branch="12a"), "branch"),
    ("branch empty", _manual(branch=""), "branch"),
    ("account letters", _manual(account="12x45"), "account"),
    ("account 21 digits", _manual(account="1" * 21), "account"),
    ("account type", _manual(account_type="CORRENTE"), "account_type"),
    ("no name", _manual(name="   "), "name"),
    (
        "manual description",
        lambda s: s.prepare_manual(**BANK, amount="1", description="y" * 141),
        "description",
    ),
    ("manual amount", lambda s: s.prepare_manual(**BANK, amount="0"), "amount"),
    ("bad crc", lambda s: s.prepare_qrc(altered_crc(static_code())), "payload"),
    ("not a code", lambda s: s.prepare_qrc("not a pix code"), "payload"),
    ("code amount differs", lambda s: s.prepare_qrc(static_code(), "25,00"), "amount"),
    ("no amount anywhere", lambda s: s.prepare_qrc(static_code(None)), "amount"),
    ("typed amount bad", lambda s: s.prepare_qrc(static_code(None), "0"), "amount"),
    ("recurrence only", lambda s: s.prepare_qrc(RECURRENCE_ONLY), "payload"),
    (
        "qr description",
        lambda s: s.prepare_qrc(static_code(), description="z" * 141),
        "description",
    ),
]


@pytest.mark.parametrize(
    ("prepare", "field"), [case[1:] for case in BAD_INPUTS], ids=[case[0] for case in BAD_INPUTS]
)
async def test_bad_input_is_refused_locally_with_its_field(
    prepare: Callable[[PayoutsService], Awaitable[PayoutReview]],
    field: str,
    payouts: PayoutsService,
    ledger: Ledger,
    accounts_transport: ApiTransport,
) -> None:
    before = accounts_transport.stats.requests
    with pytest.raises(PayoutInputError) as refused:
        await prepare(payouts)
    assert refused.value.field == field
    assert refused.value.code and str(refused.value) == str(refused.value.reason)
    assert accounts_transport.stats.requests == before  # nothing reached the bank
    assert await ledger.journal.recent() == []  # nor the journal


# --------------------------------------------------------------------------------------------
# send


async def test_send_by_key(
    payouts: PayoutsService, ledger: Ledger, control: Api, engine: PaymentEngine
) -> None:
    before = control.balance()
    review = await payouts.prepare_key(SUPPLIER, "12,34", description="Nota 1")
    entry = await payouts.send(review)
    assert entry.state == EntryState.ACCEPTED and entry.bank_status == "ON_QUEUE"
    assert not entry.final and entry.end_to_end_id and entry.error is None
    assert entry.idempotency_key == review.idempotency_key
    assert (entry.kind, entry.amount, entry.payee_detail) == (
        EntryKind.PIX_KEY,
        Decimal("12.34"),
        SUPPLIER,
    )
    assert control.balance() == before - Decimal("12.34")
    bank = await engine.accounts.get_pix_payment(entry.end_to_end_id)
    assert bank.idempotency_key == review.idempotency_key and bank.amount == Decimal("12.34")
    assert bank.local_instrument is LocalInstrument.DICT
    assert [h.state for h in await ledger.journal.history(entry.id)] == [
        EntryState.PREPARED,
        EntryState.SENT,
        EntryState.ACCEPTED,
    ]
    (audit,) = await ledger.audit.entries(action="payout.send")
    assert audit.outcome == "accepted" and audit.amount == Decimal("12.34")


async def test_send_by_static_qr_code(
    payouts: PayoutsService, control: Api, engine: PaymentEngine
) -> None:
    before = control.balance()
    entry = await payouts.send(await payouts.prepare_qrc(static_code(Decimal("25.50"))))
    assert entry.state == EntryState.ACCEPTED and entry.bank_status == "ON_QUEUE"
    assert entry.payee_name == "Padaria Pao Quente"
    bank = await engine.accounts.get_pix_payment(entry.end_to_end_id or "")
    assert bank.local_instrument is LocalInstrument.QRES and bank.tx_id == "PEDIDO123"
    open_amount = await payouts.send(await payouts.prepare_qrc(static_code(None), "7,77"))
    assert open_amount.state == EntryState.ACCEPTED
    assert control.balance() == before - Decimal("25.50") - Decimal("7.77")


async def test_send_by_dynamic_qr_code_of_a_charge(
    payouts: PayoutsService, qrcodes: QrCodesClient, engine: PaymentEngine, control: Api
) -> None:
    cob = await qrcodes.create_cob(
        CobSolicitada(
            calendario=CalendarioCob(expiracao=3600),
            devedor=Devedor(cpf=CPF, nome="Fulano de Tal"),
            valor=CobValor(original=Decimal("88.80")),
            chave=COMPANY_CNPJ_KEY,
        )
    )
    assert cob.pix_copia_e_cola is not None
    review = await payouts.prepare_qrc(cob.pix_copia_e_cola, "88,80")
    assert review.brcode is not None and review.brcode.is_dynamic
    entry = await payouts.send(review)
    assert entry.state == EntryState.ACCEPTED, entry.error
    bank = await engine.accounts.get_pix_payment(entry.end_to_end_id or "")
    assert bank.local_instrument is LocalInstrument.QRDN and bank.amount == Decimal("88.80")
    control.advance(3.5)  # settles: the charge is paid
    assert (await qrcodes.get_cob(cob.txid)).status == "CONCLUIDA"
    # A wrong typed amount for a dynamic code is the bank's to refuse (final, nothing paid).
    other = await qrcodes.create_cob(
        CobSolicitada(
            calendario=CalendarioCob(expiracao=3600),
            valor=CobValor(original=Decimal("50.00")),
            chave=COMPANY_CNPJ_KEY,
        )
    )
    wrong = await payouts.send(await payouts.prepare_qrc(other.pix_copia_e_cola or "", "49,99"))
    assert wrong.state == EntryState.REJECTED and wrong.final and "422" in (wrong.error or "")


async def test_a_dynamic_code_whose_charge_fixes_its_amount_refuses_another_before_sending(
    engine: PaymentEngine,
    ledger: Ledger,
    qrcodes: QrCodesClient,
    control: Api,
    accounts_transport: ApiTransport,
) -> None:
    today = brasilia_date(datetime.fromisoformat(control.now().replace("Z", "+00:00")))

    async def read_charge(location: str) -> ChargeAmount:
        return await charge_amount(qrcodes, location, today)

    payouts = PayoutsService(engine, ledger, read_charge=read_charge)

    async def cob(amount: str, changeable: bool) -> tuple[str, str]:
        created = await qrcodes.create_cob(
            CobSolicitada(
                calendario=CalendarioCob(expiracao=3600),
                valor=CobValor(
                    original=Decimal(amount), modalidade_alteracao=1 if changeable else None
                ),
                chave=COMPANY_CNPJ_KEY,
            )
        )
        assert created.pix_copia_e_cola is not None
        return created.txid, created.pix_copia_e_cola

    txid, fixed = await cob("150.00", changeable=False)
    before = accounts_transport.stats.requests
    with pytest.raises(PayoutInputError) as refused:
        await payouts.prepare_qrc(fixed, "15,00")
    assert refused.value.field == "amount"
    assert (refused.value.code, refused.value.params["amount"]) == (
        "payout.charge_amount_differs",
        Decimal("150.00"),
    )
    assert accounts_transport.stats.requests == before  # nothing reached the Accounts API
    assert await ledger.journal.recent() == []  # nor the journal
    # Left empty, the amount is the charge's; typed the same, it is accepted.
    assert (await payouts.prepare_qrc(fixed)).amount == Decimal("150.00")
    review = await payouts.prepare_qrc(fixed, "150,00")
    assert (await payouts.send(review)).state == EntryState.ACCEPTED
    control.advance(3.5)  # settled (the charge is ours: its credit lands now, not in a later test)
    assert (await qrcodes.get_cob(txid)).status == "CONCLUIDA"
    # A charge that lets the payer change the amount takes another one.
    _txid, open_amount = await cob("80.00", changeable=True)
    assert (await payouts.prepare_qrc(open_amount, "95,00")).amount == Decimal("95.00")


async def test_send_by_bank_data(
    payouts: PayoutsService, control: Api, engine: PaymentEngine
) -> None:
    before = control.balance()
    entry = await payouts.send(await payouts.prepare_manual(**BANK, amount="321,09"))
    assert entry.state == EntryState.ACCEPTED and entry.bank_status == "ON_QUEUE"
    assert entry.kind == EntryKind.PIX_MANU and entry.payee_name == "Maria da Silva"
    bank = await engine.accounts.get_pix_payment(entry.end_to_end_id or "")
    assert bank.local_instrument is LocalInstrument.MANU
    assert bank.creditor_account is not None and bank.creditor_account.number == "987654"
    assert control.balance() == before - Decimal("321.09")


async def test_second_review_of_the_same_payee_and_amount_warns(
    payouts: PayoutsService,
) -> None:
    first = await payouts.send(await payouts.prepare_key(SUPPLIER, "55,00"))
    again = await payouts.prepare_key(" fornecedor@empresa.com.br", Decimal("55"))
    assert again.duplicates and [d.id for d in again.duplicates] == [first.id]
    assert again.warnings[0] == Reason(
        "payout.recent_duplicates", {"count": 1, "amount": Decimal("55.00")}
    )
    assert again.idempotency_key != first.idempotency_key  # a new intent, if confirmed
    assert (await payouts.prepare_key(SUPPLIER, "55,01")).duplicates == ()  # another amount
    assert (await payouts.prepare_key("outro@empresa.com.br", "55,00")).duplicates == ()
    second = await payouts.send(again)  # the person confirmed: a second payment
    third = await payouts.prepare_key(SUPPLIER, "55,00")
    assert [d.id for d in third.duplicates] == [second.id, first.id]
    assert third.warnings[0].code == "payout.recent_duplicates"
    assert third.warnings[0].params["count"] == 2
    # Bank data and QR codes are guarded the same way.
    await payouts.send(await payouts.prepare_manual(**BANK, amount="9,99"))
    assert (await payouts.prepare_manual(**BANK, amount="9,99")).duplicates
    await payouts.send(await payouts.prepare_qrc(static_code(Decimal("3.21"))))
    assert (await payouts.prepare_qrc(static_code(Decimal("3.21")))).duplicates


async def test_the_same_review_sent_twice_is_one_payment(
    payouts: PayoutsService, ledger: Ledger, control: Api, accounts_transport: ApiTransport
) -> None:
    before = control.balance()
    review = await payouts.prepare_key(SUPPLIER, "77,70")
    results = await asyncio.gather(*(payouts.send(review) for _ in range(5)))
    assert {entry.id for entry in results} == {results[0].id}
    requests = accounts_transport.stats.requests
    later = await payouts.send(review)  # a click after the answer came back
    assert later.id == results[0].id and later.end_to_end_id == results[0].end_to_end_id
    assert accounts_transport.stats.requests == requests  # accepted: nothing asked or sent
    assert len(await ledger.journal.recent()) == 1
    assert control.balance() == before - Decimal("77.70")


async def test_approval_required_waits_then_settles(
    payouts: PayoutsService, ledger: Ledger, control: Api, engine: PaymentEngine
) -> None:
    before = control.balance()
    review = await payouts.prepare_key(SUPPLIER, "150,00", flow=PaymentFlow.APPROVAL_REQUIRED)
    assert Reason("payout.waits_for_approval") in review.warnings
    assert review.request["paymentFlow"] == "APPROVAL_REQUIRED"
    entry = await payouts.send(review)
    assert entry.state == EntryState.ACCEPTED
    assert entry.bank_status == "WAITING_APPROVAL" and not entry.final
    assert entry.payment_flow == "APPROVAL_REQUIRED"
    assert control.balance() == before  # nothing debited while held
    tracker = PaymentTracker(engine)
    assert await tracker.poll_once() == []  # still held: no change
    held = {p["endToEndId"] for p in control.control("GET", "/sandbox/held")["data"]}
    assert entry.end_to_end_id in held
    control.control("POST", f"/sandbox/pix/{entry.end_to_end_id}/approve")
    control.advance(3.5)
    (changed,) = await tracker.poll_once()
    assert changed.id == entry.id and changed.bank_status == "SETTLED" and changed.final
    assert await ledger.receipts.for_entry(entry.id) is not None  # archived on settlement
    assert control.balance() == before - Decimal("150.00")
    statuses = [h.bank_status for h in await ledger.journal.history(entry.id)]
    assert statuses[-2:] == ["WAITING_APPROVAL", "SETTLED"]


async def test_a_refusal_by_the_bank_is_final(
    payouts: PayoutsService, ledger: Ledger, control: Api, engine: PaymentEngine
) -> None:
    before = control.balance()
    review = await payouts.prepare_key(NOT_IN_DICT, "10,00")
    assert review.key_type == PixKeyType.EVP
    entry = await payouts.send(review)
    assert entry.state == EntryState.REJECTED and entry.final
    assert entry.bank_status is None and entry.end_to_end_id is None
    assert "422" in (entry.error or "")
    assert control.balance() == before
    assert await engine.resolve_pending() == []  # never resent
    assert await PaymentTracker(engine).poll_once() == []
    assert await ledger.journal.get(entry.id) == entry
    again = await payouts.send(review)  # a second click on the refused review
    assert again == entry
    (audit,) = await ledger.audit.entries(action="payout.send")
    assert audit.outcome == "rejected"
    # A refused payment is no duplicate: the corrected retry carries no warning.
    assert (await payouts.prepare_key(NOT_IN_DICT, "10,00")).duplicates == ()


# --------------------------------------------------------------------------------------------
# A 500-row batch against the sandbox


class CountingEngine(PaymentEngine):
    """The real engine, counting the payments in flight at once."""

    in_flight = 0
    peak = 0

    async def submit(self, new: NewEntry) -> Entry:
        self.in_flight += 1
        self.peak = max(self.peak, self.in_flight)
        try:
            return await super().submit(new)
        finally:
            self.in_flight -= 1


# About 5,000 round trips to the ledger (a team database: its own PostgreSQL): 13 s on a quiet
# 2-core machine, 32-53 s with both cores busy, and past the suite's 300 s once while three other
# suites ran beside it (load 8). Its limit is its own, so that a busy machine is not a failure.
@pytest.mark.timeout(900)
async def test_a_500_row_batch_is_sent_with_bounded_concurrency(
    accounts_transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    rows = 500
    engine = CountingEngine(AccountsClient(accounts_transport), ledger)
    payouts = PayoutsService(engine, ledger)
    lines = ["chave;valor;descricao"] + [
        f"fornecedor{i}@empresa.com.br;{i // 100 + 1},{i % 100:02d};Lote {i}" for i in range(rows)
    ]
    batch = await payouts.parse_batch_csv("\n".join(lines) + "\n")
    assert batch.valid and len(batch.rows) == rows
    total = sum((Decimal(1) + Decimal(i) / 100 for i in range(rows)), Decimal("0.00"))
    assert batch.total == total
    before = control.balance()
    calls: list[tuple[int, int, Entry]] = []
    entries = await payouts.send_batch(
        batch, concurrency=8, progress=lambda done, count, entry: calls.append((done, count, entry))
    )
    assert engine.peak == 8  # never more than the concurrency, and really concurrent
    assert [done for done, _, _ in calls] == list(range(1, rows + 1))
    assert {count for _, count, _ in calls} == {rows}
    assert len(entries) == rows and all(e.state == EntryState.ACCEPTED for e in entries)
    assert [e.payee_detail for e in entries] == [row.review.payee_detail for row in batch.rows]
    journaled = await ledger.journal.recent(batch=batch.batch_id, limit=1000)
    assert len(journaled) == rows
    assert len({e.idempotency_key for e in journaled}) == rows
    assert {e.batch for e in journaled} == {batch.batch_id}
    assert control.balance() == before - total
    outcomes = [a.outcome for a in await ledger.audit.entries(action="payout.batch")]
    assert sorted(outcomes) == ["sent", "started"]
    again = await payouts.send_batch(batch)  # the same batch again: no second payment
    assert [e.id for e in again] == [e.id for e in entries]
    assert control.balance() == before - total
