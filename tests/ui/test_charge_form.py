"""The "New charge" dialog and the QR Code dialog against the app's own sandbox bank: fill the
form as a person would, create a cob (its QR read back from the screen and followed to its
location) and a cobv with fine, interest, rebate and discount; local refusals send nothing;
the bank's 400 lands on its field; the QR Code saves as PNG and SVG."""

from __future__ import annotations

import secrets
import xml.etree.ElementTree as ElementTree
from datetime import timedelta
from decimal import Decimal

import pytest
import shiboken6
from PySide6.QtCore import QDate, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QWidget

from tests.waiting import WAIT_MS, qt_wait_until
from treasury_app.api.errors import ApiError
from treasury_app.domain import brcode
from treasury_app.domain.documents import cnpj_check_digits, cpf_check_digits
from treasury_app.domain.money import format_brl
from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog, FormErrors, field_for
from treasury_app.ui.dialogs.charge_qr_dialog import ChargeQrDialog
from treasury_app.ui.operation import running_changes
from treasury_app.ui.qr_image import decode_qr_image
from treasury_app.ui.widgets.qr_code_view import QUIET_ZONE, module_layout

CPF = "123456789" + cpf_check_digits("123456789")
CNPJ = "112223330001" + cnpj_check_digits("112223330001")


def _txid() -> str:
    return "uitest" + secrets.token_hex(12)  # 30 letters and digits, unique per run


def _qdate(day):
    return QDate(day.year, day.month, day.day)


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


@pytest.fixture
def form(qtbot, workspace):
    host = QWidget()  # the tab: the QR dialog is parented to it and outlives the form
    qtbot.addWidget(host)
    dialog = ChargeFormDialog(workspace, host)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    if dialog.submit_task is not None:
        qt_wait_until(qtbot, dialog.submit_task.done, "dialog.submit_task done")
    if dialog.qr_dialog is not None:
        dialog.qr_dialog.close()


def _fill_common(qtbot, form: ChargeFormDialog, *, amount: str, document: str, name: str) -> None:
    qtbot.keyClicks(form.amount_edit, amount)
    qtbot.keyClicks(form.document_edit, document)
    qtbot.keyClicks(form.name_edit, name)


def _counting(monkeypatch, target, name: str) -> list:
    calls: list = []
    original = getattr(target, name)

    async def counting(*args, **kwargs):
        calls.append(args)
        return await original(*args, **kwargs)

    monkeypatch.setattr(target, name, counting)
    return calls


