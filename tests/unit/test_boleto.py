"""Tests of the FEBRABAN boleto reader against the published vectors and properties."""

from __future__ import annotations

import re
from datetime import date, timedelta
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treasury_app.domain.boleto import (
    Boleto,
    barcode_to_line,
    build_bank_barcode,
    due_date_from_factor,
    factor_from_date,
    line_to_barcode,
    parse,
)
from treasury_app.domain.errors import CODE_PATTERN, BoletoError, Reason

FIXTURE_OK = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
BANK_FORMAT = re.compile(r"\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}")
COLLECTION_FORMAT = re.compile(r"(\d{11}-\d )(\d{11}-\d ){2}\d{11}-\d")

REF = date(2026, 11, 18)  # the reference date of the factor cycle (never the machine's)


def _money(text: str) -> Decimal | None:
    value = Decimal(text)
    return value if value else None


# --------------------------------------------------------------------------------------------
# Bank slips


def test_bank_vectors_line_to_barcode_amount_and_kind(vectors):
    for vector in vectors["boleto_bancario"]:
        slip = parse(vector["linha"], today=date(2024, 1, 1))
        assert slip.kind == "bank"
        assert slip.barcode == vector["barcode"]
        assert slip.digitable_line == vector["linha"]
        assert slip.bank_code == vector["linha"][:3]
        assert slip.amount == _money(vector["valor"])
        assert slip.segment is None
        assert line_to_barcode(vector["linha"]) == vector["barcode"]
        assert barcode_to_line(vector["barcode"]) == vector["linha"]


def test_bank_vectors_due_date_in_each_cycle(vectors):
    dated = [v for v in vectors["boleto_bancario"] if v["fator"]]
    assert dated
    for vector in dated:
        for key in ("vencimento_ciclo1", "vencimento_ciclo2"):
            due = date.fromisoformat(vector[key])
            for offset in (-400, -30, 0, 30, 400):
                slip = parse(vector["linha"], today=due + timedelta(days=offset))
                assert slip.due_date == due, (vector["linha"], key, offset)


def test_bank_vector_without_due_date_or_amount(vectors):
    undated = [v for v in vectors["boleto_bancario"] if v["fator"] == 0]
    assert undated
    for vector in undated:
        slip = parse(vector["linha"], today=REF)
        assert slip.due_date is None
        assert slip.amount is None
        assert Decimal(vector["valor"]) == 0


def test_barcode_input_gives_the_same_slip(vectors):
    for vector in vectors["boleto_bancario"] + vectors["convenio_arrecadacao"]:
        from_line = parse(vector["linha"], today=date(2024, 1, 1))
        from_barcode = parse(vector["barcode"], today=date(2024, 1, 1))
        assert from_barcode == from_line
        assert from_barcode.digitable_line == vector["linha"]


def test_bank_formatted_line_and_punctuated_input(vectors):
    for vector in vectors["boleto_bancario"]:
        slip = parse(vector["linha"], today=REF)
        assert BANK_FORMAT.fullmatch(slip.formatted_line)
        assert slip.formatted_line.replace(".", "").replace(" ", "") == vector["linha"]
        assert parse(slip.formatted_line, today=REF) == slip
        assert parse(f"  {slip.formatted_line.replace(' ', '-')}\n", today=REF) == slip


def test_invalid_bank_vectors_refused(vectors):
    assert vectors["boleto_invalid"]
    for vector in vectors["boleto_invalid"]:
        with pytest.raises(BoletoError) as refused:
            parse(vector["linha"], today=REF)
        assert refused.value.code in {"boleto.block_check_digit", "boleto.general_check_digit"}


def test_every_single_changed_digit_refused(vectors):
    # Holds for these vectors; a general DV of 1 (or 0 for mod-11 collection slips) can
    # absorb some substitutions because FEBRABAN maps several remainders onto it.
    for vector in vectors["boleto_bancario"] + vectors["convenio_arrecadacao"]:
        line = vector["linha"]
        for index, original in enumerate(line):
            for digit in "0123456789":
                if digit == original:
                    continue
                with pytest.raises(BoletoError):
                    parse(line[:index] + digit + line[index + 1 :], today=date(2024, 1, 1))


