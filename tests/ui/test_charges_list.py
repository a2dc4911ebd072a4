"""The charges list and a charge's detail against the app's own sandbox bank: charges created
through the service show up ATIVA with their amount, the filters narrow the view, the sandbox
payer pays one (CONCLUIDA, its Pix in the detail), and an active charge is revised, then
removed, after which its actions are disabled."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from PySide6.QtCore import QDate, Qt

from tests.services.qr_fixtures import new_cpf
from tests.waiting import qt_wait_until
from treasury_app.api.qrcodes.cashin_models import CobStatus
from treasury_app.domain.documents import format_cpf, mask_document
from treasury_app.domain.money import format_brl
from treasury_app.services.charges import Debtor
from treasury_app.ui.dialogs.charge_detail_dialog import ChargeDetailDialog
from treasury_app.ui.models.charges_model import Column
from treasury_app.ui.operation import events
from treasury_app.ui.widgets.charges_list import ChargesList
from treasury_app.ui.widgets.received_pix_list import ReceivedPixList


@pytest.fixture
def charges_list(qtbot, open_workspace):
    workspace = open_workspace()
    widget = ChargesList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1000, 600)
    widget.show()
    qtbot.waitExposed(widget)
    yield widget, workspace
    widget.shutdown()
    for task in (widget.task, widget.reload_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")


def _cell(widget: ChargesList, txid: str, column: Column) -> str:
    row = widget.proxy.row_of(txid)
    assert row is not None, f"{txid} is not shown"
    return widget.proxy.index(row, column).data()


def _open_detail(qtbot, widget: ChargesList, txid: str) -> ChargeDetailDialog:
    assert widget.select_charge(txid)
    qtbot.mouseClick(widget.details_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: (
            widget.detail_dialog is not None
            and widget.detail_dialog.isVisible()
            and widget.detail_dialog.charge is not None
        ),
        "widget.detail_dialog is not None and widget.detail_dialog.isVisible() and ...",
    )
    dialog = widget.detail_dialog
    assert dialog is not None and dialog.charge is not None
    return dialog


def _close_detail(qtbot, widget: ChargesList, dialog: ChargeDetailDialog) -> None:
    qtbot.mouseClick(dialog.close_button, Qt.MouseButton.LeftButton)
    assert widget.task is not None
    qt_wait_until(qtbot, widget.task.done, "widget.task done")


def test_list_filters_sandbox_payer_and_detail(qtbot, run, charges_list) -> None:
    widget, workspace = charges_list
    key = workspace.pix_keys[0]
    cpf_cob, cpf_cobv = new_cpf(), new_cpf()
    cob = run(
        workspace.charges.create_cob(
            amount=Decimal("123.45"),
            key=key,
            debtor=Debtor(document=format_cpf(cpf_cob), name="Cliente Lista"),
            description="Pedido 4217 lista",
        )
    )
    due = workspace.charges.today() + dt.timedelta(days=10)
    cobv = run(
        workspace.charges.create_cobv(
            amount=Decimal("310.00"),
            key=key,
            debtor=Debtor(document=cpf_cobv, name="Cliente Vencimento"),
            due_date=due,
        )
    )
    # The default range is the last week up to the bank's today.
    assert widget.date_range() == (
        workspace.charges.today() - dt.timedelta(days=7),
        workspace.charges.today(),
    )
    assert run(widget.reload()) is True

    assert _cell(widget, cob.txid, Column.STATUS) == "Active"
    assert _cell(widget, cob.txid, Column.AMOUNT) == format_brl(Decimal("123.45"))
    assert _cell(widget, cob.txid, Column.KIND) == "Immediate (cob)"
    assert mask_document(cpf_cob) in _cell(widget, cob.txid, Column.DEBTOR)
    assert cpf_cob not in _cell(widget, cob.txid, Column.DEBTOR)  # a CPF is half hidden
    assert _cell(widget, cobv.txid, Column.KIND) == "Due date (cobv)"
    assert _cell(widget, cobv.txid, Column.AMOUNT) == format_brl(Decimal("310.00"))
    total = widget.proxy.rowCount()

    # Filters narrow the view without asking the bank again.
    widget.document_edit.setText(format_cpf(cpf_cob))
    assert widget.proxy.rowCount() == 1 and widget.proxy.charge(0).txid == cob.txid
    widget.kind_combo.setCurrentIndex(widget.kind_combo.findData("cobv"))
    assert widget.proxy.rowCount() == 0
    widget.document_edit.clear()
    assert widget.proxy.row_of(cobv.txid) is not None and widget.proxy.row_of(cob.txid) is None
    widget.kind_combo.setCurrentIndex(0)
    widget.search_edit.setText("pedido 4217 lista")
    assert [widget.proxy.charge(r).txid for r in range(widget.proxy.rowCount())] == [cob.txid]
    widget.search_edit.clear()
    widget.status_combo.setCurrentIndex(widget.status_combo.findData("CONCLUIDA"))
    assert widget.proxy.row_of(cob.txid) is None
    widget.status_combo.setCurrentIndex(0)
    assert widget.proxy.rowCount() == total

    # The sandbox payer pays the selected charge: it becomes CONCLUIDA.
    assert widget.select_charge(cob.txid)
    assert widget.sandbox_pay_button.isVisible() and widget.sandbox_pay_button.isEnabled()
    assert widget.sandbox_pay_button.text().startswith("Sandbox:")
    qtbot.mouseClick(widget.sandbox_pay_button, Qt.MouseButton.LeftButton)
    assert widget.task is not None
    qt_wait_until(qtbot, widget.task.done, "widget.task done")
    assert widget.task.result() is True, widget.banner.detail.text()
    assert _cell(widget, cob.txid, Column.STATUS) == "Paid"
    assert widget.selected_charge().txid == cob.txid  # the selection survives the reload
    assert not widget.sandbox_pay_button.isEnabled()
    received = ReceivedPixList(workspace)
    qtbot.addWidget(received)
    assert run(received.reload()) is True
    paid = [received.model.row_at(r).pix for r in range(received.model.rowCount())]
    assert [p.valor for p in paid if p.txid == cob.txid] == [Decimal("123.45")]
    received.shutdown()

    # Its detail shows every field that matters and the Pix received, without actions.
    dialog = _open_detail(qtbot, widget, cob.txid)
    assert dialog.fields["status"].text() == "Paid"
    assert dialog.fields["amount"].text() == format_brl(Decimal("123.45"))
    assert "Cliente Lista" in dialog.fields["debtor"].text()
    assert mask_document(cpf_cob) in dialog.fields["debtor"].text()
    assert dialog.fields["message"].text() == "Pedido 4217 lista"
    assert dialog.fields["key"].text() == key
    assert dialog.fields["location"].text()
    assert dialog.copy_paste.toPlainText().startswith("000201")
    assert dialog.pix_tree.topLevelItemCount() == 1
    pix_item = dialog.pix_tree.topLevelItem(0)
    assert pix_item.text(0).startswith("E") and pix_item.text(2) == format_brl(Decimal("123.45"))
    assert pix_item.childCount() == 0  # no refund yet
    assert not dialog.revise_button.isEnabled() and not dialog.remove_button.isEnabled()
    _close_detail(qtbot, widget, dialog)

    # A cobv's detail shows its due date.
    dialog = _open_detail(qtbot, widget, cobv.txid)
    assert dialog.fields["expiry"].text().startswith(due.strftime("%d/%m/%Y"))
    assert dialog.revise_button.isEnabled() and dialog.remove_button.isEnabled()
    _close_detail(qtbot, widget, dialog)


def test_revise_then_remove_an_active_charge(qtbot, run, charges_list) -> None:
    widget, workspace = charges_list
    cpf = new_cpf()
    cob = run(
        workspace.charges.create_cob(
            amount=Decimal("80.00"),
            key=workspace.pix_keys[0],
            debtor=Debtor(document=cpf, name="Cliente Revisao"),
        )
    )
    assert run(widget.reload()) is True
    dialog = _open_detail(qtbot, widget, cob.txid)
    assert dialog.fields["revision"].text() == "0"

    # Revise the amount and the debtor's name.
    qtbot.mouseClick(dialog.revise_button, Qt.MouseButton.LeftButton)
    assert dialog.revision_box.isVisible()
    assert dialog.revise_amount.value() == Decimal("80.00")
    dialog.revise_amount.clear()
    qtbot.keyClicks(dialog.revise_amount, "99,90")
    dialog.revise_name.setText("Cliente Revisado")
    assert dialog.revise_expiry.value() == 86400  # the default expiry: one day
    dialog.revise_expiry.amount.setValue(2)  # hours, as a person types them
    dialog.revise_expiry.unit.setCurrentIndex(0)
    assert dialog.revise_expiry.value() == 7200
    qtbot.mouseClick(dialog.revise_save, Qt.MouseButton.LeftButton)
    assert dialog.task is not None
    qt_wait_until(qtbot, dialog.task.done, "dialog.task done")
    assert dialog.task.result() is True, dialog.banner.detail.text()
    assert dialog.fields["amount"].text() == format_brl(Decimal("99.90"))
    assert dialog.fields["revision"].text() == "1"
    assert "Cliente Revisado" in dialog.fields["debtor"].text()
    assert mask_document(cpf) in dialog.fields["debtor"].text()  # the document is kept
    assert run(workspace.charges.get_cob(cob.txid)).calendario.expiracao == 7200
    assert not dialog.revision_box.isVisible()
    assert _cell(widget, cob.txid, Column.AMOUNT) == format_brl(Decimal("99.90"))

    # Remove it, after confirming.
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.confirm_box is not None and dialog.confirm_box.isVisible(),
        "dialog.confirm_box shown",
    )
    assert format_brl(Decimal("99.90")) in dialog.confirm_box.text()
    qtbot.mouseClick(dialog.confirm_remove_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.task.done, "dialog.task done")
    assert dialog.task.result() is True, dialog.banner.detail.text()
    assert dialog.fields["status"].text() == "Removed by us"
    assert not dialog.revise_button.isEnabled() and not dialog.remove_button.isEnabled()
    _close_detail(qtbot, widget, dialog)
    assert _cell(widget, cob.txid, Column.STATUS) == "Removed by us"
    assert widget.selected_charge().status == CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR
    assert not widget.sandbox_pay_button.isEnabled()


def test_keeping_the_charge_sends_nothing(qtbot, run, charges_list) -> None:
    widget, workspace = charges_list
    assert run(widget.reload()) is True
    cob = run(workspace.charges.create_cob(amount=Decimal("12.00"), key=workspace.pix_keys[0]))
    events.ledger_changed.emit()  # a change somewhere: the shown list reloads by itself
    qt_wait_until(
        qtbot,
        lambda: widget.proxy.row_of(cob.txid) is not None,
        "widget.proxy.row_of(cob.txid) is not None",
    )
    dialog = _open_detail(qtbot, widget, cob.txid)
    assert dialog.fields["debtor"].text() == "None"
    qtbot.mouseClick(dialog.remove_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.confirm_box is not None and dialog.confirm_box.isVisible(),
        "dialog.confirm_box shown",
    )
    dialog.confirm_box.reject()
    qt_wait_until(qtbot, dialog.task.done, "dialog.task done")
    assert dialog.task.result() is False
    # Nothing changed in the revision form either: nothing is sent.
    qtbot.mouseClick(dialog.revise_button, Qt.MouseButton.LeftButton)
    assert not dialog.revise_name.isEnabled()  # no debtor: no name to change
    assert run(dialog.revise()) is False
    assert "Nothing to change" in dialog.banner.title.text()
    assert dialog.fields["status"].text() == "Active"
    _close_detail(qtbot, widget, dialog)
    assert run(workspace.charges.get_cob(cob.txid)).status == CobStatus.ATIVA


def test_revise_a_cobv_due_date_and_name(qtbot, run, charges_list) -> None:
    widget, workspace = charges_list
    today = workspace.charges.today()
    cobv = run(
        workspace.charges.create_cobv(
            amount=Decimal("45.00"),
            key=workspace.pix_keys[0],
            debtor=Debtor(document=new_cpf(), name="Cliente Cobv", city="Recife", state="PE"),
            due_date=today + dt.timedelta(days=5),
        )
    )
    assert run(widget.reload()) is True
    dialog = _open_detail(qtbot, widget, cobv.txid)
    qtbot.mouseClick(dialog.revise_button, Qt.MouseButton.LeftButton)
    new_due = today + dt.timedelta(days=9)
    dialog.revise_due.setDate(QDate(new_due.year, new_due.month, new_due.day))
    dialog.revise_name.setText("Cliente Cobv Novo")
    qtbot.mouseClick(dialog.revise_save, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.task.done, "dialog.task done")
    assert dialog.task.result() is True, dialog.banner.detail.text()
    assert dialog.fields["expiry"].text().startswith(new_due.strftime("%d/%m/%Y"))
    assert "Cliente Cobv Novo" in dialog.fields["debtor"].text()
    assert "Recife" in dialog.fields["debtor"].text()  # the address is kept
    assert dialog.fields["amount"].text() == format_brl(Decimal("45.00"))
    _close_detail(qtbot, widget, dialog)


def test_the_detail_shows_the_qr_code_to_copy_and_save(qtbot, run, charges_list, tmp_path) -> None:
    from PySide6.QtGui import QGuiApplication

    from treasury_app.ui.qr_image import decode_qr_image

    widget, workspace = charges_list
    cob = run(
        workspace.charges.create_cob(
            amount=Decimal("12.34"),
            key=workspace.pix_keys[0],
            debtor=Debtor(document=new_cpf(), name="Cliente QR"),
        )
    )
    assert run(widget.reload()) is True
    dialog = _open_detail(qtbot, widget, cob.txid)
    assert dialog.qr_button.isEnabled() and dialog.copy_button.isEnabled()
    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == cob.pix_copia_e_cola
    qtbot.mouseClick(dialog.qr_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: dialog.qr_dialog is not None and dialog.qr_dialog.isVisible(),
        "dialog.qr_dialog shown",
    )
    qr = dialog.qr_dialog
    saved = qr.save_qr(tmp_path / "cobranca.png")
    assert decode_qr_image(saved) == cob.pix_copia_e_cola  # the saved PNG scans
    qr.close()
    _close_detail(qtbot, widget, dialog)
