"""The payables calendar: per Brasília day of the next 13 weeks, what leaves (scheduled and
recurring payouts, slips), what is expected to come in (due-date charges, batches of them, Pix
Automático recurring charges), the day's totals and the **projected balance**.

What leaves comes from an :class:`OutflowSource`: four coroutines taking the workspace first,
the shape of ``treasury_app.services.schedule`` (the scheduled payments' engine), so that
module itself is the source (:func:`outflow_source`). Its states and kinds are the engine's
(:class:`~treasury_app.services.schedule.ScheduleState`, the journal's ``EntryKind``). Besides
the payments journaled, the occurrences of the active series not journaled yet (a series
journals only its next 35 days; the calendar shows 13 weeks) are **planned**: projected from
the series' rule and current terms by the same function the top-up journals them with, counted
like any payment, marked :attr:`Outflow.planned`, and changed only through their series. An
occurrence journaled and planned at once (the two reads straddled a top-up) counts once, as
journaled (same series, same occurrence number).

What comes in is read from the bank (:class:`BankInflows`): the charges still open, each on
its due date, and the history of the charges already settled, which gives each expected
receipt its **weight** — how often it was actually paid so far:

* by payer (CPF/CNPJ), when that payer has settled charges: ``paid / (paid + unpaid)``;
* otherwise by kind (due-date charges, batches counting as due-date charges; recurring
  charges), when that kind has any;
* otherwise :data:`DEFAULT_WEIGHT` (one half: without history, as likely paid as not).

*Paid* is a charge ``CONCLUIDA``; *unpaid* is a due-date charge removed by the bank or past its
last payable day while still open, or a recurring charge ``EXPIRADA`` or ``REJEITADA``. A
charge the company cancelled itself counts as neither. The expected amount counted is
``amount × paid / (paid + unpaid)``, rounded to the cent (half to even) once per receipt.

The projection itself (:func:`project`) is pure: the balance at the end of a day is today's
balance, minus every outflow, plus every weighted receipt, up to that day; a day whose
projected balance is below zero, or below the person's threshold, carries a warning code.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from typing import Any, Final, Protocol

from treasury_app.api.errors import ApiFailure
from treasury_app.domain.business_days import is_business_day, next_business_day
from treasury_app.domain.clock import BRASILIA, Clock, brasilia_now, brasilia_today
from treasury_app.domain.errors import RuleError
from treasury_app.services import schedule as schedule_engine
from treasury_app.services.schedule import ScheduleState

__all__ = [
    "DEFAULT_WEIGHT",
    "HISTORY_DAYS",
    "HORIZON_WEEKS",
    "BankInflows",
    "CalendarDay",
    "CalendarService",
    "ClockControl",
    "DayWarning",
    "ExpectedInflow",
    "FixedClockControl",
    "InflowSource",
    "Outcome",
    "Outflow",
    "OutflowSource",
    "Projection",
    "SandboxClockControl",
    "ScheduledLike",
    "Weight",
    "WeightBook",
    "check_threshold",
    "horizon",
    "next_business_morning",
    "outflow_source",
    "project",
    "project_stepwise",
    "weighted_amount",
    "with_threshold",
]

log = logging.getLogger("treasury_app.services.calendar")

HORIZON_WEEKS: Final = 13
"""The calendar's reach: this week and the next twelve."""
HISTORY_DAYS: Final = 365
"""How far back the charges that give the weights are read (by creation)."""
DEFAULT_WEIGHT: Final = Fraction(1, 2)
"""The weight of a receipt with no history at all (neither its payer's nor its kind's)."""
_CENT = Decimal("0.01")
_LATE_REACH = dt.timedelta(days=HISTORY_DAYS)


# -- what leaves: the scheduled payments' interface ----------------------------------------------


