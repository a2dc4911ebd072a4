"""The journal, audit, receipts and batches in the team database (PostgreSQL, psycopg 3
async over a small connection pool on the app's event loop).

Each write is one short transaction; what the database writes itself (who, the audit's
chain, the changes feed) is in :mod:`treasury_app.ledger.team.schema`. Failing to reach the
database raises :class:`TeamDatabaseOffline` — before any payment is sent, since the journal
is written first.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from datetime import UTC, date, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import psycopg.errors
from psycopg.conninfo import conninfo_to_dict
from psycopg.rows import dict_row
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from treasury_app.domain.clock import Clock
from treasury_app.domain.errors import Reason
from treasury_app.domain.money import dumps_json
from treasury_app.ledger.audit import AuditEntry, audit_entry, audit_filter, details_json
from treasury_app.ledger.batches import BatchRecord, batch_from_row
from treasury_app.ledger.db import LedgerContext, now_iso, utc_now
from treasury_app.ledger.errors import BlockingSession, LedgerBlocked
from treasury_app.ledger.journal import (
    UNRESOLVED,
    DuplicateIntent,
    Entry,
    EntryKind,
    EntryState,
    HistoryItem,
    NewEntry,
    PendingDuplicate,
    _chunks,
    _entry,
)
from treasury_app.ledger.receipts import (
    Receipt,
    ReceiptError,
    pdf_digest,
    receipt_from_row,
    receipt_path,
)
from treasury_app.ledger.stores import LedgerRefused, LedgerUnavailable
from treasury_app.ledger.team.codes_schema import REFUSALS, read_coded
from treasury_app.ledger.team.integrity_schema import (
    AMOUNT_CODE,
    CLAIM_CODE,
    MOVE_CODE,
    REASON_CODE,
    RECEIPT_CODE,
)
from treasury_app.ledger.team.registry_schema import REGISTRY_REFUSALS
from treasury_app.ledger.team.schedule_schema import SCHEDULE_REFUSALS
from treasury_app.ledger.team.trust_schema import END_REASON_CODE

log = logging.getLogger("treasury_app.ledger.team")


OFFLINE_KINDS = (
    "refused",  # nothing listens at the address (the server down, a wrong port)
    "timeout",  # no answer in time (a firewall, the network), a lock or statement timeout
    "unknown_host",  # the server's name cannot be resolved
    "too_many",  # the server has no connection slot left
    "starting",  # the server is starting up, shutting down or recovering
    "read_only",  # a read-only standby (after a failover)
    "lost",  # the connection broke while in use
    "other",
)
"""Why the team database cannot be reached, as the :class:`TeamDatabaseOffline`'s ``kind``
(its rule's code is ``team.offline_<kind>``)."""

_OFFLINE_STATES = {  # SQLSTATE -> kind
    "53300": "too_many",
    "57P03": "starting",
    "57P01": "starting",
    "57P02": "starting",
    "25006": "read_only",
    "55P03": "timeout",
    "57014": "timeout",
}
_OFFLINE_WORDS = (  # libpq's and the server's English, when no SQLSTATE says it
    ("connection refused", "refused"),
    ("could not translate host name", "unknown_host"),
    ("name or service not known", "unknown_host"),
    ("nodename nor servname", "unknown_host"),
    ("no such host", "unknown_host"),
    ("timeout", "timeout"),
    ("timed out", "timeout"),
    ("too many", "too_many"),
    ("connection slots are reserved", "too_many"),
    ("starting up", "starting"),
    ("shutting down", "starting"),
    ("recovery mode", "starting"),
    ("read-only", "read_only"),
    ("server closed the connection", "lost"),
    ("terminating connection", "lost"),
    ("connection is closed", "lost"),
    ("connection is lost", "lost"),
    ("consuming input failed", "lost"),
)


def offline_kind(error: BaseException) -> str:
    """Which of :data:`OFFLINE_KINDS` ``error`` (psycopg's, the pool's) is."""
    if isinstance(error, PoolTimeout):
        return "timeout"
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str) and state in _OFFLINE_STATES:
        return _OFFLINE_STATES[state]
    text = str(error).lower()
    for words, kind in _OFFLINE_WORDS:
        if words in text:
            return kind
    return "other"


class TeamDatabaseOffline(LedgerUnavailable):
    """The team database cannot be reached or written now; nothing was changed. ``str()``
    (with the driver's ``detail``) is for logs; :attr:`reason` (``team.offline_<kind>``, the
    server's ``host`` and ``port``) is what a person reads."""

    def __init__(
        self, detail: str, *, kind: str = "other", host: str = "", port: int | str = ""
    ) -> None:
        super().__init__(
            f"The team database cannot be reached ({detail}). Nothing is sent while the "
            "journal cannot be written; a payment already handed to the bank is looked up by "
            "its key once the database is back. The app keeps trying to reconnect.",
            reason=Reason(
                f"team.offline_{kind if kind in OFFLINE_KINDS else 'other'}",
                {"host": host or "?", "port": str(port or "?")},
            ),
        )
        self.detail = detail
        self.kind = kind

    @classmethod
    def of(cls, error: BaseException, conninfo: str = "") -> TeamDatabaseOffline:
        """The offline error for the driver's ``error`` on a connection to ``conninfo``."""
        host, port = server_of(conninfo)
        return cls(_short(error), kind=offline_kind(error), host=host, port=port)


