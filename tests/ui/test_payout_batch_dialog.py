"""The payout batch dialog against the app's own sandbox bank: bad rows listed with their
line and reason and blocking the batch until left out, the template, totals by key type,
approval by typing the total, a 20-row batch sent to the end, and Stop in a 60-row batch."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.dialogs.payout_batch_dialog import BANK_DATA, PayoutBatchDialog

MIXED = (
    "chave;ispb;agencia;conta;tipo_conta;documento;nome;valor;descricao\n"
    "fornecedor@empresa.com.br;;;;;;;1.234,56;Nota 1\n"  # 2
    "not a key;;;;;;;10,00;\n"  # 3: bad key
    "529.982.247-25;;;;;;;10,00;\n"  # 4
    "outro@empresa.com.br;;;;;;;-5,00;\n"  # 5: bad amount
    ";60746948;1234;98765-4;CACC;529.982.247-25;Maria da Silva;350,00;Reembolso\n"  # 6
    "terceiro@empresa.com.br;;;;;;;0,44;\n"  # 7
)


def rows_csv(count: int, prefix: str) -> str:
    lines = ["chave;valor"] + [f"{prefix}{i}@empresa.com.br;1,{i % 100:02d}" for i in range(count)]
    return "\n".join(lines) + "\n"


@pytest.fixture
def dialog_and_workspace(qtbot, open_workspace):
    workspace = open_workspace()
    dialog = PayoutBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog, workspace
    dialog.stop()
    if dialog.send_task is not None:
        qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")


def model_rows(model) -> list[tuple[str, ...]]:
    return [
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    ]


def approve(qtbot, dialog: PayoutBatchDialog) -> None:
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, format_brl(dialog.batch.total))


def test_bad_rows_are_listed_and_block_sending_until_left_out(qtbot, run, dialog_and_workspace):
    dialog, _workspace = dialog_and_workspace
    run(dialog.load_text(MIXED))
    errors = model_rows(dialog.errors_model)
    assert [(line, column) for line, column, _ in errors] == [("3", "chave"), ("5", "valor")]
    assert all(reason for _, _, reason in errors)
    assert dialog.errors_view.isVisible() and "2 row(s)" in dialog.errors_label.text()
    assert [row[0] for row in model_rows(dialog.rows_model)] == ["2", "4", "6", "7"]
    approve(qtbot, dialog)
    assert dialog.approved() and not dialog.send_button.isEnabled()
    assert dialog.leave_out_check.isVisible()
    dialog.leave_out_check.setChecked(True)
    assert dialog.send_button.isEnabled()
    assert dialog.send_button.text() == "Send 4 payment(s)"


def test_the_template_parses_without_errors(qtbot, run, dialog_and_workspace, tmp_path):
    dialog, workspace = dialog_and_workspace
    path = tmp_path / "template.csv"
    dialog.write_template(path)
    text = path.read_text("utf-8-sig")
    assert text.splitlines()[0].startswith("chave;ispb;agencia;conta;tipo_conta;documento;nome;")
    batch = run(workspace.payouts.parse_batch_csv(text))
    assert batch.errors == () and len(batch.rows) == 2
    task = dialog.load_file(path)
    qt_wait_until(qtbot, task.done, "task done")
    assert dialog.errors_model.rowCount() == 0 and dialog.rows_model.rowCount() == 2
    assert not dialog.leave_out_check.isVisible()
    assert dialog.source_label.text() == "template.csv"


def test_totals_and_sums_by_key_type(qtbot, run, dialog_and_workspace):
    dialog, _workspace = dialog_and_workspace
    run(dialog.load_text(MIXED))
    assert dialog.totals_by_type() == {
        "EMAIL": (2, Decimal("1235.00")),
        "CPF": (1, Decimal("10.00")),
        BANK_DATA: (1, Decimal("350.00")),
    }
    assert dialog.totals_label.text() == "4 payment(s), R$ 1.595,00 in total"
    by_type = dialog.by_type_label.text().splitlines()
    assert "E-mail: 2 — R$ 1.235,00" in by_type
    assert "CPF: 1 — R$ 10,00" in by_type
    assert "Bank data: 1 — R$ 350,00" in by_type
    assert [row[2] for row in model_rows(dialog.rows_model)] == [
        "E-mail",
        "CPF",
        "Bank data",
        "E-mail",
    ]
    assert model_rows(dialog.rows_model)[2][1] == "Maria da Silva"


def test_approval_needs_the_total_typed_again(qtbot, run, dialog_and_workspace):
    dialog, _workspace = dialog_and_workspace
    run(dialog.load_text(rows_csv(3, "aprovar")))  # 1,00 + 1,01 + 1,02
    assert not dialog.send_button.isEnabled()
    qtbot.keyClicks(dialog.confirm_edit, "3,00")
    assert not dialog.send_button.isEnabled() and dialog.confirm_hint.text()
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, "abc")
    assert not dialog.send_button.isEnabled()
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, "R$ 3,03")
    assert dialog.send_button.isEnabled() and dialog.confirm_hint.text() == ""
    run(dialog.load_text(rows_csv(2, "outro")))  # a new file asks again
    assert dialog.confirm_edit.text() == "" and not dialog.send_button.isEnabled()


def test_a_20_row_batch_is_sent_to_the_end(qtbot, run, dialog_and_workspace):
    dialog, workspace = dialog_and_workspace
    run(dialog.load_text(rows_csv(20, "lote")))
    approve(qtbot, dialog)
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    assert dialog.send_task is not None and not dialog.send_button.isEnabled()
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    assert dialog.send_task.result() is not None, dialog.banner.detail.text()
    journaled = run(workspace.ledger.journal.recent(batch=dialog.batch.batch_id, limit=100))
    assert len(journaled) == 20 and all(e.state == EntryState.ACCEPTED for e in journaled)
    assert {e.batch for e in journaled} == {dialog.batch.batch_id}
    assert dialog.progress.value() == dialog.progress.maximum() == 20
    summary = dialog.summary_label.text()
    assert "Sent: 20. Accepted: 20. Rejected: 0. Outcome unknown: 0." in summary
    assert "keep being followed" in summary
    assert not dialog.send_button.isEnabled()  # a batch is sent once


def test_stop_sends_no_new_rows_and_leaves_nothing_prepared(qtbot, run, dialog_and_workspace):
    dialog, workspace = dialog_and_workspace
    run(dialog.load_text(rows_csv(60, "parar")))
    approve(qtbot, dialog)
    dialog.progressed.connect(
        lambda done, _total: dialog.stop_button.click() if done == 3 else None
    )
    assert not dialog.stop_button.isEnabled()
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    assert dialog.stop_button.isEnabled()
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    journaled = run(workspace.ledger.journal.recent(batch=dialog.batch.batch_id, limit=100))
    assert 3 <= len(journaled) < 60
    assert all(e.state != EntryState.PREPARED and not e.unresolved for e in journaled)
    assert dialog.summary()["not_sent"] == 60 - len(journaled)
    assert f"Not sent (stopped): {60 - len(journaled)}." in dialog.summary_label.text()
    assert not dialog.stop_button.isEnabled() and not dialog.send_button.isEnabled()


def test_closing_while_sending_asks_nothing_and_stops_new_rows(qtbot, run, dialog_and_workspace):
    dialog, workspace = dialog_and_workspace
    run(dialog.load_text(rows_csv(60, "fechar")))
    approve(qtbot, dialog)
    dialog.progressed.connect(lambda done, _total: dialog.close() if done == 2 else None)
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    assert not dialog.isVisible()
    journaled = run(workspace.ledger.journal.recent(batch=dialog.batch.batch_id, limit=100))
    assert 2 <= len(journaled) < 60 and not any(e.unresolved for e in journaled)


@pytest.mark.parametrize("text", ["", "\ufeff", "\n\n", "chave;valor\n"])
def test_an_empty_file_says_it_has_no_rows(qtbot, run, dialog_and_workspace, text) -> None:
    dialog, _workspace = dialog_and_workspace
    run(dialog.load_text(text))
    assert dialog.errors_label.text() == "The file has no rows: there is nothing to pay."
    assert "with errors" not in dialog.errors_label.text()
    assert not dialog.errors_view.isVisible() and not dialog.leave_out_check.isVisible()
    assert dialog.totals_label.text() == "0 payment(s), R$ 0,00 in total"
    assert not dialog.confirm_edit.isEnabled() and not dialog.can_send()


def test_a_header_without_an_amount_is_the_file_s_error_not_a_row_s(
    qtbot, run, dialog_and_workspace
) -> None:
    dialog, _workspace = dialog_and_workspace
    run(dialog.load_text("chave;descricao\nfornecedor@empresa.com.br;x\n"))
    assert "first line" in dialog.errors_label.text()
    assert "row(s) with errors" not in dialog.errors_label.text()
    assert dialog.errors_view.isVisible()  # which column is missing, listed
