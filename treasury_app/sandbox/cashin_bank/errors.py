"""The problems the Cash In endpoints answer, worded as the BCB examples word them, and the
request checker that raises them."""

from __future__ import annotations

from treasury_app.sandbox.problems import Problem, Violation
from treasury_app.sandbox.qr_checks import Checker

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
    "loc": ("PayloadLocationNaoEncontrado", "Location não encontrada.", "Location não encontrada."),
    "pix": ("PixNaoEncontrado", "Pix não encontrado.", "Pix não encontrado."),
    "devolucao": (
        "PixDevolucaoNaoEncontrada",
        "Devolução não encontrada.",
        "Devolução não encontrada.",
    ),
    "loteCobV": (
        "LoteCobVNaoEncontrado",
        "Lote de cobranças não encontrado.",
        "Lote de cobranças com vencimento não encontrado.",
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


def checker(prefix: str, resource: str | None = None) -> Checker:
    """A checker of fields ``prefix.*`` whose 400 is the BCB problem of ``resource`` (by default
    the prefix). Cash In repeats up to 200 characters of a refused value, as a literal."""
    type_name, title, detail = INVALID[resource or prefix]
    return Checker(prefix, type_name, title=title, detail=detail, shown_limit=200, literal=True)