def test_cob_from_the_form_to_a_scannable_qr_code(qtbot, run, form, workspace, tmp_path) -> None:
    assert form.key_combo.count() == len(workspace.pix_keys) > 0
    form.key_combo.setCurrentIndex(form.key_combo.count() - 1)
    key = form.key_combo.currentText()
    _fill_common(qtbot, form, amount="1.234,56", document=CPF, name="Maria da Silva")
    qtbot.keyClicks(form.message_edit, "Pedido 42")
    form.expiry_edit.amount.setValue(2)  # hours, as a person types it
    assert form.expiry_edit.unit.currentData() == 86400  # the default is a day
    form.expiry_edit.unit.setCurrentIndex(0)
    assert form.expiry_edit.seconds() == 7200 and form.expiry_hint.text() == "2 h"
    txid = _txid()
    qtbot.keyClicks(form.txid_edit, txid)
    announced: list = []
    form.charge_created.connect(announced.append)

    qtbot.mouseClick(form.submit_button, Qt.MouseButton.LeftButton)
    assert form.submit_task is not None
    qt_wait_until(qtbot, form.submit_task.done, "form.submit_task done")
    created = form.submit_task.result()
    assert created is not None, form.banner.detail.text()
    assert form.created is created and announced == [created]
    assert created.txid == txid and created.valor.original == Decimal("1234.56")
    assert created.chave == key and created.calendario.expiracao == 7200
    assert created.devedor.cpf == CPF and created.solicitacao_pagador == "Pedido 42"
    assert form.result() == ChargeFormDialog.DialogCode.Accepted

    qr_dialog = form.qr_dialog
    assert isinstance(qr_dialog, ChargeQrDialog)
    qtbot.waitExposed(qr_dialog)
    assert qr_dialog.txid_label.text() == txid
    assert qr_dialog.amount_label.text() == format_brl(Decimal("1234.56"))
    assert "(Brasília)" in qr_dialog.deadline_label.text()
    assert qr_dialog.copy_paste.isReadOnly()
    assert qr_dialog.copy_paste.toPlainText() == created.pix_copia_e_cola

    # What is on the screen scans back to this charge's location.
    grab = tmp_path / "screen.png"
    assert qr_dialog.view.grab().save(str(grab))
    code = brcode.parse(decode_qr_image(grab))
    assert code.payload == created.pix_copia_e_cola
    assert code.url == created.location and code.amount is None  # a dynamic code
    # The amount the payer's bank will show comes from the location's signed payload.
    payload = run(workspace.session.qrcodes.get_payload(code.url))
    assert payload.txid == txid and payload.valor.original == Decimal("1234.56")
    assert run(workspace.charges.get_cob(txid)).valor.original == Decimal("1234.56")

    qtbot.mouseClick(qr_dialog.copy_button, Qt.MouseButton.LeftButton)
    assert QGuiApplication.clipboard().text() == created.pix_copia_e_cola


def test_cobv_with_fine_interest_rebate_discount_and_a_new_location_round_trips(
    qtbot, run, form, workspace, monkeypatch
) -> None:
    created_locations = _counting(monkeypatch, workspace.charges, "create_location")
    today = workspace.charges.today()
    due = today + timedelta(days=12)
    form.set_kind("cobv")
    assert form.pages.currentIndex() == 1
    _fill_common(qtbot, form, amount="1000,00", document=CNPJ, name="Empresa Exemplo Ltda")
    form.due_edit.setDate(_qdate(due))
    form.validity_spin.setValue(15)
    form.fine_mode.setCurrentIndex(form.fine_mode.findData(2))
    qtbot.keyClicks(form.fine_value, "2,00")
    form.interest_mode.setCurrentIndex(form.interest_mode.findData(3))
    qtbot.keyClicks(form.interest_value, "1,50")
    form.rebate_mode.setCurrentIndex(form.rebate_mode.findData(1))
    qtbot.keyClicks(form.rebate_value, "10,00")
    form.discount_mode.setCurrentIndex(form.discount_mode.findData(2))
    assert form.discount_dates.isVisibleTo(form) and not form.discount_value.isEnabled()
    (day0, value0), (day1, value1), _unused = form.discount_rows
    day0.setDate(_qdate(today + timedelta(days=3)))
    qtbot.keyClicks(value0, "5,00")
    day1.setDate(_qdate(today + timedelta(days=8)))
    qtbot.keyClicks(value1, "2,50")
    form.location_box.setChecked(True)
    form.new_location_radio.setChecked(True)

    created = run(form.submit(), timeout=WAIT_MS)
    assert created is not None, form.banner.detail.text()
    assert len(created_locations) == 1 and form.created_location is not None
    assert created.loc is not None and created.loc.id == form.created_location

    back = run(workspace.charges.get_cobv(created.txid))
    assert back.calendario.data_de_vencimento == due
    assert back.calendario.validade_apos_vencimento == 15
    assert back.devedor.cnpj == CNPJ and back.devedor.nome == "Empresa Exemplo Ltda"
    valor = back.valor
    assert valor.original == Decimal("1000.00")
    assert (valor.multa.modalidade, valor.multa.valor_perc) == (2, Decimal("2.00"))
    assert (valor.juros.modalidade, valor.juros.valor_perc) == (3, Decimal("1.50"))
    assert (valor.abatimento.modalidade, valor.abatimento.valor_perc) == (1, Decimal("10.00"))
    assert valor.desconto.modalidade == 2
    assert [(d.data, d.valor_perc) for d in valor.desconto.desconto_data_fixa] == [
        (today + timedelta(days=3), Decimal("5.00")),
        (today + timedelta(days=8), Decimal("2.50")),
    ]
    location = run(workspace.charges.get_location(form.created_location))
    assert location.txid == created.txid
    assert f"{due:%d/%m/%Y}" in form.qr_dialog.deadline_label.text()


