"""The Cash In client methods against the real sandbox bank over mutual TLS: every endpoint on
its happy path and on an error path (typed exceptions with the bank's ``violacoes``), a payer
paying through the control surface, refunds, batches with members, locations, signed payloads
(good and forged signatures) and lists iterated across several pages.

Tests share the session sandbox: each uses fresh txids (and a debtor CPF of its own where it
lists), and moves the sandbox clock by a few seconds at most.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
import secrets
from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from tests.sandbox.conftest import Api
from treasury_app.api.errors import BadRequest, NotFound
from treasury_app.api.qrcodes.cashin import CashInMethods, PayloadSignatureError
from treasury_app.api.qrcodes.cashin_models import (
    CalendarioCob,
    CalendarioCobV,
    CobPayload,
    CobRevisada,
    CobSolicitada,
    CobStatus,
    CobValor,
    CobValorRevisado,
    CobVPayload,
    CobVRevisada,
    CobVRevisadaLote,
    CobVSolicitada,
    CobVSolicitadaLote,
    CobVValor,
    CobVValorRevisado,
    Desconto,
    DescontoDataFixa,
    DevolucaoSolicitada,
    DevolucaoStatus,
    InfoAdicional,
    LoteCobVConsultado,
    LoteCobVMembroStatus,
    LoteCobVRevisado,
    LoteCobVSolicitado,
    ModalidadeValor,
    PayloadLocationCob,
    PayloadLocationSolicitada,
    TipoCob,
    WebhookCompleto,
    WebhookSolicitado,
)
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.api.transport import ApiTransport
from treasury_app.domain import brcode
from treasury_app.domain.documents import cpf_check_digits
from treasury_app.domain.identifiers import is_valid_e2eid, is_valid_rtrid, new_txid
from treasury_app.domain.money import dumps_json

CHAVE = "11222333000181"  # the sandbox company's CNPJ key
EMAIL_KEY = "financeiro@empresasandbox.com.br"
PHONE_KEY = "+5511987650000"
EVP_KEY = "5f8e3b9a-2c4d-4e6f-9a1b-3c5d7e9f1a2b"
CNPJ = "60391947000100"
INICIO = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
FIM = dt.datetime(2027, 12, 31, 23, 59, 59, tzinfo=dt.UTC)
HOOK = "https://127.0.0.1:9/hooks"  # nothing listens: notifications fail fast and are kept


@pytest.fixture
def client(qr_transport: ApiTransport) -> QrCodesClient:
    return QrCodesClient(qr_transport)


def new_cpf() -> str:
    """A valid CPF of this test alone (list filters then see only its charges)."""
    first9 = f"{secrets.randbelow(10**9):09d}"
    return first9 + cpf_check_digits(first9)


def cob_body(original: str = "123.45", *, cpf: str | None = None) -> CobSolicitada:
    return CobSolicitada(
        calendario=CalendarioCob(expiracao=3600),
        devedor=Devedor(cpf=cpf or new_cpf(), nome="Fulano de Tal"),
        valor=CobValor(original=Decimal(original)),
        chave=CHAVE,
        solicitacao_pagador="Pedido 42",
        info_adicionais=[InfoAdicional(nome="Pedido", valor="42")],
    )


def cobv_body(original: str = "500.00", *, cpf: str | None = None) -> CobVSolicitada:
    return CobVSolicitada(
        calendario=CalendarioCobV(
            data_de_vencimento=dt.date(2026, 12, 15), validade_apos_vencimento=30
        ),
        devedor=Devedor(cpf=cpf or new_cpf(), nome="Cliente Varejo", cidade="Recife", uf="PE"),
        valor=CobVValor(
            original=Decimal(original),
            multa=ModalidadeValor(modalidade=2, valor_perc=Decimal("2.00")),
            juros=ModalidadeValor(modalidade=2, valor_perc=Decimal("0.10")),
            desconto=Desconto(
                modalidade=1,
                desconto_data_fixa=[
                    DescontoDataFixa(data=dt.date(2026, 12, 1), valor_perc=Decimal("25.00"))
                ],
            ),
        ),
        chave=EMAIL_KEY,
    )


def pay(control: Api, txid: str, **extra: Any) -> dict[str, Any]:
    """The payer pays the charge (the sandbox's control surface)."""
    payer = {"name": "Pagador da Silva", "cpf": "40364478829"}
    return dict(
        control.control("POST", "/sandbox/cashin/pay", {"txid": txid, "payer": payer, **extra})
    )


# ---------------------------------------------------------------------------------------------
# cob


async def test_post_cob_then_get_cob(client: QrCodesClient) -> None:
    created = await client.post_cob(cob_body())
    assert len(created.txid) == 35 and created.txid.isalnum()
    assert created.status is CobStatus.ATIVA and created.revisao == 0
    assert created.valor.original == Decimal("123.45")
    assert created.calendario.expiracao == 3600 and created.calendario.criacao is not None
    assert created.loc is not None and created.loc.tipo_cob is TipoCob.COB
    assert created.location == created.loc.location
    assert created.pix_copia_e_cola is not None
    code = brcode.parse(created.pix_copia_e_cola)
    assert code.url == created.location and code.is_dynamic
    assert [(i.nome, i.valor) for i in created.info_adicionais] == [("Pedido", "42")]

    fetched = await client.get_cob(created.txid)
    assert fetched.txid == created.txid and fetched.pix == []
    assert fetched.model_dump(exclude={"pix"}) == created.model_dump()


async def test_post_cob_refused_with_violations(client: QrCodesClient) -> None:
    body = cob_body("0.00")
    body.chave = "naoexiste@example.com"
    with pytest.raises(BadRequest) as refused:
        await client.post_cob(body)
    assert refused.value.status == 400
    assert refused.value.type.endswith("/CobOperacaoInvalida")
    assert refused.value.properties == {"cob.valor.original", "cob.chave"}


async def test_get_cob_of_an_unknown_txid_is_not_found(client: QrCodesClient) -> None:
    with pytest.raises(NotFound) as missing:
        await client.get_cob(new_txid())
    assert missing.value.type.endswith("/CobNaoEncontrado")


async def test_create_cob_puts_with_a_local_txid_so_a_retry_cannot_duplicate(
    client: QrCodesClient,
) -> None:
    body = cob_body("10.00")
    created = await client.create_cob(body)
    assert len(created.txid) == 35 and created.status is CobStatus.ATIVA
    with pytest.raises(BadRequest) as again:  # the same txid a second time
        await client.put_cob(created.txid, body)
    assert again.value.properties == {"cob.txid"}
    chosen = new_txid(30)
    assert (await client.create_cob(body, txid=chosen)).txid == chosen
    with pytest.raises(BadRequest) as short:
        await client.put_cob("abc123", body)
    assert short.value.properties == {"cob.txid"}


async def test_patch_cob_revises_then_removes(client: QrCodesClient) -> None:
    created = await client.create_cob(cob_body())
    revised = await client.patch_cob(
        created.txid, CobRevisada(valor=CobValorRevisado(original=Decimal("99.90")))
    )
    assert revised.revisao == 1 and revised.valor.original == Decimal("99.90")
    assert revised.devedor == created.devedor
    removed = await client.patch_cob(
        created.txid, CobRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)
    )
    assert removed.status is CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR and removed.revisao == 2
    with pytest.raises(BadRequest):  # only an ATIVA charge can be revised
        await client.patch_cob(
            created.txid, CobRevisada(valor=CobValorRevisado(original=Decimal("1.00")))
        )
    with pytest.raises(NotFound):
        await client.patch_cob(new_txid(), CobRevisada(solicitacao_pagador="x"))


