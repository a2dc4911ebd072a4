"""Dual control in the UI (issue 23): the Approvals tab, the approval dialog and the batch
approval dialog, end to end against the app's sandbox bank and a real PostgreSQL team database
(two desktops, two people, one ledger), and the lists' own behaviour with a stand-in desk
(10,000 rows open fast, a burst of changes is one reload).

The maker prepares in window A ("Submit for approval"), the approver approves in window B and
the sandbox holds exactly one payment; approving one's own payment is refused and the dialog
says why; a batch is approved as one decision and the row rejected in it is never sent."""

from __future__ import annotations

import asyncio
import datetime as dt
import secrets
from collections.abc import Callable, Iterator
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit

from tests.ledger_backends import TeamDatabases
from tests.services.test_session_team import desk_paths, team_profile
from tests.ui.conftest import reset_token_limits
from tests.waiting import WAIT_MS, qt_wait_until
from treasury_app.api.errors import ApiFailure
from treasury_app.app import install_translator
from treasury_app.domain.money import format_brl
from treasury_app.ledger.journal import Entry, EntryKind, EntryState
from treasury_app.ledger.team.approvals import Policy
from treasury_app.ledger.team.schema import APPROVER, MAKER
from treasury_app.services.approvals import ApprovalDetail, NobodyReason
from treasury_app.services.session import Session
from treasury_app.services.workspace import Workspace, open_workspace
from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog, flatten_request
from treasury_app.ui.dialogs.batch_approval_dialog import BatchApprovalDialog, BatchColumn
from treasury_app.ui.main_window import MainWindow
from treasury_app.ui.models.approvals_model import ApprovalsModel, Column
from treasury_app.ui.models.paid_slips_model import Column as BilletColumn
from treasury_app.ui.models.payments_model import Column as PaymentsColumn
from treasury_app.ui.models.payments_model import PaymentsModel
from treasury_app.ui.tabs.approvals_tab import ApprovalsTab, DualControlPage
from treasury_app.ui.tabs.billets_tab import BilletsTab
from treasury_app.ui.tabs.payouts_tab import PayoutsTab
from treasury_app.ui.widgets.money_edit import MoneyEdit

NOW = dt.datetime(2026, 11, 18, 13, 0, tzinfo=dt.UTC)


# --------------------------------------------------------------------------------------------
# Two desktops on one team database


NO_NEW_PAYEE_EXTRA: dict[str, Any] = {"new_payee_extra": 0}
"""Dual control, but the sandbox's keys (new to every fresh database) need no extra approval."""


class TeamDesks:
    """Workspaces of people on one fresh team database, each its own desktop (data folder,
    audit anchor), all on the UI tests' sandbox bank."""

    window_size: tuple[int, int] | None = (1366, 698)

    def __init__(
        self,
        run: Callable[..., Any],
        databases: TeamDatabases,
        tmp_path: Path,
        ui: Any,
        *,
        policy: dict[str, Any] | None = NO_NEW_PAYEE_EXTRA,
    ) -> None:
        self.run = run
        self.databases = databases
        self.tmp_path = tmp_path
        self.ui = ui
        self.tag = secrets.token_hex(3)
        self.database = databases.new_database(policy=policy)
        self.opened: list[Workspace] = []
        self.windows: list[MainWindow] = []

    def login(self, name: str) -> str:
        return f"ui_{name}_{self.tag}"

    def open(self, name: str, *roles: str) -> Workspace:
        handle, (base, pfx) = self.ui
        login = self.databases.person(self.login(name), *roles)
        reset_token_limits(handle.ready_file)
        profile = team_profile(base, self.databases, self.database, login, "none")
        session = self.run(
            Session.open(
                profile,
                pfx_passwords=pfx.pfx_passwords,
                client_secrets=pfx.client_secrets,
                paths=desk_paths(self.tmp_path / name),
            ),
            timeout=WAIT_MS,
        )
        workspace = self.run(open_workspace(session))
        self.opened.append(workspace)
        return workspace

    def window(self, qtbot: Any, workspace: Workspace) -> MainWindow:
        window = MainWindow(workspace)
        qtbot.addWidget(window)
        if self.window_size is not None:
            window.resize(*self.window_size)
        window.show()
        qtbot.waitExposed(window)
        self.windows.append(window)
        return window

    def close(self) -> None:
        for window in self.windows:
            window.set_workspace(None)  # tabs unsubscribe before the sessions close
        for workspace in self.opened:
            self.run(workspace.close())


@pytest.fixture
def desks(
    run: Callable[..., Any],
    team_databases: TeamDatabases,
    tmp_path: Path,
    ui_sandbox: Any,
    sandbox_profile_and_secrets: Any,
) -> Iterator[TeamDesks]:
    made = TeamDesks(run, team_databases, tmp_path, (ui_sandbox, sandbox_profile_and_secrets))
    try:
        yield made
    finally:
        made.close()


