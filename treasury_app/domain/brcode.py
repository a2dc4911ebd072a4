"""Pix "copia e cola" payloads (EMV BR Code): reading, checking and building them as the BCB
Manual de Padrões para Iniciação do Pix and the Manual do BR Code describe."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from decimal import Decimal

from treasury_app.domain.errors import BrCodeError

__all__ = ["PIX_GUI", "BrCode", "build", "crc16", "fit_text", "parse"]

PIX_GUI = "br.gov.bcb.pix"

# EMV QRCPS limits the whole payload to 512 characters; refusing longer text early also keeps
# pasted documents from being scanned field by field.
_MAX_PAYLOAD = 512
_MAX_NAME = 25
_MAX_CITY = 15
_MAX_TXID = 25
_MAX_AMOUNT_CHARS = 13
_NO_TXID = "***"
_CENT = Decimal("0.01")

_AMOUNT_RE = re.compile(r"[0-9]+(?:\.[0-9]{1,2})?")
_TXID_RE = re.compile(r"[A-Za-z0-9]+")
_POSTAL_RE = re.compile(r"[0-9]{8}")
_TLV_DIGITS = frozenset("0123456789")


def crc16(data: str) -> str:
    """CRC-16/CCITT-FALSE of the UTF-8 bytes of ``data`` as 4 upper-case hex digits."""
    crc = 0xFFFF
    for byte in data.encode("utf-8"):
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return f"{crc:04X}"


@dataclass(frozen=True)
class BrCode:
    """A checked Pix payload; ``payload`` is the text exactly as it was read (trimmed)."""

    payload: str
    merchant_name: str
    merchant_city: str
    key: str | None = None
    url: str | None = None
    info: str | None = None
    amount: Decimal | None = None
    postal_code: str | None = None
    txid: str | None = None
    recurrence_url: str | None = None
    point_of_initiation: str | None = None

    @property
    def is_dynamic(self) -> bool:
        """The charge details live at ``url`` and must be fetched from the receiver's PSP."""
        return self.url is not None

    @property
    def is_composite(self) -> bool:
        """The code also offers a Pix Automático recurrence (field 80)."""
        return self.recurrence_url is not None

    @property
    def is_recurrence_only(self) -> bool:
        """Pix Automático "jornada 2" code: it only authorises a recurrence, pays nothing now."""
        return self.key is None and self.url is None and self.recurrence_url is not None

    @property
    def is_single_use(self) -> bool:
        return self.point_of_initiation == "12"


# --------------------------------------------------------------------------------------------
# Reading


def _split_tlv(text: str) -> list[tuple[str, str]]:
    fields: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        header = text[pos : pos + 4]
        if len(header) < 4 or not set(header) <= _TLV_DIGITS:
            raise BrCodeError("brcode.damaged", position=pos + 1)
        length = int(header[2:])
        value = text[pos + 4 : pos + 4 + length]
        if len(value) != length:
            raise BrCodeError(
                "brcode.incomplete", field_id=header[:2], length=length, remaining=len(value)
            )
        fields.append((header[:2], value))
        pos += 4 + length
    return fields


def _as_dict(fields: list[tuple[str, str]]) -> dict[str, str]:
    result: dict[str, str] = {}
    for field_id, value in fields:
        if field_id in result:
            raise BrCodeError("brcode.field_twice", field_id=field_id)
        result[field_id] = value
    return result


def _parse_amount(text: str) -> Decimal:
    if not _AMOUNT_RE.fullmatch(text):
        raise BrCodeError("brcode.amount_form", text=text)
    if len(text) > _MAX_AMOUNT_CHARS:
        raise BrCodeError("brcode.amount_length", length=len(text), maximum=_MAX_AMOUNT_CHARS)
    return Decimal(text).quantize(_CENT)


def _find_pix_account(top: dict[str, str]) -> dict[str, str]:
    found: dict[str, str] | None = None
    for number in range(26, 52):
        raw = top.get(f"{number:02d}")
        if raw is None:
            continue
        sub = _as_dict(_split_tlv(raw))
        if sub.get("00", "").lower() != PIX_GUI:
            continue
        if found is not None:
            raise BrCodeError("brcode.two_accounts")
        found = sub
    if found is None:
        raise BrCodeError("brcode.no_pix_account")
    return found


