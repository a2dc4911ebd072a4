"""What the calendar expects to come in, read from a real sandbox bank over mutual TLS: the
open due-date charges on their due dates (a batch's members as such), the paid ones as the
history that weighs them, a charge the company removed counted neither way; and the projected
balance that results."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from decimal import Decimal

import pytest

from tests.services.qr_fixtures import CHAVE, QrBank, new_cpf, qr_bank
from treasury_app.domain.documents import format_cpf
from treasury_app.ledger import Ledger
from treasury_app.services.calendar import BankInflows, project
from treasury_app.services.charges import ChargesService, Debtor, parse_batch_csv
from treasury_app.services.recurrences import RecurrencesService

DUE = dt.date(2026, 12, 15)


@pytest.fixture(scope="module")
async def bank(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[QrBank]:
    async with qr_bank(tmp_path_factory.mktemp("calendar")) as opened:
        yield opened


async def test_open_charges_are_expected_and_paid_ones_weigh_them(
    bank: QrBank, ledger: Ledger
) -> None:
    charges = ChargesService(bank.client, ledger, clock=bank.now)
    recurrences = RecurrencesService(bank.client, ledger, clock=bank.now)
    payer, other = new_cpf(), new_cpf()

    def debtor(cpf: str) -> Debtor:
        return Debtor(document=format_cpf(cpf), name=f"Cliente {cpf[-4:]}")

    paid = await charges.create_cobv(
        amount=Decimal("100.00"), key=CHAVE, debtor=debtor(payer), due_date=DUE
    )
    bank.pay(paid.txid)
    open_one = await charges.create_cobv(
        amount=Decimal("250.00"), key=CHAVE, debtor=debtor(payer), due_date=DUE
    )
    removed = await charges.create_cobv(
        amount=Decimal("999.00"), key=CHAVE, debtor=debtor(other), due_date=DUE
    )
    await charges.cancel_cobv(removed.txid)
    csv = f"nome;cpf_cnpj;valor;vencimento;descricao\r\nJoão Lima;{other};80,00;20/12/2026;Taxa\r\n"
    plan = charges.plan_batch(parse_batch_csv(csv, today=bank.today()), key=CHAVE)
    await charges.submit_batch(plan)

    today = bank.today()
    expected, history = await BankInflows(charges, recurrences).inflows(today, dt.date(2027, 2, 14))

    mine = {item.txid: item for item in expected}
    assert open_one.txid in mine and paid.txid not in mine and removed.txid not in mine
    assert (mine[open_one.txid].day, mine[open_one.txid].amount) == (DUE, Decimal("250.00"))
    assert mine[open_one.txid].kind == "cobv"
    [member] = [item for item in expected if item.payer_document == other]
    assert (member.kind, member.day, member.amount) == (
        "batch",
        dt.date(2026, 12, 20),
        Decimal("80.00"),
    )
    payer_history = [o for o in history if o.payer_document == payer]
    assert [(o.kind, o.paid) for o in payer_history] == [("cobv", True)]
    assert not [o for o in history if o.payer_document == other]  # removed by us: neither

    projection = project(today, Decimal("1000.00"), [], expected, history)
    on_due = projection.day(DUE)
    assert on_due is not None
    [weighed] = [i for i in on_due.inflows if i.txid == open_one.txid]
    assert (weighed.weight.basis, weighed.weight.paid, weighed.weight.settled) == ("payer", 1, 1)
    assert weighed.weighted == Decimal("250.00")
    counted = [i for day in projection.days if day.day <= DUE for i in day.inflows]
    total = sum((i.weighted for i in counted), Decimal(0))
    assert on_due.balance == Decimal("1000.00") + total
