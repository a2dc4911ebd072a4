"""The catalogue of rules in words (ui/rule_words.py): codes in, the person's language out."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

import pytest

from treasury_app.domain.errors import DocumentError, Reason, RuleError
from treasury_app.ui import rule_words
from treasury_app.ui.rule_words import rule_text
from treasury_app.ui.widgets.error_banner import friendly_message


@pytest.fixture
def a_rule(monkeypatch: pytest.MonkeyPatch) -> str:
    code = "test.limit"
    monkeypatch.setitem(
        rule_words.RULES, code, "Over {limit} on {day} at {at}, {count} time(s): {why}"
    )
    return code


def test_parameters_are_put_in_words(qapp: Any, a_rule: str) -> None:
    reason = Reason(
        a_rule,
        {
            "limit": Decimal("1234.56"),
            "day": dt.date(2026, 11, 28),
            "at": dt.datetime(2026, 11, 28, 8, 26, tzinfo=dt.UTC),
            "count": 2,
            "why": Reason("rule.unknown"),
        },
    )
    assert rule_text(reason) == (
        "Over R$ 1.234,56 on 28/11/2026 at 28/11/2026 05:26, 2 time(s): "
        "This is not accepted. Please check it."
    )


def test_an_unknown_code_is_a_sentence_never_the_code(
    qapp: Any, caplog: pytest.LogCaptureFixture
) -> None:
    text = rule_text(RuleError("nobody.knows_this", size=3))
    assert text == "This is not accepted. Please check it."
    assert "nobody.knows_this" not in text
    assert "a rule without words: nobody.knows_this (size=3)" in caplog.text


def test_the_error_carries_code_field_and_parameters() -> None:
    error = DocumentError("document.cpf_length", field="document", digits=10)
    assert (error.code, error.field, dict(error.params)) == (
        "document.cpf_length",
        "document",
        {"digits": 10},
    )
    assert str(error) == "document.cpf_length (digits=10)"
    again = DocumentError.of(error.reason)
    assert again.reason == error.reason and isinstance(again, DocumentError)


def test_the_banner_shows_the_rules_words(qapp: Any, a_rule: str) -> None:
    title, detail = friendly_message(
        RuleError(a_rule, limit=Decimal("10"), day="x", at="y", count=1, why="z")
    )
    assert title == "Please check the form"
    assert detail == "Over R$ 10,00 on x at y, 1 time(s): z"


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def test_every_rule_has_portuguese_words_in_the_compiled_catalogue(portuguese: None) -> None:
    from PySide6.QtCore import QCoreApplication

    untranslated = [
        code
        for code, english in rule_words.RULES.items()
        if QCoreApplication.translate(rule_words.CONTEXT, english).strip() in ("", english)
    ]
    assert untranslated == []


def test_a_domain_rule_in_portuguese_with_its_parameters(portuguese: None) -> None:
    from treasury_app.domain.documents import normalize_document
    from treasury_app.domain.money import parse_brl

    with pytest.raises(DocumentError) as document:
        normalize_document("1234567890")
    with pytest.raises(RuleError) as amount:
        parse_brl("99999999999999")
    assert rule_text(document.value) == (
        "Este CPF tem 10 dígitos: uma planilha provavelmente removeu o zero à esquerda "
        "(quis dizer 01234567890?). Formate a coluna como texto e digite-o de novo."
    )
    assert rule_text(amount.value) == "O valor é alto demais (no máximo R$ 9.999.999.999.999,99)."


def test_a_domain_rule_in_english_with_a_date(qapp: Any) -> None:
    from treasury_app.domain.boleto import build_bank_barcode

    with pytest.raises(RuleError) as early:
        build_bank_barcode("001", None, dt.date(1990, 1, 2), "0" * 25)
    assert rule_text(early.value) == "A boleto cannot be due on 02/01/1990 (before 07/10/1997)."
