"""The Workflows pane and a workflow's detail, driven against the demo emulator."""

from __future__ import annotations

import io
import json
import re
from typing import Any

from rich.console import Console
from textual.widgets import Input, Static, TabbedContent
from tui_helpers import wait_for

from aftui.emulator.server import ServerHandle
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.events import EventScreen
from aftui.tui.screens.workflows import AddWorkflowScreen, KnownTable, WorkflowScreen, WorkflowsPane
from aftui.tui.widgets.fields import Fields
from aftui.tui.widgets.paged_table import Column, PagedTable
from aftui.tui.widgets.phrases import Phrases

FROM_SUBSCRIPTIONS = {
    "Validate and forward orders",
    "Acknowledge and relay webhooks",
    "Flaky partner sync",
    "GitHub issues to Slack",
}


def workflow_id(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)


def text_of(widget: Static) -> str:
    """What a Static shows, as plain text (Fields hold a Rich table)."""
    console = Console(width=200, file=io.StringIO(), record=True, color_system=None)
    console.print(widget.content)
    return console.export_text()


async def discovered(app, pilot) -> KnownTable:
    """The pane, once discovery has finished and every row has its details."""
    await wait_for(pilot, lambda: bool(app.query("#workflows KnownTable")), timeout=10)
    pane = app.query_one("#workflows", WorkflowsPane)
    table = pane.query_one(KnownTable)
    await wait_for(
        pilot,
        lambda: not pane._discovering and table.rows and all(r.workflow or r.problem for r in table.rows),
        timeout=10,
    )
    return table


def triggers(table: KnownTable) -> Column[Any]:
    """The Triggers column, by key: the health columns stand before it."""
    return next(c for c in table.columns if c.key == "triggers")


def names(table: KnownTable) -> set[str]:
    return {r.title or "" for r in table.rows}


async def add(pilot, text: str) -> AddWorkflowScreen:
    await pilot.press("a")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, AddWorkflowScreen))
    modal = pilot.app.screen
    modal.query_one("#ident", Input).value = text  # as pasted
    await pilot.press("enter")
    return modal


async def open_detail(app, pilot, ident: str) -> WorkflowScreen:
    app.open_id(ident)
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, WorkflowScreen) and app.screen.ident == ident and bool(app.screen.query("#json"))
        ),
        timeout=10,
    )
    return app.screen


async def test_the_pane_discovers_the_demo_workflows_from_subscriptions(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        assert names(table) == FROM_SUBSCRIPTIONS
        assert all(row.id.startswith("p_") and "*" not in row.id for row in table.rows)
        assert {row.found for row in table.rows} == {"subscription"}
        orders = next(r for r in table.rows if r.title == "Validate and forward orders")
        assert orders.workflow is not None and orders.workflow.active is True
        assert triggers(table).render(orders).plain == "http"
        assert table.cell(orders.id, "triggers").plain == "http"  # drawn, not only known
        assert table.cell(orders.id, "active").plain == "yes"
        note = app.query_one("#workflows .note", Phrases).text.plain
        assert "Found 4 new workflows (4 in subscriptions) · " in note


async def test_a_workflow_is_added_by_id_and_the_cursor_lands_on_it(make_app, emulator) -> None:
    nightly = workflow_id(emulator, "Nightly report")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        await add(pilot, nightly)
        await wait_for(pilot, lambda: "Nightly report" in names(table))
        assert not isinstance(app.screen, AddWorkflowScreen)
        row = next(r for r in table.rows if r.id == nightly)
        assert row.found == "added" and row.workflow is not None
        assert triggers(table).render(row).plain == "timer"
        await wait_for(pilot, lambda: table.current is not None and table.current.id == nightly)


async def test_a_workflow_is_added_by_a_dashboard_url(make_app, emulator) -> None:
    triage = workflow_id(emulator, "Inbound email triage")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        await add(pilot, f"  https://dashboard.example.com/@acme/projects/proj_Ab12/{triage}/inspect?tab=logs ")
        await wait_for(pilot, lambda: "Inbound email triage" in names(table))


async def test_an_unknown_id_shows_the_servers_message_and_keeps_the_text(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        modal = await add(pilot, "p_doesnotexist")
        message = modal.query_one("#message", Static)
        await wait_for(pilot, lambda: "not found" in text_of(message))
        assert "workflow p_doesnotexist not found" in text_of(message)  # the emulator's own words
        assert app.screen is modal
        assert modal.query_one("#ident", Input).value == "p_doesnotexist"
        modal.query_one("#ident", Input).value = "no id in here"
        await pilot.press("ctrl+s")  # as in every form: it did nothing here
        await wait_for(pilot, lambda: "No workflow id" in text_of(message))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, AddWorkflowScreen))
        assert names(table) == FROM_SUBSCRIPTIONS


async def test_forget_asks_first_and_then_drops_the_row(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        gone = table.current
        assert gone is not None
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert gone.id in {r.id for r in table.rows}
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: gone.id not in {r.id for r in table.rows})
        assert gone.id not in app.session.known.in_workspace(app.session.org_id)
        await pilot.press("r")  # looking again does not bring it back in this session
        await discovered(app, pilot)
        assert gone.id not in {r.id for r in table.rows}


