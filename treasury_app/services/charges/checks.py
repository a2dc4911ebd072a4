"""Checks of what a person or a file gives the Cash In use cases, before anything is sent.

Each checker returns the value as the bank wants it or raises :class:`ChargeInputError`, a
``ValueError`` naming the field at fault: nothing reached the bank. Shared by every module of
this package and by the recurrences service.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from decimal import Decimal

from treasury_app.api.qrcodes.cashin_models import Desconto, ModalidadeValor
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain import identifiers
from treasury_app.domain.clock import BRASILIA
from treasury_app.domain.documents import mask_document, normalize_document
from treasury_app.domain.errors import DomainError, RuleError
from treasury_app.domain.identifiers import new_txid
from treasury_app.domain.money import parse_brl, to_api_string
from treasury_app.domain.pixkey import detect_key_type, normalize_key

__all__ = [
    "FIXED_DATE_DISCOUNTS",
    "MAX_DAYS_AFTER_DUE",
    "MAX_DESCRIPTION",
    "MAX_DISCOUNT_DATES",
    "MAX_NAME",
    "PERCENT_MODALITIES",
    "ChargeInputError",
    "Debtor",
    "check_address",
    "check_amount",
    "check_cobv_values",
    "check_days_after_due",
    "check_discount_count",
    "check_discount_date",
    "check_document",
    "check_int",
    "check_key",
    "check_location_id",
    "check_modality",
    "check_page_size",
    "check_text",
    "check_txid",
    "check_value",
    "document_filter",
    "masked_debtor",
    "time_range",
    "txid_or_new",
]

MAX_NAME = 200
MAX_DESCRIPTION = 140
MAX_DAYS_AFTER_DUE = 36500
_HUNDRED = Decimal(100)

_UF_RE = re.compile(r"[A-Za-z]{2}")
_CEP_RE = re.compile(r"[0-9]{8}")
_CEP_MASK_RE = re.compile(r"[\s.-]")


class ChargeInputError(RuleError):
    """An input was refused before anything was sent to the bank: a rule's code and
    parameters, and ``field``, the input at fault (the bank's own field name where there is
    one, such as ``valor.original`` or ``devedor.cpf``)."""


def _refused(error: DomainError, field: str) -> ChargeInputError:
    """The domain's refusal of ``field``, as a charge input's."""
    return ChargeInputError(error.code, field=field, **error.params)


def check_amount(value: Decimal | str, field: str) -> Decimal:
    """An amount greater than zero with at most 2 decimal places that fits the QR Codes API,
    returned with exactly 2 places. A ``str`` is read as a person types it (``1.234,56``).
    Raises :class:`ChargeInputError` for anything else (``float`` included)."""
    if isinstance(value, str):
        try:
            amount = parse_brl(value)
        except DomainError as error:
            raise _refused(error, field) from None
    elif isinstance(value, Decimal):
        amount = value
    else:
        raise ChargeInputError("charge.amount_type", field=field, given=type(value).__name__)
    try:
        to_api_string(amount)
    except DomainError as error:
        raise _refused(error, field) from None
    if amount <= 0:
        raise ChargeInputError("charge.amount_not_positive", field=field)
    return amount.quantize(Decimal("0.01"))


PERCENT_MODALITIES: dict[str, frozenset[int]] = {
    "multa": frozenset({2}),
    "juros": frozenset({2, 3, 4, 6, 7, 8}),
    "abatimento": frozenset({2}),
    "desconto": frozenset({2, 5, 6}),
}
"""BCB's ``modalidade`` values whose ``valorPerc`` is a percentage, for fine (``multa``),
interest (``juros``), rebate (``abatimento``) and discount (``desconto``); the others are
amounts in reais."""
FIXED_DATE_DISCOUNTS = frozenset({1, 2})
"""Discount modalidades given as up to 3 fixed dates (``descontoDataFixa``)."""
MAX_DISCOUNT_DATES = 3


def check_value(value: Decimal | str | None, field: str) -> Decimal:
    """A fine's, interest's, rebate's or discount's ``valorPerc``: given, a decimal with at
    most 2 places, greater than zero. A ``str`` is read as a person types it."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise ChargeInputError("charge.value_missing", field=field)
    if isinstance(value, str):
        try:
            value = parse_brl(value)
        except DomainError as error:
            raise _refused(error, field) from None
    if not isinstance(value, Decimal):
        raise ChargeInputError("charge.amount_type", field=field, given=type(value).__name__)
    if value <= 0:
        raise ChargeInputError("charge.value_not_positive", field=field)
    return value


