"""Scheduled payments and the payee registry's blocked destinations, against a sandbox bank of
their own (real mutual TLS), on both ledgers (issues 35 and 36): a series whose key is
blocked after it was created journals no new occurrence, and its occurrence due on the day
is held (``scheduled.destination_blocked``) instead of sent, "Send now" refused while the key
stays blocked; unblocked (in a team, approved by a second person), new occurrences are
journaled again and the held one is sent."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

from tests.ledger_backends import team
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.conftest import module_sandbox
from tests.services.test_schedule import Desk, bank_payments, next_business_day
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.payees import DestinationState
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.sandbox import seed
from treasury_app.services.calendar import horizon
from treasury_app.services.payees import PayeeService
from treasury_app.services.payments import DestinationBlocked
from treasury_app.services.schedule import DESTINATION_BLOCKED, ScheduleError

pytestmark = pytest.mark.usefixtures("clean_sandbox")

KEY = "aluguel@imobiliaria.com.br"


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: its clock only moves forward."""
    yield from module_sandbox(tmp_path_factory, f"{Path(__file__).stem}-{ledger_backend}")


@pytest.fixture
def desk(accounts_transport: ApiTransport, ledger: Ledger, control: Api) -> Desk:
    return Desk(accounts_transport, ledger, control)


def second_person_approves(ledger: Ledger, change_id: int) -> None:
    """In a team, another login (an approver, not the desk's) approves a registry change."""
    databases = team()
    databases.person("bruno")
    name = ledger.settings.dbname  # type: ignore[attr-defined]
    with psycopg.connect(databases.server.url(name, user="bruno"), autocommit=True) as conn:
        conn.execute("SELECT treasury.decide_destination(%s, 'APPROVED', '')", (change_id,))


def no_cooling_off(ledger: Ledger) -> None:
    """The registry's cooling-off off (its extra approval has tests of its own)."""
    if ledger.backend == "team":
        name = ledger.settings.dbname  # type: ignore[attr-defined]
        with psycopg.connect(team().server.url(name), autocommit=True) as conn:
            conn.execute("UPDATE treasury.registry_policy SET cooling_hours = 0")


async def test_a_series_to_a_key_blocked_after_it_was_created_stops_and_goes_on_unblocked(
    desk: Desk,
) -> None:
    ledger = desk.ledger
    no_cooling_off(ledger)
    registry = PayeeService(ledger)
    payee = await registry.save_payee("Imobiliária Centro", seed.document_for(KEY))
    added = await registry.add(payee.id, registry.key(KEY))
    if ledger.backend == "team":
        second_person_approves(ledger, added.id)
    [destination] = await ledger.payees.destinations(payee.id)

    today = desk.today()
    review = await desk.payouts.prepare_key(KEY, "1500.00")
    rule = SeriesRule(Frequency.WEEKLY, next_business_day(today), count=10)
    series_id, made = await desk.schedule.create_series(review, rule)
    assert made

    _first, last = horizon(today)
    assert [p for p in await desk.schedule.planned(today, last) if p.series_id == series_id]
    blocked = await registry.block(destination.id, "e-mail suspeito pedindo outra chave")
    assert blocked.state is DestinationState.BLOCKED
    with pytest.raises(ScheduleError) as refused:  # no new series to it either
        await desk.schedule.create_series(await desk.payouts.prepare_key(KEY, "10.00"), rule)
    assert refused.value.code == "registry.blocked"

    # Blocked, its occurrences not journaled yet are not planned on the calendar either.
    assert [p for p in await desk.schedule.planned(today, last) if p.series_id == series_id] == []

    # Its first occurrence's day: the horizon moved on a week, yet nothing new is journaled,
    # and the occurrence due is held, not sent.
    first = made[0]
    assert first.pay_date is not None
    desk.move_to(first.pay_date, dt.time(8, 0))
    assert await desk.schedule.top_up() == []
    assert await desk.schedule.send_due() == []
    assert len(await ledger.schedule.of_series(series_id)) == len(made)
    [held] = await desk.schedule.held()
    assert held.entry.id == first.id
    assert held.hold.code == DESTINATION_BLOCKED
    assert held.hold.reason.params == {"detail": KEY, "owner": "Imobiliária Centro"}
    assert (await ledger.journal.get(first.id)).state == EntryState.PREPARED
    assert bank_payments(desk.control, first.idempotency_key) == 0
    with pytest.raises(ScheduleError) as still:  # "Send now" while it is blocked
        await desk.schedule.send_now(first.id)
    assert still.value.code == "registry.blocked"
    assert [h.entry.id for h in await desk.schedule.held()] == [first.id]
    assert bank_payments(desk.control, first.idempotency_key) == 0

    # Unblocked (a team: prepared by the desk, approved by a second person): it goes on.
    change = await registry.unblock(payee.id, destination.id)
    if ledger.backend == "team":
        assert await desk.schedule.top_up() == []  # waiting for the approval: still blocked
        second_person_approves(ledger, change.id)
    more = await desk.schedule.top_up()
    assert more and all(e.series_id == series_id for e in more)
    sent = await desk.schedule.send_now(first.id)
    assert sent.state == EntryState.ACCEPTED
    assert bank_payments(desk.control, first.idempotency_key) == 1
    assert await desk.schedule.held() == []


