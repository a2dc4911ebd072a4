"""The sandbox console service (``SandboxConsole``) against a real sandbox bank over mutual TLS:
a payer pays a charge and approves or rejects a recurrence, the bank's clock is read and moved
(the workspace's clock follows), a recurring charge's next attempt settles or fails on the
clock; the sandbox's refusals and an unreachable sandbox are typed errors; and outside a
sandbox profile every call is refused before anything is sent.

The module runs its own sandbox; the last test moves its clock days ahead.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator, Iterator
from decimal import Decimal
from typing import Any

import httpx
import pytest

from tests.api.conftest import api_config
from tests.services.qr_fixtures import CHAVE, QrBank, qr_bank
from treasury_app.api.qrcodes.automatico_models import (
    CobRStatus,
    Periodicidade,
    PoliticaRetentativa,
    RecStatus,
    TentativaStatus,
)
from treasury_app.api.qrcodes.cashin_models import CobStatus
from treasury_app.api.transport import ApiTransport
from treasury_app.domain.business_days import earliest_cobr_due_date
from treasury_app.domain.identifiers import new_txid
from treasury_app.ledger import Ledger
from treasury_app.services.charges import ChargesService, Debtor
from treasury_app.services.recurrences import ReceiverAccount, RecurrencesService, RecurrenceTerms
from treasury_app.services.sandbox_console import (
    NoPendingAttempt,
    NotASandbox,
    SandboxClockUnknown,
    SandboxConsole,
    SandboxConsoleError,
    SandboxRefused,
    SandboxUnreachable,
    payer_of,
    pending_attempt,
    settlement_moment,
)

ACCOUNT = ReceiverAccount(account="1234567", branch="0001")


@pytest.fixture(scope="module")
async def bank(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[QrBank]:
    async with qr_bank(tmp_path_factory.mktemp("sandbox-console")) as opened:
        yield opened


@pytest.fixture
def recurrences(bank: QrBank, ledger: Ledger) -> RecurrencesService:
    return RecurrencesService(bank.client, ledger, clock=bank.now)


@pytest.fixture
def moves() -> list[str]:
    """One entry each time the console says the bank's clock moved."""
    return []


@pytest.fixture
def console(bank: QrBank, recurrences: RecurrencesService, moves: list[str]) -> SandboxConsole:
    async def clock_moved() -> None:
        moves.append("moved")

    return SandboxConsole(bank.transport, recurrences, sandbox=True, clock_moved=clock_moved)


@pytest.fixture
def sent(bank: QrBank) -> Iterator[list[str]]:
    """Every request sent through the transport's client during the test (control surface
    calls included: they bypass the transport's own counters)."""
    seen: list[str] = []

    async def record(request: httpx.Request) -> None:
        seen.append(f"{request.method} {request.url.path}")

    hooks = bank.transport.http.event_hooks
    hooks["request"] = [*hooks["request"], record]
    try:
        yield seen
    finally:
        hooks["request"] = [hook for hook in hooks["request"] if hook is not record]


async def approved_rec(
    recurrences: RecurrencesService, console: SandboxConsole, bank: QrBank, **changes: Any
) -> str:
    today = bank.today()
    terms = RecurrenceTerms(
        contract="CT-CONSOLE",
        debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
        first_date=today,
        periodicity=Periodicidade.MENSAL,
        fixed_amount=Decimal("50.00"),
        end_date=today + dt.timedelta(days=400),
        **changes,
    )
    rec = await recurrences.create_rec(terms)
    answer = await console.approve_rec(rec.id_rec)
    assert answer["status"] == "APROVADA"
    return rec.id_rec


