"""Subscriptions from the TUI: create (picked or typed, checked first), delete, auto-subscribe, and the
"send to a webhook" / "route errors to…" forms of a source's and a workflow's detail. Every change is
checked through the API afterwards."""

from __future__ import annotations

import httpx
from textual.widgets import Button, Input, Select
from tui_helpers import inject, wait_for

from aftui.emulator.server import ServerHandle
from aftui.subscriptions import emitter_problem, listener_problem, pair_problems
from aftui.tui.forms.subscription import (
    AutoSubscriptionForm,
    SendToWebhookForm,
    SubscriptionForm,
)
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.screens.subscriptions import SubscriptionScreen
from aftui.tui.screens.workflows import WorkflowScreen
from aftui.tui.widgets.ends import CUSTOM, ChannelPicker, EndPicker, channel_value
from aftui.tui.widgets.paged_table import PagedTable

SIZE = (120, 36)


def by_name(emulator: ServerHandle, table: str, name: str) -> str:
    return next(r.id for r in getattr(emulator.emulator.store, table).values() if r.name == name)


def subs(api: httpx.Client, org: str) -> set[tuple[str, str, str]]:
    data = api.get(f"/orgs/{org}/subscriptions", params={"limit": 100}).json()["data"]
    return {(s["emitter_id"], s["listener_id"], s["event_name"]) for s in data}


def webhooks(api: httpx.Client) -> list[dict]:
    return api.get("/users/me/webhooks", params={"limit": 100}).json()["data"]


async def pane_table(app, pilot) -> PagedTable:
    await wait_for(
        pilot,
        lambda: bool(app.query("#subscriptions PagedTable")) and app.query_one("#subscriptions PagedTable").pager.done,
        15,
    )
    return app.query_one("#subscriptions PagedTable", PagedTable)


async def form_open(app, pilot, kind: type) -> object:
    """The form on top, with its choices loaded (the pickers' selects filled)."""
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and bool(app.screen.query("#submit")), 10)
    form = app.screen
    await wait_for(pilot, lambda: not any(w.is_running for w in form.workers), 15)
    return form


async def open_detail(app, pilot, ident: str, kind: type) -> object:
    """The detail of `ident` (a SourceScreen or a WorkflowScreen) on top, its JSON read."""
    app.open_id(ident)
    await wait_for(pilot, lambda: isinstance(app.screen, kind) and bool(app.screen.query("#json")), 15)
    return app.screen


def error_of(form, row: str) -> str | None:
    found = form.rows()[row]
    return str(found.query_one(".field-error").render()) if found.has_class("-invalid") else None


async def select_row(pilot, table: PagedTable, predicate) -> None:
    await wait_for(pilot, lambda: any(predicate(r) for r in table.rows), 10)
    table.table.focus()
    table.table.move_cursor(row=next(i for i, r in enumerate(table.rows) if predicate(r)))
    await pilot.pause()


# --- the rules, before anything is sent ---------------------------------------------------------------------


def test_the_ends_follow_the_spec() -> None:
    assert emitter_problem("dc_abc123") is None and emitter_problem("p_abc123") is None
    assert emitter_problem("p_*") is None and emitter_problem("dc_*") is None
    assert "listener" in (emitter_problem("wh_abc123") or "")
    assert "template" in (emitter_problem("tch_abc123") or "")
    assert "p_*" in (emitter_problem("x_*") or "")
    assert "required" in (emitter_problem("") or "")
    assert (
        listener_problem("wh_abc123") is None
        and listener_problem("dc_abc") is None
        and listener_problem("p_abc") is None
    )
    assert "glob" in (listener_problem("p_*") or "")
    assert "saved component" in (listener_problem("sc_abc") or "")
    assert "letters and digits" in (listener_problem("p_a b") or "")
    assert "itself" in pair_problems("dc_a1", "dc_a1", "")["listener"]
    assert "sources" in pair_problems("p_a1", "wh_b1", "$logs")["channel"]
    assert pair_problems("dc_a1", "wh_b1", "$logs") == {}
    assert (
        channel_value(CUSTOM, " default ") == ""
        and channel_value(CUSTOM, "orders") == "orders"
        and channel_value("$errors", "x") == "$errors"
    )


# --- create -----------------------------------------------------------------------------------------------------


