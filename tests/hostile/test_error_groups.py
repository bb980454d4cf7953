"""The Errors tab's groups and the bulk replay's fix preview on hostile `$errors`, rendered to real terminal bytes.

The hostile errors carry escape sequences, markup, bidi and zero-width
characters in their messages (the groups' samples) and in their payloads
(keys and values the fix preview lists). None of it may reach the terminal
as anything but visible text.
"""

from __future__ import annotations

from pathlib import Path

from aftui.emulator.server import ServerHandle
from aftui.testing.pilot import wait_until
from aftui.testing.terminal import CapturingDriver, attacks, output_of
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session
from aftui.tui.screens.error_groups import ErrorGroupsView
from aftui.tui.screens.replay_bulk import BulkReplayScreen
from aftui.tui.screens.replay_errors import ErrorsTable


async def test_groups_and_the_fix_preview_render_hostile_errors_inertly(
    emulator: ServerHandle, info: dict, hostile: dict, tmp_path: Path
) -> None:
    app = AftuiApp(demo_session(emulator.base_url, info, data=tmp_path / "data"), start_pane="workflows")
    app.driver_class = CapturingDriver
    async with app.run_test(headless=False, size=(120, 36)) as pilot:
        app.open_id(hostile["workflow_id"])
        assert await wait_until(pilot, lambda: bool(app.screen.query(ErrorsTable)))
        table = app.screen.query_one(ErrorsTable)
        assert await wait_until(pilot, lambda: len(table.rows) > 10, timeout=60)  # one error is 10 MB
        await pilot.press(*"]]]]", "down", "g")
        view = app.screen.query_one(ErrorGroupsView)
        assert await wait_until(pilot, lambda: len(view.groups) > 1 and app.focused is view.table)
        for _ in view.groups:  # each group's detail line (its sample) drawn once
            await pilot.press("down")
            await pilot.pause(0.1)
        await pilot.press("home", "escape")
        assert await wait_until(pilot, lambda: app.focused is table.table)
        await pilot.press("R")  # every hostile error shown, with a fix that touches their hostile bodies
        assert await wait_until(pilot, lambda: isinstance(app.screen, BulkReplayScreen) and app.screen.planned)
        screen = app.screen
        await pilot.press("f")
        screen.query_one("#fix").value = '{"customer": {"note": "fixed"}, "body": {"extra": 1}}'
        assert await wait_until(pilot, lambda: screen.checked is screen.edit)
        await pilot.press("enter")
        for _ in range(12):
            await pilot.press("down")
            await pilot.pause(0.1)
        await pilot.press("d")
        await pilot.pause(0.3)
        assert app.is_running
    output = output_of(app)
    assert attacks(output) == []
    assert "\\e[31mCSI-RED" in output and "MARKUP-BOLD[/]" in output  # shown as text