async def test_outside_a_sandbox_profile_every_call_is_refused_before_sending(
    bank: QrBank, recurrences: RecurrencesService, ledger: Ledger, sent: list[str]
) -> None:
    charges = ChargesService(bank.client, ledger, clock=bank.now)
    cob = await charges.create_cob(amount="12.34", key=CHAVE)
    rec = await recurrences.create_rec(
        RecurrenceTerms(
            contract="CT-REAL-BANK",
            debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
            first_date=bank.today(),
            periodicity=Periodicidade.MENSAL,
            fixed_amount=Decimal("50.00"),
        )
    )
    clock_before = bank.now()
    sent.clear()

    real_bank = SandboxConsole(bank.transport, recurrences, sandbox=False)
    assert not real_bank.available
    calls = [
        real_bank.pay_charge(cob.txid),
        real_bank.approve_rec(rec.id_rec),
        real_bank.decide_rec(rec.id_rec, approve=False),
        real_bank.decide_pix("E" + "0" * 31, approve=True),
        real_bank.now(),
        real_bank.set_clock(clock_before + dt.timedelta(days=3)),
        real_bank.advance_clock(3600),
        real_bank.fail_next_attempt(new_txid()),
        real_bank.settle_next_attempt(new_txid(), fail=False),
    ]
    for call in calls:
        with pytest.raises(NotASandbox) as refused:
            await call
        assert isinstance(refused.value, SandboxConsoleError)
        assert isinstance(refused.value, ValueError)  # the operation's banner shows it
        assert "only in the sandbox" in str(refused.value)

    assert sent == []  # not even the charge was read
    assert (await charges.get_cob(cob.txid)).status is CobStatus.ATIVA
    assert (await recurrences.get_rec(rec.id_rec)).status is RecStatus.CRIADA
    assert bank.now() - clock_before < dt.timedelta(minutes=5)


async def test_a_payer_pays_a_charge(
    bank: QrBank, console: SandboxConsole, ledger: Ledger, sent: list[str]
) -> None:
    charges = ChargesService(bank.client, ledger, clock=bank.now)
    cob = await charges.create_cob(amount="25.00", key=CHAVE)
    sent.clear()
    answer = await console.pay_charge(cob.txid)
    assert sent == ["POST /sandbox/cashin/pay"]
    assert answer["pix"]["endToEndId"] and answer["pix"]["txid"] == cob.txid
    assert Decimal(str(answer["pix"]["valor"])) == Decimal("25.00")
    paid = await charges.get_cob(cob.txid)
    assert paid.status is CobStatus.CONCLUIDA
    assert [pix.end_to_end_id for pix in paid.pix] == [answer["pix"]["endToEndId"]]

    with pytest.raises(SandboxRefused) as refused:  # paid already
        await console.pay_charge(cob.txid)
    assert refused.value.action == "/sandbox/cashin/pay"
    assert 400 <= refused.value.status < 500


def test_a_payer_is_named_by_a_bare_cpf_or_cnpj() -> None:
    assert payer_of("Fulano", "403.644.788-29") == {"name": "Fulano", "cpf": "40364478829"}
    assert payer_of("Empresa", "60.391.947/0001-00") == {
        "name": "Empresa",
        "cnpj": "60391947000100",
    }


async def test_the_payer_approves_or_rejects_a_recurrence(
    bank: QrBank, console: SandboxConsole, recurrences: RecurrencesService
) -> None:
    id_rec = await approved_rec(recurrences, console, bank)
    assert (await recurrences.get_rec(id_rec)).status is RecStatus.APROVADA

    terms = RecurrenceTerms(
        contract="CT-CONSOLE-NO",
        debtor=Debtor(document="403.644.788-29", name="Fulano de Tal"),
        first_date=bank.today(),
        periodicity=Periodicidade.MENSAL,
        fixed_amount=Decimal("50.00"),
    )
    refused_rec = await recurrences.create_rec(terms)
    await console.decide_rec(refused_rec.id_rec, approve=False)
    assert (await recurrences.get_rec(refused_rec.id_rec)).status is RecStatus.REJEITADA

    # the payer decides only a CRIADA recurrence: the sandbox's refusal, typed
    with pytest.raises(SandboxRefused) as refused:
        await console.approve_rec(id_rec)
    error = refused.value
    assert error.action == f"/sandbox/automatico/rec/{id_rec}/approve"
    assert error.status == 400 and "CRIADA" in error.detail
    assert str(error).startswith(f"The sandbox bank refused {error.action} (400).")


