"""A large payee registry never freezes the window (issue 36): the file ledger's registry is
read in a worker thread (the team database's fetched rows made into objects in one), the
search index is built in a worker thread with the event loop running meanwhile, and a
picker typed into meanwhile says it is loading, then answers.
(How late the loop runs with 50,000 payees: ``tests/bench/registry.py``.)"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.ledger_backends import opened_ledger, team
from treasury_app.domain import payees as domain_payees
from treasury_app.domain.payees import (
    Destination,
    DestinationState,
    Payee,
    RegistryIndex,
    key_destination,
)
from treasury_app.ledger import Ledger
from treasury_app.ledger import payees as ledger_payees
from treasury_app.ledger.team import payees as team_payees
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
    payees, destinations = _registry(1_000)
    turned = threading.Event()  # the build waits, mid-way, for the loop to have run
    fill = RegistryIndex.fill

    def waiting_fill(index: RegistryIndex, *args: Any, **kwargs: Any) -> Any:
        for count, pause in enumerate(fill(index, *args, **kwargs)):
            if count == 5:
                assert turned.wait(30)
            yield pause

    async def registry() -> tuple[list[Payee], list[Destination]]:
        return payees, destinations

    async with opened_ledger("file", tmp_path) as ledger:
        service = PayeeService(ledger)
        monkeypatch.setattr(ledger.payees, "registry", registry)
        monkeypatch.setattr(RegistryIndex, "fill", waiting_fill)
        building = asyncio.ensure_future(service.index())
        for _ in range(20):  # the loop runs while the index is being built
            await asyncio.sleep(0)
            assert service.loading and not building.done()
        turned.set()
        index = await building
        assert not service.loading and service.ready is index
        assert index.owner_of("pix7@fornecedor.com.br") == payees[6]
        # callers during a build share it; a change meanwhile makes them read again
        first, second = service.index(), service.index()
        assert (await first) is (await second) is index
        service.forget()
        assert service.loading and (await service.index()) is not index


async def test_the_registry_is_made_into_objects_and_indexed_off_the_loop(
    ledger: Ledger, monkeypatch: Any
) -> None:
    """On both ledgers, the registry's rows become payees and destinations, and the index is
    built, in a thread other than the event loop's (a team's 170,000 rows froze the window
    when its fetched rows were made into objects on the loop)."""
    loop_thread = threading.get_ident()
    recording = False
    made_in: set[int] = set()
    built_in: set[int] = set()

    def spied(module: Any, name: str) -> None:
        make = getattr(module, name)

        def spy(row: Any) -> Any:
            if recording:
                made_in.add(threading.get_ident())
            return make(row)

        monkeypatch.setattr(module, name, spy)

    for module in (ledger_payees, team_payees):
        spied(module, "_payee")
        spied(module, "_destination")
    fill = RegistryIndex.fill

    def spied_fill(index: RegistryIndex, *args: Any, **kwargs: Any) -> Any:
        built_in.add(threading.get_ident())
        return (yield from fill(index, *args, **kwargs))

    monkeypatch.setattr(RegistryIndex, "fill", spied_fill)
    service = PayeeService(ledger)
    payee = await service.save_payee("Papelaria Central", "11.222.333/0001-81")
    await service.add(payee.id, service.key("pix@papelaria.com.br"))
    if ledger.backend == "team":  # a second person approves the destination
        name = ledger.settings.dbname  # type: ignore[attr-defined]
        with psycopg.connect(team().server.url(name), autocommit=True) as conn:
            for change in await service.pending():
                conn.execute("SELECT treasury.decide_destination(%s, 'APPROVED', '')", (change.id,))
    recording = True
    index = await service.index(fresh=True)
    recording = False
    assert made_in and loop_thread not in made_in
    assert built_in and loop_thread not in built_in
    found = index.owner_of("pix@papelaria.com.br")
    assert found is not None and found.document == payee.document


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
