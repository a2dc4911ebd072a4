"""The sandbox buttons' failures in the person's language (issue 33): what the banner says
comes from the code the sandbox gives its refusal, never from its own sentence, its API path,
its HTTP status or the English text of a connection error (all of which go to the log)."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from treasury_app.services.sandbox_console import (
    NoPendingAttempt,
    NotASandbox,
    SandboxClockUnknown,
    SandboxConsoleError,
    SandboxRefused,
    SandboxUnreachable,
)
from treasury_app.ui.sandbox_actions import console_text

REFUSED = "O banco sandbox recusou esta simulação."


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _refused(code: str | None, http: int = 422, **params: str) -> SandboxRefused:
    detail = "Recorrência RR1 não encontrada. Internal error: traceback follows"
    return SandboxRefused(
        "/sandbox/automatico/rec/RR1/approve", http, detail, code=code, params=params
    )


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (
            _refused("rec.not_pending", status="CANCELADA"),
            f"{REFUSED} A recorrência não espera mais o pagador (situação: Cancelada).",
        ),
        (
            _refused("rec.not_found", 404),
            f"{REFUSED} O banco sandbox não conhece esta recorrência.",
        ),
        (
            _refused("cobr.not_open", status="CONCLUIDA"),
            f"{REFUSED} A cobrança recorrente não tem próxima tentativa (situação: Paga).",
        ),
        (
            _refused("cobr.not_found", 404),
            f"{REFUSED} O banco sandbox não conhece esta cobrança recorrente.",
        ),
        (
            _refused("solicrec.not_found", 404),
            f"{REFUSED} O banco sandbox não conhece esta solicitação de confirmação.",
        ),
        (
            _refused("charge.not_found", 404),
            f"{REFUSED} O banco sandbox não conhece esta cobrança.",
        ),
        (
            _refused("charge.amount_fixed"),
            f"{REFUSED} O valor da cobrança é fixo: o pagador não pode pagar outro.",
        ),
        (
            _refused("payment.not_found", 404),
            f"{REFUSED} O banco sandbox não conhece este pagamento.",
        ),
        (
            _refused("clock.invalid", 400),
            f"{REFUSED} O relógio do sandbox não pode ser levado a esse horário.",
        ),
        # No code the app knows: by the status, never the sandbox's sentence.
        (
            _refused(None, 503),
            f"{REFUSED} Ele falhou do lado dele (uma falha injetada ou um erro próprio).",
        ),
        (_refused(None, 429), f"{REFUSED} Ele está ocupado: tente de novo em instantes."),
        (_refused(None, 404), f"{REFUSED} Ele não conhece o que foi pedido."),
        (_refused("brand.new_code", status="X"), REFUSED),
        (_refused(None, 400), REFUSED),
        (
            SandboxUnreachable("/sandbox/cashin/pay", "All connection attempts failed"),
            "Não foi possível contatar o banco sandbox: ele está em execução? "
            "(O registro tem os detalhes.)",
        ),
        (
            SandboxClockUnknown("Invalid isoformat string: 'soon'"),
            "Não foi possível ler o relógio do sandbox.",
        ),
        (NoPendingAttempt("t" * 26), "A cobrança não tem tentativa aguardando liquidação."),
        (
            NotASandbox(),
            "Este perfil não é o do banco sandbox: as simulações existem apenas no sandbox.",
        ),
        (SandboxConsoleError("Something odd happened"), REFUSED),
    ],
    ids=lambda value: getattr(value, "code", None) or type(value).__name__,
)
def test_a_sandbox_failure_in_portuguese(
    portuguese: None, error: SandboxConsoleError, expected: str
) -> None:
    text = console_text(error)
    assert text == expected
    for leak in ("/sandbox", "422", "503", "CANCELADA", "Internal", "traceback", "connection"):
        assert leak not in text


def test_a_payment_no_longer_held_names_its_status_in_words(portuguese: None) -> None:
    text = console_text(_refused("payment.not_held", status="SETTLED"))
    assert text.startswith(f"{REFUSED} O pagamento não aguarda mais aprovação (situação: ")
    assert "SETTLED" not in text


def test_what_is_left_out_goes_to_the_log(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="treasury_app.ui.sandbox_actions"):
        console_text(SandboxUnreachable("/sandbox/clock", "All connection attempts failed"))
        console_text(_refused("rec.not_pending", status="CANCELADA"))
    assert "All connection attempts failed" in caplog.text
    assert "/sandbox/automatico/rec/RR1/approve" in caplog.text and "rec.not_pending" in caplog.text


def test_a_simulation_not_made_is_titled_so_on_the_banner(portuguese: None, qtbot: Any) -> None:
    """The banner says the simulation was not made, not "Please check the form": nothing the
    person typed is at fault."""
    from treasury_app.ui.sandbox_actions import SimulationFailed, simulated
    from treasury_app.ui.widgets.error_banner import ErrorBanner

    async def refused() -> None:
        raise _refused("rec.not_pending", status="REJEITADA")

    with pytest.raises(SimulationFailed) as failed:
        simulated(refused()).send(None)  # no await inside: it fails at once
    banner = ErrorBanner()
    qtbot.addWidget(banner)
    banner.show_error(failed.value)
    assert banner.title.text() == "A simulação não foi feita"
    assert banner.detail.text().startswith(f"{REFUSED} A recorrência não espera mais o pagador")


def test_a_sandbox_button_turned_off_looks_off(qtbot: Any) -> None:
    """A sandbox action the recurrence no longer has (its payer decided) is greyed like any
    other button, not drawn as if it could be clicked."""
    from PySide6.QtWidgets import QWidget

    from treasury_app.ui.sandbox_actions import sandbox_button

    parent = QWidget()
    qtbot.addWidget(parent)
    button = sandbox_button(parent, "Sandbox: payer approves", "b", "tip", lambda: None)
    button.resize(button.sizeHint())
    parent.show()
    enabled = button.grab().toImage()
    button.setEnabled(False)
    disabled = button.grab().toImage()
    assert enabled != disabled
