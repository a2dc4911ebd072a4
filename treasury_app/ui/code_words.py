"""The bank's codes as words in the UI language: one catalogue per family of codes.

The bank answers in codes (an infraction's ``FRAUD`` and ``UNDER_REVIEW``, a recurrence's
``MENSAL``, ``NAO_PERMITE``, ``JORNADA_1`` and ``APROVADA``, why it ended, ``AP13`` or
``SLCR``, a refund's ``DEVOLVIDO``, a key's ``EMAIL``, the type of a problem it answers,
``CobOperacaoInvalida``). The ledger, the exports for machines
and the logs keep them as they are; people see words, translated through Qt Linguist like
every other text (context ``CodeWords``). A code the catalogue does not know (a bank that adds
a value) is shown as "Other (unknown code)" and logged once, never raw. Statuses of payments,
journal notes and audit actions are in :mod:`treasury_app.ui.status_words`, which shares
:func:`unknown_word`.
"""

from __future__ import annotations

import logging
from enum import StrEnum
from typing import Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

__all__ = [
    "CONTEXT",
    "Family",
    "api_title",
    "api_word",
    "code_text",
    "code_word",
    "known_codes",
    "problem_field_word",
    "problem_title",
    "unknown_word",
]

log = logging.getLogger(__name__)

CONTEXT = "CodeWords"


class Family(StrEnum):
    """A family of codes; the same code may mean different things in two families (``CRIADA``
    is a recurrence waiting for its payer, a charge of a recurrence not yet sent)."""

    INFRACTION_REASON = "infraction reason"
    INFRACTION_STATUS = "infraction status"
    INFRACTION_SITUATION = "infraction situation"
    INFRACTION_REPORTER = "infraction reporter"
    INFRACTION_ANALYSIS = "infraction analysis"
    DEFENSE_STATUS = "defense status"
    PERIODICITY = "periodicity"
    RETRY_POLICY = "retry policy"
    JOURNEY = "journey"
    REC_STATUS = "recurrence status"
    SOLICREC_STATUS = "confirmation request status"
    COBR_STATUS = "recurring charge status"
    ATTEMPT_STATUS = "attempt status"
    ATTEMPT_KIND = "attempt kind"
    ACCOUNT_KIND = "account kind"
    BANK_ACCOUNT_TYPE = "bank account type"
    COB_STATUS = "charge status"
    BATCH_MEMBER_STATUS = "batch member status"
    REFUND_STATUS = "refund status"
    KEY_TYPE = "key type"
    TRANSACTION_TYPE = "transaction type"
    CREDIT_DEBIT = "credit or debit"
    REC_REJECTION = "recurrence rejection reason"
    REC_CANCELLATION = "recurrence cancellation reason"
    COBR_REJECTION = "recurring charge rejection reason"
    COBR_CANCELLATION = "recurring charge cancellation reason"
    CANCELLATION_REQUESTER = "cancellation requester"
    PROBLEM_TYPE = "bank problem type"
    """The last word of a problem answer's ``type`` (``.../error/CobOperacaoInvalida``)."""