async def test_list_and_iterate_cobs_across_pages(
    client: QrCodesClient, qr_transport: ApiTransport
) -> None:
    cpf = new_cpf()
    mine = {(await client.create_cob(cob_body(cpf=cpf))).txid for _ in range(5)}

    page = await client.list_cob(inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=2)
    paginacao = page.parametros.paginacao
    assert (paginacao.pagina_atual, paginacao.itens_por_pagina) == (0, 2)
    assert (paginacao.quantidade_de_paginas, paginacao.quantidade_total_de_itens) == (3, 5)
    assert len(page.cobs) == 2 and {c.txid for c in page.cobs} <= mine
    assert page.parametros.inicio == INICIO
    last = await client.list_cob(
        inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=2, pagina_atual=2
    )
    assert len(last.cobs) == 1 and last.parametros.paginacao.pagina_atual == 2

    iterator = client.iter_cob(inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=2)
    before = qr_transport.stats.requests
    first = await anext(iterator)
    assert qr_transport.stats.requests == before + 1  # pages are fetched lazily
    rest = [cob.txid async for cob in iterator]
    assert {first.txid, *rest} == mine and len(rest) == 4
    assert qr_transport.stats.requests == before + 3

    removed = next(iter(mine))
    await client.patch_cob(removed, CobRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR))
    active = client.iter_cob(inicio=INICIO, fim=FIM, cpf=cpf, status=CobStatus.ATIVA)
    assert {cob.txid async for cob in active} == mine - {removed}
    with_loc = await client.list_cob(inicio=INICIO, fim=FIM, cpf=cpf, location_presente=True)
    assert len(with_loc.cobs) == 5


