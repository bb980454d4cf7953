"""Untrusted strings as Rich `Text`: never markup, control characters visible, size capped.

Textual parses a plain `str` in many widgets (DataTable cells, Static,
notifications) as markup; a name like `[link=...]` or `[/]` would restyle the
screen or raise. Everything from the service goes through `plain()`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from rich.text import Text

from ..text import visible

CELL_LIMIT = 200
VALUE_LIMIT = 2000


def plain(value: Any, limit: int = CELL_LIMIT, style: str = "") -> Text:
    if value is None:
        return Text("—", style="dim")
    return Text(visible(value, limit), style=style, no_wrap=True, overflow="ellipsis")


def long_text(value: Any, limit: int = VALUE_LIMIT) -> Text:
    """A longer value, wrapped; line breaks kept, every other control made visible."""
    text = value if isinstance(value, str) else str(value)
    lines = text[: limit * 2].split("\n")
    shown = "\n".join(visible(line) for line in lines)
    return Text(shown[:limit] + ("…" if len(shown) > limit else ""))


def flag(value: bool | None, yes: str = "yes", no: str = "no") -> Text:
    if value is None:
        return Text("—", style="dim")
    return Text(yes, style="green") if value else Text(no, style="red")


def when(value: datetime | None, now: datetime | None = None) -> Text:
    """An absolute UTC time with how long ago: `2026-11-01 08:55 (5m ago)`."""
    if value is None:
        return Text("—", style="dim")
    stamp = value.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    if now is None:
        return Text(stamp)
    return Text.assemble(stamp, (f" ({ago(now - value)})", "dim"))


def day(value: datetime | None) -> Text:
    """The date alone, for list columns where width is short."""
    if value is None:
        return Text("—", style="dim")
    return Text(value.astimezone(UTC).strftime("%Y-%m-%d"))


def ago(delta: Any) -> str:
    seconds = int(delta.total_seconds())
    if seconds < 0:
        return "in the future"
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return f"{seconds}s ago"
