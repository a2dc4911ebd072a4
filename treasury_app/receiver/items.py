"""What one notification body says, item by item, and the dedupe key of each item.

One POST may carry several items (``pix[]``, ``recs[]``, ``cobsr[]``); the Accounts API posts
one event per body. The same item comes again on a redelivery, and the ``/pix`` item comes
again when one of its refunds changes state: the dedupe key is derived from the item so that
a redelivery has the key already stored and a new state has a new key.

A body that is not JSON, not the route's shape, or a notification whose type does not belong
to its route raises :class:`BadBody` with the reason (the receiver answers 400 and keeps the
body as a dead letter).

The reconciler (:mod:`treasury_app.receiver.reconcile`) builds the same items from what it
reads at the bank (:func:`pix_item`, :func:`rec_item`, :func:`cobr_item`, :func:`payment_item`),
with the same dedupe keys: whichever of the notification and the reconciler comes second finds
the key taken and changes nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from pydantic import ValidationError

from treasury_app.api.accounts.models import (
    BilletPayment,
    CashoutNotification,
    PixPayment,
    ReceiveNotification,
    RefundNotification,
    TransferNotification,
    is_final_status,
)
from treasury_app.api.qrcodes.automatico_models import (
    CobRCompleta,
    CobRNotification,
    CobRWebhookNotification,
    RecCompleta,
    RecNotification,
    RecWebhookNotification,
)
from treasury_app.api.qrcodes.cashin_models import Pix

QR_SOURCES = ("pix", "rec", "cobr")
"""The QR Codes API's callbacks: ``<webhookUrl>/pix``, ``/rec``, ``/cobr``."""
ACCOUNT_SOURCES = ("transfer", "receive", "refund", "cashout")
"""The Accounts API's event kinds, one path each."""
SOURCES = QR_SOURCES + ACCOUNT_SOURCES
MAX_ITEMS = 1000
"""Most items accepted in one body (the bank groups Pix of one key; far above any batch)."""


MAX_ID_LENGTH = 140
"""Longest identifier read (endToEndId 32, txid 35, idRec 29, idempotency key 50, a Pix key
77 characters)."""
MAX_KEY_LENGTH = 400
"""A longer dedupe key is stored as its SHA-256 (the same item gives the same digest)."""


class BadBody(ValueError):
    """The body cannot be read as this route's notification (the message says why)."""


@dataclass(frozen=True)
class Item:
    """One notified item: where it came from, its dedupe key, what it is about (``ref``: the
    endToEndId, txid, idRec or idempotency key) and what it said (``data``: the parsed model,
    ``raw``: the item as received, stored as is)."""

    source: str
    dedupe_key: str
    ref: str
    data: Any
    raw: dict[str, Any] = field(repr=False)

    def __post_init__(self) -> None:
        # What the database indexes must stay short: an absurd identifier is the bank's bad
        # input (400, a dead letter), never an error of ours answered 5xx at every retry.
        for name, value in (
            ("the reference", self.ref),
            ("chave", getattr(self.data, "chave", None)),
            ("txid", getattr(self.data, "txid", None)),
            ("idRec", getattr(self.data, "id_rec", None)),
            ("endToEndId", getattr(self.data, "end_to_end_id", None)),
        ):
            if value is not None and len(str(value)) > MAX_ID_LENGTH:
                raise BadBody(
                    f"{name} of a {self.source} item has {len(str(value))} characters; "
                    f"at most {MAX_ID_LENGTH} are accepted"
                )
        if len(self.dedupe_key) > MAX_KEY_LENGTH:  # a Pix with many refunds, say
            digest = hashlib.sha256(self.dedupe_key.encode("utf-8")).hexdigest()
            object.__setattr__(self, "dedupe_key", f"{self.source}|sha256:{digest}")

    @property
    def status(self) -> str | None:
        """The payment status of a transfer or cashout event."""
        status = getattr(self.data, "status", None)
        return None if status is None else str(status)

    @property
    def final(self) -> bool:
        return self.status is not None and is_final_status(self.status)


def parse_body(source: str, body: bytes) -> list[Item]:
    """The items of a body POSTed to ``source``'s path."""
    if source not in SOURCES:
        raise BadBody(f"no notification is posted to {source!r}")
    try:
        document = json.loads(body.decode("utf-8"), parse_float=Decimal)
    except UnicodeDecodeError as error:
        raise BadBody(f"the body is not UTF-8 ({error.reason} at byte {error.start})") from None
    except json.JSONDecodeError as error:
        raise BadBody(f"the body is not JSON ({error.msg}, line {error.lineno})") from None
    except RecursionError:
        raise BadBody("the body nests too deeply") from None
    if not isinstance(document, dict):
        raise BadBody("the body is not a JSON object")
    try:
        if source == "pix":
            return _pix_items(document)
        if source == "rec":
            recs = _listed(document, "recs", RecWebhookNotification)
            return [_rec_item(raw, rec) for raw, rec in recs]
        if source == "cobr":
            cobsr = _listed(document, "cobsr", CobRWebhookNotification)
            return [_cobr_item(raw, cobr) for raw, cobr in cobsr]
        return [_account_item(source, document)]
    except ValidationError as error:
        raise BadBody(f"the body is not a {source} notification: {_first_error(error)}") from None


def _first_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "body"
    return f"{where}: {first.get('msg', 'invalid')}"


def _raw_items(document: dict[str, Any], name: str) -> list[Any]:
    """The body's ``name[]`` list: present, not empty, at most :data:`MAX_ITEMS` long."""
    raw_items = document.get(name)
    if not isinstance(raw_items, list) or not raw_items:
        raise BadBody(f"the body has no {name}[] list of items")
    if len(raw_items) > MAX_ITEMS:
        raise BadBody(f"the body has {len(raw_items)} items; at most {MAX_ITEMS} are read")
    return raw_items


