"""Tests of the Pix BR Code reader/builder against the published vectors and properties."""

from __future__ import annotations

import string
import unicodedata
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from treasury_app.domain import brcode
from treasury_app.domain.brcode import BrCode, build, crc16, fit_text, parse
from treasury_app.domain.errors import CODE_PATTERN, BrCodeError, Reason

STATIC = "BCB static QR (random key, no amount)"
DYNAMIC = "BCB dynamic QR (cob location URL)"
RECURRENCE_ONLY = "BCB composite QR, recurrence only (Pix Automatico, field 80)"
KEY_AMOUNT_RECURRENCE = "BCB composite QR, static key + amount 100.50 + recurrence"
MANUAL = "BCB BR Code manual multi-arrangement example (270 chars)"
JORNADA_2 = "bacen/pix-api example recResponse3 (JORNADA_2)"
JORNADA_3 = "bacen/pix-api example recResponse6 (JORNADA_3)"
JORNADA_4 = "bacen/pix-api example recResponse7 (JORNADA_4)"

FIXTURE_OK = settings(
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)


def payload_of(vectors: dict[str, Any], name: str) -> str:
    matches = [v["payload"] for v in vectors["brcode"] if v["name"] == name]
    assert len(matches) == 1, f"vector {name!r} missing from vectors.json"
    return str(matches[0])


def with_crc(body: str) -> str:
    """``body`` (everything before field 63) completed with a correct CRC."""
    return body + "6304" + crc16(body + "6304")


def body_of(payload: str) -> str:
    assert payload[-8:-4] == "6304"
    return payload[:-8]


def field(field_id: str, value: str) -> str:
    return f"{field_id}{len(value):02d}{value}"


# --------------------------------------------------------------------------------------------
# CRC and published vectors


def test_crc16_check_value(vectors):
    check = vectors["crc16_ccitt_false_check"]
    assert crc16(check["input"]) == check["crc"]


def test_crc16_of_every_vector_matches_its_published_crc(vectors):
    for vector in vectors["brcode"]:
        payload = vector["payload"]
        assert crc16(payload[:-4]) == vector["crc"] == payload[-4:], vector["name"]


def test_every_published_vector_parses(vectors):
    assert len(vectors["brcode"]) >= 8
    for vector in vectors["brcode"]:
        code = parse(vector["payload"])
        assert code.payload == vector["payload"]
        assert code.payload[-4:] == vector["crc"]
        assert code.merchant_name
        assert code.merchant_city


def test_static_vector(vectors):
    code = parse(payload_of(vectors, STATIC))
    assert code.key is not None
    assert code.url is None
    assert code.amount is None
    assert code.txid is None  # "***" means "no txid"
    assert code.merchant_name == "Fulano de Tal"
    assert code.merchant_city == "BRASILIA"
    assert code.point_of_initiation is None
    assert not code.is_dynamic
    assert not code.is_composite
    assert not code.is_recurrence_only


def test_dynamic_vector(vectors):
    code = parse(payload_of(vectors, DYNAMIC))
    assert code.key is None
    assert code.url is not None
    assert not code.url.startswith("https://")
    assert code.point_of_initiation == "12"
    assert code.is_single_use
    assert code.is_dynamic
    assert not code.is_composite


def test_recurrence_only_vectors(vectors):
    for name in (RECURRENCE_ONLY, JORNADA_2):
        code = parse(payload_of(vectors, name))
        assert code.key is None
        assert code.url is None
        assert code.recurrence_url is not None
        assert "/rec/" in code.recurrence_url
        assert code.is_composite
        assert code.is_recurrence_only
        assert not code.is_dynamic


def test_key_amount_recurrence_vector(vectors):
    code = parse(payload_of(vectors, KEY_AMOUNT_RECURRENCE))
    assert code.key == parse(payload_of(vectors, STATIC)).key
    assert code.amount == Decimal("100.50")
    assert isinstance(code.amount, Decimal)
    assert code.is_composite
    assert not code.is_recurrence_only


def test_dynamic_plus_recurrence_vectors(vectors):
    for name in (JORNADA_3, JORNADA_4):
        code = parse(payload_of(vectors, name))
        assert code.url is not None
        assert code.recurrence_url is not None
        assert code.is_dynamic
        assert code.is_composite
        assert not code.is_recurrence_only
    assert "/cobv/" in (parse(payload_of(vectors, JORNADA_4)).url or "")