# Every source text goes through QT_TRANSLATE_NOOP with the literal context (lupdate reads
# the call, not the helper), so each table spells it out.
_WORDS: dict[Family, dict[str, str]] = {
    Family.INFRACTION_REASON: {
        "FRAUD": QT_TRANSLATE_NOOP("CodeWords", "Fraud"),
        "REFUND_REQUEST": QT_TRANSLATE_NOOP("CodeWords", "Refund request"),
    },
    Family.INFRACTION_STATUS: {
        "OPEN": QT_TRANSLATE_NOOP("CodeWords", "Open"),
        "UNDER_REVIEW": QT_TRANSLATE_NOOP("CodeWords", "Under review"),
        "CLOSED": QT_TRANSLATE_NOOP("CodeWords", "Closed"),
    },
    Family.INFRACTION_SITUATION: {
        "FRAUD_SUSPECTED": QT_TRANSLATE_NOOP("CodeWords", "Suspected fraud"),
        "REFUND_REQUESTED": QT_TRANSLATE_NOOP("CodeWords", "Refund requested"),
    },
    Family.INFRACTION_REPORTER: {
        "DEBITED_PARTICIPANT": QT_TRANSLATE_NOOP("CodeWords", "The payer's bank"),
        "CREDITED_PARTICIPANT": QT_TRANSLATE_NOOP("CodeWords", "The receiver's bank"),
    },
    Family.INFRACTION_ANALYSIS: {
        "ACCEPTED": QT_TRANSLATE_NOOP("CodeWords", "Upheld"),
        "AGREED": QT_TRANSLATE_NOOP("CodeWords", "Upheld"),
        "REJECTED": QT_TRANSLATE_NOOP("CodeWords", "Not upheld"),
        "DISAGREED": QT_TRANSLATE_NOOP("CodeWords", "Not upheld"),
    },
    Family.DEFENSE_STATUS: {
        "SUBMITTED": QT_TRANSLATE_NOOP("CodeWords", "Submitted"),
        "ACCEPTED": QT_TRANSLATE_NOOP("CodeWords", "Accepted"),
        "REJECTED": QT_TRANSLATE_NOOP("CodeWords", "Rejected"),
    },
    Family.PERIODICITY: {
        "SEMANAL": QT_TRANSLATE_NOOP("CodeWords", "Weekly"),
        "MENSAL": QT_TRANSLATE_NOOP("CodeWords", "Monthly"),
        "TRIMESTRAL": QT_TRANSLATE_NOOP("CodeWords", "Quarterly"),
        "SEMESTRAL": QT_TRANSLATE_NOOP("CodeWords", "Every six months"),
        "ANUAL": QT_TRANSLATE_NOOP("CodeWords", "Yearly"),
    },
    Family.RETRY_POLICY: {
        "NAO_PERMITE": QT_TRANSLATE_NOOP("CodeWords", "No retries"),
        "PERMITE_3R_7D": QT_TRANSLATE_NOOP("CodeWords", "Up to 3 retries within 7 days"),
    },
    Family.JOURNEY: {
        "JORNADA_1": QT_TRANSLATE_NOOP("CodeWords", "Journey 1: request to the payer's bank"),
        "JORNADA_2": QT_TRANSLATE_NOOP("CodeWords", "Journey 2: authorisation QR Code"),
        "JORNADA_3": QT_TRANSLATE_NOOP("CodeWords", "Journey 3: QR Code with a payment"),
        "JORNADA_4": QT_TRANSLATE_NOOP("CodeWords", "Journey 4: offered after a payment"),
        "AGUARDANDO_DEFINICAO": QT_TRANSLATE_NOOP("CodeWords", "Not decided yet"),
    },
    Family.REC_STATUS: {
        "CRIADA": QT_TRANSLATE_NOOP("CodeWords", "Waiting for the payer"),
        "APROVADA": QT_TRANSLATE_NOOP("CodeWords", "Authorised"),
        "REJEITADA": QT_TRANSLATE_NOOP("CodeWords", "Refused by the payer"),
        "EXPIRADA": QT_TRANSLATE_NOOP("CodeWords", "Expired"),
        "CANCELADA": QT_TRANSLATE_NOOP("CodeWords", "Cancelled"),
    },
    Family.SOLICREC_STATUS: {
        "CRIADA": QT_TRANSLATE_NOOP("CodeWords", "Created"),
        "ENVIADA": QT_TRANSLATE_NOOP("CodeWords", "Sent to the payer's bank"),
        "RECEBIDA": QT_TRANSLATE_NOOP("CodeWords", "Received by the payer's bank"),
        "REJEITADA": QT_TRANSLATE_NOOP("CodeWords", "Refused by the payer"),
        "ACEITA": QT_TRANSLATE_NOOP("CodeWords", "Accepted by the payer"),
        "EXPIRADA": QT_TRANSLATE_NOOP("CodeWords", "Expired"),
        "CANCELADA": QT_TRANSLATE_NOOP("CodeWords", "Cancelled"),
    },
    Family.COBR_STATUS: {
        "CRIADA": QT_TRANSLATE_NOOP("CodeWords", "Created"),
        "ATIVA": QT_TRANSLATE_NOOP("CodeWords", "Scheduled"),
        "CONCLUIDA": QT_TRANSLATE_NOOP("CodeWords", "Paid"),
        "EXPIRADA": QT_TRANSLATE_NOOP("CodeWords", "Expired"),
        "REJEITADA": QT_TRANSLATE_NOOP("CodeWords", "Refused"),
        "CANCELADA": QT_TRANSLATE_NOOP("CodeWords", "Cancelled"),
    },
    Family.ATTEMPT_STATUS: {
        "SOLICITADA": QT_TRANSLATE_NOOP("CodeWords", "Requested"),
        "AGENDADA": QT_TRANSLATE_NOOP("CodeWords", "Scheduled"),
        "PAGA": QT_TRANSLATE_NOOP("CodeWords", "Paid"),
        "CANCELADA": QT_TRANSLATE_NOOP("CodeWords", "Cancelled"),
        "REJEITADA": QT_TRANSLATE_NOOP("CodeWords", "Refused"),
        "EXPIRADA": QT_TRANSLATE_NOOP("CodeWords", "Expired"),
    },
    Family.ATTEMPT_KIND: {
        "AGND": QT_TRANSLATE_NOOP("CodeWords", "Scheduled debit"),
        "NTAG": QT_TRANSLATE_NOOP("CodeWords", "Retry"),
        "RIFL": QT_TRANSLATE_NOOP("CodeWords", "Same-day retry"),
    },
    Family.ACCOUNT_KIND: {
        "CORRENTE": QT_TRANSLATE_NOOP("CodeWords", "Checking account"),
        "POUPANCA": QT_TRANSLATE_NOOP("CodeWords", "Savings account"),
        "PAGAMENTO": QT_TRANSLATE_NOOP("CodeWords", "Payment account"),
    },
    Family.BANK_ACCOUNT_TYPE: {
        "CACC": QT_TRANSLATE_NOOP("CodeWords", "Checking account"),
        "SVGS": QT_TRANSLATE_NOOP("CodeWords", "Savings account"),
        "SLRY": QT_TRANSLATE_NOOP("CodeWords", "Salary account"),
        "TRAN": QT_TRANSLATE_NOOP("CodeWords", "Payment account"),
    },
    Family.COB_STATUS: {
        "ATIVA": QT_TRANSLATE_NOOP("CodeWords", "Active"),
        "CONCLUIDA": QT_TRANSLATE_NOOP("CodeWords", "Paid"),
        "REMOVIDA_PELO_USUARIO_RECEBEDOR": QT_TRANSLATE_NOOP("CodeWords", "Removed by us"),
        "REMOVIDA_PELO_PSP": QT_TRANSLATE_NOOP("CodeWords", "Removed by the bank"),
    },
    Family.BATCH_MEMBER_STATUS: {
        "EM_PROCESSAMENTO": QT_TRANSLATE_NOOP("CodeWords", "Processing"),
        "CRIADA": QT_TRANSLATE_NOOP("CodeWords", "Created"),
        "NEGADA": QT_TRANSLATE_NOOP("CodeWords", "Refused"),
        "ATIVA": QT_TRANSLATE_NOOP("CodeWords", "Active"),
        "CONCLUIDA": QT_TRANSLATE_NOOP("CodeWords", "Paid"),
        "REMOVIDA_PELO_USUARIO_RECEBEDOR": QT_TRANSLATE_NOOP("CodeWords", "Removed by us"),
        "REMOVIDA_PELO_PSP": QT_TRANSLATE_NOOP("CodeWords", "Removed by the bank"),
    },
    Family.REFUND_STATUS: {
        "EM_PROCESSAMENTO": QT_TRANSLATE_NOOP("CodeWords", "Processing"),
        "DEVOLVIDO": QT_TRANSLATE_NOOP("CodeWords", "Refunded"),
        "NAO_REALIZADO": QT_TRANSLATE_NOOP("CodeWords", "Not made"),
    },
    Family.KEY_TYPE: {
        "CPF": QT_TRANSLATE_NOOP("CodeWords", "CPF"),
        "CNPJ": QT_TRANSLATE_NOOP("CodeWords", "CNPJ"),
        "EMAIL": QT_TRANSLATE_NOOP("CodeWords", "E-mail"),
        "PHONE": QT_TRANSLATE_NOOP("CodeWords", "Phone"),
        "EVP": QT_TRANSLATE_NOOP("CodeWords", "Random key"),
    },
    Family.TRANSACTION_TYPE: {
        "PIX": QT_TRANSLATE_NOOP("CodeWords", "Pix"),
        "BILLET": QT_TRANSLATE_NOOP("CodeWords", "Slip"),
        "REFUND": QT_TRANSLATE_NOOP("CodeWords", "Refund"),
        "FEE": QT_TRANSLATE_NOOP("CodeWords", "Fee"),
        "TED": QT_TRANSLATE_NOOP("CodeWords", "TED"),
    },
    Family.CREDIT_DEBIT: {
        "CREDIT": QT_TRANSLATE_NOOP("CodeWords", "Credit"),
        "DEBIT": QT_TRANSLATE_NOOP("CodeWords", "Debit"),
    },
    # Why a recurrence or a recurring charge ended (``encerramento``: BCB Pix API 2.8, the
    # codes of the SPI message catalogue). A recurring charge's rejection codes are also its
    # attempts' (``tentativas[].rejeicao``).
    Family.REC_REJECTION: {
        "AP13": QT_TRANSLATE_NOOP("CodeWords", "Refused by the payer"),
        "AP14": QT_TRANSLATE_NOOP("CodeWords", "Refused by the payer's bank"),
    },
    Family.REC_CANCELLATION: {
        "ACCL": QT_TRANSLATE_NOOP("CodeWords", "The payer's account was closed"),
        "CPCL": QT_TRANSLATE_NOOP("CodeWords", "The payer's company was closed"),
        "DCSD": QT_TRANSLATE_NOOP("CodeWords", "The payer died"),
        "ERSL": QT_TRANSLATE_NOOP("CodeWords", "The confirmation request was sent in error"),
        "FRUD": QT_TRANSLATE_NOOP("CodeWords", "Fraud"),
        "PCFD": QT_TRANSLATE_NOOP(
            "CodeWords", "The payer's bank did not answer the confirmation request in time"
        ),
        "SLCR": QT_TRANSLATE_NOOP("CodeWords", "At the receiver's request"),
        "SLDB": QT_TRANSLATE_NOOP("CodeWords", "At the payer's request"),
    },
    Family.COBR_REJECTION: {
        "AB10": QT_TRANSLATE_NOOP("CodeWords", "An error at the payer's bank stopped it"),
        "AC05": QT_TRANSLATE_NOOP("CodeWords", "The payer's account is closed"),
        "AC06": QT_TRANSLATE_NOOP("CodeWords", "The payer's account is blocked"),
        "AM02": QT_TRANSLATE_NOOP("CodeWords", "Above the maximum amount the payer set"),
        "AM04": QT_TRANSLATE_NOOP("CodeWords", "Insufficient funds in the payer's account"),
        "AM09": QT_TRANSLATE_NOOP("CodeWords", "Not the amount of the recurrence"),
        "DENC": QT_TRANSLATE_NOOP("CodeWords", "The payer's CPF or CNPJ is not the recurrence's"),
        "DS27": QT_TRANSLATE_NOOP(
            "CodeWords", "The payer's bank does not operate in the Pix settlement system"
        ),
        "DTED": QT_TRANSLATE_NOOP(
            "CodeWords", "The due date does not fit the recurrence's periodicity"
        ),
        "MSUC": QT_TRANSLATE_NOOP("CodeWords", "The settlement was not completed"),
        "RC09": QT_TRANSLATE_NOOP("CodeWords", "The payer's bank is not identified correctly"),
        # Codes whose meaning the specification does not give: said as what they are for
        # certain, a refusal of the payer's side; the bank's own description goes with them.
        "DTNT": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "FBRD": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "IRNT": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "MIDI": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "NIEC": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "NIPA": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "NITX": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "QUNT": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
        "UDEI": QT_TRANSLATE_NOOP(
            "CodeWords", "Refused on the payer's side (see the bank's description)"
        ),
    },
    Family.COBR_CANCELLATION: {
        "ACCT": QT_TRANSLATE_NOOP("CodeWords", "The payer's account was closed"),
        "BLCK": QT_TRANSLATE_NOOP("CodeWords", "The payer's account is blocked"),
        "CCLD": QT_TRANSLATE_NOOP("CodeWords", "The recurrence was cancelled"),
        "FAIL": QT_TRANSLATE_NOOP("CodeWords", "The settlement failed"),
        "OTHR": QT_TRANSLATE_NOOP("CodeWords", "Another reason"),
        "SLBD": QT_TRANSLATE_NOOP("CodeWords", "At the payer's request"),
        "SLCR": QT_TRANSLATE_NOOP("CodeWords", "At the receiver's request"),
    },
    Family.CANCELLATION_REQUESTER: {
        "PSP_PAGADOR": QT_TRANSLATE_NOOP("CodeWords", "cancelled by the payer's bank"),
        "USUARIO_PAGADOR": QT_TRANSLATE_NOOP("CodeWords", "cancelled by the payer"),
        "PSP_RECEBEDOR": QT_TRANSLATE_NOOP("CodeWords", "cancelled by our bank"),
        "USUARIO_RECEBEDOR": QT_TRANSLATE_NOOP("CodeWords", "cancelled by us"),
    },
    # The types of the BCB Pix API standard's problems (its info.description), the QR Codes
    # API's, and those the Accounts API answers (the sandbox's, like a Brazilian bank's).
    Family.PROBLEM_TYPE: {
        "RequisicaoInvalida": QT_TRANSLATE_NOOP("CodeWords", "The bank found the request invalid"),
        "NaoAutorizado": QT_TRANSLATE_NOOP("CodeWords", "The bank did not accept the access token"),
        "AcessoNegado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank denied access (permission or client certificate)"
        ),
        "NaoEncontrado": QT_TRANSLATE_NOOP("CodeWords", "The bank did not find what was asked"),
        "MetodoNaoPermitido": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank does not take this operation here"
        ),
        "Conflito": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused it: it conflicts with what the bank holds"
        ),
        "PermanentementeRemovido": QT_TRANSLATE_NOOP("CodeWords", "The bank removed this for good"),
        "IdempotenciaJaUtilizada": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank already holds a request with this key"
        ),
        "OperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused it by one of its rules"
        ),
        "LimiteExcedido": QT_TRANSLATE_NOOP(
            "CodeWords", "Too many requests to the bank: try again in a moment"
        ),
        "ErroInternoDoServidor": QT_TRANSLATE_NOOP("CodeWords", "Technical failure at the bank"),
        "ServicoIndisponivel": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank's service is unavailable right now"
        ),
        "IndisponibilidadePorTempoEsgotado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank took too long to answer"
        ),
        "CobPayloadNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the charge of this QR Code"
        ),
        "RecPayloadNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the recurrence of this QR Code"
        ),
        "RecNaoEncontrada": QT_TRANSLATE_NOOP("CodeWords", "The bank did not find the recurrence"),
        "SolicRecNaoEncontrada": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the confirmation request"
        ),
        "CobRNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the recurring charge"
        ),
        "CobNaoEncontrado": QT_TRANSLATE_NOOP("CodeWords", "The bank did not find the charge"),
        "CobVNaoEncontrada": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the due-date charge"
        ),
        "LoteCobVNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the batch of charges"
        ),
        "PayloadLocationNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the QR Code's location"
        ),
        "PayloadLocationRecNaoEncontrado": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the recurrence QR Code's location"
        ),
        "PixNaoEncontrado": QT_TRANSLATE_NOOP("CodeWords", "The bank did not find the Pix"),
        "PixDevolucaoNaoEncontrada": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank did not find the refund"
        ),
        "WebhookNaoEncontrado": QT_TRANSLATE_NOOP("CodeWords", "The bank did not find the webhook"),
        "CobPayloadOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the charge of this QR Code"
        ),
        "RecPayloadOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the recurrence of this QR Code"
        ),
        "RecOperacaoInvalida": QT_TRANSLATE_NOOP("CodeWords", "The bank refused the recurrence"),
        "RecConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for recurrences"
        ),
        "SolicRecOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the confirmation request"
        ),
        "CobROperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the recurring charge"
        ),
        "CobRConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for recurring charges"
        ),
        "CobOperacaoInvalida": QT_TRANSLATE_NOOP("CodeWords", "The bank refused the charge"),
        "CobConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for charges"
        ),
        "CobVOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the due-date charge"
        ),
        "CobVConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for due-date charges"
        ),
        "LoteCobVOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the batch of charges"
        ),
        "LoteCobVConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for batches of charges"
        ),
        "PayloadLocationOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the QR Code's location"
        ),
        "PayloadLocationConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for QR Code locations"
        ),
        "PayloadLocationRecConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for recurrence QR Code locations"
        ),
        "PixConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for received Pix"
        ),
        "PixDevolucaoInvalida": QT_TRANSLATE_NOOP("CodeWords", "The bank refused the refund"),
        "WebhookOperacaoInvalida": QT_TRANSLATE_NOOP("CodeWords", "The bank refused the webhook"),
        "WebhookConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for webhooks"
        ),
        "WebhookRecOperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the recurrences' webhook"
        ),
        "WebhookRecConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for the recurrences' webhook"
        ),
        "WebhookCobROperacaoInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the recurring charges' webhook"
        ),
        "WebhookCobRConsultaInvalida": QT_TRANSLATE_NOOP(
            "CodeWords", "The bank refused the search for the recurring charges' webhook"
        ),
        # The Accounts API's own (payments, slips)
        "SaldoInsuficiente": QT_TRANSLATE_NOOP("CodeWords", "Insufficient funds"),
        "ChaveNaoEncontrada": QT_TRANSLATE_NOOP("CodeWords", "The Pix key does not exist"),
        "BoletoJaPago": QT_TRANSLATE_NOOP("CodeWords", "This slip was paid already"),
        "BoletoVencido": QT_TRANSLATE_NOOP("CodeWords", "This slip is overdue"),
        "ForaDoHorario": QT_TRANSLATE_NOOP(
            "CodeWords", "Outside the bank's hours for this payment"
        ),
    },
}