def _listed(
    document: dict[str, Any], name: str, model: type[Any]
) -> list[tuple[dict[str, Any], Any]]:
    raw_items = _raw_items(document, name)
    parsed = model.model_validate(document)
    return list(zip(raw_items, getattr(parsed, name), strict=True))


def _pix_items(document: dict[str, Any]) -> list[Item]:
    items = []
    for position, raw in enumerate(_raw_items(document, "pix")):
        try:
            pix = Pix.model_validate(raw)
        except ValidationError as error:
            raise BadBody(f"pix[{position}] is not a Pix: {_first_error(error)}") from None
        items.append(pix_item(pix, raw))
    return items


def pix_item(pix: Pix, raw: dict[str, Any] | None = None) -> Item:
    """The ``/pix`` item of ``pix`` (a notified one, or one read with ``GET /pix`` or in a
    charge's ``pix[]``): keyed by its endToEndId and the state of each of its refunds.
    ``raw``: the item as received (by default the model's wire form)."""
    refunds = ",".join(sorted(f"{d.id}:{d.status}" for d in pix.devolucoes))
    key = f"pix|{pix.end_to_end_id}|{refunds}"
    return Item("pix", key, pix.end_to_end_id, pix, pix.to_wire() if raw is None else raw)


_REC_FIELDS = ("idRec", "status", "atualizacao", "encerramento", "ativacao")
_COBR_FIELDS = ("idRec", "txid", "status", "atualizacao", "encerramento", "tentativas", "pix")


def _notified_fields(model: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """The fields of a resource read with GET that its notification carries (wire names)."""
    wire = model.to_wire()
    return {name: wire[name] for name in names if name in wire}


def rec_item(rec: RecNotification | RecCompleta, raw: dict[str, Any] | None = None) -> Item:
    """The ``/rec`` item of a recurrence: notified, or read with ``GET /rec/{idRec}`` (then
    reduced to what its notification carries)."""
    if raw is None:
        raw = _notified_fields(rec, _REC_FIELDS)
    if not isinstance(rec, RecNotification):
        rec = RecNotification.model_validate(raw)
    return _rec_item(raw, rec)


def cobr_item(cobr: CobRNotification | CobRCompleta, raw: dict[str, Any] | None = None) -> Item:
    """The ``/cobr`` item of a recurring charge: notified, or read with ``GET /cobr/{txid}``
    (then reduced to what its notification carries)."""
    if raw is None:
        raw = _notified_fields(cobr, _COBR_FIELDS)
    if not isinstance(cobr, CobRNotification):
        cobr = CobRNotification.model_validate(raw)
    return _cobr_item(raw, cobr)


def payment_item(payment: PixPayment | BilletPayment) -> Item:
    """A synthetic Accounts API event for one of our payments as the bank answers a query
    about it: a Pix payment as the ``transfer`` event its last status change posts (same
    dedupe key: a later webhook of it is a duplicate); a slip payment, which no webhook tells
    of, as a ``cashout`` event keyed by its idempotency key and status. ``BadBody`` when the
    payment names no idempotency key nor endToEndId."""
    wire = payment.to_wire()
    if isinstance(payment, PixPayment):
        return _account_item(
            "transfer", {"type": "TRANSFER", "data": {**wire, "webhookType": "TRANSFER"}}
        )
    data = {
        "status": wire.get("status"),
        "idempotencyKey": wire.get("idempotencyKey"),
        "createdAt": wire.get("updatedAt") or wire.get("createdAt"),
        "webhookType": "CASHOUT",
        "id": wire.get("id"),
    }
    reference = {"status": wire.get("status"), "reference": wire.get("idempotencyKey")}
    return _account_item("cashout", {"type": "CASHOUT", "data": data, "transaction": reference})


def _rec_item(raw: dict[str, Any], rec: RecNotification) -> Item:
    latest = max((str(a.data) for a in rec.atualizacao if a.data is not None), default="")
    return Item("rec", f"rec|{rec.id_rec}|{rec.status}|{latest}", rec.id_rec, rec, raw)


def _cobr_item(raw: dict[str, Any], cobr: CobRNotification) -> Item:
    attempts = len(cobr.tentativas)
    last = str(cobr.tentativas[-1].status) if cobr.tentativas else ""
    key = f"cobr|{cobr.txid}|{cobr.status}|{attempts}|{last}"
    return Item("cobr", key, cobr.txid, cobr, raw)


_ACCOUNT_MODELS: dict[str, type[Any]] = {
    "transfer": TransferNotification,
    "receive": ReceiveNotification,
    "refund": RefundNotification,
    "cashout": CashoutNotification,
}


def _account_item(source: str, document: dict[str, Any]) -> Item:
    kind = document.get("type")
    if not isinstance(kind, str) or kind.lower() != source:
        raise BadBody(f"a {kind!r} notification was posted to the {source} path")
    event = _ACCOUNT_MODELS[source].model_validate(document)
    data = event.data
    if source in ("transfer", "cashout"):
        key_of = data.idempotency_key or data.end_to_end_id
        if not key_of:
            raise BadBody(f"the {source} notification names no idempotencyKey nor endToEndId")
        stamp = getattr(data, "updated_at", None) or ""
        return Item(source, f"{source}|{key_of}|{data.status}|{stamp}", key_of, data, document)
    ref = str(data.id or data.end_to_end_id or "")
    if not ref:
        raise BadBody(f"the {source} notification names no id nor endToEndId")
    return Item(source, f"{source}|{ref}", data.end_to_end_id or ref, data, document)
