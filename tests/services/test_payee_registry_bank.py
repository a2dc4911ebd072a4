"""The payee registry against a sandbox bank of its own (real mutual TLS), on both ledgers:

* a payout to a registered key carries the registered payee's document as
  ``creditorDocument``; a key that is not that payee's is refused by the bank (422) and the
  refusal is said for what it is;
* a destination becomes verified when a payment to it settles and the bank names the same
  payee, and is marked changed (audited) when the bank names someone else;
* a payout batch's rows are matched to the registry (an unknown key marked before review);
* a registry CSV whose key is registered to another payee is flagged on its line.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

import psycopg
import pytest

from tests.ledger_backends import team
from tests.sandbox.conftest import Api
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.payees import DestinationState
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.sandbox import seed
from treasury_app.services.bank_refusals import BANK_REFUSED, CREDITOR_MISMATCH, read_refusal
from treasury_app.services.payees import (
    PayeeService,
    RowStatus,
    import_registry,
    parse_registry_csv,
    registry_csv,
)
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import PayoutInputError, PayoutsService
from treasury_app.services.tracker import PaymentTracker
from treasury_app.ui.refusals import creditor_mismatch

pytestmark = pytest.mark.usefixtures("clean_sandbox")

KEY = "contas@graficaexpressa.com.br"
OTHER_DOCUMENT = "11222333000181"  # a valid CNPJ that is not the key owner's
BANK = {
    "ispb": "60746948",
    "branch": "1234",
    "account": "98765-4",
    "account_type": "SVGS",
}


@pytest.fixture
def engine(accounts_transport: ApiTransport, ledger: Ledger) -> PaymentEngine:
    return PaymentEngine(AccountsClient(accounts_transport), ledger)


@pytest.fixture
def payouts(engine: PaymentEngine, ledger: Ledger) -> PayoutsService:
    return PayoutsService(engine, ledger)


@pytest.fixture
def registry(ledger: Ledger) -> Iterator[PayeeService]:
    yield PayeeService(ledger)


def as_admin(ledger: Ledger, statement: str, args: tuple[object, ...] = ()) -> None:
    """A team database's owner (tests only): another person than the desk's login."""
    name = ledger.settings.dbname  # type: ignore[attr-defined]
    with psycopg.connect(team().server.url(name), autocommit=True) as conn:
        conn.execute(statement, args)


async def approved(ledger: Ledger, registry: PayeeService) -> None:
    """In a team, a second person approves what waits, and nothing is cooling off (these
    tests are about the bank's word; the cooling-off has its own tests)."""
    if ledger.backend == "team":
        for change in await registry.pending():
            as_admin(ledger, "SELECT treasury.decide_destination(%s, 'APPROVED', '')", (change.id,))
        as_admin(ledger, "UPDATE treasury.registry_policy SET cooling_hours = 0")
    registry.forget()


async def test_a_key_not_the_registered_payees_is_refused_by_the_bank(
    ledger: Ledger, registry: PayeeService, payouts: PayoutsService, control: Api
) -> None:
    wrong = await registry.save_payee("Papelaria Central", OTHER_DOCUMENT)
    await registry.add(wrong.id, registry.key(KEY))
    await approved(ledger, registry)
    review = await payouts.prepare_key(KEY, "10,00")
    assert review.request["creditorDocument"] == OTHER_DOCUMENT
    assert review.payee_name == "Papelaria Central"
    with pytest.raises(PayoutInputError) as typed:  # a document typed against the registry
        await payouts.prepare_key(KEY, "10,00", creditor_document="529.982.247-25")
    assert typed.value.code == "payout.document_not_registered"
    before = control.balance()
    entry = await payouts.send(review)
    assert entry.state == EntryState.REJECTED and "422" in (entry.error or "")
    assert control.balance() == before
    refusal = read_refusal(entry.error)  # kept coded: the UI decides by the code
    assert refusal is not None and refusal.code == CREDITOR_MISMATCH
    assert refusal.status == 422 and refusal.fields == ("creditorDocument",)
    mismatch = creditor_mismatch(entry)
    assert mismatch is not None and mismatch.code == "payout.creditor_mismatch"
    assert mismatch.params["key"] == KEY


async def test_a_422_not_about_the_creditor_document_is_no_mismatch(
    ledger: Ledger, registry: PayeeService, payouts: PayoutsService, control: Api
) -> None:
    grafica = await registry.save_payee("Gráfica Expressa", seed.document_for(KEY))
    await registry.add(grafica.id, registry.key(KEY))
    await approved(ledger, registry)
    before = balance = control.balance()
    while balance > Decimal("5.00"):  # what is left does not cover the payment
        control.paid(min(balance - Decimal("5.00"), Decimal("1000000.00")))
        balance = control.balance()
    review = await payouts.prepare_key(KEY, "50,00")
    assert review.request["creditorDocument"] == seed.document_for(KEY)
    try:
        entry = await payouts.send(review)
    finally:  # the next tests' balance as it was
        control.control("POST", "/sandbox/incoming-pix", {"amount": before - control.balance()})
    assert entry.state == EntryState.REJECTED  # the bank's 422: insufficient funds
    refusal = read_refusal(entry.error)
    assert refusal is not None and refusal.code == BANK_REFUSED and refusal.status == 422
    assert "creditorDocument" not in refusal.fields
    assert creditor_mismatch(entry) is None


async def test_a_settled_payment_verifies_or_contradicts_a_destination(
    ledger: Ledger,
    registry: PayeeService,
    payouts: PayoutsService,
    engine: PaymentEngine,
    control: Api,
) -> None:
    owner = seed.document_for(KEY)
    grafica = await registry.save_payee("Gráfica Expressa", owner, "fornecedor")
    await registry.add(grafica.id, registry.key(KEY))
    # an account registered to this payee, paid by bank data naming someone else
    maria = "52998224725"
    account = registry.account(BANK["ispb"], BANK["branch"], BANK["account"], "SVGS")
    await registry.add(grafica.id, account)
    await approved(ledger, registry)
    entry = await payouts.send(await payouts.prepare_key(KEY, "12,34"))
    manual = await payouts.send(
        await payouts.prepare_manual(**BANK, document=maria, name="Maria da Silva", amount="5,00")
    )
    alerts: list[tuple[int, str]] = []
    engine.mismatch_listeners.append(lambda paid, name, _doc: alerts.append((paid.id, name)))
    control.advance(3.5)
    tracker = PaymentTracker(engine)
    await tracker.poll_once()
    assert alerts == [(manual.id, "Maria da Silva")]  # the desk is alerted once
    assert (await ledger.journal.get(entry.id)).final
    states = {d.detail: d.state for d in await ledger.payees.destinations(grafica.id)}
    assert states[KEY] is DestinationState.VERIFIED
    assert states[account.detail] is DestinationState.CHANGED
    assert (await ledger.journal.get(manual.id)).final
    history = [c.action for c in await ledger.payees.history(grafica.id)]
    assert "verified" in history and "mismatch" in history
    audit = {a.action for a in await ledger.audit.entries(action="payee")}
    assert {"payee.verified", "payee.mismatch"} <= audit


async def test_a_batch_is_matched_to_the_registry(
    ledger: Ledger, registry: PayeeService, payouts: PayoutsService
) -> None:
    grafica = await registry.save_payee("Gráfica Expressa", seed.document_for(KEY))
    await registry.add(grafica.id, registry.key(KEY))
    await approved(ledger, registry)
    text = f"chave;valor\n{KEY};10,00\ndesconhecido@example.com;5,00\n"
    batch = await payouts.with_history(await payouts.parse_batch_csv(text))
    assert batch.rows[0].review.request["creditorDocument"] == seed.document_for(KEY)
    statuses = await registry.statuses([(row.review.payee_detail, "") for row in batch.rows])
    fresh = RowStatus.RECENT if ledger.backend == "file" else RowStatus.NEW  # cooling 0 h
    assert [s for s, _ in statuses] == [fresh, RowStatus.UNKNOWN]
    assert statuses[0][1] == grafica


async def test_a_registry_csv_flags_a_key_of_another_payee_per_line(
    ledger: Ledger, registry: PayeeService
) -> None:
    grafica = await registry.save_payee("Gráfica Expressa", "12ABC34501DE35")
    await registry.add(grafica.id, registry.key(KEY))
    await approved(ledger, registry)
    text = (
        "nome;documento;etiquetas;chave;ispb;agencia;conta;tipo_conta\n"
        "Papelaria Central;11.222.333/0001-81;fornecedor;pix@papelaria.com.br;;;;\n"
        f"Papelaria Central;11.222.333/0001-81;fornecedor;{KEY};;;;\n"
        "Maria;529.982.247-25;;;60746948;1;1234-5;CACC\n"
        "Sem documento;123;;;;;;\n"
    )
    parsed = parse_registry_csv(text, index=await registry.index(fresh=True))
    assert [(line, code.code) for line, _, code in parsed.errors] == [
        (3, "registry.destination_taken"),
        (5, "payee.document_invalid"),
    ]
    assert parsed.errors[0][2].params["owner"] == "Gráfica Expressa"
    changes = await import_registry(registry, parsed)
    assert len(changes) == 2
    await approved(ledger, registry)
    out = registry_csv(await ledger.payees.payees(), await ledger.payees.destinations())
    assert out.startswith("\ufeffnome;documento") and "pix@papelaria.com.br" in out
    assert "60746948;1;12345;CACC" in out
    assert "12ABC34501DE35" in out


async def test_a_blocked_destination_is_refused_before_anything_is_journaled(
    ledger: Ledger, registry: PayeeService, payouts: PayoutsService, control: Api
) -> None:
    """On a single desktop as in a team (whose database refuses it too): a payout, or a
    batch with one row, to a blocked key is refused in words before the journal."""
    grafica = await registry.save_payee("Gráfica Expressa", seed.document_for(KEY))
    await registry.add(grafica.id, registry.key(KEY))
    await approved(ledger, registry)
    review = await payouts.prepare_key(KEY, "10,00")
    text = f"chave;valor\ndesconhecido@example.com;5,00\n{KEY};10,00\n"
    batch = await payouts.parse_batch_csv(text)
    [destination] = await ledger.payees.destinations(grafica.id)
    await registry.block(destination.id, "the supplier says it is not theirs")
    before = (await ledger.journal.counts(), control.balance())
    for sending in (payouts.send(review), payouts.send_batch(batch)):
        with pytest.raises(PayoutInputError) as refused:
            await sending
        assert refused.value.code == "registry.blocked"
        assert refused.value.params == {"detail": KEY, "owner": "Gráfica Expressa"}
    assert await ledger.journal.by_key(review.idempotency_key) is None
    assert await ledger.journal.recent(batch=batch.batch_id) == []
    assert await ledger.batches.get(batch.batch_id) is None
    assert (await ledger.journal.counts(), control.balance()) == before
    from treasury_app.ui.rule_words import rule_text

    assert rule_text(refused.value.reason) == (
        f"{KEY} is blocked in the registry (Gráfica Expressa): it is not paid."
    )
