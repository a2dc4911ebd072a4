"""The payee registry's use cases (issue 36): register payees and where their money goes,
find them by typing, tell a payout what the registry knows of its destination, match a batch
to the registry, and read or write the registry as CSV (the payout batches' reader).

Which changes need a second person, and the extra approval of a fresh destination, are the
ledger's (:mod:`treasury_app.ledger.payees`); this module words what it finds as
:class:`~treasury_app.domain.errors.Reason` codes (``registry.*``) the UI puts in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import gc
import io
import time
from collections.abc import Awaitable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, TypeVar

from treasury_app.domain.banks import BankTable
from treasury_app.domain.clock import Clock, brasilia_date, brasilia_today, parse_instant
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.domain.payees import (
    Destination,
    DestinationDraft,
    DestinationKind,
    DestinationState,
    Match,
    Payee,
    RegistryChange,
    RegistryIndex,
    RegistryPolicy,
    account_destination,
    key_destination,
    payee_draft,
)
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryState
from treasury_app.ledger.payees import PayeeStore
from treasury_app.services.csv_input import (
    MAX_LINE_ERRORS,
    MAX_ROWS,
    TOO_MANY_ERRORS,
    CsvLineError,
    ReadControl,
    csv_records,
)

T = TypeVar("T")

LAST_PAYMENTS = 10
"""Payments a payee's history shows (the statement of account has them all)."""
EVER = datetime(2000, 1, 1, tzinfo=UTC)

__all__ = [
    "PayeeDetail",
    "PayeePayments",
    "PayeeService",
    "RegistryImport",
    "RegistryRow",
    "RowStatus",
    "cooling_reason",
    "parse_registry_csv",
    "registered_names",
    "registry_csv",
]


class RowStatus(StrEnum):
    """What the registry knows of a payout's destination (a batch review's column)."""

    VERIFIED = "verified"  # known, and a settled payment confirmed it
    NEW = "new"  # registered, never confirmed by a settled payment
    CHANGED = "changed"  # changed (or named someone else) since its last confirmation
    RECENT = "recent"  # new or changed within the cooling-off period: one approval more
    BLOCKED = "blocked"  # not paid
    OTHER = "other"  # registered to another payee than the row names
    UNKNOWN = "unknown"  # not in the registry


@dataclass(frozen=True)
class PayeePayments:
    """What was paid to a payee (all their registered keys and accounts; an unregistered
    key or account alone): what a person reads before paying them again, and a supplier's
    statement of account."""

    payee: Payee | None  # None: the key or account is not in the registry
    details: tuple[str, ...]
    payments: tuple[Entry, ...]  # newest first; refused ones left out
    month: date  # the first day of this Brasília month
    month_paid: Decimal  # settled this month
    month_on_its_way: Decimal  # sent or waiting this month, not settled yet

    def last(self, count: int = LAST_PAYMENTS) -> tuple[Entry, ...]:
        return self.payments[:count]


@dataclass(frozen=True)
class PayeeDetail:
    payee: Payee
    destinations: tuple[Destination, ...]
    history: tuple[RegistryChange, ...]


def cooling_reason(cooling: Mapping[str, Any] | None) -> Reason | None:
    """Why a team payment needs one approval more, as one line for the approval dialog
    ("Pix key added on … by ana, approved by bruno"), from its journal row's ``cooling``."""
    if not cooling:
        return None
    thing = "key" if cooling.get("kind") == "PIX_KEY" else "account"
    action = str(cooling.get("action") or "added")
    at = cooling.get("at")
    when = datetime.fromisoformat(str(at).replace("Z", "+00:00")) if at else None
    return Reason(
        f"registry.{thing}_{action}",
        {
            "at": when,
            "by": cooling.get("by") or "",
            "approved_by": cooling.get("approved_by") or "",
            "payee": cooling.get("payee") or "",
            "hours": cooling.get("hours"),
        },
    )


