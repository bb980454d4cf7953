"""A column of `label  value` lines for a detail screen; times in it say how long ago as time passes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from ..safe import plain, when

TICK_S = 1.0  # how often the times are worked out again; a frame is painted only when one reads differently


@dataclass(frozen=True, slots=True)
class Ago:
    """A time shown with how long ago as of each drawing: `2026-11-01 08:55 (5m ago)`.

    Drawn once, a detail opened a minute after a change said "(1s ago)" for as long as it stayed open."""

    value: datetime | None
    now: Callable[[], datetime]

    def text(self) -> Text:
        return when(self.value, self.now())


class Fields(Static):
    DEFAULT_CSS = """
    Fields { height: auto; padding: 0 1; }
    """

    def __init__(self, rows: Iterable[tuple[str, Any]] = (), *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._rows: list[tuple[str, Any]] = []
        self._drawn: list[Text] | None = None  # the values last drawn (None: nothing yet)
        self.set_rows(rows)

    def on_mount(self) -> None:
        self.set_interval(TICK_S, self._tick)

    def set_rows(self, rows: Iterable[tuple[str, Any]]) -> None:
        self._rows = list(rows)
        self._draw()

    def _tick(self) -> None:
        if any(isinstance(value, Ago) for _, value in self._rows):
            self._draw()

    def _draw(self) -> None:
        cells = [_cell(value) for _, value in self._rows]
        if cells == self._drawn:
            return
        self._drawn = cells
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        for (label, _), cell in zip(self._rows, cells, strict=True):
            table.add_row(Text(label), cell)
        self.update(table)


def _cell(value: Any) -> Text:
    if isinstance(value, Ago):
        return value.text()
    return value if isinstance(value, Text) else plain(value, 500)
