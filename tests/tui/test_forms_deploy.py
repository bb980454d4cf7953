"""Deploy a source, update one, create a workflow from a template: through the TUI, checked through the API."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from props_fixture import EVERY_PROP_CODE
from textual import events
from textual.widgets import Button, Input, Select, Switch, TextArea
from tui_helpers import palette_search, wait_for

from aftui.tui.forms.component_pick import RegistryPicker
from aftui.tui.forms.props import PropsSection
from aftui.tui.forms.source import DeploySourceForm, UpdateSourceForm
from aftui.tui.forms.workflow import TemplateWorkflowForm
from aftui.tui.screens.components import ComponentScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.json_editor import JsonEditor
from aftui.tui.widgets.paged_table import PagedTable
from aftui.tui.widgets.prop_fields import PropField
from aftui.tui.widgets.prop_special import AccountField

SIZE = (120, 36)


def _sources(api: httpx.Client) -> list[dict[str, Any]]:
    return api.get("/users/me/sources", params={"limit": 100}).json()["data"]


def _error(form, row: str) -> str:
    found = form.rows()[row]
    return str(found.query_one(".field-error").render()) if found.has_class("-invalid") else ""


async def _open_deploy(app, pilot, **kwargs: Any) -> DeploySourceForm:
    await wait_for(
        pilot, lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done, 15
    )
    if kwargs:
        app.push_screen(DeploySourceForm(**kwargs))
    else:
        await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, DeploySourceForm) and bool(app.screen.query("#submit")))
    return app.screen


async def _props_loaded(pilot, form) -> PropsSection:
    await wait_for(pilot, lambda: bool(form.query(PropsSection)), 15)
    section = form.query_one(PropsSection)
    # The section is in the DOM before its rows are: wait for every field to be mounted, then for accounts.
    await wait_for(pilot, lambda: section.is_mounted and all(f.is_mounted for f in section.fields.values()), 15)
    await wait_for(pilot, lambda: all(f.loaded for f in section.query(AccountField)), 15)
    return section


async def _props_reloaded(pilot, form, shows: Callable[[PropsSection], bool]) -> PropsSection:
    """The props section of the component just loaded, once every one of its fields is mounted."""

    def ready() -> bool:
        sections = form.query(PropsSection)
        section = sections.first() if sections else None
        return (
            section is not None
            and shows(section)
            and section.is_mounted
            and all(f.is_mounted for f in section.fields.values())
        )

    await wait_for(pilot, ready, 15)
    return form.query_one(PropsSection)


def _field(section: PropsSection, name: str) -> PropField:
    return section.fields[name]


async def _submit_and_wait_invalid(pilot, form, row: str) -> str:
    await wait_for(pilot, lambda: all(w.is_finished for w in form.workers), 15)  # the component load has ended
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: form.rows().get(row) is not None and form.rows()[row].has_class("-invalid"), 15)
    return _error(form, row)


# --- deploy ---------------------------------------------------------------------------------------------------


async def test_deploy_from_a_registry_key_then_the_source_opens(make_app, api: httpx.Client) -> None:
    before = {s["id"] for s in _sources(api)}
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot)
        form.query_one("#component-ref", Input).value = "rss-new-item-in-feed"
        form.query_one("#name", Input).value = "Engineering blog"
        # ctrl+s loads the component first; the feed URLs are required, so it stops there and says so beside them
        assert "is required" in await _submit_and_wait_invalid(pilot, form, "configured_props.urls")
        section = form.query_one(PropsSection)
        urls = _field(section, "urls")
        urls.query_one(".add", Button).press()
        await wait_for(pilot, lambda: bool(urls.query(".item-row Input")))
        urls.query_one(".item-row Input", Input).value = "https://blog.example.com/feed.xml"
        _field(section, "timer").query_one(Input).value = "30m"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
        await wait_for(pilot, lambda: any("Deployed source Engineering blog" in n.message for n in app._notifications))
    new = [s for s in _sources(api) if s["id"] not in before]
    assert [s["name"] for s in new] == ["Engineering blog"]
    props = new[0]["configured_props"]
    assert props["urls"] == ["https://blog.example.com/feed.xml"]
    assert props["timer"] == {"cron": None, "interval_seconds": 1800}
    assert props["includeContent"] is False


async def test_the_registry_search_picks_a_key(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot)
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, RegistryPicker))
        await pilot.press(*"every interval", "enter")
        picker = app.screen
        await wait_for(pilot, lambda: picker.query_one("#keys").option_count > 0, 15)
        keys = [
            picker.query_one("#keys").get_option_at_index(i).id for i in range(picker.query_one("#keys").option_count)
        ]
        assert "schedule-every-interval" in keys
        picker.query_one("#keys").highlighted = keys.index("schedule-every-interval")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is form and bool(form.query(PropsSection)), 15)
        assert form.query_one("#component-ref", Input).value == "schedule-every-interval"
        assert _field(form.query_one(PropsSection), "timer").query_one(Input).value == "900"


async def test_the_registry_search_over_a_typed_key_takes_new_words(make_app) -> None:
    """ctrl+f after a key: its results show, and what is typed next replaces the key (it went nowhere, and
    enter picked the old key's result)."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot)
        form.query_one("#component-ref", Input).value = "rss-new-item-in-feed"
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: isinstance(app.screen, RegistryPicker))
        picker = app.screen
        await wait_for(pilot, lambda: picker.query_one("#keys").option_count > 0, 15)
        words = picker.query_one("#words", Input)
        assert words.has_focus
        await pilot.press(*"every interval", "enter")
        assert words.value == "every interval"
        await wait_for(pilot, lambda: picker.query_one("#keys").has_focus, 15)
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is form, 15)
        assert form.query_one("#component-ref", Input).value == "schedule-every-interval"