async def test_list_cob_refused_with_both_cpf_and_cnpj(client: QrCodesClient) -> None:
    with pytest.raises(BadRequest) as refused:
        await client.list_cob(inicio=INICIO, fim=FIM, cpf=new_cpf(), cnpj=CNPJ)
    assert refused.value.type.endswith("/CobConsultaInvalida")
    assert refused.value.properties == {"cnpj"}


# ---------------------------------------------------------------------------------------------
# Payment, received Pix, refunds


async def test_paid_cob_shows_concluida_with_its_pix_then_is_refunded(
    client: QrCodesClient, control: Api
) -> None:
    created = await client.create_cob(cob_body("250.00"))
    paid = pay(control, created.txid, infoPagador="Pedido 42")
    e2e = paid["pix"]["endToEndId"]

    cob = await client.get_cob(created.txid)
    assert cob.status is CobStatus.CONCLUIDA
    (pix,) = cob.pix
    assert pix.end_to_end_id == e2e and is_valid_e2eid(e2e)
    assert pix.txid == created.txid and pix.chave == CHAVE
    assert pix.valor == Decimal("250.00") and pix.info_pagador == "Pedido 42"
    assert pix.componentes_valor is not None and pix.componentes_valor.original is not None
    assert pix.componentes_valor.original.valor == Decimal("250.00")
    assert await client.get_pix(e2e) == pix
    listed = await client.list_pix(inicio=INICIO, fim=FIM, txid=created.txid)
    assert listed.pix == [pix]

    refund = await client.put_devolucao(
        e2e, "dev1", DevolucaoSolicitada(valor=Decimal("100"), descricao="Item em falta")
    )
    assert refund.status is DevolucaoStatus.EM_PROCESSAMENTO and refund.id == "dev1"
    assert refund.valor == Decimal("100.00") and refund.rtr_id and is_valid_rtrid(refund.rtr_id)
    assert refund.horario.solicitacao is not None and refund.horario.liquidacao is None
    assert await client.get_devolucao(e2e, "dev1") == refund

    with pytest.raises(BadRequest) as reused:
        await client.put_devolucao(e2e, "dev1", DevolucaoSolicitada(valor=Decimal("1")))
    assert reused.value.properties == {"devolucao.id"}
    with pytest.raises(BadRequest) as too_much:
        await client.put_devolucao(e2e, "dev2", DevolucaoSolicitada(valor=Decimal("150.01")))
    assert too_much.value.properties == {"devolucao.valor"}
    with pytest.raises(NotFound) as unknown:
        await client.get_devolucao(e2e, "nope")
    assert unknown.value.type.endswith("/PixDevolucaoNaoEncontrada")

    control.advance(4)  # the refund settles on the sandbox clock
    done = await client.get_devolucao(e2e, "dev1")
    assert done.status is DevolucaoStatus.DEVOLVIDO and done.horario.liquidacao is not None
    assert (await client.get_pix(e2e)).devolucoes == [done]
    refunded = client.iter_pix(inicio=INICIO, fim=FIM, devolucao_presente=True)
    assert e2e in {p.end_to_end_id async for p in refunded}


