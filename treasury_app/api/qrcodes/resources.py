"""What every endpoint method of the QR Codes client shares: a resource at a path, read or
written with a model, a list read page by page, and the signed payload served at a QR Code's
location. With it each method of :mod:`~treasury_app.api.qrcodes.cashin` and
:mod:`~treasury_app.api.qrcodes.automatico` is its signature, its path and its model."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import quote, urlsplit

from treasury_app.api.errors import ResponseFormatError
from treasury_app.api.modeling import ApiModel, parse_model
from treasury_app.api.pagination import iterate_pages
from treasury_app.api.qrcodes.jws import key_set_url, location_url, verified_payload
from treasury_app.domain.money import loads_json

if TYPE_CHECKING:
    from treasury_app.api.transport import ApiTransport

__all__ = ["Resources", "every_page", "paging", "range_params", "segment"]

M = TypeVar("M", bound=ApiModel)
P = TypeVar("P")
T = TypeVar("T")


def segment(value: str | int) -> str:
    """One path segment, percent-encoded: an id or a key (an e-mail, a phone) is data and can
    never change the path."""
    return quote(str(value), safe="")


def paging(pagina_atual: int | None, itens_por_pagina: int | None) -> dict[str, Any]:
    """The BCB paging parameters of one page of a list (``None`` ones are not sent)."""
    return {"paginacao.paginaAtual": pagina_atual, "paginacao.itensPorPagina": itens_por_pagina}


def range_params(
    inicio: datetime, fim: datetime, pagina_atual: int | None, itens_por_pagina: int | None
) -> dict[str, Any]:
    """A list's creation window followed by its paging parameters."""
    return {"inicio": inicio, "fim": fim, **paging(pagina_atual, itens_por_pagina)}


def every_page(
    list_page: Callable[..., Awaitable[P]],
    items: Callable[[P], Sequence[T]],
    /,
    **filters: Any,
) -> AsyncIterator[T]:
    """The ``items`` of ``list_page(**filters, pagina_atual=n)`` for n = 0, 1, ... (BCB counts
    pages from 0), each page fetched only when the iteration reaches it."""

    async def page(number: int) -> tuple[Sequence[T], int]:
        answer: Any = await list_page(**filters, pagina_atual=number)
        return items(answer), answer.parametros.paginacao.quantidade_de_paginas

    return iterate_pages(page, first_page=0)


class Resources:
    """Base of the QR Codes client's halves (a mixin: the client sets ``self._transport``).
    The methods never retry (the transport does, when repeating is safe) and raise the
    transport's typed errors; an answer that does not fit its model raises
    :class:`~treasury_app.api.errors.ResponseFormatError`."""

    _transport: ApiTransport

    async def _resource(
        self,
        model: type[M],
        method: str,
        path: str,
        *,
        json: ApiModel | None = None,
        params: Mapping[str, Any] | None = None,
    ) -> M:
        """``method path`` (with the body ``json`` and the query ``params``), its answer read
        as ``model``."""
        data = await self._transport.request_json(method, path, json=json, params=params)
        return parse_model(model, data)

    async def _written(
        self,
        model: type[M],
        method: str,
        path: str,
        body: ApiModel,
        read_back: Callable[[], Awaitable[M]],
    ) -> M:
        """A PUT or PATCH that BCB may answer without a body (202, 200): then the resource is
        read back with ``read_back``."""
        data = await self._transport.request_json(method, path, json=body)
        if data is None:
            return await read_back()
        return parse_model(model, data)

    async def _signed_payload(
        self, location: str, what: str, params: Mapping[str, Any] | None = None
    ) -> Any:
        """GET https://{location} (``host/qr/v2/...`` as BCB writes it; no token is sent): the
        JWS served there, its signature checked against the key set its header names on the
        location's own host (or ``<base_url>/jwks``), its payload read as JSON. ``what`` names
        the payload in the messages; ``params`` is the query."""
        url = location_url(location, f"A {what} location")
        response = await self._transport.request(
            "GET",
            url,
            params=params,
            headers={"accept": "application/jose"},
            authenticated=False,
        )
        jws = response.text.strip()
        parts = urlsplit(url)
        where = f"the {what} at {parts.hostname}{parts.path}"
        key_set = key_set_url(jws, url, self._transport.config.base_url, where)
        jwks = await self._transport.request_json("GET", key_set, authenticated=False)
        payload = verified_payload(jws, jwks, where, f"the key set at {key_set}")
        try:
            return loads_json(payload)
        except ValueError:
            raise ResponseFormatError(f"The {what} at {location} is not JSON.") from None
