"""What the sandbox bank offers to learn with: its sample slips (due dates and amounts), read
from its control surface, and a few sample scheduled payments for the calendar. Refused outside
a sandbox profile: a real bank has no such thing."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

import httpx

from treasury_app.domain import boleto
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.domain.money import loads_json
from treasury_app.domain.schedule import Frequency, SeriesRule
from treasury_app.services.session import Session

MAX_SAMPLES = 100
MAX_ANSWER_BYTES = 256 * 1024


class SandboxOnlyError(RuleError):
    """Asked of a profile that is not the sandbox bank's."""


@dataclass(frozen=True)
class SampleSlip:
    label: str
    digitable_line: str
    due_date: dt.date | None
    amount: Decimal | None


def _sample(item: object) -> SampleSlip | None:
    """One slip of the sandbox's answer, checked (anything odd is left out, never trusted)."""
    if not isinstance(item, dict):
        return None
    line = item.get("digitableCode")
    label = item.get("label")
    if not isinstance(line, str) or not isinstance(label, str):
        return None
    try:
        boleto.barcode_of(line)
    except DomainError:
        return None
    due: dt.date | None = None
    if isinstance(item.get("dueDate"), str):
        try:
            due = dt.date.fromisoformat(item["dueDate"])
        except ValueError:
            due = None
    amount: Decimal | None = None
    raw = item.get("amount")
    if isinstance(raw, Decimal | int | str) and not isinstance(raw, bool):
        try:
            amount = Decimal(str(raw)).quantize(Decimal("0.01"))
        except InvalidOperation:
            amount = None
        if amount is not None and not amount.is_finite():
            amount = None
    return SampleSlip(label[:120], line, due, amount)


async def sample_slips(session: Session) -> list[SampleSlip]:
    """The sandbox's payable sample slips, in its order."""
    if session.profile.environment != "sandbox":
        raise SandboxOnlyError("sandbox.samples_only_in_sandbox")
    try:
        response = await session.accounts.transport.http.get("/sandbox/slips")
    except httpx.HTTPError as error:
        raise SandboxOnlyError("sandbox.unreachable", detail=str(error)) from None
    if response.status_code != 200 or len(response.content) > MAX_ANSWER_BYTES:
        raise SandboxOnlyError("sandbox.answered", status=response.status_code)
    try:
        data = loads_json(response.content).get("data")
    except (ValueError, AttributeError):
        raise SandboxOnlyError("sandbox.unreadable_answer") from None
    items = data if isinstance(data, list) else []
    return [slip for slip in map(_sample, items[:MAX_SAMPLES]) if slip is not None]


# -- sample scheduled payments (for `make run`) ------------------------------------------------
#
# The scheduled payments' engine (``treasury_app.services.schedule``) offers the calendar
# ``scheduled_between``, ``move_scheduled`` and ``cancel_scheduled``; creating a scheduled
# payment is not part of that interface. :func:`add_sample_schedule` is written against what
# it needs, :class:`SchedulePix` (one scheduled Pix by key, optionally repeating), which
# :func:`schedule_pix` does with the engine; `make run` (the app's ``--sandbox-samples``) calls
# :func:`add_samples_to` once the sandbox profile is open.

SAMPLE_PREFIX = "Exemplo sandbox"
"""Starts the description of every sample."""


@dataclass(frozen=True)
class Repeat:
    """How a sample repeats: ``monthly`` on ``day`` (``0``: the last business day),
    ``weekly`` or ``every_days``; ``times`` occurrences."""

    rule: str
    times: int
    day: int | None = None
    every_days: int | None = None


@dataclass(frozen=True)
class SampleScheduled:
    """A scheduled Pix to a sandbox payee, to watch on the calendar and leave on its day."""

    label: str
    payee_name: str
    pix_key: str
    amount: Decimal
    pay_date: dt.date
    repeat: Repeat | None = None

    @property
    def description(self) -> str:
        return f"{SAMPLE_PREFIX}: {self.label}"


