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
    # -- services --
    # CSV files (services/csv_input.py)
    "csv.too_large": QT_TRANSLATE_NOOP(
        "RuleWords", "The file is larger than {megabytes} MB: split it into smaller files."
    ),
    "csv.workbook": QT_TRANSLATE_NOOP(
        "RuleWords",
        'This is a spreadsheet workbook, not a CSV file. In the spreadsheet, save it again as '
        '"CSV UTF-8".',
    ),
    "csv.pdf": QT_TRANSLATE_NOOP("RuleWords", "This is a PDF document, not a CSV file."),
    "csv.not_text": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Line {line} has bytes that are neither UTF-8 nor Windows-1252 text ({byte}). In the "
        'spreadsheet, save it again as "CSV UTF-8".',
    ),
    "csv.not_its_encoding": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file says it is {encoding} text, but line {line} is not valid {encoding}. In the "
        'spreadsheet, save it again as "CSV UTF-8".',
    ),
    "csv.too_many_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "More than {max} lines have errors: fix the file (the first {max} are listed)."
    ),
    "csv.cell_too_long": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A cell is longer than {limit} characters: this line is not a payment or a charge (is a "
        "quote left open above it?).",
    ),
    "csv.nul_character": QT_TRANSLATE_NOOP(
        "RuleWords", "The line contains a NUL character (0x00): remove it."
    ),
    "csv.unreadable_line": QT_TRANSLATE_NOOP("RuleWords", "This line cannot be read as CSV."),
    "csv.cell_over_lines": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: a quoted cell runs from this line to line {last_line}; a cell cannot "
        "run over several lines (is a quote left open?).",
    ),
    "csv.cell_to_end_of_file": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: a quoted cell runs from this line to the end of the file; a cell "
        "cannot run over several lines (is a quote left open?).",
    ),
    "csv.control_character": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Column {column}: the cell contains a control character ({character}); remove it.",
    ),
    # Pix payouts (services/payouts.py)
    "payout.amount_not_decimal": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be a decimal number."
    ),
    "payout.amount_decimals": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount can have at most 2 decimal places."
    ),
    "payout.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "payout.amount_over_limit": QT_TRANSLATE_NOOP("RuleWords", "A Pix cannot exceed {limit}."),
    "payout.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description can have at most {max} characters."
    ),
    "payout.recurrence_code": QT_TRANSLATE_NOOP(
        "RuleWords", "This code authorises a recurrence (Pix Automático); it is not a payment."
    ),
    "payout.code_amount_differs": QT_TRANSLATE_NOOP(
        "RuleWords", "The code is for {amount}; a different amount cannot be paid."
    ),
    "payout.code_without_amount": QT_TRANSLATE_NOOP(
        "RuleWords", "The code has no amount: type the amount to pay."
    ),
    "payout.scientific_notation": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This number is in scientific notation ({value}): a spreadsheet turned it into a number "
        "and lost its last digits. Format the column as text in Excel and type it again.",
    ),
    "payout.ispb_format": QT_TRANSLATE_NOOP("RuleWords", "The ISPB is the bank's 8-digit code."),
    "payout.branch_format": QT_TRANSLATE_NOOP(
        "RuleWords", "The branch is 1 to 4 digits, without check digit."
    ),
    "payout.account_format": QT_TRANSLATE_NOOP(
        "RuleWords", "The account is digits (check digit included)."
    ),
    "payout.account_type": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The account type is CACC (checking), SVGS (savings), SLRY (salary) or TRAN (payment).",
    ),
    "payout.holder_name_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Type the account holder's name."
    ),
    "payout.key_empty": QT_TRANSLATE_NOOP("RuleWords", "The Pix key is empty."),
    "payout.batch_has_errors": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{count} row(s) of the batch have errors; fix them or leave them out before sending.",
    ),
    "payout.batch_sent_same_file": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the "
        "same file). Nothing was sent: choose “Send again” to pay it again.",
    ),
    "payout.batch_sent_same_payees": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This batch was already sent on {sent_at} (Brasília) ({rows} payment(s), {total}, the "
        "same payees and amounts). Nothing was sent: choose “Send again” to pay it again.",
    ),
    "payout.dynamic_code": QT_TRANSLATE_NOOP(
        "RuleWords", "Dynamic code: the bank confirms payee and amount when paying."
    ),
    "payout.waits_for_approval": QT_TRANSLATE_NOOP(
        "RuleWords", "The payment will wait for approval in the bank's console."
    ),
    "payout.recent_duplicates": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{count} payment(s) of {amount} to this payee in the last 24 hours. Check that this is "
        "not a duplicate.",
    ),
    "payout.repeats_line": QT_TRANSLATE_NOOP(
        "RuleWords", "Line {line} of this file pays the same payee the same amount."
    ),
    "payout.ispb_padded": QT_TRANSLATE_NOOP(
        "RuleWords",
        "ISPB {typed} read as {padded} (a spreadsheet drops leading zeros): check that this is "
        "the payee's bank's ISPB, not its 3-digit bank code.",
    ),
    "payout.branch_padded": QT_TRANSLATE_NOOP("RuleWords", "Branch {typed} read as {padded}."),
    "payout.file_empty": QT_TRANSLATE_NOOP("RuleWords", "The file is empty."),
    "payout.unknown_columns": QT_TRANSLATE_NOOP("RuleWords", "Unknown column(s)."),
    "payout.amount_column_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount column (valor) is missing."
    ),
    "payout.payee_columns_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Give a chave column, or ispb, agencia, conta, tipo_conta, documento and nome.",
    ),
    "payout.too_many_rows": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file has more than {max} payments: split it into files of at most {max} (line "
        "{line} is payment {payment}).",
    ),
    "payout.column_count": QT_TRANSLATE_NOOP(
        "RuleWords", "Expected {expected} columns, found {found}."
    ),
    "payout.no_payments": QT_TRANSLATE_NOOP(
        "RuleWords", "The file has a header but no payments."
    ),
    # Slips (services/billets.py)
    "billet.already_paid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip was already paid on {at}: {amount}. A slip is paid once; its receipt is in "
        "the list of paid slips.",
    ),
    "billet.already_sent": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip was already sent for payment on {at}: {amount}, still being followed. A slip "
        "is paid once: wait for that payment's outcome.",
    ),
    "billet.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description can have at most {max} characters."
    ),
    "billet.payer_sets_amount": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip lets the payer choose the amount; such slips cannot be paid through the "
        "bank's API.",
    ),
    "billet.nothing_to_pay": QT_TRANSLATE_NOOP("RuleWords", "This slip has nothing left to pay."),
    "billet.past_payment_limit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The slip could be paid only until {until}; the bank will probably refuse it.",
    ),
    "billet.overdue": QT_TRANSLATE_NOOP(
        "RuleWords", "Overdue since {since}: {total} includes {charges} of fine and interest."
    ),
    "billet.overdue_no_charges": QT_TRANSLATE_NOOP(
        "RuleWords", "Overdue since {since}: {total} (no fine or interest charged)."
    ),
    "billet.not_a_slip_payment": QT_TRANSLATE_NOOP(
        "RuleWords", "This entry is not an accepted slip payment."
    ),
    # -- end of services --
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
