"""Text of phrases joined by " · " (what the keys do, a group's replay states), wrapped between phrases,
not inside one.

Rich wraps at any space: on 80 columns "space marks, R replays in bulk" came out as "space marks, R" and
"replays in bulk" on the next line, which reads as two other things. A phrase longer than the line is still
wrapped by words.
"""

from __future__ import annotations

from rich.cells import cell_len
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
    """One line of `text` laid out: phrases whole while they fit; a phrase longer than a line by its words,
    its " ·" kept with its last word (Rich, left to it, had put a lone "·" on a line of its own)."""
    plain = text.plain
    breaks: list[int] = []  # where a line starts, after the first
    used = -1  # cells on the current line; -1: nothing on it yet
    for start, end in _units(plain):
        cells = cell_len(plain[start:end])
        if used >= 0 and used + 1 + cells > width:
            breaks.append(start)
            used = -1
        if used < 0:
            used = cells
            if cells > width and " " in plain[start:end]:  # too long alone: its words fill the line instead
                used = _words_into(plain, start, end, width, breaks)
        else:
            used += 1 + cells
    out = Text(style=text.style, end="")
    for begin, finish in zip([0, *breaks], [*(b - 1 for b in breaks), len(plain)], strict=True):
        if begin:
            out.append("\n")
        out.append_text(text[begin:finish])
    return out


def _units(plain: str) -> list[tuple[int, int]]:
    """Each phrase's (start, end), the end with its " ·" but not the space after it."""
    starts = [0]
    at = plain.find(SEPARATOR)
    while at >= 0:
        starts.append(at + len(SEPARATOR))
        at = plain.find(SEPARATOR, at + len(SEPARATOR))
    return [(start, starts[i + 1] - 1 if i + 1 < len(starts) else len(plain)) for i, start in enumerate(starts)]


def _words_into(plain: str, start: int, end: int, width: int, breaks: list[int]) -> int:
    """Lay out plain[start:end] word by word (the last word with its " ·"), adding its line starts to
    `breaks`; the cells left on its last line."""
    used = -1
    at = start
    while at < end:
        space = plain.find(" ", at, end)
        word_end = end if space < 0 or plain[space:end] == " ·" else space
        cells = cell_len(plain[at:word_end])
        if used >= 0 and used + 1 + cells > width:
            breaks.append(at)
            used = cells
        else:
            used = cells if used < 0 else used + 1 + cells
        at = word_end + 1
    return used


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