def test_manual_multi_arrangement_example(vectors):
    code = parse(payload_of(vectors, MANUAL))
    assert code.key is not None  # found in field 26 despite the upper-case GUI and field 27
    assert code.recurrence_url is None  # field 80 belongs to BR.COM.OUTRO, not to Pix
    assert not code.is_composite
    assert code.amount == Decimal("123.45")
    assert code.postal_code is not None
    assert code.txid is not None
    assert code.merchant_name == "NOME DO RECEBEDOR"


def test_lower_case_crc_and_surrounding_whitespace_accepted(vectors):
    payload = payload_of(vectors, STATIC)
    code = parse(f"  \n{payload[:-4]}{payload[-4:].lower()}\t ")
    assert code.key == parse(payload).key
    assert code.payload == f"{payload[:-4]}{payload[-4:].lower()}"


# --------------------------------------------------------------------------------------------
# Building


def test_build_reproduces_static_vector(vectors):
    reference = parse(payload_of(vectors, STATIC))
    payload = build(
        merchant_name=reference.merchant_name,
        merchant_city=reference.merchant_city,
        key=reference.key,
    )
    assert payload == payload_of(vectors, STATIC)


def test_build_reproduces_dynamic_vector_and_strips_scheme(vectors):
    reference = parse(payload_of(vectors, DYNAMIC))
    assert reference.url is not None
    for url in (reference.url, "https://" + reference.url):
        payload = build(
            merchant_name=reference.merchant_name,
            merchant_city=reference.merchant_city,
            url=url,
        )
        assert payload == payload_of(vectors, DYNAMIC)


def test_build_reproduces_recurrence_and_composite_vectors(vectors):
    for name in (RECURRENCE_ONLY, KEY_AMOUNT_RECURRENCE, JORNADA_2, JORNADA_3, JORNADA_4):
        reference = parse(payload_of(vectors, name))
        payload = build(
            merchant_name=reference.merchant_name,
            merchant_city=reference.merchant_city,
            key=reference.key,
            url=reference.url,
            amount=reference.amount,
            recurrence_url=reference.recurrence_url,
        )
        assert payload == payload_of(vectors, name), name


def test_build_single_use_static_code():
    payload = build(
        merchant_name="Loja", merchant_city="Recife", key="+5581999990000", single_use=True
    )
    assert payload.startswith("000201010212")
    assert parse(payload).is_single_use


def test_build_strips_accents_and_keeps_optional_fields():
    payload = build(
        merchant_name="Açaí & Cia  Ltda",
        merchant_city="São Paulo",
        key="fulano@example.com",
        amount=Decimal("1E+1"),
        txid="Pedido123",
        info="Referência março",
        postal_code="01310-100",
    )
    code = parse(payload)
    assert code.merchant_name == "Acai & Cia Ltda"
    assert code.merchant_city == "Sao Paulo"
    assert code.amount == Decimal("10.00")
    assert "5405" + "10.00" in payload
    assert code.txid == "Pedido123"
    assert code.info == "Referencia marco"
    assert code.postal_code == "01310100"


def test_fit_text_shortens_deliberately():
    assert fit_text("Companhia Paulista de Força e Luz", 25) == "Companhia Paulista de For"
    assert fit_text("  São   José dos Campos ", 15) == "Sao Jose dos Ca"


