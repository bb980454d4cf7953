"""Text of phrases joined by " · " (what the keys do, a group's replay states), wrapped between phrases,
not inside one.

Rich wraps at any space: on 80 columns "space marks, R replays in bulk" came out as "space marks, R" and
"replays in bulk" on the next line, which reads as two other things. A phrase longer than the line is still
wrapped by words.
"""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

SEPARATOR = " · "


def phrase_lines(text: Text, width: int) -> Text:
    """`text` with a line break before each phrase that would not fit on the line it would end (the " ·" ends
    the line, so that it reads as going on). Its own line breaks stay."""
    if width <= 0 or (text.cell_len <= width and "\n" not in text.plain) or SEPARATOR not in text.plain:
        return text
    lines = Text("\n", end="").join(_phrase_line(line, width) for line in text.split("\n", allow_blank=True))
    lines.overflow = text.overflow  # "fold": a long id in a sample is broken, not cut
    return lines


def _phrase_line(text: Text, width: int) -> Text:
    plain = text.plain
    starts = [0]
    at = plain.find(SEPARATOR)
    while at >= 0:
        starts.append(at + len(SEPARATOR))
        at = plain.find(SEPARATOR, at + len(SEPARATOR))
    out = Text(style=text.style, end="")
    line_start = 0
    for index, start in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(plain)  # with its " ·", not the space
        if start > line_start and text[line_start:end].cell_len > width:
            out.append_text(text[line_start : start - 1])
            out.append("\n")
            line_start = start
    out.append_text(text[line_start:])
    return out


class Phrases(Widget):
    """Phrases joined by " · ", as tall as they need at its width; `update` to say something else. Its colour
    is its place's (a hint's is muted)."""

    DEFAULT_CSS = "Phrases { height: auto; }"

    def __init__(self, text: Text | str = "", *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.text = text if isinstance(text, Text) else Text(text)

    def update(self, text: Text | str) -> None:
        self.text = text if isinstance(text, Text) else Text(text)
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(phrase_lines(self.text, width).wrap(self.app.console, width)) if width > 0 else 0

    def render(self) -> Text:
        return phrase_lines(self.text, self.content_size.width)
