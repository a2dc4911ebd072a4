"""Cash In request bodies checked field by field (BCB Pix API shapes, every violation
collected): cob and cobv bodies to their normalized fields, and the bodies of locations,
batches, refunds and the control surface's simulated payments to typed requests."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from treasury_app.domain import documents, identifiers
from treasury_app.sandbox.cashin_bank.amounts import DEFAULT_VALIDADE, HUNDRED, money_str
from treasury_app.sandbox.cashin_bank.errors import bad_request, checker
from treasury_app.sandbox.clock import BRASILIA
from treasury_app.sandbox.problems import Violation
from treasury_app.sandbox.qr_checks import (
    CNPJ_RE,
    CPF_RE,
    ISPB_RE,
    MONEY_RE,
    Checker,
    json_int,
)
from treasury_app.sandbox.seed import COMPANY

REFUND_ID_RE = re.compile(r"[a-zA-Z0-9]{1,35}")
BATCH_ID_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
INT32_MAX = 2_147_483_647
DEFAULT_EXPIRACAO = 86400
MAX_VALIDADE = 36500  # a century: keeps date arithmetic far from its limits
MIN_DUE_DATE, MAX_DUE_DATE = dt.date(2000, 1, 1), dt.date(2999, 12, 31)
MAX_BATCH_MEMBERS = 5000
DEFAULT_PAYER_ISPB = "60746948"


@dataclass(frozen=True)
class Payment:
    """POST /sandbox/cashin/pay: who pays a charge, on which day, and the amount they insist
    on (None: the amount due)."""

    payer: dict[str, Any]
    day: dt.date | None
    amount: Decimal | None
    info: str | None


@dataclass(frozen=True)
class IncomingPix:
    """POST /sandbox/cashin/pix-without-txid: money sent to one of the keys, no charge."""

    payer: dict[str, Any]
    amount: Decimal
    info: str | None
    chave: str


@dataclass(frozen=True)
class Refund:
    """PUT /pix/{e2eid}/devolucao/{id}: the amount and nature of one refund."""

    amount: Decimal
    natureza: str
    descricao: str | None


# ---------------------------------------------------------------------------------------------
# Field readers, worded as the Cash In answers word them


def _money(raw: object, path: str, chk: Checker, *, required: bool = True) -> Decimal | None:
    if chk.missing(raw, path, required=required):
        return None
    if not isinstance(raw, str) or not MONEY_RE.fullmatch(raw):
        chk.fail(path, "deve ser um texto no formato \\d{1,10}\\.\\d{2}", raw)
        return None
    value = Decimal(raw)
    if value <= 0:
        chk.fail(path, "deve ser maior que zero", raw)
        return None
    return value


def _text(
    body: dict[str, Any],
    name: str,
    path: str,
    chk: Checker,
    max_len: int,
    *,
    required: bool = False,
) -> str | None:
    value = body.get(name)
    if chk.missing(value, path, required=required):
        return None
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > max_len:
        chk.fail(path, f"deve ser um texto de até {max_len} caracteres", value)
        return None
    return value


def _date(raw: object, path: str, chk: Checker, *, required: bool = True) -> dt.date | None:
    if chk.missing(raw, path, required=required):
        return None
    try:
        if not isinstance(raw, str) or len(raw) != 10:
            raise ValueError
        return dt.date.fromisoformat(raw)
    except ValueError:
        chk.fail(path, "deve ser uma data no formato AAAA-MM-DD", raw)
        return None


def txid_or_400(tipo: str, txid: object) -> str:
    if not isinstance(txid, str) or not identifiers.is_valid_txid(txid):
        raise bad_request(
            tipo,
            Violation(
                f"O campo {tipo}.txid deve ter de 26 a 35 caracteres [a-zA-Z0-9].",
                f"{tipo}.txid",
                str(txid),
            ),
        )
    return txid


# ---------------------------------------------------------------------------------------------
# cob and cobv


def check_devedor(raw: object, path: str, chk: Checker, *, extended: bool) -> dict[str, Any]:
    """``{cpf|cnpj, nome}`` (and for cobv the optional address fields), check digits included."""
    if not isinstance(raw, dict):
        chk.fail(path, "deve ser um objeto com cpf ou cnpj e nome", raw)
        return {}
    out: dict[str, Any] = {}
    cpf, cnpj = raw.get("cpf"), raw.get("cnpj")
    if cpf is not None and cnpj is not None:
        chk.fail(path, "deve ter cpf ou cnpj, não ambos")
    elif cpf is None and cnpj is None:
        chk.fail(path, "deve ter cpf ou cnpj")
    elif cpf is not None:
        if isinstance(cpf, str) and CPF_RE.fullmatch(cpf) and documents.is_valid_cpf(cpf):
            out["cpf"] = cpf
        else:
            chk.fail(f"{path}.cpf", "deve ser um CPF válido de 11 dígitos", cpf)
    elif isinstance(cnpj, str) and CNPJ_RE.fullmatch(cnpj) and documents.is_valid_cnpj(cnpj):
        out["cnpj"] = cnpj
    else:
        chk.fail(f"{path}.cnpj", "deve ser um CNPJ válido de 14 caracteres", cnpj)
    nome = _text(raw, "nome", f"{path}.nome", chk, 200, required=True)
    if nome is not None:
        out["nome"] = nome
    if extended:
        _check_address(raw, path, chk, out)
    return out


def _check_address(raw: dict[str, Any], path: str, chk: Checker, out: dict[str, Any]) -> None:
    for name, limit in (("email", 140), ("logradouro", 200), ("cidade", 200)):
        value = _text(raw, name, f"{path}.{name}", chk, limit)
        if value is not None:
            out[name] = value
    uf = raw.get("uf")
    if uf is not None:
        if isinstance(uf, str) and re.fullmatch(r"[A-Za-z]{2}", uf):
            out["uf"] = uf.upper()
        else:
            chk.fail(f"{path}.uf", "deve ter 2 letras", uf)
    cep = raw.get("cep")
    if cep is not None:
        if isinstance(cep, str) and re.fullmatch(r"[0-9]{8}", cep):
            out["cep"] = cep
        else:
            chk.fail(f"{path}.cep", "deve ter 8 dígitos", cep)
    if "email" in out and "@" not in out["email"]:
        chk.fail(f"{path}.email", "deve ser um endereço de e-mail", out.pop("email"))


def _check_common(body: dict[str, Any], out: dict[str, Any], chk: Checker) -> None:
    """chave, solicitacaoPagador, infoAdicionais and loc: the same in cob and cobv."""
    chave = body.get("chave")
    if chave is None:
        chk.fail("chave", "é obrigatório")
    elif not isinstance(chave, str) or len(chave) > 77:
        chk.fail("chave", "deve ser um texto de até 77 caracteres", chave)
    else:
        registered = {k.lower(): k for k in COMPANY["keys"]}
        if chave.lower() not in registered:
            chk.fail("chave", "não é uma chave Pix cadastrada nesta conta", chave)
        else:
            out["chave"] = registered[chave.lower()]
    solicitacao = _text(body, "solicitacaoPagador", "solicitacaoPagador", chk, 140)
    if solicitacao is not None:
        out["solicitacaoPagador"] = solicitacao
    infos = body.get("infoAdicionais")
    if infos is not None:
        if not isinstance(infos, list) or len(infos) > 50:
            chk.fail("infoAdicionais", "deve ser uma lista de até 50 itens")
        else:
            clean = []
            for i, item in enumerate(infos):
                if not isinstance(item, dict):
                    chk.fail(f"infoAdicionais[{i}]", "deve ser um objeto {nome, valor}")
                    continue
                nome = _text(item, "nome", f"infoAdicionais[{i}].nome", chk, 50, required=True)
                valor = _text(item, "valor", f"infoAdicionais[{i}].valor", chk, 200, required=True)
                clean.append({"nome": nome, "valor": valor})
            out["infoAdicionais"] = clean
    loc = body.get("loc")
    if loc is not None:
        loc_id = json_int(loc.get("id")) if isinstance(loc, dict) else None
        if loc_id is None or loc_id <= 0:
            chk.fail("loc.id", "deve ser o id inteiro de uma location", loc)
        else:
            out["locId"] = loc_id


def check_charge(tipo: str, body: dict[str, Any]) -> dict[str, Any]:
    """The normalized fields of a cob or cobv body (``locId``: the location it asks for)."""
    return check_cob(body) if tipo == "cob" else check_cobv(body)


def check_cob(body: dict[str, Any]) -> dict[str, Any]:
    """The normalized fields of a CobSolicitada; raises a 400 CobOperacaoInvalida."""
    chk = checker("cob")
    out: dict[str, Any] = {}
    calendario = chk.obj(body, "calendario", "calendario", required=False, show=True) or {}
    expiracao = calendario.get("expiracao", DEFAULT_EXPIRACAO)
    if json_int(expiracao) is None or not 0 < expiracao <= INT32_MAX:
        chk.fail("calendario.expiracao", "deve ser um inteiro positivo (segundos)", expiracao)
    out["calendario"] = {"expiracao": expiracao}
    if body.get("devedor") is not None:
        out["devedor"] = check_devedor(body["devedor"], "devedor", chk, extended=False)
    valor = chk.obj(body, "valor", "valor", required=True, show=True) or {}
    original = _money(valor.get("original"), "valor.original", chk)
    out["valor"] = {"original": money_str(original) if original else None}
    if "modalidadeAlteracao" in valor:
        modalidade = valor["modalidadeAlteracao"]
        if modalidade not in (0, 1) or isinstance(modalidade, bool):
            chk.fail("valor.modalidadeAlteracao", "deve ser 0 ou 1", modalidade)
        out["valor"]["modalidadeAlteracao"] = modalidade
    if valor.get("retirada") is not None:
        chk.fail("valor.retirada", "(Pix Saque/Troco) não é oferecido por este banco")
    _check_common(body, out, chk)
    chk.check()
    return out


def _check_modalidade(
    raw: object,
    path: str,
    chk: Checker,
    modes: range,
    percent_modes: frozenset[int],
    max_percent: Decimal | None = HUNDRED,
) -> dict[str, Any] | None:
    if raw is None:
        return None
    if not isinstance(raw, dict):
        chk.fail(path, "deve ser um objeto {modalidade, valorPerc}", raw)
        return None
    modalidade = json_int(raw.get("modalidade"))
    if modalidade is None or modalidade not in modes:
        chk.fail(
            f"{path}.modalidade",
            f"deve ser um inteiro de {modes[0]} a {modes[-1]}",
            raw.get("modalidade"),
        )
        return None
    value = _money(raw.get("valorPerc"), f"{path}.valorPerc", chk)
    if value is None:
        return None
    if modalidade in percent_modes and max_percent is not None and value > max_percent:
        chk.fail(f"{path}.valorPerc", f"não pode passar de {max_percent}%", raw.get("valorPerc"))
    return {"modalidade": modalidade, "valorPerc": money_str(value)}


def _check_desconto(
    raw: object, chk: Checker, due: dt.date | None, original: Decimal | None
) -> dict[str, Any] | None:
    if raw is None:
        return None
    path = "valor.desconto"
    if not isinstance(raw, dict):
        chk.fail(path, "deve ser um objeto", raw)
        return None
    modalidade = json_int(raw.get("modalidade"))
    if modalidade is None or not 1 <= modalidade <= 6:
        chk.fail(f"{path}.modalidade", "deve ser um inteiro de 1 a 6", raw.get("modalidade"))
        return None
    fixed = raw.get("descontoDataFixa")
    if modalidade in (1, 2):
        return _check_fixed_dates(fixed, modalidade, chk, due, original)
    if fixed is not None:
        chk.fail(f"{path}.descontoDataFixa", "só é aceito nas modalidades 1 e 2")
    value = _money(raw.get("valorPerc"), f"{path}.valorPerc", chk)
    if value is None:
        return None
    if modalidade in (5, 6) and value >= HUNDRED:
        chk.fail(f"{path}.valorPerc", "deve ser menor que 100%")
    return {"modalidade": modalidade, "valorPerc": money_str(value)}


def _check_fixed_dates(
    fixed: object, modalidade: int, chk: Checker, due: dt.date | None, original: Decimal | None
) -> dict[str, Any] | None:
    """Discount modalidades 1 and 2: up to three (date, value or percentage) pairs."""
    path = "valor.desconto.descontoDataFixa"
    if not isinstance(fixed, list) or not 1 <= len(fixed) <= 3:
        chk.fail(path, "deve ser uma lista de 1 a 3 itens {data, valorPerc}")
        return None
    items: list[dict[str, str]] = []
    for i, item in enumerate(fixed):
        item_path = f"{path}[{i}]"
        if not isinstance(item, dict):
            chk.fail(item_path, "deve ser um objeto {data, valorPerc}")
            continue
        day = _date(item.get("data"), f"{item_path}.data", chk)
        value = _money(item.get("valorPerc"), f"{item_path}.valorPerc", chk)
        if day is None or value is None:
            continue
        if due is not None and day > due:
            chk.fail(f"{item_path}.data", "não pode ser posterior ao vencimento", item["data"])
        if modalidade == 1 and original is not None and value >= original:
            chk.fail(f"{item_path}.valorPerc", "deve ser menor que o valor original")
        if modalidade == 2 and value >= HUNDRED:
            chk.fail(f"{item_path}.valorPerc", "deve ser menor que 100%")
        items.append({"data": day.isoformat(), "valorPerc": money_str(value)})
    if len({i["data"] for i in items}) != len(items):
        chk.fail(path, "não pode repetir datas")
    items.sort(key=lambda i: i["data"])
    return {"modalidade": modalidade, "descontoDataFixa": items}


def _check_cobv_calendario(calendario: dict[str, Any], chk: Checker) -> dt.date | None:
    """Check a cobv's calendario; returns its due date when that is valid."""
    due = _date(calendario.get("dataDeVencimento"), "calendario.dataDeVencimento", chk)
    validade = calendario.get("validadeAposVencimento", DEFAULT_VALIDADE)
    if json_int(validade) is None or not 0 <= validade <= MAX_VALIDADE:
        chk.fail(
            "calendario.validadeAposVencimento",
            f"deve ser um inteiro de 0 a {MAX_VALIDADE} (dias)",
            validade,
        )
    if due is not None and not MIN_DUE_DATE <= due <= MAX_DUE_DATE:
        chk.fail("calendario.dataDeVencimento", "está fora do intervalo aceito", due.isoformat())
        due = None
    return due


