"""The charge batches part of the charges tab against the app's own sandbox bank: a file with
errors shown line by line with Send disabled, the template, a good file (txids generated)
reviewed, sent and followed to CRIADA/ATIVA, a member revised (amount, due date) and the batch
in the batch list."""

from __future__ import annotations

import datetime as dt
import secrets
from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import WAIT_MS, qt_wait_until
from treasury_app.domain.documents import cpf_check_digits, format_cpf
from treasury_app.domain.identifiers import is_valid_txid, new_txid
from treasury_app.domain.money import format_brl
from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog, read_batch_file
from treasury_app.ui.models.charge_batch_model import Column
from treasury_app.ui.widgets.charge_batches import ChargeBatches

HEADER = "nome;cpf_cnpj;valor;vencimento;descricao;txid\n"


def new_cpf() -> str:
    first9 = f"{secrets.randbelow(10**9):09d}"
    return first9 + cpf_check_digits(first9)


def br(day: dt.date) -> str:
    return day.strftime("%d/%m/%Y")


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


@pytest.fixture
def dialog(qtbot, workspace):
    dialog = ChargeBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    if dialog.send_task is not None:
        qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")


def cell(model, row: int, column: Column) -> str:
    return model.index(row, column).data()


def test_errors_are_shown_on_their_line_and_send_stays_disabled(qtbot, workspace, dialog):
    today = workspace.charges.today()
    due = br(today + dt.timedelta(days=30))
    txid = new_txid()
    text = (
        HEADER
        + f"Ana Lima;{format_cpf(new_cpf())};10,00;{due};Ok;{txid}\n"  # 2: good
        + f"Bia Reis;111.111.111-11;10,00;{due};CPF errado;\n"  # 3: bad CPF
        + f"Caio Dias;{new_cpf()};20,00;{due};;{txid}\n"  # 4: txid of line 2 again
        + f"Duda Melo;{new_cpf()};-5,00;{due};;\n"  # 5: negative amount
        + f"Enzo Cruz;{new_cpf()};7,50;{br(today - dt.timedelta(days=1))};;\n"  # 6: past due
    )
    dialog.load_text(text)
    model = dialog.model
    assert [cell(model, r, Column.LINE) for r in range(model.rowCount())] == [
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    wrong = {m.line: [e.column for e in m.errors] for m in model.members if m.errors}
    assert wrong == {3: ["cpf_cnpj"], 4: ["txid"], 5: ["valor"], 6: ["vencimento"]}
    assert "line 2" in cell(model, 2, Column.PROBLEM)  # the repeated txid names its first line
    for row in range(1, 5):
        assert cell(model, row, Column.STATUS) == "Error"
    assert cell(model, 0, Column.STATUS) == "OK"
    # the cell at fault is marked (own colour and tooltip), the rest of its row less so
    bad_cell = model.index(1, Column.DOCUMENT)
    assert bad_cell.data(Qt.ItemDataRole.ToolTipRole)
    assert bad_cell.data(Qt.ItemDataRole.BackgroundRole) != model.index(1, Column.NAME).data(
        Qt.ItemDataRole.BackgroundRole
    )
    assert model.index(0, Column.NAME).data(Qt.ItemDataRole.BackgroundRole) is None
    assert cell(model, 1, Column.DOCUMENT) == "111.111.111-11"  # as typed
    assert cell(model, 3, Column.AMOUNT) == "-5,00"
    # the total of the good lines, in reais; nothing can be reviewed or sent
    assert format_brl(Decimal("10.00")) in dialog.totals_label.text()
    assert "4 line(s) with errors" in dialog.totals_label.text()
    assert not dialog.review_button.isEnabled() and not dialog.send_button.isEnabled()
    assert dialog.review() is None and dialog.review_box.isHidden()
    # only the lines to fix
    dialog.errors_only_check.setChecked(True)
    assert dialog.proxy.rowCount() == 4
    assert dialog.proxy.member(0).line == 3


def test_the_template_reads_without_errors(qtbot, workspace, dialog, tmp_path):
    path = tmp_path / "batch.csv"
    dialog.write_template(path)
    text = path.read_text("utf-8-sig")
    assert text.splitlines()[0] == HEADER.strip()
    batch = read_batch_file(text, today=dt.date(2026, 11, 18))
    assert batch.ok and len(batch.parsed.rows) == 2 and batch.txids == {}
    task = dialog.load_file(path)
    qt_wait_until(qtbot, task.done, "task done")
    assert dialog.model.rowCount() == 2 and dialog.source_label.text() == "batch.csv"


def test_a_batch_is_reviewed_sent_followed_revised_and_listed(qtbot, run, workspace):
    today = workspace.charges.today()
    first_due = today + dt.timedelta(days=20)
    given = new_txid()
    text = (
        HEADER
        + f"Maria Souza;{format_cpf(new_cpf())};1.234,56;{br(first_due)};Mensalidade;\n"
        + f"Empresa Cliente Ltda;60.391.947/0001-00;99,90;{first_due.isoformat()};;{given}\n"
        + f"João Lima;{new_cpf()};10,00;{br(first_due)};Taxa;\n"
    )
    widget = ChargeBatches(workspace)
    qtbot.addWidget(widget)
    widget.resize(1000, 700)
    widget.show()
    qtbot.waitExposed(widget)

    # Import CSV… opens the dialog (with ask(): no nested loop)
    qtbot.mouseClick(widget.import_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: widget.dialog is not None and widget.dialog.isVisible(),
        "widget.dialog shown",
    )
    dialog = widget.dialog
    dialog.load_text(text)
    assert dialog.batch.ok and not dialog.send_button.isEnabled()
    assert cell(dialog.model, 0, Column.TXID) == "(generated)"

    # review: count, total, batch id; the empty txids are chosen now
    assert dialog.review_button.isEnabled()
    qtbot.mouseClick(dialog.review_button, Qt.MouseButton.LeftButton)
    plan = dialog.plan
    assert plan is not None and dialog.review_box.isVisible()
    assert dialog.review_count.text() == "3"
    assert dialog.review_total.text() == "R$ 1.344,46"
    assert dialog.review_batch_id.text() == plan.batch_id
    txids = [m.txid for m in plan.members]
    assert txids[1] == given and all(is_valid_txid(t) for t in txids) and len(set(txids)) == 3
    assert [cell(dialog.model, r, Column.TXID) for r in range(3)] == txids

    # send: disabled while running, then each member's status
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    assert dialog.send_task is not None and not dialog.send_button.isEnabled()
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    status = dialog.send_task.result()
    assert status is not None, dialog.banner.detail.text()
    assert [(m.txid, m.line, m.status) for m in status.members] == [
        (txids[0], 2, "CRIADA"),
        (txids[1], 3, "CRIADA"),
        (txids[2], 4, "CRIADA"),
    ]
    assert [cell(dialog.model, r, Column.STATUS) for r in range(3)] == ["Created"] * 3
    assert "Created: 3" in dialog.outcome_label.text()
    assert not dialog.send_button.isEnabled() and not dialog.review_button.isEnabled()

    # the batch list shows it and opens it (the dialog told the widget)
    qt_wait_until(
        qtbot,
        lambda: widget.sent_task is not None and widget.sent_task.done(),
        "widget.sent_task done",
    )
    assert widget.batches_model.row_of(plan.batch_id) is not None
    summary = widget.batches_model.batch(widget.batches_model.row_of(plan.batch_id))
    assert summary.count == 3
    dialog.close()

    # a moment later (sandbox clock) the members are charges: ATIVA
    http = workspace.session.qrcodes.transport.http
    run(http.post("/sandbox/clock", json={"advance": 1}))
    opened = run(widget.open_batch(plan.batch_id))
    assert opened is not None and [m.status for m in opened.members] == ["ATIVA"] * 3
    members = widget.members_model.members
    assert [(m.line, m.txid, m.amount, m.due_date) for m in members] == [
        (2, txids[0], Decimal("1234.56"), first_due),
        (3, txids[1], Decimal("99.90"), first_due),
        (4, txids[2], Decimal("10.00"), first_due),
    ]
    assert cell(widget.members_model, 0, Column.AMOUNT) == "R$ 1.234,56"

    # revise the first member's amount and due date through the form
    new_due = today + dt.timedelta(days=45)
    assert widget.select_member(txids[0])
    assert not widget.revise_button.isEnabled()  # nothing to change yet
    widget.amount_check.setChecked(True)
    widget.amount_edit.setText("1.300,00")
    widget.due_check.setChecked(True)
    widget.due_edit.setDate(widget.due_edit.date().fromString(new_due.isoformat(), "yyyy-MM-dd"))
    assert widget.revise_button.isEnabled()
    revised = run(
        widget.revise(txids[0], amount=widget.amount_edit.value(), due_date=new_due),
        timeout=WAIT_MS,
    )
    assert revised is not None, widget.banner.detail.text()
    row = widget.members_model.row_of(txids[0])
    member = widget.members_model.member(row)
    assert (member.amount, member.due_date) == (Decimal("1300.00"), new_due)
    assert cell(widget.members_model, row, Column.DUE_DATE) == new_due.strftime("%d/%m/%Y")
    assert (run(workspace.charges.get_cobv(txids[0]))).valor.original == Decimal("1300.00")
    untouched = widget.members_model.member(widget.members_model.row_of(txids[2]))
    assert (untouched.amount, untouched.due_date) == (Decimal("10.00"), first_due)

    # the list of a range that does not include today does not show it
    widget.start_edit.setDate(widget.start_edit.date().addDays(-30))
    widget.end_edit.setDate(widget.start_edit.date().addDays(1))
    run(widget.reload())
    assert widget.batches_model.row_of(plan.batch_id) is None
    qt_wait_until(qtbot, widget.import_task.done, "widget.import_task done")


def test_lines_with_errors_can_be_left_out_and_their_problem_read(qtbot, run, workspace, dialog):
    today = workspace.charges.today()
    due = br(today + dt.timedelta(days=30))
    long_name = "Bia " + "Reis " * 30
    text = (
        HEADER
        + f"Ana Lima;{format_cpf(new_cpf())};10,00;{due};Ok;\n"  # 2: good
        + f"{long_name};111.111.111-11;10,00;{due};CPF errado;\n"  # 3: bad CPF, long name
        + f"Caio Dias;{new_cpf()};20,50;{due};Ok;\n"  # 4: good
        + f"Duda Melo;{new_cpf()};-5,00;{due};;\n"  # 5: negative amount
    )
    dialog.key_combo.setCurrentIndex(0)
    dialog.load_text(text)
    assert not dialog.review_button.isEnabled()
    assert dialog.leave_out_check.isVisible()
    assert dialog.leave_out_check.text() == (
        "Leave out the 2 line(s) with errors and send the other 2"
    )
    # The whole problem of the selected line, readable under the table.
    dialog.view.selectRow(1)
    assert dialog.problem_label.isVisible()
    assert dialog.problem_label.text().startswith("Line 3: ")
    assert "cpf_cnpj" in dialog.problem_label.text()
    assert dialog.problem_label.wordWrap()

    dialog.leave_out_check.setChecked(True)
    assert dialog.review_button.isEnabled()
    plan = dialog.review()
    assert plan is not None and [m.row.line for m in plan.members] == [2, 4]
    assert plan.total == Decimal("30.50") and dialog.review_total.text() == "R$ 30,50"
    assert not dialog.leave_out_check.isEnabled()  # fixed once reviewed
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.send_task is not None and dialog.send_task.done(),
        "dialog.send_task done",
    )
    status = dialog.send_task.result()
    assert status is not None and len(status.members) == 2


