"""Components: open one by key or id, search the registry in words, and a component's props and code.

The service has no list of components. The pane opens one by its key or
`sc_` id (`GET /components/{key or id}`, then the registry for a key it does
not know), and searches the public registry in natural language
(`GET /components/search`) with a similarity threshold the user steps with
`+` and `-`, optionally within one app.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from rich.syntax import Syntax
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static

from ...api import ApiError, NotFoundError
from ...api.models import Component, ComponentProp, ComponentSearch
from ...text import visible
from ..change import Guarded
from ..focus import focus_now
from ..safe import long_text, plain
from ..widgets.fields import Ago, Fields
from ..widgets.in_order_input import InOrderInput
from ..widgets.pane import Pane
from ..widgets.row_table import RowTable
from .detail import DetailScreen
from .sources import deploy_form

MAX_CODE = 200_000
THRESHOLD_STEP = 0.05
DEFAULT_THRESHOLD = 0.10
SEARCH_LIMIT = 50


def clamp(value: float) -> float:
    return round(min(1.0, max(0.0, value)), 2)


def search_scores(result: ComponentSearch) -> dict[str, float]:
    """The similarity of each key, when the service sends its debug block (`debug=true`)."""
    debug = (result.model_extra or {}).get("debug")
    scores = debug.get("scores") if isinstance(debug, dict) else None
    if not isinstance(scores, dict):
        return {}
    return {str(k): float(v) for k, v in scores.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}


class ComponentsPane(Guarded, Pane):
    """An Input to open by key or id; a search box, an app filter, a threshold; the results."""

    TITLE = "Components"
    CHANGES = frozenset({"deploy"})
    BINDINGS = [
        Binding("plus,equals_sign", "threshold(1)", "Stricter"),
        Binding("minus", "threshold(-1)", "Looser"),
        Binding("slash", "focus_search", "Search"),
        Binding("o", "focus_open", "Open by key"),
        Binding("d", "deploy", "Deploy source"),
        Binding("escape", "leave_field", "Leave the field", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.threshold = DEFAULT_THRESHOLD
        self.results: list[tuple[str, str]] = []  # (type, key) in the order shown
        self.scores: dict[str, float] = {}
        self.searched: str = ""

    def compose(self) -> ComposeResult:
        yield Static(Text("Components"), classes="pane-title")
        yield InOrderInput(placeholder="open by key or id: github-new-issue, sc_…  (enter)", id="open")
        with Horizontal(id="search-row"):
            yield InOrderInput(placeholder="search the registry in words  (enter)", id="query")
            yield InOrderInput(placeholder="app (optional)", id="search-app")
        yield Static(id="threshold", classes="line")
        yield Static(id="search-status", classes="line")
        table: DataTable[Text] = RowTable(id="results")
        table.add_column("#", key="rank", width=3)
        table.add_column("Type", key="type", width=6)
        table.add_column("Key", key="key", width=32)
        table.add_column("Similarity", key="score", width=10)
        yield table

    def on_mount(self) -> None:  # Pane's own on_mount (focus) runs as well
        self._show_threshold()
        self.query_one("#search-status", Static).update(
            Text("No search yet: type (or /) to search the registry, o opens one by key or id.", style="dim")
        )

    def focus_main(self) -> None:
        """The results, even none yet: a field focused on arrival took the next pane's digit, `?` and `q` as
        text, and kept the keyboard (`/` and `o` go to the fields, esc leaves them)."""
        self.query_one("#results", DataTable).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "leave_field":  # else esc is not ours
            return isinstance(self.screen.focused, Input) and self.screen.focused in self.query(Input)
        return super().check_action(action, parameters)

    def action_leave_field(self) -> None:
        self.query_one("#results", DataTable).focus()

    def on_key(self, event: events.Key) -> None:
        """A letter typed on the results that no key here takes starts a new search with it: a newcomer typed
        "slack" on arrival and nothing happened (`/` was the only way in). Digits stay the panes' keys."""
        letter = event.character or ""
        if not (event.is_printable and letter.isalpha()) or event.key in self.screen.active_bindings:
            return
        if self.screen.focused is not self.query_one("#results", DataTable):
            return
        event.stop()
        event.prevent_default()
        box = self.query_one("#query", Input)
        box.value = ""
        focus_now(box)
        # Typed in the field's own turn, after its focus (which selects what it holds) and before the letters
        # read behind it, which reach it only now. Read again through the App, it came after them: "lacks".
        box.call_later(box.insert_text_at_cursor, letter)

    # --- threshold -----------------------------------------------------------------------------------

    def _show_threshold(self) -> None:
        self.query_one("#threshold", Static).update(
            Text.assemble(
                ("similarity ≥ ", "bold"),
                (f"{self.threshold:.2f}", "bold cyan"),
                ("   + stricter, - looser (by 0.05)", "dim"),
            )
        )

    def action_threshold(self, step: int) -> None:
        new = clamp(self.threshold + step * THRESHOLD_STEP)
        if new == self.threshold:
            return
        self.threshold = new
        self._show_threshold()
        if self.searched:
            self.search(self.searched)

    def action_focus_search(self) -> None:
        focus_now(self.query_one("#query", Input))

    def action_focus_open(self) -> None:
        focus_now(self.query_one("#open", Input))

    # --- open by key or id ------------------------------------------------------------------------------

    @on(Input.Submitted, "#open")
    def _open(self, event: Input.Submitted) -> None:
        ident = event.value.strip()
        if ident:
            # The results, not the field, have the keys on the way back: the field kept them, and `o`, a pane's
            # digit or the next key were typed after the last one ("demo-call-urlostripe-new-payment").
            # `o` focuses the field again with its text selected, so the next key typed replaces it.
            self.query_one("#results", DataTable).focus()
            self.app.push_screen(ComponentScreen(ident, ("Components", ident)))

    # --- search -------------------------------------------------------------------------------------------

    @on(Input.Submitted, "#query, #search-app")
    def _submitted(self, event: Input.Submitted) -> None:
        query = self.query_one("#query", Input).value.strip()
        if query:
            self.search(query)
        else:
            self.query_one("#query", Input).focus()

    @work(group="component-search", exclusive=True, exit_on_error=False)
    async def search(self, query: str) -> None:
        self.searched = query
        app = self.query_one("#search-app", Input).value.strip() or None
        status = self.query_one("#search-status", Static)
        table = self.query_one("#results", DataTable)
        status.update(Text(f"searching for “{visible(query, 60)}”…", style="dim"))
        table.loading = True
        try:
            result = await self.client.search_components(
                query, app=app, similarity_threshold=self.threshold, debug=True, limit=SEARCH_LIMIT
            )
        except ApiError as error:
            table.loading = False
            table.clear()
            self.results = []
            status.update(
                Text.assemble(
                    ("Search failed: ", "bold red"),
                    (visible(error.message, 300), "red"),
                    ("   enter in the search box tries again", "dim"),
                )
            )
            return
        table.loading = False
        self.scores = search_scores(result)
        self.results = [("source", key) for key in result.sources] + [("action", key) for key in result.actions]
        table.clear()
        # Numbered down the list: per type, "1 source, 1 action" read as two firsts of one ranking.
        for n, (kind, key) in enumerate(self.results, 1):
            score = self.scores.get(key)
            table.add_row(
                Text(str(n), style="dim"),
                Text(kind, style="green" if kind == "source" else "yellow"),
                plain(key, 120, "cyan"),
                Text(f"{score:.3f}") if score is not None else Text("—", style="dim"),
                key=f"{kind}:{key}",
            )
        where = f" in {visible(app, 30)}" if app else ""
        summary = f"{_n(len(result.sources), 'source')}, {_n(len(result.actions), 'action')} for “{visible(query, 60)}”{where}"
        status.update(
            Text.assemble(summary, ("   enter opens" if self.results else "   lower the threshold with -", "dim"))
        )
        if self.results:
            table.move_cursor(row=0)
            table.focus()

    def action_deploy(self) -> None:
        """Deploy the highlighted result (a source), or open the deploy form empty."""
        table = self.query_one("#results", DataTable)
        row = table.cursor_row if self.results else -1
        kind, key = self.results[row] if 0 <= row < len(self.results) else ("", "")
        if kind == "action":
            self.notify(
                f"{key} is an action: actions run as workflow steps, not as sources.", severity="warning", markup=False
            )
            return
        deploy_form(self.app, ref=key)

    @on(DataTable.RowSelected, "#results")
    def _open_result(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.results):
            _kind, key = self.results[event.cursor_row]
            self.app.push_screen(ComponentScreen(key, ("Components", key), registry=True))


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