async def test_create_a_subscription_picked_and_typed(make_app, emulator, info, api: httpx.Client) -> None:
    source = by_name(emulator, "sources", "Order webhooks")
    webhook = by_name(emulator, "webhooks", "Ops intake")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await pane_table(app, pilot)
        before = len(table.rows)
        await pilot.press("n")
        form = await form_open(app, pilot, SubscriptionForm)
        await pilot.press(*source)  # typed into the emitter's id (focused first)
        emitter = form.query_one("#emitter", EndPicker)
        assert emitter.value == source and "Order webhooks" in str(emitter.query_one(".what").render())
        form.query_one("#channel-pick", Select).value = "$errors"
        listener = form.query_one("#listener", EndPicker)
        listener.query_one(Input).value = "wh_nope"  # typed first, then picked instead
        listener.query_one(Input).cursor_position = 3
        listener.query_one(Select).value = webhook  # picked: the id lands in the input
        await pilot.pause()
        assert listener.value == webhook
        # The cursor at its end: typing went into the middle of the id ("wh_MJdY order paid YaA").
        assert listener.query_one(Input).cursor_position == len(webhook)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot, lambda: any("Subscribed" in n.message and "Ops intake" in n.message for n in app._notifications), 15
        )
        assert not isinstance(app.screen, SubscriptionForm)
        await wait_for(pilot, lambda: table.pager.done and len(table.rows) == before + 1, 15)
        # The cursor is on the new one, where `enter` and `d` act: it stayed on the row it was on, by id.
        await wait_for(pilot, lambda: table.current is not None and table.current.listener_id == webhook)
        assert table.current is not None and table.current.emitter_id == source
    assert (source, webhook, "$errors") in subs(api, info["org_id"])


async def test_at_80x24_the_buttons_stay_in_sight_when_problems_are_said(make_app) -> None:
    """Both ends required and the problems counted: the buttons went below the screen, a border's top left."""
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=(80, 24)) as pilot:
        await pane_table(app, pilot)
        await pilot.press("n")
        form = await form_open(app, pilot, SubscriptionForm)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: form.query_one("#problem").has_class("shown"))
        await pilot.pause()
        submit = form.query_one("#submit", Button)
        assert submit.region.bottom <= 24 - 1  # above the footer, whole
        assert form.query_one("#rows").region.bottom <= submit.region.y


async def test_a_custom_channel_and_default_typed_as_a_name(make_app, emulator, info, api: httpx.Client) -> None:
    source = by_name(emulator, "sources", "Order webhooks")
    webhook = by_name(emulator, "webhooks", "Slack #alerts")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        for name in ("orders.paid", "default"):
            app.push_screen(SubscriptionForm(emitter=source, listener=webhook))
            form = await form_open(app, pilot, SubscriptionForm)
            form.query_one("#channel-pick", Select).value = CUSTOM
            await pilot.pause()
            assert form.query_one("#channel-name", Input).display
            form.query_one("#channel-name", Input).value = name
            await pilot.press("ctrl+s")
            await wait_for(pilot, lambda: not isinstance(app.screen, SubscriptionForm), 15)
    made = subs(api, info["org_id"])
    assert (source, webhook, "orders.paid") in made
    assert (source, webhook, "") in made  # "default" is the default channel: no event_name sent


async def test_client_side_checks_beside_each_field(make_app, emulator, info, api: httpx.Client) -> None:
    workflow = by_name(emulator, "workflows", "Validate and forward orders")
    before = subs(api, info["org_id"])
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        app.push_screen(SubscriptionForm(emitter="wh_Wz1RO4W", listener="p_*"))
        form = await form_open(app, pilot, SubscriptionForm)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: form.rows()["emitter"].has_class("-invalid"))
        assert "listener, not an emitter" in (error_of(form, "emitter") or "")
        assert "glob" in (error_of(form, "listener") or "")
        # A custom channel left without its name, then $logs from a workflow.
        form.query_one("#emitter", EndPicker).value = workflow
        form.query_one("#listener", EndPicker).value = "wh_Wz1RO4W"
        form.query_one("#channel-pick", Select).value = CUSTOM
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(error_of(form, "channel")))
        assert "channel's name" in (error_of(form, "channel") or "")
        assert error_of(form, "emitter") is None and error_of(form, "listener") is None
        # The focus is in the name's field, where what is typed next goes (the select let it fall).
        await wait_for(pilot, lambda: app.focused is form.query_one("#channel-name", Input))
        await pilot.press(*"alerts")
        assert form.query_one(ChannelPicker).custom_name == "alerts"
        assert error_of(form, "channel") is None, "typed: the message about the empty name goes"
        form.query_one("#channel-pick", Select).value = "$logs"
        await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "logs produced by sources" in (error_of(form, "channel") or ""))
        assert isinstance(app.screen, SubscriptionForm)
        assert form.query_one("#emitter", EndPicker).value == workflow  # nothing typed is lost
    assert subs(api, info["org_id"]) == before


