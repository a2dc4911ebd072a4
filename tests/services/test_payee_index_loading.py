"""A large payee registry never freezes the window (issue 36): the file ledger's registry is
read in a worker thread, the search index is built a slice at a time with the event loop
running between slices, and a picker typed into meanwhile says it is loading, then answers.
(How late the loop runs with 50,000 payees: ``tests/bench/registry.py``.)"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest

from tests.ledger_backends import opened_ledger
from treasury_app.domain import payees as domain_payees
from treasury_app.domain.payees import (
    Destination,
    DestinationState,
    Payee,
    RegistryIndex,
    key_destination,
)
from treasury_app.ledger import payees as ledger_payees
from treasury_app.services import payees as service_payees
from treasury_app.services.payees import PayeeService


def _registry(count: int) -> tuple[list[Payee], list[Destination]]:
    payees = [
        Payee(i, f"Fornecedor {i:04d} Papelaria", f"{i:011d}", ("fornecedor",) if i % 2 else ())
        for i in range(1, count + 1)
    ]
    destinations = [
        Destination(i, i, key_destination(f"pix{i}@fornecedor.com.br"), DestinationState.VERIFIED)
        for i in range(1, count + 1)
    ]
    return payees, destinations


def test_an_index_built_in_steps_answers_as_one_built_at_once(monkeypatch: Any) -> None:
    monkeypatch.setattr(domain_payees, "SORT_RUN", 50)  # many runs, merged
    payees, destinations = _registry(600)
    whole = RegistryIndex(payees, destinations)
    stepped = RegistryIndex()
    pauses = sum(1 for _ in stepped.fill(reversed(payees), reversed(destinations), step=10))
    assert pauses > 100  # a little at a time
    for text in ("fornecedor 01", "papel", "pix12", "0000000001", "fornec"):
        assert [(m.payee.id, m.field) for m in stepped.search(text, 50)] == [
            (m.payee.id, m.field) for m in whole.search(text, 50)
        ], text
    assert [p.id for p in stepped.by_name] == list(range(1, 601))
    assert stepped._words == sorted(stepped._words)


async def test_the_file_registry_is_read_in_a_worker_thread(
    tmp_path: Path, monkeypatch: Any
) -> None:
    threads: list[int] = []
    read = ledger_payees.read_registry

    def spying(path: Path) -> Any:
        threads.append(threading.get_ident())
        return read(path)

    monkeypatch.setattr(ledger_payees, "read_registry", spying)
    async with opened_ledger("file", tmp_path) as ledger:
        service = PayeeService(ledger)
        payee = await service.save_payee("Papelaria Central", "11.222.333/0001-81")
        await service.add(payee.id, service.key("pix@papelaria.com.br"))
        index = await service.index()
    assert threads and threading.get_ident() not in threads
    assert index.owner_of("pix@papelaria.com.br") == payee


async def test_the_loop_runs_while_the_index_is_built(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(service_payees, "SLICE", 0.0)  # a turn of the loop at every step
    payees, destinations = _registry(1_000)

    async def registry() -> tuple[list[Payee], list[Destination]]:
        return payees, destinations

    async with opened_ledger("file", tmp_path) as ledger:
        service = PayeeService(ledger)
        monkeypatch.setattr(ledger.payees, "registry", registry)
        turns_while_loading = 0
        building = asyncio.ensure_future(service.index())
        while service.loading:
            assert not building.done()
            turns_while_loading += 1
            await asyncio.sleep(0)
        index = await building
        assert turns_while_loading > 20
        assert not service.loading and service.ready is index
        # callers during a build share it; a change meanwhile makes them read again
        first, second = service.index(), service.index()
        assert (await first) is (await second) is index
        service.forget()
        assert service.loading and (await service.index()) is not index


async def test_a_failed_read_is_said_to_the_caller_and_tried_again(
    tmp_path: Path, monkeypatch: Any
) -> None:
    calls = 0

    async def failing() -> Any:
        nonlocal calls
        calls += 1
        raise OSError("disk gone")

    async with opened_ledger("file", tmp_path) as ledger:
        service = PayeeService(ledger)
        monkeypatch.setattr(ledger.payees, "registry", failing)
        for _ in range(2):
            with pytest.raises(OSError):
                await service.index()
        assert calls == 2 and service.loading
