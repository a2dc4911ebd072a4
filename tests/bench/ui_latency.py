"""How late the UI loop runs while the statement table loads 100,000 entries and status polls
go to the sandbox bank at the same time.

One process, one Qt + asyncio loop (qasync), as the app runs. The real ``StatementModel``,
``StatementFilterProxy`` and ``QTableView``, the view set up as the statement tab sets it up
(sorting on, newest first), read 100,000 fabricated entries from a fake page source in pages of
the tab's size, each page after a 5 ms pause (the bank), the view scrolled to the bottom until
every row is in. The source makes each page's ``Transaction`` objects when the page is asked
for, as the bank's answers are parsed (on the loop, about 1.6 ms a page here), so they are
garbage once the model has made its rows, and the garbage collector sees the same churn.
Meanwhile 200 balance queries go to a real sandbox bank over mutual TLS, in batches of 5 spread
over the load (a batch each time another 1/40 of the rows is in), and a 5 ms timer, re-armed at
each timeout, records how late each timeout fires.

Prints p50, p99 and max lateness (and the same with nothing running: this machine's floor),
the load's duration, the polls, and memory: peak RSS, and the Python heap an entry costs the
model, from ``tracemalloc`` over another model (no view) that reads 10,000 entries at the end,
sorted as the tab sorts, the parsed pages dropped as in the run (tracing the run itself would
slow it, and its own bookkeeping would raise the peak RSS), beside the heap of a parsed
``Transaction``. Targets: p99 < 16 ms, max < 50 ms, peak RSS < 300 MB. Not a test: it prints
figures (``make bench``).

``--rows N``: another number of entries. ``--unsorted``: the view without sorting (the
model's plain page appends), for comparison. ``--why``: also sample the loop thread's Python
stack while the loop is late and print where it was (the sampling thread costs a little: that
run's lateness figures run high). ``--smoke`` (``make bench-smoke``): 2,000 entries, 40 polls,
0.3 s idle, 1,000 entries under tracemalloc; exits 1 unless every entry was loaded and every
poll answered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import gc
import os
import resource
import statistics
import sys
import tempfile
import threading
import time
import tracemalloc
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable
from decimal import Decimal
from pathlib import Path
from types import CodeType

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_API", "pyside6")  # qasync picks its Qt binding from this

import qasync
from PySide6.QtCore import QModelIndex, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication, QHeaderView, QTableView

from treasury_app.api.accounts.models import Counterparty, Transaction
from treasury_app.config import AppPaths
from treasury_app.services.profiles import sandbox_profile
from treasury_app.services.sandbox_runner import SandboxHandle, ensure_sandbox_blocking
from treasury_app.services.session import Session
from treasury_app.ui.controller import freeze_long_lived_objects
from treasury_app.ui.models.statement_model import Column, StatementFilterProxy, StatementModel
from treasury_app.ui.tabs.statement_tab import DEFAULT_PAGE_SIZE

TOTAL = 100_000
PAGE = DEFAULT_PAGE_SIZE
BANK_PAUSE = 0.005  # seconds before each page, like the model's tests
POLLS = 200
POLL_BATCH = 5
TICK = 0.005  # the probe timer's interval
IDLE_SECONDS = 1.0
LOAD_TIMEOUT = 600.0
TARGET_P99_MS = 16.0
TARGET_MAX_MS = 50.0
TARGET_RSS_MB = 300.0
HEAP_SAMPLE = 10_000  # entries read under tracemalloc
SMOKE = {"rows": 2_000, "polls": 40, "idle": 0.3, "heap_sample": 1_000}
STALL = 0.016  # --why: a timeout this late counts as a stall
NEWEST = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


def fabricate(total: int, first: int = 0, count: int | None = None) -> list[Transaction]:
    """Entries ``first`` to ``first + count`` of a statement of ``total``: newest first, like
    the bank; every 3rd entry a credit (as in the model's tests)."""
    entries = []
    for i in range(first, min(total, first + (total if count is None else count))):
        credit = i % 3 == 0
        name = f"Cliente Ribeirão {i % 37}" if credit else f"Gráfica Fornecedor {i % 100}"
        entries.append(
            Transaction(
                id=total - i,
                created_at=NEWEST - dt.timedelta(minutes=3 * i),
                credit_debit_type="CREDIT" if credit else "DEBIT",
                transaction_type="PIX" if i % 5 else "BILLET",
                amount=Decimal(i % 997) + Decimal(7 + i % 90) / 100,
                description=("Pix recebido de " if credit else "Pagamento a ") + name,
                counterparty=Counterparty(name=name, document="11222333000181"),
                end_to_end_id=f"E99999010202611181300{i:011d}",
            )
        )
    return entries


class FakeSource:
    """``StatementService.pages``'s interface over ``total`` fabricated entries, each page made
    when it is asked for (``pause`` seconds before it: the bank)."""

    def __init__(self, total: int, pause: float = BANK_PAUSE) -> None:
        self.total = total
        self.pause = pause

    async def pages(
        self,
        start: dt.date,
        end: dt.date,
        page_size: int = PAGE,
        *,
        credit_debit: object = None,
        transaction_type: object = None,
    ) -> AsyncIterator[list[Transaction]]:
        for first in range(0, self.total, page_size):
            await asyncio.sleep(self.pause)
            yield fabricate(self.total, first, page_size)


class LatenessProbe(QObject):
    """A precise single-shot timer re-armed at each timeout; records how late each fires.
    ``on_stall(due, fired)`` is called for each timeout later than ``STALL``."""

    def __init__(self, interval: float = TICK) -> None:
        super().__init__()
        self.interval = interval
        self.lateness: list[float] = []
        self.on_stall: Callable[[float, float], None] | None = None
        self._due = 0.0
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setTimerType(Qt.TimerType.PreciseTimer)
        self._timer.setInterval(round(interval * 1000))
        self._timer.timeout.connect(self._fired)

    def start(self) -> None:
        self.lateness = []
        self._arm()

    def stop(self) -> list[float]:
        self._timer.stop()
        return self.lateness

    def _arm(self) -> None:
        self._due = time.perf_counter() + self.interval
        self._timer.start()

    def _fired(self) -> None:
        fired = time.perf_counter()
        self.lateness.append(fired - self._due)
        if self.on_stall is not None and fired - self._due > STALL:
            self.on_stall(self._due, fired)
        self._arm()


Stack = tuple[tuple[CodeType, int], ...]


class StallSampler:
    """``--why``: a thread samples the loop thread's Python stack every millisecond into a
    short ring; when a probe timeout fires late, the samples taken while it was overdue are
    counted by stack, and :meth:`report` prints the commonest. A stack that ends in a call into
    Qt (an ``emit``, say) stands for Qt's C++ work under that call, the Python methods it calls
    back included (the sampler mostly gets the GIL between them); a stack of the loop alone
    means Qt's own event processing."""

    def __init__(self, probe: LatenessProbe) -> None:
        self.stacks: Counter[Stack] = Counter()
        self.stalls = 0
        self._ring: deque[tuple[float, Stack]] = deque(maxlen=5000)
        self._loop_thread = threading.get_ident()
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="stall-sampler", daemon=True)
        probe.on_stall = self._stalled

    def __enter__(self) -> StallSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._done.set()
        self._thread.join()

    def _run(self) -> None:
        while not self._done.wait(0.001):
            frame = sys._current_frames().get(self._loop_thread)
            stack: list[tuple[CodeType, int]] = []
            while frame is not None and len(stack) < 6:
                if "asyncio" not in Path(frame.f_code.co_filename).parts:
                    stack.append((frame.f_code, frame.f_lineno))
                frame = frame.f_back
            self._ring.append((time.perf_counter(), tuple(stack)))

    def _stalled(self, due: float, fired: float) -> None:
        self.stalls += 1
        for moment, stack in list(self._ring):  # list(): one step, the sampler cannot cut in
            if due <= moment <= fired:
                self.stacks[stack] += 1

    def report(self) -> None:
        total = sum(self.stacks.values())
        print(f"--why: {self.stalls} timeouts over {STALL * 1000:.0f} ms late; {total} samples:")
        for stack, count in self.stacks.most_common(6):
            where = " <- ".join(
                f"{code.co_qualname} ({Path(code.co_filename).name}:{line})" for code, line in stack
            )
            print(f"  {count / total:4.0%}  {where}")


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def lateness_line(label: str, values: list[float], *, targets: bool = False) -> str:
    p50, p99, worst = (percentile(values, f) * 1000 for f in (0.5, 0.99, 1.0))
    line = f"{label:<30} p50 {p50:5.1f} ms   p99 {p99:6.1f} ms   max {worst:6.1f} ms"
    if targets:
        p99_ok = "met" if p99 < TARGET_P99_MS else "MISSED"
        max_ok = "met" if worst < TARGET_MAX_MS else "MISSED"
        line += (
            f"   targets: p99 < {TARGET_P99_MS:.0f} ms {p99_ok}, max < {TARGET_MAX_MS:.0f} ms "
            f"{max_ok}"
        )
    return f"{line}   [{len(values)} timeouts]"


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


