"""Pix identifiers: txid, idempotency keys, idRec, idSolicRec, endToEndId and rtrId —
generation with ``secrets`` and strict validation."""

from __future__ import annotations

import datetime as dt
import re
import secrets
import string
from dataclasses import dataclass

from treasury_app.domain.errors import IdentifierError

__all__ = [
    "LOCATION_ID_MAX",
    "IdRec",
    "check_location_id",
    "check_txid",
    "is_valid_e2eid",
    "is_valid_idempotency_key",
    "is_valid_idrec",
    "is_valid_idsolicrec",
    "is_valid_rtrid",
    "is_valid_txid",
    "new_e2eid",
    "new_idempotency_key",
    "new_idrec",
    "new_idsolicrec",
    "new_rtrid",
    "new_txid",
    "parse_idrec",
]

_ALPHANUMERIC = string.ascii_letters + string.digits
TXID_MIN_LENGTH = 26
TXID_MAX_LENGTH = 35
IDEMPOTENCY_KEY_LENGTH = 32
LOCATION_ID_MAX = 2**63 - 1
"""The largest payload location id (``loc.id`` is an int64)."""

# Explicit ASCII classes: \d and str.isalnum() accept non-ASCII digits and letters.
_TXID_RE = re.compile(r"[a-zA-Z0-9]{26,35}")
_IDEMPOTENCY_KEY_RE = re.compile(r"[a-zA-Z0-9]{1,50}")
_ISPB_RE = re.compile(r"[0-9A-Z]{8}")
_SEQUENCE_RE = re.compile(r"[a-zA-Z0-9]{11}")
_DIGITS_RE = re.compile(r"[0-9]+")
_IDREC_LENGTH = 29
_E2EID_LENGTH = 32


def _random_alphanumeric(length: int) -> str:
    return "".join(secrets.choice(_ALPHANUMERIC) for _ in range(length))


def new_txid(length: int = TXID_MAX_LENGTH) -> str:
    """A cryptographically random txid of ``length`` (26..35) characters ``[a-zA-Z0-9]``."""
    if isinstance(length, bool) or not isinstance(length, int):
        raise TypeError(f"length must be an int, not {type(length).__name__}")
    if not TXID_MIN_LENGTH <= length <= TXID_MAX_LENGTH:
        raise IdentifierError(
            "txid.length", minimum=TXID_MIN_LENGTH, maximum=TXID_MAX_LENGTH, length=length
        )
    return _random_alphanumeric(length)


def is_valid_txid(s: str) -> bool:
    """Whether ``s`` is a client-chosen txid: 26 to 35 characters ``[a-zA-Z0-9]``."""
    return isinstance(s, str) and _TXID_RE.fullmatch(s) is not None


