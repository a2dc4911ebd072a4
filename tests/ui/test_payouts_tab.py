"""The Pix tab against the app's own sandbox bank, driven as a person would: fill a form,
Review, type the amount again, Send Pix (twice: one payment), read the status line."""

from __future__ import annotations

from decimal import Decimal

import pytest
from PySide6.QtCore import Qt

from tests.waiting import qt_wait_until
from treasury_app.domain import brcode
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import EntryKind
from treasury_app.ui.tabs.payouts_tab import PayoutsTab

SUPPLIER = "fornecedor.pix@empresa.com.br"


@pytest.fixture
def tab_and_workspace(qtbot, open_workspace):
    workspace = open_workspace()
    tab = PayoutsTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1000, 800)
    tab.show()
    qtbot.waitExposed(tab)
    yield tab, workspace
    tab.shutdown()
    if tab.review_task is not None:
        qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")


def _entries(run, workspace, kind):
    return run(workspace.ledger.journal.recent(kinds=[kind], limit=5000))


def _wait_for_review(qtbot, tab: PayoutsTab):
    assert tab.review_task is not None
    qt_wait_until(
        qtbot,
        lambda: (
            (tab.review_dialog is not None and tab.review_dialog.isVisible())
            or tab.review_task.done()
        ),
        "(tab.review_dialog is not None and tab.review_dialog.isVisible()) or ...",
    )
    assert tab.review_dialog is not None, tab.banner.detail.text()
    return tab.review_dialog


def _confirm_and_send(qtbot, tab: PayoutsTab, amount: Decimal):
    dialog = tab.review_dialog
    qtbot.keyClicks(dialog.confirm_edit, format_brl(amount))
    assert dialog.send_button.isEnabled()
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.send_button, Qt.MouseButton.LeftButton)  # the double click
    qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")
    entry = tab.review_task.result()
    assert entry is not None, tab.banner.detail.text()
    return entry


def _review_key(qtbot, tab: PayoutsTab, key: str, amount: str):
    tab.forms.setCurrentIndex(0)
    tab.key_edit.clear()
    qtbot.keyClicks(tab.key_edit.line_edit, key)
    tab.key_amount.clear()
    qtbot.keyClicks(tab.key_amount, amount)
    qtbot.mouseClick(tab.key_review_button, Qt.MouseButton.LeftButton)
    return _wait_for_review(qtbot, tab)


def test_pay_by_key_once_for_two_clicks(qtbot, run, tab_and_workspace, monkeypatch) -> None:
    tab, workspace = tab_and_workspace
    amount = Decimal("37.41")
    before = run(workspace.statement.balance()).available
    ids_before = {e.id for e in _entries(run, workspace, EntryKind.PIX_KEY)}
    sends = []
    original_send = workspace.payouts.send

    async def counting_send(review, **kwargs):
        sends.append(review)
        return await original_send(review, **kwargs)

    monkeypatch.setattr(workspace.payouts, "send", counting_send)

    dialog = _review_key(qtbot, tab, "  Fornecedor.PIX@Empresa.com.br ", "37,41")
    assert dialog.fields["key"].text() == f"{SUPPLIER} (E-mail)"
    assert "bank" in dialog.fields["payee"].text()
    assert dialog.amount.text() == format_brl(amount)
    assert dialog.fields["flow"].text() == "Instant"
    assert not dialog.send_button.isEnabled()

    qtbot.keyClicks(dialog.confirm_edit, "37,14")
    assert not dialog.send_button.isEnabled()
    assert "not the amount" in dialog.confirm_hint.text()
    dialog.confirm_edit.clear()
    entry = _confirm_and_send(qtbot, tab, amount)

    assert len(sends) == 1
    new = [e for e in _entries(run, workspace, EntryKind.PIX_KEY) if e.id not in ids_before]
    assert [e.id for e in new] == [entry.id]
    assert entry.payee_detail == SUPPLIER and entry.amount == amount
    assert run(workspace.statement.balance()).available == before - amount
    assert tab.payment_status.text().startswith("Sent: Queued")
    assert tab.key_amount.text() == ""


