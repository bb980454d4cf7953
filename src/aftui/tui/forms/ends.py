"""The two ends of a subscription and its channel: the rules they follow, and the fields that pick them.

The rules are the spec's (service-api.md, Subscriptions): an emitter is a
source (`dc_`) or a workflow (`p_`), or the glob `p_*` / `dc_*` for all of
them; a listener is a workflow, a source or a webhook (`wh_`); a channel is
the default one (no `event_name`), a custom name, `$errors` or `$logs`.
They are checked here before anything is sent, so a typo is caught beside
the field instead of coming back as a 400.

An end is picked from what aftui can list (the workspace's sources, the
workflows it knows, the user's webhooks) or typed as an id: the picker is
an input for the id with a select beside it that fills the input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Select, Static

from ...api import ApiError
from ...api.models import Webhook
from ...api.paging import iterate
from ...text import visible
from ..screens.subscriptions import GLOBS, end_kind, known_workflow_names
from ..screens.webhooks import webhook_org
from ..widgets.safe_select import SafeSelect

EMITTER_PREFIXES = ("dc_", "p_")
LISTENER_PREFIXES = ("p_", "dc_", "wh_")
SPECIAL_CHANNELS = ("$errors", "$logs")
CUSTOM = "\x00custom"  # the channel select's "a custom name" choice (no channel can be named this)
ID = re.compile(r"^(dc|p|wh)_[A-Za-z0-9]+$")
MAX_CHANNEL = 200
MAX_CHOICES = 500  # sources offered in a picker; more than that are typed as ids

# What other prefixes are, so the message says why they cannot be an end.
OTHER_KINDS = {
    "sub_": "a subscription",
    "tch_": "a workflow template (create a workflow from it first)",
    "sc_": "a saved component (deploy it as a source first)",
    "hi_": "an HTTP trigger (use its workflow, p_…)",
    "ti_": "a timer trigger (use its workflow, p_…)",
    "ei_": "an email trigger (use its workflow, p_…)",
    "apn_": "a connected account",
    "app_": "an app",
    "o_": "a workspace",
    "u_": "a user",
    "proj_": "a Connect project",
}


def _what(ident: str) -> str | None:
    return next((kind for prefix, kind in OTHER_KINDS.items() if ident.startswith(prefix)), None)


def emitter_problem(ident: str) -> str | None:
    """None when `ident` can emit: a source, a workflow, or one of the globs."""
    if not ident:
        return "An emitter is required: a source (dc_…), a workflow (p_…), or p_* / dc_* for all of them."
    if ident in GLOBS:
        return None
    if ident.startswith("wh_"):
        return "A webhook only receives events: it can be a listener, not an emitter."
    if ident.endswith("*"):
        return "The only globs are p_* (all workflows) and dc_* (all sources)."
    other = _what(ident)
    if other:
        return f"{visible(ident, 40)} is {other}; an emitter is a source (dc_…) or a workflow (p_…)."
    if not ident.startswith(EMITTER_PREFIXES) or not ID.match(ident):
        return "An emitter id starts with dc_ (source) or p_ (workflow), followed by letters and digits."
    return None


def listener_problem(ident: str) -> str | None:
    """None when `ident` can listen: a workflow, a source or a webhook (never a glob)."""
    if not ident:
        return "A listener is required: a workflow (p_…), a source (dc_…) or a webhook (wh_…)."
    if ident in GLOBS or ident.endswith("*"):
        return "A glob can only be an emitter; the listener is one workflow, source or webhook."
    other = _what(ident)
    if other:
        return f"{visible(ident, 40)} is {other}; a listener is a workflow (p_…), a source (dc_…) or a webhook (wh_…)."
    if not ident.startswith(LISTENER_PREFIXES) or not ID.match(ident):
        return "A listener id starts with p_ (workflow), dc_ (source) or wh_ (webhook), followed by letters and digits."
    return None


def channel_problem(channel: str) -> str | None:
    """A custom channel name: printable, no spaces, not too long. The empty name is the default channel."""
    if any(c.isspace() or not c.isprintable() for c in channel):
        return "A channel name has no spaces or control characters."
    if len(channel) > MAX_CHANNEL:
        return f"A channel name has at most {MAX_CHANNEL} characters."
    return None


def pair_problems(emitter: str, listener: str, channel: str) -> dict[str, str]:
    """Checks of the ends together, once each is valid on its own."""
    problems: dict[str, str] = {}
    if emitter and emitter == listener:
        problems["listener"] = "An emitter cannot listen to itself: its events would come straight back to it."
    if channel == "$logs" and (emitter.startswith("p_") or emitter == "p_*"):
        problems["channel"] = "$logs carries logs produced by sources; a workflow emits none. Pick a source (or dc_*)."
    return problems


def channel_value(choice: Any, custom: str) -> str:
    """The event_name to send: "" for the default channel; a custom "default" is the default channel too."""
    if choice != CUSTOM:
        return str(choice or "")
    name = custom.strip()
    return "" if name == "default" else name


def channel_words(event_name: str) -> str:
    return f"the {event_name} channel" if event_name else "the default channel"


# --- what can be picked ---------------------------------------------------------------------------------------


@dataclass
class Candidates:
    """What the workspace offers as ends, by id: (kind, name)."""

    sources: dict[str, str] = field(default_factory=dict)
    workflows: dict[str, str] = field(default_factory=dict)
    webhooks: dict[str, Webhook] = field(default_factory=dict)
    more_sources: bool = False  # the source list was cut at MAX_CHOICES
    problems: list[str] = field(default_factory=list)

    def name(self, ident: str) -> str | None:
        if ident in self.sources:
            return self.sources[ident]
        if ident in self.workflows:
            return self.workflows[ident]
        webhook = self.webhooks.get(ident)
        if webhook is not None:
            return webhook.name or webhook.url
        return None


async def load_candidates(session: Any, *, sources: bool = True, webhooks: bool = True) -> Candidates:
    """Known workflows, sources (the first MAX_CHOICES), and the user's webhooks (user API keys only)."""
    client = session.client
    found = Candidates(workflows=dict(known_workflow_names(session)))
    for wid in session.known.in_workspace(session.org_id) if session.org_id else {}:
        found.workflows.setdefault(wid, "")
    if sources:
        await _load_sources(client, found)
    if webhooks and client.uses_user_key:
        try:
            async for webhook in iterate(client.list_webhooks):
                if not client.org_id or webhook_org(webhook) in (None, client.org_id):
                    found.webhooks[webhook.id] = webhook
        except ApiError as error:
            found.problems.append(f"webhooks: {visible(error.message, 200)}")
    return found


async def _load_sources(client: Any, found: Candidates) -> None:
    fetch = (lambda **p: client.list_workspace_sources(client.org_id, **p)) if client.org_id else client.list_sources
    try:
        async for source in iterate(fetch):
            if len(found.sources) >= MAX_CHOICES:
                found.more_sources = True
                break
            found.sources[source.id] = source.name or ""
    except ApiError as error:
        found.problems.append(f"sources: {visible(error.message, 200)}")


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
    options += [_option("webhook", w.id, w.name or w.url) for w in found.webhooks.values()]
    return options


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
            yield Input(
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
        self.query_one(Input).value = ident

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
            name = Input(
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

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        event.stop()
        custom = event.value == CUSTOM
        name = self.query_one(Input)
        name.display = custom
        if custom:
            name.focus()
        self.query_one(".what", Static).update(Text(self.NOTES.get(self.choice, "")))