@pytest.mark.parametrize(
    ("kwargs", "code", "field_name"),
    [
        ({"merchant_name": "N" * 26}, "brcode.merchant_name_length", "merchant_name"),
        ({"merchant_city": "C" * 16}, "brcode.merchant_city_length", "merchant_city"),
        ({"merchant_name": "   "}, "brcode.merchant_name_empty", "merchant_name"),
        ({"merchant_city": ""}, "brcode.merchant_city_empty", "merchant_city"),
        ({"merchant_name": "Ørsted"}, "brcode.characters", "merchant_name"),
        ({"txid": "T" * 26}, "brcode.txid_form", "txid"),
        ({"txid": "pedido-1"}, "brcode.txid_form", "txid"),
        ({"txid": "pedido 1"}, "brcode.txid_form", "txid"),
        ({"amount": Decimal("0")}, "brcode.amount_not_positive", "amount"),
        ({"amount": Decimal("-1.00")}, "brcode.amount_not_positive", "amount"),
        ({"amount": Decimal("1.005")}, "brcode.amount_unusable", "amount"),
        ({"amount": Decimal("10000000000.00")}, "brcode.amount_unusable", "amount"),
        ({"amount": Decimal("NaN")}, "brcode.amount_not_positive", "amount"),
        ({"info": "x" * 60}, "brcode.account_too_long", "info"),
        ({"key": "k" * 78}, "brcode.account_too_long", "key"),
        ({"key": ""}, "brcode.plain_text", "key"),
        ({"key": None, "url": "ftp://pix.example.com/x"}, "brcode.https_address", "url"),
        ({"key": None}, "brcode.build_key_or_url", None),
        ({"url": "pix.example.com/abc"}, "brcode.build_key_or_url", None),
        ({"postal_code": "1234"}, "brcode.postal_code", "postal_code"),
    ],
)
def test_build_refuses_values_out_of_limits(kwargs, code, field_name):
    arguments: dict[str, Any] = {
        "merchant_name": "Fulano de Tal",
        "merchant_city": "BRASILIA",
        "key": "123e4567-e12b-12d1-a456-426655440000",
    }
    arguments.update(kwargs)
    with pytest.raises(BrCodeError) as refused:
        build(**arguments)
    assert (refused.value.code, refused.value.field) == (code, field_name)


def test_build_amount_must_be_decimal():
    with pytest.raises(TypeError):
        build(merchant_name="A", merchant_city="B", key="k", amount=1.5)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Refusals


def test_altered_crc_refused(vectors):
    payload = payload_of(vectors, STATIC)
    wrong = "0000" if payload[-4:] != "0000" else "FFFF"
    with pytest.raises(BrCodeError) as refused:
        parse(payload[:-4] + wrong)
    assert refused.value.code == "brcode.crc_mismatch"


def test_altered_content_with_original_crc_refused(vectors):
    payload = payload_of(vectors, KEY_AMOUNT_RECURRENCE)
    with pytest.raises(BrCodeError) as refused:
        parse(payload.replace("100.50", "900.50"))
    assert refused.value.code == "brcode.crc_mismatch"


def test_truncated_payload_refused(vectors):
    payload = payload_of(vectors, DYNAMIC)
    for cut in (1, 4, 8, 9, 20, len(payload) // 2, len(payload) - 1):
        with pytest.raises(BrCodeError):
            parse(payload[:-cut])


@pytest.mark.parametrize("text", ["", "   ", "\n", "hello", "0002", "000201", "6304ABCD"])
def test_nonsense_refused(text):
    with pytest.raises(BrCodeError):
        parse(text)


def test_wrong_currency_refused(vectors):
    body = body_of(payload_of(vectors, STATIC)).replace("5303986", "5303840")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.reason == Reason("brcode.currency", {"found": "840"})


def test_missing_currency_refused(vectors):
    body = body_of(payload_of(vectors, STATIC)).replace("5303986", "")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.reason == Reason("brcode.currency", {"found": "-"})


def test_wrong_country_refused(vectors):
    body = body_of(payload_of(vectors, STATIC)).replace("5802BR", "5802US")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.reason == Reason("brcode.country", {"found": "US"})


def test_missing_gui_refused(vectors):
    body = body_of(payload_of(vectors, STATIC)).replace("br.gov.bcb.pix", "br.gov.bcb.xyz")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.code == "brcode.no_pix_account"


def test_amount_with_three_decimals_refused(vectors):
    body = body_of(payload_of(vectors, KEY_AMOUNT_RECURRENCE)).replace("5406100.50", "5407100.505")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.code == "brcode.amount_form"


@pytest.mark.parametrize("zero", ["0.00", "0", "000.00"])
def test_a_zero_amount_is_no_amount(vectors, zero):
    body = body_of(payload_of(vectors, KEY_AMOUNT_RECURRENCE)).replace(
        "5406100.50", field("54", zero)
    )
    code = parse(with_crc(body))
    assert code.amount is None  # the person types the amount, never an R$ 0,00 review


@pytest.mark.parametrize(
    "amount", ["-1.00", "1,50", "abc", "1.", ".5", "1e5", "١٢", "12345678901.00", "9" * 99]
)
def test_malformed_amount_refused(vectors, amount):
    body = body_of(payload_of(vectors, KEY_AMOUNT_RECURRENCE)).replace(
        "5406100.50", field("54", amount)
    )
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.code in {"brcode.amount_form", "brcode.amount_length"}


def test_payload_format_indicator_must_come_first(vectors):
    body = body_of(payload_of(vectors, STATIC))
    assert body.startswith("000201")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body[6:] + "000201"))
    assert refused.value.code == "brcode.format_indicator"
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc("000202" + body[6:]))
    assert refused.value.code == "brcode.format_indicator"