def test_changed_barcode_digit_refused(vectors):
    for vector in vectors["boleto_bancario"]:
        barcode = vector["barcode"]
        for index in (0, 4, 8, 18, 43):
            digit = "1" if barcode[index] != "1" else "2"
            with pytest.raises(BoletoError):
                parse(barcode[:index] + digit + barcode[index + 1 :], today=REF)


def test_bank_line_with_other_currency_refused(vectors):
    line = vectors["boleto_bancario"][0]["linha"]
    # Currency digit lives in field 1, so field 1's DV would catch the change first:
    # build a consistent barcode with another currency instead.
    barcode = line_to_barcode(line)
    other = barcode[:3] + "0" + barcode[4:]
    for dv in "0123456789":
        with pytest.raises(BoletoError):
            parse(other[:4] + dv + other[5:], today=REF)


# --------------------------------------------------------------------------------------------
# Collection (convênio/arrecadação) slips


def test_collection_vectors(vectors):
    assert vectors["convenio_arrecadacao"]
    for vector in vectors["convenio_arrecadacao"]:
        slip = parse(vector["linha"], today=REF)
        assert slip.kind == "collection"
        assert slip.barcode == vector["barcode"]
        assert slip.digitable_line == vector["linha"]
        assert slip.amount == _money(vector["valor"])
        assert slip.segment == vector["segmento"].split()[0]
        assert slip.bank_code is None
        assert slip.due_date is None
        assert COLLECTION_FORMAT.fullmatch(slip.formatted_line)
        assert parse(slip.formatted_line, today=REF) == slip
        assert line_to_barcode(vector["linha"]) == vector["barcode"]
        assert barcode_to_line(vector["barcode"]) == vector["linha"]


def test_collection_line_must_start_with_8(vectors):
    line = vectors["convenio_arrecadacao"][0]["linha"]
    with pytest.raises(BoletoError) as refused:
        parse("7" + line[1:], today=REF)
    assert refused.value.code == "boleto.collection_prefix"


def test_collection_value_reference_must_be_6_to_9(vectors):
    barcode = vectors["convenio_arrecadacao"][0]["barcode"]
    for reference in "012345":
        with pytest.raises(BoletoError) as refused:
            parse(barcode[:2] + reference + barcode[3:], today=REF)
        assert refused.value.reason == Reason("boleto.value_reference", {"found": reference})


# --------------------------------------------------------------------------------------------
# Input cleaning and refusals


@pytest.mark.parametrize("length", [0, 1, 43, 45, 46, 49, 60, 1000])
def test_wrong_lengths_refused(length):
    with pytest.raises(BoletoError):
        parse("1" * length, today=REF)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "abc", "0019000009011497186016852452211467586000010265x", "00190/00009"],
)
def test_letters_and_other_characters_refused(text):
    with pytest.raises(BoletoError):
        parse(text, today=REF)


