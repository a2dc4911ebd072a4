"""Pix keys (chaves Pix): detect the type of a key a person typed and normalise it to the form
the DICT and the Accounts API expect."""

from __future__ import annotations

import re
import string
from enum import StrEnum

from treasury_app.domain.documents import is_valid_cpf, normalize_document
from treasury_app.domain.errors import DocumentError, PixKeyError

__all__ = ["MAX_KEY_LENGTH", "KeyType", "detect_key_type", "normalize_key"]

# The Pix API's `chave` is at most 77 characters (the longest e-mail key the DICT accepts).
MAX_KEY_LENGTH = 77


class KeyType(StrEnum):
    """The ``pixKeyType`` of the Accounts API."""

    CPF = "CPF"
    CNPJ = "CNPJ"
    EMAIL = "EMAIL"
    PHONE = "PHONE"
    EVP = "EVP"


_HEX = "[0-9a-fA-F]"
_UUID_DASHED_RE = re.compile(f"{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}")
_UUID_BARE_RE = re.compile(f"{_HEX}{{32}}")
# The DICT e-mail pattern (ASCII only, lower case), requiring a dot in the domain.
_EMAIL_RE = re.compile(
    r"[a-z0-9.!#$%&'*+/=?^_`{|}~-]+"
    r"@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+"
)
_PHONE_MASK_CHARS_RE = re.compile(r"[\s()\-.]")
_DOCUMENT_MASK_CHARS_RE = re.compile(r"[\s./-]")
_CPF_MASK_RE = re.compile(r"[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}")
# DDDs never contain a 0 digit, so both are 1-9; a 9-digit subscriber number is a mobile number
# and starts with 9.
_NATIONAL_PHONE_RE = re.compile(r"[1-9]{2}(?:9[0-9]{8}|[2-9][0-9]{7})")
_MOBILE_RE = re.compile(r"[1-9]{2}9[0-9]{8}")
# The area codes (DDD) in use in Brazil (Anatel's numbering plan); 23, 25, 26, 29, 36, 39, 52,
# 56-59, 72, 76 and 78 do not exist.
BRAZILIAN_DDDS: frozenset[str] = frozenset(
    """11 12 13 14 15 16 17 18 19 21 22 24 27 28 31 32 33 34 35 37 38 41 42 43 44 45 46 47 48 49
    51 53 54 55 61 62 63 64 65 66 67 68 69 71 73 74 75 77 79 81 82 83 84 85 86 87 88 89 91 92
    93 94 95 96 97 98 99""".split()
)
_DIGITS_RE = re.compile(r"[0-9]+")
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)


def detect_key_type(key: str) -> KeyType:
    """The type of the Pix key ``key``; raises :class:`PixKeyError` if it is not a valid key.

    Rules, in order: a key with ``@`` is an e-mail; a UUID (36 characters with dashes or 32 hex
    digits, any case) is a random key (EVP); a key starting with ``+`` or containing parentheses
    is a phone number. Otherwise the mask characters are removed and:

    * 14 characters: a CNPJ (alphanumeric allowed).
    * 11 digits written with the CPF mask (``962.718.458-60``) or bare and valid as a CPF: a CPF.
      A bare valid CPF wins over a phone number: when a mobile number happens to be a valid CPF
      the user must write it as ``+55...`` or with the mask ``(11) 98765-4321``.
    * 11 digits that are not a valid CPF but look like a mobile number (DDD, then 9): a phone.
      Written with other separators (``11 98765-4321``), the phone reading is tried first.
    * 10 digits, or 12/13 digits starting with 55: a phone number.
    """
    if not isinstance(key, str):
        raise TypeError(f"expected str, not {type(key).__name__}")
    text = key.strip()
    _check_length(text)
    kind = _guess_type(text)
    normalize_key(text, kind)
    return kind


def _check_length(text: str) -> None:
    if not text:
        raise PixKeyError("pix_key.empty")
    if len(text) > MAX_KEY_LENGTH:
        raise PixKeyError("pix_key.too_long", maximum=MAX_KEY_LENGTH)


