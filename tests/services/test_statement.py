"""StatementService against a real sandbox bank (its own, for this module) over mutual TLS:
balance, the statement page by page with its filters, totals, and the CSV export read back
with the csv module and compared as Decimals."""

from __future__ import annotations

import csv
import datetime as dt
import io
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from pathlib import Path

import pytest

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.services.accounts_fixtures import (
    control_of,
    running_bank,
    sandbox_today,
    sent,
    transport,
)
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.accounts.models import CreditDebitType, Transaction, TransactionType
from treasury_app.api.errors import Forbidden, NotFound
from treasury_app.api.transport import ApiTransport
from treasury_app.services.statement import (
    CSV_COLUMNS,
    BalanceView,
    StatementService,
    StatementSummary,
    csv_text,
    export_csv,
    summarize,
)

HISTORY_DAYS = 120  # the seeded history (90 days) and the opening entry, with room


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningSandbox]:
    with running_bank(tmp_path_factory.mktemp("statement-bank")) as running:
        yield running


@pytest.fixture(scope="module")
def control(sandbox: RunningSandbox) -> Iterator[Api]:
    with control_of(sandbox) as api:
        yield api


@pytest.fixture(scope="module")
async def accounts_transport(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    async with transport(sandbox, "accounts", control) as opened:
        yield opened


@pytest.fixture(scope="module")
async def billets_only(sandbox: RunningSandbox, control: Api) -> AsyncIterator[ApiTransport]:
    """A transport whose token may only read slips: the statement answers 403."""
    async with transport(sandbox, "accounts", control, scopes=("billets.read",)) as opened:
        yield opened


@pytest.fixture(scope="module")
def client(accounts_transport: ApiTransport) -> AccountsClient:
    return AccountsClient(accounts_transport)


@pytest.fixture(scope="module")
def service(client: AccountsClient) -> StatementService:
    return StatementService(client)


@pytest.fixture(scope="module")
def period(control: Api) -> tuple[dt.date, dt.date]:
    today = sandbox_today(control)
    return today - dt.timedelta(days=HISTORY_DAYS), today


def entry(**changes: object) -> Transaction:
    values: dict[str, object] = {
        "id": 1,
        "created_at": dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC),
        "credit_debit_type": CreditDebitType.CREDIT,
        "transaction_type": TransactionType.PIX,
        "amount": Decimal("10.00"),
    }
    values.update(changes)
    return Transaction.model_validate(values)


def read_back(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline=""), delimiter=";"))


# Balance -------------------------------------------------------------------------------------
async def test_balance(service: StatementService, control: Api) -> None:
    balance = await service.balance()
    assert isinstance(balance, BalanceView)
    assert balance.available == control.balance()
    for amount in (balance.available, balance.blocked, balance.overdraft):
        assert isinstance(amount, Decimal)
        assert amount == amount.quantize(Decimal("0.01"))
    assert balance.currency == "BRL"
    assert balance.updated_at is not None and balance.updated_at.tzinfo is not None


async def test_balance_refused_by_the_bank(billets_only: ApiTransport) -> None:
    with pytest.raises(Forbidden) as error:
        await StatementService(AccountsClient(billets_only)).balance()
    assert error.value.status == 403


