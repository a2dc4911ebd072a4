"""Tests of treasury_app.domain.identifiers: txid, idempotency key, idRec, endToEndId, rtrId."""

import datetime as dt
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.errors import CODE_PATTERN, IdentifierError
from treasury_app.domain.identifiers import (
    LOCATION_ID_MAX,
    IdRec,
    check_location_id,
    check_txid,
    is_valid_e2eid,
    is_valid_idempotency_key,
    is_valid_idrec,
    is_valid_idsolicrec,
    is_valid_rtrid,
    is_valid_txid,
    new_e2eid,
    new_idempotency_key,
    new_idrec,
    new_idsolicrec,
    new_rtrid,
    new_txid,
    parse_idrec,
)

ALNUM = re.compile(r"[a-zA-Z0-9]+")

# --- txid and idempotency key ----------------------------------------------------------------


def test_new_txid_default_length_and_alphabet():
    txid = new_txid()
    assert len(txid) == 35
    assert ALNUM.fullmatch(txid)
    assert is_valid_txid(txid)
    assert new_txid() != txid


@pytest.mark.parametrize("length", [26, 30, 35])
def test_new_txid_lengths(length):
    assert len(new_txid(length)) == length


@pytest.mark.parametrize("length", [0, 25, 36, -1])
def test_new_txid_rejects_other_lengths(length):
    with pytest.raises(IdentifierError) as refused:
        new_txid(length)
    assert (refused.value.code, refused.value.params) == (
        "txid.length",
        {"minimum": 26, "maximum": 35, "length": length},
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a" * 26, True),
        ("3136957d93134f2184b369e8f1c0729d", True),
        ("a" * 25, False),
        ("a" * 36, False),
        ("a" * 25 + "-", False),
        ("a" * 25 + "٣", False),
        ("a" * 26 + "\n", False),
        ("", False),
    ],
)
def test_is_valid_txid(value, expected):
    assert is_valid_txid(value) is expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("a" * 25, "txid.length"),
        ("a" * 36, "txid.length"),
        ("", "txid.length"),
        ("a" * 25 + "-", "txid.characters"),
        ("a" * 25 + "٣", "txid.characters"),
        ("ação" + "a" * 26, "txid.characters"),
        ("a" * 26 + "\n", "txid.characters"),
    ],
)
def test_check_txid_says_which_rule(value, code):
    with pytest.raises(IdentifierError) as refused:
        check_txid(value)
    assert refused.value.code == code and refused.value.field == "txid"
    if code == "txid.length":
        assert refused.value.params == {"minimum": 26, "maximum": 35, "length": len(value)}


@given(st.text(max_size=40))
def test_check_txid_agrees_with_is_valid_txid(value):
    try:
        assert check_txid(value) == value and is_valid_txid(value)
    except IdentifierError:
        assert not is_valid_txid(value)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("1", 1), (" 42 ", 42), (7, 7), (str(LOCATION_ID_MAX), LOCATION_ID_MAX)],
)
def test_check_location_id_reads_a_whole_number(value, expected):
    assert check_location_id(value) == expected


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", "location.id_missing"),
        ("   ", "location.id_missing"),
        ("12a", "location.id_form"),
        ("-3", "location.id_form"),
        ("１２", "location.id_form"),  # full-width digits are not ASCII digits
        ("0", "location.id_range"),
        (0, "location.id_range"),
        (str(LOCATION_ID_MAX + 1), "location.id_range"),
        ("9" * 400, "location.id_range"),
    ],
)
def test_check_location_id_says_which_rule(value, code):
    with pytest.raises(IdentifierError) as refused:
        check_location_id(value)
    assert refused.value.code == code and refused.value.field == "loc.id"


def test_idempotency_key():
    key = new_idempotency_key()
    assert len(key) == 32
    assert ALNUM.fullmatch(key)
    assert is_valid_idempotency_key(key)
    assert new_idempotency_key() != key


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("a", True),
        ("A" * 50, True),
        ("A" * 51, False),
        ("", False),
        ("abc-def", False),
        ("abc def", False),
        ("ação", False),
        ("١٢٣", False),
        ("abc\n", False),
    ],
)
def test_is_valid_idempotency_key(value, expected):
    assert is_valid_idempotency_key(value) is expected


# --- idRec and idSolicRec --------------------------------------------------------------------


def test_parse_idrec_spec_example():
    rec = parse_idrec("RR1234567820240115abcdefghijk")
    assert rec == IdRec(
        value="RR1234567820240115abcdefghijk",
        retry_allowed=True,
        ispb="12345678",
        date=dt.date(2024, 1, 15),
        sequence="abcdefghijk",
    )
    assert parse_idrec(" RN123456782024011577825445612\n").retry_allowed is False
    with pytest.raises(AttributeError):
        rec.ispb = "x"  # type: ignore[misc]


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("", "idrec.empty"),
        ("RR1234567820240115abcdefghij", "idrec.length"),
        ("XR1234567820240115abcdefghijk", "idrec.prefix"),
        ("RX1234567820240115abcdefghijk", "idrec.retry_flag"),
        ("RR12345a7820240115abcdefghijk", "idrec.ispb"),
        ("RR1234567820240230abcdefghijk", "idrec.date"),
        ("RR1234567800000101abcdefghijk", "idrec.date"),
        ("RR1234567820241301abcdefghijk", "idrec.date"),
        ("RR12345678٢٠٢٤0115abcdefghijk", "idrec.date"),
        ("RR1234567820240115abcdefghi-k", "idrec.sequence"),
        ("RR1234567820240115abcdefghiçk", "idrec.sequence"),
        ("R" * 100_000, "idrec.length"),
    ],
)
def test_parse_idrec_rejects(value, code):
    with pytest.raises(IdentifierError) as refused:
        parse_idrec(value)
    assert refused.value.code == code
    assert not is_valid_idrec(value)