async def test_get_pix_unknown_and_put_devolucao_on_an_unknown_pix(client: QrCodesClient) -> None:
    unknown = "E0000000020261118130000000000000"
    with pytest.raises(NotFound) as missing:
        await client.get_pix(unknown)
    assert missing.value.type.endswith("/PixNaoEncontrado")
    with pytest.raises(NotFound):
        await client.put_devolucao(unknown, "d1", DevolucaoSolicitada(valor=Decimal("1")))


async def test_list_and_iterate_pix_across_pages(client: QrCodesClient, control: Api) -> None:
    cpf = new_cpf()
    payer = {"name": "Pagador Unico", "cpf": cpf}
    e2es = set()
    for _ in range(3):
        txid = (await client.create_cob(cob_body("5.00"))).txid
        body = {"txid": txid, "payer": payer}
        e2es.add(control.control("POST", "/sandbox/cashin/pay", body)["pix"]["endToEndId"])
    page = await client.list_pix(inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=2)
    assert page.parametros.paginacao.quantidade_de_paginas == 2 and len(page.pix) == 2
    iterated = client.iter_pix(
        inicio=INICIO, fim=FIM, cpf=cpf, tx_id_presente=True, itens_por_pagina=2
    )
    assert {p.end_to_end_id async for p in iterated} == e2es
    with pytest.raises(BadRequest) as refused:
        await client.list_pix(inicio=INICIO, fim=FIM, cpf="12345678900")
    assert refused.value.type.endswith("/PixConsultaInvalida")


# ---------------------------------------------------------------------------------------------
# cobv


async def test_cobv_create_get_patch_and_list(client: QrCodesClient, control: Api) -> None:
    cpf = new_cpf()
    created = await client.create_cobv(cobv_body(cpf=cpf))
    assert created.status is CobStatus.ATIVA and len(created.txid) == 35
    assert created.calendario.data_de_vencimento == dt.date(2026, 12, 15)
    assert created.recebedor is not None and created.recebedor.cnpj == CHAVE
    assert created.valor.multa is not None and created.valor.multa.valor_perc == Decimal("2.00")
    assert created.valor.desconto is not None and created.valor.desconto.desconto_data_fixa
    assert created.location is not None and "/qr/v2/cobv/" in created.location
    assert (await client.get_cobv(created.txid)).model_dump(exclude={"pix"}) == (
        created.model_dump()
    )

    revised = await client.patch_cobv(
        created.txid, CobVRevisada(valor=CobVValorRevisado(original=Decimal("600")))
    )
    assert revised.revisao == 1 and revised.valor.original == Decimal("600.00")
    assert revised.valor.multa == created.valor.multa

    second = await client.put_cobv(new_txid(), cobv_body("70.00", cpf=cpf))
    listed = await client.list_cobv(inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=1)
    assert listed.parametros.paginacao.quantidade_de_paginas == 2
    every = client.iter_cobv(inicio=INICIO, fim=FIM, cpf=cpf, itens_por_pagina=1)
    assert {c.txid async for c in every} == {created.txid, second.txid}

    pay(control, created.txid, data="2026-12-25")  # ten days late: fine and interest
    paid = await client.get_cobv(created.txid)
    assert paid.status is CobStatus.CONCLUIDA
    parts = paid.pix[0].componentes_valor
    assert paid.pix[0].valor == Decimal("618.00")
    assert parts is not None and parts.multa is not None and parts.juros is not None
    assert (parts.multa.valor, parts.juros.valor) == (Decimal("12.00"), Decimal("6.00"))


async def test_cobv_errors(client: QrCodesClient) -> None:
    with pytest.raises(NotFound) as missing:
        await client.get_cobv(new_txid())
    assert missing.value.type.endswith("/CobVNaoEncontrada")
    body = cobv_body()
    assert body.valor.juros is not None
    body.valor.juros.modalidade = 9
    with pytest.raises(BadRequest) as refused:
        await client.put_cobv(new_txid(), body)
    assert refused.value.properties == {"cobv.valor.juros.modalidade"}
    with pytest.raises(NotFound):
        await client.patch_cobv(new_txid(), CobVRevisada(solicitacao_pagador="x"))
    with pytest.raises(BadRequest):
        await client.list_cobv(inicio=INICIO, fim=FIM, status="PAGA")


