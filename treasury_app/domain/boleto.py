"""FEBRABAN boletos: reading and checking digitable lines and barcodes of bank slips and of
utility/tax (convênio/arrecadação) slips, and building bank-slip barcodes.

A bank slip's due date is a 4-digit factor that restarts every 9000 days, so reading it needs a
reference date: :func:`parse` takes ``today`` (the Brasília business date, from
:mod:`treasury_app.domain.clock`) and never reads the machine's calendar. What needs no date
(the barcode, the punctuated line) is in :func:`barcode_of` and :func:`format_code`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal
from typing import Literal

from treasury_app.domain.errors import BoletoError

__all__ = [
    "Boleto",
    "barcode_of",
    "barcode_to_line",
    "build_bank_barcode",
    "due_date_from_factor",
    "factor_from_date",
    "format_code",
    "line_to_barcode",
    "normalize_billet_code",
    "parse",
]

BoletoKind = Literal["bank", "collection"]

_FACTOR_BASE = date(1997, 10, 7)
_CYCLE_START = date(2000, 7, 3)  # factor 1000 of the first cycle
# FEBRABAN restarted the factor at 1000 on 2025-02-22, i.e. every 9000 days (1000..9999).
_CYCLE_DAYS = 9000
_SEPARATORS = str.maketrans("", "", ".- ")
_DIGITS = frozenset("0123456789")
_CENT = Decimal("0.01")
_MAX_BANK_AMOUNT = Decimal("99999999.99")
MAX_BILLET_CODE_LENGTH = 50
"""The longest ``billetCode`` the Accounts API takes (digits)."""
_BILLET_SEPARATORS = str.maketrans("", "", ".- \t\r\n\f\v")


# --------------------------------------------------------------------------------------------
# Check digits


def _mod10(digits: str) -> int:
    total = 0
    for index, char in enumerate(reversed(digits)):
        product = int(char) * (2 if index % 2 == 0 else 1)
        total += product // 10 + product % 10
    return (10 - total % 10) % 10


def _mod11_sum(digits: str) -> int:
    return sum(int(char) * (2 + index % 8) for index, char in enumerate(reversed(digits)))


def _mod11_bank(digits: str) -> int:
    result = 11 - _mod11_sum(digits) % 11
    return 1 if result in (0, 10, 11) else result


def _mod11_collection(digits: str) -> int:
    remainder = _mod11_sum(digits) % 11
    return 0 if remainder in (0, 1) else 11 - remainder


def _collection_check(value_reference: str) -> Callable[[str], int]:
    if value_reference in ("6", "7"):
        return _mod10
    if value_reference in ("8", "9"):
        return _mod11_collection
    raise BoletoError("boleto.value_reference", found=value_reference)


# --------------------------------------------------------------------------------------------
# Due-date factor


def factor_from_date(d: date) -> int:
    """The 4-digit due-date factor FEBRABAN prints for ``d`` (restarting at 1000 each cycle)."""
    days = (d - _FACTOR_BASE).days
    if days < 0:
        raise BoletoError("boleto.due_too_early", due=d, first=_FACTOR_BASE)
    if d < _CYCLE_START:
        return days
    return 1000 + (d - _CYCLE_START).days % _CYCLE_DAYS


def due_date_from_factor(factor: int, today: date) -> date | None:
    """The due date of ``factor``: None for 0, else the cycle's date closest to ``today``."""
    if not 0 <= factor <= 9999:
        raise BoletoError("boleto.factor", factor=factor)
    if factor == 0:
        return None
    if factor < 1000:
        # Factors below 1000 only existed before 2000-07-03; later cycles restart at 1000.
        return _FACTOR_BASE + timedelta(days=factor)
    first = _CYCLE_START + timedelta(days=factor - 1000)
    cycle = max(0, round((today - first).days / _CYCLE_DAYS))
    candidates: list[date] = []
    for k in (cycle - 1, cycle, cycle + 1):
        if k >= 0:
            # Only a ``today`` near date.max pushes the next cycle past the calendar's end.
            with suppress(OverflowError):
                candidates.append(first + timedelta(days=_CYCLE_DAYS * k))
    # On an exact tie prefer the later cycle: slips are issued ahead of their due date.
    return min(candidates, key=lambda c: (abs((c - today).days), -c.toordinal()))


