"""The Pix Automático client methods against the real sandbox bank over mutual TLS: every
endpoint on its happy path and on an error path (typed exceptions), the journeys (rec →
approval → cobr → settlement attempts, retry after a failed attempt, confirmation requests,
recurrence locations and their signed payload, webhooks) and lists across several pages.

Most tests use the shared sandbox and never move its clock: dates are computed from the
sandbox's own "today". The settlement journey, which needs days to pass, runs on a private
sandbox.
"""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from decimal import Decimal
from typing import Any, TypeVar

import httpx
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from pydantic import ValidationError

from tests.sandbox.conftest import Api
from tests.sandbox_harness import RunningSandbox
from tests.waiting import await_until
from treasury_app.api.errors import BadRequest, Forbidden, NotFound
from treasury_app.api.qrcodes.automatico import AutomaticoMethods, verify_rec_payload_jws
from treasury_app.api.qrcodes.automatico_models import (
    AtivacaoRec,
    CalendarioCobR,
    CalendarioRec,
    CalendarioRecRevisado,
    CalendarioSolicRec,
    CobRCompleta,
    CobRRevisada,
    CobRSolicitada,
    CobRStatus,
    CobRWebhookNotification,
    DadosBancariosRecebedor,
    DadosJornada,
    DestinatarioSolicRec,
    Periodicidade,
    PoliticaRetentativa,
    RecCompleta,
    RecebedorRec,
    RecRevisada,
    RecSolicitada,
    RecStatus,
    RecWebhookNotification,
    SolicRecRevisada,
    SolicRecSolicitada,
    SolicRecStatus,
    TentativaStatus,
    TentativaTipo,
    TipoConta,
    TipoJornada,
    ValorCobR,
    ValorRec,
    VinculoRec,
    VinculoRecRevisado,
)
from treasury_app.api.qrcodes.cashin import PayloadSignatureError
from treasury_app.api.qrcodes.client import QrCodesClient
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.api.transport import ApiConfig, ApiTransport
from treasury_app.domain import brcode, identifiers
from treasury_app.domain.business_days import earliest_cobr_due_date
from treasury_app.sandbox.clock import BRASILIA

CPF = "40364478829"
CNPJ = "60391947000100"
SANDBOX_ISPB = "99999010"
HOOK = "https://127.0.0.1:9/hooks"  # nothing listens: deliveries fail fast, records stay
T = TypeVar("T")


@pytest.fixture
def client(qr_transport: ApiTransport) -> QrCodesClient:
    return QrCodesClient(qr_transport)


# --------------------------------------------------------------------------------------------
# helpers


def sandbox_now(control: Api) -> dt.datetime:
    return dt.datetime.fromisoformat(control.now().replace("Z", "+00:00"))


def sandbox_today(control: Api) -> dt.date:
    """The sandbox's date in Brasília (the date its rules use)."""
    return sandbox_now(control).astimezone(BRASILIA).date()


def rec_body(
    today: dt.date,
    *,
    valor: ValorRec | None = None,
    politica: PoliticaRetentativa = PoliticaRetentativa.NAO_PERMITE,
    periodicidade: Periodicidade = Periodicidade.MENSAL,
    convenio: str | None = None,
    loc: int | None = None,
    ativacao: AtivacaoRec | None = None,
    devedor: Devedor | None = None,
) -> RecSolicitada:
    return RecSolicitada(
        vinculo=VinculoRec(
            contrato="CT-API-001",
            devedor=devedor or Devedor(cpf=CPF, nome="Fulano de Tal"),
            objeto="Assinatura",
        ),
        calendario=CalendarioRec(
            data_inicial=today,
            data_final=today + dt.timedelta(days=400),
            periodicidade=periodicidade,
        ),
        valor=valor or ValorRec(valor_rec=Decimal("50.00")),
        recebedor=RecebedorRec(convenio=convenio) if convenio else None,
        politica_retentativa=politica,
        loc=loc,
        ativacao=ativacao,
    )


def cobr_body(id_rec: str, due: dt.date, amount: str = "50.00") -> CobRSolicitada:
    return CobRSolicitada(
        id_rec=id_rec,
        info_adicional="Mensalidade",
        calendario=CalendarioCobR(data_de_vencimento=due),
        valor=ValorCobR(original=Decimal(amount)),
        devedor=Devedor(cidade="São Paulo", uf="SP", cep="01310100"),
        recebedor=DadosBancariosRecebedor(
            agencia="0001", conta="1234567", tipo_conta=TipoConta.CORRENTE
        ),
    )


