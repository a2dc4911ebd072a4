"""Tests of treasury_app.domain.documents: CPF and (alphanumeric) CNPJ."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.documents import (
    cnpj_check_digits,
    cpf_check_digits,
    document_kind,
    format_cnpj,
    format_cpf,
    is_valid_cnpj,
    is_valid_cpf,
    mask_document,
    normalize_document,
)
from treasury_app.domain.errors import CODE_PATTERN, DocumentError

BARE_MASK = str.maketrans("", "", "./- ")


def _bare(value: str) -> str:
    return value.translate(BARE_MASK).upper()


# --- published vectors -----------------------------------------------------------------------


def test_published_valid_cpfs(vectors):
    assert vectors["cpf_valid"]
    for entry in vectors["cpf_valid"]:
        value = entry["value"]
        assert is_valid_cpf(value), value
        assert not is_valid_cnpj(value)
        assert normalize_document(value) == _bare(value)
        assert document_kind(value) == "CPF"
        assert format_cpf(value).translate(BARE_MASK) == _bare(value)


def test_published_invalid_cpfs(vectors):
    assert vectors["cpf_invalid"]
    for entry in vectors["cpf_invalid"]:
        value = entry["value"]
        assert not is_valid_cpf(value)
        with pytest.raises(DocumentError) as refused:
            normalize_document(value)
        assert refused.value.code == "document.cpf_check_digits"
        with pytest.raises(DocumentError):
            format_cpf(value)


@pytest.mark.parametrize("key", ["cnpj_numeric_valid", "cnpj_alphanumeric_valid"])
def test_published_valid_cnpjs(vectors, key):
    assert vectors[key]
    for entry in vectors[key]:
        value = entry["value"]
        canonical = entry.get("canonical", _bare(value))
        assert is_valid_cnpj(value), value
        assert is_valid_cnpj(value.lower())
        assert not is_valid_cpf(value)
        assert normalize_document(value) == canonical
        assert normalize_document(value.lower()) == canonical
        assert document_kind(value) == "CNPJ"
        assert format_cnpj(value).translate(BARE_MASK) == canonical
        assert cnpj_check_digits(canonical[:12]) == canonical[12:]


@pytest.mark.parametrize("key", ["cnpj_numeric_invalid", "cnpj_alphanumeric_invalid"])
def test_published_invalid_cnpjs(vectors, key):
    assert vectors[key]
    for entry in vectors[key]:
        value = entry["value"]
        assert not is_valid_cnpj(value), value
        with pytest.raises(DocumentError):
            normalize_document(value)
        with pytest.raises(DocumentError):
            format_cnpj(value)


# --- formatting, kinds and masks -------------------------------------------------------------


def test_format_cpf_and_cnpj():
    assert format_cpf("96271845860") == "962.718.458-60"
    assert format_cpf(" 962.718.458-60 ") == "962.718.458-60"
    assert format_cnpj("12abc34501de35") == "12.ABC.345/01DE-35"
    assert format_cnpj("00038166000105") == "00.038.166/0001-05"


def test_format_rejects_the_other_kind():
    with pytest.raises(DocumentError) as not_a_cnpj:
        format_cnpj("96271845860")
    with pytest.raises(DocumentError) as not_a_cpf:
        format_cpf("00038166000105")
    assert (not_a_cnpj.value.code, not_a_cnpj.value.params) == (
        "document.cnpj_length",
        {"length": 11},
    )
    assert (not_a_cpf.value.code, not_a_cpf.value.params) == ("document.cpf_length", {"length": 14})


def test_mask_document():
    assert mask_document("962.718.458-60") == "***.718.458-**"
    assert mask_document("12ABC34501DE35") == "12.ABC.345/01DE-35"
    with pytest.raises(DocumentError):
        mask_document("12345")


def test_document_kind_rejects_invalid():
    with pytest.raises(DocumentError):
        document_kind("11111111111")


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", "document.empty"),
        ("   ", "document.empty"),
        ("123", "document.length"),
        ("11111111111", "document.cpf_all_equal"),
        ("00000000000000", "document.cnpj_all_equal"),
        ("1234567890a", "document.cpf_length"),
        ("12ABC34501DEAB", "document.cnpj_characters"),
        ("12ABC345+1DE35", "document.cnpj_characters"),
        ("٩٦٢٧١٨٤٥٨٦٠", "document.cpf_length"),
        ("9" * 10_000, "document.length"),
    ],
)
def test_normalize_document_rejects(value, code):
    with pytest.raises(DocumentError) as refused:
        normalize_document(value)
    assert refused.value.code == code


def test_lower_case_letters_are_not_turned_into_ascii_by_unicode_rules():
    # 'ı' (dotless i) upper-cases to 'I' with str.upper(); it must not validate as a CNPJ letter.
    valid = "12ABC34501DE35"
    assert is_valid_cnpj(valid)
    base = "12ABC345000I"
    cnpj = base + cnpj_check_digits(base)
    assert is_valid_cnpj(cnpj)
    assert not is_valid_cnpj(cnpj.replace("I", "ı"))


def test_check_digit_helpers_reject_bad_bases():
    for bad in ["", "12345678", "1234567890", "12345678a", "٣٣٣٣٣٣٣٣٣"]:
        with pytest.raises(DocumentError):
            cpf_check_digits(bad)
    for bad in ["", "12ABC34501D", "12abc34501de", "12ABC34501DE3", "12ABC345-1DE"]:
        with pytest.raises(DocumentError):
            cnpj_check_digits(bad)


@pytest.mark.parametrize("func", [is_valid_cpf, is_valid_cnpj])
def test_validators_return_false_for_non_str(func):
    assert func(None) is False
    assert func(12345678901) is False


# --- properties ------------------------------------------------------------------------------

cpf_bases = st.text(alphabet=string.digits, min_size=9, max_size=9).filter(
    lambda s: len(set(s)) > 1
)
cnpj_bases = st.text(alphabet=string.digits + string.ascii_uppercase, min_size=12, max_size=12)


@given(cpf_bases)
def test_generated_cpfs_validate(base):
    cpf = base + cpf_check_digits(base)
    assert is_valid_cpf(cpf)
    assert is_valid_cpf(format_cpf(cpf))
    assert normalize_document(format_cpf(cpf)) == cpf
    assert document_kind(cpf) == "CPF"


@given(cpf_bases, st.integers(min_value=9, max_value=10), st.integers(min_value=1, max_value=9))
def test_changing_a_cpf_check_digit_invalidates(base, position, delta):
    cpf = base + cpf_check_digits(base)
    changed = cpf[:position] + str((int(cpf[position]) + delta) % 10) + cpf[position + 1 :]
    assert not is_valid_cpf(changed)


@given(cnpj_bases)
def test_generated_cnpjs_validate(base):
    cnpj = base + cnpj_check_digits(base)
    if len(set(cnpj)) == 1:
        return
    assert is_valid_cnpj(cnpj)
    assert is_valid_cnpj(format_cnpj(cnpj))
    assert is_valid_cnpj(format_cnpj(cnpj).lower())
    assert normalize_document(format_cnpj(cnpj)) == cnpj
    assert document_kind(cnpj) == "CNPJ"


@given(cnpj_bases, st.integers(min_value=12, max_value=13), st.integers(min_value=1, max_value=9))
def test_changing_a_cnpj_check_digit_invalidates(base, position, delta):
    cnpj = base + cnpj_check_digits(base)
    changed = cnpj[:position] + str((int(cnpj[position]) + delta) % 10) + cnpj[position + 1 :]
    assert not is_valid_cnpj(changed)


@given(st.text())
def test_validators_never_raise(text):
    assert isinstance(is_valid_cpf(text), bool)
    assert isinstance(is_valid_cnpj(text), bool)


@given(st.text())
def test_normalizers_raise_only_document_error(text):
    for func in (normalize_document, format_cpf, format_cnpj, mask_document, document_kind):
        try:
            func(text)
        except DocumentError as exc:
            assert CODE_PATTERN.match(exc.code)


@given(st.text(alphabet=string.digits + "abcXYZ./- ", max_size=20))
def test_normalizers_on_document_like_text(text):
    try:
        bare = normalize_document(text)
    except DocumentError:
        assert not is_valid_cpf(text) and not is_valid_cnpj(text)
    else:
        assert is_valid_cpf(bare) or is_valid_cnpj(bare)


def test_a_document_that_lost_its_leading_zero_is_refused_with_the_padded_value():
    with pytest.raises(DocumentError) as cpf:
        normalize_document("1234567890")
    assert cpf.value.code == "document.leading_zero"
    assert cpf.value.params == {"kind": "CPF", "digits": 10, "padded": "01234567890"}
    with pytest.raises(DocumentError) as cnpj:
        normalize_document("1222333000181")
    assert cnpj.value.params == {"kind": "CNPJ", "digits": 13, "padded": "01222333000181"}


def test_a_document_in_scientific_notation_is_refused_with_what_was_read():
    with pytest.raises(DocumentError) as refused:
        normalize_document(" 1,12E+13 ")
    assert (refused.value.code, refused.value.params) == (
        "document.scientific_notation",
        {"text": "1,12E+13"},
    )
