"""Cash In use cases: issue and follow Pix charges (``cob``, ``cobv``, batches of ``cobv``),
the Pix they receive, refunds, payload locations and the QR Code a payer scans.

Every creation goes out as ``PUT`` with an identifier generated here (a ``txid`` per charge, an
id per refund and per batch), so that repeating a request can never make a second charge.
Inputs are checked with the domain layer before anything is sent: a :class:`ChargeInputError`
(a ``ValueError`` naming the field at fault) means nothing reached the bank. What the bank
refuses comes back as the API layer's typed errors (:class:`~treasury_app.api.errors.ApiError`
and its subclasses, with the bank's ``violacoes``). Whether the Pix key is one of the account's
keys is not checked here (only its format): the bank knows its keys.

Every creation, revision, cancellation, refund and batch is written to the audit
(``charge.create``, ``charge.revise``, ``charge.cancel``, ``refund.request``,
``location.create``, ``location.unlink``, ``batch.create``, ``batch.revise``) with what the bank
answered: its status on success, ``rejected`` when it refused, ``unknown`` when the answer was
lost (the request may have gone through), ``failed`` when it certainly was not sent. An input
refused here is not audited: nothing was sent.

Batch CSV files (:func:`parse_batch_csv`)
-----------------------------------------
One charge with a due date (``cobv``) per row, in these columns::

    nome;cpf_cnpj;valor;vencimento;descricao

* ``nome`` — the debtor's name (required, at most 200 characters).
* ``cpf_cnpj`` — the debtor's CPF or CNPJ, with or without its mask; check digits are checked.
* ``valor`` — the amount in reais, greater than zero: ``1.234,56``, ``1234,56`` or ``1234.56``
  (with ``,`` as separator, an amount with a comma must be quoted: ``"1.234,56"``).
* ``vencimento`` — the due date, ``DD/MM/YYYY`` or ``YYYY-MM-DD``.
* ``descricao`` — optional text shown to the payer (at most 140 characters).

The separator is ``;`` when the first line has one, else a tab when it has one, else ``,``.
A first line naming the columns (``nome;cpf_cnpj;valor;vencimento[;descricao]``, in any order;
``documento``, ``cpf``, ``cnpj`` and ``cpf/cnpj`` also name the document column) is a header;
without one the columns are read in the order above. Blank lines are skipped; a UTF-8 byte
order mark is ignored. Every row is read before anything is reported: the result lists every
bad row with its line number (1-based, as a text editor counts) and its column.
"""

from __future__ import annotations

import asyncio
import io
import re
import secrets
import unicodedata
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time
from decimal import Decimal
from typing import Any, Literal, TypeVar

import segno

from treasury_app.api.errors import ApiError, ApiFailure, ServerError, TransportFailure
from treasury_app.api.qrcodes.cashin_models import (
    CalendarioCob,
    CalendarioCobV,
    CobCompleta,
    CobGerada,
    CobRevisada,
    CobSolicitada,
    CobStatus,
    CobValor,
    CobValorRevisado,
    CobVCompleta,
    CobVGerada,
    CobVRevisada,
    CobVRevisadaLote,
    CobVSolicitada,
    CobVSolicitadaLote,
    CobVValor,
    CobVValorRevisado,
    Desconto,
    Devolucao,
    DevolucaoSolicitada,
    InfoAdicional,
    LoteCobVConsultado,
    LoteCobVRevisado,
    LoteCobVSolicitado,
    ModalidadeValor,
    PayloadLocation,
    PayloadLocationCob,
    PayloadLocationCompleta,
    PayloadLocationSolicitada,
    Pix,
    Problema,
    TipoCob,
)
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain import brcode
from treasury_app.domain.clock import BRASILIA, Clock, brasilia_today
from treasury_app.domain.documents import mask_document, normalize_document
from treasury_app.domain.errors import DomainError
from treasury_app.domain.identifiers import is_valid_e2eid, is_valid_txid, new_txid
from treasury_app.domain.money import parse_brl, to_api_string
from treasury_app.domain.pixkey import detect_key_type, normalize_key
from treasury_app.ledger import Ledger
from treasury_app.services.csv_input import CsvLineError, ReadControl, csv_records

__all__ = [
    "BATCH_COLUMNS",
    "DEFAULT_EXPIRATION",
    "MAX_BATCH_MEMBERS",
    "BatchInputError",
    "BatchMemberPlan",
    "BatchMemberStatus",
    "BatchParseResult",
    "BatchPlan",
    "BatchRevision",
    "BatchRow",
    "BatchRowError",
    "BatchStatus",
    "ChargeInputError",
    "ChargeQr",
    "ChargeQrError",
    "ChargesService",
    "Debtor",
    "audited_call",
    "charge_qr",
    "check_address",
    "check_amount",
    "check_document",
    "check_key",
    "check_text",
    "masked_debtor",
    "new_batch_id",
    "parse_batch_csv",
    "problem_text",
    "time_range",
]

T = TypeVar("T")

DEFAULT_EXPIRATION = 86400
"""Lifetime of a cob, in seconds, when none is given (BCB's default: 24 hours)."""

MAX_NAME = 200
MAX_DESCRIPTION = 140
MAX_INFO_NAME = 50
MAX_INFO_VALUE = 200
MAX_BATCH_MEMBERS = 5000
MAX_DAYS_AFTER_DUE = 36500

_REFUND_ID_RE = re.compile(r"[a-zA-Z0-9]{1,35}")
_BATCH_ID_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
_UF_RE = re.compile(r"[A-Za-z]{2}")
_CEP_RE = re.compile(r"[0-9]{8}")
_CEP_MASK_RE = re.compile(r"[\s.-]")
_BR_DATE_RE = re.compile(r"([0-9]{1,2})/([0-9]{1,2})/([0-9]{4})")
_ISO_DATE_RE = re.compile(r"([0-9]{4})-([0-9]{2})-([0-9]{2})")
_SPLIT_UNITS_RE = re.compile(r"[0-9]{1,3}(?:\.[0-9]{3})*")
_SPLIT_CENTS_RE = re.compile(r"[0-9]{1,2}")


# ---------------------------------------------------------------------------------------------
# Errors and input checks (shared with the recurrences service)


class ChargeInputError(ValueError):
    """An input was refused before anything was sent to the bank.

    ``field`` names the input at fault (the bank's own field name where there is one, such as
    ``valor.original`` or ``devedor.cpf``); ``message`` says why, fit to show to a person.
    """

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class ChargeQrError(ValueError):
    """A charge has no usable QR Code payload (no ``pixCopiaECola``, or a malformed one)."""


