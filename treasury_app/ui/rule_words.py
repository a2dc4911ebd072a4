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
    # -- scheduled payments (domain/schedule.py, services/schedule.py) --
    "pay_date.weekend": QT_TRANSLATE_NOOP(
        "RuleWords", "{asked} is a weekend day: the payment leaves on {to}, the next business day."
    ),
    "pay_date.holiday": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{asked} is a holiday ({holiday}): the payment leaves on {to}, the next business day.",
    ),
    "pay_date.extra": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{asked} is not a business day for this team: the payment leaves on {to}, the next "
        "business day.",
    ),
    "schedule.not_a_date": QT_TRANSLATE_NOOP("RuleWords", "Enter a date (dd/mm/yyyy)."),
    "schedule.past": QT_TRANSLATE_NOOP(
        "RuleWords", "{asked} has passed: a payment is scheduled for today ({today}) or later."
    ),
    "schedule.send_time_zone": QT_TRANSLATE_NOOP(
        "RuleWords", "The send time is a time of day in Brasília, without a time zone."
    ),
    "schedule.series_frequency": QT_TRANSLATE_NOOP(
        "RuleWords", "Choose how often the payment repeats."
    ),
    "schedule.series_interval": QT_TRANSLATE_NOOP(
        "RuleWords", "The interval must be a whole number from 1 to {maximum}."
    ),
    "schedule.series_day": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A monthly payment repeats on a day from 1 to 31 or on the last business day: choose one.",
    ),
    "schedule.series_day_unused": QT_TRANSLATE_NOOP(
        "RuleWords", "A day of the month is only for a monthly repetition."
    ),
    "schedule.series_end_twice": QT_TRANSLATE_NOOP(
        "RuleWords", "A repetition ends on a date or after a number of times, not both."
    ),
    "schedule.series_until_before_start": QT_TRANSLATE_NOOP(
        "RuleWords", "The repetition must end after its first payment."
    ),
    "schedule.series_count": QT_TRANSLATE_NOOP(
        "RuleWords", "The number of payments must be from 1 to {maximum}."
    ),
    "scheduled.series_before_kept": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The new repetition's first payment ({first}) must come after the last one that stays "
        "({kept}, approved or sent): start it later.",
    ),
    "scheduled.no_series": QT_TRANSLATE_NOOP("RuleWords", "This recurring payment is not known."),
    "scheduled.series_ended": QT_TRANSLATE_NOOP(
        "RuleWords", "This recurring payment has ended: it can no longer be changed."
    ),
    "scheduled.late": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Was due on {due} and was not sent (nothing was open to send it): send it now, move it "
        "to another day or cancel it.",
    ),
    "scheduled.slip_amount_changed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The slip's amount is {now} today, not the {scheduled} scheduled: check it before it "
        "is paid.",
    ),
    "settings.time_format": QT_TRANSLATE_NOOP(
        "RuleWords", "“{typed}” is not a time of day: write it HH:MM, from 00:00 to 23:59."
    ),
    "settings.cutoff_before_send": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The time to hold a payment the balance does not cover ({cutoff}) must come after the "
        "send time ({send_time}).",
    ),
    "settings.tolerance_range": QT_TRANSLATE_NOOP(
        "RuleWords", "A slip's amount may change by R$ 0,00 up to {max}; not by less than zero."
    ),
    "settings.retries_range": QT_TRANSLATE_NOOP(
        "RuleWords", "Type how many tries, a whole number from 1 to {max}."
    ),
    "settings.extra_date": QT_TRANSLATE_NOOP(
        "RuleWords", "“{typed}” is not a date: write each non-business day as dd/mm/yyyy."
    ),
    "settings.extra_dates_too_many": QT_TRANSLATE_NOOP(
        "RuleWords", "At most {max} non-business days of your own can be kept."
    ),
    "scheduled.slip_after_due": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The slip is due on {due} and is scheduled for {pay}: fine and interest may apply, and "
        "a changed amount on that day holds it for you.",
    ),
    "scheduled.charge_not_payable": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The charge behind this QR Code can no longer be paid as scheduled ({amount}).",
    ),
    "scheduled.balance_short": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The day's scheduled payments total {total} and the balance is {balance}: none was "
        "sent; choose which to send.",
    ),
    "scheduled.insufficient_funds": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The balance did not cover {amount} after {tries} tries: send it when there is money, "
        "move it or cancel it.",
    ),
    "scheduled.destination_blocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} was blocked in the payee registry ({owner}) after this payment was "
        "scheduled: it was not sent. Once it is unblocked, send it now, move it or cancel it.",
    ),
    "scheduled.day_short": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Payments scheduled for {day} total {total}, more than the balance ({balance}).",
    ),
    "scheduled.not_scheduled": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment is not a scheduled one: it has no pay date to change."
    ),
    "scheduled.not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "This scheduled payment has already left or ended: it cannot change now."
    ),
    "team.not_due": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payment is scheduled for {pay_date}: the team database does not let it leave "
        "before that day.",
    ),
    "team.pay_date_past": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The pay date {pay_date} has passed for the team database (today is {today}).",
    ),
    "team.not_scheduled": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment is not a scheduled one: it has no pay date to change."
    ),
    "team.schedule_not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "This scheduled payment has already left or ended: it cannot change now."
    ),
    "team.move_maker_only": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Only {maker}, who prepared this payment, moves its date (an approver may reject it).",
    ),
    "team.series_not_yours": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This recurring payment was set up by {maker}, or has ended: it is not yours to change.",
    ),
    # -- the payee registry (domain/payees.py, ledger/payees.py, team schema 9) --
    "registry.paid_to_other": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The payment to {detail} settled and the bank names {name} ({document}) as its "
        "creditor, not the registered payee. The destination is marked changed: check it "
        "with the payee before paying it again.",
    ),
    "payout.document_not_registered": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This key is registered to {owner} with another CPF/CNPJ: the bank would refuse the "
        "payment. Clear the document or check the key.",
    ),
    "registry.not_this_payees": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is not one of this payee's registered destinations.",
    ),
    "registry.key_registered_to_other": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This key is registered to {owner}, not to {payee}.",
    ),
    "registry.account_registered_to_other": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This account is registered to {owner}, not to {payee}.",
    ),
    "registry.fresh_destination": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} was registered or changed on {at} and no settled payment has confirmed it "
        "yet: check it with {owner} by phone before paying.",
    ),
    "registry.key_added": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Pix key added on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.key_changed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Pix key changed on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.key_unblocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Pix key unblocked on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.key_mismatch": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Pix key paid to someone other than {payee} on {at}: check it before paying again.",
    ),
    "registry.account_added": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Account added on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.account_changed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Account changed on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.account_unblocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Account unblocked on {at} by {by}, approved by {approved_by}.",
    ),
    "registry.account_mismatch": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Account paid to someone other than {payee} on {at}: check it before paying again.",
    ),
    "registry.file_empty": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file is empty.",
    ),
    "registry.columns_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file has no column {columns}.",
    ),
    "registry.column_count": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This line has {found} columns; the header has {expected}.",
    ),
    "registry.too_many_rows": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file has too many lines: import it in parts.",
    ),
    "registry.destination_twice": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is given to another payee on line {line} of this file.",
    ),
    "payee.name_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Type the payee's name.",
    ),
    "payee.name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The payee's name has at most {max} characters.",
    ),
    "payee.document_invalid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a valid CPF or CNPJ.",
    ),
    "payee.tag_invalid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The tag “{tag}” is not accepted (letters or digits, at most {max} characters).",
    ),
    "payee.too_many_tags": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A payee has at most {max} tags.",
    ),
    "payee.key_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Type the Pix key.",
    ),
    "payee.key_invalid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a valid Pix key (CPF, CNPJ, e-mail, phone +55 or random key).",
    ),
    "payee.scientific_notation": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{value}” is a number in scientific notation: format the column as text in the "
        "spreadsheet and export it again.",
    ),
    "payee.ispb_format": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The ISPB is the bank's 8-digit code.",
    ),
    "payee.ispb_unknown": QT_TRANSLATE_NOOP(
        "RuleWords",
        "No bank in the Central Bank's list has the ISPB {ispb}.",
    ),
    "payee.branch_format": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The branch is 1 to 4 digits, without its check digit.",
    ),
    "payee.account_format": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The account is digits (check digit included).",
    ),
    "payee.account_type": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Choose the account type: checking, savings, salary or payment account.",
    ),
    # a payee's statement of account (services/payee_statement.py)
    "statement.period_reversed": QT_TRANSLATE_NOOP(
        "RuleWords", "The period starts on {start}, after its end on {end}: swap the dates."
    ),
    "statement.file_exists": QT_TRANSLATE_NOOP(
        "RuleWords", "The file {file} exists already: choose another name."
    ),
    "registry.no_payee": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payee is no longer in the registry.",
    ),
    "registry.document_fixed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A payee's CPF or CNPJ does not change: register another payee for another document.",
    ),
    "registry.no_destination": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This destination is no longer in the registry.",
    ),
    "registry.destination_exists": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is already one of this payee's destinations.",
    ),
    "registry.destination_taken": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is registered to {owner}, not to this payee.",
    ),
    "registry.not_blocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This destination is not blocked.",
    ),
    "registry.action": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This change of a destination is not known.",
    ),
    "registry.not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This change does not wait for approval.",
    ),
    "registry.reason_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Say why.",
    ),
    "registry.blocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is blocked in the registry ({owner}): it is not paid.",
    ),
    "team.own_destination_change": QT_TRANSLATE_NOOP(
        "RuleWords",
        "You prepared this change: another person approves it.",
    ),
    "team.change_maker_only": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Only {maker}, who prepared this change, withdraws it.",
    ),
    "team.change_not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This change does not wait for approval any more.",
    ),
    "team.change_waiting": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A change of {detail} already waits for approval.",
    ),
    "team.change_reason_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Say why.",
    ),
    "team.destination_taken": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is registered to {owner}, not to this payee.",
    ),
    "team.destination_exists": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is already one of this payee's destinations.",
    ),
    "team.destination_blocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is blocked in the registry ({payee}): the team database does not pay it.",
    ),
    "team.not_in_registry": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{detail} is not in the payee registry: this team pays only registered destinations.",
    ),
    "team.no_payee": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payee is no longer in the registry.",
    ),
    "team.no_destination": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This destination is no longer in the registry.",
    ),
    "team.document_fixed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A payee's CPF or CNPJ does not change: register another payee for another document.",
    ),
    "team.not_blocked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This destination is not blocked.",
    ),
    "team.not_settled": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payment has not settled: the bank's creditor is not known yet.",
    ),
    "payout.creditor_mismatch": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank refused it: the Pix key {key} does not belong to the registered payee's "
        "CPF/CNPJ ({document}). Nothing was paid; check the key with the payee.",
    ),
    # -- domain -- (treasury_app/domain: money, documents, Pix keys, identifiers, BR Code, boletos)
    # amounts of money
    "money.empty": QT_TRANSLATE_NOOP("RuleWords", "Please enter an amount."),
    "money.text_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is too long to be a valid amount."
    ),
    "money.negative": QT_TRANSLATE_NOOP("RuleWords", "The amount cannot be negative."),
    "money.places": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must have at most 2 decimal places."
    ),
    "money.too_large": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is too large (at most {maximum})."
    ),
    "money.not_finite": QT_TRANSLATE_NOOP("RuleWords", "The amount must be a finite number."),
    "money.characters": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount may only contain the digits 0-9, dots and a comma."
    ),
    "money.commas": QT_TRANSLATE_NOOP("RuleWords", "The amount can have only one decimal comma."),
    "money.dot_after_comma": QT_TRANSLATE_NOOP(
        "RuleWords", "Dots must come before the decimal comma (e.g. 1.234,56)."
    ),
    "money.separator_edges": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must have digits before and after the separator (e.g. 0,50)."
    ),
    "money.grouping": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The thousands separators are misplaced (write e.g. 1.234.567,89 or 1234567,89).",
    ),
    "money.form": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not a valid amount; write it like 1.234,56."
    ),
    "money.bank_boolean": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank sent true/false where an amount was expected."
    ),
    "money.bank_missing": QT_TRANSLATE_NOOP("RuleWords", "The bank did not send an amount."),
    "money.bank_not_a_number": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank sent an amount that is not a number: {text}."
    ),
    "money.bank_type": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank sent a {type} where an amount was expected."
    ),
    "money.float": QT_TRANSLATE_NOOP(
        "RuleWords",
        "An amount was read as a floating-point number, which can lose cents; it is not accepted.",
    ),
    # CPF and CNPJ
    "document.empty": QT_TRANSLATE_NOOP("RuleWords", "Please enter a CPF or CNPJ."),
    "document.length": QT_TRANSLATE_NOOP(
        "RuleWords", "A CPF has 11 digits and a CNPJ has 14 characters; please check it."
    ),
    "document.cpf_base": QT_TRANSLATE_NOOP("RuleWords", "The CPF base must be exactly 9 digits."),
    "document.cnpj_base": QT_TRANSLATE_NOOP(
        "RuleWords", "The CNPJ base must be exactly 12 characters (0-9, A-Z)."
    ),
    "document.cpf_length": QT_TRANSLATE_NOOP("RuleWords", "A CPF must have exactly 11 digits."),
    "document.cpf_all_equal": QT_TRANSLATE_NOOP("RuleWords", "A CPF cannot have all digits equal."),
    "document.cpf_check_digits": QT_TRANSLATE_NOOP(
        "RuleWords", "The CPF check digits do not match; please check the number."
    ),
    "document.cnpj_length": QT_TRANSLATE_NOOP(
        "RuleWords", "A CNPJ must have exactly 14 characters."
    ),
    "document.cnpj_characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A CNPJ has 12 letters (A-Z) or digits followed by 2 check digits (0-9); this one has "
        "other characters.",
    ),
    "document.cnpj_all_equal": QT_TRANSLATE_NOOP(
        "RuleWords", "A CNPJ cannot have all characters equal."
    ),
    "document.cnpj_check_digits": QT_TRANSLATE_NOOP(
        "RuleWords", "The CNPJ check digits do not match; please check the number."
    ),
    "document.scientific_notation": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This CPF/CNPJ is in scientific notation ({text}): a spreadsheet turned it into a number "
        "and lost its last digits. Format the column as text in Excel and type it again.",
    ),
    "document.leading_zero": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This {kind} has {digits} digits: a spreadsheet probably dropped its leading zero (did "
        "you mean {padded}?). Format the column as text and type it again.",
    ),
    # Pix keys
    "pix_key.empty": QT_TRANSLATE_NOOP("RuleWords", "Please enter a Pix key."),
    "pix_key.too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "A Pix key has at most {maximum} characters."
    ),
    "pix_key.unknown_form": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a Pix key: expected a CPF, CNPJ, e-mail, phone number or random key.",
    ),
    "pix_key.eleven_digits": QT_TRANSLATE_NOOP(
        "RuleWords",
        "These 11 digits are neither a valid CPF (the check digits do not match) nor a mobile "
        "number (DDD followed by 9).",
    ),
    "pix_key.digit_count": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a Pix key: a CPF has 11 digits, a CNPJ 14 characters and a phone number a "
        "DDD plus 8 or 9 digits.",
    ),
    "pix_key.phone_country": QT_TRANSLATE_NOOP(
        "RuleWords", "Only Brazilian phone numbers (+55) can be Pix keys here."
    ),
    "pix_key.phone_characters": QT_TRANSLATE_NOOP(
        "RuleWords", "A phone number may only contain digits (and +, spaces, (), -)."
    ),
    "pix_key.phone_length": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A phone key is a DDD (2 digits) plus an 8- or 9-digit number, e.g. +55 11 98765-4321.",
    ),
    "pix_key.phone_area_code": QT_TRANSLATE_NOOP(
        "RuleWords", "{ddd} is not a Brazilian area code (DDD)."
    ),
    "pix_key.phone_number": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a valid Brazilian phone number: a 9-digit number must start with 9 and an "
        "8-digit number cannot start with 0 or 1.",
    ),
    "pix_key.email_characters": QT_TRANSLATE_NOOP(
        "RuleWords", "An e-mail Pix key may only contain ASCII letters, digits and symbols."
    ),
    "pix_key.email_at_signs": QT_TRANSLATE_NOOP(
        "RuleWords", "An e-mail address has exactly one @."
    ),
    "pix_key.email_form": QT_TRANSLATE_NOOP("RuleWords", "This is not a valid e-mail address."),
    "pix_key.evp_form": QT_TRANSLATE_NOOP(
        "RuleWords", "A random Pix key (EVP) is a UUID like 123e4567-e89b-12d3-a456-426614174000."
    ),
    "pix_key.document_kind": QT_TRANSLATE_NOOP("RuleWords", "This is a {given}, not a {expected}."),
    # identifiers (txid, ISPB, idRec)
    "txid.length": QT_TRANSLATE_NOOP(
        "RuleWords", "A txid has {minimum} to {maximum} characters, not {length}."
    ),
    "txid.characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A txid has only letters (A-Z, a-z) and digits (0-9): no accents, spaces or symbols.",
    ),
    "location.id_missing": QT_TRANSLATE_NOOP("RuleWords", "Type the id of an existing location."),
    "location.id_form": QT_TRANSLATE_NOOP(
        "RuleWords", "A location id has only digits (as the list of locations shows it)."
    ),
    "location.id_range": QT_TRANSLATE_NOOP(
        "RuleWords", "There is no location with this id: an id is a whole number from 1."
    ),
    "ispb.form": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The ISPB must be exactly 8 characters, digits or upper-case letters (e.g. 00038166).",
    ),
    "idrec.empty": QT_TRANSLATE_NOOP("RuleWords", "Please enter an idRec."),
    "idrec.length": QT_TRANSLATE_NOOP(
        "RuleWords", "An idRec has {expected} characters, this one has {length}."
    ),
    "idrec.prefix": QT_TRANSLATE_NOOP("RuleWords", "An idRec starts with the letter R."),
    "idrec.retry_flag": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The second character of an idRec must be R (retries allowed) or N (not allowed).",
    ),
    "idrec.ispb": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Characters 3 to 10 of an idRec (the ISPB) must be digits or upper-case letters.",
    ),
    "idrec.date": QT_TRANSLATE_NOOP(
        "RuleWords", "Characters 11 to 18 of an idRec must be a real date written yyyyMMdd."
    ),
    "idrec.sequence": QT_TRANSLATE_NOOP(
        "RuleWords", "The last 11 characters of an idRec must be letters or digits."
    ),
    # BR Code (Pix copia e cola)
    "brcode.empty": QT_TRANSLATE_NOOP("RuleWords", "The Pix code is empty."),
    "brcode.too_long": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The text is too long to be a Pix code ({length} characters; at most {maximum}).",
    ),
    "brcode.control_characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code contains invisible or control characters (such as line breaks): copy it "
        "again as a single line.",
    ),
    "brcode.damaged": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code is damaged: it has no valid field header at character {position}. It was "
        "probably copied incompletely or altered.",
    ),
    "brcode.incomplete": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code is incomplete: its field {field_id} announces {length} characters but only "
        "{remaining} remain. It was probably copied incompletely.",
    ),
    "brcode.field_twice": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code is invalid: it contains field {field_id} twice."
    ),
    "brcode.format_indicator": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not a Pix code: it must start with 000201 (payload format indicator)."
    ),
    "brcode.crc_missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code does not end with its check digits (CRC): it was probably copied "
        "incompletely.",
    ),
    "brcode.crc_mismatch": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code's check digits (CRC) do not match: it was copied incompletely or altered.",
    ),
    "brcode.point_of_initiation": QT_TRANSLATE_NOOP(
        "RuleWords",
        'The Pix code\'s point of initiation "{point}" is not valid (expected 11 or 12).',
    ),
    "brcode.two_accounts": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code is invalid: it contains more than one Pix account."
    ),
    "brcode.no_pix_account": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is not a Pix code: it has no Pix account information (br.gov.bcb.pix). It may "
        "belong to another payment arrangement, such as a card.",
    ),
    "brcode.recurrence_without_url": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code announces a Pix Automático recurrence but gives no address for it.",
    ),
    "brcode.key_and_url": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code is invalid: it carries both a Pix key and a charge address."
    ),
    "brcode.no_key_nor_url": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code has neither a Pix key nor a charge address."
    ),
    "brcode.currency": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix code is not in Brazilian reais (currency code must be 986, found {found}).",
    ),
    "brcode.country": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code is not from Brazil (country code must be BR, found {found})."
    ),
    "brcode.no_merchant_name": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code does not name the receiver (merchant name is missing)."
    ),
    "brcode.no_merchant_city": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code does not give the receiver's city."
    ),
    "brcode.amount_form": QT_TRANSLATE_NOOP(
        "RuleWords",
        'The Pix code\'s amount "{text}" is not valid: it must be a number with a dot and at '
        "most two decimal places, such as 100.50.",
    ),
    "brcode.amount_length": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code's amount is too large ({length} characters; at most {maximum})."
    ),
    "brcode.build_key_or_url": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A Pix code needs exactly one of a Pix key or a charge address (or neither, for a Pix "
        "Automático recurrence-only code).",
    ),
    "brcode.characters": QT_TRANSLATE_NOOP(
        "RuleWords", "This text contains characters that cannot be used in a Pix code."
    ),
    "brcode.value_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "This is too long for a Pix code ({length} characters; at most {maximum})."
    ),
    "brcode.plain_text": QT_TRANSLATE_NOOP(
        "RuleWords", "This must be non-empty plain text without accents."
    ),
    "brcode.https_address": QT_TRANSLATE_NOOP("RuleWords", "This must be an https address."),
    "brcode.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount of a Pix code must be greater than zero."
    ),
    "brcode.amount_unusable": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This amount cannot be used in a Pix code: use at most two decimal places and at most "
        "{maximum} characters.",
    ),
    "brcode.merchant_name_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "The receiver name of a Pix code cannot be empty."
    ),
    "brcode.merchant_city_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "The receiver city of a Pix code cannot be empty."
    ),
    "brcode.merchant_name_length": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The receiver name has {length} characters; a Pix code allows at most {maximum}.",
    ),
    "brcode.merchant_city_length": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The receiver city has {length} characters; a Pix code allows at most {maximum}.",
    ),
    "brcode.account_too_long": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The Pix key, description and address together are too long for a Pix code ({length} "
        "characters; at most {maximum}): shorten the description.",
    ),
    "brcode.txid_form": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The transaction id (txid) of a Pix code must have 1 to {maximum} letters or digits, "
        "without spaces or symbols.",
    ),
    "brcode.postal_code": QT_TRANSLATE_NOOP(
        "RuleWords", "The postal code (CEP) must have 8 digits."
    ),
    "brcode.build_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The Pix code would be longer than {maximum} characters."
    ),
    # boleto lines and barcodes
    "boleto.empty": QT_TRANSLATE_NOOP("RuleWords", "The boleto code is empty."),
    "boleto.characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The boleto code may contain only digits (dots, spaces and hyphens are ignored).",
    ),
    "boleto.code_not_digits": QT_TRANSLATE_NOOP(
        "RuleWords", "A slip code has only digits (dots, spaces and hyphens are ignored)."
    ),
    "boleto.code_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "A slip code has at most {max} digits; this one has {digits}."
    ),
    "boleto.length": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The boleto code has {digits} digits; a digitable line has 47 (bank slip) or 48 "
        "(utility/tax slip) digits and a barcode has 44.",
    ),
    "boleto.barcode_length": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto barcode has 44 digits; this one has {digits}."
    ),
    "boleto.line_length": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto digitable line has 47 or 48 digits; this one has {digits}."
    ),
    "boleto.block_check_digit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Block {block} of the boleto line has a wrong check digit: a digit was probably mistyped.",
    ),
    "boleto.general_check_digit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The boleto's general check digit does not match: a digit was probably mistyped.",
    ),
    "boleto.bank_code_8": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This bank slip is not valid: bank codes never start with 8 (that is reserved for "
        "utility/tax slips). Check that it was typed correctly.",
    ),
    "boleto.currency": QT_TRANSLATE_NOOP(
        "RuleWords", "This boleto is not in Brazilian reais (currency digit {found}, expected 9)."
    ),
    "boleto.collection_prefix": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A 48-digit line must be a utility/tax (convênio) slip, which starts with 8. Check that "
        "it was typed correctly.",
    ),
    "boleto.value_reference": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This utility/tax slip is not valid: its third digit must be 6, 7, 8 or 9 (found "
        "{found}). Check that it was typed correctly.",
    ),
    "boleto.collection_block_check_digit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Block {block} of the slip's line has a wrong check digit: a digit was probably mistyped.",
    ),
    "boleto.collection_check_digit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The slip's general check digit (4th digit of the barcode) does not match: a digit was "
        "probably mistyped.",
    ),
    "boleto.due_too_early": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto cannot be due on {due} (before {first})."
    ),
    "boleto.factor": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto due-date factor must have 4 digits (got {factor})."
    ),
    "boleto.build_bank_code": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank code must have 3 digits and cannot start with 8."
    ),
    "boleto.build_free_field": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank's free field (campo livre) must have 25 digits."
    ),
    "boleto.build_amount_range": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto amount must be between R$ 0,00 and {maximum}."
    ),
    "boleto.build_amount_places": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto amount has at most two decimal places."
    ),
    "boleto.build_due_factor_zero": QT_TRANSLATE_NOOP(
        "RuleWords", "A boleto cannot be due on {due} (factor 0 means no due date)."
    ),
    # -- end of domain --
    # -- profiles (services/profiles.py) --
    "profile.name_missing": QT_TRANSLATE_NOOP("RuleWords", "A profile needs a name."),
    "profile.name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "A profile name has at most {max} characters."
    ),
    "profile.name_spaces": QT_TRANSLATE_NOOP(
        "RuleWords", "A profile name cannot start or end with a space."
    ),
    "profile.name_characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The profile name “{name}” may contain only letters, digits, spaces, '-' and '_'.",
    ),
    "profile.name_reserved": QT_TRANSLATE_NOOP(
        "RuleWords", "“{name}” is reserved by Windows and cannot name a profile."
    ),
    "profile.name_taken": QT_TRANSLATE_NOOP(
        "RuleWords", "A profile with this name already exists."
    ),
    "profile.form_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile cannot be saved: {count} fields need attention."
    ),
    "profile.field_invalid": QT_TRANSLATE_NOOP("RuleWords", "This value is not accepted here."),
    "profile.url_missing": QT_TRANSLATE_NOOP("RuleWords", "Enter the API's address (https://…)."),
    "profile.url_invalid": QT_TRANSLATE_NOOP("RuleWords", "This is not a valid address."),
    "profile.url_not_https": QT_TRANSLATE_NOOP(
        "RuleWords", "The address must start with https:// (the bank is reached over TLS)."
    ),
    "profile.url_query": QT_TRANSLATE_NOOP(
        "RuleWords", "The address cannot have a query (?…) or a fragment (#…)."
    ),
    "profile.client_id_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the client id the bank gave you."
    ),
    "profile.pfx_missing": QT_TRANSLATE_NOOP("RuleWords", "Choose the certificate (.pfx) file."),
    "profile.ca_missing": QT_TRANSLATE_NOOP("RuleWords", "Choose the CA file."),
    "profile.file_not_found": QT_TRANSLATE_NOOP("RuleWords", "The file {path} does not exist."),
    "profile.pix_key_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "A Pix key cannot be empty: remove the extra comma."
    ),
    "profile.pix_key_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "A Pix key has at most {max} characters."
    ),
    "profile.proxy_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the proxy's address (http://host:port)."
    ),
    "profile.proxy_scheme": QT_TRANSLATE_NOOP(
        "RuleWords", "A proxy address starts with http:// or https://."
    ),
    "profile.proxy_port": QT_TRANSLATE_NOOP(
        "RuleWords", "Add the proxy's port, as in http://proxy.example:8080."
    ),
    "profile.proxy_path": QT_TRANSLATE_NOOP(
        "RuleWords", "A proxy address is only http://host:port, with no path."
    ),
    "profile.proxy_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not a valid proxy address (http://host:port)."
    ),
    "profile.proxy_credentials": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A proxy's user name and password cannot be kept in the profile (it holds no "
        "secret): leave them out and ask for the bank's hosts to be let through.",
    ),
    "profile.team_host_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the team database's host name or address."
    ),
    "profile.team_dbname_missing": QT_TRANSLATE_NOOP("RuleWords", "Enter the database's name."),
    "profile.team_user_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter your own login on the team database."
    ),
    "profile.team_spaces": QT_TRANSLATE_NOOP("RuleWords", "No spaces here."),
    "profile.team_cert_without_key": QT_TRANSLATE_NOOP(
        "RuleWords", "A client certificate needs its key file."
    ),
    "profile.team_key_without_cert": QT_TRANSLATE_NOOP(
        "RuleWords", "A key file needs its client certificate."
    ),
    "profile.team_keyring_unavailable": QT_TRANSLATE_NOOP(
        "RuleWords",
        "There is no system keyring on this computer: choose “Ask at every unlock”.",
    ),
    "profile.team_password_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the password of your login: it is kept in the system keyring."
    ),
    "profile.not_found": QT_TRANSLATE_NOOP("RuleWords", "There is no profile named “{name}”."),
    "profile.file_unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {path} cannot be read: {reason}."
    ),
    "profile.file_not_json": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {path} is damaged (not valid JSON: {reason})."
    ),
    "profile.file_not_profile": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {path} does not hold a profile."
    ),
    "profile.file_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {path} is not a valid profile: {reason}."
    ),
    "profile.file_renamed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The profile file {path} is named “{name}” inside; rename the file back or recreate "
        "the profile.",
    ),
    "profile.sandbox_file_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's file {path} does not exist."
    ),
    "profile.sandbox_file_unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's file {path} cannot be read: {reason}."
    ),
    "profile.sandbox_file_not_object": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's file {path} is not what the sandbox writes."
    ),
    "profile.sandbox_file_lacks": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's file {path} lacks {missing}."
    ),
    "profile.sandbox_file_form": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's file {path} is not in the expected form."
    ),
    # The machine policy (treasury_app/policy; {source}: the registry key or the INI file,
    # {field}: the setting, as the template names it)
    "policy.source_unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "Your IT department's settings in {source} cannot be read ({reason})."
    ),
    "policy.too_many": QT_TRANSLATE_NOOP(
        "RuleWords", "Your IT department's settings in {source} have too many entries under {key}."
    ),
    "policy.ini_too_large": QT_TRANSLATE_NOOP(
        "RuleWords", "The settings file {source} is too large (at most {max} bytes)."
    ),
    "policy.ini_encoding": QT_TRANSLATE_NOOP(
        "RuleWords", "The settings file {source} is not text in a known encoding."
    ),
    "policy.ini_syntax": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The settings file {source} cannot be read near line {line} (a value outside a "
        "[section], or a name given twice).",
    ),
    "policy.ini_section_twice": QT_TRANSLATE_NOOP(
        "RuleWords", "The settings file {source} has the section [{section}] twice."
    ),
    "policy.secret_refused": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{field} in {source} looks like a secret: secrets are never set by policy (each person "
        "types them; they are kept in the system keyring).",
    ),
    "policy.value_type": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} has the wrong type: it should be {expected}."
    ),
    "policy.text_invalid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{field} in {source} is too long (at most {max} characters) or has control characters.",
    ),
    "policy.text_spaces": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} cannot contain spaces."
    ),
    "policy.not_yes_no": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} must be 1 (yes) or 0 (no)."
    ),
    "policy.not_a_number": QT_TRANSLATE_NOOP("RuleWords", "{field} in {source} must be a number."),
    "policy.port_range": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} is {port}: a port is between 1 and 65535."
    ),
    "policy.not_one_of": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} is “{value}”; it must be one of: {allowed}."
    ),
    "policy.path_relative": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} must be a full path (with its drive): “{path}”."
    ),
    "policy.data_dir_network": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{field} in {source} is a network folder ({path}): the ledger must be kept on this "
        "computer (to share it, use the team database).",
    ),
    "policy.url_not_https": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source} must be an https:// address: “{url}”."
    ),
    "policy.url_invalid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{field} in {source} is not a bank address (https://host/path, without a user name, "
        "query or fragment): “{url}”.",
    ),
    "policy.pix_key_length": QT_TRANSLATE_NOOP(
        "RuleWords", "{field} in {source}: a Pix key has at most 77 characters."
    ),
    "policy.team_incomplete": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database in {source} lacks {missing}."
    ),
    "policy.profile_incomplete": QT_TRANSLATE_NOOP(
        "RuleWords", "The preset profile “{name}” in {source} lacks {missing}."
    ),
    "policy.profile_twice": QT_TRANSLATE_NOOP(
        "RuleWords", "{source} presets two profiles named “{name}”."
    ),
    "policy.profile_name": QT_TRANSLATE_NOOP(
        "RuleWords", "The preset profile “{name}” in {source} cannot be used: {rule}"
    ),
    "policy.profile_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "The preset profile “{name}” in {source} cannot be used ({reason})."
    ),
    "policy.lock_without_value": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{source} locks {setting} but does not set it: set its value too, or remove the lock.",
    ),
    "policy.sandbox_disabled": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your IT department has turned the sandbox bank off on this computer: the profile "
        "“{name}” cannot be used.",
    ),
    "policy.preset_read_only": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The profile “{name}” is set by your IT department: it cannot be changed or deleted here.",
    ),
    "policy.profiles_locked": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your IT department provides the profiles on this computer: “{name}” cannot be saved.",
    ),
    "ca_file.missing": QT_TRANSLATE_NOOP("RuleWords", "The CA file {path} does not exist."),
    "ca_file.unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "The CA file {path} cannot be read: {reason}."
    ),
    "ca_file.other_block": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The CA file {path} holds a block that is not a plain certificate ({blocks}): it is "
        "not used.",
    ),
    "ca_file.no_certificate": QT_TRANSLATE_NOOP(
        "RuleWords", "The CA file {path} holds no PEM certificate."
    ),
    "receipt.no_bank_id": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment has no bank identifier yet: its receipt cannot be asked for."
    ),
    # receipts kept in the ledger (ledger/receipts.py, ledger/team/store.py)
    "receipt.not_pdf": QT_TRANSLATE_NOOP("RuleWords", "The bank's receipt is not a PDF file."),
    "receipt.damaged": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The stored copy of receipt {receipt} is damaged (it is not what was saved): ask the "
        "bank for the receipt again.",
    ),
    "receipt.missing": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The stored copy of receipt {receipt} is missing from the ledger: ask the bank for the "
        "receipt again.",
    ),
    # -- services --
    # CSV files (services/csv_input.py)
    "csv.too_large": QT_TRANSLATE_NOOP(
        "RuleWords", "The file is larger than {megabytes} MB: split it into smaller files."
    ),
    "csv.workbook": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is a spreadsheet workbook, not a CSV file. In the spreadsheet, save it again as "
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
    "payout.charge_amount_differs": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge is for {amount}; a different amount cannot be paid."
    ),
    "payout.charge_not_signed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The charge behind this code is not validly signed by its bank: do not pay it.",
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
    "payout.holder_name_missing": QT_TRANSLATE_NOOP("RuleWords", "Type the account holder's name."),
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
    "payout.date_format": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{typed}” is not a date: write the pay date as dd/mm/yyyy (for example 05/12/2026), "
        "or leave it empty.",
    ),
    "payout.date_no_such_day": QT_TRANSLATE_NOOP(
        "RuleWords", "“{typed}” is not a day of the calendar: check the day and the month."
    ),
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
    "payout.no_payments": QT_TRANSLATE_NOOP("RuleWords", "The file has a header but no payments."),
    # Slips (services/billets.py)
    # the payables calendar (services/calendar.py)
    "calendar.not_scheduled": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payment is not scheduled: approve, reject or withdraw it where it waits.",
    ),
    "calendar.move_to_past": QT_TRANSLATE_NOOP(
        "RuleWords", "A payment cannot be moved to {day}: that day has passed."
    ),
    "calendar.move_to_holiday": QT_TRANSLATE_NOOP(
        "RuleWords", "{day} is not a business day: choose a day the banks settle on."
    ),
    "calendar.cancel_reason": QT_TRANSLATE_NOOP(
        "RuleWords", "Say why the payment is cancelled: the audit keeps the reason."
    ),
    "calendar.planned_occurrence": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This is a planned occurrence of a series, not journaled yet: change it through its "
        "series (Edit series or End series).",
    ),
    "calendar.threshold_negative": QT_TRANSLATE_NOOP(
        "RuleWords", "The warning threshold is an amount of zero or more."
    ),
    "billet.already_paid": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This slip was already paid on {at}: {amount}. A slip is paid once; its receipt is in "
        "the list of slip payments.",
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
    # Charges (services/charges/)
    "charge.amount_type": QT_TRANSLATE_NOOP("RuleWords", "An amount must be a number."),
    "charge.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "charge.value_missing": QT_TRANSLATE_NOOP("RuleWords", "Enter a value greater than zero."),
    "charge.value_not_positive": QT_TRANSLATE_NOOP("RuleWords", "Enter a value greater than zero."),
    "charge.percent_limit": QT_TRANSLATE_NOOP("RuleWords", "The percentage must be below 100%."),
    "charge.value_not_below_amount": QT_TRANSLATE_NOOP(
        "RuleWords", "Must be less than the amount of the charge."
    ),
    "charge.discount_after_due": QT_TRANSLATE_NOOP("RuleWords", "Must not be after the due date."),
    "charge.discount_date_repeated": QT_TRANSLATE_NOOP(
        "RuleWords", "Each discount needs its own date."
    ),
    "charge.discount_missing": QT_TRANSLATE_NOOP("RuleWords", "Give at least one date and value."),
    "charge.too_many_discounts": QT_TRANSLATE_NOOP("RuleWords", "At most {max} discount dates."),
    "charge.document_missing": QT_TRANSLATE_NOOP("RuleWords", "Please enter a CPF or CNPJ."),
    "charge.required": QT_TRANSLATE_NOOP("RuleWords", "This field is required."),
    "charge.not_text": QT_TRANSLATE_NOOP("RuleWords", "This field must be text."),
    "charge.too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "At most {max} characters (this has {length})."
    ),
    "charge.key_missing": QT_TRANSLATE_NOOP("RuleWords", "Please enter a Pix key."),
    "charge.txid_format": QT_TRANSLATE_NOOP("RuleWords", "A txid has 26 to 35 letters or digits."),
    "charge.whole_number": QT_TRANSLATE_NOOP(
        "RuleWords", "Must be a whole number from {min} to {max}."
    ),
    "charge.time_without_zone": QT_TRANSLATE_NOOP("RuleWords", "A time needs its time zone."),
    "charge.range_reversed": QT_TRANSLATE_NOOP(
        "RuleWords", "The end of the range is before its start."
    ),
    "charge.address_not_allowed": QT_TRANSLATE_NOOP(
        "RuleWords", "An immediate charge has no debtor address."
    ),
    "charge.email_format": QT_TRANSLATE_NOOP("RuleWords", "This is not an e-mail address."),
    "charge.state_format": QT_TRANSLATE_NOOP("RuleWords", "A state (UF) is 2 letters, such as SP."),
    "charge.cep_format": QT_TRANSLATE_NOOP("RuleWords", "A CEP has 8 digits."),
    "charge.unknown_status": QT_TRANSLATE_NOOP("RuleWords", "Unknown status; one of {known}."),
    "charge.too_many_infos": QT_TRANSLATE_NOOP("RuleWords", "At most {max} items."),
    "charge.debtor_required": QT_TRANSLATE_NOOP(
        "RuleWords", "A charge with a due date needs its debtor."
    ),
    "charge.nothing_to_change": QT_TRANSLATE_NOOP(
        "RuleWords", "Nothing to change: give a new amount, text or debtor."
    ),
    "charge.due_date_type": QT_TRANSLATE_NOOP("RuleWords", "A due date is a calendar date."),
    "charge.due_date_passed": QT_TRANSLATE_NOOP("RuleWords", "The due date {due} has passed."),
    "charge.location_kind": QT_TRANSLATE_NOOP(
        "RuleWords", "A location is for a charge (immediate or with a due date)."
    ),
    "charge.e2eid_format": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not an end-to-end id (E + 31 characters)."
    ),
    "charge.refund_id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A refund id has 1 to 35 letters or digits."
    ),
    "charge.no_qr_payload": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge has no QR Code payload (Pix Copia e Cola)."
    ),
    "charge.bad_qr_payload": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge's QR Code payload is not valid: {why}"
    ),
    # Charge batches (services/charges/batch_file.py, batches.py)
    "charge_batch.due_date_format": QT_TRANSLATE_NOOP(
        "RuleWords", "Write the due date as DD/MM/YYYY or YYYY-MM-DD."
    ),
    "charge_batch.not_a_date": QT_TRANSLATE_NOOP("RuleWords", "{text} is not a real date."),
    "charge_batch.name_missing": QT_TRANSLATE_NOOP("RuleWords", "The debtor's name is missing."),
    "charge_batch.name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The name has more than {max} characters."
    ),
    "charge_batch.amount_not_positive": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be greater than zero."
    ),
    "charge_batch.due_date_missing": QT_TRANSLATE_NOOP("RuleWords", "The due date is missing."),
    "charge_batch.due_date_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date {due} has passed."
    ),
    "charge_batch.description_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The description has more than {max} characters."
    ),
    "charge_batch.unknown_column": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown column “{column}”; the columns are {columns}"
    ),
    "charge_batch.column_twice": QT_TRANSLATE_NOOP("RuleWords", "This column appears twice."),
    "charge_batch.column_missing": QT_TRANSLATE_NOOP("RuleWords", "The header lacks this column."),
    "charge_batch.no_charges": QT_TRANSLATE_NOOP("RuleWords", "The file has no charges."),
    "charge_batch.too_many_charges": QT_TRANSLATE_NOOP(
        "RuleWords", "A batch has at most {max} charges."
    ),
    "charge_batch.cell_missing": QT_TRANSLATE_NOOP("RuleWords", "This column is missing."),
    "charge_batch.too_many_cells": QT_TRANSLATE_NOOP(
        "RuleWords", "The row has {found} columns, at most {max} are expected."
    ),
    "charge_batch.too_many_cells_comma": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The row has {found} columns, at most {max} are expected (with ',' as separator, quote "
        'amounts written with a comma: "1.234,56").',
    ),
    "charge_batch.amount_cut_in_two": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The amount seems cut in two by the ',' separator: quote it (\"1.234,56\") or write it "
        "with a decimal point (1234.56).",
    ),
    "charge_batch.id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A batch id has 1 to 64 letters, digits, '-' or '_'."
    ),
    "charge_batch.file_has_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "{count} line(s) of the file have errors; the first, on line {line}: {first}"
    ),
    "charge_batch.empty": QT_TRANSLATE_NOOP("RuleWords", "A batch needs at least one charge."),
    "charge_batch.line_due_date_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "Line {line}: the due date {due} has passed."
    ),
    "charge_batch.no_revision": QT_TRANSLATE_NOOP(
        "RuleWords", "Give at least one member to change."
    ),
    "charge_batch.member_unchanged": QT_TRANSLATE_NOOP(
        "RuleWords", "Nothing to change for this member."
    ),
    "charge_batch.txid_repeated": QT_TRANSLATE_NOOP(
        "RuleWords", "This txid is already on line {line}."
    ),
    "charge_batch.lines_have_errors": QT_TRANSLATE_NOOP(
        "RuleWords", "{count} line(s) of the file have errors."
    ),
    # Pix Automático (services/recurrences/)
    "recurrence.not_one_of": QT_TRANSLATE_NOOP("RuleWords", "One of {known}."),
    "recurrence.idrec_format": QT_TRANSLATE_NOOP(
        "RuleWords", "This is not a recurrence id (idRec)."
    ),
    "recurrence.calendar_date": QT_TRANSLATE_NOOP("RuleWords", "A calendar date is expected."),
    "recurrence.location_id": QT_TRANSLATE_NOOP(
        "RuleWords", "A location id is a positive whole number."
    ),
    "recurrence.branch_format": QT_TRANSLATE_NOOP("RuleWords", "A branch has up to 4 digits."),
    "recurrence.unknown_periodicity": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown periodicity {value}."
    ),
    "recurrence.yes_or_no": QT_TRANSLATE_NOOP("RuleWords", "Yes or no is expected."),
    "cobr.receiver_required": QT_TRANSLATE_NOOP("RuleWords", "The account credited is required."),
    "cobr.address_expected": QT_TRANSLATE_NOOP("RuleWords", "A debtor address is expected."),
    "cobr.lead_time": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The due date {due} is too close: a recurring charge is created at least 2 business days "
        "before its due date, so the earliest is {earliest}.",
    ),
    "cobr.rec_not_approved": QT_TRANSLATE_NOOP(
        "RuleWords", "Only an authorised recurrence can be charged."
    ),
    "cobr.due_outside_validity": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date is outside the recurrence's validity ({start} to {end})."
    ),
    "cobr.due_before_validity": QT_TRANSLATE_NOOP(
        "RuleWords", "The due date is before the recurrence's first date ({start})."
    ),
    "cobr.amount_missing": QT_TRANSLATE_NOOP("RuleWords", "Type the amount of the charge."),
    "cobr.amount_not_fixed": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is the recurrence's fixed {fixed}."
    ),
    "cobr.amount_below_minimum": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount is below the recurrence's minimum {minimum}."
    ),
    "cobr.cycle_taken": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The recurrence already has an active charge in this cycle ({cycle}): {txid}, due {due}. "
        "Cancel it first or choose another cycle.",
    ),
    "cobr.cannot_cancel": QT_TRANSLATE_NOOP("RuleWords", "The charge can no longer be cancelled."),
    "cobr.cancel_after_first_attempt": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A recurring charge cannot be cancelled from the date of its first settlement attempt "
        "({first}) on.",
    ),
    "cobr.retries_not_allowed": QT_TRANSLATE_NOOP(
        "RuleWords", "The recurrence's retry policy does not allow retries."
    ),
    "cobr.closed_no_retry": QT_TRANSLATE_NOOP("RuleWords", "The charge is closed: no retry."),
    "cobr.attempt_pending": QT_TRANSLATE_NOOP(
        "RuleWords", "An attempt is still scheduled: wait for its result."
    ),
    "cobr.retry_without_failure": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry only follows a failed attempt."
    ),
    "cobr.retries_used": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge already had the {max} retries allowed."
    ),
    "cobr.retry_not_future": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry is scheduled on a future date."
    ),
    "cobr.retry_too_late": QT_TRANSLATE_NOOP(
        "RuleWords", "A retry must fall within {days} days after the due date (until {until})."
    ),
    "cobr.retry_same_day": QT_TRANSLATE_NOOP(
        "RuleWords", "The charge already has an attempt on that date."
    ),
    "rec.debtor_required": QT_TRANSLATE_NOOP("RuleWords", "The debtor is required."),
    "rec.fixed_and_minimum": QT_TRANSLATE_NOOP(
        "RuleWords", "Give a fixed amount or a minimum amount, not both."
    ),
    "rec.end_before_start": QT_TRANSLATE_NOOP(
        "RuleWords", "The end date is before the first date."
    ),
    "rec.first_date_passed": QT_TRANSLATE_NOOP("RuleWords", "The first date {first} has passed."),
    "rec.nothing_to_revise": QT_TRANSLATE_NOOP("RuleWords", "Nothing to revise."),
    "solicrec.id_format": QT_TRANSLATE_NOOP(
        "RuleWords", "A request id (idSolicRec) has 29 characters, SC first."
    ),
    "solicrec.payer_required": QT_TRANSLATE_NOOP("RuleWords", "The payer's account is required."),
    "solicrec.ispb_format": QT_TRANSLATE_NOOP(
        "RuleWords", "An ISPB is 8 digits or capital letters."
    ),
    "solicrec.expires_in_past": QT_TRANSLATE_NOOP(
        "RuleWords", "The request would expire in the past."
    ),
    # Approvals (services/approvals.py)
    "approval.amount_differs": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount typed is not the amount of this payment."
    ),
    "approval.reject_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is rejected."),
    "approval.withdraw_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is withdrawn."),
    "approval.reject_reasons_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Say why each rejected row is rejected."
    ),
    "approval.amount_fixed": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount of this payment cannot be changed here: withdraw it."
    ),
    "approval.not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment is not waiting for approval any more."
    ),
    "approval.own_payment": QT_TRANSLATE_NOOP(
        "RuleWords",
        "You prepared this payment: another person approves it (a maker never approves their "
        "own payment).",
    ),
    "approval.own_payment_withdraw": QT_TRANSLATE_NOOP(
        "RuleWords", "You prepared this payment: withdraw it instead of rejecting it."
    ),
    "approval.not_the_maker": QT_TRANSLATE_NOOP(
        "RuleWords", "Only the person who prepared this payment withdraws or changes it."
    ),
    "approval.batch_not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "No row of this batch waits for approval any more."
    ),
    "approval.own_batch": QT_TRANSLATE_NOOP(
        "RuleWords", "You prepared this batch: another person approves it."
    ),
    "approval.not_an_approver": QT_TRANSLATE_NOOP(
        "RuleWords", "Your role does not approve payments."
    ),
    "approval.content_differs": QT_TRANSLATE_NOOP(
        "RuleWords",
        "What this desktop shows does not match the fingerprint the team database keeps for "
        "this payment: do not approve it; ask its maker to prepare it again.",
    ),
    "approval.approved_already": QT_TRANSLATE_NOOP(
        "RuleWords", "You approved it already; it waits for another approver."
    ),
    "approval.being_released": QT_TRANSLATE_NOOP(
        "RuleWords", "Every approval it needs is given; it is being released."
    ),
    "approval.batch_row_differs": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Payment #{entry} of this batch does not match what the team database keeps: review "
        "the batch again.",
    ),
    "approval.password_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Type your team database password to approve."
    ),
    "approval.password_wrong": QT_TRANSLATE_NOOP(
        "RuleWords", "That is not your team database password."
    ),
    # What the team database refuses a person (ledger/team/store.py: refusal_reason)
    "team.refused": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database did not allow this change; nothing was changed."
    ),
    "team.permission_denied": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your login may not make this change in the team database; ask its administrator for "
        "the right role.",
    ),
    "team.not_allowed": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database does not allow your login this change."
    ),
    "team.not_a_maker": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your login ({login}) does not prepare payments in the team: only makers prepare, change "
        "or withdraw them.",
    ),
    "team.not_an_approver": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your login ({login}) does not approve payments in the team: only approvers approve or "
        "reject them.",
    ),
    "team.read_only": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Your login ({login}) only reads the team's payments: sending them, resolving them and "
        "keeping their receipts take a maker or an approver.",
    ),
    "team.maker_only": QT_TRANSLATE_NOOP(
        "RuleWords", "Only {maker}, who prepared this payment, may change or withdraw it."
    ),
    "team.own_approve": QT_TRANSLATE_NOOP(
        "RuleWords", "You prepared this payment: another person must approve it."
    ),
    "team.own_reject": QT_TRANSLATE_NOOP(
        "RuleWords", "You prepared this payment: withdraw it instead of rejecting it."
    ),
    "team.not_money": QT_TRANSLATE_NOOP(
        "RuleWords", "The amount must be more than zero, in reais and centavos, at most {maximum}."
    ),
    "team.no_entry": QT_TRANSLATE_NOOP("RuleWords", "This payment is not in the team's journal."),
    "team.not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment is not waiting for approval any more ({state})."
    ),
    "team.changed_since_review": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This payment changed since you reviewed it (its amount or description): review it again.",
    ),
    "team.over_limit": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{amount} is over your approval limit ({payment_limit} per payment, {daily_limit} per "
        "day, {approved_today} approved today): it takes the approval of {others}.",
    ),
    "team.reject_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is rejected."),
    "team.withdraw_reason_missing": QT_TRANSLATE_NOOP("RuleWords", "Say why it is withdrawn."),
    "team.end_reason": QT_TRANSLATE_NOOP("RuleWords", "Say why it is rejected or withdrawn."),
    "team.too_few_approvals": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment has {given} of the {needed} approvals it needs: it is not sent."
    ),
    "team.maker_sends": QT_TRANSLATE_NOOP(
        "RuleWords", "Only {maker}, who prepared this payment, sends it."
    ),
    "team.batch_not_waiting": QT_TRANSLATE_NOOP(
        "RuleWords", "No payment of this batch is waiting for approval any more."
    ),
    "team.batch_changed": QT_TRANSLATE_NOOP(
        "RuleWords", "This batch changed since you reviewed it: review it again."
    ),
    "team.entry_claim": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Another desktop is sending or checking this payment, or it may not be sent yet: "
        "nothing was recorded here.",
    ),
    "team.journal_move": QT_TRANSLATE_NOOP(
        "RuleWords", "This payment moved on meanwhile: this step no longer applies to it."
    ),
    "team.journal_refusal_reason": QT_TRANSLATE_NOOP(
        "RuleWords", "A refusal is recorded with its reason."
    ),
    "team.state_changed": QT_TRANSLATE_NOOP(
        "RuleWords", "This changed meanwhile in the team database: look at it again."
    ),
    "team.check": QT_TRANSLATE_NOOP("RuleWords", "The team database did not accept these values."),
    "team.receipt_binding": QT_TRANSLATE_NOOP(
        "RuleWords", "This receipt cannot be kept with this payment."
    ),
    "team.receipt_not_completed": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank did not complete this payment: it has no receipt to keep."
    ),
    "team.receipt_not_this_payment": QT_TRANSLATE_NOOP(
        "RuleWords", "This receipt is not the one of this payment, or not a PDF file."
    ),
    "team.receipt_without_entry": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A receipt is kept with the payment it belongs to, and this one belongs to no payment "
        "of the team's journal.",
    ),
    # A ledger that cannot be opened or reached (ledger/errors.py, ledger/team/)
    "ledger.cannot_open": QT_TRANSLATE_NOOP(
        "RuleWords", "The ledger cannot be opened; the details are in the log."
    ),
    "ledger.unavailable": QT_TRANSLATE_NOOP(
        "RuleWords", "The ledger cannot be reached or written now; nothing was changed."
    ),
    "ledger.newer_schema": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{file}” was written by a newer version of the app (schema {schema}; this version "
        "reads up to {supported}). Update the app; the file was not changed.",
    ),
    "team.newer_schema": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database has schema {schema}; this version of the app reads up to "
        "{supported}. Update the app; nothing was changed.",
    ),
    "team.older_schema": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database has schema {schema}; this app needs {needed}. Its administrator "
        "runs “treasury-admin migrate”.",
    ),
    "team.not_prepared": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{where} is not a treasury team database yet: its administrator runs "
        "“treasury-admin init”.",
    ),
    "team.login_password": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database {where} refused the password: type it again."
    ),
    "team.login_unknown": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database has no login {user}: ask the administrator to add it "
        "(“treasury-admin add-user”).",
    ),
    "team.login_no_role": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The login {user} is not a maker, approver or viewer of the treasury: ask the "
        "administrator (“treasury-admin add-user”).",
    ),
    "team.login_no_database": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The server has no database {dbname}: check the profile's team database settings.",
    ),
    "team.login_tls": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The secure connection to the team database {where} failed: check its certificate "
        "settings with the administrator.",
    ),
    "team.login_denied": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database {where} does not let this login in: ask the administrator."
    ),
    "team.offline_refused": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database at {host}:{port} refused the connection: is its server running, and "
        "are the address and the port right?",
    ),
    "team.offline_timeout": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database at {host}:{port} did not answer in time (the network, a firewall, or "
        "a busy server).",
    ),
    "team.offline_unknown_host": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database's server {host} cannot be found: check its address, the network or "
        "the VPN.",
    ),
    "team.offline_too_many": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database at {host}:{port} has no free connection left: ask the administrator.",
    ),
    "team.offline_starting": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database at {host}:{port} is starting up, shutting down or recovering.",
    ),
    "team.offline_read_only": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The team database at {host}:{port} accepts no changes right now (a standby server, "
        "after a failover?).",
    ),
    "team.offline_lost": QT_TRANSLATE_NOOP(
        "RuleWords", "The connection to the team database at {host}:{port} was lost."
    ),
    "team.offline_other": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database at {host}:{port} cannot be reached."
    ),
    # A picture of a QR Code (ui/qr_image.py)
    "qr_image.unreadable": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{file}” could not be opened as an image. Choose a PNG or JPEG picture of the QR Code.",
    ),
    "qr_image.grayscale": QT_TRANSLATE_NOOP(
        "RuleWords", "“{file}” could not be prepared for reading (an unusual image format)."
    ),
    "qr_image.no_code": QT_TRANSLATE_NOOP(
        "RuleWords",
        "No QR Code was found in “{file}”. Use a sharp, well-lit picture showing the whole code.",
    ),
    # Held payments (services/payments.py)
    "payment.cancel_unconfirmed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank cannot be reached to confirm that it does not have this payment; nothing was "
        "cancelled. Try again when the bank answers.",
    ),
    # Statement (services/statement.py)
    "statement.range_reversed": QT_TRANSLATE_NOOP(
        "RuleWords", "The statement ends ({end}) before it starts ({start})."
    ),
    "statement.entry_id_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please give the id of a statement entry."
    ),
    # Infractions (services/infractions.py)
    "defense.infraction_closed": QT_TRANSLATE_NOOP(
        "RuleWords", "Infraction {id} is closed: it no longer accepts a defense."
    ),
    "defense.not_open": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Infraction {id}: only an open infraction or one under review accepts a defense.",
    ),
    "defense.deadline_passed": QT_TRANSLATE_NOOP(
        "RuleWords", "The deadline to defend infraction {id} passed on {deadline} (Brasília)."
    ),
    "defense.not_text": QT_TRANSLATE_NOOP("RuleWords", "The defense is text."),
    "defense.empty": QT_TRANSLATE_NOOP(
        "RuleWords", "Please write the defense: it cannot be empty."
    ),
    "defense.too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The defense has {length} characters; the bank accepts at most {max}."
    ),
    "defense.attachments_list": QT_TRANSLATE_NOOP(
        "RuleWords", "Attachments are a list of file names."
    ),
    "defense.attachment_unnamed": QT_TRANSLATE_NOOP(
        "RuleWords", "An attachment needs a file name."
    ),
    "defense.attachment_name_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "An attachment name has at most {max} characters."
    ),
    "defense.infraction_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please give the id of an infraction."
    ),
    # Webhooks (services/webhooks.py)
    "webhook.url_not_text": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL must be text."),
    "webhook.url_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Please enter the webhook URL (https://...)."
    ),
    "webhook.url_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The webhook URL has {length} characters; at most {max}."
    ),
    "webhook.url_characters": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The webhook URL may not contain spaces or non-ASCII characters (percent-encode them).",
    ),
    "webhook.url_invalid": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL is not a valid URL."),
    "webhook.url_no_scheme": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank only notifies HTTPS addresses: the URL must start with https:// (it has no "
        "scheme).",
    ),
    "webhook.url_not_https": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The bank only notifies HTTPS addresses: the URL must start with https:// (it has "
        "{scheme}).",
    ),
    "webhook.url_credentials": QT_TRANSLATE_NOOP(
        "RuleWords", "The webhook URL may not carry a user name or password (user:password@host)."
    ),
    "webhook.url_no_host": QT_TRANSLATE_NOOP("RuleWords", "The webhook URL has no host name."),
    "webhook.key_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "A Pix webhook belongs to one Pix key: choose the key."
    ),
    "webhook.headers_mapping": QT_TRANSLATE_NOOP(
        "RuleWords", "Headers are a mapping of names to values."
    ),
    "webhook.header_name": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{name}” is not a valid HTTP header name (letters, digits and -_.!#$%&'*+^`|~).",
    ),
    "webhook.header_twice": QT_TRANSLATE_NOOP("RuleWords", "The header {name} is given twice."),
    "webhook.header_value": QT_TRANSLATE_NOOP(
        "RuleWords", "The value of header {name} must be one line of text."
    ),
    "webhook.header_without_name": QT_TRANSLATE_NOOP(
        "RuleWords", "A header value was typed without its name."
    ),
    "webhook.email_format": QT_TRANSLATE_NOOP("RuleWords", "“{email}” is not an e-mail address."),
    "webhook.method": QT_TRANSLATE_NOOP(
        "RuleWords", "The bank notifies with POST or PUT, not “{method}”."
    ),
    "webhook.unknown_kind": QT_TRANSLATE_NOOP(
        "RuleWords", "Unknown webhook kind “{kind}”; expected one of {known}."
    ),
    "webhook.options_not_here": QT_TRANSLATE_NOOP(
        "RuleWords", "{options}: only the Accounts API's webhooks have these options."
    ),
    "webhook.option_yes_no": QT_TRANSLATE_NOOP("RuleWords", "{option} is yes or no."),
    "webhook.receiver_base_url": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The receiver's address is a base URL: no query string nor fragment (the bank appends "
        "/pix, /rec and /cobr to it).",
    ),
    "webhook.receiver_secret_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the receiver's secret (its Accounts webhook secret)."
    ),
    "webhook.receiver_url_too_long": QT_TRANSLATE_NOOP(
        "RuleWords", "The receiver's address is too long (at most {max} characters)."
    ),
    "webhook.not_per_key": QT_TRANSLATE_NOOP(
        "RuleWords", "This webhook is not per key: leave the key out."
    ),
    # Proxies (api/proxies.py, api/autoproxy): a login the app does not give, a PAC script
    "proxy.integrated_login": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The proxy {proxy} asks for an integrated Windows login (Negotiate/NTLM), which this "
        "app does not give. Ask IT to let these bank hosts through the proxy without a login "
        "(and without TLS inspection): {hosts}.",
    ),
    "proxy.login_required": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The proxy {proxy} asks for a user name and password ({schemes}), which this app does "
        "not give. Ask IT to let these bank hosts through the proxy without a login (and "
        "without TLS inspection): {hosts}.",
    ),
    "proxy.pac_fetch": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} could not be read, so nothing was sent to the "
        "bank. Check the network or ask IT about the proxy settings.",
    ),
    "proxy.pac_too_large": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} is larger than the {limit} bytes accepted; "
        "nothing was sent to the bank. Ask IT to check the proxy settings.",
    ),
    "proxy.pac_syntax": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} is not a valid script (no FindProxyForURL); "
        "nothing was sent to the bank. Ask IT to check it.",
    ),
    "proxy.pac_timeout": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} took too long to answer and was stopped; nothing "
        "was sent to the bank. Ask IT to check it.",
    ),
    "proxy.pac_runtime": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} failed while it ran; nothing was sent to the "
        "bank. Ask IT to check it.",
    ),
    "proxy.pac_answer": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} gave no usable proxy (only HTTP proxies or "
        "DIRECT are used); nothing was sent to the bank. Ask IT to check it.",
    ),
    "proxy.pac_engine": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The automatic proxy script {script} could not be evaluated (its evaluator did not "
        "start); nothing was sent to the bank. Reinstalling the app may fix this.",
    ),
    # A proxy's or an automatic proxy script's address (api/proxies.py: ProxyUrlError)
    "proxy.address_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the proxy's address (http://host:port)."
    ),
    "proxy.address_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "The proxy's address is not valid: write it as http://host:port."
    ),
    "proxy.address_scheme": QT_TRANSLATE_NOOP(
        "RuleWords", "A proxy's address starts with http:// or https://."
    ),
    "proxy.address_port": QT_TRANSLATE_NOOP(
        "RuleWords", "The proxy's address needs its port (http://host:port)."
    ),
    "proxy.address_path": QT_TRANSLATE_NOOP(
        "RuleWords", "A proxy's address is only http://host:port, with nothing after the port."
    ),
    "proxy.script_empty": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the address of the automatic proxy script."
    ),
    "proxy.script_invalid": QT_TRANSLATE_NOOP(
        "RuleWords", "The address of the automatic proxy script is not valid."
    ),
    "proxy.script_scheme": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The address of the automatic proxy script starts with http://, https:// or file://.",
    ),
    "proxy.script_user": QT_TRANSLATE_NOOP(
        "RuleWords", "The address of the automatic proxy script may not hold a user name."
    ),
    # A profile file or the sandbox bank's ready file (api/connect.py: ProfileFileError)
    "profile_file.missing": QT_TRANSLATE_NOOP("RuleWords", "The file {file} does not exist."),
    "profile_file.unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "The file {file} cannot be read: it cannot be opened or is not valid JSON."
    ),
    "profile_file.not_an_object": QT_TRANSLATE_NOOP(
        "RuleWords", "The file {file} is not a profile: it does not hold a JSON object."
    ),
    "profile_file.ready_incomplete": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The sandbox bank's file {file} lacks “{setting}”: start the sandbox bank again.",
    ),
    "profile_file.secret_unset": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Set the environment variable {variable}: this secret is never read from the profile file.",
    ),
    "profile_file.no_section": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {file} has no section for the {api}."
    ),
    "profile_file.setting_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The profile file {file} lacks the setting “{setting}” of the {api}."
    ),
    "profile_file.not_https": QT_TRANSLATE_NOOP(
        "RuleWords",
        "In the profile file {file}, the address of the {api} must start with https://.",
    ),
    # A team database's settings (ledger/team/settings.py: TeamSettingsError)
    "team_settings.host_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database needs a host name or address."
    ),
    "team_settings.dbname_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database needs a database name."
    ),
    "team_settings.user_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database needs your login (a PostgreSQL role)."
    ),
    "team_settings.port": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database's port {port} is not a port (1 to 65535)."
    ),
    "team_settings.sslmode": QT_TRANSLATE_NOOP(
        "RuleWords",
        "“{sslmode}” is not a security mode of the connection to the team database.",
    ),
    "team_settings.certificate_pair": QT_TRANSLATE_NOOP(
        "RuleWords", "A client certificate needs both its certificate file and its key file."
    ),
    "team_settings.incomplete": QT_TRANSLATE_NOOP(
        "RuleWords", "The team database's settings are incomplete: “{setting}” is missing."
    ),
    "team_settings.url_scheme": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A team database's address starts with postgresql:// (for example "
        "postgresql://ana@db.empresa.com.br:5432/tesouraria?sslmode=verify-full).",
    ),
    "team_settings.url_port": QT_TRANSLATE_NOOP(
        "RuleWords", "The port in the team database's address is not a number."
    ),
    # Secrets an unlock still needs (services/session.py: MissingSecret, TeamPasswordNeeded)
    "session.missing_client_secret": QT_TRANSLATE_NOOP(
        "RuleWords",
        "Enter the client secret of the {api} (none is kept in the system keyring for this "
        "profile).",
    ),
    "session.missing_pfx_password": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the certificate password of the {api}."
    ),
    "session.team_password_needed": QT_TRANSLATE_NOOP(
        "RuleWords", "Enter the password of the team database ({where})."
    ),
    # Sample slips of the sandbox (services/sandbox_samples.py)
    "sandbox.samples_only_in_sandbox": QT_TRANSLATE_NOOP(
        "RuleWords", "Sample slips exist only in the sandbox bank."
    ),
    "sandbox.unreachable": QT_TRANSLATE_NOOP("RuleWords", "The sandbox bank could not be reached."),
    "sandbox.answered": QT_TRANSLATE_NOOP("RuleWords", "The sandbox bank answered {status}."),
    "sandbox.unreadable_answer": QT_TRANSLATE_NOOP(
        "RuleWords", "The sandbox bank's answer could not be read."
    ),
    # Backups and restores (services/backup.py)
    "backup.no_folder": QT_TRANSLATE_NOOP(
        "RuleWords", "Choose a folder for the backups first (Settings → Backups)."
    ),
    "backup.folder_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The backup folder {folder} cannot be reached (a share offline?)."
    ),
    "backup.inside_ledgers": QT_TRANSLATE_NOOP(
        "RuleWords",
        "{folder} is the app's own ledgers folder: choose another disk or a network share, "
        "which a broken or reimaged computer does not take with it.",
    ),
    "backup.failed": QT_TRANSLATE_NOOP(
        "RuleWords", "The backup could not be written to {folder}: {error}. Nothing was kept."
    ),
    "backup.ledger_damaged": QT_TRANSLATE_NOOP(
        "RuleWords", "The ledger in this backup is damaged (its check says: {check})."
    ),
    "backup.incomplete": QT_TRANSLATE_NOOP(
        "RuleWords", "This folder is not a complete backup: it has no manifest."
    ),
    "backup.manifest_unreadable": QT_TRANSLATE_NOOP(
        "RuleWords", "This backup's manifest cannot be read or is not this app's."
    ),
    "backup.newer_format": QT_TRANSLATE_NOOP(
        "RuleWords", "This backup was written by a newer version of the app: update it first."
    ),
    "backup.file_missing": QT_TRANSLATE_NOOP(
        "RuleWords", "The file {file} of this backup is missing: the backup is damaged."
    ),
    "backup.file_changed": QT_TRANSLATE_NOOP(
        "RuleWords",
        "The file {file} of this backup is not the one that was backed up (its SHA-256 "
        "differs): the backup is damaged.",
    ),
    "restore.team_database": QT_TRANSLATE_NOOP(
        "RuleWords",
        "A team database is restored by its administrator, not from a desktop's backup.",
    ),
    "restore.other_profile": QT_TRANSLATE_NOOP(
        "RuleWords", "This backup is of the profile “{profile}”, not of the one open."
    ),
    "restore.newer_schema": QT_TRANSLATE_NOOP(
        "RuleWords",
        "This backup's ledger was written by a newer version of the app (schema {schema}; this "
        "version reads up to {supported}): update the app first.",
    ),
    "restore.busy": QT_TRANSLATE_NOOP(
        "RuleWords", "The ledger is being changed or backed up right now: try again in a moment."
    ),
    "restore.failed": QT_TRANSLATE_NOOP(
        "RuleWords", "The restore could not be done ({error}); the ledger was not changed."
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
