"""Two desktops, one team database: exactly-once payments across desktops.

Two payment engines in two processes of their own (``tests/services/team_desktop.py``: each
its own event loop, its own team ledger logged in as its own role) share one team database
and one sandbox bank, and send the same reviews (the same idempotency keys) at the same time:
with answers lost after the bank committed, with 503 on every attempt and then both resolving
at once, with timeouts, with all of it at once in opposite orders, and with one desktop killed
(SIGKILL) mid-send while the other resolves. Afterwards the team journal holds one entry per
key, every entry ACCEPTED with the end-to-end id the bank has for that key, and the balance
moved by exactly the sum of the amounts (distinct per intent: a duplicate would show).
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import subprocess
import sys
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from psycopg.rows import dict_row

from tests.api.conftest import api_config
from tests.ledger_backends import TeamDatabases, opened_ledger
from tests.processes import kill_hard, was_killed_hard
from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.waiting import WAIT_SECONDS, WaitTimeout, await_until
from treasury_app.api.accounts.client import AccountsClient
from treasury_app.api.errors import NotFound
from treasury_app.api.transport import ApiTransport, RetryPolicy, Timeouts
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger.journal import EntryState
from treasury_app.ledger.team import CLAIMS_MAX
from treasury_app.services.payments import PaymentEngine

REPO = Path(__file__).resolve().parents[2]
PIX_DICT = "/api/v2/pix/payments/dict"
RUNS = 24
"""Intents per scenario."""
TRIALS_IN_ALL = 100
"""Intents the scenarios try between them, at least."""
DESKS = ("desk_a", "desk_b")
ACCEPTED = EntryState.ACCEPTED.value
UNKNOWN = EntryState.UNKNOWN.value

pytestmark = pytest.mark.usefixtures("clean_sandbox", "team_databases")


@pytest.fixture(scope="module")
async def accounts(sandbox: RunningSandbox) -> AsyncIterator[AccountsClient]:
    config = api_config(
        sandbox,
        "accounts",
        timeouts=Timeouts(read=5),  # faults are gone whenever this process asks the bank
        retry=RetryPolicy(base_delay=0.01, max_delay=0.02),
    )
    async with ApiTransport(config) as transport:
        yield AccountsClient(transport)


Item = dict[str, str]
"""One intent as the desktops read it: ``{"key", "amount", "tag"}``."""


class Desktop:
    """One desktop process (``tests/services/team_desktop.py``) and its output."""

    def __init__(self, team: Team, name: str, steps: list[str], **options: Any) -> None:
        self.name = name
        self.work = team.work
        self.out = team.work / f"{name}.out"
        self.err = team.work / f"{name}.err"
        settings = team.databases.settings(team.database, name)
        command = [
            sys.executable,
            "-m",
            "tests.services.team_desktop",
            "--ready",
            str(team.sandbox.data_dir / "ready.json"),
            "--work",
            str(team.work),
            "--name",
            name,
            "--host",
            settings.host,
            "--port",
            str(settings.port),
            "--dbname",
            settings.dbname,
            "--user",
            settings.user,
            "--read-timeout",
            str(options.get("read_timeout", 0.3)),
            "--parallel",
            str(options.get("parallel", 4)),
        ]
        if not options.get("follow_up", True):
            command.append("--no-follow-up")
        with self.out.open("w") as out, self.err.open("w") as err:
            self.process = subprocess.Popen(
                [*command, *steps],
                cwd=REPO,
                env={**os.environ, "PYTHONPATH": str(REPO)},
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=err,
            )

    def lines(self) -> list[dict[str, Any]]:
        found = []
        for text in self.out.read_text().splitlines():
            try:
                found.append(json.loads(text))
            except ValueError:  # a line being written right now
                continue
        return found

    def tail(self) -> str:
        return "\n".join(self.err.read_text().splitlines()[-40:])

    async def line(self, match: Callable[[dict[str, Any]], bool], what: str) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            exited = self.process.poll() is not None
            for line in self.lines():
                if match(line):
                    return line
            if exited:
                pytest.fail(
                    f"{self.name} exited ({self.process.returncode}) before {what}:\n{self.tail()}"
                )
            return None

        try:
            return await await_until(found, f"{self.name}: {what}")
        except WaitTimeout as timed_out:
            pytest.fail(f"{timed_out}\n{self.tail()}")

    def go(self, step: int) -> None:
        (self.work / f"go.{self.name}.{step}").touch()

    async def states(self, step: int) -> dict[str, str]:
        line = await self.line(lambda line: line.get("step") == step, f"the end of step {step}")
        return dict(line["states"])

    async def finished(self) -> None:
        await self.line(lambda line: line.get("event") == "done", "its end")
        await await_until(lambda: self.process.poll() is not None, f"{self.name} exited")
        assert self.process.returncode == 0, (self.name, self.process.returncode, self.tail())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):  # a zombie the OS reaps later
            self.process.wait(timeout=WAIT_SECONDS)


class Team:
    """One team database (fresh per test), the sandbox bank, and the desktops started."""

    def __init__(
        self, databases: TeamDatabases, sandbox: RunningSandbox, control: Api, work: Path
    ) -> None:
        self.databases = databases
        self.database = databases.new_database()
        for name in DESKS:
            databases.person(name)
        self.sandbox = sandbox
        self.control = control
        self.work = work
        self.desks: list[Desktop] = []

    def start(self, name: str, steps: list[str], **options: Any) -> Desktop:
        desk = Desktop(self, name, steps, **options)
        self.desks.append(desk)
        return desk

    def stop(self) -> None:
        for desk in self.desks:
            desk.stop()

    def intents(self, tag: str, base: str, count: int = RUNS) -> list[Item]:
        """Distinct amounts, so that a duplicate payment would show in the balance."""
        return [
            {
                "key": new_idempotency_key(),
                "amount": str(Decimal(base) + Decimal(i) / 100),
                "tag": f"{tag} {i}",
            }
            for i in range(count)
        ]

    def write(self, name: str, items: list[Item]) -> str:
        path = self.work / f"{name}.json"
        path.write_text(json.dumps(items))
        return f"submit:{path}"

    def query(self, sql: str) -> list[dict[str, Any]]:
        """Rows of the team database, read as the superuser (never through the app)."""
        with self.databases.server.connect(self.database) as conn:
            return list(conn.cursor(row_factory=dict_row).execute(sql).fetchall())

    def journal(self) -> list[dict[str, Any]]:
        return self.query(
            "SELECT id, idempotency_key, state, amount, end_to_end_id FROM treasury.journal"
            " ORDER BY id"
        )

    def went_unknown(self) -> int:
        """Entries whose outcome was unknown at some point (a lost answer, 503s, a timeout)."""
        rows = self.query(
            "SELECT COUNT(DISTINCT entry_id) AS n FROM treasury.journal_history"
            f" WHERE state = '{UNKNOWN}'"
        )
        return int(rows[0]["n"])

    def activity(self) -> dict[str, int]:
        """Requests each desktop started (sends and resends) and entries it found by key."""
        rows = self.query(
            "SELECT actor, note, COUNT(*) AS n FROM treasury.journal_history"
            " WHERE note LIKE 'send%' OR note LIKE 'resend%' OR note LIKE 'found%'"
            " GROUP BY actor, note ORDER BY actor, note"
        )
        return {f"{row['actor']}:{row['note']}": int(row["n"]) for row in rows}


@pytest.fixture
def team(
    team_databases: TeamDatabases, sandbox: RunningSandbox, control: Api, tmp_path: Path
) -> Iterator[Team]:
    made = Team(team_databases, sandbox, control, tmp_path)
    try:
        yield made
    finally:
        made.stop()


async def ready(*desks: Desktop) -> None:
    for desk in desks:
        await desk.line(lambda line: line.get("event") == "ready", "ready")


def go(step: int, *desks: Desktop) -> None:
    for desk in desks:
        desk.go(step)


async def finished(*desks: Desktop) -> None:
    for desk in desks:
        await desk.finished()


def total(items: list[Item]) -> Decimal:
    return sum((Decimal(item["amount"]) for item in items), Decimal("0.00"))


def fault(control: Api, **rule: Any) -> None:
    control.control("POST", "/sandbox/faults", {"path": PIX_DICT, **rule})


async def assert_each_paid_once(
    team: Team, accounts: AccountsClient, items: list[Item], before: Decimal
) -> None:
    """One journal entry per key, each ACCEPTED and at the bank with the journal's
    endToEndId, and the balance moved by exactly the sum of the amounts."""
    rows = team.journal()
    assert Counter(row["idempotency_key"] for row in rows) == Counter(i["key"] for i in items)
    by_key = {row["idempotency_key"]: row for row in rows}
    unresolved = {k: row["state"] for k, row in by_key.items() if row["state"] != ACCEPTED}
    assert not unresolved, unresolved
    for item in items:
        row = by_key[item["key"]]
        assert row["amount"] == Decimal(item["amount"])
        found = await accounts.get_pix_payment_by_idempotency_key(item["key"])
        assert (found.end_to_end_id, found.amount) == (row["end_to_end_id"], row["amount"])
    after = team.control.balance()
    # A duplicate payment moves it twice: the excess names the amounts paid twice.
    assert before - after == total(items), f"paid {before - after - total(items)} too much"


async def assert_paid_at_most_once(
    team: Team, accounts: AccountsClient, items: list[Item], before: Decimal
) -> None:
    """Before every entry is resolved: one journal entry per key, every ACCEPTED one at the
    bank with its endToEndId, and the balance moved by exactly what the bank has."""
    rows = team.journal()
    assert Counter(row["idempotency_key"] for row in rows) == Counter(i["key"] for i in items)
    by_key = {row["idempotency_key"]: row for row in rows}
    paid = Decimal("0.00")
    for item in items:
        row = by_key[item["key"]]
        try:
            found = await accounts.get_pix_payment_by_idempotency_key(item["key"])
        except NotFound:
            assert row["state"] != ACCEPTED, row
            continue
        assert found.amount is not None
        paid += found.amount
        if row["state"] == ACCEPTED:
            assert found.end_to_end_id == row["end_to_end_id"]
    assert before - team.control.balance() == paid


def record(scenario: str, team: Team, items: list[Item], **states: dict[str, str]) -> None:
    seen = {name: dict(Counter(s.values())) for name, s in states.items()}
    print(f"\n{scenario}: {len(items)} intents; desktops returned {seen}")
    print(f"  journal history: {team.activity()}; went unknown: {team.went_unknown()}")


async def test_the_same_reviews_from_both_desktops_with_answers_lost_after_commit(
    team: Team, accounts: AccountsClient, control: Api
) -> None:
    items = team.intents("drop", "11.00")
    submit = team.write("drop", items)
    before = control.balance()
    # Lost answers followed up at once (no timeout fault here: a slow machine is no fault).
    desks = [team.start(name, [submit], read_timeout=5) for name in DESKS]
    await ready(*desks)
    fault(control, drop_after_commit=1, times=RUNS // 2)
    go(0, *desks)
    returned = {desk.name: await desk.states(0) for desk in desks}
    await finished(*desks)
    assert team.went_unknown() >= 1  # the fault did hit
    await assert_each_paid_once(team, accounts, items, before)
    record("lost answers after commit", team, items, **returned)


async def test_503_on_every_attempt_then_both_desktops_resolve_at_once(
    team: Team, accounts: AccountsClient, control: Api
) -> None:
    items = team.intents("503", "12.00")
    failing, passing = items[: RUNS // 2], items[RUNS // 2 :]
    steps = [team.write("503-failing", failing), team.write("503-passing", passing), "resolve"]
    before = control.balance()
    # Left to resolving (no timeout fault here: a slow machine is no fault).
    desks = [team.start(name, steps, follow_up=False, read_timeout=5) for name in DESKS]
    await ready(*desks)
    fault(control, rate_503=1, retry_after=0, times=1000)
    go(0, *desks)
    for desk in desks:
        await desk.states(0)
    states = {row["idempotency_key"]: row["state"] for row in team.journal()}
    assert {states[item["key"]] for item in failing} == {UNKNOWN}  # 503 on every attempt
    assert control.balance() == before  # nothing reached the bank's ledger yet
    control.control("DELETE", "/sandbox/faults")
    go(1, *desks)
    for desk in desks:
        await desk.states(1)
    go(2, *desks)  # resolve_pending() on both desktops at once
    returned = {desk.name: await desk.states(2) for desk in desks}
    await finished(*desks)
    await assert_each_paid_once(team, accounts, items, before)
    record("503 on every attempt, resolved from both", team, items, **returned)


async def test_the_same_reviews_from_both_desktops_with_timeouts(
    team: Team, accounts: AccountsClient, control: Api
) -> None:
    items = team.intents("timeout", "13.00")
    steps = [team.write("timeout", items), "resolve"]
    before = control.balance()
    desks = [team.start(name, steps, follow_up=False) for name in DESKS]
    await ready(*desks)
    # Slower than the desktops' 0.3 s read timeout: every attempt of the first intents in
    # flight (at most 8: 4 per desktop; their outcome stays unknown), then only some attempts
    # (a retry overtakes the slow one).
    fault(control, latency_ms=450, times=RUNS * 2)
    go(0, *desks)
    for desk in desks:
        await desk.states(0)
    assert team.went_unknown() >= 1
    control.control("DELETE", "/sandbox/faults")
    # An attempt given up on is never paid later (its connection is closed: the bank finds
    # nobody to read it from), so the bank has nothing left to finish.
    go(1, *desks)  # resolve_pending() on both desktops at once
    returned = {desk.name: await desk.states(1) for desk in desks}
    await finished(*desks)
    await assert_each_paid_once(team, accounts, items, before)
    record("timeouts, resolved from both", team, items, **returned)


async def test_everything_at_once_in_opposite_orders(
    team: Team, accounts: AccountsClient, control: Api
) -> None:
    items = team.intents("mixed", "14.00")
    before = control.balance()
    desks = [
        # All at once (more than the claims a desktop holds at a time), lost answers followed
        # up on one desktop and left to resolving on the other.
        team.start("desk_a", [team.write("mixed-a", items), "resolve"], parallel=RUNS),
        team.start(
            "desk_b",
            [team.write("mixed-b", items[::-1]), "resolve"],
            parallel=RUNS,
            follow_up=False,
        ),
    ]
    await ready(*desks)
    fault(control, rate_503=Decimal("0.3"), retry_after=0, drop_after_commit=Decimal("0.3"))
    fault(control, latency_ms=400, times=RUNS)
    go(0, *desks)
    for desk in desks:
        await desk.states(0)
    control.control("DELETE", "/sandbox/faults")
    # An attempt given up on is never paid later: nothing for the bank to finish.
    go(1, *desks)  # resolve_pending() on both desktops at once
    returned = {desk.name: await desk.states(1) for desk in desks}
    await finished(*desks)
    assert team.went_unknown() >= 1
    await assert_each_paid_once(team, accounts, items, before)
    record("503s, lost answers and timeouts at once, opposite orders", team, items, **returned)


async def test_a_desktop_killed_mid_send_while_the_other_resolves(
    team: Team, accounts: AccountsClient, control: Api
) -> None:
    """The sender dies (SIGKILL) with its requests on the wire (some paid, some not yet) and
    its claims held; the other desktop resolves meanwhile (skipping what the dead one still
    holds); another desktop then resolves what it may, and the sender's own desktop, back up,
    resolves the rest (what it journaled and never sent only it sends)."""
    items = team.intents("kill", "15.00")
    before = control.balance()
    sender = team.start("desk_a", [team.write("kill", items)], read_timeout=60, parallel=RUNS)
    resolver = team.start("desk_b", ["resolve"])
    await ready(sender, resolver)
    in_flight = min(RUNS, CLAIMS_MAX)  # the claims one desktop holds at a time
    # A desktop has 4 connections to the bank: of the 4 requests on the wire, 2 are held back
    # before the bank commits them (a killed client's request may then never be paid), the
    # others are paid at once and their answers held back (the killed desktop never reads
    # them: only asking the bank by key tells); the other claimed entries are SENT and wait
    # for a connection, the rest PREPARED and wait for a claim.
    fault(control, latency_ms=1500, times=2)
    fault(control, answer_delay_ms=1500)
    go(0, sender)
    sent, paid = 0, Decimal(0)

    def sent_and_paid() -> bool:  # all SENT, and the bank paid some of them
        nonlocal sent, paid
        assert sender.process.poll() is None, sender.tail()
        rows = team.query(
            f"SELECT COUNT(*) AS n FROM treasury.journal WHERE state = '{EntryState.SENT.value}'"
        )
        sent = int(rows[0]["n"])
        paid = before - control.balance()
        return sent >= in_flight and paid > 0

    try:
        await await_until(sent_and_paid, f"{in_flight} entries SENT and some paid")
    except WaitTimeout as timed_out:
        pytest.fail(f"{timed_out}: {sent} entries SENT, {paid} paid\n{sender.tail()}")
    go(0, resolver)  # resolve_pending() while the sender is still alive, then dead
    # killed once the other has begun (its answers not back yet: they come 1.5 s after the
    # payment, unless a stalled machine lets them through first; see below)
    await resolver.line(lambda line: line.get("go") == 0, "the start of step 0")
    kill_hard(sender.process)
    assert was_killed_hard(sender.process)
    assert not any(line.get("step") == 0 for line in sender.lines())  # it never finished
    control.control("DELETE", "/sandbox/faults")
    resolved = await resolver.states(0)
    await finished(resolver)
    # The bank has nothing left to finish that could pay: the requests it held before paying
    # lost their client (never paid); those it paid only hold their answers.
    await assert_paid_at_most_once(team, accounts, items, before)
    left = Counter(row["state"] for row in team.journal())

    # A third desktop leaves alone what the dead one journaled and never sent (PREPARED: only
    # its author sends it first); the author's desktop, back up, resolves everything.
    async with opened_ledger("team", team.work, user="desk_c", database=team.database) as ledger:
        engine = PaymentEngine(accounts, ledger, follow_up=())
        by_another = await engine.resolve_pending()
    assert all(entry.state != EntryState.PREPARED for entry in by_another), by_another
    async with opened_ledger("team", team.work, user="desk_a", database=team.database) as ledger:
        engine = PaymentEngine(accounts, ledger, follow_up=())
        recovered = await engine.resolve_pending()
    assert all(entry.state == EntryState.ACCEPTED for entry in recovered), recovered
    await assert_each_paid_once(team, accounts, items, before)
    if not team.query(
        "SELECT 1 FROM treasury.journal_history WHERE actor = 'desk_a' AND state = 'ACCEPTED'"
    ):  # (unless a stalled test let the sender read its answers before it was killed)
        assert team.query(  # what the bank paid before the kill was found, not sent again
            "SELECT 1 FROM treasury.journal_history WHERE note = 'found by idempotency key'"
        )
    record(
        "killed mid-send, the other resolving, then recovery",
        team,
        items,
        desk_b=resolved,
        recovery={entry.idempotency_key: entry.state.value for entry in recovered},
    )
    print(f"  journal before recovery: {dict(left)}; when killed: {sent} SENT, {paid} paid")


def test_the_scenarios_try_at_least_100_intents_in_all() -> None:
    """Read from this module, not from what other tests left behind: every scenario (a test
    that starts desktops) sends ``RUNS`` intents, and each one that passes checked all of them
    were paid exactly once."""
    scenarios = [
        name
        for name, test in globals().items()
        if name.startswith("test_") and "team" in inspect.signature(test).parameters
    ]
    assert len(scenarios) * RUNS >= TRIALS_IN_ALL, scenarios
