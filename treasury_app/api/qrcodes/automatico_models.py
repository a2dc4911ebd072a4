"""Wire models of Pix Automático on the QR Codes API (BCB Pix API 2.8+): recurrences (rec),
confirmation requests (solicrec), recurring charges (cobr) with their settlement attempts
(tentativas), recurrence payload locations (locrec), the global webhooks (webhookrec,
webhookcobr), the recurrence payload a location serves (RecPayload) and the notification
bodies (``{"recs": [...]}``, ``{"cobsr": [...]}``).

Names follow the BCB schemas: ``...Solicitada`` is a body we send to create, ``...Revisada``
a body we send to change, ``...Completa`` what the bank answers, ``...Consultadas`` a page of
a list. Enum fields that only we send (``politicaRetentativa``, ``tipoConta`` of a charge
request, the statuses of revisions) are closed; everything the bank answers, and the pieces a
request shares with answers (``calendario.periodicidade``), is read with :func:`open_enum` so
that a value the bank adds later is kept as a plain ``str`` instead of breaking the app.
Amounts are ``Decimal`` (``QrMoney``, ``"123.45"`` on the wire), dates ``date``, timestamps UTC.

Quirks of the BCB reference tolerated here (its examples, not its schemas): recurrence
``atualizacao`` items naming the status ``nome``; ``tipoConta`` written ``POUPANÇA``; a
``recPayload`` without ``politicaRetentativa``; attempts without ``atualizacao``.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import AliasChoices, Field

from treasury_app.api.modeling import ApiDate, ApiModel, QrMoney, UtcDatetime, open_enum
from treasury_app.api.qrcodes.models_common import Devedor, Parametros

__all__ = [
    "AtivacaoRec",
    "AtualizacaoCobR",
    "AtualizacaoRec",
    "AtualizacaoSolicRec",
    "AtualizacaoTentativa",
    "CalendarioCobR",
    "CalendarioRec",
    "CalendarioRecRevisado",
    "CalendarioSolicRec",
    "Cancelamento",
    "CobRCompleta",
    "CobRNotification",
    "CobRRevisada",
    "CobRSolicitada",
    "CobRStatus",
    "CobRWebhookNotification",
    "CobsRConsultadas",
    "DadosBancariosRecebedor",
    "DadosJornada",
    "DadosQR",
    "DestinatarioSolicRec",
    "DevolucaoPixAutomatico",
    "Encerramento",
    "HorarioDevolucaoPixAutomatico",
    "LocRec",
    "LocsRecConsultadas",
    "PagadorRec",
    "ParametrosConsultaCobR",
    "ParametrosConsultaLocRec",
    "ParametrosConsultaRec",
    "Periodicidade",
    "PixAutomatico",
    "PoliticaRetentativa",
    "RecCompleta",
    "RecNotification",
    "RecPayload",
    "RecRevisada",
    "RecSolicitada",
    "RecStatus",
    "RecWebhookNotification",
    "RecebedorCobR",
    "RecebedorRec",
    "RecsConsultadas",
    "Rejeicao",
    "SolicRecCompleta",
    "SolicRecRevisada",
    "SolicRecSolicitada",
    "SolicRecStatus",
    "Tentativa",
    "TentativaStatus",
    "TentativaTipo",
    "TipoConta",
    "TipoJornada",
    "ValorCobR",
    "ValorRec",
    "VinculoRec",
    "VinculoRecRevisado",
    "WebhookCobR",
    "WebhookRec",
    "WebhookRecSolicitado",
]


# --------------------------------------------------------------------------------------------
# Enums


class RecStatus(StrEnum):
    """Status of a recurrence."""

    CRIADA = "CRIADA"
    APROVADA = "APROVADA"
    REJEITADA = "REJEITADA"
    EXPIRADA = "EXPIRADA"
    CANCELADA = "CANCELADA"


class Periodicidade(StrEnum):
    """How often a recurrence charges."""

    SEMANAL = "SEMANAL"
    MENSAL = "MENSAL"
    TRIMESTRAL = "TRIMESTRAL"
    SEMESTRAL = "SEMESTRAL"
    ANUAL = "ANUAL"


class PoliticaRetentativa(StrEnum):
    """Retry policy after the due date: none, or up to 3 retries within 7 days."""

    NAO_PERMITE = "NAO_PERMITE"
    PERMITE_3R_7D = "PERMITE_3R_7D"


class SolicRecStatus(StrEnum):
    """Status of a confirmation request (journey 1)."""

    CRIADA = "CRIADA"
    ENVIADA = "ENVIADA"
    RECEBIDA = "RECEBIDA"
    REJEITADA = "REJEITADA"
    ACEITA = "ACEITA"
    EXPIRADA = "EXPIRADA"
    CANCELADA = "CANCELADA"


class CobRStatus(StrEnum):
    """Status of a recurring charge."""

    CRIADA = "CRIADA"
    ATIVA = "ATIVA"
    CONCLUIDA = "CONCLUIDA"
    EXPIRADA = "EXPIRADA"
    REJEITADA = "REJEITADA"
    CANCELADA = "CANCELADA"


class TentativaStatus(StrEnum):
    """Status of one settlement attempt of a recurring charge."""

    SOLICITADA = "SOLICITADA"
    AGENDADA = "AGENDADA"
    PAGA = "PAGA"
    CANCELADA = "CANCELADA"
    REJEITADA = "REJEITADA"
    EXPIRADA = "EXPIRADA"


class TentativaTipo(StrEnum):
    """Kind of attempt: the scheduled one (AGND), a retry (NTAG), or BCB's RIFL."""

    AGND = "AGND"
    NTAG = "NTAG"
    RIFL = "RIFL"


