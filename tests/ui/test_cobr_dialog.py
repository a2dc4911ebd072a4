"""The recurring charge dialog against a sandbox bank of this module's own (settling attempts
moves the sandbox clock by days): a due date too close and a second charge in the same cycle
are refused before the bank is asked; a charge is reviewed, created, and its attempt settled
by the sandbox action (CONCLUIDA with an endToEndId); on a recurrence that allows retries the
next attempt fails (sandbox action) and a retry is scheduled through the dialog."""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
import shiboken6
from PySide6.QtCore import QDate, Qt
from PySide6.QtWidgets import QMessageBox

from tests.waiting import WAIT_MS, qt_wait_until
from treasury_app.api.qrcodes.automatico_models import Periodicidade, PoliticaRetentativa
from treasury_app.domain.errors import Reason
from treasury_app.services.charges import Debtor
from treasury_app.services.recurrences import ReceiverAccount, RecurrenceTerms, charging_cycle
from treasury_app.ui.async_tools import spawn_for
from treasury_app.ui.dialogs.cobr_dialog import CobrDialog
from treasury_app.ui.dialogs.recurrence_detail_dialog import RecurrenceDetailDialog
from treasury_app.ui.models.cobr_attempts_model import AttemptColumn
from treasury_app.ui.rule_words import rule_text

CPF = "403.644.788-29"
ACCOUNT = ReceiverAccount(account="1234567", branch="0001")


@pytest.fixture
def workspace(own_workspace: Any) -> Any:
    return own_workspace


def approved_rec(run: Callable[..., Any], workspace: Any, **changes: Any) -> Any:
    service = workspace.recurrences
    today = service.today()
    values: dict[str, Any] = {
        "contract": "CT-COBR",
        "debtor": Debtor(document=CPF, name="Fulano de Tal"),
        "first_date": today,
        "periodicity": Periodicidade.MENSAL,
        "fixed_amount": Decimal("50.00"),
        "end_date": today + dt.timedelta(days=400),
        **changes,
    }
    rec = run(service.create_rec(RecurrenceTerms(**values)))
    run(workspace.sandbox.approve_rec(rec.id_rec))
    return run(service.get_rec(rec.id_rec))


def requests_sent(workspace: Any) -> int:
    return workspace.session.qrcodes.transport.stats.requests


def open_new_charge(qtbot: Any, detail: RecurrenceDetailDialog) -> tuple[CobrDialog, Any]:
    detail.cobr_dialog = None
    task = asyncio.get_event_loop().create_task(detail.new_cobr())
    qt_wait_until(
        qtbot,
        lambda: detail.cobr_dialog is not None and detail.cobr_dialog.isVisible(),
        "detail.cobr_dialog shown",
    )
    assert detail.cobr_dialog is not None
    return detail.cobr_dialog, task


def set_date(edit: Any, day: dt.date) -> None:
    edit.setDate(QDate(day.year, day.month, day.day))


def attempts(dialog: CobrDialog) -> list[dict[AttemptColumn, str]]:
    model = dialog.attempts
    return [
        {column: str(model.index(row, column).data()) for column in AttemptColumn}
        for row in range(model.rowCount())
    ]


