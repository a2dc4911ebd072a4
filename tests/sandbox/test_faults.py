"""Injected faults: latency, 429 with Retry-After, 5xx for the next N requests, a response
dropped after the payment was committed, a gzip bomb; configured at run time through
/sandbox/faults (never applied to /sandbox itself) and at start-up on the command line."""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from decimal import Decimal

import httpx
import pytest

from tests.sandbox.conftest import CLOCK_START, Api, assert_problem, body_of
from tests.sandbox_harness import RunningSandbox
from tests.waiting import WAIT_SECONDS, wait_until
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.domain.money import dumps_json_bytes

BALANCES = "/api/v2/accounts/balances"


def test_no_faults_by_default(accounts: Api) -> None:
    assert accounts.control("GET", "/sandbox/faults") == {"rules": []}


def test_latency(accounts: Api) -> None:
    """The rule applies once (``times``): the sandbox drops it when this request used it. The
    wait is checked from below only: a slower machine cannot make the answer come sooner."""
    assert accounts.token  # fetched before the fault is in place
    with accounts.faults({"path": BALANCES, "latency_ms": 400, "times": 1}):
        rules = accounts.control("GET", "/sandbox/faults")["rules"]
        assert [(r["path"], r["latency_ms"]) for r in rules] == [(BALANCES, 400)]
        started = time.perf_counter()
        assert accounts.get(BALANCES).status_code == 200
        assert time.perf_counter() - started >= 0.4
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}  # it was used
    assert accounts.control("GET", "/sandbox/faults") == {"rules": []}


def test_429_with_retry_after(accounts: Api) -> None:
    with accounts.faults({"path": BALANCES, "rate_429": 1, "retry_after": 7, "times": 1}):
        refused = accounts.get(BALANCES)
        assert_problem(refused, 429)
        assert refused.headers["retry-after"] == "7"
        assert accounts.get(BALANCES).status_code == 200  # only the next request
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}


@pytest.mark.parametrize("status", [500, 503, 504])
def test_server_errors_for_the_next_n_requests(accounts: Api, status: int) -> None:
    injected = accounts.control("GET", "/sandbox/status")["faultsInjected"]
    rule = {"path": "/api/v2/accounts/*", "method": "GET", f"rate_{status}": 1, "times": 2}
    with accounts.faults(rule):
        for _ in range(2):
            failed = accounts.get(BALANCES)
            assert_problem(failed, status)
            if status == 503:
                assert failed.headers["retry-after"] == "1"
        assert accounts.get(BALANCES).status_code == 200
        assert accounts.get("/api/v2/accounts/transactions").status_code == 200
    assert accounts.control("GET", "/sandbox/status")["faultsInjected"] == injected + 2


def test_rule_filters_by_api_and_method(accounts: Api, qrcodes: Api) -> None:
    assert qrcodes.token  # fetched before the fault would hit the token endpoint too
    with accounts.faults({"api": "qrcodes", "rate_500": 1}, {"method": "POST", "rate_504": 1}):
        assert accounts.get(BALANCES).status_code == 200
        assert_problem(qrcodes.get("/webhook"), 500)
        assert_problem(accounts.pay_dict(Decimal("1.00")), 504)


def test_faults_never_apply_to_the_control_surface(accounts: Api) -> None:
    """A rule for every path, good for two requests: the control surface's requests leave it
    untouched (none of them is counted against ``times``, none is counted as injected); the
    API's next two requests use it up."""
    before = accounts.balance()
    injected = accounts.control("GET", "/sandbox/status")["faultsInjected"]
    with accounts.faults({"path": "*", "rate_503": 1, "latency_ms": 300, "times": 2}):
        status = accounts.control("GET", "/sandbox/status")
        assert status["faults"][0]["rate_503"] == Decimal("1.0")
        assert accounts.http.get("/sandbox/held").status_code == 200
        assert accounts.http.get("/sandbox/").status_code == 200
        accounts.advance(0.5)
        [rule] = accounts.control("GET", "/sandbox/faults")["rules"]
        assert rule["times"] == 2
        assert accounts.control("GET", "/sandbox/status")["faultsInjected"] == injected
        assert_problem(accounts.get(BALANCES), 503)
        assert_problem(accounts.get(BALANCES), 503)
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}
        assert accounts.control("GET", "/sandbox/status")["faultsInjected"] == injected + 2
    assert accounts.balance() == before