_UNKNOWN = QT_TRANSLATE_NOOP("CodeWords", "Other (unknown code)")

_logged: set[tuple[str, str]] = set()


def unknown_word(family: str, code: str) -> str:
    """The word for a code no catalogue knows; the code is logged (once per family and
    code), so that a new value of the bank gets its word."""
    if (family, code) not in _logged:
        _logged.add((family, code))
        log.warning("unknown %s code from the bank: %r (shown as 'Other')", family, code)
    return QCoreApplication.translate(CONTEXT, _UNKNOWN)


_APIS: dict[str, tuple[str, str]] = {
    "qrcodes": (
        QT_TRANSLATE_NOOP("CodeWords", "QR Codes"),
        QT_TRANSLATE_NOOP("CodeWords", "QR Codes API"),
    ),
    "accounts": (
        QT_TRANSLATE_NOOP("CodeWords", "Accounts"),
        QT_TRANSLATE_NOOP("CodeWords", "Accounts API"),
    ),
}


def api_word(api: str) -> str:
    """One of the bank's two APIs (``qrcodes``, ``accounts``) in a word: "QR Codes",
    "Accounts" ("Contas" in pt_BR)."""
    words = _APIS.get(api)
    return QCoreApplication.translate(CONTEXT, words[0]) if words else unknown_word("api", api)