def _check_cobv_valor(valor: dict[str, Any], chk: Checker, due: dt.date | None) -> dict[str, Any]:
    original = _money(valor.get("original"), "valor.original", chk)
    out_valor: dict[str, Any] = {"original": money_str(original) if original else None}
    two = frozenset({2})
    multa = _check_modalidade(valor.get("multa"), "valor.multa", chk, range(1, 3), two)
    juros = _check_modalidade(
        valor.get("juros"), "valor.juros", chk, range(1, 9), frozenset({2, 3, 4, 6, 7, 8}), None
    )
    abatimento = _check_modalidade(
        valor.get("abatimento"), "valor.abatimento", chk, range(1, 3), two
    )
    if abatimento is not None:
        amount = Decimal(abatimento["valorPerc"])
        if abatimento["modalidade"] == 1 and original is not None and amount >= original:
            chk.fail("valor.abatimento.valorPerc", "deve ser menor que o valor original")
        if abatimento["modalidade"] == 2 and amount >= HUNDRED:
            chk.fail("valor.abatimento.valorPerc", "deve ser menor que 100%")
    desconto = _check_desconto(valor.get("desconto"), chk, due, original)
    for name, value in (
        ("multa", multa),
        ("juros", juros),
        ("abatimento", abatimento),
        ("desconto", desconto),
    ):
        if value is not None:
            out_valor[name] = value
    return out_valor


