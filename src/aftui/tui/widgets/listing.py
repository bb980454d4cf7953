"""A table under a line saying what it holds (and so what an empty one means)."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import ScrollableContainer

from .paged_table import PagedTable
from .phrases import Phrases


class Listing(ScrollableContainer, can_focus=False):
    """A hint above a table, as one tab: a scroller of its own, so the table is not put in a second one."""

    def __init__(self, hint: Text | str, table: PagedTable[Any]) -> None:
        super().__init__()
        self.hint = hint
        self.table = table

    def compose(self) -> ComposeResult:
        yield Phrases(self.hint, classes="hint")
        yield self.table
