"""The props form: typed values -> configured_props for every prop type, checked as the service checks them.

The rules are tested as functions; the form is tested on the emulator's real
registry components (all 23) and on a component with one prop of every
type: each field is filled as a user would, `collect()` gives the
configured_props, and the emulator's own prop check accepts them.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from props_fixture import EVERY_PROP_CODE
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Button, Input, Select, Static, Switch
from tui_helpers import wait_for

from aftui.api.models import ComponentProp
from aftui.emulator.catalog import REGISTRY
from aftui.emulator.props import validate_configured_props
from aftui.props import (
    MAX_STATIC_TEXT,
    OMIT,
    ValueProblem,
    option_pairs,
    read_integer,
    read_json,
    read_timer,
    required,
    size_problem,
    static_text_bytes,
    timer_minimum,
    timer_text,
    timer_words,
)
from aftui.tui.forms.props import PropsSection, message_beside
from aftui.tui.modals.form import FormRow, Invalid
from aftui.tui.widgets.json_editor import JsonEditor
from aftui.tui.widgets.prop_fields import (
    BooleanField,
    ChoiceField,
    IntegerField,
    JsonField,
    ListField,
    PropField,
    TextField,
    markdown_text,
)
from aftui.tui.widgets.prop_special import (
    AccountField,
    HttpField,
    NoteField,
    TimerField,
)

SIZE = (120, 36)


def prop(**fields: Any) -> ComponentProp:
    return ComponentProp.model_validate({"name": "p", "type": "string", **fields})


# --- the rules, as functions -----------------------------------------------------------------------------


def test_integers_are_whole_and_within_min_max() -> None:
    limited = prop(type="integer", min=100, max=599)
    assert read_integer(" 200 ", limited) == 200
    assert read_integer("", limited) is OMIT
    for text, words in (
        ("99", "at least 100"),
        ("600", "at most 599"),
        ("2.5", "whole number"),
        ("1e3", "whole number"),
    ):
        with pytest.raises(ValueProblem, match=words):
            read_integer(text, limited)


def test_json_objects_and_any_values() -> None:
    assert read_json('{"a": [1, 2]}', "object") == {"a": [1, 2]}
    assert read_json("  ", "object") is OMIT
    with pytest.raises(ValueProblem, match="JSON object"):
        read_json("[1]", "object")
    with pytest.raises(ValueProblem, match=r"not valid JSON \(line 1, column"):
        read_json('{"a": }', "object")
    # `any` takes JSON, and plain text as a string, but text opening like JSON must be JSON
    assert read_json("42", "any") == 42
    assert read_json("SELECT * FROM t WHERE id > $1", "any") == "SELECT * FROM t WHERE id > $1"
    with pytest.raises(ValueProblem):
        read_json("[1, 2", "any")
    with pytest.raises(ValueProblem, match="NaN"):
        read_json('{"x": NaN}', "object")


def test_timers_take_seconds_units_or_cron_and_say_what_they_mean() -> None:
    assert read_timer("900") == {"intervalSeconds": 900}
    assert read_timer("15m") == {"intervalSeconds": 900}
    assert read_timer("2h") == {"intervalSeconds": 7200}
    assert read_timer(" 0  9 * * 1-5 ") == {"cron": "0 9 * * 1-5"}
    assert read_timer("") is OMIT
    for bad in ("0", "14", "61 * * * *", "* * *", "every day"):
        with pytest.raises(ValueProblem):
            read_timer(bad)
    assert read_timer("15") == {"intervalSeconds": 15}  # the shortest interval
    assert read_timer("5", minimum=1) == {"intervalSeconds": 5}
    assert timer_minimum(prop(type="$.interface.timer")) == 15
    assert timer_minimum(prop(type="$.interface.timer", min=60)) == 60
    assert timer_words("15m") == "runs every 15 minutes"
    assert timer_words("0 9 * * 1-5") == "runs weekdays at 09:00 (UTC)"
    assert timer_words("0 9 * * 1-5", "Europe/Berlin") == "runs weekdays at 09:00 (Europe/Berlin)"
    assert timer_words("61 * * * *").startswith("✖")
    # both stored forms come back as the text typed
    assert timer_text({"cron": None, "interval_seconds": 300}) == "300"
    assert timer_text({"intervalSeconds": 60}) == "60"
    assert timer_text({"cron": "0 2 * * *", "interval_seconds": None}) == "0 2 * * *"


def test_options_as_strings_or_label_value_pairs() -> None:
    assert option_pairs(["eu", "us"]) == [("eu", "eu"), ("us", "us")]
    assert option_pairs([{"label": "Orders", "value": "orders"}, {"value": 3}]) == [("Orders", "orders"), ("3", 3)]


def test_static_text_limit_counts_utf8_and_keys_but_not_expressions() -> None:
    assert static_text_bytes({"ké": ["é", 1, True]}) == 5
    assert static_text_bytes("{{ steps.trigger.event.body }}") == 0
    assert size_problem("x" * MAX_STATIC_TEXT) is None
    assert "64 KB" in (size_problem("x" * (MAX_STATIC_TEXT + 1)) or "")
    assert "64 KB" in (size_problem({"a": ["é" * (MAX_STATIC_TEXT // 2 + 1)]}) or "")


def test_required_follows_the_service() -> None:
    assert required(prop())
    assert not required(prop(optional=True))
    assert not required(prop(default="x"))
    assert not required(prop(disabled=True))
    assert not required(prop(type="$.service.db"))
    assert not required(prop(type="$.interface.http"))
    assert required(prop(type="$.interface.timer"))
    assert not required(prop(type="$.interface.timer", default={"intervalSeconds": 60}))


def test_descriptions_render_as_plain_text_never_markup() -> None:
    text = markdown_text("Use **bold**, `code`, [docs](https://x.example/d) and [red]not markup[/red] \x1b[31m")
    assert text.plain.startswith("Use bold, code, docs (https://x.example/d) and [red]not markup[/red]")
    assert "\x1b" not in text.plain
    assert all(span.style in ("bold", "cyan", "underline", "dim", "italic") for span in text.spans)


def test_server_messages_lose_the_param_prefix_beside_the_field() -> None:
    assert message_beside("configured_props.urls", "configured_props.urls: is required") == "is required"
    assert message_beside("name", "name must not be empty") == "must not be empty"
    assert message_beside("x", "something else") == "something else"


# --- the form on real components ------------------------------------------------------------------------------


class PropsHost(Screen[None]):
    def __init__(self, props: list[ComponentProp], stored: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.props, self.stored = props, stored

    def compose(self) -> ComposeResult:
        yield PropsSection(self.props, self.stored, prefix="configured_props.", id="section")


async def host(app, pilot, props: list[ComponentProp], stored: dict[str, Any] | None = None) -> PropsSection:
    app.push_screen(PropsHost(props, stored))
    await wait_for(pilot, lambda: isinstance(app.screen, PropsHost) and bool(app.screen.query("#section")))
    section = app.screen.query_one("#section", PropsSection)
    await wait_for(pilot, lambda: all(f.loaded for f in section.query(AccountField)), 10)
    return section


def sample(field: PropField) -> Any:
    """What `fill` types into a field, as the value it should send."""
    kind = field.prop.type.removesuffix("[]")
    if isinstance(field, ChoiceField):
        return field.values[-1]
    if kind == "integer":
        return field.prop.min if field.prop.min is not None else field.prop.max if field.prop.max is not None else 7
    if kind == "boolean":
        return True
    if kind in ("object", "any", "http_request"):
        return {"k": "v"}
    return f"text-{field.prop.name}"


async def fill(pilot, field: PropField) -> Any:
    """Fill one field as a user would; returns the value the form should send for it (OMIT: none)."""
    if isinstance(field, ListField):
        field.query_one(".add", Button).press()
        await wait_for(pilot, lambda: bool(field.query(".item-row")))
        item = field.query(".item-row > PropField").results(PropField).__next__()
        return [await fill(pilot, item)]
    if isinstance(field, (NoteField, HttpField)):
        return OMIT
    if isinstance(field, TimerField):
        field.query_one(Input).value = "15m"
        return {"intervalSeconds": 900}
    if isinstance(field, AccountField):
        account = field.account_ids[-1]
        field.query_one(Select).value = account
        return {"authProvisionId": account}
    value = sample(field)
    if isinstance(field, ChoiceField):
        field.query_one(Select).value = len(field.values) - 1
    elif isinstance(field, IntegerField):
        field.query_one(Input).value = str(value)
    elif isinstance(field, BooleanField):
        field.query_one(Switch).value = True
    elif isinstance(field, JsonField):
        field.query_one(JsonEditor).text = '{"k": "v"}'
    else:
        field.query_one(Input).value = value
    return value


def _account_apps(api: httpx.Client) -> dict[str, str]:
    apps = {a["id"]: a["name_slug"] for a in api.get("/apps", params={"limit": 100}).json()["data"]}
    return {a["id"]: apps.get(a["app"]["id"], "") for a in api.get("/accounts", params={"limit": 100}).json()["data"]}


async def test_every_registry_component_maps_to_props_the_service_accepts(make_app, api: httpx.Client) -> None:
    accounts = _account_apps(api)
    app = make_app(start_pane="sources")
    checked = 0
    async with app.run_test(size=SIZE) as pilot:
        for key in REGISTRY:
            component = api.get(f"/components/registry/{key}").json()["data"]
            props = [ComponentProp.model_validate(p) for p in component["configurable_props"]]
            section = await host(app, pilot, props)
            expected = {}
            for name, field in section.fields.items():
                if field.disabled:
                    continue
                value = await fill(pilot, field)
                if value is not OMIT:
                    expected[name] = value
            await pilot.pause()
            configured = section.collect()
            assert configured == expected, key
            # the emulator's own check (the one POST /sources and POST /workflows run) takes them
            validate_configured_props(component["configurable_props"], configured, account_app=accounts.get)
            checked += 1
            app.pop_screen()
    assert checked == len(REGISTRY) == 23


async def test_every_prop_type_and_property(make_app, api: httpx.Client, info: dict) -> None:
    """One component with each type: secret masked, hidden and disabled kept out, alert shown, service props noted."""
    component = api.post("/components", json={"component_code": EVERY_PROP_CODE, "org_id": info["org_id"]}).json()[
        "data"
    ]
    props = [ComponentProp.model_validate(p) for p in component["configurable_props"]]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, props)
        fields = section.fields
        assert "internal" not in fields  # hidden
        assert fields["frozen"].disabled
        assert isinstance(fields["db"], NoteField) and isinstance(fields["store"], NoteField)
        assert (
            isinstance(fields["http"], HttpField) and fields["http"].query_one(Switch).value is True
        )  # customResponse, from the code
        assert section.query_one("AlertBox").has_class("alert-warning")
        assert "next" in str(section.query_one("AlertBox").render())
        token = fields["token"].query_one(Input)
        assert token.password
        with pytest.raises(Invalid) as missing:
            section.collect()
        assert set(missing.value.problems) == {
            "configured_props.github",
            "configured_props.title",
            "configured_props.table",
        }
        expected = {}
        for name, field in fields.items():
            if not field.disabled:
                value = await fill(pilot, field)
                if value is not OMIT:
                    expected[name] = value
        await pilot.pause()
        assert section.collect() == expected
        assert (
            expected["timer"] == {"intervalSeconds": 900}
            and expected["table"] == "customers"
            and expected["region"] == "us"
        )
    configured = api.post(
        "/sources", json={"component_id": component["id"], "configured_props": expected, "org_id": info["org_id"]}
    )
    assert configured.status_code == 200, configured.text
    stored = configured.json()["data"]["configured_props"]
    assert stored["tags"] == [expected["tags"][0]] and stored["limit"] == 1 and stored["internal"] == "x"


async def test_secret_is_masked_until_revealed(make_app) -> None:
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, [prop(name="token", secret=True)], {"token": "s3cr3t"})
        field = section.fields["token"]
        assert isinstance(field, TextField)
        box = field.query_one(Input)
        assert box.password and "s3cr3t" not in str(box.render())
        box.focus()
        await pilot.press("ctrl+r")
        assert not box.password
        await pilot.press("ctrl+r")
        assert box.password
        assert section.collect() == {"token": "s3cr3t"}


async def test_problems_show_beside_the_prop_as_you_type(make_app) -> None:
    props = [
        prop(name="status", type="integer", min=100, max=599),
        prop(name="filters", type="object", optional=True),
        prop(name="timer", type="$.interface.timer"),
    ]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, props)
        rows = {row.name: row for row in section.query(FormRow)}
        section.fields["status"].query_one(Input).value = "700"
        section.fields["filters"].query_one(JsonEditor).text = "[1, 2]"
        section.fields["timer"].query_one(Input).value = "61 * * * *"
        await wait_for(
            pilot,
            lambda: all(
                rows[f"configured_props.{name}"].has_class("-invalid") for name in ("status", "filters", "timer")
            ),
        )
        assert "at most 599" in str(rows["configured_props.status"].query_one(".field-error").render())
        assert "JSON object" in str(rows["configured_props.filters"].query_one(".field-error").render())
        assert "not a valid cron" in str(rows["configured_props.timer"].query_one(".field-error").render())
        section.fields["status"].query_one(Input).value = "201"
        await wait_for(pilot, lambda: not rows["configured_props.status"].has_class("-invalid"))


def _said(widget) -> str:
    """Every line of text a widget and its children show."""
    return "\n".join(str(w.render()) for w in widget.query(Static))


async def test_each_problem_is_said_once_as_you_type_and_after_submit(make_app) -> None:
    """A bad cron and bad JSON: one line each says what is wrong (the field's own line does not repeat it)."""
    props = [prop(name="timer", type="$.interface.timer"), prop(name="filters", type="object")]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, props)
        rows = {row.name: row for row in section.query(FormRow)}
        section.fields["timer"].query_one(Input).value = "61 * * * *"
        section.fields["filters"].query_one(JsonEditor).text = '{"a": '
        await wait_for(pilot, lambda: all(row.has_class("-invalid") for row in rows.values()))
        with pytest.raises(Invalid) as invalid:
            section.collect()
        app.screen.query_one("#section", PropsSection)  # still open
        for row in rows.values():
            row.show_error(invalid.value.problems[row.name])  # as the form shows them after ctrl+s
        await pilot.pause()
        assert _said(rows["configured_props.timer"]).count("not a valid cron") == 1
        assert _said(rows["configured_props.filters"]).count("line 1, column") == 1