def check_cobv(body: dict[str, Any]) -> dict[str, Any]:
    """The normalized fields of a CobVSolicitada; raises a 400 CobVOperacaoInvalida."""
    chk = checker("cobv")
    out: dict[str, Any] = {}
    calendario = chk.obj(body, "calendario", "calendario", required=True, show=True) or {}
    due = _check_cobv_calendario(calendario, chk)
    out["calendario"] = {
        "dataDeVencimento": due.isoformat() if due else None,
        "validadeAposVencimento": calendario.get("validadeAposVencimento", DEFAULT_VALIDADE),
    }
    if body.get("devedor") is None:
        chk.fail("devedor", "é obrigatório")
    else:
        out["devedor"] = check_devedor(body["devedor"], "devedor", chk, extended=True)
    valor = chk.obj(body, "valor", "valor", required=True, show=True) or {}
    out["valor"] = _check_cobv_valor(valor, chk, due)
    _check_common(body, out, chk)
    chk.check()
    return out


def check_dpp(dpp: str | None, today: dt.date, last: dt.date) -> dt.date:
    """The ``DPP`` (intended payment date, default today) of a cobv payload request."""
    chk = Checker(
        "cobv",
        "CobPayloadOperacaoInvalida",
        detail="Data de pagamento pretendida inválida.",
        shown_limit=200,
        literal=True,
    )
    pay_date = _date(dpp, "DPP", chk, required=False) or today
    if pay_date < today:
        chk.fail("DPP", "não pode ser anterior a hoje", dpp)
    elif pay_date > last:
        chk.fail("DPP", "é posterior à data limite de pagamento", dpp)
    chk.check()
    return pay_date