# ---------------------------------------------------------------------------------------------
# lotecobv


def lote_member(txid: str, original: str, cpf: str) -> CobVSolicitadaLote:
    return CobVSolicitadaLote(txid=txid, **cobv_body(original, cpf=cpf).model_dump())


async def test_lotecobv_with_members(client: QrCodesClient, control: Api) -> None:
    cpf = new_cpf()
    alone = await client.create_cobv(cobv_body(cpf=cpf))  # cannot join a batch afterwards
    first, second = new_txid(), new_txid()
    lote_id = f"lote-{secrets.token_hex(6)}"
    body = LoteCobVSolicitado(
        descricao="Mensalidades de dezembro",
        cobsv=[
            lote_member(first, "100.00", cpf),
            lote_member(second, "200.00", cpf),
            lote_member(alone.txid, "300.00", cpf),
        ],
    )
    created = await client.put_lotecobv(lote_id, body)
    assert created.id == lote_id and created.descricao == "Mensalidades de dezembro"
    statuses = {m.txid: m.status for m in created.cobsv}
    assert statuses == {
        first: LoteCobVMembroStatus.CRIADA,
        second: LoteCobVMembroStatus.CRIADA,
        alone.txid: LoteCobVMembroStatus.NEGADA,
    }
    refused = next(m for m in created.cobsv if m.txid == alone.txid)
    assert refused.problema is not None and refused.problema.status == 400
    assert [v.propriedade for v in refused.problema.violacoes] == ["cobv.txid"]

    control.advance(0.5)  # accepted members become their charges
    batch = await client.get_lotecobv(lote_id)
    members = {m.txid: m for m in batch.cobsv}
    assert members[first].status is LoteCobVMembroStatus.ATIVA
    assert members[first].valor is not None
    assert members[first].valor.original == Decimal("100.00")
    assert members[second].devedor is not None and members[second].devedor.cpf == cpf
    in_lote = client.iter_cobv(inicio=INICIO, fim=FIM, lote_cobv_id=lote_id)
    assert {c.txid async for c in in_lote} == {first, second}

    revised = await client.patch_lotecobv(
        lote_id,
        LoteCobVRevisado(
            cobsv=[CobVRevisadaLote(txid=first, valor=CobVValorRevisado(original=Decimal("110")))]
        ),
    )
    assert {m.txid: m.status for m in revised.cobsv}[first] is LoteCobVMembroStatus.CRIADA
    assert (await client.get_cobv(first)).valor.original == Decimal("110.00")

    with pytest.raises(BadRequest) as outsider:  # no member can be added
        await client.patch_lotecobv(
            lote_id, LoteCobVRevisado(cobsv=[CobVRevisadaLote(txid=new_txid())])
        )
    assert outsider.value.type.endswith("/LoteCobVOperacaoInvalida")
    with pytest.raises(NotFound):
        await client.get_lotecobv(f"lote-{secrets.token_hex(6)}")


async def test_list_and_iterate_lotecobv_across_pages(client: QrCodesClient, control: Api) -> None:
    cpf = new_cpf()
    ids = {f"lote-{secrets.token_hex(6)}" for _ in range(2)}
    for lote_id in ids:
        body = LoteCobVSolicitado(cobsv=[lote_member(new_txid(), "10.00", cpf)])
        await client.put_lotecobv(lote_id, body)
    page = await client.list_lotecobv(inicio=INICIO, fim=FIM, itens_por_pagina=1)
    assert page.parametros.paginacao.quantidade_de_paginas >= 2 and len(page.lotes) == 1
    found = {
        lote.id: lote.quantidade_cobrancas
        async for lote in client.iter_lotecobv(inicio=INICIO, fim=FIM, itens_por_pagina=1)
        if lote.id in ids
    }
    assert found == dict.fromkeys(ids, 1)
    with pytest.raises(BadRequest):
        await client.list_lotecobv(inicio=FIM, fim=INICIO)


async def test_put_lotecobv_refused_for_a_bad_id(client: QrCodesClient) -> None:
    body = LoteCobVSolicitado(cobsv=[lote_member(new_txid(), "10.00", new_cpf())])
    with pytest.raises(BadRequest) as refused:
        await client.put_lotecobv("lote com espaço", body)
    assert refused.value.properties == {"loteCobV.id"}