# --------------------------------------------------------------------------------------------
# Conversions


def _clean(code: str) -> str:
    if not isinstance(code, str):
        raise TypeError(f"boleto code must be str, not {type(code).__name__}")
    digits = code.strip().translate(_SEPARATORS)
    if not digits:
        raise BoletoError("boleto.empty")
    if not set(digits) <= _DIGITS:
        raise BoletoError("boleto.characters")
    return digits


def _bank_line_from_barcode(barcode: str) -> str:
    free = barcode[19:]
    field1 = barcode[0:4] + free[0:5]
    field2 = free[5:15]
    field3 = free[15:25]
    return (
        field1
        + str(_mod10(field1))
        + field2
        + str(_mod10(field2))
        + field3
        + str(_mod10(field3))
        + barcode[4]
        + barcode[5:19]
    )


def _collection_line_from_barcode(barcode: str) -> str:
    check = _collection_check(barcode[2])
    blocks = [barcode[i : i + 11] for i in range(0, 44, 11)]
    return "".join(block + str(check(block)) for block in blocks)


def _check_bank_barcode(barcode: str) -> None:
    if barcode[0] == "8":
        raise BoletoError("boleto.bank_code_8")
    if barcode[3] != "9":
        raise BoletoError("boleto.currency", found=barcode[3])
    if int(barcode[4]) != _mod11_bank(barcode[:4] + barcode[5:]):
        raise BoletoError("boleto.general_check_digit")


def _check_collection_barcode(barcode: str) -> None:
    check = _collection_check(barcode[2])
    if int(barcode[3]) != check(barcode[:3] + barcode[4:]):
        raise BoletoError("boleto.collection_check_digit")


def _barcode_from_bank_line(line: str) -> str:
    fields = ((1, line[0:9], line[9]), (2, line[10:20], line[20]), (3, line[21:31], line[31]))
    for number, body, digit in fields:
        if int(digit) != _mod10(body):
            raise BoletoError("boleto.block_check_digit", block=number)
    barcode = line[0:4] + line[32] + line[33:47] + line[4:9] + line[10:20] + line[21:31]
    _check_bank_barcode(barcode)
    return barcode


def _barcode_from_collection_line(line: str) -> str:
    if line[0] != "8":
        raise BoletoError("boleto.collection_prefix")
    check = _collection_check(line[2])
    for number in range(4):
        block = line[12 * number : 12 * number + 11]
        if int(line[12 * number + 11]) != check(block):
            raise BoletoError("boleto.collection_block_check_digit", block=number + 1)
    barcode = line[0:11] + line[12:23] + line[24:35] + line[36:47]
    _check_collection_barcode(barcode)
    return barcode


def _length_error(length: int) -> BoletoError:
    return BoletoError("boleto.length", digits=length)


def _barcode_of(digits: str) -> str:
    if len(digits) == 44:
        if digits[0] == "8":
            _check_collection_barcode(digits)
        else:
            _check_bank_barcode(digits)
        return digits
    if len(digits) == 47:
        return _barcode_from_bank_line(digits)
    if len(digits) == 48:
        return _barcode_from_collection_line(digits)
    raise _length_error(len(digits))


def barcode_to_line(barcode: str) -> str:
    """The digitable line (47 or 48 digits, no punctuation) of a checked 44-digit barcode."""
    digits = _clean(barcode)
    if len(digits) != 44:
        raise BoletoError("boleto.barcode_length", digits=len(digits))
    _barcode_of(digits)
    if digits[0] == "8":
        return _collection_line_from_barcode(digits)
    return _bank_line_from_barcode(digits)


def line_to_barcode(line: str) -> str:
    """The 44-digit barcode of a checked 47- or 48-digit digitable line."""
    digits = _clean(line)
    if len(digits) not in (47, 48):
        raise BoletoError("boleto.line_length", digits=len(digits))
    return _barcode_of(digits)


