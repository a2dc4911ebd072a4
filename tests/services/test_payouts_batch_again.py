"""The same payout batch is never paid twice by accident: a batch whose rows (payees and
amounts) or file match one sent within the duplicate window is refused unless the person
chooses to send it again; a row that repeats a recent single payment is pointed out. Against a
sandbox bank of this module's own."""

from __future__ import annotations

import datetime as dt
import hashlib
from decimal import Decimal

import pytest

from tests.sandbox.conftest import Api
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.transport import ApiTransport
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryState
from treasury_app.services.payments import PaymentEngine
from treasury_app.services.payouts import DuplicateBatchError, PayoutsService

pytestmark = pytest.mark.usefixtures("clean_sandbox")

FILE = (
    "chave;valor;descricao\n"
    "grafica@empresa.com.br;1.234,56;NF 1\n"
    "limpeza@empresa.com.br;980,00;NF 2\n"
    "frete@empresa.com.br;2.045,84;NF 3\n"
)
TOTAL = Decimal("4260.40")


def sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def service(transport: ApiTransport, ledger: Ledger, **kwargs) -> PayoutsService:
    return PayoutsService(PaymentEngine(AccountsClient(transport), ledger), ledger, **kwargs)


async def test_the_same_file_twice_is_refused_then_sent_again_on_purpose(
    accounts_transport: ApiTransport, ledger: Ledger, control: Api
) -> None:
    payouts = service(accounts_transport, ledger)
    before = control.balance()
    first = await payouts.parse_batch_csv(FILE, file_sha256=sha(FILE))
    assert await payouts.earlier_batches(first) == ()
    sent = await payouts.send_batch(first)
    assert [e.state for e in sent] == [EntryState.ACCEPTED] * 3
    assert control.balance() == before - TOTAL

    # Two minutes later the same CSV is opened again: a new batch, flagged.
    again = await payouts.parse_batch_csv(FILE, file_sha256=sha(FILE))
    assert again.batch_id != first.batch_id
    (earlier,) = await payouts.earlier_batches(again)
    assert (earlier.id, earlier.rows, earlier.total) == (first.batch_id, 3, TOTAL)
    assert earlier.file_sha256 == sha(FILE)
    journaled = len(await ledger.journal.recent(limit=1000))
    with pytest.raises(DuplicateBatchError) as refused:
        await payouts.send_batch(again)
    assert refused.value.code == "payout.batch_sent_same_file"
    assert refused.value.params["total"] == TOTAL and refused.value.earlier == (earlier,)
    assert len(await ledger.journal.recent(limit=1000)) == journaled  # nothing journaled
    assert control.balance() == before - TOTAL  # nothing paid

    resent = await payouts.send_batch(again, send_again=True)
    assert len(resent) == 3
    assert control.balance() == before - 2 * TOTAL
    started = [
        a for a in await ledger.audit.entries(action="payout.batch") if a.outcome == "started"
    ]
    assert started[0].details["sent_again_after"] == [first.batch_id]  # newest first


async def test_the_same_rows_in_another_file_are_flagged(
    accounts_transport: ApiTransport, ledger: Ledger
) -> None:
    payouts = service(accounts_transport, ledger)
    await payouts.send_batch(await payouts.parse_batch_csv(FILE, file_sha256=sha(FILE)))
    lines = FILE.splitlines()
    reordered = "\r\n".join([lines[0], lines[3], lines[1], lines[2]]).replace("NF", "Nota") + "\r\n"
    other = await payouts.parse_batch_csv(reordered, file_sha256=sha(reordered))
    assert other.signature == (await payouts.parse_batch_csv(FILE)).signature
    assert len(await payouts.earlier_batches(other)) == 1
    changed = reordered.replace("980,00", "980,01")
    assert (
        await payouts.earlier_batches(
            await payouts.parse_batch_csv(changed, file_sha256=sha(changed))
        )
        == ()
    )


async def test_outside_the_window_a_batch_is_not_flagged(
    accounts_transport: ApiTransport, ledger: Ledger
) -> None:
    payouts = service(accounts_transport, ledger, duplicate_window=dt.timedelta(hours=72))
    await payouts.send_batch(await payouts.parse_batch_csv(FILE))
    engine = PaymentEngine(
        AccountsClient(accounts_transport),
        ledger,
        clock=lambda: ledger.clock() + dt.timedelta(hours=73),
    )
    later = PayoutsService(engine, ledger, duplicate_window=dt.timedelta(hours=72))
    assert await later.earlier_batches(await later.parse_batch_csv(FILE)) == ()
    shorter = service(accounts_transport, ledger, duplicate_window=dt.timedelta(hours=1))
    assert len(await shorter.earlier_batches(await shorter.parse_batch_csv(FILE))) == 1


async def test_a_row_repeating_a_recent_single_payment_is_pointed_out(
    accounts_transport: ApiTransport, ledger: Ledger
) -> None:
    payouts = service(accounts_transport, ledger)
    single = await payouts.send(await payouts.prepare_key("limpeza@empresa.com.br", "980,00"))
    batch = await payouts.parse_batch_csv(FILE)
    flagged = {row.line: payouts.recent_single_payments(row) for row in batch.rows}
    assert [e.id for e in flagged[3]] == [single.id]
    assert flagged[2] == flagged[4] == ()
    # A row of an earlier batch is not a "single payment" (the batch itself is flagged).
    await payouts.send_batch(batch)
    again = await payouts.parse_batch_csv(FILE)
    assert [row.line for row in again.rows if payouts.recent_single_payments(row)] == [3]
