"""Business time (``treasury_app.domain.clock``): Brasília dates from an explicit clock, the
same whatever the computer's time zone, and no product module reading the machine's calendar
for a business date."""

from __future__ import annotations

import ast
import datetime as dt
import os
import time
from pathlib import Path

import pytest

from treasury_app.domain import boleto
from treasury_app.domain.clock import (
    BRASILIA,
    FixedClock,
    brasilia_date,
    brasilia_now,
    brasilia_today,
    system_clock,
    to_brasilia,
)
from treasury_app.services.billets import BilletsService
from treasury_app.services.charges import ChargesService
from treasury_app.services.recurrences import RecurrencesService

PACKAGE = Path(__file__).resolve().parents[2] / "treasury_app"

NIGHT = dt.datetime(2026, 11, 19, 2, 30, tzinfo=dt.UTC)  # 23:30 of the 18th in Brasília
EARLY = dt.datetime(2026, 11, 19, 3, 30, tzinfo=dt.UTC)  # 00:30 of the 19th in Brasília


def test_23_30_in_brasilia_is_still_today_although_utc_is_tomorrow() -> None:
    assert NIGHT.date() == dt.date(2026, 11, 19)
    assert brasilia_today(FixedClock(NIGHT)) == dt.date(2026, 11, 18)
    now = brasilia_now(FixedClock(NIGHT))
    assert (now.hour, now.minute, now.tzinfo) == (23, 30, BRASILIA)


def test_00_30_in_brasilia_is_the_next_day() -> None:
    assert brasilia_today(FixedClock(EARLY)) == dt.date(2026, 11, 19)
    # 00:30 UTC is still the previous evening in Brasília.
    assert brasilia_date(dt.datetime(2026, 11, 19, 0, 30, tzinfo=dt.UTC)) == dt.date(2026, 11, 18)


@pytest.mark.parametrize(
    "service",
    [
        lambda clock: BilletsService(None, None, None, clock=clock),  # type: ignore[arg-type]
        lambda clock: ChargesService(None, None, clock=clock),  # type: ignore[arg-type]
        lambda clock: RecurrencesService(None, None, clock=clock),  # type: ignore[arg-type]
    ],
    ids=["billets", "charges", "recurrences"],
)
def test_services_take_their_date_from_their_clock(service) -> None:
    clock = FixedClock(NIGHT)
    built = service(clock)
    assert built.today() == dt.date(2026, 11, 18)
    clock.set(EARLY)
    assert built.today() == dt.date(2026, 11, 19)


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="time.tzset exists on POSIX only")
@pytest.mark.parametrize("zone", ["Asia/Tokyo", "America/Los_Angeles", "UTC"])
def test_the_computers_time_zone_changes_nothing(monkeypatch: pytest.MonkeyPatch, zone) -> None:
    monkeypatch.setenv("TZ", zone)
    time.tzset()
    try:
        assert brasilia_today(FixedClock(NIGHT)) == dt.date(2026, 11, 18)
        assert brasilia_today(FixedClock(EARLY)) == dt.date(2026, 11, 19)
    finally:
        monkeypatch.undo()
        time.tzset()


def test_the_zone_is_the_iana_one_not_a_fixed_offset() -> None:
    # Brasília kept summer time (UTC-2) until 2019: 02:30 UTC on 2018-11-05 was 00:30 there.
    assert brasilia_date(dt.datetime(2018, 11, 5, 2, 30, tzinfo=dt.UTC)) == dt.date(2018, 11, 5)
    assert to_brasilia(dt.datetime(2026, 1, 15, 12, tzinfo=dt.UTC)).utcoffset() == dt.timedelta(
        hours=-3
    )


def test_naive_instants_are_refused_not_guessed() -> None:
    with pytest.raises(ValueError, match="time zone"):
        to_brasilia(dt.datetime(2026, 11, 18, 12, 0))
    with pytest.raises(ValueError):
        FixedClock(dt.datetime(2026, 11, 18, 12, 0))


def test_system_clock_is_aware_utc() -> None:
    now = system_clock()
    assert now.tzinfo is not None and now.utcoffset() == dt.timedelta(0)


def test_fixed_clock_moves_only_when_told() -> None:
    clock = FixedClock(NIGHT)
    assert clock() == clock() == NIGHT
    clock.advance(dt.timedelta(hours=1))
    assert clock() == EARLY


def test_a_boletos_due_date_is_read_in_the_cycle_of_the_given_day() -> None:
    barcode = boleto.build_bank_barcode(
        "237", None, dt.date(2026, 11, 18), "1234567890123456789012345"
    )
    # The factor restarts every 9000 days: the same digits name a date 9000 days later in
    # the next cycle; only the reference date (never the machine's) tells which.
    assert boleto.parse(barcode, today=dt.date(2026, 11, 18)).due_date == dt.date(2026, 11, 18)
    later = dt.date(2026, 11, 18) + dt.timedelta(days=9000)
    assert boleto.parse(barcode, today=later).due_date == later
    with pytest.raises(TypeError):
        boleto.parse(barcode)  # type: ignore[call-arg]


# The machine's clock may be read only where an instant (not a business date) is meant, or
# where the clock is made: each exception says why.
ALLOWED = {
    "domain/clock.py": "the one clock helper (system_clock)",
    "sandbox/clock.py": "the sandbox's clock: real time plus its offset",
    "sandbox/pki.py": "certificate validity is checked against the machine's clock by TLS",
    "api/tls.py": "certificate validity, as TLS checks it",
    "api/tokens.py": "token expiry, an instant on the machine's clock",
    "ui/widgets/api_status.py": "days until a certificate expires",
    "ui/widgets/support_panel.py": "when the diagnostics were copied (an instant, for support)",
}
MACHINE_CLOCK_CALLS = {"now", "today", "utcnow", "currentDate", "currentDateTime"}


def _machine_clock_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text("utf-8"))
    lines = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MACHINE_CLOCK_CALLS
            and isinstance(node.func.value, ast.Name | ast.Attribute)
        ):
            owner = node.func.value
            name = owner.attr if isinstance(owner, ast.Attribute) else owner.id
            if name in {"date", "datetime", "QDate", "QDateTime", "dt"}:
                lines.append(node.lineno)
    return lines


def test_no_business_date_comes_from_the_machines_calendar() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).as_posix()
        if relative in ALLOWED:
            continue
        offenders += [f"{relative}:{line}" for line in _machine_clock_calls(path)]
    assert offenders == [], (
        "read the date from an explicit clock (treasury_app.domain.clock), not the machine's"
    )


def test_the_exceptions_still_read_the_machines_clock() -> None:
    # An entry of ALLOWED that no longer needs it should go (the list stays honest).
    stale = [name for name in ALLOWED if not _machine_clock_calls(PACKAGE / name)]
    assert stale == []


def test_one_brasilia_zone_in_the_product() -> None:
    definitions = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(t, ast.Name) and t.id == "BRASILIA" for t in targets):
                    definitions.append(path.relative_to(PACKAGE).as_posix())
    assert definitions == ["domain/clock.py"]
    assert os.path.basename(BRASILIA.key) == "Sao_Paulo"
