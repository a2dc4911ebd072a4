"""The sandbox answers bad input with a 4xx problem, never a 500: JSON nested deeper than the
parser can follow, numbers no amount can be (1e309, 29 digits), and random JSON bodies thrown
at both APIs and both token endpoints (Hypothesis). A 405 names the allowed methods."""

from __future__ import annotations

import json
import secrets
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.sandbox.conftest import Api, assert_problem
from treasury_app.domain.identifiers import new_idempotency_key, new_txid

PIX_DICT = "/api/v2/pix/payments/dict"
DEEP = b"[" * 100_000 + b"]" * 100_000
ACCOUNTS_TOKEN = "/api/v2/oauth/token"
QR_TOKEN = "/oauth/token"


def raw(api: Api, method: str, path: str, content: bytes, *, auth: bool = True) -> httpx.Response:
    headers = {"content-type": "application/json"}
    if auth:
        headers["authorization"] = f"Bearer {api.token}"
    if method == "POST" and path.startswith("/api/v2/pix"):
        headers["x-idempotency-key"] = new_idempotency_key()
    return api.http.request(method, path, content=content, headers=headers)


@pytest.mark.parametrize(
    "body",
    [
        DEEP,
        b'{"pixKey":"a@b.com","pixKeyType":"EMAIL","payment":{"currency":"BRL","amount":1e309}}',
        b'{"pixKey":"a@b.com","pixKeyType":"EMAIL","payment":{"currency":"BRL","amount":'
        + b"9" * 29
        + b"}}",
        b'{"pixKey":"a@b.com","pixKeyType":"EMAIL","payment":{"currency":"BRL","amount":1e-400}}',
    ],
    ids=["nested", "1e309", "29-digits", "1e-400"],
)
def test_hostile_payment_bodies_are_400(accounts: Api, body: bytes) -> None:
    before = accounts.balance()
    assert_problem(raw(accounts, "POST", PIX_DICT, body), 400)
    assert accounts.balance() == before


def test_hostile_bodies_at_the_token_endpoints_and_the_qr_api(accounts: Api, qrcodes: Api) -> None:
    assert_problem(raw(accounts, "POST", ACCOUNTS_TOKEN, DEEP, auth=False), 400)
    assert_problem(raw(qrcodes, "PUT", f"/cob/{new_txid()}", DEEP), 400)
    huge = b'{"calendario":{"expiracao":3600},"valor":{"original":1e309},"chave":"x"}'
    response = raw(qrcodes, "PUT", f"/cob/{new_txid()}", huge)
    assert 400 <= response.status_code < 500, response.text


def test_405_names_the_allowed_methods(accounts: Api) -> None:
    response = accounts.http.request(
        "DELETE",
        "/api/v2/accounts/balances",
        headers={"authorization": f"Bearer {accounts.token}"},
    )
    assert_problem(response, 405)
    assert "GET" in response.headers["allow"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**40), max_value=10**40)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)
payment_like = st.fixed_dictionaries(
    {},
    optional={
        "pixKey": st.text(max_size=40) | st.just("fornecedor@empresa.com.br"),
        "pixKeyType": st.sampled_from(["EMAIL", "CPF", "CNPJ", "PHONE", "EVP", "X"]) | json_values,
        "payment": st.fixed_dictionaries(
            {"currency": st.sampled_from(["BRL", "USD"]) | json_values, "amount": json_values}
        )
        | json_values,
        "description": json_values,
        "paymentFlow": json_values,
        "priority": json_values,
    },
)
TARGETS = [
    ("accounts", "POST", PIX_DICT),
    ("accounts", "POST", "/api/v2/pix/payments/manu"),
    ("accounts", "POST", "/api/v2/billets/info"),
    ("accounts", "POST", "/api/v2/webhooks/transfer"),
    ("accounts", "POST", ACCOUNTS_TOKEN),
    ("qrcodes", "PUT", "/cob/{txid}"),
    ("qrcodes", "POST", "/rec"),
]


@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(target=st.sampled_from(TARGETS), body=payment_like | json_values)
def test_random_json_never_makes_a_500(accounts: Api, qrcodes: Api, target, body: Any) -> None:
    import json

    api_name, method, path = target
    api = accounts if api_name == "accounts" else qrcodes
    content = json.dumps(body).encode("utf-8")
    response = raw(
        api,
        method,
        path.replace("{txid}", new_txid()),
        content,
        auth="token" not in path,
    )
    assert response.status_code < 500, (target, body, response.status_code, response.text)


def test_a_batch_with_a_member_txid_that_is_not_text_can_be_sent_again(qrcodes: Api) -> None:
    """A member whose txid is an object is refused alone; sending the same batch again (BCB's
    "criar/alterar") answered 500 (an unhashable txid) and now answers as the batch's rules
    say, never 5xx."""
    batch_id = str(secrets.randbelow(10**9) + 1)
    member = {
        "calendario": {"dataDeVencimento": "2030-01-10"},
        "devedor": {"cpf": "52998224725", "nome": "Ana"},
        "valor": {"original": "10.00"},
        "chave": "financeiro@empresasandbox.com.br",
    }
    body = json.dumps({"descricao": "lote", "cobsv": [{**member, "txid": {"a": 1}}]}).encode()
    first = raw(qrcodes, "PUT", f"/lotecobv/{batch_id}", body)
    assert first.status_code in (200, 201, 202), first.text
    again = raw(qrcodes, "PUT", f"/lotecobv/{batch_id}", body)
    assert again.status_code < 500, again.text
    listed = raw(qrcodes, "GET", f"/lotecobv/{batch_id}", b"")
    assert listed.status_code == 200, listed.text
