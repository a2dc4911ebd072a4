"""Boleto payments on the Accounts API: slip query with fine and interest, payment by
digitable line and by a previously queried barcode, business rules (overdue beyond the limit,
free-value slips, amount, daily cut-off), the LIQUIDATED timeline, lists, details, receipts."""

from __future__ import annotations

import base64
import datetime as dt
import secrets
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import pytest

from tests.sandbox.conftest import TODAY, Api, assert_problem, body_of, money_body, violated
from tests.sandbox_harness import RunningSandbox
from treasury_app.domain import boleto
from treasury_app.domain.identifiers import new_idempotency_key

INFO = "/api/v2/billets/info"
PAYMENTS = "/api/v2/billets/payments"
PAY = "/api/v2/billets/pay"
ACCOUNT_TYPES = {"CACC", "SVGS", "SLRY", "TRAN"}
CENT = Decimal("0.01")

RENT = "Aluguel do escritório"
LATE = "Vencido há 10 dias (com multa)"
TOO_LATE = "Vencido além do prazo"
FREE = "Valor livre (doação)"
DUE_TODAY = "Energia elétrica"


def _new_slip(amount: Decimal | None, due: dt.date | None, bank: str = "237") -> str:
    """A valid barcode the sandbox never saw (its registry answers for any valid slip)."""
    free_field = f"{secrets.randbelow(10**25):025d}"
    return boleto.build_bank_barcode(bank, amount, due, free_field)


def _expected(original: Decimal, due: str, fine_pct: str = "2.00", interest_pct: str = "1.00"):
    """Fine and interest as the sandbox's formula gives them, counted from the due date."""
    days = (dt.date.fromisoformat(TODAY) - dt.date.fromisoformat(due)).days
    fine = (original * Decimal(fine_pct) / 100).quantize(CENT, ROUND_HALF_UP)
    interest = (original * Decimal(interest_pct) / 100 / 30 * days).quantize(CENT, ROUND_HALF_UP)
    return days, fine, interest, original + fine + interest


def _info(accounts: Api, code: str) -> Any:
    return accounts.post(INFO, json={"billetCode": code})


def fresh_line(slip: dict[str, Any]) -> str:
    """Another valid slip with the same bank, amount and due date: a slip can be paid once."""
    barcode = boleto.build_bank_barcode(
        slip["barcode"][:3],
        Decimal(slip["amount"]),
        dt.date.fromisoformat(slip["dueDate"]),
        f"{secrets.randbelow(10**25):025d}",
    )
    return boleto.barcode_to_line(barcode)


def _pay(accounts: Api, slip_code: str, *, by: str = "digitableCode", **extra: Any) -> Any:
    path = PAYMENTS if by == "digitableCode" else PAY
    return accounts.post(
        path,
        json={by: slip_code, "description": "Pagamento de teste", **extra},
        idem=new_idempotency_key(),
    )


@pytest.fixture(scope="module")
def slips(accounts: Api) -> dict[str, dict[str, Any]]:
    return accounts.slips()


# /info ------------------------------------------------------------------------------------
def test_seeded_slips(slips: dict[str, dict[str, Any]]) -> None:
    assert {RENT, LATE, TOO_LATE, FREE, DUE_TODAY} <= set(slips)
    for slip in slips.values():
        assert len(slip["digitableCode"]) == 47 and slip["digitableCode"].isdigit()
        assert boleto.barcode_of(slip["digitableCode"]) == slip["barcode"]