async def test_deploy_from_pasted_code(make_app, api: httpx.Client, info: dict) -> None:
    before = {s["id"] for s in _sources(api)}
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot)
        form.query_one("#component-mode", Select).value = "code"
        await pilot.pause()
        form.query_one("#component-code", TextArea).load_text(EVERY_PROP_CODE)
        form.query_one("#load", Button).press()
        section = await _props_loaded(pilot, form)
        account = _field(section, "github")
        account.query_one(Select).value = account.account_ids[0]
        _field(section, "title").query_one(Input).value = "From the TUI"
        _field(section, "table").query_one(Select).value = 0  # Orders
        _field(section, "filters").query_one(JsonEditor).text = '{"status": "paid"}'
        _field(section, "limit").query_one(Input).value = "25"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
    new = [s for s in _sources(api) if s["id"] not in before]
    assert len(new) == 1
    props = new[0]["configured_props"]
    assert props["github"] == {"authProvisionId": account.account_ids[0]}
    assert (props["title"], props["table"], props["filters"], props["limit"]) == (
        "From the TUI",
        "orders",
        {"status": "paid"},
        25,
    )
    component = api.get(f"/components/{new[0]['component_id']}").json()["data"]
    assert component["key"] == "every-prop-type"


async def test_deploy_from_a_url(make_app, api: httpx.Client) -> None:
    """A URL of the public repository (its file name a registry key) is saved as a component, then deployed from it."""
    url = "https://github.com/PipedreamHQ/pipedream/blob/master/components/schedule/sources/schedule-every-interval.mjs"
    before = {s["id"] for s in _sources(api)}
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot, mode="url", ref=url)
        section = await _props_loaded(pilot, form)
        _field(section, "timer").query_one(Input).value = "45m"
        form.query_one("#name", Input).value = "From a URL"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, DeploySourceForm), 15)
    new = [s for s in _sources(api) if s["id"] not in before]
    assert [s["name"] for s in new] == ["From a URL"]
    assert new[0]["configured_props"]["timer"]["interval_seconds"] == 2700
    assert api.get(f"/components/{new[0]['component_id']}").json()["data"]["component_url"] == url


async def test_a_url_the_service_cannot_fetch_is_said_beside_the_component(make_app, api: httpx.Client) -> None:
    before = len(_sources(api))
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot)
        form.query_one("#component-mode", Select).value = "url"
        await pilot.pause()
        form.query_one("#component-ref", Input).value = "http://127.0.0.1:9/nothing-here.mjs"
        message = await _submit_and_wait_invalid(pilot, form, "component")
        assert message.startswith("The service said: ") and "could not fetch component_url" in message
        assert form.query_one("#component-ref", Input).value == "http://127.0.0.1:9/nothing-here.mjs"
    assert len(_sources(api)) == before


