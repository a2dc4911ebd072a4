"""Tests of treasury_app.domain.money: parsing, formatting and exact JSON amounts."""

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.errors import CODE_PATTERN, MoneyError
from treasury_app.domain.money import (
    MAX_AMOUNT,
    MAX_API_AMOUNT,
    RawJsonNumber,
    dumps_json,
    dumps_json_bytes,
    format_brl,
    loads_json,
    parse_brl,
    parse_json_amount,
    to_api_string,
    to_json_number,
)

# --- parse_brl -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.234,56", "1234.56"),
        ("1234,56", "1234.56"),
        ("R$ 1.234,56", "1234.56"),
        ("R$1.234,56", "1234.56"),
        ("R$\u00a01.234,56", "1234.56"),
        ("  R$  1.234,56  ", "1234.56"),
        ("1234.56", "1234.56"),
        ("1234.5", "1234.50"),
        ("1234", "1234.00"),
        ("0,5", "0.50"),
        ("1.234.567,89", "1234567.89"),
        ("1.234", "1234.00"),
        ("1.234.567", "1234567.00"),
        ("12.345", "12345.00"),
        ("0", "0.00"),
        ("0,00", "0.00"),
        ("5", "5.00"),
        ("007,10", "7.10"),
        ("9.999.999.999.999,99", "9999999999999.99"),
        ("\t42,00\n", "42.00"),
    ],
)
def test_parse_brl_accepts(text, expected):
    result = parse_brl(text)
    assert result == Decimal(expected)
    assert str(result) == expected  # always exactly 2 places


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("1,234", "money.places"),
        ("1.234,567", "money.places"),
        ("1234.567", "money.places"),
        ("1.2345", "money.places"),
        ("0.500", "money.places"),
        ("-1,00", "money.negative"),
        ("(1,00)", "money.negative"),
        ("R$ -1,00", "money.negative"),
        ("-R$ 1,00", "money.negative"),
        ("", "money.empty"),
        ("   ", "money.empty"),
        ("R$", "money.empty"),
        ("abc", "money.form"),
        ("1.23,45", "money.grouping"),
        ("12.34.56,00", "money.grouping"),
        ("1.234.56", "money.grouping"),
        ("1,2,3", "money.commas"),
        ("1,234.56", "money.dot_after_comma"),
        ("1,", "money.separator_edges"),
        (",5", "money.separator_edges"),
        (".5", "money.separator_edges"),
        ("NaN", "money.form"),
        ("Infinity", "money.form"),
        ("1e3", "money.form"),
        ("1E+3", "money.form"),
        ("٣", "money.characters"),
        ("1٣,00", "money.characters"),
        ("+1,00", "money.form"),
        ("1 234,56", "money.form"),
        ("10.000.000.000.000,00", "money.too_large"),
        ("99999999999999", "money.too_large"),
        ("1" * 10_000, "money.text_too_long"),
    ],
)
def test_parse_brl_rejects(text, code):
    with pytest.raises(MoneyError) as refused:
        parse_brl(text)
    assert refused.value.code == code


def test_parse_brl_rejects_non_str():
    with pytest.raises(TypeError):
        parse_brl(12.5)  # type: ignore[arg-type]


@given(st.text())
def test_parse_brl_arbitrary_text_returns_decimal_or_money_error(text):
    try:
        result = parse_brl(text)
    except MoneyError as exc:
        assert CODE_PATTERN.match(exc.code)
    else:
        assert isinstance(result, Decimal)
        assert result >= 0
        assert result.as_tuple().exponent == -2


@given(st.text(alphabet="0123456789.,R$ -()", max_size=25))
def test_parse_brl_separator_soup_returns_decimal_or_money_error(text):
    try:
        result = parse_brl(text)
    except MoneyError as exc:
        assert CODE_PATTERN.match(exc.code)
    else:
        assert parse_brl(format_brl(result)) == result
        if result <= MAX_API_AMOUNT:
            assert parse_brl(to_api_string(result)) == result


cents = st.integers(min_value=0, max_value=10**13).map(lambda c: Decimal(c).scaleb(-2))


@given(cents)
def test_parse_brl_inverts_format_brl(value):
    assert parse_brl(format_brl(value)) == value


