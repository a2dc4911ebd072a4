"""Wire models of the Cash In half of the QR Codes API (BCB Pix API 2.9 shapes).

Names follow the central bank's OpenAPI (``components/schemas``): ``CobSolicitada`` is the body
that creates an immediate charge, ``CobGerada`` what the bank answers on creation,
``CobCompleta`` what a query returns (with the ``pix[]`` that paid it), and likewise for
``cobv`` (charges with a due date), ``lotecobv`` (batches of cobv), payload locations
(``loc``), received Pix, refunds (``devolucao``) and the per-key Pix webhook.

Request models require what the bank's contract requires on creation and use closed enums;
response models are lenient: the bank may omit optional parts, add fields or add statuses
(unknown fields and statuses are kept, see :mod:`treasury_app.api.modeling`). Money is always
``Decimal`` (:data:`QrMoney`, a ``"123.45"`` string on the wire).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field

from treasury_app.api.modeling import ApiDate, ApiModel, QrMoney, UtcDatetime, open_enum
from treasury_app.api.qrcodes.models_common import Devedor, Parametros, Violacao

__all__ = [
    "CalendarioCob",
    "CalendarioCobV",
    "CobCompleta",
    "CobGerada",
    "CobPayload",
    "CobPayloadValor",
    "CobRevisada",
    "CobSolicitada",
    "CobStatus",
    "CobVCompleta",
    "CobVGerada",
    "CobVPayload",
    "CobVPayloadValor",
    "CobVRevisada",
    "CobVRevisadaLote",
    "CobVSolicitada",
    "CobVSolicitadaLote",
    "CobVValor",
    "CobVValorRevisado",
    "CobValor",
    "CobValorRevisado",
    "CobsConsultadas",
    "CobsVConsultadas",
    "ComponenteValor",
    "ComponentesValor",
    "Desconto",
    "DescontoDataFixa",
    "Devolucao",
    "DevolucaoHorario",
    "DevolucaoNatureza",
    "DevolucaoSolicitada",
    "DevolucaoStatus",
    "InfoAdicional",
    "LoteCobVConsultado",
    "LoteCobVMembro",
    "LoteCobVMembroStatus",
    "LoteCobVRevisado",
    "LoteCobVSolicitado",
    "LotesCobVConsultados",
    "ModalidadeAgente",
    "ModalidadeValor",
    "PayloadLocation",
    "PayloadLocationCob",
    "PayloadLocationCompleta",
    "PayloadLocationConsultadas",
    "PayloadLocationSolicitada",
    "Pix",
    "PixConsultados",
    "Problema",
    "Recebedor",
    "Retirada",
    "RetiradaDetalhe",
    "TipoCob",
    "WebhookCompleto",
    "WebhookSolicitado",
    "WebhooksConsultados",
]


# ---------------------------------------------------------------------------------------------
# Enumerations (open: a value the enum does not know is kept as a plain str)


class CobStatus(StrEnum):
    """``CobrancaStatus``: status of a cob or cobv."""

    ATIVA = "ATIVA"
    CONCLUIDA = "CONCLUIDA"
    REMOVIDA_PELO_USUARIO_RECEBEDOR = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    REMOVIDA_PELO_PSP = "REMOVIDA_PELO_PSP"


class TipoCob(StrEnum):
    """Kind of charge a payload location serves."""

    COB = "cob"
    COBV = "cobv"


class DevolucaoStatus(StrEnum):
    """Status of a refund."""

    EM_PROCESSAMENTO = "EM_PROCESSAMENTO"
    DEVOLVIDO = "DEVOLVIDO"
    NAO_REALIZADO = "NAO_REALIZADO"


class DevolucaoNatureza(StrEnum):
    """``DevolucaoNatureza``: a client asks only ORIGINAL or RETIRADA; MED_* come from the bank."""

    ORIGINAL = "ORIGINAL"
    RETIRADA = "RETIRADA"
    MED_OPERACIONAL = "MED_OPERACIONAL"
    MED_FRAUDE = "MED_FRAUDE"
    MED_PIX_AUTOMATICO = "MED_PIX_AUTOMATICO"


class LoteCobVMembroStatus(StrEnum):
    """Status of a batch member: BCB's EM_PROCESSAMENTO, CRIADA, NEGADA; once the charge exists
    the bank may show the charge's own status (ATIVA...), as the service's contract does."""

    EM_PROCESSAMENTO = "EM_PROCESSAMENTO"
    CRIADA = "CRIADA"
    NEGADA = "NEGADA"
    ATIVA = "ATIVA"
    CONCLUIDA = "CONCLUIDA"
    REMOVIDA_PELO_USUARIO_RECEBEDOR = "REMOVIDA_PELO_USUARIO_RECEBEDOR"
    REMOVIDA_PELO_PSP = "REMOVIDA_PELO_PSP"


class ModalidadeAgente(StrEnum):
    """Agent of a Pix Saque / Pix Troco."""

    AGTEC = "AGTEC"
    AGTOT = "AGTOT"
    AGPSS = "AGPSS"


CobStatusValue = open_enum(CobStatus)
TipoCobValue = open_enum(TipoCob)
DevolucaoStatusValue = open_enum(DevolucaoStatus)
DevolucaoNaturezaValue = open_enum(DevolucaoNatureza)
LoteCobVMembroStatusValue = open_enum(LoteCobVMembroStatus)
ModalidadeAgenteValue = open_enum(ModalidadeAgente)


def _id_text(value: Any) -> Any:
    """Batch ids are the client's strings; BCB's schema shows an integer: accept both."""
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _as_list(value: Any) -> Any:
    """One BCB example sends ``devolucoes`` as a single object: read it as a list of one."""
    return [value] if isinstance(value, dict) else value


LoteId = Annotated[str, BeforeValidator(_id_text)]

DEFAULT_EXPIRACAO = 86400
"""BCB's default lifetime of a cob, in seconds (``CobExpiracao.expiracao``)."""


