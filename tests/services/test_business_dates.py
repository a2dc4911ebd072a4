"""Business dates are Brasília dates, whatever the UTC date: a slip due today is still due
today at 23:30 in Brasília (UTC has already moved to tomorrow) and overdue at 00:30 of the next
day in Brasília; the services read the date from the clock they are given (the sandbox bank's
here), and agree with the bank's own count of days late at both edges.

This module has a sandbox of its own (its clock runs late into the night)."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.sandbox.conftest import Api
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.clock import Clock
from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger
from treasury_app.services.billets import BilletsService, is_overdue
from treasury_app.services.payments import PaymentEngine

DUE_TODAY = "Energia elétrica"  # seeded due on the sandbox's first day, 2026-11-18
FIRST_DAY = dt.date(2026, 11, 18)

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture
def billets(accounts_transport: ApiTransport, ledger: Ledger, bank_clock: Clock) -> BilletsService:
    engine = PaymentEngine(AccountsClient(accounts_transport), ledger)
    return BilletsService(engine, engine.accounts, ledger, clock=bank_clock)


def _overdue_warning(warnings: tuple[Reason, ...]) -> bool:
    return any(w.code.startswith("billet.overdue") for w in warnings)


async def test_due_today_until_midnight_in_brasilia_not_utc(
    billets: BilletsService, control: Api
) -> None:
    code = control.slips()[DUE_TODAY]["digitableCode"]

    # 21:30 in Brasília; UTC is already past midnight (the 19th).
    control.control("POST", "/sandbox/clock", {"set": "2026-11-19T00:30:00Z"})
    assert billets.today() == FIRST_DAY
    review = await billets.lookup(code)
    assert review.due_date == FIRST_DAY
    assert review.info.days_late == 0 and not _overdue_warning(review.warnings)

    # 23:30 in Brasília, 02:30 UTC on the 19th: still due today.
    control.control("POST", "/sandbox/clock", {"set": "2026-11-19T02:30:00Z"})
    assert billets.today() == FIRST_DAY
    review = await billets.lookup(code)
    assert review.info.days_late == 0 and not _overdue_warning(review.warnings)
    # Without the bank's count, the local Brasília date decides the same way.
    assert not is_overdue(review.info.model_copy(update={"days_late": None}), billets.today())


async def test_overdue_from_midnight_in_brasilia(billets: BilletsService, control: Api) -> None:
    code = control.slips()[DUE_TODAY]["digitableCode"]
    # 00:30 in Brasília on the 19th (03:30 UTC): a day late for the bank and for us, although
    # a computer west of Brasília (say UTC-5, 22:30 on the 18th) still reads the 18th.
    control.control("POST", "/sandbox/clock", {"set": "2026-11-19T03:30:00Z"})
    assert billets.today() == FIRST_DAY + dt.timedelta(days=1)
    review = await billets.lookup(code)
    assert review.info.days_late == 1
    assert _overdue_warning(review.warnings)
    assert is_overdue(review.info.model_copy(update={"days_late": None}), billets.today())
