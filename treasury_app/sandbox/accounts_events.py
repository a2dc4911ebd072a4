"""Accounts API notifications: watches payments and statement entries and queues the
webhook the company registered for each event type (transfer, receive, refund, cashout).

Envelope, as integrations of this API read it: ``{"type": "TRANSFER", "data": {...}}`` where
``data`` carries the payment's fields plus ``webhookType``.
"""

from __future__ import annotations

from typing import Any

from treasury_app.sandbox import notifier
from treasury_app.sandbox.accounts_bank import AccountsBank

INTERNAL_FIELDS = ("clientId", "debitEntryId")
FAILED_STATUSES = frozenset({"CANCELED", "REJECTED"})


def _payment_data(payment: dict[str, Any], webhook_type: str) -> dict[str, Any]:
    data = {k: v for k, v in payment.items() if k not in INTERNAL_FIELDS}
    data["webhookType"] = webhook_type
    return data


def _queue(bank: AccountsBank, kind: str, payload: dict[str, Any]) -> None:
    webhook = bank.webhook_of_type(kind)
    if webhook is None or not webhook.get("enabled", True):
        return
    notifier.queue(
        bank.store,
        bank.clock,
        api="accounts",
        kind=kind,
        url=webhook["uri"],
        payload=payload,
        headers=webhook.get("headers") or {},
    )


def _queue_cashout(bank: AccountsBank, payment: dict[str, Any]) -> int:
    _queue(
        bank,
        "cashout",
        {
            "type": "CASHOUT",
            "data": {
                "status": "REJECTED" if payment["status"] == "REJECTED" else "CANCELED",
                "message": payment.get("errorCode") or "Pagamento não realizado",
                "createdAt": payment["updatedAt"],
                "endToEndId": payment["endToEndId"],
                "idempotencyKey": payment["idempotencyKey"],
                "webhookType": "CASHOUT",
            },
            "transaction": {"status": payment["status"], "reference": payment["idempotencyKey"]},
        },
    )
    return 1


def tick(bank: AccountsBank) -> int:
    """Queue notifications for whatever changed since the last call; returns how many."""
    queued = 0
    store = bank.store
    with store.transaction():
        for payment in store.all("pix_payment"):
            e2e = payment["endToEndId"]
            seen = store.get("event_seen", e2e) or {"notified": 0}
            history = payment["history"]
            if seen["notified"] >= len(history):
                continue
            # One event per transition, in order, even when several happened between ticks.
            for step in history[seen["notified"] :]:
                snapshot = {**payment, "status": step["status"], "updatedAt": step["at"]}
                _queue(
                    bank,
                    "transfer",
                    {"type": "TRANSFER", "data": _payment_data(snapshot, "TRANSFER")},
                )
                queued += 1
                if step["status"] in FAILED_STATUSES:
                    queued += _queue_cashout(bank, snapshot)
            seen["notified"] = len(history)
            store.put("event_seen", e2e, seen, payment["createdAt"])
        last = int(store.meta("events:last_entry", "0") or 0)
        newest = last
        for entry in _entries_after(bank, last):
            newest = max(newest, entry["id"])
            if entry["creditDebitType"] != "CREDIT":
                continue
            kind = {"PIX": "receive", "REFUND": "refund"}.get(entry["transactionType"])
            if kind is None:
                continue
            _queue(
                bank, kind, {"type": kind.upper(), "data": {**entry, "webhookType": kind.upper()}}
            )
            queued += 1
        store.set_meta("events:last_entry", str(newest))
    return queued


def _entries_after(bank: AccountsBank, last_id: int) -> list[dict[str, Any]]:
    rows = bank.store.db.execute(
        "SELECT id FROM entries WHERE id > ? ORDER BY id", (last_id,)
    ).fetchall()
    return [e for (entry_id,) in rows if (e := bank.store.entry(entry_id)) is not None]


def start_from_now(bank: AccountsBank) -> None:
    """On first start the seeded history is not news: notify only what happens from now on."""
    if bank.store.meta("events:last_entry") is None:
        row = bank.store.db.execute("SELECT COALESCE(MAX(id), 0) FROM entries").fetchone()
        bank.store.set_meta("events:last_entry", str(row[0]))
