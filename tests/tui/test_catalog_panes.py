"""Connect, Apps, Accounts and Components panes against the demo emulator."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from test_keys import terminal_types
from textual.widgets import DataTable, Input
from tui_helpers import wait_for

from aftui.api import RetryPolicy
from aftui.tui.screens.accounts import AccountScreen, AccountsPane
from aftui.tui.screens.apps import AppScreen
from aftui.tui.screens.components import ComponentScreen, ComponentsPane
from aftui.tui.screens.connect import ConnectPane, EndUserScreen
from aftui.tui.widgets import paged_table
from aftui.tui.widgets.fields import Fields
from aftui.tui.widgets.paged_table import PagedTable
from aftui.tui.widgets.status import StatusHeader


def text_of(renderable: Any, width: int = 160) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def status_of(table: PagedTable) -> str:
    return str(table.query_one(".status").render())


def error_of(table: PagedTable) -> str:
    return text_of(table.query_one(".error").content) if table.has_class("failed") else ""


async def pane_table(app, pilot, pane_id: str) -> PagedTable:
    await wait_for(
        pilot,
        lambda: (
            bool(app.query(f"#{pane_id} PagedTable"))
            and app.query_one(f"#{pane_id} PagedTable").pager.total is not None
        ),
    )
    table = app.query_one(f"#{pane_id} PagedTable", PagedTable)
    await wait_for(pilot, lambda: table.table.has_focus)  # keys go to the list, not the sidebar
    return table


def spy_requests(app) -> list[tuple[str, str, dict]]:
    """Every request the client sends, with its parameters."""
    client = app.session.client
    sent: list[tuple[str, str, dict]] = []
    original = client.request

    async def request(method: str, path: str, **kwargs: Any) -> Any:
        params = {k: v for k, v in (kwargs.get("params") or {}).items() if v is not None}  # what goes on the wire
        sent.append((method, path, params))
        return await original(method, path, **kwargs)

    client.request = request
    return sent


# --- Apps ---------------------------------------------------------------------------------------------


async def test_apps_load_page_by_page_as_the_cursor_goes_down(make_app, monkeypatch) -> None:
    monkeypatch.setattr(paged_table, "PAGE_SIZE", 10)
    monkeypatch.setattr(paged_table, "LOAD_AHEAD", 3)
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "apps")
        assert len(table.rows) == 10
        assert "10 of 41" in status_of(table)
        await pilot.press(*["down"] * 8)
        await wait_for(pilot, lambda: len(table.pager.items) == 20)
        assert "20 of 41" in status_of(table)
        assert len({a.id for a in table.pager.items}) == 20  # the second page, not the first again
        for loaded in (30, 40, 41):  # each trip to the end fetches the next page
            await pilot.press("ctrl+end")
            await wait_for(pilot, lambda loaded=loaded: len(table.rows) == loaded and not table._loading)
        assert table.pager.done
        assert "41 of 41" in status_of(table)


async def test_at_80_columns_apps_and_end_users_lists_cut_their_last_column_and_never_scroll_sideways(
    make_app,
) -> None:
    """Categories were sized to the longest: the table scrolled sideways, "Productivit" cut at the edge
    with no mark that more was out of sight. So were an end user's apps."""
    for pane in ("apps", "connect"):
        app = make_app(start_pane=pane)
        async with app.run_test(size=(80, 24)) as pilot:
            table = await pane_table(app, pilot, pane)
            listed = table.table
            last = table.columns[-1].key
            await wait_for(pilot, lambda listed=listed, last=last: listed.widths.get(last, 0) > 0)
            assert listed.max_scroll_x == 0, pane


