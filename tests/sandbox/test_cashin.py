"""Cash In of the sandbox's QR Codes API (cob, cobv, lotecobv, loc, Pix, devolução, signed QR
payloads) against a real sandbox over mutual TLS, plus unit tests of the cobv amount due."""

from __future__ import annotations

import base64
import datetime as dt
import json
import sqlite3
import time
from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.sandbox_harness import RunningSandbox, running_sandbox
from treasury_app.domain import brcode
from treasury_app.domain.business_days import is_business_day
from treasury_app.domain.identifiers import is_valid_e2eid, is_valid_rtrid, new_idempotency_key
from treasury_app.domain.money import dumps_json_bytes, loads_json
from treasury_app.sandbox.cashin_bank import cobv_amount_due, cobv_last_payment_date

CLOCK_START = "2026-11-18T13:00:00Z"  # Wednesday, 10:00 in Brasília
TODAY = dt.date(2026, 11, 18)
RANGE = {"inicio": "2026-01-01T00:00:00Z", "fim": "2027-12-31T23:59:59Z"}
CHAVE = "11222333000181"
EMAIL_KEY = "financeiro@empresasandbox.com.br"
CPF = "40364478829"
OTHER_CPF = "96271845860"
CNPJ = "60391947000100"
PAYER = {"name": "Fulano de Tal", "cpf": CPF}
PROBLEM = "application/problem+json"
_UNSET: Any = object()


# ---------------------------------------------------------------------------------------------
# Pure: the amount due of a cobv


def cobv(due: str, valor: dict[str, Any], validade: int = 30) -> dict[str, Any]:
    return {
        "calendario": {"dataDeVencimento": due, "validadeAposVencimento": validade},
        "valor": valor,
    }


def test_amount_due_plain_before_and_on_due_date() -> None:
    charge = cobv(
        "2026-12-15", {"original": "100.00", "multa": {"modalidade": 2, "valorPerc": "2.00"}}
    )
    for day in (TODAY, dt.date(2026, 12, 15)):
        due = cobv_amount_due(charge, day)
        assert due["final"] == Decimal("100.00")
        assert due["multa"] == due["juros"] == due["desconto"] == due["abatimento"] == 0


def test_amount_due_fixed_fine_and_value_per_calendar_day() -> None:
    charge = cobv(
        "2026-12-15",
        {
            "original": "100.00",
            "multa": {"modalidade": 1, "valorPerc": "5.00"},
            "juros": {"modalidade": 1, "valorPerc": "0.10"},
        },
    )
    due = cobv_amount_due(charge, dt.date(2026, 12, 25))  # 10 calendar days late
    assert due == {
        "original": Decimal("100.00"),
        "multa": Decimal("5.00"),
        "juros": Decimal("1.00"),
        "abatimento": Decimal("0.00"),
        "desconto": Decimal("0.00"),
        "final": Decimal("106.00"),
    }


def test_amount_due_percent_fine_and_monthly_interest() -> None:
    charge = cobv(
        "2026-12-15",
        {
            "original": "1000.00",
            "multa": {"modalidade": 2, "valorPerc": "2.00"},
            "juros": {"modalidade": 3, "valorPerc": "1.00"},  # 1 % a month, calendar days
        },
    )
    due = cobv_amount_due(charge, dt.date(2026, 12, 25))
    assert due["multa"] == Decimal("20.00")
    assert due["juros"] == Decimal("3.33")  # 1000 * 1% / 30 * 10
    assert due["final"] == Decimal("1023.33")


@pytest.mark.parametrize(
    ("modalidade", "rate", "expected"),
    [
        (2, "0.10", Decimal("4.00")),  # % a day, 4 calendar days
        (4, "36.50", Decimal("4.00")),  # % a year of 365 days
        (5, "1.50", Decimal("3.00")),  # value per business day, 2 business days
        (6, "0.10", Decimal("2.00")),  # % per business day
        (7, "2.10", Decimal("2.00")),  # % a month of 21 business days
        (8, "25.20", Decimal("2.00")),  # % a year of 252 business days
    ],
)
def test_amount_due_interest_modalidades(modalidade: int, rate: str, expected: Decimal) -> None:
    # Due Friday 2026-11-27; paid Tuesday 2026-12-01: 4 calendar, 2 business days late.
    assert is_business_day(dt.date(2026, 11, 27)) and is_business_day(dt.date(2026, 11, 30))
    charge = cobv(
        "2026-11-27",
        {"original": "1000.00", "juros": {"modalidade": modalidade, "valorPerc": rate}},
    )
    assert cobv_amount_due(charge, dt.date(2026, 12, 1))["juros"] == expected


def test_amount_due_discount_fixed_dates_and_percentage() -> None:
    desconto = {
        "modalidade": 1,
        "descontoDataFixa": [
            {"data": "2026-12-01", "valorPerc": "10.00"},
            {"data": "2026-12-10", "valorPerc": "5.00"},
        ],
    }
    charge = cobv("2026-12-15", {"original": "200.00", "desconto": desconto})
    assert cobv_amount_due(charge, dt.date(2026, 11, 30))["desconto"] == Decimal("10.00")
    assert cobv_amount_due(charge, dt.date(2026, 12, 1))["final"] == Decimal("190.00")
    assert cobv_amount_due(charge, dt.date(2026, 12, 2))["desconto"] == Decimal("5.00")
    assert cobv_amount_due(charge, dt.date(2026, 12, 11))["desconto"] == 0
    percent = {**desconto, "modalidade": 2}
    charge = cobv("2026-12-15", {"original": "200.00", "desconto": percent})
    assert cobv_amount_due(charge, dt.date(2026, 12, 1))["desconto"] == Decimal("20.00")
    early = cobv(
        "2026-12-15", {"original": "200.00", "desconto": {"modalidade": 3, "valorPerc": "1.00"}}
    )
    assert cobv_amount_due(early, dt.date(2026, 12, 10))["desconto"] == Decimal("5.00")


