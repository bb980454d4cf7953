"""The monitor and its detail pinned at 80x24 and 120x36.

A fresh emulator for each picture (fixed port 27821, seed 1, clock stopped),
so the events and their ids do not depend on which test ran first. The rate
counter runs on the session's clock, fixed here, so the picture shows no
live rate. The monitor watches the demo's webhook inbox and the order
workflow's `$errors`; 30 events are injected so the rows at the bottom are
the same whatever order the two feeds' first reads arrived in.
Update with `pytest tests/tui/test_monitor_snapshots.py --snapshot-update`
after looking at the new pictures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from textual.pilot import Pilot
from tui_helpers import SIZES, Step, serve_fixed, snapshot_app_factory, wait_for

from aftui.emulator.server import ServerHandle
from aftui.monitor import Target
from aftui.tui.app import AftuiApp
from aftui.tui.screens.monitor import MonitorScreen, open_monitor

SNAPSHOT_PORT = 27821
INJECTED = 30


@pytest.fixture
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> AftuiApp:
    return snapshot_app_factory(fixed_emulator, tmp_path)()


def watching(emulator: ServerHandle, *keys: str) -> Step:
    """Open the monitor, let both feeds read what the service keeps, inject events, then press `keys`."""
    demo = emulator.emulator.demo
    targets = [
        Target("source", demo.inbox_source_id, "Webhook inbox"),
        Target("errors", demo.order_workflow_id, "Validate and forward orders"),
    ]

    async def run(pilot: Pilot) -> None:
        app = pilot.app
        await wait_for(
            pilot,
            lambda: bool(app.query("#sources ListTable")) and app.query_one("#sources ListTable").row_count > 0,
            timeout=10,
        )
        open_monitor(app, targets)
        await wait_for(pilot, lambda: isinstance(app.screen, MonitorScreen) and app.screen.last is not None, timeout=10)
        screen: MonitorScreen = app.screen  # type: ignore[assignment]

        def live() -> bool:
            states = screen.last.states if screen.last else {}
            return len(states) == 2 and all(state.phase == "live" for _, state in states.values())

        await wait_for(pilot, live, timeout=10)
        await pilot.pause(0.5)  # the first reads, handed over and taken
        url = f"{emulator.root_url}/_emulator/sources/{demo.inbox_source_id}/inject"
        response = await asyncio.to_thread(httpx.post, url, json={"count": INJECTED, "wait": True})
        assert response.is_success, response.text

        def injected() -> int:
            return sum(1 for r in screen.records if isinstance(r.event.event, dict) and r.event.event.get("injected"))

        await wait_for(pilot, lambda: injected() == INJECTED, timeout=10)
        for key in keys:
            await pilot.press(key)
        await pilot.pause(0.8)  # the detail follows the cursor once it rests
        await wait_for(pilot, lambda: all(w.is_finished for w in app.workers), timeout=10)
        await pilot.pause()

    return run


@pytest.mark.parametrize("size", SIZES)
def test_monitor(snap_compare, app: AftuiApp, fixed_emulator: ServerHandle, size: tuple[int, int]) -> None:
    assert snap_compare(app, terminal_size=size, run_before=watching(fixed_emulator))


@pytest.mark.parametrize("size", SIZES)
def test_monitor_detail_of_an_error(
    snap_compare, app: AftuiApp, fixed_emulator: ServerHandle, size: tuple[int, int]
) -> None:
    """Errors only (E), the cursor one up from the newest error: its JSON in the detail pane."""
    assert snap_compare(app, terminal_size=size, run_before=watching(fixed_emulator, "E", "up"))
