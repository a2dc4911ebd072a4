"""The recurrences list and the recurrence detail against a sandbox bank of this module's own
(the cobr tests move the clock by days; these do not, but keep the shared UI sandbox out of
Pix Automático): recurrences made through the services, approved by the sandbox's payer,
listed and filtered, opened, approved from the detail's sandbox action, revised, their
confirmation request cancelled and the recurrence cancelled after a confirmation."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable, Iterator
from decimal import Decimal
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from tests.waiting import qt_wait_until
from treasury_app.api.qrcodes.automatico_models import Periodicidade
from treasury_app.services.charges import Debtor
from treasury_app.services.recurrences import PayerAccount, RecurrenceTerms
from treasury_app.services.sandbox_console import SandboxRefused
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.dialogs.recurrence_detail_dialog import RecurrenceDetailDialog
from treasury_app.ui.models.recurrences_model import Column
from treasury_app.ui.widgets.recurrences_list import RecurrencesList

CPF = "403.644.788-29"
CNPJ = "60.391.947/0001-00"
PAYER = PayerAccount(document=CPF, account="550689", ispb="91193552", branch="2569")


@pytest.fixture
def workspace(own_workspace: Any) -> Any:
    return own_workspace


def terms(today: dt.date, **changes: Any) -> RecurrenceTerms:
    values: dict[str, Any] = {
        "contract": "CT-UI-1",
        "debtor": Debtor(document=CPF, name="Fulano de Tal"),
        "first_date": today,
        "periodicity": Periodicidade.MENSAL,
        "fixed_amount": Decimal("50.00"),
        "end_date": today + dt.timedelta(days=400),
        "purpose": "Assinatura",
        **changes,
    }
    return RecurrenceTerms(**values)


def answer(qtbot: Any, owner: Any, task: asyncio.Task[Any], button: Any) -> Any:
    """Wait for ``owner``'s confirmation box, click ``button`` and wait for ``task``."""
    qt_wait_until(
        qtbot,
        lambda: owner.confirm_box is not None and owner.confirm_box.isVisible(),
        "owner.confirm_box shown",
    )
    owner.confirm_box.button(button).click()
    qt_wait_until(qtbot, task.done, "task done")
    owner.confirm_box = None
    return task.result()


@pytest.fixture
def rec_list(qtbot: Any, workspace: Any) -> Iterator[RecurrencesList]:
    widget = RecurrencesList(workspace)
    qtbot.addWidget(widget)
    widget.resize(1100, 600)
    widget.show()
    yield widget
    widget.shutdown()


def _text(widget: RecurrencesList, id_rec: str, column: Column) -> str:
    row = widget.proxy.row_of(id_rec)
    assert row is not None, f"{id_rec} is not shown"
    return str(widget.proxy.index(row, column).data())


