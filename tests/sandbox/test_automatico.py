"""Pix Automático on the sandbox's QR Codes API, over real mutual TLS: recurrences (rec),
confirmation requests (solicrec), recurring charges (cobr), recurrence locations (locrec),
the global webhooks, the four authorization journeys and the charges settled on the clock.

One sandbox for the module, its clock starting on Wednesday 2026-11-18 at 10:00 Brasília
(Friday the 20th is a national holiday, so the earliest cobr due date is Monday the 23rd).
Tests run in file order: only the last ones move the clock, by days.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.sandbox.conftest import Api, assert_problem, body_of, violated
from tests.sandbox_harness import RunningSandbox, running_sandbox
from tests.waiting import wait_until
from treasury_app.domain import brcode, identifiers
from treasury_app.sandbox.seed import COMPANY

CLOCK_START = "2026-11-18T13:00:00Z"  # Wednesday 10:00 in Brasília
TODAY = dt.date(2026, 11, 18)
EARLIEST_DUE = "2026-11-23"  # 2 business days: Thu 19 and Mon 23 (Fri 20 is a holiday)
RANGE = {"inicio": "2026-01-01T00:00:00Z", "fim": "2027-12-31T00:00:00Z"}
CPF = "40364478829"
CNPJ = "60391947000100"
RECEBEDOR = {"agencia": "0001", "conta": "1234567", "tipoConta": "CORRENTE"}


@pytest.fixture(scope="module")
def auto_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    path: Path = tmp_path_factory.mktemp("automatico")
    with running_sandbox(path, "--clock-start", CLOCK_START) as running:
        yield running


@pytest.fixture(scope="module")
def api(auto_sandbox: RunningSandbox) -> Iterator[Api]:
    """The QR Codes API with one token (renewed only after the clock passes its expiry)."""
    client = Api(auto_sandbox, "qrcodes")
    yield client
    client.close()


# --------------------------------------------------------------------------------------------
# helpers


def rec_body(**changes: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "vinculo": {
            "contrato": "CT-2026-001",
            "devedor": {"cpf": CPF, "nome": "Fulano de Tal"},
            "objeto": "Assinatura mensal",
        },
        "calendario": {
            "dataInicial": "2026-11-23",
            "dataFinal": "2027-11-30",
            "periodicidade": "MENSAL",
        },
        "valor": {"valorRec": "50.00"},
        "politicaRetentativa": "NAO_PERMITE",
    }
    body.update(changes)
    return body


def create_rec(api: Api, **changes: Any) -> dict[str, Any]:
    response = api.post("/rec", json=rec_body(**changes))
    assert response.status_code == 201, response.text
    rec: dict[str, Any] = body_of(response)
    return rec


def approved_rec(api: Api, **changes: Any) -> dict[str, Any]:
    rec = create_rec(api, **changes)
    approved = api.control("POST", f"/sandbox/automatico/rec/{rec['idRec']}/approve")
    assert approved["status"] == "APROVADA"
    return rec


def cobr_body(id_rec: str, due: str = EARLIEST_DUE, amount: str = "50.00") -> dict[str, Any]:
    return {
        "idRec": id_rec,
        "infoAdicional": "Mensalidade",
        "calendario": {"dataDeVencimento": due},
        "valor": {"original": amount},
        "ajusteDiaUtil": True,
        "devedor": {"cidade": "São Paulo", "uf": "SP", "cep": "01310100"},
        "recebedor": RECEBEDOR,
    }


def create_cobr(api: Api, id_rec: str, due: str = EARLIEST_DUE) -> dict[str, Any]:
    response = api.post("/cobr", json=cobr_body(id_rec, due))
    assert response.status_code == 201, response.text
    cobr: dict[str, Any] = body_of(response)
    return cobr


def new_locrec(api: Api) -> dict[str, Any]:
    response = api.post("/locrec")
    assert response.status_code == 201, response.text
    loc: dict[str, Any] = body_of(response)
    return loc


def in_status(api: Api, path: str, status: str) -> Any:
    """The resource at ``path`` once it has ``status``, else None (the sandbox moves it on at
    its next tick): a condition for :func:`tests.waiting.wait_until`."""
    found = get_json(api, path)
    return found if found["status"] == status else None


def get_json(api: Api, path: str, **kwargs: Any) -> Any:
    response = api.get(path, **kwargs)
    assert response.status_code == 200, response.text
    return body_of(response)


def notifications(api: Api, kind: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = api.control(
        "GET", f"/sandbox/automatico/notifications?kind={kind}"
    )["notifications"]
    return found


def set_clock(api: Api, instant: str) -> None:
    api.control("POST", "/sandbox/clock", {"set": instant})


def problem_type(problem: dict[str, Any]) -> str:
    return str(problem["type"]).rsplit("/", 1)[-1]


# --------------------------------------------------------------------------------------------
# authentication and webhooks


def test_endpoints_need_a_token(api: Api) -> None:
    for method, path in (("POST", "/rec"), ("GET", "/cobr"), ("POST", "/locrec")):
        response = api.http.request(method, path)
        assert_problem(response, 401)


def test_scopes_are_enforced(auto_sandbox: RunningSandbox) -> None:
    reader = Api(auto_sandbox, "qrcodes", scope="rec.read cobr.read")
    try:
        assert_problem(reader.post("/rec", json=rec_body()), 403)
        assert_problem(reader.post("/locrec"), 403)
        assert_problem(reader.put("/webhookcobr", json={"webhookUrl": "https://x.example"}), 403)
        assert reader.get("/rec", params=RANGE).status_code == 200
        assert reader.get("/cobr", params=RANGE).status_code == 200
    finally:
        reader.close()


@pytest.mark.parametrize("kind", ["rec", "cobr"])
def test_webhook_put_get_delete(api: Api, kind: str) -> None:
    path = f"/webhook{kind}"
    assert_problem(api.get(path), 404)
    problem = assert_problem(api.put(path, json={"webhookUrl": "http://inseguro.example"}), 400)
    expected = "WebhookRecOperacaoInvalida" if kind == "rec" else "WebhookCobROperacaoInvalida"
    assert problem_type(problem) == expected
    assert violated(problem) == {"webhookUrl"}
    response = api.put(path, json={"webhookUrl": "https://erp.example.com/hooks"})
    assert response.status_code == 200, response.text
    created = body_of(response)
    assert created["webhookUrl"] == "https://erp.example.com/hooks"
    assert created["criacao"].endswith("Z")
    assert get_json(api, path) == created
    assert api.delete(path).status_code == 204
    assert_problem(api.get(path), 404)
    assert_problem(api.delete(path), 404)
    # registered again: the rest of the module records notifications
    assert api.put(path, json={"webhookUrl": "https://erp.example.com/hooks/"}).status_code == 200


# --------------------------------------------------------------------------------------------
# locrec


def test_locrec_create_get_list(api: Api, auto_sandbox: RunningSandbox) -> None:
    loc = new_locrec(api)
    assert set(loc) == {"id", "location", "criacao"}
    assert isinstance(loc["id"], int)
    host = auto_sandbox.urls["qrcodes"].split("://", 1)[1]
    assert loc["location"].startswith(f"{host}/qr/v2/rec/")
    assert "://" not in loc["location"] and len(loc["location"]) <= 77
    assert get_json(api, f"/locrec/{loc['id']}") == loc

    listed = get_json(api, "/locrec", params=RANGE)
    assert loc in listed["loc"]
    assert listed["parametros"]["paginacao"]["quantidadeTotalDeItens"] >= 1
    free = get_json(api, "/locrec", params={**RANGE, "idRecPresente": "false"})
    assert loc in free["loc"]
    linked = get_json(api, "/locrec", params={**RANGE, "idRecPresente": "true"})
    assert loc not in linked["loc"]


def test_locrec_errors(api: Api) -> None:
    problem = assert_problem(api.get("/locrec", params={"fim": RANGE["fim"]}), 400)
    assert problem_type(problem) == "PayloadLocationRecConsultaInvalida"
    assert violated(problem) == {"inicio"}
    problem = assert_problem(api.get("/locrec/987654"), 404)
    assert problem_type(problem) == "PayloadLocationRecNaoEncontrado"
    assert_problem(api.delete("/locrec/987654/idRec"), 404)
    long = assert_problem(api.get("/locrec", params={**RANGE, "convenio": "x" * 61}), 400)
    assert violated(long) == {"convenio"}  # as GET /rec refuses it
    assert violated(assert_problem(api.get("/locrec", params={**RANGE, "convenio": ""}), 400)) == {
        "convenio"
    }


@pytest.mark.parametrize("name", ["cnpj", "idRec", "cpf"])
def test_empty_filters_are_refused(api: Api, name: str) -> None:
    for path in ("/cobr", "/rec"):
        problem = assert_problem(api.get(path, params={**RANGE, name: ""}), 400)
        assert name in violated(problem)


# --------------------------------------------------------------------------------------------
# rec


def test_rec_create_get_and_location_link(api: Api) -> None:
    loc = new_locrec(api)
    rec = create_rec(api, loc=loc["id"], politicaRetentativa="PERMITE_3R_7D")
    parsed = identifiers.parse_idrec(rec["idRec"])
    assert parsed.retry_allowed and parsed.ispb == "99999010" and parsed.date == TODAY
    assert rec["status"] == "CRIADA"
    assert [a["status"] for a in rec["atualizacao"]] == ["CRIADA"]
    assert rec["recebedor"] == {"cnpj": COMPANY["document"], "nome": COMPANY["name"]}
    assert rec["valor"] == {"valorRec": "50.00"}
    assert rec["vinculo"]["devedor"] == {"cpf": CPF, "nome": "Fulano de Tal"}
    assert rec["calendario"]["periodicidade"] == "MENSAL"
    assert rec["politicaRetentativa"] == "PERMITE_3R_7D"
    assert rec["ativacao"] == {"tipoJornada": "AGUARDANDO_DEFINICAO"}
    assert rec["loc"] == {**loc, "idRec": rec["idRec"]}

    fetched = get_json(api, f"/rec/{rec['idRec']}")
    assert fetched["idRec"] == rec["idRec"] and fetched["status"] == "CRIADA"
    assert get_json(api, f"/locrec/{loc['id']}")["idRec"] == rec["idRec"]

    # the location is taken
    problem = assert_problem(api.post("/rec", json=rec_body(loc=loc["id"])), 400)
    assert problem_type(problem) == "RecOperacaoInvalida"
    assert violated(problem) == {"rec.loc"}

    simple = create_rec(api, valor={"valorMinimoRecebedor": "10.00"})
    assert simple["idRec"].startswith("RN")
    assert simple["valor"] == {"valorMinimoRecebedor": "10.00"}
    assert "loc" not in simple


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"valor": {"valorRec": "50.00", "valorMinimoRecebedor": "10.00"}}, "rec.valor"),
        ({"valor": {"valorRec": "50"}}, "rec.valor.valorRec"),
        ({"valor": {"valorRec": 50}}, "rec.valor.valorRec"),
        ({"politicaRetentativa": "SEMPRE"}, "rec.politicaRetentativa"),
        ({"politicaRetentativa": None}, "rec.politicaRetentativa"),
        ({"loc": 424242}, "rec.loc"),
        ({"ativacao": {"dadosJornada": {"txid": "curto"}}}, "rec.ativacao.dadosJornada.txid"),
        ({"vinculo": None}, "rec.vinculo"),
    ],
)
def test_rec_validation(api: Api, changes: dict[str, Any], field: str) -> None:
    body = rec_body(**changes)
    body = {k: v for k, v in body.items() if v is not None}
    problem = assert_problem(api.post("/rec", json=body), 400)
    assert problem_type(problem) == "RecOperacaoInvalida"
    assert problem["instance"] == "/rec"
    assert field in violated(problem), problem


@pytest.mark.parametrize(
    ("vinculo", "calendario", "field"),
    [
        ({"devedor": {"cpf": "11111111111", "nome": "X"}}, None, "rec.vinculo.devedor.cpf"),
        ({"devedor": {"cnpj": "60391947000199", "nome": "X"}}, None, "rec.vinculo.devedor.cnpj"),
        ({"devedor": {"cpf": CPF, "cnpj": CNPJ, "nome": "X"}}, None, "rec.vinculo.devedor.cpf"),
        ({"devedor": {"cpf": CPF}}, None, "rec.vinculo.devedor.nome"),
        (
            {"devedor": {"cpf": CPF, "nome": "X"}, "contrato": "C" * 36},
            None,
            "rec.vinculo.contrato",
        ),
        ({"devedor": {"cpf": CPF, "nome": "X"}, "objeto": "O" * 36}, None, "rec.vinculo.objeto"),
        (
            None,
            {"dataInicial": "2026-11-17", "periodicidade": "MENSAL"},
            "rec.calendario.dataInicial",
        ),
        (
            None,
            {"dataInicial": "2026-12-01", "dataFinal": "2026-11-30", "periodicidade": "MENSAL"},
            "rec.calendario.dataFinal",
        ),
        (
            None,
            {"dataInicial": "2026-12-01", "periodicidade": "DIARIA"},
            "rec.calendario.periodicidade",
        ),
        (
            None,
            {"dataInicial": "01/12/2026", "periodicidade": "MENSAL"},
            "rec.calendario.dataInicial",
        ),
    ],
)
def test_rec_validation_of_vinculo_and_calendario(
    api: Api, vinculo: dict[str, Any] | None, calendario: dict[str, Any] | None, field: str
) -> None:
    body = rec_body()
    if vinculo is not None:
        body["vinculo"] = {"contrato": "CT-1", **vinculo}
    if calendario is not None:
        body["calendario"] = calendario
    problem = assert_problem(api.post("/rec", json=body), 400)
    assert field in violated(problem), problem


def test_rec_not_found(api: Api) -> None:
    missing = "RN9999901020261118abcdefghijk"
    problem = assert_problem(api.get(f"/rec/{missing}"), 404)
    assert problem_type(problem) == "RecNaoEncontrada"
    assert_problem(api.request("PATCH", f"/rec/{missing}", json={"status": "CANCELADA"}), 404)


def test_rec_list_and_filters(api: Api) -> None:
    company_debtor = {"cnpj": CNPJ, "nome": "Cliente Empresa Ltda"}
    rec = create_rec(
        api,
        vinculo={"contrato": "LIST-1", "devedor": company_debtor},
        recebedor={"convenio": "Convenio-42"},
    )
    assert rec["recebedor"]["convenio"] == "Convenio-42"
    listed = get_json(api, "/rec", params={**RANGE, "cnpj": CNPJ})
    assert [r["idRec"] for r in listed["recs"]] == [rec["idRec"]]
    assert listed["parametros"]["cnpj"] == CNPJ
    assert listed["parametros"]["paginacao"]["quantidadeTotalDeItens"] == 1
    assert "criacao" not in listed["recs"][0]
    by_convenio = get_json(api, "/rec", params={**RANGE, "convenio": "Convenio-42"})
    assert [r["idRec"] for r in by_convenio["recs"]] == [rec["idRec"]]
    everything = get_json(api, "/rec", params={**RANGE, "paginacao.itensPorPagina": 2})
    assert len(everything["recs"]) == 2
    assert everything["parametros"]["paginacao"]["quantidadeTotalDeItens"] >= 3
    with_loc = get_json(api, "/rec", params={**RANGE, "locationPresente": "true"})
    assert with_loc["recs"] and all("loc" in r for r in with_loc["recs"])
    criadas = get_json(api, "/rec", params={**RANGE, "status": "CRIADA"})
    assert all(r["status"] == "CRIADA" for r in criadas["recs"])

    for params, field in (
        ({**RANGE, "cpf": CPF, "cnpj": CNPJ}, "cnpj"),
        ({"inicio": RANGE["inicio"]}, "fim"),
        ({**RANGE, "status": "ATIVA"}, "status"),
        ({**RANGE, "locationPresente": "talvez"}, "locationPresente"),
    ):
        problem = assert_problem(api.get("/rec", params=params), 400)
        assert problem_type(problem) == "RecConsultaInvalida"
        assert field in violated(problem)


def test_rec_patch_revisable_fields_and_cancel(api: Api) -> None:
    rec = create_rec(api)
    path = f"/rec/{rec['idRec']}"
    loc = new_locrec(api)
    response = api.request(
        "PATCH",
        path,
        json={
            "vinculo": {"devedor": {"nome": "Fulano de Tal Junior"}},
            "calendario": {"dataInicial": "2026-12-01"},
            "loc": loc["id"],
            "ativacao": {"dadosJornada": {"txid": "a" * 30}},
        },
    )
    assert response.status_code == 200, response.text
    revised = body_of(response)
    assert revised["vinculo"]["devedor"] == {"cpf": CPF, "nome": "Fulano de Tal Junior"}
    assert revised["calendario"]["dataInicial"] == "2026-12-01"
    assert revised["loc"]["id"] == loc["id"]
    assert revised["ativacao"] == {"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": "a" * 30}}
    assert revised["status"] == "CRIADA"

    for body, field in (
        ({"valor": {"valorRec": "60.00"}}, "rec.valor"),
        ({"vinculo": {"contrato": "X"}}, "rec.vinculo.contrato"),
        ({"calendario": {"periodicidade": "ANUAL"}}, "rec.calendario.periodicidade"),
        ({"status": "APROVADA"}, "rec.status"),
        ({}, "rec"),
    ):
        problem = assert_problem(api.request("PATCH", path, json=body), 400)
        assert problem_type(problem) == "RecOperacaoInvalida"
        assert field in violated(problem), problem

    response = api.request("PATCH", path, json={"status": "CANCELADA"})
    assert response.status_code == 200, response.text
    cancelled = body_of(response)
    assert cancelled["status"] == "CANCELADA"
    assert [a["status"] for a in cancelled["atualizacao"]] == ["CRIADA", "CANCELADA"]
    assert cancelled["encerramento"]["cancelamento"]["solicitante"] == "USUARIO_RECEBEDOR"
    problem = assert_problem(api.request("PATCH", path, json={"status": "CANCELADA"}), 400)
    assert problem_type(problem) == "RecOperacaoInvalida"


def test_rec_approved_can_be_cancelled_but_not_relocated(api: Api) -> None:
    rec = approved_rec(api)
    path = f"/rec/{rec['idRec']}"
    loc = new_locrec(api)
    problem = assert_problem(api.request("PATCH", path, json={"loc": loc["id"]}), 400)
    assert violated(problem) == {"rec.loc"}
    response = api.request("PATCH", path, json={"status": "CANCELADA"})
    assert response.status_code == 200
    assert body_of(response)["status"] == "CANCELADA"


def test_rec_control_reject_and_expire(api: Api) -> None:
    rejected = create_rec(api)
    body = api.control("POST", f"/sandbox/automatico/rec/{rejected['idRec']}/reject")
    assert body["status"] == "REJEITADA"
    assert body["encerramento"]["rejeicao"]["codigo"] == "AP13"
    expired = create_rec(api)
    body = api.control("POST", f"/sandbox/automatico/rec/{expired['idRec']}/expire")
    assert body["status"] == "EXPIRADA"
    again = api.http.post(f"/sandbox/automatico/rec/{expired['idRec']}/approve")
    assert_problem(again, 400)


# --------------------------------------------------------------------------------------------
# journey 1: solicrec


def solicrec_body(id_rec: str, expires: str = "2026-11-25T12:00:00Z") -> dict[str, Any]:
    return {
        "idRec": id_rec,
        "calendario": {"dataExpiracaoSolicitacao": expires},
        "destinatario": {
            "agencia": "2569",
            "conta": "550689",
            "cpf": CPF,
            "ispbParticipante": "91193552",
        },
    }


def test_journey_1_confirmation_request(api: Api) -> None:
    rec = create_rec(api)
    response = api.post("/solicrec", json=solicrec_body(rec["idRec"]))
    assert response.status_code == 201, response.text
    sol = body_of(response)
    assert identifiers.is_valid_idsolicrec(sol["idSolicRec"])
    assert sol["idRec"] == rec["idRec"]
    assert sol["status"] == "CRIADA"
    assert sol["destinatario"]["ispbParticipante"] == "91193552"
    assert sol["recPayload"]["idRec"] == rec["idRec"]
    assert sol["recPayload"]["recebedor"]["ispbParticipante"] == "99999010"

    second = assert_problem(api.post("/solicrec", json=solicrec_body(rec["idRec"])), 400)
    assert problem_type(second) == "SolicRecOperacaoInvalida"
    assert violated(second) == {"solicrec.idRec"}

    path = f"/solicrec/{sol['idSolicRec']}"
    received = wait_until(lambda: in_status(api, path, "RECEBIDA"), f"{path} RECEBIDA")
    assert [a["status"] for a in received["atualizacao"]] == ["CRIADA", "ENVIADA", "RECEBIDA"]

    api.control("POST", f"/sandbox/automatico/rec/{rec['idRec']}/approve")
    assert get_json(api, path)["status"] == "ACEITA"
    approved = get_json(api, f"/rec/{rec['idRec']}")
    assert approved["status"] == "APROVADA"
    assert approved["ativacao"]["tipoJornada"] == "JORNADA_1"
    assert approved["pagador"] == {"cpf": CPF, "ispbParticipante": "91193552"}
    assert [s["idSolicRec"] for s in approved["solicitacao"]] == [sol["idSolicRec"]]
    # an ACEITA request still counts as active, and the recurrence is no longer CRIADA
    assert_problem(api.post("/solicrec", json=solicrec_body(rec["idRec"])), 400)


def test_solicrec_cancel_and_errors(api: Api) -> None:
    rec = create_rec(api)
    for body, field in (
        (
            solicrec_body(rec["idRec"], "2026-11-01T00:00:00Z"),
            "calendario.dataExpiracaoSolicitacao",
        ),
        ({**solicrec_body(rec["idRec"]), "destinatario": None}, "destinatario"),
        (
            {**solicrec_body(rec["idRec"]), "destinatario": {"conta": "1", "cpf": CPF}},
            "destinatario.ispbParticipante",
        ),
        ({**solicrec_body(rec["idRec"]), "idRec": "RN123"}, "idRec"),
        (solicrec_body("RN9999901020261118abcdefghijk"), "idRec"),
    ):
        problem = assert_problem(api.post("/solicrec", json=body), 400)
        assert problem_type(problem) == "SolicRecOperacaoInvalida"
        assert f"solicrec.{field}" in violated(problem), problem

    sol = body_of(api.post("/solicrec", json=solicrec_body(rec["idRec"])))
    path = f"/solicrec/{sol['idSolicRec']}"
    assert_problem(api.request("PATCH", path, json={"status": "ACEITA"}), 400)
    response = api.request("PATCH", path, json={"status": "CANCELADA"})
    assert response.status_code == 201, response.text
    assert body_of(response)["status"] == "CANCELADA"
    problem = assert_problem(api.request("PATCH", path, json={"status": "CANCELADA"}), 400)
    assert problem_type(problem) == "SolicRecOperacaoInvalida"
    # a cancelled request no longer blocks a new one
    assert api.post("/solicrec", json=solicrec_body(rec["idRec"])).status_code == 201

    problem = assert_problem(api.get("/solicrec/SC9999901020261118abcdefghijk"), 404)
    assert problem_type(problem) == "SolicRecNaoEncontrada"


# --------------------------------------------------------------------------------------------
# journey 2: recurrence-only QR code and its payload location


def test_journey_2_recurrence_qr_and_payload(api: Api, auto_sandbox: RunningSandbox) -> None:
    loc = new_locrec(api)
    rec = create_rec(api, loc=loc["id"])
    fetched = get_json(api, f"/rec/{rec['idRec']}")
    assert fetched["dadosQR"]["jornada"] == "JORNADA_2"
    code = brcode.parse(fetched["dadosQR"]["pixCopiaECola"])
    assert code.is_recurrence_only
    assert code.recurrence_url == loc["location"]

    # the location serves the signed RecPayload (no token, application/jose)
    token = loc["location"].rsplit("/", 1)[1]
    response = api.http.get(f"/qr/v2/rec/{token}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/jose")
    header_b64, payload_b64, signature_b64 = response.text.split(".")

    def unb64(text: str) -> bytes:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

    header = json.loads(unb64(header_b64))
    assert header["alg"] == "RS256"
    cert = x509.load_der_x509_certificate(base64.b64decode(header["x5c"][0]))
    key = cert.public_key()
    assert isinstance(key, rsa.RSAPublicKey)
    key.verify(
        unb64(signature_b64),
        f"{header_b64}.{payload_b64}".encode(),
        padding.PKCS1v15(),
        hashes.SHA256(),
    )
    payload = json.loads(unb64(payload_b64))
    assert payload["idRec"] == rec["idRec"]
    assert payload["valor"] == {"valorRec": "50.00"}
    assert payload["recebedor"]["cnpj"] == COMPANY["document"]
    assert_problem(api.http.get("/qr/v2/rec/ffffffffffffffffffffffffffffffff"), 404)

    # unlinking the location: 200, the recurrence keeps its status and loses the QR code
    response = api.delete(f"/locrec/{loc['id']}/idRec")
    assert response.status_code == 200, response.text
    assert "idRec" not in body_of(response)
    after = get_json(api, f"/rec/{rec['idRec']}")
    assert after["status"] == "CRIADA"
    assert "loc" not in after and "dadosQR" not in after
    assert_problem(api.http.get(f"/qr/v2/rec/{token}"), 404)


def test_rec_query_with_unknown_txid(api: Api) -> None:
    rec = create_rec(api)
    problem = assert_problem(api.get(f"/rec/{rec['idRec']}", params={"txid": "x"}), 400)
    assert problem_type(problem) == "RecConsultaInvalida"


# --------------------------------------------------------------------------------------------
# journeys 3 and 4: composite QR codes with a cob or a cobv (the cash-in module's charges)


def put_charge(api: Api, kind: str, txid: str) -> dict[str, Any]:
    calendario = {"expiracao": 3600} if kind == "cob" else {"dataDeVencimento": "2026-11-30"}
    body = {
        "calendario": calendario,
        "devedor": {"cpf": CPF, "nome": "Fulano de Tal"},
        "valor": {"original": "50.00"},
        "chave": COMPANY["keys"][0],
    }
    response = api.put(f"/{kind}/{txid}", json=body)
    assert response.status_code == 201, response.text
    charge: dict[str, Any] = body_of(response)
    return charge


def pay_charge(api: Api, txid: str) -> None:
    payer = {"name": "Fulano de Tal", "cpf": CPF}
    api.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": payer})


def test_journey_3_composite_qr_with_cob(api: Api) -> None:
    txid = identifiers.new_txid(32)
    loc = new_locrec(api)
    # the call sequence of the specification: rec first, then the cob, then the QR code
    rec = create_rec(api, loc=loc["id"], ativacao={"dadosJornada": {"txid": txid}})
    assert rec["ativacao"] == {"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": txid}}
    cob = put_charge(api, "cob", txid)
    fetched = get_json(api, f"/rec/{rec['idRec']}", params={"txid": txid})
    assert fetched["dadosQR"]["jornada"] == "JORNADA_3"
    code = brcode.parse(fetched["dadosQR"]["pixCopiaECola"])
    assert code.is_composite and not code.is_recurrence_only
    assert code.url == cob["location"]
    assert code.recurrence_url == loc["location"]
    assert code.amount is None

    other = put_charge(api, "cob", identifiers.new_txid(30))
    problem = assert_problem(api.get(f"/rec/{rec['idRec']}", params={"txid": other["txid"]}), 400)
    assert problem_type(problem) == "RecConsultaInvalida"
    cobv = put_charge(api, "cobv", identifiers.new_txid(31))
    assert_problem(api.get(f"/rec/{rec['idRec']}", params={"txid": cobv["txid"]}), 400)

    # paying the cob authorizes the recurrence
    pay_charge(api, txid)
    approved = wait_until(
        lambda: in_status(api, f"/rec/{rec['idRec']}", "APROVADA"), "the recurrence APROVADA"
    )
    assert approved["ativacao"] == {"tipoJornada": "JORNADA_3", "dadosJornada": {"txid": txid}}


def test_journey_4_composite_qr_with_cobv(api: Api) -> None:
    loc = new_locrec(api)
    rec = create_rec(api, loc=loc["id"])
    cobv = put_charge(api, "cobv", identifiers.new_txid(33))
    fetched = get_json(api, f"/rec/{rec['idRec']}", params={"txid": cobv["txid"]})
    assert fetched["dadosQR"]["jornada"] == "JORNADA_4"
    code = brcode.parse(fetched["dadosQR"]["pixCopiaECola"])
    assert code.is_composite
    assert code.url == cobv["location"]
    assert code.recurrence_url == loc["location"]

    pay_charge(api, cobv["txid"])
    approved = wait_until(
        lambda: in_status(api, f"/rec/{rec['idRec']}", "APROVADA"), "the recurrence APROVADA"
    )
    assert approved["ativacao"] == {"tipoJornada": "JORNADA_4"}


def test_journey_4_in_the_specs_order_rec_with_txid_before_the_cobv(api: Api) -> None:
    """POST /rec with ativacao.dadosJornada.txid, then PUT /cobv/{txid}, then the composite QR."""
    loc = new_locrec(api)
    txid = identifiers.new_txid(33)
    rec = create_rec(api, loc=loc["id"], ativacao={"dadosJornada": {"txid": txid}})
    assert rec["ativacao"]["tipoJornada"] == "JORNADA_3"  # the charge is not known yet
    put_charge(api, "cobv", txid)
    fetched = get_json(api, f"/rec/{rec['idRec']}", params={"txid": txid})
    assert fetched["dadosQR"]["jornada"] == "JORNADA_4"
    assert fetched["ativacao"]["tipoJornada"] == "JORNADA_4"
    assert get_json(api, f"/rec/{rec['idRec']}")["ativacao"]["tipoJornada"] == "JORNADA_4"


# --------------------------------------------------------------------------------------------
# cobr without moving the clock


def test_cobr_create_activate_get_list(api: Api) -> None:
    rec = approved_rec(api, politicaRetentativa="PERMITE_3R_7D")
    txid = identifiers.new_txid(30)
    response = api.put(f"/cobr/{txid}", json=cobr_body(rec["idRec"]))
    assert response.status_code == 201, response.text
    cobr = body_of(response)
    assert cobr["txid"] == txid and cobr["idRec"] == rec["idRec"]
    assert cobr["status"] == "CRIADA"
    assert cobr["calendario"] == {"criacao": "2026-11-18", "dataDeVencimento": EARLIEST_DUE}
    assert cobr["valor"] == {"original": "50.00"}
    assert cobr["politicaRetentativa"] == "PERMITE_3R_7D"
    assert cobr["ajusteDiaUtil"] is True
    assert cobr["recebedor"]["conta"] == "1234567"
    assert cobr["recebedor"]["cnpj"] == COMPANY["document"]
    [attempt] = cobr["tentativas"]
    assert attempt["tipo"] == "AGND" and attempt["status"] == "SOLICITADA"
    assert attempt["dataLiquidacao"] == EARLIEST_DUE
    assert identifiers.is_valid_e2eid(attempt["endToEndId"])

    active = wait_until(lambda: in_status(api, f"/cobr/{txid}", "ATIVA"), "the cobr ATIVA")
    assert [a["status"] for a in active["atualizacao"]] == ["CRIADA", "ATIVA"]
    assert active["tentativas"][0]["status"] == "AGENDADA"

    problem = assert_problem(api.put(f"/cobr/{txid}", json=cobr_body(rec["idRec"])), 400)
    assert problem_type(problem) == "CobROperacaoInvalida"
    assert "cobr.txid" in violated(problem)

    listed = get_json(api, "/cobr", params={**RANGE, "idRec": rec["idRec"]})
    assert [c["txid"] for c in listed["cobsr"]] == [txid]
    assert listed["parametros"]["idRec"] == rec["idRec"]
    by_cpf = get_json(api, "/cobr", params={**RANGE, "cpf": CPF, "status": "ATIVA"})
    assert txid in [c["txid"] for c in by_cpf["cobsr"]]
    assert get_json(api, "/cobr", params={**RANGE, "cnpj": CNPJ})["cobsr"] == []
    problem = assert_problem(api.get("/cobr", params={**RANGE, "cpf": CPF, "cnpj": CNPJ}), 400)
    assert problem_type(problem) == "CobRConsultaInvalida"
    assert_problem(api.get("/cobr", params={"fim": RANGE["fim"]}), 400)
    problem = assert_problem(api.get(f"/cobr/{identifiers.new_txid()}"), 404)
    assert problem_type(problem) == "CobRNaoEncontrado"


def test_cobr_lead_time_and_recurrence_rules(api: Api) -> None:
    rec = approved_rec(api)
    for due in ("2026-11-19", "2026-11-20", "2026-11-18", "2026-11-10"):
        problem = assert_problem(api.post("/cobr", json=cobr_body(rec["idRec"], due)), 400)
        assert problem_type(problem) == "CobROperacaoInvalida"
        assert violated(problem) == {"cobr.calendario.dataDeVencimento"}, due
    # outside the recurrence's dataInicial..dataFinal
    late = assert_problem(api.post("/cobr", json=cobr_body(rec["idRec"], "2027-12-01")), 400)
    assert violated(late) == {"cobr.calendario.dataDeVencimento"}
    # a fixed-amount recurrence takes exactly its amount
    wrong = api.post("/cobr", json=cobr_body(rec["idRec"], amount="49.99"))
    assert violated(assert_problem(wrong, 400)) == {"cobr.valor.original"}
    # a recurrence not yet approved cannot be charged
    pending = create_rec(api)
    problem = assert_problem(api.post("/cobr", json=cobr_body(pending["idRec"])), 400)
    assert violated(problem) == {"cobr.idRec"}
    minimum = approved_rec(api, valor={"valorMinimoRecebedor": "30.00"})
    low = api.post("/cobr", json=cobr_body(minimum["idRec"], amount="29.99"))
    assert violated(assert_problem(low, 400)) == {"cobr.valor.original"}
    assert api.post("/cobr", json=cobr_body(minimum["idRec"], amount="75.10")).status_code == 201


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"recebedor": None}, "cobr.recebedor"),
        ({"recebedor": {"conta": "1", "tipoConta": "SALARIO"}}, "cobr.recebedor.tipoConta"),
        ({"valor": {"original": "50,00"}}, "cobr.valor.original"),
        ({"calendario": {}}, "cobr.calendario.dataDeVencimento"),
        ({"ajusteDiaUtil": "sim"}, "cobr.ajusteDiaUtil"),
        ({"infoAdicional": "i" * 141}, "cobr.infoAdicional"),
        ({"idRec": "curto"}, "cobr.idRec"),
        ({"devedor": {"uf": "SPX"}}, "cobr.devedor.uf"),
    ],
)
def test_cobr_validation(api: Api, change: dict[str, Any], field: str) -> None:
    body = {**cobr_body("RN9999901020261118abcdefghijk"), **change}
    body = {k: v for k, v in body.items() if v is not None}
    problem = assert_problem(api.post("/cobr", json=body), 400)
    assert problem_type(problem) == "CobROperacaoInvalida"
    assert field in violated(problem), problem


def test_cobr_bad_client_txid(api: Api) -> None:
    problem = assert_problem(api.put("/cobr/curto", json=cobr_body("x")), 400)
    assert problem_type(problem) == "CobROperacaoInvalida"


def test_one_cobr_per_cycle_and_cancel(api: Api) -> None:
    rec = approved_rec(api)
    first = create_cobr(api, rec["idRec"], "2026-11-23")
    # same month (MENSAL cycle): refused while the first is not REJEITADA/CANCELADA
    problem = assert_problem(api.post("/cobr", json=cobr_body(rec["idRec"], "2026-11-30")), 400)
    assert violated(problem) == {"cobr.calendario.dataDeVencimento"}
    assert "ciclo" in problem["detail"]
    # next month is another cycle
    december = create_cobr(api, rec["idRec"], "2026-12-10")
    assert december["tentativas"][0]["dataLiquidacao"] == "2026-12-10"

    response = api.request("PATCH", f"/cobr/{first['txid']}", json={"status": "CANCELADA"})
    assert response.status_code == 200, response.text
    cancelled = body_of(response)
    assert cancelled["status"] == "CANCELADA"
    assert cancelled["tentativas"][0]["status"] == "CANCELADA"
    assert cancelled["encerramento"]["cancelamento"]["solicitante"] == "USUARIO_RECEBEDOR"
    again = api.request("PATCH", f"/cobr/{first['txid']}", json={"status": "CANCELADA"})
    assert_problem(again, 400)
    bad = api.request("PATCH", f"/cobr/{december['txid']}", json={"status": "CONCLUIDA"})
    assert_problem(bad, 400)
    # the cycle is free again
    assert create_cobr(api, rec["idRec"], "2026-11-30")["status"] == "CRIADA"


def test_ajuste_dia_util_moves_settlement(api: Api) -> None:
    rec = approved_rec(api, calendario={"dataInicial": "2026-11-23", "periodicidade": "SEMANAL"})
    saturday = "2026-11-28"
    response = api.post("/cobr", json=cobr_body(rec["idRec"], saturday))
    assert response.status_code == 201, response.text
    assert body_of(response)["tentativas"][0]["dataLiquidacao"] == "2026-11-30"
    body = {**cobr_body(rec["idRec"], "2026-12-05"), "ajusteDiaUtil": False}
    response = api.post("/cobr", json=body)
    assert response.status_code == 201, response.text
    assert body_of(response)["tentativas"][0]["dataLiquidacao"] == "2026-12-05"


def test_retry_refused_when_policy_does_not_allow(api: Api) -> None:
    rec = approved_rec(api)  # NAO_PERMITE
    cobr = create_cobr(api, rec["idRec"])
    problem = assert_problem(api.post(f"/cobr/{cobr['txid']}/retentativa/2026-11-25"), 400)
    assert problem_type(problem) == "CobROperacaoInvalida"
    assert problem["detail"] == (
        "A política configurada na recorrência não permite retentativa de cobrança."
    )
    assert_problem(api.post(f"/cobr/{identifiers.new_txid()}/retentativa/2026-11-25"), 404)


def test_rec_cancel_cancels_open_cobr(api: Api) -> None:
    rec = approved_rec(api)
    cobr = create_cobr(api, rec["idRec"])
    response = api.request("PATCH", f"/rec/{rec['idRec']}", json={"status": "CANCELADA"})
    assert response.status_code == 200
    assert get_json(api, f"/cobr/{cobr['txid']}")["status"] == "CANCELADA"


def test_notifications_recorded(api: Api) -> None:
    rec = create_rec(api)
    api.control("POST", f"/sandbox/automatico/rec/{rec['idRec']}/approve")
    mine = [
        n for n in notifications(api, "rec") if n["payload"]["recs"][0]["idRec"] == rec["idRec"]
    ]
    assert [n["payload"]["recs"][0]["status"] for n in mine] == ["CRIADA", "APROVADA"]
    for record in mine:
        assert record["api"] == "qrcodes" and record["kind"] == "rec"
        assert record["url"] == "https://erp.example.com/hooks/rec"
        assert record["status"] == "PENDING"
    approved = mine[-1]["payload"]["recs"][0]
    assert approved["ativacao"]["tipoJornada"] == "JORNADA_2"
    assert [a["status"] for a in approved["atualizacao"]] == ["CRIADA", "APROVADA"]

    cobr = create_cobr(api, rec["idRec"])
    wait_until(lambda: in_status(api, f"/cobr/{cobr['txid']}", "ATIVA"), "the cobr ATIVA")
    items = [
        n["payload"]["cobsr"][0]
        for n in notifications(api, "cobr")
        if n["payload"]["cobsr"][0]["txid"] == cobr["txid"]
    ]
    assert [i["status"] for i in items] == ["CRIADA", "ATIVA"]
    assert items[-1]["tentativas"][0]["status"] == "AGENDADA"
    assert all(n["url"] == "https://erp.example.com/hooks/cobr" for n in notifications(api, "cobr"))
    bad = api.http.get("/sandbox/automatico/notifications?kind=pix")
    assert_problem(bad, 400)


# --------------------------------------------------------------------------------------------
# the clock moves: expiry, settlement, failures, retries (keep these last)


def test_solicrec_expires_on_the_clock(api: Api) -> None:
    rec = create_rec(api)
    now = dt.datetime.fromisoformat(api.now().replace("Z", "+00:00"))
    expires = (now + dt.timedelta(seconds=90)).isoformat().replace("+00:00", "Z")
    sol = body_of(api.post("/solicrec", json=solicrec_body(rec["idRec"], expires)))
    api.advance(120)
    expired = get_json(api, f"/solicrec/{sol['idSolicRec']}")
    assert expired["status"] == "EXPIRADA"
    assert get_json(api, f"/rec/{rec['idRec']}")["status"] == "CRIADA"


def test_settlement_failure_and_retries_on_the_clock(api: Api) -> None:
    paying = approved_rec(api)  # NAO_PERMITE
    failing = approved_rec(api, politicaRetentativa="PERMITE_3R_7D")
    rejected = approved_rec(api)  # NAO_PERMITE, fails once: no retry possible
    late_cancel = approved_rec(api)
    paid = create_cobr(api, paying["idRec"])
    retried = create_cobr(api, failing["idRec"])
    final = create_cobr(api, rejected["idRec"])
    kept = create_cobr(api, late_cancel["idRec"])
    failure = api.control("POST", f"/sandbox/automatico/cobr/{retried['txid']}/fail-next")
    assert failure["falhaProximaTentativa"]["codigo"] == "AM04"
    api.control("POST", f"/sandbox/automatico/cobr/{final['txid']}/fail-next", {"codigo": "AC06"})
    balance = Decimal(api.control("GET", "/sandbox/status")["balance"])

    # Monday 00:30 in Brasília: the first attempt's date has come, not its hour
    set_clock(api, "2026-11-23T03:30:00Z")
    problem = assert_problem(
        api.request("PATCH", f"/cobr/{kept['txid']}", json={"status": "CANCELADA"}), 400
    )
    assert "primeira tentativa" in problem["detail"]
    assert get_json(api, f"/cobr/{paid['txid']}")["status"] == "ATIVA"
    early = api.post(f"/cobr/{retried['txid']}/retentativa/2026-11-24")
    assert "SOLICITADA ou AGENDADA" in assert_problem(early, 400)["detail"]

    # Monday 10:30: the scheduled debits settle or fail
    set_clock(api, "2026-11-23T13:30:00Z")
    settled = get_json(api, f"/cobr/{paid['txid']}")
    assert settled["status"] == "CONCLUIDA"
    assert settled["tentativas"][0]["status"] == "PAGA"
    [pix] = settled["pix"]
    assert pix["txid"] == paid["txid"] and pix["valor"] == "50.00"
    assert pix["endToEndId"] == settled["tentativas"][0]["endToEndId"]
    # every charge due on Monday that did not fail was credited, each exactly once
    concluded = get_json(api, "/cobr", params={**RANGE, "status": "CONCLUIDA"})["cobsr"]
    assert paid["txid"] in [c["txid"] for c in concluded]
    assert kept["txid"] in [c["txid"] for c in concluded]
    credited = sum((Decimal(c["valor"]["original"]) for c in concluded), Decimal("0.00"))
    assert Decimal(api.control("GET", "/sandbox/status")["balance"]) == balance + credited

    failed = get_json(api, f"/cobr/{retried['txid']}")
    assert failed["status"] == "ATIVA"  # PERMITE_3R_7D: retries still possible
    assert failed["tentativas"][0]["status"] == "REJEITADA"
    assert failed["tentativas"][0]["rejeicao"]["codigo"] == "AM04"
    closed = get_json(api, f"/cobr/{final['txid']}")
    assert closed["status"] == "REJEITADA"  # NAO_PERMITE: the failure ends the charge
    assert closed["encerramento"]["rejeicao"]["codigo"] == "AC06"

    path = f"/cobr/{retried['txid']}/retentativa"
    assert "data futura" in assert_problem(api.post(f"{path}/2026-11-23"), 400)["detail"]
    assert_problem(api.post(f"{path}/2026-12-01"), 400)  # beyond 7 days after the due date
    assert_problem(api.post(f"{path}/24-11-2026"), 400)
    response = api.post(f"{path}/2026-11-24")
    assert response.status_code == 201, response.text
    with_retry = body_of(response)
    assert [(t["tipo"], t["status"]) for t in with_retry["tentativas"]] == [
        ("AGND", "REJEITADA"),
        ("NTAG", "SOLICITADA"),
    ]
    assert with_retry["tentativas"][1]["dataLiquidacao"] == "2026-11-24"
    assert_problem(api.post(f"{path}/2026-11-25"), 400)  # one attempt at a time
    assert_problem(api.request("PATCH", f"/cobr/{paid['txid']}", json={"status": "CANCELADA"}), 400)

    # Tuesday 10:30: the retry settles
    set_clock(api, "2026-11-24T13:30:00Z")
    done = get_json(api, f"/cobr/{retried['txid']}")
    assert done["status"] == "CONCLUIDA"
    assert [t["status"] for t in done["tentativas"]] == ["REJEITADA", "PAGA"]
    assert done["pix"][0]["endToEndId"] == done["tentativas"][1]["endToEndId"]

    statuses = [
        (
            n["payload"]["cobsr"][0]["status"],
            [t["status"] for t in n["payload"]["cobsr"][0]["tentativas"]],
        )
        for n in notifications(api, "cobr")
        if n["payload"]["cobsr"][0]["txid"] == retried["txid"]
    ]
    assert statuses[-1] == ("CONCLUIDA", ["REJEITADA", "PAGA"])
    assert ("ATIVA", ["REJEITADA"]) in statuses
    assert ("ATIVA", ["REJEITADA", "SOLICITADA"]) in statuses


def test_retry_window_closes(api: Api) -> None:
    rec = approved_rec(
        api,
        politicaRetentativa="PERMITE_3R_7D",
        calendario={"dataInicial": "2026-11-26", "periodicidade": "MENSAL"},
    )
    cobr = create_cobr(api, rec["idRec"], "2026-12-01")
    api.control("POST", f"/sandbox/automatico/cobr/{cobr['txid']}/fail-next")
    set_clock(api, "2026-12-01T13:30:00Z")
    assert get_json(api, f"/cobr/{cobr['txid']}")["status"] == "ATIVA"
    set_clock(api, "2026-12-08T13:30:00Z")  # 7 days after the due date, no retry asked
    closed = get_json(api, f"/cobr/{cobr['txid']}")
    assert closed["status"] == "REJEITADA"
    assert closed["encerramento"]["rejeicao"]["codigo"] == "AM04"
