"""The sample scheduled payments of a sandbox profile (services/sandbox_samples.py): on
business days ahead, scheduled once through the engine's function, refused outside the
sandbox."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from treasury_app.domain.business_days import is_business_day
from treasury_app.services.sandbox_samples import (
    SandboxOnlyError,
    add_sample_schedule,
    sample_schedule,
)

TODAY = dt.date(2026, 11, 18)


@dataclass(frozen=True)
class Scheduled:
    entry_id: str
    pay_date: dt.date
    amount: Decimal
    payee: str


class Engine:
    def __init__(self) -> None:
        self.items: list[Scheduled] = []

    async def schedule(self, workspace: Any, **fields: Any) -> str:
        entry_id = str(len(self.items) + 1)
        self.items.append(
            Scheduled(entry_id, fields["pay_date"], fields["amount"], fields["payee_name"])
        )
        return entry_id

    async def scheduled_between(self, workspace: Any, start: dt.date, end: dt.date) -> list[Any]:
        return [item for item in self.items if start <= item.pay_date <= end]


def profile(environment: str) -> Any:
    return SimpleNamespace(
        session=SimpleNamespace(profile=SimpleNamespace(environment=environment))
    )


def test_the_samples_fall_on_business_days_ahead() -> None:
    samples = sample_schedule(TODAY)
    assert samples[0].pay_date == dt.date(2026, 11, 19)  # tomorrow: watch it leave
    assert all(s.pay_date > TODAY and is_business_day(s.pay_date) for s in samples)
    assert samples[1].pay_date == dt.date(2026, 12, 7)  # the 5th is a Saturday: rolled
    assert all(s.description.startswith("Exemplo sandbox: ") for s in samples)


def test_the_samples_are_scheduled_once_and_only_in_the_sandbox() -> None:
    engine = Engine()
    ids = asyncio.run(
        add_sample_schedule(profile("sandbox"), engine.schedule, engine.scheduled_between, TODAY)
    )
    assert ids == ["1", "2", "3", "4", "5"]
    again = asyncio.run(
        add_sample_schedule(profile("sandbox"), engine.schedule, engine.scheduled_between, TODAY)
    )
    assert again == [] and len(engine.items) == 5
    with pytest.raises(SandboxOnlyError):
        asyncio.run(
            add_sample_schedule(
                profile("production"), engine.schedule, engine.scheduled_between, TODAY
            )
        )