def test_info_of_a_slip_not_yet_due(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    slip = slips[RENT]
    response = _info(accounts, slip["barcode"])
    assert response.status_code == 200, response.text
    info = body_of(response)["data"]
    assert info["originalAmount"] == Decimal("1530.75")
    assert info["totalUpdated"] == info["originalAmount"]
    assert info["fine"] == info["interest"] == Decimal("0.00")
    assert info["daysLate"] == 0
    assert info["dueDate"] == slip["dueDate"] > TODAY
    assert info["allowChangeValue"] is False
    assert info["digitableCode"] == slip["digitableCode"]
    assert info["beneficiary"]["name"] and info["beneficiary"]["document"]
    # The 47-digit line is accepted as well and answers the same.
    by_line = body_of(_info(accounts, slip["digitableCode"]))["data"]
    assert by_line["totalUpdated"] == info["totalUpdated"]
    assert by_line["billetCode"] == slip["barcode"]


def test_info_of_a_slip_due_today_has_no_charges(
    accounts: Api, slips: dict[str, dict[str, Any]]
) -> None:
    info = body_of(_info(accounts, slips[DUE_TODAY]["barcode"]))["data"]
    assert info["dueDate"] == TODAY
    assert info["totalUpdated"] == Decimal("845.32")


def test_info_of_an_overdue_slip(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    slip = slips[LATE]
    info = body_of(_info(accounts, slip["barcode"]))["data"]
    days, fine, interest, total = _expected(
        Decimal("2200.00"), slip["dueDate"], slip["finePercent"], slip["monthlyInterestPercent"]
    )
    assert days == 10
    assert (info["fine"], info["interest"], info["totalUpdated"]) == (fine, interest, total)
    assert (fine, interest, total) == (Decimal("44.00"), Decimal("7.33"), Decimal("2251.33"))
    assert info["daysLate"] == 10
    assert info["originalAmount"] == Decimal("2200.00")


@pytest.mark.parametrize(
    ("amount", "due", "fine", "interest"),
    [
        # 30 days late: 2 % fine and exactly one month of 1 % interest
        (Decimal("1000.00"), "2026-10-19", Decimal("20.00"), Decimal("10.00")),
        # 17 days late, due on a Sunday before a holiday Monday: still counted from the due date
        (Decimal("1000.00"), "2026-11-01", Decimal("20.00"), Decimal("5.67")),
        # rounding half up on both
        (Decimal("333.33"), "2026-11-11", Decimal("6.67"), Decimal("0.78")),
    ],
)
def test_fine_and_interest_pro_rata(
    accounts: Api, amount: Decimal, due: str, fine: Decimal, interest: Decimal
) -> None:
    code = _new_slip(amount, dt.date.fromisoformat(due))
    info = body_of(_info(accounts, code))["data"]
    assert _expected(amount, due)[1:] == (fine, interest, amount + fine + interest)
    assert info["fine"] == fine
    assert info["interest"] == interest
    assert info["totalUpdated"] == amount + fine + interest


def test_info_of_a_future_generic_slip(accounts: Api) -> None:
    code = _new_slip(Decimal("480.10"), dt.date(2026, 12, 10), bank="341")
    info = body_of(_info(accounts, code))["data"]
    assert info["totalUpdated"] == Decimal("480.10")
    assert info["beneficiary"]["bankCode"] == "341"
    assert info["type"] == "BANK"


@pytest.mark.parametrize(
    "code",
    [
        "0019716460000038990751160662602111425775910A",
        "1" * 51,
        "00197.51163 06626.021114 42577.591045 7 16460000038990",
        "",
        None,
        12345,
    ],
    ids=["letter", "51 digits", "punctuated", "empty", "null", "number"],
)
def test_billet_code_must_be_digits_up_to_50(accounts: Api, code: Any) -> None:
    problem = assert_problem(accounts.post(INFO, json={"billetCode": code}), 400)
    assert "billetCode" in violated(problem)


def test_billet_code_with_wrong_check_digits(
    accounts: Api, slips: dict[str, dict[str, Any]]
) -> None:
    barcode = slips[RENT]["barcode"]
    wrong_dv = barcode[:4] + str((int(barcode[4]) + 1) % 10) + barcode[5:]
    assert_problem(_info(accounts, wrong_dv), 400)
    line = slips[RENT]["digitableCode"]
    wrong_field_dv = line[:9] + str((int(line[9]) + 1) % 10) + line[10:]
    assert_problem(_info(accounts, wrong_field_dv), 400)
    assert_problem(_info(accounts, "1234567890" * 4), 400)  # 40 digits: no such length


# Paying -----------------------------------------------------------------------------------
def test_pay_by_digitable_code_until_liquidated(
    accounts: Api, slips: dict[str, dict[str, Any]], read_pdf: Callable[[bytes], str]
) -> None:
    slip = slips[RENT]
    before = accounts.balance()
    response = _pay(accounts, slip["digitableCode"])
    assert response.status_code == 202, response.text
    payment = body_of(response)["data"]
    assert payment["status"] == "ON_QUEUE"
    assert payment["payment"] == {"currency": "BRL", "amount": Decimal("1530.75")}
    assert payment["digitableCode"] == slip["digitableCode"]
    assert accounts.balance() == before - Decimal("1530.75")
    path = f"/api/v2/billets/{payment['id']}"
    receipt_path = f"/api/v2/billets/payments/receipt/{payment['id']}"
    assert_problem(accounts.get(receipt_path), 422)

    accounts.advance(1.5)
    assert body_of(accounts.get(path))["data"]["status"] == "PROCESSING"
    accounts.advance(3)
    current = body_of(accounts.get(path))["data"]
    assert current["status"] == "LIQUIDATED"
    assert [h["status"] for h in current["history"]] == ["ON_QUEUE", "PROCESSING", "LIQUIDATED"]
    queued = dt.datetime.fromisoformat(payment["createdAt"])
    assert dt.datetime.fromisoformat(current["settledAt"]) == queued + dt.timedelta(seconds=4)
    assert "billetInfo" not in current

    details = body_of(accounts.get(f"{path}/details"))["data"]
    assert details["status"] == "LIQUIDATED"
    assert details["billetInfo"]["totalUpdated"] == Decimal("1530.75")
    assert details["billetInfo"]["dueDate"] == slip["dueDate"]
    assert details["creditorAccount"]["accountType"] in ACCOUNT_TYPES
    assert details["creditorAccount"]["document"] == slip["beneficiary"]["document"]
    assert details["debtorAccount"]["accountType"] in ACCOUNT_TYPES
    assert details["debtorAccount"]["document"] == "11222333000181"

    receipt = accounts.get(receipt_path)
    assert receipt.status_code == 200, receipt.text
    pdf = base64.b64decode(body_of(receipt)["data"]["pdf"], validate=True)
    assert pdf.startswith(b"%PDF")
    text = read_pdf(pdf)
    assert "R$ 1.530,75" in text
    assert slip["digitableCode"] in text
    assert slip["beneficiary"]["name"] in text
    due = dt.date.fromisoformat(slip["dueDate"])  # written as a person reads it
    assert f"{due:%d/%m/%Y}" in text and slip["dueDate"] not in text
    assert "(horário de Brasília)" in text


def test_pay_by_billet_code_needs_a_prior_info(accounts: Api) -> None:
    code = _new_slip(Decimal("210.40"), dt.date(2026, 12, 1))
    before = accounts.balance()
    refused = _pay(accounts, code, by="billetCode")
    assert_problem(refused, 422)
    assert accounts.balance() == before
    assert _info(accounts, code).status_code == 200
    response = _pay(accounts, code, by="billetCode")
    assert response.status_code == 202, response.text
    payment = body_of(response)["data"]
    assert payment["status"] == "ON_QUEUE"
    assert payment["barcode"] == code
    assert accounts.balance() == before - Decimal("210.40")
    accounts.advance(4.5)
    assert body_of(accounts.get(f"/api/v2/billets/{payment['id']}"))["data"]["status"] == (
        "LIQUIDATED"
    )


def test_billet_code_format_on_pay(accounts: Api) -> None:
    problem = assert_problem(_pay(accounts, "12a4", by="billetCode"), 400)
    assert "billetCode" in violated(problem)
    problem = assert_problem(_pay(accounts, "", by="digitableCode"), 400)
    assert "digitableCode" in violated(problem)


def test_overdue_slip_is_paid_with_fine_and_interest(
    accounts: Api, slips: dict[str, dict[str, Any]]
) -> None:
    before = accounts.balance()
    response = _pay(accounts, slips[LATE]["digitableCode"], payment=money_body(Decimal("2251.33")))
    assert response.status_code == 202, response.text
    assert body_of(response)["data"]["payment"]["amount"] == Decimal("2251.33")
    assert accounts.balance() == before - Decimal("2251.33")


def test_amount_different_from_total_updated_is_422(
    accounts: Api, slips: dict[str, dict[str, Any]]
) -> None:
    before = accounts.balance()
    for amount in (Decimal("2200.00"), Decimal("2251.34")):
        response = _pay(accounts, slips[LATE]["digitableCode"], payment=money_body(amount))
        assert_problem(response, 422)
    assert accounts.balance() == before


def test_overdue_beyond_the_payment_limit_is_422(
    accounts: Api, slips: dict[str, dict[str, Any]]
) -> None:
    slip = slips[TOO_LATE]
    info = body_of(_info(accounts, slip["barcode"]))["data"]
    assert info["paymentLimitDate"] < TODAY
    before = accounts.balance()
    problem = assert_problem(_pay(accounts, slip["digitableCode"]), 422)
    assert problem["type"].endswith("BoletoVencido")
    assert_problem(_pay(accounts, slip["barcode"], by="billetCode"), 422)
    assert accounts.balance() == before


def test_free_value_slip_is_422(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    slip = slips[FREE]
    assert body_of(_info(accounts, slip["barcode"]))["data"]["allowChangeValue"] is True
    before = accounts.balance()
    assert_problem(_pay(accounts, slip["digitableCode"]), 422)
    assert_problem(
        _pay(accounts, slip["digitableCode"], payment=money_body(Decimal("150.00"))), 422
    )
    no_amount = _new_slip(None, dt.date(2026, 12, 1))  # no amount on the slip at all
    assert body_of(_info(accounts, no_amount))["data"]["allowChangeValue"] is True
    assert_problem(_pay(accounts, no_amount), 422)
    assert accounts.balance() == before


def test_billet_idempotency(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    line = slips[DUE_TODAY]["digitableCode"]
    before = accounts.balance()
    missing = accounts.post(PAYMENTS, json={"digitableCode": line})
    assert "x-idempotency-key" in violated(assert_problem(missing, 400))
    malformed = accounts.post(PAYMENTS, json={"digitableCode": line}, idem="a-b")
    assert_problem(malformed, 400)
    key = new_idempotency_key()
    first = accounts.post(PAYMENTS, json={"digitableCode": line}, idem=key)
    assert first.status_code == 202
    assert_problem(accounts.post(PAYMENTS, json={"digitableCode": line}, idem=key), 412)
    assert accounts.balance() == before - Decimal("845.32")
    listed = body_of(accounts.get("/api/v2/billets", params={"idempotencyKey": key}))["data"]
    assert [p["id"] for p in listed] == [body_of(first)["data"]["id"]]


def test_billet_approval_flow(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    before = accounts.balance()
    response = _pay(accounts, fresh_line(slips[RENT]), paymentFlow="APPROVAL_REQUIRED")
    payment = body_of(response)["data"]
    assert payment["status"] == "WAITING_APPROVAL"
    assert accounts.balance() == before
    approved = accounts.control("POST", f"/sandbox/billets/{payment['id']}/approve")["data"]
    assert approved["status"] == "ON_QUEUE"
    assert accounts.balance() == before - Decimal("1530.75")
    accounts.advance(4.5)
    assert body_of(accounts.get(f"/api/v2/billets/{payment['id']}"))["data"]["status"] == (
        "LIQUIDATED"
    )
    rejected = body_of(_pay(accounts, fresh_line(slips[RENT]), paymentFlow="APPROVAL_REQUIRED"))[
        "data"
    ]
    decided = accounts.control("POST", f"/sandbox/billets/{rejected['id']}/reject")["data"]
    assert decided["status"] == "CANCELED"
    assert accounts.balance() == before - Decimal("1530.75")


def test_a_slip_is_paid_only_once(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    line = fresh_line(slips[RENT])
    before = accounts.balance()
    held = body_of(_pay(accounts, line, paymentFlow="APPROVAL_REQUIRED"))["data"]
    problem = assert_problem(_pay(accounts, line), 422)  # another key, same slip: refused
    assert "já foi pago" in problem["detail"]
    accounts.control("POST", f"/sandbox/billets/{held['id']}/reject")
    assert _pay(accounts, line).status_code == 202  # a cancelled attempt frees the slip
    assert_problem(_pay(accounts, line), 422)
    assert accounts.balance() == before - Decimal("1530.75")


# Lists and lookups ------------------------------------------------------------------------
def test_billet_list_pages(accounts: Api, slips: dict[str, dict[str, Any]]) -> None:
    for _ in range(3):
        assert _pay(accounts, fresh_line(slips[DUE_TODAY])).status_code == 202
    page1 = body_of(accounts.get("/api/v2/billets", params={"page": 1, "perPage": 2}))
    page2 = body_of(accounts.get("/api/v2/billets", params={"page": 2, "perPage": 2}))
    assert len(page1["data"]) == len(page2["data"]) == 2
    assert page1["meta"]["totalItems"] >= 3
    assert page1["meta"]["totalPages"] == -(-page1["meta"]["totalItems"] // 2)
    ids = [p["id"] for p in page1["data"] + page2["data"]]
    assert ids == sorted(ids, reverse=True)  # newest first, no repeats
    for item in page1["data"]:
        assert "clientId" not in item and "debitEntryId" not in item
    for params in ({"perPage": 0}, {"perPage": 1001}, {"page": 0}):
        assert_problem(accounts.get("/api/v2/billets", params=params), 400)


@pytest.mark.parametrize(
    "path",
    [
        "/api/v2/billets/424242",
        "/api/v2/billets/424242/details",
        "/api/v2/billets/payments/receipt/424242",
    ],
)
def test_unknown_billet_is_404(accounts: Api, path: str) -> None:
    assert_problem(accounts.get(path), 404)


def test_billet_info_needs_a_json_body(accounts: Api) -> None:
    response = accounts.http.post(
        INFO,
        content=b"billetCode=1",
        headers={
            "authorization": f"Bearer {accounts.token}",
            "content-type": "application/x-www-form-urlencoded",
        },
    )
    assert_problem(response, 400)


# Cut-off ----------------------------------------------------------------------------------
def test_daily_cut_off(make_sandbox: Callable[..., RunningSandbox]) -> None:
    """At 19:59 Brasília a slip is paid; from 20:00 on, 422 (on a sandbox of its own)."""
    bank = Api(make_sandbox("--clock-start", "2026-11-18T22:59:00Z"), "accounts")
    try:
        slip = bank.slips()[RENT]
        assert _pay(bank, slip["digitableCode"]).status_code == 202
        bank.control("POST", "/sandbox/clock", {"set": "2026-11-18T23:30:00Z"})
        before = bank.balance()
        problem = assert_problem(_pay(bank, fresh_line(slip)), 422)
        assert problem["type"].endswith("ForaDoHorario")
        assert _info(bank, slip["barcode"]).status_code == 200  # querying is still fine
        assert_problem(_pay(bank, slip["barcode"], by="billetCode"), 422)
        # Pix is not subject to the boleto cut-off.
        assert bank.pay_dict(Decimal("10.00")).status_code == 202
        assert bank.balance() == before - Decimal("10.00")
    finally:
        bank.close()


def test_slip_due_on_a_weekend_is_paid_without_charges_on_the_next_business_day(
    make_sandbox: Callable[..., RunningSandbox],
) -> None:
    """Due on Saturday 2026-11-14 (Sunday the 15th is a holiday too): no charges on Monday the
    16th; on Tuesday the charges count every calendar day from the due date."""
    bank = Api(make_sandbox("--clock-start", "2026-11-16T13:00:00Z"), "accounts")
    try:
        code = _new_slip(Decimal("500.00"), dt.date(2026, 11, 14))
        monday = body_of(_info(bank, code))["data"]
        assert (monday["daysLate"], monday["totalUpdated"]) == (0, Decimal("500.00"))
        assert monday["fine"] == monday["interest"] == Decimal("0.00")
        bank.control("POST", "/sandbox/clock", {"set": "2026-11-17T13:00:00Z"})
        tuesday = body_of(_info(bank, code))["data"]
        assert tuesday["daysLate"] == 3
        assert (tuesday["fine"], tuesday["interest"]) == (Decimal("10.00"), Decimal("0.50"))
        assert tuesday["totalUpdated"] == Decimal("510.50")
        paid = _pay(bank, code, by="billetCode", payment=money_body(Decimal("510.50")))
        assert paid.status_code == 202, paid.text
    finally:
        bank.close()
