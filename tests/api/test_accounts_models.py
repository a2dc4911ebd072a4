"""Wire models of the Accounts API, without a bank: sandbox-shaped bodies read into exact
Decimals and enums, request bodies written with exact JSON numbers, unknown statuses and
fields kept, webhook notifications told apart by their type."""

from __future__ import annotations

import base64
import datetime as dt
from decimal import Decimal
from typing import Any

import pytest
from pydantic import ValidationError

from treasury_app.api.accounts.models import (
    FAILED_STATUSES,
    FINAL_BILLET_STATUSES,
    FINAL_PIX_STATUSES,
    PENDING_STATUSES,
    RECEIPT_STATUSES,
    AccountType,
    Balance,
    BilletCodePaymentRequest,
    BilletDetails,
    BilletInfo,
    BilletPayment,
    BilletPaymentRequest,
    BilletType,
    CashoutNotification,
    CreditDebitType,
    Defense,
    DefenseAttachment,
    DefenseRequest,
    Infraction,
    InfractionReason,
    InfractionStatus,
    LocalInstrument,
    ManualCreditorAccount,
    OtherNotification,
    Page,
    PaymentAmount,
    PaymentFlow,
    PaymentStatus,
    PixKeyPaymentRequest,
    PixKeyType,
    PixManualPaymentRequest,
    PixPayment,
    PixQrCodePaymentRequest,
    Priority,
    Receipt,
    ReceiveNotification,
    RefundNotification,
    Transaction,
    TransactionType,
    TransferNotification,
    Webhook,
    WebhookConfig,
    WebhookMethod,
    WebhookType,
    is_failed_status,
    is_final_status,
    is_success_status,
    notification_model,
)
from treasury_app.api.errors import ResponseFormatError
from treasury_app.api.modeling import parse_model
from treasury_app.domain.money import dumps_json, loads_json

E2E = "E99999010202611181300AbCdEfGhIjK"
UTC = dt.UTC


def wire(text: str) -> Any:
    """A bank body as the transport reads it (numbers as Decimal)."""
    return loads_json(text)


PIX_PAYMENT = f"""{{
  "id": 1000007, "endToEndId": "{E2E}", "idempotencyKey": "abc123XYZ",
  "transactionType": "PIX", "localInstrument": "DICT", "status": "SETTLED",
  "errorCode": null, "paymentFlow": "INSTANT", "priority": "NORM", "expiration": null,
  "description": "Compra de materiais", "remittanceInformation": "Compra de materiais",
  "pixKey": "fornecedor@empresa.com.br", "pixKeyType": "EMAIL",
  "creditorAccount": {{"ispb": "60746948", "issuer": "0042", "number": "7654321",
                       "accountType": "CACC", "document": "11444777000161",
                       "name": "Distribuidora Horizonte Ltda"}},
  "debtorAccount": {{"ispb": "99999010", "issuer": "0001", "number": "1234567",
                     "accountType": "CACC", "document": "11222333000181",
                     "name": "Empresa Sandbox Comércio Ltda"}},
  "payment": {{"currency": "BRL", "amount": 1234.56}},
  "refunds": [{{"endToEndId": "D60746948202611181305AbCdEfGhIjK", "status": "SETTLED",
               "errorCode": null, "amount": 30.00,
               "pixRefundAmount": {{"currency": "BRL", "amount": 30.00}},
               "createdAt": "2026-11-18T13:05:00.000Z"}}],
  "createdAt": "2026-11-18T13:00:00.000Z", "updatedAt": "2026-11-18T13:00:03.000Z",
  "settledAt": "2026-11-18T13:00:03.000Z",
  "history": [{{"status": "ON_QUEUE", "at": "2026-11-18T13:00:00.000Z"}},
              {{"status": "PROCESSING", "at": "2026-11-18T13:00:01.000Z"}},
              {{"status": "SETTLED", "at": "2026-11-18T13:00:03.000Z"}}]
}}"""