def server_of(conninfo: str) -> tuple[str, str]:
    """The host and port a connection string names (never its password)."""
    try:
        parts = conninfo_to_dict(conninfo)
    except psycopg.ProgrammingError:
        return "", ""
    return str(parts.get("host") or ""), str(parts.get("port") or "")


class TeamDatabaseRefused(LedgerRefused):
    """The database refused the change for lack of privilege (a viewer writing, say)."""


class ApprovalRefused(TeamDatabaseRefused):
    """A rule of the team database refused the change (dual control: approving one's own
    intent, over a limit, content changed since the review, no longer waiting...); the text
    is the database's sentence, ``code`` the rule's stable code when it has one (the
    constraint name the database gives, :mod:`~treasury_app.ledger.team.integrity_schema`)."""

    code: str | None = None

    def __init__(
        self, message: str, code: str | None = None, *, reason: Reason | None = None
    ) -> None:
        super().__init__(message, reason=reason)
        if code is not None:
            self.code = code


class ClaimRefused(ApprovalRefused):
    """This desktop does not hold the entry's claim (or may not take it): only the desktop
    sending or resolving a payment records its outcome."""

    code = CLAIM_CODE
    reason = Reason("team.entry_claim")


class MoveRefused(ApprovalRefused):
    """Not a move the payment engine makes from the entry's state (a final entry, a refusal
    without its reason, ...)."""

    code = MOVE_CODE
    reason = Reason("team.journal_move")


class AmountRefused(ApprovalRefused):
    """The amount is not money: more than zero, at most the ceiling, in centavos."""

    code = AMOUNT_CODE
    reason = Reason("team.not_money")


class ReceiptRefused(ApprovalRefused):
    """The receipt is not the one of that payment (or the bank did not complete it)."""

    code = RECEIPT_CODE
    reason = Reason("team.receipt_binding")


TYPED_REFUSALS: dict[str, type[ApprovalRefused]] = {
    CLAIM_CODE: ClaimRefused,
    MOVE_CODE: MoveRefused,
    REASON_CODE: MoveRefused,
    AMOUNT_CODE: AmountRefused,
    RECEIPT_CODE: ReceiptRefused,
    END_REASON_CODE: ApprovalRefused,
}
"""The database's rule codes (its refusals' constraint names) and the errors they raise."""


RULE_ERRORS = (
    psycopg.errors.InsufficientPrivilege,
    psycopg.errors.ObjectNotInPrerequisiteState,
    psycopg.errors.CheckViolation,
    psycopg.errors.NoDataFound,
)

_CONSTRAINT_RULES: dict[tuple[str, type[psycopg.Error]], str] = {
    (RECEIPT_CODE, psycopg.errors.ObjectNotInPrerequisiteState): "team.receipt_not_completed",
    (RECEIPT_CODE, psycopg.errors.CheckViolation): "team.receipt_not_this_payment",
}
_CONSTRAINT_CODES: dict[str, str] = {
    CLAIM_CODE: "team.entry_claim",
    MOVE_CODE: "team.journal_move",
    REASON_CODE: "team.journal_refusal_reason",
    AMOUNT_CODE: "team.not_money",
    RECEIPT_CODE: "team.receipt_binding",
    END_REASON_CODE: "team.end_reason",
}
_STATE_CODES: tuple[tuple[type[psycopg.Error], str], ...] = (
    (psycopg.errors.NoDataFound, "team.no_entry"),
    (psycopg.errors.ObjectNotInPrerequisiteState, "team.state_changed"),
    (psycopg.errors.CheckViolation, "team.check"),
    (psycopg.errors.InsufficientPrivilege, "team.not_allowed"),
)
_AMOUNT_PARAMS = frozenset({"amount", "payment_limit", "daily_limit", "approved_today", "maximum"})
_DATE_PARAMS = frozenset({"pay_date", "today"})  # schema 8's refusals: Brasília dates


def refusal_reason(error: psycopg.Error) -> Reason:
    """What a person reads of a refusal of the team database, as a rule (``team.<code>``):
    the coded note of its DETAIL (schema 7, :data:`~.codes_schema.REFUSALS`), else what its
    constraint name, else its SQLSTATE says. Never the English MESSAGE."""
    coded = read_coded(error.diag.message_detail)
    if coded is not None and (
        coded[0] in REFUSALS or coded[0] in SCHEDULE_REFUSALS or coded[0] in REGISTRY_REFUSALS
    ):
        code, params = coded
        return Reason(
            "team." + code,
            {
                name: Decimal(str(value))
                if name in _AMOUNT_PARAMS and value is not None
                else date.fromisoformat(value)
                if name in _DATE_PARAMS and isinstance(value, str)
                else value
                for name, value in params.items()
            },
        )
    constraint = error.diag.constraint_name or ""
    for (name, kind), rule in _CONSTRAINT_RULES.items():
        if constraint == name and isinstance(error, kind):
            return Reason(rule)
    if constraint in _CONSTRAINT_CODES:
        return Reason(_CONSTRAINT_CODES[constraint])
    for kind, rule in _STATE_CODES:
        if isinstance(error, kind):
            return Reason(rule)
    return Reason("team.refused")


