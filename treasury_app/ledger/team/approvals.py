"""Dual control on the team database: the policy, the people's limits and the approvals.

Every decision is a call of a database function (``treasury.approve``, ``reject``,
``withdraw``, ``edit``, ``approve_batch``) that checks the policy against the login
(``session_user``): the client only asks. What an approval is bound to is the intent's
content hash, computed by the database at ``prepare`` and recomputed here
(:func:`content_hash`) so that a desktop checks that what it shows is what is approved.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

import psycopg.errors

from treasury_app.ledger.journal import Entry, PendingDuplicate, _entry
from treasury_app.ledger.team.chain import length_prefixed
from treasury_app.ledger.team.schema import APPROVER, MAKER, VIEWER
from treasury_app.ledger.team.store import TeamDatabase

WAITING_STATES = ("WAITING", "APPROVED")
DECIDED_STATES = ("RELEASED", "REJECTED", "WITHDRAWN")
PAGE = 250
"""Rows read at once by the long lists."""
_YIELD_EVERY = 50


async def _yield_every(count: int) -> None:
    """Give the event loop a turn every :data:`_YIELD_EVERY` rows converted."""
    if count % _YIELD_EVERY == 0:
        await asyncio.sleep(0)


def content_hash(
    *,
    kind: str,
    payee_name: str,
    payee_document: str,
    payee_detail: str,
    amount: Decimal,
    description: str,
    payment_flow: str,
    request_json: str,
) -> str:
    """The SHA-256 (hex) ``treasury.content_hash`` computes: what an approval is bound to."""
    fields = (
        kind,
        payee_name,
        payee_document,
        payee_detail,
        str(amount.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)),  # as round() in SQL
        description,
        payment_flow,
        request_json,
    )
    text = "intent-v1" + "".join(length_prefixed(value) for value in fields)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def entry_content_hash(entry: Entry) -> str:
    """:func:`content_hash` of a journal entry as this desktop read it; a scheduled one's
    (schema 8) binds its pay date too, as the database's ``journal_schedule`` does."""
    base = content_hash(
        kind=entry.kind.value,
        payee_name=entry.payee_name,
        payee_document=entry.payee_document,
        payee_detail=entry.payee_detail,
        amount=entry.amount,
        description=entry.description,
        payment_flow=entry.payment_flow,
        request_json=entry.request_json,
    )
    if entry.pay_date is None:
        return base
    text = base + length_prefixed(entry.pay_date.isoformat())
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def batch_hash(rows: Iterable[Entry]) -> str:
    """What a batch decision is bound to: the waiting rows' ids and contents, in id order
    (``treasury.approve_batch`` computes the same)."""
    text = "batch-v1"
    for entry in sorted(rows, key=lambda e: e.id):
        text += length_prefixed(str(entry.id)) + length_prefixed(entry.content_hash or "")
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Policy:
    version: int
    approvals: int
    threshold: Decimal | None
    approvals_above: int
    new_payee_extra: int
    expiry_hours: Decimal | None
    """``None``: approvals expire at the end of the Brasília day of the first one."""
    set_at: str
    set_by: str

    def needed(self, amount: Decimal, new_payee: bool) -> int:
        """Approvals an intent of ``amount`` needs under this policy (``treasury.needed``)."""
        above = self.threshold is not None and amount > self.threshold
        base = self.approvals_above if above else self.approvals
        return base + (self.new_payee_extra if new_payee else 0)

    @property
    def dual_control(self) -> bool:
        """Whether any intent can need an approval under this policy."""
        above = self.approvals_above if self.threshold is not None else 0
        return max(self.approvals, above, self.new_payee_extra) > 0


@dataclass(frozen=True)
class PersonLimits:
    login: str
    roles: tuple[str, ...]
    payment_limit: Decimal | None
    daily_limit: Decimal | None


@dataclass(frozen=True)
class Approval:
    entry_id: int
    approver: str
    content_hash: str
    at: str
    void_reason: str | None

    @property
    def valid(self) -> bool:
        return self.void_reason is None


