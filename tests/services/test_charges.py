"""The Cash In use cases (``ChargesService``) against a real sandbox bank over mutual TLS:
charges (cob, cobv) created with local txids, revised, cancelled, listed and filtered; the
Pix they receive and refunds; payload locations; QR Codes; batches from CSV files. Every
use case on its happy path, with inputs refused before anything is sent (no request reaches
the bank) and with the bank's refusals surfaced as typed errors; every write in the audit.

The module runs its own sandbox; its clock only moves a few seconds.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import AsyncIterator
from decimal import Decimal
from typing import Any

import pytest

from tests.services.qr_fixtures import (
    CHAVE,
    EMAIL_KEY,
    PAYER_CPF,
    QrBank,
    audit_of,
    audit_text,
    new_cpf,
    qr_bank,
    secrets_of,
)
from treasury_app.api.errors import BadRequest, NotFound, ServerError
from treasury_app.api.qrcodes.cashin_models import (
    CobStatus,
    DevolucaoStatus,
    LoteCobVMembroStatus,
    ModalidadeValor,
    TipoCob,
)
from treasury_app.domain import brcode
from treasury_app.domain.documents import format_cpf
from treasury_app.domain.errors import Reason
from treasury_app.domain.identifiers import is_valid_txid, new_txid
from treasury_app.ledger import Ledger
from treasury_app.services.charges import (
    BatchInputError,
    BatchMemberPlan,
    BatchRevision,
    ChargeInputError,
    ChargeQrError,
    ChargesService,
    Debtor,
    charge_qr,
    parse_batch_csv,
)

TODAY = dt.date(2026, 11, 18)
DUE = dt.date(2026, 12, 15)


@pytest.fixture(scope="module")
async def bank(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[QrBank]:
    async with qr_bank(tmp_path_factory.mktemp("charges")) as opened:
        yield opened


@pytest.fixture
def service(bank: QrBank, ledger: Ledger) -> ChargesService:
    return ChargesService(bank.client, ledger, clock=bank.now)


def debtor(cpf: str | None = None, name: str = "Fulano de Tal", **address: str) -> Debtor:
    return Debtor(document=format_cpf(cpf or new_cpf()), name=name, **address)


async def collect(iterator: AsyncIterator[Any]) -> list[Any]:
    return [item async for item in iterator]


# ---------------------------------------------------------------------------------------------
# cob


async def test_create_cob_puts_a_local_txid_and_audits_it(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    before = bank.sent()
    cob = await service.create_cob(
        amount=Decimal("123.45"),
        key="11.222.333/0001-81",  # masked: sent in the canonical form
        debtor=Debtor("529.982.247-25", "Fulano de Tal"),
        description="Pedido 42",
        additional_info={"Pedido": "42"},
    )
    assert bank.sent() - before == 1
    assert is_valid_txid(cob.txid) and len(cob.txid) == 35
    assert cob.status is CobStatus.ATIVA and cob.valor.original == Decimal("123.45")
    assert cob.chave == CHAVE
    assert cob.devedor is not None and cob.devedor.cpf == "52998224725"
    fetched = await service.get_cob(cob.txid)
    assert fetched.txid == cob.txid and fetched.solicitacao_pagador == "Pedido 42"

    [row] = await audit_of(ledger, "charge.create")
    assert (row.reference, row.outcome, row.amount) == (cob.txid, "ATIVA", Decimal("123.45"))
    assert row.details == {"kind": "cob", "chave": CHAVE, "devedor": "***.982.247-**"}
    assert row.profile == "test" and row.os_user == "tester"


async def test_a_chosen_txid_makes_one_charge_only(service: ChargesService, ledger: Ledger) -> None:
    txid = new_txid(30)
    created = await service.create_cob(amount="10,00", key=EMAIL_KEY, txid=txid)
    assert created.txid == txid and created.valor.original == Decimal("10.00")
    with pytest.raises(BadRequest) as again:
        await service.create_cob(amount="10,00", key=EMAIL_KEY, txid=txid)
    assert again.value.properties == {"cob.txid"}
    rows = await audit_of(ledger, "charge.create", txid)
    assert [r.outcome for r in rows] == ["ATIVA", "rejected"]
    assert rows[1].details["http_status"] == 400
    assert any("cob.txid" in v for v in rows[1].details["violacoes"])


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"amount": Decimal("0")}, "valor.original"),
        ({"amount": Decimal("-1.00")}, "valor.original"),
        ({"amount": Decimal("1.234")}, "valor.original"),
        ({"amount": "doze reais"}, "valor.original"),
        ({"amount": 1.5}, "valor.original"),
        ({"amount": Decimal("12345678901.00")}, "valor.original"),
        ({"key": "not a key"}, "chave"),
        ({"debtor": Debtor("529.982.247-26", "Fulano")}, "devedor.cpf_cnpj"),
        ({"debtor": Debtor("11.222.333/0001-80", "Empresa")}, "devedor.cpf_cnpj"),
        ({"debtor": Debtor("52998224725", "  ")}, "devedor.nome"),
        ({"debtor": Debtor("52998224725", "F", city="Recife")}, "devedor"),
        ({"description": "x" * 141}, "solicitacaoPagador"),
        ({"expires_in": 0}, "calendario.expiracao"),
        ({"txid": "curto"}, "txid"),
        ({"additional_info": {"": "x"}}, "infoAdicionais.nome"),
        ({"location_id": 0}, "loc.id"),
    ],
)
async def test_create_cob_refuses_bad_inputs_before_sending(
    service: ChargesService, bank: QrBank, ledger: Ledger, changes: dict[str, Any], field: str
) -> None:
    before = bank.sent()
    kwargs: dict[str, Any] = {"amount": Decimal("10.00"), "key": CHAVE, **changes}
    with pytest.raises(ChargeInputError) as refused:
        await service.create_cob(**kwargs)
    assert isinstance(refused.value, ValueError)
    assert refused.value.field == field and refused.value.code
    assert bank.sent() == before
    assert await audit_of(ledger, "charge.create") == []


async def test_the_bank_refusing_a_key_is_a_typed_error_in_the_audit(
    service: ChargesService, ledger: Ledger
) -> None:
    with pytest.raises(BadRequest) as refused:
        await service.create_cob(amount=Decimal("5.00"), key="naoexiste@example.com")
    assert refused.value.properties == {"cob.chave"}
    assert refused.value.type.endswith("/CobOperacaoInvalida")
    [row] = await audit_of(ledger, "charge.create")
    assert row.outcome == "rejected" and row.amount == Decimal("5.00")
    assert row.details["chave"] == "naoexiste@example.com"
    with pytest.raises(NotFound):  # nothing was created under the txid that was sent
        await service.get_cob(row.reference)


async def test_revise_cob_then_nothing_to_change_and_unknown_txid(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    cob = await service.create_cob(amount=Decimal("50.00"), key=CHAVE, debtor=debtor())
    revised = await service.revise_cob(cob.txid, amount="99,90")
    assert revised.revisao == 1 and revised.valor.original == Decimal("99.90")
    new_debtor = debtor(name="Beltrano")
    again = await service.revise_cob(cob.txid, description="Pedido 43", debtor=new_debtor)
    assert again.revisao == 2 and again.solicitacao_pagador == "Pedido 43"
    assert again.devedor is not None and again.devedor.nome == "Beltrano"
    rows = await audit_of(ledger, "charge.revise", cob.txid)
    assert [(r.outcome, r.amount, r.details["fields"]) for r in rows] == [
        ("ATIVA", Decimal("99.90"), ["valor"]),
        ("ATIVA", None, ["devedor", "solicitacaoPagador"]),
    ]
    assert [r.details["revisao"] for r in rows] == [1, 2]

    before = bank.sent()
    with pytest.raises(ChargeInputError, match=r"charge\.nothing_to_change"):
        await service.revise_cob(cob.txid)
    with pytest.raises(ChargeInputError) as bad:
        await service.revise_cob(cob.txid, amount=Decimal("0.001"))
    assert bad.value.field == "valor.original"
    with pytest.raises(ChargeInputError) as bad_txid:
        await service.revise_cob("x", amount=Decimal("1.00"))
    assert bad_txid.value.field == "txid"
    assert bank.sent() == before

    unknown = new_txid()
    with pytest.raises(NotFound):
        await service.revise_cob(unknown, amount=Decimal("1.00"))
    [row] = await audit_of(ledger, "charge.revise", unknown)
    assert row.outcome == "rejected" and row.details["http_status"] == 404


async def test_cancel_cob(service: ChargesService, bank: QrBank, ledger: Ledger) -> None:
    cob = await service.create_cob(amount=Decimal("42.00"), key=CHAVE)
    removed = await service.cancel_cob(cob.txid)
    assert removed.status is CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR
    assert (await service.get_cob(cob.txid)).status is CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR
    with pytest.raises(BadRequest):  # only an active charge can be removed
        await service.cancel_cob(cob.txid)
    rows = await audit_of(ledger, "charge.cancel", cob.txid)
    assert [(r.outcome, r.amount) for r in rows] == [
        ("REMOVIDA_PELO_USUARIO_RECEBEDOR", Decimal("42.00")),
        ("rejected", None),
    ]
    before = bank.sent()
    with pytest.raises(ChargeInputError):
        await service.cancel_cob("not-a-txid")
    assert bank.sent() == before


# ---------------------------------------------------------------------------------------------
# cobv and the QR Code


async def test_create_cobv_and_its_qr_code(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    cobv = await service.create_cobv(
        amount="1.500,00",
        key=EMAIL_KEY,
        debtor=debtor(city="Recife", state="pe", postal_code="50000-000"),
        due_date=DUE,
        days_valid_after_due=10,
        fine=ModalidadeValor(modalidade=2, valor_perc=Decimal("2.00")),
    )
    assert cobv.status is CobStatus.ATIVA and cobv.valor.original == Decimal("1500.00")
    assert cobv.calendario.data_de_vencimento == DUE
    assert cobv.calendario.validade_apos_vencimento == 10
    assert cobv.devedor is not None and (cobv.devedor.uf, cobv.devedor.cep) == ("PE", "50000000")
    assert cobv.valor.multa is not None and cobv.valor.multa.valor_perc == Decimal("2.00")
    [row] = await audit_of(ledger, "charge.create", cobv.txid)
    assert row.details["kind"] == "cobv" and row.details["dataDeVencimento"] == "2026-12-15"

    qr = service.qr_code(cobv)
    assert qr.pix_copia_e_cola == cobv.pix_copia_e_cola
    assert qr.code.url == cobv.location and qr.code.is_dynamic
    size = len(qr.matrix)
    assert size == qr.symbol.symbol_size(border=0)[0] and all(len(r) == size for r in qr.matrix)
    assert any(any(row) for row in qr.matrix) and not all(all(row) for row in qr.matrix)
    png = qr.png(scale=2)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(qr.png(scale=6)) > len(png)
    fetched = await service.fetch_qr_code(cobv.txid, kind="cobv")
    assert fetched.pix_copia_e_cola == qr.pix_copia_e_cola and fetched.matrix == qr.matrix


def test_qr_code_errors() -> None:
    with pytest.raises(ChargeQrError, match=r"charge\.bad_qr_payload"):
        charge_qr("000201not a br code")
    with pytest.raises(ChargeQrError, match=r"charge\.no_qr_payload"):
        charge_qr("")
    payload = brcode.build(merchant_name="Loja", merchant_city="RECIFE", url="pix.example/qr/v2/a")
    good = charge_qr(payload)
    assert good.code.url == "pix.example/qr/v2/a"
    with pytest.raises(ChargeQrError):  # one character changed: the CRC no longer matches
        charge_qr(payload[:-5] + ("X" if payload[-5] != "X" else "Y") + payload[-4:])


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"due_date": TODAY - dt.timedelta(days=1)}, "calendario.dataDeVencimento"),
        ({"due_date": dt.datetime(2026, 12, 15, 12)}, "calendario.dataDeVencimento"),
        ({"days_valid_after_due": -1}, "calendario.validadeAposVencimento"),
        ({"debtor": None}, "devedor"),
        ({"debtor": Debtor(PAYER_CPF, "F", state="São Paulo")}, "devedor.uf"),
        ({"debtor": Debtor(PAYER_CPF, "F", postal_code="123")}, "devedor.cep"),
        ({"debtor": Debtor(PAYER_CPF, "F", email="sem-arroba")}, "devedor.email"),
        ({"amount": Decimal("0.00")}, "valor.original"),
    ],
)
async def test_create_cobv_refuses_bad_inputs_before_sending(
    service: ChargesService, bank: QrBank, changes: dict[str, Any], field: str
) -> None:
    kwargs: dict[str, Any] = {
        "amount": Decimal("10.00"),
        "key": CHAVE,
        "debtor": debtor(),
        "due_date": DUE,
        **changes,
    }
    before = bank.sent()
    with pytest.raises(ChargeInputError) as refused:
        await service.create_cobv(**kwargs)
    assert refused.value.field == field
    assert bank.sent() == before


async def test_revise_and_cancel_cobv(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    cobv = await service.create_cobv(
        amount=Decimal("300.00"), key=CHAVE, debtor=debtor(), due_date=DUE
    )
    later = DUE + dt.timedelta(days=10)
    revised = await service.revise_cobv(cobv.txid, amount=Decimal("320.00"), due_date=later)
    assert revised.valor.original == Decimal("320.00")
    assert revised.calendario.data_de_vencimento == later
    before = bank.sent()
    with pytest.raises(ChargeInputError) as past:
        await service.revise_cobv(cobv.txid, due_date=TODAY - dt.timedelta(days=2))
    assert past.value.field == "calendario.dataDeVencimento"
    assert bank.sent() == before
    removed = await service.cancel_cobv(cobv.txid)
    assert removed.status is CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR
    with pytest.raises(BadRequest):
        await service.revise_cobv(cobv.txid, amount=Decimal("1.00"))
    [revise_ok, revise_refused] = await audit_of(ledger, "charge.revise", cobv.txid)
    assert revise_ok.details["fields"] == ["calendario", "valor"]
    assert revise_refused.outcome == "rejected"
    [cancel] = await audit_of(ledger, "charge.cancel", cobv.txid)
    assert (cancel.outcome, cancel.amount, cancel.details["kind"]) == (
        "REMOVIDA_PELO_USUARIO_RECEBEDOR",
        Decimal("320.00"),
        "cobv",
    )
    with pytest.raises(NotFound):
        await service.cancel_cobv(new_txid())


# ---------------------------------------------------------------------------------------------
# Lists


async def test_list_and_filter_charges_over_every_page(
    service: ChargesService, bank: QrBank
) -> None:
    cpf = new_cpf()
    made = [
        (await service.create_cob(amount=Decimal(f"{n}.00"), key=CHAVE, debtor=debtor(cpf))).txid
        for n in (1, 2, 3)
    ]
    await service.cancel_cob(made[0])

    before = bank.sent()
    every = await collect(
        service.iter_cobs(start=TODAY, end=TODAY, document=format_cpf(cpf), page_size=2)
    )
    assert bank.sent() - before == 2  # three charges, two pages
    assert sorted(c.txid for c in every) == sorted(made)
    active = await collect(service.iter_cobs(start=TODAY, end=TODAY, document=cpf, status="ATIVA"))
    assert sorted(c.txid for c in active) == sorted(made[1:])
    removed = await collect(
        service.iter_cobs(
            start=TODAY,
            end=TODAY,
            document=cpf,
            status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR,
        )
    )
    assert [c.txid for c in removed] == made[:1]
    yesterday = TODAY - dt.timedelta(days=1)
    assert await collect(service.iter_cobs(start=yesterday, end=yesterday, document=cpf)) == []
    assert await collect(service.iter_cobvs(start=TODAY, end=TODAY, document=cpf)) == []

    before = bank.sent()
    for call, field in (
        (lambda: service.iter_cobs(start=TODAY, end=yesterday), "fim"),
        (lambda: service.iter_cobs(start=TODAY, end=TODAY, status="PAGA"), "status"),
        (lambda: service.iter_cobs(start=TODAY, end=TODAY, document="123"), "cpf_cnpj"),
        (lambda: service.iter_cobs(start=TODAY, end=TODAY, page_size=0), "paginacao"),
        (lambda: service.iter_cobvs(start=TODAY, end=TODAY, batch_id="lote 1"), "id"),
        (
            lambda: service.iter_cobs(start=dt.datetime(2026, 11, 18), end=TODAY),
            "inicio",
        ),
    ):
        with pytest.raises(ChargeInputError) as refused:
            call()
        assert refused.value.field.startswith(field)
    assert bank.sent() == before

    # the bank failing is a typed error, after the transport's retries
    fault = {"path": "/cob", "method": "GET", "rate_503": 1, "retry_after": 0}
    with bank.control.faults(fault), pytest.raises(ServerError):
        await collect(service.iter_cobs(start=TODAY, end=TODAY, document=cpf))


# ---------------------------------------------------------------------------------------------
# Received Pix and refunds


async def test_received_pix_and_refunds(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    cob = await service.create_cob(amount=Decimal("250.00"), key=CHAVE, debtor=debtor())
    e2e = bank.pay(cob.txid, infoPagador="Pedido 7")["pix"]["endToEndId"]

    pix = await service.get_received_pix(e2e)
    assert pix.txid == cob.txid and pix.valor == Decimal("250.00")
    assert pix.info_pagador == "Pedido 7"
    assert [
        p.end_to_end_id
        for p in await collect(service.iter_received_pix(start=TODAY, end=TODAY, txid=cob.txid))
    ] == [e2e]
    by_payer = service.iter_received_pix(start=TODAY, end=TODAY, document=PAYER_CPF)
    assert e2e in {p.end_to_end_id async for p in by_payer}

    refund = await service.request_refund(e2e, Decimal("100.00"), description="Item em falta")
    assert refund.status is DevolucaoStatus.EM_PROCESSAMENTO and refund.valor == Decimal("100.00")
    assert len(refund.id) == 35 and refund.id.isalnum()
    assert await service.get_refund(e2e, refund.id) == refund
    [row] = await audit_of(ledger, "refund.request", refund.id)
    assert (row.outcome, row.amount) == ("EM_PROCESSAMENTO", Decimal("100.00"))
    assert row.details == {"endToEndId": e2e, "rtrId": refund.rtr_id}

    with pytest.raises(BadRequest) as too_much:  # 150.01 more than the 150.00 left
        await service.request_refund(e2e, "150,01")
    assert too_much.value.properties == {"devolucao.valor"}
    with pytest.raises(BadRequest) as reused:  # a refund id is used once
        await service.request_refund(e2e, "1,00", refund_id=refund.id)
    assert reused.value.properties == {"devolucao.id"}
    refused = [r for r in await audit_of(ledger, "refund.request") if r.outcome == "rejected"]
    assert [r.amount for r in refused] == [Decimal("150.01"), Decimal("1.00")]

    before = bank.sent()
    for call, field in (
        (lambda: service.request_refund(e2e, Decimal("0")), "valor"),
        (lambda: service.request_refund("E123", Decimal("1.00")), "endToEndId"),
        (lambda: service.request_refund(e2e, Decimal("1.00"), refund_id="não"), "id"),
        (lambda: service.get_received_pix("nope"), "endToEndId"),
    ):
        with pytest.raises(ChargeInputError) as bad:
            await call()
        assert bad.value.field == field
    assert bank.sent() == before

    bank.control.advance(4)  # the refund settles on the sandbox clock
    assert (await service.get_refund(e2e, refund.id)).status is DevolucaoStatus.DEVOLVIDO
    with pytest.raises(NotFound):
        await service.get_received_pix("E9999901020261118130000000000000")


# ---------------------------------------------------------------------------------------------
# Locations


async def test_locations_create_link_and_unlink(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    loc = await service.create_location("cob")
    assert loc.tipo_cob is TipoCob.COB and loc.txid is None and loc.location
    [created] = await audit_of(ledger, "location.create")
    assert created.reference == str(loc.id) and created.details["location"] == loc.location
    cob = await service.create_cob(amount=Decimal("7.00"), key=CHAVE, location_id=loc.id)
    assert cob.location == loc.location
    assert (await service.get_location(loc.id)).txid == cob.txid

    unlinked = await service.unlink_location(loc.id)
    assert unlinked.id == loc.id and unlinked.txid is None
    assert (await service.get_cob(cob.txid)).location is None
    with pytest.raises(NotFound):
        await service.unlink_location(2_000_000_000)
    assert [r.outcome for r in await audit_of(ledger, "location.unlink")] == [
        "accepted",
        "rejected",
    ]
    with pytest.raises(NotFound):
        await service.get_location(2_000_000_000)

    before = bank.sent()
    with pytest.raises(ChargeInputError):
        await service.create_location("cobr")  # type: ignore[arg-type]
    with pytest.raises(ChargeInputError):
        await service.unlink_location(0)
    assert bank.sent() == before


# ---------------------------------------------------------------------------------------------
# Batches


def batch_csv(cpf: str) -> str:
    return (
        "nome;cpf_cnpj;valor;vencimento;descricao\r\n"
        f"Maria Souza;{format_cpf(cpf)};1.234,56;15/12/2026;Mensalidade dezembro\r\n"
        "Empresa Cliente Ltda;60.391.947/0001-00;99.90;2026-12-20;\r\n"
        f"João Lima;{cpf};10,00;20/12/2026;Taxa\r\n"
    )


async def test_batch_from_csv_created_followed_and_revised(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    cpf = new_cpf()
    parsed = parse_batch_csv(batch_csv(cpf), today=TODAY)
    assert parsed.ok and parsed.total == Decimal("1344.46")
    before = bank.sent()
    status = await service.create_batch(parsed, key=EMAIL_KEY, description="Dezembro")
    assert bank.sent() - before == 1
    assert status.batch_id.isdigit() and status.description == "Dezembro"
    assert [(m.line, m.status, m.problema) for m in status.members] == [
        (2, "CRIADA", None),
        (3, "CRIADA", None),
        (4, "CRIADA", None),
    ]
    assert status.refused == () and status.counts() == {"CRIADA": 3}
    txids = [m.txid for m in status.members]
    assert all(is_valid_txid(t) for t in txids) and len(set(txids)) == 3

    [row] = await audit_of(ledger, "batch.create", status.batch_id)
    assert (row.outcome, row.amount) == ("accepted", Decimal("1344.46"))
    assert row.details["txids"] == txids and row.details["members"] == 3
    assert row.details["chave"] == EMAIL_KEY and row.details["refused"] == []

    bank.control.advance(0.5)  # accepted members become charges
    followed = await service.batch_status(status.batch_id)
    assert [(m.status, m.amount, m.debtor_name) for m in followed.members] == [
        (LoteCobVMembroStatus.ATIVA, Decimal("1234.56"), "Maria Souza"),
        (LoteCobVMembroStatus.ATIVA, Decimal("99.90"), "Empresa Cliente Ltda"),
        (LoteCobVMembroStatus.ATIVA, Decimal("10.00"), "João Lima"),
    ]
    in_batch = service.iter_cobvs(start=TODAY, end=TODAY, batch_id=status.batch_id)
    assert sorted([c.txid async for c in in_batch]) == sorted(txids)
    first = await service.get_cobv(txids[0])
    assert first.chave == EMAIL_KEY and first.solicitacao_pagador == "Mensalidade dezembro"
    assert first.devedor is not None and first.devedor.cpf == cpf

    revised = await service.revise_batch(
        status.batch_id,
        [
            BatchRevision(txids[0], amount="1.300,00"),
            BatchRevision(txids[2], due_date=dt.date(2026, 12, 22), description="Taxa nova"),
        ],
    )
    assert {m.txid: m.status for m in revised.members}[txids[0]] == "CRIADA"
    assert (await service.get_cobv(txids[0])).valor.original == Decimal("1300.00")
    third = await service.get_cobv(txids[2])
    assert third.calendario.data_de_vencimento == dt.date(2026, 12, 22)
    [revise] = await audit_of(ledger, "batch.revise", status.batch_id)
    assert revise.outcome == "accepted"
    assert revise.details["members"] == [
        {"txid": txids[0], "fields": ["valor"]},
        {"txid": txids[2], "fields": ["calendario", "solicitacaoPagador"]},
    ]

    with pytest.raises(BadRequest):  # no member can be added
        await service.revise_batch(status.batch_id, [BatchRevision(new_txid(), amount="1,00")])
    assert (await audit_of(ledger, "batch.revise", status.batch_id))[-1].outcome == "rejected"
    text = await audit_text(ledger)
    assert all(secret not in text for secret in secrets_of(bank))


async def test_a_member_the_bank_refuses_is_reported_with_its_line(
    service: ChargesService, ledger: Ledger
) -> None:
    taken = await service.create_cobv(
        amount=Decimal("5.00"), key=CHAVE, debtor=debtor(), due_date=DUE
    )
    plan = service.plan_batch(parse_batch_csv(batch_csv(new_cpf()), today=TODAY), key=CHAVE)
    # a charge created alone cannot join a batch: give the second member its txid
    members = list(plan.members)
    members[1] = BatchMemberPlan(row=members[1].row, txid=taken.txid)
    status = await service.submit_batch(dataclasses.replace(plan, members=tuple(members)))
    [refused] = status.refused
    assert refused.line == 3 and refused.txid == taken.txid and refused.status == "NEGADA"
    assert refused.problema is not None and "cobv.txid" in refused.problema
    assert status.counts() == {"CRIADA": 2, "NEGADA": 1}
    [row] = await audit_of(ledger, "batch.create", plan.batch_id)
    assert row.outcome == "partially_refused"
    assert row.details["refused"] == [{"txid": taken.txid, "line": 3, "problema": refused.problema}]


async def test_batch_inputs_refused_before_sending_and_bank_errors(
    service: ChargesService, bank: QrBank, ledger: Ledger
) -> None:
    bad = parse_batch_csv(
        "nome;cpf_cnpj;valor;vencimento\nAna;52998224725;10,00;15/12/2026\nBia;123;0;x\n"
    )
    good = parse_batch_csv(batch_csv(new_cpf()), today=TODAY)
    before = bank.sent()
    with pytest.raises(BatchInputError) as refused:
        await service.create_batch(bad, key=CHAVE)
    assert refused.value.field == "csv" and len(refused.value.errors) == 3
    assert refused.value.params["line"] == 3
    with pytest.raises(ChargeInputError) as bad_key:
        await service.create_batch(good, key="chave inválida")
    assert bad_key.value.field == "chave"
    with pytest.raises(BatchInputError):
        await service.create_batch([], key=CHAVE)
    with pytest.raises(BatchInputError) as bad_id:
        await service.create_batch(good, key=CHAVE, batch_id="lote com espaço")
    assert bad_id.value.field == "id"
    with pytest.raises(BatchInputError) as past:  # parsed without a date check
        await service.create_batch(parse_batch_csv("Ana;52998224725;10,00;01/01/2026"), key=CHAVE)
    assert past.value.field == "vencimento" and past.value.params["line"] == 1
    # The file's own txids: each a txid of ours (the domain's rule), each once in the batch.
    with pytest.raises(BatchInputError) as bad_txids:
        await service.create_batch(good, key=CHAVE, txids={2: "curto", 3: new_txid(), 4: "x"})
    assert [(e.line, e.column, e.reason.code) for e in bad_txids.value.errors] == [
        (2, "txid", "txid.length"),
        (4, "txid", "txid.length"),
    ]
    repeated = new_txid()
    with pytest.raises(BatchInputError) as twice:
        await service.create_batch(good, key=CHAVE, txids={2: repeated, 4: repeated})
    assert [e.reason for e in twice.value.errors] == [
        Reason("charge_batch.txid_repeated", {"line": 2})
    ]
    with pytest.raises(ChargeInputError) as bad_member:
        await service.revise_batch("123", [BatchRevision("lote-1", amount=Decimal("1"))])
    assert bad_member.value.code == "txid.length" and bad_member.value.field == "cobsv[0].txid"
    with pytest.raises(BatchInputError):
        await service.revise_batch("123", [])
    with pytest.raises(BatchInputError, match=r"charge_batch\.member_unchanged"):
        await service.revise_batch("123", [BatchRevision(new_txid())])
    with pytest.raises(ChargeInputError) as bad_amount:
        await service.revise_batch("123", [BatchRevision(new_txid(), amount=Decimal("0"))])
    assert bad_amount.value.field == "cobsv[0].valor.original"
    assert bank.sent() == before
    assert (
        await audit_of(ledger, "batch.create") == []
        and await audit_of(ledger, "batch.revise") == []
    )

    with pytest.raises(NotFound):
        await service.batch_status("404404404")
    with pytest.raises(NotFound):
        await service.revise_batch("404404404", [BatchRevision(new_txid(), amount="1,00")])
    [row] = await audit_of(ledger, "batch.revise", "404404404")
    assert row.outcome == "rejected" and row.details["http_status"] == 404
