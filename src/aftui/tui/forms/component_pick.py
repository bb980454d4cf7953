"""Which component a source runs: a registry key (with a search), a saved component, pasted code or a URL.

`ComponentChooser` is the field; `load()` asks the service for the
component so the form can show its props. Pasted code and URLs are saved
as a component first (`POST /components`), because the service reads a
component's props only from its code; the source is then deployed from that
saved component, which is what `POST /sources` with the code would do too.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Select, Static, TextArea
from textual.widgets.option_list import Option

from ...api import ApiError, Client, NotFoundError
from ...api.models import Component
from ...text import visible
from ..host import session_of
from ..modals.form import Invalid
from ..widgets.in_order_input import InOrderInput
from ..widgets.safe_select import SafeSelect

MAX_CODE_BYTES = 1024 * 1024  # the service refuses component code over 1 MB

MODES: tuple[tuple[str, str], ...] = (
    ("registry", "Registry key"),
    ("saved", "Saved component (sc_ id or key)"),
    ("code", "Pasted code"),
    ("url", "URL of the code"),
)
PLACEHOLDERS = {
    "registry": "a public component's key: http-new-requests (ctrl+f searches)",
    "saved": "sc_… or the key of one of your components",
    "url": "https://…/component.mjs",
}


class ComponentChooser(Vertical):
    """The mode, then a key/id/URL input or a code editor; `keep` adds "the current component" (updates)."""

    def __init__(
        self, *, mode: str = "registry", value: str = "", keep: Component | None = None, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.keep = keep
        self._mode = mode
        self._value = value

    def compose(self) -> ComposeResult:
        modes = [(label, key) for key, label in MODES]
        if self.keep is not None:
            modes.insert(0, (f"Keep the current component ({self.keep.key or self.keep.id})", "keep"))
        yield SafeSelect(modes, allow_blank=False, value=self._mode, id="component-mode", compact=True)
        code = self._value if self._mode == "code" else ""
        yield InOrderInput(
            self._value if self._mode != "code" else "",
            placeholder=PLACEHOLDERS.get(self._mode, ""),
            id="component-ref",
            compact=True,
        )
        yield TextArea(code, soft_wrap=False, show_line_numbers=True, tab_behavior="indent", id="component-code")
        yield Static("", classes="loaded")
        with Horizontal():
            yield Button("Load props", id="load", compact=True)
            yield Button("Search the registry (ctrl+f)", id="search", compact=True)

    def on_mount(self) -> None:
        self._show_mode(self._mode)
        if self.keep is not None:
            self.say(loaded_line(self.keep))

    @property
    def mode(self) -> str:
        value = self.query_one("#component-mode", Select).value
        return value if isinstance(value, str) else "registry"

    @property
    def text(self) -> str:
        if self.mode == "code":
            return self.query_one("#component-code", TextArea).text
        return self.query_one("#component-ref", Input).value.strip()

    def choice(self) -> tuple[str, str]:
        """What is asked for now, to know whether the loaded component still matches it."""
        return self.mode, self.text

    def set_ref(self, value: str) -> None:
        self.query_one("#component-ref", Input).value = value

    @on(Select.Changed, "#component-mode")
    def _mode_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._show_mode(self.mode)

    def _show_mode(self, mode: str) -> None:
        for key in ("registry", "saved", "code", "url", "keep"):
            self.set_class(mode == key, f"-{key}")
        self.query_one("#component-ref", Input).placeholder = PLACEHOLDERS.get(mode, "")

    def say(self, text: Text | str) -> None:
        self.query_one(".loaded", Static).update(text if isinstance(text, Text) else Text(text))

    async def load(self, client: Client) -> tuple[Component, dict[str, Any]]:
        """The component, and how to name it to the service: `{component_id}` (plus `key` for a registry key)."""
        mode, text = self.choice()
        if mode == "keep" and self.keep is not None:
            return self.keep, {"component_id": self.keep.id}
        if not text.strip():
            raise Invalid({"component": "Give a key, an id, code or a URL (by the mode chosen above)."})
        if mode == "registry":
            component = await client.get_registry_component(quote(text, safe=""))
            return component, {"component_id": component.id, "key": text}
        if mode == "saved":
            component = await self._saved(client, text)
            return component, {"component_id": component.id}
        if mode == "code":
            if len(text.encode("utf-8", "surrogatepass")) > MAX_CODE_BYTES:
                raise Invalid({"component": "The code is over 1 MB, which the service does not take."})
            component = await client.create_component(code=text)
        else:
            component = await client.create_component(url=text)
        return component, {"component_id": component.id}

    async def _saved(self, client: Client, text: str) -> Component:
        try:
            return await client.get_component(quote(text, safe=""))
        except NotFoundError:
            raise Invalid(
                {"component": f"No component {visible(text, 80)} among yours (a public one? choose Registry key)."}
            ) from None


def loaded_line(component: Component) -> Text:
    """Under the chooser once loaded: what it is, and how many props it has."""
    count = len(component.configurable_props)
    kind = component.type or "source"
    return Text.assemble(
        ("✔ ", "green"),
        (visible(component.name or component.key or component.id, 60), "bold"),
        f" · {visible(component.key or '', 60)} {visible(component.id, 30)} v{visible(component.version or '?', 20)} · {kind} · {count} prop{'s' if count != 1 else ''}",
    )


class RegistryPicker(ModalScreen[str | None]):
    """Search the public registry in words and pick a source's key (enter), or esc."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("down", "to_results", "Results", show=False)]

    def __init__(self, query: str = "") -> None:
        super().__init__()
        self.first_query = query

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Search the registry for a source", style="bold"))
            yield InOrderInput(
                self.first_query, placeholder="in words: new github issue, every 15 minutes… (enter)", id="words"
            )
            yield Static(Text("Sources only: actions run as workflow steps.", style="dim"), classes="status")
            yield OptionList(id="keys")

    def on_mount(self) -> None:
        self.query_one("#words", Input).focus()  # the key typed so far selected: new words replace it
        if self.first_query:
            # Its results are shown, the keyboard stays in the words: moved to the list, what was typed
            # next went nowhere and enter picked the old key's result.
            self.search(self.first_query, to_results=False)

    @on(Input.Submitted, "#words")
    def _submitted(self, event: Input.Submitted) -> None:
        if event.value.strip():
            self.search(event.value.strip())

    def action_to_results(self) -> None:
        keys = self.query_one("#keys", OptionList)
        if keys.option_count and not keys.has_focus:
            keys.focus()

    @work(group="registry-search", exclusive=True, exit_on_error=False)
    async def search(self, words: str, *, to_results: bool = True) -> None:
        status = self.query_one(".status", Static)
        keys = self.query_one("#keys", OptionList)
        status.update(Text(f"searching for “{visible(words, 60)}”…", style="dim"))
        try:
            result = await session_of(self).client.search_components(words, limit=50)
        except ApiError as error:
            status.update(Text(f"Search failed: {visible(error.message, 300)}", style="red"))
            return
        keys.clear_options()
        keys.add_options([Option(Text(visible(key, 100)), id=key) for key in result.sources])
        found = len(result.sources)
        status.update(
            Text(
                f"{found} source{'s' if found != 1 else ''}: "
                + ("enter picks one" if to_results else "↓ goes to them (enter picks one there), or type other words")
                if found
                else "No source matches: try other words.",
                style="dim",
            )
        )
        if found:
            keys.highlighted = 0
            if to_results:
                keys.focus()

    @on(OptionList.OptionSelected, "#keys")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