def _policy(row: Mapping[str, Any]) -> Policy:
    return Policy(
        version=int(row["version"]),
        approvals=int(row["approvals"]),
        threshold=None if row["threshold"] is None else Decimal(row["threshold"]),
        approvals_above=int(row["approvals_above"]),
        new_payee_extra=int(row["new_payee_extra"]),
        expiry_hours=None if row["expiry_hours"] is None else Decimal(row["expiry_hours"]),
        set_at=row["set_at"],
        set_by=row["set_by"],
    )


PEOPLE_SQL = f"""
SELECT r.rolname AS login,
       array_remove(ARRAY[
           CASE WHEN pg_has_role(r.oid, '{MAKER}', 'MEMBER') THEN '{MAKER}' END,
           CASE WHEN pg_has_role(r.oid, '{APPROVER}', 'MEMBER') THEN '{APPROVER}' END,
           CASE WHEN pg_has_role(r.oid, '{VIEWER}', 'MEMBER') THEN '{VIEWER}' END], NULL)
           AS roles,
       l.payment_limit, l.daily_limit
  FROM pg_roles r LEFT JOIN treasury.person_limits l ON l.login = r.rolname
 WHERE r.rolcanlogin AND NOT r.rolsuper
   AND (pg_has_role(r.oid, '{MAKER}', 'MEMBER') OR pg_has_role(r.oid, '{APPROVER}', 'MEMBER')
        OR pg_has_role(r.oid, '{VIEWER}', 'MEMBER'))
 ORDER BY r.rolname
"""


