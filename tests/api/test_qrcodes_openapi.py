"""The JSON our QR Codes API request models send, checked against the central bank's OpenAPI
(``tests/api/data/openapi.yaml``, a verbatim copy of BCB Pix API 2.9.0).

Each request model is serialised as on the wire (``to_wire`` then ``dumps_json``: Decimals as
the strings the wire carries) and validated with ``OAS30Validator`` against its component
schema, ``$ref``s resolved inside the document. Because BCB's schemas allow additional
properties, a misspelt optional field would pass plain validation; every property we send is
therefore also looked up among the properties the schema defines at that place.

Known defects of the reference document, allowed for here without editing the copy (see its
README): patterns written with JavaScript slashes (``/^\\d{11}$/``, which no CPF matches) are
read without the slashes; a ``required`` entry naming a property the schema never defines
(``RecBase`` requires ``idRec`` and ``retentativa``, ``SolicRecBase`` ``pagador``) is ignored;
and a ``oneOf`` whose alternatives overlap (``valor.retirada``: saque or troco, neither
required; ``valor.desconto``; ``RecRevisada.vinculo.devedor``: two identical alternatives), so
that a valid value matches more than one, is read as ``anyOf``. BCB's own examples of
``retirada`` fail the document as written.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT4

from treasury_app.api.modeling import ApiModel
from treasury_app.api.qrcodes import automatico_models as auto
from treasury_app.api.qrcodes import cashin_models as cashin
from treasury_app.api.qrcodes.models_common import Devedor
from treasury_app.domain.money import dumps_json

REFERENCE = Path(__file__).resolve().parent / "data"  # a verbatim copy of BCB's openapi.yaml
BASE = "urn:bcb-pix-api"
LOTE_BODY = "#/components/requestBodies/LoteCobVBody/content/application~1json/schema"
LOTE_REVISADO = "#/components/requestBodies/LoteCobVBodyRevisado/content/application~1json/schema"
TXID = "fb2761260e554ad593c7226beb5cb650"
TXID_2 = "7978c0c97ea847e78e8849634473c1f1"
ID_REC = "RR1234567820240115abcdefghijk"


# ---------------------------------------------------------------------------------------------
# The document and the checks


def _fix_slash_patterns(node: Any) -> None:
    if isinstance(node, dict):
        pattern = node.get("pattern")
        if isinstance(pattern, str) and len(pattern) > 2 and pattern[0] == pattern[-1] == "/":
            node["pattern"] = pattern[1:-1]
        for value in node.values():
            _fix_slash_patterns(value)
    elif isinstance(node, list):
        for value in node:
            _fix_slash_patterns(value)


@cache
def document() -> dict[str, Any]:
    doc = yaml.safe_load((REFERENCE / "openapi.yaml").read_text(encoding="utf-8"))
    _fix_slash_patterns(doc)
    return doc


@cache
def _registry() -> Registry:
    resource = Resource.from_contents(document(), default_specification=DRAFT4)
    return Registry().with_resource(BASE, resource)


def _lookup(ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = document()
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def _branches(node: Any) -> list[dict[str, Any]]:
    """``node`` and every schema it is composed of (``$ref``, allOf, oneOf, anyOf)."""
    while isinstance(node, dict) and "$ref" in node:
        node = _lookup(node["$ref"])
    if not isinstance(node, dict):
        return []
    found = [node]
    for key in ("allOf", "oneOf", "anyOf"):
        for sub in node.get(key, []):
            found.extend(_branches(sub))
    return found


def _properties(node: Any) -> dict[str, list[Any]]:
    props: dict[str, list[Any]] = {}
    for branch in _branches(node):
        for name, sub in (branch.get("properties") or {}).items():
            props.setdefault(name, []).append(sub)
    return props


def _items(node: Any) -> list[Any]:
    return [branch["items"] for branch in _branches(node) if "items" in branch]


def _nodes_at(root: Any, path: Sequence[str | int]) -> list[Any]:
    nodes = [root]
    for part in path:
        nodes = [
            sub
            for node in nodes
            for sub in (_items(node) if isinstance(part, int) else _properties(node).get(part, []))
        ]
    return nodes


def unknown_properties(node: Any, instance: Any, where: str = "") -> list[str]:
    """Every property of ``instance`` the schema does not define where it appears."""
    if isinstance(instance, dict):
        props = _properties(node)
        found: list[str] = []
        for name, value in instance.items():
            if name not in props:
                found.append(f"{where}.{name}")
            else:
                found += unknown_properties({"anyOf": props[name]}, value, f"{where}.{name}")
        return found
    if isinstance(instance, list):
        items = {"anyOf": _items(node)}
        return [x for i, v in enumerate(instance) for x in unknown_properties(items, v, f"[{i}]")]
    return []


def schema_errors(pointer: str, instance: Any) -> list[str]:
    """Validation errors of ``instance`` against the schema at ``pointer`` (OpenAPI 3.0)."""
    # Imported here, once our models have loaded pydantic: openapi_schema_validator imports
    # pydantic_settings, and a first import of pydantic.fields made while PySide6's import hook
    # is active (pytest-qt) fails with a circular import inside pydantic.
    from openapi_schema_validator import OAS30Validator

    validator = OAS30Validator(
        {"$ref": BASE + pointer},
        registry=_registry(),
        format_checker=OAS30Validator.FORMAT_CHECKER,
    )
    root = {"$ref": pointer}
    errors = []
    for error in validator.iter_errors(instance):
        if error.validator == "required" and isinstance(error.instance, dict):
            # One error per missing name, worded "'name' is a required property".
            missing = next(
                name
                for name in error.validator_value
                if name not in error.instance and error.message.startswith(repr(name))
            )
            nodes = _nodes_at(root, list(error.absolute_path))
            if not any(missing in _properties(node) for node in nodes):
                continue  # a required entry naming a property that does not exist (defect)
        if error.validator == "oneOf" and not error.context:
            continue  # valid under several alternatives: an overlapping oneOf (defect)
        place = "/".join(str(part) for part in error.absolute_path) or "(body)"
        errors.append(f"{place}: {error.message}")
    return errors


def on_the_wire(model: BaseModel) -> Any:
    assert isinstance(model, ApiModel)
    return json.loads(dumps_json(model.to_wire()))


def assert_conforms(model: BaseModel, pointer: str) -> None:
    wire = on_the_wire(model)
    assert schema_errors(pointer, wire) == [], wire
    assert unknown_properties({"$ref": pointer}, wire) == [], wire


def schema(name: str) -> str:
    return f"#/components/schemas/{name}"


# ---------------------------------------------------------------------------------------------
# Cash In request bodies, as fully populated as the models allow


def devedor_pf() -> Devedor:
    return Devedor(cpf="12345678909", nome="Francisco da Silva")


def devedor_pj_endereco() -> Devedor:
    return Devedor(
        cnpj="12345678000195",
        nome="Empresa de Serviços SA",
        email="financeiro@servicos.com.br",
        logradouro="Alameda Souza, Numero 80",
        cidade="Recife",
        uf="PE",
        cep="70011750",
    )


def cob_solicitada() -> cashin.CobSolicitada:
    return cashin.CobSolicitada(
        calendario=cashin.CalendarioCob(expiracao=3600),
        devedor=devedor_pf(),
        loc=cashin.PayloadLocationCob(id=789),
        valor=cashin.CobValor(original=Decimal("37.00"), modalidade_alteracao=1),
        chave="7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
        solicitacao_pagador="Serviço realizado.",
        info_adicionais=[cashin.InfoAdicional(nome="Campo 1", valor="Informação 1")],
    )


def cob_solicitada_saque() -> cashin.CobSolicitada:
    return cashin.CobSolicitada(
        devedor=Devedor(cnpj="12345678000195", nome="Empresa de Serviços SA"),
        valor=cashin.CobValor(
            original=Decimal("0"),
            modalidade_alteracao=0,
            retirada=cashin.Retirada(
                saque=cashin.RetiradaDetalhe(
                    valor=Decimal("20"),
                    modalidade_alteracao=1,
                    modalidade_agente=cashin.ModalidadeAgente.AGPSS,
                    prestador_do_servico_de_saque="12345678",
                )
            ),
        ),
        chave="7d9f0335-8dcc-4054-9bf9-0dbd61d36906",
    )


def cob_revisada() -> cashin.CobRevisada:
    return cashin.CobRevisada(
        calendario=cashin.CalendarioCob(expiracao=600),
        devedor=devedor_pf(),
        loc=cashin.PayloadLocationCob(id=7768),
        valor=cashin.CobValorRevisado(original=Decimal("123.45"), modalidade_alteracao=0),
        chave="a1f4102e-a446-4a57-bcce-6fa48899c1d1",
        solicitacao_pagador="Cobrança dos serviços prestados.",
        info_adicionais=[cashin.InfoAdicional(nome="Pedido", valor="42")],
    )


def cobv_valor() -> cashin.CobVValor:
    return cashin.CobVValor(
        original=Decimal("123.45"),
        multa=cashin.ModalidadeValor(modalidade=2, valor_perc=Decimal("2")),
        juros=cashin.ModalidadeValor(modalidade=3, valor_perc=Decimal("1.5")),
        abatimento=cashin.ModalidadeValor(modalidade=1, valor_perc=Decimal("5")),
        desconto=cashin.Desconto(
            modalidade=1,
            desconto_data_fixa=[
                cashin.DescontoDataFixa(data=dt.date(2026, 12, 1), valor_perc=Decimal("10")),
                cashin.DescontoDataFixa(data=dt.date(2026, 12, 10), valor_perc=Decimal("5")),
            ],
        ),
    )


def cobv_solicitada() -> cashin.CobVSolicitada:
    return cashin.CobVSolicitada(
        calendario=cashin.CalendarioCobV(
            data_de_vencimento=dt.date(2026, 12, 15), validade_apos_vencimento=30
        ),
        devedor=devedor_pj_endereco(),
        loc=cashin.PayloadLocationCob(id=790),
        valor=cobv_valor(),
        chave="5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
        solicitacao_pagador="Mensalidade de dezembro",
        info_adicionais=[cashin.InfoAdicional(nome="Matrícula", valor="2026-001")],
    )


def cobv_solicitada_desconto_por_dia() -> cashin.CobVSolicitada:
    return cashin.CobVSolicitada(
        calendario=cashin.CalendarioCobV(data_de_vencimento=dt.date(2026, 12, 15)),
        devedor=devedor_pf(),
        valor=cashin.CobVValor(
            original=Decimal("1000"),
            desconto=cashin.Desconto(modalidade=3, valor_perc=Decimal("0.5")),
        ),
        chave="5f84a4c5-c5cb-4599-9f13-7eb4d419dacc",
    )


def cobv_revisada() -> cashin.CobVRevisada:
    return cashin.CobVRevisada(
        calendario=cashin.CalendarioCobV(data_de_vencimento=dt.date(2027, 1, 10)),
        devedor=devedor_pj_endereco(),
        valor=cashin.CobVValorRevisado(original=Decimal("110")),
        solicitacao_pagador="Nova data",
    )


def cobv_removida() -> cashin.CobVRevisada:
    return cashin.CobVRevisada(status=cashin.CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR)


def lote_solicitado() -> cashin.LoteCobVSolicitado:
    first = cobv_solicitada().model_dump()
    second = cobv_solicitada_desconto_por_dia().model_dump()
    return cashin.LoteCobVSolicitado(
        descricao="Cobranças dos alunos do turno vespertino",
        cobsv=[
            cashin.CobVSolicitadaLote(txid=TXID, **first),
            cashin.CobVSolicitadaLote(txid=TXID_2, **second),
        ],
    )


def lote_revisado() -> cashin.LoteCobVRevisado:
    return cashin.LoteCobVRevisado(
        descricao="Turno vespertino (revisado)",
        cobsv=[
            cashin.CobVRevisadaLote(
                txid=TXID,
                calendario=cashin.CalendarioCobV(data_de_vencimento=dt.date(2027, 1, 10)),
                valor=cashin.CobVValorRevisado(original=Decimal("110.00")),
            )
        ],
    )


CASHIN_CASES: list[tuple[str, Any, str]] = [
    ("CobSolicitada", cob_solicitada, schema("CobSolicitada")),
    ("CobSolicitada-saque", cob_solicitada_saque, schema("CobSolicitada")),
    (
        "CobSolicitada-sem-calendario",
        lambda: cashin.CobSolicitada(valor=cashin.CobValor(original=Decimal("10")), chave="k"),
        schema("CobSolicitada"),
    ),
    ("CobRevisada", cob_revisada, schema("CobRevisada")),
    (
        "CobRevisada-remocao",
        lambda: cashin.CobRevisada(status=cashin.CobStatus.REMOVIDA_PELO_USUARIO_RECEBEDOR),
        schema("CobRevisada"),
    ),
    ("CobVSolicitada", cobv_solicitada, schema("CobVSolicitada")),
    ("CobVSolicitada-desconto-por-dia", cobv_solicitada_desconto_por_dia, schema("CobVSolicitada")),
    ("CobVRevisada", cobv_revisada, schema("CobVRevisada")),
    ("CobVRevisada-remocao", cobv_removida, schema("CobVRevisada")),
    (
        "CobVSolicitadaLote",
        lambda: lote_solicitado().cobsv[0],
        LOTE_BODY + "/properties/cobsv/items",
    ),
    ("LoteCobVSolicitado", lote_solicitado, LOTE_BODY),
    (
        "CobVRevisadaLote",
        lambda: lote_revisado().cobsv[0],
        LOTE_REVISADO + "/properties/cobsv/items",
    ),
    ("LoteCobVRevisado", lote_revisado, LOTE_REVISADO),
    (
        "PayloadLocationSolicitada",
        lambda: cashin.PayloadLocationSolicitada(tipo_cob=cashin.TipoCob.COBV),
        schema("PayloadLocationSolicitada"),
    ),
    (
        "DevolucaoSolicitada",
        lambda: cashin.DevolucaoSolicitada(
            valor=Decimal("7.89"),
            natureza=cashin.DevolucaoNatureza.ORIGINAL,
            descricao="Devolução do troco",
        ),
        schema("DevolucaoSolicitada"),
    ),
    (
        "WebhookSolicitado",
        lambda: cashin.WebhookSolicitado(webhook_url="https://pix.example.com/api/webhook/"),
        schema("WebhookSolicitado"),
    ),
]


@pytest.mark.parametrize(
    ("build", "pointer"), [(b, p) for _, b, p in CASHIN_CASES], ids=[n for n, _, _ in CASHIN_CASES]
)
def test_cashin_request_conforms_to_the_bcb_schema(build: Any, pointer: str) -> None:
    assert_conforms(build(), pointer)


REQUEST_SUFFIXES = ("Solicitada", "Solicitado", "Revisada", "Revisado", "Lote")


def _model_names(value: Any) -> set[str]:
    """The classes of ``value`` and of every model nested in it."""
    if isinstance(value, BaseModel):
        names = {type(value).__name__}
        for name in type(value).model_fields:
            names |= _model_names(getattr(value, name))
        return names
    if isinstance(value, list):
        return {name for item in value for name in _model_names(item)}
    return set()


def test_every_cashin_request_model_is_checked() -> None:
    checked = {name for _, build, _ in CASHIN_CASES for name in _model_names(build())}
    request_models = {name for name in cashin.__all__ if name.endswith(REQUEST_SUFFIXES)}
    assert request_models <= checked, request_models - checked


# ---------------------------------------------------------------------------------------------
# BCB's own request examples, read by our models and written back


def _example(name: str) -> Any:
    return json.loads((REFERENCE / "examples.json").read_text(encoding="utf-8"))[name]


@pytest.mark.parametrize(
    ("model", "example_name", "pointer"),
    [
        (cashin.CobSolicitada, "cobBody2", schema("CobSolicitada")),
        (cashin.CobSolicitada, "cobBody6", schema("CobSolicitada")),
        (cashin.CobSolicitada, "cobBody8", schema("CobSolicitada")),
        (cashin.CobSolicitada, "cobBody9", schema("CobSolicitada")),
        (cashin.CobRevisada, "cobBody3", schema("CobRevisada")),
        (cashin.CobRevisada, "cobBody4", schema("CobRevisada")),
        (cashin.CobRevisada, "cobBody5", schema("CobRevisada")),
        (cashin.CobVSolicitada, "cobBody1", schema("CobVSolicitada")),
        (cashin.CobVRevisada, "cobBody7", schema("CobVRevisada")),
        (cashin.LoteCobVSolicitado, "loteCobVBody1", LOTE_BODY),
        (cashin.LoteCobVRevisado, "loteCobVBodyRevisado1", LOTE_REVISADO),
        (
            cashin.PayloadLocationSolicitada,
            "payloadLocationBody1",
            schema("PayloadLocationSolicitada"),
        ),
        (cashin.DevolucaoSolicitada, "devolucaoSolicitada1", schema("DevolucaoSolicitada")),
        (cashin.WebhookSolicitado, "webhookBody1", schema("WebhookSolicitado")),
        (auto.RecSolicitada, "recBody1", schema("RecSolicitada")),
        (auto.RecSolicitada, "recBody2", schema("RecSolicitada")),
        (auto.SolicRecSolicitada, "solicRecBody1", schema("SolicRecSolicitada")),
        (auto.SolicRecRevisada, "solicRecBody2", schema("SolicRecRevisada")),
        (auto.CobRRevisada, "cobRBody2", schema("CobRRevisada")),
        (auto.WebhookRecSolicitado, "recWebhookBody1", schema("WebhookRecSolicitado")),
        (auto.WebhookRecSolicitado, "cobRWebhookBody1", schema("WebhookCobRSolicitado")),
    ],
    ids=lambda value: value if isinstance(value, str) and not value.startswith("#") else "",
)
def test_bcb_request_examples_read_by_our_models_still_conform(
    model: type[BaseModel], example_name: str, pointer: str
) -> None:
    assert_conforms(model.model_validate(_example(example_name)), pointer)


# ---------------------------------------------------------------------------------------------
# Pix Automático request bodies


def rec_solicitada() -> auto.RecSolicitada:
    return auto.RecSolicitada(
        vinculo=auto.VinculoRec(
            contrato="63100862", devedor=devedor_pf(), objeto="Serviço de Streaming"
        ),
        calendario=auto.CalendarioRec(
            data_inicial=dt.date(2026, 12, 1),
            data_final=dt.date(2027, 12, 1),
            periodicidade=auto.Periodicidade.MENSAL,
        ),
        valor=auto.ValorRec(valor_rec=Decimal("35")),
        recebedor=auto.RecebedorRec(convenio="CONV-1"),
        politica_retentativa=auto.PoliticaRetentativa.PERMITE_3R_7D,
        loc=108,
        ativacao=auto.AtivacaoRec(dados_jornada=auto.DadosJornada(txid=TXID)),
    )


def rec_solicitada_valor_minimo() -> auto.RecSolicitada:
    return auto.RecSolicitada(
        vinculo=auto.VinculoRec(
            contrato="998782003",
            devedor=Devedor(cnpj="12345678000195", nome="Empresa de Serviços SA"),
        ),
        calendario=auto.CalendarioRec(
            data_inicial=dt.date(2026, 12, 10), periodicidade=auto.Periodicidade.ANUAL
        ),
        valor=auto.ValorRec(valor_minimo_recebedor=Decimal("5000")),
        politica_retentativa=auto.PoliticaRetentativa.NAO_PERMITE,
    )


def rec_revisada() -> auto.RecRevisada:
    return auto.RecRevisada(
        vinculo=auto.VinculoRecRevisado(devedor=Devedor(nome="Fulano de Tal")),
        loc=108,
        calendario=auto.CalendarioRecRevisado(data_inicial=dt.date(2026, 12, 5)),
        ativacao=auto.AtivacaoRec(dados_jornada=auto.DadosJornada(txid=TXID)),
    )


def solicrec_solicitada() -> auto.SolicRecSolicitada:
    return auto.SolicRecSolicitada(
        id_rec=ID_REC,
        calendario=auto.CalendarioSolicRec(
            data_expiracao_solicitacao=dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.UTC)
        ),
        destinatario=auto.DestinatarioSolicRec(
            cpf="15231470190", agencia="2569", conta="550689", ispb_participante="91193552"
        ),
    )


def cobr_solicitada() -> auto.CobRSolicitada:
    return auto.CobRSolicitada(
        id_rec=ID_REC,
        info_adicional="Serviços de Streaming de Música e Filmes.",
        calendario=auto.CalendarioCobR(data_de_vencimento=dt.date(2026, 12, 15)),
        valor=auto.ValorCobR(original=Decimal("106.07")),
        ajuste_dia_util=True,
        devedor=Devedor(
            email="sebastiao.tavares@mail.com",
            logradouro="Alameda Franco 1056",
            cidade="Uberlândia",
            uf="MG",
            cep="89256140",
        ),
        recebedor=auto.DadosBancariosRecebedor(
            agencia="9708", conta="012682", tipo_conta=auto.TipoConta.CORRENTE
        ),
    )


AUTOMATICO_CASES: list[tuple[str, Any, str]] = [
    ("RecSolicitada", rec_solicitada, schema("RecSolicitada")),
    ("RecSolicitada-valor-minimo", rec_solicitada_valor_minimo, schema("RecSolicitada")),
    ("RecRevisada", rec_revisada, schema("RecRevisada")),
    (
        "RecRevisada-cancelamento",
        lambda: auto.RecRevisada(status=auto.RecStatus.CANCELADA),
        schema("RecRevisada"),
    ),
    ("SolicRecSolicitada", solicrec_solicitada, schema("SolicRecSolicitada")),
    ("SolicRecRevisada", auto.SolicRecRevisada, schema("SolicRecRevisada")),
    ("CobRSolicitada", cobr_solicitada, schema("CobRSolicitada")),
    (
        "CobRRevisada",
        lambda: auto.CobRRevisada(status=auto.CobRStatus.CANCELADA),
        schema("CobRRevisada"),
    ),
    (
        "WebhookRecSolicitado",
        lambda: auto.WebhookRecSolicitado(webhook_url="https://erp.example.com/api/webhookrec/"),
        schema("WebhookRecSolicitado"),
    ),
    (
        "WebhookRecSolicitado-cobr",
        lambda: auto.WebhookRecSolicitado(webhook_url="https://erp.example.com/api/webhookcobr/"),
        schema("WebhookCobRSolicitado"),
    ),
]


@pytest.mark.parametrize(
    ("build", "pointer"),
    [(b, p) for _, b, p in AUTOMATICO_CASES],
    ids=[n for n, _, _ in AUTOMATICO_CASES],
)
def test_automatico_request_conforms_to_the_bcb_schema(build: Any, pointer: str) -> None:
    assert_conforms(build(), pointer)


def test_every_automatico_request_model_is_checked() -> None:
    checked = {name for _, build, _ in AUTOMATICO_CASES for name in _model_names(build())}
    request_models = {name for name in auto.__all__ if name.endswith(REQUEST_SUFFIXES)}
    assert request_models <= checked, request_models - checked


# ---------------------------------------------------------------------------------------------
# The checks themselves catch what they are for


def test_a_number_where_a_decimal_string_belongs_is_caught() -> None:
    wire = cob_solicitada().to_wire()
    wire["valor"]["original"] = Decimal("37.00")  # written as the JSON number 37.00
    errors = schema_errors(schema("CobSolicitada"), json.loads(dumps_json(wire)))
    assert any(error.startswith("valor/original:") for error in errors), errors


def test_a_misspelt_field_name_is_caught() -> None:
    wire = on_the_wire(cobv_solicitada())
    wire["solicitacao_pagador"] = wire.pop("solicitacaoPagador")
    wire["valor"]["multa"]["valor_perc"] = wire["valor"]["multa"].pop("valorPerc")
    assert sorted(unknown_properties({"$ref": schema("CobVSolicitada")}, wire)) == [
        ".solicitacao_pagador",
        ".valor.multa.valor_perc",
    ]
    # The misspelt required valorPerc is also a schema error.
    assert schema_errors(schema("CobVSolicitada"), wire)


def test_a_missing_required_field_is_caught_but_not_a_defective_requirement() -> None:
    wire = on_the_wire(cobv_solicitada())
    del wire["chave"]
    assert schema_errors(schema("CobVSolicitada"), wire) == [
        "(body): 'chave' is a required property"
    ]
    # RecBase "requires" idRec and retentativa, which RecSolicitada does not define.
    rec = on_the_wire(rec_solicitada())
    assert "idRec" not in rec and schema_errors(schema("RecSolicitada"), rec) == []
    del rec["vinculo"]
    assert schema_errors(schema("RecSolicitada"), rec) == [
        "(body): 'vinculo' is a required property"
    ]


def test_a_cpf_is_checked_with_the_intended_pattern() -> None:
    wire = on_the_wire(cob_solicitada())
    wire["devedor"]["cpf"] = "123.456.789-09"
    assert schema_errors(schema("CobSolicitada"), wire)


def test_the_reference_copy_is_untouched() -> None:
    original = yaml.safe_load((REFERENCE / "openapi.yaml").read_text(encoding="utf-8"))
    cpf = original["components"]["schemas"]["CPF"]["properties"]["cpf"]["pattern"]
    assert cpf == "/^\\d{11}$/"  # the defect allowed for above is still in the file
    fixed = document()["components"]["schemas"]["CPF"]["properties"]["cpf"]["pattern"]
    assert fixed == "^\\d{11}$"
