"""Building blocks of the wire models of both APIs (pydantic v2).

Conventions every model in ``api/qrcodes/models.py`` and ``api/accounts/models.py`` follows:

* Python attributes are snake_case; the JSON names are the spec's own (``pixCopiaECola``,
  ``dataDeVencimento``, ``endToEndId``) through the camelCase alias generator or an explicit
  alias. Both names are accepted on input; :meth:`ApiModel.to_wire` writes the JSON names.
* Unknown fields sent by the bank are kept (``extra="allow"``): the bank may add fields.
* Money is :class:`~decimal.Decimal`. :data:`QrMoney` is the QR Codes API's decimal string
  (``"1234.56"``); :data:`AccountsMoney` is the Accounts API's JSON number, written from the
  Decimal's digits by :func:`treasury_app.domain.money.dumps_json` (never through ``float``).
* Timestamps are timezone-aware and converted to UTC (:data:`UtcDatetime`); dates are
  ``date`` (:data:`ApiDate`), both written as RFC 3339 text.
* Statuses are enums, but a status string the enum does not know is kept as a plain ``str``
  (:func:`open_enum`): a bank adding a state must not break the app.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from decimal import Decimal
from enum import Enum
from typing import Annotated, Any, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    ValidationError,
)
from pydantic.alias_generators import to_camel

from treasury_app.api.errors import ResponseFormatError
from treasury_app.domain.errors import MoneyError
from treasury_app.domain.money import parse_json_amount, to_api_string

E = TypeVar("E", bound=Enum)


class ApiModel(BaseModel):
    """Base of every request and response model of both APIs."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        validate_by_name=True,
        validate_by_alias=True,
        serialize_by_alias=True,
        extra="allow",
        frozen=False,
        # A model's validator is built when the model is first used, not at import: a session
        # that only shows the statement never builds the hundred-odd others (~30 ms at start).
        defer_build=True,
    )

    def to_wire(self) -> dict[str, Any]:
        """The JSON object to send: spec names, ``None`` fields left out, ``Decimal`` kept
        (serialise with :func:`treasury_app.domain.money.dumps_json`)."""
        return self.model_dump(mode="python", by_alias=True, exclude_none=True)

    @classmethod
    def from_wire(cls, data: Any) -> Any:
        """Validate a JSON value read with :func:`treasury_app.domain.money.loads_json`."""
        return cls.model_validate(data)


def _read_qr_money(value: Any) -> Decimal:
    if isinstance(value, bool):
        raise ValueError('an amount must be a decimal string such as "123.45"')
    if isinstance(value, Decimal | int | str):
        try:
            amount = parse_json_amount(value.strip() if isinstance(value, str) else value)
            to_api_string(amount)  # non-negative, two places, within the API's 10 digits
        except MoneyError as error:
            raise ValueError(str(error)) from None
        return amount
    raise ValueError('an amount must be a decimal string such as "123.45"')


def _read_accounts_money(value: Any) -> Decimal:
    try:
        return parse_json_amount(value)
    except MoneyError as error:
        raise ValueError(str(error)) from None


def _write_accounts_money(value: Decimal) -> Decimal:
    # Two places, exact: 10 -> 10.00. dumps_json writes a Decimal as its digits.
    return value.quantize(Decimal("0.01"))


QrMoney = Annotated[
    Decimal,
    BeforeValidator(_read_qr_money),
    PlainSerializer(to_api_string, return_type=str),
]
"""QR Codes API money: decimal string with two places on the wire, ``Decimal`` in Python."""

AccountsMoney = Annotated[
    Decimal,
    BeforeValidator(_read_accounts_money),
    PlainSerializer(_write_accounts_money, return_type=Decimal),
]
"""Accounts API money: a JSON number on the wire (exact digits), ``Decimal`` in Python."""


def _to_utc(value: datetime) -> datetime:
    if value.tzinfo is None:  # the spec's timestamps are UTC; a bank omitting the "Z" means it
        return value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def _write_utc(value: datetime) -> str:
    text = value.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.replace("+00:00", "Z")


UtcDatetime = Annotated[
    datetime,
    AfterValidator(_to_utc),
    PlainSerializer(_write_utc, return_type=str),
]
"""A timestamp (UTC when it carries no zone), held in UTC, written ``2026-11-18T13:00:00.000Z``."""

ApiDate = Annotated[date, PlainSerializer(date.isoformat, return_type=str)]
"""A calendar date written ``YYYY-MM-DD``."""


def open_enum(enum_type: type[E]) -> Any:
    """``enum_type | str``: known values become members, unknown strings are kept as is."""
    return Annotated[enum_type | str, Field(union_mode="left_to_right")]


M = TypeVar("M", bound=BaseModel)


def parse_model(model: type[M], data: Any) -> M:
    """Validate a bank answer; a body that does not fit raises ``ResponseFormatError``
    naming the first fields at fault (never the values, which may be personal data)."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        places = ", ".join(
            ".".join(str(part) for part in item["loc"]) or "(body)" for item in error.errors()[:5]
        )
        raise ResponseFormatError(
            f"The bank's answer does not have the expected {model.__name__} shape ({places})."
        ) from None