async def test_forgetting_a_failing_workflow_says_it_is_failing(make_app, emulator) -> None:
    """Forgotten by mistake while it failed, it went from the list with nothing said of its errors."""
    orders = emulator.emulator.demo.order_workflow_id
    app = make_app(start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.health is not None and app.health.counted, timeout=15)
        await pilot.press("3")
        table = await discovered(app, pilot)
        await wait_for(pilot, lambda: any(r.id == orders for r in table.rows))
        table.go_to(lambda r: r.id == orders)
        await wait_for(pilot, lambda: table.current is not None and table.current.id == orders)
        await pilot.press("x")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        said = " ".join(app.screen.what)
        assert "It is failing now: " in said and "errors in the last hour" in said


async def test_known_workflows_are_remembered_for_the_next_start(make_app, emulator, tmp_path) -> None:
    nightly = workflow_id(emulator, "Nightly report")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        await add(pilot, nightly)
        await wait_for(pilot, lambda: "Nightly report" in names(table))
    saved = json.loads((tmp_path / "data" / "known_workflows.json").read_text())
    assert saved[app.session.org_id][nightly] == {"name": "Nightly report", "found": "added"}

    again = make_app(start_pane="workflows")
    async with again.run_test(size=(120, 36)) as pilot:
        table = await discovered(again, pilot)
        assert names(table) == FROM_SUBSCRIPTIONS | {"Nightly report"}
        assert next(r for r in table.rows if r.id == nightly).found == "added"
        # Nothing new found: the note says what the list is ("No other workflows found" read as "none").
        note = again.query_one("#workflows .note", Phrases).text.plain
        assert note.startswith("The workflows aftui knows (the service lists none): from subscriptions, errors")


async def test_opening_a_workflow_by_id_remembers_it(make_app, emulator) -> None:
    refunds = workflow_id(emulator, "Validate refunds")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        await open_detail(app, pilot, refunds)
        assert app.session.known.in_workspace(app.session.org_id)[refunds] == {
            "name": "Validate refunds",
            "found": "opened",
        }
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Validate refunds" in names(table))
        await wait_for(pilot, lambda: next(r for r in table.rows if r.id == refunds).workflow is not None)
        assert next(r for r in table.rows if r.id == refunds).workflow.active is False
        assert table.cell(refunds, "active").plain == "no"


async def test_enter_opens_the_detail_with_the_http_endpoint(make_app, emulator) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    key = emulator.emulator.demo.order_endpoint_key
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        table.table.move_cursor(row=[r.id for r in table.rows].index(orders))
        table.table.focus()
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: isinstance(app.screen, WorkflowScreen) and bool(app.screen.query("#json")), timeout=10
        )
        screen = app.screen
        assert screen.ident == orders
        overview, triggers, steps = (text_of(f) for f in screen.query(Fields)[:3])
        assert "Validate and forward orders" in overview and "3" in overview
        assert f"{emulator.root_url}/e/{key}" in triggers
        assert "Custom response" in triggers
        assert "demo-validate-fields" in steps and "required_fields" in steps and "customer_email" in steps
        assert "Known from" in overview and "subscription" in overview


async def test_a_timer_trigger_is_shown_in_words(make_app, emulator) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        await discovered(app, pilot)
        screen = await open_detail(app, pilot, workflow_id(emulator, "Nightly report"))
        assert "every day at 02:00 (UTC)" in text_of(screen.query(Fields)[1])
        await pilot.press("escape")
        screen = await open_detail(app, pilot, workflow_id(emulator, "Flaky partner sync"))
        assert "every hour" in text_of(screen.query(Fields)[1])


async def test_the_errors_tab_lists_the_order_workflows_errors(make_app, emulator) -> None:
    orders = emulator.emulator.demo.order_workflow_id
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        await discovered(app, pilot)
        screen = await open_detail(app, pilot, orders)
        errors = screen.query_one("#errors", PagedTable)
        await wait_for(pilot, lambda: len(errors.rows) == 12, timeout=10)
        first = errors.rows[0]
        assert first.error() is not None
        cells = [
            column.render(first).plain for column in errors.columns if column.key not in ("mark", "replay", "by")
        ]  # the replay mark, the replay state and who replayed come first
        assert cells[1] == "validate"  # the step that threw, by namespace
        assert cells[2] == "HTTP"
        assert cells[3].startswith("ValidationError: Missing required field")
        screen.query_one(TabbedContent).active = screen.query_one(TabbedContent).query("TabPane")[4].id

        def focused() -> bool:  # the tab shows on a later refresh: until then the table cannot take focus
            errors.table.focus()
            return errors.table.has_focus

        await wait_for(pilot, focused)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EventScreen))
        assert app.screen.errors and app.screen.workflow_id == orders