# Pix payments -------------------------------------------------------------------------------
def test_pix_payment_from_a_sandbox_body() -> None:
    payment = parse_model(PixPayment, wire(PIX_PAYMENT))
    assert payment.end_to_end_id == E2E
    assert payment.id == 1000007
    assert payment.status is PaymentStatus.SETTLED
    assert payment.local_instrument is LocalInstrument.DICT
    assert payment.payment_flow is PaymentFlow.INSTANT
    assert payment.priority is Priority.NORM
    assert payment.pix_key_type is PixKeyType.EMAIL
    assert payment.amount == Decimal("1234.56")
    assert isinstance(payment.amount, Decimal)
    assert payment.creditor_account is not None
    assert payment.creditor_account.account_type is AccountType.CACC
    assert payment.creditor_account.issuer == "0042"
    assert payment.debtor_account is not None
    assert payment.debtor_account.document == "11222333000181"
    assert payment.settled_at == dt.datetime(2026, 11, 18, 13, 0, 3, tzinfo=UTC)
    assert [h.status for h in payment.history] == ["ON_QUEUE", "PROCESSING", "SETTLED"]
    assert payment.history[1].at == dt.datetime(2026, 11, 18, 13, 0, 1, tzinfo=UTC)
    assert payment.refunds[0].value == Decimal("30.00")
    assert payment.refunded_amount == Decimal("30.00")
    assert payment.is_final


def test_pix_payment_keeps_unknown_status_and_fields() -> None:
    body = wire(PIX_PAYMENT)
    body.update(status="SCHEDULED", ispbDeny=["00000000"], newField={"x": 1})
    body["history"].append({"status": "SCHEDULED", "at": "2026-11-18T13:00:04.000Z"})
    payment = parse_model(PixPayment, body)
    assert payment.status == "SCHEDULED"
    assert not isinstance(payment.status, PaymentStatus)
    assert payment.history[-1].status == "SCHEDULED"
    assert not payment.is_final  # unknown: keep following it
    assert payment.model_extra == {"ispbDeny": ["00000000"], "newField": {"x": 1}}
    assert payment.to_wire()["newField"] == {"x": 1}


def test_minimal_creation_answer_of_a_real_integration() -> None:
    """A 202 of the ONZ sandbox carries far fewer fields; it must still be read."""
    body = wire(
        '{"endToEndId": "E330535802025010903562129126f6b8", "eventDate":'
        ' "2025-01-09T03:56:21.291+00:00", "status": "PENDING", "id": 1448625,'
        ' "payment": {"currency": "BRL", "amount": 0.5}, "type": "QUEUED"}'
    )
    payment = parse_model(PixPayment, body)
    assert payment.status == "PENDING"
    assert payment.amount == Decimal("0.50")
    assert payment.history == [] and payment.refunds == []


def test_pix_payment_without_status_is_a_format_error() -> None:
    body = wire(PIX_PAYMENT)
    del body["status"]
    with pytest.raises(ResponseFormatError, match="status"):
        parse_model(PixPayment, body)


def test_float_amounts_from_the_bank_are_refused() -> None:
    body = wire(PIX_PAYMENT)
    body["payment"]["amount"] = 1234.56  # a float: the JSON was not read with loads_json
    with pytest.raises(ResponseFormatError, match="payment"):
        parse_model(PixPayment, body)


def test_timestamps_with_offsets_become_utc() -> None:
    body = wire(PIX_PAYMENT)
    body["createdAt"] = "2026-11-18T10:00:00.000-03:00"
    payment = parse_model(PixPayment, body)
    assert payment.created_at == dt.datetime(2026, 11, 18, 13, 0, tzinfo=UTC)
    assert payment.created_at is not None and payment.created_at.tzinfo == UTC


