"""The payment journal: one row per payment intent, committed before any byte goes out.

Local states (:class:`EntryState`):

* ``PREPARED`` — journaled with its idempotency key; not yet handed to the network.
* ``SENT`` — being sent now (a crash here leaves the outcome unknown).
* ``UNKNOWN`` — no usable answer (timeout, reset, 5xx, crash): ask the bank by key before
  anything is sent again.
* ``ACCEPTED`` — the bank has it; ``bank_status`` follows it (ON_QUEUE ... SETTLED).
* ``REJECTED`` — the bank refused it (4xx): nothing happened; final.

``final`` is set when the entry can change no more: REJECTED, or ACCEPTED with a final bank
status. Every change appends to ``journal_history``.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import Any

from treasury_app.domain.money import dumps_json, loads_json
from treasury_app.ledger.db import LedgerContext, now_iso, utc_now


class EntryKind(StrEnum):
    PIX_KEY = "PIX_KEY"
    PIX_QRC = "PIX_QRC"
    PIX_MANU = "PIX_MANU"
    BILLET = "BILLET"


class EntryState(StrEnum):
    PREPARED = "PREPARED"
    SENT = "SENT"
    UNKNOWN = "UNKNOWN"
    ACCEPTED = "ACCEPTED"
    REJECTED = "REJECTED"


UNRESOLVED = (EntryState.PREPARED, EntryState.SENT, EntryState.UNKNOWN)


class DuplicateIntent(Exception):
    """An entry with this idempotency key exists already (the same review sent twice)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(f"payment intent {entry.id} already journaled")
        self.entry = entry


class PendingDuplicate(Exception):
    """An intent with the same payee, amount and description waits for approval already (a
    deliberate second payment is one with a description of its own)."""

    def __init__(self, entry: Entry) -> None:
        super().__init__(
            f"Payment {entry.id} to the same payee, for the same amount and description, waits"
            " for approval already: approve or withdraw it, or give this one a description of"
            " its own."
        )
        self.entry = entry


@dataclass(frozen=True)
class NewEntry:
    kind: EntryKind
    amount: Decimal
    idempotency_key: str
    request: Mapping[str, Any]  # JSON-ready body (Decimals allowed): sent, and re-sent as is
    payee_name: str = ""
    payee_document: str = ""
    payee_detail: str = ""
    description: str = ""
    payment_flow: str = "INSTANT"
    batch: str | None = None
    pay_date: date | None = None
    """A scheduled payment's Brasília business date (``None``: sent now). It is not sent
    before that date (the team database refuses it too)."""
    series_id: str | None = None  # the recurring series it is an occurrence of
    series_seq: int | None = None  # which occurrence (0, 1, 2...)


@dataclass(frozen=True)
class HistoryItem:
    at: str
    state: EntryState
    bank_status: str | None
    note: str


@dataclass(frozen=True)
class Entry:
    id: int
    kind: EntryKind
    payee_name: str
    payee_document: str
    payee_detail: str
    amount: Decimal
    description: str
    payment_flow: str
    idempotency_key: str
    request_json: str
    state: EntryState
    bank_status: str | None
    final: bool
    end_to_end_id: str | None
    bank_id: str | None
    error: str | None
    created_at: str
    updated_at: str
    created_by: str
    profile: str
    batch: str | None
    creditor_name: str | None = None  # as the bank names the payee, once it has
    # Dual control (a team database; the file ledger has none: ``approval`` stays None).
    approval: str | None = None
    """``WAITING``, ``APPROVED`` (not sent yet), ``RELEASED``, ``REJECTED`` (by an approver) or
    ``WITHDRAWN`` (by its maker)."""
    approvals_needed: int = 0
    approvals_given: int = 0
    approved_by: str | None = None  # who completed the approvals (their desktop releases it)
    content_hash: str | None = None  # what the approvals are bound to
    new_payee: bool = False  # never paid before from this account (one approval more)
    approvals_expire_at: str | None = None
    decided_by: str | None = None  # who rejected or withdrew it
    decision_reason: str | None = None
    policy_version: int | None = None
    released_by: str | None = None
    # Who told the journal its outcome (a team database; the file's rows have none).
    outcome_by: str | None = None  # the login that recorded the current outcome
    outcome_word: str | None = None
    """How: ``answer`` (to a send), ``lookup`` (the bank asked by idempotency key),
    ``notice`` (the bank's notification, through the webhook receiver), ``legacy``."""
    confirmed_by: str | None = None  # the receiver, or another login whose lookup agreed
    overruled_by: str | None = None
    """Who recorded an outcome the bank's word overruled (or contradicted afterwards)."""
    overruled_state: str | None = None  # what they recorded: the state ...
    overruled_status: str | None = None  # ... and the bank status
    overruled_at: str | None = None
    # A scheduled payment (issue 35): its pay date and the series it belongs to.
    pay_date: date | None = None
    series_id: str | None = None
    series_seq: int | None = None
    cooling: Mapping[str, Any] | None = None
    """Why it needs one approval more (a team database of schema 9): its destination was
    added, changed or unblocked within the registry's cooling-off period — by whom, approved
    by whom, when (``kind``, ``action``, ``by``, ``approved_by``, ``at``, ``payee``)."""

    @property
    def scheduled(self) -> bool:
        """A payment for a date that has not left yet."""
        return self.pay_date is not None and self.state == EntryState.PREPARED

    @property
    def unresolved(self) -> bool:
        return self.state in UNRESOLVED

    @property
    def waiting_approval(self) -> bool:
        """Journaled, not sent, and not yet released by its approvers."""
        return self.state == EntryState.PREPARED and self.approval in ("WAITING", "APPROVED")

    @property
    def overruled(self) -> bool:
        """Whether the bank's word overruled (or contradicted) an outcome someone recorded."""
        return self.overruled_at is not None

    @property
    def is_pix(self) -> bool:
        return self.kind != EntryKind.BILLET

    def request(self) -> dict[str, Any]:
        """The stored request body, numbers back as exact ``Decimal``."""
        body = loads_json(self.request_json)
        assert isinstance(body, dict)
        return body


