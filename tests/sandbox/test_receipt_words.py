"""The sandbox bank's receipts are in Portuguese, like a Brazilian bank's: the payment's status
in words (never the API's ``SETTLED`` or ``LIQUIDATED``) and the due date as dd/mm/aaaa (issue
33). Read back from the PDF with Qt's own PDF engine, as a person's viewer reads it."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest

from tests.sandbox.test_pdf import _page_text, open_pdf  # noqa: F401 (a fixture)
from treasury_app.api.accounts.models import PaymentStatus
from treasury_app.sandbox.accounts_bank import RECEIPT_STATUSES
from treasury_app.sandbox.accounts_routes import RECEIPT_STATUS_WORDS, billet_receipt, pix_receipt

CODES = {status.value for status in PaymentStatus}
ISO_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b")


def _pix(status: str) -> dict[str, Any]:
    return {
        "status": status,
        "updatedAt": "2026-11-27T13:07:00+00:00",
        "settledAt": "2026-11-27T13:07:03+00:00",
        "creditorAccount": {
            "name": "Maria da Silva",
            "document": "52998224725",
            "ispb": "60746948",
            "issuer": "1234",
            "number": "98765-4",
        },
        "debtorAccount": {"name": "Empresa Exemplo Ltda", "document": "11222333000181"},
        "payment": {"amount": Decimal("150.00")},
        "pixKey": "maria@example.com",
        "description": None,
        "endToEndId": "E6074694820261127130700000000001",
        "idempotencyKey": "c0ffee00-0000-4000-8000-000000000001",
        "localInstrument": "DICT",
        "refunds": [],
    }


def _billet(status: str) -> dict[str, Any]:
    return {
        "id": 4242,
        "status": status,
        "updatedAt": "2026-11-27T13:07:00+00:00",
        "settledAt": "2026-11-27T13:07:04+00:00",
        "payment": {"amount": Decimal("2500.00")},
        "digitableCode": "23793381286000782713695000063305197370000250000",
        "barcode": "23791973700002500003381260007827139500006330",
        "debtorAccount": {"name": "Empresa Exemplo Ltda"},
        "description": "Aluguel",
        "billetInfo": {
            "beneficiary": {
                "name": "Imobiliária Central",
                "document": "11222333000181",
                "bankCode": "237",
                "bankName": "Bradesco",
            },
            "dueDate": "2026-12-03",
            "originalAmount": Decimal("2500.00"),
            "fine": Decimal("0.00"),
            "interest": Decimal("0.00"),
        },
    }


def _codes_in(text: str) -> set[str]:
    return {word for word in re.findall(r"[A-Z_]{4,}", text) if word in CODES}


def test_every_receipt_status_has_portuguese_words() -> None:
    for status in RECEIPT_STATUSES | CODES:
        word = RECEIPT_STATUS_WORDS[status]
        assert word and word != status and not _codes_in(word), status


@pytest.mark.parametrize("status", sorted(RECEIPT_STATUSES))
def test_a_pix_receipt_says_its_status_in_portuguese(open_pdf, status: str) -> None:
    text = _page_text(open_pdf(pix_receipt(_pix(status))), 0)
    assert RECEIPT_STATUS_WORDS[status] in text
    assert _codes_in(text) == set(), text
    assert "27/11/2026 10:07:03" in text  # Brasília time, Brazilian date
    assert not ISO_DATE.search(text), text


@pytest.mark.parametrize("status", ["LIQUIDATED"])
def test_a_slip_receipt_says_paid_and_its_due_date_the_brazilian_way(
    open_pdf,
    status: str,
) -> None:
    text = _page_text(open_pdf(billet_receipt(_billet(status))), 0)
    assert "Pago" in text
    assert "03/12/2026" in text  # the due date, not 2026-12-03
    assert _codes_in(text) == set(), text
    assert not ISO_DATE.search(text), text