def approvals_tab(window: MainWindow) -> ApprovalsTab:
    assert window.approvals_page is not None
    tab = window.approvals_page.inner
    assert isinstance(tab, ApprovalsTab)
    return tab


def tab_title(window: MainWindow) -> str:
    return window.tabs.tabText(window.tabs.indexOf(window.approvals_page))


def listed(tab: ApprovalsTab, name: str) -> list[int]:
    return [entry.id for entry in tab.models[name].rows()]


def bank_has(run: Callable[..., Any], workspace: Workspace, entry: Entry) -> bool:
    async def look() -> bool:
        try:
            await workspace.session.accounts.get_pix_payment_by_idempotency_key(
                entry.idempotency_key
            )
        except ApiFailure:
            return False
        return True

    return bool(run(look()))


def balance(run: Callable[..., Any], workspace: Workspace) -> Decimal:
    return Decimal(run(workspace.statement.balance()).available)


def opened_dialog(qtbot: Any, run: Callable[..., Any], tab: ApprovalsTab, entry: Entry, name: str):
    dialog = run(tab.open_entry(entry, name))
    assert dialog is not None, tab.banner.detail.text()
    qt_wait_until(qtbot, dialog.isVisible, "dialog shown")
    return dialog


def submit_by_key(qtbot: Any, tab: PayoutsTab, key: str, amount: Decimal) -> Entry:
    """The maker's gesture: the key form, Review, the amount typed again, Submit."""
    tab.forms.setCurrentIndex(0)
    tab.key_edit.clear()
    qtbot.keyClicks(tab.key_edit.line_edit, key)
    tab.key_amount.clear()
    qtbot.keyClicks(tab.key_amount, format_brl(amount).replace("R$", "").strip())
    qtbot.mouseClick(tab.key_review_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: (
            (tab.review_dialog is not None and tab.review_dialog.isVisible())
            or tab.review_task.done()
        ),
        "(tab.review_dialog is not None and tab.review_dialog.isVisible()) or ...",
    )
    review = tab.review_dialog
    assert review is not None, tab.banner.detail.text()
    assert review.send_button.text() == "Submit for approval"
    qtbot.keyClicks(review.confirm_edit, format_brl(amount))
    qtbot.mouseClick(review.send_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.review_task.done, "tab.review_task done")
    entry = tab.review_task.result()
    assert entry is not None, tab.banner.detail.text()
    return entry


# --------------------------------------------------------------------------------------------
# End to end


