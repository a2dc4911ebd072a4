"""Cash In of the sandbox bank without HTTP: validation of cob/cobv bodies (BCB Pix API
shapes), the amount due of a cobv on a payment date, payload locations, batches, received Pix,
refunds, webhook notifications and the signed QR payloads (JWS)."""

from __future__ import annotations

import base64
import copy
import datetime as dt
import functools
import hashlib
import re
import secrets
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding, rsa

from treasury_app.domain import brcode, documents, identifiers
from treasury_app.domain.business_days import business_days_between, next_business_day
from treasury_app.domain.money import dumps_json, to_api_string
from treasury_app.sandbox.clock import BRASILIA, iso
from treasury_app.sandbox.context import QrContext
from treasury_app.sandbox.problems import Problem, Violation, problem_body
from treasury_app.sandbox.seed import COMPANY, SANDBOX_ISPB

CENT = Decimal("0.01")
HUNDRED = Decimal("100")
MONEY_RE = re.compile(r"[0-9]{1,10}\.[0-9]{2}")
CPF_RE = re.compile(r"[0-9]{11}")
CNPJ_RE = re.compile(r"[0-9A-Z]{14}")
ISPB_RE = re.compile(r"[0-9A-Z]{8}")
REFUND_ID_RE = re.compile(r"[a-zA-Z0-9]{1,35}")
BATCH_ID_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
LOCATION_RE = re.compile(r"(?:https://)?[^/\s]+/qr/v2/(cobv/)?([A-Za-z0-9]{16,64})/?", re.I)
INT32_MAX = 2_147_483_647
DEFAULT_EXPIRACAO = 86400
DEFAULT_VALIDADE = 30
MAX_VALIDADE = 36500  # a century: keeps date arithmetic far from its limits
MIN_DUE_DATE, MAX_DUE_DATE = dt.date(2000, 1, 1), dt.date(2999, 12, 31)
MAX_BATCH_MEMBERS = 5000
REFUND_SECONDS = 3.0  # EM_PROCESSAMENTO -> DEVOLVIDO on the sandbox clock
QRC_WATCH_SECONDS = 60.0
DEFAULT_PAYER_ISPB = "60746948"
OPEN_PAYMENT_STATUSES = frozenset({"ON_QUEUE", "PROCESSING", "WAITING_APPROVAL"})
CHARGE_STATUSES = (
    "ATIVA",
    "CONCLUIDA",
    "REMOVIDA_PELO_USUARIO_RECEBEDOR",
    "REMOVIDA_PELO_PSP",
)
# The company's address: BCB's cobv.recebedor requires one; the seed does not carry it.
RECEBEDOR_ENDERECO = {
    "logradouro": "Avenida Paulista, 1000, Bela Vista",
    "cidade": "São Paulo",
    "uf": "SP",
    "cep": "01310100",
}
MERCHANT_CITY = "SAO PAULO"

# (type name, title, detail) of the 400s, per resource, as the BCB examples word them.
INVALID = {
    "cob": (
        "CobOperacaoInvalida",
        "Cobrança inválida.",
        "A requisição que busca alterar ou criar uma cobrança para pagamento imediato não "
        "respeita o _schema_ ou está semanticamente errada.",
    ),
    "cobv": (
        "CobVOperacaoInvalida",
        "Cobrança inválida.",
        "A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o "
        "_schema_ ou está semanticamente errada.",
    ),
    "loteCobV": (
        "LoteCobVOperacaoInvalida",
        "Lote de cobranças inválido.",
        "A requisição que busca alterar ou criar um lote de cobranças com vencimento não "
        "respeita o _schema_ ou está semanticamente errada.",
    ),
    "loc": (
        "PayloadLocationOperacaoInvalida",
        "PayloadLocation inválido.",
        "A presente requisição busca criar ou alterar uma location sem respeitar o _schema_ "
        "estabelecido.",
    ),
    "devolucao": (
        "PixDevolucaoInvalida",
        "Devolução inválida.",
        "A presente requisição de devolução não respeita o _schema_ ou não faz sentido "
        "semanticamente.",
    ),
}
NOT_FOUND = {
    "cob": ("CobNaoEncontrado", "Cobrança não encontrada.", "Cobrança não encontrada."),
    "cobv": ("CobVNaoEncontrada", "Cobrança não encontrada.", "Cobrança não encontrada."),
    "loteCobV": (
        "LoteCobVNaoEncontrado",
        "Lote de cobranças não encontrado.",
        "Lote de cobranças com vencimento não encontrado.",
    ),
    "loc": ("PayloadLocationNaoEncontrado", "Location não encontrada.", "Location não encontrada."),
    "pix": ("PixNaoEncontrado", "Pix não encontrado.", "Pix não encontrado."),
    "devolucao": (
        "PixDevolucaoNaoEncontrada",
        "Devolução não encontrada.",
        "Devolução não encontrada.",
    ),
    "payload": (
        "CobPayloadNaoEncontrado",
        "Cobrança não encontrada.",
        "A cobrança em questão não foi encontrada para a location requisitada.",
    ),
}


def bad_request(resource: str, *violations: Violation, detail: str | None = None) -> Problem:
    type_name, title, default = INVALID[resource]
    return Problem(
        400, detail or default, title=title, type_name=type_name, violacoes=list(violations)
    )


def not_found(resource: str) -> Problem:
    type_name, title, detail = NOT_FOUND[resource]
    return Problem(404, detail, title=title, type_name=type_name)


def unprocessable(detail: str, type_name: str = "OperacaoInvalida") -> Problem:
    return Problem(422, detail, type_name=type_name)


def money_str(value: Decimal) -> str:
    return to_api_string(value)


# ---------------------------------------------------------------------------------------------
# Validation of request bodies (collects every violation, BCB style)


@dataclass
class Checker:
    """Collects the violations of one body; ``prefix`` names the resource (``cob``...)."""

    prefix: str
    violations: list[Violation] = field(default_factory=list)

    def fail(self, name: str, reason: str, value: object = None) -> None:
        prop = f"{self.prefix}.{name}" if name else self.prefix
        shown = None if value is None else (value if isinstance(value, str) else repr(value))
        self.violations.append(Violation(f"O campo {prop} {reason}.", prop, shown and shown[:200]))

    def check(self, resource: str, detail: str | None = None) -> None:
        if self.violations:
            raise bad_request(resource, *self.violations, detail=detail)


def _obj(body: dict[str, Any], name: str, chk: Checker, path: str) -> dict[str, Any] | None:
    value = body.get(name)
    if value is None:
        return None
    if not isinstance(value, dict):
        chk.fail(path, "deve ser um objeto", value)
        return None
    return value


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _money(raw: object, path: str, chk: Checker, *, required: bool = True) -> Decimal | None:
    if raw is None:
        if required:
            chk.fail(path, "é obrigatório")
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
    if value is None:
        if required:
            chk.fail(path, "é obrigatório")
        return None
    if not isinstance(value, str) or (required and not value.strip()) or len(value) > max_len:
        chk.fail(path, f"deve ser um texto de até {max_len} caracteres", value)
        return None
    return value