class PayeeService:
    """The registry of one ledger; a search index kept in memory, rebuilt after a change.

    The index of a large registry takes seconds to read and build: its rows become payees
    and destinations in a worker thread (the ledger's :meth:`~PayeeStore.registry`, on either
    backend), and the index is built in a worker thread too, so the window keeps answering
    meanwhile; :attr:`loading` says so, and every caller waiting for it shares the one build."""

    def __init__(
        self, ledger: Ledger, *, banks: BankTable | None = None, clock: Clock | None = None
    ) -> None:
        self.ledger = ledger
        self.banks = banks
        self.clock: Clock = clock or (lambda: ledger.clock())
        """Business time (this month's total): the workspace's (the sandbox's in a sandbox)."""
        self._index: RegistryIndex | None = None
        self._generation = 0  # which registry a build reads: forget() makes another
        self._building: asyncio.Future[None] | None = None

    @property
    def store(self) -> PayeeStore:
        return self.ledger.payees

    # -- reading ------------------------------------------------------------------------------

    @property
    def loading(self) -> bool:
        """Whether the index is still to be read (a picker says "loading…")."""
        return self._index is None

    @property
    def ready(self) -> RegistryIndex | None:
        """The index when built (``None`` while it is being read)."""
        return self._index

    async def index(self, *, fresh: bool = False) -> RegistryIndex:
        if fresh:
            self.forget()
        while self._index is None:
            if self._building is None or self._building.done():
                self._building = asyncio.ensure_future(self._build(self._generation))
                self._building.add_done_callback(_retrieved)
            # Shielded: a caller cancelled (its widget closed) leaves the build to the others.
            await asyncio.shield(self._building)
        return self._index

    async def _build(self, generation: int) -> None:
        with _no_full_collections():
            payees, destinations = await self.store.registry()
            index = await asyncio.to_thread(_built, payees, destinations)
        if generation == self._generation:  # not changed meanwhile
            self._index = index

    def forget(self) -> None:
        """The registry changed (here or, in a team, elsewhere): read it again when asked."""
        self._index = None
        self._generation += 1

    async def search(self, text: str, limit: int = 20) -> list[Match]:
        return (await self.index()).search(text, limit)

    async def detail(self, payee_id: int) -> PayeeDetail:
        payee = await self.store.payee(payee_id)
        if payee is None:
            raise RuleError("registry.no_payee", payee=payee_id)
        return PayeeDetail(
            payee,
            tuple(await self.store.destinations(payee_id)),
            tuple(await self.store.history(payee_id)),
        )

    async def pending(self) -> list[RegistryChange]:
        return list(await self.store.pending())

    async def payments_to(self, detail: str) -> PayeePayments:
        """The history of whoever ``detail`` (a payout's key or account) pays: its registered
        payee's payments to any of their destinations, else the payments to ``detail``."""
        found = await self.owner(detail)
        if found is None:
            return await self._payments(None, (detail,))
        return await self.payments_of(found[0].id)

    async def payments_of(self, payee_id: int) -> PayeePayments:
        """Every payment to a registered payee's keys and accounts (blocked ones too)."""
        payee = await self.store.payee(payee_id)
        if payee is None:
            raise RuleError("registry.no_payee", payee=payee_id)
        details = tuple(d.detail for d in await self.store.destinations(payee_id))
        return await self._payments(payee, details)

    async def _payments(self, payee: Payee | None, details: tuple[str, ...]) -> PayeePayments:
        found = await self.ledger.journal.payees_since(details, EVER) if details else []
        # A team's payment its approver rejected (or its maker withdrew) never leaves.
        entries = [e for e in found if e.approval not in ("REJECTED", "WITHDRAWN")]
        entries.sort(key=lambda entry: (entry.created_at, entry.id), reverse=True)
        today = brasilia_today(self.clock)
        month = today.replace(day=1)
        paid = on_its_way = Decimal("0.00")
        for entry in entries:
            if brasilia_date(parse_instant(entry.created_at)) < month:
                continue
            if entry.state is EntryState.ACCEPTED:
                paid += entry.amount
            elif not entry.final:
                on_its_way += entry.amount
        return PayeePayments(payee, details, tuple(entries), month, paid, on_its_way)

    async def policy(self) -> RegistryPolicy:
        return await self.store.policy()

    # -- changing -----------------------------------------------------------------------------

    async def save_payee(
        self, name: str, document: str, tags: Iterable[str] | str = (), payee_id: int | None = None
    ) -> Payee:
        saved = await self.store.save_payee(payee_draft(name, document, tags), payee_id)
        self.forget()
        return saved

    def key(self, key: str) -> DestinationDraft:
        return key_destination(key)

    def account(self, ispb: str, branch: str, account: str, account_type: str) -> DestinationDraft:
        return account_destination(ispb, branch, account, account_type, banks=self.banks)

    async def add(self, payee_id: int, draft: DestinationDraft) -> RegistryChange:
        return await self._changed(self.store.propose(payee_id, "add", draft))

    async def change(
        self, payee_id: int, destination_id: int, draft: DestinationDraft
    ) -> RegistryChange:
        return await self._changed(self.store.propose(payee_id, "change", draft, destination_id))

    async def unblock(self, payee_id: int, destination_id: int) -> RegistryChange:
        return await self._changed(self.store.propose(payee_id, "unblock", None, destination_id))

    async def block(self, destination_id: int, reason: str) -> Destination:
        return await self._changed(self.store.block(destination_id, reason))

    async def approve(self, change_id: int) -> RegistryChange:
        return await self._changed(self.store.decide(change_id, "APPROVED"))

    async def reject(self, change_id: int, reason: str) -> RegistryChange:
        return await self._changed(self.store.decide(change_id, "REJECTED", reason))

    async def withdraw(self, change_id: int, reason: str) -> RegistryChange:
        return await self._changed(self.store.decide(change_id, "WITHDRAWN", reason))

    async def _changed(self, call: Awaitable[T]) -> T:
        try:
            return await call
        finally:
            self.forget()

    # -- payouts ------------------------------------------------------------------------------

    async def owner(self, detail: str) -> tuple[Payee, Destination] | None:
        """The registered payee and destination of a payout's detail (``None``: unknown)."""
        destination = (await self.store.by_details([detail])).get(detail)
        if destination is None:
            return None
        payee = await self.store.payee(destination.payee_id)
        return None if payee is None else (payee, destination)

    async def warnings(self, detail: str, payee_id: int | None = None) -> tuple[Reason, ...]:
        """What a person must read before a payout to ``detail`` (for payee ``payee_id`` when
        they picked one): registered to someone else, blocked, fresh (not confirmed)."""
        found = await self.owner(detail)
        if found is None:
            if payee_id is not None:
                return (Reason("registry.not_this_payees", {"detail": detail}),)
            return ()
        owner, destination = found
        reasons: list[Reason] = []
        kind = "account" if destination.kind is DestinationKind.ACCOUNT else "key"
        if payee_id is not None and owner.id != payee_id:
            chosen = await self.store.payee(payee_id)
            reasons.append(
                Reason(
                    f"registry.{kind}_registered_to_other",
                    {"owner": owner.name, "payee": chosen.name if chosen else ""},
                )
            )
        if destination.state is DestinationState.BLOCKED:
            reasons.append(Reason("registry.blocked", {"detail": detail, "owner": owner.name}))
        elif destination.cooling(await self.store.now(), await self.store.policy()):
            reasons.append(
                Reason(
                    "registry.fresh_destination",
                    {"detail": detail, "at": destination.changed_at, "owner": owner.name},
                )
            )
        return tuple(reasons)

    async def statuses(
        self, rows: Sequence[tuple[str, str]]
    ) -> list[tuple[RowStatus, Payee | None]]:
        """Each ``(detail, document)`` of a batch matched to the registry at once: its
        status, and the registered payee (the rows' destinations and payees read by key, a
        few queries per call, never the whole registry)."""
        registered = await self.store.by_details(detail for detail, _ in rows)
        payees = await self.store.payees_of(d.payee_id for d in registered.values())
        now = await self.store.now()
        policy = await self.store.policy()
        return [
            _status(registered, payees, detail, document, now, policy) for detail, document in rows
        ]


