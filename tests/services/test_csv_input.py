"""CSV files from outside, for both batch imports: every encoding a spreadsheet saves, every
line end, a bad line reported on its own line (the others still read), control characters
refused, caps on size and rows, a reading that can be cancelled and reports its progress."""

from __future__ import annotations

import codecs
import csv
import threading
from decimal import Decimal
from pathlib import Path

import pytest

from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import EntryKind, EntryState, NewEntry
from treasury_app.services import charges
from treasury_app.services.csv_input import (
    MAX_LINE_ERRORS,
    MAX_ROWS,
    TOO_MANY_ERRORS,
    CsvFileError,
    CsvLineError,
    CsvRecord,
    ReadCancelled,
    ReadControl,
    csv_records,
    decode_csv,
    read_csv_bytes,
    read_csv_path,
)
from treasury_app.services.payouts import PayoutsService
from treasury_app.ui.rule_words import rule_text

CPF = "52998224725"
PAYOUTS = (
    "chave;valor;descricao\nfornecedor@empresa.com.br;1.234,56;Nota de março\n{cpf};10,00;Café\n"
)
CHARGES = (
    "nome;cpf_cnpj;valor;vencimento;descricao\nJoão Araújo;{cpf};150,00;2030-01-10;Mensalidade\n"
)


class JournalOnlyEngine:
    def __init__(self, ledger: Ledger) -> None:
        self.clock = ledger.clock  # the journal's clock, as the engine's


@pytest.fixture
def payouts(ledger: Ledger) -> PayoutsService:
    return PayoutsService(JournalOnlyEngine(ledger), ledger)  # type: ignore[arg-type]


def encodings_of(text: str) -> dict[str, bytes]:
    return {
        "utf-8": text.encode("utf-8"),
        "utf-8 with BOM": codecs.BOM_UTF8 + text.encode("utf-8"),
        "utf-16 le with BOM": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        "utf-16 be with BOM": codecs.BOM_UTF16_BE + text.encode("utf-16-be"),
        "utf-16 le without BOM": text.encode("utf-16-le"),
        "utf-32 le with BOM": codecs.BOM_UTF32_LE + text.encode("utf-32-le"),
        "windows-1252": text.encode("cp1252"),
    }


LINE_ENDS = {"LF": "\n", "CRLF": "\r\n", "CR": "\r"}


# -- decoding ---------------------------------------------------------------------------------


@pytest.mark.parametrize("encoding", list(encodings_of("x")))
@pytest.mark.parametrize("end", list(LINE_ENDS))
async def test_payout_files_in_every_encoding_and_line_end_read_the_same(
    payouts: PayoutsService, encoding: str, end: str
) -> None:
    text = PAYOUTS.format(cpf=CPF).replace("\n", LINE_ENDS[end])
    raw = encodings_of(text)[encoding]
    batch = await payouts.parse_batch_csv(decode_csv(raw))
    assert batch.errors == ()
    assert [(row.line, row.review.amount, row.review.description) for row in batch.rows] == [
        (2, Decimal("1234.56"), "Nota de março"),
        (3, Decimal("10.00"), "Café"),
    ]


@pytest.mark.parametrize("encoding", list(encodings_of("x")))
@pytest.mark.parametrize("end", list(LINE_ENDS))
def test_charge_files_in_every_encoding_and_line_end_read_the_same(encoding: str, end: str) -> None:
    text = CHARGES.format(cpf=CPF).replace("\n", LINE_ENDS[end])
    parsed = charges.parse_batch_csv(decode_csv(encodings_of(text)[encoding]))
    assert parsed.errors == ()
    assert [(row.line, row.name, row.description) for row in parsed.rows] == [
        (2, "João Araújo", "Mensalidade")
    ]