# --- one component ------------------------------------------------------------------------------------------


def _default(value: Any) -> Text:
    if value is None:
        return Text("—", style="dim")
    return plain(value if isinstance(value, str) else json.dumps(value, default=str), 40)


def _range(prop: ComponentProp) -> Text:
    if prop.min is None and prop.max is None:
        return Text("—", style="dim")
    return Text(f"{'' if prop.min is None else prop.min}…{'' if prop.max is None else prop.max}")


def props_table(props: list[ComponentProp]) -> DataTable[Text]:
    table: DataTable[Text] = RowTable(id="props")
    # What deploying needs first (the app an account is for, whether it must be set): at 80 columns the
    # App and Options columns were past the right edge. The label, longest and least needed, comes last.
    for key, label in (
        ("name", "Name"),
        ("type", "Type"),
        ("app", "App"),
        ("optional", "Optional"),
        ("default", "Default"),
        ("range", "Min/max"),
        ("options", "Options"),
        ("label", "Label"),
    ):
        table.add_column(label, key=key)
    for n, prop in enumerate(props):
        table.add_row(
            plain(prop.name, 40, "cyan"),
            plain(prop.type, 30),
            plain(prop.app, 30) if prop.app else Text("—", style="dim"),
            Text("yes") if prop.optional else Text("no", style="bold"),
            _default(prop.default),
            _range(prop),
            Text(str(len(prop.options))) if prop.options is not None else Text("—", style="dim"),
            plain(prop.label, 40) if prop.label else Text("—", style="dim"),
            key=f"{n}:{prop.name}",
        )
    return table


