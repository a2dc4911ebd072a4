"""Unit tests of the Cash In wire models: the BCB OpenAPI examples parse, money is Decimal,
unknown statuses and fields are kept, and to_wire writes the spec's names."""

from __future__ import annotations

import datetime as dt
import enum
import inspect
import json
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from treasury_app.api.qrcodes import cashin_models
from treasury_app.api.qrcodes.cashin_models import (
    CobCompleta,
    CobPayload,
    CobRevisada,
    CobsConsultadas,
    CobSolicitada,
    CobStatus,
    CobsVConsultadas,
    CobVCompleta,
    CobVPayload,
    CobVRevisada,
    CobVSolicitada,
    CobVValor,
    Devolucao,
    DevolucaoNatureza,
    DevolucaoSolicitada,
    DevolucaoStatus,
    LoteCobVConsultado,
    LoteCobVMembroStatus,
    LoteCobVRevisado,
    LoteCobVSolicitado,
    LotesCobVConsultados,
    ModalidadeAgente,
    PayloadLocationCompleta,
    PayloadLocationConsultadas,
    PayloadLocationSolicitada,
    Pix,
    PixConsultados,
    TipoCob,
    WebhookCompleto,
    WebhooksConsultados,
    WebhookSolicitado,
)
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain.money import dumps_json

EXAMPLES = Path(__file__).resolve().parent / "data" / "examples.json"
UTC = dt.UTC


@cache
def _all_examples() -> dict[str, Any]:
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))