def sample_schedule(today: dt.date) -> list[SampleScheduled]:
    """A few scheduled payments from ``today`` (a Brasília date), on business days: one
    tomorrow (move the sandbox clock a day to watch it leave), a supplier on the 5th, a monthly
    rent on the last business day, payroll advances on the 20th, a weekly courier."""
    from treasury_app.domain.business_days import add_business_days, next_business_day

    def on_day(day: int) -> dt.date:
        month = dt.date(today.year, today.month, 1)
        if today.day >= day:
            month = (month + dt.timedelta(days=32)).replace(day=1)
        return next_business_day(month.replace(day=day))

    return [
        SampleScheduled(
            "fornecedor de amanhã",
            "Gráfica Ribeirão Ltda",
            "financeiro@graficaribeirao.com.br",
            Decimal("1250.00"),
            add_business_days(today, 1),
        ),
        SampleScheduled(
            "fornecedor do dia 5",
            "Papelaria Central ME",
            "11222333000181",
            Decimal("3480.90"),
            on_day(5),
            Repeat("monthly", 3, day=5),
        ),
        SampleScheduled(
            "aluguel",
            "Imobiliária Paulista S.A.",
            "aluguel@imobpaulista.com.br",
            Decimal("8900.00"),
            add_business_days(on_day(1), -1),
            Repeat("monthly", 3, day=0),
        ),
        SampleScheduled(
            "adiantamento salarial",
            "Maria da Silva",
            "+5511987654321",
            Decimal("2100.00"),
            on_day(20),
            Repeat("monthly", 3, day=20),
        ),
        SampleScheduled(
            "motoboy semanal",
            "Entregas Rápidas Ltda",
            "entregas@rapidas.com.br",
            Decimal("320.00"),
            add_business_days(today, 2),
            Repeat("weekly", 6),
        ),
    ]


class SchedulePix(Protocol):
    """What the samples need of the engine: schedule a Pix by key on ``pay_date`` (repeating
    as ``repeat`` says), journaled and audited as any scheduled payment; its entry (or series)
    id."""

    def __call__(
        self,
        workspace: Any,
        *,
        pix_key: str,
        payee_name: str,
        amount: Decimal,
        pay_date: dt.date,
        description: str,
        repeat: Repeat | None,
    ) -> Awaitable[str]: ...


class ScheduledBetween(Protocol):
    def __call__(
        self, workspace: Any, start: dt.date, end: dt.date, /
    ) -> Awaitable[Sequence[Any]]: ...


async def add_sample_schedule(
    workspace: Any,
    schedule: SchedulePix,
    scheduled_between: ScheduledBetween,
    today: dt.date,
) -> list[str]:
    """Schedule the :func:`sample_schedule` on a sandbox profile, once: nothing when one of
    them (its payee and amount) is scheduled already, as the calendar's interface
    (``scheduled_between``) shows. The ids of what was scheduled."""
    if workspace.session.profile.environment != "sandbox":
        raise SandboxOnlyError("sandbox.samples_only_in_sandbox")
    samples = sample_schedule(today)
    last = max(sample.pay_date for sample in samples) + dt.timedelta(days=200)
    present = {
        (item.payee, Decimal(item.amount))
        for item in await scheduled_between(workspace, today, last)
    }
    if any((sample.payee_name, sample.amount) in present for sample in samples):
        return []
    return [
        await schedule(
            workspace,
            pix_key=sample.pix_key,
            payee_name=sample.payee_name,
            amount=sample.amount,
            pay_date=sample.pay_date,
            description=sample.description,
            repeat=sample.repeat,
        )
        for sample in samples
    ]


def series_rule(repeat: Repeat, start: dt.date) -> SeriesRule:
    """The engine's rule for a sample's :class:`Repeat` from ``start`` (a date already rolled
    to a business day: a monthly day N starts on its month's day N, the date asked)."""
    if repeat.rule == "monthly":
        last = repeat.day in (None, 0)
        if repeat.day and start.day > repeat.day:
            start = start.replace(day=repeat.day)
        return SeriesRule(
            Frequency.MONTHLY,
            start,
            day_of_month=None if last else repeat.day,
            last_business_day=last,
            count=repeat.times,
        )
    if repeat.rule == "weekly":
        return SeriesRule(Frequency.WEEKLY, start, count=repeat.times)
    return SeriesRule(
        Frequency.EVERY_N_DAYS, start, interval=repeat.every_days or 1, count=repeat.times
    )


async def schedule_pix(
    workspace: Any,
    *,
    pix_key: str,
    payee_name: str,
    amount: Decimal,
    pay_date: dt.date,
    description: str,
    repeat: Repeat | None,
) -> str:
    """:class:`SchedulePix` by the engine: a Pix by key prepared as the form prepares it, named
    for the calendar, then scheduled on ``pay_date`` (its entry id) or made a recurring series
    from it (the series' id; its occurrences within the horizon journaled now)."""
    review = await workspace.payouts.prepare_key(pix_key, amount, description=description)
    review = dataclasses.replace(review, payee_name=payee_name)
    if repeat is not None:
        series_id, _made = await workspace.schedule.create_series(
            review, series_rule(repeat, pay_date)
        )
        return str(series_id)
    entry = await workspace.payouts.send(workspace.schedule.schedule_payout(review, pay_date))
    return str(entry.id)


async def add_samples_to(workspace: Any) -> list[str]:
    """`make run`'s sample scheduled payments on the sandbox profile of ``workspace`` (once:
    see :func:`add_sample_schedule`), from the bank's today."""
    from treasury_app.domain.clock import brasilia_today
    from treasury_app.services.schedule import scheduled_between

    today = brasilia_today(workspace.clock)
    return await add_sample_schedule(workspace, schedule_pix, scheduled_between, today)
