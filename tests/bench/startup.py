"""Start-up time: from process start to the main window shown, for the app unlocking the sandbox
profile, against the floor of a bare PySide6 script that shows a ``QMainWindow``.

The sandbox bank is started once beforehand for the data dir (the app reuses it), so its own
start is not counted. Each run is the wall time from ``subprocess.Popen`` to the lines the child
prints as start-up goes ("Main window shown", "Profile unlocked", "Statement shown" in the
app's log; the floor's own line): the bench waits for them all, however long the machine takes
(up to ``RUN_TIMEOUT``), then ends the child (``terminate``). A line that never comes is
reported "not reached" with the child's last lines, and the run goes on. App and floor runs
alternate, so both share any noise. Prints every run, the medians and their ratio
(target ≤ 1.3 × the floor), the time to the sandbox profile unlocked and to its statement
shown (target < 500 ms from the start), then where the difference goes: one more run of each under
``python -X importtime`` (not in the medians) gives their import times and the heaviest modules.
Not a test: it prints figures (``make bench``).

``--team``: also runs the app with the sandbox profile's ledger in a team database (a
throwaway PostgreSQL on this computer, ``tests/pg_server.py``), alternating with the file
runs, and prints the difference (target: the team profile's window no more than 20 ms later;
its unlock includes logging in to the database and starting the change feed).

``--runs N``: another number of runs. ``--smoke`` (``make bench-smoke``): one run of each,
``--team`` included; exits 1 when a line was not reached (the figures are not judged).
"""

from __future__ import annotations

import argparse
import os
import queue
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from treasury_app.config import AppPaths
from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

ROOT = Path(__file__).resolve().parents[2]
RUNS = 5
TARGET_RATIO = 1.3
TARGET_STATEMENT = 0.5  # seconds: start to the statement shown, the sandbox profile unlocked
RUN_TIMEOUT = 60.0  # seconds: a line not seen by then is "not reached" and the child is ended
# The app's own safety net: it quits by itself after this long, should this bench die first.
APP_EXIT_AFTER_MS = 120_000
APP_MARKER = "Main window shown"
UNLOCK_MARKER = "Profile unlocked"  # the session open behind the window (also reported)
STATEMENT_MARKER = "Statement shown"  # its balance and first page on screen (also reported)
APP_MARKERS = (APP_MARKER, UNLOCK_MARKER, STATEMENT_MARKER)
FLOOR_MARKER = "floor window shown"

FLOOR_SCRIPT = f"""
import sys
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

app = QApplication(sys.argv[:1])
window = QMainWindow()
window.resize(1100, 720)
window.show()
print({FLOOR_MARKER!r}, flush=True)
QTimer.singleShot(500, app.quit)
app.exec()
"""


@dataclass
class Run:
    """One child's run: seconds from ``Popen`` to each marker seen, its output, and why it
    ended before every marker came (empty when they all came)."""

    label: str
    seen: dict[str, float]
    lines: list[str] = field(default_factory=list)
    missed: str = ""

    def at(self, marker: str) -> float | None:
        return self.seen.get(marker)


