"""Cash Out Pix payments on the Accounts API: by key, by QR Code, by bank data; queries,
idempotency, validation errors, the state machine on the sandbox clock, the approval flow,
refunds through the control surface, and the PDF receipt."""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest

from tests.sandbox.conftest import CLOCK_START, Api, assert_problem, body_of, money_body, violated
from tests.sandbox_harness import RunningSandbox
from treasury_app.domain import brcode
from treasury_app.domain.identifiers import is_valid_e2eid, is_valid_rtrid, new_idempotency_key

DICT = "/api/v2/pix/payments/dict"
QRC = "/api/v2/pix/payments/qrc"
MANU = "/api/v2/pix/payments/manu"


def _at(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)


def _debits_of(accounts: Api, e2e: str) -> list[dict[str, Any]]:
    entries = body_of(
        accounts.get(
            "/api/v2/accounts/transactions",
            params={"creditDebitType": "DEBIT", "perPage": 200},
        )
    )["data"]
    return [e for e in entries if e.get("endToEndId") == e2e]


# Pay by key -------------------------------------------------------------------------------
def test_pay_by_key(accounts: Api) -> None:
    before = accounts.balance()
    key = new_idempotency_key()
    response = accounts.pay_dict(Decimal("150.25"), pix_key="Fornecedor@Empresa.com.br", idem=key)
    assert response.status_code == 202, response.text
    payment = body_of(response)["data"]
    assert payment["status"] == "ON_QUEUE"
    assert is_valid_e2eid(payment["endToEndId"])
    assert payment["idempotencyKey"] == key
    assert payment["payment"] == {"currency": "BRL", "amount": Decimal("150.25")}
    assert payment["pixKey"] == "fornecedor@empresa.com.br"  # normalised
    assert payment["pixKeyType"] == "EMAIL"
    assert payment["localInstrument"] == "DICT"
    assert payment["creditorAccount"]["name"]
    assert payment["debtorAccount"]["document"] == "11222333000181"
    assert "clientId" not in payment and "debitEntryId" not in payment
    assert accounts.balance() == before - Decimal("150.25")


@pytest.mark.parametrize(
    ("key", "key_type"),
    [
        ("52998224725", "CPF"),
        ("11.444.777/0001-61", "CNPJ"),
        ("+55 (11) 98765-4321", "PHONE"),
        ("123e4567-e89b-12d3-a456-426614174000", "EVP"),
    ],
)
def test_pay_by_every_key_type(accounts: Api, key: str, key_type: str) -> None:
    payment = accounts.paid(Decimal("1.00"), pix_key=key, key_type=key_type)
    assert payment["pixKeyType"] == key_type
    if key_type in ("CPF", "CNPJ"):
        digits = "".join(ch for ch in key if ch.isdigit())
        assert payment["creditorAccount"]["document"] == digits


def test_dict_is_deterministic_per_key(accounts: Api) -> None:
    first = accounts.paid(Decimal("1.00"), pix_key="mesmo@destino.com.br")
    second = accounts.paid(Decimal("1.00"), pix_key="mesmo@destino.com.br")
    assert first["creditorAccount"] == second["creditorAccount"]
    assert first["endToEndId"] != second["endToEndId"]


def test_unknown_key_is_422(accounts: Api) -> None:
    before = accounts.balance()
    response = accounts.pay_dict(Decimal("10.00"), pix_key="naoexiste@naoexiste.sandbox")
    assert_problem(response, 422)
    assert accounts.balance() == before


def test_high_priority_needs_the_creditor_document(accounts: Api) -> None:
    problem = assert_problem(accounts.pay_dict(Decimal("5.00"), priority="HIGH"), 400)
    assert "creditorDocument" in violated(problem)
    mismatch = accounts.pay_dict(
        Decimal("5.00"), pix_key="52998224725", key_type="CPF", creditorDocument="11144477735"
    )
    assert violated(assert_problem(mismatch, 422)) == {"creditorDocument"}  # the field named
    ok = accounts.pay_dict(
        Decimal("5.00"),
        pix_key="52998224725",
        key_type="CPF",
        priority="HIGH",
        creditorDocument="529.982.247-25",
    )
    assert ok.status_code == 202, ok.text


