"""Webhooks and Subscriptions: the lists, their details, opening the ends, and hostile names."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from rich.text import Text
from textual.widgets import OptionList, Static, TabbedContent
from tui_helpers import palette_search
from tui_helpers import wait_for as _wait_for

from aftui.masking import url_secrets_masked
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.screens.subscriptions import SubscriptionScreen, SubscriptionsPane
from aftui.tui.screens.webhooks import WebhookScreen, WebhooksPane
from aftui.tui.widgets.fields import Fields
from aftui.tui.widgets.json_view import JsonView
from aftui.tui.widgets.paged_table import PagedTable

SIZE = (120, 36)


async def wait_for(pilot, predicate, timeout: float = 15.0) -> None:
    """As tui_helpers', with room for a machine busy running other suites."""
    await _wait_for(pilot, predicate, timeout)


# --- helpers ----------------------------------------------------------------------------------------------


async def _pane_table(app, pilot, pane_id: str) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query(f"#{pane_id} PagedTable")) and app.query_one(f"#{pane_id} PagedTable").pager.done
    )
    table = app.query_one(f"#{pane_id} PagedTable", PagedTable)
    await wait_for(pilot, lambda: table.table.row_count == len(table.rows))
    return table


def _cells(table: PagedTable, column: str) -> list[str]:
    return [table.cell(table.item_id(row), column).plain for row in table.rows]


async def _choose(pilot, table: PagedTable, predicate) -> Any:
    """Move the cursor to the first row matching `predicate` and press enter."""
    index = next(i for i, row in enumerate(table.rows) if predicate(row))
    table.table.focus()
    table.table.move_cursor(row=index)
    await pilot.pause()
    await pilot.press("enter")
    return table.rows[index]


def _fields_text(screen) -> str:
    """What the detail's field columns say, as plain text."""
    out = []
    for fields in screen.query(Fields):
        for column in fields.content.columns:
            out.extend(cell.plain if isinstance(cell, Text) else str(cell) for cell in column.cells)
    return "\n".join(out)


async def _detail(app, pilot, kind: type, ident: str | None = None) -> DetailScreen:
    await wait_for(
        pilot,
        lambda: (
            isinstance(app.screen, kind)
            and (ident is None or app.screen.ident == ident)
            and bool(app.screen.query(TabbedContent))
        ),
    )
    await pilot.pause()
    return app.screen


def _store(emulator):
    return emulator.emulator.store


def _source_named(emulator, name: str):
    return next(s for s in _store(emulator).sources.values() if s.name == name)


def _webhook_named(emulator, name: str):
    return next(w for w in _store(emulator).webhooks.values() if w.name == name)


async def _palette_open(app, pilot, ident: str) -> None:
    await palette_search(pilot, *ident)
    await pilot.press("enter")


SLACK_TOKEN = "9fQk2LxVb7TzR1mWc3YhN8sD"  # the demo's Slack webhook's


# --- webhooks ----------------------------------------------------------------------------------------------


async def test_webhooks_pane_lists_the_demo_webhooks(make_app, emulator) -> None:
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "webhooks")
        names = set(_cells(table, "name"))
        assert names == {"Relay to inbox", "Error audit", "Slack #alerts", "Ops intake"}
        # The Slack URL's token is masked: whoever holds the URL can post to the channel.
        assert "https://hooks.slack.example/services/T04B1N2KX/B06QJ7R2M1L/9fQk…sD" in _cells(table, "url")
        assert not any(SLACK_TOKEN in cell for cell in _cells(table, "url"))
        assert set(_cells(table, "active")) == {"yes"}
        assert "4 of 4" in str(table.query_one(".status", Static).render())
        # The records do not name their workspace: the pane says it shows every one.
        title = app.query_one("#webhooks-title", Static).render()
        assert "all your workspaces" in str(title)
        assert not app.query_one(WebhooksPane).has_class("empty")