# Requests -----------------------------------------------------------------------------------
def test_pay_by_key_body_has_exact_json_numbers() -> None:
    request = PixKeyPaymentRequest(
        pix_key="fornecedor@empresa.com.br",
        pix_key_type=PixKeyType.EMAIL,
        payment=PaymentAmount(amount=Decimal("1234.56")),
        description="Compra",
        payment_flow=PaymentFlow.APPROVAL_REQUIRED,
        priority=Priority.HIGH,
        expiration=600,
        creditor_document="11444777000161",
    )
    text = dumps_json(request.to_wire())
    assert '"amount": 1234.56' in text
    assert loads_json(text) == {
        "pixKey": "fornecedor@empresa.com.br",
        "pixKeyType": "EMAIL",
        "payment": {"currency": "BRL", "amount": Decimal("1234.56")},
        "description": "Compra",
        "paymentFlow": "APPROVAL_REQUIRED",
        "priority": "HIGH",
        "expiration": 600,
        "creditorDocument": "11444777000161",
    }


@pytest.mark.parametrize(
    ("amount", "written"),
    [
        (Decimal("10"), "10.00"),
        (Decimal("0.1"), "0.10"),
        (Decimal("999999999.99"), "999999999.99"),
        (Decimal("0.30"), "0.30"),
        (7, "7.00"),
    ],
)
def test_amounts_are_written_with_two_places_never_through_float(
    amount: Decimal | int, written: str
) -> None:
    text = dumps_json(PaymentAmount(amount=amount).to_wire())
    assert text == f'{{"currency": "BRL", "amount": {written}}}'


@pytest.mark.parametrize("amount", [1.1, True, "abc", Decimal("1.234"), None])
def test_bad_amounts_are_refused_in_requests(amount: Any) -> None:
    with pytest.raises(ValidationError):
        PaymentAmount(amount=amount)


def test_optional_fields_are_left_out() -> None:
    request = PixKeyPaymentRequest(
        pix_key="52998224725",
        pix_key_type=PixKeyType.CPF,
        payment=PaymentAmount(amount=Decimal("5.00")),
    )
    assert request.to_wire() == {
        "pixKey": "52998224725",
        "pixKeyType": "CPF",
        "payment": {"currency": "BRL", "amount": Decimal("5.00")},
    }


def test_requests_take_known_values_only() -> None:
    with pytest.raises(ValidationError):
        PixKeyPaymentRequest(
            pix_key="a@b.com.br",
            pix_key_type="MAIL",  # type: ignore[arg-type]
            payment=PaymentAmount(amount=Decimal("1.00")),
        )
    with pytest.raises(ValidationError):
        ManualCreditorAccount(
            ispb="60746948",
            issuer="1234",
            number="987654",
            account_type="CURRENT",  # type: ignore[arg-type]
            document="52998224725",
            name="Maria",
        )


def test_qr_code_body_without_amount() -> None:
    request = PixQrCodePaymentRequest(qr_code="000201...6304ABCD")
    assert request.to_wire() == {"qrCode": "000201...6304ABCD"}
    with_amount = PixQrCodePaymentRequest(
        qr_code="000201", payment=PaymentAmount(amount=Decimal("25.5"))
    )
    assert '"amount": 25.50' in dumps_json(with_amount.to_wire())


def test_bank_data_body() -> None:
    request = PixManualPaymentRequest(
        creditor_account=ManualCreditorAccount(
            ispb="60746948",
            issuer="1234",
            number="98765-4",
            account_type=AccountType.SVGS,
            document="52998224725",
            name="Maria da Silva",
        ),
        payment=PaymentAmount(amount=Decimal("321.09")),
        description="Reembolso",
    )
    assert loads_json(dumps_json(request.to_wire())) == {
        "description": "Reembolso",
        "creditorAccount": {
            "ispb": "60746948",
            "issuer": "1234",
            "number": "98765-4",
            "accountType": "SVGS",
            "document": "52998224725",
            "name": "Maria da Silva",
        },
        "payment": {"currency": "BRL", "amount": Decimal("321.09")},
    }