async def test_deploy_from_a_component_detail(make_app, api: httpx.Client) -> None:
    before = {s["id"] for s in _sources(api)}
    app = make_app(start_pane="components")
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(ComponentScreen("http-new-requests", ("Components", "http-new-requests"), registry=True))
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen) and app.screen.record is not None, 15)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, DeploySourceForm), 15)
        form = app.screen
        await _props_loaded(pilot, form)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
    new = [s for s in _sources(api) if s["id"] not in before]
    assert len(new) == 1 and new[0]["configured_props"]["http"]["endpoint_url"]


async def test_an_action_is_not_deployed(make_app, api: httpx.Client) -> None:
    before = len(_sources(api))
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot, ref="slack-send-message")
        assert "action" in await _submit_and_wait_invalid(pilot, form, "component")
    assert len(_sources(api)) == before


async def test_client_side_problems_beside_each_prop_and_nothing_sent(make_app, api: httpx.Client) -> None:
    """Integer out of range, bad JSON, bad cron, missing required, over 64 KB: each said beside its prop."""
    before = len(_sources(api))
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot, ref="http-custom-response")
        section = await _props_loaded(pilot, form)
        _field(section, "status").query_one(Input).value = "700"
        problem = await _submit_and_wait_invalid(pilot, form, "configured_props.status")
        assert problem.startswith("must be at most 599")  # the form's own: not said to be the service's
        _field(section, "status").query_one(Input).value = "201"
        _field(section, "body").query_one(Input).value = "x" * (64 * 1024 + 1)
        assert "64 KB" in await _submit_and_wait_invalid(pilot, form, "configured_props.body")
        assert not form.rows()["configured_props.status"].has_class("-invalid")
        app.pop_screen()

        form = await _open_deploy(app, pilot, ref="postgresql-new-row")
        section = await _props_loaded(pilot, form)
        _field(section, "filters").query_one(JsonEditor).text = '{"status": }'
        problem = await _submit_and_wait_invalid(pilot, form, "configured_props.filters")
        assert "not valid JSON" in problem
        assert "is required" in _error(form, "configured_props.postgresql") and "is required" in _error(
            form, "configured_props.table"
        )
        assert _field(section, "filters").query_one(JsonEditor).text == '{"status": }'  # nothing typed is lost
        app.pop_screen()

        form = await _open_deploy(app, pilot, ref="schedule-cron-expression")
        section = await _props_loaded(pilot, form)
        _field(section, "timer").query_one(Input).value = "61 * * * *"
        assert "cron" in await _submit_and_wait_invalid(pilot, form, "configured_props.timer")
    assert len(_sources(api)) == before