def check_txid(s: str) -> str:
    """``s`` when it is a txid a client may choose: 26 to 35 ASCII letters or digits.

    The same rule for every charge created with ``PUT`` and a txid of ours: ``cob``, ``cobv``,
    ``cobr`` and the members of a ``lotecobv``. (Only a ``cob`` or a ``cobr`` may be created
    without one, by ``POST``, the bank then choosing it; a ``cobv`` never.) The txid of a Pix
    received may be shorter (a static QR Code's): it is not checked with this rule.
    Raises :class:`IdentifierError`: ``txid.length`` or ``txid.characters``.
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    if not TXID_MIN_LENGTH <= len(s) <= TXID_MAX_LENGTH:
        raise IdentifierError(
            "txid.length",
            field="txid",
            minimum=TXID_MIN_LENGTH,
            maximum=TXID_MAX_LENGTH,
            length=len(s),
        )
    if _TXID_RE.fullmatch(s) is None:
        raise IdentifierError("txid.characters", field="txid")
    return s


def check_location_id(value: str | int) -> int:
    """The id of a payload location (``loc.id``, BCB's int64), from what a person typed
    (surrounding spaces ignored) or from a number: a whole number from 1 to
    :data:`LOCATION_ID_MAX`. Raises :class:`IdentifierError`: ``location.id_missing``,
    ``location.id_form`` or ``location.id_range``."""
    if isinstance(value, bool):
        raise TypeError("a location id is not a bool")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str):
        text = value.strip()
        if not text:
            raise IdentifierError("location.id_missing", field="loc.id")
        if _DIGITS_RE.fullmatch(text) is None:
            raise IdentifierError("location.id_form", field="loc.id")
        number = int(text) if len(text) <= 20 else LOCATION_ID_MAX + 1
    else:
        raise TypeError(f"expected str or int, not {type(value).__name__}")
    if not 1 <= number <= LOCATION_ID_MAX:
        raise IdentifierError("location.id_range", field="loc.id")
    return number


def new_idempotency_key() -> str:
    """A cryptographically random ``x-idempotency-key`` of 32 characters ``[a-zA-Z0-9]``."""
    return _random_alphanumeric(IDEMPOTENCY_KEY_LENGTH)


def is_valid_idempotency_key(s: str) -> bool:
    """Whether ``s`` is a valid ``x-idempotency-key``: 1 to 50 ASCII letters or digits."""
    return isinstance(s, str) and _IDEMPOTENCY_KEY_RE.fullmatch(s) is not None


def _parse_date(text: str) -> dt.date | None:
    """The date written ``yyyyMMdd`` in ``text``, or None if it is not a real date."""
    if len(text) != 8 or not _DIGITS_RE.fullmatch(text):
        return None
    try:
        return dt.date(int(text[:4]), int(text[4:6]), int(text[6:]))
    except ValueError:
        return None


def _parse_timestamp(text: str) -> dt.datetime | None:
    """The date and time written ``yyyyMMddHHmm`` in ``text``, or None if it is not real."""
    day = _parse_date(text[:8])
    if day is None or len(text) != 12 or not _DIGITS_RE.fullmatch(text[8:]):
        return None
    hour, minute = int(text[8:10]), int(text[10:])
    if hour > 23 or minute > 59:
        return None
    return dt.datetime(day.year, day.month, day.day, hour, minute)


def _check_ispb(ispb: str) -> str:
    if not isinstance(ispb, str):
        raise TypeError(f"ispb must be a str, not {type(ispb).__name__}")
    if not _ISPB_RE.fullmatch(ispb):
        raise IdentifierError("ispb.form")
    return ispb


def _yyyymmdd(on: dt.date) -> str:
    if not isinstance(on, dt.date):
        raise TypeError(f"expected a date, not {type(on).__name__}")
    return f"{on.year:04d}{on.month:02d}{on.day:02d}"


@dataclass(frozen=True, slots=True)
class IdRec:
    """A parsed idRec (identifier of a Pix Automático recurrence)."""

    value: str
    retry_allowed: bool
    ispb: str
    date: dt.date
    sequence: str


def parse_idrec(s: str) -> IdRec:
    """Parse an idRec: ``R``, ``R``/``N`` (retries after the due date allowed or not), the
    8-character ISPB, the creation date ``yyyyMMdd`` and an 11-character sequence.

    Surrounding whitespace is ignored. Raises :class:`IdentifierError` with the reason.
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    text = s.strip()
    if not text:
        raise IdentifierError("idrec.empty")
    if len(text) != _IDREC_LENGTH:
        raise IdentifierError("idrec.length", expected=_IDREC_LENGTH, length=len(text))
    if text[0] != "R":
        raise IdentifierError("idrec.prefix")
    if text[1] not in "RN":
        raise IdentifierError("idrec.retry_flag")
    ispb = text[2:10]
    if not _ISPB_RE.fullmatch(ispb):
        raise IdentifierError("idrec.ispb")
    day = _parse_date(text[10:18])
    if day is None:
        raise IdentifierError("idrec.date")
    sequence = text[18:]
    if not _SEQUENCE_RE.fullmatch(sequence):
        raise IdentifierError("idrec.sequence")
    return IdRec(value=text, retry_allowed=text[1] == "R", ispb=ispb, date=day, sequence=sequence)


def is_valid_idrec(s: str) -> bool:
    """Whether ``s`` (exactly, no surrounding whitespace) is a valid idRec."""
    if not isinstance(s, str) or len(s) != _IDREC_LENGTH or s != s.strip():
        return False
    try:
        parse_idrec(s)
    except IdentifierError:
        return False
    return True


def new_idrec(ispb: str, retry_allowed: bool, on: dt.date) -> str:
    """A new idRec for the agent ``ispb`` created on ``on`` with a random 11-character sequence."""
    policy = "R" if retry_allowed else "N"
    return f"R{policy}{_check_ispb(ispb)}{_yyyymmdd(on)}{_random_alphanumeric(11)}"


def new_idsolicrec(ispb: str, on: dt.date) -> str:
    """A new idSolicRec: ``SC`` + ISPB + ``yyyyMMdd`` + random 11-character sequence."""
    return f"SC{_check_ispb(ispb)}{_yyyymmdd(on)}{_random_alphanumeric(11)}"


def is_valid_idsolicrec(s: str) -> bool:
    """Whether ``s`` is a valid idSolicRec (``SC``, ISPB, real date, 11 alphanumerics)."""
    return (
        isinstance(s, str)
        and len(s) == _IDREC_LENGTH
        and s.startswith("SC")
        and _ISPB_RE.fullmatch(s[2:10]) is not None
        and _parse_date(s[10:18]) is not None
        and _SEQUENCE_RE.fullmatch(s[18:]) is not None
    )


def _is_valid_spi_id(s: object, prefix: str) -> bool:
    return (
        isinstance(s, str)
        and len(s) == _E2EID_LENGTH
        and s.startswith(prefix)
        and _ISPB_RE.fullmatch(s[1:9]) is not None
        and _parse_timestamp(s[9:21]) is not None
        and _SEQUENCE_RE.fullmatch(s[21:]) is not None
    )


def _new_spi_id(prefix: str, ispb: str, at: dt.datetime) -> str:
    if not isinstance(at, dt.datetime):
        raise TypeError(f"expected a datetime, not {type(at).__name__}")
    # The SPI reads the timestamp as UTC; a naive datetime is taken to be UTC already.
    if at.tzinfo is not None:
        at = at.astimezone(dt.UTC)
    stamp = f"{_yyyymmdd(at)}{at.hour:02d}{at.minute:02d}"
    return f"{prefix}{_check_ispb(ispb)}{stamp}{_random_alphanumeric(11)}"


def is_valid_e2eid(s: str) -> bool:
    """Whether ``s`` is an endToEndId: ``E`` + ISPB + ``yyyyMMddHHmm`` (real) + 11 alphanumerics."""
    return _is_valid_spi_id(s, "E")


def new_e2eid(ispb: str, at: dt.datetime) -> str:
    """A new endToEndId for ``ispb`` at ``at`` (converted to UTC; naive means UTC)."""
    return _new_spi_id("E", ispb, at)


def is_valid_rtrid(s: str) -> bool:
    """Whether ``s`` is a refund id (rtrId): same layout as an endToEndId with prefix ``D``."""
    return _is_valid_spi_id(s, "D")


def new_rtrid(ispb: str, at: dt.datetime) -> str:
    """A new rtrId for ``ispb`` at ``at`` (converted to UTC; naive means UTC)."""
    return _new_spi_id("D", ispb, at)
