"""A notification body read item by item: each item's dedupe key (a redelivery has the same
key, a new state a new one) and :class:`BadBody` with the reason for what cannot be read."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

import pytest

from tests.receiver.conftest import (
    body_bytes,
    cashout_body,
    cobr_item,
    credit_body,
    e2e_id,
    pix_body,
    pix_item,
    rec_item,
    transfer_body,
)
from treasury_app.receiver.items import MAX_ITEMS, SOURCES, BadBody, Item, parse_body


def keys(source: str, document: Any) -> list[str]:
    return [item.dedupe_key for item in parse_body(source, body_bytes(document))]


def reason(source: str, body: bytes) -> str:
    with pytest.raises(BadBody) as raised:
        parse_body(source, body)
    return str(raised.value)


# Dedupe keys ---------------------------------------------------------------------------------


def test_pix_key_is_the_end_to_end_id_and_each_refund_with_its_state() -> None:
    e2e = e2e_id()
    [plain] = keys("pix", pix_body(pix_item(end_to_end_id=e2e)))
    assert plain == f"pix|{e2e}|"
    asked = pix_item(end_to_end_id=e2e, refunds=[("D1", "EM_PROCESSAMENTO")])
    [refund_asked] = keys("pix", pix_body(asked))
    assert refund_asked == f"pix|{e2e}|D1:EM_PROCESSAMENTO"
    # the same Pix again once its refund changed state: a new item
    done = pix_item(end_to_end_id=e2e, refunds=[("D1", "DEVOLVIDO")])
    [refund_done] = keys("pix", pix_body(done))
    assert refund_done == f"pix|{e2e}|D1:DEVOLVIDO"
    assert len({plain, refund_asked, refund_done}) == 3
    # a second refund: a new item, whatever order the bank lists the refunds in
    two = pix_item(end_to_end_id=e2e, refunds=[("D2", "EM_PROCESSAMENTO"), ("D1", "DEVOLVIDO")])
    [both] = keys("pix", pix_body(two))
    assert both == f"pix|{e2e}|D1:DEVOLVIDO,D2:EM_PROCESSAMENTO"
    reordered = pix_item(
        end_to_end_id=e2e, refunds=[("D1", "DEVOLVIDO"), ("D2", "EM_PROCESSAMENTO")]
    )
    assert keys("pix", pix_body(reordered)) == [both]
    # a redelivery of the same body: the same keys
    assert keys("pix", pix_body(done)) == [refund_done]


def test_one_pix_body_gives_one_item_per_pix() -> None:
    first, second = pix_item(txid="a" * 30), pix_item(chave=None)
    items = parse_body("pix", body_bytes(pix_body(first, second)))
    assert [i.ref for i in items] == [first["endToEndId"], second["endToEndId"]]
    assert [i.source for i in items] == ["pix", "pix"]
    assert items[0].data.txid == "a" * 30 and items[0].data.valor == Decimal("10.00")
    assert items[1].raw == second  # kept as received
    assert all(i.status is None and not i.final for i in items)


def test_rec_key_is_the_id_rec_its_status_and_latest_update() -> None:
    [created] = keys("rec", {"recs": [rec_item("RR1234567820261118abcdefghij1", "CRIADA")]})
    [approved] = keys("rec", {"recs": [rec_item("RR1234567820261118abcdefghij1", "APROVADA")]})
    assert approved.startswith("rec|RR1234567820261118abcdefghij1|APROVADA|2026-11-18 13:01")
    assert created != approved
    later = rec_item("RR1234567820261118abcdefghij1", "APROVADA", at="2026-11-19T13:01:00Z")
    assert keys("rec", {"recs": [later]}) != [approved]
    two = keys("rec", {"recs": [rec_item("RR1"), rec_item("RR2", "CANCELADA")]})
    assert [k.split("|")[1:3] for k in two] == [["RR1", "APROVADA"], ["RR2", "CANCELADA"]]


def test_cobr_key_is_the_txid_its_status_and_attempts() -> None:
    scheduled = keys("cobr", {"cobsr": [cobr_item("RR1", "t" * 30)]})
    assert scheduled == [f"cobr|{'t' * 30}|ATIVA|1|AGENDADA"]
    paid = keys("cobr", {"cobsr": [cobr_item("RR1", "t" * 30, "CONCLUIDA", ["PAGA"])]})
    assert paid == [f"cobr|{'t' * 30}|CONCLUIDA|1|PAGA"]
    failed = cobr_item("RR1", "t" * 30, "ATIVA", ["REJEITADA"])
    retried = cobr_item("RR1", "t" * 30, "ATIVA", ["REJEITADA", "SOLICITADA"])
    assert len({*scheduled, *paid, *keys("cobr", {"cobsr": [failed, retried]})}) == 4
    [item] = parse_body("cobr", body_bytes({"cobsr": [retried]}))
    assert item.ref == "t" * 30


def test_transfer_and_cashout_keys_are_the_idempotency_key_status_and_time() -> None:
    e2e = e2e_id()
    processing = transfer_body(idempotency_key="K1", end_to_end_id=e2e, status="PROCESSING")
    settled = transfer_body(idempotency_key="K1", end_to_end_id=e2e, at="2026-11-18T13:00:04Z")
    [first] = parse_body("transfer", body_bytes(processing))
    [last] = parse_body("transfer", body_bytes(settled))
    assert first.dedupe_key == "transfer|K1|PROCESSING|2026-11-18 13:00:03+00:00"
    assert last.dedupe_key == "transfer|K1|SETTLED|2026-11-18 13:00:04+00:00"
    assert (first.ref, first.status, first.final) == ("K1", "PROCESSING", False)
    assert (last.status, last.final) == ("SETTLED", True)
    # without an idempotency key the endToEndId names the payment
    [by_e2e] = parse_body(
        "transfer", body_bytes(transfer_body(idempotency_key=None, end_to_end_id=e2e))
    )
    assert by_e2e.ref == e2e and by_e2e.dedupe_key.startswith(f"transfer|{e2e}|SETTLED|")
    [cashout] = parse_body(
        "cashout", body_bytes(cashout_body(idempotency_key="K1", end_to_end_id=e2e))
    )
    assert cashout.dedupe_key == "cashout|K1|CANCELED|"
    assert (cashout.source, cashout.ref, cashout.final) == ("cashout", "K1", True)


def test_receive_and_refund_keys_are_the_statement_entry() -> None:
    receive = credit_body("RECEIVE", entry_id=901)
    refund = credit_body("REFUND", entry_id=902)
    [received] = parse_body("receive", body_bytes(receive))
    [refunded] = parse_body("refund", body_bytes(refund))
    assert received.dedupe_key == "receive|901"
    assert refunded.dedupe_key == "refund|902"
    assert received.ref == receive["data"]["endToEndId"]
    assert received.data.value == Decimal("25.5")
    assert keys("receive", receive) == ["receive|901"]  # a redelivery: the same key


def test_every_route_has_a_source() -> None:
    assert SOURCES == ("pix", "rec", "cobr", "transfer", "receive", "refund", "cashout")
    assert Item.__dataclass_fields__["raw"].repr is False  # bodies are not logged by repr


# Bodies that cannot be read ------------------------------------------------------------------


def test_not_json() -> None:
    assert reason("pix", b"{nope").startswith("the body is not JSON")
    assert reason("transfer", b"").startswith("the body is not JSON")


def test_not_utf8() -> None:
    assert reason("pix", b'{"pix": ["\xff\xfe"]}').startswith("the body is not UTF-8")


def test_too_deep() -> None:
    assert "nests too deeply" in reason("rec", b"[" * 200_000 + b"]" * 200_000)


def test_wrong_shapes() -> None:
    assert reason("pix", b"[]") == "the body is not a JSON object"
    assert reason("pix", b'"pix"') == "the body is not a JSON object"
    assert reason("pix", b"{}") == "the body has no pix[] list of items"
    assert reason("pix", b'{"pix": []}') == "the body has no pix[] list of items"
    assert reason("pix", b'{"pix": {"endToEndId": "E1"}}') == "the body has no pix[] list of items"
    no_e2e = {"pix": [pix_item(), {"valor": "1.00", "horario": "2026-11-18T13:00:00Z"}]}
    assert reason("pix", body_bytes(no_e2e)).startswith("pix[1] is not a Pix: endToEndId")
    bad_amount = {"pix": [pix_item(valor="dez reais")]}
    assert reason("pix", body_bytes(bad_amount)).startswith("pix[0] is not a Pix: valor")
    assert reason("rec", b'{"pix": []}') == "the body has no recs[] list of items"
    no_status = {"recs": [{"idRec": "RR1"}]}
    assert reason("rec", body_bytes(no_status)).startswith("the body is not a rec notification")
    assert reason("cobr", body_bytes({"cobsr": [{"txid": "x"}]})).startswith(
        "the body is not a cobr notification"
    )
    no_payment = {"type": "TRANSFER", "data": {"status": "SETTLED"}}
    assert reason("transfer", body_bytes(no_payment)).startswith(
        "the body is not a transfer notification"
    )
    anonymous = {"type": "CASHOUT", "data": {"status": "CANCELED"}}
    assert reason("cashout", body_bytes(anonymous)) == (
        "the cashout notification names no idempotencyKey nor endToEndId"
    )
    nameless = {"type": "RECEIVE", "data": {"amount": 1}}
    assert reason("receive", body_bytes(nameless)) == (
        "the receive notification names no id nor endToEndId"
    )


def test_a_notification_posted_to_another_kind_s_path() -> None:
    transfer = transfer_body(idempotency_key="K1")
    assert reason("cashout", body_bytes(transfer)) == (
        "a 'TRANSFER' notification was posted to the cashout path"
    )
    assert reason("receive", body_bytes(credit_body("REFUND"))) == (
        "a 'REFUND' notification was posted to the receive path"
    )
    untyped = {"data": transfer["data"]}
    assert reason("transfer", body_bytes(untyped)) == (
        "a None notification was posted to the transfer path"
    )
    assert reason("webhook", b"{}") == "no notification is posted to 'webhook'"


def test_too_many_items() -> None:
    many = [pix_item(end_to_end_id=f"E{n:031d}") for n in range(MAX_ITEMS + 1)]
    assert reason("pix", body_bytes(pix_body(*many))) == (
        f"the body has {MAX_ITEMS + 1} items; at most {MAX_ITEMS} are read"
    )
    recs = {"recs": [rec_item(f"RR{n}") for n in range(MAX_ITEMS + 1)]}
    assert "at most" in reason("rec", body_bytes(recs))
    assert len(parse_body("pix", body_bytes(pix_body(*many[:MAX_ITEMS])))) == MAX_ITEMS


def test_amounts_are_read_as_decimals() -> None:
    body = json.dumps({"pix": [pix_item(valor="0.10")]}).encode()
    [item] = parse_body("pix", body)
    assert item.data.valor == Decimal("0.10")


def test_a_pix_with_many_refunds_has_a_short_stable_key() -> None:
    from treasury_app.receiver.items import MAX_KEY_LENGTH

    refunds = [
        {"id": f"D{n:034d}", "valor": "1.00", "status": "DEVOLVIDO", "horario": {}}
        for n in range(40)
    ]
    item = {
        "endToEndId": "E12345678202611261000abcdef123456",
        "valor": "100.00",
        "horario": "2026-11-18T13:00:00Z",
        "devolucoes": refunds,
    }
    body = json.dumps({"pix": [item]}).encode()
    [first] = parse_body("pix", body)
    [again] = parse_body("pix", body)
    assert first.dedupe_key.startswith("pix|sha256:") and len(first.dedupe_key) < MAX_KEY_LENGTH
    assert first.dedupe_key == again.dedupe_key
    refunds[-1]["status"] = "NAO_REALIZADO"
    [changed] = parse_body("pix", json.dumps({"pix": [item]}).encode())
    assert changed.dedupe_key != first.dedupe_key