def check_amount(value: Decimal | str, field: str) -> Decimal:
    """An amount greater than zero with at most 2 decimal places that fits the QR Codes API,
    returned with exactly 2 places. A ``str`` is read as a person types it (``1.234,56``).
    Raises :class:`ChargeInputError` for anything else (``float`` included)."""
    if isinstance(value, str):
        try:
            amount = parse_brl(value)
        except DomainError as error:
            raise ChargeInputError(field, str(error)) from None
    elif isinstance(value, Decimal):
        amount = value
    else:
        raise ChargeInputError(
            field, f"An amount must be a Decimal or text, not {type(value).__name__}."
        )
    try:
        to_api_string(amount)
    except DomainError as error:
        raise ChargeInputError(field, str(error)) from None
    if amount <= 0:
        raise ChargeInputError(field, "The amount must be greater than zero.")
    return amount.quantize(Decimal("0.01"))


def check_document(value: str, field: str) -> str:
    """The bare form of a valid CPF (11 digits) or CNPJ (14 characters)."""
    if not isinstance(value, str):
        raise ChargeInputError(field, "Please enter a CPF or CNPJ.")
    try:
        return normalize_document(value)
    except DomainError as error:
        raise ChargeInputError(field, str(error)) from None


def check_text(
    value: str | None, field: str, *, max_len: int, required: bool = False
) -> str | None:
    """``value`` trimmed; ``None`` when absent and optional. Refuses empty required text and
    text longer than ``max_len``."""
    if value is None:
        if required:
            raise ChargeInputError(field, "This field is required.")
        return None
    if not isinstance(value, str):
        raise ChargeInputError(field, "This field must be text.")
    text = value.strip()
    if not text:
        if required:
            raise ChargeInputError(field, "This field is required.")
        return None
    if len(text) > max_len:
        raise ChargeInputError(field, f"At most {max_len} characters (this has {len(text)}).")
    return text


def check_key(value: str, field: str = "chave") -> str:
    """A Pix key in its canonical form (format only: whether it is one of the account's keys
    is for the bank to say)."""
    if not isinstance(value, str):
        raise ChargeInputError(field, "Please enter a Pix key.")
    try:
        return normalize_key(value, detect_key_type(value))
    except DomainError as error:
        raise ChargeInputError(field, str(error)) from None


def _check_txid(value: str | None) -> str:
    if value is None:
        return new_txid()
    if not is_valid_txid(value):
        raise ChargeInputError("txid", "A txid has 26 to 35 letters or digits.")
    return value


