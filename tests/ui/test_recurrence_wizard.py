"""The new-recurrence wizard against the app's own sandbox bank, driven as a person would:
choose the journey, type the terms (and the payer's account or the first charge), review,
create, then the payer's side (the sandbox's control surface) approves or pays, and the
recurrence reaches APROVADA. Invalid input is refused on the form, before any request."""

from __future__ import annotations

import uuid
from decimal import Decimal

import pytest
from PySide6.QtCore import QDate, QPoint, Qt
from PySide6.QtGui import QGuiApplication

from tests.waiting import qt_wait_until, wait_until
from treasury_app.api.qrcodes.automatico_models import RecStatus
from treasury_app.domain import brcode
from treasury_app.services.bank_list import packaged_table
from treasury_app.ui.dialogs.recurrence_wizard import (
    DETAILS_PAGE,
    JOURNEY_PAGE,
    RESULT_PAGE,
    REVIEW_PAGE,
    TERMS_PAGE,
    RecurrenceWizard,
)
from treasury_app.ui.widgets.recurrence_terms_form import AMOUNT_MINIMUM

DEBTOR_CPF = "403.644.788-29"


@pytest.fixture
def wizard_and_workspace(qtbot, open_workspace):
    workspace = open_workspace()
    wizard = RecurrenceWizard(workspace)
    qtbot.addWidget(wizard)
    wizard.show()
    qtbot.waitExposed(wizard)
    yield wizard, workspace
    for task in (wizard.create_task, wizard.status_task):
        if task is not None:
            qt_wait_until(qtbot, task.done, "task done")


def click(qtbot, button) -> None:
    assert button.isVisible() and button.isEnabled(), button.objectName()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def sent(workspace) -> int:
    return workspace.session.qrcodes.transport.stats.requests


def control(run, workspace, path: str, body: dict | None = None) -> dict:
    http = workspace.session.accounts.transport.http
    response = run(http.post(path, json=body) if body is not None else http.post(path))
    response.raise_for_status()
    return response.json() if response.content else {}


def fill_terms(qtbot, wizard: RecurrenceWizard, *, document: str = DEBTOR_CPF) -> str:
    form = wizard.terms_form
    contract = f"CT-{uuid.uuid4().hex[:12]}"
    qtbot.keyClicks(form.contract_edit, contract)
    qtbot.keyClicks(form.document_edit, document)
    qtbot.keyClicks(form.name_edit, "Fulano de Tal")
    qtbot.keyClicks(form.purpose_edit, "Assinatura mensal")
    qtbot.keyClicks(form.amount_edit, "50,00")
    return contract