def run_child(
    label: str,
    command: list[str],
    markers: tuple[str, ...],
    env: dict[str, str],
    *,
    timeout: float = RUN_TIMEOUT,
) -> Run:
    """Start ``command``, wait until its output has shown every one of ``markers`` (each timed
    from ``Popen`` when its line is read), then end it: it has done what is measured. A child
    that exits first, or a marker not seen within ``timeout`` seconds, ends the wait; the
    markers not seen are then missing from :attr:`Run.seen`."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        encoding="utf-8",
        errors="replace",
        bufsize=1,
    )
    lines: queue.Queue[tuple[str | None, float]] = queue.Queue()

    def read() -> None:  # a thread: the pipe read with a deadline on every platform
        assert child.stdout is not None
        for line in child.stdout:
            lines.put((line, time.perf_counter()))
        lines.put((None, time.perf_counter()))

    reader = threading.Thread(target=read, name=f"{label}-output", daemon=True)
    reader.start()
    run = Run(label, {})
    ended = False
    try:
        while len(run.seen) < len(markers):
            remaining = started + timeout - time.perf_counter()
            try:
                line, at = lines.get(timeout=max(0.0, remaining))
            except queue.Empty:
                run.missed = f"still running after {timeout:.0f} s"
                break
            if line is None:
                ended = True
                run.missed = f"exited with code {child.wait()}"
                break
            run.lines.append(line)
            for marker in markers:
                if marker not in run.seen and marker in line:
                    run.seen[marker] = at - started
    finally:
        if child.poll() is None:
            child.terminate()  # TerminateProcess on Windows, SIGTERM elsewhere
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
        reader.join(15)  # its pipe closed with the child
    while not ended:  # what it printed before it ended
        try:
            line, _ = lines.get_nowait()
        except queue.Empty:
            break
        ended = line is None
        if line is not None:
            run.lines.append(line)
    if run.missed:
        missing = ", ".join(repr(m) for m in markers if m not in run.seen)
        tail = "".join("    " + line for line in run.lines[-15:])
        print(f"{label}: {missing} not reached ({run.missed}); its last lines:\n{tail.rstrip()}")
    return run


def report(label: str, runs: list[float | None]) -> float | None:
    """Prints every run and the median of those that reached the line; that median (None
    when no run reached it)."""
    shown = ", ".join("not reached" if r is None else f"{r * 1000:.0f} ms" for r in runs)
    reached = [r for r in runs if r is not None]
    if not reached:
        print(f"{label:<50} not reached   (runs: {shown})")
        return None
    median = statistics.median(reached)
    print(f"{label:<50} median {median * 1000:6.0f} ms   (runs: {shown})")
    return median


def import_times(run: Run) -> dict[str, float]:
    """Self time of every module imported by ``run`` (a child under ``-X importtime``), in
    seconds; third-party packages are summed under their top-level name."""
    times: defaultdict[str, float] = defaultdict(float)
    for line in run.lines:
        if not line.startswith("import time:") or "|" not in line:
            continue
        own, _cumulative, name = line[len("import time:") :].split("|", 2)
        if not own.strip().isdigit():
            continue  # the header line
        name = name.strip()
        key = name if name.startswith("treasury_app") else name.split(".")[0]
        times[key] += int(own) / 1e6
    return dict(times)


def report_imports(app: dict[str, float], floor: dict[str, float]) -> None:
    ours = sum(t for name, t in app.items() if name.startswith("treasury_app"))
    print(
        f"imports (one -X importtime run each): app {sum(app.values()) * 1000:.0f} ms "
        f"(treasury_app modules {ours * 1000:.0f} ms), floor {sum(floor.values()) * 1000:.0f} ms"
    )
    ranked = sorted(app.items(), key=lambda item: item[1], reverse=True)[:10]
    heaviest = ", ".join(f"{name} {t * 1000:.0f}" for name, t in ranked)
    print(f"heaviest imports of the app (ms, own time; packages summed): {heaviest}")


def team_data_dir(root: Path) -> tuple[Path, object, object]:
    """A second data dir whose sandbox profile keeps its ledger in a team database: the
    data dir, its sandbox and the PostgreSQL server (both to stop)."""
    import asyncio

    import psycopg

    from tests.pg_server import start_server
    from treasury_app.ledger.team import migrations
    from treasury_app.services.profiles import (
        LedgerLocation,
        ProfileStore,
        TeamDatabaseProfile,
        sandbox_profile,
    )

    server = start_server(root / "pg")
    server.create_database("treasury")
    with psycopg.connect(server.url("treasury"), autocommit=True) as conn:
        migrations.init(conn)
        migrations.add_user(conn, "bench_desk", ("treasury_maker", "treasury_approver"))
    data_dir = root / "app-team"
    paths = AppPaths.default(data_dir)
    paths.ensure()
    sandbox = ensure_sandbox_blocking(paths)
    profile, _ = sandbox_profile(sandbox.ready_file)
    team = TeamDatabaseProfile(
        host=server.host,
        port=server.port,
        dbname="treasury",
        user="bench_desk",
        sslmode="disable",
        password="none",
    )
    profile = profile.model_copy(update={"ledger": LedgerLocation(location="team", team=team)})
    asyncio.run(ProfileStore(paths).save(profile))
    return data_dir, sandbox, server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="runs of each, alternating")
    parser.add_argument(
        "--team", action="store_true", help="also the sandbox profile with a team database"
    )
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="one run of each, --team included; exit 1 when a line is not reached",
    )
    args = parser.parse_args()
    team = args.team or args.smoke
    count = 1 if args.smoke else args.runs
    with tempfile.TemporaryDirectory(prefix="treasury-startup-") as tmp:
        root = Path(tmp)
        data_dir = root / "app"
        paths = AppPaths.default(data_dir)
        paths.ensure()
        env = dict(os.environ)
        env.setdefault("QT_QPA_PLATFORM", "offscreen")
        # As installed: the app's modules compiled once (pip and the frozen build ship them
        # compiled); a shell that forbids writing bytecode would time the compiler instead.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(ROOT / "treasury_app")], check=True
        )
        # QSettings and any other per-user file go under the temporary dir, not the user's home.
        env["XDG_CONFIG_HOME"] = str(root / "xdg-config")
        env["XDG_DATA_HOME"] = str(root / "xdg-data")
        env["XDG_CACHE_HOME"] = str(root / "xdg-cache")
        app_command = [
            sys.executable,
            "-m",
            "treasury_app",
            "--data-dir",
            str(data_dir),
            "--sandbox",
            "--unlock-sandbox",
            "--exit-after-ms",
            str(APP_EXIT_AFTER_MS),
        ]
        floor_command = [sys.executable, "-c", FLOOR_SCRIPT]
        sandbox = ensure_sandbox_blocking(paths)
        stops: list[object] = [sandbox]
        floor_runs: list[Run] = []
        app_runs: list[Run] = []
        team_runs: list[Run] = []
        try:
            if team:
                team_dir, team_sandbox, server = team_data_dir(root)
                stops += [team_sandbox, server]
                team_command = [*app_command]
                team_command[team_command.index(str(data_dir))] = str(team_dir)
            for _ in range(count):
                floor_runs.append(run_child("floor", floor_command, (FLOOR_MARKER,), env))
                app_runs.append(run_child("app", app_command, APP_MARKERS, env))
                if team:
                    team_runs.append(run_child("team app", team_command, APP_MARKERS, env))
            app_imports = run_child(
                "app under -X importtime",
                [sys.executable, "-X", "importtime", *app_command[1:]],
                APP_MARKERS,
                env,
            )
            floor_imports = run_child(
                "floor under -X importtime",
                [sys.executable, "-X", "importtime", *floor_command[1:]],
                (FLOOR_MARKER,),
                env,
            )
        finally:
            for running in reversed(stops):
                stop = getattr(running, "close", None) or running.stop  # type: ignore[attr-defined]
                stop()
    print(f"platform {env['QT_QPA_PLATFORM']}, {count} runs each, alternating; sandbox reused")
    floor = report(
        "floor: bare QApplication + QMainWindow shown", [r.at(FLOOR_MARKER) for r in floor_runs]
    )
    app = report("treasury app: main window shown (locked)", [r.at(APP_MARKER) for r in app_runs])
    unlock = report(
        "treasury app: sandbox profile unlocked behind it", [r.at(UNLOCK_MARKER) for r in app_runs]
    )
    statement = report(
        "treasury app: statement shown (balance, first page)",
        [r.at(STATEMENT_MARKER) for r in app_runs],
    )
    if app is not None and floor is not None:
        ratio = app / floor
        verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
        print(f"ratio app / floor = {ratio:.2f}   target <= {TARGET_RATIO:.1f} ({verdict})")
    else:
        print(f"ratio app / floor: not reached   target <= {TARGET_RATIO:.1f}")
    if statement is not None:
        verdict = "met" if statement < TARGET_STATEMENT else "MISSED"
        print(
            f"start to statement = {statement * 1000:.0f} ms   target < "
            f"{TARGET_STATEMENT * 1000:.0f} ms ({verdict})"
        )
    else:
        print(f"start to statement: not reached   target < {TARGET_STATEMENT * 1000:.0f} ms")
    if team:
        window = report(
            "team profile: main window shown (locked)", [r.at(APP_MARKER) for r in team_runs]
        )
        team_unlock = report(
            "team profile: unlocked behind it", [r.at(UNLOCK_MARKER) for r in team_runs]
        )
        team_statement = report(
            "team profile: statement shown", [r.at(STATEMENT_MARKER) for r in team_runs]
        )

        def difference(team_median: float | None, file_median: float | None) -> str:
            if team_median is None or file_median is None:
                return "not reached"
            return f"{1000 * (team_median - file_median):+.0f} ms"

        print(
            f"team - file: window {difference(window, app)} (target <= +20 ms), unlock "
            f"{difference(team_unlock, unlock)}, statement {difference(team_statement, statement)}"
        )
    report_imports(import_times(app_imports), import_times(floor_imports))
    missed = [
        run
        for run in (*floor_runs, *app_runs, *team_runs, app_imports, floor_imports)
        if run.missed
    ]
    if missed:
        print(
            f"{len(missed)} run(s) did not reach every line: {', '.join(r.label for r in missed)}"
        )
    return 1 if args.smoke and missed else 0


if __name__ == "__main__":
    sys.exit(main())
