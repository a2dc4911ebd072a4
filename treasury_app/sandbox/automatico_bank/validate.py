"""Pix Automático request bodies checked field by field (BCB Pix API 2.8+, every violation
collected) into typed requests: rec, its revision, solicrec, cobr, the cancellations, and the
control surface's payer decisions."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from treasury_app.domain import documents, identifiers
from treasury_app.domain.money import to_api_string
from treasury_app.sandbox.automatico_bank.records import Doc
from treasury_app.sandbox.problems import Violation, invalid
from treasury_app.sandbox.qr_checks import CNPJ_RE, CPF_RE, ISPB_RE, MONEY_RE, Checker

PERIODICIDADES = ("SEMANAL", "MENSAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL")
POLICIES = ("NAO_PERMITE", "PERMITE_3R_7D")
ACCOUNT_TYPES = ("CORRENTE", "POUPANCA", "PAGAMENTO")
JORNADAS = ("JORNADA_1", "JORNADA_2", "JORNADA_3", "JORNADA_4")
REJECTION_TEXTS = {
    "AM04": "Saldo insuficiente na conta do usuário pagador.",
    "AM02": "Valor acima do limite autorizado pelo usuário pagador.",
    "AC06": "Conta do usuário pagador bloqueada.",
    "AC05": "Conta do usuário pagador encerrada.",
    "MSUC": "Liquidação não concluída.",
}
# The 400 of each resource's writes.
TYPE_NAMES = {
    "rec": "RecOperacaoInvalida",
    "solicrec": "SolicRecOperacaoInvalida",
    "cobr": "CobROperacaoInvalida",
}

_DATE_RE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_IDREC_RE = re.compile(r"[a-zA-Z0-9]{29}")
_CODE_RE = re.compile(r"[A-Z0-9]{4}")


def checker(resource: str) -> Checker:
    """A checker of the fields of ``resource`` (rec, solicrec or cobr) and of its 400."""
    return Checker(resource, TYPE_NAMES[resource])


@dataclass(frozen=True)
class RecRequest:
    """POST /rec: ``vinculo``, ``calendario`` and ``valor`` as stored; ``loc``: the locrec id
    as sent (claimed against the store later)."""

    vinculo: Doc
    calendario: Doc
    valor: Doc
    convenio: str | None
    politica: str
    txid: str | None
    loc: object


@dataclass(frozen=True)
class RecRevision:
    """PATCH /rec/{idRec}: what may change (None: unchanged), or a cancellation."""

    nome: str | None
    inicial: dt.date | None
    txid: str | None
    cancel: bool
    moves_loc: bool
    loc: object


@dataclass(frozen=True)
class SolicRecRequest:
    """POST /solicrec."""

    id_rec: str
    expiracao: str
    expires: dt.datetime
    destinatario: Doc


@dataclass(frozen=True)
class CobrRequest:
    """PUT/POST /cobr. ``due_text``/``original_text``: as sent, for the messages."""

    id_rec: str
    info: str | None
    due: dt.date
    due_text: str
    original: Decimal
    original_text: str
    ajuste: bool
    devedor: Doc
    recebedor: Doc


def parse_date(text: object) -> dt.date | None:
    if not isinstance(text, str) or not _DATE_RE.fullmatch(text):
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def parse_instant(text: object) -> dt.datetime | None:
    if not isinstance(text, str) or "T" not in text:
        return None
    try:
        value = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return value if value.tzinfo is not None else None


# ---------------------------------------------------------------------------------------------
# Field readers, worded as the Pix Automático answers word them


def _text(
    check: Checker, parent: Doc, key: str, name: str, *, max_len: int, required: bool
) -> str | None:
    value = parent.get(key)
    if check.missing(value, name, required=required):
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        check.fail(name, f"deve ser um texto de 1 a {max_len} caracteres", value)
        return None
    return value


def _date(check: Checker, parent: Doc, key: str, name: str, *, required: bool) -> dt.date | None:
    value = parent.get(key)
    if check.missing(value, name, required=required):
        return None
    day = parse_date(value)
    if day is None:
        check.fail(name, "deve ser uma data AAAA-MM-DD", value)
    return day


def _money(check: Checker, parent: Doc, key: str, name: str, *, required: bool) -> Decimal | None:
    value = parent.get(key)
    if check.missing(value, name, required=required):
        return None
    if not isinstance(value, str) or not MONEY_RE.fullmatch(value) or Decimal(value) <= 0:
        check.fail(
            name,
            'deve ser um valor positivo em texto com duas casas decimais (ex.: "100.00")',
            value,
        )
        return None
    return Decimal(value)


def _person(check: Checker, parent: Doc, name: str, *, name_required: bool) -> Doc | None:
    """``cpf`` XOR ``cnpj`` (valid check digits) and, when asked, ``nome`` (≤140)."""
    cpf, cnpj = parent.get("cpf"), parent.get("cnpj")
    result: Doc = {}
    if (cpf is None) == (cnpj is None):
        check.reject(f"{name}.cpf", f"Informe {check.prop(name)}.cpf ou .cnpj (um deles).")
        return None
    if cpf is not None:
        if not (isinstance(cpf, str) and CPF_RE.fullmatch(cpf) and documents.is_valid_cpf(cpf)):
            check.fail(f"{name}.cpf", "é inválido", cpf)
            return None
        result["cpf"] = cpf
    else:
        if not (
            isinstance(cnpj, str) and CNPJ_RE.fullmatch(cnpj) and documents.is_valid_cnpj(cnpj)
        ):
            check.fail(f"{name}.cnpj", "é inválido", cnpj)
            return None
        result["cnpj"] = cnpj
    if name_required:
        nome = _text(check, parent, "nome", f"{name}.nome", max_len=140, required=True)
        if nome is None:
            return None
        result["nome"] = nome
    return result


def _code(
    check: Checker, parent: Doc, key: str, name: str, valid: Callable[[str], object], reason: str
) -> str | None:
    """An identifier or code in text that ``valid`` accepts."""
    value = parent.get(key)
    if not isinstance(value, str) or not valid(value):
        check.fail(name, reason, value)
        return None
    return value


def _id_rec(check: Checker, body: Doc) -> str | None:
    reason = "deve ter 29 letras ou dígitos"
    return _code(check, body, "idRec", "idRec", _IDREC_RE.fullmatch, reason)


def _journey_txid(check: Checker, dados: Doc) -> str | None:
    name, reason = "ativacao.dadosJornada.txid", "deve ter de 26 a 35 letras ou dígitos"
    return _code(check, dados, "txid", name, identifiers.is_valid_txid, reason)


def _check_inicial(check: Checker, calendario: Doc, day: dt.date | None, today: dt.date) -> None:
    """A recurrence cannot start before the day it is created."""
    if day is not None and day < today:
        check.fail(
            "calendario.dataInicial",
            "é anterior à data de criação da recorrência",
            calendario["dataInicial"],
        )


# ---------------------------------------------------------------------------------------------
# rec


def check_rec(body: Doc, today: dt.date) -> RecRequest:
    check = checker("rec")
    vinculo = _rec_vinculo(check, body)
    calendario = _rec_calendario(check, body, today)
    valor = _rec_valor(check, body)
    recebedor = check.obj(body, "recebedor", "recebedor", required=False)
    convenio = None
    if recebedor is not None:
        convenio = _text(
            check, recebedor, "convenio", "recebedor.convenio", max_len=60, required=False
        )
    politica = check.choice(
        body, "politicaRetentativa", "politicaRetentativa", POLICIES, required=True
    )
    txid = None
    ativacao = check.obj(body, "ativacao", "ativacao", required=False)
    if ativacao is not None:
        dados = check.obj(ativacao, "dadosJornada", "ativacao.dadosJornada", required=False)
        if dados is not None:
            txid = _journey_txid(check, dados)
    check.check()
    assert vinculo is not None and calendario is not None and politica is not None
    return RecRequest(vinculo, calendario, valor, convenio, politica, txid, body.get("loc"))


def _rec_vinculo(check: Checker, body: Doc) -> Doc | None:
    """``vinculo``: the contract and the payer (``devedor``)."""
    vinculo = check.obj(body, "vinculo", "vinculo", required=True)
    if vinculo is None:
        return None
    contrato = _text(check, vinculo, "contrato", "vinculo.contrato", max_len=35, required=True)
    objeto = _text(check, vinculo, "objeto", "vinculo.objeto", max_len=35, required=False)
    raw = check.obj(vinculo, "devedor", "vinculo.devedor", required=True)
    devedor = None if raw is None else _person(check, raw, "vinculo.devedor", name_required=True)
    if contrato is None or devedor is None:
        return None
    out: Doc = {"contrato": contrato, "devedor": devedor}
    if objeto:
        out["objeto"] = objeto
    return out


def _rec_calendario(check: Checker, body: Doc, today: dt.date) -> Doc | None:
    """``calendario``: first day (not before today), optional last day, periodicity."""
    calendario = check.obj(body, "calendario", "calendario", required=True)
    if calendario is None:
        return None
    inicial = _date(check, calendario, "dataInicial", "calendario.dataInicial", required=True)
    final = _date(check, calendario, "dataFinal", "calendario.dataFinal", required=False)
    periodicidade = check.choice(
        calendario, "periodicidade", "calendario.periodicidade", PERIODICIDADES, required=True
    )
    _check_inicial(check, calendario, inicial, today)
    if inicial is not None and final is not None and final < inicial:
        check.fail(
            "calendario.dataFinal",
            "é anterior ao campo rec.calendario.dataInicial",
            calendario["dataFinal"],
        )
    if inicial is None or periodicidade is None:
        return None
    out: Doc = {"dataInicial": inicial.isoformat()}
    if final is not None:
        out["dataFinal"] = final.isoformat()
    out["periodicidade"] = periodicidade
    return out


def _rec_valor(check: Checker, body: Doc) -> Doc:
    """``valor``: a fixed ``valorRec`` or a ``valorMinimoRecebedor``, not both, or none."""
    valor_in = check.obj(body, "valor", "valor", required=False)
    valor: Doc = {}
    if valor_in is not None:
        fixed = _money(check, valor_in, "valorRec", "valor.valorRec", required=False)
        minimum = _money(
            check, valor_in, "valorMinimoRecebedor", "valor.valorMinimoRecebedor", required=False
        )
        if "valorRec" in valor_in and "valorMinimoRecebedor" in valor_in:
            check.reject(
                "valor",
                "Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão "
                "preenchidos.",
            )
        elif fixed is not None:
            valor["valorRec"] = to_api_string(fixed)
        elif minimum is not None:
            valor["valorMinimoRecebedor"] = to_api_string(minimum)
    return valor


def check_rec_revision(body: Doc, today: dt.date) -> RecRevision:
    """PATCH /rec: only vinculo.devedor.nome, calendario.dataInicial, ativacao.dadosJornada.txid
    and loc change; or the status becomes CANCELADA, alone."""
    check = checker("rec")
    allowed = {"status", "vinculo", "loc", "calendario", "ativacao"}
    for key in body:
        if key not in allowed:
            check.reject(key, f"O campo rec.{key} não pode ser alterado.")
    if not body:
        check.reject("", "Informe ao menos um campo a alterar.")
    nome = _revised_nome(check, body)
    calendario = check.obj(body, "calendario", "calendario", required=False)
    inicial = None
    if calendario is not None:
        _fixed(check, "calendario", set(calendario) - {"dataInicial"})
        inicial = _date(check, calendario, "dataInicial", "calendario.dataInicial", required=True)
        _check_inicial(check, calendario, inicial, today)
    ativacao = check.obj(body, "ativacao", "ativacao", required=False)
    txid = None
    if ativacao is not None:
        dados = check.obj(ativacao, "dadosJornada", "ativacao.dadosJornada", required=True)
        extra = set(ativacao) - {"dadosJornada"}
        if dados is not None:
            extra |= {f"dadosJornada.{k}" for k in set(dados) - {"txid"}}
            txid = _journey_txid(check, dados)
        _fixed(check, "ativacao", extra)
    status = body.get("status")
    if "status" in body and status != "CANCELADA":
        check.fail("status", "só aceita o valor CANCELADA", status)
    if status == "CANCELADA" and len(body) > 1:
        check.reject("status", "Cancele a recorrência sem alterar outros campos.")
    check.check()
    return RecRevision(nome, inicial, txid, status == "CANCELADA", "loc" in body, body.get("loc"))


def _revised_nome(check: Checker, body: Doc) -> str | None:
    vinculo = check.obj(body, "vinculo", "vinculo", required=False)
    if vinculo is None:
        return None
    nome = None
    extra = set(vinculo) - {"devedor"}
    devedor = check.obj(vinculo, "devedor", "vinculo.devedor", required=True)
    if devedor is not None:
        extra |= {f"devedor.{k}" for k in set(devedor) - {"nome"}}
        nome = _text(check, devedor, "nome", "vinculo.devedor.nome", max_len=140, required=True)
    _fixed(check, "vinculo", extra)
    return nome


def _fixed(check: Checker, parent: str, keys: set[str]) -> None:
    """Fields under ``parent`` that a revision may not change."""
    for key in sorted(keys):
        check.fail(f"{parent}.{key}", "não pode ser alterado")


# ---------------------------------------------------------------------------------------------
# solicrec and cobr


def check_solicrec(body: Doc, now: dt.datetime) -> SolicRecRequest:
    check = checker("solicrec")
    id_rec = _id_rec(check, body)
    calendario = check.obj(body, "calendario", "calendario", required=True)
    expires = None
    if calendario is not None:
        raw = calendario.get("dataExpiracaoSolicitacao")
        expires = parse_instant(raw)
        if expires is None:
            check.fail(
                "calendario.dataExpiracaoSolicitacao",
                "deve ser um instante RFC 3339 com fuso",
                raw,
            )
        elif expires <= now:
            check.fail(
                "calendario.dataExpiracaoSolicitacao",
                "é anterior à data de criação da solicitação da recorrência",
                raw,
            )
    destinatario = check.obj(body, "destinatario", "destinatario", required=True)
    dest_out = _destinatario(check, destinatario) if destinatario is not None else {}
    check.check()
    assert id_rec is not None and expires is not None and calendario is not None
    return SolicRecRequest(id_rec, calendario["dataExpiracaoSolicitacao"], expires, dest_out)


def _destinatario(check: Checker, destinatario: Doc) -> Doc:
    """The payer's account a confirmation request goes to."""
    out: Doc = {}
    conta = _text(check, destinatario, "conta", "destinatario.conta", max_len=20, required=True)
    ispb = destinatario.get("ispbParticipante")
    if not isinstance(ispb, str) or not ISPB_RE.fullmatch(ispb):
        check.fail("destinatario.ispbParticipante", "deve ter 8 dígitos ou letras maiúsculas", ispb)
    agencia = _text(
        check, destinatario, "agencia", "destinatario.agencia", max_len=4, required=False
    )
    person = _person(check, destinatario, "destinatario", name_required=False)
    if conta and person:
        if agencia:
            out["agencia"] = agencia
        out["conta"] = conta
        out["ispbParticipante"] = ispb
        out.update(person)
    return out


