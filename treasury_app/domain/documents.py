"""CPF and CNPJ (numeric and the alphanumeric CNPJ valid from July 2026): check digits,
validation, normalisation and display masks."""

from __future__ import annotations

import re
import string
from typing import Literal

from treasury_app.domain.errors import DocumentError

__all__ = [
    "cnpj_check_digits",
    "cpf_check_digits",
    "document_kind",
    "format_cnpj",
    "format_cpf",
    "is_scientific_notation",
    "is_valid_cnpj",
    "is_valid_cpf",
    "mask_document",
    "normalize_document",
]

# Longer than any masked CPF/CNPJ with generous spacing; longer input is rejected before any
# other work so that huge strings cost nothing.
_MAX_INPUT_LENGTH = 40

_MASK_CHARS_RE = re.compile(r"[\s./-]")
# str.upper() would turn some non-ASCII letters into ASCII ones ('ı' -> 'I'), so only a-z is
# upper-cased.
_ASCII_UPPER = str.maketrans(string.ascii_lowercase, string.ascii_uppercase)
_CPF_RE = re.compile(r"[0-9]{11}")
_CPF_BASE_RE = re.compile(r"[0-9]{9}")
_CNPJ_RE = re.compile(r"[0-9A-Z]{12}[0-9]{2}")
_CNPJ_BASE_RE = re.compile(r"[0-9A-Z]{12}")

# A number as a spreadsheet writes it in scientific notation: 1,12E+13, 5.29982E+10, 1E+13. The
# exponent's sign is required (spreadsheets always write it), so that no alphanumeric CNPJ
# (letters and digits only) can ever look like one.
_SCIENTIFIC_RE = re.compile(r"[0-9]+(?:[.,][0-9]+)?[eE][+-][0-9]{1,3}")

_CNPJ_DV1_WEIGHTS = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_CNPJ_DV2_WEIGHTS = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


def _strip_mask(s: str) -> str:
    """Remove dots, slashes, hyphens and whitespace anywhere and upper-case ASCII letters."""
    return _MASK_CHARS_RE.sub("", s).translate(_ASCII_UPPER)


def cpf_check_digits(first9: str) -> str:
    """The two check digits of a CPF whose first 9 digits are ``first9``."""
    if not isinstance(first9, str) or not _CPF_BASE_RE.fullmatch(first9):
        raise DocumentError("document.cpf_base")
    digits = [int(c) for c in first9]
    dv1 = sum(d * (10 - i) for i, d in enumerate(digits)) * 10 % 11 % 10
    digits.append(dv1)
    dv2 = sum(d * (11 - i) for i, d in enumerate(digits)) * 10 % 11 % 10
    return f"{dv1}{dv2}"


def _cnpj_dv(values: list[int], weights: tuple[int, ...]) -> int:
    remainder = sum(v * w for v, w in zip(values, weights, strict=True)) % 11
    return 0 if remainder < 2 else 11 - remainder


def cnpj_check_digits(first12: str) -> str:
    """The two check digits of a CNPJ whose first 12 characters (``[0-9A-Z]``) are ``first12``.

    Each character counts as its ASCII code minus 48, so digits keep their value and A=17..Z=42
    (RFB rule for the alphanumeric CNPJ, identical to the old rule for numeric ones).
    """
    if not isinstance(first12, str) or not _CNPJ_BASE_RE.fullmatch(first12):
        raise DocumentError("document.cnpj_base")
    values = [ord(c) - 48 for c in first12]
    dv1 = _cnpj_dv(values, _CNPJ_DV1_WEIGHTS)
    values.append(dv1)
    dv2 = _cnpj_dv(values, _CNPJ_DV2_WEIGHTS)
    return f"{dv1}{dv2}"


def _all_equal(s: str) -> bool:
    return len(set(s)) == 1


def _cpf_problem(bare: str) -> DocumentError | None:
    """Why the unmasked ``bare`` is not a valid CPF, or None if it is one."""
    if not _CPF_RE.fullmatch(bare):
        return DocumentError("document.cpf_length", length=len(bare))
    if _all_equal(bare):
        return DocumentError("document.cpf_all_equal")
    if cpf_check_digits(bare[:9]) != bare[9:]:
        return DocumentError("document.cpf_check_digits")
    return None


