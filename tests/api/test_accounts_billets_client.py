"""AccountsClient's boleto methods against the real sandbox bank: slip query (line or
barcode), payment by digitable line and by queried barcode until LIQUIDATED, details,
receipts, lists, and the bank's refusals as typed exceptions."""

from __future__ import annotations

import datetime as dt
import secrets
from decimal import Decimal

import pytest
from pydantic import ValidationError

from tests.sandbox.conftest import Api
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import (
    BilletCodePaymentRequest,
    BilletPaymentRequest,
    BilletType,
    PaymentAmount,
    PaymentFlow,
    PaymentStatus,
    TransactionType,
)
from treasury_app.api.errors import (
    BadRequest,
    BusinessRuleViolation,
    IdempotencyKeyReused,
    NotFound,
)
from treasury_app.api.transport import ApiTransport
from treasury_app.domain import boleto
from treasury_app.domain.identifiers import new_idempotency_key

TOO_LATE = "Vencido além do prazo"
FREE = "Valor livre (doação)"
UNKNOWN_ID = 424242


def sandbox_today(control: Api) -> dt.date:
    now = dt.datetime.fromisoformat(control.now().replace("Z", "+00:00"))
    return now.astimezone(dt.timezone(dt.timedelta(hours=-3))).date()


def new_slip(amount: Decimal | None, due: dt.date, bank: str = "237") -> boleto.Boleto:
    """A valid slip the sandbox never saw (its registry answers for any valid slip, with a
    59-day payment limit, 2 % fine and 1 % a month interest)."""
    barcode = boleto.build_bank_barcode(bank, amount, due, f"{secrets.randbelow(10**25):025d}")
    return boleto.parse(barcode, today=due)


@pytest.fixture
def client(accounts_transport: ApiTransport) -> AccountsClient:
    return AccountsClient(accounts_transport)


@pytest.fixture(scope="module")
def today(control: Api) -> dt.date:
    return sandbox_today(control)


async def balance(client: AccountsClient) -> Decimal:
    return (await client.get_balances())[0].available


# The journey: info, pay, follow, receipt ----------------------------------------------------
async def test_info_pay_liquidated_receipt(
    client: AccountsClient, control: Api, today: dt.date
) -> None:
    slip = new_slip(Decimal("480.10"), today + dt.timedelta(days=20), bank="341")
    info = await client.get_billet_info(slip.formatted_line)  # punctuated, as printed
    assert info.billet_code == info.barcode == slip.barcode
    assert info.digitable_code == slip.digitable_line
    assert info.type is BilletType.BANK
    assert info.due_date == today + dt.timedelta(days=20)
    assert info.total_updated == info.original_amount == Decimal("480.10")
    assert info.fine == info.interest == Decimal("0.00")
    assert info.allow_change_value is False
    assert info.beneficiary is not None and info.beneficiary.bank_code == "341"
    assert info.beneficiary.name and info.beneficiary.document

    before = await balance(client)
    key = new_idempotency_key()
    created = await client.pay_billet(
        BilletPaymentRequest(
            digitable_code=slip.formatted_line,
            description="Fornecedor de insumos",
            payment=PaymentAmount(amount=info.total_updated),
        ),
        idempotency_key=key,
    )
    assert created.status is PaymentStatus.ON_QUEUE
    assert not created.is_final
    assert created.idempotency_key == key
    assert created.amount == Decimal("480.10")
    assert created.barcode == slip.barcode
    assert created.digitable_code == slip.digitable_line
    assert created.due_date == info.due_date
    assert await balance(client) == before - Decimal("480.10")
    debit = (await client.list_transactions(per_page=1)).items[0]
    assert debit.transaction_type is TransactionType.BILLET
    assert debit.payment_id == created.id
    assert debit.signed_amount == Decimal("-480.10")

    with pytest.raises(BusinessRuleViolation):  # no receipt before liquidation
        await client.get_billet_receipt(created.id)

    control.advance(4.5)
    current = await client.get_billet(created.id)
    assert current.status is PaymentStatus.LIQUIDATED
    assert current.is_final
    assert [h.status for h in current.history] == ["ON_QUEUE", "PROCESSING", "LIQUIDATED"]
    assert current.settled_at is not None and current.created_at is not None
    assert current.settled_at - current.created_at == dt.timedelta(seconds=4)
    assert "billetInfo" not in (current.model_extra or {})

    details = await client.get_billet_details(created.id)
    assert details.status is PaymentStatus.LIQUIDATED
    assert details.billet_info is not None
    assert details.billet_info.total_updated == Decimal("480.10")
    assert details.billet_info.beneficiary == info.beneficiary
    assert details.creditor_account is not None
    assert details.creditor_account.document == info.beneficiary.document
    assert details.debtor_account is not None
    assert details.debtor_account.document == "11222333000181"

    pdf = await client.get_billet_receipt(created.id)
    assert pdf.startswith(b"%PDF")
    assert await client.get_billet_receipt(created.id) == pdf

    listed = await client.list_billets(idempotency_key=key)
    assert [p.id for p in listed.items] == [created.id]
    assert listed.items[0].status is PaymentStatus.LIQUIDATED