def test_maker_submits_in_window_a_and_approver_approves_in_window_b(
    qtbot, run, desks: TeamDesks
) -> None:
    ana = desks.open("ana", MAKER)
    bruno = desks.open("bruno", APPROVER)
    window_a = desks.window(qtbot, ana)
    window_b = desks.window(qtbot, bruno)
    tab_b = approvals_tab(window_b)
    qt_wait_until(qtbot, lambda: tab_b.loaded, "tab_b.loaded")
    assert tab_title(window_b) == "Approvals"
    assert not window_b.approvals_badge.isVisible()
    before = balance(run, bruno)

    amount = Decimal(f"{secrets.randbelow(900) + 100}.{secrets.randbelow(100):02d}")
    key = f"aprovacao.{desks.tag}@empresa.com.br"
    window_a.tabs.setCurrentIndex(1)
    payouts = window_a.tab(1)
    assert isinstance(payouts, PayoutsTab)
    submitted = submit_by_key(qtbot, payouts, key, amount)
    assert submitted.state == EntryState.PREPARED and submitted.approval == "WAITING"
    assert payouts.payment_status.text() == "Submitted for approval (0 of 1)"
    assert not bank_has(run, ana, submitted)  # nothing sent before the approval

    # The maker's list says so; the payments list shows where it stands.
    tab_a = approvals_tab(window_a)
    qt_wait_until(
        qtbot,
        lambda: listed(tab_a, "mine") == [submitted.id],
        'listed(tab_a, "mine") == [submitted.id]',
    )
    assert tab_a.waiting_count == 0  # a maker approves nothing
    payments = payouts.payments_list
    qt_wait_until(
        qtbot,
        lambda: payments.proxy.row_of(submitted.id) is not None,
        "payments.proxy.row_of(submitted.id) is not None",
    )
    row = payments.proxy.row_of(submitted.id)
    status = payments.proxy.index(row, PaymentsColumn.STATUS).data()
    assert status == "Waiting for approval 0/1"

    # Window B hears of it without polling: the tab's title and the status bar count it.
    qt_wait_until(
        qtbot,
        lambda: tab_title(window_b) == "Approvals (1)",
        'tab_title(window_b) == "Approvals (1)"',
    )
    assert window_b.approvals_badge.isVisible()
    assert window_b.approvals_badge.text() == "1 to approve"
    assert window_b.approvals_badge.toolTip() == "1 payment(s) waiting for your approval"
    assert listed(tab_b, "waiting") == [submitted.id]
    waiting = tab_b.models["waiting"]
    assert waiting.index(0, Column.AMOUNT).data() == format_brl(amount)
    assert waiting.index(0, Column.MAKER).data() == desks.login("ana")
    assert waiting.index(0, Column.APPROVALS).data() == "0 / 1"

    dialog = opened_dialog(qtbot, run, tab_b, submitted, "waiting")
    assert isinstance(dialog, ApprovalDialog)
    assert dialog.amount.text() == format_brl(amount)
    assert dialog.fields["maker"].text().startswith(desks.login("ana") + " on ")
    assert dialog.fields["needed"].text() == "0 of 1 given"
    assert "Every payment needs 1 approval(s)" in dialog.fields["policy"].text() or (
        "above it" in dialog.fields["policy"].text()
    )
    sent_fields = {
        dialog.request_tree.topLevelItem(i).text(0): dialog.request_tree.topLevelItem(i).text(1)
        for i in range(dialog.request_tree.topLevelItemCount())
    }
    assert sent_fields["pixKey"] == key and sent_fields["payment.amount"] == str(amount)
    assert not dialog.approve_reason.isVisible()
    assert dialog.reject_button.isEnabled() and not dialog.withdraw_button.isVisible()
    assert not dialog.approve_button.isEnabled()
    qtbot.keyClicks(dialog.confirm_edit, format_brl(amount))
    assert dialog.approve_button.isEnabled()
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)  # the double click
    assert not dialog.approve_button.isEnabled()  # disabled while it runs
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    released = dialog.action_task.result()
    assert released is not None, dialog.banner.detail.text()
    assert released.state == EntryState.ACCEPTED and released.approval == "RELEASED"
    assert dialog.status.text().startswith("Approved and sent:")
    assert not dialog.reject_button.isEnabled() and not dialog.confirm_edit.isEnabled()

    # Exactly one payment at the bank: found by its key, and the balance moved once.
    assert bank_has(run, bruno, released)
    assert before - balance(run, bruno) == amount
    dialog.close_button.click()
    qt_wait_until(qtbot, lambda: tab_b.dialog is None, "tab_b.dialog is None")
    qt_wait_until(
        qtbot, lambda: tab_title(window_b) == "Approvals", 'tab_title(window_b) == "Approvals"'
    )
    assert not window_b.approvals_badge.isVisible()
    qt_wait_until(
        qtbot,
        lambda: submitted.id in listed(tab_b, "decided"),
        'submitted.id in listed(tab_b, "decided")',
    )
    # Window A follows its payment to the bank, and the maker's list empties.
    qt_wait_until(
        qtbot,
        lambda: payouts.payment_status.text().startswith(("Sent", "Paid")),
        'payouts.payment_status.text().startswith(("Sent", "Paid"))',
    )
    qt_wait_until(qtbot, lambda: listed(tab_a, "mine") == [], 'listed(tab_a, "mine") == []')
    assert before - balance(run, ana) == amount