def test_is_valid_idrec_is_exact():
    assert is_valid_idrec("RR1234567820240115abcdefghijk")
    assert not is_valid_idrec(" RR1234567820240115abcdefghijk")


def test_new_idrec():
    value = new_idrec("12345678", retry_allowed=False, on=dt.date(2024, 2, 29))
    rec = parse_idrec(value)
    assert value.startswith("RN1234567820240229")
    assert (rec.retry_allowed, rec.ispb, rec.date) == (False, "12345678", dt.date(2024, 2, 29))
    assert new_idrec("0003816A", True, dt.date(2026, 1, 1)).startswith("RR0003816A20260101")


@pytest.mark.parametrize("ispb", ["1234567", "123456789", "1234567a", "", "１２３４５６７８"])
def test_generators_reject_bad_ispb(ispb):
    day = dt.date(2024, 1, 15)
    moment = dt.datetime(2024, 1, 15, 10, 30)
    for make in (
        lambda: new_idrec(ispb, True, day),
        lambda: new_idsolicrec(ispb, day),
        lambda: new_e2eid(ispb, moment),
        lambda: new_rtrid(ispb, moment),
    ):
        with pytest.raises(IdentifierError) as refused:
            make()
        assert refused.value.code == "ispb.form"


def test_idsolicrec():
    assert is_valid_idsolicrec("SC1234567820240115abcdefghijk")
    value = new_idsolicrec("91193552", dt.date(2023, 12, 20))
    assert value.startswith("SC9119355220231220")
    assert is_valid_idsolicrec(value)
    for bad in [
        "RR1234567820240115abcdefghijk",
        "SC1234567820240132abcdefghijk",
        "SC1234567820240115abcdefghij",
        "SC12345678202401150bcdefghi_k",
        "",
    ]:
        assert not is_valid_idsolicrec(bad)


# --- endToEndId and rtrId --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("E9040088820210128000800123873170", True),
        ("E0003816620240229235912345678901", True),
        ("E0003816A20240115103000000000000", True),
        ("D9040088820210128000800123873170", False),
        ("E904008882021012800080012387317", False),
        ("E90400888202101280008001238731700", False),
        ("E9040088820210230000800123873170", False),
        ("E9040088820210128240000123873170", False),
        ("E9040088820210128006000123873170", False),
        ("E90400888202101280008001238731-0", False),
        ("e9040088820210128000800123873170", False),
        ("", False),
    ],
)
def test_is_valid_e2eid(value, expected):
    assert is_valid_e2eid(value) is expected
    if value.startswith("E"):
        assert is_valid_rtrid("D" + value[1:]) is expected


def test_new_e2eid_uses_utc():
    brt = dt.timezone(dt.timedelta(hours=-3))
    value = new_e2eid("00038166", dt.datetime(2024, 12, 31, 22, 15, tzinfo=brt))
    assert value.startswith("E00038166202501010115")
    assert is_valid_e2eid(value)
    naive = new_e2eid("00038166", dt.datetime(2024, 12, 31, 22, 15))
    assert naive.startswith("E00038166202412312215")


def test_new_rtrid():
    value = new_rtrid("12345678", dt.datetime(2024, 1, 15, 9, 5, tzinfo=dt.UTC))
    assert value.startswith("D12345678202401150905")
    assert len(value) == 32
    assert is_valid_rtrid(value)
    assert not is_valid_e2eid(value)


# --- properties ------------------------------------------------------------------------------

ispbs = st.from_regex(r"[0-9A-Z]{8}", fullmatch=True)
dates = st.dates(min_value=dt.date(1000, 1, 1))
datetimes = st.datetimes(min_value=dt.datetime(1000, 1, 2), max_value=dt.datetime(9999, 12, 30))


@given(st.integers(min_value=26, max_value=35))
def test_generated_txids_validate(length):
    assert is_valid_txid(new_txid(length))


@given(ispbs, st.booleans(), dates)
def test_generated_idrecs_parse(ispb, retry, day):
    value = new_idrec(ispb, retry, day)
    rec = parse_idrec(value)
    assert (rec.value, rec.retry_allowed, rec.ispb, rec.date) == (value, retry, ispb, day)
    assert is_valid_idrec(value)


@given(ispbs, dates)
def test_generated_idsolicrecs_validate(ispb, day):
    assert is_valid_idsolicrec(new_idsolicrec(ispb, day))


@given(ispbs, datetimes)
def test_generated_spi_ids_validate(ispb, moment):
    assert is_valid_e2eid(new_e2eid(ispb, moment))
    assert is_valid_rtrid(new_rtrid(ispb, moment))


@given(st.text())
def test_arbitrary_text(text):
    try:
        assert isinstance(parse_idrec(text), IdRec)
    except IdentifierError as exc:
        assert CODE_PATTERN.match(exc.code)
    for check in (
        is_valid_txid,
        is_valid_idempotency_key,
        is_valid_idrec,
        is_valid_idsolicrec,
        is_valid_e2eid,
        is_valid_rtrid,
    ):
        assert isinstance(check(text), bool)


@given(st.from_regex(r"R[RN][0-9A-Z]{8}[0-9]{8}[a-zA-Z0-9]{11}", fullmatch=True))
def test_idrec_shaped_text(text):
    try:
        rec = parse_idrec(text)
    except IdentifierError as exc:
        assert exc.code == "idrec.date"
    else:
        assert rec.value == text.strip()