def api_title(api: str) -> str:
    """One of the bank's two APIs by its full name: "Accounts API" ("API de Contas")."""
    words = _APIS.get(api)
    return QCoreApplication.translate(CONTEXT, words[1]) if words else unknown_word("api", api)


def code_text(value: Any) -> str:
    """An enum the bank answered (or a plain string it added later) as its wire value."""
    if value is None:
        return ""
    return str(getattr(value, "value", value))


def code_word(family: Family, code: Any) -> str:
    """``code`` (a wire value or its enum) of ``family`` as a word in the UI language:
    ``code_word(Family.PERIODICITY, "MENSAL")`` is "Monthly" ("Mensal" in pt_BR). "" for no
    code; "Other (unknown code)" for a code the catalogue does not know."""
    text = code_text(code)
    if not text:
        return ""
    source = _WORDS[family].get(text)
    if source is None:
        return unknown_word(family.value, text)
    return QCoreApplication.translate(CONTEXT, source)


def known_codes(family: Family) -> frozenset[str]:
    """The codes of ``family`` the catalogue has a word for."""
    return frozenset(_WORDS[family])


# A problem whose type the catalogue does not know (``about:blank``, a bank's own): its kind,
# by the HTTP status, as the BCB standard's type for that status.
_PROBLEM_BY_STATUS = {
    400: "RequisicaoInvalida",
    401: "NaoAutorizado",
    403: "AcessoNegado",
    404: "NaoEncontrado",
    405: "MetodoNaoPermitido",
    409: "Conflito",
    410: "PermanentementeRemovido",
    412: "IdempotenciaJaUtilizada",
    422: "OperacaoInvalida",
    429: "LimiteExcedido",
    503: "ServicoIndisponivel",
    504: "IndisponibilidadePorTempoEsgotado",
}


