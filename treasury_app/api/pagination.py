"""Lazy iteration over paged lists of both APIs.

QR Codes API lists carry ``parametros.paginacao`` (``paginaAtual`` from 0,
``quantidadeDePaginas``); Accounts API lists carry ``meta`` (``page`` from 1, ``totalPages``).
Either way the caller gives a coroutine that fetches one page and says how many pages there
are; pages are fetched only when the iteration reaches them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import TypeVar

T = TypeVar("T")

MAX_PAGES = 100_000  # a bank answering nonsense page counts must not loop forever


async def iterate_pages(
    fetch_page: Callable[[int], Awaitable[tuple[Sequence[T], int]]], *, first_page: int
) -> AsyncIterator[T]:
    """Yield every item of every page, fetching page ``first_page``, then the next, ...

    ``fetch_page(n)`` returns ``(items of page n, total number of pages)``. Iteration stops
    after the last page or at the first empty page.
    """
    page = first_page
    for _ in range(MAX_PAGES):
        items, total_pages = await fetch_page(page)
        for item in items:
            yield item
        page += 1
        if not items or page - first_page >= total_pages:
            return
