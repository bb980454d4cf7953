"""The Errors tab (replay states), its groups, an error's replays and the bulk replay's fix, at 80x24 and 120x36.

An emulator of their own on a fixed port (endpoint URLs are on screen), the
demo seed and a fixed clock. Nothing here is replayed for real, so the
errors listed stay the demo's: replay states come from replay rows written
to each test's journal as another aftui would have written them (fixed
replay ids). Update with
`pytest tests/tui/test_errors_snapshots.py --snapshot-update` after looking
at the pictures (under the snapshot lock).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from textual.pilot import Pilot
from textual.widgets import Input
from tui_helpers import SIZES, Step, quiet, serve_fixed, snapshot_app_factory, still, wait_for

from aftui.emulator.server import ServerHandle
from aftui.journal.replays import ReplayLog
from aftui.tui.app import AftuiApp
from aftui.tui.screens.error_groups import ErrorGroupsView
from aftui.tui.screens.replay import ReplayJournal
from aftui.tui.screens.replay_bulk import BulkReplayScreen
from aftui.tui.screens.replay_errors import ErrorEventScreen, ErrorsTable

SNAPSHOT_PORT = 27893


@pytest.fixture(scope="module")
def fixed_emulator() -> Iterator[ServerHandle]:
    handle = serve_fixed(SNAPSHOT_PORT)
    yield handle
    handle.stop()


@pytest.fixture
def app(fixed_emulator: ServerHandle, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AftuiApp:
    monkeypatch.setenv("AFTUI_DATA_DIR", str(tmp_path / "aftui-data"))
    return snapshot_app_factory(fixed_emulator, tmp_path)(start_pane="workflows")


def newest_error_ids(emulator: ServerHandle, n: int) -> list[str]:
    demo = emulator.emulator.demo
    with httpx.Client(
        base_url=emulator.base_url, headers={"Authorization": f"Bearer {demo.api_key}"}, timeout=10
    ) as client:
        data = client.get(f"/workflows/{demo.order_workflow_id}/$errors/event_summaries").json()["data"]
    return [e["id"] for e in data[:n]]


def write_replays(app: AftuiApp, emulator: ServerHandle) -> None:
    """The second newest error failed again as the newest; the third was replayed ok; the fourth is pending."""
    wf = emulator.emulator.demo.order_workflow_id
    first, second, third, fourth = newest_error_ids(emulator, 4)
    with ReplayLog(ReplayJournal(app.session).path()) as log:
        for replay_id, event_id, outcome, became in (
            ("rp_0000000000000001", third, "succeeded", None),
            ("rp_0000000000000002", second, "failed", first),
            ("rp_0000000000000003", fourth, None, None),
        ):
            log.started(
                replay_id, emitter_id=wf, event_id=event_id, workflow_id=wf, method="POST", target_url="u", edited=True
            )
            if outcome is not None:
                log.finished(
                    replay_id, outcome=outcome, status_code=200, outcome_emitter_id=wf, outcome_event_id=became
                )


async def steady(pilot: Pilot) -> None:
    # The live look is a worker that comes back every few seconds: not waited for, it changes nothing here.
    await wait_for(pilot, lambda: quiet(pilot.app, waiting=("events-live", "errors-states")), timeout=15)
    await still(pilot, (Input,))


async def errors_tab(pilot: Pilot, emulator: ServerHandle) -> ErrorsTable:
    app = pilot.app
    write_replays(app, emulator)  # type: ignore[arg-type]
    await wait_for(pilot, lambda: quiet(app), timeout=15)
    app.open_id(emulator.emulator.demo.order_workflow_id)  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: bool(app.screen.query(ErrorsTable)), timeout=10)
    table = app.screen.query_one(ErrorsTable)
    await wait_for(pilot, lambda: bool(table.rows), timeout=10)
    await pilot.press(*"]]]]", "down")
    await wait_for(pilot, lambda: app.focused is table.table and len(table.states) == len(table.rows), timeout=10)
    await steady(pilot)
    return table


@pytest.mark.parametrize("size", SIZES)
def test_errors_tab_with_replay_states(snap_compare, app, fixed_emulator, size) -> None:
    async def run(pilot: Pilot) -> None:
        await errors_tab(pilot, fixed_emulator)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_error_groups(snap_compare, app, fixed_emulator, size) -> None:
    async def run(pilot: Pilot) -> None:
        await errors_tab(pilot, fixed_emulator)
        await pilot.press("g")
        view = pilot.app.screen.query_one(ErrorGroupsView)
        await wait_for(pilot, lambda: bool(view.groups))
        # The failure fitted to the table's width (after its first layout), not as wide as its text.
        await wait_for(pilot, lambda: not any(c.auto_width for c in view.table.columns.values()))
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_error_with_its_replays(snap_compare, app, fixed_emulator, size) -> None:
    async def run(pilot: Pilot) -> None:
        await errors_tab(pilot, fixed_emulator)
        await pilot.press("down", "enter")  # the one that failed again
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, ErrorEventScreen), timeout=10)
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_errors_tab_of_a_workflow_that_never_failed(snap_compare, app, fixed_emulator, size) -> None:
    """It says so under the table's header, where the eye is, not on the status line a screen below."""

    async def run(pilot: Pilot) -> None:
        store = fixed_emulator.emulator.store
        calm = next(w.id for w in store.workflows.values() if w.name == "GitHub issues to Slack")
        await wait_for(pilot, lambda: quiet(pilot.app), timeout=15)
        pilot.app.open_id(calm)  # type: ignore[attr-defined]
        await wait_for(pilot, lambda: bool(pilot.app.screen.query(ErrorsTable)), timeout=10)
        table = pilot.app.screen.query_one(ErrorsTable)
        await pilot.press(*"]]]]", "down")
        await wait_for(pilot, lambda: table.pager.done and pilot.app.focused is table.table, timeout=10)
        await steady(pilot)

    assert snap_compare(app, terminal_size=size, run_before=run)


def bulk_with_fix(emulator: ServerHandle, fix: str) -> Step:
    """Three errors never replayed marked (the four newest are replays or were replayed: a bulk replay of marked
    errors leaves those out), in the bulk replay, with `fix` typed."""

    async def run(pilot: Pilot) -> None:
        table = await errors_tab(pilot, emulator)
        table.table.move_cursor(row=4)
        for _ in range(3):
            await pilot.press("space")
        table.table.move_cursor(row=0)
        await pilot.press("R")
        await wait_for(
            pilot, lambda: isinstance(pilot.app.screen, BulkReplayScreen) and pilot.app.screen.planned, timeout=10
        )
        await pilot.press("f")
        pilot.app.screen.query_one("#fix", Input).value = fix
        await pilot.press("enter")
        await steady(pilot)

    return run


@pytest.mark.parametrize("size", SIZES)
def test_bulk_replay_with_a_fix(snap_compare, app, fixed_emulator, size) -> None:
    run = bulk_with_fix(fixed_emulator, '{"customer_email": "ops@example.com", "quantity": 2}')
    assert snap_compare(app, terminal_size=size, run_before=run)


@pytest.mark.parametrize("size", SIZES)
def test_bulk_replay_with_a_bad_fix(snap_compare, app, fixed_emulator, size) -> None:
    run = bulk_with_fix(fixed_emulator, "items[0].sku = SKU-1")
    assert snap_compare(app, terminal_size=size, run_before=run)