def _sentence(error: psycopg.Error) -> str:
    text = (error.diag.message_primary or _short(error)).strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def database_refusal(error: psycopg.Error) -> TeamDatabaseRefused:
    """The refusal a person is shown for ``error`` (one of :data:`RULE_ERRORS`): a rule of
    the database (:class:`ApprovalRefused`, typed by its constraint name) or a privilege the
    login lacks (:class:`TeamDatabaseRefused`); its ``reason`` the rule's code."""
    if not (error.diag.message_primary or "").startswith("permission denied"):
        code = error.diag.constraint_name
        refusal = TYPED_REFUSALS.get(code or "", ApprovalRefused)
        return refusal(_sentence(error), code, reason=refusal_reason(error))
    return TeamDatabaseRefused(
        "The team database does not allow your login this change "
        f"({_short(error)}); ask its administrator for the right role.",
        reason=Reason("team.permission_denied"),
    )


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


BLOCK_WATCH_EVERY = 1.0
"""While a write runs, every this many seconds the database is asked who holds what it waits
for (``treasury.blocking_sessions``): a write that ends at the lock timeout names them."""


class TeamDatabase:
    """The pool every store of one team ledger shares, with offline errors mapped; a write
    that waits for a lock until the lock timeout raises :class:`LedgerBlocked`, naming the
    sessions that held it."""

    def __init__(
        self, pool: AsyncConnectionPool, *, watch_every: float = BLOCK_WATCH_EVERY
    ) -> None:
        self.pool = pool
        self.watch_every = watch_every
        self._ending: set[asyncio.Future[None]] = set()

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        try:
            async with self.pool.connection() as conn:
                yield conn
        except PoolTimeout as error:
            raise TeamDatabaseOffline.of(error, getattr(self.pool, "conninfo", "")) from None
        except RULE_ERRORS as error:
            raise database_refusal(error) from error
        except (psycopg.OperationalError, psycopg.InternalError) as error:
            # A lost link, a restart, a lock or statement timeout, a read-only standby after
            # a failover: the change was not made.
            raise TeamDatabaseOffline.of(error, getattr(self.pool, "conninfo", "")) from None

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[psycopg.AsyncCursor[Any]]:
        async with (
            self.connection() as conn,
            self._watched(conn),
            conn.transaction(),
            conn.cursor() as cursor,
        ):
            yield cursor

    @asynccontextmanager
    async def _watched(self, conn: psycopg.AsyncConnection[Any]) -> AsyncIterator[None]:
        """Run the block while a watcher, from another connection, notes who holds any lock
        its backend waits for: a lock timeout (or a statement timeout while it waited) is
        then :class:`LedgerBlocked` with their names, instead of "offline"."""
        pid = conn.info.backend_pid
        seen: list[BlockingSession] = []
        watcher = asyncio.get_running_loop().create_task(
            self._watch(pid, seen), name=f"lock-watch-{pid}"
        )
        try:
            yield
        except psycopg.errors.LockNotAvailable as error:
            log.warning("a write waited for a lock until the timeout: %s", seen or "holder unseen")
            raise LedgerBlocked(tuple(seen), _short(error)) from None
        except psycopg.errors.QueryCanceled as error:
            if not seen:
                raise
            log.warning("a write waited for a lock until the statement timeout: %s", seen)
            raise LedgerBlocked(tuple(seen), _short(error)) from None
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watcher
            if self._ending:
                await asyncio.gather(*self._ending, return_exceptions=True)

    async def _watch(self, pid: int, seen: list[BlockingSession]) -> None:
        while True:
            await asyncio.sleep(self.watch_every)
            try:
                async with (
                    self.pool.connection(timeout=self.watch_every) as conn,
                    conn.cursor(row_factory=dict_row) as cursor,
                ):
                    await cursor.execute("SELECT * FROM treasury.blocking_sessions(%s)", (pid,))
                    rows = await cursor.fetchall()
            except (psycopg.Error, PoolTimeout, OSError) as error:
                log.debug("who blocks backend %s: not known (%s)", pid, error)
                continue
            if rows:
                # Not cancelled with the watcher (the write it frees ends the watch): an ended
                # session's audit row must not be rolled back by a cancelled statement.
                ending = asyncio.ensure_future(
                    self._end_stale_blockers([int(row["pid"]) for row in rows])
                )
                self._ending.add(ending)
                ending.add_done_callback(self._ending.discard)
                await asyncio.shield(ending)
                seen[:] = [
                    BlockingSession(
                        login=str(row["login"] or ""),
                        application=str(row["application"] or ""),
                        state=row["state"],
                        since=row["xact_start"],
                        pid=int(row["pid"]),
                    )
                    for row in rows
                ]

    async def _end_stale_blockers(self, pids: list[int]) -> None:
        """End the sessions among ``pids`` (which hold what a write of this desktop waits
        for) that are stale (schema 6: ``treasury.end_stale_blocker``, audited): the write
        then goes on. A fresh session, or a login that may not end any, ends nothing."""
        for pid in pids:
            try:
                async with self.pool.connection(timeout=self.watch_every) as conn:
                    cursor = await conn.execute(
                        "SELECT treasury.end_stale_blocker(%s) AS ended", (pid,)
                    )
                    row = await cursor.fetchone()
            except (psycopg.Error, PoolTimeout, OSError) as error:
                log.debug("whether backend %s is stale: not known (%s)", pid, error)
                continue
            if row and row["ended"]:
                log.warning("the stale session %s that held a write up was ended", pid)

    async def rows(self, query: str, args: Iterable[Any] = ()) -> list[dict[str, Any]]:
        async with self.connection() as conn:
            cursor = await conn.execute(query, list(args))
            return list(await cursor.fetchall())

    async def row(self, query: str, args: Iterable[Any] = ()) -> dict[str, Any] | None:
        found = await self.rows(query, args)
        return found[0] if found else None

    async def call(self, query: str, args: Iterable[Any] = ()) -> dict[str, Any]:
        """One write through a database function, in a transaction of its own: its row."""
        async with self.transaction() as cursor:
            await cursor.execute(query, list(args))
            row = await cursor.fetchone()
        if row is None:
            raise LedgerRefused(f"the team database answered nothing to {query.split('(')[0]}")
        return dict(row)


