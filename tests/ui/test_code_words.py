"""The bank's codes as words (issue 33): every family of codes the UI shows, every code of it
the API models know, has a word that is not the code itself, in English and in pt_BR (the
compiled .qm); an unknown code is "Other (unknown code)" and is logged, never shown raw; every
audit action the sources write has its words."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from treasury_app.api.accounts.models import (
    AccountType,
    CreditDebitType,
    InfractionReason,
    InfractionStatus,
    TransactionType,
)
from treasury_app.api.qrcodes.automatico_models import (
    CobRStatus,
    Encerramento,
    Periodicidade,
    PoliticaRetentativa,
    RecStatus,
    SolicRecStatus,
    TentativaStatus,
    TentativaTipo,
    TipoConta,
    TipoJornada,
)
from treasury_app.api.qrcodes.cashin_models import (
    CobStatus,
    DevolucaoStatus,
    LoteCobVMembroStatus,
)
from treasury_app.domain.pixkey import KeyType
from treasury_app.services.statement import CSV_COLUMNS
from treasury_app.ui import sandbox_actions
from treasury_app.ui.code_words import (
    Family,
    api_title,
    api_word,
    code_word,
    known_codes,
)
from treasury_app.ui.csv_files import statement_code_word, statement_header
from treasury_app.ui.models.recurrences_model import closing_note, closing_text
from treasury_app.ui.rule_words import RULES
from treasury_app.ui.status_words import action_word, known_actions, outcome_word

# The enum of the API models behind each family (a family without one lists the values the
# sandbox and the bank send: its catalogue is the whole list).
ENUMS: dict[Family, type[StrEnum] | None] = {
    Family.INFRACTION_REASON: InfractionReason,
    Family.INFRACTION_STATUS: InfractionStatus,
    Family.INFRACTION_SITUATION: None,
    Family.INFRACTION_REPORTER: None,
    Family.INFRACTION_ANALYSIS: None,
    Family.DEFENSE_STATUS: None,
    Family.PERIODICITY: Periodicidade,
    Family.RETRY_POLICY: PoliticaRetentativa,
    Family.JOURNEY: TipoJornada,
    Family.REC_STATUS: RecStatus,
    Family.SOLICREC_STATUS: SolicRecStatus,
    Family.COBR_STATUS: CobRStatus,
    Family.ATTEMPT_STATUS: TentativaStatus,
    Family.ATTEMPT_KIND: TentativaTipo,
    Family.ACCOUNT_KIND: TipoConta,
    Family.BANK_ACCOUNT_TYPE: AccountType,
    Family.COB_STATUS: CobStatus,
    Family.BATCH_MEMBER_STATUS: LoteCobVMembroStatus,
    Family.REFUND_STATUS: DevolucaoStatus,
    Family.KEY_TYPE: KeyType,
    Family.TRANSACTION_TYPE: TransactionType,
    Family.CREDIT_DEBIT: CreditDebitType,
    Family.REC_REJECTION: None,
    Family.REC_CANCELLATION: None,
    Family.COBR_REJECTION: None,
    Family.COBR_CANCELLATION: None,
    Family.CANCELLATION_REQUESTER: None,
    Family.PROBLEM_TYPE: None,
}
# Acronyms that are the word in both languages (a Brazilian says "CPF", "TED").
SAME_AS_CODE = {"CPF", "CNPJ", "TED"}
SANDBOX_INFRACTION_CODES = {
    Family.INFRACTION_SITUATION: {"FRAUD_SUSPECTED", "REFUND_REQUESTED"},
    Family.INFRACTION_REPORTER: {"DEBITED_PARTICIPANT"},
    Family.INFRACTION_ANALYSIS: {"REJECTED"},
    Family.DEFENSE_STATUS: {"SUBMITTED"},
}
# Why a recurrence or a recurring charge ended: every code the Pix API's specification lists
# (``RecEncerramento``; ``CobRCompleta.encerramento`` and ``tentativas[].rejeicao``), and AM04,
# which the sandbox (and real banks) send for insufficient funds.
SPEC_REASON_CODES = {
    Family.REC_REJECTION: {"AP13", "AP14"},
    Family.REC_CANCELLATION: {"ACCL", "CPCL", "DCSD", "ERSL", "FRUD", "PCFD", "SLCR", "SLDB"},
    Family.COBR_REJECTION: {
        *("AB10", "AC05", "AC06", "AM02", "AM09", "DENC", "DS27", "DTED", "DTNT", "FBRD"),
        *("IRNT", "MIDI", "MSUC", "NIEC", "NIPA", "NITX", "QUNT", "RC09", "UDEI", "AM04"),
    },
    Family.COBR_CANCELLATION: {"ACCT", "BLCK", "CCLD", "FAIL", "OTHR", "SLBD", "SLCR"},
    Family.CANCELLATION_REQUESTER: {
        "PSP_PAGADOR",
        "USUARIO_PAGADOR",
        "PSP_RECEBEDOR",
        "USUARIO_RECEBEDOR",
    },
    # The problem types of the standard (its info.description) and the Accounts API's that
    # the sandbox answers (a Brazilian bank's).
    Family.PROBLEM_TYPE: {
        *("RequisicaoInvalida", "AcessoNegado", "NaoEncontrado", "PermanentementeRemovido"),
        *("ErroInternoDoServidor", "ServicoIndisponivel", "IndisponibilidadePorTempoEsgotado"),
        *("CobPayloadNaoEncontrado", "RecPayloadNaoEncontrado", "RecNaoEncontrada"),
        *("SolicRecNaoEncontrada", "CobRNaoEncontrado", "CobNaoEncontrado", "CobVNaoEncontrada"),
        *("LoteCobVNaoEncontrado", "PayloadLocationNaoEncontrado", "PixNaoEncontrado"),
        *("PayloadLocationRecNaoEncontrado", "PixDevolucaoNaoEncontrada", "WebhookNaoEncontrado"),
        *("CobPayloadOperacaoInvalida", "RecPayloadOperacaoInvalida", "RecOperacaoInvalida"),
        *("RecConsultaInvalida", "SolicRecOperacaoInvalida", "CobROperacaoInvalida"),
        *("CobRConsultaInvalida", "CobOperacaoInvalida", "CobConsultaInvalida"),
        *("CobVOperacaoInvalida", "CobVConsultaInvalida", "LoteCobVOperacaoInvalida"),
        *("LoteCobVConsultaInvalida", "PayloadLocationOperacaoInvalida", "PixConsultaInvalida"),
        *("PayloadLocationConsultaInvalida", "PayloadLocationRecConsultaInvalida"),
        *("PixDevolucaoInvalida", "WebhookOperacaoInvalida", "WebhookConsultaInvalida"),
        *("WebhookRecOperacaoInvalida", "WebhookRecConsultaInvalida"),
        *("WebhookCobROperacaoInvalida", "WebhookCobRConsultaInvalida"),
        *("SaldoInsuficiente", "ChaveNaoEncontrada", "BoletoJaPago", "BoletoVencido"),
        "ForaDoHorario",
    },
}
SOURCES = Path(__file__).resolve().parents[2] / "treasury_app"


@pytest.fixture
def portuguese(qapp: Any, restore_translation: None) -> None:
    from treasury_app.app import install_translator

    assert install_translator(qapp, "pt_BR") == "pt_BR"


def _codes(family: Family) -> set[str]:
    enum = ENUMS[family]
    if enum is None:
        return set(SANDBOX_INFRACTION_CODES.get(family) or SPEC_REASON_CODES[family])
    return {member.value for member in enum}


def _every_code() -> Iterator[tuple[Family, str]]:
    for family in Family:
        for code in sorted(_codes(family)):
            yield family, code


def test_every_family_is_covered_here() -> None:
    assert set(ENUMS) == set(Family)


@pytest.mark.parametrize("family", list(Family), ids=str)
def test_every_code_of_a_family_has_its_english_word(family: Family) -> None:
    assert _codes(family) <= known_codes(family)
    for code in _codes(family):
        word = code_word(family, code)
        assert word and (word != code or code in SAME_AS_CODE), (family, code, word)
        assert word != "Other (unknown code)", (family, code)


@pytest.mark.parametrize("family", list(Family), ids=str)
def test_every_code_of_a_family_has_its_portuguese_word(family: Family, portuguese) -> None:
    for code in _codes(family):
        word = code_word(family, code)
        assert word and (word != code or code in SAME_AS_CODE), (family, code, word)
        assert word != "Outro (código desconhecido)", (family, code)
    # And really translated: the family's words are not all left in English.
    english = {"Weekly", "Monthly", "Open", "Fraud", "Refunded", "Credit", "Phone", "Created"}
    assert not {code_word(family, code) for code in _codes(family)} & english


def test_a_few_words_a_person_reads(portuguese) -> None:
    assert code_word(Family.PERIODICITY, Periodicidade.MENSAL) == "Mensal"
    assert code_word(Family.RETRY_POLICY, "NAO_PERMITE") == "Sem novas tentativas"
    assert code_word(Family.JOURNEY, "JORNADA_1").startswith("Jornada 1")
    assert code_word(Family.INFRACTION_REASON, "REFUND_REQUEST") == "Pedido de devolução"
    assert code_word(Family.INFRACTION_STATUS, "UNDER_REVIEW") == "Em análise"
    assert code_word(Family.INFRACTION_REPORTER, "DEBITED_PARTICIPANT") == "Instituição do pagador"
    assert code_word(Family.REC_STATUS, "APROVADA") == "Autorizada"
    assert code_word(Family.REFUND_STATUS, "DEVOLVIDO") == "Devolvida"
    assert code_word(Family.KEY_TYPE, "EMAIL") == "E-mail"
    assert code_word(Family.KEY_TYPE, "PHONE") == "Telefone"
    assert code_word(Family.CREDIT_DEBIT, "DEBIT") == "Débito"
    assert api_word("accounts") == "Contas"
    assert api_title("accounts") == "API de Contas"
    assert code_word(Family.PERIODICITY, None) == ""
    # The statement's export for people: its header and codes.
    header = statement_header()
    assert header[CSV_COLUMNS.index("credit_debit")] == "Crédito ou débito"
    assert header[CSV_COLUMNS.index("signed_amount")] == "Valor com sinal"
    assert statement_code_word("transaction_type", "BILLET") == "Boleto"


def test_why_a_recurrence_or_its_charge_ended_in_words(portuguese) -> None:
    refused = Encerramento.model_validate(
        {"rejeicao": {"codigo": "AP13", "descricao": "Recorrência rejeitada pelo usuário pagador."}}
    )
    assert closing_text(refused) == "Recusada pelo pagador"
    assert closing_note(refused) == (
        "Descrição do banco: Recorrência rejeitada pelo usuário pagador."
    )
    cancelled = Encerramento.model_validate(
        {"cancelamento": {"solicitante": "USUARIO_RECEBEDOR", "codigo": "SLCR", "descricao": ""}}
    )
    assert closing_text(cancelled) == "A pedido do recebedor (cancelada por nós)"
    assert closing_note(cancelled) == ""
    by_payer = Encerramento.model_validate(
        {"cancelamento": {"solicitante": "USUARIO_PAGADOR", "codigo": "SLBD"}}
    )
    assert closing_text(by_payer, charge=True) == "A pedido do pagador (cancelada pelo pagador)"
    attempt = Encerramento.model_validate({"rejeicao": {"codigo": "AM04"}})
    assert closing_text(attempt, charge=True) == "Saldo insuficiente na conta do pagador"
    # A code the catalogue does not know is "Other", never the code.
    unknown = Encerramento.model_validate({"rejeicao": {"codigo": "ZZ99"}})
    assert closing_text(unknown) == "Outro (código desconhecido)"
    assert closing_text(None) == "" and closing_text(Encerramento()) == ""


def test_an_unknown_code_is_other_and_logged(caplog, portuguese) -> None:
    with caplog.at_level(logging.WARNING, logger="treasury_app.ui.code_words"):
        word = code_word(Family.PERIODICITY, "QUINZENAL_TEST")
    assert word == "Outro (código desconhecido)"
    assert "QUINZENAL_TEST" in caplog.text
    assert action_word("brand.new_action_test") == "Outro (código desconhecido)"


def test_an_unknown_code_in_english_too() -> None:
    assert code_word(Family.JOURNEY, "JORNADA_9_TEST") == "Other (unknown code)"


# Audit actions: every action the sources write ("charge.create", "cobr.retry", ...) ----------

_ACTION_PREFIXES = (
    "admin|approval|audit|batch|billet|certificate|charge|cobr|infraction|location|locrec|"
    "payment|payout|profile|rec|receipt|refund|session|solicrec|webhook"
)
_ACTION = re.compile(rf"""["']((?:{_ACTION_PREFIXES})\.[a-z_]+(?:\.[a-z_]+)?)["']""")


def _actions_in_sources() -> set[str]:
    found = set()
    for path in SOURCES.rglob("*.py"):
        if "sandbox" in path.parts:
            continue
        found |= set(_ACTION.findall(path.read_text(encoding="utf-8")))
    # Rules' codes look like actions (approval.amount_differs): they are ui/rule_words.py's.
    found -= set(RULES)
    # The sandbox bank's refusal codes (charge.not_found) are its console's, in words there.
    found -= set(sandbox_actions._WHY)
    # "ledger." also names settings (ledger.host): its one action is added by name.
    return found | {"ledger.backup"}


def test_every_audit_action_in_the_sources_has_words(portuguese) -> None:
    actions = _actions_in_sources()
    assert len(actions) > 40  # the scan found the actions, it is not vacuous
    assert {"charge.create", "billet.pay", "cobr.retry", "refund.request"} <= actions
    assert actions <= known_actions(), sorted(actions - known_actions())
    words = {action: action_word(action) for action in actions}
    assert all(word and word != action for action, word in words.items())
    assert words["charge.create"] == "Cobrança criada"
    assert words["billet.pay"] == "Pagamento de boleto"


def test_a_write_answered_with_a_status_has_its_words(portuguese) -> None:
    assert outcome_word("ATIVA", "charge.create") == "Ativa"
    assert outcome_word("CRIADA", "rec.create") == "Aguardando o pagador"
    assert outcome_word("EM_PROCESSAMENTO", "refund.request") == "Em processamento"
    assert outcome_word("accepted", "payout.send") == "aceito"


def test_qt_file_dialog_labels_in_portuguese(portuguese) -> None:
    """Qt 6's file dialog says "&Look in:" and "Files of &type:", which Qt's own pt_BR
    catalogue lacks: the app's carries them (treasury_app/ui/qt_gaps.py)."""
    from PySide6.QtCore import QCoreApplication

    from treasury_app.ui.qt_gaps import QT_GAPS

    for context, source in QT_GAPS:
        assert QCoreApplication.translate(context, source) != source, source
    assert QCoreApplication.translate("QFileDialog", "&Look in:") == "&Procurar em:"


@pytest.mark.parametrize(
    ("note", "english", "portuguese"),
    [
        ("approved by bruno (1 of 2)", "Approved by bruno (1 of 2)", "Aprovado por bruno (1 de 2)"),
        ("withdrawn by ana", "Withdrawn by ana", "Retirado por ana"),
        ("rejected by carla", "Rejected by carla", None),
        (
            "changed: 2 approval(s) void",
            "Amount or description changed: 2 approval(s) void",
            "Valor ou descrição alterados: 2 aprovação(ões) anulada(s)",
        ),
        ("webhook: transfer", "Notified by the bank", None),
        ("overruled", "The bank's own word overruled the outcome a desktop recorded", None),
        (  # written by schema 4, before schema 6 made it a code
            "max recorded Settled; the bank's word (notice) overruled it: asked",
            "The bank's own word overruled the outcome a desktop recorded",
            None,
        ),
    ],
)
def test_the_team_databases_history_notes_are_words(
    qapp: Any, restore_translation: None, note: str, english: str, portuguese: str | None
) -> None:
    """The notes the team database writes naming who acted are words in the UI's language,
    never its English sentence."""
    from treasury_app.app import install_translator
    from treasury_app.ui.status_words import note_word

    assert note_word(note) == english
    assert install_translator(qapp, "pt_BR") == "pt_BR"
    text = note_word(note)
    assert text != english and text != note
    if portuguese is not None:
        assert text == portuguese


@pytest.mark.parametrize(
    ("note", "words"),
    [
        (
            '{"by": "bruno", "code": "approved", "given": 1, "needed": 2}',
            "Aprovado por bruno (1 de 2)",
        ),
        ('{"by": "carla", "code": "rejected"}', "Rejeitado por carla"),
        ('{"by": "ana", "code": "withdrawn"}', "Retirado por ana"),
        (
            '{"code": "changed", "void": 2}',
            "Valor ou descrição alterados: 2 aprovação(ões) anulada(s)",
        ),
        (
            '{"by": "postgres", "code": "removed_withdrawn", "login": "ana"}',
            "Retirado: ana foi removido da equipe",
        ),
        (
            '{"approver": "bruno", "code": "removed_void", "given": 0, "needed": 2}',
            "Aprovação de bruno anulada: removido da equipe (0 de 2)",
        ),
        # before schema 7: treasury-admin remove-user's and schema 4's sentences
        ("withdrawn: ana removed", "Retirado: ana foi removido da equipe"),
        (
            "approval by bruno void: bruno removed (0 of 2)",
            "Aprovação de bruno anulada: removido da equipe (0 de 2)",
        ),
        (
            "ended by schema 4: the amount is not money",
            "Não enviado: o valor não é uma quantia de dinheiro",
        ),
    ],
)
def test_the_team_databases_coded_notes_read_in_portuguese(
    portuguese: None, note: str, words: str
) -> None:
    """Schema 7's coded notes (and the English sentences they replace) read in pt_BR."""
    from treasury_app.ui.status_words import note_word

    assert note_word(note) == words


@pytest.mark.parametrize(
    ("error", "words"),
    [
        (
            '{"by": "carla", "code": "rejected", "reason": "chave errada"}',
            "Rejeitado por carla: chave errada",
        ),
        (
            '{"by": "ana", "code": "withdrawn", "reason": "não precisa"}',
            "Retirado por ana: não precisa",
        ),
        (
            '{"by": "postgres", "code": "removed_withdrawn", "login": "ana"}',
            "Retirado: ana foi removido da equipe",
        ),
        # before schema 7
        ("Rejected by carla: chave errada", "Rejeitado por carla: chave errada"),
        ("Withdrawn by ana: não precisa", "Retirado por ana: não precisa"),
        ("Rejected by carla", "Rejeitado por carla"),  # schema 2: a rejection without reason
        ("Not sent: the amount is not money", "Não enviado: o valor não é uma quantia de dinheiro"),
    ],
)
def test_an_intent_a_person_ended_says_so_in_portuguese(
    portuguese: None, error: str, words: str
) -> None:
    """The journal's error of an intent rejected or withdrawn in a team database is words in
    pt_BR where a payment's error is shown, not "the bank refused it" nor English."""
    from treasury_app.ledger.journal import Entry, EntryKind, EntryState
    from treasury_app.ui.refusals import error_words, refusal_words
    from treasury_app.ui.status_words import team_error_word

    assert team_error_word(error) == words
    entry = Entry(
        id=1,
        kind=EntryKind.PIX_KEY,
        payee_name="Fornecedor",
        payee_document="",
        payee_detail="a@b.com.br",
        amount=Decimal("10.00"),
        description="",
        payment_flow="INSTANT",
        idempotency_key="k",
        request_json="{}",
        state=EntryState.REJECTED,
        bank_status=None,
        final=True,
        end_to_end_id=None,
        bank_id=None,
        error=error,
        created_at="2026-12-07T12:00:00Z",
        updated_at="2026-12-07T12:00:00Z",
        created_by="ana",
        profile="p",
        batch=None,
    )
    assert refusal_words(entry) == error_words(entry) == words
    assert team_error_word("400 Bad Request: saldo insuficiente [POST /pix]") == ""


def test_the_team_databases_audit_outcomes_are_words(portuguese: None) -> None:
    from treasury_app.ui.status_words import outcome_word

    assert outcome_word("stale", "session.ended") == "encerrada: ficou aberta tempo demais"
    assert outcome_word("same", "receipt.confirmed") == "igual ao do banco"
    assert outcome_word("differs", "receipt.disputed") == "diferente do do banco"
