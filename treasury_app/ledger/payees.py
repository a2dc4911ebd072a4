"""The payee registry in the ledger (issue 36): payees, their destinations and every change
of where their money goes.

Two backends behind :class:`PayeeStore`: the file on this computer (:class:`FilePayees`,
below: one person, so a change takes effect at once, audited, and a destination new or
changed within the cooling-off period is a warning) and the team database
(:mod:`treasury_app.ledger.team.payees`: a change is prepared by one person and approved by
another, and a payment to a destination in its cooling-off period needs one approval more —
the database enforces both).
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from treasury_app.domain.documents import normalize_document
from treasury_app.domain.errors import Reason
from treasury_app.domain.payees import (
    Destination,
    DestinationDraft,
    DestinationKind,
    DestinationState,
    Payee,
    PayeeDraft,
    RegistryChange,
    RegistryPolicy,
)
from treasury_app.ledger.audit import Audit
from treasury_app.ledger.db import LedgerContext, now_iso
from treasury_app.ledger.errors import LedgerRefused

__all__ = ["FilePayees", "PayeeStore", "RegistryRefused", "same_payee"]

ACTIONS = frozenset({"add", "change", "unblock"})
"""The changes that make a destination payable again: four eyes in a team."""


class RegistryRefused(LedgerRefused):
    """A change of the registry that is not allowed (``code``: ``registry.destination_taken``,
    ``registry.no_destination``, ...; a team database's refusals are ``team.<code>``)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, reason=Reason(code, params))
        self.code = code


class PayeeStore(Protocol):
    async def save_payee(self, draft: PayeeDraft, payee_id: int | None = None) -> Payee:
        """Register a payee, or change one's name and tags (a document is who they are: a
        payee with another document is another payee)."""
        ...

    async def payee(self, payee_id: int) -> Payee | None: ...

    async def payee_of_document(self, document: str) -> Payee | None: ...

    async def payees(self) -> list[Payee]: ...

    async def payees_of(self, payee_ids: Iterable[int]) -> dict[int, Payee]:
        """These payees, by id (a batch's registered rows: one read, not one per row)."""
        ...

    async def registry(self) -> tuple[list[Payee], list[Destination]]:
        """Every payee and every destination, read as one (the search index's source). Never
        made into objects on the event loop (170,000 rows take seconds): the file reads them
        in a worker thread, the team database fetches rows in chunks and makes them into
        payees and destinations in a worker thread."""
        ...

    async def destinations(self, payee_id: int | None = None) -> list[Destination]:
        """Every destination (of one payee), blocked ones included."""
        ...

    async def by_details(self, details: Iterable[str]) -> dict[str, Destination]:
        """The registered destinations among these payout details."""
        ...

    async def propose(
        self,
        payee_id: int,
        action: str,
        draft: DestinationDraft | None = None,
        destination_id: int | None = None,
    ) -> RegistryChange:
        """Add a destination (``add``), give one another key or account (``change``) or
        unblock one (``unblock``): at once on one desktop; waiting for a second person's
        approval in a team."""
        ...

    async def decide(self, change_id: int, outcome: str, reason: str = "") -> RegistryChange:
        """``APPROVED`` or ``REJECTED`` (by someone else), ``WITHDRAWN`` (by who prepared it)."""
        ...

    async def block(self, destination_id: int, reason: str) -> Destination:
        """Nothing more is paid to it (at once, by anyone: blocking protects)."""
        ...

    async def pending(self) -> list[RegistryChange]:
        """Changes waiting for approval (a team; none on one desktop)."""
        ...

    async def history(self, payee_id: int) -> list[RegistryChange]:
        """Every change of the payee's destinations, oldest first."""
        ...

    async def settled(
        self, detail: str, entry_id: int, creditor_name: str, creditor_document: str
    ) -> Destination | None:
        """A payment to ``detail`` settled and the bank named its creditor: the same payee
        verifies the destination, another marks it changed (audited); ``None``: not in the
        registry."""
        ...

    async def policy(self) -> RegistryPolicy: ...

    async def now(self) -> datetime:
        """The clock cooling-off periods are measured on (the database's in a team)."""
        ...


def same_payee(payee: Payee, creditor_document: str) -> bool:
    """Whether the bank's creditor document is the payee's (bare forms compared; a bank may
    mask a CPF: ``***.456.789-**`` matches on the digits it shows)."""
    text = (creditor_document or "").strip()
    if not text:
        return False
    if "*" in text:
        shown = "".join(c for c in text if c.isdigit())
        return bool(shown) and shown in payee.document
    try:
        return normalize_document(text) == payee.document
    except ValueError:
        return False


def _payee(found: sqlite3.Row | Mapping[str, Any]) -> Payee:
    row = dict(found)
    tags = row["tags"]
    return Payee(
        id=int(row["id"]),
        name=row["name"],
        document=row["document"],
        tags=tuple(json.loads(tags) if isinstance(tags, str) else tags or ()),
        created_by=row["created_by"],
        created_at=str(row["created_at"]),
    )


def _instant(value: Any) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00"))


def _destination(row: sqlite3.Row | Mapping[str, Any]) -> Destination:
    # Read by name, no copy: a registry of 120,000 destinations is read at once.
    return Destination(
        id=int(row["id"]),
        payee_id=int(row["payee_id"]),
        draft=DestinationDraft(
            DestinationKind(row["kind"]),
            row["detail"],
            row["key_type"],
            row["ispb"],
            row["branch"],
            row["account"],
            row["account_type"],
        ),
        state=DestinationState(row["state"]),
        changed_at=_instant(row["changed_at"]),
        action=row["action"],
        changed_by=row["changed_by"] or "",
        approved_by=row["approved_by"] or "",
    )


def _change(found: sqlite3.Row | Mapping[str, Any]) -> RegistryChange:
    row = dict(found)
    proposed = row["proposed"]
    if isinstance(proposed, str):
        proposed = json.loads(proposed)
    params = row["params"]
    if isinstance(params, str):
        params = json.loads(params)
    return RegistryChange(
        id=int(row["id"]),
        payee_id=int(row["payee_id"]),
        destination_id=row["destination_id"],
        action=row["action"],
        proposed=DestinationDraft.of(proposed) if proposed else None,
        prepared_by=row["prepared_by"],
        prepared_at=str(row["prepared_at"]),
        outcome=row["outcome"],
        decided_by=row["decided_by"],
        decided_at=None if row["decided_at"] is None else str(row["decided_at"]),
        reason=row["reason"] or "",
        params=dict(params or {}),
    )


class FilePayees:
    """The registry in the ledger file: one person, changes at once, all audited."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        context: LedgerContext,
        audit: Audit,
        clock: Callable[[], datetime],
        path: Path | None = None,
    ) -> None:
        self._conn = conn
        self._context = context
        self._audit = audit
        self._clock = clock
        self._path = path

    def _one(self, sql: str, args: tuple[Any, ...]) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self._conn.execute(sql, args).fetchone()
        return row

    async def save_payee(self, draft: PayeeDraft, payee_id: int | None = None) -> Payee:
        at = now_iso()
        tags = json.dumps(list(draft.tags), ensure_ascii=False)
        if payee_id is None:
            cursor = self._conn.execute(
                "INSERT INTO payees (name, document, tags, created_at, created_by, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (draft.name, draft.document, tags, at, self._context.os_user, at),
            )
            payee_id = int(cursor.lastrowid or 0)
        else:
            before = await self.payee(payee_id)
            if before is None:
                raise RegistryRefused("registry.no_payee", payee=payee_id)
            if before.document != draft.document:
                raise RegistryRefused("registry.document_fixed", payee=payee_id)
            self._conn.execute(
                "UPDATE payees SET name = ?, tags = ?, updated_at = ? WHERE id = ?",
                (draft.name, tags, at, payee_id),
            )
        self._audit.record(
            "payee.save",
            "ok",
            reference=draft.document,
            details={"payee": payee_id, "name": draft.name, "tags": list(draft.tags)},
        )
        saved = await self.payee(payee_id)
        assert saved is not None
        return saved

    async def payee(self, payee_id: int) -> Payee | None:
        row = self._one("SELECT * FROM payees WHERE id = ?", (payee_id,))
        return _payee(row) if row else None

    async def payee_of_document(self, document: str) -> Payee | None:
        row = self._one("SELECT * FROM payees WHERE document = ? ORDER BY id LIMIT 1", (document,))
        return _payee(row) if row else None

    async def payees(self) -> list[Payee]:
        return [_payee(row) for row in self._conn.execute("SELECT * FROM payees ORDER BY id")]

    async def payees_of(self, payee_ids: Iterable[int]) -> dict[int, Payee]:
        wanted = list(dict.fromkeys(payee_ids))
        found: dict[int, Payee] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self._conn.execute(f"SELECT * FROM payees WHERE id IN ({marks})", part):
                found[int(row["id"])] = _payee(row)
        return found

    async def registry(self) -> tuple[list[Payee], list[Destination]]:
        if self._path is None:
            return await self.payees(), await self.destinations()
        return await asyncio.to_thread(read_registry, self._path)

    async def destinations(self, payee_id: int | None = None) -> list[Destination]:
        if payee_id is None:
            rows = self._conn.execute("SELECT * FROM destinations ORDER BY id")
        else:
            rows = self._conn.execute(
                "SELECT * FROM destinations WHERE payee_id = ? ORDER BY id", (payee_id,)
            )
        return [_destination(row) for row in rows]

    async def by_details(self, details: Iterable[str]) -> dict[str, Destination]:
        wanted = list(dict.fromkeys(details))
        found: dict[str, Destination] = {}
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            for row in self._conn.execute(
                f"SELECT * FROM destinations WHERE detail IN ({marks})", part
            ):
                found[row["detail"]] = _destination(row)
        return found

    def _destination_row(self, destination_id: int) -> Destination:
        row = self._one("SELECT * FROM destinations WHERE id = ?", (destination_id,))
        if row is None:
            raise RegistryRefused("registry.no_destination", destination=destination_id)
        return _destination(row)

    def _check_free(self, payee_id: int, draft: DestinationDraft, own: int | None) -> None:
        row = self._one(
            "SELECT d.id, d.payee_id, p.name FROM destinations d JOIN payees p"
            " ON p.id = d.payee_id WHERE d.detail = ?",
            (draft.detail,),
        )
        if row is not None and row["id"] != own:
            if row["payee_id"] == payee_id:
                raise RegistryRefused("registry.destination_exists", detail=draft.detail)
            raise RegistryRefused(
                "registry.destination_taken", detail=draft.detail, owner=row["name"]
            )

    def _record(
        self,
        payee_id: int,
        destination_id: int | None,
        action: str,
        draft: DestinationDraft | None,
        *,
        reason: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> RegistryChange:
        at = now_iso()
        cursor = self._conn.execute(
            "INSERT INTO destination_changes (payee_id, destination_id, action, proposed,"
            " prepared_by, prepared_at, outcome, decided_by, decided_at, reason, params)"
            " VALUES (?, ?, ?, ?, ?, ?, 'DONE', ?, ?, ?, ?)",
            (
                payee_id,
                destination_id,
                action,
                None if draft is None else json.dumps(draft.as_dict()),
                self._context.os_user,
                at,
                self._context.os_user,
                at,
                reason,
                json.dumps(dict(params or {}), ensure_ascii=False, default=str),
            ),
        )
        row = self._one("SELECT * FROM destination_changes WHERE id = ?", (cursor.lastrowid,))
        assert row is not None
        return _change(row)

    async def propose(
        self,
        payee_id: int,
        action: str,
        draft: DestinationDraft | None = None,
        destination_id: int | None = None,
    ) -> RegistryChange:
        if action not in ACTIONS:
            raise RegistryRefused("registry.action", action=action)
        if await self.payee(payee_id) is None:
            raise RegistryRefused("registry.no_payee", payee=payee_id)
        changed_at = self._clock().isoformat()
        user = self._context.os_user
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            if action == "add":
                if draft is None:
                    raise RegistryRefused("registry.no_destination", destination=None)
                self._check_free(payee_id, draft, None)
                cursor = self._conn.execute(
                    "INSERT INTO destinations (payee_id, kind, detail, key_type, ispb, branch,"
                    " account, account_type, state, changed_at, action, changed_by)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'new', ?, 'added', ?)",
                    (payee_id, *_draft_values(draft), changed_at, user),
                )
                destination_id = int(cursor.lastrowid or 0)
            else:
                if destination_id is None:
                    raise RegistryRefused("registry.no_destination", destination=None)
                before = self._destination_row(destination_id)
                if before.payee_id != payee_id:
                    raise RegistryRefused("registry.no_destination", destination=destination_id)
                if action == "change":
                    if draft is None:
                        raise RegistryRefused("registry.no_destination", destination=None)
                    self._check_free(payee_id, draft, destination_id)
                    self._conn.execute(
                        "UPDATE destinations SET kind = ?, detail = ?, key_type = ?, ispb = ?,"
                        " branch = ?, account = ?, account_type = ?, state = 'changed',"
                        " changed_at = ?, action = 'changed', changed_by = ? WHERE id = ?",
                        (*_draft_values(draft), changed_at, user, destination_id),
                    )
                else:  # unblock: payable again, as a changed destination
                    if before.state is not DestinationState.BLOCKED:
                        raise RegistryRefused("registry.not_blocked", destination=destination_id)
                    draft = before.draft
                    self._conn.execute(
                        "UPDATE destinations SET state = 'changed', changed_at = ?,"
                        " action = 'unblocked', changed_by = ? WHERE id = ?",
                        (changed_at, user, destination_id),
                    )
            change = self._record(payee_id, destination_id, action, draft)
            self._conn.execute("COMMIT")
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._audit.record(
            f"payee.{action}",
            "done",
            reference=draft.detail if draft else "",
            details={"payee": payee_id, "destination": destination_id},
        )
        return change

    async def decide(self, change_id: int, outcome: str, reason: str = "") -> RegistryChange:
        raise RegistryRefused("registry.not_waiting", change=change_id)

    async def block(self, destination_id: int, reason: str) -> Destination:
        before = self._destination_row(destination_id)
        if not reason.strip():
            raise RegistryRefused("registry.reason_missing")
        self._conn.execute(
            "UPDATE destinations SET state = 'blocked' WHERE id = ?", (destination_id,)
        )
        self._record(before.payee_id, destination_id, "block", before.draft, reason=reason)
        self._audit.record(
            "payee.block",
            "blocked",
            reference=before.detail,
            details={"payee": before.payee_id, "destination": destination_id, "reason": reason},
        )
        return self._destination_row(destination_id)

    async def pending(self) -> list[RegistryChange]:
        return []

    async def history(self, payee_id: int) -> list[RegistryChange]:
        rows = self._conn.execute(
            "SELECT * FROM destination_changes WHERE payee_id = ? ORDER BY id", (payee_id,)
        )
        return [_change(row) for row in rows]

    async def settled(
        self, detail: str, entry_id: int, creditor_name: str, creditor_document: str
    ) -> Destination | None:
        destination = (await self.by_details([detail])).get(detail)
        if destination is None:
            return None
        payee = await self.payee(destination.payee_id)
        assert payee is not None
        params = {"entry": entry_id, "name": creditor_name, "document": creditor_document}
        if same_payee(payee, creditor_document):
            if destination.state in (DestinationState.NEW, DestinationState.CHANGED):
                self._conn.execute(
                    "UPDATE destinations SET state = 'verified' WHERE id = ?", (destination.id,)
                )
                self._record(payee.id, destination.id, "verified", None, params=params)
                self._audit.record(
                    "payee.verified", "ok", reference=detail, details={"payee": payee.id, **params}
                )
        elif destination.state is not DestinationState.BLOCKED:
            self._conn.execute(
                "UPDATE destinations SET state = 'changed' WHERE id = ?", (destination.id,)
            )
            self._record(payee.id, destination.id, "mismatch", None, params=params)
            self._audit.record(
                "payee.mismatch", "changed", reference=detail, details={"payee": payee.id, **params}
            )
        return self._destination_row(destination.id)

    async def policy(self) -> RegistryPolicy:
        row = self._one("SELECT cooling_hours, registry_only FROM registry_policy", ())
        if row is None:
            return RegistryPolicy()
        return RegistryPolicy(timedelta(hours=row["cooling_hours"]), bool(row["registry_only"]))

    async def now(self) -> datetime:
        return self._clock()


def read_registry(path: Path) -> tuple[list[Payee], list[Destination]]:
    """Every payee and destination of the ledger file at ``path``, in one read transaction,
    on a connection of its own (so any thread may call it; it never writes)."""
    # Not a mode=ro URI: SQLite refuses a URI with a host (a ledger on \\server\share).
    conn = sqlite3.connect(path, timeout=10)
    try:
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA query_only=ON")
        conn.execute("BEGIN")
        payees = [_payee(row) for row in conn.execute("SELECT * FROM payees ORDER BY id")]
        destinations = [
            _destination(row) for row in conn.execute("SELECT * FROM destinations ORDER BY id")
        ]
        conn.execute("COMMIT")
        return payees, destinations
    finally:
        conn.close()


def _draft_values(draft: DestinationDraft) -> tuple[Any, ...]:
    return (
        draft.kind.value,
        draft.detail,
        draft.key_type,
        draft.ispb,
        draft.branch,
        draft.account,
        draft.account_type,
    )