def choose(qtbot, wizard: RecurrenceWizard, journey: int) -> None:
    assert wizard.current_page() == JOURNEY_PAGE
    radio = wizard.journey_buttons[journey]
    # On the indicator: the centre of a wide radio button is outside what it reacts to.
    qtbot.mouseClick(radio, Qt.MouseButton.LeftButton, pos=QPoint(8, radio.height() // 2))
    assert wizard.journey() == journey
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == TERMS_PAGE


def create(qtbot, wizard: RecurrenceWizard) -> str:
    assert wizard.current_page() == REVIEW_PAGE
    created: list[str] = []
    wizard.recurrence_created.connect(created.append)
    click(qtbot, wizard.create_button)
    assert wizard.create_task is not None
    qt_wait_until(qtbot, wizard.create_task.done, "wizard.create_task done")
    id_rec = wizard.create_task.result()
    assert id_rec is not None, wizard.banner.detail.text()
    assert wizard.current_page() == RESULT_PAGE
    assert created == [id_rec] and wizard.result_rec == id_rec
    assert wizard.rec_id_label.text() == id_rec
    assert wizard.rec_status_label.text() == "Waiting for the payer"
    assert wizard.close_button.isVisible() and not wizard.create_button.isVisible()
    return id_rec


def wait_status(run, workspace, id_rec: str, status: RecStatus):
    """The recurrence once the bank shows it in ``status``; fails (saying which) if it never
    does."""

    def in_status():
        rec = run(workspace.recurrences.get_rec(id_rec))
        return rec if rec.status == status else None

    return wait_until(in_status, f"recurrence {id_rec} {status.value}")


def check_qr(wizard: RecurrenceWizard, *, composite: bool) -> brcode.BrCode:
    text = wizard.copy_text.toPlainText()
    code = brcode.parse(text)
    assert code.is_composite
    assert code.is_recurrence_only is (not composite)
    assert wizard.qr_box.isVisible() and wizard.qr_view.module_count() >= 21
    click_copy = wizard.copy_button
    click_copy.click()
    assert QGuiApplication.clipboard().text() == text
    return code


def test_journey_1_sends_the_confirmation_request_then_the_payer_approves(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 1)
    contract = fill_terms(qtbot, wizard)
    wizard.terms_form.retry_combo.setCurrentIndex(1)  # PERMITE_3R_7D
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == DETAILS_PAGE
    payer = wizard.payer_form
    assert payer.isVisible() and payer.document_edit.text() == DEBTOR_CPF  # the debtor, prefilled

    before = sent(workspace)
    click(qtbot, wizard.next_button)  # no ISPB, no account: refused on the form
    assert wizard.current_page() == DETAILS_PAGE
    assert payer.ispb_edit.property("invalid") and payer.account_edit.property("invalid")
    assert "ISPB" in wizard.banner.detail.text()
    assert sent(workspace) == before

    qtbot.keyClicks(payer.ispb_edit, "91193552")
    qtbot.keyClicks(payer.branch_edit, "2569")
    qtbot.keyClicks(payer.account_edit, "550689")
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    review = wizard.review_labels
    assert review["contract"].text() == contract
    assert review["amount"].text() == "R$ 50,00 every cycle"
    assert "403.644.788-29" in review["debtor"].text()
    assert review["retry-policy"].text() == "Up to 3 retries within 7 days"
    assert "91193552" in review["payer-account"].text()

    id_rec = create(qtbot, wizard)
    assert wizard.solicrec_id_label.text().startswith("SC")
    assert wizard.solicrec_status_label.text() == "Created"
    assert not wizard.qr_box.isVisible()

    # Journey 1's approval goes through the confirmation request: approving the recurrence as
    # the payer accepts the request (sandbox README).
    control(run, workspace, f"/sandbox/automatico/rec/{id_rec}/approve")
    rec = run(workspace.recurrences.get_rec(id_rec))
    assert rec.status is RecStatus.APROVADA
    assert rec.vinculo.contrato == contract and rec.valor.valor_rec == Decimal("50.00")
    run(wizard.refresh_status())
    assert wizard.rec_status_label.text() == "Authorised"
    assert wizard.solicrec_status_label.text() == "Accepted by the payer"


def test_journey_2_shows_the_recurrence_qr_then_the_payer_approves(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 2)
    fill_terms(qtbot, wizard)
    form = wizard.terms_form
    form.amount_kind_combo.setCurrentIndex(form.amount_kind_combo.findData(AMOUNT_MINIMUM))
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE  # journey 2 has no details page
    assert wizard.review_labels["amount"].text() == "Variable, at least R$ 50,00"
    click(qtbot, wizard.back_button)
    assert wizard.current_page() == TERMS_PAGE
    click(qtbot, wizard.next_button)

    id_rec = create(qtbot, wizard)
    code = check_qr(wizard, composite=False)
    assert wizard.outcome.location.location == code.recurrence_url

    # The result page's sandbox-only action plays the payer (README: .../rec/{idRec}/approve).
    assert wizard.sandbox_button.isVisible()
    click(qtbot, wizard.sandbox_button)
    qt_wait_until(qtbot, wizard.sandbox_task.done, "wizard.sandbox_task done")
    assert wizard.sandbox_task.result() is True, wizard.banner.detail.text()
    assert wizard.rec_status_label.text() == "Authorised"
    assert not wizard.sandbox_button.isEnabled()
    rec = run(workspace.recurrences.get_rec(id_rec))
    assert rec.status is RecStatus.APROVADA
    assert rec.valor.valor_minimo_recebedor == Decimal("50.00") and rec.valor.valor_rec is None


@pytest.mark.parametrize("journey", [3, 4])
def test_journeys_3_and_4_show_a_composite_qr_paying_it_approves(
    qtbot, run, wizard_and_workspace, journey: int
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, journey)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    charge = wizard.charge_form
    assert wizard.current_page() == DETAILS_PAGE and charge.isVisible()
    assert charge.amount() == Decimal("50.00")  # the fixed amount, prefilled
    assert charge.key() in workspace.pix_keys
    assert charge.expiry_spin.isVisible() is (journey == 3)
    assert charge.due_date_edit.isVisible() is (journey == 4)
    if journey == 4:
        due = workspace.recurrences.today()
        charge.due_date_edit.setDate(QDate(due.year, due.month, due.day).addDays(10))
    qtbot.keyClicks(charge.description_edit, "Primeira mensalidade")
    click(qtbot, wizard.next_button)
    assert wizard.review_labels["charge-amount"].text() == "R$ 50,00"

    id_rec = create(qtbot, wizard)
    check_qr(wizard, composite=True)
    txid = wizard.outcome.txid
    assert txid and txid in wizard.charge_label.text() and "R$ 50,00" in wizard.charge_label.text()
    assert run(workspace.recurrences.get_rec(id_rec)).status is RecStatus.CRIADA

    if journey == 3:
        payer = {"name": "Fulano de Tal", "cpf": "40364478829"}
        control(run, workspace, "/sandbox/cashin/pay", {"txid": txid, "payer": payer})
    else:  # the same call, through the result page's sandbox-only action
        click(qtbot, wizard.sandbox_button)
        qt_wait_until(qtbot, wizard.sandbox_task.done, "wizard.sandbox_task done")
        assert wizard.sandbox_task.result() is True, wizard.banner.detail.text()
        # The result page already shows the payer's decision: no second refresh needed.
        assert wizard.rec_status_label.text() == "Authorised"
    rec = wait_status(run, workspace, id_rec, RecStatus.APROVADA)
    assert rec.status is RecStatus.APROVADA
    assert rec.ativacao is not None
    assert str(rec.ativacao.tipo_jornada.value) == f"JORNADA_{journey}"


def test_invalid_cpf_and_end_before_start_are_refused_without_a_request(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 2)
    fill_terms(qtbot, wizard, document="403.644.788-28")  # wrong check digit
    form = wizard.terms_form
    first = form.first_date_edit.date()
    form.end_date_edit.setDate(first.addDays(-1))
    before = sent(workspace)

    click(qtbot, wizard.next_button)
    assert wizard.current_page() == TERMS_PAGE
    assert form.document_edit.property("invalid") is True
    assert form.end_date_edit.property("invalid") is True
    assert form.contract_edit.property("invalid") is False
    text = wizard.banner.detail.text()
    assert wizard.banner.isVisible() and "end date is before the first date" in text
    # Even the coroutine refuses: nothing is sent, nothing created.
    assert run(wizard.create_recurrence()) is None
    assert wizard.result_rec is None
    assert sent(workspace) == before

    form.document_edit.clear()
    qtbot.keyClicks(form.document_edit, DEBTOR_CPF)
    form.end_check.setChecked(False)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    assert form.document_edit.property("invalid") is False
    assert wizard.review_labels["end-date"].text() == "No end date"
    assert sent(workspace) == before


def test_a_bank_refusal_lands_on_the_field_it_names(qtbot, run, wizard_and_workspace) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 3)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    # A key that is not on the account: the bank refuses the charge (after creating the
    # recurrence), which the wizard reports as a journey stopped half-way.
    wizard.charge_form.key_combo.addItem("naoexiste@example.com", "naoexiste@example.com")
    wizard.charge_form.key_combo.setCurrentIndex(wizard.charge_form.key_combo.count() - 1)
    click(qtbot, wizard.next_button)
    created: list[str] = []
    wizard.recurrence_created.connect(created.append)
    click(qtbot, wizard.create_button)
    qt_wait_until(qtbot, wizard.create_task.done, "wizard.create_task done")
    id_rec = wizard.create_task.result()
    assert id_rec is not None and created == [id_rec]
    assert wizard.banner.isVisible() and id_rec in wizard.banner.detail.text()
    assert wizard.banner.detail.text().startswith(  # the UI's words, not the service's
        f"The recurrence {id_rec} was created but its charge was not. Finish or cancel it"
    )
    assert wizard.charge_form.key_combo.property("invalid") is True  # violacoes: chave
    assert not wizard.create_button.isEnabled() and wizard.close_button.isVisible()
    run(workspace.recurrences.cancel_rec(id_rec))


def test_a_lost_answer_to_post_rec_disables_create_and_makes_no_duplicate(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 2)
    contract = fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    http = workspace.session.accounts.transport.http
    rule = {
        "api": "qrcodes",
        "method": "POST",
        "path": "*/rec",
        "drop_after_commit": 1,
        "times": 1,
    }
    assert run(http.post("/sandbox/faults", json=rule)).status_code in (200, 201)
    try:
        click(qtbot, wizard.create_button)
        qt_wait_until(qtbot, wizard.create_task.done, "wizard.create_task done")
    finally:
        run(http.delete("/sandbox/faults"))
    assert wizard.create_task.result() is None
    assert not wizard.create_button.isEnabled() and wizard.close_button.isVisible()
    banner = wizard.banner
    assert banner.isVisible() and "may have been created" in banner.title.text()
    assert contract in banner.detail.text() and "Recurrences list" in banner.detail.text()
    # Neither a second click nor the coroutine sends POST /rec again.
    before = sent(workspace)
    wizard.create_button.click()
    assert run(wizard.create_recurrence()) is None
    assert sent(workspace) == before
    # Back to the terms and forward again: Create stays disabled.
    click(qtbot, wizard.back_button)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE and not wizard.create_button.isEnabled()

    async def recs_of_contract() -> list:
        today = workspace.recurrences.today()
        found = []
        async for rec in workspace.recurrences.iter_recs(
            start=today, end=today, document=DEBTOR_CPF
        ):
            if rec.vinculo.contrato == contract:
                found.append(rec)
        return found

    recs = run(recs_of_contract())
    assert len(recs) == 1  # the bank committed it once; the wizard never sent it again
    run(workspace.recurrences.cancel_rec(recs[0].id_rec))


def test_the_review_starts_on_the_safe_button(qtbot, run, wizard_and_workspace) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 2)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    assert wizard.focusWidget() is wizard.back_button  # not Cancel, not Create
    assert wizard.back_button.isDefault() and not wizard.create_button.isDefault()
    before = sent(workspace)
    qtbot.keyClick(wizard, Qt.Key.Key_Return)  # Enter: back to the terms, nothing created
    assert wizard.current_page() != REVIEW_PAGE and sent(workspace) == before


