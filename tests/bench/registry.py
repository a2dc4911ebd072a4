"""How fast the payee registry answers with 50,000 payees and 120,000 destinations (issue 36):
the window while the registry loads, typing in the Pix form's payee field, and matching a
5,000-row payout batch.

Builds a real ledger file (SQLite, the single desktop's) with the registry written through
its store's table layout in one transaction, then, on one Qt + asyncio loop (qasync) as the
app runs:

* **loading**: the first keystroke in the real
  :class:`~treasury_app.ui.widgets.payee_picker.PayeePicker` (the picker says "loading…"),
  then the Payees tab opened on a registry changed meanwhile: how late a 5 ms timer fires
  while the registry is read and its index built (``ui_latency.py``'s probe; target p99 <
  16 ms), and how long until the picker answers or the tab lists every payee;
* **typing**: for each of 500 queries (prefixes of names, documents, keys, accounts, tags: 1
  to 8 characters typed) the time from the keystroke's text to the completer's list filled
  (target p99 < 50 ms);
* **batch**: :meth:`PayeeService.statuses` over 5,000 rows (half registered, half not),
  the registry read afresh from the file included (target < 1 s).

Not a test: it prints figures. ``--payees N``, ``--destinations N`` to change the sizes;
``--why``: where the loop was when it ran late (``ui_latency.py``'s sampler); ``--team``: the
same on a team ledger, the registry written into a migrated database of a throwaway
PostgreSQL (``tests/pg_server.py``, as the tests start one) and read by a desk's login.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import os
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

# Run as a script, this file's folder leads sys.path, where its neighbour "calendar" would hide
# the standard library's: the repository's root replaces it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parents[1]))
os.environ.setdefault("QT_API", "pyside6")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from treasury_app.domain.documents import cnpj_check_digits, cpf_check_digits  # noqa: E402
from treasury_app.ledger import Ledger, open_ledger  # noqa: E402
from treasury_app.services.payees import PayeeService  # noqa: E402


def _neighbour(name: str) -> types.ModuleType:
    """A bench beside this one, by its path (this folder is off sys.path, see above)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", _HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


latency = _neighbour("ui_latency")  # how lateness is measured: one probe for every bench
TARGET_LATE_P99_MS = 16.0
TARGET_TYPING_P99_MS = 50.0
IDLE_SECONDS = 1.0

WORDS = (
    "papelaria gráfica expressa central comércio serviços transportes alimentos engenharia "
    "consultoria limpeza segurança tecnologia distribuidora materiais construção farmácia "
    "oficina mecânica padaria mercado atacado varejo logística editora"
).split()
PEOPLE = "ana bruno carla diego elisa fábio gabriela hugo isabel joão karina lucas".split()
TAGS = ("fornecedor", "funcionário", "centro de custo 1", "centro de custo 2", "aluguel")


def document(rng: random.Random, company: bool) -> str:
    if company:
        first = "".join(rng.choice("0123456789") for _ in range(12))
        return first + cnpj_check_digits(first)
    first = "".join(rng.choice("0123456789") for _ in range(9))
    return first + cpf_check_digits(first)


Rows = tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]


def registry_rows(payees: int, destinations: int, seed: int = 36) -> Rows:
    """The registry's payees ``(id, name, document, tags)`` and destinations ``(payee_id,
    kind, detail, key_type, ispb, branch, account, account_type)``."""
    rng = random.Random(seed)
    payee_rows: list[tuple[Any, ...]] = []
    for number in range(1, payees + 1):
        company = number % 3 != 0
        if company:
            name = " ".join(rng.sample(WORDS, 3)).title() + " Ltda"
        else:
            name = f"{rng.choice(PEOPLE).title()} {rng.choice(WORDS).title()} {number}"
        tags = rng.sample(TAGS, rng.randint(0, 2))
        payee_rows.append((number, name, document(rng, company), tags))
    destination_rows: list[tuple[Any, ...]] = []
    for number in range(1, destinations + 1):
        payee = rng.randint(1, payees)
        if number % 2:
            detail = f"pagamentos{number}@empresa{payee}.com.br"
            values: tuple[Any, ...] = ("PIX_KEY", detail, "EMAIL", None, None, None, None)
        else:
            account = str(rng.randint(10_000, 99_999_999))
            detail = f"60746948/{number % 9000 + 1}/{account}"
            values = ("ACCOUNT", detail, None, "60746948", str(number % 9000 + 1), account, "CACC")
        destination_rows.append((payee, *values))
    return payee_rows, destination_rows


def details_of(rows: Rows) -> list[str]:
    return [row[2] for row in rows[1]]