def test_bytes_that_are_no_text_are_refused_with_a_way_out() -> None:
    with pytest.raises(CsvFileError, match=r"csv\.workbook"):
        decode_csv(b"PK\x03\x04\x14\x00\x06\x00" + bytes(200))
    with pytest.raises(CsvFileError, match=r"csv\.pdf"):
        decode_csv(b"%PDF-1.7\n...")
    # 0x81 is undefined in Windows-1252 and not UTF-8: the line is named.
    with pytest.raises(CsvFileError, match=r"csv.not_text \(byte='0x81', line=2\)"):
        decode_csv(b"chave;valor\nx\x81y;1,00\n")
    with pytest.raises(CsvFileError, match=r"csv.not_its_encoding \(encoding='UTF-16', line=2\)"):
        decode_csv(codecs.BOM_UTF16_LE + "a;b\n".encode("utf-16-le") + b"\x00\xdc" + b"x\x00")


def test_a_file_over_the_size_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_bytes(b"chave;valor\n" + b"x" * 5000)
    with pytest.raises(CsvFileError, match=r"csv\.too_large"):
        read_csv_bytes(path, max_bytes=4096)
    assert len(read_csv_bytes(path, max_bytes=5012)) == 5012
    text, sha256 = read_csv_path(path, max_bytes=10_000)
    assert text.startswith("chave;valor") and len(sha256) == 64


# -- lines -----------------------------------------------------------------------------------


async def test_a_cell_over_the_csv_field_limit_is_an_error_of_its_line_and_the_rest_is_read(
    payouts: PayoutsService,
) -> None:
    huge = "x" * (csv.field_size_limit() + 10)
    text = f"chave;valor\na@empresa.com.br;1,00\nb@empresa.com.br;{huge}\nc@empresa.com.br;3,00\n"
    batch = await payouts.parse_batch_csv(text)
    assert [(e.line, e.column) for e in batch.errors] == [(3, "row")]
    assert "longer than" in rule_text(batch.errors[0].reason)
    assert [row.line for row in batch.rows] == [2, 4]
    parsed = charges.parse_batch_csv(
        f"nome;cpf_cnpj;valor;vencimento\n{huge};{CPF};1,00;2030-01-10\nAna;{CPF};2,00;2030-01-10\n"
    )
    assert [(e.line, e.column) for e in parsed.errors] == [(2, "")]
    assert [row.line for row in parsed.rows] == [3]


async def test_an_unclosed_quote_is_an_error_of_the_line_it_opens_on(
    payouts: PayoutsService,
) -> None:
    text = 'chave;valor;descricao\na@empresa.com.br;1,00;"Nota 1\nb@empresa.com.br;2,00;x\n'
    batch = await payouts.parse_batch_csv(text)
    assert [(e.line, e.column) for e in batch.errors] == [(2, "row")]
    assert "quote left open" in rule_text(batch.errors[0].reason)
    assert batch.rows == ()
    # A quoted cell that spans lines legitimately closes: the file is refused all the same
    # (the error is on the line it starts), with no row that could be sent without it.
    text = 'chave;valor;descricao\na@empresa.com.br;1,00;"two\nlines"\nb@empresa.com.br;2,00;x\n'
    batch = await payouts.parse_batch_csv(text)
    assert [e.line for e in batch.errors] == [2] and "line 3" in rule_text(batch.errors[0].reason)
    assert batch.rows == ()


def _hundred_payments_quote_open_on_line_6() -> str:
    lines = [f"p{n}@empresa.com.br;{n},00;Nota {n}" for n in range(1, 101)]
    lines[4] = 'p5@empresa.com.br;5,00;"Nota 5'  # line 6 of the file
    return "chave;valor;descricao\n" + "\n".join(lines) + "\n"


async def test_a_cell_over_several_lines_refuses_the_whole_file(payouts: PayoutsService) -> None:
    records = list(csv_records(_hundred_payments_quote_open_on_line_6(), ";"))
    assert isinstance(records[-1], CsvLineError) and records[-1].whole_file
    assert not any(isinstance(r, CsvLineError) and r.whole_file for r in records[:-1])
    batch = await payouts.parse_batch_csv(_hundred_payments_quote_open_on_line_6())
    # Not 4 rows and "leave out the 1 invalid row": nothing can be sent from this file.
    assert batch.rows == () and [(e.line, e.column) for e in batch.errors] == [(6, "row")]
    assert "quote left open" in rule_text(batch.errors[0].reason)


