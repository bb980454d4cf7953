"""Pages of 100 load as the cursor nears the end; "N of total" says how far."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from tui_helpers import FIXED_NOW, wait_for

from aftui.emulator.server import Options, serve_in_thread
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.widgets.paged_table import PagedTable


async def test_paging_across_three_pages_as_the_cursor_goes_down(tmp_path: Path) -> None:
    handle = serve_in_thread(Options(port=0, scale=300))
    try:
        session = demo_session(handle.base_url, handle.emulator.describe(), data=tmp_path)
        session.now = lambda: FIXED_NOW
        app = AftuiApp(session)
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(
                pilot,
                lambda: (
                    bool(app.query("#sources PagedTable"))
                    and len(app.query_one("#sources PagedTable").pager.items) == 100
                ),
            )
            table = app.query_one("#sources PagedTable", PagedTable)
            assert table.pager.total == 326
            assert "100 of 326" in str(table.query_one(".status").render())
            for expected in (200, 300, 326):
                await pilot.press("ctrl+end")
                await wait_for(pilot, lambda expected=expected: len(table.pager.items) == expected, timeout=10)
            assert table.pager.done
            assert len({s.id for s in table.pager.items}) == 326
            assert "326 of 326" in str(table.query_one(".status").render())
    finally:
        handle.stop()


async def test_a_long_list_draws_the_rows_that_come_into_view_not_every_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory and time of long lists: a row's cells are made when it is shown, not kept for every row."""
    from aftui.tui.screens import sources

    names: list[Any] = []

    def counted(value: Any, *args: Any, **kwargs: Any) -> Any:
        names.append(value)
        return plain(value, *args, **kwargs)

    plain = sources.plain
    monkeypatch.setattr(sources, "plain", counted)  # the Name and ID columns draw with it
    handle = serve_in_thread(Options(port=0, scale=300))
    try:
        session = demo_session(handle.base_url, handle.emulator.describe(), data=tmp_path)
        session.now = lambda: FIXED_NOW
        app = AftuiApp(session, start_pane="sources")
        async with app.run_test(size=(120, 36)) as pilot:
            await wait_for(
                pilot,
                lambda: (
                    bool(app.query("#sources PagedTable")) and len(app.query_one("#sources PagedTable").rows) == 100
                ),
            )
            table = app.query_one("#sources PagedTable", PagedTable)
            for expected in (200, 300, 326):
                await pilot.press("ctrl+end")
                await wait_for(pilot, lambda expected=expected: len(table.pager.items) == expected, timeout=10)
            await pilot.pause()
            names.clear()
            await pilot.press("home")
            await pilot.pause()
            assert table.table.cursor_row == 0
            assert 0 < len(names) <= 2 * 36  # the Name and ID cells of the rows now on screen, of 326
            assert table.rows[0].name in names
    finally:
        handle.stop()


async def test_a_list_removed_while_its_page_loads_lets_the_page_go_without_an_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A webhook deleted from its detail closed the screen while its Fed-by tab loaded: the page came back to a
    list with no table, and aftui.log got a NoMatches traceback."""
    import asyncio

    from textual.app import App, ComposeResult

    from aftui.api.models import Page, PageInfo
    from aftui.tui.widgets.paged_table import Column, ListTable

    answer = asyncio.Event()

    async def fetch(**_: Any) -> Page[str]:
        await answer.wait()
        return Page[str](items=["a", "b"], page_info=PageInfo(total_count=2, count=2))

    class Holder(App[None]):
        def compose(self) -> ComposeResult:
            yield PagedTable(fetch, [Column("name", "Name", lambda s: s)], item_id=lambda s: s, noun="names")

    app = Holder()
    async with app.run_test(size=(60, 10)) as pilot:
        table = app.query_one(PagedTable)
        await wait_for(pilot, lambda: table._loading)
        # A screen closing removes its widgets children first: the list's table went before the list did.
        await table.query_one(ListTable).remove()
        answer.set()
        await pilot.pause(0.2)
    assert not [r for r in caplog.records if r.levelname == "ERROR"], caplog.text


async def test_a_reload_that_fails_keeps_the_rows_shown_and_tries_the_reload_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In an outage, `r` (or back from a replay) emptied the list under "Could not load": what was being read was
    gone until the service answered. And its retry waited out its backoff (up to 30 s) under a header that said
    "connected": the service answering again makes it at once."""
    import httpx

    from aftui.tui import retry

    monkeypatch.setattr(retry, "FIRST_S", 60.0)  # a retry far off: only the service's return makes it now

    handle = serve_in_thread(Options(port=0, scale=300))
    faults = f"{handle.root_url}/_emulator/faults"
    try:
        session = demo_session(handle.base_url, handle.emulator.describe(), data=tmp_path)
        session.now = lambda: FIXED_NOW
        app = AftuiApp(session)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.press("2")
            await wait_for(pilot, lambda: len(app.query_one("#sources PagedTable").pager.items) == 100, timeout=10)
            table = app.query_one("#sources PagedTable", PagedTable)
            await pilot.press("ctrl+end")
            await wait_for(pilot, lambda: len(table.pager.items) == 200, timeout=10)
            shown = [table.item_id(s) for s in table.rows]
            httpx.post(faults, json={"path": "/v1", "method": "GET", "count": 10_000, "status": 503})
            try:
                table.reload()
                await pilot.pause()
                assert not table.table.loading and [table.item_id(s) for s in table.rows] == shown, "not hidden"
                await wait_for(pilot, lambda: table.has_class("failed"), timeout=20)
                said = str(table.query_one(".error").render())
                assert "Could not load sources" in said and "below: the list as it was before" in said, said
                assert [table.item_id(s) for s in table.rows] == shown
                assert len(table.pager.items) == 200 and "200 of 326" in str(table.query_one(".status").render())
            finally:
                httpx.delete(faults)
            # The retry is the reload again, not the page after the rows put back (which read page 3 onto them).
            assert app.connection_phase == "failing 503"
            await app.session.client.me()  # any answer of the service (the header's, Health's polls) is its return
            await wait_for(pilot, lambda: not table.has_class("failed"), timeout=10)
            assert len(table.pager.items) == 100 and len({table.item_id(s) for s in table.pager.items}) == 100
    finally:
        handle.stop()