async def test_overdue_slip_is_paid_by_queried_barcode_with_charges(
    client: AccountsClient, control: Api, today: dt.date
) -> None:
    due = today - dt.timedelta(days=30)
    slip = new_slip(Decimal("1000.00"), due)
    with pytest.raises(BusinessRuleViolation):  # /pay needs a prior /info
        await client.pay_billet_code(
            BilletCodePaymentRequest(billet_code=slip.barcode),
            idempotency_key=new_idempotency_key(),
        )
    info = await client.get_billet_info(slip.digitable_line)
    assert info.days_late == 30
    assert (info.fine, info.interest) == (Decimal("20.00"), Decimal("10.00"))
    assert info.total_updated == Decimal("1030.00")

    before = await balance(client)
    payment = await client.pay_billet_code(
        BilletCodePaymentRequest(billet_code=slip.formatted_line),  # normalised to the barcode
        idempotency_key=new_idempotency_key(),
    )
    assert payment.status is PaymentStatus.ON_QUEUE
    assert payment.barcode == slip.barcode
    assert payment.amount == Decimal("1030.00")  # always the updated amount
    assert await balance(client) == before - Decimal("1030.00")
    control.advance(4.5)
    assert (await client.get_billet(payment.id)).status is PaymentStatus.LIQUIDATED


async def test_approval_required_slip_payment(
    client: AccountsClient, control: Api, today: dt.date
) -> None:
    slip = new_slip(Decimal("99.99"), today + dt.timedelta(days=3))
    before = await balance(client)
    held = await client.pay_billet(
        BilletPaymentRequest(
            digitable_code=slip.digitable_line, payment_flow=PaymentFlow.APPROVAL_REQUIRED
        ),
        idempotency_key=new_idempotency_key(),
    )
    assert held.status is PaymentStatus.WAITING_APPROVAL
    assert held.payment_flow is PaymentFlow.APPROVAL_REQUIRED
    assert await balance(client) == before
    control.control("POST", f"/sandbox/billets/{held.id}/approve")
    approved = await client.get_billet(held.id)
    assert approved.status is PaymentStatus.ON_QUEUE
    assert await balance(client) == before - Decimal("99.99")


# Refusals -----------------------------------------------------------------------------------
async def test_info_errors(client: AccountsClient, today: dt.date) -> None:
    line = new_slip(Decimal("10.00"), today + dt.timedelta(days=5)).digitable_line
    wrong_check_digit = line[:9] + str((int(line[9]) + 1) % 10) + line[10:]
    with pytest.raises(BadRequest) as error:
        await client.get_billet_info(wrong_check_digit)
    assert error.value.properties == {"billetCode"}
    assert error.value.violacoes[0].valor == wrong_check_digit
    with pytest.raises(BadRequest):
        await client.get_billet_info("1234567890" * 4)  # 40 digits: no such slip length
    with pytest.raises(ValueError):
        await client.get_billet_info("0019716460000038990751160662602111425775910A")


async def test_slip_after_its_payment_limit_is_422(client: AccountsClient, control: Api) -> None:
    slip = control.slips()[TOO_LATE]
    info = await client.get_billet_info(slip["barcode"])
    assert info.payment_limit_date is not None
    assert info.payment_limit_date < sandbox_today(control)
    before = await balance(client)
    with pytest.raises(BusinessRuleViolation) as error:
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=slip["digitableCode"]),
            idempotency_key=new_idempotency_key(),
        )
    assert error.value.type.endswith("BoletoVencido")
    with pytest.raises(BusinessRuleViolation):
        await client.pay_billet_code(
            BilletCodePaymentRequest(billet_code=slip["barcode"]),
            idempotency_key=new_idempotency_key(),
        )
    assert await balance(client) == before


async def test_insufficient_balance_is_422(client: AccountsClient, today: dt.date) -> None:
    before = await balance(client)
    slip = new_slip(Decimal("9000000.00"), today + dt.timedelta(days=10))
    info = await client.get_billet_info(slip.barcode)
    assert info.total_updated == Decimal("9000000.00") > before
    with pytest.raises(BusinessRuleViolation) as error:
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=slip.digitable_line),
            idempotency_key=new_idempotency_key(),
        )
    assert error.value.type.endswith("SaldoInsuficiente")
    assert await balance(client) == before


