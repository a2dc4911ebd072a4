"""The sandbox's world: its company account, a deterministic DICT, payable slips, a few
hundred statement entries and some infractions, created on first start."""

from __future__ import annotations

import datetime as dt
import hashlib
import random
from decimal import Decimal
from typing import Any

from treasury_app.domain import boleto, documents, identifiers
from treasury_app.sandbox.clock import BRASILIA, SandboxClock, iso
from treasury_app.sandbox.store import Store

SANDBOX_ISPB = "99999010"  # not a real participant: identifies the sandbox in endToEndIds
OPENING_BALANCE = Decimal("1250000.00")

COMPANY: dict[str, Any] = {
    "name": "Empresa Sandbox Comércio Ltda",
    "document": "11222333000181",
    "account": {
        "ispb": SANDBOX_ISPB,
        "issuer": "0001",
        "number": "1234567",
        "accountType": "CACC",
        "document": "11222333000181",
        "name": "Empresa Sandbox Comércio Ltda",
    },
    # Pix keys registered on the account (charges and webhooks must use one of these).
    "keys": [
        "11222333000181",
        "financeiro@empresasandbox.com.br",
        "+5511987650000",
        "5f8e3b9a-2c4d-4e6f-9a1b-3c5d7e9f1a2b",
    ],
}

BANKS = (
    ("00000000", "001", "Banco do Brasil S.A."),
    ("00360305", "104", "Caixa Econômica Federal"),
    ("60746948", "237", "Banco Bradesco S.A."),
    ("60701190", "341", "Itaú Unibanco S.A."),
    ("90400888", "033", "Banco Santander (Brasil) S.A."),
    ("18236120", "260", "Nu Pagamentos S.A."),
)
PEOPLE = (
    "Ana Beatriz Souza",
    "Carlos Eduardo Lima",
    "Fernanda Oliveira",
    "João Pedro Santos",
    "Mariana Costa",
    "Rafael Almeida",
    "Juliana Ferreira",
    "Lucas Rodrigues",
    "Patrícia Gomes",
    "Thiago Martins",
    "Camila Ribeiro",
    "Bruno Carvalho",
)
COMPANIES = (
    "Distribuidora Horizonte Ltda",
    "Transportes Rio Verde S.A.",
    "Papelaria Central ME",
    "Tecnologia Aurora Ltda",
    "Alimentos Serra Azul S.A.",
    "Construtora Pedra Branca Ltda",
    "Energia Solar Nordeste Ltda",
    "Gráfica Expressa EIRELI",
    "Logística Atlântico Ltda",
    "Consultoria Ipê Ltda",
    "Farmácia Boa Saúde Ltda",
    "Telecom Cerrado S.A.",
)


def _digest(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "big")


def make_cpf(rng: random.Random) -> str:
    first9 = f"{rng.randrange(10**8, 10**9):09d}"
    return first9 + documents.cpf_check_digits(first9)


def make_cnpj(rng: random.Random) -> str:
    first12 = f"{rng.randrange(10**7, 10**8):08d}0001"
    return first12 + documents.cnpj_check_digits(first12)


def document_for(key: str) -> str:
    """A stable document for the owner of a key that does not carry one (e-mail, phone, EVP)."""
    rng = random.Random(_digest("doc:" + key))
    return make_cnpj(rng) if rng.random() < 0.5 else make_cpf(rng)


def account_for(key: str, document: str) -> dict[str, Any]:
    """The account behind a key in the sandbox's DICT: same key, same account, always."""
    rng = random.Random(_digest("acct:" + key))
    ispb, _code, _bank = rng.choice(BANKS)
    name = rng.choice(COMPANIES if len(document) == 14 else PEOPLE)
    return {
        "ispb": ispb,
        "issuer": f"{rng.randrange(1, 9999):04d}",
        "number": str(rng.randrange(10**5, 10**8)),
        "accountType": "CACC" if len(document) == 14 else rng.choice(("CACC", "SVGS")),
        "document": document,
        "name": name,
    }