async def test_webhook_detail_shows_its_fields_and_the_subscriptions_that_feed_it(make_app, emulator) -> None:
    relay = _webhook_named(emulator, "Relay to inbox")
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "webhooks")
        await _choose(pilot, table, lambda w: w.id == relay.id)
        screen = await _detail(app, pilot, WebhookScreen, relay.id)
        text = _fields_text(screen)
        for expected in (
            relay.id,
            "Relay to inbox",
            "Loops events back into the Webhook inbox source",
            url_secrets_masked(relay.url),  # its path holds the inbox source's endpoint key
            "yes",
            "2026-",
            "the API cannot change a webhook: add one",  # where a user looks for an edit key
        ):
            assert expected in text, expected
        # Its esc is its own (before the Fed by filter's), and said in the footer as every detail's is.
        assert any(a.binding.key == "escape" and a.binding.show for a in screen.active_bindings.values())

        screen.query_one(TabbedContent).active = screen.query_one(TabbedContent).query("TabPane")[1].id
        fed = screen.query_one("#fed-by", PagedTable)
        await wait_for(pilot, lambda: fed.pager.done and fed.table.row_count == 3)
        emitters = _cells(fed, "emitter")
        # Emitters are named: sources via GET /sources/{id}, workflows via GET /workflows/{id}.
        assert any(e.startswith("source Stripe payments (dc_") for e in emitters), emitters
        assert any(e.startswith("workflow Validate and forward orders (p_") for e in emitters), emitters
        assert any(e.startswith("source Heartbeat every 5 minutes") for e in emitters), emitters
        assert sorted(_cells(fed, "channel")) == ["$logs", "default", "default"]
        assert "3 subscriptions" in str(screen.query_one("#fed-note", Static).render())

        # enter on a row opens its emitter (here a source) through app.open_id.
        stripe = _source_named(emulator, "Stripe payments")
        await _choose(pilot, fed, lambda s: s.emitter_id == stripe.id)
        await _detail(app, pilot, SourceScreen, stripe.id)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookScreen))


async def test_a_webhook_nobody_subscribed_says_so(make_app, emulator) -> None:
    intake = _webhook_named(emulator, "Ops intake")
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "webhooks")
        await _palette_open(app, pilot, intake.id)
        screen = await _detail(app, pilot, WebhookScreen, intake.id)
        fed = screen.query_one("#fed-by", PagedTable)
        await wait_for(pilot, lambda: fed.pager.done)
        note = str(screen.query_one("#fed-note", Static).render())
        assert "No subscription" in note and "receives nothing" in note and "Subscriptions pane: 5, then n" in note


async def test_palette_opens_a_webhook_by_id(make_app, emulator) -> None:
    slack = _webhook_named(emulator, "Slack #alerts")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "sources")
        await _palette_open(app, pilot, slack.id)
        screen = await _detail(app, pilot, WebhookScreen, slack.id)
        # Found by walking GET /users/me/webhooks: there is no GET /webhooks/{id}.
        assert screen.record.name == "Slack #alerts"
        shown = _fields_text(screen)
        assert "services/T04B1N2KX/B06QJ7R2M1L/9fQk…sD" in shown and "v shows it whole" in shown
        assert SLACK_TOKEN not in shown
        assert SLACK_TOKEN not in screen.query_one(JsonView).json_text()  # the JSON tab, and what c copies
        await pilot.press("v")  # asked for: the URL whole, as it must be typed elsewhere
        await pilot.pause()
        assert f"https://hooks.slack.example/services/T04B1N2KX/B06QJ7R2M1L/{SLACK_TOKEN}" in _fields_text(screen)
        await pilot.press("v")
        await pilot.pause()
        assert SLACK_TOKEN not in _fields_text(screen)


async def test_an_unknown_webhook_id_is_said_in_place(make_app) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "sources")
        await _palette_open(app, pilot, "wh_nosuchhook")
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookScreen) and bool(app.screen.query(".problem")))
        problem = str(app.screen.query_one(".problem", Static).render())
        assert "No webhook wh_nosuchhook" in problem


