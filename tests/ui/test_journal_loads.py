"""The lists of journal entries read the ledger in the background (it may be a team database
across the network): the rows shown stay until the answer arrives, an answer overtaken by a
newer read or arriving after the list closed is dropped, and marks read per row (a held
payment, an archived receipt) come with the rows, never from ``data()``."""

from __future__ import annotations

import asyncio
import dataclasses
from decimal import Decimal
from types import SimpleNamespace

from tests.waiting import qt_wait_until
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, HistoryItem
from treasury_app.services.payments import HELD_NOTE
from treasury_app.ui.models.paid_slips_model import Column as SlipColumn
from treasury_app.ui.models.paid_slips_model import PaidSlipsModel
from treasury_app.ui.models.payments_model import Column, PaymentsModel


def _entry(entry_id: int, kind: EntryKind = EntryKind.PIX_KEY, **changes) -> Entry:
    base = Entry(
        id=entry_id,
        kind=kind,
        payee_name="",
        payee_document="",
        payee_detail=f"payee{entry_id}@empresa.com.br",
        amount=Decimal("1.00"),
        description="",
        payment_flow="INSTANT",
        idempotency_key=f"key-{entry_id}",
        request_json="{}",
        state=EntryState.ACCEPTED,
        bank_status="LIQUIDATED",
        final=True,
        end_to_end_id=None,
        bank_id=f"bank-{entry_id}",
        error=None,
        created_at="2026-11-18T13:00:00.000Z",
        updated_at="2026-11-18T13:00:00.000Z",
        created_by="tester",
        profile="test",
        batch=None,
    )
    return dataclasses.replace(base, **changes)


class SlowJournal:
    """A journal whose every ``recent`` waits until the test answers it."""

    def __init__(self) -> None:
        self.pending: list[tuple[asyncio.Future[list[Entry]], list[Entry]]] = []
        self.histories: dict[int, list[HistoryItem]] = {}

    async def recent(self, **_filters) -> list[Entry]:
        answer: asyncio.Future[list[Entry]] = asyncio.get_running_loop().create_future()
        self.pending.append((answer, []))
        return list(await answer)

    def answer(self, index: int, rows: list[Entry]) -> None:
        self.pending[index][0].set_result(rows)

    async def history(self, entry_id: int) -> list[HistoryItem]:
        return self.histories.get(entry_id, [])


def _ledger(journal: SlowJournal, archived: set[int] = frozenset()) -> SimpleNamespace:
    async def for_entry(entry_id: int):
        return object() if entry_id in archived else None

    return SimpleNamespace(journal=journal, receipts=SimpleNamespace(for_entry=for_entry))


def test_the_newest_read_wins_and_rows_stay_until_it_answers(qtbot) -> None:
    journal = SlowJournal()
    model = PaymentsModel(_ledger(journal))
    first = model.reload()
    qt_wait_until(qtbot, lambda: len(journal.pending) == 1, "len(journal.pending) == 1")
    journal.answer(0, [_entry(1)])
    qt_wait_until(qtbot, first.done, "first done")
    assert first.result() is True and [e.id for e in model.rows()] == [1]

    second = model.reload()
    qt_wait_until(qtbot, lambda: len(journal.pending) == 2, "len(journal.pending) == 2")
    assert [e.id for e in model.rows()] == [1]  # shown while the read is on its way
    third = model.reload()  # the filters changed again, say
    qt_wait_until(qtbot, lambda: len(journal.pending) == 3, "len(journal.pending) == 3")
    assert second.cancelled() or not second.done()
    journal.answer(2, [_entry(3), _entry(1)])
    qt_wait_until(qtbot, third.done, "third done")
    assert third.result() is True and [e.id for e in model.rows()] == [3, 1]
    if not journal.pending[1][0].done():
        journal.answer(1, [_entry(2)])  # the overtaken answer, late: dropped
    qt_wait_until(qtbot, second.done, "second done")  # the overtaken read is over, whatever it did
    assert [e.id for e in model.rows()] == [3, 1]


def test_a_closed_model_drops_the_answer_and_a_change_meanwhile_is_kept(qtbot) -> None:
    journal = SlowJournal()
    model = PaymentsModel(_ledger(journal))
    task = asyncio.ensure_future(model.load())
    qt_wait_until(qtbot, lambda: len(journal.pending) == 1, "len(journal.pending) == 1")
    model.load_task = task  # as reload() would
    newer = _entry(1, updated_at="2026-11-18T13:05:00.000Z", bank_status="CANCELED")
    model.upsert(newer)  # the tracker's notification arrives while the query runs
    journal.answer(0, [_entry(1), _entry(2)])
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is True
    assert model.entry(model.row_of(1)).bank_status == "CANCELED"  # not the older row

    closed = SlowJournal()
    gone = PaymentsModel(_ledger(closed))
    late = gone.reload()
    qt_wait_until(qtbot, lambda: len(closed.pending) == 1, "len(closed.pending) == 1")
    direct = asyncio.ensure_future(gone.load())  # a read close() cannot cancel
    qt_wait_until(qtbot, lambda: len(closed.pending) == 2, "len(closed.pending) == 2")
    gone.close()
    qt_wait_until(qtbot, late.done, "late done")
    assert late.cancelled()
    closed.answer(1, [_entry(9)])  # the answer arrives after the list closed: dropped
    qt_wait_until(qtbot, direct.done, "direct done")
    assert direct.result() is False and gone.rows() == []


def test_marks_come_with_the_rows_and_follow_changes(qtbot) -> None:
    journal = SlowJournal()
    held = _entry(5, state=EntryState.UNKNOWN, bank_status=None, final=False)
    journal.histories[5] = [
        HistoryItem(
            at="2026-11-18T13:00:00.000Z",
            state=EntryState.UNKNOWN,
            bank_status=None,
            note=HELD_NOTE,
        )
    ]
    model = PaymentsModel(_ledger(journal))
    task = model.reload()
    qt_wait_until(qtbot, lambda: len(journal.pending) == 1, "len(journal.pending) == 1")
    journal.answer(0, [held, _entry(6)])
    qt_wait_until(qtbot, task.done, "task done")
    status = model.index(model.row_of(5), Column.STATUS).data()
    assert status == "Not confirmed by the bank — waiting for you"

    journal.histories[5] = []  # sent by a person: no longer held
    model.upsert(dataclasses.replace(held, state=EntryState.SENT))
    qt_wait_until(
        qtbot,
        lambda: (
            model.index(model.row_of(5), Column.STATUS).data() == "UNKNOWN — checking with the bank"
        ),
        'model.index(model.row_of(5), Column.STATUS).data() == "UNKNOWN — checking with the ...',
    )

    slips = SlowJournal()
    paid = PaidSlipsModel(_ledger(slips, archived={7}))
    loaded = paid.reload()
    qt_wait_until(qtbot, lambda: len(slips.pending) == 1, "len(slips.pending) == 1")
    slips.answer(0, [_entry(7, EntryKind.BILLET), _entry(8, EntryKind.BILLET)])
    qt_wait_until(qtbot, loaded.done, "loaded done")
    assert paid.index(paid.row_of(7), SlipColumn.RECEIPT).data() == "Archived"
    assert paid.index(paid.row_of(8), SlipColumn.RECEIPT).data() == ""
    paid.receipt_changed(8)
    assert paid.index(paid.row_of(8), SlipColumn.RECEIPT).data() == "Archived"
