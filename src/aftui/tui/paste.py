"""Pasted text kept whole and in order, escape characters included.

Textual's terminal parser (8.2) collects a bracketed paste character by
character, but an ESC inside the paste starts an escape sequence whose
characters skip the paste buffer: they come out as key presses, typed at the
cursor, while the paste arrives later with only what came before the ESC.
`Evil\\x1b[31mRED...[b]markup[/b]` pasted into an input was stored as
`^[31mRED...[b]markup[/b]Evil`. A pasted log line or payload often holds
colour codes, so this matters.

`PasteParser` takes the paste out of the stream before Textual parses it:
everything between the start and end markers becomes one `Paste` event, in
its place among the keys. Everything else is Textual's own parsing.
`use_paste_parser()` puts it in the Linux driver (the one aftui runs on).
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual._xterm_parser import XTermParser
from textual.message import Message

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


class PasteParser(XTermParser):
    """An XTermParser that reads bracketed pastes itself, whatever characters they hold."""

    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._pasted: list[str] | None = None  # the paste being read, None outside one
        self._held = ""  # the start of what may be the end marker, cut by a read

    def feed(self, data: str) -> Iterable[Message]:
        if not data:
            if self._pasted is not None:  # the input ended inside a paste: what came is still a paste
                yield events.Paste(self._take(self._held))
            yield from super().feed(data)
            return
        data, self._held = self._held + data, ""
        while data:
            if self._pasted is None:
                start = data.find(PASTE_START)
                if start < 0:
                    yield from super().feed(data)
                    return
                if start:
                    yield from super().feed(data[:start])
                self._pasted, data = [], data[start + len(PASTE_START) :]
                continue
            end = data.find(PASTE_END)
            if end < 0:
                cut = _marker_start(data)
                self._pasted.append(data[:cut])
                self._held = data[cut:]
                return
            yield events.Paste(self._take(data[:end]))
            data = data[end + len(PASTE_END) :]

    def _take(self, last: str) -> str:
        pasted = self._pasted or []
        pasted.append(last)
        self._pasted = None
        return "".join(pasted).replace("\x00", "")  # as Textual does (textual#1661)


def _marker_start(data: str) -> int:
    """Where a trailing, incomplete end marker starts in `data` (its length if there is none)."""
    for size in range(min(len(PASTE_END) - 1, len(data)), 0, -1):
        if PASTE_END.startswith(data[-size:]):
            return len(data) - size
    return len(data)


def use_paste_parser() -> None:
    """Make the Linux driver read input with `PasteParser` (it builds its parser by this name)."""
    from textual.drivers import linux_driver

    vars(linux_driver)["XTermParser"] = PasteParser  # the module global its input thread builds