CLAIM_SQL = "SELECT treasury.claim(%s) AS token"
RECORD_SQL = "SELECT * FROM treasury.record(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
_RECEIPT_OF_ENTRY = (
    "r.kind = CASE WHEN j.kind = 'BILLET' THEN 'BILLET' ELSE 'PIX' END"
    " AND r.bank_id = CASE WHEN j.kind = 'BILLET' THEN j.bank_id ELSE j.end_to_end_id END"
)
"""A receipt ``r`` is the one of entry ``j``: filed under ``j``'s own bank identifier."""


def _short(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0][:300] if text else type(error).__name__


class TeamJournal:
    def __init__(
        self, db: TeamDatabase, context: LedgerContext, claims: TeamDatabase | None = None
    ) -> None:
        """``claims``: the pool claims hold a connection of while a payment is sent (its own,
        so that held claims never starve the journal's writes); ``db`` when not given."""
        self._db = db
        self._claims = claims or db
        self._context = context
        self._held: dict[int, str] = {}
        """The claims this desktop holds now: entry id → the token ``treasury.claim`` gave
        (``treasury.record`` checks it, from whichever connection records)."""
        self.clock: Clock = utc_now
        """The database server's clock (set by the ledger once measured)."""

    async def create(self, new: NewEntry) -> Entry:
        """Journal ``new`` through ``treasury.prepare`` (the policy decides the approvals it
        needs); the same key again raises :class:`DuplicateIntent`, the same content while
        one waits :class:`PendingDuplicate`."""
        args: tuple[Any, ...] = (
            new.kind.value,
            new.payee_name,
            new.payee_document,
            new.payee_detail,
            new.amount,
            new.description,
            new.payment_flow,
            new.idempotency_key,
            dumps_json(dict(new.request)),
            self._context.profile,
            new.batch,
        )
        try:
            if new.pay_date is None:
                row = await self._db.call(
                    "SELECT * FROM treasury.prepare(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
                    args,
                )
            else:  # schema 8: a scheduled intent, not sent before its pay date
                row = await self._db.call(
                    "SELECT * FROM treasury.prepare_scheduled(%s, %s, %s, %s, %s, %s, %s, %s,"
                    " %s, %s, %s, %s, %s, %s)",
                    (*args, new.pay_date, new.series_id, new.series_seq),
                )
        except psycopg.errors.UniqueViolation as error:
            if error.diag.constraint_name == "journal_pending_content":
                twin = await self._twin(error)
                raise PendingDuplicate(twin) from None
            existing = await self.by_key(new.idempotency_key)
            assert existing is not None
            raise DuplicateIntent(existing) from None
        return _entry(row)

    async def _twin(self, error: psycopg.Error) -> Entry:
        detail = error.diag.message_detail or ""
        if detail.isdigit():
            return await self.get(int(detail))
        rows = await self._db.rows(  # a race lost at the unique index: find the waiting one
            "SELECT * FROM treasury.journal WHERE state = 'PREPARED' AND approvals_needed > 0"
            " AND approval IN ('WAITING', 'APPROVED') ORDER BY id DESC LIMIT 1"
        )
        return _entry(rows[0])

    async def update(
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
        lookup: bool = False,
    ) -> Entry:
        """Through ``treasury.record``, under this desktop's claim of the entry: the one a
        :meth:`claim` block of it holds, or else one taken for this write alone (in its
        transaction; :class:`ClaimRefused` while another desktop holds it). The database
        allows only the payment engine's moves from the entry's state, decides ``final``
        itself (``REJECTED``, or a decided bank status: the ``final`` given is the engine's
        own reading of it), and lets the bank's word stand over a desktop's; ``lookup``: what
        the bank said when asked (by idempotency key), rather than its answer to a send.
        Leaving ``PREPARED`` (the release) passes the database's approval check."""
        del final  # the database's to decide
        args = (
            state.value,
            bank_status,
            end_to_end_id,
            bank_id,
            error,
            note,
            creditor_name,
            "lookup" if lookup else "answer",
        )
        token = self._held.get(entry_id)
        if token is not None:
            return _entry(await self._db.call(RECORD_SQL, (entry_id, token, *args)))
        async with self._db.transaction() as cursor:
            await cursor.execute(CLAIM_SQL, (entry_id,))
            claimed = await cursor.fetchone()
            token = claimed["token"] if claimed else None
            if token is None:
                raise ClaimRefused(
                    f"Payment {entry_id} is being sent or resolved by another desktop now: "
                    "nothing was recorded."
                )
            await cursor.execute(RECORD_SQL, (entry_id, token, *args))
            row = await cursor.fetchone()
        assert row is not None
        return _entry(row)

    async def get(self, entry_id: int) -> Entry:
        row = await self._db.row("SELECT * FROM treasury.journal WHERE id = %s", (entry_id,))
        if row is None:
            raise KeyError(f"no journal entry {entry_id}")
        return _entry(row)

    async def get_many(self, entry_ids: Iterable[int]) -> list[Entry]:
        """The entries with these ids (those that exist), in id order."""
        ids = sorted(set(entry_ids))
        if not ids:
            return []
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE id = ANY(%s) ORDER BY id", (ids,)
        )
        return [_entry(row) for row in rows]

    async def by_key(self, idempotency_key: str) -> Entry | None:
        row = await self._db.row(
            "SELECT * FROM treasury.journal WHERE idempotency_key = %s", (idempotency_key,)
        )
        return _entry(row) if row else None

    async def unresolved(self) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE state = ANY(%s) ORDER BY id",
            ([s.value for s in UNRESOLVED],),
        )
        return [_entry(row) for row in rows]

    async def open_entries(self) -> list[Entry]:
        rows = await self._db.rows("SELECT * FROM treasury.journal WHERE NOT final ORDER BY id")
        return [_entry(row) for row in rows]

    async def recent(
        self,
        *,
        limit: int = 500,
        kinds: Iterable[EntryKind] | None = None,
        batch: str | None = None,
    ) -> list[Entry]:
        query = "SELECT * FROM treasury.journal WHERE true"
        args: list[Any] = []
        if kinds is not None:
            query += " AND kind = ANY(%s)"
            args.append([k.value for k in kinds])
        if batch is not None:
            query += " AND batch = %s"
            args.append(batch)
        query += " ORDER BY id DESC LIMIT %s"
        args.append(limit)
        return [_entry(row) for row in await self._db.rows(query, args)]

    async def same_payee_since(
        self, payee_detail: str, amount: Decimal, since: datetime | None = None
    ) -> list[Entry]:
        since = since or self.clock() - timedelta(hours=24)
        return [e for e in await self.payees_since([payee_detail], since) if e.amount == amount]

    async def named_payments(self, payee_detail: str, *, limit: int = 20) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal WHERE payee_detail = %s AND state = %s"
            " AND creditor_name IS NOT NULL AND creditor_name != '' ORDER BY id DESC LIMIT %s",
            (payee_detail, EntryState.ACCEPTED.value, limit),
        )
        return [_entry(row) for row in rows]

    async def payees_since(self, payee_details: Iterable[str], since: datetime) -> list[Entry]:
        found: list[Entry] = []
        for chunk in _chunks(sorted(set(payee_details))):
            rows = await self._db.rows(
                "SELECT * FROM treasury.journal WHERE payee_detail = ANY(%s)"
                " AND created_at >= %s AND state != %s",
                (chunk, _stamp(since), EntryState.REJECTED.value),
            )
            found.extend(_entry(row) for row in rows)
        found.sort(key=lambda entry: entry.id, reverse=True)
        return found

    async def last_named(self, payee_details: Iterable[str]) -> dict[str, Entry]:
        found: dict[str, Entry] = {}
        for chunk in _chunks(sorted(set(payee_details))):
            rows = await self._db.rows(
                "SELECT DISTINCT ON (payee_detail) * FROM treasury.journal"
                " WHERE payee_detail = ANY(%s) AND state = %s"
                " AND creditor_name IS NOT NULL AND creditor_name != ''"
                " ORDER BY payee_detail, id DESC",
                (chunk, EntryState.ACCEPTED.value),
            )
            for row in rows:
                entry = _entry(row)
                found[entry.payee_detail] = entry
        return found

    async def final_without_receipt(
        self, statuses: Iterable[str], *, limit: int = 1000
    ) -> list[Entry]:
        rows = await self._db.rows(
            "SELECT j.* FROM treasury.journal j WHERE j.final AND j.state = %s"
            " AND j.bank_status = ANY(%s)"
            f" AND NOT EXISTS (SELECT 1 FROM treasury.receipts r WHERE {_RECEIPT_OF_ENTRY})"
            " ORDER BY j.id LIMIT %s",
            (EntryState.ACCEPTED.value, list(statuses), limit),
        )
        return [_entry(row) for row in rows]

    async def unconfirmed(self, *, since: datetime, limit: int = 200) -> list[Entry]:
        """Decided outcomes recorded since ``since`` by a desktop of another login, sent to
        the bank, that the bank has not confirmed yet (neither its notification nor another
        login's lookup): what this desktop asks the bank about
        (:meth:`~treasury_app.services.payments.PaymentEngine.verify`)."""
        rows = await self._db.rows(
            "SELECT * FROM treasury.journal j WHERE j.final AND j.confirmed_by IS NULL"
            " AND j.outcome_word IN ('answer', 'lookup', 'legacy')"
            " AND coalesce(j.outcome_by, j.updated_by) <> session_user"
            " AND j.updated_at >= %s AND treasury.was_sent(j) ORDER BY j.id LIMIT %s",
            (_stamp(since), limit),
        )
        return [_entry(row) for row in rows]

    async def history(self, entry_id: int) -> list[HistoryItem]:
        rows = await self._db.rows(
            "SELECT at, state, bank_status, note FROM treasury.journal_history"
            " WHERE entry_id = %s ORDER BY id",
            (entry_id,),
        )
        return [
            HistoryItem(row["at"], EntryState(row["state"]), row["bank_status"], row["note"])
            for row in rows
        ]

    async def counts(self) -> dict[str, int]:
        rows = await self._db.rows(
            "SELECT state, COUNT(*) AS n FROM treasury.journal GROUP BY state"
        )
        return {row["state"]: int(row["n"]) for row in rows}

    @asynccontextmanager
    async def claim(self, entry_id: int) -> AsyncIterator[bool]:
        """Hold the entry's claim for as long as the block runs: ``treasury.claim`` locks its
        claim row in a transaction of its own, on a connection of its own (the journal's
        writes meanwhile commit on others, with the claim's token). ``False``: another
        desktop holds it, or the entry is not this login's to send (waiting for approval)."""
        done = False
        yielded = False
        refused = False
        try:
            async with self._claims.connection() as conn:
                try:
                    async with conn.transaction():
                        token = await self._take_claim(conn, entry_id)
                        if token is not None:
                            self._held[entry_id] = token
                        try:
                            yielded = True
                            yield token is not None
                        finally:
                            if token is not None and self._held.get(entry_id) == token:
                                del self._held[entry_id]
                        done = True
                except psycopg.errors.InsufficientPrivilege as error:
                    if yielded or error.diag.constraint_name != CLAIM_CODE:
                        raise
                    log.info("entry %s is not this desktop's to send: %s", entry_id, _short(error))
                    refused = True
        except LedgerUnavailable:
            if not done:
                raise
            # The work under the claim is done and journaled; only releasing it failed (the
            # link went down): the server ends the claim with the connection.
            log.warning("the claim on entry %s ended with its connection lost", entry_id)
        if refused:
            yield False

    async def _end_stale_claim(self, entry_id: int) -> bool:
        """Whether the session holding the entry's claim was ended as stale (schema 6:
        ``treasury.end_stale_claim``, audited ``session.ended``), on a connection of its own
        so that its audit row stays whatever becomes of the claim's transaction."""
        try:
            row = await self._db.row("SELECT treasury.end_stale_claim(%s) AS ended", (entry_id,))
        except (LedgerUnavailable, LedgerRefused) as error:
            log.info("the claim of entry %s: its holder not checked (%s)", entry_id, error)
            return False
        ended = bool(row and row["ended"])
        if ended:
            log.warning("entry %s: the stale session that held its claim was ended", entry_id)
        return ended

    async def _take_claim(self, conn: psycopg.AsyncConnection[Any], entry_id: int) -> str | None:
        """``treasury.claim`` in ``conn``'s transaction: its token, ``None`` while another
        desktop holds the claim (logged with who)."""
        cursor = await conn.execute(CLAIM_SQL, (entry_id,))
        row = await cursor.fetchone()
        token = row["token"] if row else None
        if token is None and await self._end_stale_claim(entry_id):
            cursor = await conn.execute(CLAIM_SQL, (entry_id,))
            row = await cursor.fetchone()
            token = row["token"] if row else None
        if token is None:
            cursor = await conn.execute("SELECT treasury.claim_holder(%s) AS holder", (entry_id,))
            held = await cursor.fetchone()
            log.info(
                "entry %s is being sent or resolved by another desktop (%s)",
                entry_id,
                held["holder"] if held else None,
            )
        return None if token is None else str(token)