class TipoConta(StrEnum):
    """Type of the receiver's account credited by a recurring charge."""

    CORRENTE = "CORRENTE"
    POUPANCA = "POUPANCA"
    PAGAMENTO = "PAGAMENTO"


class TipoJornada(StrEnum):
    """Authorization journey of a recurrence (``AGUARDANDO_DEFINICAO`` until it is known)."""

    JORNADA_1 = "JORNADA_1"
    JORNADA_2 = "JORNADA_2"
    JORNADA_3 = "JORNADA_3"
    JORNADA_4 = "JORNADA_4"
    AGUARDANDO_DEFINICAO = "AGUARDANDO_DEFINICAO"


# --------------------------------------------------------------------------------------------
# Pieces shared by several resources


class Rejeicao(ApiModel):
    """Why a recurrence, a charge or an attempt was rejected (``codigo`` such as AP13, AM04)."""

    codigo: str | None = None
    descricao: str | None = None


class Cancelamento(ApiModel):
    """Who cancelled a recurrence or a charge, with the code (``SLCR``, ``ACCT``...)."""

    solicitante: str | None = None
    codigo: str | None = None
    descricao: str | None = None


class Encerramento(ApiModel):
    """How a recurrence or a charge ended: ``rejeicao`` or ``cancelamento``."""

    rejeicao: Rejeicao | None = None
    cancelamento: Cancelamento | None = None


class DadosJornada(ApiModel):
    """Journey 3: the txid of the immediate charge (cob) that activates the recurrence."""

    txid: str


class AtivacaoRec(ApiModel):
    """``ativacao``: the journey (answers only) and its data (journey 3's txid)."""

    tipo_jornada: open_enum(TipoJornada) | None = None
    dados_jornada: DadosJornada | None = None


# --------------------------------------------------------------------------------------------
# Recurrence payload locations (locrec)


class LocRec(ApiModel):
    """A recurrence payload location (``PayloadLocationRecCompleta``); ``location`` has no
    scheme (``host/qr/v2/rec/<token>``); ``id_rec`` is absent while no recurrence uses it."""

    id: int
    location: str
    criacao: UtcDatetime | None = None
    id_rec: str | None = None


class ParametrosConsultaLocRec(Parametros):
    """``parametros`` of GET /locrec: the range, the filters asked and the page."""

    id_rec_presente: bool | None = None
    recebedor: RecebedorRec | None = None


class LocsRecConsultadas(ApiModel):
    """A page of GET /locrec (BCB ``PayloadLocationRecConsultadas``)."""

    parametros: ParametrosConsultaLocRec
    loc: list[LocRec] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Recurrences (rec)