def test_approving_ones_own_payment_is_refused_and_the_dialog_says_why(
    qtbot, run, desks: TeamDesks
) -> None:
    dora = desks.open("dora", MAKER, APPROVER)  # may prepare and approve, never both at once
    window = desks.window(qtbot, dora)
    tab = approvals_tab(window)
    amount = Decimal("61.23")
    entry = run(
        dora.payouts.send(
            run(dora.payouts.prepare_key(f"propria.{desks.tag}@empresa.com.br", amount))
        )
    )
    assert entry.approval == "WAITING"
    qt_wait_until(
        qtbot, lambda: listed(tab, "mine") == [entry.id], 'listed(tab, "mine") == [entry.id]'
    )
    assert listed(tab, "waiting") == []  # not offered to its own maker
    dialog = opened_dialog(qtbot, run, tab, entry, "mine")
    assert dialog.windowTitle() == "Your payment, waiting for approval"
    assert dialog.approve_reason.isVisible()
    assert dialog.approve_reason.text().startswith("You prepared this payment")
    assert not dialog.confirm_edit.isEnabled() and not dialog.approve_button.isEnabled()
    assert dialog.withdraw_button.isVisible() and dialog.edit_button.isEnabled()
    assert not dialog.reject_button.isVisible()

    # Were the UI's check bypassed, the team database refuses it, and the dialog says why.
    assert run(dialog.approve(amount)) is None
    assert dialog.banner.isVisible()
    assert dialog.banner.title.text() == "Refused by the team database"
    assert "another person must approve it" in dialog.banner.detail.text()
    assert dialog.status.text().startswith("Not done:")
    assert not bank_has(run, dora, entry)
    assert run(dora.ledger.journal.get(entry.id)).approvals_given == 0

    # The maker changes it (the approvals given so far would be void), then withdraws it.
    dialog.edit_button.click()
    qt_wait_until(
        qtbot,
        lambda: dialog.edit_dialog is not None and dialog.edit_dialog.isVisible(),
        "dialog.edit_dialog shown",
    )
    edit = dialog.edit_dialog
    amount_edit = edit.findChild(MoneyEdit, "approval-edit-amount")
    assert amount_edit.value() == amount
    amount_edit.set_value(Decimal("62.34"))
    edit.findChild(QLineEdit, "approval-edit-description").setText("invoice 4711")
    edit.accept()
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    changed = dialog.action_task.result()
    assert changed is not None, dialog.banner.detail.text()
    assert changed.amount == Decimal("62.34") and changed.approval == "WAITING"
    assert dialog.status.text() == (
        "Changed to R$ 62,34: the approvals given before are void (Waiting for approval 0/1)."
    )
    assert dialog.amount.text() == "R$ 62,34"
    assert dialog.fields["description"].text() == "invoice 4711"
    sent = {
        dialog.request_tree.topLevelItem(i).text(0): dialog.request_tree.topLevelItem(i).text(1)
        for i in range(dialog.request_tree.topLevelItemCount())
    }
    assert sent["payment.amount"] == "62.34" and sent["description"] == "invoice 4711"
    assert dialog.withdraw_button.isEnabled()

    # A withdrawal needs a reason: without one, nothing is done and the dialog says so.
    dialog.withdraw_button.click()
    qt_wait_until(
        qtbot,
        lambda: dialog.reason_dialog is not None and dialog.reason_dialog.isVisible(),
        "dialog.reason_dialog shown",
    )
    dialog.reason_dialog.setTextValue("   ")
    dialog.reason_dialog.accept()
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    assert dialog.action_task.result() is None
    assert dialog.banner.detail.text() == "A withdrawal needs a reason."
    assert run(dora.ledger.journal.get(entry.id)).approval == "WAITING"

    # The maker withdraws it instead: final, said so, never sent.
    dialog.withdraw_button.click()
    qt_wait_until(
        qtbot,
        lambda: dialog.reason_dialog is not None and dialog.reason_dialog.isVisible(),
        "dialog.reason_dialog shown",
    )
    dialog.reason_dialog.setTextValue("typed the wrong key")
    dialog.reason_dialog.accept()
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    gone = dialog.action_task.result()
    assert gone is not None and gone.approval == "WITHDRAWN"
    assert dialog.status.text() == "Withdrawn: it will not be sent."
    assert dialog.fields["state"].text() == "Withdrawn: typed the wrong key"
    assert not dialog.withdraw_button.isEnabled() and not dialog.edit_button.isEnabled()
    qt_wait_until(
        qtbot, lambda: entry.id in listed(tab, "decided"), 'entry.id in listed(tab, "decided")'
    )
    assert tab.models["decided"].index(0, Column.STATE).data() == "Withdrawn"
    dialog.reject()


