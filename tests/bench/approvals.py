"""The Approvals tab with 10,000 intents waiting, and approve → released → accepted by the bank.

A throwaway PostgreSQL (``tests/pg_server.py``) holds one team database under the default
policy (one approval; two above R$ 10.000,00; no new-payee extra: the sandbox's keys are new to
a fresh database), with a maker (``bench_ana``) and an approver (``bench_bruno``). The maker's
login journals ``--waiting`` intents through ``treasury.prepare`` (one connection, pipelined),
each its own payee and description. Then two desktops open against the sandbox bank over mutual
TLS, as the app opens them (``Session.open`` with a team profile): the maker's and the
approver's.

Prints, on the approver's desktop, in one process with one Qt + asyncio loop (qasync) as the
app runs:

* the Approvals tab opened: from constructing ``ApprovalsTab`` (the real tab, the desk's
  three lists read, 10,000 rows in "Waiting for my approval") to the rows in its model and to
  the view painted (target < 1 s); then how long each part takes on its own (the database
  reads, the rows into the model, a paint), a reload (what a change seen from another desktop
  does) and a click on a header (sorting 10,000 rows);
* UI loop lateness (a 5 ms timer, re-armed at each timeout, as ``tests/bench/ui_latency.py``)
  while idle, while the tab opens, while it reloads and while the list is scrolled a page every
  16 ms (target p99 < 16 ms);
* approve → released → accepted: the maker prepares ``--payouts`` payouts, the approver
  approves each (``desk.approve(entry, entry.amount)``, which releases it from this desktop
  through the payment engine); p50/p99/max from the call to the entry ``ACCEPTED``, split into
  the database's approval and the release to the bank.

Also prints the time each desktop took to open with 10,000 intents waiting in the journal, and
how much of it ``PaymentEngine.resolve_pending`` takes (it reads every ``PREPARED`` intent).
The lateness windows run from the first call to 200 ms after the last paint, so "while the tab
opens" holds some 60 timeouts: its p99 is its second-worst timeout. If
``treasury_app/ui/tabs/approvals_tab.py`` cannot be imported, the model layer alone is measured
(the desk's lists into a plain ``QAbstractTableModel``) and the output says so.

Everything runs on the one loop: the bench awaits what it measures (a paint of the view is
awaited as the loop delivers it), never runs Qt's event processing inside a coroutine, which
would step the desktops' other tasks (their change feeds) inside the bench's own step.

Not a test: it prints figures (``make bench``). ``.venv/bin/python tests/bench/approvals.py
[--waiting 10000] [--payouts 200] [--why]``; ``--why`` also samples the loop thread's stack
while the tab's loop runs late and prints where it was (``tests/bench/ui_latency.py --why``).
``--smoke`` (``make bench-smoke``): 200 intents waiting, 3 payouts, shorter idle and scroll
windows; exits 1 unless the real tab was measured, showed every intent waiting, and every
payout approved was released and accepted by the bank.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable
from decimal import Decimal
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_API", "pyside6")  # qasync picks its Qt binding from this
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import psycopg  # noqa: E402
import qasync  # noqa: E402
from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication, QTableView, QWidget  # noqa: E402

from tests.bench.ui_latency import LatenessProbe, StallSampler, percentile  # noqa: E402
from tests.ledger_backends import TeamDatabases  # noqa: E402
from tests.pg_server import start_server  # noqa: E402
from tests.sandbox.conftest import CLOCK_START  # noqa: E402
from treasury_app.config import AppPaths  # noqa: E402
from treasury_app.domain.identifiers import new_idempotency_key  # noqa: E402
from treasury_app.domain.money import dumps_json  # noqa: E402
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry  # noqa: E402
from treasury_app.ledger.team import migrations  # noqa: E402
from treasury_app.ledger.team.schema import APPROVER, MAKER  # noqa: E402
from treasury_app.services.profiles import (  # noqa: E402
    LedgerLocation,
    Profile,
    SandboxSecrets,
    TeamDatabaseProfile,
    sandbox_profile,
)
from treasury_app.services.sandbox_runner import ensure_sandbox_blocking  # noqa: E402
from treasury_app.services.session import Session  # noqa: E402
from treasury_app.services.workspace import Workspace  # noqa: E402

WAITING = 10_000
PAYOUTS = 200
MAKER_LOGIN = "bench_ana"
APPROVER_LOGIN = "bench_bruno"
IDLE_SECONDS = 1.0
SCROLL_SECONDS = 2.0
SCROLL_STEP = 0.016  # a page every frame
TARGET_OPEN_S = 1.0
TARGET_P99_MS = 16.0
PAINT_TIMEOUT = 30.0  # seconds: a paint asked for and not delivered by then is an error
SMOKE = {"waiting": 200, "payouts": 3, "idle": 0.3, "scroll": 0.5}

PREPARE_SQL = "SELECT id FROM treasury.prepare(%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"


# -- the team database -------------------------------------------------------------------------


def seed_waiting(url: str, count: int, profile: str) -> float:
    """``count`` intents journaled by the maker's login through ``treasury.prepare`` (one
    connection, pipelined by ``executemany``), each a payee and a description of its own;
    seconds taken."""
    params = []
    for number in range(count):
        key = f"fornecedor{number:05d}@example.com.br"
        amount = Decimal(10 + number % 900) + Decimal(number % 100) / 100
        description = f"Fatura {number:05d}"
        request = {
            "pixKey": key,
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": amount},
            "description": description,
        }
        params.append(
            (
                EntryKind.PIX_KEY.value,
                f"Fornecedor {number % 700} Ltda",
                "",
                key,
                amount,
                description,
                "INSTANT",
                new_idempotency_key(),
                dumps_json(request),
                profile,
                None,
            )
        )
    started = time.perf_counter()
    with psycopg.connect(url, autocommit=True) as conn, conn.cursor() as cursor:
        cursor.executemany(PREPARE_SQL, params)
    return time.perf_counter() - started


def team_profile(base: Profile, databases: TeamDatabases, database: str, user: str) -> Profile:
    """The sandbox profile with its ledger in the team database, as ``user`` (no password)."""
    return base.model_copy(
        update={
            "ledger": LedgerLocation(
                location="team",
                team=TeamDatabaseProfile(
                    host=databases.server.host,
                    port=databases.server.port,
                    dbname=database,
                    user=user,
                    sslmode="disable",
                    password="none",
                ),
            )
        }
    )


def desk_paths(folder: Path) -> AppPaths:
    paths = AppPaths(
        config_dir=folder / "config", data_dir=folder / "data", log_dir=folder / "logs"
    )
    paths.ensure()
    return paths


async def open_desk(profile: Profile, secrets: SandboxSecrets, folder: Path) -> Session:
    return await Session.open(
        profile,
        pfx_passwords=secrets.pfx_passwords,
        client_secrets=secrets.client_secrets,
        paths=desk_paths(folder),
    )


def payout(number: int) -> NewEntry:
    key = f"bench{number:04d}-{uuid.uuid4().hex[:6]}@fornecedor.com.br"
    amount = Decimal("1.00") + Decimal(number) / 100
    description = f"Bench release {number}"
    return NewEntry(
        kind=EntryKind.PIX_KEY,
        amount=amount,
        idempotency_key=new_idempotency_key(),
        request={
            "pixKey": key,
            "pixKeyType": "EMAIL",
            "payment": {"currency": "BRL", "amount": amount},
            "description": description,
        },
        payee_name="Fornecedor Bench Ltda",
        payee_detail=key,
        description=description,
    )


# -- figures -----------------------------------------------------------------------------------


def figure(label: str, seconds: float, extra: str = "") -> str:
    return f"  {label:<40}{seconds * 1000:8.1f} ms{extra}"


def lateness_row(label: str, values: list[float], *, target: bool = False) -> str:
    if not values:
        return f"  {label:<34} (no timeouts)"
    p50, p99, worst = (percentile(values, f) * 1000 for f in (0.5, 0.99, 1.0))
    line = (
        f"  {label:<34} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {worst:6.1f} ms"
        f"  [{len(values)} timeouts]"
    )
    if target:
        line += f"  p99 < {TARGET_P99_MS:.0f} ms: {'met' if p99 < TARGET_P99_MS else 'MISSED'}"
    return line


def spread(label: str, seconds: list[float]) -> str:
    p50, p99, worst = (percentile(seconds, f) * 1000 for f in (0.5, 0.99, 1.0))
    return f"  {label:<34} p50 {p50:6.1f} ms  p99 {p99:6.1f} ms  max {worst:6.1f} ms"


class PaintCounter(QObject):
    """Counts the paint events a widget (a view's viewport) receives; :meth:`next_paint` waits
    for the next one."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self.widget = widget
        self.paints = 0
        self._waiting: list[asyncio.Future[None]] = []
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
            waiting, self._waiting = self._waiting, []
            for future in waiting:
                if not future.done():
                    future.set_result(None)  # the waiter resumes once this paint is done
        return False

    async def next_paint(self) -> None:
        """Until the widget has been painted once more, as the loop paints it on screen (an
        update is asked for: Qt merges it with one already pending)."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(future)
        self.widget.update()
        await asyncio.wait_for(future, PAINT_TIMEOUT)


async def timed(awaitable: Awaitable[Any]) -> tuple[Any, float]:
    started = time.perf_counter()
    result = await awaitable
    return result, time.perf_counter() - started


# -- the tab -----------------------------------------------------------------------------------


async def bench_tab(
    workspace: Workspace,
    waiting: int,
    probe: LatenessProbe,
    idle: list[float],
    scroll_seconds: float,
    problems: list[str],
) -> list[str]:
    """Open the Approvals tab on ``workspace`` (the approver's), time it, reload it, sort and
    scroll it; the lines to print (``idle``: the loop's lateness with nothing running)."""
    try:
        from treasury_app.ui.models.approvals_model import ApprovalsModel, Column
        from treasury_app.ui.tabs.approvals_tab import ApprovalsTab
    except ImportError as error:  # the tab is not there: the model layer alone
        problems.append(f"the Approvals tab could not be imported ({error})")
        return await bench_model_layer(workspace, probe, idle, error, scroll_seconds)

    lines: list[str] = []
    # -- open ------------------------------------------------------------------------------
    probe.start()
    started = time.perf_counter()
    tab = ApprovalsTab(workspace)
    constructed = time.perf_counter()
    tab.resize(1200, 800)
    tab.show()
    view = tab.views["waiting"]
    paints = PaintCounter(view.viewport())
    assert tab.load_task is not None
    if not await tab.load_task:
        raise RuntimeError("the Approvals tab could not read its lists")
    in_model = time.perf_counter()
    await paints.next_paint()  # the view paints its rows' first screen
    painted = time.perf_counter()
    await asyncio.sleep(0.2)  # the loop settles after the open
    opening = probe.stop()
    rows = tab.models["waiting"].rowCount()
    if rows != waiting:
        raise RuntimeError(f"the waiting list holds {rows:,} rows, not {waiting:,}")
    verdict = "met" if painted - started < TARGET_OPEN_S else "MISSED"
    lines.append(
        f"Approvals tab (real ApprovalsTab), {rows:,} rows waiting for my approval, "
        f"{tab.models['mine'].rowCount()} prepared by me, "
        f"{tab.models['decided'].rowCount()} decided:"
    )
    lines.append(figure("constructed (widgets, 3 views)", constructed - started))
    lines.append(figure("lists read, rows in the model", in_model - started))
    lines.append(
        figure("view painted", painted - started, f"   target < {TARGET_OPEN_S:.0f} s: {verdict}")
    )

    # -- the parts on their own -------------------------------------------------------------
    desk = workspace.session.approvals
    assert desk is not None
    lists, lists_s = await timed(desk.lists())
    _, waiting_s = await timed(desk.store.waiting_for(desk.me, limit=waiting))
    model = ApprovalsModel(workspace.ledger.clock)
    model.sort(Column.AGE)  # as the tab's view sorts it (oldest first)
    reset_started = time.perf_counter()
    model.reset_rows(lists.waiting_for_me)
    reset_s = time.perf_counter() - reset_started
    paint_started = time.perf_counter()
    view.viewport().repaint()
    paint_s = time.perf_counter() - paint_started
    lines.append("  on their own:")
    lines.append(figure("  desk.lists() (3 lists, expiry)", lists_s))
    lines.append(figure(f"  waiting_for() alone ({waiting:,})", waiting_s))
    lines.append(figure("  model.reset_rows (sorted by age)", reset_s))
    lines.append(figure("  one paint of the waiting view", paint_s))

    # -- a reload (another desktop's change seen) -------------------------------------------
    probe.start()
    reload_started = time.perf_counter()
    task = tab.refresh()
    assert task is not None
    await task
    await paints.next_paint()
    reload_s = time.perf_counter() - reload_started
    await asyncio.sleep(0.2)
    reloading = probe.stop()
    lines.append(figure("a reload (a change seen), painted", reload_s))

    # -- a click on a header -----------------------------------------------------------------
    sort_started = time.perf_counter()
    view.sortByColumn(Column.AMOUNT, view.horizontalHeader().sortIndicatorOrder())
    await paints.next_paint()
    sort_s = time.perf_counter() - sort_started
    lines.append(figure("a header click (sort by amount)", sort_s))

    # -- scrolling ----------------------------------------------------------------------------
    view.viewport().removeEventFilter(paints)
    scrolling, steps, paints_seen = await scroll(view, probe, scroll_seconds)
    lines.append(
        f"  scrolled {steps} pages, one every {SCROLL_STEP * 1000:.0f} ms "
        f"({paints_seen} paints of the view)"
    )

    lines.append("UI loop lateness (5 ms timer) on the approver's desktop:")
    lines.append(lateness_row("idle (the timer alone)", idle))
    lines.append(lateness_row("while the tab opens", opening, target=True))
    lines.append(lateness_row("while it reloads", reloading, target=True))
    lines.append(lateness_row("while it scrolls", scrolling, target=True))

    tab.shutdown()
    tab.close()
    tab.deleteLater()
    model.deleteLater()
    return lines


async def scroll(
    view: QTableView, probe: LatenessProbe, seconds: float = SCROLL_SECONDS
) -> tuple[list[float], int, int]:
    """A page down every ``SCROLL_STEP`` for ``seconds`` (back to the top at the end),
    the view repainting as it would on screen; the lateness, the pages scrolled and the paints
    the view got."""
    paints = PaintCounter(view.viewport())
    bar = view.verticalScrollBar()
    bar.setValue(0)
    probe.start()
    steps = 0
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        bar.setValue(bar.value() + bar.pageStep() if bar.value() < bar.maximum() else 0)
        steps += 1
        await asyncio.sleep(SCROLL_STEP)
    lateness = probe.stop()
    view.viewport().removeEventFilter(paints)
    return lateness, steps, paints.paints


async def bench_model_layer(
    workspace: Workspace,
    probe: LatenessProbe,
    idle: list[float],
    error: ImportError,
    scroll_seconds: float,
) -> list[str]:
    """Without the tab: the desk's lists and a plain table model of the waiting rows."""
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt

    from treasury_app.ui.models.rows_model import Index

    top = QModelIndex()

    class Rows(QAbstractTableModel):
        def __init__(self) -> None:
            super().__init__()
            self.entries: list[Entry] = []

        def rowCount(self, parent: Index = top) -> int:
            return 0 if parent.isValid() else len(self.entries)

        def columnCount(self, parent: Index = top) -> int:
            return 0 if parent.isValid() else 5

        def data(self, index: Index, role: int = 0) -> Any:
            if role != Qt.ItemDataRole.DisplayRole:
                return None
            entry = self.entries[index.row()]
            return (
                entry.payee_name,
                str(entry.amount),
                entry.created_by,
                f"{entry.approvals_given} / {entry.approvals_needed}",
                entry.created_at,
            )[index.column()]

        def fill(self, entries: list[Entry]) -> None:
            self.beginResetModel()
            self.entries = entries
            self.endResetModel()

    desk = workspace.session.approvals
    assert desk is not None
    probe.start()
    started = time.perf_counter()
    lists = await desk.lists()
    read = time.perf_counter()
    model = Rows()
    view = QTableView()
    view.setModel(model)
    view.resize(1200, 600)
    view.show()
    model.fill(lists.waiting_for_me)
    view.viewport().repaint()
    painted = time.perf_counter()
    await asyncio.sleep(0.2)
    opening = probe.stop()
    scrolling, steps, paints_seen = await scroll(view, probe, scroll_seconds)
    view.close()
    return [
        f"THE APPROVALS TAB IS NOT THERE ({error}): the model layer only, a plain "
        f"QAbstractTableModel and QTableView over desk.lists(), {model.rowCount():,} rows:",
        figure("desk.lists()", read - started),
        figure("rows in the model, view painted", painted - started),
        f"  scrolled {steps} pages, one every {SCROLL_STEP * 1000:.0f} ms "
        f"({paints_seen} paints of the view)",
        "UI loop lateness (5 ms timer):",
        lateness_row("idle (the timer alone)", idle),
        lateness_row("while it loads", opening, target=True),
        lateness_row("while it scrolls", scrolling, target=True),
    ]


# -- approve → released → accepted -------------------------------------------------------------


async def bench_release(
    maker: Session, approver: Session, count: int, problems: list[str]
) -> list[str]:
    """The maker prepares ``count`` payouts; the approver approves each, one after the other,
    and its desktop releases it to the sandbox bank."""
    desk = approver.approvals
    assert desk is not None and maker.approvals is not None
    prepared: list[Entry] = []
    prepare_s: list[float] = []
    for number in range(count):
        entry, seconds = await timed(maker.payments.submit(payout(number)))
        if entry.state != EntryState.PREPARED or entry.approval != "WAITING":
            raise RuntimeError(f"payout {number} was not left waiting: {entry.state}")
        prepared.append(entry)
        prepare_s.append(seconds)

    approved_at: dict[int, float] = {}
    store_approve = desk.store.approve

    async def noting_approve(entry_id: int, reviewed_hash: str) -> Entry:
        result = await store_approve(entry_id, reviewed_hash)
        approved_at[entry_id] = time.perf_counter()
        return result

    desk.store.approve = noting_approve  # type: ignore[method-assign]
    total: list[float] = []
    in_database: list[float] = []
    to_bank: list[float] = []
    accepted = 0
    try:
        for entry in prepared:
            started = time.perf_counter()
            released = await desk.approve(entry, entry.amount)
            done = time.perf_counter()
            if released.state == EntryState.ACCEPTED and released.approval == "RELEASED":
                accepted += 1
            total.append(done - started)
            in_database.append(approved_at[entry.id] - started)
            to_bank.append(done - approved_at[entry.id])
    finally:
        desk.store.approve = store_approve  # type: ignore[method-assign]
    held = 0
    for entry in prepared:
        try:
            await approver.accounts.get_pix_payment_by_idempotency_key(entry.idempotency_key)
        except Exception:
            continue
        held += 1
    if accepted != count or held != count:
        problems.append(
            f"of {count} payouts approved, {accepted} were ACCEPTED and RELEASED and the bank "
            f"holds {held}"
        )
    return [
        f"approve -> released -> accepted by the sandbox bank, {count} payouts one after "
        f"another ({accepted} ACCEPTED and RELEASED; the bank holds {held}):",
        spread("maker's submit (prepare only)", prepare_s),
        spread("approve -> ACCEPTED (total)", total),
        spread("  approval in the database", in_database),
        spread("  release: journal + bank", to_bank),
        f"  mean {statistics.mean(total) * 1000:.1f} ms, so {count / sum(total):.1f} approvals/s",
    ]


# -- the run -----------------------------------------------------------------------------------


async def bench(
    databases: TeamDatabases,
    database: str,
    base_dir: Path,
    ready: Path,
    args: argparse.Namespace,
    problems: list[str],
) -> list[str]:
    base, secrets = sandbox_profile(ready)
    lines: list[str] = []
    maker, maker_s = await timed(
        open_desk(team_profile(base, databases, database, MAKER_LOGIN), secrets, base_dir / "ana")
    )
    try:
        approver, approver_s = await timed(
            open_desk(
                team_profile(base, databases, database, APPROVER_LOGIN),
                secrets,
                base_dir / "bruno",
            )
        )
        try:
            _, resolve_s = await timed(approver.payments.resolve_pending())
            lines.append(
                f"desktops opened with {args.waiting:,} intents waiting: maker "
                f"{maker_s * 1000:.0f} ms, approver {approver_s * 1000:.0f} ms (Session.open; "
                f"its resolve_pending() over them alone: {resolve_s * 1000:.0f} ms)"
            )
            await approver.accounts.get_balances()  # warm, as the app is after the unlock
            probe = LatenessProbe()
            probe.start()
            await asyncio.sleep(args.idle)
            idle = probe.stop()
            sampler = StallSampler(probe) if args.why else None
            with sampler or contextlib.nullcontext():
                lines.extend(
                    await bench_tab(
                        Workspace(approver), args.waiting, probe, idle, args.scroll, problems
                    )
                )
            if sampler is not None:
                report = io.StringIO()
                with contextlib.redirect_stdout(report):
                    sampler.report()
                lines.extend(report.getvalue().splitlines())
                probe.on_stall = None
            lines.extend(await bench_release(maker, approver, args.payouts, problems))
        finally:
            await approver.close()
    finally:
        await maker.close()
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiting", type=int, default=WAITING, help="intents waiting")
    parser.add_argument("--payouts", type=int, default=PAYOUTS, help="payouts approved")
    parser.add_argument(
        "--why", action="store_true", help="sample the loop's stack while the tab's loop is late"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"{SMOKE['waiting']} intents waiting, {SMOKE['payouts']} payouts; exit 1 if one "
        "thing measured did not happen",
    )
    args = parser.parse_args()
    args.idle, args.scroll = IDLE_SECONDS, SCROLL_SECONDS
    if args.smoke:
        args.waiting, args.payouts = SMOKE["waiting"], SMOKE["payouts"]
        args.idle, args.scroll = SMOKE["idle"], SMOKE["scroll"]
    problems: list[str] = []
    app = QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    with tempfile.TemporaryDirectory(prefix="treasury-bench-approvals-") as tmp:
        base_dir = Path(tmp)
        server = start_server(base_dir / "pg")
        sandbox = None
        try:
            template = server.create_database("treasury_template")
            with psycopg.connect(server.url(template), autocommit=True) as conn:
                migrations.init(conn)
            databases = TeamDatabases(server, template)
            database = databases.new_database(policy={"new_payee_extra": 0})
            databases.person(MAKER_LOGIN, MAKER)
            databases.person(APPROVER_LOGIN, APPROVER)
            paths = desk_paths(base_dir / "app")
            sandbox = ensure_sandbox_blocking(paths, extra_args=("--clock-start", CLOCK_START))
            profile_name = sandbox_profile(sandbox.ready_file)[0].name
            seed_s = seed_waiting(
                server.url(database, user=MAKER_LOGIN), args.waiting, profile_name
            )
            print(
                f"PostgreSQL {server.version} ({server.flavour}); {args.waiting:,} intents "
                f"prepared by {MAKER_LOGIN} in {seed_s:.1f} s "
                f"({args.waiting / seed_s:,.0f}/s through treasury.prepare)"
            )
            lines = qasync.run(
                bench(databases, database, base_dir, sandbox.ready_file, args, problems)
            )
            print("\n".join(lines))
        finally:
            if sandbox is not None:
                sandbox.stop()
            server.close()
    for problem in problems:
        print(f"NOT AS IT SHOULD BE: {problem}")
    return 1 if problems and args.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