class Table:
    """The statement table: model, filter proxy and a view set up as ``StatementTab``'s."""

    def __init__(self, *, sort_by_date: bool) -> None:
        self.model = StatementModel()
        self.proxy = StatementFilterProxy()
        self.proxy.setSourceModel(self.model)
        self.view = view = QTableView()
        view.setModel(self.proxy)
        if sort_by_date:
            view.setSortingEnabled(True)
            view.sortByColumn(Column.DATE, Qt.SortOrder.DescendingOrder)
        view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QTableView.SelectionMode.SingleSelection)
        view.setAlternatingRowColors(True)
        view.setWordWrap(False)
        view.verticalHeader().hide()
        view.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.verticalHeader().setDefaultSectionSize(view.fontMetrics().height() + 8)
        view.horizontalHeader().setSectionResizeMode(
            Column.DESCRIPTION, QHeaderView.ResizeMode.Stretch
        )
        view.resize(1000, 600)
        view.show()
        self.arrived = asyncio.Event()  # for the scrolling driver
        self.progress = asyncio.Event()  # for the pollers
        self.model.rowsInserted.connect(self._rows_inserted)
        self.nudges = 0  # fetchMore calls of ours, when scrolling alone did not ask for a page
        self.load_started = 0.0

    def _rows_inserted(self, *_: object) -> None:
        self.arrived.set()
        self.progress.set()

    async def load_all(self, source: FakeSource) -> float:
        """Scroll to the bottom until every row is in; seconds taken."""
        started = self.load_started = time.perf_counter()
        self.model.load(source, dt.date(2026, 1, 1), NEWEST.date(), PAGE)
        deadline = started + LOAD_TIMEOUT
        while self.model.rowCount() < source.total:
            if self.model.failed or time.perf_counter() > deadline:
                raise RuntimeError(f"the load stopped at {self.model.rowCount()} rows")
            self.arrived.clear()
            self.view.scrollToBottom()
            if not self.model.loading and self.proxy.canFetchMore(QModelIndex()):
                self.nudges += 1
                self.proxy.fetchMore(QModelIndex())
            await self.arrived.wait()
        return time.perf_counter() - started

    async def rows_reach(self, count: int) -> None:
        while self.model.rowCount() < count:
            self.progress.clear()
            await self.progress.wait()

    def close(self) -> None:
        self.model.reset(None)
        self.view.close()
        self.view.deleteLater()