def check_cobr(body: Doc, txid: str | None) -> CobrRequest:
    check = checker("cobr")
    if txid is not None and not identifiers.is_valid_txid(txid):
        raise check.error("txid", "O txid deve ter de 26 a 35 letras ou dígitos.", txid)
    id_rec = _id_rec(check, body)
    info = _text(check, body, "infoAdicional", "infoAdicional", max_len=140, required=False)
    calendario = check.obj(body, "calendario", "calendario", required=True)
    due = None
    if calendario is not None:
        due = _date(
            check, calendario, "dataDeVencimento", "calendario.dataDeVencimento", required=True
        )
    valor = check.obj(body, "valor", "valor", required=True)
    original = None
    if valor is not None:
        original = _money(check, valor, "original", "valor.original", required=True)
    ajuste = body.get("ajusteDiaUtil", True)
    if not isinstance(ajuste, bool):
        check.fail("ajusteDiaUtil", "deve ser true ou false")
    devedor_in = check.obj(body, "devedor", "devedor", required=False)
    devedor = _cobr_devedor(check, devedor_in) if devedor_in is not None else {}
    recebedor_in = check.obj(body, "recebedor", "recebedor", required=True)
    recebedor = _cobr_recebedor(check, recebedor_in) if recebedor_in is not None else {}
    check.check()
    assert id_rec is not None and due is not None and original is not None
    assert calendario is not None and valor is not None
    return CobrRequest(
        id_rec,
        info,
        due,
        calendario["dataDeVencimento"],
        original,
        valor["original"],
        bool(ajuste),
        devedor,
        recebedor,
    )


