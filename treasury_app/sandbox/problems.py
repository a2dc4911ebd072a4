"""RFC 7807 problem responses of both sandbox APIs (with BCB ``violacoes`` on 400, and a
``code`` with its ``params`` where the app's sandbox buttons need to say why in words).

The sandbox stands in for a Brazilian bank: every ``title``, ``detail`` and ``razao`` it
writes is Portuguese, as the BCB standard's are; never the code or the English of an error
of this app's domain (:func:`domain_detail`)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from treasury_app.domain.errors import DomainError

BCB_ERROR = "https://pix.bcb.gov.br/api/v2/error/"
ACCOUNTS_ERROR = "urn:sandbox-bank:accounts:error:"

TITLES = {
    400: "Requisição inválida",
    401: "Não autorizado",
    403: "Acesso negado",
    404: "Não encontrado",
    405: "Método não permitido",
    409: "Conflito",
    412: "Chave de idempotência já utilizada",
    415: "Tipo de conteúdo não suportado",
    422: "Regra de negócio violada",
    429: "Limite de requisições excedido",
    500: "Erro interno do servidor",
    503: "Serviço indisponível",
    504: "Tempo esgotado",
}
BCB_TYPES = {
    400: "RequisicaoInvalida",
    401: "NaoAutorizado",
    403: "AcessoNegado",
    404: "NaoEncontrado",
    405: "MetodoNaoPermitido",
    409: "Conflito",
    412: "IdempotenciaJaUtilizada",
    415: "RequisicaoInvalida",
    422: "OperacaoInvalida",
    429: "LimiteExcedido",
    500: "ErroInternoDoServidor",
    503: "ServicoIndisponivel",
    504: "IndisponibilidadePorTempoEsgotado",
}


# What a bank says of a value its rules refuse, by the domain rule's family (or, first, by
# the rule itself): the sandbox's own sentence, never the rule's code.
_DOMAIN_DETAILS = {
    "pix_key": "Chave Pix inválida para o tipo informado.",
    "document": "CPF ou CNPJ inválido.",
    "document.cpf_check_digits": "CPF inválido: os dígitos verificadores não conferem.",
    "document.cnpj_check_digits": "CNPJ inválido: os dígitos verificadores não conferem.",
    "brcode": "QR Code inválido: o conteúdo não é um BR Code Pix válido.",
    "brcode.crc_mismatch": "QR Code inválido: o CRC não confere (o código foi alterado).",
    "boleto": "Código de barras ou linha digitável inválida.",
    "boleto.general_check_digit": "Código de barras inválido: o dígito verificador não confere.",
    "boleto.block_check_digit": (
        "Linha digitável inválida: o dígito verificador de um bloco não confere."
    ),
}


def domain_detail(error: DomainError) -> str:
    """A refused value's ``detail`` in Portuguese, as a bank words it, for a rule of the
    app's domain the sandbox applies (``str()`` of the error is its code: never shown)."""
    code = error.code
    return (
        _DOMAIN_DETAILS.get(code) or _DOMAIN_DETAILS.get(code.split(".", 1)[0]) or "Valor inválido."
    )


@dataclass
class Violation:
    """One field-level reason of a 400, shaped like BCB's ``Violacao``."""

    razao: str
    propriedade: str
    valor: str | None = None

    def as_dict(self) -> dict[str, str]:
        item = {"razao": self.razao, "propriedade": self.propriedade}
        if self.valor is not None:
            item["valor"] = self.valor
        return item


@dataclass
class Problem(Exception):
    """Raised by handlers; the app turns it into an ``application/problem+json`` response."""

    status: int
    detail: str
    title: str | None = None
    type_name: str | None = None
    violacoes: list[Violation] = field(default_factory=list)
    headers: dict[str, str] = field(default_factory=dict)
    code: str | None = None
    """A stable code of what was refused (``rec.not_pending``) for the app to put in words;
    with it, ``params`` (codes of the bank, never sentences). The control surface's refusals
    carry one, written as the problem's ``code`` and ``params`` members."""
    params: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.status} {self.detail}"


def invalid(detail: str, *violations: Violation, type_name: str | None = None) -> Problem:
    """A 400 with its violations."""
    return Problem(400, detail, type_name=type_name, violacoes=list(violations))


def problem_body(problem: Problem, instance: str, api: str) -> dict[str, Any]:
    type_name = problem.type_name or BCB_TYPES.get(problem.status, "Erro")
    base = BCB_ERROR if api == "qrcodes" else ACCOUNTS_ERROR
    body: dict[str, Any] = {
        "type": base + type_name,
        "title": problem.title or TITLES.get(problem.status, "Erro"),
        "status": problem.status,
        "detail": problem.detail,
        "instance": instance,
    }
    if problem.status == 400 or problem.violacoes:
        body["violacoes"] = [v.as_dict() for v in problem.violacoes]
    if problem.code:
        body["code"] = problem.code
        body["params"] = dict(problem.params)
    return body


def problem_response(request: Request, problem: Problem, api: str) -> Response:
    body = problem_body(problem, request.url.path, api)
    return Response(
        json.dumps(body, ensure_ascii=False),
        status_code=problem.status,
        media_type="application/problem+json",
        headers=problem.headers,
    )