def test_faults_are_replaced_and_validated(accounts: Api) -> None:
    try:
        replaced = accounts.control(
            "PUT",
            "/sandbox/faults",
            {"rules": [{"path": "/nowhere", "rate_500": Decimal("0.5")}, {"latency_ms": 1}]},
        )["rules"]
        assert [r["rate_500"] for r in replaced] == [Decimal("0.5"), Decimal("0.0")]
        for bad in (
            {"rate_500": 2},
            {"rate_500": "1"},
            {"latency_ms": -1},
            {"answer_delay_ms": -5},
            {"drip_ms": -1},
            {"drip_ms": 20_000},
            {"gzip_bomb_mb": -1},
            {"gzip_bomb_mb": 1001},
            {"gzip_bomb_mb": None},
            {"answer_delay_ms": 700_000},
            {"latency_ms": Decimal("1.5")},
            {"times": 0},
            {"colour": "red"},
        ):
            response = accounts.http.post(
                "/sandbox/faults",
                content=dumps_json_bytes(bad),
                headers={"content-type": "application/json"},
            )
            assert_problem(response, 400)
        assert len(accounts.control("GET", "/sandbox/faults")["rules"]) == 2
    finally:
        accounts.control("DELETE", "/sandbox/faults")
    assert accounts.control("GET", "/sandbox/faults") == {"rules": []}


def test_drop_after_commit(accounts: Api) -> None:
    key = new_idempotency_key()
    before = accounts.balance()
    rule = {
        "path": "/api/v2/pix/payments/dict",
        "method": "POST",
        "drop_after_commit": 1,
        "times": 1,
    }
    with accounts.faults(rule), pytest.raises(httpx.TransportError):
        accounts.pay_dict(Decimal("61.50"), idem=key)
    # The payment exists although the client never saw the answer...
    found = accounts.get(f"/api/v2/pix/payments/idempotencyKey/{key}")
    assert found.status_code == 200
    payment = body_of(found)["data"]
    assert payment["payment"]["amount"] == Decimal("61.50")
    assert accounts.balance() == before - Decimal("61.50")
    # ...and retrying with the same key does not pay twice.
    assert_problem(accounts.pay_dict(Decimal("61.50"), idem=key), 412)
    assert accounts.balance() == before - Decimal("61.50")
    accounts.settle(payment["endToEndId"])


def test_answer_delayed_after_commit(accounts: Api) -> None:
    """The payment exists as soon as it is asked for; only its answer comes late: a client
    that gives up (or dies) meanwhile finds it by its key. The payment is found while its
    answer is still on its way (held five seconds: room for a busy machine to look it up),
    and the answer then comes, late."""
    key = new_idempotency_key()
    before = accounts.balance()
    rule = {"path": "/api/v2/pix/payments/dict", "answer_delay_ms": 5000, "times": 1}
    assert accounts.token  # fetched before the fault is in place

    def by_key() -> httpx.Response | None:
        answer = accounts.get(f"/api/v2/pix/payments/idempotencyKey/{key}")
        return answer if answer.status_code == 200 else None

    with (
        accounts.faults(rule),
        accounts.sandbox.client("accounts") as held,
        ThreadPoolExecutor(1) as pool,
    ):
        pending = pool.submit(
            held.post,
            "/api/v2/pix/payments/dict",
            content=dumps_json_bytes(
                {
                    "pixKey": "fornecedor@empresa.com.br",
                    "pixKeyType": "EMAIL",
                    "payment": {"currency": "BRL", "amount": Decimal("62.50")},
                }
            ),
            headers={
                "authorization": f"Bearer {accounts.token}",
                "content-type": "application/json",
                "x-idempotency-key": key,
            },
            timeout=WAIT_SECONDS,
        )
        found = wait_until(by_key, "the payment found by its key while its answer is held")
        assert not pending.done(), pending.result().text  # the answer had not come yet
        late = pending.result(timeout=WAIT_SECONDS)
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}  # it was used
    assert late.status_code == 202, late.text  # a client that waits long enough gets it
    assert body_of(late)["data"]["endToEndId"] == body_of(found)["data"]["endToEndId"]
    assert body_of(found)["data"]["payment"]["amount"] == Decimal("62.50")
    assert accounts.balance() == before - Decimal("62.50")
    # Only the answer waits: a request that waits long enough gets it, late.
    with accounts.faults({"path": BALANCES, "answer_delay_ms": 400, "times": 1}):
        started = time.perf_counter()
        assert accounts.get(BALANCES).status_code == 200
        assert time.perf_counter() - started >= 0.4  # from below only
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}  # it was used
    accounts.settle(body_of(found)["data"]["endToEndId"])