def _guess_type(text: str) -> KeyType:
    if "@" in text:
        return KeyType.EMAIL
    if _UUID_DASHED_RE.fullmatch(text) or _UUID_BARE_RE.fullmatch(text):
        return KeyType.EVP
    if text.startswith("+") or "(" in text or ")" in text:
        return KeyType.PHONE
    if _CPF_MASK_RE.fullmatch(text):
        return KeyType.CPF
    bare = _DOCUMENT_MASK_CHARS_RE.sub("", text)
    if len(bare) == 14:
        return KeyType.CNPJ
    if not _DIGITS_RE.fullmatch(bare):
        raise PixKeyError("pix_key.unknown_form")
    if len(bare) == 11:
        # Bare digits are read as a CPF first, anything written with separators as a phone first.
        order = (KeyType.CPF, KeyType.PHONE) if bare == text else (KeyType.PHONE, KeyType.CPF)
        for kind in order:
            if kind is KeyType.CPF and is_valid_cpf(bare):
                return kind
            if kind is KeyType.PHONE and _MOBILE_RE.fullmatch(bare) and bare[:2] in BRAZILIAN_DDDS:
                return kind
        raise PixKeyError("pix_key.eleven_digits")
    if len(bare) == 10 or (len(bare) in (12, 13) and bare.startswith("55")):
        return KeyType.PHONE
    raise PixKeyError("pix_key.digit_count", digits=len(bare))


def normalize_key(key: str, key_type: KeyType) -> str:
    """``key`` in the canonical form of ``key_type``; raises :class:`PixKeyError` if invalid.

    * PHONE: ``+55DDNNNNNNNNN``; accepts ``+55 (11) 98765-4321``, ``11987654321``,
      ``5511987654321``. Brazilian numbers only: DDD with digits 1-9 and a subscriber number of
      8 digits or of 9 digits starting with 9.
    * EMAIL: trimmed, lower case, ASCII only.
    * EVP: lower-case UUID with dashes.
    * CPF / CNPJ: bare characters (CNPJ letters upper case).
    """
    if not isinstance(key, str):
        raise TypeError(f"expected str, not {type(key).__name__}")
    text = key.strip()
    _check_length(text)
    match key_type:
        case KeyType.PHONE:
            return _normalize_phone(text)
        case KeyType.EMAIL:
            return _normalize_email(text)
        case KeyType.EVP:
            return _normalize_evp(text)
        case KeyType.CPF | KeyType.CNPJ:
            return _normalize_document(text, key_type)
    raise TypeError(f"unknown key type {key_type!r}")


def _normalize_phone(text: str) -> str:
    bare = _PHONE_MASK_CHARS_RE.sub("", text)
    if bare.startswith("+"):
        if not bare.startswith("+55"):
            raise PixKeyError("pix_key.phone_country")
        national = bare[3:]
    elif len(bare) in (12, 13) and bare.startswith("55"):
        national = bare[2:]
    else:
        national = bare
    if not _DIGITS_RE.fullmatch(national):
        raise PixKeyError("pix_key.phone_characters")
    if len(national) not in (10, 11):
        raise PixKeyError("pix_key.phone_length", digits=len(national))
    if national[:2] not in BRAZILIAN_DDDS:
        raise PixKeyError("pix_key.phone_area_code", ddd=national[:2])
    if not _NATIONAL_PHONE_RE.fullmatch(national):
        raise PixKeyError("pix_key.phone_number")
    return f"+55{national}"


def _normalize_email(text: str) -> str:
    if not text.isascii():
        raise PixKeyError("pix_key.email_characters")
    email = text.translate(_ASCII_LOWER)
    if email.count("@") != 1:
        raise PixKeyError("pix_key.email_at_signs")
    if not _EMAIL_RE.fullmatch(email):
        raise PixKeyError("pix_key.email_form")
    return email


def _normalize_evp(text: str) -> str:
    if _UUID_BARE_RE.fullmatch(text):
        text = f"{text[:8]}-{text[8:12]}-{text[12:16]}-{text[16:20]}-{text[20:]}"
    elif not _UUID_DASHED_RE.fullmatch(text):
        raise PixKeyError("pix_key.evp_form")
    return text.translate(_ASCII_LOWER)


def _normalize_document(text: str, key_type: KeyType) -> str:
    try:
        bare = normalize_document(text)
    except DocumentError as exc:
        raise PixKeyError.of(exc.reason) from None
    expected = 11 if key_type is KeyType.CPF else 14
    if len(bare) != expected:
        raise PixKeyError(
            "pix_key.document_kind",
            given="CPF" if len(bare) == 11 else "CNPJ",
            expected=str(key_type),
        )
    return bare
