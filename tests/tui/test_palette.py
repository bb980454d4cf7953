"""The palette finds what aftui has listed or knows by name, and acts on it."""

from __future__ import annotations

from textual.command import CommandList
from tui_helpers import palette_search, wait_for

from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.palette_items import resource_actions
from aftui.tui.screens.accounts import AccountScreen
from aftui.tui.screens.replay_errors import ErrorsTable
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.screens.webhooks import WebhookScreen
from aftui.tui.screens.workflows import WorkflowScreen


async def palette(pilot, text: str) -> None:
    """Open the palette, type `text` and take the best hit."""
    await palette_search(pilot, *text)
    await pilot.press("enter")


def titles(app) -> list[str]:
    return [a.title for a in resource_actions(app)]


async def test_the_palette_opens_and_acts_on_sources_workflows_webhooks_and_accounts_by_name(
    make_app, emulator
) -> None:
    store = emulator.emulator.store
    source = next(s for s in store.sources.values() if s.name == "Stripe payments (EU)")
    workflow = store.workflows[emulator.emulator.demo.order_workflow_id]
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: any(t.startswith("Open source ") for t in titles(app)), timeout=10)
        assert {"Open source Stripe payments (EU)", "Deactivate source Stripe payments (EU)"} <= set(titles(app))
        assert "Monitor source Stripe payments (EU)" in titles(app)

        await palette(pilot, "Open source Stripe payments (EU)")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and app.screen.ident == source.id)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SourceScreen))

        await palette(pilot, "Deactivate source Stripe payments (EU)")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))  # asks first, as `t` does
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        assert store.sources[source.id].active

        await pilot.press("3")  # the workflows aftui knows, found in subscriptions
        tab = f"Errors of workflow {workflow.name}"
        await wait_for(pilot, lambda: any(t.startswith(tab) for t in titles(app)), timeout=10)
        await palette(pilot, next(t for t in titles(app) if t.startswith(tab)))  # its Errors tab, as Health opens it
        await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen) and bool(app.screen.query("ErrorsTable")))
        assert app.screen.ident == workflow.id
        await wait_for(pilot, lambda: app.screen.query_one(ErrorsTable).table.has_focus)  # on the tab, ready
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, WorkflowScreen))
        await palette(pilot, f"Open workflow {workflow.name}")
        await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen) and app.screen.ident == workflow.id)
        await pilot.press("escape")

        # The pane has read the workflow's state: the entry says which way it turns, and does that.
        await wait_for(pilot, lambda: f"Deactivate workflow {workflow.name}" in titles(app), timeout=10)
        await palette(pilot, f"Deactivate workflow {workflow.name}")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: not workflow.active and f"Activate workflow {workflow.name}" in titles(app))

        await pilot.press("4")
        await wait_for(pilot, lambda: any(t.startswith("Open webhook ") for t in titles(app)), timeout=10)
        webhook = next(t for t in titles(app) if t.startswith("Open webhook "))
        await palette(pilot, webhook)
        await wait_for(pilot, lambda: isinstance(app.screen, WebhookScreen))
        await pilot.press("escape")

        await pilot.press("8")
        await wait_for(pilot, lambda: any(t.startswith("Open account ") for t in titles(app)), timeout=10)
        account = next(t for t in titles(app) if t.startswith("Open account "))
        await palette(pilot, account)
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen))


async def test_the_palette_finds_connect_users_once_listed(make_app) -> None:
    app = make_app(start_pane="connect")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: any(t.startswith("Open Connect user ") for t in titles(app)), timeout=15)
        user = next(t for t in titles(app) if t.startswith("Open Connect user "))
        await palette(pilot, user)
        await wait_for(pilot, lambda: type(app.screen).__name__ == "EndUserScreen")
        assert app.screen.ident == user.removeprefix("Open Connect user ")