class VinculoRec(ApiModel):
    """``vinculo``: the contract, the debtor (``cpf`` or ``cnpj`` and ``nome``), the purpose."""

    contrato: str
    devedor: Devedor
    objeto: str | None = None


class CalendarioRec(ApiModel):
    """``calendario`` of a recurrence: first payment date, end of validity, periodicity."""

    data_inicial: ApiDate
    data_final: ApiDate | None = None
    periodicidade: open_enum(Periodicidade)


class ValorRec(ApiModel):
    """``valor`` of a recurrence: a fixed amount per cycle or a minimum (never both)."""

    valor_rec: QrMoney | None = None
    valor_minimo_recebedor: QrMoney | None = None


class RecebedorRec(ApiModel):
    """The receiver of a recurrence: the bank fills ``cnpj``/``nome`` (and
    ``ispbParticipante`` in the payload); the request may only give a ``convenio``."""

    cnpj: str | None = None
    nome: str | None = None
    convenio: str | None = None
    ispb_participante: str | None = None


class PagadorRec(ApiModel):
    """The payer who authorized the recurrence: document, PSP (ISPB), municipality code."""

    cpf: str | None = None
    cnpj: str | None = None
    ispb_participante: str | None = None
    cod_mun: str | None = None


class AtualizacaoRec(ApiModel):
    """One entry of a recurrence's status history."""

    # The BCB examples of RecCompleta name the status "nome" (its schema says "status").
    status: open_enum(RecStatus) | None = Field(
        default=None, validation_alias=AliasChoices("status", "nome")
    )
    data: UtcDatetime


class DadosQR(ApiModel):
    """``dadosQR``: the journey and the Pix Copia e Cola (simple or composite QR code)."""

    jornada: open_enum(TipoJornada) | None = None
    pix_copia_e_cola: str


class RecSolicitada(ApiModel):
    """Body of POST /rec."""

    vinculo: VinculoRec
    calendario: CalendarioRec
    valor: ValorRec | None = None
    recebedor: RecebedorRec | None = None
    politica_retentativa: PoliticaRetentativa
    loc: int | None = None
    ativacao: AtivacaoRec | None = None


class VinculoRecRevisado(ApiModel):
    """``vinculo`` of PATCH /rec: only the debtor's name may change (``{"devedor": {"nome"}}``)."""

    devedor: Devedor


class CalendarioRecRevisado(ApiModel):
    """``calendario`` of PATCH /rec: only ``dataInicial`` may change (recurrence CRIADA)."""

    data_inicial: ApiDate


class RecRevisada(ApiModel):
    """Body of PATCH /rec/{idRec}. The bank accepts ``status`` CANCELADA only, alone."""

    status: RecStatus | None = None
    vinculo: VinculoRecRevisado | None = None
    loc: int | None = None
    calendario: CalendarioRecRevisado | None = None
    ativacao: AtivacaoRec | None = None


class RecPayload(ApiModel):
    """The recurrence as its payload location serves it (JWS payload), also ``recPayload``
    of a confirmation request."""

    id_rec: str
    vinculo: VinculoRec
    calendario: CalendarioRec
    valor: ValorRec | None = None
    recebedor: RecebedorRec | None = None
    politica_retentativa: open_enum(PoliticaRetentativa) | None = None
    atualizacao: list[AtualizacaoRec] = Field(default_factory=list)


class RecCompleta(ApiModel):
    """A recurrence as POST, GET and PATCH /rec answer it (and each item of GET /rec).

    ``dados_qr`` comes with GET /rec/{idRec} when a location allows a QR code;
    ``solicitacao`` lists the confirmation requests of the recurrence.
    """

    id_rec: str
    vinculo: VinculoRec
    calendario: CalendarioRec
    valor: ValorRec | None = None
    recebedor: RecebedorRec | None = None
    pagador: PagadorRec | None = None
    status: open_enum(RecStatus)
    politica_retentativa: open_enum(PoliticaRetentativa) | None = None
    loc: LocRec | None = None
    atualizacao: list[AtualizacaoRec] = Field(default_factory=list)
    encerramento: Encerramento | None = None
    solicitacao: list[SolicRecCompleta] = Field(default_factory=list)
    ativacao: AtivacaoRec | None = None
    dados_qr: DadosQR | None = Field(default=None, alias="dadosQR")


