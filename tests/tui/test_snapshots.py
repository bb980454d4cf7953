"""Every pane and detail pinned at 80x24 and 120x36, on the demo data with a fixed clock.

The emulator runs on a fixed port so that endpoint URLs on screen are the
same from run to run. Update with `pytest tests/tui/test_snapshots.py --snapshot-update`
after looking at the new pictures (`snapshot_report.html`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from tui_helpers import (
    SIZES,
    Step,
    idle,
    press,
    serve_fixed,
    settled,
    snapshot_app_factory,
    wait_for,
)

from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp

SNAPSHOT_PORT = 27811


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path) -> Callable[..., AftuiApp]:
    return snapshot_app_factory(fixed_emulator, tmp_path)


def table_of(pane: str) -> Step:
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
    "components": ("slash", *"new issue in github", "enter", "_", "enter"),
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
    steps = settled(
        table_of("sources"), idle, press("down", "down", "down", "enter"), idle, press("right", "right", "right")
    )
    assert snap_compare(app(), terminal_size=size, run_before=steps)


@pytest.mark.parametrize("size", SIZES)
def test_keys_screen(snap_compare, app, size) -> None:
    # Idle before `?`: the footer under the dialog is the main screen's, and a key pressed as the list's rows
    # came could push the dialog before that footer had the list's keys (once in nine clean-clone runs).
    steps = settled(table_of("sources"), idle, press("question_mark"))
    assert snap_compare(app(), terminal_size=size, run_before=steps)


@pytest.mark.parametrize("size", SIZES)
def test_palette_with_an_id(snap_compare, app, size) -> None:
    # Idle before ctrl+p, as before `?`: the footer under the palette is the main screen's, and opened as the
    # list's rows came it had not the list's keys yet (CI y1: "m Monitor q Quit r Refresh").
    steps = settled(
        table_of("sources"), idle, press("ctrl+p", "_", "d", "c", "underscore", *"msIpon2")
    )  # "_" alone waits
    assert snap_compare(app(), terminal_size=size, run_before=steps)
