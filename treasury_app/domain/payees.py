"""The payee registry's values and rules (issue 36): a payee (name, CPF or CNPJ, tags) and
where their money may go (Pix keys, bank accounts), each destination with a state.

A destination is identified by its **detail**, the same text a payout journals as its
``payee_detail`` (a normalised Pix key, or ``ISPB/branch/account``), so a payment and the
registry meet on one string in both ledgers. A destination is *new* or *changed* until a
payment to it settles and the bank names the same payee (*verified*); a person may *block*
it. A destination new or changed less than the cooling-off period ago (counted from when the
change was approved) makes a payment to it need one approval more (the team database
enforces it; a single desktop warns).

No I/O: the ledgers store these, :class:`RegistryIndex` searches them in memory.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import re
from collections.abc import Generator, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import StrEnum
from typing import Any

from treasury_app.domain.banks import BankTable, fold
from treasury_app.domain.documents import is_scientific_notation, normalize_document
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.domain.pixkey import detect_key_type, normalize_key

__all__ = [
    "ACCOUNT_TYPES",
    "DEFAULT_COOLING",
    "Destination",
    "DestinationDraft",
    "DestinationKind",
    "DestinationState",
    "Match",
    "Payee",
    "PayeeDraft",
    "PayeeError",
    "RegistryChange",
    "RegistryIndex",
    "RegistryPolicy",
    "account_destination",
    "key_destination",
    "payee_draft",
]

MAX_NAME = 140
MAX_TAGS = 20
MAX_TAG = 40
ACCOUNT_TYPES = ("CACC", "SVGS", "SLRY", "TRAN")
DEFAULT_COOLING = timedelta(hours=24)
_DIGITS = re.compile(r"[0-9]+")
STEP = 100  # rows of an index built between two pauses (well under a millisecond's work)
SORT_RUN = 4_000  # entries sorted at once (a few milliseconds)


class PayeeError(RuleError):
    """A payee or a destination that cannot be registered (``payee.*``)."""


class DestinationKind(StrEnum):
    PIX_KEY = "PIX_KEY"
    ACCOUNT = "ACCOUNT"

    @property
    def entry_kind(self) -> str:
        """The journal's kind of a payout to such a destination."""
        return "PIX_KEY" if self is DestinationKind.PIX_KEY else "PIX_MANU"


class DestinationState(StrEnum):
    NEW = "new"
    VERIFIED = "verified"
    CHANGED = "changed"
    BLOCKED = "blocked"


@dataclass(frozen=True)
class PayeeDraft:
    name: str
    document: str
    tags: tuple[str, ...] = ()


@dataclass(frozen=True)
class DestinationDraft:
    """A destination as typed and checked, before it is registered."""

    kind: DestinationKind
    detail: str
    key_type: str | None = None
    ispb: str | None = None
    branch: str | None = None
    account: str | None = None
    account_type: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "detail": self.detail,
            "key_type": self.key_type,
            "ispb": self.ispb,
            "branch": self.branch,
            "account": self.account,
            "account_type": self.account_type,
        }

    @classmethod
    def of(cls, values: Mapping[str, Any]) -> DestinationDraft:
        return cls(
            kind=DestinationKind(values["kind"]),
            detail=str(values["detail"]),
            key_type=values.get("key_type"),
            ispb=values.get("ispb"),
            branch=values.get("branch"),
            account=values.get("account"),
            account_type=values.get("account_type"),
        )


def payee_draft(name: str, document: str, tags: Iterable[str] | str = ()) -> PayeeDraft:
    """A payee's name, document (bare CPF or CNPJ, the alphanumeric CNPJ too) and tags,
    checked; raises :class:`PayeeError` (or the document's own :class:`DocumentError`)."""
    text = " ".join((name or "").split())
    if not text:
        raise PayeeError("payee.name_missing", field="name")
    if len(text) > MAX_NAME:
        raise PayeeError("payee.name_too_long", field="name", max=MAX_NAME)
    try:
        bare = normalize_document(document or "")
    except DomainError as error:
        raise PayeeError("payee.document_invalid", field="document", cause=error.code) from None
    return PayeeDraft(text, bare, _tags(tags))