def test_amount_due_rebate_lowers_the_base_of_percentages() -> None:
    charge = cobv(
        "2026-12-15",
        {
            "original": "200.00",
            "abatimento": {"modalidade": 2, "valorPerc": "10.00"},
            "multa": {"modalidade": 2, "valorPerc": "2.00"},
        },
    )
    assert cobv_amount_due(charge, dt.date(2026, 12, 1))["final"] == Decimal("180.00")
    late = cobv_amount_due(charge, dt.date(2026, 12, 16))
    assert (late["abatimento"], late["multa"], late["final"]) == (
        Decimal("20.00"),
        Decimal("3.60"),
        Decimal("183.60"),
    )


def test_amount_due_rolls_a_due_date_on_a_non_business_day() -> None:
    # Friday 2026-11-20 is a national holiday (Consciência Negra) and 21-22 a weekend.
    assert not is_business_day(dt.date(2026, 11, 20))
    charge = cobv(
        "2026-11-20",
        {
            "original": "100.00",
            "multa": {"modalidade": 1, "valorPerc": "2.00"},
            "juros": {"modalidade": 1, "valorPerc": "1.00"},
        },
    )
    assert cobv_amount_due(charge, dt.date(2026, 11, 23))["final"] == Decimal("100.00")
    assert cobv_amount_due(charge, dt.date(2026, 11, 24))["final"] == Decimal("103.00")


@pytest.mark.parametrize(
    ("due", "validade", "last"),
    [  # the examples of BCB's CobDataDeVencimento schema
        ("2020-10-20", 4, "2020-10-26"),
        ("2020-12-25", 0, "2020-12-28"),
        ("2020-12-25", 1, "2020-12-29"),
        ("2020-12-25", 3, "2020-12-31"),
        ("2020-12-25", 4, "2021-01-04"),
        ("2021-08-27", 5, "2021-09-01"),
    ],
)
def test_last_payment_date_follows_the_bcb_examples(due: str, validade: int, last: str) -> None:
    charge = cobv(due, {"original": "1.00"}, validade)
    assert cobv_last_payment_date(charge) == dt.date.fromisoformat(last)


# ---------------------------------------------------------------------------------------------
# A sandbox for this module


class Client:
    """One mTLS client of one API with one token for the whole module."""

    def __init__(self, sandbox: RunningSandbox, api: str, scope: str | None = None) -> None:
        self.http = sandbox.client(api)
        self.token = sandbox.token(self.http, api, scope)

    def call(
        self,
        method: str,
        path: str,
        json: Any = _UNSET,
        *,
        params: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        all_headers = {"authorization": f"Bearer {self.token}", **(headers or {})}
        content = None
        if json is not _UNSET:
            content = dumps_json_bytes(json)
            all_headers["content-type"] = "application/json"
        return self.http.request(method, path, content=content, headers=all_headers, params=params)

    def ok(self, method: str, path: str, json: Any = _UNSET, status: int = 200, **kw: Any) -> Any:
        response = self.call(method, path, json, **kw)
        assert response.status_code == status, (response.status_code, response.text)
        return loads_json(response.content) if response.content else None

    def control(self, method: str, path: str, json: Any = _UNSET) -> httpx.Response:
        content = None if json is _UNSET else dumps_json_bytes(json)
        headers = {"content-type": "application/json"} if content is not None else {}
        return self.http.request(method, path, content=content, headers=headers)

    def advance(self, seconds: float) -> None:
        response = self.control("POST", "/sandbox/clock", {"advance": Decimal(str(seconds))})
        assert response.status_code == 200, response.text


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    with running_sandbox(tmp_path_factory.mktemp("cashin"), "--clock-start", CLOCK_START) as sb:
        yield sb


@pytest.fixture(scope="module")
def qr(sandbox: RunningSandbox) -> Iterator[Client]:
    client = Client(sandbox, "qrcodes")
    yield client
    client.http.close()


@pytest.fixture(scope="module")
def accounts(sandbox: RunningSandbox) -> Iterator[Client]:
    client = Client(sandbox, "accounts")
    yield client
    client.http.close()


def problem_of(response: httpx.Response, status: int, type_name: str) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.text)
    assert response.headers["content-type"].split(";")[0] == PROBLEM
    problem: dict[str, Any] = loads_json(response.content)  # type: ignore[assignment]
    assert problem["type"] == f"https://pix.bcb.gov.br/api/v2/error/{type_name}", problem
    assert problem["status"] == status
    assert problem["title"] and problem["detail"]
    assert problem["instance"] == response.request.url.path
    if status == 400:
        assert isinstance(problem["violacoes"], list)
    return problem


def violated(problem: dict[str, Any]) -> set[str]:
    return {v["propriedade"] for v in problem["violacoes"]}


def txid_for(label: str) -> str:
    return f"{label}{time.time_ns()}".ljust(26, "x")[:35]