def _cnpj_problem(bare: str) -> DocumentError | None:
    """Why the unmasked, upper-cased ``bare`` is not a valid CNPJ, or None if it is one."""
    if len(bare) != 14:
        return DocumentError("document.cnpj_length", length=len(bare))
    if not _CNPJ_RE.fullmatch(bare):
        return DocumentError("document.cnpj_characters")
    if _all_equal(bare):
        return DocumentError("document.cnpj_all_equal")
    if cnpj_check_digits(bare[:12]) != bare[12:]:
        return DocumentError("document.cnpj_check_digits")
    return None


def is_valid_cpf(s: str) -> bool:
    """Whether ``s`` is a valid CPF, masked (``962.718.458-60``) or bare. Never raises."""
    if not isinstance(s, str) or len(s) > _MAX_INPUT_LENGTH:
        return False
    return _cpf_problem(_strip_mask(s)) is None


def is_valid_cnpj(s: str) -> bool:
    """Whether ``s`` is a valid CNPJ (numeric or alphanumeric, lower case accepted), masked
    (``12.ABC.345/01DE-35``) or bare. Never raises."""
    if not isinstance(s, str) or len(s) > _MAX_INPUT_LENGTH:
        return False
    return _cnpj_problem(_strip_mask(s)) is None


def _checked_cpf(s: str) -> str:
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    if len(s) > _MAX_INPUT_LENGTH:
        raise DocumentError("document.cpf_length", length=len(s))
    bare = _strip_mask(s)
    problem = _cpf_problem(bare)
    if problem is not None:
        raise problem
    return bare


def _checked_cnpj(s: str) -> str:
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    if len(s) > _MAX_INPUT_LENGTH:
        raise DocumentError("document.cnpj_length", length=len(s))
    bare = _strip_mask(s)
    problem = _cnpj_problem(bare)
    if problem is not None:
        raise problem
    return bare


def format_cpf(s: str) -> str:
    """A valid CPF in its usual mask, ``962.718.458-60``; raises :class:`DocumentError`."""
    c = _checked_cpf(s)
    return f"{c[:3]}.{c[3:6]}.{c[6:9]}-{c[9:]}"


def format_cnpj(s: str) -> str:
    """A valid CNPJ in its usual mask, ``12.ABC.345/01DE-35``; raises :class:`DocumentError`."""
    c = _checked_cnpj(s)
    return f"{c[:2]}.{c[2:5]}.{c[5:8]}/{c[8:12]}-{c[12:]}"


def is_scientific_notation(s: str) -> bool:
    """Whether ``s`` is a number in scientific notation (``1,12E+13``): what a spreadsheet
    writes for a long number column, its last digits already lost."""
    return (
        isinstance(s, str)
        and len(s) <= _MAX_INPUT_LENGTH
        and bool(_SCIENTIFIC_RE.fullmatch(s.strip()))
    )


def normalize_document(s: str) -> str:
    """The bare form of a valid CPF (11 digits) or CNPJ (14 characters, upper case).

    Dots, slashes, hyphens and spaces are removed wherever they are; the result's length decides
    whether it is read as a CPF or a CNPJ. Raises :class:`DocumentError` otherwise, saying so
    when a spreadsheet has mangled the number (a dropped leading zero, scientific notation).
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    if is_scientific_notation(s):
        raise DocumentError("document.scientific_notation", text=s.strip())
    bare = _strip_mask(s) if len(s) <= _MAX_INPUT_LENGTH else s
    if len(bare) == 11:
        return _checked_cpf(bare)
    if len(bare) == 14:
        return _checked_cnpj(bare)
    if not bare:
        raise DocumentError("document.empty")
    if bare.isdigit() and len(bare) in (10, 13):
        # A spreadsheet read the document as a number and dropped its leading zero.
        kind = "CPF" if len(bare) == 10 else "CNPJ"
        raise DocumentError("document.leading_zero", kind=kind, digits=len(bare), padded="0" + bare)
    raise DocumentError("document.length", length=len(bare))


def document_kind(s: str) -> Literal["CPF", "CNPJ"]:
    """Whether the valid document ``s`` is a CPF or a CNPJ; raises :class:`DocumentError`."""
    return "CPF" if len(normalize_document(s)) == 11 else "CNPJ"


def mask_document(s: str) -> str:
    """A valid CPF or CNPJ for display in review dialogs.

    A CPF identifies a person, so only its middle 6 digits are shown (``***.718.458-**``, the
    masking the Pix ecosystem uses). A CNPJ identifies a company and is public record, and the
    user needs all of it to recognise the payee, so it is shown in full, formatted.
    """
    bare = normalize_document(s)
    if len(bare) == 11:
        return f"***.{bare[3:6]}.{bare[6:9]}-**"
    return format_cnpj(bare)