def _date(raw: object, path: str, chk: Checker, *, required: bool = True) -> dt.date | None:
    if raw is None:
        if required:
            chk.fail(path, "é obrigatório")
        return None
    try:
        if not isinstance(raw, str) or len(raw) != 10:
            raise ValueError
        return dt.date.fromisoformat(raw)
    except ValueError:
        chk.fail(path, "deve ser uma data no formato AAAA-MM-DD", raw)
        return None


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
    return out


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
        loc_id = _int(loc.get("id")) if isinstance(loc, dict) else None
        if loc_id is None or loc_id <= 0:
            chk.fail("loc.id", "deve ser o id inteiro de uma location", loc)
        else:
            out["locId"] = loc_id


def check_cob(body: dict[str, Any]) -> dict[str, Any]:
    """The normalized fields of a CobSolicitada; raises a 400 CobOperacaoInvalida."""
    chk = Checker("cob")
    out: dict[str, Any] = {}
    calendario = _obj(body, "calendario", chk, "calendario") or {}
    expiracao = calendario.get("expiracao", DEFAULT_EXPIRACAO)
    if _int(expiracao) is None or not 0 < expiracao <= INT32_MAX:
        chk.fail("calendario.expiracao", "deve ser um inteiro positivo (segundos)", expiracao)
    out["calendario"] = {"expiracao": expiracao}
    if body.get("devedor") is not None:
        out["devedor"] = check_devedor(body["devedor"], "devedor", chk, extended=False)
    valor = _obj(body, "valor", chk, "valor")
    if valor is None:
        if "valor" not in body or body["valor"] is None:
            chk.fail("valor", "é obrigatório")
        valor = {}
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
    chk.check("cob")
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
    modalidade = _int(raw.get("modalidade"))
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
    modalidade = _int(raw.get("modalidade"))
    if modalidade is None or not 1 <= modalidade <= 6:
        chk.fail(f"{path}.modalidade", "deve ser um inteiro de 1 a 6", raw.get("modalidade"))
        return None
    fixed = raw.get("descontoDataFixa")
    if modalidade in (1, 2):
        if not isinstance(fixed, list) or not 1 <= len(fixed) <= 3:
            chk.fail(
                f"{path}.descontoDataFixa", "deve ser uma lista de 1 a 3 itens {data, valorPerc}"
            )
            return None
        items: list[dict[str, str]] = []
        for i, item in enumerate(fixed):
            item_path = f"{path}.descontoDataFixa[{i}]"
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
            chk.fail(f"{path}.descontoDataFixa", "não pode repetir datas")
        items.sort(key=lambda i: i["data"])
        return {"modalidade": modalidade, "descontoDataFixa": items}
    if fixed is not None:
        chk.fail(f"{path}.descontoDataFixa", "só é aceito nas modalidades 1 e 2")
    value = _money(raw.get("valorPerc"), f"{path}.valorPerc", chk)
    if value is None:
        return None
    if modalidade in (5, 6) and value >= HUNDRED:
        chk.fail(f"{path}.valorPerc", "deve ser menor que 100%")
    return {"modalidade": modalidade, "valorPerc": money_str(value)}


def check_cobv(body: dict[str, Any]) -> dict[str, Any]:
    """The normalized fields of a CobVSolicitada; raises a 400 CobVOperacaoInvalida."""
    chk = Checker("cobv")
    out: dict[str, Any] = {}
    calendario = _obj(body, "calendario", chk, "calendario")
    if calendario is None and body.get("calendario") is None:
        chk.fail("calendario", "é obrigatório")
    calendario = calendario or {}
    due = _date(calendario.get("dataDeVencimento"), "calendario.dataDeVencimento", chk)
    validade = calendario.get("validadeAposVencimento", DEFAULT_VALIDADE)
    if _int(validade) is None or not 0 <= validade <= MAX_VALIDADE:
        chk.fail(
            "calendario.validadeAposVencimento",
            f"deve ser um inteiro de 0 a {MAX_VALIDADE} (dias)",
            validade,
        )
    if due is not None and not MIN_DUE_DATE <= due <= MAX_DUE_DATE:
        chk.fail("calendario.dataDeVencimento", "está fora do intervalo aceito", due.isoformat())
        due = None
    out["calendario"] = {
        "dataDeVencimento": due.isoformat() if due else None,
        "validadeAposVencimento": validade,
    }
    if body.get("devedor") is None:
        chk.fail("devedor", "é obrigatório")
    else:
        out["devedor"] = check_devedor(body["devedor"], "devedor", chk, extended=True)
    valor = _obj(body, "valor", chk, "valor")
    if valor is None:
        if body.get("valor") is None:
            chk.fail("valor", "é obrigatório")
        valor = {}
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
    out["valor"] = out_valor
    _check_common(body, out, chk)
    chk.check("cobv")
    return out


# ---------------------------------------------------------------------------------------------
# Amount due of a cobv (pure)


def _round(value: Decimal) -> Decimal:
    return value.quantize(CENT, ROUND_HALF_UP)


def cobv_adjusted_due_date(cobv: dict[str, Any]) -> dt.date:
    """The due date rolled to the next business day (BCB: fine, interest and discount follow)."""
    return next_business_day(dt.date.fromisoformat(cobv["calendario"]["dataDeVencimento"]))


def cobv_last_payment_date(cobv: dict[str, Any]) -> dt.date:
    """The last day a cobv can be paid: (rolled due date + validadeAposVencimento calendar days),
    rolled again to a business day (BCB ``CobDataDeVencimento`` examples A to F)."""
    validade = int(cobv["calendario"].get("validadeAposVencimento", DEFAULT_VALIDADE))
    return next_business_day(cobv_adjusted_due_date(cobv) + dt.timedelta(days=validade))


def _juros(spec: dict[str, Any], base: Decimal, due: dt.date, pay_date: dt.date) -> Decimal:
    """Interest for paying after ``due``. Modalidades 1-4 count calendar days, 5-8 business
    days; the per-day rate is the rate itself (2, 6), a month of 30 calendar days (3) or
    21 business days (7), a year of 365 calendar days (4) or 252 business days (8)."""
    modalidade = int(spec["modalidade"])
    rate = Decimal(spec["valorPerc"])
    if modalidade <= 4:
        days = Decimal((pay_date - due).days)
    else:
        days = Decimal(business_days_between(due, pay_date))
    kind = (modalidade - 1) % 4  # 0 value per day, 1 % per day, 2 % per month, 3 % per year
    if kind == 0:
        return rate * days
    per_period = {1: Decimal(1), 2: Decimal(30 if modalidade <= 4 else 21)}.get(
        kind, Decimal(365 if modalidade <= 4 else 252)
    )
    return base * rate / HUNDRED / per_period * days