# Idempotency ------------------------------------------------------------------------------
def _raw_dict_post(accounts: Api, headers: dict[str, Any]) -> Any:
    body = {"pixKey": "a@b.com.br", "pixKeyType": "EMAIL", "payment": money_body(Decimal("3.00"))}
    return accounts.post(DICT, json=body, headers=headers)


@pytest.mark.parametrize(
    "key",
    [None, "", "a" * 51, "abc-def", "chave com espaco", "ação123"],
    ids=["missing", "empty", "51 chars", "dash", "space", "accents"],
)
def test_idempotency_key_is_required_and_checked(accounts: Api, key: str | None) -> None:
    before = accounts.balance()
    headers: dict[str, Any] = {} if key is None else {"x-idempotency-key": key.encode()}
    problem = assert_problem(_raw_dict_post(accounts, headers), 400)
    assert "x-idempotency-key" in violated(problem)
    assert accounts.balance() == before


def test_idempotency_key_of_50_characters_is_fine(accounts: Api) -> None:
    key = "Z9" * 25
    response = _raw_dict_post(accounts, {"x-idempotency-key": key})
    assert response.status_code == 202, response.text


def test_reused_idempotency_key_is_412_and_debits_once(accounts: Api) -> None:
    key = new_idempotency_key()
    before = accounts.balance()
    payment = accounts.paid(Decimal("42.00"), idem=key)
    for amount in (Decimal("42.00"), Decimal("43.00")):  # same or different body
        assert_problem(accounts.pay_dict(amount, idem=key), 412)
    # another endpoint cannot reuse the key either
    manu = accounts.post(MANU, json=_manu_body(), idem=key)
    assert_problem(manu, 412)
    assert accounts.balance() == before - Decimal("42.00")
    assert len(_debits_of(accounts, payment["endToEndId"])) == 1
    found = accounts.get(f"/api/v2/pix/payments/idempotencyKey/{key}")
    assert found.status_code == 200
    assert body_of(found)["data"]["endToEndId"] == payment["endToEndId"]


def test_queries_by_e2e_and_idempotency_key(accounts: Api) -> None:
    key = new_idempotency_key()
    payment = accounts.paid(Decimal("9.99"), idem=key)
    by_e2e = body_of(accounts.get(f"/api/v2/pix/payments/{payment['endToEndId']}"))["data"]
    by_key = body_of(accounts.get(f"/api/v2/pix/payments/idempotencyKey/{key}"))["data"]
    assert by_e2e == by_key
    assert by_e2e["payment"]["amount"] == Decimal("9.99")
    assert "clientId" not in by_e2e


def test_unknown_payment_queries_are_404(accounts: Api) -> None:
    assert_problem(accounts.get("/api/v2/pix/payments/E99999010202611181300aaaaaaaaaaa"), 404)
    assert_problem(
        accounts.get(f"/api/v2/pix/payments/idempotencyKey/{new_idempotency_key()}"), 404
    )
    assert_problem(
        accounts.get("/api/v2/pix/payments/receipt/E99999010202611181300aaaaaaaaaaa"), 404
    )


# Validation of the body -------------------------------------------------------------------
@pytest.mark.parametrize(
    "amount",
    [Decimal("0"), Decimal("0.00"), Decimal("-5.00"), Decimal("1.234"), "10.00", None, True],
    ids=["zero", "zero.00", "negative", "3 decimals", "string", "null", "bool"],
)
def test_bad_amounts_are_400(accounts: Api, amount: Any) -> None:
    before = accounts.balance()
    problem = assert_problem(accounts.pay_dict(amount), 400)
    assert "payment.amount" in violated(problem)
    assert accounts.balance() == before


def test_payment_object_is_required(accounts: Api) -> None:
    body = {"pixKey": "a@b.com.br", "pixKeyType": "EMAIL"}
    problem = assert_problem(accounts.post(DICT, json=body, idem=new_idempotency_key()), 400)
    assert "payment" in violated(problem)
    body["payment"] = {"currency": "USD", "amount": Decimal("1.00")}
    problem = assert_problem(accounts.post(DICT, json=body, idem=new_idempotency_key()), 400)
    assert "payment.currency" in violated(problem)


