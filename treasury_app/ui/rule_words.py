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