async def test_apps_search_asks_the_server_and_clearing_brings_back_the_catalogue(make_app) -> None:
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "apps")
        assert table.pager.total == 41
        await pilot.press("slash", *"git")
        await wait_for(pilot, lambda: table.pager.total == 2 and len(table.rows) == 2)
        assert {a.name_slug for a in table.rows} == {"github", "gitlab"}
        # A word only the description holds: the server's answer is shown, not filtered away again.
        await pilot.press(*["backspace"] * 3, *"open source")
        await wait_for(
            pilot,
            lambda: (
                table.pager._params.get("q") == "open source" and table.pager.total is not None and not table._loading
            ),
        )
        assert "postgresql" in {a.name_slug for a in table.rows}
        assert len(table.rows) == table.pager.total
        await pilot.press("escape")
        await wait_for(pilot, lambda: table.pager.total == 41 and len(table.rows) == 41)


async def test_the_services_first_match_has_the_cursor_once_its_answer_is_in(make_app) -> None:
    """The walk: `/ goo enter enter` opened Google Calendar, the second row: Gmail came in above the cursor."""
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "apps")
        await pilot.press("slash", *"goo", "enter")
        await wait_for(pilot, lambda: table.pager._params.get("q") == "goo" and table.pager.done and not table._loading)
        assert len(table.rows) > 1 and table.current is table.rows[0]
        assert table.current.name_slug == "gmail"


async def test_a_search_that_finds_nothing_says_so_under_the_header_and_esc_brings_the_list_back(make_app) -> None:
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "apps")
        first_line = lambda: table.table.render_line(1).text.strip()  # noqa: E731 - read again after each key
        assert first_line() and "match" not in first_line()
        await pilot.press("slash", *"zzqq")
        await wait_for(pilot, lambda: table.pager.total == 0 and not table._loading)
        await wait_for(pilot, lambda: first_line() == "no apps match “zzqq” · esc clears the filter")
        assert "0 of 0" in status_of(table)
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table.rows) == 41)
        assert "match" not in first_line()


async def test_app_detail_parses_custom_fields_and_lists_its_accounts(make_app) -> None:
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "apps")
        row = next(i for i, a in enumerate(table.rows) if a.name_slug == "postgresql")
        table.table.move_cursor(row=row)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AppScreen) and bool(app.screen.query("#custom-fields")))
        screen = app.screen
        assert [f.name for f in screen.custom_fields] == ["host", "port", "user", "password", "database"]
        password = next(f for f in screen.custom_fields if f.name == "password")
        assert password.type == "password" and password.optional is False
        shown = text_of(screen.query_one("#custom-fields").content)
        for word in ("host", "port", "user", "password", "database", "Optional"):
            assert word in shown
        assert "PostgreSQL" in text_of(screen.query_one(Fields).content)


async def test_app_detail_accounts_tab_lists_the_apps_accounts(make_app, emulator) -> None:
    store = emulator.emulator.store
    gmail = store.app("gmail")
    expected = {a.id for a in store.accounts.values() if a.app_id == gmail["id"] and a.project_id is None}
    assert expected
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        await pane_table(app, pilot, "apps")
        app.open_id(gmail["id"])  # the palette's way: by id
        await wait_for(pilot, lambda: isinstance(app.screen, AppScreen) and bool(app.screen.query("#app-accounts")))
        accounts = app.screen.query_one("#app-accounts", PagedTable)
        await wait_for(pilot, lambda: accounts.pager.total is not None)
        assert {a.id for a in accounts.rows} == expected


async def test_keys_reach_the_list_of_the_pane_just_shown(make_app) -> None:
    app = make_app(start_pane="apps")
    async with app.run_test(size=(120, 36)) as pilot:
        await pane_table(app, pilot, "apps")
        app.show_pane("accounts")
        accounts = await pane_table(app, pilot, "accounts")  # not left on the hidden Apps list
        await pilot.press("slash")
        await wait_for(pilot, lambda: accounts.has_class("filtering"))
        assert not app.query_one("#apps PagedTable").has_class("filtering")


# --- Accounts --------------------------------------------------------------------------------------------