# ---------------------------------------------------------------------------------------------
# loc


async def test_loc_create_link_list_and_unlink(client: QrCodesClient) -> None:
    loc = await client.post_loc(PayloadLocationSolicitada(tipo_cob=TipoCob.COB))
    assert loc.tipo_cob is TipoCob.COB and loc.txid is None and loc.location
    assert await client.get_loc(loc.id) == loc

    body = cob_body()
    body.loc = PayloadLocationCob(id=loc.id)
    cob = await client.create_cob(body)
    assert cob.location == loc.location
    linked = await client.get_loc(loc.id)
    assert linked.txid == cob.txid

    page = await client.list_loc(
        inicio=INICIO, fim=FIM, tx_id_presente=True, tipo_cob=TipoCob.COB, itens_por_pagina=2
    )
    assert page.parametros.paginacao.itens_por_pagina == 2
    listed = client.iter_loc(inicio=INICIO, fim=FIM, tx_id_presente=True, itens_por_pagina=200)
    assert loc.id in {item.id async for item in listed}

    unlinked = await client.delete_loc_txid(loc.id)
    assert unlinked.id == loc.id and unlinked.txid is None
    assert (await client.get_cob(cob.txid)).location is None


@pytest.mark.filterwarnings("ignore:Pydantic serializer warnings")  # the odd body below
async def test_loc_errors(client: QrCodesClient) -> None:
    with pytest.raises(NotFound) as missing:
        await client.get_loc(2_000_000_000)
    assert missing.value.type.endswith("/PayloadLocationNaoEncontrado")
    with pytest.raises(NotFound):
        await client.delete_loc_txid(2_000_000_000)
    # A body our model would never build, to see the bank's refusal typed.
    odd = PayloadLocationSolicitada.model_construct(tipo_cob="cobr")
    with pytest.raises(BadRequest) as refused:
        await client.post_loc(odd)
    assert refused.value.properties == {"loc.tipoCob"}
    with pytest.raises(BadRequest):
        await client.list_loc(inicio=INICIO, fim=FIM, tipo_cob="cobr")


# ---------------------------------------------------------------------------------------------
# Signed payloads


async def test_get_payload_of_a_cob_checks_the_signature(client: QrCodesClient) -> None:
    cob = await client.create_cob(cob_body("42.00"))
    assert cob.location is not None
    payload = await client.get_payload(cob.location)
    assert isinstance(payload, CobPayload)
    assert payload.txid == cob.txid and payload.status is CobStatus.ATIVA
    assert payload.valor.original == Decimal("42.00") and payload.chave == CHAVE
    assert payload.calendario.apresentacao is not None and payload.calendario.expiracao == 3600


async def test_get_payload_of_a_cobv_for_a_payment_date(client: QrCodesClient) -> None:
    cobv = await client.create_cobv(cobv_body())
    assert cobv.location is not None
    today = await client.get_payload(cobv.location)
    assert isinstance(today, CobVPayload)
    assert (today.valor.desconto, today.valor.final) == (Decimal("25.00"), Decimal("475.00"))
    assert today.recebedor is not None and today.recebedor.cnpj == CHAVE
    late = await client.get_payload(cobv.location, dpp=dt.date(2026, 12, 25))
    assert isinstance(late, CobVPayload)
    assert (late.valor.multa, late.valor.juros, late.valor.final) == (
        Decimal("10.00"),
        Decimal("5.00"),
        Decimal("515.00"),
    )
    with pytest.raises(BadRequest) as too_late:
        await client.get_payload(cobv.location, dpp=dt.date(2027, 6, 1))
    assert too_late.value.type.endswith("/CobPayloadOperacaoInvalida")


async def test_get_payload_of_an_unknown_location_is_not_found(client: QrCodesClient) -> None:
    cob = await client.create_cob(cob_body())
    assert cob.location is not None
    with pytest.raises(NotFound) as missing:
        await client.get_payload(cob.location.rsplit("/", 1)[0] + "/" + "0" * 32)
    assert missing.value.type.endswith("/CobPayloadNaoEncontrado")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@cache