def _tags(tags: Iterable[str] | str) -> tuple[str, ...]:
    items = re.split(r"[,;]", tags) if isinstance(tags, str) else list(tags)
    seen: list[str] = []
    for item in items:
        tag = " ".join(str(item).lower().split())
        if not tag or tag in seen:
            continue
        if len(tag) > MAX_TAG or not fold(tag):
            raise PayeeError("payee.tag_invalid", field="tags", tag=tag[:MAX_TAG], max=MAX_TAG)
        seen.append(tag)
    if len(seen) > MAX_TAGS:
        raise PayeeError("payee.too_many_tags", field="tags", max=MAX_TAGS)
    return tuple(seen)


def key_destination(key: str) -> DestinationDraft:
    """A Pix key destination (its type detected, the key normalised as a payout sends it)."""
    if not (key or "").strip():
        raise PayeeError("payee.key_missing", field="key")
    try:
        kind = detect_key_type(key)
        normalized = normalize_key(key, kind)
    except DomainError as error:
        raise PayeeError("payee.key_invalid", field="key", cause=error.code) from None
    return DestinationDraft(DestinationKind.PIX_KEY, normalized, key_type=kind.value)


def account_destination(
    ispb: str,
    branch: str,
    account: str,
    account_type: str,
    *,
    banks: BankTable | None = None,
) -> DestinationDraft:
    """A bank account destination, checked as a payout by bank data checks it; with
    ``banks``, an ISPB the central bank's list does not know is refused."""
    for field_name, cell in (("ispb", ispb), ("account", account)):
        if is_scientific_notation(cell or ""):
            raise PayeeError("payee.scientific_notation", field=field_name, value=cell.strip())
    code = (ispb or "").strip()
    if _DIGITS.fullmatch(code) and len(code) < 8:
        code = code.zfill(8)  # a spreadsheet drops the leading zeros
    if not _DIGITS.fullmatch(code) or len(code) != 8:
        raise PayeeError("payee.ispb_format", field="ispb")
    if banks is not None and banks.by_ispb(code) is None:
        raise PayeeError("payee.ispb_unknown", field="ispb", ispb=code)
    agency = (branch or "").strip()
    if not _DIGITS.fullmatch(agency) or not 1 <= len(agency) <= 4:
        raise PayeeError("payee.branch_format", field="branch")
    number = (account or "").strip().replace("-", "")
    if not _DIGITS.fullmatch(number) or not 1 <= len(number) <= 20:
        raise PayeeError("payee.account_format", field="account")
    kind = (account_type or "").strip().upper()
    if kind not in ACCOUNT_TYPES:
        raise PayeeError("payee.account_type", field="account_type")
    return DestinationDraft(
        DestinationKind.ACCOUNT,
        f"{code}/{agency}/{number}",
        ispb=code,
        branch=agency,
        account=number,
        account_type=kind,
    )


@dataclass(frozen=True)
class RegistryPolicy:
    """How long a destination new or changed needs one approval more, and whether payouts
    may go to destinations outside the registry at all."""

    cooling: timedelta = DEFAULT_COOLING
    registry_only: bool = False


@dataclass(frozen=True)
class Payee:
    id: int
    name: str
    document: str
    tags: tuple[str, ...] = ()
    created_by: str = ""
    created_at: str = ""


