"""Workflows switched on and off from the pane and the detail; checked through the API afterwards."""

from __future__ import annotations

import httpx
from textual.widgets import Button
from tui_helpers import inject, wait_for

from aftui.emulator.server import ServerHandle
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.workflows import KnownTable, WorkflowScreen, WorkflowsPane

SIZE = (120, 36)


def workflow_id(emulator: ServerHandle, name: str) -> str:
    return next(w.id for w in emulator.emulator.store.workflows.values() if w.name == name)


def active(api: httpx.Client, ident: str) -> bool:
    return api.get(f"/workflows/{ident}").json()["active"]  # GET /workflows/{id} is not wrapped in data (spec)


async def known_table(app, pilot) -> KnownTable:
    await wait_for(pilot, lambda: bool(app.query("#workflows KnownTable")), 10)
    pane = app.query_one("#workflows", WorkflowsPane)
    table = pane.query_one(KnownTable)
    await wait_for(
        pilot,
        lambda: not pane._discovering and bool(table.rows) and all(r.workflow or r.problem for r in table.rows),
        15,
    )
    return table


async def select(pilot, table: KnownTable, ident: str) -> None:
    await wait_for(pilot, lambda: any(r.id == ident for r in table.rows), 10)
    table.table.focus()
    table.table.move_cursor(row=next(i for i, r in enumerate(table.rows) if r.id == ident))
    await pilot.pause()


def shown_active(table: KnownTable, ident: str) -> bool | None:
    row = next((r for r in table.rows if r.id == ident), None)
    return row.workflow.active if row is not None and row.workflow is not None else None


async def open_detail(app, pilot, ident: str) -> WorkflowScreen:
    app.open_id(ident)
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, WorkflowScreen) and app.screen.ident == ident and bool(app.screen.query("#json"))
        ),
        15,
    )
    return app.screen


async def test_activate_from_the_pane_then_deactivate_after_asking(make_app, emulator, info, api: httpx.Client) -> None:
    ident = workflow_id(emulator, "Validate refunds")
    assert active(api, ident) is False
    app = make_app(start_pane="workflows")
    app.session.known.add(info["org_id"], ident, found="added")  # not in any subscription: known as if added
    async with app.run_test(size=SIZE) as pilot:
        table = await known_table(app, pilot)
        await select(pilot, table, ident)
        await pilot.press("t")
        await wait_for(
            pilot, lambda: any("Activated workflow Validate refunds" in n.message for n in app._notifications), 15
        )
        await wait_for(pilot, lambda: shown_active(table, ident) is True, 15)
        assert active(api, ident) is True
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        question = app.screen
        assert "nothing is deleted" in str(question.query_one(".what").render())
        await pilot.press("escape")  # kept as it is
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert active(api, ident) is True
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: shown_active(table, ident) is False, 15)
    assert active(api, ident) is False


async def test_deactivate_from_the_detail_updates_it_and_the_pane(make_app, emulator, api: httpx.Client) -> None:
    ident = workflow_id(emulator, "Validate and forward orders")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        table = await known_table(app, pilot)
        detail = await open_detail(app, pilot, ident)
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        app.screen.query_one("#yes", Button).press()
        await wait_for(
            pilot,
            lambda: (
                app.screen is detail
                and detail.record is not None
                and detail.record.active is False
                and bool(detail.query("#json"))
            ),
            15,
        )
        assert shown_active(table, ident) is False  # the pane behind learned it too
    assert active(api, ident) is False


async def test_a_refusal_shows_the_servers_message_and_changes_nothing(make_app, emulator, api: httpx.Client) -> None:
    ident = workflow_id(emulator, "Validate refunds")
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        await known_table(app, pilot)
        detail = await open_detail(app, pilot, ident)
        inject(emulator, {"path": f"/v1/workflows/{ident}", "method": "PUT", "status": 400, "count": 1})
        await pilot.press("t")
        await wait_for(pilot, lambda: any("injected fault" in n.message for n in app._notifications), 15)
        assert app.screen is detail
    assert active(api, ident) is False


async def test_a_template_has_no_changes(make_app, emulator) -> None:
    template = next(iter(emulator.emulator.store.templates))
    app = make_app(start_pane="workflows")
    async with app.run_test(size=SIZE) as pilot:
        detail = await open_detail(app, pilot, template)
        assert all(detail.check_action(a, ()) is False for a in ("toggle_active", "send_to_webhook", "route_errors"))


async def test_read_only_dims_on_off_and_says_why(make_app, emulator, api: httpx.Client) -> None:
    ident = workflow_id(emulator, "Validate and forward orders")
    app = make_app(start_pane="workflows")
    app.session.client.read_only = True
    async with app.run_test(size=SIZE) as pilot:
        table = await known_table(app, pilot)
        pane = app.query_one("#workflows", WorkflowsPane)
        assert pane.check_action("toggle_active", ()) is None
        await select(pilot, table, ident)
        await pilot.press("t")
        await wait_for(pilot, lambda: any("read-only" in n.message for n in app._notifications))
        assert not isinstance(app.screen, ConfirmScreen)
        detail = await open_detail(app, pilot, ident)
        assert detail.check_action("toggle_active", ()) is None
    assert active(api, ident) is True


async def test_an_oauth_token_is_told_a_user_key_is_needed(make_app, emulator, info, api: httpx.Client) -> None:
    """PUT /workflows/{id} takes user API keys only: with a workspace OAuth token aftui says so and sends nothing."""
    from aftui.api import Client

    ident = workflow_id(emulator, "Validate refunds")
    app = make_app(start_pane="workflows")
    old = app.session.client
    app.session.client = Client(
        emulator.base_url,
        client_id=info["oauth_client_id"],
        client_secret=info["oauth_client_secret"],
        org_id=info["org_id"],
    )
    async with app.run_test(size=SIZE) as pilot:
        await open_detail(app, pilot, ident)
        await pilot.press("t")
        await wait_for(pilot, lambda: any("needs a user API key" in n.message for n in app._notifications), 15)
        assert not isinstance(app.screen, ConfirmScreen)
    await app.session.client.aclose()
    await old.aclose()
    assert active(api, ident) is False