# Paging --------------------------------------------------------------------------------------
async def test_pages_cover_the_whole_statement_once(
    service: StatementService,
    client: AccountsClient,
    accounts_transport: ApiTransport,
    period: tuple[dt.date, dt.date],
) -> None:
    start, end = period
    reference = await client.list_transactions(start_date=start, end_date=end, per_page=1000)
    assert reference.meta is not None
    total = reference.meta.total_items
    assert total > 200 and reference.meta.total_pages == 1

    before = sent(accounts_transport)
    pages = [page async for page in service.pages(start, end, page_size=37)]
    assert sent(accounts_transport) - before == len(pages) == -(-total // 37)
    assert all(0 < len(page) <= 37 for page in pages)
    entries = [e for page in pages for e in page]
    assert [e.id for e in entries] == [e.id for e in reference.items]  # all, once, in order
    stamps = [e.created_at for e in entries]
    assert stamps == sorted(stamps, reverse=True)
    # The whole history from the opening deposit makes the balance to the cent.
    assert summarize(entries).net == (await service.balance()).available
    assert entries == await service.entries(start, end)


async def test_pages_are_fetched_lazily(
    service: StatementService,
    accounts_transport: ApiTransport,
    period: tuple[dt.date, dt.date],
) -> None:
    before = sent(accounts_transport)
    iterator = service.pages(*period, page_size=10)
    assert sent(accounts_transport) == before  # nothing until asked
    first = await anext(iterator)
    assert len(first) == 10
    assert sent(accounts_transport) - before == 1
    await iterator.aclose()


async def test_an_entry_posted_while_paging_is_not_shown_twice(
    service: StatementService, control: Api, period: tuple[dt.date, dt.date]
) -> None:
    start, end = period
    before = await service.entries(start, end)
    iterator = service.pages(start, end, page_size=25)
    seen = list(await anext(iterator))
    control.paid(Decimal("12.34"))  # a new debit at the top pushes every entry one place down
    second = await anext(iterator)
    assert len(second) == 24  # page 2 now starts with page 1's last entry: dropped
    seen.extend(second)
    async for page in iterator:
        seen.extend(page)
    ids = [e.id for e in seen]
    assert len(ids) == len(set(ids))  # the entry pushed from page 1 to page 2 came once
    assert ids == [e.id for e in before]  # and nothing was skipped
    after = await service.entries(start, end)
    assert len(after) == len(before) + 1
    assert after[0].amount == Decimal("12.34")
    assert after[0].credit_debit_type is CreditDebitType.DEBIT


async def test_filters(service: StatementService, period: tuple[dt.date, dt.date]) -> None:
    everything = await service.entries(*period)
    credits = await service.entries(*period, credit_debit=CreditDebitType.CREDIT)
    debits = await service.entries(*period, credit_debit="debit")
    assert credits and debits
    assert {e.credit_debit_type for e in credits} == {CreditDebitType.CREDIT}
    assert {e.credit_debit_type for e in debits} == {CreditDebitType.DEBIT}
    assert {e.id for e in credits} | {e.id for e in debits} == {e.id for e in everything}
    fees = [e async for page in service.pages(*period, 5, transaction_type="FEE") for e in page]
    assert fees and {e.transaction_type for e in fees} == {TransactionType.FEE}
    assert len(fees) == sum(1 for e in everything if e.transaction_type == TransactionType.FEE)
    debit_fees = await service.entries(
        *period, credit_debit=CreditDebitType.DEBIT, transaction_type=TransactionType.FEE
    )
    assert [e.id for e in debit_fees] == [e.id for e in fees]  # fees are debits


async def test_a_short_period(service: StatementService, control: Api) -> None:
    today = sandbox_today(control)
    todays = await service.entries(today, today)
    local = dt.timezone(dt.timedelta(hours=-3))
    assert all(e.created_at.astimezone(local).date() == today for e in todays)
    far = today - dt.timedelta(days=400)
    assert [p async for p in service.pages(far, far)] == []  # no entry: no page


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"start": dt.date(2026, 11, 18), "end": dt.date(2026, 11, 17)}, ValueError),
        ({"page_size": 0}, ValueError),
        ({"page_size": 1001}, ValueError),
        ({"page_size": True}, TypeError),
        ({"start": dt.datetime(2026, 11, 1, tzinfo=dt.UTC)}, TypeError),
        ({"end": "2026-11-18"}, TypeError),
        ({"credit_debit": "BOTH"}, ValueError),
        ({"transaction_type": "SALARY"}, ValueError),
    ],
)
async def test_arguments_are_checked_before_sending(
    service: StatementService,
    accounts_transport: ApiTransport,
    kwargs: dict[str, object],
    error: type[Exception],
) -> None:
    arguments: dict[str, object] = {
        "start": dt.date(2026, 11, 1),
        "end": dt.date(2026, 11, 18),
        **kwargs,
    }
    before = sent(accounts_transport)
    with pytest.raises(error):
        await anext(service.pages(**arguments))  # type: ignore[arg-type]
    assert sent(accounts_transport) == before


async def test_bank_errors_are_typed(
    service: StatementService, billets_only: ApiTransport, period: tuple[dt.date, dt.date]
) -> None:
    with pytest.raises(Forbidden):
        await anext(StatementService(AccountsClient(billets_only)).pages(*period))
    with pytest.raises(NotFound):
        await service.entry(987654321)
    with pytest.raises(NotFound) as error:
        await service.entry("not-a-number")
    assert error.value.status == 404
    with pytest.raises(ValueError):
        await service.entry("  ")


async def test_entry_by_id(service: StatementService, period: tuple[dt.date, dt.date]) -> None:
    newest = await anext(service.pages(*period, page_size=1))
    assert await service.entry(newest[0].id) == newest[0]


# Totals ----------------------------------------------------------------------------------------
async def test_summary(service: StatementService, period: tuple[dt.date, dt.date]) -> None:
    entries = await service.entries(*period)
    summary = service.summary(entries)
    assert isinstance(summary, StatementSummary)
    credits = [e.amount for e in entries if e.credit_debit_type == CreditDebitType.CREDIT]
    debits = [e.amount for e in entries if e.credit_debit_type == CreditDebitType.DEBIT]
    assert summary.credits == sum(credits, Decimal("0.00"))
    assert summary.debits == sum(debits, Decimal("0.00"))
    assert (summary.credit_count, summary.debit_count) == (len(credits), len(debits))
    assert summary.count == len(entries)
    assert summary.net == sum((e.signed_amount for e in entries), Decimal("0.00"))
    assert all(isinstance(v, Decimal) for v in (summary.credits, summary.debits, summary.net))