@pytest.mark.parametrize("delay", [0, 0.005, 0.02])
async def test_closing_the_form_while_its_props_mount_keeps_the_app(make_app, delay: float) -> None:
    """esc right after the props appear: the form's selects are removed mid-mount, and the app goes on."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await _open_deploy(app, pilot)
        app.pop_screen()
        for _ in range(3):
            app.push_screen(DeploySourceForm(ref="schedule-cron-expression"))
            await wait_for(
                pilot, lambda: isinstance(app.screen, DeploySourceForm) and bool(app.screen.query(PropsSection)), 15
            )
            await asyncio.sleep(delay)
            app.pop_screen()
            await pilot.pause()
        assert app.is_running and not isinstance(app.screen, DeploySourceForm)


async def test_code_the_service_cannot_read_is_said_beside_the_component(make_app, api: httpx.Client) -> None:
    """POST /components refuses a prop type it does not know (param component_code): said beside the component."""
    code = EVERY_PROP_CODE.replace('payload: { type: "any"', 'payload: { type: "sql"')
    before = len(_sources(api))
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot, mode="code", ref=code)
        message = await _submit_and_wait_invalid(pilot, form, "component")
        assert "unknown type 'sql'" in message
        assert form.query_one("#component-code", TextArea).text == code  # nothing typed is lost
    assert len(_sources(api)) == before


# --- update ------------------------------------------------------------------------------------------------------


async def _open_update(app, pilot, source_id: str) -> UpdateSourceForm:
    app.push_screen(SourceScreen(source_id, ("Sources", source_id)))
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, SourceScreen) and app.screen.record is not None and app.screen.query("TabbedContent")
        ),
        15,
    )
    await pilot.press("u")
    await wait_for(pilot, lambda: isinstance(app.screen, UpdateSourceForm) and bool(app.screen.query("#submit")), 15)
    return app.screen


def _demo_source(api: httpx.Client, key: str) -> dict[str, Any]:
    component_ids = {api.get(f"/components/registry/{key}").json()["data"]["id"]}
    return next(s for s in _sources(api) if s["component_id"] in component_ids)


async def test_update_name_and_props_prefilled(make_app, api: httpx.Client) -> None:
    source = _demo_source(api, "schedule-every-interval")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, source["id"])
        section = await _props_loaded(pilot, form)
        timer = _field(section, "timer").query_one(Input)
        assert timer.value == str(source["configured_props"]["timer"]["interval_seconds"])
        assert form.query_one("#name", Input).value == source["name"]
        timer.value = "2h"
        form.query_one("#name", Input).value = "Every two hours"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
        await wait_for(pilot, lambda: getattr(app.screen.record, "name", None) == "Every two hours", 15)
    after = api.get(f"/sources/{source['id']}").json()["data"]
    assert after["name"] == "Every two hours"
    assert after["configured_props"]["timer"] == {"cron": None, "interval_seconds": 7200}


async def test_update_keeps_the_endpoint_and_shows_it(make_app, api: httpx.Client) -> None:
    source = _demo_source(api, "http-new-requests")
    endpoint = source["configured_props"]["http"]["endpoint_url"]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, source["id"])
        section = await _props_loaded(pilot, form)
        assert endpoint in str(_field(section, "http").query_one(".endpoint").render())
        _field(section, "emitBodyOnly").query_one(Switch).value = True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
    after = api.get(f"/sources/{source['id']}").json()["data"]
    assert after["configured_props"]["emitBodyOnly"] is True
    assert after["configured_props"]["http"]["endpoint_url"] == endpoint


async def test_update_a_server_refusal_keeps_the_form(make_app, emulator, api: httpx.Client) -> None:
    source = _demo_source(api, "schedule-every-interval")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, source["id"])
        await _props_loaded(pilot, form)
        form.query_one("#name", Input).value = "Renamed"
        httpx.post(
            f"{emulator.root_url}/_emulator/faults",
            json={"path": f"/v1/sources/{source['id']}", "method": "PUT", "status": 400, "count": 1},
        ).raise_for_status()
        await pilot.press("ctrl+s")
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert str(box.render()).startswith("The service said (400): injected fault"), "who said it, and how"
        assert isinstance(app.screen, UpdateSourceForm) and form.query_one("#name", Input).value == "Renamed"
        form.query_one("#name", Input).value = ""
        assert "needs a name" in await _submit_and_wait_invalid(pilot, form, "name")
    assert api.get(f"/sources/{source['id']}").json()["data"]["name"] == source["name"]


CRON_UTC_ONLY = """export default {
  key: "cron-utc-only",
  name: "Cron (UTC or Berlin)",
  version: "0.1.0",
  type: "source",
  props: {
    timer: { type: "$.interface.timer", default: { cron: "0 9 * * 1-5" } },
    timezone: { type: "string", label: "Timezone", optional: true, options: ["UTC", "Europe/Berlin"] },
  },
  async run(event) { this.$emit(event); },
};
"""


async def test_a_prop_the_service_refuses_is_shown_beside_it(make_app, api: httpx.Client, info: dict) -> None:
    """Other code whose options leave out the value the source has: the form keeps it choosable, the service refuses it
    (param configured_props.timezone), and the message lands beside Timezone without the param prefix, said to be
    the service's: the form's own checks read alike."""
    key = "schedule-cron-expression"
    component_id = api.get(f"/components/registry/{key}").json()["data"]["id"]
    made = api.post(
        "/sources",
        json={
            "component_id": component_id,
            "name": "Tokyo mornings",
            "org_id": info["org_id"],
            "configured_props": {"timer": {"cron": "0 7 * * *"}, "timezone": "Asia/Tokyo"},
        },
    ).json()["data"]
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, made["id"])
        await _props_loaded(pilot, form)
        form.query_one("#component-mode", Select).value = "code"
        await pilot.pause()
        form.query_one("#component-code", TextArea).load_text(CRON_UTC_ONLY)
        form.query_one("#load", Button).press()
        section = await _props_reloaded(pilot, form, lambda s: s.title == "Props of Cron (UTC or Berlin)")
        zone = _field(section, "timezone")
        await wait_for(pilot, lambda: zone.read() == "Asia/Tokyo")  # kept from the source, though not an option
        message = await _submit_and_wait_invalid(pilot, form, "configured_props.timezone")
        assert message.startswith("The service said: must be one of") and "Europe/Berlin" in message
        assert isinstance(app.screen, UpdateSourceForm)
    after = api.get(f"/sources/{made['id']}").json()["data"]
    assert after["component_id"] == component_id and after["configured_props"]["timezone"] == "Asia/Tokyo"


async def test_update_with_other_code(make_app, api: httpx.Client) -> None:
    """Choose another component: the props follow it, values of props with the same name are carried over."""
    source = _demo_source(api, "schedule-every-interval")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, source["id"])
        await _props_loaded(pilot, form)
        form.query_one("#component-mode", Select).value = "registry"
        await pilot.pause()
        form.query_one("#component-ref", Input).value = "schedule-cron-expression"
        form.query_one("#load", Button).press()
        section = await _props_reloaded(pilot, form, lambda s: "timezone" in s.fields)
        _field(section, "timer").query_one(Input).value = "0 6 * * *"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), 15)
    after = api.get(f"/sources/{source['id']}").json()["data"]
    cron_id = api.get("/components/registry/schedule-cron-expression").json()["data"]["id"]
    assert after["component_id"] == cron_id
    assert after["configured_props"]["timer"]["cron"] == "0 6 * * *"


# --- workflows from templates ---------------------------------------------------------------------------------


async def _open_template(app, pilot) -> TemplateWorkflowForm:
    await wait_for(
        pilot,
        lambda: bool(app.query("#workflows PagedTable")) and app.query_one("#workflows PagedTable").pager.done,
        15,
    )
    await pilot.press("n")
    await wait_for(pilot, lambda: isinstance(app.screen, TemplateWorkflowForm) and bool(app.screen.query("#submit")))
    return app.screen


async def test_workflow_from_a_timer_template_joins_the_known_list(make_app, api: httpx.Client, info: dict) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_template(app, pilot)
        await pilot.press(*"tch", "underscore", *"8Wd2Kc", "enter")
        await wait_for(pilot, lambda: len(form.query(PropsSection)) == 4, 15)
        sections = {s.prefix: s for s in form.query(PropsSection)}
        timer = _field(sections["triggers[0].props."], "timer").query_one(Input)
        assert timer.value == "0 2 * * *"
        assert "every day at 02:00" in str(_field(sections["triggers[0].props."], "timer").query_one(".words").render())
        timer.value = "0 3 * * *"
        _field(sections["steps.fetch_metrics.props."], "url").query_one(Input).value = "https://reports.example.com/v2"
        form.query_one("#name", Input).value = "Nightly at three"
        form.query_one("#auto", Switch).value = True
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, TemplateWorkflowForm), 15)
        table = app.query_one("#workflows PagedTable", PagedTable)
        await wait_for(pilot, lambda: any(r.title == "Nightly at three" for r in table.rows), 15)
    known = app.session.known.in_workspace(info["org_id"])
    created = [ident for ident, entry in known.items() if entry.get("name") == "Nightly at three"]
    assert len(created) == 1
    workflow = api.get(f"/workflows/{created[0]}").json()
    assert workflow["name"] == "Nightly at three" and workflow["active"] is True
    assert workflow["triggers"][0]["cron"] == "0 3 * * *"
    step = next(s for s in workflow["steps"] if s["namespace"] == "fetch_metrics")
    assert '"https://reports.example.com/v2"' in step["configured_props_json"]


async def test_workflow_from_a_template_with_accounts(make_app, api: httpx.Client, info: dict) -> None:
    """GitHub issues to Slack: the source trigger's github account, the step's slack account; missing ones said beside."""
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_template(app, pilot)
        form.query_one("#template", Input).value = "tch_Gh5rT1"
        await pilot.press("ctrl+s")  # loads, then stops: accounts and the repo are required
        await wait_for(
            pilot,
            lambda: (
                form.rows().get("steps.send_message.props.slack") is not None
                and form.rows()["steps.send_message.props.slack"].has_class("-invalid")
            ),
            15,
        )
        assert "is required" in _error(form, "triggers[0].props.github")
        sections = {s.prefix: s for s in form.query(PropsSection)}
        for section in sections.values():
            await wait_for(pilot, lambda s=section: all(f.loaded for f in s.query(AccountField)), 15)
        trigger, step = sections["triggers[0].props."], sections["steps.send_message.props."]
        github, slack = _field(trigger, "github"), _field(step, "slack")
        github.query_one(Select).value = github.account_ids[0]
        slack.query_one(Select).value = slack.account_ids[0]
        _field(trigger, "repo").query_one(Input).value = "acme/api"
        _field(step, "channel").query_one(Input).value = "#alerts"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, TemplateWorkflowForm), 15)
    known = app.session.known.in_workspace(info["org_id"])
    ident = next(i for i, e in known.items() if e.get("found") == "created")
    workflow = api.get(f"/workflows/{ident}").json()
    step_props = next(s for s in workflow["steps"] if s["namespace"] == "send_message")
    assert step_props["authProvisionIdMap"].get("slack") == slack.account_ids[0]
    source = api.get(f"/sources/{workflow['triggers'][0]['id']}").json()["data"]
    assert source["configured_props"]["github"] == {"authProvisionId": github.account_ids[0]}
    assert source["configured_props"]["repo"] == "acme/api"


async def test_an_unknown_template_is_said_beside_it(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_template(app, pilot)
        form.query_one("#template", Input).value = "tch_nothere"
        message = await _submit_and_wait_invalid(pilot, form, "template_id")
        assert "tch_nothere" in message or "not found" in message.lower()
        form.query_one("#template", Input).value = "p_notatemplate"
        assert "tch_" in await _submit_and_wait_invalid(pilot, form, "template_id")


async def test_template_errors_land_beside_the_prop_they_name(make_app) -> None:
    """The service names a trigger timer's problem "triggers.props.timer" (no index): beside the first timer;
    a step's prop by its namespace."""
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_template(app, pilot)
        form.query_one("#template", Input).value = "tch_Fk7pZ2"
        await pilot.press("enter")
        await wait_for(pilot, lambda: bool(form.query(PropsSection)), 15)
        form.show_problems(
            {"triggers.props.timer": "triggers timer: intervalSeconds must be a whole number of seconds, at least 1"}
        )
        assert "whole number" in _error(form, "triggers[0].props.timer")
        # a step's prop as the emulator names it (param steps.<namespace>.props.<name>): beside it, the prefix left out
        form.show_problems({"steps.sync.props.url": "steps.sync.props.url: is required"})
        assert _error(form, "steps.sync.props.url") == "is required"