def _cobr_devedor(check: Checker, devedor_in: Doc) -> Doc:
    """The payer's address fields (the payer is the recurrence's)."""
    devedor: Doc = {}
    limits = {"cep": 9, "cidade": 200, "email": 140, "logradouro": 200, "uf": 2}
    for key in devedor_in:
        if key not in limits:
            check.fail(f"devedor.{key}", "não existe")
    for key, limit in limits.items():
        value = _text(check, devedor_in, key, f"devedor.{key}", max_len=limit, required=False)
        if value is not None:
            devedor[key] = value
    return devedor


def _cobr_recebedor(check: Checker, recebedor_in: Doc) -> Doc:
    """The receiving account (the company's name and CNPJ are added by the bank)."""
    recebedor: Doc = {}
    agencia = _text(check, recebedor_in, "agencia", "recebedor.agencia", max_len=4, required=False)
    conta = _text(check, recebedor_in, "conta", "recebedor.conta", max_len=20, required=True)
    tipo = check.choice(
        recebedor_in, "tipoConta", "recebedor.tipoConta", ACCOUNT_TYPES, required=True
    )
    if agencia:
        recebedor["agencia"] = agencia
    if conta and tipo:
        recebedor.update({"conta": conta, "tipoConta": tipo})
    return recebedor