def _forger_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def forge(header: Mapping[str, Any], payload: Mapping[str, Any]) -> str:
    """A compact JWS signed with a key that is not the bank's."""
    signing_input = f"{_b64(dumps_json(header).encode())}.{_b64(dumps_json(payload).encode())}"
    signature = _forger_key().sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64(signature)}"


class ServesJws:
    """The real transport, except that any QR location answers ``jws`` (a forged server)."""

    def __init__(self, real: ApiTransport, jws: str) -> None:
        self._real = real
        self._jws = jws
        self.config = real.config
        self.key_sets: list[str] = []

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        if "/qr/v2/" in path:
            return httpx.Response(
                200,
                text=self._jws,
                headers={"content-type": "application/jose"},
                request=httpx.Request(method, path),
            )
        return await self._real.request(method, path, **kwargs)

    async def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
        self.key_sets.append(path)
        return await self._real.request_json(method, path, **kwargs)


class CashInOnly(CashInMethods):
    def __init__(self, transport: Any) -> None:
        self._transport = transport


async def _real_jws(qr_transport: ApiTransport, location: str) -> str:
    response = await qr_transport.request("GET", f"https://{location}", authenticated=False)
    return response.text


async def test_a_tampered_payload_is_refused(
    client: QrCodesClient, qr_transport: ApiTransport
) -> None:
    cob = await client.create_cob(cob_body("900.00"))
    assert cob.location is not None
    header, payload, signature = (await _real_jws(qr_transport, cob.location)).split(".")
    data = json.loads(_unb64(payload))
    data["valor"]["original"] = "9.00"
    tampered = f"{header}.{_b64(dumps_json(data).encode())}.{signature}"
    forged = ServesJws(qr_transport, tampered)
    with pytest.raises(PayloadSignatureError, match="does not match"):
        await CashInOnly(forged).get_payload(cob.location)
    assert forged.key_sets == [json.loads(_unb64(header))["jku"]]  # the real key set was asked


async def test_a_payload_signed_by_another_key_is_refused(
    client: QrCodesClient, qr_transport: ApiTransport
) -> None:
    cob = await client.create_cob(cob_body())
    assert cob.location is not None
    real_header = json.loads(_unb64((await _real_jws(qr_transport, cob.location)).split(".")[0]))
    payload = (await client.get_payload(cob.location)).to_wire()
    # Same kid as the bank's key, no jku: checked against <base_url>/jwks, and fails.
    forged = ServesJws(qr_transport, forge({"alg": "RS256", "kid": real_header["kid"]}, payload))
    with pytest.raises(PayloadSignatureError, match="does not match"):
        await CashInOnly(forged).get_payload(cob.location)
    assert forged.key_sets == [qr_transport.config.base_url.rstrip("/") + "/jwks"]
    # A key id the bank does not publish.
    unknown_kid = ServesJws(qr_transport, forge({"alg": "RS256", "kid": "forger"}, payload))
    with pytest.raises(PayloadSignatureError, match="matches the key id"):
        await CashInOnly(unknown_kid).get_payload(cob.location)


async def test_a_key_set_on_another_host_or_another_algorithm_is_refused(
    client: QrCodesClient, qr_transport: ApiTransport
) -> None:
    cob = await client.create_cob(cob_body())
    assert cob.location is not None
    payload = (await client.get_payload(cob.location)).to_wire()
    elsewhere = forge({"alg": "RS256", "jku": "https://forger.example/jwks"}, payload)
    forged = ServesJws(qr_transport, elsewhere)
    with pytest.raises(PayloadSignatureError, match="another host"):
        await CashInOnly(forged).get_payload(cob.location)
    assert forged.key_sets == []  # the forger's key set is never fetched
    unsigned = _b64(dumps_json({"alg": "none"}).encode())
    none_alg = f"{unsigned}.{_b64(dumps_json(payload).encode())}."
    with pytest.raises(PayloadSignatureError, match="only RS256"):
        await CashInOnly(ServesJws(qr_transport, none_alg)).get_payload(cob.location)
    with pytest.raises(PayloadSignatureError, match="not a compact JWS"):
        await CashInOnly(ServesJws(qr_transport, "{}")).get_payload(cob.location)


