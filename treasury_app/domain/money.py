"""Amounts of money in reais: read what people type, format for display, and write the exact
strings and JSON numbers the bank APIs expect, always with ``Decimal`` and never binary floats."""

from __future__ import annotations

import json
import re
from decimal import Decimal

from treasury_app.domain.errors import MoneyError

__all__ = [
    "MAX_AMOUNT",
    "MAX_API_AMOUNT",
    "MAX_INTEGER_DIGITS",
    "RawJsonNumber",
    "dumps_json",
    "dumps_json_bytes",
    "format_brl",
    "loads_json",
    "parse_brl",
    "parse_json_amount",
    "to_api_string",
    "to_json_number",
]

_CENT = Decimal("0.01")

# 13 integer digits is far above any amount a company moves in one payment, and keeps every value
# exactly representable in the default 28-digit decimal context.
MAX_INTEGER_DIGITS = 13
MAX_AMOUNT = Decimal("9999999999999.99")
# The QR Codes API money format is \d{1,10}\.\d{2}.
MAX_API_AMOUNT = Decimal("9999999999.99")

# Longer than any way of writing MAX_AMOUNT with a prefix and generous spacing; checked first so
# that pasting a whole document into an amount field fails fast with a clear message.
_MAX_TEXT_LENGTH = 40