# --- format_brl ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1234.56", "R$ 1.234,56"),
        ("5", "R$ 5,00"),
        ("0", "R$ 0,00"),
        ("-0", "R$ 0,00"),
        ("0.5", "R$ 0,50"),
        ("-1234.56", "-R$ 1.234,56"),
        ("1234567.891", None),
        ("1.230", "R$ 1,23"),
        ("1E+3", "R$ 1.000,00"),
        ("999", "R$ 999,00"),
        ("1000", "R$ 1.000,00"),
        ("12345678901.23", "R$ 12.345.678.901,23"),
    ],
)
def test_format_brl(value, expected):
    if expected is None:
        with pytest.raises(MoneyError) as refused:
            format_brl(Decimal(value))
        assert refused.value.code == "money.places"
    else:
        assert format_brl(Decimal(value)) == expected


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "sNaN", "1E+100", "0.001"])
def test_format_brl_rejects(value):
    with pytest.raises(MoneyError):
        format_brl(Decimal(value))


def test_format_brl_requires_decimal():
    with pytest.raises(TypeError):
        format_brl(1.5)  # type: ignore[arg-type]


# --- to_api_string ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1234.56", "1234.56"),
        ("5", "5.00"),
        ("0", "0.00"),
        ("-0.00", "0.00"),
        ("0.1", "0.10"),
        ("1E+2", "100.00"),
        ("9999999999.99", "9999999999.99"),
        ("1234567.800", "1234567.80"),
    ],
)
def test_to_api_string(value, expected):
    assert to_api_string(Decimal(value)) == expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("-0.01", "money.negative"),
        ("1.001", "money.places"),
        ("NaN", "money.not_finite"),
        ("Infinity", "money.not_finite"),
        ("10000000000.00", "money.too_large"),
    ],
)
def test_to_api_string_rejects(value, code):
    with pytest.raises(MoneyError) as refused:
        to_api_string(Decimal(value))
    assert refused.value.code == code


@given(st.integers(min_value=0, max_value=999_999_999_999).map(lambda c: Decimal(c).scaleb(-2)))
def test_to_api_string_matches_api_pattern(value):
    import re

    text = to_api_string(value)
    assert re.fullmatch(r"\d{1,10}\.\d{2}", text)
    assert Decimal(text) == value


# --- JSON ------------------------------------------------------------------------------------


def test_json_number_for_accounts_api():
    assert dumps_json({"amount": to_json_number(Decimal("1234.56"))}) == '{"amount": 1234.56}'


def test_json_number_is_exact_for_decimal_sums():
    body = dumps_json({"amount": to_json_number(Decimal("0.1") + Decimal("0.2"))})
    assert body == '{"amount": 0.30}'


def test_json_round_trip_is_exact():
    body = dumps_json({"amount": to_json_number(Decimal("1234.56"))})
    parsed = loads_json(body)
    assert isinstance(parsed, dict)
    assert parsed["amount"] == Decimal("1234.56")
    assert isinstance(parsed["amount"], Decimal)


def test_big_amount_survives_exactly():
    value = Decimal("12345678901.23")
    body = dumps_json({"payment": {"amount": to_json_number(value), "currency": "BRL"}})
    assert body == '{"payment": {"amount": 12345678901.23, "currency": "BRL"}}'
    parsed = loads_json(body)
    assert isinstance(parsed, dict)
    assert parse_json_amount(parsed["payment"]["amount"]) == value


def test_to_json_number_always_two_places():
    assert to_json_number(Decimal("5")).text == "5.00"
    assert to_json_number(Decimal("1E+3")).text == "1000.00"


@pytest.mark.parametrize("value", ["-1.00", "0.005", "NaN", "Infinity", "1E+20"])
def test_to_json_number_rejects(value):
    with pytest.raises(MoneyError):
        to_json_number(Decimal(value))


def test_dumps_json_matches_json_dumps_for_plain_structures():
    obj = {
        "s": 'quote " backslash \\ newline \n tab \t unicode é ☃ \U0001f600 \x00',
        "n": None,
        "t": True,
        "f": False,
        "i": -42,
        "big": 10**30,
        "list": [1, "two", [3, {"four": []}], {}],
        "tuple": (1, 2),
        "é key": "v",
    }
    assert dumps_json(obj) == json.dumps(obj)
    assert dumps_json_bytes(obj) == json.dumps(obj).encode("utf-8")


def test_dumps_json_writes_decimals_as_digits():
    obj = {"a": Decimal("0.30"), "b": [Decimal("1E+3"), Decimal("-0.000001")]}
    assert dumps_json(obj) == '{"a": 0.30, "b": [1E+3, -0.000001]}'
    assert loads_json(dumps_json(obj)) == {
        "a": Decimal("0.30"),
        "b": [Decimal("1E+3"), Decimal("-0.000001")],
    }


