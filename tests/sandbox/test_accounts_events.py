"""Accounts API webhooks end to end: the sandbox (a subprocess) notifies a real HTTPS
receiver (this process) of transfer status changes, money received, refunds and failures."""

from decimal import Decimal
from pathlib import Path

from tests.sandbox.test_notifier import Receiver
from tests.sandbox_harness import running_sandbox
from tests.waiting import await_until
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.domain.money import dumps_json_bytes, loads_json
from treasury_app.sandbox.pki import ensure_pki

JSON = {"content-type": "application/json"}


async def test_transfer_receive_refund_and_cashout_webhooks(tmp_path):
    with running_sandbox(tmp_path, "--clock-start", "2026-11-18T13:00:00Z") as sandbox:
        receiver = Receiver(ensure_pki(Path(sandbox.ready["ca_file"]).parent))
        url = await receiver.start()
        with sandbox.client("accounts") as client:
            auth = {"Authorization": f"Bearer {sandbox.token(client, 'accounts')}"}
            for kind in ("transfer", "receive", "refund", "cashout"):
                response = client.post(
                    f"/api/v2/webhooks/{kind}",
                    headers=auth,
                    json={
                        "uri": f"{url}/{kind}",
                        "enabled": True,
                        "method": "POST",
                        "pauseOnFail": False,
                        "headers": {"x-secret": "s3"},
                    },
                )
                assert response.status_code == 201
            key = new_idempotency_key()
            body = {
                "pixKey": "pagar@fornecedor.com.br",
                "pixKeyType": "EMAIL",
                "payment": {"currency": "BRL", "amount": Decimal("321.09")},
            }
            response = client.post(
                "/api/v2/pix/payments/dict",
                content=dumps_json_bytes(body),
                headers={**auth, **JSON, "x-idempotency-key": key},
            )
            assert response.status_code == 202
            e2e = loads_json(response.content)["data"]["endToEndId"]
            sandbox.control("POST", "/sandbox/clock", json={"advance": 5})

            def transfer_statuses():
                return [
                    loads_json(b)["data"]["status"]
                    for line, _h, b, _c in receiver.requests
                    if line.startswith("POST /transfer")
                ]

            await await_until(
                lambda: transfer_statuses()[-1:] == ["SETTLED"], "the SETTLED transfer notified"
            )
            assert transfer_statuses() == ["ON_QUEUE", "SETTLED"] or transfer_statuses() == [
                "ON_QUEUE",
                "PROCESSING",
                "SETTLED",
            ]
            sandbox.control(
                "POST",
                "/sandbox/incoming-pix",
                json={"amount": "77,10", "payer": {"name": "Cliente X"}},
            )
            sandbox.control("POST", f"/sandbox/pix/payments/{e2e}/refund", json={"amount": "21,09"})
            held = new_idempotency_key()
            response = client.post(
                "/api/v2/pix/payments/dict",
                content=dumps_json_bytes({**body, "paymentFlow": "APPROVAL_REQUIRED"}),
                headers={**auth, **JSON, "x-idempotency-key": held},
            )
            held_e2e = loads_json(response.content)["data"]["endToEndId"]
            assert sandbox.control("POST", f"/sandbox/pix/{held_e2e}/reject").status_code == 200

            def paths():
                return [line.split()[1] for line, *_ in receiver.requests]

            await await_until(
                lambda: {"/receive", "/refund", "/cashout"} <= set(paths()),
                "receive, refund and cashout notified",
            )
        by_path = {
            line.split()[1]: (headers, loads_json(body))
            for line, headers, body, _cn in receiver.requests
        }
        headers, receive = by_path["/receive"]
        assert headers["x-secret"] == "s3"
        assert receive["type"] == "RECEIVE"
        assert receive["data"]["amount"] == Decimal("77.10")
        assert by_path["/refund"][1]["data"]["amount"] == Decimal("21.09")
        cashout = by_path["/cashout"][1]
        assert cashout["type"] == "CASHOUT"
        assert cashout["data"]["endToEndId"] == held_e2e
        assert cashout["data"]["status"] == "CANCELED"
        seeded = [p for p in paths() if p == "/receive"]
        assert len(seeded) == 1, "seeded history must not be notified"