def test_gzip_bomb_after_commit(accounts: Api) -> None:
    """The handler runs (the payment exists) and its answer is replaced by 200 and a gzip
    body of about 1 KB per MB of JSON it inflates to."""
    key = new_idempotency_key()
    before = accounts.balance()
    with accounts.faults({"path": "/api/v2/pix/payments/dict", "gzip_bomb_mb": 5, "times": 1}):
        bombed = accounts.pay_dict(Decimal("63.50"), idem=key)
    assert bombed.status_code == 200
    assert bombed.headers["content-encoding"] == "gzip"
    assert int(bombed.headers["content-length"]) < 10_000
    assert len(bombed.content) == 5_000_000  # httpx inflated it whole: 5 MB
    assert json.loads(bombed.content) == {"a": "0" * (5_000_000 - 8)}
    found = accounts.get(f"/api/v2/pix/payments/idempotencyKey/{key}")
    assert found.status_code == 200, found.text
    assert accounts.balance() == before - Decimal("63.50")
    accounts.settle(body_of(found)["data"]["endToEndId"])


def test_gzip_bomb_survives_a_client_hanging_up(accounts: Api) -> None:
    """300 MB once inflated, 292 KB on the wire, sent in chunks; a client that reads a little
    and hangs up leaves the sandbox answering (and no traceback in its output)."""
    auth = {"authorization": f"Bearer {accounts.token}"}
    with accounts.faults({"path": BALANCES, "gzip_bomb_mb": 300, "times": 1}):
        with accounts.http.stream("GET", BALANCES, headers=auth) as bombed:
            assert bombed.status_code == 200
            assert 250_000 < int(bombed.headers["content-length"]) < 300_000
            first = next(bombed.iter_raw())
        start = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(first, 16)
        assert start == b'{"a":"0000000000'
        assert accounts.get(BALANCES).status_code == 200


def test_cli_rate_503(make_sandbox: Callable[..., RunningSandbox]) -> None:
    bank = make_sandbox("--clock-start", CLOCK_START, "--rate-503", "1", "--retry-after", "4")
    with bank.client("accounts") as client:
        status = client.get("/sandbox/status")
        assert status.status_code == 200, status.text
        rules = body_of(status)["faults"]
        assert [(r["path"], r["rate_503"], r["retry_after"]) for r in rules] == [
            ("*", Decimal("1.0"), 4)
        ]
        token = client.post("/api/v2/oauth/token", json={})
        assert_problem(token, 503)
        assert token.headers["retry-after"] == "4"
    with bank.client("qrcodes") as client:
        assert_problem(client.get("/webhook"), 503)
        assert client.get("/sandbox/status").status_code == 200


def test_cli_latency_and_drop_after_commit(make_sandbox: Callable[..., RunningSandbox]) -> None:
    bank = Api(
        make_sandbox(
            "--clock-start", CLOCK_START, "--latency-ms", "250", "--drop-after-commit", "1"
        ),
        "accounts",
    )
    try:
        rules = bank.control("GET", "/sandbox/faults")["rules"]
        assert [(r["path"], r["latency_ms"], r["drop_after_commit"]) for r in rules] == [
            ("*", 250, Decimal("0.0")),
            ("/api/v2/pix/payments/*", 0, Decimal("1.0")),
            ("/api/v2/billets/pay*", 0, Decimal("1.0")),
        ]
        started = time.perf_counter()
        before = bank.balance()
        assert time.perf_counter() - started >= 0.25  # from below only
        key = new_idempotency_key()
        with pytest.raises(httpx.TransportError):
            bank.pay_dict(Decimal("5.00"), idem=key)
        assert bank.balance() == before - Decimal("5.00")
        assert bank.get(f"/api/v2/pix/payments/idempotencyKey/{key}").status_code == 200
    finally:
        bank.close()
