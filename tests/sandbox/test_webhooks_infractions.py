"""Accounts API event webhooks (transfer, receive, refund, cashout) and infractions with
their defenses."""

from __future__ import annotations

from typing import Any

import pytest

from tests.sandbox.conftest import Api, assert_problem, body_of, violated

KINDS = ["transfer", "receive", "refund", "cashout"]
FULL = {
    "uri": "https://erp.example.com.br/hooks/pix",
    "enabled": True,
    "email": "tesouraria@example.com.br",
    "method": "POST",
    "pauseOnFail": True,
    "headers": {"X-Api-Key": "abc123"},
}


@pytest.fixture(autouse=True)
def _no_webhooks(accounts: Api) -> None:
    for webhook in body_of(accounts.get("/api/v2/webhooks"))["data"]:
        accounts.delete(f"/api/v2/webhooks/{webhook['id']}")


# Webhooks ---------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_webhook_lifecycle(accounts: Api, kind: str) -> None:
    path = f"/api/v2/webhooks/{kind}"
    assert_problem(accounts.get(path), 404)
    created = accounts.post(path, json=FULL)
    assert created.status_code == 201, created.text
    webhook = body_of(created)["data"]
    assert {k: webhook[k] for k in FULL} == FULL
    assert webhook["type"] == kind.upper()

    read = body_of(accounts.get(path))["data"]
    assert read == webhook
    by_id = body_of(accounts.get(f"/api/v2/webhooks/{webhook['id']}"))["data"]
    assert by_id == webhook

    changed = accounts.post(path, json={**FULL, "enabled": False, "uri": "https://other.example/h"})
    assert changed.status_code == 200  # one per kind: replaced, same id
    updated = body_of(changed)["data"]
    assert updated["id"] == webhook["id"]
    assert (updated["enabled"], updated["uri"]) == (False, "https://other.example/h")
    assert updated["createdAt"] == webhook["createdAt"]

    listed = body_of(accounts.get("/api/v2/webhooks"))["data"]
    assert [w["id"] for w in listed] == [webhook["id"]]

    assert accounts.delete(path).status_code == 204
    assert_problem(accounts.get(path), 404)
    assert_problem(accounts.delete(path), 404)
    assert_problem(accounts.get(f"/api/v2/webhooks/{webhook['id']}"), 404)


def test_webhook_defaults(accounts: Api) -> None:
    created = body_of(accounts.post("/api/v2/webhooks/transfer", json={"uri": FULL["uri"]}))
    webhook = created["data"]
    assert webhook["enabled"] is True
    assert webhook["method"] == "POST"
    assert webhook["pauseOnFail"] is False
    assert webhook["headers"] == {}


def test_list_and_delete_by_id(accounts: Api) -> None:
    ids = {}
    for kind in KINDS:
        response = accounts.post(
            f"/api/v2/webhooks/{kind}", json={"uri": f"https://h.example/{kind}"}
        )
        ids[kind] = body_of(response)["data"]["id"]
    listed = body_of(accounts.get("/api/v2/webhooks"))["data"]
    assert {w["type"]: w["id"] for w in listed} == {k.upper(): v for k, v in ids.items()}
    assert accounts.delete(f"/api/v2/webhooks/{ids['refund']}").status_code == 204
    remaining = {w["type"] for w in body_of(accounts.get("/api/v2/webhooks"))["data"]}
    assert remaining == {"TRANSFER", "RECEIVE", "CASHOUT"}
    assert_problem(accounts.get("/api/v2/webhooks/refund"), 404)
    assert_problem(accounts.delete(f"/api/v2/webhooks/{ids['refund']}"), 404)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"uri": "http://erp.example.com.br/hooks"}, "uri"),
        ({"uri": "ftp://erp.example.com.br"}, "uri"),
        ({"uri": None}, "uri"),
        ({"method": "GET"}, "method"),
        ({"enabled": "yes"}, "enabled"),
        ({"pauseOnFail": 1}, "pauseOnFail"),
        ({"email": "not-an-email"}, "email"),
        ({"headers": {"X-Count": 1}}, "headers"),
        ({"headers": ["X-Api-Key"]}, "headers"),
    ],
)
def test_webhook_validation(accounts: Api, changes: dict[str, Any], field: str) -> None:
    body = {k: v for k, v in {**FULL, **changes}.items() if v is not None}
    problem = assert_problem(accounts.post("/api/v2/webhooks/transfer", json=body), 400)
    assert field in violated(problem)
    assert_problem(accounts.get("/api/v2/webhooks/transfer"), 404)  # nothing was stored