class ScheduledLike(Protocol):
    """A scheduled payment as the schedule's engine gives it (``ScheduledPayment``)."""

    @property
    def entry_id(self) -> str: ...
    @property
    def pay_date(self) -> dt.date: ...
    @property
    def amount(self) -> Decimal: ...
    @property
    def payee(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def state(self) -> str: ...
    @property
    def series_id(self) -> str | None: ...
    @property
    def series_seq(self) -> int | None: ...


class OutflowSource(Protocol):
    """What the calendar needs of the scheduled payments, exactly the functions of
    ``treasury_app.services.schedule`` (a module is a source). Moving and cancelling are
    audited there, and refused there with a :class:`~treasury_app.domain.errors.RuleError`."""

    def scheduled_between(
        self, workspace: Any, start: dt.date, end: dt.date, /
    ) -> Awaitable[Sequence[ScheduledLike]]: ...

    def planned_between(
        self, workspace: Any, start: dt.date, end: dt.date, /
    ) -> Awaitable[Sequence[ScheduledLike]]:
        """The occurrences of the active series not journaled yet (state ``planned``)."""
        ...

    def move_scheduled(
        self, workspace: Any, entry_id: str, new_date: dt.date, /
    ) -> Awaitable[Any]: ...

    def cancel_scheduled(self, workspace: Any, entry_id: str, reason: str, /) -> Awaitable[Any]: ...


@dataclass(frozen=True)
class Outflow:
    """One payment leaving on :attr:`day` (the calendar's copy of a scheduled payment)."""

    entry_id: str
    day: dt.date
    amount: Decimal
    payee: str
    kind: str
    state: str
    series_id: str | None = None
    late: bool = False
    """Its pay date passed (it is held): counted today, where it may still leave."""
    series_seq: int | None = None
    planned: bool = False
    """An occurrence of its series not journaled yet (projected from the series' rule): it
    cannot be moved or cancelled by itself, only through its series."""


def outflow_source() -> OutflowSource:
    """The source of what leaves: the scheduled payments' engine itself
    (:mod:`treasury_app.services.schedule`, a module whose three functions are the interface),
    on whichever ledger the workspace keeps (the file or the team database)."""
    return schedule_engine


# -- what comes in -------------------------------------------------------------------------------

INFLOW_KINDS: Final = ("cobv", "batch", "cobr")


@dataclass(frozen=True)
class Weight:
    """How often receipts like this one were paid: ``paid`` of ``settled``, on the ``basis``
    ``payer``, ``kind`` or ``none`` (no history: :data:`DEFAULT_WEIGHT`)."""

    paid: int
    settled: int
    basis: str

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.paid, self.settled) if self.settled else DEFAULT_WEIGHT


NO_HISTORY: Final = Weight(0, 0, "none")


@dataclass(frozen=True)
class ExpectedInflow:
    """A charge still open, expected on :attr:`day` for :attr:`amount` (in full)."""

    txid: str
    day: dt.date
    amount: Decimal
    payer: str
    payer_document: str
    kind: str
    """``cobv``, ``batch`` (a due-date charge of a batch) or ``cobr``."""
    weight: Weight = NO_HISTORY

    @property
    def weighted(self) -> Decimal:
        return weighted_amount(self.amount, self.weight.fraction)


def weighted_amount(amount: Decimal, weight: Fraction) -> Decimal:
    """``amount × weight`` to the cent, half to even (exact: the fraction's own digits)."""
    exact = amount * weight.numerator / weight.denominator
    return exact.quantize(_CENT, rounding=ROUND_HALF_EVEN)


@dataclass(frozen=True)
class Outcome:
    """A settled charge of the history: its payer, its kind and whether it was paid."""

    payer_document: str
    kind: str
    paid: bool


def _family(kind: str) -> str:
    return "cobr" if kind == "cobr" else "cobv"  # a batch's members are due-date charges


