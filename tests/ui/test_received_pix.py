"""The received Pix list and refunds against the app's own sandbox bank: a charge paid by the
sandbox payer shows up with its payer (from the statement); refunding part of it goes through
a review naming the payer and the amount, is refused locally above what is left, is sent once,
and is followed until DEVOLVIDO, in the dialog and in the list. A refund whose answer is lost
keeps its id: the next dialog for that Pix checks it at the bank, never makes a second one."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.api.errors import (
    BadRequest,
    NotFound,
    ServerError,
    TransportFailure,
    Violation,
)
from treasury_app.api.qrcodes.cashin_models import DevolucaoStatus
from treasury_app.domain.money import format_brl
from treasury_app.services.sandbox_console import SANDBOX_PAYER
from treasury_app.ui.dialogs.charge_detail_dialog import ChargeDetailDialog
from treasury_app.ui.dialogs.refund_dialog import (
    PendingRefund,
    RefundDialog,
    check_refund_amount,
    new_refund_id,
    outcome_unknown,
)
from treasury_app.ui.models.received_pix_model import Column
from treasury_app.ui.widgets.received_pix_list import ReceivedPixList


@pytest.fixture
def received_list(qtbot, open_workspace):
    workspace = open_workspace()
    widget = ReceivedPixList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1100, 600)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget, workspace
    widget.shutdown()
    for task in (widget.task, widget.reload_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")


def _paid_charge(run, workspace, amount: Decimal) -> tuple[str, str]:
    """A new cob paid in full by the sandbox payer: its endToEndId and txid."""
    cob = run(workspace.charges.create_cob(amount=amount, key=workspace.pix_keys[0]))
    answer = run(workspace.sandbox.pay_charge(cob.txid))
    return answer["pix"]["endToEndId"], cob.txid


def _cell(widget: ReceivedPixList, e2e: str, column: Column) -> str:
    row = widget.proxy.row_of(e2e)
    assert row is not None, f"{e2e} is not shown"
    return widget.proxy.index(row, column).data()


def _open_refund(qtbot, widget: ReceivedPixList, e2e: str) -> RefundDialog:
    assert widget.select_pix(e2e)
    assert widget.refund_button.isEnabled()
    qtbot.mouseClick(widget.refund_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: widget.refund_dialog is not None and widget.refund_dialog.isVisible(),
        "widget.refund_dialog shown",
    )
    return widget.refund_dialog


def test_partial_refund_reviewed_confirmed_and_followed(qtbot, run, received_list) -> None:
    widget, workspace = received_list
    e2e, txid = _paid_charge(run, workspace, Decimal("150.00"))
    assert run(widget.reload()) is True
    assert _cell(widget, e2e, Column.TXID) == txid
    assert _cell(widget, e2e, Column.AMOUNT) == format_brl(Decimal("150.00"))
    assert SANDBOX_PAYER["name"] in _cell(widget, e2e, Column.PAYER)
    assert _cell(widget, e2e, Column.REFUNDED) == ""
    widget.search_edit.setText(txid)
    assert widget.proxy.rowCount() == 1
    widget.search_edit.clear()

    stats = workspace.session.transports["qrcodes"].stats
    dialog = _open_refund(qtbot, widget, e2e)
    assert dialog.left == Decimal("150.00") and dialog.full_radio.isChecked()

    # More than what is left is refused here: no request, no review.
    requests = stats.requests
    qtbot.mouseClick(dialog.partial_radio, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.amount_edit, "150,01")
    qtbot.mouseClick(dialog.review_button, Qt.MouseButton.LeftButton)
    assert "left to refund" in dialog.amount_hint.text()
    assert dialog.steps.currentIndex() == 0 and stats.requests == requests

    # The review names the payer, who receives the refund, and the amount.
    dialog.amount_edit.clear()
    qtbot.keyClicks(dialog.amount_edit, "40,00")
    qtbot.mouseClick(dialog.review_button, Qt.MouseButton.LeftButton)
    assert dialog.steps.currentIndex() == 1
    assert SANDBOX_PAYER["name"] in dialog.review_fields["payer"].text()
    assert dialog.review_amount.text() == format_brl(Decimal("40.00"))
    assert dialog.review_fields["left_after"].text() == format_brl(Decimal("110.00"))
    refund_id = dialog.review_fields["refund_id"].text()
    assert len(refund_id) == 35 and refund_id.isalnum()
    assert not dialog.confirm_button.isEnabled()
    qtbot.keyClicks(dialog.confirm_edit, "40,00")
    assert dialog.confirm_button.isEnabled()
    qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)  # the double click
    assert not dialog.confirm_button.isEnabled()
    assert dialog.send_task is not None
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    refund = dialog.send_task.result()
    assert refund is not None, dialog.banner.detail.text()
    assert refund.id == refund_id and refund.valor == Decimal("40.00")
    assert dialog.steps.currentIndex() == 2
    pix = run(workspace.charges.get_received_pix(e2e))
    assert [d.id for d in pix.devolucoes] == [refund_id]  # one refund for two clicks

    # The bank settles it on its clock; the dialog and the list follow it.
    if dialog.final_status is None:
        http = workspace.session.qrcodes.transport.http
        run(http.post("/sandbox/clock", json={"advance": 5})).raise_for_status()
    qt_wait_until(qtbot, lambda: dialog.final_status is not None, "dialog.final_status is not None")
    assert dialog.final_status == DevolucaoStatus.DEVOLVIDO
    assert "Refunded" in dialog.status_label.text()
    assert _cell(widget, e2e, Column.REFUNDED) == format_brl(Decimal("40.00"))
    assert _cell(widget, e2e, Column.REFUND_STATUS) == "Refunded"
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.task.done, "widget.task done")

    # The charge's detail shows the Pix with its refund.
    detail = ChargeDetailDialog(workspace, "cob", txid, widget)
    assert run(detail.load()) is True
    [item] = [detail.pix_tree.topLevelItem(i) for i in range(detail.pix_tree.topLevelItemCount())]
    assert item.text(0) == e2e and item.childCount() == 1
    assert item.child(0).text(0) == refund_id and item.child(0).text(3) == "Refunded"
    assert item.child(0).text(2) == format_brl(Decimal("40.00"))
    detail.deleteLater()

    # What is left is what the next refund may take.
    dialog = _open_refund(qtbot, widget, e2e)
    assert dialog.left == Decimal("110.00")
    assert "110,00" in dialog.full_radio.text()
    dialog.reject()
    qt_wait_until(qtbot, widget.task.done, "widget.task done")


def test_refund_amount_checks() -> None:
    left = Decimal("10.00")
    assert check_refund_amount(Decimal("10.00"), left) is None
    assert check_refund_amount(Decimal("10.01"), left) == "over"
    assert check_refund_amount(Decimal("0"), left) == "not_positive"
    assert check_refund_amount(None, left) == "missing"


def _review_partial(qtbot, dialog: RefundDialog, typed: str) -> str:
    """Choose a partial refund of ``typed``, review it and type the amount again; its id."""
    qtbot.mouseClick(dialog.partial_radio, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(dialog.amount_edit, typed)
    qtbot.mouseClick(dialog.review_button, Qt.MouseButton.LeftButton)
    assert dialog.steps.currentIndex() == 1
    qtbot.keyClicks(dialog.confirm_edit, typed)
    return dialog.review_fields["refund_id"].text()


def test_a_lost_refund_answer_is_checked_never_refunded_twice(qtbot, run, received_list) -> None:
    widget, workspace = received_list
    e2e, _txid = _paid_charge(run, workspace, Decimal("120.00"))
    assert run(widget.reload()) is True
    dialog = _open_refund(qtbot, widget, e2e)
    refund_id = _review_partial(qtbot, dialog, "30,00")

    http = workspace.session.qrcodes.transport.http
    rule = {
        "path": "*/devolucao/*",
        "method": "PUT",
        "api": "qrcodes",
        "drop_after_commit": 1,
        "times": 1,
    }
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        qtbot.mouseClick(dialog.confirm_button, Qt.MouseButton.LeftButton)
        qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    finally:
        run(http.delete("/sandbox/faults"))
    assert dialog.send_task.result() is None  # no answer that can be trusted
    pix = run(workspace.charges.get_received_pix(e2e))
    assert [d.id for d in pix.devolucoes] == [refund_id]  # but the bank made it

    # The dialog says it may be done and offers only the same id; the list keeps the id and
    # reloads (the refund shows up in the row).
    assert dialog.steps.currentIndex() == 3
    assert "may already be done" in dialog.unknown_label.text()
    assert refund_id in dialog.unknown_title.text()
    assert dialog.retry_button.isEnabled() and dialog.check_button.isEnabled()
    assert widget.pending_refunds[e2e].refund_id == refund_id
    assert widget.pending_refunds[e2e].amount == Decimal("30.00")
    qt_wait_until(
        qtbot,
        lambda: _cell(widget, e2e, Column.REFUNDED) == format_brl(Decimal("30.00")),
        '_cell(widget, e2e, Column.REFUNDED) == format_brl(Decimal("30.00"))',
    )
    qtbot.mouseClick(dialog.unknown_close_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.task.done, "widget.task done")

    # Reopened: it asks the bank about that id and follows it; nothing new is requested.
    dialog = _open_refund(qtbot, widget, e2e)
    assert dialog.refund_id == refund_id and dialog.check_task is not None
    qt_wait_until(qtbot, dialog.check_task.done, "dialog.check_task done")
    refund = dialog.check_task.result()
    assert refund is not None and refund.id == refund_id, dialog.banner.detail.text()
    assert dialog.steps.currentIndex() == 2 and refund_id in dialog.status_title.text()
    assert e2e not in widget.pending_refunds
    pix = run(workspace.charges.get_received_pix(e2e))
    assert [d.id for d in pix.devolucoes] == [refund_id]  # refunded once
    assert sum(d.valor for d in pix.devolucoes) == Decimal("30.00")
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.task.done, "widget.task done")


def test_a_pending_refund_the_bank_lacks_is_retried_with_its_id(qtbot, run, received_list) -> None:
    widget, workspace = received_list
    e2e, _txid = _paid_charge(run, workspace, Decimal("50.00"))
    assert run(widget.reload()) is True
    refund_id = new_refund_id()
    widget.pending_refunds[e2e] = PendingRefund(e2e, refund_id, Decimal("12.34"), "lost")
    dialog = _open_refund(qtbot, widget, e2e)
    qt_wait_until(qtbot, dialog.check_task.done, "dialog.check_task done")
    assert dialog.check_task.result() is None
    assert dialog.steps.currentIndex() == 3
    assert "no refund" in dialog.unknown_label.text() and "12,34" in dialog.unknown_label.text()
    assert run(workspace.charges.get_received_pix(e2e)).devolucoes == []

    qtbot.mouseClick(dialog.retry_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")
    refund = dialog.send_task.result()
    assert refund is not None, dialog.banner.detail.text()
    assert (refund.id, refund.valor) == (refund_id, Decimal("12.34"))  # same id, same amount
    assert dialog.steps.currentIndex() == 2
    assert e2e not in widget.pending_refunds
    pix = run(workspace.charges.get_received_pix(e2e))
    assert [d.id for d in pix.devolucoes] == [refund_id]
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, widget.task.done, "widget.task done")


def test_which_refund_failures_leave_the_outcome_unknown() -> None:
    path = "/pix/E1/devolucao/abc"
    assert outcome_unknown(TransportFailure("reset", method="PUT", path=path, request_sent=True))
    assert not outcome_unknown(
        TransportFailure("refused", method="PUT", path=path, request_sent=False)
    )
    assert outcome_unknown(ServerError(503))
    taken = Violation(razao="já foi utilizado", propriedade="devolucao.id")
    assert outcome_unknown(BadRequest(400, violacoes=[taken]))  # a retry met its own refund
    over = Violation(razao="excede", propriedade="devolucao.valor")
    assert not outcome_unknown(BadRequest(400, violacoes=[over]))
    assert not outcome_unknown(NotFound(404))