def generic_slip(slip: boleto.Boleto) -> dict[str, Any]:
    """What the slip registry answers for a valid line the sandbox did not issue itself."""
    rng = random.Random(_digest("slip:" + slip.barcode))
    bank = next((b for b in BANKS if b[1] == slip.bank_code), rng.choice(BANKS))
    name = rng.choice(COMPANIES)
    return {
        "barcode": slip.barcode,
        "amount": slip.amount,
        "dueDate": slip.due_date.isoformat() if slip.due_date else None,
        "finePercent": "2.00",
        "monthlyInterestPercent": "1.00",
        "paymentLimitDays": 59,
        "allowChangeValue": slip.amount is None,
        "beneficiary": {
            "name": name,
            "document": make_cnpj(rng),
            "bankCode": bank[1],
            "bankName": bank[2],
            "ispb": bank[0],
            "branch": f"{rng.randrange(1, 9999):04d}",
            "account": str(rng.randrange(10**5, 10**8)),
        },
        "payer": {"name": COMPANY["name"], "document": COMPANY["document"]},
    }


def _slip(
    rng: random.Random,
    today: dt.date,
    *,
    amount: Decimal | None,
    due_in_days: int,
    limit_days: int = 30,
    allow_change: bool = False,
    label: str,
) -> dict[str, Any]:
    _ispb, code, _name = rng.choice(BANKS)
    free_field = f"{rng.randrange(10**24, 10**25):025d}"
    due = today + dt.timedelta(days=due_in_days)
    barcode = boleto.build_bank_barcode(code, amount, due, free_field)
    record = generic_slip(boleto.parse(barcode, today=today))
    record.update(
        {
            "amount": amount,
            "dueDate": due.isoformat(),
            "paymentLimitDays": limit_days,
            "allowChangeValue": allow_change,
            "digitableCode": boleto.barcode_to_line(barcode),
            "label": label,
        }
    )
    return record


def seed_slips(store: Store, clock: SandboxClock, rng: random.Random) -> None:
    """Sample slips due around the sandbox's own today (never the machine's)."""
    today = clock.today()
    specs = [
        dict(amount=Decimal("1530.75"), due_in_days=5, label="Aluguel do escritório"),
        dict(amount=Decimal("389.90"), due_in_days=12, label="Internet e telefonia"),
        dict(amount=Decimal("12750.00"), due_in_days=20, label="Fornecedor de insumos"),
        dict(amount=Decimal("845.32"), due_in_days=0, label="Energia elétrica"),
        dict(amount=Decimal("2200.00"), due_in_days=-10, label="Vencido há 10 dias (com multa)"),
        dict(
            amount=Decimal("640.00"), due_in_days=-90, limit_days=60, label="Vencido além do prazo"
        ),
        dict(
            amount=Decimal("150.00"),
            due_in_days=15,
            allow_change=True,
            label="Valor livre (doação)",
        ),
        dict(amount=Decimal("99.99"), due_in_days=30, label="Assinatura de software"),
    ]
    for spec in specs:
        record = _slip(rng, today, **spec)  # type: ignore[arg-type]
        store.put("slip", record["barcode"], record, iso(clock.now()))