@dataclass
class WeightBook:
    """The weights of the history: per payer, then per kind (see the module's notes)."""

    by_payer: dict[str, tuple[int, int]] = field(default_factory=dict)
    by_kind: dict[str, tuple[int, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, history: Iterable[Outcome]) -> WeightBook:
        payers: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for outcome in history:
            for table, key in ((payers, outcome.payer_document), (kinds, _family(outcome.kind))):
                if not key:
                    continue
                table[key][0] += int(outcome.paid)
                table[key][1] += 1
        return cls(
            {k: (v[0], v[1]) for k, v in payers.items()},
            {k: (v[0], v[1]) for k, v in kinds.items()},
        )

    def weight(self, payer_document: str, kind: str) -> Weight:
        if payer_document in self.by_payer:
            return Weight(*self.by_payer[payer_document], "payer")
        if _family(kind) in self.by_kind:
            return Weight(*self.by_kind[_family(kind)], "kind")
        return NO_HISTORY


class InflowSource(Protocol):
    """The charges still open and the settled ones (the weights' history)."""

    async def inflows(
        self, today: dt.date, end: dt.date
    ) -> tuple[list[ExpectedInflow], list[Outcome]]: ...


def _document(devedor: Any) -> tuple[str, str]:
    if devedor is None:
        return "", ""
    return str(devedor.cpf or devedor.cnpj or ""), str(devedor.nome or "")


def _status(value: Any) -> str:
    return str(getattr(value, "value", value))


class BankInflows:
    """The bank's charges created in the last :data:`HISTORY_DAYS`: the open ones due by the
    horizon are expected, the settled ones are the history."""

    def __init__(self, charges: Any, recurrences: Any, *, history_days: int = HISTORY_DAYS) -> None:
        self._charges = charges
        self._recurrences = recurrences
        self._history_days = history_days

    async def inflows(
        self, today: dt.date, end: dt.date
    ) -> tuple[list[ExpectedInflow], list[Outcome]]:
        start = today - dt.timedelta(days=self._history_days)
        batched, cobvs, cobrs = await asyncio.gather(
            self._batched(start, today),
            _collect(self._charges.iter_cobvs(start=start, end=today)),
            _collect(self._recurrences.iter_cobrs(start=start, end=today)),
        )
        expected: list[ExpectedInflow] = []
        history: list[Outcome] = []
        for cobv in cobvs:
            kind = "batch" if cobv.txid in batched else "cobv"
            _cobv_into(cobv, kind, today, end, expected, history)
        for cobr in cobrs:
            _cobr_into(cobr, today, end, expected, history)
        return expected, history

    async def _batched(self, start: dt.date, end: dt.date) -> set[str]:
        """The txids of every batch's members: a list gives a batch's count, not always its
        members; those are read one batch at a time."""
        txids: set[str] = set()
        for batch in await _collect(self._charges.iter_batches(start=start, end=end)):
            if batch.cobsv:
                txids.update(member.txid for member in batch.cobsv)
            elif batch.id is not None and batch.quantidade_cobrancas != 0:
                status = await self._charges.batch_status(str(batch.id))
                txids.update(member.txid for member in status.members)
        return txids


async def _collect(items: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in items]


def _cobv_into(
    cobv: Any,
    kind: str,
    today: dt.date,
    end: dt.date,
    expected: list[ExpectedInflow],
    history: list[Outcome],
) -> None:
    document, name = _document(cobv.devedor)
    status = _status(cobv.status)
    due = cobv.calendario.data_de_vencimento
    if status == "CONCLUIDA":
        history.append(Outcome(document, kind, True))
    elif status == "REMOVIDA_PELO_PSP":
        history.append(Outcome(document, kind, False))
    elif status == "ATIVA" and due is not None:
        last_day = due + dt.timedelta(days=cobv.calendario.validade_apos_vencimento or 0)
        if last_day < today:
            history.append(Outcome(document, kind, False))
        elif max(due, today) <= end:
            amount = Decimal(cobv.valor.original)
            expected.append(
                ExpectedInflow(cobv.txid, max(due, today), amount, name, document, kind)
            )


def _cobr_into(
    cobr: Any, today: dt.date, end: dt.date, expected: list[ExpectedInflow], history: list[Outcome]
) -> None:
    document, name = _document(cobr.devedor)
    status = _status(cobr.status)
    if status == "CONCLUIDA":
        history.append(Outcome(document, "cobr", True))
    elif status in ("EXPIRADA", "REJEITADA"):
        history.append(Outcome(document, "cobr", False))
    elif status in ("CRIADA", "ATIVA"):
        due = cobr.calendario.data_de_vencimento
        if cobr.ajuste_dia_util is not False:
            due = next_business_day(due)
        if today <= due <= end:
            amount = Decimal(cobr.valor.original)
            expected.append(ExpectedInflow(cobr.txid, due, amount, name, document, "cobr"))


# -- the projection --------------------------------------------------------------------------


class DayWarning:
    """Why a day is marked (codes; the UI says them)."""

    BELOW_ZERO: Final = "calendar.below_zero"
    OVER_BALANCE: Final = "calendar.over_balance"
    """The day's scheduled payments total more than today's balance: the due sender holds
    the day whole unless money comes in (and the status bar warns the business day before)."""
    BELOW_THRESHOLD: Final = "calendar.below_threshold"


@dataclass(frozen=True)
class CalendarDay:
    day: dt.date
    business_day: bool
    outflows: tuple[Outflow, ...]
    inflows: tuple[ExpectedInflow, ...]
    out_total: Decimal
    in_total: Decimal
    """Every receipt expected that day, in full."""
    in_weighted: Decimal
    """What the projection counts of them (each weighted)."""
    balance: Decimal
    """The projected balance at the end of the day."""
    warning: str | None
    over_balance: bool = False
    """What leaves that day by itself (not held) totals more than today's balance."""

    @property
    def items(self) -> int:
        return len(self.outflows) + len(self.inflows)

    @property
    def out_planned(self) -> Decimal:
        """What of :attr:`out_total` is planned occurrences of series (not journaled yet)."""
        return sum((o.amount for o in self.outflows if o.planned), Decimal("0.00"))


@dataclass(frozen=True)
class Projection:
    today: dt.date
    opening: Decimal
    """Today's balance (the bank's, before anything of today leaves or comes in)."""
    threshold: Decimal | None
    days: tuple[CalendarDay, ...]
    inflows_unavailable: bool = False
    """The bank's charges could not be read: what leaves is shown, receipts are not counted."""

    def day(self, day: dt.date) -> CalendarDay | None:
        index = (day - self.today).days
        return self.days[index] if 0 <= index < len(self.days) else None

    @property
    def warned(self) -> tuple[CalendarDay, ...]:
        return tuple(day for day in self.days if day.warning is not None)

    @property
    def items(self) -> int:
        return sum(day.items for day in self.days)

    @property
    def planned(self) -> int:
        """How many of :attr:`items` are planned occurrences of series."""
        return sum(1 for day in self.days for out in day.outflows if out.planned)


def horizon(today: dt.date, weeks: int = HORIZON_WEEKS) -> tuple[dt.date, dt.date]:
    """From ``today`` to the Sunday ending the ``weeks``-th week (this one is the first)."""
    monday = today - dt.timedelta(days=today.weekday())
    return today, monday + dt.timedelta(days=7 * weeks - 1)


GONE_STATES: Final = frozenset(
    {ScheduleState.SENDING, ScheduleState.PAID, ScheduleState.FAILED, ScheduleState.CANCELLED}
)
"""States (:class:`~treasury_app.services.schedule.ScheduleState`) of a scheduled payment that
no longer leaves on a day of the calendar: sent (today's balance has it, or is about to), refused
by the bank, or cancelled."""


def _outflow(item: ScheduledLike, today: dt.date, planned: bool = False) -> Outflow:
    late = item.pay_date < today and not planned
    return Outflow(
        str(item.entry_id),
        today if late else item.pay_date,
        Decimal(item.amount),
        item.payee,
        item.kind,
        item.state,
        item.series_id,
        late,
        item.series_seq,
        planned,
    )


STEP: Final = 400
"""Items projected between two yields of :func:`project_stepwise` (a few milliseconds)."""


def project(
    today: dt.date,
    opening: Decimal,
    scheduled: Iterable[ScheduledLike],
    expected: Iterable[ExpectedInflow],
    history: Iterable[Outcome] = (),
    *,
    threshold: Decimal | None = None,
    weeks: int = HORIZON_WEEKS,
    planned: Iterable[ScheduledLike] = (),
) -> Projection:
    """The calendar from ``today`` to the end of the horizon (pure; see the module's notes).
    A scheduled payment whose date passed is counted today (``late``); anything after the
    horizon is left out. ``planned``: the series' occurrences not journaled yet (one that is
    journaled in ``scheduled`` too counts once, as journaled)."""
    steps = _projection_steps(
        today, opening, scheduled, expected, history, threshold, weeks, planned
    )
    while True:
        try:
            next(steps)
        except StopIteration as done:
            projection: Projection = done.value
            return projection


async def project_stepwise(
    today: dt.date,
    opening: Decimal,
    scheduled: Iterable[ScheduledLike],
    expected: Iterable[ExpectedInflow],
    history: Iterable[Outcome] = (),
    *,
    threshold: Decimal | None = None,
    weeks: int = HORIZON_WEEKS,
    planned: Iterable[ScheduledLike] = (),
) -> Projection:
    """:func:`project`, letting the event loop run every :data:`STEP` items: thousands of
    payments are projected on the UI's loop without a frame's stall (a worker thread would
    fight the loop for the interpreter's lock)."""
    steps = _projection_steps(
        today, opening, scheduled, expected, history, threshold, weeks, planned
    )
    while True:
        try:
            next(steps)
        except StopIteration as done:
            projection: Projection = done.value
            return projection
        await asyncio.sleep(0)


def _projection_steps(
    today: dt.date,
    opening: Decimal,
    scheduled: Iterable[ScheduledLike],
    expected: Iterable[ExpectedInflow],
    history: Iterable[Outcome],
    threshold: Decimal | None,
    weeks: int,
    planned: Iterable[ScheduledLike] = (),
) -> Generator[None, None, Projection]:
    first, last = horizon(today, weeks)
    book = WeightBook.of(history)
    yield
    outs: dict[dt.date, list[Outflow]] = defaultdict(list)
    journaled: set[tuple[str, int]] = set()
    for count, item in enumerate(scheduled, 1):
        if item.series_id is not None and item.series_seq is not None:
            journaled.add((item.series_id, item.series_seq))  # even gone: never planned again
        if str(item.state).lower() not in GONE_STATES:
            outflow = _outflow(item, today)
            if outflow.day <= last:
                outs[outflow.day].append(outflow)
        if count % STEP == 0:
            yield
    for count, item in enumerate(planned, 1):
        key = (str(item.series_id), item.series_seq)
        if key not in journaled and first <= item.pay_date <= last:
            outs[item.pay_date].append(_outflow(item, today, planned=True))
        if count % STEP == 0:
            yield
    ins: dict[dt.date, list[ExpectedInflow]] = defaultdict(list)
    for count, inflow in enumerate(expected, 1):
        if first <= inflow.day <= last:
            weight = book.weight(inflow.payer_document, inflow.kind)
            ins[inflow.day].append(_weighed(inflow, weight))
        if count % STEP == 0:
            yield
    days = []
    balance = opening
    day = first
    while day <= last:
        day_outs = tuple(sorted(outs.get(day, ()), key=lambda o: (o.payee, o.entry_id)))
        day_ins = tuple(sorted(ins.get(day, ()), key=lambda i: (i.payer, i.txid)))
        out_total = sum((o.amount for o in day_outs), Decimal("0.00"))
        in_total = sum((i.amount for i in day_ins), Decimal("0.00"))
        in_weighted = sum((i.weighted for i in day_ins), Decimal("0.00"))
        balance = balance - out_total + in_weighted
        leaving = sum(
            (o.amount for o in day_outs if str(o.state).lower() != ScheduleState.HELD), Decimal(0)
        )
        over = leaving > opening
        days.append(
            CalendarDay(
                day,
                is_business_day(day),
                day_outs,
                day_ins,
                out_total,
                in_total,
                in_weighted,
                balance,
                _warning(balance, threshold, over),
                over,
            )
        )
        if len(days) % 7 == 0:
            yield
        day += dt.timedelta(days=1)
    return Projection(today, opening, threshold, tuple(days))


def _weighed(inflow: ExpectedInflow, weight: Weight) -> ExpectedInflow:
    return ExpectedInflow(
        inflow.txid,
        inflow.day,
        inflow.amount,
        inflow.payer,
        inflow.payer_document,
        inflow.kind,
        weight,
    )


def _warning(balance: Decimal, threshold: Decimal | None, over: bool = False) -> str | None:
    if balance < 0:
        return DayWarning.BELOW_ZERO
    if over:
        return DayWarning.OVER_BALANCE
    if threshold is not None and balance < threshold:
        return DayWarning.BELOW_THRESHOLD
    return None


def with_threshold(projection: Projection, threshold: Decimal | None) -> Projection:
    """``projection`` with its days warned against another ``threshold`` (nothing read again)."""
    days = tuple(
        replace(day, warning=_warning(day.balance, threshold, day.over_balance))
        for day in projection.days
    )
    return replace(projection, threshold=threshold, days=days)


def check_threshold(value: Decimal | None) -> Decimal | None:
    """The person's warning threshold: none, or an amount of reais not below zero."""
    if value is None:
        return None
    if not value.is_finite() or value < 0:
        raise RuleError("calendar.threshold_negative", field="threshold")
    return value.quantize(_CENT)


# -- the clock a newcomer moves ----------------------------------------------------------------


class ClockControl(Protocol):
    """Moves the clock the calendar reads: the sandbox bank's (the app follows it), or a test's
    :class:`~treasury_app.domain.clock.FixedClock`."""

    def now(self) -> dt.datetime: ...
    async def advance(self, delta: dt.timedelta) -> dt.datetime: ...
    async def set(self, instant: dt.datetime) -> dt.datetime: ...
    async def sync(self) -> None:
        """Read the clock again (it may have been moved elsewhere: the sandbox's console)."""


def next_business_morning(now: dt.datetime, at: dt.time = dt.time(8, 0)) -> dt.datetime:
    """The next business day after ``now``'s Brasília date, at ``at`` (when scheduled payments
    go out), as an instant."""
    day = next_business_day(now.astimezone(BRASILIA).date() + dt.timedelta(days=1))
    return dt.datetime.combine(day, at, BRASILIA)


class SandboxClockControl:
    """The sandbox bank's clock, through its console service (which makes the app's clock
    follow it after each move); ``sync`` reads it again (the workspace's ``sync_clock``)."""

    def __init__(
        self, console: Any, clock: Clock, sync: Callable[[], Awaitable[Any]] | None = None
    ) -> None:
        self._console = console
        self._clock = clock
        self._sync = sync

    async def sync(self) -> None:
        if self._sync is not None:
            await self._sync()

    def now(self) -> dt.datetime:
        return brasilia_now(self._clock)

    async def advance(self, delta: dt.timedelta) -> dt.datetime:
        moved: dt.datetime = await self._console.advance_clock(delta.total_seconds())
        return moved

    async def set(self, instant: dt.datetime) -> dt.datetime:
        moved: dt.datetime = await self._console.set_clock(instant)
        return moved


class FixedClockControl:
    """A :class:`~treasury_app.domain.clock.FixedClock` moved by hand (tests)."""

    def __init__(self, clock: Any) -> None:
        self._clock = clock

    def now(self) -> dt.datetime:
        return brasilia_now(self._clock)

    async def advance(self, delta: dt.timedelta) -> dt.datetime:
        self._clock.advance(delta)
        return self.now()

    async def set(self, instant: dt.datetime) -> dt.datetime:
        self._clock.set(instant)
        return self.now()

    async def sync(self) -> None:
        return None


# -- the use case ----------------------------------------------------------------------------


class CalendarService:
    """The calendar of one workspace: reads what leaves (``outflows``), what comes in
    (``inflows``) and today's balance (``balance``), projects off the UI's thread, and moves
    or cancels a scheduled payment through ``outflows``."""

    def __init__(
        self,
        workspace: Any,
        *,
        outflows: OutflowSource,
        inflows: InflowSource | None,
        balance: Callable[[], Awaitable[Decimal]],
        clock: Clock,
        weeks: int = HORIZON_WEEKS,
    ) -> None:
        self.workspace = workspace
        self.outflows = outflows
        self.inflows = inflows
        self._balance = balance
        self.clock = clock
        self.weeks = weeks

    @classmethod
    def for_workspace(cls, workspace: Any) -> CalendarService:
        async def balance() -> Decimal:
            view = await workspace.statement.balance()
            return Decimal(view.available)

        return cls(
            workspace,
            outflows=outflow_source(),
            inflows=BankInflows(workspace.charges, workspace.recurrences),
            balance=balance,
            clock=workspace.clock,
        )

    def today(self) -> dt.date:
        return brasilia_today(self.clock)

    async def load(self, threshold: Decimal | None = None) -> Projection:
        """Today's balance, what leaves and what comes in, read at once; projected in steps
        (thousands of items: the UI's loop keeps running)."""
        today = self.today()
        _first, last = horizon(today, self.weeks)
        opening, (planned, scheduled), (expected, history, unavailable) = await asyncio.gather(
            self._balance(),
            self._outflows(today, last),
            self._inflows(today, last),
        )
        projection = await project_stepwise(
            today,
            opening,
            scheduled,
            expected,
            history,
            threshold=threshold,
            weeks=self.weeks,
            planned=planned,
        )
        return replace(projection, inflows_unavailable=unavailable) if unavailable else projection

    async def _outflows(
        self, today: dt.date, last: dt.date
    ) -> tuple[list[ScheduledLike], list[ScheduledLike]]:
        """The series' occurrences not journaled yet, then the payments journaled: in this
        order, so that an occurrence a top-up journals between the two reads is found at
        least once (twice is counted once: see :func:`project`)."""
        planned = await self.outflows.planned_between(self.workspace, today, last)
        # From a year back: a payment whose day passed unsent is held, and still leaves.
        scheduled = await self.outflows.scheduled_between(self.workspace, today - _LATE_REACH, last)
        return list(planned), list(scheduled)

    async def _inflows(
        self, today: dt.date, last: dt.date
    ) -> tuple[list[ExpectedInflow], list[Outcome], bool]:
        """The receipts expected and their history; none, marked unavailable, when the QR
        Codes API fails (what leaves still shows: it is the app's own)."""
        if self.inflows is None:
            return [], [], False
        try:
            expected, history = await self.inflows.inflows(today, last)
        except ApiFailure as error:
            log.info("the calendar's expected receipts are unavailable: %s", type(error).__name__)
            return [], [], True
        return expected, history, False

    async def move(self, entry_id: str, new_date: dt.date) -> None:
        """Move a scheduled payment to ``new_date`` (a business day, today or later; the
        engine checks again, audits, and voids its approvals). A planned occurrence of a
        series is not journaled: it is changed through its series."""
        _journaled(entry_id)
        if new_date < self.today():
            raise RuleError("calendar.move_to_past", field="new_date", day=new_date)
        if not is_business_day(new_date):
            raise RuleError("calendar.move_to_holiday", field="new_date", day=new_date)
        await self.outflows.move_scheduled(self.workspace, entry_id, new_date)

    async def cancel(self, entry_id: str, reason: str) -> None:
        """Cancel a scheduled payment, with the person's reason (audited by the engine)."""
        _journaled(entry_id)
        if not reason.strip():
            raise RuleError("calendar.cancel_reason", field="reason")
        await self.outflows.cancel_scheduled(self.workspace, entry_id, reason.strip())


PLANNED_PREFIX: Final = "planned:"
"""How the id of a planned occurrence begins (``planned:<series>:<number>``; a journaled
payment's id is a number)."""


def _journaled(entry_id: str) -> None:
    if entry_id.startswith(PLANNED_PREFIX):
        raise RuleError("calendar.planned_occurrence", field="entry")
