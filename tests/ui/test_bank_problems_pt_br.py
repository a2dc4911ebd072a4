"""The bank's problem answers (RFC 7807) in pt_BR (issue 33): the title is the words for the
problem's type (``CobOperacaoInvalida``: "O banco recusou a cobrança"), each field its
``violacoes`` name is said in words with the bank's reason, and the bank's own ``detail`` is
a secondary line marked as the bank's. Never the ``type`` URI, the status number nor the API's
path. The sandbox bank, standing in for a Brazilian bank, writes Portuguese details, never a
rule's code of this app's domain."""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Any

import pytest
from PySide6.QtWidgets import QWidget

from tests.ui.test_failure_words_pt_br import assert_portuguese
from tests.waiting import WAIT_MS
from treasury_app.api.errors import ApiError, Violation
from treasury_app.domain.errors import CODE_PATTERN
from treasury_app.domain.identifiers import new_idempotency_key
from treasury_app.ledger.journal import EntryState
from treasury_app.ui.code_words import Family, known_codes
from treasury_app.ui.dialogs.charge_form_dialog import ChargeFormDialog
from treasury_app.ui.failure_words import failure_words
from treasury_app.ui.refusals import error_words, problem_words, refusal_words
from treasury_app.ui.widgets.error_banner import ErrorBanner, friendly_message

RAW = re.compile(r"https?://|urn:|/api/|/cob|\b[45][0-9]{2}\b")
"""What a person never reads of a problem: its type's address, the API's path, its status."""


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _no_raw(*texts: str) -> None:
    for text in texts:
        assert not RAW.search(text), text


def test_the_banks_refusal_of_a_charge_in_words_on_its_field(
    qtbot, run, open_workspace, portuguese
) -> None:
    workspace = open_workspace()
    host = QWidget()
    qtbot.addWidget(host)
    form = ChargeFormDialog(workspace, host)
    form.show()
    qtbot.waitExposed(form)
    qtbot.keyClicks(form.amount_edit, "10,00")
    form.location_box.setChecked(True)
    form.existing_location_radio.setChecked(True)
    qtbot.keyClicks(form.location_edit, "1999999999")  # no such location at the bank

    assert run(form.submit(), timeout=WAIT_MS) is None
    error = form.last_error
    assert isinstance(error, ApiError) and error.type_name == "CobOperacaoInvalida"
    title, detail = form.banner.title.text(), form.banner.detail.text()
    assert title == "O banco recusou a cobrança"
    lines = detail.splitlines()
    assert lines[0].startswith("Localização do QR Code: ")  # the field in words, then why
    assert lines[-1].startswith("O banco diz: ")  # the bank's detail, last and marked
    assert error.detail in lines[-1]
    assert_portuguese(f"{title}\n{detail}", error)
    _no_raw(title, detail)
    assert form.location_edit.property("invalid") is True


def test_an_accounts_api_problem_and_the_sandbox_words_it_in_portuguese(
    qtbot, run, open_workspace, portuguese
) -> None:
    workspace = open_workspace()
    accounts = workspace.session.transports["accounts"]
    body = {
        "pixKey": "nao-e-um-email",
        "pixKeyType": "EMAIL",
        "payment": {"currency": "BRL", "amount": Decimal("1.00")},
    }
    with pytest.raises(ApiError) as refused:
        run(
            accounts.request_json(
                "POST",
                "/api/v2/pix/payments/dict",
                json=body,
                idempotency_key=new_idempotency_key(),
            )
        )
    error = refused.value
    # The sandbox, like a Brazilian bank: Portuguese, never the app's rule code.
    assert error.detail == "Chave Pix inválida para o tipo informado."
    assert not CODE_PATTERN.match(error.detail.split(" ")[0])
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show_error(error)
    title, detail = banner.title.text(), banner.detail.text()
    assert title == "O banco considerou a requisição inválida"
    assert detail.splitlines() == [
        "Chave Pix: chave inválida",
        "O banco diz: Chave Pix inválida para o tipo informado.",
    ]
    _no_raw(title, detail)
    words = failure_words(error)  # where a dialog says it in one text (the approval dialog)
    assert words.startswith("O banco considerou a requisição inválida.\nChave Pix: ")
    _no_raw(words)


