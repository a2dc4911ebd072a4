"""QR Codes API, part 1: the per-key Pix webhook (PUT/GET/DELETE /webhook/{chave}) and its
list (GET /webhook), with BCB-style errors."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.sandbox.conftest import Api, assert_problem, body_of, violated
from treasury_app.sandbox.seed import COMPANY

KEYS: list[str] = COMPANY["keys"]
BCB_ERROR = "https://pix.bcb.gov.br/api/v2/error/"
RANGE = {"inicio": "2026-01-01T00:00:00Z", "fim": "2027-01-01T00:00:00Z"}


@pytest.fixture(autouse=True)
def _no_webhooks(qrcodes: Api) -> Iterator[None]:
    yield
    for key in KEYS:
        qrcodes.delete(f"/webhook/{key}")


def _put(qrcodes: Api, key: str, url: Any) -> Any:
    return qrcodes.put(f"/webhook/{key}", json={"webhookUrl": url})


@pytest.mark.parametrize("key", KEYS)
def test_webhook_per_key(qrcodes: Api, key: str) -> None:
    assert_problem(qrcodes.get(f"/webhook/{key}"), 404)
    response = _put(qrcodes, key, "https://erp.example.com.br/pix/webhook")
    assert response.status_code == 200, response.text
    created = body_of(response)
    assert created["webhookUrl"] == "https://erp.example.com.br/pix/webhook"
    assert created["chave"] == key
    assert created["criacao"].startswith("2026-11-18T") and created["criacao"].endswith("Z")

    read = body_of(qrcodes.get(f"/webhook/{key}"))
    assert read == {"webhookUrl": created["webhookUrl"], "criacao": created["criacao"]}

    replaced = body_of(_put(qrcodes, key, "https://novo.example.com.br/pix"))
    assert replaced["webhookUrl"] == "https://novo.example.com.br/pix"
    assert replaced["criacao"] == created["criacao"]

    deleted = qrcodes.delete(f"/webhook/{key}")
    assert deleted.status_code == 204
    assert deleted.content == b""
    assert_problem(qrcodes.get(f"/webhook/{key}"), 404)
    assert_problem(qrcodes.delete(f"/webhook/{key}"), 404)


@pytest.mark.parametrize(
    "key", ["outra@empresa.com.br", "52998224725", "00000000-0000-0000-0000-000000000000"]
)
def test_key_of_another_account_is_400(qrcodes: Api, key: str) -> None:
    problem = assert_problem(_put(qrcodes, key, "https://erp.example.com.br/pix"), 400)
    assert problem["type"].startswith(BCB_ERROR)
    assert "chave" in violated(problem)
    assert_problem(qrcodes.get(f"/webhook/{key}"), 404)


@pytest.mark.parametrize(
    "url", ["http://erp.example.com.br/pix", "erp.example.com.br/pix", "", None, 42]
)
def test_webhook_url_must_be_https(qrcodes: Api, url: Any) -> None:
    problem = assert_problem(_put(qrcodes, KEYS[0], url), 400)
    assert problem["type"].startswith(BCB_ERROR)
    assert "webhookUrl" in violated(problem)
    assert_problem(qrcodes.get(f"/webhook/{KEYS[0]}"), 404)


def test_webhook_body_must_be_json(qrcodes: Api) -> None:
    response = qrcodes.http.put(
        f"/webhook/{KEYS[0]}",
        content=b"webhookUrl=https://x.example",
        headers={
            "authorization": f"Bearer {qrcodes.token}",
            "content-type": "application/x-www-form-urlencoded",
        },
    )
    assert_problem(response, 400)


def test_webhook_list(qrcodes: Api) -> None:
    for index, key in enumerate(KEYS[:3]):
        assert _put(qrcodes, key, f"https://erp.example.com.br/pix/{index}").status_code == 200
    response = qrcodes.get("/webhook", params=RANGE)
    assert response.status_code == 200, response.text
    page = body_of(response)
    assert page["parametros"]["inicio"] == "2026-01-01T00:00:00.000Z"
    assert page["parametros"]["paginacao"] == {
        "paginaAtual": 0,
        "itensPorPagina": 100,
        "quantidadeDePaginas": 1,
        "quantidadeTotalDeItens": 3,
    }
    assert {w["chave"] for w in page["webhooks"]} == set(KEYS[:3])
    for item in page["webhooks"]:
        assert set(item) == {"webhookUrl", "chave", "criacao"}

    second = body_of(
        qrcodes.get(
            "/webhook",
            params={**RANGE, "paginacao.paginaAtual": 1, "paginacao.itensPorPagina": 2},
        )
    )
    assert second["parametros"]["paginacao"] == {
        "paginaAtual": 1,
        "itensPorPagina": 2,
        "quantidadeDePaginas": 2,
        "quantidadeTotalDeItens": 3,
    }
    assert len(second["webhooks"]) == 1

    earlier = body_of(
        qrcodes.get(
            "/webhook", params={"inicio": "2026-01-01T00:00:00Z", "fim": "2026-11-01T00:00:00Z"}
        )
    )
    assert earlier["webhooks"] == []
    assert earlier["parametros"]["paginacao"]["quantidadeTotalDeItens"] == 0


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({**RANGE, "inicio": "2026-01-01"}, "inicio"),
        ({**RANGE, "fim": "amanhã"}, "fim"),
        ({"inicio": "2026-12-01T00:00:00Z", "fim": "2026-11-01T00:00:00Z"}, "fim"),
        ({**RANGE, "paginacao.itensPorPagina": 0}, "paginacao.itensPorPagina"),
        ({**RANGE, "paginacao.itensPorPagina": 1001}, "paginacao.itensPorPagina"),
        ({**RANGE, "paginacao.paginaAtual": -1}, "paginacao.paginaAtual"),
    ],
)
def test_webhook_list_validation(qrcodes: Api, params: dict[str, Any], field: str) -> None:
    problem = assert_problem(qrcodes.get("/webhook", params=params), 400)
    assert field in violated(problem)


def test_webhook_list_requires_inicio_and_fim(qrcodes: Api) -> None:
    assert_problem(qrcodes.get("/webhook"), 400)