def cob_body(original: str = "123.45", **extra: Any) -> dict[str, Any]:
    return {
        "calendario": {"expiracao": 3600},
        "devedor": {"cpf": CPF, "nome": "Fulano de Tal"},
        "valor": {"original": original},
        "chave": CHAVE,
        "solicitacaoPagador": "Pedido 42",
        **extra,
    }


def cobv_body(original: str = "500.00", due: str = "2026-12-15", **valor: Any) -> dict[str, Any]:
    return {
        "calendario": {"dataDeVencimento": due, "validadeAposVencimento": 30},
        "devedor": {"cnpj": CNPJ, "nome": "Cliente Atacado Ltda", "cidade": "Recife", "uf": "PE"},
        "valor": {"original": original, **valor},
        "chave": EMAIL_KEY,
    }


def pay(qr: Client, txid: str, **extra: Any) -> httpx.Response:
    return qr.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": PAYER, **extra})


# ---------------------------------------------------------------------------------------------
# cob


def test_post_cob_generates_txid_location_and_pix_copia_e_cola(
    sandbox: RunningSandbox, qr: Client
) -> None:
    cob = qr.ok("POST", "/cob", cob_body(infoAdicionais=[{"nome": "Pedido", "valor": "42"}]), 201)
    assert len(cob["txid"]) == 35 and cob["txid"].isalnum()
    assert cob["status"] == "ATIVA" and cob["revisao"] == 0
    assert cob["calendario"]["expiracao"] == 3600 and cob["calendario"]["criacao"]
    assert cob["valor"] == {"original": "123.45"}
    host = sandbox.urls["qrcodes"].removeprefix("https://")
    assert cob["location"] == cob["loc"]["location"]
    assert cob["location"].startswith(f"{host}/qr/v2/")
    assert cob["loc"]["tipoCob"] == "cob" and isinstance(cob["loc"]["id"], int)
    code = brcode.parse(cob["pixCopiaECola"])
    assert code.url == cob["location"] and code.is_dynamic and code.amount is None
    again = qr.ok("GET", f"/cob/{cob['txid']}")
    assert again == cob  # no pix[] before payment


def test_put_cob_with_client_txid_and_default_expiry(qr: Client) -> None:
    txid = txid_for("put")
    body = cob_body()
    del body["calendario"]
    cob = qr.ok("PUT", f"/cob/{txid}", body, 201)
    assert cob["txid"] == txid and cob["calendario"]["expiracao"] == 86400
    problem = problem_of(qr.call("PUT", f"/cob/{txid}", body), 400, "CobOperacaoInvalida")
    assert violated(problem) == {"cob.txid"}  # a txid is used once


def test_cob_validation_errors(qr: Client) -> None:
    short = problem_of(qr.call("PUT", "/cob/abc123", cob_body()), 400, "CobOperacaoInvalida")
    assert violated(short) == {"cob.txid"}
    body = {
        "calendario": {"expiracao": 0},
        "devedor": {"cpf": "12345678900", "nome": "X"},
        "valor": {"original": "10"},
        "chave": "naoexiste@example.com",
        "solicitacaoPagador": "x" * 141,
        "infoAdicionais": [{"nome": "a", "valor": "b"}] * 51,
    }
    problem = problem_of(qr.call("POST", "/cob", body), 400, "CobOperacaoInvalida")
    assert violated(problem) == {
        "cob.calendario.expiracao",
        "cob.devedor.cpf",
        "cob.valor.original",
        "cob.chave",
        "cob.solicitacaoPagador",
        "cob.infoAdicionais",
    }
    both = cob_body(devedor={"cpf": CPF, "cnpj": CNPJ, "nome": "X"})
    assert violated(problem_of(qr.call("POST", "/cob", both), 400, "CobOperacaoInvalida")) == {
        "cob.devedor"
    }
    zero = problem_of(qr.call("POST", "/cob", cob_body("0.00")), 400, "CobOperacaoInvalida")
    assert violated(zero) == {"cob.valor.original"}
    missing = problem_of(qr.call("POST", "/cob", {}), 400, "CobOperacaoInvalida")
    assert violated(missing) == {"cob.valor", "cob.valor.original", "cob.chave"}
    problem_of(qr.call("GET", "/cob/" + "z" * 30), 404, "CobNaoEncontrado")