async def test_markup_and_escapes_in_a_webhook_name_render_literally(make_app, emulator, api, info) -> None:
    response = api.post(
        "/webhooks", params={"url": "https://example.com/hook", "name": "[bold]x[/] \x1b[31m", "org_id": info["org_id"]}
    )
    response.raise_for_status()
    hostile = response.json()["data"]["id"]
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "webhooks")
        cell = table.cell(hostile, "name")
        assert isinstance(cell, Text)
        assert "[bold]x[/]" in cell.plain
        assert "\\e[31m" in cell.plain and "\x1b" not in cell.plain
        assert not cell.spans or all(span.style != "bold" for span in cell.spans)
        # The detail and its breadcrumb are as literal.
        await _choose(pilot, table, lambda w: w.id == hostile)
        screen = await _detail(app, pilot, WebhookScreen, hostile)
        text = _fields_text(screen)
        assert "[bold]x[/] \\e[31m" in text
        assert "[bold]x[/]" in str(screen.query_one(".crumbs", Static).render())


# --- subscriptions -----------------------------------------------------------------------------------------


async def test_subscriptions_pane_lists_both_ends_with_kind_and_name(make_app, emulator, info) -> None:
    expected = [s for s in _store(emulator).subscriptions.values() if s.org_id == info["org_id"]]
    order_webhooks = _source_named(emulator, "Order webhooks")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "subscriptions")
        assert len(table.rows) == len(expected) >= 7
        # Source names arrive from a background walk of the workspace's sources.
        await wait_for(
            pilot,
            lambda: any(e.startswith(f"source Order webhooks ({order_webhooks.id}") for e in _cells(table, "emitter")),
        )
        await wait_for(
            pilot, lambda: any(e.startswith("webhook Error audit (wh_") for e in _cells(table, "listener"))
        )  # webhook names: a walk of their own
        emitters, listeners, channels = _cells(table, "emitter"), _cells(table, "listener"), _cells(table, "channel")
        glob = emitters.index("all workflows (p_*)")
        assert channels[glob] == "$errors"
        assert listeners[glob].startswith("webhook Error audit (wh_")
        assert "default" in channels  # an empty channel reads "default"
        assert "$logs" in channels
        assert any(e.startswith("workflow ") for e in emitters)
        assert set(_cells(table, "id")) == {s.id for s in expected}


async def test_subscriptions_filter_on_names_and_channels(make_app, emulator) -> None:
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "subscriptions")
        await pilot.press("slash", *"$errors")
        await wait_for(pilot, lambda: len(table.rows) == 2)
        assert {s.event_name for s in table.rows} == {"$errors"}
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table.rows) >= 7)


async def test_subscription_detail_shows_both_ends_and_e_opens_the_emitter_source(make_app, emulator) -> None:
    source = _source_named(emulator, "Order webhooks")
    sub = next(s for s in _store(emulator).subscriptions.values() if s.emitter_id == source.id)
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "subscriptions")
        await _choose(pilot, table, lambda s: s.id == sub.id)
        screen = await _detail(app, pilot, SubscriptionScreen, sub.id)
        await wait_for(pilot, lambda: "Order webhooks" in _fields_text(screen))
        text = _fields_text(screen)
        assert f"source  Order webhooks  {source.id}" in text
        assert f"workflow  Acknowledge and relay webhooks  {sub.listener_id}" in text
        assert "default" in text and "default channel" in text
        assert "the API cannot change a subscription: add the one you want" in text
        await pilot.press("e")
        await _detail(app, pilot, SourceScreen, source.id)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, SubscriptionScreen))


async def test_enter_on_an_end_opens_it(make_app, emulator) -> None:
    source = _source_named(emulator, "Order webhooks")
    sub = next(s for s in _store(emulator).subscriptions.values() if s.emitter_id == source.id)
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "subscriptions")
        await _palette_open(app, pilot, sub.id)
        screen = await _detail(app, pilot, SubscriptionScreen, sub.id)
        ends = screen.query_one("#ends", OptionList)
        ends.focus()
        ends.highlighted = 0
        await pilot.press("enter")
        await _detail(app, pilot, SourceScreen, source.id)