@dataclass(frozen=True)
class Destination:
    id: int
    payee_id: int
    draft: DestinationDraft
    state: DestinationState
    changed_at: datetime | None = None
    """When its last change (adding, changing, unblocking) took effect: approved by a second
    person in a team, at once on a single desktop."""
    action: str = "added"  # added, changed, unblocked: the last change
    changed_by: str = ""  # who prepared that change
    approved_by: str = ""  # who approved it ("" on a single desktop)

    @property
    def detail(self) -> str:
        return self.draft.detail

    @property
    def kind(self) -> DestinationKind:
        return self.draft.kind

    def cooling(self, now: datetime, policy: RegistryPolicy) -> bool:
        """Whether a payment to it now needs one approval more (a single desktop: a
        warning): new or changed, less than the policy's cooling-off period ago."""
        if self.state not in (DestinationState.NEW, DestinationState.CHANGED):
            return False
        return self.changed_at is not None and now < self.changed_at + policy.cooling


@dataclass(frozen=True)
class RegistryChange:
    """A change of where a payee's money goes, and its fate: in a team prepared by one
    person and approved (or rejected) by another; on a single desktop applied at once.
    Blocking, the bank's verification and a mismatch are changes too (the history)."""

    id: int
    payee_id: int
    destination_id: int | None
    action: str  # add, change, unblock, block, verified, mismatch
    proposed: DestinationDraft | None
    prepared_by: str
    prepared_at: str
    outcome: str  # WAITING, APPROVED, REJECTED, WITHDRAWN, DONE
    decided_by: str | None = None
    decided_at: str | None = None
    reason: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def waiting(self) -> bool:
        return self.outcome == "WAITING"


@dataclass(frozen=True)
class Match:
    """One answer to a search: the payee, and the destination that matched (if one did)."""

    payee: Payee
    destination: Destination | None
    field: str  # name, document, key, account, tag