def test_journey_1_picks_the_payers_bank_by_name_as_the_bank_data_form_does(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    itau = packaged_table().by_compe("341")
    assert itau is not None
    choose(qtbot, wizard, 1)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    payer = wizard.payer_form
    qtbot.keyClicks(payer.ispb_edit, "ITAU unib")  # "Itaú": accents and case ignored
    assert payer.ispb_name.text() == "Pick the bank from the list for its ISPB (1 found)"
    popup = payer.bank_completer.popup()
    qt_wait_until(qtbot, popup.isVisible, "the list of banks pops up")
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert payer.ispb_edit.text() == itau.ispb  # the pick writes the ISPB
    assert wizard.current_page() == DETAILS_PAGE  # Enter on the list only picks
    assert payer.ispb_name.text() == f"{itau.name} (code 341, ISPB {itau.ispb})"
    qtbot.keyClicks(payer.account_edit, "550689")
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == REVIEW_PAGE
    assert (
        wizard.review_labels["payer-account"]
        .text()
        .startswith(f"{itau.name} (code 341, ISPB {itau.ispb})")
    )
    id_rec = create(qtbot, wizard)
    rec = run(workspace.recurrences.get_rec(id_rec))
    assert [r.destinatario.ispb_participante for r in rec.solicitacao] == [itau.ispb]


def test_a_name_that_is_no_bank_is_refused_on_the_form(qtbot, run, wizard_and_workspace) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 1)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    payer = wizard.payer_form
    qtbot.keyClicks(payer.ispb_edit, "Banco Que Nao Existe")
    assert payer.ispb_name.text().startswith("No bank of the list of ")
    qtbot.keyClicks(payer.account_edit, "550689")
    before = sent(workspace)
    click(qtbot, wizard.next_button)
    assert wizard.current_page() == DETAILS_PAGE and payer.ispb_edit.property("invalid")
    assert "Pick the payer's bank from the list" in wizard.banner.detail.text()
    assert sent(workspace) == before


