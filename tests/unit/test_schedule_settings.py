"""Scheduling settings (issue 35): read strictly from what a person types, every refusal a
code on its field; kept in the profile (a default left out of the file) and turned into the
schedule service's settings."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from treasury_app.services.profiles import ScheduleProfile
from treasury_app.services.schedule import (
    ScheduleSettings,
    SettingsError,
    read_schedule_form,
)
from treasury_app.ui.rule_words import RULES


def test_typed_settings_are_read_into_the_profile_and_the_services_settings() -> None:
    read = read_schedule_form("07:30", "5,00", "4", "16:45", "20/11/2026\n 24/12/2026, 20/11/2026")
    assert read == ScheduleProfile(
        send_time=dt.time(7, 30),
        slip_tolerance=Decimal("5.00"),
        funds_retries=4,
        funds_cutoff=dt.time(16, 45),
        extra_dates=(dt.date(2026, 11, 20), dt.date(2026, 12, 24)),
    )
    settings = ScheduleSettings.from_profile(read)
    assert settings.send_time == dt.time(7, 30) and settings.funds_retries == 4
    assert settings.slip_tolerance == Decimal("5.00") and settings.funds_cutoff == dt.time(16, 45)
    assert not settings.calendar.is_business_day(dt.date(2026, 11, 20))  # a Friday, the city's
    assert settings.calendar.next_business_day(dt.date(2026, 11, 20)) == dt.date(2026, 11, 23)
    assert read_schedule_form("08:00", "", "3", "17:00", "") == ScheduleProfile()
    assert ScheduleSettings.from_profile(ScheduleProfile()) == ScheduleSettings()


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        (("8:00", "0", "3", "17:00", ""), "settings.time_format", "send_time"),
        (("24:00", "0", "3", "17:00", ""), "settings.time_format", "send_time"),
        (("08:00", "0", "3", "17h", ""), "settings.time_format", "funds_cutoff"),
        (("08:00", "0", "3", "07:59", ""), "settings.cutoff_before_send", "funds_cutoff"),
        (("08:00", "0", "3", "08:00", ""), "settings.cutoff_before_send", "funds_cutoff"),
        (("08:00", "-1,00", "3", "17:00", ""), "money.negative", "slip_tolerance"),
        (("08:00", "10.000,01", "3", "17:00", ""), "settings.tolerance_range", "slip_tolerance"),
        (("08:00", "0", "0", "17:00", ""), "settings.retries_range", "funds_retries"),
        (("08:00", "0", "11", "17:00", ""), "settings.retries_range", "funds_retries"),
        (("08:00", "0", "2.5", "17:00", ""), "settings.retries_range", "funds_retries"),
        (("08:00", "0", "٣", "17:00", ""), "settings.retries_range", "funds_retries"),
        (("08:00", "0", "3", "17:00", "31/02/2027"), "settings.extra_date", "extra_dates"),
        (("08:00", "0", "3", "17:00", "2026-11-20"), "settings.extra_date", "extra_dates"),
        (("08:00", "0", "3", "17:00", "20/11/26"), "settings.extra_date", "extra_dates"),
    ],
)
def test_each_bad_setting_is_a_code_on_its_field(
    fields: tuple[str, str, str, str, str], code: str, field: str
) -> None:
    with pytest.raises(SettingsError) as refused:
        read_schedule_form(*fields)
    assert (refused.value.code, refused.value.field) == (code, field)
    assert code in RULES


def test_a_bad_amount_keeps_the_moneys_own_code_on_the_tolerance_field() -> None:
    with pytest.raises(SettingsError) as refused:
        read_schedule_form("08:00", "cinco", "3", "17:00", "")
    assert refused.value.field == "slip_tolerance" and refused.value.code in RULES


def test_too_many_extra_dates_are_refused() -> None:
    days = "\n".join(
        (dt.date(2027, 1, 1) + dt.timedelta(days=n)).strftime("%d/%m/%Y") for n in range(101)
    )
    with pytest.raises(SettingsError) as refused:
        read_schedule_form("08:00", "0", "3", "17:00", days)
    assert refused.value.code == "settings.extra_dates_too_many"