class RegistryIndex:
    """The registry in memory, for typing: prefix search on each word of a name, on the
    document, on keys and accounts, on tags (sorted lists and bisection: a lookup is
    logarithmic in the registry's size) and exact lookup of a destination by its detail.

    Built at once (``RegistryIndex(payees, destinations)``) or a little at a time
    (:meth:`fill`), so that a window building one for 50,000 payees never stops answering."""

    def __init__(
        self, payees: Iterable[Payee] = (), destinations: Iterable[Destination] = ()
    ) -> None:
        self.payees: dict[int, Payee] = {}
        self.of_payee: dict[int, list[Destination]] = {}
        self.by_detail: dict[str, Destination] = {}
        self.by_name: list[Payee] = []
        """Every payee, by name (case aside): the registry's list when nothing is searched."""
        self._destinations: dict[int, Destination] = {}
        self._words: list[tuple[str, int]] = []
        self._documents: list[tuple[str, int]] = []
        self._tags: list[tuple[str, int]] = []
        self._details: list[tuple[str, int]] = []
        for _ in self.fill(payees, destinations):
            pass

    def fill(
        self, payees: Iterable[Payee], destinations: Iterable[Destination], step: int = STEP
    ) -> Iterator[None]:
        """Index these payees and destinations (into an empty index), pausing (one ``None``
        yielded) after every ``step`` rows or so of work: whoever drives it may let other
        work run at each pause. The index is whole when the iterator is exhausted."""
        words: list[tuple[str, int]] = []
        documents: list[tuple[str, int]] = []
        tags: list[tuple[str, int]] = []
        names: list[tuple[str, int]] = []
        for count, payee in enumerate(payees, 1):
            self.payees[payee.id] = payee
            folded = {part for word in payee.name.split() for part in _folded(word)}
            words.extend((word, payee.id) for word in folded)
            documents.append((payee.document.lower(), payee.id))
            tags.extend((" ".join(_folded(tag)), payee.id) for tag in payee.tags)
            names.append((payee.name.lower(), payee.id))
            if count % step == 0:
                yield
        details: list[tuple[str, int]] = []
        for count, destination in enumerate(destinations, 1):
            self.of_payee.setdefault(destination.payee_id, []).append(destination)
            self.by_detail[destination.detail] = destination
            self._destinations[destination.id] = destination
            details.append((_searchable(destination.detail), destination.id))
            if destination.draft.account:
                details.append((destination.draft.account, destination.id))
            if count % step == 0:
                yield
        self._words = yield from _sorted_in_steps(words, step)
        self._documents = yield from _sorted_in_steps(documents, step)
        self._tags = yield from _sorted_in_steps(tags, step)
        self._details = yield from _sorted_in_steps(details, step)
        ordered = yield from _sorted_in_steps(names, step)
        by_name: list[Payee] = []
        for start in range(0, len(ordered), step * 10):
            by_name.extend(self.payees[pid] for _, pid in ordered[start : start + step * 10])
            yield
        self.by_name = by_name

    def __len__(self) -> int:
        return len(self.payees)

    def owner_of(self, detail: str) -> Payee | None:
        destination = self.by_detail.get(detail)
        return None if destination is None else self.payees.get(destination.payee_id)

    def search(self, text: str, limit: int = 20) -> list[Match]:
        """Payees whose name's words start with the typed words (all of them), whose
        document, Pix key, account or tag starts with the text; by name."""
        query = (text or "").strip()
        if not query:
            return []
        found: dict[tuple[int, int | None], Match] = {}
        folded = fold(query)
        terms = folded.split()
        if terms:
            ids = None
            for term in terms:
                hits = {pid for _, pid in _prefixed(self._words, term, limit * 50)}
                ids = hits if ids is None else ids & hits
            for pid in sorted(ids or (), key=lambda p: self.payees[p].name)[:limit]:
                found[(pid, None)] = Match(self.payees[pid], None, "name")
        bare = re.sub(r"[\s./-]", "", query).lower()
        if len(bare) >= 3:
            for _, pid in _prefixed(self._documents, bare, limit):
                found.setdefault((pid, None), Match(self.payees[pid], None, "document"))
        if folded:
            for _, pid in _prefixed(self._tags, folded, limit):
                found.setdefault((pid, None), Match(self.payees[pid], None, "tag"))
        needle = _searchable(query)
        if len(needle) >= 3:
            for _, did in _prefixed(self._details, needle, limit):
                destination = self._destinations[did]
                payee = self.payees.get(destination.payee_id)
                if payee is not None:
                    kind = "key" if destination.kind is DestinationKind.PIX_KEY else "account"
                    found[(payee.id, None)] = Match(payee, destination, kind)
        return list(found.values())[:limit]

    def match(self, details: Sequence[str]) -> dict[str, Destination]:
        """The registered destinations among ``details`` (a batch's rows)."""
        by_detail = self.by_detail
        return {detail: by_detail[detail] for detail in details if detail in by_detail}


@functools.lru_cache(maxsize=100_000)
def _folded(word: str) -> tuple[str, ...]:
    """One word (or tag) folded, cached: a registry's names share most of their words."""
    return tuple(fold(word).split())


def _sorted_in_steps(
    items: list[tuple[str, int]], step: int
) -> Generator[None, None, list[tuple[str, int]]]:
    """``sorted(items)``, in runs of ``SORT_RUN`` merged a ``step`` at a time: one sort of
    300,000 entries would hold the interpreter (every thread) for half a second."""
    if len(items) <= SORT_RUN:
        return sorted(items)
    runs: list[list[tuple[str, int]]] = []
    for start in range(0, len(items), SORT_RUN):
        runs.append(sorted(items[start : start + SORT_RUN]))
        yield
    out: list[tuple[str, int]] = []
    for count, item in enumerate(heapq.merge(*runs), 1):
        out.append(item)
        if count % step == 0:
            yield
    return out


def _searchable(detail: str) -> str:
    return detail.lower().replace("+", "")


def _prefixed(items: list[tuple[str, int]], prefix: str, limit: int) -> list[tuple[str, int]]:
    start = bisect.bisect_left(items, (prefix, -1))
    out: list[tuple[str, int]] = []
    for item in items[start:]:
        if not item[0].startswith(prefix) or len(out) >= limit:
            break
        out.append(item)
    return out
