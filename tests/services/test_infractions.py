"""InfractionsService against a real sandbox bank (its own, for this module) over mutual TLS:
listing with a status filter, detail, defenses checked locally before sending (text, status,
deadline), submitted, followed and audited; the bank's refusals as typed errors."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator, Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import (
    audit_text,
    control_of,
    running_bank,
    sandbox_now,
    sent,
    transport,
)
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import Infraction, InfractionStatus
from treasury_app.api.errors import BusinessRuleViolation, Forbidden, NotFound
from treasury_app.api.transport import ApiTransport
from treasury_app.ledger import Ledger
from treasury_app.services.infractions import (
    MAX_DEFENSE_LENGTH,
    DefenseError,
    InfractionsService,
    defense_problem,
)

DEFENSE = "O pagamento foi autorizado pelo cliente; segue o contrato assinado."


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: the last test moves its clock past a deadline."""
    with running_bank(tmp_path_factory.mktemp(f"infractions-bank-{ledger_backend}")) as running:
        yield running


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    with control_of(sandbox) as api:
        yield api


@pytest.fixture(scope="module")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "accounts", control) as opened:
        yield opened


@pytest.fixture(scope="module")
async def billets_only(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    """A transport whose token may only read slips: infractions answer 403."""
    async with transport(sandbox, "accounts", control, scopes=("billets.read",)) as opened:
        yield opened


@pytest.fixture
def client(accounts_transport: ApiTransport) -> AccountsClient:
    return AccountsClient(accounts_transport)


@pytest.fixture
def service(
    client: AccountsClient, ledger: Ledger, bank_clock: Callable[[], dt.datetime]
) -> InfractionsService:
    return InfractionsService(client, ledger, clock=bank_clock)


async def listed(service: InfractionsService, status: Any = None) -> list[Infraction]:
    return [i async for i in service.infractions(status)]


async def one_with(service: InfractionsService, status: InfractionStatus) -> Infraction:
    return next(i for i in await listed(service) if i.status == status)


# Reading -------------------------------------------------------------------------------------
async def test_list_and_filter(
    service: InfractionsService, accounts_transport: ApiTransport
) -> None:
    everything = await listed(service)
    assert len(everything) == 3  # the seed: two open, one closed
    assert [i.status for i in everything].count(InfractionStatus.OPEN) == 2
    stamps = [i.created_at for i in everything]
    assert stamps == sorted(stamps, reverse=True)  # type: ignore[type-var]
    assert all(isinstance(i.amount, Decimal) for i in everything)
    opened = await listed(service, InfractionStatus.OPEN)
    closed = await listed(service, "closed")
    assert {i.status for i in opened} == {InfractionStatus.OPEN} and len(opened) == 2
    assert [i.status for i in closed] == [InfractionStatus.CLOSED]
    assert await listed(service, InfractionStatus.UNDER_REVIEW) == []

    before = sent(accounts_transport)
    one_by_one = [i async for i in service.infractions(page_size=1)]
    assert [i.id for i in one_by_one] == [i.id for i in everything]
    assert sent(accounts_transport) - before == 3  # one page each


async def test_detail_and_defenses(service: InfractionsService) -> None:
    first = (await listed(service))[0]
    detail = await service.infraction(first.id)
    assert detail == first
    assert detail.defense_deadline is not None and detail.defense_deadline.tzinfo is not None
    assert await service.defenses(first.id) == []
    with pytest.raises(NotFound):
        await service.infraction("INF000")
    with pytest.raises(NotFound):
        await service.defenses("INF000")


@pytest.mark.parametrize(
    "call",
    [
        lambda s: anext(s.infractions("PENDING")),
        lambda s: anext(s.infractions(page_size=0)),
        lambda s: anext(s.infractions(page_size=1001)),
        lambda s: s.infraction("  "),
        lambda s: s.defenses(""),
    ],
)
async def test_reading_arguments_are_checked_before_sending(
    service: InfractionsService,
    accounts_transport: ApiTransport,
    call: Callable[[InfractionsService], Any],
) -> None:
    before = sent(accounts_transport)
    with pytest.raises(ValueError):
        await call(service)
    assert sent(accounts_transport) == before


async def test_reading_refused_by_the_bank(
    billets_only: ApiTransport, ledger: Ledger, bank_clock: Callable[[], dt.datetime]
) -> None:
    service = InfractionsService(AccountsClient(billets_only), ledger, clock=bank_clock)
    with pytest.raises(Forbidden):
        await listed(service)
    with pytest.raises(Forbidden):
        await service.infraction("INF000")


# Local checks of a defense -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("description", "attachments", "field"),
    [
        ("", (), "description"),
        ("   \n\t ", (), "description"),
        ("x" * (MAX_DEFENSE_LENGTH + 1), (), "description"),
        (" " + "x" * MAX_DEFENSE_LENGTH + "y", (), "description"),
        (DEFENSE, ("contrato.pdf", "  "), "attachments"),
        (DEFENSE, "contrato.pdf", "attachments"),
        (DEFENSE, ("x" * 256,), "attachments"),
    ],
)
async def test_defense_text_is_checked_before_sending(
    service: InfractionsService,
    accounts_transport: ApiTransport,
    ledger: Ledger,
    description: str,
    attachments: Any,
    field: str,
) -> None:
    target = await one_with(service, InfractionStatus.OPEN)
    audited = await ledger.audit.entries()  # what a new ledger holds already
    before = sent(accounts_transport)
    with pytest.raises(DefenseError) as error:
        await service.submit_defense(target.id, description, attachments)
    assert error.value.field == field
    assert str(error.value)
    assert sent(accounts_transport) == before  # not even the infraction was read
    assert await ledger.audit.entries() == audited  # nothing audited


