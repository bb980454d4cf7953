"""Every pane and detail pinned at 80x24 and 120x36, on the demo data with a fixed clock.

The emulator runs on a fixed port so that endpoint URLs on screen are the
same from run to run. Update with `pytest tests/tui/test_snapshots.py --snapshot-update`
after looking at the new pictures (`snapshot_report.html`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from aftui.emulator.server import Options, ServerHandle, serve_in_thread
from aftui.tui.app import AftuiApp
from aftui.tui.run import demo_session

from tui_helpers import FIXED_NOW
from tui_helpers import wait_for

SNAPSHOT_PORT = 47811
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 36), id="120x36")]


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_in_thread(Options(port=SNAPSHOT_PORT, seed=1))
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    def make(**kwargs: object) -> AftuiApp:
        session = demo_session(fixed_emulator.base_url, fixed_emulator.emulator.describe(), data=tmp_path / "data")
        session.now = lambda: FIXED_NOW
        return AftuiApp(session, **kwargs)  # type: ignore[arg-type]

    return make


def settled(*steps: Callable[[Pilot], Awaitable[None]]) -> Callable[[Pilot], Awaitable[None]]:
    """Run `steps`, then wait until nothing is loading and stop cursors blinking."""

    async def run(pilot: Pilot) -> None:
        for step in steps:
            await step(pilot)
        await idle(pilot)

    return run


async def idle(pilot: Pilot) -> None:
    """No request in flight and nothing loading; then the picture is steady."""
    app = pilot.app
    await wait_for(pilot, lambda: all(w.is_finished for w in app.workers) and not any(w.loading for w in app.screen.query("*")), timeout=8)
    await pilot.pause(0.2)
    for box in app.screen.query(Input):
        box.cursor_blink = False
    await pilot.pause()


def press(*keys: str) -> Callable[[Pilot], Awaitable[None]]:
    """Press keys; "_" waits until the app is idle (as in snap_compare's own `press`)."""

    async def run(pilot: Pilot) -> None:
        for key in keys:
            if key == "_":
                await idle(pilot)
            else:
                await pilot.press(key)

    return run


def table_of(pane: str) -> Callable[[Pilot], Awaitable[None]]:
    """Wait until the pane's first list has rows (or says it is empty)."""

    async def run(pilot: Pilot) -> None:
        def ready() -> bool:
            tables = pilot.app.query(f"#{pane} PagedTable")
            return bool(tables) and (tables.first().pager.items != [] or tables.first().pager.done)

        await wait_for(pilot, ready, timeout=10)

    return run


# pane -> keys that open a detail from it (None: the pane has no detail of its own)
DETAIL_KEYS: dict[str, tuple[str, ...] | None] = {
    "workspaces": None,
    "sources": ("down", "down", "down", "enter"),
    "workflows": ("enter",),
    "webhooks": ("enter",),
    "subscriptions": ("enter",),
    "connect": ("enter",),
    "apps": ("enter",),
    "accounts": ("enter",),
    "components": (*"new issue in github", "enter", "_", "enter"),
}
LISTLESS = {"workspaces", "components"}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("pane", list(DETAIL_KEYS))
def test_pane(snap_compare, app, pane, size) -> None:
    wait = press("_") if pane in LISTLESS else table_of(pane)
    assert snap_compare(app(start_pane=pane), terminal_size=size, run_before=settled(wait))


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("pane", [p for p, keys in DETAIL_KEYS.items() if keys])
def test_detail(snap_compare, app, pane, size) -> None:
    keys = DETAIL_KEYS[pane] or ()
    wait = press("_") if pane in LISTLESS else table_of(pane)
    assert snap_compare(app(start_pane=pane), terminal_size=size, run_before=settled(wait, idle, press(*keys)))


@pytest.mark.parametrize("size", SIZES)
def test_source_events_tab(snap_compare, app, size) -> None:
    steps = settled(table_of("sources"), idle, press("down", "down", "down", "enter"), idle, press("right", "right", "right"))
    assert snap_compare(app(), terminal_size=size, run_before=steps)


@pytest.mark.parametrize("size", SIZES)
def test_keys_screen(snap_compare, app, size) -> None:
    assert snap_compare(app(), terminal_size=size, run_before=settled(table_of("sources"), press("question_mark")))


@pytest.mark.parametrize("size", SIZES)
def test_palette_with_an_id(snap_compare, app, size) -> None:
    steps = settled(table_of("sources"), press("ctrl+p", "_", "d", "c", "underscore", *"msIpon2"))  # "_" alone waits
    assert snap_compare(app(), terminal_size=size, run_before=steps)
