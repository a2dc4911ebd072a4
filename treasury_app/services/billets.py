"""Boletos: look a slip up, review it, pay it exactly once, follow it, keep its receipt.

The recommended flow of the spec: ``info`` (beneficiary, due date, updated amount with fine
and interest), pay the *updated* amount, follow the status until LIQUIDATED, fetch the
receipt PDF and archive it locally. Slips whose value the payer may change freely cannot be
paid through this API: :meth:`BilletsService.lookup` says so before anything is sent.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal

from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import BilletInfo, is_failed_status
from treasury_app.domain import boleto
from treasury_app.domain.clock import Clock, brasilia_today
from treasury_app.domain.errors import DomainError, Reason, RuleError
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.domain.schedule import PayDate
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.ledger.receipts import Receipt
from treasury_app.services.payments import PaymentEngine

MAX_DESCRIPTION = 140


def is_overdue(info: BilletInfo, today: date) -> bool:
    """Whether the slip is past due on ``today`` (a Brasília business date).

    The bank's own count of days late decides (its date, and a due date on a weekend or
    holiday moved to the next business day); the local date only when it gives none."""
    if info.days_late is not None:
        return info.days_late > 0
    return info.due_date is not None and info.due_date < today


class BilletInputError(RuleError):
    """The slip cannot be paid as given: a code, its parameters and ``field`` (the form's)."""


class BilletAlreadyPaid(BilletInputError):
    """The slip was paid (or is being paid) already: a hard stop, not a warning. A slip is one
    debt; the bank refuses a second payment anyway (422). ``earlier`` are those payments,
    newest first: the person opens the earlier one's receipt instead."""

    def __init__(self, earlier: tuple[Entry, ...]) -> None:
        last = earlier[0]
        moment = datetime.fromisoformat(last.created_at.replace("Z", "+00:00"))
        code = "billet.already_paid" if last.final and last.bank_status else "billet.already_sent"
        super().__init__(code, field="code", at=moment, amount=last.amount)
        self.title = "Slip already paid"
        self.earlier = earlier


@dataclass(frozen=True)
class BilletReview:
    """What the person confirms before paying a slip."""

    barcode: str
    digitable_line: str
    info: BilletInfo
    amount: Decimal  # the updated amount: what will be debited
    description: str = ""
    idempotency_key: str = field(default_factory=new_idempotency_key)
    warnings: tuple[Reason, ...] = ()
    duplicates: tuple[Entry, ...] = ()  # earlier payments of the same slip
    pay: PayDate | None = None
    """When it is paid (``services/schedule.py``: by default its due date, rolled forward to
    a business day); ``None``: now."""

    @property
    def beneficiary_name(self) -> str:
        beneficiary = self.info.beneficiary
        return (beneficiary.name or "") if beneficiary is not None else ""

    @property
    def beneficiary_document(self) -> str:
        beneficiary = self.info.beneficiary
        return (beneficiary.document or "") if beneficiary is not None else ""

    @property
    def due_date(self) -> date | None:
        return self.info.due_date

    @property
    def original_amount(self) -> Decimal | None:
        return self.info.original_amount

    @property
    def charges(self) -> Decimal:
        """Fine plus interest minus discount (what the due date added or removed)."""
        fine = self.info.fine or Decimal("0.00")
        interest = self.info.interest or Decimal("0.00")
        discount = self.info.discount or Decimal("0.00")
        return fine + interest - discount

    def new_entry(self) -> NewEntry:
        request = {
            "digitableCode": self.digitable_line,
            "payment": {"currency": "BRL", "amount": self.amount},
        }
        if self.description:
            request["description"] = self.description
        return NewEntry(
            kind=EntryKind.BILLET,
            amount=self.amount,
            idempotency_key=self.idempotency_key,
            request=request,
            payee_name=self.beneficiary_name,
            payee_document=self.beneficiary_document,
            payee_detail=self.barcode,
            description=self.description,
            pay_date=None if self.pay is None else self.pay.date,
        )


class BilletsService:
    """Look up, review, pay and follow slips.

    ``clock`` gives the current instant: a slip's due date and payment limit are compared with
    the Brasília date of the bank's clock (the sandbox's against the sandbox). No default."""

    def __init__(
        self, engine: PaymentEngine, accounts: AccountsClient, ledger: Ledger, *, clock: Clock
    ) -> None:
        self.engine = engine
        self.accounts = accounts
        self.ledger = ledger
        self._clock = clock

    def today(self) -> date:
        """The bank's date now (Brasília)."""
        return brasilia_today(self._clock)

    async def lookup(
        self, code: str, *, description: str = "", today: date | None = None
    ) -> BilletReview:
        """Check the line locally, then ask the bank (``billets/info``) for the slip."""
        try:
            parsed = boleto.parse(code, today=today or self.today())
        except DomainError as error:
            raise BilletInputError(error.code, field="code", **error.params) from None
        text = (description or "").strip()
        if len(text) > MAX_DESCRIPTION:
            raise BilletInputError(
                "billet.description_too_long", field="description", max=MAX_DESCRIPTION
            )
        info = await self.accounts.get_billet_info(parsed.barcode)
        if info.allow_change_value or info.total_updated is None:
            raise BilletInputError("billet.payer_sets_amount", field="code")
        if info.total_updated <= 0:
            raise BilletInputError("billet.nothing_to_pay", field="code")
        warnings = []
        today = today or self.today()
        if info.payment_limit_date is not None and info.payment_limit_date < today:
            warnings.append(Reason("billet.past_payment_limit", {"until": info.payment_limit_date}))
        if is_overdue(info, today) and info.due_date is not None:
            zero = Decimal("0.00")
            charges = (info.fine or zero) + (info.interest or zero) - (info.discount or zero)
            overdue = {"since": info.due_date, "total": info.total_updated}
            if charges > 0:
                warnings.append(Reason("billet.overdue", {**overdue, "charges": charges}))
            else:
                warnings.append(Reason("billet.overdue_no_charges", overdue))
        duplicates = await self._earlier_payments(parsed.barcode)
        if duplicates:
            raise BilletAlreadyPaid(tuple(duplicates))
        return BilletReview(
            barcode=parsed.barcode,
            digitable_line=parsed.digitable_line,
            info=info,
            amount=info.total_updated,
            description=text,
            warnings=tuple(warnings),
            duplicates=tuple(duplicates),
        )

    async def _earlier_payments(self, barcode: str) -> list[Entry]:
        """Journaled payments of this slip that were not refused, newest first. A slip is one
        debt: any earlier payment counts, whatever its amount (fine and interest grow daily)
        and however long ago."""
        return [
            entry
            for entry in await self.ledger.journal.recent(kinds=(EntryKind.BILLET,), limit=5000)
            if entry.payee_detail == barcode
            and entry.state != EntryState.REJECTED
            and not (entry.bank_status is not None and is_failed_status(entry.bank_status))
        ]

    async def pay(self, review: BilletReview) -> Entry:
        """Journal, then pay the updated amount exactly once. A slip paid meanwhile (another
        review, another desktop of the same ledger) is refused before anything is sent."""
        earlier = tuple(
            entry
            for entry in await self._earlier_payments(review.barcode)
            if entry.idempotency_key != review.idempotency_key
        )
        if earlier:
            raise BilletAlreadyPaid(earlier)
        return await self.engine.submit(review.new_entry())

    async def receipt(self, entry: Entry) -> Receipt:
        """The slip payment's receipt: from the local archive, or fetched once and archived."""
        if entry.kind != EntryKind.BILLET or entry.bank_id is None:
            raise BilletInputError("billet.not_a_slip_payment", field="entry")
        stored = await self.ledger.receipts.find("BILLET", entry.bank_id)
        if stored is not None:
            return stored
        pdf = await self.accounts.get_billet_receipt(entry.bank_id)
        receipt = await self.ledger.receipts.save(
            pdf,
            kind="BILLET",
            bank_id=entry.bank_id,
            entry_id=entry.id,
            payee_name=entry.payee_name,
            amount=entry.amount,
            paid_on=entry.updated_at[:10],
        )
        await self.ledger.audit.record(
            "receipt.save",
            "ok",
            reference=entry.bank_id,
            amount=entry.amount,
            details={"entry": entry.id, "kind": "BILLET", "sha256": receipt.sha256},
        )
        return receipt