def test_the_sandbox_never_details_a_refusal_with_a_rule_code(run, open_workspace) -> None:
    workspace = open_workspace()
    accounts = workspace.session.transports["accounts"]
    refusals = [
        ("/api/v2/billets/info", {"billetCode": "1" * 47}, None),
        (
            "/api/v2/pix/payments/qrc",
            {"qrCode": "00020126nao-e-um-br-code"},
            new_idempotency_key(),
        ),
        (
            "/api/v2/pix/payments/dict",
            {
                "pixKey": "a@b.com",
                "pixKeyType": "EMAIL",
                "creditorDocument": "12345678900",
                "payment": {"amount": Decimal("1.00")},
            },
            new_idempotency_key(),
        ),
    ]
    for path, body, key in refusals:
        with pytest.raises(ApiError) as refused:
            run(accounts.request_json("POST", path, json=body, idempotency_key=key))
        detail = refused.value.detail
        assert detail and not any(CODE_PATTERN.match(word) for word in detail.split()), detail
        assert "(" not in detail, detail  # no parameters of a rule either


def test_a_problem_type_the_app_does_not_know_is_said_by_its_kind(portuguese, caplog) -> None:
    error = ApiError(
        422,
        type="https://banco.exemplo/erros/limite-diario-excedido",
        title="Limite diário",
        detail="O limite diário de Pix foi atingido.",
        violacoes=[Violation("acima do limite", "pagamento.limite", "5000.00")],
        method="POST",
        path="/api/v2/pix/payments/dict",
    )
    title, detail = problem_words(error)
    assert title == "O banco recusou por uma de suas regras"
    assert detail.splitlines() == [
        "acima do limite",  # a field without words: the bank's reason alone, not its name
        "O banco diz: O limite diário de Pix foi atingido.",
    ]
    _no_raw(title, detail)
    # A detail that is only markup, an address or the API's path is not repeated.
    for odd in ("<html><body>Bad gateway</body></html>", "See https://banco.exemplo/erros"):
        _title, shown = friendly_message(ApiError(502, detail=odd, method="GET", path="/cob/a"))
        assert _title == "Falha técnica no banco" and shown == ""


def test_every_problem_type_of_the_standard_and_the_sandbox_has_words() -> None:
    from treasury_app.sandbox.problems import BCB_TYPES

    assert set(BCB_TYPES.values()) <= known_codes(Family.PROBLEM_TYPE)


def test_a_refusal_kept_in_the_journal_never_shows_the_clients_english(
    run, open_workspace, portuguese
) -> None:
    workspace = open_workspace()
    payouts = workspace.payouts
    entry = run(payouts.send(run(payouts.prepare_key("journal.words@empresa.com.br", "1,13"))))
    with pytest.raises(ApiError) as refused:  # what the payment engine journals: its str()
        run(
            workspace.session.transports["accounts"].request_json(
                "POST",
                "/api/v2/pix/payments/dict",
                json={"pixKey": "x", "pixKeyType": "EMAIL", "payment": {"amount": 1}},
                idempotency_key=new_idempotency_key(),
            )
        )
    rejected = dataclasses.replace(entry, state=EntryState.REJECTED, error=str(refused.value))
    assert refusal_words(rejected) == (
        "O banco recusou: Chave Pix inválida para o tipo informado. (Chave Pix: chave inválida)"
    )
    # A refusal the bank gave no reason for: the client's English name of its status is not
    # a reason.
    bare = dataclasses.replace(rejected, error="422 Business rule violated [POST /api/v2/x]")
    assert refusal_words(bare) == "O banco recusou e não informou o motivo."
    # A lost answer: the client's English of it is never shown.
    lost = dataclasses.replace(
        entry,
        state=EntryState.UNKNOWN,
        error="No answer from the bank in time (ReadTimeout) [POST /api/v2/pix/payments/dict]",
    )
    words = error_words(lost)
    assert words.startswith("Nenhuma resposta chegou do banco")
    _no_raw(words)