async def test_an_unknown_held_payment_is_refused(console: SandboxConsole) -> None:
    e2e = "E" + "9" * 31
    with pytest.raises(SandboxRefused) as refused:
        await console.decide_pix(e2e, approve=True)
    assert refused.value.action == f"/sandbox/pix/{e2e}/approve"
    assert refused.value.status == 404


async def test_the_clock_is_read_and_moved_and_the_app_follows(
    bank: QrBank, console: SandboxConsole, moves: list[str]
) -> None:
    now = await console.now()
    assert now.tzinfo is not None and abs(now - bank.now()) < dt.timedelta(seconds=5)
    moved = await console.advance_clock(90)
    assert dt.timedelta(seconds=89) <= moved - now < dt.timedelta(seconds=95)
    assert abs(bank.now() - moved) < dt.timedelta(seconds=5)
    target = moved + dt.timedelta(minutes=10)
    assert abs(await console.set_clock(target) - target) < dt.timedelta(seconds=2)
    assert moves == ["moved", "moved"]  # the workspace's clock syncs after each move


async def test_an_unreachable_sandbox_is_a_typed_error(
    bank: QrBank, recurrences: RecurrencesService
) -> None:
    config = api_config(bank.sandbox, "qrcodes")
    nowhere = dataclasses.replace(config, base_url="https://127.0.0.1:9")  # nothing listens
    async with ApiTransport(nowhere) as transport:
        console = SandboxConsole(transport, recurrences, sandbox=True)
        with pytest.raises(SandboxUnreachable) as unreachable:
            await console.approve_rec("RN" + "0" * 27)
        assert unreachable.value.action.startswith("/sandbox/automatico/rec/")
        assert str(unreachable.value).startswith("The sandbox bank could not be reached:")
        with pytest.raises(SandboxClockUnknown) as unknown:
            await console.now()
        assert str(unknown.value).startswith("The sandbox clock could not be read:")


async def test_next_attempts_settle_or_fail_on_the_bank_clock(
    bank: QrBank, console: SandboxConsole, recurrences: RecurrencesService, moves: list[str]
) -> None:
    due = earliest_cobr_due_date(bank.today())
    strict = await approved_rec(recurrences, console, bank)
    retrying = await approved_rec(
        recurrences, console, bank, retry_policy=PoliticaRetentativa.PERMITE_3R_7D
    )
    paid = await recurrences.create_cobr(strict, due_date=due, amount="50,00", receiver=ACCOUNT)
    failing = await recurrences.create_cobr(
        retrying, due_date=due, amount="50,00", receiver=ACCOUNT
    )
    attempt = pending_attempt(failing)
    assert attempt is not None
    settles_at = settlement_moment(attempt.data_liquidacao)
    assert settles_at.astimezone(dt.UTC).time() == dt.time(13, 0)  # 10:00 in Brasília

    failed = await console.settle_next_attempt(failing.txid, fail=True)
    assert moves == ["moved"]
    assert bank.now() >= settles_at
    assert failed.status is CobRStatus.ATIVA  # retries allowed: still open
    assert [t.status for t in failed.tentativas] == [TentativaStatus.REJEITADA]
    assert pending_attempt(failed) is None

    # the other charge due then settled with the clock: nothing left to settle
    settled = await recurrences.get_cobr(paid.txid)
    assert settled.status is CobRStatus.CONCLUIDA
    assert [t.status for t in settled.tentativas] == [TentativaStatus.PAGA]
    with pytest.raises(NoPendingAttempt) as none_left:
        await console.settle_next_attempt(paid.txid, fail=False)
    assert none_left.value.txid == paid.txid
    assert moves == ["moved"]  # refused before the clock moved

    # a retry settles on its own date
    retry_day = attempt.data_liquidacao + dt.timedelta(days=1)
    await recurrences.retry_cobr(failing.txid, retry_day)
    done = await console.settle_next_attempt(failing.txid, fail=False)
    assert done.status is CobRStatus.CONCLUIDA
    assert [t.status for t in done.tentativas] == [
        TentativaStatus.REJEITADA,
        TentativaStatus.PAGA,
    ]
    assert moves == ["moved", "moved"]
