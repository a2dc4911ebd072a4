"""The charges service's own rules for a charge with a due date (issue 33: they moved out of
the New charge form): fine, interest, rebate and discount within BCB's limits, checked against
the amount and the due date, each broken rule a code on its field."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from treasury_app.api.qrcodes.cashin_models import Desconto, DescontoDataFixa, ModalidadeValor
from treasury_app.services.charges import ChargeInputError
from treasury_app.services.charges.checks import (
    check_cobv_values,
    check_discount_date,
    check_modality,
    check_value,
)

DUE = dt.date(2026, 12, 15)
AMOUNT = Decimal("50.00")


def refusal(call, *args, **kwargs) -> tuple[str, str | None]:
    with pytest.raises(ChargeInputError) as refused:
        call(*args, **kwargs)
    return refused.value.code, refused.value.field


def test_a_value_is_given_and_greater_than_zero() -> None:
    assert check_value("1.234,56", "f") == Decimal("1234.56")
    assert refusal(check_value, None, "f") == ("charge.value_missing", "f")
    assert refusal(check_value, "  ", "f") == ("charge.value_missing", "f")
    assert refusal(check_value, Decimal("0"), "f") == ("charge.value_not_positive", "f")
    assert refusal(check_value, "1,234", "f") == ("money.places", "f")


@pytest.mark.parametrize(
    ("kind", "modalidade", "value", "code"),
    [
        ("multa", 2, "100", None),  # a fine of 100 % is allowed
        ("multa", 2, "100.01", "charge.percent_limit"),
        ("juros", 2, "250", None),  # BCB does not cap interest
        ("abatimento", 2, "100", "charge.percent_limit"),  # it would leave nothing to pay
        ("abatimento", 1, "50.00", "charge.value_not_below_amount"),
        ("abatimento", 1, "49.99", None),
        ("desconto", 3, "50.00", "charge.value_not_below_amount"),
        ("desconto", 5, "99.99", None),
        ("multa", 1, "500.00", None),  # a fixed fine is not compared with the amount
    ],
)
def test_modality_limits(kind: str, modalidade: int, value: str, code: str | None) -> None:
    given = Decimal(value)
    if code is None:
        assert check_modality(kind, modalidade, given, AMOUNT, "f") == given
    else:
        assert refusal(check_modality, kind, modalidade, given, AMOUNT, "f") == (code, "f")


def test_discount_dates() -> None:
    assert check_discount_date(DUE, DUE, [], "d") == DUE
    assert refusal(check_discount_date, DUE + dt.timedelta(days=1), DUE, [], "d") == (
        "charge.discount_after_due",
        "d",
    )
    assert refusal(check_discount_date, DUE, DUE, [DUE], "d") == (
        "charge.discount_date_repeated",
        "d",
    )


def test_the_whole_cobv_is_checked_field_by_field() -> None:
    fine = ModalidadeValor(modalidade=2, valor_perc=Decimal("2.00"))
    check_cobv_values(AMOUNT, DUE, fine=fine)  # fine
    rebate = ModalidadeValor(modalidade=2, valor_perc=Decimal("150.00"))
    assert refusal(check_cobv_values, AMOUNT, DUE, rebate=rebate) == (
        "charge.percent_limit",
        "valor.abatimento.valorPerc",
    )
    day = DUE - dt.timedelta(days=3)
    twice = Desconto(
        modalidade=1,
        desconto_data_fixa=[
            DescontoDataFixa(data=day, valor_perc=Decimal("5.00")),
            DescontoDataFixa(data=day, valor_perc=Decimal("3.00")),
        ],
    )
    assert refusal(check_cobv_values, AMOUNT, DUE, discount=twice) == (
        "charge.discount_date_repeated",
        "valor.desconto.descontoDataFixa.1.data",
    )
    assert refusal(check_cobv_values, AMOUNT, DUE, discount=Desconto(modalidade=2)) == (
        "charge.discount_missing",
        "valor.desconto.descontoDataFixa.0",
    )
    four = Desconto(
        modalidade=1,
        desconto_data_fixa=[
            DescontoDataFixa(data=day - dt.timedelta(days=n), valor_perc=Decimal("1.00"))
            for n in range(4)
        ],
    )
    assert refusal(check_cobv_values, AMOUNT, DUE, discount=four)[0] == (
        "charge.too_many_discounts"
    )