async def test_amount_and_free_value_rules(
    client: AccountsClient, control: Api, today: dt.date
) -> None:
    slip = new_slip(Decimal("210.40"), today + dt.timedelta(days=8))
    with pytest.raises(BusinessRuleViolation, match=r"210\.40"):
        await client.pay_billet(
            BilletPaymentRequest(
                digitable_code=slip.digitable_line, payment=PaymentAmount(amount=Decimal("210"))
            ),
            idempotency_key=new_idempotency_key(),
        )
    free = control.slips()[FREE]
    assert (await client.get_billet_info(free["barcode"])).allow_change_value is True
    with pytest.raises(BusinessRuleViolation):
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=free["digitableCode"]),
            idempotency_key=new_idempotency_key(),
        )


async def test_payment_errors(client: AccountsClient, today: dt.date) -> None:
    with pytest.raises(BadRequest) as error:
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=""), idempotency_key=new_idempotency_key()
        )
    assert error.value.properties == {"digitableCode"}
    line = new_slip(Decimal("10.00"), today + dt.timedelta(days=5)).digitable_line
    wrong = line[:9] + str((int(line[9]) + 1) % 10) + line[10:]
    with pytest.raises(BadRequest) as error:
        await client.pay_billet_code(
            BilletCodePaymentRequest(billet_code=wrong), idempotency_key=new_idempotency_key()
        )
    assert error.value.properties == {"billetCode"}
    for bad_key in ("", "a-b", "x" * 51):
        with pytest.raises(ValueError, match="idempotency key"):
            await client.pay_billet(
                BilletPaymentRequest(digitable_code=line), idempotency_key=bad_key
            )
        with pytest.raises(ValueError, match="idempotency key"):
            await client.pay_billet_code(
                BilletCodePaymentRequest(billet_code=line), idempotency_key=bad_key
            )
    with pytest.raises(ValidationError):
        BilletPaymentRequest(digitable_code=line, payment_flow="LATER")  # type: ignore[arg-type]


async def test_reused_idempotency_key_is_412(client: AccountsClient, today: dt.date) -> None:
    key = new_idempotency_key()
    first = new_slip(Decimal("12.34"), today + dt.timedelta(days=6))
    await client.pay_billet(
        BilletPaymentRequest(digitable_code=first.digitable_line), idempotency_key=key
    )
    before = await balance(client)
    second = new_slip(Decimal("12.34"), today + dt.timedelta(days=6))
    await client.get_billet_info(second.barcode)
    with pytest.raises(IdempotencyKeyReused):
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=second.digitable_line), idempotency_key=key
        )
    with pytest.raises(IdempotencyKeyReused):
        await client.pay_billet_code(
            BilletCodePaymentRequest(billet_code=second.barcode), idempotency_key=key
        )
    assert await balance(client) == before


async def test_unknown_billet_is_404(client: AccountsClient) -> None:
    with pytest.raises(NotFound):
        await client.get_billet(UNKNOWN_ID)
    with pytest.raises(NotFound):
        await client.get_billet_details(UNKNOWN_ID)
    with pytest.raises(NotFound):
        await client.get_billet_receipt(UNKNOWN_ID)


# Lists --------------------------------------------------------------------------------------
async def test_billet_list_pages(client: AccountsClient, today: dt.date) -> None:
    for _ in range(3):
        slip = new_slip(Decimal("1.50"), today + dt.timedelta(days=2))
        await client.pay_billet(
            BilletPaymentRequest(digitable_code=slip.digitable_line),
            idempotency_key=new_idempotency_key(),
        )
    first = await client.list_billets(page=1, per_page=2)
    assert first.meta is not None
    assert (first.meta.page, first.meta.per_page) == (1, 2)
    assert first.meta.total_items >= 3
    assert first.total_pages == -(-first.meta.total_items // 2)
    everything = [p async for p in client.iter_billets(per_page=2)]
    assert len(everything) == first.meta.total_items
    ids = [p.id for p in everything]
    assert ids == sorted(ids, reverse=True)  # type: ignore[type-var]  # newest first
    assert ids[:2] == [p.id for p in first.items]
    by_key = await client.list_billets(idempotency_key=everything[0].idempotency_key)
    assert [p.id for p in by_key.items] == [everything[0].id]

    with pytest.raises(BadRequest) as error:
        await client.list_billets(per_page=1001)
    assert error.value.status == 400
    with pytest.raises(BadRequest):
        [p async for p in client.iter_billets(per_page=0)]