async def test_read_only_disables_the_new_forms(make_app) -> None:
    app = make_app(start_pane="sources")
    app.session.client.read_only = True
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done,
            15,
        )
        pane = app.query_one("#sources")
        await wait_for(pilot, lambda: app.focused is not None and pane in app.focused.ancestors)
        assert pane.check_action("new_source", ()) is None
        await pilot.press("n")
        await wait_for(pilot, lambda: any("read-only" in n.message for n in app._notifications))
        assert not isinstance(app.screen, DeploySourceForm)
        app.push_screen(TemplateWorkflowForm())
        await wait_for(
            pilot, lambda: isinstance(app.screen, TemplateWorkflowForm) and bool(app.screen.query("#submit"))
        )
        assert app.screen.query_one("#submit", Button).disabled


async def test_the_palette_creates_from_a_template_id(make_app) -> None:
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.done,
            15,
        )
        await palette_search(pilot, *"tch", "underscore", *"Em4xV7")
        await pilot.press("down", "enter")  # the second hit: create (the first opens the template)
        await wait_for(
            pilot, lambda: isinstance(app.screen, TemplateWorkflowForm) and bool(app.screen.query(PropsSection)), 15
        )
        titles = [s.title for s in app.screen.query(PropsSection)]
        assert titles[0].startswith("Trigger 1 · Email trigger") and any(t.startswith("Step tag") for t in titles)


