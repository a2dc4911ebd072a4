"""Input checks shared by the Pix Automático use cases: the error they raise
(:class:`RecurrenceInputError`) and the identifiers, dates, enums and list filters every
resource (``rec``, ``solicrec``, ``cobr``, ``locrec``) takes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date, datetime
from typing import Any

from treasury_app.domain.errors import DomainError
from treasury_app.domain.identifiers import is_valid_txid, parse_idrec
from treasury_app.services.charges import ChargeInputError, check_document, check_text

__all__ = [
    "RecurrenceInputError",
    "check_branch",
    "check_day",
    "check_enum",
    "check_idrec",
    "check_location_id",
    "check_page_size",
    "check_txid",
    "document_filter",
    "recurrence_input",
]

_BRANCH_RE = re.compile(r"[0-9]{1,4}")


class RecurrenceInputError(ChargeInputError):
    """A recurrence input or a Pix Automático rule refused before the request was sent."""


@contextmanager
def recurrence_input() -> Iterator[None]:
    """Raise what the charge checks refuse (:class:`ChargeInputError`) as a
    :class:`RecurrenceInputError` naming the same field."""
    try:
        yield
    except RecurrenceInputError:
        raise
    except ChargeInputError as error:
        raise RecurrenceInputError(error.code, field=error.field, **error.params) from None


def check_enum(enum_type: type[Any], value: Any, field: str) -> Any:
    """``value`` as a member of ``enum_type``; the error lists the members."""
    try:
        return enum_type(value)
    except ValueError:
        known = ", ".join(member.value for member in enum_type)
        raise RecurrenceInputError("recurrence.not_one_of", field=field, known=known) from None


def check_idrec(value: str) -> str:
    """A well-formed ``idRec``."""
    try:
        return parse_idrec(value).value
    except DomainError as error:
        raise RecurrenceInputError(error.code, field="idRec", **error.params) from None
    except TypeError:
        raise RecurrenceInputError("recurrence.idrec_format", field="idRec") from None


def check_txid(value: str, field: str = "txid") -> str:
    """A client-chosen txid (26 to 35 letters or digits)."""
    if not isinstance(value, str) or not is_valid_txid(value):
        raise RecurrenceInputError("charge.txid_format", field=field)
    return value


def check_day(value: date, field: str) -> date:
    """A calendar date (a ``datetime`` is refused: the bank's dates are whole days)."""
    if isinstance(value, datetime) or not isinstance(value, date):
        raise RecurrenceInputError("recurrence.calendar_date", field=field)
    return value


def check_location_id(value: int) -> int:
    """A recurrence location's id (``loc``): a positive whole number."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise RecurrenceInputError("recurrence.location_id", field="loc")
    return value


def check_branch(value: str | None, field: str) -> str | None:
    """An optional bank branch (``agencia``): up to 4 digits."""
    with recurrence_input():
        branch = check_text(value, field, max_len=4)
    if branch is not None and not _BRANCH_RE.fullmatch(branch):
        raise RecurrenceInputError("recurrence.branch_format", field=field)
    return branch


def check_page_size(value: int | None) -> int | None:
    """The optional page size of a list (``paginacao.itensPorPagina``)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
        raise RecurrenceInputError(
            "charge.whole_number", field="paginacao.itensPorPagina", min=1, max=1000
        )
    return value


def document_filter(document: str | None) -> tuple[str | None, str | None]:
    """The ``(cpf, cnpj)`` filters of a list by one debtor's document (both ``None``: any).
    Raises :class:`ChargeInputError`."""
    if document is None:
        return None, None
    bare = check_document(document, "cpf_cnpj")
    return (bare, None) if len(bare) == 11 else (None, bare)