# ---------------------------------------------------------------------------------------------
# Locations and batches


def check_loc_body(body: dict[str, Any]) -> str:
    """POST /loc: the kind of charge the new location is for."""
    tipo = body.get("tipoCob")
    if tipo not in ("cob", "cobv"):
        raise bad_request(
            "loc",
            Violation("O campo loc.tipoCob deve ser cob ou cobv.", "loc.tipoCob", str(tipo)),
        )
    return str(tipo)


def check_batch_id(batch_id: str) -> None:
    if not BATCH_ID_RE.fullmatch(batch_id):
        raise bad_request(
            "loteCobV",
            Violation(
                "O id do lote deve ter até 64 caracteres [a-zA-Z0-9_-].", "loteCobV.id", batch_id
            ),
        )


def check_batch_body(body: dict[str, Any], *, creating: bool) -> list[dict[str, Any]]:
    """The member bodies of a PUT (``creating``) or PATCH /lotecobv/{id}."""
    chk = checker("loteCobV")
    descricao = body.get("descricao")
    if descricao is not None and (not isinstance(descricao, str) or len(descricao) > 140):
        chk.fail("descricao", "deve ser um texto de até 140 caracteres", descricao)
    items = body.get("cobsv")
    if not isinstance(items, list) or not items or len(items) > MAX_BATCH_MEMBERS:
        chk.fail("cobsV", f"deve ser uma lista de 1 a {MAX_BATCH_MEMBERS} cobranças")
        items = []
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            chk.fail(f"cobsV[{i}]", "deve ser um objeto")
        elif not creating and not isinstance(item.get("txid"), str):
            chk.fail(f"cobsV[{i}].txid", "é obrigatório")
    chk.check()
    return items