async def test_the_events_tab_lists_what_the_workflow_emitted(make_app, emulator) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        await discovered(app, pilot)
        screen = await open_detail(app, pilot, emulator.emulator.demo.order_workflow_id)
        events = screen.query_one("#events", PagedTable)
        await wait_for(pilot, lambda: len(events.rows) == 18, timeout=10)


async def test_a_template_opens_with_its_props_and_is_not_remembered(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        await discovered(app, pilot)
        screen = await open_detail(app, pilot, "tch_8Wd2Kc")
        overview, triggers, steps = (text_of(f) for f in screen.query(Fields)[:3])
        assert "Nightly report" in overview and "workflow template" in overview
        assert "every day at 02:00 (UTC)" in triggers and "timer ($.interface.timer)" in triggers
        assert "fetch_metrics" in steps and "https://reports.example.com/api/v1/metrics/daily" in steps
        assert not screen.query("#errors") and not screen.query("#events")
        assert "tch_8Wd2Kc" not in app.session.known.in_workspace(app.session.org_id)


async def test_an_unknown_workflow_shows_the_error_in_place(make_app) -> None:
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        await discovered(app, pilot)
        app.open_id("p_gone1234")
        await wait_for(
            pilot, lambda: isinstance(app.screen, WorkflowScreen) and bool(app.screen.query(".problem")), timeout=10
        )
        assert "not found" in text_of(app.screen.query_one(".problem", Static))
        assert "p_gone1234" not in app.session.known.in_workspace(app.session.org_id)


async def test_markup_in_a_workflow_name_is_shown_as_text(make_app, emulator) -> None:
    orders = emulator.emulator.store.workflows[emulator.emulator.demo.order_workflow_id]
    orders.name = "[bold red]x[/] \x1b]52;c;aGk=\x07"
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        row = next(r for r in table.rows if r.id == orders.id)
        cell = table.columns[0].render(row).plain
        assert cell.startswith("[bold red]x[/]") and "\x1b" not in cell


async def test_names_come_from_errors_when_the_service_does_not_send_one(make_app, emulator) -> None:
    """The real service's GET /workflows/{id} shows only `{triggers, steps}`: `$errors` carry workflow_name."""
    orders = emulator.emulator.demo.order_workflow_id
    app = make_app(start_pane="workflows")
    client = app.session.client
    real = client.get_workflow

    async def nameless(workflow_id: str):
        return (await real(workflow_id)).model_copy(update={"name": None})

    client.get_workflow = nameless
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        await wait_for(
            pilot, lambda: next(r for r in table.rows if r.id == orders).title == "Validate and forward orders"
        )
        assert app.session.known.in_workspace(app.session.org_id)[orders]["name"] == "Validate and forward orders"
        flaky = next(r for r in table.rows if r.id == workflow_id(emulator, "Flaky partner sync"))
        assert flaky.title is None  # no errors, no name: the row says so
        assert table.cell(flaky.id, "name").plain == "(name not known yet)"


async def test_a_workflow_created_elsewhere_is_listed_and_one_gone_says_so(make_app, emulator) -> None:
    app = make_app(start_pane="workflows")
    org = app.session.org_id
    app.session.known.add(org, workflow_id(emulator, "Validate refunds"), found="created")  # as the forms would
    app.session.known.add(org, "p_gone1234", name="Deleted long ago", found="added")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        refunds = next(r for r in table.rows if r.title == "Validate refunds")
        assert refunds.found == "created" and table.cell(refunds.id, "found").plain == "created here"
        gone = next(r for r in table.rows if r.id == "p_gone1234")
        assert gone.title == "Deleted long ago" and gone.problem == "not found"
        assert table.cell("p_gone1234", "triggers").plain == "✖ not found"
        assert (
            "Could not read 1 workflow (p_gone1234: not found" in app.query_one("#workflows .note", Phrases).text.plain
        )


async def test_after_an_outage_the_pane_looks_again_by_itself(make_app, emulator) -> None:
    """ "Could not read 4 workflows (…: injected fault …)" stayed after the service was back, until r."""
    import httpx

    from aftui.tui import retry

    faults = f"{emulator.root_url}/_emulator/faults"
    app = make_app(start_pane="workflows")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await discovered(app, pilot)
        pane = app.query_one("#workflows", WorkflowsPane)
        httpx.post(faults, json={"path": "/v1/workflows", "method": "GET", "count": 10_000, "status": 503})
        try:
            pane.discover()
            note = lambda: app.query_one("#workflows .note", Phrases).text.plain  # noqa: E731
            await wait_for(pilot, lambda: "Could not read 4 workflows" in note(), timeout=20, says=note)
            assert pane._retry._timer is not None, "a look again is on its way"
            assert re.search(r"trying again in \d+ s · ", note()), note()  # and the note says when
            assert "x forgets one" not in note()  # an outage is no reason to forget them (an on-call walk)
        finally:
            httpx.delete(faults)
        retry.retry_all_now()  # as the App does once the service answers again
        await wait_for(
            pilot,
            lambda: not pane._discovering and all(r.workflow is not None for r in table.rows),
            timeout=20,
            says=note,
        )
        assert "Could not read" not in note() and "trying again" not in note()
