"""Models shared by the Cash In and Pix Automático halves of the QR Codes API (BCB Pix API)."""

from __future__ import annotations

from pydantic import Field

from treasury_app.api.modeling import ApiModel, UtcDatetime


class Paginacao(ApiModel):
    """Page position of a BCB list answer (``paginaAtual`` starts at 0)."""

    pagina_atual: int = 0
    itens_por_pagina: int = 100
    quantidade_de_paginas: int = 1
    quantidade_total_de_itens: int = 0


class Parametros(ApiModel):
    """The ``parametros`` echoed by every list endpoint: the range asked and the page."""

    inicio: UtcDatetime | None = None
    fim: UtcDatetime | None = None
    paginacao: Paginacao = Field(default_factory=Paginacao)


class Devedor(ApiModel):
    """A debtor: ``cpf`` or ``cnpj`` (not both) and ``nome``; cobv and cobr add an address."""

    cpf: str | None = None
    cnpj: str | None = None
    nome: str | None = None
    email: str | None = None
    logradouro: str | None = None
    cidade: str | None = None
    uf: str | None = None
    cep: str | None = None


class Violacao(ApiModel):
    """One entry of a problem's ``violacoes``."""

    razao: str | None = None
    propriedade: str | None = None
    valor: str | None = None