# ---------------------------------------------------------------------------------------------
# Refunds and the control surface's simulated payments


def check_refund(pix: dict[str, Any], refund_id: str, body: dict[str, Any]) -> Refund:
    """A refund of ``pix``: a new id, and no more than what is not yet refunded."""
    chk = checker("devolucao")
    if not REFUND_ID_RE.fullmatch(refund_id):
        chk.fail("id", "deve ter de 1 a 35 caracteres [a-zA-Z0-9]", refund_id)
    elif any(d["id"] == refund_id for d in pix["devolucoes"]):
        chk.fail("id", "já foi utilizado em outra devolução deste Pix", refund_id)
    amount = _money(body.get("valor"), "valor", chk)
    natureza = body.get("natureza", "ORIGINAL")
    if natureza not in ("ORIGINAL", "RETIRADA"):
        chk.fail("natureza", "deve ser ORIGINAL ou RETIRADA", natureza)
    elif natureza == "RETIRADA":
        chk.fail("natureza", "RETIRADA só se aplica a Pix Saque ou Pix Troco", natureza)
    descricao = _text(body, "descricao", "descricao", chk, 140)
    if amount is not None:
        refunded = sum(
            (Decimal(d["valor"]) for d in pix["devolucoes"] if d["status"] != "NAO_REALIZADO"),
            Decimal(0),
        )
        available = Decimal(pix["valor"]) - refunded
        if amount > available:
            chk.fail(
                "valor",
                f"excede o valor ainda não devolvido deste Pix ({money_str(available)})"
                if available > 0
                else "excede o valor do Pix, já totalmente devolvido",
                body.get("valor"),
            )
    chk.check()
    assert amount is not None
    return Refund(amount, str(natureza), descricao)


