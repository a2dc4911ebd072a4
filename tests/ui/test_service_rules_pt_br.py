"""The services' rules in pt_BR (issue 33): every bad row of a payout batch and of a charge
batch, every warning of a payout review and every safety warning of a slip is a code that the
UI puts in Portuguese; none of the catalogue's English sentences is shown."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

import pytest

from treasury_app.api.accounts.models import BilletInfo
from treasury_app.domain.errors import Reason
from treasury_app.services.billets import BilletAlreadyPaid, BilletsService
from treasury_app.services.charges import parse_batch_csv as parse_charge_batch
from treasury_app.services.payouts import PayoutsService, parse_batch_csv
from treasury_app.ui.rule_words import RULES, is_code, rule_text

CPF = "52998224725"
TODAY = dt.date(2026, 11, 18)

PAYOUT_CSV = (
    "chave;valor;descricao;documento_favorecido\n"
    "fornecedor@empresa.com.br;10,00;ok;\n"  # good
    ";10,00;;\n"  # the key empty
    "fornecedor@empresa.com.br;1,234;;\n"  # 3 decimal places (the domain's rule)
    "fornecedor@empresa.com.br;0,00;;\n"  # zero
    "fornecedor@empresa.com.br;2000000,00;;\n"  # over the Pix limit
    "fornecedor@empresa.com.br;1,00;" + "x" * 141 + ";\n"  # description too long
    "fornecedor@empresa.com.br;10,00\n"  # columns missing
    'fornecedor@empresa.com.br;1,00;"a\x07b";\n'  # a control character
    "fornecedor@empresa.com.br;10,00;ok;\n"  # repeats line 2
)
BANK_CSV = (
    "ispb;agencia;conta;tipo_conta;documento;nome;valor\n"
    f"208;1;98765-4;CACC;{CPF};Maria;1,00\n"  # padded: two warnings
    f"1,12E+13;1234;98765-4;CACC;{CPF};Maria;1,00\n"  # scientific notation
    f"123456789;1234;98765-4;CACC;{CPF};Maria;1,00\n"  # not an ISPB
    f"60746948;12345;98765-4;CACC;{CPF};Maria;1,00\n"  # branch too long
    f"60746948;1234;98x;CACC;{CPF};Maria;1,00\n"  # account not digits
    f"60746948;1234;98765-4;XXXX;{CPF};Maria;1,00\n"  # account type
    f"60746948;1234;98765-4;CACC;{CPF};;1,00\n"  # holder's name
)
CHARGE_CSV = (
    "nome;cpf_cnpj;valor;vencimento;descricao\n"
    f"Ana;{CPF};10,00;15/12/2026;ok\n"
    f";{CPF};0,00;31/02/2026;\n"  # no name, zero, not a date
    f"Bia;{CPF};10,00;2026/12/15;\n"  # date format
    f"Caio;{CPF};10,00;01/01/2026;\n"  # past
    f"Duda;{CPF};10,00;;" + "y" * 141 + "\n"  # no due date, description too long
)


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _english_in(texts: list[str]) -> list[str]:
    """The catalogue's English sentences (their fixed parts) found in ``texts``."""
    found = []
    for code, source in RULES.items():
        for part in re.split(r"\{[a-z_]+\}", source):
            part = part.strip(" .,:;()")
            if len(part) >= 12 and any(part in text for text in texts):
                found.append(f"{code}: {part!r}")
    return found


def _shown(reasons: list[Reason]) -> list[str]:
    texts = [rule_text(reason) for reason in reasons]
    codes = [reason.code for reason in reasons]
    # Every service code has words; a domain rule not converted yet is its sentence (the
    # domain's own walk covers those).
    assert all(code in RULES for code in codes if is_code(code)), codes
    return texts