def test_a_batch_is_approved_as_one_decision_and_its_rejected_row_is_never_sent(
    qtbot, run, desks: TeamDesks
) -> None:
    from treasury_app.ui.dialogs.payout_batch_dialog import PayoutBatchDialog

    ana = desks.open("ana", MAKER)
    bruno = desks.open("bruno", APPROVER)
    window_b = desks.window(qtbot, bruno)
    tab = approvals_tab(window_b)
    qt_wait_until(qtbot, lambda: tab.loaded, "tab.loaded")

    # Ana submits a batch from CSV: nothing is sent, the dialog says what happens next.
    submit = PayoutBatchDialog(ana)
    qtbot.addWidget(submit)
    submit.show()
    keys = [f"lote{n}.{desks.tag}@empresa.com.br" for n in range(3)]
    amounts = [Decimal("21.10"), Decimal("32.20"), Decimal("43.30")]
    csv = "chave;valor;descricao\n" + "".join(
        f"{key};{format_brl(amount).replace('R$', '').strip()};row {n}\n"
        for n, (key, amount) in enumerate(zip(keys, amounts, strict=True))
    )
    assert run(submit.load_text(csv))
    assert submit.send_button.text() == "Submit 3 payment(s) for approval"
    qtbot.keyClicks(submit.confirm_edit, format_brl(sum(amounts, Decimal("0.00"))))
    submitted = run(submit.send(), timeout=WAIT_MS)
    assert submitted is not None and all(e.approval == "WAITING" for e in submitted)
    assert submit.summary_label.text().startswith("Submitted for approval: 3 payment(s)")
    submit.reject()

    # Bruno sees the three; opening one opens the whole batch.
    qt_wait_until(
        qtbot, lambda: len(listed(tab, "waiting")) == 3, 'len(listed(tab, "waiting")) == 3'
    )
    dialog = opened_dialog(qtbot, run, tab, tab.models["waiting"].rows()[0], "waiting")
    assert isinstance(dialog, BatchApprovalDialog)
    model = dialog.model
    assert model.rowCount() == 3
    assert "3 payment(s) waiting" in dialog.header.text()
    assert format_brl(sum(amounts, Decimal("0.00"))) in dialog.header.text()
    assert dialog.approve_button.text() == "Approve 3 payment(s)"

    # Row 2 rejected: ticked (a reason is then required), the total to type follows.
    by_key = {entry.payee_detail: row for row, entry in enumerate(model.entries)}
    rejected_row = by_key[keys[1]]
    rejected = model.entries[rejected_row]
    assert model.setData(
        model.index(rejected_row, BatchColumn.REJECT),
        Qt.CheckState.Checked,
        Qt.ItemDataRole.CheckStateRole,
    )
    assert dialog.blocker_label.text() == "Say why each rejected row is rejected."
    assert not dialog.confirm_edit.isEnabled()
    assert model.setData(model.index(rejected_row, BatchColumn.REASON), "  wrong   supplier ")
    assert dialog.blocker_label.text() == ""
    approved_total = amounts[0] + amounts[2]
    assert f"To approve: 2 payment(s), {format_brl(approved_total)}" in dialog.totals_label.text()
    assert dialog.approve_button.text() == "Approve 2 payment(s) and reject 1"
    qtbot.keyClicks(dialog.confirm_edit, format_brl(sum(amounts, Decimal("0.00"))))
    assert not dialog.approve_button.isEnabled()  # the whole batch's total is not the one
    dialog.confirm_edit.clear()
    qtbot.keyClicks(dialog.confirm_edit, format_brl(approved_total))
    assert dialog.approve_button.isEnabled()
    before = balance(run, bruno)
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    decided = dialog.action_task.result()
    assert decided is not None, dialog.banner.detail.text()

    by_id = {entry.id: entry for entry in decided}
    assert by_id[rejected.id].approval == "REJECTED"
    assert by_id[rejected.id].decision_reason == "wrong supplier"
    assert not bank_has(run, bruno, rejected)  # never sent
    for entry in model.entries:
        if entry.id != rejected.id:
            assert entry.state == EntryState.ACCEPTED and bank_has(run, bruno, entry)
    assert before - balance(run, bruno) == approved_total
    assert dialog.status.text().startswith("Decided: 2 approved, 1 rejected (never sent).")
    assert "Sent: 2 (accepted 2" in dialog.status.text()
    assert model.index(rejected_row, BatchColumn.STATE).data().startswith("Rejected by ")
    assert not model.flags(model.index(rejected_row, BatchColumn.REJECT)) & (
        Qt.ItemFlag.ItemIsUserCheckable
    )
    dialog.reject()
    qt_wait_until(qtbot, lambda: listed(tab, "waiting") == [], 'listed(tab, "waiting") == []')
    # The rejected row stays unsent: no desktop's resolving sends it later.
    assert run(ana.engine.resolve_pending()) == []
    assert not bank_has(run, ana, rejected)


def test_a_slip_is_submitted_for_approval_from_the_boletos_tab(
    qtbot, run, desks: TeamDesks
) -> None:
    ana = desks.open("ana", MAKER)
    window = desks.window(qtbot, ana)
    window.tabs.setCurrentIndex(2)
    tab = window.tab(2)
    assert isinstance(tab, BilletsTab)
    response = run(ana.session.accounts.transport.http.get("/sandbox/slips"))
    slip = next(s for s in response.json()["data"] if s["label"] == "Energia elétrica")
    qtbot.keyClicks(tab.code_edit, slip["digitableCode"])
    qtbot.mouseClick(tab.lookup_button, Qt.MouseButton.LeftButton)
    qt_wait_until(
        qtbot,
        lambda: (
            (tab.review_dialog is not None and tab.review_dialog.isVisible())
            or tab.lookup_task.done()
        ),
        "(tab.review_dialog is not None and tab.review_dialog.isVisible()) or ...",
    )
    review = tab.review_dialog
    assert review is not None, tab.banner.detail.text()
    assert review.pay_button.text() == "Submit for approval"
    qtbot.keyClicks(review.confirm_edit, review.amount.text())
    qtbot.mouseClick(review.pay_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, tab.lookup_task.done, "tab.lookup_task done")
    entry = tab.lookup_task.result()
    assert entry is not None and entry.approval == "WAITING", tab.banner.detail.text()
    assert tab.payment_status.text() == "Submitted for approval (0 of 1)"
    assert entry.state == EntryState.PREPARED and entry.bank_id is None  # nothing paid
    row = tab.model.row_of(entry.id)
    assert row is not None
    assert tab.model.index(row, BilletColumn.STATUS).data() == "Waiting for approval 0/1"