def check_payer(raw: object) -> dict[str, Any]:
    """The control surface's payer ``{name, cpf|cnpj, ispb?}`` as a statement counterparty."""
    chk = checker("payer", "cob")
    if not isinstance(raw, dict):
        raw = {}
    name = _text(raw, "name", "name", chk, 140, required=True)
    document = raw.get("cpf") or raw.get("cnpj")
    if not isinstance(document, str) or not (
        documents.is_valid_cpf(document) or documents.is_valid_cnpj(document)
    ):
        chk.fail("cpf", "(ou payer.cnpj) deve ser um documento válido", document)
    ispb = raw.get("ispb", DEFAULT_PAYER_ISPB)
    if not isinstance(ispb, str) or not ISPB_RE.fullmatch(ispb):
        chk.fail("ispb", "deve ter 8 caracteres [0-9A-Z]", ispb)
    chk.check("Pagador inválido.")
    assert isinstance(document, str)
    return {"name": name, "document": documents.normalize_document(document), "ispb": ispb}


def check_payment(body: dict[str, Any], charge: dict[str, Any]) -> Payment:
    """POST /sandbox/cashin/pay of ``charge``: not dated before the charge was created."""
    payer = check_payer(body.get("payer"))
    chk = checker("pagamento", "cob")
    pay_date = _date(body.get("data"), "data", chk, required=False)
    wanted = _money(body.get("valor"), "valor", chk, required=False)
    info = _text(body, "infoPagador", "infoPagador", chk, 140)
    created = dt.datetime.fromisoformat(charge["calendario"]["criacao"]).astimezone(BRASILIA)
    if pay_date is not None and pay_date < created.date():
        chk.fail("data", "não pode ser anterior à criação da cobrança", body.get("data"))
    chk.check("Pagamento simulado inválido.")
    return Payment(payer, pay_date, wanted, info)


def check_incoming_pix(body: dict[str, Any]) -> IncomingPix:
    """POST /sandbox/cashin/pix-without-txid: to one of the company's keys."""
    payer = check_payer(body.get("payer"))
    chk = checker("pagamento", "cob")
    amount = _money(body.get("valor"), "valor", chk)
    info = _text(body, "infoPagador", "infoPagador", chk, 140)
    chave = body.get("chave", COMPANY["keys"][0])
    if chave not in COMPANY["keys"]:
        chk.fail("chave", "não é uma chave desta conta", chave)
    chk.check("Pix simulado inválido.")
    assert amount is not None
    return IncomingPix(payer, amount, info, str(chave))
