"""Where the focus is: it comes back where it was when a dialog closes, even if the list reloaded meanwhile."""

from __future__ import annotations

import pytest
from textual import events
from textual.containers import VerticalScroll
from textual.widgets import Input, Select
from tui_helpers import inject, wait_for

from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.modals.form import FormScreen
from aftui.tui.screens.monitor import MonitorScreen
from aftui.tui.screens.sources import SourceScreen
from aftui.tui.widgets.ends import CUSTOM
from aftui.tui.widgets.paged_table import ListTable, PagedTable

SIZE = (120, 36)


async def _table(app, pilot, pane: str) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query(f"#{pane} PagedTable")) and app.query_one(f"#{pane} PagedTable").pager.done, 15
    )
    return app.query_one(f"#{pane} PagedTable", PagedTable)


async def test_a_pane_whose_first_page_came_under_another_screen_has_the_focus_when_it_is_back(
    make_app, emulator, info
) -> None:
    """`m` pressed before the first pane's list was in: the list arrives under the monitor, and esc comes back
    to it with the focus, not to the sidebar (where `r` refreshed nothing)."""
    inject(emulator, {"path": f"/v1/orgs/{info['org_id']}/sources", "method": "GET", "delay": 1.0, "count": 1})
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: bool(app.query("#sources PagedTable")), 10)
        await pilot.press("m")
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen), 10)
        table = app.query_one("#sources PagedTable", PagedTable)
        await wait_for(pilot, lambda: bool(table.rows), 10)  # in while the monitor covers it
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, MonitorScreen), 10)
        await pilot.pause()
        assert app.focused is table.table


async def test_a_pane_asked_for_again_before_it_is_up_is_built_once_and_the_last_asked_is_shown(make_app) -> None:
    """Keys pressed faster than panes are built (or a key and the first pane at once): each pane is built once,
    and the one asked for last is the one shown, with the focus, whichever finished building first."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        for pane in ("webhooks", "sources", "webhooks", "sources", "webhooks"):
            app.show_pane(pane)
        table = await _table(app, pilot, "webhooks")
        await _table(app, pilot, "sources")
        await pilot.pause()
        assert len(app.query("#webhooks")) == 1 and len(app.query("#sources")) == 1
        assert app.query_one("#panes").current == "webhooks"
        assert app.focused is table.table


async def test_a_pane_key_on_a_detail_gives_the_keys_to_the_pane_shown_not_to_the_one_left(make_app) -> None:
    """Sources seen, then Components, a component opened by key (`o`), then `2`: the detail closes and the Sources
    list has the keys. At 80 columns (no sidebar) its list is the first focusable widget, and the focus went back to
    the hidden Components pane's field: `/Order` was typed there, `d` opened "Deploy a source"."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(80, 24)) as pilot:
        sources = await _table(app, pilot, "sources")
        await pilot.press("9")
        await wait_for(pilot, lambda: bool(app.query("#components")) and app.focused is not None, 15)
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.focused, Input), 10)
        left = app.focused
        for key in ("h", "t", "t", "p", "-", "n", "e", "w", "-", "r", "e", "q", "u", "e", "s", "t", "s", "enter"):
            await pilot.press(key)
        await wait_for(pilot, lambda: app.screen is not app.screen_stack[0], 10)
        await pilot.press("2")
        await wait_for(
            pilot, lambda: app.screen is app.screen_stack[0] and app.query_one("#panes").current == "sources"
        )
        await pilot.pause(0.3)
        assert app.focused is sources.table and app.focused is not left
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, Input) and app.focused is not left)
        assert any(a.id == "sources" for a in app.focused.ancestors), "the Sources pane's own filter"


async def test_focus_returns_to_the_list_when_a_dialog_closes_while_the_list_reloads(make_app) -> None:
    """A change made in a dialog reloads the list under it (a loading list cannot hold the focus): closing the
    dialog gives the list its focus back, not the sidebar."""
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=SIZE) as pilot:
        table = await _table(app, pilot, "webhooks")
        await pilot.press("down", "down")
        assert app.focused is table.table
        await pilot.press("d")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        app.screen_stack[0].set_focus(None)  # what Textual does when the focused list goes away for a moment
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmScreen))
        await wait_for(pilot, lambda: app.focused is table.table)
        assert app.query_one("#sidebar").has_focus is False
        assert table.table.cursor_row == 2
        await pilot.press("n")  # and keys reach the list's pane, not the sidebar
        await wait_for(pilot, lambda: type(app.screen).__name__ == "WebhookForm")


