"""One clock for people (DESIGN.md, "Time"): every instant a person sees, exports or prints is
written by ``domain.clock.format_instant`` in Brasília time, every date by ``format_date``, and
the same whatever the computer's time zone; a typed date is read strictly.

The source test below holds the screens, the exports and the sandbox's receipts to it: no
``strftime``, no ``%``-format of a date in an f-string, no ``QLocale.toString`` of a date or a
time, no ``QDateTime``, no ``astimezone()`` to the computer's zone outside the formatter."""

from __future__ import annotations

import ast
import datetime as dt
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from treasury_app.domain.clock import (
    InstantForm,
    format_date,
    format_instant,
    parse_date,
    parse_instant,
)

PACKAGE = Path(__file__).resolve().parents[2] / "treasury_app"

# 05:26:49 in Brasília: 08:26:49 UTC, 04:26:49 in Manaus.
PIX_AT = dt.datetime(2026, 11, 28, 8, 26, 49, tzinfo=dt.UTC)
ZONES = ["UTC", "America/Manaus", "Asia/Tokyo", "America/Sao_Paulo"]


@pytest.fixture(params=ZONES)
def computer_zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The process's own time zone set to ``request.param`` (POSIX: ``TZ`` and ``tzset``; on
    Windows, where a process cannot change it, the machine's zone stays and
    :func:`test_the_formatter_in_a_process_of_another_zone` covers the change)."""
    if not hasattr(time, "tzset"):
        pytest.skip("time.tzset exists on POSIX only")
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    try:
        yield request.param
    finally:
        monkeypatch.undo()
        time.tzset()


def test_an_instant_is_written_in_brasilia_whatever_the_computers_zone(computer_zone: str) -> None:
    assert (
        dt.datetime.fromtimestamp(PIX_AT.timestamp()).hour
        == {
            "UTC": 8,
            "America/Manaus": 4,
            "Asia/Tokyo": 17,
            "America/Sao_Paulo": 5,
        }[computer_zone]
    )  # the zone did change
    assert format_instant(PIX_AT) == "28/11/2026 05:26"
    assert format_instant(PIX_AT, InstantForm.SECONDS) == "28/11/2026 05:26:49"
    assert format_instant(PIX_AT, InstantForm.TIME) == "05:26"
    assert format_instant("2026-11-28T08:26:49.123Z") == "28/11/2026 05:26"
    # 01:30 UTC on the 29th is still the 28th in Brasília.
    assert format_instant("2026-11-29T01:30:00+00:00", InstantForm.DATE) == "28/11/2026"


def test_the_formatter_in_a_process_of_another_zone() -> None:
    """The same in a fresh process started with ``TZ`` set (meaningful on every system that
    reads ``TZ`` at start-up, Windows' C runtime included)."""
    code = (
        "import datetime as dt\n"
        "from treasury_app.domain.clock import format_instant\n"
        "print(format_instant(dt.datetime(2026, 11, 28, 8, 26, 49, tzinfo=dt.UTC)))\n"
    )
    for zone in ("UTC", "America/Manaus"):
        env = {**os.environ, "TZ": zone}
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == "28/11/2026 05:26", zone


def test_a_naive_instant_is_refused_not_guessed() -> None:
    with pytest.raises(ValueError):
        format_instant(dt.datetime(2026, 11, 28, 8, 26))
    with pytest.raises(ValueError):
        format_instant("2026-11-28T08:26:49")
    with pytest.raises(ValueError):
        parse_instant("yesterday")


def test_a_date_is_day_first_and_never_an_instant() -> None:
    assert format_date(dt.date(2029, 3, 2)) == "02/03/2029"
    with pytest.raises(TypeError):
        format_date(PIX_AT)  # type: ignore[arg-type]


def test_the_summer_time_of_past_years_is_kept() -> None:
    # Brasília was UTC-2 in the summer until 2019.
    assert format_instant(dt.datetime(2018, 12, 1, 12, 0, tzinfo=dt.UTC)) == "01/12/2018 10:00"


@pytest.mark.parametrize(
    ("typed", "day"),
    [
        ("09/01/2026", dt.date(2026, 1, 9)),
        ("9/1/2026", dt.date(2026, 1, 9)),
        (" 28/11/2026 ", dt.date(2026, 11, 28)),
        ("29/02/2028", dt.date(2028, 2, 29)),
    ],
)
def test_a_typed_date_is_read_day_first(typed: str, day: dt.date) -> None:
    assert parse_date(typed) == day


@pytest.mark.parametrize(
    "typed",
    [
        "09/01/26",
        "10/1/26",
        "2026-01-09",
        "31/02/2026",
        "29/02/2027",
        "13/13/2026",
        "",
        "hoje",
        "09-01-2026",
        "09/01/2026 10:00",
        "1/9/2026x",
    ],
)
def test_what_is_not_a_date_is_refused(typed: str) -> None:
    with pytest.raises(ValueError):
        parse_date(typed)


# -- the source: one formatter ------------------------------------------------------------------

FORMATTER = {PACKAGE / "domain" / "clock.py", PACKAGE / "ui" / "times.py"}
HELD = [
    *sorted((PACKAGE / "ui").rglob("*.py")),
    PACKAGE / "services" / "exports.py",
    PACKAGE / "sandbox" / "pdf.py",
    PACKAGE / "sandbox" / "accounts_routes.py",
    PACKAGE / "sandbox" / "console.py",
]
# Where an instant is not written for a person to read.
ALLOWED = {
    ("ui/receipt_names.py", "strftime"): "a file name: ISO dates sort by date",
    ("sandbox/pdf.py", "strftime"): "the PDF's /CreationDate, a machine's field",
    ("ui/widgets/date_edits.py", "imports QDateTime"): "reads a typed date, writes none",
    ("ui/widgets/date_edits.py", "imports QTime"): "reads a typed date, writes none",
    ("ui/widgets/support_panel.py", "f-string date format"): (
        "the support text, in English and UTC for the developers, and a backup's file name"
    ),
}
QT_TIME_CLASSES = {"QDateTime", "QTime", "QTimeZone"}


def _offences(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name == "strftime":
                yield node.lineno, "strftime"
            if name == "astimezone" and not node.args and not node.keywords:
                yield node.lineno, "astimezone() to the computer's zone"
            if name == "toString" and isinstance(node.func.value, ast.Call):
                callee = node.func.value.func
                if isinstance(callee, ast.Name) and callee.id == "QLocale":
                    yield node.lineno, "QLocale().toString"
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = ast.unparse(node.format_spec)
            if "%" in spec:
                yield node.lineno, "f-string date format"
        if isinstance(node, ast.ImportFrom) and node.module == "PySide6.QtCore":
            for alias in node.names:
                if alias.name in QT_TIME_CLASSES:
                    yield node.lineno, f"imports {alias.name}"


def test_screens_exports_and_receipts_write_instants_through_one_formatter() -> None:
    found = []
    for path in HELD:
        if path in FORMATTER:
            continue
        where = path.relative_to(PACKAGE).as_posix()
        for line, what in _offences(path):
            if (where, what) not in ALLOWED:
                found.append(f"{where}:{line}: {what}")
    assert found == []


def test_the_source_test_sees_an_offence(tmp_path: Path) -> None:
    """The rule above would catch each way of writing a time of one's own."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from PySide6.QtCore import QDateTime, QLocale\n"
        "a = moment.strftime('%d/%m')\n"
        "b = f'{moment:%H:%M}'\n"
        "c = moment.astimezone()\n"
        "d = QLocale().toString(x, 'HH:mm')\n",
        encoding="utf-8",
    )
    kinds = [what for _line, what in _offences(probe)]
    assert len(kinds) == 5, kinds