def test_invalid_inputs_are_refused_here_all_at_once_and_nothing_is_sent(
    qtbot, run, form, workspace, monkeypatch
) -> None:
    qr = workspace.session.qrcodes
    sent = _counting(monkeypatch, qr, "put_cob") + _counting(monkeypatch, qr, "post_loc")
    sent_cobv = _counting(monkeypatch, qr, "put_cobv")
    qtbot.keyClicks(form.document_edit, "123.456.789-00")  # wrong check digits
    qtbot.keyClicks(form.name_edit, "Fulano")
    form.location_box.setChecked(True)  # "create a location" must wait for a valid form too

    assert run(form.submit()) is None
    assert sent == [] and form.created is None and form.isVisible()
    document_error = form.findChild(QWidget, "charge-document-error")
    assert document_error.isVisible() and "check digit" in document_error.text().lower()
    assert form.document_edit.property("invalid") is True
    amount_error = form.findChild(QWidget, "charge-amount-error")
    assert amount_error.isVisible() and amount_error.text()
    assert form.banner.isVisible() and "2 fields" in form.banner.detail.text()

    # Fixed: those marks go; a cobv discount after its due date is caught here as well.
    form.document_edit.setText(CPF)
    qtbot.keyClicks(form.amount_edit, "50,00")
    form.location_box.setChecked(False)
    form.set_kind("cobv")
    due = workspace.charges.today() + timedelta(days=5)
    form.due_edit.setDate(_qdate(due))
    form.discount_mode.setCurrentIndex(form.discount_mode.findData(1))
    form.discount_rows[0][0].setDate(_qdate(due + timedelta(days=1)))
    qtbot.keyClicks(form.discount_rows[0][1], "60,00")  # and more than the amount
    with pytest.raises(FormErrors) as refused:
        form.read_form()
    assert {field for field, _message in refused.value.problems} == {
        "valor.desconto.descontoDataFixa.0.data",
        "valor.desconto.descontoDataFixa.0.valorPerc",
    }
    assert run(form.submit()) is None and sent_cobv == []
    assert form.document_edit.property("invalid") is False
    assert form.discount_rows[0][0].property("invalid") is True


def test_the_banks_400_lands_on_its_field(qtbot, run, form, workspace, monkeypatch) -> None:
    sent = _counting(monkeypatch, workspace.session.qrcodes, "put_cob")
    qtbot.keyClicks(form.amount_edit, "10,00")
    form.location_box.setChecked(True)
    form.existing_location_radio.setChecked(True)
    qtbot.keyClicks(form.location_edit, "1999999999")  # no such location at the bank

    assert run(form.submit(), timeout=WAIT_MS) is None
    assert len(sent) == 1  # it did reach the bank, which refused it
    error = form.last_error
    assert isinstance(error, ApiError) and error.status == 400
    assert any(field_for(v.propriedade, {"loc.id": 1}) for v in error.violacoes)
    assert form.location_edit.property("invalid") is True
    label = form.findChild(QWidget, "charge-location-id-error")
    assert label.isVisible() and label.text()
    assert form.banner.isVisible() and form.created is None and form.qr_dialog is None
    assert form.submit_button.isEnabled() and form.form.isEnabled()