async def test_a_payment_journaled_before_its_key_was_blocked_leaves_by_no_path(
    desk: Desk,
) -> None:
    """Journaled (and, in a team, approvable) before its key was blocked: whoever sends it
    after the block (an approval's release, the start's release, the due sender even when the
    block lands while the day's payments go out) sends nothing to the bank."""
    ledger = desk.ledger
    no_cooling_off(ledger)
    registry = PayeeService(ledger)
    payee = await registry.save_payee("Imobiliária Centro", seed.document_for(KEY))
    added = await registry.add(payee.id, registry.key(KEY))
    if ledger.backend == "team":
        second_person_approves(ledger, added.id)
    [destination] = await ledger.payees.destinations(payee.id)
    day = next_business_day(desk.today())
    first = await desk.payouts.send(
        desk.schedule.schedule_payout(await desk.payouts.prepare_key(KEY, "700.00"), day)
    )
    second = await desk.payouts.send(
        desk.schedule.schedule_payout(await desk.payouts.prepare_key(KEY, "800.00"), day)
    )
    assert {first.state, second.state} == {EntryState.PREPARED}
    desk.move_to(day, dt.time(8, 0))

    # The block lands while the day's first payment is checked, after the day's block check:
    # the per-send check holds both, and the bank sees neither.
    checked = desk.schedule._check_on_the_day
    blocking: list[bool] = []

    async def block_meanwhile(entry, now):  # type: ignore[no-untyped-def]
        if not blocking:
            blocking.append(True)
            await registry.block(destination.id, "outra chave pedida por e-mail")
        return await checked(entry, now)

    desk.schedule._check_on_the_day = block_meanwhile  # type: ignore[method-assign]
    assert await desk.schedule.send_due() == []
    assert blocking == [True]
    held = {h.entry.id: h.hold for h in await desk.schedule.held()}
    assert set(held) == {first.id, second.id}
    assert {h.code for h in held.values()} == {DESTINATION_BLOCKED}
    for entry in (first, second):
        assert (await ledger.journal.get(entry.id)).state == EntryState.PREPARED
        assert bank_payments(desk.control, entry.idempotency_key) == 0

    # Sent directly, as an approval's release does: refused with the registry's code.
    with pytest.raises(DestinationBlocked) as refused:
        await desk.engine.send(await ledger.journal.get(first.id))
    assert refused.value.code == "registry.blocked"
    assert refused.value.params == {"detail": KEY, "owner": "Imobiliária Centro"}
    assert bank_payments(desk.control, first.idempotency_key) == 0