async def test_server_refusals_land_beside_the_end_or_in_the_box(make_app, emulator, info, api: httpx.Client) -> None:
    before = subs(api, info["org_id"])
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        app.push_screen(SubscriptionForm(emitter="dc_NoSuchOne1", listener="wh_Wz1RO4W"))
        form = await form_open(app, pilot, SubscriptionForm)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: bool(error_of(form, "emitter")), 15)
        assert "dc_NoSuchOne1 not found" in (error_of(form, "emitter") or "")
        # The service fails (an injected 400 naming no field): the message in the box, the form kept.
        form.query_one("#emitter", EndPicker).value = "dc_*"
        await pilot.pause()
        assert error_of(form, "emitter") is None, "another emitter: the refusal of the last one is gone"
        inject(emulator, {"path": "/v1/subscriptions", "method": "POST", "status": 400, "count": 1})
        await pilot.press("ctrl+s")
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert "injected fault" in str(box.render())
        assert form.query_one("#listener", EndPicker).value == "wh_Wz1RO4W"
        await pilot.press("ctrl+s")  # the fault has passed
        await wait_for(pilot, lambda: not isinstance(app.screen, SubscriptionForm), 15)
    assert subs(api, info["org_id"]) - before == {("dc_*", "wh_Wz1RO4W", "")}


# --- delete ----------------------------------------------------------------------------------------------------------


async def test_delete_a_default_channel_subscription_from_the_pane(make_app, emulator, info, api: httpx.Client) -> None:
    """The default channel is deleted with `event_name=` sent empty (the emulator refuses a DELETE without it)."""
    stripe = by_name(emulator, "sources", "Stripe payments")
    relay = by_name(emulator, "webhooks", "Relay to inbox")
    assert (stripe, relay, "") in subs(api, info["org_id"])
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await pane_table(app, pilot)
        await select_row(pilot, table, lambda s: (s.emitter_id, s.listener_id) == (stripe, relay))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        what = str(app.screen.query_one(".what").render())
        assert "Stripe payments" in what and "Relay to inbox" in what and "default channel" in what
        await pilot.press("escape")  # no: nothing happens
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert (stripe, relay, "") in subs(api, info["org_id"])
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: all((s.emitter_id, s.listener_id) != (stripe, relay) for s in table.rows), 15)
    assert (stripe, relay, "") not in subs(api, info["org_id"])


async def test_delete_an_errors_subscription_from_its_detail(make_app, emulator, info, api: httpx.Client) -> None:
    sub = next(
        s
        for s in emulator.emulator.store.subscriptions.values()
        if s.event_name == "$errors" and s.emitter_id.startswith("p_") and s.emitter_id != "p_*"
    )
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        app.open_id(sub.id)
        await wait_for(pilot, lambda: isinstance(app.screen, SubscriptionScreen) and app.screen.record is not None, 15)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        assert "$errors" in str(app.screen.query_one(".what").render())
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: not isinstance(app.screen, (ConfirmScreen, SubscriptionScreen)), 15)
    assert (sub.emitter_id, sub.listener_id, "$errors") not in subs(api, info["org_id"])


# --- auto-subscriptions -------------------------------------------------------------------------------------------


