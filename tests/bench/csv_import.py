"""How long opening a payout batch file takes, and how late the window's loop runs meanwhile.

One process, one Qt + asyncio loop (qasync), as the app runs: the real
:class:`~treasury_app.ui.dialogs.payout_batch_dialog.PayoutBatchDialog` (offscreen) in a real
workspace (the sandbox profile unlocked against the sandbox bank, its ledger the file on this
computer, as the app opens it), opening a ``;``-separated UTF-8 file of N payouts by key
(``load_file``: read, decode and check in a worker thread, then the journal's half and the
tables on the loop). A 5 ms timer re-armed at each timeout records how late each timeout
fires. Printed per size: the file's size, the time until the batch (or the refusal) is shown,
the rows and errors it shows, and the loop's p50, p99 and max lateness.

Default sizes: 1,000, 10,000 (the cap) and 100,000 rows (refused past the cap). Not a test: it
prints figures (``make bench``). ``--smoke`` (``make bench-smoke``): 200 rows and one past the
cap; exits 1 unless the first is shown whole without errors and the second refused.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_API", "pyside6")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from treasury_app.config import AppPaths
from treasury_app.services.csv_input import MAX_ROWS
from treasury_app.services.profiles import sandbox_profile
from treasury_app.services.sandbox_runner import ensure_sandbox_blocking
from treasury_app.services.session import Session
from treasury_app.services.workspace import open_workspace
from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

TICK = 0.005
SIZES = [1_000, MAX_ROWS, 100_000]
SMOKE_SIZES = [200, MAX_ROWS + 1]


def write_file(folder: Path, rows: int) -> Path:
    path = folder / f"batch-{rows}.csv"
    lines = [
        f"p{i}@empresa.com.br;{i % 900 + 1},{i % 100:02d};Nota fiscal {i}" for i in range(rows)
    ]
    path.write_text("chave;valor;descricao\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


async def measure(dialog: PayoutBatchDialog, path: Path) -> dict[str, float | int | str]:
    lateness: list[float] = []
    expected = [time.perf_counter() + TICK]
    timer = QTimer()
    timer.setSingleShot(True)

    def tick() -> None:
        now = time.perf_counter()
        lateness.append(max(0.0, now - expected[0]))
        expected[0] = now + TICK
        timer.start(int(TICK * 1000))

    timer.timeout.connect(tick)
    timer.start(int(TICK * 1000))
    started = time.perf_counter()
    task = dialog.load_file(path)
    assert task is not None
    await task
    elapsed = time.perf_counter() - started
    timer.stop()
    batch = dialog.batch
    late = sorted(lateness) or [0.0]
    return {
        "seconds": elapsed,
        "rows": len(batch.rows) if batch else 0,
        "errors": len(batch.errors) if batch else 0,
        "first_error": str(batch.errors[0].reason)[:70] if batch and batch.errors else "",
        "ticks": len(lateness),
        "p50_ms": statistics.median(late) * 1000,
        "p99_ms": late[min(len(late) - 1, int(len(late) * 0.99))] * 1000,
        "max_ms": late[-1] * 1000,
    }


def shown_as_it_should(rows: int, result: dict[str, float | int | str]) -> bool:
    """Up to the cap, every row shown without errors; past it, refused (nothing shown)."""
    if rows <= MAX_ROWS:
        return result["rows"] == rows and result["errors"] == 0
    return result["rows"] == 0 and int(result["errors"]) > 0


async def main(sizes: list[int], folder: Path, paths: AppPaths, ready_file: Path) -> list[str]:
    """Prints the figures; the sizes not shown as they should be (empty: all were)."""
    profile, secrets = sandbox_profile(ready_file)
    session = await Session.open(
        profile,
        pfx_passwords=secrets.pfx_passwords,
        client_secrets=secrets.client_secrets,
        paths=paths,
    )
    workspace = await open_workspace(session)
    wrong: list[str] = []
    try:
        print(
            f"{'rows':>8} {'MB':>6} {'seconds':>8} {'shown':>7} {'errors':>6} "
            f"{'p50 ms':>7} {'p99 ms':>7} {'max ms':>7}"
        )
        for rows in sizes:
            path = write_file(folder, rows)
            dialog = PayoutBatchDialog(workspace)
            dialog.show()
            result = await measure(dialog, path)
            size = path.stat().st_size / (1024 * 1024)
            print(
                f"{rows:>8,} {size:>6.1f} {result['seconds']:>8.2f} {result['rows']:>7,} "
                f"{result['errors']:>6} {result['p50_ms']:>7.1f} {result['p99_ms']:>7.1f} "
                f"{result['max_ms']:>7.1f}  {result['first_error']}"
            )
            if not shown_as_it_should(rows, result):
                wrong.append(f"{rows:,} rows")
            dialog.close()
            dialog.deleteLater()
    finally:
        await workspace.close()
    if wrong:
        print(
            f"NOT AS IT SHOULD BE: {', '.join(wrong)} (up to {MAX_ROWS:,} rows every row is "
            "shown without errors; past it the file is refused)"
        )
    return wrong


def run(sizes: list[int]) -> list[str]:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setQuitOnLastWindowClosed(False)  # closing a dialog must not end the loop
    with tempfile.TemporaryDirectory(prefix="csv-bench-") as tmp:
        folder = Path(tmp)
        paths = AppPaths.default(folder / "app")
        paths.ensure()
        sandbox = ensure_sandbox_blocking(paths)
        try:
            wrong: list[str] = qasync.run(main(sizes, folder, paths, sandbox.ready_file))
            return wrong
        finally:
            sandbox.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="*", default=SIZES)
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"{SMOKE_SIZES[0]} rows and {SMOKE_SIZES[1]:,}; exit 1 unless shown or refused",
    )
    arguments = parser.parse_args()
    wrong = run(SMOKE_SIZES if arguments.smoke else arguments.rows)
    sys.exit(1 if wrong and arguments.smoke else 0)