@pytest.mark.parametrize(
    ("key", "key_type", "field"),
    [
        ("a@b.com.br", "MAIL", "pixKeyType"),
        ("a@b.com.br", None, "pixKeyType"),
        ("a@b.com.br", "CPF", "pixKey"),
        ("52998224725", "EMAIL", "pixKey"),
        ("11111111111", "CPF", "pixKey"),
        ("not-a-uuid", "EVP", "pixKey"),
        ("+1 555 0100", "PHONE", "pixKey"),
        ("", "EMAIL", "pixKey"),
    ],
)
def test_bad_keys_are_400(accounts: Api, key: str, key_type: str | None, field: str) -> None:
    problem = assert_problem(
        accounts.pay_dict(Decimal("1.00"), pix_key=key, key_type=key_type), 400
    )
    assert field in violated(problem)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"paymentFlow": "LATER"}, "paymentFlow"),
        ({"priority": "LOW"}, "priority"),
        ({"expiration": 0}, "expiration"),
        ({"expiration": "60"}, "expiration"),
        ({"description": "x" * 141}, "description"),
    ],
)
def test_bad_common_fields_are_400(accounts: Api, changes: dict[str, Any], field: str) -> None:
    problem = assert_problem(accounts.pay_dict(Decimal("1.00"), **changes), 400)
    assert field in violated(problem)


def test_body_must_be_json(accounts: Api) -> None:
    response = accounts.http.post(
        DICT,
        content=b"pixKey=a",
        headers={
            "authorization": f"Bearer {accounts.token}",
            "content-type": "application/x-www-form-urlencoded",
            "x-idempotency-key": new_idempotency_key(),
        },
    )
    assert_problem(response, 400)
    broken = accounts.http.post(
        DICT,
        content=b'{"pixKey": ',
        headers={
            "authorization": f"Bearer {accounts.token}",
            "content-type": "application/json",
            "x-idempotency-key": new_idempotency_key(),
        },
    )
    assert_problem(broken, 400)


def test_more_than_the_balance_is_422(make_sandbox: Callable[..., RunningSandbox]) -> None:
    bank = Api(make_sandbox("--clock-start", CLOCK_START), "accounts")
    try:
        # Above the per-transaction limit first (the balance is above it too).
        assert_problem(bank.pay_dict(Decimal("1000000.01")), 422)
        bank.paid(Decimal("1000000.00"))
        balance = bank.balance()
        problem = assert_problem(bank.pay_dict(balance + Decimal("0.01")), 422)
        assert problem["type"].endswith("SaldoInsuficiente")
        assert bank.balance() == balance
        # Held payments are accepted beyond the balance; approval then cancels (AM04).
        held = bank.paid(balance + Decimal("0.01"), paymentFlow="APPROVAL_REQUIRED")
        assert held["status"] == "WAITING_APPROVAL"
        decided = bank.control("POST", f"/sandbox/pix/{held['endToEndId']}/approve")["data"]
        assert decided["status"] == "CANCELED"
        assert decided["errorCode"] == "AM04"
        paid_all = bank.paid(balance)
        assert paid_all["status"] == "ON_QUEUE"
        assert bank.balance() == Decimal("0.00")
    finally:
        bank.close()


# QR Code ----------------------------------------------------------------------------------
def _static_qr(amount: Decimal | None = Decimal("25.50")) -> str:
    return brcode.build(
        merchant_name="Padaria Pao Quente",
        merchant_city="Sao Paulo",
        key="padaria@paoquente.com.br",
        amount=amount,
        txid="PEDIDO123",
    )


def test_pay_static_qr_code(accounts: Api) -> None:
    before = accounts.balance()
    payload = _static_qr()
    response = accounts.post(QRC, json={"qrCode": payload}, idem=new_idempotency_key())
    assert response.status_code == 202, response.text
    payment = body_of(response)["data"]
    assert payment["status"] == "ON_QUEUE"
    assert payment["payment"]["amount"] == Decimal("25.50")
    assert payment["localInstrument"] == "QRES"
    assert payment["creditorAccount"]["name"] == "Padaria Pao Quente"
    assert payment["pixKey"] == "padaria@paoquente.com.br"
    assert payment["txId"] == "PEDIDO123"
    assert accounts.balance() == before - Decimal("25.50")
    same = accounts.post(
        QRC,
        json={"qrCode": payload, "payment": money_body(Decimal("25.50"))},
        idem=new_idempotency_key(),
    )
    assert same.status_code == 202  # the same amount may be repeated