class ParametrosConsultaRec(Parametros):
    """``parametros`` of GET /rec: the range, the filters asked and the page."""

    cpf: str | None = None
    cnpj: str | None = None
    location_presente: bool | None = None
    status: str | None = None
    recebedor: RecebedorRec | None = None


class RecsConsultadas(ApiModel):
    """A page of GET /rec."""

    parametros: ParametrosConsultaRec
    recs: list[RecCompleta] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Confirmation requests (solicrec)


class CalendarioSolicRec(ApiModel):
    """``calendario`` of a confirmation request: when the request sent to the payer expires."""

    data_expiracao_solicitacao: UtcDatetime


class DestinatarioSolicRec(ApiModel):
    """The payer's account the request is sent to (``cpf`` or ``cnpj``, ``conta``, ISPB)."""

    cpf: str | None = None
    cnpj: str | None = None
    agencia: str | None = None
    conta: str
    ispb_participante: str


class AtualizacaoSolicRec(ApiModel):
    """One entry of a confirmation request's status history."""

    status: open_enum(SolicRecStatus) | None = None
    data: UtcDatetime


class SolicRecSolicitada(ApiModel):
    """Body of POST /solicrec."""

    id_rec: str
    calendario: CalendarioSolicRec
    destinatario: DestinatarioSolicRec


class SolicRecRevisada(ApiModel):
    """Body of PATCH /solicrec/{idSolicRec}: ``{"status": "CANCELADA"}`` by default."""

    status: SolicRecStatus = SolicRecStatus.CANCELADA


class SolicRecCompleta(ApiModel):
    """A confirmation request as POST, GET and PATCH /solicrec answer it."""

    id_solic_rec: str
    id_rec: str
    calendario: CalendarioSolicRec
    destinatario: DestinatarioSolicRec
    status: open_enum(SolicRecStatus)
    atualizacao: list[AtualizacaoSolicRec] = Field(default_factory=list)
    rec_payload: RecPayload | None = None


# --------------------------------------------------------------------------------------------
# Recurring charges (cobr)


class CalendarioCobR(ApiModel):
    """``calendario`` of a recurring charge: due date; ``criacao`` (a date) in answers."""

    data_de_vencimento: ApiDate
    criacao: ApiDate | None = None


class ValorCobR(ApiModel):
    """``valor`` of a recurring charge."""

    original: QrMoney


class DadosBancariosRecebedor(ApiModel):
    """``recebedor`` of a charge request: the account credited."""

    agencia: str | None = None
    conta: str
    tipo_conta: TipoConta


class RecebedorCobR(ApiModel):
    """``recebedor`` of a charge as answered: the account, plus the company's ``cnpj``/``nome``."""

    agencia: str | None = None
    conta: str | None = None
    tipo_conta: open_enum(TipoConta) | None = None
    cnpj: str | None = None
    nome: str | None = None


class AtualizacaoTentativa(ApiModel):
    """One entry of an attempt's status history."""

    status: open_enum(TentativaStatus) | None = None
    data: UtcDatetime


class Tentativa(ApiModel):
    """One settlement attempt of a recurring charge (AGND scheduled, NTAG retry)."""

    data_liquidacao: ApiDate
    tipo: open_enum(TentativaTipo)
    status: open_enum(TentativaStatus)
    end_to_end_id: str | None = None
    atualizacao: list[AtualizacaoTentativa] = Field(default_factory=list)
    rejeicao: Rejeicao | None = None


class HorarioDevolucaoPixAutomatico(ApiModel):
    """When a refund of a Pix Automático payment was asked and settled."""

    solicitacao: UtcDatetime | None = None
    liquidacao: UtcDatetime | None = None


class DevolucaoPixAutomatico(ApiModel):
    """A refund of a Pix Automático payment."""

    id: str
    rtr_id: str | None = None
    valor: QrMoney
    natureza: str | None = None
    descricao: str | None = None
    horario: HorarioDevolucaoPixAutomatico | None = None
    status: str | None = None
    motivo: str | None = None


class PixAutomatico(ApiModel):
    """A Pix received by a recurring charge (its paid attempt)."""

    end_to_end_id: str
    txid: str | None = None
    valor: QrMoney
    horario: UtcDatetime
    info_pagador: str | None = None
    devolucoes: list[DevolucaoPixAutomatico] = Field(default_factory=list)