async def test_auto_subscription_reaches_only_what_is_created_later(
    make_app, emulator, info, api: httpx.Client
) -> None:
    webhook = by_name(emulator, "webhooks", "Ops intake")
    existing = by_name(emulator, "sources", "Order webhooks")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        await pilot.press("A")
        form = await form_open(app, pilot, AutoSubscriptionForm)
        assert "only to sources and workflows created after" in str(form.query_one("#form-note").render())
        form.query_one("#channel", Select).value = "$logs"
        await pilot.press(*webhook)
        await pilot.press("ctrl+s")
        await wait_for(
            pilot,
            lambda: any("Auto-subscribed" in n.message and "from now on" in n.message for n in app._notifications),
            15,
        )
        assert not isinstance(app.screen, AutoSubscriptionForm)
    component = api.get(f"/sources/{existing}").json()["data"]["component_id"]
    code = api.get(f"/components/{component}").json()["data"]["code"]
    made = api.post("/sources/", json={"component_code": code, "name": "Made after", "org_id": info["org_id"]})
    assert made.status_code == 200, made.text
    new = made.json()["data"]["id"]
    now = subs(api, info["org_id"])
    assert (new, webhook, "$logs") in now
    assert (existing, webhook, "$logs") not in now


async def test_auto_subscription_checks_the_listener(make_app, api: httpx.Client) -> None:
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        app.push_screen(AutoSubscriptionForm())
        form = await form_open(app, pilot, AutoSubscriptionForm)
        await pilot.press(*"dc_*")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "glob" in (error_of(form, "listener") or ""))
        form.query_one("#listener", EndPicker).value = "wh_NoSuchHook"
        await pilot.press("ctrl+s")  # the service's 404 names no param: the box says it
        await wait_for(pilot, lambda: form.query_one("#problem").has_class("shown"), 15)
        assert "wh_NoSuchHook" in str(form.query_one("#problem").render())


# --- from a detail: send to a webhook, route errors ---------------------------------------------------------------


async def test_send_a_source_to_a_new_webhook(make_app, emulator, info, api: httpx.Client) -> None:
    source = by_name(emulator, "sources", "Orders sheet")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await open_detail(app, pilot, source, SourceScreen)
        await pilot.press("w")
        form = await form_open(app, pilot, SendToWebhookForm)
        assert "Orders sheet" in str(form.query_one("#form-title").render())
        await pilot.press(*"ftp://x.example")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "http" in (error_of(form, "url") or ""))
        form.query_one("#url", Input).value = "https://sheets-sink.example.com/in"
        form.query_one("#name", Input).value = "Sheets sink"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SendToWebhookForm), 15)
    made = [w for w in webhooks(api) if w["url"] == "https://sheets-sink.example.com/in"]
    assert [w["name"] for w in made] == ["Sheets sink"]
    assert (source, made[0]["id"], "") in subs(api, info["org_id"])


async def test_send_to_an_existing_webhook_on_a_channel(make_app, emulator, info, api: httpx.Client) -> None:
    workflow = by_name(emulator, "workflows", "Validate and forward orders")
    webhook = by_name(emulator, "webhooks", "Slack #alerts")
    count = len(webhooks(api))
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await open_detail(app, pilot, workflow, WorkflowScreen)
        await pilot.press("w")
        form = await form_open(app, pilot, SendToWebhookForm)
        form.query_one("#webhook", Select).value = webhook
        await pilot.pause()
        assert not form.rows()["url"].display  # no URL to give for an existing webhook
        form.query_one("#channel-pick", Select).value = "$errors"
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SendToWebhookForm), 15)
    assert (workflow, webhook, "$errors") in subs(api, info["org_id"])
    assert len(webhooks(api)) == count


async def test_a_failed_subscribe_after_creating_the_webhook_does_not_make_another(
    make_app, emulator, info, api: httpx.Client
) -> None:
    source = by_name(emulator, "sources", "Orders sheet")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await open_detail(app, pilot, source, SourceScreen)
        await pilot.press("w")
        form = await form_open(app, pilot, SendToWebhookForm)
        form.query_one("#url", Input).value = "https://once.example.com/"
        inject(emulator, {"path": "/v1/subscriptions", "method": "POST", "status": 400, "count": 1})
        await pilot.press("ctrl+s")
        box = form.query_one("#problem")
        await wait_for(pilot, lambda: box.has_class("shown"), 15)
        assert "Created webhook" in str(box.render()) and "injected fault" in str(box.render())
        assert form.query_one("#webhook", Select).value == form.created.id
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SendToWebhookForm), 15)
    made = [w for w in webhooks(api) if w["url"] == "https://once.example.com/"]
    assert len(made) == 1
    assert (source, made[0]["id"], "") in subs(api, info["org_id"])