def test_patch_cob_revises_then_removes(qr: Client) -> None:
    cob = qr.ok("POST", "/cob", cob_body(), 201)
    path = f"/cob/{cob['txid']}"
    revised = qr.ok("PATCH", path, {"valor": {"original": "99.90"}, "solicitacaoPagador": None})
    assert revised["revisao"] == 1 and revised["valor"]["original"] == "99.90"
    assert "solicitacaoPagador" not in revised and revised["devedor"] == cob["devedor"]
    bad = problem_of(qr.call("PATCH", path, {"devedor": {"cnpj": "1"}}), 400, "CobOperacaoInvalida")
    assert "cob.devedor.cnpj" in violated(bad)
    status = problem_of(qr.call("PATCH", path, {"status": "CONCLUIDA"}), 400, "CobOperacaoInvalida")
    assert violated(status) == {"cob.status"}
    removed = qr.ok("PATCH", path, {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"})
    assert removed["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR" and removed["revisao"] == 2
    problem_of(qr.call("PATCH", path, {"valor": {"original": "1.00"}}), 400, "CobOperacaoInvalida")
    assert pay(qr, cob["txid"]).status_code == 422
    problem_of(qr.call("PATCH", "/cob/" + "q" * 30, {}), 404, "CobNaoEncontrado")
    # Every revision stays readable: ?revisao= answers that one, or 404 for one that never was.
    first = qr.ok("GET", path, params={"revisao": 0})
    assert first["revisao"] == 0 and first["valor"]["original"] == cob["valor"]["original"]
    assert first["status"] == "ATIVA"
    second = qr.ok("GET", path, params={"revisao": 1})
    assert second["revisao"] == 1 and second["valor"]["original"] == "99.90"
    assert qr.ok("GET", path, params={"revisao": 2})["status"] == "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    problem_of(qr.call("GET", path, params={"revisao": 7}), 404, "CobNaoEncontrado")
    assert qr.call("GET", path, params={"revisao": "x"}).status_code == 400


def test_list_cobs_filters_and_pages(qr: Client) -> None:
    mine = [
        qr.ok("POST", "/cob", cob_body(devedor={"cpf": OTHER_CPF, "nome": "Beltrano"}), 201)
        for _ in range(3)
    ]
    problem_of(qr.call("GET", "/cob"), 400, "CobConsultaInvalida")
    listed = qr.ok("GET", "/cob", params={**RANGE, "cpf": OTHER_CPF, "paginacao.itensPorPagina": 2})
    assert listed["parametros"]["paginacao"] == {
        "paginaAtual": 0,
        "itensPorPagina": 2,
        "quantidadeDePaginas": 2,
        "quantidadeTotalDeItens": 3,
    }
    assert len(listed["cobs"]) == 2
    assert {c["txid"] for c in listed["cobs"]} <= {c["txid"] for c in mine}
    qr.ok("PATCH", f"/cob/{mine[0]['txid']}", {"status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"})
    active = qr.ok("GET", "/cob", params={**RANGE, "cpf": OTHER_CPF, "status": "ATIVA"})
    assert {c["txid"] for c in active["cobs"]} == {c["txid"] for c in mine[1:]}
    later = qr.ok("GET", "/cob", params={"inicio": "2027-06-01T00:00:00Z", "fim": RANGE["fim"]})
    assert later["cobs"] == []
    both = qr.call("GET", "/cob", params={**RANGE, "cpf": CPF, "cnpj": CNPJ})
    problem_of(both, 400, "CobConsultaInvalida")
    problem_of(qr.call("GET", "/cob", params={**RANGE, "status": "X"}), 400, "CobConsultaInvalida")
    no_loc = qr.ok("GET", "/cob", params={**RANGE, "locationPresente": "false"})
    assert all("location" not in c for c in no_loc["cobs"])


def test_scopes_are_enforced(sandbox: RunningSandbox) -> None:
    reader = Client(sandbox, "qrcodes", scope="cob.read")
    try:
        assert reader.call("POST", "/cob", cob_body()).status_code == 403
        assert reader.call("GET", "/pix", params=RANGE).status_code == 403
        assert reader.call("GET", "/cob", params=RANGE).status_code == 200
    finally:
        reader.http.close()


# ---------------------------------------------------------------------------------------------
# The full cycle: charge, payment, webhook, refund, statement


def notified(sandbox: RunningSandbox, e2e: str) -> list[dict[str, Any]]:
    """The queued Pix webhooks about ``e2e`` (read from the sandbox's database)."""
    db = sqlite3.connect(sandbox.data_dir / "bank" / "sandbox.sqlite3")
    try:
        rows = db.execute(
            "SELECT body FROM docs WHERE kind = 'notification' ORDER BY created, id"
        ).fetchall()
    finally:
        db.close()
    docs = [json.loads(r[0]) for r in rows]
    return [
        d
        for d in docs
        if d.get("kind") == "pix" and d["payload"]["pix"][0].get("endToEndId") == e2e
    ]


def statement(accounts: Client) -> list[dict[str, Any]]:
    params = {"startDate": "2026-11-01", "endDate": "2026-12-31", "perPage": 1000}
    return list(accounts.ok("GET", "/api/v2/accounts/transactions", params=params)["data"])


def test_full_cycle_pay_refund_notify_and_statement(
    sandbox: RunningSandbox, qr: Client, accounts: Client
) -> None:
    hook = "https://127.0.0.1:9/hooks/pix"  # refused at once; the notifier retries later
    qr.ok("PUT", f"/webhook/{CHAVE}", {"webhookUrl": hook})
    cob = qr.ok("POST", "/cob", cob_body("250.00"), 201)
    paid = pay(qr, cob["txid"], infoPagador="Pedido 42")
    assert paid.status_code == 201, paid.text
    e2e = loads_json(paid.content)["pix"]["endToEndId"]  # type: ignore[index]
    assert is_valid_e2eid(e2e)

    concluded = qr.ok("GET", f"/cob/{cob['txid']}")
    assert concluded["status"] == "CONCLUIDA"
    (pix,) = concluded["pix"]
    assert pix == {
        "endToEndId": e2e,
        "txid": cob["txid"],
        "valor": "250.00",
        "componentesValor": {"original": {"valor": "250.00"}},
        "chave": CHAVE,
        "horario": pix["horario"],
        "infoPagador": "Pedido 42",
        "devolucoes": [],
    }
    assert qr.ok("GET", f"/pix/{e2e}") == pix
    listed = qr.ok("GET", "/pix", params={**RANGE, "txid": cob["txid"]})
    assert listed["pix"] == [pix]
    assert qr.ok("GET", "/pix", params={**RANGE, "cpf": CPF, "txIdPresente": "true"})["pix"]
    problem_of(qr.call("GET", "/pix/E0000000020261118130000000000000"), 404, "PixNaoEncontrado")
    assert pay(qr, cob["txid"]).status_code == 422  # CONCLUIDA cannot be paid twice

    sent = notified(sandbox, e2e)
    assert len(sent) == 1 and sent[0]["url"] == hook + "/pix" and sent[0]["kind"] == "pix"

    path = f"/pix/{e2e}/devolucao/dev1"
    too_much = problem_of(qr.call("PUT", path, {"valor": "250.01"}), 400, "PixDevolucaoInvalida")
    assert violated(too_much) == {"devolucao.valor"}
    refund = qr.ok("PUT", path, {"valor": "100.00", "descricao": "Item em falta"}, 201)
    assert refund["status"] == "EM_PROCESSAMENTO" and refund["natureza"] == "ORIGINAL"
    assert is_valid_rtrid(refund["rtrId"]) and refund["valor"] == "100.00"
    same_id = problem_of(qr.call("PUT", path, {"valor": "1.00"}), 400, "PixDevolucaoInvalida")
    assert violated(same_id) == {"devolucao.id"}
    rest = problem_of(
        qr.call("PUT", f"/pix/{e2e}/devolucao/dev2", {"valor": "150.01"}),
        400,
        "PixDevolucaoInvalida",
    )
    assert violated(rest) == {"devolucao.valor"}
    problem_of(qr.call("GET", f"/pix/{e2e}/devolucao/nope"), 404, "PixDevolucaoNaoEncontrada")
    assert qr.ok("GET", path) == refund

    qr.advance(4)
    done = qr.ok("GET", path)
    assert done["status"] == "DEVOLVIDO" and done["horario"]["liquidacao"]
    assert qr.ok("GET", f"/pix/{e2e}")["devolucoes"] == [done]
    refunded = qr.ok("GET", "/pix", params={**RANGE, "devolucaoPresente": "true"})["pix"]
    assert [p["endToEndId"] for p in refunded] == [e2e]
    again = notified(sandbox, e2e)
    assert len(again) == 2 and again[-1]["payload"]["pix"][0]["devolucoes"] == [done]

    entries = statement(accounts)
    credit = next(e for e in entries if e.get("endToEndId") == e2e)
    assert (credit["creditDebitType"], credit["amount"], credit["txId"]) == (
        "CREDIT",
        Decimal("250.00"),
        cob["txid"],
    )
    debit = next(e for e in entries if e.get("endToEndId") == refund["rtrId"])
    assert (debit["creditDebitType"], debit["transactionType"], debit["amount"]) == (
        "DEBIT",
        "REFUND",
        Decimal("100.00"),
    )


def test_expired_cob_stays_active_but_cannot_be_paid(qr: Client) -> None:
    cob = qr.ok("POST", "/cob", {**cob_body(), "calendario": {"expiracao": 1}}, 201)
    qr.advance(2)
    assert qr.ok("GET", f"/cob/{cob['txid']}")["status"] == "ATIVA"
    response = pay(qr, cob["txid"])
    assert response.status_code == 422 and "expirou" in response.json()["detail"]


def test_payer_may_change_the_amount_only_with_modalidade_alteracao(qr: Client) -> None:
    fixed = qr.ok("POST", "/cob", cob_body("50.00"), 201)
    assert pay(qr, fixed["txid"], valor="40.00").status_code == 422
    free = qr.ok(
        "POST", "/cob", cob_body(valor={"original": "50.00", "modalidadeAlteracao": 1}), 201
    )
    paid = pay(qr, free["txid"], valor="40.00")
    assert paid.status_code == 201 and paid.json()["pix"]["valor"] == "40.00"


def test_pix_without_txid_is_listed_and_not_notified(sandbox: RunningSandbox, qr: Client) -> None:
    response = qr.control(
        "POST", "/sandbox/cashin/pix-without-txid", {"valor": "12.34", "payer": PAYER}
    )
    assert response.status_code == 201, response.text
    e2e = response.json()["pix"]["endToEndId"]
    listed = qr.ok("GET", "/pix", params={**RANGE, "txIdPresente": "false"})["pix"]
    assert e2e in {p["endToEndId"] for p in listed}
    assert all("txid" not in p for p in listed)
    assert not notified(sandbox, e2e)


# ---------------------------------------------------------------------------------------------
# cobv


FULL_VALOR = {
    "multa": {"modalidade": 2, "valorPerc": "2.00"},
    "juros": {"modalidade": 2, "valorPerc": "0.10"},
    "desconto": {
        "modalidade": 1,
        "descontoDataFixa": [{"data": "2026-12-01", "valorPerc": "25.00"}],
    },
}


def test_cobv_create_get_patch_and_pay_late(qr: Client) -> None:
    txid = txid_for("cobv")
    created = qr.ok("PUT", f"/cobv/{txid}", cobv_body(**FULL_VALOR), 201)
    assert created["status"] == "ATIVA" and created["revisao"] == 0
    assert created["calendario"]["dataDeVencimento"] == "2026-12-15"
    assert created["recebedor"]["cnpj"] == CHAVE and created["recebedor"]["cidade"]
    assert created["loc"]["tipoCob"] == "cobv" and "/qr/v2/cobv/" in created["location"]
    assert created["valor"]["desconto"]["descontoDataFixa"][0]["valorPerc"] == "25.00"
    assert qr.ok("GET", f"/cobv/{txid}") == created

    revised = qr.ok("PATCH", f"/cobv/{txid}", {"valor": {"original": "600.00"}})
    assert revised["revisao"] == 1 and revised["valor"]["multa"] == FULL_VALOR["multa"]
    listed = qr.ok("GET", "/cobv", params={**RANGE, "cnpj": CNPJ})["cobs"]
    assert txid in {c["txid"] for c in listed}

    paid = pay(qr, txid, data="2026-12-25")  # 10 days late
    assert paid.status_code == 201, paid.text
    pix = paid.json()["pix"]
    assert pix["valor"] == "618.00"  # 600 + 2 % fine + 0.1 % a day for 10 days
    assert pix["componentesValor"] == {
        "original": {"valor": "600.00"},
        "multa": {"valor": "12.00"},
        "juros": {"valor": "6.00"},
    }
    assert qr.ok("GET", f"/cobv/{txid}")["status"] == "CONCLUIDA"


def test_cobv_paid_early_gets_the_discount_and_not_after_validity(qr: Client) -> None:
    txid = txid_for("early")
    qr.ok("PUT", f"/cobv/{txid}", cobv_body(**FULL_VALOR), 201)
    expired = pay(qr, txid, data="2027-02-01")
    assert expired.status_code == 422
    early = pay(qr, txid, data="2026-11-30")
    assert early.status_code == 201 and early.json()["pix"]["valor"] == "475.00"
    assert early.json()["pix"]["componentesValor"]["desconto"] == {"valor": "25.00"}


def test_cobv_validation_errors(qr: Client) -> None:
    body = cobv_body(
        juros={"modalidade": 9, "valorPerc": "1.00"},
        multa={"modalidade": 2, "valorPerc": "101.00"},
        desconto={
            "modalidade": 1,
            "descontoDataFixa": [{"data": "2026-12-20", "valorPerc": "1.00"}],
        },
    )
    del body["devedor"]
    body["calendario"] = {"validadeAposVencimento": -1}
    response = qr.call("PUT", f"/cobv/{txid_for('bad')}", body)
    assert violated(problem_of(response, 400, "CobVOperacaoInvalida")) == {
        "cobv.calendario.dataDeVencimento",
        "cobv.calendario.validadeAposVencimento",
        "cobv.devedor",
        "cobv.valor.juros.modalidade",
        "cobv.valor.multa.valorPerc",
    }
    late_discount = cobv_body(
        desconto={
            "modalidade": 2,
            "descontoDataFixa": [{"data": "2026-12-20", "valorPerc": "1.00"}],
        }
    )
    response = qr.call("PUT", f"/cobv/{txid_for('bad2')}", late_discount)
    assert violated(problem_of(response, 400, "CobVOperacaoInvalida")) == {
        "cobv.valor.desconto.descontoDataFixa[0].data"
    }
    problem_of(qr.call("GET", f"/cobv/{txid_for('none')}"), 404, "CobVNaoEncontrada")
    cob = qr.ok("POST", "/cob", cob_body(), 201)
    taken = qr.call("PUT", f"/cobv/{cob['txid']}", cobv_body())
    assert violated(problem_of(taken, 400, "CobVOperacaoInvalida")) == {"cobv.txid"}


# ---------------------------------------------------------------------------------------------
# Signed QR payloads


def verify_jws(sandbox: RunningSandbox, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    def part(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    header_b64, payload_b64, signature_b64 = token.split(".")
    pem = (sandbox.data_dir / "bank" / "pki" / "server.crt").read_bytes()
    cert = x509.load_pem_x509_certificates(pem)[0]
    key = cert.public_key()
    assert isinstance(key, rsa.RSAPublicKey)
    key.verify(
        part(signature_b64),
        f"{header_b64}.{payload_b64}".encode(),
        padding.PKCS1v15(),
        hashes.SHA256(),
    )
    return json.loads(part(header_b64)), json.loads(part(payload_b64))


def fetch_location(qr: Client, location: str, **params: str) -> httpx.Response:
    path = "/" + location.split("/", 1)[1]
    return qr.http.get(path, params=params)  # no token: the payer's bank reads it


def test_cob_jws_verifies_with_the_server_certificate(sandbox: RunningSandbox, qr: Client) -> None:
    cob = qr.ok("POST", "/cob", cob_body(), 201)
    response = fetch_location(qr, cob["location"])
    assert response.status_code == 200 and response.headers["content-type"] == "application/jose"
    header, payload = verify_jws(sandbox, response.text)
    assert header["alg"] == "RS256" and header["jku"].endswith("/jwks")
    jwks = qr.http.get("/jwks").json()
    assert header["kid"] == jwks["keys"][0]["kid"] == header["x5t#S256"]
    assert payload["txid"] == cob["txid"] and payload["status"] == "ATIVA"
    assert payload["valor"] == {"original": "123.45"} and payload["chave"] == CHAVE
    assert payload["calendario"]["apresentacao"] and payload["calendario"]["expiracao"] == 3600
    missing = fetch_location(qr, cob["location"].rsplit("/", 1)[0] + "/" + "0" * 32)
    problem_of(missing, 404, "CobPayloadNaoEncontrado")


def test_cobv_jws_computes_the_amount_for_the_intended_date(
    sandbox: RunningSandbox, qr: Client
) -> None:
    txid = txid_for("jwsv")
    cobv_doc = qr.ok("PUT", f"/cobv/{txid}", cobv_body(**FULL_VALOR), 201)
    today = fetch_location(qr, cobv_doc["location"])
    _header, payload = verify_jws(sandbox, today.text)
    assert payload["valor"] == {"original": "500.00", "desconto": "25.00", "final": "475.00"}
    assert payload["recebedor"]["cnpj"] == CHAVE and payload["devedor"]["cnpj"] == CNPJ
    late = fetch_location(qr, cobv_doc["location"], DPP="2026-12-25")
    _header, payload = verify_jws(sandbox, late.text)
    assert payload["valor"] == {
        "original": "500.00",
        "multa": "10.00",
        "juros": "5.00",
        "final": "515.00",
    }
    bad = fetch_location(qr, cobv_doc["location"], DPP="2027-06-01")
    problem_of(bad, 400, "CobPayloadOperacaoInvalida")


# ---------------------------------------------------------------------------------------------
# loc


def test_loc_create_link_unlink_and_reuse(qr: Client) -> None:
    loc = qr.ok("POST", "/loc", {"tipoCob": "cob"}, 201)
    assert set(loc) == {"id", "location", "tipoCob", "criacao"} and loc["tipoCob"] == "cob"
    assert qr.ok("GET", f"/loc/{loc['id']}") == loc
    cob = qr.ok("POST", "/cob", cob_body(loc={"id": loc["id"]}), 201)
    assert cob["loc"]["id"] == loc["id"] and cob["location"] == loc["location"]
    assert qr.ok("GET", f"/loc/{loc['id']}")["txid"] == cob["txid"]
    taken = qr.call("POST", "/cob", cob_body(loc={"id": loc["id"]}))
    assert violated(problem_of(taken, 400, "CobOperacaoInvalida")) == {"cob.loc.id"}

    unlinked = qr.ok("DELETE", f"/loc/{loc['id']}/txid")
    assert "txid" not in unlinked and unlinked["id"] == loc["id"]
    bare = qr.ok("GET", f"/cob/{cob['txid']}")
    assert "location" not in bare and "loc" not in bare and "pixCopiaECola" not in bare
    assert qr.ok("GET", f"/loc/{loc['id']}") == loc
    free = qr.ok("GET", "/loc", params={**RANGE, "txIdPresente": "false", "tipoCob": "cob"})
    assert loc["id"] in {item["id"] for item in free["loc"]}
    reused = qr.ok("PATCH", f"/cob/{cob['txid']}", {"loc": {"id": loc["id"]}})
    assert reused["location"] == loc["location"]

    cobv_loc = qr.ok("POST", "/loc", {"tipoCob": "cobv"}, 201)
    assert "/qr/v2/cobv/" in cobv_loc["location"]
    wrong = qr.call("POST", "/cob", cob_body(loc={"id": cobv_loc["id"]}))
    assert violated(problem_of(wrong, 400, "CobOperacaoInvalida")) == {"cob.loc.id"}
    bad = problem_of(
        qr.call("POST", "/loc", {"tipoCob": "x"}), 400, "PayloadLocationOperacaoInvalida"
    )
    assert violated(bad) == {"loc.tipoCob"}
    problem_of(qr.call("GET", "/loc/99999999"), 404, "PayloadLocationNaoEncontrado")
    problem_of(qr.call("GET", "/loc"), 400, "PayloadLocationConsultaInvalida")


# ---------------------------------------------------------------------------------------------
# lotecobv


def member(txid: str, original: str = "100.00", **extra: Any) -> dict[str, Any]:
    return {"txid": txid, **cobv_body(original), **extra}


def test_lotecobv_rules(qr: Client) -> None:
    alone = txid_for("alone")
    qr.ok("PUT", f"/cobv/{alone}", cobv_body(), 201)
    good, bad = txid_for("goodmember"), txid_for("badmember")
    body = {
        "descricao": "Mensalidades",
        "cobsv": [
            member(good),
            member(bad, devedor={"nome": "Sem documento"}),
            member(good),  # repeated txid
            member(alone),  # created on its own: cannot join a batch
        ],
    }
    batch_id = f"L{time.time_ns()}"
    accepted = qr.ok("PUT", f"/lotecobv/{batch_id}", body, 202)
    statuses = [(m["txid"], m["status"]) for m in accepted["cobsv"]]
    assert statuses == [(good, "CRIADA"), (bad, "NEGADA"), (good, "NEGADA"), (alone, "NEGADA")]
    problema = accepted["cobsv"][1]["problema"]
    assert problema["type"].endswith("/CobVOperacaoInvalida")
    assert {v["propriedade"] for v in problema["violacoes"]} == {"cobv.devedor"}
    assert accepted["cobsv"][0]["problema"] is None

    qr.advance(0.5)
    got = qr.ok("GET", f"/lotecobv/{batch_id}")
    assert got["descricao"] == "Mensalidades" and got["id"] == batch_id
    first = got["cobsv"][0]
    assert first["status"] == "ATIVA" and first["valor"] == {"original": "100.00"}
    assert first["devedor"] == {"cnpj": CNPJ, "nome": "Cliente Atacado Ltda"}
    assert qr.ok("GET", f"/cobv/{good}")["status"] == "ATIVA"
    problem_of(qr.call("GET", f"/cobv/{bad}"), 404, "CobVNaoEncontrada")

    patched = qr.ok(
        "PATCH",
        f"/lotecobv/{batch_id}",
        {"cobsv": [{"txid": good, "valor": {"original": "110.00"}}]},
        202,
    )
    assert patched["cobsv"][0]["status"] == "CRIADA"
    assert qr.ok("GET", f"/cobv/{good}")["valor"]["original"] == "110.00"
    fixed = qr.ok(
        "PATCH", f"/lotecobv/{batch_id}", {"cobsv": [{"txid": bad, "devedor": {"cpf": CPF}}]}, 202
    )
    assert fixed["cobsv"][1]["status"] == "CRIADA"  # the refused member, corrected
    stranger = qr.call(
        "PATCH", f"/lotecobv/{batch_id}", {"cobsv": [{"txid": txid_for("x"), "valor": {}}]}
    )
    assert violated(problem_of(stranger, 400, "LoteCobVOperacaoInvalida")) == {
        "loteCobV.cobsV[0].txid"
    }
    fewer = qr.call("PUT", f"/lotecobv/{batch_id}", {"cobsv": [member(good)]})
    problem_of(fewer, 400, "LoteCobVOperacaoInvalida")
    again = qr.ok("PUT", f"/lotecobv/{batch_id}", body, 202)  # same members: revises them all
    # the re-sent body still has the bad debtor: that member's revision is refused
    assert [m["status"] for m in again["cobsv"]] == ["CRIADA", "NEGADA", "NEGADA", "NEGADA"]
    assert qr.ok("GET", f"/cobv/{good}")["valor"]["original"] == "100.00"

    lotes = qr.ok("GET", "/lotecobv", params=RANGE)["lotes"]
    mine = next(lote for lote in lotes if lote["id"] == batch_id)
    assert mine == {
        "id": batch_id,
        "descricao": "Mensalidades",
        "criacao": accepted["criacao"],
        "quantidadeCobrancas": 4,
    }
    problem_of(qr.call("GET", "/lotecobv/nao-existe"), 404, "LoteCobVNaoEncontrado")
    empty = qr.call("PUT", f"/lotecobv/L{time.time_ns()}", {"cobsv": []})
    assert violated(problem_of(empty, 400, "LoteCobVOperacaoInvalida")) == {"loteCobV.cobsV"}


def test_lotecobv_with_1000_members(qr: Client) -> None:
    stamp = str(time.time_ns())[-12:]
    txids = [f"lote{stamp}m{i:05d}".ljust(26, "0") for i in range(1000)]
    body = {
        "descricao": "Mil cobranças",
        "cobsv": [member(t, f"{100 + i % 50}.00") for i, t in enumerate(txids)],
    }
    batch_id = f"big{stamp}"
    accepted = qr.ok("PUT", f"/lotecobv/{batch_id}", body, 202)
    qr.advance(0.5)
    got = qr.ok("GET", f"/lotecobv/{batch_id}")
    assert [m["status"] for m in accepted["cobsv"]] == ["CRIADA"] * 1000
    assert [m["txid"] for m in got["cobsv"]] == txids
    assert {m["status"] for m in got["cobsv"]} == {"ATIVA"}
    listed = qr.ok(
        "GET",
        "/cobv",
        params={**RANGE, "loteCobVId": batch_id, "paginacao.itensPorPagina": 1000},
    )
    assert listed["parametros"]["paginacao"]["quantidadeTotalDeItens"] == 1000
    # how long the PUT and the GET take: tests/bench/bench_sandbox.py prints it


# ---------------------------------------------------------------------------------------------
# The Accounts API pays our dynamic QR codes


def test_accounts_qrc_payment_settles_the_cob(qr: Client, accounts: Client) -> None:
    cob = qr.ok("POST", "/cob", cob_body("77.70"), 201)
    idem = {"x-idempotency-key": new_idempotency_key()}
    body = {"qrCode": cob["pixCopiaECola"], "description": "Paga a própria cobrança"}
    payment = accounts.ok("POST", "/api/v2/pix/payments/qrc", body, 202, headers=idem)["data"]
    assert payment["payment"]["amount"] == Decimal("77.70")
    assert payment["creditorAccount"]["document"] == CHAVE
    qr.advance(3.5)
    concluded = qr.ok("GET", f"/cob/{cob['txid']}")
    assert concluded["status"] == "CONCLUIDA"
    assert concluded["pix"][0]["endToEndId"] == payment["endToEndId"]
    assert concluded["pix"][0]["valor"] == "77.70"
    credit = [e for e in statement(accounts) if e.get("endToEndId") == payment["endToEndId"]]
    assert {e["creditDebitType"] for e in credit} == {"CREDIT", "DEBIT"}
    twice = accounts.call(
        "POST",
        "/api/v2/pix/payments/qrc",
        body,
        headers={"x-idempotency-key": new_idempotency_key()},
    )
    assert twice.status_code == 422, twice.text


def test_accounts_qrc_payment_of_a_cobv_uses_the_amount_due_today(
    qr: Client, accounts: Client
) -> None:
    txid = txid_for("qrcv")
    cobv_doc = qr.ok("PUT", f"/cobv/{txid}", cobv_body(**FULL_VALOR), 201)
    body = {"qrCode": cobv_doc["pixCopiaECola"]}
    idem = {"x-idempotency-key": new_idempotency_key()}
    payment = accounts.ok("POST", "/api/v2/pix/payments/qrc", body, 202, headers=idem)["data"]
    assert payment["payment"]["amount"] == Decimal("475.00")  # early: discount applies
    qr.advance(3.5)
    paid = qr.ok("GET", f"/cobv/{txid}")
    assert paid["status"] == "CONCLUIDA"
    assert paid["pix"][0]["componentesValor"]["desconto"] == {"valor": "25.00"}
