"""The two ends of a subscription and its channel on screen: as text, and as the fields that pick them.

An end is picked from what aftui can list (the workspace's sources, the
workflows it knows, the user's webhooks) or typed as an id: the picker is
an input for the id with a select beside it that fills the input. The rules
an end follows are in aftui/subscriptions.py.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Select, Static

from ...subscriptions import GLOBS, SPECIAL_CHANNELS, Candidates, end_kind, webhook_label
from ...text import visible
from ..safe import plain
from .in_order_input import InOrderInput
from .safe_select import SafeSelect

SHORT_KINDS = {"workflow": "wf", "source": "src", "webhook": "wh"}  # for narrow columns
CHANNEL_NOTES = {
    "": "the emitter's default channel",
    "$errors": "workflow errors: every occurrence, duplicates included",
    "$logs": "logs produced by sources",
}
CUSTOM = "\x00custom"  # the channel select's "a custom name" choice (no channel can be named this)


# --- as text ------------------------------------------------------------------------------------------------


def end_text(
    ident: str | None, names: dict[str, str], *, kind: bool = True, short: bool = False, limit: int = 60
) -> Text:
    """`source Order webhooks (dc_…)`; a glob reads `all workflows (p_*)`; an unnamed end shows its id.

    `short` writes the kind as `src`, `wf` or `wh`, leaving a narrow column to the name.
    """
    if not ident:
        return Text("—", style="dim")
    text = Text(no_wrap=True, overflow="ellipsis")
    if ident in GLOBS:
        text.append(GLOBS[ident], style="bold")
        text.append(f" ({ident})", style="dim")
        return text
    if kind:
        word = end_kind(ident)
        text.append((SHORT_KINDS.get(word, word) if short else word) + " ", style="dim")
    name = names.get(ident)
    if name:
        text.append(visible(name, limit))
        text.append(" (")
        text.append(visible(ident, 40), style="cyan")
        text.append(")")
    else:
        text.append(visible(ident, 40), style="cyan")
    return text


def channel_text(event_name: str | None) -> Text:
    if not event_name:
        return Text("default", style="dim")
    return plain(event_name, 40, "yellow" if event_name in ("$errors", "$logs") else "")


def channel_note(event_name: str | None) -> Text:
    name = event_name or ""
    text = Text.assemble(plain(name or "default", 80))
    text.append("  " + CHANNEL_NOTES.get(name, "a custom channel the emitter emits to"), style="dim")
    return text


def describe_end(ident: str, found: Candidates | None) -> Text:
    """`source Order webhooks`, `all workflows`, or the kind alone for an id aftui has not seen."""
    if ident in GLOBS:
        return Text(f"{GLOBS[ident]} of the workspace, new ones included")
    kind = end_kind(ident)
    name = found.name(ident) if found else None
    if name:
        return Text.assemble((kind + " ", "dim"), visible(name, 80))
    if kind == "?":
        return Text("")
    return Text.assemble((kind + " ", "dim"), ("not among those listed here; the service will check it", "dim italic"))


# --- as choices ---------------------------------------------------------------------------------------------


def channel_value(choice: object, custom: str) -> str:
    """The event_name to send: "" for the default channel; a custom "default" is the default channel too."""
    if choice != CUSTOM:
        return str(choice or "")
    name = custom.strip()
    return "" if name == "default" else name


def _option(kind: str, ident: str, name: str | None) -> tuple[Text, str]:
    """`source Order webhooks`: the id goes in the input beside, so a named end is shown by its name."""
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(kind + " ", style="dim")
    text.append(visible(name, 60) if name else visible(ident, 40), style="" if name else "cyan")
    return text, ident


def emitter_options(found: Candidates) -> list[tuple[Text, str]]:
    options = [(Text.assemble((GLOBS[g], "bold"), (f" ({g})", "dim")), g) for g in ("dc_*", "p_*")]
    options += [_option("source", i, n) for i, n in sorted(found.sources.items(), key=lambda kv: kv[1].casefold())]
    options += [_option("workflow", i, n) for i, n in sorted(found.workflows.items(), key=lambda kv: kv[1].casefold())]
    return options


def listener_options(found: Candidates) -> list[tuple[Text, str]]:
    options = [_option("workflow", i, n) for i, n in sorted(found.workflows.items(), key=lambda kv: kv[1].casefold())]
    options += [_option("source", i, n) for i, n in sorted(found.sources.items(), key=lambda kv: kv[1].casefold())]
    options += [_option("webhook", w.id, webhook_label(w)) for w in found.webhooks.values()]
    return options


class EndPicker(Vertical):
    """An id typed, or picked from the select beside it; the line below says what the id is."""

    DEFAULT_CSS = """
    EndPicker { height: auto; }
    EndPicker > Horizontal { height: auto; }
    EndPicker Input { width: 24; }
    EndPicker Select { width: 1fr; margin: 0 0 0 1; }
    EndPicker Select, EndPicker SelectOverlay { text-wrap: nowrap; text-overflow: ellipsis; }
    EndPicker > .what { height: auto; color: $text-muted; }
    """

    def __init__(
        self, *, role: str, value: str = "", placeholder: str = "", empty_hint: str = "", id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.role = role
        self._initial = value
        self._placeholder = placeholder
        self._empty_hint = empty_hint
        self.found: Candidates | None = None
        self._offered: set[str] = set()  # the select's values (Select has no public lookup)

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield InOrderInput(
                self._initial, placeholder=self._placeholder, compact=True, id=f"{self.id}-id" if self.id else None
            )
            yield SafeSelect[str](
                [], prompt="or pick… (loading)", compact=True, id=f"{self.id}-pick" if self.id else None
            )
        yield Static(classes="what")

    def on_mount(self) -> None:
        self._describe()

    @property
    def value(self) -> str:
        return self.query_one(Input).value.strip()

    @value.setter
    def value(self, ident: str) -> None:
        field = self.query_one(Input)
        field.value = ident
        field.cursor_position = len(ident)  # after a pick, what is typed next goes at the end, not into the id

    def offer(self, options: list[tuple[Text, str]], found: Candidates, prompt: str) -> None:
        """The choices are in: fill the select, keep what was typed."""
        self.found = found
        select = self.query_one(Select)
        select.set_options(options)
        select.prompt = prompt
        self._offered = {value for _, value in options}
        if self.value in self._offered:
            with select.prevent(Select.Changed):
                select.value = self.value
        self._describe()

    @on(Select.Changed)
    def _picked(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, str) and event.value != self.value:
            self.value = event.value  # focus stays on the select: tab goes on to the next field

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        select = self.query_one(Select)
        ident = event.value.strip()
        if select.value != ident:
            with select.prevent(Select.Changed):
                if ident in self._offered:
                    select.value = ident
                else:
                    select.clear()
        self._describe()
        self.post_message(self.Changed(self))  # typed or picked (a pick sets the field): one message for the form

    class Changed(Message):
        """The end is another one now."""

        def __init__(self, picker: EndPicker) -> None:
            super().__init__()
            self.picker = picker

        @property
        def control(self) -> EndPicker:
            return self.picker

    def _describe(self) -> None:
        ident = self.value
        what = describe_end(ident, self.found) if ident else Text(self._empty_hint)
        self.query_one(".what", Static).update(what)


class ChannelPicker(Vertical):
    """The default channel, `$errors`, `$logs`, or a custom name typed beside the select."""

    DEFAULT_CSS = """
    ChannelPicker { height: auto; }
    ChannelPicker > Horizontal { height: auto; }
    ChannelPicker Select { width: 1fr; }
    ChannelPicker Input { width: 1fr; margin: 0 0 0 1; }
    ChannelPicker > .what { height: auto; color: $text-muted; }
    """

    NOTES: ClassVar[dict[str, str]] = {
        "": "what the emitter emits without naming a channel",
        "$errors": "errors thrown by workflows and sources: every occurrence, duplicates included",
        "$logs": "logs produced by sources",
        CUSTOM: "a channel the emitter names when it emits",
    }

    def __init__(self, value: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = value

    def compose(self) -> ComposeResult:
        choice = self._initial if self._initial in ("", *SPECIAL_CHANNELS) else CUSTOM
        options = [("default channel", ""), ("$errors", "$errors"), ("$logs", "$logs"), ("a custom name…", CUSTOM)]
        with Horizontal():
            yield SafeSelect[str](options, allow_blank=False, value=choice, compact=True, id="channel-pick")
            name = InOrderInput(
                self._initial if choice == CUSTOM else "",
                placeholder="the channel's name",
                compact=True,
                id="channel-name",
            )
            name.display = choice == CUSTOM  # shown only for a custom name
            yield name
        yield Static(Text(self.NOTES[choice]), classes="what")

    @property
    def choice(self) -> str:
        value = self.query_one(Select).value
        return value if isinstance(value, str) else ""

    @property
    def value(self) -> str:
        return channel_value(self.choice, self.query_one(Input).value)

    @property
    def custom_name(self) -> str:
        return self.query_one(Input).value.strip()

    def problem_focus(self) -> Widget:
        """Where a problem of the channel is fixed: its name, when a custom one is chosen (what is typed then
        goes there, not to the select, which let it fall)."""
        return self.query_one(Input) if self.choice == CUSTOM else self.query_one(Select)

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        custom = event.value == CUSTOM
        name = self.query_one(Input)
        name.display = custom
        if custom:
            name.focus()
        self.query_one(".what", Static).update(Text(self.NOTES.get(self.choice, "")))