def code_view(code: str | None) -> Any:
    """The code, highlighted by Rich (no tree-sitter), every line made inert first."""
    if not code:
        return Text("The component's code is not available.", style="dim")
    cut = len(code) > MAX_CODE
    safe = "\n".join(visible(line.replace("\t", "    ")) for line in code[:MAX_CODE].split("\n"))
    if cut:
        safe += f"\n// … cut at {MAX_CODE:,} characters of {len(code):,}"
    return Syntax(safe, "javascript", line_numbers=True, word_wrap=False, theme="ansi_dark")


def _type_words(kind: str | None) -> Any:
    """An action's Type says why `d` is not offered: pressed, it did nothing and nothing said why."""
    if kind != "action":
        return kind
    return Text.assemble("action", (" · runs as a workflow step: not deployed as a source (no d here)", "dim"))


class ComponentScreen(Guarded, DetailScreen):
    """A component's fields, props and code; `d` deploys it as a source.

    `registry`: True reads `GET /components/registry/{key}`; otherwise
    `GET /components/{key or id}`, and a key it does not know is looked up in
    the registry after the 404.
    """

    CHANGES = frozenset({"deploy"})
    BINDINGS = [Binding("d", "deploy", "Deploy source")]
    CRUMB_IS_NAME = False  # its key, as opened: names repeat across apps

    def __init__(
        self, ident: str, crumbs: tuple[str, ...], *, record: Component | None = None, registry: bool | None = None
    ) -> None:
        super().__init__(ident, crumbs, record=record)
        self.registry = registry
        self.found_in = ""

    async def load(self) -> Component:
        client = self.session.client
        path = quote(self.ident, safe="")  # a typed key must not walk to another endpoint
        if self.registry:
            self.found_in = "public registry"
            return await client.get_registry_component(path)
        try:
            component = await client.get_component(path)
            self.found_in = "components (key or id)"
            return component
        except NotFoundError:
            if self.registry is False or self.ident.startswith("sc_"):
                raise
        component = await client.get_registry_component(path)
        self.found_in = "public registry"
        return component

    def tabs(self) -> list[tuple[str, Widget]]:
        component: Component = self.record
        props: Widget = (
            props_table(component.configurable_props)
            if component.configurable_props
            else Static(Text("This component has no configurable props.", style="dim"))
        )
        return [
            ("Overview", Fields(self._overview(component))),
            (f"Props ({len(component.configurable_props)})", props),
            ("Code", Static(code_view(component.code), classes="code", id="code")),
        ]

    def _overview(self, component: Component) -> list[tuple[str, Any]]:
        return [
            ("Name", component.name),
            ("Key", component.key),
            ("Version", component.version),
            ("Type", _type_words(component.type)),
            ("ID", component.id),
            ("Description", long_text(component.description, 2000) if component.description else None),
            ("Code", f"{len(component.code or ''):,} characters, hash {component.code_hash or '—'}"),
            ("URL", component.component_url),
            ("Created", Ago(component.created_at, self.session.now)),
            ("Updated", Ago(component.updated_at, self.session.now)),
            ("Found in", self.found_in or None),
        ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "deploy" and isinstance(self.record, Component) and self.record.type == "action":
            return False  # an action is no source: the footer offered `d` and the key then said so
        return super().check_action(action, parameters)

    def action_deploy(self) -> None:
        component = self.record
        if not isinstance(component, Component):
            return
        if component.type == "action":
            self.notify(
                "This component is an action: actions run as workflow steps, not as sources.",
                severity="warning",
                markup=False,
            )
            return
        registry = self.found_in == "public registry"
        deploy_form(
            self.app,
            mode="registry" if registry else "saved",
            ref=(component.key or component.id) if registry else component.id,
        )
