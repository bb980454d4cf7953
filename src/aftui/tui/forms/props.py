"""A form generated from a component's `configurable_props`, producing the `configured_props` the API takes.

`PropsSection(props, stored, prefix=...)` is one `FormRow` per prop (an
alert is a box, a hidden prop is not shown), each holding the field its
type calls for (`field_for`). `collect()` gives the values by prop name or
raises `Invalid` naming each bad prop by its row name: `prefix` + the prop's
name, which is also how the service names it in an error's `param`
("configured_props.x", "steps.emit.props.x", "triggers[0].props.x"), so
both kinds of message land beside the same field.

What is sent: a prop left empty is not sent (the service then uses its
default); a disabled, hidden or service-filled prop keeps the value it has,
if any; every value is checked against the 64 KB limit on static text.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Static

from ...api.models import ComponentProp
from ...props import (
    HTTP_REQUEST_NOTE,
    OMIT,
    SCALARS,
    SERVICE_KINDS,
    ValueProblem,
    extra,
    has_default,
    label_of,
    required,
    size_problem,
    split_type,
)
from ...text import visible
from ..modals.form import FormRow, FormScreen, Invalid
from ..widgets.prop_fields import (
    BooleanField,
    ChoiceField,
    IntegerField,
    JsonField,
    ListField,
    PropField,
    TextField,
    markdown_text,
)
from ..widgets.prop_special import (
    AccountField,
    AlertBox,
    HttpField,
    NoteField,
    TimerField,
)

T = TypeVar("T")


def field_for(prop: ComponentProp, initial: Any = OMIT, *, endpoint: str | None = None) -> PropField:
    """The input a prop's type calls for; `initial` is the value it has now (OMIT for none)."""
    kind, many = split_type(prop.type)
    if many and kind in SCALARS:
        return ListField(prop, initial, make_item=lambda item_prop, value: field_for(item_prop, value))
    if prop.type == "$.interface.timer":
        return TimerField(prop, initial)
    if prop.type == "$.interface.http":
        return HttpField(prop, initial, endpoint=endpoint)
    if prop.type == "app":
        return AccountField(prop, initial)
    if prop.type in SERVICE_KINDS:
        return NoteField(prop, initial, note=SERVICE_KINDS[prop.type])
    if prop.type == "http_request":
        return JsonField(prop, initial, kind="object")
    if prop.options and kind in ("string", "integer"):
        return ChoiceField(prop, initial)
    if kind == "integer":
        return IntegerField(prop, initial)
    if kind == "boolean":
        return BooleanField(prop, initial)
    if kind in ("object", "any"):
        return JsonField(prop, initial, kind=kind)
    return TextField(prop, initial)  # string, and types this version does not know: typed as text


def hint_for(prop: ComponentProp) -> Text:
    """Under the field: the prop's name and type, its description, and what to know before editing it."""
    parts = [Text(f"{visible(prop.name, 60)} · {visible(prop.type, 40)}", style="dim")]
    if prop.description:
        parts.append(markdown_text(prop.description))
    notes: list[str] = []
    if prop.type == "http_request":
        notes.append(HTTP_REQUEST_NOTE)
    if has_default(prop) and prop.type not in ("$.interface.timer", "$.interface.http"):
        notes.append(
            f"default {visible(prop.default if isinstance(prop.default, str) else json.dumps(prop.default), 60)}"
        )
    definition = extra(prop, "propDefinition")
    if isinstance(definition, list) and definition:
        what = f" ({visible(str(definition[1]), 40)})" if len(definition) > 1 else ""
        notes.append(f"defined by the {visible(str(definition[0]), 40)} app{what}")
    if extra(prop, "remoteOptions") or extra(prop, "useQuery"):
        notes.append("its choices come from the app at run time: type the value")
    if prop.secret:
        notes.append("secret: masked, ctrl+r shows it")
    if prop.disabled:
        notes.append("disabled by the component: shown, not editable")
    if prop.reloadProps:
        notes.append("⟳ reloadProps: changing it makes the service recompute the component's other props after saving")
    if notes:
        parts.append(Text(" · ".join(notes), style="italic"))
    return Text("\n").join(parts)