def check_cancel(resource: str, body: Doc) -> None:
    """PATCH /solicrec or /cobr: the body must be exactly ``{"status": "CANCELADA"}``."""
    if body.get("status") != "CANCELADA" or set(body) != {"status"}:
        raise checker(resource).error(
            "status", 'O corpo deve ser {"status": "CANCELADA"}.', body.get("status")
        )


def check_retry_date(data: str) -> dt.date:
    """POST /cobr/{txid}/retentativa/{data}: the date in the path."""
    day = parse_date(data)
    if day is None:
        raise checker("cobr").error("data", "O parâmetro data deve ser uma data AAAA-MM-DD.", data)
    return day


# ---------------------------------------------------------------------------------------------
# The control surface (the payer's side)


def check_approval(body: Doc, default: str) -> tuple[str, Doc | None]:
    """The journey of an approval (``default`` when the body names none) and the payer's
    details it adds."""
    jornada = body.get("jornada") or default
    if jornada not in JORNADAS:
        raise invalid(
            "jornada deve ser JORNADA_1 a JORNADA_4.",
            Violation("valor inválido", "jornada", str(jornada)),
        )
    pagador = body.get("pagador") if isinstance(body.get("pagador"), dict) else None
    return str(jornada), pagador


def check_rejection(body: Doc) -> Doc:
    """The payer's refusal of a recurrence: ``codigo`` AP13 or AP14 and a description."""
    codigo = body.get("codigo") or "AP13"
    if codigo not in ("AP13", "AP14"):
        raise invalid(
            "codigo deve ser AP13 ou AP14.",
            Violation("valor inválido", "codigo", str(codigo)),
        )
    descricao = body.get("descricao") or "Recorrência rejeitada pelo usuário pagador."
    return {"codigo": codigo, "descricao": str(descricao)[:400]}


def check_failure(body: Doc) -> Doc:
    """The rejection the next settlement attempt of a cobr will meet (default AM04)."""
    codigo = body.get("codigo") or "AM04"
    if not isinstance(codigo, str) or not _CODE_RE.fullmatch(codigo):
        raise invalid(
            "codigo deve ter 4 letras maiúsculas ou dígitos (ex.: AM04).",
            Violation("valor inválido", "codigo", str(codigo)),
        )
    descricao = body.get("descricao") or REJECTION_TEXTS.get(
        codigo, "Tentativa de liquidação rejeitada pelo PSP pagador."
    )
    return {"codigo": codigo, "descricao": str(descricao)[:400]}
