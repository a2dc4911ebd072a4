"""The approval dialog with an approval made void, its reason in words (issue 33), at 1366×768
with a title bar and a taskbar's height taken off the screen, English or pt_BR (run by hand,
under Xvfb, with PostgreSQL's binaries on the PATH, as ``capture_approvals.py``):

    TZ=UTC xvfb-run -a -s "-screen 0 1366x768x24" \\
        .venv/bin/python docs/screenshots/capture_team_words.py [en|pt_BR]

A throwaway PostgreSQL holds one team database (``capture_approvals.team_database``: one
approval, two above R$ 10.000,00) with ana (maker) and bruno (approver). Ana submits a payout
of R$ 18.500,00; bruno approves it (the first of two); ana then changes its description, which
makes his approval void. Bruno's approval dialog lists it, "void: the amount or the
description changed" in his language (``words-approval-void``). Window and dialogs as in
``capture_words.py``.
"""

from __future__ import annotations

import sys
import tempfile
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))  # the other capture scripts' helpers
sys.path.insert(0, str(HERE.parents[1]))  # tests.pg_server

from capture_approvals import tab_index, team_database  # noqa: E402
from capture_desk import pause, run_capture  # noqa: E402
from capture_it import fit_dialogs_to_a_laptop  # noqa: E402
from capture_team import desktop, unlock, until  # noqa: E402
from capture_words import TASKBAR, TITLE_BAR, shot  # noqa: E402


async def main(language: str | None) -> None:
    from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog

    suffix = f"-{language}" if language else ""
    fit_dialogs_to_a_laptop()
    root = Path(tempfile.mkdtemp(prefix="treasury-void-shots-"))
    server, dbname = team_database(root)
    ana = bruno = None
    try:
        ana = await desktop(server, dbname, "ana", "none")
        ana_window = await unlock(ana, None, None)
        ana_window.move(1366, 0)  # another person's desktop: off this screen
        bruno = await desktop(server, dbname, "bruno", "none")
        window = await unlock(bruno, None, None)
        window.move(0, TITLE_BAR)
        window.resize(1366, 768 - TITLE_BAR - TASKBAR)

        payouts = ana.workspace.payouts
        review = await payouts.prepare_key(
            "aluguel@empresa.com.br", "18.500,00", description="Aluguel dezembro"
        )
        entry = await payouts.send(review)
        print("ana submitted", entry.id, entry.approvals_needed)

        page = window.approvals_page
        window.tabs.setCurrentIndex(tab_index(window, page))
        tab = page.inner
        await until(lambda: len(tab.models["waiting"].rows()) == 1, "bruno's waiting list")
        waiting = tab.models["waiting"].rows()[0]
        await bruno.workspace.session.approvals.approve(waiting, waiting.amount)
        print("bruno approved", waiting.id)
        mine = await ana.workspace.ledger.journal.get(entry.id)
        await ana.workspace.session.approvals.edit(
            mine, amount=Decimal("18500.00"), description="Aluguel de dezembro (sala 2)"
        )
        print("ana changed it: bruno's approval is void")
        await tab.reload()
        await until(lambda: len(tab.models["waiting"].rows()) == 1, "the list again")
        dialog = await tab.open_entry(tab.models["waiting"].rows()[0], "waiting")
        assert isinstance(dialog, ApprovalDialog), dialog
        await pause(1.2)
        await shot(f"words-approval-void{suffix}")
        dialog.reject()
        await pause(0.5)
    finally:
        for controller in (bruno, ana):
            if controller is not None and controller.window is not None:
                controller.window.quit_requested.emit()
                await controller.task
        server.close()


if __name__ == "__main__":
    run_capture(main)