def test_charges_a_cell_over_several_lines_refuses_the_whole_file() -> None:
    lines = [f"Cliente {n};529.982.247-25;{n},00;15/12/2030" for n in range(1, 101)]
    lines[4] = 'Cliente 5;529.982.247-25;5,00;"15/12/2030'
    result = charges.parse_batch_csv("\n".join(lines) + "\n")
    assert result.rows == () and [e.line for e in result.errors] == [5]
    assert result.errors[0].whole_file


async def test_unreadable_lines_count_toward_the_cap_and_errors_stop_at_1000(
    payouts: PayoutsService,
) -> None:
    text = "chave;valor\n" + "a\x01;1\n" * 100_000
    batch = await payouts.parse_batch_csv(text)
    assert batch.rows == () and len(batch.errors) == MAX_LINE_ERRORS + 1
    assert batch.errors[-1].reason == TOO_MANY_ERRORS
    assert "More than 1000 lines have errors" in rule_text(TOO_MANY_ERRORS)
    result = charges.parse_batch_csv("nome;cpf_cnpj;valor;vencimento\n" + "a\x01;1\n" * 100_000)
    assert result.rows == () and len(result.errors) == MAX_LINE_ERRORS + 1
    assert result.errors[-1].reason == TOO_MANY_ERRORS and result.errors[-1].whole_file
    # A few bad lines among good ones: as before, each its own error, the good rows kept.
    text = "chave;valor\n" + "a\x01;1\n" * 3 + "b@empresa.com.br;2,00\n"
    batch = await payouts.parse_batch_csv(text)
    assert len(batch.errors) == 3 and [row.line for row in batch.rows] == [5]


@pytest.mark.parametrize(
    ("character", "shown"),
    [
        ("\x00", "U+0000"),
        ("\x07", "U+0007"),
        ("\x1b", "U+001B"),
        ("\x85", "U+0085"),
        ("\u202e", "U+202E"),
    ],
)
async def test_control_characters_are_refused_with_their_line(
    payouts: PayoutsService, character: str, shown: str
) -> None:
    text = (
        "chave;valor;descricao\na@empresa.com.br;1,00;ok\n"
        f"b@empresa.com.br;2,00;Nota{character}1\nc@empresa.com.br;3,00;ok\n"
    )
    batch = await payouts.parse_batch_csv(text)
    assert [(e.line, e.column) for e in batch.errors] == [(3, "row")]
    assert shown in rule_text(batch.errors[0].reason) and "Column 3" in rule_text(
        batch.errors[0].reason
    )
    assert [row.line for row in batch.rows] == [2, 4]
    parsed = charges.parse_batch_csv(
        f"nome;cpf_cnpj;valor;vencimento\nAna{character};{CPF};1,00;2030-01-10\n"
    )
    assert [e.line for e in parsed.errors] == [2] and shown in rule_text(parsed.errors[0].reason)


def test_a_tab_inside_a_cell_is_not_a_control_character_to_refuse() -> None:
    records = list(csv_records("a;b\nx\ty;z\n", ";"))
    assert records == [CsvRecord(1, ["a", "b"]), CsvRecord(2, ["x\ty", "z"])]


async def test_a_header_with_a_control_character_refuses_the_file(payouts: PayoutsService) -> None:
    batch = await payouts.parse_batch_csv("chave\x00;valor\na@empresa.com.br;1,00\n")
    assert [(e.line, e.column) for e in batch.errors] == [(1, "header")]
    assert batch.rows == ()


def test_the_charge_dialog_reader_keeps_an_unreadable_line_as_a_member_with_its_error() -> None:
    from treasury_app.ui.dialogs.charge_batch_dialog import read_batch_file

    txid = "A" * 30
    text = (
        "txid;nome;cpf_cnpj;valor;vencimento\n"
        f"{txid};Ana;{CPF};1,00;2030-01-10\n"
        f";Bia\x00;{CPF};2,00;2030-01-10\n"
        f";Caio;{CPF};3,00;2030-01-10\n"
    )
    batch = read_batch_file(text)
    assert [(e.line, "U+0000" in rule_text(e.reason)) for e in batch.errors] == [(3, True)]
    assert [m.line for m in batch.members] == [2, 3, 4]
    assert [row.line for row in batch.good_rows] == [2, 4]
    assert batch.can_leave_out