# ---------------------------------------------------------------------------------------------
# Pieces shared by cob and cobv


class InfoAdicional(ApiModel):
    """One of ``infoAdicionais``: a name and a value shown to the payer."""

    nome: str
    valor: str


class Recebedor(Devedor):
    """The receiver of a cobv (``DadosRecebedor``): the debtor's fields plus ``nomeFantasia``."""

    nome_fantasia: str | None = None


class PayloadLocationCob(ApiModel):
    """``loc`` of a request: the id of a location created beforehand with POST /loc."""

    id: int


class PayloadLocation(ApiModel):
    """``PayloadLocation``: a location as embedded in a charge (``loc``) and DELETE's answer."""

    id: int
    location: str | None = None
    tipo_cob: TipoCobValue | None = None
    criacao: UtcDatetime | None = None
    txid: str | None = None


class PayloadLocationCompleta(PayloadLocation):
    """``PayloadLocationCompleta``: a location with the txid linked to it, if any."""


class PayloadLocationSolicitada(ApiModel):
    """Body of POST /loc."""

    tipo_cob: TipoCob


class Problema(ApiModel):
    """A problem (RFC 7807) embedded in a batch member that was refused."""

    type: str | None = None
    title: str | None = None
    status: int | None = None
    detail: str | None = None
    instance: str | None = None
    correlation_id: str | None = None
    violacoes: list[Violacao] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Pix received and refunds


class DevolucaoHorario(ApiModel):
    """When a refund was asked and settled."""

    solicitacao: UtcDatetime | None = None
    liquidacao: UtcDatetime | None = None


class DevolucaoSolicitada(ApiModel):
    """Body of PUT /pix/{e2eid}/devolucao/{id}."""

    valor: QrMoney
    natureza: DevolucaoNatureza | None = None
    descricao: str | None = None


