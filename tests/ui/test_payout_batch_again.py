"""The same payout batch opened and sent twice, end to end in the dialog against the sandbox:
the second time its review says when the first went out and for how much, and Send stays
disabled until "Send this batch again" is ticked and the total typed; a row repeating a recent
single Pix is pointed out."""

from __future__ import annotations

import secrets
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.ui.test_payout_batch_dialog import approve, model_rows
from tests.waiting import qt_wait_until
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


def open_dialog(qtbot, workspace) -> PayoutBatchDialog:
    dialog = PayoutBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def send(qtbot, dialog: PayoutBatchDialog) -> None:
    assert dialog.send_button.isEnabled()
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.send_task is not None and dialog.send_task.done(),
        "dialog.send_task done",
    )


def test_the_same_file_twice_needs_send_again(qtbot, run, workspace, tmp_path) -> None:
    tag = secrets.token_hex(3)
    amounts = ["1.234,56", "980,00", "1.045,84", "600,00", "400,00"]
    text = "chave;valor;descricao\n" + "".join(
        f"dup{tag}{i}@empresa.com.br;{amount};NF {i}\n" for i, amount in enumerate(amounts)
    )
    path = tmp_path / "pagamentos.csv"
    path.write_text(text, encoding="utf-8")
    before = run(workspace.statement.balance()).available
    total = Decimal("4260.40")

    first = open_dialog(qtbot, workspace)
    task = first.load_file(path)
    qt_wait_until(qtbot, task.done, "task done")
    assert not first.duplicate_label.isVisible() and not first.send_again_check.isVisible()
    qtbot.keyClicks(first.label_edit, "Fornecedores novembro")
    approve(qtbot, first)
    send(qtbot, first)
    assert first.summary()["accepted"] == 5
    first.close()

    again = open_dialog(qtbot, workspace)  # two minutes later, the same file
    task = again.load_file(path)
    qt_wait_until(qtbot, task.done, "task done")
    assert again.duplicate_label.isVisible()
    warning = again.duplicate_label.text()
    assert "already sent on" in warning and "5 payment(s), R$ 4.260,40" in warning
    assert "the same file" in warning
    assert run(workspace.ledger.batches.get(first.batch.batch_id)).label == "Fornecedores novembro"
    approve(qtbot, again)
    assert again.approved() and not again.send_button.isEnabled()
    assert "Send this batch again" in again.confirm_hint.text()
    assert again.send_button.text() == "Send again 5 payment(s)"
    assert run(workspace.statement.balance()).available == before - total

    again.send_again_check.setChecked(True)
    send(qtbot, again)
    assert again.summary()["accepted"] == 5
    assert run(workspace.statement.balance()).available == before - 2 * total
    entries = run(workspace.ledger.journal.recent(batch=again.batch.batch_id))
    assert len(entries) == 5 and all(e.state == EntryState.ACCEPTED for e in entries)


def test_a_row_repeating_a_single_pix_is_pointed_out(qtbot, run, workspace) -> None:
    tag = secrets.token_hex(3)
    single = run(
        workspace.payouts.send(
            run(workspace.payouts.prepare_key(f"one{tag}@empresa.com.br", "12,34"))
        )
    )
    assert single.state == EntryState.ACCEPTED
    dialog = open_dialog(qtbot, workspace)
    run(
        dialog.load_text(
            f"chave;valor\none{tag}@empresa.com.br;12,34\ntwo{tag}@empresa.com.br;5,00\n"
        )
    )
    check = dialog.rows_model.headers.index("Check")
    checks = [row[check] for row in model_rows(dialog.rows_model)]
    assert checks[0].startswith("Already paid alone on") and checks[1] == ""
    assert not dialog.duplicate_label.isVisible()  # a row, not the batch
    approve(qtbot, dialog)
    assert dialog.send_button.isEnabled() and format_brl(dialog.batch.total) == "R$ 17,34"