def test_save_png_and_svg_and_the_painted_symbol(qtbot, run, workspace, tmp_path) -> None:
    cob = run(workspace.charges.create_cob(amount=Decimal("9.90"), key=workspace.pix_keys[0]))
    dialog = ChargeQrDialog(cob)
    qtbot.addWidget(dialog)

    png = dialog.save_qr(tmp_path / "charge.PNG")
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert decode_qr_image(png) == cob.pix_copia_e_cola
    svg = dialog.save_qr(tmp_path / "charge.svg")
    root = ElementTree.parse(svg).getroot()
    assert root.tag.endswith("svg") and root.attrib.get("width")
    with pytest.raises(ValueError, match=r"\.png or \.svg"):
        dialog.save_qr(tmp_path / "charge.jpg")
    assert not (tmp_path / "charge.jpg").exists()

    # The file dialog's slot: where it was saved, or why not, in the dialog.
    assert dialog.save_selected(str(tmp_path / "again.svg")) == tmp_path / "again.svg"
    assert "again.svg" in dialog.status.text()
    assert dialog.save_selected(str(tmp_path / "missing-dir" / "x.png")) is None
    assert dialog.banner.isVisibleTo(dialog) and dialog.banner.title.text()
    file_dialog = dialog.ask_save_path("svg")
    assert file_dialog.defaultSuffix() == "svg" and "*.svg" in file_dialog.nameFilters()[0]
    file_dialog.reject()

    # Whole pixels per module and at least the standard quiet zone, at any size.
    modules = dialog.view.module_count()
    assert modules == len(dialog.qr.matrix)
    for side in (150, 333, 600):
        scale, offset = module_layout(side, modules)
        assert scale >= 1 and offset >= QUIET_ZONE * scale
        assert offset * 2 + modules * scale <= side
        image = dialog.view.image(side)
        path = tmp_path / f"view-{side}.png"
        assert image.save(str(path))
        assert decode_qr_image(path) == cob.pix_copia_e_cola


@pytest.mark.parametrize(
    ("slow", "new_location"),
    [({"method": "PUT", "path": "*/cob/*"}, False), ({"method": "POST", "path": "*/loc"}, True)],
    ids=["put-cob", "post-loc"],
)
def test_a_form_deleted_while_its_submit_is_in_flight_ends_quietly(
    qtbot, run, workspace, slow, new_location
) -> None:
    # The session locked mid-submit: the window and this form are deleted while the bank is
    # still answering; the coroutine must not touch the dead widgets afterwards.
    host = QWidget()
    qtbot.addWidget(host)
    dialog = ChargeFormDialog(workspace, host)
    dialog.show()
    qtbot.waitExposed(dialog)
    qtbot.keyClicks(dialog.amount_edit, "12,34")
    txid = _txid()
    qtbot.keyClicks(dialog.txid_edit, txid)
    if new_location:
        dialog.location_box.setChecked(True)
        dialog.new_location_radio.setChecked(True)
    http = workspace.session.accounts.transport.http
    rule = {**slow, "api": "qrcodes", "latency_ms": 800, "times": 1}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        qtbot.mouseClick(dialog.submit_button, Qt.MouseButton.LeftButton)
        task = dialog.submit_task
        assert task is not None
        qt_wait_until(
            qtbot, lambda: not dialog.submit_button.isEnabled(), "dialog.submit_button disabled"
        )  # the request is out
        dialog.deleteLater()
        qt_wait_until(qtbot, lambda: not shiboken6.isValid(dialog), "not shiboken6.isValid(dialog)")
        # the form's task stops; the request it made runs to its end (shielded)
        qt_wait_until(
            qtbot, lambda: task.done() and running_changes() == 0, "the request to finish"
        )
    finally:
        run(http.delete("/sandbox/faults"))
    assert task.cancelled()
    if not new_location:  # the charge itself was created; only the form is gone
        assert run(workspace.charges.get_cob(txid)).txid == txid