def test_qr_code_with_altered_crc_is_400(accounts: Api) -> None:
    payload = _static_qr()
    altered = payload[:-4] + ("0000" if payload[-4:] != "0000" else "FFFF")
    problem = assert_problem(
        accounts.post(QRC, json={"qrCode": altered}, idem=new_idempotency_key()), 400
    )
    assert "qrCode" in violated(problem)
    garbage = accounts.post(QRC, json={"qrCode": "not a pix code"}, idem=new_idempotency_key())
    assert_problem(garbage, 400)
    missing = accounts.post(QRC, json={}, idem=new_idempotency_key())
    assert "qrCode" in violated(assert_problem(missing, 400))


def test_qr_amount_must_match(accounts: Api) -> None:
    before = accounts.balance()
    response = accounts.post(
        QRC,
        json={"qrCode": _static_qr(), "payment": money_body(Decimal("25.00"))},
        idem=new_idempotency_key(),
    )
    assert_problem(response, 422)
    assert accounts.balance() == before


def test_qr_without_amount(accounts: Api) -> None:
    payload = _static_qr(amount=None)
    problem = assert_problem(
        accounts.post(QRC, json={"qrCode": payload}, idem=new_idempotency_key()), 400
    )
    assert "payment.amount" in violated(problem)
    response = accounts.post(
        QRC,
        json={"qrCode": payload, "payment": money_body(Decimal("7.77"))},
        idem=new_idempotency_key(),
    )
    assert response.status_code == 202, response.text
    assert body_of(response)["data"]["payment"]["amount"] == Decimal("7.77")


# Bank data --------------------------------------------------------------------------------
def _manu_body(**account_changes: Any) -> dict[str, Any]:
    account = {
        "ispb": "60746948",
        "issuer": "1234",
        "number": "98765-4",
        "accountType": "SVGS",
        "document": "529.982.247-25",
        "name": "Maria da Silva",
    }
    account.update(account_changes)
    return {
        "creditorAccount": {k: v for k, v in account.items() if v is not ...},
        "payment": money_body(Decimal("321.09")),
        "description": "Reembolso",
    }


@pytest.mark.parametrize("account_type", ["CACC", "SVGS", "SLRY", "TRAN"])
def test_pay_by_bank_data(accounts: Api, account_type: str) -> None:
    before = accounts.balance()
    response = accounts.post(
        MANU, json=_manu_body(accountType=account_type), idem=new_idempotency_key()
    )
    assert response.status_code == 202, response.text
    payment = body_of(response)["data"]
    assert payment["localInstrument"] == "MANU"
    assert payment["creditorAccount"] == {
        "ispb": "60746948",
        "issuer": "1234",
        "number": "987654",
        "accountType": account_type,
        "document": "52998224725",
        "name": "Maria da Silva",
    }
    assert accounts.balance() == before - Decimal("321.09")


def test_pay_by_bank_data_with_cnpj(accounts: Api) -> None:
    response = accounts.post(
        MANU, json=_manu_body(document="11444777000161"), idem=new_idempotency_key()
    )
    assert response.status_code == 202, response.text


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("ispb", "1234567"),
        ("ispb", None),
        ("issuer", "12345"),
        ("issuer", "12a4"),
        ("issuer", ...),
        ("number", "12.345"),
        ("number", ""),
        ("accountType", "CURRENT"),
        ("accountType", ...),
        ("document", "52998224724"),
        ("document", "11444777000160"),
        ("document", ...),
        ("name", "  "),
        ("name", ...),
    ],
)
def test_bad_bank_data_is_400(accounts: Api, field: str, value: Any) -> None:
    before = accounts.balance()
    response = accounts.post(MANU, json=_manu_body(**{field: value}), idem=new_idempotency_key())
    problem = assert_problem(response, 400)
    assert f"creditorAccount.{field}" in violated(problem)
    assert accounts.balance() == before


