"""A slip code the Accounts API would not take (issue 33): ``normalize_billet_code`` refuses it
with a rule's code, which a pt_BR desk reads in Portuguese, never the English sentence it was."""

from __future__ import annotations

from typing import Any

import pytest

from treasury_app.domain.boleto import normalize_billet_code
from treasury_app.domain.errors import BoletoError
from treasury_app.ui.rule_words import rule_text


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _refusal(code: str) -> BoletoError:
    with pytest.raises(BoletoError) as refused:
        normalize_billet_code(code)
    return refused.value


def test_a_slip_code_with_letters_is_refused_in_portuguese(portuguese: None) -> None:
    error = _refusal("34191.79001 01043.51004X")
    assert error.code == "boleto.code_not_digits"
    assert rule_text(error) == (
        "O código do boleto tem só dígitos (pontos, espaços e hífens são ignorados)."
    )


def test_a_slip_code_too_long_is_refused_in_portuguese(portuguese: None) -> None:
    error = _refusal("9" * 51)
    assert error.code == "boleto.code_too_long"
    assert rule_text(error) == "O código do boleto tem no máximo 50 dígitos; este tem 51."


def test_the_same_refusals_in_english() -> None:
    assert rule_text(_refusal("")) == (
        "A slip code has only digits (dots, spaces and hyphens are ignored)."
    )
    assert rule_text(_refusal("9" * 60)) == "A slip code has at most 50 digits; this one has 60."
