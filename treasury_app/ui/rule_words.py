"""The rules people can break, in the person's language: one catalogue for every
:class:`~treasury_app.domain.errors.RuleError` and :class:`~treasury_app.domain.errors.Reason`
code of the domain and the services (bank codes are :mod:`treasury_app.ui.code_words`').

A rule's words are a Qt Linguist source string (context ``RuleWords``) with ``{name}``
placeholders for its parameters. Parameters are put in words here, once: an amount as
``R$ 1.234,56``, a day as ``28/11/2026``, an instant in Brasília time. A code the catalogue
does not know is a generic sentence (logged), never the code; an English sentence still
raised as a "code" by a rule not converted yet is shown as it is — the walk test
(``tests/ui/test_rule_words.py``) fails on those.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from treasury_app.domain.clock import format_date, format_instant
from treasury_app.domain.errors import CODE_PATTERN, Reason, RuleError
from treasury_app.domain.money import format_brl

__all__ = ["RULES", "is_code", "rule_text"]

log = logging.getLogger(__name__)

CONTEXT = "RuleWords"

RULES: dict[str, str] = {
    "rule.unknown": QT_TRANSLATE_NOOP("RuleWords", "This is not accepted. Please check it."),
}
"""Every rule code the domain and the services raise, and its words (English source)."""


_YES = QT_TRANSLATE_NOOP("RuleWords", "yes")
_NO = QT_TRANSLATE_NOOP("RuleWords", "no")


def is_code(text: str) -> bool:
    """Whether ``text`` is a rule's code (and not a sentence of a rule not converted yet)."""
    return bool(CODE_PATTERN.match(text))


def _param_words(value: Any) -> str:
    if isinstance(value, bool):
        return QCoreApplication.translate(CONTEXT, _YES if value else _NO)
    if isinstance(value, Decimal):
        return format_brl(value)
    if isinstance(value, dt.datetime):
        return format_instant(value)
    if isinstance(value, dt.date):
        return format_date(value)
    if isinstance(value, Reason):
        return rule_text(value)
    return str(value)


def _fill(text: str, params: Mapping[str, Any]) -> str:
    for name, value in params.items():
        text = text.replace("{" + name + "}", _param_words(value))
    return text


def rule_text(reason: Reason | RuleError) -> str:
    """``reason`` in the person's language, its parameters in words."""
    if isinstance(reason, RuleError):
        reason = reason.reason
    source = RULES.get(reason.code)
    if source is not None:
        return _fill(QCoreApplication.translate(CONTEXT, source), reason.params)
    if not is_code(reason.code):
        return reason.code  # a rule still raised as a sentence (see the module's docstring)
    log.warning("a rule without words: %s", reason)
    return QCoreApplication.translate(CONTEXT, RULES["rule.unknown"])