def problem_title(type_name: str, status: int) -> str:
    """The bank's problem answer as a title in the UI language: the words for its type
    (``CobOperacaoInvalida``: "The bank refused the charge"); for a type the catalogue does not
    know (logged once), its kind by ``status``. Never the type's URI nor the status number."""
    words = _WORDS[Family.PROBLEM_TYPE]
    if (
        type_name
        and type_name not in words
        and (Family.PROBLEM_TYPE.value, type_name) not in _logged
    ):
        _logged.add((Family.PROBLEM_TYPE.value, type_name))
        log.warning("unknown problem type from the bank: %r (status %s)", type_name, status)
    known = type_name if type_name in words else None
    if known is None:
        known = _PROBLEM_BY_STATUS.get(status)
    if known is None:
        known = "ErroInternoDoServidor" if status >= 500 else "RequisicaoInvalida"
    return QCoreApplication.translate(CONTEXT, words[known])


# The fields a problem's ``violacoes`` name (``propriedade``), by their dotted name in the
# Pix API standard or the Accounts API, without the resource (``cob.``, ``cobv.``...).
_FIELDS: dict[str, str] = {
    "valor": QT_TRANSLATE_NOOP("CodeWords", "Amount"),
    "valor.original": QT_TRANSLATE_NOOP("CodeWords", "Amount"),
    "valor.valorRec": QT_TRANSLATE_NOOP("CodeWords", "Amount"),
    "valor.valorMinimoRecebedor": QT_TRANSLATE_NOOP("CodeWords", "Minimum amount"),
    "valor.modalidadeAlteracao": QT_TRANSLATE_NOOP("CodeWords", "Amount the payer may change"),
    "valor.multa": QT_TRANSLATE_NOOP("CodeWords", "Fine"),
    "valor.juros": QT_TRANSLATE_NOOP("CodeWords", "Interest"),
    "valor.abatimento": QT_TRANSLATE_NOOP("CodeWords", "Rebate"),
    "valor.desconto": QT_TRANSLATE_NOOP("CodeWords", "Discount"),
    "amount": QT_TRANSLATE_NOOP("CodeWords", "Amount"),
    "calendario.expiracao": QT_TRANSLATE_NOOP("CodeWords", "Expiry"),
    "expiration": QT_TRANSLATE_NOOP("CodeWords", "Expiry"),
    "calendario.dataDeVencimento": QT_TRANSLATE_NOOP("CodeWords", "Due date"),
    "dataDeVencimento": QT_TRANSLATE_NOOP("CodeWords", "Due date"),
    "calendario.validadeAposVencimento": QT_TRANSLATE_NOOP(
        "CodeWords", "Days payable after the due date"
    ),
    "calendario.dataInicial": QT_TRANSLATE_NOOP("CodeWords", "First payment date"),
    "calendario.dataFinal": QT_TRANSLATE_NOOP("CodeWords", "Last payment date"),
    "calendario.periodicidade": QT_TRANSLATE_NOOP("CodeWords", "Frequency"),
    "politicaRetentativa": QT_TRANSLATE_NOOP("CodeWords", "Retries"),
    "devedor": QT_TRANSLATE_NOOP("CodeWords", "Payer"),
    "pagador": QT_TRANSLATE_NOOP("CodeWords", "Payer"),
    "devedor.cpf": QT_TRANSLATE_NOOP("CodeWords", "Payer's CPF"),
    "devedor.cnpj": QT_TRANSLATE_NOOP("CodeWords", "Payer's CNPJ"),
    "devedor.nome": QT_TRANSLATE_NOOP("CodeWords", "Payer's name"),
    "devedor.email": QT_TRANSLATE_NOOP("CodeWords", "Payer's e-mail"),
    "vinculo.contrato": QT_TRANSLATE_NOOP("CodeWords", "Contract"),
    "vinculo.objeto": QT_TRANSLATE_NOOP("CodeWords", "What it pays for"),
    "vinculo.devedor": QT_TRANSLATE_NOOP("CodeWords", "Debtor"),
    "chave": QT_TRANSLATE_NOOP("CodeWords", "Pix key"),
    "pixKey": QT_TRANSLATE_NOOP("CodeWords", "Pix key"),
    "pixKeyType": QT_TRANSLATE_NOOP("CodeWords", "Pix key type"),
    "txid": QT_TRANSLATE_NOOP("CodeWords", "Transaction id (txid)"),
    "idRec": QT_TRANSLATE_NOOP("CodeWords", "Recurrence id"),
    "solicitacaoPagador": QT_TRANSLATE_NOOP("CodeWords", "Message to the payer"),
    "infoAdicionais": QT_TRANSLATE_NOOP("CodeWords", "Additional information"),
    "loc": QT_TRANSLATE_NOOP("CodeWords", "QR Code location"),
    "natureza": QT_TRANSLATE_NOOP("CodeWords", "Kind of refund"),
    "descricao": QT_TRANSLATE_NOOP("CodeWords", "Description"),
    "description": QT_TRANSLATE_NOOP("CodeWords", "Description"),
    "remittanceInformation": QT_TRANSLATE_NOOP("CodeWords", "Description"),
    "webhookUrl": QT_TRANSLATE_NOOP("CodeWords", "Notification address"),
    "uri": QT_TRANSLATE_NOOP("CodeWords", "Notification address"),
    "qrCode": QT_TRANSLATE_NOOP("CodeWords", "QR Code"),
    "billetCode": QT_TRANSLATE_NOOP("CodeWords", "Slip's barcode or digitable line"),
    "digitableCode": QT_TRANSLATE_NOOP("CodeWords", "Slip's barcode or digitable line"),
    "creditorDocument": QT_TRANSLATE_NOOP("CodeWords", "Payee's CPF or CNPJ"),
    "creditorAccount": QT_TRANSLATE_NOOP("CodeWords", "Payee's bank account"),
    "creditorAccount.ispb": QT_TRANSLATE_NOOP("CodeWords", "Payee's bank"),
    "creditorAccount.issuer": QT_TRANSLATE_NOOP("CodeWords", "Payee's branch"),
    "creditorAccount.number": QT_TRANSLATE_NOOP("CodeWords", "Payee's account number"),
    "creditorAccount.accountType": QT_TRANSLATE_NOOP("CodeWords", "Payee's account type"),
    "creditorAccount.document": QT_TRANSLATE_NOOP("CodeWords", "Payee's CPF or CNPJ"),
    "creditorAccount.name": QT_TRANSLATE_NOOP("CodeWords", "Payee's name"),
    "cpf": QT_TRANSLATE_NOOP("CodeWords", "CPF"),
    "cnpj": QT_TRANSLATE_NOOP("CodeWords", "CNPJ"),
    "startDate": QT_TRANSLATE_NOOP("CodeWords", "Start date"),
    "endDate": QT_TRANSLATE_NOOP("CodeWords", "End date"),
}


def problem_field_word(propriedade: str) -> str:
    """The field a violation names, in words (``cob.valor.original``: "Amount"), by the
    longest part of its dotted name the catalogue knows; ``""`` when it knows none (the
    bank's reason is then shown alone, never the raw name)."""
    parts = [p for p in propriedade.replace("[", ".").replace("]", "").split(".") if p]
    parts = [p for p in parts if not p.isdigit()]
    for start in range(len(parts)):
        for end in range(len(parts), start, -1):
            source = _FIELDS.get(".".join(parts[start:end]))
            if source is not None:
                return QCoreApplication.translate(CONTEXT, source)
    if propriedade and ("field", propriedade) not in _logged:
        _logged.add(("field", propriedade))
        log.info("a problem's field without words: %r", propriedade)
    return ""
