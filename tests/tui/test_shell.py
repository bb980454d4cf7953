"""The shell: first pane, sidebar keys, palette by id, keys screen, back navigation."""

from __future__ import annotations

from tui_helpers import idle, palette_search, wait_for

from aftui.masking import url_secrets_masked
from aftui.tui.modals.keys import KeysScreen
from aftui.tui.screens.detail import DetailScreen
from aftui.tui.widgets.paged_table import PagedTable


async def test_sources_are_listed_with_a_count(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await _loaded_table(app, pilot)
        assert len(table.rows) == 26
        status = str(table.query_one(".status").render())
        assert "26 of 26" in status


async def test_enter_opens_a_detail_and_escape_comes_back_to_the_same_row(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await _loaded_table(app, pilot)
        await pilot.press("down", "down", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen))
        opened = app.screen.ident
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, DetailScreen))
        assert table.current is not None and table.current.id == opened


async def test_filter_narrows_loaded_rows_at_once(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        table = await _loaded_table(app, pilot)
        await pilot.press("slash", *"stripe")
        await wait_for(pilot, lambda: len(table.rows) == 2)
        assert {s.name for s in table.rows} == {"Stripe payments", "Stripe payments (EU)"}
        await pilot.press("down")  # from the field to the rows it let through, as enter does
        assert table.table.has_focus and table.query_one("#filter").display
        await pilot.press("down")  # now the rows' own down
        assert table.table.cursor_row == 1
        await pilot.press("escape")
        await wait_for(pilot, lambda: len(table.rows) == 26)


async def test_number_keys_switch_panes(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await _loaded_table(app, pilot)
        await pilot.press("1")
        await wait_for(pilot, lambda: app.query_one("#panes").current == "workspaces")


async def test_keys_screen_lists_the_screens_bindings(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await _loaded_table(app, pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, KeysScreen))
        await pilot.press("escape")
        assert not isinstance(app.screen, KeysScreen)


async def test_palette_opens_a_source_by_pasted_id(make_app, emulator) -> None:
    source = next(s for s in emulator.emulator.store.sources.values() if s.name == "Webhook inbox")
    app = make_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await _loaded_table(app, pilot)
        await palette_search(pilot, *source.id)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, DetailScreen) and app.screen.ident == source.id)


async def _loaded_table(app, pilot) -> PagedTable:
    await wait_for(
        pilot, lambda: bool(app.query("#sources PagedTable")) and app.query_one("#sources PagedTable").pager.items
    )
    return app.query_one("#sources PagedTable", PagedTable)


async def test_theme_and_sidebar_are_kept_in_the_config_for_the_next_run(make_app, config_file) -> None:
    from aftui.config import load_config

    app = make_app(ui=load_config().ui)
    async with app.run_test(size=(120, 36)) as pilot:
        await _loaded_table(app, pilot)
        app.theme = "nord"  # as the palette's "Change theme" sets it
        await wait_for(pilot, lambda: config_file.exists() and load_config().ui.theme == "nord", 10)
        await pilot.press("ctrl+b")
        await wait_for(pilot, lambda: load_config().ui.sidebar is False, 10)
    assert config_file.stat().st_mode & 0o777 == 0o600
    again = make_app(ui=load_config().ui)
    async with again.run_test(size=(120, 36)) as pilot:
        await _loaded_table(again, pilot)
        assert again.theme == "nord"
        assert not again.query_one("#sidebar").display


async def _listed(app, pilot, pane: str) -> PagedTable:
    """The pane's list, once its last page is in."""
    await wait_for(pilot, lambda: bool(app.query(f"#{pane} PagedTable")))
    paged = app.query_one(f"#{pane} PagedTable", PagedTable)
    await wait_for(pilot, lambda: paged.pager.done)
    return paged


def _cut_with_room(paged: PagedTable) -> list[str]:
    """The columns drawn narrower than their text while the table still has spare width (not fitted yet)."""
    table = paged.table
    spare = table.scrollable_content_region.width - table.line_width
    return [
        spec.key
        for spec in paged.columns
        if spec.width is not None and table.widths[spec.key] < paged.content_widths[spec.key] and spare > 0
    ]