class Devolucao(ApiModel):
    """A refund of a received Pix (``Devolucao``)."""

    id: str
    rtr_id: str | None = None
    valor: QrMoney
    natureza: DevolucaoNaturezaValue | None = None
    descricao: str | None = None
    horario: DevolucaoHorario = Field(default_factory=DevolucaoHorario)
    status: DevolucaoStatusValue
    motivo: str | None = None


class ComponenteValor(ApiModel):
    """One part of ``componentesValor`` (original, saque, troco, juros, multa...)."""

    valor: QrMoney
    modalidade_agente: ModalidadeAgenteValue | None = None
    prestador_do_servico_de_saque: str | None = None


class ComponentesValor(ApiModel):
    """How the amount of a Pix splits (cobv: original, juros, multa, abatimento, desconto)."""

    original: ComponenteValor | None = None
    saque: ComponenteValor | None = None
    troco: ComponenteValor | None = None
    juros: ComponenteValor | None = None
    multa: ComponenteValor | None = None
    abatimento: ComponenteValor | None = None
    desconto: ComponenteValor | None = None


class Pix(ApiModel):
    """A Pix received (``Pix``): GET /pix/{e2eid}, inside ``cob.pix[]`` and the webhook."""

    end_to_end_id: str
    txid: str | None = None
    valor: QrMoney
    componentes_valor: ComponentesValor | None = None
    chave: str | None = None
    horario: UtcDatetime
    info_pagador: str | None = None
    devolucoes: Annotated[list[Devolucao], BeforeValidator(_as_list)] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Immediate charge (cob)


class CalendarioCob(ApiModel):
    """``calendario`` of a cob: ``expiracao`` (seconds) on requests; the bank adds ``criacao``
    and, in the signed payload, ``apresentacao``."""

    criacao: UtcDatetime | None = None
    apresentacao: UtcDatetime | None = None
    expiracao: int | None = None


class RetiradaDetalhe(ApiModel):
    """A Pix Saque or Pix Troco inside ``valor.retirada``."""

    valor: QrMoney
    modalidade_alteracao: int | None = None
    modalidade_agente: ModalidadeAgenteValue
    prestador_do_servico_de_saque: str


class Retirada(ApiModel):
    """``valor.retirada``: either ``saque`` or ``troco``."""

    saque: RetiradaDetalhe | None = None
    troco: RetiradaDetalhe | None = None


class _CobValorBase(ApiModel):
    modalidade_alteracao: int | None = None
    retirada: Retirada | None = None


class CobValor(_CobValorBase):
    """``valor`` of a cob: ``original`` and whether the payer may change it (1) or not (0)."""

    original: QrMoney


class CobValorRevisado(_CobValorBase):
    """``valor`` of a cob revision: every field optional."""

    original: QrMoney | None = None


class CobSolicitada(ApiModel):
    """Body of POST /cob and PUT /cob/{txid} (``CobSolicitada``). BCB requires ``calendario``:
    without one, the BCB default expiry (24 h) is sent explicitly."""

    calendario: CalendarioCob = Field(
        default_factory=lambda: CalendarioCob(expiracao=DEFAULT_EXPIRACAO)
    )
    devedor: Devedor | None = None
    loc: PayloadLocationCob | None = None
    valor: CobValor
    chave: str
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] | None = None


class CobRevisada(ApiModel):
    """Body of PATCH /cob/{txid}: the fields to change, or ``status``
    REMOVIDA_PELO_USUARIO_RECEBEDOR to remove the charge."""

    calendario: CalendarioCob | None = None
    devedor: Devedor | None = None
    loc: PayloadLocationCob | None = None
    status: CobStatus | None = None
    valor: CobValorRevisado | None = None
    chave: str | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] | None = None


class CobGerada(ApiModel):
    """A cob as created or revised (``CobGerada``)."""

    calendario: CalendarioCob = Field(default_factory=CalendarioCob)
    txid: str
    revisao: int = 0
    devedor: Devedor | None = None
    loc: PayloadLocation | None = None
    location: str | None = None
    status: CobStatusValue
    valor: CobValor
    chave: str | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] = Field(default_factory=list)
    pix_copia_e_cola: str | None = None