def _resolve(value: Any) -> Any:
    """List examples embed others: ``{"allOf": [{"$ref": "#/components/examples/X/value"}]}``."""
    if isinstance(value, dict):
        refs = value.get("allOf")
        if list(value) == ["allOf"] and isinstance(refs, list) and len(refs) == 1:
            name = refs[0]["$ref"].split("/")[3]
            return _resolve(_all_examples()[name])
        return {key: _resolve(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve(item) for item in value]
    return value


def example(name: str) -> Any:
    return _resolve(_all_examples()[name])


def wire_json(model: BaseModel) -> Any:
    """What goes on the wire, read back as plain JSON (Decimals as they would be written)."""
    return json.loads(dumps_json(model.to_wire()))  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------
# BCB examples: responses


def test_cob_responses_parse_with_decimal_money_and_enum_status() -> None:
    cob = CobCompleta.model_validate(example("cobResponse1"))
    assert cob.txid == "7978c0c97ea847e78e8849634473c1f1"
    assert cob.status is CobStatus.ATIVA
    assert cob.valor.original == Decimal("37.00")
    assert isinstance(cob.valor.original, Decimal)
    assert cob.valor.modalidade_alteracao == 1
    assert cob.calendario.expiracao == 3600
    assert cob.calendario.criacao == dt.datetime(2020, 9, 9, 20, 15, 0, 358000, tzinfo=UTC)
    assert cob.loc is not None and cob.loc.id == 789 and cob.loc.tipo_cob is TipoCob.COB
    assert cob.location == "pix.example.com/qr/9d36b84fc70b478fb95c12729b90ca25"
    assert cob.devedor == Devedor(cnpj="12345678000195", nome="Empresa de Serviços SA")
    assert (cob.info_adicionais[0].nome, cob.info_adicionais[0].valor) == (
        "Campo 1",
        "Informação Adicional1 do PSP-Recebedor",
    )
    assert cob.pix == []


def test_concluded_cob_carries_its_pix_and_their_refunds() -> None:
    cob = CobCompleta.model_validate(example("cobResponse2"))
    assert cob.status is CobStatus.CONCLUIDA
    (pix,) = cob.pix
    assert pix.end_to_end_id == "E1234567820200909122120200808008"
    assert pix.valor == Decimal("110.00")
    (refund,) = pix.devolucoes
    assert refund.rtr_id == "D1234567820200909122120200808006"
    assert refund.valor == Decimal("10.00")
    assert refund.status is DevolucaoStatus.EM_PROCESSAMENTO
    assert refund.horario.solicitacao == dt.datetime(2020, 9, 9, 20, 15, 0, 358000, tzinfo=UTC)


@pytest.mark.parametrize("name", ["cobResponse5", "cobResponse6", "cobResponse7"])
def test_cob_with_withdrawal_or_change_parses(name: str) -> None:
    cob = CobCompleta.model_validate(example(name))
    retirada = cob.valor.retirada
    assert retirada is not None
    detail = retirada.saque or retirada.troco
    assert detail is not None
    assert isinstance(detail.valor, Decimal)
    assert detail.modalidade_agente in (ModalidadeAgente.AGPSS, ModalidadeAgente.AGTEC)
    assert detail.prestador_do_servico_de_saque == "12345678"


def test_cobv_response_parses_receiver_and_due_date() -> None:
    cobv = CobVCompleta.model_validate(example("cobResponse4"))
    assert cobv.calendario.data_de_vencimento == dt.date(2020, 12, 31)
    assert cobv.calendario.validade_apos_vencimento == 30
    assert cobv.recebedor is not None and cobv.recebedor.cnpj == "56989000019533"
    assert cobv.devedor is not None and cobv.devedor.cep == "70011750"
    assert cobv.valor.original == Decimal("123.45")
    assert cobv.loc is not None and cobv.loc.tipo_cob is TipoCob.COBV


def test_cob_lists_parse_every_item_and_the_page() -> None:
    cobs = CobsConsultadas.model_validate(example("getCobs1"))
    assert len(cobs.cobs) == 5
    assert cobs.parametros.inicio == dt.datetime(2020, 4, 1, tzinfo=UTC)
    assert cobs.parametros.paginacao.quantidade_de_paginas == 1
    assert cobs.cobs[1].pix[0].valor == Decimal("110.00")
    cobsv = CobsVConsultadas.model_validate(example("getCobsV1"))
    assert cobsv.cobs[0].calendario.data_de_vencimento == dt.date(2020, 12, 31)


def test_batch_answers_parse_members_and_their_problems() -> None:
    lote = LoteCobVConsultado.model_validate(example("loteCobVResponse1"))
    criada, negada = lote.cobsv
    assert criada.status is LoteCobVMembroStatus.CRIADA and criada.problema is None
    assert negada.status is LoteCobVMembroStatus.NEGADA
    assert negada.problema is not None and negada.problema.status == 400
    assert negada.problema.violacoes[0].propriedade == "cobv.devedor"
    lotes = LotesCobVConsultados.model_validate(example("getLotesCobsV"))
    assert [len(item.cobsv) for item in lotes.lotes] == [2, 2]


def test_batch_id_is_text_even_when_a_bank_sends_a_number() -> None:
    assert LoteCobVConsultado.model_validate({"id": 123, "cobsv": []}).id == "123"
    assert LoteCobVConsultado.model_validate({"id": "turma-a", "cobsv": []}).id == "turma-a"


def test_locations_parse() -> None:
    loc = PayloadLocationCompleta.model_validate(example("payloadLocationResponse1"))
    assert (loc.id, loc.txid, loc.tipo_cob) == (
        7716,
        "fda9460fe04e4f129b72863ae57ee22f",
        TipoCob.COBV,
    )
    assert loc.criacao == dt.datetime(2020, 3, 11, 21, 19, 51, 13000, tzinfo=UTC)
    unlinked = PayloadLocationCompleta.model_validate(example("payloadLocationResponse4"))
    assert unlinked.txid is None
    page = PayloadLocationConsultadas.model_validate(example("getPayloadLocation1"))
    assert [item.id for item in page.loc] == [7716, 856, 2316]


def test_pix_received_parse_with_value_components() -> None:
    pix = Pix.model_validate(example("pixResponse3"))
    assert pix.componentes_valor is not None
    assert pix.componentes_valor.original is not None
    assert pix.componentes_valor.original.valor == Decimal("180.00")
    assert pix.componentes_valor.saque is not None
    assert pix.componentes_valor.saque.valor == Decimal("20.00")
    page = PixConsultados.model_validate(example("getPix1"))
    assert [p.valor for p in page.pix] == [Decimal("100.00"), Decimal("200.00"), Decimal("200.00")]
    assert page.pix[0].devolucoes[0].id == "000AAA111"


def test_a_single_refund_object_is_read_as_a_list() -> None:
    # BCB's pixWebhook1 example writes devolucoes as one object.
    pix = Pix.model_validate(example("pixWebhook1"))
    assert [d.id for d in pix.devolucoes] == ["123ABC"]
    assert Pix.model_validate(example("pixWebhook2")).devolucoes == []


def test_refunds_parse() -> None:
    refused = Devolucao.model_validate(example("devolucaoResponse2"))
    assert refused.status is DevolucaoStatus.NAO_REALIZADO
    assert refused.motivo == "Negado por timeout"
    assert refused.valor == Decimal("20.00")


def test_signed_payloads_parse() -> None:
    cob = CobPayload.model_validate(example("cobPayload1"))
    assert cob.calendario.apresentacao == dt.datetime(2020, 4, 1, 18, tzinfo=UTC)
    assert cob.revisao == 3 and cob.valor.original == Decimal("500.00")
    cobv = CobVPayload.model_validate(example("cobPayload2"))
    assert cobv.valor.final == Decimal("140.45")
    assert cobv.valor.multa == Decimal("15.00") and cobv.valor.juros == Decimal("2.00")
    assert cobv.recebedor is not None and cobv.recebedor.cidade == "Belo Horizonte"


def test_webhook_answers_parse() -> None:
    hook = WebhookCompleto.model_validate(example("webhookResponse1"))
    assert hook.webhook_url == "https://pix.example.com/api/webhook/"
    assert hook.chave == "40a0932d-1918-4eee-845d-35a2da1690dc"
    page = WebhooksConsultados.model_validate(
        {
            "parametros": example("getWebhook1")["parametros"],
            "webhooks": [example("webhookResponse1")],
        }
    )
    assert page.webhooks[0].criacao == dt.datetime(2020, 11, 11, 10, 15, 0, 358000, tzinfo=UTC)


# ---------------------------------------------------------------------------------------------
# BCB examples: requests round-trip to the same JSON


@pytest.mark.parametrize("name", ["cobBody2", "cobBody6", "cobBody8", "cobBody9"])
def test_cob_request_examples_round_trip(name: str) -> None:
    body = CobSolicitada.model_validate(example(name))
    # BCB's schema requires calendario, which some of its own examples omit: without one we
    # send its default expiry explicitly.
    assert wire_json(body) == {"calendario": {"expiracao": 86400}, **example(name)}


@pytest.mark.parametrize("name", ["cobBody3", "cobBody4", "cobBody5", "cobBody7"])
def test_cob_revision_examples_round_trip(name: str) -> None:
    assert wire_json(CobRevisada.model_validate(example(name))) == example(name)


def test_cobv_request_example_round_trips_with_integer_modalidades() -> None:
    body = CobVSolicitada.model_validate(example("cobBody1"))
    assert body.valor.multa is not None and body.valor.multa.valor_perc == Decimal("15.00")
    expected = example("cobBody1")
    # BCB's example writes "modalidade": "2"; the schema (and we) send an integer.
    for part in ("multa", "juros", "desconto"):
        expected["valor"][part]["modalidade"] = int(expected["valor"][part]["modalidade"])
    assert wire_json(body) == expected


def test_batch_request_examples_round_trip() -> None:
    assert wire_json(LoteCobVSolicitado.model_validate(example("loteCobVBody1"))) == example(
        "loteCobVBody1"
    )
    revised = LoteCobVRevisado.model_validate(example("loteCobVBodyRevisado1"))
    assert revised.cobsv[0].valor is not None
    assert revised.cobsv[0].valor.original == Decimal("110.00")
    assert wire_json(revised) == example("loteCobVBodyRevisado1")


def test_small_request_examples_round_trip() -> None:
    for model, name in (
        (PayloadLocationSolicitada, "payloadLocationBody1"),
        (PayloadLocationSolicitada, "payloadLocationBody2"),
        (DevolucaoSolicitada, "devolucaoSolicitada1"),
        (WebhookSolicitado, "webhookBody1"),
    ):
        assert wire_json(model.model_validate(example(name))) == example(name), name


# ---------------------------------------------------------------------------------------------
# Money, statuses, unknown fields, to_wire


def test_money_is_written_as_a_two_place_decimal_string() -> None:
    body = CobSolicitada(
        calendario={"expiracao": 600},
        valor={"original": Decimal("10")},
        chave="11222333000181",
    )
    wire = body.to_wire()
    assert wire["valor"] == {"original": "10.00"}
    assert '"original": "10.00"' in dumps_json(wire)
    refund = DevolucaoSolicitada(valor=Decimal("0.5"), natureza=DevolucaoNatureza.ORIGINAL)
    assert refund.to_wire() == {"valor": "0.50", "natureza": "ORIGINAL"}


def test_money_rejects_floats_and_a_third_decimal_place() -> None:
    with pytest.raises(ValidationError):
        Devolucao.model_validate({"id": "1", "valor": 7.89, "horario": {}, "status": "DEVOLVIDO"})
    with pytest.raises(ValidationError):
        Pix.model_validate(
            {"endToEndId": "E" * 32, "valor": "1.234", "horario": "2026-11-18T13:00:00Z"}
        )


def test_unknown_statuses_are_kept_as_text() -> None:
    cob = CobCompleta.model_validate({**example("cobResponse1"), "status": "EM_ANALISE"})
    assert cob.status == "EM_ANALISE" and not isinstance(cob.status, CobStatus)
    refund = Devolucao.model_validate({**example("devolucaoResponse1"), "status": "ESTORNADO"})
    assert refund.status == "ESTORNADO"
    member = LoteCobVConsultado.model_validate(
        {"cobsv": [{"txid": "a" * 26, "status": "ATIVA"}, {"txid": "b" * 26, "status": "X"}]}
    )
    assert member.cobsv[0].status is LoteCobVMembroStatus.ATIVA
    assert member.cobsv[1].status == "X"
    natureza = Devolucao.model_validate({**example("devolucaoResponse1"), "natureza": "NOVA"})
    assert natureza.natureza == "NOVA"


def test_request_enums_are_closed() -> None:
    with pytest.raises(ValidationError):
        PayloadLocationSolicitada.model_validate({"tipoCob": "cobr"})
    with pytest.raises(ValidationError):
        CobRevisada.model_validate({"status": "CANCELADA"})
    assert CobRevisada(status=CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR).to_wire() == {
        "status": "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    }


def test_unknown_fields_are_kept_and_sent_back() -> None:
    data = example("cobResponse1")
    data["novoCampo"] = {"a": 1}
    data["valor"]["moeda"] = "BRL"
    cob = CobCompleta.model_validate(data)
    assert cob.model_extra == {"novoCampo": {"a": 1}}
    wire = cob.to_wire()
    assert wire["novoCampo"] == {"a": 1}
    assert wire["valor"]["moeda"] == "BRL"


def test_to_wire_uses_spec_names_and_leaves_out_unset_fields() -> None:
    body = CobVSolicitada(
        calendario={"data_de_vencimento": dt.date(2026, 12, 15), "validade_apos_vencimento": 5},
        devedor=Devedor(cpf="40364478829", nome="Fulano"),
        valor=CobVValor(
            original=Decimal("100"),
            multa={"modalidade": 2, "valor_perc": Decimal("2")},
            desconto={
                "modalidade": 1,
                "desconto_data_fixa": [{"data": dt.date(2026, 12, 1), "valor_perc": "5.00"}],
            },
        ),
        chave="financeiro@empresasandbox.com.br",
        solicitacao_pagador="Mensalidade",
    )
    assert body.to_wire() == {
        "calendario": {"dataDeVencimento": "2026-12-15", "validadeAposVencimento": 5},
        "devedor": {"cpf": "40364478829", "nome": "Fulano"},
        "valor": {
            "original": "100.00",
            "multa": {"modalidade": 2, "valorPerc": "2.00"},
            "desconto": {
                "modalidade": 1,
                "descontoDataFixa": [{"data": "2026-12-01", "valorPerc": "5.00"}],
            },
        },
        "chave": "financeiro@empresasandbox.com.br",
        "solicitacaoPagador": "Mensalidade",
    }


def test_creation_bodies_require_what_the_contract_requires() -> None:
    with pytest.raises(ValidationError):
        CobSolicitada.model_validate({"valor": {"original": "1.00"}})  # no chave
    with pytest.raises(ValidationError):
        CobSolicitada.model_validate({"valor": {}, "chave": "k"})  # no valor.original
    with pytest.raises(ValidationError):
        CobVSolicitada.model_validate(
            {"calendario": {"dataDeVencimento": "2026-12-01"}, "valor": {"original": "1.00"}}
        )  # no devedor, no chave
    with pytest.raises(ValidationError):
        DevolucaoSolicitada.model_validate({})
    # Revisions change only what they carry.
    assert CobRevisada.model_validate({"valor": {"modalidadeAlteracao": 1}}).to_wire() == {
        "valor": {"modalidadeAlteracao": 1}
    }
    assert CobVRevisada.model_validate({"solicitacaoPagador": "x"}).to_wire() == {
        "solicitacaoPagador": "x"
    }


def test_timestamps_are_held_in_utc() -> None:
    pix = Pix.model_validate(
        {"endToEndId": "E" * 32, "valor": "1.00", "horario": "2026-11-18T10:00:00-03:00"}
    )
    assert pix.horario == dt.datetime(2026, 11, 18, 13, tzinfo=UTC)
    assert pix.to_wire()["horario"] == "2026-11-18T13:00:00.000Z"


def test_every_public_model_and_enum_is_exported() -> None:
    public = {
        name
        for name, value in vars(cashin_models).items()
        if inspect.isclass(value)
        and not name.startswith("_")
        and value.__module__ == cashin_models.__name__
        and issubclass(value, BaseModel | enum.Enum)
    }
    assert public == set(cashin_models.__all__)