def test_the_team_password_is_asked_again_when_the_profile_says_so(qtbot, run) -> None:
    class PasswordDesk(StandInDesk):
        password_required = True

        def __init__(self) -> None:
            super().__init__([])
            self.approved: list[tuple[Decimal, str | None]] = []

        async def approve(self, entry: Entry, typed: Decimal, *, password: str | None = None):
            self.approved.append((typed, password))
            return replace(entry, approvals_given=1)

        async def detail(self, entry: Entry) -> Any:
            return replace(detail, entry=entry)

    desk = PasswordDesk()
    waiting = entry(5, approvals_needed=2, approvals_given=0, new_payee=True)
    policy = Policy(
        version=1,
        approvals=1,
        threshold=Decimal("10000"),
        approvals_above=2,
        new_payee_extra=1,
        expiry_hours=None,
        set_at="2026-11-18T12:00:00.000Z",
        set_by="owner",
    )
    detail = ApprovalDetail(
        entry=waiting,
        approvals=[],
        policy=policy,
        eligible=["bruno", "carla"],
        recent_same_payee=[entry(6, approval="RELEASED", state=EntryState.ACCEPTED)],
        request={"pixKey": waiting.payee_detail, "payment": {"amount": waiting.amount}},
    )
    dialog = ApprovalDialog(desk, detail)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.password_edit.isVisible()
    assert dialog.duplicate_warning.isVisible()
    assert "paid recently: R$ 6,25" in dialog.duplicate_warning.text()
    assert (
        dialog.new_payee_note.isVisible() and "1 approval(s) more" in dialog.new_payee_note.text()
    )
    assert dialog.fields["needed"].text() == "0 of 2 given (1 more for a new payee)"
    assert "up to R$ 10.000,00 need 1 approval(s); above it, 2." in dialog.fields["policy"].text()
    qtbot.keyClicks(dialog.confirm_edit, format_brl(waiting.amount))
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    assert desk.approved == [] and dialog.action_task is None
    assert dialog.confirm_edit.text() == "" and not dialog.confirm_edit.isReadOnly()
    dialog.password_edit.setText("s3nha")
    qtbot.keyClicks(dialog.confirm_edit, format_brl(waiting.amount))
    qtbot.mouseClick(dialog.approve_button, Qt.MouseButton.LeftButton)
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    assert desk.approved == [(waiting.amount, "s3nha")]
    assert dialog.password_edit.text() == ""  # never kept
    assert dialog.status.text() == "Your approval is recorded (1 of 2): it waits for 1 more."
    assert not dialog.reject_button.isEnabled()  # decided: nothing more to do here


def test_a_rejection_asks_a_reason_and_says_what_became_of_it(qtbot) -> None:
    class RejectingDesk(StandInDesk):
        def __init__(self) -> None:
            super().__init__([])
            self.rejected: list[str] = []

        async def reject(self, entry: Entry, reason: str) -> Entry:
            self.rejected.append(reason)
            return replace(
                entry,
                approval="REJECTED",
                state=EntryState.REJECTED,
                decided_by=self.me,
                decision_reason=reason,
            )

        async def detail(self, entry: Entry) -> Any:
            return replace(detail, entry=entry)

    desk = RejectingDesk()
    waiting = entry(8, approvals_given=0)
    detail = ApprovalDetail(
        entry=waiting,
        approvals=[],
        policy=None,
        eligible=["bruno"],
        recent_same_payee=[],
        request={"pixKey": waiting.payee_detail},
    )
    dialog = ApprovalDialog(desk, detail)  # type: ignore[arg-type]
    qtbot.addWidget(dialog)
    dialog.show()
    assert not dialog.duplicate_warning.isVisible() and not dialog.new_payee_note.isVisible()
    assert "cannot be read" in dialog.fields["policy"].text()  # no policy: said, not guessed
    dialog.reject_button.click()
    qt_wait_until(
        qtbot,
        lambda: dialog.reason_dialog is not None and dialog.reason_dialog.isVisible(),
        "dialog.reason_dialog shown",
    )
    dialog.reason_dialog.setTextValue("   ")
    dialog.reason_dialog.accept()
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    assert desk.rejected == [] and dialog.banner.detail.text() == "A rejection needs a reason."
    dialog.reject_button.click()
    qt_wait_until(
        qtbot,
        lambda: dialog.reason_dialog is not None and dialog.reason_dialog.isVisible(),
        "dialog.reason_dialog shown",
    )
    dialog.reason_dialog.setTextValue("not our supplier")
    dialog.reason_dialog.accept()
    qt_wait_until(qtbot, dialog.action_task.done, "dialog.action_task done")
    assert desk.rejected == ["not our supplier"]
    assert dialog.status.text() == "Rejected: not our supplier. It will not be sent."
    assert dialog.fields["state"].text() == "Rejected by bruno: not our supplier"
    assert not dialog.reject_button.isEnabled() and not dialog.confirm_edit.isEnabled()