def test_refused_locally_then_reviewed_created_and_settled(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    service = workspace.recurrences
    rec = approved_rec(run, workspace)
    detail = RecurrenceDetailDialog(workspace, rec.id_rec)
    qtbot.addWidget(detail)
    detail.show()
    run(detail.reload())
    assert detail.new_cobr_button.isEnabled()

    dialog, task = open_new_charge(qtbot, detail)
    assert dialog.amount_edit.isReadOnly() and dialog.amount_edit.value() == Decimal("50.00")
    earliest = service.earliest_due_date()
    # a first charge: the account to credit comes from what the bank reports with the balance
    assert dialog.prefill_task is not None
    qt_wait_until(qtbot, dialog.prefill_task.done, "dialog.prefill_task done")
    assert dialog.prefill_task.result() is True
    assert (dialog.branch_edit.text(), dialog.account_edit.text()) == ("0001", "1234567")
    qtbot.keyClicks(dialog.info_edit, "Mensalidade de dezembro")

    # too close: refused here, nothing sent
    set_date(dialog.due_edit, earliest - dt.timedelta(days=1))
    before = requests_sent(workspace)
    assert run(dialog.review()) is False
    assert "too close" in dialog.banner.detail.text()
    assert f"{earliest:%d/%m/%Y}" in dialog.banner.detail.text()
    assert dialog.due_edit.property("invalid") is True
    assert dialog.pages.currentIndex() == CobrDialog.FORM
    assert requests_sent(workspace) == before

    # the review says who pays what, then the charge is created once
    set_date(dialog.due_edit, earliest)
    assert run(dialog.review()) is True
    assert dialog.pages.currentIndex() == CobrDialog.REVIEW
    assert dialog.review_labels["debtor"].text() == "Fulano de Tal"
    assert dialog.review_labels["document"].text() == "***.644.788-**"
    assert dialog.review_amount.text() == "R$ 50,00"
    assert requests_sent(workspace) == before
    cobr = run(dialog.create_charge())
    assert cobr is not None, dialog.banner.detail.text()
    assert dialog.pages.currentIndex() == CobrDialog.CHARGE
    assert not dialog.create_button.isEnabled()
    assert dialog.charge_labels["txid"].text() == cobr.txid
    assert "created" in dialog.status_line.text()
    assert dialog.settle_button.isVisible() and dialog.fail_button.isVisible()
    assert not dialog.retry_button.isVisible()  # NAO_PERMITE
    dialog.accept()
    qt_wait_until(qtbot, task.done, "task done")
    assert detail.cobrs_view.topLevelItem(0).text(0) == cobr.txid  # the detail reloaded

    # a second charge in the same cycle: refused here, nothing sent
    dialog, task = open_new_charge(qtbot, detail)
    assert dialog.account_edit.text() == "1234567"  # the last charge's account
    same_cycle = earliest + dt.timedelta(days=1)
    period = rec.calendario.periodicidade
    assert charging_cycle(period, same_cycle) == charging_cycle(period, earliest)
    set_date(dialog.due_edit, same_cycle)
    before = requests_sent(workspace)
    assert run(dialog.review()) is False
    assert "already has an active charge" in dialog.banner.detail.text()
    assert cobr.txid in dialog.banner.detail.text()
    assert requests_sent(workspace) == before
    dialog.reject()
    qt_wait_until(qtbot, task.done, "task done")

    # the sandbox settles the attempt: the clock moves to 10:00 in Brasília on its date
    detail.cobrs_view.setCurrentItem(detail.cobrs_view.topLevelItem(0))
    detail.cobr_dialog = None
    task = asyncio.get_event_loop().create_task(detail.open_cobr(detail.selected_cobr()))
    qt_wait_until(
        qtbot,
        lambda: detail.cobr_dialog is not None and detail.cobr_dialog.isVisible(),
        "detail.cobr_dialog shown",
    )
    dialog = detail.cobr_dialog
    assert dialog.settle_button.isEnabled()
    done = run(dialog.sandbox_settle(fail=False), timeout=WAIT_MS)
    assert done is not None, dialog.banner.detail.text()
    assert dialog.charge_labels["status"].text() == "Paid"
    [attempt] = attempts(dialog)
    assert attempt[AttemptColumn.TYPE] == "Scheduled debit"
    assert attempt[AttemptColumn.STATUS] == "Paid"
    assert attempt[AttemptColumn.END_TO_END_ID].startswith("E")
    assert attempt[AttemptColumn.END_TO_END_ID] == done.pix[0].end_to_end_id
    # the clock moved days ahead: the app's "today" follows the bank's again
    bank_now = run(workspace.session.accounts.transport.http.get("/sandbox/status")).json()["now"]
    assert workspace.recurrences.today().isoformat() == bank_now[:10]  # 10:01 Brasília
    assert not dialog.cancel_button.isEnabled() and not dialog.settle_button.isEnabled()
    dialog.accept()
    qt_wait_until(qtbot, task.done, "task done")
    assert detail.cobrs_view.topLevelItem(0).text(3) == "Paid"
    detail.reject()


def test_failed_attempt_then_a_retry_scheduled_in_the_dialog(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    service = workspace.recurrences
    rec = approved_rec(
        run,
        workspace,
        contract="CT-RETRY",
        fixed_amount=Decimal("30.00"),
        retry_policy=PoliticaRetentativa.PERMITE_3R_7D,
    )
    cobr = run(
        service.create_cobr(
            rec.id_rec, due_date=service.earliest_due_date(), amount="30.00", receiver=ACCOUNT
        )
    )
    dialog = CobrDialog(workspace, rec, [cobr], cobr)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.pages.currentIndex() == CobrDialog.CHARGE
    assert dialog.retry_button.isVisible()
    assert dialog.cancel_button.isEnabled()  # before the first attempt's date

    done = run(dialog.sandbox_settle(fail=True), timeout=WAIT_MS)
    assert done is not None, dialog.banner.detail.text()
    [failed] = attempts(dialog)
    assert failed[AttemptColumn.STATUS] == "Refused"
    # why, in words where the status is read (the sandbox refuses with AM04), never the code
    why = str(dialog.attempts.index(0, AttemptColumn.STATUS).data(Qt.ItemDataRole.ToolTipRole))
    assert why.startswith("Insufficient funds in the payer's account\nThe bank's description: ")
    assert "AM04" not in why
    assert dialog.charge_labels["status"].text() == "Scheduled"
    settled_on = done.tentativas[0].data_liquidacao

    # beyond due date + 7 days: refused here (no retry sent, nothing audited)
    late = service.latest_retry_date(done) + dt.timedelta(days=1)
    assert run(dialog.schedule_retry(late)) is None
    assert "within 7 days" in dialog.banner.detail.text()
    assert run(workspace.ledger.audit.entries(action="cobr.retry", reference=cobr.txid)) == []

    retry_day = settled_on + dt.timedelta(days=1)
    set_date(dialog.retry_date, retry_day)
    dialog.confirm_box = None
    task = asyncio.get_event_loop().create_task(dialog.schedule_retry())
    qt_wait_until(
        qtbot,
        lambda: dialog.confirm_box is not None and dialog.confirm_box.isVisible(),
        "dialog.confirm_box shown",
    )
    assert "R$ 30,00" in dialog.confirm_box.text()
    dialog.confirm_box.button(QMessageBox.StandardButton.Yes).click()
    qt_wait_until(qtbot, task.done, "task done")
    assert task.result() is not None, dialog.banner.detail.text()
    first, retry = attempts(dialog)
    assert first[AttemptColumn.STATUS] == "Refused"
    assert retry[AttemptColumn.TYPE] == "Retry"
    assert retry[AttemptColumn.STATUS] in ("Requested", "Scheduled")
    assert retry[AttemptColumn.SETTLEMENT_DATE] == f"{retry_day:%d/%m/%Y}"
    assert "Retry scheduled" in dialog.status_line.text()
    [audited] = run(workspace.ledger.audit.entries(action="cobr.retry", reference=cobr.txid))
    assert audited.details["data"] == retry_day.isoformat()
    dialog.accept()


def test_cancel_a_charge_before_its_first_attempt(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    service = workspace.recurrences
    rec = approved_rec(run, workspace, contract="CT-CANCEL-COBR")
    cobr = run(
        service.create_cobr(
            rec.id_rec, due_date=service.earliest_due_date(), amount="50.00", receiver=ACCOUNT
        )
    )
    dialog = CobrDialog(workspace, rec, [cobr], cobr)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.cancel_button.isEnabled()
    for button, status in (
        (QMessageBox.StandardButton.No, "CRIADA|ATIVA"),
        (QMessageBox.StandardButton.Yes, "CANCELADA"),
    ):
        dialog.confirm_box = None
        task = asyncio.get_event_loop().create_task(dialog.cancel_charge())
        qt_wait_until(
            qtbot,
            lambda: dialog.confirm_box is not None and dialog.confirm_box.isVisible(),
            "dialog.confirm_box shown",
        )
        dialog.confirm_box.button(button).click()
        qt_wait_until(qtbot, task.done, "task done")
        assert str(run(service.get_cobr(cobr.txid)).status) in status.split("|")
    # why it ended, in words (SLCR asked by USUARIO_RECEBEDOR)
    assert dialog.charge_labels["status"].text() == (
        "Cancelled — At the receiver's request (cancelled by us)"
    )
    assert not dialog.cancel_button.isEnabled() and not dialog.settle_button.isEnabled()
    dialog.accept()


class Faults:
    """Faults of this module's sandbox (its QR Codes API), cleared on the way out."""

    def __init__(self, run: Callable[..., Any], workspace: Any, *rules: dict[str, Any]) -> None:
        self.run, self.http, self.rules = run, workspace.session.qrcodes.transport.http, rules

    def __enter__(self) -> None:
        for rule in self.rules:
            answer = self.run(self.http.post("/sandbox/faults", json={"api": "qrcodes", **rule}))
            assert answer.status_code in (200, 201), answer.text

    def __exit__(self, *exc: object) -> None:
        self.run(self.http.delete("/sandbox/faults"))


def reviewed_new_charge(
    qtbot: Any, run: Callable[..., Any], workspace: Any, contract: str
) -> CobrDialog:
    rec = approved_rec(run, workspace, contract=contract)
    dialog = CobrDialog(workspace, rec)
    qtbot.addWidget(dialog)
    dialog.show()
    branch, account = dialog.branch_edit, dialog.account_edit
    branch.setText(ACCOUNT.branch or "")
    account.setText(ACCOUNT.account)
    set_date(dialog.due_edit, workspace.recurrences.earliest_due_date())
    assert run(dialog.review()) is True, dialog.banner.detail.text()
    return dialog


def bank_cobrs(run: Callable[..., Any], workspace: Any, id_rec: str) -> list[Any]:
    service = workspace.recurrences

    async def listed() -> list[Any]:
        today = service.today()
        return [
            c
            async for c in service.iter_cobrs(
                start=today - dt.timedelta(days=2), end=today + dt.timedelta(days=2), id_rec=id_rec
            )
        ]

    return run(listed())


def test_closing_during_a_create_waits_for_it_and_the_detail_reloads(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    rec = approved_rec(run, workspace, contract="CT-CLOSE-COBR")
    detail = RecurrenceDetailDialog(workspace, rec.id_rec)
    qtbot.addWidget(detail)
    detail.show()
    run(detail.reload())
    dialog, task = open_new_charge(qtbot, detail)
    assert dialog.prefill_task is not None
    qt_wait_until(qtbot, dialog.prefill_task.done, "dialog.prefill_task done")
    set_date(dialog.due_edit, workspace.recurrences.earliest_due_date())
    assert run(dialog.review()) is True, dialog.banner.detail.text()
    with Faults(run, workspace, {"method": "PUT", "path": "*/cobr/*", "latency_ms": 700}):
        dialog.create_button.click()
        create = dialog.task
        assert create is not None
        qt_wait_until(
            qtbot, lambda: not dialog.create_button.isEnabled(), "dialog.create_button disabled"
        )
        dialog.reject()  # Close, Esc or the window's X while the PUT is on its way
        assert dialog.isVisible() and not create.done()
        assert "Waiting for the bank" in dialog.banner.title.text()
        qt_wait_until(qtbot, create.done, "create done")
    assert not create.cancelled()
    cobr = create.result()
    assert cobr is not None, dialog.banner.detail.text()
    assert cobr.txid == dialog.txid and dialog.changed
    assert not dialog.banner.isVisible()
    dialog.reject()
    qt_wait_until(qtbot, task.done, "task done")
    assert task.exception() is None
    assert detail.cobrs_view.topLevelItem(0).text(0) == cobr.txid  # the detail reloaded
    detail.reject()


def test_the_detail_closed_during_a_create_waits_for_it(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    rec = approved_rec(run, workspace, contract="CT-DETAIL-GONE")
    detail = RecurrenceDetailDialog(workspace, rec.id_rec)
    qtbot.addWidget(detail)
    detail.show()
    run(detail.reload())
    dialog, task = open_new_charge(qtbot, detail)
    detail.task = task  # as the "New charge" button starts it
    dialog.account_edit.setText(ACCOUNT.account)
    set_date(dialog.due_edit, workspace.recurrences.earliest_due_date())
    assert run(dialog.review()) is True, dialog.banner.detail.text()
    with Faults(run, workspace, {"method": "PUT", "path": "*/cobr/*", "latency_ms": 700}):
        dialog.create_button.click()
        create = dialog.task
        assert create is not None
        qt_wait_until(
            qtbot, lambda: not dialog.create_button.isEnabled(), "dialog.create_button disabled"
        )
        detail.reject()  # cancels the detail's task waiting for the dialog
        qt_wait_until(qtbot, task.done, "task done")
        # the detail's task ended only after the create: the dialog was not deleted under it
        assert create.done()
    assert not create.cancelled()
    assert create.exception() is None and create.result() is not None
    assert [c.txid for c in bank_cobrs(run, workspace, rec.id_rec)] == [create.result().txid]
    qt_wait_until(
        qtbot, lambda: not shiboken6.isValid(dialog), "not shiboken6.isValid(dialog)"
    )  # deleted once its task ended


def test_a_dialog_deleted_during_a_refresh_is_left_alone(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    service = workspace.recurrences
    rec = approved_rec(run, workspace, contract="CT-REFRESH-GONE")
    cobr = run(
        service.create_cobr(
            rec.id_rec, due_date=service.earliest_due_date(), amount="50.00", receiver=ACCOUNT
        )
    )
    dialog = CobrDialog(workspace, rec, [cobr], cobr)
    dialog.show()
    with Faults(run, workspace, {"method": "GET", "path": "*/cobr/*", "latency_ms": 500}):
        task = spawn_for(dialog, dialog.refresh())  # the dialog's task, as its buttons start
        qt_wait_until(
            qtbot, lambda: not dialog.refresh_button.isEnabled(), "dialog.refresh_button disabled"
        )
        shiboken6.delete(dialog)  # its window went away (a lock) while the GET was out
        qt_wait_until(qtbot, task.done, "task done")
    assert task.cancelled()  # stopped where it waited: it never touched the deleted dialog


def test_a_lost_answer_makes_one_charge_with_the_chosen_txid(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    dialog = reviewed_new_charge(qtbot, run, workspace, "CT-LOST-COBR")
    txid = dialog.txid
    assert txid is not None and 26 <= len(txid) <= 35 and txid.isalnum()
    assert run(dialog.review()) is True and dialog.txid == txid  # chosen once
    # the bank commits the PUT and the answer is lost; the transport sends it again
    with Faults(
        run, workspace, {"method": "PUT", "path": "*/cobr/*", "drop_after_commit": 1, "times": 1}
    ):
        cobr = run(dialog.create_charge(), timeout=WAIT_MS)
    assert cobr is not None, dialog.banner.detail.text()
    assert cobr.txid == txid and dialog.charge_labels["txid"].text() == txid
    assert [c.txid for c in bank_cobrs(run, workspace, dialog.rec.id_rec)] == [txid]
    [audited] = run(workspace.ledger.audit.entries(action="cobr.create", reference=txid))
    assert audited is not None
    dialog.accept()


def test_outcome_unknown_then_create_again_asks_the_bank_first(
    qtbot: Any, run: Callable[..., Any], workspace: Any
) -> None:
    dialog = reviewed_new_charge(qtbot, run, workspace, "CT-UNKNOWN-COBR")
    txid = dialog.txid
    # every attempt of the PUT and of the check that follows loses its answer
    with Faults(
        run,
        workspace,
        {"method": "PUT", "path": "*/cobr/*", "drop_after_commit": 1, "times": 8},
        {"method": "GET", "path": "*/cobr/*", "drop_after_commit": 1, "times": 8},
    ):
        assert run(dialog.create_charge(), timeout=WAIT_MS) is None
    assert dialog.outcome_unknown and dialog.cobr is None
    assert dialog.banner.title.text() == "No answer from the bank"
    assert txid in dialog.banner.detail.text()
    assert dialog.create_button.isEnabled()  # the retry is offered: it asks first

    before = requests_sent(workspace)
    cobr = run(dialog.create_charge())
    assert cobr is not None, dialog.banner.detail.text()
    assert cobr.txid == txid and dialog.pages.currentIndex() == CobrDialog.CHARGE
    assert requests_sent(workspace) == before + 1  # GET /cobr/{txid} found it: no PUT again
    assert [c.txid for c in bank_cobrs(run, workspace, dialog.rec.id_rec)] == [txid]
    dialog.accept()


def test_cancel_and_retry_are_the_services_rules_not_the_dialogs(
    qtbot: Any, run: Callable[..., Any], workspace: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a charge may be cancelled or retried is asked of the recurrences service
    (issue 33): its reason reaches the dialog, and without its rule the dialog keeps none."""
    service = workspace.recurrences
    rec = approved_rec(run, workspace, contract="CT-RULES-COBR")
    cobr = run(
        service.create_cobr(
            rec.id_rec, due_date=service.earliest_due_date(), amount="50.00", receiver=ACCOUNT
        )
    )
    dialog = CobrDialog(workspace, rec, [cobr], cobr)
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.cancel_button.isEnabled()  # open, before its first attempt
    assert not dialog.retry_button.isVisible()  # NAO_PERMITE: the service's reason is shown
    assert dialog.retry_note.text() == rule_text(Reason("cobr.retries_not_allowed"))

    too_late = Reason("cobr.cancel_after_first_attempt", {"first": dt.date(2026, 1, 5)})
    monkeypatch.setattr(service, "cancel_blocker", lambda _cobr: too_late)
    monkeypatch.setattr(service, "retry_blocker", lambda _cobr: None)
    dialog._update_actions()
    assert not dialog.cancel_button.isEnabled()
    assert dialog.retry_button.isVisible() and dialog.retry_button.isEnabled()
    dialog.reject()