def _entry(row: sqlite3.Row | Mapping[str, Any]) -> Entry:
    return Entry(
        id=row["id"],
        kind=EntryKind(row["kind"]),
        payee_name=row["payee_name"],
        payee_document=row["payee_document"],
        payee_detail=row["payee_detail"],
        amount=Decimal(row["amount"]),
        description=row["description"],
        payment_flow=row["payment_flow"],
        idempotency_key=row["idempotency_key"],
        request_json=row["request_json"],
        state=EntryState(row["state"]),
        bank_status=row["bank_status"],
        final=bool(row["final"]),
        end_to_end_id=row["end_to_end_id"],
        bank_id=row["bank_id"],
        error=row["error"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        created_by=row["created_by"],
        profile=row["profile"],
        batch=row["batch"],
        creditor_name=row["creditor_name"],
        **_approval_fields(row),
        **_outcome_fields(row),
        **_schedule_fields(row),
        **_registry_fields(row),
    )


def _registry_fields(row: sqlite3.Row | Mapping[str, Any]) -> dict[str, Any]:
    """Why a team database's row needs one approval more (schema 9; files have no column)."""
    keys = row.keys()  # (a sqlite3.Row's "in" looks at its values)
    if "cooling" not in keys:
        return {}
    cooling = row["cooling"]
    if isinstance(cooling, str):
        cooling = json.loads(cooling)
    return {"cooling": cooling}


def _schedule_fields(row: sqlite3.Row | Mapping[str, Any]) -> dict[str, Any]:
    """A scheduled payment's date and series (a file of schema 5, a team database of 8)."""
    keys = row.keys()
    if "pay_date" not in keys:
        return {}
    day = row["pay_date"]
    if isinstance(day, str):
        day = date.fromisoformat(day)
    return {"pay_date": day, "series_id": row["series_id"], "series_seq": row["series_seq"]}


APPROVAL_FIELDS = (
    "approval",
    "approvals_needed",
    "approvals_given",
    "approved_by",
    "content_hash",
    "new_payee",
    "approvals_expire_at",
    "decided_by",
    "decision_reason",
    "policy_version",
    "released_by",
)


OUTCOME_FIELDS = (
    "outcome_by",
    "outcome_word",
    "confirmed_by",
    "overruled_by",
    "overruled_state",
    "overruled_status",
    "overruled_at",
)


def _outcome_fields(row: sqlite3.Row | Mapping[str, Any]) -> dict[str, Any]:
    """Who told a team database's row its outcome (the file's rows have none)."""
    keys = row.keys()  # (a sqlite3.Row's "in" looks at its values)
    if "outcome_word" not in keys:
        return {}
    return {name: row[name] for name in OUTCOME_FIELDS}


def _approval_fields(row: sqlite3.Row | Mapping[str, Any]) -> dict[str, Any]:
    """The dual-control columns a team database's row has (the file's rows have none)."""
    keys = row.keys()
    if "approval" not in keys:
        return {}
    fields = {name: row[name] for name in APPROVAL_FIELDS}
    fields["new_payee"] = bool(fields["new_payee"])
    return fields


class Journal:
    def __init__(self, conn: sqlite3.Connection, context: LedgerContext) -> None:
        self._conn = conn
        self._context = context

    # -- writes (each one commits before returning) ------------------------------------------

    def create(self, new: NewEntry) -> Entry:
        """Journal an intent as PREPARED. The same idempotency key twice raises
        :class:`DuplicateIntent` carrying the existing entry."""
        at = now_iso()
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            cursor = self._conn.execute(
                "INSERT INTO journal (kind, payee_name, payee_document, payee_detail, amount,"
                " description, payment_flow, idempotency_key, request_json, state, created_at,"
                " updated_at, created_by, profile, batch, pay_date, series_id, series_seq)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new.kind.value,
                    new.payee_name,
                    new.payee_document,
                    new.payee_detail,
                    str(new.amount),
                    new.description,
                    new.payment_flow,
                    new.idempotency_key,
                    dumps_json(dict(new.request)),
                    EntryState.PREPARED.value,
                    at,
                    at,
                    self._context.os_user,
                    self._context.profile,
                    new.batch,
                    None if new.pay_date is None else new.pay_date.isoformat(),
                    new.series_id,
                    new.series_seq,
                ),
            )
            entry_id = int(cursor.lastrowid or 0)
            self._history(entry_id, at, EntryState.PREPARED, None, "journaled")
            self._conn.execute("COMMIT")
        except sqlite3.IntegrityError:
            self._conn.execute("ROLLBACK")
            existing = self.by_key(new.idempotency_key)
            assert existing is not None
            raise DuplicateIntent(existing) from None
        except BaseException:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise
        return self.get(entry_id)

    def update(
        self,
        entry_id: int,
        state: EntryState,
        *,
        bank_status: str | None = None,
        final: bool = False,
        end_to_end_id: str | None = None,
        bank_id: str | None = None,
        error: str | None = None,
        note: str = "",
        creditor_name: str | None = None,
    ) -> Entry:
        """Move an entry; identifiers, the bank status and the creditor's name are kept when
        not given."""
        at = now_iso()
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            self._conn.execute(
                "UPDATE journal SET state = ?, bank_status = COALESCE(?, bank_status),"
                " final = ?, end_to_end_id = COALESCE(?, end_to_end_id),"
                " bank_id = COALESCE(?, bank_id), error = ?, updated_at = ?,"
                " creditor_name = COALESCE(?, creditor_name) WHERE id = ?",
                (
                    state.value,
                    bank_status,
                    int(final),
                    end_to_end_id,
                    bank_id,
                    error,
                    at,
                    creditor_name,
                    entry_id,
                ),
            )
            current = self._conn.execute(
                "SELECT bank_status FROM journal WHERE id = ?", (entry_id,)
            ).fetchone()
            self._history(entry_id, at, state, current["bank_status"] if current else None, note)
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        return self.get(entry_id)

    def _history(
        self, entry_id: int, at: str, state: EntryState, bank_status: str | None, note: str
    ) -> None:
        self._conn.execute(
            "INSERT INTO journal_history (entry_id, at, state, bank_status, note)"
            " VALUES (?, ?, ?, ?, ?)",
            (entry_id, at, state.value, bank_status, note),
        )

    # -- reads -------------------------------------------------------------------------------

    def get(self, entry_id: int) -> Entry:
        row = self._conn.execute("SELECT * FROM journal WHERE id = ?", (entry_id,)).fetchone()
        if row is None:
            raise KeyError(f"no journal entry {entry_id}")
        return _entry(row)

    def by_key(self, idempotency_key: str) -> Entry | None:
        row = self._conn.execute(
            "SELECT * FROM journal WHERE idempotency_key = ?", (idempotency_key,)
        ).fetchone()
        return _entry(row) if row else None

    def unresolved(self) -> list[Entry]:
        """Entries whose outcome at the bank is not known (PREPARED, SENT, UNKNOWN)."""
        marks = ",".join("?" for _ in UNRESOLVED)
        rows = self._conn.execute(
            f"SELECT * FROM journal WHERE state IN ({marks}) ORDER BY id",
            [s.value for s in UNRESOLVED],
        )
        return [_entry(row) for row in rows]

    def open_entries(self) -> list[Entry]:
        """Every entry that can still change (not final), oldest first."""
        rows = self._conn.execute("SELECT * FROM journal WHERE final = 0 ORDER BY id")
        return [_entry(row) for row in rows]

    def recent(
        self,
        *,
        limit: int = 500,
        kinds: Iterable[EntryKind] | None = None,
        batch: str | None = None,
    ) -> list[Entry]:
        query = "SELECT * FROM journal WHERE 1=1"
        args: list[Any] = []
        if kinds is not None:
            kind_list = [k.value for k in kinds]
            query += f" AND kind IN ({','.join('?' for _ in kind_list)})"
            args += kind_list
        if batch is not None:
            query += " AND batch = ?"
            args.append(batch)
        query += " ORDER BY id DESC LIMIT ?"
        args.append(limit)
        return [_entry(row) for row in self._conn.execute(query, args)]

    def same_payee_since(
        self, payee_detail: str, amount: Decimal, since: datetime | None = None
    ) -> list[Entry]:
        """Entries to the same payee for the same amount (not refused) since ``since``
        (default: the last 24 hours on the ledger's clock, the one its stamps come from) — the
        duplicate-payment guard; :meth:`payees_since` for one payee."""
        since = since or utc_now() - timedelta(hours=24)
        return [e for e in self.payees_since([payee_detail], since) if e.amount == amount]

    def named_payments(self, payee_detail: str, *, limit: int = 20) -> list[Entry]:
        """Payments to this key, account or slip that the bank accepted and named the creditor
        of, newest first (who a key belongs to is known only from the bank's answers)."""
        rows = self._conn.execute(
            "SELECT * FROM journal WHERE payee_detail = ? AND state = ?"
            " AND creditor_name IS NOT NULL AND creditor_name != '' ORDER BY id DESC LIMIT ?",
            (payee_detail, EntryState.ACCEPTED.value, limit),
        )
        return [_entry(row) for row in rows]

    def payees_since(self, payee_details: Iterable[str], since: datetime) -> list[Entry]:
        """Entries (not refused) to any of these payees since ``since``, newest first: the
        duplicate-payment guard of a whole batch, in one query per 500 payees."""
        cutoff = since.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        found: list[Entry] = []
        for chunk in _chunks(sorted(set(payee_details))):
            marks = ",".join("?" for _ in chunk)
            rows = self._conn.execute(
                f"SELECT * FROM journal WHERE payee_detail IN ({marks}) AND created_at >= ?"
                " AND state != ?",
                [*chunk, cutoff, EntryState.REJECTED.value],
            )
            found.extend(_entry(row) for row in rows)
        found.sort(key=lambda entry: entry.id, reverse=True)
        return found

    def last_named(self, payee_details: Iterable[str]) -> dict[str, Entry]:
        """For each of these payees that the bank named, the newest such payment (as
        :meth:`named_payments` with ``limit=1``, for many payees at once)."""
        found: dict[str, Entry] = {}
        for chunk in _chunks(sorted(set(payee_details))):
            marks = ",".join("?" for _ in chunk)
            rows = self._conn.execute(
                "SELECT * FROM journal WHERE id IN (SELECT MAX(id) FROM journal"
                f" WHERE payee_detail IN ({marks}) AND state = ?"
                " AND creditor_name IS NOT NULL AND creditor_name != '' GROUP BY payee_detail)",
                [*chunk, EntryState.ACCEPTED.value],
            )
            for row in rows:
                entry = _entry(row)
                found[entry.payee_detail] = entry
        return found

    def final_without_receipt(self, statuses: Iterable[str], *, limit: int = 1000) -> list[Entry]:
        """Final accepted entries in one of ``statuses`` (the successful ones) whose receipt
        is not archived yet, oldest first."""
        wanted = list(statuses)
        marks = ",".join("?" for _ in wanted)
        rows = self._conn.execute(
            "SELECT j.* FROM journal j WHERE j.final = 1 AND j.state = ?"
            f" AND j.bank_status IN ({marks})"
            " AND NOT EXISTS (SELECT 1 FROM receipts r WHERE r.entry_id = j.id)"
            " ORDER BY j.id LIMIT ?",
            [EntryState.ACCEPTED.value, *wanted, limit],
        )
        return [_entry(row) for row in rows]

    def history(self, entry_id: int) -> list[HistoryItem]:
        rows = self._conn.execute(
            "SELECT at, state, bank_status, note FROM journal_history WHERE entry_id = ?"
            " ORDER BY id",
            (entry_id,),
        )
        return [
            HistoryItem(row["at"], EntryState(row["state"]), row["bank_status"], row["note"])
            for row in rows
        ]

    def counts(self) -> dict[str, int]:
        rows = self._conn.execute("SELECT state, COUNT(*) AS n FROM journal GROUP BY state")
        return {row["state"]: row["n"] for row in rows}


def _chunks(values: list[str], size: int = 500) -> Iterable[list[str]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]
