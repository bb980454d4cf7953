"""Walking cursor pages: all of a list, or a page at a time for a UI."""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from .models import Page


T = TypeVar("T")
Fetch = Callable[..., Awaitable["Page[T]"]]  # a string: Page[T] at import would build the generic model (~5 ms)


def next_cursor(cursor: object, got_items: bool, seen: set[str]) -> str | None:
    """The cursor to ask for the next page with, remembered in `seen`; None once the list has ended: a page
    without items or without a cursor, or a cursor handed back twice (which would loop us forever)."""
    if not got_items or not isinstance(cursor, str) or not cursor or cursor in seen:
        return None
    seen.add(cursor)
    return cursor


async def iterate(fetch: Fetch[T], /, *, page_size: int = 100, **params: Any) -> AsyncIterator[T]:
    """Every item of a paginated list: `async for app in iterate(client.list_apps, q="git")`."""
    pager = Pager(fetch, page_size=page_size, **params)
    while not pager.done:
        for item in await pager.load_more():
            yield item


class Pager(Generic[T]):
    """A list loaded page by page, as a table loads more when the cursor nears the end.

    It knows how many items it holds and, from `page_info.total_count`, how
    many there are ("N of total").
    """

    def __init__(self, fetch: Fetch[T], /, *, page_size: int = 100, **params: Any) -> None:
        self._fetch = fetch
        self._params = params
        self.page_size = page_size
        self.items: list[T] = []
        self.total: int | None = None
        self.done = False
        self._cursor: str | None = None
        self._seen_cursors: set[str] = set()

    async def load_more(self) -> list[T]:
        """The next page's items (empty once the list is exhausted)."""
        if self.done:
            return []
        params = {**self._params, "limit": self.page_size}
        if self._cursor:
            params["after"] = self._cursor
        page = await self._fetch(**params)
        self.items.extend(page.items)
        if page.total is not None:
            self.total = page.total
        cursor = next_cursor(page.page_info.end_cursor, bool(page.items), self._seen_cursors)
        if cursor is None:
            self.done = True
        else:
            self._cursor = cursor
        return page.items

    def kept(self) -> Pager[T]:
        """A copy of where it stands (its items, its place), for `restore` when a reload fails."""
        twin = copy.copy(self)
        twin.items, twin._seen_cursors = list(self.items), set(self._seen_cursors)
        return twin

    def restore(self, kept: Pager[T]) -> None:
        """Back to where `kept` stood: the items shown before a reload that failed, and the page after them."""
        self._params, self.items, self.total, self.done = kept._params, kept.items, kept.total, kept.done
        self._cursor, self._seen_cursors = kept._cursor, kept._seen_cursors

    def reset(self, **params: Any) -> None:
        """Start again from the first page with exactly these parameters (none: an unfiltered list)."""
        self._params = params
        self.items, self.total, self.done = [], None, False
        self._cursor = None
        self._seen_cursors.clear()
