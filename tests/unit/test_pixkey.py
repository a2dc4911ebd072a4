"""Tests of treasury_app.domain.pixkey: Pix key type detection and normalisation."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.documents import cnpj_check_digits, cpf_check_digits, is_valid_cpf
from treasury_app.domain.errors import CODE_PATTERN, PixKeyError
from treasury_app.domain.pixkey import BRAZILIAN_DDDS, KeyType, detect_key_type, normalize_key


def test_key_type_values_are_the_api_names():
    assert [t.value for t in KeyType] == ["CPF", "CNPJ", "EMAIL", "PHONE", "EVP"]
    assert KeyType("PHONE") is KeyType.PHONE
    assert f"{KeyType.EVP}" == "EVP"


def test_published_documents_are_detected(vectors):
    for entry in vectors["cpf_valid"]:
        assert detect_key_type(entry["value"]) is KeyType.CPF
    for key in ["cnpj_numeric_valid", "cnpj_alphanumeric_valid"]:
        for entry in vectors[key]:
            assert detect_key_type(entry["value"]) is KeyType.CNPJ
            assert detect_key_type(entry["value"].lower()) is KeyType.CNPJ
    for key in ["cnpj_numeric_invalid", "cnpj_alphanumeric_invalid"]:
        for entry in vectors[key]:
            with pytest.raises(PixKeyError):
                detect_key_type(entry["value"])


@pytest.mark.parametrize(
    ("key", "kind", "normalized"),
    [
        ("962.718.458-60", KeyType.CPF, "96271845860"),
        ("96271845860", KeyType.CPF, "96271845860"),
        ("12.ABC.345/01DE-35", KeyType.CNPJ, "12ABC34501DE35"),
        ("12abc34501de35", KeyType.CNPJ, "12ABC34501DE35"),
        ("00.038.166/0001-05", KeyType.CNPJ, "00038166000105"),
        ("  Fulano.Tal@Example.COM ", KeyType.EMAIL, "fulano.tal@example.com"),
        ("a+b@sub.example.com.br", KeyType.EMAIL, "a+b@sub.example.com.br"),
        ("+55 (11) 98765-4321", KeyType.PHONE, "+5511987654321"),
        ("+5511987654321", KeyType.PHONE, "+5511987654321"),
        ("(11) 98765-4321", KeyType.PHONE, "+5511987654321"),
        ("11 98765-4321", KeyType.PHONE, "+5511987654321"),
        ("11987654321", KeyType.PHONE, "+5511987654321"),
        ("5511987654321", KeyType.PHONE, "+5511987654321"),
        ("1134567890", KeyType.PHONE, "+551134567890"),
        ("(61) 3456-7890", KeyType.PHONE, "+556134567890"),
        (
            "123e4567-e12b-12d1-a456-426655440000",
            KeyType.EVP,
            "123e4567-e12b-12d1-a456-426655440000",
        ),
        (
            "123E4567-E12B-12D1-A456-426655440000",
            KeyType.EVP,
            "123e4567-e12b-12d1-a456-426655440000",
        ),
        ("123e4567e12b12d1a456426655440000", KeyType.EVP, "123e4567-e12b-12d1-a456-426655440000"),
    ],
)
def test_detect_and_normalize(key, kind, normalized):
    assert detect_key_type(key) is kind
    assert normalize_key(key, kind) == normalized
    assert detect_key_type(normalized) is kind


def test_phone_that_is_also_a_valid_cpf():
    # Find a mobile-shaped number that is also a valid CPF: bare it reads as a CPF, written as
    # a phone (with +55 or a mask) it reads as a phone.
    base = "119876543"
    number = base + cpf_check_digits(base)
    assert is_valid_cpf(number)
    assert detect_key_type(number) is KeyType.CPF
    assert detect_key_type("+55" + number) is KeyType.PHONE
    assert detect_key_type(f"({number[:2]}) {number[2:7]}-{number[7:]}") is KeyType.PHONE
    assert normalize_key(number, KeyType.PHONE) == "+55" + number


def test_masked_cpf_that_is_not_a_mobile_number_is_a_cpf():
    assert detect_key_type("962 718 458 60") is KeyType.CPF


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("", "pix_key.empty"),
        ("   ", "pix_key.empty"),
        ("a" * 70 + "@example.com", "pix_key.too_long"),
        ("11257245286", "pix_key.eleven_digits"),
        ("962.718.458-61", "document.cpf_check_digits"),
        ("11257245286531", "document.cnpj_check_digits"),
        ("12345", "pix_key.digit_count"),
        ("hello", "pix_key.unknown_form"),
        ("٩٦٢٧١٨٤٥٨٦٠", "pix_key.unknown_form"),
        ("+1 212 555 0100", "pix_key.phone_country"),
        ("+55 (01) 98765-4321", "pix_key.phone_area_code"),
        ("+55 (23) 98765-4321", "pix_key.phone_area_code"),  # no such DDD in Brazil
        ("+55 (56) 98765-4321", "pix_key.phone_area_code"),
        ("+55 (78) 3456-7890", "pix_key.phone_area_code"),
        ("+55 (11) 88765-4321", "pix_key.phone_number"),
        ("+55 11 9876", "pix_key.phone_length"),
        ("+55 11 98765-432a", "pix_key.phone_characters"),
        ("fulano@", "pix_key.email_form"),
        ("a@b@example.com", "pix_key.email_at_signs"),
        ("fulano@example", "pix_key.email_form"),
        ("fulané@example.com", "pix_key.email_characters"),
        ("user@exampl\u212a.com", "pix_key.email_characters"),
    ],
)
def test_detect_rejects(key, code):
    with pytest.raises(PixKeyError) as refused:
        detect_key_type(key)
    assert refused.value.code == code


def test_the_rules_name_what_they_saw():
    with pytest.raises(PixKeyError) as area:
        detect_key_type("+55 (23) 98765-4321")
    with pytest.raises(PixKeyError) as kind:
        normalize_key("96271845860", KeyType.CNPJ)
    assert area.value.params == {"ddd": "23"}
    assert (kind.value.code, kind.value.params) == (
        "pix_key.document_kind",
        {"given": "CPF", "expected": "CNPJ"},
    )


@pytest.mark.parametrize(
    ("key", "kind"),
    [
        ("96271845860", KeyType.CNPJ),
        ("00038166000105", KeyType.CPF),
        ("fulano@example.com", KeyType.PHONE),
        ("123e4567-e12b-12d1-a456-42665544000", KeyType.EVP),
        ("123e4567-e12b-12d1-a456-42665544000g", KeyType.EVP),
        ("123e4567e12b-12d1-a456-4266554400000", KeyType.EVP),
        ("+5511987654321", KeyType.EMAIL),
        ("11987654321", KeyType.CPF),
    ],
)
def test_normalize_rejects_key_of_another_type(key, kind):
    with pytest.raises(PixKeyError):
        normalize_key(key, kind)


def test_non_str_raises_type_error():
    with pytest.raises(TypeError):
        detect_key_type(11987654321)  # type: ignore[arg-type]


# --- properties ------------------------------------------------------------------------------

cpfs = st.text(alphabet=string.digits, min_size=9, max_size=9).map(
    lambda base: base + cpf_check_digits(base)
)
cnpjs = st.text(alphabet=string.digits + string.ascii_uppercase, min_size=12, max_size=12).map(
    lambda base: base + cnpj_check_digits(base)
)
phones = st.builds(
    lambda ddd, number: f"+55 ({ddd}) 9{number[:4]}-{number[4:]}",
    st.sampled_from(sorted(BRAZILIAN_DDDS)),
    st.from_regex(r"[0-9]{8}", fullmatch=True),
)
emails = st.from_regex(
    r"[A-Za-z0-9._%+-]{1,20}@[A-Za-z0-9]{1,20}\.(com|com\.br|org)", fullmatch=True
)
evps = st.uuids().map(str) | st.uuids().map(lambda u: u.hex.upper())
keys = cpfs | cnpjs | phones | emails | evps | st.text(max_size=80)


@given(keys)
def test_normalize_after_detect_is_idempotent(key):
    try:
        kind = detect_key_type(key)
    except PixKeyError:
        return
    normalized = normalize_key(key, kind)
    assert normalize_key(normalized, kind) == normalized
    assert detect_key_type(normalized) is kind


@given(cpfs | cnpjs | phones | emails | evps)
def test_generated_keys_are_detected(key):
    if len(set(key)) == 1:  # all-equal documents are invalid by rule
        return
    assert detect_key_type(key) in set(KeyType)


@given(st.text(), st.sampled_from(list(KeyType)))
def test_arbitrary_text_raises_only_pix_key_error(text, kind):
    try:
        assert detect_key_type(text) in set(KeyType)
    except PixKeyError as exc:
        assert CODE_PATTERN.match(exc.code)
    try:
        assert isinstance(normalize_key(text, kind), str)
    except PixKeyError as exc:
        assert CODE_PATTERN.match(exc.code)
