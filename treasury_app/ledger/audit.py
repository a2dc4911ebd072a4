"""The audit: an append-only record of every money movement and configuration change.

Who (operating-system user and profile), when, what (``action``), the outcome and what the
bank answered. Details are scrubbed before they are written: any key that names a secret
(password, secret, token, private key, authorization) is replaced by ``********``, so a
careless caller cannot put a secret in the audit. The table refuses UPDATE and DELETE.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from enum import Enum
from typing import Any

from treasury_app.ledger.db import LedgerContext, now_iso

SECRET_MARKERS = (
    "password",
    "secret",
    "token",
    "private",
    "authorization",
    "passphrase",
    "pfx_pass",
)
REDACTED = "********"


@dataclass(frozen=True)
class AuditEntry:
    id: int
    at: str
    os_user: str
    profile: str
    action: str
    outcome: str
    reference: str
    amount: Decimal | None
    details: dict[str, Any]


def scrub(value: Any) -> Any:
    """A JSON-ready copy of ``value`` with every secret-named key redacted."""
    if isinstance(value, Mapping):
        return {
            str(key): (
                REDACTED
                if any(marker in str(key).lower() for marker in SECRET_MARKERS)
                else scrub(item)
            )
            for key, item in value.items()
        }
    if isinstance(value, list | tuple | set | frozenset):
        return [scrub(item) for item in value]
    if isinstance(value, Enum):
        return scrub(value.value)
    if isinstance(value, Decimal | datetime | date):
        return str(value) if isinstance(value, Decimal) else value.isoformat()
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


def _escape_like(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def like_prefix(action: str) -> str:
    """The LIKE pattern of the actions under ``action`` (``payout`` finds ``payout.send``)."""
    return _escape_like(action) + ".%"


def audit_filter(
    *,
    since: datetime | None,
    until: datetime | None,
    action: str | None,
    text: str | None,
    mark: str,
    user_column: str = "os_user",
    reference: str | None = None,
) -> tuple[str, list[Any]]:
    """The WHERE clause and arguments of an audit search, on either backend (``mark``: the
    driver's placeholder; the words of ``text`` are matched literally, ``%`` and ``_``
    included)."""
    where = " WHERE 1=1"
    args: list[Any] = []
    if since is not None:
        where += f" AND at >= {mark}"
        args.append(_stamp(since))
    if until is not None:
        where += f" AND at < {mark}"
        args.append(_stamp(until))
    if action:
        where += f" AND (action = {mark} OR action LIKE {mark} ESCAPE '\\')"
        args += [action, like_prefix(action)]
    if reference:
        where += f" AND reference = {mark}"
        args.append(reference)
    for word in (text or "").split():
        like = f"%{_escape_like(word.lower())}%"
        columns = (
            "lower(action)",
            "lower(outcome)",
            "lower(reference)",
            f"lower({user_column})",
            "lower(details)",
            "amount",
        )
        where += " AND (" + " OR ".join(f"{c} LIKE {mark} ESCAPE '\\'" for c in columns) + ")"
        args += [like] * len(columns)
    return where, args


def details_json(details: Mapping[str, Any] | None) -> str:
    """An audit row's details as stored (scrubbed, keys sorted), on either backend."""
    return json.dumps(scrub(dict(details or {})), ensure_ascii=False, sort_keys=True)


def audit_entry(row: Mapping[str, Any], *, id_column: str, user_column: str) -> AuditEntry:
    """An audit row (either backend's) as an :class:`AuditEntry`."""
    return AuditEntry(
        id=int(row[id_column]),
        at=row["at"],
        os_user=row[user_column],
        profile=row["profile"],
        action=row["action"],
        outcome=row["outcome"],
        reference=row["reference"],
        amount=None if row["amount"] is None else Decimal(row["amount"]),
        details=json.loads(row["details"]),
    )


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


class Audit:
    """Append-only audit rows of one ledger."""

    def __init__(self, conn: sqlite3.Connection, context: LedgerContext) -> None:
        self._conn = conn
        self._context = context

    def record(
        self,
        action: str,
        outcome: str,
        *,
        reference: str = "",
        amount: Decimal | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> int:
        """Append one row (committed at once) and return its id.

        ``action`` is dotted (``payout.send``, ``billet.pay``, ``webhook.register``,
        ``profile.save``, ``certificate.load``); ``outcome`` is short (``accepted``,
        ``rejected``, ``unknown``, ``ok``, ``failed``) or the bank's status.
        """
        cursor = self._conn.execute(
            "INSERT INTO audit (at, os_user, profile, action, outcome, reference, amount, details)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                now_iso(),
                self._context.os_user,
                self._context.profile,
                action,
                outcome,
                reference,
                None if amount is None else str(amount),
                details_json(details),
            ),
        )
        return int(cursor.lastrowid or 0)

    def entries(
        self, *, action: str | None = None, reference: str | None = None, limit: int = 1000
    ) -> list[AuditEntry]:
        """Newest first; ``action`` matches a prefix (``payout`` finds ``payout.send``)."""
        where, args = audit_filter(
            since=None, until=None, action=action, text=None, mark="?", reference=reference
        )
        return self._rows(f"SELECT * FROM audit{where} ORDER BY id DESC LIMIT ?", [*args, limit])

    def _filter(
        self,
        *,
        since: datetime | None,
        until: datetime | None,
        action: str | None,
        text: str | None,
    ) -> tuple[str, list[Any]]:
        return audit_filter(since=since, until=until, action=action, text=text, mark="?")

    def search(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
        offset: int = 0,
        limit: int = 200,
    ) -> list[AuditEntry]:
        """One page of the rows in ``[since, until)`` whose action starts with ``action`` and
        whose action, outcome, reference, user, details or amount contain every word of
        ``text``; newest first."""
        where, args = self._filter(since=since, until=until, action=action, text=text)
        return self._rows(
            f"SELECT * FROM audit{where} ORDER BY id DESC LIMIT ? OFFSET ?",
            [*args, max(1, limit), max(0, offset)],
        )

    def count(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
    ) -> int:
        where, args = self._filter(since=since, until=until, action=action, text=text)
        return int(self._conn.execute(f"SELECT COUNT(*) FROM audit{where}", args).fetchone()[0])

    def actions(self) -> list[str]:
        """Every action written so far, sorted."""
        rows = self._conn.execute("SELECT DISTINCT action FROM audit ORDER BY action")
        return [row[0] for row in rows]

    def _rows(self, query: str, args: list[Any]) -> list[AuditEntry]:
        return [
            audit_entry(row, id_column="id", user_column="os_user")
            for row in self._conn.execute(query, args)
        ]
