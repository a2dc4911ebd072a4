"""Screens of dual control at 1366×768 (run by hand, under Xvfb), English or pt_BR:

    xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python docs/screenshots/capture_approvals.py [pt_BR]

A throwaway PostgreSQL holds one team database under the default policy (one approval; two
above R$ 10.000,00), with ana (maker) and bruno (approver), each an app controller of their
own in this process (``capture_team``'s desktops). Ana submits three payouts by key (one
above the threshold) and a batch of four from CSV; bruno's Approvals tab lists them, his
approval dialog shows one payout as it will be sent, and his batch dialog the batch.
"""

from __future__ import annotations

import sys
import tempfile
from decimal import Decimal
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # capture_desk's and capture_team's helpers
sys.path.insert(0, str(HERE.parents[1]))  # tests.pg_server

from capture_desk import pause, run_capture  # noqa: E402
from capture_team import desktop, full_screen, shot, unlock, until  # noqa: E402

PAYOUTS = (
    ("grafica@empresa.com.br", "1.234,56", "NF 4471 impressos"),
    ("limpeza@empresa.com.br", "980,00", "Limpeza novembro"),
    ("aluguel@empresa.com.br", "18.500,00", "Aluguel dezembro"),
)
BATCH = (
    "chave;valor;descricao\n"
    "frete@empresa.com.br;1.045,84;Frete NF 88\n"
    "energia@empresa.com.br;400,00;Energia outubro\n"
    "agua@empresa.com.br;212,37;Agua outubro\n"
    "internet@empresa.com.br;349,90;Internet\n"
)


def team_database(root: Path) -> tuple[Any, str]:
    """A running server with the database ``treasury`` (default policy, no extra approval for
    the sandbox's keys, new to a fresh database) and ana (maker), bruno (approver)."""
    import psycopg

    from tests.pg_server import start_server
    from treasury_app.ledger.team import migrations

    server = start_server(root / "pg")
    server.create_database("treasury")
    with psycopg.connect(server.url("treasury"), autocommit=True) as conn:
        migrations.init(conn)
        migrations.add_user(conn, "ana", ("treasury_maker",))
        migrations.add_user(conn, "bruno", ("treasury_approver",))
        migrations.set_policy(conn, new_payee_extra=0)
    return server, "treasury"


def tab_index(window: Any, page: Any) -> int:
    return window.tabs.indexOf(page)


async def main(language: str | None) -> None:
    from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog
    from treasury_app.ui.dialogs.batch_approval_dialog import BatchApprovalDialog

    suffix = f"-{language}" if language else ""
    root = Path(tempfile.mkdtemp(prefix="treasury-approvals-shots-"))
    server, dbname = team_database(root)
    ana = bruno = None
    try:
        ana = await desktop(server, dbname, "ana", "none")
        await unlock(ana, None, None)
        bruno = await desktop(server, dbname, "bruno", "none")
        bruno_window = await unlock(bruno, None, None)

        # Ana submits three payouts and a batch: each waits for a second person.
        payouts = ana.workspace.payouts
        for key, amount, description in PAYOUTS:
            review = await payouts.prepare_key(key, amount, description=description)
            entry = await payouts.send(review)
            print("ana submitted", entry.id, entry.approval, entry.approvals_needed)
        batch = await payouts.parse_batch_csv(BATCH)
        sent = await payouts.send_batch(batch, label="Contas de consumo")
        print("ana submitted a batch of", len(sent))

        # Bruno's Approvals tab: the four waiting (the batch is one line per row).
        page = bruno_window.approvals_page
        bruno_window.tabs.setCurrentIndex(tab_index(bruno_window, page))
        tab = page.inner
        await until(lambda: len(tab.models["waiting"].rows()) == 7, "bruno's waiting list")
        full_screen(bruno_window)
        await pause(1.5)
        shot(f"approvals-tab{suffix}")

        # One payout, as it will be sent.
        single = next(e for e in tab.models["waiting"].rows() if e.batch is None)
        dialog = await tab.open_entry(single, "waiting")
        assert isinstance(dialog, ApprovalDialog), dialog
        await pause(1.0)
        dialog.confirm_edit.setText(f"R$ {PAYOUTS[0][1]}")
        await pause(1.0)
        shot(f"approval-dialog{suffix}")
        dialog.reject()
        await pause(0.5)

        # The batch, one decision.
        row = next(e for e in tab.models["waiting"].rows() if e.batch is not None)
        batch_dialog = await tab.open_entry(row, "waiting")
        assert isinstance(batch_dialog, BatchApprovalDialog), batch_dialog
        await pause(1.5)
        shot(f"batch-approval-dialog{suffix}")
        batch_dialog.reject()
        await pause(0.5)
        total = sum((e.amount for e in sent), Decimal("0.00"))
        print("batch total", total)
    finally:
        for controller in (bruno, ana):
            if controller is not None and controller.window is not None:
                controller.window.quit_requested.emit()
                await controller.task
        server.close()


if __name__ == "__main__":
    run_capture(main)