def test_bad_payout_rows_and_their_warnings_are_portuguese(portuguese: None) -> None:
    payouts = PayoutsService(None, None)  # type: ignore[arg-type]  # the journal is not read
    batch = parse_batch_csv(PAYOUT_CSV, payouts)
    bank = parse_batch_csv(BANK_CSV, payouts)
    codes = {e.reason.code for e in (*batch.errors, *bank.errors)}
    assert {
        "payout.key_empty",
        "payout.amount_not_positive",
        "payout.amount_over_limit",
        "payout.description_too_long",
        "payout.column_count",
        "csv.control_character",
        "payout.scientific_notation",
        "payout.ispb_format",
        "payout.branch_format",
        "payout.account_format",
        "payout.account_type",
        "payout.holder_name_missing",
    } <= codes
    warnings = [w for row in bank.rows for w in row.review.warnings]
    assert {w.code for w in warnings} == {"payout.ispb_padded", "payout.branch_padded"}
    more = [
        Reason("payout.repeats_line", {"line": 2}),
        Reason("payout.recent_duplicates", {"count": 1, "amount": Decimal("2500.00")}),
        Reason("payout.waits_for_approval"),
        Reason("payout.dynamic_code"),
        *(parse_batch_csv(text, payouts).errors[0].reason for text in ("", "a;b\n", "valor\n")),
    ]
    texts = _shown([e.reason for e in (*batch.errors, *bank.errors)] + warnings + more)
    assert "1 pagamento(s) de R$ 2.500,00 a este favorecido nas últimas 24 horas" in texts[-6]
    assert _english_in(texts) == []


def test_bad_charge_rows_are_portuguese(portuguese: None) -> None:
    parsed = parse_charge_batch(CHARGE_CSV, today=TODAY)
    codes = {e.reason.code for e in parsed.errors}
    assert {
        "charge_batch.name_missing",
        "charge_batch.amount_not_positive",
        "charge_batch.not_a_date",
        "charge_batch.due_date_format",
        "charge_batch.due_date_passed",
        "charge_batch.due_date_missing",
        "charge_batch.description_too_long",
    } <= codes
    header = parse_charge_batch("nome;cpf_cnpj;valor;telefone;vencimento\n")
    texts = _shown([e.reason for e in (*parsed.errors, *header.errors)])
    assert "O vencimento 01/01/2026 já passou." in texts
    assert _english_in(texts) == []


class _Accounts:
    def __init__(self, info: BilletInfo) -> None:
        self.info = info

    async def get_billet_info(self, barcode: str) -> BilletInfo:
        return self.info


def _slip_service(info: BilletInfo, earlier: list[Any]) -> BilletsService:
    async def recent(**_: Any) -> list[Any]:
        return earlier

    ledger = SimpleNamespace(journal=SimpleNamespace(recent=recent))
    return BilletsService(
        None,  # type: ignore[arg-type]  # nothing is paid here
        _Accounts(info),  # type: ignore[arg-type]
        ledger,  # type: ignore[arg-type]
        clock=lambda: dt.datetime(2026, 11, 18, 15, tzinfo=dt.UTC),
    )


def test_each_safety_warning_of_a_slip_is_portuguese(portuguese: None, vectors: dict, run) -> None:
    line = vectors["boleto_bancario"][0]["linha"]
    late = BilletInfo(
        due_date=dt.date(2026, 11, 8),
        payment_limit_date=dt.date(2026, 11, 10),
        original_amount=Decimal("2200.00"),
        fine=Decimal("44.00"),
        interest=Decimal("7.33"),
        total_updated=Decimal("2251.33"),
        days_late=10,
    )
    review = run(_slip_service(late, []).lookup(line, today=TODAY))
    plain = late.model_copy(update={"fine": None, "interest": None, "payment_limit_date": None})
    again = run(_slip_service(plain, []).lookup(line, today=TODAY))
    warnings = [*review.warnings, *again.warnings]
    assert [w.code for w in warnings] == [
        "billet.past_payment_limit",
        "billet.overdue",
        "billet.overdue_no_charges",
    ]
    paid = SimpleNamespace(
        created_at="2026-11-17T11:26:00Z",
        amount=Decimal("845.32"),
        final=True,
        bank_status="LIQUIDATED",
        state="ACCEPTED",
        payee_detail=review.barcode,
    )
    with pytest.raises(BilletAlreadyPaid) as stop:
        run(_slip_service(late, [paid]).lookup(line, today=TODAY))
    texts = _shown([*warnings, stop.value.reason])
    assert texts[1] == "Vencido desde 08/11/2026: R$ 2.251,33 inclui R$ 51,33 de multa e juros."
    assert "17/11/2026 08:26" in texts[-1]  # Brasília time
    assert _english_in(texts) == []