def build_bank_barcode(
    bank_code: str, amount: Decimal | None, due_date: date | None, free_field: str
) -> str:
    """A 44-digit bank-slip barcode in reais with its general check digit."""
    if len(bank_code) != 3 or not set(bank_code) <= _DIGITS or bank_code[0] == "8":
        raise BoletoError("boleto.build_bank_code", field="bank_code")
    if len(free_field) != 25 or not set(free_field) <= _DIGITS:
        raise BoletoError("boleto.build_free_field", field="free_field")
    if amount is None:
        cents = 0
    else:
        if not amount.is_finite() or amount < 0 or amount > _MAX_BANK_AMOUNT:
            raise BoletoError("boleto.build_amount_range", field="amount", maximum=_MAX_BANK_AMOUNT)
        if amount != amount.quantize(_CENT):
            raise BoletoError("boleto.build_amount_places", field="amount")
        cents = int(amount * 100)
    factor = 0 if due_date is None else factor_from_date(due_date)
    if due_date is not None and factor == 0:
        raise BoletoError("boleto.build_due_factor_zero", field="due_date", due=due_date)
    without_dv = f"{bank_code}9{factor:04d}{cents:010d}{free_field}"
    dv = _mod11_bank(without_dv)
    return f"{without_dv[:4]}{dv}{without_dv[4:]}"


# --------------------------------------------------------------------------------------------
# Parsed slip


@dataclass(frozen=True)
class Boleto:
    """A checked boleto; ``digitable_line`` and ``barcode`` are bare digits."""

    barcode: str
    digitable_line: str
    kind: BoletoKind
    bank_code: str | None
    amount: Decimal | None
    due_date: date | None
    segment: str | None

    @property
    def formatted_line(self) -> str:
        """The digitable line punctuated as printed on the slip."""
        return format_code(self.barcode)


def barcode_of(code: str) -> str:
    """The checked 44-digit barcode of a digitable line (47/48 digits) or barcode (44),
    punctuated or not; raise BoletoError. Needs no date."""
    return _barcode_of(_clean(code))


def normalize_billet_code(code: str) -> str:
    """The digits to send as the Accounts API's ``billetCode``: a valid digitable line or
    barcode (punctuated or not) becomes its 44-digit barcode; other digit strings are sent as
    typed (the bank judges them). Anything but digits and separators is refused with the code
    ``boleto.code_not_digits``, more than :data:`MAX_BILLET_CODE_LENGTH` digits with
    ``boleto.code_too_long`` (the slip forms check first, so a person rarely meets these)."""
    try:
        return barcode_of(code)
    except BoletoError:
        digits = code.translate(_BILLET_SEPARATORS)
        if not digits or not set(digits) <= _DIGITS:
            raise BoletoError("boleto.code_not_digits") from None
        if len(digits) > MAX_BILLET_CODE_LENGTH:
            raise BoletoError(
                "boleto.code_too_long", digits=len(digits), max=MAX_BILLET_CODE_LENGTH
            ) from None
        return digits


def format_code(code: str) -> str:
    """The digitable line of ``code`` punctuated as printed on the slip; raise BoletoError."""
    barcode = barcode_of(code)
    if barcode[0] == "8":
        line = _collection_line_from_barcode(barcode)
        return " ".join(f"{line[i : i + 11]}-{line[i + 11]}" for i in range(0, 48, 12))
    line = _bank_line_from_barcode(barcode)
    return (
        f"{line[0:5]}.{line[5:10]} {line[10:15]}.{line[15:21]} "
        f"{line[21:26]}.{line[26:32]} {line[32]} {line[33:47]}"
    )


def parse(code: str, today: date) -> Boleto:
    """Read and check a digitable line (47/48 digits) or barcode (44); raise BoletoError.

    ``today`` (the Brasília business date) picks the factor cycle of a bank slip's due date:
    the due date is the cycle's date closest to it."""
    barcode = _barcode_of(_clean(code))
    if barcode[0] == "8":
        value_reference = barcode[2]
        cents = int(barcode[4:15]) if value_reference in ("6", "8") else 0
        return Boleto(
            barcode=barcode,
            digitable_line=_collection_line_from_barcode(barcode),
            kind="collection",
            bank_code=None,
            amount=(Decimal(cents) / 100).quantize(_CENT) if cents else None,
            due_date=None,
            segment=barcode[1],
        )
    cents = int(barcode[9:19])
    return Boleto(
        barcode=barcode,
        digitable_line=_bank_line_from_barcode(barcode),
        kind="bank",
        bank_code=barcode[0:3],
        amount=(Decimal(cents) / 100).quantize(_CENT) if cents else None,
        due_date=due_date_from_factor(int(barcode[5:9]), today),
        segment=None,
    )