def test_dumps_json_raw_number():
    assert dumps_json([RawJsonNumber("1.50"), RawJsonNumber("-2e10")]) == "[1.50, -2e10]"


@pytest.mark.parametrize("text", ["", "01", "1.", ".5", "NaN", "1,0", "+1", "1e", " 1"])
def test_raw_json_number_rejects_non_numbers(text):
    with pytest.raises(ValueError, match="not a JSON number"):
        RawJsonNumber(text)


def test_raw_json_number_equality():
    assert RawJsonNumber("1.50") == RawJsonNumber("1.50")
    assert RawJsonNumber("1.50") != RawJsonNumber("1.5")
    assert hash(RawJsonNumber("1.50")) == hash(RawJsonNumber("1.50"))
    assert RawJsonNumber("1.50").as_decimal() == Decimal("1.50")
    assert str(RawJsonNumber("1.50")) == "1.50"


def test_dumps_json_refuses_float():
    with pytest.raises(TypeError, match="float"):
        dumps_json({"amount": 1234.56})


@pytest.mark.parametrize("value", [Decimal("NaN"), Decimal("Infinity")])
def test_dumps_json_refuses_non_finite_decimal(value):
    with pytest.raises(ValueError):
        dumps_json([value])


def test_dumps_json_refuses_other_types_and_keys():
    with pytest.raises(TypeError):
        dumps_json({"x": object()})
    with pytest.raises(TypeError):
        dumps_json({1: "x"})


def test_dumps_json_detects_cycles_but_allows_shared_children():
    shared = [1]
    assert dumps_json([shared, shared]) == "[[1], [1]]"
    cyclic: list[object] = []
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="Circular"):
        dumps_json(cyclic)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda children: st.lists(children) | st.dictionaries(st.text(), children),
        max_leaves=20,
    )
)
def test_dumps_json_equals_json_dumps(obj):
    assert dumps_json(obj) == json.dumps(obj)


@given(st.decimals(allow_nan=False, allow_infinity=False))
def test_dumps_json_decimal_round_trips(value):
    parsed = loads_json(dumps_json([value]))
    assert isinstance(parsed, list)
    assert parsed[0] == value


def test_loads_json_rejects_nan_and_garbage():
    for text in ["NaN", "[Infinity]", "-Infinity", "{", "", "[1,]"]:
        with pytest.raises(ValueError):
            loads_json(text)
    with pytest.raises(ValueError, match="nested"):
        loads_json("[" * 100_000)


def test_loads_json_bytes_and_ints():
    assert loads_json(b'{"a": 1, "b": 1.10}') == {"a": 1, "b": Decimal("1.10")}


# --- parse_json_amount -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (100, "100.00"),
        (0, "0.00"),
        (Decimal("1.5"), "1.50"),
        (Decimal("1.500"), "1.50"),
        (Decimal("1E+2"), "100.00"),
        ("1.00", "1.00"),
        ("35", "35.00"),
        ("-5.5", "-5.50"),
        (" 2.30 ", "2.30"),
    ],
)
def test_parse_json_amount(value, expected):
    result = parse_json_amount(value)
    assert result == Decimal(expected)
    assert str(result) == expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        (1.5, "money.float"),
        (True, "money.bank_boolean"),
        (None, "money.bank_missing"),
        ([1], "money.bank_type"),
        ("1,00", "money.bank_not_a_number"),
        ("1e3", "money.bank_not_a_number"),
        ("NaN", "money.bank_not_a_number"),
        ("", "money.bank_not_a_number"),
        ("١", "money.bank_not_a_number"),
        ("1.001", "money.places"),
        (Decimal("1.001"), "money.places"),
        (Decimal("NaN"), "money.not_finite"),
        (10**20, "money.too_large"),
        (Decimal("1E+20"), "money.too_large"),
    ],
)
def test_parse_json_amount_rejects(value, code):
    with pytest.raises(MoneyError) as refused:
        parse_json_amount(value)
    assert refused.value.code == code


def test_max_amount_round_trips():
    assert parse_brl(format_brl(MAX_AMOUNT)) == MAX_AMOUNT


def test_too_large_names_the_limit_it_broke():
    with pytest.raises(MoneyError) as typed:
        parse_brl("99999999999999")
    with pytest.raises(MoneyError) as for_the_api:
        to_api_string(Decimal("10000000000.00"))
    assert typed.value.params == {"maximum": MAX_AMOUNT}
    assert for_the_api.value.params == {"maximum": MAX_API_AMOUNT}
