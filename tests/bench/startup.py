"""Start-up time: from process start to the main window shown, for the app unlocking the sandbox
profile, against the floor of a bare PySide6 script that shows a ``QMainWindow``.

The sandbox bank is started once beforehand for the data dir (the app reuses it), so its own
start is not counted. Each run is the wall time from ``subprocess.Popen`` to the line the child
prints when its window is shown ("Main window shown" in the app's log). App and floor runs
alternate, so both share any noise. Prints every run, the medians and their ratio
(target ≤ 1.3 × the floor), the time to the sandbox profile unlocked and to its statement
shown (target < 500 ms from the start), then where the difference goes: one more run of each under
``python -X importtime`` (not in the medians) gives their import times and the heaviest modules.
Not a test: it prints figures (``make bench``).

``--team``: also runs the app with the sandbox profile's ledger in a team database (a
throwaway PostgreSQL on this computer, ``tests/pg_server.py``), alternating with the file
runs, and prints the difference (target: the team profile's window no more than 20 ms later;
its unlock includes logging in to the database and starting the change feed).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from treasury_app.config import AppPaths
from treasury_app.services.sandbox_runner import ensure_sandbox_blocking

ROOT = Path(__file__).resolve().parents[2]
RUNS = 5
TARGET_RATIO = 1.3
TARGET_STATEMENT = 0.5  # seconds: start to the statement shown, the sandbox profile unlocked
RUN_TIMEOUT = 60.0  # seconds: a child that never shows its window is killed
APP_MARKER = "Main window shown"
UNLOCK_MARKER = "Profile unlocked"  # the session open behind the window (also reported)
STATEMENT_MARKER = "Statement shown"  # its balance and first page on screen (also reported)
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


def time_to_marker(
    command: list[str],
    marker: str,
    env: dict[str, str],
    lines: list[str] | None = None,
    also: dict[str, float] | None = None,
) -> float:
    """Seconds from ``Popen`` to the first output line containing ``marker``; the child then
    runs to its own end (it quits by itself) and must exit 0. Its output goes to ``lines``."""
    started = time.perf_counter()
    child = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    )
    watchdog = threading.Timer(RUN_TIMEOUT, child.kill)
    watchdog.start()
    seen: float | None = None
    lines = [] if lines is None else lines
    try:
        assert child.stdout is not None
        for line in child.stdout:
            if seen is None and marker in line:
                seen = time.perf_counter() - started
            for other in (UNLOCK_MARKER, STATEMENT_MARKER):
                if also is not None and other in line and other not in also:
                    also[other] = time.perf_counter() - started
            lines.append(line)
        code = child.wait()
    finally:
        watchdog.cancel()
        if child.poll() is None:
            child.kill()
            child.wait()
    if seen is None or code != 0:
        output = "".join(lines[-30:])
        raise RuntimeError(f"{command[1:3]} exited {code} (marker seen: {seen}):\n{output}")
    return seen


def report(label: str, runs: list[float]) -> float:
    median = statistics.median(runs)
    shown = ", ".join(f"{r * 1000:.0f}" for r in runs)
    print(f"{label:<50} median {median * 1000:6.0f} ms   (runs: {shown} ms)")
    return median


def import_times(command: list[str], marker: str, env: dict[str, str]) -> dict[str, float]:
    """Self time of every module imported by one run under ``-X importtime``, in seconds;
    third-party packages are summed under their top-level name."""
    lines: list[str] = []
    time_to_marker([command[0], "-X", "importtime", *command[1:]], marker, env, lines)
    times: defaultdict[str, float] = defaultdict(float)
    for line in lines:
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


def main() -> None:
    team = "--team" in sys.argv[1:]
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
            "1500",
        ]
        floor_command = [sys.executable, "-c", FLOOR_SCRIPT]
        sandbox = ensure_sandbox_blocking(paths)
        stops: list[object] = [sandbox]
        team_runs: dict[str, list[float]] = {"window": [], "unlock": [], "statement": []}
        try:
            if team:
                team_dir, team_sandbox, server = team_data_dir(root)
                stops += [team_sandbox, server]
                team_command = [*app_command]
                team_command[team_command.index(str(data_dir))] = str(team_dir)
            app_runs: list[float] = []
            unlock_runs: list[float] = []
            statement_runs: list[float] = []
            floor_runs: list[float] = []
            for _ in range(RUNS):
                floor_runs.append(time_to_marker(floor_command, FLOOR_MARKER, env))
                unlocked: dict[str, float] = {}
                app_runs.append(time_to_marker(app_command, APP_MARKER, env, also=unlocked))
                unlock_runs.append(unlocked[UNLOCK_MARKER])
                statement_runs.append(unlocked[STATEMENT_MARKER])
                if team:
                    unlocked = {}
                    team_runs["window"].append(
                        time_to_marker(team_command, APP_MARKER, env, also=unlocked)
                    )
                    team_runs["unlock"].append(unlocked[UNLOCK_MARKER])
                    team_runs["statement"].append(unlocked[STATEMENT_MARKER])
            app_imports = import_times(app_command, APP_MARKER, env)
            floor_imports = import_times(floor_command, FLOOR_MARKER, env)
        finally:
            for running in reversed(stops):
                stop = getattr(running, "close", None) or running.stop  # type: ignore[attr-defined]
                stop()
    print(f"platform {env['QT_QPA_PLATFORM']}, {RUNS} runs each, alternating; sandbox reused")
    floor = report("floor: bare QApplication + QMainWindow shown", floor_runs)
    app = report("treasury app: main window shown (locked)", app_runs)
    report("treasury app: sandbox profile unlocked behind it", unlock_runs)
    statement = report("treasury app: statement shown (balance, first page)", statement_runs)
    ratio = app / floor
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    print(f"ratio app / floor = {ratio:.2f}   target <= {TARGET_RATIO:.1f} ({verdict})")
    verdict = "met" if statement < TARGET_STATEMENT else "MISSED"
    print(
        f"start to statement = {statement * 1000:.0f} ms   target < {TARGET_STATEMENT * 1000:.0f} "
        f"ms ({verdict})"
    )
    if team:
        window = report("team profile: main window shown (locked)", team_runs["window"])
        team_unlock = report("team profile: unlocked behind it", team_runs["unlock"])
        team_statement = report("team profile: statement shown", team_runs["statement"])
        file_unlock = statistics.median(unlock_runs)
        print(
            f"team - file: window {1000 * (window - app):+.0f} ms (target <= +20 ms), unlock "
            f"{1000 * (team_unlock - file_unlock):+.0f} ms, statement "
            f"{1000 * (team_statement - statement):+.0f} ms"
        )
    report_imports(app_imports, floor_imports)


if __name__ == "__main__":
    main()
