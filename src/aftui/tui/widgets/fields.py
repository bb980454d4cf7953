"""A column of `label  value` lines for a detail screen."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..safe import plain


class Fields(Static):
    DEFAULT_CSS = """
    Fields { height: auto; padding: 0 1; }
    """

    def __init__(self, rows: Iterable[tuple[str, Any]] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_rows(rows)

    def set_rows(self, rows: Iterable[tuple[str, Any]]) -> None:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for label, value in rows:
            table.add_row(Text(label), value if isinstance(value, Text) else plain(value, 500))
        self.update(table)