class TeamApprovals:
    """The approvals of one team ledger (``Ledger.approvals``)."""

    def __init__(self, db: TeamDatabase) -> None:
        self._db = db

    # -- reads ---------------------------------------------------------------------------------

    async def policy(self) -> Policy:
        row = await self._db.row("SELECT * FROM treasury.current_policy()")
        assert row is not None
        return _policy(row)

    async def policy_version(self, version: int) -> Policy | None:
        row = await self._db.row("SELECT * FROM treasury.policies WHERE version = %s", (version,))
        return None if row is None else _policy(row)

    async def people(self) -> list[PersonLimits]:
        return [
            PersonLimits(
                login=row["login"],
                roles=tuple(row["roles"]),
                payment_limit=row["payment_limit"],
                daily_limit=row["daily_limit"],
            )
            for row in await self._db.rows(PEOPLE_SQL)
        ]

    async def approvals(self, entry_id: int) -> list[Approval]:
        rows = await self._db.rows(
            "SELECT entry_id, approver, content_hash, at, void_reason FROM treasury.approvals"
            " WHERE entry_id = %s ORDER BY id",
            (entry_id,),
        )
        return [Approval(**row) for row in rows]

    async def waiting_for(self, login: str, *, limit: int = 10_000) -> list[Entry]:
        """Intents waiting that ``login`` may still approve (not theirs, not approved by them
        yet), oldest first.

        Read in pages of :data:`PAGE` rows by id, the loop given back between pages: turning
        10,000 rows into entries at once holds a desktop's UI for some 100 ms."""
        found: list[Entry] = []
        after = 0
        while len(found) < limit:
            rows = await self._db.rows(
                "SELECT j.* FROM treasury.journal j WHERE j.state = 'PREPARED'"
                " AND j.approval = 'WAITING' AND j.created_by <> %s AND j.id > %s"
                " AND NOT EXISTS (SELECT 1 FROM treasury.approvals a WHERE a.entry_id = j.id"
                " AND a.approver = %s AND a.void_reason IS NULL) ORDER BY j.id LIMIT %s",
                (login, after, login, min(PAGE, limit - len(found))),
            )
            for row in rows:
                found.append(_entry(row))
                await _yield_every(len(found))
            if len(rows) < PAGE:
                break
            after = found[-1].id
        return found

    async def waiting_count(self, login: str) -> int:
        row = await self._db.row(
            "SELECT count(*) AS n FROM treasury.journal j WHERE j.state = 'PREPARED'"
            " AND j.approval = 'WAITING' AND j.created_by <> %s"
            " AND NOT EXISTS (SELECT 1 FROM treasury.approvals a WHERE a.entry_id = j.id"
            " AND a.approver = %s AND a.void_reason IS NULL)",
            (login, login),
        )
        return int(row["n"]) if row else 0

    async def prepared_by(self, login: str, *, limit: int = 500) -> list[Entry]:
        """``login``'s intents still waiting (or approved, not sent yet), newest first."""
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE state = 'PREPARED'"
            " AND approval = ANY(%s) AND approvals_needed > 0 AND created_by = %s"
            " ORDER BY id DESC LIMIT %s",
            (list(WAITING_STATES), login, limit),
        )
        return [_entry(row) for row in rows]

    async def decided(self, *, limit: int = 200) -> list[Entry]:
        """Intents whose approval was decided (released, rejected, withdrawn), newest first."""
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE approval = ANY(%s) AND approvals_needed > 0"
            " ORDER BY updated_at DESC, id DESC LIMIT %s",
            (list(DECIDED_STATES), limit),
        )
        return [_entry(row) for row in rows]

    async def batch_rows(self, batch_id: str) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE batch = %s ORDER BY id", (batch_id,)
        )
        return [_entry(row) for row in rows]

    async def eligible_approvers(self, entry_id: int) -> list[str]:
        rows = await self._db.rows(
            "SELECT name FROM treasury.eligible_approvers(%s) AS name", (entry_id,)
        )
        return [row["name"] for row in rows]

    # -- decisions (each a database function) ------------------------------------------------

    async def approve(self, entry_id: int, reviewed_hash: str) -> Entry:
        return _entry(
            await self._db.call("SELECT * FROM treasury.approve(%s, %s)", (entry_id, reviewed_hash))
        )

    async def reject(self, entry_id: int, reason: str) -> Entry:
        return _entry(
            await self._db.call("SELECT * FROM treasury.reject(%s, %s)", (entry_id, reason))
        )

    async def withdraw(self, entry_id: int, reason: str) -> Entry:
        return _entry(
            await self._db.call("SELECT * FROM treasury.withdraw(%s, %s)", (entry_id, reason))
        )

    async def edit(
        self, entry_id: int, *, amount: Decimal, description: str, request_json: str
    ) -> Entry:
        """Change a waiting intent's amount and description (its maker only): the approvals
        given so far are void."""
        try:
            row = await self._db.call(
                "SELECT * FROM treasury.edit(%s, %s, %s, %s)",
                (entry_id, amount, description, request_json),
            )
        except psycopg.errors.UniqueViolation as error:
            detail = error.diag.message_detail or ""
            if not detail.isdigit():
                raise
            twin = await self._db.row("SELECT * FROM treasury.journal WHERE id = %s", (detail,))
            assert twin is not None
            raise PendingDuplicate(_entry(twin)) from None
        return _entry(row)

    async def approve_batch(
        self, batch_id: str, reviewed_hash: str, rejects: Mapping[int, str]
    ) -> list[Entry]:
        """Every waiting row of ``batch_id`` approved as one decision, but ``rejects``
        (entry id → reason), which are rejected; all or nothing."""
        ids: Sequence[int] = list(rejects)
        async with self._db.transaction() as cursor:
            await cursor.execute(
                "SELECT * FROM treasury.approve_batch(%s, %s, %s::bigint[], %s::text[])",
                (batch_id, reviewed_hash, ids, [rejects[i] for i in ids]),
            )
            rows = await cursor.fetchall()
        return [_entry(row) for row in rows]

    async def expire_due(self) -> int:
        """Void the approvals that expired (an audit row each); how many intents."""
        row = await self._db.call("SELECT treasury.expire_approvals(NULL) AS n")
        return int(row["n"])