@contextlib.contextmanager
def _no_full_collections() -> Iterator[None]:
    """The garbage collector off while a registry's million objects are made, then those
    objects out of its reach (``gc.freeze``, as the window does after the unlock): each of
    its full passes would walk them all, stopping every thread for 200 to 500 ms (measured
    with 50,000 payees), during the build and at times ever after. The index holds no
    cycles: a replaced index is freed by reference counting, frozen or not."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


async def registered_names(store: PayeeStore, details: Iterable[str]) -> dict[str, str]:
    """The registered payee's name of each of these payout details that the registry knows
    (receipts and exports name the payee the registry knows, not the text typed)."""
    found = await store.by_details(details)
    payees = await store.payees_of(d.payee_id for d in found.values())
    return {detail: payees[d.payee_id].name for detail, d in found.items() if d.payee_id in payees}


def _built(payees: list[Payee], destinations: list[Destination]) -> RegistryIndex:
    """The search index of a registry (in a worker thread). At each of the index's pauses
    the thread lets go of the interpreter: the loop's thread, which wants it back every few
    milliseconds, would otherwise wait up to the 5 ms switch interval each time."""
    index = RegistryIndex()
    for _ in index.fill(payees, destinations):
        time.sleep(0)
    return index


def _retrieved(build: asyncio.Future[None]) -> None:
    """A build nobody awaits any more keeps its failure to itself (the next caller tries
    again and sees its own)."""
    if not build.cancelled():
        build.exception()


def _status(
    registered: Mapping[str, Destination],
    payees: Mapping[int, Payee],
    detail: str,
    document: str,
    now: datetime,
    policy: RegistryPolicy,
) -> tuple[RowStatus, Payee | None]:
    destination = registered.get(detail)
    if destination is None:
        return RowStatus.UNKNOWN, None
    payee = payees.get(destination.payee_id)
    if payee is not None and document and document != payee.document:
        return RowStatus.OTHER, payee
    if destination.state is DestinationState.BLOCKED:
        return RowStatus.BLOCKED, payee
    if destination.cooling(now, policy):
        return RowStatus.RECENT, payee
    return RowStatus(destination.state.value), payee


# -- CSV ---------------------------------------------------------------------------------------

COLUMNS = ("nome", "documento", "etiquetas", "chave", "ispb", "agencia", "conta", "tipo_conta")
_ALIASES = {
    "name": "nome",
    "document": "documento",
    "cpf_cnpj": "documento",
    "tags": "etiquetas",
    "key": "chave",
    "branch": "agencia",
    "agência": "agencia",
    "account": "conta",
    "account_type": "tipo_conta",
}


@dataclass(frozen=True)
class RegistryRow:
    line: int
    name: str
    document: str
    tags: tuple[str, ...]
    destination: DestinationDraft | None


@dataclass(frozen=True)
class RegistryImport:
    rows: tuple[RegistryRow, ...]
    errors: tuple[tuple[int, str, Reason], ...]  # line, column, why

    @property
    def valid(self) -> bool:
        return not self.errors


def parse_registry_csv(
    text: str,
    *,
    index: RegistryIndex | None = None,
    banks: BankTable | None = None,
    control: ReadControl | None = None,
) -> RegistryImport:
    """Read a registry CSV (the payout batches' reader: any encoding decoded before, each
    bad line its coded error); with ``index``, a key or account registered to another payee
    (another document) is an error of its line."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0].split("\r", 1)[0]
    if not first.strip():
        return RegistryImport((), ((1, "header", Reason("registry.file_empty")),))
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    records = csv_records(text, delimiter, control=control)
    head = next(records)
    if isinstance(head, CsvLineError):
        return RegistryImport((), ((1, "header", head.reason),))
    header = [_ALIASES.get(name.strip().lower(), name.strip().lower()) for name in head.cells]
    missing = [name for name in ("nome", "documento") if name not in header]
    if missing:
        reason = Reason("registry.columns_missing", {"columns": ", ".join(missing)})
        return RegistryImport((), ((1, "header", reason),))
    rows: list[RegistryRow] = []
    errors: list[tuple[int, str, Reason]] = []
    seen: dict[str, tuple[int, str]] = {}  # detail: (line, document) in this file
    for record in records:
        if len(errors) > MAX_LINE_ERRORS:
            return RegistryImport((), (*errors[:MAX_LINE_ERRORS], (0, "row", TOO_MANY_ERRORS)))
        if isinstance(record, CsvLineError):
            errors.append((record.line, "row", record.reason))
            if record.whole_file:
                return RegistryImport((), tuple(errors))
            continue
        if not any(cell.strip() for cell in record.cells):
            continue
        if len(rows) + len(errors) >= MAX_ROWS * 10:
            errors.append((record.line, "row", Reason("registry.too_many_rows")))
            break
        if len(record.cells) != len(header):
            reason = Reason(
                "registry.column_count", {"expected": len(header), "found": len(record.cells)}
            )
            errors.append((record.line, "row", reason))
            continue
        values = dict(zip(header, (cell.strip() for cell in record.cells), strict=True))
        try:
            draft = payee_draft(values["nome"], values["documento"], values.get("etiquetas", ""))
            destination = _row_destination(values, banks)
        except RuleError as error:
            errors.append((record.line, _column(error.field), error.reason))
            continue
        if destination is not None:
            owner = index.owner_of(destination.detail) if index is not None else None
            if owner is not None and owner.document != draft.document:
                column = "chave" if destination.kind is DestinationKind.PIX_KEY else "conta"
                reason = Reason(
                    "registry.destination_taken",
                    {"detail": destination.detail, "owner": owner.name},
                )
                errors.append((record.line, column, reason))
                continue
            earlier = seen.setdefault(destination.detail, (record.line, draft.document))
            if earlier[1] != draft.document:
                reason = Reason(
                    "registry.destination_twice", {"detail": destination.detail, "line": earlier[0]}
                )
                errors.append((record.line, "chave", reason))
                continue
        rows.append(RegistryRow(record.line, draft.name, draft.document, draft.tags, destination))
    return RegistryImport(tuple(rows), tuple(errors))


