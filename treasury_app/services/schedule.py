"""Scheduled and recurring payments (issue 35): approved ahead, sent once on the day, never
late in silence, checked again on the day.

* **Scheduling** extends the ordinary prepare paths: a :class:`~treasury_app.services.payouts.
  PayoutReview` or a :class:`~treasury_app.services.billets.BilletReview` gets a pay date
  (:meth:`ScheduleService.schedule_payout`, :meth:`~ScheduleService.schedule_billet`: rolled
  to a business day, the reason kept for the review), and is sent as any
  (``PayoutsService.send``, ``BilletsService.pay``): the engine journals it — idempotency key
  fixed then — and leaves it ``PREPARED`` until its day (:meth:`PaymentEngine.
  waits_for_its_day <treasury_app.services.payments.PaymentEngine.waits_for_its_day>`; a team
  database refuses it before then too).
* **Recurring payouts** (:meth:`~ScheduleService.create_series`): the series' rule and what
  each occurrence pays are kept; each occurrence within the horizon (35 days) becomes its
  own intent ahead of time (:meth:`~ScheduleService.top_up`), its idempotency key derived
  from the series and the occurrence, so that two desktops topping up at once make it once.
  Editing the series changes only occurrences not yet approved nor sent; ending it cancels
  those.
* **The due sender** (:meth:`~ScheduleService.send_due`, run every minute by
  :class:`DueSender`): on the pay date, once the send time (08:00 Brasília by default) has
  come, a desktop that may release sends what is due through the engine (claims and
  journal first: two desktops at 08:00 send each payment once).
* **Never late in silence**: a scheduled payment whose day passed unsent is *held*
  (``scheduled.late``): "Send now" (:meth:`~ScheduleService.send_now`), "Move to…"
  (:meth:`~ScheduleService.move`) or "Cancel" (:meth:`~ScheduleService.cancel`).
* **Checked again on the day**: before the day's first send, the balance is read and a day
  whose total does not fit is held whole (``scheduled.balance_short``) — and warned about
  the business day before (:meth:`~ScheduleService.day_warnings`); a slip's updated amount is
  read again (``/billets/info``) and a change beyond the tolerance holds it
  (``scheduled.slip_amount_changed``); a dynamic QR Code whose charge is no longer payable is
  held (``scheduled.charge_not_payable``). A payment the balance does not cover when its turn
  comes is not sent (the bank is never made to refuse it): it is tried again on each pass,
  :attr:`ScheduleSettings.funds_retries` times until the cut-off, then held
  (``scheduled.insufficient_funds``).
* **Never to a blocked destination**: a series whose key or account is blocked in the payee
  registry journals no new occurrence (ended or not, until it is unblocked), and a scheduled
  payment due to one is held (``scheduled.destination_blocked``), as a payment sent now to
  it is refused (``registry.blocked``); "Send now" is refused while it stays blocked.

The calendar (another module) reads the schedule through :func:`scheduled_between` and
:func:`planned_between` (the occurrences of the series not journaled yet, from the same
function the top-up journals them with: :func:`unjournaled_occurrences`) and changes it through
:func:`move_scheduled` and :func:`cancel_scheduled`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import is_failed_status
from treasury_app.api.errors import ApiFailure
from treasury_app.domain import brcode
from treasury_app.domain.brcode import BrCode
from treasury_app.domain.clock import BRASILIA, Clock, brasilia_date, brasilia_today
from treasury_app.domain.errors import Reason, RuleError
from treasury_app.domain.money import parse_brl
from treasury_app.domain.payees import DestinationState
from treasury_app.domain.schedule import (
    DEFAULT_HORIZON_DAYS,
    DEFAULT_SEND_TIME,
    SERIES_CHANGED,
    BusinessCalendar,
    Frequency,
    Occurrence,
    PayDate,
    SeriesRule,
    check_series,
    in_rule,
    is_due,
    occurrences,
    pay_date,
    same_dates,
    slip_pay_date,
)
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import DuplicateIntent, Entry, EntryKind, EntryState, NewEntry
from treasury_app.ledger.schedule import Hold, SeriesRecord
from treasury_app.services.payments import DestinationBlocked, PaymentEngine

if TYPE_CHECKING:
    from treasury_app.services.billets import BilletReview
    from treasury_app.services.payouts import BatchRow, ChargeAmount, PayoutBatch, PayoutReview
    from treasury_app.services.profiles import ScheduleProfile
    from treasury_app.services.workspace import Workspace

log = logging.getLogger("treasury_app.services.schedule")

__all__ = [
    "DayWarning",
    "DueSender",
    "HeldPayment",
    "ScheduleError",
    "ScheduleService",
    "ScheduleSettings",
    "ScheduleState",
    "ScheduledPayment",
    "SeriesChange",
    "SeriesTerms",
    "SettingsError",
    "cancel_scheduled",
    "move_scheduled",
    "planned_between",
    "read_schedule_form",
    "scheduled_between",
    "unjournaled_occurrences",
]

LATE = "scheduled.late"
SLIP_AMOUNT_CHANGED = "scheduled.slip_amount_changed"
CHARGE_NOT_PAYABLE = "scheduled.charge_not_payable"
BALANCE_SHORT = "scheduled.balance_short"
INSUFFICIENT_FUNDS = "scheduled.insufficient_funds"
DESTINATION_BLOCKED = "scheduled.destination_blocked"
PAY_AFTER_DUE = "scheduled.slip_after_due"
"""A slip scheduled after its due date (rolled): a warning of its review."""
HOLD_CODES = frozenset(
    {
        LATE,
        SLIP_AMOUNT_CHANGED,
        CHARGE_NOT_PAYABLE,
        BALANCE_SHORT,
        INSUFFICIENT_FUNDS,
        DESTINATION_BLOCKED,
    }
)
"""Why a scheduled payment waits for a person (each a rule code the UI words)."""


class ScheduleError(RuleError):
    """A scheduled payment cannot be made or changed as asked (the code says why)."""


@dataclass(frozen=True)
class ScheduleSettings:
    """How a profile (or the team's policy) schedules payments."""

    send_time: time = DEFAULT_SEND_TIME
    horizon_days: int = DEFAULT_HORIZON_DAYS
    extra_dates: frozenset[date] = frozenset()
    slip_tolerance: Decimal = Decimal("0.00")
    """How much a slip's updated amount may differ on its day from the one scheduled."""
    funds_retries: int = 3
    """How many passes a payment the balance does not cover is tried before it is held."""
    funds_cutoff: time = time(17, 0)
    """After this (Brasília), a payment the balance does not cover is held at once."""

    @property
    def calendar(self) -> BusinessCalendar:
        return BusinessCalendar(self.extra_dates)

    @classmethod
    def from_profile(cls, profile: ScheduleProfile) -> ScheduleSettings:
        """A profile's settings (``Profile.schedule``; the horizon is the app's)."""
        return cls(
            send_time=profile.send_time,
            extra_dates=frozenset(profile.extra_dates),
            slip_tolerance=profile.slip_tolerance,
            funds_retries=profile.funds_retries,
            funds_cutoff=profile.funds_cutoff,
        )


MAX_SLIP_TOLERANCE = Decimal("10000.00")
MAX_FUNDS_RETRIES = 10
MAX_EXTRA_DATES = 100
_TIME = re.compile(r"([01]\d|2[0-3]):([0-5]\d)")
_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


class SettingsError(RuleError):
    """A scheduling setting typed in Settings is not acceptable (the code and field say
    which)."""


def _typed_time(text: str, field_name: str) -> time:
    found = _TIME.fullmatch(text.strip())
    if found is None:
        raise SettingsError("settings.time_format", field=field_name, typed=text.strip())
    return time(int(found.group(1)), int(found.group(2)))


def read_schedule_form(
    send_time: str, tolerance: str, retries: str, cutoff: str, extra_dates: str
) -> ScheduleProfile:
    """The scheduling settings a person typed, read strictly (``HH:MM`` times, an amount in
    reais, a whole number of tries, ``dd/mm/aaaa`` dates one per line or separated by
    commas or spaces); else :class:`SettingsError` on the field."""
    from treasury_app.services.profiles import ScheduleProfile

    sends = _typed_time(send_time, "send_time")
    ends = _typed_time(cutoff, "funds_cutoff")
    if ends <= sends:
        raise SettingsError(
            "settings.cutoff_before_send",
            field="funds_cutoff",
            send_time=sends.strftime("%H:%M"),
            cutoff=ends.strftime("%H:%M"),
        )
    try:
        amount = parse_brl(tolerance) if tolerance.strip() else Decimal("0.00")
    except RuleError as error:
        raise SettingsError(error.code, field="slip_tolerance", **error.params) from None
    if not Decimal("0.00") <= amount <= MAX_SLIP_TOLERANCE:
        raise SettingsError(
            "settings.tolerance_range", field="slip_tolerance", max=MAX_SLIP_TOLERANCE
        )
    tries = retries.strip()
    if not tries.isascii() or not tries.isdigit() or not 1 <= int(tries) <= MAX_FUNDS_RETRIES:
        raise SettingsError(
            "settings.retries_range", field="funds_retries", typed=tries, max=MAX_FUNDS_RETRIES
        )
    days: list[date] = []
    for typed in re.split(r"[\s,;]+", extra_dates.strip()) if extra_dates.strip() else []:
        found = _DATE.fullmatch(typed)
        try:
            if found is None:
                raise ValueError(typed)
            day = date(int(found.group(3)), int(found.group(2)), int(found.group(1)))
        except ValueError:
            raise SettingsError("settings.extra_date", field="extra_dates", typed=typed) from None
        if day not in days:
            days.append(day)
    if len(days) > MAX_EXTRA_DATES:
        raise SettingsError(
            "settings.extra_dates_too_many", field="extra_dates", max=MAX_EXTRA_DATES
        )
    return ScheduleProfile(
        send_time=sends,
        slip_tolerance=amount,
        funds_retries=int(tries),
        funds_cutoff=ends,
        extra_dates=tuple(sorted(days)),
    )


class ScheduleState(StrEnum):
    """Where a scheduled payment stands, for the calendar and the payments list."""

    SCHEDULED = "scheduled"  # waits for its day (approved, or no approval needed)
    WAITING_APPROVAL = "waiting_approval"
    HELD = "held"  # waits for a person (late, or a check on its day)
    SENDING = "sending"  # sent; the bank's final word not in yet
    PAID = "paid"
    FAILED = "failed"  # refused or failed at the bank
    CANCELLED = "cancelled"
    PLANNED = "planned"
    """An occurrence of a series not journaled yet (beyond the horizon, or its maker's desktop
    has not topped it up): only the calendar shows it, from the series' rule and terms; it is
    changed through its series."""


@dataclass(frozen=True)
class ScheduledPayment:
    """One scheduled payment, as the calendar shows it."""

    entry_id: str
    pay_date: date
    amount: Decimal
    payee: str
    kind: str
    state: str
    series_id: str | None
    series_seq: int | None = None
    """Its occurrence number in its series (a journaled one and a planned one of the same
    number are the same payment)."""


@dataclass(frozen=True)
class SeriesTerms:
    """What a recurring series pays and how it repeats, as a person edits it."""

    series_id: str
    rule: SeriesRule
    amount: Decimal
    description: str
    payee: str
    active: bool


@dataclass(frozen=True)
class SeriesChange:
    """What an edit of a series (or its end) does, for its review and as done: the
    occurrences changed (not approved nor sent yet: the new amount or description; a team
    database voids their partial approvals), those cancelled (not approved nor sent, and no
    longer on the series' dates), those that stay as they are (approved, or sent), and the
    dates of the occurrences the new rule journals within the horizon. Ending a series also
    stops its occurrences not journaled yet: ``planned`` are their dates within the calendar's
    weeks, ``more_planned`` whether the rule has more after them."""

    terms: SeriesTerms
    changed: tuple[Entry, ...] = ()
    cancelled: tuple[Entry, ...] = ()
    kept: tuple[Entry, ...] = ()
    new_dates: tuple[date, ...] = ()
    planned: tuple[date, ...] = ()
    more_planned: bool = False


@dataclass(frozen=True)
class HeldPayment:
    entry: Entry
    hold: Hold


@dataclass(frozen=True)
class DayWarning:
    """A business day whose scheduled payments the balance does not cover."""

    day: date
    total: Decimal
    balance: Decimal

    @property
    def reason(self) -> Reason:
        return Reason(
            "scheduled.day_short", {"day": self.day, "total": self.total, "balance": self.balance}
        )


def schedule_state(entry: Entry, held: bool = False) -> ScheduleState:
    if entry.state == EntryState.PREPARED:
        if held:
            return ScheduleState.HELD
        if entry.approval == "WAITING":
            return ScheduleState.WAITING_APPROVAL
        return ScheduleState.SCHEDULED
    if entry.state == EntryState.REJECTED:
        cancelled = entry.approval in ("WITHDRAWN", "REJECTED") or (entry.error or "").startswith(
            "Cancelled"
        )
        return ScheduleState.CANCELLED if cancelled else ScheduleState.FAILED
    if entry.bank_status is not None and is_failed_status(entry.bank_status):
        return ScheduleState.FAILED
    return ScheduleState.PAID if entry.final else ScheduleState.SENDING


def _payment(entry: Entry, held: bool) -> ScheduledPayment:
    assert entry.pay_date is not None
    return ScheduledPayment(
        entry_id=str(entry.id),
        pay_date=entry.pay_date,
        amount=entry.amount,
        payee=entry.creditor_name or entry.payee_name or entry.payee_detail,
        kind=entry.kind.value,
        state=schedule_state(entry, held).value,
        series_id=entry.series_id,
        series_seq=entry.series_seq,
    )


# -- the calendar's interface --------------------------------------------------------------------


async def scheduled_between(workspace: Workspace, start: date, end: date) -> list[ScheduledPayment]:
    """Every scheduled payment whose pay date is in ``[start, end]``, any state, by date."""
    schedule = workspace.ledger.schedule
    holds = await schedule.holds()
    return [_payment(e, e.id in holds) for e in await schedule.between(start, end)]


async def planned_between(workspace: Workspace, start: date, end: date) -> list[ScheduledPayment]:
    """The occurrences of every active series not journaled yet whose pay date is in
    ``[start, end]`` (never before today), state :attr:`ScheduleState.PLANNED`, by date."""
    return await workspace.schedule.planned(start, end)


async def move_scheduled(workspace: Workspace, entry_id: str, new_date: date) -> ScheduledPayment:
    """Move a scheduled payment not sent yet to ``new_date`` (rolled to a business day; on a
    team database its maker only, and its approvals are void)."""
    entry = await workspace.schedule.move(int(entry_id), new_date)
    return _payment(entry, False)


async def cancel_scheduled(workspace: Workspace, entry_id: str, reason: str) -> ScheduledPayment:
    """Cancel a scheduled payment not sent yet (audited; on a team database its maker's
    withdrawal or an approver's rejection)."""
    entry = await workspace.schedule.cancel(int(entry_id), reason)
    return _payment(entry, False)


# -- series ---------------------------------------------------------------------------------------


SEQ_BASE = "seq_base"
"""In a stored rule: the occurrence number of the rule's first occurrence (``0``; after an
edit that moved the series' dates, one past the last occurrence journaled before), so that an
occurrence's number, hence its idempotency key, is never given twice."""


def rule_json(rule: SeriesRule, seq_base: int = 0) -> dict[str, Any]:
    return {
        SEQ_BASE: seq_base,
        "frequency": rule.frequency.value,
        "start": rule.start.isoformat(),
        "interval": rule.interval,
        "day_of_month": rule.day_of_month,
        "last_business_day": rule.last_business_day,
        "until": None if rule.until is None else rule.until.isoformat(),
        "count": rule.count,
    }


def rule_of(data: Mapping[str, Any]) -> SeriesRule:
    return SeriesRule(
        frequency=Frequency(data["frequency"]),
        start=date.fromisoformat(data["start"]),
        interval=int(data.get("interval") or 1),
        day_of_month=data.get("day_of_month"),
        last_business_day=bool(data.get("last_business_day")),
        until=None if data.get("until") is None else date.fromisoformat(data["until"]),
        count=data.get("count"),
    )


def _terms(record: SeriesRecord) -> SeriesTerms:
    template = record.template
    return SeriesTerms(
        series_id=record.id,
        rule=rule_of(record.rule),
        amount=Decimal(str(template["amount"])),
        description=str(template.get("description") or ""),
        payee=str(template.get("payee_name") or template.get("payee_detail") or ""),
        active=record.active,
    )


def _template(new: NewEntry) -> dict[str, Any]:
    return {
        "kind": new.kind.value,
        "amount": str(new.amount),
        "request": dict(new.request),
        "payee_name": new.payee_name,
        "payee_document": new.payee_document,
        "payee_detail": new.payee_detail,
        "description": new.description,
        "payment_flow": new.payment_flow,
    }


def unjournaled_occurrences(
    record: SeriesRecord,
    journaled: Collection[int | None],
    start: date,
    end: date,
    calendar: BusinessCalendar,
) -> list[tuple[int, Occurrence]]:
    """The occurrences of ``record``'s rule (its current one, after any edit) whose pay date is
    in ``[start, end]`` and whose number is not in ``journaled``, with their numbers: what the
    top-up journals within its horizon and what the calendar projects over its weeks (one
    function, so that both find the same occurrences on the same rolled dates)."""
    rule = rule_of(record.rule)
    base = int(record.rule.get(SEQ_BASE) or 0)
    return [
        (base + occurrence.index, occurrence)
        for occurrence in occurrences(rule, start, end, calendar=calendar)
        if base + occurrence.index not in journaled
    ]


def _planned(record: SeriesRecord, seq: int, occurrence: Occurrence) -> ScheduledPayment:
    template = record.template
    return ScheduledPayment(
        entry_id=f"planned:{record.id}:{seq}",
        pay_date=occurrence.pay.date,
        amount=Decimal(str(template["amount"])),
        payee=str(template.get("payee_name") or template.get("payee_detail") or ""),
        kind=str(template["kind"]),
        state=ScheduleState.PLANNED.value,
        series_id=record.id,
        series_seq=seq,
    )


def occurrence_key(series_id: str, seq: int) -> str:
    """An occurrence's idempotency key: fixed by its series and number, so that whoever
    journals it (two desktops topping up at once) journals the same intent."""
    return hashlib.sha256(f"series:{series_id}:{seq}".encode()).hexdigest()[:32]


def _with_amount(request: Mapping[str, Any], amount: Decimal, description: str) -> dict[str, Any]:
    body = dict(request)
    payment = body.get("payment")
    if isinstance(payment, Mapping):
        body["payment"] = {**payment, "amount": amount}
    if description:
        body["description"] = description
    else:
        body.pop("description", None)
    return body


# -- the service ----------------------------------------------------------------------------------


ChargeReader = Callable[[str], Awaitable["ChargeAmount"]]

REGISTERED_KINDS = frozenset({EntryKind.PIX_KEY, EntryKind.PIX_MANU, EntryKind.PIX_QRC})
"""The payments whose destination the payee registry may know (a key or an account)."""


class ScheduleService:
    """Scheduling, series, holds and the due sender of one session."""

    def __init__(
        self,
        engine: PaymentEngine,
        ledger: Ledger,
        accounts: AccountsClient,
        *,
        clock: Clock,
        settings: ScheduleSettings | None = None,
        read_charge: ChargeReader | None = None,
    ) -> None:
        self.engine = engine
        self.ledger = ledger
        self.accounts = accounts
        self.clock = clock
        self.settings = settings or ScheduleSettings()
        self.read_charge = read_charge
        engine.business_clock = clock
        engine.send_time = self.settings.send_time
        self._lock = asyncio.Lock()
        self._checked_days: set[date] = set()
        self._funds_tries: dict[int, int] = {}

    def today(self) -> date:
        return brasilia_today(self.clock)

    # -- scheduling ----------------------------------------------------------------------------

    def pay_on(self, asked: date) -> PayDate:
        """The pay date of a payment asked for ``asked`` (rolled, with the reason)."""
        return pay_date(asked, today=self.today(), calendar=self.settings.calendar)

    def schedule_payout(self, review: PayoutReview, asked: date | None) -> PayoutReview:
        """``review`` to be sent on ``asked`` (``None``: now)."""
        return dataclasses.replace(review, pay=None if asked is None else self.pay_on(asked))

    def schedule_batch(self, batch: PayoutBatch, asked: date | None) -> PayoutBatch:
        """``batch`` whose rows without a date of their own (the file's ``data_pagamento``)
        are sent on ``asked`` (``None``: now); each is journaled and sent by the engine like
        any scheduled payout."""
        if asked is None:
            return batch
        pay = self.pay_on(asked)
        rows = tuple(
            row if row.review.pay is not None else replace_row(row, pay) for row in batch.rows
        )
        return dataclasses.replace(batch, rows=rows)

    def schedule_billet(self, review: BilletReview, chosen: date | None = None) -> BilletReview:
        """``review`` paid on its due date (rolled forward to a business day), or on
        ``chosen`` (rolled too); a date after the due date is warned about."""
        calendar = self.settings.calendar
        pay = slip_pay_date(review.due_date, today=self.today(), chosen=chosen, calendar=calendar)
        warnings = review.warnings
        due = review.due_date
        if chosen is not None and due is not None and pay.date > calendar.next_business_day(due):
            # Later than the slip allows without charges: the amount read on the day will
            # differ (fine and interest) and the check on the day holds it for a person.
            warnings = (*warnings, Reason(PAY_AFTER_DUE, {"due": due, "pay": pay.date}))
        return dataclasses.replace(review, pay=pay, warnings=warnings)

    # -- series ---------------------------------------------------------------------------------

    async def create_series(
        self, review: PayoutReview, rule: SeriesRule
    ) -> tuple[str, list[Entry]]:
        """A recurring payout of ``review``'s content under ``rule``: kept, and its occurrences
        within the horizon journaled now."""
        check_series(rule)
        if rule.start < self.today():
            raise ScheduleError(
                "schedule.past", field="start", asked=rule.start, today=self.today()
            )
        blocked = await self.blocked(review.kind, review.payee_detail)
        if blocked is not None:
            raise ScheduleError(
                "registry.blocked",
                field="key" if review.kind is not EntryKind.PIX_MANU else "account",
                **blocked,
            )
        series_id = "S" + review.idempotency_key[:31]
        await self.ledger.schedule.save_series(
            series_id, rule_json(rule), _template(review.new_entry())
        )
        return series_id, await self._top_up_series(await self._series(series_id))

    async def _series(self, series_id: str) -> SeriesRecord:
        record = await self.ledger.schedule.series(series_id)
        if record is None:
            raise ScheduleError("scheduled.no_series", field="series", series=series_id)
        return record

    async def top_up(self) -> list[Entry]:
        """Journal the occurrences of every active series (this login's) that fall within the
        horizon and are not journaled yet."""
        made: list[Entry] = []
        for record in await self.ledger.schedule.active_series():
            if record.created_by != self.ledger.context.os_user:
                continue  # its maker's desktop journals it (a team: their intents)
            made.extend(await self._top_up_series(record))
        return made

    async def _top_up_series(self, record: SeriesRecord) -> list[Entry]:
        template = record.template
        if await self.blocked(EntryKind(template["kind"]), template["payee_detail"]):
            log.info("series %s: its destination is blocked, nothing journaled", record.id)
            return []
        today = self.today()
        end = today + timedelta(days=self.settings.horizon_days)
        have = {e.series_seq for e in await self.ledger.schedule.of_series(record.id)}
        made: list[Entry] = []
        calendar = self.settings.calendar
        for seq, occurrence in unjournaled_occurrences(record, have, today, end, calendar):
            new = NewEntry(
                kind=EntryKind(template["kind"]),
                amount=Decimal(str(template["amount"])),
                idempotency_key=occurrence_key(record.id, seq),
                request=template["request"],
                payee_name=template["payee_name"],
                payee_document=template["payee_document"],
                payee_detail=template["payee_detail"],
                description=template["description"],
                payment_flow=template["payment_flow"],
                pay_date=occurrence.pay.date,
                series_id=record.id,
                series_seq=seq,
            )
            try:
                made.append(await self.ledger.journal.create(new))
            except DuplicateIntent:  # another desktop journaled it meanwhile
                continue
        return made

    async def planned(self, start: date, end: date) -> list[ScheduledPayment]:
        """The occurrences of every active series (anyone's: the team's balance is one) not
        journaled yet whose pay date is in ``[start, end]``, never before today (the top-up
        journals none before today), each on the date and with the terms the top-up would
        journal it with; an ended series has none. By date."""
        first = max(start, self.today())
        if end < first:
            return []
        found: list[ScheduledPayment] = []
        calendar = self.settings.calendar
        for record in await self.ledger.schedule.active_series():
            template = record.template
            if await self.blocked(EntryKind(template["kind"]), template["payee_detail"]):
                continue  # the top-up journals nothing to a blocked destination
            have = {e.series_seq for e in await self.ledger.schedule.of_series(record.id)}
            found.extend(
                _planned(record, seq, occurrence)
                for seq, occurrence in unjournaled_occurrences(record, have, first, end, calendar)
            )
        found.sort(key=lambda p: (p.pay_date, p.series_id or "", p.series_seq or 0))
        return found

    async def blocked(self, kind: EntryKind, detail: str) -> dict[str, str] | None:
        """``detail`` and its owner's name when a payment of ``kind`` to ``detail`` goes to a
        destination blocked in the payee registry; ``None`` otherwise."""
        if kind not in REGISTERED_KINDS or not detail:
            return None
        destination = (await self.ledger.payees.by_details([detail])).get(detail)
        if destination is None or destination.state is not DestinationState.BLOCKED:
            return None
        owner = await self.ledger.payees.payee(destination.payee_id)
        return {"detail": detail, "owner": owner.name if owner is not None else ""}

    def _not_approved_yet(self, entry: Entry) -> bool:
        """An occurrence a series' change may still touch: not sent, and not approved (it
        may have some of its approvals: a change voids them)."""
        if entry.state != EntryState.PREPARED:
            return False
        return entry.approval in (None, "WAITING") or (
            entry.approval == "APPROVED" and entry.approvals_needed == 0
        )

    async def series_terms(self, series_id: str) -> SeriesTerms:
        """The series' rule and what each occurrence pays (an edit's starting point)."""
        return _terms(await self._series(series_id))

    async def _plan(
        self,
        record: SeriesRecord,
        amount: Decimal,
        description: str,
        rule: SeriesRule,
    ) -> tuple[SeriesChange, int]:
        """What changing ``record`` to ``amount``, ``description`` and ``rule`` does, and the
        occurrence number the new rule starts at."""
        if not record.active:  # ended: nothing more of it is journaled
            raise ScheduleError("scheduled.series_ended", field="series", series=record.id)
        check_series(rule)
        today = self.today()
        old = rule_of(record.rule)
        entries = await self.ledger.schedule.of_series(record.id)
        base = int(record.rule.get(SEQ_BASE) or 0)
        moved = not same_dates(old, rule)
        if moved:
            if rule.start < today:
                raise ScheduleError("schedule.past", field="start", asked=rule.start, today=today)
            base = max((e.series_seq or 0 for e in entries), default=-1) + 1
        calendar = self.settings.calendar
        open_ = [e for e in entries if self._not_approved_yet(e)]
        kept = [
            e
            for e in entries
            if e not in open_
            and e.state != EntryState.REJECTED
            and e.pay_date is not None
            and e.pay_date >= today
        ]
        stays = [
            e
            for e in open_
            if not moved and in_rule(rule, (e.series_seq or 0) - base, calendar=calendar)
        ]
        changed = [e for e in stays if e.amount != amount or e.description != description]
        cancelled = [e for e in open_ if e not in stays]
        if moved and kept:
            last = max(e.pay_date for e in kept if e.pay_date is not None)
            first = occurrences(
                rule, rule.start, rule.start + timedelta(days=400), calendar=calendar
            )
            if first and first[0].pay.date <= last:
                raise ScheduleError(
                    "scheduled.series_before_kept",
                    field="start",
                    kept=last,
                    first=first[0].pay.date,
                )
        have = {e.series_seq for e in entries}
        end = today + timedelta(days=self.settings.horizon_days)
        new_dates = tuple(
            o.pay.date
            for o in occurrences(rule, today, end, calendar=calendar)
            if o.index + base not in have
        )
        terms = dataclasses.replace(
            _terms(record), rule=rule, amount=amount, description=description
        )
        change = SeriesChange(terms, tuple(changed), tuple(cancelled), tuple(kept), new_dates)
        return change, base

    async def review_series_edit(
        self, series_id: str, amount: Decimal, description: str, rule: SeriesRule
    ) -> SeriesChange:
        """What :meth:`change_series` would do now (the review of an edit)."""
        change, _base = await self._plan(
            await self._series(series_id), amount, description.strip(), rule
        )
        return change

    async def change_series(
        self, series_id: str, amount: Decimal, description: str, rule: SeriesRule
    ) -> SeriesChange:
        """Change what the series pays and how it repeats, from now on: the series itself,
        the occurrences not approved nor sent (a new amount or description; cancelled when
        the new rule no longer has them), and the new rule's occurrences within the horizon
        journaled. Approved or sent occurrences stay as they are. Returns what was done
        (worked out again: an occurrence approved since the review stays)."""
        async with self._lock:
            record = await self._series(series_id)
            text = description.strip()
            change, base = await self._plan(record, amount, text, rule)
            template = dict(record.template)
            template["amount"] = str(amount)
            template["description"] = text
            template["request"] = _with_amount(template["request"], amount, text)
            saved = await self.ledger.schedule.save_series(
                series_id, rule_json(rule, base), template
            )
            changed = []
            for entry in change.changed:
                request = _with_amount(entry.request(), amount, text)
                edited = await self.ledger.schedule.edit(entry.id, amount, text, request)
                self.engine.announce(edited)
                changed.append(edited)
            cancelled = []
            for entry in change.cancelled:
                cancelled.append(await self._cancel(entry.id, SERIES_CHANGED))
            made = await self._top_up_series(saved)
            for entry in made:
                self.engine.announce(entry)
            return dataclasses.replace(
                change,
                changed=tuple(changed),
                cancelled=tuple(cancelled),
                new_dates=tuple(e.pay_date for e in made if e.pay_date is not None),
            )

    async def edit_series(
        self, series_id: str, amount: Decimal, description: str | None = None
    ) -> list[Entry]:
        """Change what the series pays from now on (its rule as it is); returns the
        occurrences changed."""
        terms = await self.series_terms(series_id)
        text = terms.description if description is None else description
        change = await self.change_series(series_id, amount, text, terms.rule)
        return list(change.changed)

    async def review_series_end(self, series_id: str) -> SeriesChange:
        """What :meth:`end_series` would do now: the occurrences it cancels and those that
        stay (approved or sent)."""
        record = await self._series(series_id)
        today = self.today()
        entries = await self.ledger.schedule.of_series(series_id)
        open_ = tuple(e for e in entries if self._not_approved_yet(e))
        kept = tuple(
            e
            for e in entries
            if e not in open_
            and e.state != EntryState.REJECTED
            and e.pay_date is not None
            and e.pay_date >= today
        )
        from treasury_app.services.calendar import horizon  # the calendar imports this module

        _first, last = horizon(today)
        have = {e.series_seq for e in entries}
        calendar = self.settings.calendar
        if not record.active:  # ended: nothing more of it is made
            return SeriesChange(_terms(record), cancelled=open_, kept=kept)
        planned = unjournaled_occurrences(record, have, today, last, calendar)
        after = unjournaled_occurrences(
            record, have, last + timedelta(days=1), last + timedelta(days=400), calendar
        )
        return SeriesChange(
            _terms(record),
            cancelled=open_,
            kept=kept,
            planned=tuple(occurrence.pay.date for _seq, occurrence in planned),
            more_planned=bool(after),
        )

    async def end_series(self, series_id: str, reason: str) -> list[Entry]:
        """End the series: no more occurrences, and those not yet approved nor sent are
        cancelled (approved ones stay: a person cancels them one by one)."""
        async with self._lock:
            await self.ledger.schedule.end_series(series_id)
            cancelled = []
            for entry in await self.ledger.schedule.of_series(series_id):
                if self._not_approved_yet(entry):
                    cancelled.append(await self._cancel(entry.id, reason))
            return cancelled

    async def _cancel(self, entry_id: int, reason: str) -> Entry:
        cancelled = await self.ledger.schedule.cancel(entry_id, reason)
        await self.ledger.schedule.clear_hold(entry_id, "cancel")
        self.engine.announce(cancelled)
        return cancelled

    # -- a person's decisions -------------------------------------------------------------------

    async def held(self) -> list[HeldPayment]:
        """The scheduled payments waiting for a person, by pay date."""
        holds = await self.ledger.schedule.holds()
        return [
            HeldPayment(entry, holds[entry.id])
            for entry in await self.ledger.schedule.waiting()
            if entry.id in holds
        ]

    async def held_now(self) -> list[HeldPayment]:
        """What waits for a person now, late ones held first (the start's prompt: a payment
        whose day passed while nothing was open shows at once, not after the due sender's
        first pass)."""
        async with self._lock:
            await self.hold_late()
        return await self.held()

    async def move(self, entry_id: int, new_date: date) -> Entry:
        """Move a scheduled payment (the new date rolled to a business day); a hold is
        cleared (a person decided)."""
        rolled = self.pay_on(new_date)
        moved = await self.ledger.schedule.move(entry_id, rolled.date)
        await self.ledger.schedule.clear_hold(entry_id, "move")
        self.engine.announce(moved)
        return moved

    async def cancel(self, entry_id: int, reason: str) -> Entry:
        cancelled = await self.ledger.schedule.cancel(entry_id, reason)
        await self.ledger.schedule.clear_hold(entry_id, "cancel")
        self.engine.announce(cancelled)
        return cancelled

    async def send_now(self, entry_id: int) -> Entry:
        """A person chose "Send now" for a held payment: sent today, even though its day
        passed (a team database still asks for valid approvals)."""
        entry = await self.ledger.journal.get(entry_id)
        blocked = await self.blocked(entry.kind, entry.payee_detail)
        if blocked is not None:  # held it stays, until the destination is unblocked
            raise ScheduleError(
                "registry.blocked",
                field="key" if entry.kind is not EntryKind.PIX_MANU else "account",
                **blocked,
            )
        await self.ledger.schedule.clear_hold(entry_id, "send")
        self._funds_tries.pop(entry_id, None)
        return await self.engine.send(entry, late_confirmed=True)

    # -- on the day -----------------------------------------------------------------------------

    def _ours(self, entry: Entry) -> bool:
        """Whether this desktop sends ``entry`` when due (a team database: the releasing
        desktop; the file: this one)."""
        if self.engine.read_only:
            return False
        return self.ledger.backend == "file" or self.engine.releases(entry)

    async def hold_late(self) -> list[Hold]:
        """Hold every scheduled payment whose day passed unsent (run at start and on every
        pass): nothing goes out days late by itself."""
        today = self.today()
        holds = await self.ledger.schedule.holds()
        made = []
        for entry in await self.ledger.schedule.waiting():
            assert entry.pay_date is not None
            if entry.pay_date < today and entry.id not in holds and self._ours(entry):
                made.append(await self._hold(entry, LATE, {"due": entry.pay_date}))
        return made

    async def _hold(self, entry: Entry, code: str, params: Mapping[str, Any]) -> Hold:
        """Hold ``entry`` for a person, and tell the lists (its state is "held" now)."""
        hold = await self.ledger.schedule.hold(entry.id, code, params)
        self.engine.announce(entry)
        return hold

    async def _available(self) -> Decimal:
        balances = await self.accounts.get_balances()
        return balances[0].available if balances else Decimal("0.00")

    async def day_warnings(self, days: int = 1) -> list[DayWarning]:
        """Today and the next ``days`` business days whose scheduled payments (not sent, not
        held) the balance now does not cover: warned a business day ahead."""
        today = self.today()
        calendar = self.settings.calendar
        wanted = [calendar.next_business_day(today)]
        for _ in range(days):
            wanted.append(calendar.next_business_day(wanted[-1] + timedelta(days=1)))
        holds = await self.ledger.schedule.holds()
        totals: dict[date, Decimal] = {}
        for entry in await self.ledger.schedule.waiting():
            if entry.pay_date in wanted and entry.id not in holds:
                totals[entry.pay_date] = totals.get(entry.pay_date, Decimal("0")) + entry.amount
        if not totals:
            return []
        balance = await self._available()
        return [
            DayWarning(day, total, balance)
            for day, total in sorted(totals.items())
            if total > balance
        ]

    async def send_due(self) -> list[Entry]:
        """One pass of the due sender: top up the series, hold what is late, and send what is
        due now (after the day's checks). Returns the entries sent."""
        async with self._lock:
            await self.top_up()
            await self.hold_late()
            now = self.clock()
            today = brasilia_date(now)
            if not is_due(today, now, self.settings.send_time):
                return []
            holds = await self.ledger.schedule.holds()
            due = [
                entry
                for entry in await self.ledger.schedule.waiting()
                if entry.pay_date == today and entry.id not in holds and self._ours(entry)
            ]
            due = [entry for entry in due if not await self._held_if_blocked(entry)]
            if not due:
                return []
            if today not in self._checked_days:
                if not await self._day_fits(due):
                    return []
                self._checked_days.add(today)
            sent = []
            for entry in due:
                if await self._check_on_the_day(entry, now):
                    try:
                        result = await self.engine.send(entry)
                    except DestinationBlocked as blocked:  # blocked while the day's went out
                        await self._hold(entry, DESTINATION_BLOCKED, dict(blocked.params))
                        continue
                    self._funds_tries.pop(entry.id, None)
                    sent.append(result)
            return sent

    async def _held_if_blocked(self, entry: Entry) -> bool:
        """Hold ``entry`` when its destination was blocked in the registry since it was
        scheduled (before the day's balance is counted: it is not sent)."""
        blocked = await self.blocked(entry.kind, entry.payee_detail)
        if blocked is None:
            return False
        await self._hold(entry, DESTINATION_BLOCKED, blocked)
        log.warning("scheduled payment %s held: %s is blocked", entry.id, entry.payee_detail)
        return True

    async def _day_fits(self, due: list[Entry]) -> bool:
        """The balance read before the day's first send: a day whose total it does not cover
        is held whole (never half-sent at random)."""
        total = sum((entry.amount for entry in due), Decimal("0"))
        balance = await self._available()
        if total <= balance:
            return True
        for entry in due:
            await self._hold(entry, BALANCE_SHORT, {"total": total, "balance": balance})
        log.warning("scheduled payments of the day held: %s due, %s available", total, balance)
        return False

    async def _check_on_the_day(self, entry: Entry, now: datetime) -> bool:
        """Whether ``entry`` may be sent now; held (or left for the next pass) otherwise."""
        reason = await self._changed_since_scheduled(entry)
        if reason is not None:
            await self._hold(entry, reason.code, reason.params)
            return False
        if entry.amount <= await self._available():
            return True
        tries = self._funds_tries[entry.id] = self._funds_tries.get(entry.id, 0) + 1
        cutoff = datetime.combine(
            now.astimezone(BRASILIA).date(), self.settings.funds_cutoff, BRASILIA
        )
        if tries >= self.settings.funds_retries or now >= cutoff:
            await self._hold(entry, INSUFFICIENT_FUNDS, {"tries": tries, "amount": entry.amount})
            self._funds_tries.pop(entry.id, None)
        else:
            log.info("scheduled payment %s: balance short, try %s", entry.id, tries)
        return False

    async def _changed_since_scheduled(self, entry: Entry) -> Reason | None:
        """A slip whose updated amount moved beyond the tolerance, a dynamic code whose charge
        is no longer payable (or asks another amount): the reason to hold it."""
        if entry.kind == EntryKind.BILLET:
            try:
                info = await self.accounts.get_billet_info(entry.payee_detail)
            except ApiFailure as error:
                log.info("slip of entry %s not read again: %s", entry.id, error)
                return Reason(SLIP_AMOUNT_CHANGED, {"scheduled": entry.amount, "now": None})
            now = info.total_updated
            if now is None or abs(now - entry.amount) > self.settings.slip_tolerance:
                return Reason(SLIP_AMOUNT_CHANGED, {"scheduled": entry.amount, "now": now})
            return None
        if entry.kind == EntryKind.PIX_QRC and self.read_charge is not None:
            code = _code_of(entry)
            if code is None or not code.is_dynamic or code.url is None:
                return None
            try:
                charge = await self.read_charge(code.url)
            except (ApiFailure, ValueError) as error:
                log.info("charge of entry %s not payable: %s", entry.id, error)
                return Reason(CHARGE_NOT_PAYABLE, {"amount": entry.amount})
            if charge.amount != entry.amount and not charge.changeable:
                return Reason(CHARGE_NOT_PAYABLE, {"amount": entry.amount, "now": charge.amount})
        return None


def replace_row(row: BatchRow, pay: PayDate) -> BatchRow:
    return dataclasses.replace(row, review=dataclasses.replace(row.review, pay=pay))


def _code_of(entry: Entry) -> BrCode | None:
    payload = entry.request().get("qrCode")
    if not isinstance(payload, str):
        return None
    try:
        return brcode.parse(payload)
    except RuleError:
        return None


@dataclass
class DueSender:
    """Runs :meth:`ScheduleService.send_due` every :attr:`interval` seconds until stopped
    (the open app's; the unattended releaser's)."""

    service: ScheduleService
    interval: float = 60.0
    _stopped: bool = False
    _wake: asyncio.Event = field(default_factory=asyncio.Event)

    async def run(self) -> None:
        while not self._stopped:
            self._wake.clear()
            try:
                await self.service.send_due()
            except Exception:  # a pass that fails does not end the sending
                log.exception("the due sender's pass failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.interval)

    def wake(self) -> None:
        self._wake.set()

    def stop(self) -> None:
        self._stopped = True
        self._wake.set()