def seed_statement(store: Store, clock: SandboxClock, rng: random.Random) -> None:
    """About 300 entries over the last 90 days, oldest first, ending at today's balance."""
    now = clock.now()
    start = now - dt.timedelta(days=90)
    store.add_entry(
        created=iso(start),
        day=start.astimezone(BRASILIA).date().isoformat(),
        credit_debit="CREDIT",
        type_="TED",
        amount=OPENING_BALANCE,
        body={
            "description": "Saldo inicial (aporte de capital)",
            "counterparty": {
                "name": COMPANY["name"],
                "document": COMPANY["document"],
                "ispb": "00000000",
            },
        },
    )
    moments = sorted(
        start + dt.timedelta(seconds=rng.randrange(3600, 90 * 86400 - 3600)) for _ in range(300)
    )
    for moment in moments:
        if moment.astimezone(BRASILIA).weekday() >= 5 and rng.random() < 0.7:
            continue
        kind = rng.choices(["in", "out", "billet", "fee", "refund"], [45, 30, 15, 7, 3])[0]
        bank = rng.choice(BANKS)
        if kind == "in":
            name, document = rng.choice(PEOPLE), make_cpf(rng)
            if rng.random() < 0.4:
                name, document = rng.choice(COMPANIES), make_cnpj(rng)
            amount = Decimal(rng.randrange(1500, 2500000)) / 100
            cd, type_, text = "CREDIT", "PIX", f"Pix recebido de {name}"
        elif kind == "out":
            name, document = rng.choice(COMPANIES), make_cnpj(rng)
            amount = Decimal(rng.randrange(5000, 1800000)) / 100
            cd, type_, text = "DEBIT", "PIX", f"Pix enviado a {name}"
        elif kind == "billet":
            name, document = rng.choice(COMPANIES), make_cnpj(rng)
            amount = Decimal(rng.randrange(9000, 900000)) / 100
            cd, type_, text = "DEBIT", "BILLET", f"Pagamento de boleto: {name}"
        elif kind == "fee":
            name, document = "Sandbox Bank", COMPANY["document"]
            amount = Decimal(rng.choice([290, 490, 1290, 3500])) / 100
            cd, type_, text = "DEBIT", "FEE", "Tarifa de pacote de serviços"
        else:
            name, document = rng.choice(COMPANIES), make_cnpj(rng)
            amount = Decimal(rng.randrange(1000, 80000)) / 100
            cd, type_, text = "CREDIT", "REFUND", f"Devolução de Pix por {name}"
        e2e = identifiers.new_e2eid(SANDBOX_ISPB if cd == "DEBIT" else bank[0], moment)
        store.add_entry(
            created=iso(moment),
            day=moment.astimezone(BRASILIA).date().isoformat(),
            credit_debit=cd,
            type_=type_,
            amount=amount.quantize(Decimal("0.01")),
            body={
                "description": text,
                "endToEndId": e2e if type_ in ("PIX", "REFUND") else None,
                "counterparty": {"name": name, "document": document, "ispb": bank[0]},
            },
        )


def seed_infractions(store: Store, clock: SandboxClock, rng: random.Random) -> None:
    now = clock.now()
    specs = [
        ("OPEN", "FRAUD", Decimal("1850.00"), -2, 5, "Suspeita de fraude relatada pelo pagador."),
        (
            "OPEN",
            "REFUND_REQUEST",
            Decimal("320.50"),
            -1,
            6,
            "Pagador solicita devolução por falha operacional.",
        ),
        ("CLOSED", "FRAUD", Decimal("75.00"), -40, -33, "Análise concluída: improcedente."),
    ]
    for status, reason, amount, created_days, deadline_days, text in specs:
        created = now + dt.timedelta(days=created_days)
        infraction_id = f"INF{created.strftime('%Y%m%d')}{rng.randrange(10**7, 10**8)}"
        payer = rng.choice(PEOPLE)
        store.put(
            "infraction",
            infraction_id,
            {
                "id": infraction_id,
                "endToEndId": identifiers.new_e2eid(rng.choice(BANKS)[0], created),
                "reportedBy": "DEBITED_PARTICIPANT",
                "reason": reason,
                "situation": "FRAUD_SUSPECTED" if reason == "FRAUD" else "REFUND_REQUESTED",
                "status": status,
                "amount": amount,
                "description": text,
                "counterparty": {"name": payer, "document": make_cpf(rng)},
                "createdAt": iso(created),
                "defenseDeadline": iso(now + dt.timedelta(days=deadline_days)),
                "analysisResult": "REJECTED" if status == "CLOSED" else None,
                "defenses": [],
            },
            iso(created),
        )


def seed_all(store: Store, clock: SandboxClock) -> None:
    """Fill an empty sandbox database; does nothing if it was seeded before."""
    if store.meta("seeded") == "1":
        return
    rng = random.Random(20251121)
    with store.transaction():
        seed_statement(store, clock, rng)
        seed_slips(store, clock, rng)
        seed_infractions(store, clock, rng)
        store.set_meta("seeded", "1")
