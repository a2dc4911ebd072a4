"""Money of a Cash In charge: what a cobv's payer owes on a given day (fine, interest,
abatement and discount, BCB rules) and what a charge can be paid with now."""

from __future__ import annotations

import datetime as dt
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from treasury_app.domain.business_days import business_days_between, next_business_day
from treasury_app.domain.money import to_api_string
from treasury_app.sandbox.cashin_bank.errors import unprocessable
from treasury_app.sandbox.context import QrContext

CENT = Decimal("0.01")
HUNDRED = Decimal("100")
DEFAULT_VALIDADE = 30  # days a cobv stays payable after its due date when the body says nothing


def money_str(value: Decimal) -> str:
    return to_api_string(value)


def _round(value: Decimal) -> Decimal:
    return value.quantize(CENT, ROUND_HALF_UP)


def cobv_adjusted_due_date(cobv: dict[str, Any]) -> dt.date:
    """The due date rolled to the next business day (BCB: fine, interest and discount follow)."""
    return next_business_day(dt.date.fromisoformat(cobv["calendario"]["dataDeVencimento"]))


def cobv_last_payment_date(cobv: dict[str, Any]) -> dt.date:
    """The last day a cobv can be paid: (rolled due date + validadeAposVencimento calendar days),
    rolled again to a business day (BCB ``CobDataDeVencimento`` examples A to F)."""
    validade = int(cobv["calendario"].get("validadeAposVencimento", DEFAULT_VALIDADE))
    return next_business_day(cobv_adjusted_due_date(cobv) + dt.timedelta(days=validade))


def _juros(spec: dict[str, Any], base: Decimal, due: dt.date, pay_date: dt.date) -> Decimal:
    """Interest for paying after ``due``. Modalidades 1-4 count calendar days, 5-8 business
    days; the per-day rate is the rate itself (2, 6), a month of 30 calendar days (3) or
    21 business days (7), a year of 365 calendar days (4) or 252 business days (8)."""
    modalidade = int(spec["modalidade"])
    rate = Decimal(spec["valorPerc"])
    if modalidade <= 4:
        days = Decimal((pay_date - due).days)
    else:
        days = Decimal(business_days_between(due, pay_date))
    kind = (modalidade - 1) % 4  # 0 value per day, 1 % per day, 2 % per month, 3 % per year
    if kind == 0:
        return rate * days
    per_period = {1: Decimal(1), 2: Decimal(30 if modalidade <= 4 else 21)}.get(
        kind, Decimal(365 if modalidade <= 4 else 252)
    )
    return base * rate / HUNDRED / per_period * days


def _desconto(spec: dict[str, Any], base: Decimal, due: dt.date, pay_date: dt.date) -> Decimal:
    """Discount for paying early. 1/2: fixed value / percentage up to each descontoDataFixa date
    (the earliest date still reachable applies; a date on a non-business day rolls forward);
    3-6: value or percentage per day of anticipation before the due date (3/5 calendar days,
    4/6 business days)."""
    modalidade = int(spec["modalidade"])
    if modalidade in (1, 2):
        reachable = [
            item
            for item in spec["descontoDataFixa"]
            if pay_date <= next_business_day(dt.date.fromisoformat(item["data"]))
        ]
        if not reachable:
            return Decimal(0)
        rate = Decimal(min(reachable, key=lambda i: i["data"])["valorPerc"])
        return rate if modalidade == 1 else base * rate / HUNDRED
    if pay_date >= due:
        return Decimal(0)
    rate = Decimal(spec["valorPerc"])
    if modalidade in (3, 5):
        days = Decimal((due - pay_date).days)
    else:
        days = Decimal(business_days_between(pay_date, due))
    return rate * days if modalidade in (3, 4) else base * rate / HUNDRED * days


def cobv_amount_due(cobv: dict[str, Any], pay_date: dt.date) -> dict[str, Decimal]:
    """What a payer owes for ``cobv`` when paying on ``pay_date``.

    ``abatimento`` (1 fixed, 2 % of the original) always applies and lowers the base on which
    every percentage is taken; ``desconto`` applies on or before the (business-day adjusted)
    due date, ``multa`` (1 fixed, 2 % of the base) and ``juros`` after it. Each component is
    rounded half-up to cents; the discount never takes the amount below one cent.
    Returns original, multa, juros, abatimento, desconto and final.
    """
    valor = cobv["valor"]
    original = Decimal(valor["original"])
    due = cobv_adjusted_due_date(cobv)
    zero = Decimal("0.00")
    abatimento = zero
    if valor.get("abatimento"):
        spec = valor["abatimento"]
        rate = Decimal(spec["valorPerc"])
        abatimento = _round(rate if int(spec["modalidade"]) == 1 else original * rate / HUNDRED)
    base = original - abatimento
    desconto = multa = juros = zero
    if pay_date <= due:
        if valor.get("desconto"):
            desconto = _round(_desconto(valor["desconto"], base, due, pay_date))
            desconto = min(desconto, base - CENT)
    else:
        if valor.get("multa"):
            spec = valor["multa"]
            rate = Decimal(spec["valorPerc"])
            multa = _round(rate if int(spec["modalidade"]) == 1 else base * rate / HUNDRED)
        if valor.get("juros"):
            juros = _round(_juros(valor["juros"], base, due, pay_date))
    return {
        "original": _round(original),
        "multa": multa,
        "juros": juros,
        "abatimento": abatimento,
        "desconto": desconto,
        "final": _round(base - desconto + multa + juros),
    }


def cob_expired(charge: dict[str, Any], now: dt.datetime) -> bool:
    created = dt.datetime.fromisoformat(charge["calendario"]["criacao"])
    return now > created + dt.timedelta(seconds=int(charge["calendario"]["expiracao"]))


def payable_amount(
    ctx: QrContext, charge: dict[str, Any], pay_date: dt.date | None = None
) -> tuple[Decimal, dict[str, Decimal]]:
    """Amount due now (cob) or on ``pay_date`` (cobv, default today) and its components;
    raises 422 when the charge cannot be paid."""
    if charge["status"] != "ATIVA":
        raise unprocessable(
            f"A cobrança {charge['txid']} está {charge['status']} e não pode ser paga.",
            "CobrancaNaoAtiva",
        )
    if charge["tipoCob"] == "cob":
        if cob_expired(charge, ctx.clock.now()):
            raise unprocessable(
                f"A cobrança {charge['txid']} expirou e não pode mais ser paga.", "CobrancaExpirada"
            )
        original = Decimal(charge["valor"]["original"])
        return original, {"original": original}
    day = pay_date or ctx.clock.today()
    last = cobv_last_payment_date(charge)
    if day > last:
        raise unprocessable(
            f"A cobrança {charge['txid']} só podia ser paga até {last.isoformat()}.",
            "CobrancaExpirada",
        )
    due = cobv_amount_due(charge, day)
    return due["final"], due