async def test_columns_follow_the_tables_own_width_not_only_the_lists(make_app) -> None:
    """The table can get (or change) its width after the list has its own, as when the rows arrive before the
    table is laid out: the columns are fitted to the table's width whenever it changes."""
    app = make_app(start_pane="webhooks")
    async with app.run_test(size=(170, 30)) as pilot:
        paged = await _listed(app, pilot, "webhooks")
        table = paged.table
        longest = max(len(url_secrets_masked(w.url)) for w in paged.rows)  # as the column shows them
        await wait_for(pilot, lambda: table.widths["url"] == longest)
        table.styles.width = 100  # the table narrows, the list around it does not
        await wait_for(pilot, lambda: table.widths["url"] < longest)
        await idle(pilot)
        assert _cut_with_room(paged) == []
        table.styles.width = None
        await wait_for(pilot, lambda: table.widths["url"] == longest)


async def test_columns_follow_a_resize(make_app) -> None:
    """Wide: the webhooks' URLs shown whole; narrower: the table fits again, the URL giving back what it took."""
    from aftui.tui.widgets.paged_table import PagedTable

    app = make_app(start_pane="webhooks")
    async with app.run_test(size=(170, 30)) as pilot:
        await wait_for(
            pilot, lambda: bool(app.query("#webhooks PagedTable")) and app.query_one("#webhooks PagedTable").pager.done
        )
        table = app.query_one("#webhooks PagedTable", PagedTable).table
        rows = app.query_one("#webhooks PagedTable", PagedTable).rows
        longest = max(len(url_secrets_masked(w.url)) for w in rows)  # as the column shows them
        await wait_for(pilot, lambda: table.widths["url"] == longest)

        def fits() -> bool:
            return table.line_width <= table.scrollable_content_region.width

        await pilot.resize_terminal(110, 30)
        await wait_for(pilot, lambda: fits() and table.widths["url"] < longest)
        await pilot.resize_terminal(170, 30)
        await wait_for(pilot, lambda: table.widths["url"] == longest)


async def test_a_list_too_narrow_for_its_columns_cuts_the_name_and_the_last_error_not_its_last_column(
    make_app,
) -> None:
    """At 120 columns, beside the sidebar, the Sources list's set widths do not fit: the name and the last error
    give width down to their minimum, so the Updated column at the right is drawn whole, not cut to a letter."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(120, 36)) as pilot:
        table = (await _listed(app, pilot, "sources")).table
        await wait_for(pilot, lambda: table.line_width <= table.scrollable_content_region.width)
        assert table.widths["updated"] == 10 and table.widths["id"] == 12  # the others keep their widths
        assert 12 <= table.widths["lasterr"] < 24 and table.widths["name"] >= 16


async def test_at_80_columns_a_list_hides_its_id_rather_than_cut_its_last_column(make_app) -> None:
    """At 80 columns even the minimum widths do not fit: the ID column is hidden (a row's detail shows it), the
    others are drawn whole, sorting passes over the hidden column, and widened the list shows its ID again."""
    app = make_app(start_pane="sources")
    async with app.run_test(size=(80, 24)) as pilot:
        paged = await _listed(app, pilot, "sources")
        table = paged.table
        await wait_for(pilot, lambda: table.widths["id"] == 0)
        assert table.line_width <= table.scrollable_content_region.width
        assert table.widths["updated"] == 10 and table.widths["kind"] == 9 and table.widths["name"] >= 16
        assert paged.hidden == {"id"}

        table.focus()
        header = lambda: table.render_line(0).text  # noqa: E731
        assert "↑" not in header() and "↓" not in header()  # the service's order: no column is marked
        await pilot.press("s")
        assert header().startswith(" Name ↑ ")
        await pilot.press("s")
        assert header().startswith(" Name ↓ ") and "sorted by Name ↓" in str(paged.query_one(".status").render())
        await pilot.press("s")  # the next column shown
        assert paged.columns[paged.sort_index or 0].key == "kind" and not paged.sort_reverse
        assert " Kind ↑ " in header() and "Name ↓" not in header()

        await pilot.resize_terminal(160, 36)
        await wait_for(pilot, lambda: table.widths["id"] == 12)
        assert paged.hidden == frozenset()