async def test_closed_late_or_unknown_infractions_are_refused_locally(
    service: InfractionsService,
    client: AccountsClient,
    ledger: Ledger,
    accounts_transport: ApiTransport,
) -> None:
    closed = await one_with(service, InfractionStatus.CLOSED)
    target = await one_with(service, InfractionStatus.OPEN)
    assert service.defense_problem(target) is None
    audited = await ledger.audit.entries()  # what a new ledger holds already

    before = sent(accounts_transport)
    with pytest.raises(DefenseError, match=r"defense\.infraction_closed") as error:
        await service.submit_defense(closed, DEFENSE)  # as last read: nothing is sent
    assert error.value.field == "status"
    assert sent(accounts_transport) == before
    with pytest.raises(DefenseError) as error:
        await service.submit_defense(closed.id, DEFENSE)  # by id: read, then refused
    assert error.value.field == "status"
    assert sent(accounts_transport) - before == 1

    assert target.defense_deadline is not None
    late = InfractionsService(
        client, ledger, clock=lambda: target.defense_deadline + dt.timedelta(seconds=1)
    )
    problem = late.defense_problem(target)
    assert problem is not None and problem.field == "deadline"
    before = sent(accounts_transport)
    with pytest.raises(DefenseError, match=r"defense\.deadline_passed") as error:
        await late.submit_defense(target, DEFENSE)
    assert error.value.field == "deadline"
    on_time = target.defense_deadline
    assert defense_problem(target, on_time) is None  # the deadline itself is still on time

    strange = target.model_copy(update={"status": "SUSPENDED"})
    with pytest.raises(DefenseError) as error:
        await service.submit_defense(strange, DEFENSE)
    assert error.value.field == "status"
    assert sent(accounts_transport) == before
    assert await ledger.audit.entries() == audited  # nothing audited
    assert await service.defenses(closed.id) == []


