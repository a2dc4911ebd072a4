"""Balance and statement of the Accounts API: shape, exact decimals, filters, pagination,
validation errors, and new payments / incoming Pix appearing as entries."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from tests.sandbox.conftest import TODAY, Api, assert_problem, body_of, violated

TRANSACTIONS = "/api/v2/accounts/transactions"
NINETY_DAYS_AGO = (dt.date.fromisoformat(TODAY) - dt.timedelta(days=90)).isoformat()


def test_balance_shape(accounts: Api) -> None:
    response = accounts.get("/api/v2/accounts/balances")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")
    account = body_of(response)["data"][0]
    amounts = account["balanceAmount"]
    assert amounts["currency"] == "BRL"
    assert isinstance(amounts["available"], Decimal)
    assert amounts["available"] == amounts["available"].quantize(Decimal("0.01"))
    assert amounts["available"] > 0
    assert account["ispb"] == "99999010"


def test_balance_moves_by_exactly_the_paid_amount(accounts: Api) -> None:
    before = accounts.balance()
    accounts.paid(Decimal("1234.56"))
    assert accounts.balance() == before - Decimal("1234.56")
    accounts.paid(Decimal("0.01"))
    assert accounts.balance() == before - Decimal("1234.57")


def test_seeded_statement_covers_ninety_days(accounts: Api) -> None:
    response = accounts.get(
        TRANSACTIONS,
        params={"startDate": NINETY_DAYS_AGO, "endDate": TODAY, "perPage": 1000},
    )
    assert response.status_code == 200, response.text
    page = body_of(response)
    entries, meta = page["data"], page["meta"]
    assert meta["totalItems"] == len(entries)
    assert 150 <= len(entries) <= 1000  # a few hundred seeded entries
    days = {e["createdAt"][:10] for e in entries}
    assert min(days) <= "2026-08-21"  # the opening entry, 90 days back
    assert {e["creditDebitType"] for e in entries} == {"CREDIT", "DEBIT"}
    for entry in entries:
        assert isinstance(entry["amount"], Decimal) and entry["amount"] > 0
        assert isinstance(entry["balanceAfter"], Decimal)
    stamps = [e["createdAt"] for e in entries]
    assert stamps == sorted(stamps, reverse=True)  # newest first
    # The newest entry's running balance is the account's balance.
    assert entries[0]["balanceAfter"] == accounts.balance()


def test_default_window_is_the_last_30_days(accounts: Api) -> None:
    meta = body_of(accounts.get(TRANSACTIONS))["meta"]
    assert meta["endDate"] == TODAY
    assert meta["startDate"] == "2026-10-19"
    everything = body_of(
        accounts.get(TRANSACTIONS, params={"startDate": NINETY_DAYS_AGO, "perPage": 1})
    )["meta"]
    assert 0 < meta["totalItems"] < everything["totalItems"]


def test_date_range_filter(accounts: Api) -> None:
    params = {"startDate": "2026-10-01", "endDate": "2026-10-10", "perPage": 1000}
    entries = body_of(accounts.get(TRANSACTIONS, params=params))["data"]
    assert entries
    for entry in entries:
        day = dt.datetime.fromisoformat(entry["createdAt"]).astimezone(
            dt.timezone(dt.timedelta(hours=-3))
        )
        assert "2026-10-01" <= day.date().isoformat() <= "2026-10-10"


def test_pagination(accounts: Api) -> None:
    params = {"startDate": NINETY_DAYS_AGO, "perPage": 10}
    first = body_of(accounts.get(TRANSACTIONS, params={**params, "page": 1}))
    second = body_of(accounts.get(TRANSACTIONS, params={**params, "page": 2}))
    assert len(first["data"]) == len(second["data"]) == 10
    assert first["meta"]["perPage"] == 10 and second["meta"]["page"] == 2
    assert first["meta"]["totalPages"] == -(-first["meta"]["totalItems"] // 10)
    assert not {e["id"] for e in first["data"]} & {e["id"] for e in second["data"]}
    assert first["data"][-1]["createdAt"] >= second["data"][0]["createdAt"]
    beyond = body_of(accounts.get(TRANSACTIONS, params={**params, "page": 10**5}))
    assert beyond["data"] == []


@pytest.mark.parametrize("kind", ["CREDIT", "DEBIT"])
def test_credit_debit_filter(accounts: Api, kind: str) -> None:
    params = {"startDate": NINETY_DAYS_AGO, "perPage": 1000, "creditDebitType": kind}
    entries = body_of(accounts.get(TRANSACTIONS, params=params))["data"]
    assert entries
    assert {e["creditDebitType"] for e in entries} == {kind}


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"startDate": "2026-13-01"}, "startDate"),
        ({"startDate": "yesterday"}, "startDate"),
        ({"startDate": "2026-11-01garbage"}, "startDate"),
        ({"endDate": "18/11/2026"}, "endDate"),
        ({"startDate": "2026-11-10", "endDate": "2026-11-01"}, "endDate"),
        ({"perPage": "0"}, "perPage"),
        ({"perPage": "1001"}, "perPage"),
        ({"perPage": "ten"}, "perPage"),
        ({"page": "0"}, "page"),
        ({"creditDebitType": "BOTH"}, "creditDebitType"),
    ],
)
def test_statement_validation(accounts: Api, params: dict[str, str], field: str) -> None:
    problem = assert_problem(accounts.get(TRANSACTIONS, params=params), 400)
    assert field in violated(problem)


def test_dates_may_be_rfc3339_instants(accounts: Api) -> None:
    params = {"startDate": "2026-10-01T00:00:00Z", "endDate": "2026-10-10T23:59:59-03:00"}
    meta = body_of(accounts.get(TRANSACTIONS, params=params))["meta"]
    assert (meta["startDate"], meta["endDate"]) == ("2026-10-01", "2026-10-10")


@pytest.mark.parametrize("kind", ["PIX", "BILLET", "FEE", "REFUND"])
def test_transaction_type_filter(accounts: Api, kind: str) -> None:
    params = {"startDate": NINETY_DAYS_AGO, "perPage": 1000, "transactionType": kind}
    entries = body_of(accounts.get(TRANSACTIONS, params=params))["data"]
    assert entries
    assert {e["transactionType"] for e in entries} == {kind}


def test_per_page_limits_accepted(accounts: Api) -> None:
    for per_page in ("1", "1000"):
        response = accounts.get(TRANSACTIONS, params={"perPage": per_page})
        assert response.status_code == 200
        assert len(body_of(response)["data"]) <= int(per_page)


def test_new_payment_is_a_debit_entry(accounts: Api) -> None:
    payment = accounts.paid(Decimal("77.70"))
    entries = body_of(
        accounts.get(TRANSACTIONS, params={"creditDebitType": "DEBIT", "perPage": 20})
    )["data"]
    entry = next(e for e in entries if e.get("endToEndId") == payment["endToEndId"])
    assert entry["amount"] == Decimal("77.70")
    assert entry["transactionType"] == "PIX"
    assert entry["createdAt"][:10] == TODAY
    detail = accounts.get(f"{TRANSACTIONS}/{entry['id']}")
    assert detail.status_code == 200
    assert body_of(detail)["data"] == entry


def test_incoming_pix_is_a_credit_entry(accounts: Api) -> None:
    before = accounts.balance()
    created = accounts.control(
        "POST",
        "/sandbox/incoming-pix",
        {
            "amount": Decimal("2500.05"),
            "payer": {
                "name": "Cliente Teste Ltda",
                "document": "11444777000161",
                "ispb": "60746948",
            },
            "description": "Pagamento do pedido 42",
        },
    )["data"]
    assert accounts.balance() == before + Decimal("2500.05")
    entries = body_of(
        accounts.get(TRANSACTIONS, params={"creditDebitType": "CREDIT", "perPage": 10})
    )["data"]
    entry = next(e for e in entries if e["id"] == created["id"])
    assert entry["creditDebitType"] == "CREDIT"
    assert entry["amount"] == Decimal("2500.05")
    assert entry["description"] == "Pagamento do pedido 42"
    assert entry["counterparty"]["document"] == "11444777000161"
    assert entry["balanceAfter"] == before + Decimal("2500.05")


def test_incoming_pix_control_validation(accounts: Api) -> None:
    bad = accounts.http.post(
        "/sandbox/incoming-pix",
        json={"amount": 10, "payer": {"name": "X", "document": "12345678900"}},
    )
    assert_problem(bad, 400)
    zero = accounts.http.post("/sandbox/incoming-pix", json={"amount": 0})
    assert_problem(zero, 400)


@pytest.mark.parametrize("entry_id", ["99999999", "abc"])
def test_unknown_transaction_is_404(accounts: Api, entry_id: str) -> None:
    assert_problem(accounts.get(f"{TRANSACTIONS}/{entry_id}"), 404)