def _recurrence_url(top: dict[str, str]) -> str | None:
    raw = top.get("80")
    if raw is None:
        return None
    sub = _as_dict(_split_tlv(raw))
    # Field 80 is a generic unreserved template: other arrangements may use it (BR Code manual).
    if sub.get("00", "").lower() != PIX_GUI:
        return None
    url = sub.get("25")
    if not url:
        raise BrCodeError("brcode.recurrence_without_url")
    return url


def parse(payload: str) -> BrCode:
    """Read and fully check a Pix "copia e cola" payload; raise :class:`BrCodeError` if bad."""
    if not isinstance(payload, str):
        raise TypeError(f"payload must be str, not {type(payload).__name__}")
    text = payload.strip()
    if not text:
        raise BrCodeError("brcode.empty")
    if len(text) > _MAX_PAYLOAD:
        raise BrCodeError("brcode.too_long", length=len(text), maximum=_MAX_PAYLOAD)
    if not text.isprintable():
        raise BrCodeError("brcode.control_characters")

    fields = _split_tlv(text)
    if fields[0] != ("00", "01"):
        raise BrCodeError("brcode.format_indicator")
    last_id, last_value = fields[-1]
    if last_id != "63" or len(last_value) != 4:
        raise BrCodeError("brcode.crc_missing")
    expected = crc16(text[:-4])
    if last_value.upper() != expected:
        raise BrCodeError("brcode.crc_mismatch")
    top = _as_dict(fields)

    point = top.get("01")
    if point is not None and point not in ("11", "12"):
        raise BrCodeError("brcode.point_of_initiation", point=point)

    account = _find_pix_account(top)
    recurrence_url = _recurrence_url(top)
    key = account.get("01") or None
    url = account.get("25") or None
    if key is not None and url is not None:
        raise BrCodeError("brcode.key_and_url")
    if key is None and url is None and recurrence_url is None:
        raise BrCodeError("brcode.no_key_nor_url")

    currency = top.get("53")
    if currency != "986":
        raise BrCodeError("brcode.currency", found=currency or "-")
    country = top.get("58")
    if country != "BR":
        raise BrCodeError("brcode.country", found=country or "-")
    name = top.get("59")
    if not name:
        raise BrCodeError("brcode.no_merchant_name")
    city = top.get("60")
    if not city:
        raise BrCodeError("brcode.no_merchant_city")

    raw_amount = top.get("54")
    amount = _parse_amount(raw_amount) if raw_amount is not None else None
    if amount is not None and amount <= 0:
        # "0.00" asks nothing: the code is read as having no amount, and the person types one
        # (with the same greater-than-zero check as any typed amount).
        amount = None

    txid: str | None = None
    additional = top.get("62")
    if additional is not None:
        sub = _as_dict(_split_tlv(additional))
        raw_txid = sub.get("05")
        txid = raw_txid if raw_txid and raw_txid != _NO_TXID else None

    return BrCode(
        payload=text,
        merchant_name=name,
        merchant_city=city,
        key=key,
        url=url,
        info=account.get("02") or None,
        amount=amount,
        postal_code=top.get("61") or None,
        txid=txid,
        recurrence_url=recurrence_url,
        point_of_initiation=point,
    )


# --------------------------------------------------------------------------------------------
# Building


def fit_text(text: str, limit: int) -> str:
    """``text`` without accents, squeezed spaces and cut to ``limit`` characters.

    :func:`build` refuses over-long names and cities; callers who prefer to shorten them (as
    banks do on their own QR codes) pass the result of this function instead.
    """
    return _ascii(" ".join(text.split()), None)[:limit].rstrip()


def _ascii(text: str, what: str | None) -> str:
    # Payment apps commonly mis-render or reject non-ASCII in names; banks drop the accents.
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    if not (plain.isascii() and plain.isprintable()):
        raise BrCodeError("brcode.characters", field=what)
    return plain


def _tlv(field_id: str, value: str, what: str | None) -> str:
    if len(value) > 99:
        raise BrCodeError("brcode.value_too_long", field=what, length=len(value), maximum=99)
    return f"{field_id}{len(value):02d}{value}"


def _plain_value(value: str, what: str) -> str:
    if not value or not (value.isascii() and value.isprintable()):
        raise BrCodeError("brcode.plain_text", field=what)
    return value


