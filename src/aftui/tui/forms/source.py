"""Deploy a source, and update one: the component, a name, and the form of the component's props.

Both forms load the component first (enter or "Load props" in the chooser,
or ctrl+s, which loads and then sends when nothing is missing). Reloading
another component keeps what was typed for props of the same name. The
service names a bad prop `configured_props.<name>`, which is the row name
here, so its message lands beside the prop.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Button, Input, Static

from ...api import ApiError
from ...api.models import Component, Source
from ...text import visible
from ..change import describe_error, said_by
from ..modals.form import FormRow, Invalid
from ..widgets.in_order_input import InOrderInput
from .component_pick import ComponentChooser, RegistryPicker, loaded_line
from .props import PropsFormScreen, PropsSection

PREFIX = "configured_props."


class SourceForm(PropsFormScreen[Source]):
    """What deploying and updating share: the chooser, the name, the props section and how it is loaded."""

    BINDINGS = [Binding("ctrl+f", "search_registry", "Search registry")]
    PARAMS = {
        "component_id": "component",
        "component_code": "component",
        "component_url": "component",
        "key": "component",
    }
    REFRESH = ("sources",)

    def __init__(self) -> None:
        super().__init__()
        self.component: Component | None = None
        self.how: dict[str, Any] = {}  # how the service is told the component: component_id (and key)
        self.loaded_for: tuple[str, str] | None = None  # the chooser's (mode, text) the component was loaded for

    @property
    def chooser(self) -> ComponentChooser:
        return self.query_one(ComponentChooser)

    def props_area(self) -> ComposeResult:
        with Vertical(id="props-area"):
            yield Static(Text("Load the component (enter, or Load props) to see its props."), classes="waiting")

    def stored_props(self) -> dict[str, Any]:
        """The values a fresh props section starts from (an update: the source's)."""
        return {}

    def endpoint(self) -> str | None:
        return None

    # --- loading -------------------------------------------------------------------------------------

    @on(Button.Pressed, "#load")
    @on(Input.Submitted, "#component-ref")
    def _load_pressed(self, event: Any) -> None:
        event.stop()
        self._load_now()

    @work(group="load-component", exclusive=True, exit_on_error=False)
    async def _load_now(self) -> None:
        try:
            await self.load_component()
        except Invalid as invalid:
            self.show_problems(invalid.problems, by=invalid.by)
        except ApiError as error:
            self.show_problems({error.param or "component": describe_error(error)}, by=said_by(error))
        else:
            self.rows()["component"].show_error(None)  # only its own: what the props say may already be showing

    async def load_component(self) -> Component:
        """Ask the service for the chosen component and show its props (what was typed is carried over)."""
        chooser = self.chooser
        chooser.say(Text("loading…", style="dim"))
        try:
            component, how = await chooser.load(self.session.client)
        except Exception:
            chooser.say("")
            raise
        carried = self._typed_values()
        self.component, self.how, self.loaded_for = component, how, chooser.choice()
        chooser.say(loaded_line(component))
        if component.type == "action":
            raise Invalid({"component": "This component is an action: actions run as workflow steps, not as sources."})
        await self._show_props(component, {**self.stored_props(), **carried})
        return component

    def _typed_values(self) -> dict[str, Any]:
        sections = self.sections()
        if not sections:
            return {}
        try:
            return sections[0].collect()
        except Invalid:
            return {}  # half-typed values are not carried over; the new form starts from the stored ones

    async def _show_props(self, component: Component, stored: dict[str, Any]) -> None:
        area = self.query_one("#props-area")
        await area.remove_children()
        title = f"Props of {component.name or component.key or component.id}"
        section = PropsSection(
            component.configurable_props, stored, prefix=PREFIX, title=title, endpoint=self.endpoint()
        )
        await area.mount(section)
        if self.focused is None or self.chooser in self.focused.ancestors_with_self:
            first = next((w for w in section.query("*") if w.focusable), None)
            if first is not None:
                first.focus()  # on to the props: the component is chosen

    async def ready_props(self) -> dict[str, Any]:
        """The component loaded for what the chooser says now (loading it if not), and its configured_props."""
        if self.component is None or self.loaded_for != self.chooser.choice():
            try:
                await self.load_component()
            except ApiError as error:  # the component could not be read or saved: said beside it
                raise Invalid(
                    {self.row_for(error.param) if error.param else "component": describe_error(error)},
                    by=said_by(error),
                ) from None
        if self.component is not None and self.component.type == "action":
            raise Invalid({"component": "This component is an action: actions run as workflow steps, not as sources."})
        return self.sections()[0].collect()

    def action_search_registry(self) -> None:
        def picked(key: str | None) -> None:
            if key:
                self.chooser.set_ref(key)
                self._load_now()

        self.app.push_screen(RegistryPicker(self.chooser.text if self.chooser.mode == "registry" else ""), picked)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "search_registry":
            return self.is_mounted and bool(self.query(ComponentChooser)) and self.chooser.mode == "registry"
        return super().check_action(action, parameters)

    def on_select_changed(self) -> None:
        self.refresh_bindings()  # ctrl+f is offered only in registry mode


class DeploySourceForm(SourceForm):
    """POST /sources: a component (registry key, saved id, code, URL), a name, its props."""

    TITLE_TEXT = "Deploy a source"
    SUBMIT_LABEL = "Deploy"

    def __init__(self, *, mode: str = "registry", ref: str = "") -> None:
        super().__init__()
        self.start_mode, self.start_ref = mode, ref

    def note(self) -> str:
        return "Pasted code and URLs are saved as a component (POST /components) to read their props, then deployed from it."

    def fields(self) -> ComposeResult:
        yield FormRow("Component", ComponentChooser(mode=self.start_mode, value=self.start_ref), name="component")
        yield FormRow(
            "Name",
            InOrderInput(placeholder="optional: the component's name slug by default", id="name", compact=True),
            name="name",
        )
        yield from self.props_area()

    def on_mount(self) -> None:
        if self.start_ref:
            self._load_now()
        else:
            self.query_one("#component-ref", Input).focus()

    async def submit(self) -> Source:
        props = await self.ready_props()
        name = self.query_one("#name", Input).value.strip() or None
        return await self.session.client.deploy_source(**self.how, name=name, configured_props=props)

    def done(self, result: Source) -> str:
        return f"Deployed source {result.name or result.id} ({result.id})"


class UpdateSourceForm(SourceForm):
    """PUT /sources/{id}: the name, the props (filled with the source's), and optionally other code."""

    TITLE_TEXT = "Update source"
    SUBMIT_LABEL = "Update"

    def __init__(self, source: Source, component: Component | None) -> None:
        super().__init__()
        self.source = source
        self.component = component
        if component is not None:
            self.how = {"component_id": component.id}
            self.loaded_for = ("keep", "")

    def title_text(self) -> str:
        return f"Update source {self.source.name or self.source.id}"

    def note(self) -> str:
        return "Updating runs the source's deactivate(), replaces its code and props, then runs activate(). Its id and endpoint stay."

    def stored_props(self) -> dict[str, Any]:
        return dict(self.source.configured_props)

    def endpoint(self) -> str | None:
        return self.source.endpoint_url

    def fields(self) -> ComposeResult:
        current = self.component
        mode = "keep" if current is not None else "saved"
        chooser = ComponentChooser(mode=mode, value="" if current else self.source.component_id or "", keep=current)
        yield FormRow(
            "Component",
            chooser,
            name="component",
            hint="keep it, or give other code: the props below follow the component",
        )
        yield FormRow("Name", InOrderInput(self.source.name or "", id="name", compact=True), name="name")
        with Vertical(id="props-area"):
            if current is not None:
                title = f"Props of {current.name or current.key or current.id}"
                yield PropsSection(
                    current.configurable_props,
                    self.stored_props(),
                    prefix=PREFIX,
                    title=title,
                    endpoint=self.endpoint(),
                )
            else:
                yield Static(
                    Text("The source's component could not be read: give it above to edit the props."),
                    classes="waiting",
                )

    def on_mount(self) -> None:
        self.query_one("#name", Input).focus()

    async def submit(self) -> Source:
        name = self.query_one("#name", Input).value.strip()
        if not name:
            raise Invalid({"name": "A source needs a name."})
        props = await self.ready_props()
        client = self.session.client
        component = {k: v for k, v in self.how.items() if k != "key"}  # PUT names the component by id only
        answer = await client.update_source(
            self.source.id, **component, name=name if name != self.source.name else None, configured_props=props
        )
        return answer if isinstance(answer, Source) else await client.get_source(self.source.id)

    def done(self, result: Source) -> str:
        return f"Updated source {visible(result.name or result.id, 60)} ({result.id})"
