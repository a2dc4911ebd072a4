"""The team audit's hash chain, recomputed outside the database.

Each audit row's ``hash`` is ``sha256(prev_hash || canonical(row))`` in lowercase hex, where
the canonical form is the tag ``audit-v1`` followed by each field length-prefixed
(``<characters>:<text>``, ``N`` for a null): ``seq``, ``at``, ``actor``, ``profile``,
``action``, ``outcome``, ``reference``, ``amount``, ``details``. The database computes it when
it seals a row (chains it after the head: the insert's trigger ``treasury.audit_chain`` when
the head is free, else ``treasury.seal_audit`` soon after; schema 5,
:mod:`~treasury_app.ledger.team.feed_schema`); :func:`verify_chain` recomputes it here over the
sealed rows, so a row edited, removed or inserted out of turn is found, and names the first
broken row. The owner role could rewrite the whole chain consistently: that is caught only by
an anchor kept outside the database (a head ``(seq, hash)`` printed by ``treasury-admin
verify-audit`` or remembered by each desktop) that the chain no longer contains.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from treasury_app.ledger.team.schema import GENESIS

FIELDS = ("seq", "at", "actor", "profile", "action", "outcome", "reference", "amount", "details")


def length_prefixed(value: object) -> str:
    if value is None:
        return "N"
    text = str(value)
    return f"{len(text)}:{text}"


def link(prev_hash: str, row: Mapping[str, Any]) -> str:
    """The hash of ``row`` chained after ``prev_hash`` (as the database computes it)."""
    canonical = prev_hash + "audit-v1" + "".join(length_prefixed(row[name]) for name in FIELDS)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Anchor:
    """A point of the chain remembered outside the database."""

    seq: int
    hash: str

    def __str__(self) -> str:
        return f"{self.seq}:{self.hash}"

    @classmethod
    def parse(cls, text: str) -> Anchor:
        seq, _, digest = text.strip().partition(":")
        if (
            not seq.isdigit()
            or len(digest) != 64
            or any(c not in "0123456789abcdef" for c in digest)
        ):
            raise ValueError(f"not an audit anchor (expected <seq>:<64 hex digits>): {text!r}")
        return cls(int(seq), digest)


@dataclass(frozen=True)
class ChainReport:
    rows: int
    head: Anchor
    broken_at: int | None
    """The ``seq`` of the first row that does not verify (``None``: the chain is whole)."""
    reason: str
    anchors_missing: tuple[Anchor, ...] = ()

    @property
    def ok(self) -> bool:
        return self.broken_at is None and not self.anchors_missing


def verify_chain(
    rows: Iterable[Mapping[str, Any]],
    *,
    head: Anchor | None = None,
    anchors: Iterable[Anchor] = (),
) -> ChainReport:
    """Walk ``rows`` in ``seq`` order: each must follow the previous one (``seq`` + 1, its
    ``prev_hash`` the previous ``hash``) and hash to its stored ``hash``; ``head`` (the
    database's ``audit_head``) must be the last row; each of ``anchors`` must be a row of the
    chain with that very hash."""
    wanted = {anchor.seq: anchor for anchor in anchors}
    seen: set[Anchor] = set()
    prev = GENESIS
    expected = 1
    count = 0
    last = Anchor(0, GENESIS)
    for row in rows:
        seq = int(row["seq"])
        if seq != expected:
            reason = f"row {expected} is missing" if seq > expected else "rows out of order"
            return ChainReport(count, last, expected, reason)
        if row["prev_hash"] != prev:
            return ChainReport(count, last, seq, "it does not follow the previous row")
        digest = link(prev, row)
        if digest != row["hash"]:
            return ChainReport(count, last, seq, "its content was changed after it was written")
        anchor = wanted.get(seq)
        if anchor is not None and anchor.hash == digest:
            seen.add(anchor)
        prev = digest
        last = Anchor(seq, digest)
        expected += 1
        count += 1
    if head is not None and head != last:
        if head.seq > last.seq:
            return ChainReport(count, last, last.seq + 1, f"rows after {last.seq} were removed")
        return ChainReport(count, last, head.seq, "the chain's head does not match its rows")
    missing = tuple(anchor for anchor in wanted.values() if anchor not in seen)
    reason = "" if not missing else "the chain no longer contains a head seen before"
    return ChainReport(count, last, None, reason, missing)