class CobCompleta(CobGerada):
    """A cob as queried (``CobCompleta``): with the Pix that paid it."""

    pix: list[Pix] = Field(default_factory=list)


class CobPayloadValor(ApiModel):
    """``valor`` of the signed payload of a cob."""

    original: QrMoney
    modalidade_alteracao: int | None = None
    retirada: Retirada | None = None


class CobPayload(ApiModel):
    """The decoded JWS served at a cob's location (``CobPayload``)."""

    calendario: CalendarioCob = Field(default_factory=CalendarioCob)
    txid: str
    revisao: int = 0
    devedor: Devedor | None = None
    recebedor: Recebedor | None = None
    status: CobStatusValue
    valor: CobPayloadValor
    chave: str
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] = Field(default_factory=list)


class CobsConsultadas(ApiModel):
    """Answer of GET /cob: ``parametros`` and one page of ``cobs``."""

    parametros: Parametros = Field(default_factory=Parametros)
    cobs: list[CobCompleta] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Charge with due date (cobv)


class CalendarioCobV(ApiModel):
    """``calendario`` of a cobv: the due date and how many days it stays payable after it."""

    criacao: UtcDatetime | None = None
    apresentacao: UtcDatetime | None = None
    data_de_vencimento: ApiDate | None = None
    validade_apos_vencimento: int | None = None


class ModalidadeValor(ApiModel):
    """``multa``, ``juros`` or ``abatimento``: a modalidade and a value or percentage."""

    modalidade: int
    valor_perc: QrMoney


class DescontoDataFixa(ApiModel):
    """A fixed-date discount: up to ``data``, ``valorPerc`` off."""

    data: ApiDate
    valor_perc: QrMoney


class Desconto(ApiModel):
    """``desconto``: modalidades 1-2 use ``descontoDataFixa``, 3-6 ``valorPerc``."""

    modalidade: int
    valor_perc: QrMoney | None = None
    desconto_data_fixa: list[DescontoDataFixa] | None = None


class _CobVValorBase(ApiModel):
    multa: ModalidadeValor | None = None
    juros: ModalidadeValor | None = None
    abatimento: ModalidadeValor | None = None
    desconto: Desconto | None = None


class CobVValor(_CobVValorBase):
    """``valor`` of a cobv: original amount plus fine, interest, rebate and discount rules."""

    original: QrMoney


class CobVValorRevisado(_CobVValorBase):
    """``valor`` of a cobv revision: every field optional."""

    original: QrMoney | None = None


class CobVSolicitada(ApiModel):
    """Body of PUT /cobv/{txid} (``CobVSolicitada``)."""

    calendario: CalendarioCobV
    devedor: Devedor
    loc: PayloadLocationCob | None = None
    valor: CobVValor
    chave: str
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] | None = None


class CobVRevisada(ApiModel):
    """Body of PATCH /cobv/{txid}: the fields to change, or ``status``
    REMOVIDA_PELO_USUARIO_RECEBEDOR."""

    calendario: CalendarioCobV | None = None
    devedor: Devedor | None = None
    loc: PayloadLocationCob | None = None
    status: CobStatus | None = None
    valor: CobVValorRevisado | None = None
    chave: str | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] | None = None


class CobVGerada(ApiModel):
    """A cobv as created or revised (``CobVGerada``)."""

    calendario: CalendarioCobV = Field(default_factory=CalendarioCobV)
    txid: str
    revisao: int = 0
    devedor: Devedor | None = None
    recebedor: Recebedor | None = None
    loc: PayloadLocation | None = None
    location: str | None = None
    status: CobStatusValue
    valor: CobVValor
    chave: str | None = None
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] = Field(default_factory=list)
    pix_copia_e_cola: str | None = None


class CobVCompleta(CobVGerada):
    """A cobv as queried (``CobVCompleta``): with the Pix that paid it."""

    pix: list[Pix] = Field(default_factory=list)