class AtualizacaoCobR(ApiModel):
    """One entry of a recurring charge's status history."""

    status: open_enum(CobRStatus) | None = None
    data: UtcDatetime


class CobRSolicitada(ApiModel):
    """Body of PUT /cobr/{txid} and POST /cobr."""

    id_rec: str
    info_adicional: str | None = None
    calendario: CalendarioCobR
    valor: ValorCobR
    ajuste_dia_util: bool = True
    devedor: Devedor | None = None
    recebedor: DadosBancariosRecebedor


class CobRRevisada(ApiModel):
    """Body of PATCH /cobr/{txid}. The bank accepts ``status`` CANCELADA only."""

    status: CobRStatus | None = None


class CobRCompleta(ApiModel):
    """A recurring charge as PUT/POST/GET/PATCH /cobr and the retry answer it."""

    id_rec: str
    txid: str
    info_adicional: str | None = None
    calendario: CalendarioCobR
    valor: ValorCobR
    status: open_enum(CobRStatus)
    politica_retentativa: open_enum(PoliticaRetentativa) | None = None
    ajuste_dia_util: bool | None = None
    devedor: Devedor | None = None
    recebedor: RecebedorCobR | None = None
    atualizacao: list[AtualizacaoCobR] = Field(default_factory=list)
    encerramento: Encerramento | None = None
    tentativas: list[Tentativa] = Field(default_factory=list)
    pix: list[PixAutomatico] = Field(default_factory=list)


class ParametrosConsultaCobR(Parametros):
    """``parametros`` of GET /cobr: the range, the filters asked and the page."""

    id_rec: str | None = None
    cpf: str | None = None
    cnpj: str | None = None
    status: str | None = None
    recebedor: RecebedorRec | None = None


class CobsRConsultadas(ApiModel):
    """A page of GET /cobr (the list is ``cobsr``)."""

    parametros: ParametrosConsultaCobR
    cobsr: list[CobRCompleta] = Field(default_factory=list)


# --------------------------------------------------------------------------------------------
# Webhooks (global, one per kind)


class WebhookRecSolicitado(ApiModel):
    """Body of PUT /webhookrec and PUT /webhookcobr (the URL must be HTTPS)."""

    webhook_url: str


class WebhookRec(ApiModel):
    """The recurrence webhook (GET/PUT /webhookrec)."""

    webhook_url: str
    criacao: UtcDatetime | None = None


class WebhookCobR(WebhookRec):
    """The recurring-charge webhook (GET/PUT /webhookcobr); same shape as :class:`WebhookRec`."""


# --------------------------------------------------------------------------------------------
# Notifications (POST <webhookUrl>/rec and <webhookUrl>/cobr)


class RecNotification(ApiModel):
    """One item of a recurrence notification."""

    id_rec: str
    status: open_enum(RecStatus)
    atualizacao: list[AtualizacaoRec] = Field(default_factory=list)
    encerramento: Encerramento | None = None
    ativacao: AtivacaoRec | None = None


class RecWebhookNotification(ApiModel):
    """Body POSTed to ``<webhookUrl>/rec``: ``{"recs": [...]}``."""

    recs: list[RecNotification]


class CobRNotification(ApiModel):
    """One item of a recurring-charge notification (status change or attempt)."""

    id_rec: str
    txid: str
    status: open_enum(CobRStatus)
    atualizacao: list[AtualizacaoCobR] = Field(default_factory=list)
    encerramento: Encerramento | None = None
    tentativas: list[Tentativa] = Field(default_factory=list)
    pix: list[PixAutomatico] = Field(default_factory=list)


class CobRWebhookNotification(ApiModel):
    """Body POSTed to ``<webhookUrl>/cobr``: ``{"cobsr": [...]}``."""

    cobsr: list[CobRNotification]


# Forward references (LocRec's parametros use RecebedorRec; RecCompleta lists SolicRecCompleta).
ParametrosConsultaLocRec.model_rebuild()
LocsRecConsultadas.model_rebuild()
RecCompleta.model_rebuild()
RecsConsultadas.model_rebuild()
