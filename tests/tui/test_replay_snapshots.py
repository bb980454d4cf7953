"""The replay screen, its editor and a bulk replay's summary, pinned at 80x24 and 120x36.

Same style as test_snapshots.py, on an emulator of our own on a fixed port
(endpoint URLs are on screen) with the demo seed and a fixed clock. The
errors replayed are the demo's oldest order errors, which later replays
(these tests add some) do not change. Update with
`pytest tests/tui/test_replay_snapshots.py --snapshot-update` after looking
at the pictures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import TextArea
from tui_helpers import (
    SIZES,
    Step,
    quiet,
    serve_fixed,
    snapshot_app_factory,
    still,
    wait_for,
)

from aftui.api.models import EventSummary
from aftui.emulator.server import ServerHandle
from aftui.tui.app import AftuiApp
from aftui.tui.modals.confirm import ConfirmScreen
from aftui.tui.screens.replay import (
    ReplayEditorScreen,
    ReplayScreen,
    open_bulk_replay,
    open_replay,
)
from aftui.tui.screens.replay_bulk import BulkReplayScreen

SNAPSHOT_PORT = 27831


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AftuiApp:
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path / "aftui-data"))
    return snapshot_app_factory(fixed_emulator, tmp_path)(start_pane="workflows")


def oldest_errors(emulator: ServerHandle, n: int) -> list[EventSummary]:
    """The demo's first `n` order errors, oldest first."""
    demo = emulator.emulator.demo
    with httpx.Client(
        base_url=emulator.base_url, headers={"Authorization": f"Bearer {demo.api_key}"}, timeout=10
    ) as client:
        data = client.get(
            f"/workflows/{demo.order_workflow_id}/$errors/event_summaries", params={"expand": "event"}
        ).json()["data"]
    events = sorted((EventSummary.model_validate(e) for e in data), key=lambda e: e.key or (0, 0))
    return events[:n]


async def steady(pilot: Pilot) -> None:
    """Nothing running or loading, no cursor blinking: the picture stays put."""
    await wait_for(pilot, lambda: quiet(pilot.app), timeout=15)
    await still(pilot, (TextArea,))


def opened(action: Callable[[AftuiApp], None], ready: Callable[[AftuiApp], bool]) -> Step:
    async def run(pilot: Pilot) -> None:
        await steady(pilot)
        action(pilot.app)  # type: ignore[arg-type]
        await wait_for(pilot, lambda: ready(pilot.app), timeout=15)  # type: ignore[arg-type]
        await steady(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_replay_screen(snap_compare, app, fixed_emulator, size) -> None:
    (error,) = oldest_errors(fixed_emulator, 1)
    run = opened(
        lambda a: open_replay(a, error, error.metadata.emitter_id or ""),
        lambda a: isinstance(a.screen, ReplayScreen) and a.screen.plan is not None,
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_replay_editor(snap_compare, app, fixed_emulator, size) -> None:
    (error,) = oldest_errors(fixed_emulator, 1)
    run = opened(
        lambda a: open_replay(a, error, error.metadata.emitter_id or "", edit=True),
        lambda a: isinstance(a.screen, ReplayEditorScreen) and bool(a.screen.query("JsonEditor TextArea")),
    )
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_bulk_replay_summary(snap_compare, app, fixed_emulator, size) -> None:
    errors = oldest_errors(fixed_emulator, 3)

    async def run(pilot: Pilot) -> None:
        await opened(
            lambda a: open_bulk_replay(a, errors, errors[0].metadata.emitter_id or ""),
            lambda a: isinstance(a.screen, BulkReplayScreen) and a.screen.planned,
        )(pilot)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ConfirmScreen))  # no fix: asked first
        await pilot.press("y")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BulkReplayScreen))
        await wait_for(pilot, lambda: pilot.app.screen.summary is not None, timeout=30)
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)