# Submitting and following --------------------------------------------------------------------
async def test_submit_and_follow_defenses(
    service: InfractionsService, ledger: Ledger, accounts_transport: ApiTransport
) -> None:
    target = await one_with(service, InfractionStatus.OPEN)
    before = sent(accounts_transport)
    defense = await service.submit_defense(
        target, "  " + DEFENSE + "\n", attachments=[" contrato.pdf ", "extrato.pdf"]
    )
    assert sent(accounts_transport) - before == 1  # the model was used as is: one POST
    assert defense.status == "SUBMITTED"
    assert defense.infraction_id == target.id
    assert defense.description == DEFENSE  # trimmed
    assert [a.name for a in defense.attachments] == ["contrato.pdf", "extrato.pdf"]
    assert (await service.infraction(target.id)).status is InfractionStatus.UNDER_REVIEW

    # Under review it still takes a further defense; by id, the status is read fresh.
    longest = "y" * MAX_DEFENSE_LENGTH
    before = sent(accounts_transport)
    follow_up = await service.submit_defense(target.id, longest)
    assert sent(accounts_transport) - before == 2  # GET the infraction, POST the defense
    assert follow_up.description == longest
    assert [d.id for d in await service.defenses(target.id)] == [defense.id, follow_up.id]

    rows = (await ledger.audit.entries(action="infraction.defense"))[::-1]
    assert [(r.outcome, r.reference, r.amount) for r in rows] == [
        ("ok", target.id, target.amount),
        ("ok", target.id, target.amount),
    ]
    assert isinstance(rows[0].amount, Decimal)
    assert rows[0].details["description"] == DEFENSE
    assert rows[0].details["attachments"] == ["contrato.pdf", "extrato.pdf"]
    assert rows[0].details["defense_id"] == defense.id
    assert rows[0].details["infraction_status"] == "OPEN"
    assert rows[1].details["infraction_status"] == "UNDER_REVIEW"
    assert rows[1].details["defense_id"] == follow_up.id
    assert all(r.os_user == "tester" and r.profile == "test" for r in rows)


async def test_the_banks_refusals_are_typed_and_audited(
    service: InfractionsService,
    billets_only: ApiTransport,
    ledger: Ledger,
    bank_clock: Callable[[], dt.datetime],
) -> None:
    closed = await one_with(service, InfractionStatus.CLOSED)
    stale = closed.model_copy(update={"status": InfractionStatus.OPEN, "defense_deadline": None})
    with pytest.raises(BusinessRuleViolation) as error:  # the bank knows it is closed
        await service.submit_defense(stale, DEFENSE)
    assert error.value.status == 422
    ghost = Infraction(id="INF000", status=InfractionStatus.OPEN)
    with pytest.raises(NotFound):
        await service.submit_defense(ghost, DEFENSE)
    target = await one_with(service, InfractionStatus.OPEN)
    no_scope = InfractionsService(AccountsClient(billets_only), ledger, clock=bank_clock)
    with pytest.raises(Forbidden):
        await no_scope.submit_defense(target, DEFENSE)
    with pytest.raises(NotFound):  # by id, the read fails first: nothing sent, no row
        await service.submit_defense("INF000", DEFENSE)

    rows = (await ledger.audit.entries(action="infraction.defense"))[::-1]
    assert [(r.outcome, r.reference, r.details["status"]) for r in rows] == [
        ("rejected", closed.id, 422),
        ("rejected", "INF000", 404),
        ("rejected", target.id, 403),
    ]
    assert rows[0].amount == closed.amount
    assert rows[0].details["description"] == DEFENSE
    assert await service.defenses(closed.id) == []


async def test_the_bank_enforces_the_deadline_too(
    service: InfractionsService,
    client: AccountsClient,
    ledger: Ledger,
    control: Api,
) -> None:
    """Last in the module: moves the bank's clock past the first deadline."""
    target = min(
        (i for i in await listed(service) if i.status != InfractionStatus.CLOSED),
        key=lambda i: i.defense_deadline or dt.datetime.max.replace(tzinfo=dt.UTC),
    )
    assert target.defense_deadline is not None
    stale_clock = sandbox_now(control)
    control.advance((target.defense_deadline - stale_clock).total_seconds() + 60)

    with pytest.raises(DefenseError) as error:  # the clock agrees with the bank's
        await service.submit_defense(target.id, DEFENSE)
    assert error.value.field == "deadline"
    behind = InfractionsService(client, ledger, clock=lambda: stale_clock)
    with pytest.raises(BusinessRuleViolation) as refused:  # a clock behind: the bank says no
        await behind.submit_defense(target, DEFENSE)
    assert refused.value.status == 422
    (row,) = await ledger.audit.entries(action="infraction.defense")
    assert (row.outcome, row.details["status"]) == ("rejected", 422)
    assert "prazo" in row.details["detail"]
    assert DEFENSE in await audit_text(ledger)