class TeamAudit:
    """The team audit: rows are inserted with the server's who and when, and chained
    (*sealed*) by the database when its head is free, else soon after (schema 5,
    :mod:`~treasury_app.ledger.team.feed_schema`); an entry's ``id`` is its row's, not its
    place in the chain."""

    def __init__(self, db: TeamDatabase, context: LedgerContext) -> None:
        self._db = db
        self._context = context
        self.pending = False
        """A row of this desktop's was left unsealed (the head was busy): seal at close."""

    async def record(
        self,
        action: str,
        outcome: str,
        *,
        reference: str = "",
        amount: Decimal | None = None,
        details: Mapping[str, Any] | None = None,
    ) -> int:
        async with self._db.transaction() as cursor:
            await cursor.execute(
                "INSERT INTO treasury.audit (at, profile, action, outcome, reference, amount,"
                " details) VALUES (%s, %s, %s, %s, %s, %s, %s) RETURNING id, seq",
                (
                    now_iso(),
                    self._context.profile,
                    action,
                    outcome,
                    reference,
                    None if amount is None else str(amount),
                    details_json(details),
                ),
            )
            row = await cursor.fetchone()
        assert row is not None
        if row["seq"] is None:  # another transaction held the chain's head: seal it now
            try:
                self.pending = await self.seal() is None
            except LedgerUnavailable as error:
                log.info("audit row %s left to the next sealer: %s", row["id"], error)
                self.pending = True
        return int(row["id"])

    async def seal(self) -> int | None:
        """Chain every audit row written but not sealed yet (``treasury.seal_audit``, in a
        transaction of its own): the head's ``seq``, or ``None`` when another session holds
        the head now (that session, or the next writer, seals them; nobody waits)."""
        row = await self._db.row("SELECT treasury.seal_audit() AS head")
        return None if row is None or row["head"] is None else int(row["head"])

    async def entries(
        self, *, action: str | None = None, reference: str | None = None, limit: int = 1000
    ) -> list[AuditEntry]:
        where, args = audit_filter(
            since=None,
            until=None,
            action=action,
            text=None,
            mark="%s",
            user_column="actor",
            reference=reference,
        )
        return await self._rows(
            f"SELECT * FROM treasury.audit{where} ORDER BY id DESC LIMIT %s", [*args, limit]
        )

    def _filter(
        self,
        *,
        since: datetime | None,
        until: datetime | None,
        action: str | None,
        text: str | None,
    ) -> tuple[str, list[Any]]:
        return audit_filter(
            since=since, until=until, action=action, text=text, mark="%s", user_column="actor"
        )

    async def search(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
        offset: int = 0,
        limit: int = 200,
    ) -> list[AuditEntry]:
        where, args = self._filter(since=since, until=until, action=action, text=text)
        return await self._rows(
            f"SELECT * FROM treasury.audit{where} ORDER BY id DESC LIMIT %s OFFSET %s",
            [*args, max(1, limit), max(0, offset)],
        )

    async def count(
        self,
        *,
        since: datetime | None = None,
        until: datetime | None = None,
        action: str | None = None,
        text: str | None = None,
    ) -> int:
        where, args = self._filter(since=since, until=until, action=action, text=text)
        row = await self._db.row(f"SELECT COUNT(*) AS n FROM treasury.audit{where}", args)
        return int(row["n"]) if row else 0

    async def actions(self) -> list[str]:
        rows = await self._db.rows("SELECT DISTINCT action FROM treasury.audit ORDER BY action")
        return [row["action"] for row in rows]

    async def head(self) -> tuple[int, str]:
        """The chain's head ``(seq, hash)`` as the database has it now, what was waiting to be
        sealed sealed first (unless another session holds the head)."""
        await self.seal()
        row = await self._db.row("SELECT seq, hash FROM treasury.audit_head")
        assert row is not None
        return int(row["seq"]), str(row["hash"])

    async def link_at(self, seq: int) -> str | None:
        """The stored hash of the row ``seq`` (``None``: there is no such row)."""
        row = await self._db.row("SELECT hash FROM treasury.audit WHERE seq = %s", (seq,))
        return None if row is None else str(row["hash"])

    async def _rows(self, query: str, args: list[Any]) -> list[AuditEntry]:
        return [
            audit_entry(row, id_column="id", user_column="actor")
            for row in await self._db.rows(query, args)
        ]