def test_camel_case_names_are_accepted_on_input() -> None:
    request = PixKeyPaymentRequest.model_validate(
        {"pixKey": "a@b.com.br", "pixKeyType": "EMAIL", "payment": {"amount": Decimal("1.5")}}
    )
    assert request.pix_key == "a@b.com.br"
    assert request.payment.amount == Decimal("1.50")


# Balance and statement ----------------------------------------------------------------------
def test_balance() -> None:
    body = wire(
        '{"data": [{"accountNumber": "1234567", "branch": "0001", "ispb": "99999010",'
        ' "balanceAmount": {"currency": "BRL", "available": 1249876.54, "blocked": 0.00,'
        ' "overdraft": 0.00}, "updatedAt": "2026-11-18T13:00:00.000Z"}]}'
    )
    balance = parse_model(Balance, body["data"][0])
    assert balance.available == Decimal("1249876.54")
    assert balance.balance_amount.blocked == Decimal("0.00")
    assert balance.account_number == "1234567"


def test_statement_page() -> None:
    body = wire(
        '{"data": [{"id": 251, "createdAt": "2026-11-18T13:00:00.000Z",'
        ' "creditDebitType": "DEBIT", "transactionType": "PIX", "amount": 150.25,'
        ' "balanceAfter": 1249849.75, "description": "Teste", "endToEndId": "' + E2E + '",'
        ' "paymentId": 1000001, "counterparty": {"name": "Ana", "document": "52998224725",'
        ' "ispb": "60746948"}},'
        ' {"id": 250, "createdAt": "2026-11-17T18:00:00.000Z", "creditDebitType": "CREDIT",'
        ' "transactionType": "CASHBACK", "amount": 10, "balanceAfter": 1250000.00}],'
        ' "meta": {"page": 1, "perPage": 50, "totalItems": 2, "totalPages": 1,'
        ' "startDate": "2026-10-19", "endDate": "2026-11-18"}}'
    )
    page = parse_model(Page[Transaction], body)
    first, second = page.items
    assert first.credit_debit_type is CreditDebitType.DEBIT
    assert first.transaction_type is TransactionType.PIX
    assert first.signed_amount == Decimal("-150.25")
    assert first.counterparty is not None and first.counterparty.ispb == "60746948"
    assert second.transaction_type == "CASHBACK"  # unknown type kept
    assert second.signed_amount == Decimal("10.00")
    assert page.meta is not None
    assert (page.meta.page, page.meta.per_page, page.meta.total_items) == (1, 50, 2)
    assert page.total_pages == 1
    assert page.meta.model_extra == {"startDate": "2026-10-19", "endDate": "2026-11-18"}


def test_page_without_meta_is_one_page() -> None:
    page = parse_model(Page[Webhook], {"data": []})
    assert page.items == [] and page.total_pages == 1


# Receipts -----------------------------------------------------------------------------------
def test_receipt_decodes_to_pdf_bytes() -> None:
    pdf = b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF\n"
    receipt = parse_model(
        Receipt,
        {
            "pdf": base64.b64encode(pdf).decode(),
            "fileName": "comprovante.pdf",
            "contentType": "application/pdf",
        },
    )
    assert receipt.pdf_bytes() == pdf
    assert receipt.file_name == "comprovante.pdf"


@pytest.mark.parametrize(
    "content", [base64.b64encode(b"<html>no</html>").decode(), "not base64 at all!"]
)
def test_receipt_that_is_not_a_pdf(content: str) -> None:
    with pytest.raises(ValueError):
        Receipt(pdf=content).pdf_bytes()