def test_the_payers_bank_field_in_portuguese(qtbot, qapp, restore_translation) -> None:
    from treasury_app.app import install_translator
    from treasury_app.ui.widgets.recurrence_terms_form import PayerAccountForm

    assert install_translator(qapp, "pt_BR") == "pt_BR"
    form = PayerAccountForm()
    qtbot.addWidget(form)
    qtbot.keyClicks(form.ispb_edit, "itau unib")
    assert (
        form.ispb_name.text() == "Escolha o banco na lista para preencher o ISPB (1 encontrado(s))"
    )
    problems = dict(form.problems())
    assert problems["destinatario.ispbParticipante"] == (
        "Escolha o banco do pagador na lista ou digite o ISPB dele "
        "(8 dígitos ou letras maiúsculas)."
    )
    itau = packaged_table().by_compe("341")
    assert itau is not None
    form.ispb_edit.setText(itau.ispb)
    assert form.ispb_name.text() == f"{itau.name} (código 341, ISPB {itau.ispb})"


def test_the_result_says_why_the_recurrence_ended_and_the_payer_has_nothing_left(
    qtbot, run, wizard_and_workspace
) -> None:
    wizard, workspace = wizard_and_workspace
    choose(qtbot, wizard, 2)
    fill_terms(qtbot, wizard)
    click(qtbot, wizard.next_button)
    id_rec = create(qtbot, wizard)
    assert wizard.sandbox_button.isEnabled()
    run(workspace.recurrences.cancel_rec(id_rec))  # from the recurrences list meanwhile
    run(wizard.refresh_status())
    assert wizard.rec_status_label.text() == (
        "Cancelled — At the receiver's request (cancelled by us)"
    )
    assert "SLCR" not in wizard.rec_status_label.text()
    assert not wizard.sandbox_button.isEnabled()  # nothing left for the payer to authorise
