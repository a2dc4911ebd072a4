"""How long opening a payout batch file takes, and how late the window's loop runs meanwhile.

One process, one Qt + asyncio loop (qasync), as the app runs: the real
:class:`~treasury_app.ui.dialogs.payout_batch_dialog.PayoutBatchDialog` (offscreen) over a real
ledger, opening a ``;``-separated UTF-8 file of N payouts by key (``load_file``: read, decode
and check in a worker thread, then the journal's half and the tables on the loop). A 5 ms timer
re-armed at each timeout records how late each timeout fires. Printed per size: the file's
size, the time until the batch (or the refusal) is shown, the rows and errors it shows, and the
loop's p50, p99 and max lateness.

Default sizes: 1,000, 10,000 (the cap) and 100,000 rows (refused past the cap). Not a test: it
prints figures (``make bench``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_API", "pyside6")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from treasury_app.domain.clock import system_clock
from treasury_app.ledger import open_ledger
from treasury_app.services.payouts import PayoutsService
from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

TICK = 0.005


class ClockOnlyEngine:
    clock = staticmethod(system_clock)


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
        "first_error": batch.errors[0].message[:70] if batch and batch.errors else "",
        "ticks": len(lateness),
        "p50_ms": statistics.median(late) * 1000,
        "p99_ms": late[min(len(late) - 1, int(len(late) * 0.99))] * 1000,
        "max_ms": late[-1] * 1000,
    }


async def main(sizes: list[int]) -> None:
    folder = Path(tempfile.mkdtemp(prefix="csv-bench-"))
    ledger = open_ledger(folder / "ledger.sqlite3", profile="bench")
    workspace = SimpleNamespace(
        payouts=PayoutsService(ClockOnlyEngine(), ledger),  # type: ignore[arg-type]
        session=SimpleNamespace(closed=False),  # an open profile: the dialog reads the journal
    )
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
        dialog.close()
        dialog.deleteLater()
    await ledger.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, nargs="*", default=[1_000, 10_000, 100_000])
    arguments = parser.parse_args()
    app = QApplication.instance() or QApplication(sys.argv)
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    with loop:
        loop.run_until_complete(main(arguments.rows))
