"""The health columns of the Workflows and Sources lists: errors in the last hour and day, the last error.

They read the App's health board (aftui.health) as each cell is drawn; the
panes ask their table to draw these cells again when the board has news
(`Pane.health_changed`). Before the board runs, the cells say nothing (`·`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.text import Text
from textual.dom import DOMNode

from ..health import HealthRow, age
from .host import host, session_of
from .widgets.paged_table import Column

T = TypeVar("T")

_NOTHING = Text("·", style="dim")


def health_row(node: DOMNode, subject_id: str) -> tuple[HealthRow | None, int]:
    """The health board's row of a source or workflow (None: not counted, or Health not started), and now in ms."""
    health = host(node).health
    now = int(session_of(node).now().timestamp() * 1000)
    return (health.board.row(subject_id, now) if health is not None else None), now


def health_columns(node: DOMNode, ident: Callable[[T], str]) -> list[Column[T]]:
    """The three columns, for rows whose subject id `ident` gives (a source's or workflow's id)."""

    def row_of(item: T) -> tuple[HealthRow | None, int]:
        return health_row(node, ident(item))

    def errors_1h(item: T) -> Text:
        row, _ = row_of(item)
        if row is None:
            return _NOTHING
        if not row.errors_1h:
            return Text("0", style="dim")
        return Text(str(row.errors_1h), style="green" if row.state == "fixed" else "bold red")

    def errors_24h(item: T) -> Text:
        row, _ = row_of(item)
        if row is None:
            return _NOTHING
        return Text(str(row.errors_24h), style="yellow" if row.errors_24h else "dim")

    def last_error(item: T) -> Text:
        row, now = row_of(item)
        if row is None or row.last_error_ms is None:
            return Text("—", style="dim") if row is not None else _NOTHING
        style = "red" if row.state == "failing" else "dim"
        return Text(f"{age(row.last_error_ms, now)} {row.last_error}", style=style, no_wrap=True, overflow="ellipsis")

    def count_1h(item: T) -> int:
        row, _ = row_of(item)
        return row.errors_1h if row is not None else -1

    def count_24h(item: T) -> int:
        row, _ = row_of(item)
        return row.errors_24h if row is not None else -1

    def last_ms(item: T) -> int:
        row, _ = row_of(item)
        return (row.last_error_ms or 0) if row is not None else -1

    return [
        Column("err1h", "✖1h", errors_1h, sort=count_1h, width=3),
        Column("err24h", "✖24h", errors_24h, sort=count_24h, width=4),
        # Why it fails is what the list is read for: the ID and how a row was found give way to it (read_whole).
        Column("lasterr", "Last error", last_error, sort=last_ms, width=24, min_width=12, read_whole=80),
    ]