class Polls:
    """``count`` (``POLLS``) balance queries in batches of ``POLL_BATCH``, one batch each time
    another 1/(count/POLL_BATCH) of the rows is in, so they run all along the load."""

    def __init__(self, session: Session, table: Table, rows: int, count: int = POLLS) -> None:
        self.session = session
        self.table = table
        self.rows = rows
        self.count = count
        self.durations: list[float] = []
        self.started = self.finished = 0.0

    async def run(self) -> None:
        self.started = time.perf_counter()
        batches = max(1, self.count // POLL_BATCH)
        for batch in range(batches):
            await self.table.rows_reach(self.rows * batch // batches)
            await asyncio.gather(*(self._one() for _ in range(POLL_BATCH)))
        self.finished = time.perf_counter()

    async def _one(self) -> None:
        started = time.perf_counter()
        balances = await self.session.accounts.get_balances()
        self.durations.append(time.perf_counter() - started)
        assert balances


async def model_heap_per_entry(count: int = HEAP_SAMPLE) -> float:
    """Python heap, in bytes, that one entry costs a ``StatementModel`` (``tracemalloc`` over
    a model reading ``count``, sorted by date as the tab's view sorts it, without a view): its
    rows, their shared text and its lists, the parsed pages gone."""
    gc.collect()
    tracemalloc.start()
    try:
        model = StatementModel()
        model.sort(Column.DATE, Qt.SortOrder.DescendingOrder)
        model.load(FakeSource(count, pause=0), dt.date(2026, 1, 1), NEWEST.date(), PAGE)
        if not await model.fetch_all() or model.rowCount() != count:
            raise RuntimeError(f"the traced load stopped at {model.rowCount()} rows")
        gc.collect()
        heap, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    model.reset(None)
    return heap / count


def parsed_heap_per_entry(count: int = HEAP_SAMPLE) -> float:
    """Python heap, in bytes, of one parsed ``Transaction`` (what the model kept before)."""
    tracemalloc.start()
    try:
        entries = fabricate(count)
        heap, _peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del entries
    return heap / count


async def bench(paths: AppPaths, sandbox: SandboxHandle, args: argparse.Namespace) -> list[str]:
    """Prints the figures; what did not happen as it should (empty: all did)."""
    profile, secrets = sandbox_profile(sandbox.ready_file)
    session = await Session.open(
        profile,
        pfx_passwords=secrets.pfx_passwords,
        client_secrets=secrets.client_secrets,
        paths=paths,
    )
    try:
        await session.check_connection()  # the app warms up right after unlock, too
        await session.accounts.get_balances()
        freeze_long_lived_objects()  # as the app does after the unlock
        rss_setup = peak_rss_mb()

        probe = LatenessProbe()
        probe.start()
        await asyncio.sleep(args.idle)
        idle = probe.stop()

        table = Table(sort_by_date=not args.unsorted)
        polls = Polls(session, table, args.rows, args.polls)
        sampler = StallSampler(probe) if args.why else None
        probe.start()
        with sampler or contextlib.nullcontext():
            polling = asyncio.ensure_future(polls.run())
            load_seconds = await table.load_all(FakeSource(args.rows))
            await polling
        loaded = probe.stop()
        rss_peak = peak_rss_mb()
        rows, nudges, load_started = table.model.rowCount(), table.nudges, table.load_started
        table.close()
    finally:
        await session.close()
    # After the peak RSS is read: tracing costs memory too.
    per_entry = await model_heap_per_entry(args.heap_sample)
    per_parsed = parsed_heap_per_entry(args.heap_sample)

    setup = "unsorted view" if args.unsorted else "view sorted by date, newest first (the tab's)"
    print(
        f"{args.rows:,} entries in pages of {PAGE} ({BANK_PAUSE * 1000:.0f} ms pause each), "
        f"{setup}; {args.polls} balance polls in batches of {POLL_BATCH}"
    )
    print(lateness_line("idle (the timer alone)", idle))
    print(lateness_line("during the load and polls", loaded, targets=True))
    print(
        f"load: {rows:,} rows in {load_seconds:.2f} s ({rows / load_seconds:,.0f} rows/s); "
        f"{nudges} fetchMore call(s) of ours where scrolling had not asked"
    )
    print(
        f"polls: {len(polls.durations)}, from {polls.started - load_started:.1f} s to "
        f"{polls.finished - load_started:.1f} s into the load; each took p50 "
        f"{statistics.median(polls.durations) * 1000:.1f} ms, "
        f"max {max(polls.durations) * 1000:.1f} ms"
    )
    verdict = "met" if rss_peak < TARGET_RSS_MB else "MISSED"
    print(
        f"peak RSS {rss_peak:.0f} MB   target < {TARGET_RSS_MB:.0f} MB {verdict}   "
        f"(imports, Qt, session: {rss_setup:.0f} MB)"
    )
    print(
        f"Python heap of an entry in the model (tracemalloc, {args.heap_sample:,} more read at the "
        f"end): {per_entry / 1024:.2f} KiB, so {per_entry * args.rows / 2**20:.0f} MB for "
        f"{args.rows:,}; a parsed Transaction: {per_parsed / 1024:.2f} KiB"
    )
    if sampler is not None:
        sampler.report()
    problems: list[str] = []
    if rows != args.rows:
        problems.append(f"{rows:,} entries loaded of {args.rows:,}")
    expected_polls = max(1, args.polls // POLL_BATCH) * POLL_BATCH
    if len(polls.durations) != expected_polls:
        problems.append(f"{len(polls.durations)} polls answered of {expected_polls}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description="UI loop lateness while a statement loads")
    parser.add_argument("--rows", type=int, default=TOTAL, help="how many entries")
    parser.add_argument("--unsorted", action="store_true", help="the view without sorting")
    parser.add_argument("--why", action="store_true", help="sample the stack during stalls")
    parser.add_argument(
        "--smoke", action="store_true", help=f"{SMOKE['rows']:,} entries, {SMOKE['polls']} polls"
    )
    args = parser.parse_args()
    args.polls, args.idle, args.heap_sample = POLLS, IDLE_SECONDS, HEAP_SAMPLE
    if args.smoke:
        for name, value in SMOKE.items():
            setattr(args, name, value)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)  # closing the table must not end the loop
    with tempfile.TemporaryDirectory(prefix="treasury-ui-latency-") as tmp:
        paths = AppPaths.default(Path(tmp))
        paths.ensure()
        sandbox = ensure_sandbox_blocking(paths)
        try:
            problems = qasync.run(bench(paths, sandbox, args))
        finally:
            sandbox.stop()
    for problem in problems:
        print(f"NOT AS IT SHOULD BE: {problem}")
    return 1 if problems and args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