def _check_int(value: int, field: str, *, minimum: int, maximum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not minimum <= value <= maximum:
        raise ChargeInputError(field, f"Must be a whole number from {minimum} to {maximum}.")
    return value


def _as_utc(value: date | datetime, *, end: bool) -> datetime:
    if isinstance(value, datetime):
        if value.tzinfo is None:
            raise ChargeInputError("fim" if end else "inicio", "A time needs its time zone.")
        return value.astimezone(UTC)
    moment = datetime.combine(value, time.max if end else time.min, tzinfo=BRASILIA)
    return moment.astimezone(UTC)


def time_range(start: date | datetime, end: date | datetime) -> tuple[datetime, datetime]:
    """The UTC instants of a list range: a ``date`` is a whole day in Brasília (``start`` from
    00:00, ``end`` until 23:59:59.999999); a ``datetime`` needs its time zone."""
    begin, finish = _as_utc(start, end=False), _as_utc(end, end=True)
    if finish < begin:
        raise ChargeInputError("fim", "The end of the range is before its start.")
    return begin, finish


def _document_filter(document: str | None, field: str = "cpf_cnpj") -> dict[str, str | None]:
    if document is None:
        return {"cpf": None, "cnpj": None}
    bare = check_document(document, field)
    return {"cpf": bare, "cnpj": None} if len(bare) == 11 else {"cpf": None, "cnpj": bare}


def _cob_status(status: CobStatus | str | None) -> CobStatus | None:
    if status is None:
        return None
    try:
        return CobStatus(status)
    except ValueError:
        known = ", ".join(s.value for s in CobStatus)
        raise ChargeInputError("status", f"Unknown status; one of {known}.") from None


def _info(additional_info: Mapping[str, str] | None) -> list[InfoAdicional] | None:
    if not additional_info:
        return None
    if len(additional_info) > 50:
        raise ChargeInputError("infoAdicionais", "At most 50 items.")
    items = []
    for name, value in additional_info.items():
        nome = check_text(name, "infoAdicionais.nome", max_len=MAX_INFO_NAME, required=True)
        valor = check_text(value, "infoAdicionais.valor", max_len=MAX_INFO_VALUE, required=True)
        assert nome is not None and valor is not None
        items.append(InfoAdicional(nome=nome, valor=valor))
    return items


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
                raise ChargeInputError(field, "An immediate charge has no debtor address.")
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
        raise ChargeInputError(f"{field}.email", "This is not an e-mail address.")
    uf = check_text(state, f"{field}.uf", max_len=2)
    if uf is not None and not _UF_RE.fullmatch(uf):
        raise ChargeInputError(f"{field}.uf", "A state (UF) is 2 letters, such as SP.")
    cep = check_text(postal_code, f"{field}.cep", max_len=10)
    if cep is not None:
        cep = _CEP_MASK_RE.sub("", cep)
        if not _CEP_RE.fullmatch(cep):
            raise ChargeInputError(f"{field}.cep", "A CEP has 8 digits.")
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


# ---------------------------------------------------------------------------------------------
# Audit of every write


def _failure(error: BaseException) -> tuple[str, dict[str, Any]]:
    """The audit outcome and details of a call that raised (no secret: bodies are not kept)."""
    if isinstance(error, ApiError):
        outcome = "unknown" if isinstance(error, ServerError) else "rejected"
        return outcome, {
            "http_status": error.status,
            "type": error.type,
            "title": error.title,
            "detail": error.detail,
            "violacoes": [str(v) for v in error.violacoes],
        }
    if isinstance(error, TransportFailure):
        return ("unknown" if error.outcome_unknown else "failed"), {"error": str(error)}
    if isinstance(error, asyncio.CancelledError):
        return "unknown", {"error": "cancelled while waiting for the bank"}
    return "unknown", {"error": str(error)}


async def audited_call(
    ledger: Ledger,
    action: str,
    call: Awaitable[T],
    *,
    reference: str = "",
    amount: Decimal | None = None,
    details: Mapping[str, Any] | None = None,
    outcome: Callable[[T], str] = lambda _answer: "accepted",
    answered: Callable[[T], Mapping[str, Any]] | None = None,
    reference_of: Callable[[T], str] | None = None,
    amount_of: Callable[[T], Decimal | None] | None = None,
) -> T:
    """Await ``call`` (a write to the bank) and record it in the audit either way.

    On success the row's outcome is ``outcome(answer)`` (the bank's status); ``answered`` adds
    details from the answer, ``reference_of`` and ``amount_of`` take the reference and amount
    from it (an id the bank chose, the amount of a charge being cancelled). A failure of the
    call (:class:`ApiFailure`, or the task being cancelled) is recorded as ``rejected``,
    ``unknown`` or ``failed`` and raised again.
    """
    base = dict(details or {})
    try:
        answer = await call
    except (ApiFailure, asyncio.CancelledError) as error:
        result, extra = _failure(error)
        ledger.audit.record(
            action, result, reference=reference, amount=amount, details={**base, **extra}
        )
        raise
    extra = dict(answered(answer)) if answered else {}
    ledger.audit.record(
        action,
        outcome(answer),
        reference=reference_of(answer) if reference_of else reference,
        amount=amount_of(answer) if amount_of else amount,
        details={**base, **extra},
    )
    return answer


def _status_of(answer: Any) -> str:
    status = getattr(answer, "status", None)
    return str(getattr(status, "value", status) or "accepted")


# ---------------------------------------------------------------------------------------------
# QR Code


@dataclass(frozen=True)
class ChargeQr:
    """The QR Code of a charge: the Pix Copia e Cola text and its QR symbol."""

    pix_copia_e_cola: str
    code: brcode.BrCode
    symbol: segno.QRCode

    @property
    def matrix(self) -> tuple[tuple[bool, ...], ...]:
        """The modules of the symbol, row by row (``True`` is dark), without the quiet zone."""
        return tuple(tuple(bool(module) for module in row) for row in self.symbol.matrix)

    def png(self, *, scale: int = 8, border: int = 4) -> bytes:
        """The symbol as PNG bytes: ``scale`` pixels per module, ``border`` modules of quiet
        zone (4 is the minimum the QR standard asks for)."""
        buffer = io.BytesIO()
        self.symbol.save(buffer, kind="png", scale=scale, border=border)
        return buffer.getvalue()


def charge_qr(source: str | CobGerada | CobVGerada) -> ChargeQr:
    """The QR Code of a charge (or of a Pix Copia e Cola text), checked as a BR Code first
    (CRC included). Raises :class:`ChargeQrError` when there is no valid payload."""
    text = source if isinstance(source, str) else source.pix_copia_e_cola
    if not text:
        raise ChargeQrError("The charge has no QR Code payload (pixCopiaECola).")
    try:
        code = brcode.parse(text)
    except DomainError as error:
        raise ChargeQrError(f"The charge's QR Code payload is not valid: {error}") from None
    symbol = segno.make(code.payload, error="m", micro=False)
    return ChargeQr(pix_copia_e_cola=code.payload, code=code, symbol=symbol)


# ---------------------------------------------------------------------------------------------
# Batch CSV


BATCH_COLUMNS = ("nome", "cpf_cnpj", "valor", "vencimento", "descricao")
_REQUIRED_COLUMNS = BATCH_COLUMNS[:4]
_COLUMN_ALIASES = {
    "nome": "nome",
    "cpf_cnpj": "cpf_cnpj",
    "cpfcnpj": "cpf_cnpj",
    "documento": "cpf_cnpj",
    "cpf": "cpf_cnpj",
    "cnpj": "cpf_cnpj",
    "valor": "valor",
    "vencimento": "vencimento",
    "data_de_vencimento": "vencimento",
    "data_vencimento": "vencimento",
    "descricao": "descricao",
}


@dataclass(frozen=True)
class BatchRow:
    """One good row of a batch file: a charge with a due date to create."""

    line: int
    name: str
    document: str
    amount: Decimal
    due_date: date
    description: str | None = None


@dataclass(frozen=True)
class BatchRowError:
    """Why one cell (or one row, when ``column`` is empty) of a batch file was refused.
    ``column_number`` is 1-based (0 when the row as a whole is at fault)."""

    line: int
    column: str
    message: str
    column_number: int = 0

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class BatchParseResult:
    """Every good row and every error of a batch file."""

    rows: tuple[BatchRow, ...]
    errors: tuple[BatchRowError, ...]
    separator: str
    has_header: bool

    @property
    def ok(self) -> bool:
        """Whether the file can be sent: rows and no error."""
        return bool(self.rows) and not self.errors

    @property
    def total(self) -> Decimal:
        """The sum of the good rows' amounts."""
        return sum((row.amount for row in self.rows), Decimal("0.00"))

    @property
    def bad_lines(self) -> tuple[int, ...]:
        """The line numbers with at least one error, in order."""
        return tuple(sorted({error.line for error in self.errors}))


def _column_key(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text.strip().lower())
    ascii_text = "".join(c for c in folded if not unicodedata.combining(c))
    return re.sub(r"[^a-z0-9]+", "_", ascii_text).strip("_")


def _separator(text: str) -> str:
    first = next((line for line in text.splitlines() if line.strip()), "")
    if ";" in first:
        return ";"
    if "\t" in first:
        return "\t"
    return ","


def _parse_due_date(text: str) -> date:
    match = _BR_DATE_RE.fullmatch(text)
    if match:
        day, month, year = (int(part) for part in match.groups())
    else:
        match = _ISO_DATE_RE.fullmatch(text)
        if not match:
            raise ValueError("Write the due date as DD/MM/YYYY or YYYY-MM-DD.")
        year, month, day = (int(part) for part in match.groups())
    try:
        return date(year, month, day)
    except ValueError:
        raise ValueError(f"{text} is not a real date.") from None


def _parse_row(
    line: int,
    cells: Mapping[str, tuple[int, str]],
    today: date | None,
    errors: list[BatchRowError],
) -> BatchRow | None:
    """One row's cells by column name -> a row, or errors (every bad cell, not the first)."""
    found = len(errors)

    def fail(column: str, message: str) -> None:
        errors.append(BatchRowError(line, column, message, cells[column][0]))

    name = cells["nome"][1]
    if not name:
        fail("nome", "The debtor's name is missing.")
    elif len(name) > MAX_NAME:
        fail("nome", f"The name has more than {MAX_NAME} characters.")
    document = ""
    try:
        document = normalize_document(cells["cpf_cnpj"][1])
    except DomainError as error:
        fail("cpf_cnpj", str(error))
    amount = Decimal(0)
    try:
        amount = parse_brl(cells["valor"][1])
        to_api_string(amount)
        if amount <= 0:
            fail("valor", "The amount must be greater than zero.")
    except DomainError as error:
        fail("valor", str(error))
    due = date.min
    raw_due = cells["vencimento"][1]
    if not raw_due:
        fail("vencimento", "The due date is missing.")
    else:
        try:
            due = _parse_due_date(raw_due)
            if today is not None and due < today:
                fail("vencimento", f"The due date {due:%d/%m/%Y} has passed.")
        except ValueError as error:
            fail("vencimento", str(error))
    description = cells["descricao"][1] if "descricao" in cells else ""
    if len(description) > MAX_DESCRIPTION:
        fail("descricao", f"The description has more than {MAX_DESCRIPTION} characters.")
    if len(errors) > found:
        return None
    return BatchRow(line, name, document, amount, due, description or None)


def _read_header(line: int, cells: list[str], errors: list[BatchRowError]) -> dict[str, int] | None:
    """Column name -> index from a header row, or ``None`` (and errors) if unusable."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(cells):
        key = _COLUMN_ALIASES.get(_column_key(cell))
        if key is None:
            if cell.strip():
                message = f"Unknown column {cell.strip()!r}; the columns are " + ";".join(
                    BATCH_COLUMNS
                )
                errors.append(BatchRowError(line, cell.strip(), message, index + 1))
        elif key in columns:
            errors.append(BatchRowError(line, key, "This column appears twice.", index + 1))
        else:
            columns[key] = index
    for name in _REQUIRED_COLUMNS:
        if name not in columns:
            errors.append(BatchRowError(line, name, "The header lacks this column."))
    return None if errors else columns


def _looks_like_header(cells: list[str]) -> bool:
    return sum(1 for cell in cells if _column_key(cell) in _COLUMN_ALIASES) >= 2


def parse_batch_csv(
    text: str, *, today: date | None = None, control: ReadControl | None = None
) -> BatchParseResult:
    """Read a batch file (format in the module's docstring): every row, every error.

    With ``today``, a due date before it is an error. Never raises for bad content: a
    result with errors says what to fix, line by line and column by column (a line that is
    not CSV, or has a control character, is an error of its own and the reading goes on).
    ``control`` reports progress and takes a Cancel
    (:class:`~treasury_app.services.csv_input.ReadCancelled`); any thread may call this.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_batch_csv expects str, not {type(text).__name__}")
    text = text.removeprefix("\ufeff")
    separator = _separator(text)
    rows: list[BatchRow] = []
    errors: list[BatchRowError] = []
    columns: dict[str, int] | None = None
    has_header = False
    data_rows = 0
    first = True
    previous_line = 0
    for record in csv_records(text, separator, control=control):
        previous_line = record.line
        if isinstance(record, CsvLineError):
            errors.append(BatchRowError(record.line, "", record.message))
            continue
        line = record.line
        cells = [cell.strip() for cell in record.cells]
        if not any(cells):
            continue
        if first:
            first = False
            if _looks_like_header(cells):
                has_header = True
                columns = _read_header(line, cells, errors)
                if columns is None:
                    break
                continue
            columns = {name: index for index, name in enumerate(BATCH_COLUMNS)}
        assert columns is not None
        data_rows += 1
        if data_rows > MAX_BATCH_MEMBERS:
            errors.append(
                BatchRowError(line, "", f"A batch has at most {MAX_BATCH_MEMBERS} charges.")
            )
            break
        row = _row_cells(line, cells, columns, separator, errors)
        if row is not None:
            parsed = _parse_row(line, row, today, errors)
            if parsed is not None:
                rows.append(parsed)
    if first and not errors:
        errors.append(BatchRowError(1, "", "The file has no charges."))
    elif not rows and not errors:
        errors.append(BatchRowError(max(previous_line, 1), "", "The file has no charges."))
    return BatchParseResult(tuple(rows), tuple(errors), separator, has_header)


def _row_cells(
    line: int,
    cells: list[str],
    columns: Mapping[str, int],
    separator: str,
    errors: list[BatchRowError],
) -> dict[str, tuple[int, str]] | None:
    """The cells of one row by column name, or ``None`` (and errors) if columns are missing
    or extra."""
    width = max(columns.values()) + 1
    found = len(errors)
    for name in _REQUIRED_COLUMNS:
        index = columns[name]
        if index >= len(cells):
            errors.append(BatchRowError(line, name, "This column is missing.", index + 1))
    if len(cells) > width and any(cells[width:]):
        hint = ""
        if separator == ",":
            hint = " (with ',' as separator, quote amounts written with a comma: \"1.234,56\")"
        errors.append(
            BatchRowError(
                line,
                "",
                f"The row has {len(cells)} columns, at most {width} are expected{hint}.",
                width + 1,
            )
        )
    value_index = columns["valor"]
    if (
        separator == ","
        and len(errors) == found
        and value_index + 1 < len(cells)
        and _SPLIT_CENTS_RE.fullmatch(cells[value_index + 1])
        and _SPLIT_UNITS_RE.fullmatch(cells[value_index])
    ):
        errors.append(
            BatchRowError(
                line,
                "valor",
                "The amount seems cut in two by the ',' separator: quote it (\"1.234,56\") "
                "or write it with a decimal point (1234.56).",
                value_index + 1,
            )
        )
    if len(errors) > found:
        return None
    return {
        name: (index + 1, cells[index] if index < len(cells) else "")
        for name, index in columns.items()
    }


class BatchInputError(ChargeInputError):
    """A batch cannot be sent: its file has errors (``errors``) or its parameters are wrong."""

    def __init__(self, field: str, message: str, errors: Sequence[BatchRowError] = ()) -> None:
        super().__init__(field, message)
        self.errors = tuple(errors)


@dataclass(frozen=True)
class BatchMemberPlan:
    """One member of a batch about to be sent: its row and the txid chosen for it."""

    row: BatchRow
    txid: str


@dataclass(frozen=True)
class BatchPlan:
    """A batch ready to send, with every identifier already chosen: sending it again (after a
    lost answer) can never create other charges."""

    batch_id: str
    key: str
    members: tuple[BatchMemberPlan, ...]
    description: str | None = None
    days_valid_after_due: int | None = None

    @property
    def total(self) -> Decimal:
        """The sum of the members' amounts."""
        return sum((m.row.amount for m in self.members), Decimal("0.00"))

    def body(self) -> LoteCobVSolicitado:
        """The body of ``PUT /lotecobv/{id}``."""
        cobsv = []
        for member in self.members:
            row = member.row
            kind = {"cpf": row.document} if len(row.document) == 11 else {"cnpj": row.document}
            cobsv.append(
                CobVSolicitadaLote(
                    txid=member.txid,
                    calendario=CalendarioCobV(
                        data_de_vencimento=row.due_date,
                        validade_apos_vencimento=self.days_valid_after_due,
                    ),
                    devedor=Devedor(nome=row.name, **kind),
                    valor=CobVValor(original=row.amount),
                    chave=self.key,
                    solicitacao_pagador=row.description,
                )
            )
        return LoteCobVSolicitado(descricao=self.description, cobsv=cobsv)


@dataclass(frozen=True)
class BatchRevision:
    """A change to one member of a batch (no member can be added or removed)."""

    txid: str
    amount: Decimal | str | None = None
    due_date: date | None = None
    debtor: Debtor | None = None
    description: str | None = None


@dataclass(frozen=True)
class BatchMemberStatus:
    """One member of a batch as the bank reports it; ``line`` is its line in the file, when
    the batch was sent in this session."""

    txid: str
    status: str
    problema: str | None = None
    amount: Decimal | None = None
    debtor_name: str | None = None
    line: int | None = None

    @property
    def refused(self) -> bool:
        """Whether the bank refused this member (``NEGADA``)."""
        return self.status == "NEGADA"


@dataclass(frozen=True)
class BatchStatus:
    """A batch and the status of each of its members."""

    batch_id: str
    description: str | None
    created_at: datetime | None
    members: tuple[BatchMemberStatus, ...]
    answer: LoteCobVConsultado = field(repr=False, compare=False)

    @property
    def refused(self) -> tuple[BatchMemberStatus, ...]:
        """The members the bank refused."""
        return tuple(m for m in self.members if m.refused)

    def counts(self) -> dict[str, int]:
        """How many members are in each status."""
        result: dict[str, int] = {}
        for member in self.members:
            result[member.status] = result.get(member.status, 0) + 1
        return result


def problem_text(problema: Problema | None) -> str | None:
    """A batch member's problem as one line (title, detail and each violation)."""
    if problema is None:
        return None
    parts = [p for p in (problema.title, problema.detail) if p]
    head = ": ".join(dict.fromkeys(parts)) or "Refused by the bank"
    reasons = [
        f"{v.propriedade}: {v.razao}" if v.propriedade else (v.razao or "")
        for v in problema.violacoes
    ]
    reasons = [r for r in reasons if r]
    return f"{head} ({'; '.join(reasons)})" if reasons else head


def _batch_status(
    batch_id: str, answer: LoteCobVConsultado, lines: Mapping[str, int] | None = None
) -> BatchStatus:
    members = tuple(
        BatchMemberStatus(
            txid=m.txid,
            status=str(getattr(m.status, "value", m.status)),
            problema=problem_text(m.problema),
            amount=m.valor.original if m.valor else None,
            debtor_name=m.devedor.nome if m.devedor else None,
            line=(lines or {}).get(m.txid),
        )
        for m in answer.cobsv
    )
    return BatchStatus(
        batch_id=answer.id or batch_id,
        description=answer.descricao,
        created_at=answer.criacao,
        members=members,
        answer=answer,
    )


def new_batch_id() -> str:
    """A new batch id: 15 digits, so that it suits both the service's string ids and BCB's
    integer ones."""
    return str(10**14 + secrets.randbelow(9 * 10**14))


# ---------------------------------------------------------------------------------------------
# The service


class ChargesService:
    """Cash In use cases over one QR Codes API session and the profile's ledger.

    ``clock`` gives the current instant (timezone-aware); the bank's calendar date is taken in
    Brasília (:mod:`treasury_app.domain.clock`). There is no default: the caller says whose
    clock (the computer's against a real bank, the sandbox's against the sandbox).
    """

    def __init__(
        self,
        qrcodes: QrCodesClient,
        ledger: Ledger,
        *,
        clock: Clock,
    ) -> None:
        self._qr = qrcodes
        self._ledger = ledger
        self._clock = clock

    def today(self) -> date:
        """The bank's date now (Brasília)."""
        return brasilia_today(self._clock)

    # -- building bodies (pure: no request) --------------------------------------------------

    def build_cob(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor | None = None,
        description: str | None = None,
        expires_in: int = DEFAULT_EXPIRATION,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | None = None,
        txid: str | None = None,
    ) -> tuple[str, CobSolicitada]:
        """The txid and checked body of a new immediate charge; raises
        :class:`ChargeInputError` and sends nothing."""
        chosen = _check_txid(txid)
        body = CobSolicitada(
            calendario=CalendarioCob(
                expiracao=_check_int(
                    expires_in, "calendario.expiracao", minimum=1, maximum=2**31 - 1
                )
            ),
            devedor=debtor.to_devedor() if debtor is not None else None,
            loc=self._loc(location_id),
            valor=CobValor(original=check_amount(amount, "valor.original")),
            chave=check_key(key),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            info_adicionais=_info(additional_info),
        )
        return chosen, body

    def build_cobv(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor,
        due_date: date,
        days_valid_after_due: int | None = None,
        description: str | None = None,
        fine: ModalidadeValor | None = None,
        interest: ModalidadeValor | None = None,
        rebate: ModalidadeValor | None = None,
        discount: Desconto | None = None,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | None = None,
        txid: str | None = None,
    ) -> tuple[str, CobVSolicitada]:
        """The txid and checked body of a new charge with a due date (not in the past);
        raises :class:`ChargeInputError` and sends nothing."""
        chosen = _check_txid(txid)
        if not isinstance(debtor, Debtor):
            raise ChargeInputError("devedor", "A charge with a due date needs its debtor.")
        due = self._due_date(due_date, "calendario.dataDeVencimento")
        validity = None
        if days_valid_after_due is not None:
            validity = _check_int(
                days_valid_after_due,
                "calendario.validadeAposVencimento",
                minimum=0,
                maximum=MAX_DAYS_AFTER_DUE,
            )
        body = CobVSolicitada(
            calendario=CalendarioCobV(data_de_vencimento=due, validade_apos_vencimento=validity),
            devedor=debtor.to_devedor(address=True),
            loc=self._loc(location_id),
            valor=CobVValor(
                original=check_amount(amount, "valor.original"),
                multa=fine,
                juros=interest,
                abatimento=rebate,
                desconto=discount,
            ),
            chave=check_key(key),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            info_adicionais=_info(additional_info),
        )
        return chosen, body

    def _due_date(self, value: date, field: str) -> date:
        if isinstance(value, datetime) or not isinstance(value, date):
            raise ChargeInputError(field, "A due date is a calendar date.")
        if value < self.today():
            raise ChargeInputError(field, f"The due date {value:%d/%m/%Y} has passed.")
        return value

    @staticmethod
    def _loc(location_id: int | None) -> PayloadLocationCob | None:
        if location_id is None:
            return None
        return PayloadLocationCob(
            id=_check_int(location_id, "loc.id", minimum=1, maximum=2**63 - 1)
        )

    # -- cob and cobv ------------------------------------------------------------------------

    async def create_cob(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor | None = None,
        description: str | None = None,
        expires_in: int = DEFAULT_EXPIRATION,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | None = None,
        txid: str | None = None,
    ) -> CobGerada:
        """Create an immediate charge: ``PUT /cob/{txid}`` with a local txid (or ``txid``).

        The answer carries ``pixCopiaECola`` (see :func:`charge_qr`). Audited as
        ``charge.create``."""
        chosen, body = self.build_cob(
            amount=amount,
            key=key,
            debtor=debtor,
            description=description,
            expires_in=expires_in,
            additional_info=additional_info,
            location_id=location_id,
            txid=txid,
        )
        return await self.submit_cob(chosen, body)

    async def submit_cob(self, txid: str, body: CobSolicitada) -> CobGerada:
        """Send a body made by :meth:`build_cob` (audited as ``charge.create``)."""
        return await audited_call(
            self._ledger,
            "charge.create",
            self._qr.put_cob(txid, body),
            reference=txid,
            amount=body.valor.original,
            details={"kind": "cob", "chave": body.chave, "devedor": masked_debtor(body.devedor)},
            outcome=_status_of,
        )

    async def create_cobv(
        self,
        *,
        amount: Decimal | str,
        key: str,
        debtor: Debtor,
        due_date: date,
        days_valid_after_due: int | None = None,
        description: str | None = None,
        fine: ModalidadeValor | None = None,
        interest: ModalidadeValor | None = None,
        rebate: ModalidadeValor | None = None,
        discount: Desconto | None = None,
        additional_info: Mapping[str, str] | None = None,
        location_id: int | None = None,
        txid: str | None = None,
    ) -> CobVGerada:
        """Create a charge with a due date: ``PUT /cobv/{txid}`` with a local txid.

        Fine, interest, rebate and discount are the BCB shapes, passed as they are. Audited as
        ``charge.create``."""
        chosen, body = self.build_cobv(
            amount=amount,
            key=key,
            debtor=debtor,
            due_date=due_date,
            days_valid_after_due=days_valid_after_due,
            description=description,
            fine=fine,
            interest=interest,
            rebate=rebate,
            discount=discount,
            additional_info=additional_info,
            location_id=location_id,
            txid=txid,
        )
        return await self.submit_cobv(chosen, body)

    async def submit_cobv(self, txid: str, body: CobVSolicitada) -> CobVGerada:
        """Send a body made by :meth:`build_cobv` (audited as ``charge.create``)."""
        return await audited_call(
            self._ledger,
            "charge.create",
            self._qr.put_cobv(txid, body),
            reference=txid,
            amount=body.valor.original,
            details={
                "kind": "cobv",
                "chave": body.chave,
                "devedor": masked_debtor(body.devedor),
                "dataDeVencimento": body.calendario.data_de_vencimento,
            },
            outcome=_status_of,
        )

    async def get_cob(self, txid: str) -> CobCompleta:
        """``GET /cob/{txid}``: an immediate charge with the Pix that paid it."""
        return await self._qr.get_cob(txid)

    async def get_cobv(self, txid: str) -> CobVCompleta:
        """``GET /cobv/{txid}``: a charge with a due date with the Pix that paid it."""
        return await self._qr.get_cobv(txid)

    def iter_cobs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        status: CobStatus | str | None = None,
        document: str | None = None,
        location_present: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[CobCompleta]:
        """The immediate charges created in ``[start, end]`` (dates are whole days in
        Brasília), optionally of one status or one debtor's CPF/CNPJ, over every page.
        Inputs are checked now, before the first page is asked."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_cob(
            inicio=inicio,
            fim=fim,
            status=_cob_status(status),
            location_presente=location_present,
            itens_por_pagina=_page_size(page_size),
            **_document_filter(document),
        )

    def iter_cobvs(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        status: CobStatus | str | None = None,
        document: str | None = None,
        location_present: bool | None = None,
        batch_id: str | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[CobVCompleta]:
        """The charges with a due date created in ``[start, end]``, filtered like
        :meth:`iter_cobs` and optionally by batch, over every page."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_cobv(
            inicio=inicio,
            fim=fim,
            status=_cob_status(status),
            location_presente=location_present,
            lote_cobv_id=_batch_id(batch_id) if batch_id is not None else None,
            itens_por_pagina=_page_size(page_size),
            **_document_filter(document),
        )

    async def revise_cob(
        self,
        txid: str,
        *,
        amount: Decimal | str | None = None,
        description: str | None = None,
        debtor: Debtor | None = None,
        expires_in: int | None = None,
    ) -> CobGerada:
        """``PATCH /cob/{txid}``: change the amount, the text for the payer, the debtor and/or
        the expiry (seconds from creation) of an active charge. Audited as ``charge.revise``."""
        body = CobRevisada(
            calendario=(
                CalendarioCob(
                    expiracao=_check_int(
                        expires_in, "calendario.expiracao", minimum=1, maximum=2**31 - 1
                    )
                )
                if expires_in is not None
                else None
            ),
            valor=(
                CobValorRevisado(original=check_amount(amount, "valor.original"))
                if amount is not None
                else None
            ),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            devedor=debtor.to_devedor() if debtor is not None else None,
        )
        return await self._revise("cob", txid, body, self._qr.patch_cob)

    async def revise_cobv(
        self,
        txid: str,
        *,
        amount: Decimal | str | None = None,
        due_date: date | None = None,
        description: str | None = None,
        debtor: Debtor | None = None,
    ) -> CobVGerada:
        """``PATCH /cobv/{txid}``: change the amount, the due date, the text for the payer
        and/or the debtor of an active charge. Audited as ``charge.revise``."""
        body = CobVRevisada(
            valor=(
                CobVValorRevisado(original=check_amount(amount, "valor.original"))
                if amount is not None
                else None
            ),
            calendario=(
                CalendarioCobV(
                    data_de_vencimento=self._due_date(due_date, "calendario.dataDeVencimento")
                )
                if due_date is not None
                else None
            ),
            solicitacao_pagador=check_text(
                description, "solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
            devedor=debtor.to_devedor(address=True) if debtor is not None else None,
        )
        return await self._revise("cobv", txid, body, self._qr.patch_cobv)

    async def _revise(
        self,
        kind: Literal["cob", "cobv"],
        txid: str,
        body: CobRevisada | CobVRevisada,
        patch: Callable[[str, Any], Awaitable[T]],
    ) -> T:
        _txid(txid)
        changed = sorted(body.to_wire())
        if not changed:
            raise ChargeInputError("", "Nothing to change: give a new amount, text or debtor.")
        new_amount = body.valor.original if body.valor is not None else None
        return await audited_call(
            self._ledger,
            "charge.revise",
            patch(txid, body),
            reference=txid,
            amount=new_amount,
            details={"kind": kind, "fields": changed, "devedor": masked_debtor(body.devedor)},
            outcome=_status_of,
            answered=lambda answer: {"revisao": getattr(answer, "revisao", None)},
        )

    async def cancel_cob(self, txid: str) -> CobGerada:
        """Remove an active immediate charge (``PATCH`` with status
        ``REMOVIDA_PELO_USUARIO_RECEBEDOR``). Audited as ``charge.cancel``."""
        body = CobRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)
        return await self._cancel("cob", _txid(txid), lambda: self._qr.patch_cob(txid, body))

    async def cancel_cobv(self, txid: str) -> CobVGerada:
        """Remove an active charge with a due date. Audited as ``charge.cancel``."""
        body = CobVRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)
        return await self._cancel("cobv", _txid(txid), lambda: self._qr.patch_cobv(txid, body))

    async def _cancel(self, kind: str, txid: str, call: Callable[[], Awaitable[T]]) -> T:
        return await audited_call(
            self._ledger,
            "charge.cancel",
            call(),
            reference=txid,
            details={"kind": kind},
            outcome=_status_of,
            amount_of=lambda answer: getattr(getattr(answer, "valor", None), "original", None),
        )

    # -- QR Code -----------------------------------------------------------------------------

    def qr_code(self, charge: CobGerada | CobVGerada | str) -> ChargeQr:
        """The QR Code of a charge already at hand (see :func:`charge_qr`)."""
        return charge_qr(charge)

    async def fetch_qr_code(self, txid: str, *, kind: Literal["cob", "cobv"] = "cob") -> ChargeQr:
        """Read the charge from the bank and return its QR Code."""
        charge = await (self.get_cobv(txid) if kind == "cobv" else self.get_cob(txid))
        return charge_qr(charge)

    # -- received Pix and refunds ------------------------------------------------------------

    async def get_received_pix(self, e2eid: str) -> Pix:
        """``GET /pix/{e2eid}``: a Pix received, with its refunds."""
        return await self._qr.get_pix(_e2eid(e2eid))

    def iter_received_pix(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        txid: str | None = None,
        document: str | None = None,
        with_txid: bool | None = None,
        with_refunds: bool | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[Pix]:
        """The Pix received in ``[start, end]``, optionally for one charge (``txid``) or one
        payer's CPF/CNPJ, over every page. Inputs are checked now."""
        inicio, fim = time_range(start, end)
        if txid is not None:
            _txid(txid)
        return self._qr.iter_pix(
            inicio=inicio,
            fim=fim,
            txid=txid,
            tx_id_presente=with_txid,
            devolucao_presente=with_refunds,
            itens_por_pagina=_page_size(page_size),
            **_document_filter(document),
        )

    async def request_refund(
        self,
        e2eid: str,
        amount: Decimal | str,
        *,
        description: str | None = None,
        refund_id: str | None = None,
    ) -> Devolucao:
        """Refund (part of) a received Pix: ``PUT /pix/{e2eid}/devolucao/{id}`` with a local
        id (or ``refund_id``, to repeat a request whose answer was lost). The bank checks the
        amount against what is left to refund. Audited as ``refund.request``."""
        e2e = _e2eid(e2eid)
        value = check_amount(amount, "valor")
        if refund_id is None:
            refund_id = new_txid()
        elif not isinstance(refund_id, str) or not _REFUND_ID_RE.fullmatch(refund_id):
            raise ChargeInputError("id", "A refund id has 1 to 35 letters or digits.")
        body = DevolucaoSolicitada(
            valor=value, descricao=check_text(description, "descricao", max_len=MAX_DESCRIPTION)
        )
        return await audited_call(
            self._ledger,
            "refund.request",
            self._qr.put_devolucao(e2e, refund_id, body),
            reference=refund_id,
            amount=value,
            details={"endToEndId": e2e},
            outcome=_status_of,
            answered=lambda answer: {"rtrId": answer.rtr_id},
        )

    async def get_refund(self, e2eid: str, refund_id: str) -> Devolucao:
        """``GET /pix/{e2eid}/devolucao/{id}``: a refund and its status."""
        return await self._qr.get_devolucao(_e2eid(e2eid), refund_id)

    # -- payload locations -------------------------------------------------------------------

    async def create_location(
        self, kind: TipoCob | Literal["cob", "cobv"] = TipoCob.COB
    ) -> PayloadLocationCompleta:
        """``POST /loc``: a payload location for a future cob or cobv (pass its id as
        ``location_id``). Audited as ``location.create``."""
        try:
            tipo = TipoCob(kind)
        except ValueError:
            raise ChargeInputError("tipoCob", "A location is for a cob or a cobv.") from None
        return await audited_call(
            self._ledger,
            "location.create",
            self._qr.post_loc(PayloadLocationSolicitada(tipo_cob=tipo)),
            details={"tipoCob": tipo},
            reference_of=lambda answer: str(answer.id),
            answered=lambda answer: {"location": answer.location},
        )

    def iter_locations(
        self,
        *,
        start: date | datetime,
        end: date | datetime,
        linked: bool | None = None,
        kind: TipoCob | Literal["cob", "cobv"] | None = None,
        page_size: int | None = None,
    ) -> AsyncIterator[PayloadLocationCompleta]:
        """``GET /loc``: the payload locations created in ``[start, end]`` (whole days in
        Brasília), optionally only those with (or without) a charge, or of one kind."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_loc(
            inicio=inicio,
            fim=fim,
            tx_id_presente=linked,
            tipo_cob=TipoCob(kind) if kind is not None else None,
            itens_por_pagina=_page_size(page_size),
        )

    async def get_location(self, location_id: int) -> PayloadLocationCompleta:
        """``GET /loc/{id}``: a location and the txid linked to it, if any."""
        return await self._qr.get_loc(location_id)

    async def unlink_location(self, location_id: int) -> PayloadLocation:
        """``DELETE /loc/{id}/txid``: the charge loses this location (and its QR Code).
        Audited as ``location.unlink``."""
        _check_int(location_id, "loc.id", minimum=1, maximum=2**63 - 1)
        return await audited_call(
            self._ledger,
            "location.unlink",
            self._qr.delete_loc_txid(location_id),
            reference=str(location_id),
        )

    # -- batches (lotecobv) ------------------------------------------------------------------

    def plan_batch(
        self,
        rows: BatchParseResult | Sequence[BatchRow],
        *,
        key: str,
        description: str | None = None,
        days_valid_after_due: int | None = None,
        batch_id: str | None = None,
    ) -> BatchPlan:
        """Choose the batch id and one txid per row, after checking everything (a file with
        errors raises :class:`BatchInputError` listing them). Sends nothing."""
        if isinstance(rows, BatchParseResult):
            if rows.errors:
                first = rows.errors[0]
                raise BatchInputError(
                    "csv",
                    f"{len(rows.bad_lines)} line(s) of the file have errors; first: {first}",
                    rows.errors,
                )
            rows = rows.rows
        rows = tuple(rows)
        if not rows:
            raise BatchInputError("cobsv", "A batch needs at least one charge.")
        if len(rows) > MAX_BATCH_MEMBERS:
            raise BatchInputError("cobsv", f"A batch has at most {MAX_BATCH_MEMBERS} charges.")
        today = self.today()
        for row in rows:
            if not isinstance(row, BatchRow):
                raise BatchInputError("cobsv", "The rows must come from parse_batch_csv.")
            if row.due_date < today:
                raise BatchInputError(
                    "vencimento",
                    f"Line {row.line}: the due date {row.due_date:%d/%m/%Y} has passed.",
                )
        validity = None
        if days_valid_after_due is not None:
            validity = _check_int(
                days_valid_after_due,
                "calendario.validadeAposVencimento",
                minimum=0,
                maximum=MAX_DAYS_AFTER_DUE,
            )
        return BatchPlan(
            batch_id=_batch_id(batch_id) if batch_id is not None else new_batch_id(),
            key=check_key(key),
            members=tuple(BatchMemberPlan(row=row, txid=new_txid()) for row in rows),
            description=check_text(description, "descricao", max_len=MAX_DESCRIPTION),
            days_valid_after_due=validity,
        )

    async def submit_batch(self, plan: BatchPlan) -> BatchStatus:
        """``PUT /lotecobv/{id}`` of a plan; the answer says which members the bank refused
        (``NEGADA`` with its ``problema``), each with its line in the file. Sending the same
        plan again only revises the same members. Audited as ``batch.create``."""
        lines = {m.txid: m.row.line for m in plan.members}

        def outcome(status: BatchStatus) -> str:
            refused = len(status.refused)
            if not refused:
                return "accepted"
            return "refused" if refused == len(status.members) else "partially_refused"

        async def send() -> BatchStatus:
            answer = await self._qr.put_lotecobv(plan.batch_id, plan.body())
            return _batch_status(plan.batch_id, answer, lines)

        return await audited_call(
            self._ledger,
            "batch.create",
            send(),
            reference=plan.batch_id,
            amount=plan.total,
            details={
                "chave": plan.key,
                "members": len(plan.members),
                "txids": [m.txid for m in plan.members],
            },
            outcome=outcome,
            answered=lambda status: {
                "refused": [
                    {"txid": m.txid, "line": m.line, "problema": m.problema} for m in status.refused
                ]
            },
        )

    async def create_batch(
        self,
        rows: BatchParseResult | Sequence[BatchRow],
        *,
        key: str,
        description: str | None = None,
        days_valid_after_due: int | None = None,
        batch_id: str | None = None,
    ) -> BatchStatus:
        """:meth:`plan_batch` then :meth:`submit_batch`."""
        plan = self.plan_batch(
            rows,
            key=key,
            description=description,
            days_valid_after_due=days_valid_after_due,
            batch_id=batch_id,
        )
        return await self.submit_batch(plan)

    async def revise_batch(
        self,
        batch_id: str,
        revisions: Sequence[BatchRevision],
        *,
        description: str | None = None,
    ) -> BatchStatus:
        """``PATCH /lotecobv/{id}``: change members of a batch (amount, due date, debtor, text
        for the payer). Audited as ``batch.revise``."""
        batch_id = _batch_id(batch_id)
        if not revisions:
            raise BatchInputError("cobsv", "Give at least one member to change.")
        members = [self._member_revision(i, r) for i, r in enumerate(revisions)]
        body = LoteCobVRevisado(
            descricao=check_text(description, "descricao", max_len=MAX_DESCRIPTION),
            cobsv=members,
        )

        async def send() -> BatchStatus:
            return _batch_status(batch_id, await self._qr.patch_lotecobv(batch_id, body))

        return await audited_call(
            self._ledger,
            "batch.revise",
            send(),
            reference=batch_id,
            details={
                "members": [
                    {"txid": m.txid, "fields": sorted(set(m.to_wire()) - {"txid"})} for m in members
                ]
            },
            outcome=lambda status: "partially_refused" if status.refused else "accepted",
        )

    def _member_revision(self, index: int, revision: BatchRevision) -> CobVRevisadaLote:
        where = f"cobsv[{index}]"
        if not isinstance(revision, BatchRevision) or not is_valid_txid(revision.txid):
            raise BatchInputError(f"{where}.txid", "A txid has 26 to 35 letters or digits.")
        member = CobVRevisadaLote(
            txid=revision.txid,
            valor=(
                CobVValorRevisado(original=check_amount(revision.amount, f"{where}.valor.original"))
                if revision.amount is not None
                else None
            ),
            calendario=(
                CalendarioCobV(
                    data_de_vencimento=self._due_date(
                        revision.due_date, f"{where}.calendario.dataDeVencimento"
                    )
                )
                if revision.due_date is not None
                else None
            ),
            devedor=(
                revision.debtor.to_devedor(f"{where}.devedor", address=True)
                if revision.debtor is not None
                else None
            ),
            solicitacao_pagador=check_text(
                revision.description, f"{where}.solicitacaoPagador", max_len=MAX_DESCRIPTION
            ),
        )
        if set(member.to_wire()) == {"txid"}:
            raise BatchInputError(where, "Nothing to change for this member.")
        return member

    async def batch_status(self, batch_id: str) -> BatchStatus:
        """``GET /lotecobv/{id}``: each member's txid, status and ``problema`` (the amount and
        debtor of the members that became charges)."""
        batch_id = _batch_id(batch_id)
        return _batch_status(batch_id, await self._qr.get_lotecobv(batch_id))

    def iter_batches(
        self, *, start: date | datetime, end: date | datetime, page_size: int | None = None
    ) -> AsyncIterator[LoteCobVConsultado]:
        """The batches created in ``[start, end]``, over every page."""
        inicio, fim = time_range(start, end)
        return self._qr.iter_lotecobv(
            inicio=inicio, fim=fim, itens_por_pagina=_page_size(page_size)
        )


def _txid(value: str) -> str:
    if not isinstance(value, str) or not is_valid_txid(value):
        raise ChargeInputError("txid", "A txid has 26 to 35 letters or digits.")
    return value


def _batch_id(value: str) -> str:
    if not isinstance(value, str) or not _BATCH_ID_RE.fullmatch(value):
        raise BatchInputError("id", "A batch id has 1 to 64 letters, digits, '-' or '_'.")
    return value


def _e2eid(value: str) -> str:
    if not isinstance(value, str) or not is_valid_e2eid(value.strip()):
        raise ChargeInputError("endToEndId", "This is not an end-to-end id (E + 31 characters).")
    return value.strip()


def _page_size(value: int | None) -> int | None:
    if value is None:
        return None
    return _check_int(value, "paginacao.itensPorPagina", minimum=1, maximum=1000)
