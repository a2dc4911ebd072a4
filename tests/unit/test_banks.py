"""The bank table (domain): the central bank's list read whatever its encoding, separator and
quoting, every unreadable row reported; lookups by ISPB, COMPE code and a piece of a name."""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from treasury_app.domain.banks import (
    Bank,
    BankTable,
    BankTableFormatError,
    StrListError,
    decode_list,
    parse_str_list,
    table_from_json,
    table_to_json,
)

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "banks" / "ParticipantesSTRport-sample.csv"

GOOD = {
    "00000000": ("001", "Banco do Brasil S.A."),
    "00038166": (None, "Banco Central do Brasil"),
    "00360305": ("104", "Caixa Econômica Federal"),
    "60701190": ("341", "Itaú Unibanco S.A."),
    "00122327": ("539", "SANTINVEST S.A. - CREDITO, FINANCIAMENTO E INVESTIMENTOS"),
    "00416968": ("077", "Banco Inter S.A."),
    "60746948": ("237", "Banco Bradesco S.A."),
    "18236120": ("260", "NU PAGAMENTOS S.A. - INSTITUIÇÃO DE PAGAMENTO"),
}
BAD = [(8, "ispb"), (10, "duplicate"), (11, "columns"), (13, "compe")]


def read_sample() -> str:
    return decode_list(SAMPLE.read_bytes())


def check(text: str, lines_above: int = 0) -> None:
    read = parse_str_list(text)
    assert {b.ispb: (b.compe, b.name) for b in read.banks} == GOOD
    assert [(bad.line - lines_above, bad.reason) for bad in read.bad_rows] == BAD
    assert read.bad_rows[0].cells[:2] == ("1234ABC", "BANCO QUEBRADO")


def test_the_central_banks_file_utf8_with_bom_commas_and_quotes() -> None:
    assert SAMPLE.read_bytes().startswith(b"\xef\xbb\xbf")
    check(read_sample())


def test_windows_1252_semicolons_and_a_title_line_read_the_same() -> None:
    text = read_sample()
    # the same rows as Excel on a Brazilian Windows saves them: ';', cp1252, a title above
    lines = ["Participantes do STR;;;;;;"]
    for row in csv.reader(io.StringIO(text)):
        out = io.StringIO()
        csv.writer(out, delimiter=";", lineterminator="").writerow(row)
        lines.append(out.getvalue())
    data = "\r\n".join(lines).encode("cp1252")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    check(decode_list(data), lines_above=1)


def test_columns_are_found_by_name_in_any_order() -> None:
    text = "Nome_Extenso;ISPB;Numero_Codigo\nBanco Safra S.A.;58160789;422\n"
    safra = Bank("58160789", "422", "Banco Safra S.A.", "Banco Safra S.A.")
    assert parse_str_list(text).banks == (safra,)


def test_a_file_that_is_not_the_list_is_refused_whole() -> None:
    with pytest.raises(StrListError):
        parse_str_list("chave;valor\nabc;1\n")
    with pytest.raises(StrListError):
        parse_str_list("ISPB;Valor\n00000000;1\n")


@given(st.text(max_size=300))
def test_any_text_is_a_list_or_a_clear_refusal(text: str) -> None:
    try:
        read = parse_str_list(text)
    except StrListError:
        return
    assert all(len(bank.ispb) == 8 for bank in read.banks)


def table() -> BankTable:
    return BankTable(
        banks=(
            Bank("00000000", "001", "BCO DO BRASIL S.A.", "Banco do Brasil S.A."),
            Bank("60701190", "341", "ITAÚ UNIBANCO S.A.", "Itaú Unibanco S.A."),
            Bank("18236120", "260", "NU PAGAMENTOS S.A.", "Nu Pagamentos S.A."),
            Bank("92702067", "041", "BCO DO ESTADO DO RS S.A.", "Banco do Estado do RS S.A."),
            Bank("00038166", None, "Bacen", "Banco Central do Brasil"),
        ),
        as_of=dt.date(2026, 12, 1),
        source="test",
    )


def test_lookup_by_ispb_and_by_compe_code() -> None:
    banks = table()
    assert banks.by_ispb("60701190").name == "Itaú Unibanco S.A."  # type: ignore[union-attr]
    assert banks.by_ispb("12345678") is None
    assert banks.by_compe("1") == banks.by_compe("001") == banks.by_ispb("00000000")
    assert banks.by_compe("999") is None
    assert banks.by_compe("abc") is None


def test_search_by_name_ignores_case_and_accents_and_knows_common_names() -> None:
    banks = table()
    assert [b.ispb for b in banks.search("itau")] == ["60701190"]
    assert [b.ispb for b in banks.search("ITAÚ uni")] == ["60701190"]
    assert [b.ispb for b in banks.search("nubank")] == ["18236120"]
    assert [b.ispb for b in banks.search("banrisul")] == ["92702067"]
    assert [b.ispb for b in banks.search("341")] == ["60701190"]
    assert [b.ispb for b in banks.search("banco do")][:2] == ["00000000", "92702067"]
    assert banks.search("   ") == []


def test_the_table_survives_its_json() -> None:
    banks = table()
    assert table_from_json(table_to_json(banks)) == banks
    with pytest.raises(BankTableFormatError):
        table_from_json('{"format": 99, "banks": []}')
    with pytest.raises(BankTableFormatError):
        table_from_json("[]")


def test_the_shipped_table_is_the_central_banks_whole_dated_list() -> None:
    shipped = Path(__file__).resolve().parents[2] / "resources" / "banks.json"
    listed = table_from_json(shipped.read_text("utf-8"))
    assert not listed.partial
    assert "Banco Central do Brasil" in listed.source
    assert listed.as_of is not None
    assert len(listed.banks) > 400  # the STR participants, not a hand-made seed
    codes = {bank.ispb: bank.compe for bank in listed.banks}
    assert len(set(codes.values()) - {None}) == len([c for c in codes.values() if c])  # unique
    assert codes["00000000"] == "001"
    assert codes["00360305"] == "104"
    assert codes["60746948"] == "237"
    assert codes["60701190"] == "341"
    assert codes["90400888"] == "033"
    assert codes["18236120"] == "260"


@given(st.lists(st.text(max_size=12), min_size=1, max_size=6), st.sampled_from(";,\t"))
def test_any_rows_under_the_header_are_banks_or_bad_rows(cells: list[str], sep: str) -> None:
    text = f"ISPB{sep}Nome_Reduzido{sep}Número_Código\n" + sep.join(cells) + "\n"
    try:
        read = parse_str_list(text)
    except StrListError:
        return  # a NUL byte: not a list this reads
    assert all(len(bank.ispb) == 8 and bank.name for bank in read.banks)
    assert all(bank.compe is None or len(bank.compe) == 3 for bank in read.banks)
