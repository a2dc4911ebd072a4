"""Dialogs ask the services instead of re-checking (issue 33): for each rule a dialog used to
keep a copy of, the service's (or the domain's) reason reaches the dialog on its field, in the
catalogue's words; and with the service's rule taken away, the dialog accepts what it used to
refuse by itself — it has no copy left.

Covered: the profile dialog (addresses, client id, files, Pix keys, team database), the New
charge form's txid and location id, the charge-batch dialog's txid column, the payouts tab's
preview of a recurrence (Pix Automático) code, and the approval dialogs' maker and approver
rules. (The recurring-charge dialog's are in ``test_cobr_dialog.py``, on its own sandbox.)
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QDate
from PySide6.QtWidgets import QComboBox, QDialog, QWidget

from tests.ui.test_approvals_ui import entry
from tests.ui.test_charge_batches import HEADER, br, cell, new_cpf
from tests.ui.test_charge_form import CPF
from tests.ui.test_profile_dialog import _error, _fill, _open, _save, _type
from tests.unit.test_brcode import RECURRENCE_ONLY, payload_of
from tests.waiting import qt_wait_until
from treasury_app.domain import brcode, identifiers
from treasury_app.domain.errors import Reason
from treasury_app.services import profile_form, profiles
from treasury_app.services.approvals import (
    ApprovalDetail,
    batch_blocker,
    maker_blocker,
    reject_blocker,
)
from treasury_app.services.payouts import PayoutInputError, read_payment_code
from treasury_app.ui.dialogs import (
    approval_dialog,
    batch_approval_dialog,
    charge_form_dialog,
    profile_dialog,
)
from treasury_app.ui.dialogs.approval_dialog import ApprovalDialog
from treasury_app.ui.dialogs.batch_approval_dialog import BatchApprovalDialog
from treasury_app.ui.dialogs.charge_batch_dialog import ChargeBatchDialog
from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog, FormErrors
from treasury_app.ui.models.charge_batch_model import Column
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.tabs import payouts_tab
from treasury_app.ui.tabs.payouts_tab import PayoutsTab

# --------------------------------------------------------------------------------------------
# The profile dialog


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    made = {}
    for name in ("qrcodes.pfx", "accounts.pfx", "bank-ca.pem", "ana.key"):
        made[name] = tmp_path / name
        made[name].write_bytes(b"not read by the dialog")
    return made


def _choose(dialog: QDialog, name: str, data: str) -> None:
    combo = dialog.findChild(QComboBox, name)
    combo.setCurrentIndex(combo.findData(data))


def test_the_profile_dialog_shows_the_services_reasons_on_their_fields(
    qtbot, qasync_loop, files
) -> None:
    dialog, asked = _open(qtbot, qasync_loop, existing_names=["Main bank"])
    _fill(qtbot, dialog, files, name="MAIN bank")
    _type(qtbot, dialog, "qrcodes-base-url", "https://qrcodes.bank.example/v2?x=1")
    _type(qtbot, dialog, "accounts-client-id", "   ")
    _type(qtbot, dialog, "accounts-pfx", "")
    _type(qtbot, dialog, "profile-pix-keys", "financeiro@empresa.com.br, " + "k" * 78)
    _choose(dialog, "profile-proxy-mode", "url")
    _type(qtbot, dialog, "profile-proxy-url", "http://proxy.example")
    _choose(dialog, "ledger-location", "team")
    _choose(dialog, "team-password-mode", "ask")
    _type(qtbot, dialog, "team-host", "db example")
    _type(qtbot, dialog, "team-key-file", str(files["ana.key"]))  # a key without its certificate
    _save(qtbot, dialog)
    assert not asked.done() and dialog.isVisible()
    expected = {
        "name": Reason("profile.name_taken", {"name": "MAIN bank"}),
        "qrcodes.base_url": Reason("profile.url_query"),
        "accounts.client_id": Reason("profile.client_id_missing"),
        "accounts.pfx_path": Reason("profile.pfx_missing"),
        "pix_keys": Reason("profile.pix_key_too_long", {"max": 77}),
        "proxy": Reason("profile.proxy_port"),
        "ledger.host": Reason("profile.team_spaces"),
        "ledger.dbname": Reason("profile.team_dbname_missing"),
        "ledger.user": Reason("profile.team_user_missing"),
        "ledger.cert_file": Reason("profile.team_key_without_cert"),
    }
    for field, reason in expected.items():
        assert _error(dialog, field) == rule_text(reason), field
    assert _error(dialog, "qrcodes.client_id") == "" and _error(dialog, "accounts.base_url") == ""
    assert dialog.banner.title.isVisible()
    assert rule_text(expected["name"]) in dialog.banner.detail.text()  # the first, by place
    dialog.reject()


def test_the_profile_dialog_has_no_address_rule_of_its_own(
    qtbot, qasync_loop, files, monkeypatch
) -> None:
    dialog, asked = _open(qtbot, qasync_loop)
    _fill(qtbot, dialog, files)
    _type(qtbot, dialog, "qrcodes-base-url", "http://qrcodes.bank.example")
    _save(qtbot, dialog)
    assert _error(dialog, "qrcodes.base_url") == rule_text(Reason("profile.url_not_https"))

    # The profiles service's address rule taken away (the model's and the form's): the
    # dialog now accepts the plain http address it never checks itself.
    def any_address(url: str, field: str = "base_url") -> str:
        return url.strip()

    monkeypatch.setattr(profiles, "check_base_url", any_address)
    monkeypatch.setattr(profile_form, "check_base_url", any_address)
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "the dialog accepted")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.result_profile().qrcodes.base_url == "http://qrcodes.bank.example"


def test_the_profile_dialog_keeps_no_rule_at_all(qtbot, qasync_loop, files, monkeypatch) -> None:
    """Every check is the service's: with a service that accepts anything, an empty form
    (no name, no address, no client id, no certificate) is accepted as the service says."""
    chosen = profiles.Profile(
        name="From the service",
        environment="sandbox",
        qrcodes=profiles.ApiProfile(
            base_url="https://q.example", client_id="q", pfx_path=files["qrcodes.pfx"]
        ),
        accounts=profiles.ApiProfile(
            base_url="https://a.example", client_id="a", pfx_path=files["accounts.pfx"]
        ),
    )
    asked_forms: list[profile_form.ProfileForm] = []

    def accepting(form: profile_form.ProfileForm, **_context: Any) -> profiles.Profile:
        asked_forms.append(form)
        return chosen

    monkeypatch.setattr(profile_dialog, "check_profile_form", accepting)
    dialog, asked = _open(qtbot, qasync_loop)
    _type(qtbot, dialog, "accounts-client-id", "typed")
    _save(qtbot, dialog)
    qt_wait_until(qtbot, asked.done, "the dialog accepted")
    assert asked.result() == QDialog.DialogCode.Accepted
    assert dialog.result_profile() is chosen
    [form] = asked_forms
    assert form.name == "" and form.apis["accounts"].client_id == "typed"


# --------------------------------------------------------------------------------------------
# The New charge form


@pytest.fixture
def workspace(open_workspace):
    return open_workspace()


@pytest.fixture
def form(qtbot, workspace):
    host = QWidget()
    qtbot.addWidget(host)
    dialog = ChargeFormDialog(workspace, host)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    if dialog.submit_task is not None:
        qt_wait_until(qtbot, dialog.submit_task.done, "dialog.submit_task done")


def _existing_location(qtbot, form: ChargeFormDialog, text: str) -> None:
    form.location_box.setChecked(True)
    form.existing_location_radio.setChecked(True)
    qtbot.keyClicks(form.location_edit, text)


def test_the_charge_form_shows_the_domains_txid_and_location_reasons(
    qtbot, run, form, workspace, monkeypatch
) -> None:
    sent: list[Any] = []
    monkeypatch.setattr(workspace.session.qrcodes, "put_cob", lambda *a, **k: sent.append(a))
    qtbot.keyClicks(form.amount_edit, "10,00")
    qtbot.keyClicks(form.txid_edit, "pedido-123")  # typed freely: no input mask of its own
    _existing_location(qtbot, form, "12a")
    assert run(form.submit()) is None and sent == []
    txid_error = form.findChild(QWidget, "charge-txid-error")
    length = Reason("txid.length", {"minimum": 26, "maximum": 35, "length": 10})
    assert txid_error.isVisible() and txid_error.text() == rule_text(length)
    location_error = form.findChild(QWidget, "charge-location-id-error")
    assert location_error.isVisible() and location_error.text() == rule_text(
        Reason("location.id_form")
    )
    form.txid_edit.setText("pedido-" + "a" * 23)  # 30 characters, one of them a symbol
    form.location_edit.setText("0")
    assert run(form.submit()) is None and sent == []
    assert txid_error.text() == rule_text(Reason("txid.characters"))
    assert location_error.text() == rule_text(Reason("location.id_range"))


def test_the_charge_form_has_no_txid_or_location_rule_of_its_own(qtbot, form, monkeypatch) -> None:
    monkeypatch.setattr(identifiers, "check_txid", lambda text: text)
    monkeypatch.setattr(identifiers, "check_location_id", lambda value: 42)
    qtbot.keyClicks(form.amount_edit, "10,00")
    qtbot.keyClicks(form.txid_edit, "pedido-123")
    _existing_location(qtbot, form, "12a")
    request = form.read_form()  # no FormErrors: the form found nothing wrong by itself
    assert request["txid"] == "pedido-123" and request["location_id"] == 42


def test_the_charge_form_asks_the_service_for_the_cobv_limits(
    qtbot, form, workspace, monkeypatch
) -> None:
    qtbot.keyClicks(form.amount_edit, "50,00")
    qtbot.keyClicks(form.document_edit, CPF)
    qtbot.keyClicks(form.name_edit, "Fulano")
    form.set_kind("cobv")
    due = workspace.charges.today() + dt.timedelta(days=5)
    form.due_edit.setDate(QDate(due.year, due.month, due.day))
    form.rebate_mode.setCurrentIndex(form.rebate_mode.findData(2))  # a percentage
    qtbot.keyClicks(form.rebate_value, "150,00")
    form.fine_mode.setCurrentIndex(form.fine_mode.findData(1))  # a fixed fine, none typed
    with pytest.raises(FormErrors) as refused:
        form.read_form()
    assert dict(refused.value.problems) == {
        "valor.abatimento.valorPerc": rule_text(Reason("charge.percent_limit")),
        "valor.multa.valorPerc": rule_text(Reason("charge.value_missing")),
    }

    # Without the service's limit, the form takes the 150 % rebate: it keeps no limit itself.
    monkeypatch.setattr(charge_form_dialog, "check_modality", lambda *args: args[2])
    form.fine_mode.setCurrentIndex(0)  # "None": no fine
    request = form.read_form()
    assert request["rebate"].valor_perc == Decimal("150.00") and request["fine"] is None


# --------------------------------------------------------------------------------------------
# The charge-batch dialog


@pytest.fixture
def batch_dialog(qtbot, workspace):
    dialog = ChargeBatchDialog(workspace)
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    yield dialog
    if dialog.send_task is not None:
        qt_wait_until(qtbot, dialog.send_task.done, "dialog.send_task done")


def _batch_text(workspace, txids: tuple[str, str]) -> str:
    due = br(workspace.charges.today() + dt.timedelta(days=5))
    return (
        HEADER
        + f"Ana Lima;{new_cpf()};10,00;{due};;{txids[0]}\n"
        + f"Bia Reis;{new_cpf()};20,00;{due};;{txids[1]}\n"
    )


def test_the_batch_dialog_shows_the_domains_txid_reasons(qtbot, workspace, batch_dialog) -> None:
    short, symbols = "lote" + secrets.token_hex(4), "lote-" + secrets.token_hex(12)
    batch_dialog.load_text(_batch_text(workspace, (short, symbols)))
    model = batch_dialog.model
    reasons = {m.line: [(e.column, e.reason) for e in m.errors] for m in model.members}
    length = Reason("txid.length", {"minimum": 26, "maximum": 35, "length": 12}, "txid")
    assert reasons == {
        2: [("txid", length)],
        3: [("txid", Reason("txid.characters", {}, "txid"))],
    }
    assert rule_text(length) in cell(model, 0, Column.PROBLEM)
    assert rule_text(Reason("txid.characters")) in cell(model, 1, Column.PROBLEM)
    assert not batch_dialog.review_button.isEnabled()


def test_the_batch_dialog_has_no_txid_rule_of_its_own(qtbot, workspace, batch_dialog, monkeypatch):
    monkeypatch.setattr(identifiers, "check_txid", lambda text: text)
    chosen = ("lote" + secrets.token_hex(4), "lote-" + secrets.token_hex(12))
    batch_dialog.load_text(_batch_text(workspace, chosen))
    assert all(not m.errors for m in batch_dialog.model.members)
    plan = batch_dialog.review()  # the service plans with the file's txids, as it checks them
    assert plan is not None
    assert tuple(m.txid for m in plan.members) == chosen


# --------------------------------------------------------------------------------------------
# The payouts tab


@pytest.fixture
def tab(qtbot, workspace):
    tab = PayoutsTab(workspace)
    qtbot.addWidget(tab)
    tab.resize(1000, 800)
    tab.show()
    qtbot.waitExposed(tab)
    yield tab
    tab.shutdown()


def test_the_payouts_tab_shows_the_services_reason_for_a_recurrence_code(
    qtbot, tab, vectors, monkeypatch
) -> None:
    payload = payload_of(vectors, RECURRENCE_ONLY)
    tab.forms.setCurrentIndex(1)
    tab.qr_payload.insertPlainText(payload)
    refused = rule_text(Reason("payout.recurrence_code"))
    assert tab.qr_preview.text() == f"Invalid: {refused}"
    assert not tab.qr_review_button.isEnabled()

    # Without the payouts service's rule, the tab takes the code: it has no rule of its own.
    monkeypatch.setattr(payouts_tab, "read_payment_code", lambda text: brcode.parse(text.strip()))
    tab.qr_payload.clear()
    tab.qr_payload.insertPlainText(payload)
    assert refused not in tab.qr_preview.text()
    assert tab.qr_review_button.isEnabled()


# --------------------------------------------------------------------------------------------
# The approval dialogs (a stand-in desk: who may do what is decided before any database)


def _desk(**fields: Any) -> Any:
    values = {"me": "bruno", "can_approve": True, "can_prepare": True, "password_required": False}
    return SimpleNamespace(**{**values, **fields})


def _detail(**fields: Any) -> ApprovalDetail:
    return ApprovalDetail(
        entry=entry(1, **fields),
        approvals=[],
        policy=None,
        eligible=["bruno"],
        recent_same_payee=[],
        request={},
    )


def test_the_approval_dialog_asks_the_service_who_may_reject_withdraw_or_edit(
    qtbot, monkeypatch
) -> None:
    theirs = ApprovalDialog(_desk(can_approve=False), _detail())  # ana's; bruno approves not
    qtbot.addWidget(theirs)
    assert not theirs.reject_button.isEnabled()
    mine = ApprovalDialog(_desk(), _detail(created_by="bruno"))
    qtbot.addWidget(mine)
    assert mine.withdraw_button.isEnabled() and mine.edit_button.isEnabled()

    # The service's rules taken away: the dialog follows them, it keeps none of its own.
    monkeypatch.setattr(approval_dialog, "reject_blocker", lambda *_a, **_k: None)
    theirs._update_controls()
    assert theirs.reject_button.isEnabled()
    said = Reason("approval.not_the_maker")
    monkeypatch.setattr(approval_dialog, "maker_blocker", lambda *_a, **_k: said)
    mine._update_controls()
    assert not mine.withdraw_button.isEnabled() and not mine.edit_button.isEnabled()


def test_the_batch_approval_dialog_shows_the_services_reason(qtbot, monkeypatch) -> None:
    rows = [replace(entry(n, created_by="bruno"), batch="B1") for n in (1, 2)]
    dialog = BatchApprovalDialog(_desk(), "B1", rows)
    qtbot.addWidget(dialog)
    assert dialog.blocker_label.text() == rule_text(Reason("approval.own_batch"))
    assert not dialog.confirm_edit.isEnabled()

    monkeypatch.setattr(batch_approval_dialog, "batch_blocker", lambda *_a, **_k: None)
    dialog._update_controls()
    assert dialog.blocker_label.text() == "" and dialog.confirm_edit.isEnabled()


def test_the_approvals_service_says_who_may_do_what() -> None:
    theirs, mine = entry(1), entry(2, created_by="bruno")
    closed = entry(3, approval="REJECTED")
    assert reject_blocker(theirs, "bruno", can_approve=True) is None
    assert reject_blocker(theirs, "bruno", can_approve=False) == Reason("approval.not_an_approver")
    assert reject_blocker(mine, "bruno", can_approve=True) == Reason(
        "approval.own_payment_withdraw"
    )
    assert reject_blocker(closed, "bruno", can_approve=True) == Reason(
        "approval.not_waiting", {"approval": "REJECTED"}
    )
    assert maker_blocker(mine, "bruno") is None
    assert maker_blocker(theirs, "bruno") == Reason("approval.not_the_maker")
    assert batch_blocker([closed], "bruno", can_approve=True) == Reason(
        "approval.batch_not_waiting"
    )
    assert batch_blocker([mine, theirs], "bruno", can_approve=True) is None
    assert batch_blocker([mine, theirs], "bruno", can_approve=True, reject_reasons=[" "]) == (
        Reason("approval.reject_reasons_missing", {}, "reason")
    )


def test_the_payouts_service_reads_a_code_to_pay(vectors) -> None:
    with pytest.raises(PayoutInputError) as refused:
        read_payment_code(payload_of(vectors, RECURRENCE_ONLY))
    assert refused.value.code == "payout.recurrence_code" and refused.value.field == "payload"
    with pytest.raises(PayoutInputError) as broken:
        read_payment_code("000201 not a code")
    assert broken.value.field == "payload" and broken.value.code.startswith("brcode.")
