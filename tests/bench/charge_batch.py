"""How long a 1,000-charge batch file takes from text to a table on screen in the charge batch
import dialog: read and check (the service's parser, the txid column and its checks), fill the
member model, and the dialog's first render offscreen (``QWidget.grab()``: every visible cell
painted); then the review (the plan: batch id and 1,000 txids), which is not part of the budget.

A fabricated, valid file (a header with the optional ``txid`` column, every other line with
its own txid, the rest left to be generated) is read ``--runs`` times, each time by a new
dialog. No bank is involved: the dialog only reads the clock before sending. Prints every
stage's p50 and max and the total's; target: total < 2 s per file. Not a test: it prints
figures (``make bench``). ``--smoke`` (``make bench-smoke``): 100 charges, one run (each run
still checks that every charge is read, shown and planned).
"""

from __future__ import annotations

import argparse
import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from treasury_app.domain.documents import cnpj_check_digits, cpf_check_digits, format_cpf
from treasury_app.domain.identifiers import new_txid
from treasury_app.services.charges import ChargesService
from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog, read_batch_file

ROWS = 1000
RUNS = 7
SMOKE_ROWS, SMOKE_RUNS = 100, 1
TARGET_SECONDS = 2.0
NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)
KEY = "cobranca@empresa.com.br"


def fabricate(rows: int) -> str:
    """A valid batch file of ``rows`` charges: CPFs and CNPJs with real check digits,
    Brazilian and ISO dates, amounts with and without thousands."""
    lines = ["nome;cpf_cnpj;valor;vencimento;descricao;txid"]
    for i in range(rows):
        if i % 4 == 3:
            first12 = f"{11222333 + i:08d}0001"
            document = first12 + cnpj_check_digits(first12)
        else:
            first9 = f"{100000000 + i * 7919:09d}"
            document = format_cpf(first9 + cpf_check_digits(first9))
        due = dt.date(2026, 12, 1) + dt.timedelta(days=i % 60)
        when = due.strftime("%d/%m/%Y") if i % 2 else due.isoformat()
        amount = (
            f"{1 + i % 3000}.{i % 1000:03d},{i % 100:02d}" if i % 5 == 0 else f"{i % 900 + 1},50"
        )
        txid = new_txid() if i % 2 == 0 else ""
        lines.append(
            f"Cliente Ribeirão {i};{document};{amount};{when};Mensalidade {i % 12 + 1};{txid}"
        )
    return "\n".join(lines) + "\n"


def workspace() -> SimpleNamespace:
    """What the dialog reads before sending: the bank's date and the account's Pix keys."""
    charges = ChargesService(None, None, clock=lambda: NOW)  # type: ignore[arg-type]
    return SimpleNamespace(charges=charges, pix_keys=(KEY,))


def one_run(app: QApplication, text: str, rows: int) -> dict[str, float]:
    figures: dict[str, float] = {}
    started = time.perf_counter()
    batch = read_batch_file(text, today=NOW.date())
    figures["read and check"] = time.perf_counter() - started
    assert batch.ok and len(batch.members) == rows, batch.errors[:3]

    dialog = ChargeBatchDialog(workspace())
    dialog.resize(980, 680)
    started = time.perf_counter()
    dialog.batch = batch
    dialog.model.set_members(batch.members)
    dialog._refresh()
    figures["model fill"] = time.perf_counter() - started

    started = time.perf_counter()
    dialog.show()
    app.processEvents()
    image = dialog.grab()  # paints every visible cell now
    figures["first render"] = time.perf_counter() - started
    assert not image.isNull() and dialog.model.rowCount() == rows

    figures["total"] = figures["read and check"] + figures["model fill"] + figures["first render"]
    started = time.perf_counter()
    plan = dialog.review()
    figures["review (plan)"] = time.perf_counter() - started
    assert plan is not None and len(plan.members) == rows
    dialog.close()
    dialog.deleteLater()
    app.processEvents()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--rows", type=int, default=ROWS)
    parser.add_argument(
        "--smoke", action="store_true", help=f"{SMOKE_ROWS} charges, {SMOKE_RUNS} run"
    )
    args = parser.parse_args()
    if args.smoke:
        args.rows, args.runs = SMOKE_ROWS, SMOKE_RUNS
    rows = args.rows

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    text = fabricate(rows)
    print(f"charge batch import: {rows} charges, {len(text) / 1024:.0f} KiB, {args.runs} runs")
    one_run(app, text, rows)  # warm-up: imports, fonts, style (not counted)
    runs = [one_run(app, text, rows) for _ in range(args.runs)]
    print(f"{'stage':<16} {'p50 ms':>9} {'max ms':>9}")
    for stage in runs[0]:
        values = [r[stage] * 1000 for r in runs]
        print(f"{stage:<16} {statistics.median(values):>9.1f} {max(values):>9.1f}")
    worst = max(r["total"] for r in runs)
    verdict = "OK" if worst < TARGET_SECONDS else "OVER"
    print(f"total max {worst:.3f} s (target < {TARGET_SECONDS:.0f} s): {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