def _location(value: str, what: str) -> str:
    # The manual requires the location without scheme; the reader adds https:// itself.
    stripped = value.strip()
    if stripped[:8].lower() == "https://":
        stripped = stripped[8:]
    if "://" in stripped or " " in stripped:
        raise BrCodeError("brcode.https_address", field=what)
    return _plain_value(stripped, what)


def _format_amount(amount: Decimal) -> str:
    if not isinstance(amount, Decimal):
        raise TypeError(f"amount must be Decimal, not {type(amount).__name__}")
    if not amount.is_finite() or amount <= 0:
        raise BrCodeError("brcode.amount_not_positive", field="amount")
    if amount >= Decimal("1e10") or amount != amount.quantize(_CENT):
        raise BrCodeError("brcode.amount_unusable", field="amount", maximum=_MAX_AMOUNT_CHARS)
    return f"{amount.quantize(_CENT):f}"


def build(
    *,
    merchant_name: str,
    merchant_city: str,
    key: str | None = None,
    url: str | None = None,
    amount: Decimal | None = None,
    txid: str | None = None,
    info: str | None = None,
    postal_code: str | None = None,
    recurrence_url: str | None = None,
    single_use: bool = False,
) -> str:
    """A Pix "copia e cola" payload: static (``key``), dynamic (``url``) or recurrence-only.

    Accents are removed from name, city and info; values over the manual's limits are refused
    rather than cut (use :func:`fit_text` to shorten names deliberately).
    """
    if (key is None) == (url is None) and not (key is None and recurrence_url is not None):
        raise BrCodeError("brcode.build_key_or_url")
    name = _ascii(" ".join(merchant_name.split()), "merchant_name")
    city = _ascii(" ".join(merchant_city.split()), "merchant_city")
    if not name:
        raise BrCodeError("brcode.merchant_name_empty", field="merchant_name")
    if not city:
        raise BrCodeError("brcode.merchant_city_empty", field="merchant_city")
    if len(name) > _MAX_NAME:
        raise BrCodeError(
            "brcode.merchant_name_length",
            field="merchant_name",
            length=len(name),
            maximum=_MAX_NAME,
        )
    if len(city) > _MAX_CITY:
        raise BrCodeError(
            "brcode.merchant_city_length",
            field="merchant_city",
            length=len(city),
            maximum=_MAX_CITY,
        )

    account = _tlv("00", PIX_GUI, None)
    if key is not None:
        account += _tlv("01", _plain_value(key.strip(), "key"), "key")
    if info is not None and info.strip():
        account += _tlv("02", _ascii(" ".join(info.split()), "info"), "info")
    if url is not None:
        account += _tlv("25", _location(url, "url"), "url")
    if len(account) > 99:
        raise BrCodeError(
            "brcode.account_too_long",
            field="info" if info is not None and info.strip() else "key",
            length=len(account),
            maximum=99,
        )

    if txid is None or txid == _NO_TXID:
        txid_value = _NO_TXID
    elif not _TXID_RE.fullmatch(txid) or len(txid) > _MAX_TXID:
        raise BrCodeError("brcode.txid_form", field="txid", maximum=_MAX_TXID)
    else:
        txid_value = txid

    parts = ["000201"]
    if single_use or url is not None:
        parts.append("010212")
    parts.append(_tlv("26", account, None))
    parts.append("52040000")
    parts.append("5303986")
    if amount is not None:
        parts.append(_tlv("54", _format_amount(amount), "amount"))
    parts.append("5802BR")
    parts.append(_tlv("59", name, "merchant_name"))
    parts.append(_tlv("60", city, "merchant_city"))
    if postal_code is not None:
        cep = postal_code.strip().replace("-", "").replace(".", "")
        if not _POSTAL_RE.fullmatch(cep):
            raise BrCodeError("brcode.postal_code", field="postal_code")
        parts.append(_tlv("61", cep, "postal_code"))
    parts.append(_tlv("62", _tlv("05", txid_value, "txid"), None))
    if recurrence_url is not None:
        recurrence = _tlv("00", PIX_GUI, None) + _tlv(
            "25", _location(recurrence_url, "recurrence_url"), "recurrence_url"
        )
        parts.append(_tlv("80", recurrence, None))
    body = "".join(parts) + "6304"
    if len(body) + 4 > _MAX_PAYLOAD:
        raise BrCodeError("brcode.build_too_long", maximum=_MAX_PAYLOAD)
    return body + crc16(body)