def check_modality(
    kind: str, modalidade: int, value: Decimal, amount: Decimal | None, field: str
) -> Decimal:
    """``value`` for ``kind`` (``multa``, ``juros``, ``abatimento``, ``desconto``) under
    ``modalidade``: a percentage at most 100 % (under it for what lowers the amount); a fixed
    rebate or discount under the charge's ``amount``. Interest rates are not capped (BCB does
    not cap them)."""
    lowers = kind in ("abatimento", "desconto")
    if modalidade in PERCENT_MODALITIES[kind]:
        if kind != "juros" and (value > _HUNDRED or (lowers and value >= _HUNDRED)):
            raise ChargeInputError("charge.percent_limit", field=field)
    elif lowers and amount is not None and value >= amount:
        raise ChargeInputError("charge.value_not_below_amount", field=field)
    return value


def check_discount_date(day: date, due: date, earlier: Iterable[date], field: str) -> date:
    """A fixed-date discount's date: not after the due date, not the date of another."""
    if day > due:
        raise ChargeInputError("charge.discount_after_due", field=field)
    if day in set(earlier):
        raise ChargeInputError("charge.discount_date_repeated", field=field)
    return day


def check_discount_count(count: int) -> int:
    """How many fixed-date discounts a charge gives: 1 to :data:`MAX_DISCOUNT_DATES`."""
    if count < 1:
        raise ChargeInputError("charge.discount_missing", field="valor.desconto.descontoDataFixa.0")
    if count > MAX_DISCOUNT_DATES:
        raise ChargeInputError(
            "charge.too_many_discounts", field="valor.desconto", max=MAX_DISCOUNT_DATES
        )
    return count


def check_cobv_values(
    amount: Decimal,
    due: date,
    *,
    fine: ModalidadeValor | None = None,
    interest: ModalidadeValor | None = None,
    rebate: ModalidadeValor | None = None,
    discount: Desconto | None = None,
) -> None:
    """A charge with a due date's fine, interest, rebate and discount, checked against its
    amount and due date (:func:`check_value`, :func:`check_modality`,
    :func:`check_discount_date`); raises the first broken rule."""
    for kind, item in (("multa", fine), ("juros", interest), ("abatimento", rebate)):
        if item is not None:
            where = f"valor.{kind}.valorPerc"
            check_modality(
                kind, item.modalidade, check_value(item.valor_perc, where), amount, where
            )
    if discount is None:
        return
    if discount.modalidade not in FIXED_DATE_DISCOUNTS:
        where = "valor.desconto.valorPerc"
        value = check_value(discount.valor_perc, where)
        check_modality("desconto", discount.modalidade, value, amount, where)
        return
    items = discount.desconto_data_fixa or []
    check_discount_count(len(items))
    seen: list[date] = []
    for index, fixed in enumerate(items):
        where = f"valor.desconto.descontoDataFixa.{index}"
        value = check_value(fixed.valor_perc, f"{where}.valorPerc")
        check_modality("desconto", discount.modalidade, value, amount, f"{where}.valorPerc")
        seen.append(check_discount_date(fixed.data, due, seen, f"{where}.data"))


def check_document(value: str, field: str) -> str:
    """The bare form of a valid CPF (11 digits) or CNPJ (14 characters)."""
    if not isinstance(value, str):
        raise ChargeInputError("charge.document_missing", field=field)
    try:
        return normalize_document(value)
    except DomainError as error:
        raise _refused(error, field) from None


def check_text(
    value: str | None, field: str, *, max_len: int, required: bool = False
) -> str | None:
    """``value`` trimmed; ``None`` when absent and optional. Refuses empty required text and
    text longer than ``max_len``."""
    if value is None:
        if required:
            raise ChargeInputError("charge.required", field=field)
        return None
    if not isinstance(value, str):
        raise ChargeInputError("charge.not_text", field=field)
    text = value.strip()
    if not text:
        if required:
            raise ChargeInputError("charge.required", field=field)
        return None
    if len(text) > max_len:
        raise ChargeInputError("charge.too_long", field=field, max=max_len, length=len(text))
    return text


def check_key(value: str, field: str = "chave") -> str:
    """A Pix key in its canonical form (format only: whether it is one of the account's keys
    is for the bank to say)."""
    if not isinstance(value, str):
        raise ChargeInputError("charge.key_missing", field=field)
    try:
        return normalize_key(value, detect_key_type(value))
    except DomainError as error:
        raise _refused(error, field) from None


def txid_or_new(value: str | None, field: str = "txid") -> str:
    """The txid of a charge about to be created: ``value`` checked, or a new one."""
    if value is None:
        return new_txid()
    return check_txid(value, field)


def check_txid(value: str, field: str = "txid") -> str:
    """A txid of ours (a charge to create, or one created), checked by the domain's rule
    (:func:`~treasury_app.domain.identifiers.check_txid`: ``txid.length``,
    ``txid.characters``), on ``field``."""
    if not isinstance(value, str):
        raise ChargeInputError("charge.txid_format", field=field)
    try:
        return identifiers.check_txid(value)
    except DomainError as error:
        raise _refused(error, field) from None


def check_location_id(value: int | str, field: str = "loc.id") -> int:
    """The id of an existing payload location, typed or a number, checked by the domain's
    rule (:func:`~treasury_app.domain.identifiers.check_location_id`), on ``field``."""
    try:
        return identifiers.check_location_id(value)
    except DomainError as error:
        raise _refused(error, field) from None