def test_a_file_over_the_cap_is_read_no_further_and_cannot_be_left_out():
    from treasury_app.services.charges import MAX_BATCH_MEMBERS
    from treasury_app.services.csv_input import ReadCancelled, ReadControl

    line = "Cliente;529.982.247-25;1,00;15/12/2030\n"
    text = "nome;cpf_cnpj;valor;vencimento\n" + "Cliente;1;x;y\n" + line * 400_000
    batch = read_batch_file(text)
    assert len(batch.members) <= MAX_BATCH_MEMBERS + 1  # not one row per line of the file
    assert not batch.ok and not batch.can_leave_out
    assert any(e.reason.code == "charge_batch.too_many_charges" for e in batch.general_errors())
    # The first pass takes a Cancel too.
    control = ReadControl()
    control.cancel.set()
    with pytest.raises(ReadCancelled):
        read_batch_file(text, control=control)


def test_a_quote_left_open_refuses_the_whole_charge_file():
    lines = [f"Cliente {n};529.982.247-25;{n},00;15/12/2030" for n in range(1, 101)]
    lines[4] = 'Cliente 5;529.982.247-25;5,00;"15/12/2030'
    for header in ("", "nome;cpf_cnpj;valor;vencimento;descricao;txid\n"):
        batch = read_batch_file(header + "\n".join(lines) + "\n")
        assert batch.parsed.rows == () and not batch.can_leave_out and not batch.ok
        assert [e.line for e in batch.general_errors()] == [5 + bool(header)]