def test_non_ascii_digits_refused(vectors):
    line = vectors["boleto_bancario"][0]["linha"]
    with pytest.raises(BoletoError) as refused:
        parse(line.translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩")), today=REF)
    assert refused.value.code == "boleto.characters"


def test_conversion_helpers_check_their_input(vectors):
    bank = vectors["boleto_bancario"][0]
    with pytest.raises(BoletoError) as not_a_barcode:
        barcode_to_line(bank["linha"])
    with pytest.raises(BoletoError) as not_a_line:
        line_to_barcode(bank["barcode"])
    assert not_a_barcode.value.reason == Reason("boleto.barcode_length", {"digits": 47})
    assert not_a_line.value.reason == Reason("boleto.line_length", {"digits": 44})
    with pytest.raises(BoletoError):
        barcode_to_line(bank["barcode"][:4] + "0" + bank["barcode"][5:])


def test_non_str_input_is_a_type_error():
    with pytest.raises(TypeError):
        parse(123, today=REF)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Due-date factor


def test_factor_vectors_both_ways(vectors):
    for vector in vectors["fator_vencimento"]:
        day = date.fromisoformat(vector["date"])
        assert factor_from_date(day) == vector["fator"], vector["date"]
        expected = day if vector["fator"] else None
        assert due_date_from_factor(vector["fator"], today=day) == expected


def test_factor_of_bank_vectors(vectors):
    for vector in vectors["boleto_bancario"]:
        for key in ("vencimento_ciclo1", "vencimento_ciclo2"):
            if key in vector:
                assert factor_from_date(date.fromisoformat(vector[key])) == vector["fator"]


def test_factor_closest_cycle_and_edges():
    factor = 5000
    first = date(2000, 7, 3) + timedelta(days=4000)
    second = first + timedelta(days=9000)
    midpoint = first + timedelta(days=4500)
    assert due_date_from_factor(factor, today=midpoint - timedelta(days=1)) == first
    assert due_date_from_factor(factor, today=midpoint) == second  # tie: the later cycle
    assert due_date_from_factor(factor, today=date(1990, 1, 1)) == first
    # Factors below 1000 only ever meant first-cycle dates.
    assert due_date_from_factor(500, today=date(2040, 1, 1)) == date(1997, 10, 7) + timedelta(
        days=500
    )
    assert due_date_from_factor(factor, today=date.max) is not None
    for bad in (-1, 10000):
        with pytest.raises(BoletoError):
            due_date_from_factor(bad, today=date(2024, 1, 1))
    with pytest.raises(BoletoError):
        factor_from_date(date(1997, 10, 6))


# --------------------------------------------------------------------------------------------
# Building


def test_build_bank_barcode_reproduces_vectors(vectors):
    for vector in vectors["boleto_bancario"]:
        barcode = vector["barcode"]
        due = date.fromisoformat(vector["vencimento_ciclo1"]) if vector["fator"] else None
        built = build_bank_barcode(barcode[:3], _money(vector["valor"]), due, barcode[19:])
        assert built == barcode


@pytest.mark.parametrize(
    ("bank_code", "amount", "due", "free_field", "code"),
    [
        ("00", None, None, "0" * 25, "boleto.build_bank_code"),
        ("0a1", None, None, "0" * 25, "boleto.build_bank_code"),
        ("800", None, None, "0" * 25, "boleto.build_bank_code"),
        ("001", None, None, "0" * 24, "boleto.build_free_field"),
        ("001", None, None, "x" * 25, "boleto.build_free_field"),
        ("001", Decimal("-0.01"), None, "0" * 25, "boleto.build_amount_range"),
        ("001", Decimal("100000000.00"), None, "0" * 25, "boleto.build_amount_range"),
        ("001", Decimal("1.001"), None, "0" * 25, "boleto.build_amount_places"),
        ("001", Decimal("NaN"), None, "0" * 25, "boleto.build_amount_range"),
        ("001", None, date(1997, 10, 7), "0" * 25, "boleto.build_due_factor_zero"),
        ("001", None, date(1990, 1, 1), "0" * 25, "boleto.due_too_early"),
    ],
)
def test_build_bank_barcode_refusals(bank_code, amount, due, free_field, code):
    with pytest.raises(BoletoError) as refused:
        build_bank_barcode(bank_code, amount, due, free_field)
    assert refused.value.code == code


def test_a_due_date_before_the_first_factor_names_both_days():
    with pytest.raises(BoletoError) as refused:
        build_bank_barcode("001", None, date(1990, 1, 1), "0" * 25)
    assert refused.value.params == {"due": date(1990, 1, 1), "first": date(1997, 10, 7)}


# --------------------------------------------------------------------------------------------
# Properties

_BANK_CODES = st.from_regex(r"[0-79][0-9]{2}", fullmatch=True)
_FREE_FIELDS = st.from_regex(r"[0-9]{25}", fullmatch=True)
_AMOUNTS = st.one_of(
    st.none(), st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999999.99"), places=2)
)
_DUE_DATES = st.one_of(st.none(), st.dates(min_value=date(1997, 10, 8), max_value=date(2100, 1, 1)))


@given(
    bank_code=_BANK_CODES,
    amount=_AMOUNTS,
    due=_DUE_DATES,
    free_field=_FREE_FIELDS,
    offset=st.integers(min_value=-4000, max_value=4000),
)
def test_build_parse_round_trip(bank_code, amount, due, free_field, offset):
    barcode = build_bank_barcode(bank_code, amount, due, free_field)
    assert len(barcode) == 44
    today = (due or date(2024, 1, 1)) + timedelta(days=offset)
    slip = parse(barcode, today=today)
    assert slip.kind == "bank"
    assert slip.bank_code == bank_code
    assert slip.amount == amount
    assert slip.due_date == due
    assert slip.barcode[19:] == free_field
    line = barcode_to_line(barcode)
    assert parse(line, today=today) == slip
    assert line_to_barcode(line) == barcode


def _with_valid_general_dv(candidate: str) -> str:
    """``candidate`` with the one 4th digit that makes it a valid collection barcode."""
    valid = []
    for dv in "0123456789":
        barcode = candidate[:3] + dv + candidate[4:]
        try:
            barcode_to_line(barcode)
        except BoletoError:
            continue
        valid.append(barcode)
    assert len(valid) == 1
    return valid[0]


@given(
    segment=st.sampled_from("1234567"),
    reference=st.sampled_from("6789"),
    rest=st.from_regex(r"[0-9]{40}", fullmatch=True),
)
def test_collection_barcode_line_round_trip(segment, reference, rest):
    barcode = _with_valid_general_dv(f"8{segment}{reference}0{rest}")
    line = barcode_to_line(barcode)
    assert len(line) == 48
    slip = parse(line, today=REF)
    assert slip.barcode == barcode
    assert slip.segment == segment
    if reference in "79":
        assert slip.amount is None
    else:
        assert slip.amount == _money(str(Decimal(int(rest[:11])) / 100))
    assert line_to_barcode(line) == barcode


def _parse_or_refuse(text: str) -> None:
    try:
        result = parse(text, today=date(2024, 1, 1))
    except BoletoError as exc:
        assert CODE_PATTERN.match(exc.code)
    else:
        assert isinstance(result, Boleto)
        assert len(result.barcode) == 44


@given(st.text())
def test_parse_arbitrary_text_only_raises_boleto_error(text):
    _parse_or_refuse(text)


@given(st.text(alphabet="0123456789 .-", min_size=40, max_size=56))
def test_parse_digit_text_only_raises_boleto_error(text):
    _parse_or_refuse(text)


@given(st.from_regex(r"8[0-9]{43}|8[0-9]{47}|[0-79][0-9]{43}|[0-9]{47}", fullmatch=True))
def test_parse_digit_strings_of_valid_lengths_only_raises_boleto_error(text):
    _parse_or_refuse(text)


@FIXTURE_OK
@given(data=st.data(), digits=st.lists(st.sampled_from("0123456789"), min_size=1, max_size=3))
def test_parse_mutated_vectors_only_raises_boleto_error(vectors, data, digits):
    pool = [
        v[k]
        for group in ("boleto_bancario", "convenio_arrecadacao")
        for v in vectors[group]
        for k in ("linha", "barcode")
    ]
    code = data.draw(st.sampled_from(pool))
    for digit in digits:
        index = data.draw(st.integers(min_value=0, max_value=len(code) - 1))
        code = code[:index] + digit + code[index + 1 :]
    _parse_or_refuse(code)