def test_bank_data_reports_every_bad_field(accounts: Api) -> None:
    body = _manu_body(ispb="x", issuer="x", number="x", accountType="x", document="x", name="")
    problem = assert_problem(accounts.post(MANU, json=body, idem=new_idempotency_key()), 400)
    expected = {f"creditorAccount.{f}" for f in ("ispb", "issuer", "number", "accountType")}
    assert violated(problem) >= expected | {"creditorAccount.document", "creditorAccount.name"}
    missing = accounts.post(
        MANU, json={"payment": money_body(Decimal("1.00"))}, idem=new_idempotency_key()
    )
    assert "creditorAccount" in violated(assert_problem(missing, 400))


# State machine ----------------------------------------------------------------------------
def test_on_queue_processing_settled_on_the_sandbox_clock(accounts: Api) -> None:
    payment = accounts.paid(Decimal("12.34"))
    e2e = payment["endToEndId"]
    assert payment["status"] == "ON_QUEUE"
    queued = _at(payment["createdAt"])
    accounts.advance(1.2)
    assert accounts.pix(e2e)["status"] == "PROCESSING"
    accounts.advance(2.0)
    settled = accounts.pix(e2e)
    assert settled["status"] == "SETTLED"
    history = [(h["status"], _at(h["at"])) for h in settled["history"]]
    assert history == [
        ("ON_QUEUE", queued),
        ("PROCESSING", queued + dt.timedelta(seconds=1)),
        ("SETTLED", queued + dt.timedelta(seconds=3)),
    ]
    assert _at(settled["settledAt"]) == queued + dt.timedelta(seconds=3)
    accounts.advance(60)
    assert accounts.pix(e2e)["status"] == "SETTLED"  # final


# Approval flow ----------------------------------------------------------------------------
def test_approval_required_then_approved(accounts: Api) -> None:
    before = accounts.balance()
    payment = accounts.paid(Decimal("555.55"), paymentFlow="APPROVAL_REQUIRED")
    e2e = payment["endToEndId"]
    assert payment["status"] == "WAITING_APPROVAL"
    assert payment["paymentFlow"] == "APPROVAL_REQUIRED"
    assert accounts.balance() == before  # nothing is debited while held
    assert _debits_of(accounts, e2e) == []
    held = accounts.control("GET", "/sandbox/held")["data"]
    assert e2e in {p.get("endToEndId") for p in held}
    accounts.advance(30)
    assert accounts.pix(e2e)["status"] == "WAITING_APPROVAL"  # no timeline while held

    approved = accounts.control("POST", f"/sandbox/pix/{e2e}/approve")["data"]
    assert approved["status"] == "ON_QUEUE"
    assert accounts.balance() == before - Decimal("555.55")
    assert len(_debits_of(accounts, e2e)) == 1
    assert e2e not in {
        p.get("endToEndId") for p in accounts.control("GET", "/sandbox/held")["data"]
    }
    settled = accounts.settle(e2e)
    assert [h["status"] for h in settled["history"]] == [
        "WAITING_APPROVAL",
        "ON_QUEUE",
        "PROCESSING",
        "SETTLED",
    ]
    again = accounts.http.post(f"/sandbox/pix/{e2e}/approve")
    assert_problem(again, 422)
    assert accounts.balance() == before - Decimal("555.55")


def test_approval_required_then_rejected(accounts: Api) -> None:
    before = accounts.balance()
    payment = accounts.paid(Decimal("88.00"), paymentFlow="APPROVAL_REQUIRED")
    rejected = accounts.control("POST", f"/sandbox/pix/{payment['endToEndId']}/reject")["data"]
    assert rejected["status"] == "CANCELED"
    assert rejected["errorCode"]
    accounts.advance(5)
    assert accounts.pix(payment["endToEndId"])["status"] == "CANCELED"
    assert accounts.balance() == before
    assert _debits_of(accounts, payment["endToEndId"]) == []