# Webhooks -----------------------------------------------------------------------------------
def test_webhook_config_body() -> None:
    config = WebhookConfig(
        uri="https://erp.example.com.br/hooks/pix",
        enabled=True,
        email="tesouraria@example.com.br",
        method=WebhookMethod.POST,
        pause_on_fail=True,
        headers={"X-Api-Key": "abc123"},
    )
    assert config.to_wire() == {
        "uri": "https://erp.example.com.br/hooks/pix",
        "enabled": True,
        "email": "tesouraria@example.com.br",
        "method": "POST",
        "pauseOnFail": True,
        "headers": {"X-Api-Key": "abc123"},
    }
    assert WebhookConfig(uri="https://h.example").to_wire() == {"uri": "https://h.example"}


def test_webhook_answer() -> None:
    webhook = parse_model(
        Webhook,
        {
            "id": 3,
            "type": "CASHOUT",
            "uri": "https://h.example/x",
            "method": "POST",
            "enabled": False,
            "pauseOnFail": True,
            "email": None,
            "headers": {},
            "createdAt": "2026-11-18T13:00:00.000Z",
            "updatedAt": "2026-11-18T13:01:00.000Z",
        },
    )
    assert webhook.type is WebhookType.CASHOUT
    assert webhook.method is WebhookMethod.POST
    assert (webhook.enabled, webhook.pause_on_fail) == (False, True)
    assert webhook.updated_at == dt.datetime(2026, 11, 18, 13, 1, tzinfo=UTC)


def test_transfer_notification() -> None:
    body = {"type": "TRANSFER", "data": {**wire(PIX_PAYMENT), "webhookType": "TRANSFER"}}
    model = notification_model(body)
    assert model is TransferNotification
    notification = parse_model(model, body)
    assert isinstance(notification, TransferNotification)
    assert notification.data.end_to_end_id == E2E
    assert notification.data.status is PaymentStatus.SETTLED
    assert notification.data.webhook_type is WebhookType.TRANSFER
    assert notification.data.amount == Decimal("1234.56")


def test_receive_and_refund_notifications() -> None:
    receive = wire(
        '{"type": "RECEIVE", "data": {"id": 300, "createdAt": "2026-11-18T13:02:00.000Z",'
        ' "creditDebitType": "CREDIT", "transactionType": "PIX", "amount": 250.10,'
        ' "balanceAfter": 1250250.10, "description": "Pix recebido de Ana",'
        ' "endToEndId": "' + E2E + '", "txId": null, "counterparty": {"name": "Ana",'
        ' "document": "52998224725", "ispb": "60746948"}, "webhookType": "RECEIVE"}}'
    )
    notification = parse_model(notification_model(receive), receive)
    assert isinstance(notification, ReceiveNotification)
    assert notification.data.value == Decimal("250.10")
    assert notification.data.counterparty is not None
    assert notification.data.counterparty.name == "Ana"

    # An integration of this API sent the amount as a string inside payment.
    onz = {"type": "REFUND", "data": {"payment": {"currency": "BRL", "amount": "1.00"}}}
    refund = parse_model(notification_model(onz), onz)
    assert isinstance(refund, RefundNotification)
    assert refund.data.value == Decimal("1.00")


def test_cashout_notification() -> None:
    body = wire(
        '{"data": {"status": "REJECTED", "message": "Chave Pix não encontrada",'
        ' "createdAt": "2025-01-15T14:13:36.321+00:00",'
        ' "endToEndId": "E330535802025011514133210140cb10", "webhookType": "CASHOUT",'
        ' "idempotencyKey": "8ad0801d"}, "type": "CASHOUT",'
        ' "transaction": {"status": "REJECTED", "message": "Chave Pix não encontrada",'
        ' "reference": "8ad0801d"}}'
    )
    notification = parse_model(notification_model(body), body)
    assert isinstance(notification, CashoutNotification)
    assert notification.data.status is PaymentStatus.REJECTED
    assert is_failed_status(notification.data.status)
    assert notification.transaction is not None
    assert notification.transaction.reference == "8ad0801d"