def test_unknown_webhook_kind_or_id(accounts: Api) -> None:
    assert_problem(accounts.post("/api/v2/webhooks/billet", json=FULL), 404)
    assert_problem(accounts.get("/api/v2/webhooks/987654"), 404)


# Infractions ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def infractions(accounts: Api) -> list[dict[str, Any]]:
    response = accounts.get("/api/v2/infractions")
    assert response.status_code == 200
    items: list[dict[str, Any]] = body_of(response)["data"]
    return items


def test_infraction_list(accounts: Api, infractions: list[dict[str, Any]]) -> None:
    assert len(infractions) == 3
    assert {i["status"] for i in infractions} >= {"OPEN", "CLOSED"}
    stamps = [i["createdAt"] for i in infractions]
    assert stamps == sorted(stamps, reverse=True)
    for item in infractions:
        assert item["endToEndId"] and item["reason"]
    page = body_of(accounts.get("/api/v2/infractions", params={"perPage": 1, "page": 2}))
    assert page["data"] == [infractions[1]]
    assert page["meta"]["totalItems"] == 3
    closed = body_of(accounts.get("/api/v2/infractions", params={"status": "CLOSED"}))["data"]
    assert [i["status"] for i in closed] == ["CLOSED"]
    assert_problem(accounts.get("/api/v2/infractions", params={"perPage": 0}), 400)


def test_infraction_by_id(accounts: Api, infractions: list[dict[str, Any]]) -> None:
    first = infractions[0]
    response = accounts.get(f"/api/v2/infractions/{first['id']}")
    assert response.status_code == 200
    assert body_of(response)["data"]["id"] == first["id"]
    assert_problem(accounts.get("/api/v2/infractions/INF000"), 404)
    assert_problem(accounts.get("/api/v2/infractions/INF000/defenses"), 404)


def test_defense_of_an_open_infraction(accounts: Api, infractions: list[dict[str, Any]]) -> None:
    infraction = next(i for i in infractions if i["status"] == "OPEN")
    path = f"/api/v2/infractions/{infraction['id']}/defenses"
    assert body_of(accounts.get(path))["data"] == []
    response = accounts.post(
        path,
        json={
            "description": "O pagamento foi autorizado pelo cliente; segue contrato.",
            "attachments": [{"name": "contrato.pdf"}],
        },
    )
    assert response.status_code == 201, response.text
    defense = body_of(response)["data"]
    assert defense["status"] == "SUBMITTED"
    assert defense["attachments"] == [{"name": "contrato.pdf"}]
    assert defense["infractionId"] == infraction["id"]
    listed = body_of(accounts.get(path))["data"]
    assert [d["id"] for d in listed] == [defense["id"]]
    updated = body_of(accounts.get(f"/api/v2/infractions/{infraction['id']}"))["data"]
    assert updated["status"] == "UNDER_REVIEW"


def test_defense_validation(accounts: Api, infractions: list[dict[str, Any]]) -> None:
    infraction = next(i for i in infractions if i["status"] != "CLOSED")
    path = f"/api/v2/infractions/{infraction['id']}/defenses"
    problem = assert_problem(accounts.post(path, json={}), 400)
    assert "description" in violated(problem)
    problem = assert_problem(accounts.post(path, json={"description": "   "}), 400)
    assert "description" in violated(problem)
    bad = accounts.post(path, json={"description": "x", "attachments": "contrato.pdf"})
    assert "attachments" in violated(assert_problem(bad, 400))


def test_closed_infraction_refuses_defense(
    accounts: Api, infractions: list[dict[str, Any]]
) -> None:
    closed = next(i for i in infractions if i["status"] == "CLOSED")
    path = f"/api/v2/infractions/{closed['id']}/defenses"
    assert_problem(accounts.post(path, json={"description": "Tarde demais."}), 422)
    assert body_of(accounts.get(path))["data"] == []
    assert_problem(
        accounts.post("/api/v2/infractions/INF000/defenses", json={"description": "x"}), 404
    )
