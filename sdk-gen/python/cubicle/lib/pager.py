"""Lazy pagination over the API's ``{ data, nextCursor }`` lists."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Page(Generic[T]):
    """One page: its items, and the cursor of the next page (None on the last)."""

    items: list[T]
    next_cursor: str | None


class Pager(Generic[T]):
    """Iterating yields every item across pages, fetching the next page only when needed.

    Each iteration starts again from the first page; ``pages()`` yields whole pages.
    """

    def __init__(self, fetch: Callable[[str | None], Page[T]]) -> None:
        self._fetch = fetch

    def __iter__(self) -> Iterator[T]:
        for page in self.pages():
            yield from page.items

    def pages(self) -> Iterator[Page[T]]:
        cursor: str | None = None
        while True:
            page = self._fetch(cursor)
            yield page
            if not page.next_cursor:
                return
            cursor = page.next_cursor

    def to_list(self) -> list[T]:
        """Every item, all pages fetched."""
        return list(self)