@pytest.mark.parametrize(
    "body", [{"type": "INFRACTION", "data": {"id": "X"}}, {"data": {}}, ["not", "an", "object"]]
)
def test_other_notifications_are_kept_raw(body: Any) -> None:
    assert notification_model(body) is OtherNotification
    if isinstance(body, dict) and "type" in body:
        notification = parse_model(OtherNotification, body)
        assert notification.type == "INFRACTION"
        assert notification.data == {"id": "X"}


# Infractions --------------------------------------------------------------------------------
def test_infraction_with_defense() -> None:
    body = wire(
        '{"id": "INF2026111612345678", "endToEndId": "' + E2E + '",'
        ' "reportedBy": "DEBITED_PARTICIPANT", "reason": "FRAUD",'
        ' "situation": "FRAUD_SUSPECTED", "status": "UNDER_REVIEW", "amount": 1850.00,'
        ' "description": "Suspeita", "counterparty": {"name": "Ana", "document": "52998224725"},'
        ' "createdAt": "2026-11-16T13:00:00.000Z", "defenseDeadline": "2026-11-23T13:00:00.000Z",'
        ' "analysisResult": null, "defenses": [{"id": 1, "infractionId": "INF2026111612345678",'
        ' "description": "Autorizado", "attachments": [{"name": "contrato.pdf"}],'
        ' "status": "SUBMITTED", "createdAt": "2026-11-18T13:00:00.000Z"}]}'
    )
    infraction = parse_model(Infraction, body)
    assert infraction.status is InfractionStatus.UNDER_REVIEW
    assert infraction.reason is InfractionReason.FRAUD
    assert infraction.amount == Decimal("1850.00")
    assert infraction.defense_deadline == dt.datetime(2026, 11, 23, 13, tzinfo=UTC)
    defense = infraction.defenses[0]
    assert isinstance(defense, Defense)
    assert defense.attachments == [DefenseAttachment(name="contrato.pdf")]
    assert defense.status == "SUBMITTED"
    body["status"] = "ARCHIVED"
    assert parse_model(Infraction, body).status == "ARCHIVED"


def test_defense_request() -> None:
    request = DefenseRequest(
        description="Segue contrato.", attachments=[DefenseAttachment(name="contrato.pdf")]
    )
    assert request.to_wire() == {
        "description": "Segue contrato.",
        "attachments": [{"name": "contrato.pdf"}],
    }
    assert DefenseRequest(description="x").to_wire() == {"description": "x"}


# Boletos ------------------------------------------------------------------------------------
BILLET_INFO = """{
  "billetCode": "23791766600000022002092503000123456789012345",
  "barcode": "23791766600000022002092503000123456789012345",
  "digitableCode": "23792092530300012345067890123454176660000002200",
  "type": "BANK", "dueDate": "2026-11-08", "paymentLimitDate": "2027-01-07",
  "originalAmount": 2200.00, "fine": 44.00, "interest": 7.33, "discount": 0.00,
  "totalUpdated": 2251.33, "daysLate": 10, "allowChangeValue": false,
  "beneficiary": {"name": "Tecnologia Aurora Ltda", "document": "11444777000161",
                  "bankCode": "237", "bankName": "Banco Bradesco S.A.", "ispb": "60746948",
                  "branch": "0042", "account": "7654321"},
  "payer": {"name": "Empresa Sandbox Comércio Ltda", "document": "11222333000181"}
}"""


def test_billet_info() -> None:
    info = parse_model(BilletInfo, wire(BILLET_INFO))
    assert info.type is BilletType.BANK
    assert info.due_date == dt.date(2026, 11, 8)
    assert info.payment_limit_date == dt.date(2027, 1, 7)
    assert (info.original_amount, info.fine, info.interest) == (
        Decimal("2200.00"),
        Decimal("44.00"),
        Decimal("7.33"),
    )
    assert info.total_updated == Decimal("2251.33")
    assert info.days_late == 10
    assert info.allow_change_value is False
    assert info.beneficiary is not None and info.beneficiary.bank_code == "237"
    assert info.payer is not None and info.payer.document == "11222333000181"
    assert info.to_wire()["dueDate"] == "2026-11-08"