def test_a_file_ledger_shows_why_there_are_no_approvals(qtbot, open_workspace) -> None:
    workspace = open_workspace()
    assert workspace.session.approvals is None
    window = MainWindow(workspace)
    qtbot.addWidget(window)
    try:
        assert window.tabs.tabText(window.tabs.count() - 1) == "Approvals"
        assert window.tabs.tabText(window.tabs.count() - 2) == "Settings"
        page = window.approvals_page.inner
        assert isinstance(page, DualControlPage)
        assert "team" in page.message.text() and "file on this computer" in page.message.text()
        assert window.approvals_badge is None
        # The payout review says Send, as before.
        payouts = window.tab(1)
        assert payouts.desk is None
    finally:
        window.set_workspace(None)
    assert window.approvals_page is None  # locked: no Approvals tab


# --------------------------------------------------------------------------------------------
# The lists with a stand-in desk


def entry(number: int, **fields: Any) -> Entry:
    base = Entry(
        id=number,
        kind=EntryKind.PIX_KEY,
        payee_name="",
        payee_document="",
        payee_detail=f"fornecedor{number}@empresa.com.br",
        amount=Decimal(number % 997) + Decimal("0.25"),
        description="",
        payment_flow="INSTANT",
        idempotency_key=f"key-{number}",
        request_json="{}",
        state=EntryState.PREPARED,
        bank_status=None,
        final=False,
        end_to_end_id=None,
        bank_id=None,
        error=None,
        created_at=(NOW - dt.timedelta(minutes=number)).isoformat().replace("+00:00", "Z"),
        updated_at=NOW.isoformat().replace("+00:00", "Z"),
        created_by="ana",
        profile="Sandbox",
        batch=None,
        approval="WAITING",
        approvals_needed=2,
        approvals_given=number % 2,
        content_hash="0" * 64,
    )
    return replace(base, **fields)


class StandInDesk:
    me = "bruno"
    can_approve = True
    can_prepare = False
    password_required = False

    def __init__(self, waiting: list[Entry]) -> None:
        self.waiting = waiting
        self.calls = 0
        self.listeners: list[Callable[[], None]] = []

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        self.listeners.append(listener)
        return lambda: self.listeners.remove(listener)

    def notify(self) -> None:
        for listener in list(self.listeners):
            listener()

    async def lists(self) -> Any:
        self.calls += 1
        await asyncio.sleep(0.01)  # an answer from across the network
        return SimpleNamespace(waiting_for_me=list(self.waiting), prepared_by_me=[], decided=[])


def stand_in_tab(qtbot: Any, desk: StandInDesk) -> ApprovalsTab:
    workspace = SimpleNamespace(
        session=SimpleNamespace(approvals=desk, team=object()),
        ledger=SimpleNamespace(clock=lambda: NOW),
    )
    tab = ApprovalsTab(workspace)  # type: ignore[arg-type]
    qtbot.addWidget(tab)
    return tab


def test_ten_thousand_waiting_open_and_a_burst_of_changes_is_one_reload(qtbot) -> None:
    """How fast the tab opens and sorts is measured by ``tests/bench/approvals.py``; here,
    what it shows and how often it reads."""
    desk = StandInDesk([entry(n) for n in range(1, 10_001)])
    counts: list[int] = []
    tab = stand_in_tab(qtbot, desk)
    tab.waiting_count_changed.connect(counts.append)
    tab.resize(1366, 698)
    tab.show()
    qt_wait_until(qtbot, lambda: tab.loaded, "the Approvals tab loaded")
    assert counts == [10_000] and tab.models["waiting"].rowCount() == 10_000
    assert tab.boxes["waiting"].title() == "Waiting for my approval (10000)"
    view = tab.views["waiting"]
    assert view.indexWidget(view.model().index(0, 0)) is None  # no widget per row

    # Oldest first; a header click sorts by amount, in the model.
    assert tab.models["waiting"].rows()[0].id == 10_000
    view.sortByColumn(Column.AMOUNT, Qt.SortOrder.DescendingOrder)
    amounts = [e.amount for e in tab.models["waiting"].rows()[:50]]
    assert amounts == sorted(amounts, reverse=True)

    # Fifty notifications at once: the lists are read once more, not fifty times.
    calls = desk.calls
    desk.waiting = desk.waiting[:3]
    for _ in range(50):
        desk.notify()
    qt_wait_until(qtbot, lambda: counts[-1] == 3, "the three rows left shown")

    def idle() -> bool:  # no read running, none on its way
        QApplication.processEvents()  # a reload asked for meanwhile is scheduled now
        return tab.load_task.done() and not tab._reload_timer.isActive()

    qt_wait_until(qtbot, idle, "the tab idle after the burst")
    assert desk.calls - calls == 1
    tab.shutdown()
    assert desk.listeners == []


