"""Inputs for component props that people type: strings (secrets masked), integers, booleans, choices, JSON, lists.

Every field is a `PropField`: it is built from the prop and the value to
start from, `read()` gives the value to send (or `OMIT`) or raises
`ValueProblem`, and any edit posts `PropField.Edited` so the form can say at
once what is wrong beside the field. The rules themselves live in
`aftui/props.py`; the fields the service fills or shapes (timers, HTTP
endpoints, accounts, notes, alerts) are in `prop_special.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static, Switch

from ...api.models import ComponentProp
from ...props import (
    OMIT,
    ValueProblem,
    json_text,
    option_pairs,
    read_integer,
    read_json,
)
from ...text import visible
from .in_order_input import InOrderInput
from .json_editor import JsonEditor, JsonProblem, parse
from .safe_select import SafeSelect


class PropField(Vertical):
    """One prop's input; subclasses compose it and read it."""

    DEFAULT_CSS = """
    PropField { height: auto; }
    PropField Input { width: 1fr; background: $boost; }
    PropField Input:focus { background: $accent 25%; }
    PropField Select { width: 1fr; }
    PropField Switch { border: none; height: 1; padding: 0 1; }
    PropField Switch:focus { background: $accent 40%; }
    """

    class Edited(Message):
        """The value changed: the form checks it again."""

        def __init__(self, field: PropField) -> None:
            super().__init__()
            self.field = field

    def __init__(self, prop: ComponentProp, initial: Any = OMIT, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.prop = prop
        self.initial = initial

    def start(self) -> Any:
        """The value shown first: what is stored, else the prop's default."""
        if self.initial is not OMIT:
            return self.initial
        return self.prop.default

    def read(self) -> Any:
        raise NotImplementedError

    def _edited(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Edited(self))

    def on_input_changed(self, event: Input.Changed) -> None:
        self._edited(event)

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self._edited(event)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._edited(event)

    def on_json_editor_checked(self, event: JsonEditor.Checked) -> None:
        self._edited(event)


class TextField(PropField):
    """A string; a secret one is masked until ctrl+r shows it."""

    BINDINGS = [Binding("ctrl+r", "reveal", "Show/hide secret")]

    def compose(self) -> ComposeResult:
        start = self.start()
        value = "" if start is None else start if isinstance(start, str) else str(start)
        yield InOrderInput(value, placeholder=self._placeholder(), password=bool(self.prop.secret), compact=True)

    def _placeholder(self) -> str:
        if self.prop.secret:
            return "secret (ctrl+r shows it)"
        return "optional" if self.prop.optional else ""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return bool(self.prop.secret) if action == "reveal" else True

    def action_reveal(self) -> None:
        field = self.query_one(Input)
        field.password = not field.password

    def read(self) -> Any:
        text = self.query_one(Input).value
        return text if text.strip() else OMIT


class IntegerField(PropField):
    def compose(self) -> ComposeResult:
        start = self.start()
        value = str(start) if isinstance(start, int) and not isinstance(start, bool) else ""
        # No `restrict`: it dropped what did not fit without a word, and "10.50" became 1050. What is typed
        # stays, and the form says "must be a whole number" beside it.
        yield InOrderInput(value, placeholder=_range_words(self.prop) or "a whole number", compact=True)

    def read(self) -> Any:
        return read_integer(self.query_one(Input).value, self.prop)


def _range_words(prop: ComponentProp) -> str:
    if prop.min is not None and prop.max is not None:
        return f"{prop.min} to {prop.max}"
    if prop.min is not None:
        return f"at least {prop.min}"
    if prop.max is not None:
        return f"at most {prop.max}"
    return ""


class BooleanField(PropField):
    DEFAULT_CSS = """
    BooleanField > Horizontal { height: auto; }
    BooleanField .state { padding: 0 1; color: $text-muted; }
    """

    def compose(self) -> ComposeResult:
        value = bool(self.start())
        with Horizontal():
            yield Switch(value)
            yield Static(Text(_yes_no(value)), classes="state")

    def on_switch_changed(self, event: Switch.Changed) -> None:
        self.query_one(".state", Static).update(Text(_yes_no(event.value)))
        self._edited(event)

    def read(self) -> Any:
        return self.query_one(Switch).value


def _yes_no(value: bool) -> str:
    return "true" if value else "false"


class ChoiceField(PropField):
    """`options` (strings or {label, value}) as a Select; a stored value that is not an option stays choosable."""

    def compose(self) -> ComposeResult:
        pairs = option_pairs(self.prop.options)
        start = self.start()
        if start is not None and start is not OMIT and all(value != start for _, value in pairs):
            pairs.append((f"{start} (current, not an option)", start))
        options = [(Text(visible(label, 80)), index) for index, (label, _) in enumerate(pairs)]
        self.values = [value for _, value in pairs]
        chosen = next((i for i, value in enumerate(self.values) if value == start and start is not None), Select.NULL)
        yield SafeSelect(options, prompt="choose…", allow_blank=True, value=chosen, compact=True)

    def read(self) -> Any:
        chosen = self.query_one(Select).value
        return self.values[chosen] if isinstance(chosen, int) else OMIT


class JsonField(PropField):
    """`object` and `any` (and http_request): a JSON editor checked as you type."""

    DEFAULT_CSS = """
    JsonField JsonEditor { height: 6; }
    JsonField.item JsonEditor { height: 4; }
    """

    def __init__(
        self, prop: ComponentProp, initial: Any = OMIT, *, kind: str = "object", id: str | None = None
    ) -> None:
        super().__init__(prop, initial, id=id)
        self.kind = kind

    def compose(self) -> ComposeResult:
        yield PropJsonEditor(json_text(self.start()), kind=self.kind)

    def read(self) -> Any:
        return read_json(self.query_one(PropJsonEditor).text, self.kind)


class PropJsonEditor(JsonEditor):
    """The shared JSON editor as a prop's field: empty means "not given", an `any` prop takes plain text.

    Its status line says what will be sent; what is wrong is said once, on
    the row's error line (`read_json`'s words), not again here.
    """

    def __init__(self, text: str, *, kind: str = "object", id: str | None = None) -> None:
        super().__init__(text, id=id)
        self.kind = kind

    def check(self) -> None:
        stripped = self.text.strip()
        if not stripped:
            self._say(None, Text("empty: nothing is sent"))
            return
        try:
            parse(self.text)
        except JsonProblem as problem:
            if self.kind == "any" and stripped[0] not in "{[":
                self._say(None, Text("plain text: sent as a string"))
            else:
                self._say(problem, Text(""))
            return
        self._say(None, Text(f"JSON · {len(self.text.encode('utf-8')):,} bytes"))

    def _say(self, problem: JsonProblem | None, words: Text) -> None:
        self.problem = problem  # kept for go_to_problem; the row says it
        line = self.query_one(".check", Static)
        line.set_class(False, "bad")
        line.set_class(False, "good")
        line.update(words)
        self.post_message(self.Checked(self, problem))


class ListField(PropField):
    """`type[]`: one input per item; `+ Add` appends, `✕` removes; blank items are left out."""

    DEFAULT_CSS = """
    ListField > .item-row { height: auto; }
    ListField > .item-row > PropField { width: 1fr; }
    ListField > .item-row > Button { min-width: 5; width: 5; }
    ListField > .empty { color: $text-muted; height: 1; }
    """

    def __init__(
        self,
        prop: ComponentProp,
        initial: Any = OMIT,
        *,
        make_item: Callable[[ComponentProp, Any], PropField],
        id: str | None = None,
    ) -> None:
        super().__init__(prop, initial, id=id)
        self.make_item = make_item  # the field of one item (the form's field_for: this module knows no special kinds)
        self.item_prop = prop.model_copy(
            update={"type": prop.type.removesuffix("[]"), "default": None, "optional": True}
        )
        self._count = 0

    def compose(self) -> ComposeResult:
        start = self.start()
        items = start if isinstance(start, list) else []
        for value in items:
            yield self._item_row(value)
        yield Button(f"+ Add {self.item_prop.type}", classes="add", compact=True)

    def _item_row(self, value: Any) -> Horizontal:
        self._count += 1
        item = self.make_item(self.item_prop, value)
        item.add_class("item")
        return Horizontal(
            item, Button("✕", classes="remove", compact=True, tooltip="remove this item"), classes="item-row"
        )

    @on(Button.Pressed, ".add")
    async def _add(self, event: Button.Pressed) -> None:
        event.stop()
        row = self._item_row(OMIT)
        await self.mount(row, before=self.query_one(".add"))
        focusable = next((w for w in row.query("*") if w.can_focus), None)
        if focusable is not None:
            focusable.focus()
        self.post_message(self.Edited(self))

    @on(Button.Pressed, ".remove")
    async def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        row = event.button.parent
        if isinstance(row, Widget):
            await row.remove()
        self.query_one(".add").focus()
        self.post_message(self.Edited(self))

    def on_prop_field_edited(self, event: PropField.Edited) -> None:
        if event.field is not self:
            event.stop()
            self.post_message(self.Edited(self))

    def read(self) -> Any:
        values: list[Any] = []
        for number, item in enumerate(self.query(".item-row > PropField").results(PropField), start=1):
            try:
                value = item.read()
            except ValueProblem as problem:
                raise ValueProblem(f"item {number} {problem.message}") from None
            if value is not OMIT:
                values.append(value)
        return values if values else OMIT


_MARKS = re.compile(
    r"\*\*(?P<bold>[^*\n]+)\*\*|`(?P<code>[^`\n]+)`|\[(?P<label>[^\]\n]+)\]\((?P<url>[^)\s]+)\)|(?<![\w*])[*_](?P<em>[^*_\n]+)[*_](?![\w*])"
)


def markdown_text(source: str, limit: int = 1500) -> Text:
    """A prop description's markdown as plain styled text: bold, code, emphasis, and links as "label (url)".

    Nothing in it is markup or a live link, so a component's description can
    neither style the screen nor open anything.
    """
    source = visible(source.replace("\n", " "), limit)
    text = Text()
    at = 0
    for match in _MARKS.finditer(source):
        text.append(source[at : match.start()])
        if match.group("bold"):
            text.append(match.group("bold"), "bold")
        elif match.group("code"):
            text.append(match.group("code"), "cyan")
        elif match.group("label"):
            text.append(match.group("label"), "underline")
            text.append(f" ({match.group('url')})", "dim")
        else:
            text.append(match.group("em"), "italic")
        at = match.end()
    text.append(source[at:])
    return text