async def test_a_detail_reloaded_by_a_dialogs_change_keeps_its_tab_and_list(make_app, emulator) -> None:
    """Switching a source off from its Events tab: the detail reloads, and the user is still on Events, in the list."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        table = await _table(app, pilot, "sources")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and bool(app.screen.query("#json")), 15)
        screen = app.screen
        await pilot.press("right_square_bracket", "right_square_bracket", "right_square_bracket", "down")
        await wait_for(pilot, lambda: isinstance(app.focused, ListTable))
        events = screen.query_one("#events", PagedTable)
        old = events.table
        assert app.focused is old
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await wait_for(pilot, lambda: app.screen is screen)

        def in_the_new_list() -> bool:
            focused = app.focused
            return (
                isinstance(focused, ListTable)
                and focused is not old
                and any(isinstance(a, PagedTable) and a.id == "events" for a in focused.ancestors)
            )

        await wait_for(pilot, in_the_new_list, 15)  # the tabs were rebuilt: a new list, on the same tab
        assert table is not None


FORMS = [("webhooks", "n"), ("subscriptions", "n"), ("sources", "n"), ("workflows", "n"), ("connect", "t")]


@pytest.mark.parametrize(("pane", "key"), FORMS, ids=[f"{p}-{k}" for p, k in FORMS])
async def test_tab_walks_every_form_in_reading_order_from_field_to_field(make_app, pane: str, key: str) -> None:
    """Top to bottom, left to right, and only fields: no stop on the frame that scrolls the rows."""
    app = make_app(start_pane=pane)
    async with app.run_test(size=SIZE) as pilot:
        await _table(app, pilot, pane)
        await pilot.press(key)
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and bool(app.screen.query("#submit")))
        form = app.screen
        if pane == "subscriptions":  # a custom channel: its name input shows beside the select
            form.query_one("#channel-pick", Select).value = CUSTOM
            await wait_for(pilot, lambda: form.query_one("#channel-name", Input).display)
        await pilot.pause()
        chain = form.focus_chain
        assert not [w for w in chain if isinstance(w, VerticalScroll)], "a tab stop that is not a field"
        assert chain == sorted(chain, key=lambda w: (w.region.y, w.region.x))
        walked = []
        chain[0].focus()
        for _ in chain:
            await pilot.pause()
            walked.append(app.focused)
            await pilot.press("tab")
        assert walked == chain


async def test_the_focused_field_is_marked_without_colour_in_every_row_it_reaches(make_app, monkeypatch) -> None:
    """NO_COLOR keeps reverse video: the focused row's label (and a focused list's cursor) is drawn in it."""
    from textual.widgets import Label

    from aftui.tui.modals.form import FormRow

    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(start_pane="subscriptions")
    async with app.run_test(size=SIZE) as pilot:
        table = await _table(app, pilot, "subscriptions")
        await wait_for(pilot, lambda: table.table.has_focus)  # the first page claims it, one message later
        assert table.table.get_component_rich_style("board--cursor").reverse
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, FormScreen) and bool(app.screen.query("#submit")))
        rows = list(app.screen.query(FormRow))
        for _ in range(5):
            await pilot.pause()
            marked = [r.name for r in rows if r.query_one(Label).rich_style.reverse]
            holding = [r.name for r in rows if app.focused in r.query("*")]
            assert marked == holding, (marked, holding, app.focused)
            await pilot.press("tab")
        assert app.screen.query_one("#submit").has_focus or app.screen.query_one("#cancel").has_focus


async def test_keys_typed_with_the_slash_that_opens_a_filter_go_into_it_not_to_the_lists_bindings(make_app) -> None:
    """Over SSH keys come together: `/` and the word after it reach the app in one read, before Textual's
    deferred focus would have landed. `q` is Quit and `r` Refresh on a list: typed in a filter, they are letters."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        table = await _table(app, pilot, "sources")
        table.table.focus()
        await pilot.pause()
        for key in ("slash", "q", "r", "x"):  # queued at once, as the driver's thread queues what it read
            app.post_message(events.Key(key, "/" if key == "slash" else key))
        await wait_for(pilot, lambda: table.filter_text == "qrx")
        assert app.is_running and app.focused is table.query_one("#filter", Input)


async def test_brackets_typed_fast_from_a_tabs_content_walk_one_tab_each(make_app, emulator) -> None:
    """`] ] ]` read at once from a tab's content: each bracket focused the next tab's content, and Textual's
    word that a list there had been focused came a message later and switched back to its tab (as did the
    list's own claim of the focus), so from the Events list the walk ended on Errors, not JSON."""
    from test_keys import terminal_types
    from textual.widgets import TabbedContent

    from aftui.tui.screens.workflows import WorkflowScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.open_id(emulator.emulator.demo.order_workflow_id)
        await wait_for(pilot, lambda: isinstance(app.screen, WorkflowScreen) and app.screen.built == 1, 15)
        tabbed = app.screen.query_one(TabbedContent)
        titles = [str(tabbed.get_tab(pane).label) for pane in tabbed.query("TabPane")]
        assert titles == ["Overview", "Triggers", "Steps", "Events", "Errors", "JSON"]
        await wait_for(pilot, lambda: all(table.pager.done for table in app.screen.query(PagedTable)), 15)
        await pilot.press("down")  # into the Overview
        at = 0
        for keys in ("]]]", "]]", "[[[", "[[[[", "]]]]]"):  # Events, JSON, Steps, Errors (round the start), Events
            terminal_types(app, keys)
            at = (at + keys.count("]") - keys.count("[")) % len(titles)
            want = titles[at]
            await wait_for(pilot, lambda want=want: str(tabbed.get_tab(tabbed.active_pane).label) == want)
            await pilot.pause(0.3)  # nothing switches back late
            assert str(tabbed.get_tab(tabbed.active_pane).label) == want, keys
            assert app.focused is not None and tabbed.active_pane in app.focused.ancestors


async def test_down_read_with_the_bracket_goes_into_the_tab_the_bracket_shows(make_app, emulator) -> None:
    """`] down` read at once from the tab bar of an error: the down was answered first, into the Overview being
    left, which then took its tab back; the JSON tab never showed."""
    from test_keys import terminal_types
    from textual.widgets import TabbedContent

    from aftui.tui.screens.sources import SourceScreen
    from aftui.tui.widgets.json_view import JsonView

    app = make_app(start_pane="sources")
    async with app.run_test(size=SIZE) as pilot:
        await _table(app, pilot, "sources")
        await pilot.press("down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, SourceScreen) and app.screen.built == 1, 15)
        tabbed = app.screen.query_one(TabbedContent)
        terminal_types(app, "[\x1b[B")  # the last tab, JSON, then down into it
        await wait_for(pilot, lambda: isinstance(app.focused, JsonView))
        await pilot.pause(0.3)
        assert str(tabbed.get_tab(tabbed.active_pane).label) == "JSON" and isinstance(app.focused, JsonView)
