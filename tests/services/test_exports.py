"""The two CSV export formats (for a pt-BR Excel, machine-readable): amounts, instants across
the UTC-to-Brasília day boundary, text Excel would change, the byte-order mark and the
separator; the statement written in both; and, on the way back in, the charge batch refusing a
CPF/CNPJ that Excel turned into scientific notation."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from treasury_app.api.accounts.models import CreditDebitType, Transaction
from treasury_app.domain.documents import is_scientific_notation, normalize_document
from treasury_app.domain.errors import DocumentError
from treasury_app.services.charges.batch_file import parse_batch_csv
from treasury_app.services.exports import (
    ExportFormat,
    amount_cell,
    csv_bytes,
    date_cell,
    datetime_cell,
    text_cell,
)
from treasury_app.services.statement import CSV_COLUMNS, export_csv

EXCEL, MACHINE = ExportFormat.EXCEL, ExportFormat.MACHINE
BOM = b"\xef\xbb\xbf"


# Amounts -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("value", "excel", "machine"),
    [
        (Decimal("1234.56"), "1234,56", "1234.56"),
        (Decimal("-1234.56"), "-1234,56", "-1234.56"),
        (Decimal("1234567.8"), "1234567,80", "1234567.80"),  # no thousands separator
        (Decimal("9999999999.99"), "9999999999,99", "9999999999.99"),
        (Decimal("0.01"), "0,01", "0.01"),
        (Decimal("-0.00"), "0,00", "0.00"),  # never "-0,00"
        (Decimal("1E+3"), "1000,00", "1000.00"),  # no exponent, even from one
        (Decimal("12"), "12,00", "12.00"),
        (None, "", ""),
    ],
)
def test_amounts_are_numbers_for_each_format(
    value: Decimal | None, excel: str, machine: str
) -> None:
    assert amount_cell(value, EXCEL) == excel
    assert amount_cell(value, MACHINE) == machine
    if value is not None:
        # What a pt-BR Excel does with the cell: a comma decimal, no grouping, a plain number.
        assert Decimal(excel.replace(",", ".")) == value.quantize(Decimal("0.01"))


# Instants and dates --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("moment", "excel", "machine"),
    [
        # 02:30 UTC is still the day before in Brasília (UTC-3).
        (
            dt.datetime(2026, 11, 19, 2, 30, tzinfo=dt.UTC),
            "18/11/2026 23:30",
            "2026-11-18T23:30:00-03:00",
        ),
        (
            dt.datetime(2026, 11, 19, 3, 0, tzinfo=dt.UTC),
            "19/11/2026 00:00",
            "2026-11-19T00:00:00-03:00",
        ),
        (
            dt.datetime(2026, 12, 31, 23, 59, tzinfo=ZoneInfo("America/Sao_Paulo")),
            "31/12/2026 23:59",
            "2026-12-31T23:59:00-03:00",
        ),
        # Another zone is converted, not read as Brasília.
        (
            dt.datetime(2026, 1, 1, 1, 15, tzinfo=ZoneInfo("Europe/Lisbon")),
            "31/12/2025 22:15",
            "2025-12-31T22:15:00-03:00",
        ),
        # A stamp of the journal (ISO text, UTC), with Z or with an offset.
        ("2026-11-19T01:05:09.123Z", "18/11/2026 22:05", "2026-11-18T22:05:09.123000-03:00"),
        ("2026-11-18T13:00:00+00:00", "18/11/2026 10:00", "2026-11-18T10:00:00-03:00"),
    ],
)
def test_instants_in_brasilia_for_excel_and_for_programs(
    moment: dt.datetime | str, excel: str, machine: str
) -> None:
    assert datetime_cell(moment, EXCEL) == excel
    assert datetime_cell(moment, MACHINE) == machine


def test_an_unreadable_stamp_stays_as_it_is_and_a_naive_instant_is_refused() -> None:
    assert datetime_cell("", EXCEL) == datetime_cell(None, MACHINE) == ""
    assert datetime_cell("yesterday", EXCEL) == "yesterday"
    assert datetime_cell("=1+1", EXCEL) == "'=1+1"  # still defused
    assert datetime_cell("2026-11-18T13:00:00", EXCEL) == "2026-11-18T13:00:00"  # no zone
    naive = dt.datetime(2026, 11, 18, 13, 0)
    for export_format in ExportFormat:
        with pytest.raises(ValueError, match="zone"):
            datetime_cell(naive, export_format)


def test_dates() -> None:
    day = dt.date(2026, 3, 5)
    assert (date_cell(day, EXCEL), date_cell(day, MACHINE)) == ("05/03/2026", "2026-03-05")
    assert date_cell(None, EXCEL) == ""


# Text ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "excel"),
    [
        ("01234567890", '="01234567890"'),  # a CPF with a leading zero: kept as text
        ("11222333000181", '="11222333000181"'),  # a CNPJ: never 1,12223E+13
        ("12345678901234567890", '="12345678901234567890"'),
        ("52998224725", "52998224725"),  # 11 digits: Excel shows it whole
        ("0", "0"),
        ("Gráfica São João", "Gráfica São João"),
        ("=HYPERLINK(1)", "'=HYPERLINK(1)"),
        ("+5511999999999", "'+5511999999999"),
        ("-10 de desconto", "'-10 de desconto"),
        ("", ""),
    ],
)
def test_text_is_defused_and_digits_stay_as_typed_in_excel(text: str, excel: str) -> None:
    assert text_cell(text, EXCEL) == excel
    assert text_cell(text, MACHINE) == (excel if not excel.startswith('="') else text)


def test_csv_bytes_bom_separator_and_line_ends() -> None:
    header = ["Data", "Favorecido", "Valor"]
    rows = [
        ["18/11/2026 10:00", "João; Ltda", "1234,56"],
        ["19/11/2026 00:00", 'Nota "1"\nsegunda linha', "-0,01"],
    ]
    data, count = csv_bytes(header, rows, EXCEL, raw_columns=(0, 2))
    assert count == 2
    assert data.startswith(BOM + b"Data;Favorecido;Valor\r\n")
    assert "João".encode() in data  # UTF-8: Excel reads the accents after the BOM
    back = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert back == [header, *rows]
    assert data.endswith(b"-0,01\r\n")

    machine, count = csv_bytes(header, [["2026-11-18", "=x", "1.00"]], MACHINE, raw_columns=(2,))
    assert count == 1
    assert not machine.startswith(BOM)
    assert machine.decode("utf-8") == "Data;Favorecido;Valor\r\n2026-11-18;'=x;1.00\r\n"
    assert csv_bytes(header, [], EXCEL) == (BOM + b"Data;Favorecido;Valor\r\n", 0)


# The statement in both formats ---------------------------------------------------------------
def _entry(**fields: object) -> Transaction:
    base: dict[str, object] = {
        "id": 1,
        "createdAt": "2026-11-19T02:30:00Z",
        "creditDebitType": "DEBIT",
        "transactionType": "PIX",
        "amount": "1234.5",
        "balanceAfter": "-10.00",
        "description": "Pagamento à Gráfica",
        "counterparty": {"name": "Gráfica São João", "document": "01234567000195"},
        "endToEndId": "E1823612020261119023000000000001",
    }
    base.update(fields)
    return Transaction.model_validate(base)


def test_the_statement_for_excel_and_for_programs(tmp_path: Path) -> None:
    entries = [_entry(), _entry(id=2, creditDebitType="CREDIT", amount="0.1", balanceAfter=None)]
    assert entries[0].credit_debit_type == CreditDebitType.DEBIT

    excel = tmp_path / "excel.csv"
    assert export_csv(entries, excel, export_format=EXCEL) == 2
    raw = excel.read_bytes()
    assert raw.startswith(BOM) and b"\r\n" in raw
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline=""), delimiter=";"))
    assert tuple(rows[0]) == CSV_COLUMNS
    first, second = rows
    assert first["created_at"] == "18/11/2026 23:30"  # the Brasília day, not the UTC one
    assert (first["amount"], first["signed_amount"], first["balance_after"]) == (
        "1234,50",
        "-1234,50",
        "-10,00",
    )
    assert first["counterparty_name"] == "Gráfica São João"
    assert first["counterparty_document"] == '="01234567000195"'  # the zero survives Excel
    assert (second["signed_amount"], second["balance_after"]) == ("0,10", "")

    machine = tmp_path / "machine.csv"
    assert export_csv(entries, machine) == 2  # machine-readable unless asked: as before
    raw = machine.read_bytes()
    assert not raw.startswith(BOM)
    first = next(csv.DictReader(io.StringIO(raw.decode("utf-8"), newline=""), delimiter=";"))
    assert first["created_at"] == "2026-11-18T23:30:00-03:00"
    assert (first["signed_amount"], first["counterparty_document"]) == (
        "-1234.50",
        "01234567000195",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["excel.csv", "machine.csv"]

    stream = io.StringIO(newline="")
    export_csv(entries, stream, export_format=EXCEL)
    assert stream.getvalue().startswith("\ufeffid;") and "18/11/2026 23:30" in stream.getvalue()


# Back in: what Excel did to a CPF/CNPJ column ---------------------------------------------
@pytest.mark.parametrize("shown", ["1,12E+13", "5.29982E+10", "1E+13", "1,12223E+13"])
def test_a_document_in_scientific_notation_is_refused_with_what_to_do(shown: str) -> None:
    assert is_scientific_notation(shown)
    with pytest.raises(DocumentError) as error:
        normalize_document(shown)
    assert (error.value.code, error.value.params) == (
        "document.scientific_notation",
        {"text": shown},
    )

    charges = parse_batch_csv(
        "nome;cpf_cnpj;valor;vencimento\n"
        f'Maria;"{shown}";10,00;31/12/2030\n'
        "Jose;529.982.247-25;10,00;31/12/2030\n"
    )
    (refused,) = charges.errors
    assert (refused.line, refused.column) == (2, "cpf_cnpj")
    assert [row.line for row in charges.rows] == [3]


@pytest.mark.parametrize(
    "text",
    ["11222333000181", "12ABC34501DE35", "1234567890E123", "52998224725", "1,12", "E+13", ""],
)
def test_documents_and_numbers_that_are_not_scientific_notation(text: str) -> None:
    # An alphanumeric CNPJ with an E among digits never has the exponent's sign.
    assert not is_scientific_notation(text)