def _desconto(spec: dict[str, Any], base: Decimal, due: dt.date, pay_date: dt.date) -> Decimal:
    """Discount for paying early. 1/2: fixed value / percentage up to each descontoDataFixa date
    (the earliest date still reachable applies; a date on a non-business day rolls forward);
    3-6: value or percentage per day of anticipation before the due date (3/5 calendar days,
    4/6 business days)."""
    modalidade = int(spec["modalidade"])
    if modalidade in (1, 2):
        reachable = [
            item
            for item in spec["descontoDataFixa"]
            if pay_date <= next_business_day(dt.date.fromisoformat(item["data"]))
        ]
        if not reachable:
            return Decimal(0)
        rate = Decimal(min(reachable, key=lambda i: i["data"])["valorPerc"])
        return rate if modalidade == 1 else base * rate / HUNDRED
    if pay_date >= due:
        return Decimal(0)
    rate = Decimal(spec["valorPerc"])
    if modalidade in (3, 5):
        days = Decimal((due - pay_date).days)
    else:
        days = Decimal(business_days_between(pay_date, due))
    return rate * days if modalidade in (3, 4) else base * rate / HUNDRED * days


def cobv_amount_due(cobv: dict[str, Any], pay_date: dt.date) -> dict[str, Decimal]:
    """What a payer owes for ``cobv`` when paying on ``pay_date``.

    ``abatimento`` (1 fixed, 2 % of the original) always applies and lowers the base on which
    every percentage is taken; ``desconto`` applies on or before the (business-day adjusted)
    due date, ``multa`` (1 fixed, 2 % of the base) and ``juros`` after it. Each component is
    rounded half-up to cents; the discount never takes the amount below one cent.
    Returns original, multa, juros, abatimento, desconto and final.
    """
    valor = cobv["valor"]
    original = Decimal(valor["original"])
    due = cobv_adjusted_due_date(cobv)
    zero = Decimal("0.00")
    abatimento = zero
    if valor.get("abatimento"):
        spec = valor["abatimento"]
        rate = Decimal(spec["valorPerc"])
        abatimento = _round(rate if int(spec["modalidade"]) == 1 else original * rate / HUNDRED)
    base = original - abatimento
    desconto = multa = juros = zero
    if pay_date <= due:
        if valor.get("desconto"):
            desconto = _round(_desconto(valor["desconto"], base, due, pay_date))
            desconto = min(desconto, base - CENT)
    else:
        if valor.get("multa"):
            spec = valor["multa"]
            rate = Decimal(spec["valorPerc"])
            multa = _round(rate if int(spec["modalidade"]) == 1 else base * rate / HUNDRED)
        if valor.get("juros"):
            juros = _round(_juros(valor["juros"], base, due, pay_date))
    return {
        "original": _round(original),
        "multa": multa,
        "juros": juros,
        "abatimento": abatimento,
        "desconto": desconto,
        "final": _round(base - desconto + multa + juros),
    }


# ---------------------------------------------------------------------------------------------
# Payload locations


def now_iso(ctx: QrContext) -> str:
    return iso(ctx.clock.now())


def our_host(ctx: QrContext) -> str:
    url = ctx.base_url()
    return url.split("://", 1)[-1].rstrip("/")


def location_url(ctx: QrContext, tipo: str, token: str) -> str:
    """The QR address of a location, without scheme (as BCB writes ``location``)."""
    middle = "cobv/" if tipo == "cobv" else ""
    return f"{our_host(ctx)}/qr/v2/{middle}{token}"


def new_loc(ctx: QrContext, tipo: str, created: str) -> dict[str, Any]:
    loc_id = ctx.store.next_id("cashin_loc")
    token = secrets.token_hex(16)
    loc = {"id": loc_id, "tipoCob": tipo, "criacao": created, "token": token, "txid": None}
    ctx.store.put("loc", str(loc_id), loc, created)
    ctx.store.put("loc_token", token, {"token": token, "locId": loc_id}, created)
    return loc


def get_loc(ctx: QrContext, loc_id: str | int) -> dict[str, Any] | None:
    return ctx.store.get("loc", str(loc_id))


def render_loc(ctx: QrContext, loc: dict[str, Any]) -> dict[str, Any]:
    out = {
        "id": loc["id"],
        "location": location_url(ctx, loc["tipoCob"], loc["token"]),
        "tipoCob": loc["tipoCob"],
        "criacao": loc["criacao"],
    }
    if loc.get("txid"):
        out["txid"] = loc["txid"]
    return out


def create_loc(ctx: QrContext, body: dict[str, Any]) -> dict[str, Any]:
    tipo = body.get("tipoCob")
    if tipo not in ("cob", "cobv"):
        raise bad_request(
            "loc",
            Violation("O campo loc.tipoCob deve ser cob ou cobv.", "loc.tipoCob", str(tipo)),
        )
    with ctx.store.transaction():
        loc = new_loc(ctx, tipo, now_iso(ctx))
    return loc


def unlink_loc(ctx: QrContext, loc_id: str) -> dict[str, Any]:
    """DELETE /loc/{id}/txid: the location keeps no txid; its charge loses its location."""
    loc = get_loc(ctx, loc_id) if loc_id.isdigit() else None
    if loc is None:
        raise not_found("loc")
    txid = loc.get("txid")
    with ctx.store.transaction():
        if txid:
            charge = ctx.store.get(loc["tipoCob"], txid)
            if charge is not None and (charge.get("loc") or {}).get("id") == loc["id"]:
                charge["loc"] = None
                put_charge(ctx, charge)
            loc["txid"] = None
            ctx.store.put("loc", str(loc["id"]), loc, loc["criacao"])
    return loc


def _usable_loc(
    ctx: QrContext, loc_id: int, tipo: str, txid: str, chk: Checker
) -> dict[str, Any] | None:
    loc = get_loc(ctx, loc_id)
    if loc is None:
        chk.fail("loc.id", "não corresponde a uma location existente", str(loc_id))
    elif loc["tipoCob"] != tipo:
        chk.fail("loc.id", f"é uma location do tipo {loc['tipoCob']}", str(loc_id))
    elif loc.get("txid") and loc["txid"] != txid:
        chk.fail("loc.id", "já está vinculada a outra cobrança", str(loc_id))
    else:
        return loc
    return None


def loc_by_token(ctx: QrContext, token: str) -> dict[str, Any] | None:
    ref = ctx.store.get("loc_token", token)
    return get_loc(ctx, ref["locId"]) if ref else None


# ---------------------------------------------------------------------------------------------
# Charges (cob and cobv)


def charge_kind(ctx: QrContext, txid: str) -> str | None:
    for kind in ("cob", "cobv"):
        if ctx.store.get(kind, txid) is not None:
            return kind
    return None


def txid_taken(ctx: QrContext, txid: str) -> bool:
    """A txid is unique per receiver across cob, cobv and (Pix Automático) cobr."""
    return charge_kind(ctx, txid) is not None or ctx.store.get("cobr", txid) is not None


def put_charge(ctx: QrContext, charge: dict[str, Any]) -> None:
    ctx.store.put(charge["tipoCob"], charge["txid"], charge, charge["calendario"]["criacao"])


