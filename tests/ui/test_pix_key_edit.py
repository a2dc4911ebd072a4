"""PixKeyEdit driven as a person types: the key type is detected and named as the text
grows, CPF/CNPJ are masked in the label but never rewritten in the field, and the key is
normalised for the API."""

from __future__ import annotations

import pytest

from treasury_app.domain.pixkey import KeyType
from treasury_app.ui.widgets.pix_key_edit import PixKeyEdit


@pytest.fixture
def edit(qtbot):
    widget = PixKeyEdit()
    qtbot.addWidget(widget)
    return widget


def _type(qtbot, edit: PixKeyEdit, text: str) -> None:
    edit.clear()
    qtbot.keyClicks(edit.line_edit, text)
    assert edit.text() == text  # never rewritten while typing


@pytest.mark.parametrize(
    ("typed", "key_type", "key", "label"),
    [
        ("962.718.458-60", KeyType.CPF, "96271845860", "CPF ***.718.458-**"),
        ("96271845860", KeyType.CPF, "96271845860", "CPF ***.718.458-**"),
        ("11.222.333/0001-81", KeyType.CNPJ, "11222333000181", "CNPJ 11.222.333/0001-81"),
        ("11222333000181", KeyType.CNPJ, "11222333000181", "CNPJ 11.222.333/0001-81"),
        ("12.abc.345/01de-35", KeyType.CNPJ, "12ABC34501DE35", "CNPJ 12.ABC.345/01DE-35"),
        ("Fulano.Silva@Example.COM", KeyType.EMAIL, "fulano.silva@example.com", "E-mail"),
        ("+55 11 98765-4321", KeyType.PHONE, "+5511987654321", "Phone"),
        ("+5511987654321", KeyType.PHONE, "+5511987654321", "Phone"),
        ("(11) 98765-4321", KeyType.PHONE, "+5511987654321", "Phone"),
        (
            "123E4567-E89B-12D3-A456-426614174000",
            KeyType.EVP,
            "123e4567-e89b-12d3-a456-426614174000",
            "Random key",
        ),
        (
            "123e4567e89b12d3a456426614174000",
            KeyType.EVP,
            "123e4567-e89b-12d3-a456-426614174000",
            "Random key",
        ),
    ],
)
def test_detects_and_normalises_keys(qtbot, edit, typed, key_type, key, label):
    _type(qtbot, edit, typed)
    assert edit.key_type() is key_type
    assert edit.key() == key
    assert edit.is_valid()
    assert edit.error() is None
    assert edit.type_label.text() == label
    assert edit.property("invalid") is False


def test_cpf_is_masked_in_the_label_only(qtbot, edit):
    _type(qtbot, edit, "96271845860")
    assert edit.line_edit.text() == "96271845860"
    assert "962" not in edit.type_label.text()
    assert "60" not in edit.type_label.text()


def test_invalid_cpf_check_digit_is_reported(qtbot, edit):
    _type(qtbot, edit, "962.718.458-61")
    assert edit.key() is None
    assert edit.key_type() is None
    assert not edit.is_valid()
    assert edit.property("invalid") is True
    assert "check digits" in edit.type_label.text()
    assert edit.type_label.text() == edit.error()
    assert "border" in edit.line_edit.styleSheet()


def test_bare_digits_with_a_wrong_check_digit_are_reported(qtbot, edit):
    _type(qtbot, edit, "96271845861")
    assert edit.key() is None
    assert "check digits" in edit.type_label.text()


@pytest.mark.parametrize(
    ("typed", "reason"),
    [
        ("fulano@", "e-mail"),
        ("+1 212 555 0100", "Brazilian"),
        ("hello", "not a Pix key"),
        ("11.222.333/0001-80", "check digits"),
    ],
)
def test_invalid_keys_give_a_short_reason(qtbot, edit, typed, reason):
    _type(qtbot, edit, typed)
    assert edit.key() is None
    assert edit.key_type() is None
    assert reason in edit.type_label.text()


def test_label_follows_the_typing(qtbot, edit):
    seen: list[tuple[str | None, KeyType | None]] = []
    edit.changed.connect(lambda: seen.append((edit.key(), edit.key_type())))
    qtbot.keyClicks(edit.line_edit, "962.718.458-")
    assert edit.key() is None
    assert edit.property("invalid") is True
    assert all(key is None for key, _ in seen)
    # 10 digits on the way are a valid landline to the domain rules (DDD 96): shown as such.
    qtbot.keyClicks(edit.line_edit, "6")
    assert edit.key_type() is KeyType.PHONE
    qtbot.keyClicks(edit.line_edit, "0")
    assert edit.key_type() is KeyType.CPF
    assert edit.property("invalid") is False
    assert len(seen) == len("962.718.458-60")
    assert seen[-1] == ("96271845860", KeyType.CPF)


def test_empty_field_is_neither_valid_nor_marked(qtbot, edit):
    assert edit.key() is None
    assert edit.key_type() is None
    assert edit.type_label.text() == ""
    qtbot.keyClicks(edit.line_edit, "x")
    assert edit.property("invalid") is True
    edit.clear()
    assert edit.type_label.text() == ""
    assert edit.property("invalid") is False
    assert edit.line_edit.styleSheet() == ""


def test_set_text_keeps_surrounding_spaces_but_normalises_the_key(edit):
    edit.set_text("  Fulano@Example.com ")
    assert edit.text() == "  Fulano@Example.com "
    assert edit.key() == "fulano@example.com"
    assert edit.key_type() is KeyType.EMAIL