async def test_route_a_workflows_errors_to_a_listener(make_app, emulator, info, api: httpx.Client) -> None:
    workflow = by_name(emulator, "workflows", "Validate and forward orders")
    handler = by_name(emulator, "workflows", "Acknowledge and relay webhooks")
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await open_detail(app, pilot, workflow, WorkflowScreen)
        await pilot.press("E")
        form = await form_open(app, pilot, SubscriptionForm)
        assert "Route errors of" in str(form.query_one("#form-title").render())
        assert not form.query(ChannelPicker)  # the channel is fixed: $errors
        await pilot.press(*workflow)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: "itself" in (error_of(form, "listener") or ""))
        form.query_one("#listener", EndPicker).value = handler
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, SubscriptionForm), 15)
    assert (workflow, handler, "$errors") in subs(api, info["org_id"])


# --- read-only -------------------------------------------------------------------------------------------------------


async def test_read_only_disables_every_subscription_change(make_app, emulator, info, api: httpx.Client) -> None:
    before = subs(api, info["org_id"])
    source = by_name(emulator, "sources", "Orders sheet")
    app = make_app(start_pane="subscriptions")
    app.session.client.read_only = True
    async with app.run_test(size=SIZE) as pilot:
        await pane_table(app, pilot)
        pane = app.query_one("#subscriptions")
        assert all(pane.check_action(a, ()) is None for a in ("new", "delete", "auto"))
        await pilot.press("n")
        # The refusal is said by a notification a message hop later: wait for it, not for one pause.
        await wait_for(pilot, lambda: any("read-only" in n.message for n in app._notifications))
        assert not isinstance(app.screen, SubscriptionForm)
        detail = await open_detail(app, pilot, source, SourceScreen)
        assert detail.check_action("send_to_webhook", ()) is None and detail.check_action("route_errors", ()) is None
        await pilot.press("w")
        await pilot.pause()
        assert app.screen is detail
        app.push_screen(SubscriptionForm(emitter=source, listener="wh_Wz1RO4W"))
        form = await form_open(app, pilot, SubscriptionForm)
        assert form.query_one("#submit", Button).disabled
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, SubscriptionForm)
    assert subs(api, info["org_id"]) == before


async def test_a_refused_delete_says_the_servers_message_and_keeps_the_row(
    make_app, emulator, info, api: httpx.Client
) -> None:
    stripe = by_name(emulator, "sources", "Stripe payments")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await pane_table(app, pilot)
        await select_row(pilot, table, lambda s: s.emitter_id == stripe)
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        inject(emulator, {"path": "/v1/subscriptions", "method": "DELETE", "status": 400, "count": 1})
        app.screen.query_one("#yes", Button).press()
        await wait_for(pilot, lambda: any("injected fault" in n.message for n in app._notifications), 15)
        assert any(s.emitter_id == stripe for s in table.rows)
    assert any(e == stripe for e, _, _ in subs(api, info["org_id"]))


async def test_deleting_a_subscription_someone_else_deleted_takes_its_row_away_and_says_so(
    make_app, emulator, info, api: httpx.Client
) -> None:
    """Deleted from the CLI meanwhile: `d y` said "The service said no subscription …" in red, and the row stayed."""
    stripe = by_name(emulator, "sources", "Stripe payments")
    relay = by_name(emulator, "webhooks", "Relay to inbox")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await pane_table(app, pilot)
        await select_row(pilot, table, lambda s: (s.emitter_id, s.listener_id) == (stripe, relay))
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen), 15)
        what = str(app.screen.query_one(".what").render())
        assert "Stripe payments" in what and "Relay to inbox" in what
        # Deleted behind the list's back while the question is open: the one asked about is fixed by now.
        gone = api.delete("/subscriptions", params={"emitter_id": stripe, "listener_id": relay, "event_name": ""})
        assert gone.is_success, gone.text
        app.screen.query_one("#yes", Button).press()
        # The list may be read again (the row gone) before the service's answer is said: wait for both.
        await wait_for(pilot, lambda: any("already deleted" in n.message for n in app._notifications), 15)
        await wait_for(pilot, lambda: all((s.emitter_id, s.listener_id) != (stripe, relay) for s in table.rows), 15)
        assert not any(n.severity == "error" for n in app._notifications)
