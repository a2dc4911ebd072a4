"""Payout batches from CSV, without a bank: separators, Portuguese and English headers,
Brazilian amounts, BOM, blank lines, every bad row reported (line number and column) while the
good rows are kept, missing columns, empty files — and ``send_batch`` refusing a batch with
errors unless the person chose to leave the bad rows out. (The 500-row batch sent to the
sandbox is in ``test_payouts.py``, next to its bank.)"""

from __future__ import annotations

from decimal import Decimal

import pytest

from treasury_app.api.accounts.models import AccountType
from treasury_app.domain import brcode
from treasury_app.domain.errors import Reason
from treasury_app.ledger import Ledger
from treasury_app.ledger.journal import Entry, EntryKind, EntryState, NewEntry
from treasury_app.services.payouts import PayoutBatch, PayoutInputError, PayoutsService, RowError
from treasury_app.ui.rule_words import rule_text

CPF = "52998224725"
CNPJ = "11222333000181"


class JournalOnlyEngine:
    """Stands in for the payment engine: journals each intent and sends nothing."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.clock = ledger.clock  # the journal's clock, as the engine's
        self.submitted: list[NewEntry] = []

    async def submit(self, new: NewEntry) -> Entry:
        self.submitted.append(new)
        return await self.ledger.journal.create(new)


@pytest.fixture
def engine(ledger: Ledger) -> JournalOnlyEngine:
    return JournalOnlyEngine(ledger)


@pytest.fixture
def payouts(engine: JournalOnlyEngine, ledger: Ledger) -> PayoutsService:
    return PayoutsService(engine, ledger)  # type: ignore[arg-type]


def errors_of(batch: PayoutBatch) -> list[tuple[int, str]]:
    return [(error.line, error.column) for error in batch.errors]


# --------------------------------------------------------------------------------------------
# Good files


async def test_semicolon_file_with_portuguese_headers(payouts: PayoutsService) -> None:
    batch = await payouts.parse_batch_csv(
        "chave;valor;descricao;documento_favorecido\n"
        "fornecedor@empresa.com.br;1.234,56;Nota 1;\n"
        "529.982.247-25;R$ 10,00;Nota 2;529.982.247-25\n"
        "+55 11 98765-0000;0,5;;\n"
        "11.222.333/0001-81;1234.56;Nota 4;\n"
    )
    assert batch.errors == () and batch.valid
    assert [row.line for row in batch.rows] == [2, 3, 4, 5]
    reviews = [row.review for row in batch.rows]
    assert [r.amount for r in reviews] == [
        Decimal("1234.56"),
        Decimal("10.00"),
        Decimal("0.50"),
        Decimal("1234.56"),
    ]
    assert all(isinstance(r.amount, Decimal) for r in reviews)
    assert [r.payee_detail for r in reviews] == [
        "fornecedor@empresa.com.br",
        CPF,
        "+5511987650000",
        CNPJ,
    ]
    assert [r.description for r in reviews] == ["Nota 1", "Nota 2", "", "Nota 4"]
    assert reviews[1].payee_document == CPF and reviews[1].request["creditorDocument"] == CPF
    assert all(r.kind == EntryKind.PIX_KEY for r in reviews)
    assert len({r.idempotency_key for r in reviews}) == 4
    assert batch.total == Decimal("2479.62")
    other = await payouts.parse_batch_csv("chave;valor\nfornecedor@empresa.com.br;1,00\n")
    assert batch.batch_id.startswith("B") and batch.batch_id != other.batch_id


async def test_comma_file_with_english_headers(payouts: PayoutsService) -> None:
    batch = await payouts.parse_batch_csv(
        "Key,Amount,Description,Creditor_Document\r\n"
        'fornecedor@empresa.com.br,"1.234,56","Nota 1, parcela 2",\r\n'
        f"{CNPJ},99.90,Nota 2,{CNPJ}\r\n"
    )
    assert batch.errors == ()
    first, second = (row.review for row in batch.rows)
    assert (first.amount, first.description) == (Decimal("1234.56"), "Nota 1, parcela 2")
    assert (second.amount, second.payee_document) == (Decimal("99.90"), CNPJ)


async def test_bank_data_columns_and_mixed_rows(payouts: PayoutsService) -> None:
    batch = await payouts.parse_batch_csv(
        "chave;ispb;agência;conta;tipo_conta;documento;nome;valor;Descrição\n"
        ";60746948;1234;98765-4;svgs;529.982.247-25;Maria da Silva;321,09;Reembolso\n"
        "fornecedor@empresa.com.br;;;;;;;10,00;Por chave\n"
    )
    assert batch.errors == ()
    by_bank, by_key = (row.review for row in batch.rows)
    assert by_bank.kind == EntryKind.PIX_MANU
    assert by_bank.payee_detail == "60746948/1234/987654"
    assert by_bank.request["creditorAccount"]["accountType"] == AccountType.SVGS
    assert (by_bank.payee_name, by_bank.payee_document) == ("Maria da Silva", CPF)
    assert by_bank.description == "Reembolso"
    assert by_key.kind == EntryKind.PIX_KEY and by_key.description == "Por chave"

    english = await payouts.parse_batch_csv(
        "ispb,branch,account,account_type,document,name,amount\n"
        f"60746948,1,1,CACC,{CNPJ},Empresa Ltda,5.00\n"
    )
    assert english.errors == () and english.rows[0].review.payee_document == CNPJ


async def test_bom_blank_lines_and_line_numbers(payouts: PayoutsService) -> None:
    lines = ["\ufeffchave;valor", "", "fornecedor@empresa.com.br;1,00", "   ", ";"]
    batch = await payouts.parse_batch_csv("\n".join([*lines, "outro@empresa.com.br;2,00", "", ""]))
    assert batch.errors == ()
    assert [(row.line, row.review.amount) for row in batch.rows] == [
        (3, Decimal("1.00")),
        (6, Decimal("2.00")),
    ]


async def test_a_trailing_separator_is_an_unnamed_column_and_ignored(
    payouts: PayoutsService,
) -> None:
    batch = await payouts.parse_batch_csv("chave;valor;\nfornecedor@empresa.com.br;1,00;\n")
    assert batch.errors == () and batch.rows[0].review.amount == Decimal("1.00")


async def test_a_file_repeating_a_payment_warns_on_the_repeated_row(
    payouts: PayoutsService,
) -> None:
    batch = await payouts.parse_batch_csv(
        "chave;valor\n"
        "fornecedor@empresa.com.br;10,00\n"
        "outro@empresa.com.br;10,00\n"
        "Fornecedor@empresa.com.br;10\n"  # the same key and amount, written differently
        "fornecedor@empresa.com.br;10,01\n"
    )
    assert batch.errors == ()
    warnings = [row.review.warnings for row in batch.rows]
    assert warnings[0] == warnings[1] == warnings[3] == ()
    assert warnings[2] == (Reason("payout.repeats_line", {"line": 2}),)


async def test_rows_repeating_a_recent_payment_carry_the_duplicate_warning(
    payouts: PayoutsService, ledger: Ledger
) -> None:
    await ledger.journal.create(
        (await payouts.prepare_key("fornecedor@empresa.com.br", "1,00")).new_entry()
    )
    batch = await payouts.parse_batch_csv("chave;valor\nfornecedor@empresa.com.br;1,00\n")
    assert batch.errors == () and batch.rows[0].review.duplicates
    assert batch.rows[0].review.warnings


# --------------------------------------------------------------------------------------------
# Bad files and bad rows


async def test_every_bad_row_is_reported_and_good_rows_are_kept(payouts: PayoutsService) -> None:
    batch = await payouts.parse_batch_csv(
        "chave;valor;descricao;documento_favorecido\n"
        "fornecedor@empresa.com.br;10,00;ok;\n"  # 2 good
        "isto não é chave;10,00;;\n"  # 3 key
        "fornecedor@empresa.com.br;0,00;;\n"  # 4 amount zero
        "fornecedor@empresa.com.br;1,234;;\n"  # 5 three decimals
        "fornecedor@empresa.com.br;1.000.000,01;;\n"  # 6 above the Pix limit
        "fornecedor@empresa.com.br;dez;;\n"  # 7 not an amount
        f"fornecedor@empresa.com.br;1,00;{'x' * 141};\n"  # 8 description
        "fornecedor@empresa.com.br;1,00;;123.456.789-00\n"  # 9 document
        "fornecedor@empresa.com.br;1,00\n"  # 10 too few columns
        "fornecedor@empresa.com.br;1,00;;;extra\n"  # 11 too many columns
        ";1,00;;\n"  # 12 no key
        "outro@empresa.com.br;2,00;ok;\n"  # 13 good
    )
    assert errors_of(batch) == [
        (3, "chave"),
        (4, "valor"),
        (5, "valor"),
        (6, "valor"),
        (7, "valor"),
        (8, "descricao"),
        (9, "documento_favorecido"),
        (10, "row"),
        (11, "row"),
        (12, "chave"),
    ]
    assert all(error.reason.code for error in batch.errors)
    assert str(batch.errors[0]).startswith("line 3, chave: ")
    assert "2 decimal" in rule_text(batch.errors[2].reason)  # the domain's rule
    assert batch.errors[7].reason == Reason("payout.column_count", {"expected": 4, "found": 2})
    assert [row.line for row in batch.rows] == [2, 13]
    assert batch.total == Decimal("12.00")
    assert not batch.valid


async def test_bad_bank_data_rows_name_their_column(payouts: PayoutsService) -> None:
    header = "ispb;agencia;conta;tipo_conta;documento;nome;valor\n"
    good = ["60746948", "1234", "987654", "CACC", CPF, "Maria", "1,00"]

    def row(index: int, value: str) -> str:
        cells = list(good)
        cells[index] = value
        return ";".join(cells) + "\n"

    batch = await payouts.parse_batch_csv(
        header
        + row(0, "123456789")  # 1 to 7 digits are padded (a zero Excel dropped); 9 are not
        + row(1, "12345")
        + row(2, "12a45")
        + row(3, "CORRENTE")
        + row(4, "529.982.247-24")
        + row(5, "")
        + row(6, "0")
        + ";".join(good)
        + "\n"
    )
    assert errors_of(batch) == [
        (2, "ispb"),
        (3, "agencia"),
        (4, "conta"),
        (5, "tipo_conta"),
        (6, "documento"),
        (7, "nome"),
        (8, "valor"),
    ]
    assert [row.line for row in batch.rows] == [9]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("chave;descricao\nfornecedor@empresa.com.br;x\n", [(1, "valor")]),
        ("valor;descricao\n1,00;x\n", [(1, "chave")]),
        ("ispb;agencia;conta;valor\n60746948;1;1;1,00\n", [(1, "chave")]),
        ("descricao\nx\n", [(1, "valor"), (1, "chave")]),
        ("chave;valor;banco\nfornecedor@empresa.com.br;1,00;x\n", [(1, "banco")]),
    ],
    ids=["no amount", "no key", "incomplete bank data", "neither", "unknown column"],
)
async def test_missing_or_unknown_columns_refuse_the_file(
    payouts: PayoutsService, text: str, expected: list[tuple[int, str]]
) -> None:
    batch = await payouts.parse_batch_csv(text)
    assert errors_of(batch) == expected
    assert batch.rows == () and not batch.valid


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("", 1, "header"),
        ("\ufeff", 1, "header"),
        ("\n\n", 1, "header"),
        ("chave;valor\n", 2, "row"),
        ("chave;valor\n\n;\n", 2, "row"),
    ],
    ids=["empty", "bom only", "blank lines", "header only", "header and blanks"],
)
async def test_an_empty_file_is_an_error(
    payouts: PayoutsService, text: str, line: int, column: str
) -> None:
    batch = await payouts.parse_batch_csv(text)
    assert batch.rows == () and len(batch.errors) == 1
    assert (batch.errors[0].line, batch.errors[0].column) == (line, column)
    assert batch.errors[0].reason.code and not batch.valid
    assert batch.total == Decimal("0.00")


# --------------------------------------------------------------------------------------------
# send_batch and bad rows


BAD_BATCH = "\n".join(
    ["chave;valor", "fornecedor@empresa.com.br;1,00", "not a key;2,00", "outro@empresa.com.br;3,00"]
)


async def test_send_batch_refuses_a_batch_with_errors(
    payouts: PayoutsService, engine: JournalOnlyEngine, ledger: Ledger
) -> None:
    batch = await payouts.parse_batch_csv(BAD_BATCH)
    assert batch.errors == (RowError(3, "chave", batch.errors[0].reason),)
    with pytest.raises(PayoutInputError) as refused:
        await payouts.send_batch(batch)
    assert refused.value.field == "batch"
    assert refused.value.reason == Reason("payout.batch_has_errors", {"count": 1}, "batch")
    assert engine.submitted == [] and await ledger.journal.recent() == []
    assert await ledger.audit.entries(action="payout.batch") == []


async def test_send_batch_leaves_bad_rows_out_when_asked(
    payouts: PayoutsService, engine: JournalOnlyEngine, ledger: Ledger
) -> None:
    batch = await payouts.parse_batch_csv(BAD_BATCH)
    progress: list[tuple[int, int]] = []
    entries = await payouts.send_batch(
        batch, drop_invalid=True, progress=lambda done, total, _: progress.append((done, total))
    )
    assert [e.amount for e in entries] == [Decimal("1.00"), Decimal("3.00")]
    assert [n.batch for n in engine.submitted] == [batch.batch_id] * 2
    assert progress == [(1, 2), (2, 2)]
    assert all(
        e.state == EntryState.PREPARED for e in await ledger.journal.recent(batch=batch.batch_id)
    )
    started = (await ledger.audit.entries(action="payout.batch"))[-1]
    assert started.outcome == "started" and started.amount == Decimal("4.00")
    assert started.details == {
        "rows": 2,
        "dropped": 1,
        "file_sha256": None,
        "sent_again_after": [],
    }


def _code_with_amount(text: str) -> str:
    """A static BR Code whose field 54 says ``text`` (a correct CRC)."""
    base = brcode.build(
        merchant_name="Loja Exemplo", merchant_city="Sao Paulo", key="loja@exemplo.com.br"
    )
    body = base[:-8]
    marker = "5802BR"
    tagged = body.replace(marker, f"54{len(text):02d}{text}{marker}", 1)
    return tagged + "6304" + brcode.crc16(tagged + "6304")


async def test_a_code_of_zero_asks_for_the_amount_and_a_huge_one_is_refused(
    ledger: Ledger,
) -> None:
    payouts = PayoutsService(JournalOnlyEngine(ledger), ledger)  # type: ignore[arg-type]
    zero = _code_with_amount("0.00")
    with pytest.raises(PayoutInputError, match=r"payout\.code_without_amount") as error:
        await payouts.prepare_qrc(zero, None)
    assert error.value.field == "amount"
    with pytest.raises(PayoutInputError, match=r"payout\.amount_not_positive"):
        await payouts.prepare_qrc(zero, "0,00")
    review = await payouts.prepare_qrc(zero, "12,50")
    assert review.amount == Decimal("12.50")
    with pytest.raises(PayoutInputError, match=r"payout\.amount_over_limit"):
        await payouts.prepare_qrc(_code_with_amount("2000000.00"), None)


async def test_a_cpf_that_lost_its_leading_zero_says_so_on_its_line(ledger: Ledger) -> None:
    payouts = PayoutsService(JournalOnlyEngine(ledger), ledger)  # type: ignore[arg-type]
    batch = await payouts.parse_batch_csv(
        "ispb;agencia;conta;tipo_conta;documento;nome;valor\n"
        "60746948;1234;98765-4;CACC;1234567890;Maria;10,00\n"
    )
    (error,) = batch.errors
    words = rule_text(error.reason)  # a rule of the domain: its English words
    assert error.line == 2 and "01234567890" in words and "leading zero" in words


# After a round trip through Excel ------------------------------------------------------------
BANK_HEADER = "ispb;agencia;conta;tipo_conta;documento;nome;valor\n"


@pytest.mark.parametrize(
    ("ispb", "branch", "detail"),
    [
        ("360305", "1", "00360305/0001/987654"),  # Caixa's ISPB, branch 0001, zeros dropped
        ("0", "12", "00000000/0012/987654"),  # Banco do Brasil's ISPB is all zeros
        ("1234567", "123", "01234567/0123/987654"),
        (" 416968 ", " 0001 ", "00416968/0001/987654"),  # spaces around, zeros kept
        ("60746948", "1234", "60746948/1234/987654"),  # already whole: unchanged
    ],
)
async def test_an_ispb_and_a_branch_that_lost_their_zeros_are_padded(
    payouts: PayoutsService, ispb: str, branch: str, detail: str
) -> None:
    batch = await payouts.parse_batch_csv(
        BANK_HEADER + f"{ispb};{branch};98765-4;CACC;{CPF};Maria;1,00\n"
    )
    assert batch.errors == ()
    (row,) = batch.rows
    assert row.review.payee_detail == detail  # what the review and the batch table show
    account = row.review.request["creditorAccount"]
    assert (account["ispb"], account["issuer"]) == tuple(detail.split("/")[:2])


@pytest.mark.parametrize(
    ("ispb", "branch", "column"),
    [
        ("3603O5", "1", "ispb"),  # a letter O: never padded, still refused
        ("123456789", "1", "ispb"),
        ("36-0305", "1", "ispb"),
        ("٣٦٠٣٠٥", "1", "ispb"),  # digits of another script are not ISPB digits
        ("60746948", "1a", "agencia"),
        ("60746948", "12345", "agencia"),
        ("60746948", "²", "agencia"),
    ],
)
async def test_bank_data_that_is_not_plain_digits_is_still_refused(
    payouts: PayoutsService, ispb: str, branch: str, column: str
) -> None:
    batch = await payouts.parse_batch_csv(
        BANK_HEADER + f"{ispb};{branch};987654;CACC;{CPF};Maria;1,00\n"
    )
    assert errors_of(batch) == [(2, column)]


@pytest.mark.parametrize("shown", ["1,12E+13", "5.29982E+10", "1E+13", "5,29982e+10", " 1,1E+19 "])
async def test_numbers_in_scientific_notation_are_refused_with_a_word_on_text_columns(
    payouts: PayoutsService, shown: str
) -> None:
    good = ["60746948", "1234", "987654", "CACC", CPF, "Maria", "1,00"]
    lines = []
    for index in (0, 2, 4):  # ispb, conta, documento
        cells = list(good)
        cells[index] = f'"{shown}"' if "," in shown else shown
        lines.append(";".join(cells))
    batch = await payouts.parse_batch_csv(BANK_HEADER + "\n".join(lines) + "\n")
    assert errors_of(batch) == [(2, "ispb"), (3, "conta"), (4, "documento")]
    for error in batch.errors:
        words = rule_text(error.reason)
        assert "scientific notation" in words
        assert "Format the column as text in Excel" in words
        assert shown.strip() in words
    by_key = await payouts.parse_batch_csv(
        f"chave;valor;documento_favorecido\nx@y.com.br;1,00;{shown}\n"
    )
    (error,) = by_key.errors
    assert error.column == "documento_favorecido"
    assert "scientific notation" in rule_text(error.reason)


async def test_the_single_payment_form_refuses_scientific_notation_too(
    payouts: PayoutsService,
) -> None:
    bank = {
        "ispb": "60746948",
        "branch": "1234",
        "account": "987654",
        "account_type": "CACC",
        "document": CPF,
        "name": "Maria",
    }
    for field_name, value in (("account", "1,12E+13"), ("document", "5.29982E+10")):
        with pytest.raises(PayoutInputError) as error:
            await payouts.prepare_manual(**{**bank, field_name: value}, amount="1")
        assert error.value.field == field_name
        assert "Format the column as text" in rule_text(error.value)
    # The form is typed, not read from Excel: a short ISPB there is a typo, not padded.
    with pytest.raises(PayoutInputError, match=r"payout\.ispb_format") as error:
        await payouts.prepare_manual(**{**bank, "ispb": "360305"}, amount="1")
    assert error.value.field == "ispb"


async def test_a_padded_ispb_or_branch_is_a_review_warning_on_its_row(
    payouts: PayoutsService,
) -> None:
    # 208 is a 3-digit bank code typed by mistake: padded, it is another bank's ISPB.
    batch = await payouts.parse_batch_csv(
        BANK_HEADER
        + f"208;1;98765-4;CACC;{CPF};Maria;1,00\n"
        + f"60746948;1234;98765-4;CACC;{CPF};Maria;2,00\n"
    )
    assert batch.errors == ()
    padded, whole = batch.rows
    assert padded.review.payee_detail == "00000208/0001/987654"
    assert Reason("payout.ispb_padded", {"typed": "208", "padded": "00000208"}) in (
        padded.review.warnings
    )
    assert Reason("payout.branch_padded", {"typed": "1", "padded": "0001"}) in (
        padded.review.warnings
    )
    assert "3-digit bank code" in rule_text(padded.review.warnings[0])
    assert not any(w.code.endswith("_padded") for w in whole.review.warnings)
