"""Slips and CSV batches scheduled (issue 35), against a sandbox bank of their own and on both
ledgers; the bank's clock is moved, never waited for.

What is proved: a slip due on a weekend is scheduled by default for the next business day
(the reason kept for the review) and leaves once on that day; a date after its due date is
warned about; a batch's ``data_pagamento`` column schedules its rows (rolled), every bad date
is a coded error on its line, the batch's date schedules the rows without one, and the rows
leave through the engine once on their day."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.sandbox_harness import RunningSandbox
from tests.services.conftest import module_sandbox
from tests.services.test_schedule import Desk, bank_payments, next_business_day
from treasury_app.domain import boleto
from treasury_app.domain.clock import format_date
from treasury_app.ledger.journal import EntryState

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: its clock only moves forward."""
    yield from module_sandbox(tmp_path_factory, f"{Path(__file__).stem}-{ledger_backend}")


@pytest.fixture
def desk(accounts_transport, ledger, control) -> Desk:  # type: ignore[no-untyped-def]
    return Desk(accounts_transport, ledger, control)


def next_saturday(after: dt.date) -> dt.date:
    day = after + dt.timedelta(days=2)
    while day.weekday() != 5:
        day += dt.timedelta(days=1)
    return day


def slip_due_on(due: dt.date, amount: str, today: dt.date) -> str:
    """A valid bank slip line the sandbox's registry answers for (due ``due``)."""
    barcode = boleto.build_bank_barcode("341", Decimal(amount), due, "1" * 25)
    return boleto.parse(barcode, today=today).digitable_line


async def test_a_slip_due_on_a_weekend_is_paid_once_on_the_next_business_day(desk: Desk) -> None:
    saturday = next_saturday(desk.today())
    review = await desk.billets.lookup(slip_due_on(saturday, "432.10", desk.today()))
    assert review.due_date == saturday
    scheduled = desk.schedule.schedule_billet(review)  # the default: its due date
    monday = next_business_day(saturday)
    assert scheduled.pay is not None and scheduled.pay.date == monday
    assert scheduled.pay.asked == saturday
    assert scheduled.pay.reason is not None and scheduled.pay.reason.code == "pay_date.weekend"
    assert not [w for w in scheduled.warnings if w.code == "scheduled.slip_after_due"]

    earlier = desk.schedule.schedule_billet(review, chosen=next_business_day(desk.today()))
    assert earlier.pay is not None and earlier.pay.date < monday and earlier.pay.reason is None
    later = desk.schedule.schedule_billet(review, chosen=next_business_day(monday))
    [after_due] = [w for w in later.warnings if w.code == "scheduled.slip_after_due"]
    assert after_due.params == {"due": saturday, "pay": next_business_day(monday)}

    entry = await desk.billets.pay(scheduled)
    assert entry.state == EntryState.PREPARED and entry.pay_date == monday
    desk.move_to(saturday, dt.time(9, 0))
    assert await desk.schedule.send_due() == []
    desk.move_to(monday, dt.time(8, 0))
    [sent] = await desk.schedule.send_due()  # read again: no fine on the next business day
    assert sent.id == entry.id and sent.state == EntryState.ACCEPTED
    assert await desk.schedule.send_due() == [] and await desk.schedule.held() == []


async def test_a_csv_batch_schedules_its_rows_by_their_dates_and_the_batch_date(
    desk: Desk,
) -> None:
    today = desk.today()
    saturday = next_saturday(today)
    monday = next_business_day(saturday)
    day = next_business_day(today)
    yesterday = today - dt.timedelta(days=1)
    text = (
        "chave;valor;data_pagamento\n"
        f"a@empresa.com.br;10,00;{format_date(saturday)}\n"
        f"b@empresa.com.br;20,00;{day.isoformat()}\n"
        "c@empresa.com.br;30,00;\n"
        "d@empresa.com.br;40,00;31/02/2027\n"
        "e@empresa.com.br;50,00;amanhã\n"
        f"f@empresa.com.br;60,00;{format_date(yesterday)}\n"
        "g@empresa.com.br;70,00;46000\n"
    )
    batch = await desk.payouts.parse_batch_csv(text)
    errors = {e.line: (e.column, e.reason.code) for e in batch.errors}
    assert errors == {
        5: ("data_pagamento", "payout.date_no_such_day"),
        6: ("data_pagamento", "payout.date_format"),
        7: ("data_pagamento", "schedule.past"),
        8: ("data_pagamento", "payout.date_format"),
    }
    assert [e.reason.params.get("typed") for e in batch.errors if e.line in (5, 6)] == [
        "31/02/2027",
        "amanhã",
    ]
    pays = {row.line: row.review.pay for row in batch.rows}
    assert pays[2] is not None and pays[2].date == monday and pays[2].asked == saturday
    assert pays[2].reason is not None and pays[2].reason.code == "pay_date.weekend"
    assert pays[3] is not None and pays[3].date == day and pays[3].reason is None
    assert pays[4] is None  # no date of its own: the batch's

    scheduled = desk.schedule.schedule_batch(batch, saturday)
    assert [row.review.pay.date for row in scheduled.rows] == [monday, day, monday]
    assert desk.schedule.schedule_batch(batch, None) is batch
    entries = await desk.payouts.send_batch(scheduled, drop_invalid=True)
    assert {e.state for e in entries} == {EntryState.PREPARED}
    assert sorted((e.amount, e.pay_date) for e in entries) == [
        (Decimal("10.00"), monday),
        (Decimal("20.00"), day),
        (Decimal("30.00"), monday),
    ]
    assert all(bank_payments(desk.control, e.idempotency_key) == 0 for e in entries)

    desk.move_to(day, dt.time(8, 0))
    [first] = await desk.schedule.send_due()
    assert first.amount == Decimal("20.00") and first.state == EntryState.ACCEPTED
    desk.move_to(monday, dt.time(8, 0))
    sent = await desk.schedule.send_due()
    assert sorted(e.amount for e in sent) == [Decimal("10.00"), Decimal("30.00")]
    assert await desk.schedule.send_due() == []
    assert all(bank_payments(desk.control, e.idempotency_key) == 1 for e in entries)