def test_free_value_billet_info_has_no_total() -> None:
    body = wire(BILLET_INFO)
    body.update(originalAmount=None, totalUpdated=None, allowChangeValue=True, dueDate=None)
    info = parse_model(BilletInfo, body)
    assert info.total_updated is None and info.due_date is None
    assert info.allow_change_value is True


def test_billet_payment_requests() -> None:
    by_line = BilletPaymentRequest(
        digitable_code="23792.09253 03000.123450 67890.123454 1 76660000002200",
        description="Fornecedor",
        payment=PaymentAmount(amount=Decimal("2251.33")),
        payment_flow=PaymentFlow.INSTANT,
    )
    text = dumps_json(by_line.to_wire())
    assert '"amount": 2251.33' in text
    assert loads_json(text)["digitableCode"].startswith("23792.09253")
    by_code = BilletCodePaymentRequest(billet_code="23791766600000022002092503000123456789012345")
    assert by_code.to_wire() == {"billetCode": "23791766600000022002092503000123456789012345"}


def test_billet_payment_and_details() -> None:
    info = wire(BILLET_INFO)
    payment_body = {
        "id": 5003,
        "idempotencyKey": "k1",
        "transactionType": "BILLET",
        "status": "LIQUIDATED",
        "errorCode": None,
        "paymentFlow": "INSTANT",
        "digitableCode": info["digitableCode"],
        "barcode": info["barcode"],
        "dueDate": "2026-11-08",
        "payment": {"currency": "BRL", "amount": Decimal("2251.33")},
        "creditorAccount": {"ispb": "60746948", "accountType": "CACC", "name": "Aurora"},
        "debtorAccount": {"document": "11222333000181", "accountType": "CACC"},
        "createdAt": "2026-11-18T13:00:00.000Z",
        "updatedAt": "2026-11-18T13:00:04.000Z",
        "settledAt": "2026-11-18T13:00:04.000Z",
        "history": [
            {"status": "ON_QUEUE", "at": "2026-11-18T13:00:00.000Z"},
            {"status": "LIQUIDATED", "at": "2026-11-18T13:00:04.000Z"},
        ],
    }
    payment = parse_model(BilletPayment, payment_body)
    assert payment.status is PaymentStatus.LIQUIDATED
    assert payment.is_final
    assert payment.amount == Decimal("2251.33")
    assert payment.due_date == dt.date(2026, 11, 8)
    details = parse_model(BilletDetails, {**payment_body, "billetInfo": info})
    assert details.billet_info is not None
    assert details.billet_info.total_updated == Decimal("2251.33")
    assert not parse_model(BilletPayment, {**payment_body, "status": "ON_QUEUE"}).is_final


# Status sets --------------------------------------------------------------------------------
def test_final_and_pending_statuses() -> None:
    assert {
        PaymentStatus.SETTLED,
        PaymentStatus.CANCELED,
        PaymentStatus.REJECTED,
        PaymentStatus.REFUNDED,
        PaymentStatus.PARTIALLY_REFUNDED,
    } <= FINAL_PIX_STATUSES
    assert PaymentStatus.LIQUIDATED in FINAL_BILLET_STATUSES
    assert not PENDING_STATUSES & FINAL_PIX_STATUSES
    assert set(PaymentStatus) == PENDING_STATUSES | FINAL_PIX_STATUSES
    assert FAILED_STATUSES.isdisjoint(RECEIPT_STATUSES)
    for status in PENDING_STATUSES:
        assert not is_final_status(status)
    # Plain strings (as read from a webhook before parsing) compare equal to the members.
    assert is_final_status("SETTLED") and is_success_status("LIQUIDATED")
    assert not is_final_status("WAITING_APPROVAL")
    assert not is_final_status("SOMETHING_NEW") and not is_success_status("SOMETHING_NEW")
    assert is_failed_status("CANCELED") and not is_failed_status("SETTLED")