async def test_accounts_filter_by_app_on_the_server_and_by_name_when_no_app_has_it(make_app, emulator) -> None:
    store = emulator.emulator.store
    sheets = store.app("google_sheets")
    expected = {a.id for a in store.accounts.values() if a.app_id == sheets["id"] and a.project_id is None}
    assert expected
    app = make_app(start_pane="accounts")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "accounts")
        assert isinstance(app.query_one("#accounts"), AccountsPane)
        assert "14 of 14" in status_of(table)
        # A slug the app column does not show ("Google Sheets"): the server's rows stay.
        await pilot.press("slash", *"google_sheets")
        await wait_for(
            pilot,
            lambda: (
                table.pager._params.get("app") == "google_sheets"
                and table.pager.total is not None
                and not table._loading
            ),
        )
        assert {a.id for a in table.rows} == expected
        # No app is "live" (the service says 404): no failure, every account again, matched by what it shows.
        await pilot.press(*["backspace"] * len("google_sheets"), *"live")
        await wait_for(pilot, lambda: "no app by that name" in status_of(table) and not table._loading)
        assert [a.name for a in table.rows] == ["Stripe live"] and not table.has_class("failed")
        assert "14 of 14 · 1 match “live”" in status_of(table)
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table.rows) == 14 and not table.has_class("failed"))


async def test_account_detail_from_the_accounts_pane_hides_credentials(make_app) -> None:
    app = make_app(start_pane="accounts")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "accounts")
        sent = spy_requests(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        screen = app.screen
        assert screen.ident == table.rows[0].id and screen.connect is False
        assert "Credentials are hidden" in text_of(screen.query_one(Fields).content)
        assert any(path == f"/accounts/{screen.ident}" for _, path, _ in sent)
        assert not any("include_credentials" in params for _, _, params in sent)
        assert "credentials" not in screen.json_data()
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, AccountScreen))
        app.open_id(table.rows[1].id)  # the palette's way: apn_ opens the management read
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        assert app.screen.ident == table.rows[1].id and app.screen.record.id == table.rows[1].id


# --- Connect ------------------------------------------------------------------------------------------------


async def test_without_a_connect_project_the_pane_offers_no_key_that_needs_one(make_app) -> None:
    app = make_app(start_pane="connect")
    app.session.client.project_id = None
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#connect #project")))
        pane = app.query_one("#connect", ConnectPane)
        await wait_for(pilot, lambda: "no Connect project" in text_of(pane.query_one("#project").content))
        footer = [binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled]
        assert not set(footer) & ConnectPane.NEEDS_PROJECT
        # The note says what to set; a list below saying it again in red, as a failure, was noise.
        assert not pane.query_one(PagedTable).display
        assert app.focused is None, "a hidden list's keys (filter, sort) were offered in the footer"
        await pilot.press("e")  # did switch the environment of nothing
        assert app.session.environment == "production"


async def test_connect_lists_end_users_and_e_switches_the_environment(make_app) -> None:
    app = make_app(start_pane="connect")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "connect")
        assert isinstance(app.query_one("#connect"), ConnectPane)
        assert len(table.rows) == 46 and "46 of 46" in status_of(table)
        first = table.rows[0]
        assert first.count == len(first.accounts)
        # Each account is counted once: healthy, failing (neither healthy nor dead) or dead.
        assert all(u.count == u.healthy + u.failing + u.dead for u in table.rows)
        failing = next(u for u in table.rows if u.failing)
        assert table.cell(failing.external_id, "failing").plain == str(failing.failing)
        project = app.query_one("#connect #project")
        await wait_for(pilot, lambda: "Acme Customer Portal" in text_of(project.content))
        assert "production" in text_of(project.content) and "46 end users" in text_of(project.content)
        sent = spy_requests(app)
        table.table.focus()
        await pilot.press("e")
        await wait_for(pilot, lambda: app.session.environment == "development" and table.pager.total == 14)
        assert len(table.rows) == 14
        assert app.query_one(StatusHeader).environment == "development"
        await wait_for(pilot, lambda: "14 end users" in text_of(project.content))
        # One listing pass (all 24 accounts fit one page), never a request per end user.
        reads = [path for _, path, _ in sent if "/accounts" in path]
        assert len(reads) == 1