def test_crc_must_be_last_field(vectors):
    payload = payload_of(vectors, STATIC)
    with pytest.raises(BrCodeError) as refused:
        parse(payload + "5802BR")
    assert refused.value.code == "brcode.crc_missing"


def test_missing_name_and_city_refused(vectors):
    body = body_of(payload_of(vectors, STATIC))
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body.replace("5913Fulano de Tal", "")))
    assert refused.value.code == "brcode.no_merchant_name"
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body.replace("6008BRASILIA", "")))
    assert refused.value.code == "brcode.no_merchant_city"


def test_duplicate_field_refused(vectors):
    body = body_of(payload_of(vectors, STATIC))
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body + "5802BR"))
    assert refused.value.reason == Reason("brcode.field_twice", {"field_id": "58"})


def test_pix_account_needs_key_or_url(vectors):
    static = body_of(payload_of(vectors, STATIC))
    key = parse(payload_of(vectors, STATIC)).key
    assert key is not None
    account = field("00", "br.gov.bcb.pix") + field("01", key)
    only_gui = static.replace(field("26", account), field("26", field("00", "br.gov.bcb.pix")))
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(only_gui))
    assert refused.value.code == "brcode.no_key_nor_url"
    both = account + field("25", "pix.example.com/abc")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(static.replace(field("26", account), field("26", both))))
    assert refused.value.code == "brcode.key_and_url"


def test_pix_recurrence_without_url_refused(vectors):
    body = body_of(payload_of(vectors, STATIC)) + field("80", field("00", "br.gov.bcb.pix"))
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.code == "brcode.recurrence_without_url"


def test_point_of_initiation_must_be_11_or_12(vectors):
    body = body_of(payload_of(vectors, DYNAMIC)).replace("010212", "010213")
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body))
    assert refused.value.reason == Reason("brcode.point_of_initiation", {"point": "13"})


def test_control_characters_and_huge_input_refused(vectors):
    payload = payload_of(vectors, STATIC)
    with pytest.raises(BrCodeError) as refused:
        parse(with_crc(body_of(payload).replace("Fulano de", "Fulano\nde")))
    assert refused.value.code == "brcode.control_characters"
    with pytest.raises(BrCodeError) as refused:
        parse(payload * 1000)
    assert refused.value.code == "brcode.too_long"


def test_non_str_input_is_a_type_error():
    with pytest.raises(TypeError):
        parse(b"000201")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Properties

_NAME_CHARS = string.ascii_letters + string.digits + " .&-'" + "áâãàéêíóôõúçÁÉÍÓÚÇ"
_KEYS = st.one_of(
    st.uuids().map(str),
    st.from_regex(r"[a-z0-9._]{1,20}@[a-z0-9]{1,12}\.com(\.br)?", fullmatch=True),
    st.from_regex(r"\+55[0-9]{11}", fullmatch=True),
    st.from_regex(r"[0-9]{11}|[0-9]{14}", fullmatch=True),
)
_URLS = st.from_regex(r"pix\.example\.com/qr/v2/(cobv/)?[0-9a-f]{32}", fullmatch=True)
_REC_URLS = st.from_regex(r"pix\.example\.com/qr/v2/rec/[0-9a-f]{32}", fullmatch=True)


