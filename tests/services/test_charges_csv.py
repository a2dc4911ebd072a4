"""Reading batch files of charges with a due date (``parse_batch_csv``): separators, header,
amounts and dates in Brazilian and ISO forms, and every bad row reported with its line and
column (all of them, not the first). Pure: no bank, no ledger.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from treasury_app.services.charges import (
    MAX_BATCH_MEMBERS,
    BatchParseResult,
    BatchRow,
    parse_batch_csv,
)
from treasury_app.ui.rule_words import rule_text

TODAY = dt.date(2026, 11, 18)
CPF = "52998224725"
CNPJ = "11222333000181"


def where(result: BatchParseResult) -> list[tuple[int, str]]:
    return [(e.line, e.column) for e in result.errors]


def test_semicolon_file_with_header() -> None:
    text = (
        "nome;cpf_cnpj;valor;vencimento;descricao\n"
        "Maria Souza;529.982.247-25;1.234,56;15/12/2026;Mensalidade\n"
        "Empresa Ltda;11.222.333/0001-81;1234.5;2026-12-20;\n"
        "José;52998224725;0,99;1/2/2027;Taxa de adesão\n"
    )
    result = parse_batch_csv(text, today=TODAY)
    assert result.ok and result.errors == ()
    assert (result.separator, result.has_header) == (";", True)
    assert result.rows == (
        BatchRow(2, "Maria Souza", CPF, Decimal("1234.56"), dt.date(2026, 12, 15), "Mensalidade"),
        BatchRow(3, "Empresa Ltda", CNPJ, Decimal("1234.50"), dt.date(2026, 12, 20), None),
        BatchRow(4, "José", CPF, Decimal("0.99"), dt.date(2027, 2, 1), "Taxa de adesão"),
    )
    assert result.total == Decimal("2470.05")
    assert all(isinstance(row.amount, Decimal) for row in result.rows)


def test_comma_file_without_header_quoted_amounts_crlf_and_bom() -> None:
    text = (
        '\ufeffAna,529.982.247-25,"1.234,56",15/12/2026,"Pedido 1, parcela 2"\r\n'
        "Bia,11222333000181,10.00,2026-12-01\r\n"
    )
    result = parse_batch_csv(text)
    assert result.ok and (result.separator, result.has_header) == (",", False)
    assert [(r.line, r.name, r.amount, r.description) for r in result.rows] == [
        (1, "Ana", Decimal("1234.56"), "Pedido 1, parcela 2"),
        (2, "Bia", Decimal("10.00"), None),
    ]


def test_tab_separated_header_in_another_order_with_aliases() -> None:
    text = "Vencimento\tValor\tDocumento\tNome\n20/12/2026\t10,00\t529.982.247-25\tAna\n"
    result = parse_batch_csv(text)
    assert result.ok and result.separator == "\t" and result.has_header
    [row] = result.rows
    assert (row.line, row.name, row.document, row.amount, row.due_date) == (
        2,
        "Ana",
        CPF,
        Decimal("10.00"),
        dt.date(2026, 12, 20),
    )
    # "CPF/CNPJ" and "Descrição" (accent, capital letters) name their columns too
    accented = parse_batch_csv(
        "Nome;CPF/CNPJ;Valor;Vencimento;Descrição\nAna;52998224725;1;01/12/2026;x"
    )
    assert accented.ok and accented.rows[0].description == "x"


def test_every_bad_row_is_reported_with_line_and_column() -> None:
    text = (
        "nome;cpf_cnpj;valor;vencimento;descricao\n"  # 1
        "Ana;529.982.247-25;10,00;15/12/2026;ok\n"  # 2 good
        ";529.982.247-26;0,00;31/02/2026;\n"  # 3 four errors
        "\n"  # 4 blank: skipped, still counted
        "Bia;123;-5;2026/12/01\n"  # 5 three errors
        "Caio;52998224725;1,234;01/12/2025\n"  # 6 two errors
        "Duda;52998224725;abc;15/12/2026;" + "x" * 141 + "\n"  # 7 two errors
        "Edu;52998224725;10\n"  # 8 a column missing
        "Fábio;52998224725;10,00;15/12/2026;ok;extra\n"  # 9 a column too many
        "Gil;52998224725;9.999.999.999,99;15/12/2026\n"  # 10 good: the largest amount
    )
    result = parse_batch_csv(text, today=TODAY)
    assert not result.ok
    assert [r.line for r in result.rows] == [2, 10]
    assert result.rows[1].amount == Decimal("9999999999.99")
    assert where(result) == [
        (3, "nome"),
        (3, "cpf_cnpj"),
        (3, "valor"),
        (3, "vencimento"),
        (5, "cpf_cnpj"),
        (5, "valor"),
        (5, "vencimento"),
        (6, "valor"),
        (6, "vencimento"),
        (7, "valor"),
        (7, "descricao"),
        (8, "vencimento"),
        (9, ""),
    ]
    assert result.bad_lines == (3, 5, 6, 7, 8, 9)
    by_place = {(e.line, e.column): e for e in result.errors}
    assert rule_text(by_place[(3, "cpf_cnpj")].reason).startswith(
        "The CPF check digits do not match"
    )
    assert rule_text(by_place[(3, "valor")].reason) == "The amount must be greater than zero."
    assert rule_text(by_place[(3, "vencimento")].reason) == "31/02/2026 is not a real date."
    assert rule_text(by_place[(5, "valor")].reason) == "The amount cannot be negative."
    assert "DD/MM/YYYY" in rule_text(by_place[(5, "vencimento")].reason)
    assert "2 decimal places" in rule_text(by_place[(6, "valor")].reason)
    assert rule_text(by_place[(6, "vencimento")].reason) == "The due date 01/12/2025 has passed."
    assert rule_text(by_place[(8, "vencimento")].reason) == "This column is missing."
    assert "6 columns, at most 5" in rule_text(by_place[(9, "")].reason)
    assert [e.column_number for e in result.errors[:4]] == [1, 2, 3, 4]
    assert str(by_place[(3, "nome")]) == "line 3, column nome: charge_batch.name_missing"
    assert str(by_place[(9, "")]).startswith("line 9: ")


def test_without_today_past_dates_are_kept() -> None:
    result = parse_batch_csv(f"Ana;{CPF};10,00;01/01/2020")
    assert result.ok and result.rows[0].due_date == dt.date(2020, 1, 1)


def test_an_amount_cut_by_the_comma_separator_is_explained() -> None:
    result = parse_batch_csv(f'Ana,{CPF},1.234,56,15/12/2026\nBia,{CPF},"1.234,56",15/12/2026')
    assert where(result) == [(1, "valor")]
    assert "quote it" in rule_text(result.errors[0].reason)
    assert [r.line for r in result.rows] == [2]
    too_many = parse_batch_csv(f"Ana,{CPF},1234,56,15/12/2026,texto")
    assert where(too_many) == [(1, "")] and "quote amounts" in rule_text(too_many.errors[0].reason)


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("nome;cpf_cnpj;valor;telefone;vencimento", [(1, "telefone")]),
        ("nome;cpf_cnpj;valor", [(1, "vencimento")]),
        ("nome;valor;valor;vencimento;cpf", [(1, "valor")]),
    ],
)
def test_bad_headers_are_reported(header: str, expected: list[tuple[int, str]]) -> None:
    result = parse_batch_csv(f"{header}\nAna;{CPF};10,00;15/12/2026\n")
    assert where(result) == expected and result.rows == () and result.has_header


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("", 1),
        ("   \n\n", 1),
        ("nome;cpf_cnpj;valor;vencimento\n", 1),
        ("\n\nnome;cpf;valor;vencimento\n\n", 4),
    ],
)
def test_a_file_without_charges(text: str, line: int) -> None:
    result = parse_batch_csv(text)
    assert not result.ok and result.rows == ()
    assert [(e.line, rule_text(e.reason)) for e in result.errors] == [
        (line, "The file has no charges.")
    ]


def test_at_most_five_thousand_members() -> None:
    rows = "".join(f"Cliente {n};{CPF};1,00;15/12/2026\n" for n in range(MAX_BATCH_MEMBERS + 1))
    result = parse_batch_csv(rows)
    assert len(result.rows) == MAX_BATCH_MEMBERS
    assert where(result) == [(MAX_BATCH_MEMBERS + 1, "")]
    assert result.total == Decimal(MAX_BATCH_MEMBERS)


def test_not_text_is_a_programming_error() -> None:
    with pytest.raises(TypeError):
        parse_batch_csv(b"nome;cpf")  # type: ignore[arg-type]


_cells = st.text(alphabet=st.sampled_from(list('aZ09,.;/-"\t \n\r\x00é')), max_size=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_cells, max_size=7), max_size=6), st.sampled_from([";", ",", "\t"]))
def test_any_file_yields_rows_or_located_errors_never_a_crash(
    lines: list[list[str]], separator: str
) -> None:
    text = "\n".join(separator.join(cells) for cells in lines)
    result = parse_batch_csv(text, today=TODAY)
    assert isinstance(result, BatchParseResult)
    assert result.rows or result.errors
    for error in result.errors:
        assert error.line >= 1 and error.reason.code
    for row in result.rows:
        assert row.amount > 0 and row.amount == row.amount.quantize(Decimal("0.01"))
        assert row.due_date >= TODAY and len(row.document) in (11, 14) and row.name
    assert {r.line for r in result.rows}.isdisjoint(result.bad_lines)


@settings(max_examples=200, deadline=None)
@given(
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("9999999999.99"), places=2),
    st.dates(min_value=TODAY, max_value=dt.date(2099, 12, 31)),
    st.booleans(),
)
def test_any_good_row_is_read_back_exactly(amount: Decimal, due: dt.date, iso: bool) -> None:
    brl = f"{amount:,.2f}".translate(str.maketrans(",.", ".,"))
    when = due.isoformat() if iso else f"{due:%d/%m/%Y}"
    result = parse_batch_csv(f"Cliente;{CPF};{brl};{when}", today=TODAY)
    assert result.ok
    [row] = result.rows
    assert (row.amount, row.due_date, row.line) == (amount, due, 1)