def test_held_payment_expires(accounts: Api) -> None:
    before = accounts.balance()
    payment = accounts.paid(Decimal("19.00"), paymentFlow="APPROVAL_REQUIRED", expiration=60)
    e2e = payment["endToEndId"]
    accounts.advance(30)
    assert accounts.pix(e2e)["status"] == "WAITING_APPROVAL"
    accounts.advance(31)
    expired = accounts.pix(e2e)
    assert expired["status"] == "CANCELED"
    assert expired["errorCode"] == "EXPIRED"
    assert _at(expired["history"][-1]["at"]) == _at(payment["createdAt"]) + dt.timedelta(seconds=60)
    assert_problem(accounts.http.post(f"/sandbox/pix/{e2e}/approve"), 422)
    assert accounts.balance() == before


def test_control_decisions_on_unknown_payments(accounts: Api) -> None:
    assert_problem(accounts.http.post("/sandbox/pix/E99999010202611181300zzzzzzzzzzz/approve"), 404)
    settled = accounts.paid(Decimal("1.00"))
    assert_problem(accounts.http.post(f"/sandbox/pix/{settled['endToEndId']}/reject"), 422)


# Refunds ----------------------------------------------------------------------------------
def test_refund_of_a_sent_payment(accounts: Api) -> None:
    payment = accounts.paid(Decimal("100.00"))
    e2e = payment["endToEndId"]
    refund_path = f"/sandbox/pix/payments/{e2e}/refund"
    assert_problem(accounts.http.post(refund_path, json={}), 422)  # not settled yet
    accounts.settle(e2e)
    before = accounts.balance()

    partial = accounts.control("POST", refund_path, {"amount": Decimal("30.00")})["data"]
    assert partial["status"] == "PARTIALLY_REFUNDED"
    assert accounts.balance() == before + Decimal("30.00")
    too_much = accounts.http.post(refund_path, json={"amount": 70.01})
    assert_problem(too_much, 422)

    full = accounts.control("POST", refund_path)["data"]  # the rest
    assert full["status"] == "REFUNDED"
    assert [r["amount"] for r in full["refunds"]] == [Decimal("30.00"), Decimal("70.00")]
    assert all(is_valid_rtrid(r["endToEndId"]) for r in full["refunds"])
    assert accounts.balance() == before + Decimal("100.00")
    assert accounts.pix(e2e)["status"] == "REFUNDED"
    assert_problem(accounts.http.post(refund_path, json={}), 422)

    credits = body_of(
        accounts.get(
            "/api/v2/accounts/transactions",
            params={"creditDebitType": "CREDIT", "perPage": 50},
        )
    )["data"]
    refunds = [e for e in credits if e.get("originalEndToEndId") == e2e]
    assert sorted(e["amount"] for e in refunds) == [Decimal("30.00"), Decimal("70.00")]
    assert {e["transactionType"] for e in refunds} == {"REFUND"}


# Receipt ----------------------------------------------------------------------------------
def test_receipt_after_settlement(accounts: Api, read_pdf: Callable[[bytes], str]) -> None:
    payment = accounts.paid(Decimal("1234.56"), description="Compra de materiais")
    e2e = payment["endToEndId"]
    receipt_path = f"/api/v2/pix/payments/receipt/{e2e}"
    assert_problem(accounts.get(receipt_path), 422)
    accounts.settle(e2e)
    response = accounts.get(receipt_path)
    assert response.status_code == 200, response.text
    data = body_of(response)["data"]
    pdf = base64.b64decode(data["pdf"], validate=True)
    assert pdf.startswith(b"%PDF")
    text = read_pdf(pdf)
    assert "R$ 1.234,56" in text
    assert e2e in text
    assert "Compra de materiais" in text
    assert payment["creditorAccount"]["name"] in text


def test_no_receipt_for_a_held_payment(accounts: Api) -> None:
    payment = accounts.paid(Decimal("3.00"), paymentFlow="APPROVAL_REQUIRED")
    assert_problem(accounts.get(f"/api/v2/pix/payments/receipt/{payment['endToEndId']}"), 422)
    accounts.control("POST", f"/sandbox/pix/{payment['endToEndId']}/reject")
    assert_problem(accounts.get(f"/api/v2/pix/payments/receipt/{payment['endToEndId']}"), 422)