def check_int(value: int, field: str, *, minimum: int, maximum: int) -> int:
    """A whole number (not a ``bool``) from ``minimum`` to ``maximum``."""
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ChargeInputError("charge.whole_number", field=field, min=minimum, max=maximum)
    return value


def check_days_after_due(value: int | None) -> int | None:
    """How many days a charge with a due date may still be paid after it (``None``: the
    bank's rule)."""
    if value is None:
        return None
    return check_int(
        value, "calendario.validadeAposVencimento", minimum=0, maximum=MAX_DAYS_AFTER_DUE
    )


def check_page_size(value: int | None) -> int | None:
    """The page size of a list (``None``: the bank's default)."""
    if value is None:
        return None
    return check_int(value, "paginacao.itensPorPagina", minimum=1, maximum=1000)


def _as_utc(value: date | datetime, *, end: bool) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ChargeInputError("charge.time_without_zone", field="fim" if end else "inicio")
        return value.astimezone(UTC)
    moment = datetime.combine(value, time.max if end else time.min, tzinfo=BRASILIA)
    return moment.astimezone(UTC)


def time_range(start: date | datetime, end: date | datetime) -> tuple[datetime, datetime]:
    """The UTC instants of a list range: a ``date`` is a whole day in Brasília (``start`` from
    00:00, ``end`` until 23:59:59.999999); a ``datetime`` needs its time zone."""
    begin, finish = _as_utc(start, end=False), _as_utc(end, end=True)
    if finish < begin:
        raise ChargeInputError("charge.range_reversed", field="fim")
    return begin, finish


def document_filter(document: str | None, field: str = "cpf_cnpj") -> dict[str, str | None]:
    """The ``cpf``/``cnpj`` filter of a list, by the document's length (both ``None``: all)."""
    if document is None:
        return {"cpf": None, "cnpj": None}
    bare = check_document(document, field)
    return {"cpf": bare, "cnpj": None} if len(bare) == 11 else {"cpf": None, "cnpj": bare}


@dataclass(frozen=True)
class Debtor:
    """Who pays a charge: a CPF or CNPJ and a name; cobv may add an address."""

    document: str
    name: str
    email: str | None = None
    street: str | None = None
    city: str | None = None
    state: str | None = None
    postal_code: str | None = None

    def to_devedor(self, field: str = "devedor", *, address: bool = False) -> Devedor:
        """The checked wire ``devedor`` (``cpf`` or ``cnpj`` by the document's length).
        Raises :class:`ChargeInputError`; an address is refused unless ``address``."""
        bare = check_document(self.document, f"{field}.cpf_cnpj")
        nome = check_text(self.name, f"{field}.nome", max_len=MAX_NAME, required=True)
        devedor = Devedor(nome=nome, **({"cpf": bare} if len(bare) == 11 else {"cnpj": bare}))
        extras = (self.email, self.street, self.city, self.state, self.postal_code)
        if not address:
            if any(value is not None for value in extras):
                raise ChargeInputError("charge.address_not_allowed", field=field)
            return devedor
        for name, value in check_address(
            email=self.email,
            street=self.street,
            city=self.city,
            state=self.state,
            postal_code=self.postal_code,
            field=field,
        ).items():
            setattr(devedor, name, value)
        return devedor


def check_address(
    *,
    email: str | None,
    street: str | None,
    city: str | None,
    state: str | None,
    postal_code: str | None,
    field: str = "devedor",
) -> dict[str, str | None]:
    """A debtor's address as the wire names it (``email``, ``logradouro``, ``cidade``, ``uf``,
    ``cep``), checked: an e-mail has an ``@``, a state 2 letters, a CEP 8 digits."""
    checked_email = check_text(email, f"{field}.email", max_len=140)
    if checked_email is not None and "@" not in checked_email:
        raise ChargeInputError("charge.email_format", field=f"{field}.email")
    uf = check_text(state, f"{field}.uf", max_len=2)
    if uf is not None and not _UF_RE.fullmatch(uf):
        raise ChargeInputError("charge.state_format", field=f"{field}.uf")
    cep = check_text(postal_code, f"{field}.cep", max_len=10)
    if cep is not None:
        cep = _CEP_MASK_RE.sub("", cep)
        if not _CEP_RE.fullmatch(cep):
            raise ChargeInputError("charge.cep_format", field=f"{field}.cep")
    return {
        "email": checked_email,
        "logradouro": check_text(street, f"{field}.logradouro", max_len=200),
        "cidade": check_text(city, f"{field}.cidade", max_len=200),
        "uf": uf.upper() if uf else None,
        "cep": cep,
    }


def masked_debtor(devedor: Devedor | None) -> str | None:
    """The debtor's document as review screens show it (a CPF half hidden), for the audit."""
    if devedor is None:
        return None
    document = devedor.cpf or devedor.cnpj
    return mask_document(document) if document else None