async def test_an_end_users_accounts_and_an_account_without_credentials(make_app) -> None:
    app = make_app(start_pane="connect")
    async with app.run_test(size=(120, 36)) as pilot:
        table = await pane_table(app, pilot, "connect")
        row = max(range(len(table.rows)), key=lambda i: table.rows[i].count)
        user = table.rows[row]
        assert user.count > 1
        sent = spy_requests(app)
        table.table.move_cursor(row=row)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EndUserScreen) and bool(app.screen.query("#accounts")))
        accounts = app.screen.query_one("#accounts", PagedTable)
        await wait_for(pilot, lambda: accounts.pager.total is not None and accounts.table.has_focus)
        assert {a.id for a in accounts.rows} == {a.id for a in user.accounts}
        assert {a.external_id for a in accounts.rows} == {user.external_id}
        assert any(params.get("external_user_id") == user.external_id for _, _, params in sent)
        await pilot.press("enter")  # the accounts table has focus
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        screen = app.screen
        assert screen.connect is True and screen.record.external_id == user.external_id
        assert screen.record.app is not None and screen.record.app.name_slug  # Connect's single read: the full app
        assert screen.record.credentials is None
        shown = text_of(screen.query_one(Fields).content)
        assert "Credentials are hidden" in shown and user.external_id in shown and "Dead" in shown
        assert not any("include_credentials" in params for _, _, params in sent)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, EndUserScreen))
        await wait_for(pilot, lambda: accounts.table.has_focus)
        await pilot.press("escape")  # the list has focus and no filter: esc goes back, not swallowed
        await wait_for(pilot, lambda: not isinstance(app.screen, EndUserScreen))
        assert table.current is not None and table.current.external_id == user.external_id


async def test_an_end_users_account_opened_by_id_is_read_through_connect(make_app, emulator, info) -> None:
    """The palette opened one as a workspace account: no environment, no Connect delete."""
    account = next(
        a for a in emulator.emulator.store.accounts.values() if a.external_id and a.environment == "production"
    )
    app = make_app(start_pane="accounts")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#accounts PagedTable")))
        app.open_id(account.id)
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        assert app.screen.connect is True
        shown = text_of(app.screen.query_one(Fields).content)
        assert "Environment" in shown and "Connect" in shown
        await pilot.pause()
        offered = {binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled}
        assert "delete_account" in offered


async def test_an_unhealthy_account_says_where_its_reason_is(make_app, emulator, info, root) -> None:
    account = next(a for a in emulator.emulator.store.accounts.values() if a.external_id is None)
    root.post(f"/_emulator/accounts/{account.id}", json={"healthy": False}).raise_for_status()
    app = make_app(start_pane="accounts")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#accounts PagedTable")))
        app.open_id(account.id)
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        shown = text_of(app.screen.query_one(Fields).content)
        assert "no   why: v fetches the credentials, with the service's error" in shown


async def test_connect_rate_limit_shows_the_message_and_the_wait(make_app, emulator, info) -> None:
    limiter = emulator.emulator.account_reads
    for _ in range(limiter.limit):
        limiter.hit((info["project_id"], "production"))
    app = make_app(start_pane="connect")
    app.session.client.retry = RetryPolicy(attempts=1)  # show the 429 rather than wait it out
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot,
            lambda: bool(app.query("#connect PagedTable")) and app.query_one("#connect PagedTable").has_class("failed"),
        )
        message = error_of(app.query_one("#connect PagedTable", PagedTable))
        assert "Throttled" in message and "100 account reads a minute" in message and "try again in" in message


# --- Components ---------------------------------------------------------------------------------------------


async def components_searching(app, pilot) -> None:
    """The pane comes up on its results (none yet), and `/` goes to the search box."""
    await wait_for(
        pilot, lambda: bool(app.query("#components #results")) and app.query_one("#components #results").has_focus
    )
    await pilot.press("slash")
    await wait_for(pilot, lambda: app.query_one("#components #query").has_focus)