async def test_an_errors_glob_subscription_explains_its_channel_and_opens_nothing(make_app, emulator) -> None:
    glob = next(s for s in _store(emulator).subscriptions.values() if s.emitter_id == "p_*")
    audit = _webhook_named(emulator, "Error audit")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "sources")
        await _palette_open(app, pilot, glob.id)
        screen = await _detail(app, pilot, SubscriptionScreen, glob.id)
        # Opened by id: found by walking the workspace's subscriptions, both ends named.
        await wait_for(pilot, lambda: "Error audit" in _fields_text(screen))
        text = _fields_text(screen)
        assert "$errors" in text and "workflow errors" in text
        assert "all workflows" in text and "p_*" in text
        assert f"webhook  Error audit  {audit.id}" in text
        await pilot.press("e")
        await pilot.pause(0.2)
        assert app.screen is screen  # a glob is not one resource: a note, no screen
        await pilot.press("l")
        await _detail(app, pilot, WebhookScreen, audit.id)


async def test_a_workspace_without_subscriptions_says_what_to_do(make_app, emulator, info) -> None:
    personal = next(o for o in _store(emulator).orgs.values() if o.name == "Dana's workspace")
    assert not [s for s in _store(emulator).subscriptions.values() if s.org_id == personal.id]
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "subscriptions")
        pane = app.query_one(SubscriptionsPane)
        assert not pane.has_class("empty")
        app.set_workspace(personal.id)  # workspace_changed reloads the pane
        await wait_for(pilot, lambda: pane.has_class("empty") and pane.query_one(PagedTable).pager.done)
        assert pane.query_one(PagedTable).rows == []
        note = str(pane.query_one(".empty", Static).render())
        assert "No subscriptions in this workspace" in note and "POST /subscriptions" in note


async def test_r_reloads_the_subscriptions(make_app, emulator, api, info) -> None:
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "subscriptions")
        before = len(table.rows)
        inbox = _source_named(emulator, "Webhook inbox")
        slack = _webhook_named(emulator, "Slack #alerts")
        api.post(
            "/subscriptions",
            params={"emitter_id": inbox.id, "listener_id": slack.id, "event_name": "alerts", "org_id": info["org_id"]},
        ).raise_for_status()
        table.table.focus()
        await pilot.press("r")
        await wait_for(pilot, lambda: len(table.rows) == before + 1 and table.pager.done)
        await wait_for(pilot, lambda: any(e.startswith("source Webhook inbox") for e in _cells(table, "emitter")))
        assert "alerts" in _cells(table, "channel")


async def test_escape_from_the_fed_by_table_goes_back(make_app, emulator) -> None:
    relay = _webhook_named(emulator, "Relay to inbox")
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _pane_table(app, pilot, "webhooks")
        await _choose(pilot, table, lambda w: w.id == relay.id)
        screen = await _detail(app, pilot, WebhookScreen, relay.id)
        await pilot.press("right_square_bracket", "down")  # down goes from the tab bar into the table
        fed = screen.query_one("#fed-by", PagedTable)
        await wait_for(pilot, lambda: fed.table.has_focus and len(fed.rows) == 3)
        await pilot.press("slash", *"stripe")
        await wait_for(pilot, lambda: len(fed.rows) == 1)
        await pilot.press("escape")  # first the filter
        await wait_for(pilot, lambda: len(fed.rows) == 3)
        assert app.screen is screen
        fed.table.focus()
        await pilot.press("escape")  # then back to the list
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen))