def test_pay_a_pasted_qr_code(qtbot, run, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    payload = brcode.build(
        merchant_name="Padaria Pao Quente",
        merchant_city="Sao Paulo",
        key=SUPPLIER,
        amount=Decimal("58.70"),
        txid="PEDIDO4711",
    )
    tab.forms.setCurrentIndex(1)
    tab.qr_payload.insertPlainText(payload)  # what Ctrl+V does

    preview = tab.qr_preview.text()
    assert "Padaria Pao Quente" in preview and "Sao Paulo" in preview
    assert format_brl(Decimal("58.70")) in preview and "PEDIDO4711" in preview
    assert not tab.qr_amount.isEnabled() and tab.qr_amount.value() == Decimal("58.70")
    assert tab.qr_review_button.isEnabled()

    qtbot.mouseClick(tab.qr_review_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["payee"].text() == "Padaria Pao Quente"
    assert dialog.fields["txid"].text() == "PEDIDO4711"
    entry = _confirm_and_send(qtbot, tab, Decimal("58.70"))
    assert entry.kind == EntryKind.PIX_QRC and entry.amount == Decimal("58.70")
    assert tab.qr_payload.toPlainText() == ""

    # A code without an amount asks for one.
    tab.qr_payload.insertPlainText(
        brcode.build(merchant_name="Feira Livre", merchant_city="Recife", key=SUPPLIER)
    )
    assert tab.qr_amount.isEnabled() and tab.qr_amount.text() == ""
    assert "No amount" in tab.qr_preview.text()


def test_pay_by_bank_data(qtbot, run, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    tab.forms.setCurrentIndex(2)
    for edit, text in (
        (tab.bank_ispb, "00000000"),
        (tab.bank_branch, "0001"),
        (tab.bank_account, "123456"),
        (tab.bank_document, "52998224725"),
        (tab.bank_name, "Maria da Silva"),
        (tab.bank_amount, "91,05"),
    ):
        qtbot.keyClicks(edit, text)
    assert tab.bank_account_type.currentData() == "CACC"
    qtbot.mouseClick(tab.bank_review_button, Qt.MouseButton.LeftButton)
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["payee"].text() == "Maria da Silva"
    assert dialog.fields["document"].text() == "***.982.247-**"
    assert (
        "123456" in dialog.fields["bank"].text()
        and "(Checking account)" in dialog.fields["bank"].text()
    )
    entry = _confirm_and_send(qtbot, tab, Decimal("91.05"))
    assert entry.kind == EntryKind.PIX_MANU and entry.payee_document == "52998224725"


def test_bank_data_errors_mark_their_field(qtbot, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    tab.forms.setCurrentIndex(2)
    qtbot.keyClicks(tab.bank_ispb, "123")
    qtbot.mouseClick(tab.bank_review_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")
    assert tab.review_task.result() is None and tab.review_dialog is None
    assert tab.banner.isVisible() and "ISPB" in tab.banner.detail.text()
    assert tab.bank_ispb.property("invalid") is True


def test_an_invalid_key_is_explained_and_never_reviewed(qtbot, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    stats = workspace.session.transports["accounts"].stats
    requests = stats.requests
    qtbot.keyClicks(tab.key_edit.line_edit, "fornecedor@")
    qtbot.keyClicks(tab.key_amount, "10,00")
    assert tab.key_edit.error() and tab.key_edit.type_label.text()
    assert not tab.key_review_button.isEnabled()
    qtbot.mouseClick(tab.key_review_button, Qt.MouseButton.LeftButton)
    tab._key_clicked()  # even when the click gets through
    assert tab.review_task is None and tab.review_dialog is None
    assert stats.requests == requests


def test_a_code_with_a_bad_crc_cannot_be_reviewed(qtbot, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    payload = brcode.build(
        merchant_name="Loja Azul", merchant_city="Curitiba", key=SUPPLIER, amount=Decimal("5")
    )
    altered = payload.replace("Loja Azul", "Loja Azuk")
    tab.forms.setCurrentIndex(1)
    tab.qr_payload.insertPlainText(altered)
    assert "CRC" in tab.qr_preview.text() and tab.qr_preview.text().startswith("Invalid")
    assert not tab.qr_review_button.isEnabled() and not tab.qr_amount.isEnabled()
    tab._qrc_clicked()
    assert tab.review_task is None


def test_the_second_review_of_the_same_payment_warns_of_a_duplicate(
    qtbot, tab_and_workspace
) -> None:
    tab, _workspace = tab_and_workspace
    key = "duplicado.pix@empresa.com.br"
    dialog = _review_key(qtbot, tab, key, "23,45")
    assert not dialog.duplicate_warning.isVisible()
    _confirm_and_send(qtbot, tab, Decimal("23.45"))

    dialog = _review_key(qtbot, tab, key, "23,45")
    assert dialog.duplicate_warning.isVisible()
    assert "duplicate" in dialog.duplicate_warning.text()
    assert "last 24 hours" in dialog.duplicate_warning.text()
    dialog.reject()
    qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")
    assert tab.review_task.result() is None


def test_payments_list_and_batch_button_follow_what_is_installed(qtbot, tab_and_workspace) -> None:
    tab, _workspace = tab_and_workspace
    try:
        from treasury_app.ui.widgets.payments_list import PaymentsList
    except ImportError:
        assert tab.payments_list.objectName() == "payments-list-placeholder"
    else:
        assert isinstance(tab.payments_list, PaymentsList)
    tab.refresh()  # delegated to the list, or nothing

    try:
        from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog
    except ImportError:
        assert not tab.batch_button.isEnabled()
        return
    assert tab.batch_button.isEnabled()
    qtbot.mouseClick(tab.batch_button, Qt.MouseButton.LeftButton)
    assert isinstance(tab.batch_dialog, PayoutBatchDialog)
    qt_wait_until(qtbot, tab.batch_dialog.isVisible, "tab.batch_dialog shown")
    tab.batch_dialog.reject()
    assert tab.batch_dialog is None


def test_enter_reviews_focus_starts_in_the_form_and_a_sent_form_is_cleared(
    qtbot, run, tab_and_workspace
) -> None:
    tab, _workspace = tab_and_workspace
    tab.forms.setCurrentIndex(0)
    tab.focus_first_field()
    assert tab.first_field() is tab.key_edit.line_edit
    qt_wait_until(
        qtbot, lambda: tab.key_edit.line_edit.hasFocus(), "tab.key_edit.line_edit focused"
    )
    qtbot.keyClicks(tab.key_edit.line_edit, "teclado@empresa.com.br")
    qtbot.keyClicks(tab.key_amount, "3,21")
    qtbot.keyClicks(tab.key_description, "Enviado pelo teclado")
    qtbot.keyClick(tab.key_amount, Qt.Key.Key_Return)  # Enter: the review, never a send
    dialog = _wait_for_review(qtbot, tab)
    assert dialog.fields["key"].text().startswith("teclado@empresa.com.br")
    # The review opens in the amount to type again (never on Send, never on Cancel).
    qt_wait_until(
        qtbot,
        lambda: dialog.focusWidget() is dialog.confirm_edit,
        "dialog.focusWidget() is dialog.confirm_edit",
    )
    entry = _confirm_and_send(qtbot, tab, Decimal("3.21"))
    assert entry.amount == Decimal("3.21")
    for field in (tab.key_edit.line_edit, tab.key_amount, tab.key_description, tab.key_document):
        assert field.text() == ""
    # The window's focus widget (hasFocus() also needs the window active, which an offscreen
    # test cannot promise once a dialog has come and gone).
    qt_wait_until(
        qtbot,
        lambda: tab.window().focusWidget() is tab.key_edit.line_edit,
        "tab.window().focusWidget() is tab.key_edit.line_edit",
    )
    tab.forms.setCurrentIndex(2)
    qt_wait_until(
        qtbot,
        lambda: tab.window().focusWidget() is tab.bank_ispb,
        "tab.window().focusWidget() is tab.bank_ispb",
    )


def _charge_code(run, workspace, amount: str) -> str:
    from treasury_app.api.qrcodes.cashin_models import CalendarioCob, CobSolicitada, CobValor

    cob = run(
        workspace.session.qrcodes.create_cob(
            CobSolicitada(
                calendario=CalendarioCob(expiracao=3600),
                valor=CobValor(original=Decimal(amount)),
                chave=workspace.pix_keys[0],
            )
        )
    )
    assert cob.pix_copia_e_cola is not None
    return cob.pix_copia_e_cola


def _review_code(qtbot, tab: PayoutsTab, payload: str, amount: str) -> None:
    tab.forms.setCurrentIndex(1)
    tab.qr_payload.insertPlainText(payload)
    qtbot.keyClicks(tab.qr_amount, amount)
    qtbot.mouseClick(tab.qr_review_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: tab.review_task.done() or tab.review_dialog is not None,
        "a review or the task done",
    )


def test_a_dynamic_code_refuses_an_amount_its_charge_does_not_allow(
    qtbot, run, tab_and_workspace
) -> None:
    tab, workspace = tab_and_workspace
    payload = _charge_code(run, workspace, "150.00")
    before = {e.id for e in _entries(run, workspace, EntryKind.PIX_QRC)}
    _review_code(qtbot, tab, payload, "15,00")
    assert tab.review_task.result() is None and tab.review_dialog is None  # never reviewed
    assert tab.banner.isVisible() and "R$ 150,00" in tab.banner.detail.text()
    assert tab.qr_amount.property("invalid") is True
    # The form keeps what was typed, and nothing was journaled or sent.
    assert tab.qr_payload.toPlainText() == payload and tab.qr_amount.text() == "15,00"
    assert {e.id for e in _entries(run, workspace, EntryKind.PIX_QRC)} == before


def test_a_bank_refusal_keeps_the_form_and_shows_no_raw_text(qtbot, run, tab_and_workspace) -> None:
    tab, workspace = tab_and_workspace
    payload = _charge_code(run, workspace, "150.00")
    workspace.payouts.read_charge = None  # the charge could not be read: the bank checks it
    _review_code(qtbot, tab, payload, "15,00")
    entry = _confirm_and_send(qtbot, tab, Decimal("15.00"))
    assert entry.error and "/api/v2/" in entry.error  # the journal keeps the whole message
    status = tab.payment_status.text()
    assert status.startswith("Refused") and "The bank refused it: " in status
    assert "/api/" not in status and "422" not in status and "POST" not in status
    assert tab.qr_payload.toPlainText() == payload and tab.qr_amount.text() == "15,00"


def test_a_pix_the_bank_fails_later_says_why_in_words(qtbot, run, tab_and_workspace) -> None:
    from treasury_app.api.accounts.models import PaymentFlow

    tab, workspace = tab_and_workspace
    review = run(
        workspace.payouts.prepare_key(SUPPLIER, "12,34", flow=PaymentFlow.APPROVAL_REQUIRED)
    )
    entry = run(tab.send(review))
    assert entry is not None and entry.bank_status == "WAITING_APPROVAL", entry.error
    http = workspace.session.accounts.transport.http
    run(http.post(f"/sandbox/pix/{entry.end_to_end_id}/reject")).raise_for_status()
    run(workspace.tracker.poll_once())
    failed = run(workspace.ledger.journal.get(entry.id))
    assert failed.bank_status == "CANCELED" and failed.error == "REJECTED_BY_APPROVER"
    qt_wait_until(
        qtbot, lambda: tab.payment_status.text().startswith("Refused"), "the line follows it"
    )
    assert tab.payment_status.text().endswith(
        "The bank did not carry it out: rejected in the bank's console."
    )