def _expected_text(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", " ".join(text.split()))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@given(
    name=st.text(_NAME_CHARS, min_size=1, max_size=25).filter(lambda s: s.strip()),
    city=st.text(_NAME_CHARS, min_size=1, max_size=15).filter(lambda s: s.strip()),
    mode=st.sampled_from(["static", "dynamic", "recurrence"]),
    key=_KEYS,
    url=_URLS,
    recurrence=st.one_of(st.none(), _REC_URLS),
    amount=st.one_of(
        st.none(),
        st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999999.99"), places=2),
    ),
    txid=st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9]{1,25}", fullmatch=True)),
    info=st.one_of(st.none(), st.text(_NAME_CHARS, max_size=20).filter(lambda s: s.strip())),
    postal_code=st.one_of(st.none(), st.from_regex(r"[0-9]{8}", fullmatch=True)),
    single_use=st.booleans(),
)
def test_parse_build_round_trip(
    name, city, mode, key, url, recurrence, amount, txid, info, postal_code, single_use
):
    if mode == "recurrence":
        key = url = None
        recurrence = recurrence or "pix.example.com/qr/v2/rec/" + "0" * 32
    elif mode == "static":
        url = None
    else:
        key = info = None  # a long cobv address leaves no room for a description
    payload = build(
        merchant_name=name,
        merchant_city=city,
        key=key,
        url=url,
        amount=amount,
        txid=txid,
        info=info,
        postal_code=postal_code,
        recurrence_url=recurrence,
        single_use=single_use,
    )
    code = parse(payload)
    assert isinstance(code, BrCode)
    assert code.payload == payload
    assert code.merchant_name == _expected_text(name)
    assert code.merchant_city == _expected_text(city)
    assert code.key == key
    assert code.url == url
    assert code.amount == amount
    assert code.txid == txid
    assert code.info == (_expected_text(info) if info is not None else None)
    assert code.postal_code == postal_code
    assert code.recurrence_url == recurrence
    assert code.is_dynamic == (mode == "dynamic")
    assert code.is_composite == (recurrence is not None)
    assert code.is_recurrence_only == (mode == "recurrence")
    assert code.is_single_use == (single_use or mode == "dynamic")


def _parse_or_refuse(text: str) -> None:
    try:
        result = parse(text)
    except BrCodeError as exc:
        assert CODE_PATTERN.match(exc.code)
    else:
        assert isinstance(result, BrCode)


@given(st.text())
def test_parse_arbitrary_text_only_raises_brcode_error(text):
    _parse_or_refuse(text)


@given(st.text(alphabet="0123456789.*-/abcBR ", max_size=300))
def test_parse_tlv_like_text_only_raises_brcode_error(text):
    _parse_or_refuse(text)
    _parse_or_refuse(with_crc(text))


_EDITS = st.lists(
    st.tuples(
        st.sampled_from(["delete", "replace", "insert"]),
        st.integers(min_value=0, max_value=400),
        st.sampled_from(list("0123456789" + "0123456789" + "abcXYZ.*/ -é")),
    ),
    min_size=1,
    max_size=4,
)


@FIXTURE_OK
@given(data=st.data(), edits=_EDITS, fix_crc=st.booleans())
def test_parse_mutated_payloads_only_raises_brcode_error(vectors, data, edits, fix_crc):
    payload = data.draw(st.sampled_from([v["payload"] for v in vectors["brcode"]]))
    body = body_of(payload)
    for action, position, char in edits:
        index = position % (len(body) + 1)
        if action == "delete":
            body = body[:index] + body[index + 1 :]
        elif action == "replace":
            body = body[:index] + char + body[index + 1 :]
        else:
            body = body[:index] + char + body[index:]
    _parse_or_refuse(with_crc(body) if fix_crc else body + payload[-8:])


@FIXTURE_OK
@given(data=st.data(), value=st.text(alphabet="0123456789.*abBR-", max_size=30))
def test_parse_payloads_with_one_field_value_replaced(vectors, data, value):
    # Keeps the outer TLV consistent so the semantic checks behind the CRC are exercised.
    payload = data.draw(st.sampled_from([v["payload"] for v in vectors["brcode"]]))
    body = body_of(payload)
    fields: list[str] = []
    pos = 0
    while pos < len(body):
        length = int(body[pos + 2 : pos + 4])
        fields.append(body[pos : pos + 4 + length])
        pos += 4 + length
    index = data.draw(st.integers(min_value=0, max_value=len(fields) - 1))
    fields[index] = field(fields[index][:2], value)
    _parse_or_refuse(with_crc("".join(fields)))


def test_module_exports():
    assert set(brcode.__all__) >= {"BrCode", "build", "crc16", "parse"}
