"""One long value in full: a stack trace, a message, a payload's string, readable line by line.

Real newlines are lines; every other control character is shown as its
escape (text.py's `visible`), so a value from the service cannot move the
cursor or change colours. `w` wraps, `/` searches (`n`, `N` the next and
previous match), `c` copies the value as it is, `p` and `o` hand it to
`$PAGER` or `$EDITOR` with the app suspended (from a private temporary file,
removed after).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import tempfile
from bisect import bisect_right
from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, Static, TextArea
from textual.widgets.text_area import Selection

from ...files import write_private
from ...text import visible
from ..clipboard import copy_text
from ..focus import focus_now
from ..widgets.footer import KeyFooter
from ..widgets.in_order_input import InOrderInput
from ..widgets.json_view import dumps
from ..widgets.status import StatusHeader

VIEW_LIMIT = 2_000_000  # characters shown; copy and $PAGER get the value up to COPY_LIMIT
COPY_LIMIT = 8_000_000


def shown_text(value: str) -> str:
    """The value as the viewer shows it: a line per real line, each with its control characters made visible."""
    cut = len(value) > VIEW_LIMIT
    lines = [visible(line) for line in value[:VIEW_LIMIT].split("\n")]
    if cut:
        lines.append(f"… cut at {VIEW_LIMIT:,} of {len(value):,} characters (p shows all in $PAGER)")
    return "\n".join(lines)


def as_text(value: object) -> str:
    """What a value reads as: a string as it is, anything else as its JSON text."""
    return value if isinstance(value, str) else dumps(value)


# What a TextArea binds to change its text: nothing a viewer does, so neither its footer nor `?` offers them.
EDITING = frozenset(
    {
        "cut",
        "paste",
        "undo",
        "redo",
        "delete_left",
        "delete_right",
        "delete_line",
        "delete_word_left",
        "delete_word_right",
        "delete_to_start_of_line",
        "delete_to_end_of_line_or_delete_line",
    }
)


class ReadOnlyArea(TextArea):
    """A TextArea to read: `?` listed Cut, Paste, Undo and Delete line first, above the viewer's own keys."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (self.read_only and action in EDITING)


class ValueScreen(Screen[None]):
    """`ValueScreen(title, value)`: the value in full, with wrap, search, copy, $PAGER and $EDITOR."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("slash", "search", "Search"),
        Binding("n", "next_match(1)", "Next"),
        Binding("N", "next_match(-1)", "Previous", show=False),
        Binding("w", "wrap", "Wrap"),
        Binding("c", "copy", "Copy"),
        Binding("p", "pager", "$PAGER"),
        Binding("o", "editor", "$EDITOR"),
    ]

    def held(self) -> None:
        """A view: a pane key may close it (`AftuiApp.go_to_pane`)."""
        return None

    def __init__(self, title: str, value: object) -> None:
        super().__init__()
        self.title_text = title
        self.value = as_text(value)
        self.shown = shown_text(self.value)
        self.query_text = ""
        self._starts = [0, *(m.end() for m in re.finditer("\n", self.shown))]  # where each line starts

    def compose(self) -> ComposeResult:
        yield StatusHeader()
        yield Static(Text(visible(self.title_text, 100)), classes="crumbs")
        box = InOrderInput(placeholder="search (enter finds, esc closes)", id="value-query")
        box.display = False  # shown by `/`, set here and there rather than by a class: focus follows at once
        yield box
        area = ReadOnlyArea(self.shown, read_only=True, soft_wrap=True, show_line_numbers=True, id="value-text")
        area.cursor_blink = False
        yield area
        yield Static(id="value-status")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one(StatusHeader).sync()
        self.area.focus()
        self._say()

    @property
    def area(self) -> TextArea:
        return self.query_one("#value-text", TextArea)

    def _say(self, extra: str = "") -> None:
        lines = self.shown.count("\n") + 1
        wrap = "wrapped" if self.area.soft_wrap else "not wrapped"
        head = f"{len(self.value):,} characters, {lines:,} lines, {wrap}"
        self.query_one("#value-status", Static).update(Text(head + (f" · {extra}" if extra else "")))

    def action_back(self) -> None:
        if self.query_one("#value-query", Input).display:
            self._close_search()
            return
        self.dismiss()

    def action_wrap(self) -> None:
        self.area.soft_wrap = not self.area.soft_wrap
        self._say()

    # --- search ------------------------------------------------------------------------------------

    def action_search(self) -> None:
        box = self.query_one("#value-query", Input)
        box.display = True
        box.value = self.query_text
        focus_now(box)

    def _close_search(self) -> None:
        self.query_one("#value-query", Input).display = False
        self.area.focus()

    @on(Input.Submitted, "#value-query")
    def _searched(self, event: Input.Submitted) -> None:
        self.query_text = event.value
        self._close_search()
        self.action_next_match(1)

    def matches(self) -> list[int]:
        """Offsets in the shown text of every match of the search, case-insensitive."""
        needle = self.query_text.casefold()
        if not needle:
            return []
        haystack = self.shown.casefold()
        found, start = [], haystack.find(needle)
        while start >= 0:
            found.append(start)
            start = haystack.find(needle, start + 1)
        return found

    def action_next_match(self, step: int) -> None:
        if not self.query_text:
            self.action_search()
            return
        found = self.matches()
        if not found:
            self._say(f"no match for “{visible(self.query_text, 40)}”")
            return
        area = self.area
        row, column = area.selection.start
        here = (self._starts[row] if row < len(self._starts) else len(self.shown)) + column
        if step > 0:
            index = next((i for i, at in enumerate(found) if at > here), 0)
        else:
            index = next((i for i in range(len(found) - 1, -1, -1) if found[i] < here), len(found) - 1)
        at = found[index]
        area.selection = Selection(self._location(at), self._location(at + len(self.query_text)))
        area.scroll_cursor_visible(center=True)
        self._say(f"match {index + 1} of {len(found)} for “{visible(self.query_text, 40)}”")

    def _location(self, offset: int) -> tuple[int, int]:
        """The (row, column) of an offset in the shown text."""
        row = bisect_right(self._starts, offset) - 1
        return row, offset - self._starts[row]

    # --- copy, pager, editor ------------------------------------------------------------------------

    def action_copy(self) -> None:
        text = self.value[:COPY_LIMIT]
        copy_text(self, text, "the value")

    def action_pager(self) -> None:
        self._hand_to(os.environ.get("PAGER") or "less", "$PAGER")

    def action_editor(self) -> None:
        self._hand_to(os.environ.get("VISUAL") or os.environ.get("EDITOR") or "vi", "$EDITOR")

    def _hand_to(self, command: str, what: str) -> None:
        """Run `command FILE` on the value with the app suspended; what the program changes is not read back."""
        try:
            argv = shlex.split(command)
        except ValueError:
            argv = []
        if not argv or shutil.which(argv[0]) is None:
            self.notify(
                f"{what} is “{visible(command, 60)}”, which is not a command here.", severity="error", markup=False
            )
            return
        folder = Path(tempfile.mkdtemp(prefix="aftui-value-"))  # 0700: the value may be personal data
        path = folder / "value.txt"
        try:
            write_private(path, self.value[:COPY_LIMIT])
            try:
                with self.app.suspend():
                    subprocess.run([*argv, str(path)], check=False)
            except SuspendNotSupported:
                self.notify(f"This terminal cannot hand over to {what}.", severity="warning", markup=False)
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        self.refresh()