async def test_esc_asks_before_it_drops_what_was_typed_and_n_goes_back_to_the_form(make_app) -> None:
    """One esc too many threw a whole form away, typed props and all, without a word."""
    from aftui.tui.modals.confirm import ConfirmScreen
    from aftui.tui.screens.workflows import WorkflowsPane

    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await _open_deploy(app, pilot)
        await pilot.press("escape")  # nothing typed: closed at once
        await wait_for(pilot, lambda: not isinstance(app.screen, DeploySourceForm))
        form = await _open_deploy(app, pilot)
        # Where the change is made, in sight above the form, never under it (at 80x24 the frame covered it).
        from aftui.tui.widgets.status import StatusHeader

        assert "DEMO" in str(form.query_one(StatusHeader).render())
        name = form.query_one("#name", Input)
        name.focus()
        await pilot.press(*"Blog", "escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = str(app.screen.query_one(".what").render())
        assert "What you typed in Name is lost" in question, question
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is form)
        assert name.value == "Blog" and app.focused is name
        # esc and a key at once (esc y, esc 3): the question, and the key is not taken for its answer.
        for key in ("alt+y", "alt+3"):
            app._driver.send_message(events.Key(key, None))
            await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
            await pilot.pause(0.2)
            assert isinstance(app.screen, ConfirmScreen) and form in app.screen_stack, key
            assert not app.screen_stack[0].query(WorkflowsPane) and not app._notifications
            await pilot.press("n")
            await wait_for(pilot, lambda: app.screen is form)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1)
        # Typed back as it was: nothing to lose, nothing asked.
        form = await _open_deploy(app, pilot)
        form.query_one("#name", Input).focus()
        await pilot.press("x", "backspace", "escape")
        await wait_for(pilot, lambda: len(app.screen_stack) == 1)