# Explicit [0-9] classes (not \d) so that non-ASCII digits such as '٣' never match.
_PREFIX_RE = re.compile(r"R\$[\s\u00a0\u202f]*")
_COMMA_GROUPED_RE = re.compile(r"(?P<int>[1-9][0-9]{0,2}(?:\.[0-9]{3})+),(?P<frac>[0-9]+)")
_COMMA_PLAIN_RE = re.compile(r"(?P<int>[0-9]+),(?P<frac>[0-9]+)")
_DOT_DECIMAL_RE = re.compile(r"(?P<int>[0-9]+)\.(?P<frac>[0-9]{1,2})")
_DOT_GROUPED_RE = re.compile(r"(?P<int>[1-9][0-9]{0,2}(?:\.[0-9]{3})+)")
_PLAIN_RE = re.compile(r"(?P<int>[0-9]+)")
_ONE_DOT_MANY_DECIMALS_RE = re.compile(r"[0-9]+\.[0-9]{3,}")
_JSON_NUMBER_RE = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_DECIMAL_STRING_RE = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def parse_brl(text: str) -> Decimal:
    """Read an amount typed by a person and return it with exactly 2 decimal places.

    Accepted: an optional ``R$`` prefix (with or without spaces or a non-breaking space), then
    ASCII digits with separators. Reading rule for separators:

    * If the text has a comma, the comma is the decimal separator and any dots must be thousands
      separators in groups of 3 (``1.234,56``, ``1234,56``, ``0,5``).
    * If it has only dots, a single dot followed by 1 or 2 digits is a decimal point
      (``1234.56``, ``1234.5``); dots followed by groups of exactly 3 digits form a valid
      thousands grouping (``1.234`` is one thousand two hundred and thirty-four reais).

    Zero is accepted (callers decide whether zero is allowed). Negative amounts, more than 2
    decimal places, misplaced separators, exponents, NaN/Infinity, non-ASCII digits and amounts
    above :data:`MAX_AMOUNT` raise :class:`MoneyError`.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_brl expects str, not {type(text).__name__}")
    if len(text) > _MAX_TEXT_LENGTH:
        raise MoneyError("money.text_too_long")
    body = text.strip()
    if body.startswith(("-", "(")):
        raise MoneyError("money.negative")
    prefix = _PREFIX_RE.match(body)
    if prefix is not None:
        body = body[prefix.end() :]
    if not body:
        raise MoneyError("money.empty")
    if body.startswith(("-", "(")):
        raise MoneyError("money.negative")

    integer, fraction = _split_amount(body)
    if len(fraction) > 2:
        raise MoneyError("money.places")
    if len(integer.lstrip("0")) > MAX_INTEGER_DIGITS:
        raise MoneyError("money.too_large", maximum=MAX_AMOUNT)
    return Decimal(f"{integer}.{fraction or '0'}").quantize(_CENT)


def _split_amount(body: str) -> tuple[str, str]:
    """Return the integer digits (separators removed) and the fraction digits of ``body``."""
    if "," in body:
        match = _COMMA_GROUPED_RE.fullmatch(body) or _COMMA_PLAIN_RE.fullmatch(body)
        if match is None:
            raise _bad_amount(body)
        return match["int"].replace(".", ""), match["frac"]
    match = _DOT_DECIMAL_RE.fullmatch(body)
    if match is not None:
        return match["int"], match["frac"]
    match = _DOT_GROUPED_RE.fullmatch(body) or _PLAIN_RE.fullmatch(body)
    if match is not None:
        return match["int"].replace(".", ""), ""
    if _ONE_DOT_MANY_DECIMALS_RE.fullmatch(body):
        raise MoneyError("money.places")
    raise _bad_amount(body)


def _bad_amount(body: str) -> MoneyError:
    """Why ``body`` (not an amount) was refused."""
    if not body.isascii():
        return MoneyError("money.characters")
    if re.fullmatch(r"[0-9.,]+", body):
        if body.count(",") > 1:
            return MoneyError("money.commas")
        if "," in body and "." in body.split(",", 1)[1]:
            return MoneyError("money.dot_after_comma")
        if re.fullmatch(r"[0-9.]*,[0-9]{3,}", body):
            return MoneyError("money.places")
        if body.startswith((".", ",")) or body.endswith((".", ",")):
            return MoneyError("money.separator_edges")
        return MoneyError("money.grouping")
    return MoneyError("money.form")


def _has_at_most_two_places(value: Decimal) -> bool:
    _sign, digits, exponent = value.as_tuple()
    if not isinstance(exponent, int):  # NaN / Infinity
        return False
    if exponent >= -2:
        return True
    extra = -2 - exponent
    return all(digit == 0 for digit in digits[-extra:])


def _check_amount(value: Decimal, *, allow_negative: bool, maximum: Decimal) -> Decimal:
    """Validate ``value`` and return it quantized to 2 places (``-0`` becomes ``0``)."""
    if not isinstance(value, Decimal):
        raise TypeError(f"expected Decimal, not {type(value).__name__}")
    if not value.is_finite():
        raise MoneyError("money.not_finite")
    if value < 0 and not allow_negative:
        raise MoneyError("money.negative")
    if not _has_at_most_two_places(value):
        raise MoneyError("money.places")
    # Compared before quantizing: quantize would fail on huge exponents.
    if value.copy_abs() > maximum:
        raise MoneyError("money.too_large", maximum=maximum)
    quantized = value.quantize(_CENT)
    return quantized if quantized != 0 else Decimal("0.00")


def format_brl(value: Decimal) -> str:
    """Format an amount for display: ``R$ 1.234,56``; negatives as ``-R$ 1.234,56``.

    Raises :class:`MoneyError` instead of rounding when more than 2 decimal places are
    significant, and for NaN, infinities and amounts beyond :data:`MAX_AMOUNT`.
    """
    amount = _check_amount(value, allow_negative=True, maximum=MAX_AMOUNT)
    digits = format(amount.copy_abs(), ",.2f").translate(str.maketrans(",.", ".,"))
    return f"-R$ {digits}" if amount < 0 else f"R$ {digits}"


def to_api_string(value: Decimal) -> str:
    """Write an amount in the QR Codes API money format ``\\d{1,10}\\.\\d{2}`` (``"1234.56"``)."""
    amount = _check_amount(value, allow_negative=False, maximum=MAX_API_AMOUNT)
    return format(amount, ".2f")


class RawJsonNumber:
    """A JSON number kept as its exact text, so serialising it never goes through ``float``."""

    __slots__ = ("_text",)

    def __init__(self, text: str) -> None:
        if not isinstance(text, str) or not _JSON_NUMBER_RE.fullmatch(text):
            raise ValueError(f"not a JSON number: {text!r}")
        self._text = text

    @property
    def text(self) -> str:
        return self._text

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"RawJsonNumber({self._text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RawJsonNumber):
            return self._text == other._text
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._text)

    def as_decimal(self) -> Decimal:
        return Decimal(self._text)


def to_json_number(value: Decimal) -> RawJsonNumber:
    """The Accounts API ``amount``: a JSON number with exactly 2 decimals (``1234.56``, ``0.30``).

    Negative amounts, NaN, infinities, more than 2 significant decimals and amounts beyond
    :data:`MAX_AMOUNT` raise :class:`MoneyError`.
    """
    amount = _check_amount(value, allow_negative=False, maximum=MAX_AMOUNT)
    return RawJsonNumber(format(amount, ".2f"))


def dumps_json(obj: object) -> str:
    """Serialise ``obj`` like ``json.dumps(obj)`` (default separators ``", "`` and ``": "``,
    ASCII escaping), writing ``Decimal`` and :class:`RawJsonNumber` as their exact digits.

    Supported: dict (str keys), list, tuple, str, int, bool, None, Decimal, RawJsonNumber.
    ``float`` raises ``TypeError`` on purpose: money must never pass through binary floating
    point. A Decimal is written as ``str(value)`` (exact; use :func:`to_json_number` to force 2
    decimals). NaN and infinities raise ``ValueError``.
    """
    parts: list[str] = []
    _encode(obj, parts, set())
    return "".join(parts)


def dumps_json_bytes(obj: object) -> bytes:
    """:func:`dumps_json` encoded as UTF-8 (the output is ASCII), ready for an HTTP body."""
    return dumps_json(obj).encode("utf-8")


def _encode(obj: object, parts: list[str], active: set[int]) -> None:
    if obj is None:
        parts.append("null")
    elif obj is True:
        parts.append("true")
    elif obj is False:
        parts.append("false")
    elif isinstance(obj, str):
        parts.append(json.dumps(obj))
    elif isinstance(obj, int):
        # int.__repr__ so that IntEnum members are written as numbers, as json.dumps does.
        parts.append(int.__repr__(obj))
    elif isinstance(obj, RawJsonNumber):
        parts.append(obj.text)
    elif isinstance(obj, Decimal):
        if not obj.is_finite():
            raise ValueError(f"{obj} cannot be written as a JSON number")
        parts.append(str(obj))
    elif isinstance(obj, float):
        raise TypeError("floats are not serialised (money must be a Decimal)")
    elif isinstance(obj, dict):
        _enter(obj, active)
        parts.append("{")
        for index, (key, item) in enumerate(obj.items()):
            if not isinstance(key, str):
                raise TypeError(f"JSON object keys must be str, not {type(key).__name__}")
            if index:
                parts.append(", ")
            parts.append(json.dumps(key))
            parts.append(": ")
            _encode(item, parts, active)
        parts.append("}")
        active.discard(id(obj))
    elif isinstance(obj, list | tuple):
        _enter(obj, active)
        parts.append("[")
        for index, item in enumerate(obj):
            if index:
                parts.append(", ")
            _encode(item, parts, active)
        parts.append("]")
        active.discard(id(obj))
    else:
        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")


def _enter(container: object, active: set[int]) -> None:
    if id(container) in active:
        raise ValueError("Circular reference detected")
    active.add(id(container))


def loads_json(text: str | bytes) -> object:
    """``json.loads`` with ``parse_float=Decimal``: numbers with a fraction or exponent become
    ``Decimal`` (exact), integers stay ``int``.

    Malformed documents raise ``ValueError`` (``json.JSONDecodeError`` for syntax errors); the
    constants NaN, Infinity and -Infinity are rejected as well.
    """
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("The JSON document is nested too deeply.") from None


def _reject_constant(name: str) -> object:
    raise ValueError(f"JSON constant {name} is not allowed")


def parse_json_amount(value: object) -> Decimal:
    """Read an amount the bank sent as a JSON number or string and return it with 2 places.

    Accepts ``int``, ``Decimal`` (parse the JSON with :func:`loads_json`) and decimal strings
    such as ``"1.00"`` or ``"-5.5"``. The sign is kept (bank statements carry debits); callers
    check it. Floats and bools are rejected, as are more than 2 significant decimals and
    amounts beyond :data:`MAX_AMOUNT`. Every rejection raises :class:`MoneyError`.
    """
    if isinstance(value, bool):
        raise MoneyError("money.bank_boolean")
    if isinstance(value, float):
        # Floats lose cents: the JSON must be parsed with loads_json (parse_float=Decimal).
        raise MoneyError("money.float")
    if value is None:
        raise MoneyError("money.bank_missing")
    if isinstance(value, int):
        if abs(value) > MAX_AMOUNT:
            raise MoneyError("money.too_large", maximum=MAX_AMOUNT)
        amount = Decimal(value)
    elif isinstance(value, Decimal):
        amount = value
    elif isinstance(value, str):
        text = value.strip()
        if len(text) > _MAX_TEXT_LENGTH or not _DECIMAL_STRING_RE.fullmatch(text):
            raise MoneyError("money.bank_not_a_number", text=value[:40])
        amount = Decimal(text)
    else:
        raise MoneyError("money.bank_type", type=type(value).__name__)
    return _check_amount(amount, allow_negative=True, maximum=MAX_AMOUNT)
