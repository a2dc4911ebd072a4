"""The control surface as a person or a test uses it: the HTML console (held payments,
approving from a form), status, and the clock endpoint's validation."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest

from tests.sandbox.conftest import Api, assert_problem, body_of


def test_console_lists_held_payments(accounts: Api) -> None:
    payment = accounts.paid(
        Decimal("4321.09"), pix_key="console@exemplo.com.br", paymentFlow="APPROVAL_REQUIRED"
    )
    response = accounts.http.get("/sandbox/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    page = html.unescape(response.text)
    assert "Pagamentos aguardando aprovação" in page
    assert payment["endToEndId"] in page
    assert payment["creditorAccount"]["name"] in page
    assert "R$ 4.321,09" in page
    assert "Energia elétrica" in page  # the payable slips
    accounts.control("POST", f"/sandbox/pix/{payment['endToEndId']}/reject")
    assert payment["endToEndId"] not in accounts.http.get("/sandbox/").text


def test_console_form_approves(accounts: Api) -> None:
    before = accounts.balance()
    payment = accounts.paid(Decimal("12.00"), paymentFlow="APPROVAL_REQUIRED")
    response = accounts.http.post(
        "/sandbox/console/decide",
        data={"kind": "pix", "id": payment["endToEndId"], "decision": "approve"},
    )
    assert response.status_code == 303
    assert response.headers["location"] == "/sandbox/?result=ok"
    assert accounts.pix(payment["endToEndId"])["status"] == "ON_QUEUE"
    assert accounts.balance() == before - Decimal("12.00")


def test_console_on_the_qrcodes_server_too(qrcodes: Api) -> None:
    response = qrcodes.http.get("/sandbox/")
    assert response.status_code == 200
    assert "Sandbox Bank" in response.text


def test_status(accounts: Api) -> None:
    held = accounts.paid(Decimal("1.00"), paymentFlow="APPROVAL_REQUIRED")
    status = accounts.control("GET", "/sandbox/status")
    assert status["now"].startswith("2026-11-18T")
    assert status["balance"] == accounts.balance()
    assert status["heldPayments"] >= 1
    assert status["faults"] == []
    assert isinstance(status["tokenRequests"], int)
    accounts.control("POST", f"/sandbox/pix/{held['endToEndId']}/reject")
    assert accounts.control("GET", "/sandbox/status")["heldPayments"] == status["heldPayments"] - 1


def test_clock_advance(accounts: Api) -> None:
    before = accounts.now()
    after = accounts.advance(2)
    assert after > before
    assert body_of(accounts.http.get("/sandbox/status"))["now"] >= after


@pytest.mark.parametrize(
    "body",
    [{}, {"advance": -5}, {"advance": "soon"}, {"set": "tomorrow"}, {"set": "2026-11-18T10:00:00"}],
)
def test_clock_validation(accounts: Api, body: dict[str, object]) -> None:
    assert_problem(accounts.http.post("/sandbox/clock", json=body), 400)


def test_unknown_routes_are_problems(accounts: Api, qrcodes: Api) -> None:
    assert_problem(accounts.get("/api/v2/nothing-here"), 404)
    assert_problem(qrcodes.get("/nothing-here"), 404)
    assert_problem(accounts.http.post("/sandbox/pix/E1/maybe"), 404)
    assert_problem(accounts.delete("/api/v2/accounts/balances"), 405)
    assert_problem(qrcodes.post("/webhook"), 405)


def test_console_forms_credit_advance_and_clear(accounts: Api) -> None:
    before = accounts.balance()
    credited = accounts.http.post(
        "/sandbox/console/incoming", data={"amount": "1.000,50", "name": "Cliente do Console"}
    )
    assert credited.status_code == 303
    assert accounts.balance() == before + Decimal("1000.50")
    payment = accounts.paid(Decimal("1.00"))
    assert accounts.http.post("/sandbox/console/clock", data={"seconds": "4"}).status_code == 303
    assert accounts.pix(payment["endToEndId"])["status"] == "SETTLED"
    with accounts.faults({"path": "/nowhere", "rate_500": 1}):
        assert "Limpar falhas" in accounts.http.get("/sandbox/").text
        assert accounts.http.post("/sandbox/console/faults").status_code == 303
        assert accounts.control("GET", "/sandbox/faults") == {"rules": []}


def test_console_pays_a_charge_and_approves_a_recurrence(qr_sandbox_forms) -> None:
    """The HTML console's Cash In and Pix Automático forms act on the bank and list the
    notifications with their delivery result."""
    sandbox, txid, id_rec = qr_sandbox_forms
    with sandbox.client("accounts") as client:
        paid = client.post("/sandbox/console/pay-charge", data={"txid": txid, "name": "Ana"})
        assert paid.status_code == 303 and paid.headers["location"].endswith("result=ok")
        again = client.post("/sandbox/console/pay-charge", data={"txid": txid, "name": "Ana"})
        assert "result=ok" not in again.headers["location"]  # a concluded charge: 422 detail
        approved = client.post("/sandbox/console/rec", data={"idRec": id_rec, "action": "approve"})
        assert approved.headers["location"].endswith("result=ok")
        page = client.get("/sandbox/?result=ok").text
    assert "Pagar uma cobrança" in page and "Pix Automático" in page
    assert ("Notificações" in page and "NO_WEBHOOK" in page) or "PENDING" in page
    with sandbox.client("qrcodes") as qr:
        token = sandbox.token(qr, "qrcodes")
        headers = {"Authorization": f"Bearer {token}"}
        assert qr.get(f"/cob/{txid}", headers=headers).json()["status"] == "CONCLUIDA"
        assert qr.get(f"/rec/{id_rec}", headers=headers).json()["status"] == "APROVADA"


@pytest.fixture
def qr_sandbox_forms(tmp_path):
    from tests.sandbox.test_automatico import rec_body
    from tests.sandbox.test_cashin import cob_body
    from tests.sandbox_harness import running_sandbox
    from treasury_app.domain.identifiers import new_txid

    with running_sandbox(tmp_path, "--clock-start", "2026-11-18T13:00:00Z") as sandbox:
        with sandbox.client("qrcodes") as qr:
            headers = {"Authorization": f"Bearer {sandbox.token(qr, 'qrcodes')}"}
            txid = new_txid()
            assert qr.put(f"/cob/{txid}", headers=headers, json=cob_body()).status_code == 201
            id_rec = qr.post("/rec", headers=headers, json=rec_body()).json()["idRec"]
        yield sandbox, txid, id_rec