# -- caps and long files ----------------------------------------------------------------------


async def test_more_than_ten_thousand_payouts_are_refused_as_a_whole(
    payouts: PayoutsService,
) -> None:
    rows = "".join(f"p{i}@empresa.com.br;1,00\n" for i in range(MAX_ROWS + 5))
    batch = await payouts.parse_batch_csv("chave;valor\n" + rows)
    assert batch.rows == ()
    assert len(batch.errors) == 1
    error = batch.errors[0]
    assert error.line == MAX_ROWS + 2 and "more than 10000 payments" in rule_text(error.reason)
    exactly = "".join(f"p{i}@empresa.com.br;1,00\n" for i in range(MAX_ROWS))
    assert len(payouts.read_batch_csv("chave;valor\n" + exactly).rows) == MAX_ROWS


def test_reading_reports_progress_and_stops_when_cancelled(payouts: PayoutsService) -> None:
    text = "chave;valor\n" + "".join(f"p{i}@empresa.com.br;1,00\n" for i in range(3000))
    control = ReadControl()
    seen: list[float] = []

    class Watching(ReadControl):
        def check(self) -> None:
            seen.append(self.fraction)
            super().check()

    watching = Watching()
    assert len(payouts.read_batch_csv(text, control=watching).rows) == 3000
    assert seen == sorted(seen) and 0 < seen[len(seen) // 2] < 1 and watching.fraction == 1.0
    control.cancel.set()
    with pytest.raises(ReadCancelled):
        payouts.read_batch_csv(text, control=control)
    with pytest.raises(ReadCancelled):
        charges.parse_batch_csv(
            "nome;cpf_cnpj;valor;vencimento\n" + f"Ana;{CPF};1,00;2030-01-10\n" * 1000,
            control=control,
        )


async def test_the_first_half_reads_no_journal_and_runs_in_any_thread(
    payouts: PayoutsService, ledger: Ledger
) -> None:
    """The worker thread's half never touches the journal (SQLite refuses a connection used
    from another thread): it runs in a thread; the journal's half adds the warnings."""
    earlier = await ledger.journal.create(
        NewEntry(
            kind=EntryKind.PIX_KEY,
            amount=Decimal("1.00"),
            idempotency_key="k" * 32,
            request={},
            payee_detail="a@empresa.com.br",
        )
    )
    text = "chave;valor\na@empresa.com.br;1,00\nb@empresa.com.br;2,00\na@empresa.com.br;1,00\n"
    result = []
    worker = threading.Thread(target=lambda: result.append(payouts.read_batch_csv(text)))
    worker.start()
    worker.join()
    read = result[0]
    assert [row.review.duplicates for row in read.rows] == [(), (), ()]
    batch = await payouts.with_history(read)
    warnings = [row.review.warnings for row in batch.rows]
    assert len(batch.rows[0].review.duplicates) == 1
    assert warnings[0][0].code == "payout.recent_duplicates"
    assert warnings[1] == ()
    assert warnings[2][0] == Reason("payout.repeats_line", {"line": 2})
    assert warnings[2][1].code == "payout.recent_duplicates"
    assert payouts.recent_single_payments(batch.rows[0])[0].payee_detail == "a@empresa.com.br"
    assert (await ledger.journal.get(earlier.id)).state == EntryState.PREPARED


def test_csv_records_yields_errors_in_order_with_the_file_s_line_numbers() -> None:
    text = 'a;b\r\n\r\nc;"d\x01"\r\ne;f\r\n'
    records = list(csv_records(text, ";"))
    assert records[0] == CsvRecord(1, ["a", "b"])
    assert records[1] == CsvRecord(2, [])
    assert isinstance(records[2], CsvLineError) and records[2].line == 3
    assert records[3] == CsvRecord(4, ["e", "f"])