def label_for(prop: ComponentProp) -> str:
    label = visible(label_of(prop), 40)
    return label if not required(prop) else f"{label} *"


class PropsSection(Vertical):
    """The rows of one component's props; `collect()` -> configured_props."""

    def __init__(
        self,
        props: list[ComponentProp],
        stored: Mapping[str, Any] | None = None,
        *,
        prefix: str,
        title: str | None = None,
        endpoint: str | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.props = props
        self.stored = dict(stored or {})
        self.prefix = prefix
        self.title = title
        self.endpoint = endpoint
        self.fields: dict[str, PropField] = {}

    def compose(self) -> ComposeResult:
        if self.title:
            legend = "   * required" if any(required(p) and not p.hidden for p in self.props) else ""
            yield _title(self.title, legend)
        shown = 0
        for prop in self.props:
            widget = self._row(prop)
            if widget is not None:
                shown += 1
                yield widget
        if not shown:
            yield _note("No props to set.")

    def _row(self, prop: ComponentProp) -> Widget | None:
        if prop.type == "alert":
            return AlertBox(prop)
        if prop.hidden:
            return None
        field = field_for(prop, self.stored.get(prop.name, OMIT), endpoint=self.endpoint)
        field.disabled = bool(prop.disabled)
        self.fields[prop.name] = field
        return FormRow(label_for(prop), field, name=self.row_name(prop.name), hint=hint_for(prop))

    def row_name(self, prop_name: str) -> str:
        return f"{self.prefix}{prop_name}"

    def on_prop_field_edited(self, event: PropField.Edited) -> None:
        """Say at once what is wrong with what was typed (not "required": the user may not be done)."""
        event.stop()
        row = next((a for a in event.field.ancestors if isinstance(a, FormRow)), None)
        if row is None or not isinstance(row.field, PropField):
            return
        row.show_error(live_problem(row.field))

    def collect(self) -> dict[str, Any]:
        """The configured_props to send; `Invalid` names each bad prop by its row name."""
        values: dict[str, Any] = {}
        problems: dict[str, str] = {}
        for prop in self.props:
            name = self.row_name(prop.name)
            try:
                value = self._value(prop)
            except ValueProblem as problem:
                problems[name] = problem.message
                continue
            if value is OMIT:
                continue
            too_big = size_problem(value)
            if too_big:
                problems[name] = too_big
            else:
                values[prop.name] = value
        if problems:
            raise Invalid(problems)
        return values

    def _value(self, prop: ComponentProp) -> Any:
        if prop.type == "alert":
            return OMIT
        field = self.fields.get(prop.name)
        if field is None or prop.disabled:  # hidden or disabled: what it has now, if anything
            return self.stored.get(prop.name, OMIT)
        value = field.read()
        if value is OMIT and required(prop):
            raise ValueProblem("is required", blank=True)
        return value


def live_problem(field: PropField) -> str | None:
    """What is wrong with a field now, size included; "required" is left for submit (the user may not be done)."""
    try:
        value = field.read()
    except ValueProblem as problem:
        return None if problem.blank else problem.message
    return None if value is OMIT else size_problem(value)


def _title(text: str, legend: str) -> Widget:
    return Static(Text.assemble(visible(text, 120), (legend, "dim not bold")), classes="section-title")


def _note(text: str) -> Widget:
    return Static(Text(text), classes="no-props")


def message_beside(param: str, message: str) -> str:
    """The service's "configured_props.x: is required" shown beside x as "is required"."""
    for prefix in (f"{param}: ", f"{param} "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


class PropsFormScreen(FormScreen[T]):
    """A form holding props sections: the service's message for a prop goes beside it, its name prefix left out."""

    def _fit_rows(self) -> None:
        """Nothing to do: its frame and rows are 1fr (forms.tcss), and fit the screen by themselves."""

    def row_for(self, param: str) -> str:
        """The row showing the service's `param` (subclasses map what the service names differently)."""
        return self.PARAMS.get(param, param)

    def show_problems(self, problems: Mapping[str, str], *, by: str | None = None) -> None:
        beside = {self.row_for(name): message_beside(name, message) for name, message in problems.items()}
        super().show_problems(beside, by=by)

    def sections(self) -> list[PropsSection]:
        return list(self.query(PropsSection).results(PropsSection))