def test_the_list_words_each_intent(qtbot) -> None:
    model = ApprovalsModel(lambda: NOW)
    rejected = entry(
        7,
        approval="REJECTED",
        state=EntryState.REJECTED,
        decided_by="bruno",
        decision_reason="wrong supplier",
        final=True,
    )
    model.reset_rows(
        [
            entry(
                1, payee_name="Padaria Pão Quente", approvals_expire_at="2026-11-18T23:59:59.000Z"
            ),
            entry(90, approvals_given=1, new_payee=True),
            rejected,
        ]
    )

    def cell(row: int, column: Column, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        return model.index(row, column).data(role)

    assert cell(0, Column.PAYEE) == "Padaria Pão Quente (fornecedor1@empresa.com.br)"
    assert cell(0, Column.AMOUNT) == "R$ 1,25"
    assert cell(0, Column.APPROVALS) == "1 / 2"
    assert cell(0, Column.AGE) == "1 min" and cell(1, Column.AGE) == "1 h"
    assert cell(0, Column.EXPIRY) == "18/11/2026 20:59"  # Brasília
    assert cell(0, Column.STATE) == "Waiting for approval 1/2"
    assert "new payee" in cell(1, Column.APPROVALS, Qt.ItemDataRole.ToolTipRole)
    assert cell(2, Column.STATE) == "Rejected by bruno"
    assert cell(2, Column.STATE, Qt.ItemDataRole.ToolTipRole) == "wrong supplier"

    # The payments list says the same in its status column.
    payments = PaymentsModel(None)  # type: ignore[arg-type]
    payments.reset_rows(
        [entry(3), rejected, entry(4, approval="WITHDRAWN", state=EntryState.REJECTED)]
    )
    words = [payments.index(r, PaymentsColumn.STATUS).data() for r in range(3)]
    assert words == ["Waiting for approval 1/2", "Rejected by bruno", "Withdrawn"]
    released = entry(5, approval="RELEASED", state=EntryState.ACCEPTED, bank_status="SETTLED")
    payments.reset_rows([released])
    assert payments.index(0, PaymentsColumn.STATUS).data() == "Settled"


def test_the_request_is_shown_field_by_field_as_sent() -> None:
    body = {
        "pixKey": "a@b.com",
        "payment": {"currency": "BRL", "amount": Decimal("1234.50")},
        "flags": [True, None],
    }
    assert list(flatten_request(body)) == [
        ("pixKey", "a@b.com"),
        ("payment.currency", "BRL"),
        ("payment.amount", "1234.50"),
        ("flags[0]", "true"),
        ("flags[1]", "null"),
    ]


def test_who_can_approve_it_says_who_or_why_nobody_can(qtbot, qapp, restore_translation) -> None:
    """The eligible approvers, or the true reason there are none: the team has no approver but
    the maker, every other approver approved it already, or the limits of those left do not
    cover it; and when fewer approvers are left than approvals needed, it says so."""

    class ViewerDesk(StandInDesk):  # follows the intent, approves nothing: no note of its own
        me = "vera"
        can_approve = False

    waiting = entry(7, amount=Decimal("12345.67"), approvals_needed=3, approvals_given=1)

    def shown(eligible: list[str], **fields: Any) -> str:
        detail = ApprovalDetail(
            entry=waiting,
            approvals=[],
            policy=None,
            eligible=eligible,
            recent_same_payee=[],
            request={"pixKey": waiting.payee_detail},
            **fields,
        )
        dialog = ApprovalDialog(ViewerDesk([]), detail)  # type: ignore[arg-type]
        qtbot.addWidget(dialog)
        return dialog.fields["eligible"].text()

    assert shown(["carla", "diego"]) == "carla, diego"
    assert shown(["carla"]) == (
        "carla\nIt needs 2 more approval(s) and only 1 approver(s) can give one: the team needs"
        " more approvers, or higher limits."
    )
    assert shown([], nobody=NobodyReason.NO_OTHER_APPROVER) == (
        "Nobody: the team has no approver other than the one who prepared it"
    )
    assert shown([], nobody=NobodyReason.ALL_APPROVED) == (
        "Nobody else: every other approver has approved it already"
    )
    assert shown([], nobody=NobodyReason.LIMITS, over_limit=("carla", "diego")) == (
        "Nobody: the limits of carla, diego do not cover it"
    )
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    assert shown([], nobody=NobodyReason.ALL_APPROVED) == (
        "Ninguém mais: todos os outros aprovadores já o aprovaram"
    )
    assert shown([], nobody=NobodyReason.NO_OTHER_APPROVER) == (
        "Ninguém: a equipe não tem outro aprovador além de quem o preparou"
    )