def _row_destination(values: Mapping[str, str], banks: BankTable | None) -> DestinationDraft | None:
    if values.get("chave"):
        return key_destination(values["chave"])
    if any(values.get(name) for name in ("ispb", "agencia", "conta")):
        return account_destination(
            values.get("ispb", ""),
            values.get("agencia", ""),
            values.get("conta", ""),
            values.get("tipo_conta", ""),
            banks=banks,
        )
    return None


def _column(field_name: str | None) -> str:
    return {
        "name": "nome",
        "document": "documento",
        "tags": "etiquetas",
        "key": "chave",
        "branch": "agencia",
        "account": "conta",
        "account_type": "tipo_conta",
    }.get(field_name or "row", field_name or "row")


async def import_registry(service: PayeeService, parsed: RegistryImport) -> list[RegistryChange]:
    """Register what a read file holds: each payee by document (found or new), each new
    destination added (in a team: waiting for another person's approval)."""
    changes: list[RegistryChange] = []
    index = await service.index(fresh=True)
    by_document = {payee.document: payee for payee in index.payees.values()}
    for row in parsed.rows:
        payee = by_document.get(row.document)
        if payee is None:
            payee = await service.save_payee(row.name, row.document, row.tags)
            by_document[row.document] = payee
        if row.destination is not None and row.destination.detail not in index.by_detail:
            changes.append(await service.add(payee.id, row.destination))
    service.forget()
    return changes