def test_summary_is_exact_and_ignores_unknown_directions() -> None:
    entries = [
        entry(id=1, amount=Decimal("0.10")),
        entry(id=2, amount=Decimal("0.20")),
        entry(id=3, amount=Decimal("0.30"), credit_debit_type=CreditDebitType.DEBIT),
        entry(id=4, amount=Decimal("5.00"), credit_debit_type="SOMETHING_NEW"),
    ]
    summary = summarize(entries)
    assert summary.credits == Decimal("0.30")  # 0.1 + 0.2 is exactly 0.30 here
    assert summary.debits == Decimal("0.30")
    assert summary.net == Decimal("0.00")
    assert (summary.credit_count, summary.debit_count, summary.unclassified) == (2, 1, 1)
    assert summarize([]) == StatementSummary(Decimal("0.00"), Decimal("0.00"), 0, 0, 0)


# CSV export ------------------------------------------------------------------------------------
async def test_export_csv_reads_back_as_decimals(
    service: StatementService, period: tuple[dt.date, dt.date], tmp_path: Path
) -> None:
    entries = await service.entries(*period)
    path = tmp_path / "extrato.csv"
    assert service.export_csv(entries, path) == len(entries)
    raw = path.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    assert b"\r\n" in raw
    text = raw.decode("utf-8")  # UTF-8, strictly
    assert "Comércio" in text or "Gráfica" in text or "Ribeiro" in text
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter=";")
        header = next(reader)
        rows = [dict(zip(header, row, strict=True)) for row in reader]
    assert tuple(header) == CSV_COLUMNS
    assert len(rows) == len(entries)
    for row, original in zip(rows, entries, strict=True):
        assert row["id"] == str(original.id)
        assert dt.datetime.fromisoformat(row["created_at"]) == original.created_at
        assert row["created_at"].endswith("-03:00")  # Brasília's offset, as on screen
        assert row["credit_debit"] == original.credit_debit_type
        assert row["transaction_type"] == original.transaction_type
        assert Decimal(row["amount"]) == original.amount
        assert Decimal(row["signed_amount"]) == original.signed_amount
        assert original.balance_after is not None
        assert Decimal(row["balance_after"]) == original.balance_after
        for column in ("amount", "signed_amount", "balance_after"):
            assert row[column].lstrip("-").replace(".", "").isdigit()
            assert len(row[column].split(".")[1]) == 2
        assert row["end_to_end_id"] == (original.end_to_end_id or "")
        name = original.counterparty.name if original.counterparty else None
        assert row["counterparty_name"] == (name or "")
    assert sum((Decimal(r["signed_amount"]) for r in rows), Decimal("0")) == (
        summarize(entries).net
    )
    # A second export replaces the file and leaves nothing beside it.
    assert export_csv(entries[:3], path) == 3
    assert len(read_back(path.read_text("utf-8"))) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["extrato.csv"]


def test_export_csv_quotes_and_defuses_awkward_text(tmp_path: Path) -> None:
    awkward = [
        entry(
            id=7,
            description='Pagamento; "NF 123"\nsegunda linha',
            amount=Decimal("1234.5"),
            balance_after=Decimal("-0.00"),
            counterparty={"name": "João; Ltda", "document": "11222333000181"},
        ),
        entry(
            id=8,
            description='=HYPERLINK("http://evil")',
            credit_debit_type=CreditDebitType.DEBIT,
            amount=Decimal("9999999999.99"),
            counterparty={"name": "@Maria", "document": None},
        ),
        entry(id=9, description="-10 de desconto", amount=Decimal("0.01")),
        entry(id=10, end_to_end_id="=cmd|'/c calc'!A1"),  # the bank's own fields too
    ]
    stream = io.StringIO(newline="")
    assert export_csv(awkward, stream) == 4
    rows = read_back(stream.getvalue())
    assert [r["id"] for r in rows] == ["7", "8", "9", "10"]
    assert rows[3]["end_to_end_id"] == "'=cmd|'/c calc'!A1"
    assert rows[0]["description"] == 'Pagamento; "NF 123"\nsegunda linha'
    assert rows[0]["counterparty_name"] == "João; Ltda"
    assert (rows[0]["amount"], rows[0]["signed_amount"]) == ("1234.50", "1234.50")
    assert rows[0]["balance_after"] == "0.00"  # never "-0.00"
    assert rows[1]["description"] == '\'=HYPERLINK("http://evil")'
    assert rows[1]["counterparty_name"] == "'@Maria"
    assert rows[1]["counterparty_document"] == ""
    assert (rows[1]["amount"], rows[1]["signed_amount"]) == ("9999999999.99", "-9999999999.99")
    assert rows[2]["description"] == "'-10 de desconto"
    assert rows[2]["balance_after"] == ""
    assert csv_text(awkward) == stream.getvalue()

    path = tmp_path / "bom.csv"
    export_csv(awkward, path, bom=True)
    assert path.read_bytes().startswith(b"\xef\xbb\xbfid;")
    assert read_back(path.read_text("utf-8-sig")) == rows
    empty = io.StringIO(newline="")
    assert export_csv([], empty, bom=True) == 0
    assert empty.getvalue() == "\ufeff" + ";".join(CSV_COLUMNS) + "\r\n"
