"""A JSON editor: a TextArea that checks the text as it is typed and says where it is wrong.

Highlighting needs tree-sitter, which aftui does not require: with it the
text is coloured as JSON, without it the editor is plain (and just as
strict). The status line under the text says "valid JSON" or the parser's
message with the line and column; `value()` gives the parsed document or
raises `JsonProblem`, so nothing invalid is ever handed on.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Static, TextArea

from ..focus import run_bound_key

MAX_EDIT_BYTES = 4 * 1024 * 1024  # the editor takes documents up to this size; bigger ones are exported instead
CHECK_AT_ONCE_BYTES = 64 * 1024  # larger texts are checked after a pause in typing, not on every key
CHECK_DEBOUNCE_S = 0.3
HIGHLIGHTING = importlib.util.find_spec("tree_sitter") is not None


@dataclass(frozen=True)
class JsonProblem(Exception):
    """Where the text stops being JSON: 1-based line and column, and the parser's words."""

    message: str
    line: int
    column: int

    def __str__(self) -> str:
        return f"line {self.line}, column {self.column}: {self.message}"


def parse(text: str) -> Any:
    """The document in `text`, or `JsonProblem`."""
    if not text.strip():
        raise JsonProblem("the text is empty (write null for no payload)", 1, 1)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonProblem(exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:
        raise JsonProblem("nested too deep", 1, 1) from None


class InOrderTextArea(TextArea):
    """A TextArea that acts on its bound keys (arrows, home, end, backspace) as it reads them.

    Textual types a letter where the key is read but runs a binding once the key has bubbled up to the App,
    messages later: letters read in the same burst overtook it. Over SSH, or from `e` and a fix typed at
    once, "down, end, text" typed the text before the cursor moved, at the start of the document."""

    async def _on_key(self, event: events.Key) -> None:
        if not self.read_only:
            await run_bound_key(self, event)
        # Anything else: Textual goes on to TextArea's own `_on_key` (each class's handler runs, base last).


class JsonEditor(Vertical):
    """`JsonEditor(text)`; posts `JsonEditor.Checked` after each check."""

    KEYS_AREA = "The JSON editor"  # its heading in `?`

    DEFAULT_CSS = """
    JsonEditor { height: 1fr; }
    JsonEditor > TextArea { height: 1fr; }
    JsonEditor > .check { height: 1; padding: 0 1; }
    JsonEditor > .check.bad { color: $error; }
    JsonEditor > .check.good { color: $success; }
    """

    class Checked(Message):
        def __init__(self, editor: JsonEditor, problem: JsonProblem | None) -> None:
            super().__init__()
            self.editor = editor
            self.problem = problem

        @property
        def control(self) -> JsonEditor:
            return self.editor

    def __init__(self, text: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = text
        self.problem: JsonProblem | None = None
        self._debounce: Timer | None = None

    def compose(self) -> ComposeResult:
        area = InOrderTextArea(
            self._initial,
            language="json" if HIGHLIGHTING else None,
            soft_wrap=False,
            tab_behavior="focus",  # esc then means "back", as everywhere; indent with spaces
            show_line_numbers=True,
        )
        area.indent_width = 2
        yield area
        yield Static(classes="check")

    def on_mount(self) -> None:
        self.check()

    @property
    def area(self) -> TextArea:
        return self.query_one(TextArea)

    @property
    def text(self) -> str:
        return self.area.text

    @text.setter
    def text(self, value: str) -> None:
        self.area.load_text(value)
        self.check()

    def value(self) -> Any:
        """The parsed document (checked now, not from the last check), or `JsonProblem`."""
        try:
            document = parse(self.text)
        except JsonProblem as problem:
            self._show(problem)
            raise
        self._show(None)
        return document

    def go_to_problem(self) -> None:
        """Put the cursor where the parser stopped."""
        if self.problem is not None:
            self.area.cursor_location = (self.problem.line - 1, max(0, self.problem.column - 1))
            self.area.focus()

    @on(TextArea.Changed)
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        if self._debounce is not None:
            self._debounce.stop()
        if len(self.text) <= CHECK_AT_ONCE_BYTES:
            self.check()
        else:
            self._debounce = self.set_timer(CHECK_DEBOUNCE_S, self.check)

    def check(self) -> None:
        try:
            parse(self.text)
        except JsonProblem as problem:
            self._show(problem)
            return
        self._show(None)

    def _show(self, problem: JsonProblem | None) -> None:
        self.problem = problem
        line = self.query_one(".check", Static)
        line.set_class(problem is not None, "bad")
        line.set_class(problem is None, "good")
        if problem is None:
            line.update(Text(f"✔ valid JSON · {len(self.text.encode('utf-8')):,} bytes"))
        else:
            line.update(Text(f"✖ {problem}"))
        self.post_message(self.Checked(self, problem))