async def test_webhooks_that_name_their_workspace_are_kept_to_the_current_one(make_app, emulator, info) -> None:
    """The spec's record has no workspace; a service that sends `org_id` gets a list scoped to the workspace."""
    from aftui.api.models import Page, Webhook

    mine = {_webhook_named(emulator, "Relay to inbox").id, _webhook_named(emulator, "Error audit").id}
    app = make_app(start_pane="sources")
    client = app.session.client
    real = client.list_webhooks
    owner = {"which": lambda w: info["org_id"] if w.id in mine else "o_elsewhere"}

    async def with_org(**params: Any) -> Page[Webhook]:
        page = await real(**params)
        items = [Webhook.model_validate({**w.model_dump(), "org_id": owner["which"](w)}) for w in page.items]
        return Page[Webhook](items=items, page_info=page.page_info)

    client.list_webhooks = with_org  # type: ignore[method-assign]
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "sources")
        app.show_pane("webhooks")
        table = await _pane_table(app, pilot, "webhooks")
        assert {w.id for w in table.rows} == mine
        assert "this workspace" in str(app.query_one("#webhooks-title", Static).render())

        owner["which"] = lambda w: "o_elsewhere"
        table.table.focus()
        await pilot.press("r")
        pane = app.query_one(WebhooksPane)
        await wait_for(pilot, lambda: pane.has_class("empty") and table.pager.done and not table.rows)
        assert "No webhooks in this workspace" in str(pane.query_one(".empty", Static).render())


async def test_with_a_workspace_oauth_token_webhooks_say_they_need_a_user_key(emulator, info, tmp_path) -> None:
    from aftui.api import Client
    from aftui.known import KnownWorkflows
    from aftui.tui.app import AftuiApp
    from aftui.tui.session import Session
    from aftui.tui.widgets.status import StatusHeader

    client = Client(
        emulator.base_url,
        client_id=info["oauth_client_id"],
        client_secret=info["oauth_client_secret"],
        org_id=info["org_id"],
    )
    session = Session(client=client, profile_name="oauth", known=KnownWorkflows(tmp_path / "known.json"))
    session.now = lambda: datetime(2026, 11, 1, 9, 0, tzinfo=UTC)
    app = AftuiApp(session, start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        # Subscriptions of the token's workspace still list (GET /orgs/{org_id}/subscriptions).
        subs = await _pane_table(app, pilot, "subscriptions")
        assert len(subs.rows) >= 7
        app.show_pane("webhooks")
        await wait_for(
            pilot,
            lambda: (
                bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").has_class("failed")
            ),
        )
        error = str(app.query_one("#webhooks PagedTable .error", Static).render())
        assert "needs a user API key" in error
        assert app.query_one(StatusHeader).connection != "auth"  # not a bad key: no "check your key" state


async def test_a_details_times_say_how_long_ago_as_time_passes_without_a_reload(make_app, emulator) -> None:
    """Drawn once, "Created … (1s ago)" stayed as it was for as long as the detail was open."""
    source = _source_named(emulator, "Order webhooks")
    app = make_app()
    clock = [datetime.fromtimestamp(source.updated_at, UTC) + timedelta(seconds=5)]
    app.session.now = lambda: clock[0]
    async with app.run_test(size=SIZE) as pilot:
        await _pane_table(app, pilot, "sources")
        await _palette_open(app, pilot, source.id)
        screen = await _detail(app, pilot, SourceScreen, source.id)
        overview = screen.query(Fields).first()

        def updated() -> str:
            labels, values = (list(column.cells) for column in overview.content.columns)
            return next(value.plain for label, value in zip(labels, values, strict=True) if label.plain == "Updated")

        assert updated().endswith("(5s ago)")
        clock[0] += timedelta(hours=2)
        await wait_for(pilot, lambda: updated().endswith("(2h ago)"), timeout=5)
        assert screen.built == 1  # not loaded again


async def test_the_workspaces_pane_shows_which_workspace_enter_chooses_and_tab_stays_on_it(make_app) -> None:
    """On arrival no row was highlighted, and tab went to the page around the list, which shows no focus."""
    app = make_app(start_pane="workspaces")
    async with app.run_test(size=SIZE) as pilot:
        await _wait_for(pilot, lambda: bool(app.query("#orgs")) and app.query_one("#orgs", OptionList).option_count > 1)
        orgs = app.query_one("#orgs", OptionList)
        await _wait_for(pilot, lambda: orgs.has_focus)
        assert orgs.highlighted is not None
        assert orgs.get_option_at_index(orgs.highlighted).id == app.session.org_id
        await pilot.press("tab")
        assert app.focused is orgs or app.focused not in app.query("WorkspacesPane *")