class TeamReceipts:
    """Receipt PDFs inside the database (``bytea``, content-addressed by SHA-256), so every
    desktop opens every receipt; ``directory`` is this computer's folder for saved copies."""

    def __init__(self, db: TeamDatabase, directory: Path) -> None:
        self._db = db
        self._directory = directory

    @property
    def directory(self) -> Path:
        return self._directory

    def path_for(self, sha256: str) -> Path:
        return receipt_path(self._directory, sha256)

    async def save(
        self,
        pdf: bytes,
        *,
        kind: str,
        bank_id: str,
        entry_id: int | None = None,
        payee_name: str = "",
        amount: Decimal | None = None,
        paid_on: str | None = None,
    ) -> Receipt:
        """Through ``treasury.store_receipt``: kept with the payment ``entry_id`` under its
        own bank identifier (``bank_id`` must be it), once — the first receipt of a payment
        stays, and is returned (``amount`` is the journal's)."""
        del amount  # the journal's
        pdf_digest(pdf)  # a PDF, or ReceiptError
        if entry_id is None:
            raise ReceiptRefused(
                "A receipt is kept with the payment it belongs to: its journal entry is needed.",
                reason=Reason("team.receipt_without_entry"),
            )
        row = await self._db.call(
            "SELECT * FROM treasury.store_receipt(%s, %s, %s, %s, %s, %s)",
            (entry_id, kind, bank_id, pdf, payee_name, paid_on),
        )
        return self._receipt(row)

    async def find(self, kind: str, bank_id: str) -> Receipt | None:
        row = await self._db.row(
            "SELECT * FROM treasury.receipts WHERE kind = %s AND bank_id = %s", (kind, bank_id)
        )
        return self._receipt(row) if row else None

    async def for_entry(self, entry_id: int) -> Receipt | None:
        """The bank's receipt of the payment: the one filed under its own bank identifier
        (never "the newest row" naming it)."""
        row = await self._db.row(
            f"SELECT r.* FROM treasury.journal j JOIN treasury.receipts r ON {_RECEIPT_OF_ENTRY}"
            " WHERE j.id = %s",
            (entry_id,),
        )
        return self._receipt(row) if row else None

    async def read(self, receipt: Receipt) -> bytes:
        row = await self._db.row(
            "SELECT pdf FROM treasury.receipt_files WHERE sha256 = %s", (receipt.sha256,)
        )
        if row is None:
            raise ReceiptError("receipt.missing", receipt=receipt.sha256[:12])
        data = bytes(row["pdf"])
        if hashlib.sha256(data).hexdigest() != receipt.sha256:
            raise ReceiptError("receipt.damaged", receipt=receipt.sha256[:12])
        return data

    async def all(self, limit: int = 1000) -> list[Receipt]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.receipts ORDER BY id DESC LIMIT %s", (limit,)
        )
        return [self._receipt(row) for row in rows]

    async def unchecked(self, limit: int = 100) -> list[Receipt]:
        """Receipts another login stored, neither confirmed nor disputed yet by a second
        login's fetch from the bank (schema 6): what this desktop compares with the bank's."""
        rows = await self._db.rows(
            "SELECT * FROM treasury.receipts WHERE saved_by <> session_user"
            " AND confirmed_by IS NULL AND disputed_by IS NULL AND entry_id IS NOT NULL"
            " ORDER BY id LIMIT %s",
            (limit,),
        )
        return [self._receipt(row) for row in rows]

    def _receipt(self, row: Mapping[str, Any]) -> Receipt:
        return receipt_from_row(row, self.path_for(row["sha256"]))


