"""OAuth on both APIs: the two token request formats and their errors, lifetimes, the token
endpoint's rate limit, and 401/403 on API calls. Runs on a sandbox of its own, because it
exhausts the rate limit and moves the clock by more than an hour."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.sandbox.conftest import (
    ACCOUNTS_SCOPES,
    CLOCK_START,
    Api,
    assert_problem,
    body_of,
    violated,
)
from tests.sandbox_harness import RunningSandbox
from treasury_app.sandbox.seed import COMPANY

WEBHOOK_RANGE = {"inicio": "2020-01-01T00:00:00Z", "fim": "2099-01-01T00:00:00Z"}

QR_TOKEN = "/oauth/token"
ACCOUNTS_TOKEN = "/api/v2/oauth/token"
KEY = COMPANY["keys"][1]


@pytest.fixture(scope="module")
def bank(make_module_sandbox: Callable[..., RunningSandbox]) -> RunningSandbox:
    return make_module_sandbox("--clock-start", CLOCK_START)


@pytest.fixture(scope="module")
def qr(bank: RunningSandbox) -> Iterator[httpx.Client]:
    with bank.client("qrcodes") as client:
        yield client


@pytest.fixture(scope="module")
def acc(bank: RunningSandbox) -> Iterator[httpx.Client]:
    with bank.client("accounts") as client:
        yield client


@pytest.fixture(autouse=True)
def _fresh_limits(acc: httpx.Client) -> None:
    assert acc.post("/sandbox/tokens/reset-limits").status_code == 200


def _qr_form(bank: RunningSandbox, **changes: str) -> dict[str, str]:
    cred = bank.credentials["qrcodes"]
    form = {
        "client_id": cred["client_id"],
        "client_secret": cred["client_secret"],
        "grant_type": "client_credentials",
    }
    form.update(changes)
    return form


def _acc_json(bank: RunningSandbox, **changes: Any) -> dict[str, Any]:
    cred = bank.credentials["accounts"]
    body = {
        "clientId": cred["client_id"],
        "clientSecret": cred["client_secret"],
        "grantType": "client_credentials",
    }
    body.update(changes)
    return body


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def _advance(client: httpx.Client, seconds: float) -> None:
    response = client.post("/sandbox/clock", json={"advance": seconds})
    assert response.status_code == 200, response.text


# QR Codes API token -------------------------------------------------------------------------
def test_qrcodes_token_form_encoded(bank: RunningSandbox, qr: httpx.Client) -> None:
    response = qr.post(QR_TOKEN, data=_qr_form(bank))
    assert response.status_code == 200, response.text
    token = response.json()
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 300
    assert isinstance(token["access_token"], str) and len(token["access_token"]) >= 20
    assert (
        qr.get("/webhook", params=WEBHOOK_RANGE, headers=_bearer(token["access_token"])).status_code
        == 200
    )


def test_qrcodes_token_refuses_json_body(bank: RunningSandbox, qr: httpx.Client) -> None:
    assert_problem(qr.post(QR_TOKEN, json=_qr_form(bank)), 400)


def test_qrcodes_token_wrong_grant_type(bank: RunningSandbox, qr: httpx.Client) -> None:
    problem = assert_problem(qr.post(QR_TOKEN, data=_qr_form(bank, grant_type="password")), 400)
    assert "grant_type" in violated(problem)


def test_qrcodes_token_unknown_client(bank: RunningSandbox, qr: httpx.Client) -> None:
    problem = assert_problem(qr.post(QR_TOKEN, data=_qr_form(bank, client_id="nobody")), 400)
    assert "client_id" in violated(problem)


def test_qrcodes_token_missing_fields(qr: httpx.Client) -> None:
    problem = assert_problem(qr.post(QR_TOKEN, data={"grant_type": "client_credentials"}), 400)
    assert {"client_id", "client_secret"} <= violated(problem)


def test_qrcodes_token_wrong_secret(bank: RunningSandbox, qr: httpx.Client) -> None:
    assert_problem(qr.post(QR_TOKEN, data=_qr_form(bank, client_secret="wrong")), 401)


def test_qrcodes_client_id_is_not_valid_on_accounts(
    bank: RunningSandbox, acc: httpx.Client
) -> None:
    cred = bank.credentials["qrcodes"]
    body = _acc_json(bank, clientId=cred["client_id"], clientSecret=cred["client_secret"])
    assert_problem(acc.post(ACCOUNTS_TOKEN, json=body), 400)


# Accounts API token -------------------------------------------------------------------------
def test_accounts_token_json(bank: RunningSandbox, acc: httpx.Client) -> None:
    response = acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank))
    assert response.status_code == 200, response.text
    token = response.json()
    assert token["token_type"] == "Bearer"
    assert token["expires_in"] == 3600
    assert isinstance(token["scope"], str)
    # No scope requested: every permission of the credentials.
    assert set(token["scope"].split()) >= ACCOUNTS_SCOPES
    balances = acc.get("/api/v2/accounts/balances", headers=_bearer(token["access_token"]))
    assert balances.status_code == 200


def test_accounts_token_refuses_form_body(bank: RunningSandbox, acc: httpx.Client) -> None:
    assert_problem(acc.post(ACCOUNTS_TOKEN, data=_acc_json(bank)), 400)


def test_accounts_token_refuses_bcb_names(bank: RunningSandbox, acc: httpx.Client) -> None:
    cred = bank.credentials["accounts"]
    body = {
        "client_id": cred["client_id"],
        "client_secret": cred["client_secret"],
        "grant_type": "client_credentials",
    }
    problem = assert_problem(acc.post(ACCOUNTS_TOKEN, json=body), 400)
    assert {"clientId", "clientSecret", "grantType"} <= violated(problem)


def test_accounts_token_errors(bank: RunningSandbox, acc: httpx.Client) -> None:
    wrong_grant = assert_problem(
        acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank, grantType="authorization_code")), 400
    )
    assert "grantType" in violated(wrong_grant)
    assert_problem(acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank, clientId="nobody")), 400)
    assert_problem(acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank, clientSecret="wrong")), 401)
    assert_problem(acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank, scope="cob.write")), 400)


# Rate limit ----------------------------------------------------------------------------------
@pytest.mark.parametrize("api", ["qrcodes", "accounts"])
def test_token_endpoint_rate_limit(
    bank: RunningSandbox, qr: httpx.Client, acc: httpx.Client, api: str
) -> None:
    def request() -> httpx.Response:
        if api == "qrcodes":
            return qr.post(QR_TOKEN, data=_qr_form(bank))
        return acc.post(ACCOUNTS_TOKEN, json=_acc_json(bank))

    for _ in range(10):
        assert request().status_code == 200
    refused = request()
    assert_problem(refused, 429)
    retry_after = int(refused.headers["retry-after"])
    assert 1 <= retry_after <= 60
    # The other API's endpoint has its own budget.
    other = acc if api == "qrcodes" else qr
    if api == "qrcodes":
        assert other.post(ACCOUNTS_TOKEN, json=_acc_json(bank)).status_code == 200
    else:
        assert other.post(QR_TOKEN, data=_qr_form(bank)).status_code == 200
    _advance(acc, 30)
    assert request().status_code == 429  # still inside the minute
    _advance(acc, 30)
    assert request().status_code == 200


# 401 / 403 on API calls ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"authorization": "Bearer"},
        {"authorization": "Bearer garbage"},
        {"authorization": "Basic x"},
    ],
    ids=["missing", "empty", "garbage", "basic"],
)
def test_missing_or_invalid_token(
    qr: httpx.Client, acc: httpx.Client, headers: dict[str, str]
) -> None:
    for response in (
        acc.get("/api/v2/accounts/balances", headers=headers),
        qr.get("/webhook", params=WEBHOOK_RANGE, headers=headers),
    ):
        assert_problem(response, 401)
        assert response.headers["www-authenticate"].lower().startswith("bearer")


def test_token_of_the_other_api(bank: RunningSandbox, qr: httpx.Client, acc: httpx.Client) -> None:
    qr_token = bank.token(qr, "qrcodes")
    acc_token = bank.token(acc, "accounts")
    assert_problem(acc.get("/api/v2/accounts/balances", headers=_bearer(qr_token)), 401)
    assert_problem(qr.get("/webhook", params=WEBHOOK_RANGE, headers=_bearer(acc_token)), 401)
    # each works on its own API
    assert acc.get("/api/v2/accounts/balances", headers=_bearer(acc_token)).status_code == 200
    assert qr.get("/webhook", params=WEBHOOK_RANGE, headers=_bearer(qr_token)).status_code == 200


def test_qrcodes_token_expires_after_300_seconds(bank: RunningSandbox, qr: httpx.Client) -> None:
    token = bank.token(qr, "qrcodes")
    _advance(qr, 290)
    assert qr.get("/webhook", params=WEBHOOK_RANGE, headers=_bearer(token)).status_code == 200
    _advance(qr, 11)
    assert_problem(qr.get("/webhook", params=WEBHOOK_RANGE, headers=_bearer(token)), 401)
    assert (
        qr.get(
            "/webhook", params=WEBHOOK_RANGE, headers=_bearer(bank.token(qr, "qrcodes"))
        ).status_code
        == 200
    )


def test_accounts_token_expires_after_3600_seconds(bank: RunningSandbox, acc: httpx.Client) -> None:
    token = bank.token(acc, "accounts")
    _advance(acc, 3590)
    assert acc.get("/api/v2/accounts/balances", headers=_bearer(token)).status_code == 200
    _advance(acc, 11)
    assert_problem(acc.get("/api/v2/accounts/balances", headers=_bearer(token)), 401)


def test_accounts_missing_scope_is_403(bank: RunningSandbox) -> None:
    api = Api(bank, "accounts", scope="pix.read")
    try:
        before = api.balance()  # pix.read is enough to read the balance
        assert_problem(api.pay_dict(Decimal("10.00")), 403)
        assert_problem(
            api.post("/api/v2/webhooks/transfer", json={"uri": "https://example.com/h"}), 403
        )
        assert api.balance() == before  # nothing was paid
    finally:
        api.close()


def test_qrcodes_missing_scope_is_403(bank: RunningSandbox) -> None:
    api = Api(bank, "qrcodes", scope="webhook.read")
    try:
        assert api.get("/webhook", params=WEBHOOK_RANGE).status_code == 200
        response = api.put(f"/webhook/{KEY}", json={"webhookUrl": "https://example.com/pix"})
        assert_problem(response, 403)
        assert api.get(f"/webhook/{KEY}").status_code == 404  # nothing was configured
    finally:
        api.close()


def test_no_scope_requested_means_all(bank: RunningSandbox) -> None:
    api = Api(bank, "qrcodes")
    try:
        created = api.put(f"/webhook/{KEY}", json={"webhookUrl": "https://example.com/pix"})
        assert created.status_code == 200, created.text
        assert api.get(f"/webhook/{KEY}").status_code == 200
        assert api.delete(f"/webhook/{KEY}").status_code == 204
    finally:
        api.close()
    accounts = Api(bank, "accounts")
    try:
        webhook = accounts.post(
            "/api/v2/webhooks/refund", json={"uri": "https://example.com/refund"}
        )
        assert webhook.status_code in (200, 201), webhook.text
        assert accounts.get("/api/v2/webhooks").status_code == 200
        assert body_of(accounts.get("/api/v2/webhooks/refund"))["data"]["uri"].endswith("/refund")
    finally:
        accounts.close()


def test_unknown_scope_is_400(bank: RunningSandbox, qr: httpx.Client) -> None:
    problem = assert_problem(qr.post(QR_TOKEN, data=_qr_form(bank, scope="cob.read nope")), 400)
    assert "scope" in violated(problem)