async def test_the_components_pane_never_keeps_the_keyboard_in_a_field(make_app) -> None:
    """Arrived at with its digit, its keys and the next pane's digit work; esc leaves a field it went into."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")))
        await pilot.press("9")
        await wait_for(
            pilot, lambda: bool(app.query("#components #results")) and app.query_one("#components #results").has_focus
        )
        await pilot.press("o", *"abc")
        assert app.query_one("#components #open", Input).value == "abc"
        await pilot.press("escape")
        assert app.query_one("#components #results").has_focus
        await pilot.press("2")
        await wait_for(pilot, lambda: app.query_one("#panes").current == "sources")


async def test_a_word_typed_on_the_components_results_searches_for_it(make_app) -> None:
    """A newcomer typed "slack" on arrival and nothing happened: `/` was the only way into the search."""
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        results = await wait_for_results_focus(app, pilot)
        pane = app.query_one("#components", ComponentsPane)
        terminal_types(app, "slack\r")  # at once, as a terminal reads a word typed fast
        await wait_for(pilot, lambda: bool(pane.results))
        assert pane.searched == "slack" and any("slack" in key for _, key in pane.results)
        results.focus()
        await pilot.press("o")  # a key of the pane is still the key, not a letter of a new search
        assert app.query_one("#components #open", Input).has_focus


async def wait_for_results_focus(app, pilot):
    await wait_for(
        pilot, lambda: bool(app.query("#components #results")) and app.query_one("#components #results").has_focus
    )
    return app.query_one("#components #results")


async def test_back_from_a_component_opened_by_key_the_keys_are_the_lists_again(make_app) -> None:
    """The walk: `o demo-call-url enter esc o stripe-new-payment enter` asked for "demo-call-urlostripe-new-payment"."""
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(
            pilot, lambda: bool(app.query("#components #results")) and app.query_one("#components #results").has_focus
        )
        pane = app.query_one("#components", ComponentsPane)
        await pilot.press("o", *"demo-call-url", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ComponentScreen))
        assert pane.query_one("#results").has_focus
        await pilot.press("o", *"stripe-new-payment", "enter")  # `o` selects the old key: typing replaces it
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen))
        assert app.screen.ident == "stripe-new-payment"
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ComponentScreen))
        await pilot.press("2")  # a pane's digit is not typed into the field
        await wait_for(pilot, lambda: app.query_one("#panes").current == "sources")


async def test_an_action_offers_no_deploy_key(make_app) -> None:
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#components #results")))
        app.push_screen(ComponentScreen("demo-call-url", ("Components", "demo-call-url")))
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen) and app.screen.record is not None)
        await pilot.pause()
        shown = {binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled}
        assert app.screen.record.type == "action" and "deploy" not in shown
        await wait_for(pilot, lambda: bool(app.screen.query(Fields)))
        cells = [
            c.plain if hasattr(c, "plain") else str(c)
            for col in app.screen.query_one(Fields).content.columns
            for c in col.cells
        ]
        assert any("not deployed as a source" in c for c in cells)  # why there is no d
        app.pop_screen()
        app.push_screen(ComponentScreen("stripe-new-payment", ("Components", "stripe-new-payment")))
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen) and app.screen.record is not None)
        await pilot.pause()
        assert "deploy" in {binding.action for (_, binding, enabled, _) in app.active_bindings.values() if enabled}


async def test_component_search_ranks_and_opens_with_its_code(make_app) -> None:
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        await components_searching(app, pilot)
        pane = app.query_one("#components", ComponentsPane)
        await pilot.press(*"new github issue", "enter")
        await wait_for(pilot, lambda: bool(pane.results))
        sources = [key for kind, key in pane.results if kind == "source"]
        assert sources[0] == "github-new-issue"
        assert pane.scores["github-new-issue"] > 0.5
        row = pane.results.index(("source", "github-new-issue"))
        assert row == 0
        # Numbered down the list, sources and actions alike: per type it read "1, 1, 2" as one ranking.
        table = pane.query_one(DataTable)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)] == [
            str(n) for n in range(1, len(pane.results) + 1)
        ]
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen) and bool(app.screen.query("#code")))
        screen = app.screen
        assert screen.record.key == "github-new-issue" and screen.found_in == "public registry"
        code = text_of(screen.query_one("#code").content, width=200)
        assert 'key: "github-new-issue"' in code
        assert "repo" in text_of(screen.query_one(Fields).content) or screen.record.configurable_props


async def test_threshold_steps_by_five_hundredths_and_searches_again(make_app) -> None:
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        await components_searching(app, pilot)
        pane = app.query_one("#components", ComponentsPane)
        await pilot.press(*"new github issue", "enter")
        await wait_for(pilot, lambda: len(pane.results) == 4)
        sent = spy_requests(app)
        await pilot.press("plus", "plus", "plus")  # 0.10 -> 0.25: the weak matches drop out
        await wait_for(pilot, lambda: abs(pane.threshold - 0.25) < 1e-9 and len(pane.results) == 2)
        assert "0.25" in text_of(pane.query_one("#threshold").content)
        assert sent[-1][2]["similarity_threshold"] == 0.25
        assert {key for _, key in pane.results} == {"github-new-issue", "github-create-issue"}
        await pilot.press("minus")
        await wait_for(pilot, lambda: abs(pane.threshold - 0.20) < 1e-9)


async def test_open_a_component_by_key_and_by_id(make_app, emulator) -> None:
    saved = next(c for c in emulator.emulator.store.components.values() if c.key == "schedule-every-interval")
    app = make_app(start_pane="components")
    async with app.run_test(size=(120, 36)) as pilot:
        await components_searching(app, pilot)
        app.query_one("#components #open").focus()
        await pilot.press(*"rss-new-item-in-feed", "enter")
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ComponentScreen)
                and app.screen.record is not None
                and bool(app.screen.query("#code"))
            ),
        )
        assert app.screen.record.key == "rss-new-item-in-feed"
        await pilot.press("escape")
        app.open_id(saved.id)
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, ComponentScreen)
                and app.screen.ident == saved.id
                and bool(app.screen.query("#code"))
            ),
        )
        assert app.screen.record.id == saved.id
        await pilot.press("escape")
        app.query_one("#components #open").focus()
        await pilot.press("ctrl+a", "ctrl+k", *"no-such-component", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ComponentScreen) and bool(app.screen.query(".problem")))
        said = text_of(app.screen.query_one(".problem").content)
        assert "not found" in said and "esc to go back" in said
        assert "retry" not in said  # asking again finds nothing more


# --- hostile strings -------------------------------------------------------------------------------------------


async def test_hostile_names_are_shown_as_inert_text(make_app, emulator, info) -> None:
    store = emulator.emulator.store
    account = next(
        a for a in store.accounts.values() if a.project_id == info["project_id"] and a.environment == "production"
    )
    hostile = "[bold red]x[/] \x1b]52;c;aGk=\x07 \u202e"
    account.external_id = hostile
    account.name = hostile
    store.apps[account.app_id]["name"] = "[link=https://evil.example]app[/link]"
    app = make_app(start_pane="connect")
    async with app.run_test(size=(80, 24)) as pilot:
        table = await pane_table(app, pilot, "connect")
        cell = table.cell(hostile, "external_id").plain
        assert cell.startswith("[bold red]x[/]") and "\x1b" not in cell and "\u202e" not in cell
        apps = table.cell(hostile, "apps").plain
        assert "[link=https://evil.example]app[/link]" in apps
        table.table.move_cursor(row=table.rows.index(next(u for u in table.rows if u.external_id == hostile)))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EndUserScreen) and bool(app.screen.query("#accounts")))
        accounts = app.screen.query_one("#accounts", PagedTable)
        await wait_for(pilot, lambda: accounts.pager.total is not None and accounts.table.has_focus)
        assert [a.id for a in accounts.rows] == [account.id]  # the id went as a query parameter, intact
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, AccountScreen) and bool(app.screen.query(Fields)))
        shown = text_of(app.screen.query_one(Fields).content)
        assert "[bold red]x[/]" in shown and "\x1b" not in shown
