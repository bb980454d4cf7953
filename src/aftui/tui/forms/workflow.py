"""Create a workflow from a template (`tch_`): its props, a name, auto-deploy; then aftui knows the workflow.

`GET /workflows/{tch_id}` answers the template in the workflow shape; its
props are the configurable props of its triggers and steps (spec,
Workflows). The body of `POST /workflows` addresses steps by namespace,
`{namespace, props}`, and triggers by their index, `{props}` in order. Each
step and trigger gets its own props section, its rows named as the service
names them in errors: `steps.<namespace>.props.<prop>` and
`triggers[<i>].props.<prop>`. Values start from the template's.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import quote

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Input, Static, Switch

from ...api import ApiError
from ...api.models import Step, Trigger, Workflow
from ...text import visible
from ..change import describe_error, said_by
from ..modals.form import FormRow, Invalid
from ..widgets.in_order_input import InOrderInput
from ..widgets.prop_fields import markdown_text
from .props import PropsFormScreen, PropsSection

TEMPLATE_ID = re.compile(r"tch_[A-Za-z0-9]+")
TRIGGER_WORDS = {
    "http": "HTTP trigger: the service gives it an endpoint URL",
    "timer": "Timer trigger",
    "email": "Email trigger: the service gives it an e-mail address; nothing to set",
    "source": "Source trigger: a source deployed for this workflow",
}


def trigger_prefix(index: int) -> str:
    return f"triggers[{index}].props."


def step_prefix(namespace: str) -> str:
    return f"steps.{namespace}.props."


def trigger_section(index: int, trigger: Trigger) -> PropsSection:
    values: dict[str, Any] = dict(trigger.configured_props or {})
    title = f"Trigger {index + 1} · {TRIGGER_WORDS.get(trigger.kind, trigger.kind)}"
    if trigger.kind == "source" and trigger.name:
        title += f" ({trigger.name})"
    return PropsSection(list(trigger.configurable_props or []), values, prefix=trigger_prefix(index), title=title)


def step_section(step: Step) -> PropsSection:
    component = step.savedComponent
    props = list(component.configurableProps) if component is not None else []
    title = f"Step {step.namespace} · {step.component_key or (component.key if component else '') or 'code'}"
    return PropsSection(props, step.configured_props(), prefix=step_prefix(step.namespace), title=title)


class TemplateWorkflowForm(PropsFormScreen[Workflow]):
    """POST /workflows from a template: the template's trigger and step props, settings.name, settings.auto_deploy."""

    TITLE_TEXT = "New workflow from a template"
    SUBMIT_LABEL = "Create"
    REFRESH = ("workflows",)
    PARAMS = {"template_id": "template_id", "settings": "settings.name"}

    def __init__(self, template_id: str = "") -> None:
        super().__init__()
        self.start_id = template_id
        self.template: Workflow | None = None
        self.loaded_id: str | None = None

    def note(self) -> str:
        return "The service has no list of templates: paste a tch_ id (or a template URL). Private accounts and sources of the template are not carried over: give them below."

    def fields(self) -> ComposeResult:
        yield FormRow(
            "Template",
            InOrderInput(self.start_id, placeholder="tch_… (enter loads it)", id="template", compact=True),
            name="template_id",
        )
        yield FormRow(
            "Name",
            InOrderInput(placeholder="optional: the template's name by default", id="name", compact=True),
            name="settings.name",
        )
        auto = Horizontal(
            Switch(False, id="auto"), Static(Text("off: created inactive"), id="auto-words"), id="auto-row"
        )
        yield FormRow("Auto deploy", auto, name="settings.auto_deploy", hint="settings.auto_deploy")
        with Vertical(id="template-area"):
            yield Static(Text("Load a template (enter in the Template field) to see its props."), classes="waiting")

    def on_mount(self) -> None:
        self.query_one("#template", Input).focus()
        if self.start_id:
            self._load_now()

    @on(Switch.Changed, "#auto")
    def _auto_words(self, event: Switch.Changed) -> None:
        words = "on: deployed and active at once" if event.value else "off: created inactive"
        self.query_one("#auto-words", Static).update(Text(words))

    @on(Input.Submitted, "#template")
    def _template_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._load_now()

    @work(group="load-template", exclusive=True, exit_on_error=False)
    async def _load_now(self) -> None:
        try:
            await self.load_template()
        except Invalid as invalid:
            self.show_problems(invalid.problems, by=invalid.by)
        except ApiError as error:
            self.show_problems({"template_id": describe_error(error)}, by=said_by(error))
        else:
            self.rows()["template_id"].show_error(None)  # only its own: what the props say may already be showing

    def template_id(self) -> str:
        text = self.query_one("#template", Input).value.strip()
        match = TEMPLATE_ID.search(text)
        if not match:
            raise Invalid({"template_id": "Give a template id: tch_ followed by letters and digits."})
        return match.group(0)

    async def load_template(self) -> Workflow:
        ident = self.template_id()
        template = await self.session.client.get_workflow(quote(ident, safe=""))
        self.template, self.loaded_id = template, ident
        area = self.query_one("#template-area")
        await area.remove_children()
        description = (template.model_extra or {}).get("description")
        about = Text.assemble(
            (visible(template.name or ident, 80), "bold"),
            " · ",
            markdown_text(description) if isinstance(description, str) else Text(""),
        )
        sections = [trigger_section(i, t) for i, t in enumerate(template.triggers)] + [
            step_section(s) for s in template.steps
        ]
        await area.mount(Static(about, classes="about"), *sections)
        return template

    def row_for(self, param: str) -> str:
        """The service names a timer trigger's problem without its index ("triggers.props.timer"): the first timer row."""
        if param == "triggers.props.timer":
            timer = next((name for name in self.rows() if re.fullmatch(r"triggers\[\d+\]\.props\.timer", name)), None)
            return timer or param
        return super().row_for(param)

    def collect(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """(triggers, steps) for the body; `Invalid` gathers the problems of every section at once."""
        assert self.template is not None
        problems: dict[str, str] = {}
        values: dict[str, dict[str, Any]] = {}
        for section in self.sections():
            try:
                values[section.prefix] = section.collect()
            except Invalid as invalid:
                problems.update(invalid.problems)
        if problems:
            raise Invalid(problems)
        triggers = [{"props": values.get(trigger_prefix(i), {})} for i in range(len(self.template.triggers))]
        steps = [
            {"namespace": s.namespace, "props": values[step_prefix(s.namespace)]}
            for s in self.template.steps
            if values.get(step_prefix(s.namespace))
        ]
        return triggers, steps

    async def submit(self) -> Workflow:
        if self.template is None or self.loaded_id != self.template_id():
            try:
                await self.load_template()
            except ApiError as error:  # the template could not be read: said beside it
                raise Invalid({"template_id": describe_error(error)}, by=said_by(error)) from None
        triggers, steps = self.collect()
        name = self.query_one("#name", Input).value.strip() or None
        auto = self.query_one("#auto", Switch).value
        workflow = await self.session.client.create_workflow(
            self.loaded_id or "", steps=steps, triggers=triggers, name=name, auto_deploy=auto
        )
        if workflow.id:
            self.session.known.add(self.session.org_id or "", workflow.id, name=workflow.name, found="created")
        return workflow

    def done(self, result: Workflow) -> str:
        state = "active" if result.active else "inactive"
        return f"Created workflow {result.name or result.id} ({result.id}, {state})"