def build(path: Path, rows: Rows) -> None:
    """The registry written straight into a new ledger file."""
    ledger = open_ledger(path, profile="bench", user="bench")
    conn = ledger.conn
    at = "2026-12-01T12:00:00.000Z"
    conn.execute("BEGIN")
    for number, name, document_, tags in rows[0]:
        conn.execute(
            "INSERT INTO payees (id, name, document, tags, created_at, created_by, updated_at)"
            " VALUES (?, ?, ?, ?, ?, 'bench', ?)",
            (number, name, document_, json.dumps(tags, ensure_ascii=False), at, at),
        )
    for row in rows[1]:
        conn.execute(
            "INSERT INTO destinations (payee_id, kind, detail, key_type, ispb, branch, account,"
            " account_type, state, changed_at, action, changed_by)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'verified', ?, 'added', 'bench')",
            (*row, "2026-12-01T12:00:00+00:00"),
        )
    conn.execute("COMMIT")
    ledger.close_now()


def build_team(url: str, rows: Rows) -> None:
    """The registry written straight into a migrated team database (its owner's ``COPY``)."""
    import psycopg

    at = "2026-12-01T12:00:00.000Z"
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        cursor = conn.cursor()
        with cursor.copy(
            "COPY treasury.payees (id, name, document, tags, created_at, created_by,"
            " updated_at) FROM STDIN"
        ) as copy:
            for number, name, document_, tags in rows[0]:
                copy.write_row((number, name, document_, tags, at, "bench", at))
        with cursor.copy(
            "COPY treasury.destinations (payee_id, kind, detail, key_type, ispb, branch,"
            " account, account_type, state, changed_at, action, changed_by) FROM STDIN"
        ) as copy:
            for row in rows[1]:
                copy.write_row((*row, "verified", "2026-12-01T12:00:00+00:00", "added", "bench"))
        cursor.execute(
            "SELECT setval('treasury.payees_id_seq', (SELECT max(id) FROM treasury.payees))"
        )


def queries(rng: random.Random, details: list[str], count: int) -> list[str]:
    out: list[str] = []
    for _ in range(count):
        kind = rng.randrange(5)
        if kind == 0:
            text = rng.choice(WORDS)
        elif kind == 1:
            text = rng.choice(PEOPLE)
        elif kind == 2:
            text = str(rng.randint(100, 999))
        elif kind == 3:
            text = rng.choice(details)
        else:
            text = rng.choice(TAGS)
        out.append(text[: rng.randint(1, 8)])
    return out


def lateness_line(label: str, values: list[float]) -> str:
    p99 = latency.percentile(values, 0.99) * 1000
    verdict = "met" if p99 < TARGET_LATE_P99_MS else "MISSED"
    return (
        latency.lateness_line(label, values)
        + f"   target p99 < {TARGET_LATE_P99_MS:.0f} ms {verdict}"
    )


async def probed(work: Any, why: bool = False) -> tuple[list[float], float]:
    """Run ``work`` (a coroutine) with the lateness probe on: its lateness, its seconds
    (``why``: and where the loop was when it ran late, ``ui_latency.py``'s sampler)."""
    probe = latency.LatenessProbe()
    with latency.StallSampler(probe) if why else contextlib.nullcontext() as sampler:
        probe.start()
        started = time.perf_counter()
        await work
        elapsed = time.perf_counter() - started
        late = probe.stop()
    if sampler is not None and sampler.stalls:
        sampler.report()
    return late, elapsed


async def until(condition: Any) -> None:
    while not condition():
        await asyncio.sleep(0.005)


