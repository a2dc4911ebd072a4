"""BilletsService against a sandbox bank of its own (real mutual TLS): the review of every
seeded slip (beneficiary, due date, original and updated amount, charges, warnings), slips that
cannot be paid (free value, malformed line), paying exactly once, following the payment to
LIQUIDATED with the tracker, the receipt archived once and read back locally, and a slip past
its limit refused by the bank.

The sandbox clock starts on Wednesday 2026-11-18 at 10:00 in Brasília (the slip cut-off is
20:00); this module moves it a few seconds. Each seeded slip is paid at most once here."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.conftest import module_sandbox
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.errors import BusinessRuleViolation
from treasury_app.api.transport import ApiTransport
from treasury_app.domain import boleto
from treasury_app.domain.clock import Clock
from treasury_app.domain.errors import Reason
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.billets import (
    BilletAlreadyPaid,
    BilletInputError,
    BilletReview,
    BilletsService,
)
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.tracker import PaymentTracker
from treasury_app.ui.rule_words import rule_text

TODAY = dt.date(2026, 11, 18)  # the sandbox's date in Brasília
RENT = "Aluguel do escritório"  # due in 5 days
DUE_TODAY = "Energia elétrica"
LATE = "Vencido há 10 dias (com multa)"
TOO_LATE = "Vencido além do prazo"
FREE = "Valor livre (doação)"
SOFTWARE = "Assinatura de software"  # due in 30 days

pytestmark = pytest.mark.usefixtures("clean_sandbox")


@pytest.fixture(scope="module")
def sandbox(
    tmp_path_factory: pytest.TempPathFactory, ledger_backend: str
) -> Iterator[RunningSandbox]:
    """One bank per ledger backend: the tests pay its slips and move its clock."""
    yield from module_sandbox(tmp_path_factory, f"{Path(__file__).stem}-{ledger_backend}")


@pytest.fixture(scope="module")
def slips(control: Api) -> dict[str, dict[str, Any]]:
    return control.slips()


@pytest.fixture
def engine(accounts_transport: ApiTransport, ledger: Ledger) -> PaymentEngine:
    return PaymentEngine(AccountsClient(accounts_transport), ledger)


@pytest.fixture
def billets(engine: PaymentEngine, ledger: Ledger, bank_clock: Clock) -> BilletsService:
    return BilletsService(engine, engine.accounts, ledger, clock=bank_clock)


# --------------------------------------------------------------------------------------------
# lookup


@pytest.mark.parametrize(
    ("label", "due", "original", "updated", "overdue"),
    [
        (RENT, dt.date(2026, 11, 23), "1530.75", "1530.75", False),
        (DUE_TODAY, TODAY, "845.32", "845.32", False),
        (LATE, dt.date(2026, 11, 8), "2200.00", "2251.33", True),  # 2 % + 1 % a month × 10 days
        (TOO_LATE, dt.date(2026, 8, 20), "640.00", "672.00", True),
        (SOFTWARE, dt.date(2026, 12, 18), "99.99", "99.99", False),
    ],
)
async def test_lookup_of_a_seeded_slip(
    label: str,
    due: dt.date,
    original: str,
    updated: str,
    overdue: bool,
    billets: BilletsService,
    slips: dict[str, dict[str, Any]],
    accounts_transport: ApiTransport,
    ledger: Ledger,
) -> None:
    slip = slips[label]
    before = accounts_transport.stats.requests
    # As a person types it: the digitable line with its usual punctuation.
    line = slip["digitableCode"]
    typed = f"{line[:5]}.{line[5:10]} {line[10:15]}.{line[15:21]} {line[21:26]}.{line[26:32]} "
    review = await billets.lookup(typed + f"{line[32]} {line[33:]}", description=" Pagamento ")
    assert accounts_transport.stats.requests == before + 1  # one billets/info
    assert review.barcode == slip["barcode"] and review.digitable_line == line
    assert review.beneficiary_name == slip["beneficiary"]["name"]
    assert review.beneficiary_document == slip["beneficiary"]["document"]
    assert review.beneficiary_name and review.beneficiary_document
    assert review.due_date == due
    assert review.original_amount == Decimal(original)
    assert review.amount == Decimal(updated) == review.info.total_updated
    assert review.charges == review.amount - review.original_amount
    assert review.charges == (
        (review.info.fine or 0) + (review.info.interest or 0) - (review.info.discount or 0)
    )
    assert isinstance(review.amount, Decimal) and isinstance(review.charges, Decimal)
    assert review.description == "Pagamento"
    overdue_warnings = [w for w in review.warnings if w.code.startswith("billet.overdue")]
    assert bool(overdue_warnings) == overdue, review.warnings
    if overdue:
        assert overdue_warnings[0].params["since"] == due
    limit_warnings = [w for w in review.warnings if w.code == "billet.past_payment_limit"]
    assert bool(limit_warnings) == (label == TOO_LATE), review.warnings
    assert await ledger.journal.recent() == []  # a lookup journals nothing


async def test_lookup_of_the_overdue_slip_itemises_the_charges(
    billets: BilletsService, slips: dict[str, dict[str, Any]]
) -> None:
    review = await billets.lookup(slips[LATE]["barcode"], today=TODAY)
    assert (review.info.fine, review.info.interest) == (Decimal("44.00"), Decimal("7.33"))
    assert review.info.days_late == 10
    assert review.charges == Decimal("51.33")
    assert review.warnings == (
        Reason(
            "billet.overdue",
            {
                "since": dt.date(2026, 11, 8),
                "total": Decimal("2251.33"),
                "charges": Decimal("51.33"),
            },
        ),
    )


async def test_a_free_value_slip_cannot_be_paid(
    billets: BilletsService, slips: dict[str, dict[str, Any]], ledger: Ledger
) -> None:
    with pytest.raises(BilletInputError) as refused:
        await billets.lookup(slips[FREE]["digitableCode"])
    assert (refused.value.field, refused.value.code) == ("code", "billet.payer_sets_amount")
    assert await ledger.journal.recent() == []


@pytest.mark.parametrize(
    ("code", "field", "description"),
    [
        ("123", "code", ""),
        ("not a slip line at all", "code", ""),
        ("2379" + "0" * 43, "code", ""),  # 47 digits, wrong check digits
        ("", "code", ""),
        (None, "description", "x" * 141),
    ],
    ids=["short", "letters", "check digits", "empty", "long description"],
)
async def test_a_bad_line_or_description_is_refused_without_a_request(
    code: str | None,
    field: str,
    description: str,
    billets: BilletsService,
    slips: dict[str, dict[str, Any]],
    accounts_transport: ApiTransport,
) -> None:
    if code is None:
        code = slips[RENT]["digitableCode"]
    else:
        with pytest.raises(boleto.BoletoError):
            boleto.barcode_of(code)
    before = accounts_transport.stats.requests
    with pytest.raises(BilletInputError) as refused:
        await billets.lookup(code, description=description)
    assert refused.value.field == field and refused.value.code
    assert accounts_transport.stats.requests == before


# --------------------------------------------------------------------------------------------
# pay, follow, receipt


async def test_pay_follow_to_liquidated_and_archive_the_receipt(
    billets: BilletsService,
    engine: PaymentEngine,
    ledger: Ledger,
    control: Api,
    slips: dict[str, dict[str, Any]],
    accounts_transport: ApiTransport,
) -> None:
    before = control.balance()
    review = await billets.lookup(slips[RENT]["digitableCode"], description="Aluguel")
    entry = await billets.pay(review)
    assert entry.state == EntryState.ACCEPTED and entry.bank_status == "ON_QUEUE"
    assert not entry.final and entry.bank_id and entry.end_to_end_id is None
    assert entry.kind == EntryKind.BILLET and entry.amount == Decimal("1530.75")
    assert entry.payee_name == review.beneficiary_name and entry.payee_detail == review.barcode
    assert entry.idempotency_key == review.idempotency_key
    assert entry.request()["payment"]["amount"] == Decimal("1530.75")
    assert control.balance() == before - Decimal("1530.75")
    bank = await engine.accounts.get_billet(entry.bank_id)
    assert bank.idempotency_key == review.idempotency_key and bank.barcode == review.barcode
    (audit,) = await ledger.audit.entries(action="billet.pay")
    assert audit.outcome == "accepted" and audit.amount == Decimal("1530.75")

    tracker = PaymentTracker(engine)
    with pytest.raises(BusinessRuleViolation):  # no receipt before liquidation (422)
        await billets.receipt(entry)
    assert await tracker.poll_once() == []  # still ON_QUEUE on the bank's clock
    assert await ledger.receipts.all() == []

    control.advance(4.5)
    (changed,) = await tracker.poll_once()
    assert changed.id == entry.id
    assert changed.bank_status == "LIQUIDATED" and changed.final
    assert await ledger.journal.open_entries() == []
    (stored,) = await ledger.receipts.all()
    assert stored.entry_id == entry.id and (stored.kind, stored.bank_id) == (
        "BILLET",
        entry.bank_id,
    )
    assert stored.amount == Decimal("1530.75") and stored.payee_name == review.beneficiary_name
    pdf = await ledger.receipts.read(stored)
    assert pdf.startswith(b"%PDF") and stored.size == len(pdf)

    requests = accounts_transport.stats.requests
    again = await billets.receipt(changed)  # from the archive: no second request
    assert again == stored and await ledger.receipts.read(again) == pdf
    assert await tracker.poll_once() == []  # nothing open; the receipt is not fetched again
    assert accounts_transport.stats.requests == requests
    assert len(await ledger.receipts.all()) == 1
    assert [a.outcome for a in await ledger.audit.entries(action="receipt.save")] == ["ok"]
    assert control.balance() == before - Decimal("1530.75")


async def test_only_an_accepted_slip_payment_has_a_receipt(
    billets: BilletsService, ledger: Ledger
) -> None:
    pix = await ledger.journal.create(
        NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal("1.00"),
            idempotency_key=new_idempotency_key(),
            request={},
        )
    )
    await ledger.journal.update(pix.id, EntryState.SENT, note="sending")
    pix = await ledger.journal.update(
        pix.id, EntryState.ACCEPTED, bank_status="SETTLED", bank_id="9"
    )
    with pytest.raises(BilletInputError) as refused:
        await billets.receipt(pix)
    assert refused.value.field == "entry"


async def test_the_receipt_is_fetched_once_by_the_service_too(
    billets: BilletsService,
    engine: PaymentEngine,
    ledger: Ledger,
    control: Api,
    slips: dict[str, dict[str, Any]],
    accounts_transport: ApiTransport,
) -> None:
    review = await billets.lookup(slips[SOFTWARE]["barcode"])
    entry = await billets.pay(review)
    control.advance(4.5)
    entry = await engine.refresh(entry)
    assert entry.bank_status == "LIQUIDATED" and entry.final
    requests = accounts_transport.stats.requests
    receipt = await billets.receipt(entry)
    assert accounts_transport.stats.requests == requests + 1
    assert (await ledger.receipts.read(receipt)).startswith(b"%PDF")
    assert await billets.receipt(entry) == receipt
    assert await PaymentTracker(engine).fetch_missing_receipts() == []  # archived already
    assert accounts_transport.stats.requests == requests + 1


async def test_the_same_review_paid_twice_is_one_payment(
    billets: BilletsService, ledger: Ledger, control: Api, slips: dict[str, dict[str, Any]]
) -> None:
    before = control.balance()
    review = await billets.lookup(slips[DUE_TODAY]["digitableCode"])
    first, second = await asyncio.gather(billets.pay(review), billets.pay(review))
    third = await billets.pay(review)
    assert first.id == second.id == third.id
    assert (await ledger.journal.get(first.id)).state == EntryState.ACCEPTED
    assert len(await ledger.journal.recent()) == 1
    assert control.balance() == before - Decimal("845.32")
    # A new lookup of the paid slip is a hard stop naming the payment just made.
    with pytest.raises(BilletAlreadyPaid, match=r"billet\.already_sent") as stop:
        await billets.lookup(slips[DUE_TODAY]["digitableCode"])
    assert "R$ 845,32" in rule_text(stop.value) and stop.value.field == "code"
    assert [d.id for d in stop.value.earlier] == [first.id]
    # A second review made before the first was paid cannot pay it either.
    other = BilletReview(
        barcode=review.barcode,
        digitable_line=review.digitable_line,
        info=review.info,
        amount=review.amount,
    )
    requests = len(await ledger.journal.recent())
    with pytest.raises(BilletAlreadyPaid):
        await billets.pay(other)
    assert len(await ledger.journal.recent()) == requests
    assert control.balance() == before - Decimal("845.32")


async def test_an_earlier_payment_of_the_slip_stops_whatever_its_amount(
    billets: BilletsService, ledger: Ledger, slips: dict[str, dict[str, Any]]
) -> None:
    """Yesterday's payment had yesterday's interest: the slip is the same debt."""
    barcode = slips[LATE]["barcode"]

    async def paid_before(outcome: EntryState, **answer: Any) -> Entry:
        entry = await ledger.journal.create(
            NewEntry(
                kind=EntryKind.BILLET,
                amount=Decimal("2250.60"),
                idempotency_key=new_idempotency_key(),
                request={},
                payee_detail=barcode,
            )
        )
        await ledger.journal.update(entry.id, EntryState.SENT, note="sending")
        return await ledger.journal.update(entry.id, outcome, final=True, **answer)

    # A refused or failed payment is no payment.
    await paid_before(EntryState.REJECTED, error="422: refused")
    assert (await billets.lookup(barcode)).duplicates == ()
    await paid_before(EntryState.ACCEPTED, bank_status="CANCELED")
    assert (await billets.lookup(barcode)).amount == Decimal("2251.33")
    earlier = await paid_before(EntryState.ACCEPTED, bank_status="LIQUIDATED")
    with pytest.raises(BilletAlreadyPaid, match=r"billet\.already_paid") as stop:
        await billets.lookup(barcode)
    assert [d.id for d in stop.value.earlier] == [earlier.id]
    assert "R$ 2.250,60" in rule_text(stop.value)


async def test_an_overdue_slip_is_paid_with_its_charges(
    billets: BilletsService, control: Api, slips: dict[str, dict[str, Any]]
) -> None:
    before = control.balance()
    review = await billets.lookup(slips[LATE]["digitableCode"])
    entry = await billets.pay(review)
    assert entry.state == EntryState.ACCEPTED and entry.amount == Decimal("2251.33")
    assert control.balance() == before - Decimal("2251.33")


async def test_a_slip_beyond_its_limit_is_refused_by_the_bank(
    billets: BilletsService,
    engine: PaymentEngine,
    ledger: Ledger,
    control: Api,
    slips: dict[str, dict[str, Any]],
) -> None:
    before = control.balance()
    review = await billets.lookup(slips[TOO_LATE]["digitableCode"])
    assert isinstance(review, BilletReview) and review.warnings
    entry = await billets.pay(review)
    assert entry.state == EntryState.REJECTED and entry.final
    assert "422" in (entry.error or "") and entry.bank_id is None
    assert control.balance() == before
    assert await engine.resolve_pending() == []
    assert await PaymentTracker(engine).poll_once() == []
    (audit,) = await ledger.audit.entries(action="billet.pay")
    assert audit.outcome == "rejected"
    with pytest.raises(BilletInputError):  # no receipt for a refused payment
        await billets.receipt(entry)
    assert (await billets.lookup(slips[TOO_LATE]["barcode"])).duplicates == ()
