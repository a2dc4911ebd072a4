"""AccountsClient against the real sandbox bank over mutual TLS: balance and statement, Pix
payments (key, QR Code, bank data) and their queries and receipts, event webhooks and
infractions. Each method on its happy path and on an error path with its typed exception.
(Boletos: ``test_accounts_billets_client.py``.)"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
from collections.abc import AsyncIterator, Callable
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import (
    AccountType,
    CreditDebitType,
    DefenseAttachment,
    DefenseRequest,
    InfractionStatus,
    LocalInstrument,
    ManualCreditorAccount,
    PaymentAmount,
    PaymentFlow,
    PaymentStatus,
    PixKeyPaymentRequest,
    PixKeyType,
    PixManualPaymentRequest,
    PixQrCodePaymentRequest,
    Priority,
    Transaction,
    TransactionType,
    WebhookConfig,
    WebhookMethod,
    WebhookType,
)
from treasury_app.api.errors import (
    BadRequest,
    BusinessRuleViolation,
    Forbidden,
    IdempotencyKeyReused,
    NotFound,
    ResponseFormatError,
)
from treasury_app.api.transport import ApiConfig, ApiTransport
from treasury_app.domain import boleto, brcode
from treasury_app.domain.boleto import normalize_billet_code
from treasury_app.domain.errors import BoletoError
from treasury_app.domain.identifiers import is_valid_e2eid, new_idempotency_key

UNKNOWN_E2E = "E99999010202611181300zzzzzzzzzzz"
HOOK_URI = "https://127.0.0.1:9/treasury/hooks"  # nothing listens: deliveries fail fast


def brl(amount: str) -> PaymentAmount:
    return PaymentAmount(amount=Decimal(amount))


def by_key(amount: str, **changes: Any) -> PixKeyPaymentRequest:
    values: dict[str, Any] = {
        "pix_key": "fornecedor@empresa.com.br",
        "pix_key_type": PixKeyType.EMAIL,
        "payment": brl(amount),
        "description": "Teste do cliente",
    }
    values.update(changes)
    return PixKeyPaymentRequest(**values)


def manu(amount: str = "321.09", **account_changes: Any) -> PixManualPaymentRequest:
    account: dict[str, Any] = {
        "ispb": "60746948",
        "issuer": "1234",
        "number": "98765-4",
        "account_type": AccountType.SVGS,
        "document": "529.982.247-25",
        "name": "Maria da Silva",
    }
    account.update(account_changes)
    return PixManualPaymentRequest(
        creditor_account=ManualCreditorAccount(**account),
        payment=brl(amount),
        description="Reembolso",
    )


def sandbox_today(control: Api) -> dt.date:
    """The sandbox's date in Brasília (its clock is not the machine's)."""
    now = dt.datetime.fromisoformat(control.now().replace("Z", "+00:00"))
    return now.astimezone(dt.timezone(dt.timedelta(hours=-3))).date()


@pytest.fixture
def client(accounts_transport: ApiTransport) -> AccountsClient:
    return AccountsClient(accounts_transport)


@pytest.fixture(scope="module")
async def billets_only(
    sandbox: RunningSandbox, control: Api, make_config: Callable[..., ApiConfig]
) -> AsyncIterator[AccountsClient]:
    """A client whose token only has ``billets.read``: other endpoints answer 403."""
    control.reset_token_limits()
    config = make_config(sandbox, "accounts", scopes=("billets.read",))
    async with ApiTransport(config) as transport:
        yield AccountsClient(transport)


class NoTransport:
    """Stands for the transport where nothing may be sent."""

    api = "accounts"

    async def request(self, *args: Any, **kwargs: Any) -> Any:
        raise AssertionError("nothing should have been sent")

    request_json = request


# Checks done before anything is sent -------------------------------------------------------
def test_the_client_needs_the_accounts_transport(
    qr_transport: ApiTransport, accounts_transport: ApiTransport
) -> None:
    with pytest.raises(ValueError, match="Accounts API"):
        AccountsClient(qr_transport)
    assert AccountsClient(accounts_transport).transport is accounts_transport


@pytest.mark.parametrize("key", ["", "a" * 51, "abc-def", "chave com espaco", "ação123"])
async def test_malformed_idempotency_keys_are_refused_before_sending(key: str) -> None:
    client = AccountsClient(NoTransport())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="idempotency key"):
        await client.pay_pix_dict(by_key("1.00"), idempotency_key=key)
    with pytest.raises(ValueError, match="idempotency key"):
        await client.pay_pix_qrc(PixQrCodePaymentRequest(qr_code="x"), idempotency_key=key)
    with pytest.raises(ValueError, match="idempotency key"):
        await client.pay_pix_manu(manu(), idempotency_key=key)
    with pytest.raises(ValueError, match="idempotency key"):
        await client.get_pix_payment_by_idempotency_key(key)


def test_float_money_cannot_even_be_put_in_a_request() -> None:
    with pytest.raises(ValidationError):
        PaymentAmount(amount=1234.56)  # type: ignore[arg-type]


async def test_unknown_webhook_kind_is_refused_before_sending() -> None:
    client = AccountsClient(NoTransport())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="transfer, receive, refund, cashout"):
        await client.post_webhook("billet", WebhookConfig(uri=HOOK_URI))
    with pytest.raises(ValueError):
        await client.get_webhook("infraction")
    with pytest.raises(ValueError):
        await client.delete_webhook("")


def test_billet_codes_are_normalised_to_digits() -> None:
    barcode = boleto.build_bank_barcode(
        "237", Decimal("480.10"), dt.date(2026, 12, 10), "1234567890123456789012345"
    )
    slip = boleto.parse(barcode, today=dt.date(2026, 11, 18))
    assert normalize_billet_code(barcode) == barcode
    assert normalize_billet_code(slip.digitable_line) == barcode
    assert normalize_billet_code(slip.formatted_line) == barcode
    # Digits the local check refuses still go to the bank, which has the last word.
    wrong = slip.digitable_line[:9] + str((int(slip.digitable_line[9]) + 1) % 10)
    wrong += slip.digitable_line[10:]
    assert normalize_billet_code(wrong) == wrong
    # Refused with a rule's code (never an English sentence), each reached here although the
    # slip forms check first.
    for bad, code in (
        ("0019716460000038990751160662602111425775910A", "boleto.code_not_digits"),
        ("", "boleto.code_not_digits"),
        ("  .  ", "boleto.code_not_digits"),
        ("1" * 51, "boleto.code_too_long"),
    ):
        with pytest.raises(BoletoError) as refused:
            normalize_billet_code(bad)
        assert refused.value.code == code, bad
    with pytest.raises(BoletoError) as refused:
        normalize_billet_code("12345 67890." * 6)
    assert refused.value.code == "boleto.code_too_long"
    assert dict(refused.value.params) == {"digits": 60, "max": 50}


class FakeTransport:
    """Records what the client asks for and answers with a canned body."""

    api = "accounts"

    def __init__(self, answer: Any = None) -> None:
        self.answer = answer
        self.calls: list[tuple[str, str, dict[str, Any]]] = []

    async def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
        self.calls.append((method, path, kwargs))
        return self.answer

    request = request_json


async def test_what_a_payment_sends() -> None:
    fake = FakeTransport({"data": {"endToEndId": UNKNOWN_E2E, "status": "ON_QUEUE"}})
    client = AccountsClient(fake)  # type: ignore[arg-type]
    body = by_key("10.00")
    key = new_idempotency_key()
    payment = await client.pay_pix_dict(body, idempotency_key=key)
    assert payment.status is PaymentStatus.ON_QUEUE
    assert fake.calls == [
        ("POST", "/api/v2/pix/payments/dict", {"json": body, "idempotency_key": key})
    ]


async def test_what_queries_send() -> None:
    fake = FakeTransport({"data": [], "meta": {"page": 2, "perPage": 10, "totalItems": 0}})
    client = AccountsClient(fake)  # type: ignore[arg-type]
    await client.list_transactions(
        start_date=dt.date(2026, 11, 1),
        page=2,
        per_page=10,
        credit_debit_type=CreditDebitType.CREDIT,
    )
    method, path, kwargs = fake.calls[-1]
    assert (method, path) == ("GET", "/api/v2/accounts/transactions")
    assert kwargs["params"] == {
        "startDate": dt.date(2026, 11, 1),
        "endDate": None,
        "page": 2,
        "perPage": 10,
        "creditDebitType": CreditDebitType.CREDIT,
        "transactionType": None,
    }
    fake.answer = {"data": {"endToEndId": "x", "status": "SETTLED"}}
    await client.get_pix_payment("E1/../x y")  # path segments are percent-encoded
    assert fake.calls[-1][1] == "/api/v2/pix/payments/E1%2F..%2Fx%20y"
    fake.answer = {"data": {"billetCode": "1"}}
    slip = boleto.parse(
        boleto.build_bank_barcode(
            "237", Decimal("1.00"), dt.date(2026, 12, 1), "1234567890123456789012345"
        ),
        today=dt.date(2026, 11, 18),
    )
    await client.get_billet_info(slip.formatted_line)
    method, path, kwargs = fake.calls[-1]
    assert (method, path) == ("POST", "/api/v2/billets/info")
    assert kwargs["json"].to_wire() == {"billetCode": slip.barcode}


async def test_answers_that_do_not_fit_are_response_format_errors() -> None:
    fake = FakeTransport({"data": {"endToEndId": UNKNOWN_E2E}})  # no status
    client = AccountsClient(fake)  # type: ignore[arg-type]
    with pytest.raises(ResponseFormatError, match="status"):
        await client.get_pix_payment(UNKNOWN_E2E)
    fake.answer = ["not", "an", "object"]
    with pytest.raises(ResponseFormatError):
        await client.get_pix_payment(UNKNOWN_E2E)
    fake.answer = {"data": {"id": 1}}  # a list was expected
    with pytest.raises(ResponseFormatError):
        await client.list_webhooks()
    fake.answer = {"data": [{"balanceAmount": {"available": 1.5}}]}  # a float
    with pytest.raises(ResponseFormatError):
        await client.get_balances()
    fake.answer = {"data": {"pdf": base64.b64encode(b"<html>receipt</html>").decode()}}
    with pytest.raises(ResponseFormatError, match="not a PDF"):
        await client.get_pix_receipt(UNKNOWN_E2E)
    fake.answer = {"data": {"pdf": "%%% not base64 %%%"}}
    with pytest.raises(ResponseFormatError, match="base64"):
        await client.get_billet_receipt(1)


async def test_entries_pushed_to_the_next_page_are_not_yielded_twice() -> None:
    """A payment made between two page fetches shifts the newest-first statement by one."""

    def entry(entry_id: int) -> dict[str, Any]:
        return {
            "id": entry_id,
            "createdAt": f"2026-11-18T12:00:0{entry_id}.000Z",
            "creditDebitType": "DEBIT",
            "transactionType": "PIX",
            "amount": Decimal("1.00"),
        }

    pages = {
        1: {"data": [entry(4), entry(3)], "meta": {"page": 1, "perPage": 2, "totalPages": 2}},
        2: {"data": [entry(3), entry(2)], "meta": {"page": 2, "perPage": 2, "totalPages": 2}},
    }

    class Paged(FakeTransport):
        async def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
            self.calls.append((method, path, kwargs))
            return pages[kwargs["params"]["page"]]

    fake = Paged()
    client = AccountsClient(fake)  # type: ignore[arg-type]
    assert [t.id async for t in client.iter_transactions(per_page=2)] == [4, 3, 2]
    assert [call[2]["params"]["page"] for call in fake.calls] == [1, 2]


async def test_an_unwrapped_object_is_read_too() -> None:
    fake = FakeTransport({"endToEndId": UNKNOWN_E2E, "status": "LIQUIDATED", "id": 9})
    payment = await AccountsClient(fake).get_pix_payment(UNKNOWN_E2E)  # type: ignore[arg-type]
    assert (payment.id, payment.status) == (9, PaymentStatus.LIQUIDATED)


# Balance and statement ----------------------------------------------------------------------
async def test_balance(client: AccountsClient, billets_only: AccountsClient) -> None:
    balances = await client.get_balances()
    assert len(balances) == 1
    balance = balances[0]
    assert balance.ispb == "99999010"
    assert isinstance(balance.available, Decimal)
    assert balance.available > 0
    assert balance.available == balance.available.quantize(Decimal("0.01"))
    assert balance.balance_amount.currency == "BRL"
    with pytest.raises(Forbidden):
        await billets_only.get_balances()


async def test_list_transactions_and_filters(client: AccountsClient, control: Api) -> None:
    today = sandbox_today(control)
    start = today - dt.timedelta(days=60)
    page = await client.list_transactions(
        start_date=start, end_date=today, per_page=20, credit_debit_type=CreditDebitType.DEBIT
    )
    assert page.meta is not None
    assert (page.meta.page, page.meta.per_page) == (1, 20)
    assert len(page.items) == 20
    assert page.meta.total_pages == -(-page.meta.total_items // 20)
    assert {t.credit_debit_type for t in page.items} == {CreditDebitType.DEBIT}
    fees = await client.list_transactions(
        start_date=start, end_date=today, transaction_type=TransactionType.FEE
    )
    assert fees.items and {t.transaction_type for t in fees.items} == {TransactionType.FEE}
    second = await client.list_transactions(start_date=start, end_date=today, page=2, per_page=20)
    assert second.meta is not None and second.meta.page == 2

    with pytest.raises(BadRequest) as error:
        await client.list_transactions(start_date=today, end_date=today - dt.timedelta(days=1))
    assert "endDate" in error.value.properties
    with pytest.raises(BadRequest) as error:
        await client.list_transactions(credit_debit_type="BOTH")
    assert {v.propriedade for v in error.value.violacoes} == {"creditDebitType"}


async def test_statement_iterated_across_pages(
    client: AccountsClient, control: Api, accounts_transport: ApiTransport
) -> None:
    today = sandbox_today(control)
    start = today - dt.timedelta(days=120)  # the whole seeded history and the opening entry
    first = await client.list_transactions(start_date=start, end_date=today, per_page=50)
    assert first.meta is not None and first.meta.total_pages >= 4

    sent = accounts_transport.stats.requests
    entries = [
        t async for t in client.iter_transactions(start_date=start, end_date=today, per_page=50)
    ]
    assert accounts_transport.stats.requests - sent == first.meta.total_pages
    assert len(entries) == first.meta.total_items
    assert len({t.id for t in entries}) == len(entries)
    assert [t.id for t in entries[:50]] == [t.id for t in first.items]
    stamps = [t.created_at for t in entries]
    assert stamps == sorted(stamps, reverse=True)  # newest first
    # Every entry of the account, exactly: together they make the balance to the cent.
    balance = (await client.get_balances())[0].available
    assert sum((t.signed_amount for t in entries), Decimal("0.00")) == balance
    assert entries[0].balance_after == balance

    # Lazy: taking the first page's worth fetches one page only.
    sent = accounts_transport.stats.requests
    taken: list[Transaction] = []
    iterator = client.iter_transactions(start_date=start, end_date=today, per_page=50)
    async with contextlib.aclosing(iterator):  # type: ignore[type-var]
        async for entry in iterator:
            taken.append(entry)
            if len(taken) == 50:
                break
    assert taken == entries[:50]
    assert accounts_transport.stats.requests - sent == 1

    with pytest.raises(BadRequest) as error:
        [t async for t in client.iter_transactions(per_page=1001)]
    assert "perPage" in error.value.properties


async def test_transaction_by_id(client: AccountsClient) -> None:
    newest = (await client.list_transactions(per_page=1)).items[0]
    entry = await client.get_transaction(newest.id)
    assert entry == newest
    with pytest.raises(NotFound):
        await client.get_transaction(999_999_999)
    with pytest.raises(NotFound):
        await client.get_transaction("abc")


# Pix by key: the whole journey -------------------------------------------------------------
async def test_pay_by_key_until_settled_and_receipt(client: AccountsClient, control: Api) -> None:
    before = (await client.get_balances())[0].available
    key = new_idempotency_key()
    created = await client.pay_pix_dict(
        by_key("1234.56", description="Compra de materiais"), idempotency_key=key
    )
    assert created.status is PaymentStatus.ON_QUEUE
    assert not created.is_final
    assert is_valid_e2eid(created.end_to_end_id)
    assert created.idempotency_key == key
    assert created.amount == Decimal("1234.56")
    assert created.local_instrument is LocalInstrument.DICT
    assert created.pix_key_type is PixKeyType.EMAIL
    assert created.creditor_account is not None and created.creditor_account.name
    assert (await client.get_balances())[0].available == before - Decimal("1234.56")

    with pytest.raises(BusinessRuleViolation):  # no receipt before settlement
        await client.get_pix_receipt(created.end_to_end_id)

    control.advance(3.5)
    settled = await client.get_pix_payment(created.end_to_end_id)
    assert settled.status is PaymentStatus.SETTLED
    assert settled.is_final
    assert [h.status for h in settled.history] == ["ON_QUEUE", "PROCESSING", "SETTLED"]
    assert settled.created_at is not None and settled.settled_at is not None
    assert settled.settled_at - settled.created_at == dt.timedelta(seconds=3)
    assert await client.get_pix_payment_by_idempotency_key(key) == settled

    pdf = await client.get_pix_receipt(created.end_to_end_id)
    assert pdf.startswith(b"%PDF")
    assert b"%%EOF" in pdf[-64:]
    assert await client.get_pix_receipt(created.end_to_end_id) == pdf  # same payment, same file


async def test_reused_idempotency_key_is_412_and_debits_once(client: AccountsClient) -> None:
    key = new_idempotency_key()
    first = await client.pay_pix_dict(by_key("42.00"), idempotency_key=key)
    balance = (await client.get_balances())[0].available
    with pytest.raises(IdempotencyKeyReused) as error:
        await client.pay_pix_dict(by_key("42.00"), idempotency_key=key)
    assert error.value.status == 412
    with pytest.raises(IdempotencyKeyReused):
        await client.pay_pix_manu(manu(), idempotency_key=key)  # any payment endpoint
    with pytest.raises(IdempotencyKeyReused):
        await client.pay_pix_qrc(PixQrCodePaymentRequest(qr_code=static_qr()), idempotency_key=key)
    assert (await client.get_balances())[0].available == balance
    found = await client.get_pix_payment_by_idempotency_key(key)
    assert found.end_to_end_id == first.end_to_end_id


async def test_pay_by_key_errors(client: AccountsClient) -> None:
    balance = (await client.get_balances())[0].available
    with pytest.raises(BadRequest) as error:
        await client.pay_pix_dict(
            by_key("5.00", priority=Priority.HIGH), idempotency_key=new_idempotency_key()
        )
    assert "creditorDocument" in error.value.properties
    assert error.value.violacoes[0].razao
    with pytest.raises(BadRequest) as error:
        await client.pay_pix_dict(
            by_key("1.00", pix_key="52998224725", pix_key_type=PixKeyType.EMAIL),
            idempotency_key=new_idempotency_key(),
        )
    assert "pixKey" in error.value.properties
    with pytest.raises(BusinessRuleViolation) as rule:
        await client.pay_pix_dict(
            by_key("10.00", pix_key="ninguem@naoexiste.sandbox"),
            idempotency_key=new_idempotency_key(),
        )
    assert rule.value.type.endswith("ChaveNaoEncontrada")
    with pytest.raises(BusinessRuleViolation, match=r"1\.000\.000,00"):  # per-Pix limit
        await client.pay_pix_dict(by_key("1000000.01"), idempotency_key=new_idempotency_key())
    assert (await client.get_balances())[0].available == balance


async def test_high_priority_with_creditor_document(client: AccountsClient) -> None:
    payment = await client.pay_pix_dict(
        by_key(
            "5.00",
            pix_key="52998224725",
            pix_key_type=PixKeyType.CPF,
            priority=Priority.HIGH,
            creditor_document="529.982.247-25",
        ),
        idempotency_key=new_idempotency_key(),
    )
    assert payment.priority is Priority.HIGH
    assert payment.creditor_account is not None
    assert payment.creditor_account.document == "52998224725"


async def test_approval_required_payment_approved_in_the_console(
    client: AccountsClient, control: Api
) -> None:
    before = (await client.get_balances())[0].available
    held = await client.pay_pix_dict(
        by_key("555.55", payment_flow=PaymentFlow.APPROVAL_REQUIRED, expiration=600),
        idempotency_key=new_idempotency_key(),
    )
    assert held.status is PaymentStatus.WAITING_APPROVAL
    assert held.payment_flow is PaymentFlow.APPROVAL_REQUIRED
    assert not held.is_final
    assert (await client.get_balances())[0].available == before  # nothing debited yet
    control.advance(2)
    assert (await client.get_pix_payment(held.end_to_end_id)).status == "WAITING_APPROVAL"

    control.control("POST", f"/sandbox/pix/{held.end_to_end_id}/approve")
    approved = await client.get_pix_payment(held.end_to_end_id)
    assert approved.status is PaymentStatus.ON_QUEUE
    assert (await client.get_balances())[0].available == before - Decimal("555.55")
    control.advance(3.5)
    settled = await client.get_pix_payment(held.end_to_end_id)
    assert settled.status is PaymentStatus.SETTLED
    assert [h.status for h in settled.history] == [
        "WAITING_APPROVAL",
        "ON_QUEUE",
        "PROCESSING",
        "SETTLED",
    ]


async def test_rejected_payment_is_final_and_has_no_receipt(
    client: AccountsClient, control: Api
) -> None:
    held = await client.pay_pix_dict(
        by_key("88.00", payment_flow=PaymentFlow.APPROVAL_REQUIRED),
        idempotency_key=new_idempotency_key(),
    )
    control.control("POST", f"/sandbox/pix/{held.end_to_end_id}/reject")
    rejected = await client.get_pix_payment(held.end_to_end_id)
    assert rejected.status is PaymentStatus.CANCELED
    assert rejected.is_final
    assert rejected.error_code == "REJECTED_BY_APPROVER"
    with pytest.raises(BusinessRuleViolation):
        await client.get_pix_receipt(held.end_to_end_id)


async def test_unknown_payment_queries_are_404(client: AccountsClient) -> None:
    with pytest.raises(NotFound) as error:
        await client.get_pix_payment(UNKNOWN_E2E)
    assert error.value.status == 404
    with pytest.raises(NotFound):
        await client.get_pix_payment_by_idempotency_key(new_idempotency_key())
    with pytest.raises(NotFound):
        await client.get_pix_receipt(UNKNOWN_E2E)


# Pix by QR Code and by bank data -----------------------------------------------------------
def static_qr(amount: Decimal | None = Decimal("25.50")) -> str:
    return brcode.build(
        merchant_name="Padaria Pao Quente",
        merchant_city="Sao Paulo",
        key="padaria@paoquente.com.br",
        amount=amount,
        txid="PEDIDO123",
    )


async def test_pay_by_qr_code(client: AccountsClient) -> None:
    payment = await client.pay_pix_qrc(
        PixQrCodePaymentRequest(qr_code=static_qr(), description="Pão"),
        idempotency_key=new_idempotency_key(),
    )
    assert payment.status is PaymentStatus.ON_QUEUE
    assert payment.amount == Decimal("25.50")
    assert payment.local_instrument is LocalInstrument.QRES
    assert payment.tx_id == "PEDIDO123"
    assert payment.pix_key == "padaria@paoquente.com.br"
    open_amount = await client.pay_pix_qrc(
        PixQrCodePaymentRequest(qr_code=static_qr(None), payment=brl("7.77")),
        idempotency_key=new_idempotency_key(),
    )
    assert open_amount.amount == Decimal("7.77")


async def test_pay_by_qr_code_errors(client: AccountsClient) -> None:
    payload = static_qr()
    altered = payload[:-4] + ("0000" if payload[-4:] != "0000" else "FFFF")
    with pytest.raises(BadRequest) as error:
        await client.pay_pix_qrc(
            PixQrCodePaymentRequest(qr_code=altered), idempotency_key=new_idempotency_key()
        )
    assert error.value.properties == {"qrCode"}
    with pytest.raises(BusinessRuleViolation):  # amount differs from the code's
        await client.pay_pix_qrc(
            PixQrCodePaymentRequest(qr_code=payload, payment=brl("25.00")),
            idempotency_key=new_idempotency_key(),
        )


async def test_pay_by_bank_data(client: AccountsClient) -> None:
    payment = await client.pay_pix_manu(manu("321.09"), idempotency_key=new_idempotency_key())
    assert payment.status is PaymentStatus.ON_QUEUE
    assert payment.local_instrument is LocalInstrument.MANU
    assert payment.amount == Decimal("321.09")
    assert payment.creditor_account is not None
    assert payment.creditor_account.account_type is AccountType.SVGS
    assert payment.creditor_account.number == "987654"
    assert payment.creditor_account.document == "52998224725"


async def test_pay_by_bank_data_errors(client: AccountsClient) -> None:
    with pytest.raises(BadRequest) as error:
        await client.pay_pix_manu(
            manu(ispb="1234567", issuer="12345", document="52998224724"),
            idempotency_key=new_idempotency_key(),
        )
    assert error.value.properties == {
        "creditorAccount.ispb",
        "creditorAccount.issuer",
        "creditorAccount.document",
    }


# Webhooks -----------------------------------------------------------------------------------
async def test_webhook_lifecycle(client: AccountsClient, billets_only: AccountsClient) -> None:
    config = WebhookConfig(
        uri=HOOK_URI,
        enabled=False,  # the sandbox must not try to deliver to it meanwhile
        email="tesouraria@example.com.br",
        method=WebhookMethod.POST,
        pause_on_fail=True,
        headers={"X-Api-Key": "abc123"},
    )
    created = await client.post_webhook(WebhookType.REFUND, config)
    try:
        assert created.type is WebhookType.REFUND
        assert (created.uri, created.enabled, created.pause_on_fail) == (HOOK_URI, False, True)
        assert created.headers == {"X-Api-Key": "abc123"}
        assert created.email == "tesouraria@example.com.br"
        assert await client.get_webhook("refund") == created
        assert await client.get_webhook_by_id(created.id) == created
        replaced = await client.post_webhook("REFUND", config.model_copy(update={"email": None}))
        assert replaced.id == created.id  # one per type
        cashout = await client.post_webhook(
            WebhookType.CASHOUT, WebhookConfig(uri=HOOK_URI + "/cashout", enabled=False)
        )
        listed = {w.id: w for w in await client.list_webhooks()}
        assert listed[created.id].type is WebhookType.REFUND
        assert listed[cashout.id].uri == HOOK_URI + "/cashout"
        assert listed[cashout.id].method is WebhookMethod.POST  # the bank's default

        await client.delete_webhook(WebhookType.REFUND)
        with pytest.raises(NotFound):
            await client.get_webhook(WebhookType.REFUND)
        with pytest.raises(NotFound):
            await client.delete_webhook("refund")
        with pytest.raises(NotFound):
            await client.get_webhook_by_id(created.id)
        await client.delete_webhook_by_id(cashout.id)
        with pytest.raises(NotFound):
            await client.delete_webhook_by_id(cashout.id)
        assert {created.id, cashout.id}.isdisjoint(w.id for w in await client.list_webhooks())
    finally:
        for kind in (WebhookType.REFUND, WebhookType.CASHOUT):
            with contextlib.suppress(NotFound):
                await client.delete_webhook(kind)
    with pytest.raises(Forbidden):
        await billets_only.list_webhooks()


async def test_webhook_validation(client: AccountsClient) -> None:
    with pytest.raises(BadRequest) as error:
        await client.post_webhook(
            WebhookType.TRANSFER, WebhookConfig(uri="http://erp.example.com.br/hooks")
        )
    assert error.value.properties == {"uri"}
    with pytest.raises(NotFound):
        await client.get_webhook(WebhookType.TRANSFER)  # nothing was stored


# Infractions --------------------------------------------------------------------------------
async def test_infractions(client: AccountsClient) -> None:
    page = await client.list_infractions()
    assert page.meta is not None and page.meta.total_items == len(page.items) == 3
    assert InfractionStatus.CLOSED in {i.status for i in page.items}
    assert all(isinstance(i.status, InfractionStatus) for i in page.items)
    stamps = [i.created_at for i in page.items]
    assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]
    closed = await client.list_infractions(status=InfractionStatus.CLOSED)
    assert [i.status for i in closed.items] == [InfractionStatus.CLOSED]
    one_by_one = [i async for i in client.iter_infractions(per_page=1)]
    assert [i.id for i in one_by_one] == [i.id for i in page.items]
    first = await client.get_infraction(page.items[0].id)
    assert first.id == page.items[0].id
    assert first.amount is not None and first.amount > 0

    with pytest.raises(BadRequest) as error:
        await client.list_infractions(per_page=0)
    assert "perPage" in error.value.properties
    with pytest.raises(BadRequest):
        [i async for i in client.iter_infractions(per_page=0)]
    with pytest.raises(NotFound):
        await client.get_infraction("INF000")


async def test_defenses(client: AccountsClient) -> None:
    infractions = (await client.list_infractions()).items
    target = next(i for i in infractions if i.status != InfractionStatus.CLOSED)
    before = await client.list_defenses(target.id)
    defense = await client.post_defense(
        target.id,
        DefenseRequest(
            description="O pagamento foi autorizado pelo cliente; segue contrato.",
            attachments=[DefenseAttachment(name="contrato.pdf")],
        ),
    )
    assert defense.status == "SUBMITTED"
    assert defense.infraction_id == target.id
    assert defense.attachments == [DefenseAttachment(name="contrato.pdf")]
    after = await client.list_defenses(target.id)
    assert [d.id for d in after] == [d.id for d in before] + [defense.id]
    assert (await client.get_infraction(target.id)).status is InfractionStatus.UNDER_REVIEW

    with pytest.raises(BadRequest) as error:
        await client.post_defense(target.id, DefenseRequest(description="   "))
    assert error.value.properties == {"description"}
    closed = next(i for i in infractions if i.status == InfractionStatus.CLOSED)
    with pytest.raises(BusinessRuleViolation):
        await client.post_defense(closed.id, DefenseRequest(description="Tarde demais."))
    with pytest.raises(NotFound):
        await client.post_defense("INF000", DefenseRequest(description="x"))
    with pytest.raises(NotFound):
        await client.list_defenses("INF000")
