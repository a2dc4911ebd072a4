"""Lazy page iteration shared by the list endpoints of both APIs."""

from __future__ import annotations

from collections.abc import Sequence

from treasury_app.api.pagination import iterate_pages


class Pages:
    def __init__(self, pages: list[list[int]]) -> None:
        self.pages = pages
        self.fetched: list[int] = []

    async def fetch(self, number: int) -> tuple[Sequence[int], int]:
        self.fetched.append(number)
        return self.pages[number - self.first], len(self.pages)

    first = 0


async def test_every_item_of_every_page_in_order_qr_codes_style() -> None:
    pages = Pages([[1, 2], [3, 4], [5]])
    items = [item async for item in iterate_pages(pages.fetch, first_page=0)]
    assert items == [1, 2, 3, 4, 5] and pages.fetched == [0, 1, 2]


async def test_accounts_pages_start_at_one() -> None:
    pages = Pages([[1], [2]])
    pages.first = 1
    items = [item async for item in iterate_pages(pages.fetch, first_page=1)]
    assert items == [1, 2] and pages.fetched == [1, 2]


async def test_pages_are_fetched_only_when_reached() -> None:
    pages = Pages([[1, 2], [3, 4], [5, 6]])
    seen = []
    async for item in iterate_pages(pages.fetch, first_page=0):
        seen.append(item)
        if item == 3:
            break
    assert seen == [1, 2, 3] and pages.fetched == [0, 1]


async def test_an_empty_page_ends_the_iteration_even_if_the_count_says_more() -> None:
    pages = Pages([[1], [], [3]])
    items = [item async for item in iterate_pages(pages.fetch, first_page=0)]
    assert items == [1] and pages.fetched == [0, 1]
