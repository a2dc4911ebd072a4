"""The sandbox dates everything it seeds from its own clock, never from the machine's: a
sandbox started years away from today (before and after) has slips due around *its* today,
infractions whose defense deadlines lie ahead of *its* now, and a statement ending at *its*
now. This is what keeps the suite valid on whatever day it runs."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

import pytest

from tests.sandbox.conftest import Api, body_of
from tests.sandbox_harness import RunningSandbox
from treasury_app.domain.clock import brasilia_date

DUE_IN_DAYS = {
    "Aluguel do escritório": 5,
    "Energia elétrica": 0,
    "Vencido há 10 dias (com multa)": -10,
    "Assinatura de software": 30,
}


def _instant(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize(
    "start",
    [
        "2021-06-02T13:00:00Z",  # years before any day the suite runs
        "2034-03-15T02:30:00Z",  # years after, at 23:30 of the 14th in Brasília
    ],
)
def test_seeded_data_follows_the_sandbox_clock(
    make_sandbox: Callable[..., RunningSandbox], start: str
) -> None:
    running = make_sandbox("--clock-start", start)
    api = Api(running, "accounts")
    try:
        now = _instant(api.now())
        today = brasilia_date(now)
        assert abs(now - _instant(start)) < dt.timedelta(minutes=5)
        assert today == brasilia_date(_instant(start))

        slips = api.slips()
        for label, days in DUE_IN_DAYS.items():
            due = dt.date.fromisoformat(slips[label]["dueDate"])
            assert due == today + dt.timedelta(days=days), label

        infractions = body_of(api.get("/api/v2/infractions"))["data"]
        open_ones = [i for i in infractions if i["status"] != "CLOSED"]
        assert open_ones
        for infraction in infractions:
            assert _instant(infraction["createdAt"]) <= now
        for infraction in open_ones:
            deadline = _instant(infraction["defenseDeadline"])
            assert now < deadline < now + dt.timedelta(days=60), infraction

        response = api.get(
            "/api/v2/accounts/transactions",
            params={
                "startDate": (today - dt.timedelta(days=30)).isoformat(),
                "endDate": today.isoformat(),
                "perPage": 1000,
            },
        )
        assert response.status_code == 200, response.text
        entries = body_of(response)["data"]
        assert entries
        newest = _instant(entries[0]["createdAt"])
        assert now - dt.timedelta(days=30) <= newest <= now
    finally:
        api.close()