async def test_the_palette_switches_to_the_users_other_workspaces_not_to_the_one_shown(make_app) -> None:
    from aftui.tui.commands import AftuiCommands

    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.session.user is not None, timeout=15)
        orgs = {o.id: o.name for o in app.session.user.orgs}
        switches = [t for t, _, _ in AftuiCommands(app.screen)._commands() if t.startswith("Switch workspace: ")]
        shown = orgs.pop(app.session.client.org_id)
        assert orgs and switches == [f"Switch workspace: {name}" for name in orgs.values()], (shown, switches)


async def test_a_name_with_markup_is_shown_as_it_is_in_the_palette(make_app, emulator) -> None:
    """Names are the service's: "[bold red]ALERT[/]" is drawn with its brackets, not as red "ALERT"."""
    store = emulator.emulator.store
    source = next(s for s in store.sources.values() if s.name == "Partner ping")
    source.name = "[bold red]ALERT[/] ping"
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "Open source [bold red]ALERT[/] ping" in titles(app), timeout=10)
        await palette_search(pilot, *"ALERT")
        prompts = [str(option.prompt) for option in app.screen.query_one(CommandList)._options]
        assert any("Open source [bold red]ALERT[/] ping" in p for p in prompts), prompts


async def test_an_enter_typed_with_the_search_acts_on_that_searchs_first_match(make_app, emulator) -> None:
    """`:order webhooks⏎` sent at once ran Textual's "Keys" command: the enter took the list of the first
    letters' matches, the search for the whole text still running."""
    from test_keys import terminal_types

    source = next(s for s in emulator.emulator.store.sources.values() if s.name == "Stripe payments (EU)")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: "Open source Stripe payments (EU)" in titles(app), timeout=10)
        terminal_types(app, ":Open source Stripe payments (EU)\r")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), timeout=10, says=lambda: app.screen)
        assert app.screen.ident == source.id


async def test_the_sources_health_reports_on_are_found_before_the_sources_pane_lists_them(make_app, emulator) -> None:
    """At start only Health is shown: `:order webhooks` found the workflows with "webhooks" in their name, and
    enter deactivated one (after asking), not the source it named."""
    from aftui.tui.screens.health import HealthPane

    inbox = next(s for s in emulator.emulator.store.sources.values() if s.name == "Order webhooks")
    app = make_app(start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query(HealthPane)) and bool(app.query_one(HealthPane).rows), timeout=20)
        assert "Open source Order webhooks" in titles(app)
        assert "Deactivate source Order webhooks" not in titles(app)  # the pane's own, once it has listed it
        await palette(pilot, "order webhooks")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen), timeout=10, says=lambda: app.screen)
        assert app.screen.ident == inbox.id


async def test_replay_in_the_palette_opens_the_errors_of_the_workflow_failing_most(make_app, emulator) -> None:
    """ "replay" found nothing (an on-call walk): it finds each workflow's Errors tab, where y and R replay, the
    failing ones first, so `:replay` enter opens the one Health puts on top whatever order aftui learned them in."""
    demo = emulator.emulator.demo
    app = make_app(start_pane="health")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: app.health is not None and app.health.counted, timeout=20)
        await wait_for(pilot, lambda: len(app.session.known.names_in(app.session.org_id or "")) > 1, timeout=10)
        known = app.session.known
        org = app.session.org_id or ""
        name = known.names_in(org)[demo.order_workflow_id]
        known.forget(org, demo.order_workflow_id)  # learned last: first only by what Health says of it
        known.add(org, demo.order_workflow_id, name=name, found="test")
        assert list(known.names_in(org))[-1] == demo.order_workflow_id
        # Only those with errors say "replay them": one with none offered nothing to replay (a walk).
        assert f"Errors of workflow {name}: replay them" in titles(app)
        assert "Errors of workflow GitHub issues to Slack" in titles(app)
        await palette(pilot, "replay")
        await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen))
        assert app.screen.ident == demo.order_workflow_id
        await wait_for(pilot, lambda: app.screen.query_one(ErrorsTable).table.has_focus)