# ---------------------------------------------------------------------------------------------
# Per-key Pix webhook


async def test_webhook_put_get_list_delete(client: QrCodesClient) -> None:
    for key in (PHONE_KEY, EVP_KEY):
        put = await client.put_webhook(key, WebhookSolicitado(webhook_url=f"{HOOK}/{key[-4:]}"))
        assert put.chave == key and put.webhook_url == f"{HOOK}/{key[-4:]}"
        assert put.criacao is not None
    got = await client.get_webhook(PHONE_KEY)  # the bank does not echo the key: filled in
    assert got == WebhookCompleto(webhook_url=f"{HOOK}/0000", chave=PHONE_KEY, criacao=got.criacao)
    page = await client.list_webhook(inicio=INICIO, fim=FIM, itens_por_pagina=1)
    assert page.parametros.paginacao.quantidade_de_paginas >= 2 and len(page.webhooks) == 1
    listed = {
        hook.chave: hook.webhook_url
        async for hook in client.iter_webhook(inicio=INICIO, fim=FIM, itens_por_pagina=1)
    }
    assert listed[PHONE_KEY] == f"{HOOK}/0000" and listed[EVP_KEY] == f"{HOOK}/1a2b"

    await client.delete_webhook(PHONE_KEY)
    await client.delete_webhook(EVP_KEY)
    with pytest.raises(NotFound) as gone:
        await client.get_webhook(PHONE_KEY)
    assert gone.value.type.endswith("/WebhookNaoEncontrado")
    with pytest.raises(NotFound):
        await client.delete_webhook(EVP_KEY)


async def test_webhook_refused_for_http_or_a_foreign_key(client: QrCodesClient) -> None:
    with pytest.raises(BadRequest) as plain_http:
        await client.put_webhook(PHONE_KEY, WebhookSolicitado(webhook_url="http://erp.example.com"))
    assert plain_http.value.properties == {"webhookUrl"}
    with pytest.raises(BadRequest) as foreign:
        await client.put_webhook("outra@empresa.com.br", WebhookSolicitado(webhook_url=HOOK))
    assert foreign.value.properties == {"chave"}
    with pytest.raises(BadRequest):
        await client.list_webhook(inicio=FIM, fim=INICIO)


# ---------------------------------------------------------------------------------------------
# Banks that answer as BCB does (202/200 without a body)


class BodilessPuts:
    """A bank that answers PUT /lotecobv and PUT /webhook with an empty body, as BCB does."""

    def __init__(self, answers: dict[str, Any]) -> None:
        self.calls: list[tuple[str, str]] = []
        self._answers = answers

    async def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
        self.calls.append((method, path))
        return None if method in ("PUT", "PATCH") else self._answers[path]


async def test_a_bodiless_put_reads_the_resource_back() -> None:
    lote = {"id": "lote-1", "criacao": "2026-11-18T13:00:00Z", "cobsv": []}
    hook = {"webhookUrl": "https://erp.example.com/hooks", "criacao": "2026-11-18T13:00:00Z"}
    transport = BodilessPuts({"/lotecobv/lote-1": lote, "/webhook/%2B5511987650000": hook})
    client = CashInOnly(transport)
    body = LoteCobVSolicitado(cobsv=[lote_member(new_txid(), "10.00", new_cpf())])
    assert await client.put_lotecobv("lote-1", body) == LoteCobVConsultado.model_validate(lote)
    revised = await client.patch_lotecobv("lote-1", LoteCobVRevisado(cobsv=[]))
    assert revised.id == "lote-1"
    webhook = await client.put_webhook(PHONE_KEY, WebhookSolicitado(webhook_url=hook["webhookUrl"]))
    assert webhook.chave == PHONE_KEY and webhook.webhook_url == hook["webhookUrl"]
    assert transport.calls == [
        ("PUT", "/lotecobv/lote-1"),
        ("GET", "/lotecobv/lote-1"),
        ("PATCH", "/lotecobv/lote-1"),
        ("GET", "/lotecobv/lote-1"),
        ("PUT", "/webhook/%2B5511987650000"),
        ("GET", "/webhook/%2B5511987650000"),
    ]