def registry_csv(payees: Iterable[Payee], destinations: Iterable[Destination]) -> str:
    """The registry as CSV for Excel (``;``, a BOM, CRLF): one line per destination, a payee
    without one on a line of its own; the CNPJ and accounts as text (no scientific notation)."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerow((*COLUMNS, "estado"))
    of_payee: dict[int, list[Destination]] = {}
    for registered in destinations:
        of_payee.setdefault(registered.payee_id, []).append(registered)
    for payee in payees:
        base = (payee.name, payee.document, ", ".join(payee.tags))
        listed: list[Destination | None] = list(of_payee.get(payee.id, [])) or [None]
        for destination in listed:
            if destination is None:
                writer.writerow((*base, "", "", "", "", "", ""))
                continue
            d = destination.draft
            if d.kind is DestinationKind.PIX_KEY:
                writer.writerow((*base, d.detail, "", "", "", "", destination.state.value))
            else:
                writer.writerow(
                    (
                        *base,
                        "",
                        d.ispb,
                        d.branch,
                        d.account,
                        d.account_type,
                        destination.state.value,
                    )
                )
    return "\ufeff" + out.getvalue()


def entry_payee_hint(entry: Entry) -> Reason | None:
    """The one line an approver reads of why this payment needs one approval more."""
    return cooling_reason(entry.cooling)