async def test_a_stored_name_focused_in_the_update_form_is_added_to_not_replaced(make_app, api: httpx.Client) -> None:
    source = _demo_source(api, "schedule-every-interval")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_update(app, pilot, source["id"])
        name = form.query_one("#name", Input)
        await wait_for(pilot, lambda: app.focused is name)
        await pilot.press(*" (old)")
        assert name.value == source["name"] + " (old)"


async def test_every_problem_of_the_props_is_said_at_once_and_a_whole_number_is_not_rewritten(make_app) -> None:
    """The walk: `10.50` typed into an integer became 1050 without a word; a required account and an amount
    below its minimum were said one submit after the other."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        form = await _open_deploy(app, pilot, ref="stripe-new-payment")
        section = await _props_loaded(pilot, form)
        amount = _field(section, "minAmount").query_one(Input)
        amount.focus()
        await pilot.press(*"10.50")
        assert amount.value == "10.50"
        assert "whole number" in await _submit_and_wait_invalid(pilot, form, "configured_props.minAmount")
        assert "is required" in _error(form, "configured_props.stripe")
        # Counted under the rows: at 80x24 the second may be scrolled out of sight.
        said = str(form.query_one("#problem").render())
        assert said == "2 fields to fix, each said beside it: stripe, Minimum Amount"
        amount.value = "5"
        await wait_for(
            pilot, lambda: not form.query_one("#problem").display, says=lambda: str(form.query_one("#problem").render())
        )
        assert _error(form, "configured_props.minAmount") == "" and not form.query_one("#problem").display
        amount.value = "-55"
        assert "at least 0" in await _submit_and_wait_invalid(pilot, form, "configured_props.minAmount")
        assert "is required" in _error(form, "configured_props.stripe")