async def bench(ledger: Ledger, details: list[str], args: argparse.Namespace) -> int:
    from treasury_app.ui.tabs.payees_tab import PayeesTab
    from treasury_app.ui.widgets.payee_picker import PayeePicker

    app = QApplication.instance()
    assert app is not None
    service = PayeeService(ledger)
    idle, _ = await probed(asyncio.sleep(IDLE_SECONDS))
    print(latency.lateness_line("idle (this machine's floor)", idle))

    picker = PayeePicker(service)
    picker.show()
    picker.activateWindow()
    picker.setFocus()

    async def first_keystroke() -> None:
        picker.setText("pap")
        picker._typed("pap")  # what a keystroke runs: the registry is not read yet
        said = picker._model.stringList()
        assert said and "registry" in said[0], said  # the picker says it is loading
        await until(lambda: bool(picker.matches))

    late, elapsed = await probed(first_keystroke(), args.why)
    print(lateness_line("first keystroke (loading)", late))
    print(f"  the picker answered {elapsed:.2f} s after the first keystroke ('loading…' before)")

    workspace = types.SimpleNamespace(payees=service, ledger=ledger)
    service.forget()  # the registry changed: the tab reads it again
    tab = PayeesTab(workspace)  # type: ignore[arg-type]
    tab.resize(1300, 650)

    async def open_tab() -> None:
        tab.show()
        await until(lambda: tab.payees.rowCount() == args.payees)

    late, elapsed = await probed(open_tab(), args.why)
    print(lateness_line("Payees tab opened (loading)", late))
    print(f"  the tab listed {tab.payees.rowCount():,} payees {elapsed:.2f} s after it opened")
    tab.close()

    rng = random.Random(7)
    times: list[float] = []
    found = 0
    for text in queries(rng, details, args.queries):
        started = time.perf_counter()
        picker.setText(text)
        picker._typed(text)  # what a keystroke runs: search, the completer's list filled
        app.processEvents()
        times.append((time.perf_counter() - started) * 1000)
        found += bool(picker.matches)
        await asyncio.sleep(0)
    times.sort()
    p99 = times[int(len(times) * 0.99) - 1]
    verdict = "met" if p99 < TARGET_TYPING_P99_MS else "MISSED"
    print(
        f"typing: {len(times)} queries, p50 {statistics.median(times):.2f} ms, p99 {p99:.2f} ms,"
        f" max {times[-1]:.2f} ms (target p99 < {TARGET_TYPING_P99_MS:.0f} ms {verdict});"
        f" {found} with matches"
    )
    rows = [
        (rng.choice(details) if i % 2 else f"desconhecido{i}@example.com", "")
        for i in range(args.rows)
    ]
    started = time.perf_counter()
    statuses = await service.statuses(rows)
    elapsed = time.perf_counter() - started
    known = sum(1 for status, _ in statuses if status.value != "unknown")
    print(
        f"batch: {len(rows):,} rows matched in {elapsed * 1000:.0f} ms, read from the ledger "
        f"(target < 1 s); {known:,} registered"
    )
    picker.close()
    await ledger.close()
    return 0


async def on_file(path: Path, details: list[str], args: argparse.Namespace) -> int:
    return await bench(open_ledger(path, profile="bench", user="bench"), details, args)


async def on_team(settings: Any, folder: Path, details: list[str], args: argparse.Namespace) -> int:
    from treasury_app.ledger.team import open_team_ledger

    ledger = await open_team_ledger(
        settings, profile="bench", password=None, receipts_dir=folder / "receipts"
    )
    return await bench(ledger, details, args)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--payees", type=int, default=50_000)
    parser.add_argument("--destinations", type=int, default=120_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--rows", type=int, default=5_000)
    parser.add_argument(
        "--why", action="store_true", help="where the loop was when it ran late (costs a little)"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="make bench-smoke: a small registry, the same checks"
    )
    parser.add_argument(
        "--team", action="store_true", help="a team ledger (a throwaway PostgreSQL) instead"
    )
    args = parser.parse_args()
    if args.smoke:
        args.payees, args.destinations, args.queries, args.rows = 2_000, 5_000, 50, 200
    app = QApplication.instance() or QApplication([])
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)  # the picker closes before the team ledger does
    folder = Path(tempfile.mkdtemp(prefix="registry-bench-"))
    rows = registry_rows(args.payees, args.destinations)
    details = details_of(rows)
    if not args.team:
        path = folder / "ledger.sqlite3"
        started = time.perf_counter()
        build(path, rows)
        print(
            f"registry: {args.payees:,} payees, {args.destinations:,} destinations written in "
            f"{time.perf_counter() - started:.1f} s (a ledger file)"
        )
        result: int = qasync.run(on_file(path, details, args))
        return result
    import psycopg

    from tests.pg_server import start_server
    from treasury_app.ledger.team import TeamDatabaseSettings, migrations
    from treasury_app.ledger.team.schema import APPROVER, MAKER

    server = start_server(folder / "pg")
    try:
        server.create_database("bench")
        with psycopg.connect(server.url("bench"), autocommit=True) as conn:
            migrations.init(conn)
            migrations.add_user(conn, "desk", (MAKER, APPROVER))
        started = time.perf_counter()
        build_team(server.url("bench"), rows)
        print(
            f"registry: {args.payees:,} payees, {args.destinations:,} destinations written in "
            f"{time.perf_counter() - started:.1f} s (a team database, PostgreSQL "
            f"{server.version}, {server.flavour})"
        )
        settings = TeamDatabaseSettings(
            host=server.host, port=server.port, dbname="bench", user="desk", sslmode="disable"
        )
        result = qasync.run(on_team(settings, folder, details, args))
        return result
    finally:
        server.close()


if __name__ == "__main__":
    raise SystemExit(main())