def _txid_or_400(tipo: str, txid: object) -> str:
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


def create_charge(
    ctx: QrContext,
    tipo: str,
    body: dict[str, Any],
    txid: str | None,
    *,
    lote: str | None = None,
) -> dict[str, Any]:
    """Validate and store a cob or cobv (``txid`` None: generated); returns the stored doc."""
    txid = identifiers.new_txid() if txid is None else _txid_or_400(tipo, txid)
    if txid_taken(ctx, txid):
        raise bad_request(
            tipo,
            Violation(f"O txid {txid} já foi utilizado por outra cobrança.", f"{tipo}.txid", txid),
            detail="Já existe uma cobrança com este txid.",
        )
    fields = check_cob(body) if tipo == "cob" else check_cobv(body)
    loc_id = fields.pop("locId", None)
    loc = None
    if loc_id is not None:
        chk = Checker(tipo)
        loc = _usable_loc(ctx, loc_id, tipo, txid, chk)
        chk.check(tipo)
    created = now_iso(ctx)
    with ctx.store.transaction():
        loc = loc or new_loc(ctx, tipo, created)
        loc["txid"] = txid
        ctx.store.put("loc", str(loc["id"]), loc, loc["criacao"])
        charge: dict[str, Any] = {
            "txid": txid,
            "tipoCob": tipo,
            **fields,
            "calendario": {"criacao": created, **fields["calendario"]},
            "revisao": 0,
            "status": "ATIVA",
            "loc": _loc_snapshot(loc),
            "pix": [],
        }
        if tipo == "cobv":
            charge["recebedor"] = recebedor()
        if lote is not None:
            charge["loteCobVId"] = lote
        put_charge(ctx, charge)
    return charge


def _loc_snapshot(loc: dict[str, Any]) -> dict[str, Any]:
    return {k: loc[k] for k in ("id", "tipoCob", "criacao", "token")}


def recebedor() -> dict[str, Any]:
    return {
        "cnpj": COMPANY["document"],
        "nome": COMPANY["name"],
        "nomeFantasia": "Empresa Sandbox",
        **RECEBEDOR_ENDERECO,
    }


