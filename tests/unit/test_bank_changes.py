"""What a desktop makes of the bank's notifications, without a database or a bank: the
reading of the receiver's rows fenced on the database's snapshots
(:class:`~treasury_app.ledger.team.bank_events.ChangesReader`), and the paced queue of bank
reads the lists take from (:class:`~treasury_app.services.refresh_queue.RefreshQueue`)."""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Any

from treasury_app.ledger.team.bank_events import MAX_LAG, PRIME_LOOKBACK, BankChanges, ChangesReader
from treasury_app.services.refresh_queue import RefreshQueue

T0 = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


def at(seconds: float) -> dt.datetime:
    return T0 + dt.timedelta(seconds=seconds)


def reading(
    now: float, xmin: int, xmax: int, *rows: tuple[str, str, str, float]
) -> list[dict[str, Any]]:
    """One reading's rows as ``CHANGES_SQL`` answers them: (kind, ref, key, written at)."""
    snapshot = {"xmin": xmin, "xmax": xmax, "at": at(now)}
    if not rows:
        return [{**snapshot, "kind": None, "ref": None, "key": None, "changed_at": None}]
    return [
        {**snapshot, "kind": kind, "ref": ref, "key": key, "changed_at": at(written)}
        for kind, ref, key, written in rows
    ]


def charge(txid: str, written: float) -> tuple[str, str, str, float]:
    return ("charge", txid, f"charge:{txid}", written)


def test_the_first_reading_primes_and_each_version_is_told_once() -> None:
    reader = ChangesReader()
    # Transaction 10 is in progress at the first reading: the floor stays a minute back.
    assert reader.take(reading(100, 10, 11, charge("TXOLD", 90))) == BankChanges()
    assert reader.floor == at(100) - PRIME_LOOKBACK
    told = reader.take(reading(101, 11, 12, charge("TXOLD", 90), charge("TXNEW", 100.5)))
    assert told == BankChanges(charges=frozenset({"TXNEW"}))
    assert reader.floor == at(100)  # 10 ended
    assert reader.take(reading(102, 12, 12, charge("TXNEW", 100.5))) == BankChanges()
    rec = ("recurrence", "RR1", "cobr:TX9", 102.2)
    pix = ("received", "E1", "pix:E1", 102.3)
    told = reader.take(reading(103, 12, 12, charge("TXNEW", 102.5), rec, pix))
    assert told == BankChanges(
        charges=frozenset({"TXNEW"}), received=frozenset({"E1"}), recurrences=frozenset({"RR1"})
    )
    assert not BankChanges() and BankChanges(everything=True)


def test_the_floor_waits_for_the_transactions_in_progress_at_a_reading() -> None:
    reader = ChangesReader()
    reader.take(reading(100, 10, 10))  # primed, nothing in progress: the floor is 100
    assert reader.floor == at(100)
    # Transaction 11 wrote at 100.2 and is still open at the reading at 101 (xmin 11); 12
    # wrote at 100.5 and committed: told, but the floor stays below 11's row.
    told = reader.take(reading(101, 11, 13, charge("TX12", 100.5)))
    assert told.charges == {"TX12"} and reader.floor == at(100)
    told = reader.take(reading(102, 11, 13, charge("TX12", 100.5)))  # 11 still open
    assert told == BankChanges() and reader.floor == at(100)
    # 11 commits: the next reading sees its row (written before the one told) and the floor
    # moves to the first reading's instant at which 11 was in progress.
    told = reader.take(reading(103, 13, 13, charge("TX11", 100.2), charge("TX12", 100.5)))
    assert told.charges == {"TX11"}
    assert reader.floor == at(103)


def test_a_transaction_left_open_holds_the_floor_at_most_max_lag() -> None:
    reader = ChangesReader()
    reader.take(reading(0, 5, 5))
    later = MAX_LAG.total_seconds() + 60
    reader.take(reading(later, 5, 9))  # 5 never ends
    assert reader.floor == at(later) - MAX_LAG


async def test_the_queue_reads_each_reference_once_and_paces_the_turns() -> None:
    now = [0.0]
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        now[0] += seconds

    queue = RefreshQueue(per_window=2, window=1.0, clock=lambda: now[0], sleep=sleep)
    queue.add(["TX1", "TX2", "TX1", "", "TX3"])
    queue.add(["TX2"])
    assert len(queue) == 3
    assert [await queue.next(), await queue.next()] == ["TX1", "TX2"]
    assert slept == []
    queue.add(["TX1"])  # named again after its read began: read once more, later
    assert await queue.next() == "TX3" and slept == [1.0]  # the third turn waits its window
    assert await queue.next() == "TX1" and slept == [1.0]
    assert await queue.next() is None and queue.given == 4


async def test_a_reference_named_while_the_queue_waits_its_turn_is_taken_then() -> None:
    queue = RefreshQueue(per_window=1, window=0.05)
    queue.add(["TX1", "TX2"])
    assert await queue.next() == "TX1"
    waiting = asyncio.ensure_future(queue.next())
    await asyncio.sleep(0)
    queue.add(["TX2", "TX3"])
    assert await waiting == "TX2"
    assert len(queue) == 1