class TeamBatches:
    def __init__(self, db: TeamDatabase, context: LedgerContext) -> None:
        self._db = db
        self._context = context

    async def record(
        self,
        batch_id: str,
        *,
        signature: str,
        rows: int,
        total: Decimal,
        file_sha256: str | None = None,
        label: str = "",
    ) -> BatchRecord:
        async with self._db.transaction() as cursor:
            await cursor.execute(
                "INSERT INTO treasury.batches (id, created_at, profile, label, file_sha256,"
                " signature, rows, total) VALUES (%s, %s, %s, %s, %s, %s, %s, %s)"
                " ON CONFLICT (id) DO NOTHING",
                (
                    batch_id,
                    now_iso(),
                    self._context.profile,
                    label,
                    file_sha256,
                    signature,
                    rows,
                    str(total),
                ),
            )
        found = await self.get(batch_id)
        assert found is not None
        return found

    async def get(self, batch_id: str) -> BatchRecord | None:
        row = await self._db.row("SELECT * FROM treasury.batches WHERE id = %s", (batch_id,))
        return batch_from_row(row) if row else None

    async def matching(
        self, *, signature: str, file_sha256: str | None, since: datetime
    ) -> list[BatchRecord]:
        rows = await self._db.rows(
            "SELECT * FROM treasury.batches WHERE created_at >= %s"
            " AND (signature = %s OR (%s::text IS NOT NULL AND file_sha256 = %s))"
            " ORDER BY created_at DESC, id",
            (_stamp(since), signature, file_sha256, file_sha256),
        )
        return [batch_from_row(row) for row in rows]