class CobVPayloadValor(ApiModel):
    """``valor`` of a cobv's signed payload: the amounts computed for the payment date."""

    original: QrMoney | None = None
    multa: QrMoney | None = None
    juros: QrMoney | None = None
    abatimento: QrMoney | None = None
    desconto: QrMoney | None = None
    final: QrMoney


class CobVPayload(ApiModel):
    """The decoded JWS served at a cobv's location (``CobVPayload``)."""

    calendario: CalendarioCobV = Field(default_factory=CalendarioCobV)
    txid: str
    revisao: int = 0
    devedor: Devedor | None = None
    recebedor: Recebedor | None = None
    status: CobStatusValue
    valor: CobVPayloadValor
    chave: str
    solicitacao_pagador: str | None = None
    info_adicionais: list[InfoAdicional] = Field(default_factory=list)


class CobsVConsultadas(ApiModel):
    """Answer of GET /cobv: ``parametros`` and one page of ``cobs``."""

    parametros: Parametros = Field(default_factory=Parametros)
    cobs: list[CobVCompleta] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Batches of cobv (lotecobv)


class CobVSolicitadaLote(CobVSolicitada):
    """One member of PUT /lotecobv/{id}: a cobv body with its txid."""

    txid: str


class CobVRevisadaLote(CobVRevisada):
    """One member of PATCH /lotecobv/{id}: the txid of an existing member and what changes."""

    txid: str


class LoteCobVSolicitado(ApiModel):
    """Body of PUT /lotecobv/{id}."""

    descricao: str | None = None
    cobsv: list[CobVSolicitadaLote]


class LoteCobVRevisado(ApiModel):
    """Body of PATCH /lotecobv/{id}: no member can be added or removed."""

    descricao: str | None = None
    cobsv: list[CobVRevisadaLote]


class LoteCobVMembro(ApiModel):
    """A member of a batch: status, the problem that refused it, and (GET) debtor and amount."""

    txid: str
    criacao: UtcDatetime | None = None
    status: LoteCobVMembroStatusValue
    problema: Problema | None = None
    devedor: Devedor | None = None
    valor: CobVValor | None = None


class LoteCobVConsultado(ApiModel):
    """A batch (``LoteCobVConsultado``); in lists the bank may give ``quantidadeCobrancas``
    instead of the members."""

    id: LoteId | None = None
    descricao: str | None = None
    criacao: UtcDatetime | None = None
    cobsv: list[LoteCobVMembro] = Field(default_factory=list)
    quantidade_cobrancas: int | None = None


class LotesCobVConsultados(ApiModel):
    """Answer of GET /lotecobv: ``parametros`` and one page of ``lotes``."""

    parametros: Parametros = Field(default_factory=Parametros)
    lotes: list[LoteCobVConsultado] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Lists of locations and Pix


class PayloadLocationConsultadas(ApiModel):
    """Answer of GET /loc: ``parametros`` and one page of ``loc``."""

    parametros: Parametros = Field(default_factory=Parametros)
    loc: list[PayloadLocationCompleta] = Field(default_factory=list)


class PixConsultados(ApiModel):
    """Answer of GET /pix: ``parametros`` and one page of ``pix``."""

    parametros: Parametros = Field(default_factory=Parametros)
    pix: list[Pix] = Field(default_factory=list)


# ---------------------------------------------------------------------------------------------
# Per-key Pix webhook


class WebhookSolicitado(ApiModel):
    """Body of PUT /webhook/{chave}: an HTTPS URL (the bank appends ``/pix``)."""

    webhook_url: str


class WebhookCompleto(ApiModel):
    """A per-key webhook: URL, key and creation time."""

    webhook_url: str
    chave: str | None = None
    criacao: UtcDatetime | None = None


class WebhooksConsultados(ApiModel):
    """Answer of GET /webhook: ``parametros`` and one page of ``webhooks``."""

    parametros: Parametros = Field(default_factory=Parametros)
    webhooks: list[WebhookCompleto] = Field(default_factory=list)