async def test_a_timer_is_held_to_its_minimum_interval_said_beside_it(make_app) -> None:
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, [prop(name="timer", type="$.interface.timer")])
        field = section.fields["timer"]
        box = field.query_one(Input)
        assert "at least 15" in box.placeholder
        row = next(iter(section.query(FormRow)))
        box.value = "5"
        await wait_for(pilot, lambda: row.has_class("-invalid"))
        assert "at least 15 seconds" in str(row.query_one(".field-error").render())
        with pytest.raises(Invalid):
            section.collect()
        box.value = "15"
        await wait_for(pilot, lambda: not row.has_class("-invalid"))
        assert section.collect() == {"timer": {"intervalSeconds": 15}}


async def test_an_any_prop_takes_plain_text_as_a_string(make_app) -> None:
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        section = await host(app, pilot, [prop(name="query", type="any")])
        row = next(iter(section.query(FormRow)))
        editor = section.fields["query"].query_one(JsonEditor)
        editor.text = "SELECT * FROM orders WHERE id > $1"
        await wait_for(pilot, lambda: "plain text" in str(editor.query_one(".check").render()))
        assert "✖" not in _said(section) and not row.has_class("-invalid")
        assert section.collect() == {"query": "SELECT * FROM orders WHERE id > $1"}
        editor.text = '{"a": 1}'
        await wait_for(pilot, lambda: "JSON" in str(editor.query_one(".check").render()))
        assert section.collect() == {"query": {"a": 1}}


async def test_stored_values_fill_the_form_and_come_back_unchanged(make_app, api: httpx.Client) -> None:
    """Every demo source: its configured props, shown in the form and collected again, are what PUT needs."""
    app = make_app(start_pane="sources")
    sources = api.get("/users/me/sources", params={"limit": 100}).json()["data"]
    assert sources
    async with app.run_test(size=SIZE) as pilot:
        for source in sources:
            component = api.get(f"/components/{source['component_id']}").json()["data"]
            props = [ComponentProp.model_validate(p) for p in component["configurable_props"]]
            section = await host(app, pilot, props, source["configured_props"])
            collected = section.collect()
            answer = api.put(
                f"/sources/{source['id']}", json={"component_id": component["id"], "configured_props": collected}
            )
            assert answer.status_code == 200, (source["name"], answer.text)
            assert answer.json()["data"]["configured_props"] == source["configured_props"], source["name"]
            app.pop_screen()