def _request_view(charge: dict[str, Any]) -> dict[str, Any]:
    """The charge as a creation body (what a revision is merged onto)."""
    calendario = {k: v for k, v in charge["calendario"].items() if k != "criacao"}
    view: dict[str, Any] = {"calendario": calendario}
    for name in ("devedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            view[name] = charge[name]
    return view


MERGED_FIELDS = (
    "calendario",
    "devedor",
    "valor",
    "chave",
    "solicitacaoPagador",
    "infoAdicionais",
    "loc",
)


def _merge(view: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """A revision: objects merge one level deep, other fields replace; null removes."""
    merged = dict(view)
    for name in MERGED_FIELDS:
        if name not in patch:
            continue
        new = patch[name]
        old = merged.get(name)
        if isinstance(new, dict) and isinstance(old, dict):
            combined = dict(old)
            if name == "devedor" and ("cpf" in new or "cnpj" in new):
                combined.pop("cpf", None)
                combined.pop("cnpj", None)
            combined.update(new)
            merged[name] = {k: v for k, v in combined.items() if v is not None}
        elif new is None:
            merged.pop(name, None)
        else:
            merged[name] = new
    return merged


def revise_charge(
    ctx: QrContext, tipo: str, txid: str, patch: dict[str, Any], *, replace: bool = False
) -> dict[str, Any]:
    """PATCH /cob|/cobv: revise an ATIVA charge (or remove it); ``replace`` takes ``patch`` as a
    whole new creation body (re-PUT of a batch)."""
    charge = ctx.store.get(tipo, txid)
    if charge is None:
        raise not_found(tipo)
    if charge["status"] != "ATIVA":
        raise bad_request(
            tipo,
            detail="Cobrança não encontra-se mais com o status ATIVA, somente cobranças ativas "
            "podem ser revisadas.",
        )
    status = patch.get("status")
    if status is not None and status != "REMOVIDA_PELO_USUARIO_RECEBEDOR":
        raise bad_request(
            tipo,
            Violation(
                f"O campo {tipo}.status só aceita REMOVIDA_PELO_USUARIO_RECEBEDOR.",
                f"{tipo}.status",
                str(status),
            ),
        )
    body = patch if replace else _merge(_request_view(charge), patch)
    fields = check_cob(body) if tipo == "cob" else check_cobv(body)
    new_loc_id = fields.pop("locId", None)
    loc = None
    if new_loc_id is not None and new_loc_id != (charge.get("loc") or {}).get("id"):
        chk = Checker(tipo)
        loc = _usable_loc(ctx, new_loc_id, tipo, txid, chk)
        chk.check(tipo)
    with ctx.store.transaction():
        # Each revision stays readable (GET /cob/{txid}?revisao=N).
        earlier = {k: copy.deepcopy(v) for k, v in charge.items() if k != "_revisions"}
        charge.setdefault("_revisions", {})[str(charge["revisao"])] = earlier
        for name in ("devedor", "solicitacaoPagador", "infoAdicionais"):
            charge.pop(name, None)
        charge.update({k: v for k, v in fields.items() if k != "calendario"})
        charge["calendario"] = {"criacao": charge["calendario"]["criacao"], **fields["calendario"]}
        charge["revisao"] += 1
        if status is not None:
            charge["status"] = status
        if loc is not None:
            old = charge.get("loc")
            if old:
                _free_loc(ctx, old["id"], txid)
            loc["txid"] = txid
            ctx.store.put("loc", str(loc["id"]), loc, loc["criacao"])
            charge["loc"] = _loc_snapshot(loc)
        put_charge(ctx, charge)
    return charge


def _free_loc(ctx: QrContext, loc_id: int, txid: str) -> None:
    loc = get_loc(ctx, loc_id)
    if loc is not None and loc.get("txid") == txid:
        loc["txid"] = None
        ctx.store.put("loc", str(loc_id), loc, loc["criacao"])


def pix_copia_e_cola(location: str) -> str:
    """The dynamic BR Code of a location. No amount (field 54): the payer's bank reads it from
    the signed payload, which for a cobv depends on the payment date."""
    return brcode.build(
        merchant_name=brcode.fit_text(COMPANY["name"], 25),
        merchant_city=MERCHANT_CITY,
        url=location,
        single_use=True,
    )


def render_charge(
    ctx: QrContext, charge: dict[str, Any], *, with_pix: bool = True
) -> dict[str, Any]:
    """CobCompleta / CobVCompleta (``with_pix=False``: CobGerada / CobVGerada)."""
    out: dict[str, Any] = {"calendario": dict(charge["calendario"]), "txid": charge["txid"]}
    out["revisao"] = charge["revisao"]
    loc = charge.get("loc")
    if loc:
        location = location_url(ctx, loc["tipoCob"], loc["token"])
        out["loc"] = {
            "id": loc["id"],
            "location": location,
            "tipoCob": loc["tipoCob"],
            "criacao": loc["criacao"],
        }
        out["location"] = location
    out["status"] = charge["status"]
    for name in ("devedor", "recebedor", "valor", "chave", "solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            out[name] = charge[name]
    if loc:
        out["pixCopiaECola"] = pix_copia_e_cola(out["location"])
    if with_pix and charge.get("pix"):
        out["pix"] = [render_pix(p) for p in _pix_docs(ctx, charge["pix"])]
    return out


def _pix_docs(ctx: QrContext, e2eids: list[str]) -> list[dict[str, Any]]:
    return [doc for e2e in e2eids if (doc := ctx.store.get("pix", e2e)) is not None]


def charge_by_token(
    ctx: QrContext, token: str
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """(loc, charge) behind a QR token; either may be None."""
    loc = loc_by_token(ctx, token)
    if loc is None or not loc.get("txid"):
        return loc, None
    return loc, ctx.store.get(loc["tipoCob"], loc["txid"])


def cob_expired(charge: dict[str, Any], now: dt.datetime) -> bool:
    created = dt.datetime.fromisoformat(charge["calendario"]["criacao"])
    return now > created + dt.timedelta(seconds=int(charge["calendario"]["expiracao"]))


def payable_amount(
    ctx: QrContext, charge: dict[str, Any], pay_date: dt.date | None = None
) -> tuple[Decimal, dict[str, Decimal]]:
    """Amount due now (cob) or on ``pay_date`` (cobv, default today) and its components;
    raises 422 when the charge cannot be paid."""
    if charge["status"] != "ATIVA":
        raise unprocessable(
            f"A cobrança {charge['txid']} está {charge['status']} e não pode ser paga.",
            "CobrancaNaoAtiva",
        )
    if charge["tipoCob"] == "cob":
        if cob_expired(charge, ctx.clock.now()):
            raise unprocessable(
                f"A cobrança {charge['txid']} expirou e não pode mais ser paga.", "CobrancaExpirada"
            )
        original = Decimal(charge["valor"]["original"])
        return original, {"original": original}
    day = pay_date or ctx.clock.today()
    last = cobv_last_payment_date(charge)
    if day > last:
        raise unprocessable(
            f"A cobrança {charge['txid']} só podia ser paga até {last.isoformat()}.",
            "CobrancaExpirada",
        )
    due = cobv_amount_due(charge, day)
    return due["final"], due


# ---------------------------------------------------------------------------------------------
# Received Pix


def render_pix(pix: dict[str, Any]) -> dict[str, Any]:
    out = {
        k: pix[k]
        for k in (
            "endToEndId",
            "txid",
            "valor",
            "componentesValor",
            "chave",
            "horario",
            "infoPagador",
        )
        if pix.get(k) is not None
    }
    out["devolucoes"] = [dict(d) for d in pix.get("devolucoes", [])]
    return out


def _components(tipo: str | None, paid: Decimal, parts: dict[str, Decimal]) -> dict[str, Any]:
    if tipo != "cobv" or parts.get("final") != paid:
        return {"original": {"valor": money_str(paid)}}
    out = {"original": {"valor": money_str(parts["original"])}}
    for name in ("juros", "multa", "abatimento", "desconto"):
        if parts[name] > 0:
            out[name] = {"valor": money_str(parts[name])}
    return out


def record_pix(
    ctx: QrContext,
    *,
    e2e: str,
    amount: Decimal,
    payer: dict[str, Any],
    chave: str,
    info: str | None,
    charge: dict[str, Any] | None,
    parts: dict[str, Decimal],
) -> dict[str, Any]:
    """Store a received Pix; a charge it pays becomes CONCLUIDA and its webhook is queued."""
    now = now_iso(ctx)
    pix: dict[str, Any] = {
        "endToEndId": e2e,
        "txid": charge["txid"] if charge else None,
        "valor": money_str(amount),
        "componentesValor": _components(charge["tipoCob"] if charge else None, amount, parts),
        "chave": chave,
        "horario": now,
        "infoPagador": info,
        "devolucoes": [],
        "pagador": payer,
    }
    with ctx.store.transaction():
        ctx.store.put("pix", e2e, pix, now)
        if charge is not None:
            charge["pix"] = [*charge.get("pix", []), e2e]
            charge["status"] = "CONCLUIDA"
            put_charge(ctx, charge)
            notify_pix(ctx, pix)
    return pix


def check_payer(raw: object) -> dict[str, Any]:
    """The control surface's payer ``{name, cpf|cnpj, ispb?}`` as a statement counterparty."""
    chk = Checker("payer")
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
    chk.check("cob", "Pagador inválido.")
    assert isinstance(document, str)
    return {"name": name, "document": documents.normalize_document(document), "ispb": ispb}


def simulate_payment(ctx: QrContext, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """POST /sandbox/cashin/pay: a payer pays an ATIVA cob/cobv. Returns (pix, charge)."""
    txid = body.get("txid")
    kind = charge_kind(ctx, txid) if isinstance(txid, str) else None
    if kind is None:
        raise not_found("cob")
    charge = ctx.store.get(kind, str(txid))
    assert charge is not None
    payer = check_payer(body.get("payer"))
    chk = Checker("pagamento")
    pay_date = _date(body.get("data"), "data", chk, required=False)
    wanted = _money(body.get("valor"), "valor", chk, required=False)
    info = _text(body, "infoPagador", "infoPagador", chk, 140)
    created = dt.datetime.fromisoformat(charge["calendario"]["criacao"]).astimezone(BRASILIA)
    if pay_date is not None and pay_date < created.date():
        chk.fail("data", "não pode ser anterior à criação da cobrança", body.get("data"))
    chk.check("cob", "Pagamento simulado inválido.")
    amount, parts = payable_amount(ctx, charge, pay_date)
    if wanted is not None and wanted != amount:
        if kind == "cob" and charge["valor"].get("modalidadeAlteracao") == 1:
            amount, parts = wanted, {"original": wanted}
        else:
            raise unprocessable(
                f"O valor devido é {money_str(amount)}; o pagador não pode alterá-lo."
            )
    with ctx.store.transaction():
        entry = ctx.bank.credit_incoming_pix(amount, payer, None, txid=charge["txid"])
        pix = record_pix(
            ctx,
            e2e=entry["endToEndId"],
            amount=amount,
            payer=payer,
            chave=charge["chave"],
            info=info,
            charge=charge,
            parts=parts,
        )
    return pix, charge


def receive_pix_without_txid(ctx: QrContext, body: dict[str, Any]) -> dict[str, Any]:
    """POST /sandbox/cashin/pix-without-txid: money sent to one of the keys, no charge."""
    payer = check_payer(body.get("payer"))
    chk = Checker("pagamento")
    amount = _money(body.get("valor"), "valor", chk)
    info = _text(body, "infoPagador", "infoPagador", chk, 140)
    chave = body.get("chave", COMPANY["keys"][0])
    if chave not in COMPANY["keys"]:
        chk.fail("chave", "não é uma chave desta conta", chave)
    chk.check("cob", "Pix simulado inválido.")
    assert amount is not None
    with ctx.store.transaction():
        entry = ctx.bank.credit_incoming_pix(amount, payer, None)
        return record_pix(
            ctx,
            e2e=entry["endToEndId"],
            amount=amount,
            payer=payer,
            chave=str(chave),
            info=info,
            charge=None,
            parts={},
        )


# ---------------------------------------------------------------------------------------------
# Refunds (devolução)


def request_refund(
    ctx: QrContext, e2e: str, refund_id: str, body: dict[str, Any]
) -> dict[str, Any]:
    """PUT /pix/{e2eid}/devolucao/{id}: debit the account now, DEVOLVIDO a few seconds later."""
    pix = ctx.store.get("pix", e2e)
    if pix is None:
        raise not_found("pix")
    chk = Checker("devolucao")
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
    chk.check("devolucao")
    assert amount is not None
    if amount > ctx.bank.store.balance():
        raise unprocessable("Saldo insuficiente para a devolução.", "SaldoInsuficiente")
    now = ctx.clock.now()
    refund: dict[str, Any] = {
        "id": refund_id,
        "rtrId": identifiers.new_rtrid(SANDBOX_ISPB, now),
        "valor": money_str(amount),
        "natureza": natureza,
        "horario": {"solicitacao": iso(now)},
        "status": "EM_PROCESSAMENTO",
    }
    if descricao is not None:
        refund["descricao"] = descricao
    payer = pix.get("pagador") or {}
    with ctx.store.transaction():
        ctx.bank.store.add_entry(
            created=iso(now),
            day=ctx.clock.today().isoformat(),
            credit_debit="DEBIT",
            type_="REFUND",
            amount=amount,
            body={
                "description": f"Devolução de Pix a {payer.get('name', 'pagador')}",
                "endToEndId": refund["rtrId"],
                "originalEndToEndId": e2e,
                "txId": pix.get("txid"),
                "counterparty": payer,
            },
        )
        pix["devolucoes"].append(refund)
        ctx.store.put("pix", e2e, pix, pix["horario"])
        due = iso(now + dt.timedelta(seconds=REFUND_SECONDS))
        ctx.store.put(
            "cashin_refund_pending",
            f"{e2e}:{refund_id}",
            {"e2e": e2e, "id": refund_id, "dueAt": due},
            due,
        )
    return refund


def get_refund(ctx: QrContext, e2e: str, refund_id: str) -> dict[str, Any]:
    pix = ctx.store.get("pix", e2e)
    if pix is None:
        raise not_found("pix")
    for refund in pix["devolucoes"]:
        if refund["id"] == refund_id:
            return dict(refund)
    raise not_found("devolucao")


def settle_refunds(ctx: QrContext) -> int:
    """Move due refunds to DEVOLVIDO and notify them; returns how many moved."""
    now = ctx.clock.now()
    moved = 0
    for pending in ctx.store.all("cashin_refund_pending"):
        due = dt.datetime.fromisoformat(pending["dueAt"])
        if due > now:
            continue
        with ctx.store.transaction():
            pix = ctx.store.get("pix", pending["e2e"])
            if pix is not None:
                for refund in pix["devolucoes"]:
                    if refund["id"] == pending["id"] and refund["status"] == "EM_PROCESSAMENTO":
                        refund["status"] = "DEVOLVIDO"
                        refund["horario"]["liquidacao"] = pending["dueAt"]
                ctx.store.put("pix", pix["endToEndId"], pix, pix["horario"])
                notify_pix(ctx, pix)
            ctx.store.delete("cashin_refund_pending", f"{pending['e2e']}:{pending['id']}")
        moved += 1
    return moved


# ---------------------------------------------------------------------------------------------
# Notifications (delivered by the notifier)


def notify_pix(ctx: QrContext, pix: dict[str, Any]) -> dict[str, Any] | None:
    """Queue the Pix webhook of ``pix`` (only Pix with a txid notify). ``url`` is the key's
    webhookUrl + "/pix", or None when the key has no webhook (the notifier then records it as
    NO_WEBHOOK)."""
    if not pix.get("txid"):
        return None
    hook = ctx.store.get("qr_webhook", pix["chave"])
    now = now_iso(ctx)
    doc_id = f"N{ctx.store.next_id('notification'):08d}"
    doc = {
        "id": doc_id,
        "api": "qrcodes",
        "kind": "pix",
        "chave": pix["chave"],
        "url": hook["webhookUrl"].rstrip("/") + "/pix" if hook else None,
        "payload": {"pix": [render_pix(pix)]},
        "headers": {},
        "status": "PENDING",
        "attempts": 0,
        "createdAt": now,
        "nextAttemptAt": now,
    }
    ctx.store.put("notification", doc_id, doc, now)
    return doc


# ---------------------------------------------------------------------------------------------
# Paying our own dynamic QR codes through the Accounts API (/qrc)


def resolve_location(ctx: QrContext, url: str) -> dict[str, Any] | None:
    """``AccountsBank.location_resolver``: amount due today and creditor of one of our QR
    locations; None for an address that is not ours; 422 when its charge cannot be paid."""
    match = LOCATION_RE.fullmatch(url.strip())
    if match is None:
        return None
    loc, charge = charge_by_token(ctx, match.group(2))
    if loc is None:
        return None
    if charge is None:
        raise unprocessable("Esta location não tem cobrança vinculada.", "CobrancaNaoAtiva")
    amount, _parts = payable_amount(ctx, charge)
    now = now_iso(ctx)
    ctx.store.put("cashin_qrc_watch", loc["token"], {"token": loc["token"], "since": now}, now)
    return {"amount": amount, "creditor": dict(COMPANY["account"])}


def settle_qrc_payments(ctx: QrContext) -> int:
    """Pix payments of the Accounts API to our own locations, once SETTLED, pay the charge."""
    watches = {w["token"]: w for w in ctx.store.all("cashin_qrc_watch")}
    if not watches:
        return 0
    settled = 0
    open_tokens: set[str] = set()
    for payment in ctx.store.all("pix_payment"):
        match = LOCATION_RE.fullmatch(str(payment.get("location") or ""))
        token = match.group(2) if match else None
        if token is None or token not in watches:
            continue
        if payment["status"] in OPEN_PAYMENT_STATUSES:
            open_tokens.add(token)
        elif (
            payment["status"] == "SETTLED"
            and ctx.store.get("cashin_qrc_done", payment["endToEndId"]) is None
        ):
            _settle_qrc(ctx, payment, token)
            settled += 1
    limit = ctx.clock.now() - dt.timedelta(seconds=QRC_WATCH_SECONDS)
    for token, watch in watches.items():
        if token not in open_tokens and dt.datetime.fromisoformat(watch["since"]) < limit:
            ctx.store.delete("cashin_qrc_watch", token)
    return settled


def _settle_qrc(ctx: QrContext, payment: dict[str, Any], token: str) -> None:
    _loc, charge = charge_by_token(ctx, token)
    amount = Decimal(payment["payment"]["amount"])
    debtor = payment.get("debtorAccount") or {}
    payer = {k: debtor.get(k) for k in ("name", "document", "ispb")}
    e2e = payment["endToEndId"]
    parts: dict[str, Decimal] = {}
    if charge is not None and charge["tipoCob"] == "cobv":
        paid_on = dt.datetime.fromisoformat(payment["createdAt"]).astimezone(BRASILIA).date()
        parts = cobv_amount_due(charge, paid_on)
    now = ctx.clock.now()
    with ctx.store.transaction():
        ctx.bank.store.add_entry(
            created=iso(now),
            day=ctx.clock.today().isoformat(),
            credit_debit="CREDIT",
            type_="PIX",
            amount=amount,
            body={
                "description": f"Pix recebido de {payer.get('name')}",
                "endToEndId": e2e,
                "txId": charge["txid"] if charge else None,
                "counterparty": payer,
            },
        )
        record_pix(
            ctx,
            e2e=e2e,
            amount=amount,
            payer=payer,
            chave=charge["chave"] if charge else COMPANY["keys"][0],
            info=payment.get("description"),
            charge=charge,
            parts=parts,
        )
        ctx.store.put("cashin_qrc_done", e2e, {"e2e": e2e}, iso(now))


# ---------------------------------------------------------------------------------------------
# Signed payloads (JWS, RS256, with the server's TLS key)


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _uint(value: int) -> str:
    return _b64url(value.to_bytes((value.bit_length() + 7) // 8, "big"))


@functools.lru_cache(maxsize=4)
def _signing_material(key_path: str, cert_path: str) -> tuple[rsa.RSAPrivateKey, dict[str, Any]]:
    key = serialization.load_pem_private_key(Path(key_path).read_bytes(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise TypeError("the sandbox server key must be RSA")
    chain = x509.load_pem_x509_certificates(Path(cert_path).read_bytes())
    der = chain[0].public_bytes(serialization.Encoding.DER)
    numbers = key.public_key().public_numbers()
    thumb256 = _b64url(hashlib.sha256(der).digest())
    jwk = {
        "kty": "RSA",
        "use": "sig",
        "alg": "RS256",
        "kid": thumb256,
        "n": _uint(numbers.n),
        "e": _uint(numbers.e),
        "x5t": _b64url(hashlib.sha1(der).digest()),  # a certificate thumbprint (RFC 7515)
        "x5t#S256": thumb256,
        "x5c": [
            base64.b64encode(c.public_bytes(serialization.Encoding.DER)).decode("ascii")
            for c in chain
        ],
    }
    return key, jwk


def jwks(ctx: QrContext) -> dict[str, Any]:
    _key, jwk = _signing_material(str(ctx.pki.server_key), str(ctx.pki.server_cert))
    return {"keys": [jwk]}


def sign_jws(ctx: QrContext, payload: dict[str, Any]) -> str:
    """Compact JWS (RS256) of ``payload``; header with kid, x5t, x5t#S256 and jku."""
    key, jwk = _signing_material(str(ctx.pki.server_key), str(ctx.pki.server_cert))
    header = {
        "alg": "RS256",
        "typ": "JWS",
        "kid": jwk["kid"],
        "x5t": jwk["x5t"],
        "x5t#S256": jwk["x5t#S256"],
        "x5c": jwk["x5c"],
        "jku": f"{ctx.base_url()}/jwks",
    }
    # dumps_json writes Decimal amounts exactly (never through float).
    signing_input = ".".join(
        _b64url(dumps_json(part).encode("utf-8")) for part in (header, payload)
    )
    signature = key.sign(signing_input.encode("ascii"), padding.PKCS1v15(), hashes.SHA256())
    return f"{signing_input}.{_b64url(signature)}"


def qr_payload(ctx: QrContext, token: str, tipo: str | None, dpp: str | None) -> dict[str, Any]:
    """CobPayload / CobVPayload of the charge behind a QR token (404 if none); ``tipo`` None
    serves either kind."""
    loc, charge = charge_by_token(ctx, token)
    if loc is None or charge is None or tipo not in (None, loc["tipoCob"]):
        raise not_found("payload")
    tipo = loc["tipoCob"]
    calendario = dict(charge["calendario"])
    calendario["apresentacao"] = now_iso(ctx)
    out: dict[str, Any] = {"calendario": calendario, "txid": charge["txid"]}
    out["revisao"] = charge["revisao"]
    out["status"] = charge["status"]
    for name in ("devedor", "recebedor"):
        if name in charge:
            out[name] = charge[name]
    if tipo == "cob":
        out["valor"] = charge["valor"]
    else:
        chk = Checker("cobv")
        pay_date = _date(dpp, "DPP", chk, required=False) or ctx.clock.today()
        if pay_date < ctx.clock.today():
            chk.fail("DPP", "não pode ser anterior a hoje", dpp)
        elif pay_date > cobv_last_payment_date(charge):
            chk.fail("DPP", "é posterior à data limite de pagamento", dpp)
        if chk.violations:
            raise Problem(
                400,
                "Data de pagamento pretendida inválida.",
                type_name="CobPayloadOperacaoInvalida",
                violacoes=chk.violations,
            )
        parts = cobv_amount_due(charge, pay_date)
        out["valor"] = {
            k: money_str(v) for k, v in parts.items() if k in ("original", "final") or v > 0
        }
    out["chave"] = charge["chave"]
    for name in ("solicitacaoPagador", "infoAdicionais"):
        if name in charge:
            out[name] = charge[name]
    return out


# ---------------------------------------------------------------------------------------------
# Batches of cobv (lotecobv)


def _member_problem(problem: Problem, batch_id: str) -> dict[str, Any]:
    body = problem_body(problem, f"/lotecobv/{batch_id}", "qrcodes")
    body.pop("instance", None)
    return body


def _try_create_member(
    ctx: QrContext, batch_id: str, item: dict[str, Any], member: dict[str, Any]
) -> None:
    try:
        create_charge(ctx, "cobv", item, member["txid"], lote=batch_id)
    except Problem as problem:
        member.update(created=False, pending=False, problema=_member_problem(problem, batch_id))
        member["request"] = item
        return
    member.update(created=True, pending=True, problema=None)
    member.pop("request", None)


def _try_revise_member(
    ctx: QrContext, batch_id: str, item: dict[str, Any], member: dict[str, Any], *, replace: bool
) -> None:
    patch = {k: v for k, v in item.items() if k != "txid"}
    try:
        revise_charge(ctx, "cobv", member["txid"], patch, replace=replace)
    except Problem as problem:
        member["problema"] = _member_problem(problem, batch_id)
        member["refused"] = True
        return
    member.update(pending=True, problema=None, refused=False)


def _check_batch_body(body: dict[str, Any], *, creating: bool) -> list[dict[str, Any]]:
    chk = Checker("loteCobV")
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
    chk.check("loteCobV")
    return items


def put_batch(ctx: QrContext, batch_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """PUT /lotecobv/{id}: create the batch (members that fail are NEGADA), or, with exactly the
    same txids as the original request, revise every member (BCB "criar/alterar")."""
    if not BATCH_ID_RE.fullmatch(batch_id):
        raise bad_request(
            "loteCobV",
            Violation(
                "O id do lote deve ter até 64 caracteres [a-zA-Z0-9_-].", "loteCobV.id", batch_id
            ),
        )
    items = _check_batch_body(body, creating=True)
    existing = ctx.store.get("lotecobv", batch_id)
    if existing is not None:
        return _replace_batch(ctx, existing, body, items)
    created = now_iso(ctx)
    batch: dict[str, Any] = {
        "id": batch_id,
        "descricao": body.get("descricao"),
        "criacao": created,
        "members": [],
    }
    seen: set[str] = set()
    with ctx.store.transaction():
        for item in items:
            txid = item.get("txid")
            member: dict[str, Any] = {"txid": txid, "criacao": created}
            batch["members"].append(member)
            refusal = _member_refusal(ctx, txid, seen)
            if refusal is not None:
                member.update(created=False, pending=False, request=item)
                member["problema"] = _member_problem(refusal, batch_id)
                continue
            seen.add(str(txid))
            _try_create_member(ctx, batch_id, item, member)
        ctx.store.put("lotecobv", batch_id, batch, created)
        ctx.store.put("lotecobv_pending", batch_id, {"id": batch_id}, created)
    return batch


def _member_refusal(ctx: QrContext, txid: object, seen: set[str]) -> Problem | None:
    if not isinstance(txid, str) or not identifiers.is_valid_txid(txid):
        return bad_request(
            "cobv",
            Violation(
                "O campo cobv.txid deve ter de 26 a 35 caracteres [a-zA-Z0-9].",
                "cobv.txid",
                None if txid is None else str(txid),
            ),
        )
    if txid in seen:
        return bad_request(
            "cobv",
            Violation("O txid aparece mais de uma vez no lote.", "cobv.txid", txid),
        )
    if txid_taken(ctx, txid):
        return bad_request(
            "cobv",
            Violation(
                "Já existe uma cobrança com este txid; uma cobrança existente não pode ser "
                "associada a um lote.",
                "cobv.txid",
                txid,
            ),
        )
    return None


def _replace_batch(
    ctx: QrContext, batch: dict[str, Any], body: dict[str, Any], items: list[dict[str, Any]]
) -> dict[str, Any]:
    requested = sorted(str(i.get("txid")) for i in items)
    if requested != sorted(str(m["txid"]) for m in batch["members"]):
        raise bad_request(
            "loteCobV",
            Violation(
                "Um lote existente só pode ser alterado com exatamente as mesmas cobranças da "
                "requisição original: não se pode agregar nem remover cobranças.",
                "loteCobV.cobsV",
            ),
        )
    return _apply_revisions(ctx, batch, body, items, replace=True)


def patch_batch(ctx: QrContext, batch_id: str, body: dict[str, Any]) -> dict[str, Any]:
    """PATCH /lotecobv/{id}: revise some existing members (no adding or removing)."""
    batch = ctx.store.get("lotecobv", batch_id)
    if batch is None:
        raise not_found("loteCobV")
    items = _check_batch_body(body, creating=False)
    known = {m["txid"] for m in batch["members"]}
    unknown = [
        Violation(
            f"A cobrança {i['txid']} não pertence ao lote: não se pode agregar cobranças.",
            f"loteCobV.cobsV[{n}].txid",
            i["txid"],
        )
        for n, i in enumerate(items)
        if i["txid"] not in known
    ]
    if unknown:
        raise bad_request("loteCobV", *unknown)
    return _apply_revisions(ctx, batch, body, items, replace=False)


def _apply_revisions(
    ctx: QrContext,
    batch: dict[str, Any],
    body: dict[str, Any],
    items: list[dict[str, Any]],
    *,
    replace: bool,
) -> dict[str, Any]:
    by_txid = {m["txid"]: m for m in batch["members"] if m.get("created")}
    negadas = {m["txid"]: m for m in batch["members"] if not m.get("created")}
    with ctx.store.transaction():
        if "descricao" in body:
            batch["descricao"] = body["descricao"]
        for item in items:
            txid = item["txid"]
            if txid in by_txid:
                _try_revise_member(ctx, batch["id"], item, by_txid[txid], replace=replace)
            elif txid in negadas:
                member = negadas[txid]
                request = item if replace else _merge(member.get("request") or {}, item)
                refusal = _member_refusal(ctx, txid, set())
                if refusal is None:
                    _try_create_member(ctx, batch["id"], request, member)
                else:
                    member["problema"] = _member_problem(refusal, batch["id"])
                    member["request"] = request
        ctx.store.put("lotecobv", batch["id"], batch, batch["criacao"])
        ctx.store.put("lotecobv_pending", batch["id"], {"id": batch["id"]}, batch["criacao"])
    return batch


def render_batch(ctx: QrContext, batch: dict[str, Any], *, detailed: bool) -> dict[str, Any]:
    """LoteCobVConsultado (``detailed``: with devedor and valor.original of each member).

    A member's status is NEGADA (not created, or its last revision was refused, until the next
    tick), CRIADA (accepted, until the next tick), then the status of its cobv (ATIVA...)."""
    members = []
    for member in batch["members"]:
        created = bool(member.get("created"))
        shown = created and not member.get("pending") and not member.get("refused")
        charge = ctx.store.get("cobv", member["txid"]) if created and (shown or detailed) else None
        if not created or member.get("refused"):
            status = "NEGADA"
        elif member.get("pending"):
            status = "CRIADA"
        else:
            status = str(charge["status"]) if charge else "NEGADA"
        item: dict[str, Any] = {
            "txid": member["txid"],
            "criacao": member["criacao"],
            "status": status,
            "problema": member.get("problema"),
        }
        if detailed and charge is not None:
            devedor = charge.get("devedor", {})
            item["devedor"] = {k: devedor[k] for k in ("cpf", "cnpj", "nome") if k in devedor}
            item["valor"] = {"original": charge["valor"]["original"]}
        members.append(item)
    return {
        "id": batch["id"],
        "descricao": batch.get("descricao"),
        "criacao": batch["criacao"],
        "cobsv": members,
    }


def activate_batches(ctx: QrContext) -> int:
    """Tick: members accepted (CRIADA) become visible with their charge's status (ATIVA)."""
    pending = ctx.store.all("lotecobv_pending")
    for ref in pending:
        with ctx.store.transaction():
            batch = ctx.store.get("lotecobv", ref["id"])
            if batch is not None:
                for member in batch["members"]:
                    member["pending"] = False
                    member["refused"] = False
                ctx.store.put("lotecobv", batch["id"], batch, batch["criacao"])
            ctx.store.delete("lotecobv_pending", ref["id"])
    return len(pending)