def test_an_approved_recurrence_is_listed_and_the_filters_narrow_it(
    run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    service = workspace.recurrences
    approved = run(service.create_rec(terms(service.today(), contract="CT-UI-APPROVED")))
    run(workspace.sandbox.approve_rec(approved.id_rec))
    company = run(
        service.create_rec(
            terms(
                service.today(),
                contract="CT-UI-COMPANY",
                debtor=Debtor(document=CNPJ, name="Empresa Pagadora Ltda"),
                fixed_amount=None,
                minimum_amount=Decimal("10.00"),
                periodicity=Periodicidade.SEMANAL,
            )
        )
    )

    run(rec_list.reload())
    shown = rec_list.shown_ids()
    assert {approved.id_rec, company.id_rec} <= set(shown)
    assert _text(rec_list, approved.id_rec, Column.STATUS) == "Authorised"
    assert _text(rec_list, approved.id_rec, Column.AMOUNT) == "R$ 50,00"
    assert _text(rec_list, approved.id_rec, Column.JOURNEY) == "Journey 2: authorisation QR Code"
    assert "***.644.788-**" in _text(rec_list, approved.id_rec, Column.DEBTOR)
    assert _text(rec_list, approved.id_rec, Column.CONTRACT) == "Assinatura / CT-UI-APPROVED"
    assert _text(rec_list, company.id_rec, Column.STATUS) == "Waiting for the payer"
    assert _text(rec_list, company.id_rec, Column.AMOUNT) == "min. R$ 10,00"
    assert _text(rec_list, company.id_rec, Column.PERIODICITY) == "Weekly"

    # the bank's filters: status, then the debtor's CNPJ
    rec_list.status_combo.setCurrentIndex(rec_list.status_combo.findData("APROVADA"))
    run(rec_list.reload())
    assert approved.id_rec in rec_list.shown_ids()
    assert company.id_rec not in rec_list.shown_ids()
    rec_list.status_combo.setCurrentIndex(0)
    rec_list.document_edit.setText(CNPJ)
    run(rec_list.reload())
    assert rec_list.shown_ids() == [company.id_rec]
    rec_list.document_edit.setText("123")  # not a CPF/CNPJ: refused locally, list kept
    run(rec_list.reload())
    assert rec_list.banner.isVisible() and rec_list.shown_ids() == [company.id_rec]
    rec_list.document_edit.clear()
    rec_list.location_combo.setCurrentIndex(rec_list.location_combo.findData(True))
    run(rec_list.reload())
    assert approved.id_rec not in rec_list.shown_ids()  # created without a location
    rec_list.location_combo.setCurrentIndex(0)
    run(rec_list.reload())

    # the quick text filter narrows what was loaded
    rec_list.search_edit.setText("ct-ui-approved")
    assert rec_list.shown_ids() == [approved.id_rec]
    assert rec_list.select(approved.id_rec) and rec_list.details_button.isEnabled()


def test_detail_history_requests_sandbox_approval_and_revision(
    qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    service = workspace.recurrences
    journey = run(
        service.start_journey_1(
            terms(service.today(), contract="CT-UI-JOURNEY1"),
            payer=PAYER,
            expires_at=service.now() + dt.timedelta(days=2),
        )
    )
    id_rec = journey.rec.id_rec
    run(rec_list.reload())
    detail = run(rec_list.open_details(id_rec))
    assert rec_list.detail_dialog is detail and detail.isVisible()
    assert detail.terms["status"].text() == "Waiting for the payer"
    assert detail.terms["amount"].text() == "R$ 50,00"
    assert [
        detail.history.topLevelItem(i).text(1) for i in range(detail.history.topLevelItemCount())
    ] == ["Waiting for the payer"]
    request = detail.requests.topLevelItem(0)
    assert request.text(0) == journey.solicrec.id_solic_rec
    # A time, an id, a status are read whole (each column but the last fits its rows).
    first_update = detail.history.topLevelItem(0)
    for tree, item in ((detail.history, first_update), (detail.requests, request)):
        for column in range(tree.columnCount() - 1):
            needed = tree.fontMetrics().horizontalAdvance(item.text(column))
            assert tree.columnWidth(column) > needed, (tree.objectName(), column)
    assert detail.approve_button.isVisible() and detail.approve_button.isEnabled()
    assert not detail.new_cobr_button.isEnabled()  # not approved yet

    rec = run(detail.sandbox_decide("approve"))
    assert rec is not None and detail.terms["status"].text() == "Authorised"
    history = [
        detail.history.topLevelItem(i).text(1) for i in range(detail.history.topLevelItemCount())
    ]
    assert history == ["Waiting for the payer", "Authorised"]
    assert detail.requests.topLevelItem(0).text(1) == "Accepted by the payer"
    assert detail.terms["journey"].text() == "Journey 1: request to the payer's bank"
    assert not detail.approve_button.isEnabled() and detail.new_cobr_button.isEnabled()
    assert not detail.cancel_request_button.isEnabled()  # an accepted request stays
    assert _text(rec_list, id_rec, Column.STATUS) == "Authorised"  # the list row followed

    # revise the debtor's name (a revisable field besides the status)
    loop = asyncio.get_event_loop()
    task = loop.create_task(detail.revise())
    qt_wait_until(
        qtbot,
        lambda: detail.revise_dialog is not None and detail.revise_dialog.isVisible(),
        "detail.revise_dialog shown",
    )
    dialog = detail.revise_dialog
    dialog.name_edit.clear()
    qtbot.keyClicks(dialog.name_edit, "Fulano de Tal Junior")
    assert dialog.name_check.isChecked() and not dialog.date_check.isChecked()
    dialog.ok_button.click()
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is not None, detail.banner.detail.text()
    assert detail.terms["debtor"].text().startswith("Fulano de Tal Junior")
    assert run(service.get_rec(id_rec)).vinculo.devedor.nome == "Fulano de Tal Junior"
    detail.reject()


def test_cancel_a_pending_request_then_the_recurrence(
    qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    service = workspace.recurrences
    journey = run(
        service.start_journey_1(
            terms(service.today(), contract="CT-UI-CANCEL"),
            payer=PAYER,
            expires_at=service.now() + dt.timedelta(days=2),
        )
    )
    id_rec = journey.rec.id_rec
    run(rec_list.reload())
    detail = run(rec_list.open_details(id_rec))
    loop = asyncio.get_event_loop()

    assert detail.cancel_request_button.isEnabled()
    task = loop.create_task(detail.cancel_request())
    answer(qtbot, detail, task, QMessageBox.StandardButton.Yes)
    assert detail.requests.topLevelItem(0).text(1) == "Cancelled"
    assert not detail.cancel_request_button.isEnabled()

    # "No" sends nothing
    task = loop.create_task(detail.cancel_rec())
    assert answer(qtbot, detail, task, QMessageBox.StandardButton.No) is None
    assert run(service.get_rec(id_rec)).status == "CRIADA"

    task = loop.create_task(detail.cancel_rec())
    done = answer(qtbot, detail, task, QMessageBox.StandardButton.Yes)
    assert done is not None, detail.banner.detail.text()
    assert detail.terms["status"].text() == "Cancelled"
    assert detail.history.topLevelItem(detail.history.topLevelItemCount() - 1).text(1) == (
        "Cancelled"
    )
    assert not detail.cancel_rec_button.isEnabled() and not detail.revise_button.isEnabled()
    # A cancelled recurrence has nothing left for the payer to decide: the sandbox's buttons
    # are disabled, and stay so whatever else the window does.
    assert not detail.approve_button.isEnabled() and not detail.reject_button.isEnabled()
    run(detail.reload())
    assert not detail.approve_button.isEnabled() and not detail.reject_button.isEnabled()
    assert _text(rec_list, id_rec, Column.STATUS) == "Cancelled"
    assert isinstance(detail, RecurrenceDetailDialog)
    detail.reject()


def test_the_list_and_the_detail_deleted_during_a_reload_are_left_alone(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    service = workspace.recurrences
    rec = run(service.create_rec(terms(service.today(), contract="CT-UI-GONE")))
    http = workspace.session.qrcodes.transport.http
    rule = {"api": "qrcodes", "method": "GET", "path": "*/rec*", "latency_ms": 500}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        # closed meanwhile (a lock): the answers arrive for widgets that are gone
        widget = RecurrencesList(workspace)
        widget.show()
        detail = RecurrenceDetailDialog(workspace, rec.id_rec)
        detail.show()
        tasks = [spawn_for(widget, widget.reload()), spawn_for(detail, detail.reload())]
        qt_wait_until(
            qtbot,
            lambda: not widget.reload_button.isEnabled() and not detail.reload_button.isEnabled(),
            "not widget.reload_button.isEnabled() and not detail.reload_button.isEnabled()",
        )
        shiboken6.delete(widget)
        shiboken6.delete(detail)
        qt_wait_until(
            qtbot, lambda: all(task.done() for task in tasks), "all(task.done() for task in tasks)"
        )
    finally:
        run(http.delete("/sandbox/faults"))
    # stopped where they waited: neither touched its deleted widget
    assert [task.cancelled() for task in tasks] == [True, True]


def test_closing_the_detail_while_a_cancellation_is_sent_waits_for_it(
    qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    service = workspace.recurrences
    rec = run(service.create_rec(terms(service.today(), contract="CT-UI-CLOSE")))
    run(rec_list.reload())
    detail = run(rec_list.open_details(rec.id_rec))
    http = workspace.session.qrcodes.transport.http
    rule = {"api": "qrcodes", "method": "PATCH", "path": "*/rec/*", "latency_ms": 800}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        task = asyncio.get_event_loop().create_task(detail.cancel_rec())
        qt_wait_until(
            qtbot,
            lambda: detail.confirm_box is not None and detail.confirm_box.isVisible(),
            "detail.confirm_box shown",
        )
        detail.confirm_box.button(QMessageBox.StandardButton.Yes).click()
        qt_wait_until(
            qtbot,
            lambda: not detail.cancel_rec_button.isEnabled(),
            "detail.cancel_rec_button disabled",
        )
        detail.reject()  # Esc or the close button while the PATCH is on its way
        assert detail.isVisible() and not task.done()  # the change is not abandoned
        assert "Waiting for the bank" in detail.banner.title.text()
        qt_wait_until(qtbot, task.done, "task done")
    finally:
        run(http.delete("/sandbox/faults"))
    assert task.result() is not None and not task.cancelled()
    assert run(service.get_rec(rec.id_rec)).status == "CANCELADA"
    assert _text(rec_list, rec.id_rec, Column.STATUS) == "Cancelled"  # the list followed
    detail.reject()
    assert not detail.isVisible()


def test_a_recurrence_cancelled_meanwhile_disables_the_sandbox_buttons(
    qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    service = workspace.recurrences
    journey = run(
        service.start_journey_1(
            terms(service.today(), contract="CT-UI-STALE"),
            payer=PAYER,
            expires_at=service.now() + dt.timedelta(days=2),
        )
    )
    id_rec = journey.rec.id_rec
    run(rec_list.reload())
    detail = run(rec_list.open_details(id_rec))
    assert detail.approve_button.isEnabled() and detail.reject_button.isEnabled()
    run(service.cancel_rec(id_rec))  # elsewhere (another window, another desktop)
    assert run(detail.sandbox_decide("approve")) is None  # the sandbox refuses
    assert detail.banner.isVisible()
    assert detail.banner.detail.text() == (
        "The sandbox bank refused this simulation. "
        "The recurrence is no longer waiting for the payer (its status: Cancelled)."
    )
    assert "/sandbox/" not in detail.banner.detail.text()  # no API path for people
    assert detail.terms["status"].text() == "Cancelled"  # read again
    assert not detail.approve_button.isEnabled() and not detail.reject_button.isEnabled()
    assert not detail.cancel_rec_button.isEnabled()
    assert _text(rec_list, id_rec, Column.STATUS) == "Cancelled"  # the list row followed
    detail.reject()


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def test_why_a_recurrence_ended_is_said_in_portuguese_never_its_code(
    portuguese: None, qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: Any
) -> None:
    service = workspace.recurrences
    refused = run(service.create_rec(terms(service.today(), contract="CT-UI-REFUSED")))
    run(workspace.sandbox.decide_rec(refused.id_rec, approve=False))  # the payer: AP13
    cancelled = run(service.create_rec(terms(service.today(), contract="CT-UI-ENDED")))
    run(service.cancel_rec(cancelled.id_rec))  # by us: SLCR, asked by USUARIO_RECEBEDOR
    run(rec_list.reload())

    def tip(id_rec: str) -> str:
        row = rec_list.proxy.row_of(id_rec)
        assert row is not None
        return str(rec_list.proxy.index(row, Column.STATUS).data(Qt.ItemDataRole.ToolTipRole))

    assert tip(refused.id_rec) == "Recusada pelo pagador"
    assert tip(cancelled.id_rec) == "A pedido do recebedor (cancelada por nós)"

    detail = run(rec_list.open_details(refused.id_rec))
    closing = detail.terms["closing"]
    assert closing.text() == "Recusada pelo pagador"
    assert "AP13" not in closing.text() and "AP13" not in closing.toolTip()
    assert closing.toolTip().startswith("Descrição do banco: ")
    detail.reject()
    detail = run(rec_list.open_details(cancelled.id_rec))
    assert detail.terms["closing"].text() == "A pedido do recebedor (cancelada por nós)"
    assert "SLCR" not in detail.terms["closing"].text()
    detail.reject()


def test_a_cancel_from_the_detail_turns_off_every_action_it_ends_at_once(
    qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: RecurrencesList
) -> None:
    """Issue 33: "its sandbox buttons stay enabled once cancelled", with the cancel made in
    the recurrence's own window, its buttons clicked as a person would."""
    service = workspace.recurrences
    journey = run(
        service.start_journey_1(
            terms(service.today(), contract="CT-UI-OWN-CANCEL"),
            payer=PAYER,
            expires_at=service.now() + dt.timedelta(days=2),
        )
    )
    id_rec = journey.rec.id_rec
    run(rec_list.reload())
    detail = run(rec_list.open_details(id_rec))
    qtbot.addWidget(detail)
    ends = {
        "cancel": detail.cancel_rec_button,
        "revise": detail.revise_button,
        "cancel request": detail.cancel_request_button,
        "payer approves": detail.approve_button,
        "payer rejects": detail.reject_button,
    }
    assert all(button.isEnabled() for button in ends.values())
    http = workspace.session.qrcodes.transport.http
    rule = {"api": "qrcodes", "method": "PATCH", "path": "*/rec/*", "latency_ms": 600}
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        qtbot.mouseClick(detail.cancel_rec_button, Qt.MouseButton.LeftButton)
        qt_wait_until(
            qtbot,
            lambda: detail.confirm_box is not None and detail.confirm_box.isVisible(),
            "the confirmation",
        )
        detail.confirm_box.button(QMessageBox.StandardButton.Yes).click()
        qt_wait_until(qtbot, lambda: not detail.cancel_rec_button.isEnabled(), "cancel sent")
        # On its way: nothing the cancel ends can be started meanwhile.
        assert [name for name, button in ends.items() if button.isEnabled()] == []
        assert not detail.new_cobr_button.isEnabled()
        task = detail.task
        assert task is not None
        qt_wait_until(qtbot, task.done, "the cancel answered")
    finally:
        run(http.delete("/sandbox/faults"))
    assert task.result() is not None, detail.banner.detail.text()
    assert detail.terms["status"].text() == "Cancelled"
    assert [name for name, button in ends.items() if button.isEnabled()] == []
    assert detail.approve_button.isVisible() and detail.reject_button.isVisible()
    run(detail.reload())  # and so they stay
    assert [name for name, button in ends.items() if button.isEnabled()] == []
    assert detail.reload_button.isEnabled()
    detail.reject()


def test_the_sandbox_says_why_it_refused_with_a_code_the_detail_puts_in_portuguese(
    portuguese: None, qtbot: Any, run: Callable[..., Any], workspace: Any, rec_list: Any
) -> None:
    service = workspace.recurrences
    rec = run(service.create_rec(terms(service.today(), contract="CT-UI-PT-REFUSAL")))
    run(rec_list.reload())
    detail = run(rec_list.open_details(rec.id_rec))
    run(service.cancel_rec(rec.id_rec))  # elsewhere
    assert run(detail.sandbox_decide("reject")) is None
    assert detail.banner.detail.text() == (
        "O banco sandbox recusou esta simulação. "
        "A recorrência não espera mais o pagador (situação: Cancelada)."
    )
    detail.reject()

    # The control surface's refusals the buttons meet carry a code and its parameters.
    console = workspace.sandbox
    refusals = [
        (console.decide_rec(rec.id_rec, approve=True), "rec.not_pending", {"status": "CANCELADA"}),
        (console.decide_rec("RN" + "0" * 27, approve=True), "rec.not_found", {}),
        (console.fail_next_attempt("t" * 30), "cobr.not_found", {}),
        (console.pay_charge("c" * 30), "charge.not_found", {}),
        (console.decide_pix("E" + "0" * 31, approve=True), "payment.not_found", {}),
        (console.advance_clock(-60), "clock.invalid", {}),  # it only moves forward
    ]
    for call, code, params in refusals:
        with pytest.raises(SandboxRefused) as refused:
            run(call)
        assert (refused.value.code, refused.value.params) == (code, params)