def solicrec_body(id_rec: str, expires: dt.datetime) -> SolicRecSolicitada:
    return SolicRecSolicitada(
        id_rec=id_rec,
        calendario=CalendarioSolicRec(data_expiracao_solicitacao=expires),
        destinatario=DestinatarioSolicRec(
            agencia="2569", conta="550689", cpf=CPF, ispb_participante="91193552"
        ),
    )


async def approved_rec(
    client: AutomaticoMethods, control: Api, today: dt.date, **kwargs: Any
) -> RecCompleta:
    rec = await client.post_rec(rec_body(today, **kwargs))
    approved = control.control("POST", f"/sandbox/automatico/rec/{rec.id_rec}/approve")
    assert approved["status"] == "APROVADA"
    return rec


async def fetched_when(fetch: Callable[[], Awaitable[T]], done: Callable[[T], bool]) -> T | None:
    """What ``fetch`` gives once ``done`` says yes, else None: a condition for
    :func:`tests.waiting.await_until` (the sandbox moves things on every 0.25 s of real time)."""
    value = await fetch()
    return value if done(value) else None


async def collect(iterator: AsyncIterator[T]) -> list[T]:
    return [item async for item in iterator]


# --------------------------------------------------------------------------------------------
# rec


async def test_rec_create_get_patch_cancel(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    rec = await client.post_rec(rec_body(today, politica=PoliticaRetentativa.PERMITE_3R_7D))
    assert identifiers.is_valid_idrec(rec.id_rec) and rec.id_rec.startswith("RR")
    assert rec.status is RecStatus.CRIADA
    assert rec.valor is not None and rec.valor.valor_rec == Decimal("50.00")
    assert rec.politica_retentativa is PoliticaRetentativa.PERMITE_3R_7D
    assert rec.recebedor is not None and rec.recebedor.cnpj
    assert rec.ativacao is not None
    assert rec.ativacao.tipo_jornada is TipoJornada.AGUARDANDO_DEFINICAO
    assert [a.status for a in rec.atualizacao] == [RecStatus.CRIADA]

    fetched = await client.get_rec(rec.id_rec)
    assert fetched.id_rec == rec.id_rec and fetched.dados_qr is None
    assert fetched.vinculo.devedor.cpf == CPF

    txid = identifiers.new_txid(30)
    revised = await client.patch_rec(
        rec.id_rec,
        RecRevisada(
            vinculo=VinculoRecRevisado(devedor=Devedor(nome="Fulano de Tal Junior")),
            calendario=CalendarioRecRevisado(data_inicial=today + dt.timedelta(days=5)),
            ativacao=AtivacaoRec(dados_jornada=DadosJornada(txid=txid)),
        ),
    )
    assert revised.vinculo.devedor.nome == "Fulano de Tal Junior"
    assert revised.calendario.data_inicial == today + dt.timedelta(days=5)
    assert revised.ativacao is not None and revised.ativacao.dados_jornada is not None
    assert revised.ativacao.dados_jornada.txid == txid
    assert revised.ativacao.tipo_jornada is TipoJornada.JORNADA_3

    # only CANCELADA is accepted as a status
    with pytest.raises(BadRequest) as refused:
        await client.patch_rec(rec.id_rec, RecRevisada(status=RecStatus.APROVADA))
    assert "rec.status" in refused.value.properties

    cancelled = await client.cancel_rec(rec.id_rec)
    assert cancelled.status is RecStatus.CANCELADA
    assert cancelled.encerramento is not None and cancelled.encerramento.cancelamento is not None
    assert cancelled.encerramento.cancelamento.solicitante == "USUARIO_RECEBEDOR"
    assert [a.status for a in cancelled.atualizacao] == [RecStatus.CRIADA, RecStatus.CANCELADA]
    with pytest.raises(BadRequest):
        await client.cancel_rec(rec.id_rec)


async def test_bodies_the_models_refuse_are_never_built(client: QrCodesClient) -> None:
    # A comma decimal or an unknown account type fails here, before any request exists.
    with pytest.raises(ValidationError):
        ValorCobR.model_validate({"original": "50,00"})
    with pytest.raises(ValidationError):
        DadosBancariosRecebedor.model_validate({"conta": "1", "tipoConta": "SALARIO"})
    with pytest.raises(ValueError, match="HTTPS"):
        await client.get_rec_payload("http://127.0.0.1/qr/v2/rec/abc")


async def test_rec_errors(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    both = ValorRec(valor_rec=Decimal("50.00"), valor_minimo_recebedor=Decimal("10.00"))
    with pytest.raises(BadRequest) as refused:
        await client.post_rec(rec_body(today, valor=both))
    assert refused.value.status == 400
    assert "rec.valor" in refused.value.properties
    assert refused.value.type.endswith("/RecOperacaoInvalida")
    assert refused.value.instance == "/rec"

    missing = f"RN{SANDBOX_ISPB}20261118abcdefghijk"
    with pytest.raises(NotFound) as not_found:
        await client.get_rec(missing)
    assert not_found.value.type.endswith("/RecNaoEncontrada")
    with pytest.raises(NotFound):
        await client.patch_rec(missing, RecRevisada(status=RecStatus.CANCELADA))
    rec = await client.post_rec(rec_body(today))
    with pytest.raises(BadRequest):
        await client.get_rec(rec.id_rec, txid="curto")


async def test_rec_list_pages(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    convenio = f"API-{identifiers.new_txid(26)[:12]}"
    company = Devedor(cnpj=CNPJ, nome="Cliente Empresa Ltda")
    created = [
        (await client.post_rec(rec_body(today, convenio=convenio, devedor=company))).id_rec
        for _ in range(3)
    ]
    window = {
        "inicio": sandbox_now(control) - dt.timedelta(hours=1),
        "fim": sandbox_now(control) + dt.timedelta(hours=1),
    }
    first = await client.list_rec(**window, convenio=convenio, itens_por_pagina=2)
    assert first.parametros.paginacao.quantidade_de_paginas == 2
    assert first.parametros.paginacao.quantidade_total_de_itens == 3
    assert first.parametros.recebedor is not None
    assert first.parametros.recebedor.convenio == convenio
    assert len(first.recs) == 2
    second = await client.list_rec(**window, convenio=convenio, itens_por_pagina=2, pagina_atual=1)
    assert second.parametros.paginacao.pagina_atual == 1
    assert [r.id_rec for r in first.recs + second.recs] == created

    every = await collect(client.iter_rec(**window, convenio=convenio, itens_por_pagina=2))
    assert [r.id_rec for r in every] == created
    assert all(r.recebedor is not None and r.recebedor.convenio == convenio for r in every)
    filtered = await client.list_rec(
        **window, cnpj=CNPJ, status=RecStatus.CRIADA, location_presente=False, convenio=convenio
    )
    assert filtered.parametros.cnpj == CNPJ and filtered.parametros.location_presente is False
    assert [r.id_rec for r in filtered.recs] == created

    with pytest.raises(BadRequest) as refused:
        await client.list_rec(**window, cpf=CPF, cnpj=CNPJ)
    assert "cnpj" in refused.value.properties
    with pytest.raises(BadRequest):
        await collect(client.iter_rec(**window, status="ATIVA"))


# --------------------------------------------------------------------------------------------
# solicrec (journey 1)


async def test_solicrec_create_get_cancel(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    rec = await client.post_rec(rec_body(today))
    expires = sandbox_now(control) + dt.timedelta(days=3)
    sol = await client.post_solicrec(solicrec_body(rec.id_rec, expires))
    assert identifiers.is_valid_idsolicrec(sol.id_solic_rec)
    assert sol.id_rec == rec.id_rec and sol.status is SolicRecStatus.CRIADA
    assert sol.destinatario.ispb_participante == "91193552"
    assert sol.rec_payload is not None and sol.rec_payload.id_rec == rec.id_rec
    assert sol.rec_payload.recebedor is not None
    assert sol.rec_payload.recebedor.ispb_participante == SANDBOX_ISPB

    # one active request per recurrence
    with pytest.raises(BadRequest) as refused:
        await client.post_solicrec(solicrec_body(rec.id_rec, expires))
    assert refused.value.properties == {"solicrec.idRec"}

    received = await await_until(
        lambda: fetched_when(
            lambda: client.get_solicrec(sol.id_solic_rec),
            lambda s: s.status is SolicRecStatus.RECEBIDA,
        ),
        "the confirmation request RECEBIDA",
    )
    assert [a.status for a in received.atualizacao] == [
        SolicRecStatus.CRIADA,
        SolicRecStatus.ENVIADA,
        SolicRecStatus.RECEBIDA,
    ]
    with pytest.raises(BadRequest):
        await client.patch_solicrec(sol.id_solic_rec, SolicRecRevisada(status="ACEITA"))
    cancelled = await client.patch_solicrec(sol.id_solic_rec, SolicRecRevisada())
    assert cancelled.status is SolicRecStatus.CANCELADA
    with pytest.raises(BadRequest):
        await client.cancel_solicrec(sol.id_solic_rec)

    # a new request, cancelled through the shortcut; then the recurrence lists both
    other = await client.post_solicrec(solicrec_body(rec.id_rec, expires))
    assert (await client.cancel_solicrec(other.id_solic_rec)).status is SolicRecStatus.CANCELADA
    full = await client.get_rec(rec.id_rec)
    assert [s.id_solic_rec for s in full.solicitacao] == [sol.id_solic_rec, other.id_solic_rec]

    with pytest.raises(NotFound):
        await client.get_solicrec(f"SC{SANDBOX_ISPB}20261118abcdefghijk")
    with pytest.raises(NotFound):
        await client.cancel_solicrec(f"SC{SANDBOX_ISPB}20261118abcdefghijk")


async def test_solicrec_journey_approves_the_recurrence(
    client: QrCodesClient, control: Api
) -> None:
    today = sandbox_today(control)
    rec = await client.post_rec(rec_body(today))
    sol = await client.post_solicrec(
        solicrec_body(rec.id_rec, sandbox_now(control) + dt.timedelta(days=1))
    )
    control.control("POST", f"/sandbox/automatico/rec/{rec.id_rec}/approve")
    assert (await client.get_solicrec(sol.id_solic_rec)).status is SolicRecStatus.ACEITA
    approved = await client.get_rec(rec.id_rec)
    assert approved.status is RecStatus.APROVADA
    assert approved.ativacao is not None and approved.ativacao.tipo_jornada is TipoJornada.JORNADA_1
    assert approved.pagador is not None
    assert (approved.pagador.cpf, approved.pagador.ispb_participante) == (CPF, "91193552")


# --------------------------------------------------------------------------------------------
# cobr (no clock move)


async def test_cobr_put_get_list_cancel(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    due = earliest_cobr_due_date(today)
    rec = await approved_rec(client, control, today, politica=PoliticaRetentativa.PERMITE_3R_7D)
    txid = identifiers.new_txid(30)
    cobr = await client.put_cobr(txid, cobr_body(rec.id_rec, due))
    assert (cobr.txid, cobr.id_rec) == (txid, rec.id_rec)
    assert cobr.status is CobRStatus.CRIADA
    assert cobr.valor.original == Decimal("50.00")
    assert cobr.calendario == CalendarioCobR(data_de_vencimento=due, criacao=today)
    assert cobr.politica_retentativa is PoliticaRetentativa.PERMITE_3R_7D
    assert cobr.ajuste_dia_util is True
    assert cobr.recebedor is not None and cobr.recebedor.tipo_conta is TipoConta.CORRENTE
    [attempt] = cobr.tentativas
    assert attempt.tipo is TentativaTipo.AGND and attempt.status is TentativaStatus.SOLICITADA
    assert attempt.data_liquidacao >= due
    assert attempt.end_to_end_id is not None and identifiers.is_valid_e2eid(attempt.end_to_end_id)

    active = await await_until(
        lambda: fetched_when(lambda: client.get_cobr(txid), lambda c: c.status is CobRStatus.ATIVA),
        "the cobr ATIVA",
    )
    assert active.tentativas[0].status is TentativaStatus.AGENDADA
    assert [a.status for a in active.atualizacao] == [CobRStatus.CRIADA, CobRStatus.ATIVA]

    # the same txid again: refused (a retried PUT can never make a second charge)
    with pytest.raises(BadRequest) as refused:
        await client.put_cobr(txid, cobr_body(rec.id_rec, due))
    assert "cobr.txid" in refused.value.properties

    window = {
        "inicio": sandbox_now(control) - dt.timedelta(hours=1),
        "fim": sandbox_now(control) + dt.timedelta(hours=1),
    }
    page = await client.list_cobr(**window, id_rec=rec.id_rec, cpf=CPF, status=CobRStatus.ATIVA)
    assert [c.txid for c in page.cobsr] == [txid]
    assert page.parametros.id_rec == rec.id_rec
    with pytest.raises(BadRequest):
        await client.list_cobr(**window, cpf=CPF, cnpj=CNPJ)

    with pytest.raises(BadRequest):
        await client.patch_cobr(txid, CobRRevisada(status=CobRStatus.CONCLUIDA))
    cancelled = await client.patch_cobr(txid, CobRRevisada(status=CobRStatus.CANCELADA))
    assert cancelled.status is CobRStatus.CANCELADA
    assert cancelled.tentativas[0].status is TentativaStatus.CANCELADA
    assert cancelled.encerramento is not None and cancelled.encerramento.cancelamento is not None
    with pytest.raises(BadRequest):
        await client.cancel_cobr(txid)

    unknown = identifiers.new_txid()
    with pytest.raises(NotFound) as not_found:
        await client.get_cobr(unknown)
    assert not_found.value.type.endswith("/CobRNaoEncontrado")
    with pytest.raises(NotFound):
        await client.cancel_cobr(unknown)


async def test_cobr_post_create_and_rules(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    due = earliest_cobr_due_date(today)
    rec = await approved_rec(client, control, today, periodicidade=Periodicidade.SEMANAL)

    # less than 2 business days of lead time
    with pytest.raises(BadRequest) as refused:
        await client.put_cobr(
            identifiers.new_txid(), cobr_body(rec.id_rec, due - dt.timedelta(days=1))
        )
    assert refused.value.properties == {"cobr.calendario.dataDeVencimento"}
    assert "2 dias úteis" in refused.value.detail

    posted = await client.post_cobr(cobr_body(rec.id_rec, due))
    assert identifiers.is_valid_txid(posted.txid) and posted.status is CobRStatus.CRIADA

    created = await client.create_cobr(cobr_body(rec.id_rec, due + dt.timedelta(days=7)))
    assert identifiers.is_valid_txid(created.txid) and len(created.txid) == 35
    assert created.status is CobRStatus.CRIADA
    chosen = identifiers.new_txid(28)
    mine = await client.create_cobr(cobr_body(rec.id_rec, due + dt.timedelta(days=14)), chosen)
    assert mine.txid == chosen
    with pytest.raises(BadRequest):
        await client.create_cobr(cobr_body(rec.id_rec, due + dt.timedelta(days=21)), chosen)

    # a recurrence not approved yet cannot be charged
    pending = await client.post_rec(rec_body(today))
    with pytest.raises(BadRequest) as not_approved:
        await client.post_cobr(cobr_body(pending.id_rec, due))
    assert not_approved.value.properties == {"cobr.idRec"}


async def test_cobr_list_pages(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    due = earliest_cobr_due_date(today)
    rec = await approved_rec(client, control, today, periodicidade=Periodicidade.SEMANAL)
    txids = [
        (await client.create_cobr(cobr_body(rec.id_rec, due + dt.timedelta(weeks=week)))).txid
        for week in range(3)
    ]
    window = {
        "inicio": sandbox_now(control) - dt.timedelta(hours=1),
        "fim": sandbox_now(control) + dt.timedelta(hours=1),
    }
    first = await client.list_cobr(**window, id_rec=rec.id_rec, itens_por_pagina=2)
    assert first.parametros.paginacao.quantidade_de_paginas == 2
    assert len(first.cobsr) == 2
    every = await collect(client.iter_cobr(**window, id_rec=rec.id_rec, itens_por_pagina=2))
    assert [c.txid for c in every] == txids
    with pytest.raises(BadRequest):
        await collect(client.iter_cobr(**window, id_rec="curto"))


async def test_retentativa_refused(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    rec = await approved_rec(client, control, today)  # NAO_PERMITE
    cobr = await client.create_cobr(cobr_body(rec.id_rec, earliest_cobr_due_date(today)))
    with pytest.raises(BadRequest) as refused:
        await client.post_cobr_retentativa(cobr.txid, today + dt.timedelta(days=7))
    assert refused.value.detail == (
        "A política configurada na recorrência não permite retentativa de cobrança."
    )
    with pytest.raises(NotFound):
        await client.post_cobr_retentativa(identifiers.new_txid(), today + dt.timedelta(days=7))


# --------------------------------------------------------------------------------------------
# locrec and the recurrence payload (journey 2)


async def test_locrec_link_unlink_and_payload(client: QrCodesClient, control: Api) -> None:
    today = sandbox_today(control)
    loc = await client.post_locrec()
    assert loc.id_rec is None and "/qr/v2/rec/" in loc.location and "://" not in loc.location
    assert await client.get_locrec(loc.id) == loc

    rec = await client.post_rec(rec_body(today, loc=loc.id))
    assert rec.loc is not None and rec.loc.id == loc.id and rec.loc.id_rec == rec.id_rec
    assert (await client.get_locrec(loc.id)).id_rec == rec.id_rec

    fetched = await client.get_rec(rec.id_rec)
    assert fetched.dados_qr is not None and fetched.dados_qr.jornada is TipoJornada.JORNADA_2
    code = brcode.parse(fetched.dados_qr.pix_copia_e_cola)
    assert code.is_recurrence_only and code.recurrence_url == loc.location

    payload = await client.get_rec_payload(loc.location)
    assert payload.id_rec == rec.id_rec
    assert payload.valor is not None and payload.valor.valor_rec == Decimal("50.00")
    assert payload.politica_retentativa is PoliticaRetentativa.NAO_PERMITE
    assert payload.recebedor is not None
    assert payload.recebedor.ispb_participante == SANDBOX_ISPB
    assert payload.vinculo.devedor.cpf == CPF
    assert [a.status for a in payload.atualizacao] == [RecStatus.CRIADA]

    unlinked = await client.delete_locrec_idrec(loc.id)
    assert unlinked.id == loc.id and unlinked.id_rec is None
    after = await client.get_rec(rec.id_rec)
    assert after.status is RecStatus.CRIADA and after.loc is None and after.dados_qr is None
    with pytest.raises(NotFound):
        await client.get_rec_payload(loc.location)

    with pytest.raises(NotFound) as not_found:
        await client.get_locrec(987654321)
    assert not_found.value.type.endswith("/PayloadLocationRecNaoEncontrado")
    with pytest.raises(NotFound):
        await client.delete_locrec_idrec(987654321)


async def test_locrec_list_pages(client: QrCodesClient, control: Api) -> None:
    # The range goes on the wire in whole seconds: start on a fresh second of the sandbox
    # clock so that no location made by an earlier test falls inside it.
    start = sandbox_now(control).replace(microsecond=0) + dt.timedelta(seconds=1)
    await await_until(lambda: sandbox_now(control) >= start, "the sandbox clock on a new second")
    created = [(await client.post_locrec()).id for _ in range(3)]
    window = {"inicio": start, "fim": sandbox_now(control) + dt.timedelta(seconds=1)}
    first = await client.list_locrec(**window, itens_por_pagina=2)
    assert first.parametros.paginacao.quantidade_de_paginas == 2
    assert [loc.id for loc in first.loc] == created[:2]
    second = await client.list_locrec(**window, itens_por_pagina=2, pagina_atual=1)
    assert [loc.id for loc in second.loc] == created[2:]
    free = await collect(client.iter_locrec(**window, id_rec_presente=False, itens_por_pagina=2))
    assert [loc.id for loc in free] == created
    linked = await client.list_locrec(**window, id_rec_presente=True)
    assert linked.loc == [] and linked.parametros.id_rec_presente is True

    backwards = {"inicio": window["fim"], "fim": window["inicio"]}
    with pytest.raises(BadRequest):
        await client.list_locrec(**backwards)
    with pytest.raises(BadRequest):
        await collect(client.iter_locrec(**backwards))


# --------------------------------------------------------------------------------------------
# webhooks and scopes


@pytest.mark.parametrize("kind", ["rec", "cobr"])
async def test_webhook_put_get_delete(client: QrCodesClient, kind: str) -> None:
    put = getattr(client, f"put_webhook{kind}")
    get = getattr(client, f"get_webhook{kind}")
    delete = getattr(client, f"delete_webhook{kind}")
    with pytest.raises(BadRequest) as refused:
        await put("http://inseguro.example/hooks")
    assert refused.value.properties == {"webhookUrl"}

    created = await put("https://erp.example.com/hooks/")
    assert created.webhook_url == "https://erp.example.com/hooks/"
    assert created.criacao is not None and created.criacao.tzinfo is dt.UTC
    assert await get() == created
    assert await delete() is None
    with pytest.raises(NotFound):
        await get()
    with pytest.raises(NotFound):
        await delete()


async def test_scopes_are_enforced(
    sandbox: RunningSandbox, control: Api, make_config: Callable[..., ApiConfig]
) -> None:
    control.reset_token_limits()
    config = make_config(sandbox, "qrcodes", scopes=("rec.read",))
    async with ApiTransport(config) as transport:
        reader = QrCodesClient(transport)
        for call in (
            reader.post_locrec(),
            reader.put_webhookrec("https://erp.example.com/hooks"),
            reader.get_webhookcobr(),
            reader.post_rec(rec_body(sandbox_today(control))),
        ):
            with pytest.raises(Forbidden):
                await call


# --------------------------------------------------------------------------------------------
# the signed payload: verification details


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _signed(payload: dict[str, Any], key: rsa.RSAPrivateKey, header: dict[str, Any]) -> str:
    signing_input = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(payload).encode())}"
    signature = key.sign(signing_input.encode(), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64(signature)}"


def _jwks(key: rsa.RSAPrivateKey, kid: str) -> dict[str, Any]:
    numbers = key.public_key().public_numbers()
    return {
        "keys": [
            {
                "kty": "RSA",
                "use": "sig",
                "kid": kid,
                "n": _b64(numbers.n.to_bytes((numbers.n.bit_length() + 7) // 8, "big")),
                "e": _b64(numbers.e.to_bytes(3, "big")),
            }
        ]
    }


@pytest.fixture(scope="module")
def signing_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def test_jws_verification(signing_key: rsa.RSAPrivateKey) -> None:
    payload = {"idRec": "R" * 29, "valor": {"valorRec": "35.00"}}
    header = {"alg": "RS256", "kid": "k1"}
    jws = _signed(payload, signing_key, header)
    assert json.loads(verify_rec_payload_jws(jws, _jwks(signing_key, "k1"))) == payload

    head, body, signature = jws.split(".")
    forged = _b64(json.dumps({**payload, "valor": {"valorRec": "3500.00"}}).encode())
    with pytest.raises(PayloadSignatureError, match="does not match"):
        verify_rec_payload_jws(f"{head}.{forged}.{signature}", _jwks(signing_key, "k1"))
    other_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with pytest.raises(PayloadSignatureError, match="does not match"):
        verify_rec_payload_jws(jws, _jwks(other_key, "k1"))
    with pytest.raises(PayloadSignatureError, match="kid"):
        verify_rec_payload_jws(jws, _jwks(signing_key, "k2"))
    unsigned = f"{_b64(json.dumps({'alg': 'none'}).encode())}.{body}."
    with pytest.raises(PayloadSignatureError, match="RS256"):
        verify_rec_payload_jws(unsigned, _jwks(signing_key, "k1"))
    with pytest.raises(PayloadSignatureError):
        verify_rec_payload_jws("not-a-jws", _jwks(signing_key, "k1"))


class _FakeTransport:
    """Serves one JWS and one key set, recording the URLs asked (no network)."""

    def __init__(self, jws: str, jwks: dict[str, Any]) -> None:
        self.jws = jws
        self.jwks = jwks
        self.calls: list[tuple[str, bool]] = []
        self.config = type("Config", (), {"base_url": "https://bank.example:8443"})()

    async def request(self, method: str, path: str, **kwargs: Any) -> httpx.Response:
        self.calls.append((path, kwargs.get("authenticated", True)))
        return httpx.Response(200, text=self.jws, request=httpx.Request(method, path))

    async def request_json(self, method: str, path: str, **kwargs: Any) -> Any:
        self.calls.append((path, kwargs.get("authenticated", True)))
        return self.jwks


def _fake_client(transport: _FakeTransport) -> AutomaticoMethods:
    fake = type("C", (AutomaticoMethods,), {})()
    fake._transport = transport  # type: ignore[assignment]
    return fake


async def test_payload_key_set_must_be_on_the_location_host(
    signing_key: rsa.RSAPrivateKey,
) -> None:
    payload = {
        "idRec": "R" * 29,
        "vinculo": {"contrato": "C", "devedor": {"cpf": CPF, "nome": "F"}},
        "calendario": {"dataInicial": "2026-12-01", "periodicidade": "MENSAL"},
    }
    location = "psp.example:8443/qr/v2/rec/abc"
    jku = "https://psp.example:8443/jwks"
    good = _FakeTransport(
        _signed(payload, signing_key, {"alg": "RS256", "kid": "k", "jku": jku}),
        _jwks(signing_key, "k"),
    )
    parsed = await _fake_client(good).get_rec_payload(location)
    assert parsed.id_rec == "R" * 29
    assert good.calls == [(f"https://{location}", False), (jku, False)]

    # a key set on another host could be the forger's own: refused before it is fetched
    evil = _FakeTransport(
        _signed(payload, signing_key, {"alg": "RS256", "jku": "https://evil.example/jwks"}),
        _jwks(signing_key, "k"),
    )
    with pytest.raises(PayloadSignatureError, match="another host"):
        await _fake_client(evil).get_rec_payload(location)
    assert len(evil.calls) == 1
    # without jku, the bank's own key set
    plain = _FakeTransport(_signed(payload, signing_key, {"alg": "RS256"}), _jwks(signing_key, "k"))
    await _fake_client(plain).get_rec_payload(location)
    assert plain.calls[1] == ("https://bank.example:8443/jwks", False)
    with pytest.raises(ValueError, match="HTTPS"):
        await _fake_client(plain).get_rec_payload("http://psp.example/qr/v2/rec/abc")


# --------------------------------------------------------------------------------------------
# settlement on the clock: a private sandbox (days pass)


async def test_settlement_failure_and_retry_on_the_clock(
    make_sandbox: Callable[..., RunningSandbox], make_config: Callable[..., ApiConfig]
) -> None:
    private = make_sandbox("--clock-start", "2026-11-18T13:00:00Z")  # Wednesday 10:00 BRT
    control = Api(private, "accounts")
    today = dt.date(2026, 11, 18)
    due = dt.date(2026, 11, 23)  # Monday: Thursday 19 and Monday 23 (Friday 20 is a holiday)
    assert earliest_cobr_due_date(today) == due
    try:
        async with ApiTransport(make_config(private, "qrcodes")) as transport:
            client = QrCodesClient(transport)
            await client.put_webhookrec(HOOK)
            await client.put_webhookcobr(HOOK)
            policy = PoliticaRetentativa.PERMITE_3R_7D
            paying = await approved_rec(client, control, today, politica=policy)
            failing = await approved_rec(client, control, today, politica=policy)
            paid = await client.create_cobr(cobr_body(paying.id_rec, due))
            retried = await client.create_cobr(cobr_body(failing.id_rec, due))
            control.control("POST", f"/sandbox/automatico/cobr/{retried.txid}/fail-next")

            # Monday 10:30 Brasília: the scheduled debits settle or fail
            control.control("POST", "/sandbox/clock", {"set": "2026-11-23T13:30:00Z"})
            settled = await client.get_cobr(paid.txid)
            assert settled.status is CobRStatus.CONCLUIDA
            [attempt] = settled.tentativas
            assert attempt.status is TentativaStatus.PAGA
            assert [a.status for a in attempt.atualizacao] == [
                TentativaStatus.SOLICITADA,
                TentativaStatus.AGENDADA,
                TentativaStatus.PAGA,
            ]
            [pix] = settled.pix
            assert pix.end_to_end_id == attempt.end_to_end_id
            assert pix.valor == Decimal("50.00") and pix.txid == paid.txid

            failed = await client.get_cobr(retried.txid)
            assert failed.status is CobRStatus.ATIVA  # a retry is still possible
            assert failed.tentativas[0].status is TentativaStatus.REJEITADA
            assert failed.tentativas[0].rejeicao is not None
            assert failed.tentativas[0].rejeicao.codigo == "AM04"

            with pytest.raises(BadRequest, match="data futura"):
                await client.post_cobr_retentativa(retried.txid, due)
            with_retry = await client.post_cobr_retentativa(retried.txid, dt.date(2026, 11, 24))
            assert [(t.tipo, t.status) for t in with_retry.tentativas] == [
                (TentativaTipo.AGND, TentativaStatus.REJEITADA),
                (TentativaTipo.NTAG, TentativaStatus.SOLICITADA),
            ]
            assert with_retry.tentativas[1].data_liquidacao == dt.date(2026, 11, 24)
            with pytest.raises(BadRequest, match="SOLICITADA ou AGENDADA"):
                await client.post_cobr_retentativa(retried.txid, dt.date(2026, 11, 25))

            # Tuesday 10:30: the retry settles
            control.control("POST", "/sandbox/clock", {"set": "2026-11-24T13:30:00Z"})
            done = await client.get_cobr(retried.txid)
            assert done.status is CobRStatus.CONCLUIDA
            assert [t.status for t in done.tentativas] == [
                TentativaStatus.REJEITADA,
                TentativaStatus.PAGA,
            ]
            assert done.pix[0].end_to_end_id == done.tentativas[1].end_to_end_id
            concluded = await collect(
                client.iter_cobr(
                    inicio=dt.datetime(2026, 11, 18, tzinfo=dt.UTC),
                    fim=dt.datetime(2026, 11, 25, tzinfo=dt.UTC),
                    status=CobRStatus.CONCLUIDA,
                )
            )
            assert {c.txid for c in concluded} == {paid.txid, retried.txid}

            # what the webhook receiver would get: every notification body parses
            records = control.control("GET", "/sandbox/automatico/notifications")["notifications"]
            recs = [
                item
                for n in records
                if n["kind"] == "rec"
                for item in RecWebhookNotification.model_validate(n["payload"]).recs
            ]
            assert {(r.id_rec, r.status) for r in recs} >= {
                (paying.id_rec, RecStatus.CRIADA),
                (paying.id_rec, RecStatus.APROVADA),
            }
            cobrs = [
                item
                for n in records
                if n["kind"] == "cobr"
                for item in CobRWebhookNotification.model_validate(n["payload"]).cobsr
            ]
            mine = [c for c in cobrs if c.txid == retried.txid]
            assert mine[-1].status is CobRStatus.CONCLUIDA
            assert [t.status for t in mine[-1].tentativas] == [
                TentativaStatus.REJEITADA,
                TentativaStatus.PAGA,
            ]
            assert mine[-1].pix[0].valor == Decimal("50.00")
            assert any(
                c.status is CobRStatus.ATIVA
                and [t.status for t in c.tentativas] == [TentativaStatus.REJEITADA]
                for c in mine
            )
    finally:
        control.close()


async def test_cancelling_the_rec_cancels_its_open_cobr(
    client: QrCodesClient, control: Api
) -> None:
    today = sandbox_today(control)
    rec = await approved_rec(client, control, today)
    cobr: CobRCompleta = await client.create_cobr(
        cobr_body(rec.id_rec, earliest_cobr_due_date(today))
    )
    assert (await client.cancel_rec(rec.id_rec)).status is RecStatus.CANCELADA
    assert (await client.get_cobr(cobr.txid)).status is CobRStatus.CANCELADA
