"""Pix payouts: prepare a review (validated locally), send it exactly once, batches from CSV.

``prepare_*`` never touches the network: they validate with the domain layer and return a
:class:`PayoutReview` — payee, amount, what will be sent, warnings (a payment to the same
payee for the same amount in the last 24 hours) — with its idempotency key already chosen.
:meth:`PayoutsService.send` hands it to the :class:`~treasury_app.services.payments.PaymentEngine`
(journal first, then the bank); sending the same review twice is one payment.

Batch CSV (UTF-8, header row, ``;`` or ``,`` separated, detected from the header):

=====================  ==========================================================
column                 meaning
=====================  ==========================================================
``chave``              Pix key (CPF, CNPJ, e-mail, +55 phone, random key); or, instead,
``ispb``, ``agencia``, ``conta``, ``tipo_conta`` (CACC, SVGS, SLRY, TRAN), ``documento``,
``nome``               the payee's bank data (an ISPB of 1 to 7 digits and a branch of
                       1 to 3 are left-padded with zeros, as Excel drops them)
``valor``              amount: ``1.234,56``, ``1234,56``, ``1234.56`` or ``R$ 1.234,56``
``descricao``          optional, at most 140 characters
``documento_favorecido``  optional CPF/CNPJ of the key's owner (checked by the bank)
``data_pagamento``     optional pay date, ``dd/mm/aaaa`` or ``aaaa-mm-dd`` (also ``data``):
                       the row is scheduled for it, rolled forward to a business day; empty,
                       the batch's date (the dialog's) or now
=====================  ==========================================================

English headers (``key``, ``amount``, ``description``, ``branch``, ``account``,
``account_type``, ``document``, ``name``, ``creditor_document``, ``pay_date``) are accepted
too. Every row is checked before anything is sent; each bad row is reported with its line
number and column. A CPF/CNPJ, account or ISPB in scientific notation (``1,12E+13``: Excel's
way of showing a long number, its last digits lost) is refused with a word on formatting the
column as text.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from treasury_app.api.accounts.models import (
    AccountType,
    ManualCreditorAccount,
    PaymentAmount,
    PaymentFlow,
    PixKeyPaymentRequest,
    PixKeyType,
    PixManualPaymentRequest,
    PixQrCodePaymentRequest,
)
from treasury_app.api.errors import ApiFailure
from treasury_app.api.qrcodes.jws import PayloadSignatureError
from treasury_app.domain import brcode
from treasury_app.domain.brcode import BrCode
from treasury_app.domain.clock import brasilia_today, format_instant
from treasury_app.domain.documents import is_scientific_notation, normalize_document
from treasury_app.domain.errors import DomainError, Reason, RuleError
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.domain.money import format_brl, parse_brl
from treasury_app.domain.payees import DestinationState
from treasury_app.domain.pixkey import detect_key_type, normalize_key
from treasury_app.domain.schedule import (
    NATIONAL,
    BusinessCalendar,
    PayDate,
    ScheduleError,
    pay_date,
)
from treasury_app.ledger import Ledger
from treasury_app.ledger.batches import BatchRecord
from treasury_app.ledger.journal import Entry, EntryKind, NewEntry
from treasury_app.services.csv_input import (
    MAX_LINE_ERRORS,
    MAX_ROWS,
    TOO_MANY_ERRORS,
    CsvLineError,
    ReadControl,
    csv_records,
)
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.same_parameters import same_parameters_as

log = logging.getLogger("treasury_app.services.payouts")

_REGISTERED = frozenset({EntryKind.PIX_KEY, EntryKind.PIX_MANU, EntryKind.PIX_QRC})
"""The payouts whose destination the payee registry may know (a key or an account)."""

MAX_DESCRIPTION = 140
MAX_PIX_AMOUNT = Decimal("1000000.00")
_DIGITS = re.compile(r"[0-9]+")  # ASCII digits only: str.isdigit() also takes "²" and "٣"


class PayoutInputError(RuleError):
    """A field of a payout is not acceptable: its code, its parameters and ``field`` (the
    form's field) say which rule."""


def _refused(error: DomainError, field_name: str) -> PayoutInputError:
    """The domain's refusal of ``field_name``, as a payout's."""
    return PayoutInputError(error.code, field=field_name, **error.params)


def read_payment_code(payload: str) -> BrCode:
    """The BR Code ("Pix copia e cola") pasted to be paid, read; else :class:`PayoutInputError`
    on ``payload``: the domain's reason, or ``payout.recurrence_code`` for a code that only
    authorises a recurrence (Pix Automático), which is not a payment."""
    try:
        code = brcode.parse(payload.strip())
    except DomainError as error:
        raise _refused(error, "payload") from None
    if code.is_recurrence_only:
        raise PayoutInputError("payout.recurrence_code", field="payload")
    return code


@dataclass(frozen=True)
class ChargeAmount:
    """What the charge behind a dynamic BR Code asks: its amount, and whether the payer may
    pay a different one (``modalidadeAlteracao`` 1)."""

    amount: Decimal
    changeable: bool


ChargeReader = Callable[[str], Awaitable[ChargeAmount]]
"""Reads the charge at a dynamic code's location (``services.qr_payloads.charge_amount``)."""


@dataclass(frozen=True)
class PayoutReview:
    """What the person confirms: payee, amount and exactly what will be sent."""

    kind: EntryKind
    amount: Decimal
    payee_name: str
    payee_document: str
    payee_detail: str  # the key, the bank data, or the BR Code's key/url
    description: str
    payment_flow: PaymentFlow
    request: dict[str, Any]
    idempotency_key: str = field(default_factory=new_idempotency_key)
    key_type: PixKeyType | None = None
    brcode: BrCode | None = None
    warnings: tuple[Reason, ...] = ()
    duplicates: tuple[Entry, ...] = ()
    last_paid: Entry | None = None  # the last payment to this payee the bank named
    pay: PayDate | None = None
    """When it leaves (``services/schedule.py``: the date asked, the business day, why they
    differ); ``None``: now."""

    @property
    def amount_text(self) -> str:
        return format_brl(self.amount)

    def new_entry(self, *, batch: str | None = None) -> NewEntry:
        return NewEntry(
            kind=self.kind,
            amount=self.amount,
            idempotency_key=self.idempotency_key,
            request=self.request,
            payee_name=self.payee_name,
            payee_document=self.payee_document,
            payee_detail=self.payee_detail,
            description=self.description,
            payment_flow=self.payment_flow.value,
            batch=batch,
            pay_date=None if self.pay is None else self.pay.date,
        )


def _amount(value: Decimal | str, *, field_name: str = "amount") -> Decimal:
    if isinstance(value, str):
        try:
            amount = parse_brl(value)
        except DomainError as error:
            raise _refused(error, field_name) from None
    elif isinstance(value, Decimal) and value.is_finite():
        amount = value
    else:
        raise PayoutInputError("payout.amount_not_decimal", field=field_name)
    if amount != amount.quantize(Decimal("0.01")):
        raise PayoutInputError("payout.amount_decimals", field=field_name)
    if amount <= 0:
        raise PayoutInputError("payout.amount_not_positive", field=field_name)
    if amount > MAX_PIX_AMOUNT:
        raise PayoutInputError("payout.amount_over_limit", field=field_name, limit=MAX_PIX_AMOUNT)
    return amount.quantize(Decimal("0.01"))


def _description(text: str) -> str:
    text = (text or "").strip()
    if len(text) > MAX_DESCRIPTION:
        raise PayoutInputError(
            "payout.description_too_long", field="description", max=MAX_DESCRIPTION
        )
    return text


def _document(text: str, field_name: str) -> str:
    try:
        return normalize_document(text)
    except DomainError as error:
        raise _refused(error, field_name) from None


DUPLICATE_BATCH_WINDOW = timedelta(hours=72)
"""How far back a batch is compared with earlier ones (the same rows or the same file)."""
RECENT_SINGLE_WINDOW = timedelta(hours=24)


class PayoutsService:
    """Pix payouts by key, by QR Code payload and by bank data, one by one or in batches.

    ``duplicate_window``: a batch whose rows (payees and amounts) or file match a batch sent
    within it is flagged, and sending it needs ``send_again=True``. ``read_charge``: how the
    charge behind a dynamic code is read (its amount, and whether it may change); without it,
    or when the charge cannot be read, the bank alone checks a dynamic code's amount."""

    def __init__(
        self,
        engine: PaymentEngine,
        ledger: Ledger,
        *,
        duplicate_window: timedelta = DUPLICATE_BATCH_WINDOW,
        read_charge: ChargeReader | None = None,
    ) -> None:
        self.engine = engine
        self.ledger = ledger
        self.duplicate_window = duplicate_window
        self.read_charge = read_charge
        self.calendar: BusinessCalendar = NATIONAL
        """The business days a batch's pay dates roll to (the workspace gives the profile's
        extra non-business dates)."""

    # -- prepare (local, no network) ---------------------------------------------------------

    def _draft_key(
        self,
        key: str,
        amount: Decimal | str,
        *,
        description: str = "",
        creditor_document: str | None = None,
        flow: PaymentFlow = PaymentFlow.INSTANT,
    ) -> PayoutReview:
        try:
            key_type = detect_key_type(key)
            normalized = normalize_key(key, key_type)
        except DomainError as error:
            raise _refused(error, "key") from None
        value = _amount(amount)
        text = _description(description)
        document = _document(creditor_document, "creditor_document") if creditor_document else None
        body = PixKeyPaymentRequest(
            pix_key=normalized,
            pix_key_type=PixKeyType(key_type.value),
            payment=PaymentAmount(currency="BRL", amount=value),
            description=text or None,
            payment_flow=flow,
            creditor_document=document,
        )
        return self._draft(
            EntryKind.PIX_KEY,
            value,
            payee_name="",
            payee_document=document or "",
            payee_detail=normalized,
            description=text,
            flow=flow,
            request=body.to_wire(),
            key_type=PixKeyType(key_type.value),
        )

    @same_parameters_as(_draft_key)
    async def prepare_key(self, *args: Any, **kwargs: Any) -> PayoutReview:
        """A payout to a Pix key; the key's type is detected and the key normalised. A key
        in the payee registry is sent with the registered payee's document as
        ``creditorDocument`` (the bank refuses a key that is not theirs) and the payee's
        name; a document typed that is not the registered one is refused."""
        review = self._draft_key(*args, **kwargs)
        return await self.look_up(await self.with_registry(review))

    async def with_registry(self, review: PayoutReview) -> PayoutReview:
        """A key payout with its registered payee's document and name (issue 36)."""
        if review.kind != EntryKind.PIX_KEY:
            return review
        found = (await self.ledger.payees.by_details([review.payee_detail])).get(
            review.payee_detail
        )
        if found is None:
            return review
        payee = await self.ledger.payees.payee(found.payee_id)
        if payee is None:
            return review
        typed = review.payee_document
        if typed and typed != payee.document:
            raise PayoutInputError(
                "payout.document_not_registered",
                field="creditor_document",
                owner=payee.name,
            )
        request = dict(review.request)
        request["creditorDocument"] = payee.document
        return replace(
            review, payee_name=payee.name, payee_document=payee.document, request=request
        )

    async def prepare_qrc(
        self,
        payload: str,
        amount: Decimal | str | None = None,
        *,
        description: str = "",
        flow: PaymentFlow = PaymentFlow.INSTANT,
    ) -> PayoutReview:
        """A payout of a BR Code ("Pix copia e cola"): payee and amount read from the code.
        A dynamic code without an amount has its charge read (the signed payload at its
        location, through ``read_charge``): an amount the charge does not allow is refused
        here, before anything is journaled or sent; left out, the amount is the charge's."""
        code = read_payment_code(payload)
        charge = await self._charge_of(code)
        if code.amount is not None:
            value = _amount(code.amount)  # the code's amount meets the same checks as a typed one
            if amount is not None and _amount(amount) != value:
                raise PayoutInputError("payout.code_amount_differs", field="amount", amount=value)
        elif charge is not None:
            value = _amount(charge.amount) if amount is None else _amount(amount)
            if not charge.changeable and value != charge.amount:
                raise PayoutInputError(
                    "payout.charge_amount_differs", field="amount", amount=charge.amount
                )
        elif amount is None:
            raise PayoutInputError("payout.code_without_amount", field="amount")
        else:
            value = _amount(amount)
        text = _description(description)
        body = PixQrCodePaymentRequest(
            qr_code=code.payload,
            payment=None
            if code.amount is not None
            else PaymentAmount(currency="BRL", amount=value),
            description=text or None,
            payment_flow=flow,
        )
        warnings = []
        if code.is_dynamic:
            warnings.append(Reason("payout.dynamic_code"))
        return await self.look_up(
            self._draft(
                EntryKind.PIX_QRC,
                value,
                payee_name=code.merchant_name,
                payee_document="",
                payee_detail=code.key or code.url or code.payload[:60],
                description=text,
                flow=flow,
                request=body.to_wire(),
                brcode=code,
                extra_warnings=warnings,
            )
        )

    async def _charge_of(self, code: BrCode) -> ChargeAmount | None:
        """What the charge behind a dynamic code without an amount asks (``None``: a static
        code, no reader, or a charge that could not be read: the bank checks it alone)."""
        if self.read_charge is None or code.url is None or code.amount is not None:
            return None
        try:
            return await self.read_charge(code.url)
        except PayloadSignatureError:
            raise PayoutInputError("payout.charge_not_signed", field="payload") from None
        except (ApiFailure, ValueError) as error:  # ValueError: a location that is not HTTPS
            log.info("could not read the charge at %s: %s", code.url, error)
            return None

    def _draft_manual(
        self,
        *,
        ispb: str,
        branch: str,
        account: str,
        account_type: AccountType | str,
        document: str,
        name: str,
        amount: Decimal | str,
        description: str = "",
        flow: PaymentFlow = PaymentFlow.INSTANT,
    ) -> PayoutReview:
        for field_name, cell in (("ispb", ispb), ("account", account)):
            if is_scientific_notation(cell):
                raise PayoutInputError(
                    "payout.scientific_notation", field=field_name, value=cell.strip()
                )
        ispb = ispb.strip()
        if not _DIGITS.fullmatch(ispb) or len(ispb) != 8:
            raise PayoutInputError("payout.ispb_format", field="ispb")
        branch = branch.strip()
        if not _DIGITS.fullmatch(branch) or not 1 <= len(branch) <= 4:
            raise PayoutInputError("payout.branch_format", field="branch")
        number = account.strip().replace("-", "")
        if not _DIGITS.fullmatch(number) or not 1 <= len(number) <= 20:
            raise PayoutInputError("payout.account_format", field="account")
        try:
            kind_of_account = AccountType(str(account_type).strip().upper())
        except ValueError:
            raise PayoutInputError("payout.account_type", field="account_type") from None
        holder_document = _document(document, "document")
        holder = name.strip()
        if not holder:
            raise PayoutInputError("payout.holder_name_missing", field="name")
        value = _amount(amount)
        text = _description(description)
        body = PixManualPaymentRequest(
            creditor_account=ManualCreditorAccount(
                ispb=ispb,
                issuer=branch,
                number=number,
                account_type=kind_of_account,
                document=holder_document,
                name=holder,
            ),
            payment=PaymentAmount(currency="BRL", amount=value),
            description=text or None,
            payment_flow=flow,
        )
        return self._draft(
            EntryKind.PIX_MANU,
            value,
            payee_name=holder,
            payee_document=holder_document,
            payee_detail=f"{ispb}/{branch}/{number}",
            description=text,
            flow=flow,
            request=body.to_wire(),
        )

    @same_parameters_as(_draft_manual)
    async def prepare_manual(self, **kwargs: Any) -> PayoutReview:
        """A payout by bank data (ISPB, branch, account, type, holder's document and name)."""
        return await self.look_up(self._draft_manual(**kwargs))

    def _draft(
        self,
        kind: EntryKind,
        amount: Decimal,
        *,
        payee_name: str,
        payee_document: str,
        payee_detail: str,
        description: str,
        flow: PaymentFlow,
        request: dict[str, Any],
        key_type: PixKeyType | None = None,
        brcode: BrCode | None = None,
        extra_warnings: Sequence[Reason] = (),
    ) -> PayoutReview:
        """A review from the domain's checks alone: no journal read (any thread may call it);
        :meth:`look_up` adds what the journal knows."""
        warnings = list(extra_warnings)
        if flow == PaymentFlow.APPROVAL_REQUIRED:
            warnings.append(Reason("payout.waits_for_approval"))
        return PayoutReview(
            kind=kind,
            amount=amount,
            payee_name=payee_name,
            payee_document=payee_document,
            payee_detail=payee_detail,
            description=description,
            payment_flow=flow,
            request=request,
            key_type=key_type,
            brcode=brcode,
            warnings=tuple(warnings),
        )

    async def history_of(self, details: Sequence[str]) -> PayeeHistory:
        """What the journal knows of these payees, read at once (two queries per 500)."""
        journal = self.ledger.journal
        since = self.engine.clock() - RECENT_SINGLE_WINDOW
        recent: dict[str, list[Entry]] = {}
        for entry in await journal.payees_since(details, since):
            recent.setdefault(entry.payee_detail, []).append(entry)
        return PayeeHistory(
            {detail: tuple(entries) for detail, entries in recent.items()},
            await journal.last_named(details),
        )

    async def look_up(
        self, review: PayoutReview, history: PayeeHistory | None = None, *, first: int = 0
    ) -> PayoutReview:
        """The review with what the journal knows: payments to the same payee for the same
        amount in the last 24 hours (a warning, inserted after the first ``first`` warnings)
        and the last payment the bank named the payee in."""
        if history is None:
            history = await self.history_of([review.payee_detail])
        duplicates = history.duplicates(review.payee_detail, review.amount)
        named = history.named.get(review.payee_detail)
        if not duplicates and named is None and not review.duplicates and review.last_paid is None:
            return review  # nothing to add (most rows of a batch): no copy
        warnings = list(review.warnings)
        if duplicates:
            warnings.insert(
                first,
                Reason(
                    "payout.recent_duplicates", {"count": len(duplicates), "amount": review.amount}
                ),
            )
        return replace(
            review,
            warnings=tuple(warnings),
            duplicates=duplicates,
            last_paid=named,
        )

    # -- send --------------------------------------------------------------------------------

    async def send(self, review: PayoutReview, *, batch: str | None = None) -> Entry:
        """Journal, then send exactly once (the same review twice is one payment). A
        destination blocked in the payee registry is refused before anything is journaled."""
        if batch is None:
            await self.refuse_blocked([review])
        return await self.engine.submit(review.new_entry(batch=batch))

    async def refuse_blocked(self, reviews: Sequence[PayoutReview]) -> None:
        """Raise :class:`PayoutInputError` ``registry.blocked`` (the first such key or
        account, and its payee) when any of ``reviews`` pays a destination
        blocked in the registry: on a single desktop as in a team database, which refuses
        it too (``team.destination_blocked``), nothing is journaled."""
        details = [review.payee_detail for review in reviews if review.kind in _REGISTERED]
        if not details:
            return
        found = await self.ledger.payees.by_details(details)
        for review in reviews:
            destination = found.get(review.payee_detail)
            if destination is None or destination.state is not DestinationState.BLOCKED:
                continue
            owner = await self.ledger.payees.payee(destination.payee_id)
            raise PayoutInputError(
                "registry.blocked",
                field="key" if review.kind is not EntryKind.PIX_MANU else "account",
                detail=review.payee_detail,
                owner=owner.name if owner is not None else "",
            )

    # -- batches -----------------------------------------------------------------------------

    async def parse_batch_csv(self, text: str, *, file_sha256: str | None = None) -> PayoutBatch:
        """Read every row; return the reviews and every bad row (line number, column).
        ``file_sha256`` is the SHA-256 of the file as read (to recognise it if sent again)."""
        return await self.with_history(self.read_batch_csv(text, file_sha256=file_sha256))

    def read_batch_csv(
        self,
        text: str,
        *,
        file_sha256: str | None = None,
        control: ReadControl | None = None,
    ) -> PayoutBatch:
        """The first half of :meth:`parse_batch_csv`, without the journal: any thread may
        run it (a window runs it in a worker, ``control`` reporting progress and taking a
        Cancel). Raises :class:`~treasury_app.services.csv_input.ReadCancelled`."""
        batch = parse_batch_csv(text, self, control=control)
        return replace(batch, file_sha256=file_sha256) if file_sha256 else batch

    async def with_history(self, batch: PayoutBatch) -> PayoutBatch:
        """The second half of :meth:`parse_batch_csv`, on the event loop: each row's
        recent payments to the same payee, and a row repeating an earlier row of the file."""
        history = await self.history_of([row.review.payee_detail for row in batch.rows])
        registered = await self.ledger.payees.by_details(
            row.review.payee_detail for row in batch.rows if row.review.kind == EntryKind.PIX_KEY
        )
        rows = []
        for row in batch.rows:
            review = row.review
            if review.payee_detail in registered and not review.payee_document:
                review = await self.with_registry(review)  # no document typed: none differs
                row = replace(row, review=review)
            if row.repeats is None and not history.knows(review.payee_detail):
                rows.append(row)
                continue
            if row.repeats is not None:
                review = replace(
                    review,
                    warnings=(
                        Reason("payout.repeats_line", {"line": row.repeats}),
                        *review.warnings,
                    ),
                )
            rows.append(
                replace(
                    row,
                    review=await self.look_up(review, history, first=int(row.repeats is not None)),
                )
            )
        return replace(batch, rows=tuple(rows))

    async def earlier_batches(self, batch: PayoutBatch) -> tuple[BatchRecord, ...]:
        """Batches sent within the duplicate window with the same rows (payees and amounts)
        or from the same file, newest first (itself excluded)."""
        since = self.engine.clock() - self.duplicate_window
        found = await self.ledger.batches.matching(
            signature=batch.signature, file_sha256=batch.file_sha256, since=since
        )
        return tuple(record for record in found if record.id != batch.batch_id)

    def recent_single_payments(self, row: BatchRow) -> tuple[Entry, ...]:
        """Payments outside any batch to this row's payee, for its amount, in the last 24
        hours (not refused), as the row's review found them."""
        return tuple(entry for entry in row.review.duplicates if entry.batch is None)

    async def send_batch(
        self,
        batch: PayoutBatch,
        *,
        concurrency: int = 4,
        drop_invalid: bool = False,
        send_again: bool = False,
        label: str = "",
        progress: Callable[[int, int, Entry], None] | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> list[Entry]:
        """Send every row of a batch with at most ``concurrency`` payments in flight.

        Nothing is sent while the batch has bad rows, unless ``drop_invalid`` (the person chose
        to leave them out), nor when it matches a batch sent within the duplicate window
        (:meth:`earlier_batches`), unless ``send_again`` (the person chose to pay it again).
        Each row is its own journal entry, tagged with the batch id. ``should_stop`` is asked
        as each row's turn comes: once it is true, rows not started are skipped (never
        journaled) and rows already on their way finish. Returns what was sent.
        """
        if batch.errors and not drop_invalid:
            raise PayoutInputError(
                "payout.batch_has_errors", field="batch", count=len(batch.errors)
            )
        await self.refuse_blocked([row.review for row in batch.rows])
        earlier = await self.earlier_batches(batch)
        if earlier and not send_again:
            raise DuplicateBatchError(earlier, batch)
        await self.ledger.batches.record(
            batch.batch_id,
            signature=batch.signature,
            rows=len(batch.rows),
            total=batch.total,
            file_sha256=batch.file_sha256,
            label=" ".join(label.split())[:80],
        )
        await self.ledger.audit.record(
            "payout.batch",
            "started",
            reference=batch.batch_id,
            amount=batch.total,
            details={
                "rows": len(batch.rows),
                "dropped": len(batch.errors),
                "file_sha256": batch.file_sha256,
                "sent_again_after": [record.id for record in earlier],
            },
        )
        semaphore = asyncio.Semaphore(max(1, concurrency))
        done = 0
        skipped = 0
        results: list[Entry | None] = [None] * len(batch.rows)

        async def one(index: int, review: PayoutReview) -> None:
            nonlocal done, skipped
            async with semaphore:
                # Asked once the row holds a slot, so a stop never waits behind queued rows.
                if should_stop is not None and should_stop():
                    skipped += 1
                    return
                entry = await self.send(review, batch=batch.batch_id)
            results[index] = entry
            done += 1
            if progress is not None:
                progress(done, len(batch.rows), entry)

        await asyncio.gather(*(one(i, row.review) for i, row in enumerate(batch.rows)))
        entries = [entry for entry in results if entry is not None]
        await self.ledger.audit.record(
            "payout.batch",
            "stopped" if skipped else "sent",
            reference=batch.batch_id,
            amount=sum((e.amount for e in entries), Decimal("0.00")),
            details={
                "rows": len(entries),
                "skipped": skipped,
                "states": {
                    s: sum(1 for e in entries if e.state == s) for s in {e.state for e in entries}
                },
            },
        )
        return entries


@dataclass(frozen=True)
class PayeeHistory:
    """What the journal knows of some payees: payments (not refused) in the last 24 hours,
    newest first, and the newest payment the bank named the payee in."""

    recent: Mapping[str, tuple[Entry, ...]]
    named: Mapping[str, Entry]

    def knows(self, payee_detail: str) -> bool:
        return payee_detail in self.recent or payee_detail in self.named

    def duplicates(self, payee_detail: str, amount: Decimal) -> tuple[Entry, ...]:
        return tuple(e for e in self.recent.get(payee_detail, ()) if e.amount == amount)


@dataclass(frozen=True)
class BatchRow:
    line: int
    review: PayoutReview
    repeats: int | None = None  # an earlier line of the file with the same payee and amount


@dataclass(frozen=True)
class RowError:
    """Why the row on ``line`` (its ``column``, or ``row``/``header``) is refused."""

    line: int
    column: str
    reason: Reason

    def __str__(self) -> str:  # for logs: the reason's code, never a sentence
        return f"line {self.line}, {self.column}: {self.reason}"


@dataclass(frozen=True)
class PayoutBatch:
    rows: tuple[BatchRow, ...]
    errors: tuple[RowError, ...]
    batch_id: str = field(default_factory=lambda: "B" + new_idempotency_key()[:20])
    file_sha256: str | None = None
    empty: bool = False
    """The file has no payment rows (nothing at all, or only its header): its one error says
    so, and it is no row's."""

    @property
    def row_errors(self) -> tuple[RowError, ...]:
        """The errors of data rows (line 2 on); the header's, or an empty file's, are the
        file's, not a row's."""
        return () if self.empty else tuple(e for e in self.errors if e.line > 1)

    @property
    def total(self) -> Decimal:
        return sum((row.review.amount for row in self.rows), Decimal("0.00"))

    @property
    def valid(self) -> bool:
        return not self.errors and bool(self.rows)

    @property
    def signature(self) -> str:
        """SHA-256 of the rows' payees and amounts, in any order: two files that pay the same
        people the same amounts have the same signature."""
        lines = sorted(f"{row.review.payee_detail}\t{row.review.amount}" for row in self.rows)
        return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


def journal_time(stamp: str) -> str:
    """A ledger timestamp (UTC, ISO) as ``dd/mm/yyyy hh:mm`` in Brasília (the one formatter)."""
    return format_instant(stamp)


class DuplicateBatchError(PayoutInputError):
    """The batch matches one sent within the duplicate window; nothing was sent."""

    def __init__(self, earlier: tuple[BatchRecord, ...], batch: PayoutBatch) -> None:
        last = earlier[0]
        same_file = batch.file_sha256 is not None and last.file_sha256 == batch.file_sha256
        super().__init__(
            "payout.batch_sent_same_file" if same_file else "payout.batch_sent_same_payees",
            field="batch",
            sent_at=datetime.fromisoformat(last.created_at.replace("Z", "+00:00")),
            rows=last.rows,
            total=last.total,
        )
        self.earlier = earlier
        self.title = "Batch already sent"


_ALIASES = {
    "chave": "key",
    "key": "key",
    "valor": "amount",
    "amount": "amount",
    "descricao": "description",
    "descrição": "description",
    "description": "description",
    "documento_favorecido": "creditor_document",
    "creditor_document": "creditor_document",
    "ispb": "ispb",
    "agencia": "branch",
    "agência": "branch",
    "branch": "branch",
    "conta": "account",
    "account": "account",
    "tipo_conta": "account_type",
    "account_type": "account_type",
    "documento": "document",
    "document": "document",
    "nome": "name",
    "name": "name",
    "data_pagamento": "pay_date",
    "data": "pay_date",
    "pay_date": "pay_date",
    "date": "pay_date",
}
_BANK_COLUMNS = ("ispb", "branch", "account", "account_type", "document", "name")


def parse_batch_csv(
    text: str, service: PayoutsService, *, control: ReadControl | None = None
) -> PayoutBatch:
    """Parse a payout batch (see the module's docstring for the columns), without reading the
    journal (:meth:`PayoutsService.with_history` does). At most :data:`MAX_ROWS` rows."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0].split("\r", 1)[0]
    if not first.strip():
        return PayoutBatch((), (RowError(1, "header", Reason("payout.file_empty")),), empty=True)
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    records = csv_records(text, delimiter, control=control)
    head = next(records)
    if isinstance(head, CsvLineError):
        return PayoutBatch((), (RowError(1, "header", head.reason),))
    header = [_ALIASES.get(name.strip().lower(), name.strip().lower()) for name in head.cells]
    errors: list[RowError] = []
    # An unnamed column (a trailing separator, as spreadsheets often write) is ignored.
    unknown = [name for name in header if name and name not in set(_ALIASES.values())]
    if unknown:
        errors.append(RowError(1, ", ".join(unknown), Reason("payout.unknown_columns")))
    has_key = "key" in header
    has_bank = all(column in header for column in _BANK_COLUMNS)
    if "amount" not in header:
        errors.append(RowError(1, "valor", Reason("payout.amount_column_missing")))
    if not has_key and not has_bank:
        errors.append(RowError(1, "chave", Reason("payout.payee_columns_missing")))
    if errors:
        return PayoutBatch((), tuple(errors))
    rows: list[BatchRow] = []
    # The bank's date, for a pay date column (a file without one needs no clock).
    today = brasilia_today(service.engine.business_clock) if "pay_date" in header else None
    first_line: dict[tuple[str, Decimal], int] = {}
    data_rows = 0
    for record in records:
        if isinstance(record, CsvLineError) and record.whole_file:
            # A quote left open swallowed the lines after it: no row of the file is trusted.
            return PayoutBatch((), (RowError(record.line, "row", record.reason),))
        line = record.line
        if isinstance(record, CsvLineError):
            cells = None
        else:
            cells = record.cells
            if not any(cell.strip() for cell in cells):
                continue
        data_rows += 1  # a line that cannot be read counts too: the cap bounds the errors
        if data_rows > MAX_ROWS:
            reason = Reason(
                "payout.too_many_rows", {"max": MAX_ROWS, "line": line, "payment": MAX_ROWS + 1}
            )
            return PayoutBatch((), (RowError(line, "row", reason),))
        if len(errors) > MAX_LINE_ERRORS:
            return _too_many_errors(errors)
        if isinstance(record, CsvLineError):
            errors.append(RowError(line, "row", record.reason))
            continue
        assert cells is not None
        if len(cells) != len(header):
            reason = Reason("payout.column_count", {"expected": len(header), "found": len(cells)})
            errors.append(RowError(line, "row", reason))
            continue
        values = dict(zip(header, (cell.strip() for cell in cells), strict=True))
        try:
            if has_key and values.get("key"):
                review = service._draft_key(
                    values["key"],
                    values.get("amount", ""),
                    description=values.get("description", ""),
                    creditor_document=values.get("creditor_document") or None,
                )
            elif has_bank:
                ispb = excel_padded(values["ispb"], 8)
                branch = excel_padded(values["branch"], 4)
                review = service._draft_manual(
                    ispb=ispb,
                    branch=branch,
                    account=values["account"],
                    account_type=values["account_type"],
                    document=values["document"],
                    name=values["name"],
                    amount=values.get("amount", ""),
                    description=values.get("description", ""),
                )
                padded = _padding_warnings(values["ispb"], ispb, values["branch"], branch)
                if padded:
                    review = replace(review, warnings=(*review.warnings, *padded))
            else:
                raise PayoutInputError("payout.key_empty", field="key")
            if values.get("pay_date") and today is not None:
                pay = row_pay_date(values["pay_date"], today, service.calendar)
                review = replace(review, pay=pay)
        except PayoutInputError as error:
            errors.append(RowError(line, _column_name(error.field or "row"), error.reason))
            continue
        same = first_line.setdefault((review.payee_detail, review.amount), line)
        # The journal cannot know it yet: the file repeats a payment.
        rows.append(BatchRow(line, review, same if same != line else None))
    if len(errors) > MAX_LINE_ERRORS:
        return _too_many_errors(errors)
    if not rows and not errors:
        error = RowError(2, "row", Reason("payout.no_payments"))
        return PayoutBatch((), (error,), empty=True)
    return PayoutBatch(tuple(rows), tuple(errors))


_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
_TYPED_DATE = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def row_pay_date(text: str, today: date, calendar: BusinessCalendar) -> PayDate:
    """A row's pay date (``dd/mm/aaaa``, or ``aaaa-mm-dd`` as machines write it), rolled
    forward to a business day; else :class:`PayoutInputError` on ``pay_date``: not written as
    a date (``payout.date_format``), a day that does not exist (``payout.date_no_such_day``),
    passed (``schedule.past``)."""
    typed = text.strip()
    iso = _ISO_DATE.fullmatch(typed)
    found = _TYPED_DATE.fullmatch(typed)
    if iso is not None:
        year, month, day = (int(part) for part in iso.groups())
    elif found is not None:
        day, month, year = (int(part) for part in found.groups())
    else:
        raise PayoutInputError("payout.date_format", field="pay_date", typed=typed)
    try:
        asked = date(year, month, day)
    except ValueError:
        raise PayoutInputError("payout.date_no_such_day", field="pay_date", typed=typed) from None
    try:
        return pay_date(asked, today=today, calendar=calendar)
    except ScheduleError as error:
        raise _refused(error, "pay_date") from None


def _too_many_errors(errors: list[RowError]) -> PayoutBatch:
    """The file refused whole: its first errors and why the list stops there (no row: nothing
    may be "left out" and sent)."""
    last = RowError(errors[MAX_LINE_ERRORS].line, "row", TOO_MANY_ERRORS)
    return PayoutBatch((), (*errors[:MAX_LINE_ERRORS], last))


def _padding_warnings(ispb: str, padded_ispb: str, branch: str, padded_branch: str) -> list[Reason]:
    """What :func:`excel_padded` changed, for the person to check: an ISPB typed as a bank's
    3-digit code (``208``) is padded into another bank's ISPB (``00000208``)."""
    warnings = []
    if padded_ispb != ispb.strip():
        warnings.append(
            Reason("payout.ispb_padded", {"typed": ispb.strip(), "padded": padded_ispb})
        )
    if padded_branch != branch.strip():
        warnings.append(
            Reason("payout.branch_padded", {"typed": branch.strip(), "padded": padded_branch})
        )
    return warnings


def excel_padded(text: str, width: int) -> str:
    """``text`` left-padded with zeros to ``width`` when it is 1 to ``width - 1`` digits and
    nothing else: Excel stores an ISPB (``00360305``) or a branch (``0001``) as a number and
    drops its leading zeros. Anything else is left for the checks to refuse."""
    text = text.strip()
    if _DIGITS.fullmatch(text) and len(text) < width:
        return text.zfill(width)
    return text


_COLUMN_NAMES = {
    "key": "chave",
    "amount": "valor",
    "description": "descricao",
    "creditor_document": "documento_favorecido",
    "branch": "agencia",
    "account": "conta",
    "account_type": "tipo_conta",
    "document": "documento",
    "name": "nome",
    "ispb": "ispb",
    "pay_date": "data_pagamento",
}


def _column_name(field_name: str) -> str:
    return _COLUMN_NAMES.get(field_name, field_name)
