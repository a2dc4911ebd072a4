"""Instants and dates as the UI writes them: Brasília time through the domain's one formatter
(:func:`treasury_app.domain.clock.format_instant`), with the zone named where a deadline is
concerned, since a person on a computer set to another zone must not read it as their own.

UI code writes no instant any other way (no ``strftime``, no ``QLocale.toString`` of a time,
no ``astimezone()`` to the computer's zone): ``tests/unit/test_one_clock.py`` holds it to that.
"""

from __future__ import annotations

import datetime as dt

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.clock import InstantForm, format_date, format_instant, parse_instant

__all__ = [
    "InstantForm",
    "date_or_empty",
    "deadline_text",
    "format_date",
    "format_instant",
    "instant_or_empty",
    "parse_instant",
    "with_zone",
]

CONTEXT = "Times"
_ZONE_NAMED = QT_TRANSLATE_NOOP("Times", "%1 (Brasília)")


def with_zone(text: str) -> str:
    """``text`` (a Brasília time) followed by the zone's name: ``28/11/2026 05:26 (Brasília)``,
    ``28/11/2026 05:26 (horário de Brasília)``."""
    return QCoreApplication.translate(CONTEXT, str(_ZONE_NAMED)).replace("%1", text)


def instant_or_empty(
    instant: dt.datetime | str | None, form: InstantForm = InstantForm.MINUTES
) -> str:
    """:func:`format_instant`, or ``""`` for an instant not known (``None``, an empty stamp)."""
    if instant is None or instant == "":
        return ""
    return format_instant(instant, form)


def deadline_text(instant: dt.datetime | str | None) -> str:
    """A deadline (a defense's, a charge's expiry): the Brasília time with the zone named;
    ``""`` when there is none."""
    text = instant_or_empty(instant)
    return with_zone(text) if text else ""


def date_or_empty(day: dt.date | None) -> str:
    """:func:`format_date` (``28/11/2026``), or ``""`` for no date."""
    return format_date(day) if day is not None else ""
